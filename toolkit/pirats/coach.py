"""Reading a Sewer Pirats table from one seat's observation: what each ship's next sailing would pay this
seat, and what every legal move changes — the analysis behind the bots (:mod:`toolkit.pirats.bots`) and
the table's hints.

Everything here reads ``ENGINE.observe(state, seat)`` only (a plain mapping): never a state, so never a
hidden card. The valuation ("greedy" in the docs, docs/pirats-notes.md "Bots"):

* **a ship's next sailing** is paid out as the rules say — the captain takes the bonus token and a loot
  token, then the pirats from the bow back take one each (a rat two, with powers) until the loot runs
  out. Each pirat takes the token that adds most to its *owner's* score (:func:`toolkit.pirats.score` of
  the owner's treasure with and without it; ties: the higher printed value). A ship without a captain is
  paid out as if an unknown captain took the bonus and the loot of highest printed value first.
* **timing**: a ship with a captain sails for sure at its captain's next turn (weight 1); a ship without
  one sails only once somebody becomes captain (weight ``open_weight``, lower again when the loot stock
  cannot refill a group: the end is near, and only captained ships still sail).
* a figure aboard that gets nothing at the next sailing moves up (``carry`` points); cards in hand are
  worth ``card_value`` each (the first four of a symbol fully, more a fifth of that), since every space
  costs one.

>>> from toolkit.pirats import ENGINE
>>> state = ENGINE.new_state(3, players=3)
>>> view = ENGINE.observe(state, 0)
>>> board = Board.from_view(view)
>>> round(board.projection(0), 1) >= board.score(0)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Mapping, Sequence

from toolkit.core.errors import InvalidStateError
from toolkit.pirats.boarding import crew_path
from toolkit.pirats.model import CAPTAIN, SHIPS, BecomeCaptain, Discard, Draw, MovePirat, Pay, SnailStep, TakeLoot
from toolkit.pirats.tokens import score

__all__ = ["Board", "Figure", "MoveEffect", "Weights", "move_effects", "token_gain"]

_SHIP = {s: i for i, s in enumerate(SHIPS)}


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure on a ship as the table shows it: owner, label (``rat``, ``rat#2``) and species."""

    seat: int
    label: str
    species: str


@dataclass(frozen=True)
class Weights:
    """The valuation's knobs (see the module docstring); the bot levels differ only here."""

    open_weight: float = 0.6      # a ship without a captain: it sails only once somebody captains it
    late_open_weight: float = 0.2  # the same when the loot stock cannot refill a flotsam group
    carry: float = 1.0            # a figure aboard that gets nothing now moves up for the next group
    card_value: float = 1.2       # a card in hand (the first four of a symbol)
    reserve: int = 0              # cards a bot keeps in hand: moves that leave fewer are not made


@lru_cache(maxsize=1 << 16)
def _score(tokens: tuple[str, ...]) -> int:
    return score(list(tokens))


def _face(token: str) -> int:
    """A token's printed value (0 for a bonus token)."""
    _, _, number = token.rpartition(" ")
    return int(number) if number.isdigit() else 0


def token_gain(pile: Sequence[str], tokens: Iterable[str]) -> int:
    """What ``tokens`` add to the score of ``pile`` (a treasure as text tokens).

    >>> token_gain(["fries 2"], ["ketchup"])
    5
    """
    for name, value in (("pile", pile), ("tokens", tokens)):
        if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) \
                or not all(isinstance(t, str) for t in value):
            raise TypeError(f"{name} must be a list of token texts such as 'fries 2', not {value!r:.60}")
    base = tuple(sorted(pile))
    return _score(tuple(sorted(base + tuple(tokens)))) - _score(base)


def _best_pick(pile: tuple[str, ...], loot: Sequence[str]) -> str:
    """The loot token that adds most to ``pile`` (ties: higher printed value, then text order)."""
    base = _score(pile)
    best, key = loot[0], None
    for t in sorted(set(loot)):
        k = (_score(tuple(sorted(pile + (t,)))) - base, _face(t))
        if key is None or k > key:
            best, key = t, k
    return best


