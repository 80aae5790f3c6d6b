"""Species powers, each with the rules' examples: rat, cockroach, toad, raccoon, snail, weasel."""

from dataclasses import replace

import pytest

from pirats_helpers import events_of, figure, front_loot, place, table, with_hand
from toolkit.pirats import (ENGINE, Pass, Pirat, SnailStep, Stay, Token, current_player, legal_moves, parse_move,
                            why_illegal)

LOOT = ("fries 2", "burger 4", "can 8")


def test_rat_takes_two_loot():
    s = table(species=("rat", "cockroach", "snail", "toad"))
    s = place(s, "cat", {4: figure(s, 0, "snail"), 3: figure(s, 1, "rat"), 2: figure(s, 2, "cockroach")})
    s = front_loot(s, "cat", LOOT)
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    assert current_player(s) == 1
    s, events = events_of(s, "take burger 4")
    # the rat may take a second token (or pass)
    assert s.phase == "sail" and current_player(s) == 1
    assert Pass() in legal_moves(s) and Stay() not in legal_moves(s)
    s, events = events_of(s, "take fries 2")
    assert s.treasure[1] == (Token("burger", 4), Token("fries", 2))
    assert any(e.rule == "pirats.power.rat" for e in events)
    # nothing is left for the cockroach on space 2: it moves up
    assert s.ships[0].spaces[2] is not None and s.ships[0].spaces[2].seat == 2


