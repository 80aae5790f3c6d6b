"""Crew engine speed side by side: this tree's engine against another tree's (issue 28.4).

Run by hand, with a checkout of the engine to compare against (the engine before the exact judge is
commit ``229dda5^``)::

    git worktree add --detach /tmp/crew-before 229dda5^
    python benchmarks/crew_engine_speed.py --before /tmp/crew-before --rounds 12 --games 150

Each round runs one worker process per engine, the two in alternating order (old first in even rounds,
new first in odd ones), each with ``PYTHONPATH`` pointing at its own tree, on the same seeded workload:
for each player count 2, 3, 4 and 5, ``--games`` missions drawn from 1–33, each set up with
``new_state`` and played at random until it succeeds or fails (one action = ``legal_moves`` + a random
pick + the checked ``apply``, as in ``benchmarks/crew_playouts.py``). A worker first plays
``--warmup`` games of other seeds (imports, rules, message files, the first task-pair checks), then
times the workload with CPU time (``time.process_time``) and wall time. The machine is shared, so the
figure that counts is the ratio new/old per round (the two workers of a round see about the same load);
the report gives its median and range over the rounds, and the pooled rates.

The two engines' playouts are not move for move the same (the exact judge ends some attempts a trick
earlier), so actions/s compares the cost of an action, not of a game.

``--missions 8,12,21`` draws the games from those missions only (the per-mission figures of
docs/crew-notes.md). ``--instructions`` counts instructions under valgrind (cachegrind) instead: a run
with no workload, one with the setups only and one with the playouts too give the instructions per setup
and per action; the load does not move them, but one tree's figure still moves by 1-2 % between
invocations (the old tree: 132,600 to 135,800 per action in three runs of the same workload).

Results now (3 December ~20:20 UTC, shared 2-core machine at load 8-13, old = 42b48e9 = 229dda5^, new =
1176c25, the third pass on the general action path; details in
``benchmarks/results/crew_engine_speed_general_path_cpu.json``, ``..._general_path_instructions.json`` and
``..._general_path_conditions_cpu.json``, findings in docs/crew-notes.md, "Third pass: the general action path"):

* actions/s, CPU time, 16 rounds x 150 games: old 65,300, new 73,300; ratio new/old median **1.117** (range
  1.074-1.193). Before the third pass: 0.94-0.97.
* mission setups/s, CPU time: old 4,300, new 5,600; ratio median 1.37 (range 1.09-1.46).
* instructions per action: old 133,200, new 113,400: 1.17 (1.21 in an earlier run; before the third pass
  1.01); per setup 2.60 M against 1.90 M: 1.37.
* the condition missions alone (``--missions 8,12,21,23,27``, 8 rounds x 60 games): actions 0.91 (they judge
  their condition after every card, which the old engine did not), setups 1.0.

Results of the first pass (3 December, shared 2-core machine, old = 42b48e9 = 229dda5^, new = 4009876; details in
``benchmarks/results/crew_engine_speed.json`` and ``crew_engine_speed_instructions.json``, discussion in
docs/crew-notes.md, "Speed after the exact judge"):

* actions/s, CPU time, 16 rounds x 480 games at load 12-17: old 45,100, new 43,600; ratio new/old median
  0.97 (range 0.85-1.06). Before this work (83d02ae): 0.83 (4 rounds, load 1).
* instructions per action: old 140,000, new 142,900: 0.98 (83d02ae: 172,800, 0.81).
* mission setups/s, CPU time: old 2,600, new 3,100; ratio median 1.20 (range 1.03-1.43); instructions
  per setup 2.13 M against 1.87 M (1.14).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PLAYER_COUNTS = (2, 3, 4, 5)


# ---- the worker: runs inside the tree under test ----------------------------------------------------
def _workload(seed: int, games: int, missions: tuple[int, ...] = ()) -> list[tuple[int, int, int]]:
    """(players, mission, state seed) for every game of the timed run (the same for both engines): missions
    drawn from 1-33, or from ``missions`` when given (``--missions``, to measure a few on their own)."""
    rnd = random.Random(seed)
    return [(players, rnd.choice(missions) if missions else rnd.randint(1, 33), rnd.randrange(10**9))
            for players in PLAYER_COUNTS for _ in range(games)]


def _run(engine, jobs, seed: int, play: bool = True) -> dict:
    rnd = random.Random(seed)
    per = {p: {"games": 0, "actions": 0, "setup_cpu": 0.0, "setup_wall": 0.0, "act_cpu": 0.0,
               "act_wall": 0.0, "stuck": 0} for p in PLAYER_COUNTS}
    cpu, wall = time.process_time, time.perf_counter
    for players, mission, game_seed in jobs:
        row = per[players]
        c0, w0 = cpu(), wall()
        state = engine.new_state(game_seed, players=players, mission=mission)
        c1, w1 = cpu(), wall()
        actions = 0
        while play and state.phase not in ("success", "failed"):
            moves = engine.legal_moves(state)
            if not moves:        # a dead end (mission 19 before its ruling): end the attempt
                row["stuck"] += 1
                break
            state = engine.apply(state, moves[rnd.randrange(len(moves))])
            actions += 1
        c2, w2 = cpu(), wall()
        row["games"] += 1
        row["actions"] += actions
        row["setup_cpu"] += c1 - c0
        row["setup_wall"] += w1 - w0
        row["act_cpu"] += c2 - c1
        row["act_wall"] += w2 - w1
    return {str(p): row for p, row in per.items()}


def worker(games: int, seed: int, warmup: int, mode: str = "full", missions: tuple[int, ...] = ()) -> None:
    import toolkit
    from toolkit.crew.engine import ENGINE

    ENGINE.new_state(0)  # data, rules and messages
    _run(ENGINE, [(p, m, s + 1) for p, m, s in _workload(seed + 1, warmup // len(PLAYER_COUNTS) + 1)],
         seed + 1)
    result = _run(ENGINE, _workload(seed, games, missions), seed, play=mode == "full") if mode != "none" else {}
    print(json.dumps({"toolkit": str(Path(toolkit.__file__).resolve().parent.parent), "per": result}))


# ---- the driver ----------------------------------------------------------------------------------------
def _spawn(tree: Path, games: int, seed: int, warmup: int, missions: str = "") -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    # cwd outside both trees, so nothing but PYTHONPATH decides which toolkit is imported
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", "--games", str(games),
                          "--seed", str(seed), "--warmup", str(warmup), "--missions", missions],
                         env=env, cwd="/", capture_output=True, text=True, check=True)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    if Path(data["toolkit"]) != tree.resolve():
        raise SystemExit(f"the worker for {tree} imported the toolkit of {data['toolkit']}")
    return data["per"]


def _commit(tree: Path) -> str:
    """The commit a tree is checked out at (with ``+changes`` if it has uncommitted ones), for the record."""
    git = ["git", "-C", str(tree)]
    head = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False).stdout.strip()
    dirty = subprocess.run(git + ["status", "--porcelain", "--untracked-files=no", "--", "toolkit"],
                           capture_output=True, text=True, check=False).stdout.strip()
    return (head or "unknown") + (" +changes" if dirty else "")


def _count(tree: Path, games: int, seed: int, warmup: int, mode: str, missions: str = "") -> tuple[int, dict]:
    """Instructions (valgrind's cachegrind ``I refs``) of one worker run, and its result."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    out = subprocess.run(["setarch", "-R", "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, str(Path(__file__).resolve()), "--worker", "--games", str(games),
                          "--seed", str(seed), "--warmup", str(warmup), "--mode", mode, "--missions", missions],
                         env=env, cwd="/", capture_output=True, text=True, check=True)
    refs = next(line for line in out.stderr.splitlines() if "I   refs" in line or "I refs" in line)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    if Path(data["toolkit"]) != tree.resolve():
        raise SystemExit(f"the worker for {tree} imported the toolkit of {data['toolkit']}")
    return int(refs.split(":")[1].replace(",", "").strip()), data["per"]


