"""Learn to play The Crew: Mission Deep Sea — the rule text's pink-9 example, one action per step.

Take the task, lead, follow pink (or be refused), predict who wins, use sonar, lead a submarine, follow a
submarine, predict the last trick. Every position is the engine's (``toolkit.crew.examples.pink_nine``:
a custom mission with the example's hands and task 78 "win the first two tricks"); every right answer is
the engine's.
"""

from __future__ import annotations

from typing import Any

from toolkit.core.explain import Event
from toolkit.crew.cards import Card, suit_term, trick_winner, why_illegal_play
from toolkit.crew.engine import PlayCard, Sonar, TakeTask
from toolkit.crew.examples import PINK_NINE_HANDS, PINK_NINE_MOVES
from toolkit.teaching.lesson import Choice, Goal, Lesson, Question, Scenario, Step

START = Scenario("crew", 0, {"players": 4, "mission": 0, "tasks": [78], "hands": list(PINK_NINE_HANDS)})
SONAR = "sonar 1 B1 middle"


def _after(n: int) -> Scenario:
    """The example after its first ``n`` moves."""
    return START.then(*PINK_NINE_MOVES[:n])


def _after_sonar(n: int) -> Scenario:
    """The example after its first ``n`` moves, Seat 2's sonar inserted after the first trick."""
    return START.then(*PINK_NINE_MOVES[:5], SONAR, *PINK_NINE_MOVES[5:n])


def _plays(card: str) -> Goal:
    return Goal(lambda _e, _s, m: isinstance(m, PlayCard) and str(m.card) == card,
                "TEACH_CREW_PLAY_THIS", "crew.trick.own-card", {"card": Card.parse(card)})


def _any_play() -> Goal:
    return Goal(lambda _e, _s, m: isinstance(m, PlayCard), "TEACH_CREW_PLAY_A_CARD", "crew.trick.own-card")


def _seat_choices() -> tuple[Choice, ...]:
    return tuple(Choice(str(s), "crew.ui.seat_n", {"seat": s}) for s in range(4))


def _trick_winner(scenario: Scenario, last: str) -> tuple[str, Event]:
    """Who wins the trick on the table once ``last`` is played: the engine's own trick-taking."""
    state = scenario.state()
    plays = [*state.trick, scenario.engine.parse_move(last).card]
    winner = (state.leader + trick_winner(plays)) % state.seats
    card = plays[trick_winner(plays)]
    if card.is_submarine:
        return str(winner), Event("TEACH_CREW_WINS_SUBMARINE", "crew.trick.winner", seat=winner, card=card)
    return str(winner), Event("TEACH_CREW_WINS_LED", "crew.trick.winner", seat=winner, card=card,
                              colour=suit_term(plays[0].suit))


def _may_play(seat: int, card: str) -> Question:
    def solve(scenario: Scenario) -> tuple[str, Event]:
        state = scenario.state()
        led = state.trick[0] if state.trick else None
        violation = why_illegal_play(state.hands[seat], card, led)
        if violation is None:
            return "yes", Event("TEACH_CREW_MAY_PLAY", "crew.trick.free-play", card=Card.parse(card),
                                colour=suit_term(led.suit) if led else "-")
        return "no", violation
    return Question((Choice("yes", "teach.yes"), Choice("no", "teach.no")), solve)


def _sonar_goal() -> Goal:
    return Goal(lambda _e, _s, m: isinstance(m, Sonar) and m.seat == 1, "TEACH_CREW_SONAR_SEAT_2",
                "crew.sonar.timing")


LESSON = Lesson("crew", "teach.crew.title", (
    Step("teach.crew.take", "crew.alloc.order", _after(0), Goal(
        lambda _e, _s, m: isinstance(m, TakeTask), "TEACH_CREW_TAKE_IT", "crew.alloc.order"),
        "take 78", seat=0),
    Step("teach.crew.lead", "crew.trick.free-play", _after(1), _plays("P9"), "play P9", seat=0),
    Step("teach.crew.follow", "crew.trick.follow", _after(2), _any_play(), "play P7", seat=1),
    Step("teach.crew.no_pink", "crew.trick.free-play", _after(3), _may_play(2, "Y2"), "yes", seat=2,
         params={"mark": "Y2"}),
    Step("teach.crew.who_wins", "crew.trick.winner", _after(4),
         Question(_seat_choices(), lambda sc: _trick_winner(sc, "play P8")), "0", seat=3,
         params={"mark": "P8"}),
    Step("teach.crew.sonar", "crew.sonar.position", _after(5), _sonar_goal(), SONAR, seat=1),
    Step("teach.crew.submarine_lead", "crew.trick.submarine-lead", _after_sonar(5), _plays("S4"), "play S4",
         seat=0),
    Step("teach.crew.follow_submarine", "crew.trick.follow", _after_sonar(7), _any_play(), "play S1", seat=2),
    Step("teach.crew.task_done", "crew.task.judge", _after_sonar(8),
         Question(_seat_choices(), lambda sc: _trick_winner(sc, "play S2")), "0", seat=3,
         params={"mark": "S2"}),
), outro="teach.crew.outro")


def move_for_card(step: Step, card: Card) -> Any:
    """The move a click on ``card`` in the step's hand stands for: play it, or — in a sonar step — show it
    with sonar (the position the engine would accept; a card that has none is sent as "middle" so the
    engine explains the refusal)."""
    scenario = step.scenario
    if isinstance(step.task, Goal) and step.task.reason == "TEACH_CREW_SONAR_SEAT_2":
        engine = scenario.engine
        for move in engine.legal_moves(scenario.state()):
            if isinstance(move, Sonar) and move.seat == step.seat and move.card == card:
                return move
        return f"sonar {step.seat} {card} middle"
    return f"play {card}"
