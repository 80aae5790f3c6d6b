"""The PostgreSQL backend, for kernels on several machines (JupyterHub pods): the same schema and the same
behaviour as SQLite; new moves wake waiting kernels with LISTEN/NOTIFY instead of a look at a file.

Needs the psycopg 3 driver (``pip install "psycopg[binary]"``; the ``tables`` extra of this package)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from toolkit.tables.errors import TableError

CHANNEL = "deepsea_tables"


def _driver():
    try:
        import psycopg
    except ImportError:
        raise TableError("a postgresql:// table store needs the psycopg driver: pip install 'psycopg[binary]'") \
            from None
    return psycopg


class PostgresBackend:
    def __init__(self, url: str):
        self._psycopg = _driver()
        self.url = url
        self._local = threading.local()
        self._listener = None
        self._listen_lock = threading.Lock()
        self._conn()       # fail now, with the server's reason, not at the first move

    def _connect(self, autocommit: bool = False):
        try:
            return self._psycopg.connect(self.url, autocommit=autocommit, connect_timeout=10)
        except self._psycopg.Error as exc:
            raise TableError(f"cannot reach the table store {self._safe_url()}: {str(exc).strip()[:200]}") from None

    def _safe_url(self) -> str:
        # never echo a password from the URL into a page or a log
        head, sep, tail = self.url.partition("@")
        return ("postgresql://…@" + tail) if sep else self.url

    def _conn(self):
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = self._local.conn = self._connect()
        return conn

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")

    def run_script(self, statements: Sequence[str]) -> None:
        conn = self._conn()
        with conn.transaction():
            # one creator at a time: CREATE TABLE IF NOT EXISTS races between sessions otherwise
            conn.execute("SELECT pg_advisory_xact_lock(74917)")
            for sql in statements:
                conn.execute(sql)

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        conn = self._conn()
        psycopg = self._psycopg

        with conn.transaction():
            def run(sql: str, params: tuple = (), rowcount: bool = False, unique: bool = False) -> Any:
                if unique:
                    # a savepoint, so a refused insert does not abort the whole transaction
                    try:
                        with conn.transaction():
                            conn.execute(self._sql(sql), params)
                        return True
                    except psycopg.errors.UniqueViolation:
                        return False
                cur = conn.execute(self._sql(sql), params)
                if rowcount:
                    return cur.rowcount
                return cur.fetchall() if cur.description else []

            yield run

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        conn = self._conn()
        with conn.transaction():
            return conn.execute(self._sql(sql), params).fetchall()

    def notify(self, run: Any, code: str) -> None:
        run("SELECT pg_notify(?, ?)", (CHANNEL, code))     # delivered when the transaction commits

    def wait_for_change(self, code: str, timeout: float) -> None:
        with self._listen_lock:
            if self._listener is None or self._listener.closed:
                self._listener = self._connect(autocommit=True)
                self._listener.execute(f"LISTEN {CHANNEL}")
            listener = self._listener
        # Any table's move wakes the waiter, which then re-reads its own table's log (cheap): one channel
        # for every table keeps the server's listener count at one per kernel.
        for _ in listener.notifies(timeout=timeout, stop_after=1):
            return

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
        if self._listener is not None:
            self._listener.close()
