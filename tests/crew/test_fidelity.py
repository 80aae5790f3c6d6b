"""Issue 18, The Crew: rules fidelity — secret predictions, judging after every card, incompatible pairs."""

import pytest

from toolkit.crew import ENGINE, PassTask, PlayCard, TakeTask
from toolkit.crew.engine import parse_move

from tests.crew.helpers import pink_nine, run


def _play_first_legal(state, until, limit=60):
    events = []
    for _ in range(limit):
        if until(state) or state.phase != "play":
            return state, events
        move = next(m for m in ENGINE.legal_moves(state) if isinstance(m, PlayCard))
        state, ev = ENGINE.transition(state, move)
        events += ev
    return state, events


def _task_events(events, task):
    return [e for e in events if e.code in ("CREW_EVT_TASK_DONE", "CREW_EVT_TASK_FAILED")
            and dict(e.params).get("task") == task]


# ---- 1. a secret prediction is hidden and checked only at the end --------------------------------------
def test_secret_prediction_neither_leaks_nor_ends_the_mission_early():
    state, _ = run(pink_nine(tasks=(91,)), "take 91", "predict 0")   # seat 0 predicts 0 tricks, secretly
    owner = state.owners[0]
    # the owner wins a trick: an open "exactly 0" would fail at once; the secret one stays pending
    state, events = _play_first_legal(state, lambda s: s.tricks and any(t.winner == owner for t in s.tricks))
    assert any(t.winner == owner for t in state.tricks) and len(state.tricks) < 10
    assert state.phase == "play" and state.statuses == ("pending",)
    assert not _task_events(events, 91)
    for seat in range(4):
        task = ENGINE.observe(state, seat)["tasks"][0]
        assert task["status"] == "pending"
        assert task["prediction"] == (0 if seat == owner else "secret")
    # checked at the end: the last trick decides it (failed: the owner won a trick), and only then is X shown
    state, events = _play_first_legal(state, lambda s: False)
    assert len(state.tricks) == 10 and state.phase == "failed" and state.statuses == ("failed",)
    assert len(_task_events(events, 91)) == 1
    assert ENGINE.observe(state, (owner + 1) % 4)["tasks"][0]["prediction"] == 0


def test_open_prediction_fails_as_soon_as_the_table_can_see_it():
    state, _ = run(pink_nine(tasks=(90,)), "take 90", "predict 0")
    owner = state.owners[0]
    state, events = _play_first_legal(state, lambda s: False)
    first_win = next(i for i, t in enumerate(state.tricks) if t.winner == owner)
    assert state.phase == "failed" and len(state.tricks) == first_win + 1
    assert [e.code for e in _task_events(events, 90)] == ["CREW_EVT_TASK_FAILED"]


def test_secret_prediction_met_lets_the_mission_succeed_only_at_the_last_trick():
    state, _ = run(pink_nine(tasks=(91, 16)), "take 91", "take 16")
    # predict what seat 0 will win if everyone plays the first legal card; everything else done early
    trial, _ = _play_first_legal(run(state, "predict 0")[0], lambda s: False)
    wins = sum(t.winner == state.owners[0] for t in trial.tricks)
    state, _ = run(state, f"predict {wins}")
    state, _ = _play_first_legal(state, lambda s: False)
    if state.phase == "success":
        assert len(state.tricks) == 10   # never before the last trick


def _tonoja_with_prediction(seed):
    state = ENGINE.new_state(seed, players=2, mission=0, tasks=[91])
    for _ in range(6):
        if state.phase != "allocate":
            break
        chooser = ENGINE.chooser(state)
        move = TakeTask(91) if chooser == state.tonoja else PassTask()
        if ENGINE.why_illegal(state, move) is not None:
            return None
        state = ENGINE.apply(state, move)
    return state if state.owners == (state.tonoja,) else None


