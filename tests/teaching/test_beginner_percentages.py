"""Beginner views show chances as percentages, never a raw fraction such as 87041/290700 (issue 29.2).

The beginner views: the Learn-to-play lessons (every step's text, choices and verdicts), the exercises
(every choice's verdict) and Deep Blue's risk line and coach at the table. Exact fractions stay in the
"going deeper" analysis views (the gem-bag view, tested in tests/deepblue/test_deepblue_views.py).
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from toolkit.core import i18n
from toolkit.teaching.exercises import KINDS, generate
from toolkit.teaching.lesson import Goal, check_answer, check_move
from toolkit.widgets.learn import lesson_of

RAW_FRACTION = re.compile(r"\d+\s*/\s*\d+")


def _no_fraction(text: str, where: str) -> None:
    assert not RAW_FRACTION.search(text), f"{where}: {text!r}"


@pytest.mark.parametrize("game", ["crew", "tranquility", "deepblue", "pirats"])
def test_lesson_texts_show_no_raw_fraction(game):
    lesson = lesson_of(game)
    for i, step in enumerate(lesson.steps):
        for lang in i18n.LANGUAGES:
            _no_fraction(step.text(lang), f"{game} step {i}")
            if isinstance(step.task, Goal):
                _no_fraction(check_move(step, step.example).text(lang), f"{game} step {i} verdict")
            else:
                for choice in step.task.choices:
                    _no_fraction(choice.text(lang), f"{game} step {i} choice")
                    _no_fraction(check_answer(step, choice.value).text(lang), f"{game} step {i} verdict")


@pytest.mark.parametrize("kind", KINDS)
def test_exercise_verdicts_show_no_raw_fraction(kind):
    for seed in range(12):
        ex = generate(kind, seed)
        for lang in i18n.LANGUAGES:
            _no_fraction(i18n.translate(ex.prompt, lang, ex.params), f"{kind} {seed} prompt")
            for choice in ex.choices:
                _no_fraction(ex.grade(choice.value).text(lang), f"{kind} {seed} verdict")


def test_the_deep_blue_bust_exercise_says_a_percentage_first():
    ex = next(e for e in (generate("deepblue.bust_above_third", s) for s in range(20)))
    text = ex.grade(ex.right_choice).text("en")
    assert re.match(r"About \d+ % \(\d+ in \d+\)", text), text
    assert re.match(r"約\d+%", ex.grade(ex.right_choice).text("ja"))


def test_deep_blue_risk_line_and_coach_give_percentages_not_fractions():
    from toolkit.deepblue import ENGINE
    from toolkit.widgets.deepblue import GameView

    g = GameView(seed=5, players=3)
    coached = 0
    for _ in range(300):
        if g.model.outcome is not None or coached >= 6:
            break
        if "deepblue-coach" in g._risk.value:
            coached += 1
            for lang in ("ja", "en"):
                g.lang = lang
                risk = re.sub(r"<[^>]+>", " ", g._risk.value)
                _no_fraction(risk, f"risk line ({lang})")
                assert re.search(r"\d+ ?%|<1 ?%|>99 ?%", risk), risk
        decision = g.driver.hint(g.viewing_seat(), "policy")
        move = decision.move if decision is not None and decision.move is not None else \
            ENGINE.parse_move(g._moves.options[0][1])
        g._moves.options = [(str(move), str(move))]
        g._moves.value = str(move)
        g._on_apply()
    assert coached > 0


def test_percent_is_whole_and_never_a_false_certainty():
    assert i18n.percent(Fraction(87041, 290700)) == "30 %" and i18n.percent(Fraction(87041, 290700), "ja") == "30%"
    assert i18n.percent(Fraction(1, 1000)) == "<1 %" and i18n.percent(Fraction(999, 1000)) == ">99 %"
    assert i18n.percent(0) == "0 %" and i18n.percent(1) == "100 %"
    for bad, error in ((True, TypeError), ("0.3", TypeError), (None, TypeError), (1.5, ValueError), (-0.1, ValueError)):
        with pytest.raises(error, match="chance"):
            i18n.percent(bad)
