"""Deep Blue views: the gem-bag risk analysis, a dive step by step, and the full game (hot seat)."""

from toolkit.widgets.deepblue.gem_bag import GemBagView
from toolkit.widgets.deepblue.play import DiveView, GameView

__all__ = ["GemBagView", "DiveView", "GameView"]
