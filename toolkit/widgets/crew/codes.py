"""The Crew table's links and codes: the page query, moves as text, saved mission codes (pure functions).

One job: turn a table's setup and moves into text (a link's query, a code to paste) and back, treating every
text as untrusted (clamped, or refused with :class:`SavedMissionError`); the engine checks each move when
it is replayed. No widget here: a table frame calls these as they are.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from toolkit.core.errors import RuleError
from toolkit.crew.engine import ENGINE, PlayCard
from toolkit.crew.missions import LAST_MISSION
from toolkit.widgets.crew.common import int_param
from toolkit.widgets.seats import PACE_DEFAULT, PACE_MAX, PACE_MIN, YOU, default_seats


def options_from_query(params: Mapping[str, str]) -> tuple[int, dict[str, Any]]:
    """``?seed=7&players=4&mission=3`` (untrusted: clamped, defaults on anything unreadable)."""
    seed = int_param(params, "seed", 1, 0, 2**31 - 1)
    players = int_param(params, "players", 4, 2, 5)
    mission = int_param(params, "mission", 1, 1, LAST_MISSION)
    return seed, {"players": players, "mission": mission}


def seats_from_query(params: Mapping[str, str], seats: int, levels: Sequence[str]) -> list[str]:
    """``?seats=you,expert,random,you`` (untrusted): any unknown entry or a wrong count gives the default."""
    raw = params.get("seats")
    default = default_seats(seats, levels)
    if not raw:
        return default
    items = [s.strip().lower() for s in raw[:200].split(",")]
    if len(items) != seats or any(s not in (YOU, *levels) for s in items):
        return default
    return items


MAX_MOVES_TEXT = 3000


def encode_moves(moves: Sequence[Any]) -> str:
    """Moves for a link: ``take_78.P9.P7.sonar_1_B6_bottom`` (a bare card code plays that card)."""
    return ".".join(str(m.card) if isinstance(m, PlayCard) else str(m).replace(" ", "_") for m in moves)


def decode_moves(text: str) -> list[str]:
    """The move texts of :func:`encode_moves` (untrusted: each is parsed by the engine when played)."""
    out = []
    for token in text[:MAX_MOVES_TEXT].split("."):
        token = token.strip()
        if not token:
            continue
        out.append(f"play {token}" if re.fullmatch(r"[BGYPSbgyps][0-9]", token) else token.replace("_", " "))
    return out


def moves_from_query(query: str | None) -> list[str]:
    """``?moves=…`` read from the raw query (longer than the 200 characters other parameters keep)."""
    import urllib.parse

    from toolkit.widgets.base import page_query_string
    raw = query if query is not None else page_query_string()
    values = urllib.parse.parse_qs(raw[:MAX_MOVES_TEXT + 500]).get("moves")
    return decode_moves(values[-1]) if values else []


class SavedMissionError(RuleError):
    """A mission code that cannot be opened: ``key`` and ``params`` say why in the page's language."""

    def __init__(self, key: str, **params: Any):
        super().__init__(f"{key} {params}")
        self.key, self.params = key, params


MAX_CODE_TEXT = MAX_MOVES_TEXT + 500


def mission_code(seed: int, players: int, mission: int, moves: Sequence[Any]) -> str:
    """A saved mission as a code: the query of its link without the page settings
    (``seed=10&players=4&mission=1&moves=take_78.P9.P7``)."""
    import urllib.parse
    return urllib.parse.urlencode({"seed": seed, "players": players, "mission": mission,
                                   "moves": encode_moves(moves)}, safe="-:;,")


def parse_mission_code(text: Any) -> tuple[int, dict[str, int], list[str]]:
    """``(seed, {"players", "mission"}, move texts)`` from a pasted code, ``?code`` or whole link.

    Untrusted: anything that is not a readable code raises :class:`SavedMissionError` (never another
    exception); the moves are checked later, one by one, by the engine."""
    import urllib.parse

    if not isinstance(text, str) or not text.strip():
        raise SavedMissionError("crew.ui.saved_empty")
    if len(text) > MAX_CODE_TEXT:
        raise SavedMissionError("crew.ui.saved_too_long", n=len(text), max=MAX_CODE_TEXT)
    text = text.strip().split("#", 1)[0]
    if "?" in text:
        text = text.split("?", 1)[1]
    try:
        values = urllib.parse.parse_qs(text, keep_blank_values=True, max_num_fields=20)
    except ValueError:
        raise SavedMissionError("crew.ui.saved_not_code") from None
    if "seed" not in values or "moves" not in values:
        raise SavedMissionError("crew.ui.saved_not_code")
    numbers = {}
    for field, low, high, default in (("seed", 0, 2**31 - 1, None), ("players", 2, 5, 4),
                                      ("mission", 1, LAST_MISSION, 1)):
        raw = values.get(field, [None])[-1]
        if raw is None:
            numbers[field] = default
            continue
        raw = raw.strip()
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 12) or not low <= int(raw) <= high:
            raise SavedMissionError("crew.ui.saved_bad_value", field=field, value=raw[:20], low=low, high=high)
        numbers[field] = int(raw)
    moves = decode_moves(values["moves"][-1])
    if not moves:
        raise SavedMissionError("crew.ui.saved_no_moves")
    return numbers["seed"], {"players": numbers["players"], "mission": numbers["mission"]}, moves


#: where the saved missions live in the browser (``localStorage``; one origin shares it across pages)
STORAGE_KEY = "deepsea.crew.saved-missions.v1"


def finished_mission(text: Any) -> dict[str, Any]:
    """A saved mission read back from the browser's storage, replayed through the engine: the entry the
    saved list shows (seed, players, mission, moves, attempt, phase, tricks, code).

    Untrusted: anything else than the code of a mission whose attempt ended raises
    :class:`SavedMissionError` (a refused move, a code of a game in progress: nothing unfinished is kept).

    >>> finished_mission("seed=1&moves=take_1").get("phase")
    Traceback (most recent call last):
    ...
    toolkit.widgets.crew.codes.SavedMissionError: crew.ui.saved_refused_stored {'n': 1}
    """
    from toolkit.core.session import Session

    seed, options, moves = parse_mission_code(text)
    try:
        session = Session(ENGINE, seed, dict(options))
    except RuleError:
        raise SavedMissionError("crew.ui.saved_refused_stored", n=0) from None
    for n, move in enumerate(moves, 1):
        try:
            session.push(ENGINE.parse_move(move.strip()[:200]))
        except RuleError:
            raise SavedMissionError("crew.ui.saved_refused_stored", n=n) from None
    state = session.state
    if not ENGINE.play_out_over(state):
        raise SavedMissionError("crew.ui.saved_unfinished_stored")
    played = list(session.moves)
    return {"seed": seed, "players": options["players"], "mission": options["mission"], "moves": tuple(played),
            "attempt": state.attempt, "phase": state.phase, "tricks": len(state.tricks),
            "code": mission_code(seed, options["players"], options["mission"], played)}


def pace_from_query(params: Mapping[str, str]) -> float:
    try:
        value = float(params.get("pace", PACE_DEFAULT))
    except (TypeError, ValueError):
        return PACE_DEFAULT
    return min(max(value, PACE_MIN), PACE_MAX) if value == value else PACE_DEFAULT
