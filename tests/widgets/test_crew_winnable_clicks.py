"""The "winnable" worked example by pointing: hands built by clicking cards (one hand per card, counts per
seat), tasks given and taken off by clicking, the solver's line as cards on a table stepped trick by trick,
the position in the URL (URL -> view -> URL), typed codes and saved mission codes still accepted."""

from __future__ import annotations

import random
import re

from hypothesis import Phase, given, settings, strategies as st

from toolkit.crew.cards import DECK, deal
from toolkit.crew.engine import ENGINE
from toolkit.widgets.crew.mission import mission_code
from toolkit.widgets.crew_solver import WinnableView, lenient_cards, parse_query_hands


def _pick(view, card):
    view._picker.receive({"type": "pick", "card": card})


def test_hands_are_built_by_clicking_cards_one_hand_per_card():
    view = WinnableView(players=3, seed=2, background=False)
    dealt = deal(3, 2)
    first = str(dealt[0][0])
    assert view._picker.selected == [str(c) for c in dealt[0]]
    assert set(view._picker.unavailable) == {str(c) for h in dealt[1:] for c in h}
    # a card of seat 1 cannot join seat 0: refused in the picker, nothing moves
    other = str(dealt[1][0])
    _pick(view, other)
    assert view._picker.refusal and other not in view._hands[0].value and other in view._hands[1].value
    # take a card out of seat 0 by clicking it again, then give it to seat 1
    _pick(view, first)
    assert first not in view._hands[0].value.split()
    assert view._build_seat.options[0][0] == f"Seat 1 · {len(dealt[0]) - 1}"
    view._build_seat.value = 1
    assert first not in view._picker.unavailable
    _pick(view, first)
    assert first in view._hands[1].value.split()
    assert view._build_seat.options[1][0] == f"Seat 2 · {len(dealt[1]) + 1}"
    assert f"Seat 2 — {len(dealt[1]) + 1} cards" in view._hands_box.value
    assert f"data-card=\"{first}\"" in view._hands_box.value.split("crew-solver-hand-cards-1")[1]
    # a typed hand is drawn the same way (power users), unreadable tokens skipped until solved
    view._hands[2].value = "P9 B1 zz"
    seat2 = view._hands_box.value.split("crew-solver-hand-cards-2")[1]
    assert re.findall(r'data-card="(\w+)"', seat2) == ["P9", "B1"] and "data-count='2'" in seat2
    view.lang = "ja"
    assert "席3 — 2枚" in view._hands_box.value


def test_tasks_are_given_and_taken_off_by_clicking():
    view = WinnableView(players=4, seed=1, background=False)
    view._task_choice.value = 17
    view._task_owner.value = 2
    view._task_add.click()
    assert view._tasks[2].value == "17"
    view._task_owner.value = 1           # giving it again moves it: a task has one owner
    view._task_add.click()
    assert view._tasks[2].value == "" and view._tasks[1].value == "17"
    group = next(g for g in view._task_tokens.groups if g["owner"] == 1)
    token = group["tasks"][0]
    assert token["id"] == 17 and token["selectable"] and "click to remove it" in token["aria"]
    view._task_tokens.receive({"type": "pick", "task": 17})
    assert view._tasks[1].value == ""
    view._tasks[0].value = "16, 90=2"    # typed, with a prediction
    notes = [t["note"] for g in view._task_tokens.groups for t in g["tasks"]]
    assert any("2" in n for n in notes)


def test_the_winning_line_is_cards_on_a_table_stepped_trick_by_trick():
    view = WinnableView(players=4, seed=1, tasks={0: "16"}, background=False)
    view.start_solve()
    line = view.solution.line
    assert view.solution.winnable and view._line_box.layout.display == "flex"
    last = line[-1]
    shown = {s["seat"]: s["card"] for s in view._line_table.current["seats"]}
    assert shown == {seat: str(card) for seat, card in zip(last.seats, last.cards)}
    status = [t["status"] for g in view._task_tokens.groups for t in g["tasks"]]
    assert status == ["done"]
    assert view._line_next.disabled and not view._line_back.disabled
    for _ in range(len(line)):
        view._line_back.click()
    assert view._replay.value == 0 and view._line_back.disabled
    assert all(s["card"] is None for s in view._line_table.current["seats"])
    assert [t["status"] for g in view._task_tokens.groups for t in g["tasks"]] == ["pending"]
    view._line_next.click()
    first = {s["seat"]: s["card"] for s in view._line_table.current["seats"]}
    assert first == {seat: str(card) for seat, card in zip(line[0].seats, line[0].cards)}
    assert 'data-card="' in view._trick.value          # the list of tricks is drawn as cards too
    view.lang = "ja"
    assert view._line_table.current["title"] == "勝ち筋を卓で再生"
    # changing a hand clears the verdict (it was about another position)
    _pick(view, str(deal(4, 1)[0][0]))
    assert view.solution is None and view._line_box.layout.display == "none"


