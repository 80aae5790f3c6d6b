"""Crew engine speed: random mission playouts (run by hand: ``python benchmarks/crew_playouts.py``).

Prints, for seeded random playouts over 2–5 players and missions 1–33 (an attempt ends at success or
failure):

* actions per second — one action = ``legal_moves(state)`` + a random pick + the checked ``apply`` (which
  runs ``why_illegal`` and the transition with its events); the goal is ≥ 20 000/s;
* mission setups per second — ``new_state`` (unfamiliar-terrain draw, task draw, incompatible swaps,
  deal and footnote redeals);
* the task judge — ``task_status`` calls per second over a full 4-player game, and the incremental
  ``Judge.step`` the solver uses.

CPU time (``time.process_time``) is reported next to wall time: the machines are shared, so wall time
varies with the load.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from toolkit.crew import TASKS, Trick, legal_plays, task_status
from toolkit.crew.cards import Card, deal
from toolkit.crew.engine import ENGINE
from toolkit.crew.tasks import Ledger, compile_task


def playouts(games: int, seed: int) -> tuple[int, float, float, float, float, int]:
    rnd = random.Random(seed)
    actions = stuck = 0
    act_cpu = act_wall = setup_cpu = setup_wall = 0.0
    for g in range(games):
        players, mission = rnd.choice([2, 3, 4, 5]), rnd.randint(1, 33)
        c0, w0 = time.process_time(), time.perf_counter()
        state = ENGINE.new_state(seed * 100_000 + g, players=players, mission=mission)
        c1, w1 = time.process_time(), time.perf_counter()
        setup_cpu += c1 - c0
        setup_wall += w1 - w0
        while state.phase not in ("success", "failed"):
            moves = ENGINE.legal_moves(state)
            if not moves:  # a known dead end (see docs/crew-notes.md, "Speed"): end the attempt
                stuck += 1
                break
            state = ENGINE.apply(state, moves[rnd.randrange(len(moves))])
            actions += 1
        act_cpu += time.process_time() - c1
        act_wall += time.perf_counter() - w1
    return actions, act_cpu, act_wall, setup_cpu, setup_wall, stuck


def full_game_tricks(seed: int, players: int = 4) -> list[Trick]:
    rnd = random.Random(seed)
    hands = [list(h) for h in deal(players, seed)]
    leader = next(i for i, h in enumerate(hands) if Card.parse("S4") in h)
    tricks = []
    for _ in range(40 // players):
        plays = []
        for k in range(players):
            seat = (leader + k) % players
            options = legal_plays(hands[seat], plays[0] if plays else None)
            card = options[rnd.randrange(len(options))]
            hands[seat].remove(card)
            plays.append(card)
        trick = Trick(leader, plays)
        tricks.append(trick)
        leader = trick.winner
    return tricks


def judge_speed(seed: int) -> tuple[float, float]:
    tricks = full_game_tricks(seed)
    calls, c0 = 0, time.process_time()
    for tid in TASKS:
        for k in range(len(tricks) + 1):
            task_status(tid, 1, tricks[:k], 4, captain=0, prediction=2)
            calls += 1
    status_rate = calls / (time.process_time() - c0)
    ledgers, ledger = [], Ledger.start(4)
    for t in tricks:
        ledger = ledger.add(t)
        ledgers.append(ledger)
    judges = [compile_task(tid, 1, 4, 0, 2) for tid in TASKS]
    steps, c0 = 0, time.process_time()
    for _ in range(20):
        for j in judges:
            memo = j.start()
            for ledger in ledgers:
                memo = j.step(memo, ledger)
                steps += 1
    return status_rate, steps / (time.process_time() - c0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ENGINE.new_state(0)  # load data, rules and messages before timing
    print(f"load average before the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    actions, act_cpu, act_wall, setup_cpu, setup_wall, stuck = playouts(args.games, args.seed)
    print(f"random playouts: {args.games} attempts, {actions} actions ({actions / args.games:.1f} per attempt)")
    if stuck:
        print(f"  {stuck} attempt(s) ended with no legal move (mission 19 dead end)")
    print(f"  actions/s (legal_moves + checked apply): {actions / act_cpu:,.0f} CPU, {actions / act_wall:,.0f} wall"
          f"  (goal >= 20,000)")
    print(f"  mission setups/s: {args.games / setup_cpu:,.0f} CPU, {args.games / setup_wall:,.0f} wall")
    status_rate, step_rate = judge_speed(args.seed)
    print(f"task_status calls/s (4 players, 0-10 tricks, all 96 tasks): {status_rate:,.0f} CPU")
    print(f"Judge.step/s (incremental, for the solver): {step_rate:,.0f} CPU")


if __name__ == "__main__":
    main()
