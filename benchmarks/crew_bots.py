"""Speed of the Crew bots (run by hand): the expert's decision times and whole all-expert missions.

    PYTHONPATH=. python benchmarks/crew_bots.py [--missions 1 2 3 4 5] [--seeds 4] [--players 4] [--no-race]
                                                [--compare]

Prints, per decision kind, the median / p95 / max milliseconds of the expert's decisions, and the
seconds of each whole mission attempt (every seat an expert). Goals (issue 15): a card decision median
<= 150 ms and p95 <= 1 s; a 4-player all-expert mission <= 15 s. ``--no-race`` times the expert without
its early stop (``ExpertBot(race=False)``, every deal of the budget solved). ``--compare`` also asks the
other variant at every card decision with a choice (same view, same rng seed) and counts the decisions
where the moves or the rng's final states differ (the early stop must change none; its time is left out of
the decision figures but not of the missions').
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

from toolkit.core.bots import BotTable
from toolkit.crew import ENGINE
from toolkit.crew.bots.expert import ExpertBot
from toolkit.crew.engine import PlayCard


class Timed:
    """An expert that records how long each of its decisions took, by kind."""

    name = "expert"

    def __init__(self, log, cpu, race=True, compare=None):
        self.bot, self.log, self.cpu = ExpertBot(race=race), log, cpu
        self.other = ExpertBot(race=not race) if compare is not None else None
        self.compare = compare

    def decide(self, view, legal, rng):
        twin = copy.deepcopy(rng) if self.other is not None else None
        t, c = time.perf_counter(), time.process_time()
        d = self.bot.decide(view, legal, rng)
        elapsed, cpu = time.perf_counter() - t, time.process_time() - c
        kind = type(d.move).__name__ if d.move is not None else "none"
        if isinstance(d.move, PlayCard) and sum(1 for m in legal if isinstance(m, PlayCard)) == 1:
            kind = "PlayCard (forced)"
        elif isinstance(d.move, PlayCard) and twin is not None:
            e = self.other.decide(view, legal, twin)
            self.compare["card decisions"] = self.compare.get("card decisions", 0) + 1
            self.compare["differing"] = self.compare.get("differing", 0) + (
                e.move != d.move or twin.bit_generator.state != rng.bit_generator.state)
            raced = d if self.bot.race else e
            self.compare["stopped early"] = self.compare.get("stopped early", 0) + (
                raced.reason.code == "BOT_CREW_SAMPLED_RACED")
        self.log.setdefault(kind, []).append(elapsed)
        self.cpu.setdefault(kind, []).append(cpu)
        return d


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--missions", type=int, nargs="+", default=[1, 2, 3, 4, 5, 7, 9])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--no-race", action="store_true", help="the expert without its early stop")
    ap.add_argument("--compare", action="store_true", help="check every card choice against the other variant")
    args = ap.parse_args()
    compare: dict[str, int] | None = {} if args.compare else None
    log: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    games = []
    for mission in args.missions:
        for seed in range(args.seeds):
            state = ENGINE.new_state(seed, players=args.players, mission=mission)
            table = BotTable(ENGINE, [Timed(log, cpu, not args.no_race, compare) for _ in range(args.players)], seed)
            t, c = time.perf_counter(), time.process_time()
            while True:
                step = table.step(state)
                if step is None:
                    break
                state = ENGINE.apply(state, step[1].move)
            games.append((mission, seed, time.perf_counter() - t, state.phase, time.process_time() - c))
            print(f"mission {mission:2d} seed {seed}: {games[-1][2]:6.2f} s wall, {games[-1][4]:6.2f} s CPU  "
                  f"{state.phase}", flush=True)
    print()
    # wall time depends on the machine's load; CPU time of this process much less (both printed)
    for name, book in (("wall", log), ("CPU", cpu)):
        for kind, xs in sorted(book.items()):
            print(f"{name:4s} {kind:20s} n={len(xs):4d}  median {statistics.median(xs) * 1000:7.1f} ms  "
                  f"p95 {pct(xs, 0.95) * 1000:7.1f} ms  max {max(xs) * 1000:7.1f} ms")
    for name, k in (("wall", 2), ("CPU", 4)):
        secs = [g[k] for g in games]
        print(f"{name:4s} missions: n={len(secs)} median {statistics.median(secs):.2f} s  max {max(secs):.2f} s  "
              f"successes {sum(g[3] == 'success' for g in games)}")
    if compare is not None:
        print("compared with the other variant:", compare)


if __name__ == "__main__":
    main()
