"""The 40 cards, tricks, following, the sonar and the deal of *The Crew: Mission Deep Sea*.

Everything here is a pure function of its arguments, so the mission engine, the task judge and the
double-dummy solver share one implementation of the card rules:

>>> trick_winner(["P9", "P7", "Y2", "P8"])
0
>>> [str(c) for c in legal_plays(["P8", "Y2", "S1"], led="P9")]
['P8']

Cards are interned: ``Card.parse("P9") is Card.parse("pink 9")``, so comparing and hashing them is cheap
(the solver compares cards at every node).
"""

from __future__ import annotations

import re
from operator import attrgetter
from typing import Iterable, Mapping, Sequence

from toolkit.core.chance import Chance
from toolkit.core.checks import check_iterable, check_seed
from toolkit.core.errors import IllegalMoveError, InvalidMoveError
from toolkit.core.explain import Violation
from toolkit.core.i18n import Term

#: colour letters in deck order; ``S`` is the submarine suit (the trump suit)
COLOURS: tuple[str, ...] = ("B", "G", "Y", "P")
SUITS: tuple[str, ...] = COLOURS + ("S",)
SUBMARINE = "S"
SUIT_NAMES = {"B": "blue", "G": "green", "Y": "yellow", "P": "pink", "S": "submarine"}
_NAME_TO_SUIT = {
    "b": "B", "blue": "B", "青": "B",
    "g": "G", "green": "G", "緑": "G",
    "y": "Y", "yellow": "Y", "黄": "Y",
    "p": "P", "pink": "P", "ピンク": "P",
    "s": "S", "sub": "S", "submarine": "S", "潜水艦": "S",
}
POSITIONS: tuple[str, ...] = ("top", "bottom", "middle")
_CARD_TEXT = re.compile(r"^\s*([A-Za-z\u3040-\u30ff\u4e00-\u9fff]+)\s*([0-9]+)\s*$")


def suit_term(suit: str) -> Term:
    """The translated name of a suit letter (``"P"`` -> pink / ピンク)."""
    return Term(f"crew.colour.{SUIT_NAMES[suit]}")


