"""Every table of a server process: made, loaded from storage, joined, played
again; and the seat tokens that say who sits where."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from ..actions import ActionError, action_from_json
from ..engine import Game
from ..rules import Rules
from ..ruleset_io import rules_from_dict
from .fanout import Fanout, LocalFanout
from .seats import TableSettings
from .store import AsyncStore, ConflictError, SeatRecord, Store, StoreError, TableRecord
from .table import Table

__all__ = ["CODE_ALPHABET", "DEAL_SEED_BITS", "Hub", "deal_game", "new_code", "new_deal_key",
           "new_deal_seed", "token_hash"]

log = logging.getLogger("liverpool.server")

#: invite codes: no look-alike characters (no 0/O, 1/I/L)
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def new_code(length: int = 6) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: the random bits of a new table's seed (its bots' seeds are drawn from it);
#: storage holds a signed 64-bit integer
DEAL_SEED_BITS = 63


def new_deal_seed() -> int:
    """A new table's seed, from the operating system's CSPRNG. The deal does
    not come from it (see :func:`new_deal_key`): only the bots' own choices."""
    return secrets.randbits(DEAL_SEED_BITS)


def new_deal_key() -> str:
    """A new table's deal key: 32 bytes from the operating system's CSPRNG, as
    hex. The game's every shuffle is drawn from a stream keyed by it
    (``Game(..., key=)``), so no player can work the deal out from their own
    cards, as a short seed would allow; the key stays on the server."""
    return secrets.token_bytes(32).hex()


def deal_game(rules: Rules, record: TableRecord) -> Game:
    """A table's game as dealt at its start: from its deal key, or from its
    seed for a table made before fair deals."""
    if record.deal_key is not None:
        return Game(rules, players=record.players, key=bytes.fromhex(record.deal_key))
    return Game(rules, players=record.players, seed=record.seed)


