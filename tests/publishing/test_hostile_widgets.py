"""Every widget of every dashboard treats what the browser sends as untrusted (and no page shows its source).

For each dashboard, a raw websocket client (not a browser) sends each input widget values of the wrong type,
huge numbers, unknown cards and markup, and clicks every button. The page must keep working: no traceback
anywhere (iopub or widget text), no "something went wrong" note (an unchecked value reaching a view's
code), no injected markup, and the kernel still answers and still switches language.
"""

from __future__ import annotations

import re

import pytest

from publishing.conftest import dashboard_code, dashboard_names, stop_kernel
from publishing.kernelws import WidgetClient, open_page, text_of
from toolkit.core import i18n

MARKUP = "<img src=x onerror=alert(1)>"
# Kept short (every value costs a round trip on every input of every dashboard): an unknown card wrapped
# in markup, a huge and a negative number, wrong types, a 50 kB string.
HOSTILE_VALUES = ["Z99 " + MARKUP, 10**30, -1, 1.5, None, [1, 2], {"card": "P9"}, "x" * 50_000]
HOSTILE_INDEXES = [10**9, -1, "x"]
INPUT_MODELS = {"TextModel", "TextareaModel", "IntTextModel", "BoundedIntTextModel", "FloatTextModel",
                "BoundedFloatTextModel", "IntSliderModel", "FloatSliderModel", "IntRangeSliderModel",
                "CheckboxModel", "ToggleButtonModel", "ComboboxModel", "PasswordModel"}
TEXT_INPUTS = {"TextModel", "TextareaModel", "ComboboxModel", "PasswordModel"}
SELECTION_MODELS = {"DropdownModel", "ToggleButtonsModel", "SelectModel", "RadioButtonsModel",
                    "SelectionSliderModel", "SelectMultipleModel"}
# A handler that takes longer than this for one message is a denial of service for the visitor (and
# for everyone else on the same cores); the design goal is 100 ms at p95.
HANDLER_TIMEOUT_S = 20
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def internal_error_prefixes() -> list[str]:
    return [i18n.translate("ui.internal_error", lang, {"detail": "@"}).split("@")[0].split("(")[0].split("（")[0]
            for lang in i18n.LANGUAGES]


def problems_in(messages: list[dict]) -> list[str]:
    found = []
    for m in messages:
        kind, content = m.get("msg_type"), m.get("content", {})
        if kind == "error":
            found.append(f"error message: {content.get('ename')}: {content.get('evalue')}")
        if kind == "stream" and "Traceback" in content.get("text", ""):
            found.append("traceback on " + content.get("name", "?"))
        elif kind == "stream" and content.get("name") == "stderr":
            # Nothing the kernel writes to stderr reaches a published page (warnings carry server paths).
            found.append("stderr: " + content.get("text", "")[:200])
        if kind in ("display_data", "execute_result") and "Traceback" in str(content.get("data", "")):
            found.append("traceback displayed")
    return found


def assert_no_source_in(html: str, name: str) -> None:
    """strip_sources: no line of the dashboard's code is in its page (checked here, where every page is open)."""
    for source in dashboard_code(name):
        for line in (raw.strip() for raw in source.splitlines()):
            if len(line) >= 12 and not line.startswith("#"):
                assert line not in html, f"{name}: source line {line!r} is in the page"
    assert "Traceback" not in html


# Hosts a page may name without contacting them: XML namespace identifiers and links in library comments.
NAMED_NOT_FETCHED = {"www.w3.org", "purl.org", "creativecommons.org", "developer.mozilla.org"}


def assert_no_third_party_host_in(html: str, name: str) -> None:
    """The page names no host a browser would fetch from but its own server (tests/browser checks the fetches).

    The lab templates' Font Awesome and mermaid links and Voila's MathJax CDN URL are taken out by the
    deepsea template; an offline classroom must get every page whole.
    """
    hosts = {m.group(1) for m in re.finditer(r"https?:(?:\\?/){2}([\w.-]+)", html)}
    assert hosts - NAMED_NOT_FETCHED - {"127.0.0.1", "localhost"} == set(), f"{name}: {sorted(hosts)}"
    assert '"fullMathjaxUrl": null' in html, name  # the bundled MathJax 3, not a URL (deepsea template)


@pytest.mark.parametrize("name", dashboard_names())
def test_hostile_comm_messages_leave_every_dashboard_working(published, name):
    html, kernel_id, cookie = open_page(published.url, f"/voila/render/{name}.ipynb")
    assert_no_source_in(html, name)
    assert_no_third_party_host_in(html, name)
    client = WidgetClient(published.url, kernel_id, cookie)
    try:
        states = client.states()
        seen: list[dict] = []
        buttons = []

        def send(model_id: str, model: dict, state: dict | None) -> None:
            if state is None:
                client.click(model_id)
            else:
                client.update(model_id, state)
            try:
                seen.extend(client.settle(HANDLER_TIMEOUT_S))
            except AssertionError:
                classes = model["state"].get("_dom_classes", [])
                pytest.fail(f"{name}: {model['state'].get('_model_name')} {classes} hung the kernel for "
                            f"{HANDLER_TIMEOUT_S} s after {'a click' if state is None else repr(state)[:80]}")

        for model_id, model in states.items():
            kind = model["state"].get("_model_name")
            if kind in INPUT_MODELS:
                for value in HOSTILE_VALUES:
                    send(model_id, model, {"value": value})
            elif kind in SELECTION_MODELS:
                for index in HOSTILE_INDEXES:
                    send(model_id, model, {"index": index})
                send(model_id, model, {"value": "not an option"})
            elif kind == "ButtonModel":
                buttons.append(model_id)
            # Traits no visitor should touch, on every widget.
            send(model_id, model, {"_dom_classes": "x", "layout": "IPY_MODEL_nope", "disabled": "yes"})
        for model_id in buttons:
            send(model_id, states[model_id], None)

        assert problems_in(seen) == [], name
        after = text_of(client.states())
        assert "Traceback" not in after, name
        for prefix in internal_error_prefixes():
            assert prefix.strip() not in after, f"{name}: a hostile value reached a view unchecked: {after[:500]}"
        # A text box holds what was typed in it (the browser shows an input's value as text, never as
        # markup); the visitor's markup must reach no other widget (HTML, labels, options).
        shown = text_of({i: m for i, m in client.states().items()
                         if m["state"].get("_model_name") not in TEXT_INPUTS})
        assert MARKUP not in shown, f"{name}: unescaped visitor markup is in the page"

        # Still alive and usable: the language toggle every view has still works.
        toggles = [i for i, m in client.states().items() if "deepsea-lang" in m["state"].get("_dom_classes", [])]
        assert toggles, f"{name} has no language toggle"
        for toggle in toggles:
            client.update(toggle, {"index": 1})
        client.settle()
        assert JAPANESE.search(text_of(client.states())), f"{name} no longer switches to Japanese"
    finally:
        client.close()
        stop_kernel(published.url, kernel_id)
