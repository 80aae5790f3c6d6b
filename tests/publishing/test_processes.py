"""Servers the tests start die with the process that started them (issue 28.6).

A test run stopped by a timeout or ``kill -9`` runs no fixture teardown; Voila servers started in their own
session used to survive it with their kernels. Here a small Python parent starts a server through
:func:`toolkit.publishing.processes.start_tied` (as every test fixture and ``make screenshots`` do), the
parent is killed with ``SIGKILL``, and the server and its kernel must be gone within seconds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from publishing.conftest import ROOT, browser, http_get
from toolkit.publishing.kernels import child_kernels
from toolkit.publishing.processes import start_tied, stop_group

# The parent: starts the command given as JSON through start_tied, prints the child's pid, then waits to be
# killed. It is itself started with start_tied, so that it cannot outlive this test either.
PARENT = """
import json, subprocess, sys, time
from toolkit.publishing.processes import start_tied
child = start_tied(json.loads(sys.argv[1]), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                   cwd=sys.argv[2])
print(child.pid, flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for a reaper that is not ours counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.1)
    return [p for p in pids if alive(p)]


def start_parent(command: list[str], tmp: Path) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    parent = start_tied([sys.executable, "-c", PARENT, json.dumps(command), str(ROOT)], env=env,
                        stdout=subprocess.PIPE, text=True, cwd=tmp)
    line = parent.stdout.readline()
    assert line.strip().isdigit(), f"the parent printed {line!r}"
    return parent, int(line)


@pytest.fixture
def killed_parents():
    """Parents to clean up should a test fail before killing them."""
    parents: list[subprocess.Popen] = []
    yield parents
    for parent in parents:
        stop_group(parent, timeout=5)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_plain_child_dies_when_its_parent_is_killed(tmp_path, killed_parents):
    parent, child = start_parent(["sleep", "600"], tmp_path)
    killed_parents.append(parent)
    assert alive(child)
    parent.kill()
    parent.wait(timeout=10)
    assert wait_gone([child], 5) == [], "the child outlived its parent"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_voila_and_its_kernel_die_when_the_process_that_started_them_is_killed(tmp_path, killed_parents):
    folder = tmp_path / "served"
    folder.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print('probe')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / "probe.ipynb")
    port = browser.free_port()
    voila = str(Path(sys.executable).with_name("voila"))
    command = [voila, str(folder), f"--port={port}", "--no-browser", "--CappedKernelManager.max_kernels=0"]
    parent, server = start_parent(command, tmp_path)
    killed_parents.append(parent)
    url = f"http://127.0.0.1:{port}"
    browser.wait_for_http(url + "/", timeout=120)
    # Rendering the page starts the page's kernel; Voila keeps it for the page's widgets.
    status, body, _ = http_get(url + "/voila/render/probe.ipynb", timeout=180)
    assert status == 200 and b"probe" in body
    kernels = list(child_kernels(server).values())
    assert kernels, "the page's kernel was not found among the server's children"

    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=10)
    # Voila gets SIGKILL from the kernel at once; each kernel's parent poller looks once a second.
    left = wait_gone([server, *kernels], 10)
    assert left == [], f"still running after their parent was killed: {left} (server {server})"


# A test that holds its worker: starts a child through start_tied, tells the outer test both pids, waits.
HOLDING_TEST = """
import os, time
from pathlib import Path
from toolkit.publishing.processes import start_tied

def test_hold():
    child = start_tied(["sleep", "600"])
    Path(os.environ["DEEPSEA_HOLD_PIDS"]).write_text(f"{os.getpid()} {child.pid}")
    time.sleep(600)
"""
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_killing_an_xdist_run_ends_its_workers_and_their_servers(tmp_path, killed_parents):
    # `make test` runs pytest-xdist workers. A worker would end by itself only when execnet notices its
    # controller's pipe closed (over 10 s on a loaded machine, with a test asleep): tie_xdist_worker makes it
    # die with the controller, and start_tied's death signal takes the worker's servers with it.
    (tmp_path / "test_hold.py").write_text(HOLDING_TEST)
    # the run's conftest ties its workers as the project's tests/conftest.py does
    (tmp_path / "conftest.py").write_text("from toolkit.publishing.processes import tie_xdist_worker\n"
                                          "tie_xdist_worker()\n")
    pids_file = tmp_path / "pids"
    env = {**os.environ, "DEEPSEA_HOLD_PIDS": str(pids_file),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("PYTEST_XDIST_WORKER", None)
    controller = start_tied([sys.executable, "-m", "pytest", "-n", "1", "-p", "no:cacheprovider", "-q",
                             "test_hold.py"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT)
    killed_parents.append(controller)
    deadline = time.monotonic() + 180
    while not pids_file.exists() or len(pids_file.read_text().split()) < 2:
        assert time.monotonic() < deadline and controller.poll() is None, "the held test never started"
        time.sleep(0.2)
    worker, child = map(int, pids_file.read_text().split())
    assert worker != controller.pid and alive(worker) and alive(child)

    controller.kill()  # SIGKILL: no teardown, no message to the worker
    controller.wait(timeout=10)
    left = wait_gone([worker, child], 10)
    assert left == [], f"still running after pytest was killed: {left} (worker {worker}, its child {child})"