def test_rat_takes_one_if_only_one_is_left():
    s = table(species=("rat", "cockroach", "snail", "toad"))
    s = place(s, "cat", {4: figure(s, 0, "rat"), 3: figure(s, 1, "rat")})
    s = front_loot(s, "cat", LOOT)
    s = ENGINE.apply(ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8"), "take burger 4")
    # the captain rat took two; the rat on space 3 gets the one token left and no more
    assert s.phase == "action"
    assert s.treasure[0] == (Token("ketchup"), Token("can", 8), Token("burger", 4))
    assert s.treasure[1] == (Token("fries", 2),)


def test_rat_may_decline_its_second_token():
    s = table(species=("rat", "cockroach", "snail", "toad"))
    s = front_loot(place(s, "cat", {4: figure(s, 0, "rat"), 3: figure(s, 1, "snail")}), "cat", LOOT)
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    s, events = events_of(s, "pass")
    assert events[0].rule == "pirats.power.rat" and current_player(s) == 1


def test_cockroach_moves_one_space_free():
    s = with_hand(table(), 0)  # no cards at all
    after, events = events_of(s, "move cockroach cat 1")
    assert after.hands[0] == (0, 0, 0) and after.ships[0].spaces[0].seat == 0
    assert any(e.rule == "pirats.power.cockroach" for e in events)
    s = with_hand(table(), 0, cat=1)
    assert why_illegal(s, parse_move("move cockroach cat 2")) is None
    assert ENGINE.apply(s, "move cockroach cat 2").hands[0] == (0, 0, 0)
    assert why_illegal(s, parse_move("move cockroach cat 3")).rule == "pirats.move.match"


def test_cockroach_captain_from_area_costs_two():
    s = table()
    s = place(s, "cat", {1: (1, 0), 2: (2, 0), 3: (3, 0)})
    s2 = with_hand(s, 0, cat=2)
    assert why_illegal(s2, parse_move("captain rat cat")).rule == "pirats.captain.cost"
    after = ENGINE.apply(s2, "captain cockroach cat")
    assert after.hands[0][0] == 0 and after.ships[0].captain.seat == 0


def toad_example():
    # 緑プレーヤーのカタツムリ1 個が, 鳥の船の船長です 青プレーヤーのイタチは猫の船の船長で出帆します
    # 緑プレーヤーのヒキガエルは猫の船のスペース3にいます ... 赤プレーヤーは, 猫の船のスペース2にヒキガエル
    red, green, blue = 0, 1, 3
    s = table(species=("rat", "weasel", "snail", "toad"))
    s = place(s, "bird", {4: figure(s, green, "snail")})
    s = place(s, "cat", {4: figure(s, blue, "weasel"), 3: figure(s, green, "toad"), 2: figure(s, red, "toad")})
    return front_loot(replace(s, turn=blue), "cat", LOOT), red, green, blue


def test_toad_example_green_keeps_toad_on_3_red_becomes_captain():
    s, red, green, blue = toad_example()
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    assert current_player(s) == green and Stay() in legal_moves(s)
    s, events = events_of(s, "stay")
    assert events[0].rule == "pirats.power.toad" and current_player(s) == red
    s, events = events_of(s, "stay")
    cat = s.ships[0]
    # green already has a captain (the snail on the bird ship): its toad stays on space 3
    assert cat.spaces[2].seat == green and s.crews[green][cat.spaces[2].figure] == "toad"
    # red has no captain: its toad moves up past green's toad to the captain space
    assert cat.captain is not None and cat.captain.seat == red and s.crews[red][cat.captain.figure] == "toad"
    rules = [e.rule for e in events]
    assert "pirats.captain.one-per-player" in rules and "pirats.power.toad" in rules
    # neither toad took loot; the leftovers went to the box
    assert s.treasure[green] == () and s.treasure[red] == ()
    assert sorted(map(str, s.boxed)) == ["burger 4", "fries 2"]
    # blue's weasel captain may act again after its sailing
    assert s.phase == "extra" and s.turn == blue


def test_toad_captain_cannot_stay():
    s = table(species=("rat", "weasel", "snail", "toad"))
    s = front_loot(place(s, "cat", {4: figure(s, 0, "toad")}), "cat", LOOT)
    s = ENGINE.apply(s, "sail cat")
    assert current_player(s) == 0 and Stay() not in legal_moves(s)
    v = why_illegal(s, Stay())
    assert v.code == "PIRATS_TOAD_CAPTAIN_JUMPS" and v.rule == "pirats.power.toad"


def test_only_a_toad_stays():
    s = table(species=("rat", "weasel", "snail", "toad"))
    s = front_loot(place(s, "cat", {4: figure(s, 0, "rat"), 3: figure(s, 1, "snail")}), "cat", LOOT)
    s = ENGINE.apply(ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8"), "pass")
    assert why_illegal(s, Stay()).code == "PIRATS_ONLY_TOAD_STAYS"


RACCOONS = ("rat", "raccoon", "cockroach", "snail")


def test_raccoon_toll_is_paid_to_its_owner():
    s = table(species=RACCOONS)
    s = place(s, "cat", {1: figure(s, 1, "raccoon")})
    short = with_hand(s, 0, cat=1)
    v = why_illegal(short, parse_move("move rat cat 1"))
    assert v.code == "PIRATS_TOLL_UNPAID" and v.rule == "pirats.power.raccoon"
    s = with_hand(with_hand(s, 0, cat=2), 1, bird=1)
    after, events = events_of(s, "move rat cat 1")
    assert after.ships[0].spaces[1].seat == 0               # skipped the raccoon on 1, landed on 2
    assert after.hands[0][0] == 0 and after.hands[1] == (1, 1, 0)
    assert after.discard.count("cat") == s.discard.count("cat") + 1
    toll = [e for e in events if e.rule == "pirats.power.raccoon"]
    assert len(toll) == 1 and toll[0].param("owner") == 1
    # becoming captain past the raccoon costs the toll too; the cockroach discount does not cover it
    s = place(table(species=RACCOONS), "cat", {1: (1, 1), 2: (2, 0), 3: (3, 0)})
    s = with_hand(s, 0, cat=2)
    assert why_illegal(s, parse_move("captain cockroach cat")).rule == "pirats.power.raccoon"
    s = with_hand(s, 0, cat=3)
    after = ENGINE.apply(s, "captain cockroach cat")
    assert after.hands[0][0] == 0 and after.hands[1][0] == s.hands[1][0] + 1


def test_own_raccoon_costs_nothing():
    s = table(species=RACCOONS)
    s = with_hand(place(s, "cat", {1: figure(s, 0, "raccoon")}), 0, cat=1)
    after, events = events_of(s, "move rat cat 1")
    assert after.hands[0][0] == 0 and not [e for e in events if e.rule == "pirats.power.raccoon"]


def test_raccoon_toll_may_exceed_the_hand_limit():
    s = table(species=RACCOONS)
    s = place(s, "cat", {1: figure(s, 1, "raccoon")})
    s = with_hand(with_hand(s, 0, cat=2), 1, bird=6)
    after = ENGINE.apply(s, "move rat cat 1")
    assert sum(after.hands[1]) == 7 and after.turn == 1 and after.phase == "action"


def snail_table(top):
    s = table(species=RACCOONS)
    s = with_hand(place(s, "cat", {2: figure(s, 1, "raccoon")}), 0, cat=1)
    deck = list(s.deck)
    deck.remove(top)
    return replace(s, deck=(top,) + tuple(deck))


def test_snail_match_moves_one_more_and_swaps():
    s = snail_table("cat")
    after, events = events_of(s, "move snail cat 1 peek")
    # a match offers the extra space: the owner decides, after seeing the card
    assert after.phase == "snail" and after.turn == 0 and legal_moves(after) == [SnailStep(), Pass()]
    assert any(e.code == "PIRATS_SNAIL_MATCH" for e in events)
    after, more = events_of(after, "step")
    events = events + more
    cat = after.ships[0]
    # lands on 1, turns up a cat card: one more space onto 2, swapping with the raccoon there
    assert cat.spaces[1].seat == 0 and after.crews[0][cat.spaces[1].figure] == "snail"
    assert cat.spaces[0].seat == 1 and after.crews[1][cat.spaces[0].figure] == "raccoon"
    assert any(e.code == "PIRATS_SNAIL_STEP" and e.rule == "pirats.power.snail" for e in events)
    # the extra space is not a move action: no toll to the raccoon
    assert not [e for e in events if e.rule == "pirats.power.raccoon"] and after.hands[1] == s.hands[1]
    assert after.discard[-1] == "cat"


def test_snail_miss_stays():
    s = snail_table("fish")
    after, events = events_of(s, "move snail cat 1 peek")
    assert after.ships[0].spaces[0].seat == 0 and after.ships[0].spaces[1].seat == 1
    assert any(e.code == "PIRATS_SNAIL_MISS" for e in events) and after.discard[-1] == "fish"
    # only a snail may turn up a card
    assert why_illegal(s, parse_move("move rat cat 1 peek")).code == "PIRATS_ONLY_SNAIL_PEEKS"


def test_snail_can_become_captain_with_a_lucky_card():
    s = table(species=RACCOONS)
    s = with_hand(place(s, "cat", {1: (1, 0), 2: (2, 0)}), 0, cat=1)
    deck = list(s.deck)
    deck.remove("cat")
    s = replace(s, deck=("cat",) + tuple(deck))
    after = ENGINE.apply(ENGINE.apply(s, "move snail cat 1 peek"), "step")
    assert after.ships[0].captain is not None and after.ships[0].captain.seat == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_snail_may_decline_the_extra_space(players):
    # 「…1マス追加で移動できます」: a lucky card offers the captain space, and the owner says no; nothing
    # forces a sailing and the turn passes on
    s = table(players=players, species=RACCOONS)
    s = with_hand(place(s, "cat", {1: (1, 0), 2: (players - 1, 2)}), 0, cat=1)
    deck = list(s.deck)
    deck.remove("cat")
    s = replace(s, deck=("cat",) + tuple(deck))
    peeked = ENGINE.apply(s, "move snail cat 1 peek")
    assert peeked.phase == "snail" and ENGINE.current_player(peeked) == 0
    assert peeked.ships[0].spaces[2] == Pirat(0, figure(s, 0, "snail")[1])
    # only step or pass now; anything else names the pending choice
    for text in ("draw deck", "move rat bird 1", "sail cat", "stay"):
        v = why_illegal(peeked, parse_move(text))
        assert v is not None and v.code in ("PIRATS_EXPECT_SNAIL", "PIRATS_ONLY_TOAD_STAYS", "PIRATS_EXPECT_SAIL")
    assert why_illegal(peeked, parse_move("draw deck")).rule == "pirats.power.snail"
    declined, events = events_of(peeked, "pass")
    assert declined.ships[0].captain is None and declined.captain_of(0) is None
    assert declined.phase == "action" and declined.turn == 1 and declined.extra is None
    assert [e.code for e in events] == ["PIRATS_SNAIL_DECLINES"]
    stepped = ENGINE.apply(peeked, "step")
    assert stepped.captain_of(0) == 0 and stepped.turn == 1
    # the pending choice survives a save and load
    assert ENGINE.state_from_json(ENGINE.state_to_json(peeked)) == peeked


def test_snail_step_and_pass_text_round_trips():
    assert str(parse_move("step")) == "step" and parse_move(" STEP ") == SnailStep()
    assert ENGINE.describe_move(SnailStep(), "ja") and ENGINE.describe_move(SnailStep(), "en") != "Pass"
    s = snail_table("cat")
    assert why_illegal(s, SnailStep()).code == "PIRATS_EXPECT_ACTION"


def test_weasel_moves_twice():
    s = table(species=("rat", "weasel", "snail", "toad"))
    s = with_hand(s, 0, cat=2, bird=1)
    s, events = events_of(s, "move weasel cat 1")
    assert s.phase == "extra" and s.turn == 0 and events[-1].rule == "pirats.power.weasel"
    assert why_illegal(s, parse_move("move rat bird 1")).code == "PIRATS_WEASEL_SAME_FIGURE"
    assert why_illegal(s, parse_move("draw deck")).code == "PIRATS_WEASEL_EXTRA_KIND"
    assert Pass() in legal_moves(s)
    s = ENGINE.apply(s, "move weasel cat 1")
    assert s.turn == 1 and s.phase == "action" and s.ships[0].spaces[1].seat == 0


def test_weasel_captain_sails_then_boards_another_ship():
    # イタチの船長が出帆したあと, 違う船に移動させることもできます
    s = table(species=("rat", "weasel", "snail", "toad"))
    s = with_hand(front_loot(place(s, "cat", {4: figure(s, 0, "weasel")}), "cat", LOOT), 0, bird=1)
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    assert s.phase == "extra" and s.extra == figure(s, 0, "weasel")[1]
    s = ENGINE.apply(s, "move weasel bird 1")
    assert s.ships[1].spaces[0].seat == 0 and s.turn == 1


def test_snail_lucky_step_swaps_with_a_captain():
    s = table(species=RACCOONS)
    s = place(s, "cat", {1: (1, 0), 2: (2, 0), 4: (3, 0)})
    s = with_hand(s, 0, cat=1)
    deck = list(s.deck)
    deck.remove("cat")
    s = replace(s, deck=("cat",) + tuple(deck))
    after = ENGINE.apply(ENGINE.apply(s, "move snail cat 1 peek"), "step")
    cat = after.ships[0]
    assert cat.captain.seat == 0 and after.crews[0][cat.captain.figure] == "snail"
    assert cat.spaces[2] is not None and cat.spaces[2].seat == 3   # the old captain stands on space 3
    # seat 3 lost its captain, so it is no longer forced to sail; seat 0 must sail next turn
    assert after.captain_of(3) is None and after.captain_of(0) == 0
