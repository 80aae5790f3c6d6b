"""A kernel starved of CPU still gets its view into the page.

Under load (ten visitors opening dashboards at once on two cores), a kernel's output and its "idle" status
(iopub) can reach Voila seconds after the cell's execute_reply (shell). Voila's executor (nbclient) waits
only ``iopub_timeout`` for them, 4 s by default, then drops whatever has not arrived: the page is sent
without the widget view and the visitor waits forever on an empty page ("Timeout waiting for IOPub
output" in the server log). That is what left 8 of 10 simultaneous visitors without a view in the
earlier load run; voila.json now gives the executor 60 s (it moves on as soon as "idle" arrives, so a
healthy page is not slower).

The probe notebook makes the delay deterministic: it holds the kernel's IOPub thread for 8 s and lets
the end-of-cell stream flushes give up early, so the execute_reply leaves ~7 s before the view.
"""

from __future__ import annotations

import json

import nbformat
import pytest

from publishing.conftest import ROOT, http_get, stop_kernel
from publishing.kernelws import KERNEL_ID

LATE_VIEW = '''import sys, time
import ipywidgets as widgets
get_ipython().kernel.iopub_thread.schedule(lambda: time.sleep(8))
sys.stdout.flush_timeout = sys.stderr.flush_timeout = 0.5
late = widgets.Button(description="late view")
late.add_class("deepsea-root")
late'''


@pytest.fixture(scope="module")
def late_server(serve_folder, tmp_path_factory):
    folder = tmp_path_factory.mktemp("late-output")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(LATE_VIEW)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, folder / "late.ipynb")
    return serve_folder(folder)


def test_output_arriving_seconds_after_the_reply_is_still_in_the_page(late_server):
    assert json.loads((ROOT / "voila.json").read_text())["VoilaExecutor"]["iopub_timeout"] >= 30
    status, body, _ = http_get(late_server.url + "/voila/render/late.ipynb", timeout=120)
    page = body.decode("utf-8", "replace")
    assert status == 200
    assert "application/vnd.jupyter.widget-view+json" in page, "the view was dropped from the page"
    assert "Timeout waiting for IOPub output" not in late_server.log_text()
    stop_kernel(late_server.url, KERNEL_ID.search(page).group(1))
