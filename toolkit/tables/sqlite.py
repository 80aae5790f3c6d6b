"""The SQLite backend: one file, no set-up. WAL lets readers go on while a kernel writes; every kernel of
one Jupyter server opens the same file (see :func:`toolkit.tables.default_url`)."""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence

from toolkit.tables.errors import TableError

#: how long a writer waits for another's transaction before giving up (a table's writes take microseconds)
BUSY_TIMEOUT_MS = 10_000


class SqliteBackend:
    def __init__(self, path: str):
        if path == ":memory:":
            # one in-memory database shared by this process's connections (threads)
            self._target, self._uri = f"file:deepsea-{uuid.uuid4().hex}?mode=memory&cache=shared", True
            self.url = "sqlite:///:memory:"
        else:
            file = Path(path).expanduser()
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise TableError(f"cannot create the folder of the table store {str(file.parent)!r}: {exc}") from None
            self._target, self._uri = str(file), False
            self.url = "sqlite:///" + str(file)
        self._local = threading.local()
        self._keep = self._connect()      # an in-memory database lives while one connection is open
        if not self._uri:
            self._keep.execute("PRAGMA journal_mode=WAL")

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self._target, uri=self._uri, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000,
                                   check_same_thread=False)
        except sqlite3.Error as exc:
            raise TableError(f"cannot open the table store {self.url}: {exc}") from None
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return conn

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    def run_script(self, statements: Sequence[str]) -> None:
        with self.transaction() as run:
            for sql in statements:
                run(sql, ())

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")      # take the write lock now: no upgrade deadlock between writers

        def run(sql: str, params: tuple = (), rowcount: bool = False, unique: bool = False) -> Any:
            try:
                cur = conn.execute(sql, params)
            except sqlite3.IntegrityError:
                if unique:
                    return False
                raise
            if rowcount:
                return cur.rowcount
            if unique:
                return True
            return cur.fetchall()

        try:
            yield run
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        return self._conn().execute(sql, params).fetchall()

    def notify(self, run: Any, code: str) -> None:
        """Nothing to send: waiters look at the file (``PRAGMA data_version`` changes on another's commit)."""

    def wait_for_change(self, code: str, timeout: float) -> None:
        conn = self._conn()
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))
            if conn.execute("PRAGMA data_version").fetchone()[0] != version:
                return

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
        self._keep.close()
