"""How strong are the bots? All-bot tables on seeded logbook missions, against the double-dummy ceiling.

For each mission, player count and deal index, the mission starts from one seed (the same deal and task
draw for every level: common random numbers) and a team of one bot level plays one attempt
(:func:`toolkit.core.bots.play_out`). Recorded per game: success or not, and whether the mission was
*winnable double-dummy* for the deal and the allocation (and predictions) that team chose, at its first
card (after any distress exchange) — the ceiling no honest team can pass. For the missions without task
cards (8, 12, 21, 23, 27) the verdict is whether the mission's own rule could be kept to the last trick
(:mod:`toolkit.crew.solver.conditions`). Two players: the solver keeps TONOJA's columns as they lie at
the first card (``solve(..., columns=...)``).

The study runs through the same executor interface as :mod:`toolkit.crew.difficulty` (anything with
``submit``: a ``ProcessPoolExecutor``, a Dask client's executor, or the in-process default), chunk by
chunk, with ``on_chunk(done, submitted)`` for a progress bar. Every chunk is a pure function of its
arguments and the bots count solver nodes, not seconds, so the table is the same on any machine.

>>> table = study(missions=[1], players=[3], levels=["random"], deals=2)
>>> cell = table.cell(1, 3, "random")
>>> cell.games, 0 <= cell.successes <= 2
(2, True)
"""

from __future__ import annotations

import csv
import io
import json
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any, Callable, Iterable

from toolkit.core.checks import check_int, check_seed
from toolkit.core.errors import DataError, InvalidMoveError
from toolkit.crew.difficulty import InlineExecutor, wilson

__all__ = ["Cell", "StrengthTable", "LEVELS", "game_seed", "play_game", "run_chunk", "study", "load_table"]

LEVELS = ("random", "beginner", "expert")
DEFAULT_SEED = 2026
#: the double-dummy verdict's cap per game (card plays; the SAT solver takes over as in ``solve``)
DD_NODE_LIMIT = 20_000


def game_seed(seed: int, mission: int, players: int, index: int) -> int:
    """The engine seed of deal ``index`` (the same for every level: common random numbers)."""
    check_seed(seed)
    check_int("mission", mission, 0, 1000)
    check_int("players", players, 2, 5)
    check_int("index", index, 0)
    return ((seed * 1_000_003 + mission) * 1_000_003 + players) * 1_000_003 + index


def play_game(mission: int, players: int, index: int, level: str, seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """One attempt of an all-``level`` table: ``{"success", "winnable" (True/False/None), "tricks"}``."""
    from toolkit.core.bots import BotTable
    from toolkit.crew.engine import ENGINE, PlayCard
    from toolkit.crew.missions import CONDITIONS
    from toolkit.crew.solver import solve

    s = game_seed(seed, mission, players, index)
    state = ENGINE.new_state(s, players=players, mission=mission)
    table = BotTable(ENGINE, [level] * players, s)
    at_first_card = None
    for _ in range(2000):
        step = table.step(state)
        if step is None:
            break
        if at_first_card is None and isinstance(step[1].move, PlayCard):
            at_first_card = state
        state = ENGINE.apply(state, step[1].move)
    winnable = None
    if at_first_card is not None:
        st = at_first_card
        hands = [list(h) for h in st.hands]
        extra: dict[str, Any] = {}
        if players == 2:
            # TONOJA's cards lie in its columns (the engine's hands[2] is empty): the solver keeps them
            columns = [(c.face_down, c.face_up) for c in st.columns]
            hands[st.tonoja] = [c for column in columns for c in column if c is not None]
            extra["columns"] = columns
        if not st.tasks and mission in CONDITIONS:
            winnable = solve(hands, {}, leader=st.leader, captain=st.captain, node_limit=DD_NODE_LIMIT,
                             mission=mission, **extra).winnable
        elif st.tasks:
            tasks: dict[int, list] = {}
            for t, owner, pred in zip(st.tasks, st.owners, st.predictions):
                tasks.setdefault(owner, []).append((t, pred) if pred is not None else t)
            winnable = solve(hands, tasks, leader=st.leader, captain=st.captain, node_limit=DD_NODE_LIMIT,
                             **extra).winnable
    return {"success": state.phase == "success", "winnable": winnable, "tricks": len(state.tricks)}


def run_chunk(mission: int, players: int, level: str, start: int, stop: int,
              seed: int = DEFAULT_SEED) -> list[dict[str, Any]]:
    """Games ``start..stop-1`` of one cell (a pure function: the unit the executor runs)."""
    return [play_game(mission, players, i, level, seed) for i in range(start, stop)]


@dataclass
class Cell:
    """One mission × players × level: games, successes, and the double-dummy verdicts of the same games."""

    mission: int
    players: int
    level: str
    games: int = 0
    successes: int = 0
    winnable: int = 0            # games whose deal and allocation were winnable double-dummy
    undecided: int = 0           # games the double-dummy cap left open
    won_winnable: int = 0        # successes among the winnable games
    #: the deal ranges ``[start, stop)`` played into this cell, so separate runs merge without counting a
    #: deal twice (empty for a cell of a table written before ranges were kept: it cannot be merged into)
    chunks: list = field(default_factory=list)

    def add(self, game: dict[str, Any]) -> None:
        self.games += 1
        self.successes += game["success"]
        if game["winnable"] is None:
            self.undecided += 1
        elif game["winnable"]:
            self.winnable += 1
            self.won_winnable += game["success"]

    @property
    def rate(self) -> float:
        return self.successes / self.games if self.games else float("nan")

    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.games)

    @property
    def ceiling(self) -> float:
        decided = self.games - self.undecided
        return self.winnable / decided if decided else float("nan")

    @property
    def of_winnable(self) -> float:
        """Successes among the double-dummy-winnable games (the issue's goal: >= 70 % for the expert)."""
        return self.won_winnable / self.winnable if self.winnable else float("nan")

    def covers(self, start: int, stop: int) -> bool:
        """Whether any deal of ``[start, stop)`` is already counted in this cell."""
        return any(a < stop and start < b for a, b in self.chunks)

    def row(self) -> dict[str, Any]:
        low, high = self.interval()
        w_low, w_high = wilson(self.won_winnable, self.winnable) if self.winnable else (float("nan"),) * 2
        fields = {k: v for k, v in asdict(self).items() if k != "chunks"}
        return {**fields, "rate": round(self.rate, 4), "low": round(low, 4), "high": round(high, 4),
                "ceiling": round(self.ceiling, 4), "of_winnable": round(self.of_winnable, 4),
                "of_winnable_low": round(w_low, 4), "of_winnable_high": round(w_high, 4)}


