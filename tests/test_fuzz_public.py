"""Hostile input against every public callable of the game packages (issue 18, items 10 and 11).

**What is fuzzed.** Found, not listed: every name in the ``__all__`` of ``toolkit.core``, ``toolkit.crew``,
``toolkit.tranquility``, ``toolkit.deepblue`` and ``toolkit.pirats``, and of the game packages' submodules
that declare an ``__all__`` (a module's public surface is exactly its ``__all__``; the core's submodules are
machinery, its API is the package's list). Of each name:

* a function (or a bound method such as ``new_state = ENGINE.new_state``) is called;
* a class is constructed (abstract classes and exception classes are left out: they cannot or may take
  anything);
* an instance of a toolkit class (``ENGINE``, ``DEFAULT_BOX``) has each public method called, and so do
  the sample instances the test builds from valid calls (every package's start state, a Deep Blue
  :class:`DivePolicy`).

A new public function or class is therefore fuzzed as soon as it is listed in an ``__all__``.

**With what.** Each parameter independently gets a hostile value (wrong types, ``None``, bools, NaN and
±inf, huge and negative numbers, non-ASCII digits, bytes, unhashable lists/dicts/sets, empty and enormous
containers, objects of no known kind) or, when the parameter's name is one the test knows (``state``,
``move``, ``seed``, ``bag``, ``lang`` …), a valid value of that package, so that a hostile value in one
argument reaches code past the checks of the others; a parameter with a default may also be left out.

**What may escape.** A call may return anything. It may raise

* a :class:`~toolkit.core.errors.RuleError` (any subclass) with a non-empty message, or
* a ``TypeError`` whose message names one of the callable's parameters (as a whole word): the rule for an
  argument of the wrong type.

Anything else (``AttributeError``, ``KeyError``, ``IndexError``, a bare ``ValueError``, ``OverflowError``,
``ZeroDivisionError``, ``MemoryError``, ``RecursionError``, a ``TypeError`` that names no parameter …)
fails the test with the callable and its arguments.

**No call over 2 s.** Each call runs under a CPU-time timer (``ITIMER_PROF``: this process's CPU seconds,
which other processes on a loaded CI machine do not inflate) of 2 s, and a wall-clock alarm of 30 s for
calls that wait instead of compute. The size guards make the enormous inputs refuse at once, so the
typical call takes microseconds and the limit has a margin of about a hundred on this machine.

**Deterministic and bounded.** ``derandomize=True``, no example database, no shrinking, ``EXAMPLES``
examples per callable.

**Known gaps.** ``KNOWN_GAPS`` lists the callables that still leak, each with its reason; they run as
non-strict xfails, so the owner's fix turns them green without touching this file. ``NOT_FUZZED`` lists
the few that run for minutes or start processes by design (a study), with the reason.
"""

from __future__ import annotations

import importlib
import inspect
import math
import pkgutil
import re
import signal
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from toolkit.core.errors import RuleError

PACKAGES = ("toolkit.core", "toolkit.crew", "toolkit.tranquility", "toolkit.deepblue", "toolkit.pirats")
EXAMPLES = 20
CPU_LIMIT_S = 2.0
WALL_LIMIT_S = 30.0


# ---- discovery ----------------------------------------------------------------------------------------
def _public_modules(package: str) -> list:
    root = importlib.import_module(package)
    modules = [root]
    if package == "toolkit.core":
        # the core's submodules (bots, serial, golden …) are machinery the games build on; its public API
        # is what the package itself lists
        return modules
    for info in pkgutil.iter_modules(root.__path__):
        if not info.name.startswith("_"):
            module = importlib.import_module(f"{package}.{info.name}")
            if hasattr(module, "__all__"):
                modules.append(module)
    return modules


def _is_toolkit_instance(obj: Any) -> bool:
    return (not inspect.isclass(obj) and not inspect.isroutine(obj)
            and type(obj).__module__.startswith("toolkit."))


def _methods(obj: Any) -> list[tuple[str, Callable]]:
    out = []
    for name in dir(type(obj)):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(type(obj), name)
        if isinstance(attr, (staticmethod, classmethod)) or inspect.isfunction(attr):
            out.append((name, getattr(obj, name)))
    return out


def _package_of(module_name: str) -> str:
    return ".".join(module_name.split(".")[:2])


@lru_cache(maxsize=None)
def targets() -> tuple[tuple[str, str, Callable], ...]:
    """``(id, package, callable)`` for everything fuzzed, each callable once."""
    found: dict[str, tuple[str, Callable]] = {}
    seen: set[int] = set()

    def add(ident: str, package: str, fn: Callable) -> None:
        key = id(getattr(fn, "__func__", fn)), id(getattr(fn, "__self__", None))
        if key in seen:
            return
        seen.add(key)
        found[ident] = (package, fn)

    for package in PACKAGES:
        for module in _public_modules(package):
            for name in module.__all__:
                obj = getattr(module, name)
                ident = f"{module.__name__}.{name}"
                if inspect.isclass(obj):
                    if inspect.isabstract(obj) or issubclass(obj, BaseException):
                        continue
                    add(ident, package, obj)
                elif inspect.isroutine(obj):
                    add(ident, package, obj)
                elif _is_toolkit_instance(obj):
                    for mname, method in _methods(obj):
                        add(f"{ident}.{mname}", package, method)
        for sample_name, sample in samples(package).items():
            for mname, method in _methods(sample):
                add(f"{package}.<{sample_name}>.{mname}", package, method)
    return tuple((ident, package, fn) for ident, (package, fn) in sorted(found.items()))


