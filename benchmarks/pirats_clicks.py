"""Sewer Pirats dashboards in Chromium against a real Voila kernel: bytes the kernel sends to open a page,
and click on a table object -> visible DOM change.

* page bytes: every websocket frame received from the page load until the view is drawn plus 3 s (the
  widget state of every component, ESM and CSS included);
* clicks (N each, the time from the click to the first DOM change in the watched component, measured in
  the page with a MutationObserver):
  - game: choose your rat and choose it again (the kernel works out and lights the spaces it can reach);
  - game: a refused click on a captain space (the engine's reason appears), then the rat, then the captain
    space again (another reason), then the rat again;
  - scoring: add a ketchup token from the box, take the pile's first token off (the score sheet is redone);
  - boarding: click space 1 of the ship (empty -> another pirat -> your pirat; the engine rebuilds the position).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/pirats_clicks.py [--clicks 20] [--bytes-only]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from publishing_common import run_clicks  # noqa: E402

GAME = "seed=3&players=3&step=1"
TABLE, PILE, SHIP = ".pirats-table", ".pirats-tokens", ".pirats-ship-board"
RAT = f'{TABLE} [data-key="figure:0:rat"]'
CAPTAIN = f'{TABLE} [data-key="space:cat:4"]'
CASES = [
    ("pirats-game", GAME, [(RAT, TABLE), (RAT, TABLE)]),
    ("pirats-game", GAME, [(CAPTAIN, TABLE), (RAT, TABLE), (CAPTAIN, TABLE), (RAT, TABLE)]),
    ("pirats-scoring", "", [(f'{PILE} [data-key="add:ketchup"]', PILE), (f'{PILE} [data-key="remove:0"]', PILE)]),
    ("pirats-boarding", "", [(f'{SHIP} [data-key="space:1"]', SHIP), (f'{SHIP} [data-key="space:1"]', SHIP)]),
]
PAGES = [("pirats-game", GAME), ("pirats-scoring", ""), ("pirats-boarding", "")]


def main() -> None:
    run_clicks("pirats_clicks", __doc__.splitlines()[0], PAGES, CASES)


if __name__ == "__main__":
    main()
