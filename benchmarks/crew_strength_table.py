"""Run the bot strength study and merge it into toolkit/crew/data/bot_strength.{json,csv} (by hand).

    PYTHONPATH=. python benchmarks/crew_strength_table.py --levels random beginner --missions 1-32 --deals 200
    PYTHONPATH=. python benchmarks/crew_strength_table.py --levels expert --missions 1-10 --deals 200 \\
        --workers 2 --chunk 5 --until 21:30

Resumable and mergeable per (players, mission, level) cell: the table keeps, per cell, the deal ranges it
holds, so a chunk of deals already counted is skipped and a new one is added (a deal is never counted
twice). A cell written without ranges — by an older run, possibly of an older bot — is replaced by the
first chunk that lands for it. Chunks go round-robin over the cells (deals 0-4 of every mission, then
5-9, ...), so a run stopped early (``--until``, UTC clock time, or Ctrl-C) leaves every cell with about
as many deals; the table is saved after every chunk. ``--workers N`` uses a process pool of N (the
default runs in this process). ``--players 2`` plays two-player missions with TONOJA; their double-dummy
ceiling keeps TONOJA's columns (``solve(columns=...)``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

from toolkit.crew.strength import DD_NODE_LIMIT, DEFAULT_SEED, LEVELS, StrengthTable, run_chunk

DATA = Path(__file__).resolve().parents[1] / "toolkit" / "crew" / "data"


def span(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def _nice() -> None:
    """Workers run at niceness 5 (the machine is shared), not lower still when the run was started niced."""
    try:
        if os.nice(0) < 5:
            os.nice(5 - os.nice(0))
    except OSError:
        pass


def save(table: StrengthTable, stem: str) -> None:
    for suffix, text in ((".json", table.to_json() + "\n"), (".csv", table.to_csv())):
        path = DATA / f"{stem}{suffix}"
        tmp = path.with_suffix(suffix + ".tmp")
        tmp.write_text(text)
        tmp.replace(path)


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.0f} %"


def markdown(table: StrengthTable) -> str:
    """Per player count: one row per mission, per level "successes/games = rate (95 % Wilson interval)",
    the double-dummy ceiling of the level's games, and the expert's successes on its winnable games."""
    from toolkit.crew.difficulty import wilson

    out = []
    for players in sorted({k[1] for k in table.cells}):
        levels = [lv for lv in LEVELS if any(k[1] == players and k[2] == lv for k in table.cells)]
        out.append(f"\n**{players} players**\n")
        out.append("| mission | " + " | ".join(levels) + " | ceiling (DD-winnable) | expert on DD-winnable |")
        out.append("|---" * (len(levels) + 3) + "|")
        for mission in sorted({k[0] for k in table.cells if k[1] == players}):
            row = [str(mission)]
            for lv in levels:
                c = table.cells.get((mission, players, lv))
                if c is None or not c.games:
                    row.append("—")
                    continue
                low, high = c.interval()
                row.append(f"{c.successes}/{c.games} = {_pct(c.rate)} ({100 * low:.0f}–{100 * high:.0f})")
            best = next((table.cells[(mission, players, lv)] for lv in reversed(levels)
                         if (mission, players, lv) in table.cells), None)   # the strongest level's games
            row.append(_pct(best.ceiling) if best else "—")
            e = table.cells.get((mission, players, "expert"))
            if e is not None and e.winnable:
                low, high = wilson(e.won_winnable, e.winnable)
                row.append(f"{e.won_winnable}/{e.winnable} = {_pct(e.of_winnable)} ({100 * low:.0f}–{100 * high:.0f})")
            else:
                row.append("—")
            out.append("| " + " | ".join(row) + " |")
        cells = [table.cells[k] for k in table.cells if k[1] == players and k[2] == "expert" and k[0] <= 10]
        won, winnable = sum(c.won_winnable for c in cells), sum(c.winnable for c in cells)
        if winnable:
            low, high = wilson(won, winnable)
            out.append(f"\nExpert on the DD-winnable games of missions 1–10 at {players} players: **{won}/{winnable} = "
                       f"{_pct(won / winnable)}** (95 % Wilson {100 * low:.0f}–{100 * high:.0f} %; "
                       f"{sum(c.games for c in cells)} games).")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", nargs="+", default=list(LEVELS))
    ap.add_argument("--missions", default="1-32")
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--chunk", type=int, default=10)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--until", default=None, help="UTC time HH:MM after which no chunk is started or waited for")
    ap.add_argument("--out", default="bot_strength", help="file stem under toolkit/crew/data")
    ap.add_argument("--markdown", action="store_true", help="print the committed table as docs/crew-bots.md "
                                                              "shows it, and run nothing")
    args = ap.parse_args()
    if args.markdown:
        print(markdown(StrengthTable.from_json((DATA / f"{args.out}.json").read_text())))
        return
    started = time.perf_counter()
    deadline = None
    if args.until:
        now = dt.datetime.now(dt.timezone.utc)
        hh, mm = map(int, args.until.split(":"))
        deadline = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
        if deadline <= now:             # "--until 01:12" given at 23:11 means tomorrow's 01:12
            deadline += dt.timedelta(days=1)
    path = DATA / f"{args.out}.json"
    table = StrengthTable.from_json(path.read_text()) if path.exists() else StrengthTable(meta={"runs": []})
    missions = span(args.missions)
    todo = []
    for start in range(0, args.deals, args.chunk):
        stop = min(start + args.chunk, args.deals)
        for players in args.players:
            for mission in missions:
                for level in args.levels:
                    cell = table.cells.get((mission, players, level))
                    if cell is not None and cell.chunks and cell.covers(start, stop):
                        continue                     # counted by an earlier run: resume after it
                    todo.append((mission, players, level, start, stop))
    run = {"seed": DEFAULT_SEED, "dd_node_limit": DD_NODE_LIMIT, "levels": args.levels, "missions": missions,
           "players": args.players, "deals": args.deals, "chunks_planned": len(todo), "chunks_done": 0,
           "started": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    table.meta.setdefault("runs", []).append(run)
    print(f"{len(todo)} chunks to play", file=sys.stderr, flush=True)

    def land(key, games):
        mission, players, level, start, stop = key
        cell = table.add_chunk(mission, players, level, start, stop, games)
        run["chunks_done"] += 1
        run["seconds"] = round(time.perf_counter() - started)
        save(table, args.out)
        print(f"{run['chunks_done']}/{len(todo)} m{mission:2d} p{players} {level:8s} deals {start}-{stop - 1}: "
              f"cell {cell.successes}/{cell.games}, of winnable {cell.won_winnable}/{cell.winnable}  "
              f"{run['seconds']} s", flush=True)

    def late() -> bool:
        return deadline is not None and dt.datetime.now(dt.timezone.utc) >= deadline

    if not args.workers:
        for key in todo:
            if late():
                break
            land(key, run_chunk(key[0], key[1], key[2], key[3], key[4]))
        return
    with ProcessPoolExecutor(args.workers, initializer=_nice) as pool:
        pending, queue = {}, list(todo)
        try:
            while queue or pending:
                while queue and len(pending) < args.workers and not late():
                    key = queue.pop(0)
                    pending[pool.submit(run_chunk, *key)] = key
                if not pending:
                    break
                timeout = None if deadline is None else max(1.0, (deadline - dt.datetime.now(dt.timezone.utc))
                                                            .total_seconds())
                done, _ = wait(pending, timeout=timeout, return_when=FIRST_COMPLETED)
                for fut in done:
                    land(pending.pop(fut), fut.result())
                if late():
                    print(f"\nstopped at {args.until} UTC with {len(pending)} chunks running (dropped)",
                          file=sys.stderr, flush=True)
                    break
        finally:
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for proc in workers:                      # a chunk still running is dropped, not waited for
                proc.terminate()


if __name__ == "__main__":
    main()
