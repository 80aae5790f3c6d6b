"""The expert: determinized double-dummy search from what its seat knows.

For a card to play it draws deals consistent with everything the seat has seen
(:func:`toolkit.crew.bots.sampler.sample_deals`), solves each with the double-dummy solver (under a node
cap, mid-trick: the cards on the table are forced) once for every card it may play, and plays the card
that keeps every task winnable in the most deals; the beginner's choice breaks ties. A deal the cap
leaves undecided counts half. Allocation uses the same deals: each way of taking or handing out a task
is scored by the deals in which the tasks allocated so far stay winnable. A prediction is the number of
tricks the winning lines of most deals give its seat. Communication, the distress signal and the
distress gift are decided from sampled deals too (:mod:`toolkit.crew.bots.signals`; ``signals="beginner"``
keeps the beginner's rules of thumb for them). Missions without task cards (8, 12, 21, 23, 27) are decided
the same way: the solver keeps the mission's own rule instead of tasks
(:mod:`toolkit.crew.solver.conditions`), and the reasons say "keeps the mission's rule" for "keeps every
task winnable".

Everything is counted in solver nodes, not seconds, so a decision is the same on any machine: at most
``deals`` deals, ``node_limit`` nodes a solve and ``budget`` nodes a decision (at least ``min_deals``
deals are always solved). Two players: TONOJA's face-down cards are unseen to every seat; the sampler
draws them like any other unseen card and lays each under its column's face-up card
(:func:`~toolkit.crew.bots.sampler.tonoja_columns`), and the solver keeps the columns: a face-down card is
played only after the trick of the card above it, and TONOJA follows suit from its face-up cards alone.

>>> import numpy as np
>>> from toolkit.core.bots import play_out
>>> from toolkit.crew import ENGINE
>>> state, moves = play_out(ENGINE, 2, ["expert"] * 4, mission=1)
>>> state.phase in ("success", "failed")
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace as dc_replace
from typing import Any, Mapping, Sequence

import numpy as np

from toolkit.core.bots import Decision
from toolkit.core.explain import Event
from toolkit.crew.bots import own_moves
from toolkit.crew.bots.beginner import BeginnerBot
from toolkit.crew.bots.sampler import Knowledge, sample_deals
from toolkit.crew.cards import Card, Trick
from toolkit.crew.engine import (AssignAll, AssignTask, Distress, GiveCard, PassTask, PlayCard, Predict, Sonar,
                                 TakeTask)

__all__ = ["ExpertBot", "Verdicts", "card_classes", "card_verdicts", "solver_tasks"]


def solver_tasks(view: Mapping[str, Any], extra: Mapping[int, int] | None = None,
                 include_open: bool = False) -> dict[int, list]:
    """The view's allocated tasks as ``solve`` takes them: ``{seat: [id or (id, prediction)]}``. ``extra``
    adds ``{task id: seat}``; a secret prediction of another seat is left open (the solver picks it)."""
    out: dict[int, list] = {}
    extra = dict(extra or {})
    for t in view["tasks"]:
        owner = extra.pop(t["id"], t["owner"])
        if owner is None:
            continue
        pred = t["prediction"]
        out.setdefault(owner, []).append((t["id"], pred) if isinstance(pred, int) else t["id"])
    return out


class _Solver:
    """One sampled deal, ready to be solved for several first moves (positions built once)."""

    def __init__(self, hands: Sequence[Sequence[Card]], tasks: Mapping[int, list], view: Mapping[str, Any]):
        from toolkit.crew.bots.sampler import tonoja_columns
        from toolkit.crew.solver import _judges_for, prepare

        trick = view["trick"]
        on_table = [Card.parse(c) for c in trick["cards"]]
        seats = view["seats"]
        full = [list(h) for h in hands]
        for i, c in enumerate(on_table):              # the cards on the table go back to their hands
            full[(trick["leader"] + i) % seats].append(c)
        played = [Trick(t["leader"], t["cards"]) for t in view["memory"]["tricks"]]
        # engine-made history needs no re-validation (it is checked against the hands from this trick on,
        # and the columns of the tricks before are gone). Two players: TONOJA's sampled face-down cards lie
        # under their columns' face-up cards (the sampler's order, see ``tonoja_columns``).
        columns = tonoja_columns(view, hands[view["tonoja_seat"]]) if view["tonoja_seat"] is not None else None
        base = prepare(full, tasks, leader=trick["leader"], captain=view["captain"], played=(),
                       mission=view["mission"], columns=columns)
        self.position = dc_replace(base, played=tuple(played), played_codes=tuple(
            (t.leader, tuple(c.index for c in t.cards)) for t in played))
        self.judges = _judges_for(self.position)
        self.prefix = tuple(c.index for c in on_table)
        self.search = None            # one search per deal, shared by its solves (see ``solve``)
        self.progress = self.root_key = None

    def solve(self, card: Card | None, node_limit: int, whole: bool = False) -> tuple[bool | None, int, tuple | None]:
        """(winnable after ``card`` — None: undecided, nodes, the first trick of a winning line; with
        ``whole``, the whole line).

        The solves of one deal share one search and its transposition table: every entry is the verdict
        of a position at a trick boundary *after* the forced first trick, the same whatever card was
        forced, so the second card's search reuses what the first proved. Only the root's entry depends
        on the forced cards; it is dropped after every solve."""
        from toolkit.crew.solver.search import _Search, _Stop

        p = self.position
        search = self.search
        if search is None:
            search = self.search = _Search(p.hands, p.leader, self.judges, len(p.played), p.last, None, None,
                                           None, None, columns=p.columns)
            self.progress = search.initial_progress(p.played_codes)
            if self.progress is not None:
                self.root_key = (search._key(search.hands0, search.leader0, self.progress) if search.reduce
                                 else (search.hands0, search.leader0, self.progress))
        progress = self.progress
        if progress is None:
            return False, 0, None
        if p.tricks_left == 0:
            return all(x == "done" for x in progress), 0, None
        search.prefix = self.prefix + ((card.index,) if card is not None else ())
        start = search.nodes
        search.node_limit = start + node_limit
        search._next_check = start
        search.slice_end = None
        search.lds = None
        search.sat_line = None
        try:
            found = search.run(progress)
        except _Stop:
            return None, search.nodes - start, None
        except AssertionError:
            # The shared table proved the root but its walk to a line failed (seen once in the strength study's
            # more than 5,000 expert games: mission 16, deal 149, seat 3's first card). Solve this card again
            # with a search of its own — the public solver's path, whose walks always end — so the verdict and
            # line do not rest on the shared table. Only this path changes: every other game plays as before.
            found = self._solve_alone(card, node_limit)
            if found is None:
                return None, search.nodes - start, None
        finally:
            search.table.pop(self.root_key, None)
            search.lds_failed.pop(self.root_key, None)
        if found is False:
            return False, search.nodes - start, None
        if whole:
            return True, search.nodes - start, tuple(found or ())
        return True, search.nodes - start, (found[0] if found else None)


    def _solve_alone(self, card: Card | None, node_limit: int) -> Any:
        """``search.run``'s answer for this deal and card from a fresh search (None: stopped at the limit)."""
        from toolkit.crew.solver.search import _Search, _Stop

        p = self.position
        search = _Search(p.hands, p.leader, self.judges, len(p.played), p.last, None, None, None, None,
                         columns=p.columns)
        search.prefix = self.prefix + ((card.index,) if card is not None else ())
        search.node_limit = node_limit
        search._next_check = 0
        try:
            return search.run(search.initial_progress(p.played_codes))
        except _Stop:
            return None


