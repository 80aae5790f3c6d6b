"""What every Monte Carlo study shares: the executor interface, and Wilson intervals for its rates.

A study cuts its games into chunks and hands each to ``executor.submit(fn, *args)``, which returns a
future with ``result()``: :class:`InlineExecutor` (this process; tests and notebooks), :func:`process_pool`
(one machine), or ``dask.distributed.Client(...).get_executor()`` (a cluster). Chunks are plain
module-level functions of plain arguments, so every executor can pickle them, and a chunk's games are
seeded by their index, so the same seed gives the same table whichever executor runs it.

>>> tuple(round(x, 4) for x in wilson(5, 10))
(0.2366, 0.7634)
>>> InlineExecutor().submit(sum, [1, 2]).result()
3
"""

from __future__ import annotations

import math
from concurrent.futures import Executor, Future
from typing import Any

__all__ = ["InlineExecutor", "process_pool", "wilson"]


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a binomial share; ``(0, 1)`` with no trials.

    ``successes`` may be fractional (a shared victory counts a share to each winner).
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p)) / trials + z * z / (4 * trials * trials)) / denom
    # at p = 0 or 1 the bound is exactly 0 or 1; say so rather than trust the rounding
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


class InlineExecutor(Executor):
    """Runs each submitted call at once in this process (the default; handy in tests and notebooks)."""

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - delivered through the future, like a real executor
            future.set_exception(exc)
        return future


def process_pool(workers: int | None = None) -> Any:
    """A process pool sized for this machine (the usual executor for a study)."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers)
