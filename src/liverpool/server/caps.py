"""The caps of a server process (docs/server.md, "Limits"): each with a
default, a ``liverpool serve`` option and an environment variable, and the
option's ``--help`` line in its field's metadata (``help``: a msgid, said in
the user's language).

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

from ..i18n import N_

__all__ = ["ENV_PREFIX", "Limits"]

#: each cap's environment variable: LIVERPOOL_ and the field's name in capitals
ENV_PREFIX = "LIVERPOOL_"


def _cap(default: float, line: str) -> Any:
    """A cap's field: its default and its ``--help`` line (``line``, a msgid
    marked with :func:`~liverpool.i18n.N_`: what it bounds and what happens
    past it), which ``liverpool serve --help`` shows in the user's language."""
    return dataclasses.field(default=default, metadata={"help": line})


@dataclass(frozen=True)
class Limits:
    """The caps of one server process (each ``--option`` of ``liverpool serve``
    is the field's name with dashes, each variable ``LIVERPOOL_`` + its name in
    capitals: ``live_tables`` is ``--live-tables`` and ``LIVERPOOL_LIVE_TABLES``)."""

    #: tables held in memory; past it the idlest is evicted, and with none idle
    #: a new or loaded table is refused (``server_busy``)
    live_tables: int = _cap(2000, N_("Tables held in memory; past it the one idle longest is "
            "evicted, and with none idle a new or loaded table is refused."))
    #: seconds a table with no connection here and no move stays in memory
    idle_seconds: float = _cap(600.0, N_("Seconds a table with no connection here and no move "
            "stays in memory before it is evicted."))
    #: seconds a finished table with no connection here stays in memory (its
    #: replay, record and review are read from storage): a busy server finishes
    #: tables all the time, and kept until idle they would pile up
    finished_seconds: float = _cap(60.0, N_("Seconds a finished table with no connection here "
            "stays in memory before it is evicted."))
    #: seconds a table that no player ever connected to (it plays no bots) is
    #: kept before it is dropped (not resumed at a restart)
    unclaimed_seconds: float = _cap(900.0, N_("Seconds a table no player ever connected to is "
            "kept; after that it is dropped."))
    #: tables made per address (POST /api/tables, and a new table of "play
    #: again"), per minute and per hour; and as many score pads (POST /api/pads)
    tables_per_minute: int = _cap(10, N_("Tables (and, counted apart, score pads) one address may "
            "make per minute; past it they are refused."))
    tables_per_hour: int = _cap(60, N_("Tables (and, counted apart, score pads) one address may "
            "make per hour; past it they are refused."))
    #: rounds entered on score pads (PUT /api/pads/{id}/rounds) per address
    #: per minute (each is a write to storage)
    pad_writes_per_minute: int = _cap(60, N_("Rounds one address may enter on score pads per "
            "minute; past it they are refused."))
    #: open WebSocket connections per address
    connections_per_address: int = _cap(32, N_("Open WebSocket connections per address; past it a "
            "new one is refused."))
    #: new WebSocket connections taken per second by the process (a burst of
    #: one second's worth): more arriving at once wait their turn, so that a
    #: storm of connections (or every page reconnecting after a restart) is
    #: spread out instead of stalling the tables
    connections_per_second: int = _cap(50, N_("New WebSocket connections the process takes per "
            "second; more wait their turn."))
    #: unknown invite codes tried per address per minute (HTTP and WebSocket)
    probes_per_minute: int = _cap(30, N_("Unknown invite codes one address may try per minute; "
            "past it its table requests wait for the minute to pass."))
    #: messages per second read from the WebSocket connections of one address
    #: together (a burst of three seconds' worth): beyond it the server reads
    #: that address's messages more slowly (each is still answered, later)
    messages_per_address: int = _cap(20, N_("Messages per second read from one address's WebSocket "
            "connections together; past it they are read more slowly."))
    #: spectators (connections without a seat) per table, in this process
    spectators_per_table: int = _cap(50, N_("Spectators (connections without a seat) per table; "
            "past it a new one is refused."))
    #: bytes of snapshots (``sync``, ``lang``) the process sends per second,
    #: over every connection: a ``sync`` beyond it is answered ``server_busy``
    snapshot_bytes_per_second: int = _cap(8 * 1024 * 1024, N_("Bytes of snapshots the process "
            "sends per second; past it a sync is answered server_busy."))
    #: bytes of one HTTP request's body (a table's options, a score pad's
    #: round): a longer one is refused unread (413 ``server_too_big``)
    body_bytes: int = _cap(64 * 1024, N_("Bytes of one HTTP request's body; a longer one is "
            "refused unread (413)."))
    #: seconds an HTTP request's headers may take to arrive, from the moment the
    #: connection waits for one (a client that sends them a byte at a time holds
    #: a connection): slower, the connection is closed
    header_seconds: float = _cap(10.0, N_("Seconds an HTTP request's headers may take to arrive; "
            "slower, the connection is closed."))
    #: seconds an HTTP request's body may take to arrive (a client that sends
    #: it a byte at a time holds a connection): slower is refused (408
    #: ``server_too_slow``)
    body_seconds: float = _cap(10.0, N_("Seconds an HTTP request's body may take to arrive; "
            "slower, it is refused (408)."))
    #: connections (HTTP and WebSocket) the process serves at once; past it a
    #: new one gets 503 (also kept below the process's open-file limit)
    connections: int = _cap(10000, N_("Connections (HTTP and WebSocket) the process serves at "
            "once; past it a new one gets 503."))
    #: lay-down arrangements one ``check`` tries
    check_arrangements: int = _cap(64, N_("Lay-down arrangements one check tries; past it the "
            "check stops looking."))
    #: messages waiting to be sent to one connection; a client that lets more
    #: pile up is closed (1013) and catches up when it reconnects
    send_queue: int = _cap(1000, N_("Messages waiting to be sent to one connection; past it the "
            "connection is closed (1013)."))
    #: bytes of the messages waiting to be sent to one connection (a message
    #: in the writing counts until it is written): a client that lets more
    #: pile up is closed (1013) as for ``send_queue``; one message alone is
    #: always sent, however long (a first snapshot of a long game)
    send_queue_bytes: int = _cap(8 * 1024 * 1024, N_("Bytes of the messages waiting to be sent to "
            "one connection; past it the connection is closed (1013)."))
    #: seconds a storage call may take before the player is told "try again"
    storage_seconds: float = _cap(5.0, N_("Seconds a storage call may take; past it the player is "
            "told to try again."))
    #: replays and records kept ready per process (per table and language)
    replay_cache: int = _cap(256, N_("Replays and records kept ready per process; past it the one "
            "used longest ago is let go."))
    #: bytes of the replays and records kept ready (their text and gzipped
    #: together); one larger than a quarter of it is made for its request and
    #: not kept
    replay_cache_bytes: int = _cap(256 * 1024 * 1024, N_("Bytes of the replays and records kept "
            "ready; past it the one used longest ago is let go."))
    #: chat lines one connection may say: a burst of ``chat_burst`` in ten
    #: seconds, and ``chat_per_minute`` a minute (beyond: ``server_chat_too_fast``)
    chat_burst: int = _cap(5, N_("Chat lines one connection may say in ten seconds; past it they "
            "are refused."))
    chat_per_minute: int = _cap(20, N_("Chat lines one connection may say per minute; past it they "
            "are refused."))
    #: chat lines per minute of every connection of one address together
    chat_per_address: int = _cap(40, N_("Chat lines per minute of all the connections of one "
            "address; past it they are refused."))
    #: chat lines kept in storage per table (beyond: ``server_chat_full``)
    chat_lines_per_table: int = _cap(2000, N_("Chat lines kept per table; past it new lines are "
            "refused."))
    #: the most moves of the seat a review searches (its cost grows with them):
    #: a longer game is refused (``server_review_too_long``); bot games of up to
    #: 8 players and 20 rounds have at most about 1600 (docs/server.md)
    review_decisions: int = _cap(2500, N_("Moves of one seat a review searches at most; a longer "
            "game is refused."))
    #: the processes one review's decisions are shared out among (no more than
    #: the machine's cores: more would gain no time)
    review_processes: int = _cap(2, N_("Processes one review's decisions are shared out among, "
            "no more than the machine's cores."))

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
