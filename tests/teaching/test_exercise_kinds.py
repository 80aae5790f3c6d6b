"""The exercise kinds of every rule notebook: each answer agrees with an independent computation through the
engines' public API, each kind is deterministic by seed, forged answers are refused, and the rule books' own
worked examples give the results the rule books state."""

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.core import i18n
from toolkit.crew.cards import why_illegal_sonar
from toolkit.crew.tasks import task_statuses
from toolkit.deepblue.gems import GEM_VP, SPOT_GEM_VP
from toolkit.pirats.tokens import score
from toolkit.teaching.exercises import KINDS, generate
from toolkit.teaching.lesson import AnswerError
from toolkit.tranquility.grid import why_illegal_placement

NEW_KINDS = ("crew.sonar", "crew.task_status", "crew.captain", "crew.task_draw", "tranquility.may_place", "tranquility.feasible", "deepblue.dive_score",
             "deepblue.busts", "deepblue.hire", "pirats.score", "pirats.move_cost", "crew.rulebook", "tranquility.rulebook",
             "pirats.rulebook", "crew.rulebook_tricks", "crew.rulebook_tasks", "crew.rulebook_sonar",
             "pirats.rulebook_scoring", "pirats.rulebook_boarding", "pirats.rulebook_powers",
             "pirats.auction_price", "tranquility.deal")
SEEDS = st.integers(0, 2**32 - 1)


def test_the_new_kinds_are_registered():
    assert set(NEW_KINDS) <= set(KINDS)


@pytest.mark.parametrize("kind", NEW_KINDS)
@settings(max_examples=25, deadline=None)
@given(seed=SEEDS)
def test_deterministic_by_seed_and_the_right_answer_is_one_of_the_choices(kind, seed):
    ex = generate(kind, seed)
    assert ex == generate(kind, seed)
    assert ex.right_choice in {c.value for c in ex.choices}
    assert len({c.value for c in ex.choices}) == len(ex.choices) >= 2
    for lang in ("en", "ja"):
        assert i18n.translate(ex.prompt, lang, dict(ex.params))
        assert all(c.text(lang) for c in ex.choices)


@pytest.mark.parametrize("kind", NEW_KINDS)
@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_wrong_answers_are_explained_with_the_engines_reason(kind, seed):
    ex = generate(kind, seed)
    for choice in ex.choices:
        grade = ex.grade(choice.value)
        assert grade.correct == (choice.value == ex.right_choice)
        assert grade.answer == ex.right_choice
        assert grade.explanation.rule == ex.rule
        assert grade.text("en") and grade.text("ja") and grade.text("en") != grade.text("ja")


FORGED = [None, math.nan, float("inf"), 0, 3, -1, 1.5, True, b"yes", ["yes"], {"yes": 1}, "", " yes", "YES",
          "x" * 1_000_000, "1" * 10_000, "0\x00", "refused; drop table", "４"]


@pytest.mark.parametrize("kind", NEW_KINDS)
@pytest.mark.parametrize("forged", FORGED, ids=lambda v: repr(v)[:20])
def test_forged_answers_are_refused(kind, forged):
    ex = generate(kind, 9)
    with pytest.raises(AnswerError) as info:
        ex.grade(forged)
    assert len(str(info.value)) < 400          # a huge forged string is not echoed back whole
    assert ex == generate(kind, 9)


# ---- the answers, computed independently ---------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_sonar_answer_is_the_one_position_the_engine_accepts(seed):
    ex = generate("crew.sonar", seed)
    accepted = [p for p in ("top", "middle", "bottom")
                if why_illegal_sonar(ex.board["hand"], ex.board["card"], p) is None]
    assert len(accepted) <= 1
    assert ex.right_choice == (accepted[0] if accepted else "none")


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_task_status_is_the_judges_last_status(seed):
    ex = generate("crew.task_status", seed)
    b = ex.board
    statuses = task_statuses(b["task"], b["owner"], [tuple(t) for t in b["tricks"]], b["players"], b["captain"])
    assert ex.right_choice == statuses[-1]


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_the_captain_holds_submarine_four(seed):
    ex = generate("crew.captain", seed)
    holders = [k for k, hand in enumerate(ex.board["hands"]) if "S4" in hand]
    assert ex.right_choice == str(holders[0]) and len(holders) == 1
    assert sum(len(h) for h in ex.board["hands"]) == 40


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_task_draw_counts_the_tasks_that_fit(seed):
    ex = generate("crew.task_draw", seed)
    total = taken = 0
    for d in ex.board["deck"]:              # the draw written out: take what fits, stop at the target
        if total + d <= ex.board["target"]:
            total, taken = total + d, taken + 1
        if total == ex.board["target"]:
            break
    assert total == ex.board["target"] and ex.right_choice == str(taken)


