"""Deals consistent with what one seat knows: the expert's determinization.

:func:`knowledge` reads a seat's view (``ENGINE.observe(state, seat)``) into the facts it holds about the
hidden cards; :func:`sample_deals` draws full deals (every seat's current hand) that agree with all of them:

* its own hand, every card played (the tricks of ``view["memory"]`` and the trick on the table) and
  TONOJA's face-up cards are known; every other card is *unseen*;
* each other hand has its known size (TONOJA: its face-down cards);
* a seat that did not follow a suit holds none of it (``memory["voids"]``; never TONOJA, whose face-down
  cards turn up later);
* a communicated card still unplayed is in its seat's hand; what its position said holds for the hand of
  that moment — the cards it holds now plus those it played since (``"top"``: no higher card of that
  colour, and at least one lower; ``"bottom"``: the reverse; ``"middle"``: no other card of that colour;
  under currents, no position: the card was top, bottom or alone);
* a card this seat passed at the distress signal, and not played since, is in its receiver's hand.

The per-card facts (a seat that cannot hold a card) are sampled *exactly* uniformly: cards with the same
set of possible seats are exchangeable, so the sampler counts the completions per group of cards and
seats (a small dynamic programme over the groups) and draws each group's split with its exact weight.
The facts that tie two cards (a "top" needs a lower card at that moment) are checked afterwards, and a
deal breaking one is drawn again (rejection keeps the distribution uniform among consistent deals).

>>> import numpy as np
>>> from toolkit.crew import ENGINE
>>> state = ENGINE.new_state(3, players=4, mission=1)
>>> view = ENGINE.observe(state, 0)
>>> deals = sample_deals(view, 5, np.random.default_rng(1))
>>> [sorted(map(str, d[0])) == sorted(view["hand"]) for d in deals]
[True, True, True, True, True]
>>> sorted(len(h) for h in deals[0])
[10, 10, 10, 10]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any, Mapping, Sequence

import numpy as np

from toolkit.core.errors import RuleError
from toolkit.crew.cards import DECK, Card, sonar_options

__all__ = ["Knowledge", "SamplingError", "knowledge", "sample_deals", "consistent", "tonoja_columns"]


class SamplingError(RuleError):
    """No deal agrees with the view (a view that was not produced by the engine), or the view is malformed."""


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about the cards, read from its view (see the module docstring)."""

    seat: int
    seats: int                              # seats at the table, TONOJA included
    tonoja: int | None
    hand: tuple[Card, ...]
    tonoja_up: tuple[Card, ...]             # TONOJA's face-up cards (its playable hand)
    sizes: tuple[int, ...]                  # hidden cards per seat (own: 0; TONOJA: face-down count)
    played: frozenset[Card]                 # every card played this attempt (tricks and the table)
    unseen: tuple[Card, ...]
    allowed: Mapping[Card, tuple[int, ...]]  # per unseen card: the seats that may hold it
    # Facts tying cards: (seat, card, position, plays since) for each communication of another seat
    sent: tuple[tuple[int, Card, str | None, tuple[Card, ...]], ...]


def _plays_by_seat(view: Mapping[str, Any]) -> list[list[tuple[int, Card]]]:
    """Per seat: (trick index, card) of every card it played this attempt, the table's trick included."""
    seats = view["seats"]
    out: list[list[tuple[int, Card]]] = [[] for _ in range(seats)]
    tricks = list(view["memory"]["tricks"]) + [dict(view["trick"], winner=None)]
    for k, t in enumerate(tricks):
        for i, c in enumerate(t["cards"]):
            out[(t["leader"] + i) % seats].append((k, Card.parse(c)))
    return out


