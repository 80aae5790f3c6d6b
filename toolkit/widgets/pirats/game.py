"""A full game of Sewer Pirats, hot seat, with the event log (dashboard ``pirats-game``).

Hidden information: the page only ever shows ``observe(state, seat)`` for the seat to move — its own hand,
the other hands as sizes — so the other players' cards are never in the DOM or in any widget's state.
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError
from toolkit.core.i18n import translate
from toolkit.pirats.engine import ENGINE
from toolkit.pirats.model import COLOURS, SHIPS, VARIANTS
from toolkit.widgets.base import GameSession, View, esc, event_log_html, explain_html, query_params, safe_callback

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


def _tokens(tokens: list[str], lang: str) -> str:
    from toolkit.pirats.tokens import Token
    return ", ".join(Token.parse(t).text(lang) for t in tokens) or translate("pirats.ui.none", lang)


def _cards(counts: Mapping[str, int], lang: str) -> str:
    return ", ".join(f"{translate('pirats.card.' + s, lang)} ×{counts[s]}" for s in SHIPS)


class GameView(View):
    def __init__(self, seed: int | None = None, players: int | None = None, variant: str | None = None,
                 lang: str | None = None, query: str | None = None, **kwargs: Any):
        params = query_params(query)
        settings = settings_from_query(params)
        lang = lang or (params.get("lang") if params.get("lang") in ("en", "ja") else "en")
        super().__init__(lang=lang, **kwargs)
        self.add_class("pirats-game")
        options = {"players": players or settings["players"], "variant": variant or settings["variant"]}
        self.model = GameSession(ENGINE, seed=settings["seed"] if seed is None else seed, options=options)
        self._title = widgets.HTML()
        self._seed = widgets.BoundedIntText(value=self.model.session.seed, min=0, max=2**31 - 1,
                                            layout=widgets.Layout(width="14em"))
        self._seed.add_class("pirats-seed")
        self._players = widgets.Dropdown(options=[2, 3, 4, 5], value=options["players"],
                                         layout=widgets.Layout(width="10em"))
        self._players.add_class("pirats-players")
        self._variant = widgets.Dropdown(options=list(VARIANTS), value=options["variant"])
        self._variant.add_class("pirats-variant")
        self._new = widgets.Button()
        self._new.add_class("pirats-new")
        self._status = widgets.HTML()
        self._status.add_class("pirats-status")
        self._board = widgets.HTML()
        self._board.add_class("pirats-board")
        self._hand = widgets.HTML()
        self._hand.add_class("pirats-hand")
        self._moves = widgets.Dropdown(layout=widgets.Layout(width="34em"))
        self._moves.add_class("pirats-moves")
        self._apply = widgets.Button(button_style="primary")
        self._apply.add_class("pirats-apply")
        self._undo = widgets.Button()
        self._undo.add_class("pirats-undo")
        self._log = widgets.HTML()
        self._log.add_class("pirats-log")
        self._new.on_click(self._on_new)
        self._apply.on_click(self._on_apply)
        self._undo.on_click(self._on_undo)
        self._finish([self._title, widgets.HBox([self._seed, self._players, self._variant, self._new]),
                      self._status, self._board, self._hand, widgets.HBox([self._moves, self._apply, self._undo]),
                      self._log])
        self._ready = True
        self.refresh()

    # ---- callbacks ------------------------------------------------------------------------------
    @safe_callback
    def _on_new(self, _b: Any = None) -> None:
        seed, players, variant = self._seed.value, self._players.value, self._variant.value
        if players not in (2, 3, 4, 5) or variant not in VARIANTS or not isinstance(seed, int):
            raise InvalidMoveError(f"no such game: players {players!r}, variant {variant!r}, seed {seed!r}")
        self.model.new_game(seed, {"players": players, "variant": variant})
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_apply(self, _b: Any = None) -> None:
        index = self._moves.value
        moves = self.model.legal_moves
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(moves):
            raise InvalidMoveError(f"no legal move number {index!r}")
        self.play(moves[index])

    def play(self, move: Any) -> bool:
        """Play a move (object or text) as the seat to move; a refusal is shown, never raised."""
        applied = self.play_on(self.model, move)
        self.refresh()
        return applied

    @safe_callback
    def _on_undo(self, _b: Any = None) -> None:
        self.model.undo()
        self.clear_report()
        self.refresh()

    # ---- rendering ------------------------------------------------------------------------------
    def seat(self) -> int | None:
        return ENGINE.current_player(self.model.state)

    def refresh(self) -> None:
        if not getattr(self, "_ready", False):  # the base class sets lang before the children exist
            return
        lang, m = self.lang, self.model
        m.lang = lang
        state = m.state
        seat = ENGINE.current_player(state)
        obs = ENGINE.observe(state, seat)   # the only view of the game this page ever renders
        self._title.value = f"<h3>{esc(self.t('pirats.ui.game_title'))}</h3>"
        self._seed.description = self.t("ui.seed")
        self._players.description = self.t("pirats.ui.players")
        self._variant.description = self.t("pirats.ui.variant")
        self._variant.options = [(self.t(f"pirats.ui.variant.{v}"), v) for v in VARIANTS]
        self._new.description = self.t("ui.new_game")
        self._apply.description = self.t("ui.apply")
        self._undo.description = self.t("ui.undo")
        if m.outcome is not None:
            self._status.value = f"<b>{esc(self.t('ui.outcome'))}:</b> {explain_html(m.outcome, lang)}"
        else:
            colour = translate(f"pirats.colour.{COLOURS[seat]}", lang)
            self._status.value = f"<b>{esc(self.t('pirats.ui.status', seat=seat, colour=colour))}</b>"
        self._board.value = self._board_html(obs)
        self._hand.value = ("" if seat is None else
                            f"<p>{esc(self.t('pirats.ui.hand', seat=seat, cards=_cards(obs['hand'], lang)))}</p>")
        self._moves.options = [(ENGINE.describe_move(mv, lang), i) for i, mv in enumerate(m.legal_moves)]
        self._moves.value = 0 if m.legal_moves else None
        setup = list(ENGINE.setup_events(m.session.initial)) if len(m.session) < LOG_EVENTS else []
        self._log.value = event_log_html((setup + m.session.events)[-LOG_EVENTS:], lang)

    def _board_html(self, obs: Mapping[str, Any]) -> str:
        lang = self.lang
        rows = []
        for name in SHIPS:
            ship = obs["ships"][name]
            cells = []
            for idx, p in enumerate(ship["spaces"]):
                label = self.t("pirats.ui.captain_space") if idx == 3 else self.t("pirats.ui.space", number=idx + 1)
                who = "—" if p is None else (f"{p['seat']} {translate('pirats.species.' + p['species'], lang)}")
                cells.append(f"<td class='pirats-space' style='border:1px solid #888;padding:3px 8px'>"
                             f"{esc(label)}<br><b>{esc(who)}</b></td>")
            groups = " | ".join(_tokens(g["loot"] + ([g["bonus"]] if g["bonus"] else []), lang) for g in ship["flotsam"])
            rows.append(f"<tr><th>{esc(translate('pirats.ship.' + name, lang))}</th>{''.join(cells)}"
                        f"<td style='padding-left:1em'>{esc(self.t('pirats.ui.flotsam'))}: {esc(groups)}</td></tr>")
        lines = [f"<table class='pirats-ships'>{''.join(rows)}</table>"]
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
