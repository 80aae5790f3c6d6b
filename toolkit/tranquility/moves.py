"""Moves: small frozen dataclasses named as verbs, each with ``__str__`` and one parser for all.

Text forms (``str(move)`` round-trips through :func:`parse_move`)::

    place 17 at 8                  place 17 at 8 discard 20 35      discard 20 35
    start                          finish                           monster
    discard hand                   rock to 3                        rock discard 20 35
    split 20 35 blind 2            split none                       (the start card's table discard)
    storm        storm row 3       storm discard 20                 (resolving a drawn storm)
    compass yellow 2   compass orange 1   compass purple 4   compass storm

Cells are 0–35 (sequence order), rows 0–5 from the bottom, seats 0..n-1. Discard lists are kept sorted so
two spellings of the same move compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolkit.core.errors import InvalidMoveError
from toolkit.core.checks import one_of
from toolkit.tranquility.cards import ROWS, card_name, is_island, parse_card
from toolkit.tranquility.grid import check_index, check_number


def _cards(values: Any, what: str) -> tuple[int, ...]:
    if not isinstance(values, (tuple, list)):
        raise InvalidMoveError(f"{what} must be a list of cards, not {values!r}")
    out = []
    for v in values:
        if isinstance(v, str):
            v = parse_card(v)
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidMoveError(f"{what}: {v!r} is not a card")
        card_name(v)  # validates the code
        out.append(v)
    islands = [c for c in out if is_island(c)]
    if len(set(islands)) != len(islands):  # finish cards (and dead start cards) may repeat; islands are unique
        raise InvalidMoveError(f"{what}: a card is listed twice ({', '.join(card_name(c) for c in out)})")
    return tuple(sorted(out))


def _int(value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidMoveError(f"{what} {value!r} is out of range ({low} to {high})")
    return value


def _names(cards: tuple[int, ...]) -> str:
    return " ".join(card_name(c) for c in cards)


@dataclass(frozen=True)
class PlaceIsland:
    """(A) Play an island card onto the grid, discarding ``discards`` to pay its cost."""

    number: int
    cell: int
    discards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        check_number(self.number)
        check_index(self.cell)
        object.__setattr__(self, "discards", _cards(self.discards, "discards"))

    def __str__(self) -> str:
        tail = f" discard {_names(self.discards)}" if self.discards else ""
        return f"place {self.number} at {self.cell}{tail}"


@dataclass(frozen=True)
class PlayStart:
    """Play the start card onto the start space."""

    def __str__(self) -> str:
        return "start"


@dataclass(frozen=True)
class PlayFinish:
    """Play a finish card: the team wins."""

    def __str__(self) -> str:
        return "finish"


@dataclass(frozen=True)
class DiscardTwo:
    """(B) Discard two cards face down."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _cards(self.cards, "discard"))
        if len(self.cards) != 2:
            raise InvalidMoveError(f"discard takes exactly two cards, not {len(self.cards)}")

    def __str__(self) -> str:
        return f"discard {_names(self.cards)}"


@dataclass(frozen=True)
class PlayMonster:
    """Sea monsters: destroy the most recently played island (both cards leave the game)."""

    def __str__(self) -> str:
        return "monster"


@dataclass(frozen=True)
class DiscardHand:
    """Storms and compasses: discard the whole hand as the action, earning a compass."""

    def __str__(self) -> str:
        return "discard hand"


@dataclass(frozen=True)
class MoveRock:
    """Jagged rocks: after the action, move the rock to another row with an empty cell."""

    row: int

    def __post_init__(self) -> None:
        _int(self.row, 0, ROWS - 1, "row")

    def __str__(self) -> str:
        return f"rock to {self.row}"


@dataclass(frozen=True)
class RockDiscard:
    """Jagged rocks: leave the rock where it is and discard two cards instead."""

    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _cards(self.cards, "rock discard"))
        if len(self.cards) != 2:
            raise InvalidMoveError(f"instead of moving the rock you discard exactly two cards, not {len(self.cards)}")

    def __str__(self) -> str:
        return f"rock discard {_names(self.cards)}"


@dataclass(frozen=True)
class StartDiscard:
    """This seat's share of the 8 cards the table discards after the start card.

    ``blind``: a seat under a yellow storm may give up to 2 cards from the top of its draw pile, unseen.
    """

    cards: tuple[int, ...] = ()
    blind: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _cards(self.cards, "split"))
        _int(self.blind, 0, 2, "blind discards")

    def __str__(self) -> str:
        text = f"split {_names(self.cards)}" if self.cards else "split none"
        return text + (f" blind {self.blind}" if self.blind else "")


@dataclass(frozen=True)
class ResolveStorm:
    """Resolve the storm just drawn: yellow (``discards`` down to 3), purple (``row``), orange (nothing)."""

    row: int = -1
    discards: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _int(self.row, -1, ROWS - 1, "row")
        object.__setattr__(self, "discards", _cards(self.discards, "storm discard"))

    def __str__(self) -> str:
        if self.row >= 0:
            return f"storm row {self.row}"
        if self.discards:
            return f"storm discard {_names(self.discards)}"
        return "storm"


