"""Teaching positions: seeded game states set up to show one part of the rules.

They start from a real ``new_state`` and only move boats, tiles and cards that the rules let a game reach
(a boat on a wreck's scouting spot, another next to it, a chosen hand), so everything after them is
ordinary engine play.
"""

from __future__ import annotations

from dataclasses import replace

from toolkit.deepblue.engine import ENGINE, DeepBlueEngine
from toolkit.deepblue.model import Boat, DeepBlueState, StartDive, Tile

__all__ = ["teaching_dive"]


def _with_tile(state: DeepBlueState, site: int, wreck: str) -> DeepBlueState:
    """Swap tiles so that ``wreck`` lies face up at ``site``."""
    tiles = list(state.tiles)
    src = next(t for t in tiles if t.wreck == wreck)
    here = next((t for t in tiles if t.site == site), None)
    tiles.remove(src)
    if here is not None and here is not src:
        tiles.remove(here)
        tiles.append(Tile(src.site, here.wreck, here.face_up))
    tiles.append(Tile(site, wreck, True))
    return replace(state, tiles=tuple(sorted(tiles, key=lambda t: t.site)))


def _boats(state: DeepBlueState, seat: int, *boats: Boat) -> DeepBlueState:
    p = state.players[seat]
    return replace(state, players=state.players[:seat] + (replace(p, boats=tuple(boats)),) + state.players[seat + 1:])


def _hand(state: DeepBlueState, seat: int, extra: tuple[int, ...]) -> DeepBlueState:
    """Give ``seat`` market cards ``extra`` (taken from the deck or market, which is refilled)."""
    p = state.players[seat]
    deck = tuple(c for c in state.deck if c not in extra)
    market = tuple(c for c in state.market if c not in extra)
    refill = 4 - len(market)
    market, deck = market + deck[:refill], deck[refill:]
    players = state.players[:seat] + (replace(p, hand=tuple(sorted(p.hand + extra))),) + state.players[seat + 1:]
    return replace(state, players=players, deck=deck, market=market)


def teaching_dive(seed: int = 7, engine: DeepBlueEngine = ENGINE) -> DeepBlueState:
    """Three divers at one wreck: seat 0 leads from a treasure spot, seat 2 waits on the same tile on a
    protection spot (which it loses if it joins: joiners dive without a spot bonus), seat 1 is one step
    away. Seat 0 also holds a gem-scoring card. The state is at the gathering (seats 1 and 2 choose
    whether to join)."""
    if not isinstance(engine, DeepBlueEngine):
        raise TypeError(f"engine must be a DeepBlueEngine, not {engine!r:.60}")
    comps = engine.components
    state = engine.new_state(seed, players=3)
    wreck = next(w for w in comps.wrecks if not w.empty and not w.sunken_city and w.deck == "start"
                 and any(s in ("silver", "gold", "red") for s in w.spots)
                 and any(s in ("black", "blue", "any") for s in w.spots))
    site = comps.board.advanced_sites[-1]
    state = _with_tile(state, site, wreck.id)
    treasure = next(i for i, s in enumerate(wreck.spots) if s in ("silver", "gold", "red"))
    guard = next(i for i, s in enumerate(wreck.spots) if s in ("black", "blue", "any"))
    near = comps.board.neighbours(site)[0]
    far = next(s for s, d in sorted(comps.board.distances(site).items()) if d >= 2)
    state = _boats(state, 0, Boat(site, treasure), Boat(far))
    state = _boats(state, 1, Boat(near), Boat(far))
    state = _boats(state, 2, Boat(site, guard), Boat(far))
    scorer = next(c.id for c in comps.cards if c.starter is None and c.scores
                  and all(colour in ("silver", "gold", "red") for colour, _ in c.score_requires))
    state = _hand(state, 0, (scorer,))
    return engine.apply(state, StartDive(0, 0))
