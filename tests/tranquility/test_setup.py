"""Setup: the deal, start cards, start player, solo piles and the island-removal variants."""

import pytest

from toolkit.core.errors import RuleError
from toolkit.tranquility import ENGINE, FINISH, START, InvalidOptionError, REMOVAL_VARIANTS
from toolkit.tranquility.cards import ISLANDS
from toolkit.tranquility.engine import deal
from toolkit.tranquility.model import Options


@pytest.mark.parametrize("players, sizes", [(2, [43, 42]), (3, [29, 28, 28]), (4, [22, 21, 21, 21]),
                                            (5, [17, 17, 17, 17, 17])])
def test_deal_is_as_even_as_possible(players, sizes):
    s = ENGINE.new_state(5, players=players)
    assert all(len(h) == 5 for h in s.hands)
    # cards per player before the start cards: hand + pile - own start card
    assert [len(h) + len(p) - 1 for h, p in zip(s.hands, s.piles)] == sizes
    dealt = [c for part in s.hands + s.piles for c in part]
    assert sorted(c for c in dealt if c <= 80) == list(ISLANDS)
    assert dealt.count(FINISH) == 5 and dealt.count(START) == players
    deal_event = ENGINE.setup_events(s)[0]
    assert deal_event.rule == "tranquility.setup.deal" and list(deal_event.param("sizes")) == sizes


def test_start_card_is_shuffled_into_each_pile_after_the_draw():
    for seed in range(30):
        s = ENGINE.new_state(seed, players=3)
        for hand, pile in zip(s.hands, s.piles):
            assert START not in hand  # drawn before the start card was shuffled in
            assert pile.count(START) == 1
    assert "tranquility.setup.start-card" in [e.rule for e in ENGINE.setup_events(s)]
    # ...and it can be anywhere in the pile
    positions = {ENGINE.new_state(seed, players=2).piles[0].index(START) for seed in range(40)}
    assert len(positions) > 10


def test_start_player_has_fewest_cards():
    # 3 players: 29/28/28, so seat 1 or 2 starts (tie broken by the seed); 2 players: 43/42, seat 1.
    starters = {ENGINE.new_state(seed, players=3).turn_seat for seed in range(40)}
    assert starters == {1, 2}
    assert {ENGINE.new_state(seed, players=2).turn_seat for seed in range(10)} == {1}
    event = [e for e in ENGINE.setup_events(ENGINE.new_state(0, players=2)) if e.param("start") is not None][0]
    assert event.rule == "tranquility.setup.start-player" and event.param("start") == 1
    assert "fewest" in event.message and "少ない" in event.text("ja")
    assert len({ENGINE.new_state(seed, players=4, start_player="random").turn_seat for seed in range(60)}) == 4


def test_same_seed_same_game_and_different_seed_different_game():
    assert ENGINE.new_state(11, players=4) == ENGINE.new_state(11, players=4)
    assert ENGINE.new_state(11, players=4).piles != ENGINE.new_state(12, players=4).piles


def test_solo_start_card_is_in_the_top_half():
    for seed in range(40):
        _, piles, _, _ = deal(seed, Options(players=1))
        pile = piles[0]
        assert len(pile) == 86
        assert pile.index(START) <= 85 // 2  # top half: 42 cards + the start card
    s = ENGINE.new_state(3, players=1)
    assert len(s.hands[0]) == 5 and s.turn_seat == 0
    assert [e.rule for e in ENGINE.setup_events(s)] == ["tranquility.setup.solo"]


@pytest.mark.parametrize("variant", sorted(REMOVAL_VARIANTS))
def test_removal_variants_set_islands_aside(variant):
    s = ENGINE.new_state(8, players=2, removal=variant)
    k = REMOVAL_VARIANTS[variant]
    assert len(s.removed) == k
    assert all(1 <= c <= 80 for c in s.removed)  # finish cards were set aside first
    dealt = [c for part in s.hands + s.piles for c in part]
    assert dealt.count(FINISH) == 5
    assert len(dealt) == 85 - k + 2
    assert {"galateia": 4, "triton": 6, "leucothea": 8, "amphitrite": 10, "poseidon": 12, "none": 0}[variant] == k
    removal = [e for e in ENGINE.setup_events(s) if e.rule == "tranquility.variant.removal"]
    assert [e.param("count") for e in removal] == ([k] if k else [])


@pytest.mark.parametrize("options", [dict(players=0), dict(players=6), dict(players="2"), dict(removal="kraken"),
                                     dict(monsters=2), dict(storm_colours=(3, 3, 3)), dict(start_player="oldest"),
                                     dict(colour="blue"), dict(rocks="yes"), dict(storms=True, monsters=5, compasses=14)])
def test_bad_options_are_refused_with_a_rule_error(options):
    with pytest.raises(InvalidOptionError):
        ENGINE.new_state(1, **options)


def test_bad_seed_is_refused():
    with pytest.raises(RuleError):
        ENGINE.new_state(-1)
    with pytest.raises(RuleError):
        ENGINE.new_state("7")
