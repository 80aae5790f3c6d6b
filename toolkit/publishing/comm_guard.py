"""A published page's widget messages are checked before ipywidgets sees them.

A visitor's browser (or a script on the kernel's websocket) can send any comm message. Voila's message
filter lets ``comm_open``, ``comm_msg`` and ``comm_close`` through (widgets need them), and ipywidgets then
trusts them: a ``comm_open`` on target ``jupyter.widget`` naming a real class (``TextareaModel`` with a
4 MB value) creates a live widget that nothing ever frees, and a widget update sets any synced trait to any
JSON value, NaN and ``null`` included. Under Voila, :class:`toolkit.publishing.kernels.CappedKernelManager`
runs :func:`install` in every kernel it starts (before the dashboard), and from then on:

* **no widget is created by the page**: the dashboards create every widget in the kernel; the only
  ``comm_open`` a page needs is ipywidgets' control channel (``jupyter.widget.control``, which asks for all
  widget states), and at most :data:`MAX_CONTROL_COMMS` of those per kernel. Every other ``comm_open`` is
  dropped before a comm exists (no reply, one line in the server log);
* **a widget update may change only what a person can change on a page**: the traits in
  :data:`PAGE_TRAITS` (a value, a selection index, an accordion's open section), each a string of at most
  :data:`MAX_TEXT` characters, a boolean, a finite number of at most 2**53 in size, or a flat list of at
  most :data:`MAX_ITEMS` of those, and of the JSON type the trait holds (a text "nan" for a float, which
  ipywidgets would cast to NaN, is refused). NaN, ±Infinity and ``null`` never reach a widget; neither do binary
  buffers, layouts, styles, options, classes or ``disabled``;
* **a custom message** (the components' clicks, the page support's "rendered", the browser storage's
  load) holds no NaN or ±Infinity and is at most :data:`MAX_CUSTOM_CHARS` characters;
* **state requests are rate-limited**: the full state (``request_states``, sent once when the page loads)
  is answered at most once per :data:`STATE_REQUEST_INTERVAL` seconds (a request sooner is answered at the
  end of the interval, and one such answer covers a whole burst), so a burst of requests cannot queue
  hundreds of copies of a large page's state in the kernel's output buffers.

A refused message changes nothing and gets no answer; the page keeps the state the kernel sent it. This
module imports neither ipywidgets nor traitlets: it reads the raw Jupyter messages.
"""

from __future__ import annotations

import asyncio
import logging
import math
import sys
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("toolkit.publishing.comm_guard")

CONTROL_TARGET = "jupyter.widget.control"
#: Control comms one kernel accepts in its life (a page opens one; a reconnecting page may open another).
MAX_CONTROL_COMMS = 16
#: Widget traits a page's own front end changes when a person uses it (ipywidgets 8: inputs and sliders
#: ``value``, selections ``index``, Accordion/Tab ``selected_index``, Play ``_playing``/``_repeat``).
PAGE_TRAITS = frozenset({"value", "index", "selected_index", "_playing", "_repeat"})
#: Longest text a page may send in one trait (the longest text field a view reads is 3,500 characters).
MAX_TEXT = 20_000
#: Most items in a list value (a multiple selection, a range slider's two ends).
MAX_ITEMS = 1_000
#: Largest integer a browser can send exactly (JavaScript numbers).
MAX_INT = 2**53
#: Longest custom message (the browser storage component sends at most 50 texts of 4,000 characters).
MAX_CUSTOM_CHARS = 250_000
STATE_REQUEST_INTERVAL = 1.0

Scalar = (str, bool, int, float)


def _scalar_problem(value: Any) -> str | None:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) and abs(value) <= MAX_INT else "a non-finite or huge number"
    if isinstance(value, int):
        return None if abs(value) <= MAX_INT else "a huge integer"
    if isinstance(value, str):
        return None if len(value) <= MAX_TEXT else f"a text of {len(value)} characters"
    return f"a {type(value).__name__}"


def update_problem(state: Any) -> str | None:
    """Why a page's widget update must be refused (``None``: it may reach the widget).

    >>> update_problem({"value": 3}), update_problem({"index": [0, 2]})
    (None, None)
    >>> update_problem({"value": float("nan")}), update_problem({"index": None})
    ('value: a non-finite or huge number', 'index: null')
    >>> update_problem({"layout": "IPY_MODEL_x"})
    'layout: not a trait a page may change'
    """
    if not isinstance(state, dict) or not state:
        return "not a state"
    for key, value in state.items():
        if key not in PAGE_TRAITS:
            return f"{str(key)[:40]}: not a trait a page may change"
        if isinstance(value, list):
            if len(value) > MAX_ITEMS:
                return f"{key}: a list of {len(value)} items"
            problems = [p for p in map(_scalar_problem, value) if p]
            if problems:
                return f"{key}: a list holding {problems[0]}"
        elif (problem := _scalar_problem(value)) is not None:
            return f"{key}: {problem}"
    return None


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def type_problem(state: dict, current: Callable[[str], Any]) -> str | None:
    """A value of another JSON type than the trait holds now (``current(key)``; ``None`` accepts any).

    A page's own front end always sends a number for a number, a text for a text: a text such as "nan"
    for a float trait (which ipywidgets would cast to NaN) or a number for a text is forged.

    >>> type_problem({"value": "nan"}, {"value": 0.7}.get), type_problem({"value": 2}, {"value": 0.7}.get)
    ('value: a text where the widget holds a number', None)
    """
    for key, value in state.items():
        held = current(key)
        if held is not None and _kind(value) != _kind(held):
            return f"{key}: {_kind(value)} where the widget holds {_kind(held)}"
    return None


