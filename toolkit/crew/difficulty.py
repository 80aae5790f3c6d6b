"""How hard is each task really? The share of random deals in which a task is winnable double-dummy.

For every task and player count, deal ``deals`` seeded random hands, give the task to the best seat (the
crew chooses who takes it: a deal counts as winnable when *some* seat allowed to hold the task could
complete it with every hand visible) and solve. The captain (submarine 4) leads. Deals that the task's card
footnote says to redeal are redealt, as at the table.

The study scales out through any ``concurrent.futures.Executor``-shaped object (``submit`` returning futures
with ``result()``): a ``ProcessPoolExecutor`` on one machine, ``dask.distributed.Client(...).get_executor()``
on a cluster (``pip install deep-sea-rules-lab[dask]``). Work is cut into chunks of deals; every chunk is a
pure function of its arguments, and results are put back in order by key, so the table is identical
whichever executor ran it, in whatever order chunks finished.

The solver is capped by *nodes*, never by time, for the same reason: a time cap would make the answer
depend on the machine's load. A solve the search leaves open at ``node_limit`` goes to the SAT solver
(``solve(..., method="sat")``) for up to ``sat_limit`` conflicts, also a count, so the table stays the
same on every machine. A deal still open is ``undecided`` and reported separately; shares and their 95 %
Wilson intervals are over the decided deals, and the interval is widened to cover the undecided ones
either way (``low_all``/``high_all``).
"""

from __future__ import annotations

import csv
import io
import json
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any, Callable, Iterable, Mapping

from toolkit.core.errors import DataError, InvalidMoveError
from toolkit.core.studies import InlineExecutor, wilson  # noqa: F401 - also imported from here
from toolkit.crew.cards import Card, deal
from toolkit.crew.solver import solve
from toolkit.crew.tasks import CAPTAIN_COMPARISON, TASKS, redeal_needed

S4 = Card.parse("S4")
PLAYER_COUNTS = (3, 4, 5)
DEFAULT_SEED = 2026
DEFAULT_NODE_LIMIT = 3000
#: conflicts of the SAT solver for a solve the search left open at the node limit (0: no SAT pass)
DEFAULT_SAT_LIMIT = 20_000
OUTCOMES = ("win", "lose", "undecided")


def deal_seed(seed: int, players: int, index: int, attempt: int = 0) -> int:
    """The seed of deal ``index`` for ``players`` (``attempt`` > 0 after a footnote redeal).

    Every task uses the same deals (common random numbers), so differences between tasks are not noise
    from different hands."""
    return ((seed * 1_000_003 + players) * 1_000_003 + index) * 101 + attempt


def judge_deal(task_id: int, players: int, index: int, seed: int = DEFAULT_SEED,
               node_limit: int = DEFAULT_NODE_LIMIT, sat_limit: int = DEFAULT_SAT_LIMIT) -> tuple[str, int]:
    """(``"win"`` / ``"lose"`` / ``"undecided"``, nodes searched) for one task on one seeded deal. A solve
    the search leaves open at ``node_limit`` gets up to ``sat_limit`` SAT conflicts (counted as nodes)."""
    from toolkit.crew.solver import sat

    use_sat = sat_limit > 0 and sat.AVAILABLE
    attempt = 0
    while True:
        hands = deal(players, deal_seed(seed, players, index, attempt))
        if redeal_needed([task_id], hands) is None:
            break
        attempt += 1
    captain = next(s for s, h in enumerate(hands) if S4 in h)
    nodes = 0
    open_seats = []
    for k in range(players):
        owner = (captain + k) % players  # the captain chooses first, then clockwise
        if task_id in CAPTAIN_COMPARISON and owner == captain:
            continue
        sol = solve(hands, {owner: [task_id]}, captain=captain, node_limit=node_limit)
        nodes += sol.nodes
        if sol.winnable:
            return "win", nodes
        if sol.winnable is None:
            open_seats.append(owner)
    # Only when no seat's search found a win do the seats it left open go to the SAT solver: a seat that
    # cannot make the task is the SAT solver's slowest case, and another seat often wins at once.
    for owner in open_seats if use_sat else ():
        sol = solve(hands, {owner: [task_id]}, captain=captain, node_limit=sat_limit, method="sat")
        nodes += sol.nodes
        if sol.winnable:
            return "win", nodes
        if sol.winnable is False:
            open_seats = [s for s in open_seats if s != owner]
    return ("undecided" if open_seats else "lose"), nodes


