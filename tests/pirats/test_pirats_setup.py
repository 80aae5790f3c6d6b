"""Setup: ships, flotsam, charm cards, starting hands, crews, the box data, observation, JSON."""

import json
from dataclasses import replace

import pytest

from toolkit.core import DataError, InvalidSeatError, InvalidStateError, RuleError
from toolkit.pirats import (BONUS_KINDS, DEFAULT_BOX, ENGINE, LOOT_KINDS, SHIPS, SPECIES, SetupError, load_box,
                            new_state, observe)


def test_three_empty_ships_with_two_flotsam_groups_each():
    s = new_state(1, players=4)
    assert len(s.ships) == 3
    for ship in s.ships:
        assert ship.spaces == (None, None, None, None)
        assert len(ship.flotsam) == 2
        for group in ship.flotsam:
            assert len(group.loot) == 3 and all(t.is_loot for t in group.loot)
            assert group.bonus is not None and group.bonus.is_bonus
    # 6 groups used 18 loot and 6 bonus tokens; the rest are the face-down stocks
    assert len(s.loot_stock) == 42 - 18 and len(s.bonus_stock) == 14 - 6
    assert ENGINE.token_count(s) == 56


def test_charm_deck_has_54_cards_and_four_face_up():
    s = new_state(2, players=3)
    assert len(s.row) == 4
    everything = list(s.deck) + list(s.row)
    for seat in range(3):
        for i, sym in enumerate(SHIPS):
            everything += [sym] * s.hands[seat][i]
    assert sorted(everything) == sorted(sym for sym in SHIPS for _ in range(18))


def test_starting_hands_by_seat_follow_the_box_data():
    assert [sum(h) for h in new_state(3, players=4).hands] == [3, 3, 4, 4]
    assert [sum(h) for h in new_state(3, players=5).hands] == [3, 3, 4, 4, 4]
    # the start player and the player to the left get 3, wherever the start player sits
    assert [sum(h) for h in new_state(3, players=4, start_player=2).hands] == [4, 4, 3, 3]
    s = new_state(3, players=4, start_player=3)
    assert s.turn == 3 and [sum(h) for h in s.hands] == [3, 4, 4, 3]
    # a group that plays 3/4/5 edits the box data
    box = DEFAULT_BOX.to_data()
    box["starting_hands"] = [3, 4, 5, 5, 5]
    assert [sum(h) for h in new_state(3, players=3, box=box).hands] == [3, 4, 5]


def test_standard_crew_is_four_drawn_species_for_everyone():
    crews = set()
    for seed in range(12):
        s = new_state(seed, players=4)
        assert len(set(s.crews)) == 1, "every player has the same crew"
        crew = s.crews[0]
        assert len(crew) == 4 and len(set(crew)) == 4 and set(crew) <= set(SPECIES)
        crews.add(crew)
    assert len(crews) > 1, "the species cards are shuffled by the seed"
    s = new_state(0, players=2, species=["toad", "rat", "snail", "weasel"])
    assert s.crews == (("rat", "weasel", "snail", "toad"),) * 2


def test_same_seed_same_game_and_seeds_differ():
    assert new_state(7, players=4) == new_state(7, players=4)
    assert new_state(7, players=4) != new_state(8, players=4)


@pytest.mark.parametrize("options", [dict(players=1), dict(players=6), dict(players="4"), dict(variant="pirate"),
                                     dict(start_player=4), dict(start_player=-1), dict(colour="red"),
                                     dict(species=["rat", "rat", "toad", "snail"]), dict(species="rat")])
def test_bad_options_raise_setup_error(options):
    with pytest.raises(SetupError):
        new_state(1, **{"players": 4, **options})


def test_default_box_keeps_official_totals():
    assert len(DEFAULT_BOX.loot) == 42 and len(DEFAULT_BOX.bonus) == 14
    assert {t.kind for t in DEFAULT_BOX.loot} == set(LOOT_KINDS)
    assert {t.kind for t in DEFAULT_BOX.bonus} == set(BONUS_KINDS)
    assert "ILLUSTRATIVE" in DEFAULT_BOX.note
    assert DEFAULT_BOX.starting_hands == (3, 3, 4, 4, 4)
    assert load_box(DEFAULT_BOX.to_data()) == replace(DEFAULT_BOX, note="")
    # the stocks of a new game are exactly the box
    s = new_state(5, players=2)
    in_play = list(s.loot_stock) + [t for sh in s.ships for g in sh.flotsam for t in g.loot]
    assert sorted(in_play) == sorted(DEFAULT_BOX.loot)


