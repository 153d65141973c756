"""Several server processes at the same tables: what one process tells the
others, and which of them plays a table's bots and timers.

Without Redis (:class:`LocalFanout`) a process is alone: it owns every table
and tells nobody. With ``--redis`` (:class:`RedisFanout`) every process

* publishes each action it wrote to storage (table, sequence number, seat,
  action) on one Redis channel; the others apply it to their copy of the game
  and tell their own clients. A message that arrives with a gap in the
  sequence, or not at all, is made up from storage: the action log is the
  authority and Redis only carries news of it;
* publishes each chat line it wrote to storage; the others keep it and send
  it to their own clients. A line that did not come (Redis was away, the
  table was being loaded) is read from storage: every tick tells how many
  lines each table with recent chat has, and a table that holds fewer reads
  its chat again (so does every table loaded, and every table after Redis
  comes back);
* publishes its connections per seat, so a player connected to another process
  counts as present everywhere (nobody's bot stands in for them);
* holds a *lease* (a Redis key with an expiry, renewed every second) for each
  table whose bots, turn timers and seat timeouts it runs. Leases are spread
  over the live processes by rendezvous hashing; a process that dies stops
  renewing, and within ``lease_seconds`` another one takes its tables over.
  Should two processes ever act for one table at once, the storage lets only
  one action per version in.

After Redis comes back from a restart every process brings each of its tables
up to date from storage (clients see the new sequence numbers and catch up).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from ..engine import Game
from .chat import TableChat

__all__ = ["Fanout", "LocalFanout", "RedisFanout", "make_fanout"]

log = logging.getLogger("liverpool.server")

#: renew a held lease only if it is still ours (or gone, after a Redis restart)
_RENEW = """
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] or not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
#: give a lease back only if it is ours
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


#: messages waiting for Redis at most: while it is away, the newest beyond
#: them are dropped (the next tick tells every table's version, and the others
#: catch up from storage; presence goes in every tick too)
OUTBOX = 10_000

#: seconds after its last action (chat line) that a table's version (chat
#: count) is still in every tick (the others catch up with anything they
#: missed, say while Redis was away)
RECENT = 600.0
#: seconds stop() waits for the fan-out's own tasks to end
STOP_SECONDS = 2.0


class TableLike(Protocol):
    """What the fan-out needs of a table (:class:`liverpool.server.table.Table`)."""

    code: str
    game: Game
    changed_at: float
    clients: Any
    chat: TableChat

    def local_counts(self) -> list[int]: ...
    def presence_changed(self) -> None: ...
    def schedule_moves(self) -> None: ...
    async def catch_up(self) -> None: ...
    async def reload(self) -> None: ...
    def remote_action(self, seq: int, seat: int, data: dict[str, Any]) -> None: ...
    def hear(self, line: dict[str, Any]) -> None: ...
    def catch_up_soon(self) -> None: ...
    def catch_up_chat_soon(self) -> None: ...


class HubLike(Protocol):
    """What the fan-out needs of a hub (:class:`liverpool.server.hub.Hub`)."""

    @property
    def tables(self) -> Mapping[str, TableLike]: ...
    async def load_table(self, code: str) -> Any: ...


class Fanout:
    """What a hub tells other processes, and which tables it plays."""

    #: this process's name (in leases and messages)
    process: str = "local"
    #: the Redis URL where the rates per address are shared (None: this process's own)
    limits_url: str | None = None
    hub: HubLike

    def attach(self, hub: HubLike) -> None:
        self.hub = hub

    async def start(self) -> None:
        """Start talking to the others (in the server's event loop)."""

    async def stop(self) -> None:
        """Stop, and give back every lease."""

    def owns(self, code: str) -> bool:
        """Whether this process plays the table's bots and timers."""
        return True

    def action(self, code: str, seq: int, seat: int, data: dict[str, Any]) -> None:
        """An action of the table was written to storage and applied here."""

    def chat(self, code: str, line: dict[str, Any]) -> None:
        """A chat line of the table was written to storage and sent here."""

    def changed(self, code: str, *, new: bool = False) -> None:
        """The table's seats or record changed in storage (``new``: a new table)."""

    def presence(self, code: str, counts: list[int]) -> None:
        """This process's connections per seat of the table changed."""

    def remote(self, code: str, seat: int) -> int:
        """Connections to the seat held by the other processes."""
        return 0

    def status(self) -> dict[str, Any]:
        return {"process": self.process, "fanout": "local"}


