"""Deep Blue bots: every decision of the game from ``observe(state, seat)`` alone.

Levels (``BOTS``, strongest first):

* ``"policy"`` — dive decisions from the exact optimal policy (:mod:`toolkit.deepblue.coach`, the
  layer-by-layer solver of :mod:`toolkit.deepblue.risk`): as leader it draws while going on is worth more
  expected VP than stopping; as another diver it leaves when its own optimal policy would stop; at a check
  with several protections it spends the one that leaves the most expected VP for the rest of the dive
  (ties: the scouting spot, which is lost after the dive anyway, before a crew card).
* ``"stop-after-3"`` and ``"stop-after-5"`` — the fixed rule "draw k gems, then stop" (as another diver: leave
  after k draws); protections in the engine's order.
* ``"random"`` — uniform over the seat's legal moves; as another diver it acts after half of the draws.

Hire, sail, rest and starting a dive follow one documented heuristic shared by the non-random levels
(:class:`Planner`), so a study compares dive play alone:

1. **Dive** when a boat stands on a face-up wreck tile (on a scouting spot or its centre): the boat whose
   tile promises most (leader bonus + :data:`SPOT_WORTH` of its spot).
2. **Sail** when propellers (crew cards and starter tokens) reach a wreck tile with a free scouting spot
   that is worth more than where the boat is: pay with the propeller cards worth least to keep
   (:func:`card_worth`) that still cover the distance; land on the spot worth most.
3. **Hire** the market card worth most for its price (:func:`card_worth` ≥ price) if affordable, paying
   with the cards worth least to keep (the minimal payments the engine lists: no spare card is wasted).
4. **Rest** when at least two cards are used; otherwise hire anything affordable, sail anywhere, or rest.

Scoring crew cards are played as soon as they can be (their VP is kept after a bust by the default ruling;
playing early never costs VP). Joining a dive is always worth it (a diver may leave after any draw), except
with a boat that holds a scouting spot of another face-up wreck, which joining would give up.

>>> from toolkit.core.bots import play_out
>>> from toolkit.deepblue import ENGINE
>>> state, moves = play_out(ENGINE, 7, ["policy", "stop-after-3"], players=2)
>>> ENGINE.is_over(state)
True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from toolkit.core.bots import Decision
from toolkit.core.errors import InvalidMoveError
from toolkit.core.explain import Event
from toolkit.deepblue.coach import DiveAdvice, diver_inputs, dive_advice, protection_value
from toolkit.deepblue.components import Components, components_or_default
from toolkit.deepblue.model import (Anchor, ChooseSpot, Decline, DrawGem, Hire, Join, Leave, MoveBoat, PlayCard,
                                    Protect, Rest, SetSail, StartDive, Stop)

__all__ = ["BOTS", "PolicyBot", "FixedStopBot", "DeepBlueRandomBot", "Planner", "card_worth", "SPOT_WORTH"]

#: What a scouting spot adds to a dive, in VP (a rough mean from the exact policy on the setup bag):
#: treasure spots raise one colour's VP, hazard spots are one protection, ``"any"`` covers both colours.
SPOT_WORTH: Mapping[str | None, float] = {"red": 3.0, "gold": 3.0, "silver": 2.5, "any": 2.5, "black": 1.5,
                                          "blue": 1.5, None: 0.0}
#: The worth of a face-down tile: the mean leader bonus of a wreck plus a typical spot.
FACE_DOWN_WORTH = 4.0
#: Base worth of any dive (expected treasure of a few draws on the setup bag).
DIVE_WORTH = 3.0


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.0f}"


def _vp(x: Fraction | float) -> str:
    return f"{float(x):.1f}"


def card_worth(comps: Components, card_id: int) -> float:
    """How much a crew card in hand is worth keeping (a documented guess, in VP-like units)."""
    if not isinstance(comps, Components):
        raise TypeError(f"comps must be Components, not {comps!r:.60}")
    try:
        c = comps.card(card_id)
    except (KeyError, TypeError):
        raise InvalidMoveError(f"card_id {card_id!r:.60} is not a crew card") from None
    return c.score_vp + 1.0 * c.propellers + 0.8 * c.cash + (1.5 if c.protection else 0.0)


def _mine(view: Mapping[str, Any], legal: Sequence[Any]) -> list:
    seat = view.get("seat")
    return [m for m in legal if getattr(m, "seat", None) == seat]


class Planner:
    """The hire/sail/rest/start-dive heuristic shared by the non-random levels (see the module docstring)."""

    def __init__(self, comps: Components | None = None):
        self.comps = components_or_default(comps)

    # -- what places are worth ---------------------------------------------------------------
    def _tile(self, view, site):
        return next((t for t in view["tiles"] if t["site"] == site), None)

    def _free_spots(self, view, site) -> list[int]:
        tile = self._tile(view, site)
        if tile is None:
            return []
        taken = {b["spot"] for p in view["players"] for b in p["boats"] if b["site"] == site and b["spot"] >= 0}
        n = len(tile["spots"]) if tile.get("face_up") else 3
        return [i for i in range(n) if i not in taken]

    def spot_kind(self, view, boat) -> str | None:
        tile = self._tile(view, boat["site"])
        if tile is None or not tile.get("face_up") or boat["spot"] < 0 or boat["spot"] >= len(tile["spots"]):
            return None
        return tile["spots"][boat["spot"]]

    def tile_worth(self, view, site, spot: str | None = None) -> float:
        """A dive from ``site`` with ``spot``: leader bonus + a typical dive + the spot's worth."""
        tile = self._tile(view, site)
        if tile is None:
            return 0.0
        if not tile.get("face_up"):
            return FACE_DOWN_WORTH + DIVE_WORTH
        return tile["leader_bonus"] + DIVE_WORTH + SPOT_WORTH.get(spot, 0.0) + (1.0 if tile["sunken_city"] else 0.0)

    def best_landing(self, view, site) -> float:
        """What landing on ``site`` is worth: its best free spot (0 if there is none or no tile)."""
        tile = self._tile(view, site)
        free = self._free_spots(view, site)
        if tile is None or not free:
            return 0.0
        if not tile.get("face_up"):
            return self.tile_worth(view, site)
        return max(self.tile_worth(view, site, tile["spots"][i]) for i in free)

    def boat_worth(self, view, boat) -> float:
        tile = self._tile(view, boat["site"])
        if tile is None or not tile.get("face_up"):
            return 0.0
        return self.tile_worth(view, boat["site"], self.spot_kind(view, boat))

    # -- the action phase --------------------------------------------------------------------
    def action(self, view, mine: list, rng) -> Decision:
        seat = view["seat"]
        me = view["players"][seat]
        hand = me["hand"]
        comps = self.comps
        dives = [m for m in mine if isinstance(m, StartDive)]
        if dives:
            best = max(dives, key=lambda m: self.boat_worth(view, me["boats"][m.boat]))
            boat = me["boats"][best.boat]
            return Decision(best, Event("BOT_DB_START_DIVE", "bots.deepblue.start-dive", seat=seat, site=boat["site"],
                                        worth=_vp(self.boat_worth(view, boat))))
        # sailing: the best gain reachable with what we can pay
        budget = sum(comps.card(c).propellers for c in hand) + me["tokens"]
        target = self.best_sail(view, me, budget)
        if target is not None:
            gain, boat_i, site, dist = target
            sails = [m for m in mine if isinstance(m, SetSail)
                     and sum(comps.card(c).propellers for c in m.cards) + m.tokens >= dist]
            if sails:
                pay = min(sails, key=lambda m: (sum(card_worth(comps, c) for c in m.cards) + 0.6 * m.tokens,
                                                len(m.cards) + m.tokens))
                return Decision(pay, Event("BOT_DB_SAIL", "bots.deepblue.sail", seat=seat, boat=boat_i, site=site,
                                           steps=dist, gain=_vp(gain)))
        hires = [m for m in mine if isinstance(m, Hire)]
        market = view["market"]
        good = [m for m in hires if card_worth(comps, market[m.slot - 1]) >= m.slot]
        if good:
            return self._hire(view, good, "BOT_DB_HIRE")
        if len(me["used"]) >= 2:
            rest = next(m for m in mine if isinstance(m, Rest))
            return Decision(rest, Event("BOT_DB_REST", "bots.deepblue.rest", seat=seat, used=len(me["used"])))
        if hires:
            return self._hire(view, hires, "BOT_DB_HIRE_ANY")
        rest = next(m for m in mine if isinstance(m, Rest))
        return Decision(rest, Event("BOT_DB_REST", "bots.deepblue.rest", seat=seat, used=len(me["used"])))

    def _hire(self, view, hires, code) -> Decision:
        comps, market = self.comps, view["market"]
        best = max(hires, key=lambda m: (card_worth(comps, market[m.slot - 1]) - m.slot,
                                         -sum(card_worth(comps, c) for c in m.cards) - 0.6 * m.tokens,
                                         -len(m.cards)))
        return Decision(best, Event(code, "bots.deepblue.hire", seat=view["seat"], card=market[best.slot - 1],
                                    price=best.slot))

    def best_sail(self, view, me, budget: int):
        """``(gain, boat, site, steps)`` of the best move within ``budget`` propellers, or ``None``."""
        board = self.comps.board
        best = None
        own_sites = {b["site"] for b in me["boats"]}
        for i, boat in enumerate(me["boats"]):
            here = self.boat_worth(view, boat)
            for site, dist in sorted(board.distances(boat["site"]).items()):
                if not 0 < dist <= budget or site in own_sites:
                    continue
                gain = self.best_landing(view, site) - here - 0.3 * dist
                if gain > 0.5 and (best is None or gain > best[0]):
                    best = (gain, i, site, dist)
        return best

    def sail(self, view, mine: list) -> Decision:
        seat = view["seat"]
        me = view["players"][seat]
        spots = [m for m in mine if isinstance(m, ChooseSpot)]
        if spots:
            landing = view["sail"]["landing"]
            site = me["boats"][landing]["site"]
            tile = self._tile(view, site)
            best = max(spots, key=lambda m: SPOT_WORTH.get(tile["spots"][m.spot], 0.0))
            kind = tile["spots"][best.spot]
            return Decision(best, Event("BOT_DB_SPOT", "bots.deepblue.sail", seat=seat, spot=best.spot,
                                        kind=_term_spot(kind)))
        own_sites = {b["site"] for b in me["boats"]}
        best, best_gain = None, 0.5
        for m in mine:
            if isinstance(m, MoveBoat) and m.site not in own_sites:
                boat = me["boats"][m.boat]
                dist = self.comps.board.distances(boat["site"])[m.site]
                gain = self.best_landing(view, m.site) - self.boat_worth(view, boat) - 0.3 * dist
                if gain > best_gain:
                    best, best_gain = m, gain
        if best is not None:
            return Decision(best, Event("BOT_DB_MOVE_BOAT", "bots.deepblue.sail", seat=seat, boat=best.boat,
                                        site=best.site, gain=_vp(best_gain)))
        anchor = next((m for m in mine if isinstance(m, Anchor)), None)
        if anchor is None:          # every move lands somewhere: take the first
            anchor = mine[0]
        return Decision(anchor, Event("BOT_DB_ANCHOR", "bots.deepblue.sail-done", seat=seat))

    def join(self, view, mine: list) -> Decision:
        seat = view["seat"]
        me = view["players"][seat]
        site = view["dive"]["site"]
        near = set(self.comps.board.neighbours(site))
        on = [b for b in me["boats"] if b["site"] == site]
        boat = on[0] if on else next((b for b in me["boats"] if b["site"] in near), None)
        if boat is not None and boat["site"] != site and self.spot_kind(view, boat) is not None:
            move = next(m for m in mine if isinstance(m, Decline))
            return Decision(move, Event("BOT_DB_DECLINE", "bots.deepblue.join", seat=seat, site=boat["site"]))
        move = next(m for m in mine if isinstance(m, Join))
        return Decision(move, Event("BOT_DB_JOIN", "bots.deepblue.join", seat=seat, site=site))


