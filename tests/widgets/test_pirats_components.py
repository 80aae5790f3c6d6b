"""The Sewer Pirats components' kernel side: what the table draws is the observation, every click is a
move the engine judges, hostile messages change nothing, another seat's hand never reaches the widget."""

from __future__ import annotations

import dataclasses
import json
import re
from urllib.parse import unquote

from hypothesis import given, settings, strategies as st

import crew.test_components as crew_components   # the contrast formula (a module: its tests are not re-run)
from toolkit.pirats import ENGINE, SHIPS, Token
from toolkit.pirats.model import Bid, Discard, Draw, OpenAuction, Pass, TakeLoot
from toolkit.widgets.components.pirats import (CHARM_STYLE, SEAT_STYLE, TOKEN_STYLE, PiratsTable, ShipBoard,
                                               TokenPile, box_tokens)
from toolkit.widgets.pirats import BoardingView, GameView, ScoringView

junk = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20) | st.floats(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)
WHATS = ("deck", "row", "hand", "figure", "space", "loot", "stool", "bid", "action", "add", "remove", "area",
         "cards", "_render", "__class__", "")
hostile = st.one_of(junk, st.fixed_dictionaries({"type": st.just("pick"), "what": st.sampled_from(WHATS)},
                                                optional={"card": junk, "index": junk, "figure": junk, "ship": junk,
                                                          "space": junk, "token": junk, "stool": junk,
                                                          "amount": junk, "action": junk, "count": junk}))


def click(component, **pick) -> None:
    component.receive({"type": "pick", **pick})


def table_state(view: GameView) -> str:
    table = view._table
    return json.dumps({k: v for k, v in table.get_state().items() if k not in ("_esm", "_css")}, sort_keys=True,
                      default=str, ensure_ascii=False)


def hand_of(table: PiratsTable) -> tuple[int, int, int]:
    cards = [c["card"] for c in table.hand.get("cards", ())]
    return tuple(cards.count(s) for s in SHIPS)


def people(players: int) -> list[str]:
    return ["you"] * players


# ---- the table reflects observe() ------------------------------------------------------------------------

def test_the_table_draws_exactly_the_observation_of_the_seat_shown():
    view = GameView(seed=7, players=3, seats=people(3), autoplay=False)
    for text in ("draw deck", "draw deck", "draw deck", "draw deck"):
        view.play(text)
    state, table = view.model.state, view._table
    seat = state.turn
    obs = ENGINE.observe(state, seat)
    assert table.observation == obs
    for name, ship in zip(SHIPS, table.ships):
        assert ship["ship"] == name
        drawn = [None if s["figure"] is None else (s["figure"]["seat"], s["figure"]["figure"]) for s in ship["spaces"]]
        assert drawn == [None if p is None else (p["seat"], p["figure"]) for p in obs["ships"][name]["spaces"]]
        tokens = [[t["token"] for t in g["tokens"]] for g in ship["flotsam"]]
        assert tokens == [g["loot"] + ([g["bonus"]] if g["bonus"] else []) for g in obs["ships"][name]["flotsam"]]
    assert [c["card"] for c in table.supply["row"]] == obs["row"] and table.supply["deck"] == obs["deck"]
    assert hand_of(table) == state.hands[seat] and table.hand["seat"] == seat
    for s, box in enumerate(table.seats):
        assert [f["figure"] for f in box["home"]] == obs["home"][s]
        assert [t["token"] for t in box["treasure"]] == obs["treasure"][s]
        assert str(obs["hand_sizes"][s]) in box["cards"] and str(obs["scores"][s]) in box["points"]


def _css_rule(css: str, selector: str) -> str:
    """The declarations of ``selector``'s own rule in the stylesheet as sent (spacing compacted)."""
    import re
    match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert match, selector
    return match.group(1)


def test_charm_seat_and_token_colours_meet_wcag_aa():
    for style in (*CHARM_STYLE.values(), *SEAT_STYLE.values(), *TOKEN_STYLE.values()):
        assert crew_components.contrast(style["bg"], style["fg"]) >= 4.5, style
    from toolkit.widgets.components.pirats import _CSS
    for card, style in CHARM_STYLE.items():
        assert style["bg"] in _css_rule(_CSS, f".pir-charm-{card}")
    for colour, style in SEAT_STYLE.items():
        assert style["bg"] in _css_rule(_CSS, f".pir-seat-{colour}")
    for kind, style in TOKEN_STYLE.items():
        assert style["bg"] in _css_rule(_CSS, f".pir-kind-{kind}")


