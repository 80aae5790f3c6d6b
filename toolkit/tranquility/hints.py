"""Hints for a seat, from what that seat may see (``ENGINE.observe(state, seat)``) and nothing else.

* :func:`placement_hint` — before a placement is made: its cost, and every gap of empty cells it would
  make impossible to fill (named: its cells, its bounds, how many numbers it needs and how many are left),
  judged on the numbers the seat knows are gone (placed, destroyed, or discarded by the seat itself —
  including the cards it would pay with).
* :func:`bot_hint` — what the strongest bot would do in the seat's place, and why (its
  :class:`~toolkit.core.bots.Decision`).

>>> from toolkit.tranquility import ENGINE
>>> state = ENGINE.new_state(1, players=2)
>>> view = ENGINE.observe(state, state.seat)
>>> hint = placement_hint(view, 10, 0)
>>> hint.cost, hint.breaks_a_gap
(0, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from toolkit.core.bots import Decision, bot_rng
from toolkit.core.checks import check_iterable, one_of
from toolkit.core.errors import IllegalMoveError, InvalidMoveError
from toolkit.core.explain import Event, Violation
from toolkit.tranquility.analysis import Feasibility, Gap, feasibility
from toolkit.tranquility.cards import CELLS, is_island, parse_card
from toolkit.tranquility.grid import cell_params, check_index, check_number, placement_violation, raw_cost

__all__ = ["PlacementHint", "bot_hint", "placement_hint"]

#: the hint bot's dice are its own, apart from any seat's (the table's bots are not disturbed)
HINT_RNG_SEAT = 1000


@dataclass(frozen=True)
class PlacementHint:
    """What placing ``number`` in ``cell`` would do, as the seat knows it."""

    number: int
    cell: int
    cost: int
    before: Feasibility
    after: Feasibility
    broken: tuple[Gap, ...]   # gaps impossible after the placement that were not impossible before

    @property
    def breaks_a_gap(self) -> bool:
        return bool(self.broken)

    def events(self) -> list[Event | Violation]:
        """The cost line, then one warning per gap made impossible (each names its gap), or "every gap
        stays fillable"."""
        out: list[Event | Violation] = [Event("TRANQ_HINT_COST", "tranquility.place.cost", number=self.number,
                                              cost=self.cost, **cell_params(self.cell))]
        if self.broken:
            out += [g.violation() for g in self.broken]
        elif self.after.feasible:
            out.append(Event("TRANQ_HINT_SAFE", "tranquility.analysis.feasible"))
        return out

    def text(self, lang: str = "en") -> str:
        return " ".join(e.text(lang) for e in self.events())


def _check_view(view: Any) -> None:
    if (not isinstance(view, Mapping) or not isinstance(view.get("cells"), (list, tuple))
            or len(view["cells"]) != CELLS or not isinstance(view.get("seat"), int)):
        raise TypeError(f"view must be a seat's ENGINE.observe(state, seat), not {str(view)[:80]!r}")


def _known_gone(view: Mapping[str, Any]) -> list[int]:
    cells = {c for c in view["cells"] if c}
    gone = {c for c in view.get("destroyed", ()) if is_island(c)}
    gone |= {c for c in (parse_card(x) for x in view.get("remembered_discards", ())) if is_island(c)}
    return sorted(gone - cells)


def placement_hint(view: Mapping[str, Any], number: int, cell: int, discards: Sequence[Any] = ()) -> PlacementHint:
    """The cost of placing ``number`` in ``cell`` and the gaps it would make impossible to fill.

    ``view`` is the seat's observation; ``discards`` the cards it would pay with (numbers or card names), if
    chosen already. :class:`IllegalMoveError` if the cell is taken or the order would break;
    :class:`InvalidMoveError` for an index or number out of range.
    """
    _check_view(view)
    check_number(number)
    check_index(cell)
    if isinstance(discards, (str, bytes)) or not isinstance(discards, Sequence):
        raise TypeError(f"discards must be a list of cards, not {discards!r}")
    cells = [c or 0 for c in view["cells"]]
    broken_order = placement_violation(cells, cell, number)
    if broken_order is not None:
        raise IllegalMoveError(broken_order)
    paid = []
    for d in discards:
        card = parse_card(d) if isinstance(d, str) else d
        if isinstance(card, bool) or not isinstance(card, int):
            raise InvalidMoveError(f"discards: {d!r} is not a card")
        if is_island(card):
            paid.append(card)
    gone = _known_gone(view)
    before = feasibility(cells, gone)
    after_cells = list(cells)
    after_cells[cell] = number
    after = feasibility(after_cells, sorted(set(gone) | (set(paid) - {number})))
    was_bad = {(g.first, g.last, g.low, g.high) for g in before.impossible}
    broken = tuple(g for g in after.impossible if (g.first, g.last, g.low, g.high) not in was_bad)
    return PlacementHint(number, cell, raw_cost(cells, cell, number), before, after, broken)


def bot_hint(view: Mapping[str, Any], legal: Sequence[Any], seed: int = 0, level: str | None = None) -> Decision:
    """What the strongest bot (or ``level``) would do from ``view``, with its reason."""
    from toolkit.tranquility.bots import BOTS, LEVELS

    _check_view(view)
    from toolkit.tranquility.engine import ENGINE
    if isinstance(legal, (str, bytes, Mapping)):
        raise TypeError(f"legal must be a list of moves, not {legal!r:.60}")
    legal = list(check_iterable("legal", legal))
    for move in legal:
        ENGINE.check_move_type(move)
    if not legal:
        raise InvalidMoveError("legal is empty: there is no move to suggest")
    if level is not None and not one_of(level, BOTS):
        raise InvalidMoveError(f"level={level!r}: choose one of {', '.join(BOTS)}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {seed!r}")
    bot = BOTS[level or LEVELS[0]]()
    rng: np.random.Generator = bot_rng(seed, HINT_RNG_SEAT + (view.get("seat") or 0))
    return bot.decide(view, legal, rng)
