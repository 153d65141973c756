"""Several server processes at the same tables: PostgreSQL for storage, Redis
for fan-out, both real servers started by the tests (``conftest.py``).

Two ``liverpool serve`` processes on their own ports share a database and a
Redis; a player connected to one and a player connected to the other play
one table. The faults: one process killed with ``kill -9`` mid-game, Redis
restarted mid-game, PostgreSQL stopped and started mid-game, and two
processes racing an action at the same version. ``--workers 2`` serves the
same on one port.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup

pytestmark = pytest.mark.slow

LEASE = 2.0  # seconds: how soon a dead process's tables move over


def serve(folder: Path, database: str, redis_url: str, bot_delay: float = 0.02,
          *args: str) -> sup.ServerProcess:
    return sup.ServerProcess(folder, database=database, bot_delay=bot_delay,
                             args=("--redis", redis_url, *args),
                             env={"LIVERPOOL_LEASE_SECONDS": str(LEASE)})


@pytest.fixture
def pair(tmp_path: Path, postgres: Any, redis: Any) -> Iterator[tuple[sup.ServerProcess, ...]]:
    database = postgres.database()
    a = serve(tmp_path / "a", database, redis.url)
    b = serve(tmp_path / "b", database, redis.url)
    try:  # (a process that did start is stopped even if the other does not come up)
        sup.ServerProcess.start_together(a, b)
        wait_processes(a, 2)
        yield a, b
    finally:
        a.stop()
        b.stop()


def health(server: sup.ServerProcess) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.base}/healthz", timeout=5).json()
    return data


def wait_processes(server: sup.ServerProcess, count: int, timeout: float = 15.0) -> None:
    """Until ``server`` hears of ``count`` live processes (itself included)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(health(server)["processes"]) == count:
            return
        time.sleep(0.1)
    raise AssertionError(f"{server.base} hears of {health(server)['processes']}")


def two_humans(server: sup.ServerProcess, bots: int = 2, **options: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}] * 2 + [{"kind": "bot", "level": "easy"}] * bots
    return sup.create_table(server.base, preset="liverpool", options=options or sup.SHORT,
                            seats=seats, name="Kari")


def record_of(server: sup.ServerProcess, code: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.base}/api/tables/{code}/record",
                                     timeout=10).json()["record"]
    return data


def lease_holder(redis: Any, code: str) -> str | None:
    import redis as redis_client

    client = redis_client.Redis.from_url(redis.url)
    try:
        value = client.get(f"liverpool:lease:{code}")
    finally:
        client.close()
    return None if value is None else value.decode()


def test_players_on_two_processes_play_one_table(pair: tuple[sup.ServerProcess, ...]) -> None:
    """Kari on process B, Ola on process A and a spectator on B play one table to
    its end: every action reaches both, each sees what their seat may know, the
    bots act once per decision, and both processes hold the same record."""
    a, b = pair
    made = two_humans(a)
    code = made["code"]
    joined = sup.join_table(b.base, code, "Ola")  # a seat taken through the other process
    assert joined.status_code == 200, joined.text
    other = joined.json()

    async def go() -> tuple[sup.Player, sup.Player, sup.Player]:
        # each connects to the process that did not give out their seat at once
        kari = await sup.Player(b.ws, code, made["token"], seed=1).connect()
        ola = await sup.Player(a.ws, code, other["token"], seed=2).connect()
        watcher = await sup.Player(b.ws, code, play=False).connect()
        await kari.send({"type": "chat", "text": "<b>hi</b> from B"})  # (through Redis to A)
        await asyncio.gather(kari.play_to_end(120), ola.play_to_end(120))
        await watcher.play_until(lambda: watcher.n == kari.n, 20)
        for p in (kari, ola, watcher):
            await p.close()
        return kari, ola, watcher

    kari, ola, watcher = sup.run(go(), timeout=180)
    rec = record_of(a, code)
    assert rec == record_of(b, code)
    assert kari.n == ola.n == watcher.n == len(rec["actions"])
    assert sup.check_secrets(rec, kari.frames, 0) > 0
    assert sup.check_secrets(rec, ola.frames, 1) > 0
    assert sup.check_secrets(rec, watcher.frames, None) > 0
    for p in (kari, ola, watcher):  # never the same version twice, never backwards
        ns = [f["n"] for f in p.frames if f["type"] == "update"]
        assert all(x < y for x, y in itertools.pairwise(ns)), ns
    # a chat line said on B is in both processes' replays (its live delivery to
    # every connection: the test below)
    for server in (a, b):
        chat = httpx.get(f"{server.base}/api/tables/{code}/replay").json()["chat"]
        assert [(c["seat"], c["text"]) for c in chat] == [(0, "<b>hi</b> from B")]
    # each saw the other's seat taken and connected (presence crosses processes)
    seen = [f["table"]["seats"][1] for f in kari.frames if f["type"] == "table"]
    assert any(s["taken"] and s["connected"] for s in seen)
    assert not a.errors_logged()
    assert not b.errors_logged()


