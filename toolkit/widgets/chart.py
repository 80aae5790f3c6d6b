"""How views show a plotly figure. The one place that decides how a chart reaches the browser.

Measured (benchmarks/publishing_weight.py, docs/publishing.md): a ``go.FigureWidget`` carries all of
plotly.js (~5 MB) in its ``_esm`` trait, so every chart on every page view pushes 5 MB through the
kernel websocket and the JSON decoder of the page. :class:`Chart` instead sends only the figure's JSON
(a few kB) and a ~4 kB module; plotly.js itself is loaded **once per page**:

1. under Voila, from ``plotly_url`` — a static file of the ``deepsea`` template
   (``voila/templates/deepsea/static/plotly-<version>.min.js``, copied from the installed plotly package
   by :func:`toolkit.publishing.assets.ensure_plotly_asset`; cacheable and gzip-compressed by the server);
2. otherwise (JupyterLab, classic notebook, a Voila started without the asset), the page asks the
   kernel for the source with one custom message and the kernel answers once.

The browser can never change a chart: :meth:`Chart.set_state` ignores every state update it sends (a
visitor can send any comm message to any widget) and the only custom message it understands is the
plotly.js request. Every such request is answered — a page that is reloaded forgets plotly.js and asks
again, as often as it is reloaded — but one kernel sends at most one copy per
:data:`SOURCE_REPLY_INTERVAL` (see :class:`SourceReplies`), so the 60-byte request cannot make the
kernel stream megabytes without pause.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable

import anywidget
import traitlets

log = logging.getLogger("toolkit.widgets.chart")

# Seconds between two plotly.js replies of one kernel. One page load needs one reply; a reload, another
# tab, or JupyterLab reconnecting after a restart of the page each need one more, and all must be answered.
# A request arriving sooner waits for the interval's end instead of being refused.
SOURCE_REPLY_INTERVAL = 2.0


def _call_later(delay: float, function: Callable[[], None]) -> None:
    # A daemon thread: comm messages may be sent from any thread (ipykernel queues them for its IOPub thread),
    # and a kernel never waits for a pending reply to exit.
    timer = threading.Timer(delay, function)
    timer.daemon = True
    timer.start()


class SourceReplies:
    """Answers every plotly.js request of one kernel, with at most one 4.8 MB reply per ``interval``.

    An earlier design answered three requests per kernel and then refused in silence, so in JupyterLab the
    charts broke for good after the third reload of the page. Now nothing is refused: what is bounded is
    the rate. A request in the interval after a reply is queued; queued requests are answered one per
    interval, once per chart (a chart's reply reaches every page that shows it, and the page waits for
    the reply of the chart that asked). So a visitor sending requests in a loop gets ~2.4 MB/s at most,
    about what reloading the page costs, and every real page gets its copy within a few seconds.

    >>> sent, clock = [], [0.0]
    >>> replies = SourceReplies(2.0, clock=lambda: clock[0], call_later=lambda delay, f: None)
    >>> replies.request("chart A", sent.append); replies.request("chart B", sent.append)
    >>> sent, replies.pending()
    (['chart A'], 1)
    >>> clock[0] = 2.0; replies.flush(); sent
    ['chart A', 'chart B']
    """

    def __init__(self, interval: float = SOURCE_REPLY_INTERVAL, clock: Callable[[], float] = time.monotonic,
                 call_later: Callable[[float, Callable[[], None]], None] = _call_later):
        self.interval = interval
        self._clock = clock
        self._call_later = call_later
        self._lock = threading.Lock()
        self._last = float("-inf")
        self._queue: dict[int, tuple[Any, Callable[[Any], None]]] = {}
        self._scheduled = False

    def pending(self) -> int:
        """How many charts wait for a reply."""
        with self._lock:
            return len(self._queue)

    def request(self, chart: Any, send: Callable[[Any], None]) -> None:
        """``chart`` asked for plotly.js: ``send(chart)`` now, or as soon as the interval allows."""
        with self._lock:
            now = self._clock()
            if not self._queue and now - self._last >= self.interval:
                self._last = now
                due = True
            else:
                due = False
                self._queue.setdefault(id(chart), (chart, send))
                log.info("plotly.js request queued (%d waiting): one reply per %.1f s", len(self._queue),
                         self.interval)
                self._schedule(now)
        if due:
            send(chart)

    def flush(self) -> None:
        """Send the oldest queued reply if the interval has passed; schedule the next one."""
        with self._lock:
            self._scheduled = False
            now = self._clock()
            if not self._queue:
                return
            if now - self._last < self.interval:
                self._schedule(now)
                return
            key = next(iter(self._queue))
            chart, send = self._queue.pop(key)
            self._last = now
            if self._queue:
                self._schedule(now)
        send(chart)

    def _schedule(self, now: float) -> None:
        # Called with the lock held.
        if not self._scheduled:
            self._scheduled = True
            self._call_later(max(0.0, self._last + self.interval - now), self.flush)


_source_replies = SourceReplies()

_ESM = r"""
const KEY = "__deepseaPlotly";

