"""How well do the Crew bots play? The committed strength study (``toolkit.crew.strength``) as a chart and
a summary, beside the double-dummy ceiling: the share of the same deals that could be won at all.

Reads the committed table only (the study takes CPU-hours; ``benchmarks/crew_strength_table.py`` reruns it),
so opening the page costs nothing. No hidden information: every figure is an aggregate over finished games.
"""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as widgets

from toolkit.crew.strength import LEVELS, StrengthTable, load_table
from toolkit.core.studies import wilson
from toolkit.widgets.base import View, esc

#: The issue's yardstick: the expert's share of double-dummy-winnable deals won on missions 1-10 (4 players).
GOAL_MISSIONS = range(1, 11)


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.0f} %"


def summary_rows(table: StrengthTable, players: int = 4, missions: range = GOAL_MISSIONS) -> list[dict[str, Any]]:
    """Per level, over ``missions``: games, first-attempt successes, and successes among the deals that were
    winnable double-dummy (with 95 % Wilson intervals). Levels the table does not hold are left out."""
    out = []
    for level in LEVELS:
        cells = [c for (m, p, lv), c in table.cells.items() if lv == level and p == players and m in missions]
        if not cells:
            continue
        games = sum(c.games for c in cells)
        wins = sum(c.successes for c in cells)
        winnable = sum(c.winnable for c in cells)
        won = sum(c.won_winnable for c in cells)
        out.append({"level": level, "missions": len(cells), "games": games, "successes": wins,
                    "rate": wins / games if games else math.nan, "interval": wilson(wins, games),
                    "winnable": winnable, "won_winnable": won,
                    "of_winnable": won / winnable if winnable else math.nan,
                    "of_winnable_interval": wilson(won, winnable) if winnable else (math.nan, math.nan)})
    return out


class BotStrengthView(View):
    """The Crew bots' strength study: success per mission and level, and the double-dummy ceiling."""

    def __init__(self, lang: str = "en", players: int = 4):
        super().__init__(lang=lang)
        self.add_class("crew-strength")
        from toolkit.widgets.chart import Chart

        self.table = load_table()
        self.players = players
        self._title = widgets.HTML()
        self._summary = widgets.HTML()
        self._summary.add_class("crew-strength-summary")
        self._chart = Chart()
        self._chart.add_class("crew-strength-chart")
        self._finish([self._title, self._summary, self._chart])
        self.refresh()

    def refresh(self) -> None:
        if not hasattr(self, "_chart"):
            return
        from toolkit.plots.crew_strength import strength_figure

        tr = self.t
        self._title.value = (f"<h3>{esc(tr('crew.ui.strength_view.title'))}</h3>"
                             f"<p>{esc(tr('crew.ui.strength_view.intro'))}</p>")
        head = "".join(f"<th scope='col'>{esc(tr(f'crew.ui.strength_view.col_{c}'))}</th>"
                       for c in ("level", "deals", "rate", "of_winnable"))
        body = []
        for row in summary_rows(self.table, self.players):
            lo, hi = row["interval"]
            wlo, whi = row["of_winnable_interval"]
            body.append(
                f"<tr><th scope='row'>{esc(tr('crew.ui.strength.' + row['level']))}</th>"
                f"<td>{esc(tr('crew.ui.strength_view.deals', games=row['games'], missions=row['missions']))}</td><td>{_pct(row['rate'])} ({_pct(lo)}–{_pct(hi)})</td>"
                f"<td>{row['won_winnable']}/{row['winnable']} = {_pct(row['of_winnable'])}"
                f"{'' if row['winnable'] == 0 else f' ({_pct(wlo)}–{_pct(whi)})'}</td></tr>")
        self._summary.value = (
            f"<p><b>{esc(tr('crew.ui.strength_view.summary', players=self.players))}</b></p>"
            f"<table class='crew-strength-table'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"<p>{esc(tr('crew.ui.strength_view.goal'))}</p>")
        self._chart.update(strength_figure(self.table, self.players, self.lang))
