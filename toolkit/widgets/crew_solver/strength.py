"""How well do the Crew bots play? The committed strength study (``toolkit.crew.strength``) as a chart, a
per-mission table and a summary, beside the double-dummy ceiling: the share of the same deals that could be
won at all — for 2 (with TONOJA), 3, 4 or 5 players (a choice on the page; ``?players=5`` opens that count).

Reads the committed table only (the study takes CPU-hours; ``benchmarks/crew_strength_table.py`` reruns it),
so opening the page costs nothing. The table holds whatever cells were run: a level or a mission without a
cell at the chosen player count reads "not measured", never an error. No hidden information: every figure
is an aggregate over finished games.
"""

from __future__ import annotations

import math
from typing import Any

import ipywidgets as widgets
import traitlets

from toolkit.crew.strength import LEVELS, Cell, StrengthTable, load_table
from toolkit.core.studies import wilson
from toolkit.plots.crew_strength import THIN_GAMES, ceiling_cells, strongest_level
from toolkit.widgets.base import View, esc, query_params
from toolkit.widgets.markup import heading

#: The issue's yardstick: the expert's share of double-dummy-winnable deals won on missions 1-10.
GOAL_MISSIONS = range(1, 11)
#: the player counts the study covers (the choice on the page)
PLAYER_CHOICES = (2, 3, 4, 5)


def _pct(x: float) -> str:
    return "—" if x != x else f"{100 * x:.0f} %"


def players_from_query(params: dict[str, str], default: int = 4) -> int:
    """``?players=3`` (untrusted text): one of :data:`PLAYER_CHOICES`, else ``default``.

    >>> players_from_query({"players": "5"}), players_from_query({"players": "9"}), players_from_query({})
    (5, 4, 4)
    """
    raw = params.get("players", "").strip()
    return int(raw) if raw in {str(p) for p in PLAYER_CHOICES} else default


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


def mission_rows(table: StrengthTable, players: int) -> list[dict[str, Any]]:
    """One row per mission measured at ``players``: each level's cell (``None``: not measured), the
    table's strongest level's success among the winnable games, and the double-dummy ceiling of the strongest
    level run on that mission (``ceiling_cell``).

    >>> t = StrengthTable({(2, 3, "random"): Cell(2, 3, "random", 10, 1, 9, 0, 1)})
    >>> row = mission_rows(t, 3)[0]
    >>> row["mission"], row["cells"]["random"].games, row["cells"]["expert"], row["top"]
    (2, 10, None, 'random')
    """
    top = strongest_level(table, players)
    ceilings = {c.mission: c for c in ceiling_cells(table, players)}
    rows = []
    for m in sorted(ceilings):
        cells = {lv: table.cells.get((m, players, lv)) for lv in LEVELS}
        cells = {lv: c if c is not None and c.games else None for lv, c in cells.items()}
        rows.append({"mission": m, "cells": cells, "top": top, "top_cell": cells.get(top) if top else None,
                     "ceiling_cell": ceilings[m]})
    return rows


def unmeasured_missions(table: StrengthTable, players: int) -> list[int]:
    """Missions the table measured at some player count but not at ``players``."""
    everywhere = {m for (m, _p, _lv), c in table.cells.items() if c.games}
    here = {m for (m, p, _lv), c in table.cells.items() if p == players and c.games}
    return sorted(everywhere - here)


def _ranges(numbers: list[int]) -> str:
    """``[1, 2, 3, 7, 9, 10]`` -> ``"1–3, 7, 9–10"``."""
    out: list[list[int]] = []
    for n in numbers:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in out)


