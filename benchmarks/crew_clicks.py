"""Click on a Crew card -> visible DOM change, in Chromium against a real Voila kernel.

For each Crew dashboard with clickable cards, N clicks on a card component (each a ``pick`` message to
the kernel, validated there, answered with new state, redrawn by the component's ESM): the time from the
click to the first DOM change inside the watched element (a MutationObserver), measured in the page.

* sonar check: alternately click P5 and P7 of the hand (the verdict changes);
* pink-9 "try a trick": click B1 in the trick picker (added, then removed);
* task judge: click B1 in the picker (the trick table shows it, then not);
* mission table: alternately click two unplayable cards of your hand during the task allocation (the
  refusal naming the card and its reason appears in the hand) — the kernel round trip of a refused move.

    .venv/bin/python benchmarks/crew_clicks.py [--clicks 20]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from publishing_common import (Server, click_times, launch_browser, load_average, median, percentile,  # noqa: E402
                               save)

CASES = [
    # (dashboard, query, [(click selector, watched selector), ...] cycled)
    ("crew-sonar-check", "", [('.crew-sonar-hand-cards button[data-card="P5"]', ".crew-sonar-result"),
                              ('.crew-sonar-hand-cards button[data-card="P7"]', ".crew-sonar-result")]),
    ("crew-pink-nine-trick", "plays=P9", [('.crew-try-plays-picker button[data-card="B1"]', ".crew-try-plays-picker")]),
    ("crew-task-judge", "task=78", [('.crew-task-picker button[data-card="G5"]', ".crew-task-trick")]),
    ("crew-mission", "seed=3&seats=you,random,random,random",
     [('.crew-hand button[data-card="B1"]', ".crew-hand"), ('.crew-hand button[data-card="B2"]', ".crew-hand")]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("names", nargs="*", help="dashboards to measure (default: all four)")
    args = parser.parse_args()
    server = Server()
    rows = []
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            for name, query, targets in CASES:
                if args.names and name not in args.names:
                    continue
                times = click_times(browser, server, name, query, targets, args.clicks)
                rows.append({"dashboard": name, "clicks": len(times), "median_ms": round(median(times), 1),
                             "p95_ms": round(percentile(times, 95), 1), "max_ms": round(max(times), 1) if times else None,
                             "load": load_average()})
                print(rows[-1], flush=True)
            browser.close()
    finally:
        server.stop()
    save("crew_clicks", rows)


if __name__ == "__main__":
    main()
