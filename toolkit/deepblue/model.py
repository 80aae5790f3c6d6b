"""Deep Blue's state and moves: frozen dataclasses of tuples, JSON round-trippable via ``toolkit.core.serial``.

Gem counts are tuples in :data:`toolkit.deepblue.gems.COLOURS` order. Every move names the seat that makes
it (``"s0 draw"``), so a refusal can say whose turn it really is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolkit.core.chance import Chance
from toolkit.core.errors import InvalidMoveError

NO_SPOT = -1   # a boat at a tile's centre (or on open water) holds no scouting spot


@dataclass(frozen=True)
class Boat:
    site: int
    spot: int = NO_SPOT     # index into the tile's spots, or NO_SPOT


@dataclass(frozen=True)
class Player:
    colour: str
    hand: tuple[int, ...]           # crew card ids, sorted
    used: tuple[int, ...]           # the rest area (used cards), sorted
    boats: tuple[Boat, Boat]
    tokens: int                     # starter bonus tokens left
    chest: int = 0                  # VP in the treasure chest

    def crew_count(self) -> int:
        return len(self.hand) + len(self.used)


@dataclass(frozen=True)
class Tile:
    site: int
    wreck: str
    face_up: bool


@dataclass(frozen=True)
class Diver:
    seat: int
    boat: int
    spot: str | None = None         # the scouting-spot kind this diver holds for the dive
    spot_used: bool = False         # a protection spot is single use
    status: str = "in"              # "in", "left", "bust"
    card_vp: int = 0                # VP from crew cards played in this dive (kept after a bust)
    treasure_vp: int = 0            # gem VP fixed when the diver left


@dataclass(frozen=True)
class Check:
    seat: int
    colour: str


@dataclass(frozen=True)
class DiveState:
    site: int
    wreck: str
    leader: int
    sunken_city: bool
    divers: tuple[Diver, ...]               # clockwise from the leader
    to_join: tuple[int, ...] = ()           # seats still deciding whether to join, in order
    drawn: tuple[str, ...] = ()             # gems on the dive board, in draw order (seeded gems first)
    draws: int = 0                          # gems drawn from the bag in this dive
    pull_left: int = 0                      # gems still to draw in the current pull (Troubled Waters)
    checks: tuple[Check, ...] = ()          # checks of the last gem not yet resolved, in order

    def diver(self, seat: int) -> Diver | None:
        return next((d for d in self.divers if d.seat == seat), None)


@dataclass(frozen=True)
class SailState:
    propellers: int                 # propellers left to spend this action
    moved: tuple[int, ...] = ()     # boats already moved
    landing: int = -1               # boat waiting to choose a scouting spot, or -1


@dataclass(frozen=True)
class DeepBlueState:
    players: tuple[Player, ...]
    turn: int                                   # seat whose action it is
    phase: str                                  # "action", "sail", "join", "dive", "check", "over"
    tiles: tuple[Tile, ...]                     # wreck tiles still on the board
    tile_gems: tuple[tuple[int, str], ...]      # Scattered Wealth: (site, colour) gems lying on tiles
    market: tuple[int, ...]                     # card ids in slots $1..$4 (fewer when the deck ran out)
    deck: tuple[int, ...]                       # market deck, top first (hidden)
    bag: tuple[int, ...]
    supply: tuple[int, ...]
    set_aside: tuple[int, ...]                  # dive gems kept out of the bag (gems_return=False)
    sunken_cities: tuple[str, ...]              # Sunken City tiles dived, in order
    removed: tuple[str, ...]                    # wreck tiles removed from the board, in order
    scenario: str
    gems_return: bool
    leader_bonus_on_bust: bool
    chance: Chance
    sail: SailState | None = None
    dive: DiveState | None = None
    card_vp_on_bust: bool = True                # crew-card VP kept after a bust (rule deepblue.dive.card-vp-on-bust)

    @property
    def seats(self) -> int:
        return len(self.players)

    def tile_at(self, site: int) -> Tile | None:
        if type(site) is not int:      # no tile lies at "x" (nor at an array, which == would broadcast)
            return None
        return next((t for t in self.tiles if t.site == site), None)


# ---------------------------------------------------------------------------------------------------
# moves
def _pay_text(cards: tuple[int, ...], tokens: int) -> str:
    parts = [str(c) for c in cards] + ["token"] * tokens
    return "+".join(parts) if parts else "nothing"


@dataclass(frozen=True)
class Hire:
    seat: int
    slot: int                       # 1..4 (the price)
    cards: tuple[int, ...]
    tokens: int = 0

    def __str__(self) -> str:
        return f"s{self.seat} hire {self.slot} pay {_pay_text(self.cards, self.tokens)}"


@dataclass(frozen=True)
class SetSail:
    seat: int
    cards: tuple[int, ...]
    tokens: int = 0

    def __str__(self) -> str:
        return f"s{self.seat} sail {_pay_text(self.cards, self.tokens)}"


@dataclass(frozen=True)
class MoveBoat:
    seat: int
    boat: int
    site: int

    def __str__(self) -> str:
        return f"s{self.seat} move boat{self.boat} to {self.site}"


@dataclass(frozen=True)
class ChooseSpot:
    seat: int
    spot: int

    def __str__(self) -> str:
        return f"s{self.seat} spot {self.spot}"


@dataclass(frozen=True)
class Anchor:
    seat: int

    def __str__(self) -> str:
        return f"s{self.seat} anchor"


@dataclass(frozen=True)
class Rest:
    seat: int

    def __str__(self) -> str:
        return f"s{self.seat} rest"


@dataclass(frozen=True)
class StartDive:
    seat: int
    boat: int

    def __str__(self) -> str:
        return f"s{self.seat} dive boat{self.boat}"


@dataclass(frozen=True)
class Join:
    seat: int

    def __str__(self) -> str:
        return f"s{self.seat} join"


@dataclass(frozen=True)
class Decline:
    seat: int

    def __str__(self) -> str:
        return f"s{self.seat} decline"


@dataclass(frozen=True)
class DrawGem:
    seat: int

    def __str__(self) -> str:
        return f"s{self.seat} draw"


@dataclass(frozen=True)
class Stop:
    seat: int

    def __str__(self) -> str:
        return f"s{self.seat} stop"


@dataclass(frozen=True)
class Leave:
    seat: int

    def __str__(self) -> str:
        return f"s{self.seat} leave"


@dataclass(frozen=True)
class PlayCard:
    seat: int
    card: int

    def __str__(self) -> str:
        return f"s{self.seat} play {self.card}"


@dataclass(frozen=True)
class Protect:
    seat: int
    card: int | None                # None: the scouting spot

    def __str__(self) -> str:
        return f"s{self.seat} protect " + ("spot" if self.card is None else f"card {self.card}")


MOVE_TYPES = (Hire, SetSail, MoveBoat, ChooseSpot, Anchor, Rest, StartDive, Join, Decline, DrawGem, Stop,
              Leave, PlayCard, Protect)
Move = Hire | SetSail | MoveBoat | ChooseSpot | Anchor | Rest | StartDive | Join | Decline | DrawGem | Stop | \
    Leave | PlayCard | Protect

_SIMPLE = {"anchor": Anchor, "rest": Rest, "join": Join, "decline": Decline, "draw": DrawGem, "stop": Stop,
           "leave": Leave}
_MOVE_RE = re.compile(r"^s(\d{1,2})\s+(.*)$")


def _parse_pay(text: str, whole: str) -> tuple[tuple[int, ...], int]:
    if text == "nothing":
        return (), 0
    cards, tokens = [], 0
    for part in text.split("+"):
        part = part.strip()
        if part == "token":
            tokens += 1
        elif (part.isascii() and part.isdigit()) and len(part) <= 4:
            cards.append(int(part))
        else:
            raise InvalidMoveError(f"not a Deep Blue move: {whole!r} ({part!r} is neither a card id nor 'token')")
    if len(set(cards)) != len(cards):
        raise InvalidMoveError(f"not a Deep Blue move: {whole!r} names a card twice")
    return tuple(sorted(cards)), tokens


def parse_move(text: str) -> Move:
    """Parse ``str(move)`` back into the move; :class:`InvalidMoveError` quoting the text otherwise.

    Forms: ``s0 hire 2 pay 3+5+token``, ``s0 sail 4+token``, ``s0 move boat1 to 7``, ``s0 spot 2``,
    ``s0 anchor``, ``s0 rest``, ``s0 dive boat0``, ``s1 join``, ``s1 decline``, ``s0 draw``, ``s0 stop``,
    ``s1 leave``, ``s1 play 23``, ``s1 protect spot``, ``s1 protect card 12``.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a Deep Blue move is text such as 's0 draw', not {text!r}")
    whole = text
    m = _MOVE_RE.match(" ".join(text.strip().lower().split())[:200])
    if not m:
        raise InvalidMoveError(f"not a Deep Blue move: {whole!r} (moves start with the seat, e.g. 's0 draw')")
    seat, rest = int(m.group(1)), m.group(2)
    words = rest.split(" ")
    try:
        if rest in _SIMPLE:
            return _SIMPLE[rest](seat)
        if words[0] == "hire" and len(words) == 4 and words[2] == "pay" and (words[1].isascii() and words[1].isdigit()):
            cards, tokens = _parse_pay(words[3], whole)
            return Hire(seat, int(words[1]), cards, tokens)
        if words[0] == "sail" and len(words) == 2:
            cards, tokens = _parse_pay(words[1], whole)
            return SetSail(seat, cards, tokens)
        if (words[0] == "move" and len(words) == 4 and re.fullmatch(r"boat[01]", words[1]) and words[2] == "to"
                and (words[3].isascii() and words[3].isdigit()) and len(words[3]) <= 4):
            return MoveBoat(seat, int(words[1][4]), int(words[3]))
        if words[0] == "spot" and len(words) == 2 and words[1] in ("0", "1", "2"):
            return ChooseSpot(seat, int(words[1]))
        if words[0] == "dive" and len(words) == 2 and re.fullmatch(r"boat[01]", words[1]):
            return StartDive(seat, int(words[1][4]))
        if words[0] == "play" and len(words) == 2 and (words[1].isascii() and words[1].isdigit()) and len(words[1]) <= 4:
            return PlayCard(seat, int(words[1]))
        if words[0] == "protect" and words[1:] == ["spot"]:
            return Protect(seat, None)
        if words[0] == "protect" and len(words) == 3 and words[1] == "card" and (words[2].isascii() and words[2].isdigit()) and len(words[2]) <= 4:
            return Protect(seat, int(words[2]))
    except IndexError:
        pass
    raise InvalidMoveError(f"not a Deep Blue move: {whole!r}")
