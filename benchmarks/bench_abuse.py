"""The server under attack (issue: a game server you can put on the open internet).

One ``liverpool serve`` process on SQLite. ``--tables`` honest tables (default
50), each with one scripted player and three ``medium`` bots, play one-round
games (a short ruleset) over and over: when a game ends its player makes a new
table, so tables are created and finished all the time. Each honest table is
made and played from an address of its own (127.0.1.x: a family at home), so
that limits per address never touch them. The player looks ``--think`` seconds
(0.5x to 1.5x) before each of its decisions and times each action sent to its
``update`` received.

An attacker on other loopback addresses (127.0.0.2 and up) then runs, one
phase at a time, each beside the honest tables, and an unattacked phase of the
same length comes first:

* ``sync``: 200 WebSocket connections (10 per address, over 20 addresses)
  watching the honest tables and a finished game, each sending ``sync``
  from the first event at the rate the server allows a connection;
* ``create``: 10 table creations a second for ``--create-seconds`` (60) from
  one address;
* ``replay``: 50 concurrent replay requests of a finished game each second;
* ``probe``: 1,000 invite-code probes (HTTP and WebSocket) from one address.

Then a soak of ``--soak-minutes`` (10): the honest tables only, creating and
finishing tables; the server's resident memory after the first minute (the
warm-up), each minute after it and at the end (a finished table leaves memory
after ``--finished-seconds``, 60 s by default).

Figures per phase: the honest actions timed, p50/p99/max of action -> update
(target p99 <= 100 ms), honest errors (target 0: error frames, gaps, lost
connections, failed creations), and the attacker's requests by answer (the
documented codes of docs/protocol.md). All traffic goes to 127.0.0.0/8; every
loop is bounded in count and time; the server and its folder are removed at
the end.

    python benchmarks/bench_abuse.py                       # the whole run (about 17 min)
    python benchmarks/bench_abuse.py --phase-seconds 20 --create-seconds 20 --soak-minutes 2
    python benchmarks/bench_abuse.py --json                # the figures as JSON too
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_server as bs  # noqa: E402

SHORT = {"contracts": ["SS"], "deal": [7]}
SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3
#: a connection's allowed message rate (the server's own, docs/protocol.md)
SYNC_RATE = 18.0


def honest_address(i: int) -> str:
    return f"127.0.1.{1 + i % 250}"


def attacker_address(i: int) -> str:
    return f"127.0.0.{2 + i % 250}"


async def open_seat(ws_base: str, code: str, token: str | None, address: str) -> Any:
    """A WebSocket to a table from ``address``, presenting the seat token (None:
    a spectator) as docs/protocol.md says: as the subprotocol ``token.<TOKEN>``
    beside ``liverpool``."""
    offered = ["liverpool", *([f"token.{token}"] if token else [])]
    return await websockets.connect(f"{ws_base}/ws/{code}", ping_interval=None,
                                    max_size=2 ** 23, local_addr=(address, 0),
                                    open_timeout=20, subprotocols=offered)


@dataclass
class Honest:
    """The honest players' figures of one phase."""

    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games: int = 0


