import pytest

from toolkit.core import (DataError, Event, IllegalMoveError, InvalidMoveError, InvalidStateError, Outcome,
                          RuleError, Term, UnknownLanguageError, UnknownRuleError, Violation, translate)
from toolkit.core import i18n, rules


def test_error_family_roots_at_rule_error_and_value_error():
    for cls in (IllegalMoveError, InvalidMoveError, InvalidStateError, UnknownRuleError,
                UnknownLanguageError, DataError):
        assert issubclass(cls, RuleError)
    assert issubclass(RuleError, ValueError)


def test_violation_renders_in_both_languages_and_str_is_english():
    v = Violation("NOT_YOUR_TURN", "core.turn", seat=2, current=0)
    assert str(v) == v.message == "It is not seat 3's turn: seat 1 acts now."
    assert v.text("ja") == "席3の手番ではありません。いまは席1の手番です。"
    assert v.code == "NOT_YOUR_TURN" and v.rule == "core.turn" and v.param("seat") == 2


def test_explanations_are_immutable_hashable_values():
    a = Violation("NOT_YOUR_TURN", "core.turn", seat=1, current=0)
    b = Violation("NOT_YOUR_TURN", "core.turn", current=0, seat=1)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.code = "X"  # type: ignore[misc]
    assert Event("GAME_OVER", "core.over") != Violation("GAME_OVER", "core.over")


def test_unknown_rule_id_is_refused_at_construction():
    with pytest.raises(UnknownRuleError, match="'crew.no.such.rule'"):
        Violation("GAME_OVER", "crew.no.such.rule")


def test_unknown_language_is_a_rule_error_quoting_it():
    v = Violation("GAME_OVER", "core.over")
    with pytest.raises(UnknownLanguageError, match="'fr'"):
        v.text("fr")


def test_unknown_message_code_is_a_rule_error():
    with pytest.raises(RuleError, match="NO_SUCH_CODE"):
        translate("NO_SUCH_CODE")


def test_terms_and_lists_are_translated_inside_messages():
    i18n.register("TEST_TERM_LIST", {"en": "{game}: {items}", "ja": "{game}：{items}"}, origin="tests")
    assert translate("TEST_TERM_LIST", "en", game=Term("game.crew"), items=["P3", "P5"]) == \
        "The Crew: Mission Deep Sea: P3, P5"
    assert translate("TEST_TERM_LIST", "ja", game=Term("game.crew"), items=("P3", "P5")) == \
        "ザ・クルー：深海に眠る遺跡：P3、P5"


def test_outcome_is_data():
    o = Outcome("GAME_OVER", "core.over", result="draw", winners=(0, 2), scores=(5, 1, 5))
    assert o.result == "draw" and o.winners == (0, 2) and o.scores == (5, 1, 5)
    assert o.to_json()["ja"] == "ゲームは終了しています。これ以上の手はありません。"
    with pytest.raises(ValueError):
        Outcome("GAME_OVER", "core.over", result="maybe")


def test_illegal_move_error_carries_the_violation():
    v = Violation("NOT_YOUR_TURN", "core.turn", seat=1, current=0)
    err = IllegalMoveError(v)
    assert err.violation is v and err.rule == "core.turn" and str(err) == v.message


def test_rule_registry_rejects_incomplete_entries_naming_the_field():
    with pytest.raises(DataError, match="passage"):
        rules.load_text('[[rule]]\nid = "x.y"\ntitle = {en = "a", ja = "b"}\nsource = "s"\n'
                        'text = {en = "a", ja = "b"}\n', "test.toml")
    with pytest.raises(DataError, match="needs en and ja"):
        rules.load_text('[[rule]]\nid = "x.z"\ntitle = {en = "a"}\nsource = "s"\npassage = "p"\n'
                        'text = {en = "a", ja = "b"}\n', "test.toml")
    with pytest.raises(DataError, match="TOML"):
        rules.load_text("[[rule]\n", "broken.toml")


def test_get_rule_returns_source_and_passage():
    info = rules.get("core.turn")
    assert info.source == "DESIGN.md" and info.title["ja"] and info.game == "core"
