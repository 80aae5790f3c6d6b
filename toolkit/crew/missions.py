"""The logbook: missions 1–32 and the epilogue, from ``data/missions.json``.

Each :class:`Mission` says how tasks are drawn (a target difficulty, fixed tasks, or none), how they are
allocated, how the crew may communicate, and which mission-level condition replaces task cards. Disputed
values are documented choices (see ``docs/crew-notes.md`` and rule ``crew.mission.catalogue``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from toolkit.core.errors import DataError, IllegalMoveError, InvalidMoveError
from toolkit.core.explain import Violation

COMM_MODES = ("normal", "currents", "rapture", "unfamiliar", "none")
_COMM = {"normal": "normal", "currents": "currents", "rapture_of_the_deep": "rapture",
         "unfamiliar_terrain": "unfamiliar"}

#: how the tasks reach the players
#: standard: clockwise from the captain; free: agreed freely; one: all to one member (mission 6);
#: captain: the captain takes all or gives all to one player (10, 13); volunteers: real-time missions
ALLOCATIONS = ("standard", "free", "one", "captain", "volunteers", "none")

#: mission-level conditions of the missions without task cards
CONDITIONS = {8: "nines", 12: "no-pink-lead", 21: "ones", 23: "first-winner-leads", 27: "yellow-five-last"}
#: mission 32: no draw, fixed tasks (74 win no tricks, 88 exactly three in a row, 85 two in a row,
#: 80 first and last) — "win 2 tricks in a row" read as task 85 (at some point)
FIXED_TASKS = {32: (74, 88, 85, 80)}
EPILOGUE_FROM = 33
LAST_MISSION = 60  # the epilogue is endless; difficulty 45 at mission 60 is far past any real crew


@dataclass(frozen=True)
class Mission:
    number: int
    difficulty: int | None          # target total; None for missions without a draw
    communication: str              # one of COMM_MODES
    allocation: str                 # one of ALLOCATIONS
    condition: str | None = None    # CONDITIONS value for missions without task cards
    fixed_tasks: tuple[int, ...] = ()
    special: str = ""
    dispute: str = ""
    time_limit: str | None = None   # real-time missions: "3:30" (data; the engine keeps no clock)
    volunteers: int = 0
    timed: bool = False

    @property
    def has_tasks(self) -> bool:
        return self.condition is None

    @property
    def rule(self) -> str:
        """The rule id that explains this mission's allocation."""
        return {"standard": "crew.alloc.order", "free": "crew.alloc.free", "one": "crew.mission.one-member",
                "captain": "crew.mission.captain-gives", "volunteers": "crew.realtime.timer",
                "none": "crew.mission.catalogue"}[self.allocation]


def _load(text: str, origin: str = "toolkit/crew/data/missions.json") -> dict[int, dict]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{origin}: not valid JSON: {exc}") from None
    out = {}
    for i, m in enumerate(data.get("missions", [])):
        where = f"{origin}: missions[{i}]"
        if not isinstance(m, dict) or not isinstance(m.get("mission"), int):
            raise DataError(f"{where}.mission: expected a mission number")
        if m.get("communication") not in _COMM:
            raise DataError(f"{where}.communication: unknown mode {m.get('communication')!r}")
        d = m.get("difficulty")
        if d is not None and (not isinstance(d, int) or d < 1):
            raise DataError(f"{where}.difficulty: expected a positive number or null, got {d!r}")
        out[m["mission"]] = m
    if sorted(out) != list(range(1, 33)):
        raise DataError(f"{origin}: expected missions 1 to 32")
    return out


RAW: Mapping[int, dict] = _load(resources.files("toolkit.crew").joinpath("data", "missions.json")
                                .read_text(encoding="utf-8"))


def mission(number: int, timed: bool = False) -> Mission:
    """Mission ``number`` (1–32, 33+ = epilogue). ``timed`` plays a real-time mission against the clock;
    untimed (the default) uses the mission's untimed communication and difficulty."""
    # checked before the cache: an unhashable argument would otherwise fail inside lru_cache
    if isinstance(number, bool) or not isinstance(number, int):
        raise InvalidMoveError(f"a mission number is a whole number, not {number!r}")
    if not isinstance(timed, bool):
        raise TypeError(f"timed must be True or False, not {timed!r}")
    if not 1 <= number <= LAST_MISSION:
        raise IllegalMoveError(Violation("CREW_NO_MISSION", "crew.mission.catalogue", number=number,
                                         last=LAST_MISSION))
    return _mission(number, timed)


@lru_cache(maxsize=256)
def _mission(number: int, timed: bool) -> Mission:
    if number >= EPILOGUE_FROM:
        return Mission(number, number - 15, "normal", "free", special="epilogue")
    m: dict[str, Any] = RAW[number]
    comm = _COMM[m["communication"]]
    alloc = {6: "one", 10: "captain", 13: "captain"}.get(number, "free" if m["free_task_selection"] else "standard")
    rt = m.get("real_time")
    difficulty = m["difficulty"]
    time_limit, volunteers = None, 0
    if rt:
        alloc, volunteers = "volunteers", rt["volunteers"]
        if timed:
            time_limit = rt["time"]
            # mission 26: the logbook text says 10 when timed (VTT: 12) — we follow the logbook
            difficulty = 10 if number == 26 else difficulty
        else:
            untimed = rt["untimed_comm"].split(" ")[0]
            comm = _COMM.get(untimed, "none" if untimed == "none" else comm)
            difficulty = rt.get("untimed_difficulty", difficulty)
    elif timed:
        raise IllegalMoveError(Violation("CREW_NOT_REAL_TIME", "crew.realtime.timer", number=number))
    condition = CONDITIONS.get(number)
    return Mission(number, difficulty, comm, "none" if condition else alloc, condition,
                   FIXED_TASKS.get(number, ()), m.get("special", ""), m.get("dispute", ""), time_limit,
                   volunteers, bool(timed and rt))


def custom(difficulty: int, communication: str = "normal", allocation: str = "standard") -> Mission:
    """A mission outside the logbook (mission number 0): any target, communication and allocation."""
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or difficulty < 1:
        raise InvalidMoveError(f"the target difficulty must be a whole number of at least 1, not {difficulty!r}")
    if communication not in COMM_MODES:
        raise InvalidMoveError(f"communication must be one of {', '.join(COMM_MODES)}, not {communication!r}")
    if allocation not in ("standard", "free", "one"):
        raise InvalidMoveError(f"allocation must be standard, free or one, not {allocation!r}")
    return Mission(0, difficulty, communication, allocation)
