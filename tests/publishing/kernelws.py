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


def decode_frame(frame: str | bytes) -> dict[str, Any]:
    """One websocket frame of the legacy protocol: JSON text, or binary when the message has buffers
    (uint32 count, uint32 offsets, then the JSON message and the buffers)."""
    if isinstance(frame, str):
        return json.loads(frame)
    count = int.from_bytes(frame[:4], "big")
    offsets = [int.from_bytes(frame[4 + 4 * i: 8 + 4 * i], "big") for i in range(count)] + [len(frame)]
    message = json.loads(frame[offsets[0]:offsets[1]].decode("utf-8"))
    message["buffers"] = [frame[offsets[i]:offsets[i + 1]] for i in range(1, count)]
    return message


class KernelSocket:
    def __init__(self, base_url: str, kernel_id: str, cookie: str = ""):
        self.session = uuid.uuid4().hex
        url = base_url.replace("http://", "ws://") + f"/api/kernels/{kernel_id}/channels?session_id={self.session}"
        self.ws = websocket.create_connection(url, timeout=10, header=[f"Cookie: {cookie}"] if cookie else [])
        self.received: list[dict[str, Any]] = []

    def send(self, channel: str, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        msg_id = uuid.uuid4().hex
        message = {
            "header": {"msg_id": msg_id, "msg_type": msg_type, "session": self.session, "username": "visitor",
                       "date": "2026-01-01T00:00:00Z", "version": "5.3"},
            "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": channel, "buffers": [],
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
            message = decode_frame(frame)
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


class WidgetClient(KernelSocket):
    """A visitor speaking the ipywidgets comm protocol directly, with any values it likes."""

    def states(self, seconds: float = 30) -> dict[str, dict[str, Any]]:
        """Every widget model's state, as the kernel sends it to a page (``request_states``)."""
        comm_id = uuid.uuid4().hex
        self.send("shell", "comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}},
                  metadata={"version": "1.0.0"})
        self.send("shell", "comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}})
        for message in self.messages(seconds):
            data = message.get("content", {}).get("data", {})
            if (message.get("msg_type") == "comm_msg" and message["content"].get("comm_id") == comm_id
                    and data.get("method") == "update_states"):
                return data["states"]
        raise AssertionError("the kernel did not answer request_states")

    def update(self, model_id: str, state: dict[str, Any]) -> str:
        return self.send("shell", "comm_msg", {"comm_id": model_id,
                                                "data": {"method": "update", "state": state, "buffer_paths": []}})

    def click(self, model_id: str) -> str:
        return self.send("shell", "comm_msg", {"comm_id": model_id,
                                                "data": {"method": "custom", "content": {"event": "click"}}})

    def settle(self, seconds: float = 60) -> list[dict[str, Any]]:
        """Wait until everything sent so far was handled; returns the messages seen meanwhile.

        The shell channel is handled in order, so the reply to a ``kernel_info_request`` sent now comes after
        every earlier comm message was processed.
        """
        start = len(self.received)
        msg_id = self.send("shell", "kernel_info_request", {})
        replied = idle = False
        deadline = time.monotonic() + seconds
        # iopub is one ordered stream: its "idle" status for this request comes after all earlier output.
        while not (replied and idle) and time.monotonic() < deadline:
            for message in self.messages(min(1.0, deadline - time.monotonic())):
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                replied |= message.get("msg_type") == "kernel_info_reply"
                idle |= (message.get("msg_type") == "status"
                         and message["content"].get("execution_state") == "idle")
                if replied and idle:
                    break
        if not replied:
            raise AssertionError(f"the kernel did not answer within {seconds} s (hung or dead)")
        return self.received[start:]


def text_of(states: dict[str, dict[str, Any]]) -> str:
    """All user-visible text in widget states (HTML values, labels, descriptions, options)."""
    parts: list[str] = []
    for model in states.values():
        state = model.get("state", model)
        for key in ("value", "description", "placeholder", "tooltip", "_options_labels", "_titles", "outputs"):
            value = state.get(key)
            if value is not None:
                parts.append(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value)
    return "\n".join(parts)
