"""Ten visitors at once on this machine, memory per kernel, and what happens past capacity.

0. **Server only** — ``--visitors`` plain HTTP GETs of different dashboards at the same moment: seconds
   until each complete page (its own new kernel, the dashboard run) is received. This is the server's
   share of a class opening at once, without any browser on the machine.
1. **Load** — ``--visitors`` (default 10) headless Chromium contexts open dashboards at the same moment
   (round robin over dashboards/, so every dashboard is rendered); each must show its view without a page
   error. Prints each visitor's time to first widget and the kernels' memory (RSS and PSS) and CPU.
2. **Past capacity** — a server with ``CappedKernelManager.max_kernels`` = ``--cap`` (default 4) gets
   ``--visitors`` visitors at once: ``cap`` get the dashboard, the others the "busy, retry" page; prints how
   fast the refusals came (a hang would show here).
3. With ``--preheat``: the same ten visitors on a server whose pool holds one rendered kernel for each of
   their dashboards (ready before they arrive), i.e. what preheating buys a class that opens at once.

The browser runs on the same two cores as the server (ten Chromium pages parsing Voila's JavaScript take
a good share of the CPU): real visitors bring their own CPUs, so these times are pessimistic. The load
average is printed before and after each phase: the machine is shared.

    .venv/bin/python benchmarks/publishing_load.py [--visitors 10] [--cap 4] [--preheat] [--skip-capacity]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import os
import time
import urllib.request

from playwright.async_api import async_playwright

from publishing_common import (CHROMIUM, CHROMIUM_ARGS, KERNEL_ID, Server, cpu_seconds, dashboard_names,
                               descendants_cpu_seconds, load_average, median, memory_mib, save, wait_until_quiet)


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
        kernel = KERNEL_ID.search(await page.content())
        result["kernel_id"] = kernel.group(1) if kernel else None
    except Exception as exc:  # noqa: BLE001
        result.update(seconds=time.monotonic() - start, rendered=False, busy=False, traceback=False)
        result["errors"].append(f"{type(exc).__name__}: {exc}"[:200])
    result["_context"] = context  # closed by visit_all, once the browser's CPU has been read
    return result


def visit_all(urls: list[str], timeout_s: float = 600) -> list[dict]:
    """One browser, one context per visitor, all navigations started at the same moment."""

    async def run() -> list[dict]:
        async with async_playwright() as p:
            browser = await launch_browser_async(p)
            start = time.monotonic()
            results = await asyncio.gather(*(_visit(browser, u, start, timeout_s) for u in urls))
            # The browser shares the server's two cores here (real visitors bring their own CPUs).
            chromium_cpu = descendants_cpu_seconds(os.getpid(), "chromium")
            for result in results:
                await result.pop("_context").close()
                result["chromium_cpu_s_all_pages"] = chromium_cpu
            await browser.close()
            return list(results)

    return asyncio.run(run())


def server_only_phase(server: Server, urls: list[str]) -> dict:
    """All GETs at once (threads); seconds to each complete page, then the kernels' memory and CPU."""
    def get(url: str) -> dict:
        start = time.monotonic()
        try:
            with urllib.request.urlopen(url, timeout=600) as response:
                body = response.read().decode("utf-8", "replace")
            ok = response.status == 200 and "application/vnd.jupyter.widget-view+json" in body
            kernel = KERNEL_ID.search(body)
            return {"url": url, "seconds": time.monotonic() - start, "view_in_page": ok,
                    "kernel_id": kernel.group(1) if kernel else None}
        except Exception as exc:  # noqa: BLE001
            return {"url": url, "seconds": time.monotonic() - start, "view_in_page": False, "error": repr(exc)[:200]}

    before = load_average()
    with concurrent.futures.ThreadPoolExecutor(len(urls)) as pool:
        results = list(pool.map(get, urls))
    by_id = server.kernels()
    cpu = [cpu_seconds(by_id[r["kernel_id"]]) for r in results if r.get("kernel_id") in by_id]
    seconds = [r["seconds"] for r in results]
    print(f"\nserver only: {len(urls)} page requests at once: {sum(r['view_in_page'] for r in results)} complete "
          f"pages with their view; seconds to the whole page median {median(seconds):.1f}, slowest "
          f"{max(seconds):.1f} (load average before {before}, after {load_average()}); CPU per kernel median "
          f"{median(cpu):.1f} s; Voila server CPU {cpu_seconds(server.proc.pid):.0f} s since its start", flush=True)
    for r in results:
        print(f"  {r['url'].rsplit('/', 1)[1]:<36} {r['seconds']:6.1f} s  view={r['view_in_page']}")
    return {"results": results, "cpu_s": cpu, "load_before": before, "load_after": load_average()}


