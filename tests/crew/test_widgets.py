"""The Crew views: no rules in widgets, untrusted values, hidden hands, both languages."""

import json
import re

import ipywidgets as widgets
import pytest

from toolkit.crew.cards import Trick
from toolkit.crew.engine import ENGINE
from toolkit.widgets.crew import MissionView, PinkNineTrickView, SonarCheckView, TaskJudgeView


def _all_widget_state(root) -> str:
    """The state of every widget the view created (shown or not) as the JSON the browser would get."""
    seen, todo = {}, [root]
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen[id(w)] = w
        todo += [c for c in getattr(w, "children", ())]
        for value in vars(w).values():
            if isinstance(value, widgets.Widget):
                todo.append(value)
            elif isinstance(value, (list, tuple, dict)):
                items = value.values() if isinstance(value, dict) else value
                todo += [x for x in items if isinstance(x, widgets.Widget)]
    states = [{k: v for k, v in w.get_state().items() if k not in ("_esm", "_css")} for w in seen.values()]
    return json.dumps(states, default=str, ensure_ascii=False)


def _mentions(text: str, card) -> bool:
    """``card`` in the widget state: its code, or its English or Japanese name."""
    forms = [str(card), card.text("en"), card.text("ja")]
    return any(re.search(r"(?<![A-Za-z0-9])" + re.escape(f) + r"(?![0-9])", text) for f in forms)


def _hidden_cards(state, seat):
    """Cards of other seats that ``seat`` may not see (a task text may name a card: that is public; so is
    the captain's submarine 4, announced at the deal)."""
    public = str(ENGINE.observe(state, seat))
    return [c for s in range(state.seats) if s != seat for c in state.hand(s)
            if str(c) not in public and str(c) != "S4"]


def _assert_hides(view, seat):
    text = _all_widget_state(view)
    hidden = _hidden_cards(view.model.state, seat)
    assert hidden, "nothing hidden to check"
    for c in hidden:
        assert not _mentions(text, c), f"{c} reached the widgets"


# Views built with autoplay=False and bots moved by ``driver.run_until_human()``: with autoplay, the driver
# times bot moves on a running asyncio loop, and a pytest session that ran Playwright's sync API has one.
def test_mission_table_default_you_at_seat_0_with_bots_never_holds_their_cards():
    view = MissionView(seed=3, players=4, mission=1, autoplay=False)
    view.driver.run_until_human()
    assert view.setup.seats[0] == "you" and all(s != "you" for s in view.setup.seats[1:])
    state = view.model.state
    assert view.viewing_seat() == 0
    assert [i["card"] for i in view._hand.items] == [str(c) for c in state.hand(0)]
    _assert_hides(view, 0)
    # play the whole attempt by clicking: a task token when offered, else a playable card of the hand
    for _ in range(60):
        view.driver.run_until_human()
        if view.model.state.phase in ("success", "failed"):
            break
        takes = [t["id"] for g in view._tasks.groups for t in g["tasks"] if t["selectable"]]
        playable = [i["card"] for i in view._hand.items if i["playable"]]
        if takes:
            view._tasks.receive({"type": "pick", "task": takes[0]})
        elif playable:
            view._hand.receive({"type": "pick", "card": playable[0]})
        else:
            view._actions.value = 0
            view._on_apply()
        _assert_hides(view, 0)
    assert view.model.state.phase in ("success", "failed")
    assert 'data-acting=""' in view.status.value and view._review_button.layout.display == "flex"


