"""A raw client of a Voila kernel's websocket, acting like a hostile visitor (no browser involved).

Jupyter Server speaks the legacy JSON protocol to clients that do not ask for the binary
``v1.kernel.websocket.jupyter.org`` subprotocol, so every message here is one JSON text frame with a
``channel`` field.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
import uuid
from typing import Any, Iterator

import websocket

KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def open_page(base_url: str, path: str) -> tuple[str, str, str]:
    """GET a dashboard page as a browser would; returns (html, kernel id, cookie header)."""
    with urllib.request.urlopen(base_url + path, timeout=180) as response:
        html = response.read().decode("utf-8", "replace")
        cookie = "; ".join(c.split(";", 1)[0] for c in response.headers.get_all("Set-Cookie") or [])
    match = KERNEL_ID.search(html)
    if match is None:
        raise AssertionError(f"no kernel id in the page {path}")
    return html, match.group(1), cookie


class KernelSocket:
    def __init__(self, base_url: str, kernel_id: str, cookie: str = ""):
        self.session = uuid.uuid4().hex
        url = base_url.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels?session_id={self.session}"
        self.ws = websocket.create_connection(url, timeout=10, header=[f"Cookie: {cookie}"] if cookie else [])
        self.received: list[dict[str, Any]] = []

    def send(self, channel: str, msg_type: str, content: dict[str, Any], buffers: list[bytes] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        message = {
            "header": {"msg_id": msg_id, "msg_type": msg_type, "session": self.session, "username": "visitor",
                       "date": "2026-01-01T00:00:00Z", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "content": content, "channel": channel, "buffers": [],
        }
        self.ws.send(json.dumps(message))
        return msg_id

    def messages(self, seconds: float) -> Iterator[dict[str, Any]]:
        """Messages received during the next ``seconds`` (also kept in ``received``)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.ws.settimeout(max(left, 0.05))
            try:
                frame = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                return
            if isinstance(frame, bytes):
                continue  # binary frames carry widget buffers only
            message = json.loads(frame)
            self.received.append(message)
            yield message

    def replies_to(self, msg_id: str, seconds: float) -> list[dict[str, Any]]:
        return [m for m in self.messages(seconds) if m.get("parent_header", {}).get("msg_id") == msg_id]

    def request(self, channel: str, msg_type: str, content: dict[str, Any], seconds: float = 15) -> dict | None:
        """Send and wait for the first reply on the shell/control channel (``None`` if none came)."""
        msg_id = self.send(channel, msg_type, content)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for message in self.messages(min(1.0, deadline - time.monotonic())):
                if (message.get("parent_header", {}).get("msg_id") == msg_id
                        and message.get("channel") in ("shell", "control")):
                    return message
        return None

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass
