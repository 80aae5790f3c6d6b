"""What a shared table refuses. Every refusal is a :class:`~toolkit.core.errors.RuleError` whose message
names the table, the seat or the index involved; a refusal never writes anything."""

from __future__ import annotations

from toolkit.core.errors import InvalidStateError, RuleError


class TableError(RuleError):
    """Root of the shared tables' refusals."""


class UnknownTableError(TableError):
    """No table has this code (mistyped, or the store was reset)."""


class StaleMoveError(TableError):
    """The move was for index ``index`` but the log already holds ``length`` moves: someone moved first.
    The page reloads the log and shows the new state."""

    def __init__(self, code: str, index: int, length: int):
        self.code, self.index, self.length = code, index, length
        super().__init__(f"table {code}: move {index} is stale, the log already has {length} moves "
                         "(someone moved first)")


class SeatTakenError(TableError):
    """The seat is already claimed by someone else, or it is a bot's seat."""


class TokenError(TableError):
    """The token does not hold the seat (or a person's seat was used without a token)."""


class NotYourMoveError(TableError):
    """A legal move, but another seat makes it now."""


class CorruptLogError(InvalidStateError, TableError):
    """A stored entry that is not a move of this game, or not legal where it stands: the log was edited
    or written by something else. Refused when read, naming the entry."""
