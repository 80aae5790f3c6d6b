"""The parts of a table, each a small widget with one job, usable alone (see :mod:`toolkit.widgets.table`).

Each part draws from what it is given (a model, a seat namer, a language): none holds rules, none reads
another seat's hidden cards. The :class:`~toolkit.widgets.table.frame.TableFrame` wires them together; a
table may also adopt one part at a time in its own layout.
"""

from __future__ import annotations

import logging
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from toolkit.core.explain import Event, Outcome
from toolkit.widgets.base import GameSession, esc, event_log_html, explain_html, rule_ref_html, t

log = logging.getLogger("toolkit.widgets.table")
#: a log longer than this many lines folds into its scroll box, with a visible marker saying so
LOG_FOLD_LINES = 12


def sentences(parts: Iterable[str]) -> list[str]:
    """The non-empty ``parts`` once each, in order: a status line never says the same thing twice.

    >>> sentences(["Your turn.", "", "Your turn.", "Seat 2 may also act."])
    ['Your turn.', 'Seat 2 may also act.']
    """
    out: list[str] = []
    for part in parts:
        part = (part or "").strip()
        if part and part not in out:
            out.append(part)
    return out


class StatusLine(widgets.HTML):
    """Who acts now, in one line: "Your turn." / "Seat 2 (bot: expert) to play." / "The game is over.".

    ``acting`` is the seat the line lights (``None`` when the game is over or nobody acts); the HTML
    carries it as ``data-acting`` so the page (and tests) can see it.

    Every part a redraw writes carries ``data-moves`` (the moves shown), so a page or a test can tell
    which redraw it reads: the parts are separate widgets, and under load one can arrive before another.
    The frame writes the status before the banner, the log and the hint; a log whose ``data-moves`` equals
    the status's tells that the whole redraw has arrived.
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-table-status")
        self.acting: int | None = None
        self.text = ""

    def update(self, model: GameSession, seat_name: Callable[[int], str], lang: str,
               is_human: Callable[[int], bool] = lambda seat: False, humans: int = 1,
               extra: Sequence[str] = ()) -> str:
        """Redraw from the model at its replay cursor; ``extra`` are the game's own sentences (its phase),
        dropped where they repeat. Returns the text shown."""
        engine, state = model.engine, model.shown_state()
        parts: list[str] = []
        if not model.live:
            parts.append(t("table.status.replay", lang, index=model.position, total=model.length))
        if engine.is_over(state):
            self.acting = None
            parts.append(t("table.status.over", lang))
        elif engine.play_out_over(state):
            # one play-out ended but not the game (the Crew's failed attempt, which the crew may retry):
            # nobody is lit, and "the game is over" would be wrong
            self.acting = None
            parts.append(t("table.status.attempt_over", lang))
        else:
            self.acting = engine.decider(state)
            if self.acting is not None:
                name = seat_name(self.acting)
                if is_human(self.acting):
                    parts.append(t("table.status.your_turn", lang) if humans <= 1
                                 else t("table.status.hot_seat_turn", lang, name=name))
                else:
                    parts.append(t("table.status.seat_turn", lang, name=name))
            others = [s for s in engine.optional_actors(state) if s != self.acting]
            if others:
                parts.append(t("table.status.also_may", lang, names=", ".join(seat_name(s) for s in others)))
        parts.extend(extra)
        self.text = " ".join(sentences(parts))
        acting = "" if self.acting is None else str(self.acting)
        self.value = (f'<div class="deepsea-status-line" role="status" aria-live="polite" '
                      f'data-acting="{acting}" data-moves="{model.position}">{esc(self.text)}</div>')
        return self.text


class BotLine(widgets.HTML):
    """The last bot move and its reason ("Seat 1 (bot: expert) played place 24 at 10. — Lowest cost."),
    shown while it is the latest move; empty otherwise."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-bot-line")
        self.seat: int | None = None

    def show(self, seat: int | None, text: str, rule: str = "", lang: str = "en") -> None:
        self.seat = seat if text else None
        if not text:
            self.value = ""
            return
        code = f" {rule_ref_html(rule, lang)}" if rule else ""   # beside the sentence, never in it
        self.value = f'<p class="deepsea-bot-move" data-seat="{seat}" role="status">{esc(text)}{code}</p>'


