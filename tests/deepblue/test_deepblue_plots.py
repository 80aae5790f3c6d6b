"""Deep Blue's risk charts: the plain-dict specs the gem-bag view sends must be exactly the figures the
validated ``go.Figure`` builders make (same JSON), in both languages."""

from __future__ import annotations

import json
from fractions import Fraction

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from toolkit.core.i18n import translate as t
from toolkit.deepblue.gems import SETUP_BAG
from toolkit.deepblue.risk import _survival, _vp_distribution, optimal_policy, position
from toolkit.plots import deepblue as plots
from toolkit.widgets import Chart
from toolkit.widgets.deepblue import GemBagView


def _cases(lang: str):
    pos = position(SETUP_BAG, {}, {}, [])
    curve = [_survival(pos, k) for k in range(pos.total + 1)]
    policy = optimal_policy({"silver": 6, "gold": 3, "black": 2, "blue": 2}, {}, {}, [], leader_bonus=2)
    return {
        "survival": (plots.survival_spec(curve, lang, mark=4), plots.survival_figure(curve, lang, mark=4)),
        "survival, no mark": (plots.survival_spec(curve, lang), plots.survival_figure(curve, lang)),
        "vp": (plots.vp_distribution_spec(_vp_distribution(pos, 3), lang),
               plots.vp_distribution_figure(_vp_distribution(pos, 3), lang)),
        "stop vs go": (plots.stop_vs_go_spec([Fraction(0), Fraction(5, 2), Fraction(3)], Fraction(7, 2), lang),
                       plots.stop_vs_go_figure([Fraction(0), Fraction(5, 2), Fraction(3)], Fraction(7, 2), lang)),
        "policy": (plots.policy_spec(policy, lang), plots.policy_figure(policy, lang)),
    }


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_spec_is_the_validated_figure(lang):
    for name, (spec, figure) in _cases(lang).items():
        sent = json.loads(pio.to_json(spec, validate=False))
        assert sent == json.loads(pio.to_json(figure)), name
        # and plotly accepts the spec as it stands (an invalid property would raise here)
        assert json.loads(pio.to_json(go.Figure(spec))) == sent, name


def test_the_stop_vs_go_line_is_what_add_hline_draws():
    # the spec writes out add_hline by hand: compare with plotly's own helper, so an upgrade that changes it shows
    fig = go.Figure(go.Scatter(x=[0], y=[0]))
    fig.add_hline(y=1.5, line_dash="dash", line_color="#27ae60", annotation_text="x")
    spec = plots.stop_vs_go_spec([Fraction(0)], Fraction(3, 2))
    assert fig.layout.shapes[0].to_plotly_json() == spec["layout"]["shapes"][0]
    assert {**fig.layout.annotations[0].to_plotly_json(), "text": None} == {**spec["layout"]["annotations"][0], "text": None}


def test_a_chart_sends_a_spec_as_is_and_validates_it_only_when_asked():
    spec = plots.survival_spec([Fraction(1), Fraction(1, 2)], "ja", mark=1)
    chart = Chart(spec)
    assert json.loads(chart.figure_json) == json.loads(pio.to_json(spec))
    assert chart.figure.layout.title.text == spec["layout"]["title"]["text"]     # a go.Figure on demand
    assert repr(chart) == f"Chart(traces=2, title={spec['layout']['title']['text']!r})"
    with pytest.raises(TypeError, match="got str"):
        chart.update("not a figure")


def test_gem_bag_charts_follow_the_language():
    v = GemBagView(query="")
    charts = (v._survival_chart, v._vp_chart, v._stop_go_chart, v._policy_chart)
    english = [json.loads(c.figure_json)["layout"]["title"]["text"] for c in charts]
    v.lang = "ja"
    japanese = [json.loads(c.figure_json)["layout"]["title"]["text"] for c in charts]
    assert all(e != j for e, j in zip(english, japanese)), (english, japanese)
    assert all(json.loads(c.figure_json)["data"] for c in charts)


def test_the_policy_chart_has_one_marker_per_distinct_spot_and_misses_none():
    policy = optimal_policy({"silver": 6, "gold": 3, "red": 2, "black": 2, "blue": 2}, {}, {"any": 1}, [], leader_bonus=1)
    rows = policy.table()
    spec = plots.policy_spec(policy, "en")
    seen_status = sorted({r["hazards"] for r in rows})
    shown = set()
    for trace in spec["data"]:
        advice = "go" if trace["marker"]["color"] == "#27ae60" else "stop"
        status = trace["name"].split(" — ", 1)[1]  # English: the situation key as the policy gives it
        i = seen_status.index(status)
        pts = [(round(x - (i - len(seen_status) / 2) * 0.06), y) for x, y in zip(trace["x"], trace["y"])]
        assert len(pts) == len(set(pts)), "a spot is drawn twice"
        shown |= {(advice, status, d, vp) for d, vp in pts}
    assert shown == {(r["advice"], r["hazards"], r["draws"], r["banked_vp"]) for r in rows}
    assert len(rows) > len(shown)          # the bag has states that share a spot: the dedup did something


def test_a_language_switch_reuses_the_analysis(monkeypatch):
    import toolkit.widgets.deepblue.gem_bag as gem_bag

    calls = []
    real = gem_bag.optimal_policy
    monkeypatch.setattr(gem_bag, "optimal_policy", lambda *a, **k: calls.append(1) or real(*a, **k))
    v = GemBagView(query="")
    assert len(calls) == 1
    v.lang = "ja"
    v.lang = "en"
    assert len(calls) == 1                  # only text and charts were redrawn
    v._bag["gold"].value = 4                # a new input: a new policy
    assert len(calls) == 2 and "deepsea-refusal" not in v._message.value


def test_spots_and_table_head_agree_with_the_full_table():
    policy = optimal_policy({"silver": 6, "gold": 3, "red": 2, "black": 2, "blue": 2}, {"silver": 1}, {"any": 1}, [],
                            leader_bonus=2, bonus_kept_on_bust=False)
    rows = policy.table()
    expected = list(dict.fromkeys((r["advice"], r["hazards"], r["draws"], r["banked_vp"]) for r in rows))
    assert policy.spots() == expected
    fresh = optimal_policy({"silver": 6, "gold": 3, "red": 2, "black": 2, "blue": 2}, {"silver": 1}, {"any": 1}, [],
                           leader_bonus=2, bonus_kept_on_bust=False)
    for n in (0, 1, 7, 40, len(rows) + 5):
        assert fresh.table_head(n) == rows[:n]          # built without the rest of the table
    assert policy.table_head(7) == rows[:7]             # and read from it once it exists


def test_the_policy_chart_names_the_hazard_gems_in_the_page_language():
    policy = optimal_policy({"silver": 6, "gold": 3, "black": 2, "blue": 2}, {}, {}, [], leader_bonus=2)
    for lang in ("en", "ja"):
        spec = plots.policy_spec(policy, lang)
        texts = [trace["name"] + trace["hovertemplate"] for trace in spec["data"]]
        black, blue = t("deepblue.gem.black", lang), t("deepblue.gem.blue", lang)
        assert texts and all(black in s and blue in s for s in texts), texts
        if lang == "ja":
            assert not any("black" in s or "blue" in s for s in texts), texts
