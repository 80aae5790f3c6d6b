"""Reusable table components (cards, hands, pickers, tricks, tokens) shared by views and worked examples.

Each game's components live in their own module (``crew.py`` …); import from there, e.g.
``from toolkit.widgets.components.crew import CrewHand``.

Deep Blue (``deepblue.py``): the board, crew card rows (market, hand), the gem bag as tokens and the dive
track — drawn from a seat's observation, every click checked against the kernel's own offers.
"""
