"""Project-wide test setup: keep Jupyter/IPython state out of $HOME and make `tests/` importable."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

_jupyter_home = Path(tempfile.mkdtemp(prefix="deepsea-jupyter-"))
for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                 ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
    os.environ.setdefault(var, str(_jupyter_home / sub))
os.environ.setdefault("JUPYTER_PLATFORM_DIRS", "1")

# An xdist worker dies with the pytest that started it (a timeout or Ctrl-C killing the run), and the servers
# it started die with it (toolkit.publishing.processes.start_tied): nothing is left behind (issue 28.6).
from toolkit.publishing.processes import tie_xdist_worker  # noqa: E402

tie_xdist_worker()
