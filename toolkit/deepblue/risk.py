"""Exact risk analysis of a dive: bust chances, survival, treasure-VP distributions and the optimal
stopping policy, all as :class:`fractions.Fraction`.

The model (``rules/deep-blue.ja.txt``, 黒、青の宝石): the first black and the first blue gem of a dive are
warnings; every later gem of that colour forces a check, which the diver passes by spending a matching
protection (a crew card or a scouting spot; an ``"any"`` spot covers either colour) or busts. A diver
spends colour-specific protections before ``"any"`` ones (never worse: an ``"any"`` spot covers more).

Why the sums are cheap: whether a diver is still in after some draws depends only on *how many* black
and blue gems were drawn (each check can only add to the shortfall, so a diver alive at the end was alive
all along). Survival is therefore a sum of multivariate hypergeometric terms over the alive (black, blue)
counts — no draw orders are enumerated. The optimal policy is a dynamic programme over the bag's
remaining counts, solved one layer (gems left ``r``) at a time with values kept as integers scaled by
``r!`` so that every state of one layer shares a denominator; the integers are held as numpy int64 limbs
so that a layer is a few vectorised operations and no Fraction arithmetic happens inside the recursion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, factorial
from typing import Mapping

import numpy as np

from toolkit.core.checks import MAX_SEED
from toolkit.deepblue.gems import (COLOURS, HAZARDS, _bad, _quote, gem_counts, gem_values, shield_counts,
                                   spot_list)

__all__ = ["bust_chance", "survival", "survival_curve", "vp_distribution", "expected_vp", "optimal_policy",
           "DivePolicy", "VPDistribution", "monte_carlo_survival", "monte_carlo_policy", "Position"]


# ---------------------------------------------------------------------------------------------------
# size guards: every function here answers within a second up to these sizes and refuses beyond them
#: gems in the bag, gems drawn, protections of one kind (a real bag holds 19-31 gems; the gem-bag view
#: allows 40 per colour). Exact survival of a 200-gem bag takes ~0.1 s; a 60,000-gem bag ran for ever.
MAX_GEMS = 200
#: decision states of an exact policy (a 40-gem bag with six protections has ~114k; solving 200k takes
#: ~0.1 s, its full table() ~2 s; a 450-gem bag ran out of memory)
MAX_POLICY_STATES = 200_000
#: far beyond any real bonus, but exact (a bonus past int64 switches the solver to Python ints)
MAX_LEADER_BONUS = 2**100
#: Monte Carlo trials (the policy walk is a Python loop: 50k trials take about a second)
MAX_TRIALS = 50_000


def _whole(value, what: str, rule: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad("DEEPBLUE_BAD_COUNT", rule, what=what, value=_quote(value))
    if not low <= value <= high:
        raise _bad("DEEPBLUE_OUT_OF_RANGE", rule, what=what, low=low, high=high, value=value)
    return value


def _flag(value, what: str, rule: str) -> bool:
    # "no" is truthy: a switch must be a real bool
    if not isinstance(value, bool):
        raise _bad("DEEPBLUE_BAD_FLAG", rule, what=what, value=_quote(value))
    return value


def _check_size(what: str, counts, rule: str = "deepblue.bag.contents") -> None:
    total = sum(counts)
    if total > MAX_GEMS:
        raise _bad("DEEPBLUE_TOO_MANY_GEMS", rule, what=what, count=total, limit=MAX_GEMS)


# ---------------------------------------------------------------------------------------------------
# positions
@dataclass(frozen=True)
class Position:
    """A diver's position: gems left in the bag, gems drawn so far this dive, protections left and the
    VP each gem colour is worth to this diver (scouting spots raise silver/gold/red)."""

    bag: tuple[int, ...]            # per COLOURS
    drawn: tuple[int, ...]          # per COLOURS
    shields: tuple[int, int, int]   # black, blue, any
    values: tuple[int, ...]         # per COLOURS

    @property
    def total(self) -> int:
        return sum(self.bag)

    def count(self, colour: str) -> int:
        return self.bag[COLOURS.index(colour)]

    def drawn_count(self, colour: str) -> int:
        return self.drawn[COLOURS.index(colour)]

    @property
    def banked_vp(self) -> int:
        """Treasure VP of the gems drawn so far (what stopping now is worth, before any bonus)."""
        return sum(n * v for n, v in zip(self.drawn, self.values))


_BLACK, _BLUE = COLOURS.index("black"), COLOURS.index("blue")


def position(bag, drawn=None, shields=None, spots=None) -> Position:
    """Validate and normalise the inputs every function here accepts (see :func:`bust_chance`).

    ``spots`` are scouting spots the diver holds: ``"silver"``/``"gold"``/``"red"`` raise that gem's VP,
    ``"black"``/``"blue"``/``"any"`` add one protection of that kind.
    """
    bag_c = gem_counts(bag, "bag")
    drawn_c = gem_counts(drawn, "drawn")
    sh = shield_counts(shields)
    sp = spot_list(spots)
    for s in sp:
        if s in sh:
            sh[s] += 1
    values = gem_values(sp)
    _check_size("bag", bag_c.values())
    _check_size("drawn", drawn_c.values())
    for kind, n in sh.items():
        _check_size(f"shields[{kind!r}]", [n], "deepblue.dive.protection")
    return Position(tuple(bag_c[c] for c in COLOURS), tuple(drawn_c[c] for c in COLOURS),
                    (sh["black"], sh["blue"], sh["any"]), tuple(values[c] for c in COLOURS))


def _alive(pos: Position, new_black: int, new_blue: int) -> bool:
    """Is the diver still in after drawing ``new_black`` black and ``new_blue`` blue gems from now on?"""
    b0, u0 = pos.drawn[_BLACK], pos.drawn[_BLUE]
    checks_black = max(0, b0 + new_black - 1) - max(0, b0 - 1)
    checks_blue = max(0, u0 + new_blue - 1) - max(0, u0 - 1)
    sb, su, sa = pos.shields
    return max(0, checks_black - sb) + max(0, checks_blue - su) <= sa


def _check_draws(pos: Position, draws) -> int:
    if isinstance(draws, bool) or not isinstance(draws, int):
        raise _bad("DEEPBLUE_BAD_COUNT", "deepblue.dive.draw", what="draws", value=_quote(draws))
    if draws < 0:
        raise _bad("DEEPBLUE_NEGATIVE_COUNT", "deepblue.dive.draw", what="draws", value=draws)
    if draws > pos.total:
        raise _bad("DEEPBLUE_TOO_MANY_DRAWS", "deepblue.dive.draw", draws=draws, gems=pos.total)
    return draws


# ---------------------------------------------------------------------------------------------------
# public API (DESIGN.md): bust_chance, survival
def bust_chance(bag, drawn=None, shields=None) -> Fraction:
    """The chance that the next single draw busts this diver.

    ``bag``: gems still in the bag by colour (a mapping, a list of colours or text like ``"silver 7, black 4"``);
    ``drawn``: gems drawn so far this dive; ``shields``: protections left, keys ``"blue"``, ``"black"``,
    ``"any"``. Bad input raises :class:`GemInputError` (a ``ValueError``).

    >>> bust_chance({"silver": 7, "gold": 3, "red": 1, "black": 4, "blue": 4}, drawn=["black"])
    Fraction(4, 19)
    """
    # the hot path of every dashboard update: no Position, no spot values, just the counts it needs
    bag_c = gem_counts(bag, "bag")
    drawn_c = gem_counts(drawn, "drawn")
    sh = shield_counts(shields)
    total = sum(bag_c.values())
    if total == 0:
        raise _bad("DEEPBLUE_TOO_MANY_DRAWS", "deepblue.dive.draw", draws=1, gems=0)
    busting = 0
    if drawn_c["black"] and not (sh["black"] or sh["any"]):
        busting += bag_c["black"]
    if drawn_c["blue"] and not (sh["blue"] or sh["any"]):
        busting += bag_c["blue"]
    return Fraction(busting, total)


def _bust_next(pos: Position) -> Fraction:
    sb, su, sa = pos.shields
    busting = 0
    if pos.drawn[_BLACK] >= 1 and sb + sa == 0:
        busting += pos.bag[_BLACK]
    if pos.drawn[_BLUE] >= 1 and su + sa == 0:
        busting += pos.bag[_BLUE]
    return Fraction(busting, pos.total)


def survival(bag, draws, drawn=None, shields=None) -> Fraction:
    """The chance of not having busted after ``draws`` more single draws.

    Exact: the sum, over the black/blue counts that leave the diver in, of multivariate hypergeometric
    probabilities. Negative counts, unknown colours or more draws than gems raise :class:`GemInputError`.

    >>> survival({"silver": 7, "gold": 3, "red": 1, "black": 4, "blue": 4}, 2)
    Fraction(53, 57)
    """
    pos = position(bag, drawn, shields)
    return _survival(pos, _check_draws(pos, draws))


def _survival(pos: Position, k: int) -> Fraction:
    n_black, n_blue = pos.bag[_BLACK], pos.bag[_BLUE]
    n_other = pos.total - n_black - n_blue
    ways = 0
    for b in range(min(k, n_black) + 1):
        for u in range(min(k - b, n_blue) + 1):
            if k - b - u > n_other:
                continue
            if _alive(pos, b, u):
                ways += comb(n_black, b) * comb(n_blue, u) * comb(n_other, k - b - u)
    return Fraction(ways, comb(pos.total, k))


def survival_curve(bag, drawn=None, shields=None) -> list[Fraction]:
    """``[survival after 0, 1, …, all draws]`` — the curve the gem-bag dashboard plots."""
    pos = position(bag, drawn, shields)
    return [_survival(pos, k) for k in range(pos.total + 1)]


# ---------------------------------------------------------------------------------------------------
# treasure VP if you stop after k more draws
@dataclass(frozen=True)
class VPDistribution:
    """Treasure VP if the diver stops after ``draws`` more draws: ``bust`` is the chance of busting first
    (treasure lost); ``vp`` maps a treasure total to the chance of surviving with it. ``sum(vp) + bust == 1``."""

    draws: int
    bust: Fraction
    vp: Mapping[int, Fraction]

    @property
    def expected(self) -> Fraction:
        """Expected treasure VP (a bust counts 0)."""
        return sum((v * p for v, p in self.vp.items()), Fraction(0))


def vp_distribution(bag, draws, drawn=None, shields=None, spots=None) -> VPDistribution:
    """The distribution of treasure VP (gems already drawn included) if you stop after ``draws`` more draws."""
    pos = position(bag, drawn, shields, spots)
    return _vp_distribution(pos, _check_draws(pos, draws))


def _vp_distribution(pos: Position, k: int) -> VPDistribution:
    # ways[(gems used, vp)] over the non-hazard colours, by convolution colour by colour
    safe = [i for i, c in enumerate(COLOURS) if c not in HAZARDS]
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    for i in safe:
        n, v = pos.bag[i], pos.values[i]
        nxt: dict[tuple[int, int], int] = {}
        for (used, vp), w in ways.items():
            for j in range(0, min(n, k - used) + 1):
                key = (used + j, vp + j * v)
                nxt[key] = nxt.get(key, 0) + w * comb(n, j)
        ways = nxt
    n_black, n_blue = pos.bag[_BLACK], pos.bag[_BLUE]
    total = comb(pos.total, k)
    dist: dict[int, int] = {}
    alive_ways = 0
    for (used, vp), w in ways.items():
        rest = k - used
        for b in range(min(rest, n_black) + 1):
            u = rest - b
            if u > n_blue or not _alive(pos, b, u):
                continue
            term = w * comb(n_black, b) * comb(n_blue, u)
            dist[vp] = dist.get(vp, 0) + term
            alive_ways += term
    banked = pos.banked_vp
    vp = {banked + v: Fraction(w, total) for v, w in sorted(dist.items()) if w}
    return VPDistribution(k, Fraction(total - alive_ways, total), vp)


def expected_vp(bag, draws, drawn=None, shields=None, spots=None, leader_bonus: int = 0,
                bonus_kept_on_bust: bool = True) -> Fraction:
    """Expected dive VP (treasure plus leader bonus) if the diver stops after ``draws`` more draws."""
    leader_bonus = _whole(leader_bonus, "leader_bonus", "deepblue.dive.leader-bonus", 0, MAX_LEADER_BONUS)
    _flag(bonus_kept_on_bust, "bonus_kept_on_bust", "deepblue.dive.leader-bonus")
    pos = position(bag, drawn, shields, spots)
    d = _vp_distribution(pos, _check_draws(pos, draws))
    bonus = Fraction(leader_bonus)
    return d.expected + bonus * (1 if bonus_kept_on_bust else 1 - d.bust)


# ---------------------------------------------------------------------------------------------------
# optimal stopping
@dataclass
class DivePolicy:
    """The optimal stop-or-go policy for one diver, solved exactly by dynamic programming.

    States are the bag's remaining counts grouped by what a gem means to this diver (treasure groups of
    equal VP, black, blue): the gems drawn, the VP banked and the protections left all follow from them.
    ``value`` is the expected dive VP from the start position under optimal play.
    """

    start: Position
    gems_per_draw: int
    leader_bonus: int
    bonus_kept_on_bust: bool
    groups: tuple[tuple[str, ...], ...]          # colours in each group
    group_values: tuple[int, ...]
    root: tuple[int, ...]
    _memo: _SolvedStates = field(repr=False)

    # -- reading the solution
    def _scaled(self, key) -> int:
        return self._memo[(key, 0)][0]

    def _checked_key(self, key) -> tuple[int, ...]:
        """``key`` (default: the start) if it is a decision state of this policy, else GemInputError."""
        if key is None:
            return self.root
        if (isinstance(key, (tuple, list)) and len(key) == len(self.root)
                and all(type(k) is int for k in key) and (tuple(key), 0) in self._memo):
            return tuple(key)
        raise _bad("DEEPBLUE_NOT_A_STATE", "deepblue.dive.bust", key=_quote(key), count=len(self.root),
                   groups=", ".join("+".join(g) for g in self.groups))

    def stop_value(self, key=None) -> Fraction:
        key = self._checked_key(key)
        # (banked + bonus) * r! / r!, without building r! for every table row
        return Fraction(self._banked(key) + self.leader_bonus)

    def go_value(self, key=None) -> Fraction | None:
        """Expected VP of drawing (once more, then playing optimally); ``None`` when the bag is empty."""
        key = self._checked_key(key)
        go = self._memo[(key, 0)][2]
        return None if go is None else Fraction(go, factorial(sum(key)))

    @property
    def value(self) -> Fraction:
        return Fraction(self._scaled(self.root), factorial(sum(self.root)))

    def advice(self, key=None) -> str:
        """``"go"`` or ``"stop"`` (ties stop: the same VP without the risk of a misplay)."""
        return self._memo.action(self._checked_key(key))

    def _banked(self, key) -> int:
        drawn = 0
        for g, (r0, r) in enumerate(zip(self.root, key)):
            drawn += (r0 - r) * self.group_values[g]
        return self.start.banked_vp + drawn

    def states(self) -> list[tuple[int, ...]]:
        """Every decision state reachable without busting, fewest draws first."""
        # the order of sorted(keys, key=lambda k: (-sum(k), [-x for x in k])), computed by the solved grid
        return list(self._memo.sorted_keys())

    def table(self) -> list[dict]:
        """One row per reachable decision state: gems drawn by group, VP banked, stop and go values, advice.

        Built once per policy (a solved policy never changes): the gem-bag view reads it twice per
        render, for its chart and its table. Each call returns fresh row dicts."""
        cached = self.__dict__.get("_table_rows")
        if cached is None:
            cached = self.__dict__["_table_rows"] = self._build_table()
        return [dict(row) for row in cached]

    def table_head(self, rows: int) -> list[dict]:
        """The first ``rows`` rows of :meth:`table` (fewest draws first), built without the rest: a view
        showing the first draws of a 114k-state policy needs a few dozen rows, not 1.2 s of all of them."""
        rows = _whole(rows, "rows", "deepblue.dive.stop", 0, 10**9)
        cached = self.__dict__.get("_table_rows")
        if cached is not None:
            return [dict(row) for row in cached[:rows]]
        return self._build_table(limit=max(rows, 0))

    def spots(self) -> list[tuple[str, str, int, int]]:
        """The distinct ``(advice, hazards, draws, banked_vp)`` of the table's rows, in the order they first
        appear: what a chart of the policy shows (states that differ only in which treasure was drawn land
        on the same spot). Read from the solved grid in bulk, without building any exact value."""
        keys, cols, acts = self._memo.sorted_advice()
        total = sum(self.root)
        drawn = [r0 - c for r0, c in zip(self.root, cols)]
        banked = (self.start.banked_vp + sum(d * v for d, v in zip(drawn, self.group_values))).tolist()
        left = sum(cols).tolist()
        hazard_of: dict[tuple[int, int], str] = {}
        seen: dict[tuple[str, str, int, int], None] = {}
        for key, act, vp, r in zip(keys, acts, banked, left):
            hazards = hazard_of.get(key[-2:])
            if hazards is None:
                hazards = hazard_of[key[-2:]] = self._hazard_status(key)
            seen[(act, hazards, total - r, vp)] = None
        return list(seen)

    def _build_table(self, limit: int | None = None) -> list[dict]:
        # one bulk read of the grid (keys in states() order, scaled go values, advice) and column-wise
        # arithmetic instead of per-row lookups: a 40-gem bag with six protections has ~114k rows
        keys, cols, gos, acts = self._memo.sorted_entries(limit)
        total = sum(self.root)
        facts = [factorial(i) for i in range(total + 1)]
        drawn = [r0 - c for r0, c in zip(self.root, cols)]
        banked = (self.start.banked_vp + sum(d * v for d, v in zip(drawn, self.group_values))).tolist()
        drawn = [d.tolist() for d in drawn]
        left = sum(cols).tolist()
        # few distinct values: build each stop Fraction and hazard text once (Fractions are immutable)
        stop_of = {b: Fraction(b + self.leader_bonus) for b in set(banked)}
        hazard_of: dict[tuple[int, int], str] = {}
        for key in keys:
            if key[-2:] not in hazard_of:
                hazard_of[key[-2:]] = self._hazard_status(key)
        fields = ["draws", *("drawn " + "+".join(g) for g in self.groups), "banked_vp", "stop", "go", "advice",
                  "hazards"]
        columns = [[total - r for r in left], *drawn, banked, [stop_of[b] for b in banked],
                   [None if go is None else Fraction(go, facts[r]) for go, r in zip(gos, left)], acts,
                   [hazard_of[key[-2:]] for key in keys]]
        return [dict(zip(fields, row)) for row in zip(*columns)]

    def _hazard_status(self, key) -> str:
        out = []
        for colour in HAZARDS:
            g = next(i for i, grp in enumerate(self.groups) if grp == (colour,))
            seen = self.start.drawn_count(colour) + self.root[g] - key[g]
            out.append(f"{colour} {seen}")
        return ", ".join(out)

    def key_for(self, drawn_now) -> tuple[int, ...]:
        """The state after drawing ``drawn_now`` (gems drawn since the start position, by colour)."""
        extra = gem_counts(drawn_now, "drawn")
        key = list(self.root)
        for g, grp in enumerate(self.groups):
            key[g] -= sum(extra[c] for c in grp)
            if key[g] < 0:
                raise _bad("DEEPBLUE_TOO_MANY_DRAWS", "deepblue.dive.draw", draws=sum(extra.values()),
                           gems=sum(self.root))
        key = tuple(key)
        if (key, 0) not in self._memo:
            raise _bad("DEEPBLUE_NOT_REACHED", "deepblue.dive.bust", gems=[f"{n} {c}" for c, n in extra.items() if n])
        return key


# -- the solver ---------------------------------------------------------------------------------------
# Values are exact integers V * r! (r = gems left), so one layer shares a denominator. They outgrow int64
# (40! * VP ~ 2**170), so each is held as K numpy int64 "limbs" of ``bits`` bits each:
# value = sum(limb[j] << (j * bits)). Sums over children and stop values are then plain vectorised int64
# arithmetic over a whole layer of states plus a carry pass: no Python int or Fraction is built per state
# while solving (building them was most of the time of a per-state Python loop).
_LIMB_BITS_CAP = 62     # tests lower this to force many limbs (carry paths) on small bags
_MIN_LIMB_BITS = 16     # below this (absurd bonuses / banked VP) limbs would be tiny: use Python ints in
                        # numpy object arrays instead (same code, K = 1, no carries); tests raise it to force that


def _limbs(x: int, bits: int, k: int) -> list[int]:
    """``x`` (>= 0) as ``k`` limbs, least significant first; the top limb takes whatever is left."""
    mask = (1 << bits) - 1
    out = []
    for _ in range(k - 1):
        out.append(x & mask)
        x >>= bits
    return out + [x]


def _carry(x: np.ndarray, bits: int) -> np.ndarray:
    """Normalise limbs in place: every limb but the top one into [0, 2**bits); the top one takes the rest
    (and the sign). Exact for negative values too: ``>>`` on int64 floors."""
    mask = (1 << bits) - 1
    for j in range(len(x) - 1):
        c = x[j] >> bits
        x[j] &= mask
        x[j + 1] += c
    return x


class _SolvedStates:
    """The solved grid of decision states.

    Read as ``memo[(key, 0)] -> (best, action, go)``: ``best`` and ``go`` scaled by ``r!`` (``r`` = gems
    left; ``go`` is ``None`` for an empty bag), the same integers a plain recursion over the counts gives.
    Only states reachable without busting are present. Storage is by layer (``r``), then by hazard pair
    ``h = rb * (blue+1) + ru``, then by treasure index in ``t_order`` (treasure keys of equal sum), which is
    the order the solver wrote them in.
    """

    def __init__(self, *, root, t_strides, t_coords, t_order, t_start, t_rank, alive_h, pieces, bounds, layer_off,
                 go, take, bits, shift, stop_const, group_values):
        self.root, self.t_strides, self.t_coords, self.t_rank = root, t_strides, t_coords, t_rank
        self.t_order, self.t_start, self.alive_h, self.pieces = t_order, t_start, alive_h, pieces
        self.bounds, self.layer_off, self.go, self.take, self.bits = bounds, layer_off, go, take, bits
        # the solver works with a bust worth 0 and adds ``shift`` (a kept leader bonus) back here
        self.shift, self.stop_const, self.group_values = shift, stop_const, group_values
        self._lookup = None

    # -- single states (Python lists: numpy scalar indexing is slower than a list for one read)
    def _tables(self):
        if self._lookup is None:
            self._lookup = (self.t_rank.tolist(), self.layer_off.tolist(), self.bounds.tolist(), set(self.alive_h),
                            self.root[-1] + 1)
        return self._lookup

    def _index(self, key) -> int | None:
        """Where ``key`` is stored, or ``None`` for a key that busts or does not fit the bag."""
        root = self.root
        if len(key) != len(root) or any(not 0 <= k <= r0 for k, r0 in zip(key, root)):
            return None
        t_rank, layer_off, bounds, alive, du = self._tables()
        h = key[-2] * du + key[-1]
        if h not in alive:
            return None
        r = sum(key)
        t = sum(k * s for k, s in zip(key, self.t_strides))
        return bounds[r] + layer_off[r][h] + t_rank[t]

    def _go_int(self, i: int) -> int:
        """Stored go value ``i`` as a Python int (solver scaling: bust = 0, no kept bonus)."""
        value = 0
        for limb in reversed(self.go[:, i].tolist()):
            value = (value << self.bits) + limb
        return value

    def _stop_scaled(self, key, r: int) -> int:
        """(banked + leader bonus) * r!: the stop value in the scaling the memo hands out."""
        return (self.stop_const - sum(k * v for k, v in zip(key, self.group_values))) * factorial(r)

    def action(self, key) -> str:
        """``"go"`` or ``"stop"`` without building the big values (Monte Carlo walks call this per draw)."""
        i = self._index(key)
        if i is None:
            raise KeyError((key, 0))
        return "go" if self.take[i] else "stop"

    def __getitem__(self, item):
        key, _ = item
        i = self._index(key)
        if i is None:
            raise KeyError(item)
        r = sum(key)
        stop = self._stop_scaled(key, r)
        if r == 0:
            return stop, "stop", None
        go = self._go_int(i) + self.shift * factorial(r)
        return (go, "go", go) if self.take[i] else (stop, "stop", go)

    def __contains__(self, item) -> bool:
        key, _ = item
        return self._index(key) is not None

    # -- every state at once
    def _cells(self):
        """Treasure index, hazard pair and r of every stored state, in storage order."""
        t_order, t_start = self.t_order, self.t_start
        cell_t = np.concatenate([t_order[t_start[ts]:t_start[ts + 1]] for _, _, ts in self.pieces])
        sizes = [t_start[ts + 1] - t_start[ts] for _, _, ts in self.pieces]
        cell_h = np.repeat(np.array([h for _, h, _ in self.pieces], np.int64), sizes)
        cell_r = np.repeat(np.array([r for r, _, _ in self.pieces], np.int64), sizes)
        return cell_t, cell_h, cell_r

    def _sorted(self):
        """Storage indices in ``states()`` order, the keys as Python tuples and the same keys by column."""
        cached = self.__dict__.get("_sorted_cache")
        if cached is None:
            cell_t, cell_h, cell_r = self._cells()
            # states() order is r descending, then the key descending; the key is (treasure counts..., black,
            # blue) and the treasure index is row-major in those counts, so (t, h) orders like the key
            order = np.lexsort((-cell_h, -cell_t, -cell_r))
            du = self.root[-1] + 1
            t, h = cell_t[order], cell_h[order]
            cols = [c[t] for c in self.t_coords] + [h // du, h % du]
            keys = list(zip(*(c.tolist() for c in cols)))
            cached = self.__dict__["_sorted_cache"] = (order, keys, cols)
        return cached

    def sorted_keys(self) -> list[tuple[int, ...]]:
        return self._sorted()[1]

    def sorted_advice(self) -> tuple[list, list[np.ndarray], list]:
        """Keys in ``states()`` order (as tuples and as one array per group) and their advice, without
        building any value."""
        order, keys, cols = self._sorted()
        return keys, cols, ["go" if a else "stop" for a in self.take[order].tolist()]

    def sorted_entries(self, limit: int | None = None) -> tuple[list, list[np.ndarray], list, list]:
        """Keys in ``states()`` order (as tuples and as one array per group), their scaled go values
        (``None`` for an empty bag) and advice; only the first ``limit`` states if given."""
        order, keys, cols = self._sorted()
        if limit is not None:
            order, keys, cols = order[:limit], keys[:limit], [c[:limit] for c in cols]
        limbs = self.go[:, order]
        # one vectorised big-int build over object arrays, not a Python loop of shifts per state
        go = limbs[-1].astype(object)
        for j in range(len(limbs) - 2, -1, -1):
            go = (go << self.bits) + limbs[j].astype(object)
        facts = [factorial(i) for i in range(sum(self.root) + 1)]
        gos = [None if sum(k) == 0 else g + self.shift * facts[sum(k)] for k, g in zip(keys, go.tolist())]
        acts = ["go" if a else "stop" for a in self.take[order].tolist()]
        return keys, cols, gos, acts

    def __iter__(self):
        return ((k, 0) for k in self.sorted_keys())


def optimal_policy(bag, drawn=None, shields=None, spots=None, *, leader_bonus: int = 0,
                   gems_per_draw: int = 1, bonus_kept_on_bust: bool = True) -> DivePolicy:
    """The exact optimal stop-or-go policy for a diver, maximising expected dive VP.

    ``gems_per_draw=2`` is the Troubled Waters scenario: the leader draws two gems at a time, each resolved
    in turn (a bust on the first ends the dive), and a diver may stop only between pairs.
    ``bonus_kept_on_bust`` follows the Japanese text (only gem VP is listed as lost on a bust); with
    ``False`` the leader bonus is lost too and weighs on the decision.
    """
    if isinstance(gems_per_draw, bool) or not isinstance(gems_per_draw, int):
        raise _bad("DEEPBLUE_BAD_COUNT", "deepblue.scenario.troubled-waters", what="gems_per_draw",
                   value=_quote(gems_per_draw))
    if gems_per_draw not in (1, 2):
        raise _bad("DEEPBLUE_BAD_CHOICE", "deepblue.scenario.troubled-waters", what="gems_per_draw",
                   allowed=[1, 2], value=gems_per_draw)
    leader_bonus = _whole(leader_bonus, "leader_bonus", "deepblue.dive.leader-bonus", 0, MAX_LEADER_BONUS)
    _flag(bonus_kept_on_bust, "bonus_kept_on_bust", "deepblue.dive.leader-bonus")
    pos = position(bag, drawn, shields, spots)
    # group colours by meaning: each hazard alone, treasures (and zero-VP relics) by VP
    by_value: dict[int, list[str]] = {}
    for c in COLOURS:
        if c not in HAZARDS:
            by_value.setdefault(pos.values[COLOURS.index(c)], []).append(c)
    groups = tuple(tuple(v) for _, v in sorted(by_value.items())) + (("black",), ("blue",))
    group_values = tuple(pos.values[COLOURS.index(g[0])] if g[0] not in HAZARDS else 0 for g in groups)
    root = tuple(sum(pos.bag[COLOURS.index(c)] for c in g) for g in groups)
    _check_policy_size(pos, root)
    memo = _solve(pos, root, group_values, leader_bonus, gems_per_draw == 2, bonus_kept_on_bust)
    return DivePolicy(pos, gems_per_draw, leader_bonus, bonus_kept_on_bust, groups, group_values, root, memo)


def _check_policy_size(pos: Position, root: tuple[int, ...]) -> None:
    """Refuse a position whose grid of decision states (every treasure count times every hazard pair that
    has not busted) is beyond :data:`MAX_POLICY_STATES`, before allocating it."""
    treasure_keys = 1
    for r in root[:-2]:
        treasure_keys *= r + 1
    rb0, ru0 = root[-2], root[-1]
    alive = sum(_alive(pos, rb0 - rb, ru0 - ru) for rb in range(rb0 + 1) for ru in range(ru0 + 1))
    states = treasure_keys * alive
    if states > MAX_POLICY_STATES:
        raise _bad("DEEPBLUE_POLICY_TOO_BIG", "deepblue.bag.contents", states=states, limit=MAX_POLICY_STATES)


def _solve(pos: Position, root: tuple[int, ...], group_values: tuple[int, ...], leader_bonus: int, pairs: bool,
           bonus_kept_on_bust: bool) -> _SolvedStates:
    """Backward induction over the remaining counts, one layer (gems left ``r``) at a time.

    A state's children (one gem fewer) all lie in the layer below, so a layer is a handful of vectorised
    gathers from the previous layer's values: ``go * r! = sum_g k_g * best_child_g * (r-1)!``. Only two
    layers of best values are kept (the go values and the advice of every state are stored).

    A bust is worth ``leader_bonus`` if kept, else 0; a kept bonus is also part of every stop value, so it
    is a constant added to every value and cannot change a decision. The solver therefore uses bust = 0
    and stop = banked (+ the bonus only when a bust loses it), and the grid adds the kept bonus back.
    """
    n_groups = len(root)
    n_t = n_groups - 2                       # treasure groups; the last two are black and blue
    total = sum(root)
    shift = leader_bonus if bonus_kept_on_bust else 0
    # stop value of a state (before scaling) = const - sum(k_g * v_g): the whole root minus what is still in
    const = pos.banked_vp + (leader_bonus - shift) + sum(r * v for r, v in zip(root, group_values))
    facts = [factorial(i) for i in range(total + 1)]

    # -- limbs: a layer adds k_g * limb over its children (sum k_g = r <= total) and builds s * limb stop
    # values (s <= const); both must stay below 2**62 before the carry pass
    headroom = max(total, const, 1).bit_length() + 2
    bits = min(_LIMB_BITS_CAP, 62 - headroom)
    if bits < _MIN_LIMB_BITS:
        dtype, bits, n_limbs = object, 0, 1
    else:
        dtype = np.int64
        n_limbs = ((max(const, 1) * facts[total]).bit_length() + headroom) // bits + 1
    fact_limbs = np.array([_limbs(f, bits, n_limbs) if bits else [f] for f in facts], dtype=dtype).T

    # -- treasure part of a key: index t, row-major over the treasure groups' counts
    t_dims = [r + 1 for r in root[:n_t]]
    t_coords = np.indices(t_dims, dtype=np.int64).reshape(n_t, -1)
    t_size = t_coords.shape[1]
    t_strides = [int(np.prod(t_dims[g + 1:], dtype=np.int64)) for g in range(n_t)]
    t_sum = t_coords.sum(axis=0)
    t_stop = const - np.dot(np.array(group_values[:n_t], np.int64), t_coords).astype(dtype)
    # treasure keys grouped by their sum (a layer holds, per hazard pair, one such block); t_rank is a
    # key's place in its block, t_child[g] the place of its child one group-g gem fewer in the block below
    t_order = np.argsort(t_sum, kind="stable")
    t_start = np.searchsorted(t_sum[t_order], np.arange(total + 2)).tolist()
    t_rank = np.empty(t_size, np.int64)
    t_rank[t_order] = np.arange(t_size) - np.repeat(np.asarray(t_start[:-1], np.int64), np.diff(t_start))
    t_child = [t_rank[np.maximum(np.arange(t_size) - t_strides[g], 0)] for g in range(n_t)]

    # -- hazard part: pairs (rb, ru) of black and blue gems left; h = rb * du + ru
    rb0, ru0 = root[-2], root[-1]
    db, du = rb0 + 1, ru0 + 1
    alive_hz = [[_alive(pos, rb0 - rb, ru0 - ru) for ru in range(du)] for rb in range(db)]
    alive_h = [(rb * du + ru, rb, ru) for rb in range(db) for ru in range(du) if alive_hz[rb][ru]]
    # a hazard child that busts is worth 0 (see above): give it multiplier 0 instead of a stored value
    k_black = np.zeros(db * du, np.int64)
    k_blue = np.zeros(db * du, np.int64)
    for h, rb, ru in alive_h:
        if rb and alive_hz[rb - 1][ru]:
            k_black[h] = rb
        if ru and alive_hz[rb][ru - 1]:
            k_blue[h] = ru

    # -- layers: the pieces (r, h, treasure sum) in storage order and where each piece starts in its layer
    pieces = []
    layer_n = [0] * (total + 1)
    layer_off = np.zeros((total + 1, db * du), np.int64)
    for r in range(total + 1):
        for h, rb, ru in alive_h:
            ts = r - rb - ru
            if 0 <= ts <= total and t_start[ts + 1] > t_start[ts]:
                layer_off[r, h] = layer_n[r]
                layer_n[r] += t_start[ts + 1] - t_start[ts]
                pieces.append((r, h, ts))
    bounds = np.concatenate(([0], np.cumsum(layer_n))).astype(np.int64)
    widest = max(layer_n)

    go_all = np.empty((n_limbs, int(bounds[-1])), dtype)
    take_all = np.zeros(int(bounds[-1]), bool)

    def layer_buffer() -> np.ndarray:
        return np.zeros((n_limbs, widest), dtype)

    prev0, cur0, tmp = layer_buffer(), layer_buffer(), layer_buffer()
    # mid-pair values (Troubled Waters); with single draws they are the decision values themselves
    prev1, cur1 = (layer_buffer(), layer_buffer()) if pairs else (prev0, cur0)
    p = 0
    for r in range(total + 1):
        n = layer_n[r]
        lo, hi = int(bounds[r]), int(bounds[r + 1])
        mine = []
        while p < len(pieces) and pieces[p][0] == r:
            mine.append(pieces[p])
            p += 1
        if n:
            blocks = [t_order[t_start[ts]:t_start[ts + 1]] for _, _, ts in mine]
            cell_t = np.concatenate(blocks) if len(blocks) > 1 else blocks[0]
            cell_h = np.repeat(np.array([h for _, h, _ in mine], np.int64), [len(b) for b in blocks])
            stop = t_stop[cell_t] * fact_limbs[:, r:r + 1]
            if bits:
                _carry(stop, bits)
            if r == 0:
                cur0[:, :n] = stop
                cur1[:, :n] = stop
                go_all[:, lo:hi] = 0       # never read as a go value (an empty bag has none)
            else:
                # children in the layer below: (multiplier k_g, index in that layer) per group
                off = layer_off[r - 1]
                base = off[cell_h]
                kids = [(t_coords[g][cell_t], base + t_child[g][cell_t]) for g in range(n_t)]
                rank = t_rank[cell_t]
                # a zero multiplier (no gem of that kind left, or a bust) may point anywhere: mode="clip"
                # keeps the index in bounds and 0 * anything = 0
                kids.append((k_black[cell_h], off[cell_h - du] + rank))
                kids.append((k_blue[cell_h], off[cell_h - 1] + rank))
                go_here = go_all[:, lo:hi]
                # best value after one more gem: at a decision point (single draws; or the second gem of a
                # pair) ...
                _children_sum(prev0, kids, cur0[:, :n], tmp[:, :n], bits)
                if pairs:
                    # ... and mid-pair, where there is no choice: the first gem of a pair leads there
                    cur1[:, :n] = cur0[:, :n]
                    _children_sum(prev1, kids, go_here, tmp[:, :n], bits)
                else:
                    go_here[...] = cur0[:, :n]
                diff = go_here - stop
                if bits:
                    _carry(diff, bits)
                # go > stop: the top limb carries the sign, the lower ones are in [0, 2**bits)
                take = (diff[-1] > 0) | ((diff[-1] == 0) & diff[:-1].any(axis=0))
                np.copyto(stop, go_here, where=take)
                cur0[:, :n] = stop
                take_all[lo:hi] = take
        prev0, cur0 = cur0, prev0
        if pairs:
            prev1, cur1 = cur1, prev1
        else:
            prev1, cur1 = prev0, cur0
    return _SolvedStates(root=root, t_strides=t_strides, t_coords=t_coords, t_order=t_order, t_start=t_start,
                         t_rank=t_rank, alive_h=[h for h, _, _ in alive_h], pieces=pieces, bounds=bounds,
                         layer_off=layer_off, go=go_all, take=take_all, bits=bits, shift=shift,
                         stop_const=pos.banked_vp + leader_bonus + sum(r * v for r, v in zip(root, group_values)),
                         group_values=group_values)


def _children_sum(src: np.ndarray, kids, out: np.ndarray, tmp: np.ndarray, bits: int) -> np.ndarray:
    """``out = sum_g k_g * src[:, index_g]`` over one layer, carried back into limbs."""
    (k0, i0), *rest = kids
    # the ndarray methods, not the np.* wrappers: a layer of a small bag is only a few dozen states, so
    # call overhead is most of its cost
    src.take(i0, axis=1, out=out, mode="clip")
    out *= k0
    for k, i in rest:
        src.take(i, axis=1, out=tmp, mode="clip")
        tmp *= k
        out += tmp
    if bits:
        _carry(out, bits)
    return out


# ---------------------------------------------------------------------------------------------------
# Monte Carlo (seeded numpy) — an independent check of the exact values
def _shuffled_bags(pos: Position, trials: int, seed: int) -> np.ndarray:
    codes = np.repeat(np.arange(len(COLOURS), dtype=np.int8), pos.bag)
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(codes, (trials, 1)), axis=1)


def _alive_matrix(pos: Position, bags: np.ndarray) -> np.ndarray:
    """``alive[t, k]``: trial t still in after k draws (k = 0..n)."""
    trials, n = bags.shape
    nb = np.concatenate([np.zeros((trials, 1), np.int64), np.cumsum(bags == _BLACK, axis=1)], axis=1)
    nu = np.concatenate([np.zeros((trials, 1), np.int64), np.cumsum(bags == _BLUE, axis=1)], axis=1)
    b0, u0 = pos.drawn[_BLACK], pos.drawn[_BLUE]
    cb = np.maximum(0, b0 + nb - 1) - max(0, b0 - 1)
    cu = np.maximum(0, u0 + nu - 1) - max(0, u0 - 1)
    sb, su, sa = pos.shields
    return np.maximum(0, cb - sb) + np.maximum(0, cu - su) <= sa


def monte_carlo_survival(bag, draws, drawn=None, shields=None, *, trials: int = 20000,
                         seed: int = 0) -> tuple[float, float]:
    """Seeded simulation of :func:`survival`: ``(estimate, standard error)``."""
    trials = _whole(trials, "trials", "deepblue.dive.draw", 1, MAX_TRIALS)
    seed = _whole(seed, "seed", "deepblue.dive.draw", 0, MAX_SEED)
    pos = position(bag, drawn, shields)
    k = _check_draws(pos, draws)
    alive = _alive_matrix(pos, _shuffled_bags(pos, trials, seed))[:, k]
    p = float(alive.mean())
    return p, float(np.sqrt(max(p * (1 - p), 1e-12) / trials))


def monte_carlo_policy(policy: DivePolicy, *, trials: int = 20000, seed: int = 0) -> tuple[float, float]:
    """Seeded simulation of dives played by ``policy``: ``(mean dive VP, standard error)``.

    Each trial shuffles the bag, then walks the policy's states draw by draw; a bust pays the bust value.
    """
    if not isinstance(policy, DivePolicy):
        raise _bad("DEEPBLUE_NOT_A_POLICY", "deepblue.dive.stop", value=_quote(policy))
    trials = _whole(trials, "trials", "deepblue.dive.draw", 1, MAX_TRIALS)
    seed = _whole(seed, "seed", "deepblue.dive.draw", 0, MAX_SEED)
    pos = policy.start
    bags = _shuffled_bags(pos, trials, seed)
    alive = _alive_matrix(pos, bags)
    group_of = np.zeros(len(COLOURS), np.int64)
    for g, grp in enumerate(policy.groups):
        for c in grp:
            group_of[COLOURS.index(c)] = g
    bust_vp = policy.leader_bonus if policy.bonus_kept_on_bust else 0
    results = np.empty(trials, float)
    per_step = policy.gems_per_draw
    for t in range(trials):
        key = list(policy.root)
        k = 0
        while True:
            tk = tuple(key)
            if policy._memo.action(tk) == "stop":     # unchecked: the walk only visits reached states
                results[t] = float(policy._banked(tk) + policy.leader_bonus)
                break
            busted = False
            for _ in range(per_step):
                if k >= bags.shape[1]:
                    break
                key[group_of[bags[t, k]]] -= 1
                k += 1
                if not alive[t, k]:
                    busted = True
                    break
            if busted:
                results[t] = bust_vp
                break
    mean = float(results.mean())
    return mean, float(results.std(ddof=1) / np.sqrt(trials))


# ---------------------------------------------------------------------------------------------------
# The same answers from a validated Position (:func:`position`): a dashboard that redraws several charts
# from one position validates it once. Public names for what the gem-bag view used to import privately.
def position_bust_chance(pos: Position) -> Fraction:
    """:func:`bust_chance` of a validated position (its shields and scouting spots counted)."""
    return _bust_next(pos)


def position_survival(pos: Position, draws: int) -> Fraction:
    """:func:`survival` of a validated position; ``draws`` is checked like there."""
    return _survival(pos, _check_draws(pos, draws))


def position_vp_distribution(pos: Position, draws: int) -> VPDistribution:
    """:func:`vp_distribution` of a validated position; ``draws`` is checked like there."""
    return _vp_distribution(pos, _check_draws(pos, draws))


def check_draws(pos: Position, draws) -> int:
    """``draws`` if it is a whole number of draws this position allows, else :class:`GemInputError` naming
    rule ``deepblue.dive.draw``."""
    return _check_draws(pos, draws)
