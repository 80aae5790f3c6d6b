"""Plotly figure builders for Tranquility (pure functions returning ``go.Figure``; labels in en or ja)."""

from __future__ import annotations

import plotly.graph_objects as go

from toolkit.core.i18n import translate as t
from toolkit.tranquility.study import REFERENCE_2P, StudyResult

STRATEGY_COLOURS = {"random": "#9aa5b1", "greedy": "#e08a3c", "feasibility": "#2b7bb9", "rank": "#2a9d6f"}


def strategy_label(name: str, lang: str = "en") -> str:
    key = f"tranquility.ui.strategy.{name}"
    try:
        return t(key, lang)
    except Exception:  # noqa: BLE001 - an unknown strategy keeps its code name
        return name


def win_rate_figure(result: StudyResult, lang: str = "en", variant: str | None = None) -> go.Figure:
    """Win rate by player count, one bar group per strategy, 95% Wilson intervals; the public 2-player
    reference figures as open diamonds."""
    rows = [r for r in result.rows if variant is None or r.variant == variant]
    fig = go.Figure()
    for strategy in dict.fromkeys(r.strategy for r in rows):
        mine = sorted((r for r in rows if r.strategy == strategy), key=lambda r: (r.players, r.variant))
        x = [t("tranquility.ui.players_n", lang, n=r.players) + ("" if r.variant == "none" else f" · {r.variant}")
             for r in mine]
        y = [r.win_rate for r in mine]
        lo = [r.win_rate - r.interval()[0] for r in mine]
        hi = [r.interval()[1] - r.win_rate for r in mine]
        fig.add_bar(name=strategy_label(strategy, lang), x=x, y=y, marker_color=STRATEGY_COLOURS.get(strategy),
                    error_y=dict(type="data", symmetric=False, array=hi, arrayminus=lo),
                    hovertemplate="%{x}: %{y:.1%}<extra>" + strategy_label(strategy, lang) + "</extra>")
    for strategy, rate in REFERENCE_2P.items():
        if any(r.strategy == strategy and r.players == 2 and r.variant == "none" for r in rows):
            fig.add_scatter(x=[t("tranquility.ui.players_n", lang, n=2)], y=[rate], mode="markers",
                            marker=dict(symbol="diamond-open", size=14, color=STRATEGY_COLOURS.get(strategy)),
                            name=f"{strategy_label(strategy, lang)} — {t('tranquility.ui.reference', lang)}")
    fig.update_layout(title=t("tranquility.ui.chart_title", lang), barmode="group", yaxis_tickformat=".0%",
                      yaxis_title=t("tranquility.ui.win_rate", lang), yaxis_range=[0, 1], height=420,
                      margin=dict(l=60, r=20, t=60, b=40), template="plotly_white")
    return fig


def filled_figure(result: StudyResult, lang: str = "en") -> go.Figure:
    """How far the games got: mean cells filled at the end, per strategy and player count."""
    fig = go.Figure()
    for strategy in dict.fromkeys(r.strategy for r in result.rows):
        mine = sorted((r for r in result.rows if r.strategy == strategy), key=lambda r: (r.players, r.variant))
        fig.add_bar(name=strategy_label(strategy, lang),
                    x=[t("tranquility.ui.players_n", lang, n=r.players) + ("" if r.variant == "none" else f" · {r.variant}")
                       for r in mine],
                    y=[r.mean_filled for r in mine], marker_color=STRATEGY_COLOURS.get(strategy))
    fig.update_layout(title=t("tranquility.ui.filled_title", lang), barmode="group", yaxis_range=[0, 36],
                      yaxis_title=t("tranquility.ui.cells_filled", lang), height=360,
                      margin=dict(l=60, r=20, t=60, b=40), template="plotly_white")
    return fig
