"""What every clickable component shares: the page only says "this was clicked", the kernel decides.

A component's synced traits are written by the kernel alone (:meth:`PickComponent.set_state` ignores the
page), the page sends ``{"type": "pick", ...}`` messages, and each game's component says in
:meth:`PickComponent._check_pick` what a pick means or why it is refused. A refusal is shown in the
component's language and changes nothing; a view's callback that fails is logged and shown as a refusal,
never as a traceback in the page.

>>> class Ping(PickComponent):
...     def _check_pick(self, content):
...         return ("pong", None) if content.get("key") == "ping" else (None, "no such thing")
>>> seen = []
>>> widget = Ping()
>>> widget.on_pick(seen.append)
>>> widget.receive({"type": "pick", "key": "ping"}); widget.receive({"type": "pick", "key": "x"})
>>> seen, widget.refusal
(['pong'], 'no such thing')
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import anywidget
import traitlets
from traitlets import Dict, List, Unicode

from toolkit.core import i18n

log = logging.getLogger("toolkit.widgets.components")
HERE = Path(__file__).resolve().parent


def lean_source(source: str, comment: str) -> str:
    """A module (``comment="//"``) or stylesheet (``"/*"``) without comment lines and indentation.

    Every component instance carries its own copy of its module and stylesheet over the websocket, so
    this saves ~30 % per instance. Only whole-line ``//`` comments are dropped (a ``//`` inside a line
    may be part of a string).

    >>> lean_source("a {\\n  color: red; /* why */\\n}", "/*")
    'a{color:red;}'
    >>> lean_source("// why\\nconst x = 1;\\n  f(x);", "//")
    'const x = 1;\\nf(x);'
    """
    if comment == "/*":
        source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    lines = (line.strip() for line in source.splitlines())
    out = "\n".join(line for line in lines if line and not (comment == "//" and line.startswith("//")))
    if comment == "/*":   # CSS: no space is needed around these
        out = re.sub(r"\s*([{};,>])\s*", r"\1", out).replace(": ", ":")
    return out


def component_source(name: str) -> str:
    """The lean ESM of component module ``<name>.js`` with the shared ``base.js`` in front of it.

    An anywidget module is one standalone string (it cannot import a sibling file), so the helpers every
    component uses (``el``, ``heading``, ``statusLine``, ``mount``: focus kept across redraws) are
    shared by concatenation here.

    >>> "function mount(" in component_source("crew") and "function renderTrick(" in component_source("crew")
    True
    """
    parts = (HERE / "base.js", HERE / f"{name}.js")
    return lean_source("\n".join(p.read_text(encoding="utf-8") for p in parts), "//")


def component_css(name: str) -> str:
    """The stylesheet of component module ``name``: the shared ``base.css`` (the hint's mark), then its own.

    >>> ".deepsea-hinted" in component_css("crew")
    True
    """
    parts = (HERE / "base.css", HERE / f"{name}.css")
    return lean_source("\n".join(p.read_text(encoding="utf-8") for p in parts), "/*")


class PickComponent(anywidget.AnyWidget):
    """Base of the game components: kernel-owned state, ``pick`` messages, refusals, language.

    Subclasses set ``_esm``/``_css``, override :meth:`_check_pick` and, where labels depend on the
    language, :meth:`_render`. Generic refusals are ``components.*`` messages (``base_messages.toml``).
    """

    _kind = Unicode("").tag(sync=True)
    lang = Unicode("en").tag(sync=True)
    labels = Dict().tag(sync=True)
    refusal = Unicode("").tag(sync=True)
    #: "large" on a projector page (``?display=large``): bigger cards and type
    size = Unicode("normal").tag(sync=True)
    #: the data-keys of the objects the table's hint suggests (drawn outlined, with ``hint_label`` as their
    #: aria-description); empty when no hint is shown. Set with :meth:`mark_hint`.
    hint_keys = List(Unicode()).tag(sync=True)
    hint_label = Unicode("").tag(sync=True)

    def __init__(self, lang: str = "en", size: str = "normal", **kwargs: Any):
        super().__init__(**kwargs)
        self.size = size if size in ("normal", "large") else "normal"
        self._pick_callbacks: list[Callable[[Any], Any]] = []
        self._refuse_callbacks: list[Callable[[str], Any]] = []
        self.lang = lang if lang in i18n.LANGUAGES else "en"
        self.on_msg(self._on_page_message)

    def mark_hint(self, keys: Sequence[str] = (), label: str = "") -> None:
        """Outline the objects with these data-keys as the hint's suggestion (``()`` clears the marks).

        >>> class Ping(PickComponent):
        ...     pass
        >>> ping = Ping()
        >>> ping.mark_hint(["card:3"], "Hint: play this card")
        >>> ping.hint_keys, ping.hint_label
        (['card:3'], 'Hint: play this card')
        >>> ping.mark_hint()
        >>> ping.hint_keys
        []
        """
        if isinstance(keys, str):
            raise TypeError(f"keys must be a sequence of data-keys, not the string {keys!r}")
        self.hint_keys = [str(k) for k in keys]
        self.hint_label = str(label) if self.hint_keys else ""

    def _text(self, what: str) -> str:
        return i18n.translate(f"components.{what}", self.lang)

    # ---- the page never writes state -----------------------------------------------------------
    def set_state(self, sync_data: Mapping[str, Any]) -> None:
        """Ignore state updates from the page: every trait here is written by the kernel only."""
        log.info("ignored a state update from the page for %s: %s", type(self).__name__,
                 sorted(map(str, sync_data))[:8])

    # ---- callbacks -------------------------------------------------------------------------------
    def on_pick(self, callback: Callable[[Any], Any]) -> None:
        """``callback(value)`` runs for each accepted pick, with what :meth:`_check_pick` made of it."""
        self._pick_callbacks.append(callback)

    def on_refuse(self, callback: Callable[[str], Any]) -> None:
        """``callback(text)`` runs for each refused pick, with the reason in the component's language."""
        self._refuse_callbacks.append(callback)

    def receive(self, content: Any) -> None:
        """Handle one message from the page (also how tests click). Never raises."""
        try:
            if not isinstance(content, Mapping) or content.get("type") != "pick":
                return self._refuse(self._text("bad_message"))
            value, reason = self._check_pick(content)
            if reason is not None:
                return self._refuse(reason)
            self.refusal = ""
            for callback in list(self._pick_callbacks):
                callback(value)
        except Exception:  # noqa: BLE001 - a view callback's bug must not reach the page as a traceback
            log.exception("a pick on %s failed", type(self).__name__)
            self._refuse(self._text("failed"))
        return None

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.receive(content)

    def _refuse(self, text: str) -> None:
        self.refusal = text
        for callback in list(self._refuse_callbacks):
            try:
                callback(text)
            except Exception:  # noqa: BLE001
                log.exception("a refusal callback failed")

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        """``(value, None)`` for an accepted pick, ``(None, reason)`` for a refused one (override)."""
        return None, self._text("not_clickable")

    @traitlets.observe("lang")
    def _relabel(self, _change: Any = None) -> None:
        self.refusal = ""
        self._render()

    def _render(self) -> None:
        """Recompute the synced traits from the private copy (override)."""