def test_mission_table_refuses_foreign_and_unplayable_cards_with_reasons():
    view = MissionView(seed=3, players=4, mission=1, seats=["you", "you", "you", "you"])
    state = view.model.state
    seat = view.viewing_seat()
    assert seat == ENGINE.decider(state)                    # hot seat: the page shows the deciding seat
    other = next(c for s in range(4) if s != seat for c in state.hand(s))
    view._hand.receive({"type": "pick", "card": str(other)})      # a forged click: not in this hand
    assert view.model.state is state and "not in this hand" in view._hand.refusal
    view._hand.receive({"type": "pick", "card": str(state.hand(seat)[0])})   # allocation first: refused
    assert view.model.state is state and view._hand.refusal           # said on the hand, beside the card
    view._tasks.receive({"type": "pick", "task": 999})
    assert view.model.state is state and view._tasks.refusal                 # said on the tokens
    view._actions.options = [("bogus", 99)]
    view._actions.value = 99                                 # a hostile comm message: index out of range
    view._on_apply()
    assert view.model.state is state and "deepsea-refusal" in view.refusal.value


def test_the_language_toggle_rewords_the_last_bot_move_and_the_hint():
    """The bot's last move and the hint are kept as decisions and worded at each redraw: switching to
    Japanese rewords both (they used to stay in the language of the moment they were made); a new game
    forgets both."""
    import re

    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    view = MissionView(seed=5, players=4, mission=3, autoplay=False)   # seat 3, the captain, chooses first
    view.driver.run_until_human()
    english = view.bot_line.value
    assert "Seat 4 (bot: expert)" in english and "bots.crew." in english and not japanese.search(english)
    assert ".." not in english                                   # "…submarines.." : one full stop
    view._on_hint()
    hint_en = view.hint_bar.text.value
    assert "data-marks" in hint_en and not japanese.search(hint_en) and ".." not in hint_en
    view.lang = "ja"
    reason = re.sub(r"<[^>]*>", "", view.bot_line.value.split("<small")[0])
    assert "席4" in view.bot_line.value and japanese.search(reason) and "deals" not in reason
    hint_ja = re.sub(r"<[^>]*>", "", view.hint_bar.text.value.split("<small")[0])
    assert japanese.search(hint_ja) and "。。" not in hint_ja
    shown = re.sub(r"<[^>]*>", "", re.sub(r"<small.*?</small>", "", view.hint_bar.text.value + view.bot_line.value))
    assert "take" not in shown and "pass" not in shown        # moves in words of the page, never as codes
    view.lang = "en"
    assert view.bot_line.value == english and view.hint_bar.text.value == hint_en
    view.options_bar.new_game.click()
    assert view.hint_bar.text.value == "" and view.hint_bar.decision is None
    assert "Seat 3 (bot: expert)" not in view.bot_line.value


def test_mission_table_hint_and_teacher_switch():
    view = MissionView(seed=3, players=4, mission=1, autoplay=False)
    view.driver.run_until_human()
    assert view._acts_now(0)
    view._on_hint()
    assert 'data-marks="1"' in view.hint_bar.text.value and "bots." in view.hint_bar.text.value
    hidden = _hidden_cards(view.model.state, 0)
    view.setup.show_all = True                               # the teacher's switch: every hand, said on screen
    text = _all_widget_state(view)
    assert all(_mentions(text, c) for c in hidden) and "every hand" in view._others.value.lower()
    view.setup.show_all = False
    _assert_hides(view, 0)


def test_mission_table_all_bots_shows_no_hand_and_step_mode_waits():
    view = MissionView(seed=4, players=4, mission=1, seats=["random"] * 4, step_mode=True)
    assert view.viewing_seat() is None and view._hand.items == []
    text = _all_widget_state(view)
    public = str(ENGINE.observe(view.model.state, None))
    hidden = [c for s in range(4) for c in view.model.state.hand(s) if str(c) not in public and str(c) != "S4"]
    assert hidden and not any(_mentions(text, c) for c in hidden)
    assert view.setup.waiting                                  # a bot's move is due: step mode waits
    before = len(view.model.session)
    view.setup._on_next()                                      # the teacher clicks "Next move"
    assert len(view.model.session) == before + 1


