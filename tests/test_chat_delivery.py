"""A chat line reaches every connection of a process even when the news of it
did not come (docs/server.md, "Several processes"): a line another process
said while this one was loading the table, one whose Redis message was lost,
and one whose write the storage finished after the "try again". In this
process, on SQLite: a hub whose fan-out is not alone (what it tells goes
nowhere), and "another process" that writes to the same storage."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from liverpool.ruleset_io import load_rules
from liverpool.server import Hub, Store
from liverpool.server.fanout import Fanout
from liverpool.server.limits import Limits
from liverpool.server.messages import Client
from liverpool.server.seats import TableSettings
from liverpool.server.store import ChatLine, StoreError
from liverpool.server.table import Table

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]


class NotAlone(Fanout):
    """The fan-out of a process that shares its tables with others: what it
    publishes is kept here, and no news of the others ever comes."""

    process = "here"

    def __init__(self) -> None:
        self.published: list[ChatLine] = []

    def chat(self, code: str, line: dict[str, Any]) -> None:
        self.published.append(line)


class SharedStore(Store):
    """The storage, with another process that says a line just after this one
    read a table's chat (``meanwhile``), and chat writes that take
    ``slow_write`` seconds."""

    meanwhile: str | None = None
    slow_write = 0.0

    def chat_tail(self, code: str, last: int) -> tuple[list[ChatLine], int]:
        read = super().chat_tail(code, last)
        if self.meanwhile is not None:
            text, self.meanwhile = self.meanwhile, None
            elsewhere(self, code, text)
        return read

    def append_chat(self, code: str, line: ChatLine) -> int:
        time.sleep(self.slow_write)
        return super().append_chat(code, line)


def elsewhere(store: Store, code: str, text: str) -> None:
    """A line said at the table in another process (its news never comes here)."""
    store.append_chat(code, {"at": time.time(), "events": 0, "seat": 1, "text": text,
                             "reaction": None})


def hub_on(folder: Path, **options: Any) -> tuple[Hub, SharedStore]:
    store = SharedStore(f"sqlite:///{folder / 'db.sqlite3'}")
    return Hub(store, bot_delay=0.0, fanout=NotAlone(), **options), store


def new_table(hub: Hub) -> Table:
    table, _token = hub.create(load_rules("liverpool"), "liverpool", SEATS, TableSettings(),
                               "Kari")
    return table


def received(client: Client) -> list[dict[str, Any]]:
    """Every message sent to ``client`` so far (taken from its queue)."""
    out = []
    while not client.queue.empty():
        message = client.queue.get_nowait()
        if message is not None:
            out.append(json.loads(message) if isinstance(message, str) else message)
    return out


def chat_texts(messages: list[dict[str, Any]]) -> list[str]:
    """The lines a client has: those of its snapshots and its chat messages."""
    texts = []
    for m in messages:
        if m["type"] == "snapshot":
            texts += [line["text"] for line in m["chat"]]
        elif m["type"] == "chat":
            texts.append(m["line"]["text"])
    return texts


async def until(check: Any, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.02)


def test_a_line_said_elsewhere_while_the_table_loads_reaches_its_connections(
        tmp_path: Path) -> None:
    hub, store = hub_on(tmp_path)

    async def go() -> None:
        table = new_table(hub)
        code = table.code
        elsewhere(store, code, "before")
        hub.evict(table, "idle")
        # its news came while the table was not here: it is read from storage
        store.meanwhile = "while it was loaded"
        loaded = await hub.get(code)
        assert loaded is not None
        client = Client(0, "en")
        loaded.connect(client)
        seen: list[dict[str, Any]] = []
        await until(lambda: (seen.extend(received(client)) or
                             "while it was loaded" in chat_texts(seen)))
        await asyncio.sleep(0.1)
        seen += received(client)
        assert chat_texts(seen) == ["before", "while it was loaded"]  # each once
        assert [line["text"] for line in loaded.chat.lines] == chat_texts(seen)
        assert loaded.chat.count == 2

    try:
        asyncio.run(asyncio.wait_for(go(), 20))
    finally:
        hub.close()


def test_a_line_whose_news_was_lost_comes_when_the_chat_is_read_again(
        tmp_path: Path) -> None:
    hub, store = hub_on(tmp_path)

    async def go() -> None:
        table = new_table(hub)
        client = Client(None, "en")
        table.connect(client)
        await table.say(0, "said here", None)
        elsewhere(store, table.code, "lost on the way")  # (Redis never told us)
        table.catch_up_chat_soon()  # (what a tick that counts more lines asks for)
        seen: list[dict[str, Any]] = []
        await until(lambda: (seen.extend(received(client)) or
                             "lost on the way" in chat_texts(seen)))
        table.catch_up_chat_soon()  # nothing new: nothing is sent twice
        await asyncio.sleep(0.2)
        seen += received(client)
        assert chat_texts(seen) == ["said here", "lost on the way"]
        assert table.chat.count == 2
        assert [line["text"] for line in hub.fanout.published] == ["said here"]  # type: ignore[attr-defined]

    try:
        asyncio.run(asyncio.wait_for(go(), 20))
    finally:
        hub.close()


@pytest.mark.slow
def test_a_write_that_lands_after_the_try_again_still_reaches_everyone(
        tmp_path: Path) -> None:
    hub, store = hub_on(tmp_path, limits=Limits(storage_seconds=0.5))

    async def go() -> None:
        table = new_table(hub)
        client = Client(1, "en")
        table.connect(client)
        store.slow_write = 0.8  # past the timeout: "try again", and written all the same
        with pytest.raises(StoreError):
            await table.say(0, "slow", None)
        assert "slow" not in chat_texts(received(client))
        seen: list[dict[str, Any]] = []
        hub.storage.timeout = 5.0  # (the storage answers in time again)
        await until(lambda: (seen.extend(received(client)) or
                             "slow" in chat_texts(seen)), 5)
        assert chat_texts(seen) == ["slow"]
        assert table.chat.count == 1

    try:
        asyncio.run(asyncio.wait_for(go(), 20))
    finally:
        hub.close()
