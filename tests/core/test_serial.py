import enum
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from toolkit.core import InvalidStateError
from toolkit.core.serial import dumps, from_jsonable, loads, to_jsonable


class Colour(enum.Enum):
    PINK = "P"
    BLUE = "B"


@dataclass(frozen=True)
class Card:
    colour: Colour
    value: int


@dataclass(frozen=True)
class Table:
    hands: tuple[tuple[Card, ...], ...]
    scores: dict[int, Fraction]
    note: str | None
    seen: frozenset[int]
    pair: tuple[int, str]


cards = st.builds(Card, st.sampled_from(Colour), st.integers(1, 9))
tables = st.builds(Table, st.lists(st.lists(cards, max_size=4).map(tuple), max_size=3).map(tuple),
                   st.dictionaries(st.integers(0, 4), st.fractions()), st.none() | st.text(max_size=5),
                   st.frozensets(st.integers(0, 9)), st.tuples(st.integers(), st.text(max_size=3)))


@given(tables)
def test_round_trip(table):
    assert loads(dumps(table), Table) == table


def test_errors_name_the_path_of_the_bad_field():
    good = to_jsonable(Table(((Card(Colour.PINK, 9),),), {}, None, frozenset(), (1, "a")))
    bad = dict(good, hands=[[{"colour": "P", "value": "nine"}]])
    with pytest.raises(InvalidStateError, match=r"state\.hands\[0\]\[0\]\.value: expected an integer, got 'nine'"):
        from_jsonable(bad, Table)
    with pytest.raises(InvalidStateError, match=r"state\.hands\[0\]\[0\]\.colour"):
        from_jsonable(dict(good, hands=[[{"colour": "X", "value": 1}]]), Table)
    with pytest.raises(InvalidStateError, match="missing field 'seen'"):
        from_jsonable({k: v for k, v in good.items() if k != "seen"}, Table)
    with pytest.raises(InvalidStateError, match="unknown field"):
        from_jsonable(dict(good, extra=1), Table)
    with pytest.raises(InvalidStateError, match="not valid JSON"):
        loads("{nope", Table)
    with pytest.raises(InvalidStateError, match=r"state\.pair: expected a list of 2 items"):
        from_jsonable(dict(good, pair=[1]), Table)
    with pytest.raises(InvalidStateError, match="true or false|an integer"):
        from_jsonable(dict(good, seen=[True]), Table)
