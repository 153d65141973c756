"""The game server under load (issue: the server's tests and benchmark).

``--tables`` tables at once (default 200), each with one scripted player over
a WebSocket and three bots (``medium``, without their display delay: the
server runs with ``--bot-delay 0``). Each player plays ``--actions`` of its
own decisions (default 20; buy windows pass at once for it, "don't ask me to
buy", so only its turns are timed). Side by side in the same run, each table
also has a connection to a bare WebSocket echo endpoint of the same server
(``LIVERPOOL_ECHO=1``) that sends a message of the same size after each of
its actions. Figures:

* p50, p99 and max from an action sent to its ``update`` received, and the
  same for the echo (targets: p99 <= 100 ms; our p50 within 2x the echo's);
* errors: error frames, timeouts and lost connections (target 0);
* memory per idle table: the server's resident memory before and after
  ``--idle`` more tables (default 200) that wait for their player
  (target <= 200 KB);
* the server's CPU time over the run.

All traffic goes to 127.0.0.1; every loop is bounded (``--timeout``).

    python benchmarks/bench_server.py                       # 200 tables, 20 actions each
    python benchmarks/bench_server.py --tables 50 --actions 50
    python benchmarks/bench_server.py --profile /tmp/server.prof   # cProfile of the server
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

OPTIONS: dict[str, Any] = {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def start_server(data: Path, port: int, profile: str | None, *, args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None, log: str = "server.log",
                 bot_delay: float = 0.0) -> subprocess.Popen[bytes]:
    """``liverpool serve`` on ``port`` (its log in ``data / log``), with the echo
    endpoint; ``args`` and ``env`` are added to its command line and environment."""
    code = "from liverpool.server.cli import serve_command; serve_command()"
    if profile:
        code = ("import cProfile; from liverpool.server.cli import serve_command; "
                f"cProfile.run('serve_command()', {profile!r})")
    cmd = [sys.executable, "-c", code, "--port", str(port), "--data", str(data),
           "--bot-delay", str(bot_delay), "--log-level", "warning", *args]
    environment = dict(os.environ, LIVERPOOL_ECHO="1", **(env or {}))
    proc = subprocess.Popen(cmd, env=environment, stdout=subprocess.DEVNULL,
                            stderr=open(data / log, "wb"))  # noqa: SIM115
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server ended: {(data / log).read_text()}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not come up")


def stop_server(proc: subprocess.Popen[bytes]) -> str:
    """Stop a server process (SIGINT, then SIGKILL after 60 s); how it went."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        return "killed after 60 s"
    return f"stopped in {time.monotonic() - t0:.1f} s"


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A scripted player's choice: draw from the stock, lay down when it can,
    else discard its first card (or whatever is first)."""
    by_type: dict[str, dict[str, Any]] = {}
    for a in legal:
        by_type.setdefault(a["type"], a)
    for kind in ("cut", "lay_down", "commit", "draw", "discard", "pass"):
        if kind in by_type:
            if kind == "draw":
                return next(a for a in legal if a["type"] == "draw" and a["source"] == "stock") \
                    if any(a.get("source") == "stock" for a in legal) else by_type["draw"]
            return by_type[kind]
    return legal[0]


class Stats:
    def __init__(self) -> None:
        self.game: list[float] = []
        self.echo: list[float] = []
        self.errors: list[str] = []
        self.sizes: list[int] = []
        self.finished = 0


async def read_into(ws: Any, queue: asyncio.Queue[tuple[float, str]]) -> None:
    """Every frame of ``ws`` into ``queue`` with the moment it came."""
    clock = time.perf_counter
    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
        async for text in ws:
            queue.put_nowait((clock(), text))


class Start:
    """Every table is made and connected before any player starts."""

    def __init__(self, tables: int) -> None:
        self.waiting = tables
        self.go = asyncio.Event()

    def count(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0:
            self.go.set()

    async def ready(self) -> None:
        self.count()
        await self.go.wait()


async def one_table(ws_base: str, base: str, actions: int, stats: Stats,
                    client: httpx.AsyncClient,
                    timeout: float,  # noqa: ASYNC109 - a bound for each wait, no cancel scope
                    think: float, start: Start) -> None:
    clock = time.perf_counter
    counted = False
    try:
        r = await client.post(f"{base}/api/tables", json={
            "preset": "liverpool", "options": OPTIONS, "name": "bench",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3})
        r.raise_for_status()
        made = r.json()
        async with websockets.connect(f"{ws_base}/ws/{made['code']}", ping_interval=None,
                                      max_size=2 ** 22, subprotocols=[
                                          "liverpool", f"token.{made['token']}"]) as ws, \
                websockets.connect(f"{ws_base}/ws-echo", ping_interval=None) as echo:
            await ws.send(json.dumps({"type": "settings", "auto_pass": True}))
            inbox: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
            reader = asyncio.create_task(read_into(ws, inbox))
            counted = True
            await asyncio.wait_for(start.ready(), timeout)
            done = 0
            sent_at: float | None = None
            sent_n = -1
            last: dict[str, Any] = {}
            view: dict[str, Any] | None = None
            n = -1
            end = time.monotonic() + timeout
            while done < actions:
                if time.monotonic() > end:
                    stats.errors.append("timeout")
                    return
                came, text = await asyncio.wait_for(inbox.get(),
                                                    max(0.01, end - time.monotonic()))
                frame = json.loads(text)
                kind = frame["type"]
                if kind == "ping":
                    await ws.send('{"type":"pong"}')
                elif kind == "error":
                    stats.errors.append(frame["code"])
                    sent_at = None
                elif kind in ("snapshot", "update"):
                    if kind == "update" and frame["n"] != n + 1:
                        stats.errors.append("gap")
                    n = frame["n"]
                    view = frame["view"]
                    if sent_at is not None and n == sent_n + 1:
                        stats.game.append(came - sent_at)
                        stats.sizes.append(len(text))
                        sent_at = None
                        done += 1
                        # the echo, under the same load, with a message of the same size
                        message = json.dumps({"type": "action", "version": sent_n,
                                              "action": last})
                        t0 = clock()
                        await echo.send(message)
                        back = await asyncio.wait_for(echo.recv(), 10)
                        stats.echo.append(clock() - t0)
                        if back != message:
                            stats.errors.append("echo")
                    if view["phase"] == "game_over":
                        stats.finished += 1
                        return
                # its decision, and nothing more to read: act (after a look)
                if (view is None or sent_at is not None or not inbox.empty()
                        or not view["legal_actions"] or view["to_move"] != 0
                        or view["phase"] in ("buy", "call") or done >= actions):
                    continue
                if think > 0:  # a person looks at the table first
                    await asyncio.sleep(random.uniform(0.5 * think, 1.5 * think))
                    if not inbox.empty():
                        continue  # something came meanwhile: read it, then decide
                last = choose(view["legal_actions"])
                sent_n = n
                sent_at = clock()
                await ws.send(json.dumps({"type": "action", "version": n, "action": last}))
            reader.cancel()
    except (OSError, websockets.exceptions.WebSocketException, TimeoutError,
            httpx.HTTPError) as e:
        stats.errors.append(type(e).__name__)
    finally:
        if not counted:  # (the others do not wait for it)
            start.count()


async def idle_tables(base: str, count: int) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        sem = asyncio.Semaphore(16)

        async def one() -> None:
            async with sem:
                r = await client.post(f"{base}/api/tables", json={
                    "preset": "liverpool", "options": OPTIONS,
                    "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3})
                r.raise_for_status()

        await asyncio.gather(*(one() for _ in range(count)))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def main_async(args: argparse.Namespace, port: int, pid: int) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    ws_base = f"ws://127.0.0.1:{port}"
    stats = Stats()
    cpu0 = cpu_seconds(pid)
    mine0 = time.process_time()
    t0 = time.perf_counter()
    limits = httpx.Limits(max_connections=32)
    start = Start(args.tables)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        await asyncio.gather(*(one_table(ws_base, base, args.actions, stats, client,
                                         args.timeout, args.think, start)
                               for _ in range(args.tables)))
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    mine = time.process_time() - mine0
    await asyncio.sleep(1.0)  # the tables settle: every one waits for its player
    before = rss_kb(pid)
    await idle_tables(base, args.idle)
    await asyncio.sleep(2.0)
    after = rss_kb(pid)
    return {"stats": stats, "wall": wall, "cpu": cpu, "client_cpu": mine, "rss_before": before,
            "rss_after": after}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20,
                        help="timed actions of each table's player")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player looks before it acts (0.5x to 1.5x; "
                             "0: at once, the server saturated)")
    parser.add_argument("--idle", type=int, default=200, help="idle tables for the memory")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per table")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="run the server under cProfile and write its stats here")
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        proc = start_server(Path(folder), port, args.profile)
        try:
            out = asyncio.run(main_async(args, port, proc.pid))
        finally:
            stop_server(proc)
        log = (Path(folder) / "server.log").read_text(errors="replace")
        with sqlite3.connect(Path(folder) / "liverpool.sqlite3") as db:
            stored = db.execute("select count(*) from actions").fetchone()[0]
    stats: Stats = out["stats"]
    ms = 1000.0
    game, echo = stats.game, stats.echo
    print(f"tables {args.tables}, timed actions {len(game)} ({args.actions} each, think "
          f"{args.think} s), finished games {stats.finished}, wall {out['wall']:.1f} s")
    print(f"server: {stored} actions stored (bots' and players'), CPU {out['cpu']:.1f} s: "
          f"{out['cpu'] / max(1, stored) * 1000:.2f} ms of CPU per action, "
          f"{stored / out['wall']:.0f} actions/s; the clients' CPU {out['client_cpu']:.1f} s")
    print(f"action -> update: p50 {pct(game, .5) * ms:.1f} ms, p99 {pct(game, .99) * ms:.1f} ms,"
          f" max {max(game, default=0) * ms:.1f} ms (target p99 <= 100 ms)")
    print(f"echo round trip:  p50 {pct(echo, .5) * ms:.1f} ms, p99 {pct(echo, .99) * ms:.1f} ms,"
          f" max {max(echo, default=0) * ms:.1f} ms")
    ratio = pct(game, .5) / pct(echo, .5) if echo else float("nan")
    print(f"p50 ratio game/echo: {ratio:.2f} (target <= 2)")
    print(f"update size: median {statistics.median(stats.sizes) if stats.sizes else 0:.0f} "
          f"bytes")
    errors: dict[str, int] = {}
    for e in stats.errors:
        errors[e] = errors.get(e, 0) + 1
    print(f"errors: {len(stats.errors)} {errors or ''} (target 0)")
    per_table = (out["rss_after"] - out["rss_before"]) / max(1, args.idle)
    print(f"memory: {out['rss_before'] / 1024:.1f} MB -> {out['rss_after'] / 1024:.1f} MB with "
          f"{args.idle} idle tables more: {per_table:.0f} KB per idle table (target <= 200 KB)")
    problems = [line for line in log.splitlines() if "Traceback" in line or "ERROR" in line]
    if problems:
        print(f"server log: {len(problems)} problems, e.g. {problems[0]}")
    ok = (not stats.errors and pct(game, .99) <= 0.1 and ratio <= 2 and per_table <= 200)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
