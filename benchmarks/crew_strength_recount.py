"""Re-count the strength table's cells of one level after a change to that bot that only some games feel.

    PYTHONPATH=. python benchmarks/crew_strength_recount.py --old-tree /path/to/checkout/of/the/old/bot \\
        --level expert --what passing --workers 2

A bot change that alters one kind of decision (``--what passing``: whether a seat passes a task when it may)
leaves every game where that kind of decision comes out the same *identical* move for move: the rest of the
game starts from the same state with the same bot random number generators (every seat draws its own, and a
decision that changes nothing draws nothing more). So instead of playing the whole study again:

1. every game counted in the level's cells where a seat may pass at all (standard allocation, fewer tasks
   than choosers: rule ``crew.alloc.no-pass``) is played up to its end of allocation by the old bot and by
   the new one (the tree this script runs from), in parallel processes (the old one with ``PYTHONPATH`` set
   to ``--old-tree``);
2. the games whose allocation differs are played whole by both bots (``play_game``, the study's own
   function, first attempt and double-dummy ceiling included);
3. each such game's old result is taken out of its cell and the new one put in (games and deal ranges stay).

``--check N`` plays N more games whose allocation did not change whole by both bots and stops with an error
unless their results are identical (the assumption above, measured). The table is written back in place
with a ``meta.recounts`` entry (what changed, how many games, the figures).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "toolkit" / "crew" / "data"


def allocation_moves(mission: int, players: int, index: int, level: str) -> list[str]:
    """The moves of one study game up to the end of its allocation (its first card, prediction or signal)."""
    from toolkit.core.bots import BotTable
    from toolkit.crew.engine import ENGINE
    from toolkit.crew.strength import DEFAULT_SEED, game_seed

    s = game_seed(DEFAULT_SEED, mission, players, index)
    state = ENGINE.new_state(s, players=players, mission=mission)
    mission_rules = ENGINE.mission_of(state)
    if (state.phase != "allocate" or mission_rules.allocation != "standard"
            or len(state.tasks) >= len(ENGINE._choosers(state, mission_rules))):
        # no seat may ever pass here (rule crew.alloc.no-pass: as many tasks as choosers, or no choosing in
        # turn): what an allocation change that is about passing cannot touch — and cheap to know
        return ["no pass possible"]
    table = BotTable(ENGINE, [level] * players, s)
    moves = []
    while state.phase == "allocate":
        step = table.step(state)
        if step is None:
            break
        moves.append(str(step[1].move))
        state = ENGINE.apply(state, step[1].move)
    return moves


def _worker(mode: str, jobs_path: str, out_path: str) -> None:
    """Run in a child process with the tree under test first on ``PYTHONPATH``."""
    from toolkit.crew.strength import play_game

    jobs = json.loads(Path(jobs_path).read_text())
    out = []
    for mission, players, index, level in jobs:
        if len(out) % 200 == 0:
            print(f"{mode} {jobs_path}: {len(out)}/{len(jobs)}", file=sys.stderr, flush=True)
        if mode == "allocation":
            out.append(allocation_moves(mission, players, index, level))
        else:
            out.append(play_game(mission, players, index, level))
    Path(out_path).write_text(json.dumps(out))


def _run(mode: str, jobs: list, tree: Path, workers: int, tmp: Path, tag: str) -> list:
    """``jobs`` split over ``workers`` child processes that import ``toolkit`` from ``tree``."""
    if not jobs:
        return []
    parts = [jobs[k::workers] for k in range(workers)]
    procs = []
    for k, part in enumerate(parts):
        jp, op = tmp / f"{tag}-{k}-jobs.json", tmp / f"{tag}-{k}-out.json"
        jp.write_text(json.dumps(part))
        env = dict(os.environ, PYTHONPATH=str(tree))
        procs.append((subprocess.Popen([sys.executable, __file__, "--worker", mode, str(jp), str(op)], env=env,
                                       cwd=tree), op, part))
    results: dict[int, Any] = {}
    for k, (proc, op, part) in enumerate(procs):
        if proc.wait() != 0:
            raise SystemExit(f"worker {tag}-{k} failed (exit {proc.returncode})")
        for j, value in enumerate(json.loads(op.read_text())):
            results[k + j * workers] = value
    return [results[i] for i in range(len(jobs))]


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        _worker(*sys.argv[2:5])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--old-tree", required=True, type=Path, help="a checkout holding the old bot")
    ap.add_argument("--level", default="expert")
    ap.add_argument("--what", default="passing", choices=["passing"],
                    help="the kind of decision the change touches (games where it cannot arise are not replayed)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--check", type=int, default=10, help="unchanged games replayed whole by both bots")
    ap.add_argument("--out", default="bot_strength")
    ap.add_argument("--note", default="", help="what changed in the bot (kept in meta.recounts)")
    args = ap.parse_args()

    from toolkit.crew.strength import StrengthTable

    path = DATA / f"{args.out}.json"
    table = StrengthTable.from_json(path.read_text())
    jobs = sorted((c.mission, c.players, i, c.level) for c in table.cells.values() if c.level == args.level
                  for a, b in c.chunks for i in range(a, b))
    started = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="recount-"))
    half = max(1, args.workers // 2)
    print(f"{len(jobs)} games: allocation by the old and the new bot", file=sys.stderr, flush=True)
    # the old and the new bot side by side: half of the workers each
    import threading

    got: dict[str, list] = {}
    threads = [threading.Thread(target=lambda t=t, tree=tree: got.__setitem__(t, _run("allocation", jobs, tree,
                                                                                        half, tmp, t)))
               for t, tree in (("old", args.old_tree.resolve()), ("new", ROOT))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    changed = [job for job, a, b in zip(jobs, got["old"], got["new"]) if a != b]
    same = [job for job, a, b in zip(jobs, got["old"], got["new"]) if a == b]
    print(f"{len(changed)} of {len(jobs)} games allocate differently ({time.perf_counter() - started:.0f} s)",
          file=sys.stderr, flush=True)
    step = max(1, len(same) // max(1, args.check))
    check = same[::step][:args.check]
    replay = changed + check
    got = {}
    threads = [threading.Thread(target=lambda t=t, tree=tree: got.__setitem__(t, _run("game", replay, tree, half,
                                                                                    tmp, t + "-g")))
               for t, tree in (("old", args.old_tree.resolve()), ("new", ROOT))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    old, new = got["old"], got["new"]
    for job, a, b in zip(replay[len(changed):], old[len(changed):], new[len(changed):]):
        if a != b:
            raise SystemExit(f"an unchanged allocation played differently: {job}: {a} vs {b}; nothing written")
    delta = {"success": 0, "winnable": 0, "won_winnable": 0}
    for (mission, players, index, level), a, b in zip(changed, old, new):
        table.replace_game(mission, players, level, index, a, b)
        delta["success"] += b["success"] - a["success"]
        delta["winnable"] += bool(b["winnable"]) - bool(a["winnable"])
        delta["won_winnable"] += (b["success"] and bool(b["winnable"])) - (a["success"] and bool(a["winnable"]))
        print(f"m{mission} p{players} deal {index}: success {a['success']}->{b['success']}, "
              f"winnable {a['winnable']}->{b['winnable']}", flush=True)
    table.meta.setdefault("recounts", []).append({
        "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "level": args.level,
        "what": args.what, "note": args.note, "games": len(jobs), "changed": len(changed),
        "checked_unchanged": len(check), "delta": delta, "seconds": round(time.perf_counter() - started)})
    for suffix, text in ((".json", table.to_json() + "\n"), (".csv", table.to_csv())):
        target = DATA / f"{args.out}{suffix}"
        target.with_suffix(suffix + ".tmp").write_text(text)
        target.with_suffix(suffix + ".tmp").replace(target)
    print(f"recounted: {len(changed)} games changed, {delta}; {len(check)} unchanged games identical; "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
