"""The end: no flotsam for a ship, the final sailings, scoring and the tie-break."""

from dataclasses import replace

from pirats_helpers import events_of, front_loot, place
from toolkit.pirats import ENGINE, SetSail, Token, is_over, legal_moves, outcome, why_illegal, parse_move


def ending_table():
    s = ENGINE.new_state(5, players=4, variant="landlubber")
    s = place(s, "cat", {4: (0, 0)})
    s = place(s, "fish", {4: (1, 0), 2: (0, 1)})
    s = place(s, "bird", {4: (2, 0)})
    s = front_loot(s, "cat", ("fries 2", "burger 4", "can 8"))
    # the stocks are empty: the next sailing cannot draw a new flotsam group
    return replace(s, loot_stock=(), bonus_stock=(), boxed=s.loot_stock + s.bonus_stock)


def test_end_when_a_ship_gets_no_new_flotsam():
    s = ending_table()
    s, events = events_of(s, "sail cat")
    s, events = events_of(s, "take can 8")
    assert s.ended and not is_over(s)
    end = [e for e in events if e.rule == "pirats.end.trigger"]
    assert len(end) == 1 and "fish ship" in end[0].message and "bird ship" in end[0].message
    # the cat ship moved its second group up but got no new one
    assert len(s.ships[0].flotsam) == 1
    assert ENGINE.token_count(s) == ENGINE.token_count(ending_table())


def test_other_ships_with_captains_sail_once_more():
    s = ending_table()
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    # clockwise from the player who ended the game: seat 1 (fish), then seat 2 (bird)
    assert s.turn == 1 and legal_moves(s) == [SetSail("fish")]
    v = why_illegal(s, parse_move("draw deck"))
    assert v.rule == "pirats.end.final-sailing"
    s = ENGINE.apply(s, "sail fish")
    while s.phase == "sail":
        s = ENGINE.apply(s, legal_moves(s)[0])
    assert s.turn == 2 and legal_moves(s) == [SetSail("bird")]
    s = ENGINE.apply(s, "sail bird")
    while s.phase == "sail":
        s = ENGINE.apply(s, legal_moves(s)[0])
    assert is_over(s) and legal_moves(s) == []
    assert why_illegal(s, parse_move("draw deck")).rule == "core.over"
    result = outcome(s)
    scores = tuple(ENGINE.scores(s))
    assert result.scores == scores and max(scores) == scores[result.winners[0]]
    assert result.rule in ("pirats.end.scoring", "pirats.end.tie-break")
    # seat 0's second pirat on the fish ship took loot in the final sailing of the fish ship
    assert len(s.treasure[0]) >= 3


def test_tie_break_by_space_numbers_then_shared():
    s = ENGINE.new_state(5, players=3, variant="landlubber")
    pile = (Token("fries", 2),)
    s = replace(s, phase="over", treasure=(pile, pile, ()))
    s1 = place(s, "cat", {1: (0, 0), 3: (1, 0)})
    r = outcome(s1)
    assert r.result == "win" and r.winners == (1,) and r.rule == "pirats.end.tie-break"
    assert r.code == "PIRATS_WINNER_TIE_BREAK" and ENGINE.tie_break(s1) == (1, 3, 0)
    # equal sums (1 + 2 against 3): the victory is shared
    s2 = place(s, "cat", {1: (0, 0), 2: (0, 1), 3: (1, 0)})
    r = outcome(s2)
    assert r.result == "draw" and r.winners == (0, 1) and r.code == "PIRATS_SHARED_WIN"
    # a captain counts 4
    s3 = place(s, "cat", {4: (0, 0), 3: (1, 0)})
    assert ENGINE.tie_break(s3) == (4, 3, 0) and outcome(s3).winners == (0,)
    # no tie: the most points wins outright
    s4 = replace(s, treasure=(pile, (), ()))
    assert outcome(s4).code == "PIRATS_WINNER" and outcome(s4).winners == (0,)


def test_a_partial_group_in_the_stock_ends_the_game_and_stays_there():
    s = ending_table()
    stock = s.boxed[:2]  # two loot tokens: not enough for a group of three
    s = replace(s, loot_stock=tuple(t for t in stock if t.is_loot), boxed=s.boxed[2:])
    before = ENGINE.token_count(s)
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    assert s.ended and s.loot_stock == tuple(t for t in stock if t.is_loot)
    assert ENGINE.token_count(s) == before


def test_weasel_captain_boards_a_ship_that_still_makes_its_final_sailing():
    # ゲームの終了時に, 船長のいる全ての船は最後に一度出帆します そのとき, イタチはこれらの能力を使うことができます
    s = ENGINE.new_state(5, players=3, species=["rat", "weasel", "snail", "toad"])
    weasel = s.crews[0].index("weasel")
    s = place(s, "cat", {4: (0, weasel)})
    s = place(s, "fish", {4: (1, 0)})
    s = front_loot(s, "cat", ("fries 2", "burger 4", "can 8"))
    s = front_loot(s, "fish", ("doll 6", "teddy 3", "noodles 2"))
    s = replace(s, loot_stock=(), bonus_stock=(), boxed=s.loot_stock + s.bonus_stock)
    from pirats_helpers import with_hand
    s = with_hand(s, 0, fish=1)
    s = ENGINE.apply(ENGINE.apply(s, "sail cat"), "take can 8")
    assert s.ended and s.phase == "extra" and s.turn == 0
    s = ENGINE.apply(s, "move weasel fish 1")
    # now the fish ship's captain (seat 1) makes the final sailing, and the weasel is aboard for it
    assert s.turn == 1 and legal_moves(s) == [SetSail("fish")]
    s = ENGINE.apply(ENGINE.apply(s, "sail fish"), "take doll 6")
    while s.phase == "sail":
        s = ENGINE.apply(s, legal_moves(s)[0])
    assert is_over(s)
    assert len(s.treasure[0]) == 3  # ketchup, can 8 and one loot from the fish ship
