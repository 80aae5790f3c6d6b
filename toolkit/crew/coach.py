"""The double-dummy coach: where was a played mission lost, and how could it have been won?

:func:`post_mortem` replays a mission with every hand known. After each card it asks the solver
(:func:`toolkit.crew.solve`) whether some legal line of play could still fulfil every task, finds the first
card after which none could (``lost_after``) and a winning line from the start of that trick
(``alternative``): the same cards up to the fatal one, another card there, then on to a success.

:func:`allocation_review` answers the other question of a post-mortem: with these hands, which ways of
handing out the same tasks would have been winnable?

:func:`close_calls` reviews a won attempt (or a lost one up to its fatal card) from the other side: at each
card played while the mission was winnable, which of the seat's legal cards would have kept it winnable?
A card that was the only one is a close call — the moment a learner got right, or nearly did not.

Everything is built on the solver's public API. A position in the middle of a trick is decided by
trying the legal completions of that trick (the solver starts at trick boundaries): the mission is still
winnable after a card if some completion of the trick leaves a winnable position. Verdicts never go from
``False`` back to ``True`` along a line, so only the trick in which the verdict flips is examined card by
card.

>>> hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
>>> pm = post_mortem(hands, {3: [76]}, [(0, ["B1", "B2", "B3", "B4"])])   # seat 3: win the last trick
>>> pm.winnable_at_start, pm.verdicts, pm.lost_after
(True, (False, False, False, False), (0, 0))
>>> pm.alternative
[Trick(0, ['P9', 'P1', 'P2', 'P3']), Trick(0, ['B1', 'B2', 'B3', 'B4'])]
>>> pm.explain()[:58]
'The mission was lost after seat 1 played blue 1 in trick 1'

"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Any, Iterable, Mapping, Sequence

from toolkit.core.checks import check_int, one_of
from toolkit.core.errors import InvalidMoveError
from toolkit.core.explain import Violation
from toolkit.crew.cards import Card, Trick, legal_plays, why_illegal_play

__all__ = ["AllocationReview", "Choice", "CloseCalls", "PostMortem", "allocation_review", "close_calls",
           "mission_allocation_rules", "mission_allocations", "post_mortem"]


@dataclass(frozen=True)
class PostMortem:
    """The double-dummy review of a played mission (see :func:`post_mortem`).

    ``winnable_at_start``: was the deal winnable for this allocation (``None``: the solver stopped at its
    node limit). ``verdicts``: one per card played, in play order — was the mission still winnable after
    it. ``lost_after``: ``(trick_index, card_index)`` (from 0) of the first card after which the mission was
    lost while it was winnable before, else ``None``. ``alternative``: a winning line of complete
    :class:`~toolkit.crew.cards.Trick` s from the start of the trick that holds that card (the same cards up
    to it, another card at it, then on to success); empty when ``lost_after`` is ``None``. ``tricks``: the
    played tricks as ``(leader, cards)``; ``reason``: the solver's reason when the deal was not winnable;
    ``mission``: the mission whose condition replaced the tasks (8, 12, 21, 23, 27), else ``None``.
    """

    winnable_at_start: bool | None
    verdicts: tuple[bool | None, ...]
    lost_after: tuple[int, int] | None
    alternative: list = field(default_factory=list)
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    seats: int = 4
    reason: Violation | None = None
    mission: int | None = None

    def seat_of(self, trick_index: int, card_index: int) -> int:
        """The seat that played card ``card_index`` of trick ``trick_index``."""
        leader, _ = self.tricks[trick_index]
        return (leader + card_index) % self.seats

    @property
    def lost_card(self) -> tuple[int, Card] | None:
        """``(seat, card)`` of the fatal card, or ``None``."""
        if self.lost_after is None:
            return None
        t, k = self.lost_after
        return self.seat_of(t, k), self.tricks[t][1][k]

    @property
    def instead(self) -> Card | None:
        """The card the alternative plays in place of the fatal one."""
        if self.lost_after is None or not self.alternative:
            return None
        return self.alternative[0].cards[self.lost_after[1]]

    def explain(self, lang: str = "en") -> str:
        """The verdict in one or two sentences, in ``lang`` (``"en"`` or ``"ja"``)."""
        from toolkit.core.i18n import check_language, translate

        check_language(lang)
        kind = "" if self.mission is None else "_CONDITION"
        if self.winnable_at_start is False:
            text = translate(f"CREW_COACH_NOT_WINNABLE{kind}", lang, mission=self.mission)
            return text if self.reason is None else f"{text} {self.reason.text(lang)}"
        if self.lost_after is not None:
            t, k = self.lost_after
            seat, card = self.lost_card
            line = " / ".join(" ".join(str(c) for c in tr.cards) for tr in self.alternative)
            return translate(f"CREW_COACH_LOST{kind}", lang, seat=seat, card=card, trick=t + 1,
                             instead=self.instead, line=line, mission=self.mission)
        if self.winnable_at_start is None or None in self.verdicts:
            return translate("CREW_COACH_UNDECIDED", lang)
        return translate("CREW_COACH_NEVER_LOST", lang, cards=len(self.verdicts))


@dataclass(frozen=True)
class AllocationReview:
    """Which allocations of the same tasks were winnable with these hands (see :func:`allocation_review`).

    ``allocations``: ``((allocation, winnable), ...)`` where an allocation maps each seat to the tuple of its
    task ids (seats without a task are left out) and ``winnable`` is ``True``/``False``/``None`` (stopped).
    ``played``: the allocation that was played (``None`` when it is not one of the reviewed ones).
    """

    allocations: tuple[tuple[Mapping[int, tuple[int, ...]], bool | None], ...]
    played: Mapping[int, tuple[int, ...]] | None = None
    rules: tuple[str, ...] = ()
    mission: int | None = None

    @property
    def winnable(self) -> list[Mapping[int, tuple[int, ...]]]:
        return [a for a, w in self.allocations if w]

    def restriction(self, lang: str = "en") -> str:
        """Which rules decided the allocations reviewed, by their titles in ``lang``."""
        from toolkit.core.rules import get

        return "; ".join(get(r).title.get(lang, get(r).title["en"]) for r in self.rules)

    def explain(self, lang: str = "en") -> str:
        from toolkit.core.i18n import check_language, translate

        check_language(lang)
        good = self.winnable
        text = translate("CREW_COACH_ALLOCATIONS", lang, winnable=len(good), total=len(self.allocations))
        if self.rules:
            text += " " + translate("CREW_COACH_ALLOCATION_RULES", lang, rules=self.restriction(lang))
        return text


# ---- input ------------------------------------------------------------------------------------------
def _parse_hands(hands: Any) -> list[list[Card]]:
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise TypeError(f"hands must be a list of hands (one list of cards per seat), not {hands!r:.80}")
    if not 3 <= len(hands) <= 5:
        raise InvalidMoveError(f"hands must hold 3 to 5 hands (TONOJA counts as a seat), not {len(hands)}")
    out = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)):
            hand = hand.split()
        if not isinstance(hand, Iterable):
            raise TypeError(f"hands[{seat}] must be a list of cards, not {hand!r:.80}")
        if isinstance(hand, Sequence) and len(hand) > 40:
            raise InvalidMoveError(f"hands[{seat}] holds {len(hand)} cards; the deck has 40")
        try:
            out.append([Card.parse(c) for c in hand])
        except (TypeError, ValueError) as exc:
            raise InvalidMoveError(f"hands[{seat}]: {exc}") from None
    return out


def _parse_tricks(tricks: Any, seats: int) -> list[tuple[int, tuple[Card, ...]]]:
    if isinstance(tricks, (str, bytes)) or not isinstance(tricks, Sequence):
        raise TypeError(f"tricks must be a list of tricks, not {tricks!r:.80}")
    if len(tricks) > 40 // seats + 1:
        raise InvalidMoveError(f"tricks holds {len(tricks)} tricks; a mission at {seats} seats has at most "
                               f"{40 // seats if seats != 3 else 13}")
    out = []
    for k, t in enumerate(tricks):
        if isinstance(t, Trick):
            leader, cards = t.leader, t.cards
        elif isinstance(t, Mapping) and "leader" in t and "cards" in t:
            leader, cards = t["leader"], t["cards"]
        elif isinstance(t, Sequence) and not isinstance(t, (str, bytes)) and len(t) == 2:
            leader, cards = t
        else:
            raise TypeError(f"tricks[{k}] must be a Trick or (leader, cards), not {t!r:.80}")
        if isinstance(leader, bool) or not isinstance(leader, int):
            raise TypeError(f"tricks[{k}]: the leader must be a seat number, not {leader!r:.40}")
        if not 0 <= leader < seats:
            raise InvalidMoveError(f"tricks[{k}]: the leader must be a seat from 0 to {seats - 1}, not {leader}")
        if isinstance(cards, (str, bytes)):
            cards = cards.split()
        if not isinstance(cards, Iterable):
            raise TypeError(f"tricks[{k}]: the cards must be a list, not {cards!r:.80}")
        try:
            parsed = tuple(Card.parse(c) for c in cards)
        except (TypeError, ValueError) as exc:
            raise InvalidMoveError(f"tricks[{k}]: {exc}") from None
        last = k == len(tricks) - 1
        if not (1 <= len(parsed) <= seats if last else len(parsed) == seats):
            raise InvalidMoveError(f"tricks[{k}] has {len(parsed)} cards; a trick has one card per seat "
                                   f"({seats}) — only the last may be incomplete")
        out.append((leader, parsed))
    return out


def _check_bool_free_int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a seat number (int), not {value!r:.40}")
    return value


def _tasks_with_predictions(tasks: Any, predictions: Any) -> dict[int, list]:
    if not isinstance(tasks, Mapping):
        raise TypeError(f"tasks must map a seat to its task ids, like {{0: [17]}}, not {tasks!r:.80}")
    if predictions is None:
        predictions = {}
    if not isinstance(predictions, Mapping):
        raise TypeError(f"predictions must map a task id (or (seat, task id)) to its X, not {predictions!r:.80}")
    out: dict[int, list] = {}
    for seat, ids in tasks.items():
        if isinstance(ids, (int, str)) or not isinstance(ids, Iterable):
            ids = [ids]
        items = []
        for item in ids:
            if not isinstance(item, (tuple, list)):
                x = predictions.get((seat, item), predictions.get(item))
                if x is not None:
                    item = (item, x)
            items.append(item)
        out[seat] = items
    return out


def _replay(hands: list[list[Card]], tricks: list[tuple[int, tuple[Card, ...]]], leader: int,
            cover: Mapping[Card, Card] | None = None) -> None:
    """Check that ``tricks`` were played legally from ``hands`` (leaders, follow rule, own cards; with
    ``cover``, TONOJA's face-down card -> the card above it, TONOJA plays from its uncovered cards)."""
    held = [list(h) for h in hands]
    expected = leader
    for k, (lead, cards) in enumerate(tricks):
        if lead != expected:
            who = "the leader" if k == 0 else f"the winner of tricks[{k - 1}]"
            raise InvalidMoveError(f"tricks[{k}] is led by seat {lead}, but {who} (seat {expected}) leads it")
        for i, c in enumerate(cards):
            seat = (lead + i) % len(hands)
            v = why_illegal_play(_playable(held, seat, cover), c, cards[0] if i else None)
            if v is not None:
                raise InvalidMoveError(f"tricks[{k}] card {i} ({c}, seat {seat}): {v.message}")
            held[seat].remove(c)
        if len(cards) == len(hands):
            expected = Trick(lead, cards).winner


def _playable(held: Sequence[Sequence[Card]], seat: int, cover: Mapping[Card, Card] | None) -> Sequence[Card]:
    """The cards ``seat`` may play from ``held`` at a trick's start (TONOJA: not the ones still face down)."""
    from toolkit.crew.solver.api import TONOJA_SEAT, _uncovered

    return _uncovered(held[seat], cover) if cover and seat == TONOJA_SEAT else held[seat]


# ---- the review -------------------------------------------------------------------------------------
class _Reviewer:
    def __init__(self, hands, tasks, captain, node_limit, mission=None, columns=None):
        from toolkit.crew.solver import solve

        self.solve = solve
        # two players: TONOJA's columns as dealt (checked by the first ``after``), and as a card map
        self.columns = columns
        self.cover: dict[Card, Card] = {}
        self.hands, self.tasks, self.captain, self.node_limit = hands, tasks, captain, node_limit
        self.mission = mission   # a mission whose condition replaces the tasks (see toolkit.crew.solver.conditions)
        self.seats = len(hands)
        self.leader = 0          # who leads the first trick (set by _review_setup)
        self.method = "auto"

    def after(self, history: list[Trick], leader: int, reason: bool = False) -> Any:
        """The solver's answer after the complete tricks ``history`` (``leader`` leads if none).

        ``reason=False`` skips the search for a reason when the answer is "not winnable" (three quarters of
        the time of such a call, and the coach names a reason only for the deal as a whole): the same
        ``prepare`` / search / ``_finish_line`` steps ``solve`` takes, without ``explain_impossible``."""
        left = [list(h) for h in self.hands]
        for t in history:
            for seat, c in zip(t.seats, t.cards):
                left[seat].remove(c)
        lead = None if history else leader
        if reason:
            return self.solve(left, self.tasks, leader=lead, captain=self.captain, played=list(history),
                              node_limit=self.node_limit, mission=self.mission, columns=self.columns)
        from toolkit.crew import solver

        position = solver.prepare(left, self.tasks, lead, self.captain, list(history), self.mission,
                                  columns=self.columns)
        result, search = solver._search_position(position, solver._judges_for(position), self.node_limit, None,
                                                  method=self.method)
        if result is None:
            return solver.Solution(None, nodes=search.nodes, stopped="node_limit", mission=position.mission)
        if result is False or result == "failed":
            return solver.Solution(False, nodes=search.nodes, mission=position.mission)
        line, predictions = solver._finish_line(position, result)
        return solver.Solution(True, line=line, nodes=search.nodes, predictions=predictions,
                               mission=position.mission)

    @staticmethod
    def sat_available() -> bool:
        from toolkit.crew import solver

        return bool(solver._sat_available())

    def sat_review(self, leader: int, played: list[tuple[int, tuple[Card, ...]]]) -> tuple[list, Any, list]:
        """(verdicts, lost_after, alternative) from one SAT model of the whole mission.

        The solver's SAT clauses (``P(card, trick)``: the card is played in that trick; legality, winners and
        every task's final condition) are loaded once; "still winnable after card i" is the same clauses
        under the assumptions that the first i + 1 cards were played where they were — one incremental call
        per card, and none while the previous answer's line still agrees with the cards played."""
        import sys

        from pysat.solvers import Solver
        from toolkit.crew import solver

        position = solver.prepare(self.hands, self.tasks, leader, self.captain, mission=self.mission,
                                  columns=self.columns)
        model = solver._sat_model(position, solver._judges_for(position))
        name = getattr(sys.modules[type(model).__module__], "SAT_SOLVER", "cd195")
        sat = Solver(name=name, bootstrap_with=model.cnf.clauses)
        try:
            assumptions: list[int] = []
            flat: list[tuple[int, int, int]] = []   # (trick index, card index, code)
            verdicts: list[bool | None] = []
            # the last winning line found: (leader, codes) per trick from trick 1
            if self.node_limit is not None:
                sat.conf_budget(self.node_limit)
            answer = sat.solve_limited() if self.node_limit is not None else sat.solve()
            witness = model.line(sat.get_model()) if answer else None
            lost_after, alternative = None, []
            prev: bool | None = answer
            for t, (lead, cards) in enumerate(played):
                for k, c in enumerate(cards):
                    code = solver.card_code(c)
                    assumptions.append(model.P(code, t + 1))
                    flat.append((t, k, code))
                    if prev is False:
                        verdicts.append(False)
                        continue
                    if witness is not None and witness[t][1][k] == code and witness[t][0] == lead:
                        verdicts.append(True)   # the winning line found before plays this very card
                        continue
                    if self.node_limit is not None:
                        sat.conf_budget(self.node_limit)
                        answer = sat.solve_limited(assumptions=assumptions)
                    else:
                        answer = sat.solve(assumptions=assumptions)
                    if answer:
                        verdicts.append(True)
                        witness = model.line(sat.get_model())
                    else:
                        verdicts.append(None if answer is None else False)
                        if answer is False and prev is True and lost_after is None:
                            lost_after = (t, k)
                            alternative = self._finish(witness, t, played) if witness is not None else []
                        if answer is None:
                            witness = None
                    prev = verdicts[-1]
            return verdicts, lost_after, alternative
        finally:
            sat.delete()

    def sat_winnable(self, leader: int) -> "_SatPrefixes":
        """The SAT clauses of the whole deal, loaded once, to ask "winnable after these cards?" (see
        :class:`_SatPrefixes`); close it after use."""
        return _SatPrefixes(self, leader)

    def _finish(self, witness, t: int, played) -> list:
        """The winning line ``witness`` from trick ``t`` on, replayed and cut by the engine's judge."""
        from toolkit.crew import solver

        history = [Trick(lead, cards) for lead, cards in played[:t]]
        left = [list(h) for h in self.hands]
        for tr in history:
            for seat, c in zip(tr.seats, tr.cards):
                left[seat].remove(c)
        position = solver.prepare(left, self.tasks, None if history else witness[0][0], self.captain, history,
                                  self.mission, columns=self.columns)
        line, _ = solver._finish_line(position, [(lead, tuple(codes)) for lead, codes in witness[t:]])
        return list(line)

    def mid(self, history: list[Trick], lead: int, cards: Sequence[Card]) -> tuple[bool | None, list]:
        """Winnable after the incomplete trick ``cards`` led by ``lead``? ``(verdict, winning line)``: the line
        starts with the completed trick. Tries every legal completion of the trick."""
        left = [list(h) for h in self.hands]
        for t in history:
            for seat, c in zip(t.seats, t.cards):
                left[seat].remove(c)
        for i, c in enumerate(cards):
            left[(lead + i) % self.seats].remove(c)
        undecided = False
        plays = list(cards)

        def go() -> list | None:
            nonlocal undecided
            if len(plays) == self.seats:
                trick = Trick(lead, plays)
                sol = self.after(history + [trick], lead)
                if sol.winnable:
                    return [trick] + list(sol.line)
                undecided |= sol.winnable is None
                return None
            seat = (lead + len(plays)) % self.seats
            # (TONOJA's hand as at the trick's start: it plays once a trick, a card turns up after it)
            for c in legal_plays(list(_playable(left, seat, self.cover)), plays[0]):
                left[seat].remove(c)
                plays.append(c)
                found = go()
                plays.pop()
                left[seat].append(c)
                if found is not None:
                    return found
            return None

        found = go()
        if found is not None:
            return True, found
        return (None if undecided else False), []


class _SatPrefixes:
    """Is the mission winnable once some cards of trick ``t`` are played after the tricks told so far?

    One SAT model of the deal; each question is one incremental call under the assumptions ``P(card,
    trick)`` of the complete tricks told (:meth:`advance`) and of the cards asked about. A winning line
    found is reused while it agrees with all of them."""

    def __init__(self, reviewer: _Reviewer, leader: int):
        import sys

        from pysat.solvers import Solver
        from toolkit.crew import solver

        self.solver = solver
        self.node_limit = reviewer.node_limit
        position = solver.prepare(reviewer.hands, reviewer.tasks, leader, reviewer.captain,
                                  mission=reviewer.mission, columns=reviewer.columns)
        self.model = solver._sat_model(position, solver._judges_for(position))
        name = getattr(sys.modules[type(self.model).__module__], "SAT_SOLVER", "cd195")
        self.sat = Solver(name=name, bootstrap_with=self.model.cnf.clauses)
        self.done: list[int] = []                          # assumptions of the tricks told
        self.tricks: list[tuple[int, tuple[int, ...]]] = []  # the same tricks as (leader, codes)
        self.witness: Any = None                           # the last winning line: (leader, codes) per trick

    def __call__(self, t: int, lead: int, cards: Sequence[Card]) -> bool | None:
        codes = tuple(self.solver.card_code(c) for c in cards)
        w = self.witness
        if (w is not None and list(w[:t]) == self.tricks[:t] and w[t][0] == lead
                and tuple(w[t][1][:len(codes)]) == codes):
            return True
        assumptions = self.done + [self.model.P(code, t + 1) for code in codes]
        if self.node_limit is not None:
            self.sat.conf_budget(self.node_limit)
            answer = self.sat.solve_limited(assumptions=assumptions)
        else:
            answer = self.sat.solve(assumptions=assumptions)
        if answer:
            self.witness = tuple((lead_, tuple(c)) for lead_, c in self.model.line(self.sat.get_model()))
        return answer

    def advance(self, t: int, lead: int, cards: Sequence[Card]) -> None:
        """Trick ``t`` was played as ``cards``: later questions assume it."""
        codes = tuple(self.solver.card_code(c) for c in cards)
        self.done += [self.model.P(code, t + 1) for code in codes]
        self.tricks.append((lead, codes))

    def close(self) -> None:
        self.sat.delete()


def _review_setup(hands, tasks, tricks, leader, captain, predictions, node_limit, mission, columns):
    """:func:`post_mortem`'s and :func:`close_calls`'s arguments checked: ``(reviewer, played tricks, the
    solver's answer for the whole deal)``. The first solve validates hands, tasks, leader, captain,
    node_limit and columns; the tricks are replayed against the rules."""
    parsed_hands = _parse_hands(hands)
    leader = _check_bool_free_int(leader, "leader")
    captain = _check_bool_free_int(captain, "captain")
    all_tasks = _tasks_with_predictions(tasks, predictions)
    played = _parse_tricks(tricks, len(parsed_hands))
    reviewer = _Reviewer(parsed_hands, all_tasks, captain, node_limit, mission, columns)
    reviewer.leader = leader
    start = reviewer.after([], leader, reason=True)
    if columns is not None:
        from toolkit.crew.solver import card_of, prepare

        reviewer.cover = {card_of(down): card_of(up) for down, up in
                          prepare(parsed_hands, all_tasks, leader, captain, columns=columns).columns}
    _replay(parsed_hands, played, leader, reviewer.cover)
    return reviewer, played, start


def post_mortem(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], tricks: Sequence[Any],
                leader: int = 0, captain: int = 0, predictions: Mapping[Any, int] | None = None,
                node_limit: int | None = None, mission: int | None = None, *,
                columns: Iterable[Any] | None = None) -> PostMortem:
    """Double-dummy review of a played mission.

    ``hands``: one list of cards per seat *as dealt* (before the first trick; 3–5 seats, TONOJA's seven
    columns counting as one hand). ``tasks``: ``{seat: [task id, ...]}`` as for :func:`~toolkit.crew.solve`
    (a prediction task as ``(task id, X)``, or bare with ``predictions`` giving X by task id or by
    ``(seat, task id)``; a prediction left open is chosen by the solver). ``tricks``: as played —
    :class:`~toolkit.crew.cards.Trick` s, ``(leader, cards)`` pairs or their JSON; the last one may be
    incomplete. ``leader`` led the first trick (normally the captain). ``node_limit`` bounds each solver
    call (``None`` verdicts when it is reached). ``mission``: the logbook mission; for the missions without
    task cards (8, 12, 21, 23, 27) give ``tasks={}``, and the review keeps the mission's rule instead
    (:mod:`toolkit.crew.solver.conditions`); any other mission changes nothing. ``columns``: two players
    (three hands, TONOJA's seven columns its third): TONOJA's columns *as dealt*, ``(face_down, face_up)``
    pairs (``deal_tonoja``'s second value), so that every verdict and the alternative line respect them
    (a face-down card is played only after the trick of the card above it); without them TONOJA's cards
    count as one hand, all playable at once.

    >>> hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    >>> post_mortem(hands, {3: [76]}, [(0, ["P9", "P1", "P2", "P3"])]).explain()
    'Every one of the 4 cards played kept the mission winnable.'
    """
    reviewer, played, start = _review_setup(hands, tasks, tricks, leader, captain, predictions, node_limit, mission,
                                            columns)
    seats, leader = reviewer.seats, reviewer.leader

    if start.winnable is not False and reviewer.sat_available():
        verdicts, lost_after, alternative = reviewer.sat_review(leader, played)
        return PostMortem(winnable_at_start=start.winnable, verdicts=tuple(verdicts), lost_after=lost_after,
                          alternative=alternative, tricks=tuple(played), seats=seats, reason=None,
                          mission=start.mission)
    verdicts: list[bool | None] = []
    history: list[Trick] = []
    witness: list = list(start.line)   # a winning line from the start of the current trick (when winnable)
    before: bool | None = start.winnable
    lost_after: tuple[int, int] | None = None
    alternative: list = []
    for t, (lead, cards) in enumerate(played):
        complete = len(cards) == seats
        if before is False:   # once lost, lost for good: nothing to solve
            verdicts += [False] * len(cards)
            if complete:
                history.append(Trick(lead, cards))
            continue
        after = reviewer.after(history + [Trick(lead, cards)], lead) if complete else None
        if after is not None and after.winnable:
            verdicts += [True] * seats
            witness = list(after.line)
        else:
            # the verdict flips (or is unknown) inside this trick: judge card by card
            witness_before = witness if before else None
            prev = before
            for k in range(len(cards)):
                if complete and k == seats - 1:
                    verdict, found = after.winnable, []
                elif witness_before and list(witness_before[0].cards[:k + 1]) == list(cards[:k + 1]):
                    verdict, found = True, witness_before   # the winning line from before plays the same
                else:
                    verdict, found = reviewer.mid(history, lead, cards[:k + 1])
                verdicts.append(verdict)
                if lost_after is None and prev is True and verdict is False:
                    lost_after = (t, k)
                    alternative = (witness_before if k == 0 else prev_witness) or []  # noqa: F821 - set at the end of the previous card (k > 0)
                prev, prev_witness = verdict, found  # noqa: F841 - read at the next card
        before = verdicts[-1]
        if complete:
            history.append(Trick(lead, cards))
    return PostMortem(winnable_at_start=start.winnable, verdicts=tuple(verdicts), lost_after=lost_after,
                      alternative=list(alternative), tricks=tuple(played), seats=seats,
                      reason=start.reason if start.winnable is False else None, mission=start.mission)


