"""Tranquility (James Emmerson; Board Game Hub 2019): the cooperative number-placement game.

The engine follows the project's engine shape (``ENGINE.new_state``, ``legal_moves``, ``why_illegal``,
``apply``…); the public analysis API is :func:`placement_cost`, :func:`why_illegal_placement` and
:func:`feasibility`. Grid cells are indexed 0–35 in sequence order (0 bottom-left, 35 top-right).
"""

from toolkit.tranquility.analysis import Feasibility, Gap, feasibility
from toolkit.tranquility.cards import (CELLS, FINISH, MONSTER, START, STORM_ORANGE, STORM_PURPLE, STORM_YELLOW,
                                       card_name, parse_card)
from toolkit.tranquility.engine import ENGINE, TranquilityEngine
from toolkit.tranquility.grid import neighbours, placement_cost, why_illegal_placement
from toolkit.tranquility.model import REMOVAL_VARIANTS, InvalidOptionError, Options, TranquilityState
from toolkit.tranquility.moves import (DiscardHand, DiscardTwo, MoveRock, PlaceIsland, PlayFinish, PlayMonster,
                                       PlayStart, ResolveStorm, RockDiscard, StartDiscard, UseCompass, parse_move)

from toolkit.tranquility.bots import BOTS  # noqa: E402  (needs the engine above)

new_state = ENGINE.new_state
legal_moves = ENGINE.legal_moves
why_illegal = ENGINE.why_illegal
apply = ENGINE.apply
transition = ENGINE.transition
is_over = ENGINE.is_over
outcome = ENGINE.outcome
observe = ENGINE.observe
current_player = ENGINE.current_player

__all__ = [
    "BOTS", "CELLS", "DiscardHand", "DiscardTwo", "ENGINE", "FINISH", "Feasibility", "Gap", "InvalidOptionError",
    "MONSTER", "MoveRock", "Options", "PlaceIsland", "PlayFinish", "PlayMonster", "PlayStart",
    "REMOVAL_VARIANTS", "ResolveStorm", "RockDiscard", "START", "STORM_ORANGE", "STORM_PURPLE", "STORM_YELLOW",
    "StartDiscard", "TranquilityEngine", "TranquilityState", "UseCompass", "apply", "card_name",
    "current_player", "feasibility", "is_over", "legal_moves", "neighbours", "new_state", "observe", "outcome",
    "parse_card", "parse_move", "placement_cost", "transition", "why_illegal", "why_illegal_placement",
]
