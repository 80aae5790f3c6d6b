"""Plotly figure builders for Deep Blue's risk analysis and board (pure functions returning ``go.Figure``).

Views show them through :class:`toolkit.widgets.base.Chart`; notebooks may display them directly. Labels
come from the message catalogue, so every figure exists in English and Japanese.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import plotly.graph_objects as go

from toolkit.core.i18n import translate as t
from toolkit.deepblue.components import Components
from toolkit.deepblue.risk import DivePolicy, VPDistribution

GEM_COLOURS = {"silver": "#a8a9ad", "gold": "#d4af37", "red": "#c0392b", "green": "#27ae60", "purple": "#8e44ad",
               "black": "#222222", "blue": "#2e86de"}
# template "none": the named templates cost ~0.3 s per figure to validate and copy; a few explicit
# settings give the same clean look in ~10 ms.
_LAYOUT = dict(template="none", height=320, margin=dict(l=55, r=20, t=50, b=45), plot_bgcolor="white",
               font=dict(family="sans-serif", size=12))


def survival_figure(curve: Sequence[Fraction], lang: str = "en", mark: int | None = None) -> go.Figure:
    """Chance of still being in after k more draws, k = 0..n (a step curve in percent)."""
    ks = list(range(len(curve)))
    pct = [float(p) * 100 for p in curve]
    fig = go.Figure(go.Scatter(x=ks, y=pct, mode="lines+markers", line_shape="hv", name=t("deepblue.ui.survival", lang),
                               hovertemplate="%{x}: %{y:.1f}%<extra></extra>"))
    if mark is not None and 0 <= mark < len(curve):
        fig.add_trace(go.Scatter(x=[mark], y=[pct[mark]], mode="markers", marker=dict(size=14, color="#c0392b"),
                                 name=t("deepblue.ui.k_draws", lang, k=mark), hoverinfo="skip"))
    fig.update_layout(title=t("deepblue.ui.survival_title", lang), xaxis_title=t("deepblue.ui.more_draws", lang),
                      yaxis_title=t("deepblue.ui.still_in_pct", lang), yaxis_range=[0, 105], showlegend=False,
                      **_LAYOUT)
    return fig


def vp_distribution_figure(dist: VPDistribution, lang: str = "en") -> go.Figure:
    """Treasure VP if you stop after k more draws: one bar per VP total, and a bar for busting."""
    xs = [t("deepblue.ui.bust", lang)] + [str(v) for v in dist.vp]
    ys = [float(dist.bust) * 100] + [float(p) * 100 for p in dist.vp.values()]
    colours = ["#c0392b"] + ["#2e86de"] * len(dist.vp)
    fig = go.Figure(go.Bar(x=xs, y=ys, marker_color=colours, hovertemplate="%{x}: %{y:.1f}%<extra></extra>"))
    fig.update_layout(title=t("deepblue.ui.vp_title", lang, k=dist.draws), xaxis_title=t("deepblue.ui.treasure_vp", lang),
                      yaxis_title=t("deepblue.ui.chance_pct", lang), xaxis_type="category", **_LAYOUT)
    return fig


def stop_vs_go_figure(expected_by_draws: Sequence[Fraction], optimal: Fraction, lang: str = "en") -> go.Figure:
    """Expected dive VP if you stop after exactly k more draws, against the optimal policy's value."""
    ks = list(range(len(expected_by_draws)))
    fig = go.Figure(go.Scatter(x=ks, y=[float(v) for v in expected_by_draws], mode="lines+markers",
                               name=t("deepblue.ui.stop_after_k", lang), hovertemplate="%{x}: %{y:.2f}<extra></extra>"))
    fig.add_hline(y=float(optimal), line_dash="dash", line_color="#27ae60",
                  annotation_text=t("deepblue.ui.optimal_value", lang, value=f"{float(optimal):.2f}"))
    fig.update_layout(title=t("deepblue.ui.stop_vs_go_title", lang), xaxis_title=t("deepblue.ui.more_draws", lang),
                      yaxis_title=t("deepblue.ui.expected_vp", lang), showlegend=False, **_LAYOUT)
    return fig


