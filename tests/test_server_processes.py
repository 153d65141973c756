"""The server's worker processes (``liverpool.server.processes``): the bots
that search think in them as they would in the server process, a worker that
dies fails only the work it had, and a table whose bots' worker died plays
on."""

from __future__ import annotations

import asyncio
import math
import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup

from liverpool import Game, load_rules
from liverpool.bots.basic import BasicBot
from liverpool.bots.expert import ExpertBot
from liverpool.server import Hub, Store
from liverpool.server.processes import WorkerDied, WorkerPool, bot_choice


@pytest.mark.slow
def test_a_bot_thinks_in_a_worker_as_it_would_in_the_server_process() -> None:
    """The bot goes to the worker and comes back as it is after choosing: its
    random state and memory go on, so it makes the very choices of the same
    bot kept here, decision after decision."""
    rules = load_rules("liverpool", contracts=["SS", "SR"], deal=[10, 10], final_round="normal")
    game = Game(rules, players=3, seed=11)
    here = ExpertBot(rules, seed=5, time_ms=math.inf, iterations=8)
    sent = ExpertBot(rules, seed=5, time_ms=math.inf, iterations=8)
    others = [BasicBot(rules, seed=s) for s in range(3)]
    pool = WorkerPool(1)

    async def play() -> int:
        assert await pool.run(os.getpid) != os.getpid()
        nonlocal sent
        compared = 0
        while not game.is_over:
            seat = next(s for s in range(3) if game.legal_actions(s))
            legal = game.legal_actions(seat)
            view = game.view(seat)
            if seat == 0 and len(legal) > 1:
                action = here.choose(view, legal)
                there, sent = await pool.run(bot_choice, sent, view, legal)
                assert there == action, (compared, view.phase)
                compared += 1
            else:
                action = others[seat].choose(view, legal)
            game.apply(action, seat=seat)
        return compared

    try:
        compared = asyncio.run(play())
    finally:
        pool.close()
    assert compared > 20
    assert here.rng.getstate() != ExpertBot(rules, seed=5).rng.getstate()  # (it drew)
    assert sent.rng.getstate() == here.rng.getstate()


@pytest.mark.slow
def test_a_worker_that_dies_fails_only_its_work_and_the_next_gets_a_new_one() -> None:
    pool = WorkerPool(1)

    async def go() -> None:
        worker = await pool.run(os.getpid)
        waiting = asyncio.ensure_future(pool.run(time.sleep, 60))
        await asyncio.sleep(0.5)  # (the worker is sleeping on it)
        os.kill(worker, signal.SIGKILL)
        with pytest.raises(WorkerDied):
            await asyncio.wait_for(waiting, 30)
        fresh = await asyncio.wait_for(pool.run(os.getpid), 30)
        assert fresh not in (worker, os.getpid())

    try:
        asyncio.run(go())
    finally:
        pool.close()
    with pytest.raises(RuntimeError):
        pool.submit(os.getpid)  # (closed: no more work)


@pytest.mark.slow
def test_a_table_whose_bots_worker_died_plays_on(tmp_path: Path) -> None:
    """A table of a person and two ``hard`` bots: the bots' worker process is
    killed while the game goes on; the game still ends, every move legal."""
    hub = Hub(Store(f"sqlite:///{tmp_path / 'db.sqlite3'}"), bot_delay=0.0)
    server = sup.ThreadServer(hub)
    with sup.running(server):
        made = sup.create_table(server.base, preset="liverpool", options=sup.SHORT,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "hard"},
                                       {"kind": "bot", "level": "hard"}])

        def workers() -> list[Any]:
            return [p for p in multiprocessing.active_children()
                    if p.name.startswith("SpawnProcess")]

        async def play() -> None:
            player = await sup.Player(server.ws, made["code"], made["token"]).connect()
            game = asyncio.ensure_future(player.play_to_end(timeout=120))
            deadline = time.monotonic() + 60
            while not workers():  # (the first move of a bot starts the worker)
                assert time.monotonic() < deadline, "no worker process thinks for the bots"
                await asyncio.sleep(0.05)
            for p in workers():
                os.kill(p.pid, signal.SIGKILL)
            await game
            assert player.over
            assert not player.errors, player.errors[-3:]
            await player.close()

        sup.run(play(), timeout=180)
        record = server.call(lambda: hub.tables[made["code"]].game.record())
    sup.replay_versions(record)  # (every action of the record is legal)


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # (a zombie has ended)