# ---- hidden information ---------------------------------------------------------------------------------

def _with_hand(state, seat: int, hand: tuple[int, int, int]):
    hands = list(state.hands)
    hands[seat] = hand
    return dataclasses.replace(state, hands=tuple(hands))


def _other_composition(hand: tuple[int, int, int]) -> tuple[int, int, int]:
    """Another hand of the same size (sizes are public; which symbols are not)."""
    n = sum(hand)
    other = (n, 0, 0) if hand != (n, 0, 0) else (0, n, 0)
    return other


def test_a_bot_seats_hand_never_reaches_the_table_widget():
    """You at seat 0 against two bots: changing a bot's cards (same count) changes nothing the page holds;
    changing yours does. With every seat a bot, no hand at all is drawn."""
    view = GameView(seed=5, players=3, autoplay=False)
    view.play("draw deck")
    view.play("draw deck")
    state = view.model.state
    before = table_state(view)
    assert view._table.hand["seat"] == 0
    for seat in (1, 2):
        view._table.show(ENGINE.observe(_with_hand(state, seat, _other_composition(state.hands[seat])), 0),
                         **view._table._offers)
        assert table_state(view) == before, f"seat {seat}'s cards reached the widget"
    view._table.show(ENGINE.observe(_with_hand(state, 0, _other_composition(state.hands[0])), 0), **view._table._offers)
    assert table_state(view) != before            # the test can fail: your own cards are drawn
    bots = GameView(seed=5, players=3, seats=["greedy", "cautious", "random"], autoplay=False)
    assert bots._table.hand == {} and bots._table.observation["hand"] is None
    assert not bots._table.interactive and bots._table.actions == []


# ---- every action is a click on its object ---------------------------------------------------------------

def test_drawing_is_a_click_on_the_deck_or_a_face_up_card():
    view = GameView(seed=3, players=3, seats=people(3), autoplay=False)
    table = view._table
    assert table.supply["draw"] and table.interactive
    card = table.supply["row"][0]["card"]
    click(table, what="row", card=card)
    click(table, what="deck")
    assert [s.move for s in view.model.session.steps] == [Draw(card), Draw("deck")]
    # a face-up symbol that is not in the row is refused by the component, nothing played
    missing = next((s for s in SHIPS if s not in view.model.state.row), None)
    if missing is not None:
        click(table, what="row", card=missing)
        assert table.refusal and len(view.model.session) == 2


def test_an_illegal_click_is_explained_by_the_engine():
    view = GameView(seed=3, players=3, seats=people(3), autoplay=False)
    for _ in range(4):
        view.play("draw deck")     # seat 0 and seat 1 drew: seat 2's turn
    view.play("draw deck")          # seat 2's first card: the second must be a draw too
    click(view._table, what="figure", figure=ENGINE.observe(view.model.state, 2)["crews"][2][0])
    # answered beside the table, once: the engine's reason and its rule id
    assert "[pirats.draw.two]" in view._table.refusal and len(view.model.session) == 5
    assert view._message.value == "" and view.refusal.value == ""


def _play_until(view: GameView, phase: str, choose, limit: int = 400):
    for _ in range(limit):
        if view.model.state.phase == phase:
            return view.model.state
        legal = view.model.legal_moves
        assert legal and view.play(choose(legal))
    raise AssertionError(f"no {phase} phase within {limit} moves")


def test_discarding_is_clicking_the_cards_to_discard():
    view = GameView(seed=2, players=2, seats=people(2), autoplay=False)
    state = _play_until(view, "discard", lambda legal: next((m for m in legal if isinstance(m, Draw)), legal[0]))
    need, seat, hand = state.to_discard, state.turn, state.hands[state.turn]
    table = view._table
    assert table.hand["pick"] == need and "discard" in table.prompt
    chosen = list(range(need))
    for i in chosen[:-1]:
        click(table, what="hand", index=i)
        assert len(view.model.session.steps) == len(view.model.session)  # nothing played yet
    assert [c["selected"] for c in table.hand["cards"]][:need - 1] == [True] * (need - 1)
    cards = [table.hand["cards"][i]["card"] for i in chosen]
    moves_before = len(view.model.session)
    click(table, what="hand", index=chosen[-1])
    assert len(view.model.session) == moves_before + 1
    assert view.model.session.steps[-1].move == Discard(tuple(cards.count(s) for s in SHIPS))
    assert sum(view.model.state.hands[seat]) == sum(hand) - need