def policy_figure(policy: DivePolicy, lang: str = "en") -> go.Figure:
    """Stop or go in every reachable state: x = gems drawn, y = treasure VP banked, one panel per hazard
    situation (black/blue gems seen), green = go on, red = stop."""
    rows = policy.table()
    fig = go.Figure()
    seen_status = sorted({r["hazards"] for r in rows})
    symbols = ["circle", "square", "diamond", "triangle-up", "x", "star", "cross", "hexagon"]
    for advice, colour in (("go", "#27ae60"), ("stop", "#c0392b")):
        for i, status in enumerate(seen_status):
            pts = [r for r in rows if r["advice"] == advice and r["hazards"] == status]
            if not pts:
                continue
            fig.add_trace(go.Scatter(
                x=[r["draws"] + (i - len(seen_status) / 2) * 0.06 for r in pts], y=[r["banked_vp"] for r in pts],
                mode="markers", marker=dict(color=colour, symbol=symbols[i % len(symbols)], size=8, opacity=0.75),
                name=f"{t(f'deepblue.ui.advice_{advice}', lang)} — {status}",
                hovertemplate=(f"{status}<br>%{{y}} VP<br>" + t(f"deepblue.ui.advice_{advice}", lang) + "<extra></extra>")))
    fig.update_layout(title=t("deepblue.ui.policy_title", lang), xaxis_title=t("deepblue.ui.gems_drawn", lang),
                      yaxis_title=t("deepblue.ui.banked_vp", lang), **dict(_LAYOUT, height=380))
    return fig


def board_figure(comps: Components, observation: dict, lang: str = "en") -> go.Figure:
    """The board from a seat's observation: sites, sea lanes, tiles (face-down ones unlabelled), boats."""
    sites = {s.id: s for s in comps.board.sites}
    fig = go.Figure()
    xs, ys = [], []
    for a, b in comps.board.edges:
        xs += [sites[a].x, sites[b].x, None]
        ys += [sites[a].y, sites[b].y, None]
    fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", line=dict(color="#9ecae1"), hoverinfo="skip", showlegend=False))
    tiles = {tile["site"]: tile for tile in observation["tiles"]}
    labels, colours, tx, ty = [], [], [], []
    for s in comps.board.sites:
        tile = tiles.get(s.id)
        tx.append(s.x)
        ty.append(s.y)
        if s.harbour:
            labels.append(t("deepblue.ui.harbour", lang))
            colours.append("#f1c40f")
        elif tile is None:
            labels.append(f"{s.id}")
            colours.append("#ecf0f1")
        elif not tile["face_up"]:
            labels.append(f"{s.id} ?")
            colours.append("#7f8c8d")
        else:
            sc = "★" if tile["sunken_city"] else ""
            labels.append(f"{s.id}{sc} +{tile['leader_bonus']}<br>" + "/".join(tile["spots"]))
            colours.append("#e67e22" if tile["sunken_city"] else "#16a085")
    fig.add_trace(go.Scatter(x=tx, y=ty, mode="markers+text", text=labels, textposition="bottom center",
                             marker=dict(size=26, color=colours, symbol="square", line=dict(color="#34495e", width=1)),
                             hoverinfo="text", showlegend=False))
    palette = ["#e74c3c", "#f39c12", "#2ecc71", "#3498db", "#9b59b6"]
    for p in observation["players"]:
        bx = [sites[b["site"]].x + (p["seat"] - 2) * 0.08 for b in p["boats"]]
        by = [sites[b["site"]].y + 0.18 for b in p["boats"]]
        fig.add_trace(go.Scatter(x=bx, y=by, mode="markers", marker=dict(size=11, color=palette[p["seat"] % 5],
                                 symbol="triangle-up", line=dict(color="black", width=1)),
                                 name=t("deepblue.ui.seat_n", lang, seat=p["seat"])))
    fig.update_layout(title=t("deepblue.ui.board", lang), xaxis=dict(visible=False), yaxis=dict(visible=False),
                      **dict(_LAYOUT, height=420))
    return fig
