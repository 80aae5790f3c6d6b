"""The teaching guide (docs/teaching.md and its Japanese twin docs/teaching.ja.md) matches the project.

Its lesson links open dashboards that exist, with parameters the guide documents; both languages give the
same links; every notebook is placed in the order; the analysis notebooks are titled "Going deeper".
"""

import json
import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDES = {"en": ROOT / "docs" / "teaching.md", "ja": ROOT / "docs" / "teaching.ja.md"}
TEXT = {lang: path.read_text(encoding="utf-8") for lang, path in GUIDES.items()}
LINK = re.compile(r"`(http://HOST/voila/render/[^`]+)`")
GOING_DEEPER = {"crew": {"06-winnable", "07-task-difficulty", "08-playing-with-bots"}, "deepblue": {"01-gem-bag-risk"},
                "tranquility": {"02-feasibility", "04-strategy-study"}, "pirats": {"04-bots"}}
NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").glob("*/*.ipynb"))


def lesson_links(lang):
    return LINK.findall(TEXT[lang])


def documented_parameters(lang):
    section = TEXT[lang].split("\n## ")
    table = next(s for s in section if s.startswith(("URL parameters", "URLパラメータ")))
    return set(re.findall(r"`([a-z_]+)(?:=|`)", "\n".join(line.split("|")[1] for line in table.splitlines()
                                                          if line.startswith("| `"))))


def test_both_languages_give_the_same_lesson_links():
    assert lesson_links("en") and lesson_links("en") == lesson_links("ja")


@pytest.mark.parametrize("link", lesson_links("en"))
def test_each_lesson_link_opens_a_dashboard_with_documented_parameters(link):
    parts = urlsplit(link)
    dashboard = ROOT / "dashboards" / Path(parts.path).name
    assert dashboard.is_file(), link
    params = dict(parse_qsl(parts.query))
    assert params.get("display") == "large" and params.get("lang") == "ja", link
    for lang in GUIDES:
        assert set(params) <= documented_parameters(lang), (lang, set(params) - documented_parameters(lang))
    if "seats" in params:   # a projector game is played from one learner's seat, the bots in step mode
        assert params["seats"].split(",")[0] == "you" and params["seats"].count("you") == 1
        assert params.get("step") == "1"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_every_notebook_has_its_place_in_the_order(path):
    title = json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"]
    title = "".join(title) if isinstance(title, list) else title
    deeper = path.stem in GOING_DEEPER[path.parent.name]
    assert title.startswith("# Going deeper") == deeper, title.splitlines()[0]
    for lang in GUIDES:
        row = next(line for line in TEXT[lang].splitlines() if f"`{path.parent.name}/00-first-game" in line
                   or f"`{path.parent.name}/ja/00-first-game" in line)
        assert f"`{path.stem}`" in row or f"/{path.stem}`" in row, (lang, path.stem)
        going_deeper_cell = row.rstrip(" |").split(" | ")[-1]
        assert (f"`{path.stem}`" in going_deeper_cell) == deeper, (lang, path.stem)


def test_every_table_rule_is_in_the_guide():
    from toolkit.core.tryit import table_rules
    for game in ("crew", "tranquility", "deepblue", "pirats"):
        for rule in table_rules(game):
            assert all(f"`{rule.id}`" in text for text in TEXT.values()), rule.id