def instructions(trees: dict[str, Path], args) -> None:
    """Instructions per action and per setup for each engine: runs of the same worker with no workload,
    setups only and setups with playouts; the differences are the setups' and the actions' share. Exact
    up to the garbage collector's timing, so one run per engine suffices on a loaded machine."""
    report: dict = {"commits": {k: _commit(t) for k, t in trees.items()}, "mode": "instructions", "games": args.games, "warmup": args.warmup, "seed": args.seed, "missions": args.missions or "1-33",
                    "trees": {k: str(v) for k, v in trees.items()}}
    for name, tree in trees.items():
        base, _ = _count(tree, args.games, args.seed, args.warmup, "none", args.missions)
        setups, _ = _count(tree, args.games, args.seed, args.warmup, "setups", args.missions)
        full, per = _count(tree, args.games, args.seed, args.warmup, "full", args.missions)
        actions = sum(row["actions"] for row in per.values())
        games = sum(row["games"] for row in per.values())
        report[name] = {"instructions_per_action": (full - setups) / actions,
                        "instructions_per_setup": (setups - base) / games, "actions": actions, "games": games}
        print(f"{name}: {report[name]['instructions_per_action']:,.0f} instructions per action ({actions} actions), "
              f"{report[name]['instructions_per_setup']:,.0f} per setup ({games} setups)", flush=True)
    for m in ("instructions_per_action", "instructions_per_setup"):
        report[f"speed_ratio_{m}"] = report["old"][m] / report["new"][m]
    print(f"speed ratio new/old (old instructions / new): actions {report['speed_ratio_instructions_per_action']:.3f}, "
          f"setups {report['speed_ratio_instructions_per_setup']:.3f}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")


