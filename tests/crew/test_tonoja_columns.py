"""TONOJA's column editor (toolkit.crew.tonoja_columns), away from any widget: the text forms and the edits a
click makes. Invariants (hypothesis): an edit never loses or duplicates a card, keeps at most one face-down
card per column, leaves its argument alone, and a refused edit changes nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core.errors import InvalidMoveError
from toolkit.crew.cards import DECK, Card
from toolkit.crew.tonoja_columns import (MAX_CARDS, MAX_COLUMNS, TONOJA_FACES, apply_picker_change, column_cards,
                                         column_tokens, columns_text, columns_without, free_columns,
                                         lenient_columns, parse_columns_text, place_in_columns,
                                         take_out_of_columns)


@st.composite
def layouts(draw, max_columns: int = 8):
    """A valid layout: distinct cards, each column a face-up card with or without one face-down card."""
    cards = draw(st.lists(st.sampled_from(DECK), unique=True, max_size=2 * max_columns))
    out, k = [], 0
    while k < len(cards):
        if k + 1 < len(cards) and draw(st.booleans()):
            out.append((cards[k + 1], cards[k]))
            k += 2
        else:
            out.append((None, cards[k]))
            k += 1
    return out


def assert_valid(columns) -> None:
    cards = column_cards(columns)
    assert len(cards) == len(set(cards)), "a card in two places"
    assert all(up is not None for _down, up in columns), "a face-down card with nothing on it"
    assert sum(down is not None for down, _up in columns) <= len(columns)


def fresh_card(data, layout) -> Card:
    held = set(column_cards(layout))
    return data.draw(st.sampled_from([c for c in DECK if c not in held]))


@settings(max_examples=300, deadline=None)
@given(layout=layouts(), face=st.sampled_from(TONOJA_FACES), under=st.none() | st.integers(-2, 9), data=st.data())
def test_placing_a_card_adds_exactly_it_or_refuses_and_changes_nothing(layout, face, under, data):
    card = fresh_card(data, layout)
    before = list(layout)
    placed = place_in_columns(layout, card, face, under)
    assert layout == before                       # the argument is never changed
    if placed is None:
        # refused only when a face-down card has no free place (the chosen one, or any without a choice)
        assert face == "down"
        assert (under not in free_columns(layout)) if under is not None else not free_columns(layout)
        return
    assert_valid(placed)
    assert sorted(column_cards(placed)) == sorted(column_cards(layout) + [card])
    if face == "up":
        assert placed == layout + [(None, card)]
    else:
        target = under if under is not None else free_columns(layout)[0]
        assert placed[target] == (card, layout[target][1])
        assert [c for k, c in enumerate(placed) if k != target] == [c for k, c in enumerate(layout) if k != target]


@settings(max_examples=200, deadline=None)
@given(layout=layouts(), face=st.sampled_from(TONOJA_FACES), data=st.data())
def test_a_card_already_in_the_columns_is_refused_and_an_unknown_face_raises(layout, face, data):
    if layout:
        card = data.draw(st.sampled_from(column_cards(layout)))
        assert place_in_columns(layout, card, face) is None
    with pytest.raises(InvalidMoveError, match="'sideways'"):
        place_in_columns(layout, fresh_card(data, layout), "sideways")


@settings(max_examples=300, deadline=None)
@given(layout=layouts(), data=st.data())
def test_taking_a_card_out_frees_only_it_and_what_lay_under_it(layout, data):
    card = data.draw(st.sampled_from(column_cards(layout) or list(DECK)))
    before = list(layout)
    out = take_out_of_columns(layout, card)
    assert layout == before
    assert_valid(out)
    under = {down for down, up in layout if up == card and down is not None}
    assert sorted(column_cards(out)) == sorted(c for c in column_cards(layout) if c != card and c not in under)
    # the face-up cards keep their order; a face-down card taken out leaves its column in place
    assert [up for _d, up in out] == [up for _d, up in layout if up != card]


@settings(max_examples=300, deadline=None)
@given(layout=layouts(), face=st.sampled_from(TONOJA_FACES), under=st.none() | st.integers(0, 8), data=st.data())
def test_a_picker_change_keeps_every_card_once_and_a_refusal_keeps_the_layout(layout, face, under, data):
    before = column_cards(layout)
    kept = data.draw(st.lists(st.sampled_from(before), unique=True)) if before else []
    added = data.draw(st.lists(st.sampled_from([c for c in DECK if c not in before]), unique=True, max_size=3))
    after = kept + added
    snapshot = list(layout)
    out = apply_picker_change(layout, before, after, face, under)
    assert layout == snapshot
    if out is None:
        assert face == "down" and added      # only a face-down placement can be refused
        return
    assert_valid(out)
    held = set(column_cards(out))
    assert set(added) <= held                # nothing the picker added is lost
    assert held <= set(after)                # nothing the picker took out stays, nothing appears from nowhere
    # a card the picker kept leaves only when it lay under a face-up card that was taken out
    taken_up = {up for _d, up in layout if up not in set(after)}
    freed = {down for down, up in layout if up in taken_up}
    assert set(kept) - held <= freed


@settings(max_examples=200, deadline=None)
@given(layout=layouts())
def test_the_text_form_reads_back_as_the_same_layout(layout):
    text = columns_text(layout)
    assert parse_columns_text(text) == layout
    assert lenient_columns(text) == layout
    assert parse_columns_text(text.lower().replace(" ", ", ")) == layout


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="BGYPS0123456789/ ,x", max_size=60))
def test_a_half_typed_box_is_drawn_as_a_valid_layout(text):
    assert_valid(lenient_columns(text))


def test_columns_without_takes_out_each_card():
    g5, b3, p9, y2 = (Card.parse(c) for c in ("G5", "B3", "P9", "Y2"))
    assert columns_text(columns_without([(b3, g5), (y2, p9)], [b3, p9])) == "G5"
    assert columns_without([(b3, g5)], []) == [(b3, g5)]


@pytest.mark.parametrize("text", ["G5/B3/P9", "G5/", "/B3", "Z9", 42])
def test_a_strict_read_refuses_what_is_not_a_column(text):
    with pytest.raises((InvalidMoveError, TypeError)):
        parse_columns_text(text)


# ---- refusals: every argument is checked at the entry, naming the parameter (the public fuzz test's rule) ----
G5, B3, P9 = (Card.parse(c) for c in ("G5", "B3", "P9"))


@pytest.mark.parametrize("call, name", [
    (lambda: column_cards(None), "columns"),
    (lambda: columns_text([("G5", "B3")]), "columns"),
    (lambda: free_columns([(B3, None)]), "columns"),
    (lambda: free_columns("G5/B3"), "columns"),
    (lambda: take_out_of_columns([(None, G5, P9)], G5), "columns"),
    (lambda: place_in_columns([(None, G5)], "B3", "down"), "card"),
    (lambda: place_in_columns([(None, G5)], B3, None), "face"),
    (lambda: place_in_columns([(None, G5)], B3, "down", under=True), "under"),
    (lambda: place_in_columns([(None, G5)], B3, "down", under=0.0), "under"),
    (lambda: columns_without([(None, G5)], [None]), "cards"),
    (lambda: apply_picker_change([(None, G5)], 3, [G5], "up"), "before"),
    (lambda: apply_picker_change([(None, G5)], [G5], ["G5", "B3"], "up"), "after"),
    (lambda: column_tokens(42), "text"),
    (lambda: parse_columns_text(["G5"]), "text"),
])
def test_an_argument_of_the_wrong_kind_is_a_type_error_naming_it(call, name):
    with pytest.raises(TypeError, match=rf"^{name} must"):
        call()


def test_a_well_typed_bad_value_is_refused_quoting_it():
    with pytest.raises(InvalidMoveError, match="'left'"):
        apply_picker_change([(None, G5)], [G5], [G5, B3], "left")
    # an edit starts from a valid layout: a card in two places is named
    with pytest.raises(InvalidMoveError, match="G5 twice"):
        place_in_columns([(None, G5), (B3, G5)], P9, "up")
    with pytest.raises(InvalidMoveError, match="B3 twice"):
        take_out_of_columns([(B3, G5), (B3, P9)], P9)
    # ... while reading one (a strict read of a box may hold a card twice, left to the solver) is not refused
    assert column_cards(parse_columns_text("G5/B3 B3")) == [G5, B3, B3]


@pytest.mark.parametrize("call", [
    lambda: column_cards(iter(lambda: (None, G5), None)),           # an endless iterator
    lambda: free_columns(range(10**12)),
    lambda: columns_text([(None, G5)] * (MAX_COLUMNS + 1)),
    lambda: columns_without([(None, G5)], [B3] * (MAX_CARDS + 1)),
    lambda: apply_picker_change([], iter(lambda: G5, None), [], "up"),
])
def test_an_enormous_input_is_refused_at_once(call):
    with pytest.raises(InvalidMoveError, match="at most"):
        call()


def test_the_largest_inputs_accepted_still_work():
    every = [(None, c) for c in DECK]
    assert len(column_cards(every)) == len(DECK) <= MAX_COLUMNS
    assert columns_without(every, DECK[:MAX_CARDS]) == []
    assert free_columns([(None, G5)] * MAX_COLUMNS) == list(range(MAX_COLUMNS))