def run_chunk(task_id: int, players: int, start: int, stop: int, seed: int = DEFAULT_SEED,
              node_limit: int = DEFAULT_NODE_LIMIT, sat_limit: int = DEFAULT_SAT_LIMIT) -> list[tuple[int, str, int]]:
    """Deals ``start``..``stop - 1`` of one (task, players) cell: ``[(index, outcome, nodes), ...]``.

    A module-level function of plain arguments, so process pools and Dask workers can pickle it."""
    return [(i, *judge_deal(task_id, players, i, seed, node_limit, sat_limit)) for i in range(start, stop)]


@dataclass(frozen=True)
class Cell:
    """One (task, player count) result."""

    task: int
    players: int
    difficulty: int
    deals: int
    win: int
    lose: int
    undecided: int
    nodes: int

    @property
    def decided(self) -> int:
        return self.win + self.lose

    @property
    def share(self) -> float | None:
        """Share of decided deals that are winnable (``None`` if none was decided)."""
        return self.win / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.win, self.decided)

    @property
    def interval_all(self) -> tuple[float, float]:
        """The interval widened so that every undecided deal may be either: a worst-case bound."""
        low = wilson(self.win, self.deals)[0]
        high = wilson(self.win + self.undecided, self.deals)[1]
        return low, high

    def row(self) -> dict[str, Any]:
        low, high = self.interval
        low_all, high_all = self.interval_all
        share = self.share
        return dict(asdict(self), share=None if share is None else round(share, 4), low=round(low, 4),
                    high=round(high, 4), low_all=round(low_all, 4), high_all=round(high_all, 4))


@dataclass(frozen=True)
class Table:
    """The study's result: one :class:`Cell` per (task, players), in task then player order."""

    cells: tuple[Cell, ...]
    seed: int
    node_limit: int
    meta: Mapping[str, Any] = field(default_factory=dict)

    def cell(self, task: int, players: int) -> Cell:
        for c in self.cells:
            if c.task == task and c.players == players:
                return c
        raise KeyError((task, players))

    def rows(self) -> list[dict[str, Any]]:
        return [c.row() for c in self.cells]

    def to_json(self) -> str:
        return json.dumps({"seed": self.seed, "node_limit": self.node_limit, "meta": dict(self.meta),
                           "cells": [asdict(c) for c in self.cells]}, indent=None, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, origin: str = "task difficulty table") -> "Table":
        try:
            data = json.loads(text)
            cells = []
            for i, c in enumerate(data["cells"]):
                cell = Cell(**{k: int(c[k]) for k in ("task", "players", "difficulty", "deals", "win", "lose",
                                                        "undecided", "nodes")})
                if cell.win + cell.lose + cell.undecided != cell.deals or cell.task not in TASKS:
                    raise DataError(f"{origin}: cells[{i}] does not add up or names no task: {c!r}")
                cells.append(cell)
            return cls(tuple(cells), int(data["seed"]), int(data["node_limit"]), dict(data.get("meta", {})))
        except DataError:
            raise
        except (ValueError, KeyError, TypeError) as exc:
            raise DataError(f"{origin}: malformed ({exc})") from None

    def to_csv(self) -> str:
        out = io.StringIO()
        rows = self.rows()
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["task"])
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()


