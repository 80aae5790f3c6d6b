"""Committed notebooks carry the kernel metadata ipykernel writes, so opening one does not modify it.

JupyterLab sets ``kernelspec`` (name, display_name, language of the kernel's spec) and ``language_info``
(the kernel's ``kernel_info`` reply) when a notebook's kernel starts; a notebook that differs is marked
modified and autosave rewrites it. ``tests/browser/test_jupyterlab.py`` opens one in JupyterLab.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from toolkit.publishing import nbmeta

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = nbmeta.notebook_paths([ROOT / folder for folder in nbmeta.DEFAULT_FOLDERS])


def test_every_folder_has_notebooks():
    assert {p.relative_to(ROOT).parts[0] for p in COMMITTED} == set(nbmeta.DEFAULT_FOLDERS)


def test_kernel_metadata_is_what_the_kernel_reports():
    # What JupyterLab receives from a running kernel: the spec the kernel manager finds and kernel_info.
    from ipykernel.ipkernel import IPythonKernel
    from jupyter_client.kernelspec import KernelSpecManager

    meta = nbmeta.kernel_metadata()
    spec = KernelSpecManager().get_kernel_spec(meta["kernelspec"]["name"])
    assert meta["kernelspec"] == {"name": "python3", "display_name": spec.display_name,
                                  "language": spec.language}
    assert meta["kernelspec"]["display_name"] == "Python 3 (ipykernel)"
    assert meta["language_info"] == IPythonKernel.language_info
    assert meta["language_info"]["version"] == sys.version.split()[0]


@pytest.mark.parametrize("path", COMMITTED, ids=[str(p.relative_to(ROOT)) for p in COMMITTED])
def test_committed_notebook_has_ipykernel_metadata(path):
    meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]
    expected = nbmeta.kernel_metadata()
    hint = f"run: python -m toolkit.publishing.nbmeta {path.relative_to(ROOT)}"
    assert meta.get("kernelspec") == expected["kernelspec"], hint
    info = dict(meta.get("language_info") or {})
    # The Python version is the kernel's: the project's environment writes it (see the module docstring
    # of toolkit.publishing.nbmeta); on another patch release only that value would change.
    assert re.fullmatch(r"3\.\d+\.\d+", str(info.pop("version", ""))), hint
    assert info == {k: v for k, v in expected["language_info"].items() if k != "version"}, hint
    if meta["language_info"]["version"] == sys.version.split()[0]:
        assert not nbmeta.normalise(path, write=False), hint  # byte for byte what the normaliser writes


def test_normaliser_changes_only_kernel_metadata(tmp_path):
    source = ROOT / "dashboards" / "index.ipynb"
    notebook = json.loads(source.read_text(encoding="utf-8"))
    notebook["metadata"]["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    notebook["metadata"].pop("language_info", None)
    copy = tmp_path / "sub" / "x.ipynb"
    copy.parent.mkdir()
    copy.write_text(json.dumps(notebook, indent=2), encoding="utf-8")  # another writer's formatting
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "x-checkpoint.ipynb").write_text("not json")

    run = [sys.executable, "-m", "toolkit.publishing.nbmeta"]
    check = subprocess.run([*run, "--check", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 1 and "x.ipynb" in check.stdout and "checkpoint" not in check.stdout
    assert json.loads(copy.read_text(encoding="utf-8")) == notebook  # --check writes nothing
    subprocess.run([*run, str(tmp_path)], cwd=ROOT, check=True, capture_output=True)

    fixed = json.loads(copy.read_text(encoding="utf-8"))
    assert fixed["metadata"] == {**notebook["metadata"], **nbmeta.kernel_metadata()}
    assert {k: v for k, v in fixed.items() if k != "metadata"} == {k: v for k, v in notebook.items()
                                                                    if k != "metadata"}
    assert copy.read_text(encoding="utf-8") == nbmeta.dumps(fixed)  # nbformat's layout
    again = subprocess.run([*run, "--check", str(copy)], cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout == ""


def test_normaliser_refuses_what_is_not_a_notebook(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.ipynb"):
        nbmeta.notebook_paths([tmp_path / "missing.ipynb"])
    bad = tmp_path / "bad.ipynb"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a notebook"):
        nbmeta.normalise(bad)
