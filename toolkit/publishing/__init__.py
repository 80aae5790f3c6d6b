"""Publishing the dashboards with standalone Voila: assets served once per page and a kernel cap.

Nothing here imports ipywidgets or plotly at import time: Voila imports
:mod:`toolkit.publishing.kernels` into the server process, which never draws anything.
"""
