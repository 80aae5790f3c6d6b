"""Teaching positions from the rule text, shared by notebooks, dashboards and tests."""

from __future__ import annotations

from toolkit.crew.engine import ENGINE, CrewState

#: The rule text's four-player example: seat 0 (captain, submarine 4) leads P9; seat 1 follows with P7;
#: seat 2 has no pink and plays Y2; seat 3 plays P8 — the captain wins. Then submarine 4 wins the second
#: trick (seat 1 has no submarine; seats 2 and 3 must play theirs). The other cards are filled in so that
#: the 40 cards are dealt.
PINK_NINE_HANDS = (
    "P9 S4 B9 B8 B7 B6 B5 B4 B3 B2",
    "P7 G9 G8 G7 G6 G5 G4 G3 G2 B1",
    "Y2 Y9 Y8 Y7 Y6 Y5 Y4 Y3 G1 S1",
    "P8 P6 P5 P4 P3 P2 P1 Y1 S2 S3",
)
PINK_NINE_MOVES = ("take 78", "play P9", "play P7", "play Y2", "play P8", "play S4", "play B1", "play S1",
                   "play S2")


def pink_nine(tasks=(78,), **options) -> CrewState:
    """The example position as a custom mission with ``tasks`` still to be allocated."""
    return ENGINE.new_state(0, players=4, mission=0, tasks=list(tasks), hands=list(PINK_NINE_HANDS), **options)
