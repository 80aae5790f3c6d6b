"""The mission-level conditions of the logbook missions without task cards (8, 12, 21, 23, 27), judged
like tasks (ruling "Crew mission conditions" in the design; issue 28.2).

Each condition is a :class:`toolkit.crew.tasks.Judge` (owner ``-1``): ``settle`` after every trick — its
own bounds (``_step``), and with one trick left every continuation played out (``Judge._endgame``) —
and :meth:`ConditionJudge.card` after every card of a trick that is not complete yet. The verdicts mean
what a task's do (rule ``crew.task.judge``): **done** — met, and no continuation can break it any more;
**failed** — every continuation breaks it. A continuation is any split of the unplayed cards into hands
followed by any legal play (what the table can know; the hidden hands are not consulted). The engine
ends the attempt at the card that decides the condition.

* ``nines`` (8) / ``ones`` (21): after any trick no seat may have won two more colour 9s (1s) than
  another. Failed at the card that makes every possible winner of the trick two ahead (a trick holding
  two 9s at 4 or 5 seats: whoever wins it is two ahead of someone; at 3 seats ``[0, 1, 1]`` the seat
  behind may win both); done once the cards left cannot put anyone two ahead.
* ``no-pink-lead`` (12): no trick led with a pink card or a submarine. Failed when one is led, or when
  fewer other cards are left than leads to come; done once no pink card or submarine is left to lead,
  or the last trick was led with another colour.
* ``first-winner-leads`` (23): after every trick the first trick's winner has won more tricks than every
  other seat. Failed at the card after which that seat cannot win the trick and every seat that still
  can would draw level; done once no seat can catch up even by winning every trick it still can (task
  1's bound).
* ``yellow-five-last`` (27): the yellow 5 is the last card of the last trick. Failed the moment it is
  played anywhere else (or the last trick ends without it, three players); done when it is the only card
  left for the last place of the last trick.

Before the last trick the bounds are sound (a verdict is never wrong) and exact for the cases above; in
the last trick every completion of the trick is played out. ``tests/crew/test_condition_exact.py``
checks both against playing every continuation out. The solver's own search judges of these rules are in
:mod:`toolkit.crew.solver.conditions` (double-dummy, hands known).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Any

from toolkit.core.checks import check_int
from toolkit.core.errors import InvalidMoveError
from toolkit.crew.cards import COLOURS, DECK, SUBMARINE, Card, Trick, mask_of
from toolkit.crew.tasks import DONE, FAILED, PENDING, Judge, Ledger

__all__ = ["CONDITION_RULE", "ConditionJudge", "compile_condition", "condition_status"]

#: the rule id each condition cites (``toolkit/crew/rules.toml``)
CONDITION_RULE = {8: "crew.mission.nines", 12: "crew.mission.no-pink-lead", 21: "crew.mission.ones",
                  23: "crew.mission.first-winner-leads", 27: "crew.mission.yellow-five-last"}

_ALL = mask_of(DECK)
_PINK_OR_SUB = mask_of(c for c in DECK if c.suit in ("P", SUBMARINE))
_OTHER = _ALL & ~_PINK_OR_SUB
_SUIT_MASK = {s: mask_of(c for c in DECK if c.suit == s) for s in COLOURS + (SUBMARINE,)}
_BY_BIT = {c.bit: c for c in DECK}


def _cards(mask: int) -> list[Card]:
    """The cards of ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_BY_BIT[low])
        mask ^= low
    return out
_Y5 = Card("Y", 5)

# Per card, for the trick-winner bounds (``_winner_bits``): the cards that, played after it, leave it winning
# (``_LOSES_TO``) and those that take the trick from it (``_TAKES_FROM``). Bits go up by value in a suit.
_LOSES_TO: dict[int, int] = {}
_TAKES_FROM: dict[int, int] = {}
for _c in DECK:
    _suit = _SUIT_MASK[_c.suit]
    _below, _above = _suit & (_c.bit - 1), _suit & ~((_c.bit << 1) - 1)
    if _c.suit == SUBMARINE:
        _LOSES_TO[_c.bit], _TAKES_FROM[_c.bit] = (_ALL & ~_suit) | _below, _above
    else:   # the other colours never win a trick this card leads or wins
        _LOSES_TO[_c.bit] = (_ALL & ~_suit & ~_SUIT_MASK[SUBMARINE]) | _below
        _TAKES_FROM[_c.bit] = _above | _SUIT_MASK[SUBMARINE]
