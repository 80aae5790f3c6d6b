"""Double-dummy solver speed (run by hand: ``.venv/bin/python benchmarks/crew_solver.py``).

Issue 7's benchmark: 200 seeded 4-player deals with one task, and 200 with three tasks. For each set it
prints the median, p95 and maximum time, the nodes searched (card plays, plus the SAT solver's conflicts
for the deals it gets), how many deals were decided within the 1-second cap (a verdict that arrives after
the cap does not count), and — on the same deals — the ratio of nodes to the naive exhaustive search (the
test oracle). The naive search is capped too (``--naive-cap`` nodes); a capped naive run gives a *lower bound*
on the ratio, marked ``≥``.

Deal *i* is ``deal(4, seed=i)``; its tasks are drawn with ``numpy.random.default_rng([i, k])`` (k = number
of tasks) from the 96, each to a random seat (never a captain comparison to the captain); deals that a
task's card footnote says to redeal are skipped for the next seed. The captain (submarine 4) leads.

Goals (issue 7): one task — median ≤ 5 ms, p95 ≤ 100 ms, every deal decided within 1 s, ≥ 10× fewer
nodes than naive at p90; three tasks — ≥ 95 % decided within 1 s, the rest ``None`` at the cap.
Wall time on shared 2-core machines varies with load; CPU time is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from toolkit.crew.cards import Card, deal
from toolkit.crew.solver import naive_solve, solve
from toolkit.crew.tasks import CAPTAIN_COMPARISON, redeal_needed

S4 = Card.parse("S4")


def seeded_deals(count: int, tasks_per_deal: int, players: int = 4):
    """``count`` (seed, hands, captain, tasks) tuples, reproducible."""
    out, seed = [], 0
    while len(out) < count:
        hands = deal(players, seed)
        captain = next(s for s, h in enumerate(hands) if S4 in h)
        rng = np.random.default_rng([seed, tasks_per_deal])
        ids = [int(t) + 1 for t in rng.permutation(96)[:tasks_per_deal]]
        seed += 1
        if redeal_needed(ids, hands) is not None:
            continue
        tasks: dict[int, list[int]] = {}
        for task_id in ids:
            owner = int(rng.integers(players))
            if task_id in CAPTAIN_COMPARISON and owner == captain:
                owner = (owner + 1) % players
            tasks.setdefault(owner, []).append(task_id)
        out.append((seed - 1, hands, captain, tasks))
    return out


def pct(values, q):
    return float(np.percentile(values, q)) if values else float("nan")


def run(count: int, tasks_per_deal: int, cap: float, naive_cap: int, naive: bool) -> dict:
    deals = seeded_deals(count, tasks_per_deal)
    times, cpus, nodes, ratios, ratio_bounds = [], [], [], [], 0
    verdicts = {True: 0, False: 0, None: 0}
    slowest = (0.0, None)
    late = 0
    for seed, hands, captain, tasks in deals:
        c0, t0 = time.process_time(), time.perf_counter()
        sol = solve(hands, tasks, captain=captain, time_limit=cap)
        wall = time.perf_counter() - t0
        cpus.append(time.process_time() - c0)
        times.append(wall)
        nodes.append(sol.nodes)
        verdicts[sol.winnable] += 1
        if sol.winnable is not None and wall > cap:
            late += 1  # decided, but after the cap (the limits are checked between slices of work)
        if wall > slowest[0]:
            slowest = (wall, (seed, tasks, sol.winnable))
        if naive and sol.winnable is not None:
            ref = naive_solve(hands, tasks, captain=captain, node_limit=naive_cap)
            if ref.winnable is not None and ref.winnable != sol.winnable:
                raise AssertionError(f"deal {seed}: solver {sol.winnable}, naive {ref.winnable}")
            ratio = ref.nodes / max(sol.nodes, 1)
            if ref.winnable is None:
                ratio_bounds += 1
            ratios.append(ratio)
    return {"deals": len(deals), "tasks": tasks_per_deal, "times": times, "cpu": cpus, "nodes": nodes,
            "ratios": ratios, "ratio_bounds": ratio_bounds, "verdicts": verdicts, "slowest": slowest, "cap": cap,
            "late": late}


def report(r: dict) -> None:
    ms = [t * 1000 for t in r["times"]]
    decided = r["verdicts"][True] + r["verdicts"][False] - r["late"]
    print(f"\n## {r['deals']} four-player deals, {r['tasks']} task(s) each (cap {r['cap']} s)\n")
    print("| measure | value |\n|---|---|")
    print(f"| median time | {statistics.median(ms):.1f} ms (CPU {statistics.median(r['cpu']) * 1000:.1f} ms) |")
    print(f"| p95 time | {pct(ms, 95):.1f} ms |")
    print(f"| max time | {max(ms):.1f} ms |")
    print(f"| decided within the cap | {decided}/{r['deals']} ({100 * decided / r['deals']:.1f} %): "
          f"{r['verdicts'][True]} winnable, {r['verdicts'][False]} not, {r['verdicts'][None]} None"
          f"{f', {late} decided only after the cap' if (late := r['late']) else ''} |")
    print(f"| nodes: median / p95 / max | {statistics.median(r['nodes']):.0f} / {pct(r['nodes'], 95):.0f} / "
          f"{max(r['nodes'])} |")
    if r["ratios"]:
        mark = "≥ " if r["ratio_bounds"] else ""
        print(f"| naive ÷ solver nodes: median / p10 / p90 | {statistics.median(r['ratios']):.1f} / "
              f"{pct(r['ratios'], 10):.1f} / {mark}{pct(r['ratios'], 90):.1f} "
              f"({r['ratio_bounds']} of {len(r['ratios'])} naive runs hit the cap: lower bounds) |")
    print(f"| slowest deal | {r['slowest'][0] * 1000:.0f} ms, seed/tasks/verdict {r['slowest'][1]} |")


def fixed_work(tasks_per_deal: int, seeds: set[int], node_cap: int) -> int:
    """Solve the benchmark deals with these seeds at a node cap, with no clock: the same work every run.
    Under ``valgrind --tool=callgrind --callgrind-out-file=/dev/null`` the instructions it reports compare
    two versions of the solver where wall time on a shared machine drifts (minus a run with no seeds, the
    imports). The nodes printed must not change when only the speed per node does."""
    nodes = 0
    for seed, hands, captain, tasks in seeded_deals(max(seeds, default=-1) + 1, tasks_per_deal):
        if seed in seeds:
            nodes += solve(hands, tasks, captain=captain, node_limit=node_cap).nodes
    return nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--cap", type=float, default=1.0, help="solver time limit per deal, seconds")
    ap.add_argument("--naive-cap", type=int, default=20_000, help="node cap of the naive comparison")
    ap.add_argument("--no-naive", action="store_true")
    ap.add_argument("--fixed", type=str, default=None, metavar="SEEDS",
                    help="comma-separated seeds: only solve these deals at --node-cap nodes, no clock "
                         "(for instruction counts under callgrind; e.g. the one-task p95 deals 130,87,178)")
    ap.add_argument("--tasks", type=int, default=1, help="tasks per deal for --fixed")
    ap.add_argument("--node-cap", type=int, default=100_000, help="node cap for --fixed")
    args = ap.parse_args()
    if args.fixed is not None:
        seeds = {int(x) for x in args.fixed.split(",") if x.strip()}
        print("nodes", fixed_work(args.tasks, seeds, args.node_cap))
        return
    for k in (1, 3):
        report(run(args.deals, k, args.cap, args.naive_cap, not args.no_naive))


if __name__ == "__main__":
    main()