# ---- close calls ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Choice:
    """One card played while the mission was still winnable, and the seat's other options there.

    ``trick``, ``index``: where the card was played (from 0); ``legal``: every card the seat could legally
    play there; ``keeping``: those after which the mission stayed winnable (``None``: the solver stopped
    at its node limit for one of them)."""

    trick: int
    index: int
    seat: int
    card: Card
    legal: tuple[Card, ...]
    keeping: tuple[Card, ...] | None

    @property
    def only(self) -> bool:
        """The card played was the only legal card that kept the mission winnable (among two or more)."""
        return self.keeping == (self.card,) and len(self.legal) > 1


@dataclass(frozen=True)
class CloseCalls:
    """Every real choice of an attempt (see :func:`close_calls`): cards played while the mission was winnable
    by a seat that held two or more legal cards, in play order."""

    choices: tuple[Choice, ...]

    @property
    def only_cards(self) -> tuple[Choice, ...]:
        """The choices where the card played was the only one that kept the mission winnable."""
        return tuple(c for c in self.choices if c.only)

    def explain(self, lang: str = "en") -> str:
        """One sentence in ``lang``: how many real choices there were, and how many were close calls."""
        from toolkit.core.i18n import check_language, translate

        check_language(lang)
        if not self.choices:
            return translate("CREW_COACH_NO_CHOICES", lang)
        only = self.only_cards
        if not only:
            return translate("CREW_COACH_NO_CLOSE_CALLS", lang, choices=len(self.choices))
        # a list: the message joins it with the language's separator (", " / "、")
        cards = [translate("CREW_COACH_CLOSE_CALL", lang, trick=c.trick + 1, seat=c.seat, card=c.card,
                           legal=len(c.legal)) for c in only]
        return translate("CREW_COACH_CLOSE_CALLS", lang, choices=len(self.choices), n=len(only), cards=cards)