class Hub:
    """Every table of the server, and the storage behind them."""

    def __init__(self, store: Store, *, bot_delay: float | None = None,
                 threaded_storage: bool | None = None, fanout: Fanout | None = None) -> None:
        self.store = store
        #: the store as the event loop calls it (``threaded_storage``: see AsyncStore)
        self.storage = AsyncStore(store, threaded=threaded_storage)
        self.tables: dict[str, Table] = {}
        self._totals: dict[str, list[int]] = {}  # finished tables not in memory → totals
        self._totals_lock = threading.Lock()
        #: the other processes at the same tables (Redis), or none
        self.fanout = fanout or LocalFanout()
        self.fanout.attach(self)
        self.bot_delay = bot_delay  # overrides every table's (benchmarks: 0)
        self.clock: Callable[[], float] = time.time

    def load(self) -> int:
        """Replay every unfinished table from storage; returns how many."""
        count = 0
        for record in self.store.tables(status="playing"):
            try:
                table = self._replay(record)
            except (ActionError, ValueError) as e:
                log.error("table %s does not replay: %s", record.code, e)
                continue
            self.tables[record.code] = table
            count += 1
            if table.game.is_over:  # its end was written but not its status
                record.status = "finished"
                with contextlib.suppress(StoreError):
                    self.store.finish_table(record.code)
        return count

    def _replay(self, record: TableRecord) -> Table:
        return self._table(record, self._replay_game(record))

    def _replay_game(self, record: TableRecord) -> Game:
        rules = rules_from_dict(record.rules)
        game = deal_game(rules, record)
        for _seq, seat, data in self.store.actions(record.code):
            game.apply(action_from_json(data), seat=seat)
        return game

    def _table(self, record: TableRecord, game: Game) -> Table:
        if self.bot_delay is not None:
            record.settings = dict(record.settings, bot_delay=self.bot_delay)
        return Table(record, game, storage=self.storage, fanout=self.fanout)

    async def load_table(self, code: str) -> Table | None:
        """A table another process made: read it from storage and start it here."""
        if code in self.tables:
            return self.tables[code]
        record = await self.storage.table(code)
        if record is None or record.status != "playing" or code in self.tables:
            return self.tables.get(code)
        table = await asyncio.to_thread(self._replay, record)
        if code not in self.tables:
            self.tables[code] = table
            table.catch_up_soon()  # (actions written while it was read)
        table = self.tables[code]
        table.schedule_moves()
        return table

    def totals(self, record: TableRecord) -> list[int]:
        """The final totals of a finished table (for the list of finished games):
        from the table in memory, or replayed from storage once and remembered
        (the last 2,000), without keeping the table."""
        table = self.tables.get(record.code)
        if table is not None:
            return list(table.game.results().totals)
        with self._totals_lock:
            hit = self._totals.get(record.code)
        if hit is None:
            try:
                hit = list(self._replay_game(record).results().totals)
            except (ActionError, ValueError) as e:
                log.error("table %s does not replay: %s", record.code, e)
                hit = []
            with self._totals_lock:
                self._totals[record.code] = hit
                while len(self._totals) > 2000:
                    self._totals.pop(next(iter(self._totals)))
        return hit

    def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is None:
            record = self.store.table(code)
            if record is None:
                return None
            table = self._replay(record)
            self.tables[code] = table
        return table

    def create(self, rules: Rules, preset: str, seats: list[dict[str, Any]],
               settings: TableSettings, creator: str | None) -> tuple[Table, str]:
        """A new table; the creator takes seat 0. Returns the table and the
        creator's token (call :meth:`Table.schedule_moves` in the event loop to
        start it)."""
        players = len(seats)
        Game(rules, players=players, seed=0)  # raises RulesError for a bad player count
        token = secrets.token_urlsafe(24)
        records = []
        for i, s in enumerate(seats):
            if s.get("kind") == "bot":
                level = s.get("level") or "medium"
                records.append(SeatRecord(i, "bot", level, None))
            else:
                records.append(SeatRecord(i, "human", None, None))
        records[0] = SeatRecord(0, "human", None, creator, token_hash(token))
        record = self._create_record(rules.to_dict(), preset, players, settings.to_json(),
                                     records)
        game = deal_game(rules, record)
        table = self._table(record, game)
        self.tables[record.code] = table
        self.fanout.changed(record.code, new=True)
        return table, token

    def _create_record(self, rules: dict[str, Any], preset: str, players: int,
                       settings: dict[str, Any], seats: list[SeatRecord]) -> TableRecord:
        """Write a new table under a fresh code (StoreError if the storage fails)."""
        for _ in range(20):
            record = TableRecord(code=new_code(), created=self.clock(), rules=rules,
                                 preset=preset, players=players, seed=new_deal_seed(),
                                 settings=dict(settings), status="playing", seats=seats,
                                 deal_key=new_deal_key())
            try:
                self.store.create_table(record)
            except ConflictError:
                continue  # the code is taken: another one
            return record
        raise StoreError("no free table code")  # pragma: no cover - 20 codes taken in a row

    async def join(self, table: Table, name: str) -> tuple[int, str]:
        """Give the first free human seat to ``name``; returns (seat, token).
        Raises LookupError (the table is full) or StoreError."""
        for seat in table.seats:
            if seat.is_bot or seat.record.token_hash is not None:
                continue
            token = secrets.token_urlsafe(24)
            record = SeatRecord(seat.record.seat, "human", None, name or None,
                                token_hash(token), seat.record.auto_pass)
            # the storage decides who gets a seat two people ask for at once
            if await self.storage.in_thread(self.store.update_seat, table.code, record,
                                            claim=True):
                seat.record = record
                self.fanout.changed(table.code)
                table.broadcast_table()
                table.schedule_moves()
                return seat.record.seat, token
        raise LookupError("the table is full")

    async def find_seat(self, table: Table, token: str | None) -> int | None:
        """The seat of ``token`` (None: none). A token this process does not know
        yet may be one another process just gave out: the table's record is read
        again from storage before the answer is no."""
        seat = self.seat_of(table, token)
        if (seat is None and token and not isinstance(self.fanout, LocalFanout)
                and any(s.record.token_hash is None and not s.is_bot for s in table.seats)):
            await table.reload()  # (only while a seat may have been taken elsewhere)
            seat = self.seat_of(table, token)
        return seat

    def seat_of(self, table: Table, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_hash(token)
        for seat in table.seats:
            theirs = seat.record.token_hash
            if theirs is not None and secrets.compare_digest(theirs, digest):
                return seat.record.seat
        return None

    async def again(self, table: Table) -> Table:
        """A new table with the same people (the same seat tokens), rules and
        settings; asked twice, the same one."""
        async with table.lock:
            if table.record.next_code:
                existing = self.get(table.record.next_code)
                if existing is not None:
                    return existing
            record = table.record
            seats = [SeatRecord(s.record.seat, s.record.kind, s.record.level, s.record.name,
                                s.record.token_hash, s.record.auto_pass) for s in table.seats]
            new = await self.storage.in_thread(self._create_record, record.rules,
                                               record.preset, record.players,
                                               record.settings, seats)
            if not await self.storage.in_thread(self.store.set_next, table.code, new.code):
                # another process made the next table first: that one it is
                await self.storage.in_thread(self.store.finish_table, new.code)
                await table.reload()
                existing = (await self.load_table(table.record.next_code)
                            if table.record.next_code else None)
                if existing is None:
                    raise StoreError("the next table is not there")
                return existing
            record.next_code = new.code
            game = deal_game(table.rules, new)
            fresh = self._table(new, game)
            self.tables[new.code] = fresh
        self.fanout.changed(new.code, new=True)
        self.fanout.changed(table.code)
        table.broadcast_table()
        fresh.schedule_moves()
        return fresh

    async def set_auto_pass(self, table: Table, seat: int, value: bool) -> None:
        s = table.seats[seat]
        record = SeatRecord(s.record.seat, s.record.kind, s.record.level, s.record.name,
                            s.record.token_hash, value)
        await self.storage.in_thread(self.store.update_seat, table.code, record)
        s.record = record
        self.fanout.changed(table.code)
        table.schedule_moves()

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
