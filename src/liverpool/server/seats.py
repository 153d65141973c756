"""A table's seats and settings: who sits where (a person or a bot), how many
connections each seat has here, and the table's timers."""

from __future__ import annotations

import functools
import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import segno

from .. import i18n
from ..bots import Bot, make_bot
from ..rules import Rules
from .store import SeatRecord

__all__ = ["BOT_LEVELS", "SeatState", "TableSettings", "invite_svg", "names_language",
           "people_names", "seat_bot", "seat_names", "short_seat_names"]

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
    #: the language the bots' first names come from, the creator's: a bot has
    #: the same name for everyone at the table, its level said in each one's
    #: own language ("Per (robot, lett)", "Per (bot, easy)"). None (tables made
    #: before it was kept): each one's own language's
    names_lang: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "window_seconds": self.window_seconds,
                "away_seconds": self.away_seconds, "bot_delay": self.bot_delay,
                "chat": self.chat, "hints": self.hints, "waiting": self.waiting,
                "names_lang": self.names_lang}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(turn_seconds=data.get("turn_seconds"),
                   window_seconds=float(data.get("window_seconds", 15.0)),
                   away_seconds=float(data.get("away_seconds", 60.0)),
                   bot_delay=float(data.get("bot_delay", 1.0)),
                   chat=str(data.get("chat", "players")),
                   hints=data.get("hints") is True,
                   waiting=bool(data.get("waiting", False)),
                   names_lang=names_language(data))


def names_language(settings: dict[str, Any]) -> str | None:
    """The language of the bots' first names in a table's stored ``settings``
    (:attr:`TableSettings.names_lang`; None: each viewer's own).

    >>> names_language({"names_lang": "nb"}), names_language({}), names_language({"names_lang": "xx"})
    ('nb', None, None)
    """
    lang = settings.get("names_lang")
    return lang if isinstance(lang, str) and lang in i18n.LANGUAGES else None


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


def people_names(seats: Sequence[SeatRecord]) -> list[str | None]:
    """The people's names at a table, no two alike (case aside): a second
    "Ada" is "Ada 2" (the seat that came later); None for a bot or a person
    without a name.

    >>> people_names([SeatRecord(0, "human", name="Ada"), SeatRecord(1, "bot", "easy"),
    ...               SeatRecord(2, "human", name="ada"), SeatRecord(3, "human")])
    ['Ada', None, 'ada 2', None]
    """
    out: list[str | None] = []
    taken: set[str] = set()
    for s in seats:
        name = s.name if s.kind == "human" and s.name else None
        if name is not None:
            n = 2
            while name.casefold() in taken:
                name = f"{s.name} {n}"
                n += 1
            taken.add(name.casefold())
        out.append(name)
    return out


def seat_names(seats: Sequence[SeatRecord], lang: str, names_lang: str | None = None
               ) -> list[str]:
    """Every seat's name at a table in ``lang``, no two alike (case aside): a
    person's own name (:func:`people_names`; "Seat 3" without one), a bot's
    first name and level ("Ada (bot, medium)") — another first name when a
    person or a bot before it at the table has the seat's own. The bots'
    first names are those of ``names_lang`` (the table's
    :attr:`TableSettings.names_lang`), else of ``lang``.

    >>> seats = [SeatRecord(0, "human", name="Ada"), SeatRecord(1, "bot", "medium"),
    ...          SeatRecord(2, "bot", "hard"), SeatRecord(3, "human")]
    >>> seat_names(seats, "en")
    ['Ada', 'Cleo (bot, medium)', 'Ben (bot, hard)', 'Seat 4']
    >>> seat_names(seats, "nb")[1], seat_names(seats, "en", names_lang="nb")[1]
    ('Ola (robot, middels)', 'Ola (bot, medium)')
    """
    names = short_seat_names(seats, lang, names_lang)
    return [i18n.bot_name(s.seat, s.level or "medium", lang, first=names[i])
            if s.kind == "bot" else names[i] for i, s in enumerate(seats)]


def short_seat_names(seats: Sequence[SeatRecord], lang: str, names_lang: str | None = None
                     ) -> list[str]:
    """:func:`seat_names` with a bot's first name alone ("Ben"): what a narrow
    panel shows beside a bot's mark and its level.

    >>> seats = [SeatRecord(0, "human", name="Ada"), SeatRecord(1, "bot", "medium")]
    >>> short_seat_names(seats, "en"), short_seat_names(seats, "da")
    (['Ada', 'Ben'], ['Ada', 'Søren'])
    """
    names = people_names(seats)
    for i, s in enumerate(seats):
        if s.kind != "bot" and names[i] is None:
            names[i] = i18n.default_name(s.seat, lang)
    taken = {n.casefold() for n in names if n is not None}
    firsts = i18n.bot_first_names(names_lang or lang)
    bots = [s for s in seats if s.kind == "bot"]
    own = {s.seat: firsts[(s.seat - 1) % len(firsts)] if s.seat > 0 else firsts[-1]
           for s in bots}
    # the bots whose own first name nobody has keep it; the others take the
    # next first name nobody has (after their own, round the list)
    renamed = []
    for s in bots:
        if own[s.seat].casefold() in taken:
            renamed.append(s)
        else:
            taken.add(own[s.seat].casefold())
    for s in renamed:
        k = firsts.index(own[s.seat])
        free = [f for f in firsts[k + 1:] + firsts[:k] if f.casefold() not in taken]
        first = free[0] if free else f"{own[s.seat]} {s.seat + 1}"
        taken.add(first.casefold())
        own[s.seat] = first
    for i, s in enumerate(seats):
        if s.kind == "bot":
            names[i] = own[s.seat]
    return [n or "" for n in names]


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
