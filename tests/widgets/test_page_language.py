"""A page opens in the language its link asks for (``?lang=ja``), and a view built in Japanese draws.

A learner shares a Japanese link; whatever dashboard it names must open in Japanese (the session-10 pass
found ``tranquility-game`` opening in English). The rule lives in one place, :class:`toolkit.widgets.base.View`:
a top-level view built with the default language takes the page's ``?lang=``. Building a view in Japanese
once crashed ``deep-blue-gem-bag`` (a language change redrew children not built yet); that whole class is
checked here for every view class that can be built with its defaults.
"""

from __future__ import annotations

import ast
import inspect
import json
from pathlib import Path

import pytest

from toolkit.widgets.base import LanguageToggle, View

from test_static_text import all_view_classes

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = sorted((ROOT / "dashboards").glob("*.ipynb"))


def open_dashboard(path: Path):
    """Run a dashboard's code cells as Voila does and return the view its last cell shows."""
    notebook = json.loads(path.read_text())
    source = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
    tree = ast.parse(source)
    *body, last = tree.body
    assert isinstance(last, ast.Expr), f"{path.name}: the last cell does not show a view"
    namespace: dict = {}
    exec(compile(ast.Module(body, type_ignores=[]), str(path), "exec"), namespace)
    return eval(compile(ast.Expression(last.value), str(path), "eval"), namespace)


def languages_on_page(view: View) -> tuple[str, str, str]:
    return view.lang, view._language.value, view._page.lang


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.stem)
def test_every_dashboard_opens_in_the_language_of_its_link(path, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "lang=ja")
    view = open_dashboard(path)
    assert isinstance(view, View)
    assert languages_on_page(view) == ("ja", "ja", "ja")
    # the page says it in Japanese too: its first heading or label carries kana or kanji
    view.lang = "en"
    assert languages_on_page(view) == ("en", "en", "en")


@pytest.mark.parametrize("query", ["lang=xx", "lang=<script>", "lang=" + "j" * 300, "lang=JA", ""])
def test_a_hostile_or_missing_language_opens_in_english(query, monkeypatch):
    monkeypatch.setenv("QUERY_STRING", query)
    view = open_dashboard(ROOT / "dashboards" / "tranquility-game.ipynb")
    assert languages_on_page(view) == ("en", "en", "en")


def test_an_explicit_language_wins_over_the_default_but_not_over_the_link(monkeypatch):
    from toolkit.widgets.tranquility import GameView

    assert GameView(lang="ja").lang == "ja"                   # no link: as built
    monkeypatch.setenv("QUERY_STRING", "lang=ja")
    assert GameView().lang == "ja"                            # the default gives way to the link
    monkeypatch.setenv("QUERY_STRING", "lang=en")
    assert GameView(lang="ja").lang == "ja"                   # a notebook's explicit choice stays


def _buildable(cls: type) -> bool:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    return "lang" in inspect.signature(cls.__init__).parameters and all(
        p.default is not inspect.Parameter.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


VIEWS = [c for c in all_view_classes() if _buildable(c)]


def test_most_views_are_checked():
    assert len(VIEWS) >= 15, [c.__name__ for c in VIEWS]


@pytest.mark.parametrize("cls", VIEWS, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_view_builds_and_draws_in_japanese(cls, monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    kwargs = {"background": False} if "background" in inspect.signature(cls.__init__).parameters else {}
    ja = cls(lang="ja", **kwargs)
    en = cls(lang="en", **kwargs)
    assert (ja.lang, en.lang) == ("ja", "en")
    assert ja._message.value == en._message.value == ""      # no refusal or internal error reported

    def text(view) -> str:
        out = []

        def walk(w):
            for name in ("value", "description"):
                v = getattr(w, name, None)
                if isinstance(v, str):
                    out.append(v)
            for child in getattr(w, "children", ()):
                walk(child)
        walk(view)
        return "\n".join(out)

    shown = text(ja)
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in shown), cls.__name__
    en.lang = "ja"
    assert text(en) == shown                                   # building in ja = switching to ja


def test_switching_the_language_keeps_the_learners_choices():
    """A relabelled drop-down or toggle group keeps its value (ipywidgets would select the first option)."""
    from toolkit.widgets.crew_solver import TaskDifficultyView
    from toolkit.widgets.tranquility import GameView

    difficulty = TaskDifficultyView(background=False, task=46)
    for lang in ("ja", "en", "ja"):
        difficulty.lang = lang
        assert difficulty._task.value == 46
        assert difficulty._task.label.startswith("#46 ")
        assert "#46" in difficulty._cell.value
    assert difficulty._message.value == ""

    table = GameView(seed=4, players=2, seats=["you", "you"], autoplay=False)
    table.reveal()
    seat = table.model.seat
    card = sorted(table.state.hands[seat])[-1]
    table.choose(str(card), None)
    before = [c for c in table._hand.cards if c["selected"]]
    assert [c["name"] for c in before] == [str(card)]
    for lang in ("ja", "en"):
        table.lang = lang
        assert [c["name"] for c in table._hand.cards if c["selected"]] == [str(card)] and table._card is not None
        assert table._hand.lang == table._grid.lang == lang
    assert [c for c in table._hand.cards if c["selected"]] == before
    assert any(c["legal"] for c in table._grid.cells)   # still outlined for that card


def _selections(view) -> list:
    """Every drop-down, toggle group and list box of a view, in tree order."""
    import ipywidgets as widgets

    out = []

    def walk(w):
        if isinstance(w, widgets.widget_selection._Selection) and not isinstance(w, LanguageToggle):
            out.append(w)
        for child in getattr(w, "children", ()):
            walk(child)
    walk(view)
    return out


@pytest.mark.parametrize("cls", VIEWS, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_a_language_switch_keeps_every_choice_on_the_page(cls, monkeypatch):
    """For each choice of a view (drop-down, toggle group): pick its last option, switch the language there
    and back; no choice on the page changes (ipywidgets resets a relabelled one to its first option)."""
    monkeypatch.delenv("QUERY_STRING", raising=False)
    kwargs = {"background": False} if "background" in inspect.signature(cls.__init__).parameters else {}
    view = cls(**kwargs)
    for k in range(len(_selections(view))):
        choices = _selections(view)
        if k >= len(choices):
            break
        widget = choices[k]
        values = [v for _label, v in widget._options_full]
        if len(values) < 2 or widget.disabled or widget.value == values[-1]:
            continue
        widget.value = values[-1]
        before = [(type(w).__name__, w.value) for w in _selections(view)]
        for lang in ("ja", "en"):
            view.lang = lang
            after = [(type(w).__name__, w.value) for w in _selections(view)]
            assert after == before, (cls.__name__, k, lang)
