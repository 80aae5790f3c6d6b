"""The parts of the Crew table (:class:`~toolkit.widgets.crew.mission.MissionView`), one job each (issue 26,
item 4): the notes beside the trick, the hand with its sonar switch, the moves that are not a card or a
task, and the teacher's view of every hand. The status line, the options bar, the hint and the log are the
table frame's (:mod:`toolkit.widgets.table`).

Each part owns its widgets and draws them from what the table passes in (an observation, the viewing
seat's legal moves); the table (``host``) gives words (``host.t``), seat names and the move to play
(``host._play``). None of them reads the state of a seat the page may not see: the table passes
``ENGINE.observe(state, seat)``, and the teacher's switch (announced on the page) is the one exception.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import ipywidgets as widgets

from toolkit.core.errors import InvalidMoveError
from toolkit.crew.cards import Card
from toolkit.crew.engine import Distress, GiveCard, PassTask, PlayCard, Retry, Sonar, TimeUp
from toolkit.widgets.base import esc
from toolkit.widgets.components.crew import CrewHand
from toolkit.widgets.crew.common import chip

#: moves offered as buttons of their own (besides the "other moves" list): pass, distress, retry, time up
QUICK_MOVES = (PassTask, Distress, Retry, TimeUp)
QUICK_BUTTONS = 4


def wrap_layout() -> widgets.Layout:
    return widgets.Layout(flex_flow="row wrap", align_items="flex-start")


class BoardNotes(widgets.HTML):
    """What lies beside the trick: the communicated cards, TONOJA's columns, tricks won, tricks played."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("crew-board")

    def show(self, obs: dict, names: dict[int, str], short_name: Callable[[int], str], t: Callable[..., str],
             lang: str) -> None:
        parts = []
        if obs["communicated"]:
            comms = "".join(f"<li>{esc(names.get(c['seat'], c['seat']))}: {chip(c['card'], lang)} "
                            f"{esc(t('crew.sonar.' + (c['position'] or 'hidden')))}</li>" for c in obs["communicated"])
            parts.append(f"<div class='crew-comms'><b>{esc(t('crew.ui.communicated'))}</b><ul>{comms}</ul></div>")
        if obs["tonoja"]:
            cols = " ".join((chip(c["face_up"], lang) if c["face_up"] else "▢") + ("▮" if c["face_down"] else "")
                            for c in obs["tonoja"])
            parts.append(f"<p class='crew-tonoja'><b>TONOJA</b>: {cols}</p>")
        parts.append(f"<p class='crew-won'><b>{esc(t('crew.ui.tricks_won'))}</b>: " + " · ".join(
            f"{esc(short_name(s))}: {n}" for s, n in enumerate(obs["tricks_won"])) + "</p>")
        parts.append(f"<p class='crew-trick-count'>"
                     f"{esc(t('crew.ui.trick_count', n=obs['tricks_played'], total=obs['tricks_total']))}</p>")
        self.value = "".join(parts)


class HandPanel:
    """The viewing seat's hand and the sonar switch: a click on a card plays it, gives it (distress) or,
    with the switch on, communicates it. Its title says which."""

    def __init__(self, on_card: Callable[[Card], None], on_sonar: Callable[[Any], None]) -> None:
        self.hand = CrewHand(title_key="crew.ui.your_hand", title_params={"seat": 0})
        self.hand.add_class("crew-hand")
        self.hand.on_pick(on_card)
        self.sonar = widgets.ToggleButton(value=False, layout=widgets.Layout(width="auto"))
        self.sonar.add_class("crew-sonar-toggle")
        self.sonar.observe(on_sonar, names="value")

    def clickable(self, mine: Sequence[Any]) -> list[Card]:
        """The cards a click acts on now: communicable (switch on), a gift (distress), else playable."""
        gifts = [m.card for m in mine if isinstance(m, GiveCard)]
        if self.sonar.value:
            return [m.card for m in mine if isinstance(m, Sonar)]
        return gifts or [m.card for m in mine if isinstance(m, PlayCard)]

    def show(self, host: Any, cards: list[Card], mine: Sequence[Any], seat: int | None, over: bool,
             for_tonoja: bool, why_not: Callable[[Card, str], str]) -> bool:
        """Draw the hand; False when the sonar switch had to be turned off first (the switch's observer
        redraws the table then)."""
        sonar_moves = [m for m in mine if isinstance(m, Sonar)]
        if not sonar_moves and self.sonar.value:
            self.sonar.value = False   # nothing to communicate now
            return False
        self.hand.lang = host.lang
        if seat is None:
            self.hand.set_title("crew.ui.spectator")
        elif over:   # "click a card to play it" under the cards left after the end invited a click that fails
            self.hand.set_title("crew.ui.your_hand_over", seat=seat)
        elif for_tonoja:
            self.hand.set_title("crew.ui.your_hand_tonoja", seat=seat)
        elif self.sonar.value:
            self.hand.set_title("crew.ui.your_hand_sonar", seat=seat)
        elif any(isinstance(m, (PlayCard, GiveCard)) for m in mine):
            self.hand.set_title("crew.ui.your_hand", seat=seat)
        else:   # "click a card to play it" while tasks are taken invited a click that is refused
            self.hand.set_title("crew.ui.your_hand_now", seat=seat)
        # the hint is marked through the hint-mark protocol, not as a card mark
        self.hand.set_cards(cards, playable=self.clickable(mine), marks={}, unplayable_reason=why_not)
        self.sonar.description = host.t("crew.ui.sonar_button")
        self.sonar.disabled = not sonar_moves
        self.sonar.tooltip = host.t("crew.ui.sonar_tooltip")
        return True