def _payout(spaces: tuple[Figure | None, ...], loot: tuple[str, ...], bonus: str | None,
            piles: tuple[tuple[str, ...], ...], powers: bool) -> dict[int, tuple[str, ...]]:
    """Tokens each seat gets at this ship's next sailing with these crews (see the module docstring)."""
    return _payout_cached(spaces, loot, bonus, piles, powers)


@lru_cache(maxsize=1 << 15)
def _payout_cached(spaces: tuple[Figure | None, ...], loot: tuple[str, ...], bonus: str | None,
                   piles: tuple[tuple[str, ...], ...], powers: bool) -> dict[int, tuple[str, ...]]:
    left = list(loot)
    got: dict[int, list[str]] = {}
    captain = spaces[CAPTAIN]
    order: list[Figure] = []
    if captain is None:
        if left:  # an unknown captain: takes the bonus and the most valuable-looking loot
            left.remove(max(left, key=lambda t: (_face(t), t)))
    else:
        order.append(captain)
        if bonus is not None:
            got.setdefault(captain.seat, []).append(bonus)
    order += [spaces[i] for i in (2, 1, 0) if spaces[i] is not None]  # type: ignore[misc]
    for fig in order:
        if not left:
            break
        mine = got.setdefault(fig.seat, [])
        for _ in range(2 if powers and fig.species == "rat" else 1):
            if not left:
                break
            pick = _best_pick(tuple(sorted(piles[fig.seat] + tuple(mine))), left)
            left.remove(pick)
            mine.append(pick)
    return {seat: tuple(t) for seat, t in got.items()}


