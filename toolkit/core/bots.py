"""Bots: seats played by the computer, from what that seat may see and nothing else.

A bot is any object with a ``name`` and ``decide(view, legal, rng) -> Decision``:

* ``view`` is exactly ``engine.observe(state, seat)`` for the seat asked (its ``"seat"`` entry says which);
* ``legal`` is ``engine.legal_moves(state, seat)`` — that seat's own moves only: another seat's playable or
  communicable cards (the Crew's sonar, Deep Blue's scoring cards) would name its hidden hand;
* ``rng`` is a seeded :class:`numpy.random.Generator` owned by the caller.

A bot never receives a state or an engine holding hidden cards: hidden information is kept out by the
shape of the call, not by the bot's good manners. :func:`play_out` and :class:`BotTable` (which the
dashboards' tables use) are the only places that call ``observe`` for a bot.

``Decision(move, reason)``: ``reason`` is an :class:`~toolkit.core.explain.Event` with a rule id (a game
rule or a ``bots.*`` id), so it reads in English and Japanese like every other explanation. ``move`` may
be ``None`` only for a seat the game is not waiting for (see :meth:`Engine.optional_actors`): "I do not
act now".

>>> from toolkit.core.bots import RandomBot, play_out
>>> bot = RandomBot()
>>> bot.name
'random'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from toolkit.core.engine import Engine
from toolkit.core.errors import InvalidSeatError, RuleError
from toolkit.core.explain import Event

__all__ = ["Bot", "BotError", "BotTable", "Decision", "RandomBot", "bot_rng", "bots_of", "check_view", "make_bot",
           "play_out"]


class BotError(RuleError):
    """A bot broke the protocol (an illegal or foreign move, no move when one is due) or a seat is
    misconfigured; the message names the seat and the bot."""


@dataclass(frozen=True)
class Decision:
    """What a bot does and why. ``move`` is a move of the game (``None``: this seat does not act now)."""

    move: Any
    reason: Event

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang``."""
        return self.reason.text(lang)


@runtime_checkable
class Bot(Protocol):
    """The protocol every bot follows (see the module docstring)."""

    name: str

    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        ...


class RandomBot:
    """Uniform over the legal moves this seat may make; the baseline every study compares against.

    For a seat the game is not waiting for it acts with the same chance as choosing any one move,
    so optional actions (the Crew's sonar) happen now and then, as a careless player's would.
    """

    name = "random"

    def __init__(self, actor: Callable[[Mapping[str, Any], Any], int | None] | None = None):
        # actor(view, move) -> seat making the move; None: every move in `legal` is this seat's.
        self._actor = actor

    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        seat = view.get("seat")
        mine = list(legal) if self._actor is None else [m for m in legal if self._actor(view, m) == seat]
        if not mine:
            return Decision(None, Event("BOT_NO_MOVE", "bots.random", seat=seat))
        move = mine[int(rng.integers(len(mine)))]
        return Decision(move, Event("BOT_RANDOM", "bots.random", seat=seat, options=len(mine)))


def check_view(view: Any, game: str, keys: Sequence[str] = ("seat",)) -> Mapping[str, Any]:
    """Refuse what is not an observation of ``game`` (``ENGINE.observe(state, seat)``): a non-mapping is a
    ``TypeError`` naming ``view``; a mapping without the entries a bot reads is a :class:`BotError`."""
    if not isinstance(view, Mapping):
        raise TypeError(f"view must be the mapping ENGINE.observe(state, seat) returns, not {type(view).__name__}")
    missing = [k for k in keys if k not in view]
    if missing:
        raise BotError(f"view is not a {game} observation: it lacks {', '.join(map(repr, missing))}")
    return view


def bot_rng(seed: int, seat: int) -> np.random.Generator:
    """The generator a seat's bot uses in a game played from ``seed``: independent of the game's own
    chance stream and of the other seats, so swapping one seat's bot never changes another's dice."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {seed!r}")
    # 0xB07 keeps the bots' streams apart from Chance's default_rng([seed, n]).
    return np.random.default_rng([abs(seed), 0xB07, seat, 1 if seed < 0 else 0])


def bots_of(engine: Engine) -> Mapping[str, Callable[[], Any]]:
    """The game's ``BOTS`` registry (``toolkit.<game>.BOTS``): level name → zero-argument factory."""
    try:
        module = importlib.import_module(f"toolkit.{engine.name}")
    except ImportError:
        return {"random": RandomBot}
    return getattr(module, "BOTS", {"random": RandomBot})


def make_bot(engine: Engine, level: Any) -> Any:
    """A bot for a seat: ``level`` is a bot already, or a level name of the game's ``BOTS``."""
    if isinstance(level, str):
        registry = bots_of(engine)
        if level not in registry:
            raise BotError(f"unknown bot level {level!r} for {engine.name}: choose one of "
                           f"{', '.join(repr(k) for k in registry)}")
        return registry[level]()
    if not callable(getattr(level, "decide", None)):
        raise TypeError(f"a seat must be a bot or a level name, not {level!r}")
    return level


