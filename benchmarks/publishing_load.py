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
import asyncio
import time

from playwright.async_api import async_playwright

from publishing_common import (CHROMIUM, CHROMIUM_ARGS, Server, cpu_seconds, dashboard_names, load_average,
                               median, memory_mib, save)


async def launch_browser_async(playwright):
    return await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


async def _visit(browser, url: str, start: float, timeout_s: float) -> dict:
    context = await browser.new_context()
    page = await context.new_page()
    result: dict = {"url": url, "errors": []}
    page.on("pageerror", lambda exc: result["errors"].append(str(exc)[:200]))
    try:
        await page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        await page.wait_for_selector(".deepsea-root, .deepsea-busy", state="visible", timeout=timeout_s * 1000)
        result["seconds"] = time.monotonic() - start
        result["busy"] = await page.locator(".deepsea-busy").count() > 0
        result["rendered"] = await page.locator(".deepsea-root").count() > 0
        result["traceback"] = "Traceback" in await page.inner_text("body")
    except Exception as exc:  # noqa: BLE001
        result.update(seconds=time.monotonic() - start, rendered=False, busy=False, traceback=False)
        result["errors"].append(f"{type(exc).__name__}: {exc}"[:200])
    await context.close()
    return result


def visit_all(urls: list[str], timeout_s: float = 600) -> list[dict]:
    """One browser, one context per visitor, all navigations started at the same moment."""

    async def run() -> list[dict]:
        async with async_playwright() as p:
            browser = await launch_browser_async(p)
            start = time.monotonic()
            results = await asyncio.gather(*(_visit(browser, u, start, timeout_s) for u in urls))
            await browser.close()
            return list(results)

    return asyncio.run(run())


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
        urls = [f"{server.url}/voila/render/{names[i % len(names)]}.ipynb" for i in range(args.visitors)]
        results = visit_all(urls)
        time.sleep(3)
        kernels = server.kernel_pids()
        memory = [memory_mib(pid) for pid in kernels]
        cpu = [cpu_seconds(pid) for pid in kernels]
        server_rss, _server_pss = memory_mib(server.proc.pid)
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
        results = visit_all([f"{capped.url}/voila/render/index.ipynb"] * args.visitors)
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
