"""A full game of Tranquility, hot seat: one device passed around the table.

Hidden information: the page only ever holds ``ENGINE.observe(state, seat)`` for the seat that has
revealed its hand. When another seat must act, a curtain replaces the hand ("pass the device to seat 2")
and the hand widgets are emptied before anything else is drawn, so other seats' cards are never in the
widget state sent to the browser. The event log is safe to show everyone: the engine's events never
name face-down cards.

URL parameters: ``players``, ``seed``, ``variant`` (removal), ``rocks``, ``monsters``, ``storms`` (1/0).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError
from toolkit.tranquility import ENGINE, FINISH, REMOVAL_VARIANTS, START, PlaceIsland, PlayFinish, PlayStart
from toolkit.tranquility.cards import CELLS, COLUMNS, ROWS, parse_card
from toolkit.tranquility.moves import DiscardTwo, StartDiscard
from toolkit.widgets.base import GameSession, View, esc, event_log_html, explain_html, query_params, safe_callback
from toolkit.widgets.tranquility.common import int_param

MAX_SEED = 2**31 - 1


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


class GameView(View):
    """Hot-seat game: setup, the grid, the acting seat's hand behind a curtain, actions and the event log."""

    def __init__(self, seed: int | None = None, players: int | None = None, lang: str = "en",
                 query: str | None = None, **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.add_class("tranq-game")
        q_seed, options = options_from_query(query_params(query))
        if seed is not None:
            q_seed = seed
        if players is not None:
            options["players"] = players
        self.model = GameSession(ENGINE, q_seed, options)
        self._revealed: int | None = None
        self._toggle_cards: list[str] = []
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
        self._rocks = widgets.Checkbox(value=options["rocks"], indent=False, layout=widgets.Layout(width="10em"))
        self._monsters = widgets.Dropdown(options=[0, 3, 4, 5], value=options["monsters"],
                                          layout=widgets.Layout(width="12em"))
        self._storms = widgets.Checkbox(value=options["storms"], indent=False, layout=widgets.Layout(width="12em"))
        self._seed = widgets.BoundedIntText(min=0, max=MAX_SEED, value=q_seed, layout=widgets.Layout(width="12em"))
        self._new = widgets.Button()
        self._new.add_class("tranq-new-game")
        # table
        self._status = widgets.HTML()
        self._status.add_class("tranq-status")
        self._cells: list[widgets.Button] = [None] * CELLS  # type: ignore[list-item]
        grid_rows = []
        for row in reversed(range(ROWS)):
            line = []
            for col in range(COLUMNS):
                i = row * COLUMNS + col
                b = widgets.Button(layout=widgets.Layout(width="3.8em", height="2.6em", margin="1px"))
                b.add_class("tranq-grid-cell")
                b.add_class(f"tranq-grid-cell-{i}")
                b.on_click(self._cell_handler(i))
                self._cells[i] = b
                line.append(b)
            grid_rows.append(widgets.HBox(line))
        self._grid = widgets.VBox(grid_rows)
        # the seat's private area
        self._curtain = widgets.HTML()
        self._curtain.add_class("tranq-curtain")
        self._reveal = widgets.Button(button_style="warning")
        self._reveal.add_class("tranq-reveal")
        self._hand_title = widgets.HTML()
        self._hand = widgets.ToggleButtons(options=[], value=None, style={"button_width": "auto"})
        self._hand.add_class("tranq-hand")
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
        # wiring (every callback validates what it receives)
        self._new.on_click(self._on_new)
        self._reveal.on_click(self._on_reveal)
        self._hand.observe(self._on_hand, "value")
        self._play.on_click(self._on_play)
        self._discard_two.on_click(self._on_discard_two)
        self._start.on_click(self._on_start)
        self._finish_button.on_click(self._on_finish)
        self._split.on_click(self._on_split)
        self._other_apply.on_click(self._on_other)
        self._finish([self._title,
                      widgets.HBox([self._players, self._variant, self._monsters]),
                      widgets.HBox([self._rocks, self._storms, self._seed, self._new]),
                      self._status, self._grid, self._private, self._log])
        self.refresh()

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
        self.refresh()

    def _require_revealed(self) -> int:
        actor = self._actor()
        if actor is None or self._revealed != actor:
            raise InvalidMoveError("the acting seat has not revealed its hand yet")
        return actor

    # ---- callbacks ----------------------------------------------------------------------------------
    def _cell_handler(self, index: int):
        @safe_callback
        def pick(view: "GameView", _button: Any = None) -> None:
            view._cell = index
            view.refresh()

        return lambda button: pick(self, button)

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
        self.model.new_game(seed, options)
        if self.model.message:
            self.report(self.model.message, error=True)
        else:
            self.clear_report()
        self._revealed, self._card, self._cell = None, None, None
        self.refresh()

    @safe_callback
    def _on_reveal(self, _button: Any = None) -> None:
        self._revealed = self._actor()
        self._card, self._cell = None, None
        self.refresh()

    @safe_callback
    def _on_hand(self, change: Any) -> None:
        value = change["new"]
        if value is None:
            self._card = None
            return
        if not isinstance(value, str):
            raise InvalidMoveError(f"{value!r} is not a card")
        self._card = parse_card(value)
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
    def _on_other(self, _button: Any = None) -> None:
        self._require_revealed()
        index = self._other.value
        moves = self.model.legal_moves
        if not isinstance(index, int) or not 0 <= index < len(moves):
            raise InvalidMoveError(f"no move number {index!r}")
        self._play_move(moves[index])

    # ---- rendering -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        lang, state = self.lang, self.state
        actor = self._actor()
        seat = self._revealed if self._revealed == actor or self.state.players == 1 else None
        if state.players == 1 and actor is not None:
            seat = self._revealed = actor
        self.model.seat = seat
        obs = ENGINE.observe(state, seat)
        self._title.value = f"<h3>{esc(self.t('tranquility.ui.game_title'))}</h3>"
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
        setup = ENGINE.setup_events(self.model.session.initial)
        self._log.value = event_log_html(list(setup) + self.model.session.events[-40:], lang)

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

    def _render_grid(self, obs: dict) -> None:
        blocked = set(obs["purple_rows"]) | ({obs["rock_row"]} if obs["rock_row"] is not None else set())
        for i, b in enumerate(self._cells):
            v = obs["cells"][i]
            b.description = str(v) if v else f"·{i}"
            b.disabled = bool(v) or self._actor() is None
            b.button_style = "warning" if i == self._cell else ("danger" if i // COLUMNS in blocked else
                                                                ("info" if v else ""))

    def _render_private(self, obs: dict, seat: int | None, actor: int | None) -> None:
        if actor is None:
            self._hand.options = []
            self._set_discard_toggles([])
            self._private.children = ()
            return
        if seat is None:
            # Curtain: empty every hand widget first so no card of any seat stays in the page (widget models
            # live in the browser even when not displayed, so they are emptied or closed, not just hidden).
            with self._hand.hold_trait_notifications():
                self._hand.value = None
                self._hand.options = []
            self._set_discard_toggles([])
            self._other.options = []
            self._choice.value = ""
            self._hand_title.value = ""
            self._card = None
            self._curtain.value = f"<div><b>{esc(self.t('tranquility.ui.pass_to', seat=actor))}</b></div>"
            self._reveal.description = self.t("tranquility.ui.reveal", seat=actor)
            self._private.children = (self._curtain, self._reveal)
            return
        hand = obs["hand"]
        self._hand_title.value = f"<b>{esc(self.t('tranquility.ui.your_hand', seat=seat, limit=obs['hand_limit']))}</b>"
        labelled = [(self._label(name), name) for name in dict.fromkeys(hand)]
        if tuple(self._hand.options) != tuple(labelled):
            with self._hand.hold_trait_notifications():
                self._hand.value = None
                self._hand.options = labelled
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
        moves = self.model.legal_moves
        self._other.options = [(ENGINE.describe_move(m, self.lang), i) for i, m in enumerate(moves)
                               if not isinstance(m, PlaceIsland)]
        children: list[widgets.Widget] = [self._hand_title, self._hand]
        phase = obs["phase"]
        if phase == "start-discard":
            low, high = ENGINE.split_bounds(self.state)
            self._choice.value = esc(self.t("tranquility.ui.split_help", left=obs["start_discard_left"], low=low, high=high))
            children += [self._choice, self._discard_label, self._discards, self._split]
        elif phase == "play":
            self._choice.value = self._choice_text()
            buttons = [self._play, self._discard_two]
            if START in self.state.hands[seat] and not self.state.start_space:
                buttons.insert(0, self._start)
            if FINISH in self.state.hands[seat]:
                buttons.append(self._finish_button)
            children += [self._choice, self._discard_label, self._discards, widgets.HBox(buttons)]
        if self._other.options:
            children.append(widgets.HBox([self._other, self._other_apply]))
        self._private.children = tuple(children)

    def _label(self, name: str) -> str:
        """A card as the hand shows it: islands by number, the others by their translated name."""
        if name.isdigit():
            return name
        return self.t(f"tranquility.ui.card.{name}")

    def _set_discard_toggles(self, names: list[str]) -> None:
        old = self._discards.children
        toggles = []
        self._toggle_cards = list(names)
        self._toggle_lang = self.lang
        for name in names:
            tb = widgets.ToggleButton(description=self._label(name), layout=widgets.Layout(width="auto"))
            tb.add_class("tranq-discard")
            tb.add_class(f"tranq-discard-{name}")
            toggles.append(tb)
        self._discards.children = tuple(toggles)
        for widget in old:
            widget.close()  # the old seat's cards leave the browser, not just the layout

    def _choice_text(self) -> str:
        if self._card is None or self._cell is None:
            return f"<small>{esc(self.t('tranquility.ui.pick_card_cell'))}</small>"
        from toolkit.tranquility.grid import placement_violation, raw_cost
        if self._card > 80:
            return ""
        broken = placement_violation(self.state.cells, self._cell, self._card)
        if broken is not None:
            return explain_html(broken, self.lang)
        cost = raw_cost(self.state.cells, self._cell, self._card)
        return esc(self.t("tranquility.ui.choice", card=self._card, cell=self._cell, cost=cost))

    # ---- for tests ----------------------------------------------------------------------------------
    def reveal(self) -> None:
        self._reveal.click()

    def choose(self, card: str | None, cell: int | None, discards: tuple[str, ...] = ()) -> None:
        """Pick a hand card, a cell and the cards to tick, as clicks would (``None`` skips a part)."""
        if card is not None:
            self._hand.value = card
        if cell is not None:
            self._cells[cell].click()
        wanted = list(discards)
        for name, b in zip(self._toggle_cards, self._discards.children):
            b.value = name in wanted
            if b.value:
                wanted.remove(name)
