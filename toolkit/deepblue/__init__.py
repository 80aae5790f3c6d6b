"""Deep Blue (Pedersen & Granerud; Days of Wonder 2019): exact gem-bag risk, the optimal stopping policy,
and the full game engine.

Public API (``shared/DESIGN.md``)::

    from toolkit.deepblue import SETUP_BAG, bust_chance, survival
    survival(SETUP_BAG, 2)                 # Fraction(53, 57)
    bust_chance(SETUP_BAG, drawn=["black"])   # Fraction(4, 19)

The engine follows the toolkit's shape (``ENGINE.new_state(seed, players=3)``, ``legal_moves``,
``why_illegal``, ``apply``…). Components (board, wreck tiles, crew cards, scenarios) are validated data;
unknown facts ship as labelled illustrative defaults (``load_components``).
"""

from toolkit.deepblue.components import (Components, CrewCard, Scenario, WreckTile, default_components,
                                         load_components, load_components_file)
from toolkit.deepblue.engine import ENGINE, DeepBlueEngine, gem_total
from toolkit.deepblue.gems import (COLOURS, GEM_VP, HAZARDS, SETUP_BAG, SETUP_SUPPLY, SPOT_GEM_VP, SPOT_KINDS,
                                   GemInputError, gem_counts)
from toolkit.deepblue.model import (Anchor, ChooseSpot, Decline, DeepBlueState, DrawGem, Hire, Join, Leave,
                                    MoveBoat, PlayCard, Protect, Rest, SetSail, StartDive, Stop, parse_move)
from toolkit.deepblue.risk import (DivePolicy, VPDistribution, bust_chance, expected_vp, monte_carlo_policy,
                                   monte_carlo_survival, optimal_policy, survival, survival_curve, vp_distribution)

from toolkit.deepblue.bots import BOTS  # noqa: E402  (after the engine: the bots use it)

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
    "ENGINE", "BOTS", "DeepBlueEngine", "DeepBlueState", "SETUP_BAG", "SETUP_SUPPLY", "COLOURS", "HAZARDS", "GEM_VP",
    "SPOT_GEM_VP", "SPOT_KINDS", "GemInputError", "gem_counts", "gem_total", "bust_chance", "survival",
    "survival_curve", "vp_distribution", "expected_vp", "optimal_policy", "DivePolicy", "VPDistribution",
    "monte_carlo_survival", "monte_carlo_policy", "Components", "CrewCard", "Scenario", "WreckTile",
    "default_components", "load_components", "load_components_file", "Hire", "SetSail", "MoveBoat", "ChooseSpot",
    "Anchor", "Rest", "StartDive", "Join", "Decline", "DrawGem", "Stop", "Leave", "PlayCard", "Protect",
    "parse_move", "new_state", "legal_moves", "why_illegal", "apply", "transition", "is_over", "outcome",
    "observe", "current_player",
]
