"""A fast simulator of the base game (plus island-removal variants) for strategy studies.

The checked engine builds a new immutable state and explains every refusal; that is right for teaching but
far too slow for tens of thousands of games. This simulator plays the *same* rules on mutable lists, with
the deal taken from :func:`toolkit.tranquility.engine.deal` so a seed gives the same game in both. With
``record=True`` it returns the moves as text, and the tests replay them through the engine to check that
every move is legal there and the outcome is identical — the simulator cannot silently drift from the rules.

Legal cells for a card come from :class:`~toolkit.tranquility.grid.SortedLine` (bisect over the placed
cards) instead of rescanning the 36 cells; ``scan="naive"`` switches to the rescan for the benchmark.

Strategies see what a seat may know: the grid, their own hand and the cards they themselves discarded.
They are the decision code of the bots (:mod:`toolkit.tranquility.bots`): a bot builds a one-seat
:class:`Game` from ``ENGINE.observe(state, seat)`` (:func:`toolkit.tranquility.bots.seat_game`) and asks the
same :func:`decide`, so the study and the bots at the table are one piece of code (a test plays the same
seeds both ways and compares every move). Expansions (rocks, monsters, storms) are played by the engine
only; the study covers the base game and the removal variants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

from toolkit.core.bots import bot_rng
from toolkit.core.errors import InvalidStateError
from toolkit.tranquility.cards import CELLS, FINISH, HAND_LIMIT, ISLAND_MAX, MONSTER, START, card_name
from toolkit.tranquility.engine import SOLO_EXTRA, START_DISCARDS, TWO_PLAYER_EXTRA, deal, make_options
from toolkit.tranquility.grid import SortedLine, max_cost, open_range

INF = 10**6


@dataclass
class Game:
    """Mutable game for the simulator. Piles are stored bottom-first so a draw is ``pop()``."""

    players: int
    cells: list[int]
    line: SortedLine
    hands: list[list[int]]
    piles: list[list[int]]
    unused: list[bytearray]          # per seat: 1 where a number is neither placed nor discarded by that seat
    start_space: bool = False
    turn: int = 1
    seat: int = 0
    short_hand_loss: bool = True
    scan: str = "incremental"
    moves: list[str] | None = None
    discarded: int = 0
    cache: dict = field(default_factory=dict)  # per-grid memo of brackets/usefulness; cleared on every placement
    cost_limit: str = "english"      # option cost_limit: "japanese" caps a cost at 3
    blocked: frozenset = frozenset()  # cells closed to this seat now (expansions: rock, purple/orange storms)

    def room(self, seat: int) -> int:
        """The largest cost ``seat`` may pay now: the cards left after playing (sea monsters cannot pay),
        capped at 3 under the Japanese text's literal reading."""
        hand = self.hands[seat]
        return max_cost(len(hand) - 1 - hand.count(MONSTER), self.cost_limit)

    # ---- queries the bots use ------------------------------------------------------------------
    def bracket(self, number: int) -> tuple[int, int, int, int]:
        """(low cell, low number, high cell, high number) of the open run where ``number`` may go."""
        if self.scan == "naive":
            return self._bracket(number)  # the baseline: rescan the 36 cells on every query, no memo
        hit = self.cache.get(number)
        if hit is None:
            hit = self.cache[number] = self._bracket(number)
        return hit

    def _bracket(self, number: int) -> tuple[int, int, int, int]:
        if self.scan == "naive":
            first, last = open_range(self.cells, number)
            if first > last:
                return 0, 0, 0, 0
            low_cell, high_cell = first - 1, last + 1
            return (low_cell, self.cells[low_cell] if low_cell >= 0 else 0, high_cell,
                    self.cells[high_cell] if high_cell < CELLS else ISLAND_MAX + 1)
        return self.line.bracket(number)

    def placements(self, seat: int) -> list[tuple[int, int, int]]:
        """Every legal (cost, number, cell) for ``seat`` (cost within the cards left after playing)."""
        hand = self.hands[seat]
        room = self.room(seat)
        blocked = self.blocked
        out = []
        for number in hand:
            if number > ISLAND_MAX:
                continue
            low_cell, low_number, high_cell, high_number = self.bracket(number)
            if high_cell - low_cell < 2:
                continue
            for cell in range(low_cell + 1, high_cell):
                if cell in blocked:
                    continue
                before = number - low_number if cell == low_cell + 1 and low_cell >= 0 else 0
                after = high_number - number if cell == high_cell - 1 and high_cell < CELLS else 0
                cost = min(before, after) if before and after else before or after
                if cost <= room:
                    out.append((cost, number, cell))
        return out

    def cost_at(self, number: int, cell: int) -> int:
        low_cell, low_number, high_cell, high_number = self.bracket(number)
        before = number - low_number if cell == low_cell + 1 and low_cell >= 0 else 0
        after = high_number - number if cell == high_cell - 1 and high_cell < CELLS else 0
        return min(before, after) if before and after else before or after

    def candidates(self, seat: int, near: int = 1, by_rank: bool = False) -> list[tuple[int, int, int, float]]:
        """Placements worth considering: (cost, number, cell, distance from the interpolated ideal cell).

        Only the two end cells of each card's open run can cost anything; the free interior cells differ
        only in position, so just those within ``near`` of where the number belongs are listed (``near=36``
        lists them all). This keeps the bots' work per turn small. ``by_rank``: where a number belongs is
        judged by its rank among the run's still-unused numbers (as ``seat`` knows them), not its value.
        """
        unused = self.unused[seat]
        hand = self.hands[seat]
        room = self.room(seat)
        out = []
        append = out.append
        for number in hand:
            if number > ISLAND_MAX:
                continue
            low_cell, low_number, high_cell, high_number = self.bracket(number)
            first, last = low_cell + 1, high_cell - 1
            if first > last:
                continue
            if by_rank:
                below = sum(unused[low_number + 1:number])
                total = below + sum(unused[number + 1:high_number]) + 1
                ideal = first + below / total * (last - first + 1) - 0.5
            else:
                ideal = low_cell + (number - low_number) / (high_number - low_number) * (high_cell - low_cell)
            before = number - low_number if low_cell >= 0 else 0
            after = high_number - number if high_cell < CELLS else 0
            if first == last:
                cost = min(before, after) if before and after else before or after
                if cost <= room:
                    append((cost, number, first, abs(first - ideal)))
                continue
            if before <= room:
                append((before, number, first, abs(first - ideal)))
            if after <= room:
                append((after, number, last, abs(last - ideal)))
            k = int(ideal)
            for cell in range(max(first + 1, k - near), min(last - 1, k + near + 1) + 1):
                append((0, number, cell, abs(cell - ideal)))
        if self.blocked:
            return [o for o in out if o[2] not in self.blocked]
        return out

    def best_cost(self, number: int) -> int:
        """The cheapest cost of ``number`` now (INF if it can no longer be placed: a dead card)."""
        low_cell, low_number, high_cell, high_number = self.bracket(number)
        if high_cell - low_cell < 2:
            return INF
        if high_cell - low_cell > 3 or (low_cell < 0 and high_cell - low_cell > 2) \
                or (high_cell >= CELLS and high_cell - low_cell > 2):
            return 0
        costs = []
        for cell in range(low_cell + 1, high_cell):
            before = number - low_number if cell == low_cell + 1 and low_cell >= 0 else 0
            after = high_number - number if cell == high_cell - 1 and high_cell < CELLS else 0
            costs.append(min(before, after) if before and after else before or after)
        return min(costs)

    def gap_ok_after(self, seat: int, number: int, cell: int, gone: Sequence[int] = ()) -> bool:
        """Would the gap around ``cell`` stay completable (as ``seat`` knows it) after placing ``number``
        there and discarding ``gone``?"""
        low_cell, low_number, high_cell, high_number = self.bracket(number)
        unused = self.unused[seat]
        left = sum(unused[low_number + 1:number]) - sum(1 for g in gone if low_number < g < number)
        right = sum(unused[number + 1:high_number]) - sum(1 for g in gone if number < g < high_number)
        return left >= cell - low_cell - 1 and right >= high_cell - cell - 1

    def slack_after_discard(self, seat: int, card: int) -> int:
        """Spare numbers left in the gap that ``card`` could fill, if the seat discarded it (INF: no gap)."""
        if card > ISLAND_MAX:
            return INF
        low_cell, low_number, high_cell, high_number = self.bracket(card)
        empty = high_cell - low_cell - 1
        if empty <= 0:
            return INF
        return sum(self.unused[seat][low_number + 1:high_number]) - 1 - empty

    # ---- changing ----------------------------------------------------------------------------
    def record(self, text: str) -> None:
        if self.moves is not None:
            self.moves.append(text)

    def place(self, seat: int, number: int, cell: int, discards: Sequence[int]) -> None:
        hand = self.hands[seat]
        hand.remove(number)
        self.cache.clear()
        for c in discards:
            hand.remove(c)
            if c <= ISLAND_MAX:
                self.unused[seat][c] = 0
        self.discarded += len(discards)
        self.cells[cell] = number
        self.line.add(cell, number)
        self.cache.clear()
        for u in self.unused:
            u[number] = 0
        if self.moves is not None:
            tail = (" discard " + " ".join(card_name(c) for c in sorted(discards))) if discards else ""
            self.moves.append(f"place {number} at {cell}{tail}")

    def discard(self, seat: int, cards_: Sequence[int], verb: str = "discard") -> None:
        self.cache.clear()  # the seat's unused numbers changed, so its discard preferences did too
        hand = self.hands[seat]
        for c in cards_:
            hand.remove(c)
            if c <= ISLAND_MAX:
                self.unused[seat][c] = 0
        self.discarded += len(cards_)
        if self.moves is not None:
            names = " ".join(card_name(c) for c in sorted(cards_)) if cards_ else "none"
            self.moves.append(f"{verb} {names}")

    def draw(self, seat: int, count: int | None = None) -> None:
        hand, pile = self.hands[seat], self.piles[seat]
        want = HAND_LIMIT - len(hand) if count is None else count
        while want > 0 and pile:
            hand.append(pile.pop())
            want -= 1


