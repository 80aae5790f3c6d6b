"""Shared helpers for the publishing benchmarks: a Voila server with the repository's voila.json,
Debian's Chromium, kernel memory from /proc. Run the benchmarks by hand; they print their figures."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from toolkit.publishing.kernels import child_kernels
from toolkit.publishing.processes import start_tied

ROOT = Path(__file__).resolve().parents[1]
DASHBOARDS = ROOT / "dashboards"
RESULTS = ROOT / "benchmarks" / "results"
CHROMIUM = os.environ.get("DEEPSEA_CHROMIUM", "/usr/bin/chromium")
KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def dashboard_names() -> list[str]:
    return sorted(p.stem for p in DASHBOARDS.glob("*.ipynb"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``voila dashboards`` (or another folder) from the repository root, state kept in a temp folder."""

    def __init__(self, *extra: str, folder: str = "dashboards"):
        self.tmp = Path(tempfile.mkdtemp(prefix="deepsea-bench-"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, JUPYTER_PATH=str(ROOT / "share" / "jupyter"))
        for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                         ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
            env[var] = str(self.tmp / sub)
        voila = Path(sys.executable).with_name("voila")
        self.log_path = self.tmp / "voila.log"
        self.log = open(self.log_path, "w")
        # dies with the benchmark however it ends (toolkit.publishing.processes)
        self.proc = start_tied([str(voila), folder, f"--port={self.port}", "--no-browser", *extra],
                               cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=5).close()
                return
            except Exception:  # noqa: BLE001
                if self.proc.poll() is not None:
                    raise RuntimeError(self.log_path.read_text())
                time.sleep(0.3)
        raise RuntimeError("Voila did not start")

    def kernel_pids(self) -> list[int]:
        """Kernel processes started by this server (they run in their own sessions: found by parent)."""
        return list(self.kernels().values())

    def kernels(self) -> dict[str, int]:
        """Kernel id -> pid of this server's kernels (the id is in the kernel's connection file name)."""
        return child_kernels(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()


def wait_until_quiet(server: "Server", min_kernels: int, timeout: float = 300.0, quiet_cpu_s: float = 0.05,
                     step: float = 0.5) -> float:
    """Wait until the server has ``min_kernels`` kernels and neither it nor they use CPU; returns seconds.

    A preheated pool is "ready" only when its kernels have run their notebooks (up to waiting for the
    visitor's request): Voila's "pool is filled" log line comes when the kernels have *started*, long
    before that, which made earlier preheated measurements include the pool's own start-up.
    """
    start = time.monotonic()
    previous = None
    quiet = 0
    while time.monotonic() - start < timeout:
        pids = server.kernel_pids()
        used = cpu_seconds(server.proc.pid) + sum(cpu_seconds(pid) for pid in pids)
        if previous is not None and len(pids) >= min_kernels and used - previous < quiet_cpu_s:
            quiet += 1
            if quiet >= 2:
                return time.monotonic() - start
        else:
            quiet = 0
        previous = used
        time.sleep(step)
    raise TimeoutError(f"the server did not settle within {timeout:.0f} s ({len(server.kernel_pids())} kernels)")


def memory_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of a process in MiB; PSS splits shared library pages between kernels fairly."""
    rss = pss = 0.0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1]) / 1024
            elif line.startswith("Pss:"):
                pss = int(line.split()[1]) / 1024
    except OSError:
        pass
    return rss, pss


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants_cpu_seconds(root: int, needle: str) -> float:
    """CPU seconds used so far by the live descendants of ``root`` whose command line contains ``needle``
    (e.g. the Chromium processes this benchmark launched, not anybody else's)."""
    parent: dict[int, int] = {}
    matching: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        pid = int(entry.name)
        parent[pid] = int(stat.rsplit(")", 1)[1].split()[1])
        if needle.encode() in cmd:
            matching.append(pid)

    def descends(pid: int) -> bool:
        for _ in range(64):
            pid = parent.get(pid, 0)
            if pid == root:
                return True
            if pid <= 1:
                return False
        return False

    return sum(cpu_seconds(pid) for pid in matching if descends(pid))


def launch_browser(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def save(name: str, data: object) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    return path


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# ---- clicks on a component -> visible DOM change (the *_clicks.py benchmarks) ----------------------------

#: In the page: click ``target``, resolve with the ms until the first DOM change inside ``watch``
#: (a MutationObserver), -1 when either is missing, NaN after 10 s without a change.
CLICK_AND_WAIT = """
async ([target, watch]) => {
  const el = document.querySelector(target), box = document.querySelector(watch);
  if (!el || !box) return -1;
  return await new Promise(resolve => {
    const t0 = performance.now();
    const obs = new MutationObserver(() => { obs.disconnect(); resolve(performance.now() - t0); });
    obs.observe(box, {subtree: true, childList: true, characterData: true, attributes: true});
    el.click();
    setTimeout(() => { obs.disconnect(); resolve(NaN); }, 10000);
  });
}
"""


def open_view(browser, server: "Server", name: str, query: str = ""):
    """A new 1200×900 page on ``name``'s dashboard, once its view is visible."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    page.goto(f"{server.url}/voila/render/{name}.ipynb" + (f"?{query}" if query else ""), timeout=180000)
    page.locator(".deepsea-root").first.wait_for(state="visible", timeout=180000)
    return page


def click_times(browser, server: "Server", name: str, query: str, targets: list[tuple[str, str]],
                clicks: int) -> list[float]:
    """``clicks`` clicks cycling through ``targets`` (click selector, watched selector): ms each."""
    page = open_view(browser, server, name, query)
    page.locator(targets[0][0]).first.wait_for(timeout=60000)
    page.wait_for_timeout(1500)
    times = []
    for i in range(clicks):
        target, watch = targets[i % len(targets)]
        ms = page.evaluate(CLICK_AND_WAIT, [target, watch])
        if ms is not None and ms >= 0:
            times.append(ms)
        time.sleep(0.05)
    page.close(run_before_unload=True)
    return times


def opening_bytes(browser, server: "Server", name: str, query: str = "", settle_ms: int = 3000) -> dict:
    """Bytes the kernel sends over the websocket from the page load until the view is drawn + ``settle_ms``."""
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    got: list[int] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(len(
        p if isinstance(p, bytes) else p.encode("utf-8")))))
    page.goto(f"{server.url}/voila/render/{name}.ipynb" + (f"?{query}" if query else ""), timeout=180000)
    page.locator(".deepsea-root").first.wait_for(state="visible", timeout=180000)
    page.wait_for_timeout(settle_ms)
    page.close(run_before_unload=True)
    return {"dashboard": name, "websocket_kB": round(sum(got) / 1000, 1), "frames": len(got)}


def run_clicks(name: str, description: str, pages: list[tuple[str, str]],
               cases: list[tuple[str, str, list[tuple[str, str]]]]) -> None:
    """The command line of a game's click benchmark: the bytes to open each of ``pages``, then each case's
    clicks (``--clicks N`` each, ``--bytes-only`` to skip them); rows saved as ``results/<name>.json``."""
    import argparse

    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--bytes-only", action="store_true")
    args = parser.parse_args()
    server = Server()
    rows: list[dict] = []
    try:
        with sync_playwright() as p:
            browser = launch_browser(p)
            for dashboard, query in pages:
                rows.append(opening_bytes(browser, server, dashboard, query))
                print(rows[-1], flush=True)
            for dashboard, query, targets in ([] if args.bytes_only else cases):
                times = click_times(browser, server, dashboard, query, targets, args.clicks)
                rows.append({"dashboard": dashboard,
                             "clicks": " / ".join(t.split("[")[1][:-1] for t, _ in targets[:2]),
                             "n": len(times), "median_ms": round(median(times), 1),
                             "p95_ms": round(percentile(times, 95), 1), "load": load_average()})
                print(rows[-1], flush=True)
            browser.close()
    finally:
        server.stop()
    save(name, rows)
