"""Sewer Pirats treasure: tokens, the box's contents (user-editable data) and scoring.

Token text is ``"fries 2"`` for loot (kind and the value printed on it) and ``"ketchup"`` for bonus tokens.
How many tokens of each kind a box holds, and the value printed on each loot token, are **not** in the
rules: :data:`DEFAULT_BOX` (``box.json``) holds clearly labelled illustrative defaults that keep the official
totals (42 loot, 14 bonus). :func:`load_box` validates any replacement and names the bad field.

Scoring (``score``) follows the rules' treasure page with the project's rulings:

* each fries scores its value **+5 per ketchup** held, each noodles **+4 per chili**, each burger
  **+3 per milkshake**;
* teddies and dolls score nothing without a parrot; one parrot unlocks all teddies *or* all dolls (the
  better choice), two unlock both; every parrot is worth 1 itself;
* each can needs its own opener (the highest cans are opened first);
* other bonus tokens are worth nothing on their own.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from toolkit.core.errors import DataError, InvalidMoveError
from toolkit.core.i18n import Term, translate

LOOT_KINDS = ("fries", "noodles", "burger", "teddy", "doll", "can")
BONUS_KINDS = ("ketchup", "chili", "milkshake", "parrot", "opener")
#: the bonus token that adds points to every loot token of a kind, and how many per bonus token
BOOSTS = {"fries": ("ketchup", 5), "noodles": ("chili", 4), "burger": ("milkshake", 3)}
#: official component totals (rules text: 戦利品トークン 42 枚, ボーナストークン 14 枚)
LOOT_TOTAL = 42
BONUS_TOTAL = 14
MAX_LOOT_VALUE = 30
_KIND_ORDER = {k: i for i, k in enumerate(LOOT_KINDS + BONUS_KINDS)}


@dataclass(frozen=True, slots=True, order=True)
class Token:
    """One treasure token: ``Token("fries", 2)`` (loot) or ``Token("ketchup")`` (bonus, value 0)."""

    kind: str
    value: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str):
            raise InvalidMoveError(f"a token's kind is a name such as 'fries' or 'ketchup', not {self.kind!r:.60}")
        if self.kind in LOOT_KINDS:
            if isinstance(self.value, bool) or not isinstance(self.value, int) or not 1 <= self.value <= MAX_LOOT_VALUE:
                raise InvalidMoveError(f"loot token {self.kind!r} needs a value from 1 to {MAX_LOOT_VALUE}, "
                                       f"not {self.value!r}")
        elif self.kind in BONUS_KINDS:
            if self.value != 0:
                raise InvalidMoveError(f"bonus token {self.kind!r} has no value (got {self.value!r})")
        else:
            raise InvalidMoveError(f"unknown token kind {self.kind!r}: loot is {', '.join(LOOT_KINDS)}; "
                                   f"bonus is {', '.join(BONUS_KINDS)}")

    @property
    def is_loot(self) -> bool:
        return self.kind in LOOT_KINDS

    @property
    def is_bonus(self) -> bool:
        return self.kind in BONUS_KINDS

    def __str__(self) -> str:
        return f"{self.kind} {self.value}" if self.is_loot else self.kind

    def text(self, lang: str = "en") -> str:
        """The token's name in ``lang`` (used as a message parameter)."""
        name = translate(f"pirats.token.{self.kind}", lang)
        return f"{name} {self.value}" if self.is_loot else name

    def sort_key(self) -> tuple[int, int]:
        return (_KIND_ORDER[self.kind], self.value)

    @classmethod
    def parse(cls, text: "str | Token") -> "Token":
        """``"fries 2"`` / ``"ketchup"`` (case and spacing are forgiven); anything else is refused."""
        if isinstance(text, Token):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"a token is text such as 'fries 2' or 'ketchup', not {text!r}")
        parts = text.strip().lower().split()
        if len(parts) == 1 and parts[0] in BONUS_KINDS:
            return cls(parts[0])
        if len(parts) == 2 and parts[0] in LOOT_KINDS and parts[1].isascii() and parts[1].isdigit() \
                and len(parts[1]) <= 3:
            return cls(parts[0], int(parts[1]))
        if len(parts) == 1 and parts[0] in LOOT_KINDS:
            raise InvalidMoveError(f"loot token {text!r} needs its printed value, e.g. '{parts[0]} 2'")
        raise InvalidMoveError(f"unknown token {text!r}: write loot as 'fries 2' ({', '.join(LOOT_KINDS)}) "
                               f"or a bonus as one word ({', '.join(BONUS_KINDS)})")

    def to_json(self) -> str:
        return str(self)

    @classmethod
    def from_json(cls, data: Any) -> "Token":
        return cls.parse(data)


def parse_tokens(tokens: Iterable["str | Token"]) -> list[Token]:
    """A treasure pile from text or tokens; a single string is refused (it is not a pile)."""
    if isinstance(tokens, (str, Token)):
        raise InvalidMoveError("give a list of tokens, e.g. ['fries 2', 'ketchup']")
    try:
        return [Token.parse(t) for t in tokens]
    except TypeError:
        raise InvalidMoveError(f"give a list of tokens, not {tokens!r}") from None