def load_phase(server: Server, urls: list[str], label: str) -> dict:
    """All visitors at once; then memory and CPU of the kernels this produced."""
    before = load_average()
    results = visit_all(urls)
    time.sleep(3)
    # The visitors' kernels only (a preheated pool also has refills starting by now).
    by_id = server.kernels()
    kernels = [by_id[r["kernel_id"]] for r in results if r.get("kernel_id") in by_id]
    memory = [memory_mib(pid) for pid in kernels]
    cpu = [cpu_seconds(pid) for pid in kernels]
    server_rss, _server_pss = memory_mib(server.proc.pid)
    ok = [r for r in results if r["rendered"] and not r["errors"] and not r["traceback"]]
    print(f"\n{label}: {len(urls)} visitors at once: {len(ok)} rendered without error; "
          f"first widget median {median([r['seconds'] for r in results]):.1f} s, "
          f"slowest {max(r['seconds'] for r in results):.1f} s (load average before {before}, "
          f"after {load_average()})")
    for r in results:
        print(f"  {r['url'].rsplit('/', 1)[1]:<36} {r['seconds']:6.1f} s  rendered={r['rendered']} "
              f"errors={r['errors'][:1]}")
    print(f"visitors' kernels: {len(kernels)} (server has {len(by_id)}); RSS per kernel median {median([m[0] for m in memory]):.0f} MiB "
          f"(min {min((m[0] for m in memory), default=0):.0f}, max {max((m[0] for m in memory), default=0):.0f}); "
          f"PSS median {median([m[1] for m in memory]):.0f} MiB; CPU per kernel median {median(cpu):.1f} s "
          f"(max {max(cpu, default=0):.1f}); Voila server RSS {server_rss:.0f} MiB", flush=True)
    chromium = results[0].get("chromium_cpu_s_all_pages", float("nan")) if results else float("nan")
    server_cpu = cpu_seconds(server.proc.pid)
    print(f"CPU seconds: visitors' kernels {sum(cpu):.0f}, Voila server {server_cpu:.0f} (since its start), "
          f"Chromium {chromium:.0f} for all {len(urls)} pages", flush=True)
    return {"results": results, "rendered_ok": len(ok), "kernels": len(kernels), "rss_mib": [m[0] for m in memory],
            "chromium_cpu_s": chromium, "server_cpu_s": server_cpu,
            "pss_mib": [m[1] for m in memory], "cpu_s": cpu, "server_rss_mib": server_rss,
            "load_before": before, "load_after": load_average()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=10)
    parser.add_argument("--cap", type=int, default=4)
    parser.add_argument("--preheat", action="store_true", help="also measure the visitors on a preheated pool")
    parser.add_argument("--skip-capacity", action="store_true")
    parser.add_argument("--server-only", action="store_true", help="only the plain-HTTP phase")
    args = parser.parse_args()
    names = dashboard_names()
    visited = [names[i % len(names)] for i in range(args.visitors)]
    report: dict = {"visitors": args.visitors, "load_before": load_average()}
    print(f"load average before: {report['load_before']}", flush=True)

    server = Server("--CappedKernelManager.max_kernels=0")
    try:
        report["server_only"] = server_only_phase(server, [f"{server.url}/voila/render/{n}.ipynb" for n in visited])
    finally:
        server.stop()

    if args.server_only:
        print("saved", save("publishing_load_server_only", report))
        return

    server = Server("--CappedKernelManager.max_kernels=0")
    try:
        report["load"] = load_phase(server, [f"{server.url}/voila/render/{n}.ipynb" for n in visited], "cold")
    finally:
        server.stop()

    if args.preheat:
        pools = {"default": {"pool_size": 0}}
        for name in visited:
            pools.setdefault(f"{name}.ipynb", {"pool_size": 0})["pool_size"] += 1
        pool = Server("--preheat_kernel=True", "--CappedKernelManager.max_kernels=0",
                      f"--VoilaKernelManager.kernel_pools_config={json.dumps(pools)}")
        try:
            ready = wait_until_quiet(pool, args.visitors, timeout=600)
            print(f"\npool of {args.visitors} kernels ready after {ready:.0f} s", flush=True)
            report["preheated"] = load_phase(pool, [f"{pool.url}/voila/render/{n}.ipynb" for n in visited],
                                             "preheated")
            report["preheated"]["pool_ready_s"] = ready
        finally:
            pool.stop()

    if not args.skip_capacity:
        capped = Server(f"--CappedKernelManager.max_kernels={args.cap}")
        try:
            before = load_average()
            results = visit_all([f"{capped.url}/voila/render/index.ipynb"] * args.visitors)
        finally:
            capped.stop()
        busy = [r for r in results if r["busy"]]
        served = [r for r in results if r["rendered"]]
        print(f"\npast capacity (max_kernels={args.cap}, {args.visitors} visitors at once): {len(served)} served "
              f"(slowest {max((r['seconds'] for r in served), default=float('nan')):.1f} s), "
              f"{len(busy)} told 'busy, retry' (median {median([r['seconds'] for r in busy]):.1f} s, "
              f"slowest {max((r['seconds'] for r in busy), default=float('nan')):.1f} s), "
              f"{args.visitors - len(busy) - len(served)} neither (load average before {before}, "
              f"after {load_average()})")
        report["capacity"] = {"cap": args.cap, "results": results, "load_before": before}
    report["load_after"] = load_average()
    print(f"load average after: {report['load_after']}")
    print("saved", save("publishing_load", report))


if __name__ == "__main__":
    main()
