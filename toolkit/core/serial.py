"""JSON save/load for any engine value, driven by dataclass type hints.

``to_jsonable(value)`` turns frozen dataclasses, tuples, frozensets, dicts, enums and ``Fraction``s into
JSON data; ``from_jsonable(data, type_)`` rebuilds them and raises :class:`InvalidStateError` naming the
path of the first bad field (``state.hands[2][3]: expected int, got 'x'``). A class may define
``to_json(self)`` and a classmethod ``from_json(cls, data)`` to choose its own form (cards are ``"P9"``).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from fractions import Fraction
from functools import lru_cache
from typing import Any

from toolkit.core.errors import InvalidStateError, RuleError


def to_jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    to_json = getattr(value, "to_json", None)
    if callable(to_json) and not isinstance(value, type):
        return to_json()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        return str(value)
    if dataclasses.is_dataclass(value):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((to_jsonable(v) for v in value), key=lambda x: json.dumps(x, sort_keys=True))
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: to_jsonable(v) for k, v in value.items()}
        return [[to_jsonable(k), to_jsonable(v)] for k, v in value.items()]
    raise TypeError(f"cannot serialise {type(value).__name__}: {value!r}")


@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _fail(path: str, expected: str, data: Any) -> InvalidStateError:
    shown = repr(data)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return InvalidStateError(f"{path}: expected {expected}, got {shown}")


def from_jsonable(data: Any, tp: Any, path: str = "state") -> Any:
    """Rebuild a value of type ``tp`` from JSON data, or raise :class:`InvalidStateError`."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return data
    if tp is type(None):
        if data is not None:
            raise _fail(path, "null", data)
        return None
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in args:
            try:
                return from_jsonable(data, option, path)
            except InvalidStateError as exc:
                errors.append(str(exc))
        raise InvalidStateError(errors[-1] if errors else f"{path}: no type matches {data!r}")
    if origin is typing.Literal:
        if data not in args:
            raise _fail(path, " or ".join(map(repr, args)), data)
        return data
    if tp is bool:
        if not isinstance(data, bool):
            raise _fail(path, "true or false", data)
        return data
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise _fail(path, "an integer", data)
        return data
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            raise _fail(path, "a number", data)
        return float(data)
    if tp is str:
        if not isinstance(data, str):
            raise _fail(path, "a string", data)
        return data
    if tp is Fraction:
        try:
            return Fraction(data)
        except (TypeError, ValueError, ZeroDivisionError):
            raise _fail(path, "a fraction such as '3/4'", data) from None
    if isinstance(tp, type) and callable(getattr(tp, "from_json", None)):
        try:
            return tp.from_json(data)
        except InvalidStateError as exc:
            raise InvalidStateError(f"{path}: {exc}") from None
        except (RuleError, TypeError, ValueError, KeyError, AttributeError) as exc:
            raise InvalidStateError(f"{path}: not a valid {tp.__name__}: {data!r} ({exc})") from None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            raise _fail(path, " or ".join(repr(m.value) for m in tp), data) from None
    if dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise _fail(path, f"an object for {tp.__name__}", data)
        hints = _hints(tp)
        fields = {f.name: f for f in dataclasses.fields(tp) if f.init}
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise InvalidStateError(f"{path}: unknown field(s) {', '.join(map(repr, unknown))} for {tp.__name__}")
        kwargs = {}
        for name, f in fields.items():
            if name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise InvalidStateError(f"{path}: missing field {name!r} for {tp.__name__}")
                continue
            kwargs[name] = from_jsonable(data[name], hints[name], f"{path}.{name}")
        try:
            return tp(**kwargs)
        except RuleError as exc:
            raise InvalidStateError(f"{path}: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise InvalidStateError(f"{path}: invalid {tp.__name__}: {exc}") from None
    if origin in (tuple, list, frozenset, set):
        if not isinstance(data, list):
            raise _fail(path, "a list", data)
        if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(data):
                raise _fail(path, f"a list of {len(args)} items", data)
            return tuple(from_jsonable(d, a, f"{path}[{i}]") for i, (a, d) in enumerate(zip(args, data)))
        item = args[0] if args else Any
        items = [from_jsonable(d, item, f"{path}[{i}]") for i, d in enumerate(data)]
        return {tuple: tuple, list: tuple, frozenset: frozenset, set: frozenset}[origin](items)
    if origin in (dict, typing.Mapping) or tp is dict:
        kt, vt = args if args else (Any, Any)
        if isinstance(data, dict):
            pairs = list(data.items())
            if kt is int:  # JSON object keys are strings
                try:
                    pairs = [(int(k), v) for k, v in pairs]
                except ValueError:
                    raise _fail(path, "integer keys", data) from None
        elif isinstance(data, list) and all(isinstance(p, list) and len(p) == 2 for p in data):
            pairs = [tuple(p) for p in data]
        else:
            raise _fail(path, "an object", data)
        return {from_jsonable(k, kt, f"{path}<key>"): from_jsonable(v, vt, f"{path}[{k!r}]") for k, v in pairs}
    raise InvalidStateError(f"{path}: cannot load type {tp!r}")


def dumps(value: Any) -> str:
    """A value as a JSON string (UTF-8 text, Japanese kept readable)."""
    return json.dumps(to_jsonable(value), ensure_ascii=False, sort_keys=False)


def loads(text: str | bytes, tp: Any) -> Any:
    """Parse JSON text into a value of ``tp``; :class:`InvalidStateError` for anything malformed."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError, UnicodeDecodeError) as exc:
        raise InvalidStateError(f"not valid JSON: {exc}") from None
    return from_jsonable(data, tp)
