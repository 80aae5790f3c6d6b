"""The Stormy Seas mini-expansions: jagged rocks, sea monsters, storms and compasses."""

from collections import Counter

from toolkit.core import get_rule

from toolkit.tranquility import (ENGINE, FINISH, MONSTER, START, STORM_ORANGE, STORM_PURPLE, STORM_YELLOW,
                                 DiscardHand, DiscardTwo, MoveRock, PlaceIsland, PlayFinish, PlayMonster,
                                 PlayStart, ResolveStorm, RockDiscard, UseCompass)
from toolkit.tranquility.cards import COMPASS

FULL = {i: i + 1 for i in range(36)}
HANDS = [(40, 50, 60, 70, 75), (41, 51, 61, 71, 76)]


def test_rock_blocks_its_row(scenario):
    s = scenario(hands=HANDS, rock_row=2, options={"rocks": True})
    v = ENGINE.why_illegal(s, PlaceIsland(40, 14))
    assert v.rule == "tranquility.rocks.block" and v.param("row") == 3
    assert ENGINE.why_illegal(s, PlaceIsland(40, 20)) is None
    assert all(not (12 <= m.cell < 18) for m in ENGINE.legal_moves(s) if isinstance(m, PlaceIsland))


def test_rock_must_move_or_cost_two(scenario):
    s = scenario(hands=HANDS, rock_row=2, cells={i: i + 1 for i in range(6)}, piles=[(77, 78, 79), ()],
                 options={"rocks": True})
    s = ENGINE.apply(s, PlaceIsland(40, 20))
    assert s.phase == "rock" and s.seat == 0 and len(s.hands[0]) == 4  # no refill before the rock moves
    assert ENGINE.why_illegal(s, MoveRock(2)).code == "TRANQ_ROCK_SAME_ROW"
    full = ENGINE.why_illegal(s, MoveRock(0))
    assert full.rule == "tranquility.rocks.move" and full.code == "TRANQ_ROCK_FULL_ROW"
    assert ENGINE.why_illegal(s, PlaceIsland(50, 30)).code == "TRANQ_WRONG_PHASE"
    moved = ENGINE.apply(s, MoveRock(4))
    assert moved.rock_row == 4 and moved.seat == 1 and len(moved.hands[0]) == 5
    paid = ENGINE.apply(s, RockDiscard((50, 60)))
    assert paid.rock_row == 2 and sorted(paid.hands[0]) == [70, 75, 77, 78, 79]


def test_rock_leaves_after_four_rows(scenario):
    cells = {i: i + 1 for i in range(23)}
    s = scenario(hands=[(24, 50, 60, 70, 75), HANDS[1]], rock_row=5, cells=cells, options={"rocks": True})
    s, events = ENGINE.transition(s, PlaceIsland(24, 23, (50,)))
    assert s.rock_row == -1
    assert any(e.rule == "tranquility.rocks.removed" for e in events)
    assert s.phase == "play" and s.seat == 1  # no rock left to move


def test_monsters_are_dealt_in():
    """3, 4 or 5 monsters are shuffled in with the islands and finish cards."""
    assert get_rule("tranquility.monster.deal").source == "rules/tranquility.ja.txt"
    for monsters in (3, 4, 5):
        s = ENGINE.new_state(2, players=3, monsters=monsters)
        dealt = Counter(c for part in s.hands + s.piles for c in part)
        assert dealt[MONSTER] == monsters and dealt[FINISH] == 5


def test_monster_destroys_most_recent_card(scenario):
    s = scenario(hands=[(MONSTER, 50, 60, 70, 75), HANDS[1]], cells={3: 10, 9: 20}, options={"monsters": 3})
    s = ENGINE.apply(s, PlaceIsland(50, 20))
    s = ENGINE.apply(s, DiscardTwo((51, 61)))
    s, events = ENGINE.transition(s, PlayMonster())
    assert s.cells[20] == 0 and s.cells[9] == 20
    assert Counter(s.out_of_game) == Counter({MONSTER: 1, 50: 1})
    assert events[0].rule == "tranquility.monster.play" and events[0].param("number") == 50
    # a cell a monster emptied can be filled again
    assert ENGINE.why_illegal(ENGINE.apply(s, DiscardTwo((71, 76))), PlaceIsland(60, 20)) is None


def test_monster_cannot_be_discarded(scenario):
    s = scenario(hands=[(MONSTER, 50, 60, 70, 75), HANDS[1]], cells={0: 49}, options={"monsters": 3})
    v = ENGINE.why_illegal(s, DiscardTwo((MONSTER, 50)))
    assert v.rule == "tranquility.monster.no-discard"
    assert ENGINE.why_illegal(s, PlaceIsland(50, 1, (MONSTER,))).rule == "tranquility.monster.no-discard"
    # ...and it does not count as a card that could pay a cost: 4 cards left, but only 3 discardable
    assert ENGINE.why_illegal(s, PlaceIsland(70, 1, (50, 60, 75))).rule == "tranquility.place.cost-limit"
    assert ENGINE.why_illegal(scenario(hands=[(MONSTER, 50, 60, 70, 75), HANDS[1]], options={"monsters": 3}),
                              PlayMonster()).code == "TRANQ_MONSTER_NO_TARGET"


def test_finish_reveals_held_monsters(scenario):
    s = scenario(hands=[(FINISH, 50, 60, 70, 75), (MONSTER, 41, 51, 61, 71)], cells=FULL, start_space=True,
                 options={"monsters": 3})
    v = ENGINE.why_illegal(s, PlayFinish())
    assert v.rule == "tranquility.monster.reveal" and v.param("seats") == (1,)
    assert "seat(s) 2" in v.message     # seat index 1, counted from 1 for people


