"""``query_params()`` in a preheated kernel: it waits for the visitor's request instead of reading an empty
``QUERY_STRING``, speaking to Voila's own ``RequestInfoSocketHandler`` (the installed Voila's class, served
here by a small tornado app on loopback). The non-preheated path is unchanged. The end-to-end check, a
preheated server honouring ``?seed=`` / ``?game=``, is ``tests/browser/test_publishing_preheat.py``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import time
import uuid

import pytest
import tornado.web
from voila.request_info_handler import RequestInfoSocketHandler

from publishing.conftest import browser
from toolkit.publishing import preheat
from toolkit.widgets import base

KERNEL_ID_PATTERN = r"/voila/query/(\w+-\w+-\w+-\w+-\w+)"  # Voila's route for this handler


class RequestInfoServer:
    """Voila's request-info websocket alone, on its own event loop in a thread."""

    def __init__(self):
        self.port = browser.free_port()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run():
            asyncio.set_event_loop(self.loop)
            app = tornado.web.Application([(KERNEL_ID_PATTERN, RequestInfoSocketHandler)])
            self.server = app.listen(self.port, address="127.0.0.1")
            ready.set()
            self.loop.run_forever()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        ready.wait(10)

    def send(self, kernel_id: str, payload: dict[str, str]) -> None:
        """What Voila's page handler does when it gives a pooled kernel to a visitor."""
        done = threading.Event()

        def deliver():
            RequestInfoSocketHandler.send_updates({"kernel_id": kernel_id, "payload": payload})
            done.set()

        self.loop.call_soon_threadsafe(deliver)
        assert done.wait(10)

    def waiting(self, kernel_id: str) -> bool:
        return kernel_id in RequestInfoSocketHandler._waiters

    def stop(self) -> None:
        def close():
            self.server.stop()
            self.loop.stop()

        self.loop.call_soon_threadsafe(close)
        self.thread.join(10)


@pytest.fixture
def request_info():
    server = RequestInfoServer()
    yield server
    server.stop()


@pytest.fixture
def preheated(monkeypatch, request_info):
    """A kernel environment as Voila gives a pooled kernel (VOILA_PREHEAT, port, base URL, kernel id)."""
    kernel_id = str(uuid.uuid4())
    monkeypatch.setattr(preheat, "_preheated_query", None)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_APP_PORT", str(request_info.port))
    monkeypatch.setenv("VOILA_SERVER_URL", "/")
    monkeypatch.setenv("VOILA_KERNEL_ID", kernel_id)
    # Unset, and restored to unset afterwards: the kernel code under test writes the request's variables.
    for name in (*request_payload(""), "VOILA_WS_BASE_URL", "VOILA_APP_IP", "VOILA_WS_PROTOCOL"):
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    yield kernel_id
    RequestInfoSocketHandler._cache.pop(kernel_id, None)


def request_payload(query: str) -> dict[str, str]:
    return {"QUERY_STRING": query, "SCRIPT_NAME": "/voila/render/crew-mission.ipynb", "PATH_INFO": "",
            "SERVER_SOFTWARE": "voila/test", "SERVER_PROTOCOL": "HTTP/1.1", "SERVER_PORT": "8866",
            "SERVER_NAME": "127.0.0.1"}


def wait_until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


def test_without_preheating_the_environment_is_read_as_before(monkeypatch):
    monkeypatch.setattr(preheat, "_preheated_query", None)
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    monkeypatch.setenv("QUERY_STRING", "seed=7&game=crew")
    assert base.query_params() == {"seed": "7", "game": "crew"}
    monkeypatch.delenv("VOILA_PREHEAT")  # JupyterLab, nbval, plain Python
    monkeypatch.setenv("QUERY_STRING", "seed=8")
    assert base.query_params() == {"seed": "8"}
    assert base.query_params("seed=9") == {"seed": "9"}  # an explicit query never looks elsewhere
    assert preheat._preheated_query is None