@dataclass
class Board:
    """The table of one observation, in a form moves can be tried on (a scratch copy, not a state)."""

    seat: int
    players: int
    powers: bool
    ships: list[list[Figure | None]]
    flotsam: list[list[tuple[tuple[str, ...], str | None]]]
    treasure: list[tuple[str, ...]]
    hand: list[int]
    row: tuple[str, ...]
    loot_stock: int
    bonus_stock: int
    ended: bool
    crews: list[list[str]]
    weights: Weights = field(default_factory=Weights)

    @classmethod
    def from_view(cls, view: Mapping[str, Any], weights: Weights | None = None) -> "Board":
        """The board of ``ENGINE.observe(state, seat)`` for a seat (not the public view). Anything else is
        refused with ``InvalidStateError`` (a ``TypeError`` for a value that is not a mapping)."""
        if not isinstance(view, Mapping):
            raise TypeError(f"view must be an observation (a mapping from ENGINE.observe), not {type(view).__name__}")
        if weights is not None and not isinstance(weights, Weights):
            raise TypeError(f"weights must be a Weights, not {weights!r}")
        try:
            board = cls._from_view(view, weights)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidStateError(f"view: not an observation of one Sewer Pirats seat ({type(exc).__name__}: "
                                    f"{str(exc)[:80]})") from None
        if not isinstance(board.seat, int) or not 0 <= board.seat < len(board.treasure) or len(board.ships) != 3:
            raise InvalidStateError(f"view: seat {view.get('seat')!r} is not a seat of this table")
        return board

    @classmethod
    def _from_view(cls, view: Mapping[str, Any], weights: Weights | None) -> "Board":
        seat = view["seat"]
        ships, flotsam = [], []
        for name in SHIPS:
            ship = view["ships"][name]
            ships.append([None if p is None else Figure(p["seat"], p["figure"], p["species"]) for p in ship["spaces"]])
            flotsam.append([(tuple(g["loot"]), g["bonus"]) for g in ship["flotsam"]])
        hand = view.get("hand") or {}
        return cls(seat=seat, players=view["players"], powers=bool(view["powers"]), ships=ships, flotsam=flotsam,
                   treasure=[tuple(sorted(t)) for t in view["treasure"]],
                   hand=[int(hand.get(s, 0)) for s in SHIPS], row=tuple(view["row"]),
                   loot_stock=int(view["loot_stock"]), bonus_stock=int(view["bonus_stock"]),
                   ended=bool(view["ended"]), crews=[list(c) for c in view["crews"]],
                   weights=weights or Weights())

    def copy(self) -> "Board":
        return Board(self.seat, self.players, self.powers, [list(s) for s in self.ships], self.flotsam,
                     list(self.treasure), list(self.hand), self.row, self.loot_stock, self.bonus_stock, self.ended,
                     self.crews, self.weights)

    # ---- reading ----------------------------------------------------------------------------
    def score(self, seat: int) -> int:
        return _score(self.treasure[seat])

    def where(self, seat: int, label: str) -> tuple[int, int] | None:
        for s, spaces in enumerate(self.ships):
            for i, p in enumerate(spaces):
                if p is not None and p.seat == seat and p.label == label:
                    return s, i
        return None

    def captain_of(self, seat: int) -> int | None:
        for s, spaces in enumerate(self.ships):
            if spaces[CAPTAIN] is not None and spaces[CAPTAIN].seat == seat:  # type: ignore[union-attr]
                return s
        return None

    def species(self, seat: int, label: str) -> str:
        return label.partition("#")[0]

    def next_sailing(self, s: int) -> dict[int, tuple[str, ...]]:
        """Tokens per seat at ship ``s``'s next sailing with the crews as they stand."""
        if not self.flotsam[s]:
            return {}
        loot, bonus = self.flotsam[s][0]
        return _payout(tuple(self.ships[s]), loot, bonus, tuple(self.treasure), self.powers)

    def ship_gain(self, s: int, seat: int | None = None) -> int:
        """Points ``seat`` (default: this board's seat) would add at ship ``s``'s next sailing."""
        seat = self.seat if seat is None else seat
        got = self.next_sailing(s).get(seat, ())
        return token_gain(self.treasure[seat], got) if got else 0

    def timing(self, s: int) -> float:
        """How sure the next sailing of ship ``s`` is (see the module docstring)."""
        if self.ships[s][CAPTAIN] is not None:
            return 1.0
        late = self.ended or self.loot_stock < 3 or self.bonus_stock < 1
        return self.weights.late_open_weight if late else self.weights.open_weight

    def projection(self, seat: int | None = None) -> int:
        """``seat``'s score once every ship has sailed once more with the crews as they stand."""
        seat = self.seat if seat is None else seat
        tokens: list[str] = []
        for s in range(len(SHIPS)):
            tokens += self.next_sailing(s).get(seat, ())
        return token_gain(self.treasure[seat], tokens) + self.score(seat)

    def cards_value(self, hand: Sequence[int] | None = None) -> float:
        hand = self.hand if hand is None else hand
        w = self.weights.card_value
        return sum(w * min(h, 4) + 0.2 * w * max(h - 4, 0) for h in hand)

    def value(self) -> float:
        """The greedy valuation of this board for its seat (see the module docstring)."""
        seat, total = self.seat, 0.0
        for s in range(len(SHIPS)):
            got = self.next_sailing(s)
            mine = got.get(seat, ())
            if mine:
                total += self.timing(s) * token_gain(self.treasure[seat], mine)
            for i, p in enumerate(self.ships[s]):
                if p is not None and p.seat == seat and i != CAPTAIN and not (mine and self._paid(s, i)):
                    total += self.weights.carry
        return total + self.cards_value()

    def _paid(self, s: int, index: int) -> bool:
        """Whether the figure on space ``index`` of ship ``s`` gets loot at the next sailing."""
        spaces = self.ships[s]
        if not self.flotsam[s]:
            return False
        loot = len(self.flotsam[s][0][0])
        ahead = [spaces[i] for i in range(CAPTAIN, index, -1) if spaces[i] is not None]
        if spaces[CAPTAIN] is None:
            loot -= 1
        taken = sum(2 if self.powers and f.species == "rat" else 1 for f in ahead)  # type: ignore[union-attr]
        return taken < loot

    # ---- trying moves -----------------------------------------------------------------------
    def _cost(self, s: int, start: int, passed: Iterable[int], spaces_cost: int, species: str) -> int:
        """Cards the mover pays: the spaces (a cockroach one less) plus a toll per other player's raccoon."""
        base = max(spaces_cost - (1 if self.powers and species == "cockroach" else 0), 0)
        tolls = 0
        if self.powers:
            for i in passed:
                p = self.ships[s][i]
                if p is not None and p.seat != self.seat and p.species == "raccoon":
                    tolls += 1
        return base + tolls

    def after(self, move: Any, pending: str | None = None) -> "Board | None":
        """The board after this seat's ``move`` (``None`` for moves that do not change the ships: draws,
        discards, sailing picks, the auction). ``pending`` names the snail whose extra space ``step`` takes."""
        if isinstance(move, MovePirat):
            b = self.copy()
            s, species = _SHIP[move.ship], self.species(self.seat, move.figure)
            here = b.where(self.seat, move.figure)
            start = 0 if here is None else here[1] + 1
            occupied = frozenset(i + 1 for i in range(3) if b.ships[s][i] is not None) - {start}
            path = crew_path(occupied, start, move.steps)
            if not isinstance(path, tuple):
                return None
            dest, jumped = path
            cost = self._cost(s, start, [j - 1 for j in jumped], move.steps, species)
            me = Figure(self.seat, move.figure, species)
            if here is not None:
                b.ships[s][here[1]] = None
            b.ships[s][dest - 1] = me
            b.hand[s] -= cost
            return b
        if isinstance(move, BecomeCaptain):
            b = self.copy()
            s, species = _SHIP[move.ship], self.species(self.seat, move.figure)
            here = b.where(self.seat, move.figure)
            start = -1 if here is None else here[1]
            cost = self._cost(s, start, range(start + 1, CAPTAIN), 3 if here is None else 1, species)
            if here is not None:
                b.ships[s][here[1]] = None
            b.ships[s][CAPTAIN] = Figure(self.seat, move.figure, species)
            b.hand[s] -= cost
            return b
        if isinstance(move, SnailStep) and pending is not None:
            here = self.where(self.seat, pending)
            if here is None or here[1] >= CAPTAIN:
                return None
            b = self.copy()
            s, i = here
            b.ships[s][i], b.ships[s][i + 1] = b.ships[s][i + 1], b.ships[s][i]
            return b
        return None