def test_a_sailing_is_paid_out_by_clicking_the_loot_tokens():
    view = GameView(seed=4, players=2, seats=people(2), autoplay=False)
    # board pirats rather than draw (the last legal move), until a ship sails
    state = _play_until(view, "sail", lambda legal: legal[-1] if not any(isinstance(m, TakeLoot) for m in legal)
                        else legal[0])
    ship = SHIPS[state.sailing.ship]
    table = view._table
    front = next(s for s in table.ships if s["ship"] == ship)["flotsam"][0]["tokens"]
    pickable = [t for t in front if t.get("pickable")]
    assert pickable and all(t["shape"] == "loot" for t in pickable) and "loot" in table.prompt
    picking = [sp for s in table.ships for sp in s["spaces"] if sp["picking"]]   # whose pick it is, marked
    assert len(picking) == 1 and picking[0]["figure"]["seat"] == ENGINE.current_player(state)
    n = len(view.model.session)
    click(table, what="loot", ship=ship, token=pickable[0]["token"])
    assert view.model.session.steps[n].move == TakeLoot(Token.parse(pickable[0]["token"]))
    # a token of another ship's flotsam is not one to take: the component refuses it
    other = next(s for s in table.ships if s["ship"] != ship)["flotsam"][0]["tokens"][0]["token"]
    before = len(view.model.session)
    click(table, what="loot", ship=ship, token=other if other not in [t["token"] for t in front] else "can 99")
    assert len(view.model.session) == before and table.refusal


def test_the_auction_is_clicking_a_stool_then_a_bid_or_pass():
    view = GameView(seed=6, players=3, variant="auction", seats=people(3), autoplay=False)
    table = view._table
    assert view.model.state.phase == "auction" and "bar" in table.prompt.lower()
    stools = [b for b in table.auction["bar"] if b["clickable"]]
    assert len(stools) == 12
    click(table, what="bid", amount=0)
    assert "bid amounts shown" in table.refusal and len(view.model.session) == 0   # no stool chosen yet
    click(table, what="stool", stool=stools[1]["stool"])
    bids = table.auction["bids"]
    assert [b["amount"] for b in bids][0] == 0 and not bids[0]["legal"] and bids[1]["legal"]
    click(table, what="bid", amount=0)               # below stool 2's minimum price: the engine says why
    assert "pirats.auction.minimum-price" in view._table.refusal and len(view.model.session) == 0
    click(table, what="bid", amount=1)
    assert view.model.session.steps[0].move == OpenAuction(stools[1]["stool"], 1)
    assert view.model.state.phase == "bid"
    bids = table.auction["bids"]
    assert bids[0]["amount"] == 1 and not bids[0]["legal"]
    click(table, what="bid", amount=1)               # not above the highest bid: the engine says why
    assert "pirats.auction.bidding" in view._table.refusal and len(view.model.session) == 1
    click(table, what="bid", amount=2)
    assert view.model.session.steps[1].move == Bid(2)
    assert any(a["action"] == "pass" for a in table.actions)
    click(table, what="action", action="pass")
    assert view.model.session.steps[2].move == Pass()


# ---- hostile clicks ----------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(hostile, max_size=5))
def test_hostile_messages_never_raise_nor_play_anything_unoffered(msgs):
    view = GameView(seed=3, players=3, seats=people(3), autoplay=False)
    for m in msgs:
        view._table.receive(m)                       # never raises
    # at most one move per message, and the table still draws the current observation
    assert len(view.model.session) <= len(msgs)
    assert view._table.observation == ENGINE.observe(view.model.state, view.viewing_seat())


