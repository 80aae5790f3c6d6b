"""Card codes. Every card is a small int so states stay cheap to copy and trivially JSON-serialisable.

Island cards are their own numbers (1–80). The other kinds get codes above 80; their text names are
what players type in moves ("start", "finish", "monster") and what observations show.
"""

from __future__ import annotations

from toolkit.core.errors import InvalidMoveError

ISLAND_MIN, ISLAND_MAX = 1, 80
ISLANDS = tuple(range(ISLAND_MIN, ISLAND_MAX + 1))
FINISH = 81
START = 82
MONSTER = 83
STORM_YELLOW = 84
STORM_PURPLE = 85
STORM_ORANGE = 86
COMPASS = 87  # compasses never enter hands or piles (they wait beside the grid); the code names them in logs

FINISH_CARDS = 5  # "完了カード×5枚: 常に5枚使います。"
HAND_LIMIT = 5
YELLOW_HAND_LIMIT = 3
ROWS = COLUMNS = 6
CELLS = ROWS * COLUMNS

STORMS = (STORM_YELLOW, STORM_PURPLE, STORM_ORANGE)

NAMES = {FINISH: "finish", START: "start", MONSTER: "monster", STORM_YELLOW: "yellow-storm",
         STORM_PURPLE: "purple-storm", STORM_ORANGE: "orange-storm", COMPASS: "compass"}
_BY_NAME = {v: k for k, v in NAMES.items()}
_BY_NAME.update({"f": FINISH, "s": START, "m": MONSTER})

#: message keys of each card kind, for translated card names in the views
TERMS = {FINISH: "tranquility.card.finish", START: "tranquility.card.start", MONSTER: "tranquility.card.monster",
         STORM_YELLOW: "tranquility.card.yellow", STORM_PURPLE: "tranquility.card.purple",
         STORM_ORANGE: "tranquility.card.orange", COMPASS: "tranquility.card.compass"}


def is_island(card: int) -> bool:
    return isinstance(card, int) and not isinstance(card, bool) and ISLAND_MIN <= card <= ISLAND_MAX


def card_name(card: int) -> str:
    """``17`` -> ``"17"``, ``FINISH`` -> ``"finish"``."""
    if is_island(card):
        return str(card)
    try:
        return NAMES[card]
    except (KeyError, TypeError):       # TypeError: an unhashable "card"
        raise InvalidMoveError(f"{card!r} is not a Tranquility card code") from None


def parse_card(text: str) -> int:
    """``"17"`` -> 17, ``"finish"`` -> ``FINISH``; anything else raises :class:`InvalidMoveError`."""
    word = str(text).strip().lower()
    if word.isascii() and word.isdigit() and len(word) <= 3:
        number = int(word)
        if is_island(number):
            return number
        raise InvalidMoveError(f"no island card {text!r}: islands are numbered 1 to 80")
    try:
        return _BY_NAME[word]
    except KeyError:
        raise InvalidMoveError(f"{text!r} is not a card: use 1-80, start, finish, monster") from None


def row_of(cell: int) -> int:
    """Row 0 is the bottom row."""
    return cell // COLUMNS


def column_of(cell: int) -> int:
    return cell % COLUMNS


def row_cells(row: int) -> range:
    return range(row * COLUMNS, row * COLUMNS + COLUMNS)
