"""The Tranquility rules engine: setup, turns, start and finish cards, losses, solo, island removal and the
three "Stormy Seas" mini-expansions (jagged rocks, sea monsters, storms and compasses).

Every refusal is a :class:`Violation` tied to a rule id in ``rules.toml``; every state change is an
:class:`Event`. Events never name face-down cards (discards, draws), because the event log is shown to
every seat of a hot-seat game.

Flow of a turn (``phase``):

``play``  the turn seat acts: place an island, play start/finish/monster, discard two, discard the hand
          (storms); compasses are free actions.
``start-discard``  after the start card the table discards 8 cards in total; seats declare their share in
          turn order, starting with the start-card player (the agreed split, see the ruling).
``rock``  jagged rocks: after the action, move the rock or discard two.
``storm`` a storm card was drawn: resolve it (or cancel it with a compass) before drawing on.
``over``  won or lost.

Pending draws are a queue ``draws`` of ``(seat, n)`` (``n == 0``: refill to the hand limit), so a storm
drawn in the middle of a refill, or of the start card's extra draws, pauses the queue and play resumes
exactly where it stopped.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations as _combinations
from typing import Any, Iterator, Mapping

from toolkit.core.chance import Chance
from toolkit.core.checks import check_bool
from toolkit.core.engine import Engine
from toolkit.core.explain import Event, Outcome, Violation
from toolkit.core.i18n import Term, translate
from toolkit.tranquility import cards as C
from toolkit.tranquility.cards import (CELLS, COLUMNS, FINISH, HAND_LIMIT, ISLANDS, MONSTER, ROWS, START,
                                       STORM_ORANGE, STORM_PURPLE, STORM_YELLOW, YELLOW_HAND_LIMIT, card_name,
                                       is_island, row_cells)
from toolkit.tranquility.grid import (cell_params, cost_limit_violation, open_range, placement_violation,
                                      raw_cost)
from toolkit.tranquility.model import (PHASE_OVER, PHASE_PLAY, PHASE_ROCK, PHASE_START_DISCARD, PHASE_STORM,
                                       InvalidOptionError, Options, TranquilityState)
from toolkit.tranquility.moves import (MOVE_TYPES, DiscardHand, DiscardTwo, Move, MoveRock, PlaceIsland,
                                       PlayFinish, PlayMonster, PlayStart, ResolveStorm, RockDiscard,
                                       StartDiscard, UseCompass, parse_move)

START_DISCARDS = 8
TWO_PLAYER_EXTRA = 2
SOLO_EXTRA = 8
ROCK_LEAVES_AFTER_ROWS = 4
BLIND_MAX = 2

PHASE_MOVES = {
    PHASE_PLAY: (PlaceIsland, PlayStart, PlayFinish, DiscardTwo, PlayMonster, DiscardHand, UseCompass),
    PHASE_ROCK: (MoveRock, RockDiscard),
    PHASE_START_DISCARD: (StartDiscard,),
    PHASE_STORM: (ResolveStorm, UseCompass),
}
PHASE_RULE = {PHASE_PLAY: "tranquility.turn.action", PHASE_ROCK: "tranquility.rocks.move",
              PHASE_START_DISCARD: "tranquility.start.discard-eight", PHASE_STORM: "tranquility.storm.resolve"}
STORM_TERM = {STORM_YELLOW: Term("tranquility.card.yellow"), STORM_PURPLE: Term("tranquility.card.purple"),
              STORM_ORANGE: Term("tranquility.card.orange")}


def combinations(cards: list[int], k: int) -> list[tuple[int, ...]]:
    """Distinct k-card choices (a hand can hold several identical finish cards)."""
    return sorted(set(_combinations(cards, k)))


def hand_limit(state: TranquilityState, seat: int) -> int:
    return YELLOW_HAND_LIMIT if state.yellow and state.yellow[seat] else HAND_LIMIT


def discardable(hand: tuple[int, ...]) -> list[int]:
    """Cards that may be discarded: everything but sea monsters (「海の怪物カードを捨てることはできません」)."""
    return [c for c in hand if c != MONSTER]


def complete_rows(cells: tuple[int, ...]) -> list[int]:
    return [r for r in range(ROWS) if all(cells[i] for i in row_cells(r))]


def rows_with_space(cells: tuple[int, ...]) -> list[int]:
    return [r for r in range(ROWS) if not all(cells[i] for i in row_cells(r))]


def make_options(options: Mapping[str, Any]) -> Options:
    """Options from keyword arguments (lists accepted for tuples); unknown names are refused."""
    options = dict(options)
    if isinstance(options.get("options"), Options) and len(options) == 1:
        return options["options"]
    try:
        return Options(**{k: tuple(v) if k == "storm_colours" and isinstance(v, list) else v
                          for k, v in options.items()})
    except TypeError as exc:
        raise InvalidOptionError(f"unknown Tranquility option: {exc}") from None


def deal(seed: int, opts: Options) -> tuple[Chance, list[list[int]], tuple[int, ...], int]:
    """The setup's chance events: removal, shuffle, deal, start cards, start player.

    Returns ``(chance, piles, removed, start_seat)``; piles are top-first and still hold the 5 opening
    cards on top (the opening refill draws them). Shared by the engine and the fast simulator so both
    play the same deal for the same seed.
    """
    n = opts.players
    chance = Chance(seed)
    islands = list(ISLANDS)
    removed: tuple[int, ...] = ()
    if opts.removed_islands:
        # Finish cards are not in this shuffle: 「カードを取り除く前に、必ず完了カードをよけておく」.
        chance, shuffled = chance.shuffled(islands)
        removed, islands = tuple(sorted(shuffled[:opts.removed_islands])), list(shuffled[opts.removed_islands:])
    deck = islands + [FINISH] * C.FINISH_CARDS + [MONSTER] * opts.monsters
    if opts.storms:
        y, p, o = opts.storm_colours
        deck += [STORM_YELLOW] * y + [STORM_PURPLE] * p + [STORM_ORANGE] * o
    chance, deck_t = chance.shuffled(deck)
    deck = list(deck_t)
    if n == 1:
        # Solo: split in half, shuffle the start card into one half, put it on top of the other.
        half = len(deck) // 2
        chance, top = chance.shuffled(deck[:half] + [START])
        return chance, [list(top) + deck[half:]], removed, 0
    piles = [deck[i::n] for i in range(n)]  # dealt one at a time: earlier seats get the extra cards
    sizes = [len(p) for p in piles]
    fewest = [i for i in range(n) if sizes[i] == min(sizes)]
    if opts.start_player == "random":
        chance, start_seat = chance.integer(0, n)
    elif len(fewest) == 1:
        start_seat = fewest[0]
    else:
        chance, start_seat = chance.choice(fewest)
    # Everyone draws 5, then shuffles a start card into the rest of the pile
    # (「最後に、各プレイヤーはそれぞれスタートカード1枚を自分の山札に混ぜてシャッフル」). The five opening
    # cards stay on top and are drawn by the opening refill, so a storm among them is resolved like any
    # other drawn storm (its replacement comes from the shuffled pile).
    for i in range(n):
        head, tail = piles[i][:HAND_LIMIT], piles[i][HAND_LIMIT:]
        chance, rest = chance.shuffled(tail + [START])
        piles[i] = head + list(rest)
    return chance, piles, removed, start_seat


class _Work:
    """A mutable copy of a state for one transition; ``freeze()`` makes the new immutable state."""

    def __init__(self, s: TranquilityState):
        self.s = s
        self.cells = list(s.cells)
        self.hands = [list(h) for h in s.hands]
        self.piles = [list(p) for p in s.piles]
        self.discards = [list(d) for d in s.discards]
        self.out = list(s.out_of_game)
        self.played = list(s.played)
        self.yellow = list(s.yellow)
        self.orange = list(s.orange)
        self.purple = list(s.purple_rows)
        self.rewarded = list(s.rewarded_rows)
        self.draws = [list(d) for d in s.draws]
        self.split_seats = list(s.start_discard_seats)
        self.f: dict[str, Any] = {}
        self.events: list[Event] = []

    def get(self, name: str) -> Any:
        return self.f.get(name, getattr(self.s, name))

    def set(self, **fields: Any) -> None:
        self.f.update(fields)

    def event(self, code: str, rule: str, seat: int | None = None, **params: Any) -> None:
        # ``by`` repeats the seat as a message parameter: Event.seat itself is not part of the sentence.
        if seat is not None:
            params["by"] = seat
        self.events.append(Event(code, rule, seat=seat, **params))

    def freeze(self) -> TranquilityState:
        return replace(self.s, cells=tuple(self.cells), hands=tuple(map(tuple, self.hands)),
                       piles=tuple(map(tuple, self.piles)), discards=tuple(map(tuple, self.discards)),
                       out_of_game=tuple(self.out), played=tuple(self.played), yellow=tuple(self.yellow),
                       orange=tuple(self.orange), purple_rows=tuple(sorted(self.purple)),
                       rewarded_rows=tuple(sorted(self.rewarded)), draws=tuple(tuple(d) for d in self.draws),
                       start_discard_seats=tuple(self.split_seats), **self.f)


class TranquilityEngine(Engine[TranquilityState, Move]):
    name = "tranquility"
    state_type = TranquilityState
    move_types = MOVE_TYPES

    # ---- setup ----------------------------------------------------------------------------------
    def new_state(self, seed: int, **options: Any) -> TranquilityState:
        """Deal a new game. Options: see :class:`~toolkit.tranquility.model.Options`."""
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InvalidOptionError(f"seed {seed!r} must be a whole number ≥ 0")
        opts = make_options(options)
        n = opts.players
        chance, piles, removed, start_seat = deal(seed, opts)
        hands: list[list[int]] = [[] for _ in range(n)]
        state = TranquilityState(
            options=opts, chance=chance, cells=(0,) * CELLS, start_space=False,
            hands=tuple(tuple(h) for h in hands), piles=tuple(tuple(p) for p in piles),
            discards=((),) * n, removed=removed, seat=start_seat, turn_seat=start_seat,
            yellow=(0,) * n, orange=(0,) * n, compass_supply=opts.compasses if opts.storms else 0)
        w = _Work(state)
        if opts.rocks:
            chance, row = w.get("chance").integer(0, ROWS)
            w.set(chance=chance, rock_row=row)
        order = [(start_seat + k) % n for k in range(n)]
        w.draws = [[i, 0] for i in order]
        w.set(after_draws="turn")
        self._run_draws(w)
        return w.freeze()

    def setup_events(self, state: TranquilityState) -> tuple[Event, ...]:
        """What the setup did, as events with their rule ids (for the event log and the notebooks).

        Computed from the options and the opening state, so it can be shown for any new game.
        """
        o = state.options
        n = o.players
        events = []
        dealt = 80 - o.removed_islands + C.FINISH_CARDS + o.monsters + (6 if o.storms else 0)
        if o.removed_islands:
            events.append(Event("TRANQ_SETUP_REMOVAL", "tranquility.variant.removal", variant=o.removal.title(),
                                count=o.removed_islands))
        if n == 1:
            events.append(Event("TRANQ_SETUP_SOLO", "tranquility.setup.solo", cards=dealt + 1))
        else:
            sizes = [dealt // n + (1 if i < dealt % n else 0) for i in range(n)]
            events.append(Event("TRANQ_SETUP_DEAL", "tranquility.setup.deal", cards=dealt, sizes=sizes))
            events.append(Event("TRANQ_SETUP_START_CARDS", "tranquility.setup.start-card"))
            how = "fewest" if o.start_player == "fewest" else "random"
            events.append(Event("TRANQ_SETUP_START_PLAYER", "tranquility.setup.start-player", seat=state.turn_seat,
                                start=state.turn_seat, how=Term(f"tranquility.how.{how}")))
        if o.monsters:
            events.append(Event("TRANQ_SETUP_MONSTERS", "tranquility.monster.deal", count=o.monsters))
        if o.storms:
            y, p, r = o.storm_colours
            events.append(Event("TRANQ_SETUP_STORMS", "tranquility.storm.resolve", yellow=y, purple=p, orange=r,
                                compasses=o.compasses))
        if o.rocks and state.rock_row >= 0:
            events.append(Event("TRANQ_SETUP_ROCK", "tranquility.rocks.block", row=state.rock_row + 1))
        return tuple(events)

    # ---- the verbs -------------------------------------------------------------------------------
    def current_player(self, state: TranquilityState) -> int | None:
        return None if state.result else state.seat

    def outcome(self, state: TranquilityState) -> Outcome | None:
        if not state.result:
            return None
        winners = tuple(range(state.players)) if state.result == "win" else ()
        return Outcome(state.result_code, state.result_rule, result=state.result, winners=winners,
                       seat=state.result_seat, turn=state.turn)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def legal_moves(self, state: TranquilityState) -> list[Move]:
        if state.result:
            return []
        return [m for m in self._candidates(state) if self.why_illegal(state, m) is None]

    def can_finish(self, state: TranquilityState) -> bool:
        """Whether the seat to act may play a finish card now (and so win)."""
        return state.phase == PHASE_PLAY and not state.result and self.why_illegal(state, PlayFinish()) is None

    def has_action(self, state: TranquilityState, include_compass: bool = False) -> bool:
        check_bool("include_compass", include_compass)
        for m in self._candidates(state):
            if (include_compass or not isinstance(m, UseCompass)) and self.why_illegal(state, m) is None:
                return True
        return False

    # ---- refusals --------------------------------------------------------------------------------
    def why_illegal(self, state: TranquilityState, move: Move) -> Violation | None:
        self.check_move_type(move)
        if state.result:
            return Violation("GAME_OVER", "core.over")
        if not isinstance(move, PHASE_MOVES[state.phase]):
            return Violation("TRANQ_WRONG_PHASE", PHASE_RULE[state.phase], move=str(move),
                             phase=Term(f"tranquility.phase.{state.phase}"))
        seat = state.seat
        hand = state.hands[seat]
        if isinstance(move, UseCompass):
            return self._why_compass(state, move)
        if state.phase == PHASE_PLAY:
            if not isinstance(move, PlayStart) and START in hand and not state.start_space:
                return Violation("TRANQ_MUST_PLAY_START", "tranquility.start.must-play", seat=seat)
            if isinstance(move, PlaceIsland):
                return self._why_place(state, move)
            if isinstance(move, PlayStart):
                if START not in hand:
                    return Violation("TRANQ_NOT_IN_HAND", "tranquility.start.space", card=Term("tranquility.card.start"))
                if state.start_space:
                    return Violation("TRANQ_START_TAKEN", "tranquility.start.space")
                return None
            if isinstance(move, PlayFinish):
                if FINISH not in hand:
                    return Violation("TRANQ_NOT_IN_HAND", "tranquility.finish.grid-full",
                                     card=Term("tranquility.card.finish"))
                empty = sum(1 for c in state.cells if not c)
                if empty or not state.start_space:
                    return Violation("TRANQ_FINISH_NOT_READY", "tranquility.finish.grid-full", empty=empty,
                                     start=state.start_space)
                holders = [i for i, h in enumerate(state.hands) if MONSTER in h]
                if holders:
                    return Violation("TRANQ_MONSTER_HELD", "tranquility.monster.reveal", seats=holders,
                                     count=sum(h.count(MONSTER) for h in state.hands))
                return None
            if isinstance(move, DiscardTwo):
                return self._why_discard(hand, move.cards)
            if isinstance(move, PlayMonster):
                if MONSTER not in hand:
                    return Violation("TRANQ_NOT_IN_HAND", "tranquility.monster.play", card=Term("tranquility.card.monster"))
                if not state.played:
                    return Violation("TRANQ_MONSTER_NO_TARGET", "tranquility.monster.play")
                return None
            if isinstance(move, DiscardHand):
                if not state.options.storms:
                    return Violation("TRANQ_NEEDS_STORMS", "tranquility.compass.earn-discard-hand")
                if not hand:
                    return Violation("TRANQ_EMPTY_HAND", "tranquility.compass.earn-discard-hand")
                if MONSTER in hand:
                    return Violation("TRANQ_MONSTER_NO_DISCARD", "tranquility.monster.no-discard",
                                     card=Term("tranquility.card.monster"))
                return None
        if state.phase == PHASE_ROCK:
            if isinstance(move, MoveRock):
                if move.row == state.rock_row:
                    return Violation("TRANQ_ROCK_SAME_ROW", "tranquility.rocks.move", row=move.row + 1)
                if move.row not in rows_with_space(state.cells):
                    return Violation("TRANQ_ROCK_FULL_ROW", "tranquility.rocks.move", row=move.row + 1)
                return None
            return self._why_discard(hand, move.cards)
        if state.phase == PHASE_START_DISCARD:
            return self._why_split(state, move)
        if state.phase == PHASE_STORM:
            return self._why_storm(state, move)
        return None  # pragma: no cover - every phase handled above

    def _why_discard(self, hand: tuple[int, ...], cards: tuple[int, ...]) -> Violation | None:
        """Discards come from the hand (never the pile) and never include a sea monster."""
        for c in cards:
            if cards.count(c) > hand.count(c):
                return Violation("TRANQ_DISCARD_NOT_IN_HAND", "tranquility.place.no-pile-discard", card=card_name(c))
            if c == MONSTER:
                return Violation("TRANQ_MONSTER_NO_DISCARD", "tranquility.monster.no-discard",
                                 card=Term("tranquility.card.monster"))
        return None

    def _why_place(self, state: TranquilityState, move: PlaceIsland) -> Violation | None:
        seat, hand, cells = state.seat, state.hands[state.seat], state.cells
        number, cell = move.number, move.cell
        if number not in hand:
            return Violation("TRANQ_NOT_IN_HAND", "tranquility.turn.action", card=str(number))
        broken = placement_violation(cells, cell, number)
        if broken is not None:
            return broken
        row = cell // COLUMNS
        if row == state.rock_row:
            return Violation("TRANQ_ROW_ROCK", "tranquility.rocks.block", **_cell(cell))
        if row in state.purple_rows:
            return Violation("TRANQ_ROW_PURPLE", "tranquility.storm.purple", **_cell(cell))
        if state.orange and state.orange[seat]:
            if not ((cell > 0 and cells[cell - 1]) or (cell < CELLS - 1 and cells[cell + 1])):
                return Violation("TRANQ_ORANGE_ADJACENT", "tranquility.storm.orange", number=number, **_cell(cell))
        cost = raw_cost(cells, cell, number)
        remaining = len(discardable(hand)) - 1
        over = cost_limit_violation(cost, cell, number, remaining, state.options.cost_limit)
        if over is not None:
            return over
        if number in move.discards:
            return Violation("TRANQ_DISCARD_PLAYED", "tranquility.place.cost", number=number)
        bad = self._why_discard(hand, move.discards)
        if bad is not None:
            return bad
        if len(move.discards) != cost:
            return Violation("TRANQ_DISCARD_COUNT", "tranquility.place.cost", number=number, cost=cost,
                             given=len(move.discards), **_cell(cell))
        return None

    def _why_compass(self, state: TranquilityState, move: UseCompass) -> Violation | None:
        if not state.options.storms:
            return Violation("TRANQ_NEEDS_STORMS", "tranquility.compass.use")
        if state.compass_pool < 1:
            return Violation("TRANQ_NO_COMPASS", "tranquility.compass.use")
        if move.target == "storm":
            if state.phase != PHASE_STORM:
                return Violation("TRANQ_NO_PENDING_STORM", "tranquility.compass.use")
            return None
        if state.phase != PHASE_PLAY:
            return Violation("TRANQ_WRONG_PHASE", "tranquility.compass.use", move=str(move),
                             phase=Term(f"tranquility.phase.{state.phase}"))
        i = move.index
        if move.target == "purple":
            if i not in state.purple_rows:
                return Violation("TRANQ_COMPASS_NO_TARGET", "tranquility.compass.use", target=str(move))
            return None
        counts = state.yellow if move.target == "yellow" else state.orange
        if i >= state.players or not counts[i]:
            return Violation("TRANQ_COMPASS_NO_TARGET", "tranquility.compass.use", target=str(move))
        return None

    def split_bounds(self, state: TranquilityState) -> tuple[int, int]:
        """How many cards the seat declaring now must give to the start card's 8 (lowest, highest)."""
        left = state.start_discard_left
        later = sum(self._split_capacity(state, s) for s in state.start_discard_seats[1:])
        own = self._split_capacity(state, state.seat)
        return max(0, left - later), min(left, own)

    def _split_capacity(self, state: TranquilityState, seat: int) -> int:
        blind = min(BLIND_MAX, len(state.piles[seat])) if state.yellow[seat] else 0
        return len(discardable(state.hands[seat])) + blind

    def _why_split(self, state: TranquilityState, move: StartDiscard) -> Violation | None:
        seat = state.seat
        bad = self._why_discard(state.hands[seat], move.cards)
        if bad is not None:
            return bad
        if move.blind:
            if not state.yellow[seat]:
                return Violation("TRANQ_BLIND_NEEDS_YELLOW", "tranquility.storm.yellow", seat=seat)
            if move.blind > len(state.piles[seat]):
                return Violation("TRANQ_BLIND_PILE", "tranquility.storm.yellow", blind=move.blind,
                                 pile=len(state.piles[seat]))
        low, high = self.split_bounds(state)
        given = len(move.cards) + move.blind
        if given > high:
            return Violation("TRANQ_SPLIT_TOO_MANY", "tranquility.start.discard-eight", given=given, most=high,
                             left=state.start_discard_left)
        if given < low:
            return Violation("TRANQ_SPLIT_TOO_FEW", "tranquility.start.discard-eight", given=given, least=low,
                             left=state.start_discard_left)
        return None

    def storm_discards_needed(self, state: TranquilityState) -> int:
        hand = state.hands[state.seat]
        return max(0, min(len(hand) - YELLOW_HAND_LIMIT, len(discardable(hand))))

    def _purple_rows_open(self, state: TranquilityState) -> list[int]:
        return [r for r in rows_with_space(state.cells) if r not in state.purple_rows]

    def _why_storm(self, state: TranquilityState, move: ResolveStorm) -> Violation | None:
        kind = state.storm
        if kind == STORM_YELLOW:
            if move.row != -1:
                return Violation("TRANQ_STORM_SHAPE", "tranquility.storm.yellow", storm=STORM_TERM[kind])
            bad = self._why_discard(state.hands[state.seat], move.discards)
            if bad is not None:
                return bad
            need = self.storm_discards_needed(state)
            if len(move.discards) != need:
                return Violation("TRANQ_YELLOW_COUNT", "tranquility.storm.yellow", need=need, given=len(move.discards))
            return None
        if move.discards:
            return Violation("TRANQ_STORM_SHAPE", "tranquility.storm.resolve", storm=STORM_TERM[kind])
        if kind == STORM_PURPLE:
            open_rows = self._purple_rows_open(state)
            if move.row == -1 and open_rows:
                return Violation("TRANQ_PURPLE_ROW_NEEDED", "tranquility.storm.purple",
                                 rows=[r + 1 for r in open_rows])
            if move.row != -1 and move.row not in open_rows:
                return Violation("TRANQ_PURPLE_ROW_BAD", "tranquility.storm.purple", row=move.row + 1)
            return None
        if move.row != -1:
            return Violation("TRANQ_STORM_SHAPE", "tranquility.storm.orange", storm=STORM_TERM[kind])
        return None

    # ---- candidate moves (a superset of the legal ones; legal_moves filters them) -------------------
    def _candidates(self, state: TranquilityState) -> Iterator[Move]:
        seat, hand = state.seat, state.hands[state.seat]
        disc = sorted(discardable(hand))
        if state.phase == PHASE_PLAY:
            if state.options.storms and state.compass_pool:
                for i in range(state.players):
                    if state.yellow[i]:
                        yield UseCompass("yellow", i)
                    if state.orange[i]:
                        yield UseCompass("orange", i)
                for r in state.purple_rows:
                    yield UseCompass("purple", r)
            if START in hand and not state.start_space:
                yield PlayStart()
                return
            for number in sorted(c for c in hand if is_island(c)):
                first, last = open_range(state.cells, number)
                others = [c for c in disc if c != number]
                for cell in range(first, last + 1):
                    cost = raw_cost(state.cells, cell, number)
                    if cost <= len(others):
                        for combo in combinations(others, cost):
                            yield PlaceIsland(number, cell, combo)
            if FINISH in hand:
                yield PlayFinish()
            if MONSTER in hand:
                yield PlayMonster()
            for pair in combinations(disc, 2):
                yield DiscardTwo(pair)
            if state.options.storms and hand:
                yield DiscardHand()
        elif state.phase == PHASE_ROCK:
            for r in range(ROWS):
                yield MoveRock(r)
            for pair in combinations(disc, 2):
                yield RockDiscard(pair)
        elif state.phase == PHASE_START_DISCARD:
            low, high = self.split_bounds(state)
            blinds = range(0, min(BLIND_MAX, len(state.piles[seat])) + 1) if state.yellow[seat] else (0,)
            for blind in blinds:
                for k in range(max(0, low - blind), max(-1, high - blind) + 1):
                    for combo in combinations(disc, k):
                        yield StartDiscard(combo, blind)
        elif state.phase == PHASE_STORM:
            if state.compass_pool:
                yield UseCompass("storm")
            if state.storm == STORM_YELLOW:
                for combo in combinations(disc, self.storm_discards_needed(state)):
                    yield ResolveStorm(discards=combo)
            elif state.storm == STORM_PURPLE:
                yield ResolveStorm()
                for r in range(ROWS):
                    yield ResolveStorm(row=r)
            else:
                yield ResolveStorm()

    # ---- transitions -----------------------------------------------------------------------------
    def _transition(self, state: TranquilityState, move: Move) -> tuple[TranquilityState, tuple[Event, ...]]:
        w = _Work(state)
        seat = state.seat
        if isinstance(move, UseCompass):
            self._use_compass(w, move)
            if move.target == "storm":
                w.set(storm=0)
                self._run_draws(w)
            elif not self.has_action(w.freeze(), include_compass=True):
                self._lose(w, "TRANQ_LOSS_NO_ACTION", "tranquility.loss.no-action", seat)
            return w.freeze(), tuple(w.events)
        if isinstance(move, PlaceIsland):
            hand = w.hands[seat]
            hand.remove(move.number)
            cost = raw_cost(state.cells, move.cell, move.number)
            for c in move.discards:
                hand.remove(c)
                w.discards[seat].append(c)
            w.cells[move.cell] = move.number
            w.played.append(move.cell)
            w.event("TRANQ_PLACED", "tranquility.place.cost", seat=seat, number=move.number, cost=cost,
                    **_cell(move.cell))
            self._after_grid_change(w, seat, move.cell)
            self._end_action(w, seat)
        elif isinstance(move, DiscardTwo):
            self._discard(w, seat, move.cards)
            w.event("TRANQ_DISCARDED_TWO", "tranquility.turn.action", seat=seat)
            self._end_action(w, seat)
        elif isinstance(move, PlayStart):
            w.hands[seat].remove(START)
            w.set(start_space=True)
            w.event("TRANQ_START_PLAYED", "tranquility.start.space", seat=seat)
            if state.options.storms:
                self._earn_compass(w, "tranquility.compass.earn-start", seat)
            n = state.players
            order = [(seat + k) % n for k in range(n)]
            if n == 1:
                w.draws = [[seat, SOLO_EXTRA]]
                w.event("TRANQ_EXTRA_DRAW", "tranquility.start.solo", seat=seat, count=SOLO_EXTRA)
            elif n == 2:
                w.draws = [[s, TWO_PLAYER_EXTRA] for s in order]
                w.event("TRANQ_EXTRA_DRAW_ALL", "tranquility.start.two-player", count=TWO_PLAYER_EXTRA)
            w.split_seats = order
            w.set(after_draws="start-discard")
            self._run_draws(w)
        elif isinstance(move, PlayFinish):
            w.hands[seat].remove(FINISH)
            w.event("TRANQ_FINISHED", "tranquility.finish.win", seat=seat)
            w.set(phase=PHASE_OVER, result="win", result_code="TRANQ_WIN", result_rule="tranquility.finish.win",
                  result_seat=seat)
        elif isinstance(move, PlayMonster):
            w.hands[seat].remove(MONSTER)
            target = w.played.pop()
            victim = w.cells[target]
            w.cells[target] = 0
            w.out += [MONSTER, victim]
            w.event("TRANQ_MONSTER_PLAYED", "tranquility.monster.play", seat=seat, number=victim, **_cell(target))
            self._end_action(w, seat)
        elif isinstance(move, DiscardHand):
            count = len(w.hands[seat])
            self._discard(w, seat, tuple(w.hands[seat]))
            w.event("TRANQ_HAND_DISCARDED", "tranquility.compass.earn-discard-hand", seat=seat, count=count)
            self._earn_compass(w, "tranquility.compass.earn-discard-hand", seat)
            self._end_action(w, seat)
        elif isinstance(move, MoveRock):
            w.set(rock_row=move.row)
            w.event("TRANQ_ROCK_MOVED", "tranquility.rocks.move", seat=seat, row=move.row + 1)
            self._refill_and_pass(w, seat)
        elif isinstance(move, RockDiscard):
            self._discard(w, seat, move.cards)
            w.event("TRANQ_ROCK_DISCARD", "tranquility.rocks.move", seat=seat)
            self._refill_and_pass(w, seat)
        elif isinstance(move, StartDiscard):
            self._discard(w, seat, move.cards)
            if move.blind:
                unseen = [list(u) for u in (state.unseen_discards or ((),) * state.players)]
                for _ in range(move.blind):
                    card = w.piles[seat].pop(0)
                    w.discards[seat].append(card)
                    unseen[seat].append(card)
                w.set(unseen_discards=tuple(tuple(u) for u in unseen))
            given = len(move.cards) + move.blind
            left = state.start_discard_left - given
            w.event("TRANQ_SPLIT", "tranquility.start.discard-eight", seat=seat, count=given, blind=move.blind,
                    left=left)
            w.split_seats.pop(0)
            w.set(start_discard_left=left)
            if w.split_seats:
                w.set(seat=w.split_seats[0])
            else:
                self._after_start_discard(w)
        elif isinstance(move, ResolveStorm):
            kind = state.storm
            if kind == STORM_YELLOW:
                self._discard(w, seat, move.discards)
                w.yellow[seat] += 1
                w.event("TRANQ_STORM_YELLOW", "tranquility.storm.yellow", seat=seat, count=len(move.discards))
            elif kind == STORM_PURPLE:
                if move.row >= 0:
                    w.purple.append(move.row)
                    w.event("TRANQ_STORM_PURPLE", "tranquility.storm.purple", seat=seat, row=move.row + 1)
                else:
                    w.out.append(STORM_PURPLE)
                    w.event("TRANQ_STORM_PURPLE_NOWHERE", "tranquility.storm.purple", seat=seat)
            else:
                w.orange[seat] += 1
                w.event("TRANQ_STORM_ORANGE", "tranquility.storm.orange", seat=seat)
            w.set(storm=0)
            self._run_draws(w)
        return w.freeze(), tuple(w.events)

    def _discard(self, w: _Work, seat: int, cards_: tuple[int, ...]) -> None:
        for c in cards_:
            w.hands[seat].remove(c)
            w.discards[seat].append(c)

    def _use_compass(self, w: _Work, move: UseCompass) -> None:
        w.set(compass_pool=w.get("compass_pool") - 1)
        w.out.append(C.COMPASS)
        seat = w.s.seat
        if move.target == "storm":
            storm = w.s.storm
            w.out.append(storm)
            w.event("TRANQ_COMPASS_CANCEL", "tranquility.compass.use", seat=seat, storm=STORM_TERM[storm])
        elif move.target == "purple":
            w.purple.remove(move.index)
            w.out.append(STORM_PURPLE)
            w.event("TRANQ_COMPASS_PURPLE", "tranquility.compass.use", seat=seat, row=move.index + 1)
        else:
            counts = w.yellow if move.target == "yellow" else w.orange
            counts[move.index] -= 1
            w.out.append(STORM_YELLOW if move.target == "yellow" else STORM_ORANGE)
            w.event("TRANQ_COMPASS_CLEAR", "tranquility.compass.use", seat=seat, target=move.index,
                    storm=STORM_TERM[STORM_YELLOW if move.target == "yellow" else STORM_ORANGE])

    def _earn_compass(self, w: _Work, rule: str, seat: int) -> None:
        supply = w.get("compass_supply")
        if supply:
            w.set(compass_supply=supply - 1, compass_pool=w.get("compass_pool") + 1)
            w.event("TRANQ_COMPASS_EARNED", rule, seat=seat)
        else:
            w.event("TRANQ_COMPASS_NONE_LEFT", rule, seat=seat)

    def _after_grid_change(self, w: _Work, seat: int, cell: int) -> None:
        """Row bonuses and the rock's departure after a card lands on the grid."""
        row = cell // COLUMNS
        cells_t = tuple(w.cells)
        values = [cells_t[i] for i in row_cells(row)]
        if all(values) and w.s.options.storms and row not in w.rewarded:
            if all(b == a + 1 for a, b in zip(values, values[1:])):
                w.rewarded.append(row)
                self._earn_compass(w, "tranquility.compass.earn-row", seat)
        if w.get("rock_row") >= 0 and len(complete_rows(cells_t)) >= ROCK_LEAVES_AFTER_ROWS:
            w.set(rock_row=-1)
            w.event("TRANQ_ROCK_REMOVED", "tranquility.rocks.removed", rows=ROCK_LEAVES_AFTER_ROWS)

    def _end_action(self, w: _Work, seat: int) -> None:
        """After an action: the rock (if any) moves, then the seat draws back up and the turn passes."""
        if w.get("rock_row") >= 0:
            w.set(phase=PHASE_ROCK, seat=seat)
            return
        self._refill_and_pass(w, seat)

    def _refill_and_pass(self, w: _Work, seat: int) -> None:
        w.draws = [[seat, 0]]
        n = w.s.players
        w.set(after_draws="turn", turn_seat=(seat + 1) % n, turn=w.s.turn + 1)
        self._run_draws(w)

    def _after_start_discard(self, w: _Work) -> None:
        actor = w.get("turn_seat")
        if w.get("rock_row") >= 0:
            w.set(phase=PHASE_ROCK, seat=actor, start_discard_left=0)
            return
        n = w.s.players
        w.set(start_discard_left=0)
        w.draws = [[(actor + k) % n, 0] for k in range(n)]
        w.set(after_draws="turn", turn_seat=(actor + 1) % n, turn=w.s.turn + 1)
        self._run_draws(w)

    def _run_draws(self, w: _Work) -> None:
        """Work through the pending draws; stop at a storm (it is resolved before anyone draws on)."""
        while w.draws:
            seat, n = w.draws[0]
            drawn = 0
            while True:
                limit = YELLOW_HAND_LIMIT if w.yellow and w.yellow[seat] else HAND_LIMIT
                want = n if n > 0 else limit - len(w.hands[seat])
                if want <= 0 or not w.piles[seat]:
                    break
                card = w.piles[seat].pop(0)
                if card in C.STORMS:
                    if drawn:
                        w.event("TRANQ_DREW", "tranquility.turn.draw", seat=seat, count=drawn)
                    w.draws[0] = [seat, n]
                    w.set(phase=PHASE_STORM, seat=seat, storm=card)
                    w.event("TRANQ_STORM_DRAWN", "tranquility.storm.resolve", seat=seat, storm=STORM_TERM[card])
                    return
                w.hands[seat].append(card)
                drawn += 1
                if n > 0:
                    n -= 1
            if drawn:
                w.event("TRANQ_DREW", "tranquility.turn.draw", seat=seat, count=drawn)
            if not w.piles[seat] and (n > 0 or len(w.hands[seat]) < (YELLOW_HAND_LIMIT if w.yellow and w.yellow[seat] else HAND_LIMIT)):
                w.event("TRANQ_PILE_EMPTY", "tranquility.turn.draw", seat=seat)
            w.draws.pop(0)
        after = w.get("after_draws")
        w.set(after_draws="")
        if after == "start-discard":
            self._begin_split(w)
        else:
            self._begin_turn(w)

    def _begin_split(self, w: _Work) -> None:
        first = w.split_seats[0]
        w.set(phase=PHASE_START_DISCARD, seat=first, start_discard_left=START_DISCARDS)
        probe = w.freeze()
        capacity = sum(self._split_capacity(probe, s) for s in w.split_seats)
        if capacity < START_DISCARDS:
            # Ruling: the table cannot discard 8, so it discards everything it can (see rules.toml).
            w.set(start_discard_left=capacity)
            w.event("TRANQ_SPLIT_SHORT", "tranquility.start.discard-eight", capacity=capacity)

    def _begin_turn(self, w: _Work) -> None:
        seat = w.get("turn_seat")
        w.set(phase=PHASE_PLAY, seat=seat)
        # Order of checks (ruling): a seat that can play a winning finish card can act, so the 0–1-card loss
        # does not apply to it — the turn is a win, not a loss.
        if w.s.options.short_hand_loss and len(w.hands[seat]) <= 1 and not self.can_finish(w.freeze()):
            self._lose(w, "TRANQ_LOSS_SHORT_HAND", "tranquility.loss.short-hand", seat, cards=len(w.hands[seat]))
            return
        if not self.has_action(w.freeze(), include_compass=True):
            self._lose(w, "TRANQ_LOSS_NO_ACTION", "tranquility.loss.no-action", seat)

    def _lose(self, w: _Work, code: str, rule: str, seat: int, **params: Any) -> None:
        w.event(code, rule, seat=seat, **params)
        w.set(phase=PHASE_OVER, result="loss", result_code=code.replace("TRANQ_LOSS_", "TRANQ_LOST_"),
              result_rule=rule, result_seat=seat)

    # ---- what a seat sees ------------------------------------------------------------------------
    def observe(self, state: TranquilityState, seat: int | None) -> Mapping[str, Any]:
        """Own hand only (also in draw order), everyone else as counts. Discards are face down: a seat sees
        only what it remembers choosing to discard itself (``remembered_discards``), never the blind ones."""
        view: dict[str, Any] = {
            "players": state.players, "seat": seat, "to_act": self.current_player(state),
            "turn_seat": state.turn_seat, "turn": state.turn, "phase": state.phase,
            "cells": [c or None for c in state.cells], "start_space": state.start_space,
            "hand_sizes": [len(h) for h in state.hands], "pile_sizes": [len(p) for p in state.piles],
            "discard_counts": [len(d) for d in state.discards], "removed_count": len(state.removed),
            "rock_row": state.rock_row if state.rock_row >= 0 else None, "purple_rows": list(state.purple_rows),
            "yellow_storms": list(state.yellow), "orange_storms": list(state.orange),
            "compass_pool": state.compass_pool, "compass_supply": state.compass_supply,
            "storm": card_name(state.storm) if state.storm else None,
            "start_discard_left": state.start_discard_left, "result": state.result or None,
            "hidden_by": "tranquility.view.hidden",
            "hand": None,  # a spectator's (the shared key); a seat's own hand below
        }
        view.update({
            # public knowledge a player keeps in mind: the rules a table agreed on, who still declares a share
            # of the start card's 8 (in order), the island a sea monster would destroy, destroyed islands
            "cost_limit": state.options.cost_limit, "short_hand_loss": state.options.short_hand_loss,
            "start_discard_seats": list(state.start_discard_seats),
            "last_played": state.played[-1] if state.played else None,
            "destroyed": sorted(c for c in state.out_of_game if is_island(c)),
        })
        if seat is not None:
            view["hand"] = [card_name(c) for c in sorted(state.hands[seat])]
            # the same cards in the order they were drawn (a player knows when each card came)
            view["hand_order"] = [card_name(c) for c in state.hands[seat]]
            view["hand_limit"] = hand_limit(state, seat)
            # face down, but the seat remembers what it chose to discard (never the blind cards of a yellow storm)
            unseen = list(state.unseen_discards[seat]) if state.unseen_discards else []
            remembered = []
            for c in state.discards[seat]:
                if c in unseen:
                    unseen.remove(c)
                else:
                    remembered.append(c)
            view["remembered_discards"] = [card_name(c) for c in sorted(remembered)]
        return view

    def describe_move(self, move: Move, lang: str = "en") -> str:
        """A move as a menu reads it, in ``lang`` (the text form stays the machine form)."""
        names = lambda cards_: [_card_term(c) for c in cards_]  # noqa: E731
        if isinstance(move, PlaceIsland):
            key = "tranquility.move.place_discard" if move.discards else "tranquility.move.place"
            return translate(key, lang, number=move.number, discards=names(move.discards), **_cell(move.cell))
        if isinstance(move, (DiscardTwo, RockDiscard)):
            key = "tranquility.move.discard" if isinstance(move, DiscardTwo) else "tranquility.move.rock_discard"
            return translate(key, lang, cards=names(move.cards))
        if isinstance(move, StartDiscard):
            return translate("tranquility.move.split", lang, cards=names(move.cards) or "-", blind=move.blind)
        if isinstance(move, MoveRock):
            return translate("tranquility.move.rock", lang, row=move.row + 1)
        if isinstance(move, ResolveStorm):
            if move.row >= 0:
                return translate("tranquility.move.storm_row", lang, row=move.row + 1)
            if move.discards:
                return translate("tranquility.move.storm_discard", lang, cards=names(move.discards))
            return translate("tranquility.move.storm", lang)
        if isinstance(move, UseCompass):
            if move.target == "storm":
                return translate("tranquility.move.compass_storm", lang)
            if move.target == "purple":
                return translate("tranquility.move.compass_purple", lang, row=move.index + 1)
            return translate("tranquility.move.compass_seat", lang, storm=STORM_TERM[
                STORM_YELLOW if move.target == "yellow" else STORM_ORANGE], seat=move.index)
        key = {PlayStart: "tranquility.move.start", PlayFinish: "tranquility.move.finish",
               PlayMonster: "tranquility.move.monster", DiscardHand: "tranquility.move.discard_hand"}[type(move)]
        return translate(key, lang)

    # ---- loading ---------------------------------------------------------------------------------
    def validate_state(self, state: TranquilityState) -> None:
        from toolkit.tranquility.checks import check_state
        check_state(state)


def _card_term(card: int) -> Any:
    return str(card) if is_island(card) else Term(C.TERMS[card])


def _cell(cell: int) -> dict[str, int]:
    return cell_params(cell)


ENGINE = TranquilityEngine()
