"""The dive coach: at a dive decision, what one seat can know — the exact chance that the next draw (or
pull, in Troubled Waters) busts it, the expected VP of stopping now and of going on under the optimal
policy — computed from ``observe(state, seat)`` alone (the bag's counts, the dive board, the seat's own
hand and scouting spot), never from the state.

The policy is :func:`toolkit.deepblue.risk.optimal_policy` (the layer-by-layer exact solver); solved
policies are cached by their inputs, so a game asks the solver once per distinct position.

>>> from toolkit.deepblue import ENGINE, DrawGem
>>> from toolkit.deepblue.coach import dive_advice
>>> state = ENGINE.new_state(1, players=2)
>>> dive_advice(ENGINE.observe(state, 0)) is None      # no dive under way
True
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

from toolkit.core.checks import check_bool
from toolkit.core.errors import InvalidStateError
from toolkit.deepblue.components import Components, components_or_default
from toolkit.deepblue.gems import COLOURS, HAZARDS
from toolkit.deepblue.risk import optimal_policy, survival

__all__ = ["DiveAdvice", "dive_advice", "policy_values", "protection_value"]


@dataclass(frozen=True)
class DiveAdvice:
    """What the optimal policy says for ``seat`` now.

    ``bust`` is the exact chance that the next draw (``pull`` gems: 2 in a Troubled Waters Sunken City)
    busts this diver; ``busting``/``gems`` are its parts for a single draw (``12/19``). ``stop`` is the
    expected VP of stopping (leader) or leaving (other divers) now, ``go`` that of drawing on and then
    playing optimally (``None`` with an empty bag); ``advice`` is ``"go"`` or ``"stop"`` (ties stop).
    """

    seat: int
    leader: bool
    pull: int
    bust: Fraction
    busting: int
    gems: int
    stop: Fraction
    go: Fraction | None
    advice: str

    @property
    def gain(self) -> Fraction:
        """How much better the advised choice is than the other (0 on a tie or an empty bag)."""
        if self.go is None:
            return Fraction(0)
        return abs(self.go - self.stop)


def policy_values(bag: tuple[int, ...], drawn: tuple[int, ...], shields: tuple[int, int, int],
                  spot: str | None, lost_on_bust: int, pairs: bool) -> tuple[str, Fraction, Fraction | None]:
    """``(advice, stop, go)`` of the exact optimal policy for a diver (cached; see :func:`_policy_values`)."""
    # checked before the cache: an unhashable argument would fail inside lru_cache naming nothing
    for name, value, size in (("bag", bag, len(COLOURS)), ("drawn", drawn, len(COLOURS)), ("shields", shields, 3)):
        if not isinstance(value, tuple) or len(value) != size or not all(type(n) is int for n in value):
            raise TypeError(f"{name} must be a tuple of {size} whole numbers, not {value!r:.60}")
    if spot is not None and not isinstance(spot, str):
        raise TypeError(f"spot must be a spot kind or None, not {spot!r:.60}")
    if type(lost_on_bust) is not int:
        raise TypeError(f"lost_on_bust must be a whole number, not {lost_on_bust!r:.60}")
    check_bool("pairs", pairs)
    return _policy_values(bag, drawn, shields, spot, lost_on_bust, pairs)


@lru_cache(maxsize=8192)
def _policy_values(bag: tuple[int, ...], drawn: tuple[int, ...], shields: tuple[int, int, int],
                  spot: str | None, lost_on_bust: int, pairs: bool) -> tuple[str, Fraction, Fraction | None]:
    """``(advice, stop, go)`` of the exact optimal policy for a diver (cached).

    ``bag``/``drawn`` are counts per :data:`COLOURS`, ``shields`` (black, blue, any) protections in hand,
    ``spot`` the scouting spot still usable (a treasure spot raises that gem's VP, a hazard or ``"any"``
    spot adds a protection), ``lost_on_bust`` VP that only a safe end scores (a leader bonus or crew-card
    VP under those options). Values exclude VP kept whatever happens (the caller adds them).
    """
    policy = optimal_policy(dict(zip(COLOURS, bag)), dict(zip(COLOURS, drawn)),
                            {"black": shields[0], "blue": shields[1], "any": shields[2]},
                            [spot] if spot else None, leader_bonus=lost_on_bust,
                            gems_per_draw=2 if pairs else 1, bonus_kept_on_bust=False)
    return policy.advice(), policy.stop_value(), policy.go_value()


def protection_value(bag: tuple[int, ...], drawn: tuple[int, ...], shields: tuple[int, int, int],
                     spot: str | None, lost_on_bust: int, pairs: bool) -> Fraction:
    """The optimal expected VP from here (the better of stop and go)."""
    advice, stop, go = policy_values(bag, drawn, shields, spot, lost_on_bust, pairs)
    return stop if go is None or stop >= go else go


def _counts(gems) -> tuple[int, ...]:
    return tuple(list(gems).count(c) for c in COLOURS)


def diver_inputs(view: Mapping[str, Any], seat: int, comps: Components | None = None) -> dict[str, Any] | None:
    """The solver's inputs for ``seat``'s diver, read from the view (``None`` if it is not diving)."""
    comps = components_or_default(comps)
    dive = view.get("dive")
    if not dive:
        return None
    diver = next((v for v in dive["divers"] if v["seat"] == seat), None)
    if diver is None or diver["status"] != "in":
        return None
    me = view["players"][seat]
    hand = me.get("hand")
    if hand is None:                      # another seat's hand is not in this view
        return None
    shields = [0, 0, 0]
    for cid in hand:
        prot = comps.card(cid).protection
        if prot in ("black", "blue"):
            shields[("black", "blue").index(prot)] += 1
    spot = diver["spot"]
    if spot in ("black", "blue", "any") and diver["spot_used"]:
        spot = None
    options = view.get("options", {})
    leader = dive["leader"] == seat
    bonus = 0
    if leader:
        tile = next((t for t in view["tiles"] if t["site"] == dive["site"] and t.get("face_up")), None)
        bonus = tile["leader_bonus"] if tile else 0
    kept, lost = 0, 0
    if options.get("leader_bonus_on_bust", True):
        kept += bonus
    else:
        lost += bonus
    if options.get("card_vp_on_bust", True):
        kept += diver["card_vp"]
    else:
        lost += diver["card_vp"]
    scenario = comps.scenario(view["scenario"])
    pairs = bool(dive["sunken_city"] and scenario.gems_per_draw == 2)
    bag = tuple(view["bag"][c] for c in COLOURS)
    return {"bag": bag, "drawn": _counts(dive["drawn"]), "shields": tuple(shields), "spot": spot,
            "kept": kept, "lost": lost, "pairs": pairs, "leader": leader}


def dive_advice(view: Mapping[str, Any], seat: int | None = None,
                comps: Components | None = None) -> DiveAdvice | None:
    """The coach's figures for ``seat`` (default: the view's seat) at a dive decision, or ``None`` when
    that seat is not in a dive it can still leave or stop."""
    if not isinstance(view, Mapping):
        raise TypeError(f"view must be an observation (ENGINE.observe(state, seat)), not {view!r:.80}")
    seat = view.get("seat") if seat is None else seat
    if seat is None or view.get("phase") not in ("dive", "check"):
        return None
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TypeError(f"seat must be an int, not {seat!r:.80}")
    try:
        inputs = diver_inputs(view, seat, comps)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise InvalidStateError(f"view: not a Deep Blue observation ({type(exc).__name__}: {exc})") from None
    if inputs is None:
        return None
    bag, drawn, shields, spot = inputs["bag"], inputs["drawn"], inputs["shields"], inputs["spot"]
    gems = sum(bag)
    pull = 2 if inputs["pairs"] else 1
    shield_map = {"black": shields[0], "blue": shields[1], "any": shields[2]}
    if spot in ("black", "blue", "any"):
        shield_map[spot] += 1
    bag_map, drawn_map = dict(zip(COLOURS, bag)), dict(zip(COLOURS, drawn))
    busting = 0
    for i, colour in enumerate(COLOURS):
        if colour in HAZARDS and drawn[i] >= 1 and shield_map[colour] + shield_map["any"] == 0:
            busting += bag[i]
    if gems == 0:
        bust = Fraction(0)
    else:
        bust = 1 - survival(bag_map, min(pull, gems), drawn_map, shield_map)
    advice, stop, go = policy_values(bag, drawn, shields, spot, inputs["lost"], inputs["pairs"])
    kept = inputs["kept"]
    return DiveAdvice(seat, inputs["leader"], pull, bust, busting, gems, stop + kept,
                      None if go is None else go + kept, advice)

