"""Sewer Pirats figures (pure builders returning ``go.Figure``)."""

from __future__ import annotations

import plotly.graph_objects as go

from toolkit.core.i18n import translate
from toolkit.pirats.tokens import ScoreSheet

SCORED = "#2a9d8f"
MISSED = "#e9c46a"


def score_figure(sheet: ScoreSheet, lang: str = "en") -> go.Figure:
    """One bar per score-sheet line: the points it earns (teal) or would earn with the missing bonus
    token (sand, drawn at its face value with the points shown as 0)."""
    labels, points, missed, hover = [], [], [], []
    for i, line in enumerate(sheet.lines):
        labels.append(f"{i + 1}. " + ", ".join(t.text(lang) for t in line.tokens[:3])
                      + (" …" if len(line.tokens) > 3 else ""))
        points.append(line.points)
        would = dict(line.params).get("value", dict(line.params).get("sum", 0))
        missed.append(would if line.points == 0 and isinstance(would, int) else 0)
        hover.append(line.text(lang))
    fig = go.Figure()
    fig.add_bar(y=labels, x=points, orientation="h", name=translate("pirats.ui.scored", lang),
                marker_color=SCORED, hovertext=hover, hoverinfo="text")
    fig.add_bar(y=labels, x=missed, orientation="h", name=translate("pirats.ui.missed", lang),
                marker_color=MISSED, hovertext=hover, hoverinfo="text")
    fig.update_layout(barmode="stack", height=120 + 28 * max(1, len(labels)), margin=dict(l=10, r=10, t=40, b=30),
                      title=translate("pirats.ui.chart_title", lang, total=sheet.total),
                      yaxis=dict(autorange="reversed"), xaxis=dict(title=translate("pirats.ui.points", lang)),
                      legend=dict(orientation="h", y=-0.15))
    return fig
