"""Golden playthroughs: a recorded game (seed, options, moves, every event, the outcome) replayed as a test.

Like OpenSpiel's playthrough files: a change that alters any rule's effect shows up as a diff in a
readable JSON file. ``record`` plays a seeded random game (or given moves); ``check`` replays a file and
returns the first difference, or ``None``.

    python -m toolkit.core.golden record crew tests/golden/crew-4p.json --seed 3 --options '{"players": 4}'
    python -m toolkit.core.golden check tests/golden/crew-4p.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from toolkit.core.engine import Engine
from toolkit.core.session import Session

MAX_MOVES = 2000


def _event(e: Any) -> dict[str, Any]:
    return {"code": e.code, "rule": e.rule, "seat": e.seat, "en": e.text("en")}


def record(engine: Engine, seed: int, options: Mapping[str, Any] | None = None,
           moves: Sequence[str] | None = None, policy_seed: int = 0, max_moves: int = MAX_MOVES) -> dict:
    """Play (given moves, or seeded random legal moves until the end) and return the golden record."""
    session = Session(engine, seed, dict(options or {}))
    rng = np.random.default_rng(policy_seed)
    steps = []
    chosen = list(moves) if moves is not None else None
    while len(steps) < max_moves:
        if chosen is not None:
            if len(steps) == len(chosen):
                break
            move = chosen[len(steps)]
        else:
            legal = session.legal_moves()
            if not legal:
                break
            move = legal[int(rng.integers(len(legal)))]
        step = session.push(move)
        steps.append({"move": engine.move_to_json(step.move), "events": [_event(e) for e in step.events]})
    outcome = session.outcome()
    return {"game": engine.name, "seed": seed, "options": dict(options or {}), "steps": steps,
            "outcome": None if outcome is None else outcome.to_json(),
            "final_state": json.loads(engine.state_to_json(session.state))}


def check(engine: Engine, golden: Mapping[str, Any]) -> str | None:
    """Replay a golden record; the first difference as a sentence, or ``None`` if it all matches."""
    moves = [s["move"] for s in golden["steps"]]
    fresh = record(engine, golden["seed"], golden.get("options", {}), moves=moves)
    for number, (want, got) in enumerate(zip(golden["steps"], fresh["steps"]), 1):
        if want != got:
            return f"move {number} ({want['move']}): expected {want['events']}, got {got['events']}"
    if fresh["outcome"] != golden["outcome"]:
        return f"outcome: expected {golden['outcome']}, got {fresh['outcome']}"
    if fresh["final_state"] != golden["final_state"]:
        return "final state differs"
    return None


def _engine(name: str) -> Engine:
    from toolkit.engines import available_engines

    engines = available_engines()
    if name not in engines:
        raise SystemExit(f"unknown game {name!r}; available: {', '.join(engines)}")
    return engines[name]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m toolkit.core.golden")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("game")
    rec.add_argument("path", type=Path)
    rec.add_argument("--seed", type=int, default=1)
    rec.add_argument("--policy-seed", type=int, default=0)
    rec.add_argument("--options", default="{}")
    chk = sub.add_parser("check")
    chk.add_argument("paths", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "record":
        data = record(_engine(args.game), args.seed, json.loads(args.options), policy_seed=args.policy_seed)
        args.path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"recorded {len(data['steps'])} moves to {args.path}")
        return 0
    failed = 0
    for path in args.paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        diff = check(_engine(data["game"]), data)
        print(f"{path}: {'ok' if diff is None else diff}")
        failed += diff is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
