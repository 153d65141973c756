"""What a stranger can make the server spend, bounded: the caps of a server
process (docs/server.md, "Limits"), each with a default, a ``liverpool serve``
option and an environment variable; and the counters that hold them.

Rates per address (tables made, unknown invite codes tried, chat lines) are
counted by the ``limits`` library (moving windows): the same counters serve
HTTP and WebSocket, which a decorator per route could not. They are kept in
memory, and with Redis (``--redis``) in Redis too, so that the processes of
one server (``--workers N``) share them: an address gets its allowance once,
not once per process. Connections per address and the loop's work budget are
counted here, per process.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import time
from collections import Counter
from collections.abc import Callable, Sequence

from limits import (
    RateLimitItem,
    RateLimitItemPerHour,
    RateLimitItemPerMinute,
    RateLimitItemPerSecond,
)
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter as SharedWindows
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from .caps import ENV_PREFIX, Limits

__all__ = ["ENV_PREFIX", "Limiter", "Limits", "WorkBudget", "address_key"]

#: seconds a shared counter may take in Redis before this process's own decides
SHARED_SECONDS = 0.5

log = logging.getLogger("liverpool.server")


class WorkBudget:
    """A token bucket of bytes per second shared by every connection: one
    second's worth may be spent at once, then it refills."""

    def __init__(self, per_second: float) -> None:
        self.per_second = float(per_second)
        self.tokens = self.per_second
        self.at = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.per_second, self.tokens + (now - self.at) * self.per_second)
        self.at = now

    def available(self) -> bool:
        """Whether anything is left to spend now."""
        self._refill()
        return self.tokens > 0

    def spend(self, amount: int) -> None:
        """Spend ``amount`` (it may go below zero: later requests wait for it)."""
        self._refill()
        self.tokens -= amount


