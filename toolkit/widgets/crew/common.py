"""Shared bits of the Crew views: card chips, URL parameters, the event log."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from toolkit.core.errors import RuleError
from toolkit.crew.cards import Card
from toolkit.widgets.base import esc

CHIP_COLOURS = {"B": "#2f6fd6", "G": "#2e9b4f", "Y": "#c9a400", "P": "#d6479b", "S": "#222"}


def chip(card: "Card | str", lang: str = "en", extra: str = "") -> str:
    """A card as a small coloured chip (``data-card`` carries the code for tests and screen readers)."""
    c = Card.parse(card)
    return (f'<span class="crew-card {extra}" data-card="{c}" title="{esc(c.text(lang))}" '
            f'style="display:inline-block;min-width:2.4em;margin:1px;padding:2px 4px;border-radius:4px;'
            f'color:white;background:{CHIP_COLOURS[c.suit]};text-align:center;font-weight:bold">{c}</span>')


def chips(cards: Iterable["Card | str"], lang: str = "en") -> str:
    out = "".join(chip(c, lang) for c in cards)
    return out or "—"


def int_param(params: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    """An integer from the (untrusted) URL query, clamped; anything unreadable gives the default."""
    try:
        return min(max(int(params.get(key, default)), low), high)
    except (TypeError, ValueError):
        return default


def cards_param(params: Mapping[str, str], key: str, default: str) -> str:
    """Card text from the URL if it parses, else the default."""
    raw = params.get(key)
    if raw is None:
        return default
    from toolkit.crew.cards import cards
    try:
        return " ".join(str(c) for c in cards(raw.replace("-", " ").replace("_", " ")))
    except (RuleError, TypeError):
        return default


def lang_param(params: Mapping[str, str], default: str = "en") -> str:
    return params.get("lang") if params.get("lang") in ("en", "ja") else default


def event_lines(events: Iterable[Any], lang: str) -> str:
    rows = [f'<li>{esc(e.text(lang))} <code class="deepsea-rule">{esc(e.rule)}</code></li>' for e in events]
    return "<ol class='crew-log-list'>" + "".join(rows) + "</ol>"