class Strategy:
    """A bot: chooses the action for ``seat`` and which cards to give away. Deterministic given ``rng``."""

    name = "strategy"

    def choose(self, game: Game, seat: int, rng: np.random.Generator) -> tuple:
        """``("place", number, cell)``, ``("finish",)`` or ``("discard",)``."""
        raise NotImplementedError

    def pick_discards(self, game: Game, seat: int, k: int, keep: int | None, rng: np.random.Generator,
                      placing: tuple[int, int] | None = None) -> list[int]:
        """``k`` cards from the seat's hand (never ``keep``), least useful first."""
        if k <= 0:
            return []
        hand = [c for c in game.hands[seat] if c != keep and c != MONSTER]  # sea monsters cannot be discarded
        keys = {c: self.usefulness(game, seat, c, hand) for c in set(hand)}
        hand.sort(key=keys.__getitem__)
        return hand[:k]

    def usefulness(self, game: Game, seat: int, card: int, hand: list[int]) -> tuple:
        """Sort key: lower is discarded first. Dead cards, spare finish cards, then costly islands."""
        if card <= ISLAND_MAX:
            key = ("u", self.name, seat, card)
            hit = game.cache.get(key)
            if hit is None:
                hit = game.cache[key] = self._island_usefulness(game, seat, card)
            return hit
        if card == START:
            return (0, 0)
        if card == FINISH:
            return (3, 0) if hand.count(FINISH) == 1 else (1, 0)
        key = ("u", self.name, seat, card)
        hit = game.cache.get(key)
        if hit is None:
            hit = game.cache[key] = self._island_usefulness(game, seat, card)
        return hit

    def _island_usefulness(self, game: Game, seat: int, card: int) -> tuple:
        cost = game.best_cost(card)
        if cost >= INF:
            return (0, 1)
        return (2, -cost)


class RandomLegal(Strategy):
    """Uniform over the legal placements plus one 'discard two' option; random discards."""

    name = "random"

    def choose(self, game, seat, rng):
        if _can_finish(game, seat):
            return ("finish",)
        options = game.placements(seat)
        k = int(rng.integers(0, len(options) + 1))
        return ("discard",) if k == len(options) else ("place", options[k][1], options[k][2])

    def pick_discards(self, game, seat, k, keep, rng, placing=None):
        hand = [c for c in game.hands[seat] if c != keep and c != MONSTER]
        order = rng.permutation(len(hand))
        return [hand[i] for i in order[:k]]


class Greedy(Strategy):
    """Always the cheapest placement; among equally cheap ones the cell where the number 'belongs' (linear
    interpolation inside its open run); discard two only when nothing fits. No look-ahead at all."""

    name = "greedy"

    def choose(self, game, seat, rng):
        if _can_finish(game, seat):
            return ("finish",)
        options = game.candidates(seat)
        if not options:
            return ("discard",)
        cost, number, cell, _ = min(options, key=_cheapest_then_nearest)
        return ("place", number, cell)


def _cheapest_then_nearest(option: tuple[int, int, int, float]) -> tuple:
    cost, number, cell, distance = option
    return cost, distance, number, cell


