"""Sewer Pirats bots (issue #16): every decision legal, from the observation only, deterministic, and the
greedy valuation doing what docs/pirats-notes.md "Bots" says."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

from pirats_helpers import figure, front_loot, place, table, with_hand
from toolkit.core.bots import BotTable, Decision, bot_rng, play_out
from toolkit.pirats import (BOTS, ENGINE, SHIPS, VARIANTS, BecomeCaptain, Bid, Draw, Pass, SnailStep,
                            Stay, TakeLoot, Token, move_effects, score)
from toolkit.pirats.coach import Board, Weights
from toolkit.pirats.study import game_seats, run_study

LEVELS = list(BOTS)


def test_levels_strongest_first_with_random():
    assert LEVELS[0] == "greedy" and "random" in LEVELS and len(LEVELS) >= 3
    assert all(BOTS[level]().name == level for level in LEVELS)


def _positions(seed: int, players: int, variant: str):
    """Every position of a seeded random game (random moves reach every phase: peeks, stays, the bar)."""
    rng = random.Random(seed)
    state = ENGINE.new_state(seed, players=players, variant=variant)
    while not ENGINE.is_over(state):
        yield state
        state = ENGINE.apply(state, rng.choice(ENGINE.legal_moves(state)))


def test_bots_never_make_an_illegal_move_or_raise_in_random_positions():
    # every player count and variant (landlubber: no powers; standard and auction: powers), each level asked
    # at every position of seeded random games
    bots = {level: BOTS[level]() for level in LEVELS}
    decisions = 0
    phases: set[str] = set()
    for variant in VARIANTS:
        for players in (2, 3, 4, 5):
            for seed in range(3):
                for state in _positions(seed, players, variant):
                    seat = ENGINE.decider(state)
                    legal = ENGINE.legal_moves(state)
                    view = ENGINE.observe(state, seat)
                    phases.add(state.phase)
                    for level, bot in bots.items():
                        decision = bot.decide(view, legal, bot_rng(seed, seat))
                        assert isinstance(decision, Decision) and decision.move in legal, (level, state.phase)
                        assert ENGINE.actor(state, decision.move) == seat
                        assert decision.reason.rule.startswith("bots.")
                        decisions += 1
    assert decisions >= 10_000
    assert {"action", "draw", "discard", "sail", "extra", "snail", "auction", "bid", "pay"} <= phases


@pytest.mark.parametrize("variant", VARIANTS)
def test_all_bot_games_end_and_replay_exactly(variant):
    seats = ["greedy", "cautious", "random", "greedy"]
    first, moves = play_out(ENGINE, 11, seats, players=4, variant=variant)
    again, moves2 = play_out(ENGINE, 11, seats, players=4, variant=variant)
    assert ENGINE.is_over(first) and moves == moves2 and first == again
    other, moves3 = play_out(ENGINE, 12, seats, players=4, variant=variant)
    assert moves3 != moves


def _permute_hidden(state, seat: int, rng: random.Random):
    """The same table for ``seat``: the other seats' hands and the deck order re-dealt from their pooled
    cards (each hand keeps its size, the deck its length)."""
    pool = list(state.deck)
    for other in range(state.players):
        if other != seat:
            for i, n in enumerate(state.hands[other]):
                pool += [SHIPS[i]] * n
    rng.shuffle(pool)
    hands = [list(h) for h in state.hands]
    for other in range(state.players):
        if other != seat:
            size = sum(state.hands[other])
            hands[other] = [0, 0, 0]
            for card in pool[:size]:
                hands[other][SHIPS.index(card)] += 1
            pool = pool[size:]
    return replace(state, hands=tuple(tuple(h) for h in hands), deck=tuple(pool))


def test_a_bot_decides_the_same_whatever_the_other_seats_hold():
    rng = random.Random(5)
    checked = 0
    for variant in VARIANTS:
        for seed, players in ((1, 3), (2, 4), (3, 5)):
            for k, state in enumerate(_positions(seed, players, variant)):
                if k % 7:
                    continue
                seat = ENGINE.decider(state)
                other = _permute_hidden(state, seat, rng)
                assert ENGINE.card_count(other) == 54
                for level in ("greedy", "cautious"):
                    a = BotTable(ENGINE, [level] * players, seed).ask(state, seat)
                    b = BotTable(ENGINE, [level] * players, seed).ask(other, seat)
                    assert a.move == b.move and a.reason.text("en") == b.reason.text("en")
                checked += 1
    assert checked > 50


def test_reasons_read_in_english_and_japanese():
    seen = set()
    for variant in VARIANTS:
        state = ENGINE.new_state(4, players=3, variant=variant)
        table_ = BotTable(ENGINE, ["greedy", "cautious", "greedy"], 4)
        while not ENGINE.is_over(state):
            seat, decision = table_.step(state)
            for lang in ("en", "ja"):
                text = decision.text(lang)
                assert text and "{" not in text
            seen.add(decision.reason.code)
            state = ENGINE.apply(state, decision.move)
    assert {"BOT_PIRATS_TAKE", "BOT_PIRATS_MOVE", "BOT_PIRATS_DRAW", "BOT_PIRATS_OPEN", "BOT_PIRATS_PAY"} <= seen


# ---- the greedy valuation ---------------------------------------------------------------------------------

def _decide(state, level="greedy"):
    seat = ENGINE.decider(state)
    return BOTS[level]().decide(ENGINE.observe(state, seat), ENGINE.legal_moves(state), np.random.default_rng(0))


def test_greedy_boards_where_the_loot_adds_most():
    # seat 0 holds 2 fries; the fish ship's front group has ketchup as bonus and fries: captaining it (its
    # crew spaces are full) pays bonus + fries (+5 each for all three), far more than anything else
    s = table(species=("rat", "cockroach", "toad", "snail"))
    s = with_hand(place(s, "fish", {1: (1, 0), 2: (2, 0), 3: (3, 0)}), 0, fish=3)
    s = front_loot(s, "fish", ("fries 3", "teddy 1", "doll 1"), "ketchup")
    s = front_loot(s, "cat", ("teddy 1", "doll 1", "teddy 2"), "parrot")
    s = front_loot(s, "bird", ("doll 2", "teddy 1", "doll 1"), "parrot")
    s = replace(s, treasure=((Token.parse("fries 2"), Token.parse("fries 1")),) + s.treasure[1:])
    decision = _decide(s)
    assert isinstance(decision.move, BecomeCaptain) and decision.move.ship == "fish"
    assert decision.reason.rule == "bots.pirats.ship-value" and "captain" in decision.text("en")


def test_timing_weights_open_ships_less():
    s = table()
    s = front_loot(s, "cat", ("can 9", "fries 2", "burger 4"), "opener")
    view = ENGINE.observe(s, 0)
    open_board = Board.from_view(view)
    assert open_board.timing(0) == Weights().open_weight < 1
    captained = Board.from_view(ENGINE.observe(place(s, "cat", {4: (1, 0)}), 0))
    assert captained.timing(0) == 1.0
    late = Board.from_view(dict(view, loot_stock=2))
    assert late.timing(0) == Weights().late_open_weight < open_board.timing(0)
    # a captain must sail: the forced move says what the sailing brings
    forced = _decide(place(s, "cat", {4: (0, 0)}))
    assert str(forced.move) == "sail cat" and forced.reason.rule == "bots.pirats.timing"


def test_draws_the_face_up_card_it_needs():
    # nothing affordable worth doing with an empty hand: draw, the face-up card of the ship whose loot it wants
    s = table()
    s = with_hand(s, 0)
    s = replace(s, row=("cat", "bird", "bird", "bird"), deck=tuple(c for c in s.deck) )
    s = front_loot(s, "cat", ("fries 3", "fries 4", "fries 5"), "ketchup")
    s = front_loot(s, "bird", ("teddy 1", "doll 1", "teddy 1"), "chili")
    s = front_loot(s, "fish", ("doll 1", "teddy 1", "doll 1"), "chili")
    decision = _decide(s)
    assert decision.move == Draw("cat") and decision.reason.rule == "bots.pirats.cards"


def test_takes_the_loot_that_adds_most():
    s = table(species=("rat", "cockroach", "toad", "snail"))
    s = front_loot(place(s, "cat", {4: (0, 1)}), "cat", ("burger 4", "fries 2", "can 8"), "ketchup")
    s = ENGINE.apply(s, "sail cat")
    # the ketchup just taken makes fries 2 worth 7; burger 4 is 4 and the can is 0 without an opener
    decision = _decide(s)
    assert decision.move == TakeLoot(Token.parse("fries 2")) and "+7" in decision.text("en")
    assert decision.reason.rule == "bots.pirats.loot"


def _snail_peeked(captain_gain: bool):
    s = table(species=("rat", "cockroach", "toad", "snail"))
    s = with_hand(place(s, "cat", {1: (1, 0), 2: (2, 0)}), 0, cat=1)
    deck = list(s.deck)
    deck.remove("cat")
    s = replace(s, deck=("cat",) + tuple(deck))
    loot = ("fries 3", "fries 4", "burger 5") if captain_gain else ("can 9", "can 8", "can 7")
    s = front_loot(s, "cat", loot, "ketchup" if captain_gain else "chili")
    return ENGINE.apply(s, "move snail cat 1 peek")


def test_snail_step_only_when_worth_it():
    # the extra space makes the snail captain: worth it for ketchup and fries, not for cans without an opener
    rich = _snail_peeked(True)
    assert rich.phase == "snail"
    yes = _decide(rich)
    assert yes.move == SnailStep() and yes.reason.rule == "bots.pirats.powers"
    poor = _snail_peeked(False)
    no = _decide(poor)
    assert no.move == Pass() and no.reason.code == "BOT_PIRATS_NO_STEP"


def test_toad_stays_for_the_captain_space():
    # seat 0's toad on space 3; the loot now is worthless to it (a can, no opener) while the next group
    # (visible behind) holds ketchup and fries: it stays and becomes captain for that group
    s = table(species=("rat", "cockroach", "toad", "snail"))
    s = place(s, "cat", {4: (1, 0), 3: figure(s, 0, "toad")})
    from toolkit.pirats import Flotsam, Ship
    cat = s.ships[0]
    groups = (Flotsam((Token.parse("can 7"), Token.parse("can 8"), Token.parse("doll 1")), Token.parse("chili")),
              Flotsam((Token.parse("fries 4"), Token.parse("fries 5"), Token.parse("burger 5")),
                      Token.parse("ketchup")))
    s = replace(s, ships=(Ship(cat.spaces, groups),) + s.ships[1:], turn=1)
    s = ENGINE.apply(s, "sail cat")
    while ENGINE.current_player(s) != 0:
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    assert Stay() in ENGINE.legal_moves(s)
    decision = _decide(s)
    assert decision.move == Stay() and decision.reason.code == "BOT_PIRATS_STAY"


def test_auction_bids_within_the_figures_worth():
    s = ENGINE.new_state(3, players=3, variant="auction")
    opened = _decide(s)
    assert opened.reason.rule == "bots.pirats.auction"
    s = ENGINE.apply(s, opened.move)
    # the next seat bids on while the price stays within the figure's worth, then passes
    bids = 0
    while s.phase == "bid":
        d = _decide(s)
        if isinstance(d.move, Bid):
            auc = s.auction
            from toolkit.pirats.bots import SPECIES_WORTH
            worth = SPECIES_WORTH[auc.bar[auc.stool]] + len(auc.under[auc.stool]) * Weights().card_value
            assert d.move.amount * Weights().card_value <= worth + 1e-9
            bids += 1
        s = ENGINE.apply(s, d.move)
    assert s.phase in ("pay", "auction")


# ---- hints ------------------------------------------------------------------------------------------------

def test_move_effects_cover_every_legal_move_and_match_the_score():
    s = table(species=("rat", "cockroach", "toad", "snail"))
    s = front_loot(place(s, "cat", {4: (0, 1)}), "cat", ("burger 4", "fries 2", "can 8"), "ketchup")
    sailing = ENGINE.apply(s, "sail cat")
    legal = ENGINE.legal_moves(sailing)
    effects = move_effects(ENGINE.observe(sailing, 0), legal)
    assert [e.move for e in effects] == legal
    for e in effects:
        after = ENGINE.apply(sailing, e.move)
        # the score now is exact: it is what the engine scores after the pick
        assert e.now_after == score(after.treasure[0])
        assert e.next_after >= e.now_after
    # a move that puts a figure on a ship changes the score after the next sailing, not now
    s2 = with_hand(place(table(), "cat", {1: (1, 0), 2: (2, 0), 3: (3, 0)}), 0, cat=3)
    s2 = front_loot(s2, "cat", ("burger 4", "fries 2", "can 8"), "ketchup")
    effects = {str(e.move): e for e in move_effects(ENGINE.observe(s2, 0), ENGINE.legal_moves(s2))}
    captain = effects["captain rat cat"]
    assert captain.now == 0 and captain.next > 0 and captain.cards == 3
    assert effects["draw deck"].next == 0 and effects["draw deck"].cards == -1


def test_study_seats_rotate_and_a_tiny_study_runs():
    assert game_seats("a", "b", 4, 0) == ["a", "b", "a", "b"]
    assert game_seats("a", "b", 4, 1) == ["b", "a", "b", "a"]
    for players in (3, 5):
        games = [game_seats("a", "b", players, i) for i in range(2 * players)]
        for seat in range(players):  # each level at each seat equally often
            assert [g[seat] for g in games].count("a") == players
        assert sum(g.count("a") > g.count("b") for g in games) == players  # the extra seat: half the games
    result = run_study(pairs=[("greedy", "random")], players=[3], games=6, chunk_size=4)
    row = result.row("greedy", "random", 3)
    assert row.games == 6 and row.wins_a + row.wins_b == pytest.approx(6 - row.unfinished)
    assert "| greedy | random | 3 |" in result.table()


def test_bots_and_hints_refuse_what_is_not_an_observation():
    from toolkit.core.errors import RuleError
    state = ENGINE.new_state(1)
    view, legal = ENGINE.observe(state, 0), ENGINE.legal_moves(state)
    bad_views = [None, 3, "view", {}, {"seat": 0}, dict(view, seat=9), dict(view, ships=[]),
                 dict(view, hand={"cat": "x"})]
    for bad in (dict(view, phase="sail"), dict(view, phase="pay")):  # a view of another position
        with pytest.raises(RuleError):
            BOTS["greedy"]().decide(bad, legal, np.random.default_rng(0))
    for bad in bad_views:
        for call in (lambda v: move_effects(v, legal),
                     lambda v: BOTS["greedy"]().decide(v, legal, np.random.default_rng(0))):
            with pytest.raises((RuleError, TypeError)):
                call(bad)
    for bad_legal in (None, 5, "draw deck", [1, 2]):
        with pytest.raises((RuleError, TypeError)):
            BOTS["greedy"]().decide(view, bad_legal, np.random.default_rng(0))
    with pytest.raises(TypeError):
        move_effects(view, None)
