"""A game as a short text: the game's name, its seed, its options and its moves — a shareable code and link.

Generic over every engine: a move is written as ``str(move)`` and read back with ``engine.parse_move``
(the contract says they round-trip; ``tests/test_contract.py`` checks it). The code is the query of the
table's link, so a pasted code, a ``?code=…`` and a whole link all open the same game::

    game=tiny&seed=3&o.players=2&m=0+take+2&m=1+take+1

Options are JSON values (``o.players=4``, ``o.mode="solo"``). Codes are untrusted: anything unreadable
raises :class:`GameCodeError` with a message key saying why (shown in the page's language); every move is
checked by the engine when the game is replayed (:func:`replay_code`), and the first refused one is named.

>>> code = game_code("tiny", 3, {"players": 2}, ["0 take 2", "1 take 1"])
>>> code
'game=tiny&seed=3&o.players=2&m=0+take+2&m=1+take+1'
>>> parse_game_code("https://example.org/t.ipynb?lang=ja&code=" + urllib.parse.quote(code), "tiny")
GameCode(game='tiny', seed=3, options={'players': 2}, moves=('0 take 2', '1 take 1'))
>>> parse_game_code("game=crew&seed=1", "tiny")
Traceback (most recent call last):
...
toolkit.widgets.table.code.GameCodeError: table.code.other_game {'found': 'crew', 'game': 'tiny'}
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toolkit.core.engine import Engine
from toolkit.core.errors import IllegalMoveError, RuleError
from toolkit.core.session import Session

#: the longest code (or link) read; longer ones are refused, not cut
MAX_CODE_LENGTH = 20_000
#: the most moves a code may hold
MAX_CODE_MOVES = 2_000
#: the longest single move text
MAX_MOVE_TEXT = 200
MAX_SEED = 2**31 - 1
_OPTION_PREFIX = "o."


class GameCodeError(RuleError):
    """A code that cannot be opened; ``key``/``params`` give the reason as a ``table.code.*`` message."""

    def __init__(self, key: str, **params: Any):
        super().__init__(f"{key} {params}")
        self.key, self.params = key, params

    def text(self, lang: str = "en") -> str:
        from toolkit.core import i18n
        return i18n.translate(self.key, lang, self.params)


@dataclass(frozen=True)
class GameCode:
    """What a code holds: ``game`` name, ``seed``, ``options`` and the ``moves`` as texts."""

    game: str
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    def text(self) -> str:
        return game_code(self.game, self.seed, self.options, self.moves)


def game_code(game: str, seed: int, options: Mapping[str, Any], moves: Sequence[Any]) -> str:
    """The code of a game: ``game=…&seed=…&o.<option>=<json>&m=<move>&m=…`` (moves as ``str(move)``)."""
    if not isinstance(game, str) or not game:
        raise TypeError(f"game must be a game's name, not {game!r:.60}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise TypeError(f"seed must be a whole number from 0 to {MAX_SEED}, not {seed!r:.60}")
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a mapping of option names to values, not {options!r:.60}")
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Sequence):
        raise TypeError(f"moves must be a sequence of moves, not {moves!r:.60}")
    pairs: list[tuple[str, str]] = [("game", str(game)), ("seed", str(int(seed)))]
    for name in sorted(options):
        pairs.append((_OPTION_PREFIX + str(name), json.dumps(options[name], ensure_ascii=False, separators=(",", ":"))))
    pairs += [("m", str(m)) for m in moves]
    return urllib.parse.urlencode(pairs)


def parse_game_code(text: Any, game: str | None = None) -> GameCode:
    """Read a pasted code, ``?code=`` value or whole link (untrusted). With ``game``, a code of another game
    is refused. Raises :class:`GameCodeError` only."""
    if not isinstance(text, str) or not text.strip():
        raise GameCodeError("table.code.empty")
    if len(text) > MAX_CODE_LENGTH:
        raise GameCodeError("table.code.too_long", n=len(text), max=MAX_CODE_LENGTH)
    text = text.strip().split("#", 1)[0]
    if "?" in text:
        text = text.split("?", 1)[1]
    try:
        pairs = urllib.parse.parse_qsl(text, keep_blank_values=True, strict_parsing=False,
                                       max_num_fields=MAX_CODE_MOVES + 60)
    except ValueError:
        raise GameCodeError("table.code.too_many_moves", max=MAX_CODE_MOVES) from None
    if any(k == "code" for k, _ in pairs):   # a link whose query carries ?code=<the code>
        inner = [v for k, v in pairs if k == "code"][-1]
        return parse_game_code(inner, game)
    fields: dict[str, str] = {}
    options: dict[str, Any] = {}
    moves: list[str] = []
    for key, value in pairs:
        if key == "m":
            if len(value) > MAX_MOVE_TEXT:
                raise GameCodeError("table.code.bad_move", n=len(moves) + 1, move=_shown(value))
            moves.append(value)
        elif key.startswith(_OPTION_PREFIX):
            name = key[len(_OPTION_PREFIX):]
            if not name.isidentifier() or len(name) > 40 or len(value) > 200:
                raise GameCodeError("table.code.bad_option", name=_shown(name), value=_shown(value))
            try:
                parsed = json.loads(value)
            except ValueError:
                raise GameCodeError("table.code.bad_option", name=name, value=_shown(value)) from None
            if not isinstance(parsed, (int, float, str, bool)) and parsed is not None:
                raise GameCodeError("table.code.bad_option", name=name, value=_shown(value))
            options[name] = parsed
        elif key in ("game", "seed"):
            fields[key] = value
    if "game" not in fields or "seed" not in fields:
        raise GameCodeError("table.code.not_code")
    if game is not None and fields["game"] != game:
        raise GameCodeError("table.code.other_game", found=_shown(fields["game"]), game=game)
    raw = fields["seed"].strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12) or not 0 <= int(raw) <= MAX_SEED:
        raise GameCodeError("table.code.bad_seed", value=_shown(raw), max=MAX_SEED)
    if len(moves) > MAX_CODE_MOVES:
        raise GameCodeError("table.code.too_many_moves", max=MAX_CODE_MOVES)
    return GameCode(fields["game"], int(raw), options, tuple(moves))


def replay_code(engine: Engine, code: GameCode | str) -> Session:
    """The session a code describes, every move checked by the engine (on a new session: nothing else
    changes). A refused setup or move raises :class:`GameCodeError` naming it (and the rule's reason)."""
    if isinstance(code, str):
        code = parse_game_code(code, engine.name)
    if code.game != engine.name:
        raise GameCodeError("table.code.other_game", found=_shown(code.game), game=engine.name)
    try:
        session = Session(engine, code.seed, dict(code.options))
    except RuleError as exc:
        raise GameCodeError("table.code.bad_setup", detail=_shown(str(exc), 160)) from None
    except TypeError as exc:   # an option the game does not take
        raise GameCodeError("table.code.bad_setup", detail=_shown(str(exc), 160)) from None
    for n, text in enumerate(code.moves, 1):
        try:
            session.push(engine.parse_move(text.strip()))
        except IllegalMoveError as exc:
            raise GameCodeError("table.code.refused_move", n=n, move=_shown(text), reason=exc.violation,
                                 rule=exc.violation.rule) from None
        except RuleError:
            raise GameCodeError("table.code.bad_move", n=n, move=_shown(text)) from None
    return session


def session_code(session: Session) -> str:
    """The code of a session as it stands."""
    return game_code(session.engine.name, session.seed, session.options, session.moves)


def _shown(text: Any, limit: int = 40) -> str:
    """An untrusted text fit to quote in a message: printable characters, cut."""
    out = "".join(ch for ch in str(text)[:limit] if ch.isprintable())
    return out + ("…" if len(str(text)) > limit else "")
