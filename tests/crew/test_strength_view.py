"""The Crew bot-strength view: its summary is computed from the table it is given, in en and ja."""

from __future__ import annotations

import math
import re

from toolkit.crew.strength import Cell, StrengthTable
from toolkit.plots.crew_strength import ceiling_cells
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


def _mixed_table() -> StrengthTable:
    """3 players: every level on mission 1, only random on mission 2 (a thin cell); 4 players: expert on
    mission 1 only; 5 players: nothing."""
    cells = {
        (1, 3, "random"): Cell(1, 3, "random", 40, 8, 36, 0, 8),
        (1, 3, "beginner"): Cell(1, 3, "beginner", 40, 20, 36, 0, 20),
        (1, 3, "expert"): Cell(1, 3, "expert", 40, 30, 36, 0, 30),
        (2, 3, "random"): Cell(2, 3, "random", 10, 2, 9, 0, 2),
        (1, 4, "expert"): Cell(1, 4, "expert", 12, 9, 10, 0, 9),
    }
    return StrengthTable(cells)


def test_the_player_count_choice_redraws_summary_table_and_chart():
    view = BotStrengthView(table=_mixed_table(), players=3)
    assert view._choice.value == 3 and [o[1] for o in view._choice.options] == [2, 3, 4, 5]
    head = view._summary.value
    assert "data-won='30' data-winnable='36'" in head and "3 players" in head
    per_mission = view._missions.value
    assert "data-players='3'" in per_mission
    assert re.search(r"<tr data-mission='1'>.*?</tr>", per_mission).group(0).count("crew-strength-cell") == 3
    row2 = re.search(r"<tr data-mission='2'>.*?</tr>", per_mission).group(0)
    assert row2.count("not measured") == 3 and "data-games='10'" in row2 and "few games" in row2
    # the ceiling of a mission the expert did not play: from the strongest level that did, saying so
    assert "data-level='random'><b>90 %</b>" in row2 and "random&#x27;s deals" in row2
    assert [c.mission for c in ceiling_cells(_mixed_table(), 3)] == [1, 2]
    assert "Not measured at 3 players" not in per_mission          # every mission of the table was run at 3
    assert view._chart.figure.layout.title.text.endswith("3 players")
    view._choice.value = 4                                             # what the page's toggle does
    assert view.players == 4 and "data-won='9' data-winnable='10'" in view._summary.value
    assert "Not measured at 4 players: missions 2." in view._missions.value
    assert [tr.name for tr in view._chart.figure.data if tr.type == "scatter"][0] == "expert"
    view.players = 5                                                   # no cell at all: words, not an error
    assert view._choice.value == 5 and "data-measured='0'" in view._summary.value
    assert "No games measured at 5 players" in view._missions.value
    assert view._chart.figure.layout.annotations[0].text == "No games measured at 5 players"


def test_the_choice_survives_a_language_switch_and_reads_the_url():
    view = BotStrengthView(table=_mixed_table(), query="players=5&lang=ja")
    assert view.lang == "ja" and view.players == 5 and view._choice.value == 5
    assert "まだ測定していません" in view._summary.value and view._choice.options[1][0] == "3人"
    assert view._choice.options[0][0] == "2人（TONOJAあり）"
    view.lang = "en"
    assert view._choice.value == 5 and view._choice.options[3][0] == "5 players"
    assert view._choice.options[0][0] == "2 players (with TONOJA)"
    assert BotStrengthView(table=_mixed_table(), query="players=2").players == 2
    assert BotStrengthView(table=_mixed_table(), query="players=9").players == 4   # untrusted: the default
    assert BotStrengthView(table=_mixed_table(), query="players=3%3Cb%3E").players == 4


def test_the_committed_table_at_every_player_count_it_holds():
    view = BotStrengthView()
    for players in sorted({p for (_m, p, _lv) in view.table.cells}):
        view.players = players
        expert = [r for r in summary_rows(view.table, players) if r["level"] == "expert"]
        if expert and expert[0]["winnable"]:
            assert f"data-won='{expert[0]['won_winnable']}' data-winnable='{expert[0]['winnable']}'" in view._summary.value
        for (m, p, lv), cell in view.table.cells.items():
            if p == players and cell.games:
                assert f"<tr data-mission='{m}'>" in view._missions.value