class LocalFanout(Fanout):
    """One process alone: every table is its own."""


def make_fanout(redis_url: str | None, **kwargs: Any) -> Fanout:
    return LocalFanout() if not redis_url else RedisFanout(redis_url, **kwargs)


def _rank(code: str, process: str) -> bytes:
    return hashlib.blake2b(f"{code}/{process}".encode(), digest_size=8).digest()


class RedisFanout(Fanout):
    """Processes that share tables through Redis (see the module's text)."""

    def __init__(self, url: str, *, prefix: str = "liverpool", lease_seconds: float = 5.0,
                 tick_seconds: float = 1.0, process: str | None = None) -> None:
        from redis import asyncio as aioredis  # the server extra brings it

        self.url = url
        self.limits_url = url
        self.prefix = prefix
        self.channel = f"{prefix}:events"
        self.lease_ms = int(lease_seconds * 1000)
        self.tick_seconds = tick_seconds
        self.process = process or f"{os.getpid()}-{secrets.token_hex(3)}"
        self.redis: Any = aioredis.Redis.from_url(url, socket_timeout=5,
                                                  socket_connect_timeout=2)
        self.owned: set[str] = set()
        self.connected = False
        #: process → (when its last full presence came, {code: connections per seat})
        self._remote: dict[str, tuple[float, dict[str, list[int]]]] = {}
        self._live: dict[str, float] = {}  # process → when it was last heard of
        self._free_since: dict[str, int] = {}  # code → ticks its lease was seen free
        self._outbox: asyncio.Queue[str] = asyncio.Queue(maxsize=OUTBOX)
        self.dropped = 0  # messages not even queued (the outbox was full)
        self._tasks: list[asyncio.Task[None]] = []
        self._pending: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.resyncs = 0  # how many times the tables were brought up to date after an outage

    # ------------------------------------------------------------ running
    async def start(self) -> None:
        self._live[self.process] = time.monotonic()
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._forever(self._listen, listener=True)))
        for fn in (self._tick_loop, self._send_loop):
            self._tasks.append(loop.create_task(self._forever(fn)))

    async def stop(self) -> None:
        self._stopping = True
        for task in self._pending:
            task.cancel()
        # A cancellation can be lost on its way through the Redis client (one
        # that meets a timeout of its own is turned into an error, which is
        # then caught): every loop ends by itself once it sees ``_stopping``,
        # and the tasks are cancelled again until they end (bounded: a task
        # that does not end is left behind).
        deadline = time.monotonic() + STOP_SECONDS
        running = {task for task in self._tasks if not task.done()}
        while running and (left := deadline - time.monotonic()) > 0:
            for task in running:
                task.cancel()
            _done, running = await asyncio.wait(running, timeout=min(0.1, left))
        with contextlib.suppress(Exception):
            release = self.redis.register_script(_RELEASE)
            for code in list(self.owned):
                await release(keys=[self._lease(code)], args=[self.process])
        self.owned.clear()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _forever(self, fn: Callable[[], Awaitable[None]], *,
                       listener: bool = False) -> None:
        """Run ``fn`` again after any Redis failure (Redis restarting, unreachable);
        the listener's failure means the news of other processes was cut."""
        while not self._stopping:
            try:
                await fn()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - Redis away: try again shortly
                if listener:
                    if self.connected:
                        log.warning("redis: %s; trying again", e)
                    self.connected = False
                await asyncio.sleep(0.5)

    def _lease(self, code: str) -> str:
        return f"{self.prefix}:lease:{code}"

    # ------------------------------------------------------------ telling
    def _post(self, kind: str, **data: Any) -> None:
        try:
            self._outbox.put_nowait(json.dumps({"p": self.process, "k": kind, **data},
                                               separators=(",", ":")))
        except asyncio.QueueFull:
            self.dropped += 1

    def action(self, code: str, seq: int, seat: int, data: dict[str, Any]) -> None:
        self._post("action", code=code, seq=seq, seat=seat, action=data)

    def chat(self, code: str, line: dict[str, Any]) -> None:
        self._post("chat", code=code, line=line)

    def changed(self, code: str, *, new: bool = False) -> None:
        self._post("new" if new else "changed", code=code)

    def presence(self, code: str, counts: list[int]) -> None:
        self._post("presence", code=code, seats=counts)

    def waiting(self) -> int:
        """Messages waiting to be published."""
        return self._outbox.qsize()

    async def _send_loop(self) -> None:
        """Publish in order: whatever is waiting at a time goes as one Redis
        message (a JSON list). A message that cannot be sent while Redis is away
        is dropped: storage has the actions, and everyone resynchronises when
        Redis is back."""
        while not self._stopping:
            first = await self._outbox.get()
            batch = [first]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            try:
                await self.redis.publish(self.channel, "[" + ",".join(batch) + "]")
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001
                log.warning("redis: %d messages not published (%s)", len(batch), e)

    # ------------------------------------------------------------ hearing
    async def _listen(self) -> None:
        pubsub = self.redis.pubsub()
        try:
            await pubsub.subscribe(self.channel)
            if not self.connected:
                self.connected = True
                await self._resync()
            while not self._stopping:
                message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                   timeout=1.0)
                if message is None or message.get("type") != "message":
                    continue
                try:
                    batch = json.loads(message["data"])
                except (ValueError, TypeError):
                    continue
                if not isinstance(batch, list):
                    continue
                for data in batch:
                    if isinstance(data, dict) and data.get("p") != self.process:
                        await self._take_message(data)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()

    async def _take_message(self, data: dict[str, Any]) -> None:
        kind, code, sender = data.get("k"), data.get("code"), str(data.get("p"))
        self._live[sender] = time.monotonic()
        hub = self.hub
        if kind == "tick":
            seats = data.get("presence") or {}
            old = self._remote.get(sender, (0.0, {}))[1]
            self._remote[sender] = (time.monotonic(), seats)
            for c in set(old) | set(seats):
                if old.get(c) != seats.get(c) and c in hub.tables:
                    hub.tables[c].presence_changed()
            for c, version in (data.get("versions") or {}).items():
                table = hub.tables.get(c)
                if table is not None and table.game.version < version:
                    table.catch_up_soon()
            for c, count in (data.get("chats") or {}).items():
                table = hub.tables.get(c)
                if table is not None and isinstance(count, int) and table.chat.count < count:
                    table.catch_up_chat_soon()  # (a line that never came here)
            return
        if not isinstance(code, str):
            return
        table = hub.tables.get(code)
        if kind == "action":
            if table is not None:
                table.remote_action(int(data["seq"]), int(data["seat"]), data["action"])
        elif kind == "chat":
            if table is not None and isinstance(data.get("line"), dict):
                table.hear(data["line"])
        elif kind == "presence":
            when, seats = self._remote.get(sender, (time.monotonic(), {}))
            seats = dict(seats)
            seats[code] = list(data.get("seats") or [])
            self._remote[sender] = (when, seats)
            if table is not None:
                table.presence_changed()
        elif kind == "changed":
            # (a table still being loaded here may have read its record before the
            # change: it is read again once loaded)
            self._spawn(table.reload() if table is not None else self._load_changed(code))
        elif kind == "new" and table is None:
            self._spawn(hub.load_table(code))

    async def _load_changed(self, code: str) -> None:
        table = await self.hub.load_table(code)
        if table is not None:
            await table.reload()

    def _spawn(self, work: Awaitable[Any]) -> None:
        """Work that reads storage, in a task: the listener never waits on it."""
        async def run() -> None:
            try:
                await work
            except Exception as e:  # noqa: BLE001 - storage away: the next tick helps
                log.warning("redis news not acted on: %s", e)

        task = asyncio.get_running_loop().create_task(run())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _resync(self) -> None:
        """Bring every table up to date from storage (after Redis was away)."""
        self.resyncs += 1
        for table in list(self.hub.tables.values()):
            table.catch_up_soon()
            table.catch_up_chat_soon()

    def remote(self, code: str, seat: int) -> int:
        count = 0
        for process, (_when, seats) in self._remote.items():
            if process == self.process or not self._alive(process):
                continue
            counts = seats.get(code)
            if counts and seat < len(counts):
                count += counts[seat]
        return count

    def _alive(self, process: str) -> bool:
        heard = self._live.get(process)
        return heard is not None and time.monotonic() - heard < self.lease_ms / 1000

    # ------------------------------------------------------------ leases
    def owns(self, code: str) -> bool:
        return code in self.owned

    async def _tick_loop(self) -> None:
        while not self._stopping:
            await self._tick()
            await asyncio.sleep(self.tick_seconds)

    async def _tick(self) -> None:
        """Renew our leases, take the free ones that fall to us, give back those
        that fall to another live process, and tell the others where we are."""
        hub = self.hub
        now = time.monotonic()
        self._live[self.process] = now
        dead = [p for p in self._remote if not self._alive(p)]
        for p in dead:  # a process we no longer hear of: its connections are gone
            codes = self._remote.pop(p)[1]
            for c in codes:
                if c in hub.tables:
                    hub.tables[c].presence_changed()
        live = sorted(p for p in self._live if self._alive(p))
        presence: dict[str, list[int]] = {}
        versions: dict[str, int] = {}
        chats: dict[str, int] = {}
        for code, table in hub.tables.items():
            counts = table.local_counts()
            if any(counts):
                presence[code] = counts
            if now - table.changed_at < RECENT:
                versions[code] = table.game.version
            if table.chat.heard_at and now - table.chat.heard_at < RECENT:
                chats[code] = table.chat.count
        if not self.connected:
            # no news from the others while Redis is away: the tables people
            # watch here are brought up to date from storage instead
            for table in list(hub.tables.values()):
                if table.clients and not table.game.is_over:
                    with contextlib.suppress(Exception):
                        await table.catch_up()
            await self.redis.ping()  # (raises while Redis is away)
            return
        # (in the outbox, behind the actions it counts)
        self._post("tick", presence=presence, versions=versions, chats=chats)
        playing = [code for code, t in hub.tables.items() if not t.game.is_over]
        renew = self.redis.register_script(_RENEW)
        release = self.redis.register_script(_RELEASE)
        gained: list[str] = []
        lost: list[str] = []
        async with self.redis.pipeline(transaction=False) as pipe:
            order: list[tuple[str, str]] = []
            for code in playing:
                best = max(live, key=lambda p: _rank(code, p))
                if code in self.owned:
                    if best != self.process:  # it falls to another live process
                        order.append(("release", code))
                        await release(keys=[self._lease(code)], args=[self.process],
                                      client=pipe)
                    else:
                        order.append(("renew", code))
                        await renew(keys=[self._lease(code)],
                                    args=[self.process, self.lease_ms], client=pipe)
                elif best == self.process or self._free_since.get(code, 0) >= 2:
                    order.append(("take", code))
                    pipe.set(self._lease(code), self.process, nx=True, px=self.lease_ms)
                else:
                    order.append(("look", code))
                    pipe.exists(self._lease(code))
            results = await pipe.execute() if order else []
        for (what, code), result in zip(order, results, strict=True):
            if what == "release" or (what == "renew" and not result):
                self.owned.discard(code)
                lost.append(code)
            elif what == "take":
                if result:
                    self.owned.add(code)
                    self._free_since.pop(code, None)
                    gained.append(code)
                else:
                    self._free_since[code] = 0
            elif what == "look":
                self._free_since[code] = 0 if result else self._free_since.get(code, 0) + 1
        # a finished game's lease is given back before it leaves owned, so that
        # owned never lacks a table whose lease this process still holds
        for code in set(self.owned) - set(playing):
            with contextlib.suppress(Exception):
                await release(keys=[self._lease(code)], args=[self.process])
            self.owned.discard(code)
        for code in gained + lost:
            held = hub.tables.get(code)
            if held is not None:
                if code in gained:
                    await held.catch_up()  # its last owner may have acted just now
                held.schedule_moves()

    def status(self) -> dict[str, Any]:
        return {"process": self.process, "fanout": "redis", "connected": self.connected,
                "tables": len(self.hub.tables), "owned": len(self.owned),
                "processes": sorted(p for p in self._live if self._alive(p))}
