"""Double-dummy solver for The Crew: with every hand visible and everyone cooperating, is there *any* legal
line of play that completes every task?

``solve(hands, tasks, ...)`` answers ``True`` (with a winning line that replays through the engine),
``False`` (proved impossible, with a reason when a simple one exists) or ``None`` (stopped at the node or
time limit — it never hangs).

How it searches (the ideas of bridge double-dummy solvers, adapted to tasks instead of trick counts):

* **Bitmask state.** A card is an int 0..39 (colour * 9 + value - 1; submarines are 36..39) and a hand is
  a 40-bit int, so "remove the trick", "which cards are still live" and counting are single int
  operations.
* **Transposition table at trick boundaries**, keyed on the hands (which fix the remaining cards and the
  trick number), the leader and every task's progress. Progress is a small canonical value per task
  (counts, flags; ``DONE`` once a task can no longer be undone), so different orders of the same tricks
  meet in the table.
* **Equivalent cards.** Two cards of one colour in one hand with no other live card between them win and
  lose against exactly the same cards, so only one of them is tried — unless a pending task names one of
  them (its value or identity matters: "win the pink 3", "win a trick using a 6", sums, parities).
* **Early cut-offs.** After every trick each task is judged ``done`` / ``failed`` / ``pending`` with sound
  bounds (its card was won by someone else or left play, not enough tricks or matching cards left, the
  owner no longer holds a card that can do it), so hopeless branches stop at once.
* **Move ordering.** Seats that must win play high, the others play low and hand over wanted cards to
  the seat that is winning the trick.
* **A SAT solver for the hard deals.** A deal the search has not decided after its first round becomes
  clauses (:mod:`toolkit.crew.sat`) for CaDiCaL, whose learnt clauses prove in a second what the search
  needs millions of plays for. Its conflicts count as nodes.

The per-task judges (:class:`_Judge` subclasses) are a fast incremental adapter of the engine's
``task_status``; ``tests/crew/test_solver_judge.py`` checks they agree with it on every task in the
catalogue. The naive exhaustive search :func:`naive_solve` uses ``task_status`` itself and no shortcuts:
it is the test oracle. The winning line is always re-judged with ``task_status`` before it is returned.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from toolkit.core.errors import IllegalMoveError, InvalidMoveError
from toolkit.core.explain import Violation


# ---------------------------------------------------------------------------------------------------
# card encoding
# ---------------------------------------------------------------------------------------------------

COLOURS = "BGYP"  # colour index 0..3; submarines are colour 4
SUB = 4
SUIT_INDEX = {"blue": 0, "green": 1, "yellow": 2, "pink": 3, "submarine": 4}
N_CARDS = 40
COLOUR_MASK = tuple(sum(1 << (c * 9 + i) for i in range(9)) for c in range(4)) + (sum(1 << (36 + i) for i in range(4)),)
ALL_COLOUR_CARDS = sum(COLOUR_MASK[:4])
COLOUR_CARDS_ASC = tuple(tuple(range(c * 9, c * 9 + 9)) for c in range(4)) + (tuple(range(36, 40)),)
_VALUE = tuple(i % 9 + 1 for i in range(N_CARDS))
_COLOUR = tuple(min(i // 9, 4) for i in range(N_CARDS))
_NAME = tuple((COLOURS[i // 9] if i < 36 else "S") + str(i % 9 + 1) for i in range(N_CARDS))
_CODE = {name: i for i, name in enumerate(_NAME)}

DONE = "done"
FAILED = "failed"
PENDING = "pending"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_code(card: Any) -> int:
    """The solver's int for a card given as an engine ``Card`` or any text ``Card.parse`` accepts."""
    from toolkit.crew.cards import Card

    if not isinstance(card, Card):
        if not isinstance(card, str):
            raise InvalidMoveError(f"{card!r} is not a card")
        card = Card.parse(card)
    return _CODE[str(card)]


def card_of(code: int) -> Any:
    from toolkit.crew.cards import Card

    return Card.parse(_NAME[code])


# ---------------------------------------------------------------------------------------------------
# task judges: a fast, incremental adapter of the engine's task_status
# ---------------------------------------------------------------------------------------------------

def _filter_mask(spec: Mapping[str, Any]) -> int:
    mask = 0
    for code in range(N_CARDS):
        colour, value = _COLOUR[code], _VALUE[code]
        if "card" in spec and code != _CODE[spec["card"]]:
            continue
        if "suit" in spec and colour != SUIT_INDEX[spec["suit"]]:
            continue
        if "suit_in" in spec and colour not in {SUIT_INDEX[s] for s in spec["suit_in"]}:
            continue
        if "value" in spec and value != spec["value"]:
            continue
        if "value_in" in spec and value not in spec["value_in"]:
            continue
        if spec.get("colours_only") and colour == SUB:
            continue
        mask |= 1 << code
    return mask


#: the lowest value (1-9) among the cards of a nine-bit colour mask
_LOW_VALUE = (0,) + tuple((m & -m).bit_length() for m in range(1, 512))


def _value_based(spec: Mapping[str, Any]) -> bool:
    return any(k in spec for k in ("value", "value_in", "card"))


class _Judge:
    """One task held by one seat. ``progress`` values are small hashable data; ``DONE`` is canonical."""

    #: cards whose identity (not just colour and rank order) matters to this task while it is pending
    sensitive = 0
    #: card classes that matter (e.g. "the 5s", "cards below 7"): cards in different classes differ
    features: tuple[int, ...] = ()
    #: +1 the owner needs to win tricks/cards, -1 the owner must avoid winning, 0 neutral (move ordering)
    role = 0
    #: cards the owner wants to win (move ordering)
    targets = 0
    #: ``True`` when the task is met the moment something happens (a card won, a trick of some kind won)
    #: and stays met: the search may then ask "can it be met by trick h?" for growing h (see _Search.run)
    achievement = False
    #: whether ``status`` may use the owner's forced submarine wins (switched off to tell reasons apart)
    use_forced = True
    #: whether ``hints`` says anything (saves a call per trick boundary)
    hinted = False
    #: cards the owner must win (so no other seat may), and cards the owner must not win: static masks
    #: other judges use to narrow the cards they can count on (see ``_Search.exclusions``)
    claims = 0
    refuses = 0
    #: {trick number: True (the owner must win it) / False (must not)}: two tasks that disagree on a
    #: trick cannot both be met (see ``_Search.trick_conflict``)
    trick_claims: Mapping[int, bool] = {}

    def __init__(self, task_id: int, owner: int, players: int, captain: int, last: int):
        self.task_id, self.owner, self.players, self.captain, self.last = task_id, owner, players, captain, last

    def initial(self) -> Any:
        return None

    def step(self, p: Any, j: int, leader: int, cards: Sequence[int], winner: int, wcard: int, tmask: int) -> Any:
        """Progress after trick ``j`` (1-based, absolute); may return ``DONE`` or ``FAILED``."""
        return p

    def status(self, p: Any, j: int, rest: int, live: int, hands: Sequence[int]) -> Any:
        """``p``, ``DONE`` or ``FAILED`` after ``j`` tricks with ``rest`` tricks still to play."""
        return p

    def budget(self, p: Any, j: int, open_tricks: Sequence[int]) -> int | None:
        """The most tricks the owner may still win for this task (``None``: no limit), given the tricks
        after ``j`` its other tasks leave open (``open_tricks``, ascending)."""
        return None

    def fits(self, p: Any, j: int, rest: int, budget: int, hands: Sequence[int]) -> bool:
        """Whether the task can still be met if the owner wins at most ``budget`` more tricks (its other
        tasks' limit, see ``_Search._judge``)."""
        return budget >= 1 or not self.achievement

    def hints(self, p: Any, hands: Sequence[int]) -> tuple[int, int]:
        """(cards to hold back, cards to play early) for move ordering; only ordering, never pruning."""
        return 0, 0

    def earliest(self, p: Any, j: int, hands: Sequence[int]) -> int:
        """A lower bound on the trick (absolute number) by which a pending achievement task can be met,
        after ``j`` tricks: it lets iterative deepening cut a branch that cannot make its deadline."""
        return j + 1


class _CaptureCards(_Judge):
    role = 1
    hinted = True

    def __init__(self, *a: Any, cards: Sequence[str], extra: Mapping[str, Any] | None = None):
        super().__init__(*a)
        self.targets = self.sensitive = sum(1 << _CODE[c] for c in cards)
        self.extra = (_filter_mask(extra["filter"]), extra["n"]) if extra else None
        self.achievement = not extra
        self.claims = self.targets

    def initial(self) -> Any:
        return (0, 0)

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if winner != self.owner:
            return p
        won, count = p
        won |= tmask & self.targets
        if self.extra:
            count += (tmask & self.extra[0]).bit_count()
        return (won, count)

    def status(self, p, j, rest, live, hands):
        won, count = p
        missing = self.targets & ~won
        reach = _reachable(self.owner, hands, live) if rest else 0
        if self.extra:
            fmask, n = self.extra
            if count > n:
                return FAILED
            subcap = _submarine_cap(self.owner, hands) if reach & fmask & COLOUR_MASK[SUB] else 0
            if count + (reach & fmask & ~COLOUR_MASK[SUB]).bit_count() + min(
                    (reach & fmask & COLOUR_MASK[SUB]).bit_count(), subcap) < n:
                return FAILED
            if not missing and count == n and not (live & fmask and rest):
                return DONE
            # the cards still to win and the owner's submarines that must win all count
            forced = _forced_mask(self.owner, hands, rest) if self.use_forced and rest else 0
            if rest and count + ((missing | forced) & fmask).bit_count() > n:
                return FAILED
        elif not missing:
            return DONE
        if rest == 0 or missing & ~reach:
            return FAILED
        own = missing & hands[self.owner] & ALL_COLOUR_CARDS
        if own and _own_card_blocked(self.owner, hands, own, rest) is not None:
            return FAILED
        return p

    def hints(self, p, hands):
        return _capture_hints(self.owner, hands, self.targets & ~p[0])

    def fits(self, p, j, rest, budget, hands):
        return budget >= self.earliest(p, j, hands) - j if self.targets & ~p[0] else True

    def earliest(self, p, j, hands):
        # a seat plays one card a trick, so the seat holding most of the missing cards needs that many
        # tricks; and an own card wins only after the seats in its way are void in its colour
        missing = self.targets & ~p[0]
        own = missing & hands[self.owner] & ALL_COLOUR_CARDS
        delay = _own_card_delay(self.owner, hands, own)[0] if own else 0
        return j + max(1, delay + 1, max((h & missing).bit_count() for h in hands))


def _own_card_blocked(owner: int, hands: Sequence[int], own: int, rest: int) -> tuple[int, int] | None:
    """Whether one of the owner's own cards in ``own`` (coloured, each to be won) can no longer win.

    The owner plays one card a trick, so it wins its own card only when that card wins the trick: its
    colour is led and no other seat plays a higher card of it or a submarine. A seat with no lower card of
    that colour must then be void in it, so it must still have a card of another colour to discard
    (not a submarine), and must first play each of its higher cards of the colour in a trick of its own:
    the tricks left must outnumber them. ("Win the blue 2" holding B2, with three tricks left and another
    seat holding B6 B8 and no lower blue: B6 and B8 take two tricks, so B2 can still win only the third.)
    Returns ``(card, seat)``, the card that cannot win and a seat in its way, or ``None``."""
    delay, card, seat = _own_card_delay(owner, hands, own)
    return (card, seat) if delay >= rest else None


def _own_card_delay(owner: int, hands: Sequence[int], own: int) -> tuple[int, int, int]:
    """(the most tricks that must pass before one of the owner's own cards in ``own`` can win, that card,
    the seat that holds it up): see :func:`_own_card_blocked`; ``_NEVER`` tricks when a seat has nothing
    to discard, ``(0, -1, -1)`` when nothing holds a card up."""
    worst = (0, -1, -1)
    while own:
        bit = own & -own
        own ^= bit
        colour = COLOUR_MASK[_COLOUR[bit.bit_length() - 1]]
        below = colour & (bit - 1)
        above = colour & ~(below | bit)
        for seat, hand in enumerate(hands):
            if seat == owner or hand & below:
                continue
            delay = (hand & above).bit_count() if hand & ALL_COLOUR_CARDS & ~colour else _NEVER
            if delay > worst[0]:
                worst = (delay, bit.bit_length() - 1, seat)
    return worst


#: more tricks than any deal has
_NEVER = 99


def forced_wins(owner: int, hands: Sequence[int], rest: int) -> int:
    """Tricks ``owner`` is sure to win with its submarines.

    When the hand size equals the tricks left every card gets played, and a submarine wins its trick
    unless another seat plays a higher submarine to the same trick. Each of the other seats' submarines
    can cover one of the owner's, and only a lower one, so the owner's submarines left over by the best
    covering (a matching: highest first, each to the lowest free higher submarine) win whatever happens.
    """
    return len(forced_submarines(owner, hands, rest)[0])


