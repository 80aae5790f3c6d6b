"""The pink-9 trick (``crew-pink-nine-trick``): the rule text's example step by step, then "try a trick".

Step through the example by clicking the card that is played next in its seat's hand (captain P9, P7, Y2
from a player without pink, P8: the captain wins; then the captain leads submarine 4 and completes "win
the first two tricks"). Then try any trick: click cards in the 40-card picker to play them in order, click
cards into a hand, and click a card of that hand to hear whether it may follow and why. Typed codes stay
accepted (the text boxes), and ``?plays=G3-Y9-G4&hand=P8-Y2-S1-B5`` opens that trick. Every answer comes
from the engine.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.crew.cards import Card, cards, legal_plays, suit_term, trick_winner, why_illegal_play
from toolkit.crew.engine import ENGINE, TakeTask
from toolkit.widgets.base import View, esc, event_log_html, explain_html, query_params, safe_callback
from toolkit.widgets.components.crew import CardPicker, CrewHand, TaskTokens, TrickTable
from toolkit.widgets.crew.common import cards_param, chip, chips, lang_param, share_link

from toolkit.crew.examples import PINK_NINE_MOVES as EXAMPLE_MOVES, pink_nine


def example_states() -> list[tuple[Any, tuple]]:
    """The example as (state, events) after each move, from the engine."""
    state = pink_nine()
    out = [(state, ())]
    for m in EXAMPLE_MOVES:
        state, events = ENGINE.transition(state, m)
        out.append((state, events))
    return out


def winner_reason(plays: list[Card]) -> tuple[int, str, dict]:
    """(index of the winner, message key, parameters) explaining why that card wins."""
    i = trick_winner(plays)
    w = plays[i]
    if w.is_submarine:
        return i, "crew.ui.wins_submarine", {"card": w}
    off = [c for c in plays if c.suit != plays[0].suit and not c.is_submarine]
    return i, "crew.ui.wins_led", {"card": w, "colour": suit_term(plays[0].suit),
                                   "off": off or "-"}


class PinkNineTrickView(View):
    """The rule text's pink-9 example on a table (click the next card to play it), then "try a trick"."""

    def __init__(self, lang: str = "en", query: str | None = None, **kwargs: Any):
        params = query_params(query)
        super().__init__(lang=lang_param(params, lang), **kwargs)
        self.add_class("crew-pink-nine")
        self._steps = example_states()
        self._step = 0
        self._title = widgets.HTML()
        self._table = TrickTable()
        self._table.add_class("crew-example-trick")
        self._task = TaskTokens()
        self._task.add_class("crew-example-tokens")
        self._task.on_pick(self._on_example_task)
        self._hands = [CrewHand(title_key="crew.comp.seat", title_params={"seat": s}) for s in range(4)]
        for seat, hand in enumerate(self._hands):
            hand.add_class("crew-example-hand")
            hand.add_class(f"crew-example-hand-{seat}")
            hand.on_pick(self._on_example_card)
        self._example = widgets.HTML()
        self._example.add_class("crew-example-table")
        self._hint = widgets.HTML()
        self._hint.add_class("crew-example-hint")
        self._next = widgets.Button()
        self._next.add_class("crew-example-next")
        self._next.on_click(self._on_next)
        self._reset = widgets.Button()
        self._reset.add_class("crew-example-reset")
        self._reset.on_click(self._on_reset)
        self._try_title = widgets.HTML()
        self._plays_picker = CardPicker(limit=5, title_key="crew.ui.plays_label")
        self._plays_picker.add_class("crew-try-plays-picker")
        self._plays_picker.on_change(self._on_plays_picked)
        self._hand_picker = CardPicker(limit=14, title_key="crew.ui.hand_pick_label", ordered=False)
        self._hand_picker.add_class("crew-try-hand-picker")
        self._hand_picker.on_change(self._on_hand_picked)
        self._try_table = TrickTable()
        self._try_table.add_class("crew-try-trick")
        self._try_hand = CrewHand(title_key="crew.ui.try_hand_title")
        self._try_hand.add_class("crew-try-hand-cards")
        self._try_hand.on_pick(self._on_try_card)
        self._try_hand.on_refuse(self._on_try_refused)
        self._plays = widgets.Text(value=cards_param(params, "plays", "G3 Y9 G4"), layout=widgets.Layout(width="16em"))
        self._plays.add_class("crew-try-plays")
        self._hand = widgets.Text(value=cards_param(params, "hand", "P8 Y2 S1 B5"), layout=widgets.Layout(width="16em"))
        self._hand.add_class("crew-try-hand")
        self._check = widgets.Button()
        self._check.add_class("crew-try-check")
        self._check.on_click(self._on_check)
        self._plays_label, self._hand_label = widgets.HTML(), widgets.HTML()
        self._typed = widgets.HTML()
        self._result = widgets.HTML()
        self._result.add_class("crew-try-result")
        self._card_reason = widgets.HTML()
        self._card_reason.add_class("crew-try-card-reason")
        self._link = widgets.HTML()
        self._link.add_class("crew-share-link")
        wrap = widgets.Layout(flex_flow="row wrap", align_items="flex-start")
        self._finish([self._title, self._hint,
                      widgets.HBox([self._table, widgets.VBox(self._hands[:2]), widgets.VBox(self._hands[2:])],
                                   layout=wrap),
                      self._task, widgets.HBox([self._next, self._reset]), self._example,
                      self._try_title,
                      widgets.HBox([self._plays_picker, self._hand_picker], layout=wrap),
                      widgets.HBox([self._try_table, widgets.VBox([self._try_hand, self._card_reason, self._result])],
                                   layout=wrap),
                      self._typed,
                      widgets.HBox([self._plays_label, self._plays, self._hand_label, self._hand, self._check],
                                   layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
                      self._link])
        self.refresh()

    # ---- the example -------------------------------------------------------------------------------
    def next_move(self) -> Any:
        """The example's next move (None at the end)."""
        return ENGINE.parse_move(EXAMPLE_MOVES[self._step]) if self._step < len(EXAMPLE_MOVES) else None

    @safe_callback
    def _on_next(self, _b: Any = None) -> None:
        self._step = min(self._step + 1, len(self._steps) - 1)
        self.refresh()

    @safe_callback
    def _on_reset(self, _b: Any = None) -> None:
        self._step = 0
        self.refresh()

    @safe_callback
    def _on_example_card(self, card: Card) -> None:
        # only the example's next card is playable in its hand (the component refuses the others)
        self._on_next()

    @safe_callback
    def _on_example_task(self, task: int) -> None:
        self._on_next()  # the component offers only the task the example takes next

    # ---- try a trick (typed or clicked; the text boxes and the pickers stay in step) -------------
    @safe_callback
    def _on_check(self, _b: Any = None) -> None:
        self.clear_report()
        self._render_try()

    @safe_callback
    def _on_plays_picked(self, value: tuple) -> None:
        self._plays.value = " ".join(map(str, value))
        self.clear_report()
        self._render_try()

    @safe_callback
    def _on_hand_picked(self, value: tuple) -> None:
        self._hand.value = " ".join(map(str, value))
        self.clear_report()
        self._render_try()

    @safe_callback
    def _on_try_card(self, card: Card) -> None:
        plays = self._typed_cards(self._plays, report=False)
        led = plays[0] if plays else None
        self._card_reason.value = (f"<p class='crew-try-card-ok' data-card='{card}'>{chip(card, self.lang)} "
                                   f"{esc(self.t('crew.ui.may_play', led=led.text(self.lang) if led else '—'))}"
                                   f" <code class='deepsea-rule'>crew.trick.follow</code></p>")

    def _on_try_refused(self, text: str) -> None:
        self._card_reason.value = ""

    def _why_not(self, card: Card, lang: str) -> str:
        plays = self._typed_cards(self._plays, report=False)
        v = why_illegal_play(self._typed_cards(self._hand, report=False), card, plays[0] if plays else None)
        return v.text(lang) + f" [{v.rule}]" if v is not None else ""

    def _typed_cards(self, box: widgets.Text, report: bool = True) -> list[Card]:
        try:
            return list(cards(str(box.value)[:200]))
        except RuleError as exc:
            if report:
                self.report(exc, error=True)
            return []

    def _render_example(self) -> None:
        tr = self.t
        state, events = self._steps[self._step]
        nxt = self.next_move()
        acting = ENGINE.current_player(state)
        next_card = getattr(nxt, "card", None) if nxt is not None else None
        for seat, hand in enumerate(self._hands):
            name = tr("crew.ui.seat_n", seat=seat) + (" ⚓" if seat == state.captain else "")
            hand.set_title("crew.ui.example_hand", name=name)
            mine = next_card is not None and seat == acting
            hand.set_cards(state.hands[seat], playable=[next_card] if mine else [],
                           marks={next_card: "next"} if mine else None,
                           unplayable_reason=self._example_refusal)
            hand.lang = self.lang
        if state.trick:
            leader, shown, winner = state.leader, state.trick, None
        elif state.tricks:
            last = state.tricks[-1]
            leader, shown, winner = last.leader, last.cards, last.winner
        else:
            leader, shown, winner = state.leader, (), None
        previous = None
        if state.trick and state.tricks:
            last = state.tricks[-1]
            previous = (last.leader, last.cards, last.winner)
        elif not state.trick and len(state.tricks) > 1:
            last = state.tricks[-2]
            previous = (last.leader, last.cards, last.winner)
        names = {s: tr("crew.ui.seat_n", seat=s) + (" ⚓" if s == state.captain else "") for s in range(4)}
        self._table.lang = self.lang
        self._table.show(4, leader, shown, winner=winner, previous=previous, names=names, bottom=0,
                         acting=acting if nxt is not None else None)
        obs = ENGINE.observe(state, 0)
        self._task.lang = self.lang
        take = [nxt.task] if isinstance(nxt, TakeTask) else []
        self._task.show(obs["tasks"], 4, names=names, selectable=take)
        lines = event_log_html(events, self.lang, title=False) if events else f"<p>{esc(tr('crew.ui.example_start'))}</p>"
        status = tr("crew.status." + state.statuses[0]) if state.statuses else ""
        hint = tr("crew.ui.example_over")
        if next_card is not None:
            hint = tr("crew.ui.click_next", seat=acting, card=Card.parse(next_card).text(self.lang))
        elif isinstance(nxt, TakeTask):
            hint = tr("crew.ui.click_take", task=nxt.task)
        self._hint.value = f"<p role='status'><b>{esc(hint)}</b></p>"
        self._example.value = (
            f"<div data-step='{self._step}'>"
            f"<p class='crew-example-task'>{esc(tr('crew.ui.task_78'))}: <b>{esc(status)}</b></p>{lines}</div>")
        self._next.disabled = self._step == len(self._steps) - 1

    def _example_refusal(self, card: Card, lang: str) -> str:
        nxt = self.next_move()
        if nxt is None:
            return self.t("crew.ui.example_over")
        return self.t("crew.ui.example_not_next", card=card.text(lang))

    def _render_try(self) -> None:
        tr = self.t
        out = []
        plays = self._typed_cards(self._plays)[:5]
        hand = [c for c in self._typed_cards(self._hand)[:14] if c not in plays]
        self._plays_picker.lang = self._hand_picker.lang = self._try_hand.lang = self._try_table.lang = self.lang
        self._plays_picker.set_unavailable(hand)
        self._plays_picker.set_value(plays)
        self._hand_picker.set_unavailable(plays)
        self._hand_picker.set_value(hand)
        winner = None
        if plays:
            try:
                i, key, params = winner_reason(plays)
                winner = i
                out.append(f"<p class='crew-try-winner' data-winner='{i}'>{chips(plays, self.lang)} → "
                           f"{esc(tr(key, **params))} <code class='deepsea-rule'>crew.trick.winner</code></p>")
            except RuleError as exc:
                self.report(exc, error=True)
        seats = max(len(plays) + (1 if hand and len(plays) < 5 else 0), 3)
        names = {s: tr("crew.ui.seat_n", seat=s) for s in range(seats)}
        if hand and len(plays) < seats:
            names[len(plays)] = tr("crew.ui.the_hand")
        self._try_table.show(seats, 0, plays, winner=winner, names=names, bottom=len(plays) % seats if hand else 0,
                             acting=len(plays) if hand and len(plays) < seats else None)
        led = plays[0] if plays else None
        legal = legal_plays(hand, led) if hand else []
        self._try_hand.set_cards(hand, playable=legal, unplayable_reason=self._why_not)
        self._try_hand.set_title("crew.ui.try_hand_title")
        out.append(f"<p class='crew-try-legal'>{esc(tr('crew.ui.legal_after', led=led.text(self.lang) if led else '—'))}"
                   f" {chips(legal, self.lang)}</p>")
        for c in hand:
            v = why_illegal_play(hand, c, led)
            if v is not None:
                out.append(f"<p class='crew-try-illegal'>{chip(c, self.lang)} {explain_html(v, self.lang)}</p>")
        self._result.value = "".join(out)
        self._card_reason.value = ""
        self._link.value = share_link({"plays": plays, "hand": hand, "lang": self.lang}, tr("crew.ui.share"))

    def refresh(self) -> None:
        if not hasattr(self, "_link"):
            return
        tr = self.t
        self._title.value = f"<h3>{esc(tr('crew.ui.pink_nine_title'))}</h3><p>{esc(tr('crew.ui.pink_nine_intro'))}</p>"
        self._next.description = tr("crew.ui.next_step")
        self._reset.description = tr("crew.ui.reset")
        self._try_title.value = (f"<h4>{esc(tr('crew.ui.try_title'))}</h4>"
                                 f"<p>{esc(tr('crew.ui.try_intro'))}</p>")
        self._typed.value = f"<p class='crew-typed-note'>{esc(tr('crew.ui.typed_note'))}</p>"
        self._plays_label.value = esc(tr("crew.ui.plays_label"))
        self._hand_label.value = esc(tr("crew.ui.hand_label"))
        self._check.description = tr("crew.ui.check")
        self._render_example()
        self._render_try()
