"""Sewer Pirats views: the scoring explainer, the boarding explainer and the full game against bots."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.widgets._lazy import lazy_views

if TYPE_CHECKING:
    from toolkit.widgets.pirats.boarding import BoardingView
    from toolkit.widgets.pirats.game import GameView
    from toolkit.widgets.pirats.scoring import ScoringView

# A dashboard imports one view: load only that view's module, not its siblings' (their charts, plotly
# figures, studies), so that a cold kernel starts sooner.
_VIEWS = {
    "BoardingView": "boarding",
    "GameView": "game",
    "ScoringView": "scoring",
}

__all__ = ["BoardingView", "GameView", "ScoringView"]


__getattr__, __dir__ = lazy_views(__name__, _VIEWS)
