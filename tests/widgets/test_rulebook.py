"""The rule reference page (toolkit/widgets/rulebook.py): every rule id a page shows opens here."""

import pytest

from toolkit.core import rules
from toolkit.widgets.base import esc
from toolkit.widgets.rulebook import GAMES, RuleBookView


def test_a_linked_rule_opens_its_game_with_the_rule_on_top():
    view = RuleBookView(query="rule=tranquility.place.ascending&lang=ja")
    assert view.game == "tranquility" and view.lang == "ja"
    body = view._body.value
    chosen, rest = body.split("</div>", 1)
    assert "deepsea-rulebook-chosen" in chosen and "data-rule='tranquility.place.ascending'" in chosen
    assert rules.get("tranquility.place.ascending").text["ja"] in chosen
    # the table rules come before the full list
    assert rest.index("tranquility.table.silence") < rest.index("tranquility.place.ascending")


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_of_every_game_is_listed(game):
    view = RuleBookView(game=game)
    assert all(f"data-rule='{r.id}'" in view._body.value for r in rules.rules_for(game))


@pytest.mark.parametrize("query", ["rule=<script>alert(1)</script>", "game=nope", "rule=crew", "rule=&game=",
                                   "lang=fr&rule=crew.trick.follow&rule=x"])
def test_unknown_values_fall_back_to_the_crew_page(query):
    view = RuleBookView(query=query)
    assert view.game == "crew" and view.rule is None and "<script>" not in view._body.value


def test_switching_game_or_language_keeps_the_page_consistent():
    view = RuleBookView(rule="crew.trick.follow")
    view.lang = "ja"
    assert view.game == "crew" and view.rule == "crew.trick.follow" and "ルール一覧" in view._title.value
    view._game.value = "pirats"
    assert view.rule is None and "pirats.table.start-player" in view._body.value
    assert "crew.trick.follow" not in view._body.value


@pytest.mark.parametrize("game, rule", [("crew", "crew.table.no-talk"), ("tranquility", "tranquility.table.silence"),
                                        ("pirats", "pirats.table.start-player")])
def test_each_table_dashboard_says_its_table_rules_in_the_page_language(game, rule):
    from toolkit.widgets.crew import MissionView
    from toolkit.widgets.pirats import GameView as PiratsGame
    from toolkit.widgets.tranquility import GameView as TranquilityGame
    from toolkit.widgets.table import TableFrame
    view = {"crew": MissionView, "tranquility": TranquilityGame, "pirats": PiratsGame}[game](seed=5, autoplay=False)
    title = view._header if isinstance(view, TableFrame) else view._title    # the frame's header holds them
    assert f"data-rule='{rule}'" in title.value and esc(rules.get(rule).title["en"]) in title.value
    view.lang = "ja"
    assert esc(rules.get(rule).title["ja"]) in title.value
