"""Scoring a treasure pile: the rules' treasure page, the project's rulings, and the explanations."""

import pytest

from toolkit.core import RuleError
from toolkit.pirats import Token, score, score_sheet


def test_rules_example_two_fries_one_ketchup_is_15():
    # 例 : 緑は2 枚のフレンチフライ (2 点と3 点 ) と1 枚のケチャップを持っています 得点は 15 点
    assert score(["fries 2", "fries 3", "ketchup"]) == 15
    # two ketchups add 10 to each fries
    assert score(["fries 2", "fries 3", "ketchup", "ketchup"]) == 25
    # without ketchup the fries score their face value
    assert score(["fries 2", "fries 3"]) == 5


def test_noodles_and_burgers_boosts():
    assert score(["noodles 3"]) == 3
    assert score(["noodles 3", "chili"]) == 7
    assert score(["noodles 3", "noodles 2", "chili", "chili"]) == (3 + 8) + (2 + 8)
    assert score(["burger 4", "milkshake"]) == 7
    assert score(["burger 4", "burger 5", "milkshake", "milkshake"]) == (4 + 6) + (5 + 6)
    # a bonus only boosts its own kind
    assert score(["burger 4", "chili", "ketchup"]) == 4
    rules = [line.rule for line in score_sheet(["noodles 3", "burger 4", "fries 1"]).lines]
    assert rules == ["pirats.score.fries", "pirats.score.noodles", "pirats.score.burger"]


def test_toys_score_nothing_without_a_parrot():
    assert score(["teddy 4", "doll 6"]) == 0


def test_one_parrot_unlocks_the_better_toys():
    pile = ["teddy 3", "teddy 4", "doll 6", "parrot"]
    assert score(pile) == 7 + 1  # teddies (7) beat the doll (6); the parrot adds 1
    sheet = score_sheet(pile)
    assert sheet.parrot_choice == "teddy"
    pile = ["teddy 3", "doll 6", "doll 5", "parrot"]
    assert score(pile) == 11 + 1
    assert score_sheet(pile).parrot_choice == "doll"


def test_two_parrots_unlock_both():
    assert score(["teddy 3", "teddy 4", "doll 6", "parrot", "parrot"]) == 7 + 6 + 2
    assert score_sheet(["teddy 3", "parrot", "parrot", "parrot"]).total == 3 + 3


def test_each_can_needs_its_own_opener():
    assert score(["can 8", "can 7"]) == 0
    assert score(["can 8", "can 7", "opener"]) == 8  # the better can is opened
    assert score(["can 8", "can 7", "opener", "opener"]) == 15
    assert score(["can 8", "opener", "opener", "opener"]) == 8


def test_bonus_tokens_alone_score_nothing():
    assert score(["ketchup", "chili", "milkshake", "opener"]) == 0
    assert score(["parrot"]) == 1
    assert score([]) == 0


@pytest.mark.parametrize("pile", [["pizza 3"], ["fries"], ["ketchup 2"], ["fries 0"], ["fries -1"],
                                  ["fries 2.5"], [3], [None]])
def test_unknown_tokens_raise_value_error(pile):
    with pytest.raises(ValueError) as info:
        score(pile)
    assert isinstance(info.value, RuleError)


def test_a_single_string_is_not_a_pile():
    with pytest.raises(RuleError, match="list of tokens"):
        score("fries 2")


def test_text_is_forgiving_about_case_and_spacing():
    assert score(["  FRIES   2 ", "Ketchup"]) == 7
    assert str(Token.parse("Doll 6")) == "doll 6"


def test_score_sheet_explains_every_token_in_both_languages():
    pile = ["fries 2", "fries 3", "ketchup", "teddy 3", "doll 6", "parrot", "can 8", "can 7", "opener", "chili"]
    sheet = score_sheet(pile)
    assert sheet.total == score(pile) == 7 + 8 + 6 + 1 + 8
    covered = sorted(str(t) for line in sheet.lines for t in line.tokens)
    assert covered == sorted(str(Token.parse(t)) for t in pile)
    assert {line.rule for line in sheet.lines} == {"pirats.score.fries", "pirats.score.toys", "pirats.score.can",
                                                   "pirats.score.bonus-alone"}
    for line in sheet.lines:
        assert line.text("en") != line.text("ja")
    assert "15" not in sheet.text("en")  # lines, not the total
    shut = [line for line in sheet.lines if line.code == "PIRATS_SCORE_CAN_SHUT"]
    assert len(shut) == 1 and str(shut[0].tokens[0]) == "can 7" and shut[0].points == 0
