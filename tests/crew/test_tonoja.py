"""Two players with TONOJA."""

from toolkit.crew import DECK, Card
from toolkit.crew.engine import ENGINE, TONOJA, PlayCard


def _to_play(seed=0, mission=1):
    s = ENGINE.new_state(seed, players=2, mission=mission)
    while s.phase in ("allocate", "predict"):
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    return s


def test_tonoja_setup():
    """Shows "crew.tonoja.setup"."""
    s = ENGINE.new_state(3, players=2, mission=1)
    assert s.seats == 3 and [len(h) for h in s.hands[:2]] == [13, 13]
    assert len(s.columns) == 7 and all(c.face_down and c.face_up for c in s.columns)
    assert Card.parse("S4") in s.hands[0] + s.hands[1]
    assert s.captain in (0, 1)
    everything = [c for h in s.hands for c in h] + [c for col in s.columns for c in (col.face_down, col.face_up)]
    assert sorted(everything) == list(DECK)


def test_tonoja_plays_face_up_cards_and_follows():
    """Shows "crew.tonoja.plays"."""
    for seed in range(20):
        s = _to_play(seed)
        for _ in range(30):
            if s.phase != "play":
                break
            if ENGINE.current_player(s) == TONOJA:
                up = {c.face_up for c in s.columns if c.face_up}
                plays = [m.card for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)]
                assert set(plays) <= up
                if s.trick:
                    led = s.trick[0].suit
                    if any(c.suit == led for c in up):
                        assert all(c.suit == led for c in plays)
                hidden = next((c.face_down for c in s.columns if c.face_down), None)
                if hidden is not None:
                    assert ENGINE.why_illegal(s, PlayCard(hidden)).rule == "crew.trick.own-card"
            s = ENGINE.apply(s, [m for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)][0])


def test_face_down_card_turns_after_the_trick():
    s = _to_play(1)
    while ENGINE.current_player(s) != TONOJA:
        s = ENGINE.apply(s, [m for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)][0])
    card = [m for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)][0].card
    col = next(i for i, c in enumerate(s.columns) if c.face_up is card)
    under = s.columns[col].face_down
    s, ev = ENGINE.transition(s, PlayCard(card))
    if s.trick:                                   # the trick goes on: the card below is still face down
        assert s.columns[col].face_up is None and s.columns[col].face_down is under
        while s.trick:
            s, ev = ENGINE.transition(s, [m for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)][0])
    assert s.columns[col].face_up is under and s.columns[col].face_down is None
    assert any(e.rule == "crew.tonoja.flip" for e in ev)


def test_tonoja_ends_with_one_card():
    for seed in range(30):
        # mission 27 (the yellow 5 last) succeeds only at the last card; each card the first legal one that
        # does not fail it (a condition is judged after every card: mission 8 may succeed tricks earlier)
        s = ENGINE.new_state(seed, players=2, mission=27)
        while s.phase == "play":
            plays = [m for m in ENGINE.legal_moves(s) if isinstance(m, PlayCard)]
            s = ENGINE.apply(s, next((m for m in plays if ENGINE.apply(s, m).phase != "failed"), plays[0]))
        if s.phase == "success":
            assert len(s.tricks) == 13 and len(s.hand(TONOJA)) + sum(
                1 for c in s.columns if c.face_down) == 1
            return
    raise AssertionError("no seed played mission 8 to the end")


def test_captain_decides_for_tonoja():
    s = ENGINE.new_state(0, players=2, mission=5)
    seats = []
    while s.phase == "allocate":
        seats.append(ENGINE.current_player(s))
        s = ENGINE.apply(s, ENGINE.legal_moves(s)[0])
    assert TONOJA in seats or len(s.tasks) < 3        # TONOJA counts as a seat in the allocation
    assert ENGINE._comm_block(s, TONOJA) is not None   # TONOJA never communicates
    v = ENGINE._comm_block(s, TONOJA)
    assert v[1] in ("crew.tonoja.captain", "crew.sonar.timing", "crew.alloc.order")
    view = ENGINE.observe(s, s.captain)
    assert view["tonoja_seat"] == TONOJA and len(view["tonoja"]) == 7
    assert view["tasks"][0]["difficulty"] == __import__("toolkit.crew", fromlist=["TASKS"]).TASKS[
        s.tasks[0]].difficulty_for(3)
