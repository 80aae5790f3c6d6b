"""The 96 task cards and the task judge.

``TASKS`` maps ids 1–96 (the order of ``data/tasks.json``, not printed card numbers) to :class:`Task`.
:func:`task_status` judges one task over the tricks played so far:

* ``"done"`` — the task is fulfilled and nothing that can still happen can undo it;
* ``"failed"`` — whatever happens in the remaining tricks, it can no longer be fulfilled;
* ``"pending"`` — otherwise.

The judge sees what the table sees: the completed tricks (who led, who played what, who won). "Can no
longer" is decided from the cards not yet played and the tricks left, not from the hidden hands — the
engine may know more, but a task only fails when the *table* can tell (rule ``crew.task.judge``).

Speed: the double-dummy solver asks for task status at every node, so each task is compiled once into a
small :class:`Judge` with an incremental :meth:`Judge.step` over a shared :class:`Ledger` (bit masks and
counters, one ``Ledger.add`` per trick). ``task_status`` is a thin wrapper that folds the tricks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from itertools import permutations
from typing import Any, Iterable, Mapping, Sequence

from toolkit.core.errors import DataError, IllegalMoveError, InvalidMoveError
from toolkit.core.checks import check_iterable, one_of
from toolkit.core.explain import Violation
from toolkit.crew.cards import (DECK, SUBMARINE, Card, Trick, cards_of, mask_of, tricks_in_mission)

PENDING, DONE, FAILED = "pending", "done", "failed"
STATUSES = (PENDING, DONE, FAILED)

_SUIT_WORD = {"pink": "P", "blue": "B", "green": "G", "yellow": "Y", "submarine": "S"}
_JA_SUIT = {"P": "ピンク", "B": "青", "G": "緑", "Y": "黄", "S": "潜水艦"}
_EN_SUIT = {"P": "pink", "B": "blue", "G": "green", "Y": "yellow", "S": "submarine"}

#: Card footnotes: deals that make a submarine task impossible, redealt without counting a failure
#: (``shared/data/README.md``: "exactly 1 sub" — all four subs in one hand; "sub 1 only" — subs 1+4 or
#: 1+2+3 in one hand; "sub 2 only" — 2+4 or 1+2+3; "exactly 2 subs" — 2+3+4; "exactly 3 subs" — all four).
#: Tasks 58/59 ("win a colour card with a submarine"): the rule text's own example — the target card and
#: every submarine in the same hand — is impossible too (whoever holds the target cannot also trump it).
REDEAL_IF: dict[int, tuple[tuple[str, ...], ...]] = {
    51: (("S1", "S2", "S3", "S4"),),
    52: (("S1", "S4"), ("S1", "S2", "S3")),
    53: (("S2", "S4"), ("S1", "S2", "S3")),
    55: (("S2", "S3", "S4"),),
    56: (("S1", "S2", "S3", "S4"),),
    58: (("P7", "S1", "S2", "S3", "S4"),),
    59: (("G9", "S1", "S2", "S3", "S4"),),
}

#: "Win more/fewer/as many tricks as the captain": the captain cannot take these.
CAPTAIN_COMPARISON = frozenset({4, 5, 6})


#: the column of a task's difficulty for each player count (not built per call: a setup asks ~80 times)
_DIFFICULTY_COLUMN = {2: 0, 3: 0, 4: 1, 5: 2}


@dataclass(frozen=True)
class Task:
    """One task card. ``difficulty`` is ``(3 players, 4 players, 5 players)``; two players use the first."""

    id: int
    text_en: str
    text_ja: str
    difficulty: tuple[int, int, int]
    category: str
    params: Mapping[str, Any] = field(compare=False, repr=False)
    notes: str = ""
    sources: tuple[str, ...] = ()
    disputed: str = ""

    def text(self, lang: str = "en") -> str:
        return self.text_ja if lang == "ja" else self.text_en

    def difficulty_for(self, players: int) -> int:
        """The difficulty in the column for ``players`` (2 with TONOJA uses the 3-player column)."""
        column = _DIFFICULTY_COLUMN.get(players)
        if column is None:
            raise InvalidMoveError(f"task difficulties exist for 2–5 players, not {players!r}")
        return self.difficulty[column]

    @property
    def captain_comparison(self) -> bool:
        return self.id in CAPTAIN_COMPARISON

    @property
    def needs_prediction(self) -> bool:
        return self.category == "trick_count_prediction"

    @property
    def secret_prediction(self) -> bool:
        return self.needs_prediction and self.params.get("visibility") == "secret"

    def __str__(self) -> str:
        return f"#{self.id} {self.text_en}"


# ---- Japanese texts, generated from the encoding (the data carries English only) -----------------------
def _ja_card(code: str) -> str:
    return _JA_SUIT[code[0]] + code[1:]


def _ja_filter(f: Mapping[str, Any]) -> str:
    if "value" in f:
        return f"{f['value']}"
    if "value_in" in f:
        return "・".join(str(v) for v in f["value_in"])
    if "suit" in f:
        return _JA_SUIT[_SUIT_WORD[f["suit"]]]
    return "・".join(_JA_SUIT[_SUIT_WORD[s]] for s in f["suit_in"])


def _ja_count(c: Mapping[str, Any]) -> str:
    what = _ja_filter(c["filter"])
    unit = "" if "value" in c["filter"] or "value_in" in c["filter"] else "のカード"
    if c["cmp"] == ">=":
        return f"{what}{unit}を少なくとも{c['n']}枚取る"
    if c["n"] == 0:
        return f"{what}{unit}を1枚も取らない"
    return f"{what}{unit}をちょうど{c['n']}枚取る"


_JA_OVERRIDES = {
    1: "ほかの各プレイヤーより多くのトリックを取る。",
    2: "ほかの全員の合計より多くのトリックを取る。",
    3: "ほかの各プレイヤーより少ないトリックを取る。",
    4: "船長より多くのトリックを取る。",
    5: "船長より少ないトリックを取る。",
    6: "船長とちょうど同じ数のトリックを取る。",
    7: "すべてのカードが7未満のトリックを取る。",
    8: "すべてのカードが5より大きいトリックを取る。",
    14: "6で別の6を取る。",
    44: "4色それぞれのカードを少なくとも1枚ずつ取る。",
    45: "少なくとも1色について、その色の9枚すべてを取る。",
    46: "偶数のカードだけのトリックを取る。",
    47: "奇数のカードだけのトリックを取る。",
    48: "カードの合計が23/28/31（3/4/5人）より大きいトリックを取る。",
    49: "カードの合計が8/12/16（3/4/5人）未満のトリックを取る。",
    50: "カードの合計がちょうど22か23のトリックを取る。",
    52: "潜水艦1を取り、ほかの潜水艦は取らない。",
    53: "潜水艦2を取り、ほかの潜水艦は取らない。",
    74: "トリックを1つも取らない。",
    75: "2トリック連続で取ることはしない。",
    90: "ちょうどXトリックを取る。Xはプレイ前に公開で宣言する。",
    91: "ちょうどXトリックを取る。Xはプレイ前に秘密で記録する。",
    93: "緑と黄を同じ枚数（各1枚以上）含むトリックを1つ取る。",
    94: "ピンクと青を同じ枚数（各1枚以上）含むトリックを1つ取る。",
}


def _ja_text(t: Mapping[str, Any]) -> str:
    if t["id"] in _JA_OVERRIDES:
        return _JA_OVERRIDES[t["id"]]
    p, cat = t["params"], t["category"]
    if cat == "capture_cards":
        return "、".join(_ja_card(c) for c in p["cards"]) + "を取る。"
    if cat == "capture_in_trick":
        return f"最後のトリックで{_ja_card(p['card'])}を取る。"
    if cat == "card_count":
        if "all_of" in p:
            return "、かつ".join(_ja_count(c) for c in p["all_of"]) + "。"
        return _ja_count(p) + "。"
    if cat == "win_trick_with":
        w = p["winning_card"]
        win = "潜水艦" if w.get("suit") == "submarine" else f"{w['value']}"
        if "trick_contains" not in p:
            return f"{win}でトリックに勝つ。"
        c = p["trick_contains"]
        target = _ja_card(c["card"]) if "card" in c else f"{c['value']}"
        return f"{win}で{target}を取る。"
    if cat == "no_lead":
        return "・".join(_JA_SUIT[_SUIT_WORD[s]] for s in p["suits"]) + "のカードでトリックを開始しない。"
    if cat == "trick_positions":
        if "must_not_win" in p:
            return f"最初の{len(p['must_not_win'])}トリックをどれも取らない。"
        wins = p["must_win"]
        if p.get("only"):
            return ("最初" if wins == [1] else "最後") + "のトリックだけを取る（ほかは取らない）。"
        if wins == ["last"]:
            return "最後のトリックを取る。"
        if wins == [1, "last"]:
            return "最初と最後のトリックを取る。"
        return "最初のトリックを取る。" if wins == [1] else f"最初の{len(wins)}トリックを取る。"
    if cat == "trick_count":
        return f"ちょうど{p['n']}トリックを取る。"
    if cat == "streak":
        if "at_least_consecutive" in p:
            return f"{p['at_least_consecutive']}トリック連続で取る（どこかで）。"
        return f"ちょうど{p['exact_total']}トリックを取り、それらが連続している。"
    if cat == "card_count_compare":
        a, b = _JA_SUIT[_SUIT_WORD[p["a"]["suit"]]], _JA_SUIT[_SUIT_WORD[p["b"]["suit"]]]
        if p["cmp"] == "==":
            return f"{a}と{b}を同じ枚数取る（各1枚以上）。"
        return f"{b}より多くの{a}を取る。"
    raise DataError(f"tasks.json: task {t['id']}: no Japanese text for category {cat!r}")


# ---- loading ---------------------------------------------------------------------------------------
_CATEGORIES = {"trick_count_relative", "trick_property", "win_trick_with", "capture_cards", "card_count",
               "capture_in_trick", "no_lead", "trick_positions", "trick_count", "streak",
               "trick_count_prediction", "card_count_compare"}


def _load_catalogue(text: str, origin: str = "toolkit/crew/data/tasks.json") -> dict[int, Task]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"{origin}: not valid JSON: {exc}") from None
    tasks = data.get("tasks") if isinstance(data, dict) else None
    if not isinstance(tasks, list):
        raise DataError(f"{origin}: expected an object with a 'tasks' list")
    out: dict[int, Task] = {}
    for i, t in enumerate(tasks):
        where = f"{origin}: tasks[{i}]"
        try:
            tid = t["id"]
            diff = t["difficulty"]
            triple = tuple(diff[k] for k in ("3", "4", "5"))
            if t["category"] not in _CATEGORIES:
                raise DataError(f"{where}.category: unknown category {t['category']!r}")
            if not all(isinstance(d, int) and 1 <= d <= 9 for d in triple):
                raise DataError(f"{where}.difficulty: expected 1–9 for 3, 4 and 5 players, got {diff!r}")
            if tid in out:
                raise DataError(f"{where}.id: task {tid} appears twice")
            src = t.get("source", {})
            out[tid] = Task(id=tid, text_en=t["text_en"], text_ja=_ja_text(t), difficulty=triple,
                            category=t["category"], params=t["params"], notes=t.get("notes", ""),
                            sources=tuple(src.get("agreeing", ())), disputed=src.get("disputed_note", ""))
            compile_params(out[tid], 0, 4, 0)  # every encoding must compile into a judge
        except DataError:
            raise
        except (KeyError, TypeError, AttributeError) as exc:
            raise DataError(f"{where}: missing or malformed field {exc}") from None
    if sorted(out) != list(range(1, len(out) + 1)):
        raise DataError(f"{origin}: task ids must run 1..{len(out)}")
    return out


def _read_data(name: str) -> str:
    return resources.files("toolkit.crew").joinpath("data", name).read_text(encoding="utf-8")


# ---- the ledger: what the table knows after each trick ---------------------------------------------
_new_ledger = object.__new__


class Ledger:
    """Completed tricks summarised for judging: played/won card masks, tricks won per seat.

    Immutable; ``ledger.add(trick)`` returns the next one. ``seats`` is the number of seats (3 with
    TONOJA), ``total`` the tricks in the mission.
    """

    __slots__ = ("seats", "total", "count", "played", "won", "wins", "last")

    def __init__(self, seats: int, total: int, count: int = 0, played: int = 0,
                 won: tuple[int, ...] | None = None, wins: tuple[int, ...] | None = None,
                 last: Trick | None = None):
        if type(seats) is not int or not 2 <= seats <= 5 or type(total) is not int or not 0 <= total <= 40:
            raise InvalidMoveError(f"a ledger has 2-5 seats and 0-40 tricks, not seats={seats!r:.40}, "
                                   f"total={total!r:.40}")
        self.seats = seats
        self.total = total
        self.count = count
        self.played = played
        self.won = won if won is not None else (0,) * seats
        self.wins = wins if wins is not None else (0,) * seats
        self.last = last

    @classmethod
    def start(cls, players: int) -> "Ledger":
        seats = 3 if players == 2 else players
        return cls(seats, tricks_in_mission(players))

    def add(self, trick: Trick) -> "Ledger":
        w = trick.winner
        won = list(self.won)
        won[w] |= trick.mask
        wins = list(self.wins)
        wins[w] += 1
        # built without __init__: its argument checks are for ledgers from outside, and these fields come
        # from a checked ledger (this runs once per trick and per continuation the judge plays out)
        new = _new_ledger(Ledger)
        new.seats, new.total, new.count = self.seats, self.total, self.count + 1
        new.played, new.won, new.wins, new.last = self.played | trick.mask, tuple(won), tuple(wins), trick
        return new

    @property
    def remaining(self) -> int:
        return self.total - self.count

    def unplayed(self, mask: int) -> int:
        return (mask & ~self.played).bit_count()


# ---- judges ----------------------------------------------------------------------------------------
def _colour_mask(pred) -> int:
    return mask_of(c for c in DECK if c.suit != SUBMARINE and pred(c))


def _filter_mask(f: Mapping[str, Any]) -> int:
    """Card masks for the task filters. Value filters never include submarines (ruling: the
    multicolour icon covers the four colours only); ``suit: submarine`` selects the submarines."""
    if "value" in f:
        return _colour_mask(lambda c: c.value == f["value"])
    if "value_in" in f:
        return _colour_mask(lambda c: c.value in f["value_in"])
    if "suit" in f:
        s = _SUIT_WORD[f["suit"]]
        return mask_of(c for c in DECK if c.suit == s)
    if "suit_in" in f:
        ss = {_SUIT_WORD[s] for s in f["suit_in"]}
        return mask_of(c for c in DECK if c.suit in ss)
    raise DataError(f"unknown card filter {dict(f)!r}")


class Judge:
    """A task compiled for one owner. ``start()`` gives a memo ``(status, data)``; ``step(memo, ledger)``
    the memo after the trick ``ledger.last`` (the ledger already includes it). Memos are small hashable
    tuples, so a solver can keep them in its keys. A decided status never changes."""

    __slots__ = ("owner",)

    def __init__(self, owner: int):
        self.owner = owner

    def start(self) -> tuple:
        return (PENDING, None)

    def step(self, memo: tuple, ledger: Ledger) -> tuple:
        """The memo after the trick ``ledger.last``, from the task's own bounds (what the double-dummy
        search folds at every node); :meth:`settle` adds the exact verdict of the last trick."""
        if memo[0] != PENDING:
            return memo
        status, data = self._step(memo[1], ledger)   # _advance inlined: the hot path of every search
        if status == PENDING and ledger.count >= ledger.total:
            status = DONE if self._final(data, ledger) else FAILED
        return (status, data)

    def settle(self, memo: tuple, ledger: Ledger) -> tuple:
        """``step`` plus, with one trick left, every continuation played out: the status exactly when the
        table can know it (the engine and :func:`task_status` judge this way)."""
        if memo[0] != PENDING:
            return memo
        status, data = self._step(memo[1], ledger)   # step inlined: the engine settles after every trick
        if status == PENDING:
            if ledger.count >= ledger.total:
                status = DONE if self._final(data, ledger) else FAILED
            elif ledger.count and ledger.total - ledger.count <= _ENDGAME_TRICKS.get(ledger.seats, 0):
                return (self._endgame(data, ledger), data)
        return (status, data)

    def _advance(self, data, ledger: Ledger) -> tuple[str, Any]:
        status, data = self._step(data, ledger)
        if status == PENDING and ledger.count >= ledger.total:
            status = DONE if self._final(data, ledger) else FAILED
        return status, data

    def _endgame(self, data, ledger: Ledger) -> str:
        """Exactly what the table can know in the last trick(s): every continuation — any split of the
        unplayed cards into hands, any legal play (a seat that does not follow holds none of the led
        colour for the rest of the continuation) — is played out. ``done`` if all keep the task met,
        ``failed`` if none does, else ``pending`` (rule ``crew.task.judge``).

        With one trick left (the engine's case) the continuations are the orders of that trick alone: a
        seat's void can only matter in a later trick, and after it no trick is left (the judge is never
        pending then), so the orders are taken as they come, in the walk's order, without its voids
        (:meth:`_endgame_walk`, the general walk, gives the same: tested)."""
        if ledger.total - ledger.count != 1:
            return self._endgame_walk(data, ledger)
        seen: set[str] = set()
        leader, add, of_cards, advance = ledger.last.winner, ledger.add, Trick.of_cards, self._advance
        for plays in permutations(tuple(c for c in DECK if not ledger.played & c.bit), ledger.seats):
            status = advance(data, add(of_cards(leader, plays)))[0]
            if status != PENDING:   # (always: no trick is left after this one)
                seen.add(status)
                if len(seen) == 2:
                    return PENDING
        if seen == {DONE}:
            return DONE
        return FAILED if seen == {FAILED} else PENDING

    def _endgame_walk(self, data, ledger: Ledger) -> str:
        """:meth:`_endgame` for any number of tricks left: the continuations walked trick by trick, with the
        voids each one shows."""
        unplayed = tuple(c for c in DECK if not ledger.played & c.bit)
        seen: set[str] = set()
        seats = ledger.seats

        def trick(led_ledger, data, leader, voids, plays, used):
            if len(plays) == seats:
                t = Trick.of_cards(leader, tuple(plays))
                nxt = led_ledger.add(t)
                status, after = self._advance(data, nxt)
                if status != PENDING:
                    seen.add(status)
                    return len(seen) == 2
                return trick(nxt, after, t.winner, voids, [], used)
            seat = (leader + len(plays)) % seats
            led = plays[0].suit if plays else None
            for c in unplayed:
                if c.bit & used or c.suit in voids[seat]:
                    continue
                v = voids
                if led is not None and c.suit != led:
                    v = voids[:seat] + (voids[seat] | {led},) + voids[seat + 1:]
                plays.append(c)
                stop = trick(led_ledger, data, leader, v, plays, used | c.bit)
                plays.pop()
                if stop:
                    return True
            return False

        trick(ledger, data, ledger.last.winner, (frozenset(),) * seats, [], 0)
        if seen == {DONE}:
            return DONE
        return FAILED if seen == {FAILED} else PENDING

    def _step(self, data, ledger: Ledger) -> tuple[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _final(self, data, ledger: Ledger) -> bool:
        """Called when no trick is left and the task is still pending: is it fulfilled?"""
        return True

    def lead(self, memo: tuple, seat: int, card: Card) -> tuple:
        """The memo after ``seat`` led ``card`` (the table judges after every card, not only after a trick:
        a forbidden lead fails the moment it is led). Only a lead can decide a task before its trick ends."""
        return memo


#: how many tricks before the end the judge plays out every continuation (cheap enough: one trick of 3–5
#: cards is at most 120 orders; the tricks before it are judged by each task's own bounds)
_ENDGAME_TRICKS = {3: 1, 4: 1, 5: 1}


class CountJudge(Judge):
    """Win at least / exactly ``n`` cards of ``mask`` (specific cards: at least all of them)."""

    __slots__ = ("mask", "exact", "n")

    def __init__(self, owner, mask, exact, n):
        super().__init__(owner)
        self.mask, self.exact, self.n = mask, exact, n

    def _step(self, data, ledger):
        won = (ledger.won[self.owner] & self.mask).bit_count()
        left = (self.mask & ~ledger.played).bit_count()
        if won + left < self.n or (self.exact and won > self.n):
            return FAILED, None
        if won >= self.n and (not self.exact or left == 0):
            return DONE, None
        return PENDING, None

    def _final(self, data, ledger):
        won = (ledger.won[self.owner] & self.mask).bit_count()
        return won == self.n if self.exact else won >= self.n


class AllJudge(Judge):
    __slots__ = ("parts",)

    def __init__(self, owner, parts):
        super().__init__(owner)
        self.parts = tuple(parts)

    def start(self):
        return (PENDING, tuple(p.start() for p in self.parts))

    def _step(self, data, ledger):
        memos = tuple(p.step(m, ledger) for p, m in zip(self.parts, data))
        states = {m[0] for m in memos}
        if FAILED in states:
            return FAILED, memos
        return (DONE if states == {DONE} else PENDING), memos

    def _final(self, data, ledger):
        return all(m[0] == DONE for m in data)


class AnyJudge(AllJudge):
    __slots__ = ()

    def _step(self, data, ledger):
        memos = tuple(p.step(m, ledger) for p, m in zip(self.parts, data))
        states = {m[0] for m in memos}
        if DONE in states:
            return DONE, memos
        return (FAILED if states == {FAILED} else PENDING), memos

    def _final(self, data, ledger):
        return any(m[0] == DONE for m in data)


class CompareJudge(Judge):
    """Win more ``a`` than ``b`` cards (zero ``b`` allowed), or as many (at least one of each)."""

    __slots__ = ("a", "b", "equal")

    def __init__(self, owner, a, b, equal):
        super().__init__(owner)
        self.a, self.b, self.equal = a, b, equal

    def _step(self, data, ledger):
        mine = ledger.won[self.owner]
        aw, bw = (mine & self.a).bit_count(), (mine & self.b).bit_count()
        al, bl = ledger.unplayed(self.a), ledger.unplayed(self.b)
        if self.equal:
            if max(1, aw, bw) > min(aw + al, bw + bl):
                return FAILED, None
            return (DONE if al == bl == 0 else PENDING), None
        if aw + al <= bw:
            return FAILED, None
        return (DONE if aw > bw + bl else PENDING), None

    def _final(self, data, ledger):
        mine = ledger.won[self.owner]
        aw, bw = (mine & self.a).bit_count(), (mine & self.b).bit_count()
        return aw == bw >= 1 if self.equal else aw > bw


class TrickCountJudge(Judge):
    """Win exactly ``n`` tricks (also the prediction tasks, with ``n`` = X)."""

    __slots__ = ("n",)

    def __init__(self, owner, n):
        super().__init__(owner)
        self.n = n

    def _step(self, data, ledger):
        w = ledger.wins[self.owner]
        if w > self.n or w + ledger.remaining < self.n:
            return FAILED, None
        return PENDING, None

    def _final(self, data, ledger):
        return ledger.wins[self.owner] == self.n


class SecretCountJudge(TrickCountJudge):
    """A secret prediction (task 91): X is hidden, so nothing the table sees may judge it before the last
    trick; it is checked at the end (「秘密指定なら隠し、最後に一致を確かめます」, rule ``crew.task.prediction``)."""

    __slots__ = ()

    def _step(self, data, ledger):
        return PENDING, None

    def _endgame(self, data, ledger):
        return PENDING


class RelativeJudge(Judge):
    """Trick counts against each other player, all others combined, or the captain (judged at the end)."""

    __slots__ = ("cmp", "other", "captain")

    def __init__(self, owner, cmp, other, captain):
        super().__init__(owner)
        self.cmp, self.other, self.captain = cmp, other, captain

    def _rivals(self, ledger):
        if self.other == "captain":
            return (ledger.wins[self.captain],)
        others = tuple(w for s, w in enumerate(ledger.wins) if s != self.owner)
        return (sum(others),) if self.other == "sum_of_others" else others

    def _step(self, data, ledger):
        mine, rem = ledger.wins[self.owner], ledger.remaining
        rivals = self._rivals(ledger)
        if self.cmp == ">":
            # the owner needs one more than the best rival; tricks the owner wins are tricks no rival wins
            if any(mine + rem <= r for r in rivals):
                return FAILED, None
            return (DONE if all(mine > r + rem for r in rivals) else PENDING), None
        if self.cmp == "<":
            # every rival must end above the owner, and the rivals share the tricks left (task 3 with
            # [9, 0, 0, 0] and one trick left: two rivals each still need one)
            if sum(max(0, mine + 1 - r) for r in rivals) > rem:
                return FAILED, None
            return (DONE if all(mine + rem < r for r in rivals) else PENDING), None
        if any(abs(mine - r) > rem for r in rivals):
            return FAILED, None
        return PENDING, None

    def _final(self, data, ledger):
        mine, rivals = ledger.wins[self.owner], self._rivals(ledger)
        if self.cmp == ">":
            return all(mine > r for r in rivals)
        if self.cmp == "<":
            return all(mine < r for r in rivals)
        return all(mine == r for r in rivals)


class PositionJudge(Judge):
    """Win (or not win) given trick numbers; ``only``: no other trick may be won."""

    __slots__ = ("win", "avoid", "only")

    def __init__(self, owner, win, avoid, only):
        super().__init__(owner)
        self.win, self.avoid, self.only = win, frozenset(avoid), only

    def _step(self, data, ledger):
        k = ledger.count
        wanted = {ledger.total if w == "last" else w for w in self.win}
        won = ledger.last.winner == self.owner
        if (k in wanted and not won) or (k in self.avoid and won) or (self.only and won and k not in wanted):
            return FAILED, None
        if not self.only and k >= max(wanted | self.avoid):
            return DONE, None
        return PENDING, None


class LastTrickCardJudge(Judge):
    """Win ``card`` in the last trick."""

    __slots__ = ("bit",)

    def __init__(self, owner, card):
        super().__init__(owner)
        self.bit = card.bit

    def _step(self, data, ledger):
        last = ledger.last
        if last.mask & self.bit:
            if ledger.count == ledger.total and last.winner == self.owner:
                return DONE, None
            return FAILED, None
        return PENDING, None

    def _final(self, data, ledger):
        return False  # the card was never played (three players: one card stays in a hand)


class StreakJudge(Judge):
    """Streak tasks. ``mode``: ``never`` (no ``k`` in a row), ``atleast`` (``k`` in a row at some point),
    ``exact`` (exactly ``k`` tricks, all consecutive). Data: ``(current run, a run has ended)``."""

    __slots__ = ("mode", "k")

    def __init__(self, owner, mode, k):
        super().__init__(owner)
        self.mode, self.k = mode, k

    def start(self):
        return (PENDING, (0, False))

    def _step(self, data, ledger):
        run, closed = data
        won = ledger.last.winner == self.owner
        rem = ledger.remaining
        if self.mode == "never":
            run = run + 1 if won else 0
            return (FAILED if run >= self.k else PENDING), (run, closed)
        if self.mode == "atleast":
            run = run + 1 if won else 0
            if run >= self.k:
                return DONE, (run, closed)
            return (FAILED if run + rem < self.k else PENDING), (run, closed)
        # exact: one run of exactly k won tricks, nothing won before or after it
        if won:
            if closed:
                return FAILED, (run, closed)
            run += 1
            if run > self.k:
                return FAILED, (run, closed)
        elif run and not closed:
            closed = True
            if run != self.k:
                return FAILED, (run, closed)
        if not closed and run + rem < self.k:
            return FAILED, (run, closed)
        return PENDING, (run, closed)

    def _final(self, data, ledger):
        if self.mode == "exact":
            return data[0] == self.k and ledger.wins[self.owner] == self.k
        return self.mode == "never"


class NoLeadJudge(Judge):
    __slots__ = ("forbidden", "suits")

    def __init__(self, owner, suits):
        super().__init__(owner)
        self.suits = frozenset(suits)
        self.forbidden = mask_of(c for c in DECK if c.suit in self.suits)   # the cards of these colours

    def _step(self, data, ledger):
        t = ledger.last
        if t.leader == self.owner and t.cards[0].suit in self.suits:
            return FAILED, None
        if not ledger.unplayed(self.forbidden):
            return DONE, None   # no card of these colours is left to lead
        return PENDING, None

    def lead(self, memo, seat, card):
        if memo[0] == PENDING and seat == self.owner and card.suit in self.suits:
            return (FAILED, memo[1])
        return memo


class TrickJudge(Judge):
    """Win one trick whose cards satisfy ``check(trick)``; fails when no trick is left or the unplayed
    cards can no longer make such a trick (``feasible(ledger)``)."""

    __slots__ = ("check", "feasible")

    def __init__(self, owner, check, feasible):
        super().__init__(owner)
        self.check, self.feasible = check, feasible

    def _step(self, data, ledger):
        t = ledger.last
        if t.winner == self.owner and self.check(t):
            return DONE, None
        if ledger.remaining == 0 or not self.feasible(ledger):
            return FAILED, None
        return PENDING, None

    def _final(self, data, ledger):
        return False


# -- helpers for trick judges ------------------------------------------------------------------------
_COLOUR_VALUES = [(c.bit, c.value) for c in DECK if c.suit != SUBMARINE]


def _unplayed_colour_values(ledger: Ledger) -> list[int]:
    played = ledger.played
    return [v for bit, v in _COLOUR_VALUES if not played & bit]


@lru_cache(maxsize=4096)
def _subset_sum_possible(counts: tuple[int, ...], size: int, targets: frozenset[int]) -> bool:
    """Can ``size`` cards with value counts ``counts`` (index = value - 1) total one of ``targets``?"""
    sums = {(0, 0)}
    for value, count in enumerate(counts, 1):
        sums = {(k + j, s + j * value) for k, s in sums for j in range(min(count, size - k) + 1)}
    return any(k == size and s in targets for k, s in sums)


def _no_sub(t: Trick) -> bool:
    return all(c.suit != SUBMARINE for c in t.cards)


def _trick_property_judge(owner: int, p: Mapping[str, Any], seats: int) -> Judge:
    if "all_cards" in p:
        rule = p["all_cards"]
        pred = {"value<7": lambda c: c.value < 7, "value>5": lambda c: c.value > 5,
                "even": lambda c: c.value % 2 == 0, "odd": lambda c: c.value % 2 == 1}[rule]
        # Submarines never satisfy these (a submarine 1 is not odd; no submarine is above 5).
        good = _colour_mask(pred)

        def check(t, good=good):
            return t.mask & good == t.mask

        def feasible(ledger, good=good):
            return ledger.unplayed(good) >= seats
        return TrickJudge(owner, check, feasible)
    if "sum_cmp" in p or "sum_in" in p:
        if "sum_in" in p:
            targets = frozenset(p["sum_in"])
            ok = targets.__contains__
        else:
            limit = p["sum_by_players"][str(seats)]
            ok = (lambda s: s > limit) if p["sum_cmp"] == ">" else (lambda s: s < limit)

        def check(t):
            return _no_sub(t) and ok(sum(c.value for c in t.cards))

        def feasible(ledger):
            values = sorted(_unplayed_colour_values(ledger))
            if len(values) < seats:
                return False
            if "sum_in" in p:
                counts = tuple(min(values.count(v), seats) for v in range(1, 10))
                return _subset_sum_possible(counts, seats, targets)
            if p["sum_cmp"] == ">":
                return sum(values[-seats:]) > limit
            return sum(values[:seats]) < limit
        return TrickJudge(owner, check, feasible)
    if "count_equal" in p:
        a, b = (_filter_mask({"suit": s}) for s in p["count_equal"])
        need = p.get("min", 1)

        def check(t):
            na, nb = (t.mask & a).bit_count(), (t.mask & b).bit_count()
            return na == nb >= need

        def feasible(ledger):
            return ledger.unplayed(a) >= need and ledger.unplayed(b) >= need
        return TrickJudge(owner, check, feasible)
    raise DataError(f"unknown trick property {dict(p)!r}")


def _card_spec(spec: Mapping[str, Any]) -> int:
    if "card" in spec:
        return Card.parse(spec["card"]).bit
    if spec.get("suit") == "submarine":
        return _filter_mask({"suit": "submarine"})
    return _filter_mask({"value": spec["value"]})


def _win_with_judge(owner: int, p: Mapping[str, Any]) -> Judge:
    win_mask = _card_spec(p["winning_card"])
    contains = p.get("trick_contains")
    other_mask = _card_spec(contains) if contains else 0
    # "a 6 with another 6": the trick holds two of the mask (the winner's and another)
    need_other = 2 if contains and contains.get("other_than_winner") else 1

    def check(t):
        if not t.winning_card.bit & win_mask:
            return False
        return not contains or (t.mask & other_mask).bit_count() >= need_other

    def feasible(ledger):
        left = win_mask & ~ledger.played
        if not left:
            return False
        if not contains:
            return True   # a winning card is left (without looking at which)
        winners = cards_of(left)
        others = cards_of(other_mask & ~ledger.played)
        for w in winners:
            # a colour card wins only as the highest of its colour (and with no submarine): a target of
            # its own colour must be lower (task 13: B4 never wins B8)
            fit = [x for x in others if x is not w and (w.suit == SUBMARINE or x.suit != w.suit
                                                         or x.value < w.value)]
            if fit:
                return True
        return False
    return TrickJudge(owner, check, feasible)


def compile_params(task: Task, owner: int, players: int, captain: int = 0,
                   prediction: int | None = None) -> Judge:
    """Compile ``task`` for ``owner`` into a :class:`Judge` (no argument checking: see :func:`compile_task`)."""
    p, cat = task.params, task.category
    seats = 3 if players == 2 else players
    if cat == "capture_cards":
        cards = [Card.parse(c) for c in p["cards"]]
        main = CountJudge(owner, mask_of(cards), False, len(cards))
        if "and" in p:
            extra = p["and"]
            return AllJudge(owner, [main, CountJudge(owner, _filter_mask(extra["filter"]), extra["cmp"] == "==",
                                                     extra["n"])])
        return main
    if cat == "card_count":
        def one(c):
            return CountJudge(owner, _filter_mask(c["filter"]), c["cmp"] == "==", c["n"])
        if "all_of" in p:
            return AllJudge(owner, [one(c) for c in p["all_of"]])
        if "any_of" in p:
            return AnyJudge(owner, [one(c) for c in p["any_of"]])
        return one(p)
    if cat == "card_count_compare":
        return CompareJudge(owner, _filter_mask(p["a"]), _filter_mask(p["b"]), p["cmp"] == "==")
    if cat == "trick_count":
        return TrickCountJudge(owner, p["n"])
    if cat == "trick_count_prediction":
        judge = SecretCountJudge if p.get("visibility") == "secret" else TrickCountJudge
        return judge(owner, 0 if prediction is None else prediction)
    if cat == "trick_count_relative":
        return RelativeJudge(owner, p["cmp"], p["other"], captain)
    if cat == "trick_positions":
        return PositionJudge(owner, tuple(p.get("must_win", ())), tuple(p.get("must_not_win", ())),
                             bool(p.get("only")))
    if cat == "capture_in_trick":
        return LastTrickCardJudge(owner, Card.parse(p["card"]))
    if cat == "streak":
        if "never_consecutive" in p:
            return StreakJudge(owner, "never", p["never_consecutive"])
        if "at_least_consecutive" in p:
            return StreakJudge(owner, "atleast", p["at_least_consecutive"])
        return StreakJudge(owner, "exact", p["exact_total"])
    if cat == "no_lead":
        return NoLeadJudge(owner, {_SUIT_WORD[s] for s in p["suits"]})
    if cat == "trick_property":
        return _trick_property_judge(owner, p, seats)
    if cat == "win_trick_with":
        return _win_with_judge(owner, p)
    raise DataError(f"task {task.id}: unknown category {cat!r}")


TASKS: Mapping[int, Task] = _load_catalogue(_read_data("tasks.json"))


def get_task(task_id: "int | Task | str") -> Task:
    """A task by id (``16``, ``"16"``, ``"#16"``) or the Task itself; :class:`InvalidMoveError` otherwise."""
    if isinstance(task_id, Task):
        return task_id
    raw = task_id
    if isinstance(task_id, str):
        task_id = task_id.strip().lstrip("#")
        if not (task_id.isascii() and task_id.isdigit()) or len(task_id) > 3:
            raise InvalidMoveError(f"not a task id: {raw!r} (tasks are numbered 1–{len(TASKS)})")
        task_id = int(task_id)
    if isinstance(task_id, bool) or not isinstance(task_id, int) or task_id not in TASKS:
        raise InvalidMoveError(f"no task {raw!r}: tasks are numbered 1–{len(TASKS)}")
    return TASKS[task_id]


def _check_seat(value: Any, name: str, seats: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise InvalidMoveError(f"{name} must be a seat from 0 to {seats - 1}, not {value!r}")
    return value


def check_prediction(task: Task, prediction: Any, players: int) -> Violation | None:
    total = tricks_in_mission(players)
    if prediction is None:
        return Violation("CREW_PREDICTION_MISSING", "crew.task.prediction", task=task.id)
    if isinstance(prediction, bool) or not isinstance(prediction, int) or not 0 <= prediction <= total:
        return Violation("CREW_PREDICTION_RANGE", "crew.task.prediction", value=str(prediction), total=total)
    return None


def compile_task(task_id: "int | Task", owner: int, players: int, captain: int = 0,
                 prediction: int | None = None) -> Judge:
    """A checked, cached :class:`Judge` for ``task_id`` owned by ``owner`` at a table of ``players``
    (2 = two players with TONOJA, three seats). Refusals: the captain owning a captain-comparison task,
    a prediction task without a valid prediction."""
    task = get_task(task_id)
    if (type(players) is not int or players not in (2, 3, 4, 5)) and (  # a plain int: the hot path
            isinstance(players, bool) or not one_of(players, (2, 3, 4, 5))):
        raise InvalidMoveError(f"players must be 2 (with TONOJA), 3, 4 or 5, not {players!r}")
    seats = 3 if players == 2 else players
    _check_seat(owner, "owner", seats)
    _check_seat(captain, "captain", seats)
    if task.captain_comparison and owner == captain:
        raise IllegalMoveError(Violation("CREW_CAPTAIN_COMPARISON", "crew.alloc.captain-comparison",
                                         task=task.id))
    if task.needs_prediction:
        v = check_prediction(task, prediction, players)
        if v is not None:
            raise IllegalMoveError(v)
    else:
        prediction = None
    return _compile_cached(task.id, owner, players, captain if task.captain_comparison else 0, prediction)


@lru_cache(maxsize=None)
def _compile_cached(task_id, owner, players, captain, prediction) -> Judge:
    return compile_params(TASKS[task_id], owner, players, captain, prediction)


def _as_trick(t: Any, seats: int, index: int) -> Trick:
    if isinstance(t, Trick):
        trick = t
    elif isinstance(t, Mapping):
        trick = Trick.from_json(dict(t))
    elif isinstance(t, (tuple, list)) and len(t) == 2 and isinstance(t[0], int):
        trick = Trick(t[0], t[1])
    else:
        raise InvalidMoveError(f"trick {index + 1} is not a Trick(leader, cards): {t!r}")
    if len(trick.cards) != seats:
        raise InvalidMoveError(f"trick {index + 1} has {len(trick.cards)} cards; at {seats} seats every "
                               f"trick has {seats}")
    return trick


def ledger_for(tricks: Iterable[Any], players: int) -> list[Ledger]:
    """The ledgers after each of ``tricks`` (checked: trick sizes, no card twice, not too many tricks)."""
    ledger = Ledger.start(players)
    out = []
    for i, t in enumerate(tricks):
        trick = _as_trick(t, ledger.seats, i)
        if trick.mask & ledger.played:
            again = ", ".join(str(c) for c in cards_of(trick.mask & ledger.played))
            raise InvalidMoveError(f"trick {i + 1} repeats a card already played: {again}")
        if ledger.count >= ledger.total:
            raise InvalidMoveError(f"a mission at this table has only {ledger.total} tricks")
        ledger = ledger.add(trick)
        out.append(ledger)
    return out


def task_status(task_id: "int | Task", owner: int, tricks: Sequence[Any], players: int, captain: int = 0,
                prediction: int | None = None) -> str:
    """``"done"``, ``"failed"`` or ``"pending"`` for task ``task_id`` owned by seat ``owner`` after the
    completed ``tricks`` (``Trick`` objects, ``(leader, cards)`` pairs or their JSON).

    A mission has ``40 // players`` tricks (13 with three players or TONOJA); when the last one is in,
    every task is decided. ``prediction`` is the X of the prediction tasks (90, 91).
    """
    judge = compile_task(task_id, owner, players, captain, prediction)
    check_iterable("tricks", tricks)
    memo = judge.start()
    for ledger in ledger_for(tricks, players):
        memo = judge.settle(memo, ledger)
        if memo[0] != PENDING:
            break
    return memo[0]


def task_statuses(task_id, owner, tricks, players, captain=0, prediction=None) -> list[str]:
    """The status after each trick (for notebooks that show a task being judged live)."""
    judge = compile_task(task_id, owner, players, captain, prediction)
    check_iterable("tricks", tricks)
    memo = judge.start()
    out = []
    for ledger in ledger_for(tricks, players):
        memo = judge.settle(memo, ledger)
        out.append(memo[0])
    return out


# ---- the draw ---------------------------------------------------------------------------------------
def select_tasks(difficulties: Sequence[int], target: int) -> list[int]:
    """Indices of the tasks accepted from a deck in order: a task is taken if its difficulty still fits
    under ``target``, skipped if it would overshoot; the draw stops at exactly ``target``.

    >>> select_tasks([2, 1, 3, 2], 5)
    [0, 1, 3]
    """
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise InvalidMoveError(f"the target difficulty must be a whole number of at least 1, not {target!r}")
    if not isinstance(difficulties, (list, tuple, range)):
        raise InvalidMoveError(f"difficulties must be a list of task difficulties, not {difficulties!r:.60}")
    for i, d in enumerate(difficulties):
        if isinstance(d, bool) or not isinstance(d, int) or d < 1:
            raise InvalidMoveError(f"difficulty {i} must be a whole number of at least 1, not {d!r}")
    taken, total = [], 0
    for i, d in enumerate(difficulties):
        if total + d <= target:
            taken.append(i)
            total += d
            if total == target:
                return taken
    raise IllegalMoveError(Violation("CREW_DRAW_SHORT", "crew.tasks.draw", target=target, total=total))


def redeal_needed(task_ids: Iterable[int], hands: Sequence[Sequence[Card]]) -> int | None:
    """The first task whose card footnote makes this deal impossible (redeal, not a failure), or None."""
    for tid in task_ids:
        for combo in REDEAL_IF.get(tid, ()):
            need = mask_of(Card.parse(c) for c in combo)
            if any(mask_of(h) & need == need for h in hands):
                return tid
    return None


# ---- pairs that cannot go to two different players ----------------------------------------------------
# Derived from the task definitions and the player count (rule ``crew.alloc.incompatible``). Each task is
# read as three kinds of demand on its owner, and a pair for two *different* owners is incompatible when
# one kind can never hold for both:
#
# * trick counts — which vectors of tricks won per seat (summing to the mission's tricks) the task allows,
#   for every place of the captain: "more than every other" twice, 1 with 87 at five players (5 + 4 > 8)…
# * trick positions — the tricks the owner must win (first, first two, last…): two owners cannot both win
#   one trick;
# * won cards — lower bounds on the cards of a kind the owner must win (each alternative of an "any of"
#   task separately): two owners' won cards are disjoint, so "all nine of one colour" cannot meet "at least
#   one card of every colour" for another player, nor "all four 3s".
# The three checks are exact each on its own; a pair that only their interplay rules out is not listed.

def _count_rule(task: Task, total: int):
    """A predicate ``ok(wins, owner, captain)`` on the tricks won per seat at the end, or None (any)."""
    p, cat = task.params, task.category
    if cat == "trick_count_relative":
        cmp, other = p["cmp"], p["other"]

        def ok(w, o, c):
            if other == "captain":
                rivals = (w[c],)
            elif other == "sum_of_others":
                rivals = (sum(w) - w[o],)
            else:
                rivals = tuple(x for s, x in enumerate(w) if s != o)
            if cmp == ">":
                return all(w[o] > r for r in rivals)
            if cmp == "<":
                return all(w[o] < r for r in rivals)
            return all(w[o] == r for r in rivals)
        return ok
    lo, hi = _trick_bounds(task, total)
    if lo == 0 and hi == total:
        return None
    return lambda w, o, c: lo <= w[o] <= hi


def _trick_bounds(task: Task, total: int) -> tuple[int, int]:
    """(fewest, most) tricks the owner can win and still fulfil ``task``."""
    p, cat = task.params, task.category
    if cat == "trick_count":
        return p["n"], p["n"]
    if cat == "streak":
        if "exact_total" in p:
            return p["exact_total"], p["exact_total"]
        if "at_least_consecutive" in p:
            return p["at_least_consecutive"], total
        return 0, (total + 1) // 2   # never two in a row
    if cat == "trick_positions":
        win = {total if w == "last" else w for w in p.get("must_win", ())}
        if p.get("only"):
            return len(win), len(win)
        return len(win), total - len(p.get("must_not_win", ()))
    if cat in ("no_lead", "trick_count_prediction"):
        return 0, total
    if cat == "card_count" and not _card_alternatives(task, 3):
        return 0, total
    alternatives = _card_alternatives(task, 3)
    if cat == "card_count" and any(not alt for alt in alternatives):
        return 0, total
    return 1, total   # a card to win or a trick to win


def _card_alternatives(task: Task, seats: int) -> list[list[tuple[int, int]]]:
    """The task's demands on its owner's won cards: a list of alternatives, each a list of
    ``(mask, at least k)`` (an empty alternative: no demand)."""
    p, cat = task.params, task.category
    colours = _colour_mask(lambda c: True)
    if cat == "capture_cards":
        out = [(mask_of(Card.parse(c) for c in p["cards"]), len(p["cards"]))]
        return [out]
    if cat == "capture_in_trick":
        return [[(Card.parse(p["card"]).bit, 1)]]
    if cat == "card_count":
        def lows(c):
            return [(_filter_mask(c["filter"]), c["n"])] if c["n"] > 0 else []
        if "any_of" in p:
            return [lows(c) for c in p["any_of"]]
        parts = p["all_of"] if "all_of" in p else [p]
        return [[d for c in parts for d in lows(c)]]
    if cat == "card_count_compare":
        a, b = _filter_mask(p["a"]), _filter_mask(p["b"])
        return [[(a, 1), (b, 1)]] if p["cmp"] == "==" else [[(a, 1)]]
    if cat == "win_trick_with":
        win = _card_spec(p["winning_card"])
        contains = p.get("trick_contains")
        if not contains:
            return [[(win, 1)]]
        other = _card_spec(contains)
        if contains.get("other_than_winner"):
            return [[(other | win, 2)]]
        return [[(win, 1), (other, 1), (win | other, 2)]]
    if cat == "trick_property":
        if "all_cards" in p:
            pred = {"value<7": lambda c: c.value < 7, "value>5": lambda c: c.value > 5,
                    "even": lambda c: c.value % 2 == 0, "odd": lambda c: c.value % 2 == 1}[p["all_cards"]]
            return [[(_colour_mask(pred), seats)]]
        if "count_equal" in p:
            a, b = (_filter_mask({"suit": s}) for s in p["count_equal"])
            return [[(a, 1), (b, 1)]]
        return [[(colours, seats)]]   # a trick of colour cards only (sums)
    return [[]]


def _cards_fit(da: list[tuple[int, int]], db: list[tuple[int, int]]) -> bool:
    """Can two owners win disjoint sets of cards meeting the lower bounds ``da`` and ``db``? Exact: the
    cards are grouped by which demand masks hold them, and the counts taken from each group are tried."""
    union_a = union_b = 0
    for m, _ in da:
        union_a |= m
    for m, _ in db:
        union_b |= m
    if not union_a & union_b:
        return True   # no card both want: each alone can be met (every task can)
    masks = [m for m, _ in da] + [m for m, _ in db]
    groups: dict[tuple[bool, ...], int] = {}
    for c in DECK:
        key = tuple(bool(c.bit & m) for m in masks)
        if any(key):
            groups[key] = groups.get(key, 0) + 1
    atoms = list(groups.items())
    na = len(da)
    cap_a = [max([k for (m, k), inside in zip(da, key[:na]) if inside] or [0]) for key, _ in atoms]
    cap_b = [max([k for (m, k), inside in zip(db, key[na:]) if inside] or [0]) for key, _ in atoms]

    def go(i, got_a, got_b):
        if i == len(atoms):
            return all(g >= k for g, (_, k) in zip(got_a, da)) and all(g >= k for g, (_, k) in zip(got_b, db))
        key, size = atoms[i]
        for a in range(min(size, cap_a[i]) + 1):
            for b in range(min(size - a, cap_b[i]) + 1):
                ga = tuple(g + (a if inside else 0) for g, inside in zip(got_a, key[:na]))
                gb = tuple(g + (b if inside else 0) for g, inside in zip(got_b, key[na:]))
                if go(i + 1, ga, gb):
                    return True
        return False
    return go(0, (0,) * len(da), (0,) * len(db))


def _positions(task: Task, total: int) -> frozenset:
    p = task.params
    if task.category != "trick_positions":
        return frozenset()
    return frozenset(total if w == "last" else w for w in p.get("must_win", ()))


@lru_cache(maxsize=None)
def _count_vectors(total: int, seats: int) -> tuple[tuple[int, ...], ...]:
    def go(left, n):
        if n == 1:
            yield (left,)
            return
        for k in range(left + 1):
            for rest in go(left - k, n - 1):
                yield (k,) + rest
    return tuple(go(total, seats))


@lru_cache(maxsize=None)
def _allowed_vectors(task_id: int, players: int, owner: int, captain: int) -> frozenset | None:
    total, seats = tricks_in_mission(players), 3 if players == 2 else players
    rule = _count_rule(TASKS[task_id], total)
    if rule is None:
        return None
    return frozenset(w for w in _count_vectors(total, seats) if rule(w, owner, captain))


def incompatibility(a: "int | Task", b: "int | Task", players: int = 4) -> str | None:
    """Why tasks ``a`` and ``b`` can never both be fulfilled by two *different* players at a table of
    ``players`` (2 = with TONOJA): ``"counts"`` (tricks won), ``"positions"`` (the same trick to win) or
    ``"cards"`` (the cards to win cannot be shared out), else ``None``.

    >>> incompatibility(79, 78), incompatibility(45, 44, 3), incompatibility(1, 87, 5), incompatibility(1, 87, 4)
    ('positions', 'cards', 'counts', None)
    """
    ta, tb = get_task(a), get_task(b)
    return _incompatibility(*sorted((ta.id, tb.id)), _table_size(players))


def _table_size(players: Any) -> int:
    if type(players) is not int or players not in (2, 3, 4, 5):
        raise InvalidMoveError(f"players must be 2 (with TONOJA), 3, 4 or 5, not {players!r}")
    return players


def incompatible(a: "int | Task", b: "int | Task", players: int = 4) -> bool:
    """True if tasks ``a`` and ``b`` can never both be fulfilled by two *different* players at a table of
    ``players`` (e.g. "win the first trick" and "win the first two tricks"); see :func:`incompatibility`."""
    return incompatibility(a, b, players) is not None


@lru_cache(maxsize=None)
def _incompatibility(a: int, b: int, players: int) -> str | None:
    if a == b:
        return None
    ta, tb = TASKS[a], TASKS[b]
    total, seats = tricks_in_mission(players), 3 if players == 2 else players
    # trick counts: owners 0 and 1, the captain anywhere a captain-comparison task allows
    captains = [c for c in range(min(seats, 3)) if not (ta.captain_comparison and c == 0)
                and not (tb.captain_comparison and c == 1)]
    apart = True
    for c in captains:
        va, vb = _allowed_vectors(a, players, 0, c), _allowed_vectors(b, players, 1, c)
        if va is None or vb is None or va & vb:
            apart = False
            break
    if apart and captains:
        return "counts"
    if _positions(ta, total) & _positions(tb, total):
        return "positions"
    if all(not _cards_fit(x, y) for x in _card_alternatives(ta, seats) for y in _card_alternatives(tb, seats)):
        return "cards"
    return None


def incompatible_pairs(players: int) -> list[tuple[int, int, str]]:
    """Every incompatible pair ``(a, b, reason)`` with ``a < b`` at a table of ``players``."""
    players = _table_size(players)
    return [(a, b, why) for a in TASKS for b in TASKS if a < b
            for why in [_incompatibility(a, b, players)] if why is not None]
