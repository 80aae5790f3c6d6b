"""A full game of Tranquility at a table of people and bots.

Seats (:class:`~toolkit.widgets.seats.SeatSetup`): each seat is "you" or a bot level of
``toolkit.tranquility.BOTS``; by default you are seat 0 and every other seat plays the strongest bot. Bots
move on their own at a visible pace (adjustable, or one move per click in step mode) through
:class:`~toolkit.widgets.seats.BotDriver`, each seeing only its own observation; the page shows each bot's
reason. With several "you" seats the table is hot seat: a curtain hides the hand until the acting person
reveals it.

Click to place: pick a card of your hand, then a cell: the cost and any gap the placement would make
impossible to fill (:func:`toolkit.tranquility.hints.placement_hint`) are shown before you commit; once a
card is picked, every empty cell's tooltip says what it would cost there or why it may not go there, and
the cells where some legal move puts it are outlined (the engine's legal moves decide). "Hint" shows what
the strongest bot would do, and why. "All moves" lists every legal move (the keyboard's and screen
reader's way, and a power user's).

Hidden information: the page only ever holds ``ENGINE.observe(state, seat)`` for the seat it may show (the
acting person, or the one person waiting for the bots). Other seats' cards are never in the widget state
sent to the browser — unless the labelled teacher switch ("show every hand") is on. The event log is safe to
show everyone: the engine's events never name face-down cards, and neither do the bots' reasons.

URL parameters: ``players``, ``seed``, ``variant`` (removal), ``rocks``, ``monsters``, ``storms`` (1/0),
``seats`` (e.g. ``you,rank,greedy``), ``pace`` (seconds), ``step`` (1/0).
"""

from __future__ import annotations

from typing import Any, Sequence

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.tranquility import ENGINE, FINISH, REMOVAL_VARIANTS, START, PlaceIsland, PlayFinish, PlayStart
from toolkit.tranquility.bots import LEVELS
from toolkit.tranquility.cards import CELLS, COLUMNS, card_name, parse_card
from toolkit.tranquility.hints import placement_hint
from toolkit.tranquility.moves import DiscardTwo, PlayMonster, StartDiscard
from toolkit.widgets.base import (GameSession, View, close_tree, esc, event_log_html, explain_html, query_params,
                                  safe_callback)
from toolkit.widgets.components.tranquility import TranquilityGrid, TranquilityHand, card_key, cell_key
from toolkit.widgets.rulebook import table_rules_html
from toolkit.widgets.seats import PACE_DEFAULT, PACE_MAX, YOU, BotDriver, SeatSetup, default_seats
from toolkit.widgets.tranquility.common import int_param

MAX_SEED = 2**31 - 1

