"""Shared tables under load, through the pages (issue 27): T tables × P people on one Voila server, each
person a headless Chromium context with its own kernel; the SQLite and PostgreSQL stores side by side.

Every table is a Tranquility game of P people (no bot), on the generic table page
(``--page generic``: ``debug-panel?game=tranquility&view=table&table=CODE``; the driver clicks the first move
offered) or on Tranquility's own table (``--page own``: ``tranquility-game?table=CODE``; the driver presses
"Hint", then "Play the hint", as a learner may). The acting seat's page moves at most once per table every
``--pace`` seconds (people think), until each table has ``--moves`` moves. Measured:

* **visible on every page**: per move and per page of its table that did not make it, from the store's
  write (the ``at`` column, ``time.time()`` of the appending kernel) to that page's DOM showing it (a
  MutationObserver on the panel's ``data-moves``, wall clock ``performance.timeOrigin + now()``; one
  machine, one clock): the watcher's ``store.wait``, the kernel's replay and redraw, the websocket, the
  browser's render;
* **the kernel's share** of it: to the moment the page's kernel had drawn the move (the panel's
  ``data-drawn``); the rest is the websocket and the browser's render;
* **memory per table**: the resident memory (``VmRSS``) of the table's P kernels, summed; and the Voila
  server's own.

Everything — 32 kernels, the Voila server, PostgreSQL, 32 browser contexts and this driver — runs on the
same machine (2 cores here, shared with other work: the load average is printed), so the figures are
pessimistic: real visitors bring their own browsers. The PostgreSQL server is a throwaway one started as the
tests start theirs (``tests/tables/conftest.py``: fsync off).

    nice .venv/bin/python benchmarks/tables_pages_load.py [--tables 8] [--people 4] [--moves 16] [--pace 1.0]
        [--backends sqlite,postgresql] [--page generic|own]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from publishing_common import ROOT, Server, launch_browser, load_average, median, percentile, save
GAME = "tranquility"
# per number of moves shown: when the page's DOM first showed it, and when its kernel drew it (the panel's
# data-drawn, the kernel's time.time()), so a move's way splits into the kernel's share and the browser's
RECORD = """
() => {
  window.__seen = {};
  window.__drawn = {};
  const record = () => {
    const el = document.querySelector('.deepsea-shared-where');
    if (!el) return;
    const n = Number(el.dataset.moves);
    if (!(n in window.__seen)) {
      window.__seen[n] = performance.timeOrigin + performance.now();
      window.__drawn[n] = Number(el.dataset.drawn) * 1000;
    }
  };
  new MutationObserver(record).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                       characterData: true});
  record();
}
"""


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def postgres_server():
    """The tests' throwaway PostgreSQL server (tests/tables/conftest.py), started here."""
    spec = importlib.util.spec_from_file_location("tables_conftest", ROOT / "tests" / "tables" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PostgresServer()


PAGES = {"generic": "debug-panel.ipynb?game=" + GAME + "&view=table&table={code}",
         "own": "tranquility-game.ipynb?table={code}"}


def open_table_pages(browser, server: Server, code: str, people: int, page_kind: str = "generic") -> list:
    pages = []
    for seat in range(people):
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(180000)
        page.goto(f"{server.url}/voila/render/" + PAGES[page_kind].format(code=code),
                  wait_until="domcontentloaded", timeout=300000)
        page.locator(f"button.deepsea-sit-{seat}").click()
        page.locator(f'.deepsea-shared-where[data-seat="{seat}"]').wait_for()
        page.evaluate(RECORD)
        pages.append(page)
    return pages


def shown(page) -> int:
    return page.evaluate("+document.querySelector('.deepsea-shared-where').dataset.moves")


# True once a move is clicked: the generic table's first move button; on a game's own table "Play the
# hint" once the hint of this very position is shown (else "Hint" is pressed, once a position, and False)
CLICK_FIRST = """() => {
  const status = document.querySelector('.deepsea-status-line');
  if (!status || !status.innerText.startsWith('Your turn.')) return false;
  const button = document.querySelector('.deepsea-move-button');
  if (button) { button.click(); return true; }
  const hint = document.querySelector('.deepsea-hint-line');
  const play = document.querySelector('button.deepsea-play-hint');
  if (hint && hint.dataset.moves === status.dataset.moves && play && !play.disabled) { play.click(); return true; }
  if (window.__asked !== status.dataset.moves) {
    const ask = document.querySelector('button.deepsea-hint');
    if (ask) { ask.click(); window.__asked = status.dataset.moves; }
  }
  return false;
}"""


STUCK_S = 60.0
DESCRIBE = """() => ({
  shown: (document.querySelector('.deepsea-shared-where') || {dataset: {}}).dataset.moves,
  status: (document.querySelector('.deepsea-status-line') || {}).innerText,
  refusal: (document.querySelector('.deepsea-action-row .deepsea-refusal-line') || {}).innerText,
  panel: (document.querySelector('.deepsea-shared-answer') || {}).innerText,
  buttons: document.querySelectorAll('.deepsea-move-button').length,
})"""


def drive(store, tables: dict[str, list], moves: int, pace: float, timeout_s: float, stuck: list) -> None:
    """Click for the seat that acts at each table, at most one move per table every ``pace`` seconds."""
    from toolkit.tranquility import ENGINE

    last = {code: 0.0 for code in tables}
    progress = {code: (0, time.monotonic()) for code in tables}     # moves, since when
    deciders: dict[str, dict[int, int | None]] = {}
    done: set[str] = set()
    deadline = time.monotonic() + timeout_s
    while len(done) < len(tables):
        if time.monotonic() > deadline:
            raise RuntimeError(f"the tables did not reach {moves} moves in {timeout_s:.0f} s")
        for code, pages in tables.items():
            if code in done or time.monotonic() - last[code] < pace:
                continue
            n = len(store.moves(code))
            if n not in deciders.setdefault(code, {}):       # one replay per position, not per look
                state = store.state(code)
                deciders[code][n] = None if ENGINE.play_out_over(state) else ENGINE.decider(state)
            if n >= moves or deciders[code][n] is None:
                done.add(code)
                continue
            page = pages[deciders[code][n]]
            if progress[code][0] != n:
                progress[code] = (n, time.monotonic())
            elif time.monotonic() - progress[code][1] > STUCK_S:
                # a table that stopped: say what its acting page shows, and drive the others on
                stuck.append({"table": code, "moves": n, "page": page.evaluate(DESCRIBE)})
                print("stuck:", stuck[-1], flush=True)
                done.add(code)
                continue
            if shown(page) == n and page.evaluate(CLICK_FIRST):
                last[code] = time.monotonic()
        time.sleep(0.1)


def samples_of(store, code: str, pages: list) -> list[dict]:
    rows = store._db.query("SELECT idx, seat, at FROM deepsea_moves WHERE code = ? ORDER BY idx", (code,))
    out = []
    for seat, page in enumerate(pages):
        seen = {int(n): t / 1000 for n, t in page.evaluate("() => window.__seen").items()}
        drawn = {int(n): t / 1000 for n, t in page.evaluate("() => window.__drawn").items()}
        for idx, mover, at in rows:
            if mover == seat:
                continue          # the mover's own page
            times = [(t, n) for n, t in seen.items() if n >= idx + 1]
            if times:
                first, n = min(times)
                kernel = drawn.get(n, 0.0) - at if drawn.get(n) else float("nan")
                out.append({"table": code, "page": seat, "seconds": first - at, "kernel_seconds": kernel})
            else:
                out.append({"table": code, "page": seat, "seconds": float("inf"), "kernel_seconds": float("nan")})
    return out


def run(backend: str, url: str, args) -> dict:
    os.environ["DEEPSEA_TABLES_URL"] = url          # the Voila server's kernels inherit it
    from toolkit.tables import open_store

    store = open_store(url)
    codes = [store.create(GAME, 200 + t, {"players": args.people}, ["human"] * args.people)
             for t in range(args.tables)]
    server = Server()
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = launch_browser(playwright)
            tables = {}
            for i, code in enumerate(codes):
                tables[code] = open_table_pages(browser, server, code, args.people, args.page)
                print(f"[{backend}] table {i + 1}/{len(codes)}: {args.people} pages seated "
                      f"({time.monotonic() - started:.0f} s)", flush=True)
            kernels = server.kernel_pids()
            rss_start = [rss_mb(pid) for pid in kernels]
            load_before = load_average()
            stuck: list[dict] = []
            drive(store, tables, args.moves, args.pace, timeout_s=args.timeout, stuck=stuck)
            final = {code: len(store.moves(code)) for code in codes}
            for code, pages in tables.items():
                for page in pages:       # every page shows its table's last move (else: never seen)
                    try:
                        page.wait_for_function(
                            f"+document.querySelector('.deepsea-shared-where').dataset.moves >= {final[code]}",
                            timeout=120000)
                    except Exception:  # noqa: BLE001 - counted as never seen below
                        pass
            samples = [s for code, pages in tables.items() for s in samples_of(store, code, pages)]
            rss_end = [rss_mb(pid) for pid in kernels]
            server_rss = rss_mb(server.proc.pid)
            load_after = load_average()
            browser.close()
    finally:
        server.stop()
        store.close()
    seconds = [s["seconds"] for s in samples]
    kernel = [s["kernel_seconds"] for s in samples if s["kernel_seconds"] == s["kernel_seconds"]]
    return {
        "backend": backend, "page": args.page, "stuck_tables": stuck, "tables": args.tables, "people": args.people, "kernels": len(kernels),
        "moves": sum(final.values()), "samples": len(seconds), "never_seen": sum(s == float("inf") for s in seconds),
        "visible_median_ms": 1000 * median(seconds), "visible_p95_ms": 1000 * percentile(seconds, 95),
        "visible_max_ms": 1000 * max(seconds, default=float("nan")),
        "within_1s": sum(s <= 1.0 for s in seconds) / max(1, len(seconds)),
        # the kernel's share: from the store's write to the page's kernel having drawn the move
        "kernel_median_ms": 1000 * median(kernel), "kernel_p95_ms": 1000 * percentile(kernel, 95),
        "kernel_rss_mb_median": median(rss_end), "kernel_rss_mb_at_start_median": median(rss_start),
        "memory_per_table_mb": sum(rss_end) / args.tables, "voila_server_rss_mb": server_rss,
        "load_average_before": load_before, "load_average_after": load_after,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--people", type=int, default=4)
    parser.add_argument("--moves", type=int, default=16, help="moves per table")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between two moves at one table")
    parser.add_argument("--timeout", type=float, default=1200)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--page", choices=sorted(PAGES), default="generic",
                        help="the generic table page, or Tranquility's own table")
    args = parser.parse_args()
    results = []
    pg = None
    try:
        for backend in args.backends.split(","):
            if backend == "sqlite":
                url = "sqlite:///" + str(Path(tempfile.mkdtemp(prefix="deepsea-tables-load-")) / "tables.sqlite3")
            elif backend == "postgresql":
                pg = pg or postgres_server()
                url = pg.fresh_url()
            else:
                raise SystemExit(f"unknown backend {backend!r}")
            result = run(backend, url, args)
            results.append(result)
            print(f"{backend:10} " + "  ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}"
                                             for k, v in result.items() if k != "backend"), flush=True)
    finally:
        if pg is not None:
            pg.stop()
    # one file per page: the generic table's figures and the own table's are read side by side in the docs
    name = "tables_pages_load" if args.page == "generic" else f"tables_pages_load_{args.page}"
    print("saved", save(name, {"runs": results}))


if __name__ == "__main__":
    main()
