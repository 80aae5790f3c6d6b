"""The mission conditions of the logbook missions without task cards (8, 12, 21, 23, 27), for the solver.

These missions replace the task cards by one rule for the whole table (``toolkit.crew.missions.CONDITIONS``);
the engine judges them like tasks (:mod:`toolkit.crew.conditions`, after every card): the attempt fails at
the card that makes a break certain and succeeds as soon as nothing can break the rule any more. The solver models each as one more judge (a :class:`_Condition`, the
same interface as a task's judge: a small canonical ``progress``, ``DONE`` once no line can break it any
more) plus :meth:`_Condition.banned`: the cards a seat may not play at a given place of a trick without
failing at once. The search leaves those out of the candidates (a seat whose legal cards are all banned
has lost the line), which prunes a failing trick before its other cards are tried.

* ``nines`` (8) / ``ones`` (21): after every trick, no seat may have won two more colour 9s (1s) than
  another. Progress: the counts per seat minus their minimum (only the differences matter, so orders of
  play that differ only in the common part meet in the table); ``DONE`` once no such card is left.
* ``no-pink-lead`` (12): no trick may be led with a pink card or a submarine (a failure, not a refusal:
  the engine ends the attempt when it is led). Banned: pink and submarines at the lead; ``DONE`` once
  no such card is left.
* ``first-winner-leads`` (23): whoever wins the first trick must have won more tricks than every other
  seat after every trick. Progress: that seat and its lead over each seat; ``DONE`` once every lead is
  larger than the tricks left. (Its ban on communication before the first trick is over does not
  touch the cards: a double-dummy search has nothing to communicate.)
* ``yellow-five-last`` (27): the yellow 5 must be the last card of the last trick. Banned: the yellow 5
  everywhere else; ``FAILED`` if it is not in play any more.

Each condition is also SAT clauses (:meth:`toolkit.crew.solver.sat.CrewModel._condition`), so a deal the
search leaves open after its first round goes to the SAT solver as a deal with tasks does (on 30 seeded
4-player deals each, that decided the two deals of mission 12 and the one of 27 that the search alone left
open at 100,000 nodes, and cut the most nodes on mission 8 from 30k to 4.3k).

``engine_condition`` replays the engine's own condition judge over a ledger of the position's length (an
endgame typed in by hand has fewer tricks than a whole mission): the winning line is proved with it, and
the test oracle uses it.

>>> from toolkit.crew.solver import solve
>>> solve([["Y5", "B1"], ["B3", "G1"], ["B2", "G2"]], {}, leader=0, mission=27).line  # seat 1 must lead trick 2
[Trick(0, ['B1', 'B3', 'B2']), Trick(1, ['G1', 'G2', 'Y5'])]
>>> solve([["Y5", "B1"], ["B2", "G1"], ["B3", "G2"]], {}, leader=0, mission=27).winnable  # seat 2 wins B1
False
"""

from __future__ import annotations

from typing import Any, Sequence

from toolkit.core.errors import InvalidMoveError
from toolkit.crew.solver.bounds import _Judge
from toolkit.crew.solver.encoding import COLOUR_MASK, DONE, FAILED, SUB, _CODE

__all__ = ["CONDITION_RULES", "condition_of", "engine_condition", "make_condition"]

#: each condition's rule id in ``toolkit/crew/rules.toml`` (the engine cites the same ids)
CONDITION_RULES = {"nines": "crew.mission.nines", "no-pink-lead": "crew.mission.no-pink-lead",
                   "ones": "crew.mission.ones", "first-winner-leads": "crew.mission.first-winner-leads",
                   "yellow-five-last": "crew.mission.yellow-five-last"}

_NINES = sum(1 << (c * 9 + 8) for c in range(4))
_ONES = sum(1 << (c * 9) for c in range(4))
_PINK_OR_SUB = COLOUR_MASK[3] | COLOUR_MASK[SUB]
_Y5 = 1 << _CODE["Y5"]


def condition_of(mission: Any) -> str | None:
    """The condition of logbook mission ``mission`` (``None``: a mission with task cards, or no mission).

    >>> condition_of(8), condition_of(1), condition_of(None)
    ('nines', None, None)
    """
    from toolkit.crew.missions import CONDITIONS

    if mission is None:
        return None
    if isinstance(mission, bool) or not isinstance(mission, int):
        raise TypeError(f"mission must be a mission number (int) or None, not {mission!r:.40}")
    if not 0 <= mission <= 60:
        raise InvalidMoveError(f"there is no mission {mission}: the logbook runs from 1 to 60 (0: a custom mission)")
    return CONDITIONS.get(mission)


