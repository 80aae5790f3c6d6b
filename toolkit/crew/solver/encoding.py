"""The solver's card encoding: a card is an int 0..39 (colour * 9 + value - 1; submarines 36..39), a hand a 40-bit
int.
"""

from __future__ import annotations

from typing import Any

from toolkit.core.errors import InvalidMoveError


# ---------------------------------------------------------------------------------------------------
# card encoding
# ---------------------------------------------------------------------------------------------------

COLOURS = "BGYP"  # colour index 0..3; submarines are colour 4
SUB = 4
SUIT_INDEX = {"blue": 0, "green": 1, "yellow": 2, "pink": 3, "submarine": 4}
N_CARDS = 40
COLOUR_MASK = tuple(sum(1 << (c * 9 + i) for i in range(9)) for c in range(4)) + (sum(1 << (36 + i) for i in range(4)),)
ALL_COLOUR_CARDS = sum(COLOUR_MASK[:4])
COLOUR_CARDS_ASC = tuple(tuple(range(c * 9, c * 9 + 9)) for c in range(4)) + (tuple(range(36, 40)),)
_VALUE = tuple(i % 9 + 1 for i in range(N_CARDS))
_COLOUR = tuple(min(i // 9, 4) for i in range(N_CARDS))
_NAME = tuple((COLOURS[i // 9] if i < 36 else "S") + str(i % 9 + 1) for i in range(N_CARDS))
_CODE = {name: i for i, name in enumerate(_NAME)}

DONE = "done"
FAILED = "failed"
PENDING = "pending"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_code(card: Any) -> int:
    """The solver's int for a card given as an engine ``Card`` or any text ``Card.parse`` accepts."""
    from toolkit.crew.cards import Card

    if not isinstance(card, Card):
        if not isinstance(card, str):
            raise InvalidMoveError(f"{card!r} is not a card")
        card = Card.parse(card)
    return _CODE[str(card)]


def card_of(code: int) -> Any:
    from toolkit.crew.cards import Card

    return Card.parse(_NAME[code])


