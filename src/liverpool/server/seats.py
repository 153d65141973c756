"""A table's seats and settings: who sits where (a person or a bot), how many
connections each seat has here, and the table's timers."""

from __future__ import annotations

import functools
import hashlib
import io
from dataclasses import dataclass
from typing import Any

import segno

from ..bots import Bot, make_bot
from ..rules import Rules
from .store import SeatRecord

__all__ = ["BOT_LEVELS", "SeatState", "TableSettings", "invite_svg", "seat_bot"]

#: the levels of the bots a table may seat
BOT_LEVELS = ("easy", "medium", "hard")


@dataclass
class TableSettings:
    """A table's own settings (besides its ruleset)."""

    #: seconds a human has for a decision, then the basic bot decides (None: no timer)
    turn_seconds: float | None = None
    #: seconds a human has to answer a buy or call window before it passes by itself
    window_seconds: float = 15.0
    #: seconds without a connection before a human seat is played by a bot
    away_seconds: float = 60.0
    #: seconds a bot waits before it acts (so people can follow the table: each
    #: move's card slides for about 0.4 s in the page, then the table is still)
    bot_delay: float = 1.0
    #: who may chat: "all" (spectators too, their lines marked), "players", "off"
    chat: str = "players"
    #: whether a player may ask for the search's suggestion at their decision
    hints: bool = False
    #: the table waits for its creator to start it (its waiting room): nothing
    #: is dealt to anybody and nothing moves until then
    waiting: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "window_seconds": self.window_seconds,
                "away_seconds": self.away_seconds, "bot_delay": self.bot_delay,
                "chat": self.chat, "hints": self.hints, "waiting": self.waiting}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(turn_seconds=data.get("turn_seconds"),
                   window_seconds=float(data.get("window_seconds", 15.0)),
                   away_seconds=float(data.get("away_seconds", 60.0)),
                   bot_delay=float(data.get("bot_delay", 1.0)),
                   chat=str(data.get("chat", "players")),
                   hints=data.get("hints") is True,
                   waiting=bool(data.get("waiting", False)))


@dataclass
class SeatState:
    """One seat of a table in this process: its stored record, its bot, its
    connections here."""

    record: SeatRecord
    bot: Bot | None = None  # the seat's bot (a bot seat), or the stand-in for an away player
    connections: int = 0
    left_at: float | None = None  # when the last connection closed (None: never came)

    @property
    def is_bot(self) -> bool:
        return self.record.kind == "bot"


def seat_bot(rules: Rules, table_seed: int, seat: int, level: str) -> Bot:
    """The bot of ``seat`` at a table. Its seed comes from the table's through a
    hash: what the bots do tells nothing of the deal's seed."""
    digest = hashlib.blake2b(f"{table_seed}/{seat}".encode(), digest_size=4,
                             person=b"liverpool-bot").digest()
    return make_bot(level, rules, seed=int.from_bytes(digest, "big") & 0x7FFFFFFF)


@functools.lru_cache(maxsize=256)
def invite_svg(link: str) -> bytes:
    """The QR code of an invite link as an SVG image (segno; the last ones kept).

    >>> invite_svg("http://localhost:8000/t/ABC234")[:4]
    b'<svg'
    """
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=6, border=2, xmldecl=False,
                                     dark="#1b1b1b", light="#ffffff")
    return out.getvalue()
