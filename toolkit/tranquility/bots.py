"""Tranquility bots: one level per strategy of the study, strongest first, plus ``"random"``.

A bot sees ``ENGINE.observe(state, seat)`` and the legal moves, nothing else (:mod:`toolkit.core.bots`). It
rebuilds what its seat knows as a one-seat :class:`~toolkit.tranquility.sim.Game` (:func:`seat_game`: the
grid, its own hand in draw order, its pile's size, the numbers it knows are gone — placed, destroyed, or
discarded by itself) and asks the study's own decision code (:func:`toolkit.tranquility.sim.decide`,
:func:`~toolkit.tranquility.sim.split_share`). The study and the bots are therefore the same code; a test
plays the same seeds through the simulator and through ``play_out`` on the engine and compares every move.

Decisions the study never meets (the expansions) follow documented rules of thumb shared by every level
but ``"random"``, which picks uniformly among its legal moves there:

* **compass** (free action): spend one at once on the seat's own yellow storm, then a purple row, then its
  own orange storm, then another seat's; a storm just drawn is cancelled whenever a compass is waiting;
* **purple storm / jagged rock**: the row (with an empty cell) that blocks the fewest of the seat's own
  placements, ties to the row with the fewest empty cells; the rock stays (discard two) only when it
  cannot move;
* **yellow storm**: discard down to 3, least useful cards first (the strategy's own order);
* **sea monster**: played when the grid is full (the finish needs every monster played) or when the seat
  would otherwise have to discard but cannot;
* **start card's 8**: each seat's share is :func:`split_share` over the seats still to declare, from the
  public hand sizes — no seat needs another's cards.

Every :class:`~toolkit.core.bots.Decision` carries a reason with a ``bots.tranquility.*`` id. Reasons name
only cards that become public (the placed island), never the discarded ones.

>>> from toolkit.core.bots import play_out
>>> from toolkit.tranquility import ENGINE
>>> state, moves = play_out(ENGINE, 3, ["rank", "rank"])
>>> ENGINE.outcome(state).result in ("win", "loss")
True
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from toolkit.core.bots import BotError, Decision, check_view
from toolkit.core.checks import check_iterable
from toolkit.core.explain import Event
from toolkit.core.i18n import Term
from toolkit.tranquility.cards import CELLS, COLUMNS, ISLAND_MAX, MONSTER, TERMS, is_island, parse_card, row_cells
from toolkit.tranquility.grid import SortedLine
from toolkit.tranquility.moves import (DiscardHand, DiscardTwo, MoveRock, PlaceIsland, PlayFinish, PlayMonster,
                                       PlayStart, ResolveStorm, RockDiscard, StartDiscard, UseCompass)
from toolkit.tranquility.sim import STRATEGIES, Game, Strategy, decide, split_share

__all__ = ["BOTS", "LEVELS", "StrategyBot", "seat_game"]

#: strongest first (the committed study table, docs/tranquility-notes.md)
LEVELS = ("rank", "feasibility", "greedy", "random")


def _cards(names: Sequence[str]) -> list[int]:
    return [parse_card(c) for c in names]


#: The observation entries a Tranquility bot reads (``seat_game``)
_VIEW_KEYS = ("seat", "players", "cells", "hand_order", "pile_sizes", "start_space")


def seat_game(view: Mapping[str, Any], ignore_rows: Sequence[int] = ()) -> Game:
    """What the viewing seat knows, as a simulator :class:`Game` holding that seat alone.

    Other seats' hands and every pile are unknown and left empty (the seat's own pile as a list of
    placeholders of the right length: strategies only ask whether cards are still coming). Cells the seat
    may not use now — the rock's row, purple rows, and with an orange storm every cell with no neighbour —
    are ``blocked``; ``ignore_rows`` lifts the block of those rows (to ask "what if the rock moved?").
    """
    check_view(view, "Tranquility", _VIEW_KEYS)
    ignore_rows = tuple(check_iterable("ignore_rows", ignore_rows))   # a generator is read once
    if any(isinstance(r, bool) or not isinstance(r, int) for r in ignore_rows):
        raise TypeError(f"ignore_rows must list row numbers, not {ignore_rows!r:.60}")
    seat = view["seat"]
    players = view["players"]
    cells = [c or 0 for c in view["cells"]]
    unused = bytearray(ISLAND_MAX + 2)
    for n in range(1, ISLAND_MAX + 1):
        unused[n] = 1
    for c in cells:
        unused[c] = 0
    for c in list(view.get("destroyed", ())) + _cards(view.get("remembered_discards", ())):
        if is_island(c):
            unused[c] = 0
    hands: list[list[int]] = [[] for _ in range(players)]
    hands[seat] = _cards(view["hand_order"])
    piles: list[list[int]] = [[] for _ in range(players)]
    piles[seat] = [0] * view["pile_sizes"][seat]
    rows = set(view.get("purple_rows") or ())
    if view.get("rock_row") is not None:
        rows.add(view["rock_row"])
    rows -= set(ignore_rows)
    blocked = {i for r in rows for i in row_cells(r)}
    orange = view.get("orange_storms") or ()
    if orange and orange[seat]:
        blocked |= {i for i in range(CELLS) if not cells[i]
                    and not ((i > 0 and cells[i - 1]) or (i < CELLS - 1 and cells[i + 1]))}
    return Game(players=players, cells=cells, line=SortedLine(cells), hands=hands, piles=piles,
                unused=[unused] * players, start_space=view["start_space"], seat=seat,
                short_hand_loss=view.get("short_hand_loss", True), cost_limit=view.get("cost_limit", "english"),
                blocked=frozenset(blocked))


def _why(code: str, rule: str, seat: int, **params: Any) -> Event:
    return Event(code, f"bots.tranquility.{rule}", seat=seat, by=seat, **params)


def _empty_in_row(cells: Sequence[int], row: int) -> int:
    return sum(1 for i in row_cells(row) if not cells[i])


class StrategyBot:
    """A seat played by one of the study's strategies (``STRATEGIES[level]``)."""

    def __init__(self, level: str):
        if not isinstance(level, str) or level not in STRATEGIES:
            raise BotError(f"level must be one of {', '.join(map(repr, STRATEGIES))}, not {level!r}")
        self.name = level
        self.strategy: Strategy = STRATEGIES[level]()

    # ---- the protocol ------------------------------------------------------------------------------
    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        seat = view["seat"]
        legal = _Legal(legal)
        phase = view["phase"]
        if phase == "start-discard":
            return self._split(view, legal, rng)
        if phase == "storm":
            return self._storm(view, legal, rng)
        if phase == "rock":
            return self._rock(view, legal, rng)
        compass = self._compass(view, legal, rng)
        if compass is not None:
            return compass
        if PlayStart() in legal:
            return Decision(PlayStart(), _why("BOT_TQ_START", "start", seat))
        if PlayFinish() in legal:
            return Decision(PlayFinish(), _why("BOT_TQ_FINISH", "finish", seat))
        game = seat_game(view)
        if PlayMonster() in legal and all(view["cells"]):
            return Decision(PlayMonster(), _why("BOT_TQ_MONSTER_FULL", "monster", seat))
        action = decide(self.strategy, game, seat, rng)
        if action[0] == "place":
            _, number, cell, discards = action
            move = PlaceIsland(number, cell, tuple(discards))
            if move in legal:
                return Decision(move, self._place_reason(game, seat, number, cell, discards))
        elif action[0] == "discard":
            move = DiscardTwo(tuple(action[1]))
            if move in legal:
                return Decision(move, _why(self._discard_code(game, seat), "discard", seat))
        if PlayMonster() in legal:
            return Decision(PlayMonster(), _why("BOT_TQ_MONSTER_STUCK", "monster", seat))
        return self._fallback(view, legal, rng)

    # ---- reasons -------------------------------------------------------------------------------------
    def _place_reason(self, game: Game, seat: int, number: int, cell: int, discards: Sequence[int]) -> Event:
        low_cell, low, high_cell, high = game.bracket(number)
        between = {"low": low if low_cell >= 0 else Term("tranquility.bots.edge_low"),
                   "high": high if high_cell < CELLS else Term("tranquility.bots.edge_high")}
        if game.gap_ok_after(seat, number, cell, discards):
            return _why("BOT_TQ_PLACE_SAFE", "place", seat, number=number, cell=cell, cost=len(discards), **between)
        return _why("BOT_TQ_PLACE_RISKY", "place", seat, number=number, cell=cell, cost=len(discards), **between)

    def _discard_code(self, game: Game, seat: int) -> str:
        return "BOT_TQ_DISCARD_NOTHING_FITS" if not game.placements(seat) else "BOT_TQ_DISCARD_NO_SAFE"

    # ---- the expansions and the table's 8 -----------------------------------------------------------
    def _split(self, view, legal, rng) -> Decision:
        seat = view["seat"]
        game = seat_game(view)
        hand = game.hands[seat]
        order = list(view["start_discard_seats"]) or [seat]
        capacity = list(view["hand_sizes"])
        capacity[seat] = len(hand) - hand.count(MONSTER)
        share = split_share(order, capacity, view["start_discard_left"])
        sizes = sorted({len(m.cards) + m.blind for m in legal if isinstance(m, StartDiscard)})
        share = min(max(share, sizes[0]), sizes[-1])
        own = min(share, capacity[seat])
        cards = tuple(self.strategy.pick_discards(game, seat, own, None, rng))
        move = StartDiscard(cards, share - own)
        if move not in legal:  # pragma: no cover - the bounds above come from the legal moves
            move = next(m for m in legal if isinstance(m, StartDiscard) and len(m.cards) + m.blind == share)
        return Decision(move, _why("BOT_TQ_SPLIT", "split", seat, count=share,
                                   left=view["start_discard_left"] - share))

    def _compass(self, view, legal, rng) -> Decision | None:
        seat = view["seat"]
        uses = [m for m in legal if isinstance(m, UseCompass)]
        if not uses:
            return None
        rank = {("yellow", True): 0, ("purple", False): 1, ("orange", True): 2, ("yellow", False): 3,
                ("orange", False): 4}
        move = min(uses, key=lambda m: (rank.get((m.target, m.index == seat), 5), m.index))
        if move.target == "purple":
            return Decision(move, _why("BOT_TQ_COMPASS_ROW", "compass", seat, row=move.index + 1))
        return Decision(move, _why("BOT_TQ_COMPASS_SEAT", "compass", seat, target=move.index,
                                   storm=Term(f"tranquility.card.{move.target}")))

    def _row_choice(self, view, rows: Sequence[int], lifted: Sequence[int] = ()) -> tuple[int, int]:
        """(row, blocked placements): the row that blocks the fewest of the seat's own placements."""
        seat = view["seat"]
        game = seat_game(view, ignore_rows=lifted)
        mine = game.placements(seat)
        cells = view["cells"]
        scored = []
        for r in rows:
            hit = sum(1 for _, _, cell in mine if cell // COLUMNS == r)
            scored.append((hit, _empty_in_row([c or 0 for c in cells], r), r))
        hit, _, row = min(scored)
        return row, hit

    def _rock(self, view, legal, rng) -> Decision:
        seat = view["seat"]
        rows = [m.row for m in legal if isinstance(m, MoveRock)]
        if rows:
            row, hit = self._row_choice(view, rows, lifted=[view["rock_row"]] if view.get("rock_row") is not None else [])
            return Decision(MoveRock(row), _why("BOT_TQ_ROCK", "rock", seat, row=row + 1, blocked=hit))
        game = seat_game(view)
        move = RockDiscard(tuple(self.strategy.pick_discards(game, seat, 2, None, rng)))
        if move not in legal:  # pragma: no cover
            return self._fallback(view, legal, rng)
        return Decision(move, _why("BOT_TQ_ROCK_STAYS", "rock", seat))

    def _storm(self, view, legal, rng) -> Decision:
        seat = view["seat"]
        if UseCompass("storm") in legal:
            return Decision(UseCompass("storm"), _why("BOT_TQ_STORM_CANCEL", "storm", seat, storm=_term(view["storm"])))
        resolves = [m for m in legal if isinstance(m, ResolveStorm)]
        if view["storm"] == "purple-storm":
            rows = [m.row for m in resolves if m.row >= 0]
            if rows:
                row, hit = self._row_choice(view, rows)
                return Decision(ResolveStorm(row=row), _why("BOT_TQ_STORM_PURPLE", "storm", seat, row=row + 1,
                                                            blocked=hit))
        if view["storm"] == "yellow-storm" and resolves and resolves[0].discards:
            game = seat_game(view)
            move = ResolveStorm(discards=tuple(self.strategy.pick_discards(game, seat, len(resolves[0].discards),
                                                                          None, rng)))
            if move in legal:
                return Decision(move, _why("BOT_TQ_STORM_YELLOW", "storm", seat, count=len(move.discards)))
        return Decision(resolves[0], _why("BOT_TQ_STORM_TAKEN", "storm", seat, storm=_term(view["storm"])))

    def _fallback(self, view, legal, rng) -> Decision:
        """Nothing the strategy wanted is legal (an expansion closed it): the first legal non-compass move,
        preferring discarding the hand (it earns a compass) over anything else."""
        seat = view["seat"]
        moves = [m for m in legal if not isinstance(m, UseCompass)] or legal
        move = DiscardHand() if DiscardHand() in moves else moves[0]
        # the reason never names the move: it could list face-down cards
        return Decision(move, _why("BOT_TQ_FALLBACK", "fallback", seat))


class _Legal(list):
    """The legal moves with a set beside them: ``in`` is asked often and the list can be long."""

    def __init__(self, moves: Sequence[Any]):
        super().__init__(moves)
        self._set = set(self)

    def __contains__(self, move: object) -> bool:
        return move in self._set


def _term(card_name_: str) -> Term:
    return Term(TERMS[parse_card(card_name_)])


class RandomStrategyBot(StrategyBot):
    """The study's random strategy on its turn and for the table's 8 (uniform over the placements plus one
    "discard two", random discards; its share of the 8 given at random); for the expansions' decisions
    uniform over its legal moves."""

    def __init__(self):
        super().__init__("random")

    def _uniform(self, view, legal, rng) -> Decision:
        move = legal[int(rng.integers(len(legal)))]
        return Decision(move, _why("BOT_TQ_RANDOM", "random", view["seat"], options=len(legal)))

    _storm = _uniform
    _rock = _uniform

    def _compass(self, view, legal, rng):
        return None  # never spends one by choice

    def _place_reason(self, game, seat, number, cell, discards):
        return _why("BOT_TQ_RANDOM_PLACE", "random", seat, number=number, cell=cell, cost=len(discards))

    def _discard_code(self, game, seat):
        return "BOT_TQ_DISCARD_RANDOM"


def _level(name: str) -> Callable[[], StrategyBot]:
    return (lambda: RandomStrategyBot()) if name == "random" else (lambda: StrategyBot(name))


#: level name → zero-argument factory, strongest first
BOTS: dict[str, Callable[[], StrategyBot]] = {name: _level(name) for name in LEVELS}
