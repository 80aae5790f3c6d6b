"""The Crew views: the pink-9 trick, the sonar check, the task judge and the mission table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolkit.widgets._lazy import lazy_views

if TYPE_CHECKING:
    from toolkit.widgets.crew.mission import MissionView
    from toolkit.widgets.crew.trick import PinkNineTrickView
    from toolkit.widgets.crew.sonar import SonarCheckView
    from toolkit.widgets.crew.task_judge import TaskJudgeView

# A dashboard imports one view: load only that view's module, not its siblings' (their charts, plotly
# figures, studies), so that a cold kernel starts sooner.
_VIEWS = {
    "MissionView": "mission",
    "PinkNineTrickView": "trick",
    "SonarCheckView": "sonar",
    "TaskJudgeView": "task_judge",
}

__all__ = ["MissionView", "PinkNineTrickView", "SonarCheckView", "TaskJudgeView"]


__getattr__, __dir__ = lazy_views(__name__, _VIEWS)
