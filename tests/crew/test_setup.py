"""Setup: the task draw, the captain, the allocation, incompatible pairs and footnote redeals."""


from toolkit.crew import TASKS, Card, incompatible
from toolkit.crew.engine import ENGINE, AssignTask, PassTask, TakeTask
from toolkit.crew.tasks import REDEAL_IF

from .helpers import PINK_NINE_HANDS, pink_nine, run


def test_mission_draws_tasks_to_target():
    for seed in range(5):
        for players in (3, 4, 5):
            s = ENGINE.new_state(seed, players=players, mission=7)
            assert sum(TASKS[t].difficulty_for(players) for t in s.tasks) == 6


def test_submarine_four_holder_is_captain():
    """Shows "crew.alloc.captain"."""
    for seed in range(6):
        s = ENGINE.new_state(seed, players=5, mission=2)
        assert Card.parse("S4") in s.hands[s.captain]
        assert s.leader == s.captain
    s = pink_nine()
    assert s.captain == 0


def test_allocation_goes_clockwise_from_captain():
    hands = PINK_NINE_HANDS[2:] + PINK_NINE_HANDS[:2]       # submarine 4 now at seat 2
    s = ENGINE.new_state(0, players=4, mission=0, tasks=[16, 17, 18, 19, 54], hands=hands)
    assert s.captain == 2
    order = []
    while s.phase == "allocate":
        order.append(ENGINE.current_player(s))
        s = ENGINE.apply(s, [m for m in ENGINE.legal_moves(s) if isinstance(m, TakeTask)][0])
    assert order == [2, 3, 0, 1, 2]
    assert s.owners == (2, 3, 0, 1, 2)


def test_no_passing_with_enough_tasks():
    s = pink_nine(tasks=(16, 17, 18, 19))
    assert PassTask() not in ENGINE.legal_moves(s)
    assert ENGINE.why_illegal(s, PassTask()).rule == "crew.alloc.no-pass"


def test_passing_with_fewer_tasks_than_players():
    s = pink_nine(tasks=(16, 17))
    s, _ = run(s, "pass", "pass")                            # seats 0 and 1 pass: two tasks, two seats left
    v = ENGINE.why_illegal(s, PassTask())
    assert v.rule == "crew.alloc.pass"
    s, _ = run(s, "take 16", "take 17")
    assert s.owners == (2, 3) and s.phase == "play"


def test_captain_cannot_take_captain_comparison():
    s = pink_nine(tasks=(4, 16))
    v = ENGINE.why_illegal(s, TakeTask(4))
    assert v.rule == "crew.alloc.captain-comparison"
    assert TakeTask(4) not in ENGINE.legal_moves(s)


def test_captain_is_skipped_when_only_captain_comparisons_remain():
    s = ENGINE.new_state(0, players=3, mission=0, tasks=[16, 4, 5, 17],
                         hands=[" ".join(PINK_NINE_HANDS[0].split() + PINK_NINE_HANDS[3].split()[:4]),
                                " ".join(PINK_NINE_HANDS[1].split() + PINK_NINE_HANDS[3].split()[4:7]),
                                " ".join(PINK_NINE_HANDS[2].split() + PINK_NINE_HANDS[3].split()[7:])])
    s, _ = run(s, "take 16", "take 4", "take 5")
    assert ENGINE.current_player(s) == 0 and s.phase == "allocate"   # 17 is still open for the captain
    s2 = ENGINE.new_state(0, players=3, mission=0, tasks=[16, 17, 4, 5], hands=[
        " ".join(PINK_NINE_HANDS[0].split() + PINK_NINE_HANDS[3].split()[:4]),
        " ".join(PINK_NINE_HANDS[1].split() + PINK_NINE_HANDS[3].split()[4:7]),
        " ".join(PINK_NINE_HANDS[2].split() + PINK_NINE_HANDS[3].split()[7:])])
    s2, ev = run(s2, "take 16", "take 17", "take 4")
    assert ENGINE.current_player(s2) == 1                  # the captain is skipped: only task 5 is left
    s2, _ = run(s2, "take 5")
    assert s2.owners == (0, 1, 2, 1)
    assert any(e.code == "CREW_EVT_CAPTAIN_SKIPPED" for e in ev)


def test_incompatible_pair_is_swapped():
    swapped = 0
    for seed in (10, 466, 643, 680, 812, 1, 2, 3):            # seeds found to draw an incompatible pair
        s = ENGINE.new_state(seed, players=3, mission=3)
        for i, a in enumerate(s.tasks):
            for b in s.tasks[i + 1:]:
                assert not incompatible(a, b)
        events = getattr(s, "_setup_events", ())
        for e in events:
            if e.code == "CREW_EVT_TASK_SWAPPED":
                swapped += 1
                assert e.rule == "crew.alloc.incompatible"
                assert incompatible(e.param("task"), e.param("other"))
                assert TASKS[e.param("task")].difficulty_for(3) == TASKS[e.param("new")].difficulty_for(3)
    assert swapped >= 5


def test_submarine_footnote_redeals_without_failure():
    redealt = 0
    for seed in range(300):
        s = ENGINE.new_state(seed, players=3, mission=0, tasks=[51])
        for combo in REDEAL_IF[51]:
            need = {Card.parse(c) for c in combo}
            assert not any(need <= set(h) for h in s.hands)
        redealt += sum(1 for e in s._setup_events if e.code == "CREW_EVT_REDEAL")
        assert s.attempt == 1
    assert redealt >= 1


def test_free_selection():
    s = ENGINE.new_state(3, players=4, mission=17)
    assert all(isinstance(m, AssignTask) for m in ENGINE.legal_moves(s))
    assert ENGINE.why_illegal(s, TakeTask(s.tasks[0])).rule == "crew.alloc.free"
    other = (s.captain + 1) % 4
    for t in s.tasks:                                        # one player may take every task
        if not TASKS[t].captain_comparison or other != s.captain:
            s = ENGINE.apply(s, AssignTask(t, other))
    assert set(s.owners) == {other} and s.phase in ("play", "predict")
