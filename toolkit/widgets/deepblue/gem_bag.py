"""The gem-bag risk view: set the bag, the gems drawn so far and your protections; read the exact bust
chance of the next draw, the survival curve, the treasure-VP distribution, stop-vs-go and the optimal
policy's advice. Every number comes from :mod:`toolkit.deepblue.risk`.

The bag, the gems drawn and the protections are set by clicking gem tokens (− and +:
:class:`toolkit.widgets.components.deepblue.GemBagTokens`); typing the counts stays possible in a collapsed
section, and the URL parameters (``?silver=7&black=4&drawn=black``) are read and written back as a link
(:func:`query_from_inputs` is the inverse of :func:`settings_from_query`)."""

from __future__ import annotations

from typing import Any, Mapping
from urllib.parse import urlencode

import ipywidgets as widgets

from toolkit.core.errors import RuleError
from toolkit.core.i18n import translate as t
from toolkit.deepblue.gems import COLOURS, SETUP_BAG, SPOT_KINDS, gem_counts, shield_counts
from toolkit.deepblue.risk import (optimal_policy, position, position_bust_chance, position_survival,
                                   position_vp_distribution)
from toolkit.plots.deepblue import policy_spec, stop_vs_go_spec, survival_spec, vp_distribution_spec
from toolkit.widgets.base import Chart, View, esc, query_params, safe_callback, set_options
from toolkit.widgets.markup import heading
from toolkit.widgets.components.deepblue import GemBagTokens
from toolkit.widgets.deepblue.common import gem_name, percent

POLICY_LIMIT = 40           # the exact policy is offered for bags up to this many gems (≤ 200 ms goal)
MAX_COUNT = 40
TABLE_ROWS = 40             # rows of the stop-or-go table shown (the first draws)
MAX_SHIELDS = 6


def _int_param(params: Mapping[str, str], key: str, default: int, low: int, high: int) -> int:
    raw = params.get(key)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        return default
    return min(max(value, low), high)


def settings_from_query(params: Mapping[str, str]) -> dict[str, Any]:
    """Dashboard settings from URL parameters (untrusted: anything unreadable falls back to defaults).

    ``?silver=7&gold=3&red=1&black=4&blue=4&drawn=black,silver&shields=any&spot=gold&bonus=3&pairs=1&k=4``
    """
    # a link that names any bag colour describes the whole bag (unnamed colours are 0); none: the setup bag
    named = any(c in params for c in COLOURS)
    bag = {c: _int_param(params, c, 0 if named else SETUP_BAG.get(c, 0), 0, MAX_COUNT) for c in COLOURS}
    try:
        drawn = gem_counts([d for d in params.get("drawn", "").split(",") if d.strip()], "drawn")
    except RuleError:
        drawn = gem_counts(None)
    try:
        shields = shield_counts([s for s in params.get("shields", "").split(",") if s.strip()])
    except RuleError:
        shields = shield_counts(None)
    spot = params.get("spot", "none")
    return {"bag": bag, "drawn": {c: min(n, MAX_COUNT) for c, n in drawn.items()},
            "shields": {k: min(v, MAX_SHIELDS) for k, v in shields.items()},
            "spot": spot if spot in SPOT_KINDS else "none", "bonus": _int_param(params, "bonus", 0, 0, 20),
            "pairs": params.get("pairs", "0") in ("1", "true", "yes"), "k": _int_param(params, "k", 4, 0, 280),
            "lang": params.get("lang", "en") if params.get("lang") in ("en", "ja") else "en"}


def query_from_inputs(inputs: Mapping[str, Any], k: int | None = None) -> str:
    """The URL query of a view's inputs (``GemBagView.inputs()``): ``silver=7&gold=3&...``.

    >>> settings_from_query(dict(p.split("=") for p in query_from_inputs(
    ...     {"bag": {"silver": 2, "black": 2}, "drawn": {"black": 1}}).split("&")))["bag"]["black"]
    2
    """
    params: dict[str, Any] = {c: int(inputs["bag"].get(c, 0)) for c in COLOURS}
    drawn = [c for c in COLOURS for _ in range(int(inputs.get("drawn", {}).get(c, 0)))]
    if drawn:
        params["drawn"] = ",".join(drawn)
    shields = [s for s in ("black", "blue", "any") for _ in range(int(inputs.get("shields", {}).get(s, 0)))]
    if shields:
        params["shields"] = ",".join(shields)
    spots = inputs.get("spots") or []
    if spots:
        params["spot"] = spots[0]
    if inputs.get("leader_bonus"):
        params["bonus"] = int(inputs["leader_bonus"])
    if inputs.get("gems_per_draw", 1) == 2:
        params["pairs"] = 1
    if k is not None:
        params["k"] = int(k)
    return urlencode(params, safe=",")


