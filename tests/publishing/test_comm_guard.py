"""The comm guard's decisions, on raw messages (no kernel): what a page may open, change and ask."""

from __future__ import annotations

import asyncio
import threading
import math

from hypothesis import given
from hypothesis import strategies as st

from toolkit.publishing import comm_guard
from toolkit.publishing.comm_guard import (
    CONTROL_TARGET,
    MAX_CONTROL_COMMS,
    PAGE_TRAITS,
    CommGuard,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_guard(clock: Clock | None = None) -> tuple[CommGuard, list, list]:
    opened: list = []
    passed: list = []
    guard = CommGuard(lambda s, i, m: opened.append(m), lambda s, i, m: passed.append(m), clock or Clock())
    return guard, opened, passed


def comm_open(target: str, comm_id: str = "c1") -> dict:
    return {"content": {"comm_id": comm_id, "target_name": target, "data": {}}, "buffers": []}


def comm_msg(comm_id: str, data: dict, buffers: list | None = None) -> dict:
    return {"content": {"comm_id": comm_id, "data": data}, "buffers": buffers or []}


def test_a_page_opens_only_the_control_comm_and_only_a_few_of_them():
    guard, opened, _ = make_guard()
    for target in ("jupyter.widget", "jupyter.widget.version", "anything", None):
        guard.comm_open(None, None, comm_open(target))
    assert opened == []
    for n in range(MAX_CONTROL_COMMS + 5):
        guard.comm_open(None, None, comm_open(CONTROL_TARGET, f"control-{n}"))
    assert len(opened) == MAX_CONTROL_COMMS
    assert guard.refused == 4 + 5


def test_updates_reach_the_widget_only_with_plain_values_of_page_traits():
    guard, _, passed = make_guard()
    good = [{"value": 3}, {"value": "P9"}, {"index": 2}, {"index": [0, 1]}, {"selected_index": 0},
            {"value": True}, {"value": 0.5}]
    bad = [{"value": math.nan}, {"value": math.inf}, {"value": -math.inf}, {"index": None}, {"value": [math.nan]},
           {"layout": "IPY_MODEL_x"}, {"disabled": False}, {"options": ["a"]}, {"_esm": "alert(1)"},
           {"value": "x" * (comm_guard.MAX_TEXT + 1)}, {"value": 2**60}, {"index": list(range(2000))},
           {"value": {"a": 1}}, {}, "not a dict"]
    for state in good + bad:
        guard.comm_msg(None, None, comm_msg("w", {"method": "update", "state": state, "buffer_paths": []}))
    assert [m["content"]["data"]["state"] for m in passed] == good
    guard.comm_msg(None, None, comm_msg("w", {"method": "update", "state": {"value": 1}, "buffer_paths": [["value"]]},
                                        buffers=[b"x" * 100]))
    guard.comm_msg(None, None, comm_msg("w", {"method": "evil"}))
    assert len(passed) == len(good)


def test_custom_messages_hold_no_bad_numbers_and_stay_small():
    guard, _, passed = make_guard()
    ok = {"type": "pick", "card": "P9"}
    stored = {"type": "stored", "items": ["x" * 4000] * 50 + [None], "unreadable": False}
    for content in (ok, stored, {"type": "pick", "card": math.nan}, {"items": ["x" * 300_000]},
                    {"deep": [[[[[[[[[[1]]]]]]]]]]}):
        guard.comm_msg(None, None, comm_msg("w", {"method": "custom", "content": content}))
    assert [m["content"]["data"]["content"] for m in passed] == [ok, stored]


def test_a_text_for_a_number_trait_is_refused():
    assert comm_guard.type_problem({"value": "inf"}, {"value": 1.0}.get) is not None
    assert comm_guard.type_problem({"index": "1"}, {"index": 0}.get) is not None
    assert comm_guard.type_problem({"value": 1}, {"value": "text"}.get) is not None
    assert comm_guard.type_problem({"index": 1}, {"index": None}.get) is None  # nothing selected yet


def test_state_requests_are_answered_once_per_interval_and_a_burst_once_more():
    clock = Clock()
    guard, _, passed = make_guard(clock)
    guard.comm_open(None, None, comm_open(CONTROL_TARGET, "control"))

    async def burst() -> None:
        for _ in range(100):
            guard.comm_msg(None, None, comm_msg("control", {"method": "request_states"}))
        assert len(passed) == 1
        clock.now += comm_guard.STATE_REQUEST_INTERVAL
        await asyncio.sleep(comm_guard.STATE_REQUEST_INTERVAL + 0.2)
        assert len(passed) == 2  # the burst's one delayed answer
        guard.comm_msg(None, None, comm_msg("control", {"method": "request_states"}))

    # in a thread of its own: a test run that drove Playwright's sync API left a loop running in this one
    errors = []
    worker = threading.Thread(target=lambda: _run_catching(burst, errors))
    worker.start()
    worker.join(30)
    assert not errors, errors
    assert len(passed) == 2 and guard.refused == 98


def _run_catching(coroutine_function, errors: list) -> None:
    try:
        asyncio.run(coroutine_function())
    except BaseException as exc:       # noqa: BLE001 - reported by the test
        errors.append(exc)


finite = st.one_of(st.integers(-comm_guard.MAX_INT, comm_guard.MAX_INT), st.booleans(), st.text(max_size=50),
                   st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15))
non_finite = st.sampled_from([math.nan, math.inf, -math.inf, None])


@given(st.sampled_from(sorted(PAGE_TRAITS)), st.lists(finite, max_size=5), non_finite, st.integers(0, 5))
def test_a_bad_number_anywhere_in_an_update_is_refused_and_plain_values_pass(key, values, poison, where):
    assert comm_guard.update_problem({key: values}) is None
    poisoned = values[:where] + [poison] + values[where:]
    assert comm_guard.update_problem({key: poisoned}) is not None
    assert comm_guard.update_problem({key: poison}) is not None


def test_install_wraps_the_kernel_handlers_once():
    class Kernel:
        def __init__(self) -> None:
            self.shell_handlers = {"comm_open": lambda *a: "open", "comm_msg": lambda *a: "msg", "comm_close": print}

    kernel = Kernel()
    guard = comm_guard.install(kernel)
    assert guard is not None and comm_guard.install(kernel) is guard
    assert kernel.shell_handlers["comm_open"] == guard.comm_open
    assert kernel.shell_handlers["comm_close"] is print
    assert comm_guard.install(object()) is None
