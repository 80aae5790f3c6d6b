"""What every page needs once, whatever view it shows: its language, its display size, readable type and
controls that a screen reader can name.

:class:`PageSupport` is a small anywidget that each top-level :class:`~toolkit.widgets.base.View` carries
(the one with the language toggle). In the browser it

* sets ``lang`` on the view's root element — and on the document in a published Voila page — so screen
  readers, fonts and line breaking follow the language toggle;
* adds ``deepsea-large`` to the page's body for ``?display=large`` (projectors: bigger cards and type,
  fewer side panels — panels with the class ``deepsea-side`` are hidden);
* names every form control that ipywidgets leaves unnamed: a slider's handle, a drop-down or a number box
  gets the ``aria-label`` of its widget's description or tooltip. ipywidgets ties the description's
  ``<label>`` to some inputs only, and never to a slider's handle; fixing the class here (rather than per
  view) is what keeps every dashboard free of axe-core's "label"/"select-name" violations;
* turns every rule id on a published page (``<code class="deepsea-rule">``) into a link to the rules
  dashboard (``rules.ipynb?rule=<id>``, :mod:`toolkit.widgets.rulebook`), in the page's language;
* installs one stylesheet: a font stack that names the common Japanese system fonts (a visitor with any
  of them never sees empty boxes), Japanese line breaking that does not split words, and button colours
  with WCAG AA contrast (ipywidgets' orange and cyan buttons with white text are 2–3:1).

It also tells the kernel when the page has drawn it: once its element sits in the view's root (the view is
on screen, its widget models loaded), the front end sends the custom message ``{"event": "rendered"}``
— again on every later render (a reloaded JupyterLab notebook, a second display of the view). The
kernel side sets :attr:`PageSupport.rendered`; :class:`~toolkit.widgets.seats.BotDriver` waits for it before
a table's bots start moving (see :func:`page_of`). In Voila the kernel runs the dashboard before the page
connects, and bots changing widgets while the widget manager was still loading them once made it draw its
error icon.

It carries no game data, so it cannot leak a hidden card; its two traits flow kernel → page only, and the
one message it accepts from the page carries no value.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any, Iterator

import anywidget
import traitlets

log = logging.getLogger("toolkit.widgets.page")

DISPLAY_MODES = ("normal", "large")

#: Japanese system fonts by platform: macOS/iOS (Hiragino), Windows (Yu Gothic, Meiryo), Android/Linux/
#: ChromeOS (Noto Sans CJK JP / Noto Sans JP, Source Han Sans), older Linux (IPA, Takao).
FONT_STACK = ('system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Hiragino Sans", '
              '"Hiragino Kaku Gothic ProN", "Yu Gothic UI", "Yu Gothic", YuGothic, Meiryo, "Noto Sans CJK JP", '
              '"Noto Sans JP", "Source Han Sans JP", "IPAexGothic", "IPAPGothic", "TakaoPGothic", sans-serif')

_ESM = r"""
function labelText(el) {
  // The name a person sees next to a control: its widget's description label, else a tooltip.
  const box = el.closest('.widget-inline-hbox, .widget-inline-vbox, .widget-checkbox, .widget-slider, .jupyter-widgets');
  if (!box) return '';
  const label = box.querySelector(':scope > label.widget-label');
  let text = label ? label.textContent.trim() : '';
  if (!text && el.type === 'checkbox') {
    const span = box.querySelector('.widget-label-basic span');
    text = span ? span.textContent.trim() : '';
  }
  // A tooltip (ipywidgets puts it on the control itself, or on its box) names a control that has no
  // description; as an aria-label it counts as a real name (a title alone is axe's "label-title-only").
  text = text || el.getAttribute('title') || (label && label.getAttribute('title')) || box.getAttribute('title') || '';
  if (!text) {
    // An unlabelled control right after a caption (HBox([HTML("<b>Seed</b>"), IntText()])): the caption
    // is what a sighted learner reads as its name.
    const prev = box.previousElementSibling;
    if (prev && prev.classList.contains('widget-html')) text = prev.textContent.trim().slice(0, 80);
  }
  return text;
}

