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


GENERATORS: dict[str, Callable[[np.random.Generator, int], Exercise]] = {
    "pirats.space_reached": _pirats_space_reached,
    "crew.trick_winner": _crew_trick_winner,
    "crew.may_play": _crew_may_play,
    "tranquility.placement_cost": _tranquility_placement_cost,
    "deepblue.bust_above_third": _deepblue_bust_above_third,
}
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


__all__ = ["AnswerError", "Exercise", "Grade", "KINDS", "generate"]
