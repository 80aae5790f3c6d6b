"""Speed of the coach's close calls (``toolkit.crew.close_calls``) on won 10-trick 4-player missions.

Run by hand: ``PYTHONPATH=. .venv/bin/python benchmarks/crew_close_calls.py [--games 30]``.
Game g plays mission 1 + g % 10 with seed 100 + g by four expert bots; every first attempt that is won is
reviewed (a won attempt is the slow case: every card played is a choice to judge, each legal card one
incremental SAT call). Prints the CPU time per review: median, p95, max, and the close calls found.
"""

from __future__ import annotations

import argparse
import statistics
import time

from toolkit.core.bots import play_out
from toolkit.crew import ENGINE, PlayCard, close_calls


def review_inputs(start, final) -> dict:
    tasks: dict[int, list] = {}
    for i, (t, o) in enumerate(zip(start.tasks, start.owners)):
        pred = start.predictions[i]
        tasks.setdefault(o, []).append(t if pred is None else (t, pred))
    return dict(hands=[list(start.hand(s)) for s in range(start.seats)], tasks=tasks, tricks=list(final.tricks),
                leader=start.leader, captain=start.captain)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    args = ap.parse_args()
    times, choices, only = [], 0, 0
    for g in range(args.games):
        mission, seed = 1 + g % 10, 100 + g
        final, moves = play_out(ENGINE, seed, ["expert"] * 4, players=4, mission=mission)
        state, start = ENGINE.new_state(seed, players=4, mission=mission), None
        for m in moves:
            if isinstance(m, PlayCard) and start is None:
                start = state
            state = ENGINE.apply(state, m)
        if start is None or start.attempt != final.attempt or final.phase != "success":
            continue
        t0 = time.process_time()
        calls = close_calls(**review_inputs(start, final), node_limit=200_000)
        times.append(time.process_time() - t0)
        choices += len(calls.choices)
        only += len(calls.only_cards)
        print(f"mission {mission:2d} seed {seed}: {1000 * times[-1]:6.1f} ms, {len(calls.choices)} choices, "
              f"{len(calls.only_cards)} close calls", flush=True)
    times.sort()
    p95 = times[round(0.95 * (len(times) - 1))]
    print(f"{len(times)} won missions reviewed: CPU median {1000 * statistics.median(times):.1f} ms, "
          f"p95 {1000 * p95:.1f} ms, max {1000 * times[-1]:.1f} ms; {only} close calls in {choices} choices")


if __name__ == "__main__":
    main()