class BotStrengthView(View):
    """The Crew bots' strength study: success per mission and level, and the double-dummy ceiling, for 3,
    4 or 5 players."""

    players = traitlets.Int(4)

    def __init__(self, lang: str = "en", players: int | None = None, query: str | None = None,
                 table: StrengthTable | None = None):
        params = query_params(query)
        lang = params.get("lang") if params.get("lang") in ("en", "ja") else lang
        super().__init__(lang=lang)
        self.add_class("crew-strength")
        from toolkit.widgets.chart import Chart
        from toolkit.widgets.page import display_mode_from_query

        self.table = table if table is not None else load_table()
        self.display = display_mode_from_query(params)
        chosen = players if players in PLAYER_CHOICES else players_from_query(params)
        self._title = widgets.HTML()
        self._choice = widgets.ToggleButtons(options=[(str(p), p) for p in PLAYER_CHOICES], value=chosen,
                                             style={"button_width": "auto", "description_width": "initial"})
        self._choice.add_class("crew-strength-players")
        self._summary = widgets.HTML()
        self._summary.add_class("crew-strength-summary")
        self._chart = Chart()
        self._chart.add_class("crew-strength-chart")
        self._missions = widgets.HTML()
        self._missions.add_class("crew-strength-missions")
        self._ready = False
        self.players = chosen
        self._choice.observe(self._on_choice, names="value")
        self._finish([self._title, self._choice, self._summary, self._chart, self._missions])
        self._ready = True
        self.refresh()

    @traitlets.validate("players")
    def _valid_players(self, proposal: Any) -> int:
        value = proposal["value"]
        return value if value in PLAYER_CHOICES else 4

    @traitlets.observe("players")
    def _on_players(self, change: Any) -> None:
        if getattr(self, "_choice", None) is not None and self._choice.value != change["new"]:
            self._choice.value = change["new"]
        self.refresh()

    def _on_choice(self, change: Any) -> None:
        if not getattr(self, "_relabelling", False) and change["new"] in PLAYER_CHOICES:   # a page message is untrusted: ToggleButtons checks the option too
            self.players = change["new"]

    # ---- drawing ------------------------------------------------------------------------------------
    def refresh(self) -> None:
        if not getattr(self, "_ready", False):
            return
        from toolkit.plots.crew_strength import strength_figure

        tr = self.t
        players = self.players
        self._title.value = heading(tr("crew.ui.strength_view.title"), tr("crew.ui.strength_view.intro"))
        self._choice.description = tr("crew.ui.strength_view.players")
        self._choice.tooltips = [tr("crew.ui.strength_view.players_tip", players=p) for p in PLAYER_CHOICES]
        labels = tuple((tr("crew.ui.strength_view.players_option_two" if p == 2 else "crew.ui.strength_view.players_option",
                           players=p), p) for p in PLAYER_CHOICES)
        if tuple(self._choice.options) != labels:
            # new options reset a ToggleButtons' value to the first one: relabel without losing the choice
            self._relabelling = True
            try:
                self._choice.options = labels
                self._choice.value = players
            finally:
                self._relabelling = False
        self._summary.value = self._summary_html(players)
        self._chart.update(strength_figure(self.table, players, self.lang, self.display))
        self._missions.value = self._missions_html(players)

    def _headline(self, players: int) -> str:
        """The summary line: the expert on the double-dummy-winnable games of missions 1-10."""
        tr = self.t
        expert = next((r for r in summary_rows(self.table, players) if r["level"] == "expert"), None)
        if expert is None or expert["winnable"] == 0:
            text = tr("crew.ui.strength_view.headline_none", players=players)
            return f"<p class='crew-strength-headline' data-measured='0'><b>{esc(text)}</b></p>"
        lo, hi = expert["of_winnable_interval"]
        text = tr("crew.ui.strength_view.headline", players=players, won=expert["won_winnable"],
                  winnable=expert["winnable"], rate=_pct(expert["of_winnable"]), low=_pct(lo), high=_pct(hi),
                  missions=expert["missions"])
        return (f"<p class='crew-strength-headline' data-measured='1' data-won='{expert['won_winnable']}' "
                f"data-winnable='{expert['winnable']}'><b>{esc(text)}</b></p>")

    def _summary_html(self, players: int) -> str:
        tr = self.t
        head = "".join(f"<th scope='col'>{esc(tr(f'crew.ui.strength_view.col_{c}'))}</th>"
                       for c in ("level", "deals", "rate", "of_winnable"))
        body = []
        for row in summary_rows(self.table, players):
            lo, hi = row["interval"]
            wlo, whi = row["of_winnable_interval"]
            body.append(
                f"<tr data-level='{row['level']}'><th scope='row'>{esc(tr('crew.ui.strength.' + row['level']))}</th>"
                f"<td>{esc(tr('crew.ui.strength_view.deals', games=row['games'], missions=row['missions']))}</td>"
                f"<td>{_pct(row['rate'])} ({_pct(lo)}–{_pct(hi)})</td>"
                f"<td>{row['won_winnable']}/{row['winnable']} = {_pct(row['of_winnable'])}"
                f"{'' if row['winnable'] == 0 else f' ({_pct(wlo)}–{_pct(whi)})'}</td></tr>")
        table = (f"<table class='crew-strength-table'><caption>{esc(tr('crew.ui.strength_view.summary', players=players))}"
                 f"</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>" if body else "")
        return (f"{self._headline(players)}{table}<p>{esc(tr('crew.ui.strength_view.goal'))}</p>")

    def _cell_html(self, cell: Cell | None) -> str:
        tr = self.t
        if cell is None:
            return f"<td class='crew-strength-none'>{esc(tr('crew.ui.strength_view.not_measured'))}</td>"
        lo, hi = cell.interval()
        thin = cell.games < THIN_GAMES
        games = tr("crew.ui.strength_view.games", games=cell.games)
        note = (f" <span class='crew-strength-thin-note'>{esc(tr('crew.ui.strength_view.thin'))}</span>"
                if thin else "")
        return (f"<td class='crew-strength-cell{' crew-strength-thin' if thin else ''}' data-games='{cell.games}'>"
                f"<b>{_pct(cell.rate)}</b> <span class='crew-strength-ci'>({_pct(lo)}–{_pct(hi)})</span><br>"
                f"<small>{esc(games)}{note}</small></td>")

    def _missions_html(self, players: int) -> str:
        tr = self.t
        rows = mission_rows(self.table, players)
        missing = unmeasured_missions(self.table, players)
        missing_text = (f"<p class='crew-strength-unmeasured'>{esc(tr('crew.ui.strength_view.unmeasured', players=players, missions=_ranges(missing)))}</p>"
                        if missing else "")
        if not rows:
            return (f"<p class='crew-strength-empty'>{esc(tr('crew.ui.strength.none', players=players))}</p>"
                    + missing_text)
        top = rows[0]["top"]
        top_name = tr(f"crew.ui.strength.{top}")
        cols = ([tr("crew.ui.strength.mission")] + [tr(f"crew.ui.strength.{lv}") for lv in LEVELS]
                + [tr("crew.ui.strength_view.col_ceiling"),
                   tr("crew.ui.strength_view.col_mission_of_winnable", level=top_name)])
        head = "".join(f"<th scope='col'>{esc(c)}</th>" for c in cols)
        body = []
        for row in rows:
            cells = "".join(self._cell_html(row["cells"][lv]) for lv in LEVELS)
            top_cell, dd = row["top_cell"], row["ceiling_cell"]
            decided = dd.games - dd.undecided
            whose = ("" if dd.level == top else
                     f" <span class='crew-strength-whose'>{esc(tr('crew.ui.strength_view.whose', level=tr(f'crew.ui.strength.{dd.level}')))}</span>")
            ceiling = (f"<td class='crew-strength-none'>{esc(tr('crew.ui.strength_view.no_verdict'))}</td>"
                       if decided == 0 else
                       f"<td class='crew-strength-ceiling' data-level='{dd.level}'><b>{_pct(dd.ceiling)}</b><br><small>"
                       f"{esc(tr('crew.ui.strength_view.of_games', part=dd.winnable, games=decided))}{whose}</small></td>")
            if top_cell is None:
                of_winnable = f"<td class='crew-strength-none'>{esc(tr('crew.ui.strength_view.not_measured'))}</td>"
            else:
                if top_cell.winnable == 0:
                    of_winnable = "<td class='crew-strength-none'>—</td>"
                else:
                    lo, hi = wilson(top_cell.won_winnable, top_cell.winnable)
                    of_winnable = (f"<td class='crew-strength-of-winnable'><b>{_pct(top_cell.of_winnable)}</b> "
                                   f"<span class='crew-strength-ci'>({_pct(lo)}–{_pct(hi)})</span><br><small>"
                                   f"{esc(tr('crew.ui.strength_view.of_games', part=top_cell.won_winnable, games=top_cell.winnable))}"
                                   f"</small></td>")
            body.append(f"<tr data-mission='{row['mission']}'><th scope='row'>{row['mission']}</th>"
                        f"{cells}{ceiling}{of_winnable}</tr>")
        return (f"<h4>{esc(tr('crew.ui.strength_view.missions_title', players=players))}</h4>"
                f"<p class='crew-strength-legend'>{esc(tr('crew.ui.strength_view.legend', thin=THIN_GAMES))}</p>"
                f"<div class='crew-strength-scroll' style='overflow-x:auto' tabindex='0' role='region' "
                f"aria-label='{esc(tr('crew.ui.strength_view.missions_title', players=players))}'>"
                f"<table class='crew-strength-per-mission' data-players='{players}'><thead><tr>{head}</tr></thead>"
                f"<tbody>{''.join(body)}</tbody></table></div>{missing_text}"
                f"<style>.crew-strength-per-mission, .crew-strength-table {{ border-collapse: collapse; }}"
                f".crew-strength-per-mission th, .crew-strength-per-mission td, .crew-strength-table th, "
                f".crew-strength-table td {{ border-bottom: 1px solid #ddd; padding: 3px 10px; text-align: left; "
                f"vertical-align: top; line-height: 1.35; }}"
                f".crew-strength-table caption {{ text-align: left; font-weight: bold; padding: 4px 0; }}"
                f".crew-strength-none {{ color: #555; font-style: italic; }}"
                f".crew-strength-thin small, .crew-strength-thin-note {{ color: #8a4b00; font-weight: bold; }}"
                f".crew-strength-ci {{ color: #444; }}</style>")
