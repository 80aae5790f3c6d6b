"""Load on the shared-table store: T tables × P people, each person a process waiting on its table's log
the way a table page's kernel does (``store.wait``), one bot per table moving at a steady pace.

Measures, per backend, how long after a move was written every other process at its table had it (the
"visible on every page within 1 s at p95" of issue 27), and the cost of an append. The page layer (Voila,
widgets, the browser) adds its own redraw on top; this is the store's share.

    python benchmarks/tables_load.py                      # SQLite in a temp folder, 8 tables × 4 people
    python benchmarks/tables_load.py --postgres URL        # and a PostgreSQL server (e.g. the tests' one)
    python benchmarks/tables_load.py --tables 8 --people 4 --moves 40 --pace 0.25
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path

from toolkit.tables import open_store


def person(url: str, code: str, moves: int, out) -> None:
    """A page at the table: wait for each new move and note when it became visible."""
    store = open_store(url)
    seen = 0
    delays = []
    deadline = time.time() + 600
    while seen < moves and time.time() < deadline:
        got = store.wait(code, seen, timeout=5)
        now = time.time()
        if not got:
            continue
        rows = store._db.query("SELECT idx, at FROM deepsea_moves WHERE code = ? AND idx >= ? ORDER BY idx",
                               (code, seen))
        delays += [now - at for _, at in rows[:len(got)]]
        seen += len(got)
    out.put(delays)
    store.close()


def mover(url: str, code: str, moves: int, pace: float, out) -> None:
    store = open_store(url)
    costs = []
    for _ in range(moves):
        time.sleep(pace)
        started = time.perf_counter()
        if not store.play_bots(code, max_moves=1):
            break
        costs.append(time.perf_counter() - started)
    out.put(("append", costs))
    store.close()


def run(url: str, tables: int, people: int, moves: int, pace: float) -> dict:
    store = open_store(url)
    codes = [store.create("tranquility", 100 + t, {"players": 2}, ["random", "random"]) for t in range(tables)]
    store.close()
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    procs = [ctx.Process(target=person, args=(url, code, moves, out)) for code in codes for _ in range(people)]
    procs += [ctx.Process(target=mover, args=(url, code, moves, pace, out)) for code in codes]
    for p in procs:
        p.start()
    delays, costs = [], []
    for _ in procs:
        got = out.get(timeout=900)
        if isinstance(got, tuple):
            costs += got[1]
        else:
            delays += got
    for p in procs:
        p.join(30)
    delays.sort()
    costs.sort()

    def pct(xs, q):
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")
    return {"pages": tables * people, "seen": len(delays), "visible_median_ms": 1000 * statistics.median(delays),
            "visible_p95_ms": 1000 * pct(delays, 0.95), "visible_max_ms": 1000 * delays[-1],
            "append_median_ms": 1000 * statistics.median(costs), "append_p95_ms": 1000 * pct(costs, 0.95)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--people", type=int, default=4)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--pace", type=float, default=0.25, help="seconds between a table's moves")
    parser.add_argument("--postgres", help="also measure a PostgreSQL store at this URL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        urls = {"sqlite": "sqlite:///" + str(Path(tmp) / "tables.sqlite3")}
        if args.postgres:
            urls["postgresql"] = args.postgres
        for name, url in urls.items():
            result = run(url, args.tables, args.people, args.moves, args.pace)
            print(f"{name:10} " + "  ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}"
                                             for k, v in result.items()))


if __name__ == "__main__":
    main()
