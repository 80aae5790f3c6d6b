"""The winnable and difficulty pages' HTML, as small functions of what they show: cards as chips, TONOJA's
columns, the winning line and the tasks' status. Text is escaped here; every label arrives translated
(``t`` is a view's :meth:`~toolkit.widgets.base.View.t`, ``lang`` its language). No widgets, no rules.
"""

from __future__ import annotations

import html
from typing import Any, Callable, Iterable, Sequence

from toolkit.crew.cards import Card
from toolkit.crew.tonoja_columns import Column, free_columns
from toolkit.widgets.markup import heading, note

Translate = Callable[..., str]

#: the look of the empty place under a column while TONOJA's face-down cards are clicked in
_EMPTY_PLACE_STYLE = ("margin-top:2px;min-width:2.6em;min-height:1.4em;border:2px dashed {border};"
                      "border-radius:6px;font-size:0.8em;text-align:center;color:#0b57d0")
_COLUMN_STYLE = ("display:flex;flex-direction:column;align-items:center;padding:2px 4px;border:1px solid #bbb;"
                 "border-radius:6px;background:#fafafa")


def heading_html(title: str, intro: str) -> str:
    """A view's title and its one-paragraph introduction."""
    return heading(title, intro)


def note_html(cls: str, text: str, max_width: str = "60em") -> str:
    """A small explanatory paragraph (the TONOJA rule, the double-dummy note)."""
    return note(cls, text, max_width)


def next_face_down_column(columns: Sequence[Column], chosen: Any) -> int:
    """The column (numbered from 1) the next face-down card goes to: ``chosen`` (an index from 0) if it is
    free, else the first free column; 0 when none is free."""
    free = free_columns(columns)
    if chosen in free and not isinstance(chosen, bool):
        return chosen + 1
    return free[0] + 1 if free else 0


def hand_cards_html(seat: int, cards: Sequence[Card], title: str, lang: str) -> str:
    """One seat's hand as chips under its title (``data-seat``/``data-count`` for the tests and the eye)."""
    from toolkit.widgets.crew.common import chips
    return (f"<div class='crew-solver-hand-cards crew-solver-hand-cards-{seat}' data-seat='{seat}' "
            f"data-count='{len(cards)}'><b>{html.escape(title)}</b><div>{chips(list(cards), lang)}</div></div>")


def columns_html(columns: Sequence[Column], seat: int, t: Translate, lang: str, building: bool = False,
                 next_down: int | None = None) -> str:
    """TONOJA's columns, each a face-up card with the face-down card under it drawn below (double dummy:
    the face-down cards are shown too, and the page says so), numbered as the picker's badges. While the
    picker builds them (``building``), a column without a face-down card shows an empty place, and column
    ``next_down`` (numbered from 1), where the next face-down card goes, is marked."""
    from toolkit.widgets.crew.common import chip
    count = sum(2 if down is not None else 1 for down, _up in columns)
    title = html.escape(t("crew.ui.solver.tonoja_title", columns=len(columns), n=count))
    cells = []
    for k, (down, up) in enumerate(columns, start=1):
        if down is None:
            label = t("crew.ui.solver.column_alone", k=k, up=up.text(lang))
            under = ""
            if building:
                here = k == next_down
                if here:
                    label += " — " + t("crew.ui.solver.column_next")
                style = _EMPTY_PLACE_STYLE.format(border="#0b57d0" if here else "#767676")
                under = (f"<div class='crew-solver-empty-place{' crew-solver-next-place' if here else ''}' "
                         f"aria-hidden='true' style='{style}'>{'▲' if here else ''}</div>")
        else:
            label = t("crew.ui.solver.column_label", k=k, up=up.text(lang), down=down.text(lang))
            under = (f"<div class='crew-solver-under' aria-hidden='true' style='font-size:0.8em;color:#333'>"
                     f"{html.escape(t('crew.ui.solver.under'))}</div>"
                     f"<div class='crew-solver-face-down' data-face-down='{down}' "
                     f"style='border:2px dashed #555;border-radius:6px;padding:1px'>{chip(down, lang)}</div>")
        cells.append(f"<div class='crew-solver-column' role='group' aria-label='{html.escape(label, quote=True)}' "
                     f"data-face-up='{up}' data-column='{k}' style='{_COLUMN_STYLE}'>"
                     f"<div aria-hidden='true' style='font-size:0.8em;color:#333'>{k}</div>"
                     f"<div class='crew-solver-face-up'>{chip(up, lang)}</div>{under}</div>")
    note = note_html("crew-solver-tonoja-note", t("crew.ui.solver.tonoja_note"), max_width="40em")
    return (f"<div class='crew-solver-hand-cards crew-solver-hand-cards-{seat} crew-solver-columns' "
            f"data-seat='{seat}' data-count='{count}'><b>{title}</b>"
            f"<div style='display:flex;flex-wrap:wrap;gap:6px;margin:2px 0'>{''.join(cells) or '—'}</div>"
            f"{note}</div>")


def trick_row_html(row: str, plays: Iterable[tuple[str, Card]], lang: str) -> str:
    """One trick of the winning line: its translated summary, then each play as ``seat:card``."""
    from toolkit.widgets.crew.common import chip
    cells = " ".join(f"{html.escape(seat)}:{chip(card, lang)}" for seat, card in plays)
    return f"<li>{html.escape(row)} {cells}</li>"


def status_row_html(status: str, text: str) -> str:
    """One task's status after the tricks shown (class ``crew-solver-status-<status>``)."""
    return f'<li class="crew-solver-status-{status}">{html.escape(text)}</li>'


def line_html(trick_rows: Sequence[str], status_rows: Sequence[str]) -> str:
    """The winning line so far and the tasks' status at that point."""
    return f'<ol class="crew-solver-line">{"".join(trick_rows)}</ol><ul>{"".join(status_rows)}</ul>'


def verdict_html(winnable: bool | None, verdict: str, reason: str | None = None, rule: str | None = None) -> str:
    """The solver's verdict (class ``crew-solver-win``/``-loss``/``-undecided``) and its reason with its rule."""
    kind = {True: "crew-solver-win", False: "crew-solver-loss", None: "crew-solver-undecided"}[winnable]
    out = f'<div class="{kind}"><b>{html.escape(verdict)}</b></div>'
    if reason is not None:
        out += (f'<div class="crew-solver-reason">{html.escape(reason)} '
                f'<code>{html.escape(rule or "")}</code></div>')
    return out


def cell_html(cls: str, text: str) -> str:
    """One cell of the difficulty study in words."""
    return f'<div class="{cls}">{html.escape(text)}</div>'


__all__ = ["cell_html", "columns_html", "hand_cards_html", "heading_html", "line_html", "next_face_down_column",
           "note_html", "status_row_html", "trick_row_html", "verdict_html"]
