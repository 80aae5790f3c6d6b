"""Double-dummy speed on the missions without task cards (8, 12, 21, 23, 27), run by hand:

    PYTHONPATH=. python benchmarks/crew_solver_conditions.py [--deals 30] [--players 4] [--node-cap 200000]
                                                             [--post-mortems 10]

Per mission: the seeded deals ``ENGINE.new_state(seed, players, mission)`` for seeds 0..deals-1, solved
from the first card (``solve(hands, {}, mission=m)``, the search alone: the SAT clauses model tasks only)
under ``--node-cap`` nodes. Prints the deals decided, the share winnable among them, and the median / p95 /
max milliseconds and nodes. With ``--post-mortems N`` it also times ``post_mortem`` of N all-beginner
attempts per mission (the coach's review of a played mission; goal: <= 3 s at p95 for a 10-trick mission).
Wall time on the shared 2-core machine varies with load; CPU time is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import time

from toolkit.crew import ENGINE
from toolkit.crew.missions import CONDITIONS
from toolkit.crew.solver import solve


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--node-cap", type=int, default=200_000)
    ap.add_argument("--post-mortems", type=int, default=0)
    ap.add_argument("--missions", type=int, nargs="*", default=sorted(CONDITIONS))
    args = ap.parse_args()
    print(f"{args.players} players, {args.deals} deals per mission, node cap {args.node_cap}")
    print("mission  decided  winnable   ms median / p95 / max    cpu ms p95   nodes median / p95 / max")
    for m in args.missions:
        ms, cpu, nodes, verdicts = [], [], [], []
        for seed in range(args.deals):
            state = ENGINE.new_state(seed, players=args.players, mission=m)
            hands = [list(state.hand(s)) for s in range(state.seats)]
            t, c = time.perf_counter(), time.process_time()
            r = solve(hands, {}, leader=state.leader, captain=state.captain, mission=m, node_limit=args.node_cap)
            ms.append(1000 * (time.perf_counter() - t))
            cpu.append(1000 * (time.process_time() - c))
            nodes.append(r.nodes)
            verdicts.append(r.winnable)
        decided = [v for v in verdicts if v is not None]
        print(f"{m:>7}  {len(decided):>3}/{len(verdicts):<3} {sum(decided):>3}/{len(decided):<3}  "
              f"{statistics.median(ms):8.1f} / {pct(ms, .95):7.1f} / {max(ms):7.1f}   {pct(cpu, .95):8.1f}   "
              f"{statistics.median(nodes):8.0f} / {pct(nodes, .95):7.0f} / {max(nodes):7.0f}")
    if args.post_mortems:
        from toolkit.core.bots import play_out
        from toolkit.crew import post_mortem

        print(f"\npost_mortem of {args.post_mortems} all-beginner attempts per mission (node limit 200000 a call)")
        for m in args.missions:
            secs = []
            for seed in range(args.post_mortems):
                start = ENGINE.new_state(seed, players=args.players, mission=m)
                end, _ = play_out(ENGINE, seed, ["beginner"] * args.players, mission=m)
                hands = [list(start.hand(s)) for s in range(start.seats)]
                tricks = list(end.tricks) + ([(end.leader, tuple(end.trick))] if end.trick else [])
                t = time.perf_counter()
                post_mortem(hands, {}, tricks, leader=start.leader, captain=start.captain, mission=m,
                            node_limit=200_000)
                secs.append(time.perf_counter() - t)
            print(f"{m:>7}  median {statistics.median(secs):.2f} s  p95 {pct(secs, .95):.2f} s  max {max(secs):.2f} s")


if __name__ == "__main__":
    main()
