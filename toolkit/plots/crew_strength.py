"""Plotly figure for the Crew bot strength study: first-attempt success per mission and level, with the
double-dummy ceiling and the expert's share of the winnable games (a pure builder; labels from the message
catalogue, en and ja).

Any player count works, whatever the table holds: a level or mission without a cell at that count is simply
absent from the chart (the view says "not measured" in words), and a count without any cell gives an empty
chart that says so.

>>> from toolkit.crew.strength import Cell, StrengthTable
>>> table = StrengthTable({(1, 3, "expert"): Cell(1, 3, "expert", 10, 8, 9, 0, 8)})
>>> [trace.name for trace in strength_figure(table, 3).data]
['winnable double-dummy (the ceiling)', 'expert', 'expert: won of the winnable deals']
>>> strength_figure(table, 5).layout.annotations[0].text
'No games measured at 5 players'
"""

from __future__ import annotations

import plotly.graph_objects as go

from toolkit.core.i18n import translate as t
from toolkit.crew.strength import LEVELS, Cell, StrengthTable
from toolkit.core.studies import wilson

_COLOURS = {"random": "#7f8c8d", "beginner": "#1f6fbf", "expert": "#b03a2e"}
#: fewer games than this in a cell: its interval is wide, the marker is drawn open (the view says "few games")
THIN_GAMES = 30
#: font size and height: a normal page (1200 px) and a projector (``?display=large``)
SIZES = {"normal": (13, 430), "large": (20, 600)}


def _cells(table: StrengthTable, players: int, level: str) -> list[Cell]:
    return sorted((c for k, c in table.cells.items() if k[1] == players and k[2] == level and c.games),
                  key=lambda c: c.mission)


def strongest_level(table: StrengthTable, players: int) -> str | None:
    """The strongest level with a cell at ``players`` (the one whose ceiling and "of winnable" are shown)."""
    levels = [lv for lv in LEVELS if _cells(table, players, lv)]
    return levels[-1] if levels else None


def ceiling_cells(table: StrengthTable, players: int) -> list[Cell]:
    """Per mission measured at ``players``, the cell of the strongest level run there: its games' double-dummy
    verdicts are the ceiling shown (the allocation, hence the ceiling, depends a little on the team)."""
    out: dict[int, Cell] = {}
    for lv in LEVELS:                      # weakest first: a stronger level's cell replaces it
        for c in _cells(table, players, lv):
            out[c.mission] = c
    return [out[m] for m in sorted(out)]


def strength_figure(table: StrengthTable, players: int = 4, lang: str = "en", display: str = "normal") -> go.Figure:
    """Success rate (95 % Wilson interval) of each bot level per mission; the share of the games of the
    strongest level run on each mission that were winnable double-dummy (bars: the ceiling); and that level's success among those
    winnable games (open diamonds). Cells of fewer than :data:`THIN_GAMES` games have open markers."""
    font, height = SIZES.get(display, SIZES["normal"])
    fig = go.Figure()
    levels = [lv for lv in LEVELS if _cells(table, players, lv)]
    top = levels[-1] if levels else None
    if top is not None:
        cells = [c for c in ceiling_cells(table, players) if c.games > c.undecided]
        fig.add_trace(go.Bar(x=[c.mission for c in cells], y=[100 * c.ceiling for c in cells],
                             marker=dict(color="rgba(39,174,96,0.22)", line=dict(color="rgba(39,174,96,0.5)", width=1)),
                             name=t("crew.ui.strength.ceiling", lang),
                             hovertext=[t("crew.ui.strength.hover_ceiling", lang, mission=c.mission, winnable=c.winnable,
                                          games=c.games - c.undecided) for c in cells], hoverinfo="text"))
    for lv in levels:
        cells = _cells(table, players, lv)
        rates = [100 * c.rate for c in cells]
        lows = [100 * c.interval()[0] for c in cells]
        highs = [100 * c.interval()[1] for c in cells]
        fig.add_trace(go.Scatter(
            x=[c.mission for c in cells], y=rates, mode="markers+lines", name=t(f"crew.ui.strength.{lv}", lang),
            marker=dict(color=_COLOURS[lv], size=font - 3,
                        symbol=["circle" if c.games >= THIN_GAMES else "circle-open" for c in cells],
                        line=dict(color=_COLOURS[lv], width=2)),
            line=dict(color=_COLOURS[lv], width=1.5),
            error_y=dict(type="data", symmetric=False, array=[h - r for h, r in zip(highs, rates)],
                         arrayminus=[r - lo for r, lo in zip(rates, lows)], thickness=1.2, width=3),
            hovertext=[t("crew.ui.strength.hover", lang, mission=c.mission, wins=c.successes, games=c.games)
                       for c in cells], hoverinfo="text"))
    if top is not None:
        cells = [c for c in _cells(table, players, top) if c.winnable]
        shares = [100 * c.of_winnable for c in cells]
        bounds = [wilson(c.won_winnable, c.winnable) for c in cells]
        fig.add_trace(go.Scatter(
            x=[c.mission for c in cells], y=shares, mode="markers",
            name=t("crew.ui.strength.of_winnable", lang, level=t(f"crew.ui.strength.{top}", lang)),
            marker=dict(color="white", size=font - 1, symbol="diamond", line=dict(color=_COLOURS[top], width=2)),
            error_y=dict(type="data", symmetric=False, array=[100 * hi - s for (_, hi), s in zip(bounds, shares)],
                         arrayminus=[s - 100 * lo for (lo, _), s in zip(bounds, shares)], thickness=1,
                         width=2, color=_COLOURS[top]),
            hovertext=[t("crew.ui.strength.hover_of_winnable", lang, mission=c.mission, won=c.won_winnable,
                         winnable=c.winnable) for c in cells], hoverinfo="text"))
    missions = sorted({c.mission for lv in levels for c in _cells(table, players, lv)})
    fig.update_layout(template="none", height=height, plot_bgcolor="white", barmode="overlay",
                      margin=dict(l=12 + 5 * font, r=20, t=4 * font, b=8 * font),
                      font=dict(family="sans-serif", size=font),
                      title=dict(text=t("crew.ui.strength.title", lang, players=players), font=dict(size=font + 3)),
                      xaxis=dict(title=t("crew.ui.strength.mission", lang), tickmode="array", tickvals=missions,
                                 gridcolor="#eee", range=[min(missions, default=1) - 0.6, max(missions, default=10) + 0.6]),
                      yaxis=dict(title=t("crew.ui.strength.rate", lang), range=[0, 105], gridcolor="#eee"),
                      legend=dict(orientation="h", y=-0.22, x=0, yanchor="top"))
    if not levels:
        fig.add_annotation(text=t("crew.ui.strength.none", lang, players=players), showarrow=False,
                           x=0.5, y=0.5, xref="paper", yref="paper", font=dict(size=font + 2))
    return fig
