"""Game-agnostic core: errors and explanations, the rule registry, i18n, seeded chance, the engine shape,
sessions (history, undo, replay) and JSON save/load. Imports nothing from widgets or plotly."""

from toolkit.core.chance import Chance, fresh_seed, make_rng
from toolkit.core.engine import Engine
from toolkit.core.errors import (DataError, IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidSeatError,
                                 InvalidStateError, RuleError, UnknownLanguageError, UnknownRuleError)
from toolkit.core.explain import Event, Outcome, Violation
from toolkit.core.i18n import LANGUAGES, Term, translate
from toolkit.core.rules import RuleInfo, get as get_rule, registry as rule_registry
from toolkit.core.session import Session, Step

__all__ = [
    "Chance", "DataError", "Engine", "Event", "IllegalMoveError", "InvalidMoveError", "InvalidOptionError",
    "InvalidSeatError", "InvalidStateError",
    "LANGUAGES", "Outcome", "RuleError", "RuleInfo", "Session", "Step", "Term", "UnknownLanguageError",
    "UnknownRuleError", "Violation", "fresh_seed", "get_rule", "make_rng", "rule_registry", "translate",
]
