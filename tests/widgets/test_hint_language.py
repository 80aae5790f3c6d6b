"""Every game table keeps the coach's hint (and its last bot move) as a decision and words it at each
redraw: the page's language toggle rewords a hint already shown, and a move or a new game clears it. (Found
on the Crew table, where the hint and the last bot move stayed in the language of the moment they were
made; the same pattern was in the Deep Blue, Tranquility and Sewer Pirats tables.)"""

from __future__ import annotations

import re

from toolkit.widgets.deepblue.play import GameView as DeepBlueGame
from toolkit.widgets.pirats.game import GameView as PiratsGame
from toolkit.widgets.tranquility.game import GameView as TranquilityGame

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _rewords(view, hint_widget) -> None:
    english = hint_widget.value
    assert english and not JAPANESE.search(english)
    view.lang = "ja"
    japanese = hint_widget.value
    assert JAPANESE.search(japanese) and japanese != english
    view.lang = "en"
    assert hint_widget.value == english


def test_deep_blue_hint_follows_the_language_and_clears_on_a_new_game():
    view = DeepBlueGame(seed=3, query="")
    view._on_hint()
    assert "deepsea-hint-line" in view.hint_bar.text.value
    _rewords(view, view.hint_bar.text)
    view._on_new_game()
    assert view.hint_bar.text.value == ""


def test_tranquility_hint_follows_the_language_and_clears_on_a_move():
    view = TranquilityGame(seed=4, players=3, autoplay=False)
    view.driver.run_until_human()
    view._on_reveal()
    view._on_hint()
    assert "deepsea-hint-line" in view.hint_bar.text.value
    _rewords(view, view.hint_bar.text)
    view._on_play_hint()                       # the hinted move is played: the hint is spent
    assert view.hint_bar.text.value == ""


def test_sewer_pirats_hint_follows_the_language_and_clears_on_a_move():
    view = PiratsGame(seed=3, players=3, autoplay=False)
    view.driver.run_until_human()
    view.hint_bar.ask.click()
    assert "deepsea-hint-line" in view.hint_bar.text.value
    _rewords(view, view.hint_bar.text)
    view._on_apply()                           # the hint selected its move in the list; apply plays it
    assert view.hint_bar.text.value == ""
