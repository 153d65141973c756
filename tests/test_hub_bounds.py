"""The server's tables held within bounds (docs/server.md, "Limits"), against
a real server in a thread of this process (the test holds its hub): tables
evicted when idle and loaded again on demand, the cap of live tables, a table
nobody came to plays no bots and is dropped, the send queue that overflows,
presence news coalesced, snapshots and replays made once, the storage that
hangs ("try again", and the table carries on), and the one thread rule under
asyncio's debug mode."""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
import weakref
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup
import websockets

from liverpool.server import Hub, Store
from liverpool.server.fanout import LocalFanout
from liverpool.server.limits import Limits
from liverpool.server.messages import Client
from liverpool.server.store import StoreError
from liverpool.server.table import Table

#: a real server in a thread of this process: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

BOTS = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3


def make(base: str, **body: Any) -> dict[str, Any]:
    return sup.create_table(base, preset="liverpool", options=sup.SHORT, seats=BOTS,
                            name="Kari", **body)


def sample(hub: Hub, name: str, **labels: str) -> float:
    """A figure of the hub's metrics (as ``GET /metrics`` shows it)."""
    return hub.metrics.registry.get_sample_value(name, labels) or 0.0


def wait_for(check: Any, timeout: float = 10.0, every: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(every)


def hub_with(folder: Path, **limits: Any) -> Hub:
    limits.setdefault("connections_per_address", 1000)  # (tests/test_limits.py's part)
    limits.setdefault("messages_per_address", 100000)
    limits.setdefault("connections_per_second", 100000)
    return Hub(Store(f"sqlite:///{folder / 'db.sqlite3'}"), bot_delay=0.0,
               limits=Limits(**limits))


# ------------------------------------------------------------- eviction
def test_idle_tables_are_evicted_and_loaded_again(tmp_path: Path) -> None:
    hub = hub_with(tmp_path, idle_seconds=0.3)
    with sup.running(sup.ThreadServer(hub)) as server:
        made = make(server.base)
        code = made["code"]

        async def play_a_little() -> int:
            p = await sup.Player(server.ws, code, made["token"]).connect()
            await p.play_until(lambda: p.n >= 12, timeout=30)
            await p.close()
            return p.n

        played = sup.run(play_a_little())
        wait_for(lambda: code not in server.call(lambda: dict(hub.tables)))
        assert sample(hub, "liverpool_evictions_total", reason="idle") >= 1
        # asked for again: read from storage and replayed (off the loop), as it was
        info = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()
        assert info["code"] == code
        table = server.call(lambda: hub.tables[code])
        assert server.call(lambda: table.game.version) >= played

        async def back() -> None:
            p = await sup.Player(server.ws, code, made["token"]).connect()
            snap = await p.recv_type("snapshot")
            assert snap["seat"] == 0
            assert snap["n"] >= played
            await p.play_until(lambda: p.n >= played + 6, timeout=30)
            await p.close()

        sup.run(back())


def test_finished_tables_leave_memory_sooner_than_idle_ones(tmp_path: Path) -> None:
    """A finished game nobody watches is evicted after ``finished_seconds``
    (a busy server finishes tables all the time); an unfinished one as idle
    stays until ``idle_seconds``; the finished game's replay is read again."""
    hub = hub_with(tmp_path, finished_seconds=0.3, idle_seconds=600)
    with sup.running(sup.ThreadServer(hub)) as server:
        done, waiting = make(server.base), make(server.base)
        gone = weakref.ref(server.call(lambda: hub.tables[done["code"]]))

        async def play() -> None:
            p = await sup.Player(server.ws, done["code"], done["token"]).connect()
            await p.play_to_end(60)
            w = await sup.Player(server.ws, waiting["code"], waiting["token"], play=False).connect()
            await w.recv_type("snapshot")
            await p.close()
            await w.close()

        sup.run(play())
        wait_for(lambda: done["code"] not in server.call(lambda: set(hub.tables)))
        assert waiting["code"] in server.call(lambda: set(hub.tables))
        assert sample(hub, "liverpool_evictions_total", reason="finished") == 1
        assert sample(hub, "liverpool_evictions_total", reason="idle") == 0
        # its objects refer to each other: the hub's collection (once a minute) frees them
        gc.disable()
        try:
            server.call(lambda: hub.collect_evicted(time.monotonic() + 61))
            assert gone() is None
        finally:
            gc.enable()
        replay = httpx.get(f"{server.base}/api/tables/{done['code']}/record", timeout=10)
        assert replay.status_code == 200, replay.text
        assert replay.json()["record"]["actions"]


def test_live_tables_cap_evicts_the_idlest_or_refuses(tmp_path: Path) -> None:
    hub = hub_with(tmp_path, live_tables=2)
    with sup.running(sup.ThreadServer(hub)) as server:
        first, second = make(server.base), make(server.base)

        async def hold() -> None:
            a = await sup.Player(server.ws, first["code"], first["token"], play=False).connect()
            await a.recv_type("snapshot")
            # room is made by evicting the idle one (nobody connected to it)
            third = make(server.base)
            codes = server.call(lambda: set(hub.tables))
            assert codes == {first["code"], third["code"]}
            b = await sup.Player(server.ws, third["code"], third["token"],
                                 play=False).connect()
            await b.recv_type("snapshot")
            # both in use: a fourth is refused, in the player's language
            r = await asyncio.to_thread(httpx.post, f"{server.base}/api/tables", timeout=10,
                                        json={"preset": "liverpool", "seats": BOTS,
                                              "lang": "nb"})
            assert r.status_code == 503
            assert r.json()["detail"]["code"] == "server_busy"
            assert "prøv igjen" in r.json()["detail"]["message"]
            # and a table that must be loaded is refused the same way, coded
            w = await websockets.connect(f"{server.ws}/ws/{second['code']}")
            frame = await asyncio.wait_for(w.recv(), 5)
            assert '"server_busy"' in frame
            await a.close()
            await b.close()

        sup.run(hold())
        assert sample(hub, "liverpool_limit_refusals_total", kind="live_tables") >= 2


def test_a_table_nobody_came_to_plays_no_bots_and_is_dropped(tmp_path: Path) -> None:
    hub = hub_with(tmp_path, unclaimed_seconds=0.6, idle_seconds=600)
    with sup.running(sup.ThreadServer(hub)) as server:
        made = make(server.base, away_seconds=5, turn_seconds=5)
        code = made["code"]
        server.call(lambda: setattr(hub.tables[code].settings, "away_seconds", 0.1))
        time.sleep(0.4)
        # the creator never connected: no bot plays for them, nor the bots after them
        assert server.call(lambda: hub.tables[code].game.version) == 0
        # and nothing says one does: the table waits for its players, no seat is
        # away, no clock runs
        info = httpx.get(f"{server.base}/api/tables/{code}").json()
        assert info["unclaimed"] is True
        assert [s["away"] for s in info["seats"]] == [False] * 4
        assert server.call(lambda: hub.tables[code].clock()) == "null"
        wait_for(lambda: code not in server.call(lambda: set(hub.tables)))
        assert hub.store.table(code).status == "dropped"  # type: ignore[union-attr]
        assert code not in {r.code for r in hub.store.tables("playing")}
        # the creator comes after all: loaded, playing again, and it moves
        async def late() -> None:
            p = await sup.Player(server.ws, code, made["token"]).connect()
            await p.play_until(lambda: p.n >= 8, timeout=30)
            await p.close()

        sup.run(late())
        assert hub.store.table(code).status == "playing"  # type: ignore[union-attr]
        assert httpx.get(f"{server.base}/api/tables/{code}").json()["unclaimed"] is False


def test_the_creators_seat_is_a_persons(tmp_path: Path) -> None:
    # a table of bots alone would never start (nothing moves before a person
    # comes): the request is refused in the caller's language, not changed
    hub = hub_with(tmp_path)
    with sup.running(sup.ThreadServer(hub)) as server:
        for lang, word in (("en", "the first seat"), ("nb", "den første plassen"),
                           ("da", "den første plads")):
            r = httpx.post(f"{server.base}/api/tables", timeout=10, json={
                "seats": [{"kind": "bot", "level": "easy"}] * 4, "lang": lang})
            assert r.status_code == 400
            assert r.json()["detail"]["code"] == "server_creator_seat"
            assert r.json()["detail"]["message"].lower().startswith(word)
        assert hub.store.tables("playing", 10) == []


def test_error_messages_start_with_a_capital(tmp_path: Path) -> None:
    # the messages are written to go inside others ("Not allowed: you cannot …");
    # shown alone to a player, as the server's errors are, they read as sentences
    hub = hub_with(tmp_path)
    with sup.running(sup.ThreadServer(hub)) as server:
        code = make(server.base)["code"]

        async def refusals(lang: str) -> list[str]:
            out = []
            w = await websockets.connect(f"{server.ws}/ws/ABCDEF?lang={lang}")
            out.append(json.loads(await asyncio.wait_for(w.recv(), 5))["message"])
            await w.close()
            p = await sup.Player(server.ws, code, play=False, lang=lang).connect()
            await p.recv_type("snapshot")
            await p.send({"type": "action", "version": 0, "action": {"type": "pass"}})
            out.append((await p.recv_type("error"))["message"])  # a spectator's
            await p.close()
            return out

        for lang, first in (("en", "There is no table ABCDEF"),
                            ("nb", "Det finnes ikke noe bord ABCDEF"),
                            ("da", "Der er intet bord ABCDEF")):
            r = httpx.get(f"{server.base}/api/tables/ABCDEF?lang={lang}", timeout=10)
            assert r.status_code == 404
            assert r.json()["detail"]["message"] == first
            messages = [r.json()["detail"]["message"], *sup.run(refusals(lang))]
            bad = httpx.post(f"{server.base}/api/tables", timeout=10, json={
                "seats": [{"kind": "bot"}] * 3, "lang": lang})
            messages.append(bad.json()["detail"]["message"])
            assert [m[0].isupper() for m in messages] == [True] * len(messages), messages


# ------------------------------------------------------------- queues
def test_a_client_whose_queue_is_full_is_closed_once() -> None:
    async def go() -> None:
        closed: list[int] = []
        client = Client(0, "en", queue_size=3, overflow=lambda: closed.append(1))
        for i in range(3):
            client.send({"n": i})
        assert closed == []
        assert client.queue.qsize() == 3
        client.send({"n": 3})  # one too many: emptied, told to close, then nothing more
        client.send({"n": 4})
        assert closed == [1]
        assert client.overflowed
        assert client.queue.get_nowait() is None
        assert client.queue.empty()

    asyncio.run(go())


def test_a_slow_reader_is_closed_and_catches_up_on_reconnect(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sup.stuck_spectators(monkeypatch)
    hub = hub_with(tmp_path, send_queue=4)
    with sup.running(sup.ThreadServer(hub)) as server:
        made = make(server.base)
        code = made["code"]

        async def go() -> None:
            player = await sup.Player(server.ws, code, made["token"]).connect()
            await player.play_until(lambda: player.n >= 4, timeout=30)
            slow = await websockets.connect(f"{server.ws}/ws/{code}", ping_interval=None)
            n = player.n
            await player.play_until(lambda: player.n >= n + 12, timeout=30)
            # more than 4 messages waited for it: closed (1013), the queue let go
            with pytest.raises(websockets.exceptions.ConnectionClosed):  # noqa: PT012
                while True:  # (read until the close)
                    await asyncio.wait_for(slow.recv(), 10)
            assert slow.close_code == 1013
            assert sample(hub, "liverpool_slow_clients_closed_total") == 1
            assert await sup.spectators_left(server, hub, code) == 0
            # the table and its player go on; the one closed comes back and catches up
            n = player.n
            await player.play_until(lambda: player.n >= n + 4, timeout=30)
            monkeypatch.undo()  # (the network takes its messages again)
            again = await sup.Player(server.ws, code).connect()
            snap = await again.recv_type("snapshot")
            assert snap["n"] >= n + 4
            await again.close()
            await player.close()

        sup.run(go())


# ------------------------------------------------------------- work made once
def test_presence_news_is_coalesced_and_spectators_cost_none(tmp_path: Path) -> None:
    hub = hub_with(tmp_path)
    with sup.running(sup.ThreadServer(hub)) as server:
        made = make(server.base)
        code = made["code"]

        async def go() -> None:
            watcher = await sup.Player(server.ws, code, made["token"], play=False).connect()
            await watcher.recv_type("snapshot")
            await watcher.quiet(0.5)
            crowd = [await websockets.connect(f"{server.ws}/ws/{code}", ping_interval=None)
                     for _ in range(40)]
            # the same seat from 8 more tabs: 8 arrivals, told in a few messages
            tabs = [await sup.Player(server.ws, code, made["token"], play=False).connect()
                    for _ in range(8)]
            frames = await watcher.quiet(0.8)
            tables = [f for f in frames if f["type"] == "table"]
            assert 1 <= len(tables) <= 4, len(tables)
            assert all(f["table"]["seats"][0]["connected"] for f in tables)
            for w in crowd:
                await w.close()
            for t in tabs:
                await t.close()
            frames = await watcher.quiet(0.8)
            assert len([f for f in frames if f["type"] == "table"]) <= 4
            await watcher.close()

        sup.run(go())


def test_snapshots_and_replays_are_made_once(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    hub = hub_with(tmp_path)
    with sup.running(sup.ThreadServer(hub)) as server:
        made = make(server.base)
        code = made["code"]

        async def finish() -> None:
            p = await sup.Player(server.ws, code, made["token"]).connect()
            await p.play_to_end(timeout=90)
            await p.close()

        sup.run(finish())
        table = server.call(lambda: hub.tables[code])
        built: list[int] = []
        original = Table._event_text

        def counting(*args: Any) -> str:
            built.append(1)
            return original(*args)

        # (on the class: a long game's events are made in a worker, by the class's)
        server.call(lambda: monkeypatch.setattr(Table, "_event_text", staticmethod(counting)))

        async def many() -> list[str]:
            socks = [await websockets.connect(f"{server.ws}/ws/{code}", ping_interval=None,
                                              max_size=2 ** 24) for _ in range(10)]
            for w in socks:
                await w.recv()  # the snapshot of the round
                await w.send('{"type":"sync","events_since":0}')
            answers = [await asyncio.wait_for(w.recv(), 10) for w in socks]
            for w in socks:
                await w.close()
            return answers

        answers = sup.run(many())
        assert all('"type":"snapshot"' in a for a in answers)
        assert len(set(answers)) == 1  # the same text for each
        # each event made once for the spectators (at the first snapshot), then joined
        assert len(built) == server.call(lambda: len(table.game.events))

        async def replays(lang: str) -> list[bytes]:
            async with httpx.AsyncClient(timeout=30) as c:
                rs = await asyncio.gather(*[
                    c.get(f"{server.base}/api/tables/{code}/replay", params={"lang": lang})
                    for _ in range(20)])
            assert all(r.status_code == 200 for r in rs)
            assert all(r.headers["content-encoding"] == "gzip" for r in rs)
            return [r.content for r in rs]

        before = server.call(lambda: hub.replays.builds)
        en = sup.run(replays("en"))
        nb = sup.run(replays("nb"))
        assert len(set(en)) == 1
        assert len(set(nb)) == 1
        assert en[0] != nb[0]
        assert server.call(lambda: hub.replays.builds) - before == 2  # once per language
        plain = httpx.get(f"{server.base}/api/tables/{code}/replay", timeout=10,
                          headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert plain.content == en[0]
        body = plain.json()
        assert body["over"]
        assert body["record"]["format"]
        assert body["events"][0]["hands"]


def test_snapshot_budget_answers_busy(tmp_path: Path) -> None:
    hub = hub_with(tmp_path, snapshot_bytes_per_second=1)
    with sup.running(sup.ThreadServer(hub)) as server:
        made = make(server.base)

        async def go() -> None:
            p = await sup.Player(server.ws, made["code"], made["token"], play=False).connect()
            await p.recv_type("snapshot")  # (a connection's first snapshot always comes)
            await p.send({"type": "sync"})
            answer = await p.recv_type("error")
            assert answer["code"] == "server_busy"
            await p.send({"type": "ping"})
            assert (await p.recv_type("pong"))["type"] == "pong"  # the connection lives
            await p.close()

        sup.run(go())


# ------------------------------------------------------------- storage
class HangingStore(Store):
    """A store whose next append of seat 0's action hangs (``hang`` set) for
    longer than the server waits, then fails without writing (as a database's
    own statement timeout would end it)."""

    hang = threading.Event()
    released = threading.Event()

    def append_action(self, code: str, seq: int, seat: int, action: dict[str, Any]) -> None:
        if seat == 0 and self.hang.is_set():
            self.hang.clear()
            self.released.wait(10)
            raise StoreError("cancelled by the database's statement timeout")
        super().append_action(code, seq, seat, action)


def test_a_hanging_storage_call_is_try_again_and_the_table_carries_on(tmp_path: Path) -> None:
    store = HangingStore(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    hub = Hub(store, bot_delay=0.0, limits=Limits(storage_seconds=0.4))
    with sup.running(sup.ThreadServer(hub)) as server:
        made = make(server.base)
        code = made["code"]

        async def go() -> None:
            p = await sup.Player(server.ws, code, made["token"]).connect()
            await p.play_until(lambda: p.n >= 6, timeout=30)
            store.hang.set()  # the player's next action hangs in the storage
            await p.play_until(lambda: any(e["code"] == "server_try_again"
                                           for e in p.errors), timeout=30)
            assert not store.released.is_set()  # (answered while the write still hung)
            (error,) = [e for e in p.errors if e["code"] == "server_try_again"]
            n = error["n"]
            assert "try again" in error["message"]
            await p.send({"type": "ping"})  # the connection and the table live meanwhile
            await p.recv_type("pong")
            assert server.call(lambda: hub.tables[code].game.version) == n  # nothing changed
            store.released.set()
            p.acted_at = -1  # the player sends it again
            await p._maybe_act()
            await p.play_until(lambda: p.n > n, timeout=30)
            await p.play_until(lambda: p.n >= n + 8, timeout=30)  # and plays on
            await p.close()

        sup.run(go())
        assert sample(hub, "liverpool_storage_errors_total", kind="timeout") >= 1


# ------------------------------------------------------------- one thread
class DebugThreadServer(sup.ThreadServer):
    """The server in a thread whose event loop runs in asyncio's debug mode
    (a non-thread-safe call from another thread raises there)."""

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        loop.set_debug(True)
        loop.slow_callback_duration = 10.0  # (only the thread checks matter here)
        self.problems: list[str] = []

        def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            self.problems.append(str(context.get("exception") or context.get("message")))
            loop.default_exception_handler(context)

        loop.set_exception_handler(handler)
        self.loop = loop
        asyncio.set_event_loop(loop)
        loop.run_until_complete(self.server.serve())


class LoopOnly(dict[str, Any]):
    """``hub.tables`` that notes every change made outside the loop's thread."""

    def __init__(self, owner: list[int], wrong: list[str]) -> None:
        super().__init__()
        self.owner = owner
        self.wrong = wrong

    def _check(self, what: str) -> None:
        if self.owner and threading.get_ident() != self.owner[0]:
            self.wrong.append(f"{what} from {threading.current_thread().name}")

    def __setitem__(self, key: str, value: Any) -> None:
        self._check(f"tables[{key}] =")
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._check(f"del tables[{key}]")
        super().__delitem__(key)


class LoopOnlyFanout(LocalFanout):
    def __init__(self, tables: LoopOnly) -> None:
        self.tables = tables

    def changed(self, code: str, *, new: bool = False) -> None:
        self.tables._check("fanout.changed")

    def action(self, code: str, seq: int, seat: int, data: dict[str, Any]) -> None:
        self.tables._check("fanout.action")

    def presence(self, code: str, counts: list[int]) -> None:
        self.tables._check("fanout.presence")


def test_one_thread_rule_under_asyncio_debug(tmp_path: Path) -> None:
    owner: list[int] = []
    wrong: list[str] = []
    tables = LoopOnly(owner, wrong)
    hub = Hub(Store(f"sqlite:///{tmp_path / 'db.sqlite3'}"), bot_delay=0.0,
              fanout=LoopOnlyFanout(tables),
              limits=Limits(idle_seconds=0.3))
    hub.tables = tables
    server = DebugThreadServer(hub)
    with sup.running(server):
        owner.append(server.call(threading.get_ident))
        assert server.call(lambda: asyncio.get_running_loop().get_debug())
        hard = [{"kind": "human"}, {"kind": "bot", "level": "hard"},
                {"kind": "bot", "level": "easy"}]
        made = [make(server.base)]
        made.append(sup.create_table(server.base, preset="liverpool", options=sup.SHORT,
                                     seats=hard))

        async def play(m: dict[str, Any]) -> None:
            p = await sup.Player(server.ws, m["code"], m["token"]).connect()
            await p.play_to_end(timeout=120)
            await p.close()

        async def all_of_them() -> None:
            await asyncio.gather(*[play(m) for m in made])

        sup.run(all_of_them(), timeout=240)
        for m in made:  # replays off the loop, then every table evicted
            assert httpx.get(f"{server.base}/api/tables/{m['code']}/replay",
                             timeout=30).status_code == 200
        wait_for(lambda: not server.call(lambda: len(hub.tables)), timeout=15)
        for m in made:  # and loaded again
            assert httpx.get(f"{server.base}/api/tables/{m['code']}",
                             timeout=30).status_code == 200
        assert httpx.get(f"{server.base}/api/games", timeout=30).status_code == 200
    assert wrong == []
    assert not [p for p in server.problems if "thread" in p.lower()], server.problems
