"""The depth-first search over card plays: transposition table at trick boundaries, equivalent cards, move
ordering, iterative slices and the hand-over to the SAT solver (:mod:`toolkit.crew.solver.sat`).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Sequence

from toolkit.crew.solver.encoding import COLOUR_CARDS_ASC, COLOUR_MASK, DONE, FAILED, N_CARDS, SUB, _COLOUR, _VALUE
from toolkit.crew.solver.bounds import _Judge


# ---------------------------------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------------------------------

class _Stop(Exception):
    """Raised inside the search when the node or time limit is reached, or a caller asked to stop."""


#: the deepening slice's nodes relative to the depth-first slice's (see _Search._portfolio); measured on the
#: benchmark deals: 0.25 trims the one-task p95 from 34k to 29k nodes and decides as many deals as 1.0
_DEEPENING_SHARE = 0.25
#: the limited-discrepancy slice's nodes relative to the depth-first slice's (0: no LDS). Measured on the
#: benchmark deals at a 120,000-node cap: shares 0.5 / 1 / 2 left 2 / 2 / 3 one-task deals and 42 / 40 / 40
#: three-task deals undecided (without LDS: 2 and 45); the one-task p95 went from 28.9k to 13.2-13.5k nodes
_LDS_SHARE = 1.0
#: the order of the slices in each round. Depth-first comes first because it proves most lost deals at
#: once: with LDS first the three-task median went from 16 to 55 ms (one-task p95 nodes 12.6k -> 10.5k)
_SLICE_ORDER = ("dfs", "deepening", "lds")
#: the depth-first slice's nodes in the first round (doubling after each round); 256 to 4096 all gave a
#: one-task p95 of 10.0k-11.2k nodes on the benchmark deals
_FIRST_SLICE = 2048
#: rounds of the search before a deal goes to the SAT solver (when python-sat is installed). The first
#: round (about 4.6k card plays) decides most deals in a few milliseconds; the clauses then cost about
#: 30 ms to build and load. Measured on the benchmark's one-task deals: one round gave a p95 of 60-85 ms
#: and a maximum of 106-137 ms, two rounds 95-102 ms and 232 ms (docs/crew-solver.md).
_SAT_AFTER_ROUNDS = 1


#: entries of a search's ``_judge`` and table-key memos before they are emptied (some 40 MB each at most)
_JUDGED_MAX = 100_000
#: not in the ``_judge`` memo (``None`` is a memoised verdict: a task has failed)
_UNJUDGED = object()


class _SliceEnd(Exception):
    """Raised inside the search when one slice of the portfolio (see ``_Search.run``) used its nodes."""


def _strength(card: int, led: int) -> int:
    """How strongly ``card`` bids for a trick led in colour ``led`` (-1: it cannot win)."""
    colour = _COLOUR[card]
    if colour == SUB:
        return 100 + _VALUE[card]
    return _VALUE[card] if colour == led else -1


class _Search:
    """Depth-first search with a transposition table, equivalent-card reduction and task cut-offs."""

    def __init__(self, hands: Sequence[int], leader: int, judges: Sequence[_Judge], done_tricks: int, last: int,
                 node_limit: int | None, deadline: float | None, on_progress: Callable[[int], Any] | None,
                 stop: threading.Event | None, reduce_equivalent: bool = True, use_table: bool = True,
                 sat_model: Callable[[], Any] | None = None, sat_after: int | None = None,
                 columns: Sequence[tuple[int, int]] = (), tonoja: int = 2):
        self.n = len(hands)
        # Two players: TONOJA's columns as (face-down, face-up) card codes; a face-down card is not TONOJA's
        # to play (nor to follow with) while the card above it is held (see ``_tonoja_hand``). None: no columns.
        self.columns = tuple(columns) or None
        self.tonoja = tonoja if self.columns else -1
        self._tonoja_hands: dict[int, tuple[int, int]] = {}
        if self.columns:
            for judge in judges:   # (the bounds' follow-suit arguments leave TONOJA out, see bounds.free_seat)
                judge.free_seat = tonoja
        self.hands0 = tuple(hands)
        self.leader0 = leader
        self.judges = tuple(judges)
        # the judges' methods bound once (the inner loops call them at every trick)
        self._steps = tuple(judge.step for judge in self.judges)
        # per winner of a trick: (index, step) of the judges whose progress that trick may change (a judge
        # with ``owner_steps`` only changes when its owner wins)
        self._steps_by_winner = tuple(tuple((i, judge.step) for i, judge in enumerate(self.judges)
                                            if not judge.owner_steps or judge.owner == winner)
                                      for winner in range(self.n))
        self._statuses = tuple(judge.status for judge in self.judges)
        self._hinters = tuple((i, judge.hints) for i, judge in enumerate(self.judges) if judge.hinted)
        # per leader: the seats in playing order
        self._seat_orders = tuple(tuple((leader + i) % self.n for i in range(self.n)) for leader in range(self.n))
        self.j0 = done_tricks
        self.last = last
        self.node_limit = node_limit
        self.deadline = deadline
        self.on_progress = on_progress
        self.stop = stop
        self.reduce = reduce_equivalent
        self.use_table = use_table
        self.nodes = 0
        # the SAT path (see _portfolio): a function building the position's clauses, and the line it found
        self.sat_model = sat_model
        self.sat_after = _SAT_AFTER_ROUNDS if sat_after is None else sat_after
        self.sat_line: tuple | None = None
        # key -> True (winnable) or h: not winnable when every achievement task must be met by trick h
        self.table: dict[tuple, Any] = {}
        self.horizon = last
        self.achievers = tuple(i for i, judge in enumerate(self.judges) if judge.achievement)
        self.slice_end: int | None = None
        # limited discrepancy search (see _portfolio): the discrepancies left, or None outside it
        self.lds: int | None = None
        self.lds_failed: dict[tuple, int] = {}
        self._relevant: dict[tuple, tuple[int, tuple[int, ...], tuple[int, ...], int]] = {}
        self._tags: dict[tuple, tuple[tuple[int, ...] | None, int]] = {}
        # Cards a task may not count on because another task settles them: the cards another seat must win,
        # and the cards its own seat must not win. Sound for the verdict: a line that breaks the other task
        # fails anyway.
        self.exclusions = tuple(
            sum((k.claims if k.owner != judge.owner else k.refuses) for k in self.judges if k is not judge)
            for judge in self.judges)
        self.exclusive = any(self.exclusions)
        # The last trick each task's seat may still win, as far as its *other* tasks allow ("win only the
        # first trick"): past it, that seat can win no more cards.
        self.open_until = []
        for judge in self.judges:
            refused = {t for k in self.judges if k is not judge and k.owner == judge.owner
                       for t, win in k.trick_claims.items() if not win}
            self.open_until.append(max((t for t in range(1, last + 1) if t not in refused), default=0))
        self.exclusive = self.exclusive or any(t < last for t in self.open_until)
        # Seats with several tasks, or with tricks refused by one task: the tasks' trick budgets and needs
        # are checked together (see ``_judge``).
        self.refused = {}
        for judge in self.judges:
            for t, win in judge.trick_claims.items():
                if not win:
                    self.refused.setdefault(judge.owner, set()).add(t)
        owners: dict[int, list[int]] = {}
        for i, judge in enumerate(self.judges):
            owners.setdefault(judge.owner, []).append(i)
        self.groups = tuple((owner, tuple(ids)) for owner, ids in owners.items() if len(ids) > 1)
        self._open_tricks: dict[tuple[int, int], list[int]] = {}  # (seat, tricks played) -> tricks it may win
        self._next_check = 1024
        # _judge's memo: (tricks played, progress, hands) -> the statuses before the horizon check
        self._judged: dict[tuple, tuple | None] = {}
        # _boundary's memo of table keys: (hands, leader, progress) -> _key(...)
        self._keys: dict[tuple, tuple] = {}
        # the table key's per-colour memo (see _key): the hands stacked 40 bits apart, seat 0 highest
        self._lane_shifts = tuple(40 * (self.n - 1 - i) for i in range(self.n))
        self._lanes = tuple((9 * colour, sum((511 if colour < SUB else 15) << lane for lane in self._lane_shifts))
                            for colour in range(5))
        self._codes = _COLOUR_CODES.setdefault(self.n, {})
        self._key_info: dict[tuple, tuple[int, tuple[tuple[int, int, int], ...]]] = {}
        # Cards already on the table in the first trick (the bots decide mid-trick): the seats from the
        # leader on play these, in order, before any choice. The hands still hold them.
        self.prefix: tuple[int, ...] = ()
        # Mission conditions that ban cards at some places of a trick (toolkit.crew.solver.conditions):
        # ``None`` for the missions with task cards, whose search this leaves exactly as it was.
        self.bans = tuple(judge for judge in self.judges if getattr(judge, "bans", False)) or None

    # -- limits ------------------------------------------------------------------------------------
    def _check(self) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop
        if self.slice_end is not None and self.nodes >= self.slice_end:
            raise _SliceEnd
        self._next_check = self.nodes + 1024
        if self.slice_end is not None:
            self._next_check = min(self._next_check, self.slice_end)
        if self.node_limit is not None:
            self._next_check = min(self._next_check, self.node_limit)  # stop exactly at the limit
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Stop
        if self.stop is not None and self.stop.is_set():
            raise _Stop
        if self.on_progress is not None and self.nodes % 16384 < 1024:
            self.on_progress(self.nodes)

    # -- judging -------------------------------------------------------------------------------------
    def initial_progress(self, played: Sequence[tuple[int, tuple[int, ...]]]) -> tuple | None:
        """Progress after the tricks already played, or ``None`` if a task has already failed."""
        progress = [j.initial() for j in self.judges]
        for index, (leader, cards) in enumerate(played, start=1):
            tmask = 0
            for c in cards:
                tmask |= 1 << c
            pos, wcard = _winner_pos(cards)
            winner = (leader + pos) % len(cards)
            progress = [p if p == DONE else self.judges[i].step(p, index, leader, cards, winner, wcard, tmask)
                        for i, p in enumerate(progress)]
            if FAILED in progress:
                return None
        return self._judge(progress, self.j0, self.hands0)

    def trick_conflict(self) -> bool:
        """Whether the tasks ask the impossible of one trick: two seats must win it, one seat must both win
        it and not win it ("win the last trick" and "win the green 2 in the last trick" for two seats), or
        every seat must not win it."""
        must: dict[int, set[int]] = {}
        must_not: dict[int, set[int]] = {}
        for judge in self.judges:
            for trick, win in judge.trick_claims.items():
                if self.j0 < trick <= self.last:
                    (must if win else must_not).setdefault(trick, set()).add(judge.owner)
        for trick, owners in must.items():
            if len(owners) > 1 or owners & must_not.get(trick, set()):
                return True
        return any(len(owners) == self.n for owners in must_not.values())

    def _judge(self, progress: Sequence[Any], j: int, hands: Sequence[int], live: int | None = None) -> tuple | None:
        """Every task's status after ``j`` tricks (``None``: one has failed); ``live`` is the union of the
        hands when the caller has it.

        The statuses are a pure function of the tasks' progress and the hands, and the search meets the
        same pair again and again (tricks played in another order, the slices of ``_portfolio`` and the
        expert's solves of one deal searching the same tricks, ``_extract`` walking a proved line): they
        are memoised per search. Only the deepening's horizon check depends on more (the horizon) and is
        made at every call."""
        key = (j, tuple(progress), hands)
        memo = self._judged
        out = memo.get(key, _UNJUDGED)
        if out is _UNJUDGED:
            if len(memo) >= _JUDGED_MAX:
                memo.clear()  # a bound on the memory of very long searches (no effect on the verdicts)
            out = memo[key] = self._statuses_after(progress, j, hands, live)
        if out is not None and self.horizon < self.last:
            return self._within_horizon(out, j, hands)
        return out

    def _within_horizon(self, out: tuple, j: int, hands: Sequence[int]) -> tuple | None:
        """``out``, or ``None`` if an achievement task can no longer be met by the deepening's horizon."""
        judges = self.judges
        for i in self.achievers:
            if out[i] != DONE and judges[i].earliest(out[i], j, hands) > self.horizon:
                return None
        return out

    def _statuses_after(self, progress: Sequence[Any], j: int, hands: Sequence[int], live: int | None) -> tuple | None:
        """``_judge`` without the memo and the horizon."""
        rest = self.last - j
        if live is None:
            live = 0
            for h in hands:
                live |= h
        out = []
        if not self.exclusive:
            for status, p in zip(self._statuses, progress):
                if p is not DONE:
                    if p is FAILED:
                        return None
                    p = status(p, j, rest, live, hands)
                    if p is FAILED:
                        return None
                out.append(p)
        else:
            exclusions = self.exclusions
            open_until = self.open_until
            for i, (status, p) in enumerate(zip(self._statuses, progress)):
                if p is not DONE:
                    if p is FAILED:
                        return None
                    # Narrowed to the cards the other tasks leave it, a task may only be found lost,
                    # never met: two tasks narrowing each other ("no 9s", "no 8s and no 9s") would
                    # otherwise each count on the other to refuse a 9.
                    q = status(p, j, rest, live & ~exclusions[i] if j < open_until[i] else 0, hands)
                    p = status(p, j, rest, live, hands) if q is DONE else q
                    if p is FAILED:
                        return None
                out.append(p)
        for owner, ids in self.groups:
            # One seat's tasks together: the fewest more tricks any of them allows is a budget every other
            # one must fit in ("win all four 9s" and "win exactly two tricks": the 9s need two tricks).
            open_tricks = self._open_tricks.get((owner, j))
            if open_tricks is None:
                refused = self.refused.get(owner, ())
                open_tricks = self._open_tricks[owner, j] = [k for k in range(j + 1, self.last + 1)
                                                              if k not in refused]
            budget = len(open_tricks)
            for i in ids:
                if out[i] is not DONE:
                    b = self.judges[i].budget(out[i], j, open_tricks)
                    if b is not None and b < budget:
                        budget = b
            for i in ids:
                if out[i] is not DONE and not self.judges[i].fits(out[i], j, rest, budget, hands):
                    return None
        return tuple(out)

    # -- the search -------------------------------------------------------------------------------
    def run(self, progress: tuple) -> Any:
        """``False`` or the winning line (a tuple of ``(leader, cards)``) from the start position."""
        if all(p == DONE for p in progress):
            return ()
        if self.trick_conflict():
            return False
        found = self._portfolio(progress)
        if not found:
            return False
        if self.sat_line is not None:
            return self.sat_line
        self.slice_end = None
        return self._extract(self.hands0, self.leader0, progress, self.j0)

    def _portfolio(self, progress: tuple) -> bool:
        """Searches in turn, with doubling node budgets and one shared table:

        * the plain depth-first search (the only one that proves a deal lost);
        * iterative deepening on the achievement tasks ("win the pink 9", "win a trick of total < 12"),
          if any: first lines that meet them by the next trick, then by the one after, and so on;
        * limited discrepancy search (LDS): lines that leave the move ordering's first choice at most
          0, then 1, then 2, … times in all.

        Depth-first plays every prefix to the last trick before it tries another first trick, so one early
        mistake of the move ordering costs it a whole subtree; deepening finds tasks a winning line meets
        early; LDS finds lines the ordering gets right but for a few moves anywhere in the deal (a seat
        that must shed a colour early, a lead handed over). Depth-first's answer and a found line are
        final (the deepening's last horizon has no deadline either). Table entries carry the horizon they
        were proved under (see ``_boundary``), so every slice reuses what earlier slices proved and a
        restart costs little. A deal still open after ``_SAT_AFTER_ROUNDS`` rounds goes to the SAT solver
        for the rest of the budget (``_sat``). Measured in docs/crew-solver.md."""
        horizons = range(self.j0 + 1, self.last + 1)
        next_horizon = 0 if self.achievers else len(horizons)
        discrepancies = 0
        budget = _FIRST_SLICE
        rounds = 0
        while True:
            if self.sat_model is not None and rounds >= self.sat_after:
                return self._sat()
            rounds += 1
            for kind in _SLICE_ORDER:
                if kind == "deepening":
                    if next_horizon >= len(horizons):
                        continue
                    share = _DEEPENING_SHARE
                elif kind == "lds":
                    if not _LDS_SHARE:
                        continue
                    share = _LDS_SHARE
                else:
                    share = 1.0
                self.slice_end = self.nodes + int(budget * share)
                self._next_check = min(self._next_check, self.slice_end)
                try:
                    if kind == "dfs":
                        self.horizon = self.last
                        self.lds = None
                        return self._boundary(self.hands0, self.leader0, progress, self.j0)
                    if kind == "deepening":
                        while next_horizon < len(horizons):
                            self.horizon = horizons[next_horizon]
                            if self._boundary(self.hands0, self.leader0, progress, self.j0):
                                return True
                            next_horizon += 1
                        if self.achievers:
                            return False  # the last horizon is the whole search: a proof
                        continue
                    self.horizon = self.last
                    while True:
                        self.lds = discrepancies
                        if self._boundary(self.hands0, self.leader0, progress, self.j0):
                            return True
                        self.lds = None
                        discrepancies += 1
                except _SliceEnd:
                    self.lds = None
            budget *= 2

    def _sat(self) -> bool:
        """Hand the position to the SAT solver (see :mod:`toolkit.crew.solver.sat`) for the rest of the budget: its
        conflicts count as nodes. It decides the deal or stops at the node or time limit."""
        from toolkit.crew.solver import sat

        model = self.sat_model()
        done = self.nodes
        limit = None if self.node_limit is None else self.node_limit - done

        def progress(conflicts: int) -> None:
            self.nodes = done + conflicts
            if self.on_progress is not None:
                self.on_progress(self.nodes)

        result, conflicts = sat.solve_model(model, limit, self.deadline, self.stop, progress)
        self.nodes = done + conflicts
        if result is None:
            raise _Stop
        if result is False:
            return False
        self.sat_line = result
        return True

    def _extract(self, hands: tuple, leader: int, progress: tuple, j: int) -> tuple:
        """Walk down a proved win: at each trick boundary find the first trick whose rest is a win (the
        table answers for the rest, so this costs little). The table is keyed on *equivalent* positions,
        so it stores verdicts, not lines, and the line is rebuilt here for the actual cards."""
        line = []
        while True:
            witness = self._trick(hands, leader, progress, j)
            if witness is False and self.lds is not None:
                # The walk follows the first trick whose next position the table calls won, but that
                # entry may have been proved by the plain search or under a larger discrepancy
                # allowance (an earlier slice, or an earlier solve sharing this search), so walking
                # that position's tricks with this slice's allowance can fail. It is a proved win all
                # the same: walk it with the plain search (which the table's proofs keep short). Only
                # here, where the walk used to fail, so every other line and node count is unchanged.
                self.lds = None
                witness = self._trick(hands, leader, progress, j)
            if witness is False:  # pragma: no cover - the root was proved winnable
                raise AssertionError("lost the winning line")
            trick_leader, cards = witness
            line.append(witness)
            tmask = sum(1 << c for c in cards)
            pos, wcard = _winner_pos(cards)
            winner = (trick_leader + pos) % self.n
            j += 1
            new = [p if p == DONE else judge.step(p, j, trick_leader, cards, winner, wcard, tmask)
                   for judge, p in zip(self.judges, progress)]
            hands = tuple(h & ~tmask for h in hands)
            progress = self._judge(new, j, hands)
            if progress is None:  # pragma: no cover
                raise AssertionError("the winning line lost a task")
            if all(p == DONE for p in progress):
                return tuple(line)
            leader = winner

    def _relevance(self, progress: tuple) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(sensitive cards, feature masks, per-seat wish +1/-1/0, per-seat wanted cards) of the pending
        tasks: they depend on the progress alone, so they are computed once per progress value."""
        hit = self._relevant.get(progress)
        if hit is None:
            sensitive = 0
            features: set[int] = set()
            want = [0] * self.n
            targets = [0] * self.n
            for judge, p in zip(self.judges, progress):
                if p != DONE:
                    sensitive |= judge.sensitive
                    features.update(judge.features)
                    if judge.role > 0:
                        want[judge.owner] = 1
                        targets[judge.owner] |= judge.targets
                    elif judge.role < 0 and want[judge.owner] == 0:
                        want[judge.owner] = -1
            ordered = tuple(sorted(features))
            if sensitive or ordered:
                # per colour: the masks the key must tell apart there, packed (see _key and _colour_code)
                masks = (sensitive,) + ordered
                tags = []
                for shift in (0, 9, 18, 27, 36):
                    tag = 0
                    for m in masks:
                        tag = (tag << 9) | ((m >> shift) & 511)
                    tags.append((tag << 5) | len(masks))
                self._tags[progress] = tuple(tags), 9 * len(masks) + 5
            else:
                self._tags[progress] = None, 5
            hit = self._relevant[progress] = (sensitive, ordered, tuple(want), tuple(targets))
        return hit

    def _key(self, hands: tuple, leader: int, progress: tuple) -> tuple:
        """The table key: positions that differ only by cards no live card separates are the same.

        Per colour, each hand becomes its mask *among the live cards of that colour* (rank order only),
        so P2/P5 vs P3/P6 with nothing live between collide. Cards a pending task names keep their
        identity (their live mask is part of the key), and so do the card classes it tells apart.
        One memoised int per colour carries all of it (see ``_colour_code``)."""
        live = stacked = 0
        for h in hands:
            live |= h
            stacked = (stacked << 40) | h
        info = self._key_info.get(progress)
        if info is None:
            info = self._make_key_info(progress)
        sensitive, lanes = info
        parts = [leader, progress, live & sensitive]
        # Each colour's slice of every hand in one int (the hands sit 40 bits apart in ``stacked``), with
        # the colour's tag above them, is the memo key of the colour's code: two int operations a colour
        # (half the time of packing the slices one hand at a time).
        codes = self._codes
        for shift, mask, tag in lanes:
            memo = (stacked >> shift) & mask | tag
            code = codes.get(memo)
            if code is None:
                code = codes[memo] = self._code_of(memo, progress, shift)
            parts.append(code)
        if self.columns is not None:
            # which card uncovers which is not a rank-order fact: with a column still closed, TONOJA's
            # cards keep their identity in the key
            if self._tonoja_hand(hands[self.tonoja])[1]:
                parts.append(hands[self.tonoja])
        return tuple(parts)

    def _tonoja_hand(self, hand: int) -> tuple[int, int]:
        """(TONOJA's playable cards, the held cards that still cover a held card) of TONOJA's ``hand``."""
        hit = self._tonoja_hands.get(hand)
        if hit is None:
            covered = covers = 0
            for down, up in self.columns:
                if hand >> up & 1 and hand >> down & 1:
                    covered |= 1 << down
                    covers |= 1 << up
            hit = self._tonoja_hands[hand] = (hand & ~covered, covers)
        return hit

    def _make_key_info(self, progress: tuple) -> tuple[int, tuple[tuple[int, int, int], ...]]:
        """(sensitive cards, per colour (shift, lane mask, tag above the lanes)) for ``_key``."""
        sensitive = self._relevance(progress)[0]
        tags, _ = self._tags[progress]
        top = 40 * self.n
        lanes = tuple((shift, mask, (tags[colour] << top) if tags is not None else 0)
                      for colour, (shift, mask) in enumerate(self._lanes))
        info = self._key_info[progress] = (sensitive, lanes)
        return info

    def _code_of(self, memo: int, progress: tuple, shift: int) -> int:
        """The colour code (see ``_colour_code``) of one memo key of ``_key``."""
        tags, width = self._tags[progress]
        raw = self.n
        for lane in self._lane_shifts:
            raw = (raw << 9) | ((memo >> lane) & 511)
        raw = (raw << width) | tags[shift // 9] if tags is not None else raw << 5
        return _colour_code(raw, self.n)

    def _boundary(self, hands: tuple, leader: int, progress: tuple, j: int) -> bool:
        if not self.use_table:
            return self._trick(hands, leader, progress, j) is not False
        if self.reduce:
            # the same boundary comes back often (the slices, the expert's solves of one deal): its key is
            # memoised (a pure function of the position)
            position = (hands, leader, progress)
            key = self._keys.get(position)
            if key is None:
                if len(self._keys) >= _JUDGED_MAX:
                    self._keys.clear()
                key = self._keys[position] = self._key(hands, leader, progress)
        else:
            key = (hands, leader, progress)
        hit = self.table.get(key)
        if hit is not None and (hit is True or hit >= self.horizon):
            return hit is True
        if self.lds is not None:
            # A limited-discrepancy search proves wins only; its failures hold for its budget (and any
            # smaller one) and are kept apart from the proofs.
            failed = self.lds_failed.get(key, -1)
            if failed >= self.lds:
                return False
            budget = self.lds
            result = self._trick(hands, leader, progress, j) is not False
            if result:
                self.table[key] = True
            else:
                self.lds_failed[key] = budget
            return result
        result = self._trick(hands, leader, progress, j) is not False
        self.table[key] = True if result else self.horizon
        return result

    def _trick(self, hands: tuple, leader: int, progress: tuple, j: int) -> Any:
        """``False``, or the first trick ``(leader, cards)`` of a winning line from this boundary."""
        n = self.n
        live = 0
        for h in hands:
            live |= h
        sensitive, features, want, targets = self._relevance(progress)
        wanted = 0
        for mask in targets:
            wanted |= mask
        keep = shed = 0
        for i, hints in self._hinters:
            p = progress[i]
            if p != DONE:
                k, sh = hints(p, hands)
                keep |= k
                shed |= sh
        # the hints as a sort key per card: shed first (-1), then the rest (0), kept cards last (+1)
        hint_rank = _hint_rank(keep, shed) if keep or shed else None
        seats = self._seat_orders[leader]
        plays: list[int] = []
        steps_by_winner = self._steps_by_winner
        last = self.last
        all_done = (DONE,) * len(self.judges)
        judge_all = self._judge
        judged_memo = self._judged
        boundary = self._boundary
        j2 = j + 1

        def finish(tmask: int, winner: int, wcard: int) -> Any:
            # every task's progress after the trick (the judges it cannot change keep theirs), then their
            # statuses (``_judge``, its memo looked up here first), then the rest of the deal
            steps = steps_by_winner[winner]
            if steps:
                cards = tuple(plays)
                new = list(progress)
                for i, step in steps:
                    p = new[i]
                    if p is not DONE:
                        p = step(p, j2, leader, cards, winner, wcard, tmask)
                        if p is FAILED:
                            return False
                        new[i] = p
                new = tuple(new)
            else:
                new = progress
            keep_mask = ~tmask
            # the hands after the trick, spelt out for the usual numbers of seats (a list comprehension
            # costs twice as much)
            if n == 4:
                hands2 = (hands[0] & keep_mask, hands[1] & keep_mask, hands[2] & keep_mask, hands[3] & keep_mask)
            elif n == 3:
                hands2 = (hands[0] & keep_mask, hands[1] & keep_mask, hands[2] & keep_mask)
            elif n == 5:
                hands2 = (hands[0] & keep_mask, hands[1] & keep_mask, hands[2] & keep_mask, hands[3] & keep_mask,
                          hands[4] & keep_mask)
            else:
                hands2 = tuple([h & keep_mask for h in hands])
            judged = judged_memo.get((j2, new, hands2), _UNJUDGED)
            if judged is _UNJUDGED:
                judged = judge_all(new, j2, hands2, live & keep_mask)
            elif judged is not None and self.horizon < last:
                judged = self._within_horizon(judged, j2, hands2)
            if judged is None:
                return False
            if judged == all_done:
                return (leader, tuple(plays))
            if j2 >= last:
                return False
            if not boundary(hands2, winner, judged, j2):
                return False
            return (leader, tuple(plays))

        # A seat's ordered candidates depend, inside one trick, only on its position, the colour led and
        # (when the seat winning so far wants cards) that seat and its strength: memoised per trick on those, as
        # a seat sees the same situation again after every other choice of the seats before it.
        ordered: dict[int, list[int]] = {}
        forced = self.prefix if j == self.j0 else ()
        n_forced = len(forced)
        bans = self.bans

        def play(pos: int, tmask: int, led: int, best_seat: int, best_str: int, best_card: int) -> Any:
            seat = seats[pos]
            if pos < n_forced:
                candidates = [forced[pos]]
                if bans is not None and self._banned(j, pos) >> forced[pos] & 1:
                    return False
            else:
                if pos == 0:
                    memo = 0
                elif want[seat] > 0 or want[best_seat] <= 0:
                    memo = pos << 3 | (led + 1)
                else:
                    memo = ((best_str + 2) << 3 | best_seat) << 6 | pos << 3 | (led + 1)
                candidates = ordered.get(memo)
                if candidates is None:
                    hand = hands[seat]
                    distinct = sensitive
                    if seat == self.tonoja:
                        # a covered card is neither playable nor followed with; a card that covers one is
                        # never equivalent to another
                        hand, covers = self._tonoja_hand(hand)
                        distinct |= covers
                    legal = hand if pos == 0 else hand & COLOUR_MASK[led] or hand
                    banned = self._banned(j, pos) if bans is not None else 0
                    if not legal & (legal - 1):
                        # one legal card: nothing to choose or order (as _candidates answers)
                        candidates = [legal.bit_length() - 1]
                    else:
                        feed = targets[best_seat] if pos else 0
                        candidates = self._candidates(legal, hand, live, distinct, features, pos, led,
                                                      want[seat], best_str, want[best_seat] if pos else 0, feed,
                                                      wanted & ~feed)
                    if banned:   # (no candidate left: the line is lost)
                        candidates = [c for c in candidates if not banned >> c & 1]
                    if hint_rank is not None and len(candidates) > 1:
                        # stable: within each group the order above stands
                        candidates.sort(key=hint_rank.__getitem__)
                    ordered[memo] = candidates
            if self.lds is not None:
                return play_lds(pos, tmask, led, best_seat, best_str, best_card, seat, candidates)  # noqa: F821 - the closures defined below (deleted after the search)
            # The plain search (no discrepancy count): the loop of ``play_lds`` without it, split by the
            # seat's place in the trick. The same plays in the same order, the same node count.
            last_seat = pos == n - 1
            if pos == 0:
                for card in candidates:
                    nodes = self.nodes + 1
                    self.nodes = nodes
                    if nodes >= self._next_check:
                        self._check()
                    plays.append(card)
                    if last_seat:
                        result = finish(1 << card, seat, card)
                    else:
                        result = play(1, 1 << card, _COLOUR[card], seat, _LEAD_STRENGTH[card], card)  # noqa: F821 - the closures defined below (deleted after the search)
                    plays.pop()
                    if result is not False:
                        return result
                return False
            strengths = _STRENGTH[led]
            following = pos + 1
            for card in candidates:
                nodes = self.nodes + 1
                self.nodes = nodes
                if nodes >= self._next_check:
                    self._check()
                plays.append(card)
                strength = strengths[card]
                if last_seat:
                    if strength > best_str:
                        result = finish(tmask | (1 << card), seat, card)
                    else:
                        result = finish(tmask | (1 << card), best_seat, best_card)
                elif strength > best_str:
                    result = play(following, tmask | (1 << card), led, seat, strength, card)  # noqa: F821 - the closures defined below (deleted after the search)
                else:
                    result = play(following, tmask | (1 << card), led, best_seat, best_str, best_card)  # noqa: F821 - the closures defined below (deleted after the search)
                plays.pop()
                if result is not False:
                    return result
            return False

        def play_lds(pos: int, tmask: int, led: int, best_seat: int, best_str: int, best_card: int, seat: int,
                     candidates: list[int]) -> Any:
            lds = self.lds
            strengths = _STRENGTH[led]
            for index, card in enumerate(candidates):
                if index and lds is not None:
                    # limited discrepancy search: the ordering's k-th choice spends k - 1 discrepancies (a
                    # flat cost of 1 decided one deal fewer of the benchmark's 400 at the same node cap)
                    if self.lds < index:
                        break
                    self.lds -= index
                self.nodes += 1
                if self.nodes >= self._next_check:
                    self._check()
                if pos == 0:
                    led2 = _COLOUR[card]
                    bs, bstr, bc = seat, _LEAD_STRENGTH[card], card
                else:
                    led2 = led
                    strength = strengths[card]
                    if strength > best_str:
                        bs, bstr, bc = seat, strength, card
                    else:
                        bs, bstr, bc = best_seat, best_str, best_card
                plays.append(card)
                if pos == n - 1:
                    result = finish(tmask | (1 << card), bs, bc)
                else:
                    result = play(pos + 1, tmask | (1 << card), led2, bs, bstr, bc)  # noqa: F821 - the closures defined below (deleted after the search)
                plays.pop()
                if index and lds is not None:
                    self.lds += index
                if result is not False:
                    return result
            return False

        try:
            return play(0, 0, -1, -1, -1, -1)
        finally:
            # ``play`` and ``play_lds`` call each other through their closures: a reference cycle that only
            # the garbage collector would free, with this trick's frames, lists and dicts (the collector's
            # passes cost the search about a sixth of its time). Emptying the cells frees them at once.
            del play, play_lds

    def _banned(self, j: int, pos: int) -> int:
        """The cards the mission conditions ban at position ``pos`` of trick ``j + 1`` (see ``bans``)."""
        out = 0
        for judge in self.bans:
            out |= judge.banned(j, pos)
        return out

    def _runs(self, colour: int, hand: int, live: int, sensitive: int, features: tuple[int, ...]) -> tuple[int, ...]:
        """This hand's cards of one colour worth trying: one per class of equivalent cards (see below)."""
        out: list[int] = []
        seen: set[int] = set()
        for card in COLOUR_CARDS_ASC[colour]:
            bit = 1 << card
            if not live & bit:
                continue
            if not hand & bit:
                seen = set()  # another seat's live card between: a new run starts
                continue
            if not self.reduce or bit & sensitive:
                out.append(card)
                continue
            signature = 0
            for i, f in enumerate(features):
                if f & bit:
                    signature |= 1 << i
            if signature not in seen:
                seen.add(signature)
                out.append(card)
        return tuple(out)

    def _candidates(self, legal: int, hand: int, live: int, sensitive: int, features: tuple[int, ...], pos: int,
                    led: int, want: int, best_str: int, winner_wants: int, feed: int, claimed: int) -> list[int]:
        """The plays worth trying from ``legal``, one per class of equivalent cards, best first.

        A *run* is a block of this hand's cards with no other live card of the colour between them: every
        card of a run beats and loses to exactly the same cards. Inside a run only cards a pending task
        tells apart (a different class, or a card it names) need trying."""
        if not legal & (legal - 1):
            return [legal.bit_length() - 1]  # one legal card: nothing to choose or order
        out: list[int] = []
        reduce = self.reduce
        cache = _RUNS
        # following suit, only the colour led is legal
        for colour in ((led,) if pos and not legal & ~COLOUR_MASK[led] else range(5)):
            if not legal & COLOUR_MASK[colour]:
                continue
            shift = 9 * colour
            # The classes depend on this colour's live cards, this hand's, and what the tasks tell apart
            # there: memoised on exactly that (one int), since the same small patterns recur all the time.
            # The number of feature masks leads the key: without it a key with one more feature could equal
            # another colour's key (the memo is shared by every search in the process), and a search was
            # handed another colour's cards — illegal plays that depended on what the process solved before.
            key = ((((len(features) << 3 | colour) << 9 | (live >> shift) & 511) << 9 | (hand >> shift) & 511) << 9
                   | (sensitive >> shift) & 511) << 1 | reduce
            for f in features:
                key = key << 9 | (f >> shift) & 511
            runs = cache.get(key)
            if runs is None:
                runs = cache[key] = self._runs(colour, hand, live, sensitive, features)
            out.extend(runs)
        if len(out) < 2:
            return out
        # Move ordering: a seat that wants tricks tries its strongest cards first; a seat following a
        # trick won by a seat that wants cards feeds it the cards it wants; everyone else plays low.
        if pos == 0:
            if want > 0 or not claimed:
                out.sort(key=(_LEAD_HIGH if want > 0 else _LEAD_LOW).__getitem__)
            else:
                out.sort(key=lambda c: _LEAD_LOW[c] + (1024 if (1 << c) & claimed else 0))
            return out
        if want > 0:
            out.sort(key=_NEG_STRENGTH[led].__getitem__)
        elif winner_wants > 0:
            # the cards the winning seat wants first, the cards other seats want last (given to this
            # winner they are lost to their task)
            strength = _STRENGTH[led]  # _strength(c, led) as a table
            out.sort(key=lambda c: (strength[c] > best_str, not (1 << c) & feed, (1 << c) & claimed != 0,
                                    strength[c]))
        elif claimed:
            # a card another seat wants, given to a seat that does not want it, is lost to its task: last
            low = _LOW_FOLLOW[led]
            out.sort(key=lambda c: low[c] + (1024 if (1 << c) & claimed else 0))
        else:
            out.sort(key=_LOW_FOLLOW[led].__getitem__)
        return out


_HINT_RANKS: dict[tuple[int, int], tuple[int, ...]] = {}


def _hint_rank(keep: int, shed: int) -> tuple[int, ...]:
    """Per card: -1 to shed, +1 to keep, 0 otherwise (memoised: a deal sees few distinct hint pairs)."""
    rank = _HINT_RANKS.get((keep, shed))
    if rank is None:
        if len(_HINT_RANKS) > 4096:
            _HINT_RANKS.clear()
        rank = _HINT_RANKS[keep, shed] = tuple((keep >> c & 1) - (shed >> c & 1) for c in range(N_CARDS))
    return rank


_COMPRESSED: dict[int, int] = {}
#: _Search._runs memoised (see _candidates): the key packs colour, live, hand, sensitive and feature bits
_RUNS: dict[int, tuple[int, ...]] = {}
# Sort keys of the move ordering, as tables (a lookup is cheaper than a lambda per card):
# lead high (submarines first) / lead low (submarines last) / follow strongest first / follow weakest first
_LEAD_HIGH = tuple(-(_VALUE[c] + (50 if _COLOUR[c] == SUB else 0)) for c in range(N_CARDS))
_LEAD_LOW = tuple((100 if _COLOUR[c] == SUB else 0) + _VALUE[c] for c in range(N_CARDS))
#: _strength as tables: [led][card] (index -1, no colour led yet, is never read in play), and a lead's own
_STRENGTH = tuple(tuple(_strength(c, led) for c in range(N_CARDS)) for led in range(5))
_LEAD_STRENGTH = tuple(_strength(c, _COLOUR[c]) for c in range(N_CARDS))
_NEG_STRENGTH = tuple(tuple(-_strength(c, led) for c in range(N_CARDS)) for led in range(5))
_LOW_FOLLOW = tuple(tuple(_strength(c, led) * 16 + _VALUE[c] for c in range(N_CARDS)) for led in range(5))
#: per number of seats: one colour's slice of every hand with its tag (see ``_Search._key``) -> the hands'
#: masks among that colour's live cards
_COLOUR_CODES: dict[int, dict[int, int]] = {}


def _colour_code(raw: int, n: int) -> int:
    """The rank-order code of one colour (see ``_Search._key``). ``raw`` packs, from the top: ``n``, nine
    bits per hand, then ``k`` nine-bit masks the tasks tell apart, then ``k`` in five bits. The code is
    each hand's and each mask's bits among the colour's live cards, nine bits apiece."""
    k = raw & 31
    raw >>= 5
    extra = [(raw >> (9 * (k - 1 - i))) & 511 for i in range(k)]
    raw >>= 9 * k
    masks = [(raw >> (9 * (n - 1 - i))) & 511 for i in range(n)]
    live9 = 0
    for m in masks:
        live9 |= m
    code = 0
    for m in masks + extra:
        code = (code << 9) | _compress(live9, m)
    return code


def _compress(live9: int, bits9: int) -> int:
    """``bits9`` with the positions that are not in ``live9`` squeezed out (a software PEXT), memoised."""
    key = (live9 << 9) | bits9
    out = _COMPRESSED.get(key)
    if out is None:
        out, k = 0, 0
        for i in range(9):
            if live9 >> i & 1:
                if bits9 >> i & 1:
                    out |= 1 << k
                k += 1
        _COMPRESSED[key] = out
    return out


def _winner_pos(cards: Sequence[int]) -> tuple[int, int]:
    led = _COLOUR[cards[0]]
    best, best_str = 0, _strength(cards[0], led)
    for i in range(1, len(cards)):
        s = _strength(cards[i], led)
        if s > best_str:
            best, best_str = i, s
    return best, cards[best]


