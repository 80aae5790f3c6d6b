"""The table store: the rules of a shared table over one small SQL schema (SQLite or PostgreSQL).

Three tables hold everything::

    deepsea_tables (code PK, game, seed, options JSON, seats JSON, created)
    deepsea_seats  (code, seat, token_hash, seen)        one row per seat; token_hash NULL = free
    deepsea_moves  (code, idx, move, seat, at)          PK (code, idx): one move per index, ever

The primary key on ``(code, idx)`` is what makes racing appends safe: two kernels that both saw a log of
length n and both append move n validate against the same state, and the database lets exactly one insert
win; the other gets :class:`StaleMoveError`. No lock is held while a move is judged by the engine.

Tokens are ``secrets.token_urlsafe`` values; only their SHA-256 is stored, so reading the database does not
give anyone a seat.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from toolkit import GAMES as GAME_NAMES
from toolkit.core.bots import Decision, make_bot
from toolkit.core.checks import check_int, check_seed, check_str
from toolkit.core.engine import Engine
from toolkit.core.errors import IllegalMoveError, InvalidSeatError, RuleError
from toolkit.tables.errors import (CorruptLogError, NotYourMoveError, SeatTakenError, StaleMoveError, TableError,
                                   TokenError, UnknownTableError)

#: the games a table can hold (``toolkit.<game>``: its ``ENGINE`` and ``BOTS``)
GAMES = GAME_NAMES
HUMAN = "human"
#: a table code: 12 URL-safe characters (72 random bits), short enough to read out, too many to guess
CODE_BYTES = 9
#: how often :meth:`TableStore.wait` looks at an SQLite file for new moves (PostgreSQL is woken by NOTIFY)
POLL_S = 0.05
#: the longest a single log may grow (a guard against a runaway writer; real games are far shorter)
MAX_MOVES = 5_000

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS deepsea_tables (
        code TEXT PRIMARY KEY, game TEXT NOT NULL, seed TEXT NOT NULL, options TEXT NOT NULL,
        seats TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS deepsea_seats (
        code TEXT NOT NULL, seat INTEGER NOT NULL, token_hash TEXT, seen DOUBLE PRECISION,
        PRIMARY KEY (code, seat))""",
    """CREATE TABLE IF NOT EXISTS deepsea_moves (
        code TEXT NOT NULL, idx INTEGER NOT NULL, move TEXT NOT NULL, seat INTEGER,
        at DOUBLE PRECISION NOT NULL, PRIMARY KEY (code, idx))""",
)


@dataclasses.dataclass(frozen=True)
class SeatInfo:
    """One seat as every visitor may see it: who plays it and whether a person holds it now."""

    seat: int
    kind: str            # "human" or a bot level
    claimed: bool        # a person holds the seat (always False for a bot)
    seen: float | None   # when its holder last showed a sign of life (time.time()), or None


@dataclasses.dataclass(frozen=True)
class TableInfo:
    """A table's public record: what game, which options, which seats (no tokens, no hidden cards)."""

    code: str
    game: str
    seed: int
    options: Mapping[str, Any]
    seats: tuple[SeatInfo, ...]
    moves: int


def default_url() -> str:
    """Where tables live when no URL is given: ``$DEEPSEA_TABLES_URL``, else an SQLite file in the Jupyter
    server's data folder (``$JUPYTER_DATA_DIR``, else ``~/.local/share/jupyter``): ``deepsea/tables.sqlite3``.
    Every kernel of one server finds the same file."""
    url = os.environ.get("DEEPSEA_TABLES_URL")
    if url:
        return url
    data = os.environ.get("JUPYTER_DATA_DIR") or str(Path.home() / ".local" / "share" / "jupyter")
    return "sqlite:///" + str(Path(data) / "deepsea" / "tables.sqlite3")


def open_store(url: str | None = None) -> "TableStore":
    """A :class:`TableStore` at ``url``: ``sqlite:///path`` (or a plain path; ``sqlite:///:memory:`` for
    one process), ``postgresql://user@host:port/db``. ``None``: :func:`default_url`."""
    if url is None:
        url = default_url()
    check_str("url", url)
    if url.startswith(("postgresql://", "postgres://")):
        from toolkit.tables.postgres import PostgresBackend
        return TableStore(PostgresBackend(url))
    from toolkit.tables.sqlite import SqliteBackend
    path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else url
    if not path or "://" in path:
        raise TableError(f"not a table store URL: {url!r} (use sqlite:///path or postgresql://…)")
    return TableStore(SqliteBackend(path))


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _module(game: str):
    if not isinstance(game, str) or game not in GAMES:
        raise TableError(f"game must be one of {', '.join(GAMES)}, not {game!r:.60}")
    return importlib.import_module(f"toolkit.{game}")


