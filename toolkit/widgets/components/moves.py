"""The generic table's legal moves as one clickable component.

One button per legal move, drawn in the page from one synced list (``items``: the move's text as its
data-key and title, its description as its label). A turn's moves are one comm message, not two per
button: a Tranquility turn of ~140 moves cost every page of a shared table ~280 messages (180 KB) as
ipywidgets Buttons (measured; docs/shared-tables.md). A click sends the move's text back; a text that is
not one of the moves shown now (a page behind the kernel) is refused, never played.

>>> picked = []
>>> buttons = MoveButtons(picked.append)
>>> buttons.show(["draw", "pass"], ["Draw a card", "Pass"])
>>> buttons.receive({"type": "pick", "key": "pass"}); picked
[1]
>>> buttons.receive({"type": "pick", "key": "jump"}); picked, bool(buttons.refusal)
([1], True)
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from traitlets import Dict, List, Unicode

from toolkit.widgets.components.base import PickComponent, component_css, component_source

_ESM = component_source("moves")
_CSS = component_css("moves")


class MoveButtons(PickComponent):
    """Legal moves as buttons; ``on_move(index)`` runs for a click on the move shown at ``index``.

    Speaks the hint-mark protocol (``mark_hint``): the buttons' data-keys are the move texts.
    """

    _esm = Unicode(_ESM).tag(sync=True)
    _css = Unicode(_CSS).tag(sync=True)
    _kind = Unicode("moves").tag(sync=True)
    items = List(Dict()).tag(sync=True)
    group_label = Unicode("").tag(sync=True)

    def __init__(self, on_move: Callable[[int], Any], lang: str = "en", **kwargs: Any):
        super().__init__(lang=lang, **kwargs)
        self.add_class("deepsea-move-buttons")
        self._on_move = on_move
        self.moves: list[Any] = []
        self.move_keys: list[str] = []
        self.on_pick(lambda index: self._on_move(index))

    def show(self, moves: Sequence[Any], labels: Sequence[str]) -> None:
        """Show these moves (objects; their ``str`` is the key) with these labels; the hint marks kept."""
        if len(labels) != len(moves):
            raise ValueError(f"{len(moves)} moves need as many labels, not {len(labels)}")
        self.moves, self.move_keys = list(moves), [str(m) for m in moves]
        items = [{"key": key, "label": str(label)} for key, label in zip(self.move_keys, labels)]
        if items != self.items:
            self.items = items
            self.refusal = ""

    def marked(self) -> list[str]:
        """The data-keys of the buttons drawn outlined now (a hinted key that is a move shown)."""
        return [key for key in self.move_keys if key in self.hint_keys]

    def _check_pick(self, content: Mapping[str, Any]) -> tuple[Any, str | None]:
        key = content.get("key")
        if isinstance(key, str) and key in self.move_keys:
            return self.move_keys.index(key), None
        return None, self._text("not_clickable")
