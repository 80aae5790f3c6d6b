"""The beginner: the rules of thumb a person uses at the table, from its view alone.

* **Allocation**: take the task that fits the hand best (you hold its card high, or cards above it, or
  submarines); pass when nothing fits and passing is allowed. A captain handing tasks out gives each to
  the seat it fits (its own hand is the only one it sees: the others get the rest in turn).
* **Predictions**: count the sure and likely winners in the hand.
* **Playing**: win your own task cards; never win another seat's task card or a card your task forbids;
  hand a partner the card it needs when it is winning the trick; lead a colour a partner needs a card
  of; otherwise play low and keep the high cards of the colours you need.
* **Sonar**: tell the table where a card a partner needs is (or your own top card of a colour you need);
  otherwise stay silent. **Distress**: never asked for; a gift is the lowest card no task needs.

Every decision's reason is a ``bots.crew.*`` rule (en + ja).

>>> import numpy as np
>>> from toolkit.crew import ENGINE
>>> state = ENGINE.new_state(3, players=4, mission=1)
>>> seat = ENGINE.decider(state)
>>> d = BeginnerBot().decide(ENGINE.observe(state, seat), ENGINE.legal_moves(state, seat), np.random.default_rng(0))
>>> d.move in ENGINE.legal_moves(state), d.reason.rule.startswith("bots.crew.")
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from toolkit.core.bots import Decision
from toolkit.core.explain import Event
from toolkit.crew.bots import own_moves
from toolkit.crew.cards import DECK, SUBMARINE, Card
from toolkit.crew.engine import (AssignAll, AssignTask, Distress, GiveCard, PassTask, PlayCard, Predict,
                                 Retry, Sonar, TakeTask)
from toolkit.crew.tasks import TASKS

__all__ = ["BeginnerBot", "TaskNeeds", "needs_of", "beats", "trick_winner_so_far"]

_SUIT_NAMES = {"blue": "B", "green": "G", "yellow": "Y", "pink": "P", "submarine": "S"}


def _matches(spec: Mapping[str, Any], card: Card) -> bool:
    if "card" in spec and str(card) != spec["card"]:
        return False
    if "suit" in spec and card.suit != _SUIT_NAMES[spec["suit"]]:
        return False
    if "suit_in" in spec and card.suit not in {_SUIT_NAMES[s] for s in spec["suit_in"]}:
        return False
    if "value" in spec and card.value != spec["value"]:
        return False
    if "value_in" in spec and card.value not in spec["value_in"]:
        return False
    if spec.get("colours_only") and card.suit == SUBMARINE:
        return False
    return True


@dataclass
class TaskNeeds:
    """What a seat's pending tasks ask of a trick, as a beginner reads them."""

    targets: set = field(default_factory=set)      # cards the seat must win
    avoid: set = field(default_factory=set)        # cards the seat must not win
    mood: int = 0                                  # > 0 wants tricks, < 0 wants none, 0 either


def needs_of(task_id: int) -> TaskNeeds:
    """A beginner's reading of one task: its target cards, forbidden cards and whether it wants tricks."""
    task = TASKS[task_id]
    p, cat = task.params, task.category
    out = TaskNeeds()
    if cat == "capture_cards":
        out.targets = {Card.parse(c) for c in p["cards"]}
        out.mood = 1
    elif cat == "capture_in_trick":
        out.targets = {Card.parse(p["card"])}
        out.mood = 1
    elif cat == "card_count":
        parts = p.get("all_of") or p.get("any_of") or [p]
        for part in parts:
            if part["cmp"] == "==" and part["n"] == 0:
                out.avoid |= {c for c in DECK if _matches(part["filter"], c)}
                out.mood = min(out.mood, 0)
            elif part["cmp"] == ">=" or part["n"] > 0:
                out.mood = 1
    elif cat == "trick_count":
        out.mood = -1 if p["n"] == 0 else 1
    elif cat == "trick_count_relative":
        out.mood = 1 if p["cmp"] == ">" else -1 if p["cmp"] == "<" else 0
    elif cat == "trick_positions":
        out.mood = 1 if p.get("must_win") and not p.get("only") else -1
    elif cat in ("streak", "win_trick_with", "trick_property", "card_count_compare", "trick_count_prediction"):
        out.mood = 1
    return out


