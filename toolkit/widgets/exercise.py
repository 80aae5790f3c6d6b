"""The shared exercise component: a question, clickable choices, the engine's feedback, "another one".

:class:`ChoiceButtons` is the row of answers (also used by the "Learn to play" view for its predictions);
:class:`ExerciseView` shows exercises from :func:`toolkit.teaching.exercises.generate` — one kind or several
in turn — drawn from consecutive seeds, so there is always another one. Grading is the engine's
(:meth:`Exercise.grade`); the view only draws. Answers are untrusted: :meth:`ExerciseView.answer` refuses
anything that is not one of the offered choices and changes nothing (no score, no feedback change).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import ipywidgets as widgets

from toolkit.core import i18n
from toolkit.teaching.exercises import KINDS, Exercise, ExerciseRound, Grade, generate
from toolkit.teaching.lesson import Choice
from toolkit.widgets.base import View, esc, query_params, safe_callback
from toolkit.widgets.markup import heading


class ChoiceButtons(widgets.HBox):
    """One button per choice; a click calls ``on_choose(value)`` with the choice's own value."""

    def __init__(self, on_choose: Callable[[str], Any]):
        super().__init__(layout=widgets.Layout(flex_flow="row wrap"))
        self.add_class("deepsea-choices")
        self._on_choose = on_choose
        self._choices: tuple[Choice, ...] = ()

    def show(self, choices: Sequence[Choice], lang: str, marked: dict[str, str] | None = None) -> None:
        """Draw ``choices`` in ``lang``; ``marked`` maps a value to "right"/"wrong" (after an answer)."""
        marked = marked or {}
        same = tuple(choices) == self._choices and len(self.children) == len(choices)
        self._choices = tuple(choices)
        buttons = list(self.children) if same else []
        for k, choice in enumerate(self._choices):
            if not same:
                button = widgets.Button(layout=widgets.Layout(width="auto"))
                button.add_class("deepsea-choice")
                button.add_class(f"deepsea-choice-{k}")
                button.on_click(lambda _b, v=choice.value: self._on_choose(v))
                buttons.append(button)
            button = buttons[k]
            button.description = choice.text(lang)
            button.tooltip = choice.text(lang)
            state = marked.get(choice.value, "")
            button.button_style = {"right": "success", "wrong": "danger"}.get(state, "")
            button.icon = {"right": "check", "wrong": "times"}.get(state, "")
        if not same:
            self.children = tuple(buttons)


def feedback_html(correct: bool | None, text: str, rule: str, lang: str) -> str:
    """The feedback line: right / not quite, then the engine's explanation with its rule id."""
    if correct is None:
        return ""
    head = i18n.translate("teach.ui.right" if correct else "teach.ui.wrong", lang)
    kind = "deepsea-right" if correct else "deepsea-wrong"
    return (f'<div class="deepsea-feedback {kind}" role="status"><b>{esc(head)}</b> '
            f'<span class="deepsea-text">{esc(text)}</span>'
            + (f' <code class="deepsea-rule">{esc(rule)}</code>' if rule else "") + "</div>")