COMPASS_TARGETS = ("yellow", "orange", "purple", "storm")


@dataclass(frozen=True)
class UseCompass:
    """Spend a compass: clear a yellow/orange storm in front of a seat, a purple storm on a row, or cancel
    the storm just drawn (``storm``). A free action: the turn goes on."""

    target: str
    index: int = -1

    def __post_init__(self) -> None:
        if not one_of(self.target, COMPASS_TARGETS):
            raise InvalidMoveError(f"compass target {self.target!r}: use yellow <seat>, orange <seat>, "
                                   "purple <row> or storm")
        if self.target == "storm":
            if self.index != -1:
                raise InvalidMoveError("compass storm takes no number")
        else:
            _int(self.index, 0, ROWS - 1 if self.target == "purple" else 4,
                 "row" if self.target == "purple" else "seat")

    def __str__(self) -> str:
        return "compass storm" if self.target == "storm" else f"compass {self.target} {self.index}"


MOVE_TYPES = (PlaceIsland, PlayStart, PlayFinish, DiscardTwo, PlayMonster, DiscardHand, MoveRock, RockDiscard,
              StartDiscard, ResolveStorm, UseCompass)
Move = (PlaceIsland | PlayStart | PlayFinish | DiscardTwo | PlayMonster | DiscardHand | MoveRock | RockDiscard
        | StartDiscard | ResolveStorm | UseCompass)


def _number(word: str, text: str) -> int:
    if not (word.lstrip("-").isascii() and word.lstrip("-").isdigit()):
        raise InvalidMoveError(f"cannot read {text!r}: {word!r} is not a number")
    return int(word)


def parse_move(text: str) -> Move:
    """Read a move from its text form; :class:`InvalidMoveError` quoting the text otherwise."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is text, not {type(text).__name__}")
    shown = text if len(text) <= 80 else text[:77] + "..."
    words = text.strip().lower().split()
    if not words:
        raise InvalidMoveError("empty move: try 'place 17 at 8', 'discard 20 35', 'start' or 'finish'")
    head, rest = words[0], words[1:]
    try:
        if head == "place":
            if len(rest) < 3 or rest[1] != "at":
                raise InvalidMoveError(f"cannot read {shown!r}: write 'place <number> at <cell> [discard ...]'")
            discards: tuple = ()
            if len(rest) > 3:
                if rest[3] != "discard" or len(rest) == 4:
                    raise InvalidMoveError(f"cannot read {shown!r}: after the cell write 'discard <cards>'")
                discards = tuple(parse_card(w) for w in rest[4:])
            return PlaceIsland(_number(rest[0], shown), _number(rest[2], shown), discards)
        if head in ("start", "finish", "monster", "storm") and not rest:
            return {"start": PlayStart(), "finish": PlayFinish(), "monster": PlayMonster(),
                    "storm": ResolveStorm()}[head]
        if head == "discard":
            if rest == ["hand"]:
                return DiscardHand()
            return DiscardTwo(tuple(parse_card(w) for w in rest))
        if head == "rock" and len(rest) == 2 and rest[0] == "to":
            return MoveRock(_number(rest[1], shown))
        if head == "rock" and rest[:1] == ["discard"]:
            return RockDiscard(tuple(parse_card(w) for w in rest[1:]))
        if head == "split":
            blind = 0
            if len(rest) >= 2 and rest[-2] == "blind":
                blind = _number(rest[-1], shown)
                rest = rest[:-2]
            if rest == ["none"]:
                rest = []
            return StartDiscard(tuple(parse_card(w) for w in rest), blind)
        if head == "storm" and len(rest) == 2 and rest[0] == "row":
            return ResolveStorm(row=_number(rest[1], shown))
        if head == "storm" and rest[:1] == ["discard"] and len(rest) > 1:
            return ResolveStorm(discards=tuple(parse_card(w) for w in rest[1:]))
        if head == "compass":
            if rest == ["storm"]:
                return UseCompass("storm")
            if len(rest) == 2:
                return UseCompass(rest[0], _number(rest[1], shown))
    except InvalidMoveError as exc:
        if shown in str(exc):
            raise
        raise InvalidMoveError(f"cannot read {shown!r}: {exc}") from None
    raise InvalidMoveError(f"cannot read {shown!r}: not a Tranquility move (try 'place 17 at 8', "
                           "'discard 20 35', 'start', 'finish')")


__all__ = ["COMPASS_TARGETS", "MOVE_TYPES", "Move", "DiscardHand", "DiscardTwo", "MoveRock",
           "PlaceIsland", "PlayFinish", "PlayMonster", "PlayStart", "ResolveStorm", "RockDiscard",
           "StartDiscard", "UseCompass", "parse_move"]
