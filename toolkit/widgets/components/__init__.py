"""Reusable table components (cards, hands, pickers, tricks, tokens) shared by views and worked examples.

Each game's components live in their own module (``crew.py`` …); import from there, e.g.
``from toolkit.widgets.components.crew import CrewHand``.
"""
