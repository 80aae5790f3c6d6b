"""The widget layer's foundation: a view-model for any engine, a base view, and the generic debug panel.

Split as in the ipywidgets tutorial: :class:`GameSession` is a ``traitlets.HasTraits`` model holding the
session (state, legal moves, last refusal, event log, language, seat); views are ``VBox`` subclasses with
private children that observe it. Widgets hold no rules: every decision comes from the engine.

Everything a visitor sends (button clicks, text boxes, any comm message to any widget) is untrusted:
callbacks go through :func:`safe_callback`, which turns a :class:`RuleError` into a readable refusal in the
page and any other exception into a short "something went wrong" note — never a traceback, never a
half-changed game.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import html
import json
import logging
import re
import time
import urllib.parse
from typing import TYPE_CHECKING, Any, Callable, Mapping, TypeVar

import ipywidgets as widgets
import traitlets
from traitlets import Any as AnyTrait, Int, List, Unicode, observe, validate

from toolkit.core import i18n
from toolkit.core.engine import Engine
from toolkit.core.errors import IllegalMoveError, InvalidMoveError, RuleError, UnknownLanguageError
from toolkit.core.explain import Event, Outcome, Violation
from toolkit.core.session import Session

if TYPE_CHECKING:
    pass

log = logging.getLogger("toolkit.widgets")
#: A view redraws for a language switch at most once per this many seconds (a burst is coalesced).
LANG_REDRAW_INTERVAL = 0.25
F = TypeVar("F", bound=Callable[..., Any])


def kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop of the IPython kernel this code runs in, or ``None`` outside a kernel.

    Only a kernel's loop times the bots: other code may leave a loop that looks running but never turns
    again for us (Playwright's sync API in a test session), and there the moves are played at once.
    """
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def __getattr__(name: str) -> Any:
    # ``Chart`` is re-exported here (views write ``from toolkit.widgets.base import Chart``) but imported
    # on first use: anywidget and psygnal would cost every kernel of a chart-free dashboard some tens of
    # milliseconds of its cold open and ~1.5 MiB for nothing (measured with the lazy view packages).
    if name == "Chart":
        from toolkit.widgets.chart import Chart

        return Chart
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

LANGUAGE_LABELS = (("English", "en"), ("日本語", "ja"))


def t(key: str, lang: str = "en", **params: Any) -> str:
    """Translate a catalogue key (shorthand for views)."""
    return i18n.translate(key, lang, params)


def esc(text: Any) -> str:
    return html.escape(str(text))


def query_params(query: str | None = None) -> dict[str, str]:
    """The page's URL query parameters (Voila passes them to the kernel as ``QUERY_STRING``).

    Values are untrusted text: callers validate them like any other input. Only the last value of a
    repeated key is kept, and keys/values are capped at 200 characters.

    In a preheated kernel (``voila --preheat_kernel=True``) the dashboard runs *before* anyone asks for
    the page, so this call waits until the visitor's request has arrived (see :func:`page_query_string`).
    """
    raw = query if query is not None else page_query_string()
    out: dict[str, str] = {}
    for key, value in urllib.parse.parse_qsl(raw[:4000], keep_blank_values=True):
        out[key[:200]] = value[:200]
    return out


# Voila's preheat protocol lives in toolkit.publishing.preheat; re-exported here, where dashboards found it.
from toolkit.publishing.preheat import PREHEAT_CONNECT_ATTEMPTS, page_query_string  # noqa: E402,F401


def view_summary(cls: type) -> str:
    """What a view class is, in one sentence: the first of its own docstring, else of its module's (or "").

    >>> class TrickView(View):
    ...     '''Play a trick: click a card. More detail here.'''
    >>> view_summary(TrickView)
    'Play a trick: click a card.'
    """
    module = sys.modules.get(cls.__module__)
    for doc in (cls.__dict__.get("__doc__"), getattr(module, "__doc__", None)):
        paragraph = " ".join((doc or "").strip().split("\n\n")[0].split()).replace("``", "")
        if paragraph:
            return re.split(r"(?<=[.!?])\s", paragraph, maxsplit=1)[0]
    return ""


