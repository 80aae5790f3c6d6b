"""A full game of Sewer Pirats against bots, with hints and the event log (dashboard ``pirats-game``).

Built on the shared table frame (:class:`toolkit.widgets.table.TableFrame`): the options bar, seats, status
line, bot line, result banner, hint bar, event log (with the last sailing kept above it), undo and the game
code/link are the frame's; this module has the board (:class:`~toolkit.widgets.components.pirats.PiratsTable`),
what a click on it means, and the Pirats words for the hooks.

Seats: each seat is "you" or a bot level of :data:`toolkit.pirats.BOTS` (:class:`toolkit.widgets.seats.SeatSetup`;
by default you are seat 0 and the others play the strongest level). Bots move on their own at the chosen
pace, or one at a time in step mode (:class:`toolkit.widgets.seats.BotDriver`); each bot move shows its reason.

Hints: when a "you" seat is to move, every legal move is listed with what it changes in that seat's score now
and after the next sailing of every ship (:func:`toolkit.pirats.move_effects`); "Hint" shows the greedy bot's
move and why (worded for the learner: :func:`hint_reason_text`), and outlines what to click.

Hidden information: the page only ever draws ``observe(state, seat)`` for the seat
:meth:`SeatSetup.viewing_seat` names — a "you" seat (the acting one, hot seat among people), else the first
"you" seat, else nobody's (all bots: the public view) — unless the labelled teacher switch is on. Moves and
hints exist only for a "you" seat to move, so a bot's cards (a discard, a payment) never reach the page.

Variant: the landlubber variant (no species powers) unless asked otherwise: the rule book's first game.

URL: ``?seed=7&players=4&variant=standard&seats=you,greedy,greedy,random&pace=0.5&step=1``; ``?code=…`` (the
frame's game code) reopens a game where it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from toolkit.core import i18n
from toolkit.core.explain import Event
from toolkit.core.i18n import translate
from toolkit.pirats.bots import BOTS, strongest_level
from toolkit.pirats.coach import Board, move_effects
from toolkit.pirats.engine import ENGINE
from toolkit.pirats.model import (CAPTAIN, COLOURS, SHIPS, VARIANTS, BecomeCaptain, Bid, Discard, Draw, MovePirat,
                                  OpenAuction, Pass, Pay, SetSail, SnailStep, Stay, TakeLoot)
from toolkit.widgets.components.pirats import PiratsTable, figure_text as _label_text
from toolkit.widgets.base import esc, page_query_string, query_params, safe_callback
from toolkit.widgets.rulebook import table_rules_html
from toolkit.widgets.seats import PACE_DEFAULT, YOU, SeatSetup
from toolkit.widgets.table import RefusalLine, TableFrame



#: The table opens in the landlubber variant (上陸者): the rule book recommends it for a first game, as the
#: first-game notebook and lesson do (issue 29); the standard variant, with species powers, is one choice
#: away in the "Variant" menu (``?variant=standard``).
DEFAULT_VARIANT = "landlubber"
#: the "Variant" menu, the first game's variant first
VARIANT_MENU = ("landlubber", "standard", "auction")


def settings_from_query(params: Mapping[str, str]) -> dict[str, Any]:
    """``?seed=7&players=4&variant=standard`` (untrusted: out-of-range values fall back to defaults; the
    variant to :data:`DEFAULT_VARIANT`).

    >>> settings_from_query({})["variant"], settings_from_query({"variant": "standard"})["variant"]
    ('landlubber', 'standard')
    """
    try:
        seed = min(max(int(params.get("seed", "1")), 0), 2**31 - 1)
    except ValueError:
        seed = 1
    players = params.get("players", "4")
    variant = params.get("variant", DEFAULT_VARIANT)
    return {"seed": seed, "players": int(players) if players in ("2", "3", "4", "5") else 4,
            "variant": variant if variant in VARIANTS else DEFAULT_VARIANT}


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


def hint_marks(move: Any, obs: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """Where a suggested ``move`` is clicked on the :class:`PiratsTable`: ``[("table", data-keys)]``. Pure:
    the table frame and the game view call it with the hint bot's move and the observation of the seat to
    move (``ENGINE.observe(state, seat)``).

    A figure's move takes two clicks: the figure (at home, or in the row of figures aboard) and the space
    it lands on; both are marked. Cards to discard or pay are the first hand cards of each symbol.

    >>> from toolkit.pirats.model import Bid, Draw, SetSail, Stay
    >>> obs = {"row": ["fish", "cat"], "seat": 0}
    >>> hint_marks(Draw("cat"), obs), hint_marks(SetSail("bird"), obs), hint_marks(Stay(), obs)
    ([('table', ['row:1'])], [('table', ['space:bird:4'])], [('table', ['action:stay'])])
    >>> hint_marks(Bid(3), obs)
    [('table', ['bid:3'])]
    """
    keys: list[str] = []
    seat = obs.get("seat")
    if isinstance(move, (MovePirat, BecomeCaptain)) and seat is not None:
        home = obs["home"][seat] if obs.get("home") else ()
        keys.append(f"figure:{seat}:{move.figure}" if move.figure in home else f"aboard:{move.figure}")
        after = Board.from_view(obs).after(move)
        where = after.where(seat, move.figure) if after is not None else None
        if where is not None:
            keys.append(f"space:{move.ship}:{where[1] + 1}")
    elif isinstance(move, SetSail):
        keys.append(f"space:{move.ship}:{CAPTAIN + 1}")
    elif isinstance(move, Draw):
        row = list(obs.get("row", ()))
        keys.append("deck" if move.source == "deck" or move.source not in row else f"row:{row.index(move.source)}")
    elif isinstance(move, TakeLoot):
        ship = (obs.get("sailing") or {}).get("ship")
        keys.append(f"loot:{ship}:0:{move.token}")
    elif isinstance(move, (Pass, Stay, SnailStep)):
        keys.append("action:" + {Pass: "pass", Stay: "stay", SnailStep: "step"}[type(move)])
    elif isinstance(move, (Discard, Pay)):
        hand = [c for c in SHIPS for _ in range(int((obs.get("hand") or {}).get(c, 0)))]
        for card, n in zip(SHIPS, move.cards):
            keys += [f"hand:{i}" for i, c in enumerate(hand) if c == card][:n]
    elif isinstance(move, OpenAuction):
        keys += [f"stool:{move.stool}", f"bid:{move.bid}"]   # the bids are drawn once the stool is chosen
    elif isinstance(move, Bid):
        keys.append(f"bid:{move.amount}")
    return [("table", keys)] if keys else []


#: the events that tell what a sailing gave whom, kept above the table until the next sailing
SAILING_CODES = ("PIRATS_SET_SAIL", "PIRATS_TOOK_BONUS", "PIRATS_TOOK_LOOT", "PIRATS_TOAD_STAYS", "PIRATS_WENT_HOME")


def last_sailing_lines(events: list, lang: str) -> list[str]:
    """What the last sailing gave whom, a sentence per event (each names its seat), or [] before the first.

    >>> from toolkit.core.explain import Event
    >>> last_sailing_lines([Event("PIRATS_DREW_DECK", "pirats.sail.order", seat=1)], "en")
    []
    """
    starts = [i for i, e in enumerate(events) if e.code == "PIRATS_SET_SAIL"]
    if not starts:
        return []
    return [e.text(lang) for e in events[starts[-1]:] if e.code in SAILING_CODES]


def hint_reason_text(reason: Any, lang: str) -> str:
    """The hint bot's reason worded for the learner it advises: the ``HINT_PIRATS_*`` sentence of a
    ``BOT_PIRATS_*`` reason (same parameters, "your score" rather than "Seat 0 (greedy) … its score"); any
    other reason as it is.

    >>> from toolkit.core.explain import Event
    >>> hint_reason_text(Event("BOT_PIRATS_SAIL", "bots.pirats.timing", seat=0, level="greedy", ship="cat", gain=4), "en")
    'your captain must sail, and this sailing adds 4 to your score.'
    """
    code = getattr(reason, "code", "")
    key = "HINT_" + code[len("BOT_"):] if code.startswith("BOT_PIRATS_") else ""
    if key and i18n.has(key):
        return i18n.translate(key, lang, dict(reason.params))
    return reason.text(lang)


class PiratsSeatSetup(SeatSetup):
    """The shared seat setup, with the Sewer Pirats levels' names in both languages."""

    def level_label(self, level: str) -> str:
        key = f"pirats.bots.level.{level}"
        return self.t(key) if i18n.has(key) else super().level_label(level)