def forced_submarines(owner: int, hands: Sequence[int], rest: int) -> tuple[list[int], list[int]]:
    """(the owner's submarines that must win their tricks, the other seats' submarines): codes, see
    :func:`forced_wins`. Empty when the owner's cards are not all played (three players: one stays)."""
    hand = hands[owner]
    mine = hand & COLOUR_MASK[SUB]
    if not mine or hand.bit_count() != rest:
        return [], []
    others = 0
    for seat, h in enumerate(hands):
        if seat != owner:
            others |= h
    return _match_submarines(mine, others & COLOUR_MASK[SUB])


_MATCHED: dict[tuple[int, int], tuple[list[int], list[int]]] = {}


def _match_submarines(mine: int, theirs: int) -> tuple[list[int], list[int]]:
    """(``mine`` left uncovered by ``theirs``, ``theirs``) as sorted codes; memoised (256 cases at most)."""
    hit = _MATCHED.get((mine, theirs))
    if hit is None:
        free = _bits(theirs)
        covers = list(free)
        forced = []
        for sub in reversed(_bits(mine)):
            cover = next((c for c in free if c > sub), None)
            if cover is None:
                forced.append(sub)
            else:
                free.remove(cover)
        hit = _MATCHED[(mine, theirs)] = (sorted(forced), covers)
    return hit


def _reachable(owner: int, hands: Sequence[int], live: int) -> int:
    """The live cards ``owner`` can still win. A trick holding a submarine goes to the seat that played the
    highest one, so a submarine above the owner's highest (or any, if it holds none) is out of reach."""
    subs = hands[owner] & COLOUR_MASK[SUB]
    return live & ~(COLOUR_MASK[SUB] >> subs.bit_length() << subs.bit_length())


def _capture_hints(owner: int, hands: Sequence[int], wanted: int) -> tuple[int, int]:
    """Move-ordering hints for winning the cards in ``wanted`` (see ``_Judge.hints``).

    A card the owner holds is won by playing it as the highest card of its colour: the others shed the
    cards above it. A card of another seat's that the owner can beat in its colour: the owner keeps the
    cards that beat it. One the owner cannot beat (a pink 9): the owner sheds that colour, to trump it
    with a submarine once void, and keeps its highest submarine."""
    mine = hands[owner]
    keep = shed = 0
    for t in _bits(wanted):
        colour = COLOUR_MASK[_COLOUR[t]]
        above = colour & ~((2 << t) - 1)
        if mine >> t & 1:
            keep |= 1 << t
            shed |= above & ~mine
        elif mine & above:
            keep |= mine & above
        elif _COLOUR[t] != SUB:
            shed |= mine & colour
            subs = mine & COLOUR_MASK[SUB]
            if subs:
                keep |= 1 << (subs.bit_length() - 1)
    return keep & ~shed, shed


def _submarine_cap(owner: int, hands: Sequence[int]) -> int:
    """The most submarines ``owner`` can still win: only in tricks where it plays the highest submarine,
    one trick per submarine it holds, each with at most one lower submarine from every other seat."""
    mine = hands[owner] & COLOUR_MASK[SUB]
    k = mine.bit_count()
    if not k:
        return 0
    below = COLOUR_MASK[SUB] & ((1 << (mine.bit_length() - 1)) - 1)
    cap = k
    for seat, h in enumerate(hands):
        if seat != owner and h & below:
            cap += min(k, (h & below).bit_count())
    return cap


def _forced_mask(owner: int, hands: Sequence[int], rest: int) -> int:
    """The owner's submarines that it must win (see :func:`forced_wins`), as a mask."""
    out = 0
    for code in forced_submarines(owner, hands, rest)[0]:
        out |= 1 << code
    return out


def _count_clause(count: int, cmp: str, n: int, more: int) -> str:
    """Status of "count cmp n" when at most ``more`` further matching cards can still be won."""
    if cmp == ">=":
        if count >= n:
            return DONE
        return FAILED if count + more < n else PENDING
    # "=="
    if count > n or count + more < n:
        return FAILED
    return DONE if count == n and more == 0 else PENDING


