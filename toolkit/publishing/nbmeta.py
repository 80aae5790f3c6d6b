"""Give committed notebooks the kernel metadata ipykernel writes, so opening one does not modify it.

JupyterLab, when a notebook's kernel starts, sets ``metadata.kernelspec`` from the kernel's spec
(``"Python 3 (ipykernel)"``) and ``metadata.language_info`` from the kernel's ``kernel_info`` reply. A
committed notebook that says ``"Python 3"`` or has no ``language_info`` is therefore marked modified on
open, and autosave (or JupyterLab's Voila preview, which saves first) rewrites a tracked file. This
module writes exactly those two entries, taken from the installed ipykernel, and touches nothing else::

    python -m toolkit.publishing.nbmeta            # every notebook under notebooks/ and dashboards/
    python -m toolkit.publishing.nbmeta --check    # list the ones that differ, exit 1 if any
    python -m toolkit.publishing.nbmeta path/to/x.ipynb other/folder

``make notebooks`` runs it after executing the notebooks (nbconvert keeps the old ``kernelspec``).
``language_info.version`` is the Python version of the kernel, as JupyterLab records it: run this with
the project's environment.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Iterable

DEFAULT_FOLDERS = ("notebooks", "dashboards")


def kernel_metadata() -> dict[str, Any]:
    """``{"kernelspec": ..., "language_info": ...}`` as JupyterLab writes them for this environment's kernel.

    >>> meta = kernel_metadata()
    >>> meta["kernelspec"]["display_name"], meta["language_info"]["name"]
    ('Python 3 (ipykernel)', 'python')
    """
    from ipykernel.ipkernel import IPythonKernel  # the kernel's own kernel_info answer
    from ipykernel.kernelspec import KERNEL_NAME, get_kernel_dict

    spec = get_kernel_dict()
    # JupyterLab's NotebookPanel stores these three keys of the spec (name, display_name, language).
    kernelspec = {"display_name": spec["display_name"], "language": spec["language"], "name": KERNEL_NAME}
    language_info = json.loads(json.dumps(IPythonKernel.language_info))
    return {"kernelspec": kernelspec, "language_info": language_info}


def notebook_paths(targets: Iterable[str | Path]) -> list[Path]:
    """The ``.ipynb`` files named or found (recursively) under ``targets``, checkpoints left out."""
    found: set[Path] = set()
    for target in map(Path, targets):
        if target.is_dir():
            found.update(p for p in target.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
        elif target.suffix == ".ipynb" and target.is_file():
            found.add(target)
        else:
            raise FileNotFoundError(f"no notebook or folder at {str(target)!r}")
    return sorted(found)


def dumps(notebook: dict[str, Any]) -> str:
    """Text as nbformat (and so JupyterLab and nbconvert) writes it: sorted keys, indent 1, UTF-8."""
    return json.dumps(notebook, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def normalise(path: Path, meta: dict[str, Any] | None = None, write: bool = True) -> bool:
    """Set ``path``'s kernelspec and language_info to ``meta`` (default: :func:`kernel_metadata`).

    Returns True when the file's text changes (written only if ``write``). Cells and every other
    metadata entry are kept as they are.
    """
    meta = kernel_metadata() if meta is None else meta
    text = path.read_text(encoding="utf-8")
    notebook = json.loads(text)
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise ValueError(f"{path} is not a notebook")
    notebook.setdefault("metadata", {}).update(json.loads(json.dumps(meta)))
    new = dumps(notebook)
    if new == text:
        return False
    if write:
        path.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", default=list(DEFAULT_FOLDERS),
                        help="notebooks or folders (default: notebooks/ and dashboards/)")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook differs")
    args = parser.parse_args(argv)
    meta = kernel_metadata()
    changed = [p for p in notebook_paths(args.targets) if normalise(p, meta, write=not args.check)]
    for path in changed:
        print(("differs: " if args.check else "normalised: ") + str(path))
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