def board_html(exercise: Exercise, lang: str) -> str:
    """What an exercise shows besides its question: cards, a sea grid, a bag."""
    board = exercise.board
    kind = exercise.kind
    if (kind == "crew.trick_winner" or kind.startswith("crew.rulebook")) and "trick" in board:
        from toolkit.widgets.crew.common import chips
        return f'<div class="deepsea-ex-board">{chips(board["trick"], lang)}</div>'
    if kind == "crew.sonar" or kind.startswith("crew.rulebook") and "card" in board and "led" not in board:
        from toolkit.widgets.crew.common import chips
        hand = i18n.translate("teach.ui.hand", lang)
        return f'<div class="deepsea-ex-board">{esc(hand)} {chips(board["hand"], lang)}</div>'
    if "tricks" in board:                                   # crew.task_status, crew.rulebook (a task)
        from toolkit.widgets.crew.common import chips
        rows = "".join(f'<div>{k}. {esc(i18n.translate("teach.ex.seat_choice", lang, {"n": leader}))} → '
                       f'{chips(cards, lang)}</div>' for k, (leader, cards) in enumerate(board["tricks"], 1))
        return f'<div class="deepsea-ex-board deepsea-ex-tricks">{rows}</div>'
    if exercise.kind == "crew.captain":
        from toolkit.widgets.crew.common import chips
        rows = "".join(f'<div>{esc(i18n.translate("teach.ex.seat_choice", lang, {"n": k}))}: {chips(h, lang)}</div>'
                       for k, h in enumerate(board["hands"]))
        return f'<div class="deepsea-ex-board deepsea-ex-hands">{rows}</div>'
    if kind == "crew.may_play" or kind.startswith("crew.rulebook"):
        from toolkit.widgets.crew.common import chip, chips
        led = i18n.translate("teach.ui.led", lang)
        hand = i18n.translate("teach.ui.hand", lang)
        return (f'<div class="deepsea-ex-board">{esc(led)} {chip(board["led"], lang)} &nbsp; '
                f'{esc(hand)} {chips(board["hand"], lang)}</div>')
    if "grid" in board:                  # tranquility.placement_cost, tranquility.may_place, tranquility.rulebook
        grid = {int(k): v for k, v in board["grid"].items()}
        rows = []
        for row in range(5, -1, -1):          # row 1 (cells 0-5) at the bottom, as on the table
            cells = []
            for col in range(6):
                i = row * 6 + col
                if i == board["index"]:
                    cells.append(f'<td class="deepsea-ex-target" style="border:3px solid #b3176f;height:2em;'
                                 f'background:#fde7f3;font-weight:bold">{board["number"]}?</td>')
                else:
                    # a fixed height: a row of empty cells otherwise collapses to a line and the sea
                    # looked 6 wide but 4 high
                    cells.append(f'<td style="border:1px solid #999;height:2em;'
                                 f'background:{"#e3f2fd" if i in grid else "#fff"}">{grid.get(i, "")}</td>')
            rows.append("<tr>" + "".join(cells) + "</tr>")
        return ('<table class="deepsea-ex-board deepsea-ex-grid" style="border-collapse:collapse;'
                'text-align:center;width:18em;table-layout:fixed">' + "".join(rows) + "</table>")
    if "bar" in board:                   # pirats.auction_price: the bar's stools, the front (stool 1) first
        cells = []
        for stool, species in enumerate(board["bar"], 1):
            asked = stool == board["stool"]
            name = i18n.translate(f"pirats.species.{species}", lang) if species else "—"
            style = "background:#a14f00;color:#fff;font-weight:bold" if asked else "background:#f3e2b3" if species else ""
            cells.append(f'<td style="border:1px solid #6d4c41;padding:.2em .4em;text-align:center;{style}">'
                         f'<small>{stool}</small><br>{esc(name)}</td>')
        return ('<div class="deepsea-ex-board" style="overflow-x:auto"><table class="deepsea-ex-bar" '
                f'style="border-collapse:collapse"><tr>{"".join(cells)}</tr></table></div>')
    if exercise.kind in ("pirats.space_reached", "pirats.move_cost") or "occupied" in board:
        cells = []
        for space in (1, 2, 3, 4):
            taken = space in board["occupied"]
            mine = space == board["start"]
            label = "C" if space == 4 else str(space)
            # the boarding page's colours: your pirat orange, another pirat blue
            style = ("background:#1565c0;color:#fff" if taken else "background:#a14f00;color:#fff" if mine
                     else "background:#f3e2b3")
            who = "●" if taken else "★" if mine else ""
            cells.append(f'<td style="border:1px solid #6d4c41;width:3em;height:2.4em;text-align:center;{style}">'
                         f'<small>{label}</small><br>{who}</td>')
        legend = esc(i18n.translate("teach.ui.ship_legend", lang))   # "C" and the marks, for a first-timer
        return ('<div class="deepsea-ex-board"><table class="deepsea-ex-ship" style="border-collapse:collapse">'
                f'<tr>{"".join(cells)}</tr></table><small class="deepsea-ex-legend">{legend}</small></div>')
    return ""


