"""Keys built at run time (per ship, species, token, colour, variant, example) exist in English and Japanese,
and the rules file quotes its source passages verbatim."""

from pathlib import Path

import pytest

from toolkit.core import i18n, rules
from toolkit.pirats import BONUS_KINDS, COLOURS, LOOT_KINDS, SHIPS, SPECIES, VARIANTS
from toolkit.widgets.pirats.scoring import EXAMPLES

SHARED = Path(__file__).resolve().parents[3] / "shared"

KEYS = ([f"pirats.ship.{s}" for s in SHIPS] + [f"pirats.card.{s}" for s in SHIPS]
        + [f"pirats.species.{s}" for s in SPECIES] + [f"pirats.token.{k}" for k in LOOT_KINDS + BONUS_KINDS]
        + [f"pirats.colour.{c}" for c in COLOURS] + [f"pirats.ui.variant.{v}" for v in VARIANTS]
        + [f"pirats.ui.example_{k}" for k in EXAMPLES] + [f"pirats.space.{n}" for n in (1, 2, 3)]
        + ["pirats.space.area", "pirats.space.captain", "pirats.source.deck"])


@pytest.mark.parametrize("key", KEYS)
def test_dynamic_keys_exist_in_both_languages(key):
    assert i18n.has(key)
    assert i18n.translate(key, "en") != i18n.translate(key, "ja")


@pytest.mark.skipif(not (SHARED / "rules" / "sewer-pirats.ja.txt").exists(), reason="shared sources not present")
def test_every_passage_is_quoted_verbatim_from_its_source():
    pirats = [r for r in rules.registry().values() if r.game == "pirats"]
    assert len(pirats) >= 45
    for r in pirats:
        text = (SHARED / r.source).read_text(encoding="utf-8")
        assert r.passage in text, f"{r.id}: passage not found in {r.source}"
