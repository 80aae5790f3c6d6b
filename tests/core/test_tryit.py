"""The try-it helper of the first-game notebooks and the table rules (rules no engine can enforce)."""

import pytest

from toolkit.core import rules
from toolkit.core.tryit import show_table_rules, table_rules, try_move
from toolkit.crew.engine import ENGINE as CREW
from toolkit.crew.examples import pink_nine
from toolkit.deepblue import ENGINE as DEEPBLUE

TABLE_RULES = {"crew": ["crew.table.no-talk"], "tranquility": ["tranquility.table.silence"],
               "pirats": ["pirats.table.start-player"], "deepblue": []}


@pytest.mark.parametrize("game", sorted(TABLE_RULES))
def test_table_rules_are_registered_with_their_passages(game):
    assert [r.id for r in table_rules(game)] == TABLE_RULES[game]
    text = {lang: show_table_rules(game, lang) for lang in ("en", "ja")}
    for rid in TABLE_RULES[game]:
        info = rules.get(rid)
        assert info.passage.split("…")[0] in text["en"] and info.text["ja"] in text["ja"]
    if not TABLE_RULES[game]:
        assert text["en"] != text["ja"] and "table rule" in text["en"]


def test_the_crew_table_rule_forbids_showing_telling_and_discussing():
    passage = rules.get("crew.table.no-talk").passage
    assert all(word in passage for word in ("手札を見せ", "色や数字を告げ", "相談"))
    assert "開始カード" in rules.get("tranquility.table.silence").passage


def test_an_accepted_move_returns_the_new_state_and_prints_its_events(capsys):
    state = pink_nine()
    after = try_move(CREW, state, "take 78", "ja")
    out = capsys.readouterr().out
    assert after is not state and after.tasks == state.tasks
    assert out.startswith("受け付けました") and "[crew.alloc.order]" in out


def test_a_refused_move_keeps_the_state_and_names_the_rule(capsys):
    state = CREW.apply(pink_nine(), "take 78")
    state = CREW.apply(state, "play P9")
    assert try_move(CREW, state, "play G2") is state      # seat 1 holds pink 7: must follow
    out = capsys.readouterr().out
    assert out.startswith("Refused") and "[crew.trick.follow]" in out


@pytest.mark.parametrize("text", ["", "fly away", "play Q99"])
def test_an_unreadable_move_is_a_message_not_a_traceback(capsys, text):
    state = pink_nine()
    assert try_move(CREW, state, text) is state
    assert capsys.readouterr().out.startswith("Not a move of this game")


def test_bad_arguments_are_named():
    with pytest.raises(TypeError, match="move"):
        try_move(CREW, pink_nine(), 42)
    with pytest.raises(rules.UnknownRuleError.__mro__[1]):   # RuleError: an unknown language
        try_move(DEEPBLUE, DEEPBLUE.new_state(1, players=2), "rest", "fr")
