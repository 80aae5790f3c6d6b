"""Plotly figure builders for Deep Blue's risk analysis and board (pure functions returning ``go.Figure``,
and for the risk charts the same figure as a plain dict: ``*_spec``).

Views show them through :class:`toolkit.widgets.base.Chart`; notebooks may display them directly. Labels
come from the message catalogue, so every figure exists in English and Japanese.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Sequence

import plotly.graph_objects as go

from toolkit.core.i18n import translate as t
from toolkit.deepblue.risk import DivePolicy, VPDistribution

GEM_COLOURS = {"silver": "#a8a9ad", "gold": "#d4af37", "red": "#c0392b", "green": "#27ae60", "purple": "#8e44ad",
               "black": "#222222", "blue": "#2e86de"}
# template "none": the named templates cost ~0.3 s per figure to validate and copy; a few explicit
# settings give the same clean look in ~10 ms.
_LAYOUT = dict(template="none", height=320, margin=dict(l=55, r=20, t=50, b=45), plot_bgcolor="white",
               font=dict(family="sans-serif", size=12))


# ---- figure specs --------------------------------------------------------------------------------------
# The gem-bag view redraws four charts on every input and language switch. Building them as validated
# ``go.Figure`` objects cost ~20 ms each (plotly's property validation and deep copies: 100 ms of a 200 ms
# language switch, measured with cProfile), so the risk charts are built as plain figure dicts ("specs")
# that :class:`toolkit.widgets.chart.Chart` sends as they are. The public ``*_figure`` functions validate
# the same spec into a ``go.Figure`` for notebooks, and tests check that the two give identical JSON.
FigureSpec = dict


def _spec_layout(title: str, x_title: str, y_title: str, **extra: object) -> dict:
    layout = {"template": _none_template(), "height": 320, "margin": {"l": 55, "r": 20, "t": 50, "b": 45},
              "plot_bgcolor": "white", "font": {"family": "sans-serif", "size": 12}, "title": {"text": title},
              "xaxis": {"title": {"text": x_title}}, "yaxis": {"title": {"text": y_title}}}
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(layout.get(key), dict):
            layout[key] = {**layout[key], **value}
        else:
            layout[key] = value
    return layout


_NONE_TEMPLATE: dict | None = None


def _none_template() -> dict:
    """Plotly's "none" template as the JSON a validated figure carries (a fresh copy per figure)."""
    global _NONE_TEMPLATE
    if _NONE_TEMPLATE is None:
        import plotly.io as pio

        _NONE_TEMPLATE = pio.templates["none"].to_plotly_json()
    return copy.deepcopy(_NONE_TEMPLATE)


def survival_spec(curve: Sequence[Fraction], lang: str = "en", mark: int | None = None) -> FigureSpec:
    """:func:`survival_figure` as a plain figure dict."""
    ks = list(range(len(curve)))
    pct = [float(p) * 100 for p in curve]
    data = [{"type": "scatter", "x": ks, "y": pct, "mode": "lines+markers", "line": {"shape": "hv"},
             "name": t("deepblue.ui.survival", lang), "hovertemplate": "%{x}: %{y:.1f}%<extra></extra>"}]
    if mark is not None and 0 <= mark < len(curve):
        data.append({"type": "scatter", "x": [mark], "y": [pct[mark]], "mode": "markers",
                     "marker": {"size": 14, "color": "#c0392b"}, "name": t("deepblue.ui.k_draws", lang, k=mark),
                     "hoverinfo": "skip"})
    return {"data": data, "layout": _spec_layout(t("deepblue.ui.survival_title", lang), t("deepblue.ui.more_draws", lang),
                                                 t("deepblue.ui.still_in_pct", lang), yaxis={"range": [0, 105]},
                                                 showlegend=False)}


def survival_figure(curve: Sequence[Fraction], lang: str = "en", mark: int | None = None) -> go.Figure:
    """Chance of still being in after k more draws, k = 0..n (a step curve in percent)."""
    return go.Figure(survival_spec(curve, lang, mark))


def vp_distribution_spec(dist: VPDistribution, lang: str = "en") -> FigureSpec:
    """:func:`vp_distribution_figure` as a plain figure dict."""
    xs = [t("deepblue.ui.bust", lang)] + [str(v) for v in dist.vp]
    ys = [float(dist.bust) * 100] + [float(p) * 100 for p in dist.vp.values()]
    colours = ["#c0392b"] + ["#2e86de"] * len(dist.vp)
    data = [{"type": "bar", "x": xs, "y": ys, "marker": {"color": colours},
             "hovertemplate": "%{x}: %{y:.1f}%<extra></extra>"}]
    return {"data": data, "layout": _spec_layout(t("deepblue.ui.vp_title", lang, k=dist.draws),
                                                 t("deepblue.ui.treasure_vp", lang), t("deepblue.ui.chance_pct", lang),
                                                 xaxis={"type": "category"})}


