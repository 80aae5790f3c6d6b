"""Exact gem-bag risk: checked against an independent brute-force recursion over single draws, the
setup bag's reference figures, and a seeded Monte Carlo simulation."""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core.errors import RuleError
from toolkit.deepblue import risk
from toolkit.deepblue import (SETUP_BAG, GemInputError, bust_chance, expected_vp, monte_carlo_policy,
                              monte_carlo_survival, optimal_policy, survival, survival_curve, vp_distribution)
from toolkit.deepblue.gems import COLOURS

VALUES = {"silver": 1, "gold": 2, "red": 4, "green": 0, "purple": 0, "black": 0, "blue": 0}


# ---- an independent model: one gem at a time, protections as a (black, blue, any) triple ------------
def _protect(colour, shields):
    """Spend a protection for ``colour`` (colour-specific first); ``None`` if there is none."""
    b, u, a = shields
    if colour == "black" and b:
        return (b - 1, u, a)
    if colour == "blue" and u:
        return (b, u - 1, a)
    if a:
        return (b, u, a - 1)
    return None


def _draw_outcomes(bag, seen, shields):
    """Yield (probability, colour, new bag, new seen, new shields or None for a bust)."""
    total = sum(n for _, n in bag)
    for i, (colour, n) in enumerate(bag):
        if not n:
            continue
        nbag = bag[:i] + ((colour, n - 1),) + bag[i + 1:]
        nseen, nsh = seen, shields
        if colour in ("black", "blue"):
            if colour in seen:
                nsh = _protect(colour, shields)
            else:
                nseen = tuple(sorted(seen + (colour,)))
        yield Fraction(n, total), colour, nbag, nseen, nsh


@lru_cache(maxsize=None)
def brute_survival(bag, k, seen, shields):
    if k == 0:
        return Fraction(1)
    out = Fraction(0)
    for p, _, nbag, nseen, nsh in _draw_outcomes(bag, seen, shields):
        if nsh is not None:
            out += p * brute_survival(nbag, k - 1, nseen, nsh)
    return out


@lru_cache(maxsize=None)
def brute_vp(bag, k, seen, shields, vp, values):
    """{treasure vp or None for bust: probability} after k more draws."""
    if k == 0:
        return {vp: Fraction(1)}
    out: dict = {}
    vals = dict(values)
    for p, colour, nbag, nseen, nsh in _draw_outcomes(bag, seen, shields):
        if nsh is None:
            out[None] = out.get(None, 0) + p
            continue
        for key, q in brute_vp(nbag, k - 1, nseen, nsh, vp + vals[colour], values).items():
            out[key] = out.get(key, 0) + p * q
    return out


@lru_cache(maxsize=None)
def brute_policy(bag, seen, shields, vp, values, bonus, bust_value, pair_left, per_pull):
    """Best expected VP by plain recursion over single draws (pair_left > 0: mid-pull, no choice)."""
    stop = Fraction(vp + bonus)
    if sum(n for _, n in bag) == 0:
        return stop
    vals = dict(values)
    go = Fraction(0)
    nxt_left = per_pull - 1 if pair_left == 0 else pair_left - 1
    for p, colour, nbag, nseen, nsh in _draw_outcomes(bag, seen, shields):
        if nsh is None:
            go += p * bust_value
        else:
            go += p * brute_policy(nbag, nseen, nsh, vp + vals[colour], values, bonus, bust_value, nxt_left, per_pull)
    if pair_left > 0:
        return go
    return max(stop, go)


def as_key(bag):
    return tuple((c, bag.get(c, 0)) for c in COLOURS)


small_bags = st.fixed_dictionaries({c: st.integers(0, n) for c, n in
                                    (("silver", 3), ("gold", 2), ("red", 1), ("purple", 1), ("black", 3), ("blue", 3))})
shields_st = st.fixed_dictionaries({"black": st.integers(0, 1), "blue": st.integers(0, 1), "any": st.integers(0, 1)})
drawn_st = st.lists(st.sampled_from(["black", "blue", "silver"]), max_size=2)


def _seen(drawn):
    return tuple(sorted({c for c in drawn if c in ("black", "blue")}))


