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
remaining counts (memoised), kept in integers scaled by ``r!`` (``r`` gems left) so that every state of
one depth shares a denominator and no Fraction arithmetic happens inside the recursion.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
import itertools
from math import comb, factorial
from typing import Mapping

import numpy as np

from toolkit.deepblue.gems import COLOURS, HAZARDS, _bad, gem_counts, gem_values, shield_counts, spot_list

__all__ = ["bust_chance", "survival", "survival_curve", "vp_distribution", "expected_vp", "optimal_policy",
           "DivePolicy", "VPDistribution", "monte_carlo_survival", "monte_carlo_policy", "Position"]


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
        raise _bad("DEEPBLUE_BAD_COUNT", "deepblue.dive.draw", what="draws", value=repr(draws))
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
    _memo: dict = field(repr=False)

    # -- reading the solution
    def _scaled(self, key) -> int:
        return self._memo[(key, 0)][0]

    def stop_value(self, key=None) -> Fraction:
        key = self.root if key is None else key
        return Fraction(self._stop_scaled(key), factorial(sum(key)))

    def go_value(self, key=None) -> Fraction | None:
        """Expected VP of drawing (once more, then playing optimally); ``None`` when the bag is empty."""
        key = self.root if key is None else key
        go = self._memo[(key, 0)][2]
        return None if go is None else Fraction(go, factorial(sum(key)))

    @property
    def value(self) -> Fraction:
        return Fraction(self._scaled(self.root), factorial(sum(self.root)))

    def advice(self, key=None) -> str:
        """``"go"`` or ``"stop"`` (ties stop: the same VP without the risk of a misplay)."""
        key = self.root if key is None else key
        return self._memo[(key, 0)][1]

    def _stop_scaled(self, key) -> int:
        return (self._banked(key) + self.leader_bonus) * factorial(sum(key))

    def _banked(self, key) -> int:
        drawn = 0
        for g, (r0, r) in enumerate(zip(self.root, key)):
            drawn += (r0 - r) * self.group_values[g]
        return self.start.banked_vp + drawn

    def states(self) -> list[tuple[int, ...]]:
        """Every decision state reachable without busting, fewest draws first."""
        root = self.root
        keys = [k for (k, _) in self._memo if all(a <= b for a, b in zip(k, root))]
        return sorted(keys, key=lambda k: (-sum(k), [-x for x in k]))

    def table(self) -> list[dict]:
        """One row per reachable decision state: gems drawn by group, VP banked, stop and go values, advice.

        Built once per policy (a solved policy never changes): the gem-bag view reads it twice per
        render, for its chart and its table. Each call returns fresh row dicts."""
        cached = self.__dict__.get("_table_rows")
        if cached is None:
            cached = self.__dict__["_table_rows"] = self._build_table()
        return [dict(row) for row in cached]

    def _build_table(self) -> list[dict]:
        rows = []
        for key in self.states():
            drawn = {"+".join(g): r0 - r for g, r0, r in zip(self.groups, self.root, key)}
            go = self.go_value(key)
            rows.append({"draws": sum(self.root) - sum(key), **{f"drawn {k}": v for k, v in drawn.items()},
                         "banked_vp": self._banked(key), "stop": self.stop_value(key), "go": go,
                         "advice": self.advice(key), "hazards": self._hazard_status(key)})
        return rows

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


class _GridMemo:
    """The solved grid, read as ``memo[(key, 0)] -> (scaled best, action, scaled go)`` for alive keys."""

    def __init__(self, strides, order, best, act, go):
        self.strides, self.order, self.best, self.act, self.go = strides, order, best, act, go

    def _index(self, key) -> int:
        return sum(k * s for k, s in zip(key, self.strides))

    def __getitem__(self, item):
        key, phase = item
        idx = self._index(key)
        if self.act[idx] is None:
            raise KeyError(item)
        return self.best[idx], self.act[idx], self.go[idx]

    def __contains__(self, item) -> bool:
        key, _ = item
        if any(k < 0 for k in key):
            return False
        return self.act[self._index(key)] is not None

    def keys(self):
        order = self.order
        for idx, act in enumerate(self.act):
            if act is None:
                continue
            key = [0] * len(self.strides)
            rest = idx
            for g in order:
                key[g], rest = divmod(rest, self.strides[g])
            yield tuple(key), 0

    def __iter__(self):
        return self.keys()


