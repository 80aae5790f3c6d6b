"""The docstring examples of every ``toolkit`` module run as tests, so a wrong example fails here.

Why a test file rather than ``--doctest-modules`` in ``addopts`` or the Makefile: ``make test`` also
collects ``notebooks`` and ``dashboards`` (nbval), where ``--doctest-modules`` would import dashboard
helper files as modules, and a second pytest invocation is what the issue ruled out. A file under
``tests/`` runs in every target that runs the tests (``make test``, ``make test-fast``, a plain
``pytest tests``), one test per module, and it can check that the examples were found at all.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import toolkit

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    return sorted(info.name for info in pkgutil.walk_packages(toolkit.__path__, "toolkit.")
                  if not info.name.endswith("__main__"))


def _tests(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    return [t for t in doctest.DocTestFinder(exclude_empty=True).find(module, name) if t.examples]


MODULES = [name for name in _modules() if _tests(name)]


def test_the_examples_are_found():
    # a broken finder (or a package walk that misses the games) must not pass as "no examples, no failures"
    count = sum(len(t.examples) for name in MODULES for t in _tests(name))
    assert count >= 200, count
    assert {"toolkit.core.bots", "toolkit.core.explain", "toolkit.crew.cards"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    for test in _tests(name):
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(report)
