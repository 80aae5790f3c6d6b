"""Double-dummy solver for The Crew: with every hand visible and everyone cooperating, is there *any* legal
line of play that completes every task?

``solve(hands, tasks, ...)`` answers ``True`` (with a winning line that replays through the engine),
``False`` (proved impossible, with a reason when a simple one exists) or ``None`` (stopped at the node or
time limit — it never hangs).

How it searches (the ideas of bridge double-dummy solvers, adapted to tasks instead of trick counts):

* **Bitmask state.** A card is an int 0..39 (colour * 9 + value - 1; submarines are 36..39) and a hand is
  a 40-bit int, so "remove the trick", "which cards are still live" and counting are single int
  operations.
* **Transposition table at trick boundaries**, keyed on the hands (which fix the remaining cards and the
  trick number), the leader and every task's progress. Progress is a small canonical value per task
  (counts, flags; ``DONE`` once a task can no longer be undone), so different orders of the same tricks
  meet in the table.
* **Equivalent cards.** Two cards of one colour in one hand with no other live card between them win and
  lose against exactly the same cards, so only one of them is tried — unless a pending task names one of
  them (its value or identity matters: "win the pink 3", "win a trick using a 6", sums, parities).
* **Early cut-offs.** After every trick each task is judged ``done`` / ``failed`` / ``pending`` with sound
  bounds (its card was won by someone else or left play, not enough tricks or matching cards left, the
  owner no longer holds a card that can do it), so hopeless branches stop at once.
* **Move ordering.** Seats that must win play high, the others play low and hand over wanted cards to
  the seat that is winning the trick.
* **A SAT solver for the hard deals.** A deal the search has not decided after its first round becomes
  clauses (:mod:`toolkit.crew.solver.sat`) for CaDiCaL, whose learnt clauses prove in a second what the search
  needs millions of plays for. Its conflicts count as nodes.

The per-task judges (:class:`_Judge` subclasses) are a fast incremental adapter of the engine's
``task_status``; ``tests/crew/test_solver_judge.py`` checks they agree with it on every task in the
catalogue. The naive exhaustive search :func:`naive_solve` uses ``task_status`` itself and no shortcuts:
it is the test oracle. The winning line is always re-judged with ``task_status`` before it is returned.

The package, one concern a module:

* :mod:`~toolkit.crew.solver.encoding` — the card bitmask encoding (``card_code``, ``card_of``);
* :mod:`~toolkit.crew.solver.bounds` — the per-task judges and their bounds (``make_judge``, ``forced_wins``);
* :mod:`~toolkit.crew.solver.search` — the search (``_Search``);
* :mod:`~toolkit.crew.solver.api` — the public API (``solve``, ``Solution``, ``prepare``, ``explain_impossible``);
* :mod:`~toolkit.crew.solver.oracle` — the test oracle ``naive_solve``;
* :mod:`~toolkit.crew.solver.sat` — the SAT clauses for CaDiCaL;
* :mod:`~toolkit.crew.solver.conditions` — the rules of the missions without task cards (8, 12, 21, 23,
  27) as judges of the search (``solve(..., mission=8)``).

Every name stays importable from ``toolkit.crew.solver`` as before the split. A module-level setting
(``_SAT_AFTER_ROUNDS``) is read where it is defined: patch it on its own module.
"""

from __future__ import annotations

from toolkit.crew.solver.encoding import (ALL_COLOUR_CARDS, COLOURS, COLOUR_CARDS_ASC, COLOUR_MASK, DONE, FAILED,
                                          N_CARDS, PENDING, SUB, SUIT_INDEX, _CODE, _COLOUR, _NAME, _VALUE, _bits,
                                          card_code, card_of)  # noqa: F401
from toolkit.crew.solver.bounds import (_CaptureCards, _CaptureInTrick, _CardCompare, _CardCount, _Judge, _LOW_VALUE,
                                        _MATCHED, _NEVER, _NoLead, _Prediction, _Relative, _Streak, _TrickCount,
                                        _TrickPositions, _TrickProperty, _WinTrickWith, _capture_hints, _count_clause,
                                        _filter_mask, _forced_mask, _match_submarines, _own_card_blocked,
                                        _own_card_delay, _plan_pick, _reachable, _submarine_cap, _task_definition,
                                        _trick_plan, _value_based, forced_submarines, forced_wins, make_judge)  # noqa: F401
from toolkit.crew.solver.search import (_COLOUR_CODES, _COMPRESSED, _DEEPENING_SHARE, _FIRST_SLICE, _HINT_RANKS,
                                        _LDS_SHARE, _LEAD_HIGH, _LEAD_LOW, _LEAD_STRENGTH, _LOW_FOLLOW, _NEG_STRENGTH,
                                        _RUNS, _SAT_AFTER_ROUNDS, _SLICE_ORDER, _STRENGTH, _Search, _SliceEnd, _Stop,
                                        _colour_code, _compress, _hint_rank, _strength, _winner_pos)  # noqa: F401
from toolkit.crew.solver.api import (Position, Solution, TaskRef, _REASON_MARGIN, _bad, _engine_status, _finish_line,
                                     _judges_for, _limits, _root_reason, _sat_available, _sat_model, _search_position,
                                     _task, _whole, engine_all_done, explain_impossible, prepare, solve)  # noqa: F401
from toolkit.crew.solver.oracle import (naive_solve)  # noqa: F401
from toolkit.crew.solver.conditions import (CONDITION_RULES, condition_of, engine_condition,
                                            make_condition)  # noqa: F401

__all__ = ['ALL_COLOUR_CARDS', 'COLOURS', 'COLOUR_CARDS_ASC', 'COLOUR_MASK', 'DONE', 'FAILED', 'N_CARDS', 'PENDING', 'Position', 'SUB', 'SUIT_INDEX', 'Solution', 'TaskRef', 'card_code', 'naive_solve', 'prepare', 'solve']
