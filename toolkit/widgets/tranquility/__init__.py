"""Tranquility views: the discard-cost explainer, a hot-seat game and the strategy study."""

from toolkit.widgets.tranquility.discard_costs import DiscardCostView
from toolkit.widgets.tranquility.game import GameView
from toolkit.widgets.tranquility.strategies import StrategyStudyView

__all__ = ["DiscardCostView", "GameView", "StrategyStudyView"]