def test_mission_view_reads_the_query_and_clamps_it():
    view = MissionView(query="seed=abc&players=9&mission=-4&lang=xx&seats=you,nope&pace=NaN")
    assert view.model.state.players == 5 and view.model.state.mission == 1 and view.lang == "en"
    assert view.setup.seats[0] == "you" and view.setup.pace == 0.7
    view = MissionView(query="seed=5&players=2&mission=3&lang=ja&seats=you,random,random&pace=9")
    assert view.model.state.players == 2 and view.lang == "ja" and view.setup.pace == 3.0
    assert view.model.state.tonoja is not None


def test_with_two_players_tonoja_s_seat_is_played_by_the_captain_and_offers_no_choice():
    view = MissionView(query="seed=5&players=2&mission=3&seats=you,random,you", autoplay=False)
    state = view.model.state
    tonoja, captain = state.tonoja, state.captain
    assert view.setup.seats[tonoja] == view.setup.seats[captain]
    picker = view.setup._pickers[tonoja]
    assert picker.disabled and picker.description == "TONOJA" and f"seat {captain + 1}" in picker.options[0][0]
    other = 1 - captain
    view.setup._pickers[captain].value = "you"
    view.setup._pickers[other].value = "random"
    assert view.setup.seats[tonoja] == "you" and view.human_seats() == [captain]
    view.setup._pickers[captain].value = "random"
    assert view.setup.seats[tonoja] == "random"


def test_pink_nine_view_steps_with_the_engine():
    view = PinkNineTrickView()
    view._hands[1].receive({"type": "pick", "card": "P7"})   # not the next card: refused, nothing moves
    assert view._step == 0 and "P7" not in view._hands[1].refusal and view._hands[1].refusal
    view._task.receive({"type": "pick", "task": 78})         # the captain takes #78 by clicking its token
    assert view._step == 1
    for _ in range(4):                                       # then each next card, clicked in its hand
        nxt = view.next_move()
        seat = [s for s, h in enumerate(view._hands) if nxt.card in h.cards][0]
        view._hands[seat].receive({"type": "pick", "card": str(nxt.card)})
    assert view._step == 5 and view._table.current["seats"][0]["winner"]   # P9 won, seat 0 drawn at the bottom
    for _ in range(20):
        view._on_next()
    assert "crew.end.success" in view._example.value
    view._plays.value = "P9 P9"
    view._on_check()
    assert "deepsea-refusal" in view._message.value      # malformed input is reported, nothing raises
    view._plays.value = "G3 Y9 G4"
    view._on_check()
    assert "data-winner='2'" in view._result.value


def test_pink_nine_try_a_trick_by_clicking():
    view = PinkNineTrickView(query="plays=P9&hand=P8-Y2-S1")
    view._plays_picker.receive({"type": "pick", "card": "P7"})
    assert view._plays.value == "P9 P7" and "plays=P9-P7" in view._link.value
    view._try_hand.receive({"type": "pick", "card": "Y2"})           # must follow pink: refused with the rule
    assert "crew.trick.follow" in view._try_hand.refusal or "follow" in view._try_hand.refusal
    view._try_hand.receive({"type": "pick", "card": "P8"})
    assert "crew-try-card-ok" in view._card_reason.value
    view._hand_picker.receive({"type": "pick", "card": "P7"})        # already in the trick: refused
    assert [str(c) for c in view._try_hand.cards] == ["P8", "Y2", "S1"]


def test_sonar_view_checks_by_clicking_and_translates():
    view = SonarCheckView()
    view._hand_cards.receive({"type": "pick", "card": "P5"})
    assert "crew.sonar.position" in view._result.value and "data-ok='0'" in view._result.value
    view.check("P7", "top")
    assert "data-ok='1'" in view._result.value
    view._hand_cards.receive({"type": "pick", "card": "B9"})          # not in the hand: refused, kept P7
    assert view._hand_cards.selected == "P7" and view._hand_cards.refusal
    view._picker.receive({"type": "pick", "card": "B9"})              # clicked into the hand
    assert view._hand.value.split()[-1] == "B9" and "hand=P1-P2-P5-P7-G4-S2-B9" in view._link.value
    view.lang = "ja"
    assert "ソナー" in view._title.value
    view._hand.value = "not cards"
    assert "deepsea-refusal" in view._message.value


