"""The "Learn to play" view and the shared exercise component, driven as the page drives them."""

import math

import pytest

from toolkit.teaching.lesson import Goal
from toolkit.core.i18n import translate as t
from toolkit.widgets.exercise import CheckYourself, ExerciseView, with_check_yourself
from toolkit.widgets.learn import CHECK_KINDS, CrewBoard, DeepBlueLessonBoard, LearnView, PiratsBoard, TranquilityBoard, lesson_of

GAMES = ["crew", "tranquility", "deepblue", "pirats"]
#: Deep Blue: which component object a learner clicks for each example move (the table's keys)
DEEPBLUE_CLICKS = {"s0 move boat0 to 2": [("board", "site:2")], "s0 spot 1": [("board", "spot:1")],
                   "s1 hire 2 pay 5": [("market", "slot:2"), ("hand", "pay")], "s0 dive boat0": [("board", "site:2")],
                   "s0 draw": [("bag", "bag")], "s0 protect spot": [("dive", "protect-spot")],
                   "s0 stop": [("dive", "surface")], "s1 rest": [("hand", "rest")]}
#: Sewer Pirats: the table picks a learner makes for each example move
PIRATS_CLICKS = {
    "draw bird": [{"what": "row", "card": "bird"}],
    "move rat#1 bird 1": [{"what": "figure", "figure": "rat#1"}, {"what": "space", "ship": "bird", "space": 1}],
    "captain raccoon#1 bird": [{"what": "space", "ship": "bird", "space": 2}, {"what": "space", "ship": "bird", "space": 4}],
    "sail bird": [{"what": "space", "ship": "bird", "space": 4}],
    "take burger 5": [{"what": "loot", "ship": "bird", "token": "burger 5"}],
}


def click_example(view):
    """Do the step's example the way a learner does: click the card / task / answer / move button."""
    step = view.step
    if not isinstance(step.task, Goal):
        k = [c.value for c in step.task.choices].index(step.example)
        view._choices.children[k].click()
        return
    board = view._board
    if isinstance(board, CrewBoard):
        if step.example.startswith("take "):
            board._tasks.receive({"type": "pick", "task": int(step.example.split()[1])})
        else:
            board._hand.receive({"type": "pick", "card": step.example.split()[2 if step.example.startswith("sonar") else 1]})
        return
    if isinstance(board, PiratsBoard):
        for pick in PIRATS_CLICKS[step.example]:
            board._table.receive({"type": "pick", **pick})
        return
    if isinstance(board, DeepBlueLessonBoard):
        for component, key in DEEPBLUE_CLICKS[step.example]:
            getattr(board._table, component).receive({"type": "pick", "key": key})
        return
    if isinstance(board, TranquilityBoard) and step.example.startswith("place "):
        board._cells[int(step.example.split()[3])].click()
        return
    moves = board._moves if isinstance(board, TranquilityBoard) else board
    moves._buttons.children[list(step.offer).index(step.example)].click()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_lesson_is_walked_first_to_last_by_clicking(game, lang):
    view = LearnView(game, lang=lang, query="")
    total = len(view.lesson)
    for i in range(total):
        assert view.index == i
        assert view._next.disabled            # one action first
        click_example(view)
        assert i in view.done, view._feedback.value
        assert "deepsea-right" in view._feedback.value or "deepsea-wrong" not in view._feedback.value
        if i < total - 1:
            view._next.click()
    assert len(view.done) == total and not view._next.disabled   # Next leads on to "Check yourself"
    assert view._next.description == t("teach.ui.check_next", lang)
    assert view.lesson.outro == "" or "learn-outro" in view._feedback.value
    assert view.exercises is None                      # built only when the learner gets there
    view._next.click()
    assert view.checking and view.exercises is not None and view._next.disabled
    assert view.exercises.exercise.kind in CHECK_KINDS[game] and view.exercises.lang == lang
    assert view._board.widget.layout.display == "none"
    view._back.click()                                 # back to the last step, still done
    assert not view.checking and view.index == total - 1 and not view._next.disabled
    view._back.click()
    assert view.index == total - 2


