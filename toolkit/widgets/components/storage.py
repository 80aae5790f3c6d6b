"""A list of short texts kept in the visitor's browser (``localStorage``), so it outlives the page.

:class:`BrowserList` is an invisible anywidget. When the page draws it, its module reads one
``localStorage`` key and sends what it found to the kernel, once per render:
``{"type": "stored", "items": [...], "unreadable": bool}``. The kernel decides what to keep
(:meth:`BrowserList.on_load` callbacks check every item, as untrusted as anything typed into the page) and
writes the list back through the synced ``items`` trait; the module copies ``items`` into ``localStorage``
whenever it changes, but only once the kernel has answered a load (``loaded``), so a fresh kernel's empty
list never wipes what the browser held.

Only what the kernel puts in ``items`` ever reaches the browser's storage: the page can neither write a
trait (:meth:`set_state` ignores it) nor make the kernel keep an item its owner did not accept. Bounds:
the module sends at most :attr:`max_items` items and nothing when the stored text is longer than
``max_items`` texts of :attr:`max_chars` characters could be (then ``unreadable``); the kernel cuts items, the count and the load messages again.

>>> store = BrowserList(key="deepsea.test")
>>> seen = []
>>> store.on_load(lambda items, unreadable: seen.append((items, unreadable)))
>>> store.receive({"type": "stored", "items": ["a", 3, "b" * 9000], "unreadable": False})
>>> seen
[(['a', None, None], False)]
>>> store.loaded
True
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Mapping

import anywidget
from traitlets import Bool, Int, List, Unicode

log = logging.getLogger("toolkit.widgets.components")

#: load messages one widget answers (one per render of the page; a page that sends more gains nothing)
MAX_LOADS = 20

_ESM = r"""
function readStored(key, maxItems, maxChars) {
  let raw = null;
  try { raw = window.localStorage.getItem(key); } catch (e) { return { items: [], unreadable: false }; }
  if (raw === null) return { items: [], unreadable: false };
  // the whole list: at most maxItems texts of maxChars each (JSON quotes and commas: 3 more each)
  if (raw.length > maxItems * (maxChars + 3) + 2) return { items: [], unreadable: true };
  try {
    const data = JSON.parse(raw);
    if (!Array.isArray(data)) return { items: [], unreadable: true };
    // the newest last: keep the last ones; anything that is not a short text is sent as null (the
    // kernel counts it as a dropped entry)
    return { items: data.slice(-maxItems).map((x) => (typeof x === 'string' && x.length <= maxChars) ? x : null),
             unreadable: false };
  } catch (e) {
    return { items: [], unreadable: true };
  }
}

function render({ model, el }) {
  el.classList.add('deepsea-browser-list');
  el.setAttribute('aria-hidden', 'true');
  const key = model.get('key');
  const write = () => {
    if (!model.get('loaded') || !key) return;
    try {
      const items = model.get('items') || [];
      if (items.length) window.localStorage.setItem(key, JSON.stringify(items));
      else window.localStorage.removeItem(key);
    } catch (e) { /* storage full or disabled: the list lasts for this page only */ }
  };
  const found = readStored(key, model.get('max_items'), model.get('max_chars'));
  try { model.send({ type: 'stored', items: found.items, unreadable: found.unreadable }); } catch (e) { /* closed */ }
  model.on('change:items', write);
  model.on('change:loaded', write);
  return () => { model.off('change:items', write); model.off('change:loaded', write); };
}

export default { render };
"""

_CSS = ".deepsea-browser-list { display: none !important; }"


class BrowserList(anywidget.AnyWidget):
    """Texts kept in the browser's ``localStorage`` under ``key`` (see the module docstring).

    ``items`` and ``loaded`` are written by the kernel only. ``on_load(callback)``: ``callback(items,
    unreadable)`` runs for each load message, with at most ``max_items`` items in the stored order (each a
    ``str`` of at most ``max_chars`` characters, or ``None`` where the page sent something else: a dropped
    entry) and whether the stored text could not be read at all.
    """

    _esm = _ESM
    _css = _CSS
    key = Unicode("").tag(sync=True)
    items = List(Unicode()).tag(sync=True)
    loaded = Bool(False).tag(sync=True)
    max_items = Int(50).tag(sync=True)
    max_chars = Int(4000).tag(sync=True)

    def __init__(self, key: str, max_items: int = 50, max_chars: int = 4000, **kwargs: Any):
        super().__init__(key=key, max_items=max_items, max_chars=max_chars, **kwargs)
        self._load_callbacks: list[Callable[[list, bool], Any]] = []
        self.loads = 0
        self.on_msg(self._on_page_message)

    def set_state(self, sync_data: Mapping[str, Any]) -> None:
        """Ignore the page: every trait here flows kernel → page only."""
        if sync_data:
            log.info("ignored a browser update of %s", sorted(map(str, sync_data))[:5])

    def on_load(self, callback: Callable[[list, bool], Any]) -> None:
        self._load_callbacks.append(callback)

    def store(self, items: list[str]) -> None:
        """Put ``items`` (the newest last) in the browser's storage: the last ``max_items``; an item longer
        than ``max_chars`` is left out (a cut one would be corrupt)."""
        kept = [x for x in items if isinstance(x, str) and len(x) <= self.max_chars]
        self.items = kept[-self.max_items:]

    def receive(self, content: Any) -> None:
        """Handle one page message (also how tests load). Never raises."""
        if not isinstance(content, Mapping) or content.get("type") != "stored":
            log.info("ignored a page message of type %s", type(content).__name__)
            return
        if self.loads >= MAX_LOADS:
            return
        self.loads += 1
        raw = content.get("items")
        # order kept, anything that is not a short text replaced by None: the owner counts it as dropped
        items = [x if isinstance(x, str) and len(x) <= self.max_chars else None
                 for x in (raw[-self.max_items:] if isinstance(raw, list) else [])]
        unreadable = content.get("unreadable") is True or (raw is not None and not isinstance(raw, list))
        for callback in list(self._load_callbacks):
            try:
                callback(items, unreadable)
            except Exception:  # noqa: BLE001 - a view's bug must not break the page
                log.exception("a browser-list load callback failed")
        self.loaded = True

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)