def test_task_judge_view_filters_and_judges():
    view = TaskJudgeView()
    view._category.value = "streak"
    assert len(view._list.options) == 5
    view._preset.value = "as_many"
    assert "data-final='failed'" in view._status.value
    view._tricks.value = "0: P1 P2"
    view.judge()
    assert "deepsea-refusal" in view._message.value


def test_task_judge_presets_are_named_in_the_page_language_not_by_their_keys():
    from toolkit.widgets.crew.task_judge import PRESETS
    view = TaskJudgeView()
    view._preset.value = "as_many"
    for lang in ("ja", "en"):
        view.lang = lang
        labels = dict((value, label) for label, value in view._preset.options)
        assert set(labels) == {""} | set(PRESETS)
        assert all(labels[k] != k and "_" not in labels[k] for k in PRESETS), labels
        assert view._preset.value == "as_many" and "data-final='failed'" in view._status.value
    assert labels["as_many"].startswith("As many")


def test_task_judge_tricks_by_clicking():
    view = TaskJudgeView(query="task=78")
    view._on_clear()
    for code in ("P9", "P7", "Y2"):
        view._picker.receive({"type": "pick", "card": code})
    assert view._tricks.value == "" and view._table.current["seats"][3]["name"].startswith("Seat 4")
    view._picker.receive({"type": "pick", "card": "P8"})             # the 4th card completes the trick
    assert view._tricks.value == "0: P9 P7 Y2 P8" and "data-final='pending'" in view._status.value
    view._picker.receive({"type": "pick", "card": "P9"})             # already played: refused
    assert view._picker.value == () and view._picker.refusal
    for code in ("S4", "B1", "S1", "S2"):
        view._picker.receive({"type": "pick", "card": code})
    assert "data-final='done'" in view._status.value
    assert "tricks=0:P9-P7-Y2-P8;0:S4-B1-S1-S2" in view._link.value
    view._on_undo()
    assert view._tricks.value == "0: P9 P7 Y2 P8"


def test_mission_link_reopens_the_game_for_its_post_mortem():
    from toolkit.widgets.crew.mission import decode_moves, encode_moves

    view = MissionView(seed=2, players=4, mission=1, seats=["you", "random", "random", "random"], autoplay=False)
    _play_to_the_end(view, limit=40)
    moves = view.model.session.moves
    assert "?code=" in view.controls.share.value            # the frame's link, for every seat's view
    assert [str(m) for m in moves] == decode_moves(encode_moves(moves))
    again = MissionView(query="seed=2&seats=you,random,random,random&moves=" + encode_moves(moves), autoplay=False)
    assert again.model.state == view.model.state
    again.show_post_mortem()
    assert "crew-pm-verdict" in again._review.value and "crew-pm-allocations" in again._review.value
    if "crew-pm-lost" in again._review.value:        # the winning alternative is on the replay table
        assert again._replay_cards and any(s["mark"] == "alt" for s in again._replay_table.current["seats"])
    broken = MissionView(query="seed=2&moves=take_999.P9")  # a bad link: refused with its rule, game kept
    assert "crew.alloc" in broken.controls.answer.value and broken.model.state.phase != "failed"


# ---- what a newcomer missed at the Crew table (issue 26) ---------------------------------------------
def _play_to_the_end(view, limit: int = 80):
    for _ in range(limit):
        view.driver.run_until_human()
        if view.model.state.phase in ("success", "failed"):
            return
        takes = [t["id"] for g in view._tasks.groups for t in g["tasks"] if t["selectable"]]
        playable = [i["card"] for i in view._hand.items if i["playable"]]
        if takes:
            view._tasks.receive({"type": "pick", "task": takes[0]})
        elif playable:
            view._hand.receive({"type": "pick", "card": playable[-1]})
        else:
            view._actions.value = 0
            view._on_apply()


