"""TONOJA's columns as an editor sees them (two players): reading them from text, writing them back, and the
edits a click makes — no widgets here (``toolkit.widgets.crew_solver`` draws them and asks these functions).

A layout is a list of columns, each a ``(face_down, face_up)`` pair (the solver's order); ``face_down`` is
None for a face-up card with nothing under it. The text form, used by the hand box and the page's URL, reads
like a fraction: ``"G5/B3 P9"`` is G5 lying face up on B3, then P9 alone.

A valid layout holds each card once and at most one face-down card per column — so never more face-down
cards than face-up ones (crew.tonoja: every face-down card lies under a face-up one). Every edit here keeps
a valid layout valid, returns a new list (the argument is never changed) and says ``None`` when it refuses.

Every public function checks its arguments first (their values come from a page): a value of the wrong kind
raises ``TypeError`` naming the parameter (``columns`` not a sequence of ``(Card or None, Card)`` pairs, a
``card`` that is not a :class:`Card`, an ``under`` that is not a whole number); a well-typed bad value raises
:class:`InvalidMoveError` quoting it (a ``face`` that is neither "up" nor "down", more columns or cards than
a layout can hold, and — for an edit — a layout holding a card twice).

>>> g5, b3, p9 = (Card.parse(c) for c in ("G5", "B3", "P9"))
>>> columns_text(place_in_columns(parse_columns_text("G5 P9"), b3, "down"))
'G5/B3 P9'
"""

from __future__ import annotations

import reprlib
from itertools import islice
from typing import Any, Iterable, Sequence

from toolkit.core.checks import check_int, check_iterable, check_str, one_of
from toolkit.core.errors import InvalidMoveError, RuleError
from toolkit.crew.cards import DECK, Card

#: a column: the face-down card (or None) and the face-up card lying on it
Column = tuple["Card | None", Card]
#: what a click places in TONOJA's columns: a new face-up column, or a face-down card under a column
TONOJA_FACES = ("up", "down")
#: how much of a box's text is read (untrusted input)
MAX_TEXT = 200
#: the most columns read: more than a box's text can hold (a column token has at least 2 characters), so a
#: strict read of any box (which may still hold a card twice, left to the solver) is accepted
MAX_COLUMNS = MAX_TEXT // 2
#: the most cards read from a list of cards (a card picker shows each of the deck's cards at most once)
MAX_CARDS = len(DECK)


def _quote(value: Any) -> str:
    """A short quote of an untrusted value: ``reprlib`` stops early, so an enormous list is not written out
    in full only to be cut."""
    return reprlib.repr(value)