class _CardCount(_Judge):
    def __init__(self, *a: Any, clauses: Sequence[Mapping[str, Any]], mode: str = "all"):
        super().__init__(*a)
        self.hinted = True
        self.clauses = tuple((_filter_mask(c["filter"]), c["cmp"], c["n"]) for c in clauses)
        self.mode = mode
        self.exact_subs = any(cmp == "==" and m & COLOUR_MASK[SUB] for m, cmp, _ in self.clauses)
        self.counted = sum(m for m, _, _ in self.clauses)
        if mode == "all":
            self.refuses = sum(m for m, cmp, n in self.clauses if cmp == "==" and n == 0)
        self.features = tuple(mask for clause, (mask, cmp, n) in zip(clauses, self.clauses)
                              if _value_based(clause["filter"]))
        wants = any(cmp == ">=" or n > 0 for _, cmp, n in self.clauses)
        self.achievement = mode == "all" and all(cmp == ">=" for _, cmp, _ in self.clauses)
        self.role = 1 if wants else -1
        if wants:
            self.targets = sum(m for m, _, n in self.clauses if n > 0)

    def initial(self):
        return tuple(0 for _ in self.clauses)

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if winner != self.owner:
            return p
        # counts are capped at n + 1: beyond that every comparison answers the same
        return tuple(min(c + (tmask & m).bit_count(), n + 1) for c, (m, _, n) in zip(p, self.clauses))

    def status(self, p, j, rest, live, hands):
        reach = _reachable(self.owner, hands, live) if rest else 0
        # the submarine cap only matters to clauses that count submarines ("no 8s or 9s" never needs it)
        subcap = _submarine_cap(self.owner, hands) if reach & self.counted & COLOUR_MASK[SUB] else 0
        states = [_count_clause(c, cmp, n, (reach & m & ~COLOUR_MASK[SUB]).bit_count()
                                + min((reach & m & COLOUR_MASK[SUB]).bit_count(), subcap))
                  for c, (m, cmp, n) in zip(p, self.clauses)]
        if rest and self.exact_subs and self.use_forced:
            # "exactly n" of a kind with submarines in it: the owner's submarines that must win count
            forced = _forced_mask(self.owner, hands, rest)
            if forced:
                states = [FAILED if cmp == "==" and c + (forced & m).bit_count() > n else st
                          for st, c, (m, cmp, n) in zip(states, p, self.clauses)]
        if self.mode == "all":
            if FAILED in states:
                return FAILED
            if all(s == DONE for s in states):
                return DONE
        else:
            if DONE in states:
                return DONE
            if all(s == FAILED for s in states):
                return FAILED
        if rest == 0:
            return FAILED
        return p

    def hints(self, p, hands):
        if self.role <= 0:
            return 0, 0
        live = 0
        for h in hands:
            live |= h
        return _capture_hints(self.owner, hands, live & self.targets)

    def fits(self, p, j, rest, budget, hands):
        return budget >= self.earliest(p, j, hands) - j if self.achievement else True

    def earliest(self, p, j, hands):
        # only when every clause is "at least n" (achievement): a trick brings at most one card per seat
        need = max(n - c for c, (_, _, n) in zip(p, self.clauses))
        return j + max(1, -(-need // len(hands)))


class _CaptureInTrick(_Judge):
    role = 1
    hinted = True

    def __init__(self, *a: Any, card: str, trick: Any):
        super().__init__(*a)
        self.card = 1 << _CODE[card]
        self.targets = self.sensitive = self.card
        self.when = self.last if trick == "last" else int(trick)
        self.claims = self.card
        self.trick_claims = {self.when: True}

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if tmask & self.card:
            return DONE if (j == self.when and winner == self.owner) else FAILED
        return p

    def status(self, p, j, rest, live, hands):
        if rest == 0 or j >= self.when or not _reachable(self.owner, hands, live) & self.card:
            return FAILED
        return p

    def hints(self, p, hands):
        return _capture_hints(self.owner, hands, self.card)

    def fits(self, p, j, rest, budget, hands):
        return budget >= 1


class _WinTrickWith(_Judge):
    role = 1
    achievement = True
    hinted = True

    def __init__(self, *a: Any, winning_card: Mapping[str, Any], trick_contains: Mapping[str, Any] | None = None):
        super().__init__(*a)
        self.win = _filter_mask(winning_card)
        self.contains = _filter_mask(trick_contains) if trick_contains else 0
        if trick_contains and "card" in trick_contains:
            self.sensitive = self.contains
        self.features = tuple(m for m, spec in ((self.win, winning_card), (self.contains, trick_contains or {}))
                              if spec and "value" in spec)
        self.targets = self.contains
        # For each card that may win, the contained cards that can share a trick it wins: a coloured card
        # wins only a trick led in its colour with no higher card of that colour and no submarine; a
        # submarine wins only with no higher submarine. The contained card is played by another seat.
        self.partners = {w: sum(1 << x for x in range(N_CARDS) if (self.contains >> x & 1) and x != w
                                and not (_COLOUR[w] == SUB and _COLOUR[x] == SUB and x > w)
                                and not (_COLOUR[w] != SUB and (_COLOUR[x] == SUB or (
                                    _COLOUR[x] == _COLOUR[w] and x > w))))
                         for w in _bits(self.win)} if self.contains else {}

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if winner == self.owner and (1 << wcard) & self.win:
            if not self.contains or tmask & self.contains & ~(1 << wcard):
                return DONE
        return p

    def status(self, p, j, rest, live, hands):
        mine = hands[self.owner]
        if rest == 0 or not mine & self.win:
            return FAILED
        if self.contains:
            others = live & ~mine
            if not any(self.partners[w] & others for w in _bits(mine & self.win)):
                return FAILED
        return p

    def hints(self, p, hands):
        # "Win a trick using a 2": the owner keeps its 2s for later, and the other seats first get rid of
        # the cards that would beat them (a winning line usually plays the 2 late, once they are void).
        keep = hands[self.owner] & self.win
        shed = 0
        for w in _bits(keep):
            if _COLOUR[w] != SUB:
                shed |= COLOUR_MASK[_COLOUR[w]] & ~((2 << w) - 1)
        return keep, shed & ~hands[self.owner]

    def earliest(self, p, j, hands):
        # A coloured card wins only a trick led in its colour in which every other seat follows lower or
        # is void. A seat holding only higher cards of the colour must first play them all, one a trick.
        mine = hands[self.owner]
        best = None
        for w in _bits(mine & self.win):
            if _COLOUR[w] == SUB:
                return j + 1
            colour = COLOUR_MASK[_COLOUR[w]]
            above = colour & ~((2 << w) - 1)
            below = colour & ((1 << w) - 1)
            need = max((h & above).bit_count() if not h & below else 0
                       for seat, h in enumerate(hands) if seat != self.owner)
            if best is None or need < best:
                best = need
        return j + 1 + (best or 0)


class _TrickProperty(_Judge):
    role = 1
    achievement = True

    def __init__(self, *a: Any, **params: Any):
        super().__init__(*a)
        self.subs_allowed = params.get("submarines_allowed", True)
        self.all_mask = None
        self.sum_test: Callable[[int], bool] | None = None
        self.equal: tuple[int, int] | None = None
        self.min = params.get("min", 0)
        # the planned trick for the hints (see _trick_plan): which cards fit, and what the plan aims at
        self.plan_fit = ALL_COLOUR_CARDS
        self.plan_goal: tuple[str, int] | None = None
        if "all_cards" in params:
            self.subs_allowed = False
            pred = {"value<7": lambda v: v < 7, "value>5": lambda v: v > 5,
                    "even": lambda v: v % 2 == 0, "odd": lambda v: v % 2 == 1}[params["all_cards"]]
            self.all_mask = sum(1 << c for c in range(36) if pred(_VALUE[c]))
            self.features = (self.all_mask,)
            # hints, as for the totals below: keep the cards that fit the trick, play the others first
            self.hinted = True
            self._hint_keep = self.all_mask
            self._hint_shed = COLOUR_MASK[SUB] | (ALL_COLOUR_CARDS & ~self.all_mask)
            self.plan_fit, self.plan_goal = self.all_mask, ("fit", 0)
        elif "sum_cmp" in params or "sum_in" in params:
            # sum_possible(low, high): whether some total in low..high passes (a cut-off per trick, so
            # an interval test rather than a loop over the totals)
            if "sum_in" in params:
                allowed = frozenset(params["sum_in"])
                self.sum_test = allowed.__contains__
                self.sum_possible = lambda low, high: any(low <= a <= high for a in allowed)
            else:
                limit = params["sum_by_players"][str(self.players)]
                if params["sum_cmp"] == ">":
                    self.sum_test = lambda s: s > limit
                    self.sum_possible = lambda low, high: high > limit and high >= low
                else:
                    self.sum_test = lambda s: s < limit
                    self.sum_possible = lambda low, high: low < limit and high >= low
                # Move-ordering hints: the trick needs every seat's card to be high (or low), so every seat
                # keeps those for it and plays the others, submarines first (a trick with one cannot count).
                # On the benchmark's "total more than 28" deal (seed 100) the line lies at the end of a
                # long preparation: 944k nodes without the hints.
                high = params["sum_cmp"] == ">"
                self.hinted = True
                self._hint_keep = sum(1 << c for c in range(36) if (_VALUE[c] >= 7 if high else _VALUE[c] <= 3))
                self._hint_shed = COLOUR_MASK[SUB] | sum(1 << c for c in range(36)
                                                         if (_VALUE[c] <= 4 if high else _VALUE[c] >= 6))
                self.plan_goal = (">" if high else "<", limit)
            self.sensitive = ALL_COLOUR_CARDS
        elif "count_equal" in params:
            a, b = params["count_equal"]
            self.equal = (COLOUR_MASK[SUIT_INDEX[a]], COLOUR_MASK[SUIT_INDEX[b]])
            self.hinted = True
            self._hint_keep = self.equal[0] | self.equal[1] | COLOUR_MASK[SUB]
            self._hint_shed = ALL_COLOUR_CARDS & ~self._hint_keep
        else:  # pragma: no cover - the catalogue is validated by the judge tests
            raise ValueError(f"unknown trick property {params!r}")

    def holds(self, cards: Sequence[int], tmask: int) -> bool:
        if not self.subs_allowed and tmask & COLOUR_MASK[SUB]:
            return False
        if self.all_mask is not None:
            return not tmask & ~self.all_mask
        if self.sum_test is not None:
            return self.sum_test(sum(_VALUE[c] for c in cards))
        a, b = self.equal
        na, nb = (tmask & a).bit_count(), (tmask & b).bit_count()
        return na == nb and na >= max(self.min, 1)

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if winner == self.owner and self.holds(cards, tmask):
            return DONE
        return p

    def hints(self, p, hands):
        if self.plan_goal is not None:
            plan = _trick_plan(self.owner, hands, self.plan_fit, self.plan_goal)
            if plan is not None:
                keep, shed = plan
                if self.sum_test is not None:
                    # totals: the plan's cards first, then every high (low) card as before; measured
                    # on the benchmark deals with a total, this beat the plan's cards alone
                    keep |= self._hint_keep & ~shed
                return keep, (shed | self._hint_shed) & ~keep
        return self._hint_keep, self._hint_shed

    def status(self, p, j, rest, live, hands):
        if rest == 0:
            return FAILED
        # The trick needs one card from every seat, so every seat must still hold a card that fits it.
        if self.all_mask is not None:
            if not hands[self.owner] & self.all_mask or any(not h & self.all_mask for h in hands):
                return FAILED
        elif self.sum_test is not None:
            low = high = 0
            for h in hands:
                if not h & ALL_COLOUR_CARDS:
                    return FAILED
                # lowest and highest value of the hand's coloured cards, from per-colour tables
                lo, hi = 9, 1
                for shift in (0, 9, 18, 27):
                    m = (h >> shift) & 511
                    if m:
                        if _LOW_VALUE[m] < lo:
                            lo = _LOW_VALUE[m]
                        if m.bit_length() > hi:
                            hi = m.bit_length()
                low += lo
                high += hi
            if not self.sum_possible(low, high):
                return FAILED
        return p


def _trick_plan(owner: int, hands: Sequence[int], fit: int, goal: tuple[str, int]) -> tuple[int, int] | None:
    """A trick the owner could win for a single-trick task, as move-ordering hints (keep, shed), or
    ``None`` when none is in sight.

    The owner plays a fitting card ``c`` of colour ``k``; every other seat either follows with a lower
    fitting card of ``k`` or, once void in ``k``, discards a fitting card of another colour (no
    submarine). ``goal`` is ``("fit", 0)`` (any fitting card will do), ``(">", n)`` or ``("<", n)``
    (the values must total more / less than ``n``). Of the plans that reach the goal the one that needs
    the fewest cards shed to make seats void is chosen; its cards are kept and the cards in the way
    shed. Only ordering: the search still tries everything. ("Total more than 28", seed 100: the owner
    plays B6 and the three others, once they have shed their blue, discard G9, P9 and Y7.)"""
    high = goal[0] == ">"
    best = None  # (cost, -margin, keep, shed)
    own = hands[owner] & fit & ALL_COLOUR_CARDS
    while own:
        c_bit = own & -own
        own ^= c_bit
        c = c_bit.bit_length() - 1
        k = _COLOUR[c]
        below = COLOUR_MASK[k] & (c_bit - 1)
        total, cost, keep, shed = _VALUE[c], 0, c_bit, 0
        for seat, hand in enumerate(hands):
            if seat == owner:
                continue
            follow = hand & below & fit
            if hand & COLOUR_MASK[k]:
                discard = hand & fit & ALL_COLOUR_CARDS & ~COLOUR_MASK[k]
                void_cost = (hand & COLOUR_MASK[k]).bit_count()
            else:
                follow, discard, void_cost = 0, hand & fit & ALL_COLOUR_CARDS, 0
            pick = _plan_pick(follow, high), _plan_pick(discard, high)
            if pick[0] is None and pick[1] is None:
                break
            if pick[1] is None or (pick[0] is not None and (
                    goal[0] == "fit" or (_VALUE[pick[0]] >= _VALUE[pick[1]] if high
                                         else _VALUE[pick[0]] <= _VALUE[pick[1]]))):
                card = pick[0]
            else:
                card = pick[1]
                cost += void_cost
                shed |= hand & COLOUR_MASK[k]
            total += _VALUE[card]
            keep |= 1 << card
        else:
            if goal[0] == "fit":
                margin = 0
            else:
                margin = total - goal[1] if high else goal[1] - total
                if margin <= 0:
                    continue
            if best is None or (cost, -margin) < best[:2]:
                best = (cost, -margin, keep, shed)
    return None if best is None else (best[2], best[3])


def _plan_pick(cards: int, high: bool) -> int | None:
    """The highest (or lowest) card of a mask, by value, or ``None``."""
    if not cards:
        return None
    pick = None
    while cards:
        bit = cards & -cards
        cards ^= bit
        c = bit.bit_length() - 1
        if pick is None or (_VALUE[c] > _VALUE[pick] if high else _VALUE[c] < _VALUE[pick]):
            pick = c
    return pick


class _NoLead(_Judge):
    def __init__(self, *a: Any, suits: Sequence[str]):
        super().__init__(*a)
        self.mask = sum(COLOUR_MASK[SUIT_INDEX[s]] for s in suits)

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if leader == self.owner and (1 << cards[0]) & self.mask:
            return FAILED
        return p

    def status(self, p, j, rest, live, hands):
        # the owner can no longer lead a forbidden colour once they hold none: hands only shrink
        if rest == 0 or not hands[self.owner] & self.mask:
            return DONE
        return p


class _TrickPositions(_Judge):
    def __init__(self, *a: Any, must_win: Sequence[Any] = (), must_not_win: Sequence[Any] = (), only: bool = False):
        super().__init__(*a)
        resolve = lambda x: self.last if x == "last" else int(x)  # noqa: E731
        self.win = frozenset(resolve(x) for x in must_win)
        self.hinted = self.last in self.win
        self.lose = frozenset(resolve(x) for x in must_not_win)
        self.only = only
        claims = {k: True for k in self.win}
        claims.update({k: False for k in self.lose})
        if only:
            claims.update({k: False for k in range(1, self.last + 1) if k not in self.win})
        self.trick_claims = claims
        self.role = 1 if self.win else -1
        self.horizon = max(self.win | self.lose) if (self.win or self.lose) else 0

    def budget(self, p, j, open_tricks):
        return sum(1 for k in self.win if k > j) if self.only else None

    def fits(self, p, j, rest, budget, hands):
        return budget >= sum(1 for k in self.win if k > j)

    def hints(self, p, hands):
        # "Win the last trick": the owner keeps its best card of each colour for it, and the others shed
        # their submarines and the cards that beat those.
        mine = hands[self.owner]
        keep = shed = 0
        for colour in range(5):
            own = mine & COLOUR_MASK[colour]
            if own:
                top = own.bit_length() - 1
                keep |= 1 << top
                shed |= COLOUR_MASK[colour] & ~((2 << top) - 1)
        shed |= COLOUR_MASK[SUB]
        return keep, shed & ~mine

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        won = winner == self.owner
        if (j in self.win and not won) or (j in self.lose and won) or (self.only and won and j not in self.win):
            return FAILED
        return p

    def status(self, p, j, rest, live, hands):
        # A position beyond the last trick is never reached and so never broken: the engine's reading
        # (only matters for short endgames typed in by hand; full missions have 8-13 tricks).
        if rest == 0 or (not self.only and j >= self.horizon):
            return DONE
        forced = forced_wins(self.owner, hands, rest)
        if forced:
            ahead = range(j + 1, self.last + 1)
            allowed = (sum(1 for k in ahead if k in self.win) if self.only
                       else sum(1 for k in ahead if k not in self.lose))
            if forced > allowed:
                return FAILED
        return p


class _TrickCount(_Judge):
    def __init__(self, *a: Any, cmp: str, n: int):
        super().__init__(*a)
        self.cmp, self.n = cmp, n
        self.role = 1 if n > 0 else -1

    def initial(self):
        return 0

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        return min(p + 1, self.n + 1) if winner == self.owner else p

    def budget(self, p, j, open_tricks):
        return max(self.n - p, 0)

    def fits(self, p, j, rest, budget, hands):
        return p + budget >= self.n

    def status(self, p, j, rest, live, hands):
        if p > self.n or p + rest < self.n:
            return FAILED
        if rest == 0:
            return DONE
        if p + forced_wins(self.owner, hands, rest) > self.n:
            return FAILED
        return p


class _Prediction(_TrickCount):
    """"Win exactly X tricks" with X announced before play; ``n=None`` lets the solver choose X."""

    def __init__(self, *a: Any, n: int | None):
        _Judge.__init__(self, *a)
        self.cmp, self.n = "==", n
        self.role = 0

    def initial(self):
        return 0 if self.n is not None else None

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        return p if self.n is None else super().step(p, j, leader, cards, winner, wcard, tmask)

    def status(self, p, j, rest, live, hands):
        if self.n is None:
            return DONE if rest == 0 else p
        return super().status(p, j, rest, live, hands)

    def budget(self, p, j, open_tricks):
        return None if self.n is None else super().budget(p, j, open_tricks)

    def fits(self, p, j, rest, budget, hands):
        return True if self.n is None else super().fits(p, j, rest, budget, hands)


class _Streak(_Judge):
    def __init__(self, *a: Any, never_consecutive: int | None = None, at_least_consecutive: int | None = None,
                 exact_total: int | None = None, all_consecutive: bool = False):
        super().__init__(*a)
        self.never, self.at_least, self.exact = never_consecutive, at_least_consecutive, exact_total
        self.role = -1 if self.never else 1
        self.achievement = bool(self.at_least)

    def initial(self):
        if self.never:
            return False           # did the owner win the previous trick?
        if self.at_least:
            return 0               # the current run of wins
        return (0, False)          # (tricks won, is the run still open)

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        won = winner == self.owner
        if self.never:
            if won and p:
                return FAILED
            return won
        if self.at_least:
            run = p + 1 if won else 0
            return DONE if run >= self.at_least else run
        total, open_ = p
        if won:
            if total and not open_:
                return FAILED
            return FAILED if total + 1 > self.exact else (total + 1, True)
        return (total, False)

    def earliest(self, p, j, hands):
        return j + max(1, self.at_least - p) if self.at_least else j + 1

    def budget(self, p, j, open_tricks):
        if self.never:
            # no two in a row among the open tricks: take every open trick that does not follow a win
            won, prev, count = p, j, 0
            for k in open_tricks:
                if won and k == prev + 1:
                    won = False
                else:
                    count += 1
                    won = True
                prev = k
            return count
        if self.exact:
            return max(self.exact - p[0], 0)
        return None

    def fits(self, p, j, rest, budget, hands):
        if self.at_least:
            return budget >= self.at_least - p
        if self.exact:
            return p[0] + budget >= self.exact
        return True

    def status(self, p, j, rest, live, hands):
        if self.never:
            return DONE if rest == 0 else p
        if self.at_least:
            return FAILED if p + rest < self.at_least else p
        total, open_ = p
        if rest == 0:
            return DONE if total == self.exact else FAILED
        if total and not open_ and total < self.exact:
            return FAILED
        if total + rest < self.exact:
            return FAILED
        return p


class _Relative(_Judge):
    def __init__(self, *a: Any, cmp: str, other: str):
        super().__init__(*a)
        self.cmp, self.other = cmp, other
        self.role = 1 if cmp == ">" else (-1 if cmp == "<" else 0)

    def initial(self):
        return (0,) * self.players

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        counts = list(p)
        counts[winner] += 1
        return tuple(counts)

    def fits(self, p, j, rest, budget, hands):
        if self.cmp != ">":
            return True
        mine, x = p[self.owner], min(budget, rest)
        others = [c for seat, c in enumerate(p) if seat != self.owner]
        # the owner's best case: it wins x more, the others share the rest as evenly as they can
        if self.other == "captain":
            return mine + x > p[self.captain]
        if self.other == "sum_of_others":
            return mine + x > sum(others) + rest - x
        share = -(-(sum(others) + rest - x) // len(others))
        return mine + x > max(max(others), share)

    def status(self, p, j, rest, live, hands):
        mine = p[self.owner]
        others = [c for s, c in enumerate(p) if s != self.owner]
        cmp, r = self.cmp, rest
        if self.other == "captain":
            cap = p[self.captain]
            if cmp == ">":
                done, failed = mine > cap + r, mine + r <= cap
            elif cmp == "<":
                done, failed = mine + r < cap, mine >= cap + r
            else:
                done, failed = (r == 0 and mine == cap), abs(mine - cap) > r
        elif self.other == "sum_of_others":
            total = sum(others)
            if cmp == ">":
                done, failed = mine > total + r, mine + r <= total
            else:
                done, failed = mine + r < total, mine >= total + r
        else:  # each other player
            if cmp == ">":
                done, failed = mine > max(others) + r, any(mine + r <= o for o in others)
            else:
                done, failed = mine + r < min(others), any(mine >= o + r for o in others)
        if not failed and cmp == "<" and r:
            # the owner's sure wins are tricks nobody else can take
            forced = forced_wins(self.owner, hands, r)
            if forced:
                rivals = [p[self.captain]] if self.other == "captain" else others
                failed = any(mine + forced >= o + r - forced for o in rivals)
        if failed:
            return FAILED
        if done:
            return DONE
        if r == 0:  # pragma: no cover - at the end every comparison is decided above
            return FAILED
        return p


class _CardCompare(_Judge):
    def __init__(self, *base: Any, a: Mapping[str, Any], cmp: str, b: Mapping[str, Any], min: int = 0):  # noqa: A002
        super().__init__(*base)
        self.a, self.b = _filter_mask(a), _filter_mask(b)
        self.cmp, self.min = cmp, min
        self.role = 1
        self.targets = self.a

    def initial(self):
        return (0, 0)

    def step(self, p, j, leader, cards, winner, wcard, tmask):
        if winner != self.owner:
            return p
        return (p[0] + (tmask & self.a).bit_count(), p[1] + (tmask & self.b).bit_count())

    def status(self, p, j, rest, live, hands):
        ca, cb = p
        la = (live & self.a).bit_count() if rest else 0
        lb = (live & self.b).bit_count() if rest else 0
        if self.cmp == ">":
            if ca > cb + lb:
                return DONE
            if ca + la <= cb:
                return FAILED
        else:
            floor = max(self.min, 1) if self.min else 0
            if ca + la < max(cb, floor) or cb + lb < max(ca, floor):
                return FAILED
            if ca == cb and ca >= floor and la == 0 and lb == 0:
                return DONE
        if rest == 0:
            return FAILED
        return p


def _task_definition(task_id: int) -> tuple[str, Mapping[str, Any]]:
    from toolkit.crew.tasks import TASKS

    task = TASKS[task_id]
    return task.category, task.params


def make_judge(task_id: int, owner: int, players: int, captain: int, last: int,
               prediction: int | None = None) -> _Judge:
    """The fast judge of one task held by ``owner`` in a mission whose last trick is number ``last``."""
    category, params = _task_definition(task_id)
    a = (task_id, owner, players, captain, last)
    if category == "capture_cards":
        return _CaptureCards(*a, cards=params["cards"], extra=params.get("and"))
    if category == "card_count":
        if "all_of" in params:
            return _CardCount(*a, clauses=params["all_of"], mode="all")
        if "any_of" in params:
            return _CardCount(*a, clauses=params["any_of"], mode="any")
        return _CardCount(*a, clauses=[params], mode="all")
    if category == "capture_in_trick":
        return _CaptureInTrick(*a, **params)
    if category == "win_trick_with":
        return _WinTrickWith(*a, **params)
    if category == "trick_property":
        return _TrickProperty(*a, **params)
    if category == "no_lead":
        return _NoLead(*a, **params)
    if category == "trick_positions":
        return _TrickPositions(*a, **params)
    if category == "trick_count":
        return _TrickCount(*a, **params)
    if category == "trick_count_prediction":
        return _Prediction(*a, n=prediction)
    if category == "streak":
        return _Streak(*a, **params)
    if category == "trick_count_relative":
        return _Relative(*a, **params)
    if category == "card_count_compare":
        return _CardCompare(*a, **params)
    raise ValueError(f"task {task_id}: unknown category {category!r}")  # pragma: no cover


# ---------------------------------------------------------------------------------------------------
# the search
# ---------------------------------------------------------------------------------------------------

class _Stop(Exception):
    """Raised inside the search when the node or time limit is reached, or a caller asked to stop."""


#: the deepening slice's nodes relative to the depth-first slice's (see _Search._portfolio); measured on the
#: benchmark deals: 0.25 trims the one-task p95 from 34k to 29k nodes and decides as many deals as 1.0
_DEEPENING_SHARE = 0.25
#: the limited-discrepancy slice's nodes relative to the depth-first slice's (0: no LDS). Measured on the
#: benchmark deals at a 120,000-node cap: shares 0.5 / 1 / 2 left 2 / 2 / 3 one-task deals and 42 / 40 / 40
#: three-task deals undecided (without LDS: 2 and 45); the one-task p95 went from 28.9k to 13.2-13.5k nodes
_LDS_SHARE = 1.0
#: the order of the slices in each round. Depth-first comes first because it proves most lost deals at
#: once: with LDS first the three-task median went from 16 to 55 ms (one-task p95 nodes 12.6k -> 10.5k)
_SLICE_ORDER = ("dfs", "deepening", "lds")
#: the depth-first slice's nodes in the first round (doubling after each round); 256 to 4096 all gave a
#: one-task p95 of 10.0k-11.2k nodes on the benchmark deals
_FIRST_SLICE = 2048
#: rounds of the search before a deal goes to the SAT solver (when python-sat is installed). The first
#: round (about 4.6k card plays) decides most deals in a few milliseconds; the clauses then cost about
#: 30 ms to build and load. Measured on the benchmark's one-task deals: one round gave a p95 of 60-85 ms
#: and a maximum of 106-137 ms, two rounds 95-102 ms and 232 ms (docs/crew-solver.md).
_SAT_AFTER_ROUNDS = 1


class _SliceEnd(Exception):
    """Raised inside the search when one slice of the portfolio (see ``_Search.run``) used its nodes."""


def _strength(card: int, led: int) -> int:
    """How strongly ``card`` bids for a trick led in colour ``led`` (-1: it cannot win)."""
    colour = _COLOUR[card]
    if colour == SUB:
        return 100 + _VALUE[card]
    return _VALUE[card] if colour == led else -1


class _Search:
    """Depth-first search with a transposition table, equivalent-card reduction and task cut-offs."""

    def __init__(self, hands: Sequence[int], leader: int, judges: Sequence[_Judge], done_tricks: int, last: int,
                 node_limit: int | None, deadline: float | None, on_progress: Callable[[int], Any] | None,
                 stop: threading.Event | None, reduce_equivalent: bool = True, use_table: bool = True,
                 sat_model: Callable[[], Any] | None = None, sat_after: int | None = None):
        self.n = len(hands)
        self.hands0 = tuple(hands)
        self.leader0 = leader
        self.judges = tuple(judges)
        self.j0 = done_tricks
        self.last = last
        self.node_limit = node_limit
        self.deadline = deadline
        self.on_progress = on_progress
        self.stop = stop
        self.reduce = reduce_equivalent
        self.use_table = use_table
        self.nodes = 0
        # the SAT path (see _portfolio): a function building the position's clauses, and the line it found
        self.sat_model = sat_model
        self.sat_after = _SAT_AFTER_ROUNDS if sat_after is None else sat_after
        self.sat_line: tuple | None = None
        # key -> True (winnable) or h: not winnable when every achievement task must be met by trick h
        self.table: dict[tuple, Any] = {}
        self.horizon = last
        self.achievers = tuple(i for i, judge in enumerate(self.judges) if judge.achievement)
        self.slice_end: int | None = None
        # limited discrepancy search (see _portfolio): the discrepancies left, or None outside it
        self.lds: int | None = None
        self.lds_failed: dict[tuple, int] = {}
        self._relevant: dict[tuple, tuple[int, tuple[int, ...], tuple[int, ...], int]] = {}
        self._tags: dict[tuple, tuple[tuple[int, ...] | None, int]] = {}
        # Cards a task may not count on because another task settles them: the cards another seat must win,
        # and the cards its own seat must not win. Sound for the verdict: a line that breaks the other task
        # fails anyway.
        self.exclusions = tuple(
            sum((k.claims if k.owner != judge.owner else k.refuses) for k in self.judges if k is not judge)
            for judge in self.judges)
        self.exclusive = any(self.exclusions)
        # The last trick each task's seat may still win, as far as its *other* tasks allow ("win only the
        # first trick"): past it, that seat can win no more cards.
        self.open_until = []
        for judge in self.judges:
            refused = {t for k in self.judges if k is not judge and k.owner == judge.owner
                       for t, win in k.trick_claims.items() if not win}
            self.open_until.append(max((t for t in range(1, last + 1) if t not in refused), default=0))
        self.exclusive = self.exclusive or any(t < last for t in self.open_until)
        # Seats with several tasks, or with tricks refused by one task: the tasks' trick budgets and needs
        # are checked together (see ``_judge``).
        self.refused = {}
        for judge in self.judges:
            for t, win in judge.trick_claims.items():
                if not win:
                    self.refused.setdefault(judge.owner, set()).add(t)
        owners: dict[int, list[int]] = {}
        for i, judge in enumerate(self.judges):
            owners.setdefault(judge.owner, []).append(i)
        self.groups = tuple((owner, tuple(ids)) for owner, ids in owners.items() if len(ids) > 1)
        self._open_tricks: dict[tuple[int, int], list[int]] = {}  # (seat, tricks played) -> tricks it may win
        self._next_check = 1024
        # the table key's per-colour memo (see _key): the hands stacked 40 bits apart, seat 0 highest
        self._lane_shifts = tuple(40 * (self.n - 1 - i) for i in range(self.n))
        self._lanes = tuple((9 * colour, sum((511 if colour < SUB else 15) << lane for lane in self._lane_shifts))
                            for colour in range(5))
        self._codes = _COLOUR_CODES.setdefault(self.n, {})
        self._key_info: dict[tuple, tuple[int, tuple[tuple[int, int, int], ...]]] = {}

    # -- limits ------------------------------------------------------------------------------------
    def _check(self) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop
        if self.slice_end is not None and self.nodes >= self.slice_end:
            raise _SliceEnd
        self._next_check = self.nodes + 1024
        if self.slice_end is not None:
            self._next_check = min(self._next_check, self.slice_end)
        if self.node_limit is not None:
            self._next_check = min(self._next_check, self.node_limit)  # stop exactly at the limit
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Stop
        if self.stop is not None and self.stop.is_set():
            raise _Stop
        if self.on_progress is not None and self.nodes % 16384 < 1024:
            self.on_progress(self.nodes)

    # -- judging -------------------------------------------------------------------------------------
    def initial_progress(self, played: Sequence[tuple[int, tuple[int, ...]]]) -> tuple | None:
        """Progress after the tricks already played, or ``None`` if a task has already failed."""
        progress = [j.initial() for j in self.judges]
        for index, (leader, cards) in enumerate(played, start=1):
            tmask = 0
            for c in cards:
                tmask |= 1 << c
            pos, wcard = _winner_pos(cards)
            winner = (leader + pos) % len(cards)
            progress = [p if p == DONE else self.judges[i].step(p, index, leader, cards, winner, wcard, tmask)
                        for i, p in enumerate(progress)]
            if FAILED in progress:
                return None
        return self._judge(progress, self.j0, self.hands0)

    def trick_conflict(self) -> bool:
        """Whether the tasks ask the impossible of one trick: two seats must win it, one seat must both win
        it and not win it ("win the last trick" and "win the green 2 in the last trick" for two seats), or
        every seat must not win it."""
        must: dict[int, set[int]] = {}
        must_not: dict[int, set[int]] = {}
        for judge in self.judges:
            for trick, win in judge.trick_claims.items():
                if self.j0 < trick <= self.last:
                    (must if win else must_not).setdefault(trick, set()).add(judge.owner)
        for trick, owners in must.items():
            if len(owners) > 1 or owners & must_not.get(trick, set()):
                return True
        return any(len(owners) == self.n for owners in must_not.values())

    def _judge(self, progress: Sequence[Any], j: int, hands: Sequence[int], live: int | None = None) -> tuple | None:
        """Every task's status after ``j`` tricks (``None``: one has failed); ``live`` is the union of the
        hands when the caller has it."""
        rest = self.last - j
        if live is None:
            live = 0
            for h in hands:
                live |= h
        out = []
        if not self.exclusive:
            for judge, p in zip(self.judges, progress):
                if p is not DONE:
                    if p is FAILED:
                        return None
                    p = judge.status(p, j, rest, live, hands)
                    if p is FAILED:
                        return None
                out.append(p)
        else:
            exclusions = self.exclusions
            for i, (judge, p) in enumerate(zip(self.judges, progress)):
                if p is not DONE:
                    if p is FAILED:
                        return None
                    # Narrowed to the cards the other tasks leave it, a task may only be found lost,
                    # never met: two tasks narrowing each other ("no 9s", "no 8s and no 9s") would
                    # otherwise each count on the other to refuse a 9.
                    q = judge.status(p, j, rest, live & ~exclusions[i] if j < self.open_until[i] else 0, hands)
                    p = judge.status(p, j, rest, live, hands) if q is DONE else q
                    if p is FAILED:
                        return None
                out.append(p)
        for owner, ids in self.groups:
            # One seat's tasks together: the fewest more tricks any of them allows is a budget every other
            # one must fit in ("win all four 9s" and "win exactly two tricks": the 9s need two tricks).
            open_tricks = self._open_tricks.get((owner, j))
            if open_tricks is None:
                refused = self.refused.get(owner, ())
                open_tricks = self._open_tricks[owner, j] = [k for k in range(j + 1, self.last + 1)
                                                              if k not in refused]
            budget = len(open_tricks)
            for i in ids:
                if out[i] is not DONE:
                    b = self.judges[i].budget(out[i], j, open_tricks)
                    if b is not None and b < budget:
                        budget = b
            for i in ids:
                if out[i] is not DONE and not self.judges[i].fits(out[i], j, rest, budget, hands):
                    return None
        if self.horizon < self.last:
            # iterative deepening: every achievement task must be able to be met by this iteration's trick
            for i in self.achievers:
                if out[i] != DONE and self.judges[i].earliest(out[i], j, hands) > self.horizon:
                    return None
        return tuple(out)

    # -- the search -------------------------------------------------------------------------------
    def run(self, progress: tuple) -> Any:
        """``False`` or the winning line (a tuple of ``(leader, cards)``) from the start position."""
        if all(p == DONE for p in progress):
            return ()
        if self.trick_conflict():
            return False
        found = self._portfolio(progress)
        if not found:
            return False
        if self.sat_line is not None:
            return self.sat_line
        self.slice_end = None
        return self._extract(self.hands0, self.leader0, progress, self.j0)

    def _portfolio(self, progress: tuple) -> bool:
        """Searches in turn, with doubling node budgets and one shared table:

        * the plain depth-first search (the only one that proves a deal lost);
        * iterative deepening on the achievement tasks ("win the pink 9", "win a trick of total < 12"),
          if any: first lines that meet them by the next trick, then by the one after, and so on;
        * limited discrepancy search (LDS): lines that leave the move ordering's first choice at most
          0, then 1, then 2, … times in all.

        Depth-first plays every prefix to the last trick before it tries another first trick, so one early
        mistake of the move ordering costs it a whole subtree; deepening finds tasks a winning line meets
        early; LDS finds lines the ordering gets right but for a few moves anywhere in the deal (a seat
        that must shed a colour early, a lead handed over). Depth-first's answer and a found line are
        final (the deepening's last horizon has no deadline either). Table entries carry the horizon they
        were proved under (see ``_boundary``), so every slice reuses what earlier slices proved and a
        restart costs little. A deal still open after ``_SAT_AFTER_ROUNDS`` rounds goes to the SAT solver
        for the rest of the budget (``_sat``). Measured in docs/crew-solver.md."""
        horizons = range(self.j0 + 1, self.last + 1)
        next_horizon = 0 if self.achievers else len(horizons)
        discrepancies = 0
        budget = _FIRST_SLICE
        rounds = 0
        while True:
            if self.sat_model is not None and rounds >= self.sat_after:
                return self._sat()
            rounds += 1
            for kind in _SLICE_ORDER:
                if kind == "deepening":
                    if next_horizon >= len(horizons):
                        continue
                    share = _DEEPENING_SHARE
                elif kind == "lds":
                    if not _LDS_SHARE:
                        continue
                    share = _LDS_SHARE
                else:
                    share = 1.0
                self.slice_end = self.nodes + int(budget * share)
                self._next_check = min(self._next_check, self.slice_end)
                try:
                    if kind == "dfs":
                        self.horizon = self.last
                        self.lds = None
                        return self._boundary(self.hands0, self.leader0, progress, self.j0)
                    if kind == "deepening":
                        while next_horizon < len(horizons):
                            self.horizon = horizons[next_horizon]
                            if self._boundary(self.hands0, self.leader0, progress, self.j0):
                                return True
                            next_horizon += 1
                        if self.achievers:
                            return False  # the last horizon is the whole search: a proof
                        continue
                    self.horizon = self.last
                    while True:
                        self.lds = discrepancies
                        if self._boundary(self.hands0, self.leader0, progress, self.j0):
                            return True
                        self.lds = None
                        discrepancies += 1
                except _SliceEnd:
                    self.lds = None
            budget *= 2

    def _sat(self) -> bool:
        """Hand the position to the SAT solver (see :mod:`toolkit.crew.sat`) for the rest of the budget: its
        conflicts count as nodes. It decides the deal or stops at the node or time limit."""
        from toolkit.crew import sat

        model = self.sat_model()
        done = self.nodes
        limit = None if self.node_limit is None else self.node_limit - done

        def progress(conflicts: int) -> None:
            self.nodes = done + conflicts
            if self.on_progress is not None:
                self.on_progress(self.nodes)

        result, conflicts = sat.solve_model(model, limit, self.deadline, self.stop, progress)
        self.nodes = done + conflicts
        if result is None:
            raise _Stop
        if result is False:
            return False
        self.sat_line = result
        return True

    def _extract(self, hands: tuple, leader: int, progress: tuple, j: int) -> tuple:
        """Walk down a proved win: at each trick boundary find the first trick whose rest is a win (the
        table answers for the rest, so this costs little). The table is keyed on *equivalent* positions,
        so it stores verdicts, not lines, and the line is rebuilt here for the actual cards."""
        line = []
        while True:
            witness = self._trick(hands, leader, progress, j)
            if witness is False:  # pragma: no cover - the root was proved winnable
                raise AssertionError("lost the winning line")
            trick_leader, cards = witness
            line.append(witness)
            tmask = sum(1 << c for c in cards)
            pos, wcard = _winner_pos(cards)
            winner = (trick_leader + pos) % self.n
            j += 1
            new = [p if p == DONE else judge.step(p, j, trick_leader, cards, winner, wcard, tmask)
                   for judge, p in zip(self.judges, progress)]
            hands = tuple(h & ~tmask for h in hands)
            progress = self._judge(new, j, hands)
            if progress is None:  # pragma: no cover
                raise AssertionError("the winning line lost a task")
            if all(p == DONE for p in progress):
                return tuple(line)
            leader = winner

    def _relevance(self, progress: tuple) -> tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """(sensitive cards, feature masks, per-seat wish +1/-1/0, per-seat wanted cards) of the pending
        tasks: they depend on the progress alone, so they are computed once per progress value."""
        hit = self._relevant.get(progress)
        if hit is None:
            sensitive = 0
            features: set[int] = set()
            want = [0] * self.n
            targets = [0] * self.n
            for judge, p in zip(self.judges, progress):
                if p != DONE:
                    sensitive |= judge.sensitive
                    features.update(judge.features)
                    if judge.role > 0:
                        want[judge.owner] = 1
                        targets[judge.owner] |= judge.targets
                    elif judge.role < 0 and want[judge.owner] == 0:
                        want[judge.owner] = -1
            ordered = tuple(sorted(features))
            if sensitive or ordered:
                # per colour: the masks the key must tell apart there, packed (see _key and _colour_code)
                masks = (sensitive,) + ordered
                tags = []
                for shift in (0, 9, 18, 27, 36):
                    tag = 0
                    for m in masks:
                        tag = (tag << 9) | ((m >> shift) & 511)
                    tags.append((tag << 5) | len(masks))
                self._tags[progress] = tuple(tags), 9 * len(masks) + 5
            else:
                self._tags[progress] = None, 5
            hit = self._relevant[progress] = (sensitive, ordered, tuple(want), tuple(targets))
        return hit

    def _key(self, hands: tuple, leader: int, progress: tuple) -> tuple:
        """The table key: positions that differ only by cards no live card separates are the same.

        Per colour, each hand becomes its mask *among the live cards of that colour* (rank order only),
        so P2/P5 vs P3/P6 with nothing live between collide. Cards a pending task names keep their
        identity (their live mask is part of the key), and so do the card classes it tells apart.
        One memoised int per colour carries all of it (see ``_colour_code``)."""
        live = stacked = 0
        for h in hands:
            live |= h
            stacked = (stacked << 40) | h
        info = self._key_info.get(progress)
        if info is None:
            info = self._make_key_info(progress)
        sensitive, lanes = info
        parts = [leader, progress, live & sensitive]
        # Each colour's slice of every hand in one int (the hands sit 40 bits apart in ``stacked``), with
        # the colour's tag above them, is the memo key of the colour's code: two int operations a colour
        # (half the time of packing the slices one hand at a time).
        codes = self._codes
        for shift, mask, tag in lanes:
            memo = (stacked >> shift) & mask | tag
            code = codes.get(memo)
            if code is None:
                code = codes[memo] = self._code_of(memo, progress, shift)
            parts.append(code)
        return tuple(parts)

    def _make_key_info(self, progress: tuple) -> tuple[int, tuple[tuple[int, int, int], ...]]:
        """(sensitive cards, per colour (shift, lane mask, tag above the lanes)) for ``_key``."""
        sensitive = self._relevance(progress)[0]
        tags, _ = self._tags[progress]
        top = 40 * self.n
        lanes = tuple((shift, mask, (tags[colour] << top) if tags is not None else 0)
                      for colour, (shift, mask) in enumerate(self._lanes))
        info = self._key_info[progress] = (sensitive, lanes)
        return info

    def _code_of(self, memo: int, progress: tuple, shift: int) -> int:
        """The colour code (see ``_colour_code``) of one memo key of ``_key``."""
        tags, width = self._tags[progress]
        raw = self.n
        for lane in self._lane_shifts:
            raw = (raw << 9) | ((memo >> lane) & 511)
        raw = (raw << width) | tags[shift // 9] if tags is not None else raw << 5
        return _colour_code(raw, self.n)

    def _boundary(self, hands: tuple, leader: int, progress: tuple, j: int) -> bool:
        if not self.use_table:
            return self._trick(hands, leader, progress, j) is not False
        key = self._key(hands, leader, progress) if self.reduce else (hands, leader, progress)
        hit = self.table.get(key)
        if hit is not None and (hit is True or hit >= self.horizon):
            return hit is True
        if self.lds is not None:
            # A limited-discrepancy search proves wins only; its failures hold for its budget (and any
            # smaller one) and are kept apart from the proofs.
            failed = self.lds_failed.get(key, -1)
            if failed >= self.lds:
                return False
            budget = self.lds
            result = self._trick(hands, leader, progress, j) is not False
            if result:
                self.table[key] = True
            else:
                self.lds_failed[key] = budget
            return result
        result = self._trick(hands, leader, progress, j) is not False
        self.table[key] = True if result else self.horizon
        return result

    def _trick(self, hands: tuple, leader: int, progress: tuple, j: int) -> Any:
        """``False``, or the first trick ``(leader, cards)`` of a winning line from this boundary."""
        n = self.n
        live = 0
        for h in hands:
            live |= h
        sensitive, features, want, targets = self._relevance(progress)
        wanted = 0
        for mask in targets:
            wanted |= mask
        keep = shed = 0
        for judge, p in zip(self.judges, progress):
            if p != DONE and judge.hinted:
                k, sh = judge.hints(p, hands)
                keep |= k
                shed |= sh
        # the hints as a sort key per card: shed first (-1), then the rest (0), kept cards last (+1)
        hint_rank = _hint_rank(keep, shed) if keep or shed else None
        seats = [(leader + i) % n for i in range(n)]
        plays: list[int] = []
        judges = self.judges
        last = self.last
        all_done = (DONE,) * len(judges)

        def finish(tmask: int, winner: int, wcard: int) -> Any:
            j2 = j + 1
            cards = tuple(plays)
            new = []
            for judge, p in zip(judges, progress):
                if p is not DONE:
                    p = judge.step(p, j2, leader, cards, winner, wcard, tmask)
                    if p is FAILED:
                        return False
                new.append(p)
            keep_mask = ~tmask
            hands2 = tuple([h & keep_mask for h in hands])
            judged = self._judge(new, j2, hands2, live & keep_mask)
            if judged is None:
                return False
            if judged == all_done:
                return (leader, cards)
            if j2 >= last:
                return False
            if not self._boundary(hands2, winner, judged, j2):
                return False
            return (leader, cards)

        # A seat's ordered candidates depend, inside one trick, only on its position, the colour led and
        # (when the seat winning so far wants cards) that seat and its strength: memoised per trick on those, as
        # a seat sees the same situation again after every other choice of the seats before it.
        ordered: dict[int, list[int]] = {}

        def play(pos: int, tmask: int, led: int, best_seat: int, best_str: int, best_card: int) -> Any:
            seat = seats[pos]
            if pos == 0:
                memo = 0
            elif want[seat] > 0 or want[best_seat] <= 0:
                memo = pos << 3 | (led + 1)
            else:
                memo = ((best_str + 2) << 3 | best_seat) << 6 | pos << 3 | (led + 1)
            candidates = ordered.get(memo)
            if candidates is None:
                hand = hands[seat]
                legal = hand if pos == 0 else hand & COLOUR_MASK[led] or hand
                feed = targets[best_seat] if pos else 0
                candidates = self._candidates(legal, hand, live, sensitive, features, pos, led, want[seat],
                                              best_str, want[best_seat] if pos else 0, feed, wanted & ~feed)
                if hint_rank is not None and len(candidates) > 1:
                    # stable: within each group the order above stands
                    candidates.sort(key=hint_rank.__getitem__)
                ordered[memo] = candidates
            lds = self.lds
            strengths = _STRENGTH[led]
            for index, card in enumerate(candidates):
                if index and lds is not None:
                    # limited discrepancy search: the ordering's k-th choice spends k - 1 discrepancies (a
                    # flat cost of 1 decided one deal fewer of the benchmark's 400 at the same node cap)
                    if self.lds < index:
                        break
                    self.lds -= index
                self.nodes += 1
                if self.nodes >= self._next_check:
                    self._check()
                if pos == 0:
                    led2 = _COLOUR[card]
                    bs, bstr, bc = seat, _LEAD_STRENGTH[card], card
                else:
                    led2 = led
                    strength = strengths[card]
                    if strength > best_str:
                        bs, bstr, bc = seat, strength, card
                    else:
                        bs, bstr, bc = best_seat, best_str, best_card
                plays.append(card)
                if pos == n - 1:
                    result = finish(tmask | (1 << card), bs, bc)
                else:
                    result = play(pos + 1, tmask | (1 << card), led2, bs, bstr, bc)
                plays.pop()
                if index and lds is not None:
                    self.lds += index
                if result is not False:
                    return result
            return False

        return play(0, 0, -1, -1, -1, -1)

    def _runs(self, colour: int, hand: int, live: int, sensitive: int, features: tuple[int, ...]) -> tuple[int, ...]:
        """This hand's cards of one colour worth trying: one per class of equivalent cards (see below)."""
        out: list[int] = []
        seen: set[int] = set()
        for card in COLOUR_CARDS_ASC[colour]:
            bit = 1 << card
            if not live & bit:
                continue
            if not hand & bit:
                seen = set()  # another seat's live card between: a new run starts
                continue
            if not self.reduce or bit & sensitive:
                out.append(card)
                continue
            signature = 0
            for i, f in enumerate(features):
                if f & bit:
                    signature |= 1 << i
            if signature not in seen:
                seen.add(signature)
                out.append(card)
        return tuple(out)

    def _candidates(self, legal: int, hand: int, live: int, sensitive: int, features: tuple[int, ...], pos: int,
                    led: int, want: int, best_str: int, winner_wants: int, feed: int, claimed: int) -> list[int]:
        """The plays worth trying from ``legal``, one per class of equivalent cards, best first.

        A *run* is a block of this hand's cards with no other live card of the colour between them: every
        card of a run beats and loses to exactly the same cards. Inside a run only cards a pending task
        tells apart (a different class, or a card it names) need trying."""
        if not legal & (legal - 1):
            return [legal.bit_length() - 1]  # one legal card: nothing to choose or order
        out: list[int] = []
        reduce = self.reduce
        cache = _RUNS
        for colour in range(5):
            if not legal & COLOUR_MASK[colour]:
                continue
            shift = 9 * colour
            # The classes depend on this colour's live cards, this hand's, and what the tasks tell apart
            # there: memoised on exactly that (one int), since the same small patterns recur all the time.
            key = (((colour << 9 | (live >> shift) & 511) << 9 | (hand >> shift) & 511) << 9
                   | (sensitive >> shift) & 511) << 1 | reduce
            for f in features:
                key = key << 9 | (f >> shift) & 511
            runs = cache.get(key)
            if runs is None:
                runs = cache[key] = self._runs(colour, hand, live, sensitive, features)
            out.extend(runs)
        if len(out) < 2:
            return out
        # Move ordering: a seat that wants tricks tries its strongest cards first; a seat following a
        # trick won by a seat that wants cards feeds it the cards it wants; everyone else plays low.
        if pos == 0:
            if want > 0 or not claimed:
                out.sort(key=(_LEAD_HIGH if want > 0 else _LEAD_LOW).__getitem__)
            else:
                out.sort(key=lambda c: _LEAD_LOW[c] + (1024 if (1 << c) & claimed else 0))
            return out
        if want > 0:
            out.sort(key=_NEG_STRENGTH[led].__getitem__)
        elif winner_wants > 0:
            # the cards the winning seat wants first, the cards other seats want last (given to this
            # winner they are lost to their task)
            out.sort(key=lambda c: (_strength(c, led) > best_str, not (1 << c) & feed, (1 << c) & claimed != 0,
                                    _strength(c, led)))
        elif claimed:
            # a card another seat wants, given to a seat that does not want it, is lost to its task: last
            low = _LOW_FOLLOW[led]
            out.sort(key=lambda c: low[c] + (1024 if (1 << c) & claimed else 0))
        else:
            out.sort(key=_LOW_FOLLOW[led].__getitem__)
        return out


_HINT_RANKS: dict[tuple[int, int], tuple[int, ...]] = {}


def _hint_rank(keep: int, shed: int) -> tuple[int, ...]:
    """Per card: -1 to shed, +1 to keep, 0 otherwise (memoised: a deal sees few distinct hint pairs)."""
    rank = _HINT_RANKS.get((keep, shed))
    if rank is None:
        if len(_HINT_RANKS) > 4096:
            _HINT_RANKS.clear()
        rank = _HINT_RANKS[keep, shed] = tuple((keep >> c & 1) - (shed >> c & 1) for c in range(N_CARDS))
    return rank


_COMPRESSED: dict[int, int] = {}
#: _Search._runs memoised (see _candidates): the key packs colour, live, hand, sensitive and feature bits
_RUNS: dict[int, tuple[int, ...]] = {}
# Sort keys of the move ordering, as tables (a lookup is cheaper than a lambda per card):
# lead high (submarines first) / lead low (submarines last) / follow strongest first / follow weakest first
_LEAD_HIGH = tuple(-(_VALUE[c] + (50 if _COLOUR[c] == SUB else 0)) for c in range(N_CARDS))
_LEAD_LOW = tuple((100 if _COLOUR[c] == SUB else 0) + _VALUE[c] for c in range(N_CARDS))
#: _strength as tables: [led][card] (index -1, no colour led yet, is never read in play), and a lead's own
_STRENGTH = tuple(tuple(_strength(c, led) for c in range(N_CARDS)) for led in range(5))
_LEAD_STRENGTH = tuple(_strength(c, _COLOUR[c]) for c in range(N_CARDS))
_NEG_STRENGTH = tuple(tuple(-_strength(c, led) for c in range(N_CARDS)) for led in range(5))
_LOW_FOLLOW = tuple(tuple(_strength(c, led) * 16 + _VALUE[c] for c in range(N_CARDS)) for led in range(5))
#: per number of seats: one colour's slice of every hand with its tag (see ``_Search._key``) -> the hands'
#: masks among that colour's live cards
_COLOUR_CODES: dict[int, dict[int, int]] = {}


def _colour_code(raw: int, n: int) -> int:
    """The rank-order code of one colour (see ``_Search._key``). ``raw`` packs, from the top: ``n``, nine
    bits per hand, then ``k`` nine-bit masks the tasks tell apart, then ``k`` in five bits. The code is
    each hand's and each mask's bits among the colour's live cards, nine bits apiece."""
    k = raw & 31
    raw >>= 5
    extra = [(raw >> (9 * (k - 1 - i))) & 511 for i in range(k)]
    raw >>= 9 * k
    masks = [(raw >> (9 * (n - 1 - i))) & 511 for i in range(n)]
    live9 = 0
    for m in masks:
        live9 |= m
    code = 0
    for m in masks + extra:
        code = (code << 9) | _compress(live9, m)
    return code


def _compress(live9: int, bits9: int) -> int:
    """``bits9`` with the positions that are not in ``live9`` squeezed out (a software PEXT), memoised."""
    key = (live9 << 9) | bits9
    out = _COMPRESSED.get(key)
    if out is None:
        out, k = 0, 0
        for i in range(9):
            if live9 >> i & 1:
                if bits9 >> i & 1:
                    out |= 1 << k
                k += 1
        _COMPRESSED[key] = out
    return out


def _winner_pos(cards: Sequence[int]) -> tuple[int, int]:
    led = _COLOUR[cards[0]]
    best, best_str = 0, _strength(cards[0], led)
    for i in range(1, len(cards)):
        s = _strength(cards[i], led)
        if s > best_str:
            best, best_str = i, s
    return best, cards[best]


# ---------------------------------------------------------------------------------------------------
# the public API
# ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Solution:
    """The answer of :func:`solve` (and of the oracle :func:`naive_solve`).

    ``winnable``: ``True`` (``line`` wins), ``False`` (proved impossible; ``reason`` explains when a simple
    reason exists) or ``None`` (stopped at ``node_limit`` / ``time_limit`` / a stop request: ``stopped``
    says which). ``line`` holds the :class:`~toolkit.crew.cards.Trick` s still to play, ending the moment
    the engine judges every task done. ``predictions`` maps ``(seat, task_id)`` to the number of tricks
    announced for a "win exactly X tricks" task the caller left open. ``nodes`` counts the card plays
    searched plus the SAT solver's conflicts (see :mod:`toolkit.crew.sat`).
    """

    winnable: bool | None
    line: list = field(default_factory=list)
    reason: Violation | None = None
    nodes: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    predictions: Mapping[tuple[int, int], int] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.winnable)

    def verdict(self, lang: str = "en") -> str:
        """One sentence: winnable / impossible (and why) / undecided."""
        from toolkit.core.i18n import translate

        if self.winnable:
            return translate("CREW_SOLVER_WINNABLE", lang, tricks=len(self.line), nodes=self.nodes)
        if self.winnable is False:
            base = translate("CREW_SOLVER_IMPOSSIBLE", lang, nodes=self.nodes)
            return base if self.reason is None else f"{base} {self.reason.text(lang)}"
        return translate("CREW_SOLVER_UNDECIDED", lang, nodes=self.nodes,
                         limit=translate(f"CREW_SOLVER_STOP_{(self.stopped or 'stopped').upper()}", lang))


@dataclass(frozen=True)
class Position:
    """Validated solver input, in the solver's int form."""

    players: int
    hands: tuple[int, ...]                     # bit masks
    hand_cards: tuple[tuple[Any, ...], ...]     # engine Cards, as given
    tasks: tuple[tuple[int, int, int | None], ...]  # (seat, task id, prediction or None)
    leader: int
    captain: int
    played: tuple[Any, ...]                     # engine Tricks
    played_codes: tuple[tuple[int, tuple[int, ...]], ...]
    tricks_left: int

    @property
    def last(self) -> int:
        return len(self.played) + self.tricks_left


def _bad(message: str) -> InvalidMoveError:
    return InvalidMoveError(message)


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{what} must be a whole number, not {value!r}")
    return value


def prepare(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], leader: int | None = None,
            captain: int = 0, played: Sequence[Any] = ()) -> Position:
    """Check and convert the solver's input; every defect is a :class:`RuleError` naming the problem."""
    from toolkit.crew.cards import Card, Trick

    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise _bad(f"hands must be a list of hands, one per seat, not {hands!r:.80}")
    players = len(hands)
    if not 3 <= players <= 5:
        raise IllegalMoveError(Violation("CREW_SOLVER_SEATS", "crew.solver.position", seats=players))
    owner_of: dict[int, int] = {}
    parsed: list[tuple[Any, ...]] = []
    for seat, hand in enumerate(hands):
        if isinstance(hand, (str, bytes)):
            from toolkit.crew.cards import cards as parse_cards
            hand = parse_cards(hand)
        if not isinstance(hand, Iterable):
            raise _bad(f"seat {seat}'s hand must be a list of cards, not {hand!r:.80}")
        cards = tuple(Card.parse(c) for c in hand)
        for c in cards:
            if c.index in owner_of:
                raise IllegalMoveError(Violation("CREW_SOLVER_DUPLICATE_CARD", "crew.solver.position", card=c,
                                                 seats=sorted({owner_of[c.index], seat})))
            owner_of[c.index] = seat
        parsed.append(cards)
    masks = tuple(sum(1 << c.index for c in h) for h in parsed)
    captain = _whole(captain, "the captain")
    if not 0 <= captain < players:
        raise _bad(f"the captain must be a seat from 0 to {players - 1}, not {captain}")
    # tricks already played
    if isinstance(played, (str, bytes)) or not isinstance(played, Sequence):
        raise _bad(f"played must be a list of tricks, not {played!r:.80}")
    tricks: list[Any] = []
    seen = dict(owner_of)
    for k, t in enumerate(played):
        if not isinstance(t, Trick):
            if isinstance(t, Mapping):
                t = Trick.from_json(dict(t))
            elif isinstance(t, Sequence) and len(t) == 2 and not isinstance(t, str):
                t = Trick(t[0], t[1])
            else:
                raise _bad(f"played trick {k + 1} must be a Trick or (leader, cards), not {t!r:.80}")
        if len(t.cards) != players:
            raise IllegalMoveError(Violation("CREW_SOLVER_TRICK_SIZE", "crew.solver.position", trick=k + 1,
                                             cards=len(t.cards), seats=players))
        if tricks and t.leader != tricks[-1].winner:
            raise IllegalMoveError(Violation("CREW_SOLVER_WRONG_LEADER", "crew.solver.position", trick=k + 1,
                                             seat=t.leader, winner=tricks[-1].winner))
        for c in t.cards:
            if c.index in seen:
                raise IllegalMoveError(Violation("CREW_SOLVER_CARD_TWICE", "crew.solver.position", card=c,
                                                 trick=k + 1))
            seen[c.index] = -1
        tricks.append(t)
    # Each played card must have been legal from the hand its seat held then: the current hand plus
    # everything that seat played from that trick on (the engine's own follow rule says why not).
    from toolkit.crew.cards import why_illegal_play
    held = [list(h) for h in parsed]
    for k in range(len(tricks) - 1, -1, -1):
        t = tricks[k]
        for seat, c in zip(t.seats, t.cards):
            held[seat].append(c)
        for i, (seat, c) in enumerate(zip(t.seats, t.cards)):
            violation = why_illegal_play(held[seat], c, t.cards[0] if i else None)
            if violation is not None:
                raise IllegalMoveError(violation)
    if leader is None:
        leader = tricks[-1].winner if tricks else captain
    leader = _whole(leader, "the leader")
    if not 0 <= leader < players:
        raise _bad(f"the leader must be a seat from 0 to {players - 1}, not {leader}")
    if tricks and leader != tricks[-1].winner:
        raise IllegalMoveError(Violation("CREW_SOLVER_WRONG_LEADER", "crew.solver.position",
                                         trick=len(tricks) + 1, seat=leader, winner=tricks[-1].winner))
    # tasks
    if not isinstance(tasks, Mapping):
        raise _bad(f"tasks must map a seat to its task ids, like {{0: [17]}}, not {tasks!r:.80}")
    entries: list[tuple[int, int, int | None]] = []
    taken: dict[int, int] = {}
    from toolkit.crew.tasks import TASKS, compile_task
    n_tasks = len(TASKS)
    for seat, ids in tasks.items():
        seat = _whole(seat, "a task's seat")
        if not 0 <= seat < players:
            raise _bad(f"tasks name seat {seat}, but the seats are 0 to {players - 1}")
        if isinstance(ids, (int, str)) or not isinstance(ids, Iterable):
            ids = [ids]
        for item in ids:
            prediction = None
            if isinstance(item, (tuple, list)) and len(item) == 2:
                item, prediction = item
                prediction = _whole(prediction, "a prediction")
            if isinstance(item, str) and item.strip().isdigit():
                item = int(item.strip())
            task_id = _whole(item, "a task id")
            if not 1 <= task_id <= n_tasks:
                raise _bad(f"there is no task {task_id}: the catalogue runs from 1 to {n_tasks}")
            if task_id in taken:
                raise IllegalMoveError(Violation("CREW_SOLVER_TASK_TWICE", "crew.solver.position", task=TaskRef(task_id),
                                                 seats=sorted({taken[task_id], seat})))
            taken[task_id] = seat
            category, params = _task_definition(task_id)
            if prediction is not None and category != "trick_count_prediction":
                raise _bad(f"task {task_id} takes no prediction")
            # the engine's own allocation checks: the captain cannot take a captain comparison, a
            # prediction must be a possible number of tricks
            compile_task(task_id, seat, players, captain, prediction if prediction is not None else 0)
            entries.append((seat, task_id, prediction))
    tricks_left = min(len(h) for h in parsed)
    return Position(players=players, hands=masks, hand_cards=tuple(parsed), tasks=tuple(entries), leader=leader,
                    captain=captain, played=tuple(tricks),
                    played_codes=tuple((t.leader, tuple(c.index for c in t.cards)) for t in tricks),
                    tricks_left=tricks_left)


def _engine_status(task_id: int, owner: int, tricks: Sequence[Any], players: int, captain: int,
                   prediction: int | None, last: int) -> str:
    """The engine's verdict on one task after ``tricks`` in a mission whose last trick is ``last``.

    A full mission is judged by ``task_status`` itself. ``task_status`` has no parameter for a shorter
    mission (an endgame typed in by hand), so there the same engine judge is folded over a ``Ledger``
    whose total is ``last`` — the three lines of ``task_status`` with one number changed.
    """
    from toolkit.crew.cards import tricks_in_mission
    from toolkit.crew.tasks import PENDING as ENGINE_PENDING, Ledger, compile_task, task_status

    if last == tricks_in_mission(players):
        return task_status(task_id, owner, list(tricks), players, captain=captain, prediction=prediction)
    judge = compile_task(task_id, owner, players, captain, prediction)
    memo = judge.start()
    ledger = Ledger(players, last)
    for trick in tricks:
        ledger = ledger.add(trick)
        memo = judge.step(memo, ledger)
        if memo[0] != ENGINE_PENDING:
            break
    return memo[0]


def engine_all_done(position: Position, tricks: Sequence[Any], predictions: Mapping[tuple[int, int], int]) -> str:
    """``"done"`` if the engine judges every task done after ``tricks`` (played ones included),
    ``"failed"`` if any has failed, else ``"pending"``."""
    statuses = [_engine_status(task_id, seat, tricks, position.players, position.captain,
                               prediction if prediction is not None else predictions.get((seat, task_id)),
                               position.last)
                for seat, task_id, prediction in position.tasks]
    if "failed" in statuses:
        return "failed"
    return "done" if all(s == "done" for s in statuses) else "pending"


def _limits(node_limit: Any, time_limit: Any) -> tuple[int | None, float | None]:
    if node_limit is not None:
        node_limit = _whole(node_limit, "node_limit")
        if node_limit < 1:
            raise _bad(f"node_limit must be at least 1, not {node_limit}")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not time_limit > 0:
            raise _bad(f"time_limit must be a positive number of seconds, not {time_limit!r}")
        if time_limit == float("inf"):
            time_limit = None
    return node_limit, time_limit


def _judges_for(position: Position, subset: Sequence[int] | None = None) -> list[_Judge]:
    chosen = position.tasks if subset is None else [position.tasks[i] for i in subset]
    return [make_judge(task_id, seat, position.players, position.captain, position.last, prediction)
            for seat, task_id, prediction in chosen]


def _sat_available() -> bool:
    from toolkit.crew import sat

    return sat.AVAILABLE


def _sat_model(position: Position, judges: Sequence[_Judge]) -> Any:
    """The SAT clauses of ``position`` with the tasks of ``judges`` (see :mod:`toolkit.crew.sat`)."""
    from toolkit.crew import sat

    tasks = [(judge.task_id, judge.owner, getattr(judge, "n", None) if isinstance(judge, _Prediction) else None)
             for judge in judges]
    return sat.CrewModel(position.hands, position.leader, position.played_codes, position.tricks_left,
                         [(owner, task_id, prediction) for task_id, owner, prediction in tasks],
                         position.captain, position.players)


def _search_position(position: Position, judges: Sequence[_Judge], node_limit: int | None, deadline: float | None,
                     on_progress: Callable[[int], Any] | None = None, stop: threading.Event | None = None,
                     **options: Any) -> tuple[Any, _Search]:
    """(``False`` | line | ``None`` when stopped | ``"failed"`` when a task is already lost, search)."""
    method = options.pop("method", "auto")
    if method != "search" and _sat_available():
        options["sat_model"] = lambda: _sat_model(position, judges)
        if method == "sat":
            options["sat_after"] = 0
    search = _Search(position.hands, position.leader, judges, len(position.played), position.last,
                     node_limit, deadline, on_progress, stop, **options)
    progress = search.initial_progress(position.played_codes)
    if progress is None:
        return "failed", search
    if position.tricks_left == 0:
        return (() if all(p == DONE for p in progress) else False), search
    try:
        return search.run(progress), search
    except _Stop:
        return None, search


def solve(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], leader: int | None = None,
          captain: int = 0, played: Sequence[Any] = (), node_limit: int | None = None,
          time_limit: float | None = None, *, stop: threading.Event | None = None,
          on_progress: Callable[[int], Any] | None = None, method: str = "auto") -> Solution:
    """Was this mission winnable? Search every legal line of play with all hands visible.

    ``hands``: one list of cards (``Card`` or text such as ``"P9"``) per seat; the tricks left are the
    smallest hand size. ``tasks``: ``{seat: [task id, ...]}``; a "win exactly X tricks" task may be given
    as ``(task_id, X)``, or bare to let the solver choose X. ``played``: tricks already played (``Trick`` or
    ``(leader, cards)``), which count for the tasks. ``leader`` defaults to the winner of the last played
    trick, else the captain. ``node_limit`` (card plays) and ``time_limit`` (seconds) bound the search;
    ``stop`` (a ``threading.Event``) ends it early from another thread, ``on_progress(nodes)`` is called
    about every 16k nodes. ``method``: ``"auto"`` (the search, then the SAT solver for a deal it has not
    decided after its first rounds), ``"search"`` (the search alone) or ``"sat"`` (the SAT solver at once;
    needs ``python-sat``).

    >>> hands = [["P9", "B1"], ["P1", "B2"], ["P2", "B3"], ["P3", "B4"]]
    >>> solve(hands, {3: [76]}, leader=0).winnable    # seat 3 wins the last trick with B4
    True
    >>> solve(hands, {1: [76]}, leader=0, method="sat").winnable    # seat 1 can win no trick at all
    False
    """
    started = time.perf_counter()
    node_limit, time_limit = _limits(node_limit, time_limit)
    if method not in ("auto", "search", "sat"):
        raise _bad(f"method must be 'auto', 'search' or 'sat', not {method!r}")
    if method == "sat" and not _sat_available():
        raise _bad("method 'sat' needs the python-sat package (pip install python-sat)")
    position = prepare(hands, tasks, leader, captain, played)
    deadline = started + time_limit if time_limit is not None else None
    judges = _judges_for(position)
    result, search = _search_position(position, judges, node_limit, deadline, on_progress, stop, method=method)
    nodes = search.nodes
    if result is None:
        stopped = ("stopped" if stop is not None and stop.is_set() else
                   "node_limit" if node_limit is not None and nodes >= node_limit else "time_limit")
        return Solution(None, nodes=nodes, seconds=time.perf_counter() - started, stopped=stopped)
    if result is False or result == "failed":
        # The reason's searches stop a little before the deadline: they check the clock every 1,024 plays,
        # and the verdict must not arrive late because of a bonus.
        reason = explain_impossible(position, judges, already_failed=result == "failed",
                                    budget=max(50_000, 2 * nodes),
                                    deadline=None if deadline is None else deadline - _REASON_MARGIN, stop=stop)
        return Solution(False, reason=reason, nodes=nodes, seconds=time.perf_counter() - started)
    line, predictions = _finish_line(position, result)
    return Solution(True, line=line, nodes=nodes, seconds=time.perf_counter() - started, predictions=predictions)


#: seconds before a time limit at which the searches for a reason stop (see ``solve``)
_REASON_MARGIN = 0.05


def _finish_line(position: Position, result: Sequence[tuple[int, tuple[int, ...]]]) -> tuple[list, dict]:
    """Turn the search's line into engine Tricks, fix open predictions, cut it where the engine ends the
    mission, and prove it with the engine: every play legal, every task done."""
    from toolkit.crew.cards import Trick, legal_plays

    tricks = [Trick(leader, [card_of(c) for c in cards]) for leader, cards in result]
    predictions: dict[tuple[int, int], int] = {}
    for seat, task_id, prediction in position.tasks:
        category, _ = _task_definition(task_id)
        if category == "trick_count_prediction" and prediction is None:
            predictions[(seat, task_id)] = sum(1 for t in list(position.played) + tricks if t.winner == seat)
    hands = [list(h) for h in position.hand_cards]
    history = list(position.played)
    line: list = []
    for trick in tricks:
        led = None
        for seat, card in zip(trick.seats, trick.cards):
            if card not in legal_plays(hands[seat], led):
                raise AssertionError(f"solver line plays {card} illegally in {trick}")  # pragma: no cover
            hands[seat].remove(card)
            led = led or card
        history.append(trick)
        line.append(trick)
        verdict = engine_all_done(position, history, predictions)
        if verdict == "done":
            return line, predictions
        if verdict == "failed":  # pragma: no cover - the judge tests make this unreachable
            raise AssertionError(f"the engine judges the solver's line as failed at {trick}")
    # The fast judges may see a task settled before the engine says so (both are sound): any legal
    # continuation keeps it settled, so play on with the lowest legal cards until the engine agrees.
    leader = history[-1].winner if history else position.leader
    if engine_all_done(position, history, predictions) == "done":
        return line, predictions
    while len(line) < position.tricks_left:
        plays = []
        for i in range(position.players):
            seat = (leader + i) % position.players
            card = legal_plays(hands[seat], plays[0] if plays else None)[0]
            hands[seat].remove(card)
            plays.append(card)
        trick = Trick(leader, plays)
        history.append(trick)
        line.append(trick)
        leader = trick.winner
        if engine_all_done(position, history, predictions) == "done":
            return line, predictions
    raise AssertionError("the engine does not confirm the solver's line")  # pragma: no cover


# ---------------------------------------------------------------------------------------------------
# reasons
# ---------------------------------------------------------------------------------------------------

def _task(task_id: int) -> Any:
    from toolkit.crew.tasks import TASKS

    return TASKS[task_id]


@dataclass(frozen=True)
class TaskRef:
    """A task as a message parameter: ``#17 “Win the yellow 1.”`` / ``#17「黄1を取る。」``."""

    id: int

    def text(self, lang: str = "en") -> str:
        words = _task(self.id).text(lang)
        return f"#{self.id} “{words}”" if lang == "en" else f"#{self.id}「{words}」"

    def __str__(self) -> str:
        return self.text("en")


def _root_reason(position: Position, judges: Sequence[_Judge]) -> Violation | None:
    """Why a task is lost before the first trick still to play, from the facts on the table."""
    progress = [j.initial() for j in judges]
    for index, (leader, cards) in enumerate(position.played_codes, start=1):
        tmask = sum(1 << c for c in cards)
        pos, wcard = _winner_pos(cards)
        winner = (leader + pos) % len(cards)
        progress = [p if p in (DONE, FAILED) else j.step(p, index, leader, cards, winner, wcard, tmask)
                    for j, p in zip(judges, progress)]
    live = 0
    for h in position.hands:
        live |= h
    rest = position.tricks_left
    for (seat, task_id, _), judge, p in zip(position.tasks, judges, progress):
        if p == DONE:
            continue
        lost_in_play = p == FAILED or bool(position.played) and _engine_status(
            task_id, seat, position.played, position.players, position.captain,
            _ if _ is not None else 0, position.last) == "failed" and not _task(task_id).needs_prediction
        if not lost_in_play and judge.status(p, len(position.played), rest, live, position.hands) != FAILED:
            continue
        task = TaskRef(task_id)
        forced, covers = forced_submarines(seat, position.hands, rest)
        if forced and not lost_in_play and isinstance(judge, (_CardCount, _CaptureCards)):
            judge.use_forced = False
            try:
                forced = forced if judge.status(p, len(position.played), rest, live, position.hands) != FAILED \
                    else []
            finally:
                judge.use_forced = True
        if isinstance(judge, (_CaptureCards, _CaptureInTrick)):
            won = p[0] if isinstance(p, tuple) else 0
            reach = _reachable(seat, position.hands, live)
            for code in _bits(judge.targets & ~won & live & ~reach):
                return Violation("CREW_SOLVER_SUB_OUT_OF_REACH", "crew.solver.cutoff", task=task, seat=seat,
                                 card=card_of(code))
            gone = [c for c in _bits(judge.targets & ~won) if not live >> c & 1]
            for code in gone:
                for t in position.played:
                    if t.mask >> code & 1 and t.winner != seat:
                        return Violation("CREW_SOLVER_CARD_WON_ELSEWHERE", "crew.solver.cutoff", task=task,
                                         seat=seat, card=card_of(code), winner=t.winner)
            if gone and not lost_in_play and not any(t.mask >> gone[0] & 1 for t in position.played):
                return Violation("CREW_SOLVER_CARD_OUT_OF_PLAY", "crew.solver.cutoff", task=task, seat=seat,
                                 card=card_of(gone[0]))
        if lost_in_play:
            return Violation("CREW_SOLVER_ALREADY_FAILED", "crew.solver.cutoff", task=task, seat=seat,
                             tricks=len(position.played))
        if isinstance(judge, _WinTrickWith) and not position.hands[seat] & judge.win:
            return Violation("CREW_SOLVER_NO_WINNING_CARD", "crew.solver.cutoff", task=task, seat=seat)
        if forced and isinstance(judge, (_TrickCount, _Relative, _TrickPositions, _CardCount, _CaptureCards)):
            mine = [card_of(c) for c in _bits(position.hands[seat] & COLOUR_MASK[SUB])]
            if not covers:
                return Violation("CREW_SOLVER_FORCED_WINS_UNCOVERED", "crew.solver.cutoff", task=task, seat=seat,
                                 cards=mine)
            return Violation("CREW_SOLVER_FORCED_WINS", "crew.solver.cutoff", task=task, seat=seat, cards=mine,
                             covers=[card_of(c) for c in covers], forced=len(forced))
        if isinstance(judge, _CaptureCards):
            won = p[0] if isinstance(p, tuple) else 0
            hands = position.hands
            block = _own_card_blocked(seat, hands, judge.targets & ~won & hands[seat] & ALL_COLOUR_CARDS, rest)
            if block is not None:
                from toolkit.crew.cards import suit_term
                code, other = block
                colour_mask = COLOUR_MASK[_COLOUR[code]]
                higher = [card_of(c) for c in _bits(hands[other] & colour_mask)]
                params = dict(task=task, seat=seat, card=card_of(code), other=other,
                              colour=suit_term(COLOURS[_COLOUR[code]]), cards=higher)
                if hands[other] & ALL_COLOUR_CARDS & ~colour_mask:
                    return Violation("CREW_SOLVER_OWN_CARD_LATE", "crew.solver.cutoff", left=rest, **params)
                params["cards"] = [card_of(c) for c in _bits(hands[other])]
                return Violation("CREW_SOLVER_OWN_CARD_NO_DISCARD", "crew.solver.cutoff", **params)
        if isinstance(judge, (_CardCount, _CardCompare, _CaptureCards)):
            return Violation("CREW_SOLVER_TOO_FEW_CARDS", "crew.solver.cutoff", task=task, seat=seat)
        if isinstance(judge, (_TrickCount, _Streak, _Relative, _TrickPositions)):
            return Violation("CREW_SOLVER_TOO_FEW_TRICKS", "crew.solver.cutoff", task=task, seat=seat, left=rest)
        return Violation("CREW_SOLVER_TASK_LOST", "crew.solver.cutoff", task=task, seat=seat)
    return None


def explain_impossible(position: Position, judges: Sequence[_Judge], already_failed: bool = False,
                       budget: int = 20_000, deadline: float | None = None,
                       stop: threading.Event | None = None) -> Violation | None:
    """A short, *proved* reason why no line wins, or ``None`` when none is found within ``budget`` nodes.

    First the facts on the table (a task already lost, its card gone, too few tricks or cards left); then
    single tasks ("task 17 cannot be met even on its own") and pairs ("tasks 17 and 79 cannot both be
    met"), each settled like the verdict (the search, then the SAT solver): complete proofs, so a reason
    is never a guess. ``budget``: nodes per subset; ``deadline`` (default: two seconds from now) and
    ``stop`` end the subsets' searches early (no reason then).
    """
    reason = _root_reason(position, judges)
    if reason is not None:
        return reason
    # (``already_failed`` without a fact to name: the judges saw the tasks clash at once, e.g. "all nine
    # cards of a colour" and "no 8s and no 9s" for one seat; the subsets below name the clash)
    tasks = position.tasks
    if len(tasks) == 1:
        seat, task_id, _ = tasks[0]
        return Violation("CREW_SOLVER_NO_LINE", "crew.solver.impossible", task=TaskRef(task_id), seat=seat)
    deadline = deadline if deadline is not None else time.perf_counter() + 2.0
    # Each claim of a reason is proved: "each task can be met on its own" needs a line for every single
    # task, "every pair can be met" one for every pair. A subset left open (budget, deadline) proves
    # nothing, so a reason that needs it is not given.
    def possible(subset: Sequence[int]) -> bool | None:
        if time.perf_counter() >= deadline or (stop is not None and stop.is_set()):
            return None
        # the same portfolio as the verdict's: the search's first round finds most lines at once, and the
        # SAT solver settles the rest (one subset of seed 26 took it 19 k conflicts; the search alone was
        # still open at 20 k plays)
        result, _ = _search_position(position, _judges_for(position, subset), budget, deadline, stop=stop)
        if result is None:
            return None
        return not (result is False or result == "failed")

    singles = [possible([i]) for i in range(len(tasks))]
    for i, (seat, task_id, _) in enumerate(tasks):
        if singles[i] is False:
            return Violation("CREW_SOLVER_ALONE", "crew.solver.impossible", task=TaskRef(task_id), seat=seat)
    if not all(singles):
        return None
    all_pairs_possible = True
    for i in range(len(tasks)):
        for k in range(i + 1, len(tasks)):
            # with two tasks the pair is the whole mission, already proved lost
            pair = possible([i, k]) if len(tasks) > 2 else False
            if pair is False:
                (sa, ta, _), (sb, tb, _) = tasks[i], tasks[k]
                return Violation("CREW_SOLVER_PAIR", "crew.solver.impossible", task_a=TaskRef(ta), seat_a=sa,
                                 task_b=TaskRef(tb), seat_b=sb)
            all_pairs_possible = all_pairs_possible and pair is True
    if len(tasks) > 2 and all_pairs_possible:
        return Violation("CREW_SOLVER_TOGETHER", "crew.solver.impossible", count=len(tasks))
    return None


# ---------------------------------------------------------------------------------------------------
# the oracle
# ---------------------------------------------------------------------------------------------------

def naive_solve(hands: Sequence[Iterable[Any]], tasks: Mapping[int, Iterable[Any]], leader: int | None = None,
                captain: int = 0, played: Sequence[Any] = (), node_limit: int | None = None) -> Solution:
    """The test oracle: try every legal card at every turn, judging with the engine's own task judges after
    each trick (``compile_task`` folded over a ``Ledger``: what ``task_status`` does, incrementally). No
    table, no card equivalence, no bounds beyond the engine's own verdicts. Open predictions are tried
    one value at a time."""
    from itertools import product

    from toolkit.crew.cards import Trick, legal_plays
    from toolkit.crew.tasks import DONE as E_DONE, FAILED as E_FAILED, Ledger, compile_task

    started = time.perf_counter()
    position = prepare(hands, tasks, leader, captain, played)
    open_ = [(seat, task_id) for seat, task_id, prediction in position.tasks
             if prediction is None and _task(task_id).needs_prediction]
    nodes = 0
    players = position.players

    class Budget(Exception):
        pass

    def search(preds: Mapping[tuple[int, int], int]) -> list | None:
        judges = [compile_task(task_id, seat, players, position.captain,
                               prediction if prediction is not None else preds.get((seat, task_id)))
                  for seat, task_id, prediction in position.tasks]

        def advance(memos, ledger, trick):
            ledger = ledger.add(trick)
            return [judge.step(m, ledger) for judge, m in zip(judges, memos)], ledger

        def verdict(memos):
            states = [m[0] for m in memos]
            if E_FAILED in states:
                return "failed"
            return "done" if all(s == E_DONE for s in states) else "pending"

        def trick(hands_now, leader, memos, ledger, plays) -> list | None:
            nonlocal nodes
            if len(plays) == players:
                t = Trick(leader, list(plays))
                memos2, ledger2 = advance(memos, ledger, t)
                v = verdict(memos2)
                if v == "done":
                    return [t]
                if v == "failed" or ledger2.count - len(position.played) >= position.tricks_left:
                    return None
                rest = trick(hands_now, t.winner, memos2, ledger2, [])
                return None if rest is None else [t] + rest
            seat = (leader + len(plays)) % players
            for card in legal_plays(hands_now[seat], plays[0] if plays else None):
                nodes += 1
                if node_limit is not None and nodes > node_limit:
                    raise Budget
                hands_now[seat].remove(card)
                plays.append(card)
                found = trick(hands_now, leader, memos, ledger, plays)
                plays.pop()
                hands_now[seat].append(card)
                if found is not None:
                    return found
            return None

        memos = [judge.start() for judge in judges]
        ledger = Ledger(players, position.last)
        for t in position.played:
            memos, ledger = advance(memos, ledger, t)
        start = verdict(memos)
        if start == "done":
            return []
        if start == "failed" or position.tricks_left == 0:
            return None
        return trick([list(h) for h in position.hand_cards], position.leader, memos, ledger, [])

    try:
        for values in product(*[range(position.last + 1) for _ in open_]):
            preds = dict(zip(open_, values))
            line = search(preds)
            if line is not None:
                return Solution(True, line=line, nodes=nodes, seconds=time.perf_counter() - started,
                                predictions=preds)
    except Budget:
        return Solution(None, nodes=nodes, seconds=time.perf_counter() - started, stopped="node_limit")
    return Solution(False, nodes=nodes, seconds=time.perf_counter() - started)