def _term_spot(kind: str):
    from toolkit.core.i18n import Term
    return Term(f"deepblue.spot.{kind}")


class _DiveBot:
    """Shared shape: action/sail/join via :class:`Planner`; dive decisions by the subclass."""

    name = "?"

    def __init__(self, comps: Components | None = None):
        self.comps = components_or_default(comps)
        self.planner = Planner(self.comps)

    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        seat = view.get("seat")
        mine = _mine(view, legal)
        if not mine:
            return Decision(None, Event("BOT_NO_MOVE", "bots.random", seat=seat))
        phase = view["phase"]
        if phase == "action":
            return self.planner.action(view, mine, rng)
        if phase == "sail":
            return self.planner.sail(view, mine)
        if phase == "join":
            return self.planner.join(view, mine)
        if phase == "check":
            return self.protect(view, mine)
        # the dive: score a card first (its VP is safe from now on), then draw/stop or leave
        cards = [m for m in mine if isinstance(m, PlayCard)]
        if cards:
            best = max(cards, key=lambda m: self.comps.card(m.card).score_vp)
            return Decision(best, Event("BOT_DB_PLAY_CARD", "bots.deepblue.card", seat=seat, card=best.card,
                                        vp=self.comps.card(best.card).score_vp))
        leader = view["dive"]["leader"] == seat
        return self.dive(view, mine, leader)

    def protect(self, view, mine) -> Decision:
        move = mine[0]
        return Decision(move, Event("BOT_DB_PROTECT_FIRST", "bots.deepblue.protect", seat=view["seat"],
                                    source=_source(move)))

    def dive(self, view, mine, leader: bool) -> Decision:
        raise NotImplementedError


