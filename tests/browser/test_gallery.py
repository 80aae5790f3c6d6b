"""The front page and the gallery, through Voila in Chromium."""

import pytest

pytestmark = pytest.mark.browser


def test_root_redirects_to_the_gallery_which_lists_every_dashboard(page, voila_url, console_errors):
    page.goto(voila_url + "/", wait_until="domcontentloaded")
    page.locator(".deepsea-gallery").wait_for(state="visible", timeout=120000)
    assert "/voila/render/index.ipynb" in page.url
    items = page.locator(".deepsea-gallery-item")
    names = {items.nth(i).get_attribute("data-dashboard") for i in range(items.count())}
    from pathlib import Path
    expected = {p.stem for p in (Path(__file__).parents[2] / "dashboards").glob("*.ipynb")} - {"index"}
    assert names == expected
    assert console_errors == []


def test_gallery_switches_to_japanese(open_dashboard):
    page = open_dashboard("index")
    body = page.locator(".deepsea-gallery-body")
    assert "Each dashboard teaches one rule" in body.inner_text()
    page.locator(".deepsea-lang button", has_text="日本語").click()
    page.wait_for_function("document.querySelector('.deepsea-gallery-body').innerText.includes('ダッシュボード')")
    assert "選んでください" in body.inner_text()


def test_gallery_link_opens_the_debug_panel_and_a_move_is_applied(open_dashboard):
    page = open_dashboard("index")
    page.locator(".deepsea-gallery-item[data-dashboard='debug-panel'] a").click()
    page.locator(".deepsea-debug, .deepsea-root").first.wait_for(state="visible", timeout=120000)
    assert page.url.endswith("debug-panel.ipynb")
