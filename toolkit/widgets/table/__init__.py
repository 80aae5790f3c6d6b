"""The one table frame (issue 26): the parts every game's table shares, the frame that arranges them around
a game's own widgets, a game code that reopens a game where it was, a generic table for any engine, and the shared-table panel
(issue 27: Invite, ``?table=CODE``; docs/shared-tables.md).

See docs/architecture.md, "The table frame".
"""

from toolkit.widgets.table.code import (
                                        GameCode,
                                        GameCodeError,
                                        game_code,
                                        parse_game_code,
                                        replay_code,
                                        session_code,
)
from toolkit.widgets.table.frame import (
                                        GenericTable,
                                        TableFrame,
                                        simple_options,
                                        table_query,
)
from toolkit.widgets.table.shared import SharedTablePanel
from toolkit.widgets.table.parts import (
    BotLine,
    Controls,
    EventLog,
    HintBar,
    OptionsBar,
    RefusalLine,
    ResultBanner,
    StatusLine,
    answer_click,
    sentences,
)

__all__ = ["BotLine", "Controls", "EventLog", "GameCode", "GameCodeError", "GenericTable", "HintBar", "OptionsBar",
           "RefusalLine", "ResultBanner", "SharedTablePanel", "StatusLine", "TableFrame", "answer_click", "game_code",
           "parse_game_code", "replay_code", "sentences", "session_code", "simple_options", "table_query"]
