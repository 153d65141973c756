"""Storage of the game server: tables, their seats, the append-only action
log, and score pads — behind one small interface, on SQLAlchemy 2.

The action log has a unique key (table, sequence number) and a write goes in
only as the next number of its table: two writers can never both commit an
action against the same state. Every accepted action is written here before
any client hears of it; a restarted server replays the log.

The database is SQLite (the embedded default) or PostgreSQL
(``postgresql+psycopg://…``); its schema is brought up to date by the Alembic
migrations in ``liverpool/server/migrations`` when a store opens it (and by
``liverpool db upgrade``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

__all__ = ["AsyncStore", "ChatLine", "ConflictError", "PadRecord", "SeatRecord", "Store", "StoreError",
           "TableRecord", "upgrade"]

#: a line of a table's chat as stored and sent: ``id`` (its order), ``at``
#: (Unix time), ``events`` (the game's events so far: where a replay shows
#: it), ``seat`` (None: a spectator's), ``text`` or ``reaction``
ChatLine = dict[str, Any]

metadata = MetaData()

tables_t = Table(
    "tables", metadata,
    Column("code", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("rules", JSON, nullable=False),  # the ruleset as data (Rules.to_dict)
    Column("preset", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),  # 63 random bits (hub.new_deal_seed)
    Column("settings", JSON, nullable=False),  # turn timer, away time, buy window...
    Column("status", String(16), nullable=False),  # "playing", "finished", "dropped"
    Column("finished", Float),
    Column("next_code", String(16)),  # "play again": the table that followed
    # the secret key of the deal (hex; hub.new_deal_key); never sent to a client
    Column("deal_key", String(128)),
)

seats_t = Table(
    "seats", metadata,
    Column("code", String(16), ForeignKey("tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # "human", "bot"
    Column("level", String(16)),  # a bot's level (easy/medium/hard or a bot kind)
    Column("name", String(64)),
    Column("token_hash", String(64)),  # sha256 of the seat token; None: not taken yet
    Column("auto_pass", Boolean, nullable=False, default=False),
)

actions_t = Table(
    "actions", metadata,
    Column("code", String(16), ForeignKey("tables.code"), nullable=False),
    Column("seq", Integer, nullable=False),  # the game's version after this action
    Column("seat", Integer, nullable=False),
    Column("action", JSON, nullable=False),
    Column("at", Float, nullable=False),
    UniqueConstraint("code", "seq", name="one_action_per_version"),
)

chat_t = Table(
    "chat", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(16), ForeignKey("tables.code"), nullable=False),
    Column("at", Float, nullable=False),
    Column("events", Integer, nullable=False),
    Column("seat", Integer),
    Column("text", String(1000)),
    Column("reaction", String(16)),
)
Index("chat_by_table", chat_t.c.code, chat_t.c.id)

pads_t = Table(
    "pads", metadata,
    Column("id", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("data", JSON, nullable=False),
)

reviews_t = Table(
    "reviews", metadata,
    Column("code", String(16), ForeignKey("tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("made", Float, nullable=False),
    Column("data", JSON, nullable=False),  # the coach's review (docs/protocol.md, "Review")
)


#: the next action of a table, in one statement: written only if the last one is seq - 1
_APPEND_NEXT = (
    "INSERT INTO actions (code, seq, seat, action, at) SELECT ?, ?, ?, ?, ? "
    "WHERE (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE code = ?) = ?")


_APPEND_NEXT_PG = _APPEND_NEXT.replace("?", "%s").replace(
    "SELECT %s, %s, %s, %s, %s", "SELECT %s, %s, %s, %s::json, %s")


class StoreError(RuntimeError):
    """The storage could not be reached or refused a write: try again."""


class ConflictError(StoreError):
    """Another writer committed an action at this version first."""


@contextlib.contextmanager
def _guard() -> Iterator[None]:
    """Any database failure as a :class:`StoreError` (a conflict as a :class:`ConflictError`)."""
    try:
        yield
    except StoreError:
        raise
    except IntegrityError as e:
        raise ConflictError(str(e).splitlines()[0]) from e
    except SQLAlchemyError as e:
        raise StoreError(str(e).splitlines()[0]) from e


@dataclass
class SeatRecord:
    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    auto_pass: bool = False


@dataclass
class TableRecord:
    code: str
    created: float
    rules: dict[str, Any]
    preset: str
    players: int
    seed: int
    settings: dict[str, Any]
    status: str
    seats: list[SeatRecord] = field(default_factory=list)
    finished: float | None = None
    next_code: str | None = None
    #: the deal's secret key (hex), from which the game's chance is drawn; None:
    #: a table made before fair deals, dealt from ``seed``
    deal_key: str | None = None


@dataclass
class PadRecord:
    id: str
    created: float
    data: dict[str, Any]


class Store:
    """The server's storage on an SQLAlchemy URL (``sqlite:///path`` by default)."""

    def __init__(self, url: str, *, timeout: float = 5.0) -> None:
        """``timeout``: seconds a statement may take (SQLite's busy timeout,
        PostgreSQL's ``statement_timeout``) before it fails as a StoreError."""
        self.url = url
        self.timeout = timeout
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": timeout}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        else:  # a server (PostgreSQL): a connection it dropped is found before use
            kwargs["pool_pre_ping"] = True
            if url.startswith("postgresql"):
                kwargs["connect_args"] = {"options": self._pg_options()}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        upgrade(self.engine)
        #: an SQLite file: actions go in through one connection of their own, as a
        #: single statement (a tenth of the time of the general way)
        self._raw: Any = None
        self._raw_lock = threading.Lock()
        if url.startswith("sqlite") and "poolclass" not in kwargs:
            self._raw = self.engine.raw_connection()
        #: PostgreSQL through psycopg: actions go in the same way, as one statement
        #: on a connection kept for them (opened again after a failure)
        self._pg: Any = None
        self._pg_info: str | None = None
        if self.engine.dialect.name == "postgresql" and self.engine.dialect.driver == "psycopg":
            self._pg_info = self.engine.url.set(drivername="postgresql").render_as_string(
                hide_password=False)

    def _pg_options(self) -> str:
        return f"-c statement_timeout={max(1, int(self.timeout * 1000))}"

    def close(self) -> None:
        if self._raw is not None:
            with self._raw_lock:
                self._raw.close()
                self._raw = None
        with self._raw_lock:
            if self._pg is not None:
                with contextlib.suppress(Exception):
                    self._pg.close()
                self._pg = None
            self._pg_info = None
        self.engine.dispose()

    # ---------------------------------------------------------------- tables
    def create_table(self, record: TableRecord) -> None:
        """Write a new table and its seats (ConflictError: the code is taken)."""
        with _guard(), self.engine.begin() as conn:
            conn.execute(insert(tables_t).values(
                code=record.code, created=record.created, rules=record.rules,
                preset=record.preset, players=record.players, seed=record.seed,
                settings=record.settings, status=record.status, next_code=record.next_code,
                deal_key=record.deal_key))
            for s in record.seats:
                conn.execute(insert(seats_t).values(
                    code=record.code, seat=s.seat, kind=s.kind, level=s.level, name=s.name,
                    token_hash=s.token_hash, auto_pass=s.auto_pass))

    def update_seat(self, code: str, seat: SeatRecord, *, claim: bool = False) -> bool:
        """Write a seat's record; with ``claim``, only if nobody has taken it yet."""
        with _guard(), self.engine.begin() as conn:
            stmt = update(seats_t).where(seats_t.c.code == code, seats_t.c.seat == seat.seat)
            if claim:
                stmt = stmt.where(seats_t.c.token_hash.is_(None))
            result = conn.execute(stmt.values(
                kind=seat.kind, level=seat.level, name=seat.name,
                token_hash=seat.token_hash, auto_pass=seat.auto_pass))
            return bool(result.rowcount)

    def finish_table(self, code: str, next_code: str | None = None) -> None:
        with _guard(), self.engine.begin() as conn:
            values: dict[str, Any] = {"status": "finished", "finished": time.time()}
            if next_code:
                values["next_code"] = next_code
            conn.execute(update(tables_t).where(tables_t.c.code == code).values(**values))

    def set_status(self, code: str, status: str, *, was: str) -> bool:
        """Change a table's status from ``was`` to ``status`` (False: it was not
        ``was``). A table nobody ever came to is "dropped": not resumed at a
        start, loaded again (and "playing") when somebody comes after all."""
        with _guard(), self.engine.begin() as conn:
            result = conn.execute(update(tables_t).where(
                tables_t.c.code == code, tables_t.c.status == was).values(status=status))
            return bool(result.rowcount)

    def update_settings(self, code: str, changes: dict[str, Any]) -> dict[str, Any] | None:
        """Change some of a table's settings (the JSON column); returns them all
        as stored now (None: there is no such table)."""
        with _guard(), self.engine.begin() as conn:
            row = conn.execute(select(tables_t.c.settings).where(
                tables_t.c.code == code).with_for_update()).first()
            if row is None:
                return None
            settings = dict(row[0] if isinstance(row[0], dict) else json.loads(row[0]), **changes)
            conn.execute(update(tables_t).where(tables_t.c.code == code).values(
                settings=settings))
            return settings

    def set_next(self, code: str, next_code: str) -> bool:
        """Note the table that followed ``code`` ("play again"), unless one was
        noted already (then False: that one stays)."""
        with _guard(), self.engine.begin() as conn:
            result = conn.execute(update(tables_t).where(
                tables_t.c.code == code, tables_t.c.next_code.is_(None)).values(
                next_code=next_code))
            return bool(result.rowcount)

    def table(self, code: str) -> TableRecord | None:
        with _guard(), self.engine.connect() as conn:
            row = conn.execute(select(tables_t).where(tables_t.c.code == code)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(select(seats_t).where(seats_t.c.code == code)
                                 .order_by(seats_t.c.seat)).mappings().all()
        return _table(row, seats)

    def tables(self, status: str | None = None, limit: int = 10_000) -> list[TableRecord]:
        """Tables (of ``status``), newest first, with their seats."""
        with _guard(), self.engine.connect() as conn:
            q = select(tables_t).order_by(tables_t.c.created.desc()).limit(limit)
            if status is not None:
                q = q.where(tables_t.c.status == status)
            rows = conn.execute(q).mappings().all()
            codes = [r["code"] for r in rows]
            seats: list[Any] = []
            for i in range(0, len(codes), 500):  # (SQLite's limit of bound parameters)
                seats.extend(conn.execute(
                    select(seats_t).where(seats_t.c.code.in_(codes[i:i + 500]))
                    .order_by(seats_t.c.seat)).mappings().all())
        by_code: dict[str, list[Any]] = {}
        for s in seats:
            by_code.setdefault(s["code"], []).append(s)
        return [_table(r, by_code.get(r["code"], [])) for r in rows]

    # --------------------------------------------------------------- actions
    def append_action(self, code: str, seq: int, seat: int, action: dict[str, Any]) -> None:
        """Write action number ``seq`` of the table: only the next one goes in."""
        if self._raw is not None:
            self._append_raw(code, seq, seat, action)
            return
        if self._pg_info is not None:
            self._append_pg(code, seq, seat, action)
            return
        with _guard(), self.engine.begin() as conn:
            last = conn.execute(select(func.max(actions_t.c.seq)).where(
                actions_t.c.code == code)).scalar()
            if (last or 0) + 1 != seq:
                raise ConflictError(f"table {code} is at action {last or 0}, not {seq - 1}")
            conn.execute(insert(actions_t).values(code=code, seq=seq, seat=seat,
                                                  action=action, at=time.time()))

    def _append_raw(self, code: str, seq: int, seat: int, action: dict[str, Any]) -> None:
        import sqlite3

        with self._raw_lock:
            raw = self._raw
            if raw is None:
                raise StoreError("the store is closed")
            try:
                cursor = raw.cursor()
                try:
                    cursor.execute(_APPEND_NEXT, (code, seq, seat, json.dumps(action),
                                                  time.time(), code, seq - 1))
                    written = cursor.rowcount
                finally:
                    cursor.close()
                raw.commit()
            except sqlite3.IntegrityError as e:
                with contextlib.suppress(sqlite3.Error):
                    raw.rollback()
                raise ConflictError(f"action {seq} of table {code} refused: {e}") from e
            except sqlite3.Error as e:
                with contextlib.suppress(sqlite3.Error):
                    raw.rollback()
                raise StoreError(str(e)) from e
        if written != 1:
            raise ConflictError(f"table {code} is not at action {seq - 1}")

    def _append_pg(self, code: str, seq: int, seat: int, action: dict[str, Any]) -> None:
        import psycopg

        with self._raw_lock:
            try:
                if self._pg is None or self._pg.closed:
                    if self._pg_info is None:
                        raise StoreError("the store is closed")
                    self._pg = psycopg.connect(self._pg_info, autocommit=True,
                                               connect_timeout=5, options=self._pg_options())
                cursor = self._pg.execute(_APPEND_NEXT_PG, (
                    code, seq, seat, json.dumps(action), time.time(), code, seq - 1),
                    prepare=True)
                written = cursor.rowcount
            except psycopg.errors.UniqueViolation as e:
                raise ConflictError(f"action {seq} of table {code} refused: {e}") from e
            except psycopg.Error as e:
                with contextlib.suppress(Exception):
                    self._pg.close()
                self._pg = None  # opened again at the next write
                raise StoreError(str(e).splitlines()[0] if str(e) else repr(e)) from e
        if written != 1:
            raise ConflictError(f"table {code} is not at action {seq - 1}")

    def actions(self, code: str, after: int = 0) -> list[tuple[int, int, dict[str, Any]]]:
        """(seq, seat, action) of the table, in order (those after number ``after``)."""
        with _guard(), self.engine.connect() as conn:
            rows = conn.execute(select(actions_t.c.seq, actions_t.c.seat, actions_t.c.action)
                                .where(actions_t.c.code == code, actions_t.c.seq > after)
                                .order_by(actions_t.c.seq)).all()
        return [(r[0], r[1], r[2] if isinstance(r[2], dict) else json.loads(r[2])) for r in rows]

    # ------------------------------------------------------------------ chat
    def append_chat(self, code: str, line: ChatLine) -> int:
        """Write a chat line of the table (its ``id`` is given here); returns the id."""
        with _guard(), self.engine.begin() as conn:
            result = conn.execute(insert(chat_t).values(
                code=code, at=line["at"], events=line["events"], seat=line["seat"],
                text=line.get("text"), reaction=line.get("reaction")))
            key = result.inserted_primary_key
            return int(key[0]) if key else 0

    def chat(self, code: str, last: int | None = None) -> list[ChatLine]:
        """The table's chat lines in order (only the ``last`` ones)."""
        with _guard(), self.engine.connect() as conn:
            q = select(chat_t).where(chat_t.c.code == code).order_by(chat_t.c.id.desc())
            if last is not None:
                q = q.limit(last)
            rows = conn.execute(q).mappings().all()
        return [{"id": r["id"], "at": r["at"], "events": r["events"], "seat": r["seat"],
                 "text": r["text"], "reaction": r["reaction"]} for r in reversed(rows)]

    def chat_tail(self, code: str, last: int) -> tuple[list[ChatLine], int]:
        """The table's ``last`` chat lines in order, and how many it has: read
        in one statement, so the count is that of the same moment."""
        total = func.count().over().label("total")
        with _guard(), self.engine.connect() as conn:
            rows = conn.execute(select(chat_t, total).where(chat_t.c.code == code)
                                .order_by(chat_t.c.id.desc()).limit(last)).mappings().all()
        lines: list[ChatLine] = [
            {"id": r["id"], "at": r["at"], "events": r["events"], "seat": r["seat"],
             "text": r["text"], "reaction": r["reaction"]} for r in reversed(rows)]
        return lines, int(rows[0]["total"]) if rows else 0

    def chat_count(self, code: str) -> int:
        """How many chat lines the table has."""
        with _guard(), self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(chat_t).where(
                chat_t.c.code == code)).scalar() or 0)

    # ------------------------------------------------------------------ pads
    def save_pad(self, pad: PadRecord) -> None:
        with _guard(), self.engine.begin() as conn:
            exists = conn.execute(select(pads_t.c.id).where(pads_t.c.id == pad.id)).first()
            if exists:
                conn.execute(update(pads_t).where(pads_t.c.id == pad.id).values(data=pad.data))
            else:
                conn.execute(insert(pads_t).values(id=pad.id, created=pad.created,
                                                   data=pad.data))

    def pad(self, pad_id: str) -> PadRecord | None:
        with _guard(), self.engine.connect() as conn:
            row = conn.execute(select(pads_t).where(pads_t.c.id == pad_id)).mappings().first()
        return None if row is None else PadRecord(row["id"], row["created"], row["data"])

    # --------------------------------------------------------------- reviews
    def save_review(self, code: str, seat: int, data: dict[str, Any]) -> None:
        """Keep the review of ``seat``'s game at table ``code`` (replacing one)."""
        key = (reviews_t.c.code == code) & (reviews_t.c.seat == seat)
        with _guard(), self.engine.begin() as conn:
            if conn.execute(select(reviews_t.c.seat).where(key)).first():
                conn.execute(update(reviews_t).where(key).values(made=time.time(), data=data))
            else:
                conn.execute(insert(reviews_t).values(code=code, seat=seat, made=time.time(),
                                                      data=data))

    def review(self, code: str, seat: int) -> dict[str, Any] | None:
        """The kept review of ``seat``'s game at table ``code``, or None."""
        with _guard(), self.engine.connect() as conn:
            row = conn.execute(select(reviews_t.c.data).where(
                reviews_t.c.code == code, reviews_t.c.seat == seat)).first()
        if row is None:
            return None
        return row[0] if isinstance(row[0], dict) else json.loads(row[0])


