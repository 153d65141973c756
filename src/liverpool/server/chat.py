"""A table's chat in a server process: the last :data:`MEMORY` lines (the
database has them all, up to a cap per table: ``Limits.chat_lines_per_table``)
and their JSON text, made once per change (every snapshot carries it).

A line is what a person typed (cleaned: :func:`.inbound.clean_chat`) or one
of the quick reactions (:data:`.inbound.REACTIONS`), with the seat that said
it (None: a spectator) and the number of the game's events so far (where the
replay shows it). The server never writes a line itself: nothing of a hand
is ever in the chat. Who may chat is the table's ``chat`` setting
(:data:`CHAT_MODES`).
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Iterable

from .messages import dumps
from .store import ChatLine

__all__ = ["CHAT_MODES", "MEMORY", "TableChat"]

#: who may chat at a table: its players and spectators (a spectator's line is
#: marked as one), its players only (spectators read), or nobody
CHAT_MODES = ("all", "players", "off")
#: chat lines a table holds in memory (and sends in every snapshot)
MEMORY = 100


class TableChat:
    """The chat of one table in this process: its last lines in order of
    their ``id``, and how many the database holds."""

    def __init__(self, lines: Iterable[ChatLine] = (), count: int = 0) -> None:
        self.lines: list[ChatLine] = sorted(lines, key=lambda line: int(line["id"]))[-MEMORY:]
        self.ids = [int(line["id"]) for line in self.lines]
        #: lines stored for the table (those said in other processes included)
        self.count = max(count, len(self.lines))
        #: when a line was last added here (monotonic; 0: none since it was read)
        self.heard_at = 0.0
        self._text: str | None = None

    @property
    def last_id(self) -> int:
        """The id of the newest line (0: none)."""
        return self.ids[-1] if self.ids else 0

    def add(self, line: ChatLine) -> bool:
        """Keep ``line`` in its place (False: it is here already)."""
        key = int(line["id"])
        at = bisect.bisect_left(self.ids, key)
        if at < len(self.ids) and self.ids[at] == key:
            return False
        if at == 0 and len(self.lines) >= MEMORY:
            return False  # older than every line held: counted when they were read
        self.ids.insert(at, key)
        self.lines.insert(at, line)
        self.count += 1
        if len(self.lines) > MEMORY:
            del self.lines[0], self.ids[0]
        self.heard_at = time.monotonic()
        self._text = None
        return True

    def complete(self) -> bool:
        """Whether every stored line is held here."""
        return self.count <= len(self.lines)

    def text(self) -> str:
        """The lines held as a JSON list (what a snapshot carries)."""
        if self._text is None:
            self._text = dumps(self.lines)
        return self._text
