"""The Tranquility views: they call the engine, never raise into the page, and keep hidden cards out."""

import pathlib
import re

import pytest

import ipywidgets as widgets

from toolkit.tranquility import ENGINE, PlaceIsland
from toolkit.widgets import components
from toolkit.widgets.tranquility import DiscardCostView, GameView, StrategyStudyView


def widget_strings(root: widgets.Widget) -> str:
    """Every string a widget tree would send to the browser (values, options, descriptions, HTML)."""
    out, seen, stack = [], set(), [root]
    while stack:
        w = stack.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        for name in w.keys:
            value = getattr(w, name, None)
            if isinstance(value, widgets.Widget):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                for v in value:
                    if isinstance(v, widgets.Widget):
                        stack.append(v)
                    else:
                        out.append(str(v))
            elif name not in ("layout", "style", "_esm", "_css"):  # a widget's own code, not page content
                out.append(str(value))
    return "\n".join(out)


def test_discard_cost_view_explains_the_help_page_example():
    view = DiscardCostView()
    assert "deepsea-root" in view._dom_classes
    text = view._explain.value
    assert "difference 3" in text and "difference 1" in text and "costs 1 discard" in text
    assert "may be placed" in view._verdict.value
    view.pick(6)
    assert "end of the row below" in view._explain.value and "not its neighbour" in view._explain.value
    view.lang = "ja"
    assert "下の行の右端" in view._explain.value


def test_discard_cost_view_shows_the_cost_limit_and_refusals():
    view = DiscardCostView(cells={0: 10}, cell=1, number=16)
    assert "tranquility.place.cost-limit" in view._verdict.value
    view = DiscardCostView(cells={0: 10}, cell=1, number=11, hand=[11])
    assert "tranquility.place.cost-limit" in view._verdict.value  # a hand of 1 cannot pay even 1
    view.pick(0)
    view._place.click()  # occupied
    assert "tranquility.place.empty-cell" in view._message.value and view.cells == {0: 10}
    view.pick(5)
    view._number.value = 5
    view._place.click()  # 5 after 10 breaks the order
    assert "tranquility.place.ascending" in view._message.value and view.cells == {0: 10}
    view._number.value = 30
    view._place.click()
    assert view.cells == {0: 10, 5: 30}


def test_discard_cost_view_teaches_the_two_readings_of_the_cost_limit():
    # A 14 right after 10 costs 4: the English rulebook allows it with a full hand, the Japanese text read
    # literally (「4枚以上」) refuses it; a cost of 3 is the same under both.
    view = DiscardCostView(cells={0: 10}, cell=1, number=14)
    assert view.cost_limit == "english" and "may be placed" in view._verdict.value
    assert "tranq-limit-differ" in view._limit_note.value and "allows" in view._limit_note.value
    view.set_cost_limit("japanese")
    assert "tranquility.place.cost-limit-literal" in view._verdict.value
    assert "at most 3" in view._explain.value
    view._number.value = 13
    assert "may be placed" in view._verdict.value and "tranq-limit-agree" in view._limit_note.value
    view.lang = "ja"
    assert "文字どおり" in view._limit_note.value
    view.set_cost_limit("klingon")
    assert view.cost_limit == "japanese" and "deepsea-refusal" in view._message.value
    shared = DiscardCostView(query="cells=0:10&cell=1&number=14&limit=japanese")
    assert shared.cost_limit == "japanese" and "limit=japanese" in shared._link.value
    assert "deepsea-refusal" in DiscardCostView(query="limit=x")._message.value