def knowledge(view: Mapping[str, Any]) -> Knowledge:
    """The facts of ``view`` about the hidden cards (see the module docstring)."""
    try:
        seat, seats, tonoja = view["seat"], view["seats"], view["tonoja_seat"]
        hand = tuple(Card.parse(c) for c in view["hand"])
        memory = view["memory"]
    except (KeyError, TypeError) as exc:
        raise SamplingError(f"not a Crew seat's view: missing {exc}") from None
    if seat is None:
        raise SamplingError("a spectator's view (seat None) holds no hand to sample around")
    tonoja_up = tuple(Card.parse(c["face_up"]) for c in view["tonoja"] if c["face_up"])
    plays = _plays_by_seat(view)
    played = frozenset(c for p in plays for _, c in p)
    known = set(hand) | set(played) | set(tonoja_up)
    unseen = tuple(c for c in DECK if c not in known)
    sizes = []
    for s in range(seats):
        if s == seat:
            sizes.append(0)
        elif s == tonoja:
            sizes.append(sum(1 for c in view["tonoja"] if c["face_down"]))
        else:
            sizes.append(view["hand_sizes"][s])
    if sum(sizes) != len(unseen):
        raise SamplingError(f"the view's hand sizes {sizes} do not add up to the {len(unseen)} unseen cards")
    others = [s for s in range(seats) if s != seat]
    allowed: dict[Card, set[int]] = {c: set(others) for c in unseen}
    for s in others:
        if sizes[s] == 0:
            for c in unseen:
                allowed[c].discard(s)
    voids = memory["voids"]
    for s in others:
        if s == tonoja:
            continue
        for suit in voids[s]:
            for c in unseen:
                if c.suit == suit:
                    allowed[c].discard(s)
    sent = []
    for entry in memory["sent"]:
        s, card, pos, k = entry["seat"], Card.parse(entry["card"]), entry["position"], entry["trick"]
        if s == seat:
            continue
        since = tuple(c for kk, c in plays[s] if kk >= k)
        if card in allowed:                       # not played yet: still in that hand
            allowed[card] = {s}
        for c in unseen:
            if c.suit != card.suit or c is card:
                continue
            if pos == "middle" or (pos == "top" and c.value > card.value) or (pos == "bottom" and c.value < card.value):
                allowed[c].discard(s)
        sent.append((s, card, pos, since))
    for entry in memory["passed"]:
        if entry["giver"] == seat:
            card = Card.parse(entry["card"])
            if card in allowed:
                allowed[card] = {entry["receiver"]}
    frozen = {c: tuple(sorted(v)) for c, v in allowed.items()}
    for c, v in frozen.items():
        if not v:
            raise SamplingError(f"no seat may hold {c}: the view contradicts itself")
    return Knowledge(seat, seats, tonoja, hand, tonoja_up, tuple(sizes), played, unseen, frozen, tuple(sent))


def consistent(know: Knowledge, hands: Sequence[Sequence[Card]]) -> bool:
    """Whether the hidden part of ``hands`` (per seat: its current cards; TONOJA: face-up and face-down)
    agrees with the facts that tie cards together (the per-card facts are the sampler's by construction)."""
    for s, card, pos, since in know.sent:
        then = set(hands[s]) | set(since)
        options = sonar_options(then)
        if card not in options:
            return False
        if pos is not None and options[card] != pos:
            return False
    return True


def _groups(know: Knowledge) -> list[tuple[tuple[int, ...], list[Card]]]:
    by: dict[tuple[int, ...], list[Card]] = {}
    for c in know.unseen:
        by.setdefault(know.allowed[c], []).append(c)
    # the most constrained groups first: fewer seats, then more cards (smaller tables in the DP)
    return sorted(by.items(), key=lambda kv: (len(kv[0]), -len(kv[1]), kv[0]))


def _splits(n: int, seats: tuple[int, ...], caps: tuple[int, ...]):
    """Every way to split n cards among ``seats`` within ``caps``: tuples of counts, one per seat."""
    if len(seats) == 1:
        if n <= caps[seats[0]]:
            yield (n,)
        return
    first = seats[0]
    for k in range(min(n, caps[first]) + 1):
        for rest in _splits(n - k, seats[1:], caps):
            yield (k,) + rest


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out, left = 1, n
    for k in parts:
        out *= comb(left, k)
        left -= k
    return out


def _sampler(groups: list[tuple[tuple[int, ...], int]]):
    """The exact completion counter over ``groups`` ((seats, number of cards) each)."""

    @lru_cache(maxsize=None)
    def count(i: int, caps: tuple[int, ...]) -> int:
        if i == len(groups):
            return 1 if not any(caps) else 0
        seats, n = groups[i]
        total = 0
        for split in _splits(n, seats, caps):
            rest = list(caps)
            for s, k in zip(seats, split):
                rest[s] -= k
            sub = count(i + 1, tuple(rest))
            if sub:
                total += _multinomial(n, split) * sub
        return total

    return count


