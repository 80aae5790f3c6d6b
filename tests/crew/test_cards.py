"""Cards, tricks, following, the sonar and the deal (toolkit.crew.cards)."""

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core import IllegalMoveError, InvalidMoveError
from toolkit.crew import (DECK, Card, Trick, deal, deal_tonoja, legal_plays, sonar_options, trick_winner,
                          why_illegal_play, why_illegal_sonar)


def test_deck_has_forty_distinct_cards():
    """Shows "crew.cards.deck"."""
    assert len(DECK) == 40 and len(set(DECK)) == 40
    assert sum(1 for c in DECK if c.is_submarine) == 4
    assert {str(c) for c in DECK if c.suit == "P"} == {f"P{v}" for v in range(1, 10)}


@pytest.mark.parametrize("text", ["P9", "p9", "pink 9", "Pink9", " pink  9 "])
def test_card_parse_forms(text):
    assert Card.parse(text) is Card.parse("P9")
    assert str(Card.parse(text)) == "P9"


def test_card_parse_submarine_forms():
    assert Card.parse("sub 4") is Card.parse("S4") is Card.parse("submarine 4")


@pytest.mark.parametrize("bad", ["P0", "P10", "S5", "X3", "", "pink", "9", None, 9, "P 9 9"])
def test_bad_card_text_is_invalid(bad):
    with pytest.raises(InvalidMoveError):
        Card.parse(bad)


def test_card_text_in_both_languages():
    assert Card.parse("P9").text("en") == "pink 9"
    assert Card.parse("P9").text("ja") == "ピンク9"


def test_pink_nine_example_captain_wins():
    """Shows "crew.trick.winner"."""
    # rule text: captain P9, then P7, then Y2 from a player without pink, then P8 — the captain wins
    assert trick_winner(["P9", "P7", "Y2", "P8"]) == 0
    assert Trick(0, ["P9", "P7", "Y2", "P8"]).winner == 0
    assert Trick(2, ["P9", "P7", "Y2", "P8"]).winner == 2


def test_off_colour_nine_cannot_win():
    assert trick_winner(["G3", "Y9", "G4"]) == 2
    assert Trick(1, ["G3", "Y9", "G4"]).winner == 0


def test_highest_submarine_wins():
    assert trick_winner(["P9", "S1", "P8", "S3"]) == 3
    assert trick_winner(["S2", "S1", "B9"]) == 0
    assert trick_winner(["B1", "B9", "S1"]) == 2


def test_trick_winner_rejects_duplicates_and_empty():
    with pytest.raises(InvalidMoveError):
        trick_winner([])
    with pytest.raises(InvalidMoveError):
        trick_winner(["P9", "P9"])


def test_must_follow_led_colour():
    hand = ["P8", "Y2", "S1"]
    assert legal_plays(hand, led="P9") == [Card.parse("P8")]
    v = why_illegal_play(hand, "Y2", led="P9")
    assert v.rule == "crew.trick.follow" and v.code == "CREW_MUST_FOLLOW"
    assert "pink" in v.message and "pink 8" in v.message
    assert "ピンク" in v.text("ja")
    assert why_illegal_play(hand, "P8", led="P9") is None


def test_void_player_may_play_anything():
    """Shows "crew.trick.free-play"."""
    hand = ["Y2", "S1", "B5"]
    assert legal_plays(hand, led="P9") == sorted(Card.parse(c) for c in hand)
    assert all(why_illegal_play(hand, c, led="P9") is None for c in hand)


def test_no_obligation_to_play_higher():
    hand = ["P1", "P8"]
    assert legal_plays(hand, led="P5") == [Card.parse("P1"), Card.parse("P8")]
    assert why_illegal_play(hand, "P1", led="P5") is None


def test_submarine_lead_must_be_followed_by_submarine():
    hand = ["P8", "S1"]
    assert legal_plays(hand, led="S4") == [Card.parse("S1")]
    v = why_illegal_play(hand, "P8", led="S4")
    assert v.rule == "crew.trick.submarine-lead"
    assert legal_plays(["P8", "G2"], led="S4") == [Card.parse("G2"), Card.parse("P8")]


