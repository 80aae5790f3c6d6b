"""The Crew table's post-mortem panel: where the attempt was lost, card by card, and the winning line replayed.

One job: after an attempt, review it double-dummy (:func:`toolkit.crew.post_mortem`, the other allocations
the mission allows, the close calls) and show it, with the alternative replayed card by card on a small
table. The panel draws into its own widgets (``button``, ``text``, ``replay_box``); its host table gives it
the words and names (``host.t``, ``host.lang``, ``host.seat_name``, ``host.short_name``,
``host.viewing_seat()``) and the game (``host.model``), so a table frame can host it as it is.
:func:`review_inputs` is the pure part: what the review needs, from a session.
"""

from __future__ import annotations

from typing import Any, Mapping

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.crew.cards import Card, Trick
from toolkit.crew.engine import ENGINE
from toolkit.widgets.base import esc, kernel_loop
from toolkit.widgets.components.crew import TrickTable
from toolkit.widgets.crew.common import chip

#: the post-mortem reviews the other allocations the mission allows only up to this many (one solver call
#: each: 64 — three tasks freely allocated at four seats — took 2.4 s on this 2-core machine; four would
#: be 256)
MAX_REVIEWED_ALLOCATIONS = 64


def review_inputs(session: Any) -> dict[str, Any] | None:
    """What :func:`toolkit.crew.post_mortem` needs for the attempt of ``session`` (a :class:`toolkit.core.session.Session`), or None if it has
    nothing to judge (tasks not all allocated). A mission whose own rule replaces the task cards (8, 12,
    21, 23, 27) is reviewed against that rule (``mission`` in the inputs)."""
    from toolkit.crew.missions import CONDITIONS

    state = session.state
    condition = not state.tasks and state.mission in CONDITIONS
    if not condition and (not state.tasks or any(o is None for o in state.owners)):
        return None
    start = None
    for position in range(len(session) + 1):
        s = session.at(position)
        if s.attempt == state.attempt and s.phase == "play" and not s.tricks and not s.trick:
            start = s
            break
    if start is None:
        return None
    tasks: dict[int, list] = {}
    for i, task in enumerate(state.tasks):
        pred = state.predictions[i]
        tasks.setdefault(state.owners[i], []).append((task, pred) if isinstance(pred, int) else task)
    tricks = [Trick(t.leader, t.cards) for t in state.tricks]
    if state.trick:
        tricks.append((state.leader, tuple(state.trick)))
    hands = [list(start.hand(s)) for s in range(state.seats)]
    if state.tonoja is not None:
        hands[state.tonoja] = [c for col in start.columns for c in (col.face_down, col.face_up) if c is not None]
    inputs = {"hands": hands, "tasks": tasks, "tricks": tricks, "leader": start.leader, "captain": state.captain}
    if state.tonoja is not None:
        # the columns as dealt: the review never plays a face-down card before it is turned up
        inputs["columns"] = [(col.face_down, col.face_up) for col in start.columns]
    if condition:
        inputs["mission"] = state.mission
    return inputs


