"""Sewer Pirats bots: ``greedy`` (strongest), ``cautious`` and ``random``, each deciding from
``ENGINE.observe(state, seat)`` alone (see :mod:`toolkit.core.bots`).

``greedy`` tries every legal move on a scratch copy of the observed table (:class:`toolkit.pirats.coach.Board`)
and keeps the one of highest value: the points each ship's next sailing would add to its own treasure
(:func:`toolkit.pirats.score`), weighted by how sure that sailing is (a ship with a captain sails for sure, an
open one maybe), plus the cards in hand. Every decision of the game goes through it:

* action A–D and a weasel's second action: draw (which face-up card, by the ship it helps most), move which
  figure where, become captain, set sail, pass;
* loot picks (the token that adds most to its score; a rat takes its second), a toad staying aboard when the
  captain space or a better place for the next group is worth more than the best loot now, a snail's peek
  (always: the extra space stays optional) and its step;
* discards and auction payments keep the cards it needs most; the crew auction values each species in cards.

``cautious`` is the same valuation trusting only ships that already have a captain, keeping two cards in
hand and valuing cards higher: it draws more and boards late.

>>> from toolkit.core.bots import play_out
>>> from toolkit.pirats import ENGINE
>>> state, moves = play_out(ENGINE, 1, ["greedy", "random"], players=2)
>>> state.phase
'over'
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from toolkit.core.bots import Decision, RandomBot
from toolkit.core.errors import InvalidStateError
from toolkit.core.explain import Event
from toolkit.core import i18n
from toolkit.core.i18n import Term
from toolkit.pirats.coach import Board, Weights, token_gain, _face
from toolkit.pirats.model import (CAPTAIN, HAND_LIMIT, MOVE_TYPES, SHIPS, BecomeCaptain, Bid, Draw, MovePirat, OpenAuction, Pass, SetSail,
                                  SnailStep, Stay, TakeLoot)

__all__ = ["BOTS", "CautiousBot", "GreedyBot", "SPECIES_WORTH", "strongest_level"]

_SHIP = {s: i for i, s in enumerate(SHIPS)}

#: What a hired figure is worth in points, for the auction (a rat's second loot, a weasel's second action and
#: a cockroach's discount earn most in play; a snail's luck least).
SPECIES_WORTH = {"rat": 3.0, "weasel": 2.4, "cockroach": 2.4, "toad": 1.8, "raccoon": 1.8, "snail": 1.5}

#: A peek is free and the extra space it may bring stays optional: among equal moves, peek.
_PEEK_EDGE = 0.05
#: Sailing now rather than later with a weasel's second action: the loot is certain now.
_SAIL_NOW_EDGE = 0.5


def _pts(x: float) -> str:
    return f"{x:+.1f}"


def _ship(name: str) -> Term:
    return Term(f"pirats.ship.{name}")


def _space(index: int) -> Term:
    return Term("pirats.space.captain") if index == CAPTAIN else Term(f"pirats.space.{index + 1}")


class GreedyBot:
    """Plays the move whose table is worth most to its seat (see the module docstring)."""

    name = "greedy"

    def __init__(self, weights: Weights | None = None, name: str | None = None):
        if weights is not None and not isinstance(weights, Weights):
            raise TypeError(f"weights must be a Weights record (or None for the defaults), not {weights!r:.60}")
        self.weights = weights or Weights()
        if name is not None:
            self.name = name

    # ---- the protocol -------------------------------------------------------------------------
    def decide(self, view: Mapping[str, Any], legal: Sequence[Any], rng: np.random.Generator) -> Decision:
        board = Board.from_view(view, self.weights)   # refuses anything that is not a seat's observation
        if isinstance(legal, (str, bytes)) or not isinstance(legal, Sequence) or not all(
                isinstance(m, MOVE_TYPES) for m in legal):
            raise TypeError("legal must be the list of Sewer Pirats legal moves (ENGINE.legal_moves)")
        if not legal:
            return Decision(None, Event("BOT_NO_MOVE", "bots.random", seat=board.seat))
        phase = view.get("phase")
        if len(legal) == 1:
            return Decision(legal[0], self._forced(board, legal[0]))
        handler: Callable[[Board, Mapping[str, Any], Sequence[Any]], Decision] = {
            "action": self._action, "extra": self._action, "draw": self._second_card, "discard": self._discard,
            "sail": self._pick, "snail": self._snail, "auction": self._open, "bid": self._bid, "pay": self._pay,
        }.get(phase, self._fallback)  # type: ignore[arg-type]
        try:
            return handler(board, view, legal)
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as exc:
            # only a view and a move list of two different positions get here (the bot tests play every phase)
            raise InvalidStateError(f"the view (phase {phase!r}) and the legal moves are not of one position "
                                    f"({type(exc).__name__})") from None

    def _event(self, code: str, rule: str, board: Board, **params: Any) -> Event:
        key = f"pirats.bots.level.{self.name}"
        return Event(code, rule, seat=board.seat, level=Term(key) if i18n.has(key) else self.name, **params)

    def _forced(self, board: Board, move: Any) -> Event:
        if isinstance(move, SetSail):
            return self._event("BOT_PIRATS_SAIL", "bots.pirats.timing", board, ship=_ship(move.ship),
                               gain=_pts(board.ship_gain(_SHIP[move.ship])))
        return self._event("BOT_PIRATS_ONLY_MOVE", "bots.pirats.ship-value", board, move=str(move))

    def _fallback(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        return Decision(legal[0], self._forced(board, legal[0]))  # pragma: no cover - every phase is handled

    # ---- cards --------------------------------------------------------------------------------
    def _need(self, board: Board) -> list[float]:
        """What one more card of each symbol is worth: its share of the hand's value, plus a little for the
        ship whose front flotsam this seat would gain most from."""
        out = []
        for s in range(len(SHIPS)):
            h = list(board.hand)
            before = board.cards_value(h)
            h[s] += 1
            worth = board.cards_value(h) - before
            front = board.flotsam[s][0][0] if board.flotsam[s] else ()
            best = max((token_gain(board.treasure[board.seat], [t]) for t in front), default=0)
            out.append(worth + 0.05 * best)
        return out

    def _draw_value(self, board: Board, legal: Sequence[Any], cards: int) -> tuple[float, Any]:
        """The value of drawing ``cards`` cards and the best first draw among ``legal``'s draws."""
        need = self._need(board)
        draws = [m for m in legal if isinstance(m, Draw)]
        if not draws:
            return float("-inf"), None
        avg = sum(need) / len(need)

        def worth(d: Draw) -> float:
            return avg if d.source == "deck" else need[_SHIP[d.source]]

        first = max(draws, key=worth)  # a face-up card of the most needed symbol beats a blind one
        room = max(0, 6 - sum(board.hand))  # cards over six are discarded at once
        gain = worth(first) + (cards - 1) * avg if room else 0.0
        gain = gain if room >= cards else gain * room / cards
        return gain, first

    def _second_card(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        _, move = self._draw_value(board, legal, 1)
        return Decision(move, self._event("BOT_PIRATS_DRAW_SECOND", "bots.pirats.cards", board,
                                          source=_source(move)))

    def _keep_value(self, board: Board, hand: Sequence[int]) -> float:
        need = self._need(board)
        return board.cards_value(hand) + sum(0.01 * n * h for n, h in zip(need, hand))

    def _discard(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        move = max(legal, key=lambda m: self._keep_value(board, [h - c for h, c in zip(board.hand, m.cards)]))
        return Decision(move, self._event("BOT_PIRATS_DISCARD", "bots.pirats.cards", board,
                                          cards=[Term(f"pirats.card.{SHIPS[i]}") for i in range(3)
                                                 for _ in range(move.cards[i])]))

    # ---- actions A-D --------------------------------------------------------------------------
    def _action(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        base = board.value()
        w = self.weights
        best: tuple[float, Any, Board | None] | None = None
        kept: tuple[float, Any, Board | None] | None = None  # the best move that keeps the reserve
        for move in legal:
            after: Board | None = None
            if isinstance(move, Draw):
                continue
            if isinstance(move, (MovePirat, BecomeCaptain)):
                after = board.after(move)
                if after is None:  # pragma: no cover - a legal move always has a path
                    continue
                value = after.value() + (_PEEK_EDGE if isinstance(move, MovePirat) and move.peek else 0.0)
            elif isinstance(move, SetSail):
                value = base + _SAIL_NOW_EDGE
            else:  # Pass: a weasel declining its second action (or nothing else is possible)
                value = base
            entry = (value, move, after)
            if best is None or value > best[0]:
                best = entry
            if (after is None or sum(after.hand) >= w.reserve) and (kept is None or value > kept[0]):
                kept = entry
        draw_gain, draw = self._draw_value(board, legal, 2)
        if sum(board.hand) >= HAND_LIMIT and best is not None and not isinstance(best[1], Pass):
            # a full hand would only discard what it draws: act instead (this also keeps a table of bots
            # that value cards highly from drawing and discarding for ever)
            draw = None
        if draw is not None:
            entry = (base + draw_gain, draw, None)
            if best is None or entry[0] > best[0]:
                best = entry
            if kept is None or entry[0] > kept[0]:
                kept = entry
        choice = kept or best
        assert choice is not None
        value, move, after = choice
        return Decision(move, self._explain_action(board, base, value, move, after, draw_gain))

    def _explain_action(self, board: Board, base: float, value: float, move: Any, after: Board | None,
                        draw_gain: float) -> Event:
        if isinstance(move, Draw):
            return self._event("BOT_PIRATS_DRAW", "bots.pirats.cards", board, source=_source(move),
                               best=_pts(draw_gain), card=_pts(board.weights.card_value))
        if isinstance(move, SetSail):
            return self._forced(board, move)
        if isinstance(move, Pass):
            return self._event("BOT_PIRATS_PASS", "bots.pirats.powers", board)
        assert after is not None
        s = _SHIP[move.ship]
        where = after.where(board.seat, move.figure)
        gain = after.ship_gain(s) - board.ship_gain(s)
        cost = sum(board.hand) - sum(after.hand)
        params = dict(figure=Term(f"pirats.species.{move.figure.partition('#')[0]}"), ship=_ship(move.ship),
                      space=_space(where[1]) if where else "-", gain=_pts(gain), cards=cost,
                      sure=f"{after.timing(s):.0%}", value=_pts(value - base))
        if isinstance(move, BecomeCaptain):
            return self._event("BOT_PIRATS_CAPTAIN", "bots.pirats.ship-value", board, **params)
        return self._event("BOT_PIRATS_MOVE", "bots.pirats.ship-value", board, **params)

    # ---- sailing and powers -------------------------------------------------------------------
    def _pick(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        pile = board.treasure[board.seat]
        takes = [m for m in legal if isinstance(m, TakeLoot)]
        best = max(takes, key=lambda m: (token_gain(pile, [str(m.token)]), _face(str(m.token)), str(m.token)))
        gain = token_gain(pile, [str(best.token)])
        if any(isinstance(m, Stay) for m in legal):
            stay = self._stay_value(board, view)
            if stay > gain:
                return Decision(Stay(), self._event("BOT_PIRATS_STAY", "bots.pirats.powers", board,
                                                    stay=_pts(stay), take=_pts(gain)))
        return Decision(best, self._event("BOT_PIRATS_TAKE", "bots.pirats.loot", board, token=best.token,
                                          gain=_pts(gain), before=board.score(board.seat),
                                          after=board.score(board.seat) + gain))

    def _stay_value(self, board: Board, view: Mapping[str, Any]) -> float:
        """A toad staying aboard: the pirats ahead of it took loot and go home, so it moves up to the next
        space — the captain space from space 3 if its owner has no other captain — and meets the next flotsam
        group (visible already) there."""
        sailing = view.get("sailing") or {}
        s = _SHIP.get(sailing.get("ship"), -1)
        space = sailing.get("space")
        if s < 0 or not isinstance(space, int) or len(board.flotsam[s]) < 2:
            return 0.0
        idx = space - 1
        toad = board.ships[s][idx]
        if toad is None:
            return 0.0
        own_captain = board.captain_of(board.seat)
        target = idx + 1
        if target == CAPTAIN and own_captain is not None and own_captain != s:
            return 0.0  # held on space 3: no better than now
        future = board.copy()
        future.ships[s] = [None] * 4
        future.ships[s][target] = toad
        future.flotsam = [g if i != s else g[1:] for i, g in enumerate(board.flotsam)]
        return future.timing(s) * future.ship_gain(s)

    def _snail(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        pending = view.get("pending")
        after = board.after(SnailStep(), pending)
        base = board.value()
        stepped = after.value() if after is not None else float("-inf")
        s_i = board.where(board.seat, pending) if pending else None
        ship = _ship(SHIPS[s_i[0]]) if s_i else "-"
        if stepped > base:
            return Decision(SnailStep(), self._event("BOT_PIRATS_STEP", "bots.pirats.powers", board, ship=ship,
                                                     gain=_pts(stepped - base)))
        return Decision(Pass(), self._event("BOT_PIRATS_NO_STEP", "bots.pirats.powers", board, ship=ship,
                                            gain=_pts(stepped - base) if after is not None else "-"))

    # ---- the crew auction ---------------------------------------------------------------------
    def _worth(self, board: Board, species: str, under: int) -> float:
        return SPECIES_WORTH.get(species, 1.5) + under * board.weights.card_value

    def _open(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        auc = view["auction"]
        k = board.weights.card_value

        def value(m: OpenAuction) -> float:
            i = m.stool - 1
            return self._worth(board, auc["bar"][i], auc["cards_under"][i]) - k * m.bid

        move = max(legal, key=lambda m: (value(m), -m.bid, -m.stool))
        species = auc["bar"][move.stool - 1]
        return Decision(move, self._event("BOT_PIRATS_OPEN", "bots.pirats.auction", board, stool=move.stool,
                                          species=Term(f"pirats.species.{species}"), bid=move.bid,
                                          worth=_pts(value(move))))

    def _bid(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        auc = view["auction"]
        i = (auc["stool"] or 1) - 1
        species = auc["bar"][i]
        worth = self._worth(board, species, auc["cards_under"][i])
        limit = int(worth // board.weights.card_value)
        held = sum(board.hand)
        bids = sorted((m for m in legal if isinstance(m, Bid)), key=lambda m: m.amount)
        if bids and bids[0].amount <= limit and held - bids[0].amount >= max(2, board.weights.reserve):
            move: Any = bids[0]
            code = "BOT_PIRATS_BID"
        else:
            move, code = Pass(), "BOT_PIRATS_BID_PASS"
        return Decision(move, self._event(code, "bots.pirats.auction", board, species=Term(f"pirats.species.{species}"),
                                          bid=auc["bid"] + 1, limit=limit))

    def _pay(self, board: Board, view: Mapping[str, Any], legal: Sequence[Any]) -> Decision:
        move = max(legal, key=lambda m: self._keep_value(board, [h - c for h, c in zip(board.hand, m.cards)]))
        return Decision(move, self._event("BOT_PIRATS_PAY", "bots.pirats.cards", board,
                                          cards=[Term(f"pirats.card.{SHIPS[i]}") for i in range(3)
                                                 for _ in range(move.cards[i])]))


class CautiousBot(GreedyBot):
    """Greedy, trusting only ships that already have a captain; keeps two cards (see the module docstring)."""

    name = "cautious"

    def __init__(self) -> None:
        super().__init__(Weights(open_weight=0.15, late_open_weight=0.05, carry=0.4, card_value=1.6, reserve=2))


def _source(move: Any) -> Any:
    if move is None:  # pragma: no cover
        return "-"
    return Term("pirats.source.deck") if move.source == "deck" else Term(f"pirats.card.{move.source}")


#: level name → zero-argument factory, strongest first (the study in docs/pirats-bots-study.md ranks them)
BOTS: dict[str, Callable[[], Any]] = {"greedy": GreedyBot, "cautious": CautiousBot, "random": RandomBot}


def strongest_level(players: int) -> str:
    """The level that won most against the others at this player count in the committed study: greedy at
    3–5 players (53.9–58.0 % against cautious), cautious at 2 (greedy won only 33.4 % head to head).

    >>> strongest_level(2), strongest_level(4)
    ('cautious', 'greedy')
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise TypeError(f"players must be a whole number, not {players!r:.60}")
    return "cautious" if players == 2 else "greedy"
