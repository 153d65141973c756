"""What a table sends its connections: the client of each connection (its
seat, language and send queue), and the JSON text of each seat's view made
once per version."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from ..views import SeatViews

__all__ = ["DATA_MESSAGE_BYTES", "Client", "ViewTexts", "dumps", "message_size"]

_SEPARATORS = (",", ":")


def dumps(data: Any) -> str:
    """``data`` as compact JSON text (what goes on the wire)."""
    return json.dumps(data, separators=_SEPARATORS, ensure_ascii=False)


#: what a message given as data (an ``error``, a ``ping``: short ones) counts
#: in a send queue's bytes; text counts its length
DATA_MESSAGE_BYTES = 256


def message_size(message: dict[str, Any] | str) -> int:
    """What ``message`` counts in a connection's queued bytes."""
    return len(message) if isinstance(message, str) else DATA_MESSAGE_BYTES


class ViewTexts:
    """The JSON text of a table's views, made once per seat and version. A view
    in a message carries no events (``"events": []``): the message has them
    beside it, each once."""

    def __init__(self, views: SeatViews) -> None:
        self.views = views
        self.texts: dict[int | None, tuple[int, str]] = {}  # seat → (version, view text)

    def view_text(self, seat: int | None) -> str:
        """The view of ``seat`` now as JSON text (``SeatView.to_json(events=False)``)."""
        version = self.views.game.version
        hit = self.texts.get(seat)
        if hit is not None and hit[0] == version:
            return hit[1]
        text = dumps(self.views.view(seat).to_json(events=False))
        self.texts[seat] = (version, text)
        return text


class Client:
    """One connection to a table: its seat (None: a spectator), its language,
    and the queue of messages to send it (JSON data or text)."""

    def __init__(self, seat: int | None, lang: str, symbols: bool = False, *,
                 queue_size: int = 1000, queue_bytes: int | None = None,
                 overflow: Callable[[], None] | None = None) -> None:
        self.seat = seat
        self.lang = lang
        self.symbols = symbols
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(
            maxsize=queue_size)
        #: bytes the queue may hold (None: no bound), and the bytes it holds:
        #: those of its messages, and of the one being written until it is
        #: written (:meth:`written`)
        self.queue_bytes = queue_bytes
        self.queued_bytes = 0
        self.last_event = 0  # the next event sequence number this client has not been sent
        self.sent_version = -1  # the version of the last view it was sent
        self.table_rev = -1  # the table's presence_rev in the last table news it was sent
        #: called once when the queue overflows (the connection is then closed)
        self.overflow = overflow
        self.overflowed = False

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message``. A client that lets ``queue_size`` messages, or
        more than ``queue_bytes`` bytes, pile up gets no more: its queue is
        emptied and :attr:`overflow` called, which closes the connection (the
        client catches up when it reconnects). A message alone in the queue
        is always taken, however long."""
        if self.overflowed:
            return
        size = message_size(message)
        limit = self.queue_bytes
        if limit is not None and self.queued_bytes > 0 and self.queued_bytes + size > limit:
            self._overflowed()
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self._overflowed()
            return
        self.queued_bytes += size

    def written(self, message: dict[str, Any] | str) -> None:
        """``message``, taken from the queue, is written (or dropped)."""
        self.queued_bytes = max(0, self.queued_bytes - message_size(message))

    def _overflowed(self) -> None:
        self.overflowed = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait(None)
        if self.overflow is not None:
            self.overflow()

    def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)