#: the seats still to play after ``n`` cards of a trick led by ``leader``, as a bit set: [seats][leader][n]
_LATER = {seats: [[sum(1 << ((leader + k) % seats) for k in range(n, seats)) for n in range(seats + 1)]
                  for leader in range(seats)] for seats in (3, 4, 5)}


def _beats(card: Card, best: Card) -> bool:
    """Whether ``card`` played later takes the trick from ``best`` (the card winning it so far)."""
    if card.suit == SUBMARINE:
        return best.suit != SUBMARINE or card.value > best.value
    return card.suit == best.suit and card.value > best.value


class ConditionJudge(Judge):
    """A mission's condition as a task judge (owner ``-1``: it belongs to the table). Stateless: every
    verdict is read from the ledger (and the trick being played), so the memo's data stays ``None``.

    ``_trick`` caches what :meth:`card` reads from the ledger at every card of a trick, ``(ledger, ...)``,
    for the last ledger seen (one object, so the check is ``is``; a judge is shared by every game of its
    mission, and a miss only recomputes it): the engine judges after every card (issue 28.4)."""

    __slots__ = ("rule", "seats", "whole", "_trick")

    def __init__(self, mission: int, seats: int, whole: bool = True):
        super().__init__(-1)
        _check(mission, seats, whole)
        if mission not in CONDITION_RULE:
            raise InvalidMoveError(f"mission must be one with a condition ({', '.join(map(str, CONDITION_RULE))}),"
                                   f" not {mission}")
        self.rule = CONDITION_RULE[mission]
        self.seats = seats
        #: the unplayed cards are exactly the cards in the hands (a whole mission), so every one of them
        #: but three seats' last card will be played; an endgame typed in by hand holds fewer
        self.whole = whole
        self._trick: tuple | None = None

    def card(self, ledger: Ledger, leader: int, plays: tuple[Card, ...]) -> str:
        """The status after the cards ``plays`` (1 to seats - 1 of them, led by ``leader``) of the trick
        after ``ledger``: the condition's own bounds, and in the last trick every completion played out."""
        here = 0
        for c in plays:
            here |= c.bit
        pool = _ALL & ~ledger.played & ~here
        status = self._card(ledger, leader, plays, pool)
        if status == PENDING and ledger.total - ledger.count == 1:
            status = self._complete(ledger, leader, plays, pool)
        return status

    def _complete(self, ledger: Ledger, leader: int, plays: tuple[Card, ...], pool: int) -> str:
        """The last trick: every completion of ``plays`` from the unplayed cards (in the last trick a seat
        may play any card it holds: every seat may be void in the led colour), judged when complete."""
        seen = set()
        cards = _cards(pool)
        for rest in permutations(cards, self.seats - len(plays)):
            seen.add(self._advance(None, ledger.add(Trick.of_cards(leader, plays + rest)))[0])
            if len(seen) == 2:
                return PENDING
        return seen.pop() if seen else PENDING

    def _card(self, ledger: Ledger, leader: int, plays: tuple[Card, ...], pool: int) -> str:
        return PENDING

    def _winners(self, leader: int, plays: tuple[Card, ...], pool: int) -> set[int]:
        """Every seat that may still win the trick (a superset), as a set: see :meth:`_winner_bits`."""
        bits = self._winner_bits(leader, plays, pool)
        return {s for s in range(self.seats) if bits >> s & 1}

    def _winner_bits(self, leader: int, plays: tuple[Card, ...], pool: int) -> int:
        """Every seat that may still win the trick (a superset), as a bit set (bit ``s`` for seat ``s``): the
        seat winning it now if the seats still to play can all play cards it beats (every card played
        comes from the unplayed ones), and those seats if a card left beats the winning one (the highest
        card left beats all the others)."""
        i = 0   # _winner_index inlined (every card of a trick)
        best = plays[0]
        for k in range(1, len(plays)):
            c = plays[k]
            if c.suit == best.suit:
                if c.value > best.value:
                    i, best = k, c
            elif c.suit == SUBMARINE:
                i, best = k, c
        bit = best.bit
        seats, n = self.seats, len(plays)
        out = _LATER[seats][leader][n] if pool & _TAKES_FROM[bit] else 0
        if (pool & _LOSES_TO[bit]).bit_count() >= seats - n:
            out |= 1 << ((leader + i) % seats)
        return out


def _apart(counts, seat, more) -> bool:
    counts = list(counts)
    counts[seat] += more
    return max(counts) - min(counts) >= 2


