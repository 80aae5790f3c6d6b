"""The light Chart widget, in the kernel: what it sends, what it refuses, when it asks for plotly.js."""

from __future__ import annotations

import json
import time

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


class FakeTime:
    """A clock and a timer queue for :class:`chart_module.SourceReplies`."""

    def __init__(self):
        self.now = 0.0
        self.timers: list[tuple[float, object]] = []

    def clock(self) -> float:
        return self.now

    def call_later(self, delay, function) -> None:
        self.timers.append((self.now + delay, function))

    def advance(self, seconds: float) -> None:
        self.now += seconds
        while self.timers and min(t for t, _ in self.timers) <= self.now:
            due = min(self.timers, key=lambda item: item[0])
            self.timers.remove(due)
            due[1]()


@pytest.fixture
def fake_replies(monkeypatch):
    fake = FakeTime()
    monkeypatch.setattr(chart_module, "_source_replies",
                        chart_module.SourceReplies(2.0, clock=fake.clock, call_later=fake.call_later))
    return fake


def capture_sends(chart, monkeypatch, sent):
    monkeypatch.setattr(chart, "send", lambda content, buffers=None: sent.append((chart, content)))


def test_other_custom_messages_are_ignored(fake_replies, monkeypatch):
    sent = []
    chart = Chart(bar(1))
    capture_sends(chart, monkeypatch, sent)
    chart._on_custom_message(chart, {"type": "something-else"}, [])
    chart._on_custom_message(chart, "not a dict", [])
    fake_replies.advance(10)
    assert sent == []


def test_every_reload_gets_plotly_js(fake_replies, monkeypatch):
    # One kernel, a page reloaded again and again (JupyterLab): each load asks once and must be answered.
    sent = []
    chart = Chart(bar(1))
    capture_sends(chart, monkeypatch, sent)
    for reload in range(12):
        chart._on_custom_message(chart, {"type": "need-plotly"}, [])
        fake_replies.advance(2.5)
        assert len(sent) == reload + 1, f"reload {reload} was not answered"
    assert sent[0][1]["type"] == "plotly-source" and "window.Plotly" in sent[0][1]["source"]


def test_fast_requests_wait_and_are_answered_once_per_chart_and_interval(fake_replies, monkeypatch):
    sent = []
    charts = [Chart(bar(i)) for i in range(3)]
    for chart in charts:
        capture_sends(chart, monkeypatch, sent)
    for _ in range(50):  # a loop of requests through every chart, all in the same instant
        for chart in charts:
            chart._on_custom_message(chart, {"type": "need-plotly"}, [])
    assert [c for c, _ in sent] == [charts[0]]  # at once: the first request
    replies = chart_module._source_replies
    assert replies.pending() == 3  # every chart waits once, however often it asked
    times = []
    for _ in range(20):
        before = len(sent)
        fake_replies.advance(0.5)
        if len(sent) > before:
            times.append(fake_replies.now)
    assert [c for c, _ in sent] == [charts[0], charts[1], charts[2], charts[0]]  # in the order they asked
    assert times == [2.0, 4.0, 6.0] and replies.pending() == 0  # one reply per 2 s, then quiet
    fake_replies.advance(100)
    charts[1]._on_custom_message(charts[1], {"type": "need-plotly"}, [])
    assert sent[-1][0] is charts[1] and len(sent) == 5  # after a quiet interval: answered at once


def test_queued_reply_is_sent_from_the_timer_thread_in_a_real_kernel(tmp_path):
    # The deferred reply leaves from a timer thread: check it reaches the kernel's IOPub as a comm message.
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        code = ("from toolkit.widgets import Chart\n"
                "c = Chart()\n"
                "for _ in range(3): c._on_custom_message(c, {'type': 'need-plotly'}, [])\n")
        sources = []

        def note(msg):
            data = msg["content"].get("data", {}) if msg["msg_type"] == "comm_msg" else {}
            if isinstance(data, dict) and data.get("content", {}).get("type") == "plotly-source":
                sources.append(time.monotonic())

        reply = client.execute_interactive(code, timeout=60, output_hook=note)
        assert reply["content"]["status"] == "ok" and len(sources) == 1  # the first request, at once
        deadline = time.monotonic() + 20
        while len(sources) < 2 and time.monotonic() < deadline:
            try:
                note(client.get_iopub_msg(timeout=1))
            except Exception:  # noqa: BLE001 - queue.Empty: keep waiting until the deadline
                continue
        assert len(sources) == 2, "the queued request was not answered"
        assert sources[1] - sources[0] >= 1.0  # the second one waited for the interval
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_plotly_url_only_under_voila_with_the_served_copy(monkeypatch, only_jupyter_path):
    monkeypatch.delenv("VOILA_BASE_URL", raising=False)
    assert Chart(bar(1)).plotly_url == ""  # JupyterLab / nbval: ask the kernel
    template = only_jupyter_path / "voila" / "templates" / "deepsea"
    template.mkdir(parents=True)
    monkeypatch.setenv("VOILA_BASE_URL", "/base/")
    assert Chart(bar(1)).plotly_url == ""  # Voila, but no copy: still ask the kernel
    copied = assets.ensure_plotly_asset()
    assert copied.parent == template / "static"
    assert Chart(bar(1)).plotly_url == f"/base/voila/templates/deepsea/static/plotly-{assets.plotly_version()}.min.js"


def test_repr_is_short_and_deterministic():
    assert repr(Chart(bar(1, 2))) == "Chart(traces=1, title='t')"
    assert repr(Chart()) == "Chart(traces=0)"
