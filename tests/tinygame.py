"""A tiny game used to test the core and the generic widgets before (and besides) the real games.

Stones: a seeded pile of 10-15 stones; players take 1-3 stones in turn; whoever takes the last stone
wins. It has chance (the pile size), turns, refusals with rule ids, events and an outcome — every part of
the engine shape — in a few lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from toolkit.core import Chance, Engine, Event, InvalidMoveError, InvalidOptionError, InvalidStateError, Outcome, Violation
from toolkit.core import i18n, rules

_RULES = [
    {"id": "tiny.take.range", "title": {"en": "Take one to three", "ja": "1〜3個取る"},
     "source": "tests/tinygame.py", "passage": "players take 1-3 stones in turn",
     "text": {"en": "Take 1, 2 or 3 stones.", "ja": "石を1〜3個取ります。"}},
    {"id": "tiny.take.pile", "title": {"en": "Only what is there", "ja": "あるだけ"},
     "source": "tests/tinygame.py", "passage": "players take 1-3 stones",
     "text": {"en": "You cannot take more stones than the pile holds.", "ja": "山より多くは取れません。"}},
    {"id": "tiny.end", "title": {"en": "Last stone wins", "ja": "最後の石で勝ち"},
     "source": "tests/tinygame.py", "passage": "whoever takes the last stone wins",
     "text": {"en": "Whoever takes the last stone wins.", "ja": "最後の石を取った人の勝ちです。"}},
    {"id": "tiny.setup", "title": {"en": "Seeded pile", "ja": "シード付きの山"},
     "source": "tests/tinygame.py", "passage": "a seeded pile of 10-15 stones",
     "text": {"en": "The pile holds 10 to 15 stones, drawn from the seed.", "ja": "山はシードから決まる10〜15個です。"}},
]
_MESSAGES = {
    "TINY_TAKE_RANGE": {"en": "Take 1 to 3 stones, not {count}.", "ja": "取れるのは1〜3個です（{count}個は不可）。"},
    "TINY_TAKE_PILE": {"en": "Only {left} stones are left; you cannot take {count}.",
                       "ja": "残りは{left}個なので{count}個は取れません。"},
    "TINY_TOOK": {"en": "Seat {seat} took {count}; {left} left.", "ja": "席{seat}が{count}個取り、残り{left}個。"},
    "TINY_SETUP": {"en": "The pile holds {count} stones.", "ja": "山は{count}個です。"},
    "TINY_WON": {"en": "Seat {seat} took the last stone and wins.", "ja": "席{seat}が最後の石を取って勝ちました。"},
}
for _r in _RULES:
    rules.register(_r)
for _k, _v in _MESSAGES.items():
    i18n.register(_k, _v, origin="tests/tinygame.py")


@dataclass(frozen=True)
class Take:
    seat: int
    count: int

    def __str__(self) -> str:
        return f"{self.seat} take {self.count}"


@dataclass(frozen=True)
class StonesState:
    players: int
    pile: int
    to_move: int
    last_taker: int | None
    chance: Chance


class Stones(Engine[StonesState, Take]):
    name = "tiny"
    state_type = StonesState
    move_types = (Take,)

    def new_state(self, seed: int, players: int = 2) -> StonesState:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise InvalidOptionError(f"players must be 2-4, not {players!r}")
        chance, pile = Chance(seed).integer(10, 16)
        return StonesState(players, pile, 0, None, chance)

    def legal_moves(self, state: StonesState) -> list[Take]:
        if self.is_over(state):
            return []
        return [Take(state.to_move, n) for n in range(1, min(3, state.pile) + 1)]

    def why_illegal(self, state: StonesState, move: Take) -> Violation | None:
        if self.is_over(state):
            return Violation("GAME_OVER", "core.over")
        if move.seat != state.to_move:
            return Violation("NOT_YOUR_TURN", "core.turn", seat=move.seat, current=state.to_move)
        if not 1 <= move.count <= 3:
            return Violation("TINY_TAKE_RANGE", "tiny.take.range", count=move.count)
        if move.count > state.pile:
            return Violation("TINY_TAKE_PILE", "tiny.take.pile", count=move.count, left=state.pile)
        return None

    def _transition(self, state: StonesState, move: Take):
        left = state.pile - move.count
        new = StonesState(state.players, left, (state.to_move + 1) % state.players, move.seat, state.chance)
        events = [Event("TINY_TOOK", "tiny.take.range", seat=move.seat, count=move.count, left=left)]
        if left == 0:
            events.append(Event("TINY_WON", "tiny.end", seat=move.seat))
        return new, tuple(events)

    def current_player(self, state: StonesState) -> int | None:
        return None if state.pile == 0 else state.to_move

    def outcome(self, state: StonesState) -> Outcome | None:
        if state.pile:
            return None
        return Outcome("TINY_WON", "tiny.end", result="win", winners=(state.last_taker,), seat=state.last_taker)

    def observe(self, state: StonesState, seat: int | None) -> Mapping[str, Any]:
        # no hidden cards: a seat's hand is empty (the shared key), a spectator's None
        return {"seat": seat, "pile": state.pile, "to_move": self.current_player(state),
                "phase": "over" if self.is_over(state) else "take", "hand": None if seat is None else []}

    def parse_move(self, text: str) -> Take:
        match = re.fullmatch(r"\s*(\d+)\s+take\s+(-?\d+)\s*", str(text))
        if not match:
            raise InvalidMoveError(f"not a Stones move: {text!r} (write e.g. '0 take 2')")
        return Take(int(match[1]), int(match[2]))

    def validate_state(self, state: StonesState) -> None:
        if state.pile < 0 or not 0 <= state.to_move < state.players:
            raise InvalidStateError(f"broken Stones state: pile {state.pile}, to_move {state.to_move}")


STONES = Stones()