class Card:
    """One of the 40 cards: ``suit`` is ``B G Y P`` (colours 1–9) or ``S`` (submarines 1–4).

    Build cards with :meth:`Card.parse` or :func:`card`; the 40 instances are shared, immutable and
    ordered by deck order (blue, green, yellow, pink, then submarines; by value inside a suit).
    """

    __slots__ = ("suit", "value", "index", "bit", "_text")
    suit: str
    value: int
    index: int
    #: this card as a one-bit mask (``1 << index``) for the judge's and solver's card sets (a slot, not a
    #: property: the judges read it in their inner loops)
    bit: int

    _interned: dict[tuple[str, int], "Card"] = {}

    def __new__(cls, suit: str, value: int) -> "Card":
        try:
            found = cls._interned.get((suit, value))
        except TypeError:       # an unhashable suit or value: no such card either
            found = None
        if found is not None:
            return found
        if not isinstance(suit, str) or suit not in SUITS or not isinstance(value, int) or isinstance(value, bool):
            raise InvalidMoveError(f"there is no card {suit!r} {value!r}: suits are B, G, Y, P and S")
        top = 4 if suit == SUBMARINE else 9
        if not 1 <= value <= top:
            raise InvalidMoveError(f"there is no card {suit}{value}: {SUIT_NAMES[suit]} runs from 1 to {top}")
        self = object.__new__(cls)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "index", SUITS.index(suit) * 9 + value - 1)
        object.__setattr__(self, "bit", 1 << self.index)
        object.__setattr__(self, "_text", f"{suit}{value}")
        cls._interned[(suit, value)] = self
        return self

    def __setattr__(self, name, value):
        raise AttributeError("cards are immutable")

    def __reduce__(self):
        return (Card, (self.suit, self.value))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # ---- text -------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: "str | Card") -> "Card":
        """``"P9"``, ``"p9"``, ``"pink 9"``, ``"sub 4"``, ``"S4"`` (or a Card, returned as is)."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"not a card: {text!r} (write a card as P9, pink 9 or sub 4)")
        m = _CARD_TEXT.match(text)
        suit = _NAME_TO_SUIT.get(m.group(1).lower()) if m else None
        if m is None or suit is None:
            raise InvalidMoveError(f"not a card: {text!r} (write a card as P9, pink 9 or sub 4)")
        return cls(suit, int(m.group(2)))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def text(self, lang: str = "en") -> str:
        """The card for a sentence: ``"pink 9"`` / ``"ピンク9"`` (so Violations can carry cards)."""
        name = suit_term(self.suit).text(lang)
        return f"{name} {self.value}" if lang == "en" else f"{name}{self.value}"

    def to_json(self) -> str:
        return self._text

    @classmethod
    def from_json(cls, data: str) -> "Card":
        return cls.parse(data)

    # ---- properties -------------------------------------------------------------------------
    @property
    def is_submarine(self) -> bool:
        return self.suit == SUBMARINE

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    def __le__(self, other: "Card") -> bool:
        return self.index <= other.index

    def __gt__(self, other: "Card") -> bool:
        return self.index > other.index

    def __ge__(self, other: "Card") -> bool:
        return self.index >= other.index

    # Equality is identity (the 40 cards are interned). The hash is the deck index, not the inherited
    # identity hash: that one is the card's memory address, so a set of cards iterated in another order in
    # every process, and the bots' tie-breaks over such sets made one seed give different games in
    # different processes (found in 3 of 16 runs of one mission). An int hash orders them the same way
    # everywhere.
    def __hash__(self) -> int:
        return self.index


def card(text: "str | Card") -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


#: the 40 cards in deck order
DECK: tuple[Card, ...] = tuple(Card(s, v) for s in SUITS for v in range(1, (4 if s == SUBMARINE else 9) + 1))
BY_INDEX: dict[int, Card] = {c.index: c for c in DECK}
FULL_MASK = sum(c.bit for c in DECK)


_BY_INDEX = attrgetter("index")


def deck() -> tuple[Card, ...]:
    """The 40 cards: blue, green, yellow and pink 1–9 and submarines 1–4."""
    return DECK


def cards(items: Iterable["str | Card"]) -> tuple[Card, ...]:
    """Parse several cards (strings or Cards); a string of space/comma separated cards also works."""
    if type(items) is tuple and all(type(c) is Card for c in items):
        return items  # the engine's own hands: already cards (hot path)
    if isinstance(items, str):
        items = [t for t in re.split(r"[\s,]+", items.strip()) if t]
        return tuple(_parse_compact(items))
    if isinstance(items, Mapping) or not isinstance(items, Iterable):
        # the same refusal as a bad card text: the caller gave something that lists no cards
        raise InvalidMoveError(f"not cards: {items!r:.60} (write cards as 'P9 B4' or a list of cards)")
    return tuple(Card.parse(c) for c in items)


def _parse_compact(tokens: list[str]) -> Iterable[Card]:
    # "pink 9 sub 4" splits into words; rejoin a colour word with the number after it.
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha() and i + 1 < len(tokens) and tokens[i + 1].isascii() and tokens[i + 1].isdigit():
            yield Card.parse(f"{tok} {tokens[i + 1]}")
            i += 2
        else:
            yield Card.parse(tok)
            i += 1


def mask_of(items: Iterable[Card]) -> int:
    m = 0
    for c in items:
        m |= c.bit
    return m


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a bit mask, in deck order (bits beyond the 40 cards are ignored)."""
    mask &= FULL_MASK   # also makes a negative mask (an inverted one) the cards it holds
    out = []
    while mask:   # one step per card in the mask rather than one per card of the deck (the judges ask)
        low = mask & -mask
        out.append(DECK[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def sorted_hand(items: Iterable["str | Card"]) -> tuple[Card, ...]:
    return tuple(sorted(cards(items)))


def _hand(hand: Iterable["str | Card"]) -> tuple[Card, ...]:
    out = cards(hand)
    if mask_of(out).bit_count() != len(out):
        dup = sorted({str(c) for c in out if out.count(c) > 1})
        raise InvalidMoveError(f"a hand cannot hold the same card twice: {', '.join(dup)}")
    return out


def _led_suit(led: "str | Card | None") -> str | None:
    """``led`` may be the led card, a suit letter or a suit name."""
    if led is None:
        return None
    if isinstance(led, Card):
        return led.suit
    if isinstance(led, str) and led.strip().lower() in _NAME_TO_SUIT:
        return _NAME_TO_SUIT[led.strip().lower()]
    return Card.parse(led).suit


# ---- tricks ---------------------------------------------------------------------------------
def trick_winner(plays: Sequence["str | Card"]) -> int:
    """Index (into ``plays``, play order, first card led) of the card that wins the trick.

    The highest submarine wins if any submarine was played; otherwise the highest card of the led
    colour. A card of another colour never wins, whatever its value (rule ``crew.trick.winner``).
    """
    played = cards(plays)
    if not played:
        raise InvalidMoveError("a trick needs at least one card")
    if len(set(played)) != len(played):
        raise InvalidMoveError(f"a card appears twice in the trick {' '.join(map(str, played))}")
    return _winner_index(played)


def _winner_index(played: Sequence[Card]) -> int:
    best = 0
    best_card = played[0]
    for i in range(1, len(played)):
        c = played[i]
        if c.suit == best_card.suit:
            if c.value > best_card.value:
                best, best_card = i, c
        elif c.suit == SUBMARINE:
            best, best_card = i, c
    return best


def legal_plays(hand: Iterable["str | Card"], led: "str | Card | None" = None) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick led with ``led`` (``None``: you lead).

    You must follow the led suit if you can — a submarine lead asks for a submarine — otherwise any card
    is allowed. Nobody is obliged to play higher.
    """
    held = _hand(hand)
    suit = _led_suit(led)
    if suit is None:
        return sorted(held)
    following = [c for c in held if c.suit == suit]
    return sorted(following or held)


def why_illegal_play(hand: Iterable["str | Card"], card: "str | Card",
                     led: "str | Card | None" = None) -> Violation | None:
    """``None`` if ``card`` may be played from ``hand`` now, else the reason with its rule id."""
    held = _hand(hand)
    played = Card.parse(card)
    if played not in held:
        return Violation("CREW_NOT_IN_HAND", "crew.trick.own-card", card=played,
                         hand=list(sorted(held)) or "-")
    suit = _led_suit(led)
    if suit is None or played.suit == suit:
        return None
    same = sorted(c for c in held if c.suit == suit)
    if not same:
        return None
    if suit == SUBMARINE:
        return Violation("CREW_MUST_FOLLOW_SUBMARINE", "crew.trick.submarine-lead", card=played, cards=same)
    return Violation("CREW_MUST_FOLLOW", "crew.trick.follow", card=played, colour=suit_term(suit), cards=same)


# ---- sonar ----------------------------------------------------------------------------------
def sonar_options(hand: Iterable["str | Card"]) -> dict[Card, str]:
    """Every card of ``hand`` that may be communicated, with its sonar position.

    ``"top"``: the highest card of its colour in the hand; ``"bottom"``: the lowest; ``"middle"``: the
    only card of its colour. Submarines are never communicated; a card between two others of its colour
    cannot be either.
    """
    held = _hand(hand)
    by_suit: dict[str, list[Card]] = {}
    for c in held:
        if c.suit != SUBMARINE:
            by_suit.setdefault(c.suit, []).append(c)
    options: dict[Card, str] = {}
    for suit in COLOURS:
        group = sorted(by_suit.get(suit, ()))
        if len(group) == 1:
            options[group[0]] = "middle"
        elif group:
            options[group[-1]] = "top"
            options[group[0]] = "bottom"
    return dict(sorted(options.items()))


def sonar_options_sorted(hand: tuple[Card, ...]) -> dict[Card, str] | None:
    """:func:`sonar_options` for a hand of cards in strictly ascending deck order (the engine keeps its
    hands so), in one pass: such a hand holds each colour as one run, submarines last. ``None`` when the
    hand is not in that order (or holds something else than cards), so the caller can fall back to
    :func:`sonar_options`, which checks and explains."""
    pairs = sonar_pairs_sorted(hand)
    return None if pairs is None else dict(pairs)


def sonar_pairs_sorted(hand: tuple[Card, ...]) -> list[tuple[Card, str]] | None:
    """``sonar_options_sorted(hand).items()`` as a list, without its dict (the engine's hot path): a dict keyed by cards calls
    ``Card.__hash__``, a Python method, for every card it stores, and every trick start asks this for
    every seat's new hand (issue 28.4). ``None`` when the hand is not in strictly ascending deck order."""
    out: list[tuple[Card, str]] = []
    first = last = None   # the first and the last card of the current colour run
    prev = -1
    for c in hand:
        if type(c) is not Card or c.index <= prev:
            return None
        prev = c.index
        if c.suit == SUBMARINE:
            continue   # never communicated; in ascending order only submarines can follow one
        if first is not None and c.suit != first.suit:
            if last is first:
                out.append((first, "middle"))
            else:
                out.append((first, "bottom"))
                out.append((last, "top"))
            first = None
        if first is None:
            first = c
        last = c
    if first is not None:
        if last is first:
            out.append((first, "middle"))
        else:
            out.append((first, "bottom"))
            out.append((last, "top"))
    return out


def parse_position(position: str) -> str:
    if not isinstance(position, str):   # a list or a dict would fail the look-up below unhashed
        raise InvalidMoveError(f"not a sonar position: {position!r:.60} (use top, bottom or middle)")
    p = position.strip().lower()
    aliases = {"high": "top", "highest": "top", "low": "bottom", "lowest": "bottom", "only": "middle",
               "上": "top", "下": "bottom", "中央": "middle"}
    p = aliases.get(p, p)
    if p not in POSITIONS:
        raise InvalidMoveError(f"not a sonar position: {position!r} (use top, bottom or middle)")
    return p


def why_illegal_sonar(hand: Iterable["str | Card"], card: "str | Card", position: str) -> Violation | None:
    """``None`` if ``card`` may be shown from ``hand`` with the token at ``position``, else the reason."""
    held = _hand(hand)
    shown = Card.parse(card)
    pos = parse_position(position)
    if shown not in held:
        return Violation("CREW_NOT_IN_HAND", "crew.trick.own-card", card=shown, hand=list(sorted(held)) or "-")
    if shown.is_submarine:
        return Violation("CREW_SONAR_SUBMARINE", "crew.sonar.no-submarine", card=shown)
    group = sorted(c for c in held if c.suit == shown.suit)
    truth = sonar_options(held).get(shown)
    if truth is None:
        return Violation("CREW_SONAR_NOT_EXTREME", "crew.sonar.position", card=shown,
                         colour=suit_term(shown.suit), cards=group)
    if truth != pos:
        return Violation("CREW_SONAR_WRONG_POSITION", "crew.sonar.position", card=shown,
                         position=Term(f"crew.sonar.{pos}"), truth=Term(f"crew.sonar.{truth}"),
                         colour=suit_term(shown.suit), cards=group)
    return None


# ---- the deal -------------------------------------------------------------------------------
HAND_SIZES = {3: (14, 13, 13), 4: (10, 10, 10, 10), 5: (8, 8, 8, 8, 8)}


def check_players(players: int, allowed: Iterable[int] = (3, 4, 5)) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidMoveError(f"the number of players must be a whole number, not {players!r}")
    allowed = tuple(allowed)
    if players not in allowed:
        raise IllegalMoveError(Violation("CREW_PLAYER_COUNT", "crew.deal.players", players=players,
                                         allowed=list(allowed)))
    return players


def tricks_in_mission(players: int) -> int:
    """40 // players tricks (13 with three players — one card is never played; also with TONOJA)."""
    check_players(players, (2, 3, 4, 5))
    seats = 3 if players == 2 else players
    return 40 // seats


def deal_from(chance: Chance, players: int) -> tuple[Chance, tuple[tuple[Card, ...], ...]]:
    """Shuffle the 40 cards (one chance event) and deal them round-robin from seat 0, hands sorted."""
    chance, order = chance.shuffled(DECK)
    hands = [[] for _ in range(players)]
    for i, c in enumerate(order):
        hands[i % players].append(c)
    # sorted by the deck index in C: the order of Card.__lt__, which sorted would call once per comparison
    return chance, tuple(tuple(sorted(h, key=_BY_INDEX)) for h in hands)


def deal(players: int, seed: int) -> list[tuple[Card, ...]]:
    """The 40 cards dealt to 3–5 players from ``seed`` (3: 14/13/13, 4: 10 each, 5: 8 each).

    Seat 0 receives the first card, so with three players seat 0 holds the fourteenth card. Two players
    use :func:`deal_tonoja`.
    """
    check_players(players)
    check_seed(seed, error=InvalidMoveError, type_error=InvalidMoveError)
    return list(deal_from(Chance(seed), players)[1])


def deal_tonoja_from(chance: Chance) -> tuple[Chance, tuple[tuple[Card, ...], ...],
                                                  tuple[tuple[Card | None, Card | None], ...]]:
    """The two-player setup: submarine 4 out, 39 shuffled, 7 face-down cards each under a face-up card,
    submarine 4 back into the other 25, 13 to each real player. Returns the two hands and TONOJA's seven
    columns as ``(face_down, face_up)``."""
    s4 = Card("S", 4)
    chance, order = chance.shuffled([c for c in DECK if c is not s4])
    columns = tuple((order[i], order[7 + i]) for i in range(7))
    chance, rest = chance.shuffled(list(order[14:]) + [s4])
    hands = (tuple(sorted(rest[0::2], key=_BY_INDEX)), tuple(sorted(rest[1::2], key=_BY_INDEX)))
    return chance, hands, columns


def deal_tonoja(seed: int) -> tuple[list[tuple[Card, ...]], list[tuple[Card, Card]]]:
    """Two players with TONOJA: the two 13-card hands and TONOJA's seven ``(face_down, face_up)`` columns."""
    check_seed(seed, error=InvalidMoveError, type_error=InvalidMoveError)
    _, hands, columns = deal_tonoja_from(Chance(seed))
    return list(hands), list(columns)


class Trick:
    """A completed trick: ``leader`` (the seat that led) and ``cards`` in play order.

    ``Trick(0, ["P9", "P7", "Y2", "P8"]).winner == 0``. Seats follow clockwise from the leader, one card
    each, so a complete trick has one card per seat and the seat of ``cards[i]`` is
    ``(leader + i) % len(cards)``. The winner is computed once, on construction (the solver reads it at
    every node).
    """

    __slots__ = ("leader", "cards", "winner", "winning_card", "mask")
    leader: int
    cards: tuple[Card, ...]
    winner: int
    winning_card: Card
    mask: int

    def __init__(self, leader: int, cards: Sequence["str | Card"]):
        if isinstance(leader, bool) or not isinstance(leader, int) or leader < 0:
            raise InvalidMoveError(f"a trick's leader must be a seat number, not {leader!r}")
        check_iterable("cards", cards)
        played = tuple(Card.parse(c) for c in cards)
        if not played:
            raise InvalidMoveError("a trick needs at least one card")
        m = mask_of(played)
        if m.bit_count() != len(played):
            raise InvalidMoveError(f"a card appears twice in the trick {' '.join(map(str, played))}")
        if leader >= len(played):
            raise InvalidMoveError(f"seat {leader} cannot lead a trick of {len(played)} cards")
        i = _winner_index(played)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "cards", played)
        object.__setattr__(self, "winner", (leader + i) % len(played))
        object.__setattr__(self, "winning_card", played[i])
        object.__setattr__(self, "mask", m)

    @classmethod
    def of_cards(cls, leader: int, played: tuple[Card, ...]) -> "Trick":
        """A trick from cards the caller has already checked (the engine's own tricks: no parsing)."""
        self = object.__new__(cls)
        i = _winner_index(played)
        m = 0
        for c in played:
            m |= c.bit
        # the slots' own setters: half the cost of object.__setattr__ (every trick's end, and every leaf
        # of the exact judge's last trick, makes one)
        _set_leader(self, leader)
        _set_cards(self, played)
        _set_winner(self, (leader + i) % len(played))
        _set_winning_card(self, played[i])
        _set_mask(self, m)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("tricks are immutable")

    @property
    def seats(self) -> tuple[int, ...]:
        """The seat that played each card, in play order."""
        n = len(self.cards)
        return tuple((self.leader + i) % n for i in range(n))

    def played_by(self, seat: int) -> Card:
        return self.cards[(seat - self.leader) % len(self.cards)]

    @property
    def led(self) -> Card:
        return self.cards[0]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Trick) and other.leader == self.leader and other.cards == self.cards

    def __hash__(self) -> int:
        return hash((self.leader, self.mask))

    def __repr__(self) -> str:
        return f"Trick({self.leader}, {[str(c) for c in self.cards]!r})"

    def __str__(self) -> str:
        return f"{self.leader}: {' '.join(map(str, self.cards))}"

    def __reduce__(self):
        return (Trick, (self.leader, self.cards))

    def to_json(self) -> dict:
        return {"leader": self.leader, "cards": [str(c) for c in self.cards]}

    @classmethod
    def from_json(cls, data: dict) -> "Trick":
        if not isinstance(data, dict) or set(data) != {"leader", "cards"} or not isinstance(data["cards"], list):
            raise InvalidMoveError(f"a trick is {{'leader': seat, 'cards': [...]}}, not {data!r}")
        return cls(data["leader"], data["cards"])


_set_leader, _set_cards, _set_winner, _set_winning_card, _set_mask = (
    getattr(Trick, name).__set__ for name in ("leader", "cards", "winner", "winning_card", "mask"))
