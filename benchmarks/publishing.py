"""Speed of the published dashboards, per dashboard: the table in docs/publishing.md.

For every notebook in dashboards/ (discovered, so the table grows with the games):

* **server s (cold)** — seconds for Voila to send the whole page when a kernel must start (kernel start +
  running the dashboard), measured as a plain HTTP GET;
* **server s (preheated)** — the same GET answered from a pool (``--preheat_kernel=True``, one kernel per
  measured dashboard), the pool being *ready*: its kernels have run their notebooks and wait for a visitor
  (see ``wait_until_quiet``; Voila's "pool is filled" line only means the kernels have started);
* **first widget s (cold / preheated / preheated, cached)** — navigation to the view's ``.deepsea-root``
  being visible in Chromium: a first visit (new browser context, nothing cached) on a cold kernel and on
  a pooled one, then a repeat visit on a pooled kernel in a context that has loaded Voila's JavaScript
  once already (a returning visitor; ~all of the remaining time is Voila's page code in the browser);
* **HTTP kB / ws kB** — bytes the page downloads (static files, first visit, no cache) and receives over the
  kernel websocket;
* **click ms (median / p95)** — 20 clicks on the language toggle (every view has it; a click re-renders
  the whole view through the kernel): click to the first DOM change, i.e. comm round trip + handler +
  render in the browser;
* **handler ms (median / p95)** — the kernel-side work of that click alone: the dashboard's view built
  in this process, the toggle's incoming state applied 20 times (``set_state``, what the comm message
  does), timed in-process. This is the "handler work" of the goal; the click column bounds it from above.

Every row carries the 1-minute load average when it was measured: the machine is shared.

    .venv/bin/python benchmarks/publishing.py [--no-preheat] [--no-cold] [--clicks 20] [names...]
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import statistics
import time
import urllib.request

from playwright.sync_api import sync_playwright

from publishing_common import (DASHBOARDS, Server, dashboard_names, launch_browser, load_average, median,
                               percentile, save, wait_until_quiet)

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
PREHEATED_USE = re.compile(r"Using pre-heated kernel: ([0-9a-f-]{36}) for (\S+)")
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def load1() -> float:
    return float(load_average().split()[0])


def server_seconds(url: str) -> tuple[float, str]:
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=300) as response:
        body = response.read().decode("utf-8", "replace")
    return time.monotonic() - start, body


def open_in_browser(context, url: str, clicks: int) -> dict:
    page = context.new_page()
    http_bytes = ws_bytes = 0

    def on_finished(request):
        # Counted when the request has *finished* (on "response" the body may still be arriving and its
        # size is missing or partial: earlier runs under-counted by up to 4x).
        nonlocal http_bytes
        try:
            http_bytes += request.sizes()["responseBodySize"]
        except Exception:  # noqa: BLE001 - aborted
            pass

    def on_ws(ws):
        def frame(payload):
            nonlocal ws_bytes
            ws_bytes += len(payload)
        ws.on("framereceived", frame)

    page.on("requestfinished", on_finished)
    page.on("websocket", on_ws)
    start = time.monotonic()
    try:
        page.goto(url, wait_until="commit", timeout=180000)
        page.locator(".deepsea-root").first.wait_for(state="visible", timeout=180000)
    except Exception:
        page.close(run_before_unload=True)
        raise
    first_widget = time.monotonic() - start
    kernel = KERNEL_ID.search(page.content())
    result = {"first_widget_s": first_widget, "kernel_id": kernel.group(1) if kernel else None}
    if clicks:
        page.wait_for_timeout(1500)  # let charts and late widgets arrive before counting bytes
        times = []
        for i in range(clicks):
            ms = page.evaluate(CLICK_AND_WAIT, "日本語" if i % 2 == 0 else "English")
            if ms is not None and ms >= 0:  # NaN (no change within 10 s) is not >= 0: counted as missing
                times.append(ms)
        result.update(http_kB=http_bytes / 1e3, ws_kB=ws_bytes / 1e3, click_ms_median=median(times),
                      click_ms_p95=percentile(times, 95), clicks=len(times))
    # As a closing tab does: Voila's unload beacon stops the page's kernel (keeps later rows unloaded).
    page.close(run_before_unload=True)
    return result


# ---- handler work, in this process --------------------------------------------------------------------
def dashboard_view(name: str):
    """Run a dashboard's code cells here and return the value of the last expression (its view)."""
    nb = json.loads((DASHBOARDS / f"{name}.ipynb").read_text(encoding="utf-8"))
    source = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    namespace: dict = {}
    exec(compile(tree, f"{name}.ipynb", "exec"), namespace)  # noqa: S102 - our own dashboards
    return eval(compile(ast.Expression(last.value), name, "eval"), namespace) if last else None  # noqa: S307


