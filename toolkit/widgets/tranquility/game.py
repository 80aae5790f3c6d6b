"""A full game of Tranquility at a table of people and bots.

The table is built on the shared table frame (:class:`~toolkit.widgets.table.TableFrame`, docs/architecture.md
"The table frame"): options, seats, status line, bot line, result banner, hint, event log, undo, new game and
the game's code are the frame's; this module draws only the grid, the hand and the actions.

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
``seats`` (e.g. ``you,rank,greedy``), ``pace`` (seconds), ``step`` (1/0); ``code`` (the frame's game code:
reopens a game where it was).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError
from toolkit.core.explain import Event
from toolkit.widgets.rulebook import table_rules_html
from toolkit.tranquility import ENGINE, FINISH, REMOVAL_VARIANTS, START, PlaceIsland, PlayFinish, PlayStart
from toolkit.tranquility.bots import LEVELS
from toolkit.tranquility.cards import CELLS, COLUMNS, card_name, parse_card
from toolkit.tranquility.hints import placement_hint
from toolkit.tranquility.moves import DiscardTwo, PlayMonster, StartDiscard
from toolkit.widgets.base import esc, explain_html, safe_callback
from toolkit.widgets.components.tranquility import TranquilityGrid, TranquilityHand, card_key, cell_key
from toolkit.widgets.seats import PACE_DEFAULT, PACE_MAX, YOU, default_seats
from toolkit.widgets.table import TableFrame
from toolkit.widgets.table.frame import table_query
from toolkit.widgets.tranquility.common import int_param

MAX_SEED = 2**31 - 1

def hint_marks(move: Any, hand: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The objects a hint's ``move`` names, as ``[(role, data-keys)]``: ``"grid"`` (the cell), ``"hand"`` (the
    card to play) and ``"discards"`` (the cards to discard, face down) — cards by their position in ``hand``,
    the card names of the hinted seat's own hand, so two identical cards are told apart.

    Pure: the table (:meth:`GameView.hint_marks`, for the frame's hint bar) maps each role to the component
    drawing it — the grid, the hand, the discard toggles by position — whose ``mark_hint(keys, label)`` it calls.

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


class DiscardToggles(widgets.HBox):
    """The shown hand's cards as toggles, ticked to pay a placement's discards (or to discard two, or split
    the start card's discards). Child ``i`` is the card at position ``i`` of the hand (key ``card:<i>``),
    so it speaks the hint-mark protocol like the components: ``mark_hint(keys, label)`` outlines toggles."""

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(flex_flow="row wrap"))
        self.add_class("tranq-discards")
        self.hint_keys: list[str] = []
        self.hint_label = ""

    def mark_hint(self, keys: Sequence[str] = (), label: str = "") -> None:
        if isinstance(keys, str):
            raise TypeError(f"keys must be a sequence of data-keys, not the string {keys!r}")
        self.hint_keys, self.hint_label = [str(k) for k in keys], str(label) if keys else ""
        self.draw_marks()

    def draw_marks(self, pool: Sequence[widgets.ToggleButton] = ()) -> None:
        """Outline the hinted toggles (the shared mark's class, base.css); unmark the rest of ``pool``."""
        shown = list(self.children)
        for toggle in list(shown) + [t for t in pool if t not in shown]:
            wanted = toggle in shown and card_key(shown.index(toggle)) in self.hint_keys
            if wanted != ("deepsea-hinted" in toggle._dom_classes):
                (toggle.add_class if wanted else toggle.remove_class)("deepsea-hinted")
                toggle.tooltip = self.hint_label if wanted else ""


def _query_options(params: Mapping[str, str]) -> dict[str, Any]:
    """The engine options the query names (only those: the rest keep the table's own values)."""
    _seed, options = options_from_query(dict(params))
    named = {"players": "players", "removal": "variant", "rocks": "rocks", "storms": "storms", "monsters": "monsters"}
    return {option: options[option] for option, param in named.items() if param in params}


class GameView(TableFrame):
    """A table on the shared frame (:class:`~toolkit.widgets.table.TableFrame`): the seats, status, hint,
    log, undo, new game and code are the frame's; this class draws the grid, the hand (behind a hot seat's
    curtain), the discard toggles and the action buttons.

    ``seats``: "you" or a level per seat (default: you at seat 0, the strongest bot elsewhere).
    ``autoplay=False`` leaves the bots' moves to :meth:`run_bots` (notebooks checked by nbval).
    """

    def __init__(self, seed: int | None = None, players: int | None = None, lang: str = "en",
                 query: str | None = None, seats: Sequence[str] | None = None, autoplay: bool = True,
                 show_language: bool = True):
        params = table_query(query) if show_language or query is not None else {}
        asked = _query_options(params)
        players = asked.get("players", players if players is not None else 2)
        self._pace, self._step_mode = table_from_query(params)
        start_seats = list(seats) if seats is not None else seats_from_query(params, players)
        super().__init__(ENGINE, seed=seed if seed is not None else 1, options={"players": players},
                         seats=start_seats, levels=LEVELS, lang=lang, show_language=show_language,
                         autoplay=autoplay, query=query if query is not None else None)
        self.add_class("tranq-game")

    # ---- the frame's hooks --------------------------------------------------------------------------
    def build(self) -> None:
        self._revealed: int | None = None
        self._toggle_cards: list[str] = []
        self._toggle_pool: list[widgets.ToggleButton] = []   # discard toggles, reused (_set_discard_toggles)
        self._toggle_lang = self.lang
        self._card: int | None = None
        self._card_at: int | None = None     # the picked card's position in the hand (identical cards differ)
        self._cell: int | None = None
        self._position_seen: Any = None
        # the options (the frame's options bar adds the seed and "New game")
        # each label at its own width, in em (so ?display=large scales label and box alike): the default
        # label width squeezed the boxes to nothing once the labels grew; a number box keeps 4em of its own
        def fit(width: str) -> dict[str, Any]:
            return {"layout": widgets.Layout(width=width), "style": {"description_width": "initial"}}
        self._players = widgets.Dropdown(options=[1, 2, 3, 4, 5], value=2, **fit("10em"))
        self._players.add_class("tranq-players")
        self._variant = widgets.Dropdown(options=list(REMOVAL_VARIANTS), value="none", **fit("max-content"))
        self._variant.add_class("tranq-variant")
        self._monsters = widgets.Dropdown(options=[0, 3, 4, 5], value=0, **fit("12em"))
        self._monsters.add_class("tranq-monsters")
        # width auto: a fixed width ellipsised "Storms & compass…" (the checkbox label is not a widget-label)
        self._rocks = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto", margin="0 1.5em 0 0"))
        self._rocks.add_class("tranq-rocks")
        self._storms = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto", margin="0 1.5em 0 0"))
        self._storms.add_class("tranq-storms")
        # the board: the grid and the hand are components (toolkit/widgets/components/tranquility.py): each
        # cell and card a focusable button whose click the kernel answers with a pick or the engine's reason
        self._grid = TranquilityGrid(lang=self.lang)
        self._grid.add_class("tranq-grid")
        self._grid.on_pick(self._on_cell_pick)
        self._hand = TranquilityHand(lang=self.lang)
        self._hand.add_class("tranq-hand")
        self._hand.on_pick(self._on_card_pick)
        self._curtain = widgets.HTML()
        self._curtain.add_class("tranq-curtain")
        self._reveal = widgets.Button(button_style="warning", layout=widgets.Layout(width="auto"))
        self._reveal.add_class("tranq-reveal")
        self._reveal.on_click(self._on_reveal)
        self._choice = widgets.HTML()
        self._choice.add_class("tranq-choice")
        self._seat_area = widgets.VBox()          # the curtain, or the shown seat's hand and the choice
        self._seat_area.add_class("tranq-seat-area")
        self._info = widgets.HTML()               # public counts: hands, piles, discards, start space
        self._info.add_class("tranq-info")
        self._teacher = widgets.HTML()
        self._teacher.add_class("tranq-teacher")
        # the actions (the frame puts its refusal line beside them)
        self._discard_label = widgets.HTML()
        self._discards = DiscardToggles()
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
        # Rows kept from one drawing to the next: a new box each time made the page rebuild (detach) the
        # buttons on every refresh, which a click could miss on a loaded machine.
        self._buttons_row = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self._other_row = widgets.HBox([self._other, self._other_apply], layout=widgets.Layout(flex_flow="row wrap"))
        self._actions = widgets.VBox()
        self._actions.add_class("tranq-actions")
        self._play.on_click(self._on_play)
        self._discard_two.on_click(self._on_discard_two)
        self._start.on_click(self._on_start)
        self._finish_button.on_click(self._on_finish)
        self._split.on_click(self._on_split)
        self._other_apply.on_click(self._on_other)

    def board_widgets(self) -> list[widgets.Widget]:
        # the public counts (and the teacher's hands) above the grid: the hand stays next to its actions
        return [self._info, self._teacher, self._grid, self._seat_area]

    def action_widgets(self) -> list[widgets.Widget]:
        return [self._actions]

    def option_widgets(self) -> dict[str, widgets.Widget]:
        return {"players": self._players, "removal": self._variant, "monsters": self._monsters,
                "rocks": self._rocks, "storms": self._storms}

    def options_from_widgets(self, values: Mapping[str, Any]) -> dict[str, Any]:
        # untrusted widget values: the engine checks them (a bad one is refused beside "New game")
        return {"players": values.get("players"), "removal": values.get("removal"),
                "monsters": values.get("monsters"), "rocks": bool(values.get("rocks")),
                "storms": bool(values.get("storms"))}

    def options_from_query(self, params: Mapping[str, str]) -> dict[str, Any]:
        return _query_options(params)

    def label_options(self) -> None:
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

    def seat_options(self) -> dict[str, Any]:
        old = getattr(self, "_setup", None)   # a table of another size keeps the pace and step mode
        if old is not None:
            return {"pace": old.pace, "step_mode": old.step_mode}
        return {"pace": self._pace, "step_mode": self._step_mode}

    def title_text(self) -> str:
        return self.t("tranquility.ui.game_title")

    def rules_html(self) -> str:
        """The table rule no engine enforces (``tranquility.table.silence``), its id linked (as every table)."""
        return table_rules_html("tranquility", self.lang)

    def setup_events(self) -> list[Event]:
        return list(ENGINE.setup_events(self.model.session.initial))

    def last_result(self, events: Sequence[Event]) -> str | None:
        """The last move's events (a placement and its discards, counted, never named)."""
        position = self.model.position
        if position == 0:
            return None
        step = self.model.session.steps[position - 1]
        return "<br>".join(explain_html(e, self.lang) for e in step.events) or None

    def bot_move_text(self, seat: int, decision: Any) -> tuple[str, str] | None:
        # the move's own description names its face-down discards: the bot's reason never does
        return (self.t("tranquility.ui.bot_moved", name=self.seat_name(seat), reason=decision.text(self.lang)),
                getattr(decision.reason, "rule", ""))

    def shareable(self, moves: Sequence[Any], viewer: int | None) -> bool:
        """No code while it would name a card another seat discarded face down (the game over: all may)."""
        if ENGINE.is_over(self.model.session.state):
            return True
        for step in self.model.session.steps:
            cards = getattr(step.move, "discards", None) or getattr(step.move, "cards", None)
            actor = next((e.seat for e in step.events if isinstance(getattr(e, "seat", None), int)), None)
            if cards and actor != viewer:
                return False
        return True

    def hint_marks(self, decision: Any) -> list[tuple[Any, Sequence[str]]]:
        seat = self.hint_bar.seat
        hand = ENGINE.observe(self.state, seat)["hand"] if seat is not None else ()
        drawn_by = {"grid": self._grid, "hand": self._hand, "discards": self._discards}
        return [(drawn_by[role], keys) for role, keys in hint_marks(decision.move, hand)]

    def on_new_game(self) -> None:
        self._revealed, self._card, self._card_at, self._cell = None, None, None, None

    def on_seats_changed(self) -> None:
        self._revealed = None

    def viewing_seat(self) -> int | None:
        """The one seat whose observation the page may hold now (``None``: the public view). At a hot seat
        of several people the acting person's hand stays behind the curtain until they reveal it. At a shared
        table the page's own seat, always (the frame's rule: nobody else's hand reaches this page)."""
        if self._shared_on():
            return super().viewing_seat()
        actor = self._actor()
        setup = self.setup
        if actor is not None and setup.show_all:
            return actor
        humans = setup.human_seats()
        if actor is not None and setup.is_human(actor):
            if len(humans) > 1 and self._revealed != actor:
                return None
            return actor
        return humans[0] if len(humans) == 1 else None

    def status_extra(self, obs: Mapping[str, Any], seat: int | None) -> list[str]:
        if ENGINE.is_over(self.model.shown_state()):
            return []
        extra = [self.t("tranquility.ui.turn_phase", turn=obs["turn"], phase=self.t(f"tranquility.phase.{obs['phase']}"))]
        if self.setup.step_mode and self.setup.waiting:
            extra.append(self.t("tranquility.ui.click_next"))
        return extra

    def refresh_board(self, obs: Mapping[str, Any], seat: int | None) -> None:
        self.model.seat = seat
        shown = (self.model.session, self.model.position)
        if shown != self._position_seen:     # any move, undo or new game: the picks were for another position
            self._position_seen = shown
            self._card, self._card_at, self._cell = None, None, None
        actor = self._actor()
        self._render_info(obs)
        self._render_grid(obs)
        self._render_seat(obs, seat, actor)
        self._render_teacher()

    # ---- for notebooks and tests ----------------------------------------------------------------------
    def run_bots(self) -> int:
        """Play every bot move due now at once (tests and notebooks); the number played."""
        return self.driver.run_until_human()

    @property
    def state(self):
        return self.model.session.state

    def _actor(self) -> int | None:
        return ENGINE.current_player(self.model.shown_state())

    def _ticked(self) -> tuple[int, ...]:
        return tuple(parse_card(name) for name, b in zip(self._toggle_cards, self._discards.children) if b.value)

    def _acting_seat(self) -> int | None:
        """The seat whose person may act from this page now; else the click is refused beside the buttons."""
        actor = self._actor()
        if (actor is None or not self.model.live or not self.setup.is_human(actor)
                or self.viewing_seat() != actor):
            self.refuse(self.t("tranquility.ui.not_your_turn"))
            return None
        return actor

    # ---- callbacks ----------------------------------------------------------------------------------
    @safe_callback
    def _on_cell_pick(self, index: Any) -> None:
        # the component only passes on what this view offered (a cell index); checked again all the same
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < CELLS:
            raise InvalidMoveError(f"{index!r} is not a cell")
        self._cell = index
        self.refusal.clear()
        self.refresh()

    @safe_callback
    def _on_reveal(self, _button: Any = None) -> None:
        self._revealed = self._actor()
        self._card, self._card_at, self._cell = None, None, None
        self.refresh()

    @safe_callback
    def _on_card_pick(self, position: Any) -> None:
        seat = self._acting_seat()
        if seat is None:
            return
        hand = ENGINE.observe(self.state, seat)["hand"]
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < len(hand):
            raise InvalidMoveError(f"{position!r} is not a card of this hand")
        self._card, self._card_at = parse_card(hand[position]), position
        self.refusal.clear()
        self.refresh()

    @safe_callback
    def _on_play(self, _button: Any = None) -> None:
        if self._acting_seat() is None:
            return
        if self._card is None or self._cell is None:
            self.refuse(self.t("tranquility.ui.pick_first"))
            return
        self.play(PlaceIsland(self._card, self._cell, self._ticked()))

    @safe_callback
    def _on_discard_two(self, _button: Any = None) -> None:
        if self._acting_seat() is not None:
            self.play(DiscardTwo(self._ticked()))

    @safe_callback
    def _on_start(self, _button: Any = None) -> None:
        if self._acting_seat() is not None:
            self.play(PlayStart())

    @safe_callback
    def _on_finish(self, _button: Any = None) -> None:
        if self._acting_seat() is not None:
            self.play(PlayFinish())

    @safe_callback
    def _on_split(self, _button: Any = None) -> None:
        if self._acting_seat() is not None:
            self.play(StartDiscard(self._ticked()))

    @safe_callback
    def _on_other(self, _button: Any = None) -> None:
        if self._acting_seat() is None:
            return
        index = self._other.value
        moves = self.model.legal_moves
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(moves):
            self.refuse(self.t("tranquility.ui.pick_a_move"))
            return
        self.play(moves[index])

    # ---- drawing ---------------------------------------------------------------------------------------
    def _render_info(self, obs: Mapping[str, Any]) -> None:
        """What every seat may see: hand, pile and discard counts, the start space, the expansions."""
        none = self.t("tranquility.ui.none")
        # each seat named as the event log names it ("You", "Seat 1 (bot: rank)")
        lines = [f'<div class="tranq-seat-line"><b class="deepsea-event-seat" data-seat="{s}">{esc(self.seat_name(s))}</b>: '
                 f'{esc(self.t("tranquility.ui.seat_counts", hand=obs["hand_sizes"][s], pile=obs["pile_sizes"][s], discards=obs["discard_counts"][s]))}</div>'
                 for s in range(obs["players"])]
        lines.append(f'<div>{esc(self.t("tranquility.ui.start_space", filled=obs["start_space"]))}</div>')
        o = self.model.shown_state().options
        if o.rocks or o.storms:
            rock = obs["rock_row"] + 1 if obs["rock_row"] is not None else none
            lines.append(f'<div>{esc(self.t("tranquility.ui.extras", pool=obs["compass_pool"], supply=obs["compass_supply"], rock=rock, purple=[r + 1 for r in obs["purple_rows"]] or none, yellow=obs["yellow_storms"], orange=obs["orange_storms"]))}</div>')
        self._info.value = "".join(lines)

    def _render_teacher(self) -> None:
        if not self.setup.show_all:
            self._teacher.value = ""
            return
        lines = [f'<b>{esc(self.t("tranquility.ui.teacher_hands"))}</b>']
        state = self.model.shown_state()
        for s in range(state.players):
            hand = ENGINE.observe(state, s)["hand"]
            lines.append(f'<div class="tranq-teacher-hand">{esc(self.t("tranquility.ui.seat_hand", seat=s))} '
                         f'{esc(" ".join(self._label(c) for c in hand) or "—")}</div>')
        self._teacher.value = "".join(lines)

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
        if actor is None or not self.setup.is_human(actor) or self.viewing_seat() != actor:
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
                or self.viewing_seat() != actor):
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

    def _render_seat(self, obs: Mapping[str, Any], seat: int | None, actor: int | None) -> None:
        """The shown seat's hand (or the hot seat's curtain) and, for the person acting, the actions."""
        self._hand.lang = self.lang
        bot_turn = actor is not None and not self.setup.is_human(actor)
        if actor is None or seat is None:
            # Nobody shown (the curtain, a table of bots, the game over at a hot seat): empty every hand
            # widget first so no card of any seat stays in the page (widget models live in the browser even
            # when not displayed, so they are emptied, not just hidden).
            self._hand.clear()
            self._set_discard_toggles([])
            self._other.options = []
            self._choice.value = ""
            self._card, self._card_at = None, None
            curtain = actor is not None and not bot_turn and self.model.live
            # behind the curtain a hint would name the hidden hand: "Hint" waits for "show my hand"
            self.hint_bar.ask.disabled = curtain
            if curtain:
                self._curtain.value = f"<div><b>{esc(self.t('tranquility.ui.pass_to', seat=actor))}</b></div>"
                self._reveal.description = self.t("tranquility.ui.reveal", seat=actor)
            self._set_children(self._seat_area, (self._curtain, self._reveal) if curtain else ())
            self._set_children(self._actions, ())
            return
        self.hint_bar.ask.disabled = False
        hand = obs["hand"]
        # identical cards stay separate cards (one key per position); only the acting person picks
        acting = seat == actor and not bot_turn and self.model.live
        self._hand.show(hand, [self._label(name) for name in hand],
                        title=self.t("tranquility.ui.your_hand", seat=seat, limit=obs["hand_limit"]),
                        selected=self._card_at if acting else None,
                        offers={card_key(i): i for i in range(len(hand))} if acting else None)
        if not acting:
            # waiting for the bots (or the teacher looks at a bot's hand): the hand, no actions
            self._set_discard_toggles([])
            self._other.options = []
            self._choice.value = ""
            self._set_children(self._seat_area, (self._hand,))
            self._set_children(self._actions, ())
            return
        if self._toggle_cards != list(hand) or self._toggle_lang != self.lang:
            self._set_discard_toggles(list(hand))
        self._discard_label.value = f"<small>{esc(self.t('tranquility.ui.discard_pick'))}</small>"
        self._play.description = self.t("tranquility.ui.play")
        self._discard_two.description = self.t("tranquility.ui.discard_two")
        self._start.description = self.t("tranquility.ui.play_start")
        self._finish_button.description = self.t("tranquility.ui.play_finish")
        self._split.description = self.t("tranquility.ui.split_button")
        self._other.description = self.t("tranquility.ui.other_moves")
        self._other_apply.description = self.t("tranquility.ui.apply")
        moves = self.model.legal_moves
        # every legal move: the fallback for the keyboard, a screen reader and anyone who prefers a list
        options = [(ENGINE.describe_move(m, self.lang), i) for i, m in enumerate(moves)]
        if list(self._other.options) != options:
            self._other.options = options
        actions: list[widgets.Widget] = []
        phase = obs["phase"]
        if phase == "start-discard":
            low, high = ENGINE.split_bounds(self.state)
            key = "tranquility.ui.split_help_exact" if low == high else "tranquility.ui.split_help"
            self._choice.value = esc(self.t(key, left=obs["start_discard_left"], low=low, high=high))
            actions = [self._discard_label, self._discards, self._split]
        elif phase == "play":
            self._choice.value = self._choice_text()
            buttons = [self._play, self._discard_two]
            if START in self.state.hands[seat] and not self.state.start_space:
                buttons.insert(0, self._start)
            if FINISH in self.state.hands[seat]:
                buttons.append(self._finish_button)
            self._set_children(self._buttons_row, buttons)
            actions = [self._discard_label, self._discards, self._buttons_row]
        else:
            self._choice.value = ""
        if self._other.options:
            actions.append(self._other_row)
        self._set_children(self._seat_area, (self._hand, self._choice))
        self._set_children(self._actions, actions)

    @staticmethod
    def _set_children(box: widgets.Box, children: Sequence[widgets.Widget]) -> None:
        # only a real change is sent: the page would otherwise detach and redraw the same buttons
        if tuple(box.children) != tuple(children):
            box.children = tuple(children)

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
        self._discards.draw_marks(pool)

    @safe_callback
    def _on_tick(self, _change: Any = None) -> None:
        if getattr(self, "_ticks_quiet", False):
            return
        self.refusal.clear()
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
        seat = self.viewing_seat()
        hint = placement_hint(ENGINE.observe(self.state, seat), self._card, self._cell, self._ticked())
        lines = [esc(self.t("tranquility.ui.choice", card=self._card, cell=self._cell, cost=hint.cost))]
        for gap in hint.broken:
            lines.append(f'<div class="tranq-gap-warning" style="color:#b30">⚠ {explain_html(gap.violation(), self.lang)}</div>')
        if not hint.broken and hint.after.feasible:
            lines.append(f'<div class="tranq-gap-ok">{esc(self.t("tranquility.ui.gaps_ok"))}</div>')
        return "".join(f"<div>{x}</div>" if not x.startswith("<div") else x for x in lines)

    # ---- for tests ----------------------------------------------------------------------------------
    def reveal(self) -> None:
        """Click the hot seat's "show my hand" (nothing happens without a curtain)."""
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