function nameControls(root) {
  root.querySelectorAll('select, input, textarea, .noUi-handle[role="slider"]').forEach((el) => {
    if (el.type === 'hidden') return;
    const ours = el.dataset.deepseaAria === '1';
    if (!ours && (el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby'))) return;
    if (!ours && el.id && el.type !== 'checkbox') {
      const tied = root.querySelector('label[for="' + CSS.escape(el.id) + '"]');
      if (tied && tied.textContent.trim()) return;
    }
    const text = labelText(el);
    if (text && el.getAttribute('aria-label') !== text) {
      el.setAttribute('aria-label', text);
      el.dataset.deepseaAria = '1';
    }
  });
}

function linkRules(root) {
  // A rule id on a published page opens its rule on the rules dashboard (toolkit/widgets/rulebook.py), a
  // page Voila serves (it refuses .md files). Only in Voila: a notebook's rule ids stay plain text.
  if (!/\/voila\/render\//.test(window.location.pathname)) return;
  root.querySelectorAll('code.deepsea-rule').forEach((code) => {
    if (code.closest('a')) return;
    const id = code.textContent.trim();
    if (!/^[a-z]+(\.[a-z0-9_-]+)+$/.test(id)) return;
    const lang = document.documentElement.getAttribute('lang') === 'ja' ? 'ja' : 'en';
    const large = document.body.classList.contains('deepsea-large') ? '&display=large' : '';
    const a = document.createElement('a');
    a.href = 'rules.ipynb?rule=' + encodeURIComponent(id) + '&lang=' + lang + large;
    a.target = '_blank';
    a.rel = 'noopener';
    a.className = 'deepsea-rule-link';
    code.replaceWith(a);
    a.appendChild(code);
  });
}

let observer = null;
let pending = false;
function watch() {
  if (observer) return;
  const run = () => {
    pending = false;
    try { nameControls(document.body); linkRules(document.body); } catch (e) { /* never break the page */ }
  };
  observer = new MutationObserver(() => { if (!pending) { pending = true; requestAnimationFrame(run); } });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true,
                                    attributes: true, attributeFilter: ['title'] });
  run();
}

function render({ model, el }) {
  el.classList.add('deepsea-page-support');
  el.setAttribute('aria-hidden', 'true');
  const inVoila = /\/voila\//.test(window.location.pathname) || !!document.querySelector('body[data-voila]');
  const apply = () => {
    const lang = model.get('lang') || 'en';
    const root = el.closest('.deepsea-root');
    if (root) root.setAttribute('lang', lang);
    if (inVoila) document.documentElement.setAttribute('lang', lang);
    document.body.classList.toggle('deepsea-large', model.get('display_mode') === 'large');
    return !!root;
  };
  // The element is attached to the view after render: retry for a few frames until the root is found,
  // then tell the kernel the page has drawn (a table's bots wait for it; toolkit.widgets.seats).
  let tries = 0;
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    try { model.send({ event: 'rendered' }); } catch (e) { /* a closed comm: nothing waits any more */ }
  };
  const settle = () => {
    if (apply() || tries++ >= 60) { tell(); return; }
    requestAnimationFrame(settle);
  };
  settle();
  model.on('change:lang', apply);
  model.on('change:display_mode', apply);
  watch();
  return () => { model.off('change:lang', apply); model.off('change:display_mode', apply); };
}

export default { render };
"""

_CSS = """
.deepsea-page-support { display: none !important; }
.deepsea-root, .deepsea-root .widget-label, .deepsea-root .jupyter-widgets, .deepsea-root button,
.deepsea-root select, .deepsea-root input { font-family: %(fonts)s; }
.deepsea-root:lang(ja), .deepsea-root:lang(ja) .widget-label { line-break: strict; word-break: keep-all;
  overflow-wrap: anywhere; }
/* A label or button is never narrower than its text (min-width beats a fixed width, even an inline one):
   ipywidgets' fixed 80 px labels cut "Island removal" and ellipsised Japanese mid-word. */
.deepsea-root .widget-inline-hbox > .widget-label, .deepsea-root .widget-inline-vbox > .widget-label {
  min-width: max-content; }
