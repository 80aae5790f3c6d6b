"""Playing Deep Blue in the page: the dive view (``deep-blue-dive``) and the game view (``deep-blue-game``),
a table on the shared table frame (:class:`~toolkit.widgets.table.TableFrame`).

Every action is a click on the object it acts on (:class:`toolkit.widgets.deepblue.table.DeepBlueTable`:
the board's sites and boats, the market's and the hand's cards, the bag, your boat on the dive track); the
list of every legal move stays as an accessible fallback, in a collapsed "All moves" section.

Hidden information: the page only ever renders ``ENGINE.observe(state, seat)`` for the seat chosen with
"You are", and offers only that seat's legal moves, so other seats' cards never reach the DOM or the
widget state. Every click goes through the engine; a refused move shows its reason and rule id.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import ipywidgets as widgets
import numpy as np

from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.core.session import Session
from toolkit.deepblue.engine import ENGINE
from toolkit.deepblue.positions import teaching_dive
from toolkit.deepblue.bots import BOTS, PolicyBot
from toolkit.deepblue.coach import dive_advice
from toolkit.widgets.base import GameSession, View, esc, event_log_html, query_params, safe_callback, set_options
from toolkit.widgets.seats import PACE_DEFAULT, YOU
from toolkit.core import i18n
from toolkit.widgets.deepblue.table import DeepBlueTable, hint_marks
from toolkit.widgets.table import TableFrame
from toolkit.widgets.table.frame import table_query


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


def move_words(move: Any, lang: str, state: Any = None) -> str:
    """The move's description without its "Seat N: " (where the sentence names the seat already).

    >>> from toolkit.deepblue.model import DrawGem
    >>> move_words(DrawGem(2), "en"), move_words(DrawGem(2), "ja")
    ('draw a gem', '宝石をドロー')
    """
    text = ENGINE.describe_move(move, lang, state)
    seat = getattr(move, "seat", None)
    shown = seat + 1 if isinstance(seat, int) else seat       # sentences count seats from 1
    for prefix in (f"Seat {shown}: ", f"席{shown}："):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


def _seed_from(params: Mapping[str, str], default: int) -> int:
    try:
        return min(max(int(params.get("seed", default)), 0), 2**31 - 1)
    except ValueError:
        return default


def all_moves_fallback(on_apply: Any) -> tuple[widgets.Dropdown, widgets.Button, widgets.Accordion]:
    """The accessible fallback of both Deep Blue views: every legal move of the seat in a list, with its
    "Apply" button, collapsed under "All moves" (the views label them). Returns (list, button, accordion)."""
    moves = widgets.Dropdown(options=[], layout=widgets.Layout(width="auto", max_width="100%"))
    moves.add_class("deepblue-moves")
    apply = widgets.Button(button_style="primary")
    apply.add_class("deepblue-game-apply")
    apply.on_click(on_apply)
    box = widgets.Accordion(children=[widgets.HBox([moves, apply], layout=widgets.Layout(flex_flow="row wrap"))])
    box.selected_index = None
    box.add_class("deepblue-all-moves")
    return moves, apply, box


class _DeepBluePlayView(View):
    """Shared parts: the seat chooser, the clickable table, the "All moves" fallback, the risk line and the
    event log."""

    def __init__(self, model: GameSession, lang: str = "en", seats: int = 3, full_table: bool = True,
                 **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.model = model
        self.table = DeepBlueTable(self._table_move, lang=lang, board=full_table, market=full_table)
        self._moves, self._apply, self._all_moves = all_moves_fallback(self._on_apply)
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
        legal = ENGINE.legal_moves(self.model.session.state, self.seat) if self.model.live else []
        return coach_html(obs, self.seat, legal, self.lang, self.model.shown_state())


def coach_html(obs: Mapping[str, Any], seat: int | None, legal: Sequence[Any], lang: str, state: Any,
               with_bot: bool = True) -> str:
    """The coach at a dive decision, for the viewing diver ``seat``, from its observation only: the exact bust
    chance of the next draw (pull), the expected VP of stopping and of going on under the optimal policy,
    and (``with_bot``) what the best-play bot would do with ``legal``, the seat's own moves
    (:mod:`toolkit.deepblue.coach`). "" outside a dive decision."""
    from toolkit.core.i18n import translate

    if seat is None:
        return ""
    adv = dive_advice(obs, seat, ENGINE.components)
    if adv is None or adv.gems == 0:
        return ""
    # a beginner's view: the chance as a whole percentage (exact fractions: the gem-bag analysis view)
    line = translate("deepblue.ui.risk_for_you", lang, seat=seat, percent=i18n.percent(adv.bust, lang),
                     advice=translate(f"deepblue.ui.advice_{adv.advice}", lang),
                     stop=f"{float(adv.stop):.2f}", go=(f"{float(adv.go):.2f}" if adv.go is not None else "—"))
    if not with_bot:
        # the hint says the same bot's move already: said once, not twice
        return f"<div class='deepblue-risk deepblue-advice-{adv.advice}'>{esc(line)}</div>"
    # the viewing diver's own moves only: the others' scoring cards would name their hands
    bot = PolicyBot(ENGINE.components).decide(obs, list(legal), np.random.default_rng(0))
    would = (ENGINE.describe_move(bot.move, lang, state) if bot.move is not None
             else translate("deepblue.ui.coach_stays", lang))
    coach = translate("deepblue.ui.coach_bot", lang, move=would, reason=bot.text(lang))
    return (f"<div class='deepblue-risk deepblue-coach deepblue-advice-{adv.advice}'>{esc(line)}<br>"
            f"<small class='deepblue-coach-bot'>{esc(coach)}</small> {_rule_ref(bot.reason.rule, lang)}</div>")


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


class GameView(TableFrame):
    """The full game at a table with bots (dashboard ``deep-blue-game``).

    Built on the shared table frame (:class:`~toolkit.widgets.table.TableFrame`): the seats bar, options,
    status, bot line, result banner, hint, event log, undo, new game and the game's code are the frame's;
    this class draws Deep Blue's board, dive track, bag, market and hand
    (:class:`~toolkit.widgets.deepblue.table.DeepBlueTable`), the "All moves" fallback and the coach line.

    Each seat is "you" or a bot level of :data:`toolkit.deepblue.BOTS` (by default you are seat 0 and the
    others play the strongest level); bots move on their own at the chosen pace or one at a time in step
    mode. The page draws ``observe(state, seat)`` of the seat :meth:`SeatSetup.viewing_seat` names — a "you"
    seat, never a bot's, unless the labelled teacher switch is on — so no other seat's hand reaches the
    browser. At every dive decision the coach line shows the exact bust chance, stop against go and what the
    best-play bot would do; "Hint" shows and outlines that bot's move for any decision. A bot's reason is
    shown with the teacher switch on (it may depend on the bot's own hand, e.g. its protections).

    URL parameters: ``seed``, ``players``, ``scenario``, ``lang``, ``seats=you,policy,random``, ``pace``,
    ``step=1``, ``code`` (a game's code: reopens it where it was).
    """

    def __init__(self, seed: int | None = None, players: int = 3, scenario: str = "troubled-waters",
                 lang: str = "en", query: str | None = None, seats: list[str] | None = None,
                 pace: float | None = None, step_mode: bool = False, **kwargs: Any):
        params = table_query(query) if kwargs.get("show_language", True) or query is not None else {}
        lang = params["lang"] if params.get("lang") in ("en", "ja") else lang
        levels = list(BOTS)
        asked = [w.strip() for w in params.get("seats", "").split(",") if w.strip()]
        if asked and all(a == YOU or a in levels for a in asked):
            seats = asked                  # the frame keeps them only if their count is the game's
        try:
            pace = float(params.get("pace", pace if pace is not None else PACE_DEFAULT))
        except (TypeError, ValueError):
            pace = PACE_DEFAULT
        self._pace = pace if pace == pace else PACE_DEFAULT       # NaN: the default
        self._step_mode = bool(step_mode) or params.get("step") in ("1", "true", "yes")
        super().__init__(ENGINE, seed=seed if seed is not None else 1,
                         options={"players": players, "scenario": scenario}, seats=seats, levels=levels,
                         lang=lang, query=query, **kwargs)
        self.add_class("deepblue-game-root")

    # ---- the frame's hooks ---------------------------------------------------------------------------
    def build(self) -> None:
        self.table = DeepBlueTable(self._table_move, lang=self.lang)
        self._moves, self._apply, self._all_moves = all_moves_fallback(self._on_apply)
        self._chests = widgets.HTML()
        self._chests.add_class("deepblue-chests")
        self._risk = widgets.HTML()
        self._risk.add_class("deepblue-risk-line")
        fit = {"layout": widgets.Layout(width="max-content"), "style": {"description_width": "initial"}}
        # at least a field's width: "3" alone made a 39 px box (too narrow to see it is a field)
        self._players = widgets.Dropdown(options=[2, 3, 4, 5], value=3, style={"description_width": "initial"},
                                         layout=widgets.Layout(width="11em"))
        self._players.add_class("deepblue-players")
        self._scenario = widgets.Dropdown(options=self._scenario_options(self.lang), value="troubled-waters", **fit)
        self._scenario.add_class("deepblue-scenario")

    def board_widgets(self) -> list[widgets.Widget]:
        tab = self.table
        side = widgets.VBox([tab.dive, tab.bag, self._risk], layout=widgets.Layout(flex="1 1 22em", min_width="0"))
        return [self._chests, widgets.HBox([tab.board, side], layout=widgets.Layout(flex_flow="row wrap")),
                tab.hand, tab.market]

    def action_widgets(self) -> list[widgets.Widget]:
        return [self._all_moves]

    def option_widgets(self) -> dict[str, widgets.Widget]:
        return {"players": self._players, "scenario": self._scenario}

    def label_options(self) -> None:
        self._players.description = self.t("deepblue.ui.players")
        self._scenario.description = self.t("deepblue.ui.scenario")
        set_options(self._scenario, self._scenario_options(self.lang))

    def seat_options(self) -> dict[str, Any]:
        old = getattr(self, "_setup", None)         # a new player count keeps the pace and step mode
        if old is not None:
            return {"pace": old.pace, "step_mode": old.step_mode}
        return {"pace": self._pace, "step_mode": self._step_mode}

    def title_text(self) -> str:
        return self.t("deepblue.ui.game_title")

    def rules_text(self) -> str:
        return self.t("deepblue.ui.illustrative_note")

    def on_new_game(self) -> None:
        self.table._reset_choices()          # a boat or a payment chosen in the old position goes

    def refresh_board(self, obs: Mapping[str, Any], seat: int | None) -> None:
        state = self.model.shown_state()
        if self.table.lang != self.lang:
            self.table.set_lang(self.lang)
        moves = self._seat_moves(seat)
        self.table.update(state, seat, moves, "" if obs.get("dive") else
                          last_dive_text(self.model.events, self.lang, self.seat_name))
        self._apply.description = self.t("deepblue.ui.apply")
        self._all_moves.set_title(0, self.t("deepblue.comp.all_moves"))
        self._moves.tooltip = self.t("deepblue.ui.your_moves")
        self._moves.options = [(ENGINE.describe_move(m, self.lang, state), str(m)) for m in moves]
        colon = "：" if self.lang == "ja" else ": "
        chests = " · ".join(f"{self.seat_name(p['seat'])}{colon}{p['chest']} VP "
                            f"({self.t('deepblue.ui.hand_size', n=p['hand_size'])})" for p in obs["players"])
        self._chests.value = f"<p class='deepblue-chests-line'><b>{esc(self.t('deepblue.ui.chests'))}</b>{colon}{esc(chests)}</p>"
        self._draw_coach(obs, seat)

    def status_extra(self, obs: Mapping[str, Any], seat: int | None) -> list[str]:
        state = self.model.shown_state()
        if ENGINE.is_over(state):
            return []            # "The game is over." and the banner say it; the phase "game over" would repeat it
        scenario = ENGINE.components.scenario(state.scenario).name
        extra = [self.t("deepblue.ui.status_phase", phase=self.t(f"deepblue.phase.{state.phase}"),
                        cities=len(state.sunken_cities), scenario=scenario.get(self.lang) or scenario["en"])]
        if seat is None:
            extra.append(self.t("deepblue.ui.viewing_public"))
        return extra

    def hint_marks(self, decision: Any) -> list[tuple[Any, Sequence[str]]]:
        state = self.model.session.state
        # the coach line drops its "the best-play bot would" while the hint says the same (said once)
        seat = self.viewing_seat()
        self._draw_coach(ENGINE.observe(self.model.shown_state(), seat), seat)
        return [(getattr(self.table, name), keys) for name, keys in hint_marks(decision.move, state, decision.reason)
                if getattr(self.table, name, None) is not None]

    def last_result(self, events: Sequence[Any]) -> str | None:
        return esc(last_dive_text(list(events), self.lang, self.seat_name)) or None

    def result_text(self, outcome: Any) -> str | None:
        """The result in the page's words: "You win with 12 VP!", "Seat 2 (bot: best play) wins …"."""
        winners = list(outcome.winners)
        vp = outcome.param("vp", max(outcome.scores) if outcome.scores else 0)
        setup = self.setup
        if len(winners) == 1 and setup.is_human(winners[0]) and len(setup.human_seats()) == 1:
            return self.t("deepblue.ui.result_you_win", vp=vp)
        names = [self.seat_name(s) for s in winners]
        if len(names) == 1:
            return self.t("deepblue.ui.result_wins", who=names[0], vp=vp)
        return self.t("deepblue.ui.result_share", who=", ".join(names), vp=vp)

    def move_text(self, move: Any) -> str:
        """"draw a gem", "hire the $2 crew card (#26 Pilot), …": the hint and the bot line name the seat
        already; the position names the card a hire takes."""
        return move_words(move, self.lang, self.model.session.state)

    def bot_move_text(self, seat: int, decision: Any) -> tuple[str, str] | None:
        """"Seat 1 (bot: best play): hire #12 …"; the bot's reason and rule only with the teacher's switch
        (a reason may name the bot's own cards)."""
        session = self.model.session
        before = session.at(len(session) - 1) if len(session) else None   # names the hired card
        if self.setup.show_all:
            shown, rule = decision.text(self.lang), getattr(decision.reason, "rule", "")
        else:
            shown = move_words(decision.move, self.lang, before)
            rule = ""
        return f"{self.seat_name(seat)}{'：' if self.lang == 'ja' else ': '}{shown}", rule

    # ---- the game's own --------------------------------------------------------------------------------
    @staticmethod
    def _scenario_options(lang: str) -> list[tuple[str, str]]:
        return [(s.name.get(lang) or s.name["en"], s.id) for s in ENGINE.components.scenarios]

    def _seat_moves(self, seat: int | None) -> list:
        """The legal moves of the seat the page shows, if a person plays it (none while replaying)."""
        if seat is None or not self.model.live or not self.setup.is_human(seat):
            return []
        return [m for m in self.model.legal_moves if m.seat == seat]

    def _draw_coach(self, obs: Mapping[str, Any], seat: int | None) -> None:
        hinted = getattr(self, "hint_bar", None) is not None and self.hint_bar.decision is not None
        # the seat's own moves, whoever plays it (the teacher's switch shows a bot's): never another seat's
        legal = ENGINE.legal_moves(self.model.session.state, seat) if seat is not None and self.model.live else []
        self._risk.value = coach_html(obs, seat, legal, self.lang, self.model.shown_state(), with_bot=not hinted)

    def _table_move(self, move: Any) -> bool:
        """A click on the table (or the fallback list) means ``move``: the engine decides, the frame answers."""
        if not self.setup.is_human(getattr(move, "seat", None)):
            self.refuse(self.t("deepblue.ui.bot_seat", name=self.seat_name(move.seat)
                               if isinstance(getattr(move, "seat", None), int) else "?"))
            return False
        return self.play(move)

    @safe_callback
    def _on_apply(self, _b: Any = None) -> None:
        move = self._moves.value
        if move is None:
            self.refuse(self.t("deepblue.ui.choose_move"))
            return
        try:
            parsed = ENGINE.parse_move(str(move))
        except RuleError as exc:
            self.refuse(exc)
            return
        self._table_move(parsed)


def _rule_ref(rule: str, lang: str) -> str:
    """The rule id beside a bot's sentence, not in it (:func:`toolkit.widgets.base.rule_ref_html`)."""
    from toolkit.widgets.base import rule_ref_html

    return rule_ref_html(rule, lang)
