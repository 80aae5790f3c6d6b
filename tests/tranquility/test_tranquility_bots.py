"""Tranquility bots: the study's strategies as seats, deciding from ``observe(state, seat)`` alone."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import numpy as np
import pytest

from toolkit.core.bots import BotTable, bot_rng, play_out
from toolkit.tranquility import BOTS, ENGINE, START
from toolkit.tranquility.bots import LEVELS, seat_game
from toolkit.tranquility.cards import FINISH, is_island
from toolkit.tranquility.moves import StartDiscard, UseCompass
from toolkit.tranquility.sim import STRATEGIES, play, split_share

#: option sets covering every player count, the removal variants, both cost limits and the three expansions
OPTION_SETS = [
    dict(players=1), dict(players=2), dict(players=3, removal="triton"), dict(players=4), dict(players=5),
    dict(players=2, cost_limit="japanese"), dict(players=3, short_hand_loss=False),
    dict(players=2, rocks=True), dict(players=4, monsters=4), dict(players=3, storms=True),
    dict(players=5, rocks=True, monsters=3, storms=True, compasses=4), dict(players=1, storms=True, monsters=5),
]


def test_levels_are_the_study_strategies_strongest_first():
    assert list(BOTS) == list(LEVELS) == ["rank", "feasibility", "greedy", "random"]
    assert set(BOTS) == set(STRATEGIES)
    assert all(BOTS[name]().name == name for name in BOTS)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("options", [dict(players=p) for p in range(1, 6)]
                         + [dict(players=3, removal="leucothea"), dict(players=2, cost_limit="japanese")])
def test_bots_and_the_study_play_the_same_moves(level, options):
    # The study is the simulator driving the strategies; the bots drive the same strategies from the
    # engine's observations. Same seeds, same moves, same ending — the study's figures are the bots' figures.
    players = options["players"]
    for seed in (11, 12):
        state, moves = play_out(ENGINE, seed, [level] * players, **options)
        sim_options = {k: v for k, v in options.items() if k != "players"}
        result = play(STRATEGIES[level](), seed, players, record=True, **sim_options)
        assert [str(m) for m in moves] == list(result.moves)
        assert ENGINE.outcome(state).code == result.code


def test_play_out_is_deterministic_and_each_seat_keeps_its_own_dice():
    seats = ["rank", "random", "greedy", "feasibility"]
    a = play_out(ENGINE, 5, seats, players=4, storms=True, monsters=3)
    b = play_out(ENGINE, 5, seats, players=4, storms=True, monsters=3)
    assert a[1] == b[1] and a[0] == b[0]
    c = play_out(ENGINE, 6, seats, players=4, storms=True, monsters=3)
    assert c[1] != a[1]


def _positions(count: int, seed: int = 2026):
    """Positions from games where a seeded mix of bot moves and uniformly random legal moves is played,
    over every option set: (state, legal moves) at every decision."""
    rng = np.random.default_rng(seed)
    made = 0
    game = 0
    while made < count:
        options = OPTION_SETS[game % len(OPTION_SETS)]
        state = ENGINE.new_state(int(rng.integers(1 << 30)), **options)
        table = BotTable(ENGINE, [LEVELS[(game + i) % len(LEVELS)] for i in range(options["players"])],
                         seed=game)
        game += 1
        while not ENGINE.is_over(state) and made < count:
            legal = ENGINE.legal_moves(state)
            yield state, legal
            made += 1
            if rng.random() < 0.3:
                state = ENGINE.apply(state, legal[int(rng.integers(len(legal)))])
            else:
                state = ENGINE.apply(state, table.step(state)[1].move)


def test_bots_never_make_an_illegal_move():
    """≥ 10,000 bot decisions in varied positions (every player count, variants and expansions)."""
    bots = {name: make() for name, make in BOTS.items()}
    decisions = 0
    phases = set()
    kinds = set()
    cited = set()
    for i, (state, legal) in enumerate(_positions(2600)):
        seat = ENGINE.current_player(state)
        view = ENGINE.observe(state, seat)
        legal_set = set(legal)
        for name, bot in bots.items():
            decision = bot.decide(view, legal, np.random.default_rng([i, len(name)]))
            assert decision.move in legal_set, (name, str(decision.move), state.phase)
            assert decision.reason.rule.startswith("bots.tranquility.")
            decisions += 1
            kinds.add(type(decision.move).__name__)
            cited.add(decision.reason.rule)
        phases.add(state.phase)
    assert decisions >= 10_000
    assert phases == {"play", "rock", "start-discard", "storm"}
    assert {"PlaceIsland", "DiscardTwo", "PlayStart", "StartDiscard", "MoveRock", "ResolveStorm",
            "UseCompass", "PlayMonster"} <= kinds
    # every reason id is cited (finish and fallback have their own tests below)
    assert cited >= {"bots.tranquility.place", "bots.tranquility.discard", "bots.tranquility.start",
                     "bots.tranquility.split", "bots.tranquility.compass", "bots.tranquility.storm",
                     "bots.tranquility.rock", "bots.tranquility.monster", "bots.tranquility.random"}


def _permute_hidden(state, seat, rng):
    """Shuffle the islands and finish cards hidden from ``seat`` (other hands, every pile) among themselves,
    keeping every zone's size and every other card where it is."""
    zones = [("hands", s) for s in range(state.players) if s != seat] + [("piles", s) for s in range(state.players)]
    slots = [(z, s, i) for z, s in zones for i, c in enumerate(getattr(state, z)[s]) if is_island(c) or c == FINISH]
    cards = [getattr(state, z)[s][i] for z, s, i in slots]
    cards = [cards[k] for k in rng.permutation(len(cards))]
    hands = [list(h) for h in state.hands]
    piles = [list(p) for p in state.piles]
    for (z, s, i), c in zip(slots, cards):
        (hands if z == "hands" else piles)[s][i] = c
    return replace(state, hands=tuple(map(tuple, hands)), piles=tuple(map(tuple, piles)))