function runSource(source) {
  // plotly.min.js is a UMD bundle: with no module/exports/define in scope it sets window.Plotly.
  new Function("module", "exports", "define", source)(undefined, undefined, undefined);
  return window.Plotly;
}

async function fromUrl(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error("plotly.js not served at " + url + " (" + response.status + ")");
  return runSource(await response.text());
}

function fromKernel(model) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the kernel did not send plotly.js")), 60000);
    const onMessage = (msg) => {
      if (!msg || msg.type !== "plotly-source" || typeof msg.source !== "string") return;
      clearTimeout(timer);
      model.off("msg:custom", onMessage);
      try { resolve(runSource(msg.source)); } catch (err) { reject(err); }
    };
    model.on("msg:custom", onMessage);
    model.send({ type: "need-plotly" });
  });
}

function plotly(model) {
  if (window.Plotly && window.Plotly.react) return Promise.resolve(window.Plotly);
  if (!window[KEY]) {
    // One promise per page: every chart on the page waits for the same single download.
    window[KEY] = (async () => {
      const url = model.get("plotly_url");
      if (url) {
        try { return await fromUrl(url); }
        catch (err) { console.warn("deepsea chart: " + err.message + "; asking the kernel instead"); }
      }
      return await fromKernel(model);
    })();
    window[KEY].catch(() => { window[KEY] = undefined; });
  }
  return window[KEY];
}

function render({ model, el }) {
  const plot = document.createElement("div");
  plot.className = "deepsea-chart-plot";
  el.appendChild(plot);
  let alive = true;
  const draw = async () => {
    let figure;
    try { figure = JSON.parse(model.get("figure_json") || "{}"); } catch (err) { return; }
    const Plotly = await plotly(model);
    if (!alive) return;
    // Width follows the page (below); the height is the figure's own. Plotly's "responsive" option
    // recomputed both on a window resize and, after a redraw, measured the plot at 0 px high.
    const layout = Object.assign({}, figure.layout || {});
    if (plot.clientWidth > 0 && layout.width === undefined) layout.width = plot.clientWidth;
    await Plotly.react(plot, figure.data || [], layout, { displaylogo: false });
    drawnWidth = plot.clientWidth;
  };
  let drawnWidth = 0;
  const resized = new ResizeObserver(() => {
    const width = plot.clientWidth;
    if (!alive || !window.Plotly || !plot._fullLayout || width <= 0 || width === drawnWidth) return;
    drawnWidth = width;
    window.Plotly.relayout(plot, { width }).catch(() => {});
  });
  resized.observe(el);
  const redraw = () => draw().catch((err) => {
    plot.textContent = "Chart unavailable / グラフを表示できません: " + err.message;
  });
  model.on("change:figure_json", redraw);
  redraw();
  return () => {
    alive = false;
    resized.disconnect();
    model.off("change:figure_json", redraw);
    if (window.Plotly && window.Plotly.purge) window.Plotly.purge(plot);
  };
}

