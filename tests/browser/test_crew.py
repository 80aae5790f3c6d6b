"""The Crew dashboards in Voila + Chromium: one main interaction per dashboard."""

from __future__ import annotations

import pytest

from toolkit.crew.engine import ENGINE

pytestmark = pytest.mark.browser


def _wait_text(page, selector: str, text: str, timeout: int = 60000) -> None:
    page.wait_for_function(
        "([sel, txt]) => { const el = document.querySelector(sel); return el && el.innerText.includes(txt); }",
        arg=[selector, text], timeout=timeout)


def test_pink_nine_trick_steps_and_try_a_trick(open_dashboard):
    page = open_dashboard("crew-pink-nine-trick")
    _wait_text(page, ".crew-example-table", "first two tricks")
    for _ in range(9):
        page.locator(".crew-example-next").click()
        page.wait_for_timeout(150)
    _wait_text(page, ".crew-example-task", "done")
    _wait_text(page, ".crew-example-table", "crew.end.success")
    box = page.locator(".crew-try-plays input")
    box.fill("P9 P7 Y2 P8")
    page.locator(".crew-try-check").click()
    _wait_text(page, ".crew-try-result", "pink 9 wins")
    assert page.locator(".crew-try-winner").get_attribute("data-winner") == "0"
    page.locator(".deepsea-lang button", has_text="日本語").click()
    _wait_text(page, ".crew-try-result", "ピンク9の勝ち")


def test_sonar_check_explains_each_card(open_dashboard):
    page = open_dashboard("crew-sonar-check")
    _wait_text(page, ".crew-sonar-options", "P7")
    page.locator(".crew-sonar-card select").select_option("P5")
    page.locator(".crew-sonar-check").click()
    _wait_text(page, ".crew-sonar-result", "cannot be communicated")
    _wait_text(page, ".crew-sonar-result", "crew.sonar.position")
    page.locator(".crew-sonar-card select").select_option("P7")
    page.locator(".crew-sonar-check").click()
    _wait_text(page, ".crew-sonar-result", "may be communicated")
    page.locator(".crew-sonar-card select").select_option("S2")
    page.locator(".crew-sonar-check").click()
    _wait_text(page, ".crew-sonar-result", "crew.sonar.no-submarine")


def test_task_judge_presets_and_typed_tricks(open_dashboard):
    page = open_dashboard("crew-task-judge")
    _wait_text(page, ".crew-task-count", "96 of 96")
    page.locator(".crew-task-preset select").select_option("as_many")
    _wait_text(page, ".crew-task-status", "failed")
    page.locator(".crew-task-preset select").select_option("first_two")
    _wait_text(page, ".crew-task-status", "done")
    area = page.locator(".crew-task-tricks textarea")
    area.fill("0: P9 P7 Y2 P8")
    page.locator(".crew-task-judge-button").click()
    _wait_text(page, ".crew-task-status", "pending")


def test_mission_seat_view_hides_other_hands(open_dashboard):
    state = ENGINE.new_state(3, players=4, mission=1)
    page = open_dashboard("crew-mission", "seed=3&players=4&mission=1")
    _wait_text(page, ".crew-status", "allocating tasks")
    captain = state.captain
    own = {str(c) for c in state.hands[captain]}
    shown = {t.strip() for t in page.locator(".crew-hand-card").all_inner_texts() if t.strip()}
    assert shown == own
    html = page.content()
    for seat in range(4):
        if seat != captain:
            for c in state.hands[seat]:
                assert f">{c}<" not in html, f"seat {seat}'s {c} reached the page"
    # the captain takes the task, then plays a card; the log explains both with rule ids
    page.locator(".crew-actions select").select_option(index=0)
    page.locator(".crew-action-apply").click()
    _wait_text(page, ".crew-status", "playing tricks")
    page.locator(".crew-hand-card").first.click()
    _wait_text(page, ".crew-log", "crew.trick.own-card")
    # switching to another seat shows that seat's hand only
    other = (captain + 1) % 4
    page.locator(".crew-seat button", has_text=str(other)).first.click()
    page.wait_for_function("(n) => document.querySelectorAll('.crew-hand-card').length === n",
                           arg=len(state.hands[other]), timeout=30000)
    shown = {t.strip() for t in page.locator(".crew-hand-card").all_inner_texts() if t.strip()}
    assert shown == {str(c) for c in state.hands[other]}
