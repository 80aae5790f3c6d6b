"""English/Japanese message catalogue.

Every user-facing sentence (refusals, events, outcomes, widget labels) is a catalogue entry keyed by a
code. Entries live in ``messages*.toml`` files inside the package (``toolkit/<part>/messages.toml``,
``toolkit/widgets/<game>/messages.toml``), one
table per key with an ``en`` and a ``ja`` template in :meth:`str.format` syntax::

    [MUST_FOLLOW_COLOUR]
    en = "You must follow {colour}: you hold {cards}."
    ja = "{colour}を出す必要があります（手札に{cards}があります）。"

Parameters may be plain values or :class:`Term` (a catalogue key translated in the target language);
lists and tuples are joined with the language's separator. The catalogue is discovered lazily, so a
game package only has to ship its file.

Seats are counted from 1 for people and from 0 in the API (issue 29). Events, violations and
labels carry the API's 0-based seat index; the one place that turns it into the people's number is
here: a placeholder written right after the word for seat — "seat {seat}", "Seat {who}", "seats {seats}",
"seat(s) {seats}" in English, "席{seat}" in Japanese — is a *seat placeholder*, and an integer given to
it (or each integer of a list) is shown plus one::

    [BID]
    en = "Seat {seat} bids {bid}."      # translate("BID", seat=0, bid=3) -> "Seat 1 bids 3."

A template that must quote the API's own number (a refusal of ``seat=7``) writes ``seat={seat}``, which
is not a seat placeholder. Strings (a seat's name) are never changed. See docs/decisions.md.
"""

from __future__ import annotations

import re
import string
from fractions import Fraction
from functools import lru_cache
from numbers import Integral
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Iterable, Mapping

from toolkit.core.errors import RuleError, UnknownLanguageError

LANGUAGES: tuple[str, ...] = ("en", "ja")
_SEPARATOR = {"en": ", ", "ja": "、"}

_catalogue: dict[str, dict[str, str]] = {}
_sources: dict[str, str] = {}
_loaded = False


class UnknownMessageError(RuleError):
    """A message code that no catalogue defines."""


@dataclass(frozen=True, slots=True)
class Term:
    """A word that itself needs translating, e.g. ``Term("game.crew")`` -> "The Crew: Mission Deep Sea" / "ザ・クルー：深海に眠る遺跡"."""

    key: str

    def text(self, lang: str = "en") -> str:
        return translate(self.key, lang)

    def __str__(self) -> str:
        return self.text("en")


def check_language(lang: str) -> str:
    """Return ``lang`` if supported, else raise :class:`UnknownLanguageError` quoting it."""
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise UnknownLanguageError(f"unknown language lang={lang!r:.60}: use one of {', '.join(LANGUAGES)}")
    return lang


def _load_file(text: str, origin: str) -> None:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UnknownMessageError(f"{origin}: not valid TOML: {exc}") from None
    for key, entry in data.items():
        register(key, entry, origin=origin)


def register(key: str, entry: Mapping[str, str], origin: str = "<code>") -> None:
    """Add one catalogue entry (used by the discovery and by test-only games)."""
    if key in _catalogue and _sources.get(key) != origin:
        raise UnknownMessageError(f"message {key!r} defined twice: {_sources[key]} and {origin}")
    if not isinstance(entry, Mapping):
        raise UnknownMessageError(f"{origin}: message {key!r} must be a table with en and ja")
    _catalogue[key] = {lang: str(entry[lang]) for lang in entry}
    _sources[key] = origin


def _toml_files(name_prefix: str):
    """``toolkit/<part>/<prefix>*.toml`` and one level deeper (``toolkit/widgets/<game>/...``)."""
    root = resources.files("toolkit")
    for part in sorted(root.iterdir(), key=lambda p: p.name):
        if not part.is_dir():
            continue
        for sub in [part] + sorted((s for s in part.iterdir() if s.is_dir()), key=lambda p: p.name):
            for f in sorted(sub.iterdir(), key=lambda p: p.name):
                # "messages.toml", "messages_extra.toml" or "solver_messages.toml" (likewise rules)
                named = f.name.startswith(name_prefix) or f.name.endswith(f"_{name_prefix}.toml")
                if named and f.name.endswith(".toml") and f.is_file():
                    rel = f"toolkit/{part.name}/" + ("" if sub is part else f"{sub.name}/") + f.name
                    yield f, rel


def _discover() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for f, rel in _toml_files("messages"):
        _load_file(f.read_text(encoding="utf-8"), rel)


def catalogue() -> Mapping[str, Mapping[str, str]]:
    """All entries, discovered on first use: ``{code: {"en": ..., "ja": ...}}``."""
    _discover()
    return _catalogue


def has(key: str) -> bool:
    return key in catalogue()


