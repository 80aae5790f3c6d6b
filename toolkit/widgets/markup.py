"""Small HTML templates the views share: a title (with its introduction), a note, a message box. Text is
escaped here, so a view passes translated words, never markup. No widgets are built here.

>>> heading("Gem bag")
'<h3>Gem bag</h3>'
>>> heading("A & B", "Pick <one>.", level=2)
'<h2>A &amp; B</h2><p>Pick &lt;one&gt;.</p>'
>>> note("crew-solver-tonoja-rule", "Face down: under a column.")
"<div class='crew-solver-tonoja-rule' style='font-size:0.9em;line-height:1.45;max-width:60em'>Face down: under a column.</div>"
"""

from __future__ import annotations

import html


def heading(title: str, intro: str | None = None, level: int = 3) -> str:
    """A view's title (``<h3>`` unless ``level`` says otherwise) and, if given, its one-paragraph introduction."""
    if level not in (2, 3, 4):
        raise TypeError(f"level must be 2, 3 or 4, not {level!r}")
    out = f"<h{level}>{html.escape(title)}</h{level}>"
    return out if intro is None else out + f"<p>{html.escape(intro)}</p>"


def note(cls: str, text: str, max_width: str = "60em") -> str:
    """A small explanatory paragraph under a control (a rule in words, what a page shows and why)."""
    return (f"<div class='{cls}' style='font-size:0.9em;line-height:1.45;max-width:{max_width}'>"
            f"{html.escape(text)}</div>")


def refusal(text: str) -> str:
    """A refusal in a view's message area, marked up as :meth:`toolkit.widgets.base.View.report` marks its own."""
    return f'<div class="deepsea-refusal"><span class="deepsea-text">{html.escape(text)}</span></div>'


__all__ = ["heading", "note", "refusal"]