def _source(move: Protect):
    from toolkit.core.i18n import Term
    return Term("deepblue.move.spot_source") if move.card is None else f"#{move.card}"


class PolicyBot(_DiveBot):
    """Dive decisions from the exact optimal policy; the rest from :class:`Planner`."""

    name = "policy"

    def advice(self, view) -> DiveAdvice | None:
        return dive_advice(view, view.get("seat"), self.comps)

    def dive(self, view, mine, leader: bool) -> Decision:
        seat = view["seat"]
        adv = self.advice(view)
        draw = next((m for m in mine if isinstance(m, DrawGem)), None)
        stop = next((m for m in mine if isinstance(m, (Stop, Leave))), None)
        if adv is None:                                     # not in (only the leader's stop remains)
            move = draw or stop or mine[0]
            return Decision(move, Event("BOT_DB_NOTHING_TO_WEIGH", "bots.deepblue.dive", seat=seat))
        bust = f"{adv.busting}/{adv.gems}" if adv.pull == 1 else f"{adv.bust.numerator}/{adv.bust.denominator}"
        params = dict(seat=seat, bust=bust, pct=_pct(adv.bust), stop=_vp(adv.stop),
                      go=_vp(adv.go if adv.go is not None else adv.stop), gain=_vp(adv.gain))
        if adv.advice == "go" and draw is not None:
            return Decision(draw, Event("BOT_DB_DRAW", "bots.deepblue.dive", **params))
        if leader:
            move = next(m for m in mine if isinstance(m, Stop))
            return Decision(move, Event("BOT_DB_STOP", "bots.deepblue.dive", **params))
        # another diver: leave when its own optimal policy would stop; otherwise stay in (no move)
        leave = next((m for m in mine if isinstance(m, Leave)), None)
        if adv.advice == "stop" and leave is not None:
            return Decision(leave, Event("BOT_DB_LEAVE", "bots.deepblue.leave", **params))
        return Decision(None, Event("BOT_DB_STAY", "bots.deepblue.leave", **params))

    def protect(self, view, mine) -> Decision:
        seat = view["seat"]
        inputs = diver_inputs(view, seat, self.comps)
        if inputs is None or len(mine) == 1:
            return super().protect(view, mine)
        colour = view["dive"]["drawn"][-1] if view["dive"]["drawn"] else "black"
        best, best_key = None, None
        for m in mine:
            shields, spot = list(inputs["shields"]), inputs["spot"]
            if m.card is None:
                spot = None
            else:
                prot = self.comps.card(m.card).protection
                shields[("black", "blue").index(prot)] -= 1
            # the check's gem is already drawn: value the rest of the dive after paying with m
            value = protection_value(inputs["bag"], inputs["drawn"], tuple(shields), spot, inputs["lost"],
                                     inputs["pairs"])
            key = (value, m.card is None)            # ties: spend the spot (lost after the dive anyway)
            if best_key is None or key > best_key:
                best, best_key = m, key
        return Decision(best, Event("BOT_DB_PROTECT", "bots.deepblue.protect", seat=seat, source=_source(best),
                                    gem=_term_gem(colour), vp=_vp(best_key[0] + inputs["kept"])))