def _widget_traits(comm_id: Any) -> Callable[[str], Any]:
    """The current value of a trait of the live widget behind ``comm_id`` (read without importing ipywidgets:
    a kernel that has widgets has imported it)."""
    module = sys.modules.get("ipywidgets.widgets.widget")
    widget = getattr(module, "_instances", {}).get(comm_id) if module is not None else None
    return lambda key: getattr(widget, key, None) if widget is not None else None


def custom_problem(content: Any) -> str | None:
    """Why a page's custom message must be refused: a number JSON cannot hold, or too much of it.

    >>> custom_problem({"type": "pick", "card": "P9"}), custom_problem({"items": ["a", None]})
    (None, None)
    >>> custom_problem({"type": "pick", "card": float("-inf")})
    'a non-finite number'
    """
    budget = [MAX_CUSTOM_CHARS]

    def walk(value: Any, depth: int) -> str | None:
        budget[0] -= 8
        if depth > 8:
            return "nested too deep"
        if isinstance(value, float) and not math.isfinite(value):
            return "a non-finite number"
        if isinstance(value, str):
            budget[0] -= len(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                budget[0] -= len(str(key))
                if (problem := walk(item, depth + 1)) is not None:
                    return problem
        elif isinstance(value, list):
            for item in value:
                if (problem := walk(item, depth + 1)) is not None:
                    return problem
        if budget[0] < 0:
            return f"longer than {MAX_CUSTOM_CHARS} characters"
        return None

    return walk(content, 0)


class CommGuard:
    """Wraps a kernel's ``comm_open`` and ``comm_msg`` handlers (see the module docstring)."""

    def __init__(self, comm_open: Callable[..., Any], comm_msg: Callable[..., Any],
                 clock: Callable[[], float] = time.monotonic):
        self._comm_open = comm_open
        self._comm_msg = comm_msg
        self._clock = clock
        self.control_comms: set[str] = set()
        self.control_opened = 0
        self.refused = 0
        self._last_states_answer = -math.inf
        self._states_pending = False

    def _refuse(self, what: str, why: str) -> None:
        self.refused += 1
        # The first refusals are logged in full; a flood is summarised every 100 (the log is the server's).
        if self.refused <= 20 or self.refused % 100 == 0:
            log.warning("refused a page's %s (%s); %d refused so far", what, why, self.refused)

    def comm_open(self, stream: Any, ident: Any, msg: dict) -> Any:
        content = msg.get("content") or {}
        target = content.get("target_name")
        if target != CONTROL_TARGET:
            return self._refuse("comm_open", f"target {str(target)[:60]!r}: pages create no widgets")
        if self.control_opened >= MAX_CONTROL_COMMS:
            return self._refuse("comm_open", f"more than {MAX_CONTROL_COMMS} control comms")
        self.control_opened += 1
        self.control_comms.add(str(content.get("comm_id")))
        return self._comm_open(stream, ident, msg)

    def _answer_states(self, stream: Any, ident: Any, msg: dict) -> Any:
        wait = self._last_states_answer + STATE_REQUEST_INTERVAL - self._clock()
        if wait <= 0:
            self._last_states_answer = self._clock()
            return self._comm_msg(stream, ident, msg)
        if self._states_pending:
            # A burst gets one more answer, at the end of the interval, not one per request.
            return self._refuse("request_states", f"more than one per {STATE_REQUEST_INTERVAL} s")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return self._refuse("request_states", f"more than one per {STATE_REQUEST_INTERVAL} s")
        self._states_pending = True

        def answer() -> None:
            self._states_pending = False
            self._last_states_answer = self._clock()
            try:
                self._comm_msg(stream, ident, msg)
            except Exception:  # a late answer must not break the kernel's loop
                log.exception("a delayed request_states failed")

        loop.call_later(wait, answer)
        return None

    def comm_msg(self, stream: Any, ident: Any, msg: dict) -> Any:
        content = msg.get("content") or {}
        data = content.get("data")
        if not isinstance(data, dict):
            return self._refuse("comm_msg", "no data")
        if msg.get("buffers"):
            return self._refuse("comm_msg", "binary buffers")
        method = data.get("method")
        if content.get("comm_id") in self.control_comms:
            if method == "request_states":
                return self._answer_states(stream, ident, msg)
            return self._comm_msg(stream, ident, msg)
        if method == "update":
            if data.get("buffer_paths"):
                return self._refuse("widget update", "binary buffers")
            state = data.get("state")
            problem = update_problem(state) or type_problem(state, _widget_traits(content.get("comm_id")))
            if problem is not None:
                return self._refuse("widget update", problem)
        elif method == "custom":
            if (problem := custom_problem(data.get("content"))) is not None:
                return self._refuse("custom widget message", problem)
        elif method != "request_state":
            return self._refuse("comm_msg", f"method {str(method)[:40]!r}")
        return self._comm_msg(stream, ident, msg)


def install(kernel: Any = None) -> CommGuard | None:
    """Guard the running IPython kernel's comm handlers (once; returns the guard, ``None`` outside a kernel)."""
    if kernel is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return None
        shell = get_ipython()
        kernel = getattr(shell, "kernel", None)
    handlers = getattr(kernel, "shell_handlers", None)
    if not isinstance(handlers, dict) or "comm_open" not in handlers:
        return None
    existing = getattr(kernel, "_deepsea_comm_guard", None)
    if existing is not None:
        return existing
    guard = CommGuard(handlers["comm_open"], handlers["comm_msg"])
    handlers["comm_open"] = guard.comm_open
    handlers["comm_msg"] = guard.comm_msg
    kernel._deepsea_comm_guard = guard
    return guard
