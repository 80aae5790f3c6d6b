"""The Crew double-dummy question as a SAT problem: "is there a legal line of play that completes every task?"

The depth-first search of :mod:`toolkit.crew.solver` decides most deals in a few thousand card plays, but a
few deals in a hundred need millions: the tasks interact, and a search that proves a deal lost must visit
every line that the cut-offs cannot rule out. A conflict-driven SAT solver learns *why* a branch failed
("seat 2 cannot be void in blue before trick 4 while seat 1 still leads") and never tries that combination
again, which is exactly what those deals need. This module writes a position as clauses and asks CaDiCaL
(through the `python-sat` package, a declared dependency; if it is missing, ``AVAILABLE`` is false and the
solver searches alone).

**The model** covers the whole mission, tricks 1 … last, the tricks already played as fixed facts:

* ``P(c, t)``: card ``c`` is played in trick ``t``. Every seat plays exactly one of its cards per trick
  (its cards: those it still holds and those it played), every card at most once.
* ``L(s, t)``: seat ``s`` leads trick ``t``; ``K(k, t)``: colour ``k`` (submarines: 4) is led — the
  leader's card sets it, and exactly one colour is led.
* Follow suit (``crew.trick.follow``): when colour ``k`` is led and seat ``s`` plays no card of ``k``,
  every card of ``k`` it holds was played before trick ``t``.
* Two players, TONOJA's columns (``crew.tonoja.flip``): a face-down card ``d`` under ``u`` is played only
  in a trick after ``u``'s (``P(d, t) -> B(u, t)``), and TONOJA need not follow with it while it lies
  face down (the follow clause above also holds when ``u`` was not played before ``t``).
* ``Win(c, t)``: ``c`` wins trick ``t``: it is played, no higher card of its colour is, and a colour card
  also needs its colour led and no submarine in the trick (``crew.trick.winner``). ``W(s, t)``: seat ``s``
  wins, and leads the next trick (``crew.trick.leader``).
* Every task is its *final* condition on the whole line ("seat 2 won B1, B2 and B3", "exactly two
  tricks, consecutive"). That is the same question as the solver's: the engine's judge calls a task
  ``done`` only when no continuation can undo it and ``failed`` only when none can save it, so a line
  after which the engine says "all done" extends to a whole mission meeting every final condition, and
  such a mission is judged "all done" at its last trick at the latest.

Counts ("at least seven yellow", "more tricks than the captain") use unary counters whose outputs are
equivalent to "at least m of these" (both directions), so they can be compared with each other and used
inside other conditions. A model is turned back into tricks; the solver then replays the line through the
engine's own rules and judge before it returns it, so a winning line never rests on this encoding alone.
A "not winnable" answer does: ``tests/crew/test_solver_sat.py`` checks the encoding against the naive
oracle on every task of the catalogue.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Iterable, Sequence

try:  # optional: the solver falls back to its own search alone
    from pysat.solvers import Solver as _SatSolver
except ImportError:  # pragma: no cover - exercised only without the extra
    _SatSolver = None

#: whether the SAT path is available (``python-sat`` installed)
AVAILABLE = _SatSolver is not None

#: the SAT solver used (CaDiCaL 1.9.5 through python-sat): on the benchmark's hard three-task deals it
#: and Glucose 4 were within 10 % of each other, MiniSat 2.2 about 30 % slower
SAT_SOLVER = "cd195"

_SUB = 4
_VALUE = tuple(i % 9 + 1 for i in range(40))
_COLOUR = tuple(min(i // 9, 4) for i in range(40))

TRUE = True
FALSE = False


class Cnf:
    """Clauses over int variables, with Tseitin helpers that fold the constants ``True`` / ``False``."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int]] = []
        self._named: dict[tuple, int] = {}

    def new(self) -> int:
        self.top += 1
        return self.top

    def var(self, *name: Any) -> int:
        v = self._named.get(name)
        if v is None:
            v = self._named[name] = self.new()
        return v

    def add(self, lits: Iterable[Any]) -> None:
        """Add a clause; ``True`` satisfies it, ``False`` literals drop out."""
        out = []
        for lit in lits:
            if lit is TRUE:
                return
            if lit is FALSE:
                continue
            out.append(lit)
        self.clauses.append(out)

    @staticmethod
    def neg(lit: Any) -> Any:
        if lit is TRUE:
            return FALSE
        if lit is FALSE:
            return TRUE
        return -lit

    def and_(self, lits: Iterable[Any]) -> Any:
        """A literal equivalent to the conjunction."""
        parts = []
        for lit in lits:
            if lit is FALSE:
                return FALSE
            if lit is not TRUE:
                parts.append(lit)
        if not parts:
            return TRUE
        if len(parts) == 1:
            return parts[0]
        v = self.new()
        for lit in parts:
            self.clauses.append([-v, lit])
        self.clauses.append([v] + [-lit for lit in parts])
        return v

    def or_(self, lits: Iterable[Any]) -> Any:
        """A literal equivalent to the disjunction."""
        return self.neg(self.and_(self.neg(lit) for lit in lits))

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.add(lits)
        self.at_most_one(lits)

    def at_most_one(self, lits: Sequence[int]) -> None:
        for i, a in enumerate(lits):
            for b in lits[i + 1:]:
                self.clauses.append([-a, -b])

    def counter(self, lits: Sequence[Any], k: int) -> list[Any]:
        """``ge`` with ``ge[m]`` equivalent to "at least ``m`` of ``lits``" for ``m`` = 0 … ``k`` (a
        sequential counter with both directions, so it may be negated and compared)."""
        row: list[Any] = [TRUE] + [FALSE] * k
        for x in lits:
            new: list[Any] = [TRUE]
            for m in range(1, k + 1):
                # ge'[m] <-> ge[m] or (ge[m-1] and x)
                new.append(self.or_([row[m], self.and_([row[m - 1], x])]))
            row = new
        return row

    def at_least(self, lits: Sequence[Any], m: int) -> Any:
        if m <= 0:
            return TRUE
        if m > len(lits):
            return FALSE
        return self.counter(lits, m)[m]