def close_calls(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], tricks: Sequence[Any],
                leader: int = 0, captain: int = 0, predictions: Mapping[Any, int] | None = None,
                node_limit: int | None = None, mission: int | None = None, *,
                columns: Iterable[Any] | None = None) -> CloseCalls:
    """At each card played while the mission was winnable, which legal cards would have kept it winnable?

    The arguments are :func:`post_mortem`'s. Only real choices are listed (two or more legal cards), up to
    the first card after which the mission was lost: after that no card keeps it winnable. The SAT clauses
    of the whole deal are loaded once and asked once per legal card under the cards played so far; without
    the SAT solver each card is decided by :func:`post_mortem`'s trick completion.

    Seat 3 must win the last trick; seat 0 leads P9 first, the only card of its two that keeps that possible
    (the other seats never had a choice):

    >>> hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    >>> calls = close_calls(hands, {3: [76]}, [(0, ["P9", "P1", "P2", "P3"]), (0, ["B1", "B2", "B3", "B4"])])
    >>> [(c.seat, str(c.card), [str(k) for k in c.legal], [str(k) for k in c.keeping]) for c in calls.choices]
    [(0, 'P9', ['B1', 'P9'], ['P9'])]
    >>> calls.explain()
    "Close calls: 1 of 1 real choices, where the card played was the only one that could be played and kept the mission winnable: seat 1's pink 9 in trick 1 (of 2 cards it could play)."
    """
    reviewer, played, start = _review_setup(hands, tasks, tricks, leader, captain, predictions, node_limit, mission,
                                            columns)
    seats, leader = reviewer.seats, reviewer.leader
    if start.winnable is not True:
        return CloseCalls(())
    winnable = reviewer.sat_winnable(leader) if reviewer.sat_available() else None
    held = [list(h) for h in reviewer.hands]
    history: list[Trick] = []
    choices: list[Choice] = []
    try:
        for t, (lead, cards) in enumerate(played):
            at_start = [list(h) for h in held]      # TONOJA plays from the cards uncovered at the trick's start
            for k, card in enumerate(cards):
                seat = (lead + k) % seats
                legal = tuple(legal_plays(_playable(at_start, seat, reviewer.cover), cards[0] if k else None))
                keeping: list[Card] = []
                unknown = False
                for option in legal:
                    prefix = list(cards[:k]) + [option]
                    verdict = winnable(t, lead, prefix) if winnable is not None else reviewer.mid(history, lead,
                                                                                                   prefix)[0]
                    unknown |= verdict is None
                    if verdict:
                        keeping.append(option)
                if len(legal) > 1:
                    choices.append(Choice(t, k, seat, card, legal, None if unknown else tuple(keeping)))
                if card not in keeping:
                    return CloseCalls(tuple(choices))   # lost (or undecided) from here: no more choices
                held[seat].remove(card)
            if len(cards) == seats:
                history.append(Trick(lead, cards))
                if winnable is not None:
                    winnable.advance(t, lead, cards)
    finally:
        if winnable is not None:
            winnable.close()
    return CloseCalls(tuple(choices))