# ---------------------------------------------------------------------------------------------------------
# scoring

@dataclass(frozen=True)
class ScoreLine:
    """One line of a score sheet: the tokens it covers, the points, and why (a message and a rule id)."""

    rule: str
    code: str
    points: int
    tokens: tuple[Token, ...]
    params: tuple[tuple[str, Any], ...] = ()

    def text(self, lang: str = "en") -> str:
        return translate(self.code, lang, dict(self.params))

    def __str__(self) -> str:
        return self.text("en")


@dataclass(frozen=True)
class ScoreSheet:
    """Every token's contribution; ``total`` is :func:`score`."""

    tokens: tuple[Token, ...]
    lines: tuple[ScoreLine, ...]
    parrot_choice: str  # "none", "teddy", "doll" or "both"

    @property
    def total(self) -> int:
        return sum(line.points for line in self.lines)

    def text(self, lang: str = "en") -> str:
        return "\n".join(line.text(lang) for line in self.lines)


def _line(rule: str, code: str, earned: int, tokens: Sequence[Token], /, **params: Any) -> ScoreLine:
    return ScoreLine(rule, code, earned, tuple(tokens), tuple(sorted(params.items())))


def score_sheet(tokens: Iterable["str | Token"]) -> ScoreSheet:
    """Score a treasure pile and say why, line by line (rule ids ``pirats.score.*``)."""
    pile = sorted(parse_tokens(tokens), key=Token.sort_key)
    count = {k: 0 for k in BONUS_KINDS}
    for tok in pile:
        if tok.is_bonus:
            count[tok.kind] += 1
    lines: list[ScoreLine] = []
    # fries / noodles / burger: value plus a fixed boost per matching bonus token
    for kind, (bonus, per) in BOOSTS.items():
        n = count[bonus]
        for tok in (t for t in pile if t.kind == kind):
            pts = tok.value + per * n
            lines.append(_line(f"pirats.score.{kind}", "PIRATS_SCORE_BOOSTED", pts, [tok], token=tok,
                               value=tok.value, bonus=Term(f"pirats.token.{bonus}"), count=n, per=per, points=pts))
    # teddies and dolls: locked until parrots unlock them
    parrots = count["parrot"]
    teddies = [t for t in pile if t.kind == "teddy"]
    dolls = [t for t in pile if t.kind == "doll"]
    teddy_sum, doll_sum = sum(t.value for t in teddies), sum(t.value for t in dolls)
    if parrots >= 2:
        choice = "both"
    elif parrots == 1:
        # the owner chooses; we take the better one (teddies on a tie, which scores the same)
        choice = "teddy" if teddy_sum >= doll_sum else "doll"
    else:
        choice = "none"
    for group, kind, total in ((teddies, "teddy", teddy_sum), (dolls, "doll", doll_sum)):
        if not group:
            continue
        unlocked = choice in (kind, "both")
        code = "PIRATS_SCORE_TOY_UNLOCKED" if unlocked else (
            "PIRATS_SCORE_TOY_NO_PARROT" if parrots == 0 else "PIRATS_SCORE_TOY_OTHER_CHOSEN")
        lines.append(_line("pirats.score.toys", code, total if unlocked else 0, group,
                           tokens=list(group), kind=Term(f"pirats.token.{kind}"), sum=total))
    if parrots:
        lines.append(_line("pirats.score.toys", "PIRATS_SCORE_PARROT", parrots, [Token("parrot")] * parrots,
                           count=parrots))
    # cans: one opener per can, best cans first
    cans = sorted((t for t in pile if t.kind == "can"), key=lambda t: -t.value)
    openers = count["opener"]
    for i, tok in enumerate(cans):
        opened = i < openers
        lines.append(_line("pirats.score.can", "PIRATS_SCORE_CAN_OPENED" if opened else "PIRATS_SCORE_CAN_SHUT",
                           tok.value if opened else 0, [tok], token=tok, value=tok.value))
    # bonus tokens on their own
    for kind in ("ketchup", "chili", "milkshake", "opener"):
        if count[kind]:
            lines.append(_line("pirats.score.bonus-alone", "PIRATS_SCORE_BONUS_ALONE", 0,
                               [Token(kind)] * count[kind], bonus=Term(f"pirats.token.{kind}"), count=count[kind]))
    return ScoreSheet(tuple(pile), tuple(lines), choice)


def score(tokens: Iterable["str | Token"]) -> int:
    """Points for a treasure pile, e.g. ``score(["fries 2", "fries 3", "ketchup"]) == 15``.

    Unknown tokens raise :class:`~toolkit.core.InvalidMoveError` (a ``ValueError``).
    """
    return score_sheet(tokens).total


# ---------------------------------------------------------------------------------------------------------
# the box: which tokens exist (user-editable data)

