"""The Crew components: a card, a hand, a card picker, a trick on a table, tasks as tokens by their owners.

Each is an ``anywidget.AnyWidget`` (one ESM module, ``crew.js``, and one stylesheet, ``crew.css``; see
docs/architecture.md for why anywidget here and not ipywidgets buttons). The kernel is the only author of
a component's state: the page draws it and sends back one kind of message, ``{"type": "pick", ...}``
(a card or a task was clicked, or activated with Enter/Space: every clickable thing is a ``<button>``).

Untrusted input. A visitor can send any comm message to any widget, so:

* :meth:`CrewComponent.set_state` ignores every state update from the page (the page never needs to
  write a trait; a forged update changes nothing in the kernel);
* a ``pick`` message is checked against what the kernel itself gave the component (its private copy):
  a card that is not in the hand, not playable, or not a card at all is refused — the refusal is shown in
  the component (``refusal``) and passed to ``on_refuse`` callbacks — and never raises.

Hidden information: a component holds exactly the cards a view hands it. The views fill a hand from
``ENGINE.observe(state, seat)`` of a seat shown on this page, never from the state.

>>> hand = CrewHand(["P9", "Y2", "S1"], playable=["P9"])
>>> picked = []
>>> hand.on_pick(picked.append)
>>> hand.receive({"type": "pick", "card": "P9"}); [str(c) for c in picked]
['P9']
>>> hand.receive({"type": "pick", "card": "B5"}); hand.refusal
'blue 5 is not in this hand.'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from traitlets import Bool, Dict, List, Unicode

from toolkit.core import i18n
from toolkit.core.errors import RuleError
from toolkit.widgets.components.base import PickComponent, component_css, component_source
from toolkit.crew.cards import SUITS, Card, suit_term

HERE = Path(__file__).parent

#: Card faces: background, text colour and a per-colour symbol (SVG path in a 24×24 box), so that a
#: colour-blind learner tells blue (diamond) from green (triangle) and yellow (disc) from pink (star);
#: submarines are dark with a dashed yellow rim and a submarine. Contrast is pinned by a test.
CARD_STYLE: dict[str, dict[str, str]] = {
    "B": {"bg": "#1f5fbf", "fg": "#ffffff", "edge": "#0d2d5e", "symbol": "M12 1.5 L22.5 12 L12 22.5 L1.5 12 Z"},
    "G": {"bg": "#1d6e38", "fg": "#ffffff", "edge": "#0b3319", "symbol": "M12 2.5 L22.5 21 L1.5 21 Z"},
    "Y": {"bg": "#f5c800", "fg": "#1a1a1a", "edge": "#6b5700",
          "symbol": "M12 2.5a9.5 9.5 0 1 1-0.01 0Z"},
    "P": {"bg": "#b3176f", "fg": "#ffffff", "edge": "#4f0a31",
          "symbol": "M12 1.5l3.1 6.6 7.2.9-5.3 5 1.4 7.1L12 17.6l-6.4 3.5 1.4-7.1-5.3-5 7.2-.9z"},
    "S": {"bg": "#202a36", "fg": "#ffd84a", "edge": "#202a36",
          "symbol": "M2 14.5c0-2.6 3.2-4.5 8.5-4.5h1.2l1-3.5h3.6l1 3.5c3.3.5 4.7 2.3 4.7 4.5 "
                    "0 2.2-2.2 3.5-5.5 3.5H7.5C4 18 2 16.8 2 14.5Z M19.5 6.5h2v4"},
}

_ESM = component_source("crew").replace(
    "__STYLE__", json.dumps({"suits": {s: {"symbol": v["symbol"]} for s, v in CARD_STYLE.items()}}))
_CSS = component_css("crew")

MAX_CARDS = 40
#: what a highlighted card means, for screen readers
MARK_KEYS = {"next": "crew.comp.mark_next", "hint": "crew.comp.mark_hint", "alt": "crew.comp.mark_alt"}
MAX_TASKS = 60


def _tr(key: str, lang: str, **params: Any) -> str:
    return i18n.translate(key, lang, params)


def card_label(card: Card, lang: str) -> str:
    """What a screen reader says for a card: ``"pink 9"`` / ``"ピンク9"``."""
    return card.text(lang)


def parse_card(value: Any) -> Card | None:
    """A card from untrusted input (a string of at most 16 characters), else None."""
    if isinstance(value, Card):
        return value
    if not isinstance(value, str) or len(value) > 16:
        return None
    try:
        return Card.parse(value)
    except (RuleError, TypeError, ValueError):
        return None


class CrewComponent(PickComponent):
    """Base of the Crew components (:class:`~toolkit.widgets.components.base.PickComponent` with this game's
    module and stylesheet)."""

    _esm = Unicode(_ESM).tag(sync=True)
    _css = Unicode(_CSS).tag(sync=True)


class CrewCard(CrewComponent):
    """One card face; clickable if ``clickable`` (a pick sends the card itself)."""

    _kind = Unicode("card").tag(sync=True)
    item = Dict().tag(sync=True)
    clickable = Bool(False).tag(sync=True)
    selected = Bool(False).tag(sync=True)

    def __init__(self, card: "Card | str", clickable: bool = False, lang: str = "en", **kwargs: Any):
        self._card = Card.parse(card)
        super().__init__(lang=lang, **kwargs)
        self.clickable = bool(clickable)
        self._render()

    @property
    def card(self) -> Card:
        return self._card

    def _render(self) -> None:
        if not hasattr(self, "_card"):
            return
        self.item = {"card": str(self._card), "label": card_label(self._card, self.lang)}

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        if not self.clickable:
            return None, self._text("not_clickable")
        if parse_card(content.get("card")) is not self._card:
            return None, _tr("crew.comp.not_this_card", self.lang)
        return self._card, None


class CrewHand(CrewComponent):
    """A hand of cards: click a card to act with it.

    ``playable`` (default: every card) marks the cards that may be picked now; the others are drawn
    dimmed and a pick of one is refused with ``unplayable_reason`` (e.g. "follow pink"). ``marks`` maps a
    card to a highlight (``"next"``, ``"hint"``). ``toggle`` makes the hand a single choice: the picked
    card stays ``selected`` (the sonar check).
    """

    _kind = Unicode("hand").tag(sync=True)
    items = List().tag(sync=True)
    selected = Unicode("").tag(sync=True)
    toggle = Bool(False).tag(sync=True)

    def __init__(self, cards: Iterable["Card | str"] = (), playable: Iterable["Card | str"] | None = None,
                 title_key: str = "crew.comp.hand", title_params: Mapping[str, Any] | None = None,
                 lang: str = "en", toggle: bool = False, **kwargs: Any):
        self._cards: tuple[Card, ...] = ()
        self._playable: frozenset[Card] | None = None
        self._marks: dict[Card, str] = {}
        self._title = (title_key, dict(title_params or {}))
        self._unplayable_reason: Callable[[Card, str], str] | None = None
        super().__init__(lang=lang, **kwargs)
        self.toggle = bool(toggle)
        self.set_cards(cards, playable)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self._cards

    @property
    def selected_card(self) -> Card | None:
        return parse_card(self.selected) if self.selected else None

    def set_cards(self, cards: Iterable["Card | str"], playable: Iterable["Card | str"] | None = None,
                  marks: Mapping["Card | str", str] | None = None,
                  unplayable_reason: Callable[[Card, str], str] | None = None) -> None:
        """Show these cards (kernel side only). Bad card text raises a RuleError naming it."""
        hand = tuple(Card.parse(c) for c in cards)
        if len(hand) > MAX_CARDS:
            raise RuleError(f"a hand of {len(hand)} cards: at most {MAX_CARDS}")
        self._cards = hand
        self._playable = None if playable is None else frozenset(Card.parse(c) for c in playable)
        self._marks = {Card.parse(c): str(m) for c, m in (marks or {}).items()}
        self._unplayable_reason = unplayable_reason
        if self.selected and parse_card(self.selected) not in hand:
            self.selected = ""
        self._render()

    def set_title(self, key: str, **params: Any) -> None:
        self._title = (key, params)
        self._render()

    def select(self, card: "Card | str | None") -> None:
        c = None if card is None else Card.parse(card)
        self.selected = str(c) if c is not None and c in self._cards else ""

    def _render(self) -> None:
        if not hasattr(self, "_title"):
            return
        lang = self.lang
        items = []
        for c in self._cards:
            playable = self._playable is None or c in self._playable
            label = card_label(c, lang)
            aria = label if playable else f"{label} — {_tr('crew.comp.cannot_play', lang)}"
            item = {"card": str(c), "label": label, "aria": aria, "playable": playable}
            if c in self._marks:
                item["mark"] = self._marks[c]
                item["aria"] += f" — {_tr(MARK_KEYS.get(self._marks[c], MARK_KEYS['next']), lang)}"
            items.append(item)
        key, params = self._title
        with self.hold_sync():
            self.labels = {"title": _tr(key, lang, **params) if key else "", "empty": _tr("crew.comp.no_cards", lang)}
            self.items = items

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        raw = content.get("card")
        card = parse_card(raw)
        if card is None:
            return None, _tr("crew.comp.not_a_card", self.lang, text=str(raw)[:16])
        if card not in self._cards:
            return None, _tr("crew.comp.not_in_hand", self.lang, card=card)
        if self._playable is not None and card not in self._playable:
            if self._unplayable_reason is not None:
                return None, self._unplayable_reason(card, self.lang)
            return None, _tr("crew.comp.not_playable", self.lang, card=card)
        if self.toggle:
            self.selected = str(card)
        return card, None


class CardPicker(CrewComponent):
    """The 40 cards laid out by colour: click to add a card, click again to remove it.

    ``value`` is the picked cards in the order they were picked (a trick's play order). ``limit`` caps
    how many may be picked; ``unavailable`` cards (e.g. already in a trick) cannot be added.

    A view that gives the picked cards a meaning of its own (TONOJA's columns: "column 3, face down") says
    it with :meth:`set_marks` (a badge on the card and words for screen readers, instead of the click
    order) and may refuse an addition before anything changes with :meth:`set_check`.

    >>> picker = CardPicker(["G5"], ordered=False)
    >>> picker.set_check(lambda card, adding: "no yellow" if adding and card.suit == "Y" else None)
    >>> picker.receive({"type": "pick", "card": "Y3"}); picker.refusal, [str(c) for c in picker.value]
    ('no yellow', ['G5'])
    >>> picker.set_marks({"G5": ("1", "column 1, face up")}); picker.marks
    {'G5': {'badge': '1', 'aria': 'column 1, face up'}}
    """

    _kind = Unicode("picker").tag(sync=True)
    selected = List().tag(sync=True)
    unavailable = List().tag(sync=True)
    item_labels = Dict().tag(sync=True)
    ordered = Bool(True).tag(sync=True)
    #: card code -> {"badge", "aria"}: what a picked card is, when that is more than its click order
    marks = Dict().tag(sync=True)

    def __init__(self, value: Iterable["Card | str"] = (), limit: int = MAX_CARDS,
                 title_key: str = "crew.comp.picker", lang: str = "en", ordered: bool = True, **kwargs: Any):
        self._value: tuple[Card, ...] = ()
        self._unavailable: frozenset[Card] = frozenset()
        self._title_key = title_key
        self.limit = max(0, min(int(limit), MAX_CARDS))
        self._change_callbacks: list[Callable[[tuple[Card, ...]], Any]] = []
        self._check: Callable[[Card, bool], str | None] | None = None
        self._marks: dict[Card, tuple[str, str, bool]] = {}
        super().__init__(lang=lang, **kwargs)
        self.ordered = bool(ordered)
        self.set_value(value)

    @property
    def value(self) -> tuple[Card, ...]:
        return self._value

    def on_change(self, callback: Callable[[tuple[Card, ...]], Any]) -> None:
        """``callback(value)`` after every accepted change from the page."""
        self._change_callbacks.append(callback)

    def set_value(self, cards: Iterable["Card | str"]) -> None:
        value = tuple(dict.fromkeys(Card.parse(c) for c in cards))
        if len(value) > self.limit:
            raise RuleError(f"{len(value)} cards picked: at most {self.limit} here")
        self._value = value
        self._render()

    def set_unavailable(self, cards: Iterable["Card | str"]) -> None:
        self._unavailable = frozenset(Card.parse(c) for c in cards)
        self._render()

    def set_title(self, key: str) -> None:
        """The heading's message key (what a click does here)."""
        self._title_key = key
        self._render()

    def set_marks(self, marks: Mapping["Card | str", tuple[Any, ...]]) -> None:
        """``{card: (badge, words)}`` or ``(badge, words, "low")``: a short badge drawn on the picked card (in
        its top corner, or dark in its bottom corner for ``"low"``) and what a screen reader says after its
        name, in place of the click order (already in the picker's language). Empty: the default."""
        out: dict[Card, tuple[str, str, bool]] = {}
        for card, mark in marks.items():
            badge, words, *place = mark
            out[Card.parse(card)] = (str(badge)[:8], str(words)[:120], place == ["low"])
        self._marks = out
        self._render()

    def set_check(self, check: Callable[[Card, bool], str | None] | None) -> None:
        """``check(card, adding)`` runs before a pick changes anything and returns a refusal (in the picker's
        language) or None; ``adding`` is False when the pick takes a picked card out."""
        self._check = check

    def _render(self) -> None:
        if not hasattr(self, "_title_key"):
            return
        lang = self.lang
        suits = {s: suit_term(s).text(lang) for s in SUITS}
        with self.hold_sync():
            self.labels = {"title": _tr(self._title_key, lang), "suits": suits,
                           "chosen": _tr("crew.comp.chosen", lang)}
            if not self.item_labels or self.item_labels.get("_lang") != lang:
                labels = {f"{s}{v}": card_label(Card(s, v), lang) for s in SUITS for v in range(1, 5 if s == "S" else 10)}
                labels["_lang"] = lang
                self.item_labels = labels
            self.selected = [str(c) for c in self._value]
            self.unavailable = sorted(str(c) for c in self._unavailable)
            self.marks = {str(c): {"badge": b, "aria": w, **({"low": True} if low else {})}
                          for c, (b, w, low) in self._marks.items() if c in self._value}

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        raw = content.get("card")
        card = parse_card(raw)
        if card is None:
            return None, _tr("crew.comp.not_a_card", self.lang, text=str(raw)[:16])
        adding = card not in self._value
        if adding:
            if card in self._unavailable:
                return None, _tr("crew.comp.unavailable", self.lang, card=card)
            if len(self._value) >= self.limit:
                return None, _tr("crew.comp.limit", self.lang, n=self.limit)
        reason = self._check(card, adding) if self._check is not None else None
        if reason:
            return None, reason
        if adding:
            self._value = self._value + (card,)
        else:
            self._value = tuple(c for c in self._value if c is not card)
        self._render()
        for callback in list(self._change_callbacks):
            callback(self._value)
        return card, None


def seat_order(seats: int, bottom: int) -> list[int]:
    """Seats in drawing order around the table, clockwise from ``bottom`` (the viewer)."""
    bottom = bottom if 0 <= bottom < seats else 0
    return [(bottom + i) % seats for i in range(seats)]


class TrickTable(CrewComponent):
    """A trick on a table: seats around a felt, the leader marked (▶), the winner highlighted (★), the
    seat to act outlined, and the previous trick drawn smaller beside it. Display only.

    ``show(seats, leader, cards, winner=None, previous=None, names=None, bottom=0, acting=None)``:
    ``cards`` in play order from ``leader``; ``previous`` = ``(leader, cards, winner)``; ``caption`` is a line
    above the table, ``heading_key`` a message key replacing the "Trick on the table" heading.
    """

    _kind = Unicode("trick").tag(sync=True)
    current = Dict().tag(sync=True)
    previous = Dict().tag(sync=True)

    def __init__(self, lang: str = "en", **kwargs: Any):
        self._shown: dict[str, Any] | None = None
        super().__init__(lang=lang, **kwargs)

    def show(self, seats: int, leader: int | None, cards: Sequence["Card | str"], winner: int | None = None,
             previous: tuple[int, Sequence["Card | str"], int] | None = None,
             names: Mapping[int, str] | None = None, bottom: int = 0, acting: int | None = None,
             you: Iterable[int] = (), caption: str = "", marked: Iterable[int] = (),
             heading_key: str = "") -> None:
        if not 2 <= int(seats) <= 5:
            raise RuleError(f"a table of {seats!r} seats: the Crew has 2 to 5")
        played = [Card.parse(c) for c in cards]
        if len(played) > seats:
            raise RuleError(f"{len(played)} cards in a trick of {seats} seats")
        prev = None
        if previous is not None:
            p_leader, p_cards, p_winner = previous
            prev = (int(p_leader), [Card.parse(c) for c in p_cards], int(p_winner))
        self._shown = {"seats": int(seats), "leader": leader, "cards": played, "winner": winner, "previous": prev,
                       "names": dict(names or {}), "bottom": bottom, "acting": acting, "you": set(you),
                       "caption": caption, "marked": set(marked), "heading_key": heading_key}
        self._render()

    def _box(self, seats: int, leader: int | None, played: list[Card], winner: int | None, title: str,
             caption: str = "") -> dict[str, Any]:
        s = self._shown
        lang = self.lang
        by_seat: dict[int, Card] = {}
        if leader is not None:
            for i, c in enumerate(played):
                by_seat[(leader + i) % seats] = c
        spots = []
        for seat in seat_order(seats, s["bottom"]):
            name = s["names"].get(seat) or _tr("crew.comp.seat", lang, seat=seat)
            card = by_seat.get(seat)
            aria = None
            if card is not None:
                aria = _tr("crew.comp.played_by", lang, card=card_label(card, lang), name=name)
                if seat == winner:
                    aria += f" — {_tr('crew.comp.wins', lang)}"
                if seat == leader:
                    aria += f" — {_tr('crew.comp.led', lang)}"
                if title == "current" and seat in s["marked"]:
                    aria += f" — {_tr('crew.comp.mark_alt', lang)}"
            spots.append({"seat": seat, "name": name, "card": str(card) if card else None,
                          "label": card_label(card, lang) if card else "", "aria": aria,
                          "leader": seat == leader, "winner": seat == winner, "you": seat in s["you"],
                          "wins": _tr("crew.comp.wins", lang) if seat == winner else "",
                          "mark": "alt" if title == "current" and seat in s["marked"] and card else "",
                          "acting": seat == s["acting"] and title == "current"})
        key = s.get("heading_key") if title == "current" and s.get("heading_key") else f"crew.comp.trick_{title}"
        return {"seats": spots, "title": _tr(key, lang), "caption": caption}

    def _render(self) -> None:
        s = getattr(self, "_shown", None)
        if s is None:
            return
        with self.hold_sync():
            self.labels = {}
            self.current = self._box(s["seats"], s["leader"], s["cards"], s["winner"], "current", s["caption"])
            prev = s["previous"]
            self.previous = {} if prev is None else self._box(s["seats"], prev[0], prev[1], prev[2], "previous")


class TaskTokens(CrewComponent):
    """Tasks as tokens grouped by their owners (and "not taken yet"); status shown by colour **and** icon
    (✓ done, ✗ failed, ○ pending). Tokens listed in ``selectable`` are buttons: a pick sends the task id.

    ``show(tasks, seats, names=None, selectable=(), you=())`` with ``tasks`` as in
    ``ENGINE.observe(...)["tasks"]`` (``id``, ``en``, ``ja``, ``owner``, ``status``, ``difficulty``,
    ``prediction``).
    """

    _kind = Unicode("tasks").tag(sync=True)
    groups = List().tag(sync=True)

    def __init__(self, lang: str = "en", **kwargs: Any):
        self._tasks: list[dict[str, Any]] = []
        self._seats = 0
        self._names: dict[int, str] = {}
        self._selectable: frozenset[int] = frozenset()
        self._you: set[int] = set()
        super().__init__(lang=lang, **kwargs)

    def show(self, tasks: Sequence[Mapping[str, Any]], seats: int, names: Mapping[int, str] | None = None,
             selectable: Iterable[int] = (), you: Iterable[int] = (),
             action_key: str = "crew.comp.click_to_take") -> None:
        """``action_key``: what clicking a selectable token does, for screen readers (take it, remove it)."""
        if len(tasks) > MAX_TASKS:
            raise RuleError(f"{len(tasks)} tasks: at most {MAX_TASKS}")
        self._action_key = action_key
        self._tasks = [dict(t) for t in tasks]
        self._seats = int(seats)
        self._names = dict(names or {})
        self._selectable = frozenset(int(i) for i in selectable)
        self._you = set(you)
        self._render()

    def _render(self) -> None:
        if not hasattr(self, "_you"):
            return
        lang = self.lang
        owners: list[int | None] = [None] + list(range(self._seats))
        groups = []
        for owner in owners:
            mine = [t for t in self._tasks if t.get("owner") == owner]
            if owner is None and not mine:
                continue
            name = (_tr("crew.comp.unowned", lang) if owner is None
                    else self._names.get(owner) or _tr("crew.comp.seat", lang, seat=owner))
            tokens = []
            for t in mine:
                text = str(t.get("ja") if lang == "ja" else t.get("en"))
                status = t.get("status") if t.get("status") in ("pending", "done", "failed") else "pending"
                pred = t.get("prediction")
                note = ""
                if pred == "secret":
                    note = _tr("crew.comp.secret", lang)
                elif pred is not None:
                    note = _tr("crew.comp.prediction", lang, n=pred)
                status_text = _tr(f"crew.status.{status}", lang)
                selectable = t.get("id") in self._selectable
                aria = f"#{t.get('id')} {text} — {status_text}"
                if selectable:
                    aria += f" — {_tr(getattr(self, '_action_key', 'crew.comp.click_to_take'), lang)}"
                tokens.append({"id": t.get("id"), "text": text, "status": status, "difficulty": t.get("difficulty"),
                               "note": note, "selectable": selectable, "aria": aria})
            groups.append({"owner": owner, "name": name, "tasks": tokens, "you": owner in self._you})
        with self.hold_sync():
            self.labels = {"title": _tr("crew.comp.tasks", lang), "empty": _tr("crew.comp.no_tasks", lang)}
            self.groups = groups

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        raw = content.get("task")
        if isinstance(raw, bool) or not isinstance(raw, int):
            return None, _tr("crew.comp.not_a_task", self.lang, text=str(raw)[:16])
        if raw not in self._selectable:
            return None, _tr("crew.comp.not_selectable", self.lang, task=raw)
        return raw, None


__all__ = ["CARD_STYLE", "CardPicker", "CrewCard", "CrewComponent", "CrewHand", "TaskTokens", "TrickTable",
           "card_label", "parse_card", "seat_order"]