def test_a_chat_line_reaches_every_connection_on_both_processes(
        pair: tuple[sup.ServerProcess, ...]) -> None:
    """Kari on B says a line: she, Ola on A and a spectator on B each get it once,
    as a ``chat`` message (it was said after each connection opened: none of
    their snapshots has it). Ola connects to A just after her seat was taken
    through B: A may not know her token yet (it reads the table again), and
    her connection opens only once it does."""
    a, b = pair
    made = two_humans(a)
    code = made["code"]
    other = sup.join_table(b.base, code, "Ola").json()

    async def go() -> list[tuple[str, sup.Player]]:
        kari = await sup.Player(b.ws, code, made["token"], play=False).connect()
        ola = await sup.Player(a.ws, code, other["token"], play=False).connect()
        watcher = await sup.Player(b.ws, code, play=False).connect()
        await kari.send({"type": "chat", "text": "<b>hi</b> from B"})  # (through Redis to A)
        found = [("kari on B", kari), ("ola on A", ola), ("the watcher on B", watcher)]
        for _, p in found:
            with contextlib.suppress(TimeoutError):
                await p.play_until(lambda p=p: any(f["type"] == "chat" for f in p.frames), 15)
            await p.close()
        return found

    found = sup.run(go(), timeout=90)
    kari = found[0][1]
    for who, p in found:
        snapshots = [line["text"] for f in p.frames if f["type"] == "snapshot"
                     for line in f["chat"]]
        said = [f["line"]["text"] for f in p.frames if f["type"] == "chat"]
        assert (snapshots, said) == ([], ["<b>hi</b> from B"]), (
            who, [f for f in kari.frames if f["type"] == "error"])


def test_kill_9_of_one_process(pair: tuple[sup.ServerProcess, ...], redis: Any) -> None:
    """The process that runs a table's bots is killed with ``kill -9`` mid-game:
    nothing acknowledged is lost, its player reconnects to the other process,
    the bots move over (within the lease time) and the game ends."""
    a, b = pair
    made = two_humans(a)
    code = made["code"]
    other = sup.join_table(a.base, code, "Ola").json()
    deadline = time.monotonic() + 10
    while lease_holder(redis, code) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    holder = lease_holder(redis, code)
    owner, survivor = (a, b) if health(a)["process"] == holder else (b, a)
    assert health(owner)["process"] == holder

    async def go() -> tuple[sup.Player, sup.Player, int, float]:
        p1 = await sup.Player(owner.ws, code, made["token"], seed=1).connect()
        p2 = await sup.Player(survivor.ws, code, other["token"], seed=2).connect()
        await asyncio.gather(p1.play_until(lambda: max(p1.n, p2.n) >= 40),
                             p2.play_until(lambda: max(p1.n, p2.n) >= 40))
        acked = max(p1.acks | p2.acks)
        await asyncio.to_thread(owner.kill9)
        killed_at = time.monotonic()
        with contextlib.suppress(Exception):
            await p1.close()
        await p1.reconnect(survivor.ws)
        snap = await p1.recv_type("snapshot")
        assert snap["n"] >= acked
        p2.acted_at = -1
        await p2._maybe_act()
        await asyncio.gather(p1.play_to_end(120), p2.play_to_end(120))
        await p1.close()
        await p2.close()
        return p1, p2, acked, time.monotonic() - killed_at

    p1, p2, acked, took = sup.run(go(), timeout=180)
    rec = record_of(survivor, code)
    assert len(rec["actions"]) >= acked
    sup.check_secrets(rec, p1.frames, 0)
    sup.check_secrets(rec, p2.frames, 1)
    assert health(survivor)["process"] != holder
    assert took < 120
    print(f"kill -9: {acked} actions acknowledged before, {len(rec['actions'])} in the record; "
          f"the game ended {took:.1f} s after the kill")
    assert not survivor.errors_logged()