def _bounded(name: str, value: Any, limit: int, what: str) -> list:
    """``value`` (any iterable) as a list of at most ``limit`` items; an enormous one is refused after reading
    ``limit + 1`` items, not materialised. Text is refused, not read letter by letter."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a list or another sequence, not the text {_quote(value)}")
    items = list(islice(iter(check_iterable(name, value)), limit + 1))
    if len(items) > limit:
        raise InvalidMoveError(f"{name} may hold at most {limit} {what}, not {_quote(value)}")
    return items


def _checked_columns(columns: Any) -> list[Column]:
    """``columns`` as a list of ``(face_down, face_up)`` pairs: a Card (or None) and a Card each."""
    out = _bounded("columns", columns, MAX_COLUMNS, "columns")
    for column in out:
        if not (isinstance(column, (tuple, list)) and len(column) == 2 and isinstance(column[1], Card)
                and (column[0] is None or isinstance(column[0], Card))):
            raise TypeError(f"columns must be (face-down Card or None, face-up Card) pairs, not {_quote(column)}")
    return [(down, up) for down, up in out]


def _checked_layout(columns: Any) -> list[Column]:
    """:func:`_checked_columns`, and each card once (the edits keep a valid layout valid, so they start from
    one)."""
    out = _checked_columns(columns)
    cards = column_cards(out)
    if len(cards) != len(set(cards)):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise InvalidMoveError(f"TONOJA's columns hold {twice} twice: {columns_text(out)[:40]!r}")
    return out


def _checked_card(card: Any) -> Card:
    if not isinstance(card, Card):
        raise TypeError(f"card must be a Card (Card.parse('P9')), not {_quote(card)}")
    return card


def _checked_cards(name: str, cards: Any) -> list[Card]:
    out = _bounded(name, cards, MAX_CARDS, "cards")
    for card in out:
        if not isinstance(card, Card):
            raise TypeError(f"{name} must hold Cards (Card.parse('P9')), not {_quote(card)}")
    return out


def _checked_face(face: Any) -> str:
    if not isinstance(face, str):
        raise TypeError(f"face must be one of {', '.join(TONOJA_FACES)}, not {_quote(face)}")
    if not one_of(face, TONOJA_FACES):
        raise InvalidMoveError(f"face must be one of {', '.join(TONOJA_FACES)}, not {_quote(face)}")
    return face


def _checked_under(under: Any) -> int | None:
    return None if under is None else check_int("under", under)


def column_tokens(text: str) -> list[str]:
    """The column tokens of a box's text (``"G5/B3, P9"`` -> ``["G5/B3", "P9"]``), at most :data:`MAX_TEXT`
    characters read."""
    return check_str("text", text)[:MAX_TEXT].replace(",", " ").split()


def _lenient_card(value: str) -> Card | None:
    if len(value) > 16:
        return None
    try:
        return Card.parse(value)
    except (RuleError, TypeError, ValueError):
        return None


def lenient_columns(text: Any) -> list[Column]:
    """TONOJA's columns as a (possibly half-typed) box holds them, for drawing: ``"G5/B3 P9"`` -> ``[(B3, G5),
    (None, P9)]`` — ``up/down`` is a face-up card lying on a face-down one (read it like a fraction), a lone
    card is face up with nothing under it. Unreadable tokens are skipped (refused when solved); each card once.

    >>> columns_text(lenient_columns("G5/B3 xx G5 P9/P9 Y1/ B1/B2/B3"))
    'G5/B3 P9 Y1'
    """
    if not isinstance(text, str):
        return []
    out: list[Column] = []
    seen: set[Card] = set()
    for token in column_tokens(text):
        parts = [_lenient_card(x) for x in token.split("/")]
        if not parts or len(parts) > 2 or parts[0] is None or parts[0] in seen:
            continue
        up = parts[0]
        down = parts[1] if len(parts) == 2 and parts[1] not in seen and parts[1] != up else None
        seen.update(c for c in (up, down) if c is not None)
        out.append((down, up))
    return out


def parse_columns_text(text: Any) -> list[Column]:
    """TONOJA's box, strictly: ``"G5/B3 P9"`` -> ``[(B3, G5), (None, P9)]`` ((face_down, face_up) pairs, the
    solver's order); raises :class:`InvalidMoveError` quoting a token that is not ``CARD/CARD`` or ``CARD``.
    (A card in two places is left to the solver, which names the rule.)

    >>> parse_columns_text("G5/B3 p9")
    [(Card('B3'), Card('G5')), (None, Card('P9'))]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be TONOJA's columns as text like G5/B3, not {_quote(text)}")
    out: list[Column] = []
    for token in column_tokens(text):
        parts = token.split("/")
        if len(parts) > 2 or not all(parts):
            raise InvalidMoveError(f"not a column: {token[:20]!r} (write face-up/face-down, e.g. G5/B3)")
        cards = [Card.parse(x) for x in parts]
        out.append((cards[1] if len(cards) == 2 else None, cards[0]))
    return out


def columns_text(columns: Iterable[Column]) -> str:
    """``[(B3, G5), (None, P9)]`` -> ``"G5/B3 P9"`` (the box and URL form of TONOJA's columns)."""
    return " ".join(f"{up}/{down}" if down is not None else str(up) for down, up in _checked_columns(columns))


def column_cards(columns: Iterable[Column]) -> list[Card]:
    """Every card of the columns, column by column, the face-up card of each first."""
    return [c for down, up in _checked_columns(columns) for c in (up, down) if c is not None]


def free_columns(columns: Sequence[Column]) -> list[int]:
    """The indexes (from 0) of TONOJA's columns that have no face-down card yet."""
    return [k for k, (down, _up) in enumerate(_checked_columns(columns)) if down is None]