def placeholders(template: str) -> set[str]:
    """Names used by a template, e.g. ``{"colour", "cards"}``."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


# The word for seat right before a placeholder makes it a seat placeholder (see the module docstring).
_SEAT_WORD = {"en": re.compile(r"(?i)\bseats?(?:\(s\))? $"), "ja": re.compile(r"席$")}


@lru_cache(maxsize=4096)
def seat_placeholders(template: str, lang: str = "en") -> frozenset[str]:
    """The placeholders of ``template`` that name seats, whose integers are shown counted from 1.

    >>> sorted(seat_placeholders("Seat {seat} passed seat {owner}'s raccoon with {card}."))
    ['owner', 'seat']
    >>> sorted(seat_placeholders("席{seat}が{card}を出します。", "ja")), sorted(seat_placeholders("no seat={seat}"))
    (['seat'], [])
    """
    word = _SEAT_WORD.get(lang, _SEAT_WORD["en"])
    return frozenset(name.split(".")[0].split("[")[0] for literal, name, _, _ in string.Formatter().parse(template)
                     if name and word.search(literal))


def seat_number(value: Any) -> Any:
    """The people's number of an API seat index (0 -> 1); a list of seats likewise; anything else as is.

    >>> seat_number(0), seat_number([2, 0]), seat_number("Seat 1 (you)"), seat_number(None)
    (1, [3, 1], 'Seat 1 (you)', None)
    """
    if type(value) is int:   # the usual call, without the Integral check (an ABC check: slow)
        return value + 1
    if isinstance(value, Integral) and not isinstance(value, bool):
        return int(value) + 1
    if isinstance(value, (list, tuple)):
        return type(value)(seat_number(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return [seat_number(v) for v in sorted(value, key=lambda v: (not isinstance(v, Integral), str(v), v))]
    return value


def percent(chance: Any, lang: str = "en") -> str:
    """A chance as beginners read it: a whole percentage ("38 %"); "<1 %" and ">99 %" rather than a 0 or
    100 that is not certain. Exact fractions belong to the analysis views (issue 29).

    >>> percent(Fraction(87041, 290700)), percent(0.004), percent(1), percent(Fraction(1, 3), "ja")
    ('30 %', '<1 %', '100 %', '33%')
    """
    if isinstance(chance, bool) or not isinstance(chance, (Integral, float, Fraction)):
        raise TypeError(f"chance must be a number from 0 to 1, not {chance!r:.60}")
    value = float(chance) * 100
    if not 0 <= value <= 100:
        raise ValueError(f"chance must be from 0 to 1, not {chance!r:.60}")
    shown = f"{value:.0f}"
    if 0 < value < 0.5:
        shown = "<1"
    elif 99.5 <= value < 100:
        shown = ">99"
    return shown + ("%" if lang == "ja" else " %")


def render_value(value: Any, lang: str) -> str:
    if isinstance(value, Term) or hasattr(value, "text") and callable(value.text):
        return value.text(lang)
    if isinstance(value, (list, tuple, frozenset, set)):
        items = value if not isinstance(value, (set, frozenset)) else sorted(value, key=str)
        return _SEPARATOR[lang].join(render_value(v, lang) for v in items)
    if isinstance(value, bool):
        return {"en": {True: "yes", False: "no"}, "ja": {True: "はい", False: "いいえ"}}[lang][value]
    return str(value)


def translate(key: str, lang: str = "en", params: Mapping[str, Any] | None = None, **kw: Any) -> str:
    """The sentence for ``key`` in ``lang`` with its parameters filled in.

    >>> translate("ui.apply", "ja")
    '実行'
    """
    check_language(lang)
    entries = catalogue()
    if not isinstance(key, str) or key not in entries:
        raise UnknownMessageError(f"no message {key!r} in the catalogue")
    template = entries[key].get(lang) or entries[key].get("en", key)
    if params is not None and not isinstance(params, Mapping):
        raise TypeError(f"params must be a mapping of placeholder names to values, not {params!r:.60}")
    values = dict(params or {}, **kw)
    seats = seat_placeholders(template, lang)
    rendered = {name: render_value(seat_number(v) if name in seats else v, lang) for name, v in values.items()}
    try:
        return template.format(**rendered)
    except (KeyError, IndexError) as exc:
        raise UnknownMessageError(f"message {key!r} ({lang}) needs parameter {exc}") from None


t = translate


def missing_translations(keys: Iterable[str] | None = None) -> list[str]:
    """Keys lacking a language or whose templates disagree on parameters (for the completeness test)."""
    problems = []
    entries = catalogue()
    for key in sorted(keys if keys is not None else entries):
        entry = entries.get(key)
        if entry is None:
            problems.append(f"{key}: missing")
            continue
        for lang in LANGUAGES:
            if not entry.get(lang, "").strip():
                problems.append(f"{key}: no {lang} text")
        if all(entry.get(lang) for lang in LANGUAGES):
            if placeholders(entry["en"]) != placeholders(entry["ja"]):
                problems.append(f"{key}: en and ja use different parameters")
    return problems
