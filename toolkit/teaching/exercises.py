"""Checked exercises drawn from seeds: predict, then the engine grades and explains.

``generate(kind, seed)`` builds an :class:`Exercise` from a ``numpy`` Generator seeded with ``seed`` (the same
seed always gives the same exercise, so "another one" is just the next seed). The right answer and its
explanation are computed by the engine when the exercise is built; :meth:`Exercise.grade` compares the
learner's answer — untrusted input — with it. An answer that is not one of the choices (forged text, a
number, ``None``, NaN) raises :class:`~toolkit.teaching.lesson.AnswerError` and grades nothing.

Kinds:

* ``crew.trick_winner`` — four cards in a trick: which one wins?
* ``crew.may_play`` — a hand, a led card and one card of the hand: may it be played?
* ``tranquility.placement_cost`` — a sea grid and an island card for an empty cell: how many discards?
* ``deepblue.bust_above_third`` — the bag and what was drawn: is the next draw's bust chance above 1 in 3?
* ``pirats.space_reached`` — occupied crew spaces, a pirat and its cards: which space does it reach?
* ``crew.sonar`` — may this card be shown with the sonar, and with the token where?
* ``crew.task_status`` — after these (random legal) tricks, is this task done, failed or not decided?
* ``crew.captain`` — who is the captain of this deal? ``crew.task_draw`` — how many tasks reach the difficulty?
* ``tranquility.may_place`` — may this island go there with this many cards in hand?
* ``tranquility.feasible`` — with these numbers gone, can the grid still be completed?
* ``deepblue.dive_score`` — what do the gems of a safe dive score? ``deepblue.busts`` — does this gem bust?
* ``deepblue.hire`` — is this payment enough for market slot k?
* ``pirats.score`` — how many points does this treasure pile score?
* ``pirats.move_cost`` — how many cards leave the hand for this move (cockroach discount, raccoon tolls)?
* ``crew.rulebook``, ``tranquility.rulebook``, ``pirats.rulebook`` — the rule texts' own worked examples, one
  per seed in turn (``seed % n``), each on an engine position; the prompt names the source. Deep Blue's rule
  text works no example through, so it has none. ``crew.rulebook_tricks``/``_tasks``/``_sonar`` and
  ``pirats.rulebook_scoring``/``_boarding``/``_powers`` ask one topic's examples only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping

import numpy as np

from toolkit.core.errors import IllegalMoveError, RuleError
from toolkit.core.explain import Event, Violation
from toolkit.core.i18n import Term
from toolkit.teaching.lesson import AnswerError, Choice, checked_choice

MAX_SEED = 2**32 - 1


@dataclass(frozen=True)
class Grade:
    """The engine's verdict on an answer: right or not, and the explanation (with its rule id)."""

    correct: bool
    chosen: str
    answer: str
    explanation: Violation | Event

    def text(self, lang: str) -> str:
        return self.explanation.text(lang)


@dataclass(frozen=True)
class Exercise:
    """One question: ``prompt`` (message code + ``params``), ``choices``, and what to draw (``board``: plain
    data such as card codes or a grid). The answer is kept with the exercise, computed by the engine."""

    kind: str
    seed: int
    prompt: str
    params: Mapping[str, Any]
    choices: tuple[Choice, ...]
    board: Mapping[str, Any]
    rule: str
    _answer: str = field(repr=False)
    _explanation: Violation | Event = field(repr=False)

    def grade(self, answer: Any) -> Grade:
        """Grade ``answer`` (one of the choices' values). A forged answer raises :class:`AnswerError`."""
        value = checked_choice(self.choices, answer)
        return Grade(value == self._answer, value, self._answer, self._explanation)

    @property
    def right_choice(self) -> str:
        """The right choice's value (for tests and the "show me" of a view)."""
        return self._answer


def _yes_no() -> tuple[Choice, ...]:
    return (Choice("yes", "teach.yes"), Choice("no", "teach.no"))


