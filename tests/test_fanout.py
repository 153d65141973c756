"""The Redis fan-out (liverpool.server.fanout.RedisFanout) on its own: two
fan-outs in one event loop on the tests' real Redis, each with a hub of plain
stand-in tables, short leases and fast ticks. What it promises: every table
playing is played by exactly one live process (spread by rendezvous
hashing), a process that stops or dies has its tables taken over, actions,
presence and news of new tables reach the other process, a table behind the
others catches up (its game, and its chat), and a Redis restart brings every
table up to date.

The two-process tests (test_scale.py) show the same through real servers;
these run in seconds.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("redis", reason="the server extra (redis) is not installed")

from liverpool.server.chat import TableChat
from liverpool.server.fanout import STOP_SECONDS, RedisFanout

#: a real Redis: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

LEASE = 0.6  # seconds
TICK = 0.05


@dataclass
class StubGame:
    version: int = 0
    is_over: bool = False


@dataclass
class StubTable:
    """What the fan-out calls on a table, written down."""

    code: str
    game: StubGame = field(default_factory=StubGame)
    changed_at: float = field(default_factory=time.monotonic)
    clients: list[Any] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0, 0, 0])
    heard: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    said: list[dict[str, Any]] = field(default_factory=list)
    chat: TableChat = field(default_factory=TableChat)

    def local_counts(self) -> list[int]:
        return self.counts

    def presence_changed(self) -> None:
        self.calls.append("presence_changed")

    def schedule_moves(self) -> None:
        self.calls.append("schedule_moves")

    async def catch_up(self) -> None:
        self.calls.append("catch_up")

    async def reload(self) -> None:
        self.calls.append("reload")

    def remote_action(self, seq: int, seat: int, data: dict[str, Any]) -> None:
        self.heard.append((seq, seat, data))

    def catch_up_soon(self) -> None:
        self.calls.append("catch_up_soon")

    def catch_up_chat_soon(self) -> None:
        self.calls.append("catch_up_chat_soon")

    def hear(self, line: dict[str, Any]) -> None:
        self.said.append(line)


class StubHub:
    def __init__(self, codes: list[str]) -> None:
        self.tables: dict[str, StubTable] = {code: StubTable(code) for code in codes}
        self.loaded: list[str] = []

    async def load_table(self, code: str) -> StubTable:
        self.loaded.append(code)
        return self.tables.setdefault(code, StubTable(code))


CODES = [f"T{i:05d}" for i in range(12)]


def fanout(redis: Any, hub: StubHub, process: str, prefix: str = "t") -> RedisFanout:
    f = RedisFanout(redis.url, prefix=prefix, lease_seconds=LEASE, tick_seconds=TICK,
                    process=process)
    f.attach(hub)
    return f


async def until(check: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("not within the time")
        await asyncio.sleep(TICK / 2)


def run(coro: Awaitable[None]) -> None:
    asyncio.run(asyncio.wait_for(coro, 30))  # type: ignore[arg-type]


def gained(table: StubTable) -> bool:
    """Whether the table was taken: brought up to date from storage, then planned."""
    calls = table.calls
    return "catch_up" in calls and "schedule_moves" in calls[calls.index("catch_up"):]


# ------------------------------------------------------------------ leases
def test_each_table_is_played_by_exactly_one_of_the_live_processes(redis: Any) -> None:
    async def go() -> None:
        hub_a, hub_b = StubHub(CODES), StubHub(CODES)
        a, b = fanout(redis, hub_a, "A"), fanout(redis, hub_b, "B")
        await a.start()
        await b.start()
        try:
            # spread over both (rendezvous hashing: twelve tables fall to both names)
            await until(lambda: a.owned | b.owned == set(CODES) and not a.owned & b.owned
                        and "B" in a.status()["processes"] and "A" in b.status()["processes"])
            await asyncio.sleep(4 * TICK)
            want_a = set(a.owned)
            assert want_a
            assert want_a != set(CODES)
            # and it stays so while both live: no table changes hands
            await asyncio.sleep(4 * TICK)
            assert a.owned == want_a
            assert b.owned == set(CODES) - want_a
            assert all(a.owns(c) != b.owns(c) for c in CODES)
            assert a.status()["processes"] == ["A", "B"]
            assert a.status()["owned"] == len(want_a)
            # the leases in Redis name the owner
            import redis as redis_client

            client = redis_client.Redis.from_url(redis.url)
            try:
                for c in CODES:
                    assert client.get(f"t:lease:{c}") == (b"A" if c in want_a else b"B")
            finally:
                client.close()
            # a table it gained was brought up to date and then planned
            assert all(gained(hub_a.tables[c]) for c in want_a)
        finally:
            await a.stop()
            await b.stop()

    run(go())


def test_a_stopped_process_gives_its_tables_back_and_the_other_takes_them(redis: Any) -> None:
    async def go() -> None:
        a, b = fanout(redis, StubHub(CODES), "A"), fanout(redis, StubHub(CODES), "B")
        await a.start()
        await b.start()
        try:
            await until(lambda: len(a.owned) + len(b.owned) == len(CODES) and a.owned != set())
            await a.stop()
            assert a.owned == set()
            started = time.monotonic()
            await until(lambda: b.owned == set(CODES))
            # given back, not expired: taken before the lease would have run out
            assert time.monotonic() - started < LEASE + 3 * TICK + 1.0
        finally:
            await b.stop()

    run(go())


def test_a_process_that_dies_loses_its_tables_when_its_leases_expire(redis: Any) -> None:
    async def go() -> None:
        hub_b = StubHub(CODES)
        a, b = fanout(redis, StubHub(CODES), "A"), fanout(redis, hub_b, "B")
        await a.start()
        await b.start()
        try:
            await until(lambda: len(a.owned) + len(b.owned) == len(CODES) and a.owned != set())
            held = set(a.owned)
            for table in hub_b.tables.values():
                table.calls.clear()
            for task in a._tasks:  # it dies: no more renewals, nothing given back
                task.cancel()
            await until(lambda: b.owned == set(CODES), seconds=LEASE * 4 + 3)
            assert "A" not in b.status()["processes"]
            assert all(gained(hub_b.tables[code]) for code in held)
        finally:
            await a.redis.aclose()
            await b.stop()

    run(go())


def test_a_finished_game_is_nobody_s_table(redis: Any) -> None:
    async def go() -> None:
        hub = StubHub(CODES[:3])
        a = fanout(redis, hub, "A")
        await a.start()
        try:
            await until(lambda: a.owned == set(CODES[:3]))
            hub.tables[CODES[0]].game.is_over = True
            await until(lambda: a.owned == set(CODES[1:3]))
            import redis as redis_client

            client = redis_client.Redis.from_url(redis.url)
            try:
                assert client.get(f"t:lease:{CODES[0]}") is None  # given back
            finally:
                client.close()
        finally:
            await a.stop()

    run(go())


# -------------------------------------------------------------------- news
def test_actions_presence_and_new_tables_reach_the_other_process(redis: Any) -> None:
    async def go() -> None:
        hub_a, hub_b = StubHub(CODES[:2]), StubHub(CODES[:2])
        a, b = fanout(redis, hub_a, "A"), fanout(redis, hub_b, "B")
        await a.start()
        await b.start()
        try:
            await until(lambda: a.connected and b.connected)
            code = CODES[0]
            a.action(code, 7, 1, {"type": "draw", "source": "stock"})
            await until(lambda: bool(hub_b.tables[code].heard))
            assert hub_b.tables[code].heard == [(7, 1, {"type": "draw", "source": "stock"})]
            assert hub_a.tables[code].heard == []  # not told its own news

            line = {"id": 3, "at": 1.5, "events": 9, "seat": None, "text": "<b>hi</b>",
                    "reaction": None}
            a.chat(code, line)
            await until(lambda: bool(hub_b.tables[code].said))
            assert hub_b.tables[code].said == [line]
            assert hub_a.tables[code].said == []

            hub_a.tables[code].counts = [0, 2, 0]  # two connections to seat 1 here (ticks say so)
            a.presence(code, [0, 2, 0])  # and the news of the change
            await until(lambda: b.remote(code, 1) == 2)
            assert b.remote(code, 0) == 0
            assert b.remote(CODES[1], 1) == 0
            assert a.remote(code, 1) == 0  # its own connections are not remote
            assert "presence_changed" in hub_b.tables[code].calls

            a.changed("NEWONE", new=True)
            await until(lambda: "NEWONE" in hub_b.loaded)
            a.changed(code)
            await until(lambda: "reload" in hub_b.tables[code].calls)
        finally:
            await a.stop()
            await b.stop()

    run(go())


def test_presence_held_by_a_process_that_went_quiet_stops_counting(redis: Any) -> None:
    async def go() -> None:
        hub_a, hub_b = StubHub(CODES[:1]), StubHub(CODES[:1])
        code = CODES[0]
        hub_a.tables[code].counts = [1, 0, 0]  # a player connected to A, told in A's ticks
        a, b = fanout(redis, hub_a, "A"), fanout(redis, hub_b, "B")
        await a.start()
        await b.start()
        try:
            await until(lambda: b.remote(code, 0) == 1)
            for task in a._tasks:  # A goes quiet
                task.cancel()
            await until(lambda: b.remote(code, 0) == 0, seconds=LEASE * 4 + 3)
            await until(lambda: "A" not in b.status()["processes"])
        finally:
            await a.redis.aclose()
            await b.stop()

    run(go())


def test_a_table_behind_the_others_catches_up_from_a_tick(redis: Any) -> None:
    async def go() -> None:
        hub_a, hub_b = StubHub(CODES[:1]), StubHub(CODES[:1])
        code = CODES[0]
        hub_a.tables[code].game.version = 5
        hub_b.tables[code].game.version = 3
        a, b = fanout(redis, hub_a, "A"), fanout(redis, hub_b, "B")
        await a.start()
        await b.start()
        try:
            await until(lambda: a.connected and b.connected)
            await asyncio.sleep(TICK)
            for hub in (hub_a, hub_b):  # (connecting brings every table up to date)
                hub.tables[code].calls.clear()
            await until(lambda: "catch_up_soon" in hub_b.tables[code].calls)
            await asyncio.sleep(4 * TICK)
            assert "catch_up_soon" not in hub_a.tables[code].calls  # it is the one ahead
        finally:
            await a.stop()
            await b.stop()

    run(go())


def test_a_table_missing_chat_lines_reads_its_chat_again_from_a_tick(redis: Any) -> None:
    """A line whose news never came (Redis away, the table being loaded): the
    tick of the process that heard it counts more lines than this one holds."""
    async def go() -> None:
        hub_a, hub_b = StubHub(CODES[:2]), StubHub(CODES[:2])
        code, quiet = CODES[:2]
        for n in (1, 2):  # A heard two lines at the table, B only the first
            hub_a.tables[code].chat.add({"id": n, "text": f"line {n}"})
        hub_b.tables[code].chat.add({"id": 1, "text": "line 1"})
        a, b = fanout(redis, hub_a, "A"), fanout(redis, hub_b, "B")
        await a.start()
        await b.start()
        try:
            await until(lambda: a.connected and b.connected)
            await asyncio.sleep(TICK)
            for hub in (hub_a, hub_b):  # (connecting reads every table's chat again)
                for table in hub.tables.values():
                    table.calls.clear()
            await until(lambda: "catch_up_chat_soon" in hub_b.tables[code].calls)
            await asyncio.sleep(4 * TICK)
            assert "catch_up_chat_soon" not in hub_a.tables[code].calls  # it has more
            for hub in (hub_a, hub_b):  # a table without chat asks for nothing
                assert "catch_up_chat_soon" not in hub.tables[quiet].calls
        finally:
            await a.stop()
            await b.stop()

    run(go())


def test_what_is_not_a_message_of_ours_is_passed_over(redis: Any) -> None:
    async def go() -> None:
        hub_b = StubHub(CODES[:1])
        b = fanout(redis, hub_b, "B")
        await b.start()
        code = CODES[0]
        try:
            await until(lambda: b.connected)
            from redis import asyncio as aioredis

            other = aioredis.Redis.from_url(redis.url)
            try:
                for junk in ("not json", '{"k": "action"}', "[1, 2]", '[{"k": "action"}]',
                             '[{"p": "X", "k": "presence", "code": 5}]'):
                    await other.publish(b.channel, junk)
                news = {"p": "X", "k": "action", "code": code, "seq": 2, "seat": 0,
                        "action": {"type": "pass"}}
                await other.publish(b.channel, json.dumps([news]))
            finally:
                await other.aclose()
            await until(lambda: bool(hub_b.tables[code].heard))
            assert hub_b.tables[code].heard == [(2, 0, {"type": "pass"})]
            assert b.connected
        finally:
            await b.stop()

    run(go())


# --------------------------------------------------------- Redis restarting
def test_after_a_redis_restart_every_table_is_brought_up_to_date(redis: Any) -> None:
    async def go() -> None:
        hub = StubHub(CODES[:4])
        for table in hub.tables.values():
            table.clients.append(object())  # somebody watches each table here
        a = fanout(redis, hub, "A")
        await a.start()
        try:
            await until(lambda: a.connected and a.owned == set(CODES[:4]))
            assert a.resyncs == 1
            for table in hub.tables.values():
                table.calls.clear()
            await asyncio.get_running_loop().run_in_executor(None, redis.restart, 0.3)
            await until(lambda: a.resyncs == 2, seconds=15)
            assert a.connected
            for table in hub.tables.values():
                assert "catch_up_soon" in table.calls
                assert "catch_up_chat_soon" in table.calls  # (lines said meanwhile)
            # and the leases, lost with Redis's keys, are held again
            await until(lambda: a.owned == set(CODES[:4]))
        finally:
            await a.stop()

    run(go())


def test_stop_ends_every_task_even_when_a_cancellation_is_lost(redis: Any) -> None:
    """A cancellation that meets a timeout inside the Redis client can come out
    as an error that is caught: a loop that lost its cancellation still ends,
    within the stop's bound (before, it ran on, and a server's shutdown waited
    for it for ever)."""
    async def go() -> None:
        a = fanout(redis, StubHub(CODES[:2]), "A")
        lost = 0

        async def tick() -> None:  # waits until cancelled, and loses the cancellation
            nonlocal lost
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                lost += 1

        a._tick = tick  # type: ignore[method-assign]
        await a.start()
        await until(lambda: a.connected)
        started = time.monotonic()
        await a.stop()
        assert time.monotonic() - started < STOP_SECONDS
        assert lost == 1
        assert all(task.done() for task in a._tasks)

    run(go())
