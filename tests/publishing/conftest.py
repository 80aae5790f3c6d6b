"""Fixtures for the publishing tests: real Voila servers on loopback with the repository's voila.json.

``published`` serves ``dashboards/`` exactly as ``make serve`` does (the browser suite's ``VoilaServer``);
``serve_folder(path, *options)`` serves another folder with the same configuration (used for small probe
notebooks and for a server with a tiny kernel cap).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Callable, Iterator

import pytest

from toolkit.publishing.processes import start_tied

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = ROOT / "dashboards"


def _browser_conftest():
    # tests/browser/conftest.py owns VoilaServer; load it under its own name to reuse it here.
    spec = importlib.util.spec_from_file_location("deepsea_browser_conftest", ROOT / "tests/browser/conftest.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


browser = _browser_conftest()
VoilaServer = browser.VoilaServer


def dashboard_names() -> list[str]:
    """Every dashboard notebook in ``dashboards/`` (the suite grows as games land)."""
    return sorted(p.stem for p in DASHBOARDS.glob("*.ipynb"))


def dashboard_code(name: str) -> list[str]:
    nb = json.loads((DASHBOARDS / f"{name}.ipynb").read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]


class FolderServer(VoilaServer):
    """``VoilaServer`` on another folder (same cwd, so the same voila.json and template)."""

    def __init__(self, tmp: Path, folder: Path, *extra: str):
        self.port = browser.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"voila-{self.port}.log"
        self.log = open(self.log_path, "w")
        voila = Path(sys.executable).with_name("voila")
        command = [str(voila), str(folder), f"--port={self.port}", "--no-browser", *extra]
        self.proc = start_tied(command, cwd=ROOT, env=browser.voila_env(tmp), stdout=self.log,
                               stderr=subprocess.STDOUT)
        try:
            browser.wait_for_http(self.url + "/", proc=self.proc)
        except Exception:
            self.stop()
            raise

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@pytest.fixture
def only_jupyter_path(tmp_path, monkeypatch) -> Path:
    """A Jupyter path holding ``tmp_path`` alone: the environment's installed ``deepsea`` template (and the
    plotly.js copy serving may have put in it) is out of sight of :mod:`toolkit.publishing.assets`."""
    from toolkit.publishing import assets

    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setattr(assets, "jupyter_path", lambda *parts: [str(tmp_path.joinpath(*parts))])
    return tmp_path


@pytest.fixture(scope="session")
def published(tmp_path_factory) -> Iterator[VoilaServer]:
    # The repository's configuration, except the kernel cap (tests open many pages; the cap has its own test).
    server = VoilaServer(tmp_path_factory.mktemp("published"), "--CappedKernelManager.max_kernels=0")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def serve_folder(tmp_path_factory) -> Iterator[Callable[..., FolderServer]]:
    servers: list[FolderServer] = []

    def _serve(folder: Path, *extra: str) -> FolderServer:
        server = FolderServer(tmp_path_factory.mktemp("folder"), folder, *extra)
        servers.append(server)
        return server

    yield _serve
    for server in servers:
        server.stop()


def http_get(url: str, timeout: float = 60) -> tuple[int, bytes, dict[str, str]]:
    """Status, body and headers, without following redirects and without raising on 4xx/5xx."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):  # noqa: ANN002
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers or {})


def stop_kernel(base_url: str, kernel_id: str) -> None:
    """Stop a page's kernel as its visitor may (Voila's own page does this on unload).

    ``DELETE /api/kernels/<id>`` needs only the kernel id (a capability held by that page) and an XSRF
    cookie/header pair the client chooses itself. Used to spare the shared test server's CPU and memory.
    """
    request = urllib.request.Request(f"{base_url}/api/kernels/{kernel_id}", method="DELETE",
                                     headers={"Cookie": "_xsrf=deepsea", "X-XSRFToken": "deepsea"})
    try:
        urllib.request.urlopen(request, timeout=30).close()
    except urllib.error.HTTPError as exc:
        if exc.code != 404:
            raise
