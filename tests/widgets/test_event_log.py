"""The tables' event log (issue 26): it names the seat of every event that has one, in the page's words
("You", "Seat 1 (policy bot)"), keeps the whole game (numbered as in the game, scrolling in its box) —
not the last 14 or 40 lines, which let the learner's own dive result scroll away."""

from __future__ import annotations

import re

import pytest

from toolkit.widgets.base import event_log_html


def _lines(log_html: str) -> list[str]:
    return re.findall(r"<li value=\"(\d+)\">(.*?)</li>", log_html, flags=re.S)


def _tables():
    from toolkit.widgets.crew import MissionView
    from toolkit.widgets.deepblue import GameView as DeepBlueGame
    from toolkit.widgets.pirats import GameView as PiratsGame
    from toolkit.widgets.tranquility import GameView as TranquilityGame
    return {
        "deepblue": lambda lang: DeepBlueGame(seed=2, players=3, lang=lang),
        "tranquility": lambda lang: TranquilityGame(seed=3, lang=lang),
        "pirats": lambda lang: PiratsGame(seed=3, players=3, lang=lang),
        "crew": lambda lang: MissionView(seed=3, lang=lang),
    }


def _setup_of(view):
    return getattr(view, "setup", None) or view._seat_setup


def _log_of(view) -> str:
    frame_log = getattr(view, "event_log", None)     # a table on the shared frame (toolkit.widgets.table)
    return frame_log._log.value if frame_log is not None else view._log.value


@pytest.mark.parametrize("game", ["deepblue", "tranquility", "pirats", "crew"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_line_of_a_long_game_names_its_seat_and_none_is_dropped(game, lang):
    view = _tables()[game](lang)
    setup = _setup_of(view)
    setup.seats = [setup.levels[-1]] * len(setup.seats)     # bots everywhere: a long game, played at once
    driver = getattr(view, "driver", None) or view._driver
    driver.run_until_human()
    view.refresh()
    events = list(view.model.events)
    old_window = {"deepblue": 14, "tranquility": 40, "pirats": 30, "crew": 16}[game]
    assert len(events) > old_window, "the game should outgrow the log's old window"
    lines = _lines(_log_of(view))
    # every event of the game is there (the setup's own lines come first on some tables), numbered in order
    assert len(lines) >= len(events)
    assert [int(n) for n, _ in lines] == list(range(1, len(lines) + 1))
    shown = lines[len(lines) - len(events):]
    for event, (_, line) in zip(events, shown):
        # (the Crew's sentences name their seat themselves, as "who": "Seat 2 plays G5")
        if isinstance(event.seat, int):
            name = setup.seat_name(event.seat)
            assert f'data-seat="{event.seat}">{name}</b>' in line.replace("&#x27;", "'"), (event, line)


def test_the_seat_names_are_the_pages_words():
    from toolkit.widgets.seats import SeatSetup
    setup = SeatSetup(3, ["expert", "random"], seats=["you", "expert", "random"])
    assert [setup.seat_name(s) for s in range(3)] == ["You", "Seat 1 (bot: expert)", "Seat 2 (bot: random)"]
    setup.seats = ["you", "you", "random"]
    assert setup.seat_name(0) == "Seat 0 (you)" and setup.seat_name(1) == "Seat 1 (you)"
    setup.lang = "ja"
    assert setup.seat_name(2) == "席2（ボット：ランダム）"


def test_the_log_box_scrolls_and_is_announced():
    html = event_log_html([], "en")
    assert 'role="log"' in html and "overflow-y:auto" in html and "column-reverse" in html