def _missions(text: str) -> tuple[int, ...]:
    """The missions of ``--missions`` ("8,12,21"): empty for all of 1-33."""
    try:
        out = tuple(int(m) for m in text.split(",") if m.strip())
    except ValueError:
        raise SystemExit(f"--missions must be mission numbers separated by commas, not {text!r}") from None
    if any(not 1 <= m <= 33 for m in out):
        raise SystemExit(f"--missions must be between 1 and 33, not {text!r}")
    return out


def _rates(per: dict, keys=None) -> dict:
    keys = keys or list(per)
    tot = {k: sum(per[p][k] for p in keys) for k in per[keys[0]]}
    return {"actions_per_s_cpu": tot["actions"] / tot["act_cpu"],
            "actions_per_s_wall": tot["actions"] / tot["act_wall"],
            "setups_per_s_cpu": tot["games"] / tot["setup_cpu"],
            "setups_per_s_wall": tot["games"] / tot["setup_wall"],
            "actions": tot["actions"], "games": tot["games"], "stuck": tot["stuck"]}


def _spread(xs: list[float]) -> dict:
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "rounds": len(xs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, help="the tree of the engine to compare against")
    parser.add_argument("--after", type=Path, default=HERE, help="the tree of the engine under test (this one)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--games", type=int, default=150, help="games per player count and round")
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under valgrind (cachegrind) instead of timing: exact, load-free")
    parser.add_argument("--missions", default="",
                        help="comma-separated missions to draw the games from (default: all of 1-33)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=("none", "setups", "full"), default="full", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.games, args.seed, args.warmup, args.mode, _missions(args.missions))
        return
    if args.before is None:
        parser.error("--before is required (a checkout of the engine to compare against)")
    _missions(args.missions)   # refused here rather than in a worker
    trees = {"old": args.before.resolve(), "new": args.after.resolve()}
    commits = {k: _commit(t) for k, t in trees.items()}
    if args.instructions:
        instructions(trees, args)
        return
    load0 = os.getloadavg()
    print(f"load average before the run: {load0[0]:.1f} / {load0[1]:.1f} / {load0[2]:.1f} on "
          f"{os.cpu_count()} CPUs; {args.rounds} rounds x {args.games} games x {len(PLAYER_COUNTS)} player counts")
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    t0 = time.perf_counter()
    for r in range(args.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for name in order:
            # the same workload for both engines within a round, a new one each round
            runs[name].append(_spawn(trees[name], args.games, args.seed * 1000 + r, args.warmup, args.missions))
        o, n = _rates(runs["old"][-1]), _rates(runs["new"][-1])
        print(f"round {r + 1:2}: actions/s CPU old {o['actions_per_s_cpu']:7,.0f} new {n['actions_per_s_cpu']:7,.0f}"
              f" ({n['actions_per_s_cpu'] / o['actions_per_s_cpu']:.3f}); setups/s CPU old "
              f"{o['setups_per_s_cpu']:6,.0f} new {n['setups_per_s_cpu']:6,.0f}"
              f" ({n['setups_per_s_cpu'] / o['setups_per_s_cpu']:.3f})", flush=True)
    load1 = os.getloadavg()
    report: dict = {"commits": commits, "trees": {k: str(v) for k, v in trees.items()}, "rounds": args.rounds, "games": args.games,
                    "missions": args.missions or "1-33",
                    "warmup": args.warmup, "seed": args.seed, "cpus": os.cpu_count(),
                    "load_before": load0, "load_after": load1, "seconds": time.perf_counter() - t0,
                    "python": sys.version.split()[0], "by_players": {}}
    measures = ("actions_per_s_cpu", "actions_per_s_wall", "setups_per_s_cpu", "setups_per_s_wall")
    for label, keys in [("all", None)] + [(str(p), [str(p)]) for p in PLAYER_COUNTS]:
        entry: dict = {}
        for name in ("old", "new"):
            pooled = {k: sum(run[p][k] for run in runs[name] for p in (keys or run))
                      for k in runs[name][0][str(PLAYER_COUNTS[0])]}
            entry[name] = _rates({"pooled": pooled})
        for m in measures:
            per_round = [_rates(n, keys)[m] / _rates(o, keys)[m] for o, n in zip(runs["old"], runs["new"])]
            entry[f"ratio_{m}"] = _spread(per_round)
        report["by_players"][label] = entry
    print(f"load average after the run: {load1[0]:.1f} / {load1[1]:.1f} / {load1[2]:.1f}; "
          f"{report['seconds']:.0f} s")
    print("players | actions/s CPU old -> new | ratio median [min, max] | setups/s CPU old -> new | ratio median [min, max]")
    for label, e in report["by_players"].items():
        a, s = e["ratio_actions_per_s_cpu"], e["ratio_setups_per_s_cpu"]
        print(f"{label:>7} | {e['old']['actions_per_s_cpu']:7,.0f} -> {e['new']['actions_per_s_cpu']:7,.0f} | "
              f"{a['median']:.3f} [{a['min']:.3f}, {a['max']:.3f}] | "
              f"{e['old']['setups_per_s_cpu']:6,.0f} -> {e['new']['setups_per_s_cpu']:6,.0f} | "
              f"{s['median']:.3f} [{s['min']:.3f}, {s['max']:.3f}]")
    e = report["by_players"]["all"]
    print(f"wall time: actions/s old {e['old']['actions_per_s_wall']:,.0f} new {e['new']['actions_per_s_wall']:,.0f}"
          f" (ratio median {e['ratio_actions_per_s_wall']['median']:.3f}); setups/s old "
          f"{e['old']['setups_per_s_wall']:,.0f} new {e['new']['setups_per_s_wall']:,.0f}"
          f" (ratio median {e['ratio_setups_per_s_wall']['median']:.3f})")
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
