"""The Crew bot-strength view: its summary is computed from the table it is given, in en and ja."""

from __future__ import annotations

import math

from toolkit.crew.strength import Cell, StrengthTable
from toolkit.widgets.crew_solver.strength import BotStrengthView, summary_rows


def _table() -> StrengthTable:
    cells = {}
    for mission in (1, 2, 11):
        for level, games, wins, winnable, won in (("random", 10, 1, 8, 1), ("expert", 4, 3, 4, 3)):
            cells[(mission, 4, level)] = Cell(mission, 4, level, games, wins, winnable, 0, won)
    cells[(1, 3, "expert")] = Cell(1, 3, "expert", 50, 50, 50, 0, 50)   # another player count: left out
    return StrengthTable(cells)


def test_summary_adds_up_missions_1_to_10_for_one_player_count():
    rows = {r["level"]: r for r in summary_rows(_table())}
    assert set(rows) == {"random", "expert"}                            # beginner absent from the table
    assert (rows["random"]["games"], rows["random"]["successes"]) == (20, 2)  # mission 11 is not counted
    assert (rows["expert"]["winnable"], rows["expert"]["won_winnable"]) == (8, 6)
    assert math.isclose(rows["expert"]["of_winnable"], 0.75)
    lo, hi = rows["expert"]["of_winnable_interval"]
    assert lo < 0.75 < hi


def test_view_shows_the_committed_table_in_both_languages():
    view = BotStrengthView()
    text = view._summary.value
    assert "expert" in text and "%" in text and "<table" in text
    rows = summary_rows(view.table)
    expert = next(r for r in rows if r["level"] == "expert")
    assert f"{expert['won_winnable']}/{expert['winnable']}" in text
    assert view._chart.figure.data                                      # a trace per level, and the ceiling
    view.lang = "ja"
    assert "エキスパート" in view._summary.value or "エキスパート" in str(view._chart.figure.data[0].name)
