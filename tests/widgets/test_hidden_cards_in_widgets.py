"""A card the page stops showing leaves every widget model, not only the screen (issue 30, item 2).

The page's widget manager holds every open model the kernel made, shown or not, and anyone can read them
in the browser's developer tools. With ``tranquility-game?seed=5&seats=you,you&step=1``, after seat 1 had
played and the page said "Pass the device to seat 0", the discard toggles holding seat 1's cards (43, 59,
66, 74) were out of the layout but still open; the same after the teacher's switch was turned off (a
bot's 5, 10, 27). Here the whole kernel side is read — every widget model the page made, through
``get_state()`` as the page receives it — after the curtain, a seat switch and the teacher's switch.
Each check first proves it would see the cards while they are legitimately shown.
"""

from __future__ import annotations

import re
import warnings

import ipywidgets as widgets

from toolkit.tranquility import ENGINE, PlaceIsland
from toolkit.widgets.base import close_tree
from toolkit.widgets.tranquility import GameView

# a card's number as widget state carries it: "43", a label, a class "tranq-discard-43", "place 43 at …"
# (not part of a longer number, a decimal like "3.8em", a colour "#123" or a model id)
NUMBER = re.compile(r"(?<![\w.#])(\d+)(?![\w.])")


def open_models() -> dict[str, widgets.Widget]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return dict(widgets.Widget.widgets)


# who did an event, as the log names it ("You", "Seat 1 (you)", "Seat 1 (bot: rank)"): the twin below seats
# other players, so it names them differently; the names hold no card
SEAT_NAME = re.compile(r'<b class="deepsea-event-seat"[^>]*>.*?</b>: ')


def texts(value) -> list[str]:
    """Every string in a widget state (descriptions, labels, options, classes, HTML, …)."""
    if isinstance(value, str):
        return [SEAT_NAME.sub("", value)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in texts(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts(v)]
    return [str(value)] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


class Page:
    """The widget models one view made (a Voila kernel serves one page: they are its widget manager)."""

    def __init__(self, query: str):
        self.query = query
        self._others = set(open_models())
        self.view = GameView(query=query, autoplay=False)

    def models(self) -> dict[str, widgets.Widget]:
        return {i: w for i, w in open_models().items() if i not in self._others}

    def allowed_texts(self, shown: int | None) -> set[str]:
        """Every string a page may hold that shows seat ``shown`` (``None``: a spectator) at this point of
        the game: a twin table where only that seat is a person (the grid and its tooltips, the event log,
        the status, that seat's hand and moves, the variants' names, …)."""
        before = set(open_models())
        players = self.view.state.players
        twin = GameView(query=self.query, seats=["you" if s == shown else "rank" for s in range(players)],
                        autoplay=False)
        twin.model.session = self.view.model.session   # the same game, read only
        twin.model._sync()                              # its state, legal moves and cursor
        twin.refresh()
        assert twin.viewing_seat() == shown
        made = {i: w for i, w in open_models().items() if i not in before}
        self._others |= set(made)
        allowed = {t for w in made.values() for t in texts(w.get_state())}
        close_tree(twin)
        return allowed

    def hand(self, seat: int) -> set[str]:
        return {c for c in ENGINE.observe(self.view.state, seat)["hand"] if c.isdigit()}

    def leaked(self, *seats: int, shown: int | None) -> dict[str, list[str]]:
        """The island cards of ``seats`` held by some open model of the page, in a string that a page
        showing only seat ``shown`` would not hold: card -> the kinds of widget holding it."""
        allowed = self.allowed_texts(shown)
        cards = set().union(*(self.hand(s) for s in seats))
        out: dict[str, list[str]] = {}
        for widget in self.models().values():
            for text in texts(widget.get_state()):
                if text not in allowed:
                    for card in cards & set(NUMBER.findall(text)):
                        out.setdefault(card, []).append(type(widget).__name__)
        return out

    def shows_curtain(self) -> bool:
        return any("tranq-reveal" in w._dom_classes for w in self.view._seat_area.children)


def test_the_hot_seat_curtain_closes_the_previous_seats_cards():
    page = Page(query="seed=5&seats=you,you&step=1")
    view = page.view
    assert view._actor() == 1 and page.shows_curtain()
    assert page.hand(1) == {"25", "43", "59", "66", "74"}
    assert page.leaked(0, 1, shown=None) == {}                 # nobody revealed yet: no hand in the page
    view.reveal()
    view.hint_bar.ask.click()                                         # the hint names one of seat 1's cards
    assert view.hint_bar.decision.move is not None and view.hint_bar.text.value
    assert set(page.leaked(1, shown=None)) == page.hand(1)     # shown: the check sees every card
    # seat 1 places a card other than the hinted one, by the move list
    moves = view.model.legal_moves
    move = next(m for m in moves if isinstance(m, PlaceIsland) and m != view.hint_bar.decision.move)
    view._other.value = moves.index(move)
    view._other_apply.click()
    assert view.refusal.value == "" and view._actor() == 0
    assert page.shows_curtain() and "seat 1." in view._curtain.value
    assert {"43", "59", "66", "74"} <= page.hand(1)
    assert page.leaked(0, 1, shown=None) == {}                 # no open model holds either seat's cards
    view.reveal()                                              # seat 0's turn: its own cards, not seat 1's
    assert page.leaked(1, shown=0) == {}
    assert set(page.leaked(0, shown=None)) == page.hand(0)


def test_turning_the_teacher_switch_off_closes_the_bots_cards():
    page = Page(query="seed=5&seats=rank,you&step=1")
    view = page.view
    assert view._actor() == 1                                  # the one person (seat 1) plays first
    view.hint_bar.ask.click()
    view.hint_bar.play.click()
    assert view._actor() == 0 and not view.setup.is_human(0)  # the bot's turn, waiting for "Next move"
    assert page.leaked(0, shown=1) == {}
    view.setup._show_all.value = True                          # the teacher's switch: the bot's hand shows
    assert {"5", "10", "27"} <= set(page.leaked(0, shown=1))
    view.setup._show_all.value = False
    assert page.leaked(0, shown=1) == {}
    # the person's own hand is still there (a number up to 35 is also a cell index, which every page holds)
    assert set(page.leaked(1, shown=None)) == {c for c in page.hand(1) if int(c) > 35}
    assert page.hand(1) <= {c["name"] for c in view._hand.cards}


def test_a_seat_switch_closes_the_cards_of_the_seat_no_longer_shown():
    page = Page(query="seed=5&seats=you,you&step=1")
    view = page.view
    view.reveal()
    assert set(page.leaked(1, shown=0)) == page.hand(1)
    view.setup._pickers[1].value = "rank"                      # seat 1 becomes a bot: the page shows seat 0
    assert view.viewing_seat() == 0
    assert page.leaked(1, shown=0) == {}
    view.setup._pickers[1].value = "you"                       # hot seat again: the curtain, nobody's cards
    assert page.shows_curtain() and page.leaked(0, 1, shown=None) == {}
