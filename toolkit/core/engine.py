"""The engine shape every game follows (python-chess verbs, OpenSpiel's game/state split, boardgame.io moves).

A game subclasses :class:`Engine` and implements the abstract methods. States are immutable values; moves
are small frozen dataclasses with ``__str__`` and a parser. The base class supplies the checked verbs:

* :meth:`Engine.apply` refuses with :class:`IllegalMoveError` (carrying the :class:`Violation`) and leaves
  the old state untouched — states are immutable, so there is nothing to roll back;
* :meth:`Engine.transition` also returns the :class:`Event` s the move caused, each with its rule id;
* :meth:`Engine.is_legal` and the JSON round trip of states and moves.

The contract every engine keeps (``shared/DESIGN.md``, "One contract for every engine"; checked for every
game by ``tests/test_contract.py``). The base class enforces its generic parts by wrapping a game's own
``new_state``, ``legal_moves`` and ``observe`` when the game class is defined:

* ``new_state(seed, **options)``: a bad seed, an unknown option name or any refused option raises
  :class:`InvalidOptionError` (a game's own refusal of an option is re-raised as one, naming the value);
* ``legal_moves(state, seat=None)``: a game writes ``legal_moves(state)`` (every move allowed now); with a
  ``seat`` the base keeps exactly the moves that ``actor(state, move) == seat`` makes — what a bot at that
  seat is handed, so another seat's playable cards never reach it;
* ``observe(state, seat)`` and ``legal_moves``: a seat that is not one of the game's raises
  :class:`InvalidSeatError`; every view carries the shared keys of :data:`SHARED_VIEW_KEYS` beside the
  game's own (documented in ``docs/architecture.md``).

The invariant tested for every game: ``why_illegal(s, m) is None`` exactly when ``m in legal_moves(s)``.
"""

from __future__ import annotations

import functools
import inspect
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Generic, Mapping, Sequence, TypeVar

from toolkit.core import serial
from toolkit.core.checks import check_seed
from toolkit.core.errors import (IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidSeatError,
                                 InvalidStateError, RuleError)
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


#: The keys every ``observe(state, seat)`` holds, whatever the game (what every table needs). The base adds
#: all but ``phase`` and ``hand``, which only the game knows; see docs/architecture.md.
SHARED_VIEW_KEYS = ("game", "seat", "seat_count", "phase", "to_act", "may_act", "hand", "over")


def _checks_options(method: Callable) -> Callable:
    """``new_state`` raising :class:`InvalidOptionError` for every bad option (seed included), whichever
    error class the game's own checks use, so the same mistake reads the same in every game."""
    signature = inspect.signature(method)
    names = [p.name for p in list(signature.parameters.values())[2:]
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    known = frozenset(names)
    any_option = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())

    @functools.wraps(method)
    def new_state(self, seed, *args, **options):
        check_seed(seed, error=InvalidOptionError, type_error=InvalidOptionError)
        try:
            # the usual call (options by name) is checked by name: Signature.bind costs more than a
            # Crew mission's setup saves (issue 28.4); positional options take the full check
            if args or not (any_option or known.issuperset(options)):
                signature.bind(self, seed, *args, **options)
        except TypeError:
            unknown = sorted(k for k in options if k not in names)
            raise InvalidOptionError(
                f"unknown {self.name} option(s) {', '.join(map(repr, unknown)) or _quote(args)}: the options are "
                f"{', '.join(names)}") from None
        try:
            return method(self, seed, *args, **options)
        except InvalidOptionError:
            raise
        except RuleError as exc:
            raise InvalidOptionError(str(exc)) from exc

    new_state._contract = True  # type: ignore[attr-defined]
    return new_state


def _adds_seat(method: Callable) -> Callable:
    """A game's ``legal_moves(state)`` as ``legal_moves(state, seat=None)``: with a seat, only the moves that
    seat makes (``actor``). A game whose own ``legal_moves`` takes ``seat`` is left as it is."""
    if "seat" in inspect.signature(method).parameters:
        return method

    @functools.wraps(method)
    def legal_moves(self, state, seat=None):
        if seat is None:
            return method(self, state)
        self.check_seat(state, seat)
        actor = self.actor
        return [m for m in method(self, state) if actor(state, m) == seat]

    legal_moves.__signature__ = inspect.signature(legal_moves, follow_wrapped=False)  # type: ignore[attr-defined]
    legal_moves._contract = True  # type: ignore[attr-defined]
    return legal_moves


def _shares_vocabulary(method: Callable) -> Callable:
    """A game's ``observe`` refusing a foreign seat with :class:`InvalidSeatError` and adding the shared
    keys (:data:`SHARED_VIEW_KEYS`) to the game's view."""

    @functools.wraps(method)
    def observe(self, state, seat):
        self.check_seat(state, seat)
        view = dict(method(self, state, seat))
        view.update(self.shared_view(state, seat))
        return view

    observe._contract = True  # type: ignore[attr-defined]
    return observe


_CONTRACT_WRAPPERS = {"new_state": _checks_options, "legal_moves": _adds_seat, "observe": _shares_vocabulary}


def _contract_verbs(cls: type) -> None:
    """Wrap the contract verbs ``cls`` itself defines (see the module docstring)."""
    for name, wrap in _CONTRACT_WRAPPERS.items():
        attr = vars(cls).get(name)
        if inspect.isfunction(attr) and not getattr(attr, "_contract", False) \
                and not getattr(attr, "__isabstractmethod__", False):
            setattr(cls, name, wrap(attr))


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
        _contract_verbs(cls)
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
        """The start of a game: all chance (deals, shuffles) is drawn from ``seed``. A bad option raises
        :class:`InvalidOptionError` (the base re-raises a game's other refusals as one)."""

    @abstractmethod
    def legal_moves(self, state: S, seat: int | None = None) -> list[M]:
        """Every move allowed now (empty when the game is over); with ``seat``, only the moves that seat
        makes (``actor(state, move) == seat``). A game implements ``legal_moves(state)``; the base adds
        ``seat``."""

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
        """What ``seat`` may see (JSON-able data). ``seat=None`` is the public view of a spectator. The game's
        view must hold ``phase`` and ``hand`` (this seat's hidden cards, ``None`` for a spectator); the base
        adds the other :data:`SHARED_VIEW_KEYS` and refuses a foreign seat with :class:`InvalidSeatError`."""

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

    def check_seat(self, state: S, seat: Any) -> int | None:
        """``seat`` if it is ``None`` or one of this game's seats (``0 <= seat < seat_count``), else
        :class:`InvalidSeatError` quoting it."""
        if seat is None:
            return None
        count = self.seat_count(state)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < count:
            raise InvalidSeatError(f"no seat {_quote(seat)}: the seats of this {self.name} game are 0 to {count - 1}")
        return seat

    def shared_view(self, state: S, seat: int | None) -> dict[str, Any]:
        """The shared keys the base adds to every view (see :data:`SHARED_VIEW_KEYS`)."""
        to_act = self.decider(state)
        acting = set(self.optional_actors(state))
        if to_act is not None:
            acting.add(to_act)
        return {"game": self.name, "seat": seat, "seat_count": self.seat_count(state), "to_act": to_act,
                "may_act": sorted(acting), "over": self.is_over(state)}

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