def _check_code(code: Any) -> str:
    if not isinstance(code, str):
        raise TypeError(f"code must be a table code (text), not {code!r:.60}")
    if not (1 <= len(code) <= 64) or not all(c.isascii() and (c.isalnum() or c in "-_") for c in code):
        raise UnknownTableError(f"no table {code!r:.60}: a table code is letters, digits, - and _")
    return code


class _Replay:
    """One table's replayed log, extended as the log grows (a kernel replays each move once)."""

    def __init__(self, engine: Engine, seed: int, options: Mapping[str, Any]):
        self.engine = engine
        self.state = engine.new_state(seed, **options)
        self.moves: list[str] = []

    def extend(self, code: str, texts: Sequence[str]) -> Any:
        if texts[:len(self.moves)] != self.moves:     # the log changed under us: replay from scratch
            raise CorruptLogError(f"table {code}: the stored log no longer starts with the moves replayed")
        for index in range(len(self.moves), len(texts)):
            text = texts[index]
            try:
                move = self.engine.parse_move(text)
                self.state = self.engine.apply(self.state, move)
            except RuleError as exc:
                raise CorruptLogError(f"table {code}: stored move {index} {text!r:.60} is refused: {exc}") from None
            self.moves.append(text)
        return self.state


def due_bot_decision(engine: Engine, kinds: Sequence[str], seed: int, state: Any,
                     index: int) -> tuple[int, Decision] | None:
    """``(seat, decision)`` of the bot move due in ``state`` (the position after ``index`` moves) at a table
    whose seats are ``kinds``, or ``None`` if no bot moves there. A function of the position, the seed and
    the index alone: every kernel at the table computes the same move, and a page that did not play it can
    recompute its reason for the bot line (:mod:`toolkit.widgets.table.shared`). The bot sees
    ``observe(state, seat)`` and its own legal moves only; its dice are ``default_rng([seed, 0x7AB1E, seat,
    index])``."""
    if engine.play_out_over(state):
        return None
    decider = engine.decider(state)
    candidates = [s for s in engine.optional_actors(state) if s != decider] + [decider]
    for seat in candidates:
        if seat is None or kinds[seat] == HUMAN:
            continue
        bot = make_bot(engine, kinds[seat])
        legal = engine.legal_moves(state, seat)          # this seat's own moves only (the contract)
        rng = np.random.default_rng([seed, 0x7AB1E, seat, index])
        decision = bot.decide(engine.observe(state, seat), legal, rng)
        if decision.move is not None:
            return seat, decision
    return None


