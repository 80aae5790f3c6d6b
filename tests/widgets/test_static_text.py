"""What a notebook shows for a view before its cell runs, and on static renderers (GitHub, nbviewer, nbconvert).

ipywidgets stores ``repr(widget)`` as the output's ``text/plain``, which read
``PinkNineTrickView(children=(LanguageToggle(_dom_classes=...``. Views and charts now store a sentence:
what they are, and (English / Japanese) that running the cell makes them interactive.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import plotly.graph_objects as go
import pytest

import toolkit.widgets
from toolkit.core import i18n
from toolkit.widgets import Chart
from toolkit.widgets.base import View, static_text, view_summary
from toolkit.widgets.crew.trick import PinkNineTrickView

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
HINTS = {key: [i18n.translate(key, lang, {}) for lang in ("en", "ja")] for key in ("ui.static_view", "ui.static_chart")}
REPR_MARKS = ("(children=", "_dom_classes", "Chart(traces=", "layout=Layout")


def all_view_classes() -> list[type]:
    for module in pkgutil.walk_packages(toolkit.widgets.__path__, "toolkit.widgets."):
        importlib.import_module(module.name)

    def below(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)

    return sorted({c for c in below(View) if c.__module__.startswith("toolkit.")},
                  key=lambda c: (c.__module__, c.__name__))


def plain_text(widget) -> str:
    bundle = widget._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert WIDGET_VIEW in data  # still a live widget where widgets work
    return data["text/plain"]


def test_a_view_stores_what_it_is_and_how_to_use_it():
    text = plain_text(PinkNineTrickView())
    assert text.startswith("PinkNineTrickView: The rule text's pink-9 example on a table")
    assert all(hint in text for hint in HINTS["ui.static_view"])
    assert not any(mark in text for mark in REPR_MARKS)
    assert text == plain_text(PinkNineTrickView(lang="ja"))  # deterministic: nbval compares it


@pytest.mark.parametrize("cls", all_view_classes(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_view_class_has_a_summary(cls):
    summary = view_summary(cls)
    assert summary and len(summary) < 400 and "``" not in summary
    assert static_text(f"{cls.__name__}: {summary}").count(" — ") >= 1


def test_a_chart_stores_its_title():
    text = plain_text(Chart(go.Figure(layout={"title": {"text": "Win rate"}})))
    assert text.startswith("'Win rate' — ") and all(hint in text for hint in HINTS["ui.static_chart"])
    assert plain_text(Chart()).startswith("Chart — ")
    assert repr(Chart()) == "Chart(traces=0)"  # repr itself is unchanged (debugging, logs)


COMMITTED = sorted((ROOT / "notebooks").rglob("*.ipynb"))


OURS = tuple(f"{cls.__name__}(" for cls in all_view_classes()) + ("Chart(",)


@pytest.mark.parametrize("path", COMMITTED, ids=[str(p.relative_to(ROOT)) for p in COMMITTED])
def test_committed_view_outputs_read_as_sentences(path):
    # Our views and charts store a sentence (re-execute a notebook whose output still holds a repr); plain
    # ipywidgets such as a progress bar keep their own short repr.
    nb = json.loads(path.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW not in data:
                continue
            text = "".join(data.get("text/plain", ""))
            assert not text.startswith(OURS) and "(children=" not in text, f"{path.name}: {text[:80]}"
