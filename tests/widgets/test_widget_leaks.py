"""Ordinary clicks leave the widget count flat (issue 30, item 3).

A widget model lives in the kernel's ``Widget.widgets`` and in the page's widget manager until it is
closed; taking it out of a layout does not close it. Views that replaced children with fresh widgets on
every click therefore grew without end: tranquility-game made 15 models per language switch and 37 per
new game, pirats-game 44 per new game, the debug panel 47 per new game (and every old debug panel still
redrew on each language switch: 0.6-1.35 s after 50 new games instead of 0.06 s).

Every dashboard is built as Voila runs it, then each repeated action is done once (parts built on first
use — the discard-cost picker, the strategy study's charts — appear then), the kernel's widgets counted,
the action repeated 20 times, and the count must not have moved.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Callable

import ipywidgets as widgets
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_page_language import DASHBOARDS, ROOT, open_dashboard

from toolkit.widgets.base import LanguageToggle, View

REPEATS = 20
#: Repetitions done before counting: lazily built parts (built on first use) appear in the first one.
WARM_UP = 1


def live_widgets() -> dict[str, widgets.Widget]:
    """The kernel's open widget models by id (``Widget.widgets``, which ipywidgets 8 marks deprecated)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return dict(widgets.Widget.widgets)


def live() -> int:
    return len(live_widgets())


def growth(action: Callable[[], None], repeats: int = REPEATS) -> int:
    """How many widgets ``repeats`` more repetitions of ``action`` leave behind, after the warm-up."""
    for _ in range(WARM_UP):
        action()
    before = live()
    for _ in range(repeats):
        action()
    return live() - before


def tree(widget: widgets.Widget) -> list[widgets.Widget]:
    out = [widget]
    for child in getattr(widget, "children", ()) or ():
        out += tree(child)
    return out


@pytest.fixture
def dashboard(request, monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)

    def _open(path: Path) -> View:
        view = open_dashboard(path)
        assert isinstance(view, View)
        if path.stem == "tranquility-strategies":
            view._games.value = view._games.min   # its button runs a study: the smallest keeps this quick
        return view

    return _open


def switch_language(view: View) -> None:
    view.lang = "ja" if view.lang == "en" else "en"


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.stem)
def test_language_switches_leave_the_widget_count_flat(path, dashboard):
    view = dashboard(path)
    assert growth(lambda: switch_language(view)) == 0
    assert view._message.value == ""


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.stem)
def test_clicking_every_button_of_a_dashboard_leaves_the_widget_count_flat(path, dashboard):
    """New game, deal, undo, hint, reveal, next move, reset, …: each button of the page as it opened."""
    view = dashboard(path)
    buttons = [w for w in tree(view) if isinstance(w, widgets.Button)]

    def click_all() -> None:
        for button in buttons:
            button.click()

    assert growth(click_all) == 0


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.stem)
def test_changing_every_choice_of_a_dashboard_leaves_the_widget_count_flat(path, dashboard):
    """Seat pickers, the teacher's switch, step mode, scenarios, drop-downs and check boxes, there and back."""
    view = dashboard(path)
    controls = [w for w in tree(view)
                if isinstance(w, (widgets.widget_selection._Selection, widgets.Checkbox, widgets.ToggleButton))
                and not isinstance(w, LanguageToggle)]

    def change_all() -> None:
        for control in controls:
            if isinstance(control, widgets.widget_selection._Selection):
                values = list(control._options_values)
                if not values:
                    continue
                original = control.value
                for value in values[:6]:
                    control.value = value
                if original in values:
                    control.value = original
            else:
                control.value = not control.value
                control.value = not control.value

    assert growth(change_all) == 0


def _new_game_with(view: View, players: Callable[[], widgets.Widget], new: Callable[[], widgets.Button],
                   counts: tuple) -> Callable[[], None]:
    """A new game at the next of ``counts`` players each time (the seat setup is rebuilt for it)."""
    state = {"i": 0}

    def action() -> None:
        state["i"] += 1
        players().value = counts[state["i"] % len(counts)]
        new().click()
    return action


@pytest.mark.parametrize("name", ["tranquility-game", "pirats-game", "deep-blue-game"])
def test_new_games_with_another_player_count_leave_the_widget_count_flat(name, dashboard):
    view = dashboard(ROOT / "dashboards" / f"{name}.ipynb")
    new = (lambda: view.options_bar.new_game) if hasattr(view, "options_bar") else (lambda: view._new)  # the frame's
    action = _new_game_with(view, lambda: view._players, new, (2, 3))
    seats_before = view.setup
    assert growth(action) == 0
    assert view.setup is not seats_before and len(view.setup.seats) == view._players.value
    assert view._message.value == ""


def test_the_debug_panel_switching_games_leaves_the_widget_count_flat(dashboard):
    view = dashboard(ROOT / "dashboards" / "debug-panel.ipynb")
    games = [value for _label, value in view._game.options]
    assert len(games) >= 4
    state = {"i": 0}

    def another_game() -> None:
        state["i"] += 1
        view._game.value = games[state["i"] % len(games)]
        view._start.click()
        view._panel._apply.click()    # a move, then undo: the panel's own buttons
        view._panel._undo.click()

    assert growth(another_game) == 0


