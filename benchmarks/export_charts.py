"""Static export of every dashboard's charts: plotly HTML files for slides and offline classrooms.

Each dashboard in dashboards/ is run in this process (no kernel, no server), every
:class:`toolkit.widgets.Chart` it builds is recorded, and its figures are written to one self-contained
HTML file per dashboard, with plotly.js included **once** per file (so a file works offline, from a USB
stick, and can be embedded in slides), plus ``all-charts.html`` holding every dashboard's charts.

    .venv/bin/python benchmarks/export_charts.py [--out build/charts] [--query "seed=3&lang=ja"] [names...]

``--query`` is given to the dashboards as their URL query string (e.g. a shared position).
"""

from __future__ import annotations

import argparse
import html
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DASHBOARDS = ROOT / "dashboards"


def collect_figures(name: str) -> list:
    """Run a dashboard's code cells and return the last figure of every Chart it created, in order."""
    from toolkit.widgets import chart as chart_module

    shown: dict[int, object] = {}
    original = chart_module.Chart.update

    def recording_update(self, figure):
        original(self, figure)
        shown[id(self)] = self.figure

    chart_module.Chart.update = recording_update
    try:
        nb = json.loads((DASHBOARDS / f"{name}.ipynb").read_text(encoding="utf-8"))
        namespace: dict = {"__name__": f"dashboard_{name.replace('-', '_')}"}
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                exec(compile(source, f"dashboards/{name}.ipynb", "exec"), namespace)  # noqa: S102 - our own notebooks
    finally:
        chart_module.Chart.update = original
    return [fig for fig in shown.values() if fig is not None and len(fig.data)]


def page(title: str, sections: list[tuple[str, list]], plotly_js: str) -> str:
    import plotly.io as pio

    body = []
    for heading, figures in sections:
        body.append(f"<h2>{html.escape(heading)}</h2>")
        body += [f'<div class="chart">{pio.to_html(f, full_html=False, include_plotlyjs=False)}</div>'
                 for f in figures]
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<script>{plotly_js}</script><style>body{{font-family:sans-serif;margin:2em}}"
            f".chart{{margin-bottom:2em}}</style></head><body><h1>{html.escape(title)}</h1>"
            + "".join(body) + "</body></html>")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "charts")
    parser.add_argument("--query", default="", help="URL query string given to the dashboards")
    args = parser.parse_args()
    os.environ["QUERY_STRING"] = args.query
    os.environ.pop("VOILA_BASE_URL", None)
    from toolkit.publishing.assets import plotly_source

    plotly_js = plotly_source().read_text(encoding="utf-8")
    args.out.mkdir(parents=True, exist_ok=True)
    names = args.names or sorted(p.stem for p in DASHBOARDS.glob("*.ipynb"))
    everything = []
    for name in names:
        try:
            figures = collect_figures(name)
        except Exception as exc:  # noqa: BLE001 - one broken dashboard must not stop the export
            print(f"skipped {name}: {type(exc).__name__}: {str(exc)[:160]}")
            continue
        if not figures:
            continue
        meta = json.loads((DASHBOARDS / f"{name}.ipynb").read_text(encoding="utf-8"))["metadata"].get("deepsea", {})
        title = meta.get("title", {}).get("en", name)
        path = args.out / f"{name}.html"
        path.write_text(page(title, [(title, figures)], plotly_js), encoding="utf-8")
        everything.append((title, figures))
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {len(figures)} chart(s), "
              f"{path.stat().st_size / 1e6:.1f} MB")
    if everything:
        path = args.out / "all-charts.html"
        path.write_text(page("Deep Sea Rules Lab — charts", everything, plotly_js), encoding="utf-8")
        print(f"{path}: {sum(len(f) for _, f in everything)} chart(s), plotly.js once, "
              f"{path.stat().st_size / 1e6:.1f} MB")
    else:
        print("no dashboard shows a chart")


if __name__ == "__main__":
    main()
