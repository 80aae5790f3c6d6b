"""benchmarks/export_charts.py: every dashboard chart in self-contained HTML, plotly.js once per file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_export_writes_each_chart_with_plotly_js_once(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "export_charts.py"), "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    files = sorted(tmp_path.glob("*.html"))
    if not files:
        assert "no dashboard shows a chart" in run.stdout
        return
    combined = tmp_path / "all-charts.html"
    assert combined in files
    total = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert text.count("window.Plotly = Plotly") == 1, f"{path.name}: plotly.js not included exactly once"
        assert not re.search(r"<script[^>]*\bsrc=", text), f"{path.name} loads a script: not offline"
        charts = text.count('class="plotly-graph-div"')
        assert charts >= 1, path.name
        total += charts if path != combined else 0
    assert combined.read_text(encoding="utf-8").count('class="plotly-graph-div"') == total
