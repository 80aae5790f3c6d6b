"""One conformance suite for the engine contract (shared/DESIGN.md, "One contract for every engine"),
parametrised over the four games and the tiny test game (tests/tinygame.py).

Over random seeded playthroughs (hypothesis picks the seed and the options):

* ``why_illegal(s, m) is None`` exactly when ``m in legal_moves(s)``, for every legal move and a spread of
  candidates; a refused move raises ``IllegalMoveError`` carrying that violation and leaves the state as it
  was;
* ``legal_moves(s, seat)`` is exactly the moves ``actor(s, m) == seat`` makes, and a move that names a seat
  is that seat's;
* states and moves survive their JSON/text round trip; ``(seed, options, moves)`` replays exactly;
* ``observe(s, seat)`` does not change when the cards hidden from ``seat`` are permuted, and holds the
  shared vocabulary (``SHARED_VIEW_KEYS``);
* a bot is handed only its own seat's moves (``BotTable``, which ``play_out`` and the tables use);
* every game raises ``InvalidOptionError`` for a bad option and ``InvalidSeatError`` for a foreign seat.

Game-specific properties (cards and tokens conserved, task statuses never revert, …) stay in each game's
own property file.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tinygame import STONES, Take
from toolkit.core import IllegalMoveError, InvalidOptionError, InvalidSeatError, RuleError, Session
from toolkit.core.bots import BotTable, Decision, RandomBot, play_out
from toolkit.core.engine import SHARED_VIEW_KEYS
from toolkit.crew import DECK
from toolkit.crew.engine import (ENGINE as CREW, AssignAll, AssignTask, Distress, GiveCard, PassTask, PlayCard,
                                 Predict, Retry, Sonar, TakeTask, TimeUp)
from toolkit.deepblue import ENGINE as DEEPBLUE
from toolkit.deepblue import (ChooseSpot, DrawGem, Hire, Leave, MoveBoat, PlayCard as DiveCard, Protect, SetSail,
                              StartDive)
from toolkit.pirats import ENGINE as PIRATS, VARIANTS
from toolkit.tranquility import (ENGINE as TRANQUILITY, FINISH, MONSTER, DiscardHand, DiscardTwo, MoveRock,
                                 PlaceIsland, PlayFinish, PlayMonster, PlayStart, ResolveStorm, RockDiscard,
                                 StartDiscard, UseCompass)

def _pirats_helpers():
    """tests/pirats/pirats_helpers.py (its folder is on sys.path only for the tests in it)."""
    path = Path(__file__).parent / "pirats" / "pirats_helpers.py"
    spec = importlib.util.spec_from_file_location("pirats_helpers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pirats_candidates = _pirats_helpers().candidate_moves
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---- per game: options, candidate moves, and how to permute what a seat cannot see ----------------------------
def _crew_candidates(state, rnd):
    seats = range(state.seats)
    moves = {PlayCard(c) for c in rnd.sample(DECK, 8)}
    moves |= {Sonar(s, c, p) for s in seats for c in rnd.sample(DECK, 2) for p in ("top", "bottom", "middle", None)}
    moves |= {TakeTask(t) for t in list(state.tasks) + [rnd.randint(1, 96)]}
    moves |= {AssignTask(t, s) for t in state.tasks[:2] for s in seats}
    moves |= {AssignAll(s) for s in seats}
    moves |= {PassTask(), Predict(rnd.randint(0, 14)), Distress("left"), TimeUp(), Retry(False), Retry(True)}
    moves |= {GiveCard(s, rnd.choice(DECK)) for s in seats}
    return sorted(moves, key=str)


def _crew_hide(state, seat, rnd):
    """Swap one uncommunicated card between two other players' hands (sizes unchanged)."""
    shown = {c.card for c in state.comms}
    others = [s for s in range(state.seats) if s != seat and s != state.tonoja
              and any(c not in shown for c in state.hands[s])]
    if len(others) < 2:
        return None
    a, b = rnd.sample(others, 2)
    card_a = rnd.choice([c for c in state.hands[a] if c not in shown])
    card_b = rnd.choice([c for c in state.hands[b] if c not in shown])
    hands = list(state.hands)
    hands[a] = tuple(sorted([c for c in hands[a] if c != card_a] + [card_b]))
    hands[b] = tuple(sorted([c for c in hands[b] if c != card_b] + [card_a]))
    return replace(state, hands=tuple(hands))