export default { render };
"""

_CSS = """
/* the drawn plot's fixed width must never hold its box open: the box follows the page, the plot follows it */
.deepsea-chart { width: 100%; max-width: 100%; min-width: 0; overflow: hidden; }
.deepsea-chart-plot { width: 100%; min-width: 0; overflow: hidden; }
"""

PLOTLY_ASSET_NAME = "plotly-{version}.min.js"


def plotly_source_path() -> Path:
    """The plotly.js bundle of the installed plotly package (the version the figure JSON is made for)."""
    import plotly

    return Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


@functools.lru_cache(maxsize=1)
def _plotly_source_text() -> str:
    # Read once per kernel that needs it (4.8 MB), not once per reply.
    return plotly_source_path().read_text(encoding="utf-8")


def plotly_asset_url() -> str:
    """Where the page can fetch plotly.js, or ``""`` to ask the kernel.

    Only under Voila (it gives kernels ``VOILA_BASE_URL``) and only when the template's static copy of
    the installed version exists: a stale or missing copy would draw with the wrong plotly.js.
    """
    base = os.environ.get("VOILA_BASE_URL")
    if base is None:
        return ""
    from toolkit.publishing.assets import find_plotly_asset

    asset = find_plotly_asset()
    if asset is None:
        return ""
    return f"{base.rstrip('/')}/voila/templates/deepsea/static/{asset.name}"


class Chart(anywidget.AnyWidget):
    """A plotly figure in a view: ``Chart(fig)``, ``chart.update(fig)``, ``chart.figure``.

    Builders in ``toolkit.plots`` return plain ``go.Figure`` objects (or, for charts redrawn often, plain
    figure dicts); this widget sends their JSON and lets the page draw them with one shared copy of
    plotly.js (see the module docstring). ``figure`` is the last figure given, as a ``go.Figure``: change
    a chart with :meth:`update`, not by mutating it.
    """

    _esm = _ESM
    _css = _CSS
    figure_json = traitlets.Unicode("{}").tag(sync=True)
    plotly_url = traitlets.Unicode("").tag(sync=True)

    def __init__(self, figure: Any = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-chart")
        self._figure: Any = None
        self._validated: Any = None
        self.plotly_url = plotly_asset_url()
        self.on_msg(self._on_custom_message)
        self.update(figure)

    def update(self, figure: Any) -> None:
        """Show ``figure``: a ``go.Figure``, a figure dict (``{"data": [...], "layout": {...}}``), or ``None``
        for an empty chart.

        A dict is sent as it is, without plotly's validation: the ``*_spec`` builders of :mod:`toolkit.plots`
        make them for views that redraw often (validating a figure costs ~20 ms; sending a dict ~0.3 ms),
        and their tests check each spec validates to the same JSON. :attr:`figure` validates it on demand.
        """
        import plotly.io as pio  # plotly only when a chart is actually shown

        if figure is None:
            figure = {"data": [], "layout": {}}
        elif not isinstance(figure, dict):
            import plotly.graph_objects as go

            if not isinstance(figure, go.Figure):
                raise TypeError(f"Chart.update expects a plotly go.Figure, a figure dict or None, "
                                f"got {type(figure).__name__}")
        # A go.Figure is kept as given, not copied: go.Figure(fig) re-validates every property of a figure its
        # builder has already validated, which was most of a chart view's language-switch time (measured with
        # cProfile on pirats-scoring and deep-blue-gem-bag). Hence "do not mutate it" in the class docstring.
        self._figure = figure
        self._validated = None
        self.figure_json = pio.to_json(figure, validate=False, pretty=False)

    @property
    def figure(self) -> Any:
        """The figure shown, as a ``go.Figure`` (a dict given to :meth:`update` is validated here, once)."""
        if isinstance(self._figure, dict):
            if self._validated is None:
                import plotly.graph_objects as go

                self._validated = go.Figure(self._figure)
            return self._validated
        return self._figure

    def set_state(self, sync_data: Any) -> None:
        """Ignore every state change sent by the browser: a chart only ever flows kernel → page."""
        if sync_data:
            log.info("ignored a browser update of chart traits %s", sorted(map(str, sync_data))[:5])

    def _on_custom_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "need-plotly":
            return
        _source_replies.request(self, Chart._send_source)

    def _send_source(self) -> None:
        self.send({"type": "plotly-source", "source": _plotly_source_text()})

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # The output's text/plain (shown before the cell runs and by static renderers): a sentence, not a repr.
        from toolkit.widgets.base import static_text, with_plain_text

        title = self._title()
        return with_plain_text(super()._repr_mimebundle_(**kwargs),
                               static_text(repr(title) if title else "Chart", "ui.static_chart"))

    def _title(self) -> str:
        fig = self._figure
        if isinstance(fig, dict):
            return ((fig.get("layout") or {}).get("title") or {}).get("text") or ""
        return fig.layout.title.text if fig is not None and fig.layout.title.text else ""

    def __repr__(self) -> str:
        # Deterministic and short: notebooks' text/plain outputs are compared by nbval, and the figure JSON
        # embeds plotly's template (version-dependent, kilobytes long).
        fig = self._figure
        if isinstance(fig, dict):
            traces = len(fig.get("data") or ())
            title = ((fig.get("layout") or {}).get("title") or {}).get("text") or ""
        else:
            traces = len(fig.data) if fig is not None else 0
            title = fig.layout.title.text if fig is not None and fig.layout.title.text else ""
        return f"Chart(traces={traces}" + (f", title={title!r})" if title else ")")
