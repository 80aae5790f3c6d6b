"""The ``deepsea`` Voila template is installed with the package, so Voila finds it without JUPYTER_PATH.

Tried as a new user would: from the project root, with the project's environment and none of the Makefile's
JUPYTER_* variables, ``voila dashboards/crew-pink-nine-trick.ipynb`` left the browser loading for ever
(TemplateNotFound: ``voila.json`` names ``deepsea``, which was found only through the Makefile's JUPYTER_PATH).
The template now ships as the wheel's shared data (``pyproject.toml``), which ``pip install -e .`` (what
``make`` runs) copies to ``<prefix>/share/jupyter/voila/templates/deepsea`` as well.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest

from publishing.conftest import browser, http_get
from toolkit.publishing import assets
from toolkit.publishing.processes import start_tied

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = Path("share/jupyter/voila/templates/deepsea")
INSTALLED = Path(sys.prefix) / TEMPLATE
REINSTALL = "the environment's copy is missing or stale: run `make install` (or `pip install -e .`)"


def template_files(folder: Path) -> dict[str, bytes]:
    """The template's files, without the plotly.js copy that serving adds to static/ (git-ignored)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not (p.parent.name == "static" and p.name.startswith("plotly-"))}


def test_wheel_and_sdist_carry_the_template():
    hatch = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"]
    assert hatch["targets"]["wheel"]["shared-data"] == {str(TEMPLATE): str(TEMPLATE)}
    assert str(TEMPLATE) in hatch["targets"]["sdist"]["include"]
    assert {"index.html.j2", "conf.json", "tree.html", "503.html"} <= set(template_files(ROOT / TEMPLATE))


def test_the_environment_holds_the_repository_template():
    assert INSTALLED.is_dir(), REINSTALL
    assert template_files(INSTALLED) == template_files(ROOT / TEMPLATE), REINSTALL


def plain_environment(home: Path) -> dict[str, str]:
    """The project's environment as a new user has it: no JUPYTER_*/IPYTHONDIR variables, an empty home."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER_") and k != "IPYTHONDIR"}
    env["HOME"] = str(home)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


class PlainVoila(browser.VoilaServer):
    """``voila dashboards`` started from the project root without the Makefile's variables."""

    def __init__(self, tmp: Path):
        self.port = browser.free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / "voila.log"
        self.log = open(self.log_path, "w")
        command = [str(Path(sys.executable).with_name("voila")), "dashboards", f"--port={self.port}", "--no-browser",
                   "--CappedKernelManager.max_kernels=0"]
        self.proc = start_tied(command, cwd=ROOT, env=plain_environment(tmp / "home"), stdout=self.log,
                               stderr=subprocess.STDOUT)
        try:
            browser.wait_for_http(self.url + "/", proc=self.proc)
        except Exception:
            self.stop()
            raise

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="module")
def plain_voila(tmp_path_factory):
    server = PlainVoila(tmp_path_factory.mktemp("plain-voila"))
    yield server
    server.stop()


def test_voila_without_jupyter_path_renders_a_dashboard_with_the_deepsea_template(plain_voila):
    # The front page is the template's tree.html (a redirect to the gallery), as under `make serve`.
    status, body, _ = http_get(plain_voila.url + "/")
    assert status == 200 and b"deepsea-gallery-link" in body, plain_voila.log_text()[-2000:]
    status, body, _ = http_get(plain_voila.url + "/voila/render/crew-pink-nine-trick.ipynb", timeout=180)
    page = body.decode("utf-8", "replace")
    log = plain_voila.log_text()
    assert status == 200 and "TemplateNotFound" not in log, log[-2000:]
    assert "application/vnd.jupyter.widget-view+json" in page  # the view's cell ran and sent its widget
    assert '"fullMathjaxUrl": null' in page and "_xsrf=" in page  # deepsea's index.html.j2, not lab's
    assert "cdn.jsdelivr.net" not in page


def test_plotly_js_is_copied_into_the_installed_template_and_served(plain_voila):
    # CappedKernelManager copies it at start-up; with no JUPYTER_PATH the template found is the installed one.
    copy = INSTALLED / "static" / assets.asset_name()
    assert copy.is_file() and copy.stat().st_size == assets.plotly_source().stat().st_size
    url = f"{plain_voila.url}/voila/templates/deepsea/static/{assets.asset_name()}"
    with urllib.request.urlopen(url, timeout=60) as response:
        assert response.status == 200 and int(response.headers["Content-Length"]) == copy.stat().st_size