def test_a_bot_decides_the_same_when_the_hidden_cards_are_permuted():
    rng = np.random.default_rng(7)
    checked = 0
    for i, (state, legal) in enumerate(_positions(400, seed=99)):
        seat = ENGINE.current_player(state)
        other = _permute_hidden(state, seat, rng)
        ENGINE.validate_state(other)
        assert other != state or state.players == 1 or not any(state.piles)
        view, view2 = ENGINE.observe(state, seat), ENGINE.observe(other, seat)
        assert view == view2
        legal2 = ENGINE.legal_moves(other)
        for name, make in BOTS.items():
            a = make().decide(view, legal, bot_rng(i, seat))
            b = make().decide(view2, legal2, bot_rng(i, seat))
            assert a == b, name
            checked += 1
    assert checked == 1600


def test_a_bot_needs_nothing_but_plain_data():
    # The observation survives a JSON round trip and the bot decides the same from the copy: it holds no
    # reference to the state or the engine.
    for i, (state, legal) in enumerate(_positions(150, seed=5)):
        view = ENGINE.observe(state, ENGINE.current_player(state))
        copy = json.loads(json.dumps(view))
        for name, make in BOTS.items():
            assert make().decide(view, legal, bot_rng(i, 0)) == make().decide(copy, legal, bot_rng(i, 0))


def test_split_share_needs_only_public_hand_sizes():
    # One card at a time around the table from the first seat still to declare.
    assert split_share([0, 1, 2, 3], [5, 5, 5, 5], 8) == 2
    assert split_share([1, 2, 3], [5, 5, 5, 5], 6) == 2
    assert split_share([0, 1], [1, 5], 8) == 1 and split_share([1], [1, 5], 7) == 5
    assert split_share([2, 0, 1], [5, 5, 5], 8) == 3
    # Counting now or when a later seat's turn comes gives the same share (so no seat needs another's hand).
    rng = np.random.default_rng(3)
    for _ in range(300):
        n = int(rng.integers(1, 6))
        cap = [int(x) for x in rng.integers(0, 8, n)]
        order = [int(x) for x in rng.permutation(n)]
        left = min(8, sum(cap))
        shares = {}
        for k, s in enumerate(order):
            shares[s] = split_share(order[k:], cap, left)
            left -= shares[s]
        assert left == 0 and all(shares[s] <= cap[s] for s in order)
        # as even as the hands allow: a seat gives less than another only when its hand ran out
        for s in order:
            for t in order:
                assert shares[s] >= shares[t] - 1 or shares[s] == cap[s]


def test_the_start_card_split_is_declared_from_the_seats_own_view():
    state, _ = play_out(ENGINE, 3, ["rank"] * 3, players=3, max_moves=0)
    while state.phase != "start-discard":
        state = ENGINE.apply(state, BotTable(ENGINE, ["rank"] * 3, 3).step(state)[1].move)
    bot = BOTS["rank"]()
    total = 0
    while state.phase == "start-discard":
        seat = state.seat
        view = ENGINE.observe(state, seat)
        assert "hands" not in view and set(view["hand"]) <= {str(c) for c in state.hands[seat]} | {"finish", "start"}
        decision = bot.decide(view, ENGINE.legal_moves(state), bot_rng(0, seat))
        assert isinstance(decision.move, StartDiscard)
        total += len(decision.move.cards) + decision.move.blind
        state = ENGINE.apply(state, decision.move)
    assert total == 8


