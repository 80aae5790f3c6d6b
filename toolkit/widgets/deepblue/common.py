"""Small renderers shared by the Deep Blue views (HTML snippets; all text from the catalogue)."""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

from toolkit.core.i18n import translate as t
from toolkit.deepblue.components import CrewCard
from toolkit.plots.deepblue import GEM_COLOURS
from toolkit.widgets.base import esc


def gem_name(colour: str, lang: str) -> str:
    return t(f"deepblue.gem.{colour}", lang)


def percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def gem_chips(gems: Iterable[str], lang: str) -> str:
    chips = [f'<span class="deepblue-gem deepblue-gem-{esc(c)}" title="{esc(gem_name(c, lang))}" '
             f'style="display:inline-block;width:1.3em;height:1.3em;border-radius:50%;margin:1px;'
             f'background:{GEM_COLOURS.get(c, "#ccc")};border:1px solid #555"></span>' for c in gems]
    return "".join(chips) or "—"


def card_text(card: CrewCard, lang: str) -> str:
    parts = []
    if card.cash:
        parts.append(t("deepblue.ui.card_cash", lang, n=card.cash))
    if card.propellers:
        parts.append(t("deepblue.ui.card_props", lang, n=card.propellers))
    if card.protection:
        parts.append(t("deepblue.ui.card_protect", lang, gem=gem_name(card.protection, lang)))
    if card.scores:
        need = " + ".join(f"{n} {gem_name(c, lang)}" for c, n in card.score_requires)
        parts.append(t("deepblue.ui.card_score", lang, need=need, vp=card.score_vp))
    if card.adds_gem:
        parts.append(t("deepblue.ui.card_adds", lang, gem=gem_name(card.adds_gem, lang)))
    return f"#{card.id} {card.name.get(lang, card.name['en'])} ({', '.join(parts)})"