class ResultBanner(widgets.HTML):
    """The outcome, once, while the game is over (hidden otherwise). ``text`` comes from the table's hook
    (``"You win…"``, ``"The crew failed…"``); without one, the engine's outcome sentence and rule id."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-result-banner")
        self.layout.display = "none"
        self.shown: Outcome | None = None

    def update(self, outcome: Outcome | None, lang: str, text: str | None = None, moves: int = 0) -> None:
        self.shown = outcome
        if outcome is None:
            self.value = ""
            self.layout.display = "none"
            return
        body = esc(text) if text else explain_html(outcome, lang)
        self.value = (f'<div class="deepsea-result" role="status" data-result="{esc(getattr(outcome, "result", ""))}" '
                      f'data-moves="{int(moves)}" '
                      f'style="padding:.5em 1em;border:2px solid #2a6;border-radius:6px;background:#eefbf1">'
                      f'<b>{esc(t("table.result.title", lang))}:</b> {body}</div>')
        self.layout.display = None


class EventLog(widgets.VBox):
    """The whole game's events, numbered, each line naming its seat; a scroll box with a visible marker
    once it folds; above it, the last result (a trick, a dive, a sailing) kept until the next one."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-table-log")
        self._last = widgets.HTML()
        self._last.add_class("deepsea-last-result")
        self._log = widgets.HTML()
        self._log.add_class("deepsea-log")
        self.children = (self._last, self._log)
        self.last_result_html = ""
        self.count = 0

    def update(self, events: Sequence[Event], lang: str, seat_name: Callable[[int], str] | None,
               last_result_html: str | None = None, moves: int = 0,
               seat_phrase: Callable[[int], str] | None = None) -> None:
        """``moves``: the moves shown, stamped as ``data-moves`` on ``.deepsea-log-body`` (see StatusLine).
        ``seat_phrase``: how the game's sentences name a seat ("Seat 2"); a line starting with it names
        its seat once (see :func:`~toolkit.widgets.base.event_log_html`)."""
        self.count = len(events)
        self.last_result_html = last_result_html or ""
        self._last.value = (f'<div class="deepsea-last-result-box" role="status"><b>{esc(t("table.log.last_result", lang))}</b>'
                            f'<div>{self.last_result_html}</div></div>' if self.last_result_html else "")
        # deepsea-side: hidden with the log itself in the projector mode (?display=large)
        folded = (f'<div class="deepsea-log-folded deepsea-side">{esc(t("table.log.folded", lang, count=len(events)))}</div>'
                  if len(events) > LOG_FOLD_LINES else "")
        self._log.value = (f'<div class="deepsea-log-body" data-moves="{int(moves)}" data-lang="{esc(lang)}">'
                           f'{folded}{event_log_html(list(events), lang, seat_name=seat_name, seat_phrase=seat_phrase)}</div>')


