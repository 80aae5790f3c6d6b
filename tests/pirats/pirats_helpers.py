"""Shared helpers for the Sewer Pirats tests: random playthroughs and a broad universe of candidate moves."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Iterator

from toolkit.pirats import (ENGINE, SHIPS, SPECIES, BecomeCaptain, Bid, Discard, Draw, MovePirat, OpenAuction,
                            Pass, Pay, Pirat, PiratsState, SetSail, Ship, SnailStep, Stay, TakeLoot, Token, figure_label)


def playthrough(seed: int, players: int = 4, variant: str = "standard", limit: int = 5000,
                **options: Any) -> Iterator[tuple[PiratsState, Any]]:
    """Yield ``(state, move)`` along a seeded random game; the final state comes with ``None``."""
    rng = random.Random(seed)
    state = ENGINE.new_state(seed, players=players, variant=variant, **options)
    for _ in range(limit):
        moves = ENGINE.legal_moves(state)
        if not moves:
            yield state, None
            return
        move = rng.choice(moves)
        yield state, move
        state = ENGINE.apply(state, move)
    raise AssertionError(f"seed {seed}: no end after {limit} moves")


def candidate_moves(state: PiratsState) -> list[Any]:
    """Legal and illegal moves alike: every kind, every figure label, ship, count and token in sight."""
    out: list[Any] = [Draw("deck")] + [Draw(s) for s in SHIPS] + [Stay(), SnailStep(), Pass()]
    labels = {figure_label(c, i) for c in state.crews for i in range(len(c))} | set(SPECIES) | {"rat#2", "toad#3"}
    for label in sorted(labels):
        for ship in SHIPS:
            out.append(BecomeCaptain(label, ship))
            for steps in (1, 2, 3):
                out.append(MovePirat(label, ship, steps))
                out.append(MovePirat(label, ship, steps, True))
    out += [SetSail(s) for s in SHIPS]
    tokens = {t for sh in state.ships for g in sh.flotsam for t in g.loot} | {Token("fries", 2), Token("can", 30)}
    out += [TakeLoot(t) for t in sorted(tokens)]
    for a in range(4):
        for b in range(4):
            for c in range(4):
                out += [Discard((a, b, c)), Pay((a, b, c))]
    if state.auction is not None:
        out += [OpenAuction(i, b) for i in range(1, min(len(state.auction.bar) + 1, 20) + 1) for b in range(0, 12)]
        out += [Bid(b) for b in range(1, 14)]
    return out


def place(state: PiratsState, ship: str, spaces: dict[int, tuple[int, int] | None]) -> PiratsState:
    """A copy of ``state`` with pirats put on ``ship``: ``{space number 1-4: (seat, figure)}``."""
    s = SHIPS.index(ship)
    old = state.ships[s]
    cells = list(old.spaces)
    for number, who in spaces.items():
        cells[number - 1] = None if who is None else Pirat(*who)
    ships = list(state.ships)
    ships[s] = Ship(tuple(cells), old.flotsam)  # type: ignore[arg-type]
    return replace(state, ships=tuple(ships))


def with_hand(state: PiratsState, seat: int, cat: int = 0, bird: int = 0, fish: int = 0) -> PiratsState:
    """A copy where ``seat`` holds exactly these cards; the difference goes to or comes from the deck, so
    the 54 cards stay conserved."""
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)
    for i, want in enumerate((cat, bird, fish)):
        sym = SHIPS[i]
        while hands[seat][i] > want:
            hands[seat][i] -= 1
            deck.append(sym)
        while hands[seat][i] < want:
            deck.remove(sym)
            hands[seat][i] += 1
    return replace(state, hands=tuple(tuple(h) for h in hands), deck=tuple(deck))  # type: ignore[arg-type]


def table(players: int = 4, species=("rat", "cockroach", "toad", "snail"), seed: int = 1, **options: Any) -> PiratsState:
    """A fresh standard game with a chosen crew (for hand-built positions)."""
    return ENGINE.new_state(seed, players=players, species=list(species), **options)


def figure(state: PiratsState, seat: int, species: str) -> tuple[int, int]:
    """``(seat, figure index)`` of a seat's figure of ``species`` (the first one)."""
    return seat, state.crews[seat].index(species)


def events_of(state: PiratsState, move: Any) -> tuple[PiratsState, list]:
    """Apply a move (text or object) and return the new state and its events."""
    if isinstance(move, str):
        move = ENGINE.parse_move(move)
    new, events = ENGINE.transition(state, move)
    return new, list(events)


def front_loot(state: PiratsState, ship: str, loot: tuple[str, ...], bonus: str = "ketchup") -> PiratsState:
    """Replace the flotsam group at ``ship``'s bow (the swapped tokens go to/come from the stocks, so the
    token count is conserved only when the same kinds are swapped; tests that check conservation use the
    real setup)."""
    s = SHIPS.index(ship)
    old = state.ships[s]
    from toolkit.pirats import Flotsam
    group = Flotsam(tuple(Token.parse(t) for t in loot), Token.parse(bonus))
    ships = list(state.ships)
    ships[s] = Ship(old.spaces, (group,) + old.flotsam[1:])
    return replace(state, ships=tuple(ships))