class PostMortemPanel:
    """The post-mortem of the attempt on ``host``'s table: a button, the review, the replay of the winning
    line. ``on_show`` is called when the button is clicked (the host may do more than :meth:`show`)."""

    def __init__(self, host: Any):
        self.host = host
        self.button = widgets.Button(button_style="info", layout=widgets.Layout(width="auto"))
        self.button.add_class("crew-post-mortem-button")
        self.button.on_click(lambda _b: self.host._on_review())
        self.text = widgets.HTML()
        self.text.add_class("crew-post-mortem")
        self.replay_back = widgets.Button(layout=widgets.Layout(width="auto"))
        self.replay_back.add_class("crew-replay-back")
        self.replay_back.on_click(lambda _b: self.step(-1))
        self.replay_next = widgets.Button(layout=widgets.Layout(width="auto"))
        self.replay_next.add_class("crew-replay-next")
        self.replay_next.on_click(lambda _b: self.step(+1))
        self.replay_table = TrickTable()
        self.replay_table.add_class("crew-replay-table")
        self.replay_box = widgets.VBox([self.replay_table, widgets.HBox([self.replay_back, self.replay_next])])
        self.replay_box.layout.display = "none"
        self.data: Any = None           # (review, inputs, allocations) of the reviewed attempt
        self.close_calls: Any = None    # toolkit.crew.close_calls of the reviewed attempt
        self.allocations_skipped = 0
        self.focus_requests = 0          # how often the review asked to be scrolled into view
        self.replay_cards: list[tuple[int, Card, bool]] = []
        self.replay_pos = 0
        self._alternative: Any = None

    @property
    def parts(self) -> list[widgets.Widget]:
        """What the host lays out: the button row, the review text, the replay."""
        return [widgets.HBox([self.button], layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
                self.text, self.replay_box]

    def label(self, over: bool, won: bool) -> None:
        """The button: shown once the attempt is over; a won attempt has nothing lost to find."""
        self.button.description = self.host.t("crew.ui.pm_button_won" if won else "crew.ui.pm_button")
        self.button.layout.display = "flex" if over else "none"

    def close(self) -> None:
        self.data = None
        self.close_calls = None
        self.text.value = ""
        self.replay_cards = []
        self.replay_box.layout.display = "none"

    def show(self) -> None:
        """Review the attempt double-dummy and show where it was lost (the attempt must be over)."""
        tr = self.host.t
        try:
            from toolkit.crew import post_mortem
        except ImportError:
            self.text.value = f"<p class='crew-pm-missing'>{esc(tr('crew.ui.pm_missing'))}</p>"
            return
        if not ENGINE.play_out_over(self.host.model.state):
            self.text.value = f"<p class='crew-pm-wait'>{esc(tr('crew.ui.pm_wait'))}</p>"
            return
        inputs = review_inputs(self.host.model.session)
        if inputs is None:
            self.text.value = f"<p class='crew-pm-none'>{esc(tr('crew.ui.pm_no_tasks'))}</p>"
            return
        review = post_mortem(**inputs, node_limit=200_000)
        allocations = None
        state = self.host.model.state
        mission = state.mission if state.mission >= 1 else None
        self.allocations_skipped = 0
        try:
            from toolkit.crew import allocation_review
            from toolkit.crew.coach import mission_allocations
            if "mission" in inputs:   # no task cards (the mission's rule replaces them): nothing to allocate
                raise RuleError(f"mission {mission} has no task cards to allocate")
            if mission is not None:
                ids = sorted(t for items in inputs["tasks"].values()
                             for t in (i[0] if isinstance(i, tuple) else i for i in items))
                allowed = len(mission_allocations(ids, state.players, inputs["captain"], mission))
                if allowed > MAX_REVIEWED_ALLOCATIONS:
                    self.allocations_skipped = allowed
                    raise RuleError(f"{allowed} allocations: too many to review in one click")
            allocations = allocation_review(inputs["hands"], inputs["tasks"], leader=inputs["leader"],
                                            captain=inputs["captain"], node_limit=100_000,
                                            max_allocations=MAX_REVIEWED_ALLOCATIONS, mission=mission,
                                            players=state.players, columns=inputs.get("columns"))
        except (ImportError, RuleError):   # too many allocations to review in a click: say only the verdict
            allocations = None
        try:
            from toolkit.crew import close_calls   # ~60 ms on a won 10-trick mission (benchmarks/crew_post_mortem.py)
            calls = close_calls(**inputs, node_limit=200_000)
        except (ImportError, RuleError):
            calls = None
        self.data = (review, inputs, allocations)
        self._revision = self.host.model.revision
        self.close_calls = calls
        self.render()
        self.bring_into_view()

    def bring_into_view(self) -> None:
        """The review opens below the hand, under the fold at 1200x900: focusing its button (just above
        the review) makes the browser scroll the review into view. A page still being drawn (a reopened
        link: the review opens while the view is built) ignores a message sent before its button exists,
        so in a kernel the request is sent again 2 and 5 seconds later, if nothing else changed since."""
        self.focus_requests += 1
        self.button.focus()
        loop = kernel_loop()
        if loop is not None:
            asked = self.focus_requests
            for delay in (2.0, 5.0):
                loop.call_later(delay, self._focus_again, asked)

    def _focus_again(self, asked: int) -> None:
        if self.focus_requests == asked and self.data is not None and self.host.model.revision == self._revision:
            self.button.focus()

    def render(self) -> None:
        if self.data is None:
            return
        tr = self.host.t
        review, inputs, allocations = self.data
        seats = len(inputs["hands"])
        names = {s: self.host.seat_name(s) for s in range(seats)}
        parts = [f"<h4>{esc(tr('crew.ui.pm_title'))}</h4>",
                 f"<p class='crew-pm-verdict'>{esc(review.explain(self.host.lang))}</p>"]
        if allocations is None and self.allocations_skipped:
            parts.append(f"<p class='crew-pm-allocations-skipped'>"
                         f"{esc(tr('crew.ui.pm_allocations_skipped', n=self.allocations_skipped))}</p>")
        if allocations is not None:
            good = allocations.winnable
            listed = "; ".join(", ".join(f"#{t}→{self.host.short_name(seat)}" for seat, ts in sorted(a.items()) for t in ts)
                               for a in good[:6])
            more = f" …(+{len(good) - 6})" if len(good) > 6 else ""
            parts.append(f"<p class='crew-pm-allocations' data-winnable='{len(good)}' "
                         f"data-total='{len(allocations.allocations)}' data-rules='{esc(' '.join(allocations.rules))}'>"
                         f"{esc(allocations.explain(self.host.lang))}"
                         + (f" {esc(tr('crew.ui.pm_allocations'))} {esc(listed)}{esc(more)}" if good else "") + "</p>")
        calls = self.close_calls
        only = {(c.trick, c.index): c for c in calls.only_cards} if calls is not None else {}
        if calls is not None and review.winnable_at_start:
            parts.append(f"<p class='crew-pm-close-calls' data-choices='{len(calls.choices)}' "
                         f"data-only='{len(only)}'>{esc(calls.explain(self.host.lang))}</p>")
        parts.append(self._verdicts_html(review, names, only))
        rows = []
        for s in range(seats):
            rows.append(f"<tr><th scope='row'>{esc(names[s])}</th><td>"
                        + "".join(chip(c, self.host.lang) for c in inputs["hands"][s]) + "</td></tr>")
        parts.append(f"<details><summary>{esc(tr('crew.ui.pm_hands'))}</summary><table>{''.join(rows)}</table></details>")
        self.replay_cards = []
        if review.lost_after is not None:
            t, k = review.lost_after
            seat, card = review.lost_card
            parts.append(f"<p class='crew-pm-lost' data-trick='{t}' data-card='{card}' data-seat='{seat}'>"
                         f"{esc(tr('crew.ui.pm_lost', trick=t + 1, name=names[seat]))} {chip(card, self.host.lang)}"
                         f" → {esc(tr('crew.ui.pm_instead'))} {chip(review.instead, self.host.lang)}</p>")
            for i, trick in enumerate(review.alternative):
                for j, c in enumerate(trick.cards):
                    changed = i == 0 and j == k
                    self.replay_cards.append((i, c, changed))
            self._alternative = review.alternative
            self.replay_pos = min(k + 1, len(self.replay_cards))
            self.replay_box.layout.display = "flex"
            self._render_replay()
        else:
            self.replay_box.layout.display = "none"
        self.text.value = "".join(parts)

    def _verdicts_html(self, review: Any, names: Mapping[int, str], only: Mapping[tuple[int, int], Any] = {}) -> str:
        """Every card played, trick by trick, with the verdict after it: ✓ still winnable, ✗ lost, ? undecided;
        the fatal card outlined; a close call (``only``: the only legal card that kept the mission winnable,
        :func:`toolkit.crew.close_calls`) marked ! and underlined."""
        tr = self.host.t
        marks = {True: ("✓", "crew.ui.pm_card_winnable", "1"), False: ("✗", "crew.ui.pm_card_lost", "0"),
                 None: ("?", "crew.ui.pm_card_undecided", "")}
        rows, n = [], 0
        for t, (leader, cards) in enumerate(review.tricks):
            cells = []
            for k, card in enumerate(cards):
                verdict = review.verdicts[n] if n < len(review.verdicts) else None
                n += 1
                sign, key, data = marks[verdict]
                fatal = review.lost_after == (t, k)
                seat = review.seat_of(t, k)
                label = tr("crew.ui.pm_card_title", card=card.text(self.host.lang), name=names.get(seat, seat),
                           verdict=tr(key))
                call = only.get((t, k))
                close = ""
                if call is not None:
                    note = tr("crew.ui.pm_card_only", legal=len(call.legal),
                              others=[c.text(self.host.lang) for c in call.legal if c != call.card])
                    label = f"{label} ({note})"
                    close = f"<span class='crew-pm-only-mark' role='img' aria-label='{esc(note)}'>!</span>"
                classes = "crew-pm-card" + (" crew-pm-fatal" if fatal else "") + (" crew-pm-only" if call else "")
                cells.append(f"<span class='{classes}' data-verdict='{data}' "
                             f"data-card='{card}' data-seat='{seat}' title='{esc(label)}'>{chip(card, self.host.lang)}"
                             f"<span class='crew-pm-mark' role='img' aria-label='{esc(tr(key))}'>{sign}</span>{close}"
                             f"<small class='crew-pm-seat'>{esc(self.host.short_name(seat))}</small></span>")
            winner = (tr("crew.ui.pm_won_by", name=names.get(Trick(leader, cards).winner, "?"))
                      if len(cards) == review.seats else tr("crew.ui.pm_unfinished"))
            rows.append(f"<tr><th scope='row'>{esc(tr('crew.ui.pm_trick', trick=t + 1))}</th><td>{''.join(cells)}</td>"
                        f"<td class='crew-pm-winner'>{esc(winner)}</td></tr>")
        legend = esc(tr("crew.ui.pm_cards_legend"))
        return (f"<div class='crew-pm-cards'><p><b>{esc(tr('crew.ui.pm_cards_title'))}</b> {legend}</p>"
                f"<table>{''.join(rows)}</table></div>")

    def _first_of(self, trick_index: int) -> int:
        """Index in the replay of the first card of the alternative's trick ``trick_index``."""
        return next(n for n, (i, _c, _a) in enumerate(self.replay_cards) if i == trick_index)

    def step(self, delta: int) -> None:
        self.replay_pos = min(max(self.replay_pos + delta, 0), len(self.replay_cards))
        self._render_replay()

    def _render_replay(self) -> None:
        """The winning alternative on the table, up to ``_replay_pos`` cards."""
        if not self.replay_cards or self.data is None:
            return
        review, inputs, _allocations = self.data
        seats = len(inputs["hands"])
        shown = self.replay_cards[:self.replay_pos]
        trick_index = shown[-1][0] if shown else 0
        trick = self._alternative[trick_index]
        cards = [c for i, c, _ in shown if i == trick_index]
        complete = len(cards) == seats
        previous = None
        if trick_index > 0:
            p = self._alternative[trick_index - 1]
            previous = (p.leader, p.cards, p.winner)
        t0 = review.lost_after[0] if review.lost_after else 0
        caption = self.host.t("crew.ui.pm_replay_caption", trick=t0 + trick_index + 1, n=self.replay_pos,
                         total=len(self.replay_cards))
        self.replay_table.lang = self.host.lang
        changed = [(trick.leader + j) % seats for i, _c, alt in shown for j in [self.replay_cards.index((i, _c, alt))
                                                                                   - self._first_of(i)] if alt]
        self.replay_table.show(seats, trick.leader, cards, winner=trick.winner if complete else None,
                                previous=previous, names={s: self.host.short_name(s) for s in range(seats)},
                                bottom=self.host.viewing_seat() or 0, caption=caption,
                                marked=changed if trick_index == 0 else (), heading_key="crew.ui.pm_replay_heading")
        self.replay_back.description = self.host.t("crew.ui.pm_back")
        self.replay_next.description = self.host.t("crew.ui.pm_next")
        self.replay_back.disabled = self.replay_pos == 0
        self.replay_next.disabled = self.replay_pos >= len(self.replay_cards)