# ---- valid values, by parameter name -------------------------------------------------------------------
@lru_cache(maxsize=None)
def samples(package: str) -> dict[str, Any]:
    """Instances built by valid calls, whose methods are fuzzed too."""
    module = importlib.import_module(package)
    out: dict[str, Any] = {}
    engine = getattr(module, "ENGINE", None)
    if engine is not None:
        out["state"] = engine.new_state(1)
    if package == "toolkit.deepblue":
        out["policy"] = module.optimal_policy({"silver": 2, "gold": 1, "black": 2, "blue": 1})
    return out


@lru_cache(maxsize=None)
def valid_values(package: str) -> dict[str, tuple]:
    module = importlib.import_module(package)
    values: dict[str, tuple] = {"seed": (0, 7), "lang": ("en", "ja"), "seat": (0, 1), "players": (3, 4)}
    engine = getattr(module, "ENGINE", None)
    if engine is not None:
        state = samples(package)["state"]
        moves = engine.legal_moves(state)[:3]
        values["state"] = (state,)
        values["engine"] = (engine,)
        if moves:
            values["move"] = (*moves, str(moves[0]))
            values["text"] = (str(moves[0]),)
    if package == "toolkit.deepblue":
        values.update(bag=({"silver": 3, "black": 2, "blue": 1}, "silver 2, gold 1, black 2", ["black", "blue"]),
                      drawn=(["black"], {"blue": 1}, None), shields=({"any": 1}, ["blue"], None),
                      spots=(["gold"], None), draws=(0, 1, 2), policy=(samples(package)["policy"],),
                      leader_bonus=(0, 3), gems_per_draw=(1, 2), bonus_kept_on_bust=(True, False),
                      trials=(5, 50))
    if package == "toolkit.pirats":
        values.update(ship=("cat", "bird", "fish"), cards=(0, 1, 3))
    return values


# ---- hostile values ------------------------------------------------------------------------------------
WORDS = ("silver", "gold", "red", "black", "blue", "any", "green", "purple", "cat", "bird", "fish", "rat",
         "en", "ja", "pass", "stop", "play", "B4", "P9", "R1", "start", "finish")
NUMBERS = (-1, -2**31, -10**30, 0, 1, 2**31, 2**63, 10**9, 10**100, 60_000)
ODD_STRINGS = ("", " ", "\x00", "²", "fries ²", "٣", "３", "Ⅻ", "½", "1e9", "-1", "nan", "inf", "0x10", "1_000",
               "silver ²", "black ٣", "cat ３", "🐙", "None", "{}", "[", "box.json", "/dev/null", "a" * 10_000)


#: built when drawn (a fresh object per call, so a callable that mutates its input cannot spoil the next)
ENORMOUS = (lambda: list(range(100_000)), lambda: ("black",) * 100_000, lambda: "silver, " * 20_000,
            lambda: {"silver": 10**6, "black": 10**6}, lambda: {"silver": 30_000, "black": 30_000},
            lambda: {str(i): i for i in range(10_000)}, lambda: range(10**12), lambda: bytes(100_000))


_scalars = st.one_of(
    st.none(), st.booleans(), st.sampled_from(NUMBERS), st.integers(-10**6, 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, 2.5, -0.0, 1e308, Decimal("NaN"), Fraction(1, 3), 1j,
                     np.int64(-1), np.float64(math.nan), np.int64(2**62)]),
    st.sampled_from(WORDS), st.sampled_from(ODD_STRINGS), st.text(max_size=12), st.binary(max_size=8),
    st.builds(object),
)
HOSTILE = st.one_of(
    _scalars,
    st.lists(_scalars, max_size=4),                                     # unhashable
    st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=4), _scalars, max_size=4),
    st.sets(st.sampled_from(WORDS), max_size=3), st.tuples(_scalars, _scalars),
    st.just(()), st.just([]), st.just({}), st.just([[]]), st.just([["black"]]), st.just({"silver": [3]}),
    st.sampled_from(ENORMOUS).map(lambda make: make()),
    st.just(np.array([1, 2, 3])), st.just(iter(())),
)

_OMIT = object()


def _arguments(fn: Callable, package: str) -> st.SearchStrategy[dict[str, Any]]:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):       # pragma: no cover - builtins without a signature
        return st.just({})
    known = valid_values(package)
    parts = {}
    for name, p in params.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        options = [HOSTILE]
        if name in known:
            options.append(st.sampled_from(known[name]))
        if p.default is not p.empty:
            options.append(st.just(_OMIT))
        parts[name] = st.one_of(*options)
    return st.fixed_dictionaries(parts).map(lambda d: {k: v for k, v in d.items() if v is not _OMIT})