def storms(**fields):
    fields.setdefault("options", {})["storms"] = True
    return fields


def test_storm_pauses_the_draw_and_is_resolved(scenario):
    s = scenario(**storms(hands=HANDS, piles=[(STORM_ORANGE, 77, 78), ()]))
    s, events = ENGINE.transition(s, DiscardTwo((40, 50)))
    assert s.phase == "storm" and s.seat == 0 and s.storm == STORM_ORANGE
    assert any(e.rule == "tranquility.storm.resolve" for e in events)
    assert ENGINE.legal_moves(s) == [ResolveStorm()]
    s = ENGINE.apply(s, ResolveStorm())
    assert s.orange == (1, 0) and sorted(s.hands[0]) == [60, 70, 75, 77, 78] and s.seat == 1


def test_yellow_storm_limits_hand_to_three(scenario):
    s = scenario(**storms(hands=HANDS, piles=[(STORM_YELLOW, 77, 78, 79), ()]))
    s = ENGINE.apply(s, PlaceIsland(40, 20))  # 4 cards left when the storm is drawn: discard down to 3
    assert ENGINE.storm_discards_needed(s) == 1
    v = ENGINE.why_illegal(s, ResolveStorm())
    assert v.rule == "tranquility.storm.yellow" and v.param("need") == 1
    s = ENGINE.apply(s, ResolveStorm(discards=(75,)))
    assert s.yellow == (1, 0) and sorted(s.hands[0]) == [50, 60, 70]  # no refill beyond 3
    assert ENGINE.observe(s, 0)["hand_limit"] == 3


def test_purple_storm_blocks_row_until_compass(scenario):
    s = scenario(**storms(hands=HANDS, piles=[(), (STORM_PURPLE, 77)], seat=1, compass_pool=1, compass_supply=5))
    s = ENGINE.apply(s, DiscardTwo((41, 51)))
    assert s.storm == STORM_PURPLE and s.seat == 1
    assert ENGINE.why_illegal(s, ResolveStorm()).code == "TRANQ_PURPLE_ROW_NEEDED"
    s = ENGINE.apply(s, ResolveStorm(row=3))
    assert s.purple_rows == (3,) and s.seat == 0
    v = ENGINE.why_illegal(s, PlaceIsland(40, 19))
    assert v.rule == "tranquility.storm.purple"
    s = ENGINE.apply(s, UseCompass("purple", 3))
    assert s.purple_rows == () and s.seat == 0 and s.compass_pool == 0  # a free action: still seat 0's turn
    assert ENGINE.why_illegal(s, PlaceIsland(40, 19)) is None
    assert ENGINE.why_illegal(s, UseCompass("purple", 3)).rule == "tranquility.compass.use"


def test_orange_storm_allows_only_adjacent_plays(scenario):
    s = scenario(**storms(hands=HANDS, cells={10: 39}, orange=(1, 0)))
    v = ENGINE.why_illegal(s, PlaceIsland(60, 25))
    assert v.rule == "tranquility.storm.orange"
    assert ENGINE.why_illegal(s, PlaceIsland(40, 11, (75,))) is None
    assert ENGINE.why_illegal(s, DiscardTwo((60, 70))) is None


def test_compass_cancels_a_drawn_storm(scenario):
    s = scenario(**storms(hands=HANDS, piles=[(STORM_YELLOW, 77, 78), ()], compass_pool=1, compass_supply=5))
    s = ENGINE.apply(s, DiscardTwo((40, 50)))
    assert UseCompass("storm") in ENGINE.legal_moves(s)
    s, events = ENGINE.transition(s, UseCompass("storm"))
    assert s.yellow == (0, 0) and s.storm == 0 and Counter(s.out_of_game)[STORM_YELLOW] == 1
    assert COMPASS in s.out_of_game and sorted(s.hands[0]) == [60, 70, 75, 77, 78]
    assert events[0].rule == "tranquility.compass.use"


def test_compasses_are_earned(scenario):
    s = scenario(**storms(hands=[(START, 40, 50, 60, 70), HANDS[1]], piles=[(1, 2, 3), (4, 5, 6)]))
    s, events = ENGINE.transition(s, PlayStart())
    assert s.compass_pool == 1 and any(e.rule == "tranquility.compass.earn-start" for e in events)
    # a whole row of consecutive numbers
    row = scenario(**storms(hands=[(16, 20, 30, 40, 50), (41, 51, 61, 71, 76)], cells={i: 11 + i for i in range(5)}))
    row, events = ENGINE.transition(row, PlaceIsland(16, 5, (20,)))
    assert row.compass_pool == 1 and [e.rule for e in events if e.code == "TRANQ_COMPASS_EARNED"] == [
        "tranquility.compass.earn-row"]
    # discarding the whole hand is an action that earns one
    whole = scenario(**storms(hands=HANDS))
    whole, events = ENGINE.transition(whole, DiscardHand())
    assert whole.compass_pool == 1 and whole.hands[0] == () and whole.seat == 1
    assert any(e.rule == "tranquility.compass.earn-discard-hand" for e in events)
    assert ENGINE.why_illegal(scenario(hands=HANDS), DiscardHand()).code == "TRANQ_NEEDS_STORMS"


def test_monster_with_no_island_on_the_grid_is_refused_in_both_languages(scenario):
    from toolkit.tranquility import MONSTER, PlayMonster
    s = scenario(hands=[(MONSTER, 10, 20), (30, 40)], options={"monsters": 3})
    v = ENGINE.why_illegal(s, PlayMonster())
    assert v.code == "TRANQ_MONSTER_NO_TARGET" and "island" in v.message and "海の怪物" in v.text("ja")