def test_redis_restart_mid_game(pair: tuple[sup.ServerProcess, ...], redis: Any) -> None:
    """Redis restarts (losing every key) while two players on two processes play:
    the players catch up by sequence number and the game ends, nothing lost."""
    a, b = pair
    made = two_humans(a)
    code = made["code"]
    other = sup.join_table(b.base, code, "Ola").json()

    async def go() -> tuple[sup.Player, sup.Player, int]:
        p1 = await sup.Player(a.ws, code, made["token"], seed=1).connect()
        p2 = await sup.Player(b.ws, code, other["token"], seed=2).connect()
        await asyncio.gather(p1.play_until(lambda: max(p1.n, p2.n) >= 30),
                             p2.play_until(lambda: max(p1.n, p2.n) >= 30))
        acked = max(p1.acks | p2.acks)
        await asyncio.to_thread(redis.restart, 1.0)
        await asyncio.gather(p1.play_to_end(120), p2.play_to_end(120))
        await p1.close()
        await p2.close()
        return p1, p2, acked

    p1, p2, acked = sup.run(go(), timeout=240)
    rec = record_of(a, code)
    assert rec == record_of(b, code)
    assert len(rec["actions"]) == p1.n == p2.n >= acked
    sup.check_secrets(rec, p1.frames, 0)
    sup.check_secrets(rec, p2.frames, 1)
    for server in (a, b):  # (each process reconnects to the restarted Redis: soon, not at once)
        deadline = time.monotonic() + 15
        while not health(server)["connected"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert health(server)["connected"]
    print(f"Redis restart: {acked} actions acknowledged before, {len(rec['actions'])} in the "
          f"record; snapshots asked after gaps: {p1.gaps} + {p2.gaps}")


def test_postgres_restart_mid_game(tmp_path: Path, postgres: Any, redis: Any) -> None:
    """PostgreSQL stops mid-game: an action then is refused with a "try again"
    error and changes nothing; once it is back, play goes on to the end and
    nothing acknowledged is lost."""
    database = postgres.database()
    server = serve(tmp_path / "a", database, redis.url)
    with sup.running(server):
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 2
        made = sup.create_table(server.base, preset="liverpool", options=sup.SHORT,
                                seats=seats, name="Kari")
        code = made["code"]

        async def go() -> tuple[sup.Player, int, dict[str, Any]]:
            p = await sup.Player(server.ws, code, made["token"], seed=1).connect()
            await p.play_until(lambda: p.n >= 20)
            p.play = False
            # wait for the seat's own decision: the bot has moved, the game waits
            while not (p.view and p.view["legal_actions"]):
                await p.recv()
            await p.quiet(0.3)
            acked = max(p.acks)
            at = p.n
            await asyncio.to_thread(postgres.pg_ctl_run, "stop")
            try:
                action = p.choose()
                await p.send({"type": "action", "version": p.n, "action": action})
                refusal = await p.recv_type("error")
                await p.quiet(0.5)
                assert p.n == at  # nothing changed
            finally:
                await asyncio.to_thread(postgres.pg_ctl_run, "start")
            p.play = True
            p.acted_at = -1
            await p._maybe_act()
            await p.play_to_end(120)
            await p.close()
            return p, acked, refusal

        p, acked, refusal = sup.run(go(), timeout=240)
        assert refusal["code"] == "server_try_again", refusal
        assert "again" in refusal["message"].lower()
        print(f"PostgreSQL restart: refused with {refusal['message']!r}; {acked} acknowledged "
              "before")
        rec = record_of(server, code)
        assert len(rec["actions"]) == p.n >= acked
        sup.check_secrets(rec, p.frames, 0)


def test_two_processes_race_one_version(pair: tuple[sup.ServerProcess, ...]) -> None:
    """The same seat, connected to both processes, sends its action at the
    same version to each at once: exactly one is written, the other is refused
    as made at an old version, and both processes go on from the one."""
    a, b = pair
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    made = sup.create_table(a.base, preset="liverpool", options=sup.SHORT, seats=seats,
                            name="Kari")
    code = made["code"]
    sup.join_table(b.base, code, "Ola")

    async def go() -> tuple[list[dict[str, Any]], int]:
        on_a = await sup.Player(a.ws, code, made["token"], play=False).connect()
        on_b = await sup.Player(b.ws, code, made["token"], play=False).connect()
        await on_a.recv_type("snapshot")
        await on_b.recv_type("snapshot")
        await on_a.quiet(0.3)
        await on_b.quiet(0.3)
        assert on_a.n == on_b.n
        at = on_a.n
        action = on_a.choose()
        assert action is not None
        message = {"type": "action", "version": at, "action": action}
        await asyncio.gather(on_a.send(message), on_b.send(message))
        await asyncio.gather(on_a.quiet(1.0), on_b.quiet(1.0))
        errors = on_a.errors + on_b.errors
        assert on_a.n == on_b.n == at + 1
        for p in (on_a, on_b):
            await p.close()
        return errors, at

    errors, at = sup.run(go())
    from liverpool.server.store import Store

    assert a.database is not None
    store = Store(a.database)
    try:
        assert [seq for seq, _seat, _action in store.actions(code)] == list(range(1, at + 2))
    finally:
        store.close()
    assert [e["code"] for e in errors] == ["stale_action"], errors
    print(f"race at version {at}: one written, the other refused: {errors[0]['message']!r}")


def test_workers_on_one_port(tmp_path: Path, postgres: Any, redis: Any) -> None:
    """``liverpool serve --workers 2 --redis …``: two processes behind one port,
    and a table played through it to the end; a worker killed with ``kill -9``
    is replaced and play goes on."""
    import os
    import signal

    server = serve(tmp_path / "w", postgres.database(), redis.url, 0.02, "--workers", "2")
    with sup.running(server):
        wait_processes(server, 2)
        first = health(server)["processes"]
        made = two_humans(server)
        code = made["code"]
        other = sup.join_table(server.base, code, "Ola").json()

        async def play(until: int | None) -> tuple[sup.Player, sup.Player]:
            p1 = await sup.Player(server.ws, code, made["token"], seed=1).connect()
            p2 = await sup.Player(server.ws, code, other["token"], seed=2).connect()
            if until is None:
                await asyncio.gather(p1.play_to_end(120), p2.play_to_end(120))
            else:
                await asyncio.gather(p1.play_until(lambda: max(p1.n, p2.n) >= until),
                                     p2.play_until(lambda: max(p1.n, p2.n) >= until))
            await p1.close()
            await p2.close()
            return p1, p2

        p1, p2 = sup.run(play(30))
        acked = max(p1.acks | p2.acks)
        victim = int(first[0].split("-")[0])
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                now = health(server)["processes"]
                if len(now) == 2 and first[0] not in now:
                    break
            time.sleep(0.2)
        else:
            raise AssertionError("the killed worker was not replaced")
        q1, q2 = sup.run(play(None), timeout=180)
        rec = record_of(server, code)
        assert len(rec["actions"]) == q1.n >= acked
        sup.check_secrets(rec, p1.frames + q1.frames, 0)
        sup.check_secrets(rec, p2.frames + q2.frames, 1)


def test_leases_spread_and_never_overlap(pair: tuple[sup.ServerProcess, ...],
                                         redis: Any) -> None:
    """Every playing table's bots and timers are played by exactly one process,
    and the tables are spread over the two."""
    a, b = pair
    codes = [two_humans(a if i % 2 else b)["code"] for i in range(10)]
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        owned = [health(a)["owned"], health(b)["owned"]]
        holders = [lease_holder(redis, code) for code in codes]
        if sum(owned) == len(codes) and None not in holders:
            break
        time.sleep(0.2)
    assert sum(owned) == len(codes), owned
    names = {health(a)["process"], health(b)["process"]}
    assert set(holders) == names  # both play some, nobody else does
    assert min(owned) > 0


def test_seat_timeout_counts_players_on_every_process(
        pair: tuple[sup.ServerProcess, ...], redis: Any) -> None:
    """Kari is connected only to the process that does not play her table's
    bots and timers: that one still knows she is there (no bot stands in for
    her past the away time); once she leaves, the bot does stand in."""
    a, b = pair
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 2
    made = sup.create_table(a.base, preset="liverpool", options=sup.SHORT, seats=seats,
                            name="Kari", away_seconds=5)
    code = made["code"]
    deadline = time.monotonic() + 10
    while lease_holder(redis, code) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    holder = lease_holder(redis, code)
    elsewhere = b if health(a)["process"] == holder else a

    async def go() -> tuple[int, int, bool]:
        kari = await sup.Player(elsewhere.ws, code, made["token"], play=False).connect()
        while not (kari.view and kari.view["legal_actions"]):
            await kari.recv()
        at = kari.n
        await kari.read_for(7.0)  # past the away time, at her own decision
        still = kari.n
        table = [f["table"] for f in kari.frames if f["type"] in ("table", "snapshot")][-1]
        away = table["seats"][0]["away"]
        await kari.close()
        return at, still, away

    at, still, away = sup.run(go())
    assert still == at
    assert not away
    deadline = time.monotonic() + 20  # gone: after the away time the bot plays her seat
    while time.monotonic() < deadline:
        table = httpx.get(f"{a.base}/api/tables/{code}", timeout=5).json()
        if table["seats"][0]["away"]:
            break
        time.sleep(0.5)
    assert table["seats"][0]["away"], table

    async def watch() -> int:
        w = await sup.Player(elsewhere.ws, code, play=False).connect()
        await w.recv_type("snapshot")
        await w.read_for(3.0)
        await w.close()
        return w.n

    assert sup.run(watch()) > at


def test_tables_per_address_count_on_every_process(tmp_path: Path, postgres: Any,
                                                   redis: Any) -> None:
    """``--workers 2`` does not give an address twice its allowance: the tables
    it made on one process count on the other (Redis holds the counts)."""
    database = postgres.database()
    caps = {"LIVERPOOL_LEASE_SECONDS": str(LEASE), "LIVERPOOL_TABLES_PER_MINUTE": "3"}
    a = sup.ServerProcess(tmp_path / "a", database=database, args=("--redis", redis.url),
                          env=caps)
    b = sup.ServerProcess(tmp_path / "b", database=database, args=("--redis", redis.url),
                          env=caps)
    body = {"preset": "liverpool", "options": sup.SHORT, "wait": False,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 2}
    try:
        sup.ServerProcess.start_together(a, b)
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.31"),
                          timeout=10) as http:
            answers = [http.post(f"{server.base}/api/tables", json=body)
                       for server in (a, b, a, b, a)]
        assert [r.status_code for r in answers] == [201, 201, 201, 429, 429]
        assert answers[3].json()["detail"]["code"] == "server_too_many_tables"
    finally:
        a.stop()
        b.stop()