@dataclass
class StrengthTable:
    """The study's cells, keyed by (mission, players, level), with what was run."""

    cells: dict = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    def cell(self, mission: int, players: int, level: str) -> Cell:
        return self.cells[(mission, players, level)]

    def add_chunk(self, mission: int, players: int, level: str, start: int, stop: int,
                  games: list[dict[str, Any]]) -> Cell:
        """Count the games of deals ``[start, stop)`` into their cell. A cell without deal ranges (written
        by an older run, possibly by an older bot) is replaced rather than merged into; a range already
        counted is refused (``DataError``): merging never counts a deal twice."""
        if len(games) != stop - start:
            raise DataError(f"deals {start}-{stop - 1}: {len(games)} games for {stop - start} deals")
        key = (mission, players, level)
        cell = self.cells.get(key)
        if cell is None or not cell.chunks:
            cell = self.cells[key] = Cell(mission, players, level)
        if cell.covers(start, stop):
            raise DataError(f"mission {mission}, {players} players, {level}: deals {start}-{stop - 1} are already "
                            f"counted ({cell.chunks})")
        for game in games:
            cell.add(game)
        cell.chunks = _joined(cell.chunks + [[start, stop]])
        return cell

    def replace_game(self, mission: int, players: int, level: str, index: int, old: dict[str, Any],
                     new: dict[str, Any]) -> Cell:
        """Swap one counted game's result ``old`` for ``new`` (the same deal played again by a changed bot,
        ``benchmarks/crew_strength_recount.py``): the cell then counts as if ``new`` had been played. The deal
        must be counted in the cell (``DataError`` otherwise); its games and deal ranges stay as they are.

        >>> t = StrengthTable()
        >>> _ = t.add_chunk(1, 4, "expert", 0, 2, [{"success": False, "winnable": False}] * 2)
        >>> c = t.replace_game(1, 4, "expert", 1, {"success": False, "winnable": False},
        ...                    {"success": True, "winnable": True})
        >>> c.games, c.successes, c.winnable, c.won_winnable
        (2, 1, 1, 1)
        """
        for name, game in (("old", old), ("new", new)):
            if (not isinstance(game, dict) or not isinstance(game.get("success"), bool) or "winnable" not in game
                    or not any(game["winnable"] is v for v in (True, False, None))):
                raise TypeError(f"{name} must be a game result {{'success': bool, 'winnable': bool or None}}, "
                                f"not {game!r:.80}")
        cell = self.cells.get((mission, players, level))
        if cell is None or not cell.covers(index, index + 1):
            raise DataError(f"mission {mission}, {players} players, {level}: deal {index} is not counted")
        counts = {"successes": cell.successes, "undecided": cell.undecided, "winnable": cell.winnable,
                  "won_winnable": cell.won_winnable}
        for game, sign in ((old, -1), (new, +1)):
            counts["successes"] += sign * game["success"]
            if game["winnable"] is None:
                counts["undecided"] += sign
            elif game["winnable"]:
                counts["winnable"] += sign
                counts["won_winnable"] += sign * game["success"]
        if min(counts.values()) < 0:   # checked before anything changes: a refused swap leaves the cell as it was
            raise DataError(f"mission {mission}, {players} players, {level}: deal {index}'s old result "
                            f"{old} was never counted")
        for name, value in counts.items():
            setattr(cell, name, value)
        return cell

    def rows(self) -> list[dict[str, Any]]:
        return [self.cells[k].row() for k in sorted(self.cells, key=lambda k: (k[1], k[0], LEVELS.index(k[2])
                                                                                  if k[2] in LEVELS else 9))]

    def to_json(self) -> str:
        cells = [{k: v for k, v in asdict(c).items()} for c in self.cells.values()]
        return json.dumps({"meta": self.meta, "cells": cells}, indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, origin: str = "bot strength table") -> "StrengthTable":
        try:
            data = json.loads(text)
            cells = {}
            for c in data["cells"]:
                cell = Cell(**c)
                cells[(cell.mission, cell.players, cell.level)] = cell
            return cls(cells, data.get("meta", {}))
        except (ValueError, KeyError, TypeError) as exc:
            raise DataError(f"{origin}: not a bot strength table ({exc})") from None

    def to_csv(self) -> str:
        rows = self.rows()
        out = io.StringIO()
        if rows:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        return out.getvalue()


