"""Shared helpers for the publishing benchmarks: a Voila server with the repository's voila.json,
Debian's Chromium, kernel memory from /proc. Run the benchmarks by hand; they print their figures."""

from __future__ import annotations

import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DASHBOARDS = ROOT / "dashboards"
RESULTS = ROOT / "benchmarks" / "results"
CHROMIUM = os.environ.get("DEEPSEA_CHROMIUM", "/usr/bin/chromium")
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
        self.proc = subprocess.Popen([str(voila), folder, f"--port={self.port}", "--no-browser", *extra],
                                     cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
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
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == self.proc.pid and b"ipykernel" in cmd:
                pids.append(int(entry.name))
        return pids

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()


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
