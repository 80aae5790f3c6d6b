"""Shared tables: several people on their own devices at one game (``toolkit.tables``).

A game is ``(game, seed, options, moves)``, so a table shared by several devices is an **append-only move
log** that every visitor's kernel replays; each page shows only ``observe(state, its seat)``.

>>> store = open_store("sqlite:///:memory:")
>>> code = store.create("crew", 8, {"players": 3, "mission": 1}, ["human", "expert", "expert"])
>>> token = store.claim(code, 0)
>>> store.view(code, 0, token)["seat"]
0
>>> store.moves(code)
[]

* :func:`open_store` — SQLite by default (one file, no set-up, WAL), ``postgresql://…`` for kernels on
  several machines; the same behaviour through the same tests (``tests/tables``).
* ``store.append(code, index, move, seat, token)`` appends only if ``index`` is the log's length (else
  :class:`StaleMoveError`: someone moved first), the move is legal, ``seat`` makes it and ``token`` holds
  that seat — checked inside one transaction; a refusal writes nothing.
* Bot seats are played by whichever kernel asks first (:meth:`TableStore.play_bots`): a bot's move is a
  function of the log and the seed, and a second append of the same index is refused as stale, harmlessly.

Hidden information: :meth:`TableStore.view` needs the seat's token; the whole state (every hand) is given
only once the game (the Crew: the attempt) is over (:meth:`TableStore.final_state`).
"""

from toolkit.tables.errors import (CorruptLogError, NotYourMoveError, SeatTakenError, StaleMoveError, TableError,
                                   TokenError, UnknownTableError)
from toolkit.tables.store import GAMES, SeatInfo, TableInfo, TableStore, default_url, due_bot_decision, open_store

__all__ = [
    "due_bot_decision",
    "CorruptLogError", "GAMES", "NotYourMoveError", "SeatInfo", "SeatTakenError", "StaleMoveError", "TableError",
    "TableInfo", "TableStore", "TokenError", "UnknownTableError", "default_url", "open_store",
]
