"""ipywidgets views over the engines. View-models hold sessions; views hold no rules."""

from typing import Any

from toolkit.widgets.base import (DebugPanel, GameSession, LanguageToggle, View, event_log_html, explain_html,
                                  query_params, safe_callback)

__all__ = ["Chart", "DebugPanel", "GameSession", "LanguageToggle", "View", "event_log_html",
           "explain_html", "query_params", "safe_callback"]


def __getattr__(name: str) -> Any:
    # Chart (anywidget) is imported only by the dashboards that draw one: a faster cold kernel for the rest.
    if name == "Chart":
        from toolkit.widgets.chart import Chart

        return Chart
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
