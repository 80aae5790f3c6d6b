"""The light Chart widget, in the kernel: what it sends, what it refuses, when it asks for plotly.js."""

from __future__ import annotations

import json

import plotly.graph_objects as go
import pytest

import toolkit.widgets.chart as chart_module
from toolkit.publishing import assets
from toolkit.widgets import Chart


def bar(*values):
    return go.Figure(go.Bar(x=list(range(len(values))), y=list(values)), layout={"title": {"text": "t"}})


def test_chart_sends_the_figure_json_not_plotly_js():
    chart = Chart(bar(3, 1, 2))
    state = chart.get_state()
    shipped = sum(len(json.dumps(v)) for v in state.values() if isinstance(v, (str, list, dict)))
    assert json.loads(chart.figure_json)["data"][0]["y"] == [3, 1, 2]
    # FigureWidget ships ~5 MB (all of plotly.js) per instance; the chart's whole state is a few kB.
    assert shipped < 30_000, shipped
    assert "deepsea-chart" in chart._dom_classes


def test_update_replaces_the_figure_and_figure_returns_it():
    chart = Chart(bar(1))
    chart.update(bar(5, 6))
    assert list(chart.figure.data[0].y) == [5, 6]
    assert json.loads(chart.figure_json)["data"][0]["y"] == [5, 6]
    chart.update(None)
    assert chart.figure.data == () and json.loads(chart.figure_json)["data"] == []


def test_browser_cannot_change_a_chart():
    chart = Chart(bar(1, 2))
    before = chart.figure_json
    # What a comm "update" from any visitor does in ipywidgets: set_state with the sent values.
    chart.set_state({"figure_json": '{"data": [{"type": "bar", "y": [666]}]}', "plotly_url": "http://evil/"})
    assert chart.figure_json == before and chart.plotly_url == ""


def test_plotly_source_is_sent_on_request_a_bounded_number_of_times(monkeypatch):
    sent = []
    chart = Chart(bar(1))
    monkeypatch.setattr(chart_module, "_source_replies", 0)
    monkeypatch.setattr(chart, "send", lambda content, buffers=None: sent.append(content))
    chart._on_custom_message(chart, {"type": "something-else"}, [])
    chart._on_custom_message(chart, "not a dict", [])
    assert sent == []
    for _ in range(chart_module.MAX_SOURCE_REPLIES + 5):
        chart._on_custom_message(chart, {"type": "need-plotly"}, [])
    assert len(sent) == chart_module.MAX_SOURCE_REPLIES
    assert sent[0]["type"] == "plotly-source" and "window.Plotly" in sent[0]["source"]


def test_plotly_url_only_under_voila_with_the_served_copy(monkeypatch, tmp_path):
    monkeypatch.delenv("VOILA_BASE_URL", raising=False)
    assert Chart(bar(1)).plotly_url == ""  # JupyterLab / nbval: ask the kernel
    template = tmp_path / "voila" / "templates" / "deepsea"
    template.mkdir(parents=True)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    assert Chart(bar(1)).plotly_url == ""  # Voila, but no copy: still ask the kernel
    copied = assets.ensure_plotly_asset()
    assert copied.parent == template / "static"
    assert Chart(bar(1)).plotly_url == f"/base/voila/templates/deepsea/static/plotly-{assets.plotly_version()}.min.js"


def test_repr_is_short_and_deterministic():
    assert repr(Chart(bar(1, 2))) == "Chart(traces=1, title='t')"
    assert repr(Chart()) == "Chart(traces=0)"
