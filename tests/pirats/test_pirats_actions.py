"""The four actions: draw (A), move (B), become captain (C) — sailing (D) is in test_pirats_sailing.py."""

from dataclasses import replace

import pytest

from pirats_helpers import events_of, figure, place, table, with_hand
from toolkit.core import IllegalMoveError, InvalidMoveError
from toolkit.pirats import (ENGINE, BecomeCaptain, Bid, Discard, Draw, MovePirat, OpenAuction, Pass, Pay,
                            SetSail, Stay, TakeLoot, Token, legal_moves, parse_move, why_illegal)


def rule_of(state, move):
    v = why_illegal(state, parse_move(move) if isinstance(move, str) else move)
    return None if v is None else v.rule


def test_one_action_then_the_turn_passes():
    s = with_hand(table(), 0, cat=2)
    s2 = ENGINE.apply(s, "move rat cat 1")
    assert s2.turn == 1 and s2.phase == "action"
    assert s2.ships[0].spaces[0] is not None and s2.ships[0].spaces[0].seat == 0
    # moves always belong to the seat to move: the next figure moved is seat 1's
    s3 = ENGINE.apply(s2, "move cockroach cat 1")
    assert s3.ships[0].spaces[1].seat == 1 and s3.turn == 2


def test_pass_only_when_no_action_is_possible():
    s = table(players=2)
    v = why_illegal(s, Pass())
    assert v is not None and v.rule == "pirats.turn.one-action" and v.code == "PIRATS_MUST_ACT"
    # nothing to draw anywhere, no cards in hand: only a cockroach could still move for free
    stuck = replace(s, deck=(), row=(), discard=(), hands=((0, 0, 0), (18, 18, 18)))
    moves = legal_moves(stuck)
    assert all(isinstance(m, MovePirat) and m.figure == "cockroach" and m.steps == 1 for m in moves)
    assert {m.ship for m in moves} == {"cat", "bird", "fish"}
    # without powers (landlubber) and without cards nothing at all is possible: then, and only then, pass
    full = ENGINE.new_state(1, players=2, variant="landlubber")
    full = replace(full, deck=(), row=(), discard=(), hands=((0, 0, 0), (18, 18, 18)))
    assert legal_moves(full) == [Pass()]
    assert why_illegal(full, Pass()) is None
    after, events = events_of(full, "pass")
    assert after.turn == 1 and events[0].rule == "pirats.turn.one-action"


def test_draw_two_from_deck_and_row_in_any_order():
    s = with_hand(table(), 0, cat=1)
    s = replace(s, row=("cat", "bird", "bird", "fish"), deck=s.deck[:-4] + s.row)  # same cards, new row
    s1, ev1 = events_of(s, "draw bird")
    assert s1.phase == "draw" and s1.turn == 0 and len(s1.row) == 3  # not refilled yet
    assert s1.hands[0][1] == 1 and ev1[0].rule == "pirats.draw.two"
    # the second card may come from the deck (or the row): here the deck
    top = s1.deck[0]
    s2, ev2 = events_of(s1, "draw deck")
    assert s2.turn == 1 and s2.phase == "action"
    assert sum(s2.hands[0]) == 3 and len(s2.row) == 4
    assert s2.row[:3] == ("cat", "bird", "fish") and s2.row[3] == s1.deck[1]
    assert s2.hands[0][("cat", "bird", "fish").index(top)] >= 1
    assert [e.rule for e in ev2] == ["pirats.draw.two", "pirats.draw.refill"]
    # the deck card is not named in the public log, the face-up card is
    assert "bird" in ev1[0].message and "deck" in ev2[0].message
    # a symbol not in the row is refused
    s3 = replace(s, row=("cat", "cat", "cat", "cat"))
    v = why_illegal(s3, Draw("fish"))
    assert v.code == "PIRATS_NOT_IN_ROW" and v.rule == "pirats.draw.two"


def test_deck_runs_out_and_discards_are_reshuffled():
    s = table(players=2)
    # move all but one deck card to the discard pile
    s = replace(s, deck=s.deck[:1], discard=s.deck[1:])
    s1, events = events_of(s, "draw deck")
    assert any(e.rule == "pirats.draw.reshuffle" for e in events)
    assert s1.discard == () and len(s1.deck) > 0
    assert ENGINE.card_count(s1) == 54
    # no deck and no discards: only face-up cards can be drawn
    v = why_illegal(replace(s, deck=(), discard=()), Draw("deck"))
    assert v.code == "PIRATS_DECK_EMPTY" and v.rule == "pirats.draw.reshuffle"
    assert Draw("deck") not in legal_moves(replace(s, deck=(), discard=()))