def static_text(what: str, key: str = "ui.static_view") -> str:
    """The ``text/plain`` a notebook stores for a widget: what it is, and (en / ja) that running the cell
    makes it interactive. Shown wherever widgets are not: before the cell runs, GitHub, nbviewer, nbconvert.
    Deterministic, so nbval can compare it."""
    return f"{what} — {t(key, 'en')} / {t(key, 'ja')}"


def with_plain_text(bundle: Any, text: str) -> Any:
    """``bundle`` from a widget's ``_repr_mimebundle_`` (a data dict, or ``(data, metadata)`` as anywidget
    returns) with ``text/plain`` replaced by ``text``."""
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    if isinstance(data, dict):
        data["text/plain"] = text
    return bundle


def set_options(select: widgets.Widget, options: list[tuple[str, Any]]) -> None:
    """Give a drop-down or toggle group new ``(label, value)`` options, keeping its value if still offered
    (else nothing is selected).

    ipywidgets selects the first option whenever ``options`` change, even inside
    ``hold_trait_notifications`` (its observer runs when the hold ends and sees a selection). So a language
    switch that only relabels the options used to change the learner's choice: crew-task-difficulty jumped
    to task #1, the Tranquility table dropped the picked card, the debug panel made its player a spectator.

    When only the labels change (the same values in the same order: a language switch), the options are
    set as ipywidgets does while it initialises a widget — it then keeps the selection — and no observer of
    the value hears anything. Otherwise the selection is cleared first and set back after: observers see
    ``None`` in between and must accept it.

    >>> d = widgets.Dropdown(options=[("one", 1), ("two", 2)], value=2)
    >>> heard = []
    >>> d.observe(lambda change: heard.append(change["new"]), "value")
    >>> set_options(d, [("un", 1), ("deux", 2)]); d.value, d.label, heard
    (2, 'deux', [])
    >>> set_options(d, [("deux", 2), ("trois", 3)]); d.value, heard
    (2, [None, 2])
    >>> set_options(d, [("trois", 3)]); d.value
    """
    value = select.value
    values = [v for _label, v in options]
    if select.index is not None and values == list(select._options_values):
        # ipywidgets' own flag for "setting up": its options observer then leaves the selection alone
        select._initializing_traits_ = True
        try:
            select.options = options
        finally:
            select._initializing_traits_ = False
        select.label = options[select.index][0]   # the current index's label: the selection stays put
        return
    if select.index is not None:
        select.index = None
    select.options = options
    if value is not None and value in values:
        select.value = value


def close_tree(*roots: widgets.Widget) -> int:
    """Close widgets that left the page for good, with every widget they hold; returns how many closed.

    ``Widget.close()`` closes one model: its children, its ``layout`` and ``style`` (models too) and a
    view's private widgets outside its layout (a nested view's unshown language toggle) would stay in the
    kernel's ``Widget.widgets`` and in the page's widget manager for as long as the kernel lives — a leak,
    and a hidden card they held stays readable in the browser. This walks every widget-valued trait
    (``children``, ``layout``, ``style``, …) and, for a :class:`View`, the widgets its attributes hold.
    Call it only on widgets nothing else shows or keeps.
    """
    seen: set[int] = set()
    stack: list[Any] = list(roots)
    closed = 0
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(item)
            continue
        if isinstance(item, dict):
            stack.extend(item.values())
            continue
        if not isinstance(item, widgets.Widget) or id(item) in seen:
            continue
        seen.add(id(item))
        for name in item.keys:
            stack.append(getattr(item, name, None))
        if isinstance(item, View):
            stack.extend(v for k, v in vars(item).items() if k.startswith("_") and k != "_trait_values")
        if item.comm is not None:
            item.close()
            closed += 1
    return closed


def check_lang(value: Any) -> str:
    if value not in i18n.LANGUAGES:
        raise UnknownLanguageError(f"unknown language {value!r}: use one of {', '.join(i18n.LANGUAGES)}")
    return value


