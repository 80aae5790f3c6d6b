"""Ruff (configured in pyproject.toml, ``[tool.ruff]``) finds nothing in the files already cleaned.

The whole tree (``toolkit``, ``tests``) is clean since the branches of issue 26 were merged; the files in
``CLEAN`` were the first, and their checks stay as a quick signal of which part broke. Ruff is in the ``test``
extra; without it (a trimmed environment) these tests are skipped, not failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: paths ruff must find clean now (extend as parts of the tree are cleaned)
CLEAN = [
    "toolkit/crew/tonoja_columns.py",
    "toolkit/publishing",
    "toolkit/widgets/crew_solver",
    "toolkit/widgets/deepblue/gem_bag.py",
    "toolkit/widgets/gallery.py",
    "toolkit/widgets/learn.py",
    "toolkit/widgets/markup.py",
    "toolkit/widgets/pirats/boarding.py",
    "toolkit/widgets/pirats/scoring.py",
    "toolkit/widgets/rulebook.py",
    "toolkit/widgets/seats.py",
    "toolkit/widgets/tranquility/discard_costs.py",
    "toolkit/widgets/tranquility/strategies.py",
    "tests/crew/test_tonoja_columns.py",
    "tests/publishing",
    "tests/test_lint.py",
]


def ruff(*args: str) -> subprocess.CompletedProcess:
    pytest.importorskip("ruff", reason="ruff is not installed (it is in the test extra)")
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_configuration_is_the_projects():
    # a missing [tool.ruff] would make ruff check its defaults and this file pass for the wrong reason
    result = ruff("--show-settings", "toolkit/widgets/gallery.py")
    assert result.returncode == 0, result.stderr
    assert "line_length = 120" in result.stdout and "pyproject.toml" in result.stdout


@pytest.mark.parametrize("path", CLEAN)
def test_cleaned_files_stay_clean(path):
    assert (ROOT / path).exists(), path
    result = ruff(path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_whole_tree_is_clean():
    result = ruff("toolkit", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
