"""Every "Learn to play" step is reachable and checked by the engine.

For each step of each lesson: its scenario replays; its example action is legal and the step's goal check
(or the engine's answer) accepts it; a wrong action is refused with a reason and changes nothing; the
lesson's steps follow one another (a step's scenario is the previous one plus the actions in between).
"""

import itertools
import math

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core import i18n, rules
from toolkit.teaching.lesson import AnswerError, Goal, Question, check_answer, check_move, right_answer
from toolkit.widgets.learn import lesson_of

GAMES = ["crew", "tranquility", "deepblue", "pirats"]
STEPS = [(game, i) for game in GAMES for i in range(len(lesson_of(game)))]


def step_of(game, i):
    return lesson_of(game).steps[i]


@pytest.mark.parametrize("game,i", STEPS)
def test_every_step_replays_and_its_example_is_accepted(game, i):
    step = step_of(game, i)
    state = step.scenario.state()
    assert state is not None
    if isinstance(step.task, Goal):
        assert step.scenario.engine.why_illegal(state, step.scenario.engine.parse_move(step.example)) is None
        verdict = check_move(step, step.example)
        assert verdict.accepted, verdict.text("en")
        assert verdict.state is not None and verdict.state != state
    else:
        assert isinstance(step.task, Question)
        assert right_answer(step) == step.example
        assert check_answer(step, step.example).accepted


@pytest.mark.parametrize("game,i", STEPS)
def test_every_step_names_a_registered_rule_and_has_both_languages(game, i):
    step = step_of(game, i)
    assert step.rule in rules.registry()
    assert step.text("en") and step.text("ja") and step.text("en") != step.text("ja")
    assert i18n.has(lesson_of(game).title)


@pytest.mark.parametrize("game,i", STEPS)
def test_a_wrong_action_is_refused_with_a_reason_and_changes_nothing(game, i):
    step = step_of(game, i)
    before = step.scenario.state()
    if isinstance(step.task, Goal):
        engine = step.scenario.engine
        wrong = [m for m in (step.offer or ()) if not check_move(step, m).accepted]
        wrong += [m for m in engine.legal_moves(before) if not check_move(step, m).accepted][:3]
        wrong.append("no such move")
        for move in wrong:
            verdict = check_move(step, move)
            assert not verdict.accepted and verdict.state is None
            assert verdict.text("en") and verdict.text("ja") and verdict.rule
    else:
        right = right_answer(step)
        for choice in step.task.choices:
            if choice.value != right:
                verdict = check_answer(step, choice.value)
                assert not verdict.accepted and verdict.text("ja")
        for forged in (None, math.nan, 1, ["yes"], "forged", right + " "):
            with pytest.raises(AnswerError):
                check_answer(step, forged)
    assert step.scenario.state() == before


@pytest.mark.parametrize("game", GAMES)
def test_the_steps_follow_each_other(game):
    steps = lesson_of(game).steps
    for prev, nxt in itertools.pairwise(steps):
        assert nxt.scenario.game == prev.scenario.game
        assert nxt.scenario.moves[:len(prev.scenario.moves)] == prev.scenario.moves


def test_crew_the_wrong_card_shows_the_engines_follow_rule():
    step = lesson_of("crew").steps[2]
    verdict = check_move(step, "play G9")
    assert not verdict.accepted
    assert verdict.rule == "crew.trick.follow"
    assert "pink 7" in verdict.text("en")


def test_crew_sonar_click_on_a_middle_card_is_refused_by_the_engine():
    from toolkit.crew.cards import Card
    from toolkit.teaching.crew import move_for_card
    step = lesson_of("crew").steps[5]
    verdict = check_move(step, move_for_card(step, Card.parse("G5")))
    assert not verdict.accepted and verdict.rule.startswith("crew.sonar.")
    assert check_move(step, move_for_card(step, Card.parse("B1"))).accepted


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(max_size=30), st.integers(), st.floats(allow_nan=True), st.none(),
                 st.lists(st.integers(), max_size=3)))
def test_any_junk_as_a_move_is_refused_without_raising(junk):
    for game, i in STEPS:
        step = step_of(game, i)
        if isinstance(step.task, Goal):
            verdict = check_move(step, junk)
            if verdict.accepted:
                assert junk == step.example or isinstance(junk, str)
        else:
            if junk not in [c.value for c in step.task.choices]:
                with pytest.raises(AnswerError):
                    check_answer(step, junk)
