"""Explanations: refusals (:class:`Violation`), state changes (:class:`Event`) and results (:class:`Outcome`).

All three carry a message ``code`` (a catalogue key), the ``rule`` id they come from and named
parameters, and render in English or Japanese with :meth:`text`. They are plain immutable data, so they
can be compared, hashed, logged and sent to a browser.
"""

from __future__ import annotations

from typing import Any, Mapping

from toolkit.core import i18n
from toolkit.core.rules import require_rule


def _freeze_value(value: Any) -> Any:
    if type(value) is list:
        return tuple(_freeze_value(v) for v in value)
    if type(value) is set:
        return frozenset(value)
    return value


def _freeze(params: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    # Hot path: every move of every game builds events, so no closures and no work for empty params.
    # Sorting the items compares keys only (they are unique), and most events carry no list or set, so
    # the items tuple is usually the answer as it is.
    if not params:
        return ()
    items = sorted(params.items())
    for _, value in items:
        if type(value) is list or type(value) is set:
            return tuple([(key, _freeze_value(value)) for key, value in items])
    return tuple(items)


class _Explained:
    __slots__ = ("code", "rule", "params")
    code: str
    rule: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, code: str, rule: str, /, **params: Any):
        require_rule(rule)
        _set_code(self, code)
        _set_rule(self, rule)
        _set_params(self, _freeze(params))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)

    def text(self, lang: str = "en") -> str:
        """The sentence in ``lang`` (``"en"`` or ``"ja"``)."""
        return i18n.translate(self.code, lang, dict(self.params))

    @property
    def message(self) -> str:
        """The English sentence."""
        return self.text("en")

    def __str__(self) -> str:
        return self.message

    def _key(self) -> tuple:
        return (type(self), self.code, self.rule, self.params)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Explained) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.params)
        return f"{type(self).__name__}({self.code!r}, {self.rule!r}{extra})"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "en": self.text("en"), "ja": self.text("ja")}


# The slots' own setters (the classes refuse setattr: they are immutable): half the cost of
# object.__setattr__, and every move of every game builds events.
_set_code, _set_rule, _set_params = (getattr(_Explained, name).__set__ for name in ("code", "rule", "params"))


class Violation(_Explained):
    """Why a move is refused.

    >>> from toolkit.core.explain import Violation
    >>> v = Violation("NOT_YOUR_TURN", "core.turn", seat=2, current=0)
    >>> str(v) == v.message
    True
    >>> v.message
    "It is not seat 3's turn: seat 1 acts now."
    """

    __slots__ = ()


class Event(_Explained):
    """One state change, tied to the rule that caused it (shown in event logs and replays).

    ``seat`` is the player the event concerns, or ``None`` for table events.
    """

    __slots__ = ("seat",)

    def __init__(self, code: str, rule: str, /, seat: int | None = None, **params: Any):
        # _Explained.__init__ inlined: events are built on every move of every game, and passing
        # **params on to super() would copy the keyword dict once more.
        require_rule(rule)
        _set_code(self, code)
        _set_rule(self, rule)
        _set_params(self, _freeze(params))
        _set_seat(self, seat)

    def _key(self) -> tuple:
        return super()._key() + (self.seat,)

    def text(self, lang: str = "en") -> str:
        params = dict(self.params)
        params.setdefault("seat", self.seat)
        return i18n.translate(self.code, lang, params)

    def to_json(self) -> dict[str, Any]:
        return dict(super().to_json(), seat=self.seat)


_set_seat = Event.seat.__set__


class Outcome(_Explained):
    """How a finished game ended, as data.

    ``result`` is ``"win"`` (``winners`` lists the seats; everyone in a cooperative game),
    ``"loss"`` (a cooperative loss, nobody wins) or ``"draw"`` (shared victory among ``winners``).
    ``scores`` holds final points per seat where the game scores.
    """

    __slots__ = ("result", "winners", "scores")

    def __init__(self, code: str, rule: str, /, result: str, winners: tuple[int, ...] = (),
                 scores: tuple[int, ...] = (), **params: Any):
        if not isinstance(result, str) or result not in ("win", "loss", "draw"):
            from toolkit.core.errors import InvalidStateError
            raise InvalidStateError(f"Outcome result must be win, loss or draw, not {result!r:.60}")
        super().__init__(code, rule, **params)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "winners", tuple(winners))
        object.__setattr__(self, "scores", tuple(scores))

    def _key(self) -> tuple:
        return super()._key() + (self.result, self.winners, self.scores)

    def to_json(self) -> dict[str, Any]:
        return dict(super().to_json(), result=self.result, winners=list(self.winners),
                    scores=list(self.scores))
