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
* installs one stylesheet: a font stack that names the common Japanese system fonts (a visitor with any
  of them never sees empty boxes), Japanese line breaking that does not split words, and button colours
  with WCAG AA contrast (ipywidgets' orange and cyan buttons with white text are 2–3:1).

It carries no game data, so it cannot leak a hidden card; its two traits flow kernel → page only.
"""

from __future__ import annotations

import logging
from typing import Any

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

let observer = null;
let pending = false;
function watch() {
  if (observer) return;
  const run = () => { pending = false; try { nameControls(document.body); } catch (e) { /* never break the page */ } };
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
  // The element is attached to the view after render: retry for a few frames until the root is found.
  let tries = 0;
  const settle = () => { if (!apply() && tries++ < 60) requestAnimationFrame(settle); };
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
/* ?display=large: a projector at the back of a classroom */
body.deepsea-large { --jp-widgets-font-size: 20px; --jp-widgets-inline-height: 40px;
  --jp-widgets-inline-label-width: 12em; --jp-ui-font-size1: 20px; --jp-content-font-size1: 20px; }
body.deepsea-large .deepsea-root { font-size: 20px; }
body.deepsea-large .deepsea-side { display: none !important; }
""" % {"fonts": FONT_STACK}


class PageSupport(anywidget.AnyWidget):
    """The page's language and display size, and the accessibility pass (see the module docstring)."""

    _esm = _ESM
    _css = _CSS
    lang = traitlets.Unicode("en").tag(sync=True)
    display_mode = traitlets.Unicode("normal").tag(sync=True)

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


def display_mode_from_query(params: dict[str, str]) -> str:
    """``?display=large`` → ``"large"``; anything else (untrusted text) → ``"normal"``."""
    value = params.get("display", "normal").strip().lower()
    return value if value in DISPLAY_MODES else "normal"
