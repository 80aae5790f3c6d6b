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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from publishing_common import run_clicks  # noqa: E402

GAME = "seed=4&players=2&seats=you,policy&step=1"
BOARD, MARKET, BAG = ".deepblue-board-component", ".deepblue-market-component", ".deepblue-bag-tokens"
CASES = [
    ("deep-blue-game", GAME, [(f'{BOARD} [data-key="boat:1"]', BOARD), (f'{BOARD} [data-key="boat:0"]', BOARD)]),
    ("deep-blue-game", GAME, [(f'{MARKET} [data-key="slot:4"]', MARKET), (f'{BOARD} [data-key="boat:1"]', BOARD),
                              (f'{MARKET} [data-key="slot:4"]', MARKET), (f'{BOARD} [data-key="boat:0"]', BOARD)]),
    ("deep-blue-gem-bag", "", [(f'{BAG} [data-key="plus:silver"]', BAG), (f'{BAG} [data-key="minus:silver"]', BAG)]),
]
PAGES = [("deep-blue-game", GAME), ("deep-blue-dive", ""), ("deep-blue-gem-bag", "")]


def main() -> None:
    run_clicks("deepblue_clicks", __doc__.splitlines()[0], PAGES, CASES)


if __name__ == "__main__":
    main()
