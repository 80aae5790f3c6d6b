"""The Deep Blue engine, one test per rule of rules/deep-blue.ja.txt (rule ids in the assertions)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from deepblue_helpers import (COMPS, E, card_named, dive_position, near_site, place, put_tile, set_bag, set_hand,
                              set_player)
from toolkit.core import get_rule
from toolkit.core.errors import IllegalMoveError, InvalidMoveError, InvalidOptionError, RuleError
from toolkit.deepblue import (SETUP_BAG, SETUP_SUPPLY, Anchor, ChooseSpot, Decline, DrawGem, Hire, Join, Leave,
                              MoveBoat, PlayCard, Protect, Rest, SetSail, StartDive, Stop, gem_total, parse_move)
from toolkit.deepblue.gems import COLOURS
from toolkit.deepblue.model import NO_SPOT

RED = (1, 2, 3, 4)          # seat 0's starting cards: cash 2 / propellers 2 / cash 1 + blue / propeller 1 + black
DECKHAND, NAVIGATOR, OXYGEN, HARPOON = RED


def refused(state, move):
    """The violation for ``move``; also checks apply() raises it and that the state did not change."""
    before = E.state_to_json(state)
    v = E.why_illegal(state, move)
    assert v is not None
    with pytest.raises(IllegalMoveError) as err:
        E.apply(state, move)
    assert err.value.violation == v
    assert E.state_to_json(state) == before
    assert v.text("ja") and v.message
    return v


def shows(test_name, *rule_ids):
    """These rules are documented (docs/rules/deepblue.md) as shown by ``test_name``."""
    for rid in rule_ids:
        assert f"tests/deepblue/test_deepblue_engine.py::{test_name}" in get_rule(rid).shown_by, rid


def codes(events):
    return [e.code for e in events]


# ---- setup ------------------------------------------------------------------------------------
def test_setup_tiles_and_empty_tile_removed():
    s = E.new_state(3, players=4)
    empty = [w.id for w in COMPS.wrecks if w.empty]
    assert s.removed == tuple(empty)                                   # deepblue.setup.tiles
    assert len(s.tiles) == 14
    for t in s.tiles:
        deck = COMPS.wreck(t.wreck).deck
        assert t.face_up == (deck == "start")
        assert t.site in (COMPS.board.start_sites if deck == "start" else COMPS.board.advanced_sites)
    shows("test_setup_tiles_and_empty_tile_removed", "deepblue.setup.tiles")
    assert E.new_state(3, players=4) == s and E.new_state(4, players=4) != s     # seeded


def test_setup_supply_bag_and_starters():
    s = E.new_state(0, players=5)
    added = [COMPS.card(c).adds_gem for c in s.market if COMPS.card(c).adds_gem]
    for colour in COLOURS:
        expected_bag = SETUP_BAG.get(colour, 0) + added.count(colour)      # deepblue.bag.contents
        assert s.bag[COLOURS.index(colour)] == expected_bag
        assert s.supply[COLOURS.index(colour)] == SETUP_SUPPLY.get(colour, 0) - added.count(colour)  # deepblue.setup.supply
    assert sum(SETUP_BAG.values()) == 19
    for seat, p in enumerate(s.players):                                # deepblue.setup.starters
        assert len(p.hand) == 4 and all(COMPS.card(c).starter == p.colour for c in p.hand)
        assert all(b.site == COMPS.board.harbour for b in p.boats) and p.chest == 0
    shows("test_setup_supply_bag_and_starters", "deepblue.setup.supply", "deepblue.bag.contents",
          "deepblue.setup.starters")


def test_starter_tokens_by_seat():
    s = E.new_state(0, players=5)
    assert tuple(p.tokens for p in s.players) == (0, 1, 1, 2, 2)        # deepblue.setup.tokens
    v = refused(s, Hire(0, 1, (), 1))
    assert v.rule == "deepblue.setup.tokens" and v.code == "DEEPBLUE_NOT_ENOUGH_TOKENS"
    s = replace(s, turn=3)
    s2 = E.apply(s, Hire(3, 2, (), 2))                                   # two tokens pay $2
    assert s2.players[3].tokens == 0 and len(s2.players[3].hand) == 5


def test_market_reveal_adds_gems():
    s = E.new_state(0, players=3)
    assert len(s.market) == 4 and len(s.deck) == 26
    shows("test_market_reveal_adds_gems", "deepblue.setup.market")
    gem_card = next(c.id for c in COMPS.cards if c.adds_gem == "purple" and c.starter is None)
    plain = next(c.id for c in COMPS.cards if c.adds_gem is None and c.starter is None and c.id not in s.market)
    deck = (gem_card,) + tuple(c for c in s.deck if c != gem_card)
    market = tuple(c if c != gem_card else plain for c in s.market)
    deck = tuple(c if c != plain else gem_card for c in deck) if plain in deck else deck
    s = replace(s, market=market, deck=(gem_card,) + tuple(c for c in deck if c != gem_card))
    purple = COLOURS.index("purple")
    s2, events = E.transition(s, Hire(0, 1, (DECKHAND,), 0))
    added = [e for e in events if e.code == "DEEPBLUE_GEM_ADDED"]
    assert added and added[0].rule == "deepblue.market.gem-add" and added[0].param("card") == gem_card
    assert s2.bag[purple] == s.bag[purple] + 1 and s2.supply[purple] == s.supply[purple] - 1
    # an empty supply adds nothing, and says so
    s3 = replace(s, supply=s.supply[:purple] + (0,) + s.supply[purple + 1:])
    s4, events = E.transition(s3, Hire(0, 1, (DECKHAND,), 0))
    assert "DEEPBLUE_SUPPLY_EMPTY" in codes(events) and s4.bag[purple] == s3.bag[purple]


# ---- turns and actions ------------------------------------------------------------------------
def test_one_action_per_turn():
    s = E.new_state(0, players=3)
    assert E.current_player(s) == 0
    s2, events = E.transition(s, Rest(0))
    assert E.current_player(s2) == 1 and "DEEPBLUE_NEXT_TURN" in codes(events)
    v = refused(s2, Rest(0))
    assert v.rule == "core.turn" and v.code == "NOT_YOUR_TURN"
    v = refused(s2, DrawGem(1))
    assert v.rule == "deepblue.turn.action" and v.code == "DEEPBLUE_WRONG_PHASE"
    assert refused(s2, Rest(7)).code == "DEEPBLUE_NO_SUCH_SEAT"
    kinds = {type(m).__name__ for m in E.legal_moves(s)}
    assert kinds == {"Hire", "SetSail", "Rest"}          # no boat is on a wreck yet


def test_hire_pays_price_no_change():
    s = E.new_state(0, players=3)
    hired = s.market[0]
    s2, events = E.transition(s, Hire(0, 1, (DECKHAND,), 0))            # 2 cash for $1: the excess is lost
    assert hired in s2.players[0].hand and DECKHAND in s2.players[0].used
    assert events[0].code == "DEEPBLUE_HIRED" and events[0].rule == "deepblue.hire.pay"
    assert events[0].param("paid") == 2 and events[0].param("price") == 1
    assert E.apply(s, Hire(0, 3, (DECKHAND, OXYGEN), 0)).players[0].used == (DECKHAND, OXYGEN)
    assert refused(s, Hire(0, 4, (DECKHAND, OXYGEN), 0)).code == "DEEPBLUE_NOT_ENOUGH_CASH"
    assert refused(s, Hire(0, 1, (NAVIGATOR,), 0)).code == "DEEPBLUE_NO_ICON"
    assert refused(s, Hire(0, 1, (9,), 0)).code == "DEEPBLUE_NOT_IN_HAND"
    assert Hire(0, 3, (DECKHAND, OXYGEN), 0) in E.legal_moves(s)


def test_hire_overpay_accepted_but_only_minimal_payments_listed():
    # 「…任意の枚数消化することで…雇用します」「金額が超過した場合は、持越しはできず消滅します」
    s = E.new_state(0, players=3)
    over = Hire(0, 2, (DECKHAND, OXYGEN), 0)                            # DECKHAND alone already pays $2
    assert E.why_illegal(s, over) is None
    assert E.parse_move(str(over)) == over
    s2, events = E.transition(s, over)
    assert {DECKHAND, OXYGEN} <= set(s2.players[0].used)                 # both spent, the excess lost
    hired = next(e for e in events if e.code == "DEEPBLUE_HIRED")
    assert hired.param("paid") == 3 and hired.param("price") == 2
    assert over not in E.legal_moves(s) and not E.listed(s, over)
    assert E.listed(s, Hire(0, 2, (DECKHAND,), 0))
    # the class: over random positions every covering payment is accepted, every short one refused,
    # and exactly the minimal ones are listed
    from itertools import combinations
    rng = random.Random(5)
    state = E.new_state(11, players=4)
    checked = 0
    for _ in range(300):
        if E.is_over(state):
            break
        if state.phase == "action":
            seat = state.turn
            p = state.players[seat]
            cash = [c for c in p.hand if COMPS.card(c).cash > 0]
            legal = set(E.legal_moves(state))
            for slot in range(1, len(state.market) + 1):
                for n in range(len(cash) + 1):
                    for cards in combinations(cash, n):
                        for tokens in range(p.tokens + 1):
                            m = Hire(seat, slot, tuple(sorted(cards)), tokens)
                            values = [COMPS.card(c).cash for c in cards] + [1] * tokens
                            covers = sum(values) >= slot
                            minimal = covers and (not values or sum(values) - min(values) < slot)
                            v = E.why_illegal(state, m)
                            assert (v is None) == covers, (m, v)
                            if v is not None:
                                assert v.code == "DEEPBLUE_NOT_ENOUGH_CASH" and v.rule == "deepblue.hire.pay"
                            assert (m in legal) == minimal, m
                            checked += 1
        state = E.apply(state, rng.choice(E.legal_moves(state)))
    assert checked > 500


def test_hire_slides_market():
    s = E.new_state(0, players=3)
    s2 = E.apply(s, Hire(0, 2, (DECKHAND,), 0))
    assert s2.market == (s.market[0], s.market[2], s.market[3], s.deck[0])   # deepblue.market.slide
    assert s2.deck == s.deck[1:]
    v = refused(replace(s, market=s.market[:2]), Hire(0, 3, (DECKHAND, OXYGEN), 0))
    assert v.rule == "deepblue.hire.market" and v.code == "DEEPBLUE_NO_MARKET_CARD"
    shows("test_hire_slides_market", "deepblue.market.slide", "deepblue.hire.market")


def test_sail_spends_propellers():
    s = E.new_state(0, players=3)
    start = COMPS.board.harbour
    s = put_tile(s, COMPS.board.neighbours(start)[0], next(w.id for w in COMPS.wrecks if w.deck == "start" and not w.empty))
    s2, events = E.transition(s, SetSail(0, (NAVIGATOR,), 0))
    assert s2.phase == "sail" and s2.sail.propellers == 2 and NAVIGATOR in s2.players[0].used
    assert events[0].rule == "deepblue.sail.propellers"
    assert refused(s, SetSail(0, (DECKHAND,), 0)).code == "DEEPBLUE_NO_ICON"
    assert refused(s, SetSail(0, (), 0)).code == "DEEPBLUE_NO_PROPELLERS"
    dist = COMPS.board.distances(start)
    three = next(site for site, d in dist.items() if d == 3)
    v = refused(s2, MoveBoat(0, 0, three))
    assert v.code == "DEEPBLUE_TOO_FAR" and v.rule == "deepblue.sail.move"
    # boat 0 sails one step onto open water (no tile there), boat 1 uses the other propeller
    open_water = next(site for site, d in dist.items() if d == 1 and s2.tile_at(site) is None) \
        if any(d == 1 and s2.tile_at(site) is None for site, d in dist.items()) else None
    target = open_water if open_water is not None else COMPS.board.neighbours(start)[0]
    s3 = E.apply(s2, MoveBoat(0, 0, target))
    if s3.sail.landing >= 0:
        s3 = E.apply(s3, ChooseSpot(0, E.free_spots(s3, target)[0]))
    assert s3.players[0].boats[0].site == target and s3.sail.propellers == 1
    assert refused(s3, MoveBoat(0, 0, start)).code == "DEEPBLUE_BOAT_ALREADY_MOVED"
    s4 = E.apply(s3, MoveBoat(0, 1, target))                           # split between both boats
    if s4.phase == "sail":
        s4 = E.apply(s4, ChooseSpot(0, E.free_spots(s4, target)[0]))
    assert s4.phase == "action" and E.current_player(s4) == 1
    s5 = E.apply(s2, Anchor(0))                                         # unused propellers are lost
    assert s5.phase == "action" and E.current_player(s5) == 1


def test_landing_reveals_and_takes_spot():
    s = E.new_state(0, players=3)
    site = COMPS.board.advanced_sites[0]
    tile = s.tile_at(site)
    assert not tile.face_up
    s = place(s, 0, 0, near_site(site))
    s = E.apply(s, SetSail(0, (HARPOON,), 0))
    s2, events = E.transition(s, MoveBoat(0, 0, site))
    reveal = next(e for e in events if e.code == "DEEPBLUE_REVEALED")
    assert reveal.rule == "deepblue.sail.reveal" and s2.tile_at(site).face_up
    assert s2.sail.landing == 0
    v = refused(s2, Anchor(0))
    assert v.code == "DEEPBLUE_CHOOSE_SPOT_FIRST" and v.rule == "deepblue.spot.choose"
    assert set(E.legal_moves(s2)) == {ChooseSpot(0, i) for i in range(3)}
    s3 = E.apply(s2, ChooseSpot(0, 1))
    assert s3.players[0].boats[0] == replace(s3.players[0].boats[0], site=site, spot=1)
    # another boat landing there cannot take spot 1
    s4 = place(replace(s3, turn=1), 1, 0, near_site(site))
    s4 = E.apply(s4, SetSail(1, (6,), 0))
    s5 = E.apply(s4, MoveBoat(1, 0, site))
    v = refused(s5, ChooseSpot(1, 1))
    assert v.code == "DEEPBLUE_SPOT_TAKEN" and v.rule == "deepblue.spot.choose"
    assert ChooseSpot(1, 1) not in E.legal_moves(s5)


def test_rest_draws_three():
    s = E.new_state(0, players=3)
    s = set_player(s, 0, hand=(), used=RED)
    s2, events = E.transition(s, Rest(0))
    assert len(s2.players[0].hand) == 3 and len(s2.players[0].used) == 1       # deepblue.rest
    assert set(s2.players[0].hand + s2.players[0].used) == set(RED)
    assert events[0].code == "DEEPBLUE_RESTED" and events[0].rule == "deepblue.rest"
    assert E.apply(s, Rest(0)) == s2                                        # seeded
    few = E.apply(set_player(s, 0, hand=(), used=(1, 2)), Rest(0))          # two cards or fewer: still allowed
    assert few.players[0].hand == (1, 2) and few.players[0].used == ()


# ---- the dive ----------------------------------------------------------------------------------
def test_dive_start_and_join():
    s = E.new_state(0, players=3)
    site = COMPS.board.advanced_sites[-1]
    wreck = next(t.wreck for t in s.tiles if t.face_up)
    s = put_tile(s, site, wreck)
    v = refused(s, StartDive(0, 0))                                   # boats are still in the harbour
    assert v.rule == "deepblue.dive.start" and v.code == "DEEPBLUE_NO_WRECK_HERE"
    s = place(s, 0, 0, site, 2)
    s = place(s, 1, 1, near_site(site))
    s = place(s, 2, 0, site, 0)                                       # on the same tile, on a spot
    s2, events = E.transition(s, StartDive(0, 0))
    assert events[0].rule == "deepblue.dive.start" and s2.phase == "join"
    assert s2.dive.to_join == (1, 2) and E.current_player(s2) == 1    # clockwise from the leader
    assert refused(s2, Join(2)).code == "NOT_YOUR_TURN"
    s3, events = E.transition(s2, Join(1))
    assert events[0].rule == "deepblue.dive.join"
    assert s3.players[1].boats[1].site == site and s3.dive.diver(1).spot is None
    s4 = E.apply(s3, Join(2))
    spots = COMPS.wreck(wreck).spots
    # only the leader dives from a spot; a joiner from the same tile moves to the centre without one
    assert s4.dive.diver(0).spot == spots[2] and s4.dive.diver(2).spot is None
    assert s4.players[2].boats[0] == replace(s4.players[2].boats[0], site=site, spot=NO_SPOT)
    assert s4.phase == "dive" and E.current_player(s4) == 0
    s5 = E.apply(s3, Decline(2))
    assert s5.dive.diver(2) is None and s5.phase == "dive"


def test_first_hazard_is_warning():
    s = dive_position(hands={0: (DECKHAND,)}, bag={"black": 2})
    s2, events = E.transition(s, DrawGem(0))
    assert codes(events) == ["DEEPBLUE_DREW", "DEEPBLUE_WARNING"]
    assert events[0].rule == "deepblue.dive.draw" and events[1].rule == "deepblue.dive.warning"
    assert s2.dive.drawn == ("black",) and s2.phase == "dive"
    s3, events = E.transition(s2, DrawGem(0))                        # the second black busts the leader
    assert "DEEPBLUE_BUST" in codes(events) and s3.phase == "action"
    empty = set_bag(s, )
    assert refused(empty, DrawGem(0)).code == "DEEPBLUE_BAG_EMPTY"
    assert E.legal_moves(empty) == [Stop(0)]


def test_second_hazard_checks_every_diver():
    harpoon_y, harpoon_g = 8, 12                                      # two black-protection cards
    s = dive_position(joiners=(1, 2), hands={0: (DECKHAND,), 1: (harpoon_y,), 2: (harpoon_g, 16)},
                      bag={"black": 2})
    s = E.apply(s, DrawGem(0))
    s2, events = E.transition(s, DrawGem(0))
    bust = next(e for e in events if e.code == "DEEPBLUE_BUST")
    assert bust.seat == 0 and bust.rule == "deepblue.dive.bust"
    prot = next(e for e in events if e.code == "DEEPBLUE_PROTECTED_CARD")
    assert prot.seat == 1 and prot.rule == "deepblue.dive.protection" and harpoon_y in s2.players[1].used
    # seat 2 has two ways out and chooses; the dive waits for that check ("deepblue.dive.check")
    assert s2.phase == "check" and E.current_player(s2) == 2
    assert set(E.legal_moves(s2)) == {Protect(2, harpoon_g), Protect(2, 16)}
    v = refused(s2, Protect(2, None))
    assert v.code == "DEEPBLUE_NOT_A_PROTECTION" and v.rule == "deepblue.dive.protection"
    s3, events = E.transition(s2, Protect(2, 16))
    assert 16 in s3.players[2].used and harpoon_g in s3.players[2].hand
    # the leader busted: once every check is made the dive ends and the others score
    assert s3.phase == "action" and "DEEPBLUE_SCORED" in codes(events)
    shows("test_second_hazard_checks_every_diver", "deepblue.dive.check")


def test_protection_spot_is_single_use():
    s = E.new_state(0, players=3)
    wreck = next(w.id for w in COMPS.wrecks if "any" in w.spots and w.deck == "start")
    spot = COMPS.wreck(wreck).spots.index("any")
    s = dive_position(wreck=wreck, leader_spot=spot, hands={0: ()}, bag={"blue": 3})
    s = E.apply(s, DrawGem(0))
    s2, events = E.transition(s, DrawGem(0))
    assert "DEEPBLUE_PROTECTED_SPOT" in codes(events) and s2.dive.diver(0).spot_used
    assert s2.players[0].boats[0].spot == NO_SPOT                     # the "any" spot sends the boat to the centre
    s3, events = E.transition(s2, DrawGem(0))
    assert "DEEPBLUE_BUST" in codes(events)


def test_leave_keeps_gems():
    s = dive_position(joiners=(1,), bag={"silver": 3})
    v = refused(s, Leave(1))
    assert v.code == "DEEPBLUE_NOTHING_DRAWN" and v.rule == "deepblue.dive.leave"
    s = E.apply(s, DrawGem(0))
    assert Leave(1) in E.legal_moves(s)
    s2, events = E.transition(s, Leave(1))
    assert events[0].code == "DEEPBLUE_LEFT" and events[0].param("vp") == 1 and events[0].rule == "deepblue.dive.leave"
    assert refused(s2, Leave(1)).code == "DEEPBLUE_NOT_DIVING"
    assert refused(s2, Leave(0)).code == "DEEPBLUE_LEADER_STOPS"
    s3 = E.apply(E.apply(s2, DrawGem(0)), Stop(0))
    bonus = COMPS.wreck(s.dive.wreck).leader_bonus
    assert s3.players[1].chest == 1 and s3.players[0].chest == 2 + bonus


def test_leader_stop_ends_dive():
    s = dive_position(joiners=(1,), bag={"silver": 1, "gold": 1, "red": 1})
    for _ in range(3):
        s = E.apply(s, DrawGem(0))
    s2, events = E.transition(s, Stop(0))
    bonus = COMPS.wreck(s.dive.wreck).leader_bonus
    assert events[0].code == "DEEPBLUE_LEADER_STOPPED" and events[0].rule == "deepblue.dive.stop"
    scored = {e.seat: e for e in events if e.code == "DEEPBLUE_SCORED"}
    assert scored[0].rule == "deepblue.dive.score" and scored[0].param("gems") == 7      # deepblue.gem.values
    assert s2.players[0].chest == 7 + bonus and s2.players[1].chest == 7
    lb = next(e for e in events if e.code == "DEEPBLUE_LEADER_BONUS")
    assert lb.rule == "deepblue.dive.leader-bonus" and lb.param("vp") == bonus
    shows("test_leader_stop_ends_dive", "deepblue.gem.values")
    # a busted leader keeps the bonus by default, loses it with leader_bonus_on_bust=False
    for keep in (True, False):
        b = dive_position(bag={"black": 2}, hands={0: ()}, leader_bonus_on_bust=keep)
        b = E.apply(E.apply(b, DrawGem(0)), DrawGem(0))
        assert b.players[0].chest == (bonus if keep else 0)


def test_card_vp_kept_after_bust():
    historian = card_named("Historian")
    s = dive_position(hands={0: (historian,)}, bag={"purple": 1})
    s = replace(s, dive=replace(s.dive, drawn=("black",)))
    v = refused(replace(s, dive=replace(s.dive, draws=1)), PlayCard(0, historian))
    assert v.code == "DEEPBLUE_CARD_NEEDS_GEMS" and v.rule == "deepblue.dive.card-vp"
    s = E.apply(s, DrawGem(0))
    s2, events = E.transition(s, PlayCard(0, historian))
    assert events[0].code == "DEEPBLUE_CARD_SCORED" and events[0].rule == "deepblue.dive.card-vp"
    assert s2.dive.diver(0).card_vp == 3 and historian in s2.players[0].used
    assert refused(s2, PlayCard(0, historian)).code == "DEEPBLUE_NOT_IN_HAND"
    s3 = E.apply(set_bag(s2, black=1), DrawGem(0))                     # bust: the card's VP stays
    bonus = COMPS.wreck(s.dive.wreck).leader_bonus
    assert s3.players[0].chest == 3 + bonus
    assert refused(set_hand(s2, 0, (DECKHAND,)), PlayCard(0, DECKHAND)).code == "DEEPBLUE_CARD_DOES_NOT_SCORE"


def test_card_vp_lost_on_bust_option():
    # option card_vp_on_bust=False: 「ただし、潜水が無事に完了した場合となるのは変わりません」
    historian = card_named("Historian")
    bonus = None
    for keep in (True, False):
        s = dive_position(hands={0: (historian,)}, bag={"purple": 1})
        s = replace(s, card_vp_on_bust=keep, dive=replace(s.dive, drawn=("black",)))
        bonus = COMPS.wreck(s.dive.wreck).leader_bonus
        s = E.apply(E.apply(s, DrawGem(0)), PlayCard(0, historian))
        s3, events = E.transition(set_bag(s, black=1), DrawGem(0))
        assert historian in s3.players[0].used                          # the card is spent either way
        assert s3.players[0].chest == (3 if keep else 0) + bonus
        lost = [e for e in events if e.code == "DEEPBLUE_CARD_VP_LOST"]
        assert bool(lost) == (not keep)
        if lost:
            assert lost[0].rule == "deepblue.dive.card-vp-on-bust" and lost[0].param("vp") == 3
        # a safe end scores the card under both readings
        s4 = E.apply(s, Stop(0))
        assert s4.players[0].chest == 3 + bonus
    assert E.new_state(1, card_vp_on_bust=False).card_vp_on_bust is False
    assert E.new_state(1).card_vp_on_bust is True
    with pytest.raises(RuleError, match="card_vp_on_bust"):
        E.new_state(1, card_vp_on_bust="no")
    st = E.new_state(2, card_vp_on_bust=False)
    assert E.state_from_json(E.state_to_json(st)) == st


def test_tile_removed_and_gems_return():
    for gems_return in (True, False):
        s = dive_position(bag={"silver": 2, "gold": 1}, gems_return=gems_return)
        site, wreck = s.dive.site, s.dive.wreck
        s = E.apply(E.apply(s, DrawGem(0)), DrawGem(0))
        s2, events = E.transition(s, Stop(0))
        removed = next(e for e in events if e.code == "DEEPBLUE_TILE_REMOVED")
        assert removed.rule == "deepblue.dive.discard"
        assert s2.tile_at(site) is None and s2.removed[-1] == wreck
        ret = next(e for e in events if e.rule == "deepblue.dive.gems-return")
        assert sum(s2.bag) == (3 if gems_return else 1) and sum(s2.set_aside) == (0 if gems_return else 2)
        assert ret.code == ("DEEPBLUE_GEMS_RETURNED" if gems_return else "DEEPBLUE_GEMS_SET_ASIDE")
        assert s2.players[0].boats[0].site == site and s2.players[0].boats[0].spot == NO_SPOT


def test_spot_values_in_scoring():
    wreck = next(w.id for w in COMPS.wrecks if "gold" in w.spots and not w.sunken_city)
    spot = COMPS.wreck(wreck).spots.index("gold")
    s = dive_position(wreck=wreck, leader_spot=spot, joiners=(1,), bag={"gold": 2})
    s = E.apply(E.apply(s, DrawGem(0)), DrawGem(0))
    s2 = E.apply(s, Stop(0))
    bonus = COMPS.wreck(wreck).leader_bonus
    assert s2.players[0].chest == 10 + bonus and s2.players[1].chest == 4     # deepblue.spot.bonus
    shows("test_spot_values_in_scoring", "deepblue.spot.bonus")


# ---- the end ---------------------------------------------------------------------------------
def _sunken_cities():
    return [w.id for w in COMPS.wrecks if w.sunken_city]


def test_game_ends_after_fourth_sunken_city():
    sc = _sunken_cities()
    s = dive_position(wreck=sc[3], bag={"silver": 1}, scenario="best-of-the-best")
    s = replace(s, sunken_cities=tuple(sc[:3]))
    s2, events = E.transition(E.apply(s, DrawGem(0)), Stop(0))
    end = next(e for e in events if e.code == "DEEPBLUE_GAME_END")
    assert end.rule == "deepblue.end.sunken-city" and s2.phase == "over"
    assert E.is_over(s2) and E.legal_moves(s2) == [] and E.current_player(s2) is None
    out = E.outcome(s2)
    assert out.winners == (0,) and out.result == "win" and out.scores[0] == s2.players[0].chest
    assert refused(s2, Rest(0)).rule == "core.over"
    # three Sunken City dives do not end it
    s3 = E.apply(E.apply(replace(s, sunken_cities=tuple(sc[:2])), DrawGem(0)), Stop(0))
    assert s3.phase == "action"


def test_tiebreak_by_crew_cards():
    s = E.new_state(0, players=3)
    s = set_player(set_player(set_player(s, 0, chest=10), 1, chest=10), 2, chest=3)
    s = set_player(s, 1, used=(s.deck[0],))
    s = replace(s, deck=s.deck[1:], phase="over")
    out = E.outcome(s)
    assert out.winners == (1,) and out.rule == "deepblue.end.tiebreak" and out.result == "win"
    s = set_player(s, 0, used=(s.deck[0],))
    out = E.outcome(replace(s, deck=s.deck[1:]))
    assert out.result == "draw" and out.winners == (0, 1) and out.text("ja")


# ---- scenarios (Sunken City dives only) ---------------------------------------------------------
def test_troubled_waters_draws_pairs():
    sc = _sunken_cities()[0]
    s = dive_position(wreck=sc, bag={"silver": 5}, scenario="troubled-waters")
    s2, events = E.transition(s, DrawGem(0))
    assert s2.dive.draws == 2 and events[0].rule == "deepblue.scenario.troubled-waters"
    assert E.gems_per_draw(s, True) == 2
    plain = dive_position(bag={"silver": 5}, scenario="troubled-waters")      # not a Sunken City
    assert E.apply(plain, DrawGem(0)).dive.draws == 1
    start = E.new_state(1, players=3, scenario="troubled-waters")
    s = put_tile(start, COMPS.board.advanced_sites[-1], sc)
    s = place(s, 0, 0, COMPS.board.advanced_sites[-1])
    _, events = E.transition(s, StartDive(0, 0))
    applies = next(e for e in events if e.code == "DEEPBLUE_SCENARIO_APPLIES")
    assert applies.rule == "deepblue.scenario.sunken-city-only" and "Troubled Waters" in applies.message
    # a bust on the first gem of a pair ends the pull
    b = dive_position(wreck=sc, bag={"black": 2}, hands={0: ()}, scenario="troubled-waters")
    b2 = E.apply(b, DrawGem(0))
    assert b2.phase == "action" and b2.players[0].chest == COMPS.wreck(sc).leader_bonus


def test_best_of_the_best():
    historian = card_named("Historian")
    sc = _sunken_cities()[0]
    s = dive_position(wreck=sc, hands={0: (historian,)}, bag={"purple": 2}, scenario="best-of-the-best")
    s = E.apply(s, DrawGem(0))
    s2, events = E.transition(s, PlayCard(0, historian))
    assert s2.dive.diver(0).card_vp == 3 + 4
    assert events[1].rule == "deepblue.scenario.best-of-the-best"


def test_scattered_wealth():
    sc = _sunken_cities()[0]
    s = E.new_state(2, players=3, scenario="scattered-wealth")
    site = COMPS.board.advanced_sites[0]
    s = put_tile(s, site, sc, face_up=False)
    s = place(s, 0, 0, near_site(site))
    s = E.apply(s, SetSail(0, (HARPOON,), 0))
    total = gem_total(s)
    s2, events = E.transition(s, MoveBoat(0, 0, site))
    seeded = [e for e in events if e.code == "DEEPBLUE_SCATTERED_GEM"]
    neighbours_with_tiles = [n for n in COMPS.board.neighbours(site) if s.tile_at(n)]
    assert len(seeded) == 1 + len(neighbours_with_tiles)
    assert seeded[0].rule == "deepblue.scenario.scattered-wealth"
    assert sum(s2.bag) == sum(s.bag) - len(seeded) and gem_total(s2) == total
    s3 = E.apply(s2, ChooseSpot(0, 0))
    s3 = replace(s3, turn=0, phase="action", sail=None)
    seed_gem = next(c for st, c in s3.tile_gems if st == site)
    s4, events = E.transition(s3, StartDive(0, 0))
    assert s4.dive.drawn == (seed_gem,) and all(st != site for st, _ in s4.tile_gems)
    assert "DEEPBLUE_SEED_GEM" in codes(events)


# ---- text forms --------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["s0 hire 2 pay 3+5+token", "s0 sail 4+token", "s1 move boat1 to 7", "s0 spot 2",
                                  "s0 anchor", "s0 rest", "s0 dive boat0", "s1 join", "s1 decline", "s0 draw",
                                  "s0 stop", "s1 leave", "s1 play 23", "s1 protect spot", "s1 protect card 12",
                                  "s0 hire 1 pay nothing"])
def test_moves_round_trip_as_text(text):
    assert str(parse_move(text)) == text


@pytest.mark.parametrize("options", [{"players": 1}, {"players": 6}, {"players": "3"}, {"scenario": "kraken"},
                                     {"gems_return": "no"}, {"leader_bonus_on_bust": 1}, {"colour": "red"}])
def test_bad_game_options_are_refused(options):
    with pytest.raises(InvalidOptionError):
        E.new_state(0, **options)


@pytest.mark.parametrize("text", ["", "draw", "s0 fly", "s0 hire x pay 1", "s0 sail 1+1", "s0 move boat2 to 3",
                                  "s0 protect card", "s0 spot 3", "s99999 draw", None, 12])
def test_bad_move_text_is_refused(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)


# ---- saved states ------------------------------------------------------------------------------
def test_saved_states_round_trip_and_bad_ones_name_the_field():
    import json

    from toolkit.core.errors import InvalidStateError

    from toolkit.deepblue.positions import teaching_dive

    s = E.apply(E.apply(E.apply(teaching_dive(7), Join(1)), Decline(2)), DrawGem(0))
    E.validate_state(s)
    assert E.state_from_json(E.state_to_json(s)) == s
    data = json.loads(E.state_to_json(s))
    for mutate, field in [
        (lambda d: d["players"][0].update(hand=["x"]), "state.players[0].hand[0]"),
        (lambda d: d.update(phase="nap"), "state.phase"),
        (lambda d: d["players"][1]["boats"][0].update(site=99), "state.players[1].boats[0].site"),
        (lambda d: d.update(scenario="kraken"), "state.scenario"),
        (lambda d: d.update(bag=[1, 2, 3]), "state.bag"),
        (lambda d: d["players"][0].update(hand=d["players"][0]["hand"] + [d["market"][0]]), "crew card"),
    ]:
        broken = json.loads(json.dumps(data))
        mutate(broken)
        with pytest.raises(InvalidStateError) as err:
            E.state_from_json(json.dumps(broken))
        assert field in str(err.value)


@pytest.mark.parametrize("move", [Hire(0, "1", [1], 0), Hire(0, 1, (1, 1), 0), Hire(0, 1, (1,), -2), Hire("0", 1, (1,), 0),
                                  SetSail(0, ("2",), 0), SetSail(True, (2,), 0), MoveBoat(0, 7, 3), StartDive(0, "0"),
                                  PlayCard(0, None), Protect(0, "spot"), ChooseSpot(0, 9), Rest(-1), Join(4)])
def test_malformed_move_objects_get_a_violation_not_a_traceback(move):
    s = E.new_state(0, players=3)
    v = E.why_illegal(s, move)
    assert v is not None and v.rule.split(".")[0] in ("core", "deepblue") and v.text("ja")
    with pytest.raises(IllegalMoveError):
        E.apply(s, move)