def _mutated(path, value):
    data = json.loads(json.dumps(DEFAULT_BOX.to_data()))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize("data, field", [
    (_mutated(("loot", 0, "value"), 0), "box.loot[0].value"),
    (_mutated(("loot", 1, "kind"), "pizza"), "box.loot[1].kind"),
    (_mutated(("loot", 2, "count"), "3"), "box.loot[2].count"),
    (_mutated(("loot", 0, "count"), 4), "box.loot"),            # 43 loot tokens
    (_mutated(("bonus", 0, "count"), -1), "box.bonus[0].count"),
    (_mutated(("bonus", 0, "kind"), "mustard"), "box.bonus[0].kind"),
    (_mutated(("bonus", 0, "count"), 4), "box.bonus"),          # 15 bonus tokens
    (_mutated(("starting_hands",), [3, 3, 4]), "box.starting_hands"),
    (_mutated(("starting_hands", 4), 9), "box.starting_hands[4]"),
    (_mutated(("extra",), 1), "unknown field"),
    ("{not json", "not valid JSON"),
    ([1, 2], "expected an object"),
])
def test_bad_box_is_refused_naming_the_field(data, field):
    with pytest.raises(DataError, match=field.replace("[", r"\[").replace("]", r"\]")):
        load_box(data)
    with pytest.raises(RuleError):
        new_state(1, players=3, box=data)


def test_observe_shows_own_hand_only():
    s = new_state(4, players=4)
    for seat in range(4):
        view = observe(s, seat)
        assert view["hand"] == dict(zip(SHIPS, s.hands[seat]))
        assert view["hand_sizes"] == [sum(h) for h in s.hands]
        assert "hands" not in view and "deck_order" not in view
        assert view["deck"] == len(s.deck)
        json.dumps(view)  # JSON-able
    assert observe(s, None)["hand"] is None
    with pytest.raises(InvalidSeatError, match="no seat 4"):
        observe(s, 4)


def test_json_round_trip_and_bad_saves():
    s = new_state(9, players=3, variant="auction")
    text = ENGINE.state_to_json(s)
    assert ENGINE.state_from_json(text) == s
    data = json.loads(text)
    data["hands"][0][0] = -1
    with pytest.raises(InvalidStateError, match="hands"):
        ENGINE.state_from_json(json.dumps(data))
    data = json.loads(text)
    data["deck"] = data["deck"][1:]
    with pytest.raises(InvalidStateError, match="54"):
        ENGINE.state_from_json(json.dumps(data))
    data = json.loads(text)
    data["loot_stock"][0] = "pizza 2"
    with pytest.raises(InvalidStateError, match="loot_stock"):
        ENGINE.state_from_json(json.dumps(data))


def test_setup_is_explained_rule_by_rule():
    s = new_state(1, players=4)
    events = ENGINE.setup_events(s)
    assert [e.rule for e in events] == (["pirats.setup.ships"] + ["pirats.setup.flotsam"] * 6
                                        + ["pirats.setup.charms", "pirats.setup.hands", "pirats.setup.crew"])
    assert all(e.text("ja") for e in events)
    hands = events[-2]
    assert hands.param("sizes") == (3, 3, 4, 4)
    lubber = ENGINE.setup_events(new_state(1, players=2, variant="landlubber"))
    assert lubber[-1].rule == "pirats.variant.landlubber"
    bar = ENGINE.setup_events(new_state(1, players=2, variant="auction"))
    assert [e.rule for e in bar[-2:]] == ["pirats.auction.bar", "pirats.auction.money"]
    assert bar[-2].param("count") == 8 and bar[-1].param("count") == 8


def test_broken_saves_name_the_setup_rule():
    s = new_state(9, players=3)
    data = json.loads(ENGINE.state_to_json(s))
    data["ships"] = data["ships"][:2]
    with pytest.raises(InvalidStateError, match="pirats.setup.ships"):
        ENGINE.state_from_json(json.dumps(data))
    data = json.loads(ENGINE.state_to_json(s))
    data["ships"][0]["flotsam"][0]["loot"].append("fries 2")
    with pytest.raises(InvalidStateError, match="pirats.setup.flotsam"):
        ENGINE.state_from_json(json.dumps(data))
    data = json.loads(ENGINE.state_to_json(s))
    data["row"] = data["row"][:3]
    with pytest.raises(InvalidStateError, match="pirats.setup.charms"):
        ENGINE.state_from_json(json.dumps(data))


def test_box_errors_cite_the_data_rules():
    data = DEFAULT_BOX.to_data()
    data["loot"][0]["count"] += 1
    with pytest.raises(DataError, match="pirats.data.tokens"):
        load_box(data)
    data = DEFAULT_BOX.to_data()
    data["starting_hands"] = [3, 3]
    with pytest.raises(DataError, match="pirats.setup.hands"):
        load_box(data)


def test_observation_names_its_visibility_rule():
    view = observe(new_state(1, players=2), 0)
    assert view["visibility"] == "pirats.view.hands"


def test_a_users_box_file_replaces_the_defaults(tmp_path):
    data = DEFAULT_BOX.to_data()
    data["loot"] = [{"kind": "fries", "value": 2, "count": 42}]
    path = tmp_path / "my-box.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    box = load_box(path)
    assert box.loot == (box.loot[0],) * 42 and str(box.loot[0]) == "fries 2"
    s = new_state(1, players=2, box=data)
    assert {str(t) for t in s.loot_stock} == {"fries 2"}
    with pytest.raises(DataError, match="cannot read"):
        load_box(tmp_path / "missing.json")
