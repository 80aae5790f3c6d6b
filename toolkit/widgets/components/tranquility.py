"""Tranquility components: the 6×6 grid of cells and a seat's hand, drawn by ``tranquility.js``.

Like the other games' components (``deepblue.py``, ``crew.py``) a component holds **no rules**: the view
gives it what to draw — from ``ENGINE.observe(state, seat)`` of the one seat the page may show — and, per
clickable object, either an *offer* (what a click means; the view took it from ``legal_moves``) or a
*refusal* (why not; the engine's ``why_illegal``). The page sends ``{"type": "pick", "key": "cell:17"}``;
the kernel checks the key against its private offers and refusals, so a page that sends anything else
changes nothing.

Keys: ``cell:<index>`` (0-35, row 1 at the bottom) and ``card:<position in the hand>`` — two identical
cards of a hand are two objects with two keys.

>>> grid = TranquilityGrid()
>>> grid.show(cells=[0] * 36, offers={"cell:3": 3}, refusals={"cell:4": "cell 4 is taken"})
>>> picked = []
>>> grid.on_pick(picked.append)
>>> grid.receive({"type": "pick", "key": "cell:3"}); picked
[3]
>>> grid.receive({"type": "pick", "key": "cell:4"}); grid.refusal
'cell 4 is taken'
>>> grid.receive({"type": "pick", "key": "cell:99"}); grid.refusal
'That cannot be clicked now.'
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from traitlets import List, Unicode

from toolkit.core import i18n
from toolkit.widgets.components.base import PickComponent, component_css, component_source

_ESM = component_source("tranquility")
_CSS = component_css("tranquility")

MAX_KEY = 12           # "cell:35", "card:4"
CELLS = 36
MAX_HAND = 12          # a hand never holds more (5 + drawn extras); anything longer is cut


def tr(key: str, lang: str, **params: Any) -> str:
    return i18n.translate(key, lang, params)


def cell_key(index: int) -> str:
    """The data-key of grid cell ``index``.

    >>> cell_key(17)
    'cell:17'
    """
    return f"cell:{int(index)}"


def card_key(position: int) -> str:
    """The data-key of the card at ``position`` in the hand (identical cards stay separate objects).

    >>> card_key(0)
    'card:0'
    """
    return f"card:{int(position)}"


class TranquilityComponent(PickComponent):
    """Offers and refusals per clicked key, looked up in what the kernel offered for the position shown."""

    _esm = Unicode(_ESM).tag(sync=True)
    _css = Unicode(_CSS).tag(sync=True)

    def __init__(self, lang: str = "en", **kwargs: Any):
        self._offers: dict[str, Any] = {}
        self._refusals: dict[str, str] = {}
        super().__init__(lang=lang, **kwargs)

    @property
    def offers(self) -> dict[str, Any]:
        """A copy of what each clickable key does now (kernel side)."""
        return dict(self._offers)

    def _set_offers(self, offers: Mapping[str, Any] | None, refusals: Mapping[str, str] | None) -> None:
        self._offers = {str(k): v for k, v in (offers or {}).items()}
        self._refusals = {str(k): str(v) for k, v in (refusals or {}).items()}
        self.refusal = ""               # a new position: the last refusal no longer applies

    def _act(self, key: str) -> dict[str, str]:
        if key in self._offers:
            return {"act": "offer"}
        if key in self._refusals:
            return {"act": "refuse", "note": self._refusals[key]}
        return {"act": ""}

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        key = content.get("key")
        if not isinstance(key, str) or not key or len(key) > MAX_KEY:
            return None, self._text("bad_message")
        if key in self._offers:
            return self._offers[key], None
        return None, self._refusals.get(key) or self._text("not_offered")


class TranquilityGrid(TranquilityComponent):
    """The 36 cells, row 6 on top: a placed card shows its value (large, filled), an empty cell its index
    as "#15" (small, hollow) — the two never look alike. ``cells`` items as drawn:
    ``{key, index, value, tip, legal, selected, blocked, act, note}``."""

    _kind = Unicode("grid").tag(sync=True)
    cells = List().tag(sync=True)

    def show(self, cells: Sequence[int], tips: Sequence[str] = (), legal: Iterable[int] = (),
             selected: int | None = None, blocked_rows: Iterable[int] = (),
             offers: Mapping[str, Any] | None = None, refusals: Mapping[str, str] | None = None) -> None:
        """``cells``: the 36 values (0 = empty); ``tips``: each cell's hover/aria text; ``legal``: the cells
        where some legal move puts the picked card; ``offers``/``refusals`` by :func:`cell_key`."""
        values = [int(v or 0) for v in list(cells)[:CELLS]]
        if len(values) != CELLS:
            raise TypeError(f"cells must hold {CELLS} values, not {len(values)}")
        tips = list(tips) + [""] * (CELLS - len(tips))
        legal_set, blocked = set(legal), set(blocked_rows)
        self._set_offers(offers, refusals)
        drawn = []
        for i, v in enumerate(values):
            key = cell_key(i)
            drawn.append({"key": key, "index": i, "value": v, "tip": str(tips[i]), "legal": i in legal_set,
                          "selected": i == selected, "blocked": i // 6 in blocked, **self._act(key)})
        with self.hold_sync():
            self.labels = {"title": tr("components.tranquility.grid", self.lang),
                           "empty": tr("components.tranquility.empty_cell", self.lang),
                           "legal": tr("components.tranquility.legal_mark", self.lang)}
            self.cells = drawn

    def _render(self) -> None:
        if self.labels:
            self.labels = {"title": tr("components.tranquility.grid", self.lang),
                           "empty": tr("components.tranquility.empty_cell", self.lang),
                           "legal": tr("components.tranquility.legal_mark", self.lang)}


class TranquilityHand(TranquilityComponent):
    """A seat's hand as cards in a row: island cards by number, the others (start, finish, monster, storms)
    by name. ``cards`` items: ``{key, name, label, kind, selected, act, note}``; the hand's order is kept
    and every card is its own object, even two of the same number."""

    _kind = Unicode("hand").tag(sync=True)
    cards = List().tag(sync=True)

    def show(self, names: Sequence[str], labels: Sequence[str], title: str = "", selected: int | None = None,
             offers: Mapping[str, Any] | None = None, refusals: Mapping[str, str] | None = None) -> None:
        """``names``: the hand's card names (``"17"``, ``"finish"``); ``labels``: how each is written."""
        names = [str(n) for n in list(names)[:MAX_HAND]]
        self._set_offers(offers, refusals)
        drawn = []
        for i, (name, label) in enumerate(zip(names, labels)):
            key = card_key(i)
            drawn.append({"key": key, "name": name, "label": str(label),
                          "kind": "island" if name.isdigit() else name, "selected": i == selected,
                          **self._act(key)})
        with self.hold_sync():
            self.labels = {"title": str(title), "empty": tr("components.tranquility.no_cards", self.lang)}
            self.cards = drawn

    def clear(self) -> None:
        """No card in the page (the curtain, a bot's turn): the state sent to the browser holds none."""
        self.show([], [], "")