# ---------------------------------------------------------------------------------------------------
def test_setup_bag_reference_figures():
    """deepblue.dive.warning / deepblue.dive.bust: the data notes' figures for the setup bag."""
    assert survival(SETUP_BAG, 2) == Fraction(53, 57)
    assert round(float(survival(SETUP_BAG, 4)), 3) == 0.653
    assert round(float(survival(SETUP_BAG, 5)), 3) == 0.494
    assert round(float(survival(SETUP_BAG, 7)), 3) == 0.227
    # the first gem can never bust: it is at most a warning
    assert survival(SETUP_BAG, 1) == 1
    assert bust_chance(SETUP_BAG) == 0
    curve = survival_curve(SETUP_BAG)
    assert curve[:3] == [1, 1, Fraction(53, 57)] and curve[-1] == 0 and len(curve) == 20


@settings(max_examples=60, deadline=None)
@given(bag=small_bags, shields=shields_st, drawn=drawn_st, data=st.data())
def test_survival_matches_brute_force(bag, shields, drawn, data):
    """deepblue.dive.draw: exact survival equals a recursion over single draws."""
    total = sum(bag.values())
    k = data.draw(st.integers(0, total))
    expected = brute_survival(as_key(bag), k, _seen(drawn), (shields["black"], shields["blue"], shields["any"]))
    assert survival(bag, k, drawn=drawn, shields=shields) == expected


@settings(max_examples=40, deadline=None)
@given(bag=small_bags, shields=shields_st, drawn=drawn_st)
def test_bust_chance_next_draw(bag, shields, drawn):
    """deepblue.dive.check: the next draw busts exactly when it is a second hazard with no protection."""
    if sum(bag.values()) == 0:
        with pytest.raises(GemInputError):
            bust_chance(bag, drawn, shields)
        return
    expected = 1 - brute_survival(as_key(bag), 1, _seen(drawn), (shields["black"], shields["blue"], shields["any"]))
    assert bust_chance(bag, drawn, shields) == expected


def test_bust_chance_hand_examples():
    bag = dict(SETUP_BAG)
    assert bust_chance(bag, drawn=["black"]) == Fraction(4, 19)
    assert bust_chance(bag, drawn=["black", "blue"]) == Fraction(8, 19)
    assert bust_chance(bag, drawn=["black", "blue"], shields={"black": 1}) == Fraction(4, 19)
    assert bust_chance(bag, drawn=["black", "blue"], shields={"any": 1}) == 0
    assert bust_chance("silver 1, black 1", drawn="black") == Fraction(1, 2)


def test_colour_specific_protection_spent_first():
    """deepblue.dive.protection: a black check spends the black protection, keeping 'any' for blue."""
    bag = {"black": 1, "blue": 1}
    # draw both: black (2nd black) then blue (2nd blue) or the other order; both checks are covered
    assert survival(bag, 2, drawn=["black", "blue"], shields={"black": 1, "any": 1}) == 1
    # with two 'any' shields also fine, with one 'any' only one check is covered
    assert survival(bag, 2, drawn=["black", "blue"], shields={"any": 1}) == 0
    assert survival(bag, 1, drawn=["black", "blue"], shields={"any": 1}) == 1


@pytest.mark.parametrize("bad, fragment", [
    ({"pink": 1}, "unknown gem colour"),
    ({"silver": -1}, "cannot be negative"),
    ({"silver": 1.5}, "whole number"),
    ({"silver": "x"}, "whole number"),
    ("silver seven", "whole number"),
])
def test_bad_bag_input_names_the_rule(bad, fragment):
    """deepblue.bag.contents: bad bags are refused with the rule id, in English and Japanese."""
    with pytest.raises(GemInputError) as err:
        survival(bad, 1)
    assert isinstance(err.value, RuleError) and isinstance(err.value, ValueError)
    assert err.value.violation.rule == "deepblue.bag.contents"
    assert fragment in str(err.value).lower() and str(err.value).startswith("deepblue.bag.contents: ")
    assert err.value.violation.text("ja")


def test_more_draws_than_gems_or_negative_draws_are_refused():
    for draws in (20, -1, 1.0, True):
        with pytest.raises(ValueError):
            survival(SETUP_BAG, draws)
    with pytest.raises(ValueError):
        survival(SETUP_BAG, 1, shields={"green": 1})
    with pytest.raises(ValueError):
        survival(SETUP_BAG, 1, shields={"black": -1})


@settings(max_examples=40, deadline=None)
@given(bag=small_bags, shields=shields_st, drawn=drawn_st, data=st.data())
def test_vp_distribution_matches_brute_force(bag, shields, drawn, data):
    """deepblue.gem.values: silver 1, gold 2, red 4 — the whole distribution, bust included."""
    k = data.draw(st.integers(0, sum(bag.values())))
    banked = sum(VALUES[c] for c in drawn)
    expected = brute_vp(as_key(bag), k, _seen(drawn), (shields["black"], shields["blue"], shields["any"]), banked,
                        tuple(VALUES.items()))
    got = vp_distribution(bag, k, drawn=drawn, shields=shields)
    assert got.bust == expected.get(None, 0)
    assert dict(got.vp) == {v: p for v, p in expected.items() if v is not None and p}
    assert got.bust + sum(got.vp.values()) == 1


