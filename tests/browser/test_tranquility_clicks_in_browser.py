"""The discard-cost worked example in Chromium: click a card, then a cell; the cost and legality show (cell
tooltips, outlines, the verdict) before anything is placed; the hand changes through the card picker; the
shared link carries the hand."""

import pytest

pytestmark = pytest.mark.browser


def test_click_a_card_then_a_cell_then_place(open_dashboard, console_errors):
    page = open_dashboard("tranquility-discard-costs")
    hand = page.locator(".tranq-costs-hand button")
    assert [hand.nth(i).inner_text().strip() for i in range(hand.count())] == ["6", "12", "25", "44", "61"]
    hand.filter(has_text="25").click()
    # before any placement: the cells say what 25 would cost there, and the legal ones are outlined
    page.wait_for_function("document.querySelector('.tranq-cell-20').title.includes('costs 0')")
    assert "✘" in page.locator(".tranq-cell-3").get_attribute("title")   # 25 between 3 and 7: out of order
    assert "tranq-cell-legal" in page.locator(".tranq-cell-20").get_attribute("class")
    assert "tranq-cell-legal" not in page.locator(".tranq-cell-5").get_attribute("class")
    page.locator(".tranq-cell-20").click()
    page.wait_for_function("document.querySelector('.tranq-verdict').innerText.includes('25 may be placed in cell 20')")
    assert page.locator(".tranq-cell-20").inner_text().strip() == "#20"   # nothing placed yet
    page.locator(".tranq-place").click()
    page.wait_for_function("document.querySelector('.tranq-cell-20').innerText.trim() === '25'")
    # the card picker: take 44 out, put 70 in (it becomes the picked card); the link carries the hand
    page.locator(".tranq-edit-hand").click()
    page.locator(".tranq-pick-44").click()
    page.locator(".tranq-pick-70").click()
    page.wait_for_function("document.querySelector('.tranq-link').innerText.includes('cards=6,12,25,61,70')")
    pressed = page.locator(".tranq-costs-hand button.mod-active")
    assert pressed.inner_text().strip() == "70"
    # the keyboard works too: focus a card, press Enter
    hand.filter(has_text="12").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('.tranq-link').innerText.includes('number=12')")
    assert console_errors == []


def test_the_game_table_shows_where_a_picked_card_may_go(open_dashboard, console_errors):
    page = open_dashboard("tranquility-game", "players=2&seed=4&seats=you,you")
    page.locator(".tranq-reveal").click()
    hand = page.locator(".tranq-hand button")
    hand.first.wait_for(state="visible")
    card = next(t for t in (hand.nth(i).inner_text().strip() for i in range(hand.count())) if t.isdigit())
    hand.filter(has_text=card).first.click()
    # an empty grid: every cell takes the card for free, outlined, and its tooltip says so before any click
    page.wait_for_function("document.querySelectorAll('.tranq-grid-cell.tranq-cell-legal').length === 36")
    assert f"{card} here costs 0" in page.locator(".tranq-grid-cell-17").get_attribute("title")
    options = page.locator(".tranq-other select option")
    assert options.count() > 36                       # "All moves" lists the placements too
    assert console_errors == []
