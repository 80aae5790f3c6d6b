"""Sewer Pirats views: the scoring explainer, the boarding explainer and the full game (hot seat)."""

from toolkit.widgets.pirats.boarding import BoardingView
from toolkit.widgets.pirats.game import GameView
from toolkit.widgets.pirats.scoring import ScoringView

__all__ = ["BoardingView", "GameView", "ScoringView"]
