"""Speed of the published dashboards, per dashboard: the table in docs/publishing.md.

For every notebook in dashboards/ (discovered, so the table grows with the games):

* **server s (cold)** — seconds for Voila to send the whole page when a kernel must start (kernel start +
  running the dashboard), measured as a plain HTTP GET;
* **first widget s (cold / preheated)** — navigation to the view's ``.deepsea-root`` being visible in
  Chromium, on a normal server and on one started with ``--preheat_kernel=True --pool_size=1``;
* **HTTP kB / ws kB** — bytes the page downloads (static files, first visit, no cache) and receives over the
  kernel websocket;
* **click ms (median / p95)** — 20 clicks on the language toggle (every view has it; a click re-renders
  the whole view through the kernel): click to the first DOM change, i.e. comm round trip + handler + render.

    .venv/bin/python benchmarks/publishing.py [--no-preheat] [--clicks 20] [names...]
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.request

from playwright.sync_api import sync_playwright

from publishing_common import (Server, dashboard_names, launch_browser, load_average, median, percentile,
                               save)

CLICK_AND_WAIT = """async (label) => {
  const root = document.querySelector('.deepsea-root');
  const lang = root.querySelector('.deepsea-lang');
  const button = lang && [...lang.querySelectorAll('button')].find(b => b.innerText.trim() === label);
  if (!button) return -1;
  // The toggle restyles itself locally at once; wait for the view's own text, which only the kernel changes.
  const text = () => [...root.children].filter(c => !c.contains(lang)).map(c => c.innerText).join('\\n');
  const before = text();
  const changed = new Promise(resolve => {
    const observer = new MutationObserver(() => {
      if (text() !== before) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
  });
  const start = performance.now();
  button.click();
  const end = await Promise.race([changed, new Promise(r => setTimeout(() => r(NaN), 10000))]);
  return end - start;
}"""


def server_seconds(url: str) -> float:
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=300) as response:
        response.read()
    return time.monotonic() - start


def open_in_browser(browser, url: str, clicks: int) -> dict:
    context = browser.new_context()
    page = context.new_page()
    http_bytes = ws_bytes = 0

    def on_response(response):
        nonlocal http_bytes
        try:
            http_bytes += response.request.sizes()["responseBodySize"]
        except Exception:  # noqa: BLE001 - aborted or cached
            pass

    def on_ws(ws):
        def frame(payload):
            nonlocal ws_bytes
            ws_bytes += len(payload)
        ws.on("framereceived", frame)

    page.on("response", on_response)
    page.on("websocket", on_ws)
    start = time.monotonic()
    try:
        page.goto(url, wait_until="commit", timeout=180000)
        page.locator(".deepsea-root").first.wait_for(state="visible", timeout=180000)
    except Exception:
        context.close()
        raise
    first_widget = time.monotonic() - start
    page.wait_for_timeout(1500)  # let charts and late widgets arrive before counting bytes
    times = []
    for i in range(clicks):
        ms = page.evaluate(CLICK_AND_WAIT, "日本語" if i % 2 == 0 else "English")
        if ms is not None and ms >= 0:  # NaN (no change within 10 s) is not >= 0: counted as missing
            times.append(ms)
    result = {"first_widget_s": first_widget, "http_kB": http_bytes / 1e3, "ws_kB": ws_bytes / 1e3,
              "click_ms_median": median(times), "click_ms_p95": percentile(times, 95), "clicks": len(times)}
    context.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=None)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--no-preheat", action="store_true")
    args = parser.parse_args()
    names = args.names or dashboard_names()
    rows: dict[str, dict] = {n: {} for n in names}
    print(f"load average before: {load_average()}", flush=True)

    cold = Server("--CappedKernelManager.max_kernels=0")
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            # Warm the OS file cache and the browser's first launch once, so "cold" means a cold *kernel*.
            server_seconds(f"{cold.url}/voila/render/index.ipynb")
            for name in names:
                url = f"{cold.url}/voila/render/{name}.ipynb"
                try:
                    rows[name]["server_cold_s"] = server_seconds(url)
                    rows[name].update(open_in_browser(browser, url, args.clicks))
                except Exception as exc:  # noqa: BLE001 - a broken dashboard must not hide the others' figures
                    rows[name]["error"] = f"{type(exc).__name__}: {str(exc)[:120]}"
                print(name, {k: round(v, 3) if isinstance(v, float) else v for k, v in rows[name].items()},
                      flush=True)
            browser.close()
    finally:
        cold.stop()

    if not args.no_preheat:
        # Pool only the measured dashboards: one kernel each, having run its notebook before the visit.
        pools = {"default": {"pool_size": 0}, **{f"{n}.ipynb": {"pool_size": 1} for n in names}}
        pool = Server("--preheat_kernel=True", "--CappedKernelManager.max_kernels=0",
                      f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}")
        try:
            deadline = time.monotonic() + 60 + 30 * len(names)
            while time.monotonic() < deadline and pool.log_path.read_text().count("is filled with") < len(names):
                time.sleep(2)
            time.sleep(5)
            with sync_playwright() as p:
                browser = launch_browser(p)
                for name in names:
                    url = f"{pool.url}/voila/render/{name}.ipynb"
                    try:
                        rows[name]["first_widget_preheated_s"] = open_in_browser(browser, url, 0)["first_widget_s"]
                    except Exception as exc:  # noqa: BLE001
                        rows[name].setdefault("error", f"preheated: {type(exc).__name__}")
                    time.sleep(3)  # the pool refills after fill_delay; do not measure a refill
                browser.close()
        finally:
            pool.stop()

    print(f"\nload average after: {load_average()}\n")
    print("| dashboard | server s (cold) | first widget s (cold) | first widget s (preheated) "
          "| HTTP kB | ws kB | click ms median | click ms p95 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in rows.items():
        print(f"| {name} | {r.get('server_cold_s', float('nan')):.2f} | {r.get('first_widget_s', float('nan')):.2f} "
              f"| {r.get('first_widget_preheated_s', float('nan')):.2f} | {r.get('http_kB', 0):,.0f} "
              f"| {r.get('ws_kB', 0):,.0f} | {r.get('click_ms_median', float('nan')):.0f} "
              f"| {r.get('click_ms_p95', float('nan')):.0f} |" + (f" error: {r['error']}" if "error" in r else ""))
    print("\nsaved", save("publishing", rows))


if __name__ == "__main__":
    main()
