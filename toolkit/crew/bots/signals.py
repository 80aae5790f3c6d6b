"""The expert's sonar communication and distress signal, decided by the same sampled deals as its cards.

**Communication** (one sonar token, at the start of a trick). What a communication is worth is what the
partners learn from it about cards that matter:

* *which cards matter* comes from sampling: deals consistent with the seat's view
  (:func:`~toolkit.crew.bots.sampler.sample_deals`) are solved double-dummy from the trick start; a card
  matters in a deal when it wins a trick of the winning line, and always when a pending task names it.
  ``weight(x)`` = the share of the sampled deals in which ``x`` matters;
* *what the partners believe* about the seat's hand before and after: from the public facts alone (voids
  shown, earlier communications, hand sizes) a card ``x`` is in this seat's hand with probability
  ``belief(x)`` = this seat's hidden cards / the hidden cards of every seat that may hold ``x``. The
  communication makes the shown card certain (``belief`` 1) and rules out for this seat the cards its
  position excludes (higher ones for "top", lower for "bottom", every other card of the colour for
  "middle"), which partners then place with certainty elsewhere.

``value(card, position)`` = weight(card) × (1 − belief(card)) + Σ weight(x) × belief(x) over the cards
``x`` the position rules out: the expected number of cards that matter whose holder the partners learn.
The best communication is made when its value reaches :data:`SONAR_THRESHOLD` (0.5: half a card that
matters); otherwise the seat stays silent *now* (the token is kept for a later trick, when the lines are
clearer). Partners' own hands, which sharpen their beliefs further, are not modelled.

**Distress signal** (crew decision before the first card, by the first leader). The deals are solved as
they are and after the exchange — each seat passing the card the beginner's rule picks (the lowest card
no task names; the seats' real choices are unknown) — for both directions. The signal is given when the
exchange makes the mission winnable in at least :data:`DISTRESS_GAIN` more of the deals (a quarter) than
without it. **A gift** is chosen by the same deals: the card after whose passing every task stays
winnable in the most deals (others' gifts as the beginner's rule).

>>> import numpy as np
>>> from toolkit.crew import ENGINE
>>> state = ENGINE.new_state(4, players=4, mission=2)
>>> while state.phase != "play":
...     state = ENGINE.apply(state, ENGINE.legal_moves(state)[0])
>>> view = ENGINE.observe(state, 1)
>>> belief = partner_belief(view)
>>> all(0 <= p <= 1 for p in belief.values())
True
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence


from toolkit.crew.cards import Card

__all__ = ["SONAR_THRESHOLD", "DISTRESS_GAIN", "partner_belief", "sonar_values", "matter_weights",
           "gift_scores", "distress_gain"]

#: the value (expected cards that matter whose holder partners learn) a communication needs to be made now
SONAR_THRESHOLD = 0.5
#: the share of sampled deals the distress exchange must turn winnable (over not signalling)
DISTRESS_GAIN = 0.25


def _public_hidden(view: Mapping[str, Any]) -> tuple[list[int], list[Card]]:
    """Per seat the number of cards the *public* cannot see (TONOJA: face-down), and those cards'
    candidates: every card not played and not face up (this seat's hand included)."""
    from toolkit.crew.cards import DECK

    seats, tonoja = view["seats"], view["tonoja_seat"]
    played = {Card.parse(c) for t in view["memory"]["tricks"] for c in t["cards"]}
    played |= {Card.parse(c) for c in view["trick"]["cards"]}
    up = {Card.parse(c["face_up"]) for c in view["tonoja"] if c["face_up"]}
    sizes = [sum(1 for c in view["tonoja"] if c["face_down"]) if s == tonoja else view["hand_sizes"][s]
             for s in range(seats)]
    return sizes, [c for c in DECK if c not in played and c not in up]


def partner_belief(view: Mapping[str, Any], extra: tuple[Card, str | None] | None = None) -> dict[Card, float]:
    """For every card the public cannot see: the probability, from the public facts alone (voids, every
    communication, hand sizes), that it is in the viewing seat's hand — the seat's hidden cards over the
    hidden cards of every seat that may hold it. ``extra``: a communication of this seat, as if made."""
    seat, seats, tonoja = view["seat"], view["seats"], view["tonoja_seat"]
    sizes, hidden = _public_hidden(view)
    voids = view["memory"]["voids"]
    sent = [(e["seat"], Card.parse(e["card"]), e["position"]) for e in view["memory"]["sent"]]
    if extra is not None:
        sent.append((seat, extra[0], extra[1]))
    allowed = {c: {s for s in range(seats) if sizes[s]} for c in hidden}
    for s in range(seats):
        if s == tonoja:
            continue
        for c in hidden:
            if c.suit in voids[s]:
                allowed[c].discard(s)
    for s, card, pos in sent:
        if card in allowed:
            allowed[card] = {s}
        for c in hidden:
            if c.suit != card.suit or c == card:
                continue
            if pos == "middle" or (pos == "top" and c.value > card.value) or (pos == "bottom" and c.value < card.value):
                allowed[c].discard(s)
    out = {}
    for c, where in allowed.items():
        total = sum(sizes[s] for s in where)
        out[c] = sizes[seat] / total if seat in where and total else 0.0
    return out


def matter_weights(view: Mapping[str, Any], lines: Sequence[Sequence[tuple[int, tuple[int, ...]]] | None],
                   deals: int) -> dict[Card, float]:
    """Per card: the share of ``deals`` sampled deals in which it matters — it wins a trick of the deal's
    winning line (``lines``: one per deal, ``None`` when the solve found none) — or 1 when a pending task
    names it."""
    from toolkit.crew.bots.beginner import needs_of
    from toolkit.crew.solver import card_of

    weights: dict[Card, float] = {}
    for line in lines:
        if not line:
            continue
        for _, codes in line:
            best = 0
            for i in range(1, len(codes)):
                if _beats(codes[i], codes[best], codes[0]):
                    best = i
            card = card_of(codes[best])
            weights[card] = weights.get(card, 0.0) + 1.0 / max(1, deals)
    for t in view["tasks"]:
        if t["status"] == "pending":
            for c in needs_of(t["id"]).targets:
                weights[c] = 1.0
    return weights


def _beats(a: int, b: int, led: int) -> bool:
    from toolkit.crew.solver.search import _strength
    from toolkit.crew.solver.encoding import _COLOUR

    return _strength(a, _COLOUR[led]) > _strength(b, _COLOUR[led])


def sonar_values(view: Mapping[str, Any], options: Sequence[tuple[Card, str | None]],
                 weights: Mapping[Card, float]) -> dict[tuple[Card, str | None], float]:
    """``value(card, position)`` of each communication in ``options`` (see the module docstring)."""
    before = partner_belief(view)
    hand = {Card.parse(c) for c in view["hand"]}
    out = {}
    for card, pos in options:
        after = partner_belief(view, (card, pos))
        value = 0.0
        for x, p in before.items():
            w = weights.get(x, 0.0)
            if not w:
                continue
            truth_before = p if x in hand else 1 - p
            truth_after = after[x] if x in hand else 1 - after[x]
            value += w * max(0.0, truth_after - truth_before)
        out[(card, pos)] = value
    return out


def exchanged(hands: Sequence[Sequence[Card]], gifts: Mapping[int, Card], direction: int,
              givers: Sequence[int]) -> list[list[Card]]:
    """``hands`` after every giver passes its gift to the next giver in ``direction`` (+1 left, -1 right)."""
    ring = sorted(givers)
    out = [list(h) for h in hands]
    for s in ring:
        out[s].remove(gifts[s])
    for k, s in enumerate(ring):
        out[ring[(k + direction) % len(ring)]].append(gifts[s])
    return [sorted(h) for h in out]


def rule_gift(view: Mapping[str, Any], hand: Sequence[Card]) -> Card | None:
    """The beginner's gift from ``hand``: the lowest colour card no pending task names."""
    from toolkit.crew.bots.beginner import needs_of

    needed = {c for t in view["tasks"] if t["owner"] is not None for c in needs_of(t["id"]).targets}
    colour = [c for c in hand if not c.is_submarine]
    return min(colour, key=lambda c: (c in needed, c.value, c)) if colour else None


def givers_of(view: Mapping[str, Any]) -> list[int]:
    return [s for s in range(view["seats"]) if s != view["tonoja_seat"]]


def gift_scores(view: Mapping[str, Any], candidates: Sequence[Card], deals: Sequence, direction: int,
                winnable) -> tuple[dict[Card, float], int]:
    """Per candidate gift: in how many ``deals`` every task stays winnable after the exchange (the other
    givers passing the beginner's card). ``winnable(hands) -> True/False/None`` solves one deal."""
    seat = view["seat"]
    givers = givers_of(view)
    scores = {c: 0.0 for c in candidates}
    for hands in deals:
        gifts = {s: rule_gift(view, hands[s]) for s in givers if s != seat}
        if any(g is None for g in gifts.values()):
            continue
        for c in candidates:
            w = winnable(exchanged(hands, {**gifts, seat: c}, direction, givers))
            scores[c] += 1.0 if w else 0.5 if w is None else 0.0
    return scores, len(deals)


def distress_gain(view: Mapping[str, Any], deals: Sequence, winnable) -> tuple[str, float, float]:
    """(best direction, winnable share without the signal, with it): every giver (this seat too) passing
    the beginner's card, in each direction."""
    givers = givers_of(view)
    base = sum(_score(winnable(h)) for h in deals)
    best = ("left", -1.0)
    for name, d in (("left", 1), ("right", -1)):
        total = 0.0
        for hands in deals:
            gifts = {s: rule_gift(view, hands[s]) for s in givers}
            if any(g is None for g in gifts.values()):
                total += _score(winnable(hands))
                continue
            total += _score(winnable(exchanged(hands, gifts, d, givers)))
        if total > best[1]:
            best = (name, total)
    n = max(1, len(deals))
    return best[0], base / n, best[1] / n


def _score(w: bool | None) -> float:
    return 1.0 if w else 0.5 if w is None else 0.0
