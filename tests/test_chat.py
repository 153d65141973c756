"""Chat at the table over the WebSocket (docs/protocol.md, "Chat"), on a real
uvicorn in a thread whose hub the test holds: lines and reactions reach every
connection, who may chat per the table's ``chat`` setting, the length and the
rates with their codes, markup kept as text, wrong types refused, the chat
kept in storage, in a reconnect's snapshot, after a restart and in the replay
and the record."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup

import liverpool.server
from liverpool.server import Hub, Store
from liverpool.server.chat import MEMORY, TableChat
from liverpool.server.inbound import CHAT_LENGTH, REACTIONS
from liverpool.server.limits import Limits
from liverpool.server.ui import UI_WORDS

#: real servers (in a thread of this process): part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

MARKUP = '<img src=x onerror="document.title=\'owned\'"><b>hi</b>'


def start(db: Path, **limits: Any) -> sup.ThreadServer:
    hub = Hub(Store(f"sqlite:///{db}"), bot_delay=0.0,
              limits=Limits(**{"connections_per_address": 1000, "chat_per_address": 1000,
                               "chat_burst": 1000, "chat_per_minute": 1000, **limits}))
    return sup.ThreadServer(hub).start()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("chat") / "db.sqlite3"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[sup.ThreadServer]:
    s = start(db)
    yield s
    s.stop()


def two_players(server: Any, chat: str | None = None) -> tuple[str, str, str]:
    """A table of two people and a bot: its code and the two people's tokens."""
    extra = {} if chat is None else {"chat": chat}
    made = sup.create_table(server.base, preset="liverpool", options=sup.SHORT,
                            seats=[{"kind": "human"}, {"kind": "human"},
                                   {"kind": "bot", "level": "easy"}], name="Kari", **extra)
    joined = sup.join_table(server.base, made["code"], "Ola").json()
    return made["code"], made["token"], joined["token"]


async def connect(server: Any, code: str, token: str | None = None) -> sup.Player:
    p = await sup.Player(server.ws, code, token, play=False).connect()
    await p.recv_type("snapshot")
    return p