def test_scouting_spots_raise_gem_values():
    """deepblue.spot.bonus: a gold spot makes each gold worth 5 instead of 2."""
    bag = {"gold": 2}
    assert vp_distribution(bag, 2).vp == {4: 1}
    assert vp_distribution(bag, 2, spots=["gold"]).vp == {10: 1}
    assert vp_distribution({"red": 1, "silver": 1}, 2, spots=["red", "silver"]).vp == {13: 1}
    # a protection spot counts as a shield
    assert survival({"black": 2}, 1, drawn=["black"], shields=["any"]) == 1
    assert survival({"black": 2}, 2, drawn=["black"], shields=["any"]) == 0
    assert vp_distribution({"black": 1, "silver": 1}, 2, drawn=["black"], spots=["black"]).bust == 0
    assert expected_vp({"silver": 1}, 1, spots=["silver"], leader_bonus=2) == 5


@settings(max_examples=25, deadline=None)
@given(bag=small_bags, shields=shields_st, drawn=drawn_st, bonus=st.integers(0, 3), kept=st.booleans())
def test_policy_matches_brute_force(bag, shields, drawn, bonus, kept):
    banked = sum(VALUES[c] for c in drawn)
    sh = (shields["black"], shields["blue"], shields["any"])
    expected = brute_policy(as_key(bag), _seen(drawn), sh, banked, tuple(VALUES.items()), bonus,
                            Fraction(bonus if kept else 0), 0, 1)
    policy = optimal_policy(bag, drawn=drawn, shields=shields, leader_bonus=bonus, bonus_kept_on_bust=kept)
    assert policy.value == expected
    assert policy.stop_value() == banked + bonus
    go = policy.go_value()
    if go is not None:
        assert policy.advice() == ("go" if go > policy.stop_value() else "stop")


@settings(max_examples=20, deadline=None)
@given(bag=small_bags, shields=shields_st)
def test_troubled_waters_policy_matches_brute_force(bag, shields):
    """deepblue.scenario.troubled-waters: two gems per pull, decisions only between pulls."""
    sh = (shields["black"], shields["blue"], shields["any"])
    expected = brute_policy(as_key(bag), (), sh, 0, tuple(VALUES.items()), 0, Fraction(0), 0, 2)
    assert optimal_policy(bag, shields=shields, gems_per_draw=2).value == expected


def test_policy_on_the_setup_bag():
    policy = optimal_policy(SETUP_BAG)
    assert policy.advice() == "go"
    assert policy.value == Fraction(87041, 29070)
    # with 2 hazards of each colour seen-once and little banked, compare with brute force at that state
    key = policy.key_for(["black", "blue", "silver"])
    rest = dict(SETUP_BAG, black=3, blue=3, silver=6)
    expected = brute_policy(as_key(rest), ("black", "blue"), (0, 0, 0), 1, tuple(VALUES.items()), 0, Fraction(0), 0, 1)
    assert max(policy.stop_value(key), policy.go_value(key)) == expected
    assert policy.stop_value(key) == 1 and policy.advice(key) == ("go" if policy.go_value(key) > 1 else "stop")
    rows = policy.table()
    assert rows[0]["draws"] == 0 and all(r["advice"] in ("go", "stop") for r in rows)
    # after 2 of each hazard (only possible with protections) the state is not reachable
    with pytest.raises(GemInputError):
        policy.key_for(["black", "black"])


def test_leader_bonus_lost_on_bust_changes_policy():
    """deepblue.dive.leader-bonus: a bonus kept on a bust does not change the decision; a lost one does."""
    bag = {"silver": 3, "black": 2}
    kept = optimal_policy(bag, drawn=["black"], leader_bonus=8, bonus_kept_on_bust=True)
    plain = optimal_policy(bag, drawn=["black"])
    assert kept.value == plain.value + 8 and kept.advice() == plain.advice() == "go"
    lost = optimal_policy(bag, drawn=["black"], leader_bonus=8, bonus_kept_on_bust=False)
    assert lost.advice() == "stop" and lost.value == 8