class Run:
    def __init__(self, base: str, ws_base: str, think: float) -> None:
        self.base = base
        self.ws_base = ws_base
        self.think = think
        self.phase = Honest()
        self.stopping = False
        self.finished_codes: list[str] = []
        self.live_codes: list[str] = []

    async def honest_table(self, i: int) -> None:
        """Table after table from one address until the run stops."""
        address = honest_address(i)
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(timeout=30, transport=transport) as client:
            while not self.stopping:
                try:
                    r = await client.post(f"{self.base}/api/tables", json={
                        "preset": "liverpool", "options": SHORT, "seats": SEATS,
                        "name": f"Family {i}", "lang": "en"})
                    if r.status_code != 201:
                        self.phase.errors[f"create {r.status_code}"] += 1
                        await asyncio.sleep(1.0)
                        continue
                    made = r.json()
                    self.live_codes.append(made["code"])
                    await self.play(made["code"], made["token"], address)
                    self.live_codes.remove(made["code"])
                except (OSError, websockets.exceptions.WebSocketException, TimeoutError,
                        httpx.HTTPError) as e:
                    self.phase.errors[type(e).__name__] += 1
                    await asyncio.sleep(1.0)

    async def play(self, code: str, token: str, address: str) -> None:
        clock = time.perf_counter
        ws = await open_seat(self.ws_base, code, token, address)
        try:
            await ws.send(json.dumps({"type": "settings", "auto_pass": True}))
            n = -1
            sent_at: float | None = None
            sent_n = -1
            view: dict[str, Any] | None = None
            deadline = time.monotonic() + 600
            while not self.stopping and time.monotonic() < deadline:
                try:
                    text = await asyncio.wait_for(ws.recv(), 30)
                except TimeoutError:
                    self.phase.errors["silence"] += 1
                    return
                came = clock()
                frame = json.loads(text)
                kind = frame["type"]
                if kind == "ping":
                    await ws.send('{"type":"pong"}')
                    continue
                if kind == "error":
                    self.phase.errors[frame["code"]] += 1
                    sent_at = None
                    continue
                if kind not in ("snapshot", "update"):
                    continue
                if kind == "update" and frame["n"] != n + 1:
                    self.phase.errors["gap"] += 1
                n = frame["n"]
                view = frame["view"]
                if sent_at is not None and n == sent_n + 1:
                    self.phase.latencies.append(came - sent_at)
                    sent_at = None
                if view["phase"] == "game_over":
                    self.phase.games += 1
                    self.finished_codes.append(code)
                    del self.finished_codes[:-20]
                    return
                if (sent_at is not None or not view["legal_actions"] or view["to_move"] != 0
                        or view["phase"] in ("buy", "call")):
                    continue
                await asyncio.sleep(random.uniform(0.5 * self.think, 1.5 * self.think))
                with contextlib.suppress(TimeoutError):  # something came meanwhile
                    text = await asyncio.wait_for(ws.recv(), 0.001)
                    frame = json.loads(text)
                    if frame["type"] in ("snapshot", "update"):
                        if frame["type"] == "update" and frame["n"] != n + 1:
                            self.phase.errors["gap"] += 1
                        n, view = frame["n"], frame["view"]
                    elif frame["type"] == "ping":
                        await ws.send('{"type":"pong"}')
                    if view is None or view["phase"] == "game_over" or view["to_move"] != 0 \
                            or view["phase"] in ("buy", "call") or not view["legal_actions"]:
                        continue
                action = bs.choose(view["legal_actions"])
                sent_n = n
                sent_at = clock()
                await ws.send(json.dumps({"type": "action", "version": n, "action": action}))
        finally:
            await ws.close()


