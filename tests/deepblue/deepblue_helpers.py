"""Building Deep Blue positions for tests: place boats, set hands and the bag, start dives.

These edit states with ``dataclasses.replace`` (states are immutable values), so a test can reach a
position in a few lines instead of a long random game. Draws stay seeded: a test that needs a specific
gem leaves only that colour in the bag.
"""

from __future__ import annotations

from dataclasses import replace

from toolkit.deepblue import ENGINE, Join, StartDive
from toolkit.deepblue.gems import COLOURS
from toolkit.deepblue.model import NO_SPOT, Boat, Tile

E = ENGINE
COMPS = E.components


def card_named(name: str) -> int:
    return next(c.id for c in COMPS.cards if c.name["en"] == name)


def place(state, seat, boat, site, spot=NO_SPOT):
    p = state.players[seat]
    boats = p.boats[:boat] + (Boat(site, spot),) + p.boats[boat + 1:]
    players = state.players[:seat] + (replace(p, boats=boats),) + state.players[seat + 1:]
    return replace(state, players=players)


def set_hand(state, seat, cards):
    p = state.players[seat]
    players = state.players[:seat] + (replace(p, hand=tuple(sorted(cards))),) + state.players[seat + 1:]
    return replace(state, players=players)


def set_player(state, seat, **fields):
    p = state.players[seat]
    return replace(state, players=state.players[:seat] + (replace(p, **fields),) + state.players[seat + 1:])


def set_bag(state, **counts):
    return replace(state, bag=tuple(counts.get(c, 0) for c in COLOURS))


def put_tile(state, site, wreck, face_up=True):
    """Move tile ``wreck`` to ``site`` (swapping with the tile there), face up or down."""
    tiles = list(state.tiles)
    if wreck in state.removed:
        removed = tuple(w for w in state.removed if w != wreck)
        here = next((t for t in tiles if t.site == site), None)
        if here is not None:
            tiles.remove(here)
            removed += (here.wreck,)
        tiles.append(Tile(site, wreck, face_up))
        return replace(state, tiles=tuple(tiles), removed=removed)
    src = next(t for t in tiles if t.wreck == wreck)
    here = next((t for t in tiles if t.site == site), None)
    tiles.remove(src)
    if here is not None and here is not src:
        tiles.remove(here)
        tiles.append(Tile(src.site, here.wreck, here.face_up))
    tiles.append(Tile(site, wreck, face_up))
    return replace(state, tiles=tuple(sorted(tiles, key=lambda t: t.site)))


def far_site(state, site, min_dist=2):
    dist = COMPS.board.distances(site)
    return next(s for s, d in sorted(dist.items()) if d >= min_dist)


def near_site(site):
    return COMPS.board.neighbours(site)[0]


def dive_position(players=3, wreck=None, leader_spot=NO_SPOT, joiners=(), hands=None, bag=None, seed=1, **options):
    """A game where seat 0 starts a dive at a face-up tile (``wreck`` or the first starting tile);
    ``joiners`` join from a neighbouring site, everyone else waits far away. Returns the state in the
    'dive' phase, before the first draw."""
    s = E.new_state(seed, players=players, **options)
    if wreck is None:
        wreck = next(t.wreck for t in s.tiles if t.face_up)
    site = COMPS.board.advanced_sites[-1]
    s = put_tile(s, site, wreck, face_up=True)
    far = far_site(s, site)
    for seat in range(players):
        for b in (0, 1):
            s = place(s, seat, b, far)
    s = place(s, 0, 0, site, leader_spot)
    for seat in joiners:
        s = place(s, seat, 0, near_site(site))
    for seat, cards in (hands or {}).items():
        s = set_hand(s, seat, cards)
    if bag is not None:
        s = set_bag(s, **bag)
    s = E.apply(s, StartDive(0, 0))
    for seat in joiners:
        s = E.apply(s, Join(seat))
    assert s.phase == "dive"
    return s