def test_a_preheated_kernel_waits_for_its_visitors_request(preheated, request_info):
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pending = pool.submit(base.query_params)
        try:
            # The kernel has connected and is blocked: nothing is known before the visitor arrives.
            wait_until(lambda: request_info.waiting(preheated))
            time.sleep(0.2)
            assert not pending.done()
            request_info.send(preheated, request_payload("seed=7&game=crew&seed=11"))
            assert pending.result(timeout=10) == {"seed": "11", "game": "crew"}
        finally:
            if not pending.done():  # never leave the waiting thread behind a failed assertion
                request_info.send(preheated, request_payload(""))
    # Like Voila's helper, the request's variables join the environment (as in a kernel started for it).
    assert os.environ["QUERY_STRING"] == "seed=7&game=crew&seed=11"
    assert os.environ["SCRIPT_NAME"] == "/voila/render/crew-mission.ipynb"
    # Later calls (a second view, a callback) answer at once: the request is sent only once.
    started = time.monotonic()
    assert base.query_params() == {"seed": "11", "game": "crew"}
    assert time.monotonic() - started < 0.5


def test_a_request_that_came_before_the_kernel_asked_is_not_lost(preheated, request_info):
    # A visitor may arrive while the pooled kernel is still importing: Voila keeps the request for it.
    request_info.send(preheated, request_payload("lang=ja"))
    assert base.query_params() == {"lang": "ja"}


def test_an_unreachable_server_gives_the_defaults_quietly(monkeypatch, preheated, request_info, capfd, caplog):
    monkeypatch.setenv("VOILA_APP_PORT", str(browser.free_port()))  # nothing listens there
    monkeypatch.setattr(preheat.time, "sleep", lambda _s: None)  # no back-off between attempts in the test
    with caplog.at_level(logging.WARNING, logger="toolkit.publishing.preheat"):
        assert base.query_params() == {}
    assert len([r for r in caplog.records if "waiting for the page request" in r.message]) == \
        preheat.PREHEAT_CONNECT_ATTEMPTS
    out, err = capfd.readouterr()
    assert out == "" and err == ""  # nothing a kernel would forward to the visitor's page
    assert base.query_params() == {}  # and no second wait


def test_the_widgets_layer_re_exports_the_protocol_it_used_to_hold():
    # Dashboards and toolkit.widgets.crew.mission import page_query_string from toolkit.widgets.base.
    assert base.page_query_string is preheat.page_query_string
    assert base.PREHEAT_CONNECT_ATTEMPTS == preheat.PREHEAT_CONNECT_ATTEMPTS


def test_the_websocket_address_follows_the_kernels_environment(monkeypatch):
    for name in ("VOILA_WS_PROTOCOL", "VOILA_APP_IP", "VOILA_APP_PORT", "VOILA_WS_BASE_URL", "VOILA_SERVER_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("VOILA_KERNEL_ID", raising=False)
    assert preheat.voila_query_url() is None
    monkeypatch.setenv("VOILA_KERNEL_ID", "k-1")
    assert preheat.voila_query_url() == "ws://127.0.0.1:8866/voila/query/k-1"
    monkeypatch.setenv("VOILA_SERVER_URL", "/lesson/")
    monkeypatch.setenv("VOILA_APP_PORT", "9000")
    assert preheat.voila_query_url() == "ws://127.0.0.1:9000/lesson/voila/query/k-1"
    monkeypatch.setenv("VOILA_WS_BASE_URL", "/ws/")  # a proxy's websocket prefix wins over the server URL
    assert preheat.voila_query_url() == "ws://127.0.0.1:9000/ws/voila/query/k-1"


def test_a_preheated_kernel_without_a_kernel_id_reads_the_environment(monkeypatch, caplog):
    monkeypatch.setattr(preheat, "_preheated_query", None)
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.delenv("VOILA_KERNEL_ID", raising=False)
    monkeypatch.setenv("QUERY_STRING", "seed=3")
    with caplog.at_level(logging.WARNING, logger="toolkit.publishing.preheat"):
        assert base.query_params() == {"seed": "3"}
    assert any("without VOILA_KERNEL_ID" in r.message for r in caplog.records)