def test_discard_down_to_six_after_drawing():
    s = with_hand(table(), 0, cat=3, bird=2)  # 5 cards
    s = ENGINE.apply(s, "draw deck")
    s = ENGINE.apply(s, "draw deck")
    assert s.phase == "discard" and s.to_discard == 1 and s.turn == 0
    assert why_illegal(s, Discard((2, 0, 0))).code == "PIRATS_DISCARD_COUNT"
    held = s.hands[0]
    missing = next(i for i in range(3) if held[i] == 0) if 0 in held else None
    if missing is not None:
        cards = [0, 0, 0]
        cards[missing] = 1
        assert why_illegal(s, Discard(tuple(cards))).code == "PIRATS_DISCARD_NOT_HELD"
    assert why_illegal(s, parse_move("draw deck")).rule == "pirats.draw.hand-limit"
    after = ENGINE.apply(s, Discard((1, 0, 0)))
    assert sum(after.hands[0]) == 6 and after.turn == 1 and after.discard[-1] == "cat"
    # six cards after drawing: no discard
    s6 = with_hand(table(), 0, cat=4)
    s6 = ENGINE.apply(ENGINE.apply(s6, "draw deck"), "draw deck")
    assert s6.phase == "action" and s6.turn == 1


def test_move_needs_matching_cards():
    s = with_hand(table(), 0, bird=3)
    v = why_illegal(s, parse_move("move rat cat 1"))
    assert v.code == "PIRATS_NOT_ENOUGH_CARDS" and v.rule == "pirats.move.match"
    assert "cat ship" in v.message and "猫の船" in v.text("ja")
    s = with_hand(table(), 0, cat=2, bird=1)
    after = ENGINE.apply(s, "move rat cat 2")
    assert after.ships[0].spaces[1].seat == 0          # space 2
    assert after.hands[0] == (0, 1, 0) and after.discard == ("cat", "cat")


def test_move_along_a_ship_skips_occupied_spaces():
    # 例 : 猫の船では, 赤がスペース2にゴキブリを, 青がスペース 1にネズミをプレイしています
    s = table()
    s = place(s, "cat", {2: figure(s, 0, "cockroach"), 1: figure(s, 1, "rat")})
    blue = with_hand(replace(s, turn=1), 1, cat=1)
    after, events = events_of(blue, "move rat cat 1")
    assert after.ships[0].spaces[2].seat == 1 and after.ships[0].spaces[0] is None  # from 1 to 3
    assert events[0].rule == "pirats.move.skip-occupied" and events[0].param("jumped") == (2,)
    # 黄のプレーヤーの手番なら, 1 枚の猫のシンボルの魔除けカードをプレイするだけで ... スペース3に直接
    yellow = with_hand(replace(s, turn=2), 2, cat=1)
    after = ENGINE.apply(yellow, "move rat cat 1")
    assert after.ships[0].spaces[2] is not None and after.ships[0].spaces[2].seat == 2
    assert after.hands[2][0] == 0


def test_pirat_aboard_cannot_switch_ships():
    s = table()
    s = with_hand(place(s, "cat", {1: figure(s, 0, "rat")}), 0, bird=2)
    v = why_illegal(s, parse_move("move rat bird 1"))
    assert v.code == "PIRATS_OTHER_SHIP" and v.rule == "pirats.move.along"
    v = why_illegal(s, parse_move("captain rat bird"))
    assert v.rule == "pirats.move.along"


def test_captain_cannot_move_along_the_ship():
    s = table()
    s = with_hand(place(s, "cat", {4: figure(s, 0, "rat")}), 0, cat=3)
    v = why_illegal(replace(s, phase="action"), parse_move("move rat cat 1"))
    # a player with a captain must sail first; the move is refused either way
    assert v.rule in ("pirats.sail.must", "pirats.move.no-captain")
    s_extra = replace(s, phase="extra", extra=0)
    assert why_illegal(s_extra, parse_move("move rat cat 1")).rule == "pirats.move.no-captain"