@dataclass
class Verdicts:
    """Per candidate card: deals where the mission stays winnable, undecided, lost; and the deals used."""

    wins: dict
    undecided: dict
    deals: int
    nodes: int
    drawn: int = 0          # deals drawn (the most that could have been used)
    raced: bool = False     # stopped before the budget's end: no later deal could change the choice

    def score(self, card: Card) -> float:
        return self.wins[card] + 0.5 * self.undecided[card]


def _distinguishes(task_id: int, a: Card, b: Card) -> bool:
    """Whether a task may tell two cards of one colour apart (its verdict could change if they swapped)."""
    from toolkit.crew.bots.beginner import _matches
    from toolkit.crew.tasks import TASKS

    task = TASKS[task_id]
    p, cat = task.params, task.category
    if cat in ("capture_cards", "capture_in_trick"):
        names = set(p.get("cards", [])) | ({p["card"]} if "card" in p else set())
        return str(a) in names or str(b) in names
    if cat == "trick_property":
        return True
    specs: list = []
    if cat == "card_count":
        specs = [part["filter"] for part in (p.get("all_of") or p.get("any_of") or [p])]
    elif cat == "win_trick_with":
        specs = [p["winning_card"]] + ([p["trick_contains"]] if p.get("trick_contains") else [])
    elif cat == "card_count_compare":
        specs = [p["a"], p["b"]]
    return any(_matches(spec, a) != _matches(spec, b) for spec in specs)