#: the newest revision of the schema (migrations/versions)
HEAD = "0004"
#: the key of the PostgreSQL advisory lock held while a database is upgraded
_UPGRADE_LOCK = 0x6C697665  # "live"


def _alembic_config(connection: Connection) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.attributes["connection"] = connection
    return config


def revision(engine: Engine) -> str | None:
    """The schema revision of the database (None: no schema, or one made before
    migrations that :func:`upgrade` will stamp)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database's schema up to date (the Alembic migrations to head).

    A database made by an earlier server (``metadata.create_all``, no
    ``alembic_version`` table) holds exactly the first revision's schema: it is
    stamped at that revision, then upgraded. On PostgreSQL the upgrade holds an
    advisory lock, so processes starting together upgrade one after the other.
    """
    from alembic import command

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK})
        config = _alembic_config(conn)
        names = set(inspect(conn).get_table_names())
        if "alembic_version" not in names and "actions" in names:
            command.stamp(config, "0001")
        command.upgrade(config, "head")


def _table(row: Any, seats: Any) -> TableRecord:
    return TableRecord(
        code=row["code"], created=row["created"], rules=row["rules"], preset=row["preset"],
        players=row["players"], seed=row["seed"], settings=row["settings"],
        status=row["status"], finished=row["finished"], next_code=row["next_code"],
        deal_key=row["deal_key"],
        seats=[SeatRecord(s["seat"], s["kind"], s["level"], s["name"], s["token_hash"],
                          bool(s["auto_pass"])) for s in seats])


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