def _hand_cost(grid: dict[int, int], index: int, number: int) -> int | None:
    """Tranquility's placement rule written out: None if the order breaks, else the smaller difference to a
    neighbour in the 36-cell sequence (0 without one)."""
    if index in grid:
        return None
    if any(c < index and n > number or c > index and n < number for c, n in grid.items()):
        return None
    diffs = [abs(grid[c] - number) for c in (index - 1, index + 1) if c in grid]
    return min(diffs, default=0)


@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_may_place_follows_order_and_the_cards_left(seed):
    ex = generate("tranquility.may_place", seed)
    b = ex.board
    grid = {int(k): v for k, v in b["grid"].items()}
    cost = _hand_cost(grid, b["index"], b["number"])
    expected = cost is not None and cost <= b["hand"] - 1
    assert ex.right_choice == ("yes" if expected else "no")
    assert (why_illegal_placement(grid, b["index"], b["number"], hand_size=b["hand"]) is None) == expected


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_feasible_counts_the_unused_numbers_of_each_gap(seed):
    ex = generate("tranquility.feasible", seed)
    grid = [(-1, 0)] + sorted((int(k), v) for k, v in ex.board["grid"].items()) + [(36, 81)]
    gone = set(ex.board["gone"])
    # the data notes' test written out: k empty cells between a < b need k unused numbers strictly between
    ok = all(sum(1 for n in range(a + 1, b) if n not in gone) >= j - i - 1
             for (i, a), (j, b) in itertools.pairwise(grid))
    assert ex.right_choice == ("yes" if ok else "no")


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_dive_score_is_the_gem_values(seed):
    ex = generate("deepblue.dive_score", seed)
    spot = ex.board["spot"]
    expected = sum(SPOT_GEM_VP[c] if c == spot else GEM_VP[c] for c in ex.board["drawn"])
    assert ex.right_choice == str(expected)


@settings(max_examples=80, deadline=None)
@given(SEEDS)
def test_busts_follows_the_warning_and_protections(seed):
    ex = generate("deepblue.busts", seed)
    drawn, shields, nxt = ex.board["drawn"], ex.board["shields"], ex.board["next"]
    # the first black and the first blue are only warnings; a later one busts unless a protection is left
    # for its colour (or one that protects against any)
    danger = nxt in ("black", "blue") and drawn[nxt] >= 1
    assert ex.right_choice == ("yes" if danger and shields[nxt] == 0 and shields["any"] == 0 else "no")


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_hire_price_is_the_slot_number(seed):
    ex = generate("deepblue.hire", seed)
    b = ex.board
    assert ex.right_choice == ("yes" if sum(b["cash"]) + b["tokens"] >= b["slot"] else "no")


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_pirats_score_is_the_public_score(seed):
    ex = generate("pirats.score", seed)
    assert ex.right_choice == str(score(ex.board["pile"]))


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_move_cost_follows_the_rule_text(seed):
    ex = generate("pirats.move_cost", seed)
    b, p = ex.board, dict(ex.params)
    occupied = b["occupied"]
    others = dict(item.split(": ") for item in b["others"].split(", ")) if b["others"] else {}
    steps, held = p["steps"], p["held"]
    cockroach = p["species"].key.endswith("cockroach")
    free = [n for n in (1, 2, 3) if n not in occupied]
    if steps > len(free):
        expected = "refused"
    else:
        landing = free[steps - 1]
        tolls = sum(1 for n, species in others.items() if int(n) < landing and species == "raccoon")
        cost = max(0, steps + tolls - cockroach)
        expected = "refused" if cost > held else (str(cost) if cost < 3 else "3+")
    assert ex.right_choice == expected


