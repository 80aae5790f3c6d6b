"""The Crew views: the pink-9 trick, the sonar check, the task judge and the mission table."""

from toolkit.widgets.crew.mission import MissionView
from toolkit.widgets.crew.sonar import SonarCheckView
from toolkit.widgets.crew.task_judge import TaskJudgeView
from toolkit.widgets.crew.trick import PinkNineTrickView

__all__ = ["MissionView", "PinkNineTrickView", "SonarCheckView", "TaskJudgeView"]
