"""Deep Blue dashboards in Chromium against a real Voila kernel: bytes the kernel sends to open a page, and
click on a table object -> visible DOM change.

* page bytes: every websocket frame received from the page load until the view is drawn plus 3 s (the
  widget state of every component, ESM and CSS included);
* clicks (N each, the time from the click to the first DOM change in the watched component, measured in
  the page with a MutationObserver):
  - game: choose your boat 1 / boat 2 on the board (the kernel recomputes every site's cost and reason);
  - game: a refused market card ($4, too expensive) — the engine's reason appears — then a boat again;
  - gem bag: + and − on the silver token of the bag (the kernel re-analyses; the token's count changes).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/deepblue_clicks.py [--clicks 20] [--bytes-only]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from publishing_common import (Server, click_times, launch_browser, load_average, median,  # noqa: E402
                               opening_bytes, percentile, save)

GAME = "seed=4&players=2&seats=you,policy&step=1"
BOARD, MARKET, BAG = ".deepblue-board-component", ".deepblue-market-component", ".deepblue-bag-tokens"
CASES = [
    ("deep-blue-game", GAME, [(f'{BOARD} [data-key="boat:1"]', BOARD), (f'{BOARD} [data-key="boat:0"]', BOARD)]),
    ("deep-blue-game", GAME, [(f'{MARKET} [data-key="slot:4"]', MARKET), (f'{BOARD} [data-key="boat:1"]', BOARD),
                              (f'{MARKET} [data-key="slot:4"]', MARKET), (f'{BOARD} [data-key="boat:0"]', BOARD)]),
    ("deep-blue-gem-bag", "", [(f'{BAG} [data-key="plus:silver"]', BAG), (f'{BAG} [data-key="minus:silver"]', BAG)]),
]
PAGES = [("deep-blue-game", GAME), ("deep-blue-dive", ""), ("deep-blue-gem-bag", "")]


def page_bytes(browser, server) -> list[dict]:
    rows = []
    for name, query in PAGES:
        rows.append(opening_bytes(browser, server, name, query))
        print(rows[-1], flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--bytes-only", action="store_true")
    args = parser.parse_args()
    server = Server()
    rows: list[dict] = []
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            rows += page_bytes(browser, server)
            for name, query, targets in ([] if args.bytes_only else CASES):
                times = click_times(browser, server, name, query, targets, args.clicks)
                rows.append({"dashboard": name, "clicks": " / ".join(t.split("[")[1][:-1] for t, _ in targets[:2]),
                             "n": len(times), "median_ms": round(median(times), 1),
                             "p95_ms": round(percentile(times, 95), 1), "load": load_average()})
                print(rows[-1], flush=True)
            browser.close()
    finally:
        server.stop()
    save("deepblue_clicks", rows)


if __name__ == "__main__":
    main()
