"""Playing Deep Blue in the page: the dive view (``deep-blue-dive``) and the hot-seat game view
(``deep-blue-game``).

Every action is a click on the object it acts on (:class:`toolkit.widgets.deepblue.table.DeepBlueTable`:
the board's sites and boats, the market's and the hand's cards, the bag, your boat on the dive track); the
list of every legal move stays as an accessible fallback, in a collapsed "All moves" section.

Hidden information: the page only ever renders ``ENGINE.observe(state, seat)`` for the seat chosen with
"You are", and offers only that seat's legal moves, so other seats' cards never reach the DOM or the
widget state. Every click goes through the engine; a refused move shows its reason and rule id.
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets
import numpy as np

from toolkit.core.errors import InvalidMoveError
from toolkit.core.session import Session
from toolkit.deepblue.engine import ENGINE
from toolkit.deepblue.positions import teaching_dive
from toolkit.deepblue.bots import BOTS, PolicyBot
from toolkit.deepblue.coach import dive_advice
from toolkit.widgets.base import (GameSession, View, close_tree, esc, event_log_html, query_params, safe_callback,
                                 set_options)
from toolkit.widgets.seats import PACE_DEFAULT, YOU, BotDriver, SeatSetup, default_seats
from toolkit.core import i18n
from toolkit.widgets.deepblue.table import DeepBlueTable


#: the events that tell how a dive ended, kept on the dive track until the next dive starts
DIVE_END_CODES = frozenset({"DEEPBLUE_BUST", "DEEPBLUE_LEFT", "DEEPBLUE_LEADER_STOPPED", "DEEPBLUE_SCORED",
                            "DEEPBLUE_CARD_VP_LOST", "DEEPBLUE_LEADER_BONUS", "DEEPBLUE_CARD_SCORED",
                            "DEEPBLUE_BEST_OF_THE_BEST"})


def last_dive_text(events: list, lang: str, seat_name: Any = None) -> str:
    """How the last dive ended ("Last dive (site 4): Seat 1 (policy bot): Busts on a blue gem. · You: …"),
    or "" before the first dive. Each line names its seat: the sentences alone do not say who."""
    from toolkit.core.i18n import translate

    starts = [i for i, e in enumerate(events) if e.code == "DEEPBLUE_DIVE_START"]
    if not starts:
        return ""
    start = events[starts[-1]]
    colon = "：" if lang == "ja" else ": "
    lines = [(f"{seat_name(e.seat)}{colon}" if seat_name is not None and isinstance(e.seat, int) else "") + e.text(lang)
             for e in events[starts[-1]:] if e.code in DIVE_END_CODES]
    if not lines:
        return ""
    return translate("deepblue.ui.last_dive", lang, site=start.param("site", "?"), result=" · ".join(lines))


def _seed_from(params: Mapping[str, str], default: int) -> int:
    try:
        return min(max(int(params.get("seed", default)), 0), 2**31 - 1)
    except ValueError:
        return default


class _DeepBluePlayView(View):
    """Shared parts: the seat chooser, the clickable table, the "All moves" fallback, the risk line and the
    event log."""

    def __init__(self, model: GameSession, lang: str = "en", seats: int = 3, full_table: bool = True,
                 **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.model = model
        self.table = DeepBlueTable(self._table_move, lang=lang, board=full_table, market=full_table)
        # the accessible fallback: every legal move of the seat in a list, collapsed under "All moves"
        self._moves = widgets.Dropdown(options=[], layout=widgets.Layout(width="auto", max_width="100%"))
        self._moves.add_class("deepblue-moves")
        self._apply = widgets.Button(button_style="primary")
        self._apply.add_class("deepblue-game-apply")
        self._apply.on_click(self._on_apply)
        self._all_moves = widgets.Accordion(children=[widgets.HBox([self._moves, self._apply],
                                                                   layout=widgets.Layout(flex_flow="row wrap"))])
        self._all_moves.selected_index = None
        self._all_moves.add_class("deepblue-all-moves")
        self._seat = widgets.ToggleButtons(options=[(f"{i}", i) for i in range(seats)], value=0,
                                           style={"button_width": "3.5em"})
        self._seat.add_class("deepblue-seat")
        self._seat_label = widgets.HTML()
        self._risk = widgets.HTML()
        self._risk.add_class("deepblue-risk-line")
        self._log = widgets.HTML()
        self._log.add_class("deepblue-log")
        self._seat.observe(self._on_seat, names="value")

    # ---- helpers -------------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        value = self._seat.value
        n = self.model.state.seats
        return value if isinstance(value, int) and 0 <= value < n else 0

    def _seat_moves(self) -> list:
        return [m for m in self.model.legal_moves if m.seat == self.seat] if self.model.live else []

    @safe_callback
    def _on_seat(self, change: Mapping[str, Any]) -> None:
        self.refresh()

    def _play(self, move: Any) -> bool:
        applied = self.play_on(self.model, move)
        self.refresh()
        return applied

    def _table_move(self, move: Any) -> bool:
        """A click on the table means ``move`` (for the seat shown): the engine decides."""
        return self._play(move)

    @safe_callback
    def _on_apply(self, _b: Any = None) -> None:
        move = self._moves.value
        if move is None:
            raise InvalidMoveError("choose a move first")
        self._play(ENGINE.parse_move(str(move)))

    def _refresh_moves(self, moves: list) -> None:
        """The fallback list, the title of its section and the table's offers."""
        state = self.model.shown_state()
        self._apply.description = self.t("deepblue.ui.apply")
        self._all_moves.set_title(0, self.t("deepblue.comp.all_moves"))
        self._moves.tooltip = self.t("deepblue.ui.your_moves")
        self._moves.options = [(ENGINE.describe_move(m, self.lang, state), str(m)) for m in moves]

    def _render_common(self) -> dict[str, Any]:
        state = self.model.shown_state()
        obs = ENGINE.observe(state, self.seat)
        self._seat_label.value = esc(self.t("deepblue.ui.you_are"))
        if self.table.lang != self.lang:
            self.table.set_lang(self.lang)
        moves = self._seat_moves()
        live_dive = obs.get("dive")
        self.table.update(state, self.seat, moves,
                          "" if live_dive else last_dive_text(self.model.events, self.lang, self._seat_name()))
        self._refresh_moves(moves)
        self._risk.value = self._risk_line(obs)
        self._log.value = event_log_html(self.model.events, self.lang, seat_name=self._seat_name())
        return obs

    def _seat_name(self):
        """How the log names a seat (the game view names people and bots; the dive view has no seats)."""
        return None

    def _risk_line(self, obs: dict[str, Any]) -> str:
        """The coach at a dive decision, for the viewing diver, from its observation only: the exact bust
        chance of the next draw (pull), the expected VP of stopping and of going on under the optimal policy,
        and what the policy bot would do (:mod:`toolkit.deepblue.coach`)."""
        adv = dive_advice(obs, self.seat, ENGINE.components)
        if adv is None or adv.gems == 0:
            return ""
        # a beginner's view: the chance as a whole percentage (exact fractions: the gem-bag analysis view)
        line = self.t("deepblue.ui.risk_for_you", seat=self.seat, percent=i18n.percent(adv.bust, self.lang),
                      advice=self.t(f"deepblue.ui.advice_{adv.advice}"),
                      stop=f"{float(adv.stop):.2f}", go=(f"{float(adv.go):.2f}" if adv.go is not None else "—"))
        # the viewing diver's own moves only: the others' scoring cards would name their hands
        legal = ENGINE.legal_moves(self.model.session.state, self.seat) if self.model.live else []
        bot = PolicyBot(ENGINE.components).decide(obs, legal, np.random.default_rng(0))
        would = (ENGINE.describe_move(bot.move, self.lang, self.model.shown_state()) if bot.move is not None
                 else self.t("deepblue.ui.coach_stays"))
        if getattr(self, "_hint_shown", None) is not None:
            # the hint says the same bot's move already: said once, not twice
            return f"<div class='deepblue-risk deepblue-advice-{adv.advice}'>{esc(line)}</div>"
        coach = self.t("deepblue.ui.coach_bot", move=would, reason=bot.text(self.lang))
        return (f"<div class='deepblue-risk deepblue-coach deepblue-advice-{adv.advice}'>{esc(line)}<br>"
                f"<small class='deepblue-coach-bot'>{esc(coach)}</small> {_rule_ref(bot.reason.rule, self.lang)}</div>")


