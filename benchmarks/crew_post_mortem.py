"""Speed of the double-dummy coach: ``post_mortem`` of whole 10-trick 4-player missions.

Run by hand: ``PYTHONPATH=. .venv/bin/python benchmarks/crew_post_mortem.py [--games 60] [--node-limit N]``.
Each game is a real engine setup (missions 1–10 in turn, random bots allocate the tasks), then 40 random
legal cards — every trick is played even after a task failed, so every review covers 10 tricks and most
of them find a fatal card inside a trick (the slow case: the completions of that trick are solved one by
one). Prints the wall time per review: median, p95, max, and how many found a fatal card. Goal (issue 15):
p95 ≤ 3 s on the shared 2-core machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from toolkit.core.bots import play_out
from toolkit.crew import ENGINE, PlayCard, post_mortem
from toolkit.crew.cards import Trick, legal_plays


def mission_deal(seed: int, mission: int):
    """(hands as dealt, {seat: tasks}, captain) after random bots allocated the tasks."""
    state = ENGINE.new_state(seed, players=4, mission=mission)
    _, moves = play_out(ENGINE, seed, ["random"] * 4, mission=mission)
    for m in moves:
        if isinstance(m, PlayCard):
            break
        state = ENGINE.apply(state, m)
    tasks: dict[int, list] = {}
    for i, (t, o) in enumerate(zip(state.tasks, state.owners)):
        pred = state.predictions[i]
        tasks.setdefault(o, []).append(t if pred is None else (t, pred))
    return [list(h) for h in state.hands], tasks, state.captain


def random_tricks(rng: random.Random, hands, leader: int) -> list[Trick]:
    left = [list(h) for h in hands]
    tricks = []
    for _ in range(10):
        plays = []
        for i in range(4):
            seat = (leader + i) % 4
            card = rng.choice(legal_plays(left[seat], plays[0] if plays else None))
            left[seat].remove(card)
            plays.append(card)
        tricks.append(Trick(leader, plays))
        leader = tricks[-1].winner
    return tricks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--node-limit", type=int, default=None)
    args = ap.parse_args()
    times, lost, undecided = [], 0, 0
    for g in range(args.games):
        mission = 1 + g % 10
        hands, tasks, captain = mission_deal(1000 + g, mission)
        tricks = random_tricks(random.Random(g), hands, captain)
        t0 = time.perf_counter()
        pm = post_mortem(hands, tasks, tricks, leader=captain, captain=captain, node_limit=args.node_limit)
        times.append(time.perf_counter() - t0)
        lost += pm.lost_after is not None
        undecided += None in pm.verdicts
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"{args.games} reviews of 10-trick 4-player missions (missions 1-10): median "
          f"{statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms; "
          f"fatal card found in {lost}, undecided verdicts in {undecided}")


if __name__ == "__main__":
    main()
