"""Reading the winnable page's inputs: task and hand texts, the URL's forms of them, a seeded deal as box
texts, and the solver's arguments from a mission state. Untrusted text in, bounded values or a refusal out;
no widgets are built here. TONOJA's columns (two players) are read and edited by
:mod:`toolkit.crew.tonoja_columns`.
"""

from __future__ import annotations

from typing import Any

from toolkit.core.errors import InvalidMoveError
from toolkit.crew.cards import Card, deal, deal_tonoja
from toolkit.crew.tonoja_columns import MAX_TEXT, columns_text
from toolkit.widgets.components.crew import parse_card

PLAYER_CHOICES = (3, 4, 5)
#: the "winnable" dashboard also takes two players: TONOJA (seat 2) is the third hand, its cards in columns
WINNABLE_PLAYERS = (2, 3, 4, 5)
TONOJA_SEAT = 2
MAX_TIME_LIMIT = 60.0


class PageRefusal(InvalidMoveError):
    """A refusal of this page's own input, kept as a message key: shown in the page's language and shown
    again in the other one when the visitor switches (a plain ``RuleError`` keeps the words it was made with)."""

    def __init__(self, key: str, **params: Any):
        from toolkit.core.i18n import translate
        self.key, self.params = key, params
        super().__init__(translate(key, "en", params))


def parse_task_text(text: Any) -> list[Any]:
    """``"16, 79"`` or ``"90=3"`` (a prediction) -> ``[16, 79]`` / ``[(90, 3)]``; refuses anything else."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"tasks must be text like 16, 79, not {text!r:.40}")
    out: list[Any] = []
    for token in text[:MAX_TEXT].replace(";", ",").split(","):
        token = token.strip().lstrip("#")
        if not token:
            continue
        if "=" in token:
            a, b = (x.strip() for x in token.split("=", 1))
            if not (a.isdigit() and b.isdigit()):
                raise InvalidMoveError(f"not a task with a prediction: {token!r} (write 90=3)")
            out.append((int(a), int(b)))
        elif token.isdigit():
            out.append(int(token))
        else:
            raise InvalidMoveError(f"not a task number: {token!r}")
    return out


def parse_query_hands(text: str) -> dict[int, str]:
    """``"0:B1-B2-P9;1:G3-Y4"`` -> ``{0: "B1 B2 P9", 1: "G3 Y4"}`` (the URL form of the hands; each hand is
    checked when solved, like a typed one)."""
    out: dict[int, str] = {}
    for part in text[:MAX_TEXT].split(";"):
        if ":" in part:
            seat, cards_text = part.split(":", 1)
            if seat.strip().isdigit() and int(seat) < 5:
                out[int(seat)] = " ".join(cards_text.replace("-", " ").split())[:MAX_TEXT]
    return out


def lenient_cards(text: Any) -> list[Card]:
    """The cards a (possibly half-typed) hand box holds, for drawing it: unreadable tokens are skipped (the
    solver refuses them when asked); each card once."""
    if not isinstance(text, str):
        return []
    out: list[Card] = []
    for token in text[:MAX_TEXT].replace(",", " ").split():
        card = parse_card(token)
        if card is not None and card not in out:
            out.append(card)
    return out



def dealt_texts(players: int, seed: int) -> list[str]:
    """The box texts of the seeded deal: one hand a seat; at two players the two hands and TONOJA's columns
    (``deal_tonoja``, in ``up/down`` form).

    >>> len(dealt_texts(2, 1)), dealt_texts(2, 1)[2].count("/")
    (3, 7)
    """
    if players == 2:
        hands, columns = deal_tonoja(seed)
        return [" ".join(str(c) for c in h) for h in hands] + [columns_text(columns)]
    return [" ".join(str(c) for c in h) for h in deal(players, seed)]


def parse_query_tasks(text: str) -> dict[int, str]:
    """``"0:16,79;2:17"`` -> ``{0: "16,79", 2: "17"}`` (the URL form of the task boxes)."""
    out: dict[int, str] = {}
    for part in text[:MAX_TEXT].split(";"):
        if ":" in part:
            seat, ids = part.split(":", 1)
            if seat.strip().isdigit():
                out[int(seat)] = ids
    return out




def card_played(state: Any) -> bool:
    """Whether a card of the current attempt has been played in this mission state."""
    return bool(state.tricks or state.trick)


def position_from_mission(state: Any, from_start: bool = True, dealt: Any = None) -> dict[str, Any]:
    """Solver arguments from a mission engine state (``toolkit.crew.engine.CrewState``).

    ``from_start``: the hands as dealt (each seat's cards plus those it played) and no trick played — "was
    the mission winnable?"; otherwise the current hands with the tricks played so far. Two players: TONOJA's
    cards are the third hand and ``columns`` says which lies under which — as they lie now, or as dealt for
    ``from_start``. Which card lay under a card TONOJA has played is not kept in a state, so from the start
    that needs ``dealt``: a state of the same attempt before its first card (a mission code replays to one),
    unless no card has been played yet."""
    seats = state.seats if hasattr(state, "seats") else len(state.hands)
    two = getattr(state, "players", seats) == 2
    if seats not in PLAYER_CHOICES:
        raise InvalidMoveError("the solver takes missions of 2 to 5 players")
    extra: dict[str, Any] = {}
    if two:
        source = state if not from_start or not card_played(state) else dealt
        if source is None or (from_start and (card_played(source) or source.attempt != state.attempt)):
            raise InvalidMoveError("which card lay under TONOJA's played cards is not in a saved state: paste "
                                   "the mission's code instead (it is replayed from the deal)")
        pairs = [(c.face_down, c.face_up) for c in source.columns]
        extra["columns"] = [(d, u) for d, u in pairs if d is not None and u is not None]
        tonoja = sorted(c for pair in pairs for c in pair if c is not None)
    tasks: dict[int, list[Any]] = {}
    for task_id, owner, prediction in zip(state.tasks, state.owners, state.predictions):
        if owner is None:
            raise InvalidMoveError(f"task {task_id} has no owner yet: finish the allocation first")
        tasks.setdefault(owner, []).append((task_id, prediction) if prediction is not None else task_id)
    if from_start:
        hands = [list(h) for h in state.hands]
        for trick in state.tricks:
            for seat, card in zip(trick.seats, trick.cards):
                hands[seat].append(card)
        hands = [sorted(h) for h in hands]
        if two:
            hands[TONOJA_SEAT] = tonoja
        return dict(hands=hands, tasks=tasks, leader=state.captain, captain=state.captain, played=(), **extra)
    hands = [list(h) for h in state.hands]
    if two:
        hands[TONOJA_SEAT] = tonoja
    return dict(hands=hands, tasks=tasks, leader=state.leader, captain=state.captain,
                played=tuple(state.tricks), **extra)


__all__ = ["MAX_TEXT", "MAX_TIME_LIMIT", "PLAYER_CHOICES", "PageRefusal", "TONOJA_SEAT", "WINNABLE_PLAYERS",
           "card_played", "dealt_texts", "lenient_cards", "parse_query_hands", "parse_query_tasks",
           "parse_task_text", "position_from_mission"]