def study(missions: Iterable[int] = range(1, 33), players: Iterable[int] = (4,), levels: Iterable[str] = LEVELS,
          deals: int = 200, seed: int = DEFAULT_SEED, executor: Executor | None = None, chunk: int = 10,
          on_chunk: Callable[[int, int], Any] | None = None) -> StrengthTable:
    """Play ``deals`` seeded games per mission, player count and level (see the module docstring).

    ``executor``: anything with ``submit(fn, *args)`` returning a future; results go back in order by
    key, so the table is the same whichever executor ran it."""
    missions, players, levels = list(missions), list(players), list(levels)
    for p in players:
        if p not in (2, 3, 4, 5):
            raise InvalidMoveError(f"players must be 2 to 5, not {p!r}")
    for lv in levels:
        if lv not in LEVELS:
            raise InvalidMoveError(f"level must be one of {', '.join(LEVELS)}, not {lv!r}")
    for m in missions:
        if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= 32:
            raise InvalidMoveError(f"missions are 1 to 32, not {m!r}")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise InvalidMoveError(f"deals must be a positive whole number, not {deals!r}")
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise InvalidMoveError(f"chunk must be a positive whole number, not {chunk!r}")
    keys = [(m, p, lv, start) for p in players for m in missions for lv in levels for start in range(0, deals, chunk)]
    results = {}
    if executor is None or isinstance(executor, InlineExecutor):
        for done, key in enumerate(keys, 1):       # one chunk at a time, reporting as it goes
            m, p, lv, start = key
            results[key] = run_chunk(m, p, lv, start, min(start + chunk, deals), seed)
            if on_chunk is not None:
                on_chunk(done, len(keys))
    else:
        futures = [(key, executor.submit(run_chunk, key[0], key[1], key[2], key[3], min(key[3] + chunk, deals), seed))
                   for key in keys]
        for done, (key, fut) in enumerate(futures, 1):
            results[key] = fut.result()
            if on_chunk is not None:
                on_chunk(done, len(keys))
    table = StrengthTable(meta={"seed": seed, "deals": deals, "missions": missions, "players": players,
                                "levels": levels, "dd_node_limit": DD_NODE_LIMIT})
    for key in sorted(results):
        m, p, lv, start = key
        table.add_chunk(m, p, lv, start, start + len(results[key]), results[key])
    return table


def _joined(ranges: list) -> list:
    """``[start, stop)`` ranges sorted, touching ones joined: ``[[0, 10], [10, 20], [30, 40]] -> [[0, 20], [30, 40]]``."""
    out: list = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def load_table(name: str = "bot_strength.json") -> StrengthTable:
    """The committed study (``toolkit/crew/data/bot_strength.json``; see docs/crew-bots.md for what ran)."""
    if not isinstance(name, str):
        raise TypeError(f"name must be the file name of a committed study, not {name!r:.60}")
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise DataError(f"name must be a file name in toolkit/crew/data, not {name!r:.60}")
    try:
        text = resources.files("toolkit.crew").joinpath("data", name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{name}: cannot read the study: {exc}") from None
    return StrengthTable.from_json(text, origin=name)
