"""Deep Sea Rules Lab: rules engines, analysis and teaching views for four nautical board games.

Layers (imports only point left): ``toolkit.core`` <- ``toolkit.<game>`` <- ``toolkit.widgets`` /
``toolkit.plots``. Engines never import ipywidgets, plotly or traitlets.
"""

__version__ = "0.1.0"
GAMES = ("crew", "tranquility", "deepblue", "pirats")
