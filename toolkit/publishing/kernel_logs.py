"""Keep kernel-side error reports off published pages.

A visitor can send any comm message (``comm_open`` to a bad target, a widget update of the wrong type).
ipykernel, ``comm`` and ipywidgets then report the failure *with a traceback*: as a log record (written to
the kernel's stderr, which ipykernel forwards to the page over iopub, file descriptor 2 included) or as an
iopub ``error`` message (``shell.showtraceback()``, called by ipywidgets for a failed widget update). Either
way a stranger receives server paths and library versions and learns nothing useful.

Under Voila, :class:`toolkit.publishing.kernels.CappedKernelManager` runs :func:`route_logs_to_server` in
every kernel it starts: log records go to the kernel process's original stderr — the Voila server's log,
where the operator reads them — as do Python warnings and anything written to stderr (the ``sys.stderr``
object and file descriptor 2), and a traceback raised while handling a *comm* message is logged there
instead of being sent. Tracebacks of executed cells are left alone (Voila's ``show_tracebacks=False``
already hides them when rendering). Refusals meant for the visitor are shown by the views themselves.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import Any, TextIO

FORMAT = "[kernel %(name)s] %(levelname)s %(message)s"
log = logging.getLogger("toolkit.publishing.kernel")


def server_stream() -> TextIO | None:
    """A text stream on the kernel process's stderr *before* ipykernel redirected it to iopub."""
    original_fd = getattr(sys.stderr, "_original_stdstream_copy", None)
    if isinstance(original_fd, int):
        try:
            return os.fdopen(os.dup(original_fd), "w", buffering=1, encoding="utf-8", errors="replace")
        except OSError:
            pass
    return sys.__stderr__


def route_logs_to_server() -> None:
    stream = server_stream()
    if stream is None:
        return
    to_server = logging.StreamHandler(stream)
    to_server.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    # Without a handler on the root logger, records reach logging.lastResort, which writes to the
    # *current* sys.stderr: ipykernel's iopub stream.
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(to_server)
    # Loggers with handlers of their own (the traitlets application logger used by ipywidgets).
    for logger in [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]:
        for handler in list(getattr(logger, "handlers", [])):
            if isinstance(handler, logging.StreamHandler) and not isinstance(handler, logging.FileHandler):
                handler.setStream(stream)
    # Python warnings (jupyter_client's "Message serialization failed" for a forged NaN, with a server path)
    # are written by warnings.showwarning to sys.stderr, past every logging handler: log them instead.
    logging.captureWarnings(True)
    _stderr_to_server(stream)
    _quiet_comm_tracebacks()


def _stderr_to_server(stream: TextIO) -> None:
    """Whatever the kernel writes to stderr goes to the server log: the Python object and file descriptor 2
    (ipykernel pipes the descriptor to the page; C libraries and subprocesses write there)."""
    original_fd = getattr(sys.stderr, "_original_stdstream_copy", None)
    if isinstance(original_fd, int):
        try:
            sys.stderr.flush()
            os.dup2(original_fd, 2)
        except OSError:
            pass
    sys.stderr = stream


def _quiet_comm_tracebacks() -> None:
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or getattr(shell, "_deepsea_quiet", False):
        return
    shown = shell.showtraceback

    def showtraceback(*args: Any, **kwargs: Any) -> Any:
        parent = getattr(shell, "parent_header", None) or {}
        msg_type = parent.get("header", {}).get("msg_type", "") if isinstance(parent, dict) else ""
        if msg_type.startswith("comm_"):
            log.error("a widget message failed (%s); nothing was sent to the page", msg_type,
                      exc_info=sys.exc_info())
            return None
        return shown(*args, **kwargs)

    shell.showtraceback = showtraceback
    shell._deepsea_quiet = True
