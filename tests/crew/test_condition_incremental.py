"""Issue 28.4: the condition judge's per-card shortcuts give the verdict of the direct judge at every card.

The engine judges a mission's condition (8, 12, 21, 23, 27) after every card. To make that cheap the
judge reads the ledger once per trick (``ConditionJudge._trick``), keeps the verdicts of missions 8/21 by
the few numbers they depend on (``_Counts._verdicts``), finds the seats that may win the trick with
per-card bit tables (``_winner_bits``) and judges mission 27's last trick in closed form. The reference
below is the judge as it was before (the direct recount at every card, written out here), and random
whole missions are judged card by card with both — also after the condition is decided, and with the
judge's per-trick cache made to miss by interleaving two games. ``test_condition_exact.py`` checks the
verdicts themselves against every continuation played out.
"""

import random
from itertools import permutations

import pytest

from toolkit.crew.cards import COLOURS, DECK, SUBMARINE, Trick, _winner_index, legal_plays, mask_of, tricks_in_mission
from toolkit.crew.conditions import _avoidable, compile_condition
from toolkit.crew.tasks import DONE, FAILED, PENDING, Ledger

_ALL = mask_of(DECK)
_PINK_OR_SUB = mask_of(c for c in DECK if c.suit in ("P", SUBMARINE))
_OTHER = _ALL & ~_PINK_OR_SUB
_SUIT = {s: mask_of(c for c in DECK if c.suit == s) for s in COLOURS + (SUBMARINE,)}
_Y5 = next(c for c in DECK if c.suit == "Y" and c.value == 5)


# ---- the reference: the direct judge (recounted at every card) ------------------------------------------
def _winners(seats, leader, plays, pool):
    i = _winner_index(plays)
    best = plays[i]
    below = _SUIT[best.suit] & (best.bit - 1)
    above = _SUIT[best.suit] & ~((best.bit << 1) - 1)
    if best.suit == SUBMARINE:
        lower = (pool & ~_SUIT[SUBMARINE]).bit_count() + (pool & below).bit_count()
        beaten = pool & above
    else:
        lower = (pool & ~_SUIT[best.suit] & ~_SUIT[SUBMARINE]).bit_count() + (pool & below).bit_count()
        beaten = pool & (above | _SUIT[SUBMARINE])
    out = set()
    if lower >= seats - len(plays):
        out.add((leader + i) % seats)
    if beaten:
        out.update((leader + k) % seats for k in range(len(plays), seats))
    return out


def _counts_card(judge, ledger, leader, plays, pool):
    seats, mask = judge.seats, judge.mask

    def can_keep(counts, tricks, left):
        low = min(counts)
        return _avoidable(tuple(sorted(c - low for c in counts)), tricks, left, 1 if seats == 3 else 0)

    def can_break(counts, left):
        return left >= 2 or (left == 1 and max(counts) != min(counts))

    counts = [(w & mask).bit_count() for w in ledger.won]
    here = (mask_of(plays) & mask).bit_count()
    left = (pool & mask).bit_count()
    always, ever = True, False
    for w in _winners(seats, leader, plays, pool):
        for k in range(here, here + min(left, seats - len(plays)) + 1):
            after = list(counts)
            after[w] += k
            if max(after) - min(after) >= 2:
                ever = True
                continue
            if can_keep(after, ledger.remaining - 1, left - (k - here)):
                always = False
            ever = ever or can_break(after, left - (k - here))
    if always:
        return FAILED
    return PENDING if ever else DONE


def _first_winner_card(judge, ledger, leader, plays, pool):
    if judge.first is None or not ledger.count:
        return PENDING
    first, wins, rest = judge.first, ledger.wins, ledger.remaining
    winners = _winners(judge.seats, leader, plays, pool)
    if first not in winners and all(wins[w] + 1 >= wins[first] for w in winners):
        return FAILED
    if all(wins[first] - w > rest - (s not in winners) for s, w in enumerate(wins) if s != first):
        return DONE
    return PENDING


def _no_pink_lead_card(judge, ledger, leader, plays, pool):
    if plays[0].bit & _PINK_OR_SUB:
        return FAILED
    leads = ledger.remaining - 1
    if (pool & _OTHER).bit_count() < leads:
        return FAILED
    return DONE if leads == 0 or not pool & _PINK_OR_SUB else PENDING


def reference_card(mission, judge, ledger, leader, plays):
    """The verdict after ``plays`` as the direct judge gave it: the bounds, then in the last trick every
    completion of the trick played out."""
    pool = _ALL & ~ledger.played & ~mask_of(plays)
    if mission in (8, 21):
        status = _counts_card(judge, ledger, leader, plays, pool)
    elif mission == 23:
        status = _first_winner_card(judge, ledger, leader, plays, pool)
    elif mission == 12:
        status = _no_pink_lead_card(judge, ledger, leader, plays, pool)
    else:
        status = FAILED if _Y5 in plays else PENDING
    if status == PENDING and ledger.remaining == 1:
        seen = set()
        rest = [c for c in DECK if pool & c.bit]
        for more in permutations(rest, judge.seats - len(plays)):
            seen.add(judge._advance(None, ledger.add(Trick.of_cards(leader, plays + more)))[0])
            if len(seen) == 2:
                return PENDING
        status = seen.pop() if seen else PENDING
    return status


# ---- random whole missions, judged at every card by both ------------------------------------------------
def _game(rng, players):
    """One random whole mission: a deal and random legal play; yields (ledger, leader, plays) after every
    card of a trick that is not complete yet, the ledger before the trick."""
    seats = 3 if players == 2 else players
    total = tricks_in_mission(players)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [sorted(deck[s * total:(s + 1) * total]) for s in range(seats)]
    ledger, leader = Ledger(seats, total), rng.randrange(seats)
    for _ in range(total):
        plays = ()
        for n in range(seats):
            hand = hands[(leader + n) % seats]
            card = rng.choice(legal_plays(hand, plays[0] if plays else None))
            hand.remove(card)
            plays += (card,)
            if n < seats - 1:
                yield ledger, leader, plays
        trick = Trick.of_cards(leader, plays)
        ledger, leader = ledger.add(trick), trick.winner


def _judge(mission, seats, ledger, first_winner):
    return compile_condition(mission, seats, first_winner if ledger.count else None)


@pytest.mark.parametrize("mission", (8, 12, 21, 23, 27))
@pytest.mark.parametrize("players", (2, 3, 4, 5))
def test_the_judge_at_every_card_is_the_direct_one(mission, players):
    rng = random.Random(mission * 10 + players)
    seats = 3 if players == 2 else players
    met = set()
    # two games at once, a card of each in turn: the judge's per-trick cache misses at every card
    for _ in range(40 if mission in (8, 21, 23) else 15):
        games = [_game(rng, players), _game(rng, players)]
        firsts = [None, None]
        for a, b in zip(*games):
            for g, (ledger, leader, plays) in enumerate((a, b)):
                if ledger.count == 1:
                    firsts[g] = ledger.last.winner
                judge = _judge(mission, seats, ledger, firsts[g])
                want = reference_card(mission, judge, ledger, leader, plays)
                assert judge.card(ledger, leader, plays) == want, (mission, players, ledger.count, plays)
                assert judge.card(ledger, leader, plays) == want   # again: a cache hit
                met.add(want)
    assert met == {PENDING, DONE, FAILED} or (mission == 27 and met == {PENDING, FAILED})
