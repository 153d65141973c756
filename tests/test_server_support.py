"""What the server tests share (no tests here): a real server in a subprocess
(``liverpool serve``) or in a thread (uvicorn on ``create_app``), and a client
that plays like a person over a WebSocket and keeps every frame it got, and
the check that no frame held what its seat may not know.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import fastapi  # noqa: F401
import httpx
import uvicorn
import websockets

from liverpool import Game
from liverpool.actions import action_from_json
from liverpool.bots import make_bot
from liverpool.engine import outcome_from_json
from liverpool.ruleset_io import rules_from_dict
from liverpool.views import SeatView

T = TypeVar("T")

#: a game of one round (two sets, seven cards): about 200 actions with four players
SHORT = {"contracts": ["SS"], "deal": [7]}


#: the caps per address, out of the way of tests that make many tables and
#: connections from one address (tests/test_limits.py sets its own)
TEST_LIMITS = {"LIVERPOOL_TABLES_PER_MINUTE": "100000", "LIVERPOOL_TABLES_PER_HOUR": "100000",
               "LIVERPOOL_CONNECTIONS_PER_ADDRESS": "100000",
               "LIVERPOOL_PROBES_PER_MINUTE": "100000",
               "LIVERPOOL_MESSAGES_PER_ADDRESS": "100000",
               "LIVERPOOL_CONNECTIONS_PER_SECOND": "100000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_healthy(base: str, timeout: float = 20.0, proc: subprocess.Popen[bytes] | None = None
                 ) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server ended with {proc.returncode}")
        try:
            if httpx.get(f"{base}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{base} did not come up in {timeout} s")


class ServerProcess:
    """``liverpool serve --port <free> --data <folder> --bot-delay 0`` in a subprocess
    (with ``database``: ``--database <url>``, e.g. the tests' PostgreSQL)."""

    def __init__(self, data: Path, env: dict[str, str] | None = None,
                 bot_delay: float = 0.0, database: str | None = None,
                 args: tuple[str, ...] = (), port: int | None = None) -> None:
        self.data = data
        self.database = database
        self.args = args
        self.port = port or free_port()
        self.env = {**os.environ, **TEST_LIMITS, **(env or {})}
        self.bot_delay = bot_delay
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data / "server.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Start the process and wait until it answers (``start_together``: several)."""
        return self.launch().wait_started()

    def launch(self) -> ServerProcess:
        """Start the process, not waiting for it to answer."""
        self.data.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-c", "from liverpool.server.cli import serve_command; serve_command()",
               "--port", str(self.port), "--data", str(self.data),
               "--bot-delay", str(self.bot_delay), "--log-level", "warning"]
        if self.database is not None:
            cmd += ["--database", self.database]
        cmd += list(self.args)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                         env=self.env)
        return self

    def wait_started(self) -> ServerProcess:
        """Wait until the launched process answers (it is stopped if it does not)."""
        try:  # (several worker processes take longer to come up on a loaded machine)
            wait_healthy(self.base, 60.0 if "--workers" in self.args else 20.0, self.proc)
        except RuntimeError:
            self.stop()  # a server that came up late must not outlive its test
            raise
        return self

    @staticmethod
    def start_together(*servers: ServerProcess) -> None:
        """Start ``servers`` at once (each imports and comes up beside the others:
        on one database they upgrade it one after the other, as in production),
        then wait for each; if one does not come up, all are stopped."""
        try:
            for server in servers:
                server.launch()
            for server in servers:
                server.wait_started()
        except BaseException:
            for server in servers:
                server.stop()
            raise

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None

    def errors_logged(self) -> list[str]:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return [line for line in text.splitlines() if "Traceback" in line or "ERROR" in line]