def test_monte_carlo_agrees_with_exact():
    for k in (2, 4, 5, 7):
        exact = float(survival(SETUP_BAG, k))
        est, se = monte_carlo_survival(SETUP_BAG, k, trials=20000, seed=k)
        assert abs(est - exact) <= 3 * se, (k, est, exact, se)
    est, se = monte_carlo_survival(SETUP_BAG, 6, drawn=["black"], shields={"any": 1}, trials=20000, seed=11)
    assert abs(est - float(survival(SETUP_BAG, 6, drawn=["black"], shields={"any": 1}))) <= 3 * se


def test_monte_carlo_policy_agrees_with_exact_value():
    policy = optimal_policy(SETUP_BAG, spots=["gold"], leader_bonus=2)
    mean, se = monte_carlo_policy(policy, trials=4000, seed=3)
    assert abs(mean - float(policy.value)) <= 3 * se
    pairs = optimal_policy(SETUP_BAG, shields={"any": 1}, gems_per_draw=2)
    mean, se = monte_carlo_policy(pairs, trials=4000, seed=4)
    assert abs(mean - float(pairs.value)) <= 3 * se


# ---- the solver's three arithmetic layouts: int64 limbs (default), narrow limbs, Python ints -------------
# optimal_policy keeps its exact scaled values as int64 limbs; small bags need only one or two limbs, so
# the carry code is forced here with 4-bit limbs, and the Python-int fallback (absurd bonuses) by raising
# the minimum limb width. Every layout must give the brute-force recursion's value in every state.
LAYOUTS = {"int64 limbs": (62, 16), "4-bit limbs": (4, 1), "python ints": (62, 63)}


@contextmanager
def limb_layout(name):
    saved = risk._LIMB_BITS_CAP, risk._MIN_LIMB_BITS
    risk._LIMB_BITS_CAP, risk._MIN_LIMB_BITS = LAYOUTS[name]
    try:
        yield
    finally:
        risk._LIMB_BITS_CAP, risk._MIN_LIMB_BITS = saved


def _hazards_after(policy, key, shields, drawn):
    """The brute-force model's (seen hazards, protections left) at a policy state: colour-specific
    protections are spent first (deepblue.dive.protection), the rest comes out of "any"."""
    seen, left, excess = [], list(shields), 0
    for i, colour in enumerate(("black", "blue")):
        g = len(policy.groups) - 2 + i
        before = drawn.count(colour)
        now = before + policy.root[g] - key[g]
        if now:
            seen.append(colour)
        checks = max(0, now - 1) - max(0, before - 1)
        left[i] = max(0, shields[i] - checks)
        excess += max(0, checks - shields[i])
    left[2] -= excess
    return tuple(seen), tuple(left)


def _brute_go(bag_key, seen, sh, vp, bonus, bust_value, per_pull):
    """Expected VP of drawing once more from a decision point, then playing optimally (brute force)."""
    go = Fraction(0)
    for p, colour, nbag, nseen, nsh in _draw_outcomes(bag_key, seen, sh):
        if nsh is None:
            go += p * bust_value
        else:
            go += p * brute_policy(nbag, nseen, nsh, vp + VALUES[colour], tuple(VALUES.items()), bonus, bust_value,
                                   per_pull - 1, per_pull)
    return go


def _reachable(bag_key, seen, sh):
    """Counts of every bag reachable by single draws without busting (the policy's states)."""
    out, todo = set(), [(bag_key, seen, sh)]
    while todo:
        state = todo.pop()
        if state[0] in out:
            continue
        out.add(state[0])
        for _, _, nbag, nseen, nsh in _draw_outcomes(*state):
            if nsh is not None:
                todo.append((nbag, nseen, nsh))
    return out


relic_free_bags = st.fixed_dictionaries({c: st.integers(0, n) for c, n in
                                         (("silver", 3), ("gold", 2), ("red", 1), ("black", 3), ("blue", 3))})


@settings(max_examples=20, deadline=None)
@given(bag=relic_free_bags, shields=shields_st, drawn=drawn_st, bonus=st.integers(0, 3), kept=st.booleans(),
       per_pull=st.sampled_from([1, 2]))
