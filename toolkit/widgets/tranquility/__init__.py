"""Tranquility views: the discard-cost explainer, a hot-seat game and the strategy study."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.widgets._lazy import lazy_views

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


__getattr__, __dir__ = lazy_views(__name__, _VIEWS)