def test_a_wrong_card_is_refused_with_the_engines_reason_and_nothing_changes():
    view = LearnView("crew", query="step=3")
    assert view.index == 2
    hand_before = view._board._hand.items
    view._board._hand.receive({"type": "pick", "card": "G9"})
    assert "deepsea-wrong" in view._feedback.value and "crew.trick.follow" in view._feedback.value
    assert view.done == set() and view._next.disabled
    assert view._board._hand.items == hand_before
    view.lang = "ja"
    assert "ピンク" in view._feedback.value or "残念" in view._feedback.value
    # a card not in the hand is refused by the component itself
    view._board._hand.receive({"type": "pick", "card": "S4"})
    assert view.done == set()


@pytest.mark.parametrize("forged", [None, math.nan, 3, "forged", ["0"]])
def test_a_forged_answer_changes_nothing(forged):
    view = LearnView("crew", query="step=5")
    view.answer(forged)
    assert view.done == set() and view.verdict is None
    assert "deepsea-refusal" in view._message.value


@pytest.mark.parametrize("query,index", [("step=9", 8), ("step=0", 0), ("step=99", 0), ("step=x", 0), ("", 0)])
def test_step_from_the_link(query, index):
    assert LearnView("crew", query=query).index == index


def test_exercise_view_right_wrong_forged_and_another():
    view = ExerciseView(kinds=["crew.may_play"], seed=5, query="")
    ex = view.exercise
    wrong = next(c.value for c in ex.choices if c.value != ex.right_choice)
    view.answer(wrong)
    assert "deepsea-wrong" in view._feedback.value and view.grade.answer == ex.right_choice
    feedback = view._feedback.value
    view.answer("forged")
    assert view._feedback.value == feedback and "deepsea-refusal" in view._message.value
    k = [c.value for c in ex.choices].index(ex.right_choice)
    view._choices.children[k].click()
    assert "deepsea-right" in view._feedback.value
    view._another.click()
    assert view.grade is None and view.exercise.seed == 6 and view._feedback.value == ""
    view.lang = "ja"
    assert "問題2" in view._question.value


def test_exercise_view_cycles_kinds_and_refuses_unknown_ones():
    view = ExerciseView(query="")
    kinds = set()
    for _ in range(5):
        kinds.add(view.exercise.kind)
        assert view._board.value or view.exercise.kind == "deepblue.bust_above_third"
        view._another.click()
    assert len(kinds) == 5
    with pytest.raises(ValueError):
        ExerciseView(kinds=["nope"], query="")


def test_every_lesson_has_a_dashboard():
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "dashboards"
    for game in GAMES:
        name = {"deepblue": "deep-blue"}.get(game, game)   # the dashboards' names (gallery links)
        assert (root / f"learn-{name}.ipynb").is_file()
        assert lesson_of(game).steps


def test_tranquility_an_out_of_order_cell_is_refused_by_the_engine():
    view = LearnView("tranquility", query="step=2", lang="ja")
    view._board._cells[20].click()
    assert "deepsea-wrong" in view._feedback.value and "tranquility.place.ascending" in view._feedback.value
    assert view._board._cells[20].description == "" and view.done == set()
    view._board._cells[0].click()
    assert view._board._cells[0].description == "2" and view.done == {1}


def test_deepblue_another_site_is_refused_and_a_refused_object_shows_the_engines_reason():
    view = LearnView("deepblue", query="", lang="ja")
    board = view._board._table.board
    board.receive({"type": "pick", "key": "site:3"})            # legal, but not what the step asks
    assert "deepsea-wrong" in view._feedback.value and "海域2" in view._feedback.value
    view.lang = "en"
    board.receive({"type": "pick", "key": "site:1"})            # out of reach: the engine's reason
    assert "deepsea-wrong" in view._feedback.value and "propeller" in view._feedback.value
    assert view.done == set() and view._next.disabled
    board.receive({"type": "pick", "key": "site:2"})
    assert view.done == {0}


