"""Deep Blue components: the board (sites, tiles, boats), crew cards in a row (the market, a hand), the
gem bag as tokens by colour, and the dive track (drawn gems, dangers, divers).

Each is an ``anywidget.AnyWidget`` drawn by one ESM module, ``deepblue.js``, with one stylesheet,
``deepblue.css`` (``_kind`` says which piece to draw; see docs/architecture.md for why anywidget). A
component holds **no rules**: the view gives it what to draw (from ``ENGINE.observe(state, seat)`` of a seat
shown on the page) and, per clickable object, either an *offer* (what the click does; the view got it
from ``legal_moves``) or a *refusal* (why not; the view got it from the engine's ``why_illegal``). The
page sends one kind of message, ``{"type": "pick", "key": "site:7"}``; the kernel checks the key against
its own private offers:

* a key that is offered runs the ``on_pick`` callbacks with the offered value;
* a key with a refusal (shown on hover/focus too) is refused with that reason;
* anything else — not a mapping, another type, a key that is not text, too long, or not on this
  component — is refused with a localized message; nothing changes and nothing raises.

:meth:`DeepBlueComponent.set_state` ignores every state update from the page (the kernel is the only
author of a component's state).

>>> board = DeepBlueBoard()
>>> board.show(sites=[{"key": "site:7", "label": "7"}], offers={"site:7": "s0 move boat0 to 7"})
>>> picked = []
>>> board.on_pick(picked.append)
>>> board.receive({"type": "pick", "key": "site:7"}); picked
['s0 move boat0 to 7']
>>> board.receive({"type": "pick", "key": "site:99"}); board.refusal
'That cannot be clicked now.'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from traitlets import Dict, List, Unicode

from toolkit.core import i18n
from toolkit.widgets.components.base import PickComponent, component_css, component_source

HERE = Path(__file__).parent



_ESM = component_source("deepblue")
_CSS = component_css("deepblue")
#: What a component without its own copy of the drawing code sends instead (``assets=False``): it waits
#: for the module that the first component of the page registered (``deepblue.js`` ends by doing so).
#: anywidget sends a component's ESM and CSS with its state, ~20 kB per instance; a table of five
#: components sends them once (the stylesheet anywidget installs applies to the whole page).
_STUB_ESM = """
function ready() {
  if (globalThis.__deepseaDeepBlue) return Promise.resolve(globalThis.__deepseaDeepBlue);
  return new Promise((resolve) => (globalThis.__deepseaDeepBlueWaiters ||= []).push(resolve));
}
export default { async render(ctx) { const api = await ready(); return api.render(ctx); } };
"""

MAX_KEY = 40            # longest key a click may name ("card:123", "add:silver", ...)
MAX_OBJECTS = 200       # a component never draws more objects than this (50 cards, 16 sites, 7 colours)

#: Gem token faces: fill, text colour on it, and a letter so that colour is not the only cue. Text on
#: the token meets WCAG AA (pinned by tests/widgets/test_deepblue_table.py).
GEM_STYLE: dict[str, dict[str, str]] = {
    "silver": {"fill": "#c8cbd0", "fg": "#1a1a1a", "letter": "S"},
    "gold": {"fill": "#e3b919", "fg": "#1a1a1a", "letter": "G"},
    "red": {"fill": "#b3261e", "fg": "#ffffff", "letter": "R"},
    "green": {"fill": "#1d6e38", "fg": "#ffffff", "letter": "E"},
    "purple": {"fill": "#6f2da8", "fg": "#ffffff", "letter": "P"},
    "black": {"fill": "#1a1a1a", "fg": "#ffffff", "letter": "✕"},
    "blue": {"fill": "#1f5fbf", "fg": "#ffffff", "letter": "✕"},
    "any": {"fill": "#ffffff", "fg": "#1a1a1a", "letter": "★"},      # a protection of either hazard
}

#: player boat colours by seat (distinct, and each labelled with its seat number on the board)
SEAT_STYLE: tuple[str, ...] = ("#b3261e", "#8f4700", "#1d6e38", "#1f5fbf", "#6f2da8")


def tr(key: str, lang: str, **params: Any) -> str:
    return i18n.translate(key, lang, params)


class DeepBlueComponent(PickComponent):
    """Base of the Deep Blue components: offers and refusals per clicked key (the page names a key; the
    kernel looks it up in what it offered for the position shown)."""

    _esm = Unicode(_ESM).tag(sync=True)
    _css = Unicode(_CSS).tag(sync=True)

    def __init__(self, lang: str = "en", assets: bool = True, **kwargs: Any):
        """``assets=False``: this component draws with the code another component of the same page carries
        (the first one a view creates); it then sends no ESM or CSS of its own."""
        self._offers: dict[str, Any] = {}
        self._refusals: dict[str, str] = {}
        super().__init__(lang=lang, **kwargs)
        if not assets:
            self._esm, self._css = _STUB_ESM, ""

    # ---- offers ----------------------------------------------------------------------------------
    @property
    def offers(self) -> dict[str, Any]:
        """A copy of what each clickable key does now (kernel side)."""
        return dict(self._offers)

    def _set_offers(self, offers: Mapping[str, Any] | None, refusals: Mapping[str, str] | None) -> None:
        self._offers = {str(k): v for k, v in (offers or {}).items()}
        self.refusal = ""               # a new position: the last refusal no longer applies
        self._refusals = {str(k): str(v) for k, v in (refusals or {}).items()}

    def _mark(self, objects: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Each object with ``act``: "offer", "refuse" or "" (not clickable) and its ``note``."""
        out = []
        for obj in list(objects)[:MAX_OBJECTS]:
            item = dict(obj)
            key = item.get("key")
            if key in self._offers:
                item["act"] = "offer"
            elif key in self._refusals:
                item["act"] = "refuse"
                item["note"] = self._refusals[key]
            else:
                item["act"] = ""
            out.append(item)
        return out

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        key = content.get("key")
        if not isinstance(key, str) or not key or len(key) > MAX_KEY:
            return None, self._text("bad_message")
        if key in self._offers:
            return self._offers[key], None
        return None, self._refusals.get(key) or self._text("not_offered")