def card_classes(view: Mapping[str, Any], cards: Sequence[Card]) -> list[list[Card]]:
    """``cards`` split into classes a double-dummy search cannot tell apart: cards of one colour with no
    card between them that is still out of the seat's sight, when no pending task names either."""
    hand = {Card.parse(c) for c in view["hand"]} | {Card.parse(c["face_up"]) for c in view["tonoja"] if c["face_up"]}
    seen = hand | {Card.parse(c) for t in view["memory"]["tricks"] for c in t["cards"]}
    seen |= {Card.parse(c) for c in view["trick"]["cards"]}
    pending = [t["id"] for t in view["tasks"] if t["status"] == "pending"]
    # a mission's condition tells apart the cards it names (a 9 from the 8 beside it in mission 8)
    named = _condition_cards(view)
    # TONOJA's face-up cards that lie on a face-down card: each turns up another card, so none is like another
    covers = {Card.parse(c["face_up"]) for c in view["tonoja"] if c["face_up"] and c["face_down"]}
    out: list[list[Card]] = []
    for c in sorted(cards):
        last = out[-1][-1] if out else None
        if (last is not None and last.suit == c.suit and
                all(Card(c.suit, v) in seen and Card(c.suit, v) not in hand or Card(c.suit, v) in cards
                    for v in range(last.value + 1, c.value)) and
                not any(_distinguishes(t, last, c) for t in pending) and
                not (named >> last.index & 1 or named >> c.index & 1) and
                last not in covers and c not in covers):
            out[-1].append(c)
        else:
            out.append([c])
    return out


def _condition_cards(view: Mapping[str, Any]) -> int:
    """The cards (a mask of deck indexes) whose identity the mission's condition judges, 0 with task cards."""
    from toolkit.crew.solver.conditions import condition_of, make_condition

    condition = condition_of(view["mission"])
    if condition is None:
        return 0
    return make_condition(condition, view["seats"], view["captain"], view["tricks_total"]).sensitive


def _for_condition(view: Mapping[str, Any], code: str) -> str:
    """``code``'s variant for a mission whose condition replaces the tasks ("keeps the mission's rule")."""
    from toolkit.crew.solver.conditions import condition_of

    return code + "_CONDITION" if condition_of(view["mission"]) is not None else code