@lru_cache(maxsize=4096)
def _avoidable(counts: tuple[int, ...], tricks: int, left: int, slack: int) -> bool:
    """Whether ``left`` more cards of the kind can be won over ``tricks`` tricks with no seat two ahead after
    any of them, at most ``slack`` of them staying in a hand (three seats: one card is never played). A
    relaxation: any seat may win any trick with any number of them (so ``False`` is certain). ``counts``
    sorted, less their minimum."""
    if tricks == 0 or left == 0:
        return left <= slack
    for seat in {counts.index(c) for c in counts}:
        for k in range(min(len(counts), left) + 1):
            if _apart(counts, seat, k):
                break
            after = list(counts)
            after[seat] += k
            low = min(after)
            if _avoidable(tuple(sorted(c - low for c in after)), tricks - 1, left - k, slack):
                return True
    return False


#: how many verdicts the :class:`_Counts` judges keep (a few thousand distinct ones at most)
_VERDICTS_KEPT = 1 << 14
#: the verdicts of :class:`_Counts` by (seats, whole): the judges of missions 8 and 21 share them
_COUNTS_VERDICTS: dict[tuple[int, bool], dict[int, str]] = {}


class _Counts(ConditionJudge):
    """Missions 8 and 21: after any trick, no seat two cards of ``mask`` ahead of another.

    The verdict at a card is a function of a few small numbers, so it is kept by them (``_verdicts``,
    keyed by one int; a random playout meets the same ones again and again, issue 28.4). Every test in it
    depends on the cards won per seat only through their spread (``max - min``, and the shares less the
    lowest) and the seat's own share, never on which seat it is: while no seat is ahead by two (else
    the condition failed at the trick before), the seats are "low" or "high" (one more), and the verdict
    depends on how many are high, whether a low and whether a high seat may win the trick, the tricks
    left, the cards of the kind in the trick and left, and how many of those can still join it."""

    __slots__ = ("mask", "_verdicts")

    def __init__(self, mission, seats, whole=True):
        super().__init__(mission, seats, whole)
        self.mask = mask_of(c for c in DECK if c.suit in COLOURS and c.value == (9 if mission == 8 else 1))
        self._verdicts = _COUNTS_VERDICTS.setdefault((seats, whole), {})

    def _can_break(self, counts, left) -> bool:
        """Whether ``left`` more such cards could put a seat two ahead: all of them to one seat. Closed
        form of "some seat given all ``left`` ends two ahead" (called at every card: issue 28.4): two or
        more always can (to a seat already level with the highest), one can when the counts are not all
        level, none cannot."""
        if left >= 2:
            return True
        return left == 1 and max(counts) != min(counts)

    def _can_keep(self, counts, tricks, left) -> bool:
        """Whether the cards left can still be shared out over the tricks left without a seat two ahead
        (in a whole mission every card but three seats' last one is played: four 9s in the last trick
        put its winner two ahead)."""
        if not self.whole:
            return True
        low = min(counts)
        return _avoidable(tuple(sorted(c - low for c in counts)), tricks, left, 1 if self.seats == 3 else 0)

    def _step(self, data, ledger):
        counts = [(w & self.mask).bit_count() for w in ledger.won]
        if max(counts) - min(counts) >= 2:
            return FAILED, None
        left = ledger.unplayed(self.mask)
        if not self._can_keep(counts, ledger.remaining, left):
            return FAILED, None
        return (PENDING if self._can_break(counts, left) else DONE), None

    def _card(self, ledger, leader, plays, pool):
        mask = self.mask
        trick = self._trick
        if trick is None or trick[0] is not ledger:
            counts = [(w & mask).bit_count() for w in ledger.won]
            low = min(counts)
            key, high = ledger.total - ledger.count, 0   # the tricks left (six bits), the high seats
            for s, c in enumerate(counts):
                if c != low:
                    high |= 1 << s
            if max(counts) - low <= 1 and 0 <= key < 64:
                key |= high.bit_count() << 6
            else:   # not from a mission's play (judged, not kept)
                key = -1
            trick = self._trick = (ledger, key, high)
        here = 0
        for c in plays:
            here += c.bit & mask != 0
        left = (pool & mask).bit_count()
        winners = self._winner_bits(leader, plays, pool)
        span = self.seats - len(plays)   # how many of the cards left can still join the trick
        if left < span:
            span = left
        if trick[1] < 0:
            return self._verdict(ledger, here, left, span, winners)
        high = trick[2]
        key = (trick[1] | here << 9 | left << 12 | span << 15 | (winners & ~high != 0) << 18
               | (winners & high != 0) << 19)
        status = self._verdicts.get(key)
        if status is None:
            if len(self._verdicts) >= _VERDICTS_KEPT:
                self._verdicts.clear()
            status = self._verdicts[key] = self._verdict(ledger, here, left, span, winners)
        return status

    def _verdict(self, ledger, here, left, span, winners) -> str:
        """The verdict at a card: ``here`` cards of the kind in the trick, ``left`` unplayed outside it, up
        to ``span`` of those can still join it, ``winners`` the seats that may win it (bits)."""
        counts = [(w & self.mask).bit_count() for w in ledger.won]
        # who may win this trick, with how many of the cards (those in it, and any left that join it):
        # apart now, or able to be put apart later by the cards left after it
        always, ever = True, False
        for w in range(self.seats):
            if not winners >> w & 1:
                continue
            for k in range(here, here + span + 1):
                if ever and not always:
                    return PENDING
                after = list(counts)
                after[w] += k
                if max(after) - min(after) >= 2:
                    ever = True
                    continue
                if always and self._can_keep(after, ledger.remaining - 1, left - (k - here)):
                    always = False
                if not ever:
                    ever = self._can_break(after, left - (k - here))
        if always:
            return FAILED
        return PENDING if ever else DONE