class DeepBlueBoard(DeepBlueComponent):
    """The board: sites on a grid joined by sea lanes, wreck tiles (face down, wrecks, Sunken Cities), tile
    gems and boats. ``sites`` items: ``{key, label, aria, x, y, kind, detail, gems, boats, spots, mark}``;
    ``buttons``: extra clickable things under the board (e.g. "drop anchor")."""

    _kind = Unicode("board").tag(sync=True)
    sites = List().tag(sync=True)
    lanes = List().tag(sync=True)
    buttons = List().tag(sync=True)

    def show(self, sites: Iterable[Mapping[str, Any]], lanes: Iterable[Iterable[float]] = (),
             buttons: Iterable[Mapping[str, Any]] = (), offers: Mapping[str, Any] | None = None,
             refusals: Mapping[str, str] | None = None, labels: Mapping[str, str] | None = None) -> None:
        self._set_offers(offers, refusals)
        sites = list(sites)
        # a boat or a scouting spot can be clickable too: mark them inside their site
        for site in sites:
            site["boats"] = self._mark(site.get("boats", ()))
            site["spots"] = self._mark(site.get("spots", ()))
        with self.hold_sync():
            self.labels = dict(labels or {})
            self.lanes = [list(map(float, lane)) for lane in lanes][:MAX_OBJECTS]
            self.sites = self._mark(sites)
            self.buttons = self._mark(buttons)


class CrewCardRow(DeepBlueComponent):
    """Crew cards in a row — the market (with prices) or a seat's hand — plus tokens and buttons.

    ``cards`` items: ``{key, id, name, icons: [{icon, text}], aria, price, selected, mark}``; ``buttons``:
    e.g. a starter token to pay with, the rest area, "pay", "cancel"."""

    _kind = Unicode("cards").tag(sync=True)
    cards = List().tag(sync=True)
    buttons = List().tag(sync=True)

    def show(self, cards: Iterable[Mapping[str, Any]], buttons: Iterable[Mapping[str, Any]] = (),
             offers: Mapping[str, Any] | None = None, refusals: Mapping[str, str] | None = None,
             labels: Mapping[str, str] | None = None) -> None:
        self._set_offers(offers, refusals)
        with self.hold_sync():
            self.labels = dict(labels or {})
            self.cards = self._mark(cards)
            self.buttons = self._mark(buttons)


class GemBagTokens(DeepBlueComponent):
    """The bag as gem tokens by colour with their counts (never which gem comes next).

    ``gems`` items: ``{colour, name, n, key?, minus?, plus?}``: in a game the whole bag is one clickable
    object (``bag_key``: draw); in the worked example each colour has − and + buttons."""

    _kind = Unicode("bag").tag(sync=True)
    gems = List().tag(sync=True)
    bag = Dict().tag(sync=True)
    buttons = List().tag(sync=True)

    def show(self, gems: Iterable[Mapping[str, Any]], bag: Mapping[str, Any] | None = None,
             buttons: Iterable[Mapping[str, Any]] = (), offers: Mapping[str, Any] | None = None,
             refusals: Mapping[str, str] | None = None, labels: Mapping[str, str] | None = None) -> None:
        self._set_offers(offers, refusals)
        rows = []
        for g in gems:
            row = dict(g)
            row.update(GEM_STYLE.get(str(row.get("colour")), GEM_STYLE["silver"]))
            for side in ("minus", "plus"):
                if isinstance(row.get(side), Mapping):
                    row[side] = self._mark([row[side]])[0]
            rows.append(row)
        with self.hold_sync():
            self.labels = dict(labels or {})
            self.gems = rows
            self.bag = self._mark([bag])[0] if bag else {}
            self.buttons = self._mark(buttons)


class DiveTrack(DeepBlueComponent):
    """The dive: gems drawn in order (first black/blue: a warning; a second: danger), the divers (leader,
    still diving, surfaced, bust) with their boats — click your boat to surface — and the join choice.

    ``gems`` items: ``{colour, name, danger}``; ``divers``: ``{seat, name, status, text, leader, you, key?}``."""

    _kind = Unicode("dive").tag(sync=True)
    gems = List().tag(sync=True)
    divers = List().tag(sync=True)
    buttons = List().tag(sync=True)

    def show(self, gems: Iterable[Mapping[str, Any]], divers: Iterable[Mapping[str, Any]],
             buttons: Iterable[Mapping[str, Any]] = (), offers: Mapping[str, Any] | None = None,
             refusals: Mapping[str, str] | None = None, labels: Mapping[str, str] | None = None) -> None:
        self._set_offers(offers, refusals)
        rows = []
        for g in list(gems)[:MAX_OBJECTS]:
            row = dict(g)
            row.update(GEM_STYLE.get(str(row.get("colour")), GEM_STYLE["silver"]))
            rows.append(row)
        with self.hold_sync():
            self.labels = dict(labels or {})
            self.gems = rows
            self.divers = self._mark(divers)
            self.buttons = self._mark(buttons)
