"""Where a pirat lands: the crew-move rule on its own, without a game around it.

``crew_move_destination(occupied, start, cards)`` is the public function the boarding explainer and the
acceptance checks call; the engine uses :func:`crew_path` (the same walk, also returning the spaces jumped)
so the two can never disagree.
"""

from __future__ import annotations

from typing import Any, Iterable

from toolkit.core.errors import IllegalMoveError, InvalidMoveError
from toolkit.core.explain import Violation

CREW_SPACES = (1, 2, 3)


def _as_space_set(occupied: Any) -> frozenset[int]:
    if isinstance(occupied, (str, bytes)) or not isinstance(occupied, Iterable):
        raise InvalidMoveError(f"occupied must be a collection of crew spaces 1-3, not {occupied!r}")
    spaces = list(occupied)
    for s in spaces:
        if isinstance(s, bool) or not isinstance(s, int) or s not in CREW_SPACES:
            raise InvalidMoveError(f"occupied spaces are crew spaces 1, 2 or 3, not {s!r} "
                                   "(the captain space is not part of a crew move)")
    return frozenset(spaces)


def _check_start_and_cards(start: Any, cards: Any) -> None:
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= 3:
        raise InvalidMoveError(f"start is 0 (off the ship) or a crew space 1-3, not {start!r:.60}")
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0:
        raise InvalidMoveError(f"cards must be a whole number of cards, not {cards!r:.60}")


def crew_path(occupied: frozenset[int], start: int, cards: int) -> tuple[int, tuple[int, ...]] | Violation:
    """``(destination, jumped spaces)`` for a checked move, or the Violation that forbids it.

    Each card moves the pirat to the next *free* crew space toward the bow; occupied spaces are skipped
    (and are "passed", which matters for the raccoon). Nothing ever reaches the captain space this way.
    """
    occupied = _as_space_set(occupied)
    _check_start_and_cards(start, cards)
    here = start
    jumped: list[int] = []
    for _ in range(cards):
        nxt = here + 1
        while nxt in occupied and nxt <= 3:
            jumped.append(nxt)
            nxt += 1
        if nxt > 3:
            return Violation("PIRATS_OVERSHOOT", "pirats.move.no-captain", start=start, cards=cards,
                             free=_free_ahead(occupied, start))
        here = nxt
    return here, tuple(s for s in jumped if s < here)


def _free_ahead(occupied: frozenset[int], start: int) -> int:
    return sum(1 for s in CREW_SPACES if s > start and s not in occupied)


def crew_move_destination(occupied: Iterable[int], start: int, cards: int) -> int:
    """The crew space (1-3) a pirat reaches from ``start`` (0 = off the ship) by playing ``cards`` cards.

    Each card moves it one *free* space toward the bow; occupied spaces are skipped. ``occupied`` lists the
    other pirats' crew spaces (the start space itself is ignored). Raises
    :class:`~toolkit.core.IllegalMoveError` (rule ``pirats.move.no-captain``) when the move would go past
    space 3, and :class:`~toolkit.core.InvalidMoveError` for malformed input.

    >>> crew_move_destination({1, 2}, 0, 1)   # the rules' example: from the area straight to space 3
    3
    >>> crew_move_destination({2}, 1, 1)      # from 1 to 3 past an occupied 2
    3
    """
    spaces = _as_space_set(occupied)
    _check_start_and_cards(start, cards)
    if cards == 0:
        raise IllegalMoveError(Violation("PIRATS_NO_CARDS", "pirats.move.match", steps=0))
    result = crew_path(spaces - {start}, start, cards)
    if isinstance(result, Violation):
        raise IllegalMoveError(result)
    return result[0]
