"""The web pages under Lighthouse (issue 21): performance, accessibility, best
practices and the bytes transferred, with Lighthouse's mobile profile (its
default: a mid-range phone on a slow 4G line, simulated).

Pages: the lobby; a table page with a seated player (the table is made through
the API and opened by its personal link, ``/t/CODE#seat=TOKEN``: the page keeps
the seat token as a click on that link would); the replay of a finished
7-round game (three medium bots and a player who came and went, so a bot played
for the seat). Also the replay's own answer (``/api/tables/CODE/replay``, gzip)
in bytes. Targets: performance >= 95, accessibility 100, best practices 100.

Lighthouse is the npm package ``lighthouse@12.2.3``, installed the first time
into ``benchmarks/.lighthouse/`` (git ignores it) and run with Debian's
Chromium (``CHROME_PATH``, default ``/usr/bin/chromium``). The server runs
from this checkout on a free port of 127.0.0.1, with its own data folder.

    python benchmarks/bench_web.py                 # a table of the figures
    python benchmarks/bench_web.py --json          # the same, machine-readable
    python benchmarks/bench_web.py --runs 3        # the median of 3 runs per page
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from bench_server import free_port, start_server, stop_server
from websockets.sync.client import connect

LIGHTHOUSE = "lighthouse@12.2.3"
FOLDER = Path(__file__).resolve().parent / ".lighthouse"
CLI = FOLDER / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices")
TARGETS = {"performance": 95, "accessibility": 100, "best-practices": 100}


def install() -> None:
    """Lighthouse into benchmarks/.lighthouse/, once."""
    if CLI.exists():
        return
    npm = shutil.which("npm")
    if not npm:
        sys.exit("npm is missing: Lighthouse is installed with it (apt-get install -y npm)")
    FOLDER.mkdir(exist_ok=True)
    print(f"installing {LIGHTHOUSE} into {FOLDER} …", file=sys.stderr)
    subprocess.run([npm, "install", "--prefix", str(FOLDER), "--no-audit", "--no-fund",
                    "--loglevel=error", LIGHTHOUSE], check=True, stdout=subprocess.DEVNULL)


def lighthouse(url: str, chrome: str) -> dict[str, Any]:
    """One Lighthouse run of ``url`` (mobile profile): its scores, bytes and flagged audits."""
    cmd = ["node", str(CLI), url, "--output=json", "--output-path=stdout", "--quiet",
           f"--only-categories={','.join(CATEGORIES)}",
           "--chrome-flags=--headless=new --no-sandbox"]
    done = subprocess.run(cmd, env=dict(os.environ, CHROME_PATH=chrome), capture_output=True,
                          text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    audits = report["audits"]
    flagged = sorted(f"{c}: {a['id']}" for c in CATEGORIES
                     for a in report["categories"][c]["auditRefs"]
                     if a.get("weight") and (audits[a["id"]].get("score") is not None)
                     and audits[a["id"]]["score"] < 1)
    return {**scores, "bytes": int(audits["total-byte-weight"]["numericValue"]),
            "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
            "flagged": flagged}


def seated_table(base: str) -> str:
    """A table with a player and three bots; its personal link (the seat token in it)."""
    made = httpx.post(f"{base}/api/tables", json={
        "name": "Kari", "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3},
        timeout=30).json()
    return f"{base}/t/{made['code']}#seat={made['token']}"


def finished_game(base: str, timeout: float) -> tuple[str, int]:
    """The code of a finished 7-round game and its replay's size over the wire (gzip)."""
    made = httpx.post(f"{base}/api/tables", json={
        "preset": "liverpool", "away_seconds": 5,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3}, timeout=30).json()
    ws_base = base.replace("http", "ws", 1)
    with connect(f"{ws_base}/ws/{made['code']}",
                 subprotocols=["liverpool", f"token.{made['token']}"]) as ws:  # type: ignore[list-item]
        json.loads(ws.recv(timeout=10))  # the snapshot: the seat came, then goes
    deadline = time.monotonic() + timeout
    while True:
        answer = httpx.get(f"{base}/api/tables/{made['code']}/replay", params={"lang": "en"},
                           headers={"Accept-Encoding": "gzip"}, timeout=30)
        if answer.json()["over"]:
            return made["code"], answer.num_bytes_downloaded
        if time.monotonic() > deadline:
            raise RuntimeError("the bots did not finish the 7-round game in time")
        time.sleep(0.5)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page (the median)")
    ap.add_argument("--chrome", default=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    ap.add_argument("--timeout", type=float, default=300, help="seconds for the bots' game")
    args = ap.parse_args()
    install()
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        port = free_port()
        proc = start_server(Path(tmp), port, None)
        base = f"http://127.0.0.1:{port}"
        try:
            code, replay_bytes = finished_game(base, args.timeout)
            pages = {"lobby": lambda: f"{base}/", "table (seated)": lambda: seated_table(base),
                     "replay (7 rounds)": lambda: f"{base}/replay/{code}"}
            rows: dict[str, dict[str, Any]] = {}
            for name, url in pages.items():
                runs = [lighthouse(url(), args.chrome) for _ in range(args.runs)]
                row = {k: statistics.median(r[k] for r in runs) for k in (*CATEGORIES, "bytes", "lcp_ms")}
                row["flagged"] = sorted({f for r in runs for f in r["flagged"]})
                rows[name] = row
        finally:
            stop_server(proc)
    out = {"lighthouse": LIGHTHOUSE, "profile": "mobile", "runs": args.runs, "pages": rows,
           "replay_api_bytes_gzip": replay_bytes, "targets": TARGETS}
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"Lighthouse {LIGHTHOUSE.split('@')[1]}, mobile profile, median of {args.runs} run(s)")
    print(f"{'page':<20} {'perf':>5} {'a11y':>5} {'best':>5} {'LCP ms':>7} {'bytes':>9}")
    for name, r in rows.items():
        print(f"{name:<20} {r['performance']:>5.0f} {r['accessibility']:>5.0f} "
              f"{r['best-practices']:>5.0f} {r['lcp_ms']:>7.0f} {r['bytes']:>9,.0f}")
    print(f"the 7-round replay's answer alone: {replay_bytes:,} bytes (gzip)")
    print("targets: " + ", ".join(f"{k} >= {v}" for k, v in TARGETS.items()))
    for name, r in rows.items():
        if r["flagged"]:
            print(f"flagged on {name}: {', '.join(r['flagged'])}")


if __name__ == "__main__":
    main()