def vp_distribution_figure(dist: VPDistribution, lang: str = "en") -> go.Figure:
    """Treasure VP if you stop after k more draws: one bar per VP total, and a bar for busting."""
    return go.Figure(vp_distribution_spec(dist, lang))


def stop_vs_go_spec(expected_by_draws: Sequence[Fraction], optimal: Fraction, lang: str = "en") -> FigureSpec:
    """:func:`stop_vs_go_figure` as a plain figure dict."""
    ks = list(range(len(expected_by_draws)))
    best = float(optimal)
    data = [{"type": "scatter", "x": ks, "y": [float(v) for v in expected_by_draws], "mode": "lines+markers",
             "name": t("deepblue.ui.stop_after_k", lang), "hovertemplate": "%{x}: %{y:.2f}<extra></extra>"}]
    # What ``fig.add_hline(y, annotation_text=...)`` adds: a dashed line across the plot, labelled at its right end.
    line = {"type": "line", "xref": "x domain", "x0": 0, "x1": 1, "yref": "y", "y0": best, "y1": best,
            "line": {"color": "#27ae60", "dash": "dash"}}
    label = {"text": t("deepblue.ui.optimal_value", lang, value=f"{best:.2f}"), "showarrow": False,
             "xref": "x domain", "x": 1, "xanchor": "right", "yref": "y", "y": best, "yanchor": "bottom"}
    return {"data": data, "layout": _spec_layout(t("deepblue.ui.stop_vs_go_title", lang), t("deepblue.ui.more_draws", lang),
                                                 t("deepblue.ui.expected_vp", lang), shapes=[line], annotations=[label],
                                                 showlegend=False)}


def stop_vs_go_figure(expected_by_draws: Sequence[Fraction], optimal: Fraction, lang: str = "en") -> go.Figure:
    """Expected dive VP if you stop after exactly k more draws, against the optimal policy's value."""
    return go.Figure(stop_vs_go_spec(expected_by_draws, optimal, lang))


_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "cross", "hexagon")


def _hazard_label(status: str, lang: str) -> str:
    """``"black 1, blue 0"`` (:meth:`DivePolicy.spots`' situation key) in the page's language."""
    parts = []
    for part in status.split(", "):
        colour, _, seen = part.partition(" ")
        parts.append(f"{t(f'deepblue.gem.{colour}', lang)} {seen}")
    return ", ".join(parts)


def policy_spec(policy: DivePolicy, lang: str = "en") -> FigureSpec:
    """:func:`policy_figure` as a plain figure dict.

    One marker per distinct (gems drawn, VP banked) spot of each advice and hazard situation
    (:meth:`DivePolicy.spots`): states that differ only in which treasure was drawn land on the same
    spot, and a 40-gem bag has 114k states but 19k spots."""
    points: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for advice, hazards, draws, vp in policy.spots():
        points.setdefault((advice, hazards), []).append((draws, vp))
    seen_status = sorted({status for _, status in points})
    data = []
    for advice, colour in (("go", "#27ae60"), ("stop", "#c0392b")):
        word = t(f"deepblue.ui.advice_{advice}", lang)
        for i, status in enumerate(seen_status):
            pts = list(points.get((advice, status), ()))
            if not pts:
                continue
            # panels side by side around each x: a small offset per hazard situation
            data.append({"type": "scatter", "x": [d + (i - len(seen_status) / 2) * 0.06 for d, _ in pts],
                         "y": [vp for _, vp in pts], "mode": "markers",
                         "marker": {"color": colour, "symbol": _SYMBOLS[i % len(_SYMBOLS)], "size": 8, "opacity": 0.75},
                         "name": f"{word} — {_hazard_label(status, lang)}",
                         "hovertemplate": f"{_hazard_label(status, lang)}<br>%{{y}} VP<br>{word}<extra></extra>"})
    return {"data": data, "layout": _spec_layout(t("deepblue.ui.policy_title", lang), t("deepblue.ui.gems_drawn", lang),
                                                 t("deepblue.ui.banked_vp", lang), height=380)}


def policy_figure(policy: DivePolicy, lang: str = "en") -> go.Figure:
    """Stop or go in every reachable state: x = gems drawn, y = treasure VP banked, one panel per hazard
    situation (black/blue gems seen), green = go on, red = stop."""
    return go.Figure(policy_spec(policy, lang))