class GameView(TableFrame):
    """The Sewer Pirats table: seats, bots, hints, the board and the log (see the module docstring).

    Built on the shared table frame: only the board (the ships, the bar, the hand, the row, the figures) and
    what a click on it means are Pirats'; seats, status, hint, log, undo, new game and the game code are the
    frame's (docs/architecture.md, "The table frame")."""

    def __init__(self, seed: int | None = None, players: int | None = None, variant: str | None = None,
                 lang: str | None = None, query: str | None = None, seats: list[str] | None = None,
                 pace: float | None = None, step_mode: bool | None = None, autoplay: bool = True, **kwargs: Any):
        raw = query if query is not None else page_query_string()
        params = query_params(raw)
        settings = settings_from_query(params)
        lang = lang or (params.get("lang") if params.get("lang") in ("en", "ja") else "en")
        # what the caller names wins over the page's query (a notebook's table is the notebook's)
        self._named = {name for name, value in (("players", players), ("variant", variant)) if value is not None}
        options = {"players": players or settings["players"], "variant": variant or settings["variant"]}
        table = table_from_query(params, options["players"])
        self._pace = table["pace"] if pace is None else pace
        self._step_mode = table["step_mode"] if step_mode is None else step_mode
        self._chosen: str | None = None        # the figure clicked, waiting for its target space
        self._hand_selected: list[int] = []    # hand cards clicked for a discard or a payment
        self._stool: int | None = None         # the bar stool clicked when opening an auction
        super().__init__(ENGINE, seed=settings["seed"] if seed is None else seed, options=options,
                         seats=seats if seats is not None else table["seats"], levels=list(BOTS), lang=lang,
                         autoplay=autoplay, query=raw if seed is None else "", **kwargs)
        self.add_class("pirats-game")

    # ---- the frame's hooks ------------------------------------------------------------------------
    def build(self) -> None:
        # the table: every action is a click on the object it acts on (toolkit.widgets.components.pirats)
        self._table = PiratsTable(lang=self.lang)
        self._table.add_class("pirats-table")
        self._table.on_pick(self._on_table_pick)
        self._peek = widgets.Checkbox(value=True, indent=False, layout=widgets.Layout(width="auto"))
        self._peek.add_class("pirats-peek")
        self._peek.observe(lambda _c: self.refresh(), "value")
        # the move list stays as an accessible fallback, collapsed under "All moves"
        self._moves = widgets.Dropdown(layout=widgets.Layout(width="auto", max_width="40em"),
                                       style={"description_width": "initial"})
        self._moves.add_class("pirats-moves")
        self._apply = widgets.Button(button_style="primary")
        self._apply.add_class("pirats-apply")
        self._apply.on_click(self._on_apply)
        self._all_moves = widgets.Accordion(children=[widgets.HBox([self._moves, self._apply],
                                                                   layout=widgets.Layout(flex_flow="row wrap"))])
        self._all_moves.selected_index = None
        self._all_moves.add_class("pirats-all-moves")
        self._effects = widgets.HTML()
        self._effects.add_class("pirats-effects")
        self._effects.add_class("deepsea-side")      # hidden in ?display=large (projectors)
        # labels at their natural width, so the fields are not squeezed in Japanese or ?display=large
        self._players = widgets.Dropdown(options=[2, 3, 4, 5], value=4, layout=widgets.Layout(width="10em"),
                                         style={"description_width": "initial"})
        self._players.add_class("pirats-players")
        self._variant = widgets.Dropdown(options=[(v, v) for v in VARIANT_MENU], value=DEFAULT_VARIANT,
                                         layout=widgets.Layout(width="auto"), style={"description_width": "initial"})
        self._variant.add_class("pirats-variant")

    def board_widgets(self) -> list[widgets.Widget]:
        return [self._table]

    def action_widgets(self) -> list[widgets.Widget]:
        return [self._peek, self._all_moves, self._effects]

    def option_widgets(self) -> dict[str, widgets.Widget]:
        return {"players": self._players, "variant": self._variant}

    def options_from_query(self, params: Mapping[str, str]) -> dict[str, Any]:
        """``?players=3&variant=standard`` (untrusted: :func:`settings_from_query` clamps them); what the
        constructor was given is kept."""
        settings = settings_from_query(params)
        return {name: settings[name] for name in ("players", "variant") if name in params and name not in self._named}

    def label_options(self) -> None:
        self._players.description = self.t("pirats.ui.players")
        self._variant.description = self.t("pirats.ui.variant")
        variants = [(self.t(f"pirats.ui.variant.{v}"), v) for v in VARIANT_MENU]
        if tuple(variants) != tuple(self._variant.options):   # relabel (a new language), keep the choice
            keep = self._variant.value if self._variant.value in VARIANTS else DEFAULT_VARIANT
            self._variant.options = variants
            self._variant.value = keep

    def title_text(self) -> str:
        return self.t("pirats.ui.game_title")

    def rules_html(self) -> str:
        """The table rule no engine enforces (who starts, ``pirats.table.start-player``), its id linked."""
        return table_rules_html("pirats", self.lang)

    def setup_events(self) -> list[Event]:
        return list(ENGINE.setup_events(self.model.session.initial))

    def make_seat_setup(self, players: int, seats: Any) -> SeatSetup:
        """The Pirats levels' names, you against the strongest level by default, the pace and step mode
        kept when the player count changes."""
        old = getattr(self, "_setup", None)
        pace, step = (old.pace, old.step_mode) if old is not None else (self._pace, self._step_mode)
        setup = PiratsSeatSetup(players, list(BOTS), seats=list(seats) if seats else default_seats(players),
                                lang=self.lang, pace=pace, step_mode=step)
        if old is not None:
            setup.show_all = old.show_all
        return setup

    def on_new_game(self) -> None:
        self._chosen, self._hand_selected, self._stool = None, [], None
        self._table.refusal = ""

    def status_extra(self, obs: Mapping[str, Any], seat: int | None) -> list[str]:
        """The acting seat's colour (the figures are drawn in it), and a bot's wait in step mode."""
        acting = self.acting_seat()
        if acting is None or not self.model.live:
            return []
        colour = translate(f"pirats.colour.{COLOURS[acting]}", self.lang)
        lone = self._setup.is_human(acting) and len(self._setup.human_seats()) == 1
        out = [self.t("pirats.ui.status_your_colour", colour=colour) if lone
               else self.t("pirats.ui.status_colour", name=self.seat_name(acting), colour=colour)]
        if not self._setup.is_human(acting) and self._setup.step_mode:
            out.append(self.t("pirats.ui.status_step"))
        return out

    def refresh_board(self, obs: Mapping[str, Any], seat: int | None) -> None:
        lang = self.lang
        yours = self.your_turn() and self.model.live
        self._table.lang = lang
        self._table_refresh(obs, yours)
        self._apply.description = self.t("ui.apply")
        self._moves.description = self.t("pirats.ui.effects_move")
        self._all_moves.set_title(0, self.t("pirats.ui.all_moves"))
        # moves and effects exist only for a person's seat: a bot's legal moves (its discards, its payments)
        # would tell its cards
        legal = self.model.legal_moves if yours else []
        self._moves.options = [(ENGINE.describe_move(mv, lang), i) for i, mv in enumerate(legal)]
        self._moves.value = 0 if legal else None
        self._moves.disabled = self._apply.disabled = not yours
        self._effects.value = self._effects_html(self.model.state, self.acting_seat(), legal) if yours else ""

    def hint_marks(self, decision: Any) -> list[tuple[Any, Sequence[str]]]:
        seat = self.hint_bar.seat
        if seat is None:
            return []
        marks = dict(hint_marks(decision.move, ENGINE.observe(self.model.state, seat)))
        if decision.move in self.model.legal_moves:   # the fallback list shows the hint's move too
            self._moves.value = self.model.legal_moves.index(decision.move)
        return [(self._table, marks["table"])] if marks.get("table") else []

    def hint_reason(self, decision: Any) -> str:
        """The hint bot's reason worded for the learner ("… adds 4 to your score"), not as the bot's own
        move ("Seat 0 (greedy) moves …")."""
        return hint_reason_text(decision.reason, self.lang)

    def bot_move_text(self, seat: int, decision: Any) -> tuple[str, str] | None:
        """The bot's reason names its seat and its move already: said once, not after "… played …"."""
        reason = decision.reason
        if reason is None:
            return None
        if getattr(reason, "code", "") == "BOT_PIRATS_ONLY_MOVE" and decision.move is not None:
            # the reason carries the move's text ("move rat#1 cat 1"): say it in words
            params = {**dict(reason.params), "seat": seat, "move": ENGINE.describe_move(decision.move, self.lang)}
            return i18n.translate(reason.code, self.lang, params), reason.rule
        return decision.text(self.lang), getattr(reason, "rule", "")

    def last_result(self, events: Sequence[Event]) -> str | None:
        """What the last sailing gave whom, kept until the next sailing (the log scrolls on)."""
        lines = last_sailing_lines(list(events), self.lang)
        if not lines:
            return None
        return (f"<div class='pirats-last-sailing-box'><b>{esc(self.t('pirats.ui.last_sailing'))}</b>"
                "<ul style='margin:0;padding-left:1.2em'>" + "".join(f"<li>{esc(line)}</li>" for line in lines)
                + "</ul></div>")

    def result_text(self, outcome: Any) -> str | None:
        """The engine's result, with "You win!" for a lone learner who won."""
        humans = self._setup.human_seats()
        won = len(humans) == 1 and list(getattr(outcome, "winners", ())) == humans
        text = outcome.text(self.lang)
        return f"{self.t('pirats.ui.you_win')} {text}" if won else text

    # ---- reading --------------------------------------------------------------------------------
    def acting_seat(self) -> int | None:
        state = self.model.shown_state()
        return ENGINE.decider(state) if not ENGINE.is_over(state) else None

    def your_turn(self) -> bool:
        return self.model.live and self._setup.is_human(self.acting_seat())

    def seat(self) -> int | None:
        return self.viewing_seat()

    # ---- acting -----------------------------------------------------------------------------------
    def play(self, move: Any, refusal: RefusalLine | None = None) -> bool:
        """Play a move (object or text) as the "you" seat to move; a refusal is shown, never raised."""
        if not self.your_turn():
            self.refuse(self.t("pirats.ui.not_your_seat"), refusal)
            return False
        self._chosen, self._hand_selected, self._stool = None, [], None
        return super().play(move, refusal)

    @safe_callback
    def _on_apply(self, _b: Any = None) -> None:
        index = self._moves.value
        moves = self.model.legal_moves
        if not self.your_turn():
            self.refuse(self.t("pirats.ui.not_your_seat"))
            return
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(moves):
            self.refuse(self.t("pirats.ui.no_such_move"))
            return
        self.play(moves[index])

    # ---- clicks on the table and the moves they make ----------------------------------------------
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

    # ---- clicks on the table (what was clicked -> a move; the engine says whether and why not) --------
    @safe_callback
    def _on_table_pick(self, pick: tuple[str, Any]) -> None:
        what, value = pick
        if not self.your_turn():
            self._refuse(self.t("pirats.ui.not_your_seat"))
            return
        state = self.model.state
        if what == "deck":
            self._attempt(Draw("deck"))
        elif what == "row":
            self._attempt(Draw(value))
        elif what == "loot":
            self._attempt(TakeLoot(value[1]))
        elif what == "action":
            self._attempt({"pass": Pass(), "stay": Stay(), "step": SnailStep()}[value])
        elif what == "figure":
            self._on_figure_click(value)
        elif what == "space":
            self._on_space(value[0], value[1] - 1)
        elif what == "hand":
            self._on_hand_click(value[0])
        elif what == "stool":
            if state.phase != "auction":
                self._attempt(OpenAuction(value, 0))   # the engine says what the game waits for
                return
            self._stool = None if self._stool == value else value
            self.clear_report()
            self.refresh()
        elif what == "bid":
            if state.phase == "auction":
                if self._stool is None:
                    self._refuse(self.t("pirats.ui.pick_stool"))
                    return
                self._attempt(OpenAuction(self._stool, value))
            elif value == 0:
                self._attempt(Pass())
            else:
                self._attempt(Bid(value))

    def _refuse(self, item: Any) -> None:
        """Show why a click on the table did nothing, beside the table (its live refusal line)."""
        if isinstance(item, str) or not hasattr(item, "text"):
            self._table.refusal = str(item)
            return
        rule = getattr(item, "rule", "")
        self._table.refusal = item.text(self.lang) + (f" [{rule}]" if rule else "")   # the rule id, as the log's

    def _attempt(self, move: Any) -> bool:
        """Play ``move`` if the engine allows it, else show the engine's reason (``why_illegal``)."""
        violation = ENGINE.why_illegal(self.model.state, move)
        if violation is not None:
            self._refuse(violation)
            return False
        self._chosen, self._hand_selected, self._stool = None, [], None
        self._table.refusal = ""
        return self.play(move)

    def _on_figure_click(self, figure: str) -> None:
        movable = {f for (f, _s, _i) in self.figure_targets()}
        if figure in movable:
            self._chosen = None if self._chosen == figure else figure
            self.clear_report()
            self.refresh()
            return
        # no legal move for it: ask the engine why a one-space move on its ship (or the first) is refused
        state = self.model.state
        index = next(i for i, f in enumerate(ENGINE.observe(state, state.turn)["crews"][state.turn]) if f == figure)
        where = state.where(state.turn, index)
        ship = SHIPS[where[0]] if where is not None else SHIPS[0]
        move = SetSail(ship) if where is not None and where[1] == CAPTAIN else MovePirat(figure, ship, 1)
        self._refuse(ENGINE.why_illegal(state, move) or self.t("pirats.ui.figure_stuck", figure=_label_text(figure, self.lang)))

    def _on_hand_click(self, index: int) -> None:
        state = self.model.state
        need = state.to_discard if state.phase == "discard" else state.auction.bid if state.phase == "pay" else 0
        if not need:
            self._refuse(self.t("pirats.ui.hand_not_now"))
            return
        chosen = self._hand_selected
        self._hand_selected = [i for i in chosen if i != index] if index in chosen else chosen + [index]
        if len(self._hand_selected) < need:
            self.clear_report()
            self.refresh()
            return
        cards = [self._table.hand["cards"][i]["card"] for i in self._hand_selected]
        counts = (cards.count("cat"), cards.count("bird"), cards.count("fish"))
        self._hand_selected = []
        self._attempt(Discard(counts) if state.phase == "discard" else Pay(counts))
        self.refresh()

    @safe_callback
    def _on_space(self, ship: str, index: int) -> None:
        """A click on a ship's space: sail from your captain's space, or move the chosen figure there."""
        if not self.your_turn():
            self._refuse(self.t("pirats.ui.not_your_seat"))
            return
        if ship not in SHIPS or not 0 <= index <= CAPTAIN:
            self._refuse(self.t("pirats.ui.no_such_space"))
            return
        sail = SetSail(ship)
        state = self.model.state
        if index == CAPTAIN and sail in self.model.legal_moves:
            self._attempt(sail)
            return
        # A figure is selected where it is drawn: a click on a space that holds one of your figures that can
        # move chooses it (or un-chooses it), as a click on its chip does. A space with a figure is never a
        # target (moves skip occupied spaces), so this takes no move away.
        occupant = state.ships[SHIPS.index(ship)].spaces[index]
        if occupant is not None and occupant.seat == state.turn:
            own = ENGINE.observe(state, state.turn)["crews"][state.turn][occupant.figure]
            if own in {f for (f, _s, _i) in self.figure_targets()}:
                self._on_figure_click(own)
                return
        figure = self._chosen
        if not figure:
            captain = state.ships[SHIPS.index(ship)].spaces[CAPTAIN]
            if index == CAPTAIN and captain is not None and captain.seat == state.turn:
                self._refuse(ENGINE.why_illegal(state, sail) or self.t("pirats.ui.pick_figure"))
            else:
                self._refuse(self.t("pirats.ui.pick_figure"))
            return
        move = self.figure_targets().get((figure, ship, index))
        if move is not None:
            self._attempt(move)
            return
        candidates = [BecomeCaptain(figure, ship)] if index == CAPTAIN else [MovePirat(figure, ship, k) for k in (1, 2, 3)]
        reasons = [ENGINE.why_illegal(state, m) for m in candidates]
        if all(r is not None for r in reasons):
            self._refuse(reasons[0])   # the engine's reason for the plainest try
            return
        where = self.t("pirats.ui.captain_space") if index == CAPTAIN else self.t("pirats.ui.space", number=index + 1)
        self._refuse(self.t("pirats.ui.no_move_there", figure=_label_text(figure, self.lang),
                            ship=translate(f"pirats.ship.{ship}", self.lang), space=where))

    # ---- drawing the board ------------------------------------------------------------------------
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

    def _table_refresh(self, obs: Mapping[str, Any], yours: bool) -> None:
        """Draw the table from ``obs`` (the viewing seat's observation) with what may be clicked now."""
        state, lang = self.model.state, self.lang
        legal = self.model.legal_moves if yours else []
        targets = self.figure_targets() if yours else {}
        movable = {f for (f, _s, _i) in targets}
        if self._chosen not in movable:
            self._chosen = None
        phase = obs["phase"]
        need = (state.to_discard if phase == "discard" else state.auction.bid if phase == "pay" else 0) if yours else 0
        if not need:
            self._hand_selected = []
        if phase != "auction":
            self._stool = None
        bids: list[int] = []
        legal_bids: list[int] = []
        if yours and obs["auction"] is not None and phase in ("auction", "bid"):
            held = sum(obs["hand"].values()) if obs["hand"] else 0
            if phase == "bid":
                bids = list(range(1, held + 1))
                legal_bids = [m.amount for m in legal if isinstance(m, Bid)]
            elif self._stool is not None:
                bids = list(range(0, held + 1))
                legal_bids = [m.bid for m in legal if isinstance(m, OpenAuction) and m.stool == self._stool]
        actions = []
        for move in legal:
            if isinstance(move, (Pass, Stay, SnailStep)):
                actions.append(({Pass: "pass", Stay: "stay", SnailStep: "step"}[type(move)],
                                ENGINE.describe_move(move, lang)))
        sail = next((m.ship for m in legal if isinstance(m, SetSail)), None)
        snail = obs["powers"] and any(f.partition("#")[0] == "snail" for f in movable)
        self._peek.description = self.t("pirats.ui.snail_peek")
        self._peek.layout.display = "" if snail else "none"
        self._table.show(
            obs, interactive=yours, figures=sorted(movable), chosen=self._chosen,
            targets=[(ship, index + 1) for (f, ship, index) in targets if f == self._chosen], sail=sail,
            draw=any(isinstance(m, Draw) for m in legal),
            loot=obs["sailing"]["ship"] if phase == "sail" and obs["sailing"] else None,
            hand_pick=need, hand_selected=list(self._hand_selected),
            stools=[i + 1 for i, sp in enumerate(obs["auction"]["bar"]) if sp is not None]
            if obs["auction"] is not None and phase == "auction" else [],
            stool=self._stool, bids=bids, legal_bids=legal_bids, actions=actions,
            prompt=self._prompt(phase, need, bool(movable), sail) if yours else "")

    def _prompt(self, phase: str, need: int, movable: bool, sail: str | None) -> str:
        """What to click now, in a sentence (the phase is the engine's; the words are the page's)."""
        if sail is not None and phase == "action":
            return self.t("pirats.ui.prompt_sail", ship=translate(f"pirats.ship.{sail}", self.lang))
        if phase == "action":
            if self._chosen is not None:
                return self.t("pirats.ui.prompt_target", figure=_label_text(self._chosen, self.lang))
            return self.t("pirats.ui.prompt_action" if movable else "pirats.ui.prompt_draw")
        if phase == "discard":
            return self.t("pirats.ui.prompt_discard", n=need, chosen=len(self._hand_selected))
        if phase == "pay":
            return self.t("pirats.ui.prompt_pay", n=need, chosen=len(self._hand_selected))
        if phase == "auction":
            return self.t("pirats.ui.prompt_stool" if self._stool is None else "pirats.ui.prompt_bid_open",
                          stool=self._stool or 0)
        key = {"draw": "pirats.ui.prompt_draw_second", "sail": "pirats.ui.prompt_loot", "extra": "pirats.ui.prompt_extra",
               "snail": "pirats.ui.prompt_snail", "bid": "pirats.ui.prompt_bid"}.get(phase)
        return self.t(key) if key else ""
