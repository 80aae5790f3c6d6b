"""Setting sail: who must sail, the payout order, leftovers, going home, moving up, the next flotsam."""

from dataclasses import replace

from pirats_helpers import events_of, front_loot, place, with_hand
from toolkit.pirats import ENGINE, Pass, SetSail, TakeLoot, Token, current_player, legal_moves, parse_move, why_illegal


def plain(players=4, seed=3):
    """A landlubber game: no species powers, so only the general sailing rules act."""
    return ENGINE.new_state(seed, players=players, variant="landlubber")


def test_captain_must_sail_on_next_turn():
    s = plain()
    s = with_hand(place(s, "cat", {1: (1, 0), 2: (2, 0), 3: (3, 0)}), 0, cat=3, fish=2)
    s = ENGINE.apply(s, "captain rat#1 cat")
    assert s.turn == 1 and s.ships[0].captain.seat == 0
    for _ in range(3):  # seats 1-3 draw
        s = ENGINE.apply(ENGINE.apply(s, "draw deck"), "draw deck")
        if s.phase == "discard":
            s = ENGINE.apply(s, legal_moves(s)[0])
    assert s.turn == 0
    assert legal_moves(s) == [SetSail("cat")]
    v = why_illegal(s, parse_move("draw deck"))
    assert v.code == "PIRATS_MUST_SAIL" and v.rule == "pirats.sail.must"
    assert why_illegal(s, parse_move("move rat#2 fish 1")).rule == "pirats.sail.must"


def test_only_your_own_captain_sails():
    s = place(plain(), "cat", {4: (0, 0)})
    s = replace(s, turn=1)
    v = why_illegal(s, SetSail("cat"))
    assert v.code == "PIRATS_NOT_YOUR_CAPTAIN" and v.rule == "pirats.sail.must"
    assert why_illegal(s, SetSail("bird")).code == "PIRATS_NOT_YOUR_CAPTAIN"


def sailing_table():
    s = plain()
    s = place(s, "cat", {4: (0, 0), 3: (1, 0), 2: (2, 0), 1: (3, 0)})
    return front_loot(s, "cat", ("fries 2", "burger 4", "can 8"), "ketchup")


def test_payout_order_captain_then_nearest_the_bow():
    s = sailing_table()
    s, events = events_of(s, "sail cat")
    # 1. the captain takes the bonus token at once and chooses one loot
    assert s.treasure[0] == (Token("ketchup"),)
    assert events[0].rule == "pirats.sail.order" and events[1].code == "PIRATS_TOOK_BONUS"
    assert s.phase == "sail" and current_player(s) == 0
    assert set(legal_moves(s)) == {TakeLoot(Token.parse(t)) for t in ("fries 2", "burger 4", "can 8")}
    assert why_illegal(s, TakeLoot(Token("doll", 6))).code == "PIRATS_NO_SUCH_LOOT"
    assert why_illegal(s, Pass()).code == "PIRATS_MUST_PICK"
    s = ENGINE.apply(s, "take can 8")
    # 2. the pirat nearest the bow (space 3) chooses next
    assert current_player(s) == 1
    s, events = events_of(s, "take burger 4")
    # 3. space 2 gets the last token (a forced pick is made for it); space 1 gets nothing
    assert s.phase == "action" and s.turn == 1
    assert s.treasure[:4] == ((Token("ketchup"), Token("can", 8)), (Token("burger", 4),), (Token("fries", 2),), ())
    codes = [e.code for e in events]
    assert codes.index("PIRATS_TOOK_LOOT") < codes.index("PIRATS_WENT_HOME") < codes.index("PIRATS_MOVED_UP")
    # pirats that took treasure went home; the one that did not moved up one space
    assert s.ships[0].spaces == (None, s.ships[0].spaces[1], None, None)
    assert s.ships[0].spaces[1].seat == 3
    assert any(e.rule == "pirats.sail.go-home" for e in events)


def test_leftover_loot_goes_to_the_box():
    s = front_loot(place(plain(), "cat", {4: (0, 0)}), "cat", ("fries 2", "fries 3", "doll 6"), "parrot")
    s, events = events_of(s, "sail cat")
    s, events = events_of(s, "take doll 6")
    assert s.treasure[0] == (Token("parrot"), Token("doll", 6))
    assert sorted(map(str, s.boxed)) == ["fries 2", "fries 3"]
    assert any(e.rule == "pirats.sail.leftovers" for e in events)
    assert ENGINE.token_count(s) == ENGINE.token_count(front_loot(place(plain(), "cat", {4: (0, 0)}), "cat",
                                                                  ("fries 2", "fries 3", "doll 6"), "parrot"))


def test_pirats_without_loot_move_up_one_space():
    s = sailing_table()
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    s, events = events_of(s, "take fries 2")
    moved = [e for e in events if e.code == "PIRATS_MOVED_UP"]
    assert len(moved) == 1 and moved[0].rule == "pirats.sail.move-up" and moved[0].seat == 3
    # seat 3 (space 1) got nothing and stands on space 2 now
    assert s.ships[0].spaces[1].seat == 3 and s.ships[0].spaces[0] is None
    # a pirat that took nothing never becomes captain this way unless it is a toad (see the powers tests)
    assert s.ships[0].captain is None


def test_identical_tokens_are_picked_automatically():
    s = front_loot(place(plain(), "cat", {4: (0, 0), 3: (1, 0)}), "cat", ("fries 2", "fries 2", "fries 2"))
    s = ENGINE.apply(s, "sail cat")
    assert s.phase == "action" and s.treasure[0][1:] == (Token("fries", 2),) and s.treasure[1] == (Token("fries", 2),)


def test_next_flotsam_group_moves_up_and_a_new_one_is_drawn():
    s = place(plain(), "fish", {4: (0, 0)})
    second = s.ships[2].flotsam[1]
    next_loot, next_bonus = s.loot_stock[:3], s.bonus_stock[0]
    s, events = events_of(s, "sail fish")
    while s.phase == "sail":
        s, more = events_of(s, legal_moves(s)[0])
        events += more
    assert s.ships[2].flotsam[0] == second
    assert s.ships[2].flotsam[1].loot == next_loot and s.ships[2].flotsam[1].bonus == next_bonus
    assert len(s.loot_stock) == 24 - 3 and len(s.bonus_stock) == 8 - 1
    assert [e for e in events if e.rule == "pirats.sail.flotsam"]
    assert ENGINE.token_count(s) == 56
