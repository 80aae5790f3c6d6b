"""Preheated kernels (``voila --preheat_kernel=True``) and the page's query string, in Chromium.

A pooled kernel runs its dashboard before anyone asks for the page; ``query_params()`` then waits for the
visitor's request (toolkit.publishing.preheat.page_query_string). These tests open shared links on a server
whose pools hold ``crew-mission`` and ``debug-panel`` and check that the view follows the link and that
the page really came from the pool (Voila logs which pooled kernel it used).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from publishing.conftest import VoilaServer  # noqa: E402

pytestmark = pytest.mark.browser

POOLED = ("crew-mission", "debug-panel")
USED = re.compile(r"Using pre-heated kernel: ([0-9a-f-]{36}) for (\S+)")
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


@pytest.fixture(scope="module")
def preheated_server(tmp_path_factory):
    pools = {"default": {"pool_size": 0}, **{f"{name}.ipynb": {"pool_size": 1} for name in POOLED}}
    server = VoilaServer(tmp_path_factory.mktemp("preheated"), "--preheat_kernel=True",
                         "--CappedKernelManager.max_kernels=0",
                         f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}")
    yield server
    server.stop()


def open_pooled(page, server, name: str, query: str):
    page.set_default_timeout(60000)
    page.goto(f"{server.url}/voila/render/{name}.ipynb?{query}", wait_until="domcontentloaded", timeout=120000)
    page.locator(".deepsea-root").first.wait_for(state="visible", timeout=120000)
    kernel_id = KERNEL_ID.search(page.content()).group(1)
    assert (kernel_id, f"{name}.ipynb") in USED.findall(server.log_text()), \
        f"{name} was not served from the preheated pool"
    return page


def crew_hand(seed: int) -> list[str]:
    from toolkit.crew.engine import ENGINE
    from toolkit.widgets.crew.mission import options_from_query

    q_seed, options = options_from_query({"seed": str(seed)})
    state = ENGINE.new_state(q_seed, **options)
    return sorted(map(str, state.hand(0)))  # the table seats the visitor at seat 0


def test_a_pooled_mission_follows_the_links_seed_and_so_does_its_refill(page, preheated_server):
    assert crew_hand(5) != crew_hand(1) != crew_hand(9), "seeds that deal the same hand prove nothing"
    for seed in (5, 9):  # the second visit gets the kernel the pool started after the first one
        open_pooled(page, preheated_server, "crew-mission", f"seed={seed}")
        cards = page.locator(".crew-hand button[data-card]")
        cards.first.wait_for(state="visible")
        assert sorted(cards.evaluate_all("bs => bs.map(b => b.dataset.card)")) == crew_hand(seed)


def test_a_pooled_debug_panel_opens_the_linked_game(page, preheated_server):
    from toolkit.core import i18n
    from toolkit.engines import available_engines

    default_game = next(iter(available_engines()))  # the picker's first game, shown without ?game=
    assert default_game != "pirats"
    open_pooled(page, preheated_server, "debug-panel", "game=pirats&seed=3")
    title = page.locator(".deepsea-debug h3").first
    title.wait_for(state="visible")
    assert title.inner_text().strip() == i18n.translate("game.pirats", "en", {})
    assert title.inner_text().strip() != i18n.translate(f"game.{default_game}", "en", {})
    assert page.locator(".deepsea-seed input").first.input_value() == "3"