def test_a_hostile_click_is_refused_in_the_pages_language_and_changes_nothing():
    view = GameView(seed=3, players=3, seats=people(3), autoplay=False, lang="ja")
    before = table_state(view)
    for bad in ({"type": "pick", "what": "space", "ship": "kraken", "space": 9},
                {"type": "pick", "what": "loot", "ship": "cat", "token": "gold 99"},
                {"type": "pick", "what": "hand", "index": 99},
                {"type": "pick", "what": "figure", "figure": "dragon"},
                {"type": "pick", "what": "_render"},
                {"type": "forge", "ships": []}, "pick", None):
        view._table.receive(bad)
        assert view._table.refusal and any("\u3040" <= ch <= "\u30ff" for ch in view._table.refusal), bad
        assert len(view.model.session) == 0
    view._table.set_state({"ships": [], "interactive": False})       # a forged state update is ignored
    view._table.refusal = ""
    assert table_state(view) == before


# ---- the worked examples: clicks, and links that round-trip ----------------------------------------------

def test_the_scoring_pile_is_built_by_clicking_tokens_and_shared_as_a_link():
    view = ScoringView(query="tokens=fries 2,fries 3,ketchup")
    pile = view._tokens
    assert [str(t) for t in pile.value] == ["fries 2", "fries 3", "ketchup"] and view.total == 15
    click(pile, what="add", token="ketchup")
    assert view.total == 25 and "25" in view._sheet.value
    click(pile, what="remove", index=0)
    assert [str(t) for t in view.pile] == ["fries 3", "ketchup", "ketchup"]
    assert {t["token"] for t in pile.palette} == {str(t) for t in box_tokens()}
    # URL -> view -> URL, with a typed token the box does not hold (a power user's value)
    query = view.share_query()
    assert query == "tokens=fries 3,ketchup,ketchup"
    again = ScoringView(query="tokens=fries 9,can 8,opener")
    assert again.share_query() == "tokens=fries 9,can 8,opener"
    assert ScoringView(query=again.share_query()).pile == again.pile
    assert "?tokens=fries%209,can%208,opener" in view._share.value or "tokens=" in view._share.value
    assert unquote(again._share.value.split("<code>?")[1].split("</code>")[0]) == again.share_query()
    click(pile, what="add", token="can 99")
    assert pile.refusal and view.pile == [Token.parse(t) for t in ("fries 3", "ketchup", "ketchup")]


def test_the_boarding_position_is_set_up_by_clicking_the_ship():
    view = BoardingView(query="occupied=&start=0&cards=1&captain=0")
    board = view._board
    assert [s["who"] for s in board.spaces] == ["empty"] * 4 and board.area["you"]
    click(board, what="space", space=2)          # empty -> another pirat
    click(board, what="space", space=1)
    click(board, what="space", space=1)          # another pirat -> your pirat
    assert [s["who"] for s in board.spaces] == ["you", "other", "empty", "empty"] and not board.area["you"]
    click(board, what="space", space=4)          # the captain space: another pirat
    click(board, what="cards", count=2)
    assert view.share_query() == "occupied=2&start=1&cards=2&captain=1"
    # URL -> view -> URL
    assert BoardingView(query=view.share_query()).share_query() == view.share_query()
    click(board, what="area")
    assert board.area["you"] and view.share_query() == "occupied=2&start=0&cards=2&captain=1"
    view._move.click()               # two cards from the area: past the pirat on 2, onto 3
    assert "lands on space 3" in view._result.value
    assert [s["who"] for s in board.after] == ["empty", "other", "you", "other"]
    assert [s["who"] for s in board.spaces] == ["empty", "other", "empty", "other"]   # the setup is kept
    for bad in ({"type": "pick", "what": "space", "space": 7}, {"type": "pick", "what": "cards", "count": 9},
                {"type": "pick", "what": "deck"}):
        click_before = view.share_query()
        board.receive(bad)
        assert board.refusal and view.share_query() == click_before
    click(board, what="space", space=1)                  # a new setup: the result is gone
    assert board.after == [] and view.share_query() == "occupied=1,2&start=0&cards=2&captain=1"
    picture = ShipBoard(clickable=False)                  # a ship drawn as a picture refuses clicks
    picture.show(["empty"] * 4, 1)
    picked = []
    picture.on_pick(picked.append)
    picture.receive({"type": "pick", "what": "space", "space": 1})
    assert picture.refusal and not picked


def test_components_relabel_in_japanese():
    table = PiratsTable(lang="ja")
    table.show(ENGINE.observe(ENGINE.new_state(1, players=2), 0), interactive=True, draw=True)
    assert "山札" in table.supply["deck_label"] and "猫" in table.ships[0]["name"]
    pile = TokenPile(["fries 2"], lang="ja")
    assert "フレンチフライ" in pile.pile[0]["label"]
    board = ShipBoard(lang="ja")
    board.show(["empty", "you", "other", "empty"], 2)
    assert board.spaces[1]["text"] == "あなたの駒" and "船長" in board.spaces[3]["where"]


