"""Lazy view packages: a dashboard imports one view, so a package loads only that view's module.

Used by the per-game packages (``toolkit.widgets.crew`` and its siblings)::

    _VIEWS = {"MissionView": "mission", ...}
    __getattr__, __dir__ = lazy_views(__name__, _VIEWS)

Loading a sibling view would pull in its charts, plotly figures or studies, which a cold kernel would pay
for at every page open (docs/publishing.md measures it).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable, Mapping


def lazy_views(package: str, views: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` (PEP 562) of a package whose ``views`` map each
    view class name to the submodule defining it."""

    def __getattr__(name: str) -> Any:
        module = views.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        view = getattr(importlib.import_module(f"{package}.{module}"), name)
        sys.modules[package].__dict__[name] = view  # the next lookup is a plain attribute
        return view

    def __dir__() -> list[str]:
        return sorted([*sys.modules[package].__dict__, *views])

    return __getattr__, __dir__
