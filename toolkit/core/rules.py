"""The rule registry: every rule id the engines cite, with where it comes from.

Each part of the package ships ``rules*.toml`` (``toolkit/<game>/rules.toml``) as an array of tables::

    [[rule]]
    id = "crew.trick.follow"
    title = { en = "Follow the led colour", ja = "最初の色に合わせる" }
    source = "rules/crew-deep-sea.ja.txt"          # path under the project's shared sources
    passage = "最初の色を持っているなら必ずその色を出します。"  # quoted verbatim
    text = { en = "If you hold the led colour you must play it.", ja = "..." }
    ruling = ""                                      # optional: where sources disagree or are silent
    shown_by = ["tests/crew/test_tricks.py::test_must_follow", "notebooks/crew/01-tricks.ipynb"]

``docs/rules/<game>.md`` is generated from these files (``python -m toolkit.core.rules --write``) and a test
keeps the two in step; another test checks every id used in code is registered and every registered id
is exercised by a test.
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from toolkit.core.errors import DataError, UnknownRuleError


@dataclass(frozen=True)
class RuleInfo:
    id: str
    title: Mapping[str, str]
    source: str
    passage: str
    text: Mapping[str, str]
    ruling: str = ""
    shown_by: tuple[str, ...] = ()
    origin: str = field(default="<code>", compare=False)

    @property
    def game(self) -> str:
        return self.id.split(".", 1)[0]


_registry: dict[str, RuleInfo] = {}
_loaded = False

_REQUIRED = ("id", "title", "source", "passage", "text")


def _parse(data: Mapping, origin: str) -> RuleInfo:
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise DataError(f"{origin}: rule {data.get('id', '?')!r} lacks field(s) {', '.join(missing)}")
    for k in ("title", "text"):
        if not isinstance(data[k], Mapping) or not all(data[k].get(lang) for lang in ("en", "ja")):
            raise DataError(f"{origin}: rule {data['id']!r} field {k!r} needs en and ja")
    return RuleInfo(id=data["id"], title=dict(data["title"]), source=data["source"],
                    passage=data["passage"], text=dict(data["text"]), ruling=data.get("ruling", ""),
                    shown_by=tuple(data.get("shown_by", ())), origin=origin)


def register(info: RuleInfo | Mapping) -> RuleInfo:
    """Add a rule (the discovery uses this; test-only games call it directly)."""
    if not isinstance(info, RuleInfo):
        info = _parse(info, "<code>")
    old = _registry.get(info.id)
    if old is not None and old != info:
        raise DataError(f"rule id {info.id!r} registered twice ({old.origin} and {info.origin})")
    _registry[info.id] = info
    return info


def load_text(text: str, origin: str) -> list[RuleInfo]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not valid TOML: {exc}") from None
    return [register(_parse(entry, origin)) for entry in data.get("rule", [])]


def _discover() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    from toolkit.core.i18n import _toml_files
    for f, rel in _toml_files("rules"):
        load_text(f.read_text(encoding="utf-8"), rel)


def registry() -> Mapping[str, RuleInfo]:
    """Every registered rule, by id."""
    _discover()
    return _registry


def get(rule_id: str) -> RuleInfo:
    """The rule ``rule_id``; :class:`UnknownRuleError` quoting it if there is none."""
    reg = registry()
    try:
        if not isinstance(rule_id, str):
            raise KeyError(rule_id)
        return reg[rule_id]
    except KeyError:
        raise UnknownRuleError(f"unknown rule id {rule_id!r}") from None


def require_rule(rule_id: str) -> str:
    """Validate an id on the hot path (explanations call this): one dict lookup once loaded."""
    try:
        known = rule_id in _registry
    except TypeError:               # an unhashable "id": get() refuses it with UnknownRuleError
        known = False
    if not known:
        get(rule_id)
    return rule_id


def rules_for(game: str) -> list[RuleInfo]:
    return sorted((r for r in registry().values() if r.game == game), key=lambda r: r.id)


def render_markdown(game: str, title: str | None = None) -> str:
    """The ``docs/rules/<game>.md`` page for one game, generated from its ``rules.toml``."""
    rules = rules_for(game)
    out = [f"# {title or game} — rule reference", "",
           f"Generated from {', '.join(f'`{o}`' for o in sorted({r.origin for r in rules}))} by "
           "`python -m toolkit.core.rules --write`; "
           "edit the TOML, not this page.", "",
           "| id | rule |", "|---|---|"]
    out += [f"| [`{r.id}`](#{r.id.replace('.', '')}) | {r.title['en']} / {r.title['ja']} |" for r in rules]
    out.append("")
    for r in rules:
        out += [f"## `{r.id}`", "", f"**{r.title['en']}** — {r.title['ja']}", "",
                f"- Source: `{r.source}`", f"- Passage: 「{r.passage}」", "",
                r.text["en"], "", r.text["ja"], ""]
        if r.ruling:
            out += [f"**Ruling.** {r.ruling}", ""]
        if r.shown_by:
            out += ["Shown by: " + ", ".join(f"`{s}`" for s in r.shown_by), ""]
    return "\n".join(out).rstrip() + "\n"


GAME_TITLES = {"core": "Core (every game)", "bots": "Bots (every game)", "crew": "The Crew: Mission Deep Sea",
               "tranquility": "Tranquility", "deepblue": "Deep Blue", "pirats": "Sewer Pirats"}


def write_docs(docs_dir: Path) -> list[Path]:
    games = sorted({r.game for r in registry().values() if r.origin.startswith("toolkit/")})
    written = []
    for game in games:
        path = docs_dir / f"{game}.md"
        path.write_text(render_markdown(game, GAME_TITLES.get(game)), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # python -m toolkit.core.rules --write [docs/rules]
    if "--write" in sys.argv:
        target = Path(sys.argv[-1]) if len(sys.argv) > 2 else Path("docs/rules")
        for p in write_docs(target):
            print("wrote", p)
    else:
        print("\n".join(sorted(registry())))