def test_reasons_read_in_english_and_japanese():
    seen = set()
    for i, (state, legal) in enumerate(_positions(300, seed=11)):
        view = ENGINE.observe(state, ENGINE.current_player(state))
        for name, make in BOTS.items():
            d = make().decide(view, legal, bot_rng(i, 0))
            en, ja = d.text("en"), d.text("ja")
            assert en and ja and en != ja and "{" not in en + ja
            seen.add(d.reason.code)
    assert {"BOT_TQ_PLACE_SAFE", "BOT_TQ_SPLIT", "BOT_TQ_START"} <= seen


def test_place_reason_names_the_cost_and_the_neighbours():
    state = ENGINE.new_state(1, players=2)
    view = ENGINE.observe(state, state.seat)
    d = BOTS["rank"]().decide(view, ENGINE.legal_moves(state), bot_rng(0, 0))
    if d.reason.code.startswith("BOT_TQ_PLACE"):
        assert f"places {d.move.number} in cell {d.move.cell}" in d.text("en")
        assert f"costs {len(d.move.discards)}" in d.text("en")


def test_seat_game_knows_only_the_seat_s_hand_and_discards():
    state, _ = play_out(ENGINE, 8, ["feasibility"] * 2, players=2, max_moves=30)
    seat = state.seat
    game = seat_game(ENGINE.observe(state, seat))
    assert sorted(game.hands[seat]) == sorted(state.hands[seat])
    assert all(not game.hands[s] for s in range(2) if s != seat)
    gone = {n for n in range(1, 81) if not game.unused[seat][n]}
    placed = {c for c in state.cells if c}
    mine = {c for c in state.discards[seat] if is_island(c)}
    assert gone == placed | mine
    assert START not in game.hands[1 - seat] and len(game.piles[seat]) == len(state.piles[seat])


def test_compass_and_storm_moves_are_taken():
    # A storm game long enough to draw storms: the bots cancel them with compasses when they can.
    uses = 0
    for seed in range(6):
        _, moves = play_out(ENGINE, seed, ["rank"] * 3, players=3, storms=True)
        uses += sum(isinstance(m, UseCompass) for m in moves)
    assert uses > 0


def test_fallback_when_the_strategy_has_nothing_legal(scenario):
    # One card that fits nowhere, storms on and the 0–1-card loss off: only "discard hand" is left.
    s = scenario(hands=[(40,), (1, 2, 3, 4, 5)], cells={0: 39, 1: 41}, options={"storms": True,
                                                                             "short_hand_loss": False})
    legal = ENGINE.legal_moves(s)
    for name in ("rank", "feasibility", "greedy"):
        d = BOTS[name]().decide(ENGINE.observe(s, 0), legal, bot_rng(0, 0))
        assert str(d.move) == "discard hand" and d.reason.rule == "bots.tranquility.fallback"


def test_every_level_plays_a_winning_finish(scenario):
    s = scenario(hands=[(FINISH, 50), (40,)], cells={i: i + 1 for i in range(36)}, start_space=True)
    for name, make in BOTS.items():
        d = make().decide(ENGINE.observe(s, 0), ENGINE.legal_moves(s), bot_rng(0, 0))
        assert str(d.move) == "finish" and d.reason.rule == "bots.tranquility.finish", name


def test_the_committed_study_table_holds():
    """Cells of docs/tranquility-study.md re-played exactly (the study is seeded per game)."""
    from pathlib import Path

    from toolkit.tranquility.study import run_study

    table = (Path(__file__).resolve().parents[2] / "docs" / "tranquility-study.md").read_text(encoding="utf-8")
    rows = {(m[0], int(m[1])): (int(m[2]), int(m[3]))
            for m in re.findall(r"^\| (\w+) \| (\d) \| (\d+) \| (\d+) \|", table, flags=re.M)}
    assert len(rows) == 20 and all(games >= 1000 for games, _ in rows.values())
    for level, players in (("rank", 2), ("greedy", 4)):
        games, wins = rows[(level, players)]
        result = run_study((level,), players=(players,), games=games, seed=2024, chunk_size=games)
        assert result.row(level, players).wins == wins
    # strongest first, as BOTS lists them, at every player count
    for players in range(1, 6):
        rates = [rows[(level, players)][1] for level in LEVELS]
        assert rates == sorted(rates, reverse=True)