def test_captain_needs_every_space_between_filled():
    s = table()
    s = with_hand(place(s, "cat", {1: figure(s, 0, "rat"), 3: (1, 0)}), 0, cat=3)
    v = why_illegal(s, parse_move("captain rat cat"))
    assert v.code == "PIRATS_GAP_BEFORE_CAPTAIN" and v.rule == "pirats.captain.path" and v.param("spaces") == (2,)
    s = place(s, "cat", {2: (2, 0)})
    assert why_illegal(s, parse_move("captain rat cat")) is None
    s_taken = place(s, "cat", {4: (3, 0)})
    assert why_illegal(s_taken, parse_move("captain rat cat")).code == "PIRATS_CAPTAIN_TAKEN"


def test_captain_costs_three_from_area_one_from_ship():
    s = table()
    s = place(s, "cat", {1: (1, 0), 2: (2, 0), 3: figure(s, 0, "snail")})
    s2 = with_hand(s, 0, cat=2)
    v = why_illegal(s2, parse_move("captain rat cat"))
    assert v.code == "PIRATS_CAPTAIN_COST" and v.rule == "pirats.captain.cost" and v.param("need") == 3
    s3 = with_hand(s, 0, cat=3)
    after, events = events_of(s3, "captain rat cat")
    assert after.hands[0][0] == 0 and after.ships[0].captain.seat == 0
    assert events[0].rule == "pirats.captain.cost"
    # from space 3 it costs one card
    s1 = with_hand(s, 0, cat=1)
    after = ENGINE.apply(s1, "captain snail cat")
    assert after.hands[0][0] == 0 and after.ships[0].captain == s.ships[0].spaces[2]
    assert after.ships[0].spaces[2] is None


def test_one_captain_per_player():
    s = table()
    s = place(s, "bird", {4: figure(s, 0, "toad")})
    s = place(s, "cat", {1: (1, 0), 2: (2, 0), 3: figure(s, 0, "snail")})
    s = with_hand(replace(s, phase="extra", extra=figure(s, 0, "snail")[1]), 0, cat=2)
    v = why_illegal(s, parse_move("captain snail cat"))
    assert v.code == "PIRATS_ONE_CAPTAIN" and v.rule == "pirats.captain.one-per-player"


def test_unknown_figure_is_refused():
    s = with_hand(table(), 0, cat=2)
    v = why_illegal(s, parse_move("move raccoon cat 1"))
    assert v.code == "PIRATS_NO_SUCH_FIGURE" and v.rule == "pirats.setup.crew"
    assert "cockroach" in v.message
    assert why_illegal(s, parse_move("move rat#2 cat 1")).code == "PIRATS_NO_SUCH_FIGURE"


def test_refused_move_leaves_state_unchanged():
    s = with_hand(table(), 0, bird=1)
    before = ENGINE.state_to_json(s)
    with pytest.raises(IllegalMoveError) as info:
        ENGINE.apply(s, "move rat cat 1")
    assert info.value.rule == "pirats.move.match"
    assert ENGINE.state_to_json(s) == before


@pytest.mark.parametrize("move", [Draw("deck"), Draw("fish"), Discard((1, 0, 2)), MovePirat("rat", "cat", 2),
                                  MovePirat("snail", "fish", 1, True), MovePirat("rat#2", "bird", 3),
                                  BecomeCaptain("toad", "bird"), SetSail("fish"), TakeLoot(Token("fries", 2)),
                                  Stay(), Pass(), OpenAuction(5, 2), Bid(3), Pay((0, 2, 1)), Pay((0, 0, 0))])
def test_move_text_round_trips(move):
    assert parse_move(str(move)) == move
    assert ENGINE.describe_move(move, "en") != ENGINE.describe_move(move, "ja")


@pytest.mark.parametrize("text", ["", "fly cat", "move rat cat", "move rat ship 1", "move rat cat 4",
                                  "move rat cat 0", "move dog cat 1", "move rat#9 cat 1", "draw pile",
                                  "take pizza 3", "take ketchup", "discard", "discard dog", "captain rat",
                                  "auction 0 bid 1", "auction 3 for 1", "bid x", "move rat cat 1 look", "x" * 300,
                                  None, 42])
def test_bad_move_text_raises_invalid_move_error(text):
    with pytest.raises(InvalidMoveError):
        parse_move(text)
