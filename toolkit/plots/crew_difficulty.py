"""Plotly figures for the Crew solver views: winnable share against printed difficulty (pure builders).

Views show them through :class:`toolkit.widgets.base.Chart`; labels come from the message catalogue, so
every figure exists in English and Japanese.
"""

from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go

from toolkit.core.i18n import translate as t
from toolkit.crew.difficulty import Cell, Table, summary_by_difficulty
from toolkit.crew.tasks import TASKS

_LAYOUT = dict(template="none", height=380, margin=dict(l=60, r=20, t=50, b=50), plot_bgcolor="white",
               font=dict(family="sans-serif", size=12))


def _jitter(task: int) -> float:
    """A fixed horizontal offset per task so tasks of one difficulty do not hide each other."""
    return ((task * 37) % 21 - 10) / 40


def difficulty_figure(table: Table, players: int, lang: str = "en", highlight: Sequence[Cell] = ()) -> go.Figure:
    """Winnable share (95 % Wilson interval) of every task against its printed difficulty for ``players``;
    ``highlight`` adds cells from a live rerun as open diamonds."""
    cells = [c for c in table.cells if c.players == players and c.share is not None]
    shares = [100 * c.share for c in cells]
    lows = [100 * c.interval[0] for c in cells]
    highs = [100 * c.interval[1] for c in cells]
    texts = [f"#{c.task} {TASKS[c.task].text(lang)}<br>{t('crew.ui.solver.share_hover', lang, win=c.win, decided=c.decided, undecided=c.undecided)}"
             for c in cells]
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=[c.difficulty + _jitter(c.task) for c in cells], y=shares, mode="markers",
        marker=dict(size=7, color="#2e86de", opacity=0.8), name=t("crew.ui.solver.tasks", lang),
        error_y=dict(type="data", symmetric=False, array=[h - s for h, s in zip(highs, shares)],
                     arrayminus=[s - lo for s, lo in zip(shares, lows)], thickness=1, width=0, color="#9bbbe0"),
        hovertext=texts, hoverinfo="text"))
    means = summary_by_difficulty(table, players)
    fig.add_trace(go.Scatter(x=[d for d, _, _ in means], y=[100 * m for _, m, _ in means], mode="lines+markers",
                             line=dict(color="#c0392b"), name=t("crew.ui.solver.mean", lang)))
    if highlight:
        fig.add_trace(go.Scatter(
            x=[c.difficulty + _jitter(c.task) for c in highlight if c.share is not None],
            y=[100 * c.share for c in highlight if c.share is not None], mode="markers",
            marker=dict(size=13, symbol="diamond-open", color="#27ae60", line=dict(width=2)),
            name=t("crew.ui.solver.rerun", lang)))
    fig.update_layout(**_LAYOUT, title=t("crew.ui.solver.chart_title", lang, players=players),
                      xaxis=dict(title=t("crew.ui.solver.printed_difficulty", lang), dtick=1, gridcolor="#eee"),
                      yaxis=dict(title=t("crew.ui.solver.winnable_share", lang), range=[0, 105], gridcolor="#eee"),
                      legend=dict(orientation="h", y=-0.2))
    return fig