def _tranquility_candidates(state, rnd):
    hand = list(state.hands[state.seat])
    pool = sorted(set(hand + [rnd.randint(1, 80), FINISH, MONSTER]))
    numbers = [c for c in pool if c <= 80]
    pick = lambda k: rnd.sample(pool, min(k, len(pool)))  # noqa: E731
    out = [PlayStart(), PlayFinish(), PlayMonster(), DiscardHand(), UseCompass("storm"), UseCompass("yellow", 0),
           UseCompass("orange", 1), UseCompass("purple", 2), ResolveStorm(row=rnd.randint(-1, 5)),
           ResolveStorm(discards=pick(rnd.randint(0, 3))), MoveRock(rnd.randint(0, 5)),
           StartDiscard(pick(rnd.randint(0, 6)), rnd.randint(0, 2))]
    if len(pool) >= 2:
        out += [DiscardTwo(pick(2)), RockDiscard(pick(2))]
    for _ in range(4):
        number = rnd.choice(numbers)
        out.append(PlaceIsland(number, rnd.randint(0, 35)))
        out.append(PlaceIsland(number, rnd.randint(0, 35), [c for c in pick(2) if c != number]))
    return out


def _tranquility_hide(state, seat, rnd):
    """Swap a card of another seat's hand with one of its face-down draw pile."""
    others = [s for s in range(state.players) if s != seat and state.hands[s] and state.piles[s]]
    if not others:
        return None
    s = rnd.choice(others)
    i, j = rnd.randrange(len(state.hands[s])), rnd.randrange(len(state.piles[s]))
    hand, pile = list(state.hands[s]), list(state.piles[s])
    if hand[i] == pile[j]:
        return None
    hand[i], pile[j] = pile[j], hand[i]
    hands, piles = list(state.hands), list(state.piles)
    hands[s], piles[s] = tuple(hand), tuple(pile)
    return replace(state, hands=tuple(hands), piles=tuple(piles))


DEEPBLUE_PROBES = [DrawGem(0), DrawGem(1), Leave(1), Leave(2), DiveCard(1, 60), Protect(0, None), Protect(1, 4),
                   ChooseSpot(0, 2), MoveBoat(0, 1, 9), StartDive(1, 0), Hire(0, 4, (1,), 0), SetSail(2, (2, 3), 1)]


def _deepblue_hide(state, seat, rnd):
    """Swap a card of another player's hand with one of the face-down deck."""
    others = [s for s in range(state.seats) if s != seat and state.players[s].hand]
    if not others or not state.deck:
        return None
    s = rnd.choice(others)
    hand, deck = list(state.players[s].hand), list(state.deck)
    i, j = rnd.randrange(len(hand)), rnd.randrange(len(deck))
    hand[i], deck[j] = deck[j], hand[i]
    players = list(state.players)
    players[s] = replace(players[s], hand=tuple(sorted(hand)))
    return replace(state, players=tuple(players), deck=tuple(deck))


def _pirats_hide(state, seat, rnd):
    """Swap a card of another seat's hand (counts per symbol) with a different symbol of the deck."""
    others = [s for s in range(state.players) if s != seat and sum(state.hands[s])]
    if not others or not state.deck:
        return None
    s = rnd.choice(others)
    symbols = ("cat", "bird", "fish")
    held = [k for k in range(3) if state.hands[s][k]]
    k = rnd.choice(held)
    spots = [j for j, sym in enumerate(state.deck) if sym != symbols[k]]
    if not spots:
        return None
    j = rnd.choice(spots)
    hand = list(state.hands[s])
    hand[k] -= 1
    hand[symbols.index(state.deck[j])] += 1
    deck = list(state.deck)
    deck[j] = symbols[k]
    hands = list(state.hands)
    hands[s] = tuple(hand)
    return replace(state, hands=tuple(hands), deck=tuple(deck))