def test_tonojas_secret_prediction_is_seen_by_the_captain_who_decides_for_tonoja():
    state = next(s for s in map(_tonoja_with_prediction, range(40)) if s is not None)
    assert ENGINE.decider(state) == state.captain   # the captain predicts for TONOJA
    state = ENGINE.apply(state, parse_move("predict 2"))
    other = next(s for s in (0, 1) if s != state.captain)
    assert ENGINE.observe(state, state.captain)["tasks"][0]["prediction"] == 2
    assert ENGINE.observe(state, state.tonoja)["tasks"][0]["prediction"] == 2
    assert ENGINE.observe(state, other)["tasks"][0]["prediction"] == "secret"
    assert ENGINE.observe(state, None)["tasks"][0]["prediction"] == "secret"


# ---- 3. judged after every card: a forbidden lead fails when it is led -----------------------------------
@pytest.mark.parametrize("task", [60, 61])
def test_a_forbidden_lead_fails_the_task_when_the_card_is_led(task):
    state, _ = run(pink_nine(tasks=(task,)), f"take {task}")
    owner = state.owners[0]
    assert state.leader == owner   # the pink-nine position: the captain (seat 0) leads P9
    state, events = ENGINE.transition(state, parse_move("play P9"))
    assert len(state.trick) == 1 and state.phase == "failed" and state.statuses == ("failed",)
    assert [e.code for e in events][-2:] == ["CREW_EVT_TASK_FAILED", "CREW_EVT_FAILED"]
    assert ENGINE.observe(state, 1)["tasks"][0]["status"] == "failed"
    assert "retry" in [str(m) for m in ENGINE.legal_moves(state)]


def test_an_allowed_lead_and_following_with_a_forbidden_colour_do_not_fail():
    state, _ = run(pink_nine(tasks=(61,)), "pass", "take 61")   # seat 1 owns "never lead pink or green"
    state, _ = run(state, "play P9", "play P7")                   # seat 1 follows with pink: allowed
    assert state.phase == "play" and state.statuses == ("pending",)


# ---- 4. incompatible pairs from the definitions and the player count -------------------------------------
from toolkit.crew import TASKS, incompatibility, incompatible, incompatible_pairs  # noqa: E402


def test_incompatible_pairs_depend_on_the_player_count():
    # five players win 8 tricks: "more than every other" (at least 5) and "exactly 4" for another cannot both hold
    for a in (1, 2):
        assert incompatibility(a, 87, 5) == "counts"
        assert not incompatible(a, 87, 4) and not incompatible(a, 87, 3) and not incompatible(a, 87, 2)
    assert incompatibility(1, 2, 3) == incompatibility(3, 74, 5) == "counts"


def test_all_nine_of_a_colour_against_any_card_of_every_colour_for_another():
    # the class: 45 needs one whole colour, so it cannot go beside a task that must take at least one card
    # of *every* colour (20, 24, 44 …); a task that leaves some colour untouched is compatible with it
    from toolkit.crew.tasks import _card_alternatives, _colour_mask

    colours = [_colour_mask(lambda c, s=s: c.suit == s) for s in "PBGY"]

    def takes_one_of(task, colour, seats):
        # in every alternative some demand needs more cards than its mask holds outside the colour
        return all(any(k > (mask & ~colour).bit_count() for mask, k in alt)
                   for alt in _card_alternatives(TASKS[task], seats))

    for players in (3, 4, 5):
        blocking = {t for t in TASKS if t != 45 and all(takes_one_of(t, c, players) for c in colours)}
        assert {20, 24, 44} <= blocking
        for other in TASKS:
            if other != 45:
                assert (incompatibility(45, other, players) == "cards") == (other in blocking), other


def test_seed_277_mission_7_three_players_swaps_44_away_from_45():
    from toolkit.crew import new_state

    state = new_state(277, players=3, mission=7)
    swaps = [e for e in state._setup_events if e.code == "CREW_EVT_TASK_SWAPPED"]
    assert [(e.param("task"), e.param("other")) for e in swaps] == [(44, 45)]
    assert 45 in state.tasks and 44 not in state.tasks
    assert not any(incompatible(a, b, 3) for a in state.tasks for b in state.tasks if a != b)


