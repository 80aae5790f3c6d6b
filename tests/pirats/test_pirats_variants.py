"""Variants: landlubber (one species, no powers) and the crew auction at the bar."""

from dataclasses import replace

import pytest

from pirats_helpers import events_of, place, with_hand
from toolkit.pirats import (ENGINE, SPECIES, Bid, OpenAuction, Pass, Pay, SetupError, current_player,
                            legal_moves, parse_move, why_illegal)


def test_landlubber_has_four_figures_of_one_species_and_no_powers():
    s = ENGINE.new_state(1, players=3, variant="landlubber", species=["cockroach", "snail", "raccoon"])
    assert s.crews == (("cockroach",) * 4, ("snail",) * 4, ("raccoon",) * 4) and not s.powers
    labels = {m.figure for m in legal_moves(with_hand(s, 0, cat=1)) if hasattr(m, "figure")}
    assert labels == {"cockroach#1", "cockroach#2", "cockroach#3", "cockroach#4"}
    # no cockroach discount, no snail peek, no raccoon toll
    s0 = with_hand(s, 0)
    assert why_illegal(s0, parse_move("move cockroach#1 cat 1")).rule == "pirats.move.match"
    s1 = with_hand(replace(s, turn=1), 1, cat=1)
    assert why_illegal(s1, parse_move("move snail#2 cat 1 peek")).code == "PIRATS_ONLY_SNAIL_PEEKS"
    s2 = with_hand(place(s, "cat", {1: (2, 0)}), 0, cat=1)
    after = ENGINE.apply(s2, "move cockroach#3 cat 1")
    assert after.hands[2] == s2.hands[2]
    # "cockroach" alone is ambiguous with four of them
    assert why_illegal(with_hand(s, 0, cat=1), parse_move("move cockroach cat 1")).code == "PIRATS_NO_SUCH_FIGURE"
    with pytest.raises(SetupError):
        ENGINE.new_state(1, players=2, variant="landlubber", species=["rat", "rat"])


def test_auction_bar_holds_four_figures_per_player():
    s = ENGINE.new_state(4, players=4, variant="auction")
    auc = s.auction
    assert s.phase == "auction" and len(auc.bar) == 16 and all(sp in SPECIES for sp in auc.bar)
    # each player turned up 4 different species cards, so no species appears more than 4 (of 5) times
    assert max(auc.bar.count(sp) for sp in SPECIES) <= 4
    # the first four figures (one player's draw) sit on the rearmost stools, all different
    assert len(set(auc.bar[-4:])) == 4
    assert [sum(h) for h in s.hands] == [8, 8, 8, 8] and s.row == ()
    assert ENGINE.card_count(s) == 54 and s.crews == ((), (), (), ())


def test_auction_minimum_price_by_position():
    s = ENGINE.new_state(4, players=3, variant="auction")
    assert [ENGINE.minimum_price(s.auction, i) for i in range(4)] == [0, 1, 2, 3]
    v = why_illegal(s, OpenAuction(3, 1))
    assert v.code == "PIRATS_BELOW_MINIMUM" and v.rule == "pirats.auction.minimum-price"
    assert why_illegal(s, OpenAuction(3, 9)).code == "PIRATS_BID_OVER_HAND"
    assert why_illegal(s, OpenAuction(13, 0)).code == "PIRATS_STOOL_EMPTY"
    # after the front figure is hired, every figure's price drops by one
    s = ENGINE.apply(s, "auction 1 bid 0")
    s = ENGINE.apply(ENGINE.apply(s, "pass"), "pass")
    assert s.auction.bar[0] is None and s.crews[0] == (ENGINE.new_state(4, players=3, variant="auction").auction.bar[0],)
    assert ENGINE.minimum_price(s.auction, 2) == 1 and current_player(s) == 1  # the left neighbour opens next