@dataclass(frozen=True)
class Game:
    engine: Any
    options: Callable[[int], Any]                          # min players -> strategy of option dicts
    candidates: Callable[[Any, random.Random], list]       # legal or not
    hide: Callable[[Any, int | None, random.Random], Any] | None = None
    listable: Callable[[Any, Any], bool] = lambda state, move: True
    maker: Callable[[Any], int | None] = lambda move: None   # the seat a move names as the one making it
    bad_options: list[dict] = field(default_factory=list)


GAMES = {
    "crew": Game(CREW, lambda low: st.fixed_dictionaries({"players": st.integers(low, 5),
                                                           "mission": st.integers(1, 35)}),
                 _crew_candidates, _crew_hide, maker=lambda m: m.seat if isinstance(m, (Sonar, GiveCard)) else None,
                 bad_options=[{"mission": 99}, {"mission": 3, "difficulty": 4}, {"hands": [["P1"]]}]),
    "tranquility": Game(TRANQUILITY, lambda low: st.fixed_dictionaries({
        "players": st.integers(max(low, 1), 5), "rocks": st.booleans(), "monsters": st.sampled_from([0, 3, 5]),
        "storms": st.booleans(), "removal": st.sampled_from(["none", "galateia", "poseidon"])}),
        _tranquility_candidates, _tranquility_hide,
        bad_options=[{"removal": "kraken"}, {"monsters": 2}, {"rocks": "yes"}]),
    "deepblue": Game(DEEPBLUE, lambda low: st.fixed_dictionaries({
        "players": st.integers(low, 5),
        "scenario": st.sampled_from(["troubled-waters", "best-of-the-best", "scattered-wealth", "unknown-4"]),
        "gems_return": st.booleans()}),
        lambda state, rnd: DEEPBLUE_PROBES, _deepblue_hide, listable=DEEPBLUE.listed, maker=lambda m: m.seat,
        bad_options=[{"scenario": "kraken"}, {"gems_return": "no"}]),
    "pirats": Game(PIRATS, lambda low: st.fixed_dictionaries({"players": st.integers(low, 5),
                                                              "variant": st.sampled_from(VARIANTS)}),
                   lambda state, rnd: rnd.sample(pirats_candidates(state), 40), _pirats_hide,
                   bad_options=[{"variant": "kraken"}, {"start_player": 7}]),
    "tiny": Game(STONES, lambda low: st.fixed_dictionaries({"players": st.integers(low, 4)}),
                 lambda state, rnd: [Take(s, n) for s in range(state.players) for n in range(-1, 5)],
                 maker=lambda m: m.seat),
}
NAMES = list(GAMES)


def walk(game: Game, seed: int, options: dict, steps: int):
    """The states of a random playthrough (moves picked by a seeded ``random.Random``) and the moves."""
    engine, rnd = game.engine, random.Random(seed)
    state = engine.new_state(seed, **options)
    states, moves = [state], []
    for _ in range(steps):
        legal = engine.legal_moves(state)
        if not legal:
            break
        move = rnd.choice(sorted(legal, key=str))
        state = engine.apply(state, move)
        states.append(state)
        moves.append(move)
    return states, moves


def seats_of(engine, state) -> list[int]:
    return list(range(engine.seat_count(state)))


def games(low_players: int = 2):
    """(game name, seed, options) drawn by hypothesis, for every game."""
    return st.sampled_from(NAMES).flatmap(
        lambda name: st.tuples(st.just(name), st.integers(0, 10**6), GAMES[name].options(low_players)))


