"""The Deep Blue components and the clickable table, kernel side: traits reflect ``observe()``, every legal
move of the seat has an object to click, hostile clicks are refused in the component's language with the
state unchanged, and no component ever holds another seat's hidden cards."""

from __future__ import annotations

import functools
import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.deepblue.bots import PolicyBot
from toolkit.deepblue.engine import ENGINE
from toolkit.deepblue.model import Hire, MoveBoat, SetSail
from toolkit.widgets.components.deepblue import GEM_STYLE, SEAT_STYLE, DeepBlueBoard
from toolkit.widgets.deepblue import GameView
from toolkit.widgets.deepblue.gem_bag import GemBagView, query_from_inputs, settings_from_query
from toolkit.widgets.deepblue.table import DeepBlueTable, moves_of


def _positions(seed: int, players: int = 3, steps: int = 160):
    """States of a seeded game played by the policy bot (each seat sees only its observation)."""
    state = ENGINE.new_state(seed, players=players)
    bot = PolicyBot(ENGINE.components)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if ENGINE.is_over(state):
            return
        yield state
        seat = ENGINE.current_player(state)
        decision = bot.decide(ENGINE.observe(state, seat), moves_of(ENGINE.legal_moves(state), seat), rng)
        state = ENGINE.apply(state, decision.move if decision.move is not None else ENGINE.legal_moves(state)[0])


def _luminance(hex_colour: str) -> float:
    rgb = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_gem_token_letters_and_boat_labels_meet_wcag_aa():
    for colour, style in GEM_STYLE.items():
        a, b = sorted((_luminance(style["fill"]), _luminance(style["fg"])), reverse=True)
        assert (a + 0.05) / (b + 0.05) >= 4.5, colour
    for seat, fill in enumerate(SEAT_STYLE):                     # white seat numbers on the boats
        assert 1.05 / (_luminance(fill) + 0.05) >= 4.5, seat


def test_traits_reflect_the_seats_observation():
    state = next(s for s in _positions(3) if s.phase == "dive" and s.dive.drawn)
    seat = state.dive.leader
    table = DeepBlueTable(lambda m: True)
    table.update(state, seat, moves_of(ENGINE.legal_moves(state), seat))
    obs = ENGINE.observe(state, seat)
    assert [c["id"] for c in table.hand.cards] == obs["players"][seat]["hand"]
    assert [c["id"] for c in table.market.cards] == obs["market"]
    assert {g["colour"]: g["n"] for g in table.bag.gems} == {c: n for c, n in obs["bag"].items() if n}
    assert [g["colour"] for g in table.dive.gems] == obs["dive"]["drawn"]
    boats = {(b["seat"], b["boat"]): s["site"] for s in table.board.sites for b in s["boats"]}
    assert boats == {(p["seat"], i): b["site"] for p in obs["players"] for i, b in enumerate(p["boats"])}
    hidden = {s["site"] for s in table.board.sites if s["kind"] == "hidden"}
    assert hidden == {t["site"] for t in obs["tiles"] if not t["face_up"]}
    assert table.bag.offers == {"bag": ENGINE.legal_moves(state)[0]}       # the leader draws from the bag


@functools.lru_cache(maxsize=None)
def _game(seed: int, players: int) -> tuple:
    return tuple(_positions(seed, players, 90))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([(1, 2), (2, 3), (3, 4)]), st.integers(0, 89))