def test_discard_cost_view_reads_and_checks_url_parameters():
    view = DiscardCostView(query="cells=0:5,7:20&cell=7&number=9")
    assert view.cells == {0: 5, 7: 20} and view.selected == 7 and view._number.value == 9
    bad = DiscardCostView(query="cells=0:50,3:10")  # not ascending: refused, example shown instead
    assert bad.cells == {2: 3, 4: 7} and "deepsea-refusal" in bad._message.value
    junk = DiscardCostView(query="cells=%3Cscript%3E&cell=999&number=-4")
    assert junk.selected == 35 and junk._number.value == 1 and "&lt;script&gt;" in junk._message.value
    infeasible = DiscardCostView(query="cells=0:1,3:3")
    assert "tranquility.analysis.feasible" in infeasible._feasible.value


def test_game_view_hides_every_other_hand():
    view = GameView(seed=9, players=3, seats=["you"] * 3)  # hot seat: a curtain between people
    actor = ENGINE.current_player(view.state)
    assert view._hand.cards == [] and "tranq-reveal" in view._reveal._dom_classes
    view.reveal()
    state = view.state
    text = widget_strings(view)
    tokens = set(re.findall(r"\b\d+\b", text))
    own = {c for c in state.hands[actor] if c <= 80}
    assert {str(c) for c in own} <= tokens
    hidden = {c for s in range(3) if s != actor for c in state.hands[s] if 36 < c <= 80}
    hidden |= {c for s in range(3) for c in state.piles[s] if 36 < c <= 80}
    hidden -= {int(t) for t in re.findall(r"\d+", str(view.options_bar.seed.value))}
    assert hidden and not ({str(c) for c in hidden} & tokens)


def test_game_view_plays_through_the_engine_and_shows_refusals():
    view = GameView(seed=4, players=2, seats=["you", "you"])
    view.reveal()
    move = next(m for m in view.model.legal_moves if isinstance(m, PlaceIsland) and not m.discards)
    view.choose(str(move.number), move.cell)
    view._play.click()
    assert view.model.session.moves == [move]
    assert view._hand.cards == []  # curtain for the next seat
    view.reveal()
    other = next(c for c in view.state.hands[view.model.seat] if c <= 80)
    view.choose(str(other), move.cell)  # occupied cell
    view._play.click()
    assert "deepsea-refusal" in view.refusal.value and len(view.model.session.moves) == 1
    view._discard_two.click()  # nothing ticked: refused, not crashed
    assert len(view.model.session.moves) == 1 and "deepsea-refusal" in view.refusal.value


def test_game_view_refuses_actions_before_reveal_and_reads_the_url():
    view = GameView(query="players=4&seed=77&variant=poseidon&monsters=5&storms=1&rocks=1&seats=you,you,you,you")
    assert view.state.players == 4 and len(view.state.removed) == 12 and view.state.options.monsters == 5
    view._play.click()
    assert "deepsea-refusal" in view.refusal.value and view.model.session.moves == []
    odd = GameView(query="players=99&seed=-5&monsters=2&variant=%27")
    assert odd.state.players == 5 and odd.state.options.monsters == 0 and odd.state.options.removal == "none"


def test_strategy_view_runs_a_seeded_study_with_progress_and_charts():
    view = StrategyStudyView(games=8, query="strategies=greedy,rank&players=2")
    assert view._charts.children == ()  # nothing plotted (or shipped) before the first run
    view._run.click()
    assert view.result is not None and {r.strategy for r in view.result.rows} == {"greedy", "rank"}
    assert view._progress.value == view._progress.max == 16
    assert view._table.value.count("tranq-row") == 2
    assert view._chart is not None and len(view._chart.figure.data) >= 2
    first = view.result
    view._run.click()
    assert view.result == first  # seeded: the same numbers again
    for box in view._strategy_boxes.values():
        box.value = False
    view._run.click()
    assert "deepsea-refusal" in view._message.value and view.result == first