# ---- the contract -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@settings(FAST, max_examples=6)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_legal_iff_no_violation_and_refusals_leave_the_state_untouched(name, seed, data):
    game = GAMES[name]
    engine, rnd = game.engine, random.Random(seed)
    states, _ = walk(game, seed, data.draw(game.options(2)), steps=60)
    for state in states[::3]:
        legal = engine.legal_moves(state)
        assert len(set(legal)) == len(legal), "a move is listed twice"
        assert engine.is_over(state) <= (legal == []), "a finished game offers moves"
        for move in rnd.sample(legal, min(25, len(legal))):
            assert engine.why_illegal(state, move) is None, move
        listed = set(legal)
        for move in game.candidates(state, rnd):
            violation = engine.why_illegal(state, move)
            # listed <=> accepted (Deep Blue also accepts an overpaying hire it does not list)
            assert (move in listed) == (violation is None and game.listable(state, move)), (move, violation)
            if violation is None:
                continue
            assert violation.rule and violation.text("ja") and violation.message
            before = engine.state_to_json(state)
            with pytest.raises(IllegalMoveError) as refused:
                engine.apply(state, move)
            assert refused.value.violation == violation
            assert engine.state_to_json(state) == before


@pytest.mark.parametrize("name", NAMES)
@settings(FAST, max_examples=6)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_legal_moves_of_a_seat_are_exactly_the_moves_it_makes(name, seed, data):
    game = GAMES[name]
    engine = game.engine
    states, _ = walk(game, seed, data.draw(game.options(2)), steps=80)
    for state in states[::2]:
        legal = engine.legal_moves(state)
        assert engine.legal_moves(state, None) == legal
        mine = {seat: engine.legal_moves(state, seat) for seat in seats_of(engine, state)}
        for seat, moves in mine.items():
            assert moves == [m for m in legal if engine.actor(state, m) == seat]
            for move in moves:
                named = game.maker(move)
                assert named is None or named == seat, f"{move} names seat {named} but is listed for seat {seat}"
        nobody = [m for m in legal if engine.actor(state, m) is None]
        assert sum(len(m) for m in mine.values()) + len(nobody) == len(legal)
        decider = engine.decider(state)
        if legal and decider is not None and not engine.play_out_over(state):
            assert mine[decider], f"the game waits for seat {decider}, which has no move"
        for seat in engine.optional_actors(state):
            assert mine[seat], f"seat {seat} may act now but has no move"


@pytest.mark.parametrize("name", NAMES)
@settings(FAST, max_examples=4)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_states_and_moves_round_trip_and_games_replay_exactly(name, seed, data):
    game = GAMES[name]
    engine = game.engine
    options = data.draw(game.options(2))
    states, moves = walk(game, seed, options, steps=80)
    assert engine.new_state(seed, **options) == states[0]
    assert walk(game, seed, options, steps=80) == (states, moves)       # seeded: the same game again
    for state in states[::10] + [states[-1]]:
        assert engine.state_from_json(engine.state_to_json(state)) == state
    for move in moves:
        assert engine.parse_move(str(move)) == move
        assert engine.move_from_json(engine.move_to_json(move)) == move
    replayed = Session.replay(engine, seed, [str(m) for m in moves], options)
    assert replayed.state == states[-1]


@pytest.mark.parametrize("name", [n for n in NAMES if GAMES[n].hide is not None])
@settings(FAST, max_examples=5)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_observe_does_not_change_when_hidden_cards_are_permuted(name, seed, data):
    game = GAMES[name]
    engine, rnd = game.engine, random.Random(seed)
    states, _ = walk(game, seed, data.draw(game.options(3)), steps=60)
    permuted = 0
    for state in states[::4]:
        for seat in seats_of(engine, state) + [None]:
            other = game.hide(state, seat, rnd)
            if other is None:
                continue
            assert other != state
            assert engine.observe(other, seat) == engine.observe(state, seat), seat
            permuted += 1
    assert permuted, "no hidden card was permuted: the test checked nothing"