def rule_ref_html(rule: str | None, lang: str) -> str:
    """A rule id as a small reference after a sentence, never part of it (``""`` for no rule).

    The id stays available to whoever wants it — small and muted, with a tooltip naming the rule in
    ``lang`` — while the sentence stays in game words. It is a ``<code class="deepsea-rule">``, so on a
    published page :mod:`toolkit.widgets.page` makes it a link to the rules dashboard
    (``rules.ipynb?rule=<id>``).

    >>> rule_ref_html("bots.random", "en")  # doctest: +ELLIPSIS
    '<small class="deepsea-rule-ref" title="Rule bots.random: ..."><code class="deepsea-rule">bots.random</code></small>'
    """
    if not rule:
        return ""
    from toolkit.core import rules as rules_registry   # the registry loads every game's rules: once, lazily

    info = rules_registry.registry().get(rule)
    title = info.title.get(lang, info.title.get("en", "")) if info is not None else ""
    tip = t("ui.rule_ref", lang, rule=rule, title=title) if title else rule
    return (f'<small class="deepsea-rule-ref" title="{esc(tip)}">'
            f'<code class="deepsea-rule">{esc(rule)}</code></small>')


def explain_html(item: Violation | Event | Outcome | RuleError | str, lang: str) -> str:
    """One explanation as HTML: the sentence in ``lang`` and, if there is one, its rule id as a small
    reference beside it (:func:`rule_ref_html`)."""
    if isinstance(item, IllegalMoveError):
        item = item.violation
    if isinstance(item, (Violation, Event, Outcome)):
        return (f'<span class="deepsea-text">{esc(item.text(lang))}</span> '
                f'{rule_ref_html(item.rule, lang)}')
    if isinstance(item, RuleError):
        return f'<span class="deepsea-text">{esc(t("ui.bad_input", lang, detail=str(item)))}</span>'
    return f'<span class="deepsea-text">{esc(item)}</span>'


def safe_callback(method: F) -> F:
    """Wrap a view callback so nothing raises into the page.

    A :class:`RuleError` (a refused or malformed input) is shown with :meth:`View.report`; any other
    exception is logged and shown as a short internal-error note. The view's state is whatever the
    engine left, and engines never change state on refusal.
    """

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except RuleError as exc:
            _report(self, exc)
        except Exception as exc:  # noqa: BLE001 - the page must survive any bug
            log.exception("callback %s failed", method.__qualname__)
            _report(self, t("ui.internal_error", getattr(self, "lang", "en"),
                            detail=f"{type(exc).__name__}: {str(exc)[:120]}"), error=True)
        return None

    return wrapper  # type: ignore[return-value]


def _report(target: Any, item: Any, error: bool = False) -> None:
    report = getattr(target, "report", None)
    if callable(report):
        try:
            report(item, error=True)
            return
        except Exception:  # noqa: BLE001
            log.exception("report failed")
    log.warning("unreported refusal: %s", item)


class LanguageToggle(widgets.ToggleButtons):
    """English / 日本語 switch; link its ``value`` to a view's ``lang``."""

    def __init__(self, **kwargs: Any):
        super().__init__(options=list(LANGUAGE_LABELS), value=kwargs.pop("value", "en"),
                         style={"button_width": "6em"}, **kwargs)
        self.add_class("deepsea-lang")


