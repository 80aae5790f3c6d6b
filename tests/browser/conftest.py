"""A real Voila server on loopback (the same config as ``make serve``) and Debian's Chromium.

Fixtures:
* ``voila_url`` — base URL of one Voila server per test session, serving ``dashboards/``;
* ``open_dashboard(name, query="")`` — a Playwright page on that dashboard, returned once the view's
  ``.deepsea-root`` element is visible (cold kernels on 2 busy cores can take a while).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import pytest

from toolkit.publishing.kernels import child_kernels
from toolkit.publishing.processes import start_tied, stop_group

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("DEEPSEA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
RENDER_TIMEOUT_MS = int(os.environ.get("DEEPSEA_RENDER_TIMEOUT_MS", "120000"))
# Voila's lab template asks a CDN for Font Awesome (the deepsea template no longer does); offline that was
# two harmless console errors.
IGNORED_CONSOLE = ("ERR_NAME_NOT_RESOLVED", "net::ERR_", "Failed to load resource")

# A table's parts are separate widgets, so under load one part of a redraw can reach the page before
# another: a test waits for the redraw it reads. The frame stamps its status line, result banner, log and
# hint with ``data-moves`` (the moves shown) and writes the log after the status and the banner, so a log
# stamped like the status means the whole redraw is on the page (toolkit.widgets.table.parts.StatusLine).
FRAME_SETTLED = """(() => {
  const status = document.querySelector('.deepsea-status-line'), log = document.querySelector('.deepsea-log-body');
  return !!(status && log && status.dataset.moves === log.dataset.moves);
})()"""
# the hint line of the moves on the page (not a hint left from before the last move)
FRAME_HINT_CURRENT = """(() => {
  const status = document.querySelector('.deepsea-status-line'), hint = document.querySelector('.deepsea-hint-line');
  return !!(status && hint && hint.dataset.moves === status.dataset.moves);
})()"""


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def voila_command(port: int, *extra: str) -> list[str]:
    voila = Path(sys.executable).with_name("voila")
    return [str(voila), "dashboards", f"--port={port}", "--no-browser", *extra]


def voila_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["JUPYTER_PATH"] = str(ROOT / "share" / "jupyter")
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        env[var] = str(tmp / sub)
    # every kernel of the server shares one table store (issue 27: each page is its own kernel)
    env["DEEPSEA_TABLES_URL"] = tables_url(tmp)
    return env


def tables_url(tmp: Path) -> str:
    """The shared-table store of the Voila server started in ``tmp`` (tests read it too)."""
    return "sqlite:///" + str(tmp / "tables.sqlite3")


def wait_for_http(url: str, timeout: float = 90.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"Voila exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.3)
    raise RuntimeError(f"Voila did not answer at {url} within {timeout:.0f} s")


class VoilaServer:
    """A Voila process in its own session, killed if pytest dies (``start_tied``); ``stop`` stops its kernels too."""

    def __init__(self, tmp: Path, *extra: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"voila-{self.port}.log"
        self.tables_url = tables_url(tmp)
        self.log = open(self.log_path, "w")
        self.proc = start_tied(voila_command(self.port, *extra), cwd=ROOT, env=voila_env(tmp),
                               stdout=self.log, stderr=subprocess.STDOUT)
        try:
            wait_for_http(self.url + "/", proc=self.proc)
        except Exception:
            self.stop()
            raise

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def kernel_ids(self) -> set[str]:
        """Ids of this server's live kernel processes (its children running ``ipykernel -f kernel-<id>.json``)."""
        return {k for k in child_kernels(self.proc.pid) if not k.startswith("pid-")}

    def stop(self) -> None:
        stop_group(self.proc)
        self.log.close()


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory) -> Iterator[VoilaServer]:
    if not Path(CHROMIUM).exists() or shutil.which("voila", path=str(Path(sys.executable).parent)) is None:
        pytest.fail(f"browser tests need {CHROMIUM} and voila: apt-get install -y chromium")
    # No kernel cap for the test server: closed pages keep their kernel until culled, and one test
    # session opens more pages than the published cap (the cap has its own tests).
    server = VoilaServer(tmp_path_factory.mktemp("voila"), "--CappedKernelManager.max_kernels=0")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def voila_url(voila_server) -> str:
    return voila_server.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True, "args": CHROMIUM_ARGS}


@pytest.fixture
def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error"
            and not any(s in msg.text for s in IGNORED_CONSOLE) else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.fixture
def open_dashboard(page, voila_url, console_errors) -> Callable[..., object]:
    """``open_dashboard("crew-mission", "seed=3")`` -> the page, once ``.deepsea-root`` is visible."""

    def _open(name: str, query: str = ""):
        page.set_default_timeout(30000)
        url = f"{voila_url}/voila/render/{name}.ipynb" + (f"?{query}" if query else "")
        page.goto(url, wait_until="domcontentloaded", timeout=RENDER_TIMEOUT_MS)
        page.locator(".deepsea-root").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_MS)
        return page

    return _open