def test_a_whole_game_can_be_played_to_the_finish_through_the_hot_seat_view():
    from toolkit.tranquility import DiscardTwo, PlayFinish, PlayStart, StartDiscard
    from toolkit.tranquility.cards import card_name
    from toolkit.tranquility.sim import RankInterpolator, play

    seed = 8
    moves = [ENGINE.parse_move(m) for m in play(RankInterpolator(), seed, 2, record=True).moves]
    view = GameView(seed=seed, players=2, seats=["you", "you"])
    splits = 0
    for move in moves:
        if view._hand.cards == []:
            view.reveal()
        names = tuple(card_name(c) for c in getattr(move, "discards", getattr(move, "cards", ())))
        if isinstance(move, PlaceIsland):
            view.choose(str(move.number), move.cell, names)
            view._play.click()
        elif isinstance(move, StartDiscard):
            view.choose(None, None, names)
            view._split.click()
            splits += 1
        elif isinstance(move, DiscardTwo):
            view.choose(None, None, names)
            view._discard_two.click()
        elif isinstance(move, PlayStart):
            view._start.click()
        elif isinstance(move, PlayFinish):
            view._finish_button.click()
        assert view.model.session.moves[-1] == move, view.refusal.value
    assert splits == 2
    assert ENGINE.outcome(view.state).result == "win"
    assert "deepsea-result" in view.banner.value and "everyone wins" in view.banner.value
    view.lang = "ja"
    assert "全員の勝利" in view.banner.value


# ---- every click answered, next to what was clicked (issue 26) ---------------------------------------
def test_play_without_the_discards_a_placement_costs_says_why_beside_the_buttons():
    view = GameView(seed=4, players=2, seats=["you", "you"])
    costly = None
    for _ in range(20):                 # cheap placements until one that costs discards is on offer
        view.reveal()
        costly = next((m for m in view.model.legal_moves if isinstance(m, PlaceIsland) and m.discards), None)
        if costly is not None:
            break
        free = next(m for m in view.model.legal_moves if isinstance(m, PlaceIsland))
        view.choose(str(free.number), free.cell)
        view._play.click()
    assert costly is not None, "the game offers a placement that costs discards"
    played = len(view.model.session.moves)
    view.choose(str(costly.number), costly.cell)            # nothing ticked
    view._play.click()
    assert len(view.model.session.moves) == played
    beside = view.refusal.value                              # the line beside the action buttons
    assert "deepsea-refusal" in beside and "tranquility." in beside        # the engine's reason and rule id
    assert str(len(costly.discards)) in beside
    assert view.refusal in view._action_row.children
    view.choose(str(costly.number), costly.cell, tuple(str(c) for c in costly.discards))   # a new pick
    assert view.refusal.value == ""
    view._play.click()
    assert view.model.session.moves[-1] == costly


def test_identical_cards_in_a_hand_are_separate_cards():
    for seed in range(60):
        view = GameView(query=f"players=2&seed={seed}&monsters=5&seats=you,you")
        view.reveal()
        hand = list(view.state.hands[view._actor()])
        if len(set(hand)) < len(hand):
            break
    else:
        pytest.skip("no seed deals a hand with two identical cards")
    view.refresh()
    assert len(view._hand.cards) == len(hand)


def test_the_start_discard_help_says_exactly_when_the_range_is_one_number():
    from toolkit.core.i18n import translate
    text = translate("tranquility.ui.split_help_exact", "en", left=4, low=4, high=4)
    assert "exactly 4" in text and "between" not in text


def test_an_empty_cell_shows_its_index_unlike_a_cards_value():
    view = GameView(seed=4, players=2, seats=["you", "you"])
    cells = view._grid.cells
    assert cells[20]["value"] == 0 and cells[20]["index"] == 20 and not any(c["value"] for c in cells)
    view.reveal()
    move = next(m for m in view.model.legal_moves if isinstance(m, PlaceIsland) and not m.discards)
    view.choose(str(move.number), move.cell)
    view._play.click()
    assert view._grid.cells[move.cell]["value"] == move.number      # the card's value, drawn as a filled tile
    js = (pathlib.Path(components.__file__).parent / "tranquility.js").read_text()
    assert '"#" + c.index' in js and "tranq-cell-filled" in js and "tranq-cell-empty" in js
