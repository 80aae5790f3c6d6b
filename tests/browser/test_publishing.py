"""Publishing, in Chromium: the light chart path, hostile widget messages, and a light concurrent load.

The heavy load run (ten visitors, memory per kernel, past capacity) is ``benchmarks/publishing_load.py``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import sys
import time
from pathlib import Path

import nbformat
import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = ROOT / "dashboards"
sys.path.insert(0, str(ROOT / "tests"))
from publishing.conftest import FolderServer  # noqa: E402
from publishing.kernelws import KERNEL_ID, WidgetClient  # noqa: E402
from toolkit.publishing.assets import plotly_source  # noqa: E402

PLOTLY_ASSET = re.compile(r"/plotly-[0-9.]+\.min\.js$")


def dashboard_views(name: str) -> list[type]:
    """The view classes a dashboard imports (``from toolkit.widgets.x import View``)."""
    nb = json.loads((DASHBOARDS / f"{name}.ipynb").read_text(encoding="utf-8"))
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    views = []
    for module, names in re.findall(r"from (toolkit\.widgets[\w.]*) import ([\w, ]+)", source):
        imported = importlib.import_module(module)
        views += [getattr(imported, n.strip()) for n in names.split(",") if hasattr(imported, n.strip())]
    return views


def chart_dashboards() -> list[str]:
    """Dashboards whose view class (or a view base class of ours) builds a Chart."""
    found = []
    for path in sorted(DASHBOARDS.glob("*.ipynb")):
        classes = [c for view in dashboard_views(path.stem) for c in getattr(view, "__mro__", (view,))
                   if c.__module__.startswith("toolkit.widgets.") and c.__module__ != "toolkit.widgets.base"]
        if any("Chart(" in inspect.getsource(c) for c in classes):
            found.append(path.stem)
    return found


class Traffic:
    """What a page downloads: HTTP request URLs and bytes received over the kernel websocket."""

    def __init__(self, page):
        self.urls: list[str] = []
        self.ws_bytes = 0
        page.on("request", lambda request: self.urls.append(request.url))
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        self.ws_bytes += len(payload)

    def plotly_downloads(self) -> int:
        return sum(bool(PLOTLY_ASSET.search(u.split("?")[0])) for u in self.urls)


def wait_for_charts(page, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelectorAll('.deepsea-chart .js-plotly-plot .main-svg').length >= n",
        arg=count, timeout=90000)


# ---- the chart widget on a probe page ----------------------------------------------------------------
PROBE = '''
import os
{env}
import plotly.graph_objects as go
import ipywidgets as widgets
from toolkit.widgets import Chart
first = Chart(go.Figure(go.Bar(x=["a", "b"], y=[1, 2])))
second = Chart(go.Figure(go.Scatter(x=[1, 2, 3], y=[3, 1, 2])))
more = widgets.Button(description="more")
more.add_class("probe-more")
more.on_click(lambda _b: first.update(go.Figure(go.Bar(x=["a", "b", "c", "d"], y=[4, 3, 2, 1]))))
root = widgets.VBox([more, first, second])
root.add_class("deepsea-root")
root
'''


@pytest.fixture(scope="module")
def probe_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("chart-probes")
    for name, env in (("served", ""), ("kernel-fallback", 'os.environ.pop("VOILA_BASE_URL", None)')):
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(PROBE.format(env=env))]
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, folder / f"{name}.ipynb")
    server = FolderServer(tmp_path_factory.mktemp("probe-log"), folder)
    yield server
    server.stop()


def open_probe(page, server, name: str):
    page.goto(f"{server.url}/voila/render/{name}.ipynb", wait_until="domcontentloaded", timeout=120000)
    page.locator(".deepsea-root").first.wait_for(state="visible", timeout=120000)
    return page


def test_two_charts_share_one_plotly_download_and_redraw_on_update(page, probe_server, console_errors):
    traffic = Traffic(page)
    open_probe(page, probe_server, "served")
    wait_for_charts(page, 2)
    assert traffic.plotly_downloads() == 1
    assert not any("jupyterlab-plotly" in u for u in traffic.urls)  # denied labextension (4.8 MB)
    # A FigureWidget sends ~5 MB per chart through the websocket; these two charts send kilobytes.
    assert traffic.ws_bytes < 300_000, traffic.ws_bytes
    bars = ".deepsea-chart .js-plotly-plot .point"
    assert page.locator(bars).count() == 2 + 3
    page.locator(".probe-more button, button.probe-more").first.click()
    page.wait_for_function(f"document.querySelectorAll({bars!r}).length === 4 + 3", timeout=30000)
    assert console_errors == []


def test_charts_keep_their_height_and_follow_the_width_after_a_redraw_and_a_resize(page, probe_server,
                                                                                    console_errors):
    """A teacher plugs in a projector (or narrows the window) after clicking: a chart redrawn by a click
    and then resized keeps its figure's height and takes the new width (plotly's own "responsive" mode
    measured it at 0 px high here)."""
    page.set_viewport_size({"width": 1200, "height": 900})
    open_probe(page, probe_server, "served")
    wait_for_charts(page, 2)
    bars = ".deepsea-chart .js-plotly-plot .point"
    page.locator(".probe-more button, button.probe-more").first.click()
    page.wait_for_function(f"document.querySelectorAll({bars!r}).length === 4 + 3", timeout=30000)
    sizes = ("() => [...document.querySelectorAll('.deepsea-chart-plot')]"
             ".map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])")
    before = page.evaluate(sizes)
    assert all(h > 100 for _, h in before), before
    for width in (800, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        # settled: every plot box fits the new page and its drawing has taken the box's width (checking
        # the second alone passes before the page has laid out at the new width)
        page.wait_for_function(f"() => [...document.querySelectorAll('.deepsea-chart .main-svg')].every(s => {{"
                               f" const box = s.closest('.deepsea-chart-plot').getBoundingClientRect();"
                               f" return box.right <= {width} && Math.abs(+s.getAttribute('width') - box.width) < 2;"
                               f" }})", timeout=20000)
        after = page.evaluate(sizes)
        assert [round(h) for _, h in after] == [round(h) for _, h in before], (width, before, after)
        assert all(0 < w <= width for w, _ in after), (width, after)
    assert console_errors == []


def test_without_the_served_copy_the_kernel_sends_plotly_once(page, probe_server, console_errors):
    traffic = Traffic(page)
    open_probe(page, probe_server, "kernel-fallback")
    wait_for_charts(page, 2)
    assert traffic.plotly_downloads() == 0
    size = plotly_source().stat().st_size
    # plotly.js came over the websocket once for the page, not once per chart.
    assert size * 0.9 < traffic.ws_bytes < size * 1.5, traffic.ws_bytes
    assert console_errors == []


# ---- offline: no request leaves the server -------------------------------------------------------------
# Where JupyterLab's Voila preview (Voila as a server extension) points the page's MathJax: its default URL.
CDN_MATHJAX = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/3.2.2/es5/latest.min.js"
MATH_PROBE = '''
import ipywidgets as widgets
root = widgets.VBox([widgets.Label(value="Label: $x^2$"),
                     widgets.ToggleButtons(options=["a", "b"], description="Pay $1 or $4")])
root.add_class("deepsea-root")
root
'''


def off_server(traffic: "Traffic", server_url: str) -> list[str]:
    """Requests to any other origin (data: and blob: URLs are made by the page itself)."""
    return [u for u in traffic.urls if not u.startswith((server_url + "/", "data:", "blob:"))]


@pytest.fixture(scope="module")
def math_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("math-probe")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("Markdown with a formula: $e^{i\\pi} + 1 = 0$."),
                nbformat.v4.new_code_cell(MATH_PROBE)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    nbformat.write(nb, folder / "math.ipynb")
    server = FolderServer(tmp_path_factory.mktemp("math-log"), folder, f"--Voila.mathjax_url={CDN_MATHJAX}")
    yield server
    server.stop()


def test_mathjax_is_served_by_voila_even_when_a_cdn_url_is_configured(page, math_server, console_errors):
    # With the lab template, this page fetched MathJax 2 from cdnjs (the first formula to typeset asks for
    # it); the deepsea template selects the MathJax 3 that Voila serves itself.
    traffic = Traffic(page)
    page.goto(f"{math_server.url}/voila/render/math.ipynb", wait_until="domcontentloaded", timeout=120000)
    page.locator(".deepsea-root").first.wait_for(state="visible", timeout=120000)
    page.wait_for_function("document.querySelectorAll('mjx-container').length >= 2", timeout=60000)
    assert off_server(traffic, math_server.url) == []
    assert CDN_MATHJAX not in page.content()
    assert console_errors == []


@pytest.mark.parametrize("name", chart_dashboards())
def test_dashboard_charts_render_through_the_light_path(page, open_dashboard, voila_url, name):
    traffic = Traffic(page)
    page = open_dashboard(name)
    try:
        page.locator(".deepsea-chart").first.wait_for(state="attached", timeout=20000)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError
        pytest.skip(f"{name} builds a Chart but shows none when opened (drawn after an action)")
    wait_for_charts(page, page.locator(".deepsea-chart").count())
    assert traffic.plotly_downloads() == 1
    assert traffic.ws_bytes < 2_000_000, f"{name}: {traffic.ws_bytes} bytes over the websocket"
    assert off_server(traffic, voila_url) == []  # an offline classroom gets the whole page


# ---- hostile widget messages, seen in the page ----------------------------------------------------------
def test_hostile_comm_message_shows_a_refusal_and_the_page_keeps_working(page, open_dashboard, voila_url):
    page = open_dashboard("debug-panel")
    page.locator(".deepsea-apply").first.wait_for(state="visible")
    kernel_id = KERNEL_ID.search(page.content()).group(1)
    visitor = WidgetClient(voila_url, kernel_id)
    try:
        states = visitor.states()
        by_class = {c: i for i, m in states.items() for c in m["state"].get("_dom_classes", [])}
        # A forged update (not typed in the box): an unknown move with markup, then a forged click.
        visitor.update(by_class["deepsea-move-text"], {"value": "Z99 <img src=x onerror=alert(1)>"})
        visitor.click(by_class["deepsea-apply-text"])
        visitor.settle()
        refusal = page.locator(".deepsea-refusal")
        refusal.wait_for(state="visible", timeout=30000)
        assert "Z99" in refusal.inner_text()
        assert page.locator(".deepsea-root img[src='x']").count() == 0  # shown as text, not markup
        # Wrong types and a huge number for the replay slider and the seat picker: refused, not crashed.
        visitor.update(by_class["deepsea-replay"], {"value": "x"})
        visitor.update(by_class["deepsea-replay"], {"value": 10**30})
        visitor.update(by_class["deepsea-seat"], {"index": 10**9})
        visitor.settle()
    finally:
        visitor.close()
    body = page.locator(".deepsea-root").first.inner_text()
    assert "Traceback" not in body and "Something went wrong" not in body
    # The session still plays: a real click applies the first legal move.
    status = page.locator(".deepsea-status").first
    before = status.inner_text()
    page.locator(".deepsea-apply").first.click()
    page.wait_for_function("before => document.querySelector('.deepsea-status').innerText !== before",
                           arg=before, timeout=30000)


# ---- a light concurrent load (the heavy one is a benchmark) -----------------------------------------------
def test_three_visitors_at_once_all_get_working_pages(browser, voila_url):
    names = ["index", "debug-panel"] + [p.stem for p in sorted(DASHBOARDS.glob("*.ipynb"))
                                        if p.stem not in ("index", "debug-panel")][:1]
    contexts = [browser.new_context() for _ in names]
    try:
        pages = [c.new_page() for c in contexts]
        errors: list[str] = []
        for p in pages:
            p.on("pageerror", lambda exc: errors.append(str(exc)))
        for p, name in zip(pages, names):  # all three requests are in flight before any is awaited
            p.goto(f"{voila_url}/voila/render/{name}.ipynb", wait_until="commit", timeout=120000)
        for p, name in zip(pages, names):
            p.locator(".deepsea-root").first.wait_for(state="visible", timeout=180000)
            assert "Traceback" not in p.locator(".deepsea-root").first.inner_text(), name
        assert errors == []
    finally:
        for c in contexts:
            c.close()


# ---- leaving the page ---------------------------------------------------------------------------------------
def test_the_page_uses_only_this_server_and_closing_it_stops_its_kernel(page, open_dashboard, voila_server):
    traffic = Traffic(page)
    page = open_dashboard("index")
    # No third-party host (the lab template's Font Awesome CDN links are removed by the deepsea template).
    # anywidget loads a widget's module from a blob: URL the page made itself (same origin, no network).
    local = (voila_server.url + "/", f"blob:{voila_server.url}/")
    assert traffic.urls and all(u.startswith(local) for u in traffic.urls), \
        sorted(u for u in traffic.urls if not u.startswith(local))
    kernel_id = KERNEL_ID.search(page.content()).group(1)
    assert kernel_id in voila_server.kernel_ids()
    before = len(voila_server.kernel_ids())

    # What a browser does when the visitor closes the tab: "beforeunload" runs, Voila's page sends its
    # shutdown beacon (POST /voila/api/shutdown/<id> with the page's XSRF cookie as a form field).
    page.close(run_before_unload=True)
    deadline = time.monotonic() + 15
    while kernel_id in voila_server.kernel_ids():
        assert time.monotonic() < deadline, "the closed page's kernel is still running after 15 s"
        time.sleep(0.2)
    assert len(voila_server.kernel_ids()) < before
    log = voila_server.log_text()
    assert f"403 POST /voila/api/shutdown/{kernel_id}" not in log  # the XSRF check passed
    assert f"Kernel shutdown: {kernel_id}" in log