class DiveView(_DeepBluePlayView):
    """A dive step by step (dashboard ``deep-blue-dive``): three divers, protections, scouting spots."""

    def __init__(self, seed: int | None = None, lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        seed = _seed_from(params, 7) if seed is None else seed
        lang = params.get("lang", lang) if params.get("lang") in ("en", "ja") else lang
        model = GameSession(ENGINE, seed)
        # GameSession(session=...) tests ``session or ...`` and an empty Session is falsy (it has __len__),
        # so the teaching position is installed after construction.
        model.session = Session(ENGINE, seed, {}, initial=teaching_dive(seed))
        model._sync()
        super().__init__(model, lang=lang, seats=3, full_table=False, **kwargs)
        self.add_class("deepblue-dive-root")
        self._title = widgets.HTML()
        self._undo = widgets.Button()
        self._undo.add_class("deepblue-undo")
        self._undo.on_click(self._on_undo)
        self._summary = widgets.HTML()
        self._summary.add_class("deepblue-dive-summary")
        tab = self.table
        self._finish([self._title, widgets.HBox([self._seat_label, self._seat, self._undo],
                                                layout=widgets.Layout(flex_flow="row wrap")),
                      tab.dive, tab.bag, self._risk, tab.hand, self._summary, self._all_moves, self._log])
        self.refresh()

    @safe_callback
    def _on_undo(self, _b: Any = None) -> None:
        self.model.undo()
        self.clear_report()
        self.refresh()

    def refresh(self) -> None:
        if not hasattr(self, "_undo"):
            return
        self._title.value = f"<h3>{esc(self.t('deepblue.ui.dive_title'))}</h3>"
        self._undo.description = self.t("ui.undo")
        self._render_common()
        over = self.model.shown_state().dive is None
        self._summary.value = (event_log_html([e for e in self.model.events if e.code == "DEEPBLUE_SCORED"], self.lang)
                               if over and self.model.events else "")


class GameView(_DeepBluePlayView):
    """The full game at a table with bots (dashboard ``deep-blue-game``).

    Each seat is "you" or a bot level of :data:`toolkit.deepblue.BOTS` (:class:`~toolkit.widgets.seats.SeatSetup`;
    by default you are seat 0 and the others play the strongest level); bots move on their own at the chosen
    pace or one at a time in step mode (:class:`~toolkit.widgets.seats.BotDriver`). The page draws
    ``observe(state, seat)`` of the seat :meth:`SeatSetup.viewing_seat` names — a "you" seat, never a bot's,
    unless the labelled teacher switch is on — so no other seat's hand reaches the browser. At every dive
    decision the coach line shows the exact bust chance, stop against go and what the policy bot would do;
    "Hint" shows the policy bot's move for any decision. A bot's reason is shown with the teacher switch on
    (it may depend on the bot's own hand, e.g. its protections).

    URL parameters: ``seed``, ``players``, ``scenario``, ``lang``, ``seats=you,policy,random``, ``pace``,
    ``step=1``.
    """

    def __init__(self, seed: int | None = None, players: int = 3, scenario: str = "troubled-waters",
                 lang: str = "en", query: str | None = None, seats: list[str] | None = None,
                 pace: float | None = None, step_mode: bool = False, **kwargs: Any):
        params = query_params(query)
        seed = _seed_from(params, 1) if seed is None else seed
        try:
            players = min(max(int(params.get("players", players)), 2), 5)
        except ValueError:
            pass
        ids = [s.id for s in ENGINE.components.scenarios]
        scenario = params.get("scenario", scenario) if params.get("scenario", scenario) in ids else "troubled-waters"
        lang = params.get("lang", lang) if params.get("lang") in ("en", "ja") else lang
        levels = list(BOTS)
        wanted = params.get("seats")
        if wanted is not None:
            asked = [w.strip() for w in wanted.split(",")]
            if len(asked) == players and all(a == YOU or a in levels for a in asked):
                seats = asked
        if seats is None or len(seats) != players:
            seats = default_seats(players, levels)
        try:
            pace = float(params.get("pace", pace if pace is not None else PACE_DEFAULT))
        except ValueError:
            pace = PACE_DEFAULT
        step_mode = step_mode or params.get("step") in ("1", "true", "yes")
        model = GameSession(ENGINE, seed, {"players": players, "scenario": scenario})
        super().__init__(model, lang=lang, seats=players, **kwargs)
        self.add_class("deepblue-game-root")
        self.setup = SeatSetup(players, levels, seats=seats, lang=lang, pace=pace, step_mode=step_mode)
        self._title = widgets.HTML()
        self._status = widgets.HTML()
        self._status.add_class("deepblue-status")
        self._viewing = widgets.HTML()
        self._viewing.add_class("deepblue-viewing")
        self._undo = widgets.Button()
        self._undo.add_class("deepblue-undo")
        self._undo.on_click(self._on_undo)
        self._hint_button = widgets.Button()
        self._hint_button.add_class("deepblue-hint")
        self._hint_button.on_click(self._on_hint)
        self._hint = widgets.HTML()
        self._hint_shown: Any = None   # a message key, or (the coach's decision, the table it saw)
        self._hint.add_class("deepblue-hint-text")
        self._bot_line = widgets.HTML()
        self._bot_line.add_class("deepblue-bot-line")
        self._players = widgets.Dropdown(options=[2, 3, 4, 5], value=players)
        self._scenario = widgets.Dropdown(options=self._scenario_options(lang), value=scenario)
        self._seed_box = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1, layout=widgets.Layout(width="9em"))
        self._new = widgets.Button()
        self._new.add_class("deepblue-new-game")
        self._new.on_click(self._on_new)
        self._players_label, self._scenario_label, self._seed_label = (widgets.HTML() for _ in range(3))
        self._notes = widgets.HTML()
        tab = self.table
        row = widgets.Layout(flex_flow="row wrap")
        self._finish([self._title, self.setup, self._status, self._viewing, self._bot_line,
                      widgets.HBox([self._hint_button, self._undo], layout=row), self._hint, self._risk,
                      widgets.HBox([tab.board, widgets.VBox([tab.dive, tab.bag], layout=widgets.Layout(
                          flex="1 1 22em", min_width="0"))], layout=row),
                      tab.hand, tab.market, self._all_moves, self._log,
                      widgets.HBox([self._players_label, self._players, self._scenario_label, self._scenario,
                                    self._seed_label, self._seed_box, self._new], layout=row), self._notes])
        self.driver = BotDriver(model, self.setup, on_error=lambda exc: self.report(str(exc), error=True))
        self.driver.observe(self._on_bot_moved, "moves_played")
        self.setup.observe(self._on_setup, names=["seats", "show_all", "waiting"])
        self.observe(self._sync_setup_lang, names="lang")
        self.refresh()

    # ---- who is shown ----------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat whose observation the page draws (a "you" seat; any seat with the teacher switch)."""
        state = self.model.shown_state()
        seat = self.setup.viewing_seat(ENGINE.current_player(state)) if hasattr(self, "setup") else 0
        return seat if seat is not None else 0

    def _public(self) -> bool:
        """True when no "you" seat exists and the teacher switch is off: draw the spectator's view."""
        return not self.setup.human_seats() and not self.setup.show_all

    def _seat_moves(self) -> list:
        if not self.model.live or not self.setup.is_human(self.seat):
            return []
        return [m for m in self.model.legal_moves if m.seat == self.seat]

    def _render_common(self) -> dict[str, Any]:
        if not self._public():
            return super()._render_common()
        state = self.model.shown_state()
        obs = ENGINE.observe(state, None)
        if self.table.lang != self.lang:
            self.table.set_lang(self.lang)
        self.table.update(state, None, [], "" if obs.get("dive") else
                          last_dive_text(self.model.events, self.lang, self._seat_name()))
        self._refresh_moves([])
        self._risk.value = ""
        self._log.value = event_log_html(self.model.events, self.lang, seat_name=self._seat_name())
        return obs

    def _seat_name(self):
        return self.setup.seat_name

    def _table_move(self, move: Any) -> bool:
        if not self.setup.is_human(getattr(move, "seat", None)):
            raise InvalidMoveError(f"seat {move.seat} is played by a bot")
        self._hint_shown = None
        self._hint.value = ""
        return self._play(move)

    # ---- callbacks ---------------------------------------------------------------------------------
    @safe_callback
    def _on_bot_moved(self, change: Mapping[str, Any]) -> None:
        self._hint_shown = None
        self.refresh()

    @safe_callback
    def _on_setup(self, change: Mapping[str, Any]) -> None:
        self.refresh()

    @safe_callback
    def _sync_setup_lang(self, change: Mapping[str, Any]) -> None:
        self.setup.lang = self.lang

    @safe_callback
    def _on_apply(self, _b: Any = None) -> None:
        move = self._moves.value
        if move is None:
            raise InvalidMoveError("choose a move first")
        self._table_move(ENGINE.parse_move(str(move)))

    @safe_callback
    def _on_hint(self, _b: Any = None) -> None:
        seat = self.seat
        if not self.setup.is_human(seat) or not self.model.live:
            self._hint_shown = None
        else:
            decision = self.driver.hint(seat, "policy")
            self._hint_shown = ("deepblue.ui.coach_stays" if decision is None or decision.move is None
                                else (decision, self.model.shown_state()))
        self._render_hint()
        if not self._public():
            self._risk.value = self._risk_line(ENGINE.observe(self.model.shown_state(), self.seat))

    def _render_hint(self) -> None:
        """The coach's hint, worded in the page's language at every redraw (the toggle rewords it)."""
        shown = self._hint_shown
        if shown is None:
            self._hint.value = ""
            self.table.mark_hint()
            return
        if isinstance(shown, str):
            text = self.t(shown)
            self.table.mark_hint()
        else:
            decision, state = shown
            text = self.t("deepblue.ui.hint_text", move=ENGINE.describe_move(decision.move, self.lang, state),
                          reason=decision.text(self.lang))
            # the object the hint suggests is outlined where it is drawn (issue 26)
            self.table.mark_hint(decision.move, state, text, decision.reason)
        rule = "" if isinstance(shown, str) else _rule_ref(shown[0].reason.rule, self.lang)
        self._hint.value = f"<div class='deepblue-hint-body'>{esc(text)} {rule}</div>"

    @safe_callback
    def _on_undo(self, _b: Any = None) -> None:
        # undo back to the last position where a "you" seat was to move (bots would replay at once)
        self.model.undo()
        while (len(self.model.session) and not self.setup.is_human(ENGINE.current_player(self.model.state))
               and self.setup.human_seats()):
            self.model.undo()
        self._hint_shown = None      # the hint was for the position undone
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_new(self, _b: Any = None) -> None:
        players = self._players.value if self._players.value in (2, 3, 4, 5) else 3
        scenario = self._scenario.value
        if players != len(self.setup.seats):
            self._rebuild_setup(players)
        self.model.new_game(int(self._seed_box.value), {"players": players, "scenario": scenario})
        self._hint_shown = None
        self.clear_report()
        self.refresh()

    @staticmethod
    def _scenario_options(lang: str) -> list[tuple[str, str]]:
        return [(s.name.get(lang) or s.name["en"], s.id) for s in ENGINE.components.scenarios]

    def _result_text(self, outcome: Any) -> str:
        """The result in the page's words: "You win with 12 VP!", "Seat 2 (policy bot) wins …"."""
        winners = list(outcome.winners)
        vp = outcome.param("vp", max(outcome.scores) if outcome.scores else 0)
        if len(winners) == 1 and self.setup.is_human(winners[0]) and len(self.setup.human_seats()) == 1:
            return self.t("deepblue.ui.result_you_win", vp=vp)
        names = [self.setup.seat_name(s) for s in winners]
        if len(names) == 1:
            return self.t("deepblue.ui.result_wins", who=names[0], vp=vp)
        return self.t("deepblue.ui.result_share", who=names, vp=vp)

    def _rebuild_setup(self, players: int) -> None:
        self.driver.close()
        old = self.setup
        self.setup = SeatSetup(players, list(BOTS), lang=self.lang, pace=old.pace, step_mode=old.step_mode)
        self.setup.observe(self._on_setup, names=["seats", "show_all", "waiting"])
        children = list(self.children)
        children[children.index(old)] = self.setup
        self.children = tuple(children)
        # the old setup goes with all its widgets (left open, ~40 models stayed in the kernel and the page)
        old.unobserve(self._on_setup, names=["seats", "show_all", "waiting"])
        close_tree(old)
        self.driver = BotDriver(self.model, self.setup)
        self.driver.observe(self._on_bot_moved, "moves_played")

    def refresh(self) -> None:
        if not hasattr(self, "driver"):
            return
        if self.setup.lang != self.lang:        # the seat setup speaks the page's language
            self.setup.lang = self.lang
        tr = self.t
        state = self.model.shown_state()
        self._title.value = f"<h3>{esc(tr('deepblue.ui.game_title'))}</h3>"
        self._undo.description = tr("ui.undo")
        self._new.description = tr("ui.new_game")
        self._hint_button.description = tr("seats.hint")
        self._render_hint()
        self._players_label.value = esc(tr("deepblue.ui.players"))
        self._scenario_label.value = esc(tr("deepblue.ui.scenario"))
        set_options(self._scenario, self._scenario_options(self.lang))
        self._seed_label.value = esc(tr("ui.seed"))
        self._notes.value = f"<p><small>{esc(tr('deepblue.ui.illustrative_note'))}</small></p>"
        obs = self._render_common()
        comps = ENGINE.components
        scen = comps.scenario(state.scenario).name[self.lang]
        outcome = self.model.outcome
        status = tr("deepblue.ui.status_line", seat=state.turn, phase=tr(f"deepblue.phase.{state.phase}"),
                    cities=len(state.sunken_cities), scenario=scen)
        # seats named as the log and the hints name them ("You", "Seat 1 (bot: best play)")
        colon = "：" if self.lang == "ja" else ": "
        chests = " · ".join(f"{self.setup.seat_name(p['seat'])}{colon}{p['chest']} VP "
                            f"({tr('deepblue.ui.hand_size', n=p['hand_size'])})" for p in obs["players"])
        lines = [status, f"{tr('deepblue.ui.chests')}: {chests}"]
        self._status.value = "<br>".join(esc(line) for line in lines)
        if outcome is not None:             # the result once, as a banner under the status
            self._status.value += (f"<div class='deepblue-result' role='status' style='margin:.4em 0;padding:.4em .7em;"
                                   f"border:2px solid #1f5fbf;border-radius:6px;background:#eef4ff;font-weight:bold;"
                                   f"font-size:1.15em'>{esc(tr('deepblue.ui.game_over', result=self._result_text(outcome)))}"
                                   "</div>")
        acting = ENGINE.current_player(state)
        if self._public():
            viewing = tr("deepblue.ui.viewing_public")
        elif acting is not None and not self.setup.is_human(acting) and not self.setup.show_all:
            viewing = tr("deepblue.ui.viewing_wait", seat=self.seat, bot=acting)
        else:
            viewing = tr("deepblue.ui.viewing_you", seat=self.seat)
        self._viewing.value = f"<b data-seat='{self.seat}'>{esc(viewing)}</b>"
        last = self.driver.last
        if last is not None:
            seat, decision = last
            level = self.setup.seats[seat] if seat < len(self.setup.seats) else "?"
            before = None                       # the position the bot moved in (names the hired card)
            session = self.model.session
            moves = session.moves
            for i in range(len(moves) - 1, max(len(moves) - 12, -1), -1):
                if moves[i] == decision.move:
                    before = session.at(i)
                    break
            shown = (decision.text(self.lang) if self.setup.show_all else
                     ENGINE.describe_move(decision.move, self.lang, before).split(": ", 1)[-1].split("：", 1)[-1])
            # the bot named as everywhere else on the page: "Seat 1 (bot: best play): join the dive"
            said = f"{self.setup.seat_name(seat)}{'：' if self.lang == 'ja' else ': '}{shown}"
            rule = f" {_rule_ref(decision.reason.rule, self.lang)}" if self.setup.show_all else ""
            self._bot_line.value = f"<div class='deepblue-bot-move' data-level='{esc(level)}'>{esc(said)}{rule}</div>"
        else:
            self._bot_line.value = ""
        self._hint_button.disabled = not self._seat_moves()


def _rule_ref(rule: str, lang: str) -> str:
    """The rule id beside a bot's sentence, not in it (:func:`toolkit.widgets.base.rule_ref_html`)."""
    from toolkit.widgets.base import rule_ref_html

    return rule_ref_html(rule, lang)