class OtherMoves:
    """The moves that are not a card or a task: one button each for pass, distress, retry and time up
    (where the learner looks; a pool of buttons, reused, none ever replaced), and every such move in a
    list with "Apply" (the accessible fallback)."""

    def __init__(self, on_quick: Callable[[int], None], on_apply: Callable[[Any], None]) -> None:
        self.quick = [widgets.Button(layout=widgets.Layout(width="auto")) for _ in range(QUICK_BUTTONS)]
        for i, button in enumerate(self.quick):
            button.add_class("crew-quick-action")
            button.on_click(lambda _b, i=i: on_quick(i))
        self.quick_row = widgets.HBox([], layout=widgets.Layout(flex_flow="row wrap"))
        self.quick_moves: list = []
        self.offered: list = []
        self.label = widgets.HTML()
        self.actions = widgets.Dropdown(options=[], layout=widgets.Layout(width="30em"))
        self.actions.add_class("crew-actions")
        self.apply = widgets.Button()
        self.apply.add_class("crew-action-apply")
        self.apply.on_click(on_apply)
        self.list_row = widgets.HBox([self.label, self.actions, self.apply], layout=wrap_layout())

    def show(self, mine: Sequence[Any], describe: Callable[[Any], str], t: Callable[..., str]) -> None:
        self.offered = [m for m in mine if not isinstance(m, (PlayCard, Sonar, GiveCard))]
        self.quick_moves = [m for m in self.offered if isinstance(m, QUICK_MOVES)][:QUICK_BUTTONS]
        for button, move in zip(self.quick, self.quick_moves):
            button.description = button.tooltip = describe(move)
        shown = tuple(self.quick[:len(self.quick_moves)])
        if tuple(self.quick_row.children) != shown:
            self.quick_row.children = shown
        self.actions.options = [(describe(m), i) for i, m in enumerate(self.offered)]
        self.actions.disabled = self.apply.disabled = not self.offered
        self.label.value = esc(t("crew.ui.actions"))
        self.actions.tooltip = t("crew.ui.actions")
        self.apply.description = t("ui.apply")

    def quick_move(self, index: Any) -> Any:
        """The move of quick button ``index`` (an index from the page: checked)."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.quick_moves):
            raise InvalidMoveError("that button offers no move now")
        return self.quick_moves[index]

    def chosen_move(self) -> Any | None:
        """The move picked in the list, or None (the list's value comes from the page: checked)."""
        index, moves = self.actions.value, self.offered
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(moves):
            return None
        return moves[index]


class TeacherHands(widgets.HTML):
    """The teacher's switch "show every hand": the other seats' cards, announced (empty when off)."""

    def __init__(self) -> None:
        super().__init__()
        self.add_class("crew-other-hands")

    def show(self, on: bool, hands: dict[int, Sequence[Card]], names: dict[int, str], t: Callable[..., str],
             lang: str) -> None:
        if not on:
            self.value = ""
            return
        rows = "".join(f"<tr><th scope='row'>{esc(names[s])}</th><td>" + "".join(chip(c, lang) for c in cards)
                       + "</td></tr>" for s, cards in hands.items())
        self.value = (f"<div class='crew-show-all' role='note'><p><b>{esc(t('crew.ui.all_hands'))}</b></p>"
                      f"<table>{rows}</table></div>")


__all__ = ["QUICK_BUTTONS", "QUICK_MOVES", "BoardNotes", "HandPanel", "OtherMoves", "TeacherHands"]
