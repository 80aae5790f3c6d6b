"""Learn to play Tranquility — two seats of one real deal (seed 8), one action per step.

Islands go up from the bottom-left to the top-right; a card next to another in the sequence costs the
difference in discards (a gap costs nothing); the start card must be played as soon as it is held and
then the table discards 8; two discards are always an action; the finish card waits for a full grid.
Every refusal and every right answer is the engine's.
"""

from __future__ import annotations

from toolkit.core.explain import Event, Violation
from toolkit.tranquility.grid import raw_cost
from toolkit.tranquility.moves import PlaceIsland, PlayStart
from toolkit.teaching.lesson import Choice, Goal, Lesson, Question, Scenario, Step

START = Scenario("tranquility", 8, {"players": 2})
MOVES = ("place 37 at 16", "place 2 at 0", "start", "split 21 48 54 60", "split 8 20 28 80", "place 6 at 2")


def _after(n: int) -> Scenario:
    return START.then(*MOVES[:n])


def _places(number: int, cells: range | None = None, free: bool = False) -> Goal:
    def accepts(_engine, state, move) -> bool:
        if not isinstance(move, PlaceIsland) or move.number != number:
            return False
        if free and raw_cost(state.cells, move.cell, move.number) != 0:
            return False
        return cells is None or move.cell in cells
    if free:
        return Goal(accepts, "TEACH_TRANQ_FREE_CELL", "tranquility.place.cost", {"number": number})
    if cells is not None:
        return Goal(accepts, "TEACH_TRANQ_ROW", "tranquility.place.ascending",
                    {"number": number, "row": cells.start // 6 + 1})
    return Goal(accepts, "TEACH_TRANQ_PLACE", "tranquility.place.ascending", {"number": number})


def _discards_after_start(scenario: Scenario) -> tuple[str, Event]:
    engine = scenario.engine
    after, _events = engine.transition(scenario.state(), PlayStart())
    left = engine.observe(after, None)["start_discard_left"]
    return str(left), Event("TEACH_TRANQ_EIGHT", "tranquility.start.discard-eight", n=left)


def _cost_of(number: int, cell: int):
    def solve(scenario: Scenario) -> tuple[str, Event]:
        cost = raw_cost(scenario.state().cells, cell, number)
        return (str(cost) if cost < 4 else "4+"), Event("TEACH_EX_COST", "tranquility.place.cost", number=number,
                                                        cost=cost, neighbours=", ".join(
                                                            str(n) for n in (scenario.state().cells[cell - 1],
                                                                             scenario.state().cells[cell + 1]) if n))
    return solve


def _may_finish(scenario: Scenario) -> tuple[str, Violation | Event]:
    engine = scenario.engine
    state = scenario.state()
    violation = engine.why_illegal(state, engine.parse_move("finish"))
    if violation is None:
        return "yes", Event("TEACH_TRANQ_FINISH_OK", "tranquility.finish.win")
    return "no", Violation("TEACH_TRANQ_FINISH_NOT_YET", "tranquility.finish.grid-full",
                           empty=sum(1 for c in state.cells if not c))


YES_NO = (Choice("yes", "teach.yes"), Choice("no", "teach.no"))
COSTS = tuple(Choice(v, "teach.ex.cost_choice", {"n": v}) for v in ("0", "1", "2", "3", "4+"))

LESSON = Lesson("tranquility", "teach.tranq.title", (
    Step("teach.tranq.first", "tranquility.place.ascending", _after(0), _places(37, range(12, 18)),
         "place 37 at 16", seat=1, params={"card": 37}),
    Step("teach.tranq.order", "tranquility.place.ascending", _after(1), _places(2), "place 2 at 0", seat=0,
         params={"card": 2}),
    Step("teach.tranq.start", "tranquility.start.must-play", _after(2), Goal(
        lambda _e, _s, m: isinstance(m, PlayStart), "TEACH_TRANQ_START", "tranquility.start.must-play"),
        "start", seat=1, params={"card": 43}, offer=("start",)),
    Step("teach.tranq.eight", "tranquility.start.discard-eight", _after(2), Question(
        tuple(Choice(v, "teach.ex.cost_choice", {"n": v}) for v in ("2", "5", "8", "10")), _discards_after_start),
        "8", seat=1),
    Step("teach.tranq.split", "tranquility.start.discard-eight", _after(3), Goal(
        lambda _e, _s, m: str(m).startswith("split"), "TEACH_TRANQ_SPLIT", "tranquility.start.discard-eight"),
        "split 21 48 54 60", seat=1, offer=("split 21 48 54 60",)),
    Step("teach.tranq.cost", "tranquility.place.cost", _after(5), Question(COSTS, _cost_of(6, 1)), "4+", seat=0,
         params={"card": 6}),
    Step("teach.tranq.free", "tranquility.place.cost", _after(5), _places(6, free=True), "place 6 at 2", seat=0,
         params={"card": 6}),
    Step("teach.tranq.finish", "tranquility.finish.grid-full", _after(6), Question(YES_NO, _may_finish), "no",
         seat=1),
    Step("teach.tranq.discard", "tranquility.turn.action", _after(6), Goal(
        lambda _e, _s, m: str(m).startswith("discard "), "TEACH_TRANQ_DISCARD", "tranquility.turn.action"),
        "discard 67 75", seat=1, offer=("discard 67 75",)),
), outro="teach.tranq.outro")


def move_for_cell(step: Step, cell: int) -> str:
    """The move a click on ``cell`` stands for: place the step's card there, paying with the discards the
    engine lists for that placement (none if it lists none: the engine then says why not)."""
    number = step.params.get("card")
    engine = step.scenario.engine
    for move in engine.legal_moves(step.scenario.state()):
        if isinstance(move, PlaceIsland) and move.number == number and move.cell == cell:
            return str(move)
    return f"place {number} at {cell}"