def find_language_toggle(root):
    from toolkit.widgets.base import LanguageToggle

    queue = [root]
    while queue:
        widget = queue.pop(0)
        if isinstance(widget, LanguageToggle):
            return widget
        queue.extend(getattr(widget, "children", ()) or ())
    return None


def handler_ms(name: str, clicks: int) -> tuple[float, float]:
    """Median and p95 ms of the language switch in the kernel: the toggle's state update, as a comm
    message applies it (``set_state``), through the view's observers and refresh."""
    toggle = find_language_toggle(dashboard_view(name))
    if toggle is None:
        return float("nan"), float("nan")
    labels = [value for _label, value in toggle.options]
    times = []
    for i in range(clicks):
        # A selection widget syncs its ``index`` (not ``value``) with the page: this is the click's message.
        index = labels.index("ja" if i % 2 == 0 else "en")
        start = time.perf_counter()
        toggle.set_state({"index": index})
        times.append((time.perf_counter() - start) * 1000)
        assert toggle.value == labels[index], "the toggle did not switch: nothing was measured"
    return statistics.median(times), percentile(times, 95)


# ---- runs -------------------------------------------------------------------------------------------------
def run_cold(names: list[str], rows: dict, clicks: int) -> None:
    cold = Server("--CappedKernelManager.max_kernels=0")
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            # Warm the OS file cache and the browser's first launch once, so "cold" means a cold *kernel*.
            server_seconds(f"{cold.url}/voila/render/index.ipynb")
            for name in names:
                url = f"{cold.url}/voila/render/{name}.ipynb"
                row = rows[name]
                try:
                    row["load_cold"] = load1()
                    row["server_cold_s"], _ = server_seconds(url)
                    context = browser.new_context()
                    try:
                        row.update(open_in_browser(context, url, clicks))
                    finally:
                        context.close()
                except Exception as exc:  # noqa: BLE001 - a broken dashboard must not hide the others' figures
                    row["error"] = f"{type(exc).__name__}: {str(exc)[:120]}"
                print(name, {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}, flush=True)
            browser.close()
    finally:
        cold.stop()


