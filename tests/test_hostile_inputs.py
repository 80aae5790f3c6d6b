"""The hostile inputs issue 18 (item 10) found, one test per class: each refusal is a RuleError (or a
TypeError for an argument of the wrong kind) that names the parameter and quotes the value.
``tests/test_fuzz_public.py`` closes the classes over every public callable; these pin the examples."""

from __future__ import annotations

import math
import time

import pytest

import toolkit.crew as crew
import toolkit.deepblue as deepblue
import toolkit.pirats as pirats
import toolkit.tranquility as tranquility
from toolkit.core import RuleError
from toolkit.core.checks import check_bool, check_int, check_seed, int_text
from toolkit.deepblue import (SETUP_BAG, GemInputError, bust_chance, expected_vp, monte_carlo_policy,
                              monte_carlo_survival, optimal_policy, survival, survival_curve, vp_distribution)
from toolkit.deepblue.positions import teaching_dive
from toolkit.pirats.positions import boarding_state, place_pirats, set_front_flotsam, set_hand

SMALL = {"silver": 2, "gold": 1, "black": 2, "blue": 1}


def refused(call, *names, kind=RuleError):
    """Run ``call``; it must raise ``kind`` whose message contains every one of ``names``."""
    with pytest.raises(kind) as info:
        call()
    for name in names:
        assert name in str(info.value), (name, str(info.value))
    return info.value


# ---- Deep Blue's risk API: every bad value is a GemInputError naming the parameter -------------------
@pytest.mark.parametrize("count", [math.nan, math.inf, -math.inf, "nan", 2.5, [3], object()])
def test_gem_counts_that_are_no_whole_number_are_refused(count):
    refused(lambda: bust_chance({"silver": 3, "black": count}), "bag['black']", "whole number")


@pytest.mark.parametrize("fn", [bust_chance, survival_curve,
                                lambda bag, **kw: survival(bag, 1, **kw),
                                lambda bag, **kw: vp_distribution(bag, 1, **kw),
                                lambda bag, **kw: expected_vp(bag, 1, **kw),
                                lambda bag, **kw: optimal_policy(bag, **kw)])
@pytest.mark.parametrize("param", ["drawn", "shields"])
def test_a_non_iterable_is_refused_alike_for_bag_drawn_and_shields(fn, param):
    """The same mistake, the same error: bag=5 was already a GemInputError, shields=5 leaked TypeError."""
    refused(lambda: fn(5), "bag", "5", kind=GemInputError)
    refused(lambda: fn(SETUP_BAG, **{param: 5}), param, "5", kind=GemInputError)


def test_spots_and_nested_colours_are_refused():
    refused(lambda: vp_distribution(SETUP_BAG, 1, spots=5), "spots", kind=GemInputError)
    refused(lambda: bust_chance([["black"]]), "['black']", kind=GemInputError)
    refused(lambda: bust_chance(SETUP_BAG, shields=[["any"]]), "['any']", kind=GemInputError)


@pytest.mark.parametrize("text", ["silver ²", "black ٣", "gold ３", "red -1"])
def test_gem_text_counts_are_ascii_digits(text):
    refused(lambda: bust_chance(text), text.split()[1], kind=GemInputError)


def test_leader_bonus_is_checked_alike_by_expected_vp_and_optimal_policy():
    for fn in (lambda **kw: expected_vp(SMALL, 1, **kw), lambda **kw: optimal_policy(SMALL, **kw)):
        err = refused(lambda: fn(leader_bonus=-5), "leader_bonus", "-5", kind=GemInputError)
        assert "whole number" not in str(err)       # -5 is a whole number: say what is wrong with it
        refused(lambda: fn(leader_bonus=2.5), "leader_bonus", "2.5", kind=GemInputError)
        refused(lambda: fn(bonus_kept_on_bust="no"), "bonus_kept_on_bust", "'no'", kind=GemInputError)
        refused(lambda: fn(bonus_kept_on_bust=0), "bonus_kept_on_bust", kind=GemInputError)


def test_gems_per_draw_message_says_what_is_allowed():
    err = refused(lambda: optimal_policy(SMALL, gems_per_draw=3), "gems_per_draw", "1, 2", "3")
    assert "whole number" not in str(err)
    refused(lambda: optimal_policy(SMALL, gems_per_draw=True), "gems_per_draw", "True")


def test_policy_refuses_a_state_it_does_not_hold():
    policy = optimal_policy(SMALL)
    for key in [(), (9, 9, 9, 9, 9, 9), "go", [[]], tuple(-1 for _ in policy.root), (True,) * len(policy.root)]:
        for method in (policy.advice, policy.stop_value, policy.go_value):
            refused(lambda: method(key), "not a decision state", kind=GemInputError)
    assert policy.advice(list(policy.root)) == policy.advice()
    refused(lambda: policy.table_head(-1), "rows", kind=GemInputError)


def test_size_guards_refuse_at_once():
    start = time.process_time()
    refused(lambda: survival({"silver": 30_000, "black": 30_000}, 3), "60000", "200", kind=GemInputError)
    refused(lambda: optimal_policy({"silver": 150, "gold": 150, "red": 100, "black": 25, "blue": 25}), "450")
    # within the gem limit but too many decision states: refused before anything is allocated
    refused(lambda: optimal_policy({"silver": 20, "gold": 20, "red": 20, "green": 20, "black": 10, "blue": 10},
                                   shields={"any": 3}), "decision states", "200000")
    refused(lambda: survival(SETUP_BAG, 1, shields={"any": 10**9}), "shields")
    assert time.process_time() - start < 1.0
    # the largest bag allowed still answers quickly
    assert 0 <= survival_curve({"silver": 100, "gold": 60, "black": 20, "blue": 20}, drawn=["black"])[-1] <= 1


