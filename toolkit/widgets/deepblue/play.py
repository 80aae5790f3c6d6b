"""Playing Deep Blue in the page: the dive view (``deep-blue-dive``) and the hot-seat game view
(``deep-blue-game``).

Hidden information: the page only ever renders ``ENGINE.observe(state, seat)`` for the seat chosen with
"You are", and offers only that seat's legal moves, so other seats' cards never reach the DOM or the
widget state. Every button goes through the engine; a refused move shows its reason and rule id.
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets
import numpy as np

from toolkit.core.errors import InvalidMoveError
from toolkit.core.session import Session
from toolkit.deepblue.engine import ENGINE
from toolkit.deepblue.model import (Anchor, Decline, DrawGem, Hire, Join, Leave, PlayCard, Protect, Rest, Stop)
from toolkit.deepblue.positions import teaching_dive
from toolkit.deepblue.bots import BOTS, PolicyBot, card_worth
from toolkit.deepblue.coach import dive_advice
from toolkit.plots.deepblue import board_figure
from toolkit.widgets.base import Chart, GameSession, View, esc, event_log_html, query_params, safe_callback
from toolkit.widgets.seats import PACE_DEFAULT, YOU, BotDriver, SeatSetup, default_seats
from toolkit.widgets.deepblue.common import card_text, dive_html, gem_name, hand_html, percent

LOG_EVENTS = 14


def _seed_from(params: Mapping[str, str], default: int) -> int:
    try:
        return min(max(int(params.get("seed", default)), 0), 2**31 - 1)
    except ValueError:
        return default


class _DeepBluePlayView(View):
    """Shared parts: the seat chooser, the hand, the dive panel, the risk line and the event log."""

    def __init__(self, model: GameSession, lang: str = "en", seats: int = 3, **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.model = model
        self._seat = widgets.ToggleButtons(options=[(f"{i}", i) for i in range(seats)], value=0,
                                           style={"button_width": "3.5em"})
        self._seat.add_class("deepblue-seat")
        self._seat_label = widgets.HTML()
        self._hand = widgets.HTML()
        self._hand.add_class("deepblue-hand-view")
        self._dive = widgets.HTML()
        self._dive.add_class("deepblue-dive-view")
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

    def _play(self, move: Any) -> None:
        self.play_on(self.model, move)
        self.refresh()

    def _render_common(self) -> dict[str, Any]:
        obs = ENGINE.observe(self.model.shown_state(), self.seat)
        me = obs["players"][self.seat]
        self._seat_label.value = esc(self.t("deepblue.ui.you_are"))
        self._hand.value = hand_html(ENGINE.components, me.get("hand", []), self.lang)
        self._dive.value = dive_html(obs, self.lang)
        self._risk.value = self._risk_line(obs)
        self._log.value = event_log_html(self.model.events[-LOG_EVENTS:], self.lang)
        return obs

    def _risk_line(self, obs: dict[str, Any]) -> str:
        """The coach at a dive decision, for the viewing diver, from its observation only: the exact bust
        chance of the next draw (pull), the expected VP of stopping and of going on under the optimal policy,
        and what the policy bot would do (:mod:`toolkit.deepblue.coach`)."""
        adv = dive_advice(obs, self.seat, ENGINE.components)
        if adv is None or adv.gems == 0:
            return ""
        fraction = (f"{adv.busting}/{adv.gems}" if adv.pull == 1
                    else f"{adv.bust.numerator}/{adv.bust.denominator}")
        line = self.t("deepblue.ui.risk_for_you", seat=self.seat, fraction=fraction,
                      percent=percent(adv.bust), advice=self.t(f"deepblue.ui.advice_{adv.advice}"),
                      stop=f"{float(adv.stop):.2f}", go=(f"{float(adv.go):.2f}" if adv.go is not None else "—"))
        legal = self.model.legal_moves if self.model.live else []
        bot = PolicyBot(ENGINE.components).decide(obs, legal, np.random.default_rng(0))
        would = (ENGINE.describe_move(bot.move, self.lang, self.model.shown_state()) if bot.move is not None
                 else self.t("deepblue.ui.coach_stays"))
        coach = self.t("deepblue.ui.coach_bot", move=would, reason=bot.text(self.lang))
        return (f"<div class='deepblue-risk deepblue-coach deepblue-advice-{adv.advice}'>{esc(line)}<br>"
                f"<small class='deepblue-coach-bot'>{esc(coach)}</small></div>")


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
        super().__init__(model, lang=lang, seats=3, **kwargs)
        self.add_class("deepblue-dive-root")
        self._title = widgets.HTML()
        self._buttons = {}
        for name, css in (("draw", "deepblue-draw"), ("stop", "deepblue-stop"), ("leave", "deepblue-leave"),
                          ("join", "deepblue-join"), ("decline", "deepblue-decline"), ("play", "deepblue-play"),
                          ("protect", "deepblue-protect"), ("undo", "deepblue-undo")):
            b = widgets.Button()
            b.add_class(css)
            b.on_click(getattr(self, f"_on_{name}"))
            self._buttons[name] = b
        self._card_pick = widgets.Dropdown(options=[])
        self._card_pick.add_class("deepblue-card-pick")
        self._protect_pick = widgets.Dropdown(options=[])
        self._protect_pick.add_class("deepblue-protect-pick")
        b = self._buttons
        self._finish([self._title, widgets.HBox([self._seat_label, self._seat]),
                      widgets.HBox([b["join"], b["decline"], b["draw"], b["stop"], b["leave"], b["undo"]]),
                      widgets.HBox([self._card_pick, b["play"], self._protect_pick, b["protect"]]),
                      self._risk, self._dive, self._hand, self._log])
        self.refresh()

    # ---- buttons: each names the move for the chosen seat; the engine decides --------------------
    @safe_callback
    def _on_draw(self, _b: Any = None) -> None:
        self._play(DrawGem(self.seat))

    @safe_callback
    def _on_stop(self, _b: Any = None) -> None:
        self._play(Stop(self.seat))

    @safe_callback
    def _on_leave(self, _b: Any = None) -> None:
        self._play(Leave(self.seat))

    @safe_callback
    def _on_join(self, _b: Any = None) -> None:
        self._play(Join(self.seat))

    @safe_callback
    def _on_decline(self, _b: Any = None) -> None:
        self._play(Decline(self.seat))

    @safe_callback
    def _on_play(self, _b: Any = None) -> None:
        card = self._card_pick.value
        if not isinstance(card, int):
            raise InvalidMoveError(f"choose a card first, not {card!r}")
        self._play(PlayCard(self.seat, card))

    @safe_callback
    def _on_protect(self, _b: Any = None) -> None:
        source = self._protect_pick.value
        if source != "spot" and not isinstance(source, int):
            raise InvalidMoveError(f"choose a protection first, not {source!r}")
        self._play(Protect(self.seat, None if source == "spot" else source))

    @safe_callback
    def _on_undo(self, _b: Any = None) -> None:
        self.model.undo()
        self.clear_report()
        self.refresh()

    def refresh(self) -> None:
        if not hasattr(self, "_buttons"):
            return
        self._title.value = f"<h3>{esc(self.t('deepblue.ui.dive_title'))}</h3>"
        for name in ("draw", "stop", "leave", "join", "decline", "play", "protect"):
            self._buttons[name].description = self.t(f"deepblue.ui.{name}")
        self._buttons["undo"].description = self.t("ui.undo")
        # names for screen readers: the page support turns a tooltip into the drop-down's aria-label
        self._card_pick.tooltip = self.t("deepblue.ui.pick_card")
        self._protect_pick.tooltip = self.t("deepblue.ui.pick_protection")
        self._render_common()
        comps = ENGINE.components
        moves = self._seat_moves()
        self._card_pick.options = [(card_text(comps.card(m.card), self.lang), m.card) for m in moves
                                   if isinstance(m, PlayCard)]
        self._protect_pick.options = [
            (self.t("deepblue.ui.protect_spot") if m.card is None else card_text(comps.card(m.card), self.lang),
             "spot" if m.card is None else m.card) for m in moves if isinstance(m, Protect)]
        over = self.model.shown_state().dive is None
        if over and self.model.events:
            self._dive.value = event_log_html([e for e in self.model.events if e.code == "DEEPBLUE_SCORED"], self.lang)


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
        self._market = widgets.HTML()
        self._market.add_class("deepblue-market")
        self._board = Chart()
        self._viewing = widgets.HTML()
        self._viewing.add_class("deepblue-viewing")
        self._moves = widgets.Dropdown(options=[], layout=widgets.Layout(width="26em"))
        self._moves.add_class("deepblue-moves")
        self._apply = widgets.Button(button_style="primary")
        self._apply.add_class("deepblue-game-apply")
        self._apply.on_click(self._on_apply)
        self._undo = widgets.Button()
        self._undo.add_class("deepblue-undo")
        self._undo.on_click(self._on_undo)
        self._hint_button = widgets.Button()
        self._hint_button.add_class("deepblue-hint")
        self._hint_button.on_click(self._on_hint)
        self._hint = widgets.HTML()
        self._hint.add_class("deepblue-hint-text")
        self._bot_line = widgets.HTML()
        self._bot_line.add_class("deepblue-bot-line")
        # one click for the moves a learner makes most: the dive's choices, resting, anchoring, and hiring a
        # market card (with the payment that keeps the most useful cards); the list below has every move
        self._quick = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._quick.add_class("deepblue-quick-moves")
        self._quick_key: tuple = ()
        self._players = widgets.Dropdown(options=[2, 3, 4, 5], value=players)
        self._scenario = widgets.Dropdown(options=ids, value=scenario)
        self._seed_box = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1, layout=widgets.Layout(width="9em"))
        self._new = widgets.Button()
        self._new.add_class("deepblue-new-game")
        self._new.on_click(self._on_new)
        self._moves_label, self._players_label, self._scenario_label, self._seed_label = (
            widgets.HTML() for _ in range(4))
        self._notes = widgets.HTML()
        self._finish([self._title, self.setup, self._status, self._viewing, self._bot_line,
                      self._quick,
                      widgets.HBox([self._moves_label, self._moves, self._apply, self._undo, self._hint_button]),
                      self._hint, self._risk, self._dive, self._hand, self._market, self._board, self._log,
                      widgets.HBox([self._players_label, self._players, self._scenario_label, self._scenario,
                                    self._seed_label, self._seed_box, self._new]), self._notes])
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
        obs = ENGINE.observe(self.model.shown_state(), None)
        self._hand.value = ""
        self._dive.value = dive_html(obs, self.lang)
        self._risk.value = ""
        self._log.value = event_log_html(self.model.events[-LOG_EVENTS:], self.lang)
        return obs

    # ---- callbacks ---------------------------------------------------------------------------------
    @safe_callback
    def _on_bot_moved(self, change: Mapping[str, Any]) -> None:
        self._hint.value = ""
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
        move = ENGINE.parse_move(str(move))
        if not self.setup.is_human(getattr(move, "seat", None)):
            raise InvalidMoveError(f"seat {move.seat} is played by a bot")
        self._hint.value = ""
        self._play(move)

    @safe_callback
    def _on_hint(self, _b: Any = None) -> None:
        seat = self.seat
        if not self.setup.is_human(seat) or not self.model.live:
            self._hint.value = ""
            return
        decision = self.driver.hint(seat, "policy")
        if decision is None or decision.move is None:
            self._hint.value = f"<div class='deepblue-hint-body'>{esc(self.t('deepblue.ui.coach_stays'))}</div>"
            return
        text = self.t("deepblue.ui.hint_text", move=ENGINE.describe_move(decision.move, self.lang,
                                                                          self.model.shown_state()),
                      reason=decision.text(self.lang))
        self._hint.value = f"<div class='deepblue-hint-body'>{esc(text)}</div>"

    @safe_callback
    def _on_undo(self, _b: Any = None) -> None:
        # undo back to the last position where a "you" seat was to move (bots would replay at once)
        self.model.undo()
        while (len(self.model.session) and not self.setup.is_human(ENGINE.current_player(self.model.state))
               and self.setup.human_seats()):
            self.model.undo()
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_new(self, _b: Any = None) -> None:
        players = self._players.value if self._players.value in (2, 3, 4, 5) else 3
        scenario = self._scenario.value
        if players != len(self.setup.seats):
            self._rebuild_setup(players)
        self.model.new_game(int(self._seed_box.value), {"players": players, "scenario": scenario})
        self.clear_report()
        self.refresh()

    def _rebuild_setup(self, players: int) -> None:
        self.driver.close()
        old = self.setup
        self.setup = SeatSetup(players, list(BOTS), lang=self.lang, pace=old.pace, step_mode=old.step_mode)
        self.setup.observe(self._on_setup, names=["seats", "show_all", "waiting"])
        children = list(self.children)
        children[children.index(old)] = self.setup
        self.children = tuple(children)
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
        self._apply.description = tr("deepblue.ui.apply")
        self._undo.description = tr("ui.undo")
        self._new.description = tr("ui.new_game")
        self._hint_button.description = tr("seats.hint")
        self._moves_label.value = esc(tr("deepblue.ui.your_moves"))
        self._players_label.value = esc(tr("deepblue.ui.players"))
        self._scenario_label.value = esc(tr("deepblue.ui.scenario"))
        self._seed_label.value = esc(tr("ui.seed"))
        self._notes.value = f"<p><small>{esc(tr('deepblue.ui.illustrative_note'))}</small></p>"
        obs = self._render_common()
        comps = ENGINE.components
        scen = comps.scenario(state.scenario).name[self.lang]
        outcome = self.model.outcome
        status = tr("deepblue.ui.status_line", seat=state.turn, phase=tr(f"deepblue.phase.{state.phase}"),
                    cities=len(state.sunken_cities), scenario=scen)
        bag = ", ".join(f"{gem_name(c, self.lang)} {n}" for c, n in obs["bag"].items() if n)
        chests = " · ".join(f"{tr('deepblue.ui.seat_n', seat=p['seat'])}: {p['chest']} VP "
                            f"({tr('deepblue.ui.hand_size', n=p['hand_size'])})" for p in obs["players"])
        lines = [status, tr("deepblue.ui.bag_line", gems=bag, total=sum(obs["bag"].values())),
                 f"{tr('deepblue.ui.chests')}: {chests}"]
        if outcome is not None:
            lines.append(tr("deepblue.ui.game_over", result=outcome.text(self.lang)))
        self._status.value = "<br>".join(esc(line) for line in lines)
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
            self._bot_line.value = (f"<div class='deepblue-bot-move'>"
                                    f"{esc(tr('seats.bot_moved', seat=seat, level=self.setup.level_label(level), reason=shown))}"
                                    "</div>")
        else:
            self._bot_line.value = ""
        self._market.value = (f"<b>{esc(tr('deepblue.ui.market'))}</b><ol class='deepblue-market-list'>" +
                              "".join(f"<li>${i + 1}: {esc(card_text(comps.card(c), self.lang))}</li>"
                                      for i, c in enumerate(obs["market"])) + "</ol>")
        moves = self._seat_moves()
        self._moves.options = [(ENGINE.describe_move(m, self.lang, state), str(m)) for m in moves]
        if not moves:
            self._moves.options = []
        self._hint_button.disabled = not moves
        self._refresh_quick(moves, state)
        self._board.update(board_figure(comps, obs, self.lang))

    def quick_moves(self, moves: list) -> list:
        """The moves offered as one-click buttons: every dive, join, check, rest and anchor move, and per
        market slot the hire whose payment spends the cards worth least to keep (:func:`card_worth`)."""
        comps = ENGINE.components
        simple = [m for m in moves if isinstance(m, (DrawGem, Stop, Leave, Join, Decline, Protect, PlayCard, Rest,
                                                     Anchor))]
        hires: dict[int, Hire] = {}
        for m in moves:
            if isinstance(m, Hire):
                cost = (sum(card_worth(comps, c) for c in m.cards) + 0.6 * m.tokens, len(m.cards))
                best = hires.get(m.slot)
                if best is None or cost < (sum(card_worth(comps, c) for c in best.cards) + 0.6 * best.tokens,
                                           len(best.cards)):
                    hires[m.slot] = m
        return simple + [hires[k] for k in sorted(hires)]

    def _refresh_quick(self, moves: list, state: Any) -> None:
        quick = self.quick_moves(moves)
        key = (self.lang, tuple(str(m) for m in quick))
        if key == self._quick_key:
            return
        self._quick_key = key
        buttons = []
        for m in quick:
            b = widgets.Button(description=ENGINE.describe_move(m, self.lang, state),
                               layout=widgets.Layout(width="auto"))
            b.add_class("deepblue-quick")
            b.add_class(f"deepblue-quick-{type(m).__name__.lower()}")
            b.on_click(lambda _b, text=str(m): self._on_quick(text))
            buttons.append(b)
        self._quick.children = tuple(buttons)

    @safe_callback
    def _on_quick(self, text: str) -> None:
        move = ENGINE.parse_move(text)
        if not self.setup.is_human(getattr(move, "seat", None)):
            raise InvalidMoveError(f"seat {move.seat} is played by a bot")
        self._hint.value = ""
        self._play(move)