# ---- other allocations ------------------------------------------------------------------------------
def _standard_counts(n_tasks: int, seats: int, captain: int) -> list[tuple[int, ...]]:
    """How many tasks each seat may hold under the standard allocation: with at least as many tasks as
    seats they go round from the captain, so seat captain+i takes ceil((n - i) / seats); with fewer, each
    seat takes at most one."""
    if n_tasks >= seats:
        counts = [0] * seats
        for i in range(n_tasks):
            counts[(captain + i) % seats] += 1
        return [tuple(counts)]
    out = []
    for chosen in combinations(range(seats), n_tasks):
        out.append(tuple(1 if s in chosen else 0 for s in range(seats)))
    return out


def _task_ids(ids: Any) -> tuple[int, ...]:
    """``ids`` as a tuple of task numbers (a ``TypeError`` naming ``ids`` for anything else)."""
    if isinstance(ids, (str, bytes, Mapping)) or not isinstance(ids, Iterable):
        raise TypeError(f"ids must be a sequence of task numbers, not {ids!r:.60}")
    return tuple(check_int("ids", t) for t in ids)


def mission_allocation_rules(mission: int, ids: Sequence[int] = ()) -> tuple[str, ...]:
    """The rule ids that decide who may own ``ids`` in logbook mission ``mission``: the mission's way of
    handing out tasks (:attr:`toolkit.crew.missions.Mission.rule`), its own twists (19: the captain takes
    the hardest task first; 25: the captain takes none) and, with a captain-comparison task among ``ids``,
    the rule that keeps it from the captain.

    >>> mission_allocation_rules(6), mission_allocation_rules(19, [4, 17])
    (('crew.mission.one-member',), ('crew.alloc.order', 'crew.mission.hardest-first', 'crew.alloc.captain-comparison'))
    """
    from toolkit.crew.missions import mission as get_mission
    from toolkit.crew.tasks import get_task

    m = get_mission(check_int("mission", mission))
    ids = _task_ids(ids)
    rules = [m.rule]
    if m.number == 19:
        rules.append("crew.mission.hardest-first")
    if m.number == 25:
        rules.append("crew.mission.captain-no-task")
    if any(get_task(t).captain_comparison for t in ids):
        rules.append("crew.alloc.captain-comparison")
    return tuple(rules)