def _check(tasks: Iterable[int], players: Iterable[int], deals: int, chunk: int, node_limit: int,
           sat_limit: int = 0):
    tasks = list(tasks)
    players = list(players)
    for t in tasks:
        if isinstance(t, bool) or not isinstance(t, int) or t not in TASKS:
            raise InvalidMoveError(f"no task {t!r}: tasks are numbered 1–{len(TASKS)}")
    for p in players:
        if p not in PLAYER_COUNTS:
            raise InvalidMoveError(f"the study covers 3, 4 and 5 players, not {p!r}")
    for name, value, low in (("deals", deals, 1), ("chunk", chunk, 1), ("node_limit", node_limit, 1),
                             ("sat_limit", sat_limit, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise InvalidMoveError(f"{name} must be a whole number of at least {low}, not {value!r}")
    if deals > 100_000:
        raise InvalidMoveError(f"deals must be at most 100000, not {deals}")
    return tasks, players


def study(tasks: Iterable[int] = tuple(range(1, 97)), players: Iterable[int] = PLAYER_COUNTS, deals: int = 40,
          seed: int = DEFAULT_SEED, node_limit: int = DEFAULT_NODE_LIMIT, executor: Executor | None = None,
          chunk: int = 10, node_budget: int | None = None,
          on_chunk: Callable[[int, int], Any] | None = None, sat_limit: int = DEFAULT_SAT_LIMIT) -> Table:
    """Run the study for ``tasks`` x ``players`` with up to ``deals`` seeded deals per cell.

    ``executor``: anything with ``submit(fn, *args)`` returning a future (``ProcessPoolExecutor``,
    ``ThreadPoolExecutor``, a Dask ``ClientExecutor``); ``None`` runs inline.

    ``node_budget`` bounds the work per cell: chunks of ``chunk`` deals are run in waves (every active
    cell's next chunk goes to the executor at once), and a cell stops taking chunks once it has searched
    ``node_budget`` nodes. Easy tasks get all ``deals``; hard ones stop earlier with wider intervals. The
    decision depends only on node counts, so the table is still the same on any executor and machine.
    ``on_chunk(done, submitted)`` reports progress. ``sat_limit``: SAT conflicts for a solve the search
    leaves open at ``node_limit`` (0: none; see :func:`judge_deal`)."""
    tasks, players = _check(tasks, players, deals, chunk, node_limit, sat_limit)
    if node_budget is not None and (isinstance(node_budget, bool) or not isinstance(node_budget, int)
                                    or node_budget < 1):
        raise InvalidMoveError(f"node_budget must be a whole number of at least 1, not {node_budget!r}")
    executor = executor or InlineExecutor()
    cells_keys = [(t, p) for t in tasks for p in players]
    results: dict[tuple[int, int], list[tuple[int, str, int]]] = {k: [] for k in cells_keys}
    spent = {k: 0 for k in cells_keys}
    active = list(cells_keys)
    start = 0
    done = submitted = 0
    while active and start < deals:
        wave = [(key, executor.submit(run_chunk, key[0], key[1], start, min(start + chunk, deals), seed,
                                      node_limit, sat_limit)) for key in active]
        submitted += len(wave)
        for key, future in wave:  # collected in submission order: completion order cannot matter
            rows = future.result()
            results[key].extend(rows)
            spent[key] += sum(n for _, _, n in rows)
            done += 1
            if on_chunk is not None:
                on_chunk(done, submitted)
        start += chunk
        active = [k for k in active if node_budget is None or spent[k] < node_budget]
    cells = []
    for t, p in cells_keys:
        rows = sorted(results[(t, p)])
        counts = {o: sum(1 for _, outcome, _ in rows if outcome == o) for o in OUTCOMES}
        cells.append(Cell(task=t, players=p, difficulty=TASKS[t].difficulty_for(p), deals=len(rows),
                          win=counts["win"], lose=counts["lose"], undecided=counts["undecided"],
                          nodes=sum(n for _, _, n in rows)))
    return Table(tuple(cells), seed, node_limit, {"max_deals": deals, "chunk": chunk, "node_budget": node_budget,
                                                  "sat_limit": sat_limit})


def dask_executor(address: str | None = None, **cluster_options: Any):
    """A Dask ``ClientExecutor`` (``concurrent.futures`` shaped) and its client: connect to ``address`` or
    start a local cluster with ``cluster_options``. Needs the ``dask`` extra; close the client when done."""
    try:
        from dask.distributed import Client
    except ImportError as exc:  # pragma: no cover - exercised only without the extra
        raise ImportError("the Dask executor needs the optional extra: pip install 'deep-sea-rules-lab[dask]'") from exc
    # Without an address the client starts its own local cluster, and closing the client shuts that down
    # too (a LocalCluster made here and handed over would outlive ``client.close()`` and keep its ports).
    client = Client(address) if address else Client(**cluster_options)
    return client.get_executor(), client


TABLE_FILE = "task_difficulty.json"


def load_table() -> Table:
    """The precomputed table shipped with the package (``toolkit/crew/data/task_difficulty.json``),
    made by ``benchmarks/crew_difficulty_table.py``."""
    text = resources.files("toolkit.crew").joinpath("data", TABLE_FILE).read_text(encoding="utf-8")
    return Table.from_json(text, f"toolkit/crew/data/{TABLE_FILE}")


def summary_by_difficulty(table: Table, players: int) -> list[tuple[int, float, int]]:
    """(printed difficulty, mean winnable share, number of tasks) for one player count."""
    groups: dict[int, list[float]] = {}
    for c in table.cells:
        if c.players == players and c.share is not None:
            groups.setdefault(c.difficulty, []).append(c.share)
    return [(d, sum(v) / len(v), len(v)) for d, v in sorted(groups.items())]