def test_every_legal_move_has_an_object_to_click(game, step):
    """Every legal move of the acting seat is an offered click (a hire's payment and a sail's propellers
    are chosen by clicking cards and tokens; sailing is a click on the destination)."""
    states = _game(*game)
    state = states[min(step, len(states) - 1)]
    seat = ENGINE.current_player(state)
    moves = moves_of(ENGINE.legal_moves(state), seat)
    table = DeepBlueTable(lambda m: True)
    table.update(state, seat, moves)
    offered = []
    for comp in table.components:
        for value in comp.offers.values():
            offered += value if isinstance(value, list) else [value]
    for move in moves:
        if isinstance(move, Hire):
            offer = table.market.offers[f"slot:{move.slot}"]
            if offer != move:                                   # a choice of payment: cards, tokens, pay
                table._choose(*offer)
                assert all(f"card:{c}" in table.hand.offers for c in move.cards)
                assert all(f"token:{i}" in table.hand.offers for i in range(1, move.tokens + 1))
                assert "pay" in table.hand.offers
                table._choose("cancel")
        elif isinstance(move, SetSail):
            assert all(f"card:{c}" in table.hand.offers for c in move.cards)
            assert all(f"token:{i}" in table.hand.offers for i in range(1, move.tokens + 1))
        elif isinstance(move, MoveBoat):
            table._choose("boat", move.boat)
            assert table.board.offers[f"site:{move.site}"] == move
        else:
            assert move in offered, move


def test_hostile_clicks_are_refused_cleanly_in_the_components_language():
    g = GameView(seed=2, players=2, seats=["you", "policy"], lang="ja")
    before = ENGINE.state_to_json(g.model.state)
    hostile = [None, "rest", 42, [], {"type": "set"}, {"type": "pick"}, {"type": "pick", "key": 7},
               {"type": "pick", "key": ["rest"]}, {"type": "pick", "key": "x" * 5000},
               {"type": "pick", "key": "slot:99"}, {"type": "pick", "key": "card:5"},
               {"type": "pick", "key": "site:0"}, {"type": "pick", "key": "../../etc"}]
    for comp in g.table.components:
        for content in hostile:
            comp.receive(content)
            assert comp.refusal and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", comp.refusal), (comp, content)
        comp.set_state({"cards": [], "sites": [], "refusal": "forged"})   # the page cannot write state
        assert comp.refusal != "forged"
    assert ENGINE.state_to_json(g.model.state) == before
    # a refused object carries the engine's own reason (why_illegal), the same the click answers with
    hidden = next(s for s in g.table.board.sites if s["kind"] == "hidden" and s["act"] == "refuse")
    g.table.board.receive({"type": "pick", "key": hidden["key"]})
    assert g.table.board.refusal == hidden["note"] and ENGINE.state_to_json(g.model.state) == before
    g.lang = "en"
    assert g.table.board.lang == "en" and g.table.board.labels["title"].startswith("Board")


def test_a_bot_seat_table_never_sends_another_seats_hand():
    """You at seat 0 against two bots: at every position of a played game, the synced state of every
    component holds seat 0's cards and no card only another seat holds; with every seat a bot, no hand."""
    g = GameView(seed=5, players=3, seats=["you", "policy", "policy"])
    checked = 0
    for _ in range(60):
        if g.model.outcome is not None:
            break
        wire = "\n".join(json.dumps(c.get_state(), default=str) for c in g.table.components)
        shown = {int(m) for m in re.findall(r'"key": "card:(\d+)"', wire)}
        state = g.model.state
        others = {c for s in (1, 2) for c in state.players[s].hand} - set(state.players[0].hand)
        assert shown == set(state.players[0].hand) and not shown & others
        assert not any(f'"id": {c},' in wire for c in others - set(state.market))
        checked += 1
        decision = g.driver.hint(0, "policy")
        g._table_move(decision.move if decision and decision.move else ENGINE.parse_move(g._moves.options[0][1]))
    assert checked > 20
    public = GameView(seed=5, players=2, seats=["policy", "policy"], step_mode=True)
    assert public.table.hand.cards == [] and not any(c.offers for c in public.table.components)