class CrewModel:
    """The clauses of one position (see the module docstring). ``played``: ``(leader, cards)`` per trick
    already played; ``hands``: the cards each seat still holds (solver ints); ``tasks``: ``(seat, task id,
    prediction or None)``."""

    def __init__(self, hands: Sequence[int], leader: int, played: Sequence[tuple[int, Sequence[int]]],
                 tricks_left: int, tasks: Sequence[tuple[int, int, int | None]], captain: int, players: int,
                 condition: str | None = None, columns: Sequence[tuple[int, int]] = ()):
        self.n = n = len(hands)
        self.j0 = len(played)
        self.last = last = self.j0 + tricks_left
        self.tricks = range(1, last + 1)
        self.cnf = cnf = Cnf()
        owned = [list(_bits(h)) for h in hands]
        for lead, cards in played:
            for i, c in enumerate(cards):
                owned[(lead + i) % n].append(c)
        self.owned = [sorted(cs) for cs in owned]
        self.holder = {c: s for s, cs in enumerate(self.owned) for c in cs}
        self.cards = sorted(self.holder)
        # Variables are numbered arithmetically (a block per kind, ``card * (last + 1) + trick`` inside it):
        # building the clauses is most of the SAT path's fixed cost, and named lookups doubled it.
        T1 = self.T1 = last + 1
        self._P = cnf.top + 1
        self._L = self._P + 40 * T1
        self._K = self._L + n * T1
        self._B = self._K + 5 * T1
        self._Win = self._B + 40 * T1
        self._W = self._Win + 40 * T1
        cnf.top = self._W + n * T1 - 1
        cl = cnf.clauses
        P0, L0, K0, B0, Win0, W0 = self._P, self._L, self._K, self._B, self._Win, self._W
        holder, cards, owned = self.holder, self.cards, self.owned
        #: two players: TONOJA's face-down card -> the face-up card above it (see ``toolkit.crew.solver.prepare``)
        cover = {down: up for down, up in columns}
        # -- fixed facts: the tricks played, and the leader of the next trick
        for t, (lead, played_cards) in enumerate(played, start=1):
            cl.append([L0 + lead * T1 + t])
            for c in played_cards:
                cl.append([P0 + c * T1 + t])
        cl.append([L0 + leader * T1 + self.j0 + 1])
        # -- one card per seat per trick
        for cs in owned:
            for t in self.tricks:
                cnf.exactly_one([P0 + c * T1 + t for c in cs])
        # -- every card at most once (played in t: not played before t), and once when its seat plays all
        for c in cards:
            for t in self.tricks:
                cl.append([-(P0 + c * T1 + t), -(B0 + c * T1 + t)])
            if len(owned[holder[c]]) == last:
                cl.append([P0 + c * T1 + t for t in self.tricks])  # implied by the counts; helps the solver
        subs = [c for c in cards if _COLOUR[c] == _SUB]
        by_colour = [[c for c in cards if _COLOUR[c] == k] for k in range(5)]
        for t in self.tricks:
            cnf.exactly_one([L0 + s * T1 + t for s in range(n)])
            # the colour led: the leader's card sets it, and only one colour is led
            for c in cards:
                cl.append([-(P0 + c * T1 + t), -(L0 + holder[c] * T1 + t), K0 + _COLOUR[c] * T1 + t])
            cnf.exactly_one([K0 + k * T1 + t for k in range(5)])
            # played before t
            for c in cards:
                b = B0 + c * T1 + t
                if t == 1:
                    cl.append([-b])
                else:
                    prev, p = b - 1, P0 + c * T1 + t - 1
                    cl.append([-b, prev, p])
                    cl.append([b, -prev])
                    cl.append([b, -p])
            # follow suit: colour k led and no k played, so every k of this seat was played before t
            # (TONOJA's: or is still face down, the card above it not played before t)
            for cs in owned:
                for k in range(5):
                    same = [c for c in cs if _COLOUR[c] == k]
                    if same:
                        head = [-(K0 + k * T1 + t)] + [P0 + c * T1 + t for c in same]
                        for d in same:
                            up = cover.get(d)
                            cl.append(head + [B0 + d * T1 + t] + ([] if up is None else [-(B0 + up * T1 + t)]))
            # TONOJA's face-down card: played only in a trick after the one of the card above it
            for down, up in cover.items():
                cl.append([-(P0 + down * T1 + t), B0 + up * T1 + t])
            # the winning card, the winner, the next leader
            for c in cards:
                w = Win0 + c * T1 + t
                cl.append([-w, P0 + c * T1 + t])
                colour = _COLOUR[c]
                for d in by_colour[colour]:
                    if d > c:
                        cl.append([-w, -(P0 + d * T1 + t)])
                if colour != _SUB:
                    cl.append([-w, K0 + colour * T1 + t])
                    for d in subs:
                        cl.append([-w, -(P0 + d * T1 + t)])
            # At least one winning card; at most one follows (one leader, one colour led, and each rule
            # above rules out the other candidates), so no pairwise clauses are spent on it.
            cl.append([Win0 + c * T1 + t for c in cards])
            for s, cs in enumerate(owned):
                wv = W0 + s * T1 + t
                cl.append([-wv] + [Win0 + c * T1 + t for c in cs])
                for c in cs:
                    cl.append([-(Win0 + c * T1 + t), wv])
                if self.j0 < t < last:
                    nxt = L0 + s * T1 + t + 1
                    cl.append([-wv, nxt])
                    cl.append([wv, -nxt])
        self._got: dict[tuple[int, int], Any] = {}
        self._wins: dict[int, list[Any]] = {}
        for seat, task_id, prediction in tasks:
            self._task(seat, task_id, prediction, captain, players)
        if condition is not None:
            self._condition(condition)

    neg = staticmethod(Cnf.neg)

    # -- variables ----------------------------------------------------------------------------------
    def P(self, c: int, t: int) -> int:
        """Card ``c`` is played in trick ``t``."""
        return self._P + c * self.T1 + t

    def L(self, s: int, t: int) -> int:
        """Seat ``s`` leads trick ``t``."""
        return self._L + s * self.T1 + t

    def K(self, k: int, t: int) -> int:
        """Colour ``k`` (submarines: 4) is led in trick ``t``."""
        return self._K + k * self.T1 + t

    def B(self, c: int, t: int) -> int:
        """Card ``c`` was played before trick ``t``."""
        return self._B + c * self.T1 + t

    def Win(self, c: int, t: int) -> int:
        """Card ``c`` wins trick ``t``."""
        return self._Win + c * self.T1 + t

    def W(self, s: int, t: int) -> int:
        """Seat ``s`` wins trick ``t``."""
        return self._W + s * self.T1 + t

    def got(self, seat: int, c: int) -> Any:
        """``seat`` wins card ``c`` (it is in a trick ``seat`` wins); ``False`` for a card not in play."""
        key = (seat, c)
        lit = self._got.get(key)
        if lit is None:
            if c not in self.holder:
                lit = FALSE
            else:
                lit = self.cnf.or_([self.cnf.and_([self.P(c, t), self.W(seat, t)]) for t in self.tricks])
            self._got[key] = lit
        return lit

    def won_cards(self, seat: int, mask: int) -> list[Any]:
        return [self.got(seat, c) for c in range(40) if mask >> c & 1 and c in self.holder]

    def wins(self, seat: int) -> list[int]:
        return [self.W(seat, t) for t in self.tricks]

    def trick_win_counter(self, seat: int) -> list[Any]:
        hit = self._wins.get(seat)
        if hit is None:
            hit = self._wins[seat] = self.cnf.counter(self.wins(seat), self.last + 1)
        return hit

    # -- mission conditions (toolkit.crew.solver.conditions) ---------------------------------------------
    #: the conditions written as clauses (all five of toolkit.crew.missions.CONDITIONS)
    CONDITIONS = ("nines", "ones", "no-pink-lead", "first-winner-leads", "yellow-five-last")

    def _condition(self, condition: str) -> None:
        """Mission 12: no trick led in pink or with a submarine. Mission 27: the yellow 5 is played in the
        last trick by the seat that plays last in it (the one before that trick's leader). Missions 8 and
        21: after every trick, no seat has won two more colour 9s (1s) than another. Mission 23: after every
        trick, the first trick's winner has won more tricks than every other seat. The counts "after every
        trick" are sequential counters fed trick by trick, read after each trick."""
        cl = self.cnf.clauses
        if condition == "no-pink-lead":
            for t in self.tricks:
                cl.append([-self.K(3, t)])
                cl.append([-self.K(_SUB, t)])
        elif condition == "yellow-five-last":
            y5 = 2 * 9 + 4
            if y5 not in self.holder:
                cl.append([])   # not in play: never the last card
                return
            cl.append([self.P(y5, self.last)])
            cl.append([self.L((self.holder[y5] + 1) % self.n, self.last)])
        elif condition in ("nines", "ones"):
            value = 9 if condition == "nines" else 1
            cards = [c for c in self.cards if _COLOUR[c] != _SUB and _VALUE[c] == value]
            rows = [self._running_counts([[self.cnf.and_([self.P(c, t), self.W(s, t)]) for c in cards]
                                          for t in self.tricks], len(cards)) for s in range(self.n)]
            for t in range(len(self.tricks)):
                for s in range(self.n):
                    for o in range(self.n):
                        if o != s:
                            for a in range(len(cards) - 1):   # s at a + 2 or more, o at a or fewer
                                self.cnf.add([self.neg(rows[s][t][a + 2]), rows[o][t][a + 1]])
        elif condition == "first-winner-leads":
            k = self.last + 1
            rows = [self._running_counts([[self.W(s, t)] for t in self.tricks], k) for s in range(self.n)]
            for t in range(len(self.tricks)):
                for f in range(self.n):
                    for o in range(self.n):
                        if o != f:
                            for m in range(1, t + 2):   # o has m tricks: the first winner has m + 1
                                self.cnf.add([-self.W(f, 1), self.neg(rows[o][t][m]), rows[f][t][m + 1]])
        else:  # pragma: no cover - guarded by CONDITIONS
            raise ValueError(f"no clauses for the condition {condition!r}")

    def _running_counts(self, per_trick: Sequence[Sequence[Any]], k: int) -> list[list[Any]]:
        """Per trick (in ``self.tricks`` order): ``ge`` with ``ge[m]`` equivalent to "at least ``m`` of the
        literals of this trick and the ones before" (``Cnf.counter`` fed trick by trick)."""
        cnf = self.cnf
        row: list[Any] = [TRUE] + [FALSE] * k
        out = []
        for lits in per_trick:
            for x in lits:
                row = [TRUE] + [cnf.or_([row[m], cnf.and_([row[m - 1], x])]) for m in range(1, k + 1)]
            out.append(row)
        return out

    # -- tasks ----------------------------------------------------------------------------------------
    def _task(self, seat: int, task_id: int, prediction: int | None, captain: int, players: int) -> None:
        from toolkit.crew.tasks import TASKS

        task = TASKS[task_id]
        self.cnf.add([self.task_literal(seat, task.category, task.params, prediction, captain, players)])

    def count_literal(self, seat: int, mask: int, exact: bool, n: int) -> Any:
        lits = self.won_cards(seat, mask)
        cnf = self.cnf
        if exact:
            ge = cnf.counter(lits, n + 1)
            return cnf.and_([ge[n], cnf.neg(ge[n + 1])])
        return cnf.at_least(lits, n)

    def task_literal(self, seat: int, category: str, p: dict, prediction: int | None, captain: int,
                     players: int) -> Any:
        """A literal equivalent to the task's final condition (``True``: no condition)."""
        from toolkit.crew.cards import Card
        from toolkit.crew.tasks import _card_spec, _filter_mask

        cnf = self.cnf
        last = self.last
        if category == "capture_cards":
            parts = [self.got(seat, Card.parse(c).index) for c in p["cards"]]
            if "and" in p:
                extra = p["and"]
                parts.append(self.count_literal(seat, _filter_mask(extra["filter"]), extra["cmp"] == "==",
                                                extra["n"]))
            return cnf.and_(parts)
        if category == "card_count":
            def one(c: dict) -> Any:
                return self.count_literal(seat, _filter_mask(c["filter"]), c["cmp"] == "==", c["n"])
            if "all_of" in p:
                return cnf.and_([one(c) for c in p["all_of"]])
            if "any_of" in p:
                return cnf.or_([one(c) for c in p["any_of"]])
            return one(p)
        if category == "card_count_compare":
            a = self.won_cards(seat, _filter_mask(p["a"]))
            b = self.won_cards(seat, _filter_mask(p["b"]))
            k = max(len(a), len(b)) + 1
            ga, gb = cnf.counter(a, k), cnf.counter(b, k)
            if p["cmp"] == "==":
                return cnf.and_([ga[1]] + [cnf.and_([cnf.or_([cnf.neg(ga[m]), gb[m]]),
                                                     cnf.or_([ga[m], cnf.neg(gb[m])])]) for m in range(1, k + 1)])
            # a > b: for every m, b >= m implies a >= m + 1 (and a >= 1)
            return cnf.and_([ga[1]] + [cnf.or_([cnf.neg(gb[m]), ga[m + 1]]) for m in range(1, k)])
        if category in ("trick_count", "trick_count_prediction"):
            n = p["n"] if category == "trick_count" else prediction
            if n is None:
                return TRUE  # the solver chooses X
            if n > last:
                return FALSE
            ge = self.trick_win_counter(seat)
            return cnf.and_([ge[n], cnf.neg(ge[n + 1])])
        if category == "trick_count_relative":
            mine = self.trick_win_counter(seat)
            if p["other"] == "sum_of_others":
                # every trick has a winner: the others together won last - mine
                return mine[last // 2 + 1] if last // 2 + 1 < len(mine) else FALSE
            rivals = [captain] if p["other"] == "captain" else [s for s in range(self.n) if s != seat]
            parts = []
            for r in rivals:
                theirs = self.trick_win_counter(r)
                parts.append(self._compare(mine, p["cmp"], theirs))
            return cnf.and_(parts)
        if category == "trick_positions":
            wanted = {last if w == "last" else w for w in p.get("must_win", ())}
            avoid = set(p.get("must_not_win", ()))
            parts: list[Any] = []
            for t in range(1, last + 1):
                if t in wanted:
                    parts.append(self.W(seat, t))
                elif t in avoid or p.get("only"):
                    parts.append(-self.W(seat, t))
            # trick numbers beyond the last trick (a short endgame) are never reached, so never broken: the
            # engine's reading
            return cnf.and_(parts)
        if category == "capture_in_trick":
            c = Card.parse(p["card"]).index
            if c not in self.holder:
                return FALSE
            return cnf.and_([self.P(c, last), self.W(seat, last)])
        if category == "streak":
            w = [TRUE] + [self.W(seat, t) for t in range(1, last + 1)]  # 1-based
            if "never_consecutive" in p:
                k = p["never_consecutive"]
                return cnf.and_([cnf.or_([cnf.neg(w[t + i]) for i in range(k)]) for t in range(1, last - k + 2)])
            if "at_least_consecutive" in p:
                k = p["at_least_consecutive"]
                return cnf.or_([cnf.and_([w[t + i] for i in range(k)]) for t in range(1, last - k + 2)])
            k = p["exact_total"]
            if k > last:
                return FALSE
            ge = self.trick_win_counter(seat)
            count = cnf.and_([ge[k], cnf.neg(ge[k + 1])])
            # all consecutive: no trick lost between two won ones
            gaps = [cnf.or_([cnf.neg(w[a]), w[b], cnf.neg(w[c])])
                    for a in range(1, last + 1) for b in range(a + 1, last + 1) for c in range(b + 1, last + 1)]
            return cnf.and_([count] + gaps)
        if category == "no_lead":
            suits = {("blue", "green", "yellow", "pink").index(s) for s in p["suits"]}
            parts = []
            for c in self.owned[seat]:
                if _COLOUR[c] in suits:
                    for t in range(1, last + 1):
                        parts.append(cnf.neg(cnf.and_([self.P(c, t), self.L(seat, t)])))
            return cnf.and_(parts)
        if category == "win_trick_with":
            win_mask = _card_spec(p["winning_card"])
            contains = p.get("trick_contains")
            other = _card_spec(contains) if contains else 0
            need = 2 if contains and contains.get("other_than_winner") else 1
            mine = [c for c in self.owned[seat] if win_mask >> c & 1]
            options = []
            for t in range(1, last + 1):
                parts = [cnf.or_([self.Win(c, t) for c in mine])]
                if contains:
                    parts.append(cnf.at_least([self.P(c, t) for c in self.cards if other >> c & 1], need))
                options.append(cnf.and_(parts))
            return cnf.or_(options)
        if category == "trick_property":
            return cnf.or_([cnf.and_([self.W(seat, t), self._trick_has(t, p, players)])
                            for t in range(1, last + 1)])
        raise ValueError(f"unknown task category {category!r}")  # pragma: no cover

    def _compare(self, mine: list[Any], cmp: str, theirs: list[Any]) -> Any:
        cnf = self.cnf
        k = len(mine) - 1
        if cmp == ">":
            return cnf.and_([mine[1]] + [cnf.or_([cnf.neg(theirs[m]), mine[m + 1]]) for m in range(1, k)]
                            + [cnf.neg(theirs[k])])
        if cmp == "<":
            return self._compare(theirs, ">", mine)
        return cnf.and_([cnf.and_([cnf.or_([cnf.neg(mine[m]), theirs[m]]), cnf.or_([mine[m], cnf.neg(theirs[m])])])
                         for m in range(1, k + 1)])

    def _trick_has(self, t: int, p: dict, players: int) -> Any:
        """A literal for "trick ``t``'s cards have the property" (the engine's ``_trick_property_judge``)."""
        from toolkit.crew.tasks import _filter_mask

        cnf = self.cnf
        subs = [c for c in self.cards if _COLOUR[c] == _SUB]
        if "all_cards" in p:
            pred = {"value<7": lambda v: v < 7, "value>5": lambda v: v > 5,
                    "even": lambda v: v % 2 == 0, "odd": lambda v: v % 2 == 1}[p["all_cards"]]
            # submarines never satisfy these (the engine's ruling)
            bad = [c for c in self.cards if _COLOUR[c] == _SUB or not pred(_VALUE[c])]
            return cnf.and_([-self.P(c, t) for c in bad])
        if "sum_cmp" in p or "sum_in" in p:
            seats = 3 if players == 2 else players
            if "sum_in" in p:
                ok = set(p["sum_in"])
            else:
                limit = p["sum_by_players"][str(seats)]
                ok = {s for s in range(0, 9 * self.n + 1) if (s > limit if p["sum_cmp"] == ">" else s < limit)}
            # sums over the seats, one card each: a literal per reachable partial sum, each justified by
            # the card that seat plays (one direction suffices: a true "total is s" forces real cards)
            partial = {0: TRUE}
            for s, cs in enumerate(self.owned):
                nxt: dict[int, list[Any]] = {}
                for total, lit in partial.items():
                    for c in cs:
                        if _COLOUR[c] != _SUB:
                            nxt.setdefault(total + _VALUE[c], []).append(cnf.and_([lit, self.P(c, t)]))
                partial = {total: cnf.or_(lits) for total, lits in nxt.items()}
            return cnf.and_([cnf.or_([lit for total, lit in partial.items() if total in ok])]
                            + [-self.P(c, t) for c in subs])
        if "count_equal" in p:
            a_mask, b_mask = (_filter_mask({"suit": s}) for s in p["count_equal"])
            need = p.get("min", 1)
            a = [self.P(c, t) for c in self.cards if a_mask >> c & 1]
            b = [self.P(c, t) for c in self.cards if b_mask >> c & 1]
            k = self.n
            ga, gb = cnf.counter(a, k + 1), cnf.counter(b, k + 1)
            return cnf.and_([ga[need]] + [cnf.and_([cnf.or_([cnf.neg(ga[m]), gb[m]]),
                                                    cnf.or_([ga[m], cnf.neg(gb[m])])]) for m in range(1, k + 2)])
        raise ValueError(f"unknown trick property {p!r}")  # pragma: no cover

    # -- reading a model back -----------------------------------------------------------------------
    def line(self, model: Iterable[int]) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """The open tricks of a model, as ``(leader, cards in seat order from the leader)``."""
        true = {v for v in model if v > 0}
        out = []
        for t in range(self.j0 + 1, self.last + 1):
            leader = next(s for s in range(self.n) if self.L(s, t) in true)
            cards = []
            for i in range(self.n):
                seat = (leader + i) % self.n
                cards.append(next(c for c in self.owned[seat] if self.P(c, t) in true))
            out.append((leader, tuple(cards)))
        return tuple(out)


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Stopped(Exception):
    """The SAT solver used its conflicts, time or was asked to stop."""


class SatSession:
    """A SAT solver loaded with a model's clauses (``solve`` asks whether they can all hold). Use it as a
    context manager, or ``close()`` it."""

    def __init__(self, model: CrewModel):
        if _SatSolver is None:  # pragma: no cover
            raise RuntimeError("python-sat is not installed")
        self.model = model
        self._sat = _SatSolver(name=SAT_SOLVER, bootstrap_with=model.cnf.clauses)

    def __enter__(self) -> "SatSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self._sat.delete()

    def solve(self, conflict_limit: int | None, deadline: float | None, stop: Any = None,
              on_progress: Callable[[int], Any] | None = None, chunk: int = 1000) -> tuple[Any, int]:
        """(``False`` | the open tricks of a winning line | ``None`` when stopped, conflicts used).

        The solver runs in slices of ``chunk`` conflicts (it keeps what it learnt between them), so a
        deadline, a stop event and progress reports are honoured between slices; a conflict limit makes
        the answer deterministic."""
        sat = self._sat
        before = sat.accum_stats()["conflicts"]
        used = 0
        started = time.perf_counter()
        while True:
            step = chunk if conflict_limit is None else min(chunk, conflict_limit - used)
            if step <= 0:
                return None, used
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    return None, used
                if used:
                    # near the deadline, slices shrink to what the remaining time allows at the rate so far
                    rate = used / max(now - started, 1e-6)
                    step = max(16, min(step, int(rate * (deadline - now))))
            sat.conf_budget(step)
            answer = sat.solve_limited()
            used = sat.accum_stats()["conflicts"] - before
            if conflict_limit is not None and answer is None:
                used = min(used, conflict_limit)  # CaDiCaL may run one conflict past its budget
            if answer is True:
                return self.model.line(sat.get_model()), used
            if answer is False:
                return False, used
            if on_progress is not None:
                on_progress(used)
            if deadline is not None and time.perf_counter() >= deadline:
                return None, used
            if stop is not None and stop.is_set():
                return None, used


def solve_model(model: CrewModel, conflict_limit: int | None, deadline: float | None,
                stop: Any = None, on_progress: Callable[[int], Any] | None = None,
                chunk: int = 1000) -> tuple[Any, int]:
    """One question to a fresh :class:`SatSession`: is the model satisfiable (see ``SatSession.solve``)?"""
    with SatSession(model) as session:
        return session.solve(conflict_limit, deadline, stop, on_progress, chunk=chunk)
