"""A deadline for a request's headers (docs/server.md, ``--header-seconds``).

uvicorn times out a keep-alive connection that sends nothing, but not one
that sends its headers a byte at a time: a few hundred such connections
from one client would hold every open file of the process. This is
uvicorn's h11 protocol (``serve`` gives it as ``http=``) with one thing
more: from the moment a connection waits for a request — when it opens, and
after each response — its request's headers must be in within
``header_seconds`` (the server's cap, read from the environment as every
worker reads its caps), or the connection is closed. A request's body has
its own deadline (:class:`~.guard.BodyGuard`); a WebSocket, once upgraded,
is no longer an HTTP request and has none.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .caps import Limits

__all__ = ["HeaderDeadline"]


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol, which closes a connection whose request's
    headers are not in within :attr:`header_seconds` of its waiting for one."""

    #: the seconds a request's headers may take (None: the server's cap)
    header_seconds: float | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.header_seconds is None:
            type(self).header_seconds = Limits.from_environment().header_seconds
        self._headers_due: asyncio.TimerHandle | None = None

    def _await_headers(self) -> None:
        self._stop_waiting()
        seconds = self.header_seconds or Limits.header_seconds
        self._headers_due = self.loop.call_later(seconds, self._headers_late)

    def _stop_waiting(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _headers_late(self) -> None:
        self._headers_due = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        scope = self.scope
        super().handle_events()
        if self.scope is not scope:  # a request's headers are in (a WebSocket's too)
            self._stop_waiting()

    def on_response_complete(self) -> None:
        if not self.transport.is_closing():
            self._await_headers()  # (first: a pipelined request, handled next, stops it)
        super().on_response_complete()
