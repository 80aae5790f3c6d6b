"""The Crew: Mission Deep Sea — cards and tricks, the 96 tasks and their judge, and the mission engine.

Public API (``shared/DESIGN.md``): :class:`Card`, :func:`trick_winner`, :func:`legal_plays`,
:func:`why_illegal_play`, :func:`sonar_options`, :func:`why_illegal_sonar`, :func:`select_tasks`,
:func:`deal`, :data:`TASKS`, :class:`Trick`, :func:`task_status`. This package imports no widgets or plotly.
"""

from toolkit.crew.cards import (COLOURS, DECK, POSITIONS, Card, Trick, card, cards, deal, deal_tonoja, deck,
                                legal_plays, sonar_options, trick_winner, tricks_in_mission, why_illegal_play,
                                why_illegal_sonar)
from toolkit.crew.tasks import (DONE, FAILED, PENDING, TASKS, Judge, Ledger, Task, compile_task, get_task,
                                incompatibility, incompatible, incompatible_pairs, select_tasks, task_status,
                                task_statuses)

from toolkit.crew.engine import (ENGINE, AssignAll, AssignTask, CrewEngine, CrewState, Distress, GiveCard,
                                 PassTask, PlayCard, Predict, Retry, Sonar, TakeTask, TimeUp, parse_move)

# The engine verbs as module functions (python-chess style): toolkit.crew.apply(state, move), ...
new_state = ENGINE.new_state
legal_moves = ENGINE.legal_moves
why_illegal = ENGINE.why_illegal
apply = ENGINE.apply
transition = ENGINE.transition
observe = ENGINE.observe
outcome = ENGINE.outcome
is_over = ENGINE.is_over
current_player = ENGINE.current_player


def _expert():
    from toolkit.crew.bots.expert import ExpertBot
    return ExpertBot()


def _beginner():
    from toolkit.crew.bots.beginner import BeginnerBot
    return BeginnerBot()


def _random():
    from toolkit.crew.bots import CrewRandomBot
    return CrewRandomBot()


#: bot levels, strongest first: level name -> zero-argument factory (see toolkit.crew.bots)
BOTS = {"expert": _expert, "beginner": _beginner, "random": _random}


def __getattr__(name: str):
    # The double-dummy solver is imported on first use: most users of the engine never need it.
    if name in ("solve", "Solution", "naive_solve"):
        from toolkit.crew import solver

        return getattr(solver, name)
    if name in ("post_mortem", "PostMortem", "allocation_review", "AllocationReview", "close_calls", "CloseCalls"):
        from toolkit.crew import coach

        return getattr(coach, name)
    raise AttributeError(f"module 'toolkit.crew' has no attribute {name!r}")


__all__ = [
    "ENGINE", "AssignAll", "AssignTask", "CrewEngine", "CrewState", "Distress", "GiveCard", "PassTask",
    "PlayCard", "Predict", "Retry", "Sonar", "TakeTask", "TimeUp", "parse_move", "new_state", "legal_moves",
    "why_illegal", "apply", "transition", "observe", "outcome", "is_over", "current_player", "solve",
    "Solution", "naive_solve", "BOTS", "post_mortem", "PostMortem", "allocation_review", "AllocationReview",
    "close_calls", "CloseCalls",
    "COLOURS", "DECK", "DONE", "FAILED", "Judge", "Ledger", "PENDING", "POSITIONS", "TASKS", "Card", "Task",
    "Trick", "card", "cards", "compile_task", "deal", "deal_tonoja", "deck", "get_task", "incompatibility",
    "incompatible", "incompatible_pairs",
    "legal_plays", "select_tasks", "sonar_options", "task_status", "task_statuses", "trick_winner",
    "tricks_in_mission", "why_illegal_play", "why_illegal_sonar",
]
