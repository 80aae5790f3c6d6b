"""One bilingual source per teaching notebook, two notebooks made from it (English and Japanese twins).

A source is a text file ``notebooks/source/<game>/<name>.nb.md``; cells are separated by marker lines::

    %% markdown          a markdown cell: its English text follows
    %% ja                the same cell's Japanese text follows (every markdown cell needs both)
    %% code              a code cell, shared by both twins

In code, ``@LANG@`` becomes ``"en"`` or ``"ja"``, so the code can print its messages and build its views
in the twin's language (``LANG = @LANG@``). The twins are ``notebooks/<game>/<name>.ipynb`` and
``notebooks/<game>/ja/<name>.ipynb``; relative links of the Japanese text are rewritten for the deeper
folder, pointing at a Japanese twin where one exists. Because both come from one file they cannot drift;
``tests/publishing/test_nbtwin.py`` checks that the committed twins hold exactly the cells this makes.

``python -m toolkit.publishing.nbtwin`` writes the twins whose cells changed (outputs of unchanged ones
are kept); ``--execute`` also runs every written notebook (``make twins``).
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

LANGS = ("en", "ja")
SOURCE_DIR = Path("notebooks") / "source"
SUFFIX = ".nb.md"
_MARKER = re.compile(r"^%% (markdown|ja|code)\s*$")
_LINK = re.compile(r"(\]\()([^)\s]+)(\))")


class SourceError(ValueError):
    """A source file that does not follow the format (the message names the file and line)."""


@dataclass(frozen=True)
class Cell:
    kind: str                 # "markdown" or "code"
    text: dict[str, str]      # {"en": ..., "ja": ...}; a code cell holds the same text under both


def parse(text: str, origin: str = "<source>") -> list[Cell]:
    cells: list[Cell] = []
    kind, lang, buf, parts = None, None, [], {}

    def close(line_no: int) -> None:
        nonlocal kind, parts
        if kind is None:
            if "".join(buf).strip():
                raise SourceError(f"{origin}:{line_no}: text before the first '%% markdown' or '%% code'")
            return
        parts[lang] = "".join(buf).strip("\n")
        if kind == "markdown":
            missing = [lg for lg in LANGS if not parts.get(lg, "").strip()]
            if missing:
                raise SourceError(f"{origin}:{line_no}: a markdown cell lacks its {', '.join(missing)} text")
            cells.append(Cell("markdown", dict(parts)))
        else:
            cells.append(Cell("code", {lg: parts["en"] for lg in LANGS}))
        kind, parts = None, {}

    for no, line in enumerate(text.splitlines(keepends=True), 1):
        m = _MARKER.match(line)
        if not m:
            buf.append(line)
            continue
        word = m.group(1)
        if word == "ja":
            if kind != "markdown" or lang != "en":
                raise SourceError(f"{origin}:{no}: '%% ja' must follow the English text of a markdown cell")
            parts["en"] = "".join(buf).strip("\n")
            lang, buf = "ja", []
            continue
        close(no)
        kind, lang, buf = word, "en", []
    close(len(text.splitlines()) + 1)
    return cells


def _ja_link(target: str, en_dir: str, ja_dir: str, root: Path) -> str:
    if re.match(r"^[a-z]+:|^#|^/", target):
        return target
    path, sep, anchor = target.partition("#")
    resolved = posixpath.normpath(posixpath.join(en_dir, path))
    if resolved.endswith(".ipynb"):
        twin = posixpath.join(posixpath.dirname(resolved), "ja", posixpath.basename(resolved))
        if (root / twin).exists() or (root / SOURCE_DIR / posixpath.relpath(resolved, "notebooks")).with_suffix(
                SUFFIX).exists():
            resolved = twin
    return posixpath.relpath(resolved, ja_dir) + sep + anchor


def twin_paths(source: Path, root: Path) -> dict[str, Path]:
    rel = source.relative_to(root / SOURCE_DIR)
    game, name = rel.parent, rel.name[: -len(SUFFIX)] + ".ipynb"
    return {"en": root / "notebooks" / game / name, "ja": root / "notebooks" / game / "ja" / name}


def build(source: Path, root: Path) -> dict[str, dict]:
    """The two notebooks (unexecuted, as JSON-able dicts) made from ``source``."""
    cells = parse(source.read_text(encoding="utf-8"), str(source.relative_to(root)))
    paths = twin_paths(source, root)
    en_dir = posixpath.dirname(paths["en"].relative_to(root).as_posix())
    ja_dir = posixpath.dirname(paths["ja"].relative_to(root).as_posix())
    out = {}
    for lang in LANGS:
        nb_cells = []
        for i, cell in enumerate(cells):
            text = cell.text[lang]
            cell_id = f"{lang}-{i:02d}"
            if cell.kind == "code":
                text = text.replace("@LANG@", json.dumps(lang))
                nb_cells.append({"cell_type": "code", "execution_count": None, "id": cell_id, "metadata": {},
                                 "outputs": [], "source": text})
            else:
                if lang == "ja":
                    text = _LINK.sub(lambda m: m.group(1) + _ja_link(m.group(2), en_dir, ja_dir, root) + m.group(3),
                                     text)
                nb_cells.append({"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": text})
        out[lang] = {"cells": nb_cells, "metadata": {"language": lang}, "nbformat": 4, "nbformat_minor": 5}
    return out


def cell_texts(notebook: dict) -> list[tuple[str, str]]:
    """What must match between a committed twin and its source: each cell's kind and text."""
    return [(c["cell_type"], "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
            for c in notebook["cells"]]


def sources(root: Path) -> list[Path]:
    return sorted((root / SOURCE_DIR).rglob("*" + SUFFIX))


def write(root: Path, execute: bool = False, only: list[str] | None = None) -> list[Path]:
    """Write the twins whose cells differ from their source (all of them with ``only``); return them."""
    written = []
    for source in sources(root):
        if only and not any(o in str(source) for o in only):
            continue
        built, paths = build(source, root), twin_paths(source, root)
        for lang in LANGS:
            path = paths[lang]
            if path.exists() and not only:
                committed = json.loads(path.read_text(encoding="utf-8"))
                if cell_texts(committed) == cell_texts(built[lang]):
                    continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(built[lang], ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            written.append(path)
    if execute and written:
        env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--inplace",
                        "--ExecutePreprocessor.store_widget_state=False", "--ExecutePreprocessor.timeout=600",
                        *map(str, written)], check=True, env=env)
        subprocess.run([sys.executable, "-m", "toolkit.publishing.nbmeta", *map(str, written)], check=True, env=env)
    return written


if __name__ == "__main__":  # python -m toolkit.publishing.nbtwin [--execute] [--all] [name ...]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    force = "--all" in sys.argv
    for p in write(Path.cwd(), execute="--execute" in sys.argv, only=args or ([""] if force else None)):
        print("wrote", p)