def beats(card: Card, best: Card, led: str) -> bool:
    """Whether ``card`` beats ``best`` in a trick whose led suit is ``led``."""
    if card.suit == best.suit:
        return card.value > best.value
    if card.suit == SUBMARINE:
        return True
    return False


def trick_winner_so_far(leader: int, cards: Sequence[Card], seats: int) -> tuple[int, Card] | None:
    if not cards:
        return None
    led = cards[0].suit
    best_i = 0
    for i, c in enumerate(cards[1:], 1):
        if beats(c, cards[best_i], led):
            best_i = i
    return (leader + best_i) % seats, cards[best_i]


def _ev(code: str, rule: str, **params) -> Event:
    return Event(code, rule, **params)


class _Table:
    """The facts of one view a beginner reasons with."""

    def __init__(self, view: Mapping[str, Any]):
        self.view = view
        self.seat = view["seat"]
        self.seats = view["seats"]
        self.acting = view["current"] if view["current"] is not None else self.seat   # TONOJA's seat, or own
        self.hand = [Card.parse(c) for c in view["hand"]]
        self.tonoja_up = [Card.parse(c["face_up"]) for c in view["tonoja"] if c["face_up"]]
        won = {Card.parse(c) for t in view["memory"]["tricks"] for c in t["cards"]}
        self.table = [Card.parse(c) for c in view["trick"]["cards"]]
        self.played = won | set(self.table)
        self.needs: dict[int, TaskNeeds] = {}
        for t in view["tasks"]:
            if t["owner"] is None or t["status"] != "pending":
                continue
            n = self.needs.setdefault(t["owner"], TaskNeeds())
            one = needs_of(t["id"])
            n.targets |= {c for c in one.targets if c not in won}      # still to win (the table's too)
            n.avoid |= one.avoid
            n.mood = one.mood if n.mood == 0 else n.mood if one.mood == 0 else max(n.mood, one.mood)
        self.owner_of = {c: s for s, n in self.needs.items() for c in n.targets}

    def mine(self, seat: int) -> TaskNeeds:
        return self.needs.get(seat, TaskNeeds())

    def higher_unseen(self, card: Card, holding: Sequence[Card]) -> int:
        """Cards of ``card``'s suit above it that are neither played nor in ``holding``."""
        return sum(1 for c in DECK if c.suit == card.suit and c.value > card.value and c not in self.played
                   and c not in holding)

    def subs_out(self, holding: Sequence[Card]) -> int:
        return sum(1 for c in DECK if c.suit == SUBMARINE and c not in self.played and c not in holding)


