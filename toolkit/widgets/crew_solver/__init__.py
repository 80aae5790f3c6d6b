"""Views over the Crew double-dummy solver and the task-difficulty study. No rules here: every verdict
comes from :func:`toolkit.crew.solver.solve` and :func:`toolkit.crew.difficulty.study`.

* :class:`WinnableView` (:mod:`.winnable`) — "Was our mission winnable?": deal or type the hands and tasks
  (or paste a mission saved by the mission dashboard), solve in the background with live progress and a
  Stop button, read the verdict and its reason, replay the winning line trick by trick with the tasks' status.
* :class:`TaskDifficultyView` (:mod:`.difficulty`) — "How hard is each task?": the precomputed table against
  the printed difficulty, per player count, and a live rerun of one task.
* :class:`~.strength.BotStrengthView` (:mod:`.strength`) — the bots' strength table.

The parts: :mod:`.inputs` reads untrusted text (tasks, hands, URL forms, a mission state), :mod:`.render`
writes the page's HTML, and TONOJA's column editor (two players: what a click does to the columns) is
:mod:`toolkit.crew.tonoja_columns`, outside the widget layer. This package only re-exports.
"""

from __future__ import annotations

from toolkit.crew.tonoja_columns import (TONOJA_FACES, columns_text, free_columns, lenient_columns,
                                         parse_columns_text, place_in_columns, take_out_of_columns)
from toolkit.widgets.crew_solver.difficulty import TaskDifficultyView
from toolkit.widgets.crew_solver.inputs import (MAX_TEXT, MAX_TIME_LIMIT, PLAYER_CHOICES, TONOJA_SEAT,
                                                WINNABLE_PLAYERS, PageRefusal, dealt_texts, lenient_cards,
                                                parse_query_hands, parse_query_tasks, parse_task_text,
                                                position_from_mission)
from toolkit.widgets.crew_solver.winnable import FIRST_FREE, WinnableView

__all__ = ["FIRST_FREE", "MAX_TEXT", "MAX_TIME_LIMIT", "PLAYER_CHOICES", "PageRefusal", "TONOJA_FACES",
           "TONOJA_SEAT", "TaskDifficultyView", "WINNABLE_PLAYERS", "WinnableView", "columns_text",
           "dealt_texts", "free_columns", "lenient_cards", "lenient_columns", "parse_columns_text",
           "parse_query_hands", "parse_query_tasks", "parse_task_text", "place_in_columns",
           "position_from_mission", "take_out_of_columns"]
