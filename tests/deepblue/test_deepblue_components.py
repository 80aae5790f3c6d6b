"""Components as validated, user-editable data: the defaults load, known facts hold, and invalid data is
rejected with the field named."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core.errors import DataError
from toolkit.deepblue import DeepBlueEngine, default_components, load_components, load_components_file
from toolkit.deepblue.components import _default

WRECKS = _default("wrecks.json")["wrecks"]
CREW = _default("crew.json")
BOARD = _default("board.json")
SCENARIOS = _default("scenarios.json")["scenarios"]


def test_defaults_hold_the_known_facts():
    c = default_components()
    assert len(c.cards) == 50 and len(c.market_deck()) == 30
    assert all(len(c.starters(col)) == 4 for col in c.player_colours) and len(c.player_colours) == 5
    assert len(c.wrecks) == 15
    assert sum(w.deck == "start" for w in c.wrecks) == 6 and sum(w.empty for w in c.wrecks) == 1
    assert sum(w.sunken_city for w in c.wrecks) == 4
    assert {s.id for s in c.scenarios if not s.illustrative} == {"troubled-waters", "best-of-the-best",
                                                                "scattered-wealth"}
    assert len(c.scenarios) == 7
    assert dict(c.bag) == {"silver": 7, "gold": 3, "red": 1, "black": 4, "blue": 4}
    # every unknown is labelled as illustrative
    assert all(card.illustrative for card in c.cards)
    assert all(w.illustrative for w in c.wrecks if not w.empty)
    for name in ("board.json", "wrecks.json", "crew.json", "scenarios.json"):
        assert "ILLUSTRATIVE" in json.dumps(_default(name)["_meta"]) or "placeholders" in json.dumps(_default(name)["_meta"])


def _broken(part, path, value):
    data = copy.deepcopy({"wrecks": WRECKS, "cards": CREW["cards"], "board": BOARD, "scenarios": SCENARIOS}[part])
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return {part: data}


@pytest.mark.parametrize("part, path, value, field", [
    ("wrecks", [3, "spots", 1], "pink", "wrecks[3].spots[1]"),
    ("wrecks", [2, "leader_bonus"], -1, "wrecks[2].leader_bonus"),
    ("wrecks", [2, "leader_bonus"], "3", "wrecks[2].leader_bonus"),
    ("wrecks", [4, "deck"], "middle", "wrecks[4].deck"),
    ("wrecks", [1, "name"], {"en": "x"}, "wrecks[1].name"),
    ("wrecks", [1, "spots"], ["silver"], "wrecks[1].spots"),
    ("cards", [25, "protection"], "red", "cards[25].protection"),
    ("cards", [25, "cash"], 2.5, "cards[25].cash"),
    ("cards", [30, "adds_gem"], "black", "cards[30].adds_gem"),
    ("cards", [32, "score", "requires"], {"opal": 1}, "cards[32].score.requires.opal"),
    ("cards", [0, "starter"], "pink", "cards[0].starter"),
    ("cards", [5, "id"], KeyError, "cards[5].id"),
    ("board", ["edges", 0], [0, 99], "board.edges[0]"),
    ("board", ["sites", 2, "x"], "left", "board.sites[2].x"),
    ("scenarios", [0, "gems_per_draw"], 3, "scenarios[0].gems_per_draw"),
    ("scenarios", [1, "scattered_wealth"], "yes", "scenarios[1].scattered_wealth"),
])
def test_invalid_component_data_names_the_field(part, path, value, field):
    with pytest.raises(DataError) as err:
        load_components(**_broken(part, path, value))
    assert field in str(err.value)


def test_whole_structure_errors():
    with pytest.raises(DataError, match="Sunken City"):
        load_components(wrecks=[dict(w, sunken_city=False) for w in WRECKS])
    with pytest.raises(DataError, match="unique"):
        load_components(cards=CREW["cards"] + [CREW["cards"][0]])
    with pytest.raises(DataError, match="bag.pink"):
        load_components(bag={"pink": 2})


@settings(max_examples=25, deadline=None)
@given(index=st.integers(0, 14), field=st.sampled_from(["leader_bonus", "spots", "deck", "sunken_city", "id"]),
       junk=st.one_of(st.none(), st.integers(-5, -1), st.text(max_size=3), st.lists(st.integers(), max_size=2)))
def test_random_junk_in_a_wreck_is_rejected_with_its_path(index, field, junk):
    data = copy.deepcopy(WRECKS)
    data[index][field] = junk
    try:
        load_components(wrecks=data)
    except DataError as exc:
        assert f"wrecks[{index}]" in str(exc) or "wrecks:" in str(exc)
    else:  # some junk is still valid data (e.g. an id text) — then it must be a usable game
        DeepBlueEngine(load_components(wrecks=data)).new_state(0)


def test_user_components_play(tmp_path):
    """A teacher's own box: cheaper leader bonuses, loaded from a file and played by the engine."""
    wrecks = [dict(w, leader_bonus=0) for w in WRECKS]
    f = tmp_path / "my_box.json"
    f.write_text(json.dumps({"wrecks": wrecks}), encoding="utf-8")
    comps = load_components_file(f)
    assert all(w.leader_bonus == 0 for w in comps.wrecks)
    engine = DeepBlueEngine(comps)
    assert engine.legal_moves(engine.new_state(5))
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(DataError):
        load_components_file(bad)
    bad.write_text(json.dumps({"ships": []}), encoding="utf-8")
    with pytest.raises(DataError, match="ships"):
        load_components_file(bad)