def place_in_columns(columns: Sequence[Column], card: Card, face: str, under: int | None = None
                     ) -> list[Column] | None:
    """TONOJA's columns with ``card`` clicked in: face ``"up"`` starts a new column on the right; face
    ``"down"`` goes under column ``under`` (an index from 0) if given, else under the first column from the
    left that has no face-down card — so without a choice the k-th face-down card clicked lies under the
    k-th face-up card. No column holds two and there are never more face-down cards than face-up ones:
    None when the chosen column (or, without a choice, every column) already has its face-down card (an
    ``under`` naming no column included) or when ``card`` is already in the columns; a ``face`` that is
    neither "up" nor "down" raises :class:`InvalidMoveError`.

    >>> g5, b3, p9, y2 = (Card.parse(c) for c in ("G5", "B3", "P9", "Y2"))
    >>> columns_text(place_in_columns([(None, g5), (None, p9)], b3, "down"))
    'G5/B3 P9'
    >>> columns_text(place_in_columns([(None, g5), (None, p9)], b3, "down", under=1))
    'G5 P9/B3'
    >>> columns_text(place_in_columns([(b3, g5)], p9, "up")), place_in_columns([(b3, g5)], y2, "down")
    ('G5/B3 P9', None)
    >>> place_in_columns([(b3, g5), (None, p9)], y2, "down", under=0) is None
    True
    """
    columns, card = _checked_layout(columns), _checked_card(card)
    face, under = _checked_face(face), _checked_under(under)
    if card in column_cards(columns):
        return None
    if face == "up":
        return list(columns) + [(None, card)]
    free = free_columns(columns)
    if under is not None:
        free = [under] if under in free else []
    if not free:
        return None
    out = list(columns)
    out[free[0]] = (card, out[free[0]][1])
    return out


def take_out_of_columns(columns: Sequence[Column], card: Card) -> list[Column]:
    """TONOJA's columns without ``card``: a face-down card leaves its column's face-up card alone there (the
    next face-down card clicked fills that place); a face-up card takes its whole column out, the card under
    it free again (a face-down card needs a card on it, and moving it elsewhere would be a guess).

    >>> g5, b3, p9 = (Card.parse(c) for c in ("G5", "B3", "P9"))
    >>> columns_text(take_out_of_columns([(b3, g5), (None, p9)], b3))
    'G5 P9'
    >>> columns_text(take_out_of_columns([(b3, g5), (None, p9)], g5))
    'P9'
    """
    columns, card = _checked_layout(columns), _checked_card(card)
    return [(None if down == card else down, up) for down, up in columns if up != card]


def columns_without(columns: Sequence[Column], cards: Iterable[Card]) -> list[Column]:
    """The columns with each of ``cards`` taken out (:func:`take_out_of_columns`) — e.g. the cards another
    hand also holds: like a hand's card typed in two places, such a card stays with the other hand."""
    out = _checked_layout(columns)
    for card in _checked_cards("cards", cards):
        out = take_out_of_columns(out, card)
    return out


def apply_picker_change(columns: Sequence[Column], before: Iterable[Card], after: Iterable[Card], face: str,
                        under: int | None = None) -> list[Column] | None:
    """The columns after a card picker went from showing ``before`` to ``after``: each card it took out
    leaves the columns (:func:`take_out_of_columns`), then each card it added is placed with ``face`` and
    ``under`` (:func:`place_in_columns`), in ``after``'s order. None — nothing changes — when a placement is
    refused.

    >>> g5, b3 = Card.parse("G5"), Card.parse("B3")
    >>> columns_text(apply_picker_change([(None, g5)], [g5], [g5, b3], "down"))
    'G5/B3'
    >>> apply_picker_change([(b3, g5)], [g5, b3], [g5, b3, Card.parse("P9")], "down") is None
    True
    """
    columns = _checked_layout(columns)
    before, after = _checked_cards("before", before), _checked_cards("after", after)
    face, under = _checked_face(face), _checked_under(under)
    now = set(after)
    out = columns_without(columns, [c for c in before if c not in now])
    for card in after:
        if card not in before:
            placed = place_in_columns(out, card, face, under)
            if placed is None:
                return None
            out = placed
    return out


__all__ = ["Column", "MAX_CARDS", "MAX_COLUMNS", "MAX_TEXT", "TONOJA_FACES", "apply_picker_change", "column_cards",
           "column_tokens", "columns_text", "columns_without", "free_columns", "lenient_columns", "parse_columns_text",
           "place_in_columns", "take_out_of_columns"]
