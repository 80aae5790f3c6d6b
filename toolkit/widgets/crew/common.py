"""Shared bits of the Crew views: card chips, URL parameters, the event log."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from toolkit.core.errors import RuleError
from toolkit.crew.cards import Card
from toolkit.widgets.base import esc

def chip(card: "Card | str", lang: str = "en", extra: str = "") -> str:
    """A card as a small chip in running text: the card component's colours and per-colour symbol
    (``data-card`` carries the code for tests; the aria-label says the card in ``lang``)."""
    from toolkit.widgets.components.crew import CARD_STYLE
    c = Card.parse(card)
    st = CARD_STYLE[c.suit]
    icon = (f'<svg viewBox="0 0 24 24" aria-hidden="true" style="width:0.95em;height:0.95em;fill:{st["fg"]};'
            f'vertical-align:-0.12em;margin-right:2px"><path d="{st["symbol"]}"/></svg>')
    return (f'<span class="crew-card {extra}" data-card="{c}" title="{esc(c.text(lang))}" role="img" '
            f'aria-label="{esc(c.text(lang))}" style="display:inline-block;min-width:2.4em;margin:1px;'
            f'padding:1px 4px;border-radius:4px;border:1px solid {st["edge"]};color:{st["fg"]};'
            f'background:{st["bg"]};text-align:center;font-weight:bold;white-space:nowrap">{icon}{c}</span>')


def share_link(params: Mapping[str, Any], label: str) -> str:
    """A link to this page with ``params`` in the query (cards as ``P9-P7``), for a teacher to share."""
    import urllib.parse
    query = {}
    for key, value in params.items():
        if isinstance(value, (list, tuple)):
            value = "-".join(str(v) for v in value)
        if value not in ("", None):
            query[key] = str(value)
    q = urllib.parse.urlencode(query, safe="-:;,=")   # "90=3": a prediction reads as typed
    return (f'<p class="crew-share"><a class="crew-share-link" href="?{esc(q)}" target="_blank" rel="noopener">'
            f'{esc(label)}</a> <code style="word-break:break-all">?{esc(q)}</code></p>')


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