class GemBagView(View):
    """Exact risk of a dive for one diver (dashboard ``deep-blue-gem-bag``)."""

    def __init__(self, lang: str = "en", query: str | None = None, **kwargs: Any):
        settings = settings_from_query(query_params(query))
        super().__init__(lang=settings["lang"] if lang == "en" else lang, **kwargs)
        self.add_class("deepblue-gem-bag")
        self._title = widgets.HTML()
        self._bag = {c: self._count(settings["bag"][c], f"deepblue-bag-{c}") for c in COLOURS}
        self._drawn = {c: self._count(settings["drawn"][c], f"deepblue-drawn-{c}") for c in COLOURS}
        self._shields = {k: self._count(settings["shields"][k], f"deepblue-shield-{k}", MAX_SHIELDS)
                         for k in ("black", "blue", "any")}
        self._spot = widgets.Dropdown(options=[("—", "none")] + [(s, s) for s in SPOT_KINDS], value=settings["spot"])
        self._spot.add_class("deepblue-spot")
        self._bonus = self._count(settings["bonus"], "deepblue-bonus", 20)
        self._pairs = widgets.Checkbox(value=settings["pairs"], indent=False)
        self._pairs.add_class("deepblue-pairs")
        self._kept = widgets.Checkbox(value=True, indent=False)
        self._kept.add_class("deepblue-bonus-kept")
        self._k = widgets.IntSlider(min=0, max=MAX_COUNT * len(COLOURS), value=settings["k"], continuous_update=False)
        self._k.add_class("deepblue-k")
        # the counts as gem tokens to click (− / +); the number boxes above stay as the typed alternative
        self._bag_tokens = GemBagTokens(lang=self.lang)
        self._bag_tokens.add_class("deepblue-bag-tokens")
        self._drawn_tokens = GemBagTokens(lang=self.lang, assets=False)   # drawn with the bag's code
        self._drawn_tokens.add_class("deepblue-drawn-tokens")
        self._shield_tokens = GemBagTokens(lang=self.lang, assets=False)
        self._shield_tokens.add_class("deepblue-shield-tokens")
        for tokens in (self._bag_tokens, self._drawn_tokens, self._shield_tokens):
            tokens.on_pick(self._on_token)
        self._link = widgets.HTML()
        self._link.add_class("deepblue-share-link")
        self._labels: dict[str, widgets.HTML] = {}
        self._summary = widgets.HTML()
        self._summary.add_class("deepblue-risk-summary")
        self._advice = widgets.HTML()
        self._advice.add_class("deepblue-advice")
        self._notes = widgets.HTML()
        self._table = widgets.HTML()
        self._table.add_class("deepblue-policy-table")
        self._survival_chart = Chart()
        self._vp_chart = Chart()
        self._stop_go_chart = Chart()
        self._policy_chart = Chart()
        self._numbers_key: str | None = None
        self._numbers_cache: dict[str, Any] = {}
        for w in (*self._bag.values(), *self._drawn.values(), *self._shields.values(), self._spot, self._bonus,
                  self._pairs, self._kept):
            w.observe(self._on_input, names="value")
        self._k.observe(self._on_k, names="value")   # k only moves the marker and the VP distribution
        # typed counts: one small labelled box per colour, wrapping at narrow widths (a fixed grid of eight
        # columns was cut off in an 800 px preview)
        self._row_labels = [widgets.HTML() for _ in range(3)]
        self._colour_labels = [widgets.HTML() for _ in COLOURS]
        self._drawn_labels = [widgets.HTML() for _ in COLOURS]
        self._shield_labels = [widgets.HTML() for _ in range(3)]
        wrap = widgets.Layout(flex_flow="row wrap", align_items="flex-end")
        typed = widgets.VBox([
            self._row_labels[0], widgets.HBox([widgets.VBox([lab, box]) for lab, box in
                                               zip(self._colour_labels, self._bag.values())], layout=wrap),
            self._row_labels[1], widgets.HBox([widgets.VBox([lab, box]) for lab, box in
                                               zip(self._drawn_labels, self._drawn.values())], layout=wrap),
            self._row_labels[2], widgets.HBox([widgets.VBox([lab, box]) for lab, box in
                                               zip(self._shield_labels, self._shields.values())], layout=wrap)])
        self._typed = widgets.Accordion(children=[typed])
        self._typed.selected_index = None
        self._typed.add_class("deepblue-typed-counts")
        self._spot_label, self._bonus_label, self._pairs_label, self._kept_label, self._k_label = (
            widgets.HTML() for _ in range(5))
        options = widgets.HBox([widgets.VBox([label, box], layout=widgets.Layout(margin="0 1.5em 0.4em 0"))
                                for label, box in ((self._spot_label, self._spot), (self._bonus_label, self._bonus),
                                                   (self._pairs_label, self._pairs), (self._kept_label, self._kept))],
                               layout=widgets.Layout(flex_flow="row wrap"))
        # two charts side by side where there is room, one above the other in a narrow preview
        charts = widgets.GridBox([self._survival_chart, self._vp_chart, self._stop_go_chart, self._policy_chart],
                                 layout=widgets.Layout(grid_template_columns="repeat(auto-fit, minmax(min(100%, 36em), 1fr))",
                                                       width="100%"))
        self._finish([self._title, self._bag_tokens, self._drawn_tokens, self._shield_tokens, self._typed, options,
                      self._summary, self._advice, self._link, widgets.HBox([self._k_label, self._k],
                                                                            layout=widgets.Layout(flex_flow="row wrap")),
                      charts, self._table, self._notes])
        self.refresh()

    @staticmethod
    def _count(value: int, css: str, high: int = MAX_COUNT) -> widgets.BoundedIntText:
        box = widgets.BoundedIntText(value=value, min=0, max=high, layout=widgets.Layout(width="5em"))
        box.add_class(css)
        return box

    # ---- reading the inputs (untrusted: re-validated through the analysis' own parser) -------------
    def inputs(self) -> dict[str, Any]:
        spot = self._spot.value if self._spot.value in SPOT_KINDS else None
        return {"bag": {c: w.value for c, w in self._bag.items()}, "drawn": {c: w.value for c, w in self._drawn.items()},
                "shields": {k: w.value for k, w in self._shields.items()}, "spots": [spot] if spot else [],
                "leader_bonus": int(self._bonus.value), "gems_per_draw": 2 if self._pairs.value else 1,
                "bonus_kept_on_bust": bool(self._kept.value)}

    @safe_callback
    def _on_input(self, change: Mapping[str, Any]) -> None:
        self.analyse()

    def _on_token(self, value: Any) -> None:
        """A − or + on a gem token: ``(row, colour, new count)``, offered by :meth:`_draw_tokens`."""
        row, key, count = value
        box = {"bag": self._bag, "drawn": self._drawn, "shields": self._shields}[row][key]
        box.value = min(max(int(count), box.min), box.max)      # the box's observer re-analyses

    def _draw_tokens(self) -> None:
        """The three token rows from the boxes' values: − and + offered within each box's bounds."""
        tr = self.t
        rows = (("bag", self._bag_tokens, self._bag, COLOURS, "deepblue.ui.bag"),
                ("drawn", self._drawn_tokens, self._drawn, COLOURS, "deepblue.ui.drawn"),
                ("shields", self._shield_tokens, self._shields, ("black", "blue", "any"), "deepblue.ui.shields"))
        for row, tokens, boxes, keys, title in rows:
            gems, offers, refusals = [], {}, {}
            what = tr(title)
            for key in keys:
                box = boxes[key]
                name = tr(f"deepblue.spot.{key}") if row == "shields" else gem_name(key, self.lang)
                minus = {"key": f"minus:{key}", "aria": tr("deepblue.comp.gem_fewer", gem=name, what=what)}
                plus = {"key": f"plus:{key}", "aria": tr("deepblue.comp.gem_more", gem=name, what=what)}
                if box.value > box.min:
                    offers[minus["key"]] = (row, key, box.value - 1)
                else:
                    refusals[minus["key"]] = tr("deepblue.comp.at_least")
                if box.value < box.max:
                    offers[plus["key"]] = (row, key, box.value + 1)
                else:
                    refusals[plus["key"]] = tr("deepblue.comp.at_most", n=box.max)
                gems.append({"colour": key, "name": name, "n": box.value, "minus": minus, "plus": plus})
            total = sum(b.value for b in boxes.values())
            tokens.lang = self.lang
            tokens.show(gems, offers=offers, refusals=refusals,
                        labels={"title": f"{what} ({total})"})

    @safe_callback
    def _on_k(self, change: Mapping[str, Any]) -> None:
        x = self.inputs()
        pos = position(x["bag"], x["drawn"], x["shields"], x["spots"])
        k = min(self._k.value, pos.total)
        self._survival_chart.update(survival_spec([position_survival(pos, j) for j in range(pos.total + 1)], self.lang, mark=k))
        self._vp_chart.update(vp_distribution_spec(position_vp_distribution(pos, k), self.lang))

    def refresh(self) -> None:
        tr = self.t
        self._title.value = heading(tr("deepblue.ui.gem_bag_title"))
        for lab, c in zip(self._colour_labels + self._drawn_labels, COLOURS + COLOURS):
            lab.value = f"<b>{esc(gem_name(c, self.lang))}</b>"
        self._typed.set_title(0, tr("deepblue.comp.type_counts"))
        for lab, key in zip(self._row_labels, ("deepblue.ui.bag", "deepblue.ui.drawn", "deepblue.ui.shields")):
            lab.value = esc(tr(key))
        for lab, k in zip(self._shield_labels, ("black", "blue", "any")):
            lab.value = esc(tr(f"deepblue.spot.{k}"))
        set_options(self._spot, [("—", "none")] + [(tr(f"deepblue.spot.{s}"), s) for s in SPOT_KINDS])
        self._spot_label.value = esc(tr("deepblue.ui.spot"))
        self._bonus_label.value = esc(tr("deepblue.ui.leader_bonus"))
        self._pairs_label.value = esc(tr("deepblue.ui.pairs"))
        self._kept_label.value = esc(tr("deepblue.ui.bonus_kept"))
        self._k_label.value = esc(tr("deepblue.ui.k_slider"))
        self._notes.value = (f"<p><small>{esc(tr('deepblue.ui.policy_note'))}<br>{esc(tr('deepblue.ui.reference'))}<br>"
                             f"{esc(tr('deepblue.ui.illustrative_note'))}</small></p>")
        self.analyse()

    def _numbers(self, x: Mapping[str, Any]) -> dict[str, Any]:
        """Everything the view shows that does not depend on the language or on ``k``: position, survival
        curve, expected VP by draws, policy and the head of its table. Kept for the last inputs, so a language switch
        only re-renders text and charts (a 40-gem bag with six protections has 114k policy states: its
        table alone took 1.2 s to build, and the switch recomputed it)."""
        key = repr(sorted(x.items()))
        if self._numbers_key == key:
            return self._numbers_cache
        pos = position(x["bag"], x["drawn"], x["shields"], x["spots"])
        total = pos.total
        bonus, kept = x["leader_bonus"], x["bonus_kept_on_bust"]
        expected = []
        for j in range(total + 1):
            d = position_vp_distribution(pos, j)
            expected.append(d.expected + bonus * (1 if kept else 1 - d.bust))
        policy = rows = None
        if total <= POLICY_LIMIT:
            policy = optimal_policy(x["bag"], x["drawn"], x["shields"], x["spots"], leader_bonus=bonus,
                                    gems_per_draw=x["gems_per_draw"], bonus_kept_on_bust=kept)
            # the view's table shows at most TABLE_ROWS rows of the first draws, all at the head of the table
            rows = policy.table_head(TABLE_ROWS)
        numbers = {"pos": pos, "curve": [position_survival(pos, k) for k in range(total + 1)], "expected": expected,
                   "policy": policy, "rows": rows}
        self._numbers_key, self._numbers_cache = key, numbers
        return numbers

    def analyse(self) -> None:
        """Recompute everything from the inputs; refusals (e.g. more drawn than possible) are shown."""
        tr = self.t
        x = self.inputs()
        self._draw_tokens()
        self._link.value = (f"<a class='deepblue-link' href='?{esc(query_from_inputs(x, self._k.value))}' target='_top'>"
                            f"{esc(tr('deepblue.comp.share_link'))}</a>")
        numbers = self._numbers(x)
        pos, curve = numbers["pos"], numbers["curve"]
        self.clear_report()
        total = pos.total
        lines = []
        if total:
            p = position_bust_chance(pos)
            lines.append(tr("deepblue.ui.next_draw_bust", fraction=str(p), percent=percent(p)))
        for k in (2, 4, 5, 7):
            if k <= total:
                lines.append(tr("deepblue.ui.survival_after", k=k, fraction=str(curve[k]), decimal=f"{float(curve[k]):.3f}"))
        self._summary.value = "<ul>" + "".join(f"<li>{esc(line)}</li>" for line in lines) + "</ul>"
        k = min(self._k.value, total)
        if self._k.max != max(total, 1):
            self._k.max = max(total, 1)
        dist = position_vp_distribution(pos, k)
        self._survival_chart.update(survival_spec(curve, self.lang, mark=k))
        self._vp_chart.update(vp_distribution_spec(dist, self.lang))
        policy, rows = numbers["policy"], numbers["rows"]
        if policy is None:
            self._advice.value = f"<p>{esc(tr('deepblue.ui.bag_too_large', limit=POLICY_LIMIT, gems=total))}</p>"
            return
        go = policy.go_value()
        advice = tr(f"deepblue.ui.advice_{policy.advice()}")
        parts = [tr("deepblue.ui.stop_now", vp=str(policy.stop_value()))]
        if go is not None:
            parts.append(tr("deepblue.ui.go_on", vp=f"{go} ≈ {float(go):.3f}"))
        parts.append(tr("deepblue.ui.advice", advice=advice))
        self._advice.value = (f"<div class='deepblue-advice-{policy.advice()}'>" +
                              "<br>".join(esc(p) for p in parts) + "</div>")
        self._stop_go_chart.update(stop_vs_go_spec(numbers["expected"], policy.value, self.lang))
        self._policy_chart.update(policy_spec(policy, self.lang))
        self._table.value = policy_table_html(policy, self.lang, rows=rows)