def optimal_policy(bag, drawn=None, shields=None, spots=None, *, leader_bonus: int = 0,
                   gems_per_draw: int = 1, bonus_kept_on_bust: bool = True) -> DivePolicy:
    """The exact optimal stop-or-go policy for a diver, maximising expected dive VP.

    ``gems_per_draw=2`` is the Troubled Waters scenario: the leader draws two gems at a time, each resolved
    in turn (a bust on the first ends the dive), and a diver may stop only between pairs.
    ``bonus_kept_on_bust`` follows the Japanese text (only gem VP is listed as lost on a bust); with
    ``False`` the leader bonus is lost too and weighs on the decision.
    """
    if gems_per_draw not in (1, 2):
        raise _bad("DEEPBLUE_BAD_COUNT", "deepblue.scenario.troubled-waters", what="gems_per_draw",
                   value=repr(gems_per_draw))
    if isinstance(leader_bonus, bool) or not isinstance(leader_bonus, int) or leader_bonus < 0:
        raise _bad("DEEPBLUE_BAD_COUNT", "deepblue.dive.leader-bonus", what="leader_bonus", value=repr(leader_bonus))
    pos = position(bag, drawn, shields, spots)
    # group colours by meaning: each hazard alone, treasures (and zero-VP relics) by VP
    by_value: dict[int, list[str]] = {}
    for c in COLOURS:
        if c not in HAZARDS:
            by_value.setdefault(pos.values[COLOURS.index(c)], []).append(c)
    groups = tuple(tuple(v) for _, v in sorted(by_value.items())) + (("black",), ("blue",))
    group_values = tuple(pos.values[COLOURS.index(g[0])] if g[0] not in HAZARDS else 0 for g in groups)
    root = tuple(sum(pos.bag[COLOURS.index(c)] for c in g) for g in groups)
    n_groups = len(groups)
    gi_black, gi_blue = n_groups - 2, n_groups - 1
    total = sum(root)
    facts = [factorial(i) for i in range(total + 1)]
    bust_vp = leader_bonus if bonus_kept_on_bust else 0
    # banked VP = const - sum(r_g * v_g): VP of the whole root minus what is still in the bag
    const = pos.banked_vp + leader_bonus + sum(r * v for r, v in zip(root, group_values))
    dims = [r + 1 for r in root]
    # hazards are the most significant digits of the flat index, so dead (busted) slices are skipped whole
    n_t = n_groups - 2
    strides = [0] * n_groups
    stride = 1
    for g in range(n_t - 1, -1, -1):
        strides[g] = stride
        stride *= dims[g]
    t_size = stride
    strides[gi_blue] = t_size
    strides[gi_black] = t_size * dims[gi_blue]
    size = strides[gi_black] * dims[gi_black]
    alive_hz = [[_alive(pos, root[gi_black] - rb, root[gi_blue] - ru) for ru in range(dims[gi_blue])]
                for rb in range(dims[gi_black])]
    t_keys = list(itertools.product(*(range(dims[g]) for g in range(n_t))))
    t_sum = [sum(k) for k in t_keys]
    t_vp = [const - sum(k[g] * group_values[g] for g in range(n_t)) for k in t_keys]
    t_children = [[(k[g], strides[g]) for g in range(n_t) if k[g]] for k in t_keys]
    best0: list = [None] * size     # scaled value V * r! at a decision point
    act0: list = [None] * size      # "go" / "stop"
    go0: list = [None] * size       # scaled value of drawing
    pairs = gems_per_draw == 2
    best1: list = [None] * size if pairs else best0   # second gem of a pair: no choice
    s_black, s_blue = strides[gi_black], strides[gi_blue]
    # Every child (one gem fewer) has a smaller flat index than its parent, so one pass in index order is
    # the whole backward induction.
    for rb in range(dims[gi_black]):
        for ru in range(dims[gi_blue]):
            if not alive_hz[rb][ru]:
                continue
            black_ok = rb and alive_hz[rb - 1][ru]
            blue_ok = ru and alive_hz[rb][ru - 1]
            base = rb * s_black + ru * s_blue
            for t in range(t_size):
                idx = base + t
                r = t_sum[t] + rb + ru
                stop = t_vp[t] * facts[r]
                if r == 0:
                    best0[idx], act0[idx] = stop, "stop"
                    best1[idx] = stop
                    continue
                bust_scaled = bust_vp * facts[r - 1]
                go_a = 0   # children at decision points (single draws, or after the second gem of a pair)
                go_b = 0   # children mid-pair (after the first gem of a pair)
                for n, st in t_children[t]:
                    go_a += n * best0[idx - st]
                    if pairs:
                        go_b += n * best1[idx - st]
                if rb:
                    if black_ok:
                        go_a += rb * best0[idx - s_black]
                        if pairs:
                            go_b += rb * best1[idx - s_black]
                    else:
                        go_a += rb * bust_scaled
                        go_b += rb * bust_scaled
                if ru:
                    if blue_ok:
                        go_a += ru * best0[idx - s_blue]
                        if pairs:
                            go_b += ru * best1[idx - s_blue]
                    else:
                        go_a += ru * bust_scaled
                        go_b += ru * bust_scaled
                if pairs:
                    best1[idx] = go_a
                    go = go_b
                else:
                    go = go_a
                go0[idx] = go
                if go > stop:
                    best0[idx], act0[idx] = go, "go"
                else:
                    best0[idx], act0[idx] = stop, "stop"
    memo = _GridMemo(strides, [gi_black, gi_blue] + list(range(n_t)), best0, act0, go0)
    return DivePolicy(pos, gems_per_draw, leader_bonus, bonus_kept_on_bust, groups, group_values, root, memo)


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
    pos = position(bag, drawn, shields)
    k = _check_draws(pos, draws)
    alive = _alive_matrix(pos, _shuffled_bags(pos, trials, seed))[:, k]
    p = float(alive.mean())
    return p, float(np.sqrt(max(p * (1 - p), 1e-12) / trials))


def monte_carlo_policy(policy: DivePolicy, *, trials: int = 20000, seed: int = 0) -> tuple[float, float]:
    """Seeded simulation of dives played by ``policy``: ``(mean dive VP, standard error)``.

    Each trial shuffles the bag, then walks the policy's states draw by draw; a bust pays the bust value.
    """
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
            if policy.advice(tk) == "stop":
                results[t] = float(policy.stop_value(tk))
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