def run_preheated(names: list[str], rows: dict) -> None:
    # Pool only the measured dashboards: one kernel each, having run its notebook before the visit.
    pools = {"default": {"pool_size": 0}, **{f"{n}.ipynb": {"pool_size": 1} for n in names}}
    pool = Server("--preheat_kernel=True", "--CappedKernelManager.max_kernels=0",
                  f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}")

    def pooled(kernel_id: str | None, name: str) -> bool:
        """Whether Voila served this page from the pool (not a kernel started for the request)."""
        used = PREHEATED_USE.findall(pool.log_path.read_text(errors="replace"))
        return kernel_id is not None and (kernel_id, f"{name}.ipynb") in used

    try:
        settle = wait_until_quiet(pool, len(names), timeout=120 + 30 * len(names))
        print(f"pool of {len(names)} ready after {settle:.0f} s (load {load_average()})", flush=True)
        with sync_playwright() as p:
            browser = launch_browser(p)
            returning = browser.new_context()  # a visitor coming back: Voila's JavaScript is cached
            open_in_browser(returning, f"{pool.url}/voila/render/{names[0]}.ipynb", 0)  # fills that cache
            wait_until_quiet(pool, len(names))
            for name in names:
                url = f"{pool.url}/voila/render/{name}.ipynb"
                row = rows[name]
                try:
                    # Each visit takes the pooled kernel; wait for the refill to be ready before the next.
                    row["load_preheated"] = load1()
                    row["server_preheated_s"], body = server_seconds(url)
                    kernel = KERNEL_ID.search(body)
                    row["server_preheated_pooled"] = pooled(kernel.group(1) if kernel else None, name)
                    wait_until_quiet(pool, len(names))
                    context = browser.new_context()
                    try:
                        visit = open_in_browser(context, url, 0)
                    finally:
                        context.close()
                    row["first_widget_preheated_s"] = visit["first_widget_s"]
                    row["first_widget_preheated_pooled"] = pooled(visit["kernel_id"], name)
                    wait_until_quiet(pool, len(names))
                    visit = open_in_browser(returning, url, 0)
                    row["first_widget_preheated_cached_s"] = visit["first_widget_s"]
                    row["first_widget_preheated_cached_pooled"] = pooled(visit["kernel_id"], name)
                    wait_until_quiet(pool, len(names))
                except Exception as exc:  # noqa: BLE001
                    row.setdefault("error", f"preheated: {type(exc).__name__}: {str(exc)[:120]}")
                print(name, {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()
                             if "preheated" in k}, flush=True)
            returning.close()
            browser.close()
    finally:
        pool.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=None)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--no-preheat", action="store_true")
    parser.add_argument("--no-cold", action="store_true")
    args = parser.parse_args()
    names = args.names or dashboard_names()
    rows: dict[str, dict] = {n: {} for n in names}
    print(f"load average before: {load_average()}", flush=True)

    for name in names:
        try:
            rows[name]["handler_ms_median"], rows[name]["handler_ms_p95"] = handler_ms(name, args.clicks)
        except Exception as exc:  # noqa: BLE001
            rows[name]["error"] = f"handler: {type(exc).__name__}: {str(exc)[:120]}"
    if not args.no_cold:
        run_cold(names, rows, args.clicks)
    if not args.no_preheat:
        run_preheated(names, rows)

    nan = float("nan")
    print(f"\nload average after: {load_average()}\n")
    print("| dashboard | server s cold | server s preheated | first widget s cold | first widget s preheated "
          "| … preheated, cached JS | HTTP kB | ws kB | click ms median | click ms p95 | handler ms median "
          "| handler ms p95 | load (cold / preheated) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, r in rows.items():
        not_pooled = "" if r.get("first_widget_preheated_pooled", True) and r.get("server_preheated_pooled", True) \
            else " (not from the pool)"
        print(f"| {name} | {r.get('server_cold_s', nan):.2f} | {r.get('server_preheated_s', nan):.2f} "
              f"| {r.get('first_widget_s', nan):.2f} | {r.get('first_widget_preheated_s', nan):.2f}{not_pooled} "
              f"| {r.get('first_widget_preheated_cached_s', nan):.2f} | {r.get('http_kB', 0):,.0f} "
              f"| {r.get('ws_kB', 0):,.0f} | {r.get('click_ms_median', nan):.0f} | {r.get('click_ms_p95', nan):.0f} "
              f"| {r.get('handler_ms_median', nan):.1f} | {r.get('handler_ms_p95', nan):.1f} "
              f"| {r.get('load_cold', nan):.1f} / {r.get('load_preheated', nan):.1f} |"
              + (f" error: {r['error']}" if "error" in r else ""))
    print("\nsaved", save("publishing", rows))


if __name__ == "__main__":
    main()
