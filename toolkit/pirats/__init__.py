"""Sewer Pirats (Andreas Pelikan; Heidelberger Spieleverlag 2011): the rules engine, scoring and boarding.

Public API (see DESIGN.md): :func:`score`, :func:`crew_move_destination`, the engine :data:`ENGINE`
(``new_state``, ``legal_moves``, ``why_illegal``, ``apply``, ``observe`` ...), moves and their parser.
Imports no widgets or plotting libraries.
"""

from toolkit.pirats.boarding import crew_move_destination, crew_path
from toolkit.pirats.bots import BOTS, CautiousBot, GreedyBot
from toolkit.pirats.coach import MoveEffect, move_effects
from toolkit.pirats.engine import ENGINE, PiratsEngine, SetupError
from toolkit.pirats.model import (CAPTAIN, COLOURS, SHIPS, SPECIES, VARIANTS, Auction, BecomeCaptain, Bid, Discard,
                                  Draw, Flotsam, MovePirat, OpenAuction, Pass, Pay, Pirat, PiratsState, Sailing,
                                  SetSail, Ship, SnailStep, Stay, TakeLoot, figure_label, parse_move)
from toolkit.pirats.tokens import (BONUS_KINDS, DEFAULT_BOX, LOOT_KINDS, Box, ScoreLine, ScoreSheet, Token,
                                   load_box, score, score_sheet)

new_state = ENGINE.new_state
legal_moves = ENGINE.legal_moves
why_illegal = ENGINE.why_illegal
apply = ENGINE.apply
transition = ENGINE.transition
observe = ENGINE.observe
outcome = ENGINE.outcome
is_over = ENGINE.is_over
current_player = ENGINE.current_player

__all__ = [
    "BONUS_KINDS", "BOTS", "CAPTAIN", "COLOURS", "DEFAULT_BOX", "ENGINE", "LOOT_KINDS", "SHIPS", "SPECIES", "VARIANTS",
    "Auction", "BecomeCaptain", "Bid", "Box", "CautiousBot", "Discard", "Draw", "Flotsam", "GreedyBot", "MoveEffect", "MovePirat", "OpenAuction", "Pass",
    "Pay", "Pirat", "PiratsEngine", "PiratsState", "Sailing", "ScoreLine", "ScoreSheet", "SetSail", "SetupError",
    "Ship", "SnailStep", "Stay", "TakeLoot", "Token", "apply", "crew_move_destination", "crew_path", "current_player",
    "figure_label", "is_over", "legal_moves", "load_box", "move_effects", "new_state", "observe", "outcome", "parse_move",
    "score", "score_sheet", "transition", "why_illegal",
]