# ---- The Crew -------------------------------------------------------------------------------------------
def _crew_trick_winner(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.crew.cards import cards, suit_term, trick_winner

    deck = list(cards(" ".join(f"{s}{v}" for s in "BGYP" for v in range(1, 10)) + " S1 S2 S3 S4"))
    lead_suit = "BGYP"[int(rng.integers(4))]
    led = [c for c in deck if c.suit == lead_suit]
    first = led[int(rng.integers(len(led)))]
    rest = [c for c in deck if c != first]
    # followers mostly follow the led colour, sometimes not, sometimes with a submarine
    same = [c for c in rest if c.suit == lead_suit]
    plays = [first]
    for _ in range(3):
        pool = same if rng.random() < 0.6 and same else rest
        card = pool[int(rng.integers(len(pool)))]
        plays.append(card)
        same = [c for c in same if c != card]
        rest = [c for c in rest if c != card]
    i = trick_winner(plays)
    win = plays[i]
    if win.is_submarine:
        why = Event("TEACH_EX_WINS_SUBMARINE", "crew.trick.winner", card=win)
    else:
        why = Event("TEACH_EX_WINS_LED", "crew.trick.winner", card=win, colour=suit_term(plays[0].suit))
    choices = tuple(Choice(str(k), "teach.ex.card_choice", {"card": c}) for k, c in enumerate(plays))
    return Exercise("crew.trick_winner", seed, "teach.ex.crew.trick_winner", {}, choices,
                    {"trick": [str(c) for c in plays]}, "crew.trick.winner", str(i), why)


def _crew_may_play(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.crew.cards import cards, suit_term, why_illegal_play

    deck = list(cards(" ".join(f"{s}{v}" for s in "BGYP" for v in range(1, 10)) + " S1 S2 S3 S4"))
    order = rng.permutation(len(deck))
    led = deck[int(order[0])]
    hand = sorted((deck[int(k)] for k in order[1:6]), key=lambda c: ("BGYPS".index(c.suit), c.value))
    card = hand[int(rng.integers(len(hand)))]
    violation = why_illegal_play(hand, card, led)
    if violation is None:
        answer, why = "yes", Event("TEACH_EX_MAY_PLAY", "crew.trick.follow", card=card, led=led,
                                   colour=suit_term(led.suit))
    else:
        answer, why = "no", violation
    return Exercise("crew.may_play", seed, "teach.ex.crew.may_play", {"card": card, "led": led}, _yes_no(),
                    {"hand": [str(c) for c in hand], "led": str(led), "card": str(card)},
                    "crew.trick.follow", answer, why)


# ---- Tranquility ----------------------------------------------------------------------------------------
def _tranquility_placement_cost(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.tranquility.grid import placement_cost

    # a few islands in ascending order along the sequence, then a number for an empty cell between them
    for _attempt in range(50):
        cells = sorted(int(c) for c in rng.choice(36, size=int(rng.integers(3, 7)), replace=False))
        numbers = sorted(int(n) for n in rng.choice(np.arange(1, 81), size=len(cells), replace=False))
        grid = dict(zip(cells, numbers))
        alone = rng.random() < 0.15          # now and then a cell with no neighbour: it costs nothing
        empty = [i for i in range(36) if i not in grid and ((i - 1 in grid or i + 1 in grid) != alone)]
        if not empty:
            continue
        index = empty[int(rng.integers(len(empty)))]
        low = max([n for c, n in grid.items() if c < index], default=0) + 1
        high = min([n for c, n in grid.items() if c > index], default=81) - 1
        near = [n for n in range(low, high + 1) if n not in numbers]
        if not near:
            continue
        # prefer numbers close to a neighbour, so costs of 0-4 are common
        neighbours = [grid[c] for c in (index - 1, index + 1) if c in grid]
        near.sort(key=lambda n: min((abs(n - m) for m in neighbours), default=0))
        number = near[int(rng.integers(min(len(near), 5)))]
        try:
            cost = placement_cost(grid, index, number)
        except IllegalMoveError:
            continue
        break
    else:  # pragma: no cover - 50 draws without a placeable number is practically impossible
        raise RuleError(f"no placement exercise for seed {seed}")
    answer = str(cost) if cost < 4 else "4+"
    choices = tuple(Choice(v, "teach.ex.cost_choice", {"n": v}) for v in ("0", "1", "2", "3", "4+"))
    row, column = index // 6 + 1, index % 6 + 1
    why = (Event("TEACH_EX_COST", "tranquility.place.cost", number=number, cost=cost,
                 neighbours=", ".join(str(m) for m in neighbours)) if neighbours
           else Event("TEACH_EX_COST_FREE", "tranquility.place.cost", number=number))
    return Exercise("tranquility.placement_cost", seed, "teach.ex.tranquility.cost",
                    {"number": number, "row": row, "column": column}, choices,
                    {"grid": {str(c): n for c, n in grid.items()}, "index": index, "number": number},
                    "tranquility.place.cost", answer, why)


def _tranquility_deal(rng: np.random.Generator, seed: int) -> Exercise:
    """The deal (ルール「準備」): the islands and finish cards (and sea monsters) dealt as evenly as possible —
    how many cards does a player with the fewest get, before the start cards are shuffled in? Counted on the
    engine's own opening state."""
    from toolkit.tranquility.engine import ENGINE as TRANQUILITY

    players = int(rng.integers(2, 6))
    monsters = int(rng.choice([0, 0, 3, 4, 5]))
    state = TRANQUILITY.new_state(int(rng.integers(0, 2**31)), players=players, monsters=monsters)
    # pile + hand, less the one start card every seat shuffled into its pile
    dealt = [len(pile) + len(hand) - 1 for pile, hand in zip(state.piles, state.hands)]
    fewest, total = min(dealt), sum(dealt)
    # the usual mistakes: the monsters forgotten, the finish cards forgotten, rounding up
    wrong = [(total - monsters) // players, (total - 5) // players, -(-total // players)]
    choices = _number_choices(fewest, wrong, rng)
    why = Event("TEACH_EX_TRANQ_DEAL" if fewest < max(dealt) else "TEACH_EX_TRANQ_DEAL_EVEN", "tranquility.setup.deal", cards=total, players=players, fewest=fewest,
                most=max(dealt), monsters=monsters)
    prompt = "teach.ex.tranquility.deal_monsters" if monsters else "teach.ex.tranquility.deal"
    return Exercise("tranquility.deal", seed, prompt, {"players": players, "monsters": monsters}, choices,
                    {"players": players, "monsters": monsters}, "tranquility.setup.deal", str(fewest), why)


# ---- Deep Blue ------------------------------------------------------------------------------------------
def _deepblue_bust_above_third(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.deepblue.risk import bust_chance

    bag = {"silver": int(rng.integers(2, 9)), "gold": int(rng.integers(0, 5)), "red": int(rng.integers(0, 3)),
           "black": int(rng.integers(1, 10)), "blue": int(rng.integers(1, 10))}
    drawn = [c for c, p in (("black", 0.7), ("blue", 0.7), ("silver", 0.5)) if rng.random() < p]
    chance = bust_chance(bag, drawn=drawn)
    answer = "yes" if chance > Fraction(1, 3) else "no"
    gems = [Term(f"deepblue.gem.{c}") for c in drawn] or [Term("teach.ex.nothing")]
    why = Event("TEACH_EX_BUST", "deepblue.dive.bust", num=chance.numerator, den=chance.denominator,
                percent=round(float(chance) * 100))
    return Exercise("deepblue.bust_above_third", seed, "teach.ex.deepblue.bust",
                    {"drawn": gems, **{c: n for c, n in bag.items()}}, _yes_no(),
                    {"bag": bag, "drawn": drawn}, "deepblue.dive.bust", answer, why)


# ---- Sewer Pirats ---------------------------------------------------------------------------------------
def _pirats_space_reached(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.pirats.boarding import crew_path

    start = int(rng.integers(0, 3))                     # 0: from the player's area
    others = [s for s in (1, 2, 3) if s != start]
    occupied = sorted(int(s) for s in others if rng.random() < 0.5)
    free = sum(1 for s in (1, 2, 3) if s > start and s not in occupied)
    if free == 0 and rng.random() < 0.7:                # mostly leave room ahead
        occupied = [s for s in occupied if s < start]
        free = sum(1 for s in (1, 2, 3) if s > start and s not in occupied)
    # mostly a move that fits; now and then one card too many (the engine then refuses it)
    cards = int(rng.integers(1, max(free, 1) + 1)) + (1 if rng.random() < 0.2 else 0)
    path = crew_path(frozenset(occupied), start, cards)
    if isinstance(path, Violation):                     # past space 3: the engine's refusal is the answer
        answer, why = "none", path
    else:
        answer, why = str(path[0]), Event("TEACH_EX_SPACE", "pirats.move.skip-occupied", space=path[0],
                                          jumped=", ".join(map(str, path[1])) or "-")
    choices = (*(Choice(str(n), "teach.ex.space_choice", {"n": n}) for n in (1, 2, 3)),
               Choice("none", "teach.ex.no_space"))
    where = Term("teach.ex.from_area") if start == 0 else Term(f"teach.ex.from_space_{start}")
    return Exercise("pirats.space_reached", seed, "teach.ex.pirats.space",
                    {"cards": cards, "where": where,
                     "occupied": ", ".join(map(str, occupied)) or Term("teach.ex.nothing_aboard")},
                    choices, {"occupied": occupied, "start": start, "cards": cards},
                    "pirats.move.skip-occupied", answer, why)


# ---- more kinds: one or more per rule notebook ---------------------------------------------------------
@dataclass(frozen=True)
class _Phrase:
    """A translated phrase with its own parameters, used as a parameter of a longer message."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()

    def text(self, lang: str = "en") -> str:
        from toolkit.core.i18n import translate
        return translate(self.key, lang, dict(self.params))


def _number_choices(right: int, wrong: list[int], rng: np.random.Generator, label: str = "teach.ex.cost_choice"
                    ) -> tuple[Choice, ...]:
    """Four numeric choices: the engine's ``right`` number and three distinct plausible wrong ones (the
    mistakes a learner makes, then neighbours), sorted so the position gives nothing away."""
    values = [right]
    for w in wrong + [right + d for d in (1, -1, 2, -2, 3, 4, 5, 6)]:
        if w >= 0 and w not in values:
            values.append(w)
        if len(values) == 4:
            break
    return tuple(Choice(str(v), label, {"n": v}) for v in sorted(values))


def _crew_deck():
    from toolkit.crew.cards import deck
    return list(deck())


def _crew_sonar(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.crew.cards import sonar_options, suit_term, why_illegal_sonar

    full = _crew_deck()
    order = rng.permutation(len(full))
    hand = sorted((full[int(k)] for k in order[:int(rng.integers(6, 11))]),
                  key=lambda c: ("BGYPS".index(c.suit), c.value))
    card = hand[int(rng.integers(len(hand)))]
    position = sonar_options(hand).get(card)
    if position is None:
        answer, why = "none", why_illegal_sonar(hand, card, "top")
    else:
        group = sorted(c for c in hand if c.suit == card.suit)
        answer = position
        why = Event("TEACH_EX_SONAR", "crew.sonar.position", card=card, position=Term(f"crew.sonar.{position}"),
                    colour=suit_term(card.suit), cards=group)
    choices = (*(Choice(p, f"crew.sonar.{p}") for p in ("top", "middle", "bottom")),
               Choice("none", "teach.ex.sonar_none"))
    return Exercise("crew.sonar", seed, "teach.ex.crew.sonar", {"card": card}, choices,
                    {"hand": [str(c) for c in hand], "card": str(card)}, "crew.sonar.position", answer, why)


def _crew_random_tricks(rng: np.random.Generator, players: int, count: int):
    """A seeded deal and ``count`` tricks played with random legal cards (the engine's follow rule and
    trick winner decide who leads next)."""
    from toolkit.crew.cards import Trick, deal, legal_plays, trick_winner

    hands = [list(h) for h in deal(players, int(rng.integers(0, 2**31)))]
    leader = next(i for i, h in enumerate(hands) if any(str(c) == "S4" for c in h))
    tricks = []
    for _ in range(count):
        plays = []
        for k in range(players):
            seat = (leader + k) % players
            options = legal_plays(hands[seat], plays[0] if plays else None)
            card = options[int(rng.integers(len(options)))]
            hands[seat].remove(card)
            plays.append(card)
        tricks.append(Trick(leader, tuple(plays)))
        leader = (leader + trick_winner(plays)) % players
    return leader, tricks


def _crew_task_status(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.crew.tasks import get_task, task_status

    players = 4
    count = int(rng.integers(1, 5))
    _leader, tricks = _crew_random_tricks(rng, players, count)
    captain = tricks[0].leader
    ids = [i for i in range(1, 97) if not get_task(i).needs_prediction]
    # aim for each status about as often: random tasks are rarely done after a few random tricks
    want = ("done", "failed", "pending")[int(rng.integers(3))]
    task = owner = status = None
    for _attempt in range(60):
        task = ids[int(rng.integers(len(ids)))]
        owner = int(rng.integers(players))
        if get_task(task).captain_comparison and owner == captain:
            owner = (owner + 1) % players       # the captain cannot take a task that compares with the captain
        status = task_status(task, owner, tricks, players, captain=captain)
        if status == want:
            break
    answer = status
    why = Event("TEACH_EX_TASK_STATUS", "crew.task.judge", task=get_task(task), seat=owner,
                status=Term(f"teach.ex.status.{status}"), tricks=len(tricks))
    choices = tuple(Choice(v, f"teach.ex.status.{v}") for v in ("done", "failed", "pending"))
    return Exercise("crew.task_status", seed, "teach.ex.crew.task_status",
                    {"task": get_task(task), "owner": owner, "tricks": len(tricks)}, choices,
                    {"tricks": [[t.leader, [str(c) for c in t.cards]] for t in tricks], "task": task,
                     "owner": owner, "captain": captain, "players": players},
                    "crew.task.judge", answer, why)


def _crew_captain(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.crew.engine import ENGINE as CREW

    players = int(rng.choice([3, 4, 5]))
    state = CREW.new_state(int(rng.integers(0, 2**31)), players=players, mission=1)
    captain = state.captain
    why = Event("TEACH_EX_CAPTAIN", "crew.alloc.captain", seat=captain)
    choices = tuple(Choice(str(k), "teach.ex.seat_choice", {"n": k}) for k in range(players))
    return Exercise("crew.captain", seed, "teach.ex.crew.captain", {"players": players}, choices,
                    {"hands": [[str(c) for c in h] for h in state.hands]}, "crew.alloc.captain",
                    str(captain), why)


def _crew_task_draw(rng: np.random.Generator, seed: int) -> Exercise:
    """Drawing tasks to a mission's difficulty: from the top of the task deck, how many tasks are taken?"""
    from toolkit.crew.tasks import select_tasks

    for _attempt in range(50):
        target = int(rng.integers(3, 11))
        deck = [int(d) for d in rng.integers(1, 5, size=8)]
        try:
            taken = select_tasks(deck, target)
        except IllegalMoveError:             # the eight cards cannot make the target: draw another deck
            continue
        break
    else:  # pragma: no cover - 50 decks of eight that all miss the target are practically impossible
        raise RuleError(f"no task-draw exercise for seed {seed}")
    # the usual mistakes: stopping at the first task that overshoots, or taking tasks until the total passes
    stop_first, total = 0, 0
    for d in deck:
        if total + d > target:
            break
        stop_first, total = stop_first + 1, total + d
    until_past, total = 0, 0
    for d in deck:
        until_past, total = until_past + 1, total + d
        if total >= target:
            break
    choices = _number_choices(len(taken), [stop_first, until_past], rng)
    why = Event("TEACH_EX_TASK_DRAW", "crew.tasks.draw", n=len(taken), target=target,
                taken=" + ".join(str(deck[i]) for i in taken),
                skipped=[deck[i] for i in range(taken[-1] + 1) if i not in taken] or "-")
    return Exercise("crew.task_draw", seed, "teach.ex.crew.task_draw",
                    {"target": target, "deck": list(deck)}, choices,
                    {"deck": deck, "target": target}, "crew.tasks.draw", str(len(taken)), why)


# ---- Tranquility ----------------------------------------------------------------------------------------
def _tranquility_may_place(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.tranquility.grid import raw_cost, to_grid, why_illegal_placement

    cells = sorted(int(c) for c in rng.choice(36, size=int(rng.integers(3, 8)), replace=False))
    numbers = sorted(int(n) for n in rng.choice(np.arange(1, 81), size=len(cells), replace=False))
    grid = dict(zip(cells, numbers))
    empty = [i for i in range(36) if i not in grid]
    near = [i for i in empty if i - 1 in grid or i + 1 in grid]
    index = (near or empty)[int(rng.integers(len(near or empty)))]
    neighbours = [grid[c] for c in (index - 1, index + 1) if c in grid]
    low = max([n for c, n in grid.items() if c < index], default=0) + 1
    high = min([n for c, n in grid.items() if c > index], default=81) - 1
    if neighbours and low <= high and rng.random() < 0.75:
        # mostly a number that keeps the order, near a neighbour: then the cost limit decides
        base = neighbours[int(rng.integers(len(neighbours)))]
        number = int(np.clip(base + int(rng.integers(-6, 7)), low, high))
    else:
        number = int(rng.integers(1, 81))
    while number in numbers:
        number = number % 80 + 1
    hand = int(rng.integers(2, 6))
    violation = why_illegal_placement(grid, index, number, hand_size=hand)
    if violation is None:
        answer = "yes"
        why = Event("TEACH_EX_MAY_PLACE", "tranquility.place.cost-limit", number=number,
                    cost=raw_cost(to_grid(grid), index, number), left=hand - 1)
    else:
        answer, why = "no", violation
    row, column = index // 6 + 1, index % 6 + 1
    return Exercise("tranquility.may_place", seed, "teach.ex.tranquility.may_place",
                    {"number": number, "row": row, "column": column, "hand": hand}, _yes_no(),
                    {"grid": {str(c): n for c, n in grid.items()}, "index": index, "number": number, "hand": hand},
                    why.rule, answer, why)


def _tranquility_feasible(rng: np.random.Generator, seed: int) -> Exercise:
    """Can the grid still be completed? A run of empty cells between two islands, some numbers gone."""
    from toolkit.tranquility.analysis import RULE as FEASIBLE
    from toolkit.tranquility.analysis import feasibility

    run = int(rng.integers(1, 5))
    first = int(rng.integers(0, 36 - run - 1))
    last = first + run + 1
    slack = int(rng.integers(0, 3))
    # the cells before and after the two islands keep enough numbers, so the question is about the run
    low = int(rng.integers(first + 1, 80 - (35 - last) - run - slack))
    high = low + run + 1 + slack
    grid = {first: low, last: high}
    between = list(range(low + 1, high))
    gone = sorted(int(n) for n in rng.choice(between, size=min(len(between), int(rng.integers(0, slack + 2))),
                                              replace=False))
    report = feasibility(grid, gone)
    if report.feasible:
        answer = "yes"
        tight = next(g for g in report.gaps if g.first == first + 1)
        why = Event("TEACH_EX_FEASIBLE", FEASIBLE, empty=tight.empty, low=low, high=high,
                    available=len(tight.available))
    else:
        answer, why = "no", report.reasons()[0]
    return Exercise("tranquility.feasible", seed, "teach.ex.tranquility.feasible",
                    {"gone": list(gone) or Term("teach.ex.nothing_gone")}, _yes_no(),
                    {"grid": {str(c): n for c, n in grid.items()}, "index": -1, "number": "", "gone": gone},
                    FEASIBLE, answer, why)


# ---- Deep Blue ------------------------------------------------------------------------------------------
def _deepblue_dive_score(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.deepblue.engine import ENGINE as DEEPBLUE

    pool = ["silver", "silver", "silver", "gold", "gold", "red", "green", "purple", "black", "blue"]
    drawn = [pool[int(k)] for k in rng.choice(len(pool), size=int(rng.integers(2, 7)), replace=False)]
    spot = [None, None, "silver", "gold", "red"][int(rng.integers(5))]
    vp = DEEPBLUE.treasure_vp(tuple(drawn), spot)
    plain = DEEPBLUE.treasure_vp(tuple(drawn), None)
    counted_all = vp + sum(1 for c in drawn if c in ("green", "purple", "black", "blue"))
    choices = _number_choices(vp, [plain, counted_all, len(drawn)], rng)
    gems = [Term(f"deepblue.gem.{c}") for c in drawn]
    where = Term(f"teach.ex.spot.{spot}") if spot else Term("teach.ex.spot.none")
    why = Event("TEACH_EX_DIVE_SCORE", "deepblue.dive.score", vp=vp, gems=gems, spot=where)
    return Exercise("deepblue.dive_score", seed, "teach.ex.deepblue.dive_score", {"gems": gems, "spot": where},
                    choices, {"drawn": drawn, "spot": spot}, "deepblue.dive.score", str(vp), why)


@dataclass(frozen=True)
class _Named:
    """A component's name in both languages (the component data carries them)."""

    names: tuple[tuple[str, str], ...]

    def text(self, lang: str = "en") -> str:
        names = dict(self.names)
        return names.get(lang, names["en"])


def _deepblue_hire(rng: np.random.Generator, seed: int) -> Exercise:
    """Hiring from the market: the card in slot k costs k; is this payment (cash cards and tokens) enough?
    Asked on a real engine position and graded by the engine's own check of the Hire move."""
    from dataclasses import replace

    from toolkit.deepblue.engine import ENGINE as DEEPBLUE
    from toolkit.deepblue.model import Hire

    state = DEEPBLUE.new_state(int(rng.integers(0, 2**31)), players=3)
    seat = DEEPBLUE.current_player(state)
    tokens = int(rng.integers(0, 3))
    players = list(state.players)
    players[seat] = replace(players[seat], tokens=tokens + int(rng.integers(0, 2)))
    state = replace(state, players=tuple(players))
    cash_cards = [c for c in state.players[seat].hand if DEEPBLUE.components.card(c).cash > 0]
    cards = tuple(c for c in cash_cards if rng.random() < 0.6)
    slot = int(rng.integers(1, len(state.market) + 1))
    move = Hire(seat, slot, cards, tokens)
    violation = DEEPBLUE.why_illegal(state, move)
    paid = sum(DEEPBLUE.components.card(c).cash for c in cards) + tokens
    if violation is None:
        answer = "yes"
        why = Event("TEACH_EX_HIRE_OK", "deepblue.hire.pay", paid=paid, price=slot)
    else:
        answer, why = "no", violation

    def named(card_id: int) -> _Named:
        return _Named(tuple(sorted(DEEPBLUE.components.card(card_id).name.items())))

    pay = [_Phrase("teach.ex.deepblue.cash_card", (("name", named(c)), ("cash", DEEPBLUE.components.card(c).cash)))
           for c in cards] or [Term("teach.ex.no_cards")]
    return Exercise("deepblue.hire", seed, "teach.ex.deepblue.hire",
                    {"slot": slot, "card": named(state.market[slot - 1]), "pay": pay, "tokens": tokens}, _yes_no(),
                    {"slot": slot, "cash": [DEEPBLUE.components.card(c).cash for c in cards], "tokens": tokens},
                    why.rule, answer, why)


def _deepblue_busts(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.deepblue.risk import survival

    # what was drawn so far (dangers already drawn were survived) and the protections still left
    drawn = {"silver": int(rng.integers(0, 3)), "black": int(rng.integers(0, 3)), "blue": int(rng.integers(0, 3))}
    shields = {"black": int(rng.random() < 0.2), "blue": int(rng.random() < 0.2), "any": int(rng.random() < 0.15)}
    nxt = ["black", "blue", "silver", "gold"][int(rng.choice(4, p=[0.4, 0.4, 0.1, 0.1]))]
    alive = survival({nxt: 1}, 1, drawn=drawn, shields=shields) == 1
    answer = "no" if alive else "yes"
    params = {"next": Term(f"deepblue.gem.{nxt}"), "black": drawn["black"], "blue": drawn["blue"],
              "silver": drawn["silver"], "sb": shields["black"], "su": shields["blue"], "sa": shields["any"]}
    why = Event("TEACH_EX_BUSTS" if not alive else "TEACH_EX_SAFE", "deepblue.dive.bust", **params)
    return Exercise("deepblue.busts", seed, "teach.ex.deepblue.busts", params, _yes_no(),
                    {"drawn": drawn, "shields": shields, "next": nxt}, "deepblue.dive.bust", answer, why)


# ---- Sewer Pirats ---------------------------------------------------------------------------------------
def _pirats_pile(rng: np.random.Generator) -> list[str]:
    from toolkit.pirats.tokens import DEFAULT_BOX

    loot = list(DEFAULT_BOX.loot)
    bonus = ["ketchup", "chili", "milkshake", "parrot", "opener"]
    pile = [str(loot[int(k)]) for k in rng.choice(len(loot), size=int(rng.integers(2, 5)), replace=False)]
    pile += [bonus[int(k)] for k in rng.choice(len(bonus), size=int(rng.integers(1, 3)), replace=True)]
    return pile


@dataclass(frozen=True)
class _SheetLines:
    """A score sheet on one line (the feedback is a single paragraph): its lines joined with " / "."""

    sheet: Any

    def text(self, lang: str = "en") -> str:
        return " / ".join(line.text(lang) for line in self.sheet.lines)


def _pirats_score(rng: np.random.Generator, seed: int, pile: list[str] | None = None,
                  kind: str = "pirats.score", prompt: str = "teach.ex.pirats.score",
                  extra: Mapping[str, Any] | None = None) -> Exercise:
    from toolkit.pirats.tokens import parse_tokens, score_sheet

    pile = pile or _pirats_pile(rng)
    sheet = score_sheet(pile)
    face = sum(t.value for t in parse_tokens(pile))           # the usual mistake: every token at face value
    # the other usual mistake: forgetting that ketchup, chili and milkshake raise every matching food token
    boosted = ("pirats.score.fries", "pirats.score.noodles", "pirats.score.burger")
    no_boosts = (sum(line.points for line in sheet.lines if not line.rule.startswith(boosted))
                 + sum(t.value for t in parse_tokens(pile) if t.kind in ("fries", "noodles", "burger")))
    choices = _number_choices(sheet.total, [face, no_boosts], rng)
    rule = max(sheet.lines, key=lambda line: line.points).rule
    why = Event("TEACH_EX_PIRATS_SCORE", rule, total=sheet.total, sheet=_SheetLines(sheet))
    return Exercise(kind, seed, prompt, {"pile": parse_tokens(pile), **(extra or {})}, choices, {"pile": pile},
                    rule, str(sheet.total), why)


def _pirats_move_cost(rng: np.random.Generator, seed: int) -> Exercise:
    """A cockroach or a rat boards the cat ship past other players' pirats (some of them raccoons): how many
    cards leave the mover's hand? Played on a real engine position; the engine's refusal is an answer too."""
    from toolkit.pirats.engine import ENGINE as PIRATS
    from toolkit.pirats.model import MovePirat
    from toolkit.pirats.positions import place_pirats, set_hand

    crew = ["cockroach", "raccoon", "rat", "snail"]
    mover = ["cockroach", "rat"][int(rng.integers(2))]
    state = PIRATS.new_state(int(rng.integers(0, 2**31)), players=4, species=crew)
    occupied = sorted(int(s) for s in rng.choice([1, 2, 3], size=int(rng.integers(0, 3)), replace=False))
    figures = {}
    for space in occupied:
        seat = int(rng.integers(1, 4))
        species = "raccoon" if rng.random() < 0.6 else "snail"
        figures[space] = (seat, crew.index(species))
    # one figure per seat and species: two raccoons of one seat would be the same figure
    used: set = set()
    for space in list(figures):
        while figures[space] in used:
            figures[space] = (figures[space][0] % 3 + 1, figures[space][1])
        used.add(figures[space])
    state = place_pirats(state, "cat", figures)
    free = 3 - len(occupied)
    steps = int(rng.integers(1, max(free, 1) + 1))
    held = int(rng.integers(0, 4))
    state = set_hand(state, 0, (held, 0, 0))
    move = MovePirat(mover, "cat", steps)
    before = sum(state.hands[0])
    violation = PIRATS.why_illegal(state, move)
    if violation is not None:
        answer, why = "refused", violation
    else:
        after, _events = PIRATS.transition(state, move)
        paid = before - sum(after.hands[0])
        answer = str(paid) if paid < 3 else "3+"
        landing = [n for n in (1, 2, 3) if n not in occupied][steps - 1]
        tolls = any(crew[f] == "raccoon" for n, (_s, f) in figures.items() if n < landing)
        rule = ("pirats.power.raccoon" if tolls else "pirats.power.cockroach" if mover == "cockroach"
                else "pirats.move.match")
        why = Event("TEACH_EX_PIRATS_PAID", rule, paid=paid, steps=steps, species=Term(f"pirats.species.{mover}"))
    choices = (*(Choice(v, "teach.ex.cost_choice", {"n": v}) for v in ("0", "1", "2", "3+")),
               Choice("refused", "teach.ex.not_allowed"))
    others = ", ".join(f"{n}: {crew[f]}" for n, (_s, f) in sorted(figures.items()))
    return Exercise("pirats.move_cost", seed, "teach.ex.pirats.move_cost",
                    {"species": Term(f"pirats.species.{mover}"), "steps": steps, "held": held,
                     "others": [_Phrase("teach.ex.pirats.other_on", (("space", n), ("species", Term(f"pirats.species.{crew[f]}"))))
                                for n, (_s, f) in sorted(figures.items())] or Term("teach.ex.nothing_aboard")},
                    choices, {"occupied": occupied, "others": others, "start": 0, "cards": held},
                    why.rule, answer, why)


def _pirats_auction_price(rng: np.random.Generator, seed: int) -> Exercise:
    """The crew auction (ヴァリアント：競り): a real bar after a few hires; the lowest bid that opens the auction
    on one figure, found by asking the engine about every bid (its refusals say why)."""
    from toolkit.pirats.engine import ENGINE as PIRATS
    from toolkit.pirats.model import OpenAuction

    state = PIRATS.new_state(int(rng.integers(0, 2**31)), players=int(rng.integers(3, 5)), variant="auction")
    hires = int(rng.integers(1, 5))
    while sum(sp is None for sp in state.auction.bar) < hires or state.phase != "auction":
        moves = PIRATS.legal_moves(state, PIRATS.decider(state))
        # cheap bids keep cards in hand for the question's opener
        move = min(moves, key=lambda m: (getattr(m, "bid", 0) + getattr(m, "amount", 0), int(rng.integers(1000))))
        state = PIRATS.apply(state, move)
    bar = state.auction.bar
    seated = [i for i, sp in enumerate(bar) if sp is not None]
    # a figure behind the front one: the price is the question (the front one is free, said in the rules)
    stool = int(rng.choice(seated[1:] if len(seated) > 1 else seated)) + 1
    price = next(b for b in range(len(bar) + 1)
                 if getattr(PIRATS.why_illegal(state, OpenAuction(stool, b)), "code", "") != "PIRATS_BELOW_MINIMUM")
    # the usual mistake: counting the empty stools in front too (the stool's number less one)
    choices = _number_choices(price, [stool - 1, price + 1], rng)
    species = Term(f"pirats.species.{bar[stool - 1]}")
    empty = stool - 1 - price
    why = Event("TEACH_EX_PIRATS_AUCTION_PRICE", "pirats.auction.minimum-price", price=price, empty=empty,
                species=species)
    return Exercise("pirats.auction_price", seed, "teach.ex.pirats.auction_price", {"stool": stool, "species": species},
                    choices, {"bar": list(bar), "stool": stool}, "pirats.auction.minimum-price", str(price), why)


# ---- the rule books' own worked examples, on engine positions ------------------------------------------
def _crew_rulebook(rng: np.random.Generator, seed: int) -> Exercise:
    """The rule text's pink-9 example (ルール「トリック」の例), asked in five steps, played on the engine; then
    the BGA help's sonar example (1, 2, 5 and 7 of one colour: only the 1 and the 7 may be shown)."""
    from toolkit.crew.cards import card, suit_term, why_illegal_play
    from toolkit.crew.engine import ENGINE as CREW
    from toolkit.crew.examples import PINK_NINE_MOVES, pink_nine
    from toolkit.crew.tasks import get_task

    step = seed % 7
    if step >= 5:
        from toolkit.crew.cards import sonar_options, why_illegal_sonar
        hand = ["P1", "P2", "P5", "P7"]
        shown = card(("P7", "P2")[step - 5])
        position = sonar_options(hand).get(shown)
        if position is None:
            answer, why = "none", why_illegal_sonar(hand, shown, "top")
        else:
            answer = position
            why = Event("TEACH_EX_SONAR", "crew.sonar.position", card=shown, position=Term(f"crew.sonar.{position}"),
                        colour=suit_term(shown.suit), cards=[card(c) for c in hand])
        choices = (*(Choice(p, f"crew.sonar.{p}") for p in ("top", "middle", "bottom")),
                   Choice("none", "teach.ex.sonar_none"))
        return Exercise("crew.rulebook", seed, "teach.ex.rulebook.crew_sonar",
                        {"source": Term("teach.ex.src.crew_bga_sonar"), "card": shown}, choices,
                        {"hand": hand, "card": str(shown)}, "crew.sonar.position", answer, why)
    state = pink_nine()
    states = [state]
    for m in PINK_NINE_MOVES:
        state, _ev = CREW.transition(state, CREW.parse_move(m))
        states.append(state)
    source = Term("teach.ex.src.crew_pink9")
    if step in (0, 3):                       # who wins trick 1 / trick 2
        trick = states[-1].tricks[step // 3]
        won = trick.winner
        plays = list(trick.cards)
        why = (Event("TEACH_EX_WINS_SUBMARINE", "crew.trick.winner", card=plays[won]) if plays[won].is_submarine
               else Event("TEACH_EX_WINS_LED", "crew.trick.winner", card=plays[won], colour=suit_term(plays[0].suit)))
        choices = tuple(Choice(str(k), "teach.ex.card_choice", {"card": c}) for k, c in enumerate(plays))
        return Exercise("crew.rulebook", seed, "teach.ex.rulebook.crew_trick", {"source": source, "n": step // 3 + 1},
                        choices, {"trick": [str(c) for c in plays]}, "crew.trick.winner", str(won), why)
    if step == 1:                            # may seat 2 play yellow 2 on pink 9?
        before = states[3]                   # after take 78, P9, P7: seat 2 to play
        hand = before.hands[2]
        y2, led = card("Y2"), card("P9")
        violation = why_illegal_play(hand, y2, led)
        answer = "yes" if violation is None else "no"
        why = violation or Event("TEACH_EX_MAY_PLAY", "crew.trick.follow", card=y2, led=led, colour=suit_term("P"))
        return Exercise("crew.rulebook", seed, "teach.ex.rulebook.crew_may_play", {"source": source},
                        _yes_no(), {"hand": [str(c) for c in hand], "led": "P9", "card": "Y2"},
                        "crew.trick.follow", answer, why)
    after = states[5] if step == 2 else states[-1]   # after trick 1 / trick 2
    status = after.statuses[0]
    why = Event("TEACH_EX_TASK_STATUS", "crew.task.judge", task=get_task(78), seat=0,
                status=Term(f"teach.ex.status.{status}"), tricks=len(after.tricks))
    choices = tuple(Choice(v, f"teach.ex.status.{v}") for v in ("done", "failed", "pending"))
    return Exercise("crew.rulebook", seed, "teach.ex.rulebook.crew_task",
                    {"source": source, "task": get_task(78), "tricks": len(after.tricks)}, choices,
                    {"tricks": [[t.leader, [str(c) for c in t.cards]] for t in after.tricks], "task": 78,
                     "owner": 0, "captain": 0, "players": 4}, "crew.task.judge", status, why)


#: Tranquility's worked cases: (grid, cell, number, hand size, source message). The rule text (「カードを
#: プレイする」2.) says the ends of rows 1 and 2 are neighbours in the sequence but the right ends of rows 1
#: and 2 are not; between two cards the smaller difference is paid; no placement costs four or more of the
#: cards left in hand. The 6 between 3 and 7 is the help page's example (notebook tranquility/01).
TRANQUILITY_RULEBOOK = (
    ({5: 20}, 6, 23, 5, "teach.ex.src.tranq_row_ends"),
    ({5: 20}, 11, 23, 5, "teach.ex.src.tranq_row_right"),
    ({2: 3, 4: 7}, 3, 6, 5, "teach.ex.src.tranq_between"),
    ({10: 30}, 11, 36, 5, "teach.ex.src.tranq_limit"),
)


def _tranquility_rulebook(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.tranquility.grid import placement_cost, why_illegal_placement

    grid, index, number, hand, source = TRANQUILITY_RULEBOOK[seed % len(TRANQUILITY_RULEBOOK)]
    row, column = index // 6 + 1, index % 6 + 1
    violation = why_illegal_placement(grid, index, number, hand_size=hand)
    choices = tuple(Choice(v, "teach.ex.cost_choice", {"n": v}) for v in ("0", "1", "2", "3", "4+")) + (
        Choice("refused", "teach.ex.not_allowed"),)
    if violation is not None:
        answer, why = "refused", violation
    else:
        cost = placement_cost(grid, index, number)
        answer = str(cost) if cost < 4 else "4+"
        neighbours = [grid[c] for c in (index - 1, index + 1) if c in grid]
        why = (Event("TEACH_EX_COST", "tranquility.place.cost", number=number, cost=cost,
                     neighbours=", ".join(map(str, neighbours))) if neighbours
               else Event("TEACH_EX_COST_FREE", "tranquility.place.cost", number=number))
    return Exercise("tranquility.rulebook", seed, "teach.ex.rulebook.tranquility",
                    {"source": Term(source), "number": number, "row": row, "column": column, "hand": hand},
                    choices, {"grid": {str(c): n for c, n in grid.items()}, "index": index, "number": number},
                    why.rule, answer, why)


#: Sewer Pirats' worked examples: the fries (「フレンチフライ」例: 2 and 3 with one ketchup score 15) and the
#: three boarding examples (「クルーになる」例: green from the area with up to 3 cards; blue's rat from space 1
#: past red's cockroach on 2 with one card; yellow from the area to space 3 with one card).
PIRATS_RULEBOOK_MOVES = (
    ((), 0, 2, "teach.ex.src.pirats_green"),
    ((2,), 1, 1, "teach.ex.src.pirats_blue"),
    ((1, 2), 0, 1, "teach.ex.src.pirats_yellow"),
)


def _pirats_rulebook(rng: np.random.Generator, seed: int) -> Exercise:
    from toolkit.pirats.engine import ENGINE as PIRATS
    from toolkit.pirats.model import MovePirat
    from toolkit.pirats.positions import boarding_state

    step = seed % (3 + len(PIRATS_RULEBOOK_MOVES))
    if step > len(PIRATS_RULEBOOK_MOVES):
        return _pirats_toad(seed, seat=(1, 0)[step - len(PIRATS_RULEBOOK_MOVES) - 1])
    if step == 0:
        return _pirats_score(rng, seed, ["fries 2", "fries 3", "ketchup"], "pirats.rulebook",
                             "teach.ex.rulebook.pirats_score", {"source": Term("teach.ex.src.pirats_fries")})
    occupied, start, cards, source = PIRATS_RULEBOOK_MOVES[step - 1]
    state = boarding_state(occupied=set(occupied) | ({start} if start else set()), start=start, cards=cards)
    # the engine moves the pirat: the space it ends on is the answer
    before = {n for n, p in enumerate(state.ships[0].spaces[:3], 1) if p is not None and p.seat == 0}
    after, _ev = PIRATS.transition(state, MovePirat(_figure_on(state, start), "cat", cards))
    now = {n for n, p in enumerate(after.ships[0].spaces[:3], 1) if p is not None and p.seat == 0}
    space = max(now - before)                 # the one crew space seat 0 newly holds
    jumped = [n for n in occupied if start < n < space]
    why = Event("TEACH_EX_SPACE", "pirats.move.skip-occupied", space=space, jumped=", ".join(map(str, jumped)) or "-")
    choices = tuple(Choice(str(n), "teach.ex.space_choice", {"n": n}) for n in (1, 2, 3))
    where = Term("teach.ex.from_area") if start == 0 else Term(f"teach.ex.from_space_{start}")
    return Exercise("pirats.rulebook", seed, "teach.ex.rulebook.pirats_move",
                    {"source": Term(source), "cards": cards, "where": where,
                     "occupied": ", ".join(map(str, occupied)) or Term("teach.ex.nothing_aboard")}, choices,
                    {"occupied": list(occupied), "start": start, "cards": cards}, "pirats.move.skip-occupied",
                    str(space), why)


def _pirats_toad(seed: int, seat: int) -> Exercise:
    """The rule book's toad example (「ヒキガエル」): blue's weasel, captain of the cat ship, sets sail; green
    (seat 1, already captain of the bird ship) has a toad on space 3, red (seat 0, no captain) one on space 2.
    Both stay aboard instead of taking loot: where does ``seat``'s toad end up? Played on the engine."""
    from dataclasses import replace

    from toolkit.pirats.engine import ENGINE as PIRATS
    from toolkit.pirats.positions import place_pirats, set_front_flotsam

    state = PIRATS.new_state(1, players=4, species=["rat", "weasel", "snail", "toad"])
    state = place_pirats(state, "bird", {4: (1, 2)})
    state = place_pirats(state, "cat", {4: (3, 1), 3: (1, 3), 2: (0, 3)})
    state = set_front_flotsam(state, "cat", ("fries 2", "burger 4", "can 8"), "ketchup")
    state = replace(state, turn=3)
    start = {1: 3, 0: 2}[seat]
    events = []
    for move in ("sail cat", "take can 8", "stay", "stay"):
        state, new = PIRATS.transition(state, PIRATS.parse_move(move))
        events += new
    spaces = state.ships[0].spaces
    where = next(n for n, p in enumerate(spaces, 1) if p is not None and p.seat == seat and p.figure == 3)
    answer = "captain" if where == 4 else str(where)
    why = [e for e in events if e.seat == seat and e.rule in ("pirats.power.toad", "pirats.captain.one-per-player")][-1]
    choices = (*(Choice(str(n), "teach.ex.space_choice", {"n": n}) for n in (1, 2, 3)),
               Choice("captain", "teach.ex.captain_space"))
    colour = Term("teach.ex.pirats.green" if seat == 1 else "teach.ex.pirats.red")
    return Exercise("pirats.rulebook", seed, "teach.ex.rulebook.pirats_toad",
                    {"source": Term("teach.ex.src.pirats_toad"), "who": colour, "space": start}, choices,
                    {"occupied": [n for n in (2, 3, 4) if n != start], "start": start, "cards": 0},
                    why.rule, answer, why)


def _figure_on(state: Any, start: int) -> str:
    """The label of seat 0's figure to move: the one on crew space ``start``, or one still in the area."""
    from toolkit.pirats.model import figure_label

    crew = state.crews[0]
    if start:
        return figure_label(crew, state.ships[0].spaces[start - 1].figure)
    aboard = {p.figure for ship in state.ships for p in ship.spaces if p is not None and p.seat == 0}
    return figure_label(crew, next(i for i in range(len(crew)) if i not in aboard))


def _topic(base: Callable[[np.random.Generator, int], Exercise], kind: str, steps: tuple[int, ...]
           ) -> Callable[[np.random.Generator, int], Exercise]:
    """A rule book's examples on one topic only (a notebook asks the ones it teaches): seed by seed through
    ``steps`` of ``base``'s cycle."""
    def generate_topic(rng: np.random.Generator, seed: int) -> Exercise:
        from dataclasses import replace
        return replace(base(rng, steps[seed % len(steps)]), kind=kind, seed=seed)
    return generate_topic


#: the rule books' examples by topic: steps of the ``*.rulebook`` cycles
RULEBOOK_TOPICS = {
    "crew.rulebook_tricks": ("crew.rulebook", (0, 1, 3)),
    "crew.rulebook_tasks": ("crew.rulebook", (2, 4)),
    "crew.rulebook_sonar": ("crew.rulebook", (5, 6)),
    "pirats.rulebook_scoring": ("pirats.rulebook", (0,)),
    "pirats.rulebook_boarding": ("pirats.rulebook", (1, 2, 3)),
    "pirats.rulebook_powers": ("pirats.rulebook", (4, 5)),
}

GENERATORS: dict[str, Callable[[np.random.Generator, int], Exercise]] = {
    "pirats.space_reached": _pirats_space_reached,
    "crew.trick_winner": _crew_trick_winner,
    "crew.may_play": _crew_may_play,
    "tranquility.placement_cost": _tranquility_placement_cost,
    "deepblue.bust_above_third": _deepblue_bust_above_third,
    "crew.sonar": _crew_sonar,
    "crew.task_status": _crew_task_status,
    "crew.captain": _crew_captain,
    "crew.task_draw": _crew_task_draw,
    "tranquility.may_place": _tranquility_may_place,
    "tranquility.feasible": _tranquility_feasible,
    "deepblue.dive_score": _deepblue_dive_score,
    "deepblue.busts": _deepblue_busts,
    "deepblue.hire": _deepblue_hire,
    "pirats.score": _pirats_score,
    "pirats.move_cost": _pirats_move_cost,
    "pirats.auction_price": _pirats_auction_price,
    "tranquility.deal": _tranquility_deal,
    "crew.rulebook": _crew_rulebook,
    "tranquility.rulebook": _tranquility_rulebook,
    "pirats.rulebook": _pirats_rulebook,
}
GENERATORS.update({kind: _topic(GENERATORS[base], kind, steps) for kind, (base, steps) in RULEBOOK_TOPICS.items()})
KINDS = tuple(GENERATORS)


def generate(kind: str, seed: int) -> Exercise:
    """The exercise of ``kind`` for ``seed`` (deterministic). Unknown kinds and bad seeds raise
    :class:`RuleError` / :class:`TypeError` naming the parameter."""
    if not isinstance(kind, str) or kind not in GENERATORS:
        raise RuleError(f"kind={str(kind)[:40]!r} is not an exercise kind: use one of {', '.join(KINDS)}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be a whole number, not {type(seed).__name__}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise RuleError(f"seed={int(seed)} is out of range 0..{MAX_SEED}")
    return GENERATORS[kind](np.random.default_rng(int(seed)), int(seed))


class ExerciseRound:
    """A short round of checked exercises and its score: ``size`` questions (or endless with ``None``), the
    ``kinds`` in turn from consecutive seeds, so the same ``seed`` always asks the same questions.

    Only a question's first answer counts: a learner who saw the right answer cannot click it to score. A
    forged answer raises :class:`AnswerError` and changes nothing (no grade, no score).

    >>> r = ExerciseRound(["crew.may_play"], seed=5, size=3)
    >>> g = r.answer(r.exercise.right_choice)
    >>> (r.right, r.answered, r.number, r.finished)
    (1, 1, 1, False)
    >>> _ = r.another(); (r.number, r.grade)
    (2, None)
    """

    def __init__(self, kinds: tuple[str, ...] | list[str] = KINDS, seed: int = 0, size: int | None = None):
        self.kinds = tuple(kinds) or KINDS
        for kind in self.kinds:
            generate(kind, 0)       # an unknown kind is refused here, with the kinds listed
        if size is not None and (isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 20):
            raise TypeError(f"size must be a whole number from 1 to 20 or None, not {size!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
            raise TypeError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
        self.seed = int(seed)
        self.size = size
        self.count = 0              # questions asked before this one, over every round
        self.right = 0              # this round's first answers that were right
        self.answered = 0           # this round's questions answered
        self.number = 1             # this question's number in the round (1-based)
        self.grade: Grade | None = None
        self.exercise = self._make()

    def _make(self) -> Exercise:
        # kinds in turn; each kind's seed goes up by one a round, so a kind whose seeds cycle through a fixed
        # list (the rule books' examples) reaches every entry whatever the number of kinds
        kind = self.kinds[self.count % len(self.kinds)]
        return generate(kind, (self.seed + self.count // len(self.kinds)) % (MAX_SEED + 1))

    @property
    def finished(self) -> bool:
        """The round's last question is answered (then :meth:`another` starts a new round)."""
        return self.size is not None and self.number == self.size and self.grade is not None

    def answer(self, value: Any) -> Grade:
        """Grade ``value`` (untrusted). The first answer to a question counts; later ones are shown but not
        scored. A forged answer raises :class:`AnswerError` before anything changes."""
        grade = self.exercise.grade(value)
        if self.grade is None:
            self.answered += 1
            self.right += grade.correct
        self.grade = grade
        return grade

    def another(self) -> Exercise:
        """The next question; after a finished round, the first question of a new round (score from 0)."""
        if self.finished:
            self.right = self.answered = 0
            self.number = 0
        self.count += 1
        self.number += 1
        self.grade = None
        self.exercise = self._make()
        return self.exercise


__all__ = ["AnswerError", "Exercise", "ExerciseRound", "Grade", "KINDS", "generate"]