@settings(max_examples=8, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(st.integers(0, 2**31 - 1), st.sampled_from([3, 4, 5]), st.integers(0, 10**6), st.booleans())
def test_url_view_url_round_trip(seed, players, shuffle_seed, own_hands):
    rng = random.Random(shuffle_seed)
    params = {"players": str(players), "seed": str(seed)}
    if own_hands:
        cards = list(DECK)
        rng.shuffle(cards)
        sizes = {3: (14, 13, 13), 4: (10,) * 4, 5: (8,) * 5}[players]
        hands, at = [], 0
        for n in sizes:
            hands.append(sorted(cards[at:at + n]))
            at += n
        params["hands"] = ";".join(f"{s}:{'-'.join(map(str, h))}" for s, h in enumerate(hands))
    owners = sorted(rng.sample(range(players), 2))   # the link lists the seats in order
    params["tasks"] = f"{owners[0]}:{rng.choice([16, 17, 79])};{owners[1]}:90=1"
    params["captain"] = str(rng.randrange(players))
    params["leader"] = str(rng.randrange(players))
    query = "&".join(f"{k}={v}" for k, v in params.items())
    view = WinnableView.from_query(query, background=False)
    assert view.share_query() == query
    again = WinnableView.from_query(view.share_query(), background=False)
    assert again.inputs() == view.inputs() and again.share_query() == query
    assert f"?{query}".replace("&", "&amp;") in view._link.value


def test_hostile_url_hands_fall_back_and_are_refused_when_solved():
    assert parse_query_hands("0:P9-Q1;x:B1;7:B2;2:") == {0: "P9 Q1", 2: ""}
    assert len(parse_query_hands("1:" + "B3-" * 300)[1]) <= 200
    view = WinnableView.from_query("players=4&seed=1&hands=0:P9-Q1&tasks=0:16", background=False)
    assert re.findall(r'data-card="(\w+)"', view._hands_box.value.split("crew-solver-hand-cards-1")[0]) == ["P9"]
    view._on_solve()
    assert "deepsea-refusal" in view._message.value and "Q1" in view._message.value
    assert lenient_cards(None) == [] and lenient_cards("p9 P9 b1") == [lenient_cards("P9")[0], lenient_cards("B1")[0]]


def test_a_mission_code_from_the_table_loads_as_dealt():
    state = ENGINE.new_state(10, players=4, mission=1)
    moves = [ENGINE.legal_moves(state)[0]]
    state = ENGINE.apply(state, moves[0])
    view = WinnableView(background=False)
    view._mission.value = mission_code(10, 4, 1, moves)
    view._load.click()
    assert "Loaded" in view._message.value
    assert [view.hand_cards(s) for s in range(4)] == [sorted(h) for h in state.hands]
    assert "78" in view._tasks[state.owners[0]].value
    view._mission.value = "seed=1&moves=zzz"
    view._load.click()
    assert "deepsea-refusal" in view._message.value


def test_a_dealt_hand_is_emptied_in_one_click_to_build_afresh():
    """"Empty the hand of Seat 1" takes every card out of the chosen seat's hand (the other hands stay), so a
    learner can build a hand by clicking from nothing; its label follows the seat and the language; at two
    players TONOJA keeps its own button; a forged seat value is refused and nothing changes."""
    view = WinnableView(players=3, seed=2, background=False)
    dealt = deal(3, 2)
    view._build_seat.value = 1
    assert view._clear_hand.description == "Empty the hand of Seat 2"   # seat index 1
    view._clear_hand.click()
    assert view._hands[1].value == "" and view._picker.selected == []
    assert lenient_cards(view._hands[0].value) == sorted(dealt[0]) and view._build_seat.options[1][0] == "Seat 2 · 0"
    _pick(view, str(dealt[1][0]))                       # built afresh: the card is free again
    assert view._hands[1].value.split() == [str(dealt[1][0])]
    view.lang = "ja"
    assert view._clear_hand.description == "席2の手札を空にする"
    view.lang = "en"
    view._syncing = True                                # a hostile widget value the page has not redrawn yet
    view._build_seat.options = [("Seat 0", 0), ("forged", 7)]
    view._build_seat.value = 7
    view._syncing = False
    before = [h.value for h in view._hands]
    view._on_clear_hand()
    assert [h.value for h in view._hands] == before and "deepsea-refusal" in view._message.value
    two = WinnableView(players=2, seed=3, background=False)
    two._build_seat.value = 2
    assert two._clear_hand.layout.display == "none" and two._tonoja_box.layout.display == "flex"
