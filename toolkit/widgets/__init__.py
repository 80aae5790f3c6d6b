"""ipywidgets views over the engines. View-models hold sessions; views hold no rules."""

from toolkit.widgets.base import (Chart, DebugPanel, GameSession, LanguageToggle, View, event_log_html,
                                  explain_html, query_params, safe_callback)

__all__ = ["Chart", "DebugPanel", "GameSession", "LanguageToggle", "View", "event_log_html",
           "explain_html", "query_params", "safe_callback"]
