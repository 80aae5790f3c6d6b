"""Bot reasons and hints in plain words (issue 26, item 3): a learner who knows only the rules reads what
the bot weighed and why — no solver jargon, no code names, no rule ids inside the sentence, no raw
fractions — in English and Japanese; the page shows the rule id beside the sentence as a small
reference with a tooltip (a link to the rules dashboard on a published page)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from string import Formatter

import pytest

from toolkit.core import i18n
from toolkit.core.bots import BotTable, Decision
from toolkit.core.explain import Event
from toolkit.widgets.base import explain_html, rule_ref_html

ROOT = Path(__file__).resolve().parents[1]

#: Words a learner who knows only the rules cannot read, in either language.
JARGON = {
    "en": [r"\bDD\b", r"double[- ]dummy", r"sampl", r"consistent", r"polic", r"\bbots\.", r"\bEV\b", r"solver",
           r"node", r"heuristic", r"\blegal moves\b", r"\w+\.\w+\.\w+"],
    "ja": [r"DD", r"ダブルダミー", r"サンプル", r"整合", r"方策", r"bots\.", r"EV", r"ソルバー", r"ノード",
           r"合法手", r"\w+\.\w+\.\w+"],
}
#: A raw fraction ("12/19") where a beginner wants a percentage or "12 of 19".
FRACTION = re.compile(r"\d+\s*/\s*\d+")

#: The catalogues of every bot reason and of the coaches' sentences, and the page hints built on them.
CATALOGUES = ["toolkit/core/bots_messages.toml", "toolkit/crew/bots_messages.toml",
              "toolkit/crew/coach_messages.toml", "toolkit/deepblue/bots_messages.toml",
              "toolkit/tranquility/bots_messages.toml", "toolkit/pirats/bots_messages.toml"]
HINT_KEYS = ["deepblue.ui.risk_for_you", "deepblue.ui.coach_bot", "deepblue.ui.hint_text",
             "pirats.ui.hint_line", "seats.bot_moved", "table.hint.text"]


def jargon_in(text: str, lang: str) -> list[str]:
    """The jargon patterns ``text`` contains, and "fraction" for a raw fraction."""
    found = [p for p in JARGON[lang] if re.search(p, text)]
    return found + (["fraction"] if FRACTION.search(text) else [])


def test_the_jargon_check_catches_the_old_sentences():
    # the check itself can fail: the sentences this issue replaced are caught
    old_en = ("Seat 0 plays 3 blue: it keeps every task winnable in 38 of 40 deals consistent with what seat 0 "
              "knows (the next best: 30). bots.crew.sampled")
    old_ja = "席0は3 blueを出します：席0が知っていることと整合する40通りの配り方のうち38通りで"
    assert {r"consistent", r"\bbots\.", r"\w+\.\w+\.\w+"} <= set(jargon_in(old_en, "en"))
    assert jargon_in(old_ja, "ja") == ["整合"]
    assert jargon_in("Seat 1 draws: bust chance 12/19 = 63 % and +1.2 VP expected", "en") == ["fraction"]
    assert jargon_in("The policy bot would: draw", "en") == ["polic"]
    assert jargon_in("Seat 1 plays 3 blue: of 40 ways the other hands could look, 38 keep every task "
                     "winnable (the next best card in 30.5).", "en") == []


def _codes(path: str) -> list[str]:
    import tomllib

    data = tomllib.loads((ROOT / path).read_text(encoding="utf-8"))
    return [k for k, v in data.items() if isinstance(v, dict) and "en" in v]


def _sample_params(code: str) -> dict:
    """Every placeholder of ``code`` filled with a plausible value (a number, a card, a nested reason)."""
    names = {f for lang in ("en", "ja") for _, f, _, _ in Formatter().parse(i18n.catalogue()[code][lang]) if f}
    nested = Event("BOT_CREW_LOW", "bots.crew.low", seat=1, card="3 blue")
    return {n: (nested if n == "why" else 7 if n not in ("card", "cards", "move", "line") else "3 blue")
            for n in names}


@pytest.mark.parametrize("path", CATALOGUES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_catalogued_reason_is_in_plain_words(path, lang):
    codes = _codes(path)
    assert codes, path
    for code in codes:
        text = i18n.translate(code, lang, _sample_params(code))
        assert not jargon_in(text, lang), (code, lang, text)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_pages_hint_lines_are_in_plain_words(lang):
    for key in HINT_KEYS:
        text = i18n.translate(key, lang, _sample_params(key))
        assert not jargon_in(text, lang), (key, lang, text)


def _game_reasons(engine, seats, seed, moves=400, **options) -> list[Decision]:
    """Every decision the bots take in a seeded game (and each optional seat's "not now")."""
    state = engine.new_state(seed, **options)
    table = BotTable(engine, seats, seed)
    decisions = []
    for _ in range(moves):
        for seat in engine.optional_actors(state):
            if table.is_bot(seat):
                decisions.append(table.ask(state, seat))
        step = table.step(state)
        if step is None:
            break
        decisions.append(step[1])
        state = engine.apply(state, step[1].move)
    return decisions


def _games():
    from toolkit.crew import ENGINE as CREW
    from toolkit.deepblue import ENGINE as DEEPBLUE
    from toolkit.pirats import ENGINE as PIRATS
    from toolkit.tranquility import ENGINE as TRANQUILITY
    from toolkit.tranquility.bots import LEVELS as TQ_LEVELS

    # (name, engine, seats, seeds, options): the expert is slow (it weighs many deals), so one game each
    yield "crew-expert", CREW, ["expert", "expert", "beginner"], [5], dict(players=3, mission=3)
    yield "crew-expert-tasks", CREW, ["expert", "beginner", "random"], [8], dict(players=3, mission=9)
    yield "crew-beginner", CREW, ["beginner", "random", "beginner", "beginner"], range(6), dict(players=4, mission=6)
    yield "deepblue", DEEPBLUE, ["policy", "stop-after-3", "stop-after-5", "random"], range(4), dict(players=4)
    yield "pirats", PIRATS, ["greedy", "cautious", "random"], range(3), dict(players=3)
    yield "tranquility", TRANQUILITY, [TQ_LEVELS[i % len(TQ_LEVELS)] for i in range(4)], range(6), dict(players=4)


@pytest.mark.parametrize("name,engine,seats,seeds,options", list(_games()), ids=[g[0] for g in _games()])
def test_every_reason_of_a_seeded_game_is_in_plain_words(name, engine, seats, seeds, options):
    decisions = [d for seed in seeds for d in _game_reasons(engine, seats, seed, **options)]
    assert len(decisions) >= 10, name
    codes = set()
    for d in decisions:
        codes.add(d.reason.code)
        for lang in ("en", "ja"):
            text = d.text(lang)
            assert not jargon_in(text, lang), (name, d.reason, lang, text)
            # the rule id is kept beside the sentence (for the page's small reference), not in it
            assert d.reason.rule not in text
    if name.startswith("crew-expert"):      # the expert's weighed reasons came up, not only its rules of thumb
        assert any("SAMPLED" in c for c in codes), codes


def test_the_rule_id_is_a_small_reference_beside_the_sentence():
    reason = Event("BOT_CREW_SAMPLED", "bots.crew.sampled", seat=0, card="3 blue", wins=38, deals=40, second=30)
    for lang in ("en", "ja"):
        markup = explain_html(reason, lang)
        sentence = re.search(r'<span class="deepsea-text">(.*?)</span>', markup).group(1)
        assert "bots.crew.sampled" not in sentence and "38" in sentence
        ref = re.search(r'<small class="deepsea-rule-ref" title="([^"]*)"><code class="deepsea-rule">'
                        r'bots\.crew\.sampled</code></small>', markup)
        assert ref, markup
        # the tooltip names the rule in the page's language
        from toolkit.core.rules import get

        assert get("bots.crew.sampled").title[lang] in ref.group(1)
        assert markup.index("</span>") < markup.index("deepsea-rule-ref")
    assert rule_ref_html("", "en") == "" and rule_ref_html(None, "ja") == ""


def test_the_page_links_a_rule_reference_to_the_rules_dashboard():
    # the published page turns every code.deepsea-rule into a link to rules.ipynb?rule=<id>; the small
    # reference keeps that element, so its id becomes a link there too
    from toolkit.widgets import page

    assert "code.deepsea-rule" in page._ESM and "rules.ipynb?rule=" in page._ESM
    assert ".deepsea-rule-ref" in page._CSS
    assert '<code class="deepsea-rule">bots.random</code>' in rule_ref_html("bots.random", "en")


def _tables():
    from toolkit.widgets.crew.mission import MissionView
    from toolkit.widgets.deepblue.play import GameView as DeepBlueGame
    from toolkit.widgets.pirats.game import GameView as PiratsGame
    from toolkit.widgets.tranquility.game import GameView as TranquilityGame

    def crew():
        view = MissionView(seed=3, players=4, mission=1, autoplay=False)
        view.driver.run_until_human()
        view._on_hint()
        return view, [view.hint_bar.text, view.bot_line]

    def deepblue():
        view = DeepBlueGame(seed=3, query="")
        view._on_hint()
        return view, [view.hint_bar.text]

    def tranquility():
        view = TranquilityGame(seed=4, players=3, autoplay=False)
        view.driver.run_until_human()
        view._on_reveal()
        view.hint_bar.ask.click()
        return view, [view.hint_bar.text, view.bot_line]

    def pirats():
        view = PiratsGame(seed=3, players=4)
        view.play("draw deck")
        view.play("draw deck")                 # no event loop here: the bots answer at once
        view.hint_bar.ask.click()
        return view, [view.hint_bar.text, view.bot_line]

    return {"crew": crew, "deepblue": deepblue, "tranquility": tranquility, "pirats": pirats}


@pytest.mark.parametrize("game", ["crew", "deepblue", "tranquility", "pirats"])
def test_each_table_shows_the_rule_id_beside_the_bot_sentence(game):
    from toolkit.core.rules import registry

    view, shown = _tables()[game]()
    for lang in ("en", "ja"):
        view.lang = lang
        for widget in shown:
            markup = widget.value
            refs = re.findall(r'<small class="deepsea-rule-ref" title="([^"]+)"><code class="deepsea-rule">'
                              r'([^<]+)</code></small>', markup)
            assert refs, (game, lang, markup)
            for title, rule in refs:
                assert rule in registry() and rule in title
            # the words the learner reads: everything but the reference and the tags
            words = re.sub(r"<[^>]*>", "", re.sub(r'<small class="deepsea-rule-ref".*?</small>', "", markup))
            assert not any(rule in words for _, rule in refs), (game, lang, words)
            assert not jargon_in(words, lang), (game, lang, words)


def test_the_tooltips_of_the_bot_rules_are_in_plain_words():
    # the small reference's tooltip names the rule by its title: a bot rule's title is read beside the reason
    from toolkit.core.rules import registry

    bot_rules = {rid: r for rid, r in registry().items() if rid.startswith("bots.")}
    assert len(bot_rules) > 20
    for rid, rule in bot_rules.items():
        for lang in ("en", "ja"):
            title = rule.title[lang]
            assert not jargon_in(title, lang), (rid, lang, title)
            assert html.escape(title) in rule_ref_html(rid, lang)