def test_hire_with_a_choice_of_payment_is_click_market_then_cards_then_pay():
    state = next(s for s in _positions(11, 3, 200) if s.phase == "action" and any(
        len([m for m in moves_of(ENGINE.legal_moves(s), s.turn) if isinstance(m, Hire) and m.slot == k]) > 1
        for k in range(1, 5)))
    seat = state.turn
    played = []
    table = DeepBlueTable(lambda m: played.append(m) or True)
    moves = moves_of(ENGINE.legal_moves(state), seat)
    table.update(state, seat, moves)
    slot = next(k for k in range(1, 5) if len([m for m in moves if isinstance(m, Hire) and m.slot == k]) > 1)
    table.market.receive({"type": "pick", "key": f"slot:{slot}"})
    assert played == [] and "pay" in table.hand.offers            # the cheapest payment is preselected
    suggested = table.hand.offers["pay"]
    assert suggested in moves
    table.hand.receive({"type": "pick", "key": "cancel"})
    assert "pay" not in table.hand.offers
    table.market.receive({"type": "pick", "key": f"slot:{slot}"})
    table.hand.receive({"type": "pick", "key": "pay"})
    assert played == [suggested]


def test_gem_bag_tokens_set_the_bag_and_the_link_round_trips():
    v = GemBagView(query="silver=2&black=2&drawn=black")
    assert "1/2 = 50.0%" in v._summary.value
    v._bag_tokens.receive({"type": "pick", "key": "plus:silver"})
    assert v._bag["silver"].value == 3 and "2/5 = 40.0%" in v._summary.value
    v._drawn_tokens.receive({"type": "pick", "key": "minus:gold"})            # already none: refused
    assert v._drawn_tokens.refusal and v._drawn["gold"].value == 0
    v._bag_tokens.receive({"type": "pick", "key": "plus:nope"})
    assert v._bag_tokens.refusal and v._bag["silver"].value == 3
    link = re.search(r"href='\?([^']*)'", v._link.value).group(1).replace("&amp;", "&")
    again = settings_from_query(dict(p.split("=") for p in link.split("&")))
    x = v.inputs()
    assert again["bag"] == x["bag"] and again["drawn"] == x["drawn"] and again["shields"] == x["shields"]
    assert query_from_inputs(x, v._k.value) == link


@pytest.mark.parametrize("kind", ["board"])
def test_board_offers_are_private_to_the_kernel(kind):
    board = DeepBlueBoard()
    board.show([{"key": "site:1", "label": "1"}], offers={"site:1": object()})
    assert "site:1" in board.offers and all("object" not in json.dumps(board.get_state()[k], default=str)
                                            for k in ("sites", "labels"))


def test_one_component_per_view_carries_the_drawing_code():
    """anywidget sends a component's ESM and CSS with its state: a table of five components (and the gem
    bag's three token rows) sends them once; the others wait for that module in the page."""
    from toolkit.widgets.components.deepblue import _CSS, _ESM
    from toolkit.widgets.deepblue import DiveView

    for comps in (GameView(seed=1, step_mode=True).table.components, DiveView().table.components,
                  (lambda v: (v._bag_tokens, v._drawn_tokens, v._shield_tokens))(GemBagView())):
        carriers = [c for c in comps if c._esm == _ESM]
        assert len(carriers) == 1 and carriers[0]._css == _CSS
        assert all(c._css == "" and "__deepseaDeepBlue" in c._esm for c in comps if c is not carriers[0])
    assert "__deepseaDeepBlue = api" in _ESM


def test_sailing_pays_with_the_propeller_cards_clicked_in_the_hand():
    """Without a choice the cheapest accepted payment is suggested; clicked propeller cards replace it, and a
    site they cannot reach carries the engine's reason (too far)."""
    state = ENGINE.new_state(4, players=2)
    played = []
    table = DeepBlueTable(lambda m: played.append(m) or True)
    moves = moves_of(ENGINE.legal_moves(state), 0)
    table.update(state, 0, moves)
    props = {c: ENGINE.components.card(c).propellers for c in state.players[0].hand}
    small = min((c for c, n in props.items() if n), key=props.get)
    suggested = table.board.offers["site:7"]
    assert isinstance(suggested, list) and suggested[0] in moves and suggested[1] == MoveBoat(0, 0, 7)
    table.hand.receive({"type": "pick", "key": f"card:{small}"})           # pay with this card only
    far = next(s["key"] for s in table.board.sites if s["act"] == "refuse" and s["kind"] != "harbour")
    sail = SetSail(0, (small,), 0)
    assert table.board.offers["site:7"] == [sail, MoveBoat(0, 0, 7)]
    note = next(s["note"] for s in table.board.sites if s["key"] == far)
    assert note == ENGINE.why_illegal(ENGINE.apply(state, sail), MoveBoat(0, 0, int(far[5:]))).text("en")
    table.board.receive({"type": "pick", "key": "site:7"})
    assert played == [sail, MoveBoat(0, 0, 7)]


