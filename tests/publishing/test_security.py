"""Security of the published server, against a real Voila on loopback (the repository's voila.json).

A visitor controls everything their browser sends: these tests act as one, with raw HTTP and a raw
kernel websocket, no browser involved.
"""

from __future__ import annotations

import json
import time
import uuid

import pytest

from publishing.conftest import dashboard_names, http_get, stop_kernel
from publishing.kernelws import KernelSocket, open_page

@pytest.fixture(scope="module")
def visitor(published):
    """A raw websocket on the kernel of a freshly rendered gallery page."""
    _html, kernel_id, cookie = open_page(published.url, "/voila/render/index.ipynb")
    socket = KernelSocket(published.url, kernel_id, cookie)
    yield socket
    socket.close()


EXECUTE = "execute_request"
PROBES = [  # (msg_type, content) — every request that could run or reveal code
    (EXECUTE, {"silent": False, "store_history": True, "user_expressions": {}, "allow_stdin": False,
               "stop_on_error": True}),
    ("inspect_request", {"code": "open", "cursor_pos": 4, "detail_level": 1}),
    ("complete_request", {"code": "import o", "cursor_pos": 8}),
    ("history_request", {"output": True, "raw": True, "hist_access_type": "tail", "n": 50}),
    ("is_complete_request", {"code": "1 +"}),
    ("debug_request", {"type": "request", "seq": 1, "command": "evaluate", "arguments": {"expression": "1"}}),
]


@pytest.mark.parametrize("channel", ["shell", "control", "stdin", "iopub"])
def test_visitor_code_never_runs_on_any_channel(visitor, tmp_path, channel):
    marker = tmp_path / f"executed-{uuid.uuid4().hex}"
    code = f"open({str(marker)!r}, 'w').write('pwned')"
    sent = []
    for msg_type, content in PROBES:
        content = dict(content)
        if msg_type == EXECUTE:
            content["code"] = code
        elif msg_type == "debug_request":
            content["arguments"] = {"expression": code}
        sent.append(visitor.send(channel, msg_type, content))
    # user_expressions are evaluated by the kernel too: smuggle the code there as well.
    sent.append(visitor.send(channel, EXECUTE, {"code": "", "silent": True, "user_expressions": {"x": code}}))
    replies = [m for m in visitor.messages(4) if m.get("parent_header", {}).get("msg_id") in sent]
    assert replies == [], [m["msg_type"] for m in replies]
    # The socket is live (so the silence above means refusal, not a dead connection).
    info = visitor.request("shell", "kernel_info_request", {})
    assert info is not None and info["msg_type"] == "kernel_info_reply"
    assert not marker.exists()


def test_comm_open_cannot_reach_code_either(visitor, tmp_path):
    marker = tmp_path / "comm-marker"
    # comm_open is allowed (widgets need it); an unknown target or a widget class path must not execute.
    for target, data in [("ipykernel.pylab.backend_inline", {}), ("__import__('os').system", {}),
                         ("jupyter.widget", {"state": {"_model_module": "os", "_model_name": "system",
                                                       "_view_module": "os", "_view_name": "system",
                                                       "value": f"touch {marker}"}, "buffer_paths": []})]:
        visitor.send("shell", "comm_open", {"comm_id": uuid.uuid4().hex, "target_name": target, "data": data})
    visitor.request("shell", "kernel_info_request", {})
    time.sleep(1)
    assert not marker.exists()


BLOCKED = [
    "/voila/files/index.ipynb", "/voila/files/debug-panel.ipynb", "/voila/files/../pyproject.toml",
    "/voila/files/..%2fpyproject.toml", "/voila/files/..%2f..%2fetc%2fpasswd", "/voila/files/%2e%2e/Makefile",
    "/voila/render/../pyproject.toml", "/voila/render/..%2ftoolkit%2f__init__.py", "/voila/render/../README.md",
    "/voila/static/..%2f..%2fapp.py", "/voila/static/../../app.py",
    "/voila/templates/deepsea/static/../../../../../../etc/passwd",
    "/voila/templates/deepsea/static/..%2f..%2fconf.json", "/voila/templates/deepsea/503.html",
    "/voila/api/contents/../toolkit", "/voila/api/contents/..%2fpyproject.toml", "/voila/api/contents/.git",
    "/voila/tree/../toolkit", "/voila/tree/..", "/voila/labextensions/../../../../etc/passwd",
    "/api/contents", "/api/contents/index.ipynb", "/api/sessions", "/api/kernelspecs", "/api/terminals",
    "/files/index.ipynb", "/tree", "/lab", "/notebooks/index.ipynb", "/edit/voila.json", "/nbconvert/html/index.ipynb",
    "/voila/api/contents/index.ipynb?content=1&format=text",
]
SECRETS = [b"from toolkit", b"import ", b"[build-system]", b"root:x:0:0", b'"cells"', b"VoilaConfiguration",
           b"Traceback", b"site-packages"]


@pytest.mark.parametrize("path", BLOCKED)
def test_no_source_file_listing_or_traversal_is_served(published, path):
    status, body, _headers = http_get(published.url + path)
    # Redirects are followed by hand: they must land on a refusal too.
    hops = 0
    while status in (301, 302, 303, 307, 308) and hops < 5:
        location = _headers.get("Location", "")
        status, body, _headers = http_get(published.url + location if location.startswith("/") else location)
        hops += 1
    leaked = [s for s in SECRETS if s in body]
    assert status != 200 or (not leaked and b'"content": null' in body), (status, leaked, body[:200])
    assert b"Traceback" not in body and b"site-packages" not in body


def test_directory_listing_shows_only_the_dashboards(published):
    status, body, _ = http_get(published.url + "/voila/api/contents")
    assert status == 200
    listing = json.loads(body)
    names = {item["name"] for item in listing["content"]}
    assert names == {f"{n}.ipynb" for n in dashboard_names()} | ({"assets"} & names)
    assert all(item["content"] is None for item in listing["content"])


def test_template_and_theme_cannot_be_switched_by_query(published):
    html, kernel_id, cookie = open_page(published.url, "/voila/render/index.ipynb?template=base&theme=dark")
    try:
        assert "deepsea" in html  # still the deepsea template's static paths
        assert "theme-dark" not in html and "/voila/templates/base/static" not in html
    finally:
        stop_kernel(published.url, kernel_id)