class RefusalLine(widgets.HTML):
    """Why the last click did nothing, placed next to what was clicked (``role=alert``). Empty after a
    click that moved."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-refusal-line")
        self.item: Any = None

    def show(self, item: Any, lang: str) -> None:
        """``item``: a Violation, RuleError, or text (already in ``lang``)."""
        self.item = item
        if isinstance(item, str):
            body = esc(item)
        elif hasattr(item, "key") and callable(getattr(item, "text", None)):   # a GameCodeError
            body = esc(item.text(lang))
        else:                                                                  # Violation, RuleError
            body = explain_html(item, lang)
        # the components' refusals start with ✘ in a dark red (tranquility.js); this line looks the same,
        # so a refused button reads as refused, not as one more help line
        self.value = f'<div class="deepsea-refusal" role="alert" style="color:#a00000">✘ {body}</div>'

    def clear(self) -> None:
        self.item = None
        self.value = ""

    def redraw(self, lang: str) -> None:
        if self.item is not None:
            self.show(self.item, lang)


def answer_click(applied: bool, model: GameSession, refusal: RefusalLine, lang: str) -> bool:
    """Answer a click: after a move, clear the refusal line; otherwise show why (the engine's violation,
    or the model's message). Every click is answered, never silence. Returns ``applied``."""
    if applied:
        refusal.clear()
    else:
        refusal.show(model.violation if model.violation is not None else (model.message or t("ui.refused", lang)), lang)
    return applied


class HintBar(widgets.VBox):
    """The "Hint" button, the hint in plain words (once), and "Play the hint". The frame fills it; the
    marks on the board go through each component's ``mark_hint(keys, label)``."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-hint-bar")
        self.ask = widgets.Button(icon="lightbulb-o")
        self.ask.add_class("deepsea-hint")
        self.play = widgets.Button()
        self.play.add_class("deepsea-play-hint")
        self.text = widgets.HTML()
        self.text.add_class("deepsea-hint-text")
        self.children = (widgets.HBox([self.ask, self.play]), self.text)
        self.decision: Any = None
        self.seat: int | None = None
        self.marked: list[tuple[Any, list[str]]] = []

    def relabel(self, lang: str) -> None:
        self.ask.description = t("table.hint.button", lang)
        self.play.description = t("table.hint.play", lang)
        self.play.disabled = self.decision is None or getattr(self.decision, "move", None) is None

    def show(self, html_text: str, marks: int | None = None, moves: int | None = None) -> None:
        """The hint line; ``marks``: how many objects the hint outlines (``data-marks``: a page or test can
        wait for them all); ``moves``: the moves shown when it was asked (``data-moves``, see StatusLine)."""
        counted = f' data-marks="{int(marks)}"' if marks is not None else ""
        counted += f' data-moves="{int(moves)}"' if moves is not None else ""
        self.text.value = (f'<div class="deepsea-hint-line" role="status"{counted}>{html_text}</div>'
                           if html_text else "")

    def mark(self, marks: Sequence[tuple[Any, Sequence[str]]], label: str) -> None:
        """Outline the suggested objects: ``marks`` is ``[(component, [data-keys])]``."""
        self.unmark()
        for component, keys in marks:
            component.mark_hint(list(keys), label)
            self.marked.append((component, list(keys)))

    def unmark(self) -> None:
        for component, _keys in self.marked:
            try:
                component.mark_hint()
            except Exception:  # noqa: BLE001 - a closed component: nothing left to clear
                log.debug("could not clear the hint marks of %s", type(component).__name__)
        self.marked = []

    def forget(self) -> None:
        """Drop the hint (after any move, undo or new game)."""
        self.decision, self.seat = None, None
        self.unmark()
        self.show("")
        self.play.disabled = True


class OptionsBar(widgets.HBox):
    """The game's options as labelled widgets, a labelled seed and the "New game" button."""

    def __init__(self, options: Mapping[str, widgets.Widget], seed: int = 1, max_seed: int = 2**31 - 1, **kwargs: Any):
        super().__init__(layout=widgets.Layout(flex_flow="row wrap", align_items="center"), **kwargs)
        self.add_class("deepsea-options-bar")
        self.option_widgets = dict(options)
        # the label at its own width: a fixed width left the box a sliver under ?display=large
        self.seed = widgets.BoundedIntText(value=seed, min=0, max=max_seed, layout=widgets.Layout(width="16em"),
                                           style={"description_width": "initial"})
        self.seed.add_class("deepsea-seed")
        self.new_game = widgets.Button(button_style="info")
        self.new_game.add_class("deepsea-new-game")
        #: why the last "New game" did not start one (bad options), beside the button
        self.answer = RefusalLine()
        self.children = tuple(self.option_widgets.values()) + (self.seed, self.new_game, self.answer)

    def values(self) -> dict[str, Any]:
        """The options as chosen (untrusted: the engine checks them when the game starts)."""
        return {name: w.value for name, w in self.option_widgets.items()}

    def show_values(self, seed: int, options: Mapping[str, Any]) -> None:
        """Set the widgets to a game's seed and options (after opening a code)."""
        self.seed.value = seed
        for name, w in self.option_widgets.items():
            if name in options:
                try:
                    w.value = options[name]
                except Exception:  # noqa: BLE001 - an option the widget cannot show keeps its value
                    log.debug("option %s=%r cannot be shown", name, options[name])

    def relabel(self, lang: str) -> None:
        self.seed.description = t("table.controls.seed", lang)
        self.new_game.description = t("table.controls.new_game", lang)


class Controls(widgets.VBox):
    """Undo, and the shareable link + code of this game, with a box to open a pasted code."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-controls")
        self.undo = widgets.Button(icon="undo")
        self.undo.add_class("deepsea-undo")
        self.share = widgets.HTML()
        self.share.add_class("deepsea-share")
        self.code_input = widgets.Text(layout=widgets.Layout(width="30em"))
        self.code_input.add_class("deepsea-code-input")
        self.open = widgets.Button()
        self.open.add_class("deepsea-open-code")
        self.answer = widgets.HTML()
        self.answer.add_class("deepsea-code-answer")
        self.children = (widgets.HBox([self.undo]), self.share,
                         widgets.HBox([self.code_input, self.open, self.answer],
                                      layout=widgets.Layout(flex_flow="row wrap", align_items="center")))
        self.code = ""

    def relabel(self, lang: str) -> None:
        self.undo.description = t("table.controls.undo", lang)
        self.open.description = t("table.controls.open_code", lang)
        self.code_input.placeholder = t("table.controls.code_placeholder", lang)

    def show_code(self, code: str | None, lang: str, extra_query: Mapping[str, str] | None = None) -> None:
        """The link (``?code=…`` plus ``extra_query``, e.g. the language) and the code; ``None``: no code."""
        self.code = code or ""
        if code is None:
            self.share.value = f'<p class="deepsea-no-code">{esc(t("table.controls.no_code", lang))}</p>'
            return
        query = urllib.parse.urlencode({"code": code, **dict(extra_query or {})})
        self.share.value = (f'<p class="deepsea-share-line"><a class="deepsea-share-link" href="?{esc(query)}" '
                            f'target="_blank" rel="noopener">{esc(t("table.controls.share", lang))}</a> '
                            f'{esc(t("table.controls.code", lang))} <code class="deepsea-game-code" '
                            f'style="user-select:all;word-break:break-all">{esc(code)}</code></p>')