def _interpolated(game: Game, number: int, cell: int) -> float:
    """How far ``cell`` is from where ``number`` 'belongs' in its open run (linear interpolation)."""
    low_cell, low_number, high_cell, high_number = game.bracket(number)
    span = high_number - low_number
    ideal = low_cell + (number - low_number) / span * (high_cell - low_cell)
    return abs(cell - ideal)


class FeasibilityAware(Strategy):
    """Cheapest placement that keeps its gap completable (as the seat knows the gone numbers); discards
    the cards whose loss leaves the most slack; discards two when no safe placement exists."""

    name = "feasibility"

    def choose(self, game, seat, rng):
        if _can_finish(game, seat):
            return ("finish",)
        # Cheapest first, then closest to where the number belongs; the first that keeps its gap
        # completable wins (checking in order avoids testing every candidate).
        for near in (1, CELLS):  # the cells near where each number belongs first, then every cell
            for cost, number, cell, _ in sorted(game.candidates(seat, near), key=_cheapest_then_nearest):
                gone = self.pick_discards(game, seat, cost, number, rng) if cost else ()
                if game.gap_ok_after(seat, number, cell, gone):
                    return ("place", number, cell)
        return ("discard",)

    def _island_usefulness(self, game, seat, card):
        slack = game.slack_after_discard(seat, card)
        if slack >= INF:
            return (0, 1)
        cost = game.best_cost(card)
        return (2, -min(slack, 8), -cost)


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "random": RandomLegal, "greedy": Greedy, "feasibility": FeasibilityAware}


def _can_finish(game: Game, seat: int) -> bool:
    return game.start_space and FINISH in game.hands[seat] and len(game.line.cells) == CELLS


@dataclass(frozen=True)
class SimResult:
    """One simulated game: ``won``, the engine outcome code, turns played, cells filled."""

    won: bool
    code: str
    turns: int
    filled: int
    moves: tuple[str, ...] = field(default=(), compare=False)


