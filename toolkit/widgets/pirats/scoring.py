"""The scoring explainer: build a treasure pile, read every token's points and why (dashboard
``pirats-scoring``). All numbers come from :func:`toolkit.pirats.score_sheet`.

The pile is built by clicking tokens (:class:`toolkit.widgets.components.pirats.TokenPile`: a token of the
box adds it, a token of the pile takes it off); a typed token (any printed value) stays under "Type a
token", and a pile is shared as ``?tokens=fries 2,fries 3,ketchup`` (:meth:`ScoringView.share_query`)."""

from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import quote

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError
from toolkit.pirats.tokens import BONUS_KINDS, LOOT_KINDS, MAX_LOOT_VALUE, Token, score_sheet
from toolkit.plots.pirats import score_figure
from toolkit.widgets.base import Chart, View, esc, query_params, safe_callback, set_options
from toolkit.widgets.markup import heading
from toolkit.widgets.components.pirats import TokenPile

MAX_PILE = 40
EXAMPLES = {
    # 例 : 緑は2 枚のフレンチフライ (2 点と3 点 ) と1 枚のケチャップを持っています 得点は 15 点
    "fries": ("fries 2", "fries 3", "ketchup"),
    # one parrot: teddies or dolls, whichever is worth more
    "parrot": ("teddy 3", "teddy 4", "doll 6", "parrot"),
    # each can needs its own opener
    "cans": ("can 9", "can 7", "can 8", "opener", "opener"),
}


def pile_from_query(params: Mapping[str, str]) -> list[Token]:
    """``?tokens=fries 2,fries 3,ketchup`` (untrusted: unreadable tokens are skipped, the pile is capped)."""
    pile = []
    for text in params.get("tokens", "").split(",")[:MAX_PILE]:
        try:
            pile.append(Token.parse(text))
        except InvalidMoveError:
            continue
    return pile


