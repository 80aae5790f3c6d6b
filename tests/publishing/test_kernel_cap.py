"""CappedKernelManager's accounting, without starting real kernels (the server test is test_capacity.py)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import uuid

import pytest
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from toolkit.publishing.kernels import KERNEL_ARGUMENTS, CapacityError, CappedKernelManager


@pytest.fixture
def fake_starts(monkeypatch):
    calls: list[dict] = []

    async def start(self, *, kernel_id=None, **kwargs):
        await asyncio.sleep(0.02)  # a start takes time: concurrent visitors overlap
        kernel_id = kernel_id or str(uuid.uuid4())
        self._kernels[kernel_id] = object()
        calls.append(kwargs)
        return kernel_id

    monkeypatch.setattr(AsyncMappingKernelManager, "start_kernel", start)
    return calls


def run(coroutine):
    """asyncio.run in a thread of its own: the browser tests' event loop may be running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def manager(cls=CappedKernelManager, **config) -> CappedKernelManager:
    return cls(copy_plotly_asset=False, **config)


def test_simultaneous_visitors_past_the_cap_are_refused(fake_starts):
    km = manager(max_kernels=2)

    async def three_at_once():
        return await asyncio.gather(*(km.start_kernel(env={}) for _ in range(3)), return_exceptions=True)

    results = run(three_at_once())
    refused = [r for r in results if isinstance(r, CapacityError)]
    assert len(refused) == 1 and refused[0].status_code == 503 and refused[0].reason == "Busy, retry"
    assert len(km.list_kernel_ids()) == 2 and km.kernels_in_use() == 2


def test_a_freed_place_is_reused_and_zero_means_no_cap(fake_starts):
    km = manager(max_kernels=1)
    first = run(km.start_kernel(env={}))
    with pytest.raises(CapacityError):
        run(km.start_kernel(env={}))
    del km._kernels[first]  # what shutdown/culling does to the mapping
    run(km.start_kernel(env={}))
    unlimited = manager(max_kernels=0)
    for _ in range(5):
        run(unlimited.start_kernel(env={}))
    assert len(unlimited.list_kernel_ids()) == 5


def test_every_kernel_gets_the_quiet_logging_argument(fake_starts):
    km = manager()
    run(km.start_kernel(env={}, extra_arguments=["--existing"]))
    assert fake_starts[-1]["extra_arguments"] == ["--existing", *KERNEL_ARGUMENTS]


class Pooled(CappedKernelManager):
    """Like Voila's preheat subclass: it defines fill_if_needed itself."""

    def fill_if_needed(self, delay=None, notebook_name=None, **kwargs):
        self.fills.append(notebook_name)


def test_pool_refills_stop_at_the_cap_and_pool_starts_are_not_refused(fake_starts):
    km = Pooled(copy_plotly_asset=False, max_kernels=1)
    km.fills = []
    km.fill_if_needed(notebook_name="a.ipynb")
    run(km.start_kernel(env={"VOILA_PREHEAT": "True"}))  # the pool's own start is admitted
    km.fill_if_needed(notebook_name="b.ipynb")  # at the cap: skipped, the pool stays short
    assert km.fills == ["a.ipynb"]
    with pytest.raises(CapacityError):
        run(km.start_kernel(env={}))
