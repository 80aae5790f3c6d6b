"""Tranquility views: the discard-cost explainer, a hot-seat game and the strategy study."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolkit.widgets.tranquility.discard_costs import DiscardCostView
    from toolkit.widgets.tranquility.game import GameView
    from toolkit.widgets.tranquility.strategies import StrategyStudyView

# A dashboard imports one view: load only that view's module, not its siblings' (their charts, plotly
# figures, studies), so that a cold kernel starts sooner.
_VIEWS = {
    "DiscardCostView": "discard_costs",
    "GameView": "game",
    "StrategyStudyView": "strategies",
}

__all__ = ["DiscardCostView", "GameView", "StrategyStudyView"]


def __getattr__(name: str) -> Any:
    module = _VIEWS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    view = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = view
    return view


def __dir__() -> list[str]:
    return sorted([*globals(), *_VIEWS])
