"""A full game of Sewer Pirats against bots, with hints and the event log (dashboard ``pirats-game``).

Seats: each seat is "you" or a bot level of :data:`toolkit.pirats.BOTS` (:class:`toolkit.widgets.seats.SeatSetup`;
by default you are seat 0 and the others play the strongest level). Bots move on their own at the chosen
pace, or one at a time in step mode (:class:`toolkit.widgets.seats.BotDriver`); each bot move shows its reason.

Hints: when a "you" seat is to move, every legal move is listed with what it changes in that seat's score now
and after the next sailing of every ship (:func:`toolkit.pirats.move_effects`); "Hint" shows the greedy bot's
move and why, and selects it.

Hidden information: the page only ever draws ``observe(state, seat)`` for the seat
:meth:`SeatSetup.viewing_seat` names — a "you" seat (the acting one, hot seat among people), else the first
"you" seat, else nobody's (all bots: the public view) — unless the labelled teacher switch is on. Moves and
hints exist only for a "you" seat to move, so a bot's cards (a discard, a payment) never reach the page.

URL: ``?seed=7&players=4&variant=standard&seats=you,greedy,greedy,random&pace=0.5&step=1``.
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core import i18n
from toolkit.core.errors import InvalidMoveError
from toolkit.core.i18n import translate
from toolkit.pirats.bots import BOTS, strongest_level
from toolkit.pirats.coach import Board, move_effects
from toolkit.pirats.engine import ENGINE
from toolkit.pirats.model import CAPTAIN, COLOURS, SHIPS, VARIANTS, BecomeCaptain, MovePirat, SetSail
from toolkit.widgets.base import GameSession, View, esc, event_log_html, explain_html, query_params, safe_callback
from toolkit.widgets.seats import PACE_DEFAULT, YOU, BotDriver, SeatSetup

LOG_EVENTS = 30


def settings_from_query(params: Mapping[str, str]) -> dict[str, Any]:
    """``?seed=7&players=4&variant=standard`` (untrusted: out-of-range values fall back to defaults)."""
    try:
        seed = min(max(int(params.get("seed", "1")), 0), 2**31 - 1)
    except ValueError:
        seed = 1
    players = params.get("players", "4")
    variant = params.get("variant", "standard")
    return {"seed": seed, "players": int(players) if players in ("2", "3", "4", "5") else 4,
            "variant": variant if variant in VARIANTS else "standard"}


def default_seats(players: int) -> list[str]:
    """You at seat 0, every other seat the strongest level at this player count (the study's finding:
    :func:`toolkit.pirats.bots.strongest_level`)."""
    return [YOU] + [strongest_level(players)] * (players - 1)


def table_from_query(params: Mapping[str, str], players: int) -> dict[str, Any]:
    """``seats=you,greedy,...``, ``pace=0.5``, ``step=1`` (untrusted: anything odd falls back to the default:
    you at seat 0, the strongest bot elsewhere, the usual pace, no step mode)."""
    levels = list(BOTS)
    seats = [w.strip() for w in params.get("seats", "").split(",")]
    if len(seats) != players or any(w not in (YOU, *levels) for w in seats):
        seats = default_seats(players)
    try:
        pace = float(params.get("pace", PACE_DEFAULT))
    except ValueError:
        pace = PACE_DEFAULT
    return {"seats": seats, "pace": pace if pace == pace else PACE_DEFAULT, "step_mode": params.get("step") == "1"}


class PiratsSeatSetup(SeatSetup):
    """The shared seat setup, with the Sewer Pirats levels' names in both languages."""

    def level_label(self, level: str) -> str:
        key = f"pirats.bots.level.{level}"
        return self.t(key) if i18n.has(key) else super().level_label(level)


def _tokens(tokens: list[str], lang: str) -> str:
    from toolkit.pirats.tokens import Token
    return ", ".join(Token.parse(t).text(lang) for t in tokens) or translate("pirats.ui.none", lang)


def _label_text(label: str, lang: str) -> str:
    species, hash_, number = label.partition("#")
    name = translate(f"pirats.species.{species}", lang)
    return f"{name} #{number}" if hash_ else name


