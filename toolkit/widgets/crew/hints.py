"""The Crew table's hint and reasons as marks on the table: pure functions a table frame calls (issue 26).

The hint names one move; :func:`hint_marks` says which drawn object shows it (a card of the hand to play,
to communicate or to give; a task token to take) so that the table outlines that object with the hint's
words (:meth:`toolkit.widgets.components.base.PickComponent.mark_hint`) instead of repeating the move in a
sentence elsewhere. A move that has no object on the table (pass a task, predict, distress, retry) marks
nothing: the table says it in words.

>>> from toolkit.crew.cards import Card
>>> from toolkit.crew.engine import PlayCard, TakeTask, PassTask
>>> hand, tasks = "hand", "tasks"    # any component objects: the function only pairs them with data-keys
>>> hint_marks(PlayCard(Card.parse("P9")), hand=hand, hand_cards=[Card.parse("P9")], tasks=tasks)
[('hand', ['card:P9'])]
>>> hint_marks(TakeTask(17), hand=hand, hand_cards=[], tasks=tasks)
[('tasks', ['task:17'])]
>>> hint_marks(PassTask(), hand=hand, hand_cards=[], tasks=tasks)
[]
"""

from __future__ import annotations

from typing import Any, Sequence

from toolkit.crew.cards import Card
from toolkit.crew.engine import GiveCard, PlayCard, Sonar, TakeTask


def hint_marks(move: Any, *, hand: Any, hand_cards: Sequence[Card], tasks: Any) -> list[tuple[Any, list[str]]]:
    """``[(component, data-keys)]`` that show the hint's ``move`` on the table; ``[]`` if it has no object.

    A card move (play, sonar, distress gift) marks that card in ``hand`` if the hand shows it (``hand_cards``:
    the cards drawn there, so a hidden card is never named); taking a task marks its token in ``tasks``."""
    if isinstance(move, (PlayCard, Sonar, GiveCard)):
        card = move.card
        return [(hand, [f"card:{card}"])] if card in list(hand_cards) else []
    if isinstance(move, TakeTask):
        return [(tasks, [f"task:{move.task}"])]
    return []
