"""Games are named on every page as their rule books name them."""

from pathlib import Path

import pytest

from toolkit.core.i18n import translate

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "rules"
# The Japanese rule book's name of each game (the toolkit's earlier names on the left).
OLD_NAMES = {"ドブネズミ海賊団": "下水道の海賊ネズミ", "トランクイリティ": "トランクウィリティ", "ディープブルー": "ディープ・ブルー"}


NAMES = {"pirats": ("下水道の海賊ネズミ", "sewer-pirats.ja.txt"), "tranquility": ("トランクウィリティ", "tranquility.ja.txt"),
         "deepblue": ("ディープ・ブルー", "deep-blue.ja.txt"), "crew": ("ザ・クルー：深海に眠る遺跡", "crew-deep-sea.ja.txt")}


@pytest.mark.parametrize("game", sorted(NAMES))
def test_the_japanese_name_of_each_game_is_the_rule_books(game):
    assert translate(f"game.{game}", "ja") == NAMES[game][0]


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared rule texts are not beside this checkout")
@pytest.mark.parametrize("game", sorted(NAMES))
def test_the_rule_book_uses_that_name(game):
    name, text = NAMES[game]
    assert name in (SHARED / text).read_text(encoding="utf-8")


@pytest.mark.parametrize("folder", ["toolkit", "dashboards", "notebooks", "docs"])
def test_no_page_uses_an_old_name(folder):
    found = [str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*")
             if p.is_file() and p.suffix in {".py", ".toml", ".ipynb", ".md", ".json", ".js"}
             and any(old in p.read_text(encoding="utf-8", errors="replace") for old in OLD_NAMES)]
    assert found == []
