"""The Crew table's hint marks its object (issue 26): the suggested card or task is outlined with the hint's
words through ``mark_hint``, exactly one object, and the frame's hint line says the move and why; any move
clears both. A bot's rule id is a small tag after its sentence, not in it."""

from __future__ import annotations

import re

from toolkit.crew.engine import PlayCard, TakeTask
from toolkit.widgets.crew.mission import MissionView


def marked(view):
    return [(name, keys, label) for name, c in (("hand", view._hand), ("tasks", view._tasks))
            for keys, label in [(c.hint_keys, c.hint_label)] if keys]


def test_the_hint_marks_the_card_to_play_once_and_any_move_clears_it():
    view = MissionView(seed=3, players=4, mission=1, autoplay=False)
    view.driver.run_until_human()
    assert view._acts_now(0)
    view._on_hint()
    decision = view.hint_bar.decision
    move = decision.move
    marks = marked(view)
    assert len(marks) == 1 and len(marks[0][1]) == 1            # exactly one object
    name, [key], label = marks[0]
    if isinstance(move, PlayCard):
        assert (name, key) == ("hand", f"card:{move.card}") and move.card.text("en") in label
    else:
        assert isinstance(move, TakeTask) and (name, key) == ("tasks", f"task:{move.task}")
    assert "Hint" in label
    line = re.sub(r"<[^>]*>", "", view.hint_bar.text.value)
    assert 'data-marks="1"' in view.hint_bar.text.value          # the line says it marked one object
    assert view.move_text(move) in line and line.count(view.move_text(move)) == 1
    assert decision.reason.text("en")[:40] in line
    assert all(i.get("mark") != "hint" for i in view._hand.items)
    view.lang = "ja"                                          # reworded with the page
    assert marked(view)[0][2].startswith("ヒント")
    view.lang = "en"
    view._hand.receive({"type": "pick", "card": "B0"})        # a refused click is not a move: the hint stays
    assert marked(view) and view._hand.refusal
    if isinstance(move, PlayCard):
        view._hand.receive({"type": "pick", "card": str(move.card)})
    else:
        view._tasks.receive({"type": "pick", "task": move.task})
    assert marked(view) == [] and view.hint_bar.text.value == ""
    assert view._hand.refusal == ""                           # the old refusal said why then, not now


def test_a_bot_reason_keeps_its_rule_id_out_of_the_sentence():
    view = MissionView(seed=5, players=4, mission=3, autoplay=False)
    view.driver.run_until_human()
    html = view.bot_line.value
    reason = html.split('role="status">')[1].split("<small")[0]
    rule = view.driver.last[1].reason.rule
    assert rule not in reason
    assert "deepsea-rule-ref" in html and f'<code class="deepsea-rule">{rule}</code>' in html