def sample_deals(view: Mapping[str, Any], n: int, rng: np.random.Generator, *, max_tries: int = 50,
                 know: Knowledge | None = None) -> list[list[list[Card]]]:
    """``n`` deals consistent with ``view`` (drawn uniformly among the consistent ones): each a list of
    hands, one per seat (TONOJA: its face-up cards, then one card per face-down slot in column order, see
    :func:`tonoja_columns`; every other hand sorted), the viewing seat's own hand as it is.

    A deal breaking a fact that ties cards is drawn again, up to ``max_tries`` times per deal; after that
    the deals found so far are returned (possibly fewer than ``n``: never an inconsistent one).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise TypeError(f"n must be a whole number of deals, not {n!r}")
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy Generator, not {rng!r}")
    know = know or knowledge(view)
    groups = _groups(know)
    shape = [(seats, len(cards)) for seats, cards in groups]
    count = _sampler(shape)
    caps0 = know.sizes
    if count(0, caps0) == 0:
        raise SamplingError("no deal agrees with every fact of the view")
    out: list[list[list[Card]]] = []
    tries = 0
    while len(out) < n and tries < n * max_tries:
        tries += 1
        hands: list[list[Card]] = [[] for _ in range(know.seats)]
        caps = list(caps0)
        for i, (seats, cards) in enumerate(groups):
            options, weights = [], []
            for split in _splits(len(cards), seats, tuple(caps)):
                rest = list(caps)
                for s, k in zip(seats, split):
                    rest[s] -= k
                w = _multinomial(len(cards), split) * count(i + 1, tuple(rest))
                if w:
                    options.append((split, rest))
                    weights.append(w)
            total = sum(weights)
            # exact big-int weights: draw an integer below the total and walk the cumulative sums
            pick = _draw_below(total, rng)
            for (split, rest), w in zip(options, weights):
                if pick < w:
                    break
                pick -= w
            order = [cards[j] for j in rng.permutation(len(cards))]
            at = 0
            for s, k in zip(seats, split):
                hands[s] += order[at:at + k]
                at += k
            caps = rest
        hands[know.seat] = list(know.hand)
        if know.tonoja is not None:
            # the face-down cards in the order of their columns (see ``tonoja_columns``): a uniform order,
            # as every column is alike to every seat (the groups above came in a fixed order)
            down = hands[know.tonoja]
            hands[know.tonoja] = list(know.tonoja_up) + [down[j] for j in rng.permutation(len(down))]
        if consistent(know, hands):
            out.append([h if s == know.tonoja else sorted(h) for s, h in enumerate(hands)])
    return out


def tonoja_columns(view: Mapping[str, Any], tonoja_hand: Sequence[Card]) -> list[tuple[Card, Card]]:
    """TONOJA's closed columns in a sampled deal, as ``(face_down, face_up)`` pairs for the solver's
    ``columns``: ``tonoja_hand`` as :func:`sample_deals` gives it (the face-up cards, then one card per
    face-down slot of ``view["tonoja"]``, in column order). A column whose face-up card TONOJA has just
    played (the trick still on the table) lies under that card: it turns up after this trick. Empty when
    the view has no TONOJA.

    >>> from toolkit.crew import ENGINE
    >>> import numpy as np
    >>> view = ENGINE.observe(ENGINE.new_state(1, players=2, mission=1), 0)
    >>> deal = sample_deals(view, 1, np.random.default_rng(0))[0]
    >>> columns = tonoja_columns(view, deal[view["tonoja_seat"]])
    >>> [str(up) for _, up in columns] == [c["face_up"] for c in view["tonoja"]]
    True
    """
    tonoja = view["tonoja_seat"]
    if tonoja is None:
        return []
    slots = [c for c in view["tonoja"] if c["face_down"]]
    trick = view["trick"]
    on_table = None
    for i, c in enumerate(trick["cards"]):
        if (trick["leader"] + i) % view["seats"] == tonoja:
            on_table = Card.parse(c)
    # (any hand order works: the cards that are neither face up nor on the table, in the hand's order)
    face_up = {Card.parse(c["face_up"]) for c in view["tonoja"] if c["face_up"]}
    down = [c for c in tonoja_hand if c not in face_up and c != on_table]
    if len(down) != len(slots):
        raise SamplingError(f"TONOJA's hand {list(tonoja_hand)} has no card for each of its {len(slots)} "
                            "face-down slots")
    out = []
    for column, card in zip(slots, down):
        cover = Card.parse(column["face_up"]) if column["face_up"] else on_table
        if cover is None:
            raise SamplingError("a face-down slot of TONOJA with no card above it and none on the table")
        out.append((card, cover))
    return out


def _draw_below(total: int, rng: np.random.Generator) -> int:
    """A uniform integer in [0, total) for a total of any size."""
    if total < 2 ** 62:
        return int(rng.integers(total))
    bits = total.bit_length()
    while True:
        words = rng.integers(0, 2 ** 32, size=(bits + 31) // 32, dtype=np.uint64)
        value = 0
        for w in words:
            value = value << 32 | int(w)
        value >>= (len(words) * 32 - bits)
        if value < total:
            return value
