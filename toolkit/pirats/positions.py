"""Hand-built teaching positions on top of a real game state, so explainers drive the real engine.

``boarding_state`` puts other players' pirats on the cat ship, your pirat (seat 0's ``rat#1`` in a
landlubber game, so no species power interferes) in your area or on a crew space, and gives you exactly
``cards`` cat cards. Every component stays conserved (cards move between the deck and the hand).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from toolkit.core.checks import check_bool, check_int
from toolkit.core.errors import InvalidMoveError
from toolkit.pirats.engine import ENGINE
from toolkit.pirats.model import CAPTAIN, SHIPS, Pirat, PiratsState, Ship

__all__ = ["set_hand", "boarding_state", "place_pirats", "set_front_flotsam"]

YOU = Pirat(0, 0)
OTHERS = (Pirat(1, 0), Pirat(2, 0), Pirat(3, 0))
OTHER_CAPTAIN = Pirat(3, 1)


def _check_state(state: Any) -> None:
    if not isinstance(state, PiratsState):
        raise TypeError(f"state must be a PiratsState, not {state!r:.60}")


def _check_ship(ship: Any) -> None:
    if not isinstance(ship, str) or ship not in SHIPS:
        raise InvalidMoveError(f"unknown ship {ship!r:.60}: use {', '.join(SHIPS)}")


def set_hand(state: PiratsState, seat: int, counts: tuple[int, int, int]) -> PiratsState:
    """``state`` with ``seat`` holding exactly ``counts`` (cat, bird, fish); the difference is exchanged with
    the deck. Raises :class:`InvalidMoveError` if the deck cannot supply it."""
    _check_state(state)
    check_int("seat", seat, 0, state.players - 1)
    if not isinstance(counts, (tuple, list)) or len(counts) != 3:
        raise InvalidMoveError(f"counts must be three numbers (cat, bird, fish), not {counts!r:.60}")
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)
    for i, want in enumerate(counts):
        if isinstance(want, bool) or not isinstance(want, int) or want < 0:
            raise InvalidMoveError(f"a hand holds a whole number of cards, not {want!r}")
        while hands[seat][i] > want:
            hands[seat][i] -= 1
            deck.append(SHIPS[i])
        while hands[seat][i] < want:
            if SHIPS[i] not in deck:
                raise InvalidMoveError(f"not enough {SHIPS[i]} cards left in the deck for a hand of {want}")
            deck.remove(SHIPS[i])
            hands[seat][i] += 1
    return replace(state, hands=tuple(tuple(h) for h in hands), deck=tuple(deck))  # type: ignore[arg-type]


def boarding_state(occupied: Iterable[int] = (), start: int = 0, captain: bool = False,
                   cards: int = 1) -> PiratsState:
    """A 4-player landlubber game, seat 0 to move, set up on the cat ship as described."""
    if isinstance(occupied, (str, bytes)) or not hasattr(occupied, "__iter__"):
        raise TypeError(f"occupied must be a collection of crew spaces 1-3, not {occupied!r:.60}")
    check_bool("captain", captain)
    occupied = list(occupied)
    if any(isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3 for n in occupied):
        raise InvalidMoveError(f"occupied crew spaces are 1, 2 or 3, not {occupied!r:.60}")
    spaces = sorted(set(occupied))
    if any(isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 3 for n in spaces):
        raise InvalidMoveError(f"occupied crew spaces are 1, 2 or 3, not {spaces!r}")
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= 3:
        raise InvalidMoveError(f"your pirat starts in your area (0) or on space 1-3, not {start!r}")
    if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 6:
        raise InvalidMoveError(f"play 0 to 6 cards, not {cards!r}")
    state = ENGINE.new_state(0, players=4, variant="landlubber")
    cells: list[Pirat | None] = [None, None, None, None]
    others = iter(OTHERS)
    for n in spaces:
        if n != start:
            cells[n - 1] = next(others)
    if start:
        cells[start - 1] = YOU
    if captain:
        cells[CAPTAIN] = OTHER_CAPTAIN
    cat = state.ships[0]
    state = replace(state, ships=(Ship(tuple(cells), cat.flotsam),) + state.ships[1:])  # type: ignore[arg-type]
    return set_hand(state, 0, (cards, 0, 0))


def place_pirats(state: PiratsState, ship: str, spaces: dict[int, tuple[int, int] | None]) -> PiratsState:
    """``state`` with pirats put on ``ship``: ``{space number 1-4 (4 = captain): (seat, figure) or None}``.
    The result is checked with the engine's own invariants (a figure in two places is refused)."""
    _check_state(state)
    _check_ship(ship)
    if not isinstance(spaces, Mapping):
        raise TypeError(f"spaces must be a mapping of space number to (seat, figure) or None, not {spaces!r:.60}")
    s = SHIPS.index(ship)
    cells = list(state.ships[s].spaces)
    for number, who in spaces.items():
        if number not in (1, 2, 3, 4):
            raise InvalidMoveError(f"spaces are 1-3 and 4 (the captain space), not {number!r}")
        if who is not None and not (isinstance(who, (tuple, list)) and len(who) == 2
                                    and all(type(x) is int for x in who)):
            raise InvalidMoveError(f"spaces[{number}] must be (seat, figure) or None, not {who!r:.60}")
        cells[number - 1] = None if who is None else Pirat(*who)
    ships = list(state.ships)
    ships[s] = Ship(tuple(cells), state.ships[s].flotsam)  # type: ignore[arg-type]
    new = replace(state, ships=tuple(ships))
    ENGINE.validate_state(new)
    return new


def set_front_flotsam(state: PiratsState, ship: str, loot: tuple[str, ...], bonus: str) -> PiratsState:
    """``state`` with the group at ``ship``'s bow swapped for the named tokens, taken from (and returned to)
    the stocks, so every token stays conserved. Raises :class:`InvalidMoveError` if the stocks lack one."""
    from toolkit.pirats.model import Flotsam
    from toolkit.pirats.tokens import Token
    _check_state(state)
    _check_ship(ship)
    if not isinstance(loot, (tuple, list)):
        raise TypeError(f"loot must be a list of loot token texts, not {loot!r:.60}")
    s = SHIPS.index(ship)
    old = state.ships[s].flotsam[0]
    loot_stock, bonus_stock = list(state.loot_stock) + list(old.loot), list(state.bonus_stock)
    if old.bonus is not None:
        bonus_stock.append(old.bonus)
    new_loot = []
    for text in loot:
        tok = Token.parse(text)
        if tok not in loot_stock:
            raise InvalidMoveError(f"no {tok} left in the loot stock")
        loot_stock.remove(tok)
        new_loot.append(tok)
    tok = Token.parse(bonus)
    if tok not in bonus_stock:
        raise InvalidMoveError(f"no {tok} left in the bonus stock")
    bonus_stock.remove(tok)
    ships = list(state.ships)
    ships[s] = Ship(state.ships[s].spaces, (Flotsam(tuple(new_loot), tok),) + state.ships[s].flotsam[1:])
    return replace(state, ships=tuple(ships), loot_stock=tuple(loot_stock), bonus_stock=tuple(bonus_stock))