def test_pirats_drawing_while_a_captain_must_sail_is_refused_and_changes_nothing():
    view = LearnView("pirats", query="step=6", lang="ja")
    before = view._board._table.observation
    view._board._table.receive({"type": "pick", "what": "deck"})
    assert "deepsea-wrong" in view._feedback.value and "pirats.sail.must" in view._feedback.value
    assert "席2" in view._feedback.value          # the engine's seat 1 (0-based) is the page's Seat 2
    assert view._board._table.observation == before and view.done == set()
    # a space clicked with no pirat chosen: told what to do, nothing changes
    view.goto(1)
    view._board._table.receive({"type": "pick", "what": "space", "ship": "cat", "space": 2})
    assert "deepsea-wrong" in view._feedback.value and view.done == set()


def _wrong_choice(view):
    return next(c.value for c in view.exercise.choices if c.value != view.exercise.right_choice)


def _click(view, value):
    view._choices.children[[c.value for c in view.exercise.choices].index(value)].click()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_round_of_four_is_scored_by_clicking(lang):
    view = ExerciseView(kinds=CHECK_KINDS["crew"], seed=1, lang=lang, questions=4, show_language=False)
    assert t("teach.ui.question_of", lang, n=1, total=4) in view._question.value and view._score.value == ""
    _click(view, view.exercise.right_choice)
    assert "deepsea-right" in view._feedback.value
    assert t("teach.ui.score", lang, right=1, answered=1) in view._score.value
    _click(view, _wrong_choice(view))              # a second answer is shown, not scored
    assert "deepsea-wrong" in view._feedback.value and view.round.right == 1 and view.round.answered == 1
    for k in (2, 3, 4):
        view._another.click()
        assert t("teach.ui.question_of", lang, n=k, total=4) in view._question.value
        _click(view, view.exercise.right_choice if k != 3 else _wrong_choice(view))
    assert t("teach.ui.round_done", lang, right=3, total=4) in view._score.value
    assert view._another.description == t("teach.ui.new_round", lang)
    view._another.click()                          # a new round with new questions, score from 0
    assert view.round.number == 1 and view.round.right == 0 and view._score.value == ""
    assert t("teach.ui.question_of", lang, n=1, total=4) in view._question.value


@pytest.mark.parametrize("forged", ["forged", None, 3, float("nan"), ["yes"], "0 ", "<b>yes</b>"])
def test_a_forged_answer_changes_no_score(forged):
    view = ExerciseView(kinds=["crew.may_play", "crew.trick_winner"], seed=3, questions=3, query="")
    before = (view._question.value, view._feedback.value, view._score.value, view.round.right, view.round.answered)
    view.answer(forged)
    assert "deepsea-refusal" in view._message.value
    assert (view._question.value, view._feedback.value, view._score.value, view.round.right,
            view.round.answered) == before


def test_check_yourself_is_built_only_when_asked_and_follows_the_language():
    from toolkit.widgets.crew import PinkNineTrickView
    view = with_check_yourself(PinkNineTrickView(query=""), ["crew.trick_winner", "crew.rulebook_tricks"])
    section = view.check_yourself
    assert isinstance(section, CheckYourself) and section.exercises is None
    assert view.children.index(section) < view.children.index(view._message)
    view.lang = "ja"
    assert t("teach.ui.check_yourself", "ja") in section._head.value
    section._start.click()
    assert section.exercises is not None and section.exercises.lang == "ja"
    assert section.exercises.exercise.kind == "crew.trick_winner"
    view.lang = "en"
    assert section.exercises.lang == "en" and "Question 1 of 4" in section.exercises._question.value
    with pytest.raises(ValueError):
        with_check_yourself(PinkNineTrickView(query=""), ["nope"])


def test_learn_check_stage_from_the_link():
    view = LearnView("tranquility", query="check=1")
    assert view.checking and view.exercises.exercise.kind in CHECK_KINDS["tranquility"]
    assert LearnView("tranquility", query="check=yes").checking is False