@pytest.mark.slow
def test_a_server_stopped_by_a_signal_leaves_no_worker_and_no_warning(tmp_path: Path) -> None:
    """``liverpool serve`` whose hard bots and hints started their workers,
    stopped as a service manager stops it (SIGTERM): its workers end with it,
    and it says nothing about resources left behind."""
    server = sup.ServerProcess(tmp_path / "data")
    with sup.running(server):
        assert server.proc is not None
        pid = server.proc.pid
        made = sup.create_table(server.base, preset="liverpool", options=sup.SHORT, hints=True,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "hard"},
                                       {"kind": "bot", "level": "hard"}])

        async def play() -> None:
            player = await sup.Player(server.ws, made["code"], made["token"]).connect()
            await player.send({"type": "hint"})
            await player.play_to_end(timeout=120)
            await player.close()

        sup.run(play(), timeout=180)
        workers = spawned_children(pid)
        assert len(workers) >= 2  # (the bots' worker, the hints' and their resource tracker)
    ended_cleanly(server, workers)


def spawned_children(pid: int) -> list[int]:
    """The processes ``multiprocessing`` started for the process ``pid``."""
    return [p for p in children_of(pid)
            if "multiprocessing" in Path(f"/proc/{p}/cmdline").read_bytes().decode()]


def ended_cleanly(server: sup.ServerProcess, processes: list[int]) -> None:
    """The stopped ``server``'s ``processes`` end, and its log says nothing
    about resources left behind nor any error."""
    deadline = time.monotonic() + 30
    while any(alive(p) for p in processes):
        assert time.monotonic() < deadline, "a process outlived its stopped server"
        time.sleep(0.1)
    log = server.log.read_text(errors="replace")
    assert "leaked" not in log, log
    assert not server.errors_logged(), log


@pytest.mark.slow
def test_a_server_stopped_by_a_signal_during_a_review_leaves_nothing(tmp_path: Path) -> None:
    """``liverpool serve`` stopped (SIGTERM) while a review runs: the review's
    processes end with it, and nothing is said about resources left behind
    (their shared counter's semaphore: the server's stop waits for the review's
    thread to end them, as uvicorn then ends the process by the signal)."""
    server = sup.ServerProcess(tmp_path / "data")
    with sup.running(server):
        assert server.proc is not None
        pid = server.proc.pid
        made = sup.create_table(server.base, preset="liverpool", options=sup.SHORT,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "medium"},
                                       {"kind": "bot", "level": "medium"}])

        async def play() -> None:
            player = await sup.Player(server.ws, made["code"], made["token"]).connect()
            await player.play_to_end(timeout=120)
            await player.close()

        sup.run(play(), timeout=180)
        url = f"{server.base}/api/tables/{made['code']}/review"
        assert httpx.post(url, json={"seat": 0}, headers={"X-Seat-Token": made["token"]},
                          timeout=10).status_code == 200
        deadline = time.monotonic() + 60
        while (status := httpx.get(url, params={"seat": 0}, timeout=10).json())["done"] < 1:
            assert status["status"] in ("queued", "running"), status
            assert time.monotonic() < deadline, "the review did not start"
            time.sleep(0.02)
        processes = spawned_children(pid)
        # (the review's processes and their resource tracker)
        assert len(processes) >= min(2, os.cpu_count() or 1)
    ended_cleanly(server, processes)
