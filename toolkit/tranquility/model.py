"""Options and the game state (immutable, JSON-serialisable)."""

from __future__ import annotations

from dataclasses import dataclass

from toolkit.core.chance import Chance
from toolkit.core import errors
from toolkit.core.errors import InvalidStateError
from toolkit.core.checks import one_of

#: island-removal variants: name -> islands set aside face down before dealing (finish cards kept out first)
REMOVAL_VARIANTS = {"none": 0, "galateia": 4, "triton": 6, "leucothea": 8, "amphitrite": 10, "poseidon": 12}

#: The box holds 20 "Stormy Seas" cards but the split between rocks, monsters, storm colours and compasses
#: is not published. These defaults are ILLUSTRATIVE (the rules imply ≥1 rock, 5 monsters, 6 storms and
#: 6 compasses); the storm colour split is a user-editable option.
ILLUSTRATIVE_STORM_COLOURS = (2, 2, 2)  # yellow, purple, orange
ILLUSTRATIVE_COMPASSES = 6
EXPANSION_CARDS = 20

PHASE_PLAY = "play"
PHASE_ROCK = "rock"
PHASE_START_DISCARD = "start-discard"
PHASE_STORM = "storm"
PHASE_OVER = "over"
PHASES = (PHASE_PLAY, PHASE_ROCK, PHASE_START_DISCARD, PHASE_STORM, PHASE_OVER)


class InvalidOptionError(errors.InvalidOptionError, InvalidStateError):
    """A game option outside what the rules allow (player count, variant name, expansion card counts).
    The shared :class:`toolkit.core.InvalidOptionError` of every game; still an ``InvalidStateError`` for
    callers written before it."""


@dataclass(frozen=True)
class Options:
    """How a game is set up. Every field is validated on construction.

    ``short_hand_loss``: the Japanese text lists "only 1 or 0 cards in hand at the start of a turn" as a
    loss; the English rulebook does not. On by default, as the Japanese text says. A seat that can play a
    winning finish card is not caught by it: that turn is a win (DESIGN.md ruling).

    ``cost_limit``: ``"english"`` (default, the English rulebook v1.0: a play may cost every card left in hand
    after playing it) or ``"japanese"`` (the Japanese text's literal 「4枚以上…置くことはできません」: at most 3).
    """

    players: int = 2
    removal: str = "none"
    start_player: str = "fewest"  # or "random"
    short_hand_loss: bool = True
    cost_limit: str = "english"
    rocks: bool = False
    monsters: int = 0  # 0, 3, 4 or 5 (!!/!!! difficulty)
    storms: bool = False
    storm_colours: tuple[int, int, int] = ILLUSTRATIVE_STORM_COLOURS
    compasses: int = ILLUSTRATIVE_COMPASSES

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int) or not 1 <= self.players <= 5:
            raise InvalidOptionError(f"players={self.players!r}: Tranquility is for 1 to 5 players")
        if not one_of(self.removal, REMOVAL_VARIANTS):
            raise InvalidOptionError(f"removal={self.removal!r}: use one of {', '.join(REMOVAL_VARIANTS)}")
        if not one_of(self.start_player, ("fewest", "random")):
            raise InvalidOptionError(f"start_player={self.start_player!r}: use 'fewest' or 'random'")
        if not one_of(self.cost_limit, ("english", "japanese")):
            raise InvalidOptionError(f"cost_limit={self.cost_limit!r}: use 'english' (at most the cards left in "
                                     "hand) or 'japanese' (the Japanese text's literal reading: at most 3)")
        for name in ("short_hand_loss", "rocks", "storms"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionError(f"{name}={getattr(self, name)!r} must be true or false")
        if not one_of(self.monsters, (0, 3, 4, 5)) or isinstance(self.monsters, bool):
            raise InvalidOptionError(f"monsters={self.monsters!r}: the rules use 3, 4 or 5 sea monsters (or 0)")
        if isinstance(self.storm_colours, (str, bytes, dict)) or not hasattr(self.storm_colours, "__iter__"):
            raise InvalidOptionError(f"storm_colours={self.storm_colours!r}: three counts (yellow, purple, "
                                     "orange) adding up to the 6 storm cards")
        colours = tuple(self.storm_colours)
        if (len(colours) != 3 or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in colours)
                or sum(colours) != 6):
            raise InvalidOptionError(f"storm_colours={self.storm_colours!r}: three counts (yellow, purple, "
                                     "orange) adding up to the 6 storm cards")
        object.__setattr__(self, "storm_colours", colours)
        if isinstance(self.compasses, bool) or not isinstance(self.compasses, int) or not 0 <= self.compasses <= 14:
            raise InvalidOptionError(f"compasses={self.compasses!r}: 0 to 14 (the box has 20 expansion cards)")
        used = int(self.rocks) + self.monsters + (6 + self.compasses if self.storms else 0)
        if used > EXPANSION_CARDS:
            raise InvalidOptionError(f"these options use {used} expansion cards; the box has {EXPANSION_CARDS}")

    @property
    def removed_islands(self) -> int:
        return REMOVAL_VARIANTS[self.removal]


@dataclass(frozen=True)
class TranquilityState:
    """A position. Cards are ints (see :mod:`toolkit.tranquility.cards`); piles are top-first tuples.

    ``seat`` is who must act now; ``turn_seat`` whose turn it is (they differ while the table splits the
    start-card discards or a storm drawn by someone is resolved).
    """

    options: Options
    chance: Chance
    cells: tuple[int, ...]
    start_space: bool
    hands: tuple[tuple[int, ...], ...]
    piles: tuple[tuple[int, ...], ...]
    discards: tuple[tuple[int, ...], ...]
    removed: tuple[int, ...] = ()          # islands set aside face down by a removal variant
    out_of_game: tuple[int, ...] = ()      # monsters and the cards they destroyed, spent storms and compasses
    seat: int = 0
    turn_seat: int = 0
    phase: str = PHASE_PLAY
    turn: int = 1
    played: tuple[int, ...] = ()           # occupied cells in the order they were played (monster targets)
    rock_row: int = -1                     # -1: no jagged rock on the table
    purple_rows: tuple[int, ...] = ()
    yellow: tuple[int, ...] = ()           # yellow storms in front of each seat
    orange: tuple[int, ...] = ()           # orange storms in front of each seat
    compass_pool: int = 0                  # compasses earned and waiting beside the grid (shared)
    compass_supply: int = 0                # compasses not yet earned
    rewarded_rows: tuple[int, ...] = ()    # rows that already earned a compass for consecutive numbers
    storm: int = 0                         # a storm card drawn and waiting to be resolved
    draws: tuple[tuple[int, int], ...] = ()  # pending draws: (seat, n) with n > 0 "draw n", 0 "refill"
    after_draws: str = ""                  # what follows the pending draws: "start-discard" or "next-turn"
    start_discard_left: int = 0
    start_discard_seats: tuple[int, ...] = ()
    unseen_discards: tuple[tuple[int, ...], ...] = ()  # per seat: the blind cards (yellow storm) among its
                                                        # discards, which even their owner never saw
    result: str = ""                       # "", "win" or "loss"
    result_code: str = ""
    result_rule: str = ""
    result_seat: int = -1

    @property
    def players(self) -> int:
        return self.options.players

    def __post_init__(self) -> None:
        if not one_of(self.phase, PHASES):
            raise InvalidStateError(f"state.phase: expected one of {', '.join(PHASES)}, got {self.phase!r}")