@pytest.mark.parametrize("name", NAMES)
@settings(FAST, max_examples=4)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_every_view_holds_the_shared_vocabulary(name, seed, data):
    game = GAMES[name]
    engine = game.engine
    states, _ = walk(game, seed, data.draw(game.options(2)), steps=60)
    for state in states[::5] + [states[-1]]:
        for seat in seats_of(engine, state) + [None]:
            view = engine.observe(state, seat)
            assert set(SHARED_VIEW_KEYS) <= set(view), set(SHARED_VIEW_KEYS) - set(view)
            json.dumps(view)
            assert view["game"] == engine.name and view["seat"] == seat
            assert view["seat_count"] == engine.seat_count(state)
            assert view["to_act"] == engine.decider(state) and view["over"] == engine.is_over(state)
            assert isinstance(view["phase"], str) and view["phase"]
            expected = {engine.actor(state, m) for m in engine.legal_moves(state)} - {None}
            assert set(view["may_act"]) >= expected, "a seat with a move is not named in may_act"
            assert (view["hand"] is None) == (seat is None)


class SpyBot:
    """A random bot that writes down what it is handed."""

    name = "spy"

    def __init__(self, calls: list):
        self.calls, self.inner = calls, RandomBot()

    def decide(self, view, legal, rng) -> Decision:
        self.calls.append((view["seat"], list(legal)))
        return self.inner.decide(view, legal, rng)


@pytest.mark.parametrize("name", NAMES)
@settings(FAST, max_examples=4)
@given(seed=st.integers(0, 10**6), data=st.data())
def test_bots_are_handed_only_their_own_seats_moves(name, seed, data):
    game = GAMES[name]
    engine = game.engine
    options = data.draw(game.options(2))
    state = engine.new_state(seed, **options)
    calls: list = []
    table = BotTable(engine, [SpyBot(calls) for _ in seats_of(engine, state)], seed)
    asked = 0
    for _ in range(150):
        del calls[:]
        step = table.step(state)
        for seat, legal in calls:
            assert legal == engine.legal_moves(state, seat)
            assert all(engine.actor(state, m) == seat for m in legal), (seat, legal)
            asked += 1
        if step is None:
            break
        state = engine.apply(state, step[1].move)
    assert asked
    # play_out drives the same table: the same game from the same seed
    spies = [SpyBot([]) for _ in seats_of(engine, state)]
    first = play_out(engine, seed, spies, max_moves=60, **options)
    assert play_out(engine, seed, [SpyBot([]) for _ in spies], max_moves=60, **options) == first


# ---- the same errors in every game ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_bad_options_raise_invalid_option_error_naming_the_value(name):
    engine = GAMES[name].engine
    cases = [({"players": 9}, "9"), ({"players": "4"}, "'4'"), ({"players": True}, "True"),
             ({"bogus_option": 1}, "bogus_option")] + [(o, None) for o in GAMES[name].bad_options]
    for options, quoted in cases:
        with pytest.raises(InvalidOptionError) as error:
            engine.new_state(1, **options)
        if quoted is not None:
            assert quoted in str(error.value), (options, str(error.value))
    for seed, quoted in ((-1, "-1"), ("x", "'x'"), (2**128, str(2**128)), (1.5, "1.5"), (None, "None")):
        with pytest.raises(InvalidOptionError, match="seed") as error:
            engine.new_state(seed)
        assert quoted in str(error.value)
    assert issubclass(InvalidOptionError, RuleError) and issubclass(InvalidSeatError, RuleError)


@pytest.mark.parametrize("name", NAMES)
def test_a_foreign_seat_raises_invalid_seat_error_everywhere(name):
    engine = GAMES[name].engine
    state = engine.new_state(3)
    count = engine.seat_count(state)
    for seat in (-1, 99, "0", True, 1.0, [0]):
        for call in (lambda: engine.observe(state, seat), lambda: engine.legal_moves(state, seat),
                     lambda: BotTable(engine, ["random"] * count, 3).ask(state, seat)):
            with pytest.raises(InvalidSeatError) as error:
                call()
            assert repr(seat) in str(error.value)
    with pytest.raises(InvalidSeatError):
        engine.observe(state, count + 5)
    for seat in range(count):                                   # every real seat is accepted
        engine.observe(state, seat)
        engine.legal_moves(state, seat)
