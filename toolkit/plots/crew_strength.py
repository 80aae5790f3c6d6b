"""Plotly figure for the Crew bot strength study: first-attempt success per mission and level, with the
double-dummy ceiling (a pure builder; labels from the message catalogue, en and ja)."""

from __future__ import annotations

import plotly.graph_objects as go

from toolkit.core.i18n import translate as t
from toolkit.crew.strength import LEVELS, StrengthTable

_LAYOUT = dict(template="none", height=400, margin=dict(l=60, r=20, t=50, b=60), plot_bgcolor="white",
               font=dict(family="sans-serif", size=12))
_COLOURS = {"random": "#95a5a6", "beginner": "#2e86de", "expert": "#c0392b"}


def strength_figure(table: StrengthTable, players: int = 4, lang: str = "en") -> go.Figure:
    """Success rate (95 % Wilson interval) of each bot level per mission, and the share of the expert's
    (else the strongest level's) games that were winnable double-dummy: the ceiling."""
    fig = go.Figure()
    levels = [lv for lv in LEVELS if any(k[1] == players and k[2] == lv for k in table.cells)]
    for lv in reversed(levels):
        cells = sorted((c for k, c in table.cells.items() if k[1] == players and k[2] == lv), key=lambda c: c.mission)
        rates = [100 * c.rate for c in cells]
        lows = [100 * c.interval()[0] for c in cells]
        highs = [100 * c.interval()[1] for c in cells]
        fig.add_trace(go.Scatter(
            x=[c.mission for c in cells], y=rates, mode="markers+lines", name=t(f"crew.ui.strength.{lv}", lang),
            marker=dict(color=_COLOURS[lv], size=7), line=dict(color=_COLOURS[lv], width=1),
            error_y=dict(type="data", symmetric=False, array=[h - r for h, r in zip(highs, rates)],
                         arrayminus=[r - lo for r, lo in zip(rates, lows)], thickness=1, width=2),
            hovertext=[t("crew.ui.strength.hover", lang, mission=c.mission, wins=c.successes, games=c.games)
                       for c in cells], hoverinfo="text"))
    if levels:
        top = levels[-1]
        cells = sorted((c for k, c in table.cells.items() if k[1] == players and k[2] == top
                        and c.games > c.undecided), key=lambda c: c.mission)
        fig.add_trace(go.Bar(x=[c.mission for c in cells], y=[100 * c.ceiling for c in cells],
                             marker=dict(color="rgba(39,174,96,0.18)"), name=t("crew.ui.strength.ceiling", lang)))
    fig.update_layout(**_LAYOUT, title=t("crew.ui.strength.title", lang, players=players),
                      xaxis=dict(title=t("crew.ui.strength.mission", lang), dtick=1, gridcolor="#eee"),
                      yaxis=dict(title=t("crew.ui.strength.rate", lang), range=[0, 105], gridcolor="#eee"),
                      legend=dict(orientation="h", y=-0.2), barmode="overlay")
    return fig