@dataclass(frozen=True)
class Box:
    """The components the rules leave open: the token mix and the starting hands by seat."""

    loot: tuple[Token, ...]
    bonus: tuple[Token, ...]
    starting_hands: tuple[int, ...]
    note: str = ""

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for tok in self.loot + self.bonus:
            out[str(tok)] = out.get(str(tok), 0) + 1
        return out

    def to_data(self) -> dict[str, Any]:
        """The box as ``box.json``-shaped data (what :func:`load_box` reads)."""
        loot: dict[Token, int] = {}
        for tok in self.loot:
            loot[tok] = loot.get(tok, 0) + 1
        bonus: dict[str, int] = {}
        for tok in self.bonus:
            bonus[tok.kind] = bonus.get(tok.kind, 0) + 1
        return {"loot": [{"kind": t.kind, "value": t.value, "count": n} for t, n in loot.items()],
                "bonus": [{"kind": k, "count": n} for k, n in bonus.items()],
                "starting_hands": list(self.starting_hands)}


def _int(value: Any, path: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataError(f"{path}: expected a whole number from {low} to {high}, got {value!r}")
    return value


def load_box(data: "Mapping[str, Any] | str | os.PathLike | None" = None) -> Box:
    """Validate a box description (a dict, JSON text, a path to a JSON file, or ``None`` for the shipped
    illustrative defaults).

    Every defect raises :class:`~toolkit.core.DataError` naming the field, e.g. ``loot[3].value``.
    """
    if data is None:
        data = json.loads(resources.files("toolkit.pirats").joinpath("box.json").read_text(encoding="utf-8"))
    elif isinstance(data, os.PathLike):
        try:
            data = json.loads(Path(data).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DataError(f"box: cannot read {os.fspath(data)!r}: {exc}") from None
    elif isinstance(data, str) and not data.lstrip().startswith("{"):
        # a text that is not a JSON object is a path ("box.json"), not JSON that fails to parse
        return load_box(Path(data))
    elif isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise DataError(f"box: not valid JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise DataError(f"box: expected an object with 'loot', 'bonus' and 'starting_hands', got {data!r:.60}")
    unknown = sorted(set(data) - {"loot", "bonus", "starting_hands", "_meta"})
    if unknown:
        raise DataError(f"box: unknown field(s) {', '.join(map(repr, unknown))}")
    for key in ("loot", "bonus", "starting_hands"):
        if not isinstance(data.get(key), list):
            raise DataError(f"box.{key}: expected a list, got {data.get(key)!r:.60}")
    loot: list[Token] = []
    for i, entry in enumerate(data["loot"]):
        path = f"box.loot[{i}]"
        if not isinstance(entry, Mapping) or set(entry) != {"kind", "value", "count"}:
            raise DataError(f"{path}: expected {{kind, value, count}}, got {entry!r:.60}")
        if entry["kind"] not in LOOT_KINDS:
            raise DataError(f"{path}.kind: {entry['kind']!r} is not a loot kind ({', '.join(LOOT_KINDS)})")
        value = _int(entry["value"], f"{path}.value", 1, MAX_LOOT_VALUE)
        count = _int(entry["count"], f"{path}.count", 1, LOOT_TOTAL)
        loot += [Token(entry["kind"], value)] * count
    bonus: list[Token] = []
    for i, entry in enumerate(data["bonus"]):
        path = f"box.bonus[{i}]"
        if not isinstance(entry, Mapping) or set(entry) != {"kind", "count"}:
            raise DataError(f"{path}: expected {{kind, count}}, got {entry!r:.60}")
        if entry["kind"] not in BONUS_KINDS:
            raise DataError(f"{path}.kind: {entry['kind']!r} is not a bonus kind ({', '.join(BONUS_KINDS)})")
        bonus += [Token(entry["kind"])] * _int(entry["count"], f"{path}.count", 0, BONUS_TOTAL)
    # The totals are printed in the rules' component list; only the split is unknown.
    if len(loot) != LOOT_TOTAL:
        raise DataError(f"box.loot: the counts add up to {len(loot)} tokens; the game has {LOOT_TOTAL} loot tokens "
                        "(rule pirats.data.tokens)")
    if len(bonus) != BONUS_TOTAL:
        raise DataError(f"box.bonus: the counts add up to {len(bonus)} tokens; the game has {BONUS_TOTAL} bonus tokens "
                        "(rule pirats.data.tokens)")
    hands = data["starting_hands"]
    if len(hands) != 5:
        raise DataError(f"box.starting_hands: expected 5 numbers (start player, then clockwise), "
                        f"got {len(hands)} (rule pirats.setup.hands)")
    hands = tuple(_int(h, f"box.starting_hands[{i}]", 0, 8) for i, h in enumerate(hands))
    meta = data.get("_meta", {})
    note = meta.get("status", "") if isinstance(meta, Mapping) else ""
    return Box(tuple(loot), tuple(bonus), hands, str(note))


DEFAULT_BOX = load_box()
