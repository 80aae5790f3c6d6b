"""Past capacity, a visitor gets an immediate "busy, retry" page, not a hang; a freed place is reused."""

from __future__ import annotations

import concurrent.futures
import time

import nbformat
import pytest

from publishing.conftest import http_get, stop_kernel
from publishing.kernelws import KERNEL_ID

CAP = 2


@pytest.fixture(scope="module")
def small_server(serve_folder, tmp_path_factory):
    folder = tmp_path_factory.mktemp("small-dashboards")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print('tiny dashboard ready')")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / "tiny.ipynb")
    return serve_folder(folder, f"--CappedKernelManager.max_kernels={CAP}")


def render(server) -> tuple[int, str, float]:
    start = time.monotonic()
    status, body, _ = http_get(server.url + "/voila/render/tiny.ipynb", timeout=180)
    return status, body.decode("utf-8", "replace"), time.monotonic() - start


def test_visitor_past_capacity_is_told_to_retry_at_once(small_server):
    with concurrent.futures.ThreadPoolExecutor(CAP) as pool:
        first = list(pool.map(lambda _: render(small_server), range(CAP)))
    assert [status for status, _, _ in first] == [200] * CAP
    kernels = [KERNEL_ID.search(body).group(1) for _, body, _ in first]

    status, body, seconds = render(small_server)
    assert status == 503
    assert seconds < 5, f"the refusal took {seconds:.1f} s"
    assert 'class="deepsea-busy"' in body and "Busy, please retry" in body and "混雑しています" in body
    assert 'http-equiv="refresh"' in body  # the page retries by itself
    assert "Traceback" not in body
    assert "refusing a visitor" in small_server.log_text()

    # A place freed (a visitor left; the culler does the same for idle kernels) is given to the next one.
    stop_kernel(small_server.url, kernels[0])
    status, body, _ = render(small_server)
    assert status == 200 and 'tiny dashboard ready' in body
    for kernel in kernels[1:] + [KERNEL_ID.search(body).group(1)]:
        stop_kernel(small_server.url, kernel)
