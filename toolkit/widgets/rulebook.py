"""The rule reference page (dashboard ``rules``): every rule id of a game with the passage it comes from and
what it means, in English or Japanese; the table rules (``<game>.table.*``, kept by the players) first.

Every rule id shown on a published page links here (``rules.ipynb?rule=<id>``, see :mod:`toolkit.widgets.page`),
so "click the rule id" opens the passage behind a refusal; the clicked rule is shown on top. URL parameters:
``rule`` (a registered id), else ``game`` (``crew``, ``tranquility``, ``deepblue``, ``pirats``, ``core``,
``bots``), and ``lang``. Unknown values fall back to the Crew's page."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from toolkit.core import rules
from toolkit.core.i18n import t
from toolkit.widgets.base import View, esc, query_params, safe_callback
from toolkit.widgets.markup import heading

GAMES = ("crew", "tranquility", "deepblue", "pirats", "core", "bots")

_CSS = """<style>
.deepsea-rulebook dl { margin: 0.5em 0; display: block; }
.deepsea-rulebook dt, .deepsea-rulebook dd { display: block; float: none; width: auto; }
.deepsea-rulebook dt { margin-top: 0.8em; }
.deepsea-rulebook dd { margin: 0.1em 0 0 1.5em; }
.deepsea-rulebook .deepsea-rulebook-chosen { border: 2px solid #1565c0; border-radius: 6px; padding: 0.4em 0.8em;
  background: #f3f8ff; }
.deepsea-rulebook blockquote { margin: 0.2em 0 0.2em 1em; color: #333; }
</style>"""


def _entry(info: rules.RuleInfo, lang: str, tag: str = "dt") -> str:
    ruling = (f"<dd><b>{esc(t('ui.rulebook.ruling', lang))}</b> {esc(info.ruling)}</dd>" if info.ruling else "")
    return (f"<{tag} id='{esc(info.id)}' data-rule='{esc(info.id)}'><code>{esc(info.id)}</code> "
            f"<b>{esc(info.title[lang])}</b></{tag}>"
            f"<dd><blockquote lang='ja'>「{esc(info.passage)}」</blockquote>"
            f"<small>{esc(t('ui.rulebook.source', lang))} <code>{esc(info.source)}</code></small></dd>"
            f"<dd>{esc(info.text[lang])}</dd>{ruling}")


def table_rules_html(game: str, lang: str) -> str:
    """The table rules of ``game`` as one short line each, for the top of a table dashboard: no engine can
    enforce them, so the page says them (each id links to its passage on a published page)."""
    from toolkit.core.tryit import table_rules
    return "".join(f"<p class='deepsea-table-rule' data-rule='{esc(r.id)}'><b>{esc(t('ui.rulebook.table_rule', lang))}"
                   f"</b> {esc(r.title[lang])} <code class='deepsea-rule'>{esc(r.id)}</code></p>"
                   for r in table_rules(game))


class RuleBookView(View):
    """The rules of one game: id, passage quoted, meaning; the table rules first and a clicked rule on top."""

    def __init__(self, game: str | None = None, rule: str | None = None, lang: str = "en",
                 query: str | None = None, **kwargs: Any):
        params = query_params(query)
        wanted_rule = rule if rule is not None else params.get("rule")
        self.rule = wanted_rule if isinstance(wanted_rule, str) and wanted_rule in rules.registry() else None
        wanted_game = game if game is not None else params.get("game")
        if self.rule is not None:
            wanted_game = rules.get(self.rule).game
        lang = params.get("lang") if params.get("lang") in ("en", "ja") else lang
        super().__init__(lang=lang, **kwargs)
        self.add_class("deepsea-rulebook")
        self._title = widgets.HTML()
        self._game = widgets.Dropdown(options=[(g, g) for g in GAMES],
                                      value=wanted_game if wanted_game in GAMES else "crew",
                                      layout=widgets.Layout(width="auto"), style={"description_width": "initial"})
        self._game.add_class("deepsea-rulebook-game")
        self._game.observe(self._on_game, names="value")
        self._body = widgets.HTML()
        self._body.add_class("deepsea-rulebook-body")
        self._finish([widgets.HTML(_CSS), self._title, self._game, self._body])
        self.refresh()

    @property
    def game(self) -> str:
        return self._game.value

    @safe_callback
    def _on_game(self, _change: Any = None) -> None:
        if self.rule is not None and rules.get(self.rule).game != self.game:
            self.rule = None
        self.render()

    def refresh(self) -> None:
        if not hasattr(self, "_body"):
            return
        from toolkit.widgets.base import set_options
        set_options(self._game, [(t(f"game.{g}", self.lang) if g != "bots" else t("ui.rulebook.bots", self.lang), g)
                                 for g in GAMES])
        self._game.description = t("ui.rulebook.game", self.lang)
        self.render()

    def render(self) -> None:
        lang, game = self.lang, self.game
        found = rules.rules_for(game)
        table = [r for r in found if r.id.startswith(f"{game}.table.")]
        self._title.value = heading(t("ui.rulebook.title", lang), t("ui.rulebook.intro", lang))
        parts = []
        if self.rule is not None:
            parts.append(f"<div class='deepsea-rulebook-chosen'><dl>{_entry(rules.get(self.rule), lang)}</dl></div>")
        if table:
            parts.append(f"<h4>{esc(t('ui.rulebook.table_rules', lang))}</h4><dl>"
                         + "".join(_entry(r, lang) for r in table) + "</dl>")
        parts.append(f"<h4>{esc(t('ui.rulebook.all_rules', lang, n=len(found)))}</h4><dl>"
                     + "".join(_entry(r, lang) for r in found) + "</dl>")
        self._body.value = "".join(parts)
