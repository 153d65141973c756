"""Many tables, many processes: PostgreSQL and Redis (issue 14).

Two ``liverpool serve`` processes (ports A and B) share one PostgreSQL
database and one Redis, both real servers of the benchmark's own (started in
temporary folders on 127.0.0.1, see tests/servers.py). ``--tables`` tables
(default 1000) are made alternately through A and B, each with one scripted
player and three ``medium`` bots at the pace people see them play (the
server's ``--bot-delay``, default 0.8 s, a table's own default; with 0 the bots
answer at once and each of the player's decisions brings about eight stored
actions: a test of capacity rather than of tables as people play them). The player connects to the process its table was made on,
and a spectator of the same table connects to the *other* process: the
spectator gets the same ``update`` as the player, only by way of storage and
Redis. Each player looks ``--think`` seconds (0.5x to 1.5x, default 1.0) before
each of its ``--actions`` decisions (default 10; buy windows pass at once for
it). Connections are made ``--ramp`` tables at a time and play starts only
when every table is connected, so that connecting is not timed.

Figures, for the two processes and then, side by side in the same run, for
the same load on ONE process with SQLite and no Redis (its spectator on the
same process; ``--skip-sqlite`` leaves it out):

* p50, p99 and max from the player's action sent to its own ``update`` with
  the next version, and to the spectator's on the other process (target
  p99 <= 150 ms);
* errors: error frames, gaps, versions the spectator never saw, timeouts and
  lost connections (target 0). An ``update`` with the same ``n`` as the last
  one (docs/protocol.md: one more each time) is counted apart;
* memory per table: each server process's resident memory before the tables
  and once they are loaded (before play), over the tables it holds;
* CPU seconds of each server process (its main thread and the others), of
  PostgreSQL, of Redis, of this client and of the whole machine over the play
  (a shared machine's other load shows there).

All traffic goes to 127.0.0.1; every wait is bounded (``--timeout`` per
table); the servers and their folders are removed at the end.

    python benchmarks/bench_scale.py                         # 1000 tables, 10 actions each
    python benchmarks/bench_scale.py --tables 300 --json     # and the figures as JSON
    python benchmarks/bench_scale.py --tables 300 --profile /tmp/scale.prof  # cProfile per process
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import bench_server as bs  # noqa: E402
from servers import PostgresServer, RedisServer  # noqa: E402

UPDATE = '{"type":"update","n":'
SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3


def update_number(text: str) -> int | None:
    """The version of an ``update`` frame, read off its start (no JSON parse);
    None for any other frame."""
    if not text.startswith(UPDATE):
        return None
    return int(text[len(UPDATE):text.index(",", len(UPDATE))])


@dataclass
class Load:
    """What one setup's players measured."""

    own: list[float] = field(default_factory=list)
    other: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: updates whose ``n`` was not one past the last (who: "player" or
    #: "spectator", n minus the last n, whether the player's action was in flight)
    gaps: list[tuple[str, int, bool]] = field(default_factory=list)
    finished: int = 0

    def out_of_order(self, who: str, jump: int, in_flight: bool) -> None:
        """An update whose ``n`` is not one more than the last (docs/protocol.md):
        the same version again is counted apart; one skipped or older, an error."""
        self.gaps.append((who, jump, in_flight))
        if jump != 0:
            self.errors.append(f"{who} {'gap' if jump > 0 else 'older'}")

    def error_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for e in self.errors:
            counts[e] = counts.get(e, 0) + 1
        return counts


class Spectator:
    """A spectator's connection: the moment each version's ``update`` came."""

    def __init__(self, ws: Any, load: Load) -> None:
        self.ws = ws
        self.load = load
        self.seen: dict[int, float] = {}  # version -> when it came (or a later one)
        self.n = -1
        self.snapshot = asyncio.Event()
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        clock = time.perf_counter
        with contextlib.suppress(websockets.exceptions.ConnectionClosed):
            async for text in self.ws:
                n = update_number(text)
                if n is not None:
                    came = clock()
                    if n != self.n + 1:
                        self.load.out_of_order("spectator", n - self.n, False)
                    for k in range(self.n + 1, n + 1):  # (an update past a gap has them)
                        self.seen[k] = came
                    self.n = n
                    continue
                frame = json.loads(text)
                if frame["type"] == "ping":
                    await self.ws.send('{"type":"pong"}')
                elif frame["type"] == "snapshot":
                    self.n = frame["n"]
                    self.seen[self.n] = clock()
                    self.snapshot.set()
                elif frame["type"] == "error":
                    self.load.errors.append(f"spectator {frame['code']}")

    async def until(self, n: int, timeout: float) -> bool:  # noqa: ASYNC109 - a bound, no cancel
        """Whether version ``n`` came within ``timeout`` seconds."""
        end = time.monotonic() + timeout
        # polls the reader's set: 50 ms is fine enough here
        while n not in self.seen and time.monotonic() < end and not self.task.done():  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        return n in self.seen


class Seat:
    """The scripted player's connection. Updates are parsed only when the player
    looks at its latest one; their versions are read off their start."""

    def __init__(self, ws: Any, load: Load) -> None:
        self.ws = ws
        self.load = load
        self.inbox: asyncio.Queue[tuple[float, str]] = asyncio.Queue()
        self.reader = asyncio.create_task(bs.read_into(ws, self.inbox))
        self.n = -1
        self.view: dict[str, Any] | None = None
        self.latest: str | None = None  # the last update's text, not parsed yet
        self.sent_at: float | None = None
        self.sent_n = -1
        self.sent: dict[int, float] = {}  # version awaited -> when its action was sent

    def take(self, came: float, text: str) -> list[str]:
        """One frame in; what the player must answer (pongs)."""
        n = update_number(text)
        if n is None:
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "ping":
                return ['{"type":"pong"}']
            if kind == "error":
                self.load.errors.append(frame["code"])
                self.sent_at = None
            elif kind == "snapshot":
                self.n, self.view, self.latest = frame["n"], frame["view"], None
            return []
        if n != self.n + 1:
            self.load.out_of_order("player", n - self.n, self.sent_at is not None)
        self.n, self.latest = n, text
        if self.sent_at is not None and n > self.sent_n:
            self.load.own.append(came - self.sent_at)
            self.sent_at = None
        return []

    def look(self) -> dict[str, Any] | None:
        if self.latest is not None:
            self.view = json.loads(self.latest)["view"]
            self.latest = None
        return self.view

    async def idle(self, until: asyncio.Event,
                   timeout: float) -> None:  # noqa: ASYNC109 - a bound of its own
        """Answer pings (and count errors) until ``until`` is set."""
        end = time.monotonic() + timeout
        while not until.is_set():
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError
            with contextlib.suppress(TimeoutError):
                came, text = await asyncio.wait_for(self.inbox.get(), min(0.5, left))
                for answer in self.take(came, text):
                    await self.ws.send(answer)

    async def act(self, action: dict[str, Any]) -> None:
        self.sent_n = self.n
        self.sent_at = time.perf_counter()
        self.sent[self.n + 1] = self.sent_at
        await self.ws.send(json.dumps({"type": "action", "version": self.n, "action": action}))


@dataclass
class Setup:
    """The server processes of one setup and the load's parameters."""

    bases: list[str]
    actions: int
    think: float
    timeout: float
    ramp: asyncio.Semaphore
    start: bs.Start  # every table connected
    done: bs.Start  # every player through its decisions (the tables stay connected)
    begin: asyncio.Event = field(default_factory=asyncio.Event)  # play
    load: Load = field(default_factory=Load)


async def connect(url: str, token: str | None = None) -> Any:
    """A WebSocket to ``url``; with ``token``, the seat's (offered as a subprotocol)."""
    return await websockets.connect(url, ping_interval=None, max_size=2 ** 22,
                                    open_timeout=30, subprotocols=[
                                        "liverpool", *([f"token.{token}"] if token else [])])


async def play(seat: Seat, setup: Setup) -> bool:
    """The player's decisions; False if it ran out of time."""
    end = time.monotonic() + setup.timeout
    done = 0
    while done < setup.actions:
        left = end - time.monotonic()
        if left <= 0:
            return False
        came, text = await asyncio.wait_for(seat.inbox.get(), left)
        had = seat.sent_at is not None
        for answer in seat.take(came, text):
            await seat.ws.send(answer)
        if had and seat.sent_at is None:
            done += 1
        if seat.sent_at is not None or not seat.inbox.empty():
            continue
        view = seat.look()
        if view is None:
            continue
        if view["phase"] == "game_over":
            setup.load.finished += 1
            return True
        if (not view["legal_actions"] or view["to_move"] != 0
                or view["phase"] in ("buy", "call") or done >= setup.actions):
            continue
        if setup.think > 0:  # a person looks at the table first
            await asyncio.sleep(random.uniform(0.5 * setup.think, 1.5 * setup.think))
            if not seat.inbox.empty():
                continue  # something came meanwhile: read it, then decide
        await seat.act(bs.choose(view["legal_actions"]))
    return True


async def one_table(i: int, setup: Setup, client: httpx.AsyncClient) -> None:
    """Table ``i``: made through process ``i % 2``, its player there, its
    spectator on the next process (the same one if there is only one)."""
    load = setup.load
    home = setup.bases[i % len(setup.bases)]
    away = setup.bases[(i + 1) % len(setup.bases)]
    counted = through = False
    player_ws = spectator_ws = None
    try:
        async with setup.ramp:
            r = await client.post(f"{home}/api/tables", json={
                "preset": "liverpool", "options": bs.OPTIONS, "name": f"scale {i}",
                "seats": SEATS})
            r.raise_for_status()
            made = r.json()
            code = made["code"]
            player_ws = await connect(f"{home.replace('http', 'ws')}/ws/{code}", made["token"])
            await player_ws.send(json.dumps({"type": "settings", "auto_pass": True}))
            seat = Seat(player_ws, load)
            spectator_ws = await connect(f"{away.replace('http', 'ws')}/ws/{code}")
            spectator = Spectator(spectator_ws, load)
            await asyncio.wait_for(spectator.snapshot.wait(), setup.timeout)
        counted = True
        setup.start.count()
        await asyncio.wait_for(setup.begin.wait(), setup.timeout)
        if not await play(seat, setup):
            load.errors.append("timeout")
        # the spectator's update of each of the player's actions
        if seat.sent and not await spectator.until(max(seat.sent), 10.0):
            load.errors.append("spectator_late")
        # connected until every table is through: no stand-in bot plays for a
        # player who left while the others are timed
        through = True
        setup.done.count()
        await seat.idle(setup.done.go, setup.timeout)
        for n, at in seat.sent.items():
            if n in spectator.seen:
                load.other.append(spectator.seen[n] - at)
            else:
                load.errors.append("spectator_missed")
        if seat.reader.done() or spectator.task.done():
            load.errors.append("connection_lost")
    except (OSError, websockets.exceptions.WebSocketException, TimeoutError,
            httpx.HTTPError) as e:
        load.errors.append(type(e).__name__)
    finally:
        if not counted:  # (the others do not wait for it)
            setup.start.count()
        if not through:
            setup.done.count()
        for ws in (player_ws, spectator_ws):
            if ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(), 5)