def policy_table_html(policy, lang: str, max_draws: int = 3, max_rows: int = TABLE_ROWS,
                      rows: list[dict] | None = None) -> str:
    """The stop-or-go table for the first few draws: gems drawn by kind, VP banked, both values, advice.
    ``rows``: the head of ``policy.table()`` (at least ``max_rows`` rows) if the caller already has it."""
    rows = policy.table_head(max_rows) if rows is None else rows
    # the table lists states fewest draws first, so the first max_rows rows within max_draws are a prefix
    shown = []
    for r in rows:
        if r["draws"] > max_draws or len(shown) == max_rows:
            break
        shown.append(r)
    rows = shown
    groups = ["+".join(gem_name(c, lang) for c in g) for g in policy.groups]
    head = "".join(f"<th>{esc(g)}</th>" for g in groups)
    body = []
    for r in rows:
        drawn = [r[f"drawn {'+'.join(g)}"] for g in policy.groups]
        go = "—" if r["go"] is None else f"{float(r['go']):.3f}"
        advice = t(f"deepblue.ui.advice_{r['advice']}", lang)
        body.append("<tr>" + "".join(f"<td>{n}</td>" for n in drawn) +
                    f"<td>{r['banked_vp']}</td><td>{float(r['stop']):.3f}</td><td>{go}</td>"
                    f"<td class='deepblue-advice-cell-{r['advice']}'>{esc(advice)}</td></tr>")
    return (f"<details><summary>{esc(t('deepblue.ui.policy_title', lang))}</summary><table><tr>{head}"
            f"<th>{esc(t('deepblue.ui.banked_vp', lang))}</th><th>{esc(t('deepblue.ui.advice_stop', lang))}</th>"
            f"<th>{esc(t('deepblue.ui.advice_go', lang))}</th><th></th></tr>{''.join(body)}</table></details>")
