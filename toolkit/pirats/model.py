"""Sewer Pirats values: ships, pirats, the state, and the moves (frozen dataclasses with text forms).

Spaces on a ship are numbered as printed: crew spaces 1, 2, 3 (3 nearest the bow) and the captain space,
which this package numbers 4 (index 3 in ``Ship.spaces``). A pirat figure is ``(seat, figure)``, where
``figure`` indexes the seat's crew (``state.crews[seat]``, species names). In move text a figure is named
by its species (``rat``), or ``rat#2`` when a crew has several of one species (landlubber, the auction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolkit.core.chance import Chance
from toolkit.core.checks import check_int
from toolkit.core.errors import InvalidMoveError
from toolkit.pirats.tokens import Token

SHIPS = ("cat", "bird", "fish")
SPECIES = ("rat", "raccoon", "cockroach", "weasel", "snail", "toad")
COLOURS = ("red", "green", "yellow", "blue", "black")
VARIANTS = ("standard", "landlubber", "auction")
CAPTAIN = 3          # index of the captain space in Ship.spaces
CAPTAIN_NUMBER = 4   # its number where spaces are numbered (tie-break, text)
HAND_LIMIT = 6
ROW_SIZE = 4
CREW_SIZE = 4
CARDS_PER_SYMBOL = 18
AUCTION_MONEY = 8
MIN_PLAYERS, MAX_PLAYERS = 2, 5
FIGURES_PER_SPECIES = 5


@dataclass(frozen=True, slots=True)
class Pirat:
    """One figure on a ship: its owner's seat and its index in that seat's crew."""

    seat: int
    figure: int

    def to_json(self) -> list[int]:
        return [self.seat, self.figure]

    @classmethod
    def from_json(cls, data: Any) -> "Pirat":
        if (not isinstance(data, list) or len(data) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in data)):
            raise ValueError(f"a pirat is [seat, figure], not {data!r}")
        return cls(data[0], data[1])


@dataclass(frozen=True, slots=True)
class Flotsam:
    """A flotsam group in front of a ship: loot tokens and (until the captain takes it) a bonus token."""

    loot: tuple[Token, ...]
    bonus: Token | None


@dataclass(frozen=True, slots=True)
class Ship:
    """Spaces 1, 2, 3 and the captain space (``None`` = empty); flotsam groups, the first at the bow."""

    spaces: tuple[Pirat | None, Pirat | None, Pirat | None, Pirat | None]
    flotsam: tuple[Flotsam, ...]

    @property
    def captain(self) -> Pirat | None:
        return self.spaces[CAPTAIN]


@dataclass(frozen=True, slots=True)
class Sailing:
    """A sailing being paid out: ``order`` lists the space indices in payout order (captain first, then
    the pirat nearest the bow ...); ``index`` is whose pick it is; ``picks`` counts loot the current pirat
    took (a rat may take two); ``outcomes`` says for each finished pirat ``took``, ``stay`` or ``none``."""

    ship: int
    seat: int
    order: tuple[int, ...]
    index: int = 0
    picks: int = 0
    outcomes: tuple[str, ...] = ()
    weasel: int | None = None  # the captain's figure if it was a weasel that may act again


@dataclass(frozen=True, slots=True)
class Auction:
    """The crew auction at the bar: stool 1 is the front. ``bar[i]`` is the species on stool ``i + 1``
    (``None`` once hired); ``under[i]`` the charm cards slipped face down under it."""

    bar: tuple[str | None, ...]
    under: tuple[tuple[str, ...], ...]
    opener: int
    stool: int | None = None      # index of the stool being auctioned
    bid: int = 0
    bidder: int | None = None
    active: tuple[int, ...] = ()  # seats still bidding on this figure
    last_hirer: int | None = None


@dataclass(frozen=True)
class PiratsState:
    players: int
    variant: str
    powers: bool
    crews: tuple[tuple[str, ...], ...]
    ships: tuple[Ship, ...]
    loot_stock: tuple[Token, ...]
    bonus_stock: tuple[Token, ...]
    deck: tuple[str, ...]
    row: tuple[str, ...]
    discard: tuple[str, ...]
    hands: tuple[tuple[int, int, int], ...]
    treasure: tuple[tuple[Token, ...], ...]
    boxed: tuple[Token, ...]
    turn: int
    start_player: int
    phase: str
    chance: Chance
    drawn: int = 0
    to_discard: int = 0
    sailing: Sailing | None = None
    extra: int | None = None         # the figure whose option is pending: a weasel's second action (phase
    #                                  "extra") or a snail's extra space after a matching card (phase "snail")
    extra_used: bool = False         # the weasel's second action is under way (no third)
    ended: bool = False              # a ship could not get a new flotsam group: final sailings
    final: tuple[int, ...] = ()      # ships still to make their final sailing, in order
    auction: Auction | None = None
    actions: int = 0                 # moves applied so far (for logs and benchmarks)

    def hand_size(self, seat: int) -> int:
        check_int("seat", seat, 0, self.players - 1)
        return sum(self.hands[seat])

    def where(self, seat: int, figure: int) -> tuple[int, int] | None:
        """``(ship, space index)`` of a figure, or ``None`` when it is in its owner's area."""
        for s, ship in enumerate(self.ships):
            for i, p in enumerate(ship.spaces):
                if p is not None and p.seat == seat and p.figure == figure:
                    return s, i
        return None

    def captain_of(self, seat: int) -> int | None:
        """The ship on which ``seat`` has its captain, if any (one captain per player)."""
        for s, ship in enumerate(self.ships):
            c = ship.spaces[CAPTAIN]
            if c is not None and c.seat == seat:
                return s
        return None