class ScoringView(View):
    """Treasure pile editor plus its score sheet and chart."""

    def __init__(self, tokens: Any = None, lang: str | None = None, query: str | None = None, **kwargs: Any):
        params = query_params(query)
        lang = lang or (params.get("lang") if params.get("lang") in ("en", "ja") else "en")
        super().__init__(lang=lang, **kwargs)
        self.add_class("pirats-scoring")
        self._pile: list[Token] = ([Token.parse(t) for t in tokens] if tokens is not None
                                   else pile_from_query(params) or [Token.parse(t) for t in EXAMPLES["fries"]])
        self._title = widgets.HTML()
        self._intro = widgets.HTML()
        self._kind = widgets.Dropdown(options=list(LOOT_KINDS + BONUS_KINDS), value="fries")
        self._kind.add_class("pirats-kind")
        self._value = widgets.BoundedIntText(value=2, min=1, max=MAX_LOOT_VALUE, layout=widgets.Layout(width="15em"))
        self._value.add_class("pirats-value")
        self._add = widgets.Button(button_style="primary")
        self._add.add_class("pirats-add")
        self._remove = widgets.Button()
        self._remove.add_class("pirats-remove")
        self._clear = widgets.Button()
        self._clear.add_class("pirats-clear")
        self._examples = {}
        for key in EXAMPLES:
            b = widgets.Button(layout=widgets.Layout(width="auto"))
            b.add_class(f"pirats-example-{key}")
            b.on_click(self._example_handler(key))
            self._examples[key] = b
        self._tokens = TokenPile(self._pile[:MAX_PILE], limit=MAX_PILE, lang=self.lang)
        self._tokens.add_class("pirats-tokens")
        self._tokens.on_change(self._on_tokens)
        self._tokens.on_refuse(lambda text: self.report(text, error=True))
        self._typed = widgets.Accordion(children=[widgets.HBox([self._kind, self._value, self._add, self._remove],
                                                               layout=widgets.Layout(flex_flow="row wrap"))])
        self._typed.selected_index = None
        self._typed.add_class("pirats-typed")
        self._share = widgets.HTML()
        self._share.add_class("pirats-share")
        self._sheet = widgets.HTML()
        self._sheet.add_class("pirats-sheet")
        self._chart = Chart()
        self._add.on_click(self._on_add)
        self._remove.on_click(self._on_remove)
        self._clear.on_click(self._on_clear)
        self._kind.observe(self._on_kind, "value")
        self._finish([self._title, self._intro,
                      widgets.HBox(list(self._examples.values()) + [self._clear],
                                   layout=widgets.Layout(flex_flow="row wrap")),
                      self._tokens, self._typed, self._sheet, self._share, self._chart])
        self._ready = True
        self.refresh()

    # ---- reading (for tests and notebooks) ---------------------------------------------------------
    @property
    def pile(self) -> list[Token]:
        return list(self._pile)

    @property
    def total(self) -> int:
        return score_sheet(self._pile).total

    def share_query(self) -> str:
        """The link parameters of this pile: ``tokens=fries 2,fries 3,ketchup`` (read back by
        :func:`pile_from_query`)."""
        return "tokens=" + ",".join(str(t) for t in self._pile)

    # ---- callbacks ------------------------------------------------------------------------------
    def _example_handler(self, key: str):
        @safe_callback
        def handler(view: "ScoringView", _b: Any = None) -> None:
            view._pile = [Token.parse(t) for t in EXAMPLES[key]]
            view.clear_report()
            view.refresh()
        return lambda b=None: handler(self, b)

    @safe_callback
    def _on_tokens(self, value: tuple[Token, ...]) -> None:
        self._pile = list(value)
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_kind(self, change: Mapping[str, Any]) -> None:
        self._value.disabled = change["new"] not in LOOT_KINDS
        self._value.layout.visibility = "hidden" if self._value.disabled else "visible"

    @safe_callback
    def _on_add(self, _b: Any = None) -> None:
        if len(self._pile) >= MAX_PILE:
            self.report(self.t("pirats.ui.pile_full", limit=MAX_PILE), error=True)
            return
        kind, value = self._kind.value, self._value.value
        # widget values are untrusted: Token validates the kind and the value range
        token = Token(kind, value) if kind in LOOT_KINDS else Token(kind) if kind in BONUS_KINDS else Token.parse(str(kind))
        self._pile.append(token)
        self.clear_report()
        self.refresh()

    @safe_callback
    def _on_remove(self, _b: Any = None) -> None:
        if self._pile:
            self._pile.pop()
        self.refresh()

    @safe_callback
    def _on_clear(self, _b: Any = None) -> None:
        self._pile = []
        self.refresh()

    # ---- rendering ------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not getattr(self, "_ready", False):  # the base class sets lang before the children exist
            return
        lang = self.lang
        self._title.value = heading(self.t("pirats.ui.scoring_title"))
        self._intro.value = (f"<p>{esc(self.t('pirats.ui.scoring_intro'))}</p>")
        set_options(self._kind, [(Token(k, 1).text(lang).rsplit(" ", 1)[0] if k in LOOT_KINDS else Token(k).text(lang), k)
                                 for k in LOOT_KINDS + BONUS_KINDS])
        self._kind.description = self.t("pirats.ui.kind")
        self._value.description = self.t("pirats.ui.value")
        self._add.description = self.t("pirats.ui.add")
        self._remove.description = self.t("pirats.ui.remove_last")
        self._clear.description = self.t("pirats.ui.clear")
        self._typed.set_title(0, self.t("pirats.ui.type_token"))
        self._tokens.lang = lang
        if self._tokens.value != tuple(self._pile):
            self._tokens.set_value(self._pile)
        link = "?" + quote(self.share_query(), safe="=,")
        self._share.value = f"<p class='pirats-link'>{esc(self.t('pirats.ui.share'))} <code>{esc(link)}</code></p>"
        for key, b in self._examples.items():
            b.description = self.t(f"pirats.ui.example_{key}")
        sheet = score_sheet(self._pile)
        rows = "".join(f"<tr><td class='pirats-line'>{esc(line.text(lang))}</td>"
                       f"<td style='text-align:right'><b>{line.points}</b></td>"
                       f"<td><code class='deepsea-rule'>{esc(line.rule)}</code></td></tr>" for line in sheet.lines)
        self._sheet.value = (f"<table class='pirats-sheet-table'>{rows}</table>"
                             f"<p class='pirats-total'><b>{esc(self.t('pirats.ui.total', total=sheet.total))}</b></p>"
                             f"<p><i>{esc(self.t('pirats.ui.illustrative'))}</i></p>")
        self._chart.update(score_figure(sheet, lang))
