"""The dashboards gallery: every dashboard in a folder, from its own notebook metadata.

A dashboard declares itself in its notebook metadata (``"deepsea": {"game", "order", "title", "teaches"}``),
so adding a dashboard never means editing the gallery.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import ipywidgets as widgets

from toolkit import GAMES
from toolkit.core import i18n
from toolkit.core.errors import DataError
from toolkit.widgets.base import View, esc, t
from toolkit.widgets.markup import heading

GAME_ORDER = {g: i for i, g in enumerate(GAMES)}


@dataclass(frozen=True)
class DashboardEntry:
    name: str          # file stem, e.g. "crew-mission"
    game: str
    order: int
    title: Mapping[str, str]
    teaches: Mapping[str, str]
    has_thumbnail: bool = False

    @property
    def href(self) -> str:
        # Relative to /voila/render/index.ipynb, so it works behind any base URL.
        return f"{self.name}.ipynb"

    @property
    def thumbnail_href(self) -> str:
        # Voila serves the dashboards folder's allow-listed files (png) under /voila/files/.
        return f"../files/assets/thumbnails/{self.name}.png"


def read_entry(path: Path) -> DashboardEntry:
    """The gallery entry of one dashboard notebook; :class:`DataError` names what is missing."""
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]["deepsea"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{path.name}: no 'deepsea' gallery metadata ({exc!s})") from None
    for field in ("game", "title", "teaches"):
        if field not in meta:
            raise DataError(f"{path.name}: gallery metadata lacks {field!r}")
    for field in ("title", "teaches"):
        if not all(isinstance(meta[field].get(lang), str) and meta[field][lang] for lang in ("en", "ja")):
            raise DataError(f"{path.name}: gallery metadata {field!r} needs en and ja text")
    thumbnail = path.parent / "assets" / "thumbnails" / f"{path.stem}.png"
    return DashboardEntry(path.stem, str(meta["game"]), int(meta.get("order", 100)),
                          dict(meta["title"]), dict(meta["teaches"]), thumbnail.is_file())


def discover(folder: Path | str = ".") -> list[DashboardEntry]:
    """Every dashboard in ``folder`` except the gallery itself, by game then order."""
    entries = [read_entry(p) for p in sorted(Path(folder).glob("*.ipynb")) if p.stem != "index"]
    return sorted(entries, key=lambda e: (GAME_ORDER.get(e.game, 99), e.order, e.name))


class Gallery(View):
    """The front page: one card per dashboard with what it teaches, in English or Japanese."""

    def __init__(self, folder: Path | str = ".", lang: str = "en"):
        super().__init__(lang=lang)
        self.add_class("deepsea-gallery")
        self.entries = discover(folder)
        self._body = widgets.HTML()
        self._body.add_class("deepsea-gallery-body")
        self._finish([self._body])
        self.refresh()

    def refresh(self) -> None:
        lang = self.lang
        parts = [_GALLERY_CSS,
                 heading(t("ui.gallery.title", lang), t("ui.gallery.intro", lang), level=2)]
        current = None
        for entry in self.entries:
            if entry.game != current:
                if current is not None:
                    parts.append("</ul>")
                current = entry.game
                game = t(f"game.{entry.game}", lang) if i18n.has(f"game.{entry.game}") else entry.game
                parts.append(heading(game) + "<ul class='deepsea-gallery-list'>")
            picture = (f"<img src='{esc(entry.thumbnail_href)}' alt='' width='300' height='225' loading='lazy'>"
                       if entry.has_thumbnail else "")
            parts.append(
                f"<li class='deepsea-gallery-item' data-dashboard='{esc(entry.name)}'>"
                f"<a href='{esc(entry.href)}' target='_self'>{picture}<span>{esc(entry.title[lang])}</span></a>"
                f"<p>{esc(entry.teaches[lang])}</p></li>")
        if current is not None:
            parts.append("</ul>")
        self._body.value = "".join(parts)


# Cards in a grid that wraps from a projector down to JupyterLab's narrow preview. The picture is decorative
# (alt=""): the link's name is the title beside it. Links are blue and underlined so they look like links.
_GALLERY_CSS = """<style>
.deepsea-gallery-list { list-style: none; padding: 0; display: grid; gap: 1em;
  grid-template-columns: repeat(auto-fill, minmax(16em, 1fr)); }
.deepsea-gallery-item { border: 1px solid #c7c7c7; border-radius: 6px; padding: 0.6em; background: #fff;
  line-height: 1.4; }
.deepsea-gallery-item a { color: #0b57d0; text-decoration: underline; font-weight: bold; display: block; }
.deepsea-gallery-item a:focus-visible { outline: 3px solid #1565c0; outline-offset: 2px; }
.deepsea-gallery-item img { display: block; width: 100%; height: auto; border: 1px solid #e0e0e0;
  margin-bottom: 0.4em; background: #f5f5f5; }
.deepsea-gallery-item p { margin: 0.3em 0 0; color: #333; }
</style>"""
