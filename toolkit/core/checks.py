"""Shared argument checks for public functions: one wording for one kind of mistake.

Every check names the parameter and quotes the value. A value of the wrong *kind* (a list where a number
is wanted) raises ``TypeError`` unless the caller passes an ``error`` class, which the game packages do
when their API refuses every bad value with a :class:`~toolkit.core.errors.RuleError` (Deep Blue's risk
functions). A value of the right kind but out of range raises ``error`` (default :class:`InvalidMoveError`).

>>> check_int("players", 4, 3, 5)
4
>>> check_int("players", -1, 3, 5)
Traceback (most recent call last):
...
toolkit.core.errors.InvalidMoveError: players must be from 3 to 5, not -1
"""

from __future__ import annotations

from typing import Any

from toolkit.core.errors import InvalidMoveError, RuleError

#: the largest seed accepted: numpy seeds any non-negative integer, but a seed is a short record of a game
MAX_SEED = 2**128 - 1


def _quote(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _range_text(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    return f"at most {high}"


def check_int(name: str, value: Any, low: int | None = None, high: int | None = None, *,
              error: type[RuleError] = InvalidMoveError, type_error: type[Exception] = TypeError) -> int:
    """``value`` as an ``int`` (bools refused) within ``[low, high]``.

    Wrong kind: ``type_error`` (``TypeError``, or a RuleError class for APIs that refuse everything with
    one); out of range: ``error``. Both messages name ``name`` and quote the value.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise type_error(f"{name} must be a whole number, not {_quote(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise error(f"{name} must be {_range_text(low, high)}, not {_quote(value)}")
    return int(value)


def check_seed(value: Any, name: str = "seed", *, error: type[RuleError] = InvalidMoveError,
               type_error: type[Exception] = TypeError) -> int:
    """A seed: a whole number from 0 to :data:`MAX_SEED` (numpy refuses negative seeds with a bare
    ``ValueError``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise type_error(f"{name} must be a whole number, not {_quote(value)}")
    if not 0 <= value <= MAX_SEED:
        raise error(f"{name} must be a whole number from 0 to 2**128 - 1, not {_quote(value)}")
    return int(value)


def check_bool(name: str, value: Any, *, type_error: type[Exception] = TypeError) -> bool:
    """``value`` if it is ``True`` or ``False``; ``"no"`` or ``1`` are not read as a switch."""
    if not isinstance(value, bool):
        raise type_error(f"{name} must be True or False, not {_quote(value)}")
    return value


def check_str(name: str, value: Any, *, type_error: type[Exception] = TypeError) -> str:
    if not isinstance(value, str):
        raise type_error(f"{name} must be a text, not {_quote(value)}")
    return value


def int_text(name: str, text: str, *, error: type[RuleError] = InvalidMoveError) -> int:
    """A whole number written in ASCII digits (optionally signed): ``"12"``, ``"-3"``.

    ``int()`` alone also reads ``"٣"`` and ``" 3_0"`` and raises a bare ``ValueError`` on ``"²"``; a
    move or a count is written in ASCII digits, everything else is refused naming ``name``.
    """
    body = text[1:] if text[:1] in "+-" else text
    if not (body.isascii() and body.isdigit()) or len(body) > 40:
        raise error(f"{name} must be written in digits 0-9, not {_quote(text)}")
    return int(text)


def one_of(value: Any, choices: Any) -> bool:
    """``value in choices`` for a value that came from outside: ``False`` for an unhashable value (a list
    where a name is wanted: ``x in {…}`` would raise a bare ``TypeError``) and for an array (numpy answers
    ``==`` element by element, and ``x in (…)`` then raises a bare ``ValueError``).

    >>> one_of("sat", ("auto", "sat")), one_of(["sat"], {"sat"}), one_of(None, (2, 3))
    (True, False, False)
    """
    try:
        hash(value)
    except TypeError:
        return False
    try:
        return bool(value in choices)
    except (TypeError, ValueError):   # an exotic value whose == is not a truth value
        return False


def check_iterable(name: str, value: Any, *, type_error: type[Exception] = TypeError) -> Any:
    """``value`` if it can be iterated over (a list, a tuple, a generator …), else ``type_error`` naming
    ``name``: ``for x in 0`` would fail with a bare "'int' object is not iterable"."""
    try:
        iter(value)
    except TypeError:
        raise type_error(f"{name} must be a list or another sequence, not {_quote(value)}") from None
    return value