class ThreadServer:
    """uvicorn on ``create_app(hub)`` in a thread of this process: the test holds
    the hub (its tables, their settings, its store) and runs code in the
    server's event loop with :meth:`call`."""

    def __init__(self, hub: Any, **app_options: Any) -> None:

        from liverpool.server import create_app
        from liverpool.server.stream import FRAME_LIMIT

        self.hub = hub
        self.port = free_port()
        config = uvicorn.Config(create_app(hub, **app_options), host="127.0.0.1",
                                port=self.port, log_level="warning", ws_max_size=FRAME_LIMIT,
                                ws_ping_interval=None, lifespan="on")
        self.server = uvicorn.Server(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        asyncio.set_event_loop(loop)
        loop.run_until_complete(self.server.serve())

    def start(self) -> ThreadServer:
        self.thread.start()
        wait_healthy(self.base)
        return self

    def call(self, fn: Callable[[], T]) -> T:
        """``fn()`` in the server's event loop (its tables are not thread-safe)."""
        assert self.loop is not None
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(fn())
            except BaseException as e:  # noqa: BLE001 - handed to the caller
                done.set_exception(e)

        self.loop.call_soon_threadsafe(run)
        return done.result(10)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@contextlib.contextmanager
def running(server: ServerProcess | ThreadServer) -> Iterator[Any]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


# ------------------------------------------------------------------ HTTP
def create_table(base: str, **body: Any) -> dict[str, Any]:
    body.setdefault("wait", False)  # (no waiting room: it plays as soon as a player comes)
    r = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def join_table(base: str, code: str, name: str = "", token: str | None = None
               ) -> httpx.Response:
    headers = {"X-Seat-Token": token} if token else {}
    return httpx.post(f"{base}/api/tables/{code}/join", json={"name": name}, headers=headers,
                      timeout=10)


# ------------------------------------------------------------- the client
def subprotocols(token: str | None) -> list[Any]:
    """What a client offers on the upgrade: the game's subprotocol, and its seat
    token as ``token.<TOKEN>`` (none for a spectator)."""
    return ["liverpool", *([f"token.{token}"] if token else [])]


class Player:
    """One WebSocket connection to a table, playing like a person: it acts once
    per version when its view has legal actions (its turn, or a window it may
    answer), answers pings, and asks for a snapshot when it sees a gap. Every
    frame it gets is kept in :attr:`frames`."""

    def __init__(self, ws_base: str, code: str, token: str | None = None, *,
                 lang: str = "en", play: bool = True, level: str = "basic",
                 seed: int = 0, extra: str = "") -> None:
        self.path = f"/ws/{code}?lang={lang}" + extra
        self.token = token  # offered as a subprotocol (docs/protocol.md), never in the URL
        self.url = ws_base + self.path
        self.play = play
        self.level = level
        self.seed = seed
        self.ws: Any = None
        self.frames: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.n = -1
        self.view: dict[str, Any] | None = None
        self.acted_at = -1  # the version it last acted at
        self.next_event = 0
        self.bot: Any = None
        self.acks: set[int] = set()  # versions of updates received
        self.errors: list[dict[str, Any]] = []
        self.gaps = 0
        self.pings = 0
        self.sent: list[dict[str, Any]] = []
        self.changed = asyncio.Event()

    async def connect(self, **kwargs: Any) -> Player:
        kwargs.setdefault("subprotocols", subprotocols(self.token))
        self.ws = await websockets.connect(self.url, max_size=2 ** 24, ping_interval=None,
                                           **kwargs)
        return self

    async def reconnect(self, ws_base: str) -> Player:
        """Connect again, to the server at ``ws_base`` (another process, or the
        same one restarted), as a fresh page would: it waits for a snapshot."""
        self.url = ws_base + self.path
        self.n = -1
        self.acted_at = -1
        return await self.connect()

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        if isinstance(message, dict):
            self.sent.append(message)
            message = json.dumps(message)
        await self.ws.send(message)

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:  # noqa: ASYNC109 - a test's bound, applied with asyncio.wait_for
        """The next frame (handled as the player would)."""
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        await self._take(frame)
        return frame

    async def recv_type(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:  # noqa: ASYNC109 - a test's bound, applied with asyncio.wait_for
        deadline = time.monotonic() + timeout
        while True:
            frame = await self.recv(max(0.01, deadline - time.monotonic()))
            if frame["type"] == kind:
                return frame

    async def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Every frame until none but pings came for ``seconds`` (pings answered)."""
        out = []
        last = time.monotonic()
        while (left := seconds - (time.monotonic() - last)) > 0:
            try:
                frame = await self.recv(left)
            except TimeoutError:
                break
            if frame["type"] != "ping":
                out.append(frame)
                last = time.monotonic()
        return out

    async def read_for(self, seconds: float) -> None:
        """Read (and play) for ``seconds``."""
        end = time.monotonic() + seconds
        with contextlib.suppress(TimeoutError):
            while (left := end - time.monotonic()) > 0:
                await self.recv(left)

    async def _take(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "ping":
            self.pings += 1
            await self.ws.send(json.dumps({"type": "pong"}))
            return
        if kind == "error":
            self.errors.append(frame)
            if frame["code"] == "server_rate_limited" and self.acted_at == self.n:
                await asyncio.sleep(0.1)  # faster than a person: wait, and again
                self.acted_at = -1
                await self._maybe_act()
            return
        if kind == "snapshot":
            self.seat = frame["seat"]
            self.n = frame["n"]
            self.view = frame["view"]
            self._events(frame["events"])
            await self._maybe_act()
        elif kind == "update":
            if frame["n"] != self.n + 1:
                self.gaps += 1
                self.n = frame["n"]
                await self.ws.send(json.dumps({"type": "sync",
                                               "events_since": self.next_event}))
                return
            self.n = frame["n"]
            self.acks.add(frame["n"])
            self.view = frame["view"]
            self._events(frame["events"])
            await self._maybe_act()

    def _events(self, items: list[dict[str, Any]]) -> None:
        for item in items:
            self.next_event = max(self.next_event, item["event"]["seq"] + 1)

    @property
    def over(self) -> bool:
        return self.view is not None and self.view["phase"] == "game_over"

    def choose(self) -> dict[str, Any] | None:
        assert self.view is not None
        legal = self.view["legal_actions"]
        if not legal:
            return None
        view = SeatView.from_json(self.view)
        if self.bot is None:
            rules = None
            self.bot = make_bot(self.level, rules or _rules_of(self), seed=self.seed)
        action = self.bot.choose(view, list(view.legal_actions))
        data: dict[str, Any] = action.to_json()
        return data

    async def _maybe_act(self) -> None:
        if not self.play or self.view is None or self.acted_at >= self.n:
            return
        action = self.choose()
        if action is None:
            return
        self.acted_at = self.n
        await self.send({"type": "action", "version": self.n, "action": action})

    async def play_until(self, done: Callable[[], bool], timeout: float = 30.0) -> None:  # noqa: ASYNC109 - a test's bound, applied with asyncio.wait_for
        """Read and play until ``done()`` (checked after every frame)."""
        deadline = time.monotonic() + timeout
        while not done() and not self.over:
            await self.recv(max(0.01, deadline - time.monotonic()))

    async def play_to_end(self, timeout: float = 60.0) -> None:  # noqa: ASYNC109 - a test's bound, applied with asyncio.wait_for
        deadline = time.monotonic() + timeout
        while not self.over:
            left = deadline - time.monotonic()
            if left <= 0:
                v = self.view or {}
                raise TimeoutError(
                    f"seat {self.seat}: the game did not end (n={self.n}, phase "
                    f"{v.get('phase')}, to_move {v.get('to_move')}, queue {v.get('queue')}, "
                    f"legal {v.get('legal_actions')}, acted at {self.acted_at}, "
                    f"errors {self.errors[-3:]})")
            await self.recv(left)


_RULES: dict[str, Any] = {}


def _rules_of(player: Player) -> Any:
    """The table's ruleset (from the first snapshot's table info)."""
    for frame in player.frames:
        if frame["type"] == "snapshot":
            key = json.dumps(frame["table"]["rules"], sort_keys=True)
            if key not in _RULES:
                _RULES[key] = rules_from_dict(frame["table"]["rules"])
            return _RULES[key]
    raise AssertionError("no snapshot yet")


# ------------------------------------------------------------- the secrets
CARD_KEYS_OF_VIEW = {"hand", "discard_pile", "table", "offered_card", "staged", "events",
                     "legal_actions", "answer"}


def replay_versions(record: dict[str, Any]) -> list[Game]:
    """The game at each version, from its record (index: the version)."""
    # (a fair deal's record has no seed: its chance outcomes deal it)
    game = Game(rules_from_dict(record["rules"]), players=record["players"],
                seed=record["seed"] or 0, secure=record["seed"] is None,
                chance=[outcome_from_json(o) for o in record["chance"]])
    games = [game.copy()]
    for data in record["actions"]:
        data = dict(data)
        seat = data.pop("seat")
        game.apply(action_from_json(data), seat=seat)
        games.append(game.copy())
    return games


def check_secrets(record: dict[str, Any], frames: list[dict[str, Any]],
                  seat: int | None) -> int:
    """Every frame a connection of ``seat`` (None: a spectator) got holds what
    that seat may know and nothing more: its view is the seat's own view at
    that version, its events are as the seat may see them (other seats' private
    parts blank), no other hand and no stock order anywhere. Returns how many
    views were checked."""
    games = replay_versions(record)
    final = games[-1]
    checked = 0
    for frame in frames:
        kind = frame["type"]
        if kind == "table" or kind == "snapshot":
            _no_cards(frame["table"])
        if frame.get("view") is not None:  # (null while the table waits for its start)
            game = games[frame["n"]]
            view = frame["view"]
            expected = game.view(seat).to_json(events=False)  # (the events come beside it)
            assert view == expected, f"{kind} n={frame['n']}: not the view of seat {seat}"
            assert "stock" not in view
            true_hand = sorted(str(c) for c in game.state.hands[seat]) if seat is not None else []
            assert sorted(view["hand"]) == true_hand
            for other in range(game.num_players):
                if other != seat:
                    assert view["hand_sizes"][other] == len(game.state.hands[other])
            checked += 1
        for item in frame.get("events", []):
            event = item["event"]
            true = final.events[event["seq"]]
            assert event == true.visible_to(seat).to_json()
            if true.private_fields and true.seat != seat:
                for name in true.private_fields:
                    assert event[name] in (None, [], ()), (seat, event)
        _no_stock(frame)
    return checked


def _no_cards(info: dict[str, Any]) -> None:
    for s in info["seats"]:
        assert set(s) <= {"seat", "kind", "level", "name", "taken", "connected", "away"}


def _no_stock(data: Any) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            assert key not in ("stock", "deck", "hands", "chance", "rng"), key
            _no_stock(value)
    elif isinstance(data, list):
        for value in data:
            _no_stock(value)


def run(coro: Any, timeout: float = 120.0) -> Any:
    """Run a test's coroutine (no pytest-asyncio here)."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


def stuck_spectators(monkeypatch: Any) -> None:
    """Make the network of every spectator take nothing more: its sends wait
    (a client that stops reading); the players' connections work as ever."""
    from liverpool.server import stream

    write = stream._write

    async def stuck(ws: Any, client: Any) -> None:
        if client.seat is None:
            await asyncio.Event().wait()
        await write(ws, client)

    monkeypatch.setattr(stream, "_write", stuck)


async def spectators_left(server: ThreadServer, hub: Any, code: str) -> int:
    """The spectators of table ``code`` once a closed one has had a moment to
    be let go (the server drops it a little after the close): their number."""
    for _ in range(200):
        if server.call(lambda: hub.tables[code].spectators()) == 0:
            return 0
        await asyncio.sleep(0.05)
    return int(server.call(lambda: hub.tables[code].spectators()))
