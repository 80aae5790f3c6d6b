"""The table dashboard (``crew-mission``): play a seeded mission hot-seat, switching between seat views.

Hidden information: every widget is filled from ``ENGINE.observe(state, seat)`` for the seat chosen with
"You are", and the action list offers only that seat's moves, so other seats' cards never reach the DOM
or the widget state. Every click goes through the engine; a refusal shows its reason and rule id.
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.explain import Violation
from toolkit.crew.cards import Card
from toolkit.crew.engine import (ENGINE, TONOJA, AssignAll, AssignTask, Distress, GiveCard, PassTask, PlayCard,
                                 Predict, Retry, Sonar, TakeTask, TimeUp)
from toolkit.crew.missions import LAST_MISSION
from toolkit.widgets.base import GameSession, View, esc, query_params, safe_callback
from toolkit.widgets.crew.common import chip, chips, event_lines, int_param, lang_param

LOG_EVENTS = 16
MAX_HAND = 14


def options_from_query(params: Mapping[str, str]) -> tuple[int, dict[str, Any]]:
    """``?seed=7&players=4&mission=3`` (untrusted: clamped, defaults on anything unreadable)."""
    seed = int_param(params, "seed", 1, 0, 2**31 - 1)
    players = int_param(params, "players", 4, 2, 5)
    mission = int_param(params, "mission", 1, 1, LAST_MISSION)
    return seed, {"players": players, "mission": mission}


class MissionView(View):
    """A whole mission at one table: tasks, the trick, the previous trick, your hand, your moves, the log."""

    def __init__(self, seed: int | None = None, players: int | None = None, mission: int | None = None,
                 lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        q_seed, options = options_from_query(params)
        if players is not None:
            options["players"] = players
        if mission is not None:
            options["mission"] = mission
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-mission")
        self.model = GameSession(ENGINE, q_seed if seed is None else seed, options)
        self._title = widgets.HTML()
        self._status = widgets.HTML()
        self._status.add_class("crew-status")
        self._seat_label = widgets.HTML()
        self._seat = widgets.ToggleButtons(options=[("0", 0)], value=0, style={"button_width": "5.5em"})
        self._seat.add_class("crew-seat")
        self._tasks = widgets.HTML()
        self._tasks.add_class("crew-tasks")
        self._table = widgets.HTML()
        self._table.add_class("crew-table")
        self._hand_label = widgets.HTML()
        self._hand = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._hand.add_class("crew-hand")
        self._buttons = [self._card_button(i) for i in range(MAX_HAND + 7)]
        self._actions_label = widgets.HTML()
        self._actions = widgets.Dropdown(options=[], layout=widgets.Layout(width="34em"))
        self._actions.add_class("crew-actions")
        self._apply = widgets.Button()
        self._apply.add_class("crew-action-apply")
        self._apply.on_click(self._on_apply)
        self._seed = widgets.BoundedIntText(value=self.model.session.seed, min=0, max=2**31 - 1,
                                            layout=widgets.Layout(width="9em"))
        self._seed.add_class("crew-seed")
        self._new = widgets.Button()
        self._new.add_class("crew-new")
        self._new.on_click(self._on_new)
        self._log = widgets.HTML()
        self._log.add_class("crew-log")
        self._seat.observe(self._on_seat, names="value")
        self._finish([self._title, self._status, widgets.HBox([self._seat_label, self._seat]), self._tasks,
                      self._table, self._hand_label, self._hand,
                      widgets.HBox([self._actions_label, self._actions, self._apply]),
                      widgets.HBox([self._seed, self._new]), self._log])
        self._setup_events = list(getattr(self.model.session.initial, "_setup_events", ()))
        self.refresh()
        # start at the seat that acts first (the captain), as players sitting down would
        first = ENGINE.current_player(self.model.state)
        if first is not None and first != self.model.state.tonoja:
            self._seat.value = first

    # ---- helpers -------------------------------------------------------------------------------
    def _card_button(self, index: int) -> widgets.Button:
        b = widgets.Button(layout=widgets.Layout(width="3.6em"))
        b.add_class("crew-hand-card")
        b.on_click(self._on_card)
        b._crew_card = None  # the card this button plays (set in refresh, never read from the browser)
        return b

    @property
    def seat(self) -> int:
        value = self._seat.value
        n = self.model.state.seats
        return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n else 0

    def seat_moves(self, seat: int) -> list:
        """The legal moves this seat may make from its own screen (never another seat's hidden cards)."""
        state = self.model.state
        if not self.model.live:
            return []
        current = ENGINE.current_player(state)
        acts_for = {seat} | ({TONOJA} if state.tonoja is not None and seat == state.captain else set())
        out = []
        for m in self.model.legal_moves:
            if isinstance(m, (Sonar, GiveCard)):
                ok = m.seat == seat
            elif isinstance(m, (PlayCard, TakeTask, PassTask, Predict)):
                ok = current in acts_for
            elif isinstance(m, (AssignTask, AssignAll)):
                ok = seat == state.captain
            else:
                ok = True
            if ok:
                out.append(m)
        return out

    def _describe(self, move: Any) -> str:
        from toolkit.crew.tasks import TASKS
        lang = self.lang
        if isinstance(move, PlayCard):
            return self.t("CREW_MOVE_PLAY", card=move.card)
        if isinstance(move, Sonar):
            return ENGINE.describe_move(move, lang)
        if isinstance(move, TakeTask):
            return ENGINE.describe_move(move, lang)
        if isinstance(move, AssignTask):
            return self.t("crew.ui.assign", task=move.task, seat=move.seat, text=TASKS[move.task].text(lang))
        if isinstance(move, AssignAll):
            return self.t("crew.ui.assign_all", seat=move.seat)
        if isinstance(move, PassTask):
            return self.t("crew.ui.pass")
        if isinstance(move, Predict):
            return self.t("crew.ui.predict", n=move.tricks)
        if isinstance(move, Distress):
            return self.t("crew.ui.distress", direction=self.t(f"crew.direction.{move.direction}"))
        if isinstance(move, GiveCard):
            return self.t("crew.ui.give", card=move.card)
        if isinstance(move, TimeUp):
            return self.t("crew.ui.time_up")
        if isinstance(move, Retry):
            return self.t("crew.ui.retry_new" if move.new_tasks else "crew.ui.retry")
        return str(move)

    def _play(self, move: Any) -> None:
        self.play_on(self.model, move)
        self.refresh()

    # ---- callbacks (untrusted input: everything re-checked by the engine) ------------------------
    @safe_callback
    def _on_seat(self, change: Mapping[str, Any]) -> None:
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_card(self, button: widgets.Button) -> None:
        card = getattr(button, "_crew_card", None)
        if card is None:
            return
        state = self.model.state
        current = ENGINE.current_player(state)
        acts_for = {self.seat} | ({TONOJA} if state.tonoja is not None and self.seat == state.captain else set())
        if state.phase == "play" and current not in acts_for:
            self.report(Violation("NOT_YOUR_TURN", "core.turn", seat=self.seat, current=current), error=True)
            return
        self._play(PlayCard(card))

    @safe_callback
    def _on_apply(self, _button: Any = None) -> None:
        index = self._actions.value
        moves = self._offered
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(moves):
            self.report(self.t("crew.ui.pick_action"), error=True)
            return
        self._play(moves[index])

    @safe_callback
    def _on_new(self, _button: Any = None) -> None:
        self.model.new_game(seed=int(self._seed.value))
        self._setup_events = list(getattr(self.model.session.initial, "_setup_events", ()))
        self.clear_report()
        self.refresh()

    # ---- rendering ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not hasattr(self, "_log"):
            return  # the base class may announce a language before the children exist
        tr = self.t
        state = self.model.state
        seats = state.seats
        labels = [(("TONOJA" if s == state.tonoja else str(s)), s) for s in range(seats)]
        if list(self._seat.options) != labels:
            keep = self.seat if self.seat < seats else 0
            self._seat.options = labels
            self._seat.value = keep
        seat = self.seat
        obs = ENGINE.observe(state, seat)
        self._title.value = f"<h3>{esc(tr('crew.ui.mission_title', mission=state.mission))}</h3>"
        current = obs["current"]
        who = "TONOJA" if current is not None and current == state.tonoja else current
        phase = tr(f"crew.phase.{obs['phase']}")
        comm = obs["communication"]
        status = tr("crew.ui.status", players=state.players, attempt=obs["attempt"],
                    counted=obs["attempts_counted"], captain=obs["captain"], phase=phase,
                    comm=tr(f"crew.comm.{comm['mode']}"), current="—" if who is None else who)
        if comm["time_limit"]:
            status += " · " + tr("crew.ui.time_limit", time=comm["time_limit"])
        outcome = ENGINE.outcome(state)
        if outcome is not None:
            status += f" · <b>{esc(outcome.text(self.lang))}</b>"
        self._status.value = f'<div data-phase="{esc(obs["phase"])}" data-current="{esc(current)}">{esc(status)}</div>'
        self._seat_label.value = esc(tr("crew.ui.you_are"))
        # tasks
        rows = []
        for task in obs["tasks"]:
            owner = "—" if task["owner"] is None else ("TONOJA" if task["owner"] == state.tonoja else task["owner"])
            pred = "" if task["prediction"] is None else (tr("crew.ui.secret") if task["prediction"] == "secret"
                                                          else f" X={task['prediction']}")
            rows.append(f'<tr data-task="{task["id"]}" data-status="{task["status"]}"><td>#{task["id"]}</td>'
                        f'<td>{esc(task["ja"] if self.lang == "ja" else task["en"])}{esc(pred)}</td>'
                        f'<td>{task["difficulty"]}</td><td>{esc(owner)}</td>'
                        f'<td>{esc(tr("crew.status." + task["status"]))}</td></tr>')
        head = "".join(f"<th>{esc(tr(k))}</th>" for k in ("crew.ui.task", "crew.ui.text", "crew.ui.difficulty",
                                                          "crew.ui.owner", "crew.ui.status_col"))
        self._tasks.value = (f"<table class='crew-task-table'><tr>{head}</tr>{''.join(rows)}</table>" if rows
                             else f"<p>{esc(tr('crew.ui.no_tasks'))}</p>")
        # the table: trick on the table, previous trick, communicated cards, TONOJA's cards, tricks won
        trick = obs["trick"]
        prev = obs["previous_trick"]
        parts = [f"<p><b>{esc(tr('crew.ui.trick'))}</b> ({esc(tr('crew.ui.led_by', seat=trick['leader']))}): "
                 f"{chips(trick['cards'], self.lang)}</p>"]
        if prev:
            parts.append(f"<p class='crew-previous'><b>{esc(tr('crew.ui.previous'))}</b>: {chips(prev['cards'], self.lang)}"
                         f" → {esc(tr('crew.ui.won_by', seat=prev['winner']))}</p>")
        if obs["communicated"]:
            comms = " ".join(f"{esc(c['seat'])}: {chip(c['card'], self.lang)} "
                             f"({esc(tr('crew.sonar.' + (c['position'] or 'hidden')))})" for c in obs["communicated"])
            parts.append(f"<p class='crew-comms'><b>{esc(tr('crew.ui.communicated'))}</b>: {comms}</p>")
        if obs["tonoja"]:
            cols = " ".join((chip(c["face_up"], self.lang) if c["face_up"] else "▢") + ("▮" if c["face_down"] else "")
                            for c in obs["tonoja"])
            parts.append(f"<p class='crew-tonoja'><b>TONOJA</b>: {cols}</p>")
        parts.append(f"<p>{esc(tr('crew.ui.tricks_won'))}: " + ", ".join(
            f"{'TONOJA' if s == state.tonoja else s}: {n}" for s, n in enumerate(obs["tricks_won"])) + "</p>")
        self._table.value = "".join(parts)
        # the hand (own cards only) and, for the captain in a two-player game, TONOJA's face-up cards
        hand = [Card.parse(c) for c in obs["hand"]]
        extra = []
        if state.tonoja is not None and seat == state.captain and current == state.tonoja:
            extra = list(state.hand(state.tonoja))
        self._hand_label.value = esc(tr("crew.ui.your_hand", seat=seat)) + (
            " " + esc(tr("crew.ui.tonoja_plays")) if extra else "")
        shown = []
        for button, card in zip(self._buttons, hand + extra):
            button._crew_card = card
            button.description = str(card)
            button.tooltip = card.text(self.lang)
            button.style.button_color = {"B": "#9dbdf0", "G": "#9fdcb2", "Y": "#f1e08a", "P": "#f3a9d3",
                                         "S": "#bbbbbb"}[card.suit]
            shown.append(button)
        for button in self._buttons[len(hand + extra):]:
            # unused buttons keep no card text: their widget state also reaches the browser
            button._crew_card = None
            button.description = ""
            button.tooltip = None
        self._hand.children = shown
        # this seat's other moves
        self._offered = [m for m in self.seat_moves(seat) if not isinstance(m, PlayCard)]
        self._actions.options = [(self._describe(m), i) for i, m in enumerate(self._offered)]
        self._actions_label.value = esc(tr("crew.ui.actions"))
        self._apply.description = tr("ui.apply")
        self._new.description = tr("ui.new_game")
        events = self._setup_events + list(self.model.events)
        self._log.value = (f"<b>{esc(tr('ui.event_log'))}</b>" + event_lines(events[-LOG_EVENTS:], self.lang))
