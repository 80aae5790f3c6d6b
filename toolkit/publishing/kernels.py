"""A kernel manager for standalone Voila that refuses new visitors past a fixed number of kernels.

Every page view costs one kernel (~100 MiB, see docs/publishing.md). Without a cap, a class of sixty
opening a dashboard on a small machine swaps it to a halt and *every* visitor waits. With
``max_kernels``, visitor ``N + 1`` gets an immediate ``503`` page ("busy, retry", in English and
Japanese, reloading itself) rendered by the ``deepsea`` template's ``503.html``, while the first ``N``
keep working. Culled kernels (``MappingKernelManager.cull_idle_timeout``) free their places.

Used from ``voila.json``::

    "VoilaConfiguration": {"multi_kernel_manager_class": "toolkit.publishing.kernels.CappedKernelManager"},
    "CappedKernelManager": {"max_kernels": 48}

Every kernel it starts sends its error logs to the server log instead of the page
(:mod:`toolkit.publishing.kernel_logs`). It also copies plotly.js into the template's static folder when
Voila starts (see :mod:`toolkit.publishing.assets`), so a server started without ``make serve`` serves it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Bool, Int

BUSY_REASON = "Busy, retry"
# Run in every kernel before the dashboard: error logs go to the server log, not to the visitor's page
# (see toolkit.publishing.kernel_logs). ``exec_lines`` run silently and leave no name in the namespace.
# The page's widget messages are checked first (toolkit.publishing.comm_guard).
KERNEL_ARGUMENTS = [
    ("--IPKernelApp.exec_lines=[\"__import__('toolkit.publishing.kernel_logs', fromlist=['_'])"
     ".route_logs_to_server()\", \"__import__('toolkit.publishing.comm_guard', fromlist=['_']).install()\"]"),
]

# glibc raises its mmap threshold to the size of the largest block freed (up to 32 MiB): after one forged
# 4 MB message, every later one was carved from the heap, and the heap kept the high-water mark (a burst
# of 50 left a kernel 20 MiB larger for good). A fixed threshold returns large blocks to the system when
# freed; it costs an mmap call per allocation above 256 kB (numpy arrays of 32,000 floats and more).
KERNEL_ENVIRONMENT = {"MALLOC_MMAP_THRESHOLD_": str(256 * 1024)}


class CapacityError(web.HTTPError):
    """Raised instead of starting a kernel past ``max_kernels``; Voila answers the page with 503."""

    def __init__(self, running: int, limit: int):
        super().__init__(503, "all %d dashboard kernels are in use (%d running)", limit, running,
                         reason=BUSY_REASON)


class CappedKernelManager(AsyncMappingKernelManager):
    """``AsyncMappingKernelManager`` with a limit on how many kernels may exist at once."""

    max_kernels = Int(0, config=True, help="Most kernels alive at once (0: no limit). Past it, pages get 503.")
    copy_plotly_asset = Bool(True, config=True,
                             help="Copy plotly.js into the deepsea template's static folder at start-up.")

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._reserved = 0  # kernels being started: counted before they appear in the mapping
        if self.copy_plotly_asset:
            self._copy_asset()
        # With ``preheat_kernel`` Voila subclasses this class and defines ``fill_if_needed`` itself, which
        # would win over a method here; an instance attribute shadows it so that pool refills also respect
        # the cap. (A refill failing *inside* the pool would break the next visitor's page instead.)
        fill = getattr(self, "fill_if_needed", None)
        if callable(fill):
            self.fill_if_needed = self._capped_fill(fill)

    def _copy_asset(self) -> None:
        try:
            from toolkit.publishing.assets import ensure_plotly_asset

            path = ensure_plotly_asset()
            self.log.info("deepsea: serving plotly.js from %s", path)
        except Exception as exc:  # noqa: BLE001 - charts fall back to asking the kernel
            self.log.warning("deepsea: could not copy plotly.js (%s); charts will ask their kernel", exc)

    # ---- counting ------------------------------------------------------------------------------
    def kernels_in_use(self) -> int:
        """Kernels alive or starting, plus pool refills scheduled but not started yet."""
        pending_pool = 0
        for pool in getattr(self, "_pools", {}).values():
            pending_pool += sum(1 for task in pool if not task.done())
        return len(self.list_kernel_ids()) + self._reserved + pending_pool

    def at_capacity(self) -> bool:
        return self.max_kernels > 0 and self.kernels_in_use() >= self.max_kernels

    # ---- starting ------------------------------------------------------------------------------
    async def start_kernel(self, *, kernel_id: str | None = None, **kwargs: Any) -> str:
        if kernel_id is not None and kernel_id in self:
            return await super().start_kernel(kernel_id=kernel_id, **kwargs)
        env = kwargs.get("env") or {}
        # Pool refills were admitted by ``_capped_fill`` (and already counted as pending there).
        preheat = env.get("VOILA_PREHEAT") == "True"
        if not preheat and self.at_capacity():
            self.log.warning("deepsea: refusing a visitor, %d of %d kernels in use",
                             self.kernels_in_use(), self.max_kernels)
            raise CapacityError(self.kernels_in_use(), self.max_kernels)
        kwargs["extra_arguments"] = [*kwargs.get("extra_arguments", []), *KERNEL_ARGUMENTS]
        kwargs["env"] = {**(kwargs.get("env") or os.environ), **KERNEL_ENVIRONMENT}
        self._reserved += 0 if preheat else 1
        try:
            return await super().start_kernel(kernel_id=kernel_id, **kwargs)
        finally:
            self._reserved -= 0 if preheat else 1

    def _capped_fill(self, fill: Any) -> Any:
        def capped_fill(delay: float | None = None, notebook_name: str | None = None, **kwargs: Any) -> None:
            if self.at_capacity():
                # The pool stays short; the next visitor of this notebook starts a kernel normally (or is
                # told to retry) and a later visit refills it.
                self.log.info("deepsea: not refilling the kernel pool of %s at capacity", notebook_name)
                return
            fill(delay=delay, notebook_name=notebook_name, **kwargs)

        return capped_fill


def capacity_from_memory(total_mib: int, per_kernel_mib: int, reserve_mib: int = 1024) -> int:
    """How many kernels fit: memory left after ``reserve_mib`` (server, OS, browser cache) per kernel."""
    if per_kernel_mib <= 0:
        raise ValueError("per_kernel_mib must be positive")
    return max(1, (total_mib - reserve_mib) // per_kernel_mib)


def suggested_max_kernels(per_kernel_mib: int = 150) -> int:
    """``max_kernels`` for this machine's memory (printed by ``python -m toolkit.publishing.kernels``)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8
    return capacity_from_memory(total // 2**20, per_kernel_mib)


if __name__ == "__main__":
    print(f"suggested CappedKernelManager.max_kernels for this machine: {suggested_max_kernels()}")


KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})\.json")


def child_kernels(server_pid: int) -> dict[str, int]:
    """Kernel id -> pid of the kernel processes a Voila server (``server_pid``) started, read from
    ``/proc`` (Linux): kernels run in sessions of their own, so they are found by parent pid; the id is in
    the connection file name on the command line (``pid-<n>`` if it is not). Used by the publishing tests
    and benchmarks to see kernels start and stop."""
    found: dict[str, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            continue  # the process ended while we looked
        if int(stat.rsplit(")", 1)[1].split()[1]) == server_pid and "ipykernel" in cmd:
            match = KERNEL_FILE.search(cmd)
            found[match.group(1) if match else f"pid-{entry.name}"] = int(entry.name)
    return found