.deepsea-root .jupyter-button { min-width: max-content; }
/* WCAG AA (4.5:1) for white text on ipywidgets' coloured buttons */
.deepsea-root .jupyter-button.mod-primary { background-color: #1565c0; color: #fff; }
.deepsea-root .jupyter-button.mod-success { background-color: #2e7d32; color: #fff; }
.deepsea-root .jupyter-button.mod-info { background-color: #00687a; color: #fff; }
.deepsea-root .jupyter-button.mod-warning { background-color: #9a4a00; color: #fff; }
.deepsea-root .jupyter-button.mod-danger { background-color: #c62828; color: #fff; }
.deepsea-root .jupyter-button:focus-visible, .deepsea-root select:focus-visible,
.deepsea-root input:focus-visible { outline: 3px solid #1565c0; outline-offset: 2px; }
.deepsea-root a { color: #0b57d0; text-decoration: underline; }
/* A rule id beside a sentence (toolkit.widgets.base.rule_ref_html): small and muted, not part of it;
   #555 on white keeps 7:1. */
.deepsea-root .deepsea-rule-ref { font-size: 0.75em; color: #555; margin-left: 0.4em; white-space: nowrap; }
.deepsea-root .deepsea-rule-ref code { color: inherit; background: none; }
/* ?display=large: a projector at the back of a classroom */
body.deepsea-large { --jp-widgets-font-size: 20px; --jp-widgets-inline-height: 40px;
  --jp-widgets-inline-label-width: 12em; --jp-ui-font-size1: 20px; --jp-content-font-size1: 20px; }
body.deepsea-large .deepsea-root { font-size: 20px; }
body.deepsea-large .deepsea-side { display: none !important; }
""" % {"fonts": FONT_STACK}


#: Every live PageSupport of this kernel (one per top-level view; :func:`page_of` searches them).
_PAGES: "weakref.WeakSet[PageSupport]" = weakref.WeakSet()
#: Renders counted per page at most (a page that sends the message in a loop gains nothing).
MAX_RENDERS = 1000


class PageSupport(anywidget.AnyWidget):
    """The page's language and display size, and the accessibility pass (see the module docstring).

    ``rendered`` (kernel side only, never synced) turns True when the page says it has drawn this widget;
    ``renders`` counts those messages.

    >>> page = PageSupport()
    >>> page.rendered
    False
    >>> page._handle_custom_msg({"event": "rendered"}, [])
    >>> page.rendered, page.renders
    (True, 1)
    """

    _esm = _ESM
    _css = _CSS
    lang = traitlets.Unicode("en").tag(sync=True)
    display_mode = traitlets.Unicode("normal").tag(sync=True)
    rendered = traitlets.Bool(False)
    renders = traitlets.Int(0)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._owner: "weakref.ref[Any] | None" = None
        self.on_msg(self._on_page_message)
        _PAGES.add(self)

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        # Untrusted: only the one known message counts; anything else is logged and ignored.
        if isinstance(content, dict) and content.get("event") == "rendered":
            self.renders = min(self.renders + 1, MAX_RENDERS)
            self.rendered = True
        else:
            log.info("ignored a page message of type %s", type(content).__name__)

    def attach(self, owner: Any) -> None:
        """Remember the top-level view this page support belongs to (weakly; :func:`page_of` reads it)."""
        self._owner = weakref.ref(owner)

    @property
    def owner(self) -> Any:
        return self._owner() if self._owner is not None else None

    @traitlets.validate("lang")
    def _valid_lang(self, proposal: Any) -> str:
        return proposal["value"] if proposal["value"] in ("en", "ja") else "en"

    @traitlets.validate("display_mode")
    def _valid_display(self, proposal: Any) -> str:
        return proposal["value"] if proposal["value"] in DISPLAY_MODES else "normal"

    def set_state(self, sync_data: Any) -> None:
        """Ignore the browser: these traits flow kernel → page only (a visitor's message changes nothing)."""
        if sync_data:
            log.info("ignored a browser update of page traits %s", sorted(map(str, sync_data))[:5])

    def __repr__(self) -> str:
        return f"PageSupport(lang={self.lang!r}, display_mode={self.display_mode!r})"


def _descendants(widget: Any, limit: int = 5000) -> Iterator[Any]:
    """``widget`` and every widget under it through ``children`` (boxes, views), breadth first."""
    queue, seen = [widget], set()
    while queue and len(seen) < limit:
        current = queue.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        children = getattr(current, "children", None)
        if isinstance(children, (tuple, list)):
            queue.extend(children)


def page_of(widget: Any) -> PageSupport | None:
    """The :class:`PageSupport` of the top-level view that shows ``widget`` now, or ``None``.

    ``None`` when no live view with a page support holds the widget (plain Python, a widget never put in
    a view, a view without the language toggle and no parent view).

    >>> from toolkit.widgets.base import View
    >>> import ipywidgets as widgets
    >>> inner = widgets.HTML()
    >>> view = View()
    >>> view._finish([widgets.HBox([inner])])
    >>> page_of(inner) is view._page
    True
    >>> page_of(widgets.HTML()) is None
    True
    """
    for page in list(_PAGES):
        owner = page.owner
        if owner is None or getattr(page, "comm", True) is None:
            continue  # its view is gone, or the page support was closed
        if any(w is widget for w in _descendants(owner)):
            return page
    return None


def display_mode_from_query(params: dict[str, str]) -> str:
    """``?display=large`` → ``"large"``; anything else (untrusted text) → ``"normal"``."""
    value = params.get("display", "normal").strip().lower()
    return value if value in DISPLAY_MODES else "normal"