@settings(max_examples=40, deadline=None)
@given(SEEDS)
def test_auction_price_follows_the_rule_text(seed):
    """「最も前にある駒は 0 カード, 前から 2 番目の駒は 1 カード」: the figures still at the bar in front count,
    empty stools do not; the engine refuses one card less and takes the price."""
    from toolkit.pirats.engine import ENGINE as PIRATS
    from toolkit.pirats.model import Auction

    ex = generate("pirats.auction_price", seed)
    bar, stool = ex.board["bar"], ex.board["stool"]
    assert bar[stool - 1] is not None and any(sp is None for sp in bar)        # a real bar after some hires
    price = sum(1 for sp in bar[:stool - 1] if sp is not None)
    assert ex.right_choice == str(price)
    assert PIRATS.minimum_price(Auction(tuple(bar), tuple(() for _ in bar), opener=0), stool - 1) == price
    if price:
        assert str(stool - 1) in {c.value for c in ex.choices} or stool - 1 == price   # the usual mistake is offered


@pytest.mark.parametrize("seed", range(30))
def test_the_deal_follows_the_rule_text(seed):
    """「80枚と完了カード5枚を…できるだけ均等に配り」 (3 players: 29, 28, 28), sea monsters mixed in first."""
    ex = generate("tranquility.deal", seed)
    players, monsters = ex.params["players"], ex.params["monsters"]
    assert 2 <= players <= 5 and monsters in (0, 3, 4, 5)
    assert ex.right_choice == str((80 + 5 + monsters) // players)


def test_the_rules_three_player_deal():
    from toolkit.tranquility.engine import ENGINE as TRANQUILITY
    state = TRANQUILITY.new_state(1, players=3)
    assert sorted(len(p) + len(h) - 1 for p, h in zip(state.piles, state.hands)) == [28, 28, 29]


# ---- the rule books' worked examples reproduce the stated results ---------------------------------------
def test_crew_rulebook_pink_nine():
    answers = {}
    for seed in range(5):
        ex = generate("crew.rulebook", seed)
        answers[seed] = (ex.prompt, ex.right_choice, ex.board)
    # trick 1: P9 P7 Y2 P8 — the captain's pink 9 wins (「船長がピンク最大の9で4枚を取ります」)
    assert answers[0][2]["trick"] == ["P9", "P7", "Y2", "P8"] and answers[0][1] == "0"
    # seat 2 has no pink, so yellow 2 may be played (「ピンクを持たないので黄2」)
    assert answers[1][1] == "yes" and not any(c.startswith("P") for c in answers[1][2]["hand"])
    # after trick 1 "win the first two tricks" is only half done; after trick 2 (submarine 4 wins) it is done
    assert answers[2][1] == "pending"
    assert answers[3][2]["trick"][0] == "S4" and answers[3][1] == "0"
    assert answers[4][1] == "done"
    # the BGA help: of 1, 2, 5 and 7 of one colour only the 1 (lowest) or the 7 (highest) may be shown
    assert generate("crew.rulebook", 5).right_choice == "top" and generate("crew.rulebook", 5).board["card"] == "P7"
    assert generate("crew.rulebook", 6).right_choice == "none" and generate("crew.rulebook", 6).board["card"] == "P2"
    assert generate("crew.rulebook", 6).grade("bottom").explanation.rule == "crew.sonar.position"
    assert generate("crew.rulebook", 5) == generate("crew.rulebook", 5) and generate("crew.rulebook", 5).seed == 5


def test_tranquility_rulebook_cases():
    got = [generate("tranquility.rulebook", s).right_choice for s in range(4)]
    # row-1 end next to row-2 start: 23 after 20 costs 3; right ends are not neighbours: free; between 3 and
    # 7 a 6 costs the smaller difference, 1; a cost of 6 with 4 cards left cannot be paid
    assert got == ["3", "0", "1", "refused"]
    refusal = generate("tranquility.rulebook", 3).grade("refused").explanation
    assert refusal.rule == "tranquility.place.cost-limit"


def test_pirats_rulebook_cases():
    got = [generate("pirats.rulebook", s).right_choice for s in range(6)]
    # fries 2 and 3 with one ketchup: (2+5)+(3+5) = 15; green boards an empty ship with 2 cards: space 2;
    # blue's rat from space 1 past space 2 with one card: space 3; yellow from the area past 1 and 2: space 3
    # the toad example: green's toad (green already captains the bird ship) stays on space 3; red's toad on
    # space 2, with no captain anywhere, moves up to the captain space
    assert got == ["15", "2", "3", "3", "3", "captain"]
    assert generate("pirats.rulebook", 4).grade("captain").explanation.rule == "pirats.captain.one-per-player"
    assert generate("pirats.rulebook", 5).grade("3").explanation.rule == "pirats.power.toad"
    assert score(["fries 2", "fries 3", "ketchup"]) == 15


def test_rulebook_prompts_name_their_source():
    for kind, n in (("crew.rulebook", 7), ("tranquility.rulebook", 4), ("pirats.rulebook", 6)):
        for seed in range(n):
            ex = generate(kind, seed)
            assert "source" in ex.params
            assert ex.params["source"].text("en") in i18n.translate(ex.prompt, "en", dict(ex.params))


@pytest.mark.parametrize("kind,prompts", [
    ("crew.rulebook_tricks", {"teach.ex.rulebook.crew_trick", "teach.ex.rulebook.crew_may_play"}),
    ("crew.rulebook_tasks", {"teach.ex.rulebook.crew_task"}),
    ("crew.rulebook_sonar", {"teach.ex.rulebook.crew_sonar"}),
    ("pirats.rulebook_scoring", {"teach.ex.rulebook.pirats_score"}),
    ("pirats.rulebook_boarding", {"teach.ex.rulebook.pirats_move"}),
    ("pirats.rulebook_powers", {"teach.ex.rulebook.pirats_toad"}),
])
def test_a_topic_asks_only_its_own_examples_and_all_of_them(kind, prompts):
    base = kind.split("_", 1)[0]
    every = {(generate(base, s).prompt, repr(generate(base, s).board)) for s in range(12)}
    mine = {(generate(kind, s).prompt, repr(generate(kind, s).board)) for s in range(12)}
    assert {p for p, _b in mine} == prompts
    assert mine == {(p, b) for p, b in every if p in prompts}
    assert all(generate(kind, s).kind == kind and generate(kind, s).seed == s for s in range(4))


def test_the_view_reaches_every_rulebook_example():
    from toolkit.widgets.exercise import ExerciseView

    view = ExerciseView(kinds=["pirats.rulebook", "pirats.score"], seed=0, query="")
    seen = set()
    for _ in range(12):
        if view.exercise.kind == "pirats.rulebook":
            seen.add(view.exercise.seed % 6)
        view._on_another()
    assert seen == {0, 1, 2, 3, 4, 5}


RULE_NOTEBOOKS = [f"crew/0{n}" for n in range(1, 6)] + [f"{game}/0{n}" for game in ("tranquility", "deepblue", "pirats")
                                                        for n in range(1, 4)]


@pytest.mark.parametrize("name", RULE_NOTEBOOKS)
def test_every_rule_notebook_checks_its_learner(name):
    import ast
    import re
    from pathlib import Path

    game, number = name.split("/")
    [source] = Path(__file__).resolve().parents[2].glob(f"notebooks/source/{game}/{number}-*.nb.md")
    text = source.read_text(encoding="utf-8")
    assert "## Check yourself" in text and "## 自分で確かめよう" in text
    calls = re.findall(r"ExerciseView\(kinds=(\[[^\]]*\])", text)
    assert len(calls) == 1
    kinds = ast.literal_eval(calls[0])
    assert kinds and set(kinds) <= set(KINDS)
    # the kinds belong to the notebook's game
    assert all(k.split(".")[0] == game for k in kinds)
