"""Seats are counted from 1 for people and from 0 in the API (issue 29, docs/decisions.md).

The one mechanism: ``i18n.translate`` shows an integer given to a *seat placeholder* (a placeholder right
after "seat"/"Seat"/"seats"/"seat(s)", or "席") plus one. These tests render every catalogue message that
names a seat, and whole seeded games of the four games (events, refusals, bot reasons, move texts,
outcomes), and check that no sentence says seat 0 — while moves, JSON and observations stay 0-based.
"""

from __future__ import annotations

import re
import string

import numpy as np
import pytest

from toolkit.core import i18n
from toolkit.core.bots import BotTable
from toolkit.core.explain import Event, Violation
from toolkit.engines import available_engines

SEAT_ZERO = re.compile(r"\b[Ss]eats? 0\b|席0|席０")
SEAT_ONE = {"en": re.compile(r"\b[Ss]eats?(?:\(s\))? 1\b"), "ja": re.compile(r"席1")}
SEAT_NUMBER = {"en": re.compile(r"\b[Ss]eats?(?:\(s\))? (\d+)"), "ja": re.compile(r"席(\d+)")}


def _with_seats(key: str) -> list[str]:
    entry = i18n.catalogue()[key]
    return sorted(i18n.seat_placeholders(entry["en"], "en"))


SEAT_KEYS = sorted(k for k in i18n.catalogue() if _with_seats(k))


def _render(key: str, lang: str, seat_value) -> str:
    """``key`` with every seat placeholder ``seat_value`` and every other placeholder a word."""
    template = i18n.catalogue()[key][lang]
    seats = i18n.seat_placeholders(template, lang)
    params = {}
    for _, name, spec, _ in string.Formatter().parse(template):
        if name:
            base = name.split(".")[0].split("[")[0]
            params[base] = seat_value if base in seats else (7 if spec else "X")
    return i18n.translate(key, lang, params)


def test_the_catalogue_names_seats_in_hundreds_of_messages():
    assert len(SEAT_KEYS) > 250      # the survey: about 300 messages name a seat


@pytest.mark.parametrize("key", SEAT_KEYS)
def test_every_message_that_names_a_seat_says_seat_1_for_seat_index_0(key):
    for lang in i18n.LANGUAGES:
        text = _render(key, lang, 0)
        assert SEAT_ONE[lang].search(text), f"{key} ({lang}): {text!r}"
        assert not SEAT_ZERO.search(text), f"{key} ({lang}): {text!r}"


def test_english_and_japanese_name_the_same_placeholders_as_seats():
    """Else one language would count from 0 and the other from 1."""
    differ = [k for k, e in i18n.catalogue().items() if "en" in e and "ja" in e
              and i18n.seat_placeholders(e["en"], "en") != i18n.seat_placeholders(e["ja"], "ja")]
    assert differ == []


def test_a_list_of_seats_a_name_and_the_api_quoting_form():
    i18n.register("TEST_SEATS_LIST", {"en": "Seats {seats} share it; seat {seat} too; {name} stays.",
                                      "ja": "席{seats}が分け合います。席{seat}も。{name}はそのまま。"})
    i18n.register("TEST_SEAT_PARAMETER", {"en": "There is no seat={seat}.", "ja": "seat={seat}はありません。"})
    assert (i18n.translate("TEST_SEATS_LIST", "en", seats=[0, 2], seat="Seat 1 (you)", name=0)
            == "Seats 1, 3 share it; seat Seat 1 (you) too; 0 stays.")
    assert i18n.translate("TEST_SEATS_LIST", "ja", seats=(1,), seat=np.int64(3), name=0) == "席2が分け合います。席4も。0はそのまま。"
    assert i18n.translate("TEST_SEAT_PARAMETER", "en", seat=7) == "There is no seat=7."   # the API's own number
    assert i18n.translate("TEST_SEATS_LIST", "en", seats=True, seat=None, name=1) == "Seats yes share it; seat None too; 1 stays."


def test_the_engine_event_keeps_the_api_seat_and_says_the_people_s_number():
    event = Event("CREW_EVT_PLAY", "crew.trick.own-card", seat=0, who=0, card="P9")
    assert event.seat == 0 and event.to_json()["seat"] == 0
    assert event.text("en") == "Seat 1 plays P9." and event.text("ja").startswith("席1")
    assert Violation("NOT_YOUR_TURN", "core.turn", seat=2, current=0).text("en") == "It is not seat 3's turn: seat 1 acts now."


def test_a_move_naming_a_seat_parses_0_based_while_its_description_counts_from_1():
    from toolkit.crew.engine import ENGINE
    move = ENGINE.parse_move("sonar 0 B1 top")
    assert ENGINE.parse_move(str(move)) == move and str(move).startswith("sonar 0 ")
    assert re.search(r"\b[Ss]eat 1\b", ENGINE.describe_move(move, "en"))


# ---- whole seeded games ------------------------------------------------------------------------
GAMES = {"crew": ({"players": 3, "mission": 7}, ["beginner", "random", "beginner"]),
         "deepblue": ({"players": 3}, ["stop-after-3", "random", "policy"]),
         "pirats": ({"players": 3}, ["greedy", "random", "cautious"]),
         "tranquility": ({"players": 3}, ["greedy", "random", "rank"])}


def _check(text: str, lang: str, seats: int, what: str) -> None:
    assert not SEAT_ZERO.search(text), f"{what}: {text!r}"
    for m in SEAT_NUMBER[lang].finditer(text):
        assert 1 <= int(m.group(1)) <= seats, f"{what}: {text!r} names a seat beyond {seats}"


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_no_sentence_of_a_whole_seeded_game_says_seat_0(name, seed):
    engine = available_engines()[name]
    options, levels = GAMES[name]
    state = engine.new_state(seed, **options)
    seats = engine.seat_count(state)
    assert len(levels) == seats
    table = BotTable(engine, levels, seed)
    earlier_moves: list = []
    said = 0
    for _ in range(400):
        step = table.step(state)
        if step is None:
            break
        _, decision = step
        for lang in i18n.LANGUAGES:
            _check(decision.text(lang), lang, seats, f"{name} bot reason")
            _check(engine.describe_move(decision.move, lang), lang, seats, f"{name} move text")
        # refusals: moves that were legal earlier are mostly illegal now, each with its reason
        for move in earlier_moves[-6:]:
            violation = engine.why_illegal(state, move)
            if violation is not None:
                for lang in i18n.LANGUAGES:
                    _check(violation.text(lang), lang, seats, f"{name} refusal of {move}")
                said += 1
        state, events = engine.transition(state, decision.move)
        for e in events:
            for lang in i18n.LANGUAGES:
                _check(e.text(lang), lang, seats, f"{name} event {e.code}")
            said += 1
        earlier_moves.append(decision.move)
    outcome = engine.outcome(state)
    if outcome is not None:
        for lang in i18n.LANGUAGES:
            _check(outcome.text(lang), lang, seats, f"{name} outcome")
    assert said > 30


def test_a_seat_sentence_of_a_real_game_shows_the_index_plus_one():
    """The sweep above cannot pass by never naming a seat: the first Crew event names seat index 0 as 1."""
    engine = available_engines()["crew"]
    state = engine.new_state(1, players=3, mission=7)
    move = engine.legal_moves(state)[0]
    _, events = engine.transition(state, move)
    named = [e for e in events if e.seat is not None]
    assert named and all(f"Seat {e.seat + 1}" in e.text("en") or f"seat {e.seat + 1}" in e.text("en")
                         for e in named)
    assert all(f"席{e.seat + 1}" in e.text("ja") for e in named)
