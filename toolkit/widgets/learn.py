"""Learn to play: a lesson's scripted steps, one action each, checked by the engine (the Dized experience).

:class:`LearnView` shows one :class:`~toolkit.teaching.lesson.Step` at a time: "Step 3 of 9" and the rule it
teaches, the instruction, the board of the step's real engine position, a feedback line, Back/Next and the
language toggle. The learner acts on the board itself — clicks a card in the Crew hand, a task token — or,
for a prediction, clicks one of the answers (the shared :class:`~toolkit.widgets.exercise.ChoiceButtons`).
The engine judges: a refused move shows its reason and changes nothing; an accepted one shows the position
after it and opens Next. ``?step=4`` opens the fourth step (1-based, like the page says).

Clicks are untrusted: a component checks a pick against what it was given, and :func:`check_move` /
:func:`check_answer` judge the rest (text that is no move, a forged answer).
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets

from toolkit.core import i18n
from toolkit.teaching.lesson import AnswerError, Lesson, Step, Verdict, check_answer, check_move, right_answer
from toolkit.widgets.base import View, esc, query_params, safe_callback
from toolkit.widgets.markup import heading
from toolkit.widgets.exercise import ChoiceButtons, feedback_html


class LessonBoard:
    """The board of a step: ``widget`` to display, ``show(step, state, done)`` to draw it, and a callback
    ``act(move)`` the board calls with the move a click stands for."""

    widget: widgets.Widget

    def __init__(self, act: Callable[[Any], Any]):
        self.act = act
        self.lang = "en"
        #: set by the view: a component refused a click itself (with the engine's reason it was given)
        self.refused: Callable[[str], Any] = lambda _text: None

    def show(self, step: Step, state: Any, done: bool) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


class CrewBoard(LessonBoard):
    """The Crew: the trick on the table, the tasks (clickable when the step takes one) and the acting seat's
    hand, every card clickable — the engine, not the hand, says which may be played."""

    def __init__(self, act: Callable[[Any], Any]):
        super().__init__(act)
        from toolkit.widgets.components.crew import CrewHand, TaskTokens, TrickTable
        self._table = TrickTable()
        self._table.add_class("learn-crew-trick")
        self._tasks = TaskTokens()
        self._tasks.add_class("learn-crew-tasks")
        self._tasks.on_pick(self._on_task)
        self._hand = CrewHand(title_key="crew.ui.example_hand", title_params={"name": ""})
        self._hand.add_class("learn-crew-hand")
        self._hand.on_pick(self._on_card)
        self._step: Step | None = None
        wrap = widgets.Layout(flex_flow="row wrap", align_items="flex-start")
        self.widget = widgets.HBox([self._table, widgets.VBox([self._hand, self._tasks])], layout=wrap)

    def _on_task(self, task: int) -> None:
        self.act(f"take {int(task)}")

    def _on_card(self, card: Any) -> None:
        from toolkit.teaching.crew import move_for_card
        if self._step is not None:
            self.act(move_for_card(self._step, card))

    def show(self, step: Step, state: Any, done: bool) -> None:
        from toolkit.crew.engine import ENGINE
        self._step = step
        lang = self.lang
        names = {s: i18n.translate("crew.ui.seat_n", lang, {"seat": s}) + (" ⚓" if s == state.captain else "")
                 for s in range(state.seats)}
        previous = None
        if state.tricks:
            last = state.tricks[-1]
            previous = (last.leader, last.cards, last.winner)
        acting = ENGINE.current_player(state)
        self._table.lang = lang
        self._table.show(state.seats, state.leader, state.trick, previous=previous, names=names,
                         acting=acting, you=[step.seat] if step.seat is not None else [])
        seat = step.seat if step.seat is not None else (acting or 0)
        self._hand.lang = lang
        self._hand.set_title("crew.ui.example_hand", name=names[seat])
        from toolkit.crew.cards import Card
        mark = Card.parse(step.params["mark"]) if step.params.get("mark") else None   # what a prediction is about
        self._hand.set_cards(state.hands[seat], playable=[] if done or step.is_question else None,
                             marks={mark: "next"} if mark in state.hands[seat] else None)
        tasks = ENGINE.observe(state, None)["tasks"]
        taking = not done and not step.is_question and state.phase == "allocate"
        self._tasks.lang = lang
        self._tasks.show(tasks, state.seats, names=names,
                         selectable=[t["id"] for t in tasks if t.get("owner") is None] if taking else [])


class MoveButtonsBoard(LessonBoard):
    """Any game: the position in words (the engine's ``describe`` of each offered move) and one button per
    move the step offers (right and wrong ones alike: the engine judges)."""

    def __init__(self, act: Callable[[Any], Any], describe_state: Callable[[Any, str], str] | None = None):
        super().__init__(act)
        self._describe_state = describe_state
        self._position = widgets.HTML()
        self._position.add_class("learn-position")
        self._buttons = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._buttons.add_class("learn-moves")
        self.widget = widgets.VBox([self._position, self._buttons])

    def show(self, step: Step, state: Any, done: bool) -> None:
        engine = step.scenario.engine
        lang = self.lang
        self._position.value = self._describe_state(state, lang) if self._describe_state else ""
        buttons = []
        for k, text in enumerate(() if step.is_question else step.offer):
            try:
                label = engine.describe_move(engine.parse_move(text), lang)
            except Exception:  # noqa: BLE001 - a move the position cannot describe is shown as typed
                label = text
            button = widgets.Button(description=label, tooltip=label, layout=widgets.Layout(width="auto"),
                                    disabled=done)
            button.add_class("learn-move")
            button.add_class(f"learn-move-{k}")
            button.on_click(lambda _b, m=text: self.act(m))
            buttons.append(button)
        self._buttons.children = tuple(buttons)


class TranquilityBoard(LessonBoard):
    """Tranquility: the 6×6 sea (row 1 at the bottom, as on the table) as buttons — a click places the step's
    selected island there — the acting seat's hand, and buttons for the step's other actions (start card,
    split, discard two)."""

    def __init__(self, act: Callable[[Any], Any]):
        super().__init__(act)
        self._cells: list[widgets.Button] = [None] * 36  # type: ignore[list-item]
        rows = []
        for row in range(5, -1, -1):
            line = []
            for col in range(6):
                i = row * 6 + col
                b = widgets.Button(layout=widgets.Layout(width="3.6em", height="2.4em", margin="1px"))
                b.add_class("learn-tranq-cell")
                b.add_class(f"learn-tranq-cell-{i}")
                b.on_click(lambda _b, i=i: self._on_cell(i))
                self._cells[i] = b
                line.append(b)
            rows.append(widgets.HBox(line))
        self._grid = widgets.VBox(rows)
        self._grid.add_class("learn-tranq-grid")
        self._moves = MoveButtonsBoard(act)
        self._hand = widgets.HTML()
        self._hand.add_class("learn-tranq-hand")
        self._step: Step | None = None
        style = widgets.HTML(_TRANQ_CSS, layout=widgets.Layout(display="none"))
        self.widget = widgets.HBox([style, self._grid,
                                    widgets.VBox([self._hand, self._moves.widget],
                                                 layout=widgets.Layout(margin="0 0 0 1em"))],
                                   layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))

    def _on_cell(self, cell: int) -> None:
        from toolkit.teaching.tranquility import move_for_cell
        step = self._step
        if step is not None and step.params.get("card") is not None and not step.is_question:
            self.act(move_for_cell(step, cell))

    def show(self, step: Step, state: Any, done: bool) -> None:
        from toolkit.tranquility.cards import TERMS
        self._step = step
        lang = self.lang
        start_row = step.scenario.state().cells
        for i, b in enumerate(self._cells):
            n = state.cells[i]
            b.description = str(n) if n else ""
            b.tooltip = i18n.translate("teach.tranq.cell", lang, {"row": i // 6 + 1, "column": i % 6 + 1})
            (b.add_class if n else b.remove_class)("learn-tranq-island")
            (b.add_class if n and not start_row[i] else b.remove_class)("learn-tranq-new")
            b.disabled = done or step.is_question or step.params.get("card") is None
        seat = step.seat if step.seat is not None else 0
        selected = step.params.get("card")
        cards = []
        for c in state.hands[seat]:
            label = i18n.translate(TERMS[c], lang) if c in TERMS else str(c)
            style = ("border:3px solid #b3176f;background:#fde7f3" if c == selected
                     else "border:1px solid #888;background:#fff")
            cards.append(f'<span class="learn-tranq-card" data-card="{c}" style="display:inline-block;'
                         f'min-width:2.2em;padding:2px 5px;margin:2px;border-radius:4px;text-align:center;{style}">'
                         f'{esc(label)}</span>')
        head = esc(i18n.translate("teach.tranq.hand", lang, {"seat": seat}))
        turn = esc(i18n.translate("teach.tranq.to_move", lang, {"seat": step.scenario.engine.current_player(state) or 0}))
        self._hand.value = f"<p>{turn}</p><p><b>{head}</b><br>{''.join(cards)}</p>"
        self._moves.lang = lang
        self._moves.show(step, state, done)


class DeepBlueLessonBoard(LessonBoard):
    """Deep Blue: the game's own clickable table (board, dive track, bag, market, hand) for the step's seat,
    offering that seat's legal moves; objects that cannot be used carry the engine's reason."""

    def __init__(self, act: Callable[[Any], Any]):
        super().__init__(act)
        from toolkit.widgets.deepblue.table import DeepBlueTable
        self._table = DeepBlueTable(self._on_move)
        for comp in self._table.components:
            comp.on_refuse(lambda text: self.refused(text))
        side = widgets.VBox([self._table.dive, self._table.bag], layout=widgets.Layout(flex="1 1 20em"))
        self.widget = widgets.VBox([
            widgets.HBox([self._table.board, side], layout=widgets.Layout(flex_flow="row wrap",
                                                                         align_items="flex-start")),
            self._table.market, self._table.hand])

    def _on_move(self, move: Any) -> bool:
        self.act(move)
        return False        # one move per step: a click never chains a second one

    def show(self, step: Step, state: Any, done: bool) -> None:
        from toolkit.widgets.deepblue.table import moves_of
        engine = step.scenario.engine
        seat = step.seat if step.seat is not None else engine.current_player(state)
        moves = [] if done or step.is_question else moves_of(engine.legal_moves(state), seat)
        self._table.set_lang(self.lang)
        self._table.update(state, seat, moves)


class PiratsBoard(LessonBoard):
    """Sewer Pirats: the game's own table component for the step's seat. Click the deck or a face-up card to
    draw, one of your pirats (in your area or on a ship) and then a space to move it or make it captain,
    your captain's space to set sail, a loot token to take it. The engine judges every click."""

    def __init__(self, act: Callable[[Any], Any]):
        super().__init__(act)
        from toolkit.widgets.components.pirats import PiratsTable
        self._table = PiratsTable()
        self._table.add_class("learn-pirats-table")
        self._table.on_pick(self._on_pick)
        self._table.on_refuse(lambda text: self.refused(text))
        self._chosen: str | None = None
        self._step: Step | None = None
        self._state: Any = None
        self._done = False
        self.widget = widgets.VBox([self._table])

    def _targets(self, state: Any, figure: str) -> dict[tuple[str, int], Any]:
        """Where the chosen figure can go: ``(ship, space 1-4) -> move``, from the legal moves."""
        from toolkit.pirats.model import BecomeCaptain, MovePirat
        from toolkit.teaching.pirats import landing
        engine = self._step.scenario.engine
        out: dict[tuple[str, int], Any] = {}
        for move in engine.legal_moves(state):
            if isinstance(move, (MovePirat, BecomeCaptain)) and move.figure == figure and not getattr(move, "peek", False):
                spot = landing(state, engine, move)
                if spot is not None:
                    out.setdefault(spot, move)
        return out

    def _on_pick(self, pick: tuple[str, Any]) -> None:
        from toolkit.pirats.model import CAPTAIN, SHIPS, MovePirat
        step, state = self._step, self._state
        if step is None or self._done:
            return
        what, value = pick
        engine = step.scenario.engine
        if what == "deck":
            self.act("draw deck")
        elif what == "row":
            self.act(f"draw {value}")
        elif what == "loot":
            self.act(f"take {value[1]}")
        elif what == "figure":
            self._chosen = None if self._chosen == value else value
            self.show(step, state, self._done)
        elif what == "space":
            ship, space = value
            seat = engine.current_player(state)
            occupant = state.ships[SHIPS.index(ship)].spaces[space - 1]
            if space - 1 == CAPTAIN and occupant is not None and occupant.seat == seat and self._chosen is None:
                self.act(f"sail {ship}")
            elif occupant is not None and occupant.seat == seat and self._chosen is None:
                self._chosen = engine.observe(state, None)["crews"][seat][occupant.figure]
                self.show(step, state, self._done)
            elif self._chosen is None:
                self.refused(i18n.translate("teach.pirats.choose_figure", self.lang))
            else:
                move = self._targets(state, self._chosen).get((ship, space))
                figure, self._chosen = self._chosen, None
                self.act(move if move is not None else MovePirat(figure, ship, 1))

    def show(self, step: Step, state: Any, done: bool) -> None:
        from toolkit.pirats.model import Draw, SetSail
        if step is not self._step:
            self._chosen = None
        self._step, self._state, self._done = step, state, done
        engine = step.scenario.engine
        seat = step.seat if step.seat is not None else engine.current_player(state)
        obs = engine.observe(state, seat)
        live = not done and not step.is_question and engine.current_player(state) == seat
        legal = engine.legal_moves(state) if live else []
        figures = sorted({m.figure for m in legal if hasattr(m, "figure")})
        targets = sorted(self._targets(state, self._chosen)) if live and self._chosen else []
        phase = obs["phase"]
        self._table.lang = self.lang
        self._table.show(obs, interactive=live, figures=figures, chosen=self._chosen, targets=targets,
                         sail=next((m.ship for m in legal if isinstance(m, SetSail)), None),
                         # the deck stays clickable in the action phase even when a rule forbids drawing:
                         # the engine then says why (a captain must sail)
                         draw=live and (phase in ("action", "draw") or any(isinstance(m, Draw) for m in legal)),
                         loot=obs["sailing"]["ship"] if live and phase == "sail" and obs["sailing"] else None)


BOARDS: dict[str, Callable[[Callable[[Any], Any]], LessonBoard]] = {"crew": CrewBoard, "pirats": PiratsBoard,
                                                                     "tranquility": TranquilityBoard,
                                                                     "deepblue": DeepBlueLessonBoard}


#: each lesson's "Check yourself": the exercise kinds its last stage asks, a round of CHECK_QUESTIONS
CHECK_KINDS: dict[str, tuple[str, ...]] = {
    "crew": ("crew.trick_winner", "crew.may_play", "crew.sonar", "crew.task_status"),
    "tranquility": ("tranquility.may_place", "tranquility.placement_cost", "tranquility.rulebook"),
    "deepblue": ("deepblue.busts", "deepblue.bust_above_third", "deepblue.dive_score", "deepblue.hire"),
    "pirats": ("pirats.space_reached", "pirats.move_cost", "pirats.score", "pirats.rulebook"),
}
CHECK_QUESTIONS = 4


def lesson_of(game: str) -> Lesson:
    """The "Learn to play" lesson of ``game``."""
    import importlib
    names = {"crew": "crew", "tranquility": "tranquility", "deepblue": "deepblue", "pirats": "pirats"}
    if game not in names:
        raise i18n.UnknownMessageError(f"no lesson for the game {game!r}")
    return importlib.import_module(f"toolkit.teaching.{names[game]}").LESSON


class LearnView(View):
    """Learn to play one game: short scripted steps, one action each, the engine checks it and says why."""

    def __init__(self, game: str = "crew", lang: str = "en", query: str | None = None, **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.add_class("deepsea-learn")
        self.add_class(f"deepsea-learn-{game}")
        self.lesson = lesson_of(game)
        self.game = game
        board_class = BOARDS.get(game)
        self._board = (board_class(self.act) if board_class is not None
                       else MoveButtonsBoard(self.act, _STATE_TEXT.get(game)))
        self._board.widget.add_class("learn-board")
        self._board.widget.layout.margin = "0.8em 0 0 0"
        self._board.refused = self._board_refused
        asked = query_params(query).get("step", "")
        self.index = int(asked) - 1 if asked.isdigit() and 1 <= int(asked) <= len(self.lesson) else 0
        #: past the last step: the "Check yourself" stage (``?check=1`` opens it), its exercises built lazily
        self.checking = False
        self.exercises: Any = None
        self._check = widgets.VBox()
        self._check.add_class("learn-check")
        self.done: set[int] = set()
        self.verdict: Verdict | None = None
        self._answer: str | None = None
        self._title = widgets.HTML()
        self._progress = widgets.HTML()
        self._progress.add_class("learn-progress")
        self._instruction = widgets.HTML()
        self._instruction.add_class("learn-instruction")
        self._choices = ChoiceButtons(self.answer)
        self._feedback = widgets.HTML()
        self._feedback.add_class("learn-feedback")
        self._back = widgets.Button(icon="arrow-left")
        self._back.add_class("learn-back")
        self._back.on_click(self._on_back)
        self._next = widgets.Button(icon="arrow-right", button_style="primary")
        self._next.add_class("learn-next")
        self._next.on_click(self._on_next)
        # the question, its answers, the feedback and Back/Next stay together above the board: a learner
        # reads, acts and hears the verdict without scrolling past a tall board (Deep Blue's is ~600 px)
        self._finish([self._title, self._progress, self._instruction, self._choices, self._feedback,
                      widgets.HBox([self._back, self._next]), self._check, self._board.widget])
        if query_params(query).get("check") == "1":
            self.goto_check()
        else:
            self.refresh()

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    # ---- the learner's actions (untrusted) -----------------------------------------------------------
    @safe_callback
    def act(self, move: Any) -> None:
        """A move from the board. Refused: the engine's reason, nothing changes. Accepted: the step is done."""
        if self.index in self.done or self.step.is_question:
            return
        verdict = check_move(self.step, move)
        self.verdict = verdict
        if verdict.accepted:
            self.done.add(self.index)
        self.clear_report()
        self.refresh()

    def _board_refused(self, text: str) -> None:
        """A board component refused a click with the engine's reason (it never reached :meth:`act`)."""
        if self.index in self.done or not text:
            return
        self.verdict = None
        self._feedback.value = feedback_html(False, text, "", self.lang)

    @safe_callback
    def answer(self, value: Any) -> None:
        """A prediction. A forged value raises AnswerError (shown; nothing changes)."""
        if not self.step.is_question:
            raise AnswerError("this step asks for a move, not an answer")
        if self.index in self.done:
            return
        verdict = check_answer(self.step, value)
        self.verdict, self._answer = verdict, value
        self.done.add(self.index)      # predict, then reveal: any answer reveals the engine's
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_next(self, _b: Any = None) -> None:
        if self.checking or self.index not in self.done:
            return
        if self.index < len(self.lesson) - 1:
            self.goto(self.index + 1)
        else:
            self.goto_check()

    @safe_callback
    def _on_back(self, _b: Any = None) -> None:
        if self.checking:
            self.goto(self.index)
        elif self.index > 0:
            self.goto(self.index - 1)

    def goto_check(self) -> None:
        """The last stage: a round of checked exercises of this game (built the first time it is opened)."""
        from toolkit.widgets.exercise import ExerciseView
        if self.exercises is None:
            self.exercises = ExerciseView(CHECK_KINDS[self.game], seed=1, lang=self.lang, show_language=False,
                                          questions=CHECK_QUESTIONS)
            widgets.dlink((self, "lang"), (self.exercises, "lang"))
            self._check.children = (self.exercises,)
        self.checking = True
        self.verdict, self._answer = None, None
        self.clear_report()
        self.refresh()

    def goto(self, index: int) -> None:
        self.checking = False
        self.index = min(max(int(index), 0), len(self.lesson) - 1)
        self.verdict, self._answer = None, None
        self.clear_report()
        self.refresh()

    # ---- drawing ---------------------------------------------------------------------------------------
    def refresh(self) -> None:
        lang, step, verdict = self.lang, self.step, self.verdict
        done = self.index in self.done
        self._title.value = heading(self.t(self.lesson.title))
        for part in (self._instruction, self._feedback, self._board.widget):
            part.layout.display = "none" if self.checking else ""
        self._check.layout.display = "" if self.checking else "none"
        self._back.description = self.t("teach.ui.back")
        if self.checking:
            self._progress.value = (f'<b class="learn-step-count learn-check-title" style="font-size:1.15em">'
                                    f'{esc(self.t("teach.ui.check_yourself"))}</b>'
                                    f'<p class="learn-text">{esc(self.t("teach.ui.check_intro", total=CHECK_QUESTIONS))}</p>')
            self._choices.show((), lang)
            self._choices.layout.display = "none"
            self._back.disabled = False
            self._next.disabled = True
            self._next.layout.display = "none"    # nothing after it: a greyed Next only raised the question
            return
        self._next.layout.display = ""
        self._progress.value = (f'<span class="learn-step-count">{esc(self.t("teach.ui.step_of", n=self.index + 1, total=len(self.lesson)))}</span>'
                                f' <code class="deepsea-rule learn-step-rule">{esc(step.rule)}</code>')
        self._instruction.value = f'<p class="learn-text" style="font-size:1.1em">{esc(step.text(lang))}</p>'
        state = verdict.state if verdict is not None and verdict.state is not None else step.scenario.state()
        self._board.lang = lang
        self._board.show(step, state, done)
        if step.is_question:
            marked: dict[str, str] = {}
            if done:
                marked[right_answer(step)] = "right"
                if self._answer is not None and self._answer != right_answer(step):
                    marked[self._answer] = "wrong"
            self._choices.show(step.task.choices, lang, marked)
            self._choices.layout.display = ""
        else:
            self._choices.show((), lang)
            self._choices.layout.display = "none"
        feedback = ""
        if verdict is not None:
            text = verdict.text(lang)
            feedback = feedback_html(verdict.accepted, text, verdict.rule, lang)
            if verdict.events:
                feedback += ('<ul class="learn-events">' + "".join(
                    f"<li>{esc(e.text(lang))}</li>" for e in verdict.events) + "</ul>")
        elif done:
            feedback = f'<div class="deepsea-feedback deepsea-right">{esc(self.t("teach.ui.done"))}</div>'
        if done and self.index == len(self.lesson) - 1 and self.lesson.outro:
            feedback += f'<p class="learn-outro"><b>{esc(self.t(self.lesson.outro))}</b></p>'
        self._feedback.value = feedback
        last = self.index == len(self.lesson) - 1
        self._next.description = self.t("teach.ui.check_next" if last else "teach.ui.next")
        self._back.disabled = self.index == 0
        self._next.disabled = not done


# The sea: light blue water, islands sandy, the island just placed outlined; a disabled cell keeps its
# colours (ipywidgets fades disabled buttons to grey, which read as "no sea here").
_TRANQ_CSS = """<style>
.learn-tranq-grid .learn-tranq-cell { background: #d6ecfa; border: 1px solid #7fb3d5; color: #1a1a1a;
  font-weight: bold; opacity: 1 !important; }
.learn-tranq-grid .learn-tranq-cell.learn-tranq-island { background: #f3e2b3; border-color: #a1887f; }
.learn-tranq-grid .learn-tranq-cell.learn-tranq-new { outline: 3px solid #2e7d32; outline-offset: -3px; }
.learn-tranq-grid .learn-tranq-cell:not(:disabled):hover { background: #b3daf5; }
</style>"""


#: how a step's position reads in words, for games drawn with move buttons
_STATE_TEXT: dict[str, Callable[[Any, str], str]] = {}