def threads_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of a process's main thread and of its other threads (the
    storage's worker threads among them)."""
    main = others = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            seconds = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            if int(task.name) == pid:
                main += seconds
            else:
                others += seconds
    return main, others


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (every process's, ours or not)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def health(base: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{base}/healthz", timeout=10).json()
    return data


def children_cpu(pid: int) -> float:
    """CPU seconds of ``pid``, its live children and those it has waited for
    (a PostgreSQL server and its backends)."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(f) for f in fields[11:15]) / ticks
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == pid:
                    total += bs.cpu_seconds(int(entry.name))
    return total


async def drive(args: argparse.Namespace, bases: list[str], pids: list[int],
                others: dict[str, int]) -> dict[str, Any]:
    """The load on ``bases`` (server processes ``pids``; ``others``: the
    PostgreSQL and Redis servers' pids, by name) and its figures."""
    before = [bs.rss_kb(pid) for pid in pids]
    setup = Setup(bases, args.actions, args.think, args.timeout, asyncio.Semaphore(args.ramp),
                  bs.Start(args.tables), bs.Start(args.tables))
    limits = httpx.Limits(max_connections=args.ramp)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        t_ramp = time.perf_counter()
        tasks = [asyncio.create_task(one_table(i, setup, client)) for i in range(args.tables)]
        await asyncio.wait_for(setup.start.go.wait(), args.timeout)
        ramp = time.perf_counter() - t_ramp
        await asyncio.sleep(2.0)  # the bots are done, every table waits for its player
        loaded = [bs.rss_kb(pid) for pid in pids]
        # (a process alone holds every table; its health does not count them)
        held = [health(base).get("tables", args.tables) for base in bases]
        cpu0 = [bs.cpu_seconds(pid) for pid in pids]
        threads0 = [threads_cpu(pid) for pid in pids]
        other0 = {name: children_cpu(pid) for name, pid in others.items()}
        mine0 = time.process_time()
        busy0 = machine_busy()
        t0 = time.perf_counter()
        setup.begin.set()
        await asyncio.wait_for(asyncio.gather(*tasks), args.timeout + 60)
        wall = time.perf_counter() - t0
        busy = machine_busy() - busy0
    cpu = [bs.cpu_seconds(pid) - c for pid, c in zip(pids, cpu0, strict=True)]
    # (threads that ended during the run are missing from the second)
    threads = [(t1[0] - t0[0], t1[1] - t0[1]) for t0, t1 in
               zip(threads0, (threads_cpu(pid) for pid in pids), strict=True)]
    return {"load": setup.load, "ramp": ramp, "wall": wall, "rss_before": before,
            "rss_loaded": loaded, "rss_after": [bs.rss_kb(pid) for pid in pids],
            "tables_held": held, "cpu": cpu, "threads": threads,
            "other_cpu": {name: children_cpu(pid) - other0[name]
                          for name, pid in others.items()},
            "client_cpu": time.process_time() - mine0, "machine_busy": busy,
            "load_average": os.getloadavg()[0]}


def stored_actions(url: str) -> int:
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sqlalchemy.text("select count(*) from actions")).scalar_one())
    finally:
        engine.dispose()


