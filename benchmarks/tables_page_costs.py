"""What one move costs a page of a shared table, one page at a time on a quiet server (issue 27): why
Tranquility's own table has a longer tail than the generic table page under load
(``benchmarks/tables_pages_load.py``). Both pages, a 4-player Tranquility table each:

* **watching**: a spectator page of a table of four bots; per move watched, the page's renderer time (CDP
  ``Performance.getMetrics``: ``TaskDuration``, ``ScriptDuration``, ``LayoutDuration``) and the kernel's
  websocket frames and bytes;
* **acting**: seat 0 a person, seats 1–3 bots; per own move (the own table: "Hint", then "Play the hint";
  the generic page: the first move offered), the acting page's renderer time, its kernel's CPU time
  (``/proc/PID/stat``) and the wall time from the first click to the page showing the new position.

    .venv/bin/python benchmarks/tables_page_costs.py [--moves 20] [--own-moves 8]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from playwright.sync_api import sync_playwright

from publishing_common import Server, launch_browser, median, save

PAGES = {"own": "tranquility-game.ipynb?table={code}",
         "generic": "debug-panel.ipynb?game=tranquility&view=table&table={code}"}
SETTLED_AND_MINE = ("() => { const s = document.querySelector('.deepsea-status-line'),"
                    " l = document.querySelector('.deepsea-log-body');"
                    " return s && l && s.dataset.moves === l.dataset.moves && s.dataset.acting === '0'; }")


def metrics(cdp) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def watching(browser, server: Server, store, page_kind: str, moves: int) -> dict:
    code = store.create("tranquility", 5, {"players": 4}, ["rank"] * 4)
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    frames: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(len(payload))))
    page.goto(f"{server.url}/voila/render/" + PAGES[page_kind].format(code=code), wait_until="domcontentloaded")
    where = page.locator(".deepsea-shared-where")
    where.wait_for(timeout=120000)

    def shown() -> int:
        return int(where.get_attribute("data-moves") or 0)

    while shown() < 4:                 # past the first draw of the page
        time.sleep(0.2)
    m0, n0, f0, b0 = metrics(cdp), shown(), len(frames), sum(frames)
    deadline = time.monotonic() + 180
    while shown() < n0 + moves and time.monotonic() < deadline:
        time.sleep(0.2)
    m1, n = metrics(cdp), shown() - n0
    context.close()
    return {"page": page_kind, "what": "watching", "moves": n,
            "renderer_ms_per_move": (m1["TaskDuration"] - m0["TaskDuration"]) / n * 1000,
            "script_ms_per_move": (m1["ScriptDuration"] - m0["ScriptDuration"]) / n * 1000,
            "layout_ms_per_move": (m1["LayoutDuration"] - m0["LayoutDuration"]) / n * 1000,
            "frames_per_move": (len(frames) - f0) / n, "kb_per_move": (sum(frames) - b0) / n / 1000}


def acting(browser, server: Server, store, page_kind: str, moves: int) -> dict:
    code = store.create("tranquility", 5, {"players": 4}, ["human", "rank", "rank", "rank"])
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    before = set(server.kernels())
    page.goto(f"{server.url}/voila/render/" + PAGES[page_kind].format(code=code), wait_until="domcontentloaded")
    page.locator("button.deepsea-sit-0").click(timeout=120000)
    page.locator('.deepsea-shared-where[data-seat="0"]').wait_for()
    pid = next(p for k, p in server.kernels().items() if k not in before)
    renderer, kernel, wall = [], [], []
    for _ in range(moves):
        page.wait_for_function(SETTLED_AND_MINE, timeout=60000)
        time.sleep(0.5)                                  # the bots' moves drawn, the page quiet
        m0, c0, t0 = metrics(cdp), cpu_seconds(pid), time.monotonic()
        index = len(store.moves(code))
        if page_kind == "own":
            page.locator(".deepsea-hint").click()
            page.wait_for_function("n => { const h = document.querySelector('.deepsea-hint-line');"
                                   " return h && h.dataset.moves === String(n); }", arg=index)
            page.locator(".deepsea-play-hint").click()
        else:
            page.locator(".deepsea-move-button").first.click()
        page.wait_for_function("n => +document.querySelector('.deepsea-status-line').dataset.moves > n", arg=index)
        wall.append((time.monotonic() - t0) * 1000)
        time.sleep(0.3)                                  # the redraw's tail (the bots move 0.6 s later)
        renderer.append((metrics(cdp)["TaskDuration"] - m0["TaskDuration"]) * 1000)
        kernel.append((cpu_seconds(pid) - c0) * 1000)
    context.close()
    return {"page": page_kind, "what": "acting", "moves": moves, "renderer_ms_per_move": median(renderer),
            "kernel_cpu_ms_per_move": median(kernel), "click_to_shown_ms": median(wall)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20, help="moves watched per page")
    parser.add_argument("--own-moves", type=int, default=8, help="own moves made per page")
    args = parser.parse_args()
    url = "sqlite:///" + os.path.join(tempfile.mkdtemp(prefix="deepsea-page-costs-"), "tables.sqlite3")
    os.environ["DEEPSEA_TABLES_URL"] = url               # the Voila server's kernels inherit it
    from toolkit.tables import open_store

    store = open_store(url)
    server = Server()
    results = []
    try:
        with sync_playwright() as playwright:
            browser = launch_browser(playwright)
            for page_kind in PAGES:
                for measure, n in ((watching, args.moves), (acting, args.own_moves)):
                    result = measure(browser, server, store, page_kind, n)
                    results.append(result)
                    print("  ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}"
                                    for k, v in result.items()), flush=True)
            browser.close()
    finally:
        server.stop()
    print("saved", save("tables_page_costs", {"runs": results}))


if __name__ == "__main__":
    main()
