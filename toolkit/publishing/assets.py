"""The plotly.js copy that the ``deepsea`` Voila template serves, so a page loads plotly.js once.

The file is ~4.8 MB and belongs to the installed plotly package, so it is not committed: it is copied
(by ``make serve``, by :class:`toolkit.publishing.kernels.CappedKernelManager` when Voila starts, or by
``python -m toolkit.publishing.assets``) into the ``static/`` folder of the ``deepsea`` template that Voila
uses, the first on the Jupyter path: normally the copy installed with the package in
``<prefix>/share/jupyter/voila/templates/deepsea/`` (the repository's own folder when ``JUPYTER_PATH`` names
it, as in the tests), under a name carrying plotly's version; in the repository it is git-ignored.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from jupyter_core.paths import jupyter_path

TEMPLATE = "deepsea"


def plotly_version() -> str:
    from importlib.metadata import version

    return version("plotly")


def plotly_source() -> Path:
    """plotly.min.js of the installed plotly package, located without importing plotly."""
    from importlib.util import find_spec

    spec = find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("plotly is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "package_data" / "plotly.min.js"


def asset_name() -> str:
    return f"plotly-{plotly_version()}.min.js"


def template_static_dirs() -> list[Path]:
    """``static/`` of every ``deepsea`` template folder on the Jupyter path (first wins, as in Voila)."""
    return [Path(p) / "static" for p in jupyter_path("voila", "templates", TEMPLATE) if Path(p).is_dir()]


def find_plotly_asset() -> Path | None:
    """The served copy for the installed plotly version, if one exists and is complete."""
    try:
        name, size = asset_name(), plotly_source().stat().st_size
    except (FileNotFoundError, ImportError, OSError):
        return None
    for static in template_static_dirs():
        candidate = static / name
        if candidate.is_file() and candidate.stat().st_size == size:
            return candidate
    return None


def ensure_plotly_asset(static_dir: Path | None = None) -> Path:
    """Copy plotly.js into the template's static folder (atomically; stale versions removed)."""
    if static_dir is None:
        dirs = template_static_dirs()
        if not dirs:
            raise FileNotFoundError(
                f"no '{TEMPLATE}' Voila template on the Jupyter path {jupyter_path('voila', 'templates')}: "
                "install the package (`pip install -e .` places it in <prefix>/share/jupyter) "
                "or set JUPYTER_PATH=<repo>/share/jupyter")
        static_dir = dirs[0]
    static_dir.mkdir(parents=True, exist_ok=True)
    source, target = plotly_source(), static_dir / asset_name()
    if target.is_file() and target.stat().st_size == source.stat().st_size:
        return target
    partial = target.with_suffix(".partial")
    shutil.copyfile(source, partial)
    partial.replace(target)  # a visitor never fetches a half-written file
    for old in static_dir.glob("plotly-*.min.js"):
        if old != target:
            old.unlink(missing_ok=True)
    return target


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--static-dir", type=Path, default=None,
                        help="target folder (default: static/ of the first deepsea template on the Jupyter path, "
                             "normally the one installed in <prefix>/share/jupyter)")
    args = parser.parse_args(argv)
    print(ensure_plotly_asset(args.static_dir))


if __name__ == "__main__":
    main()
