"""Server processes (Voila, JupyterLab) that die with the process that started them.

The tests and ``make screenshots`` start real servers. Stopping them in a ``finally`` or a fixture's
teardown is not enough: a test run killed by a timeout or by ``kill -9`` runs no teardown, and the
servers (in sessions of their own, so that Ctrl-C in the terminal reaches only pytest) kept running with
their kernels (issue 28.6: four were left behind, one with 80 s of CPU).

:func:`start_tied` starts a command

* in a new session and process group (``start_new_session``): :func:`stop_group` stops it and whatever
  it started in that group with one signal, and the terminal's Ctrl-C goes to pytest alone;
* with a parent-death signal (Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)``): when the starting process
  dies, however it dies, the kernel kills the server at once.

A server's kernels need nothing more: ``jupyter_client`` starts them with ``JPY_PARENT_PID`` set, and
ipykernel's parent poller ends a kernel within about a second of its server's death
(``tests/publishing/test_processes.py`` checks both with a parent killed by ``SIGKILL``).

Linux's "parent" is the *thread* that forked: start servers from the main thread (or a thread that
outlives them), never from a short-lived worker thread, or they die when that thread ends. On systems
without ``prctl`` only the process group is set up.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    return prctl


# Looked up once here: between fork and exec only the call itself runs (no library loading, no imports).
_PRCTL = _load_prctl()


def _die_with_parent(parent_pid: int, sig: int) -> Callable[[], None] | None:
    if _PRCTL is None:
        return None
    prctl = _PRCTL

    def preexec() -> None:  # runs in the child, after fork, before exec
        if prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0) != 0:
            os._exit(126)  # the promise cannot be kept: better no server than an immortal one
        if os.getppid() != parent_pid:  # the parent died before prctl took effect
            os._exit(126)

    return preexec


def start_tied(command: list[str], *, death_signal: int = signal.SIGKILL, **popen_kwargs: Any) -> subprocess.Popen:
    """``subprocess.Popen(command, **popen_kwargs)`` in its own process group, killed with ``death_signal``
    when the calling process (thread, see the module's text) dies."""
    for reserved in ("start_new_session", "preexec_fn", "process_group"):
        if reserved in popen_kwargs:
            raise TypeError(f"start_tied sets {reserved} itself")
    # preexec_fn only calls prctl (looked up at import) and getppid: nothing that takes a lock another
    # thread could hold at fork time.
    return subprocess.Popen(command, start_new_session=True,  # noqa: PLW1509
                            preexec_fn=_die_with_parent(os.getpid(), death_signal), **popen_kwargs)


def die_with_parent(death_signal: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send this process ``death_signal`` when its parent dies (a pytest-xdist worker: its
    servers are tied to it, so a killed test run takes the whole tree down). ``False`` without ``prctl``."""
    if _PRCTL is None or _PRCTL(PR_SET_PDEATHSIG, death_signal, 0, 0, 0) != 0:
        return False
    return True


def tie_xdist_worker() -> bool:
    """In a pytest-xdist worker (``PYTEST_XDIST_WORKER`` set): die with the pytest that started it. A
    worker otherwise ends only when execnet notices its pipe closed — seconds or more on a loaded machine,
    never while a test sleeps — and its servers (tied to it) live as long. The project's
    ``tests/conftest.py`` calls this."""
    return bool(os.environ.get("PYTEST_XDIST_WORKER")) and die_with_parent()


def stop_group(proc: subprocess.Popen, timeout: float = 15) -> None:
    """Stop a process started by :func:`start_tied` and its process group: ``SIGTERM`` (a Jupyter server
    then shuts its kernels down), ``SIGKILL`` after ``timeout`` seconds."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=timeout)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=timeout)
