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
from toolkit.teaching.exercises import KINDS, Exercise, Grade, generate
from toolkit.teaching.lesson import Choice
from toolkit.widgets.base import View, esc, query_params, safe_callback


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
                    cells.append(f'<td class="deepsea-ex-target" style="border:3px solid #b3176f;'
                                 f'background:#fde7f3;font-weight:bold">{board["number"]}?</td>')
                else:
                    cells.append(f'<td style="border:1px solid #999;background:{"#e3f2fd" if i in grid else "#fff"}">'
                                 f'{grid.get(i, "")}</td>')
            rows.append("<tr>" + "".join(cells) + "</tr>")
        return ('<table class="deepsea-ex-board deepsea-ex-grid" style="border-collapse:collapse;'
                'text-align:center;width:18em;table-layout:fixed">' + "".join(rows) + "</table>")
    if exercise.kind in ("pirats.space_reached", "pirats.move_cost") or "occupied" in board:
        cells = []
        for space in (1, 2, 3, 4):
            taken = space in board["occupied"]
            mine = space == board["start"]
            label = "C" if space == 4 else str(space)
            style = ("background:#8f4700;color:#fff" if taken else "background:#2e7d32;color:#fff" if mine
                     else "background:#f3e2b3")
            who = "●" if taken else "★" if mine else ""
            cells.append(f'<td style="border:1px solid #6d4c41;width:3em;height:2.4em;text-align:center;{style}">'
                         f'<small>{label}</small><br>{who}</td>')
        return ('<table class="deepsea-ex-board deepsea-ex-ship" style="border-collapse:collapse">'
                f'<tr>{"".join(cells)}</tr></table>')
    return ""


class ExerciseView(View):
    """Checked exercises: read the question, click an answer, read the engine's explanation, take another."""

    def __init__(self, kinds: Sequence[str] = KINDS, seed: int = 0, lang: str = "en", show_language: bool = True,
                 query: str | None = None, **kwargs: Any):
        super().__init__(lang=lang, show_language=show_language, **kwargs)
        self.add_class("deepsea-exercise")
        self._kinds = tuple(kinds) or KINDS
        for kind in self._kinds:
            generate(kind, 0)       # an unknown kind is refused here, with the kinds listed
        asked = query_params(query).get("seed", "") if show_language else ""
        self._seed = int(asked) if asked.isdigit() and len(asked) < 9 else int(seed)
        self._count = 0
        self.grade: Grade | None = None
        self.exercise = self._make()
        self._question = widgets.HTML()
        self._question.add_class("deepsea-ex-question")
        self._board = widgets.HTML()
        self._choices = ChoiceButtons(self.answer)
        self._feedback = widgets.HTML()
        self._feedback.add_class("deepsea-ex-feedback")
        self._another = widgets.Button(icon="refresh")
        self._another.add_class("deepsea-ex-another")
        self._another.on_click(self._on_another)
        self._finish([self._question, self._board, self._choices, self._feedback, self._another])
        self.refresh()

    def _make(self) -> Exercise:
        # kinds in turn; each kind's seed goes up by one a round, so a kind whose seeds cycle through a fixed
        # list (the rule books' examples) reaches every entry whatever the number of kinds
        kind = self._kinds[self._count % len(self._kinds)]
        return generate(kind, self._seed + self._count // len(self._kinds))

    @safe_callback
    def answer(self, value: Any) -> None:
        """Grade ``value`` (untrusted). A forged answer is refused; the exercise and its feedback stay."""
        grade = self.exercise.grade(value)      # AnswerError for a forged answer: shown, nothing changes
        self.grade = grade
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_another(self, _b: Any = None) -> None:
        self._count += 1
        self.exercise = self._make()
        self.grade = None
        self.clear_report()
        self.refresh()

    def refresh(self) -> None:
        lang, ex, grade = self.lang, self.exercise, self.grade
        number = esc(self.t("teach.ui.exercise_n", n=self._count + 1))
        self._question.value = (f"<p><b>{number}</b> {esc(i18n.translate(ex.prompt, lang, dict(ex.params)))} "
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
        self._another.description = self.t("teach.ui.another")
