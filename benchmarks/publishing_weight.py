"""Page weight of a chart: go.FigureWidget against toolkit.widgets.Chart.

Prints the bytes each widget puts in its state (what the kernel sends to the page over the websocket when
the widget is displayed) for a typical small figure, and the one-off plotly.js download of the light path.

    .venv/bin/python benchmarks/publishing_weight.py
"""

from __future__ import annotations

import gzip
import json

import plotly.graph_objects as go

from toolkit.publishing.assets import plotly_source
from toolkit.widgets.chart import Chart


def state_bytes(widget) -> int:
    state = widget.get_state()
    return sum(len(v) if isinstance(v, (bytes, memoryview)) else len(json.dumps(v, default=str).encode())
               for v in state.values())


def main() -> None:
    figure = go.Figure(go.Bar(x=["silver", "gold", "red", "black", "blue"], y=[7, 3, 1, 4, 4]),
                       layout={"title": {"text": "bag"}})
    heavy, light = state_bytes(go.FigureWidget(figure)), state_bytes(Chart(figure))
    raw = plotly_source().read_bytes()
    plotly_js, gzipped = len(raw), len(gzip.compress(raw, 6))
    print("| widget | bytes per chart over the websocket | plotly.js per page |")
    print("|---|---:|---:|")
    print(f"| go.FigureWidget | {heavy:,} | inside every chart |")
    print(f"| toolkit Chart | {light:,} | {plotly_js:,} once, HTTP, cacheable (kernel websocket if not served) |")
    for charts in (1, 3):
        print(f"{charts} chart(s) on a page: FigureWidget {charts * heavy / 1e6:.1f} MB websocket; "
              f"Chart {charts * light / 1e3:.1f} kB websocket + {plotly_js / 1e6:.1f} MB once "
              f"({gzipped / 1e6:.2f} MB gzip-compressed by a reverse proxy)")


if __name__ == "__main__":
    main()
