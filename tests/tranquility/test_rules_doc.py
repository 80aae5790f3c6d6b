"""The rule registry for Tranquility: passages are verbatim, every id is documented and every message is
bilingual. (The project-wide meta-tests check ids used in code, shown_by and the generated page.)"""

import re
from pathlib import Path

import pytest

from toolkit.core import i18n
from toolkit.core.rules import render_markdown, rules_for

SHARED = Path(__file__).resolve().parents[3] / "shared"
RULES = rules_for("tranquility")


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_passage_is_quoted_verbatim_from_its_source(rule):
    source = SHARED / rule.source
    if not source.exists():
        pytest.skip(f"shared source {source} is not on this machine")
    # Markdown sources wrap long lines; a passage is verbatim up to that line wrapping, and may elide with
    # "…" between verbatim pieces (as tests/test_registry.py allows every passage)
    flat = " ".join(source.read_text(encoding="utf-8").split())
    pieces = [p for p in re.split(r"\s*(?:…|\.\.\.)\s*", " ".join(rule.passage.split())) if p]
    assert [p for p in pieces if p not in flat] == []


def test_every_tranquility_message_has_both_languages():
    keys = [k for k in i18n.catalogue() if k.startswith(("TRANQ_", "tranquility."))]
    assert len(keys) > 70
    assert i18n.missing_translations(keys) == []


def test_generated_page_is_current():
    page = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tranquility.md"
    assert page.read_text(encoding="utf-8") == render_markdown("tranquility", "Tranquility")
