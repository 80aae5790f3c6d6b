"""The generic view-model and debug panel, driven with the tiny test game (and hostile input)."""

import pytest

from tinygame import STONES, Take
from toolkit.widgets import DebugPanel, GameSession, query_params
from toolkit.widgets.debug_dashboard import DebugDashboard
from toolkit.widgets.gallery import Gallery, discover, read_entry


def test_session_model_applies_refuses_and_undoes_without_raising():
    m = GameSession(STONES, seed=4)
    assert m.play("0 take 2") and m.length == 1 and m.violation is None
    assert not m.play(Take(0, 1))                       # seat 1's turn
    assert m.violation.rule == "core.turn" and "seat 1" in m.message
    m.lang = "ja"
    assert not m.play("1 take 9")
    assert m.violation.rule == "tiny.take.range" and "1〜3個" in m.message
    assert not m.play("gibberish")                       # malformed: a readable note, no violation
    assert m.violation is None and "gibberish" in m.message
    m.undo()
    assert m.length == 0 and m.state == STONES.new_state(4)


def test_replay_cursor_then_play_branches_from_there():
    m = GameSession(STONES, seed=4)
    for text in ["0 take 1", "1 take 1", "0 take 1"]:
        m.play(text)
    m.goto(1)
    assert not m.live and m.shown_state() == m.session.at(1)
    m.goto(99)  # clamped, never an error
    assert m.position == 3
    m.goto(1)
    assert m.play("1 take 3") and m.length == 2


def test_hostile_language_value_is_refused_in_the_page():
    panel = DebugPanel(GameSession(STONES, seed=1))
    panel.lang = "xx"           # what a forged comm message could set
    assert panel.lang == "en"
    assert "unknown language" in panel._message.value


def test_debug_panel_plays_through_its_widgets():
    panel = DebugPanel(GameSession(STONES, seed=2))
    labels = [label for label, _ in panel._moves.options]
    assert labels == ["0 take 1", "0 take 2", "0 take 3"]
    panel._moves.value = 2
    panel._apply.click()
    assert panel.model.length == 1 and "tiny.take.range" in panel._log.value
    panel._text.value = "0 take 1"                      # not seat 0's turn any more
    panel._apply_text.click()
    assert "deepsea-refusal" in panel._message.value and "core.turn" in panel._message.value
    assert panel.model.length == 1
    panel.lang = "ja"
    assert "席1" in panel._message.value and "取り消し" == panel._undo.description
    panel._undo.click()
    assert panel.model.length == 0 and panel._message.value == ""


def test_apply_with_no_move_left_is_a_refusal_in_the_page():
    panel = DebugPanel(GameSession(STONES, seed=2))
    while panel.model.legal_moves:
        panel._apply.click()
    assert panel._moves.value is None and panel.model.outcome is not None
    panel._apply.click()
    assert "deepsea-refusal" in panel._message.value and "None" in panel._message.value


@pytest.mark.parametrize("bad", [-1, 99, "0"])
def test_forged_comm_values_never_change_the_game(bad):
    panel = DebugPanel(GameSession(STONES, seed=2))
    before = panel.model.state
    with pytest.raises(Exception):
        panel._moves.set_state({"index": bad})     # what a hostile comm message does; ipywidgets refuses
    panel._slider.set_state({"value": 10**9})       # clamped by the slider, then by the model
    assert panel.model.state == before and panel.model.position == 0


def test_forged_empty_selection_is_refused_with_a_reason():
    panel = DebugPanel(GameSession(STONES, seed=2))
    panel._moves.set_state({"index": None})
    panel._apply.click()
    assert panel.model.length == 0 and "no legal move number None" in panel._message.value


def test_slider_replays_positions():
    panel = DebugPanel(GameSession(STONES, seed=2))
    panel._apply.click()
    panel._apply.click()
    panel._slider.value = 0
    assert panel.model.position == 0 and "Position 0 of 2" in panel._status.value


def test_debug_dashboard_validates_seed_and_game():
    d = DebugDashboard({"tiny": STONES}, game="tiny", seed=5)
    assert d._panel.model.session.seed == 5
    d._seed.set_state({"value": -3})               # forged: clamped to the allowed range
    d._start.click()
    assert d._panel.model.session.seed == 0


def test_query_params_are_parsed_and_capped():
    assert query_params("game=crew&seed=7&seed=8") == {"game": "crew", "seed": "8"}
    assert len(query_params("x=" + "a" * 10000)["x"]) == 200


def test_gallery_lists_every_dashboard_with_both_languages(tmp_path):
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "dashboards"
    entries = discover(root)
    assert {e.name for e in entries} == {p.stem for p in root.glob("*.ipynb")} - {"index"}
    import html
    g = Gallery(root)
    for e in entries:
        assert html.escape(e.title["en"]) in g._body.value
    g.lang = "ja"
    for e in entries:
        assert html.escape(e.title["ja"]) in g._body.value
    (tmp_path / "broken.ipynb").write_text('{"metadata": {}}')
    from toolkit.core import DataError
    with pytest.raises(DataError, match="broken.ipynb"):
        read_entry(tmp_path / "broken.ipynb")


def test_views_built_in_japanese_render_in_japanese():
    """``?lang=ja`` on the debug dashboard: the language is set before the subclass's widgets exist, and
    the view still renders (in Japanese) instead of failing in ``refresh``."""
    from toolkit.widgets.debug_dashboard import DebugDashboard

    d = DebugDashboard({"tiny": STONES}, game="tiny", seed=5, lang="ja")
    assert d.lang == "ja"
    assert d._start.description == "新しいゲーム"
    panel = d._holder.children[0]
    assert isinstance(panel, DebugPanel) and panel.lang == "ja"
    d.lang = "en"
    assert d._start.description == "New game" and panel.lang == "en"
