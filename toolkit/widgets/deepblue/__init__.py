"""Deep Blue views: the gem-bag risk analysis, a dive step by step, and the full game (hot seat)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolkit.widgets.deepblue.gem_bag import GemBagView
    from toolkit.widgets.deepblue.play import DiveView
    from toolkit.widgets.deepblue.play import GameView

# A dashboard imports one view: load only that view's module, not its siblings' (their charts, plotly
# figures, studies), so that a cold kernel starts sooner.
_VIEWS = {
    "GemBagView": "gem_bag",
    "DiveView": "play",
    "GameView": "play",
}

__all__ = ["GemBagView", "DiveView", "GameView"]


def __getattr__(name: str) -> Any:
    module = _VIEWS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    view = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = view
    return view


def __dir__() -> list[str]:
    return sorted([*globals(), *_VIEWS])