class TableStore:
    """Shared tables in one database. Thread-safe; several processes and machines may share a database.

    Every method refuses bad input with a :class:`~toolkit.core.errors.RuleError` naming what was wrong
    (or a ``TypeError`` naming the parameter) and writes nothing when it refuses.
    """

    def __init__(self, backend: Any):
        self._db = backend
        self._db.run_script(SCHEMA)
        self._replays: dict[str, _Replay] = {}
        self._lock = threading.RLock()

    @property
    def url(self) -> str:
        return self._db.url

    def close(self) -> None:
        self._db.close()

    # ---- creating and joining --------------------------------------------------------------------
    def create(self, game: str, seed: int, options: Mapping[str, Any] | None = None,
               seats: Sequence[str] = ()) -> str:
        """A new table of ``game`` from ``seed`` and ``options``; ``seats[i]`` is ``"human"`` or a bot level
        of ``toolkit.<game>.BOTS``. Returns its code (short, unguessable, safe in a URL)."""
        module = _module(game)
        seed = check_seed(seed)
        if options is None:
            options = {}
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise TypeError(f"options must be a mapping of option names to values, not {options!r:.60}")
        options = dict(options)
        try:
            json.dumps(options)
        except (TypeError, ValueError):
            raise TypeError(f"options must hold JSON values (numbers, text, lists), not {options!r:.60}") from None
        state = module.ENGINE.new_state(seed, **options)      # refuses bad options with the game's own error
        count = module.ENGINE.seat_count(state)
        if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
            raise TypeError(f"seats must be a list of 'human' or bot levels, not {seats!r:.60}")
        seats = list(seats)
        if len(seats) != count:
            raise TableError(f"this {game} game has {count} seats, but {len(seats)} were given")
        for i, kind in enumerate(seats):
            if kind != HUMAN and (not isinstance(kind, str) or kind not in module.BOTS):
                raise TableError(f"seat {i}: {kind!r:.40} is neither 'human' nor a bot level of {game} "
                                 f"({', '.join(module.BOTS)})")
        code = secrets.token_urlsafe(CODE_BYTES)
        now = time.time()
        with self._db.transaction() as run:
            run("INSERT INTO deepsea_tables (code, game, seed, options, seats, created) VALUES (?, ?, ?, ?, ?, ?)",
                (code, game, str(seed), json.dumps(options, sort_keys=True), json.dumps(seats), now))
            for i in range(count):
                run("INSERT INTO deepsea_seats (code, seat, token_hash, seen) VALUES (?, ?, NULL, NULL)", (code, i))
        return code

    def info(self, code: str) -> TableInfo:
        """The table's public record (:class:`TableInfo`)."""
        row = self._table_row(code)
        with self._db.transaction() as run:
            seats = run("SELECT seat, token_hash, seen FROM deepsea_seats WHERE code = ? ORDER BY seat", (code,))
            count = run("SELECT COUNT(*) FROM deepsea_moves WHERE code = ?", (code,))[0][0]
        kinds = row["seats"]
        return TableInfo(code=code, game=row["game"], seed=row["seed"], options=row["options"],
                         seats=tuple(SeatInfo(seat=s, kind=kinds[s], claimed=h is not None, seen=seen)
                                     for s, h, seen in seats), moves=int(count))

    def claim(self, code: str, seat: int) -> str:
        """Sit at ``seat``: returns the seat's token (keep it: it is the only way back to the seat). Refused
        if a person already holds the seat or it is a bot's."""
        row = self._table_row(code)
        seat = self._check_seat(row, seat)
        if row["seats"][seat] != HUMAN:
            raise SeatTakenError(f"table {code}: seat {seat} is played by the {row['seats'][seat]} bot")
        token = secrets.token_urlsafe(18)
        with self._db.transaction() as run:
            changed = run("UPDATE deepsea_seats SET token_hash = ?, seen = ? "
                          "WHERE code = ? AND seat = ? AND token_hash IS NULL", (_hash(token), time.time(), code, seat),
                          rowcount=True)
        if changed != 1:
            raise SeatTakenError(f"table {code}: seat {seat} is taken")
        return token

    def release(self, code: str, seat: int, token: str) -> None:
        """Leave ``seat`` (it becomes free for someone else)."""
        row = self._table_row(code)
        seat = self._check_seat(row, seat)
        self._check_token(token)
        with self._db.transaction() as run:
            changed = run("UPDATE deepsea_seats SET token_hash = NULL, seen = NULL "
                          "WHERE code = ? AND seat = ? AND token_hash = ?", (code, seat, _hash(token)), rowcount=True)
        if changed != 1:
            raise TokenError(f"table {code}: this token does not hold seat {seat}")

    def touch(self, code: str, seat: int, token: str) -> None:
        """A sign of life from the seat's holder (shown to the table as "connected")."""
        row = self._table_row(code)
        seat = self._check_seat(row, seat)
        self._check_token(token)
        with self._db.transaction() as run:
            changed = run("UPDATE deepsea_seats SET seen = ? WHERE code = ? AND seat = ? AND token_hash = ?",
                          (time.time(), code, seat, _hash(token)), rowcount=True)
        if changed != 1:
            raise TokenError(f"table {code}: this token does not hold seat {seat}")

    def hand_to_bot(self, code: str, seat: int, level: str, idle_for: float = 0.0) -> None:
        """Give a person's seat to a bot of ``level`` — only if nobody holds it, or its holder has shown no
        sign of life for ``idle_for`` seconds (the table's choice for a seat left for long)."""
        row = self._table_row(code)
        seat = self._check_seat(row, seat)
        module = _module(row["game"])
        if not isinstance(level, str) or level not in module.BOTS:
            raise TableError(f"level must be a bot level of {row['game']} ({', '.join(module.BOTS)}), not {level!r:.40}")
        if isinstance(idle_for, bool) or not isinstance(idle_for, (int, float)) or not idle_for >= 0:
            raise TypeError(f"idle_for must be a number of seconds ≥ 0, not {idle_for!r:.40}")
        kinds = list(row["seats"])
        if kinds[seat] != HUMAN:
            raise SeatTakenError(f"table {code}: seat {seat} is already the {kinds[seat]} bot's")
        kinds[seat] = level
        with self._db.transaction() as run:
            changed = run("UPDATE deepsea_seats SET token_hash = NULL, seen = NULL WHERE code = ? AND seat = ? "
                          "AND (token_hash IS NULL OR seen IS NULL OR seen < ?)",
                          (code, seat, time.time() - idle_for), rowcount=True)
            if changed != 1:
                raise SeatTakenError(f"table {code}: seat {seat} is held by someone still here")
            run("UPDATE deepsea_tables SET seats = ? WHERE code = ?", (json.dumps(kinds), code))

    # ---- the log -----------------------------------------------------------------------------------
    def moves(self, code: str) -> list[str]:
        """The log: every move so far, as text, in order. A stored entry that is not a legal move where it
        stands is refused (:class:`CorruptLogError`)."""
        row = self._table_row(code)
        texts = self._texts(code)
        self._replay(code, row, texts)
        return texts

    def append(self, code: str, index: int, move: Any, seat: int, token: str | None = None) -> int:
        """Append ``move`` as move number ``index`` made by ``seat`` (holding ``token``; bot seats take
        ``None``). Returns the log's new length. Refusals (nothing written): :class:`StaleMoveError` if
        ``index`` is not the log's length, :class:`~toolkit.core.errors.IllegalMoveError` (with the
        engine's Violation) if the move is not legal, :class:`NotYourMoveError` if another seat makes it,
        :class:`TokenError` if the token does not hold the seat."""
        row = self._table_row(code)
        seat = self._check_seat(row, seat)
        index = check_int("index", index, 0, MAX_MOVES - 1, error=TableError)
        engine = _module(row["game"]).ENGINE
        if isinstance(move, str):
            move = engine.parse_move(move)
        engine.check_move_type(move)
        human = row["seats"][seat] == HUMAN
        if human:
            self._check_token(token)
        elif token is not None:
            raise TokenError(f"table {code}: seat {seat} is the {row['seats'][seat]} bot's; bots append with no token")
        texts = self._texts(code)
        if index != len(texts):
            raise StaleMoveError(code, index, len(texts))
        state = self._replay(code, row, texts)
        violation = engine.why_illegal(state, move)
        if violation is not None:
            raise IllegalMoveError(violation)
        actor = engine.actor(state, move)
        if actor != seat:
            raise NotYourMoveError(f"table {code}: {move} is seat {actor}'s move, not seat {seat}'s")
        text = str(move)
        with self._db.transaction() as run:
            if human:
                held = run("SELECT token_hash FROM deepsea_seats WHERE code = ? AND seat = ?", (code, seat))
                if not held or held[0][0] != _hash(token):
                    raise TokenError(f"table {code}: this token does not hold seat {seat}")
                run("UPDATE deepsea_seats SET seen = ? WHERE code = ? AND seat = ?", (time.time(), code, seat))
            if not run("INSERT INTO deepsea_moves (code, idx, move, seat, at) VALUES (?, ?, ?, ?, ?)",
                       (code, index, text, seat, time.time()), unique=True):
                raise StaleMoveError(code, index, index + 1)
            self._db.notify(run, code)
        return index + 1

    def wait(self, code: str, after: int, timeout: float) -> list[str]:
        """The moves after index ``after`` (``moves[after:]``) as soon as there are any, or ``[]`` once
        ``timeout`` seconds have passed. SQLite: a 50 ms look at the file; PostgreSQL: LISTEN/NOTIFY."""
        self._table_row(code)
        after = check_int("after", after, 0, None, error=TableError)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout <= 3600:
            raise TypeError(f"timeout must be a number of seconds from 0 to 3600, not {timeout!r:.40}")
        deadline = time.monotonic() + timeout
        while True:
            texts = self._texts(code)
            if len(texts) > after:
                return self.moves(code)[after:]
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            self._db.wait_for_change(code, min(left, 1.0))

    # ---- what a seat may see ----------------------------------------------------------------------
    def state(self, code: str) -> Any:
        """The replayed state — with every hidden card: for the kernel's own checks, never for a page.
        Pages use :meth:`view` (a seat's observation) and :meth:`final_state` (after the game)."""
        row = self._table_row(code)
        return self._replay(code, row, self._texts(code))

    def view(self, code: str, seat: int | None, token: str | None = None) -> Mapping[str, Any]:
        """``observe(state, seat)`` for the holder of ``token`` at ``seat``; ``seat=None`` is the public view
        of a spectator (no token needed). A person's seat needs its token: nobody reads another's hand."""
        row = self._table_row(code)
        if seat is not None:
            seat = self._check_seat(row, seat)
            if row["seats"][seat] == HUMAN:
                self._check_holder(code, seat, token)
            else:
                raise TokenError(f"table {code}: seat {seat} is the {row['seats'][seat]} bot's; its hand is not shown")
        state = self._replay(code, row, self._texts(code))
        return _module(row["game"]).ENGINE.observe(state, seat)

    def final_state(self, code: str) -> Any:
        """The whole state once the game — for the Crew, the mission attempt — is over (every hand is public
        then, for the post-mortem); refused while it runs."""
        state = self.state(code)
        engine = _module(self._table_row(code)["game"]).ENGINE
        if not engine.play_out_over(state):
            raise TableError(f"table {code}: the game is still running; its hands are not public yet")
        return state

    # ---- bots -------------------------------------------------------------------------------------
    def next_bot_move(self, code: str) -> tuple[int, int, Decision] | None:
        """``(index, seat, decision)`` of the bot move due now, or ``None`` if a person acts next (or the
        game is over). A function of the log and the seed: every kernel computes the same move."""
        row = self._table_row(code)
        texts = self._texts(code)
        state = self._replay(code, row, texts)
        engine = _module(row["game"]).ENGINE
        if engine.play_out_over(state):
            return None
        due = due_bot_decision(engine, row["seats"], row["seed"], state, len(texts))
        if due is None:
            decider = engine.decider(state)
            if decider is not None and row["seats"][decider] != HUMAN:
                raise TableError(f"table {code}: the {row['seats'][decider]} bot at seat {decider} made no move")
            return None
        return (len(texts), *due)

    def play_bots(self, code: str, max_moves: int = 1) -> list[tuple[int, int, Decision]]:
        """Play up to ``max_moves`` bot moves due now; returns those this call appended. A move another
        kernel appended first is skipped (stale), not an error."""
        max_moves = check_int("max_moves", max_moves, 0, MAX_MOVES, error=TableError)
        played = []
        while len(played) < max_moves:
            nxt = self.next_bot_move(code)
            if nxt is None:
                break
            index, seat, decision = nxt
            try:
                self.append(code, index, decision.move, seat)
            except StaleMoveError:
                continue
            played.append(nxt)
        return played

    # ---- internals -------------------------------------------------------------------------------
    def _table_row(self, code: str) -> dict[str, Any]:
        code = _check_code(code)
        rows = self._db.query("SELECT game, seed, options, seats FROM deepsea_tables WHERE code = ?", (code,))
        if not rows:
            raise UnknownTableError(f"no table {code!r}")
        game, seed, options, seats = rows[0]
        try:
            row = {"game": game, "seed": int(seed), "options": json.loads(options), "seats": json.loads(seats)}
            _module(row["game"])
            if not isinstance(row["options"], dict) or not isinstance(row["seats"], list):
                raise ValueError
        except (ValueError, TypeError, RuleError):
            raise CorruptLogError(f"table {code}: its stored record is not a table of this toolkit") from None
        return row

    def _texts(self, code: str) -> list[str]:
        rows = self._db.query("SELECT idx, move FROM deepsea_moves WHERE code = ? ORDER BY idx", (code,))
        texts = []
        for expected, (idx, text) in enumerate(rows):
            if idx != expected or not isinstance(text, str):
                raise CorruptLogError(f"table {code}: the log has a gap or a foreign entry at index {expected}")
            texts.append(text)
        return texts

    def _replay(self, code: str, row: Mapping[str, Any], texts: Sequence[str]) -> Any:
        with self._lock:
            replay = self._replays.get(code)
            if replay is None or texts[:len(replay.moves)] != replay.moves:
                try:
                    replay = _Replay(_module(row["game"]).ENGINE, row["seed"], row["options"])
                except RuleError as exc:
                    raise CorruptLogError(f"table {code}: its stored options are refused: {exc}") from None
                self._replays[code] = replay
            return replay.extend(code, texts)

    def _check_seat(self, row: Mapping[str, Any], seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(row["seats"]):
            raise InvalidSeatError(f"no seat {seat!r:.40}: the seats of this table are 0 to {len(row['seats']) - 1}")
        return seat

    @staticmethod
    def _check_token(token: Any) -> str:
        if not isinstance(token, str) or not token:
            raise TokenError(f"a person's seat needs its token (the text given when the seat was claimed), "
                             f"not {token!r:.20}")
        return token

    def _check_holder(self, code: str, seat: int, token: Any) -> None:
        self._check_token(token)
        rows = self._db.query("SELECT token_hash FROM deepsea_seats WHERE code = ? AND seat = ?", (code, seat))
        if not rows or rows[0][0] != _hash(token):
            raise TokenError(f"table {code}: this token does not hold seat {seat}")