_T = TypeVar("_T")


class AsyncStore:
    """The store as the event loop calls it: every call in the storage's own
    worker threads (never the default pool, which bots and anything else may
    fill; a local SQLite file too: a disk that stalls must not stall every
    table). A call that takes longer than ``timeout`` seconds raises
    StoreError ("try again"); the statement itself is cut by the database's
    own timeout (:class:`Store`)."""

    def __init__(self, store: Store, *, timeout: float | None = None, workers: int = 4,
                 failed: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.timeout = store.timeout if timeout is None else timeout
        self.executor = ThreadPoolExecutor(max_workers=workers,
                                           thread_name_prefix="liverpool-storage")
        #: told the kind of each failed call ("timeout", "error")
        self.failed = failed

    def _failed(self, kind: str) -> None:
        if self.failed is not None:
            self.failed(kind)

    async def run(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``fn(*args, **kwargs)`` (a method of the store) in a worker thread."""
        return await self.in_thread(fn, *args, **kwargs)

    async def in_thread(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """``fn(*args, **kwargs)`` (a method of the store) in a worker thread."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.timeout):
                return await loop.run_in_executor(self.executor,
                                                  functools.partial(fn, *args, **kwargs))
        except TimeoutError:
            self._failed("timeout")
            raise StoreError(f"the storage did not answer in {self.timeout:g} s") from None
        except StoreError as e:
            if not isinstance(e, ConflictError):  # (another writer first: no failure)
                self._failed("error")
            raise

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def append_action(self, code: str, seq: int, seat: int,
                            action: dict[str, Any]) -> None:
        await self.run(self.store.append_action, code, seq, seat, action)

    async def finish_table(self, code: str) -> None:
        await self.run(self.store.finish_table, code)

    async def actions(self, code: str, after: int = 0) -> list[tuple[int, int, dict[str, Any]]]:
        return await self.run(self.store.actions, code, after)

    async def table(self, code: str) -> TableRecord | None:
        return await self.run(self.store.table, code)

    async def append_chat(self, code: str, line: ChatLine) -> int:
        return await self.run(self.store.append_chat, code, line)

    async def chat_tail(self, code: str, last: int) -> tuple[list[ChatLine], int]:
        return await self.run(self.store.chat_tail, code, last)