def test_what_the_table_offers_is_exactly_what_the_engine_allows():
    """Random games in every variant: the deck and row are buttons iff a draw is legal, the loot tokens offered
    are the legal picks, the action buttons are the legal pass/stay/step, the lit spaces of each figure are
    where its legal moves land; and clicking an offered action or token plays exactly that move."""
    import random
    from toolkit.pirats.model import SnailStep, Stay
    kinds = {Pass: "pass", Stay: "stay", SnailStep: "step"}
    seen: set[str] = set()
    for seed, players, variant in ((1, 2, "standard"), (2, 3, "auction"), (3, 4, "landlubber"), (4, 3, "standard")):
        view = GameView(seed=seed, players=players, variant=variant, seats=people(players), autoplay=False)
        rng = random.Random(seed)
        for _ in range(120):
            if view.model.outcome is not None:
                break
            table, legal = view._table, view.model.legal_moves
            assert table.supply["draw"] == any(isinstance(m, Draw) for m in legal)
            assert {a["action"] for a in table.actions} == {kinds[type(m)] for m in legal if type(m) in kinds}
            offered = {t["token"] for s in table.ships for g in s["flotsam"] for t in g["tokens"] if t.get("pickable")}
            assert offered == {str(m.token) for m in legal if isinstance(m, TakeLoot)}
            targets = view.figure_targets()
            for figure in {f for (f, _s, _i) in targets}:
                click(table, what="figure", figure=figure)
                lit = {(s["ship"], sp["space"]) for s in table.ships for sp in s["spaces"] if sp["target"]}
                assert lit == {(sh, i + 1) for (f, sh, i) in targets if f == figure}
                click(table, what="figure", figure=figure)          # and unchoose it
            n = len(view.model.session)
            if table.actions and rng.random() < 0.5:
                action = rng.choice(table.actions)["action"]
                click(table, what="action", action=action)
                assert kinds[type(view.model.session.steps[n].move)] == action
                seen.add(action)
            elif offered and rng.random() < 0.8:
                token = sorted(offered)[0]
                ship = next(s["ship"] for s in table.ships if any(t.get("pickable") for t in s["flotsam"][0]["tokens"]))
                click(table, what="loot", ship=ship, token=token)
                assert view.model.session.steps[n].move == TakeLoot(Token.parse(token))
                seen.add("loot")
            else:
                assert view.play(rng.choice(legal))
    assert {"pass", "loot"} <= seen


def test_the_auction_winner_pays_by_clicking_cards():
    from toolkit.pirats.model import Pay
    view = GameView(seed=6, players=3, variant="auction", seats=people(3), autoplay=False)
    # open every auction at its price plus one, and pass in the bidding: the opener wins and pays
    state = _play_until(view, "pay", lambda legal: next((m for m in legal if isinstance(m, OpenAuction) and m.bid >= 1),
                                                        next((m for m in legal if isinstance(m, Pass)), legal[0])))
    need, seat = state.auction.bid, state.turn
    table = view._table
    assert table.hand["seat"] == seat and table.hand["pick"] == need and "pay" in table.prompt
    n = len(view.model.session)
    chosen = [c["card"] for c in table.hand["cards"][:need]]
    for i in range(need):
        click(table, what="hand", index=i)
    assert len(view.model.session) == n + 1
    assert view.model.session.steps[n].move == Pay(tuple(chosen.count(s) for s in SHIPS))


# ---- the hint marks its object (issue 26) ----------------------------------------------------------------
def _pick_of(key: str, table: PiratsTable) -> dict:
    """The page's message for a click on the object with this data-key (as pirats.js sends it)."""
    kind, _, rest = key.partition(":")
    parts = rest.split(":")
    if kind == "space":
        return {"what": "space", "ship": parts[0], "space": int(parts[1])}
    if kind in ("figure", "aboard"):
        return {"what": "figure", "figure": parts[-1]}
    if kind == "row":
        return {"what": "row", "card": table.supply["row"][int(parts[0])]["card"]}
    if kind == "loot":
        return {"what": "loot", "ship": parts[0], "token": ":".join(parts[2:])}
    if kind == "hand":
        return {"what": "hand", "index": int(parts[0])}
    if kind in ("stool", "bid"):
        return {"what": kind, ("stool" if kind == "stool" else "amount"): int(parts[0])}
    if kind == "action":
        return {"what": "action", "action": parts[0]}
    return {"what": "deck"}


