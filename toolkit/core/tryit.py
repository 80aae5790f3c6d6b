"""Try-it steps for the first-game notebooks: play one move on a real engine and read the answer.

``try_move`` is what a learner runs after changing a move in a cell: the engine either accepts it (the
events it caused are printed, each with its rule id) or refuses it (the Violation and its rule id), in the
notebook's language. It never raises for a bad move text or a refused move, so a typo is a message, not a
traceback. ``table_rules`` lists the rules of a game that no engine can enforce (ids ``<game>.table.*``):
the players keep them at the table.
"""

from __future__ import annotations

from typing import Any

from toolkit.core import rules
from toolkit.core.errors import RuleError
from toolkit.core.i18n import check_language, translate


def try_move(engine: Any, state: Any, move: Any, lang: str = "en") -> Any:
    """Print what ``engine`` says about ``move`` in ``state``; the new state if accepted, else ``state``."""
    check_language(lang)
    if not isinstance(move, str) and not isinstance(move, engine.move_types):
        raise TypeError(f"move must be a move text or a {engine.name} move, not {move!r:.60}")
    try:
        parsed = engine.parse_move(move) if isinstance(move, str) else move
    except RuleError as exc:
        print(translate("tryit.unreadable", lang, move=move, reason=str(exc)))
        return state
    violation = engine.why_illegal(state, parsed)
    if violation is not None:
        print(translate("tryit.refused", lang, move=engine.describe_move(parsed, lang).rstrip("。.")))
        print(f"   [{violation.rule}] {violation.text(lang)}")
        return state
    new_state, events = engine.transition(state, parsed)
    print(translate("tryit.accepted", lang, move=engine.describe_move(parsed, lang).rstrip("。.")))
    for event in events:
        print(f"   [{event.rule}] {event.text(lang)}")
    return new_state


def table_rules(game: str) -> list[rules.RuleInfo]:
    """The rules of ``game`` that the players keep themselves (``<game>.table.*``)."""
    return [r for r in rules.rules_for(game) if r.id.startswith(f"{game}.table.")]


def show_table_rules(game: str, lang: str = "en") -> str:
    """The table rules as text: id, title, the passage quoted, and what it means in ``lang``."""
    check_language(lang)
    found = table_rules(game)
    if not found:
        return translate("tryit.no_table_rules", lang)
    lines = []
    for r in found:
        lines += [f"[{r.id}] {r.title[lang]}", f"   「{r.passage}」", f"   {r.text[lang]}"]
    return "\n".join(lines)