def new_game(seed: int, players: int = 2, removal: str = "none", short_hand_loss: bool = True,
             scan: str = "incremental", record: bool = False, start_player: str = "fewest",
             cost_limit: str = "english") -> Game:
    opts = make_options(dict(players=players, removal=removal, short_hand_loss=short_hand_loss,
                             start_player=start_player, cost_limit=cost_limit))
    _, piles, removed, start_seat = deal(seed, opts)
    unused = bytearray(ISLAND_MAX + 2)
    for n in range(1, ISLAND_MAX + 1):
        unused[n] = 1
    game = Game(players=players, cells=[0] * CELLS, line=SortedLine(), hands=[[] for _ in range(players)],
                piles=[list(reversed(p)) for p in piles], unused=[bytearray(unused) for _ in range(players)],
                seat=start_seat, short_hand_loss=short_hand_loss, scan=scan, moves=[] if record else None,
                cost_limit=cost_limit)
    for k in range(players):
        game.draw((start_seat + k) % players)
    return game


def decide(strategy: Strategy, game: Game, seat: int, rng: np.random.Generator) -> tuple:
    """The whole action of ``seat`` on its turn, as the simulator plays it and the bots play it at the table.

    ``("finish",)``, ``("place", number, cell, discards)``, ``("discard", cards)`` (two cards), or
    ``("stuck",)`` when the seat has no action at all. ``rng`` draws are made in a fixed order (the choice,
    then the discards), so a seat's bot and the simulator make the same draws.
    """
    action = strategy.choose(game, seat, rng)
    if action[0] == "finish":
        return action
    if action[0] == "place":
        _, number, cell = action
        cost = game.cost_at(number, cell)
        return ("place", number, cell, tuple(strategy.pick_discards(game, seat, cost, number, rng, (number, cell))))
    hand = game.hands[seat]
    if len(hand) - hand.count(MONSTER) < 2:
        # Cannot discard two: the cheapest placement is the only action left.
        options = game.placements(seat)
        if not options:
            return ("stuck",)
        cost, number, cell = min(options)
        return ("place", number, cell, tuple(strategy.pick_discards(game, seat, cost, number, rng)))
    return ("discard", tuple(strategy.pick_discards(game, seat, 2, None, rng)))


def split_share(order: Sequence[int], capacity: Sequence[int], left: int) -> int:
    """How many of the ``left`` start-card discards ``order[0]`` gives when the table hands them out one card
    at a time around ``order`` (the seats still to declare, this one first), each seat giving at most its
    ``capacity[seat]``. Handing out from the first seat on, the seats after it get the same numbers whether
    counted now or when their turn to declare comes, so each seat can compute its own share alone.

    >>> split_share([2, 0, 1], [5, 5, 5], 8)
    3
    >>> split_share([1, 2], [5, 1, 5], 6)        # seat 1 can give only one card
    1
    >>> split_share([2, 1], [5, 1, 5], 6)        # so seat 2 gives the rest, up to its five
    5
    """
    share = {s: 0 for s in order}
    while left > 0:
        gave = False
        for s in order:
            if left and share[s] < capacity[s]:
                share[s] += 1
                left -= 1
                gave = True
        if not gave:
            break
    return share[order[0]]


def _turn_start_loss(game: Game, seat: int) -> str | None:
    """The turn-start checks, in the engine's order: a seat that can play a winning finish card wins before
    the 0–1-card loss is looked at (DESIGN.md ruling)."""
    if game.short_hand_loss and len(game.hands[seat]) <= 1 and not _can_finish(game, seat):
        return "TRANQ_LOST_SHORT_HAND"
    return None


