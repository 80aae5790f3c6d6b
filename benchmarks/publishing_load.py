"""Ten visitors at once on this machine, memory per kernel, and what happens past capacity.

1. **Load** — ``--visitors`` (default 10) headless Chromium contexts open dashboards at the same moment
   (round robin over dashboards/, so every dashboard is rendered); each must show its view without a page
   error. Prints each visitor's time to first widget and the kernels' memory (RSS and PSS) and CPU.
2. **Past capacity** — a server with ``CappedKernelManager.max_kernels`` = ``--cap`` (default 4) gets
   ``--visitors`` visitors at once: ``cap`` get the dashboard, the others the "busy, retry" page; prints how
   fast the refusals came (a hang would show here).

    .venv/bin/python benchmarks/publishing_load.py [--visitors 10] [--cap 4]
"""

from __future__ import annotations

import argparse
import time

from playwright.sync_api import sync_playwright

from publishing_common import (Server, cpu_seconds, dashboard_names, launch_browser, load_average, median,
                               memory_mib, save)


def visit_all(browser, urls: list[str], timeout_s: float = 600) -> list[dict]:
    contexts = [browser.new_context() for _ in urls]
    pages = [c.new_page() for c in contexts]
    results = [{"url": u, "errors": []} for u in urls]
    for page, result in zip(pages, results):
        page.on("pageerror", lambda exc, r=result: r["errors"].append(str(exc)[:200]))
    start = time.monotonic()
    for page, url in zip(pages, urls):  # every request is in flight before any page is awaited
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
    for page, result in zip(pages, results):
        try:
            page.wait_for_selector(".deepsea-root, .deepsea-busy", state="visible", timeout=timeout_s * 1000)
            result["seconds"] = time.monotonic() - start
            result["busy"] = page.locator(".deepsea-busy").count() > 0
            result["rendered"] = page.locator(".deepsea-root").count() > 0
            result["traceback"] = "Traceback" in page.inner_text("body")
        except Exception as exc:  # noqa: BLE001
            result["seconds"], result["rendered"], result["busy"] = time.monotonic() - start, False, False
            result["errors"].append(f"timeout: {exc}"[:200])
    for context in contexts:
        context.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=10)
    parser.add_argument("--cap", type=int, default=4)
    args = parser.parse_args()
    names = dashboard_names()
    report: dict = {"visitors": args.visitors, "load_before": load_average()}
    print(f"load average before: {report['load_before']}", flush=True)

    server = Server("--CappedKernelManager.max_kernels=0")
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            urls = [f"{server.url}/voila/render/{names[i % len(names)]}.ipynb" for i in range(args.visitors)]
            results = visit_all(browser, urls)
            time.sleep(3)
            kernels = server.kernel_pids()
            memory = [memory_mib(pid) for pid in kernels]
            cpu = [cpu_seconds(pid) for pid in kernels]
            server_rss, server_pss = memory_mib(server.proc.pid)
            browser.close()
    finally:
        server.stop()
    ok = [r for r in results if r["rendered"] and not r["errors"] and not r["traceback"]]
    print(f"\n{args.visitors} visitors at once: {len(ok)} rendered without error; "
          f"first widget median {median([r['seconds'] for r in results]):.1f} s, "
          f"slowest {max(r['seconds'] for r in results):.1f} s")
    for r in results:
        print(f"  {r['url'].rsplit('/', 1)[1]:<36} {r['seconds']:6.1f} s  rendered={r['rendered']} "
              f"errors={r['errors'][:1]}")
    print(f"kernels: {len(kernels)}; RSS per kernel median {median([m[0] for m in memory]):.0f} MiB "
          f"(max {max((m[0] for m in memory), default=0):.0f}); PSS median {median([m[1] for m in memory]):.0f} MiB; "
          f"CPU per kernel to first render median {median(cpu):.1f} s; Voila server RSS {server_rss:.0f} MiB")
    report["load"] = {"results": results, "kernels": len(kernels), "rss_mib": [m[0] for m in memory],
                      "pss_mib": [m[1] for m in memory], "cpu_s": cpu, "server_rss_mib": server_rss}

    capped = Server(f"--CappedKernelManager.max_kernels={args.cap}")
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            urls = [f"{capped.url}/voila/render/index.ipynb"] * args.visitors
            results = visit_all(browser, urls)
            browser.close()
    finally:
        capped.stop()
    busy = [r for r in results if r["busy"]]
    served = [r for r in results if r["rendered"]]
    print(f"\npast capacity (max_kernels={args.cap}, {args.visitors} visitors at once): {len(served)} served, "
          f"{len(busy)} told 'busy, retry' (median {median([r['seconds'] for r in busy]):.1f} s, "
          f"slowest {max((r['seconds'] for r in busy), default=float('nan')):.1f} s), "
          f"{args.visitors - len(busy) - len(served)} neither")
    report["capacity"] = {"cap": args.cap, "results": results}
    report["load_after"] = load_average()
    print(f"load average after: {report['load_after']}")
    print("saved", save("publishing_load", report))


if __name__ == "__main__":
    main()
