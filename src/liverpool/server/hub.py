"""Every table of a server process: made, loaded from storage, joined, played
again; and the seat tokens that say who sits where."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..actions import ActionError, action_from_json
from ..engine import Game
from ..errors import GameError
from ..rules import Rules
from ..ruleset_io import rules_from_dict
from .chat import MEMORY, TableChat
from .fanout import Fanout, LocalFanout
from .limits import Limiter, Limits
from .metrics import Metrics
from .processes import WorkerPool
from .replays import Replays
from .seats import TableSettings
from .store import AsyncStore, ConflictError, SeatRecord, Store, StoreError, TableRecord
from .table import Table

__all__ = ["CODE_ALPHABET", "DEAL_SEED_BITS", "Hub", "HubFull", "deal_game", "new_code",
           "new_deal_key", "new_deal_seed", "token_hash"]

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


class HubFull(RuntimeError):
    """Every table held in memory is in use: no other one can be made or loaded now."""


class Hub:
    """Every table of the server process, and the storage behind them.

    Its tables, and the fan-out, are touched on the event loop only: storage
    is called in the storage's own threads (:class:`AsyncStore`), replays in
    threads of their own, and the bots that search think in worker processes
    of their own (:class:`.processes.WorkerPool`). A table is loaded when it is
    asked for and evicted when nobody has used it for ``limits.idle_seconds``
    (or when room is needed for another: the one used longest ago)."""

    def __init__(self, store: Store, *, bot_delay: float | None = None,
                 fanout: Fanout | None = None,
                 limits: Limits | None = None, metrics: Metrics | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()
        #: the store as the event loop calls it (in threads of its own)
        self.storage = AsyncStore(store, timeout=self.limits.storage_seconds,
                                  failed=self._storage_failed)
        #: a worker process of their own: the bots that search, every table's in turn
        #: (made with the first move; one, as the two threads before it had one
        #: core between them under the interpreter's lock)
        self.bots = WorkerPool(1)
        #: threads of their own: replays of tables
        self.work = ThreadPoolExecutor(max_workers=2, thread_name_prefix="liverpool-work")
        #: replays and records, made once per table, version and language
        self.replays = Replays(self.work, self.limits.replay_cache, store.chat,
                               max_bytes=self.limits.replay_cache_bytes)
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._totals: dict[str, list[int]] = {}  # finished tables not in memory → totals
        #: the totals being worked out now (those asking meanwhile wait for them)
        self._totals_making: dict[str, asyncio.Task[list[int]]] = {}
        #: the other processes at the same tables (Redis), or none
        self.fanout = fanout or LocalFanout()
        self.fanout.attach(self)
        #: the rates per address (shared by the processes that share Redis)
        self.limiter = Limiter(self.limits, shared=self.fanout.limits_url,
                               failed=self.metrics.shared_limits_failures.inc)
        self.bot_delay = bot_delay  # overrides every table's (benchmarks: 0)
        self.clock: Callable[[], float] = time.time
        self._sweeper: asyncio.Task[None] | None = None
        #: tables evicted since the last full collection, and when that was
        self._evicted = 0
        self._collected_at = time.monotonic()
        self.metrics.watch(lambda: len(self.tables),
                           lambda: sum(self.limiter.connections.values()))

    def _storage_failed(self, kind: str) -> None:
        self.metrics.storage_errors.labels(kind=kind).inc()

    def load(self) -> int:
        """Replay every unfinished table from storage; returns how many."""
        count = 0
        for record in self.store.tables(status="playing", limit=self.limits.live_tables):
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
        return self._table(record, self._replay_game(record), self._read_chat(record.code))

    def _read_chat(self, code: str) -> TableChat:
        """The table's chat as stored: its last lines, and how many there are."""
        return TableChat(*self.store.chat_tail(code, MEMORY))

    def _replay_game(self, record: TableRecord,
                     rows: list[tuple[int, int, dict[str, Any]]] | None = None) -> Game:
        """The table's game from its actions (``rows``; default: read them now)."""
        rules = rules_from_dict(record.rules)
        game = deal_game(rules, record)
        if rows is None:
            rows = self.store.actions(record.code)
        for _seq, seat, data in rows:
            game.apply(action_from_json(data), seat=seat)
        return game

    def _table(self, record: TableRecord, game: Game, chat: TableChat | None = None) -> Table:
        if self.bot_delay is not None:
            record.settings = dict(record.settings, bot_delay=self.bot_delay)
        return Table(record, game, storage=self.storage, fanout=self.fanout,
                     metrics=self.metrics, bots=self.bots,
                     presence_delay=self.presence_delay, chat=chat)

    #: seconds the news of connections coming and going is gathered before it
    #: is sent (300 arrivals: one ``table`` message per connection, not 300)
    presence_delay = 0.25

    async def load_table(self, code: str) -> Table | None:
        """A table another process made or changed: read it from storage and
        start it here, if it is being played."""
        return await self.get(code, playing_only=True)

    async def get(self, code: str, *, playing_only: bool = False) -> Table | None:
        """The table of ``code``: in memory, or read from storage and replayed
        (in threads: the event loop goes on meanwhile; two asking at once wait
        for the same). None: there is none. Raises StoreError, HubFull."""
        table = self.tables.get(code)
        if table is not None:
            table.used()
            return table
        pending = self._loading.get(code)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._loading[code] = pending
            try:
                loaded = await self._load(code, playing_only)
            except BaseException as e:
                pending.set_exception(e)
                pending.exception()  # (those waiting get it; nobody else must)
                raise
            else:
                pending.set_result(loaded)
            finally:
                del self._loading[code]
            return loaded
        loaded = await asyncio.shield(pending)
        if loaded is None and not playing_only:
            return await self.get(code)  # (the first asked only for a table being played)
        return loaded

    async def _load(self, code: str, playing_only: bool) -> Table | None:
        record = await self.storage.table(code)
        if record is None or (playing_only and record.status != "playing"):
            return None
        rows = await self.storage.in_thread(self.store.actions, code)
        chat = await self.storage.in_thread(self._read_chat, code)
        loop = asyncio.get_running_loop()
        try:
            game = await loop.run_in_executor(self.work, self._replay_game, record, rows)
        except (ActionError, ValueError) as e:
            log.error("table %s does not replay: %s", code, e)
            return None
        if code in self.tables:  # (made here meanwhile)
            return self.tables[code]
        self._make_room()
        if record.status == "dropped":  # somebody came after all
            record.status = "playing"
            with contextlib.suppress(StoreError):
                await self.storage.in_thread(self.store.set_status, code, "playing",
                                             was="dropped")
            if code in self.tables:
                return self.tables[code]
        table = self._table(record, game, chat)
        self.tables[code] = table
        if not isinstance(self.fanout, LocalFanout):
            # (actions and chat lines another process wrote while it was read:
            # their news came before the table was here)
            table.catch_up_soon()
            table.catch_up_chat_soon()
        table.schedule_moves()
        return table

    async def totals(self, record: TableRecord) -> list[int]:
        """The final totals of a finished table (for the list of finished games):
        from the table in memory, or replayed from storage once (in a thread)
        and remembered (the last 2,000), without keeping the table."""
        table = self.tables.get(record.code)
        if table is not None:
            return list(table.game.results().totals)
        hit = self._totals.get(record.code)
        if hit is not None:
            return hit
        # worked out once however many ask meanwhile (each waits for the same
        # task; one that goes away does not stop it for the others)
        pending = self._totals_making.get(record.code)
        if pending is None:
            pending = self._totals_making[record.code] = asyncio.get_running_loop().create_task(
                self._work_out_totals(record))
        return list(await asyncio.shield(pending))

    async def _work_out_totals(self, record: TableRecord) -> list[int]:
        try:
            rows = await self.storage.in_thread(self.store.actions, record.code)
            try:
                game = await asyncio.get_running_loop().run_in_executor(
                    self.work, self._replay_game, record, rows)
                hit = list(game.results().totals)
            except (ActionError, ValueError) as e:
                log.error("table %s does not replay: %s", record.code, e)
                hit = []
        finally:
            del self._totals_making[record.code]
        self._totals[record.code] = hit
        while len(self._totals) > 2000:
            self._totals.pop(next(iter(self._totals)))
        return hit

    # ------------------------------------------------------------ eviction
    def _make_room(self) -> None:
        """Room for one more table: the one used longest ago that nobody is
        connected to is evicted if the process holds ``limits.live_tables``
        (HubFull: every one is in use)."""
        if len(self.tables) < self.limits.live_tables:
            return
        idle = [t for t in self.tables.values() if self._evictable(t)]
        if not idle:
            self.metrics.refused("live_tables")
            raise HubFull(f"{len(self.tables)} tables in use")
        self.evict(min(idle, key=lambda t: t.last_used), "room")

    def _evictable(self, table: Table) -> bool:
        return not table.clients and not table.lock.locked() and not table.moves.running

    def evict(self, table: Table, reason: str) -> None:
        """Take ``table`` out of memory (it stays in storage, and is loaded
        again when it is asked for)."""
        if self.tables.get(table.code) is not table:
            return
        del self.tables[table.code]
        table.close()
        self._evicted += 1
        self.metrics.evictions.labels(reason=reason).inc()
        log.info("table %s evicted (%s)", table.code, reason)

    async def sweep(self) -> None:
        """Evict the tables nobody used for ``limits.idle_seconds`` (finished
        ones after ``limits.finished_seconds``), and drop
        those no player ever came to after ``limits.unclaimed_seconds`` (they
        are not resumed at a restart: their status is "dropped")."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if not self._evictable(table):
                continue
            if (not table.humans_seen
                    and now - table.started >= self.limits.unclaimed_seconds):
                try:
                    await self.storage.in_thread(self.store.set_status, table.code,
                                                 "dropped", was="playing")
                except StoreError as e:
                    log.warning("table %s not dropped: %s", table.code, e)
                    continue
                if self._evictable(table):
                    self.evict(table, "unclaimed")
            elif now - table.last_used >= self.limits.idle_seconds:
                self.evict(table, "idle")
            elif table.game.is_over and now - table.last_used >= self.limits.finished_seconds:
                self.evict(table, "finished")
        self.collect_evicted(now)

    def collect_evicted(self, now: float) -> None:
        """Free the tables evicted in the last minute: a table's objects refer
        to each other (the table, its moves, its clients), so they go only in
        a full collection of the garbage, which ``liverpool serve`` otherwise
        makes seldom (a full collection stalls every table: see
        ``app_from_environment``): once a minute after evictions, so that
        the server's memory stays level (benchmarks/bench_abuse.py's soak)."""
        if self._evicted and now - self._collected_at >= 60.0:
            started = time.perf_counter()
            gc.collect()
            log.debug("collected %d evicted tables in %.1f ms", self._evicted,
                      1000 * (time.perf_counter() - started))
            self._evicted = 0
            self._collected_at = now

    def start(self) -> None:
        """Start sweeping (in the server's event loop)."""
        async def forever() -> None:
            every = max(0.05, min(10.0, self.limits.idle_seconds / 4,
                                  self.limits.unclaimed_seconds / 4,
                                  self.limits.finished_seconds / 4))
            while True:
                await asyncio.sleep(every)
                try:
                    await self.sweep()
                except Exception:
                    log.exception("sweeping the tables failed")

        self._sweeper = asyncio.get_running_loop().create_task(forever())

    # ------------------------------------------------------------ new tables
    def _new_seats(self, seats: list[dict[str, Any]], creator: str | None
                   ) -> tuple[list[SeatRecord], str]:
        token = secrets.token_urlsafe(24)
        records = []
        for i, s in enumerate(seats):
            if s.get("kind") == "bot":
                level = s.get("level") or "medium"
                records.append(SeatRecord(i, "bot", level, None))
            else:
                records.append(SeatRecord(i, "human", None, None))
        records[0] = SeatRecord(0, "human", None, creator, token_hash(token))
        return records, token

    def create(self, rules: Rules, preset: str, seats: list[dict[str, Any]],
               settings: TableSettings, creator: str | None) -> tuple[Table, str]:
        """A new table, written to storage at once (in the event loop: for
        tests and scripts; the server uses :meth:`create_table`); the creator
        takes seat 0; it waits for its creator to start it if
        ``settings.waiting``. Returns the table and the creator's token (call
        :meth:`Table.schedule_moves` in the event loop to start it)."""
        players = len(seats)
        Game(rules, players=players, seed=0)  # raises RulesError for a bad player count
        records, token = self._new_seats(seats, creator)
        record = self._create_record(rules.to_dict(), preset, players, settings.to_json(),
                                     records)
        return self._add_new(record, rules), token

    async def create_table(self, rules: Rules, preset: str, seats: list[dict[str, Any]],
                           settings: TableSettings, creator: str | None
                           ) -> tuple[Table, str]:
        """A new table (its record written in the storage's threads); the
        creator takes seat 0 and its moves are scheduled (none while it waits
        for its creator to start it: ``settings.waiting``). Returns the table and
        the creator's token. Raises RulesError, StoreError, HubFull."""
        players = len(seats)
        Game(rules, players=players, seed=0)  # raises RulesError for a bad player count
        self._make_room()
        records, token = self._new_seats(seats, creator)
        record = await self.storage.in_thread(self._create_record, rules.to_dict(), preset,
                                              players, settings.to_json(), records)
        table = self._add_new(record, rules)
        table.schedule_moves()
        return table, token

    def _add_new(self, record: TableRecord, rules: Rules) -> Table:
        game = deal_game(rules, record)
        table = self._table(record, game)
        self.tables[record.code] = table
        self.fanout.changed(record.code, new=True)
        return table

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
                existing = await self.get(table.record.next_code)
                if existing is not None:
                    return existing
            self._make_room()
            record = table.record
            seats = [SeatRecord(s.record.seat, s.record.kind, s.record.level, s.record.name,
                                s.record.token_hash, s.record.auto_pass) for s in table.seats]
            new = await self.storage.in_thread(self._create_record, record.rules,
                                               record.preset, record.players,
                                               dict(record.settings, waiting=False), seats)
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

    async def change_seat(self, table: Table, seat: int, kind: str,
                          level: str | None = None) -> None:
        """The creator gives free seat ``seat`` to a bot of ``level`` (``kind``
        "bot"), or a bot's seat back to a person who will take it (``kind``
        "human"): before the start, or after it (the seat's moves from then
        on are the bot's, or wait for the person). Raises GameError
        (``server_bad_seat``, ``server_seat_taken``, ``game_over``) or
        StoreError; nothing changed then."""
        if not 0 < seat < len(table.seats):
            raise GameError("server_bad_seat", number=seat + 1)
        if table.game.is_over:
            raise ActionError("game_over")
        s = table.seats[seat]
        if s.record.token_hash is not None:  # a person sits there (or left it for a while)
            raise GameError("server_seat_taken", seat=seat)
        if kind == "bot":
            record = SeatRecord(seat, "bot", level or "medium", None, None, False)
        else:
            record = SeatRecord(seat, "human", None, None, None, False)
        if record == s.record:
            return
        # (only while nobody has taken it: a person joining at once wins)
        if not await self.storage.in_thread(self.store.update_seat, table.code, record,
                                            claim=True):
            await table.reload()
            raise GameError("server_seat_taken", seat=seat)
        s.record = record
        self.fanout.changed(table.code)
        table.seat_changed(s)

    async def start_table(self, table: Table) -> None:
        """The creator starts the table waiting for it. Raises GameError
        (``server_started``) or StoreError."""
        if not table.settings.waiting:
            raise GameError("server_started")
        stored = await self.storage.in_thread(self.store.update_settings, table.code,
                                              {"waiting": False})
        if stored is None:
            raise StoreError(f"table {table.code} is not stored")
        if table.settings.waiting:  # (not started meanwhile)
            table.start_game()
        self.fanout.changed(table.code)

    async def set_auto_pass(self, table: Table, seat: int, value: bool) -> None:
        s = table.seats[seat]
        record = SeatRecord(s.record.seat, s.record.kind, s.record.level, s.record.name,
                            s.record.token_hash, value)
        await self.storage.in_thread(self.store.update_seat, table.code, record)
        s.record = record
        self.fanout.changed(table.code)
        table.schedule_moves()

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            table.close()
        self.bots.close()
        self.work.shutdown(wait=False, cancel_futures=True)
        self.storage.close()