def hint_marks(move: Any, hand: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The objects a hint's ``move`` names, as ``[(role, data-keys)]``: ``"grid"`` (the cell), ``"hand"`` (the
    card to play) and ``"discards"`` (the cards to discard, face down) — cards by their position in ``hand``,
    the card names of the hinted seat's own hand, so two identical cards are told apart.

    Pure: the table (this view, later the shared table frame) calls ``component.mark_hint(keys, label)`` on
    the component drawing each role (here the grid, the hand, and the discard toggles by position).

    >>> hint_marks(PlaceIsland(25, 17, (3,)), ["3", "25", "40"])
    [('grid', ['cell:17']), ('hand', ['card:1']), ('discards', ['card:0'])]
    >>> hint_marks(DiscardTwo((40, 12)), ["40", "7", "12"])
    [('discards', ['card:0', 'card:2'])]
    >>> hint_marks(PlayStart(), ["start", "9"]), hint_marks(None, ["9"])
    ([('hand', ['card:0'])], [])
    """
    names = [str(n) for n in hand]

    def positions(wanted: Sequence[str]) -> list[str]:
        used: set[int] = set()
        for name in wanted:
            at = next((i for i, n in enumerate(names) if n == name and i not in used), None)
            if at is not None:
                used.add(at)
        return [card_key(i) for i in sorted(used)]

    if isinstance(move, PlaceIsland):
        marks = [("grid", [cell_key(move.cell)]), ("hand", positions([str(move.number)]))]
        paid = positions([card_name(c) for c in move.discards])
        return marks + [("discards", paid)] if paid else marks
    if isinstance(move, (DiscardTwo, StartDiscard)):
        cards = positions([card_name(c) for c in move.cards])
        return [("discards", cards)] if cards else []
    word = {PlayStart: "start", PlayFinish: "finish", PlayMonster: "monster"}.get(type(move))
    if word is not None and word in names:
        return [("hand", positions([word]))]
    return []


def options_from_query(params: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """Seed and engine options from untrusted URL parameters (anything unreadable falls back to defaults)."""
    seed = int_param(params, "seed", 1, 0, MAX_SEED)
    options: dict[str, Any] = {"players": int_param(params, "players", 2, 1, 5)}
    variant = params.get("variant", "none").lower()
    options["removal"] = variant if variant in REMOVAL_VARIANTS else "none"
    options["rocks"] = params.get("rocks", "0") in ("1", "true", "yes")
    options["storms"] = params.get("storms", "0") in ("1", "true", "yes")
    monsters = int_param(params, "monsters", 0, 0, 5)
    options["monsters"] = monsters if monsters in (0, 3, 4, 5) else 0
    return seed, options


def seats_from_query(params: dict[str, str], players: int) -> list[str]:
    """Seats from an untrusted ``seats=you,rank,…`` (anything unreadable: you at seat 0, strongest bots)."""
    words = [w.strip().lower() for w in params.get("seats", "").split(",") if w.strip()]
    if len(words) == players and all(w in (YOU, *LEVELS) for w in words):
        return words
    return default_seats(players, LEVELS)


def table_from_query(params: dict[str, str]) -> tuple[float, bool]:
    """Pace (seconds a bot move) and step mode from untrusted URL parameters."""
    try:
        pace = float(params.get("pace", PACE_DEFAULT))
    except ValueError:
        pace = PACE_DEFAULT
    if pace != pace:
        pace = PACE_DEFAULT
    return min(max(pace, 0.0), PACE_MAX), params.get("step", "0") in ("1", "true", "yes")


class GameView(View):
    """A table: setup, seats (you or a bot level), the grid, your hand, hints, actions and the event log.

    ``seats``: "you" or a level per seat (default: you at seat 0, the strongest bot elsewhere).
    ``autoplay=False`` leaves the bots' moves to :meth:`run_bots` (notebooks checked by nbval).
    """

    def __init__(self, seed: int | None = None, players: int | None = None, lang: str = "en",
                 query: str | None = None, seats: Sequence[str] | None = None, autoplay: bool = True,
                 **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.add_class("tranq-game")
        params = query_params(query)
        q_seed, options = options_from_query(params)
        if seed is not None:
            q_seed = seed
        if players is not None:
            options["players"] = players
        self._autoplay = autoplay
        self._pace, self._step_mode = table_from_query(params)
        start_seats = list(seats) if seats is not None else seats_from_query(params, options["players"])
        self.model = GameSession(ENGINE, q_seed, options)
        self._hint_move: Any = None
        self._hint_shown: Any = None   # what the hint line says: a message key or the expert's Decision
        self._revealed: int | None = None
        self._toggle_cards: list[str] = []
        self._toggle_pool: list[widgets.ToggleButton] = []   # discard toggles, reused (_set_discard_toggles)
        self._toggle_lang = lang
        self._card: int | None = None
        self._cell: int | None = None
        # setup controls
        self._title = widgets.HTML()
        self._players = widgets.Dropdown(options=[1, 2, 3, 4, 5], value=options["players"],
                                         layout=widgets.Layout(width="12em"))
        self._players.add_class("tranq-players")
        self._variant = widgets.Dropdown(options=list(REMOVAL_VARIANTS), value=options["removal"],
                                         layout=widgets.Layout(width="16em"))
        # width auto: a fixed width ellipsised "Storms & compass…" (the checkbox label is not a widget-label)
        self._rocks = widgets.Checkbox(value=options["rocks"], indent=False,
                                       layout=widgets.Layout(width="auto", margin="0 1.5em 0 0"))
        self._monsters = widgets.Dropdown(options=[0, 3, 4, 5], value=options["monsters"],
                                          layout=widgets.Layout(width="12em"))
        self._storms = widgets.Checkbox(value=options["storms"], indent=False,
                                       layout=widgets.Layout(width="auto", margin="0 1.5em 0 0"))
        self._seed = widgets.BoundedIntText(min=0, max=MAX_SEED, value=q_seed, layout=widgets.Layout(width="12em"))
        self._new = widgets.Button()
        self._new.add_class("tranq-new-game")
        # table
        self._status = widgets.HTML()
        self._status.add_class("tranq-status")
        # the grid and the hand are components (toolkit/widgets/components/tranquility.py): each cell and card
        # a focusable button whose click the kernel answers with a pick or the engine's reason beside it
        self._grid = TranquilityGrid(lang=lang)
        self._grid.add_class("tranq-grid")
        self._grid.on_pick(self._on_cell_pick)
        self._card_at: int | None = None     # the picked card's position in the hand (identical cards differ)
        # the seat's private area
        self._curtain = widgets.HTML()
        self._curtain.add_class("tranq-curtain")
        self._reveal = widgets.Button(button_style="warning")
        self._reveal.add_class("tranq-reveal")
        self._hand = TranquilityHand(lang=lang)
        self._hand.add_class("tranq-hand")
        self._hand.on_pick(self._on_card_pick)
        self._choice = widgets.HTML()
        self._choice.add_class("tranq-choice")
        self._discard_label = widgets.HTML()
        self._discards = widgets.HBox()
        self._discards.add_class("tranq-discards")
        self._play = widgets.Button(button_style="primary")
        self._play.add_class("tranq-play")
        self._discard_two = widgets.Button()
        self._discard_two.add_class("tranq-discard-two")
        self._start = widgets.Button(button_style="success")
        self._start.add_class("tranq-start")
        self._finish_button = widgets.Button(button_style="success")
        self._finish_button.add_class("tranq-finish")
        self._split = widgets.Button(button_style="primary")
        self._split.add_class("tranq-split")
        self._other = widgets.Dropdown(layout=widgets.Layout(width="26em"))
        self._other.add_class("tranq-other")
        self._other_apply = widgets.Button()
        self._other_apply.add_class("tranq-other-apply")
        self._private = widgets.VBox()
        self._log = widgets.HTML()
        self._log.add_class("tranq-log")
        self._bot_reason = widgets.HTML()
        self._bot_reason.add_class("tranq-bot-reason")
        self._waiting = widgets.HTML()
        self._waiting.add_class("tranq-waiting")
        self._hint = widgets.Button(icon="lightbulb-o")
        self._hint.add_class("tranq-hint")
        self._play_hint = widgets.Button()
        self._play_hint.add_class("tranq-play-hint")
        self._hint_text = widgets.HTML()
        self._hint_text.add_class("tranq-hint-text")
        self._teacher = widgets.HTML()
        self._teacher.add_class("tranq-teacher")
        self._seats_box = widgets.VBox()
        # Rows of the private area kept from one drawing to the next: a new box each time made the page
        # rebuild (detach) the Hint button on every refresh, which a click could miss on a loaded machine.
        self._buttons_row = widgets.HBox()
        self._other_row = widgets.HBox([self._other, self._other_apply])
        self._hint_row = widgets.HBox([self._hint, self._play_hint])
        # wiring (every callback validates what it receives)
        self._new.on_click(self._on_new)
        self._reveal.on_click(self._on_reveal)
        self._play.on_click(self._on_play)
        self._discard_two.on_click(self._on_discard_two)
        self._start.on_click(self._on_start)
        self._finish_button.on_click(self._on_finish)
        self._split.on_click(self._on_split)
        self._other_apply.on_click(self._on_other)
        self._hint.on_click(self._on_hint)
        self._play_hint.on_click(self._on_play_hint)
        self._finish([self._title,
                      widgets.HBox([self._players, self._variant, self._monsters],
                                   layout=widgets.Layout(flex_flow="row wrap")),
                      widgets.HBox([self._rocks, self._storms, self._seed, self._new],
                                   layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                      self._seats_box, self._status, self._bot_reason, self._grid, self._private, self._teacher,
                      self._log])
        self.setup: SeatSetup | None = None
        self.driver: BotDriver | None = None
        self._seat_table(start_seats)
        self.refresh()

    # ---- the seats and the bots ------------------------------------------------------------------
    def _seat_table(self, seats: Sequence[str] | None = None) -> None:
        """(Re)build the seat setup and the bot driver for the current game's player count.

        A table of the same size keeps its seat setup (its seats, pace and step mode; the teacher's switch
        goes off, as it always did for a new game): a new one on every "New game" left ~37 widget models per
        click in the kernel and the page. A setup replaced for another player count is closed with all its
        widgets (:func:`~toolkit.widgets.base.close_tree`).
        """
        old_setup = self.setup
        if self.driver is not None:
            self.driver.close()
            self.driver.unobserve(self._on_bot_moved, "moves_played")
        players = self.state.players
        if seats is None and old_setup is not None and len(old_setup.seats) == players:
            old_setup.unobserve(self._on_seats_changed, ["seats", "show_all"])
            old_setup.show_all = False
        else:
            pace = old_setup.pace if old_setup is not None else self._pace
            step = old_setup.step_mode if old_setup is not None else self._step_mode
            self.setup = SeatSetup(players, LEVELS, seats, lang=self.lang, pace=pace, step_mode=step)
            self._seats_box.children = (self.setup,)
            if old_setup is not None:
                old_setup.unobserve(self._on_seats_changed, ["seats", "show_all"])
                close_tree(old_setup)
        self.setup.observe(self._on_seats_changed, ["seats", "show_all"])
        self.driver = BotDriver(self.model, self.setup, on_error=lambda exc: self.report(exc, error=True),
                                autoplay=self._autoplay)
        self.driver.observe(self._on_bot_moved, "moves_played")
        self._revealed = None

    def _on_bot_moved(self, _change: Any = None) -> None:
        self._card, self._cell, self._hint_move = None, None, None
        self._hint_shown = None
        self._hint_text.value = ""
        self.refresh()

    def _on_seats_changed(self, _change: Any = None) -> None:
        self._revealed = None
        self.refresh()

    def run_bots(self) -> int:
        """Play every bot move due now at once (tests and notebooks); the number played."""
        return self.driver.run_until_human() if self.driver is not None else 0

    # ---- helpers ----------------------------------------------------------------------------------
    @property
    def state(self):
        return self.model.session.state

    def _actor(self) -> int | None:
        return ENGINE.current_player(self.state)

    def _ticked(self) -> tuple[int, ...]:
        return tuple(parse_card(name) for name, b in zip(self._toggle_cards, self._discards.children) if b.value)

    def _play_move(self, move: Any) -> None:
        if self.play_on(self.model, move):
            self._card, self._cell = None, None
            self._refusal = None
        else:
            # the page's message line is far below the grid: the reason goes next to the button too, until
            # the learner picks again or the position changes
            self._refusal = self.model.violation or self.model.message or None
            self._refusal_at = len(self.model.session)
        self.refresh()

    def _refusal_html(self) -> str:
        refusal = getattr(self, "_refusal", None)
        if refusal is None or getattr(self, "_refusal_at", None) != len(self.model.session):
            return ""
        return f'<div class="deepsea-refusal tranq-refusal" role="alert">✘ {explain_html(refusal, self.lang)}</div>'

    def _hot_seat(self) -> bool:
        return len(self.setup.human_seats()) > 1

    def _shown_seat(self) -> int | None:
        """The one seat whose observation the page may hold now (``None``: the public view)."""
        actor = self._actor()
        setup = self.setup
        if actor is not None and setup.show_all:
            return actor
        humans = setup.human_seats()
        if actor is not None and setup.is_human(actor):
            if len(humans) > 1 and self._revealed != actor:
                return None  # hot seat: the curtain is up until this person reveals
            return actor
        return humans[0] if len(humans) == 1 else None

    def _require_revealed(self) -> int:
        actor = self._actor()
        if actor is None or not self.setup.is_human(actor) or self._shown_seat() != actor:
            raise InvalidMoveError("it is not your turn to act (or your hand is not revealed yet)")
        return actor

    # ---- callbacks ----------------------------------------------------------------------------------
    @safe_callback
    def _on_cell_pick(self, index: Any) -> None:
        # the component only passes on what this view offered (a cell index); checked again all the same
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < CELLS:
            raise InvalidMoveError(f"{index!r} is not a cell")
        self._cell = index
        self._refusal = None
        self.refresh()

    @safe_callback
    def _on_new(self, _button: Any = None) -> None:
        players, variant, monsters = self._players.value, self._variant.value, self._monsters.value
        if players not in (1, 2, 3, 4, 5) or variant not in REMOVAL_VARIANTS or monsters not in (0, 3, 4, 5):
            raise InvalidMoveError("unknown game settings")
        seed = self._seed.value
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InvalidMoveError(f"seed {seed!r} is out of range")
        options = {"players": players, "removal": variant, "monsters": monsters,
                   "rocks": bool(self._rocks.value), "storms": bool(self._storms.value)}
        if self.driver is not None:
            self.driver.close()  # no bot of the old table may move in the new game
            self.driver.unobserve(self._on_bot_moved, "moves_played")
            self.driver = None
        self.model.new_game(seed, options)
        message = self.model.message
        self._seat_table()
        if message:
            self.report(message, error=True)
        else:
            self.clear_report()
        self._revealed, self._card, self._cell, self._hint_move = None, None, None, None
        self._hint_shown = None
        self._hint_text.value = ""
        self._bot_reason.value = ""
        self.refresh()

    @safe_callback
    def _on_reveal(self, _button: Any = None) -> None:
        self._revealed = self._actor()
        self._card, self._cell = None, None
        self.refresh()

    @safe_callback
    def _on_card_pick(self, position: Any) -> None:
        seat = self._require_revealed()
        hand = ENGINE.observe(self.state, seat)["hand"]
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < len(hand):
            raise InvalidMoveError(f"{position!r} is not a card of this hand")
        self._card, self._card_at = parse_card(hand[position]), position
        self._refusal = None
        self.refresh()

    @safe_callback
    def _on_play(self, _button: Any = None) -> None:
        self._require_revealed()
        if self._card is None or self._cell is None:
            raise InvalidMoveError("pick a card from your hand and a cell first")
        self._play_move(PlaceIsland(self._card, self._cell, self._ticked()))

    @safe_callback
    def _on_discard_two(self, _button: Any = None) -> None:
        self._require_revealed()
        self._play_move(DiscardTwo(self._ticked()))

    @safe_callback
    def _on_start(self, _button: Any = None) -> None:
        self._require_revealed()
        self._play_move(PlayStart())

    @safe_callback
    def _on_finish(self, _button: Any = None) -> None:
        self._require_revealed()
        self._play_move(PlayFinish())

    @safe_callback
    def _on_split(self, _button: Any = None) -> None:
        self._require_revealed()
        self._play_move(StartDiscard(self._ticked()))

    @safe_callback
    def _on_hint(self, _button: Any = None) -> None:
        seat = self._require_revealed()
        decision = self.driver.hint(seat)
        if decision is None or decision.move is None:
            self._hint_move, self._hint_shown = None, "tranquility.ui.hint_none"
        else:
            self._hint_move, self._hint_shown = decision.move, decision
        self._hint_seat = seat
        self._hint_at = len(self.model.session)
        self.refresh()

    def _render_hint(self, seat: int | None) -> None:
        """The hint line, worded in the page's language at every redraw (the toggle rewords it).

        A hint names its seat's cards: once the page shows another seat (the hot-seat curtain, a seat or
        teacher switch), it is forgotten, not only hidden — the text would stay in the page's widget state.
        """
        if self._hint_shown is not None and (seat != getattr(self, "_hint_seat", None)
                                             or getattr(self, "_hint_at", None) != len(self.model.session)):
            self._hint_move, self._hint_shown = None, None   # another seat shown, or any move since: stale
        shown = self._hint_shown
        if shown is None:
            self._hint_text.value = ""
        elif isinstance(shown, str):
            self._hint_text.value = esc(self.t(shown))
        else:   # the hint is this person's own move: naming their own cards is fine
            # data-marks: how many objects the hint outlines on the table (a page or test can wait for them)
            hand = ENGINE.observe(self.state, seat)["hand"] if seat is not None else ()
            marked = sum(len(keys) for _, keys in hint_marks(shown.move, hand))
            self._hint_text.value = (f'<div class="tranq-hint-move" data-marks="{marked}"><b>'
                                     f'{esc(ENGINE.describe_move(shown.move, self.lang))}'
                                     f'</b></div><div>{explain_html(shown.reason, self.lang)}</div>')

    def _render_hint_marks(self, obs: dict) -> None:
        """Outline the hint's cell and card where they are drawn (cleared as soon as the hint is gone)."""
        marks = dict(hint_marks(self._hint_move, obs.get("hand") or ())) if self._hint_move is not None else {}
        label = self.t("components.tranquility.hint_mark") if marks else ""
        for role, component in (("grid", self._grid), ("hand", self._hand)):
            keys = marks.get(role, [])
            if list(component.hint_keys) != keys or (keys and component.hint_label != label):
                component.mark_hint(keys, label)
        # the discard toggles are ipywidgets: the shared mark's class (base.css) goes on them directly
        paid = set(marks.get("discards", []))
        for i, toggle in enumerate(self._toggle_pool):
            wanted = i < len(self._toggle_cards) and card_key(i) in paid
            if wanted != ("deepsea-hinted" in toggle._dom_classes):
                (toggle.add_class if wanted else toggle.remove_class)("deepsea-hinted")
                toggle.tooltip = label if wanted else ""

    @safe_callback
    def _on_play_hint(self, _button: Any = None) -> None:
        self._require_revealed()
        move = self._hint_move
        if move is None or move not in self.model.legal_moves:
            raise InvalidMoveError("ask for a hint first")
        self._hint_move = None
        self._hint_shown = None
        self._hint_text.value = ""
        self._play_move(move)

    @safe_callback
    def _on_other(self, _button: Any = None) -> None:
        self._require_revealed()
        index = self._other.value
        moves = self.model.legal_moves
        if not isinstance(index, int) or not 0 <= index < len(moves):
            raise InvalidMoveError(f"no move number {index!r}")
        self._play_move(moves[index])

    # ---- rendering -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        if self.setup is None:
            return  # still building
        lang, state = self.lang, self.state
        actor = self._actor()
        seat = self._shown_seat()
        self.model.seat = seat
        self.setup.lang = lang
        if self._card is None:
            self._card_at = None
        self._render_hint(seat)
        obs = ENGINE.observe(state, seat)
        self._title.value = f"<h3>{esc(self.t('tranquility.ui.game_title'))}</h3>"
        self._title.value += table_rules_html("tranquility", self.lang)   # what no engine enforces
        self._players.description = self.t("tranquility.ui.players")
        self._variant.description = self.t("tranquility.ui.variant")
        labels = [(self.t(f"tranquility.ui.variant.{v}"), v) for v in REMOVAL_VARIANTS]
        if tuple(self._variant.options) != tuple(labels):
            value = self._variant.value
            self._variant.options = labels
            self._variant.value = value
        self._monsters.description = self.t("tranquility.ui.monsters")
        self._rocks.description = self.t("tranquility.ui.rocks")
        self._storms.description = self.t("tranquility.ui.storms")
        self._seed.description = self.t("tranquility.ui.seed")
        self._new.description = self.t("tranquility.ui.new_game")
        self._render_status(obs)
        self._render_grid(obs)
        self._render_private(obs, seat, actor)
        self._render_hint_marks(obs)
        self._render_bots(actor)
        setup = ENGINE.setup_events(self.model.session.initial)
        self._log.value = event_log_html(list(setup) + self.model.session.events, lang, seat_name=self.setup.seat_name)

    def _render_status(self, obs: dict) -> None:
        none = self.t("tranquility.ui.none")
        lines = []
        outcome = ENGINE.outcome(self.state)
        if outcome is not None:
            lines.append(f'<div class="tranq-outcome"><b>{explain_html(outcome, self.lang)}</b></div>')
        else:
            phase = self.t(f"tranquility.phase.{obs['phase']}")
            lines.append(f'<div>{esc(self.t("tranquility.ui.turn_of", turn=obs["turn"], seat=obs["to_act"], phase=phase))}</div>')
        for s in range(obs["players"]):
            lines.append(f'<div class="tranq-seat-line">{esc(self.t("tranquility.ui.table", seat=s, hand=obs["hand_sizes"][s], pile=obs["pile_sizes"][s], discards=obs["discard_counts"][s]))}</div>')
        lines.append(f'<div>{esc(self.t("tranquility.ui.start_space", filled=obs["start_space"]))}</div>')
        o = self.state.options
        if o.rocks or o.storms:
            rock = obs["rock_row"] + 1 if obs["rock_row"] is not None else none
            lines.append(f'<div>{esc(self.t("tranquility.ui.extras", pool=obs["compass_pool"], supply=obs["compass_supply"], rock=rock, purple=[r + 1 for r in obs["purple_rows"]] or none, yellow=obs["yellow_storms"], orange=obs["orange_storms"]))}</div>')
        self._status.value = "".join(lines)

    def _render_bots(self, actor: int | None) -> None:
        last = self.driver.last if self.driver is not None else None
        if last is not None:
            seat, decision = last
            level = self.setup.level_label(self.setup.seats[seat]) if seat < len(self.setup.seats) else ""
            self._bot_reason.value = (f'<div>{esc(self.t("tranquility.ui.bot_said", seat=seat, level=level))} '
                                      f'{explain_html(decision.reason, self.lang)}</div>')
        if self.setup.show_all:
            lines = [f'<b>{esc(self.t("tranquility.ui.teacher_hands"))}</b>']
            for s in range(self.state.players):
                hand = ENGINE.observe(self.state, s)["hand"]
                lines.append(f'<div class="tranq-teacher-hand">{esc(self.t("tranquility.ui.seat_hand", seat=s))} '
                             f'{esc(" ".join(self._label(c) for c in hand) or "—")}</div>')
            self._teacher.value = "".join(lines)
        else:
            self._teacher.value = ""

    def _render_grid(self, obs: dict) -> None:
        blocked = set(obs["purple_rows"]) | ({obs["rock_row"]} if obs["rock_row"] is not None else set())
        card = self._placeable_card()
        targets = ({m.cell for m in self.model.legal_moves if isinstance(m, PlaceIsland) and m.number == card}
                   if card is not None else set())
        offers, refusals = self._cell_offers(obs, card)
        self._grid.lang = self.lang
        # an empty cell shows its index as "#15", a placed card its value "15": the component draws them apart
        self._grid.show(obs["cells"], tips=[self._cell_tip(obs["cells"], i, card, i in targets) for i in range(CELLS)],
                        legal=targets, selected=self._cell, blocked_rows=blocked, offers=offers, refusals=refusals)

    def _cell_offers(self, obs: dict, card: int | None) -> tuple[dict[str, int], dict[str, str]]:
        """What a click on each cell does for the person acting now: pick it, or the engine's reason why not.

        With an island card picked, a cell is refused with ``why_illegal`` of placing it there — except for
        the discards it costs, which are ticked after the cell is picked. Nobody to act here: no offers.
        """
        actor = self._actor()
        if actor is None or not self.setup.is_human(actor) or self._shown_seat() != actor:
            return {}, {}
        offers: dict[str, int] = {}
        refusals: dict[str, str] = {}
        playing = obs["phase"] == "play"
        for i, value in enumerate(obs["cells"]):
            key = cell_key(i)
            if card is not None or not playing:
                # the phase's reason (wrong phase) comes first, so any island number probes it
                why = ENGINE.why_illegal(self.state, PlaceIsland(card if card is not None else 1, i))
                if why is None or why.code == "TRANQ_DISCARD_COUNT":
                    offers[key] = i
                else:
                    refusals[key] = why.text(self.lang)
            elif value:
                refusals[key] = self.t("components.tranquility.cell_taken", cell=i, value=value)
            else:
                offers[key] = i
        return offers, refusals

    def _placeable_card(self) -> int | None:
        """The island card picked by the person who acts now and whose hand is shown, else ``None``."""
        actor = self._actor()
        if (self._card is None or self._card > 80 or actor is None or not self.setup.is_human(actor)
                or self._shown_seat() != actor):
            return None
        return self._card

    def _cell_tip(self, cells: Sequence[int], index: int, card: int | None, legal: bool) -> str:
        """Where a cell is and, with a card picked, what placing it there costs or why it may not go there."""
        from toolkit.tranquility.grid import placement_violation, raw_cost

        where = self.t("tranquility.ui.cell_tip", cell=index, row=index // COLUMNS + 1, column=index % COLUMNS + 1)
        if card is None or cells[index]:
            return where
        broken = placement_violation(tuple(cells), index, card)
        if broken is not None:
            return f"{where} — ✘ {broken.text(self.lang)}"
        cost = raw_cost(tuple(cells), index, card)
        key = "tranquility.ui.tip_ok" if legal else "tranquility.ui.tip_not_now"
        return f"{where} — {self.t(key, number=card, cost=cost)}"

    def _render_private(self, obs: dict, seat: int | None, actor: int | None) -> None:
        self._hand.lang = self.lang
        if actor is None:
            self._hand.clear()
            self._set_discard_toggles([])
            self._private.children = ()
            return
        bot_turn = not self.setup.is_human(actor)
        if bot_turn:
            level = self.setup.level_label(self.setup.seats[actor])
            key = "tranquility.ui.waiting_step" if self.setup.step_mode else "tranquility.ui.waiting"
            self._waiting.value = f'<div><i>{esc(self.t(key, seat=actor, level=level))}</i></div>'
        if seat is None and bot_turn:
            self._hand.clear()
            self._set_discard_toggles([])
            self._other.options = []
            self._choice.value = ""
            self._card = None
            self._private.children = (self._waiting,)
            return
        if seat is None:
            # Curtain: empty every hand widget first so no card of any seat stays in the page (widget models
            # live in the browser even when not displayed, so they are emptied or closed, not just hidden).
            self._hand.clear()
            self._set_discard_toggles([])
            self._other.options = []
            self._choice.value = ""
            self._card = None
            self._curtain.value = f"<div><b>{esc(self.t('tranquility.ui.pass_to', seat=actor))}</b></div>"
            self._reveal.description = self.t("tranquility.ui.reveal", seat=actor)
            self._private.children = (self._curtain, self._reveal)
            return
        hand = obs["hand"]
        # identical cards stay separate cards (one key per position); only the acting person picks
        acting = seat == actor and not bot_turn
        self._hand.show(hand, [self._label(name) for name in hand],
                        title=self.t("tranquility.ui.your_hand", seat=seat, limit=obs["hand_limit"]),
                        selected=self._card_at if acting else None,
                        offers={card_key(i): i for i in range(len(hand))} if acting else None)
        if self._toggle_cards != hand or self._toggle_lang != self.lang:
            self._set_discard_toggles(hand)
        self._discard_label.value = f"<small>{esc(self.t('tranquility.ui.discard_pick'))}</small>"
        self._play.description = self.t("tranquility.ui.play")
        self._discard_two.description = self.t("tranquility.ui.discard_two")
        self._start.description = self.t("tranquility.ui.play_start")
        self._finish_button.description = self.t("tranquility.ui.play_finish")
        self._split.description = self.t("tranquility.ui.split_button")
        self._other.description = self.t("tranquility.ui.other_moves")
        self._other_apply.description = self.t("tranquility.ui.apply")
        children: list[widgets.Widget] = [self._hand]
        if seat != actor or bot_turn:
            # Waiting for the bots (or the teacher looks at a bot's hand): the hand, no actions.
            self._other.options = []
            self._choice.value = ""
            self._private.children = tuple(children + [self._waiting])
            return
        self._hint.description = self.t("tranquility.ui.hint")
        self._play_hint.description = self.t("tranquility.ui.play_hint")
        self._play_hint.disabled = self._hint_move is None
        moves = self.model.legal_moves
        # every legal move: the fallback for the keyboard, a screen reader and anyone who prefers a list
        self._other.options = [(ENGINE.describe_move(m, self.lang), i) for i, m in enumerate(moves)]
        phase = obs["phase"]
        if phase == "start-discard":
            low, high = ENGINE.split_bounds(self.state)
            key = "tranquility.ui.split_help_exact" if low == high else "tranquility.ui.split_help"
            self._choice.value = esc(self.t(key, left=obs["start_discard_left"], low=low, high=high)) + self._refusal_html()
            children += [self._choice, self._discard_label, self._discards, self._split]
        elif phase == "play":
            self._choice.value = self._choice_text() + self._refusal_html()
            buttons = [self._play, self._discard_two]
            if START in self.state.hands[seat] and not self.state.start_space:
                buttons.insert(0, self._start)
            if FINISH in self.state.hands[seat]:
                buttons.append(self._finish_button)
            if tuple(self._buttons_row.children) != tuple(buttons):
                self._buttons_row.children = tuple(buttons)
            children += [self._choice, self._discard_label, self._discards, self._buttons_row]
        if self._other.options:
            children.append(self._other_row)
        children += [self._hint_row, self._hint_text]
        if tuple(self._private.children) != tuple(children):
            self._private.children = tuple(children)

    def _label(self, name: str) -> str:
        """A card as the hand shows it: islands by number, the others by their translated name."""
        if name.isdigit():
            return name
        return self.t(f"tranquility.ui.card.{name}")

    def _set_discard_toggles(self, names: list[str]) -> None:
        """Show one discard toggle per card of ``names``, unticked (a language switch keeps the ticks).

        The toggles are reused, never replaced: new ones on every hand change or language switch used to
        stay in the kernel and in the page's widget manager for ever (15 models per language switch), and
        the old seat's cards with them — a curtain only took them off the screen. Toggles the hand does not
        need now are emptied (no label, no card class) and leave the layout. Reusing rather than closing
        also keeps a page that is still drawing a toggle from finding its model gone (the widget manager's
        error icon; docs/decisions.md).
        """
        relabel = list(names) == self._toggle_cards   # a language switch: the ticks stay
        self._toggle_cards = list(names)
        self._toggle_lang = self.lang
        pool = self._toggle_pool
        while len(pool) < len(names):
            tb = widgets.ToggleButton(layout=widgets.Layout(width="auto"))
            tb.add_class("tranq-discard")
            tb.observe(self._on_tick, "value")
            pool.append(tb)
        self._ticks_quiet = True   # unticking is ours, not the visitor's
        try:
            for i, tb in enumerate(pool):
                name = names[i] if i < len(names) else None
                wanted = f"tranq-discard-{name}" if name is not None else None
                with tb.hold_sync():
                    for cls in [c for c in tb._dom_classes if c.startswith("tranq-discard-") and c != wanted]:
                        tb.remove_class(cls)
                    if wanted is not None and wanted not in tb._dom_classes:
                        tb.add_class(wanted)
                    tb.description = self._label(name) if name is not None else ""
                    if not (relabel and name is not None):
                        tb.value = False
        finally:
            self._ticks_quiet = False
        shown = tuple(pool[:len(names)])
        if tuple(self._discards.children) != shown:
            self._discards.children = shown

    @safe_callback
    def _on_tick(self, _change: Any = None) -> None:
        if getattr(self, "_ticks_quiet", False):
            return
        self._refusal = None
        if self._card is not None and self._cell is not None:
            self._choice.value = self._choice_text()

    def _choice_text(self) -> str:
        if self._card is None or self._cell is None:
            return f"<small>{esc(self.t('tranquility.ui.pick_card_cell'))}</small>"
        from toolkit.tranquility.grid import placement_violation
        if self._card > 80:
            return ""
        broken = placement_violation(self.state.cells, self._cell, self._card)
        if broken is not None:
            return explain_html(broken, self.lang)
        seat = self._shown_seat()
        hint = placement_hint(ENGINE.observe(self.state, seat), self._card, self._cell, self._ticked())
        lines = [esc(self.t("tranquility.ui.choice", card=self._card, cell=self._cell, cost=hint.cost))]
        for gap in hint.broken:
            lines.append(f'<div class="tranq-gap-warning" style="color:#b30">⚠ {explain_html(gap.violation(), self.lang)}</div>')
        if not hint.broken and hint.after.feasible:
            lines.append(f'<div class="tranq-gap-ok">{esc(self.t("tranquility.ui.gaps_ok"))}</div>')
        return "".join(f"<div>{x}</div>" if not x.startswith("<div") else x for x in lines)

    # ---- for tests ----------------------------------------------------------------------------------
    def reveal(self) -> None:
        self._reveal.click()

    def choose(self, card: str | None, cell: int | None, discards: tuple[str, ...] = ()) -> None:
        """Pick a hand card, a cell and the cards to tick, as clicks would (``None`` skips a part)."""
        if card is not None:
            names = [c["name"] for c in self._hand.cards]
            position = names.index(card) if card in names else len(names)   # a card not held: refused
            self._hand.receive({"type": "pick", "key": card_key(position)})
        if cell is not None:
            self._grid.receive({"type": "pick", "key": cell_key(cell)})
        wanted = list(discards)
        for name, b in zip(self._toggle_cards, self._discards.children):
            b.value = name in wanted
            if b.value:
                wanted.remove(name)
