"""Precompute the task-difficulty table the ``crew-task-difficulty`` dashboard opens with.

Run by hand: ``.venv/bin/python benchmarks/crew_difficulty_table.py [--workers 2] [--deals 40]``.
Writes ``toolkit/crew/data/task_difficulty.json`` (loaded by ``toolkit.crew.difficulty.load_table``) and a
CSV copy beside it, then prints the wall time, the nodes searched and the mean winnable share per printed
difficulty.

Bounded time: every (task, player count) cell runs chunks of deals until it has ``--deals`` deals or has
searched ``--node-budget`` nodes, so the whole table costs at most 288 x budget nodes (plus one chunk's
overshoot per cell). A solve the search leaves open at the node limit gets up to ``--sat-limit`` conflicts
of the SAT solver (counted as nodes). The defaults (40 deals, 60 000 nodes per cell, 3 000 nodes per
solve, 20 000 SAT conflicts) ran in the
time printed at the end on a shared 2-core machine; raise ``--deals`` and ``--node-budget`` for tighter
intervals. ``--dask ADDRESS`` sends the chunks to a Dask cluster instead of a local process pool — the
table is identical either way.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from toolkit.crew.difficulty import (DEFAULT_NODE_LIMIT, DEFAULT_SAT_LIMIT, DEFAULT_SEED, PLAYER_COUNTS,
                                     dask_executor, study, summary_by_difficulty)

DATA = Path(__file__).resolve().parents[1] / "toolkit" / "crew" / "data"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--chunk", type=int, default=8)
    ap.add_argument("--node-budget", type=int, default=60_000)
    ap.add_argument("--node-limit", type=int, default=DEFAULT_NODE_LIMIT)
    ap.add_argument("--sat-limit", type=int, default=DEFAULT_SAT_LIMIT,
                    help="SAT conflicts for a solve the search leaves open (0: none)")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--tasks", type=str, default="1-96", help="e.g. 1-96 or 16,17,46")
    ap.add_argument("--dask", type=str, default=None, help="scheduler address of a Dask cluster")
    ap.add_argument("--out", type=Path, default=DATA / "task_difficulty.json")
    args = ap.parse_args()
    if "-" in args.tasks:
        lo, hi = (int(x) for x in args.tasks.split("-"))
        tasks = list(range(lo, hi + 1))
    else:
        tasks = [int(x) for x in args.tasks.split(",")]

    started = time.perf_counter()
    last = [0.0]

    def progress(done: int, submitted: int) -> None:
        if time.perf_counter() - last[0] > 10:
            last[0] = time.perf_counter()
            print(f"  {done} chunks done ({time.perf_counter() - started:.0f} s)", flush=True)

    kwargs = dict(tasks=tasks, players=PLAYER_COUNTS, deals=args.deals, seed=args.seed,
                  node_limit=args.node_limit, chunk=args.chunk, node_budget=args.node_budget, on_chunk=progress,
                  sat_limit=args.sat_limit)
    if args.dask:
        executor, client = dask_executor(args.dask)
        try:
            table = study(executor=executor, **kwargs)
        finally:
            client.close()
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            table = study(executor=pool, **kwargs)
    wall = time.perf_counter() - started
    table = type(table)(table.cells, table.seed, table.node_limit,
                        dict(table.meta, wall_seconds=round(wall, 1), workers=args.workers))
    args.out.write_text(table.to_json() + "\n", encoding="utf-8")
    args.out.with_suffix(".csv").write_text(table.to_csv(), encoding="utf-8")
    cells = table.cells
    print(f"{len(cells)} cells, {sum(c.deals for c in cells)} deals, {sum(c.nodes for c in cells)} nodes, "
          f"{sum(c.undecided for c in cells)} undecided, {wall:.0f} s wall with {args.workers} workers")
    for players in PLAYER_COUNTS:
        line = ", ".join(f"d{d}: {share:.2f} ({n})" for d, share, n in summary_by_difficulty(table, players))
        print(f"{players} players — mean winnable share by printed difficulty: {line}")
    print("wrote", args.out, "and", args.out.with_suffix(".csv"))


if __name__ == "__main__":
    main()
