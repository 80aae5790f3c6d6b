"""A playthrough: the seed, the options and the moves, with every state and event along the way.

``Session`` is the one history object every view and the replay tool use::

    s = Session(engine, seed=7)
    s.push("play P9")          # raises IllegalMoveError with the reason
    s.try_push("play Y2")      # returns the Violation instead (never raises on a refusal)
    s.undo()
    Session.replay(engine, 7, ["play P9"])   # the same game, exactly

It keeps all states (they are immutable and share structure), so ``at(i)`` and the replay slider are O(1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Generic, Mapping, Sequence, TypeVar

from toolkit.core.engine import Engine
from toolkit.core.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, RuleError
from toolkit.core.explain import Event, Outcome, Violation

S = TypeVar("S")
M = TypeVar("M")


@dataclass(frozen=True)
class Step(Generic[S, M]):
    """One applied move: the move, the state it led to, and the events it caused."""

    move: M
    state: S
    events: tuple[Event, ...]


@dataclass
class Session(Generic[S, M]):
    engine: Engine
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    initial: Any = None
    steps: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.engine, Engine):
            raise TypeError(f"engine must be an Engine, not {self.engine!r:.60}")
        if not isinstance(self.options, Mapping):
            raise TypeError(f"options must be a mapping of option names to values, not {self.options!r:.60}")
        if not isinstance(self.steps, list):
            raise TypeError(f"steps must be a list of Step, not {self.steps!r:.60}")
        if self.initial is None:
            self.initial = self.engine.new_state(self.seed, **dict(self.options))

    # ---- reading ---------------------------------------------------------------------------
    @property
    def state(self) -> S:
        return self.steps[-1].state if self.steps else self.initial

    @property
    def moves(self) -> list[M]:
        return [s.move for s in self.steps]

    @property
    def events(self) -> list[Event]:
        """The whole event log, oldest first."""
        return [e for s in self.steps for e in s.events]

    def at(self, index: int) -> S:
        """The state after ``index`` moves (0 is the start)."""
        if not 0 <= index <= len(self.steps):
            raise InvalidMoveError(f"no position {index}: this game has positions 0 to {len(self.steps)}")
        return self.initial if index == 0 else self.steps[index - 1].state

    def __len__(self) -> int:
        return len(self.steps)

    def legal_moves(self) -> list[M]:
        return self.engine.legal_moves(self.state)

    def outcome(self) -> Outcome | None:
        return self.engine.outcome(self.state)

    # ---- changing --------------------------------------------------------------------------
    def push(self, move: M | str) -> Step:
        """Apply a move (object or text); raises :class:`RuleError` and changes nothing if refused."""
        parsed = self.engine.parse_move(move) if isinstance(move, str) else move
        new_state, events = self.engine.transition(self.state, parsed)
        step = Step(parsed, new_state, events)
        self.steps.append(step)
        return step

    def try_push(self, move: M | str) -> Violation | None:
        """Apply a move if legal. Returns the Violation of a refused move, ``None`` if it was applied.

        Malformed input raises :class:`InvalidMoveError` (it is not a move, so there is no rule to cite).
        """
        try:
            self.push(move)
        except IllegalMoveError as exc:
            return exc.violation
        return None

    def undo(self) -> M | None:
        """Take back the last move; returns it (``None`` at the start)."""
        return self.steps.pop().move if self.steps else None

    def truncate(self, index: int) -> None:
        """Go back to position ``index``, forgetting the moves after it."""
        self.at(index)
        del self.steps[index:]

    # ---- saving and replaying --------------------------------------------------------------
    def to_json(self) -> str:
        """The playthrough as JSON: game, seed, options and the moves as text."""
        return json.dumps({"game": self.engine.name, "seed": self.seed, "options": dict(self.options),
                           "moves": [self.engine.move_to_json(m) for m in self.moves]}, ensure_ascii=False)

    @classmethod
    def replay(cls, engine: Engine, seed: int, moves: Sequence[M | str],
               options: Mapping[str, Any] | None = None) -> "Session":
        """Rebuild a game from its seed and moves; raises the first refusal with its move number."""
        session = cls(engine, seed, dict(options or {}))
        for number, move in enumerate(moves, 1):
            try:
                session.push(move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(exc.violation) from exc
            except RuleError as exc:
                raise type(exc)(f"move {number} ({move!s}): {exc}") from None
        return session

    @classmethod
    def from_json(cls, engine: Engine, text: str) -> "Session":
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as exc:
            raise InvalidStateError(f"not a saved playthrough: {exc}") from None
        if not isinstance(data, dict) or not {"seed", "moves"} <= set(data):
            raise InvalidStateError("a saved playthrough needs 'seed' and 'moves'")
        if data.get("game", engine.name) != engine.name:
            raise InvalidStateError(f"this playthrough is for {data['game']!r}, not {engine.name!r}")
        if not isinstance(data["seed"], int) or not isinstance(data["moves"], list):
            raise InvalidStateError("'seed' must be an integer and 'moves' a list of move texts")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise InvalidStateError("'options' must be an object")
        return cls.replay(engine, data["seed"], [str(m) for m in data["moves"]], options)