def _term_gem(colour: str):
    from toolkit.core.i18n import Term
    return Term(f"deepblue.gem.{colour}")


class FixedStopBot(_DiveBot):
    """The fixed rule "draw ``k`` gems, then stop" (another diver leaves after ``k`` draws)."""

    def __init__(self, k: int = 3, comps: Components | None = None):
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise TypeError(f"k must be a positive int, not {k!r}")
        super().__init__(comps)
        self.k = k
        self.name = f"stop-after-{k}"

    def dive(self, view, mine, leader: bool) -> Decision:
        seat = view["seat"]
        draws = view["dive"]["draws"]
        draw = next((m for m in mine if isinstance(m, DrawGem)), None)
        if leader:
            if draws < self.k and draw is not None:
                return Decision(draw, Event("BOT_DB_FIXED_DRAW", "bots.deepblue.fixed-stop", seat=seat, draws=draws,
                                            k=self.k))
            stop = next(m for m in mine if isinstance(m, Stop))
            return Decision(stop, Event("BOT_DB_FIXED_STOP", "bots.deepblue.fixed-stop", seat=seat, draws=draws,
                                        k=self.k))
        leave = next((m for m in mine if isinstance(m, Leave)), None)
        if draws >= self.k and leave is not None:
            return Decision(leave, Event("BOT_DB_FIXED_LEAVE", "bots.deepblue.fixed-stop", seat=seat, draws=draws,
                                         k=self.k))
        return Decision(None, Event("BOT_DB_FIXED_STAY", "bots.deepblue.fixed-stop", seat=seat, draws=draws, k=self.k))


class DeepBlueRandomBot:
    """Uniform over this seat's legal moves; as a diver who is not the leader it acts (leaves or plays a
    card) with chance 1/2 at each draw, so it does not leave every dive at the first gem."""

    name = "random"

    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        seat = view.get("seat")
        mine = _mine(view, legal)
        if not mine:
            return Decision(None, Event("BOT_NO_MOVE", "bots.random", seat=seat))
        if view.get("to_act") != seat and rng.random() < 0.5:
            return Decision(None, Event("BOT_DB_RANDOM_STAY", "bots.deepblue.random", seat=seat))
        move = mine[int(rng.integers(len(mine)))]
        return Decision(move, Event("BOT_RANDOM", "bots.random", seat=seat, options=len(mine)))


#: Bot levels, strongest first (the first is the table's default opponent).
BOTS: dict[str, Callable[[], Any]] = {
    "policy": PolicyBot,
    "stop-after-3": lambda: FixedStopBot(3),
    "stop-after-5": lambda: FixedStopBot(5),
    "random": DeepBlueRandomBot,
}
