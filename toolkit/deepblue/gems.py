"""Gem colours, their printed values, the setup bag and the supply, and the parsing of bag descriptions.

Known facts (English rulebook transcript, ultraboardgames): 19 gems start in the bag (4 black, 4 blue,
7 silver, 3 gold, 1 red); the supply holds 2 silver, 2 gold, 2 red, 2 green, 4 purple; silver, gold and red
score 1, 2 and 4 VP (3, 5 and 10 on a matching scouting spot). Green and purple score only through crew
cards; black and blue are hazards.
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping

from toolkit.core.checks import int_text
from toolkit.core.errors import RuleError
from toolkit.core.explain import Violation

#: every gem colour, in the order used by count tuples in states
COLOURS: tuple[str, ...] = ("silver", "gold", "red", "green", "purple", "black", "blue")
TREASURES: tuple[str, ...] = ("silver", "gold", "red")
HAZARDS: tuple[str, ...] = ("black", "blue")
SHIELD_KINDS: tuple[str, ...] = ("black", "blue", "any")

#: printed VP per gem; green and purple score 0 on their own (only crew cards score them)
GEM_VP: Mapping[str, int] = {"silver": 1, "gold": 2, "red": 4, "green": 0, "purple": 0, "black": 0, "blue": 0}
#: VP per gem for a diver whose boat is on the matching scouting spot
SPOT_GEM_VP: Mapping[str, int] = {"silver": 3, "gold": 5, "red": 10}
#: the six kinds of scouting spot: three raise a treasure's value, three give one free protection
SPOT_KINDS: tuple[str, ...] = ("silver", "gold", "red", "black", "blue", "any")

SETUP_BAG: dict[str, int] = {"silver": 7, "gold": 3, "red": 1, "black": 4, "blue": 4}
SETUP_SUPPLY: dict[str, int] = {"silver": 2, "gold": 2, "red": 2, "green": 2, "purple": 4}


class GemInputError(RuleError):
    """A bag, a list of drawn gems or a set of protections that does not describe a real position.

    Carries a :class:`Violation` so views can show the reason in English or Japanese; ``str(error)``
    names the rule id, e.g. ``deepblue.bag.contents: unknown gem colour 'pink'``.
    """

    def __init__(self, violation: Violation):
        self.violation = violation
        super().__init__(f"{violation.rule}: {violation.message}")


def _bad(code: str, rule: str = "deepblue.bag.contents", **params) -> GemInputError:
    return GemInputError(Violation(code, rule, **params))


def _count(value, what: str, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            as_float = float(value)
        except (TypeError, ValueError, OverflowError):
            raise _bad("DEEPBLUE_BAD_COUNT", rule, what=what, value=_quote(value)) from None
        # NaN and ±inf are floats too, but no count: int(nan) would raise a bare ValueError
        if not math.isfinite(as_float) or as_float != int(as_float):
            raise _bad("DEEPBLUE_BAD_COUNT", rule, what=what, value=_quote(value))
        value = int(as_float)
    if value < 0:
        raise _bad("DEEPBLUE_NEGATIVE_COUNT", rule, what=what, value=value)
    return value


def _quote(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _not_a_list(what: str, value, rule: str) -> GemInputError:
    return _bad("DEEPBLUE_NOT_A_LIST", rule, what=what, value=_quote(value))


def gem_counts(gems: Mapping[str, int] | Iterable[str] | str | None, what: str = "bag",
               rule: str = "deepblue.bag.contents") -> dict[str, int]:
    """A full ``{colour: count}`` dict (every colour present) from a mapping, a list of colour names or a
    text such as ``"silver 7, gold 3, black"``. Unknown colours and negative counts raise
    :class:`GemInputError`."""
    counts = dict.fromkeys(COLOURS, 0)
    if gems is None:
        return counts
    if type(gems) is dict:
        # fast path (the next-draw risk has a 50 µs budget): exact colour names and plain ints
        for colour, n in gems.items():
            if type(n) is int and n >= 0 and colour in counts:
                counts[colour] += n
            else:
                break
        else:
            return counts
        counts = dict.fromkeys(COLOURS, 0)
    if isinstance(gems, str):
        items: list[tuple[str, int]] = []
        for part in (p.strip() for p in gems.replace(";", ",").split(",")):
            if not part:
                continue
            words = part.split()
            if len(words) == 1:
                items.append((words[0], 1))
            elif len(words) == 2:
                items.append((words[0], _count(_int_text(words[1], what, rule), what, rule)))
            else:
                raise _bad("DEEPBLUE_BAD_GEM_TEXT", rule, text=part)
    elif isinstance(gems, Mapping):
        items = [(k, _count(v, f"{what}[{k!r}]", rule)) for k, v in gems.items()]
    else:
        try:
            items = [(g, 1) for g in gems]
        except TypeError:
            raise _not_a_list(what, gems, rule) from None
    for colour, n in items:
        key = colour.strip().lower() if isinstance(colour, str) else None
        if key not in counts:
            raise _bad("DEEPBLUE_UNKNOWN_COLOUR", rule, colour=repr(colour), colours=list(COLOURS))
        counts[key] += n
    return counts


def _int_text(text: str, what: str, rule: str) -> int:
    # ASCII digits only: int() reads "٣" as 3 and raises a bare ValueError on "²"
    try:
        return int_text(what, text)
    except RuleError:
        raise _bad("DEEPBLUE_BAD_COUNT", rule, what=what, value=_quote(text)) from None


def shield_counts(shields: Mapping[str, int] | Iterable[str] | None) -> dict[str, int]:
    """``{"black": n, "blue": n, "any": n}`` from a mapping or a list such as ``["any", "blue"]``."""
    counts = dict.fromkeys(SHIELD_KINDS, 0)
    if shields is None:
        return counts
    if type(shields) is dict and all(type(n) is int and n >= 0 and k in counts for k, n in shields.items()):
        counts.update(shields)
        return counts
    rule = "deepblue.dive.protection"
    if isinstance(shields, str):
        shields = [s.strip() for s in shields.split(",") if s.strip()]
    try:
        items = (list(shields.items()) if isinstance(shields, Mapping)
                 else [(s, 1) for s in shields])
    except TypeError:
        raise _not_a_list("shields", shields, rule) from None
    for kind, n in items:
        key = kind.strip().lower() if isinstance(kind, str) else None
        if key not in counts:
            raise _bad("DEEPBLUE_UNKNOWN_SHIELD", rule, kind=repr(kind), kinds=list(SHIELD_KINDS))
        counts[key] += _count(n, f"shields[{kind!r}]", rule)
    return counts


def spot_list(spots: Iterable[str] | str | None) -> tuple[str, ...]:
    """Validated scouting-spot kinds (``"silver"``, ``"gold"``, ``"red"``, ``"black"``, ``"blue"``, ``"any"``)."""
    if spots is None:
        return ()
    if isinstance(spots, str):
        spots = [s.strip() for s in spots.split(",") if s.strip()]
    if isinstance(spots, Mapping):
        raise _not_a_list("spots", spots, "deepblue.spot.bonus")
    try:
        spots = list(spots)
    except TypeError:
        raise _not_a_list("spots", spots, "deepblue.spot.bonus") from None
    out = []
    for s in spots:
        key = s.strip().lower() if isinstance(s, str) else None
        if key not in SPOT_KINDS:
            raise _bad("DEEPBLUE_UNKNOWN_SPOT", "deepblue.spot.bonus", spot=repr(s), kinds=list(SPOT_KINDS))
        out.append(key)
    return tuple(out)


def gem_values(spots: Iterable[str] = ()) -> dict[str, int]:
    """VP per gem colour for a diver on the given scouting spots."""
    values = dict(GEM_VP)
    for s in spots:
        if s in SPOT_GEM_VP:
            values[s] = SPOT_GEM_VP[s]
    return values
