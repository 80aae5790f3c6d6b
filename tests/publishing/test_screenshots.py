"""The gallery's thumbnails and the README's pictures (``make screenshots``) exist, are small and are used."""

from __future__ import annotations

import re

from toolkit.publishing.screenshots import MAX_BYTES, README_IMAGES, ROOT, dashboard_names, thumbnail_path
from toolkit.widgets.gallery import Gallery, discover

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_every_dashboard_has_a_small_png_thumbnail():
    for name in dashboard_names():
        path = thumbnail_path(name)
        assert path.is_file(), f"{name}: no thumbnail; run make screenshots"
        data = path.read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) < MAX_BYTES, (name, len(data))


def test_no_thumbnail_without_its_dashboard():
    names = set(dashboard_names())
    assert {p.stem for p in thumbnail_path("x").parent.glob("*.png")} <= names


def test_the_gallery_shows_each_thumbnail_with_its_link():
    gallery = Gallery(ROOT / "dashboards")
    html = gallery._body.value
    for entry in discover(ROOT / "dashboards"):
        assert entry.has_thumbnail
        assert f"src='../files/assets/thumbnails/{entry.name}.png'" in html
        assert f"href='{entry.name}.ipynb'" in html


def test_the_readme_shows_two_small_screenshots_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]+\]\((docs/images/[^)]+\.png)\)", readme)
    assert len(images) >= 2
    for rel in images:
        path = ROOT / rel
        assert path.is_file() and path.parent == README_IMAGES, rel
        data = path.read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) < MAX_BYTES, (rel, len(data))