def test_every_state_matches_brute_force_in_every_layout(bag, shields, drawn, bonus, kept, per_pull):
    """The whole table (not just the start): each state's go value, stop value and advice equal the
    brute-force recursion's, and the three arithmetic layouts of the solver agree."""
    sh = (shields["black"], shields["blue"], shields["any"])
    banked0 = sum(VALUES[c] for c in drawn)
    bust_value = Fraction(bonus if kept else 0)
    tables = {}
    for layout in LAYOUTS:
        with limb_layout(layout):
            policy = optimal_policy(bag, drawn=drawn, shields=shields, leader_bonus=bonus, bonus_kept_on_bust=kept,
                                    gems_per_draw=per_pull)
            tables[layout] = policy.table()
    assert tables["int64 limbs"] == tables["4-bit limbs"] == tables["python ints"]
    rows = tables["int64 limbs"]
    states = policy.states()
    assert states == sorted(set(states), key=lambda k: (-sum(k), [-x for x in k]))
    by_colour = {grp[0]: i for i, grp in enumerate(policy.groups) if len(grp) == 1}
    as_counts = lambda b: tuple(b[by_colour[c]] if c in by_colour else 0 for c in COLOURS)  # noqa: E731
    reachable = _reachable(as_key(bag), _seen(drawn), sh)
    assert {as_counts(k) for k in states} == {tuple(n for _, n in b) for b in reachable}
    for key, row in zip(states, rows):
        counts = dict(zip(COLOURS, as_counts(key)))
        now = list(drawn) + [c for c in COLOURS for _ in range(bag.get(c, 0) - counts[c])]
        seen, left = _hazards_after(policy, key, sh, drawn)
        vp = banked0 + sum(VALUES[c] * (bag.get(c, 0) - counts[c]) for c in COLOURS)
        assert seen == _seen(now) and row["banked_vp"] == vp
        assert row["stop"] == vp + bonus == policy.stop_value(key)
        if sum(key) == 0:
            assert row["go"] is None and row["advice"] == "stop"
            continue
        go = _brute_go(as_key(counts), seen, left, vp, bonus, bust_value, per_pull)
        assert row["go"] == go == policy.go_value(key)
        assert row["advice"] == policy.advice(key) == ("go" if go > row["stop"] else "stop")


def test_layouts_agree_on_a_bigger_bag():
    """A 22-gem bag with protections needs several int64 limbs (22! * VP > 2**64): the same table in all
    three layouts, one and two gems per pull."""
    bag = {"silver": 7, "gold": 4, "red": 2, "purple": 1, "black": 4, "blue": 4}
    for pairs in (1, 2):
        tables = {}
        for layout in LAYOUTS:
            with limb_layout(layout):
                policy = optimal_policy(bag, shields={"black": 1, "any": 1}, spots=["gold"], leader_bonus=3,
                                        bonus_kept_on_bust=False, gems_per_draw=pairs)
                tables[layout] = (policy.value, policy.table())
        assert tables["int64 limbs"] == tables["4-bit limbs"] == tables["python ints"]


def test_absurd_bonus_uses_python_ints_and_stays_exact():
    """A leader bonus far beyond int64 still gives the exact answer (the Python-int layout)."""
    bag = {"silver": 3, "black": 2, "blue": 1}
    huge = 2 ** 80
    lost = optimal_policy(bag, drawn=["black"], leader_bonus=huge, bonus_kept_on_bust=False)
    assert lost.advice() == "stop" and lost.value == huge
    kept = optimal_policy(bag, drawn=["black"], leader_bonus=huge)
    plain = optimal_policy(bag, drawn=["black"])
    assert kept.value == plain.value + huge and kept.advice() == plain.advice()
    assert [r["go"] - huge for r in kept.table() if r["go"] is not None] == \
        [r["go"] for r in plain.table() if r["go"] is not None]


@pytest.mark.parametrize("bag, drawn, shields", [
    ({"silver": 7, "gold": 3, "red": 1, "black": 4, "blue": 4}, ["black"], None),
    ({"silver": 2, "black": 3, "blue": 1}, ["black", "blue"], {"any": 1}),
    ({"gold": 4, "blue": 2}, [], {"blue": 1}),
])
def test_the_position_forms_answer_like_the_public_functions(bag, drawn, shields):
    from toolkit.deepblue.risk import (bust_chance, check_draws, position, position_bust_chance,
                                       position_survival, position_vp_distribution, survival, vp_distribution)
    pos = position(bag, drawn, shields)
    assert position_bust_chance(pos) == bust_chance(bag, drawn, shields)
    for k in range(pos.total + 1):
        assert position_survival(pos, k) == survival(bag, k, drawn, shields)
        assert position_vp_distribution(pos, k) == vp_distribution(bag, k, drawn, shields)
    for bad in (-1, pos.total + 1, True, "2"):
        with pytest.raises(GemInputError):
            check_draws(pos, bad)
        with pytest.raises(GemInputError):
            position_survival(pos, bad)