def test_following_the_hints_marks_by_clicks_plays_the_hinted_move():
    """``hint_marks`` (what the table frame calls) names objects that, clicked in order, play the hint
    bot's move — in every variant, through whole stretches of games; the marks go with the next move."""
    from toolkit.widgets.pirats.game import hint_marks

    kinds = set()
    for seed, players, variant in ((1, 2, "landlubber"), (2, 3, "standard"), (6, 3, "auction")):
        view = GameView(seed=seed, players=players, variant=variant, seats=people(players), autoplay=False)
        for _ in range(70):
            if view.model.outcome is not None:
                break
            view.hint_bar.ask.click()
            decision = view.hint_bar.decision
            assert decision is not None
            seat = view.acting_seat()
            marks = hint_marks(decision.move, ENGINE.observe(view.model.state, seat))
            assert view._table.hint_keys == marks[0][1] and view._table.hint_label
            moves = len(view.model.session)
            for key in marks[0][1]:
                click(view._table, type="pick", **_pick_of(key, view._table))
            assert len(view.model.session) == moves + 1, (decision.move, marks, view._table.refusal)
            played = view.model.session.moves[-1]
            same = played == decision.move or (dataclasses.replace(played, peek=False) ==
                                               dataclasses.replace(decision.move, peek=False))
            assert same, (played, decision.move)
            assert view._table.hint_keys == [] and view.hint_bar.text.value == ""
            kinds.add(type(played).__name__)
    assert {"MovePirat", "Draw", "SetSail", "TakeLoot", "OpenAuction"} <= kinds, kinds


def test_the_table_opens_in_the_landlubber_variant_and_standard_is_one_choice_away():
    """Issue 29: the rule book's first game; the standard variant is the next entry of the labelled menu."""
    view = GameView(seed=3, players=3, autoplay=False)
    assert view.model.state.variant == "landlubber" and not ENGINE.observe(view.model.state, 0)["powers"]
    labels = {v: k for k, v in view._variant.options}
    assert view._variant.value == "landlubber" and "first game" in labels["landlubber"]
    assert "powers" in labels["standard"]
    view._variant.value = "standard"
    view.options_bar.new_game.click()
    assert view.model.state.variant == "standard" and ENGINE.observe(view.model.state, 0)["powers"]
    assert GameView(query="variant=standard", autoplay=False).model.state.variant == "standard"


def test_the_last_sailing_stays_in_view_until_the_next():
    """What a sailing gave whom stays above the table (each line names its seat) until the next sailing."""
    view = GameView(seed=1, players=2, seats=people(2), autoplay=False)
    seen = []
    for _ in range(150):
        if view.model.outcome is not None:
            break
        sailings = sum(e.code == "PIRATS_SET_SAIL" for e in view.model.session.events)
        text = view.event_log.last_result_html
        if sailings == 0:
            assert text == ""
        else:
            last = max(i for i, e in enumerate(view.model.session.events) if e.code == "PIRATS_SET_SAIL")
            assert view.model.session.events[last].text("en") in text
            items = re.findall(r"<li>(.*?)</li>", text)
            assert items and all(re.match(r"Seat \d|Pirats .* \(seats [\d, ]+\)", item) for item in items), text
            seen.append(sailings)
        view.hint_bar.ask.click()
        view.hint_bar.play.click()
    assert len(set(seen)) >= 2, seen          # two sailings at least, each shown until the next


def test_the_result_is_one_banner_and_cheers_a_lone_learner_who_wins():
    view = GameView(seed=1, players=2, seats=["you", "greedy"])
    for _ in range(300):
        if view.model.outcome is not None:
            break
        view.hint_bar.ask.click()
        view.hint_bar.play.click()
    outcome = view.model.outcome
    assert outcome is not None and view.banner.value.count("Result:") == 1
    assert "Result" not in view.status.value and "Result" not in view.event_log.last_result_html
    assert ("You win!" in view.banner.value) == (list(outcome.winners) == [0])