def test_card_not_in_hand_is_refused():
    v = why_illegal_play(["P8"], "P7")
    assert v.rule == "crew.trick.own-card" and "pink 7" in v.message


def test_led_may_be_a_colour_name():
    assert legal_plays(["P8", "Y2"], led="pink") == [Card.parse("P8")]


def test_sonar_example_1_2_5_7():
    hand = ["P1", "P2", "P5", "P7", "S2"]
    assert sonar_options(hand) == {Card.parse("P1"): "bottom", Card.parse("P7"): "top"}
    assert why_illegal_sonar(hand, "P7", "top") is None
    assert why_illegal_sonar(hand, "P1", "bottom") is None
    for middle in ("P2", "P5"):
        v = why_illegal_sonar(hand, middle, "top")
        assert v.rule == "crew.sonar.position" and v.code == "CREW_SONAR_NOT_EXTREME"
    v = why_illegal_sonar(hand, "P7", "bottom")
    assert v.code == "CREW_SONAR_WRONG_POSITION" and "highest" in v.message


def test_single_card_is_middle_only():
    hand = ["G4", "P1", "P2"]
    assert sonar_options(hand)[Card.parse("G4")] == "middle"
    assert why_illegal_sonar(hand, "G4", "middle") is None
    assert why_illegal_sonar(hand, "G4", "top").rule == "crew.sonar.position"
    assert why_illegal_sonar(hand, "G4", "bottom").rule == "crew.sonar.position"


def test_submarine_cannot_be_communicated():
    v = why_illegal_sonar(["S3", "P1"], "S3", "middle")
    assert v.rule == "crew.sonar.no-submarine"
    assert Card.parse("S3") not in sonar_options(["S3", "P1"])


def test_sonar_bad_position_is_invalid_input():
    with pytest.raises(InvalidMoveError):
        why_illegal_sonar(["P1"], "P1", "sideways")


def test_hand_with_duplicate_is_invalid():
    with pytest.raises(InvalidMoveError):
        legal_plays(["P1", "P1"])


def test_deal_sizes():
    """Shows "crew.deal.sizes"."""
    assert [len(h) for h in deal(3, 1)] == [14, 13, 13]
    assert [len(h) for h in deal(4, 1)] == [10] * 4
    assert [len(h) for h in deal(5, 1)] == [8] * 5
    for n in (3, 4, 5):
        hands = deal(n, 7)
        assert sorted(c for h in hands for c in h) == list(DECK)
    assert deal(4, 7) == deal(4, 7) and deal(4, 7) != deal(4, 8)


def test_deal_refuses_other_player_counts():
    for bad in (2, 6, 1):
        with pytest.raises(IllegalMoveError) as err:
            deal(bad, 1)
        assert err.value.rule == "crew.deal.players"
    with pytest.raises(InvalidMoveError):
        deal("4", 1)


def test_tonoja_deal_shape():
    hands, columns = deal_tonoja(3)
    assert [len(h) for h in hands] == [13, 13] and len(columns) == 7
    everything = [c for h in hands for c in h] + [c for col in columns for c in col]
    assert sorted(everything) == list(DECK)
    assert Card.parse("S4") in hands[0] + hands[1]


hands_st = st.lists(st.sampled_from(DECK), min_size=1, max_size=14, unique=True)


@settings(max_examples=60, deadline=None)
@given(hands_st, st.sampled_from(DECK))
def test_legal_plays_agree_with_why_illegal(hand, led):
    legal = set(legal_plays(hand, led))
    for c in hand:
        assert (why_illegal_play(hand, c, led) is None) == (c in legal)


@settings(max_examples=60, deadline=None)
@given(hands_st)
def test_sonar_options_agree_with_why_illegal(hand):
    options = sonar_options(hand)
    for c in hand:
        for pos in ("top", "bottom", "middle"):
            assert (why_illegal_sonar(hand, c, pos) is None) == (options.get(c) == pos)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=2, max_size=5, unique=True))
def test_winner_is_top_submarine_or_top_of_led(plays):
    w = plays[trick_winner(plays)]
    subs = [c for c in plays if c.is_submarine]
    if subs:
        assert w == max(subs, key=lambda c: c.value)
    else:
        assert w == max((c for c in plays if c.suit == plays[0].suit), key=lambda c: c.value)
