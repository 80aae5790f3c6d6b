"""Sewer Pirats views: the scoring explainer, the boarding explainer and the full game (hot seat)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    module = _VIEWS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    view = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = view
    return view


def __dir__() -> list[str]:
    return sorted([*globals(), *_VIEWS])
