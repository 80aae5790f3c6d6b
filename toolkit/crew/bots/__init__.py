"""Bots for The Crew: seats played by the computer from ``ENGINE.observe(state, seat)`` alone.

Levels (``toolkit.crew.BOTS``, strongest first):

* ``"expert"`` (:mod:`toolkit.crew.bots.expert`) — determinized search: deals consistent with everything
  the seat has seen (:func:`toolkit.crew.bots.sampler.sample_deals`) are solved double-dummy, and the move
  that keeps the mission winnable in the most of them is chosen;
* ``"beginner"`` (:mod:`toolkit.crew.bots.beginner`) — the rules of thumb a person uses: win your own
  task cards, never win another's, keep the high cards of colours you need, lead towards a partner;
* ``"random"`` — uniform over the seat's own moves (the baseline of the strength study).

Every bot acts for its own seat only: a sonar communication or a distress gift carries its seat, every
other move is the decider's (``view["decider"]``: the captain decides for TONOJA). The clock running out
(``TimeUp``) is nobody's move and no bot makes it.

>>> from toolkit.core.bots import play_out
>>> from toolkit.crew import ENGINE
>>> state, moves = play_out(ENGINE, 5, ["random"] * 4, mission=1)
>>> state.phase in ("success", "failed")
True
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from toolkit.core.bots import Decision
from toolkit.core.explain import Event

__all__ = ["CrewRandomBot", "view_actor", "own_moves"]


def view_actor(view: Mapping[str, Any], move: Any) -> int | None:
    """The seat that makes ``move`` as a seat sees it (``CrewEngine.actor`` from the view alone)."""
    from toolkit.core.bots import check_view
    from toolkit.crew.engine import GiveCard, Sonar, TimeUp

    check_view(view, "Crew", ("seat", "decider"))

    if isinstance(move, (Sonar, GiveCard)):
        return move.seat
    if isinstance(move, TimeUp):
        return None
    return view.get("decider")


def own_moves(view: Mapping[str, Any], legal: Sequence[Any]) -> list:
    """The moves of ``legal`` the viewing seat makes."""
    from toolkit.core.bots import check_view

    seat = check_view(view, "Crew", ("seat", "decider"))["seat"]
    if isinstance(legal, (str, bytes)) or not isinstance(legal, (Sequence, set, frozenset)):
        raise TypeError(f"legal must be the list ENGINE.legal_moves(state) returns, not {type(legal).__name__}")
    return [m for m in legal if view_actor(view, m) == seat]


class CrewRandomBot:
    """Uniform over the seat's own moves. At a moment the game is not waiting for this seat (a sonar
    communication at the start of a trick) "do nothing" is one more option with the same chance, so a
    random team communicates now and then rather than at the first chance every time.

    >>> from toolkit.crew import ENGINE
    >>> state = ENGINE.new_state(1, mission=1)
    >>> bot = CrewRandomBot()
    >>> d = bot.decide(ENGINE.observe(state, state.captain), ENGINE.legal_moves(state, state.captain), np.random.default_rng(0))
    >>> d.move in ENGINE.legal_moves(state)
    True
    """

    name = "random"

    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        seat = view.get("seat")
        mine = own_moves(view, legal)
        waited_for = view.get("decider") == seat
        options = len(mine) + (0 if waited_for else 1)
        if not mine:
            return Decision(None, Event("BOT_NO_MOVE", "bots.random", seat=seat))
        pick = int(rng.integers(options))
        if pick == len(mine):
            return Decision(None, Event("BOT_NO_MOVE", "bots.random", seat=seat))
        return Decision(mine[pick], Event("BOT_RANDOM", "bots.random", seat=seat, options=options))