def test_skipping_the_front_figure_slips_a_card_under_it():
    s = ENGINE.new_state(4, players=3, variant="auction")
    s, events = events_of(s, "auction 3 bid 2")
    assert s.auction.under[0] and len(s.auction.under[0]) == 1
    assert any(e.rule == "pirats.auction.skip-card" for e in events)
    s = ENGINE.apply(ENGINE.apply(s, "pass"), "pass")
    s = ENGINE.apply(s, legal_moves(s)[0])        # seat 0 pays 2
    # whoever hires the front figure later takes the card under it
    hand_before = sum(s.hands[1])
    s = ENGINE.apply(s, "auction 1 bid 0")        # seat 1 opens on the front figure: no new card
    assert len(s.auction.under[0]) == 1
    s = ENGINE.apply(ENGINE.apply(s, "pass"), "pass")
    assert sum(s.hands[1]) == hand_before + 1 and s.auction.under[0] == ()
    assert ENGINE.card_count(s) == 54


def test_bidding_raise_pass_and_pay():
    s = ENGINE.new_state(4, players=3, variant="auction")
    s, events = events_of(s, "auction 2 bid 1")
    assert [e.rule for e in events] == ["pirats.auction.skip-card", "pirats.auction.open"]
    assert current_player(s) == 1
    assert why_illegal(s, Bid(1)).code == "PIRATS_BID_TOO_LOW"
    assert why_illegal(s, Bid(9)).code == "PIRATS_BID_OVER_HAND"
    s = ENGINE.apply(s, "bid 3")
    assert current_player(s) == 2
    s = ENGINE.apply(s, "pass")                   # seat 2 is out of this auction
    assert current_player(s) == 0
    s = ENGINE.apply(s, "bid 4")
    assert current_player(s) == 1                 # seat 2 passed: it is skipped
    s, events = events_of(s, "pass")
    assert s.phase == "pay" and current_player(s) == 0 and s.crews[0] != ()
    assert {e.rule for e in events} == {"pirats.auction.bidding"} and events[-1].code == "PIRATS_HIRED"
    assert why_illegal(s, Pay((1, 0, 0))).code == "PIRATS_PAY_COUNT"
    pay = legal_moves(s)[0]
    s = ENGINE.apply(s, pay)
    assert sum(s.hands[0]) == 8 - 4 and len(s.discard) == 4
    assert len(s.auction.under[0]) == 1  # the card slipped under the skipped front figure waits there
    assert s.phase == "auction" and current_player(s) == 1


def test_full_crew_players_sit_out_and_the_last_hirer_starts():
    s = ENGINE.new_state(2, players=2, variant="auction")
    # seat 0 and seat 1 alternate opening on the front figure at 0; the other passes
    while s.phase != "action":
        if s.phase == "auction":
            s = ENGINE.apply(s, "auction 1 bid 0" if s.auction.bar[0] is not None else
                             str(OpenAuction(next(i for i, sp in enumerate(s.auction.bar) if sp) + 1, 0)))
        elif s.phase == "bid":
            s = ENGINE.apply(s, Pass())
        else:
            s = ENGINE.apply(s, legal_moves(s)[0])
    assert all(len(c) == 4 for c in s.crews) and len(s.row) == 4


def test_full_auction_last_hirer_starts():
    s = ENGINE.new_state(6, players=3, variant="auction")
    hires = 0
    last = None
    while s.phase != "action":
        if s.phase == "auction":
            front = next(i for i, sp in enumerate(s.auction.bar) if sp) + 1
            s = ENGINE.apply(s, OpenAuction(front, 0))
        elif s.phase == "bid":
            s, events = events_of(s, Pass())
            if any(e.code == "PIRATS_HIRED" for e in events):
                hires += 1
                last = s.turn
            rest = [e for e in events if e.rule == "pirats.auction.last-bidder"]
            if rest:
                last = rest[0].seat
                assert events[-1].rule == "pirats.auction.starter" and events[-1].seat == last
        else:
            s = ENGINE.apply(s, legal_moves(s)[0])
    assert all(len(c) == 4 for c in s.crews)
    # two players filled up by bidding; the last one took the rest of the bar for free
    assert s.start_player == s.turn == last
    assert [sum(h) for h in s.hands] == [8, 8, 8] and len(s.row) == 4  # nobody paid anything
    assert ENGINE.card_count(s) == 54