def card_verdicts(view: Mapping[str, Any], cards: Sequence[Card], rng: np.random.Generator, *, deals: int = 20,
                  min_deals: int = 6, node_limit: int = 2000, budget: int = 24_000,
                  know: Knowledge | None = None, sampled: Sequence | None = None, race: bool = False,
                  prefer: Card | None = None) -> Verdicts:
    """For each of ``cards`` (the seat's — or TONOJA's — legal cards), in how many sampled deals the
    mission stays winnable after it is played. Deals come from :func:`sample_deals` unless ``sampled``
    gives them. Equivalent cards (:func:`card_classes`) are solved once; each solve gets at most
    ``node_limit`` nodes and no more than its share of ``budget`` over ``min_deals`` deals.

    With ``race``, the deals stop as soon as the card the expert would choose (best score; ties go to
    ``prefer``, then to the first of ``cards``) can no longer change whatever the deals left give
    (:func:`_settled`): the choice is the one of the whole run. Every deal is still drawn first, so the
    rng ends where it would have and the deals solved are a prefix of the same sequence."""
    tasks = solver_tasks(view)
    classes = card_classes(view, cards)
    small = max(200, min(node_limit, budget // (min_deals * (len(classes) + 1))))
    nodes = used = 0
    pool = list(sampled) if sampled is not None else sample_deals(view, deals, rng, know=know)
    acting = view["current"]
    trick = view["trick"]
    pos = len(trick["cards"])
    table: list[list] = []                   # per deal used: per class, True / False / None
    halves = [0] * len(classes)              # running scores, in half deals (exact integers)
    raced = False
    for hands in pool:
        if used >= min_deals and nodes >= budget:
            break
        if race and used and _settled(cards, classes, halves, prefer, len(pool) - used):
            raced = True
            break
        used += 1
        solver = _Solver(hands, tasks, view)
        root, n, first = solver.solve(None, small)
        nodes += n
        if root is False:
            continue                          # lost whatever is played: tells no card apart
        known = None
        if root and first is not None:
            leader, played = first
            if (leader + pos) % view["seats"] == acting and pos < len(played):
                known = Card.parse(_name(played[pos]))
        row = []
        for group in classes:
            if known is not None and known in group:
                verdict = True
            else:
                verdict, n, _ = solver.solve(group[0], small)
                nodes += n
            row.append(verdict)
        table.append(row)
        for i, verdict in enumerate(row):
            halves[i] += 2 if verdict else 1 if verdict is None else 0
    wins_by = {c: 0 for c in cards}
    undecided = {c: 0 for c in cards}
    for row in table:
        for group, verdict in zip(classes, row):
            for c in group:
                if verdict:
                    wins_by[c] += 1
                elif verdict is None:
                    undecided[c] += 1
    return Verdicts(wins_by, undecided, used, nodes, len(pool), raced)


def _settled(cards: Sequence[Card], classes: Sequence[Sequence[Card]], halves: Sequence[int],
             prefer: Card | None, left: int) -> bool:
    """Whether the card :meth:`ExpertBot._play` would choose is the same whatever ``left`` more deals give
    (each deal adds 0, 1/2 or 1 to each card's score; ``halves``: the scores so far per class, in halves).

    The choice is the best score; a tie goes to ``prefer`` if it is among the best, else to the first of
    ``cards``; a best score of 0 falls back to the rules of thumb. So the current choice ``lead`` is settled
    when its score is above 0 and, for every other card ``c``, ``lead`` stays ahead even if ``c`` wins every
    deal left and ``lead`` none: strictly ahead where a tie would go to ``c`` (``c`` is ``prefer``, or comes
    before ``lead`` in ``cards`` while ``lead`` is not ``prefer``), at least level elsewhere.

    >>> from toolkit.crew.cards import Card
    >>> a, b = Card.parse("B3"), Card.parse("B7")
    >>> _settled([a, b], [[a], [b]], [10, 4], None, 3)    # 5 against 2 + 3 deals: a tie goes to a
    True
    >>> _settled([a, b], [[a], [b]], [10, 4], b, 3)       # ... unless b is preferred
    False
    """
    score = {c: h for group, h in zip(classes, halves) for c in group}
    lead = _choice(cards, score, prefer)
    if lead is None:
        return False
    best = score[lead]
    order = {c: i for i, c in enumerate(cards)}
    for c in cards:
        if c == lead:
            continue
        strict = c == prefer or (lead != prefer and order[c] < order[lead])
        gap = best - score[c] - 2 * left
        if gap < 0 or strict and gap == 0:
            return False
    return True


def _choice(cards: Sequence[Card], score: Mapping[Card, float], prefer: Card | None) -> Card | None:
    """The expert's card from the scores: the best (None if it is 0); a tie goes to ``prefer`` if it is
    among the best, else to the first of ``cards``."""
    best = max(score[c] for c in cards)
    if best == 0:
        return None
    top = [c for c in cards if score[c] == best]
    return prefer if prefer in top else top[0]


def _name(code: int) -> str:
    from toolkit.crew.solver import card_of

    return str(card_of(code))


class ExpertBot:
    """Determinized search (see the module docstring)."""

    name = "expert"

    def __init__(self, deals: int = 40, min_deals: int = 8, node_limit: int = 3000, budget: int = 40_000,
                 alloc_deals: int = 8, alloc_node_limit: int = 1500, signals: str = "sampled",
                 signal_deals: int = 6, race: bool = True):
        if signals not in ("sampled", "beginner"):
            raise TypeError(f"signals must be 'sampled' or 'beginner', not {signals!r}")
        self.deals, self.min_deals, self.node_limit, self.budget = deals, min_deals, node_limit, budget
        self.alloc_deals, self.alloc_node_limit = alloc_deals, alloc_node_limit
        self.signals, self.signal_deals = signals, signal_deals
        self.race = race              # stop a card's deals once the choice is settled (same choice; see card_verdicts)
        self.beginner = BeginnerBot()

    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        seat = view["seat"]
        mine = own_moves(view, legal)
        base = self.beginner.decide(view, legal, rng)
        from toolkit.crew.solver.conditions import condition_of

        if not mine or (not any(t["owner"] is not None for t in view["tasks"]) and view["phase"] == "play"
                        and condition_of(view["mission"]) is None):
            return base
        if self.signals == "sampled":
            gifts = [m for m in mine if isinstance(m, GiveCard)]
            if gifts:
                return self._gift(view, gifts, base, rng)
            sonars = [m for m in mine if isinstance(m, Sonar)]
            if sonars:
                said = self._sonar(view, sonars, base, rng)
                if said.move is not None or view["decider"] != seat:
                    return said
        if view["decider"] != seat:
            return base
        plays = [m for m in mine if isinstance(m, PlayCard)]
        if self.signals == "sampled" and any(isinstance(m, Distress) for m in mine):
            signal = self._distress(view, base, rng)
            if signal is not None:
                return signal
        if plays:
            return self._play(view, plays, base, rng)
        if any(isinstance(m, (TakeTask, AssignTask, AssignAll)) for m in mine):
            return self._allocate(view, mine, base, rng)
        if any(isinstance(m, Predict) for m in mine):
            return self._predict(view, mine, base, rng)
        return base

    # ---- cards -----------------------------------------------------------------------------------
    def _play(self, view, plays, base: Decision, rng) -> Decision:
        seat = view["seat"]
        if len(plays) == 1:
            return base
        cards = [m.card for m in plays]
        base_card = base.move.card if isinstance(base.move, PlayCard) else None
        v = card_verdicts(view, cards, rng, deals=self.deals, min_deals=self.min_deals, node_limit=self.node_limit,
                          budget=self.budget, race=self.race, prefer=base_card)
        card = _choice(cards, {c: v.score(c) for c in cards}, base_card)
        if card is None:
            return Decision(base.move, Event("BOT_CREW_FALLBACK", "bots.crew.fallback", seat=seat, why=base.reason))
        second = max((v.score(c) for c in cards if c != card), default=0)
        params = dict(seat=seat, card=card, wins=_num(v.score(card)), deals=v.deals, second=_num(second),
                      **_mission_param(view))
        if v.raced:
            return Decision(PlayCard(card), Event(_for_condition(view, "BOT_CREW_SAMPLED_RACED"),
                                                  _rule(view), **params, most=v.drawn))
        return Decision(PlayCard(card), Event(_for_condition(view, "BOT_CREW_SAMPLED"), _rule(view), **params))

    # ---- communication and the distress signal (toolkit.crew.bots.signals) ------------------------
    def _sonar(self, view, sonars, base: Decision, rng) -> Decision:
        from toolkit.crew.bots.signals import SONAR_THRESHOLD, matter_weights, sonar_values

        seat = view["seat"]
        deals = sample_deals(view, self.signal_deals, rng)
        tasks = solver_tasks(view)
        lines = []
        for hands in deals:
            ok, _, line = _Solver(hands, tasks, view).solve(None, self.alloc_node_limit, whole=True)
            lines.append(line if ok else None)
        weights = matter_weights(view, lines, len(deals))
        values = sonar_values(view, [(m.card, m.position) for m in sonars], weights)
        best = max(values.values())
        top = [m for m in sonars if values[(m.card, m.position)] == best]
        move = base.move if base.move in top else top[0]
        params = dict(seat=seat, card=move.card, value=f"{best:.2f}", deals=len(deals),
                      threshold=f"{SONAR_THRESHOLD:.1f}")
        if best >= SONAR_THRESHOLD:
            return Decision(move, Event("BOT_CREW_SONAR_SAMPLED", "bots.crew.sonar-sampled", **params))
        return Decision(None, Event("BOT_CREW_SILENT_SAMPLED", "bots.crew.sonar-sampled", **params))

    def _deal_winnable(self, view):
        from toolkit.crew.solver import solve

        tasks = solver_tasks(view)

        def winnable(hands):
            return solve(_solver_hands(view, hands), tasks, leader=view["trick"]["leader"], captain=view["captain"],
                         node_limit=self.alloc_node_limit, method="search", mission=view["mission"]).winnable

        return winnable

    def _distress(self, view, base: Decision, rng) -> Decision | None:
        from toolkit.crew.bots.signals import DISTRESS_GAIN, distress_gain

        seat = view["seat"]
        deals = sample_deals(view, self.alloc_deals, rng)
        if not deals:
            return None
        direction, before, after = distress_gain(view, deals, self._deal_winnable(view))
        if after - before < DISTRESS_GAIN:
            return None
        return Decision(Distress(direction), Event(_for_condition(view, f"BOT_CREW_DISTRESS_{direction.upper()}"),
                                                   "bots.crew.distress-sampled", seat=seat, deals=len(deals),
                                                   before=_num(before * len(deals)), after=_num(after * len(deals)),
                                                   **_mission_param(view)))

    def _gift(self, view, gifts, base: Decision, rng) -> Decision:
        from toolkit.crew.bots.signals import gift_scores

        seat = view["seat"]
        deals = sample_deals(view, self.alloc_deals, rng)
        direction = view["distress"]["direction"]
        if not deals or direction not in (1, -1):
            return base
        scores, n = gift_scores(view, [m.card for m in gifts], deals, direction, self._deal_winnable(view))
        best = max(scores.values())
        top = [m for m in gifts if scores[m.card] == best]
        move = base.move if base.move in top else top[0]
        return Decision(move, Event(_for_condition(view, "BOT_CREW_GIFT_SAMPLED"), "bots.crew.gift-sampled", seat=seat,
                                    card=move.card, wins=_num(best), deals=n, **_mission_param(view)))

    # ---- allocation ------------------------------------------------------------------------------
    def _rate(self, view, deals, extra: Mapping[int, int]) -> float:
        from toolkit.crew.solver import solve

        tasks = solver_tasks(view, extra)
        score = 0.0
        for hands in deals:
            r = solve(_solver_hands(view, hands), tasks, captain=view["captain"], node_limit=self.alloc_node_limit,
                      method="search")
            score += 1.0 if r.winnable else 0.5 if r.winnable is None else 0.0
        return score

    def _allocate(self, view, mine, base: Decision, rng) -> Decision:
        seat = view["seat"]
        acting = view["current"]
        deals = sample_deals(view, self.alloc_deals, rng)
        if not deals:
            return base
        options = []
        for m in mine:
            if isinstance(m, TakeTask):
                options.append((m, {m.task: acting}))
            elif isinstance(m, AssignTask):
                options.append((m, {m.task: m.seat}))
            elif isinstance(m, AssignAll):
                options.append((m, {t["id"]: m.seat for t in view["tasks"]}))
        scored = [(self._rate(view, deals, extra), m) for m, extra in options]
        best = max(s for s, _ in scored)
        top = [m for s, m in scored if s == best]
        passing = next((m for m in mine if isinstance(m, PassTask)), None)
        if passing is not None and best < len(deals) / 2:
            from toolkit.crew.tasks import TASKS

            # Most sampled deals lose whatever I take: a seat still to choose may suit an open task better
            # ("win no submarines" is lost in the hand that holds submarine 4). Pass when the best such
            # seat keeps every task winnable in more of the same deals than my best take.
            later = [(self._rate(view, deals, {t["id"]: s}), s, t["id"]) for s in view["choosers_after"]
                     for t in view["tasks"] if t["owner"] is None
                     and not (s == view["captain"] and TASKS[t["id"]].captain_comparison)]
            if later:
                score, other, task = max(later, key=lambda x: x[0])
                if score > best:
                    return Decision(passing, Event("BOT_CREW_SAMPLED_PASS", "bots.crew.sampled", seat=seat,
                                                   acting=acting, wins=_num(best), deals=len(deals), task=task,
                                                   other=other, theirs=_num(score)))
            if base.move == passing:
                return base
        move = base.move if base.move in top else top[0]
        # the move in words of the reader's language (the reason is worded when shown, not here)
        if isinstance(move, TakeTask):
            code, what = "BOT_CREW_SAMPLED_TAKE", {"acting": acting, "task": move.task}
        elif isinstance(move, AssignTask):
            code, what = "BOT_CREW_SAMPLED_ASSIGN", {"task": move.task, "to": move.seat}
        else:
            code, what = "BOT_CREW_SAMPLED_ASSIGN_ALL", {"to": move.seat}
        return Decision(move, Event(code, "bots.crew.sampled", seat=seat, wins=_num(best), deals=len(deals), **what))

    def _predict(self, view, mine, base: Decision, rng) -> Decision:
        from toolkit.crew.solver import solve

        seat = view["seat"]
        acting = view["current"]
        task = next((t for t in view["tasks"] if t["owner"] == acting and t["prediction"] is None
                     and "X" in t["en"]), None)
        deals = sample_deals(view, self.alloc_deals, rng)
        if task is None or not deals:
            return base
        tasks = solver_tasks(view)
        counts: Counter = Counter()
        for hands in deals:
            r = solve(_solver_hands(view, hands), tasks, captain=view["captain"], node_limit=self.alloc_node_limit,
                      method="search")
            if r.winnable:
                counts[r.predictions.get((acting, task["id"]))] += 1
        counts.pop(None, None)
        if not counts:
            return base
        legal = {m.tricks: m for m in mine if isinstance(m, Predict)}
        n, wins = max(counts.items(), key=lambda kv: (kv[1], -abs(kv[0] - getattr(base.move, "tricks", 0))))
        if n not in legal:
            return base
        return Decision(legal[n], Event("BOT_CREW_SAMPLED_PREDICT", "bots.crew.sampled", seat=seat, tricks=n,
                                        wins=wins, deals=len(deals)))


def _mission_param(view: Mapping[str, Any]) -> dict[str, int]:
    """``{"mission": n}`` for the reasons of a mission whose condition replaces the tasks, else nothing."""
    from toolkit.crew.solver.conditions import condition_of

    return {} if condition_of(view["mission"]) is None else {"mission": view["mission"]}


def _rule(view: Mapping[str, Any]) -> str:
    """The rule id of a sampled card choice: the tasks', or the mission condition's."""
    from toolkit.crew.solver.conditions import condition_of

    return "bots.crew.sampled" if condition_of(view["mission"]) is None else "bots.crew.sampled-condition"


def _solver_hands(view, hands) -> list:
    return [list(h) for h in hands]


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:.1f}"