async def said(p: sup.Player, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and wait for what answers it: its chat line (the
    first one of its seat from now on) or an error."""
    await p.send(message)
    while True:
        frame = await p.recv()
        if frame["type"] == "error" or (frame["type"] == "chat"
                                        and frame["line"]["seat"] == p.seat):
            return frame


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


# --------------------------------------------------------------- talking
def test_lines_and_reactions_reach_every_connection_as_text(server: Any) -> None:
    code, kari, ola = two_players(server)  # chat: "players" (the default)

    async def go() -> None:
        a, b, watcher = (await connect(server, code, kari), await connect(server, code, ola),
                         await connect(server, code))
        assert a.frames[-1]["table"]["settings"]["chat"] == "players"
        assert a.frames[-1]["chat"] == []
        first = await said(a, {"type": "chat", "text": f"  {MARKUP}\n"})
        assert first["type"] == "chat"
        line = first["line"]
        assert line["text"] == MARKUP  # exactly as typed (cleaned), never markup made safe
        assert (line["seat"], line["reaction"]) == (0, None)
        assert line["events"] >= 1  # (said after the deal: the replay shows it there)
        for other in (b, watcher):
            assert (await other.recv_type("chat"))["line"] == line
        second = await said(b, {"type": "chat", "reaction": "good_game"})
        assert second["line"]["seat"] == 1
        assert second["line"]["reaction"] == "good_game"
        assert second["line"]["id"] > line["id"]
        # spectators read the players' chat, and may not write in it
        assert (await watcher.recv_type("chat"))["line"] == second["line"]
        refused = await said(watcher, {"type": "chat", "text": "hello"})
        assert refused["code"] == "server_chat_players_only"
        # a connection that comes (or comes back) gets the chat with its snapshot
        late = await connect(server, code)
        assert late.frames[-1]["chat"] == [line, second["line"]]
        await late.send({"type": "sync", "events_since": 0})
        assert (await late.recv_type("snapshot"))["chat"] == [line, second["line"]]
        for p in (a, b, watcher, late):
            await p.close()

    run(go())
    stored = server.hub.store.chat(code)
    assert [s["text"] for s in stored] == [MARKUP, None]
    replay = httpx.get(f"{server.base}/api/tables/{code}/replay").json()
    assert [(c["seat"], c["text"], c["reaction"]) for c in replay["chat"]] == [
        (0, MARKUP, None), (1, None, "good_game")]
    assert all(0 <= c["events"] <= len(replay["events"]) for c in replay["chat"])


def test_spectators_chat_when_the_table_lets_them(server: Any) -> None:
    code, kari, _ola = two_players(server, chat="all")

    async def go() -> None:
        a, watcher = await connect(server, code, kari), await connect(server, code)
        line = (await said(watcher, {"type": "chat", "text": "go Kari!"}))["line"]
        assert line["seat"] is None  # a spectator's line, marked as one
        assert (await a.recv_type("chat"))["line"] == line
        await a.close()
        await watcher.close()

    run(go())


def test_a_table_without_chat_takes_none(server: Any) -> None:
    code, kari, _ola = two_players(server, chat="off")
    bad = httpx.post(f"{server.base}/api/tables", json={"chat": "friends"})
    assert bad.status_code == 422
    assert bad.json()["detail"]["code"] == "server_bad_field"

    async def go() -> None:
        a = await connect(server, code, kari)
        assert a.frames[-1]["table"]["settings"]["chat"] == "off"
        assert (await said(a, {"type": "chat", "text": "hi"}))["code"] == "server_chat_off"
        assert (await said(a, {"type": "chat", "reaction": "laugh"}))["code"] == "server_chat_off"
        await a.close()

    run(go())
    assert server.hub.store.chat(code) == []


def test_what_is_not_a_chat_line_is_refused_with_its_code(server: Any) -> None:
    code, kari, _ola = two_players(server)

    async def go() -> None:
        a = await connect(server, code, kari)
        cases: list[tuple[dict[str, Any] | str, str, dict[str, Any]]] = [
            ({"type": "chat", "text": 5}, "server_bad_field", {"field": "text"}),
            ({"type": "chat", "text": ["hi"]}, "server_bad_field", {"field": "text"}),
            ({"type": "chat", "reaction": "boo"}, "server_bad_field", {"field": "reaction"}),
            ({"type": "chat", "reaction": True}, "server_bad_field", {"field": "reaction"}),
            ({"type": "chat"}, "server_chat_empty", {}),
            ({"type": "chat", "text": "hi", "reaction": "wow"}, "server_chat_empty", {}),
            ({"type": "chat", "text": " \x00\u200b\u202e\x1b[2J "}, "server_chat_empty", {}),
            ({"type": "chat", "text": "x" * (CHAT_LENGTH + 1)}, "server_chat_too_long",
             {"limit": CHAT_LENGTH}),
            ('{"type": "chat", "text": "hi \\ud800"}', "server_bad_text", {}),
        ]
        for message, code_, params in cases:
            answer = await said(a, message)
            assert answer["type"] == "error", message
            assert answer["code"] == code_, message
            assert answer["params"] == params, message
        # the length is counted after cleaning: 200 accented letters sent as 400
        # characters (a letter and a combining accent each) are 200 kept
        kept = await said(a, {"type": "chat", "text": "e\u0301" * CHAT_LENGTH})
        assert kept["line"]["text"] == "\u00e9" * CHAT_LENGTH
        # control characters and escapes go; an emoji sequence stays whole
        line = (await said(a, {"type": "chat", "text": "a\x07b\x1b[31m c\n\U0001F469\u200d\U0001F4BB"}))
        assert line["line"]["text"] == "ab c \U0001F469\u200d\U0001F4BB"
        await a.close()

    run(go())
    assert len(server.hub.store.chat(code)) == 2


def test_rates_per_connection_and_per_address(tmp_path: Path) -> None:
    server = start(tmp_path / "db.sqlite3", chat_burst=3, chat_per_address=5)
    try:
        code, kari, ola = two_players(server)

        async def go() -> None:
            a, b = await connect(server, code, kari), await connect(server, code, ola)
            for i in range(3):
                assert (await said(a, {"type": "chat", "text": f"a{i}"}))["type"] == "chat"
            fast = await said(a, {"type": "chat", "text": "a3"})
            assert fast["code"] == "server_chat_too_fast"
            assert 1 <= fast["params"]["seconds"] <= 10
            assert "10" in fast["message"] or str(fast["params"]["seconds"]) in fast["message"]
            # the other connection of the address: two more make the address's five
            for i in range(2):
                assert (await said(b, {"type": "chat", "reaction": "wow"}))["type"] == "chat", i
            assert (await said(b, {"type": "chat", "text": "b"}))["code"] == "server_chat_too_fast"
            # refused lines were never said: the others got exactly the five
            got = [f["line"]["text"] or f["line"]["reaction"] for f in b.frames
                   if f["type"] == "chat"]
            assert got == ["a0", "a1", "a2", "wow", "wow"]
            await a.close()
            await b.close()

        run(go())
        assert len(server.hub.store.chat(code)) == 5
    finally:
        server.stop()


def test_a_table_s_chat_is_bounded_in_storage(server: Any) -> None:
    code, kari, _ola = two_players(server)
    hub: Hub = server.hub
    hub.limits = dataclasses.replace(hub.limits, chat_lines_per_table=3)
    try:
        async def go() -> None:
            a = await connect(server, code, kari)
            for i in range(3):
                assert (await said(a, {"type": "chat", "text": str(i)}))["type"] == "chat"
            full = await said(a, {"type": "chat", "text": "more"})
            assert (full["code"], full["params"]) == ("server_chat_full", {"limit": 3})
            await a.close()

        run(go())
    finally:
        hub.limits = dataclasses.replace(hub.limits, chat_lines_per_table=2000)


# ------------------------------------------------------- kept with the table
def test_the_chat_outlives_a_restart_and_is_in_the_replay(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    server = start(db)
    code, kari, ola = two_players(server)

    async def say_one() -> None:
        a = await connect(server, code, kari)
        assert (await said(a, {"type": "chat", "text": "line 0"}))["type"] == "chat"
        await a.close()

    run(say_one())
    table = server.hub.tables[code]
    for i in range(1, MEMORY + 5):  # (the rest said in the server's loop: no rates)
        asyncio.run_coroutine_threadsafe(table.say(1, f"line {i}", None),
                                         server.loop).result(5)
    assert len(table.chat.lines) == MEMORY  # the last 100 in memory ...
    assert table.chat.count == MEMORY + 5  # ... all of them in storage
    server.stop()
    again = start(db)  # a new process on the same database
    try:
        async def come_back() -> None:
            b = await connect(again, code, ola)
            lines = b.frames[-1]["chat"]
            assert [c["text"] for c in lines] == [f"line {i}" for i in range(5, MEMORY + 5)]
            await b.close()

        run(come_back())
        replay = httpx.get(f"{again.base}/api/tables/{code}/replay").json()
        assert [c["text"] for c in replay["chat"]] == [f"line {i}" for i in range(MEMORY + 5)]
        # the same replay asked again is the one made (one build), until a new line
        builds = again.hub.replays.builds
        httpx.get(f"{again.base}/api/tables/{code}/replay")
        assert again.hub.replays.builds == builds

        async def one_more() -> None:
            b = await connect(again, code, ola)
            await said(b, {"type": "chat", "reaction": "thumbs_up"})
            await b.close()

        run(one_more())
        replay = httpx.get(f"{again.base}/api/tables/{code}/replay").json()
        assert replay["chat"][-1]["reaction"] == "thumbs_up"
        assert len(replay["chat"]) == MEMORY + 6
    finally:
        again.stop()


def test_the_record_of_a_finished_game_carries_its_chat(tmp_path: Path) -> None:
    server = start(tmp_path / "db.sqlite3")
    try:
        made = sup.create_table(server.base, preset="liverpool", options=sup.SHORT,
                                seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                       {"kind": "bot", "level": "easy"}],
                                name="Kari", chat="all")

        async def go() -> None:
            p = await sup.Player(server.ws, made["code"], made["token"]).connect()
            await p.recv_type("snapshot")
            await p.send({"type": "chat", "reaction": "good_game"})
            await p.play_to_end()
            await p.close()

        run(go())
        record = httpx.get(f"{server.base}/api/tables/{made['code']}/record").json()
        assert [c["reaction"] for c in record["chat"]] == ["good_game"]
        assert record["chat"][0]["seat"] == 0
        # a line is what was said, and nothing else: no hand, no card
        assert set(record["chat"][0]) == {"id", "at", "events", "seat", "text", "reaction"}
    finally:
        server.stop()


def test_table_chat_holds_the_last_lines_in_order() -> None:
    chat = TableChat([{"id": i, "text": str(i)} for i in (3, 1, 2)], count=3)
    assert [line["id"] for line in chat.lines] == [1, 2, 3]
    assert not chat.add({"id": 2, "text": "again"})  # (heard twice: kept once)
    assert chat.add({"id": 5, "text": "5"})
    assert chat.add({"id": 4, "text": "4"})
    assert [line["id"] for line in chat.lines] == [1, 2, 3, 4, 5]
    assert json.loads(chat.text())[-1] == {"id": 5, "text": "5"}
    for i in range(6, MEMORY + 10):
        chat.add({"id": i, "text": str(i)})
    assert len(chat.lines) == MEMORY
    assert chat.lines[-1]["id"] == MEMORY + 9
    assert chat.count == MEMORY + 9
    assert not chat.complete()


def test_the_page_offers_the_reactions_the_server_takes() -> None:
    page = Path(liverpool.server.__file__).parent / "static" / "js" / "table" / "chat.js"
    offered = re.findall(r'\["(\w+)", (?:"[^"]+"|null)\]', page.read_text(encoding="utf-8"))
    assert tuple(offered) == REACTIONS
    assert all(f"reaction_{name}" in UI_WORDS for name in REACTIONS)


def test_a_process_starting_resumes_each_table_with_its_chat(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    server = start(db)
    try:
        code, _kari, _ola = two_players(server)
        table = server.hub.tables[code]
        for i in range(3):
            asyncio.run_coroutine_threadsafe(table.say(i % 2, f"line {i}", None),
                                             server.loop).result(5)
    finally:
        server.stop()
    hub = Hub(Store(f"sqlite:///{db}"))  # (liverpool serve: every unfinished table at the start)
    try:
        assert hub.load() >= 1
        resumed = hub.tables[code]
        assert [line["text"] for line in resumed.chat.lines] == ["line 0", "line 1", "line 2"]
        assert resumed.chat.count == 3
    finally:
        hub.close()
