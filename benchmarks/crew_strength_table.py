"""Run the bot strength study and merge it into toolkit/crew/data/bot_strength.{json,csv} (by hand).

    PYTHONPATH=. python benchmarks/crew_strength_table.py --levels random beginner --missions 1-32 --deals 200
    PYTHONPATH=. python benchmarks/crew_strength_table.py --levels expert --missions 1-10 --deals 30 --workers 1

Cells already in the table are replaced by the new run's; the others stay (so a long run can be done in
parts). ``--workers N`` uses a process pool of N; the default runs in this process.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from toolkit.crew.strength import StrengthTable, study

DATA = Path(__file__).resolve().parents[1] / "toolkit" / "crew" / "data"


def span(text: str) -> list[int]:
    out = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", nargs="+", default=["random", "beginner", "expert"])
    ap.add_argument("--missions", default="1-32")
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--chunk", type=int, default=10)
    ap.add_argument("--workers", type=int, default=0)
    ap.add_argument("--out", default="bot_strength", help="file stem under toolkit/crew/data")
    args = ap.parse_args()
    started = time.perf_counter()

    def progress(done, total):
        print(f"\r{done}/{total} chunks  {time.perf_counter() - started:7.0f} s", end="", file=sys.stderr,
              flush=True)

    executor = ProcessPoolExecutor(args.workers) if args.workers else None
    path = DATA / f"{args.out}.json"
    # one mission at a time, saved after each: a run stopped early keeps every finished mission
    for mission in span(args.missions):
        table = study([mission], args.players, args.levels, args.deals, executor=executor, chunk=args.chunk,
                      on_chunk=progress)
        merged = StrengthTable.from_json(path.read_text()) if path.exists() else StrengthTable(meta={"runs": []})
        merged.cells.update(table.cells)
        runs = merged.meta.setdefault("runs", [])
        runs.append({**table.meta, "seconds": round(time.perf_counter() - started)})
        merged.meta = {"runs": runs}
        path.write_text(merged.to_json() + "\n")
        (DATA / f"{args.out}.csv").write_text(merged.to_csv())
        for row in table.rows():
            print(f"m{row['mission']:2d} p{row['players']} {row['level']:8s} {row['successes']:3d}/{row['games']:3d} "
                  f"ceiling {row['ceiling']:.2f}  of winnable {row['of_winnable']:.2f}", flush=True)


if __name__ == "__main__":
    main()
