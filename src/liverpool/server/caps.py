"""The caps of a server process (docs/server.md, "Limits"): each with a
default, a ``liverpool serve`` option and an environment variable.

Plain data with no third-party imports, so that the ``liverpool`` command
builds ``serve``'s options without the ``server`` extra installed (its
counters, which need the ``limits`` library, are in :mod:`.limits`).
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass
from typing import Any

__all__ = ["ENV_PREFIX", "Limits"]

#: each cap's environment variable: LIVERPOOL_ and the field's name in capitals
ENV_PREFIX = "LIVERPOOL_"

@dataclass(frozen=True)
class Limits:
    """The caps of one server process (each ``--option`` of ``liverpool serve``
    is the field's name with dashes, each variable ``LIVERPOOL_`` + its name in
    capitals: ``live_tables`` is ``--live-tables`` and ``LIVERPOOL_LIVE_TABLES``)."""

    #: tables held in memory; past it the idlest is evicted, and with none idle
    #: a new or loaded table is refused (``server_busy``)
    live_tables: int = 2000
    #: seconds a table with no connection here and no move stays in memory
    idle_seconds: float = 600.0
    #: seconds a finished table with no connection here stays in memory (its
    #: replay, record and review are read from storage): a busy server finishes
    #: tables all the time, and kept until idle they would pile up
    finished_seconds: float = 60.0
    #: seconds a table that no player ever connected to (it plays no bots) is
    #: kept before it is dropped (not resumed at a restart)
    unclaimed_seconds: float = 900.0
    #: tables made per address (POST /api/tables, and a new table of "play
    #: again"), per minute and per hour; and as many score pads (POST /api/pads)
    tables_per_minute: int = 10
    tables_per_hour: int = 60
    #: rounds entered on score pads (PUT /api/pads/{id}/rounds) per address
    #: per minute (each is a write to storage)
    pad_writes_per_minute: int = 60
    #: open WebSocket connections per address
    connections_per_address: int = 32
    #: new WebSocket connections taken per second by the process (a burst of
    #: one second's worth): more arriving at once wait their turn, so that a
    #: storm of connections (or every page reconnecting after a restart) is
    #: spread out instead of stalling the tables
    connections_per_second: int = 50
    #: unknown invite codes tried per address per minute (HTTP and WebSocket)
    probes_per_minute: int = 30
    #: messages per second read from the WebSocket connections of one address
    #: together (a burst of three seconds' worth): beyond it the server reads
    #: that address's messages more slowly (each is still answered, later)
    messages_per_address: int = 20
    #: spectators (connections without a seat) per table, in this process
    spectators_per_table: int = 50
    #: bytes of snapshots (``sync``, ``lang``) the process sends per second,
    #: over every connection: a ``sync`` beyond it is answered ``server_busy``
    snapshot_bytes_per_second: int = 8 * 1024 * 1024
    #: bytes of one HTTP request's body (a table's options, a score pad's
    #: round): a longer one is refused unread (413 ``server_too_big``)
    body_bytes: int = 64 * 1024
    #: seconds an HTTP request's headers may take to arrive, from the moment the
    #: connection waits for one (a client that sends them a byte at a time holds
    #: a connection): slower, the connection is closed
    header_seconds: float = 10.0
    #: seconds an HTTP request's body may take to arrive (a client that sends
    #: it a byte at a time holds a connection): slower is refused (408
    #: ``server_too_slow``)
    body_seconds: float = 10.0
    #: connections (HTTP and WebSocket) the process serves at once; past it a
    #: new one gets 503 (also kept below the process's open-file limit)
    connections: int = 10000
    #: lay-down arrangements one ``check`` tries
    check_arrangements: int = 64
    #: messages waiting to be sent to one connection; a client that lets more
    #: pile up is closed (1013) and catches up when it reconnects
    send_queue: int = 1000
    #: bytes of the messages waiting to be sent to one connection (a message
    #: in the writing counts until it is written): a client that lets more
    #: pile up is closed (1013) as for ``send_queue``; one message alone is
    #: always sent, however long (a first snapshot of a long game)
    send_queue_bytes: int = 8 * 1024 * 1024
    #: seconds a storage call may take before the player is told "try again"
    storage_seconds: float = 5.0
    #: replays and records kept ready per process (per table and language)
    replay_cache: int = 256
    #: bytes of the replays and records kept ready (their text and gzipped
    #: together); one larger than a quarter of it is made for its request and
    #: not kept
    replay_cache_bytes: int = 256 * 1024 * 1024
    #: chat lines one connection may say: a burst of ``chat_burst`` in ten
    #: seconds, and ``chat_per_minute`` a minute (beyond: ``server_chat_too_fast``)
    chat_burst: int = 5
    chat_per_minute: int = 20
    #: chat lines per minute of every connection of one address together
    chat_per_address: int = 40
    #: chat lines kept in storage per table (beyond: ``server_chat_full``)
    chat_lines_per_table: int = 2000
    #: the most moves of the seat a review searches (its cost grows with them):
    #: a longer game is refused (``server_review_too_long``); bot games of up to
    #: 8 players and 20 rounds have at most about 1600 (docs/server.md)
    review_decisions: int = 2500

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Limits:
        """The defaults, with every ``LIVERPOOL_<NAME>`` of the environment that
        holds a positive number (a bad value is ignored: the default holds)."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None:
                continue
            try:
                value = int(raw) if f.type == "int" else float(raw)
            except ValueError:
                continue
            if value > 0 and math.isfinite(value):
                values[f.name] = value
        return cls(**values)

    def to_environment(self) -> dict[str, str]:
        """Every cap as its environment variable (for the worker processes)."""
        return {ENV_PREFIX + f.name.upper(): str(getattr(self, f.name))
                for f in dataclasses.fields(self)}
