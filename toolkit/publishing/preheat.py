"""Voila's preheat protocol, from the kernel's side: which page request a pre-heated kernel serves.

A normal Voila kernel starts for one request and finds its query string in ``QUERY_STRING``. With
``voila --preheat_kernel=True`` a pool of kernels is started, and each runs its notebook, *before* anyone
asks for the page, so that variable is empty. When Voila gives a pooled kernel to a visitor it hands the
request over through the websocket ``/voila/query/<kernel id>`` (``voila.request_info_handler.
RequestInfoSocketHandler``): one JSON message, the request's CGI-style variables (``QUERY_STRING``,
``SCRIPT_NAME``, ``SERVER_NAME``, ...).

:func:`page_query_string` is what a dashboard calls (through ``toolkit.widgets.base.query_params``): in a
pre-heated kernel it blocks until that message arrives, so a view built in the dashboard's cell sees the
visitor's ``?seed=…``. The pooled kernel has done its imports, the view is built only once the request is
known, and Voila sends the page as soon as that cell finishes.

This module speaks the protocol of ``voila.utils.get_query_string()`` itself instead of calling it:
importing ``voila.utils`` pulls in Jupyter Server and JupyterLab Server, which cost every pooled kernel ~3.7
CPU seconds and ~45 MiB RSS (measured with ``/usr/bin/time``), and its helper thread prints connection
errors to the kernel's stderr, i.e. into the visitor's page. Failures go to the server log
(:mod:`toolkit.publishing.kernel_logs`); after them the dashboard opens with its defaults rather than
hanging. Nothing here imports ipywidgets; ``websockets`` is imported only by a pre-heated kernel.
"""

from __future__ import annotations

import json
import logging
import os
import time

log = logging.getLogger("toolkit.publishing.preheat")

#: how often a pre-heated kernel tries to reach Voila's request-info websocket before it gives up
PREHEAT_CONNECT_ATTEMPTS = 3

# The query string a pre-heated kernel received from Voila (None until its page was requested).
_preheated_query: str | None = None


def is_preheated() -> bool:
    """Whether this kernel was started for Voila's pool (``VOILA_PREHEAT=True``) rather than for a request."""
    return os.environ.get("VOILA_PREHEAT") == "True"


def page_query_string() -> str:
    """The query string of the page this kernel serves.

    Outside a pre-heated kernel (a kernel started for its request, JupyterLab, nbval, plain Python) this is
    ``QUERY_STRING`` (or ""). In a pre-heated kernel the first call blocks until Voila sends the visitor's
    request (:func:`wait_for_voila_request`); later calls return the same answer at once.
    """
    if not is_preheated():
        return os.environ.get("QUERY_STRING", "")
    global _preheated_query
    if _preheated_query is None:
        _preheated_query = wait_for_voila_request()
    return _preheated_query


def voila_query_url() -> str | None:
    """The address of Voila's request-info websocket for this kernel, built from the kernel's environment as
    ``voila.utils.wait_for_request`` (Voila 0.5) builds it; None without ``VOILA_KERNEL_ID``."""
    kernel_id = os.environ.get("VOILA_KERNEL_ID")
    if not kernel_id:
        return None
    protocol = os.environ.get("VOILA_WS_PROTOCOL", "ws")
    host = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{host}:{port}{base}voila/query/{kernel_id}"


def wait_for_voila_request() -> str:
    """Block until Voila sends this pre-heated kernel its request; return the query string.

    The request's variables join the environment (as in a kernel started for the request). A refused,
    timed-out or closed connection, or a message that is not a JSON object, is logged and retried
    (:data:`PREHEAT_CONNECT_ATTEMPTS` attempts, backing off 1 s, 2 s, ...); after that the answer is ""
    (the dashboard's defaults). Never raises.
    """
    url = voila_query_url()
    if url is None:
        log.warning("preheated kernel without VOILA_KERNEL_ID: the page's query string is unknown")
        return os.environ.get("QUERY_STRING") or ""
    from websockets.sync.client import connect  # only preheated kernels need it

    for attempt in range(1, PREHEAT_CONNECT_ATTEMPTS + 1):
        try:
            # A pooled kernel may wait hours for its visitor: no receive timeout and no keepalive pings
            # of ours (a server busy starting kernels must not make us drop the line); no proxy from
            # the environment for a loopback address.
            with connect(url, open_timeout=10, close_timeout=1, ping_interval=None, proxy=None,
                         max_size=2**20) as ws:
                info = json.loads(ws.recv())
        except Exception as exc:  # noqa: BLE001 - refused, timed out, closed, not JSON: retry, then give up
            log.warning("waiting for the page request at %s failed (attempt %d): %s", url, attempt, exc)
            if attempt < PREHEAT_CONNECT_ATTEMPTS:
                time.sleep(attempt)
            continue
        if isinstance(info, dict):
            # Like Voila: the request's variables (QUERY_STRING, SCRIPT_NAME, SERVER_NAME, ...) join the
            # environment, as in a kernel started for the request.
            for key, value in info.items():
                if isinstance(key, str) and isinstance(value, str):
                    os.environ[key] = value
            return str(info.get("QUERY_STRING", ""))
        log.warning("unexpected request info from Voila: %r", type(info).__name__)
    return ""


__all__ = ["PREHEAT_CONNECT_ATTEMPTS", "is_preheated", "page_query_string", "voila_query_url",
           "wait_for_voila_request"]