# ---- what a newcomer missed (issue 26): the last dive, who did what, the boats' names, the result ---------
def _bots_until_a_dive_ended(view):
    """Every seat a bot: the bots play (outside a kernel, at once) to the game's end; True if a dive ended
    and no other is running."""
    view.setup.seats = ["policy"] * len(view.setup.seats)
    view.driver.run_until_human()
    codes = [e.code for e in view.model.events]
    return ("DEEPBLUE_DIVE_START" in codes and ENGINE.observe(view.model.state, 0).get("dive") is None
            and any(c in ("DEEPBLUE_SCORED", "DEEPBLUE_BUST") for c in codes))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_last_dive_stays_on_the_dive_track_until_the_next(lang):
    view = GameView(seed=2, players=3, lang=lang)
    assert _bots_until_a_dive_ended(view)
    view.refresh()
    shown = view.table.dive.labels["empty"]
    ended = [e for e in view.model.events[max(i for i, e in enumerate(view.model.events)
                                              if e.code == "DEEPBLUE_DIVE_START"):]
             if e.code in ("DEEPBLUE_SCORED", "DEEPBLUE_BUST", "DEEPBLUE_LEFT")]
    assert ended and shown != view.t("deepblue.comp.no_dive")
    for e in ended:
        assert e.text(lang) in shown and view.setup.seat_name(e.seat) in shown


def test_boats_have_one_name_on_the_board_in_the_log_and_in_the_hints():
    view = GameView(seed=2, players=3)
    view.setup.seats = ["policy"] * 3
    view.driver.run_until_human()
    view.refresh()
    moved = [e for e in view.model.events if e.code == "DEEPBLUE_BOAT_MOVED"]
    assert moved
    labels = {(b["seat"], b["boat"]): b["label"] for site in view.table.board.sites for b in site["boats"]}
    for (seat, boat), label in labels.items():
        assert label == f"{seat + 1}·{boat}"      # seat counted from 1 as everywhere; the log says "boat {boat}"
    assert any(f"boat {e.param('boat')}" in e.text("en").lower() for e in moved)


def test_the_result_names_you_and_the_scenarios_are_named():
    from toolkit.core.explain import Outcome
    view = GameView(seed=2, players=3)
    won = Outcome("DEEPBLUE_WINNER", "deepblue.end.sunken-city", result="win", winners=(0,), scores=(9, 4, 2),
                  seat=0, vp=9)
    assert view.result_text(won) == "You win with 9 VP!"
    lost = Outcome("DEEPBLUE_WINNER", "deepblue.end.sunken-city", result="win", winners=(2,), scores=(1, 4, 9),
                   seat=2, vp=9)
    assert view.result_text(lost) == "Seat 3 (bot: best play) wins with 9 VP."
    labels = [label for label, _ in view._scenario.options]
    assert not any(label.startswith("unknown-") for label in labels)
    view.lang = "ja"
    assert view._scenario.value == "troubled-waters" and view.result_text(won) == "あなたの勝ちです（9VP）！"