@pytest.mark.parametrize("seed", [2, 4])       # a failed attempt, a won mission
def test_a_finished_attempt_says_its_result_once_and_lights_no_seat(seed):
    view = MissionView(seed=seed, players=4, mission=1, seats=["you", "random", "random", "random"], autoplay=False)
    _play_to_the_end(view)
    assert view.model.state.phase in ("success", "failed")
    status = view.status.value
    outcome = ENGINE.outcome(view.model.state)
    if outcome is not None:                                         # a won mission: the banner says it, once
        assert view.banner.value.count(outcome.text("en")) == 1 and outcome.text("en") not in status
    else:                                                           # a failed attempt: the status says it, once
        assert view.banner.value == "" and status.count(view.t("crew.ui.attempt_failed")) == 1
        # the crew may retry: the attempt is over, not the game
        assert "This attempt is over." in status and "The game is over" not in status
    assert "to act" not in status
    assert 'data-acting=""' in status and len(set(view.status.text.split(". "))) == len(view.status.text.split(". "))
    assert view._trick._shown["acting"] is None
    assert "click" not in view._hand.labels.get("title", "").lower()   # nothing left to play: no invitation


def test_the_link_to_a_mission_as_played_opens_on_its_post_mortem_naming_seats_and_winners():
    from toolkit.widgets.crew.mission import encode_moves
    view = MissionView(seed=2, players=4, mission=1, seats=["you", "random", "random", "random"], autoplay=False)
    _play_to_the_end(view)
    again = MissionView(query="seed=2&seats=you,random,random,random&moves=" + encode_moves(view.model.session.moves),
                        autoplay=False)
    review = again._review.value
    assert "crew-pm-verdict" in review                           # opened with no click
    cards_table = review.split("crew-pm-cards", 1)[1].split("</table>", 1)[0]
    rows = cards_table.split("<tr>")[1:]
    played = again._review_data[0].tricks
    assert len(rows) == len(played) and all("crew-pm-seat" in row for row in rows)
    for (leader, cards), row in zip(played, rows):
        if len(cards) < 4:
            assert again.t("crew.ui.pm_unfinished") in row
            continue
        winner = Trick(leader, cards).winner
        assert again.t("crew.ui.pm_won_by", name=again.seat_name(winner)) in row.replace("&#x27;", "'")


def test_passing_a_task_is_a_button_of_its_own():
    from toolkit.crew.engine import PassTask
    for seed in range(40):
        view = MissionView(seed=seed, players=4, mission=6 if seed % 2 else 3,
                           seats=["you", "random", "random", "random"], autoplay=False)
        view.driver.run_until_human()
        if any(isinstance(m, PassTask) for m in view.seat_moves(0)):
            break
    else:
        pytest.skip("no seed offers seat 0 a pass")
    buttons = list(view._quick_row.children)
    labels = [b.description for b in buttons]
    assert view.t("crew.ui.pass") in labels
    before = len(view.model.session)
    buttons[labels.index(view.t("crew.ui.pass"))].click()
    assert isinstance(view.model.session.moves[before], PassTask)


def test_the_mission_and_the_players_are_chosen_on_the_page():
    view = MissionView(seed=4, players=4, mission=1, autoplay=False)
    assert view.options_bar.seed.description and view._mission_pick.description and view._players_pick.description
    view._mission_pick.value = 5
    view._players_pick.value = 3
    view.options_bar.seed.value = 11
    view.options_bar.new_game.click()
    state = view.model.state
    assert (state.mission, state.players, len(view.setup.seats)) == (5, 3, 3)
    assert view.setup in view._seats_box.children and view.setup.seats[0] == "you"
    view._players_pick.value = 2                                    # TONOJA's seat follows the captain
    view.options_bar.new_game.click()
    assert view.model.state.players == 2 and len(view.setup.seats) == 3
    tonoja = view.model.state.tonoja
    assert view.setup.seats[tonoja] == view.setup.seats[view.model.state.captain]