class _NoPinkLead(ConditionJudge):
    """Mission 12: no trick led with a pink card or a submarine."""

    __slots__ = ()

    @staticmethod
    def _rest(leads, pool) -> str:
        if (pool & _OTHER).bit_count() < leads:
            return FAILED   # some trick to come must be led with a pink card or a submarine
        return DONE if leads == 0 or not pool & _PINK_OR_SUB else PENDING

    def _step(self, data, ledger):
        if ledger.last.cards[0].bit & _PINK_OR_SUB:
            return FAILED, None
        return self._rest(ledger.remaining, _ALL & ~ledger.played), None

    def _card(self, ledger, leader, plays, pool):
        if plays[0].bit & _PINK_OR_SUB:
            return FAILED
        return self._rest(ledger.remaining - 1, pool)


class _FirstWinnerLeads(ConditionJudge):
    """Mission 23: the first trick's winner (``first``) has won more tricks than every other seat after
    every trick."""

    __slots__ = ("first",)

    def __init__(self, mission, seats, first, whole=True):
        super().__init__(mission, seats, whole)
        self.first = first

    def _step(self, data, ledger):
        first = self.first if self.first is not None else ledger.last.winner
        wins, rest = ledger.wins, ledger.remaining
        if any(w >= wins[first] for s, w in enumerate(wins) if s != first):
            return FAILED, None
        # no seat catches up even by winning every trick left (task 1's bound)
        return (DONE if all(wins[first] - w > rest for s, w in enumerate(wins) if s != first) else PENDING), None

    def _card(self, ledger, leader, plays, pool):
        first = self.first
        if first is None or not ledger.count:
            return PENDING   # the first trick decides who must stay ahead
        trick = self._trick
        if trick is None or trick[0] is not ledger:
            wins, rest = ledger.wins, ledger.remaining
            # failed when the trick's winner cannot be ``first`` and every seat that may win it draws level
            # (``level``); done when every other seat stays behind even if it wins every trick it still
            # may: a seat whose lead over it is below ``rest`` always may, one at exactly ``rest``
            # (``must_lose``) only if it may win this trick
            level = must_lose = 0
            never = False
            for s, w in enumerate(wins):
                if w + 1 >= wins[first]:
                    level |= 1 << s
                if s != first:
                    gap = wins[first] - w
                    never = never or gap < rest
                    if gap == rest:
                        must_lose |= 1 << s
            trick = self._trick = (ledger, level, never, must_lose)
        winners = self._winner_bits(leader, plays, pool)
        if not winners >> first & 1 and not winners & ~trick[1]:
            return FAILED
        if not trick[2] and not winners & trick[3]:
            return DONE
        return PENDING