@pytest.mark.parametrize("game", [(3, 3), (8, 2)])
def test_the_hint_marks_an_object_the_seat_can_click(game):
    """``hint_marks`` (what the table frame calls): at every position of a game, the keys it names for the
    policy bot's move are drawn on that component and offered there (a site once its boat is chosen)."""
    from toolkit.widgets.deepblue.table import hint_marks

    bot = PolicyBot(ENGINE.components)
    kinds = set()
    for state in _game(*game):
        seat = ENGINE.current_player(state)
        moves = moves_of(ENGINE.legal_moves(state), seat)
        decision = bot.decide(ENGINE.observe(state, seat), moves, np.random.default_rng(0))
        move = decision.move
        if move is None:
            continue
        table = DeepBlueTable(lambda m: True)
        marks = hint_marks(move, state, decision.reason)
        if marks and marks[0][1][0].startswith("boat:"):     # the marked boat is chosen first
            table._boat = int(marks[0][1][0].split(":")[1])
        table.update(state, seat, moves)
        assert marks and marks[0][1], move
        name, keys = marks[0]
        offers = getattr(table, name).offers
        assert all(k in offers for k in keys), (move, keys, sorted(offers))
        if isinstance(move, Hire):                      # a choice of payment: the hand's "pay" is marked too
            assert marks[1] == ("hand", ["pay"])
            if isinstance(offers[keys[0]], tuple):
                table._choose(*offers[keys[0]])
                assert "pay" in table.hand.offers
        else:
            assert len(marks) == 1, marks
        kinds.add(type(move).__name__)
    assert {"MoveBoat", "SetSail", "DrawGem"} <= kinds


def test_the_hint_is_shown_once_and_its_mark_goes_with_the_next_move():
    g = GameView(seed=4, players=2, seats=["you", "policy"])
    g._on_hint()
    marked = [(c._kind, c.hint_keys, c.hint_label) for c in g.table.components if c.hint_keys]
    assert 1 <= len(marked) <= 2, marked                   # the object (a boat and its site), or a card and "pay"
    decision = g.hint_bar.decision
    # the mark names the hinted move, as the hint line does
    move = g.move_text(decision.move)
    assert move and not move.startswith("Seat ")                # "Hint for You: draw a gem", not "You: Seat 0: …"
    assert marked[0][2] == f"Hint: {move}" and move in g.hint_bar.text.value
    g._table_move(decision.move)
    assert not any(c.hint_keys for c in g.table.components)
    # in a dive the coach line names the policy bot's move; with the hint shown it is said once, by the hint
    for _ in range(200):
        if g.model.outcome is not None or g.model.shown_state().phase in ("dive", "check") and g._seat_moves(0):
            break
        d = g.driver.hint(0, "policy")
        g._table_move(d.move if d and d.move else ENGINE.parse_move(g._moves.options[0][1]))
    assert g.model.shown_state().phase in ("dive", "check")
    assert "The best-play bot would" in g._risk.value
    g._on_hint()
    assert "The best-play bot would" not in g._risk.value and "Hint for You: " in g.hint_bar.text.value
    assert sum(bool(c.hint_keys) for c in g.table.components) == 1       # the bag, the boat, a card


def test_seats_have_one_short_name_in_the_status_the_bot_line_the_log_and_the_result():
    """"Seat 2 (bot: best play)" wherever seat index 1 is named (the level's description is the picker's tooltip);
    the result is one banner at the end."""
    g = GameView(seed=5, players=2, scenario="scattered-wealth", seats=["you", "policy"])
    assert "best play: dives by the exact odds" in g.setup._pickers[1].tooltip
    bot_lines = 0
    for _ in range(400):
        if g.model.outcome is not None:
            break
        if g.bot_line.value:                       # shown while the bot's move is the latest
            assert g.bot_line.value.count("Seat 2 (bot: best play): ") == 1, g.bot_line.value
            bot_lines += 1
        assert "You: " in g._chests.value and "Seat 2 (bot: best play): " in g._chests.value
        d = g.driver.hint(0, "policy")
        g._table_move(d.move if d and d.move else ENGINE.parse_move(g._moves.options[0][1]))
    assert g.model.outcome is not None and bot_lines > 10
    banner = re.sub("<[^>]+>", "", g.banner.value)
    assert banner.count("Result:") == 1 and ("You win" in banner or "Seat 2 (bot: best play) wins" in banner)
    assert g.status.text == "The game is over." and g.status.acting is None     # said once, no "phase: game over"
    log = re.sub("<[^>]+>", "", g.event_log._log.value)
    assert "Seat 2 (bot: best play): " in log and "(best play)" not in log.replace("(bot: best play)", "")
