"""The published configuration, checked without a server: what `make serve` runs and what voila.json says."""

from __future__ import annotations

import json
import re

import pytest

from publishing.conftest import DASHBOARDS, ROOT

CONFIG = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))


def test_serve_runs_standalone_voila_on_the_dashboards_folder_only():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^serve:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert recipe, "the Makefile has no serve recipe"
    commands = recipe.group(1)
    assert re.search(r"\$\(BIN\)/voila dashboards\b", commands), commands
    # The Jupyter Server extension has no message filter: never publish through it.
    assert "jupyter server" not in commands and "jupyter lab" not in commands and "--ServerApp" not in commands


def test_voila_config_is_locked_down():
    voila, conf = CONFIG["Voila"], CONFIG["VoilaConfiguration"]
    assert voila["ip"] == "127.0.0.1"
    assert conf["strip_sources"] is True
    assert conf["show_tracebacks"] is False
    assert conf["template"] == "deepsea"
    # A visitor may not switch to another template or theme by query string.
    assert conf["allow_template_override"] == "NO" and conf["allow_theme_override"] == "NO"
    # No notebook, Python file, config or hidden file is ever served by /voila/files/.
    deny = [re.compile(p, re.I) for p in conf["file_denylist"]]
    for path in ("index.ipynb", "a/b.py", "voila.json", "x.toml", ".git/config", "assets/.secret.png"):
        assert any(p.fullmatch(path) for p in deny), path
    allow = [re.compile(p, re.I) for p in conf["file_allowlist"]]
    assert not any(p.fullmatch("index.ipynb") or p.fullmatch("run.py") for p in allow)


def test_idle_kernels_are_culled_and_capped():
    cull = CONFIG["MappingKernelManager"]
    assert 0 < cull["cull_idle_timeout"] <= 3600 and 0 < cull["cull_interval"] <= cull["cull_idle_timeout"]
    assert CONFIG["VoilaConfiguration"]["multi_kernel_manager_class"] == "toolkit.publishing.kernels.CappedKernelManager"
    assert CONFIG["CappedKernelManager"]["max_kernels"] >= 1


def test_plotly_labextension_is_not_shipped_to_visitors():
    # Views draw through toolkit.widgets.Chart; the mime renderer would add 4.8 MB to every page.
    assert "jupyterlab-plotly" in CONFIG["VoilaConfiguration"]["extension_denylist"]


def test_served_folder_holds_only_dashboards_and_their_assets():
    for path in DASHBOARDS.rglob("*"):
        rel = path.relative_to(DASHBOARDS)
        if ".ipynb_checkpoints" in rel.parts or path.is_dir():
            continue
        if len(rel.parts) == 1:
            assert path.suffix == ".ipynb", f"dashboards/{rel} is not a dashboard notebook"
        else:
            assert rel.parts[0] == "assets" and path.suffix.lower() in {".png", ".jpg", ".gif", ".svg", ".css"}, \
                f"dashboards/{rel} is neither a dashboard nor an asset"


@pytest.mark.parametrize("name", sorted(p.name for p in DASHBOARDS.glob("*.ipynb")))
def test_dashboards_are_committed_without_outputs_or_widget_state(name):
    nb = json.loads((DASHBOARDS / name).read_text(encoding="utf-8"))
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), name
    assert "widgets" not in nb["metadata"], f"{name} carries widget state (plotly.js may be inside)"