def log_problems(folder: Path) -> list[str]:
    lines: list[str] = []
    for log in sorted(folder.glob("*/server.log")):
        text = log.read_text(errors="replace")
        lines += [f"{log.parent.name}: {line}" for line in text.splitlines()
                  if "Traceback" in line or "ERROR" in line]
    return lines


def run_setup(args: argparse.Namespace, name: str, folder: Path, database: str,
              redis: RedisServer | None, others: dict[str, int]) -> dict[str, Any]:
    """Start the setup's server processes, drive the load, stop them."""
    count = 2 if redis is not None else 1
    procs: list[subprocess.Popen[bytes]] = []
    stops: list[str] = []
    bases: list[str] = []
    extra: tuple[str, ...] = ("--database", database)
    if redis is not None:
        extra += ("--redis", redis.url)
    try:
        for k in range(count):
            profile = f"{args.profile}.{name}.{k}" if args.profile else None
            port = bs.free_port()
            data = folder / f"{name}-{k}"
            data.mkdir()
            procs.append(bs.start_server(data, port, profile, args=extra,
                                         bot_delay=args.bot_delay))
            bases.append(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 30
        while redis is not None and time.monotonic() < deadline:
            if all(len(health(b)["processes"]) == count for b in bases):
                break
            time.sleep(0.2)
        out = asyncio.run(drive(args, bases, [p.pid for p in procs], others))
    finally:
        stops = [bs.stop_server(proc) for proc in procs]
    out["stored"] = stored_actions(database)
    out["problems"] = log_problems(folder)
    out["processes"] = count
    out["stops"] = stops
    return out


def summary(name: str, out: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    load: Load = out["load"]
    ms = 1000.0

    def spread(values: list[float]) -> dict[str, float]:
        return {"p50_ms": bs.pct(values, .5) * ms, "p99_ms": bs.pct(values, .99) * ms,
                "max_ms": max(values, default=float("nan")) * ms, "count": len(values)}

    held = out["tables_held"]
    per_table = [(b - a) / max(1, h) for a, b, h in
                 zip(out["rss_before"], out["rss_loaded"], held, strict=True)]
    return {
        "setup": name, "processes": out["processes"], "tables": args.tables,
        "actions_each": args.actions, "think_s": args.think, "bot_delay_s": args.bot_delay,
        "own_update": spread(load.own), "other_update": spread(load.other),
        "errors": len(load.errors), "error_kinds": load.error_counts(),
        "repeated_versions": {
            "player": sum(1 for who, jump, _ in load.gaps if who == "player" and not jump),
            "player_action_in_flight": sum(1 for who, jump, flying in load.gaps
                                           if who == "player" and not jump and flying),
            "spectator": sum(1 for who, jump, _ in load.gaps
                             if who == "spectator" and not jump)},
        "finished_games": load.finished,
        "tables_held": held, "rss_before_kb": out["rss_before"],
        "rss_loaded_kb": out["rss_loaded"], "rss_after_play_kb": out["rss_after"],
        "memory_per_table_kb": per_table,
        "server_cpu_s": out["cpu"], "other_cpu_s": out["other_cpu"],
        "server_main_thread_cpu_s": [t[0] for t in out["threads"]],
        "server_other_threads_cpu_s": [t[1] for t in out["threads"]],
        "client_cpu_s": out["client_cpu"], "ramp_s": out["ramp"], "wall_s": out["wall"],
        "machine_busy_s": out["machine_busy"],
        "others_cpu_s": out["machine_busy"] - sum(out["cpu"]) - sum(out["other_cpu"].values())
        - out["client_cpu"],
        "load_average_1min": out["load_average"],
        "cpu_ms_per_action": (sum(out["cpu"]) + sum(out["other_cpu"].values()))
        / max(1, out["stored"]) * 1000,
        "stored_actions": out["stored"],
        "actions_per_s": out["stored"] / max(1e-9, out["wall"]),
        "log_problems": out["problems"][:5], "stops": out["stops"],
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    def lat(r: dict[str, Any], key: str) -> str:
        s = r[key]
        return f"{s['p50_ms']:.1f} / {s['p99_ms']:.1f} / {s['max_ms']:.1f} ({s['count']})"

    def each(values: list[float], fmt: str) -> str:
        return " + ".join(format(v, fmt) for v in values)

    lines = [
        ("setup", lambda r: r["setup"]),
        ("tables (held per process)",
         lambda r: f"{r['tables']} ({each(r['tables_held'], 'd')})"),
        ("own update p50/p99/max ms", lambda r: lat(r, "own_update")),
        ("spectator's update p50/p99/max ms", lambda r: lat(r, "other_update")),
        ("errors (target 0)", lambda r: f"{r['errors']} {r['error_kinds'] or ''}".strip()),
        ("same n again: player (in flight), spectator",
         lambda r: "{player} ({player_action_in_flight}), {spectator}"
                   .format(**r["repeated_versions"])),
        ("memory per table KB", lambda r: each(r["memory_per_table_kb"], ".0f")),
        ("RSS MB before/loaded/after",
         lambda r: " | ".join(f"{a / 1024:.0f}/{b / 1024:.0f}/{c / 1024:.0f}" for a, b, c in
                              zip(r["rss_before_kb"], r["rss_loaded_kb"],
                                  r["rss_after_play_kb"], strict=True))),
        ("server CPU s (per process)", lambda r: each(r["server_cpu_s"], ".1f")),
        ("  of it: main thread / other threads",
         lambda r: " + ".join(f"{a:.1f}/{b:.1f}" for a, b in
                              zip(r["server_main_thread_cpu_s"],
                                  r["server_other_threads_cpu_s"], strict=True))),
        ("PostgreSQL / Redis CPU s",
         lambda r: " / ".join(f"{v:.1f}" for v in r["other_cpu_s"].values()) or "-"),
        ("client CPU s", lambda r: f"{r['client_cpu_s']:.1f}"),
        ("servers' CPU ms per stored action", lambda r: f"{r['cpu_ms_per_action']:.2f}"),
        ("machine: busy s of 2x wall, others' s, load",
         lambda r: f"{r['machine_busy_s']:.0f} of {r['wall_s'] * (os.cpu_count() or 1):.0f}, "
                   f"{r['others_cpu_s']:.0f}, {r['load_average_1min']:.1f}"),
        ("actions stored, per s",
         lambda r: f"{r['stored_actions']} ({r['actions_per_s']:.0f}/s)"),
        ("ramp s, play wall s", lambda r: f"{r['ramp_s']:.1f}, {r['wall_s']:.1f}"),
        ("server processes at the end", lambda r: "; ".join(r["stops"])),
    ]
    width = max(len(label) for label, _ in lines)
    cols = [[fn(r) for r in rows] for _, fn in lines]
    col_width = [max(len(c[i]) for c in cols) for i in range(len(rows))]
    for (label, _), cells in zip(lines, cols, strict=True):
        print(f"{label:<{width}}  " + "  ".join(f"{c:<{w}}" for c, w in
                                                zip(cells, col_width, strict=True)))
    for r in rows:
        for line in r["log_problems"]:
            print(f"{r['setup']}: server log: {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=10,
                        help="timed decisions of each table's player")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a player looks before it acts (0.5x to 1.5x)")
    parser.add_argument("--bot-delay", type=float, default=0.8,
                        help="the servers' --bot-delay (seconds)")
    parser.add_argument("--ramp", type=int, default=20,
                        help="tables being made and connected at once")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per table")
    parser.add_argument("--skip-sqlite", action="store_true",
                        help="leave out the single process on SQLite")
    parser.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                        help="the figures as JSON, to FILE or (without one) to stdout")
    parser.add_argument("--profile", default=None, metavar="PREFIX",
                        help="run each server process under cProfile; its stats go to "
                             "PREFIX.<setup>.<process>")
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="liverpool-scale-") as name:
        folder = Path(name)
        postgres = PostgresServer()
        try:
            redis = RedisServer()
            try:
                assert redis.proc is not None
                pg_pid = int((postgres.data / "postmaster.pid").read_text().split()[0])
                others = {"postgresql": pg_pid, "redis": redis.proc.pid}
                out = run_setup(args, "pg+redis", folder, postgres.database(), redis, others)
                rows.append(summary("2 processes, PostgreSQL + Redis", out, args))
            finally:
                redis.stop()
                shutil.rmtree(redis.folder, ignore_errors=True)  # (stop() leaves it)
        finally:
            postgres.stop()
        if not args.skip_sqlite:
            out = run_setup(args, "sqlite", folder,
                            f"sqlite:///{folder / 'scale.sqlite3'}", None, {})
            rows.append(summary("1 process, SQLite", out, args))
    print(f"{args.tables} tables, {args.actions} decisions each, think {args.think} s, "
          f"bot delay {args.bot_delay} s, {os.cpu_count()} cores")
    print_table(rows)
    if args.json == "-":
        print(json.dumps(rows, indent=2))
    elif args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    first = rows[0]
    ok = first["errors"] == 0 and all(
        first[key]["p99_ms"] <= 150 for key in ("own_update", "other_update"))
    print(f"targets (2 processes: errors 0, p99 <= 150 ms): {'met' if ok else 'missed'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
