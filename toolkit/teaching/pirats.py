"""Learn to play Sewer Pirats — the landlubber variant (four figures of one species, no powers), two seats.

The four actions (draw two cards, move a pirat, become captain, set sail), moving crew along a ship,
the captain's cost, the must-sail rule, taking loot, and the end trigger. The positions are prefixes of
one real game (``data/pirats-landlubber-seed1.txt``: seed 1 played to the end by two greedy bots); every
refusal and every right answer is the engine's.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from toolkit.core.explain import Event
from toolkit.pirats.model import SHIPS, BecomeCaptain, Draw, MovePirat, SetSail, TakeLoot
from toolkit.teaching.lesson import Choice, Goal, Lesson, Question, Scenario, Step

START = Scenario("pirats", 1, {"players": 2, "variant": "landlubber"})


def _game_moves() -> tuple[str, ...]:
    text = resources.files("toolkit.teaching").joinpath("data/pirats-landlubber-seed1.txt").read_text("utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


MOVES = _game_moves()


def _after(n: int) -> Scenario:
    return START.then(*MOVES[:n])


def _is(kind: type, reason: str, rule: str, **fields: Any) -> Goal:
    def accepts(_engine, _state, move) -> bool:
        return isinstance(move, kind) and all(getattr(move, k) == v for k, v in fields.items())
    params = {k: _ship_term(v) if k == "ship" else v for k, v in fields.items()}
    return Goal(accepts, reason, rule, params)


def landing(scenario_state: Any, engine: Any, move: Any) -> tuple[str, int] | None:
    """``(ship, space 1-4)`` where ``move``'s figure ends up (the engine's own transition), or None."""
    seat = engine.current_player(scenario_state)
    after, _events = engine.transition(scenario_state, move)
    crew = engine.observe(after, None)["crews"][seat]
    where = after.where(seat, crew.index(move.figure))
    return None if where is None else (SHIPS[where[0]], where[1] + 1)


def _space_reached(move_text: str):
    def solve(scenario: Scenario) -> tuple[str, Event]:
        engine = scenario.engine
        move = engine.parse_move(move_text)
        ship, space = landing(scenario.state(), engine, move)
        return str(space), Event("TEACH_PIRATS_SPACE", "pirats.move.skip-occupied", space=space,
                                 ship=_ship_term(ship))
    return solve


def _ship_term(ship: str) -> Any:
    from toolkit.core.i18n import Term
    return Term(f"pirats.ship.{ship}")


def _captain_cost(move_text: str):
    def solve(scenario: Scenario) -> tuple[str, Event]:
        engine = scenario.engine
        state = scenario.state()
        seat = engine.current_player(state)
        after, _events = engine.transition(state, engine.parse_move(move_text))
        cost = sum(state.hands[seat]) - sum(after.hands[seat])
        return str(cost), Event("TEACH_PIRATS_CAPTAIN_COST", "pirats.captain.cost", n=cost)
    return solve


def _game_ends_after_sailing(scenario: Scenario) -> tuple[str, Event]:
    """Set sail, let every pirat take its first offered loot, and ask the engine whether the game ended."""
    engine = scenario.engine
    state = scenario.state()
    stock = engine.observe(state, None)["loot_stock"]
    state, _events = engine.transition(state, engine.legal_moves(state)[0])    # the one legal move: sail
    while engine.outcome(state) is None and engine.observe(state, None)["phase"] == "sail":
        state, _events = engine.transition(state, engine.legal_moves(state)[0])
    ended = engine.outcome(state) is not None
    return ("yes" if ended else "no"), Event("TEACH_PIRATS_END" if ended else "TEACH_PIRATS_NOT_END",
                                             "pirats.end.trigger", stock=stock)


YES_NO = (Choice("yes", "teach.yes"), Choice("no", "teach.no"))
SPACES = tuple(Choice(str(n), "teach.ex.cost_choice", {"n": str(n)}) for n in (1, 2, 3))

LESSON = Lesson("pirats", "teach.pirats.title", (
    Step("teach.pirats.draw", "pirats.draw.two", _after(0),
         _is(Draw, "TEACH_PIRATS_DRAW", "pirats.draw.two"), "draw bird", seat=0),
    Step("teach.pirats.move", "pirats.move.match", _after(4),
         _is(MovePirat, "TEACH_PIRATS_MOVE", "pirats.move.match", ship="bird"), "move rat#1 bird 1", seat=0),
    Step("teach.pirats.skip", "pirats.move.skip-occupied", _after(5),
         Question(SPACES, _space_reached("move raccoon#1 bird 1")), "2", seat=1),
    Step("teach.pirats.captain_cost", "pirats.captain.cost", _after(11),
         Question(SPACES, _captain_cost("captain raccoon#1 bird")), "1", seat=1),
    Step("teach.pirats.captain", "pirats.captain.path", _after(11),
         _is(BecomeCaptain, "TEACH_PIRATS_CAPTAIN", "pirats.captain.path"), "captain raccoon#1 bird", seat=1),
    Step("teach.pirats.sail", "pirats.sail.must", _after(15),
         _is(SetSail, "TEACH_PIRATS_SAIL", "pirats.sail.must"), "sail bird", seat=1),
    Step("teach.pirats.loot", "pirats.sail.order", _after(16),
         _is(TakeLoot, "TEACH_PIRATS_LOOT", "pirats.sail.order"), "take burger 5", seat=1),
    Step("teach.pirats.end", "pirats.end.trigger", _after(156),
         Question(YES_NO, _game_ends_after_sailing), "yes", seat=0),
    Step("teach.pirats.last_sail", "pirats.end.trigger", _after(156),
         _is(SetSail, "TEACH_PIRATS_SAIL", "pirats.sail.must"), "sail bird", seat=0),
), outro="teach.pirats.outro")
