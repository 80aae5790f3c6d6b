"""The error family. Every refusal the toolkit raises is a :class:`RuleError`.

``RuleError`` subclasses ``ValueError`` so callers that only know the standard library still catch it.
Messages quote the offending input (python-chess style) so a learner or a log reader sees what was wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from toolkit.core.explain import Violation


class RuleError(ValueError):
    """Root of every error the toolkit raises on purpose."""


class IllegalMoveError(RuleError):
    """A well-formed move that the rules do not allow in this state.

    Carries the :class:`~toolkit.core.explain.Violation` that says why; ``str(error)`` is its English
    message.
    """

    def __init__(self, violation: "Violation"):
        self.violation = violation
        super().__init__(violation.message)

    @property
    def rule(self) -> str:
        return self.violation.rule

    @property
    def code(self) -> str:
        return self.violation.code


class InvalidMoveError(RuleError):
    """Malformed input: text that is not a move, a card that does not exist, an index out of range."""


class InvalidStateError(RuleError):
    """A saved or constructed state that is not a state of this game (bad JSON, broken invariant)."""


class InvalidOptionError(RuleError):
    """A bad option to ``new_state``: a player count, mission, variant or scenario the game does not have, an
    unknown option name, a seed that is not a whole number from 0 to 2**128 - 1. Every game raises this
    class for these mistakes; the message names the option and quotes the value."""


class InvalidSeatError(RuleError):
    """A seat that is not a seat of this game (out of range, or not a whole number) given to ``observe``,
    ``legal_moves`` or a table. Every game raises this class; the message quotes the value."""


class UnknownRuleError(RuleError):
    """A rule id that is not in the rule registry."""


class UnknownLanguageError(RuleError):
    """A language code other than the supported ones (``en``, ``ja``)."""


class DataError(RuleError):
    """Component data (user-editable JSON/TOML) that fails validation; the message names the field."""