def address_key(address: str) -> str:
    """The key an address is counted under: an IPv4 address as it is, an IPv6
    address by its /64 network (one client is given a whole /64 and could
    take a new address for every request).

    >>> address_key("203.0.113.9"), address_key("2001:db8:1:2:3:4:5:6")
    ('203.0.113.9', '2001:db8:1:2::/64')
    >>> address_key("::ffff:203.0.113.9"), address_key("")
    ('203.0.113.9', '')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address


class Limiter:
    """The counters per address of one server process (touched on its event
    loop only). ``shared``: a Redis URL (``redis://`` or ``rediss://``) where
    the rates per address are also counted, shared by every process of the
    server; while Redis does not answer (within SHARED_SECONDS), this
    process's own counters decide."""

    def __init__(self, limits: Limits, shared: str | None = None,
                 failed: Callable[[], None] | None = None) -> None:
        self.limits = limits
        #: told of each shared count that Redis did not take in time
        self.failed = failed
        self._windows = MovingWindowRateLimiter(MemoryStorage())
        self._shared: SharedWindows | None = None
        if shared and shared.startswith(("redis://", "rediss://")):
            self._shared = SharedWindows(RedisStorage(
                "async+" + shared, implementation="redispy", key_prefix="liverpool-limits",
                socket_timeout=SHARED_SECONDS, socket_connect_timeout=SHARED_SECONDS))
        #: shared counts that did not answer in time (this process's own decided)
        self.shared_failures = 0
        self._tables = (RateLimitItemPerMinute(limits.tables_per_minute),
                        RateLimitItemPerHour(limits.tables_per_hour))
        self._probes = RateLimitItemPerMinute(limits.probes_per_minute)
        self._pad_writes = RateLimitItemPerMinute(limits.pad_writes_per_minute)
        self._chat_connection = (RateLimitItemPerSecond(limits.chat_burst, 10),
                                 RateLimitItemPerMinute(limits.chat_per_minute))
        self._chat_address = RateLimitItemPerMinute(limits.chat_per_address)
        self.connections: Counter[str] = Counter()
        self._paces: dict[str, tuple[float, float]] = {}  # address → (tokens, when)
        self._accepts = (float(limits.connections_per_second), time.monotonic())
        self.budget = WorkBudget(limits.snapshot_bytes_per_second)

    async def _room(self, windows: Sequence[tuple[RateLimitItem, str, str]]) -> bool:
        """Whether every window has room for one more (shared when it can be)."""
        local = all(self._windows.test(item, kind, key) for item, kind, key in windows)
        if self._shared is not None:
            shared = self._shared
            try:
                async with asyncio.timeout(SHARED_SECONDS):
                    return all([await shared.test(item, kind, key)
                                for item, kind, key in windows])
            except Exception as e:  # noqa: BLE001 - Redis away: this process decides
                self._shared_failed(e)
        return local

    async def _count(self, windows: Sequence[tuple[RateLimitItem, str, str]]) -> None:
        """One more in every window, here and shared."""
        for item, kind, key in windows:
            self._windows.hit(item, kind, key)
        if self._shared is not None:
            shared = self._shared
            try:
                async with asyncio.timeout(SHARED_SECONDS):
                    for item, kind, key in windows:
                        await shared.hit(item, kind, key)
            except Exception as e:  # noqa: BLE001 - Redis away: counted here only
                self._shared_failed(e)

    def _shared_failed(self, error: BaseException) -> None:
        self.shared_failures += 1
        if self.failed is not None:
            self.failed()
        if self.shared_failures == 1 or self.shared_failures % 1000 == 0:
            log.warning("the shared limits in Redis did not answer (%d times): %s",
                        self.shared_failures, type(error).__name__)

    async def may_create(self, address: str, kind: str = "tables") -> bool:
        """Whether ``address`` may make one more table now (and count it if so);
        ``kind="pads"``: one more score pad, counted apart with the same caps."""
        address = address_key(address)
        windows = [(item, kind, address) for item in self._tables]
        if not await self._room(windows):
            return False
        await self._count(windows)
        return True

    async def may_write_pad(self, address: str) -> bool:
        """Whether ``address`` may enter one more round on a score pad now
        (and count it if so)."""
        address = address_key(address)
        windows = [(self._pad_writes, "pad-writes", address)]
        if not await self._room(windows):
            return False
        await self._count(windows)
        return True

    async def may_probe(self, address: str) -> bool:
        """Whether ``address`` may look up a code now (a code that was not found
        counts: :meth:`missed`)."""
        address = address_key(address)
        return await self._room([(self._probes, "probes", address)])

    async def missed(self, address: str) -> None:
        """``address`` asked for a table that is not there."""
        address = address_key(address)
        await self._count([(self._probes, "probes", address)])

    async def may_chat(self, address: str, connection: str) -> int:
        """Seconds before ``connection`` (of ``address``) may say another chat
        line; 0: it may now, and the line is counted. (A connection's own
        rate is this process's; its address's is shared.)"""
        address = address_key(address)
        windows = [(item, "chat", connection) for item in self._chat_connection]
        full = [(item, kind, key) for item, kind, key in windows
                if not self._windows.test(item, kind, key)]
        address_window = (self._chat_address, "chat-address", address)
        if not await self._room([address_window]):
            full.append(address_window)
        if full:
            waits = [self._windows.get_window_stats(item, kind, key).reset_time - time.time()
                     for item, kind, key in full]
            return max(1, math.ceil(max(waits)))
        for item, kind, key in windows:
            self._windows.hit(item, kind, key)
        await self._count([address_window])
        return 0

    def connect(self, address: str) -> bool:
        """One more connection from ``address``, if it has room (then True)."""
        address = address_key(address)
        if self.connections[address] >= self.limits.connections_per_address:
            return False
        self.connections[address] += 1
        return True

    def disconnect(self, address: str) -> None:
        address = address_key(address)
        self.connections[address] -= 1
        if self.connections[address] <= 0:
            del self.connections[address]
            self._paces.pop(address, None)

    def pace_connection(self) -> float:
        """Seconds a new connection waits before it is taken (0: at once)."""
        rate = float(self.limits.connections_per_second)
        now = time.monotonic()
        tokens, at = self._accepts
        tokens = min(rate, tokens + (now - at) * rate) - 1
        self._accepts = (tokens, now)
        return 0.0 if tokens >= 0 else -tokens / rate

    def pace(self, address: str) -> float:
        """Seconds to wait before reading the next message of ``address``'s
        connections (0: at once): a burst of three seconds' worth of
        ``messages_per_address``, then that many a second, the waits queued."""
        address = address_key(address)
        rate = float(self.limits.messages_per_address)
        now = time.monotonic()
        tokens, at = self._paces.get(address, (3 * rate, now))
        tokens = min(3 * rate, tokens + (now - at) * rate) - 1
        self._paces[address] = (tokens, now)
        return 0.0 if tokens >= 0 else -tokens / rate