def _cards(counts: Mapping[str, int], lang: str) -> str:
    return ", ".join(f"{translate('pirats.card.' + s, lang)} ×{counts[s]}" for s in SHIPS)


class GameView(View):
    """The Sewer Pirats table: seats, bots, hints, the board and the log (see the module docstring)."""

    def __init__(self, seed: int | None = None, players: int | None = None, variant: str | None = None,
                 lang: str | None = None, query: str | None = None, seats: list[str] | None = None,
                 pace: float | None = None, step_mode: bool | None = None, autoplay: bool = True, **kwargs: Any):
        params = query_params(query)
        settings = settings_from_query(params)
        lang = lang or (params.get("lang") if params.get("lang") in ("en", "ja") else "en")
        super().__init__(lang=lang, **kwargs)
        self.add_class("pirats-game")
        options = {"players": players or settings["players"], "variant": variant or settings["variant"]}
        table = table_from_query(params, options["players"])
        self._autoplay = autoplay
        self.model = GameSession(ENGINE, seed=settings["seed"] if seed is None else seed, options=options)
        self._title = widgets.HTML()
        self._seed = widgets.BoundedIntText(value=self.model.session.seed, min=0, max=2**31 - 1,
                                            layout=widgets.Layout(width="14em"))
        self._seed.add_class("pirats-seed")
        self._players = widgets.Dropdown(options=[2, 3, 4, 5], value=options["players"],
                                         layout=widgets.Layout(width="14em"))
        self._players.add_class("pirats-players")
        self._variant = widgets.Dropdown(options=list(VARIANTS), value=options["variant"])
        self._variant.add_class("pirats-variant")
        self._new = widgets.Button()
        self._new.add_class("pirats-new")
        self._seats_box = widgets.VBox()
        self._status = widgets.HTML()
        self._status.add_class("pirats-status")
        self._bot_said = widgets.HTML()
        self._bot_said.add_class("pirats-bot-reason")
        self._board = widgets.HTML()
        self._board.add_class("pirats-board")
        # the ships as buttons: pick one of your figures, then click the space it should go to
        self._figures = widgets.ToggleButtons(options=[], style={"button_width": "auto"})
        self._figures.add_class("pirats-figures")
        self._peek = widgets.Checkbox(value=True, indent=False, layout=widgets.Layout(width="auto"))
        self._peek.add_class("pirats-peek")
        self._ship_names: list[widgets.HTML] = []
        self._flotsam: list[widgets.HTML] = []
        self._spaces: list[list[widgets.Button]] = []
        rows = []
        for name in SHIPS:
            label, flotsam = widgets.HTML(layout=widgets.Layout(width="6em")), widgets.HTML()
            flotsam.add_class("pirats-flotsam")
            buttons = []
            for index in range(4):
                button = widgets.Button(layout=widgets.Layout(width="9em", height="3.2em"))
                button.add_class("pirats-space")
                button.add_class(f"pirats-space-{name}-{index + 1}")
                button.on_click(lambda _b, ship=name, index=index: self._on_space(ship, index))
                buttons.append(button)
            self._ship_names.append(label)
            self._flotsam.append(flotsam)
            self._spaces.append(buttons)
            rows.append(widgets.HBox([label, *buttons, flotsam], layout=widgets.Layout(align_items="center")))
        self._ships = widgets.VBox(rows)
        self._figures.observe(self._on_figure, "value")
        self._ships.add_class("pirats-ships")
        self._hand = widgets.HTML()
        self._hand.add_class("pirats-hand")
        self._moves = widgets.Dropdown(layout=widgets.Layout(width="40em"), style={"description_width": "initial"})
        self._moves.add_class("pirats-moves")
        self._apply = widgets.Button(button_style="primary")
        self._apply.add_class("pirats-apply")
        self._hint = widgets.Button()
        self._hint.add_class("pirats-hint")
        self._undo = widgets.Button()
        self._undo.add_class("pirats-undo")
        self._hint_text = widgets.HTML()
        self._hint_text.add_class("pirats-hint-text")
        self._effects = widgets.HTML()
        self._effects.add_class("pirats-effects")
        self._log = widgets.HTML()
        self._log.add_class("pirats-log")
        self._new.on_click(self._on_new)
        self._apply.on_click(self._on_apply)
        self._hint.on_click(self._on_hint)
        self._undo.on_click(self._on_undo)
        self.setup: PiratsSeatSetup | None = None
        self.driver: BotDriver | None = None
        self._finish([self._title, widgets.HBox([self._seed, self._players, self._variant, self._new]),
                      self._seats_box, self._status, self._bot_said, self._ships,
                      widgets.HBox([self._figures, self._peek], layout=widgets.Layout(flex_flow="row wrap")),
                      self._board, self._hand,
                      widgets.HBox([self._moves, self._apply, self._hint, self._undo]), self._hint_text,
                      self._effects, self._log])
        self._ready = True
        self.model.observe(self._on_revision, "revision")
        self._seat_table(seats if seats is not None else table["seats"],
                         table["pace"] if pace is None else pace,
                         table["step_mode"] if step_mode is None else step_mode)

    # ---- seats and bots ---------------------------------------------------------------------------
    def _seat_table(self, seats: list[str], pace: float, step_mode: bool, show_all: bool = False) -> None:
        """(Re)build the seat setup and the bot driver for the current game's player count."""
        if self.driver is not None:
            self.driver.close()
        players = self.model.state.players
        if len(seats) != players:
            seats = default_seats(players)
        self.setup = PiratsSeatSetup(players, list(BOTS), seats=seats, lang=self.lang, pace=pace,
                                     step_mode=step_mode)
        self.setup.show_all = show_all
        self.setup.observe(self._on_setup, ["seats", "show_all", "waiting"])
        self._seats_box.children = (self.setup,)
        self.driver = BotDriver(self.model, self.setup, autoplay=self._autoplay)
        self.driver.observe(self._on_bot_moved, "moves_played")
        self.refresh()

    def _on_revision(self, _change: Any = None) -> None:
        self._hint_text.value = ""
        self.refresh()

    def _on_setup(self, _change: Any = None) -> None:
        self.refresh()

    def _on_bot_moved(self, _change: Any = None) -> None:
        self._show_bot_reason()

    def _show_bot_reason(self) -> None:
        last = self.driver.last if self.driver is not None else None
        if last is None:
            self._bot_said.value = ""
            return
        seat, decision = last
        self._bot_said.value = f"<p class='pirats-bot-move'><i>{esc(decision.text(self.lang))}</i></p>"

    def acting_seat(self) -> int | None:
        return ENGINE.decider(self.model.state) if not ENGINE.is_over(self.model.state) else None

    def viewing_seat(self) -> int | None:
        """Whose hand the page may show now (see the module docstring)."""
        assert self.setup is not None
        return self.setup.viewing_seat(self.acting_seat())

    def your_turn(self) -> bool:
        return self.setup is not None and self.setup.is_human(self.acting_seat())

    # ---- callbacks ------------------------------------------------------------------------------
    @safe_callback
    def _on_new(self, _b: Any = None) -> None:
        seed, players, variant = self._seed.value, self._players.value, self._variant.value
        if players not in (2, 3, 4, 5) or variant not in VARIANTS or not isinstance(seed, int):
            raise InvalidMoveError(f"no such game: players {players!r}, variant {variant!r}, seed {seed!r}")
        assert self.setup is not None
        old = self.setup
        if self.driver is not None:
            self.driver.close()
            self.driver = None
        self.model.new_game(seed, {"players": players, "variant": variant})
        self.clear_report()
        seats = list(old.seats) if len(old.seats) == players else default_seats(players)
        self._seat_table(seats, old.pace, old.step_mode, old.show_all)

    @safe_callback
    def _on_apply(self, _b: Any = None) -> None:
        index = self._moves.value
        moves = self.model.legal_moves
        if not self.your_turn():
            raise InvalidMoveError("a bot plays this seat: wait for its move")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(moves):
            raise InvalidMoveError(f"no legal move number {index!r}")
        self.play(moves[index])

    @safe_callback
    def _on_hint(self, _b: Any = None) -> None:
        if not self.your_turn() or self.driver is None:
            self._hint_text.value = ""
            return
        decision = self.driver.hint(self.acting_seat(), list(BOTS)[0])
        if decision is None or decision.move is None:
            self._hint_text.value = ""
            return
        level = self.setup.level_label(list(BOTS)[0]) if self.setup else ""
        self._hint_text.value = (
            "<p class='pirats-hint-move'><b>" + esc(self.t("pirats.ui.hint_line", level=level,
                                                          move=ENGINE.describe_move(decision.move, self.lang)))
            + "</b><br>" + esc(decision.text(self.lang)) + "</p>")
        if decision.move in self.model.legal_moves:
            self._moves.value = self.model.legal_moves.index(decision.move)

    def figure_targets(self) -> dict[tuple[str, str, int], Any]:
        """For the "you" seat to move: ``(figure, ship, space index) -> move`` for every legal move that
        puts a figure on a space (moves and captaincies; a snail's plain move and its peek both land on the
        space the walk reaches), worked out on the seat's observation."""
        if not self.your_turn():
            return {}
        seat = self.acting_seat()
        board = Board.from_view(ENGINE.observe(self.model.state, seat))
        out: dict[tuple[str, str, int], Any] = {}
        for move in self.model.legal_moves:
            if isinstance(move, (MovePirat, BecomeCaptain)):
                after = board.after(move)
                where = after.where(seat, move.figure) if after is not None else None
                if where is not None:
                    key = (move.figure, move.ship, where[1])
                    peek = getattr(move, "peek", False)
                    if key not in out or peek == self._peek.value:
                        out[key] = move
        return out

    @safe_callback
    def _on_space(self, ship: str, index: int) -> None:
        """A click on a ship's space: sail from your captain's space, or move the chosen figure there."""
        if not self.your_turn():
            raise InvalidMoveError("a bot plays this seat: wait for its move")
        if ship not in SHIPS or not 0 <= index <= CAPTAIN:
            raise InvalidMoveError(f"no space {index + 1} on {ship!r}")
        sail = SetSail(ship)
        if index == CAPTAIN and sail in self.model.legal_moves:
            self.play(sail)
            return
        figure = self._figures.value
        if not figure:
            self.report(self.t("pirats.ui.pick_figure"), error=True)
            return
        move = self.figure_targets().get((figure, ship, index))
        if move is None:
            where = self.t("pirats.ui.captain_space") if index == CAPTAIN else self.t("pirats.ui.space", number=index + 1)
            self.report(self.t("pirats.ui.no_move_there", figure=figure, ship=translate(f"pirats.ship.{ship}", self.lang),
                               space=where), error=True)
            return
        self.play(move)

    def play(self, move: Any) -> bool:
        """Play a move (object or text) as the "you" seat to move; a refusal is shown, never raised."""
        if not self.your_turn():
            self.report(self.t("pirats.ui.not_your_seat"), error=True)
            return False
        applied = self.play_on(self.model, move)
        self.refresh()
        return applied

    @safe_callback
    def _on_undo(self, _b: Any = None) -> None:
        """Take back your last move and the bot moves after it (undoing a bot's move alone would only have
        it play again)."""
        assert self.setup is not None
        driver = self.driver
        if driver is not None:
            driver.autoplay = False  # no bot may answer between the undos
        try:
            while len(self.model.session):
                before = self.model.session.at(len(self.model.session) - 1)
                mover = ENGINE.decider(before)
                self.model.undo()
                if self.setup.is_human(mover):
                    break
        finally:
            if driver is not None:
                driver.autoplay = self._autoplay
                driver.schedule()
        self.clear_report()
        self.refresh()

    # ---- rendering ------------------------------------------------------------------------------
    def seat(self) -> int | None:
        return self.viewing_seat()

    def refresh(self) -> None:
        if not getattr(self, "_ready", False) or self.setup is None:  # children or seats not built yet
            return
        lang, m = self.lang, self.model
        m.lang = lang
        self.setup.lang = lang
        state = m.state
        acting = self.acting_seat()
        seat = self.viewing_seat()
        obs = ENGINE.observe(state, seat)   # the only view of the game this page ever renders
        self._title.value = f"<h3>{esc(self.t('pirats.ui.game_title'))}</h3>"
        self._seed.description = self.t("ui.seed")
        self._players.description = self.t("pirats.ui.players")
        self._variant.description = self.t("pirats.ui.variant")
        self._variant.options = [(self.t(f"pirats.ui.variant.{v}"), v) for v in VARIANTS]
        self._new.description = self.t("ui.new_game")
        self._apply.description = self.t("ui.apply")
        self._moves.description = self.t("pirats.ui.effects_move")
        self._hint.description = self.t("seats.hint")
        self._undo.description = self.t("ui.undo")
        yours = self.your_turn()
        if m.outcome is not None:
            self._status.value = f"<b>{esc(self.t('ui.outcome'))}:</b> {explain_html(m.outcome, lang)}"
        elif acting is not None:
            colour = translate(f"pirats.colour.{COLOURS[acting]}", lang)
            if yours:
                text = self.t("pirats.ui.status", seat=acting, colour=colour)
            else:
                level = self.setup.level_label(self.setup.seats[acting])
                key = "pirats.ui.status_bot_step" if self.setup.step_mode else "pirats.ui.status_bot"
                text = self.t(key, seat=acting, colour=colour, level=level)
            self._status.value = f"<b>{esc(text)}</b>"
        self._board.value = self._board_html(obs)
        self._ships_refresh(obs, yours)
        self._hand.value = ("" if seat is None else
                            f"<p>{esc(self.t('pirats.ui.hand', seat=seat, cards=_cards(obs['hand'], lang)))}</p>")
        # moves, hints and effects exist only for a person's seat: a bot's legal moves (its discards, its
        # payments) would tell its cards
        legal = m.legal_moves if yours else []
        self._moves.options = [(ENGINE.describe_move(mv, lang), i) for i, mv in enumerate(legal)]
        self._moves.value = 0 if legal else None
        for button in (self._moves, self._apply, self._hint):
            button.disabled = not yours
        self._effects.value = self._effects_html(state, acting, legal) if yours else ""
        self._show_bot_reason()
        setup = list(ENGINE.setup_events(m.session.initial)) if len(m.session) < LOG_EVENTS else []
        self._log.value = event_log_html((setup + m.session.events)[-LOG_EVENTS:], lang)

    def _effects_html(self, state: Any, seat: int | None, legal: list[Any]) -> str:
        """Every legal move with what it changes in ``seat``'s score now and after the next sailing."""
        if seat is None or not legal:
            return ""
        effects = move_effects(ENGINE.observe(state, seat), legal)
        head = "".join(f"<th style='padding:0 6px'>{esc(self.t(k))}</th>" for k in (
            "pirats.ui.effects_move", "pirats.ui.effects_now", "pirats.ui.effects_next", "pirats.ui.effects_cards"))
        rows = []
        for e in effects:
            cards = "" if not e.cards else (f"−{e.cards}" if e.cards > 0 else f"+{-e.cards}")
            rows.append(f"<tr><td>{esc(ENGINE.describe_move(e.move, self.lang))}</td>"
                        f"<td style='text-align:right'>{e.now_before} → {e.now_after} ({e.now:+d})</td>"
                        f"<td style='text-align:right'>{e.next_before} → {e.next_after} ({e.next:+d})</td>"
                        f"<td style='text-align:right'>{esc(cards)}</td></tr>")
        return (f"<details class='pirats-effects-table'><summary>{esc(self.t('pirats.ui.effects_title', seat=seat))}"
                f"</summary><table style='font-size:90%'><tr>{head}</tr>{''.join(rows)}</table>"
                f"<p style='font-size:85%'>{esc(self.t('pirats.ui.effects_note'))}</p></details>")

    def _ships_refresh(self, obs: Mapping[str, Any], yours: bool) -> None:
        lang = self.lang
        acting = obs["to_move"]
        targets = self.figure_targets() if yours else {}
        self._styling = (obs, yours, targets)
        movable = sorted({f for (f, _s, _i) in targets}, key=lambda f: obs["crews"][acting].index(f)) if yours else []
        self._restyling = True  # setting the options fires the figure observer: style once, below
        try:
            self._figures.options = [(_label_text(f, lang), f) for f in movable]
            self._figures.value = (self._figures.value if self._figures.value in movable else
                                   (movable[0] if movable else None))
        finally:
            self._restyling = False
        self._figures.description = self.t("pirats.ui.your_figures") if movable else ""
        self._figures.layout.display = "" if movable else "none"
        snail = any(f.partition("#")[0] == "snail" for f in movable) and obs["powers"]
        self._peek.description = self.t("pirats.ui.snail_peek")
        self._peek.layout.display = "" if snail else "none"
        self._style_spaces()

    def _on_figure(self, _change: Any = None) -> None:
        if not getattr(self, "_restyling", False):
            self._style_spaces()

    def _style_spaces(self) -> None:
        """Label every space; light the ones the chosen figure can reach (and your captain's, to sail)."""
        styling = getattr(self, "_styling", None)
        if styling is None:
            return
        obs, yours, targets = styling
        lang, acting, chosen = self.lang, obs["to_move"], self._figures.value
        reachable = {(ship, index) for (f, ship, index) in targets if f == chosen}
        for s, name in enumerate(SHIPS):
            ship = obs["ships"][name]
            self._ship_names[s].value = f"<b>{esc(translate('pirats.ship.' + name, lang))}</b>"
            for index, p in enumerate(ship["spaces"]):
                where = self.t("pirats.ui.captain_space") if index == CAPTAIN else self.t("pirats.ui.space", number=index + 1)
                who = "—" if p is None else f"{p['seat']} {translate('pirats.species.' + p['species'], lang)}"
                button = self._spaces[s][index]
                button.description = f"{where}: {who}"
                button.tooltip = button.description
                sail = yours and index == CAPTAIN and p is not None and p["seat"] == acting and \
                    SetSail(name) in self.model.legal_moves
                button.disabled = not (yours and ((name, index) in reachable or sail))
                button.button_style = "warning" if sail else ("info" if (name, index) in reachable else "")
            groups = " | ".join(_tokens(g["loot"] + ([g["bonus"]] if g["bonus"] else []), lang) for g in ship["flotsam"])
            self._flotsam[s].value = f"<span style='padding-left:1em'>{esc(self.t('pirats.ui.flotsam'))}: {esc(groups)}</span>"

    def _board_html(self, obs: Mapping[str, Any]) -> str:
        lang = self.lang
        lines: list[str] = []
        row = ", ".join(translate("pirats.card." + c, lang) for c in obs["row"]) or translate("pirats.ui.none", lang)
        lines.append(f"<p>{esc(self.t('pirats.ui.row', row=row, deck=obs['deck'], discard=sum(obs['discard'].values())))}"
                     f" · {esc(self.t('pirats.ui.stocks', loot=obs['loot_stock'], bonus=obs['bonus_stock']))}</p>")
        if obs["auction"] is not None:
            bar = ", ".join(f"{i + 1}:{translate('pirats.species.' + sp, lang)}" for i, sp in
                            enumerate(obs["auction"]["bar"]) if sp is not None)
            lines.append(f"<p class='pirats-bar'>{esc(self.t('pirats.ui.bar', bar=bar))}</p>")
        seats = []
        for s in range(obs["players"]):
            home = ", ".join(translate("pirats.species." + f.split("#")[0], lang) for f in obs["home"][s])
            seats.append("<li>" + esc(self.t("pirats.ui.seat_line", seat=s,
                                             colour=translate(f"pirats.colour.{obs['colours'][s]}", lang),
                                             cards=obs["hand_sizes"][s], home=home or translate("pirats.ui.none", lang),
                                             treasure=_tokens(obs["treasure"][s], lang),
                                             points=obs["scores"][s])) + "</li>")
        lines.append(f"<ul class='pirats-seats'>{''.join(seats)}</ul>")
        return "".join(lines)
