"""A table's replay (``/api/tables/{code}/replay``) and record
(``/record``) as JSON made once per table, version and language, in a worker
thread (the event loop only gathers what they show), the last ones kept: a
thousand asking for the same finished game cost one build. Both carry the
table's chat (``chat``: its lines, each with the number of events said
after, where the replay shows it). Each is kept as
its text and gzipped (for the clients that accept it: a tenth of the bytes
to send)."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from .. import i18n
from ..engine import Game
from ..events import Event
from ..record import hands_by_event
from .store import ChatLine
from .table import Table

__all__ = ["Made", "Replays", "made_size"]

#: (kind, code, version, the table's information as JSON text, the last chat
#: line, language, waiting): what a replay shows, so a change of presence
#: that leaves the table's information as it was costs no new build
_Key = tuple[str, str, int, str, int, str, bool]
#: the JSON text, and gzipped
Made = tuple[bytes, bytes]


def made_size(made: Made) -> int:
    """The bytes a replay or record holds (its text and gzipped)."""
    return len(made[0]) + len(made[1])


class Replays:
    """The replays and records of a server process (touched on its event
    loop; built in ``executor``): the last ones kept, at most ``size`` of them
    and ``max_bytes`` bytes together; one larger than a quarter of
    ``max_bytes`` is not kept (made again when asked again: those asking at
    the same time share one build)."""

    def __init__(self, executor: Executor | None, size: int = 256,
                 read_chat: Callable[[str], list[ChatLine]] | None = None,
                 max_bytes: int = 256 * 1024 * 1024) -> None:
        """``read_chat``: a table's whole chat from storage (called in ``executor``)."""
        self.executor = executor
        self.size = size
        self.max_bytes = max_bytes
        self.read_chat = read_chat
        self._made: OrderedDict[_Key, Made] = OrderedDict()
        self._making: dict[_Key, asyncio.Future[Made]] = {}
        self.builds = 0  # how many were made (the rest came from the cache)
        self.held_bytes = 0  # the bytes of those kept

    def largest_kept(self) -> int:
        """The bytes of the largest replay or record that is kept."""
        return self.max_bytes // 4

    async def replay(self, table: Table, lang: str) -> Made:
        """The public events so far (what a spectator saw) in ``lang``; after
        the end, the record too, and the hands at every step."""
        game = table.game
        over = game.is_over
        info = table.info()
        names = table.names(lang)
        # (a table in its waiting room shows nothing of the deal, as its snapshots)
        waiting = table.settings.waiting
        events = [] if waiting else game.events_for(None)
        return await self._get(("replay", table.code, game.version, _info_key(info),
                                table.chat.last_id, lang, waiting),
                               _replay_json, info, names, events, game if over else None, lang,
                               self._chat(table))

    async def record(self, table: Table) -> Made:
        """The table and its whole record (a finished game)."""
        game = table.game
        info = table.info()
        return await self._get(("record", table.code, game.version, _info_key(info),
                                table.chat.last_id, "", False),
                               _record_json, info, game, self._chat(table))

    def _chat(self, table: Table) -> Callable[[], list[ChatLine]]:
        """The table's whole chat: the lines held, or (more than are held) from storage."""
        held = list(table.chat.lines)
        if table.chat.complete() or self.read_chat is None:
            return lambda: held
        read, code = self.read_chat, table.code
        return lambda: read(code)

    async def _get(self, key: _Key, build: Any, *args: Any) -> Made:
        hit = self._made.get(key)
        if hit is not None:
            self._made.move_to_end(key)
            return hit
        pending = self._making.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        loop = asyncio.get_running_loop()
        pending = self._making[key] = loop.create_future()
        try:
            made: Made = await loop.run_in_executor(self.executor, build, *args)
        except BaseException as e:
            pending.set_exception(e)
            pending.exception()  # (those waiting get it; nobody else must)
            raise
        finally:
            del self._making[key]
        pending.set_result(made)
        self.builds += 1
        size = made_size(made)
        if size > self.largest_kept():
            return made  # (not kept: a few of these would fill the memory)
        self._made[key] = made
        self.held_bytes += size
        while len(self._made) > self.size or self.held_bytes > self.max_bytes:
            _, old = self._made.popitem(last=False)
            self.held_bytes -= made_size(old)
        return made


def _info_key(info: dict[str, Any]) -> str:
    """The table's information as it goes in the JSON (a part of the key)."""
    return json.dumps(info, separators=(",", ":"), sort_keys=True)


def _dumps(data: Any) -> Made:
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    return text, gzip.compress(text, compresslevel=6, mtime=0)


def _replay_json(info: dict[str, Any], names: list[str], events: list[Event],
                 finished: Game | None, lang: str, chat: Callable[[], list[ChatLine]]) -> Made:
    items: list[dict[str, Any]] = [
        {"event": e.to_json(), "text": i18n.render(e, lang, names, symbols=True, joker_word=True)}
        for e in events]
    out: dict[str, Any] = {"table": info, "events": items, "over": finished is not None,
                           "chat": chat()}
    if finished is not None:  # every hand may be shown now: with each step, the hands
        out["record"] = finished.record()
        for item, hands in zip(items, hands_by_event(finished), strict=True):
            item["hands"] = [[str(c) for c in h] for h in hands]
    return _dumps(out)


def _record_json(info: dict[str, Any], game: Game,
                 chat: Callable[[], list[ChatLine]]) -> Made:
    return _dumps({"table": info, "record": game.record(), "chat": chat()})