class ExerciseView(View):
    """Checked exercises: read the question, click an answer, read the engine's explanation, take another.

    With ``questions=4`` the questions come in rounds of four with a score ("3 of 4 right"); only a
    question's first answer counts (:class:`~toolkit.teaching.exercises.ExerciseRound`)."""

    def __init__(self, kinds: Sequence[str] = KINDS, seed: int = 0, lang: str = "en", show_language: bool = True,
                 query: str | None = None, questions: int | None = None, **kwargs: Any):
        super().__init__(lang=lang, show_language=show_language, **kwargs)
        self.add_class("deepsea-exercise")
        asked = query_params(query).get("seed", "") if show_language else ""
        seed = int(asked) if asked.isdigit() and len(asked) < 9 else int(seed)
        self.round = ExerciseRound(tuple(kinds) or KINDS, seed, questions)
        self._question = widgets.HTML()
        self._question.add_class("deepsea-ex-question")
        self._board = widgets.HTML()
        self._choices = ChoiceButtons(self.answer)
        self._feedback = widgets.HTML()
        self._feedback.add_class("deepsea-ex-feedback")
        self._score = widgets.HTML()
        self._score.add_class("deepsea-ex-score")
        self._another = widgets.Button(icon="refresh")
        self._another.add_class("deepsea-ex-another")
        self._another.on_click(self._on_another)
        self._finish([self._question, self._board, self._choices, self._feedback,
                      widgets.HBox([self._another, self._score], layout=widgets.Layout(align_items="center"))])
        self.refresh()

    @property
    def exercise(self) -> Exercise:
        return self.round.exercise

    @property
    def grade(self) -> Grade | None:
        return self.round.grade

    @safe_callback
    def answer(self, value: Any) -> None:
        """Grade ``value`` (untrusted). A forged answer is refused; the exercise, feedback and score stay."""
        self.round.answer(value)      # AnswerError for a forged answer: shown, nothing changes
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_another(self, _b: Any = None) -> None:
        self.round.another()
        self.clear_report()
        self.refresh()

    def refresh(self) -> None:
        lang, ex, grade, rnd = self.lang, self.exercise, self.grade, self.round
        if rnd.size is None:
            number = self.t("teach.ui.exercise_n", n=rnd.count + 1)
        else:
            number = self.t("teach.ui.question_of", n=rnd.number, total=rnd.size)
        self._question.value = (f"<p><b>{esc(number)}</b> {esc(i18n.translate(ex.prompt, lang, dict(ex.params)))} "
                                f'<code class="deepsea-rule">{esc(ex.rule)}</code></p>')
        self._board.value = board_html(ex, lang)
        marked = {}
        if grade is not None:
            marked = {grade.answer: "right"}
            if not grade.correct:
                marked[grade.chosen] = "wrong"
        self._choices.show(ex.choices, lang, marked)
        self._feedback.value = (feedback_html(grade.correct, grade.text(lang), grade.explanation.rule, lang)
                                if grade is not None else "")
        if rnd.size is None:
            self._score.value = ""
        elif rnd.finished:
            self._score.value = (f'<b class="deepsea-ex-round-done" role="status">'
                                 f'{esc(self.t("teach.ui.round_done", right=rnd.right, total=rnd.size))}</b>')
        elif rnd.answered:
            self._score.value = (f'<span class="deepsea-ex-score-so-far">'
                                 f'{esc(self.t("teach.ui.score", right=rnd.right, answered=rnd.answered))}</span>')
        else:
            self._score.value = ""
        self._another.description = self.t("teach.ui.new_round" if rnd.finished else "teach.ui.another")


class CheckYourself(widgets.VBox):
    """A "Check yourself" section for a view: a heading, one line on what it asks, and a button that builds
    an :class:`ExerciseView` of ``kinds`` (rounds of ``questions``) only when clicked — a dashboard's kernel
    start pays for nothing it does not show. The section follows ``owner``'s language."""

    def __init__(self, owner: View, kinds: Sequence[str], questions: int = 4, seed: int = 1):
        super().__init__(layout=widgets.Layout(margin="1.5em 0 0 0"))
        self.add_class("deepsea-check-yourself")
        for kind in kinds:          # a wrong kind fails when the page is built, not at the learner's click;
            if kind not in KINDS:   # only the name: generating would load the game's engine at kernel start
                generate(kind, 0)   # raises RuleError listing the kinds
        self._owner, self._kinds, self._questions, self._seed = owner, tuple(kinds), questions, seed
        self.exercises: ExerciseView | None = None
        self._head = widgets.HTML()
        self._start = widgets.Button(icon="question", button_style="primary", layout=widgets.Layout(width="auto"))
        self._start.add_class("deepsea-check-start")
        self._start.on_click(lambda _b: self.start())
        self.children = (self._head, self._start)
        owner.observe(lambda _change: self.refresh(), names="lang")
        self.refresh()

    def start(self) -> ExerciseView:
        """Build (once) and show the exercises."""
        if self.exercises is None:
            self.exercises = ExerciseView(self._kinds, seed=self._seed, lang=self._owner.lang, show_language=False,
                                          questions=self._questions)
            widgets.dlink((self._owner, "lang"), (self.exercises, "lang"))
            self.children = (self._head, self.exercises)
        return self.exercises

    def refresh(self) -> None:
        lang = self._owner.lang
        self._head.value = heading(i18n.translate("teach.ui.check_yourself", lang),
                                   i18n.translate("teach.ui.check_intro", lang, {"total": self._questions}))
        self._start.description = i18n.translate("teach.ui.check_start", lang)


def with_check_yourself(view: View, kinds: Sequence[str], questions: int = 4) -> View:
    """``view`` with a :class:`CheckYourself` section of ``kinds`` after its own content (before its message
    area and page support), for a worked-example dashboard's last cell."""
    section = CheckYourself(view, kinds, questions)
    children = list(view.children)
    at = children.index(view._message) if view._message in children else len(children)
    view.children = tuple(children[:at] + [section] + children[at:])
    view.check_yourself = section
    return view