class BeginnerBot:
    """Rule-following heuristics (see the module docstring)."""

    name = "beginner"

    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        seat = view["seat"]
        mine = own_moves(view, legal)
        if not mine:
            return Decision(None, _ev("BOT_NO_MOVE", "bots.random", seat=seat))
        t = _Table(view)
        kinds = {type(m) for m in mine}
        if view["decider"] != seat or kinds <= {Sonar}:
            return self._optional(t, mine)
        if kinds & {TakeTask, PassTask}:
            return self._take(t, mine)
        if AssignTask in kinds:
            return self._assign(t, mine)
        if AssignAll in kinds:
            return self._assign_all(t, mine)
        if Predict in kinds:
            return self._predict(t, mine)
        if GiveCard in kinds:
            return self._give(t, mine)
        if Retry in kinds:
            return Decision(next(m for m in mine if isinstance(m, Retry)), _ev("BOT_CREW_RETRY", "bots.crew.retry",
                                                                             seat=seat))
        plays = [m for m in mine if isinstance(m, PlayCard)]
        if plays:
            return self.play(t, plays)
        other = [m for m in mine if not isinstance(m, (Sonar, Distress))] or mine
        return Decision(other[0], _ev("BOT_RANDOM", "bots.random", seat=seat, options=len(other)))

    # ---- allocation ------------------------------------------------------------------------------
    @staticmethod
    def fit(task_id: int, hand: Sequence[Card]) -> tuple[float, list[Card]]:
        """How well a task suits ``hand`` (higher is better) and the cards that make it so."""
        need = needs_of(task_id)
        subs = [c for c in hand if c.suit == SUBMARINE]
        score, why = 0.0, []
        for target in need.targets:
            if target in hand:
                score += 1.0 + target.value / 9
                why.append(target)
            above = [c for c in hand if c.suit == target.suit and c.value > target.value]
            score += 0.6 * len(above)
            why += above
            length = sum(1 for c in hand if c.suit == target.suit)
            if target not in hand and length >= 4:
                score -= 0.5  # the holder may have to follow into my long suit: fine, but no edge
        if need.avoid:
            risky = [c for c in hand if c in need.avoid and c.value >= 7]
            score += 1.0 - 0.4 * len(risky)
        if need.mood > 0 and not need.targets:
            strong = [c for c in hand if c.value >= 8 or c.suit == SUBMARINE]
            score += 0.3 * len(strong)
            why += strong
        elif need.mood < 0:
            low = [c for c in hand if c.value <= 3 and c.suit != SUBMARINE]
            score += 0.25 * len(low) - 0.5 * len(subs)
            why += low
        score += 0.3 * len(subs) if need.targets else 0
        why += subs if need.targets else []
        return score, sorted(set(why))[:4]

    def _take(self, t: _Table, mine: list) -> Decision:
        hand = t.hand if t.acting == t.seat else t.tonoja_up
        takes = [m for m in mine if isinstance(m, TakeTask)]
        scored = sorted(((self.fit(m.task, hand), m) for m in takes), key=lambda x: -x[0][0])
        passing = next((m for m in mine if isinstance(m, PassTask)), None)
        if scored:
            (score, why), move = scored[0]
            if passing is None or score >= 1.0:
                return Decision(move, _ev("BOT_CREW_TAKE", "bots.crew.take", seat=t.acting, task=move.task,
                                          cards=", ".join(map(str, why)) or "-"))
        return Decision(passing, _ev("BOT_CREW_PASS", "bots.crew.take", seat=t.acting))

    def _assign(self, t: _Table, mine: list) -> Decision:
        assigns = [m for m in mine if isinstance(m, AssignTask)]
        owners = [x["owner"] for x in t.view["tasks"] if x["owner"] is not None]
        load = {s: owners.count(s) for s in range(t.seats)}
        best = None
        for m in assigns:
            score = self.fit(m.task, t.hand)[0] if m.seat == t.seat else 1.0
            score -= 0.8 * load.get(m.seat, 0)
            if best is None or score > best[0]:
                best = (score, m)
        move = best[1]
        return Decision(move, _ev("BOT_CREW_ASSIGN", "bots.crew.take", seat=t.seat, task=move.task, to=move.seat))

    def _assign_all(self, t: _Table, mine: list) -> Decision:
        tasks = [x["id"] for x in t.view["tasks"]]
        own = sum(self.fit(task, t.hand)[0] for task in tasks)
        chosen = next((m for m in mine if m.seat == t.seat), None) if own >= len(tasks) * 0.8 else None
        if chosen is None:
            chosen = next((m for m in mine if m.seat != t.seat), mine[0])
        return Decision(chosen, _ev("BOT_CREW_ASSIGN_ALL", "bots.crew.take", seat=t.seat, to=chosen.seat))

    def _predict(self, t: _Table, mine: list) -> Decision:
        hand = t.hand if t.acting == t.seat else t.tonoja_up
        estimate = sum(1.0 if c.suit == SUBMARINE and c.value >= 3 else 0.5 if c.suit == SUBMARINE
                       else 0.7 if c.value == 9 else 0.35 if c.value == 8 else 0 for c in hand)
        n = int(round(estimate))
        move = min((m for m in mine if isinstance(m, Predict)), key=lambda m: abs(m.tricks - n))
        return Decision(move, _ev("BOT_CREW_PREDICT", "bots.crew.predict", seat=t.acting, tricks=move.tricks))

    def _give(self, t: _Table, mine: list) -> Decision:
        gifts = [m for m in mine if isinstance(m, GiveCard)]
        needed = set(t.owner_of)
        move = min(gifts, key=lambda m: (m.card in needed, m.card.value, m.card))
        return Decision(move, _ev("BOT_CREW_GIFT", "bots.crew.gift", seat=t.seat, card=move.card))

    # ---- sonar -----------------------------------------------------------------------------------
    def _optional(self, t: _Table, mine: list) -> Decision:
        sonars = [m for m in mine if isinstance(m, Sonar)]
        shown = {Card.parse(c["card"]) for c in t.view["memory"]["sent"]}
        for m in sonars:
            owner = t.owner_of.get(m.card)
            if owner is not None and owner != t.seat and m.card not in shown:
                return Decision(m, _ev("BOT_CREW_SONAR_PARTNER", "bots.crew.sonar", seat=t.seat, card=m.card,
                                       owner=owner))
        own = t.mine(t.seat)
        for m in sonars:
            if m.position in ("top", "middle", None) and m.card not in shown and any(
                    c.suit == m.card.suit and c not in t.hand for c in own.targets) and m.card.value >= 7:
                return Decision(m, _ev("BOT_CREW_SONAR_OWN", "bots.crew.sonar", seat=t.seat, card=m.card))
        return Decision(None, _ev("BOT_CREW_SILENT", "bots.crew.sonar", seat=t.seat))

    # ---- playing ---------------------------------------------------------------------------------
    def play(self, t: _Table, plays: list) -> Decision:
        acting = t.acting
        cards = [m.card for m in plays]
        hand = t.hand if acting == t.seat else t.tonoja_up
        need = t.mine(acting)
        if len(cards) == 1:
            return self._out(cards[0], "BOT_CREW_ONLY", "bots.crew.low", acting)
        if not t.table:
            return self._lead(t, cards, hand, need, acting)
        return self._follow(t, cards, hand, need, acting)

    @staticmethod
    def _out(card: Card, code: str, rule: str, seat: int, **params) -> Decision:
        return Decision(PlayCard(card), _ev(code, rule, seat=seat, card=card, **params))

    def _lead(self, t: _Table, cards: list[Card], hand: list[Card], need: TaskNeeds, acting: int) -> Decision:
        others_targets = {c: s for c, s in t.owner_of.items() if s != acting}
        # 1. my own task card, when nothing unseen can beat it
        for c in sorted(cards, key=lambda c: -c.value):
            if c in need.targets and (t.higher_unseen(c, hand) == 0 and
                                      (c.suit == SUBMARINE or t.subs_out(hand) == 0)):
                return self._out(c, "BOT_CREW_WIN_OWN", "bots.crew.win-own", acting)
        # 2. the top card of a colour where a card I need is still out
        for target in need.targets:
            if target in hand:
                continue
            tops = [c for c in cards if c.suit == target.suit and c.value > target.value and
                    t.higher_unseen(c, hand) == 0]
            if tops:
                return self._out(max(tops), "BOT_CREW_DRAW_TARGET", "bots.crew.win-own", acting, target=target)
        # 3. lead low towards a partner who needs a card of that colour (and not the card itself)
        for target, owner in others_targets.items():
            low = [c for c in cards if c.suit == target.suit and c not in others_targets and c.value < target.value
                   and c.suit != SUBMARINE]
            if low:
                return self._out(min(low), "BOT_CREW_LEAD_PARTNER", "bots.crew.lead-partner", acting,
                                 target=target, owner=owner)
        # 4. otherwise: the lowest card of a colour that holds nobody's target, no submarine
        safe = [c for c in cards if c.suit != SUBMARINE and c not in others_targets and c not in need.targets]
        pool = safe or [c for c in cards if c.suit != SUBMARINE] or cards
        if need.mood > 0 and not need.targets:
            winners = [c for c in pool if t.higher_unseen(c, hand) == 0]
            if winners:
                return self._out(max(winners), "BOT_CREW_WIN_TRICK", "bots.crew.win-own", acting)
        return self._out(min(pool, key=lambda c: (c.value, c)), "BOT_CREW_LOW", "bots.crew.low", acting)

    def _follow(self, t: _Table, cards: list[Card], hand: list[Card], need: TaskNeeds, acting: int) -> Decision:
        seats = t.seats
        leader = t.view["trick"]["leader"]
        led = t.table[0].suit
        winner, best = trick_winner_so_far(leader, t.table, seats)
        after = [(leader + i) % seats for i in range(len(t.table) + 1, seats)]
        last = not after
        winning = [c for c in cards if beats(c, best, led)]
        losing = [c for c in cards if not beats(c, best, led)]
        on_table = set(t.table)
        mine_here = [c for c in on_table if c in need.targets]
        theirs_here = [(c, t.owner_of[c]) for c in on_table if c in t.owner_of and t.owner_of[c] != acting]
        forbidden_here = [c for c in on_table if c in need.avoid]
        # my task card is on the table, or I can put it there and win: win it
        own_in_hand = [c for c in cards if c in need.targets]
        if mine_here or own_in_hand:
            sure = [c for c in winning if last or t.higher_unseen(c, hand) == 0 or c.suit == SUBMARINE]
            choice = None
            if own_in_hand:
                choice = next((c for c in own_in_hand if c in sure), None)
            if choice is None and mine_here and winning:
                choice = min(sure) if sure else max(winning)
            if choice is not None:
                return self._out(choice, "BOT_CREW_WIN_OWN", "bots.crew.win-own", acting)
        # another seat's task card is on the table: let its owner win it
        if theirs_here:
            card, owner = theirs_here[0]
            if losing:
                dump = max(losing) if winner == owner or owner in after else min(losing)
                return self._out(dump, "BOT_CREW_LET_PARTNER", "bots.crew.let-partner", acting, target=card,
                                 owner=owner)
        # a partner is winning and needs a card I hold: hand it over (when nobody after can interfere)
        partner_needs = [c for c in cards if t.owner_of.get(c) == winner and winner != acting]
        if partner_needs and (last or best.suit == SUBMARINE or t.higher_unseen(best, hand) == 0):
            c = partner_needs[0]
            if not beats(c, best, led):
                return self._out(c, "BOT_CREW_GIVE_PARTNER", "bots.crew.give-partner", acting, owner=winner)
        # don't win a card my task forbids, or any trick when I want none
        if forbidden_here or need.mood < 0:
            if losing:
                return self._out(max(losing), "BOT_CREW_AVOID", "bots.crew.avoid", acting)
        others_targets = set(c for c, s in t.owner_of.items() if s != acting)
        keep = lambda c: (c in others_targets, c in need.targets, c.suit == SUBMARINE, c.value)  # noqa: E731
        if need.mood > 0 and winning and last:
            return self._out(min(winning), "BOT_CREW_WIN_TRICK", "bots.crew.win-own", acting)
        if losing:
            return self._out(min(losing, key=keep), "BOT_CREW_LOW", "bots.crew.low", acting)
        return self._out(min(cards, key=keep), "BOT_CREW_LOW", "bots.crew.low", acting)
