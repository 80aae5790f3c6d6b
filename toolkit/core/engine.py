"""The engine shape every game follows (python-chess verbs, OpenSpiel's game/state split, boardgame.io moves).

A game subclasses :class:`Engine` and implements the abstract methods. States are immutable values; moves
are small frozen dataclasses with ``__str__`` and a parser. The base class supplies the checked verbs:

* :meth:`Engine.apply` refuses with :class:`IllegalMoveError` (carrying the :class:`Violation`) and leaves
  the old state untouched — states are immutable, so there is nothing to roll back;
* :meth:`Engine.transition` also returns the :class:`Event` s the move caused, each with its rule id;
* :meth:`Engine.is_legal` and the JSON round trip of states and moves.

The invariant tested for every game: ``why_illegal(s, m) is None`` exactly when ``m in legal_moves(s)``.
"""

from __future__ import annotations

import functools
import inspect
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Generic, Mapping, Sequence, TypeVar

from toolkit.core import serial
from toolkit.core.errors import IllegalMoveError, InvalidMoveError, InvalidStateError, RuleError
from toolkit.core.explain import Event, Outcome, Violation

S = TypeVar("S")
M = TypeVar("M")


def check_state(engine: Engine, state: Any) -> None:
    """The check every state verb makes, for a verb that makes it inline instead of through the wrapper
    (then marked ``_checks_state = True``): a game's hottest verbs, which random playouts call at every
    action, save the wrapper's extra call. Raises the same ``TypeError``."""
    if not isinstance(state, engine.state_type):
        raise TypeError(f"state must be a {engine.state_type.__name__}, not {_quote(state)}")


def _checks_state(method: Callable) -> Callable:
    """``method`` refusing a first argument ``state`` that is not this engine's state: every public verb
    takes a state, and ``legal_moves(None)`` should say so, not fail deep inside with AttributeError."""

    # The verbs random playouts call at every action have the shapes (self, state) and (self, state,
    # move): for them a wrapper of the same parameters, since Python calls it and the method directly,
    # where a ``*args, **kwargs`` wrapper packs the arguments and calls through the slow path (a third of
    # the Crew engine's slowdown in issue 28.4). Same names, so keyword calls work as before.
    params = list(inspect.signature(method).parameters.values())
    plain = all(p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty for p in params)
    names = [p.name for p in params]
    if plain and names == ["self", "state"]:
        @functools.wraps(method)
        def checked(self, state):
            if not isinstance(state, self.state_type):
                raise TypeError(f"state must be a {self.state_type.__name__}, not {_quote(state)}")
            return method(self, state)
    elif plain and names == ["self", "state", "move"]:
        @functools.wraps(method)
        def checked(self, state, move):
            if not isinstance(state, self.state_type):
                raise TypeError(f"state must be a {self.state_type.__name__}, not {_quote(state)}")
            return method(self, state, move)
    else:
        @functools.wraps(method)
        def checked(self, state, *args, **kwargs):
            if not isinstance(state, self.state_type):
                raise TypeError(f"state must be a {self.state_type.__name__}, not {_quote(state)}")
            return method(self, state, *args, **kwargs)

    # a call with wrong arguments names the method, as it did unwrapped ("legal_moves() takes ...")
    checked.__code__ = checked.__code__.replace(co_name=method.__name__, co_qualname=method.__qualname__)
    checked._checks_state = True  # type: ignore[attr-defined]
    return checked


def _checks_described_move(method: Callable) -> Callable:
    """``describe_move`` refusing what is not a move of this game (or an unknown ``lang``) up front, so
    every game answers ``describe_move("x")`` the same way."""

    @functools.wraps(method)
    def checked(self, move, *args, **kwargs):
        self.check_move_type(move)
        lang = kwargs.get("lang", args[0] if args else "en")
        from toolkit.core.i18n import check_language
        check_language(lang)
        return method(self, move, *args, **kwargs)

    checked._checks_state = True  # type: ignore[attr-defined]
    return checked


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _guard_state_verbs(cls: type) -> None:
    """Wrap each public method of ``cls`` whose first parameter is ``state`` with :func:`_checks_state`."""
    for name, attr in list(vars(cls).items()):
        if name.startswith("_") or not inspect.isfunction(attr) or getattr(attr, "_checks_state", False):
            continue
        if name == "describe_move":
            setattr(cls, name, _checks_described_move(attr))
            continue
        params = list(inspect.signature(attr).parameters)
        if len(params) >= 2 and params[1] == "state":
            setattr(cls, name, _checks_state(attr))


