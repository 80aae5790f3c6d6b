"""toolkit.widgets.page: the page's language, display size and accessibility support."""

from __future__ import annotations

from toolkit.widgets.base import DebugPanel, GameSession, View
from toolkit.widgets.page import FONT_STACK, PageSupport, display_mode_from_query


def test_display_mode_comes_from_the_query_and_refuses_anything_else():
    assert display_mode_from_query({"display": "large"}) == "large"
    assert display_mode_from_query({"display": " LARGE "}) == "large"
    assert display_mode_from_query({"display": "<script>"}) == "normal"
    assert display_mode_from_query({}) == "normal"


def test_the_top_level_view_carries_one_page_support_that_follows_its_language():
    from tinygame import STONES

    panel = DebugPanel(GameSession(STONES, seed=1))
    pages = [c for c in panel.children if isinstance(c, PageSupport)]
    assert len(pages) == 1
    panel.lang = "ja"
    assert pages[0].lang == "ja"
    nested = DebugPanel(GameSession(STONES, seed=1), show_language=False)
    assert not any(isinstance(c, PageSupport) for c in nested.children)


def test_large_display_from_the_page_query(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", "display=large&seed=3")
    view = View()
    view._finish([])
    assert view._page.display_mode == "large"


def test_the_browser_cannot_change_the_page_traits():
    page = PageSupport(lang="en")
    page.set_state({"lang": "ja", "display_mode": "large"})
    assert (page.lang, page.display_mode) == ("en", "normal")
    page.lang = "xx"
    assert page.lang == "en"


def test_the_font_stack_names_the_common_japanese_system_fonts():
    for font in ("Hiragino Sans", "Yu Gothic", "Meiryo", "Noto Sans CJK JP", "Noto Sans JP"):
        assert font in [name.strip().strip('"') for name in FONT_STACK.split(",")]
    assert FONT_STACK.endswith("sans-serif")


def test_only_the_rendered_message_marks_the_page_drawn():
    page = PageSupport()
    for hostile in ("rendered", {"event": "lang", "lang": "ja"}, ["rendered"], None, {"event": 1}):
        page._handle_custom_msg(hostile, [])
    assert not page.rendered and page.renders == 0 and page.lang == "en"
    page._handle_custom_msg({"event": "rendered"}, [])
    page._handle_custom_msg({"event": "rendered"}, [])   # a reload renders again
    assert page.rendered and page.renders == 2


def test_page_of_finds_the_page_of_a_nested_widget_and_forgets_closed_ones():
    import ipywidgets as widgets

    from toolkit.widgets.page import page_of

    inner = widgets.HTML()
    nested = View(show_language=False)
    nested._finish([widgets.VBox([inner])])
    top = View()
    top._finish([nested])
    assert page_of(inner) is top._page
    assert page_of(nested) is top._page
    top._page.close()
    assert page_of(inner) is None
