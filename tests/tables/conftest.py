"""Fixtures of the shared-table store tests: every test that takes ``store`` runs against both backends —
an SQLite file in a temporary folder, and a real throwaway PostgreSQL server started for the session
(Debian's ``postgresql`` package: ``initdb`` and ``postgres`` run as the ``postgres`` user when the tests
run as root; ``.ci/run`` installs it as it installs Chromium)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from toolkit.publishing.processes import start_tied
from toolkit.tables import open_store


def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self) -> None:
        initdb, postgres = _pg_bin("initdb"), _pg_bin("postgres")
        if not initdb or not postgres:
            pytest.fail("the table store tests need a PostgreSQL server: apt-get install -y postgresql")
        self.dir = Path(tempfile.mkdtemp(prefix="deepsea-pg-"))
        user = {}
        if os.geteuid() == 0:       # initdb and postgres refuse to run as root
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                pytest.fail("running as root, the PostgreSQL tests need the 'postgres' user (apt-get install postgresql)")
            os.chown(self.dir, pw.pw_uid, pw.pw_gid)
            user = {"user": pw.pw_uid, "group": pw.pw_gid}
        data = self.dir / "data"
        subprocess.run([initdb, "-D", str(data), "-A", "trust", "-U", "deepsea", "-E", "UTF8", "--no-sync"],
                       check=True, capture_output=True, **user)
        self.port = _free_port()
        self.log = open(self.dir / "server.log", "wb")
        # SIGQUIT (PostgreSQL's immediate shutdown) when pytest dies, even by SIGKILL: no server left behind
        self.proc = start_tied(
            [postgres, "-D", str(data), "-p", str(self.port), "-k", str(self.dir), "-c", "listen_addresses=127.0.0.1",
             "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            death_signal=signal.SIGQUIT, stdout=self.log, stderr=subprocess.STDOUT, **user)
        self.url = f"postgresql://deepsea@127.0.0.1:{self.port}/postgres"
        deadline = time.monotonic() + 60
        import psycopg
        while True:
            try:
                psycopg.connect(self.url, connect_timeout=2).close()
                break
            except psycopg.OperationalError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("PostgreSQL did not start: " + (self.dir / "server.log").read_text()[-2000:])
                time.sleep(0.1)

    def fresh_url(self) -> str:
        """A new empty database on the server (each test gets its own)."""
        import psycopg
        name = "t" + os.urandom(6).hex()
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://deepsea@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server():
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    if request.param == "sqlite":
        return "sqlite:///" + str(tmp_path / "tables.sqlite3")
    return request.getfixturevalue("postgres_server").fresh_url()


@pytest.fixture
def store(store_url):
    s = open_store(store_url)
    yield s
    s.close()
