"""Every rule id and message is complete, documented and exercised.

* every message has English and Japanese text with the same parameters;
* every rule id written in the code is registered (static scan of toolkit/);
* every registered id appears in some test file, and every ``shown_by`` reference exists;
* docs/rules/<game>.md is exactly what the registry generates.
"""

import re
from pathlib import Path

import pytest

from toolkit.core import i18n, rules

ROOT = Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"""["']((?:core|crew|tranquility|deepblue|pirats)\.[a-z0-9_-]+(?:\.[a-z0-9_-]+)+)["']""")
CODE_FILES = [p for p in (ROOT / "toolkit").rglob("*.py")]
TEST_TEXT = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py"))
PACKAGE_RULES = {rid: info for rid, info in rules.registry().items() if info.origin.startswith("toolkit/")}
MODULE_LIKE = re.compile(r"^(toolkit|tests)\.|\.(py|ipynb|toml|json|md)$")


def test_every_message_has_both_languages_with_the_same_parameters():
    assert i18n.missing_translations() == []


def test_every_widget_and_engine_message_key_used_in_code_exists():
    keys = set()
    for path in CODE_FILES:
        text = path.read_text(encoding="utf-8")
        # literal keys only: t("crew.ui.x") or t("crew.ui.x", ...) — not t("prefix." + name)
        keys |= set(re.findall(r"""\bt\(\s*["']([a-z][a-z0-9_]*\.[a-z0-9_.]*[a-z0-9_])["']\s*[,)]""", text))
        keys |= set(re.findall(r"""Term\(\s*["']([^"']+)["']""", text))
    missing = sorted(k for k in keys if not i18n.has(k))
    assert missing == []


def test_every_rule_id_in_the_code_is_registered():
    used = {}
    for path in CODE_FILES:
        for rid in RULE_ID.findall(path.read_text(encoding="utf-8")):
            if not MODULE_LIKE.search(rid) and not rid.startswith(("toolkit.", "tests.")):
                used.setdefault(rid, path.relative_to(ROOT))
    # Message keys share the dotted look (``crew.ui.sonar``); anything else game-prefixed is a rule id.
    unregistered = {rid: str(where) for rid, where in used.items()
                    if rid not in rules.registry() and not i18n.has(rid)}
    assert unregistered == {}


@pytest.mark.parametrize("rule_id", sorted(PACKAGE_RULES))
def test_every_registered_rule_is_exercised_by_a_test(rule_id):
    assert f'"{rule_id}"' in TEST_TEXT or f"'{rule_id}'" in TEST_TEXT, f"no test mentions {rule_id}"


def test_every_shown_by_reference_exists():
    problems = []
    for rid, info in PACKAGE_RULES.items():
        for ref in info.shown_by:
            path, _, name = ref.partition("::")
            file = ROOT / path.split("#")[0]
            if not file.exists():
                problems.append(f"{rid}: {path} does not exist")
            elif name and not re.search(rf"def {re.escape(name.split('[')[0].split('::')[-1])}\b",
                                        file.read_text(encoding="utf-8")):
                problems.append(f"{rid}: {ref} names no test")
    assert problems == []


def test_rule_docs_are_generated_from_the_registry():
    games = sorted({info.game for info in PACKAGE_RULES.values()})
    stale = []
    for game in games:
        page = ROOT / "docs" / "rules" / f"{game}.md"
        expected = rules.render_markdown(game, rules.GAME_TITLES.get(game))
        if not page.exists() or page.read_text(encoding="utf-8") != expected:
            stale.append(str(page.relative_to(ROOT)))
    assert stale == [], "run `make docs` (python -m toolkit.core.rules --write docs/rules)"


SHARED = ROOT.parent / "shared"  # the source texts sit beside the project root (as in CI)


@pytest.mark.skipif(not (SHARED / "rules").is_dir(), reason="the shared rule texts are not beside this checkout")
@pytest.mark.parametrize("rule_id", sorted(r for r, i in PACKAGE_RULES.items() if i.source.startswith("rules/")))
def test_every_passage_is_quoted_verbatim_from_its_source_text(rule_id):
    info = PACKAGE_RULES[rule_id]
    source = SHARED / info.source
    assert source.exists(), f"{rule_id}: source {info.source} does not exist"
    flat = " ".join(source.read_text(encoding="utf-8").split())
    # A passage may elide with "…" between verbatim pieces; each piece must be in the source.
    pieces = [p for p in re.split(r"\s*(?:…|\.\.\.)\s*", " ".join(info.passage.split())) if p]
    missing = [p for p in pieces if p not in flat]
    assert missing == [], f"{rule_id}: not in {info.source}: {missing}"