@dataclass(frozen=True)
class MoveEffect:
    """What one legal move changes for the seat to move: its score now (loot taken now) and its score after
    the next sailing of every ship with the crews as they would stand (``projection``), before → after."""

    move: Any
    now_before: int
    now_after: int
    next_before: int
    next_after: int
    cards: int  # cards the move costs (negative: cards it brings in)

    @property
    def now(self) -> int:
        return self.now_after - self.now_before

    @property
    def next(self) -> int:
        return self.next_after - self.next_before


def move_effects(view: Mapping[str, Any], legal: Sequence[Any]) -> list[MoveEffect]:
    """For every move in ``legal`` the seat of ``view`` may make: its score now and after the next sailing,
    before and after the move (see :class:`MoveEffect`). Reads the observation only.

    >>> from toolkit.pirats import ENGINE
    >>> state = ENGINE.new_state(3, players=3)
    >>> effects = move_effects(ENGINE.observe(state, 0), ENGINE.legal_moves(state, 0))
    >>> all(e.now == 0 for e in effects)   # nothing is taken before a sailing
    True
    """
    board = Board.from_view(view)
    if isinstance(legal, (str, bytes)) or not isinstance(legal, Sequence):
        raise TypeError(f"legal must be the list of legal moves, not {legal!r}")
    seat = board.seat
    now = board.score(seat)
    nxt = board.projection(seat)
    pending = view.get("pending")
    sailing = view.get("sailing")
    out = []
    for move in legal:
        now_after, next_after, cards = now, nxt, 0
        if isinstance(move, TakeLoot) and sailing is not None:
            gain = token_gain(board.treasure[seat], [str(move.token)])
            now_after = now + gain
            # this ship's sailing is the one under way: what else this seat gets later is the other ships'
            b = board.copy()
            b.treasure[seat] = tuple(sorted(b.treasure[seat] + (str(move.token),)))
            s = _SHIP[sailing["ship"]]
            b.flotsam = [g if i != s else g[1:] for i, g in enumerate(b.flotsam)]
            b.ships = [sp if i != s else [None] * 4 for i, sp in enumerate(b.ships)]
            next_after = b.projection(seat)
        elif isinstance(move, Draw):
            cards = -1
        elif isinstance(move, (Discard, Pay)):
            cards = sum(move.cards)
        else:
            after = board.after(move, pending)
            if after is not None:
                next_after = after.projection(seat)
                cards = sum(board.hand) - sum(after.hand)
        out.append(MoveEffect(move, now, now_after, nxt, next_after, cards))
    return out
