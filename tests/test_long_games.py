"""A very long game (a legal one: up to 1000 turns a round) costs the server
bounded memory and no long stall of its event loop: replays kept by bytes,
send queues bounded in bytes, a long game's event texts made in a worker, and
the totals of /api/games worked out once however many ask (docs/server.md,
"Limits"; QA security report D1, D5, D6, D10)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import threading
from pathlib import Path
from typing import Any

import pytest
import test_server_support as sup
import websockets

from liverpool.actions import action_from_json
from liverpool.engine import Game
from liverpool.ruleset_io import load_preset
from liverpool.server import Hub, Store
from liverpool.server.limits import Limits
from liverpool.server.messages import DATA_MESSAGE_BYTES, Client
from liverpool.server.replays import made_size
from liverpool.server.seats import TableSettings
from liverpool.server.table import EVENTS_ON_LOOP, Table

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]


def hub_with(folder: Path, **limits: Any) -> Hub:
    limits.setdefault("connections_per_address", 1000)
    limits.setdefault("messages_per_address", 100000)
    limits.setdefault("connections_per_second", 100000)
    return Hub(Store(f"sqlite:///{folder / 'db.sqlite3'}"), bot_delay=0.0,
               limits=Limits(**limits))


def stall(game: Game, actions: int | None = None) -> None:
    """Only draw from the stock and discard (and pass every window), as one
    person holding every seat could: to the game's end, or ``actions`` of them."""
    start = game.version
    while not game.is_over and (actions is None or game.version - start < actions):
        if game.phase in ("buy", "call"):
            game.apply(action_from_json({"type": "pass"}), seat=game.answering[0])
            continue
        seat = game.to_move
        legal = game.legal_actions(seat)
        for kind in ("draw", "discard"):
            chosen = [a for a in legal if a.type == kind
                      and (kind != "draw" or getattr(a, "source", "") == "stock")]
            if chosen:
                game.apply(chosen[0], seat=seat)
                break
        else:
            game.apply(legal[0], seat=seat)


def long_table(hub: Hub, turns: int = 40, actions: int | None = None) -> Table:
    """A table whose game ran long (each round to ``turns`` turns): played in
    memory only, which is all a replay or a snapshot reads."""
    rules = dataclasses.replace(load_preset("liverpool"), max_turns_per_round=turns)
    table, _token = hub.create(rules, "liverpool", SEATS, TableSettings(), "Kari")
    stall(table.game, actions)
    return table


# ------------------------------------------------------------- D5: send queues
def test_a_send_queue_is_bounded_in_bytes() -> None:
    async def go() -> None:
        closed: list[int] = []
        client = Client(0, "en", queue_size=1000, queue_bytes=1000,
                        overflow=lambda: closed.append(1))
        client.send("x" * 5000)  # alone: taken, however long (a long game's snapshot)
        assert client.queued_bytes == 5000
        assert closed == []
        client.written(client.queue.get_nowait())  # written: it counts no more
        assert client.queued_bytes == 0
        client.send("y" * 600)
        client.send({"type": "ping", "n": 1})
        assert client.queued_bytes == 600 + DATA_MESSAGE_BYTES
        client.send("z" * 600)  # past the bytes: emptied, told to close once, then nothing
        client.send("w")
        assert closed == [1]
        assert client.overflowed
        assert client.queued_bytes == 0
        assert client.queue.get_nowait() is None
        assert client.queue.empty()

    asyncio.run(go())


@pytest.mark.slow
def test_a_reader_that_lets_bytes_pile_up_is_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sup.stuck_spectators(monkeypatch)
    # many messages may wait, but few bytes
    hub = hub_with(tmp_path, send_queue=100000, send_queue_bytes=4000)
    with sup.running(sup.ThreadServer(hub)) as server:
        made = sup.create_table(server.base, preset="liverpool", options=sup.SHORT,
                                seats=SEATS, name="Kari")
        code = made["code"]

        async def go() -> None:
            player = await sup.Player(server.ws, code, made["token"]).connect()
            await player.play_until(lambda: player.n >= 2, timeout=30)
            slow = await websockets.connect(f"{server.ws}/ws/{code}", ping_interval=None)
            with pytest.raises(websockets.exceptions.ConnectionClosed):  # noqa: PT012
                while True:  # (its sync asks keep coming; it reads until the close)
                    await slow.send(json.dumps({"type": "sync", "events_since": 0}))
                    await asyncio.wait_for(slow.recv(), 10)
            assert slow.close_code == 1013
            assert await sup.spectators_left(server, hub, code) == 0
            # the table and its player go on
            n = player.n
            await player.play_until(lambda: player.n >= n + 2 or player.over, timeout=30)
            await player.close()

        sup.run(go())