# ------------------------------------------------------------------ the attacker
async def attack_sync(run: Run, seconds: float, sockets: int = 200) -> Counter[str]:
    """``sockets`` spectators (10 per address) sending ``sync`` at the allowed rate."""
    answers: Counter[str] = Counter()
    end = time.monotonic() + seconds
    targets = (run.finished_codes[-1:] + run.live_codes) or run.finished_codes

    async def one(i: int) -> None:
        code = targets[i % len(targets)]
        try:
            ws = await open_seat(run.ws_base, code, None, attacker_address(i // 10))
        except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as e:
            answers[f"connect refused: {getattr(e, 'status_code', type(e).__name__)}"] += 1
            return
        answers["connected"] += 1

        async def read() -> None:
            with contextlib.suppress(websockets.exceptions.ConnectionClosed):
                async for text in ws:
                    frame = json.loads(text)
                    answers[frame["type"] if frame["type"] != "error"
                            else f"error {frame['code']}"] += 1

        reader = asyncio.create_task(read())
        try:
            while time.monotonic() < end:
                await ws.send('{"type":"sync","events_since":0}')
                answers["sync sent"] += 1
                await asyncio.sleep(1.0 / SYNC_RATE)
        except websockets.exceptions.ConnectionClosed as e:
            answers[f"closed {e.rcvd.code if e.rcvd else '?'}"] += 1
        finally:
            reader.cancel()
            await ws.close()

    await asyncio.gather(*(one(i) for i in range(sockets)))
    return answers


async def attack_create(run: Run, seconds: float, per_second: float = 10.0) -> Counter[str]:
    answers: Counter[str] = Counter()
    transport = httpx.AsyncHTTPTransport(local_address=attacker_address(100))
    async with httpx.AsyncClient(timeout=30, transport=transport) as client:
        async def one() -> None:
            try:
                r = await client.post(f"{run.base}/api/tables", json={
                    "preset": "liverpool", "seats": SEATS})
                answers[_answer(r)] += 1
            except httpx.HTTPError as e:
                answers[type(e).__name__] += 1

        tasks = []
        for _ in range(int(seconds * per_second)):
            tasks.append(asyncio.create_task(one()))
            await asyncio.sleep(1.0 / per_second)
        await asyncio.gather(*tasks)
    return answers


async def attack_replay(run: Run, seconds: float, per_second: int = 50) -> Counter[str]:
    answers: Counter[str] = Counter()
    code = run.finished_codes[-1]
    transport = httpx.AsyncHTTPTransport(local_address=attacker_address(101))
    limits = httpx.Limits(max_connections=per_second)
    async with httpx.AsyncClient(timeout=30, transport=transport, limits=limits) as client:
        async def one(lang: str) -> None:
            try:
                r = await client.get(f"{run.base}/api/tables/{code}/replay?lang={lang}")
                answers[_answer(r)] += 1
            except httpx.HTTPError as e:
                answers[type(e).__name__] += 1

        tasks = []
        for second in range(int(seconds)):
            tasks += [asyncio.create_task(one(("en", "nb", "da")[(second + k) % 3]))
                      for k in range(per_second)]
            await asyncio.sleep(1.0)
        await asyncio.gather(*tasks)
    return answers


async def attack_probe(run: Run, count: int = 1000) -> Counter[str]:
    answers: Counter[str] = Counter()
    letters = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
    address = attacker_address(102)
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(timeout=30, transport=transport) as client:
        for i in range(count):
            code = "".join(random.choice(letters) for _ in range(6))
            if i % 2:
                try:
                    r = await client.get(f"{run.base}/api/tables/{code}")
                    answers[f"http {_answer(r)}"] += 1
                except httpx.HTTPError as e:
                    answers[type(e).__name__] += 1
                continue
            try:
                ws = await open_seat(run.ws_base, code, None, address)
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    answers[f"ws {frame.get('code', frame['type'])}"] += 1
                finally:
                    await ws.close()
            except (OSError, websockets.exceptions.WebSocketException, TimeoutError) as e:
                answers[f"ws {getattr(e, 'status_code', type(e).__name__)}"] += 1
    return answers


def _answer(r: httpx.Response) -> str:
    if r.status_code < 400:
        return str(r.status_code)
    try:
        detail = r.json()["detail"]
        return f"{r.status_code} {detail['code']}"
    except (ValueError, KeyError, TypeError):
        return str(r.status_code)


# ------------------------------------------------------------------ the run
def figures(name: str, honest: Honest, attacker: Counter[str] | None,
            seconds: float) -> dict[str, Any]:
    ms = sorted(1000 * x for x in honest.latencies)
    return {"phase": name, "seconds": round(seconds, 1), "actions": len(ms),
            "p50_ms": round(bs.pct(ms, 0.5), 1), "p99_ms": round(bs.pct(ms, 0.99), 1),
            "max_ms": round(max(ms), 1) if ms else None, "games": honest.games,
            "honest_errors": dict(honest.errors), "attacker": dict(attacker or {})}


async def drive(args: argparse.Namespace, base: str, ws_base: str, pid: int
                ) -> dict[str, Any]:
    run = Run(base, ws_base, args.think)
    players = [asyncio.create_task(run.honest_table(i)) for i in range(args.tables)]
    out: dict[str, Any] = {"phases": []}
    try:
        # warm up until some games have finished (a finished game to replay and watch)
        warm_end = time.monotonic() + 300
        while len(run.finished_codes) < 3 and time.monotonic() < warm_end:  # noqa: ASYNC110
            await asyncio.sleep(1.0)
        if not run.finished_codes:
            raise RuntimeError("no honest game finished in 5 minutes")

        async def phase(name: str, attack: Any, seconds: float) -> None:
            run.phase = Honest()
            t0 = time.monotonic()
            if attack is None:
                await asyncio.sleep(seconds)
                answers = None
            else:
                answers = await attack
            out["phases"].append(figures(name, run.phase, answers, time.monotonic() - t0))
            print(json.dumps(out["phases"][-1]), flush=True)

        s = args.phase_seconds
        await phase("unattacked", None, s)
        await phase("sync x200", attack_sync(run, s), s)
        await phase("create 10/s", attack_create(run, args.create_seconds), args.create_seconds)
        await phase("replay 50/s", attack_replay(run, s), s)
        await phase("probe x1000", attack_probe(run), 0)
        if args.soak_minutes > 0:
            run.phase = Honest()
            t0 = time.monotonic()
            await asyncio.sleep(min(60.0, 60 * args.soak_minutes / 2))
            out["rss_warm_kb"] = bs.rss_kb(pid)
            out["rss_minutes_kb"] = [out["rss_warm_kb"]]  # (each minute: a plateau or a climb)
            while (left := 60 * args.soak_minutes - (time.monotonic() - t0)) > 0:
                await asyncio.sleep(min(60.0, left))
                out["rss_minutes_kb"].append(bs.rss_kb(pid))
            out["rss_end_kb"] = bs.rss_kb(pid)
            out["phases"].append(figures("soak", run.phase, None, time.monotonic() - t0))
            print(json.dumps(out["phases"][-1]), flush=True)
    finally:
        run.stopping = True
        for p in players:
            p.cancel()
        await asyncio.gather(*players, return_exceptions=True)
    return out


def print_table(out: dict[str, Any]) -> None:
    print(f"\n{'phase':<14}{'actions':>8}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
          f"{'games':>7}  honest errors / attacker's answers")
    for p in out["phases"]:
        errors = ", ".join(f"{k} {v}" for k, v in p["honest_errors"].items()) or "0"
        print(f"{p['phase']:<14}{p['actions']:>8}{p['p50_ms']:>9}{p['p99_ms']:>9}"
              f"{p['max_ms']!s:>9}{p['games']:>7}  {errors}")
        if p["attacker"]:
            print(" " * 16 + "attacker: " + ", ".join(
                f"{k} {v}" for k, v in sorted(p["attacker"].items())))
    if "rss_end_kb" in out:
        warm, end = out["rss_warm_kb"], out["rss_end_kb"]
        print(f"\nserver RSS after warm-up {warm / 1024:.1f} MB, after the soak "
              f"{end / 1024:.1f} MB ({100 * (end - warm) / warm:+.1f} %)")
        print("server RSS each minute of the soak (MB): "
              + " ".join(f"{kb / 1024:.0f}" for kb in out.get("rss_minutes_kb", [])))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50, help="honest tables")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds an honest player looks before it acts")
    parser.add_argument("--phase-seconds", type=float, default=60.0)
    parser.add_argument("--create-seconds", type=float, default=60.0)
    parser.add_argument("--soak-minutes", type=float, default=10.0)
    parser.add_argument("--bot-delay", type=float, default=0.3,
                        help="the server's bot delay (seconds)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))
    # a benchmark stopped with kill (SIGTERM) still stops its server and removes its folder
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory() as folder:
        port = bs.free_port()
        proc = bs.start_server(Path(folder), port, None, bot_delay=args.bot_delay)
        try:
            out = asyncio.run(drive(args, f"http://127.0.0.1:{port}",
                                    f"ws://127.0.0.1:{port}", proc.pid))
        finally:
            bs.stop_server(proc)
        log = (Path(folder) / "server.log").read_text(errors="replace")
    problems = [line for line in log.splitlines() if "Traceback" in line or "ERROR" in line]
    out["server_log_problems"] = problems[:20]
    print_table(out)
    if problems:
        print(f"\nthe server logged {len(problems)} problems, the first: {problems[0]}")
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
