"""Learn to play Deep Blue — two seats of one real game (seed 1), one action per step.

Sail to a wreck and take a scouting spot, hire from the market, start a dive, draw gems, predict the
bust chance, protect against a second black gem, predict the score, stop, rest. Every refusal and every
right answer is the engine's (the bust chance from ``toolkit.deepblue.risk``, the score from the engine's
own scoring).
"""

from __future__ import annotations

from typing import Any

from toolkit.core.explain import Event
from toolkit.deepblue.coach import diver_inputs
from toolkit.deepblue.gems import COLOURS
from toolkit.deepblue.model import ChooseSpot, DrawGem, Hire, MoveBoat, Protect, Rest, StartDive, Stop
from toolkit.deepblue.risk import bust_chance
from toolkit.teaching.lesson import Choice, Goal, Lesson, Question, Scenario, Step

START = Scenario("deepblue", 1, {"players": 2})
MOVES = ("s0 sail 2", "s0 move boat0 to 2", "s0 spot 1", "s1 hire 2 pay 5", "s0 dive boat0", "s0 draw",
         "s0 draw", "s0 draw", "s0 draw", "s0 protect spot", "s0 stop", "s1 rest")


def _after(n: int) -> Scenario:
    return START.then(*MOVES[:n])


def _is(kind: type, reason: str, rule: str, **fields: Any) -> Goal:
    def accepts(_engine, _state, move) -> bool:
        return isinstance(move, kind) and all(getattr(move, k) == v for k, v in fields.items())
    return Goal(accepts, reason, rule, dict(fields))


def _bust_above_third(scenario: Scenario) -> tuple[str, Event]:
    """The next draw's bust chance for the diver, protections counted (the engine's risk module)."""
    engine = scenario.engine
    state = scenario.state()
    seat = engine.current_player(state)
    inputs = diver_inputs(engine.observe(state, seat), seat)
    shields = {"black": inputs["shields"][0], "blue": inputs["shields"][1], "any": inputs["shields"][2]}
    if inputs["spot"] in shields:
        shields[inputs["spot"]] += 1
    bag = dict(zip(COLOURS, inputs["bag"]))
    drawn = [c for c, n in zip(COLOURS, inputs["drawn"]) for _ in range(n)]
    chance = bust_chance(bag, drawn=drawn, shields=shields)
    total = sum(bag.values())
    return ("yes" if chance * 3 > 1 else "no"), Event(
        "TEACH_DB_BUST", "deepblue.dive.protection", num=int(chance * total), den=total,
        percent=round(float(chance) * 100), black=shields["black"], blue=shields["blue"])


def _score_if_stopping(scenario: Scenario) -> tuple[str, Event]:
    """The VP the leader scores by stopping now: the engine's own scoring of the stop."""
    engine = scenario.engine
    state = scenario.state()
    seat = engine.current_player(state)
    before = state.players[seat].chest
    after, events = engine.transition(state, Stop(seat))
    vp = after.players[seat].chest - before
    scored = next((e for e in events if e.rule == "deepblue.dive.score"), None)
    return str(vp), scored if scored is not None else Event("TEACH_DB_SCORE", "deepblue.dive.score", vp=vp)


LESSON = Lesson("deepblue", "teach.db.title", (
    Step("teach.db.sail", "deepblue.sail.move", _after(1),
         _is(MoveBoat, "TEACH_DB_SITE", "deepblue.sail.move", site=2), "s0 move boat0 to 2", seat=0),
    Step("teach.db.spot", "deepblue.spot.choose", _after(2),
         _is(ChooseSpot, "TEACH_DB_SPOT", "deepblue.spot.choose", spot=1), "s0 spot 1", seat=0),
    Step("teach.db.hire", "deepblue.hire.market", _after(3),
         _is(Hire, "TEACH_DB_HIRE", "deepblue.hire.market", slot=2), "s1 hire 2 pay 5", seat=1),
    Step("teach.db.dive", "deepblue.dive.start", _after(4),
         _is(StartDive, "TEACH_DB_DIVE", "deepblue.dive.start"), "s0 dive boat0", seat=0),
    Step("teach.db.draw", "deepblue.dive.draw", _after(5),
         _is(DrawGem, "TEACH_DB_DRAW", "deepblue.dive.draw"), "s0 draw", seat=0),
    Step("teach.db.bust", "deepblue.dive.bust", _after(8),
         Question((Choice("yes", "teach.yes"), Choice("no", "teach.no")), _bust_above_third), "no", seat=0),
    Step("teach.db.protect", "deepblue.dive.protection", _after(9),
         _is(Protect, "TEACH_DB_PROTECT", "deepblue.dive.protection"), "s0 protect spot", seat=0),
    Step("teach.db.score", "deepblue.dive.score", _after(10),
         Question(tuple(Choice(str(v), "teach.ex.cost_choice", {"n": str(v)}) for v in (1, 2, 3, 4, 5)),
                  _score_if_stopping), "3", seat=0),
    Step("teach.db.stop", "deepblue.dive.stop", _after(10),
         _is(Stop, "TEACH_DB_STOP", "deepblue.dive.stop"), "s0 stop", seat=0),
    Step("teach.db.rest", "deepblue.rest", _after(11),
         _is(Rest, "TEACH_DB_REST", "deepblue.rest"), "s1 rest", seat=1),
), outro="teach.db.outro")