class _YellowFiveLast(ConditionJudge):
    """Mission 27: the yellow 5 is the last card played in the last trick."""

    __slots__ = ()

    def _step(self, data, ledger):
        if ledger.played & _Y5.bit:
            last = ledger.last
            ok = last.mask & _Y5.bit and ledger.count == ledger.total and last.cards[-1] is _Y5
            return (DONE if ok else FAILED), None
        return PENDING, None

    def _final(self, data, ledger):
        return False   # the last trick is over and the yellow 5 was not in it (three players)

    def _card(self, ledger, leader, plays, pool):
        return FAILED if _Y5 in plays else PENDING

    def _complete(self, ledger, leader, plays, pool):
        """The last trick, the yellow 5 not played yet (else :meth:`_card` failed it): every completion
        keeps it only if it is the one card left for the one place left; none does if it is not among
        the unplayed cards (it stays in nobody's hand: three players); else some do and some do not
        (played last or not). Closed form of playing every completion out (issue 28.4)."""
        places, cards_left = self.seats - len(plays), pool.bit_count()
        if cards_left < places:
            return PENDING   # no completion (an endgame typed in by hand)
        if not pool & _Y5.bit:
            return FAILED
        return DONE if places == 1 and cards_left == 1 else PENDING


def _check(mission: Any, seats: Any, whole: Any, first: Any = None) -> None:
    """Refuses what no condition judge can be made of: a ``TypeError`` or an ``InvalidMoveError`` naming
    the parameter."""
    check_int("mission", mission, 0, 60)
    check_int("seats", seats, 3, 5)
    if not isinstance(whole, bool):
        raise TypeError(f"whole must be True or False, not {whole!r:.40}")
    if first is not None:
        check_int("first", first, 0, seats - 1)


def compile_condition(mission: int, seats: int, first: int | None = None, whole: bool = True
                      ) -> ConditionJudge | None:
    """The judge of mission ``mission``'s condition at ``seats`` seats (3 with TONOJA); ``first``: the
    winner of the first trick (mission 23), ``None`` before it is over; ``whole=False`` for an endgame
    typed in by hand (fewer cards in the hands than unplayed). ``None`` for a mission without a
    condition (0 to 60)."""
    key = (mission, seats, first, whole)
    # the cache only for exact types (True == 1 as a key): anything else is checked first
    plain = type(mission) is int and type(seats) is int and type(whole) is bool and type(first) in (int, type(None))
    judge = _COMPILED.get(key, _MISSING) if plain else _MISSING
    if judge is _MISSING:
        _check(mission, seats, whole, first)
        judge = _COMPILED[key] = _compile(mission, seats, first, whole)
    return judge


_MISSING = object()
_COMPILED: dict = {}


def _compile(mission, seats, first, whole):
    if mission not in CONDITION_RULE:
        return None
    if mission == 23:
        return _FirstWinnerLeads(mission, seats, first, whole)
    return {8: _Counts, 21: _Counts, 12: _NoPinkLead, 27: _YellowFiveLast}[mission](mission, seats, whole)


def condition_status(mission: int, tricks, seats: int, total: int, plays=(), leader: int | None = None,
                     exact: bool = True) -> str:
    """Mission ``mission``'s condition after ``tricks`` (completed, from the first of the mission) and the
    cards ``plays`` of the trick under way (led by ``leader``; by default the last trick's winner), in a
    mission of ``total`` tricks: ``"done"``, ``"failed"`` or ``"pending"`` — the first verdict reached,
    judged card by card as the engine does. ``exact=False`` keeps to the bounds (no continuation played
    out): an endgame typed in by hand holds fewer cards than the unplayed ones.

    >>> condition_status(27, [], 4, 10, plays=["B1", "B2", "Y5"], leader=0)   # the yellow 5 third: lost
    'failed'
    """
    ledger = Ledger(seats, total)
    judge = compile_condition(mission, seats, tricks[0].winner if tricks else None, exact)
    pool = _ALL

    def mid(ledger, leader, cards):
        if exact:
            return judge.card(ledger, leader, cards)
        return judge._card(ledger, leader, cards, pool & ~ledger.played & ~mask_of(cards))

    for trick in tricks:
        for n in range(1, len(trick.cards)):
            status = mid(ledger, trick.leader, trick.cards[:n])
            if status != PENDING:
                return status
        ledger = ledger.add(trick)
        memo = (judge.settle if exact else judge.step)((PENDING, None), ledger)
        if memo[0] != PENDING:
            return memo[0]
    if plays:
        plays = tuple(Card.parse(c) for c in plays)
        if leader is None:
            leader = tricks[-1].winner if tricks else 0
        for n in range(1, min(len(plays), seats - 1) + 1):
            status = mid(ledger, leader, plays[:n])
            if status != PENDING:
                return status
        if len(plays) == seats:   # a whole trick given as plays: judged as a trick
            memo = (judge.settle if exact else judge.step)((PENDING, None), ledger.add(Trick.of_cards(leader, plays)))
            return memo[0]
    return PENDING