def play(strategy: Strategy, seed: int, players: int = 2, removal: str = "none", short_hand_loss: bool = True,
         scan: str = "incremental", record: bool = False, max_turns: int = 1000,
         cost_limit: str = "english") -> SimResult:
    """Play one game with every seat run by ``strategy``. Seat ``i``'s randomness is
    :func:`toolkit.core.bots.bot_rng` ``(seed, i)``, exactly what :func:`toolkit.core.bots.play_out` gives
    the bot at seat ``i``, so a simulated game and the same bots at the engine's table play the same moves."""
    if scan not in ("incremental", "naive"):
        raise InvalidStateError(f"scan={scan!r}: use 'incremental' or 'naive'")
    game = new_game(seed, players, removal, short_hand_loss, scan, record, cost_limit=cost_limit)
    rngs = [bot_rng(seed, s) for s in range(players)]
    n = players
    while game.turn <= max_turns:
        seat = game.seat
        hand = game.hands[seat]
        lost = _turn_start_loss(game, seat)
        if lost:
            return _result(game, False, lost)
        if START in hand and not game.start_space:
            hand.remove(START)
            game.start_space = True
            game.record("start")
            order = [(seat + k) % n for k in range(n)]
            if n == 1:
                game.draw(seat, SOLO_EXTRA)
            elif n == 2:
                for s in order:
                    game.draw(s, TWO_PLAYER_EXTRA)
            _split_eight(game, strategy, order, rngs)
            for s in order:
                game.draw(s)
            game.turn += 1
            game.seat = (seat + 1) % n
            continue
        action = decide(strategy, game, seat, rngs[seat])
        if action[0] == "finish":
            hand.remove(FINISH)
            game.record("finish")
            return _result(game, True, "TRANQ_WIN")
        if action[0] == "place":
            game.place(seat, action[1], action[2], action[3])
        elif action[0] == "discard":
            game.discard(seat, action[1])
        else:
            return _result(game, False, "TRANQ_LOST_NO_ACTION")
        game.draw(seat)
        game.turn += 1
        game.seat = (seat + 1) % n
        nxt = game.hands[game.seat]
        if not (short_hand_loss and len(nxt) <= 1) and len(nxt) < 2 and not game.placements(game.seat) \
                and not _can_finish(game, game.seat) and not (START in nxt and not game.start_space):
            return _result(game, False, "TRANQ_LOST_NO_ACTION")
    return _result(game, False, "TURN_LIMIT")


def _split_eight(game: Game, strategy: Strategy, order: list[int], rngs: Sequence[np.random.Generator]) -> None:
    """The table's 8 discards: each seat in turn gives its share (:func:`split_share`: one card at a time
    around the table from the start player, so the split is as even as the hands allow), its least useful
    cards, chosen from its own hand alone."""
    capacity = [len(h) - h.count(MONSTER) for h in game.hands]
    left = min(START_DISCARDS, sum(capacity[s] for s in order))
    for i, s in enumerate(order):
        share = split_share(order[i:], capacity, left)
        game.discard(s, strategy.pick_discards(game, s, share, None, rngs[s]), verb="split")
        left -= share


def _result(game: Game, won: bool, code: str) -> SimResult:
    return SimResult(won, code, game.turn, len(game.line.cells), tuple(game.moves or ()))


class RankInterpolator(FeasibilityAware):
    """Our own bot. Like feasibility-aware, but (1) a card goes where it belongs by *rank*: the share of its
    run's still-unused numbers below it should match the share of the run's empty cells before its cell,
    which keeps room where the remaining numbers actually are; and (2) a placement costing more than
    ``max_cost`` is declined in favour of discarding two while the seat's draw pile still has cards."""

    name = "rank"

    def __init__(self, spread: float = 1.5, max_cost: int = 3):
        self.spread = spread
        self.max_cost = max_cost

    def choose(self, game, seat, rng):
        if _can_finish(game, seat):
            return ("finish",)
        spread = self.spread
        ranked = sorted(game.candidates(seat, near=2, by_rank=True), key=lambda o: o[0] + spread * o[3])
        for cost, number, cell, _ in ranked:
            if cost > self.max_cost and game.piles[seat] and len(game.hands[seat]) > 2:
                break  # too dear while cards are still coming: discard two instead
            gone = self.pick_discards(game, seat, cost, number, rng) if cost else ()
            if game.gap_ok_after(seat, number, cell, gone):
                return ("place", number, cell)
        return ("discard",)


STRATEGIES["rank"] = RankInterpolator