# ---------------------------------------------------------------------------------------------------------
# moves

def figure_label(crew: tuple[str, ...], index: int) -> str:
    """``rat`` when the crew has one rat, ``rat#2`` for the second of several."""
    if not isinstance(crew, (tuple, list)) or not all(isinstance(s, str) for s in crew):
        raise TypeError(f"crew must be a list of species names, not {crew!r:.60}")
    check_int("index", index, 0, len(crew) - 1)
    species = crew[index]
    same = [i for i, s in enumerate(crew) if s == species]
    return species if len(same) == 1 else f"{species}#{same.index(index) + 1}"


def resolve_figure(crew: tuple[str, ...], label: str) -> int | None:
    """The crew index a label names, or ``None`` (no such figure, or ``rat`` when there are several)."""
    species, _, number = label.partition("#")
    same = [i for i, s in enumerate(crew) if s == species]
    if not number:
        return same[0] if len(same) == 1 else None
    if not (number.isascii() and number.isdigit()) or len(number) > 3:
        return None
    k = int(number) - 1
    return same[k] if 0 <= k < len(same) and len(same) > 1 else None


def _check_label(label: Any) -> str:
    if not isinstance(label, str):
        raise InvalidMoveError(f"a figure is named by its species, e.g. 'rat' or 'rat#2', not {label!r}")
    species, hash_, number = label.partition("#")
    if species not in SPECIES or (hash_ and not (number.isascii() and number.isdigit() and len(number) <= 3
                                         and 1 <= int(number) <= CREW_SIZE)):
        raise InvalidMoveError(f"unknown figure {label!r}: use a species ({', '.join(SPECIES)}), "
                               f"with '#2' etc. when your crew has several")
    return label


def _check_ship(ship: Any) -> str:
    if not isinstance(ship, str) or ship not in SHIPS:
        raise InvalidMoveError(f"unknown ship {ship!r}: the ships are {', '.join(SHIPS)}")
    return ship


def _check_count(n: Any, what: str, low: int = 0, high: int = 60) -> int:
    if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
        raise InvalidMoveError(f"{what} must be a whole number from {low} to {high}, not {n!r}")
    return n


def _cards_text(counts: tuple[int, int, int]) -> str:
    return " ".join(s for s, n in zip(SHIPS, counts) for _ in range(n))


@dataclass(frozen=True, slots=True)
class Draw:
    """Action A, one card at a time: ``draw deck`` or ``draw cat`` (a face-up card of that symbol)."""

    source: str

    def __post_init__(self) -> None:
        if not (isinstance(self.source, str) and self.source == "deck"):
            try:
                _check_ship(self.source)
            except InvalidMoveError:
                raise InvalidMoveError(f"draw from 'deck' or a face-up symbol ({', '.join(SHIPS)}), "
                                       f"not {self.source!r}") from None

    def __str__(self) -> str:
        return f"draw {self.source}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Down to the hand limit after drawing: ``discard cat cat fish``."""

    cards: tuple[int, int, int]

    def __post_init__(self) -> None:
        _check_cards(self.cards)

    def __str__(self) -> str:
        return f"discard {_cards_text(self.cards)}".rstrip()


@dataclass(frozen=True, slots=True)
class MovePirat:
    """Action B: ``move rat cat 2`` — onto or along ``ship``, ``steps`` free spaces (one card each).
    ``peek`` (snail only): turn up the deck's top card for a chance of one more space."""

    figure: str
    ship: str
    steps: int
    peek: bool = False

    def __post_init__(self) -> None:
        _check_label(self.figure)
        _check_ship(self.ship)
        _check_count(self.steps, "the number of spaces", 1, 3)
        if not isinstance(self.peek, bool):
            raise InvalidMoveError(f"peek is true or false, not {self.peek!r}")

    def __str__(self) -> str:
        return f"move {self.figure} {self.ship} {self.steps}" + (" peek" if self.peek else "")


@dataclass(frozen=True, slots=True)
class BecomeCaptain:
    """Action C: ``captain rat cat``."""

    figure: str
    ship: str

    def __post_init__(self) -> None:
        _check_label(self.figure)
        _check_ship(self.ship)

    def __str__(self) -> str:
        return f"captain {self.figure} {self.ship}"


@dataclass(frozen=True, slots=True)
class SetSail:
    """Action D: ``sail cat`` — your captain on that ship sets sail."""

    ship: str

    def __post_init__(self) -> None:
        _check_ship(self.ship)

    def __str__(self) -> str:
        return f"sail {self.ship}"


