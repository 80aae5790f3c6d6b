"""Screenshots of the dashboards: the gallery's thumbnails and the README's pictures (``make screenshots``).

Starts Voila on a free loopback port (the project's own configuration), opens each dashboard in Debian's
Chromium with Playwright, and writes small PNGs:

* ``dashboards/assets/thumbnails/<name>.png`` — one per dashboard, a 900×675 window at half size, for the
  gallery's cards;
* ``docs/images/<name>-<lang>.png`` — the README's pictures (:data:`README_SHOTS`).

Each file must stay under :data:`MAX_BYTES` (checked here and by ``tests/publishing/test_screenshots.py``);
a picture that comes out larger is retaken at a smaller scale. Playwright and Chromium are test
dependencies, imported only when this runs.

    python -m toolkit.publishing.screenshots            # everything
    python -m toolkit.publishing.screenshots crew-mission
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from toolkit.publishing.processes import start_tied, stop_group

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = ROOT / "dashboards"
THUMBNAILS = DASHBOARDS / "assets" / "thumbnails"
README_IMAGES = ROOT / "docs" / "images"
MAX_BYTES = 200_000
#: Thumbnails: a 900×675 window (views lay out from the left, so a narrower window fills the picture) at
#: half size; README pictures: 1200×900 at 0.6.
THUMB_VIEWPORT = {"width": 900, "height": 675}
README_VIEWPORT = {"width": 1200, "height": 900}
#: (dashboard, query, language) shown in the README
README_SHOTS = (("crew-mission", "seed=3", "en"), ("deep-blue-gem-bag", "", "ja"))
CHROMIUM = os.environ.get("DEEPSEA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def thumbnail_path(name: str) -> Path:
    return THUMBNAILS / f"{name}.png"


def dashboard_names() -> list[str]:
    return sorted(p.stem for p in DASHBOARDS.glob("*.ipynb") if p.stem != "index")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Voila:
    def __init__(self, tmp: Path):
        self.port = _free_port()
        env = dict(os.environ)
        env.setdefault("JUPYTER_PATH", str(ROOT / "share" / "jupyter"))
        for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                         ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
            env.setdefault(var, str(tmp / sub))
        voila = Path(sys.executable).with_name("voila")
        self.log = open(tmp / "voila.log", "w")
        self.proc = start_tied([str(voila), "dashboards", f"--port={self.port}", "--no-browser"], cwd=ROOT,
                               env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Voila exited with code {self.proc.returncode}; see {self.log.name}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=5):
                    return
            except Exception:  # noqa: BLE001 - not up yet
                time.sleep(0.3)
        self.stop()
        raise RuntimeError("Voila did not start within 90 s")

    def url(self, name: str, query: str = "") -> str:
        return f"http://127.0.0.1:{self.port}/voila/render/{name}.ipynb" + (f"?{query}" if query else "")

    def stop(self) -> None:
        stop_group(self.proc)
        self.log.close()


def _shoot(browser, url: str, path: Path, lang: str, scale: float, viewport: dict[str, int]) -> int:
    """One screenshot of the page's first screen; returns its size in bytes."""
    for attempt_scale in (scale, scale * 0.8, scale * 0.64, scale * 0.5):
        page = browser.new_page(viewport=viewport, device_scale_factor=attempt_scale)
        try:
            page.goto(url, wait_until="domcontentloaded", timeout=180_000)
            page.locator(".deepsea-root").first.wait_for(state="visible", timeout=180_000)
            if lang == "ja":
                page.locator(".deepsea-lang button", has_text="日本語").first.click()
            page.wait_for_timeout(2500)  # charts and bots settle
            path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path))
        finally:
            page.close()
        size = path.stat().st_size
        if size <= MAX_BYTES:
            return size
    raise RuntimeError(f"{path} is {size} bytes even at scale {attempt_scale:.2f} (limit {MAX_BYTES})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="dashboards to shoot (default: all, and the README's pictures)")
    args = parser.parse_args(argv)
    from tempfile import TemporaryDirectory

    from playwright.sync_api import sync_playwright

    names = args.names or dashboard_names()
    with TemporaryDirectory() as tmp:
        server = _Voila(Path(tmp))
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                for name in names:
                    size = _shoot(browser, server.url(name), thumbnail_path(name), "en", 0.5, THUMB_VIEWPORT)
                    print(f"{thumbnail_path(name).relative_to(ROOT)}  {size // 1024} kB", flush=True)
                for name, query, lang in README_SHOTS:
                    if args.names and name not in args.names:
                        continue
                    path = README_IMAGES / f"{name}-{lang}.png"
                    size = _shoot(browser, server.url(name, query), path, lang, 0.6, README_VIEWPORT)
                    print(f"{path.relative_to(ROOT)}  {size // 1024} kB", flush=True)
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
