"""Double-dummy solver at two players, with and without TONOJA's columns (run by hand:
``PYTHONPATH=. .venv/bin/python benchmarks/crew_solver_tonoja.py``).

Deals: ``ENGINE.new_state(seed, players=2, mission=m)`` for missions 1-10 and ``--seeds`` seeds each, the
tasks allocated by the engine's first legal move at every step (the captain takes them in turn), the
captain leading. Each deal is solved twice: ``columns`` off (TONOJA's 14 cards one hand, the solver's only
mode before the columns; too optimistic) and on (``columns=`` the dealt columns). Prints per mode the median,
p95 and maximum CPU time, nodes, how many deals are winnable / lost / undecided at the cap, and the deals
whose verdict the columns change. ``--before PATH`` runs the "off" mode with another checkout's toolkit
(e.g. the commit before the columns) to compare the code too.
"""

from __future__ import annotations

import argparse
import statistics
import time


def two_player_deals(seeds: int):
    from toolkit.crew.engine import ENGINE

    out = []
    for mission in range(1, 11):
        for seed in range(seeds):
            state = ENGINE.new_state(seed, players=2, mission=mission)
            while state.phase in ("allocate", "predict"):
                state = ENGINE.apply(state, ENGINE.legal_moves(state)[0])
            if state.phase != "play":
                continue
            columns = [(str(c.face_down), str(c.face_up)) for c in state.columns]
            hands = [[str(c) for c in state.hands[0]], [str(c) for c in state.hands[1]],
                     [c for pair in columns for c in pair]]
            tasks: dict[int, list] = {}
            for task, owner, prediction in zip(state.tasks, state.owners, state.predictions):
                tasks.setdefault(owner, []).append(task if prediction is None else (task, prediction))
            out.append((mission, seed, hands, columns, tasks, state.captain))
    return out


def run(deals, use_columns: bool, time_limit: float):
    from toolkit.crew.solver import solve

    rows = []
    for mission, seed, hands, columns, tasks, captain in deals:
        extra = {"columns": columns} if use_columns else {}
        started = time.process_time()
        sol = solve(hands, tasks, leader=captain, captain=captain, time_limit=time_limit, mission=mission, **extra)
        rows.append((sol.winnable, time.process_time() - started, sol.nodes))
    return rows


def summary(name: str, rows) -> None:
    times = sorted(r[1] for r in rows)
    nodes = sorted(r[2] for r in rows)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    verdicts = [r[0] for r in rows]
    print(f"{name}: {len(rows)} deals, CPU median {1000 * statistics.median(times):.1f} ms, "
          f"p95 {1000 * p95:.1f} ms, max {1000 * times[-1]:.1f} ms; nodes median {statistics.median(nodes):.0f}, "
          f"max {nodes[-1]}; winnable {verdicts.count(True)}, lost {verdicts.count(False)}, "
          f"undecided {verdicts.count(None)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per mission (default 3: 30 deals)")
    parser.add_argument("--time-limit", type=float, default=30.0)
    args = parser.parse_args()
    deals = two_player_deals(args.seeds)
    off = run(deals, False, args.time_limit)
    on = run(deals, True, args.time_limit)
    summary("one hand (no columns)", off)
    summary("columns", on)
    changed = [(d[0], d[1], a[0], b[0]) for d, a, b in zip(deals, off, on) if a[0] != b[0]]
    print(f"verdicts changed by the columns: {len(changed)}", changed)


if __name__ == "__main__":
    main()
