"""The plotly.js copy served by the deepsea template."""

from __future__ import annotations

import pytest

from toolkit.publishing import assets
from toolkit.publishing.kernels import capacity_from_memory


def test_copy_is_versioned_complete_and_replaces_stale_versions(tmp_path):
    stale = tmp_path / "plotly-0.0.1.min.js"
    stale.write_text("old")
    target = assets.ensure_plotly_asset(tmp_path)
    assert target.name == f"plotly-{assets.plotly_version()}.min.js"
    assert target.read_bytes() == assets.plotly_source().read_bytes()
    assert not stale.exists() and not list(tmp_path.glob("*.partial"))
    mtime = target.stat().st_mtime_ns
    assert assets.ensure_plotly_asset(tmp_path) == target and target.stat().st_mtime_ns == mtime  # idempotent


def test_truncated_copy_is_not_served(only_jupyter_path):
    static = only_jupyter_path / "voila" / "templates" / "deepsea" / "static"
    static.mkdir(parents=True)
    (static / assets.asset_name()).write_text("half a file")
    assert assets.find_plotly_asset() is None
    assets.ensure_plotly_asset()
    assert assets.find_plotly_asset() == static / assets.asset_name()


def test_missing_template_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(assets, "template_static_dirs", lambda: [])
    with pytest.raises(FileNotFoundError, match="pip install -e"):
        assets.ensure_plotly_asset()


@pytest.mark.parametrize("total, per, reserve, expected", [(24576, 130, 1024, 181), (4096, 130, 1024, 23),
                                                            (1024, 130, 1024, 1)])
def test_capacity_from_memory(total, per, reserve, expected):
    assert capacity_from_memory(total, per, reserve) == expected


def test_capacity_needs_a_positive_kernel_size():
    with pytest.raises(ValueError):
        capacity_from_memory(4096, 0)


def test_publishing_imports_no_widgets_or_plotly():
    # Voila imports the kernel manager into the server process, which never draws anything.
    import subprocess
    import sys

    code = ("import sys, toolkit.publishing.kernels, toolkit.publishing.assets, toolkit.publishing.comm_guard, "
            "toolkit.publishing.kernel_logs; "
            "print(sorted(m for m in ('ipywidgets', 'plotly', 'anywidget') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
