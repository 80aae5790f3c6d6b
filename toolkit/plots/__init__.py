"""plotly figure builders: pure functions that take engine/analysis results and return ``go.Figure``.

Views show them through :class:`toolkit.widgets.chart.Chart`; ``benchmarks/export_charts.py`` writes them
as static HTML. Nothing here holds a rule.
"""
