import numpy as np
from hypothesis import given, strategies as st

from toolkit.core import Chance


@given(st.integers(0, 2**32 - 1), st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation_and_reproducible(seed, items):
    c1, a = Chance(seed).shuffled(items)
    c2, b = Chance(seed).shuffled(items)
    assert a == b and sorted(a) == sorted(items) and c1 == c2 == Chance(seed, 1)


def test_successive_events_differ_and_follow_numpy_default_rng():
    c = Chance(123)
    c, first = c.integer(0, 10**9)
    c, second = c.integer(0, 10**9)
    assert first != second
    assert first == int(np.random.default_rng([123, 0]).integers(0, 10**9))
    assert c.count == 2


def test_choice_picks_from_the_sequence():
    seen = {Chance(s).choice("abc")[1] for s in range(40)}
    assert seen == {"a", "b", "c"}