def mission_allocations(ids: Sequence[int], players: int, captain: int, mission: int,
                        limit: int = 100_000) -> list[tuple[int, ...]]:
    """Every allocation of the task ids ``ids`` (in this order) that mission ``mission`` allows at
    ``players`` players with this ``captain``: tuples of owners, one per task, sorted.

    The answer is the engine's own: a walk over every sequence of legal allocation moves
    (``ENGINE.legal_moves`` in the allocation phase: take/pass clockwise from the captain, assign freely,
    all to one member, the captain takes or gives all, volunteers, mission 19's hardest-first and 25's
    captain without a task), from a state with these tasks and this captain; states reached twice are
    walked once. ``limit`` bounds the states walked (a refusal past it).

    >>> mission_allocations([17, 76], players=4, captain=0, mission=6)   # all to one member
    [(0, 0), (1, 1), (2, 2), (3, 3)]
    >>> len(mission_allocations([17, 76], players=4, captain=0, mission=1))   # one each, or pass: 4 * 3
    12
    """
    from dataclasses import replace

    from toolkit.crew.engine import ENGINE, PENDING
    from toolkit.crew.missions import mission as get_mission

    m = get_mission(check_int("mission", mission))
    ids = _task_ids(ids)
    players = check_int("players", players, 2, 5)
    captain = check_int("captain", captain)
    limit = check_int("limit", limit, 1)
    if not m.has_tasks:
        raise InvalidMoveError(f"mission {mission} has no task cards ({m.condition}): there is no allocation "
                               "to review")
    seats = 3 if players == 2 else players
    if not 0 <= captain < seats or (players == 2 and captain == seats - 1):
        raise InvalidMoveError(f"captain must be a seat from 0 to {seats - 1} (not TONOJA), not {captain}")
    base = ENGINE.new_state(0, players=players, mission=mission)
    n = len(ids)
    state = replace(base, captain=captain, leader=captain, tasks=tuple(ids), owners=(None,) * n,
                    predictions=(None,) * n, statuses=(PENDING,) * n, turn=0, phase="allocate", gave_away=False,
                    task_deck=())
    # the engine's own start of an allocation (a captain who may take none of the tasks is skipped)
    state, _events = ENGINE._advance_allocation(state, m)
    found: set[tuple[int, ...]] = set()
    seen: set[tuple] = set()
    stack = [state]
    while stack:
        st = stack.pop()
        if st.phase != "allocate":
            found.add(tuple(st.owners))
            continue
        key = (st.owners, st.turn)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > limit:
            raise InvalidMoveError(f"more than {limit} allocation states for {n} tasks in mission {mission}")
        for move in ENGINE.legal_moves(st):
            stack.append(ENGINE.apply(st, move))
    return sorted(found)