class BotTable:
    """Seats played by bots (``None`` for a person) around one engine; asks the right bot at each moment.

    The tables in the dashboards and :func:`play_out` both drive a game with :meth:`step`: it returns the
    next bot decision due now, or ``None`` when a person must act (or the game is over). A bot is shown
    ``engine.observe(state, seat)`` and ``engine.legal_moves(state, seat)`` (its own moves) only; a seat that
    is not the game's raises :class:`~toolkit.core.InvalidSeatError`.
    """

    def __init__(self, engine: Engine, seats: Sequence[Any], seed: int):
        self.engine = engine
        self.seats = [None if s is None else make_bot(engine, s) for s in seats]
        self.rngs = [bot_rng(seed, i) for i in range(len(self.seats))]
        # Seats whose bot declined to act in `_declined_state`: not asked again until the state changes.
        self._declined: set[int] = set()
        self._declined_state: Any = None

    def is_bot(self, seat: int | None) -> bool:
        return seat is not None and 0 <= seat < len(self.seats) and self.seats[seat] is not None

    def ask(self, state: Any, seat: int) -> Decision:
        """The decision of ``seat``'s bot now, checked: it sees ``observe(state, seat)`` and
        ``legal_moves(state, seat)`` (its own moves) only."""
        self.engine.check_seat(state, seat)
        if seat is None or seat >= len(self.seats):
            raise InvalidSeatError(f"no seat {seat!r} at this table of {len(self.seats)} seats")
        bot = self.seats[seat]
        if bot is None:
            raise BotError(f"seat {seat} is played by a person, not a bot")
        legal = self.engine.legal_moves(state, seat)
        decision = bot.decide(self.engine.observe(state, seat), legal, self.rngs[seat])
        if not isinstance(decision, Decision):
            raise BotError(f"bot {bot.name!r} at seat {seat} returned {decision!r}, not a Decision")
        if decision.move is not None:
            if decision.move not in legal:
                raise BotError(f"bot {bot.name!r} at seat {seat} chose {decision.move}, which is not legal")
            if self.engine.actor(state, decision.move) != seat:
                raise BotError(f"bot {bot.name!r} at seat {seat} chose {decision.move}, another seat's move")
        return decision

    def step(self, state: Any) -> tuple[int, Decision] | None:
        """The next bot move due in ``state`` as ``(seat, decision)``; ``None`` if a person acts next."""
        if self.engine.play_out_over(state):
            return None
        if state is not self._declined_state:
            self._declined_state, self._declined = state, set()
        current = self.engine.decider(state)
        for seat in self.engine.optional_actors(state):
            if seat == current or not self.is_bot(seat) or seat in self._declined:
                continue
            decision = self.ask(state, seat)
            if decision.move is not None:
                return seat, decision
            self._declined.add(seat)
        if not self.is_bot(current):
            return None
        decision = self.ask(state, current)
        if decision.move is None:
            raise BotError(f"bot {self.seats[current].name!r} at seat {current} made no move, but the game "
                           "waits for it")
        return current, decision


def play_out(engine: Engine, seed: int, seats: Sequence[Any], max_moves: int = 100_000,
             **options: Any) -> tuple[Any, list]:
    """A whole game (for the Crew, one mission attempt) with ``seats[i]`` playing seat i.

    ``seats`` holds bots or level names of the game's ``BOTS``. The game's chance comes from ``seed`` (as
    ``engine.new_state(seed, **options)``) and each bot's rng from ``bot_rng(seed, seat)``, so
    ``(seed, seats, options)`` always gives the same game. Returns the final state and the moves played.

    >>> from toolkit.crew import ENGINE
    >>> state, moves = play_out(ENGINE, 3, ["random"] * 4, mission=1)   # doctest: +SKIP
    """
    if not isinstance(max_moves, int) or isinstance(max_moves, bool):
        raise TypeError(f"max_moves must be an int, not {max_moves!r}")
    if max_moves < 0:
        raise BotError(f"max_moves must be 0 or more, not {max_moves}")
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise TypeError(f"seats must be a sequence of bots or level names, not {seats!r}")
    if any(s is None for s in seats):
        raise BotError("play_out needs a bot at every seat (None is a person)")
    state = engine.new_state(seed, **options)
    players = engine.seat_count(state)
    if len(seats) != players:
        raise BotError(f"this game has {players} seats, but {len(seats)} bots were given")
    table = BotTable(engine, seats, seed)
    moves: list = []
    while len(moves) < max_moves:
        nxt = table.step(state)
        if nxt is None:
            break
        _, decision = nxt
        state = engine.apply(state, decision.move)
        moves.append(decision.move)
    return state, moves