def _call(fn: Callable, kwargs: dict[str, Any]) -> Any:
    params = inspect.signature(fn).parameters
    args, kw = [], {}
    for name, value in kwargs.items():
        if params[name].kind == inspect.Parameter.POSITIONAL_ONLY:
            args.append(value)
        else:
            kw[name] = value
    return fn(*args, **kw)


# ---- the time guard --------------------------------------------------------------------------------------
class TooSlow(BaseException):
    """Raised from the timer signal: a BaseException, so no ``except Exception`` in the code under test
    swallows it."""


def _on_timer(signum, frame):
    raise TooSlow("CPU" if signum == signal.SIGPROF else "wall")


def _timed(fn: Callable, kwargs: dict[str, Any]) -> Any:
    old_prof = signal.signal(signal.SIGPROF, _on_timer)
    old_alarm = signal.signal(signal.SIGALRM, _on_timer)
    signal.setitimer(signal.ITIMER_PROF, CPU_LIMIT_S)
    signal.setitimer(signal.ITIMER_REAL, WALL_LIMIT_S)
    try:
        return _call(fn, kwargs)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old_prof)
        signal.signal(signal.SIGALRM, old_alarm)


def _names_a_parameter(message: str, fn: Callable) -> bool:
    try:
        names = [n for n in inspect.signature(fn).parameters]
    except (TypeError, ValueError):       # pragma: no cover
        return False
    return any(re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", message) for n in names)


def check_call(ident: str, fn: Callable, kwargs: dict[str, Any]) -> None:
    try:
        _timed(fn, kwargs)
    except RuleError as exc:
        assert str(exc), f"{ident}({kwargs!r}) raised {type(exc).__name__} with an empty message"
    except TypeError as exc:
        if not _names_a_parameter(str(exc), fn):
            raise AssertionError(f"{ident}(**{_short(kwargs)}) raised a TypeError naming no parameter: {exc}") \
                from exc
    except TooSlow as exc:
        raise AssertionError(f"{ident}(**{_short(kwargs)}) took over {CPU_LIMIT_S} s ({exc})") from None
    except Exception as exc:
        raise AssertionError(f"{ident}(**{_short(kwargs)}) leaked {type(exc).__name__}: {exc}") from exc


def _short(kwargs: dict[str, Any]) -> str:
    text = repr(kwargs)
    return text if len(text) < 300 else text[:300] + "…"


# ---- the tests -----------------------------------------------------------------------------------------
# no shrinking: a failure reports the (derandomized, so reproducible) example as found, and a known gap
# costs its examples, not minutes of shrinking
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
                suppress_health_check=list(HealthCheck), print_blob=False,
                phases=[Phase.explicit, Phase.reuse, Phase.generate])

TARGETS = targets()


def test_discovery_finds_the_public_surface():
    idents = {ident for ident, _, _ in TARGETS}
    # one of each kind: a function, a bound engine verb, a class, an instance method, a sample's method
    for expected in ("toolkit.deepblue.bust_chance", "toolkit.crew.ENGINE.new_state", "toolkit.pirats.Bid",
                     "toolkit.tranquility.ENGINE.describe_move", "toolkit.deepblue.<policy>.advice",
                     "toolkit.deepblue.positions.teaching_dive"):
        assert expected in idents
    assert len(TARGETS) > 200


#: Callables that still leak, each with the reason it is left. ``xfail(strict=False)``: a fix by the owner
#: makes the test pass without editing this list (then drop the entry). Everything else must pass.
KNOWN_GAPS: dict[str, str] = {}


#: Callables not fuzzed, each with the reason: they run for minutes or start processes by design, so "no
#: call over 2 s" cannot hold for them. Their arguments are tested where they are defined.
NOT_FUZZED = {
    "study.run_study": "a study plays thousands of games (its defaults take minutes)",
    "study.process_pool": "starts a pool of worker processes",
    "strength.study": "the Crew bot-strength study plays thousands of games",
    "strength.run_chunk": "a chunk of that study: many games, each with a double-dummy solve",
    "strength.play_game": "one whole bot game plus a double-dummy solve (seconds by design)",
}


def _cases():
    for ident, package, fn in TARGETS:
        if any(ident.endswith("." + name) for name in NOT_FUZZED):
            continue
        marks = [pytest.mark.xfail(reason=KNOWN_GAPS[ident], strict=False)] if ident in KNOWN_GAPS else []
        yield pytest.param(ident, package, fn, id=ident, marks=marks)


@pytest.mark.parametrize("ident,package,fn", list(_cases()))
def test_public_callable_refuses_hostile_input(ident, package, fn):
    @FUZZ
    @given(kwargs=_arguments(fn, package))
    def run(kwargs):
        check_call(ident, fn, kwargs)

    run()
