"""The Crew table's saved missions outlive the page: ended attempts go to the browser's storage (through the
kernel-owned ``BrowserList``), come back at the next page load after the same checks as a pasted code, and a
"forget" button clears them. Nothing of a game in progress is ever put there; corrupt entries are dropped
with a notice in the page's language."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings, strategies as st

from toolkit.crew.engine import ENGINE
from toolkit.widgets.components.storage import MAX_LOADS, BrowserList
from toolkit.widgets.crew import MissionView
from toolkit.widgets.crew.mission import SavedMissionError, finished_mission, mission_code, parse_mission_code

from tests.widgets.test_crew_saved_missions import HOSTILE, JAPANESE, _play_by_policy


def _load(view: MissionView, items, unreadable: bool = False) -> None:
    view._store.receive({"type": "stored", "items": items, "unreadable": unreadable})


def test_only_an_ended_attempt_reaches_the_browser_storage():
    view = MissionView(seed=10, mission=1, autoplay=False)
    _load(view, [])                                   # the page said: nothing stored yet
    view.driver.run_until_human()
    assert not ENGINE.play_out_over(view.model.state) and view._store.items == []
    view._remember()                                  # even asked to, a game in progress is not kept
    assert view._store.items == [] and view.saved_games == []
    done = _play_by_policy(10)
    assert ENGINE.play_out_over(done.model.state)
    (code,) = done._store.items
    seed, options, moves = parse_mission_code(code)
    assert (seed, options["mission"]) == (10, 1) and [ENGINE.parse_move(m) for m in moves] == list(done.model.session.moves)
    assert code == done._shareable_code(0)           # the same code the page already shows when it ends


def test_a_reloaded_page_lists_the_stored_missions_and_opens_their_post_mortem():
    code = _play_by_policy(10)._store.items[0]
    page = MissionView(seed=3, mission=1, autoplay=False)
    assert page._saved_list.disabled and page.saved_games == []
    _load(page, [code])
    assert page._store.loaded and page._store.items == [code]
    label, index = page._saved_list.options[0]
    assert "seed 10" in label and not page._saved_list.disabled
    assert "1 saved mission(s) from this browser" in page._saved_status.value
    page._saved_list.value = index
    page._saved_open.click()
    assert "crew-pm-lost" in page._review.value and page.model.session.seed == 10
    assert len(page.saved_games) == 1                  # reopening it does not list it twice


def test_corrupt_stored_entries_are_dropped_with_a_notice_in_both_languages():
    good = _play_by_policy(10)._store.items[0]
    unfinished = mission_code(10, 4, 1, ["take 78"])   # legal, but the attempt had not ended
    page = MissionView(seed=3, mission=1, autoplay=False)
    _load(page, ["garbage", 5, None, {"seed": 1}, good, unfinished, "seed=1&moves=take_1", "<b>x</b>", good])
    assert page._store.items == [good]                # the cleaned list is written back, once
    assert len(page.saved_games) == 1
    notice = page._saved_status.value
    assert "deepsea-refusal" in notice and "7 saved mission(s)" in notice and "<b>x" not in notice
    page.lang = "ja"
    assert JAPANESE.search(re.sub("<[^>]+>", "", page._saved_status.value))
    page.lang = "en"
    unreadable = MissionView(seed=3, mission=1, autoplay=False)
    _load(unreadable, [], unreadable=True)
    assert "1 saved mission(s)" in unreadable._saved_status.value and unreadable._store.loaded


def test_forget_clears_the_page_list_and_the_browser_storage():
    view = _play_by_policy(10)
    _load(view, [])
    assert view._store.items and not view._saved_forget.disabled
    view._saved_forget.click()
    assert view._store.items == [] and view.saved_games == [] and view._saved_list.disabled
    assert "forgotten" in view._saved_status.value
    code = mission_code(10, 4, 1, view.model.session.moves)
    assert view.open_code(code)                       # the copy/paste path still works after forgetting
    assert view._store.items == [code]


def test_the_store_is_bounded_and_the_page_cannot_write_it():
    store = BrowserList("k", max_items=3, max_chars=20)
    got = []
    store.on_load(lambda items, unreadable: got.append((items, unreadable)))
    store.set_state({"items": ["injected"], "loaded": True})
    assert store.items == [] and not store.loaded
    store.receive({"type": "stored", "items": ["a", "b", "x" * 21, "c", "d"]})
    assert got[-1] == (["b", None, "c", "d"][-3:], False)
    store.receive({"type": "stored", "items": "not a list"})
    assert got[-1] == ([], True)
    store.store(["1", "2", "y" * 21, "3", "4"])
    assert store.items == ["2", "3", "4"]
    for _ in range(MAX_LOADS + 5):
        store.receive({"type": "stored", "items": []})
    assert len(got) == MAX_LOADS
    store.receive("junk")                              # never raises


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(max_size=80), st.integers(), st.none()), max_size=6))
def test_any_stored_text_is_dropped_or_a_finished_mission_never_raised(items):
    for item in items:
        try:
            entry = finished_mission(item)
        except SavedMissionError:
            continue
        assert entry["phase"] in ("success", "failed")