class _Condition(_Judge):
    """A mission's condition as a judge of the search (see the module docstring). It belongs to no seat
    (``owner`` -1): it wants no cards, claims no trick and never groups with a task."""

    condition = ""
    #: whether :meth:`banned` ever bans a card (the search skips the call otherwise)
    bans = False

    def __init__(self, players: int, captain: int, last: int):
        super().__init__(0, -1, players, captain, last)
        self.rule = CONDITION_RULES[self.condition]

    def banned(self, j: int, pos: int) -> int:
        """The cards the seat at position ``pos`` (0: the leader) of trick ``j + 1`` may not play: each
        would fail the mission at once."""
        return 0


class _Counts(_Condition):
    """Missions 8 and 21: no seat two cards of ``mask`` ahead of another, after any trick."""

    mask = 0

    def __init__(self, players: int, captain: int, last: int):
        super().__init__(players, captain, last)
        self.sensitive = self.mask   # a 9 and the 8 beside it in one hand are not equivalent here

    def initial(self) -> Any:
        return (0,) * self.players

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        won = (tmask & self.mask).bit_count()
        if not won:
            return p
        counts = list(p)
        counts[winner] += won
        low = min(counts)
        if max(counts) - low >= 2:
            return FAILED
        return tuple(c - low for c in counts)

    def status(self, p, j, rest, live, hands):
        return DONE if rest == 0 or not live & self.mask else p


class _Nines(_Counts):
    condition = "nines"
    mask = _NINES


class _Ones(_Counts):
    condition = "ones"
    mask = _ONES


class _NoPinkLead(_Condition):
    """Mission 12: no trick led with a pink card or a submarine."""

    condition = "no-pink-lead"
    bans = True
    hinted = True

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        return FAILED if (1 << cards[0]) & _PINK_OR_SUB else p

    def status(self, p, j, rest, live, hands):
        return DONE if rest == 0 or not live & _PINK_OR_SUB else p

    def banned(self, j, pos):
        return _PINK_OR_SUB if pos == 0 else 0

    def hints(self, p, hands):
        # Pink and submarines can never be led, so a seat plays them when it cannot follow and keeps the
        # rest to lead with. Measured on 30 seeded 4-player deals: 89k nodes in all instead of 116k.
        return 0, _PINK_OR_SUB


class _FirstWinnerLeads(_Condition):
    """Mission 23: the first trick's winner has more tricks than every other seat after every trick.
    Progress: ``None`` before the first trick, then ``(seat, its lead over each seat)``."""

    condition = "first-winner-leads"

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if p is None:
            if j != 1:  # pragma: no cover - progress starts before trick 1
                raise AssertionError("mission 23's condition starts at the first trick")
            return (winner, tuple(0 if s == winner else 1 for s in range(self.players)))
        first, leads = p
        if winner == first:
            return (first, tuple(0 if s == first else d + 1 for s, d in enumerate(leads)))
        if leads[winner] <= 1:
            return FAILED
        return (first, tuple(d - 1 if s == winner else d for s, d in enumerate(leads)))

    def status(self, p, j, rest, live, hands):
        if rest == 0:
            return DONE
        if p is None:
            return p
        first, leads = p
        if min(d for s, d in enumerate(leads) if s != first) > rest:
            return DONE   # not even all the tricks left to one seat catch up
        return p


class _YellowFiveLast(_Condition):
    """Mission 27: the yellow 5 is the last card played in the last trick."""

    condition = "yellow-five-last"
    bans = True
    sensitive = _Y5

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if j == self.last:
            return DONE if cards[-1] == _CODE["Y5"] else FAILED
        return FAILED if tmask & _Y5 else p

    def status(self, p, j, rest, live, hands):
        return FAILED if not live & _Y5 else p

    def banned(self, j, pos):
        return 0 if j + 1 == self.last and pos == self.players - 1 else _Y5


_CLASSES = {c.condition: c for c in (_Nines, _Ones, _NoPinkLead, _FirstWinnerLeads, _YellowFiveLast)}


def make_condition(condition: str, players: int, captain: int, last: int) -> _Condition:
    """The search's judge of ``condition`` (a ``CONDITIONS`` value) at ``players`` seats, ``last`` tricks."""
    return _CLASSES[condition](players, captain, last)


def engine_condition(mission: int, tricks: Sequence[Any], seats: int, last: int) -> str:
    """The engine's verdict on mission ``mission``'s condition after ``tricks`` (engine ``Trick`` s, from
    the first of the mission) in a mission of ``last`` tricks: ``"failed"`` once it is certain to break,
    ``"done"`` once nothing can break it any more, else ``"pending"`` — the engine's own judge
    (:func:`toolkit.crew.conditions.condition_status`, card by card). An endgame typed in by hand (fewer
    tricks than a whole mission) is judged by the judge's bounds only: its hands hold fewer cards than
    the unplayed ones, so playing every continuation out would judge cards that are not in play."""
    from toolkit.crew.cards import tricks_in_mission
    from toolkit.crew.conditions import condition_status

    full = last == tricks_in_mission(seats)
    return condition_status(mission, list(tricks), seats, last, exact=full)