# ------------------------------------------------------------- D1: replays
@pytest.mark.slow
def test_replays_are_kept_by_bytes_and_a_big_one_is_not_kept(tmp_path: Path) -> None:
    hub = hub_with(tmp_path)
    replays = hub.replays

    async def go() -> None:
        table = long_table(hub)
        assert table.game.is_over
        text, zipped = await replays.replay(table, "en")
        size = made_size((text, zipped))
        data = json.loads(text)
        assert len(data["events"]) == len(table.game.events_for(None))
        assert all("hands" in item for item in data["events"])  # (the JSON as documented)
        sizes = [made_size(await replays.replay(table, lang)) for lang in ("nb", "da")]
        # room for four of them: six versions (three languages, then seat 1
        # shows as connected) let the first ones go
        replays.max_bytes = 4 * max(sizes + [size]) + 100
        replays._made.clear()
        replays.held_bytes = 0
        for lang in ("en", "nb", "da"):
            await replays.replay(table, lang)
        assert len(replays._made) == 3
        table.connect(Client(1, "en"))
        for lang in ("en", "nb", "da"):
            await replays.replay(table, lang)
        assert replays.held_bytes <= replays.max_bytes
        assert replays.held_bytes == sum(made_size(m) for m in replays._made.values())
        assert len(replays._made) == 4
        builds = replays.builds
        await replays.replay(table, "da")  # (kept)
        assert replays.builds == builds
        # one larger than a quarter of the bytes is made for its request, not kept
        replays.max_bytes = 3 * size
        replays._made.clear()
        replays.held_bytes = 0
        again = await replays.replay(table, "en")
        assert json.loads(again[0])["events"] == data["events"]
        assert replays.held_bytes == 0
        assert len(replays._made) == 0
        # those asking at the same time share one build
        builds = replays.builds
        made = await asyncio.gather(*(replays.replay(table, "en") for _ in range(5)))
        assert replays.builds == builds + 1
        assert all(m[0] == again[0] for m in made)

    asyncio.run(go())
    hub.close()


def test_a_presence_change_that_shows_nothing_new_costs_no_new_replay(tmp_path: Path) -> None:
    hub = hub_with(tmp_path)

    async def go() -> None:
        table = long_table(hub, actions=200)
        first = await hub.replays.replay(table, "en")
        builds = hub.replays.builds
        table.presence_rev += 2  # (someone came and went: the table shows as it did)
        assert await hub.replays.replay(table, "en") == first
        assert hub.replays.builds == builds
        client = Client(1, "en")
        table.connect(client)  # now seat 1 shows as connected: a new replay
        second = await hub.replays.replay(table, "en")
        assert hub.replays.builds == builds + 1
        assert json.loads(second[0])["table"]["seats"][1]["connected"]
        table.disconnect(client)

    asyncio.run(go())
    hub.close()


# ------------------------------------------------------------- D6: event texts
def test_a_long_games_events_are_made_off_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = hub_with(tmp_path)
    on_loop: list[int] = []
    render = Table._event_text

    def counted(*args: Any) -> str:
        if threading.current_thread() is threading.main_thread():
            on_loop.append(1)
        return render(*args)

    async def go() -> None:
        table = long_table(hub, turns=400, actions=3000)
        monkeypatch.setattr(Table, "_event_text", staticmethod(counted))
        total = len(table.game.events)
        assert total > 4 * EVENTS_ON_LOOP
        for seat, lang, symbols in ((0, "en", False), (None, "nb", True)):
            await table.prepare_events(seat, lang, symbols, 0, hub.work)
            client = Client(seat, lang, symbols)
            snap = json.loads(table.snapshot_text(client, 0))
            assert len(snap["events"]) == total
            # what a player saw: the same as made on the loop
            assert snap["events"][-1] == json.loads(render(
                table.game.events[-1].visible_to(seat), lang, tuple(table.names(lang)), symbols))
        assert on_loop == []  # (every one made in a worker)
        # a few new events: made on the loop as they come
        stall(table.game, 6)
        client = Client(0, "en")
        client.last_event = total
        update = json.loads(table._update(client))
        assert len(update["events"]) == len(table.game.events) - total
        assert 0 < len(on_loop) <= 12

    asyncio.run(go())
    hub.close()


def test_the_event_texts_a_table_keeps_are_bounded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from liverpool.server import table as table_module

    hub = hub_with(tmp_path)

    async def go() -> None:
        table = long_table(hub, actions=600)
        client = Client(0, "en")
        first = table.snapshot_text(client, 0)
        one = table._event_texts[(0, "en", False)].size
        monkeypatch.setattr(table_module, "EVENT_TEXT_BYTES", 2 * one + one // 2)
        for lang in ("nb", "da"):
            table.snapshot_text(Client(0, lang), 0)
        assert len(table._event_texts) == 2  # (en, used longest ago, let go)
        assert (0, "en", False) not in table._event_texts
        assert table.snapshot_text(client, 0) == first  # made again, the same

    asyncio.run(go())
    hub.close()


# ------------------------------------------------------------- D10: totals
def test_totals_asked_for_at_once_are_worked_out_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = hub_with(tmp_path)
    replayed: list[str] = []
    replay_game = hub._replay_game

    def counted(record: Any, rows: Any = None) -> Game:
        replayed.append(record.code)
        return replay_game(record, rows)

    monkeypatch.setattr(hub, "_replay_game", counted)

    async def go() -> None:
        table = long_table(hub, actions=10)
        record = table.record
        del hub.tables[table.code]  # (not in memory: replayed from storage)
        totals = await asyncio.gather(*(hub.totals(record) for _ in range(6)))
        assert replayed == [record.code]
        assert all(t == totals[0] for t in totals)
        assert await hub.totals(record) == totals[0]  # (remembered)
        assert replayed == [record.code]

    asyncio.run(go())
    hub.close()
