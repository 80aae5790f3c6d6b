"""Deep Blue views: the gem-bag risk analysis, a dive step by step, and the full game against bots."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.widgets._lazy import lazy_views

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


__getattr__, __dir__ = lazy_views(__name__, _VIEWS)
