"""The bots wait for the page (docs/decisions.md, "bots moving while a page connects").

In Voila the kernel runs the dashboard before the browser connects. An all-bot Tranquility table used to
start playing then, so the page's first drawing already showed bot moves, and on a loaded machine the
widget manager once drew its error icon. Now the first bot move comes only after the page's
``PageSupport`` has told the kernel it has drawn.
"""

import pytest

pytestmark = pytest.mark.browser

# Recorded from the first byte of the page: when the page support, the bot-reason line and the first bot
# move appeared (ms since navigation), the grid when the table first drew, and every error icon seen.
WATCH_JS = """
(() => {
  const w = window.__deepseaWatch = { page: null, reasonDrawn: null, reasonAtDraw: null, firstMove: null,
                                      gridAtDraw: null, errors: 0 };
  const check = () => {
    const now = performance.now();
    if (w.page === null && document.querySelector('.deepsea-page-support')) w.page = now;
    const reason = document.querySelector('.deepsea-bot-line');
    if (reason && w.reasonDrawn === null) { w.reasonDrawn = now; w.reasonAtDraw = reason.innerText.trim(); }
    if (reason && w.firstMove === null && reason.innerText.trim()) w.firstMove = now;
    const cells = document.querySelectorAll('.tranq-grid-cell');
    if (cells.length === 36 && w.gridAtDraw === null)
      w.gridAtDraw = Array.from(cells).filter((c) => /^\\d+$/.test(c.innerText.trim())).length;
    w.errors = Math.max(w.errors, document.querySelectorAll('.jupyter-widgets-error-widget').length);
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
})();
"""


def test_an_all_bot_table_starts_only_after_the_page_has_drawn(page, open_dashboard, console_errors):
    page.add_init_script(WATCH_JS)
    open_dashboard("tranquility-game", "players=2&seed=3&seats=rank,greedy&pace=0.2")
    page.wait_for_function("window.__deepseaWatch && window.__deepseaWatch.firstMove !== null", timeout=60000)
    page.wait_for_timeout(1500)  # a few more moves: no error icon may appear while they land
    watch = page.evaluate("window.__deepseaWatch")
    assert watch["page"] is not None and watch["reasonDrawn"] is not None
    assert watch["reasonAtDraw"] == "", "a bot had moved before the page drew the table"
    assert watch["gridAtDraw"] == 0
    assert watch["firstMove"] > watch["page"]
    assert watch["errors"] == 0
    assert page.locator(".jupyter-widgets-error-widget").count() == 0
    assert console_errors == []