@dataclass(frozen=True, slots=True)
class TakeLoot:
    """During a sailing: ``take fries 2`` — the pirat whose pick it is takes that loot token."""

    token: Token

    def __post_init__(self) -> None:
        if not isinstance(self.token, Token) or not self.token.is_loot:
            raise InvalidMoveError(f"only loot tokens are picked during a sailing, not {self.token!r}")

    def __str__(self) -> str:
        return f"take {self.token}"


@dataclass(frozen=True, slots=True)
class Stay:
    """During a sailing: a toad stays aboard instead of taking loot and moves up one space."""

    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True, slots=True)
class SnailStep:
    """After a snail turned up a matching card: ``step`` — take the extra space (``pass`` declines it)."""

    def __str__(self) -> str:
        return "step"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: a rat's second loot, a weasel's second action, a snail's extra space, a bid; or no action is
    possible at all."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class OpenAuction:
    """Crew auction: ``auction 5 bid 2`` — offer for the figure on stool 5 (1 = the front)."""

    stool: int
    bid: int

    def __post_init__(self) -> None:
        _check_count(self.stool, "the stool number", 1, CREW_SIZE * MAX_PLAYERS)
        _check_count(self.bid, "a bid", 0, 60)

    def __str__(self) -> str:
        return f"auction {self.stool} bid {self.bid}"


@dataclass(frozen=True, slots=True)
class Bid:
    """Crew auction: raise the bid, ``bid 3``."""

    amount: int

    def __post_init__(self) -> None:
        _check_count(self.amount, "a bid", 1, 60)

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pay:
    """Crew auction: the winner chooses which charm cards pay the bid, ``pay cat fish``."""

    cards: tuple[int, int, int]

    def __post_init__(self) -> None:
        _check_cards(self.cards)

    def __str__(self) -> str:
        return f"pay {_cards_text(self.cards)}".rstrip()


MOVE_TYPES = (Draw, Discard, MovePirat, BecomeCaptain, SetSail, TakeLoot, Stay, SnailStep, Pass, OpenAuction, Bid,
              Pay)


def _check_cards(cards: Any) -> None:
    if (not isinstance(cards, tuple) or len(cards) != 3
            or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 54 for n in cards)):
        raise InvalidMoveError(f"cards are three counts (cat, bird, fish), not {cards!r}")


def _symbols(words: list[str], text: str) -> tuple[int, int, int]:
    counts = [0, 0, 0]
    for w in words:
        if w not in SHIPS:
            raise InvalidMoveError(f"{text!r}: {w!r} is not a card symbol ({', '.join(SHIPS)})")
        counts[SHIPS.index(w)] += 1
    return (counts[0], counts[1], counts[2])


def _int_word(word: str, text: str) -> int:
    # ASCII digits only: "²".isdigit() is true but int("²") raises a bare ValueError
    if not (word.isascii() and word.isdigit()) or len(word) > 3:
        raise InvalidMoveError(f"{text!r}: {word!r} is not a number")
    return int(word)


def parse_move(text: str) -> Any:
    """The move written as ``text`` (``str(move)`` round-trips). Bad text raises ``InvalidMoveError``."""
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is text such as 'draw deck' or 'move rat cat 2', not {text!r}")
    words = text.strip().lower().split()
    if not words or len(text) > 200:
        raise InvalidMoveError(f"not a Sewer Pirats move: {text[:60]!r}")
    verb, args = words[0], words[1:]
    try:
        if verb == "draw" and len(args) == 1:
            return Draw(args[0])
        if verb == "discard" and args:
            return Discard(_symbols(args, text))
        if verb == "move" and len(args) in (3, 4) and (len(args) == 3 or args[3] == "peek"):
            return MovePirat(args[0], args[1], _int_word(args[2], text), len(args) == 4)
        if verb == "captain" and len(args) == 2:
            return BecomeCaptain(args[0], args[1])
        if verb == "sail" and len(args) == 1:
            return SetSail(args[0])
        if verb == "take" and args:
            return TakeLoot(Token.parse(" ".join(args)))
        if verb == "stay" and not args:
            return Stay()
        if verb == "step" and not args:
            return SnailStep()
        if verb == "pass" and not args:
            return Pass()
        if verb == "auction" and len(args) == 3 and args[1] == "bid":
            return OpenAuction(_int_word(args[0], text), _int_word(args[2], text))
        if verb == "bid" and len(args) == 1:
            return Bid(_int_word(args[0], text))
        if verb == "pay":
            return Pay(_symbols(args, text))
    except InvalidMoveError as exc:
        raise InvalidMoveError(f"{text!r}: {exc}") from None
    raise InvalidMoveError(
        f"not a Sewer Pirats move: {text!r} (try 'draw deck', 'draw cat', 'discard cat fish', "
        f"'move rat cat 2', 'move snail fish 1 peek', 'captain rat cat', 'sail cat', 'take fries 2', "
        f"'stay', 'step', 'pass', 'auction 3 bid 2', 'bid 3', 'pay cat fish')")