class Engine(ABC, Generic[S, M]):
    """Base class of the four game engines (and of the tiny test game).

    Every public method whose first parameter is ``state`` (here and in subclasses) refuses a value that
    is not a ``state_type`` with a ``TypeError`` naming ``state``.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _guard_state_verbs(cls)

    #: short name, also the rule-id prefix and the package name (``"crew"``)
    name: ClassVar[str]
    #: the state dataclass, for JSON loading
    state_type: ClassVar[type]
    #: the move dataclasses, for parsing and JSON loading
    move_types: ClassVar[tuple[type, ...]]

    # ---- what a game implements -------------------------------------------------------------
    @abstractmethod
    def new_state(self, seed: int, **options: Any) -> S:
        """The start of a game: all chance (deals, shuffles) is drawn from ``seed``."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[M]:
        """Every move allowed now (empty when the game is over)."""

    @abstractmethod
    def why_illegal(self, state: S, move: M) -> Violation | None:
        """``None`` if ``move`` is legal now, otherwise the reason, tied to a rule id."""

    @abstractmethod
    def _transition(self, state: S, move: M) -> tuple[S, tuple[Event, ...]]:
        """Apply a move already known to be legal; return the new state and its events."""

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat expected to act now (``None`` when the game is over or nobody in particular acts)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""

    @abstractmethod
    def observe(self, state: S, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see (JSON-able data). ``seat=None`` is the public view of a spectator."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """The move written as ``text`` (``str(move)`` round-trips); :class:`InvalidMoveError` otherwise."""

    # ---- supplied verbs ---------------------------------------------------------------------
    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def is_legal(self, state: S, move: M) -> bool:
        return self.why_illegal(state, move) is None

    def transition(self, state: S, move: M | str) -> tuple[S, tuple[Event, ...]]:
        """Checked move: the new state and the events it caused, or :class:`IllegalMoveError`."""
        if isinstance(move, str):
            move = self.parse_move(move)
        self.check_move_type(move)
        violation = self.why_illegal(state, move)
        if violation is not None:
            raise IllegalMoveError(violation)
        return self._transition(state, move)

    def apply(self, state: S, move: M | str) -> S:
        """Checked move: the new state, or :class:`IllegalMoveError` (``state`` is never changed)."""
        return self.transition(state, move)[0]

    def check_move_type(self, move: Any) -> None:
        if not isinstance(move, self.move_types):
            raise InvalidMoveError(f"move {_quote(move)} is not a {self.name} move "
                                   f"({', '.join(t.__name__ for t in self.move_types)})")

    # ---- who acts (bots and tables) ----------------------------------------------------------
    def seat_count(self, state: S) -> int:
        """How many seats the game has (the length of ``play_out``'s ``seats``)."""
        players = getattr(state, "players", None)
        if isinstance(players, int):
            return players
        if players is not None:
            return len(players)
        raise NotImplementedError(f"{type(self).__name__} must say how many seats a state has")  # pragma: no cover

    def decider(self, state: S) -> int | None:
        """The seat whose player chooses the move the game waits for. Usually the current player; a
        game with a dummy seat (the Crew's TONOJA) names the seat that decides for it."""
        return self.current_player(state)

    def actor(self, state: S, move: M) -> int | None:
        """The seat that makes ``move`` in ``state`` (``None`` if no seat may)."""
        return self.decider(state)

    def optional_actors(self, state: S) -> tuple[int, ...]:
        """Seats other than the decider that may act now if they wish (the Crew's sonar between
        tricks). A bot at such a seat may decline with ``Decision(None, …)``."""
        return ()

    def play_out_over(self, state: S) -> bool:
        """Where ``toolkit.core.bots.play_out`` stops: the end of the game (the Crew: of one attempt)."""
        return self.is_over(state)

    def describe_move(self, move: M, lang: str = "en") -> str:
        """How a move reads in a menu; games may translate it."""
        return str(move)

    def validate_state(self, state: S) -> None:
        """Raise :class:`InvalidStateError` if ``state`` breaks an invariant (called after loading)."""

    # ---- JSON --------------------------------------------------------------------------------
    def state_to_json(self, state: S) -> str:
        return serial.dumps(state)

    def state_from_json(self, text: str | bytes) -> S:
        """Load a saved state; every defect is an :class:`InvalidStateError` naming the field."""
        state = serial.loads(text, self.state_type)
        try:
            self.validate_state(state)
        except InvalidStateError:
            raise
        except RuleError as exc:
            raise InvalidStateError(str(exc)) from None
        return state

    def move_to_json(self, move: M) -> str:
        return str(move)

    def move_from_json(self, text: str) -> M:
        return self.parse_move(text)

    def parse_moves(self, texts: Sequence[str]) -> list[M]:
        if isinstance(texts, (str, bytes)) or not isinstance(texts, (list, tuple)):
            raise TypeError(f"texts must be a list of move texts, not {_quote(texts)}")
        return [self.parse_move(t) for t in texts]


_guard_state_verbs(Engine)
