"""pyproject.toml and environment.yml list the same dependencies; package data ships in the wheel."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_environment_yml_lists_exactly_the_pyproject_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra, reqs in project["optional-dependencies"].items():
        if extra in ("dashboards", "test"):
            wanted |= {_name(r) for r in reqs}
    listed = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        m = re.match(r"\s+-\s+([A-Za-z0-9_.\-]+)", line)
        if m and m.group(1) not in ("python", "pip"):
            listed.add(m.group(1).lower().replace("_", "-"))
    assert listed == wanted, f"only in environment.yml: {listed - wanted}; only in pyproject: {wanted - listed}"


def test_package_data_is_inside_the_package_tree():
    # hatchling ships every file under toolkit/ in the wheel; data must not live outside it.
    data = [p for p in (ROOT / "toolkit").rglob("*") if p.suffix in (".json", ".toml", ".csv")]
    assert any(p.name == "messages.toml" for p in data) and any(p.name == "rules.toml" for p in data)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["toolkit"]


def test_readme_quick_start_has_exactly_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1]
    block = section.split("```", 2)[1]
    commands = [line for line in block.splitlines()[1:] if line.strip()]
    assert commands == ["make serve", "make test"]
    assert "make test" in (ROOT / ".ci" / "run").read_text()