def allocation_review(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], leader: int = 0,
                      captain: int = 0, rule: str = "standard", node_limit: int | None = None,
                      max_allocations: int = 1024, mission: int | None = None,
                      players: int | None = None, *, columns: Iterable[Any] | None = None) -> AllocationReview:
    """With these ``hands`` (as dealt), which allocations of the same tasks were winnable double-dummy?

    ``tasks`` is the allocation that was played (``{seat: [task id, ...]}``); every other allowed way of
    giving the same task ids to seats is solved too. Which ways are allowed:

    * ``mission`` (a logbook number) — exactly the allocations that mission's own rules allow, as the
      engine enforces them (:func:`mission_allocations`): take or pass clockwise from the captain, free
      assignment, all to one member (mission 6), the captain takes all or gives all to one player (10, 13),
      volunteers (real-time missions), the captain's hardest task first (19), no task for the captain (25).
      ``players`` is 2 with TONOJA (then ``hands`` has three hands), else the number of hands.
      ``columns``: TONOJA's columns as dealt, as for :func:`post_mortem` (implies ``players=2``).
    * without a mission, ``rule="standard"`` keeps the numbers of tasks per seat the standard allocation
      allows (round from the captain when there are at least as many tasks as seats, else at most one
      each); ``rule="any"`` allows any split.

    The captain never gets a captain-comparison task. ``rules`` of the answer names the rule ids that
    restricted the allocations. Prediction tasks are left open (the solver chooses X: another owner would
    predict another number). ``max_allocations`` guards the cost (each allocation is one solver call).

    >>> hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    >>> review = allocation_review(hands, {3: [76]})
    >>> [(dict(a), w) for a, w in review.allocations]
    [({0: (76,)}, True), ({1: (76,)}, False), ({2: (76,)}, False), ({3: (76,)}, True)]
    >>> review = allocation_review(hands, {3: [76, 79]}, mission=6)   # mission 6: one member takes all
    >>> [(dict(a), w) for a, w in review.allocations], review.rules
    ([({0: (76, 79)}, False), ({1: (76, 79)}, False), ({2: (76, 79)}, False), ({3: (76, 79)}, False)], ('crew.mission.one-member',))
    """
    from toolkit.crew.solver import solve
    from toolkit.crew.tasks import get_task

    parsed_hands = _parse_hands(hands)
    seats = len(parsed_hands)
    leader = _check_bool_free_int(leader, "leader")
    captain = _check_bool_free_int(captain, "captain")
    if not one_of(rule, ("standard", "any")):
        raise InvalidMoveError(f"rule must be 'standard' or 'any', not {rule!r:.40}")
    if isinstance(max_allocations, bool) or not isinstance(max_allocations, int):
        raise TypeError(f"max_allocations must be an int, not {max_allocations!r:.40}")
    if mission is not None and (isinstance(mission, bool) or not isinstance(mission, int)):
        raise TypeError(f"mission must be a mission number (int) or None, not {mission!r:.40}")
    if players is None:
        players = 2 if columns is not None else seats
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be an int, not {players!r:.40}")
    if columns is not None and players != 2:
        raise InvalidMoveError(f"columns are TONOJA's, so players must be 2 with them, not {players}")
    if (3 if players == 2 else players) != seats:
        raise InvalidMoveError(f"players={players} needs {3 if players == 2 else players} hands (TONOJA's "
                               f"counts as one with 2 players), not {seats}")
    given = _tasks_with_predictions(tasks, None)
    ids: list[int] = []
    for seat, items in given.items():
        for item in items:
            ids.append(get_task(item[0] if isinstance(item, (tuple, list)) else item).id)
    played_alloc = {seat: tuple(sorted(get_task(i[0] if isinstance(i, (tuple, list)) else i).id for i in items))
                    for seat, items in given.items() if items}
    # validates the input
    solve(parsed_hands, given, leader=leader, captain=captain, node_limit=1, columns=columns)
    ids.sort()
    comparison = any(get_task(t).captain_comparison for t in ids)
    if mission is not None:
        rules = mission_allocation_rules(mission, ids)
        if seats ** len(ids) > 64 * max_allocations:
            raise InvalidMoveError(f"{len(ids)} tasks at {seats} seats: too many allocations to walk "
                                   f"(max_allocations={max_allocations})")
        candidates = mission_allocations(ids, players, captain, mission, limit=64 * max_allocations)
    else:
        rules = ("crew.alloc.order",) if rule == "standard" else ("crew.alloc.free",)
        rules += ("crew.alloc.captain-comparison",) if comparison else ()
        allowed = set(_standard_counts(len(ids), seats, captain)) if rule == "standard" else None
        total = seats ** len(ids)
        if total > 64 * max_allocations:
            raise InvalidMoveError(f"{len(ids)} tasks at {seats} seats give {total} allocations; more than "
                                   f"max_allocations={max_allocations} can be reviewed")
        candidates = []
        for owners in product(range(seats), repeat=len(ids)):
            if any(get_task(t).captain_comparison and o == captain for t, o in zip(ids, owners)):
                continue
            counts = tuple(owners.count(s) for s in range(seats))
            if allowed is not None and counts not in allowed:
                continue
            candidates.append(owners)
    if len(candidates) > max_allocations:
        raise InvalidMoveError(f"{len(candidates)} allocations to review; max_allocations is {max_allocations}")
    results = []
    for owners in candidates:
        alloc: dict[int, tuple[int, ...]] = {}
        for t, o in zip(ids, owners):
            alloc[o] = alloc.get(o, ()) + (t,)
        sol = solve(parsed_hands, {s: list(v) for s, v in alloc.items()}, leader=leader, captain=captain,
                    node_limit=node_limit, columns=columns)
        results.append((dict(sorted(alloc.items())), sol.winnable))
    played = dict(sorted(played_alloc.items()))
    return AllocationReview(tuple(results), played if any(a == played for a, _ in results) else None,
                            rules=rules, mission=mission)