class View(widgets.VBox):
    """Base of every view: a ``lang`` trait, a message area, translation and refusal display.

    Subclasses build their children in ``__init__`` (keep them private: ``self._board``), call
    ``self._finish(children)`` and override :meth:`refresh`, which runs whenever ``lang`` changes once
    the view is finished (a change before that, while the children do not exist yet, only sets ``lang``:
    the subclass's own first ``refresh`` draws it).

    A top-level view (``show_language``) built with the default ``"en"`` opens in the page's
    ``?lang=ja`` when its URL gives one, so every published dashboard honours a shared Japanese link
    (docs/decisions.md, "The page's language").
    """

    lang = Unicode("en")

    def __init__(self, lang: str = "en", show_language: bool = True, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("deepsea-root")
        self._finished = False
        if show_language and lang == "en":
            asked = query_params().get("lang")
            lang = asked if asked in i18n.LANGUAGES else lang
        self._message = widgets.HTML(value="")
        self._message.add_class("deepsea-message")
        self._language = LanguageToggle(value=check_lang(lang))
        self._show_language = show_language
        self.lang = lang
        widgets.link((self._language, "value"), (self, "lang"))

    @validate("lang")
    def _valid_lang(self, proposal: Any) -> str:
        value = proposal["value"]
        if value not in i18n.LANGUAGES:
            # A hostile comm message: keep the old language and say so instead of raising.
            self.report(UnknownLanguageError(f"unknown language {value!r}"), error=True)
            return self.lang if self.lang in i18n.LANGUAGES else "en"
        return value

    def _finish(self, children: list[widgets.Widget]) -> None:
        top = [self._language] if self._show_language else []
        tail: list[widgets.Widget] = [self._message]
        if self._show_language:
            # The top-level view (the one with the toggle) carries the page's language, display size and
            # accessibility pass (toolkit.widgets.page); nested views share it.
            tail.append(self._page_support())
        self.children = tuple(top + list(children) + tail)
        self._finished = True

    def _page_support(self) -> widgets.Widget:
        from toolkit.widgets.page import PageSupport, display_mode_from_query

        page = getattr(self, "_page", None)
        if page is None:
            page = self._page = PageSupport(lang=self.lang, display_mode=display_mode_from_query(query_params()))
            page.attach(self)  # so a table's bot driver finds the page it waits for (page.page_of)
            traitlets.dlink((self, "lang"), (page, "lang"))
        return page

    def t(self, key: str, **params: Any) -> str:
        return t(key, self.lang, **params)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # ipywidgets stores repr(self) as the output's text/plain: "PinkNineTrickView(children=(LanguageToggle(
        # _dom_classes=...", which is what a notebook shows before it runs and on any static renderer.
        return with_plain_text(super()._repr_mimebundle_(**kwargs),
                               static_text(": ".join(filter(None, (type(self).__name__, view_summary(type(self)))))))

    def report(self, item: Any, error: bool = False) -> None:
        """Show a refusal, event or plain note in the message area (in the current language)."""
        self._reported = item
        kind = "deepsea-refusal" if error else "deepsea-note"
        self._message.value = f'<div class="{kind}">{explain_html(item, self.lang)}</div>'

    def clear_report(self) -> None:
        self._reported = None
        self._message.value = ""

    def play_on(self, model: "GameSession", move: Any) -> bool:
        """Try ``move`` on a session model; show its refusal (or clear the last one). Never raises."""
        applied = model.play(move)
        if applied:
            self.clear_report()
        elif model.violation is not None:
            self.report(model.violation, error=True)
        else:
            self.report(model.message, error=True)
        return applied

    @observe("lang")
    def _on_lang(self, change: Mapping[str, Any]) -> None:
        if not getattr(self, "_finished", False):
            return       # still in __init__: the children a refresh draws are not built yet
        if getattr(self, "_lang_redraw_pending", False):
            return       # the redraw already scheduled draws the latest language
        wait = getattr(self, "_lang_redrawn_at", -LANG_REDRAW_INTERVAL) + LANG_REDRAW_INTERVAL - time.monotonic()
        if wait > 0:
            # A burst of switches (a visitor's script: 100 took a kernel 8-16 s, one full redraw each) is
            # drawn once more at the end of the interval, in the language it ends on. A person's click (or a
            # script outside a kernel's event loop) redraws at once.
            loop = kernel_loop()   # only a kernel's loop: a test's (Playwright's) may never turn for us
            if loop is not None:
                self._lang_redraw_pending = True
                loop.call_later(wait, self._redraw_language_later)
                return
        self._redraw_language()

    def _redraw_language(self) -> None:
        self._lang_redraw_pending = False
        self._lang_redrawn_at = time.monotonic()
        reported = getattr(self, "_reported", None)
        if reported is not None:
            self.report(reported, error="deepsea-refusal" in self._message.value)
        self.refresh()

    def _redraw_language_later(self) -> None:
        try:
            self._redraw_language()
        except Exception as exc:  # outside a message handler nobody else would catch it
            log.exception("a deferred language redraw failed")
            self.report(t("ui.internal_error", self.lang, detail=type(exc).__name__), error=True)

    def refresh(self) -> None:
        """Re-render labels and content for the current language/state (override)."""


class GameSession(traitlets.HasTraits):
    """View-model over any :class:`Engine`: the session plus what views display.

    Every method is safe to call with untrusted input: refusals land in ``violation`` and ``message``
    instead of raising. ``position`` is the replay cursor (``len(session)`` is "now").
    """

    state = AnyTrait()
    legal_moves = List()
    violation = AnyTrait(None, allow_none=True)
    events = List()
    lang = Unicode("en")
    seat = Int(None, allow_none=True)
    position = Int(0)
    length = Int(0)
    outcome = AnyTrait(None, allow_none=True)
    message = Unicode("")
    revision = Int(0)

    def __init__(self, engine: Engine, seed: int = 0, options: Mapping[str, Any] | None = None,
                 session: Session | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.engine = engine
        self.session = session if session is not None else Session(engine, seed, dict(options or {}))
        self._sync()

    @validate("lang")
    def _valid_lang(self, proposal: Any) -> str:
        return proposal["value"] if proposal["value"] in i18n.LANGUAGES else "en"

    @validate("position")
    def _valid_position(self, proposal: Any) -> int:
        value = proposal["value"]
        return min(max(int(value), 0), len(self.session))

    # ---- reading ---------------------------------------------------------------------------
    @property
    def live(self) -> bool:
        """True when the replay cursor is at the current position (moves may be made)."""
        return self.position == len(self.session)

    def shown_state(self) -> Any:
        """The state at the replay cursor."""
        return self.session.at(self.position)

    def observation(self) -> Mapping[str, Any]:
        return self.engine.observe(self.shown_state(), self.seat)

    def describe(self, move: Any) -> str:
        return self.engine.describe_move(move, self.lang)

    # ---- acting (never raises) ----------------------------------------------------------------
    def play(self, move: Any) -> bool:
        """Try a move (object or text). Returns True if applied; otherwise ``violation``/``message`` say why."""
        if not self.live:
            self.truncate_to_cursor()
        try:
            if isinstance(move, str):
                move = self.engine.parse_move(move.strip()[:200])
            step = self.session.push(move)
        except IllegalMoveError as exc:
            self.violation = exc.violation
            self.message = exc.violation.text(self.lang)
            return False
        except RuleError as exc:
            self.violation = None
            self.message = t("ui.bad_input", self.lang, detail=str(exc))
            return False
        except Exception as exc:  # noqa: BLE001
            log.exception("move failed")
            self.violation = None
            self.message = t("ui.internal_error", self.lang, detail=type(exc).__name__)
            return False
        self.violation = None
        self._sync()
        self.message = "; ".join(e.text(self.lang) for e in step.events[-3:])
        return True

    def undo(self) -> None:
        if not self.live:
            self.truncate_to_cursor()
        self.session.undo()
        self.violation = None
        self.message = ""
        self._sync()

    def new_game(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start again (same seed unless given). Bad options are reported, the old game kept."""
        try:
            seed = self.session.seed if seed is None else int(seed)
            fresh = Session(self.engine, seed, dict(options if options is not None else self.session.options))
        except RuleError as exc:
            self.message = t("ui.bad_input", self.lang, detail=str(exc))
            return
        except (TypeError, ValueError, OverflowError) as exc:
            self.message = t("ui.bad_input", self.lang, detail=str(exc))
            return
        self.session = fresh
        self.violation = None
        self.message = ""
        self._sync()

    def load(self, session: Session) -> None:
        """Play ``session`` from now on (a game reopened from its code, already replayed and checked)."""
        if not isinstance(session, Session) or session.engine is not self.engine:
            raise TypeError(f"session must be a Session of {self.engine.name}, not {session!r:.60}")
        self.session = session
        self.violation = None
        self.message = ""
        self._sync()

    def truncate_to_cursor(self) -> None:
        self.session.truncate(self.position)
        self._sync()

    def goto(self, position: int) -> None:
        self.position = position  # validated and clamped
        self.revision += 1

    def _sync(self) -> None:
        s = self.session
        with self.hold_trait_notifications():
            self.length = len(s)
            self.position = len(s)
            self.state = s.state
            self.legal_moves = s.legal_moves()
            self.events = s.events
            self.outcome = s.outcome()
        self.revision += 1


class DebugPanel(View):
    """Plays any engine: pick a legal move or type one, apply, undo, replay, read why.

    ``DebugPanel(GameSession(engine, seed))`` is enough to make a new game playable before its own view
    exists (boardgame.io's debug panel).
    """

    def __init__(self, model: GameSession, lang: str = "en", seat_choices: int | None = None,
                 show_language: bool = True):
        check_lang(lang)
        # the language is set once the widgets exist: setting it re-renders them (``refresh``)
        super().__init__(show_language=show_language)
        self.add_class("deepsea-debug")
        self.model = model
        self._title = widgets.HTML()
        self._moves = widgets.Dropdown(layout=widgets.Layout(width="28em"))
        self._moves.add_class("deepsea-moves")
        self._text = widgets.Text(layout=widgets.Layout(width="16em"))
        self._text.add_class("deepsea-move-text")
        self._apply = widgets.Button(button_style="primary")
        self._apply.add_class("deepsea-apply")
        self._apply_text = widgets.Button()
        self._apply_text.add_class("deepsea-apply-text")
        self._undo = widgets.Button()
        self._undo.add_class("deepsea-undo")
        self._slider = widgets.IntSlider(min=0, max=0, value=0, continuous_update=False)
        self._slider.add_class("deepsea-replay")
        self._seat = widgets.Dropdown()
        self._seat.add_class("deepsea-seat")
        self._status = widgets.HTML()
        self._status.add_class("deepsea-status")
        self._observation = widgets.HTML()
        self._observation.add_class("deepsea-observation")
        self._log = widgets.HTML()
        self._log.add_class("deepsea-log")
        self._seat_count = seat_choices
        self._apply.on_click(self._on_apply)
        self._apply_text.on_click(self._on_apply_text)
        self._undo.on_click(self._on_undo)
        self._slider.observe(self._on_slider, "value")
        self._seat.observe(self._on_seat, "value")
        # Only ``revision`` (bumped once the model is consistent) triggers a redraw.
        model.observe(self._on_model, "revision")
        self._finish([
            self._title,
            widgets.HBox([self._seat]),
            widgets.HBox([self._moves, self._apply]),
            widgets.HBox([self._text, self._apply_text, self._undo]),
            self._slider,
            self._status,
            self._observation,
            self._log,
        ])
        self.lang = lang
        self.refresh()

    def show_game(self, model: GameSession) -> None:
        """Play ``model`` in this panel from now on, as a spectator (a new game keeps the panel's widgets:
        a new panel per game left ~47 widget models per click in the kernel and the page)."""
        self.model.unobserve(self._on_model, "revision")
        self.model = model
        model.observe(self._on_model, "revision")
        self._moves_listed = None
        self._text.value = ""
        self.clear_report()
        if self._seat.value is not None:
            self._seat.value = None       # redraws through _on_seat
        else:
            self.refresh()

    # ---- callbacks -------------------------------------------------------------------------
    @safe_callback
    def _on_apply(self, _button: Any = None) -> None:
        index = self._moves.value
        moves = self.model.legal_moves
        if not isinstance(index, int) or not 0 <= index < len(moves):
            raise InvalidMoveError(f"no legal move number {index!r}")
        self._play(moves[index])

    @safe_callback
    def _on_apply_text(self, _button: Any = None) -> None:
        text = self._text.value if isinstance(self._text.value, str) else ""
        if self._play(text):
            self._text.value = ""

    def _play(self, move: Any) -> bool:
        return self.play_on(self.model, move)

    @safe_callback
    def _on_undo(self, _button: Any = None) -> None:
        self.model.undo()
        self.clear_report()

    @safe_callback
    def _on_slider(self, change: Mapping[str, Any]) -> None:
        value = change["new"]
        if not isinstance(value, int):
            raise InvalidMoveError(f"replay position {value!r} is not a number")
        self.model.goto(value)

    @safe_callback
    def _on_seat(self, change: Mapping[str, Any]) -> None:
        value = change["new"]
        if value is not None and not isinstance(value, int):
            raise InvalidMoveError(f"seat {value!r} is not a seat number")
        self.model.seat = value
        self.refresh()

    def _on_model(self, change: Mapping[str, Any]) -> None:
        self.refresh()

    # ---- rendering -------------------------------------------------------------------------
    def refresh(self) -> None:
        m, lang = self.model, self.lang
        m.lang = lang
        self._title.value = f"<h3>{esc(t('game.' + m.engine.name, lang) if i18n.has('game.' + m.engine.name) else m.engine.name)}</h3>"
        self._apply.description = t("ui.apply", lang)
        self._apply_text.description = t("ui.apply", lang)
        self._undo.description = t("ui.undo", lang)
        self._moves.description = t("ui.legal_moves", lang)
        self._text.placeholder = t("ui.move_text", lang)
        self._slider.description = t("ui.replay", lang)
        self._seat.description = t("ui.seat", lang)
        seats = self._seat_count or _seat_count(m)
        options = [(t("ui.spectator", lang), None)] + [(str(i), i) for i in range(seats)]
        if list(self._seat.options) != options:
            seat = m.seat if m.seat is None or m.seat < seats else None
            set_options(self._seat, options)      # a relabel (language) keeps the seat
            if self._seat.value != seat:
                self._seat.value = seat
        labels = [(m.describe(mv), i) for i, mv in enumerate(m.legal_moves)]
        moves = list(m.legal_moves)
        if moves == getattr(self, "_moves_listed", None) and self._moves.value is not None:
            set_options(self._moves, labels)      # the same moves in another language: keep the chosen one
        else:
            self._moves.options = labels          # new moves: the first is chosen
            self._moves.value = 0 if labels else None
        self._moves_listed = moves
        with self._slider.hold_trait_notifications():
            self._slider.max = m.length
            self._slider.value = m.position
        if m.outcome is not None:
            status = f"<b>{esc(t('ui.outcome', lang))}:</b> {explain_html(m.outcome, lang)}"
        else:
            player = m.engine.current_player(m.shown_state())
            status = esc(t("ui.to_move", lang, seat=player)) if player is not None else ""
        pos = esc(t("ui.position", lang, index=m.position, total=m.length))
        obs = m.observation()
        self._observation.value = (f"<details open class='deepsea-side'><summary>{esc(t('ui.state', lang))}</summary>"
                                   f"<pre>{esc(json.dumps(obs, ensure_ascii=False, indent=1, default=str)[:6000])}</pre></details>")
        self._log.value = event_log_html(m.session.events[-30:], lang)
        # The status is written last, so a page whose status shows a position shows its log too (the
        # messages reach the page in order; a reader waiting on the status then reads a current log).
        self._status.value = f"<div>{status}</div><div>{pos}</div>"


def event_log_html(events: list[Event], lang: str, title: bool = True,
                   seat_name: Callable[[int], str] | None = None,
                   seat_phrase: Callable[[int], str] | None = None) -> str:
    """The event log as an HTML list, newest last, each line with its rule id.

    The whole game is kept: the list scrolls inside its box (the newest line stays in view: the box is
    anchored at its end), and every line keeps its number in the game. With ``seat_name`` (seat →
    "You" / "Seat 2 (bot: expert)"), every event that belongs to a seat starts with who did it — the
    sentences themselves often do not say ("Busts on a blue gem"). With ``seat_phrase`` (seat -> how the
    sentences name it: "Seat 2"), a sentence that starts with it names its seat once: the name takes the
    phrase's place ("Seat 2 (you) plays ...", not "You: Seat 2 plays ...").
    """
    items = []
    for number, e in enumerate(events, start=1):
        who = ""
        seat = getattr(e, "seat", None)
        line = explain_html(e, lang)
        if seat_name is not None and isinstance(seat, int):
            bold = f'<b class="deepsea-event-seat" data-seat="{seat}">{esc(seat_name(seat))}</b>'
            lead = '<span class="deepsea-text">' + (esc(seat_phrase(seat)) if seat_phrase is not None else "")
            if seat_phrase is not None and line.startswith(lead) and not line[len(lead):len(lead) + 1].isdigit():
                line = f'{bold}<span class="deepsea-text">{line[len(lead):]}'
            else:
                who = f"{bold}: "
        items.append(f'<li value="{number}">{who}{line}</li>')
    head = f"<b>{esc(t('ui.event_log', lang))}</b>" if title else ""
    # deepsea-side: a side panel, hidden in the projector mode (?display=large; toolkit.widgets.page).
    # column-reverse keeps the scroll position at the newest line while the list grows.
    return (f'<div class="deepsea-side">{head}<div class="deepsea-events-box" style="max-height:16em;'
            f'overflow-y:auto;display:flex;flex-direction:column-reverse" tabindex="0" role="log" '
            f'aria-label="{esc(t("ui.event_log", lang))}"><ol class="deepsea-events">{"".join(items)}</ol></div></div>')


def _seat_count(model: GameSession) -> int:
    count = getattr(model.state, "players", None)
    if isinstance(count, int):
        return count
    if isinstance(count, (tuple, list)):
        return len(count)
    return 0