def test_the_rules_doc_lists_exactly_the_derived_pairs():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "crew-notes.md").read_text(encoding="utf-8")
    reason = {"tricks won": "counts", "same trick": "positions", "cards to win": "cards"}
    listed = {3: set(), 4: set(), 5: set()}
    for a, b, *cells in re.findall(r"^\| (\d+) \+ (\d+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|", text, re.M):
        for players, cell in zip((3, 4, 5), cells):
            if cell.strip() != "—":
                listed[players].add((int(a), int(b), reason[cell.strip()]))
    for players in (3, 4, 5):
        assert listed[players] == set(incompatible_pairs(players))
    assert set(incompatible_pairs(2)) == set(incompatible_pairs(3))


def test_incompatibility_is_symmetric_and_never_within_one_task():
    for a, b, why in incompatible_pairs(4):
        assert incompatibility(b, a, 4) == why
    assert all(incompatibility(t, t, 4) is None for t in TASKS)
    with pytest.raises(Exception, match="players"):
        incompatibility(1, 2, 6)


# ---- 2. the cases the review found, at full size (the brute force is in test_judge_exact.py) ------------
from toolkit.crew import DECK, Trick, task_status  # noqa: E402


def _tricks(groups, leader=0):
    """Tricks from groups of card codes, each led by the winner of the one before."""
    out = []
    for cards in groups:
        out.append(Trick(leader, cards))
        leader = out[-1].winner
    return out


def test_task_3_counts_the_tricks_every_rival_still_needs():
    # seat 0 wins nine tricks (leads the top card, the others discard lower colours); one trick is left
    left = {c: list(range(1, 10)) for c in "PBGY"}
    groups = []
    for i in range(9):
        colour = "PBGY"[i % 4]
        lead = f"{colour}{left[colour].pop()}"
        others = []
        for other in "PBGY":
            if other != colour and len(others) < 3 and left[other]:
                others.append(f"{other}{left[other].pop(0)}")
        groups.append([lead] + others)
    tricks = _tricks(groups)
    assert [t.winner for t in tricks] == [0] * 9
    assert task_status(3, 3, tricks, 4) == "failed"      # seats 1 and 2 both need a trick, one is left
    assert task_status(3, 3, tricks[:8], 4) == "pending"  # two tricks left: each rival can still get one


def test_task_13_a_four_never_wins_the_eight_of_its_own_colour():
    # every 4 and 8 but B4 and B8 is played (won by seat 0); B4 cannot win B8, so seat 1's task has failed
    groups = [["P4", "P1", "P2", "P3"], ["G4", "G1", "G2", "G3"], ["Y4", "Y1", "Y2", "Y3"],
              ["P8", "P5", "P6", "P7"], ["G8", "G5", "G6", "G7"], ["Y8", "Y5", "Y6", "Y7"]]
    tricks = _tricks(groups)
    assert task_status(13, 1, tricks, 4) == "failed"
    assert task_status(13, 1, tricks[:5], 4) == "pending"   # Y4 can still win G8 or B8


def test_task_75_is_done_when_two_in_a_row_is_out_of_reach():
    cards = [c for c in DECK]
    groups = [[str(c) for c in cards[4 * i:4 * i + 4]] for i in range(9)]
    tricks = _tricks(groups)
    owner = next(s for s in range(4) if tricks[-1].winner != s and not any(
        a.winner == b.winner == s for a, b in zip(tricks, tricks[1:])))
    assert task_status(75, owner, tricks, 4) == "done"   # one trick left and the owner did not win the ninth


def test_tasks_60_and_61_are_done_once_no_forbidden_colour_can_be_led():
    tricks = _tricks([["P9", "P1", "P2", "P3"], ["G9", "G1", "G2", "G3"], ["P8", "P4", "P5", "P6"],
                      ["G8", "G4", "G5", "G6"], ["P7", "G7", "Y1", "Y2"]])   # seat 0 leads and wins each
    owner = 3
    assert task_status(61, owner, tricks, 4) == "done"         # every pink and green card is played
    assert task_status(61, owner, tricks[:4], 4) == "pending"  # P/G cards left: the owner may still lead one
    assert task_status(60, owner, tricks, 4) == "pending"