def test_after_50_new_games_a_language_switch_redraws_one_debug_panel(dashboard, monkeypatch):
    """The 0.6-1.35 s switch: every replaced panel stayed linked to the page's language and redrew."""
    from toolkit.widgets.base import DebugPanel

    view = dashboard(ROOT / "dashboards" / "debug-panel.ipynb")
    for _ in range(50):
        view._start.click()
    redrawn: list[DebugPanel] = []
    original = DebugPanel.refresh

    def counting(panel: DebugPanel) -> None:
        redrawn.append(panel)
        original(panel)

    monkeypatch.setattr(DebugPanel, "refresh", counting)
    switch_language(view)
    assert redrawn == [view._panel]
    assert view._panel.lang == view.lang


def test_a_hot_seat_tranquility_game_played_to_its_end_keeps_the_widget_count_bounded():
    """Every move changes the hand shown; the discard toggles are reused, so a whole game adds none
    beyond the largest hand."""
    from toolkit.tranquility import ENGINE
    from toolkit.widgets.tranquility import GameView

    view = GameView(seed=5, players=2, seats=["you", "you"], autoplay=False)
    view.reveal()
    start = live()
    largest = 0
    moves = 0
    while ENGINE.outcome(view.state) is None and moves < 400:
        if "tranq-reveal" in {c for w in view._private.children for c in w._dom_classes}:
            view.reveal()
        largest = max(largest, len(ENGINE.observe(view.state, ENGINE.current_player(view.state))["hand"]))
        view._hint.click()
        assert view._hint_move is not None, view._message.value
        view._play_hint.click()
        switch_language(view)
        moves += 1
    assert ENGINE.outcome(view.state) is not None and moves > 10
    # at most one toggle (with its layout and style) per card of the largest hand, built on the way
    assert live() - start <= 3 * largest
    assert len(view._toggle_pool) <= largest


def open_in_tree(view: widgets.Widget) -> list[widgets.Widget]:
    """Widgets of a view's layout (with their layouts and styles) whose model was closed: must be none."""
    closed = []
    for widget in tree(view):
        for w in (widget, getattr(widget, "layout", None), getattr(widget, "style", None)):
            if isinstance(w, widgets.Widget) and w.comm is None:
                closed.append(w)
    return closed


def test_close_tree_closes_a_seat_setup_with_every_model_it_made():
    from toolkit.tranquility.bots import LEVELS
    from toolkit.widgets.base import close_tree
    from toolkit.widgets.seats import SeatSetup

    before = set(live_widgets())
    setup = SeatSetup(3, LEVELS, lang="ja")
    made = set(live_widgets()) - before
    assert len(made) > 20                      # pickers, slider, check boxes, the unshown language toggle, …
    assert close_tree(setup) == len(made)
    assert set(live_widgets()) == before
    assert close_tree(setup) == 0              # closing again is harmless


@settings(max_examples=15, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["lang", "new", "players", "seat", "teacher", "reveal", "play", "step"]),
                min_size=5, max_size=25))
def test_any_sequence_of_clicks_on_the_tranquility_table_keeps_the_layout_open_and_the_count_bounded(actions):
    """Whatever the visitor does, no widget the page shows was closed, and the page holds at most its
    first build, one seat setup of the largest table and one discard toggle per card of the largest hand."""
    from toolkit.widgets.tranquility import GameView

    before = live()
    view = GameView(seed=3, players=2, seats=["you", "you"], autoplay=False)
    first = live() - before
    for i, action in enumerate(actions):
        if action == "lang":
            switch_language(view)
        elif action in ("new", "players"):
            if action == "players":
                view._players.value = 1 + (view._players.value % 5)
            view._new.click()
        elif action == "seat":
            picker = view.setup._pickers[i % len(view.setup._pickers)]
            picker.value = "you" if picker.value != "you" else picker.options[1][1]
        elif action == "teacher":
            view.setup._show_all.value = not view.setup._show_all.value
        elif action == "step":
            view.setup._step.value = not view.setup._step.value
        elif action == "reveal":
            view.reveal()
        elif action == "play":
            view.run_bots()
            view._hint.click()
            view._play_hint.click()
        assert open_in_tree(view) == []
        assert view._message.value == "" or "deepsea-refusal" in view._message.value
    # a 5-seat setup has ~12 more models than a 2-seat one; a hand holds at most 7 cards here
    assert live() - before <= first + 3 * 4 * 3 + 3 * 7


def test_the_discard_toggles_are_relabelled_in_place_and_a_new_hand_starts_unticked():
    from toolkit.tranquility.cards import parse_card
    from toolkit.widgets.tranquility import GameView

    view = GameView(seed=4, players=2, seats=["you", "you"], autoplay=False)
    view.reveal()
    toggles = tuple(view._discards.children)
    hand = list(view._toggle_cards)
    view.choose(None, None, discards=tuple(hand[:2]))
    view.lang = "ja"
    assert tuple(view._discards.children) == toggles             # the same models, relabelled
    assert [t.value for t in toggles] == [True, True] + [False] * (len(hand) - 2)
    assert view._ticked() == tuple(parse_card(c) for c in hand[:2])
    view._hint.click()
    view._play_hint.click()                                     # the next seat: the curtain empties them
    assert view._discards.children == () and all(t.description == "" and not t.value for t in toggles)
    view.reveal()
    assert not any(t.value for t in view._discards.children)    # a new hand starts unticked
    assert set(view._toggle_pool) >= set(view._discards.children)
