"""Each "Learn to play" dashboard walked from its first step to its last by clicking, in English and
Japanese, with one wrong action on the way (refused with the engine's reason; nothing changes).

One Voila page per lesson per language. The steps' right actions come from the lesson data (the engine
accepts them: tests/teaching); here the page must carry each click to the kernel and show the result.
``LEARN_SCREENSHOTS=dir`` also saves a 1200×900 picture of each lesson mid-way (for looking at).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolkit.teaching.lesson import Goal, check_move
from toolkit.widgets.learn import lesson_of

pytestmark = pytest.mark.browser

LESSONS = {"crew": "learn-crew", "tranquility": "learn-tranquility", "deepblue": "learn-deep-blue",
           "pirats": "learn-pirats"}
#: Sewer Pirats: the table objects (data-key) a learner clicks for each example move
PIRATS_CLICKS = {"draw bird": ["row:{bird}"], "move rat#1 bird 1": ["figure:0:rat#1", "space:bird:1"],
                 "captain raccoon#1 bird": ["space:bird:2", "space:bird:4"], "sail bird": ["space:bird:4"],
                 "take burger 5": ["loot:bird:0:burger 5"]}
#: Deep Blue: the table's object (component class, key) a learner clicks for each example move
DEEPBLUE_CLICKS = {"s0 move boat0 to 2": [("board", "site:2")], "s0 spot 1": [("board", "spot:1")],
                   "s1 hire 2 pay 5": [("market", "slot:2"), ("hand", "pay")], "s0 dive boat0": [("board", "site:2")],
                   "s0 draw": [("bag", "bag")], "s0 protect spot": [("dive", "protect-spot")],
                   "s0 stop": [("dive", "surface")], "s1 rest": [("hand", "rest")]}
#: a click the engine refuses, per lesson: (step index, locator)
WRONG = {"deepblue": (0, '.deepblue-board-component [data-key="site:3"]'),
         "pirats": (5, '.learn-pirats-table [data-key="deck"]')}
STEP_WORD = {"en": "Step {n} of {total}", "ja": "ステップ {n} / {total}"}


def _example_locator(page, step):
    if not isinstance(step.task, Goal):
        k = [c.value for c in step.task.choices].index(step.example)
        return page.locator(f".deepsea-learn .deepsea-choice-{k}")
    if step.scenario.game == "crew":
        if step.example.startswith("take "):
            return page.locator(f'.learn-crew-tasks button[data-task="{step.example.split()[1]}"]')
        card = step.example.split()[2 if step.example.startswith("sonar") else 1]
        return page.locator(f'.learn-crew-hand button[data-card="{card}"]')
    if step.scenario.game == "pirats":
        keys = PIRATS_CLICKS[step.example]
        if step.example == "draw bird":
            row = list(step.scenario.engine.observe(step.scenario.state(), None)["row"])
            keys = [k.replace("{bird}", str(row.index("bird"))) for k in keys]
        return [page.locator(f'.learn-pirats-table [data-key="{k}"]') for k in keys]
    if step.scenario.game == "deepblue":
        return [page.locator(f'.deepblue-{part}-component [data-key="{key}"]')
                for part, key in DEEPBLUE_CLICKS[step.example]]
    if step.scenario.game == "tranquility" and step.example.startswith("place "):
        return page.locator(f".learn-tranq-cell-{step.example.split()[3]}")
    return page.locator(f".learn-moves .learn-move-{list(step.offer).index(step.example)}")


def _wrong_locator(page, step, i):
    """A click the engine refuses in this step, or None."""
    if not isinstance(step.task, Goal):
        return None
    if step.scenario.game in WRONG:
        at, selector = WRONG[step.scenario.game]
        return page.locator(selector) if at == i else None
    if step.scenario.game == "crew":
        state = step.scenario.state()
        seat = step.seat
        for card in state.hands[seat]:
            move = f"play {card}"
            if not check_move(step, move).accepted and not step.example.startswith(("take", "sonar")):
                return page.locator(f'.learn-crew-hand button[data-card="{card}"]')
        return None
    if step.scenario.game == "tranquility" and step.params.get("card") is not None:
        from toolkit.teaching.tranquility import move_for_cell
        for cell in range(36):
            if not step.scenario.state().cells[cell] and not check_move(step, move_for_cell(step, cell)).accepted:
                return page.locator(f".learn-tranq-cell-{cell}")
    for k, move in enumerate(step.offer):
        if not check_move(step, move).accepted:
            return page.locator(f".learn-moves .learn-move-{k}")
    return None


def _board(page) -> str:
    """The drawn board without its hover/focus info line (which follows the pointer, not the game)."""
    return page.locator(".learn-board").evaluate(
        "el => { const c = el.cloneNode(true); c.querySelectorAll('.db-c-info').forEach(e => e.remove());"
        " return c.innerHTML; }")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", list(LESSONS))
def test_walk_the_lesson_by_clicking(open_dashboard, game, lang):
    lesson = lesson_of(game)
    total = len(lesson)
    page = open_dashboard(LESSONS[game], "lang=ja" if lang == "ja" else "")
    page.set_viewport_size({"width": 1200, "height": 900})
    progress = page.locator(".learn-step-count")
    wrong_done = False
    for i, step in enumerate(lesson.steps):
        progress.filter(has_text=STEP_WORD[lang].format(n=i + 1, total=total)).wait_for()
        if not wrong_done:
            wrong = _wrong_locator(page, step, i)
            if wrong is not None:
                before = _board(page)
                wrong.click()
                refusal = page.locator(".learn-feedback .deepsea-wrong")
                refusal.wait_for()
                assert page.locator(".learn-feedback .deepsea-rule").inner_text()
                assert page.locator(".learn-next button, button.learn-next").first.is_disabled()
                assert _board(page) == before      # nothing changed
                if lang == "ja":
                    assert "残念" in refusal.inner_text()
                wrong_done = True
        clicks = _example_locator(page, step)
        for click in clicks if isinstance(clicks, list) else [clicks]:
            click.click()
        page.locator(".learn-feedback .deepsea-right").first.wait_for()   # every example is right
        if i == total // 2 and os.environ.get("LEARN_SCREENSHOTS"):
            out = Path(os.environ["LEARN_SCREENSHOTS"])
            out.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out / f"{LESSONS[game]}-{lang}.png"))
        nxt = page.locator("button.learn-next")
        if i < total - 1:
            # Next is the last widget a redraw updates: once it is enabled, the whole step is drawn
            page.wait_for_function("el => !el.disabled", arg=nxt.element_handle())
            nxt.click()
            # ... and once it is disabled again, the next step is (a click before that could hit the old
            # step's board, which the page still showed)
            page.wait_for_function("el => el.disabled", arg=nxt.element_handle())
    assert wrong_done
    if lesson.outro:
        page.locator(".learn-outro").wait_for()
    # the last step's Next opens "Check yourself": a round of the game's checked exercises
    nxt = page.locator("button.learn-next")
    page.wait_for_function("el => !el.disabled", arg=nxt.element_handle())
    nxt.click()
    page.locator(".learn-check .deepsea-exercise .deepsea-choice").first.wait_for()
    assert nxt.is_disabled()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_check_yourself_answered_by_clicking(open_dashboard, lang):
    """The last stage of a lesson (``?check=1``): a right answer accepted, a wrong one explained with the
    engine's reason and rule, the score counted, "another one" asks a new question."""
    from toolkit.core.i18n import translate
    from toolkit.teaching.exercises import ExerciseRound
    from toolkit.widgets.learn import CHECK_KINDS, CHECK_QUESTIONS

    expected = ExerciseRound(CHECK_KINDS["crew"], seed=1, size=CHECK_QUESTIONS)
    page = open_dashboard("learn-crew", "check=1" + ("&lang=ja" if lang == "ja" else ""))
    page.set_viewport_size({"width": 1200, "height": 900})
    ex = page.locator(".learn-check .deepsea-exercise")
    question = ex.locator(".deepsea-ex-question")
    question.filter(has_text=translate("teach.ui.question_of", lang, {"n": 1, "total": CHECK_QUESTIONS})).wait_for()
    first = question.inner_text()
    right = [c.value for c in expected.exercise.choices].index(expected.exercise.right_choice)
    ex.locator(f".deepsea-choice-{right}").click()
    ex.locator(".deepsea-ex-feedback .deepsea-right").wait_for()
    score = ex.locator(".deepsea-ex-score")
    score.filter(has_text=translate("teach.ui.score", lang, {"right": 1, "answered": 1})).wait_for()

    ex.locator("button.deepsea-ex-another").click()
    question.filter(has_text=translate("teach.ui.question_of", lang, {"n": 2, "total": CHECK_QUESTIONS})).wait_for()
    assert question.inner_text() != first
    expected.another()
    choices = [c.value for c in expected.exercise.choices]
    wrong = next(k for k, v in enumerate(choices) if v != expected.exercise.right_choice)
    ex.locator(f".deepsea-choice-{wrong}").click()
    feedback = ex.locator(".deepsea-ex-feedback .deepsea-wrong")
    feedback.wait_for()
    grade = expected.answer(choices[wrong])
    assert grade.text(lang) in feedback.inner_text()            # the engine's reason, in the page's language
    assert grade.explanation.rule in feedback.inner_text()
    if lang == "ja":
        assert "残念" in feedback.inner_text()
    score.filter(has_text=translate("teach.ui.score", lang, {"right": 1, "answered": 2})).wait_for()