def test_monte_carlo_arguments():
    refused(lambda: monte_carlo_survival(SETUP_BAG, 2, trials=0), "trials", "0")
    refused(lambda: monte_carlo_survival(SETUP_BAG, 2, trials=10**9), "trials")
    refused(lambda: monte_carlo_survival(SETUP_BAG, 2, seed=-1), "seed", "-1")
    refused(lambda: monte_carlo_policy("policy"), "policy", "'policy'")
    mean, _ = monte_carlo_policy(optimal_policy(SMALL), trials=200, seed=3)
    assert mean >= 0


# ---- seeds, everywhere --------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [crew.new_state, deepblue.new_state, pirats.new_state, tranquility.new_state,
                                  crew.deal_tonoja, lambda seed: crew.deal(3, seed), teaching_dive])
def test_negative_seeds_are_refused_naming_the_seed(make):
    refused(lambda: make(-1), "seed", "-1")
    with pytest.raises((RuleError, TypeError), match="seed"):
        make(1.5)


# ---- non-ASCII digits in texts --------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: pirats.parse_move("take fries ²"), lambda: pirats.Token.parse("fries ²"),
    lambda: pirats.Token.parse("fries ٣"), lambda: crew.get_task("²"), lambda: crew.incompatible("²", 3),
    lambda: crew.parse_move("take ٣"), lambda: crew.card("P٣"), lambda: tranquility.parse_card("²"),
    lambda: tranquility.parse_move("place ٣ at 4"), lambda: deepblue.parse_move("s0 play ²"),
])
def test_non_ascii_digits_are_refused_not_leaked(call):
    with pytest.raises(RuleError):
        call()


# ---- engine verbs and move descriptions --------------------------------------------------------------------
ENGINES = [crew.ENGINE, deepblue.ENGINE, pirats.ENGINE, tranquility.ENGINE]


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_every_state_verb_refuses_a_non_state_with_a_type_error(engine):
    for verb in ("legal_moves", "current_player", "outcome", "is_over", "observe", "validate_state",
                 "state_to_json", "seat_count", "decider"):
        refused(lambda: getattr(engine, verb)(None), "state", "None", kind=TypeError)
    refused(lambda: engine.why_illegal({"phase": "play"}, None), "state", kind=TypeError)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.name)
def test_describe_move_refuses_what_is_not_a_move_alike_in_every_game(engine):
    """Deep Blue raised AttributeError, Pirats answered "Pass": now every game refuses the same way."""
    for junk in ("x", None, 3, ["pass"]):
        refused(lambda: engine.describe_move(junk), "move", "is not a", engine.name)
    move = engine.legal_moves(engine.new_state(1))[0]
    assert engine.describe_move(move, "ja")
    refused(lambda: engine.describe_move(move, "fr"), "lang", "'fr'")


# ---- files, teaching positions ----------------------------------------------------------------------------
def test_load_box_reads_a_path_given_as_text(tmp_path):
    path = tmp_path / "box.json"
    path.write_text((pirats.tokens.resources.files("toolkit.pirats") / "box.json").read_text(encoding="utf-8"),
                    encoding="utf-8")
    assert pirats.load_box(str(path)) == pirats.load_box(path) == pirats.load_box()
    refused(lambda: pirats.load_box("no-such-box.json"), "no-such-box.json", "cannot read")
    refused(lambda: pirats.load_box('{"loot": 3'), "not valid JSON")


def test_teaching_position_helpers_check_their_arguments():
    state = pirats.new_state(0)
    refused(lambda: set_hand(state, 9, (1, 1, 1)), "seat", "9")
    refused(lambda: set_hand(state, 0, 5), "counts", "5")
    refused(lambda: set_hand(None, 0, (1, 1, 1)), "state", kind=TypeError)
    refused(lambda: boarding_state(5), "occupied", "5", kind=TypeError)
    refused(lambda: boarding_state([[1]]), "occupied", "[[1]]")
    refused(lambda: boarding_state(captain="yes"), "captain", kind=TypeError)
    refused(lambda: place_pirats(state, ["cat"], {}), "ship", "['cat']")
    refused(lambda: place_pirats(state, "cat", {1: 5}), "spaces[1]", "5")
    refused(lambda: place_pirats(state, "cat", [1]), "spaces", kind=TypeError)
    refused(lambda: set_front_flotsam(state, "x", (), "chili"), "ship", "'x'")
    refused(lambda: set_front_flotsam(state, "cat", "fries 1", "chili"), "loot", kind=TypeError)
    refused(lambda: teaching_dive(1, None), "engine", "None", kind=TypeError)


# ---- the shared checks ----------------------------------------------------------------------------------
def test_shared_checks_name_the_parameter_and_say_what_is_wrong():
    assert check_int("players", 4, 3, 5) == 4
    assert "must be from 3 to 5, not -1" in refused(lambda: check_int("players", -1, 3, 5), "players").args[0]
    refused(lambda: check_int("players", True), "players", "True", kind=TypeError)
    refused(lambda: check_int("players", "4"), "players", "'4'", kind=TypeError)
    refused(lambda: check_seed(-1), "seed", "-1")
    refused(lambda: check_seed(2**200), "seed")
    assert check_bool("flag", False) is False
    refused(lambda: check_bool("flag", "no"), "flag", "'no'", kind=TypeError)
    assert int_text("n", "-12") == -12
    for text in ("²", "٣", "", "-", "1_0", " 1"):
        refused(lambda: int_text("n", text), "n", repr(text))
