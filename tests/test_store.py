"""The server's storage on SQLite and on a real PostgreSQL (tests/conftest.py
starts one): tables, seats, the append-only action log (only the next sequence
number goes in; two writers racing the same version: exactly one wins, also
from two processes), score pads, the schema migrations (``liverpool db
upgrade``, a database made before migrations is stamped)."""

from __future__ import annotations

import asyncio
import importlib.util
import multiprocessing
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import alembic  # noqa: F401
import pytest
import sqlalchemy
from click.testing import CliRunner

from liverpool.server.cli import db_command
from liverpool.server.store import (
    HEAD,
    ConflictError,
    PadRecord,
    SeatRecord,
    Store,
    StoreError,
    TableRecord,
    metadata,
    revision,
)

#: real servers, browsers and databases: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db.sqlite3'}"
    import psycopg  # noqa: F401
    return str(request.getfixturevalue("postgres").database())


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    s = Store(url)
    yield s
    s.close()


def record(code: str = "ABCDEF") -> TableRecord:
    return TableRecord(code=code, created=time.time(), rules={"name": "x", "deal": [7]},
                       preset="liverpool", players=2, seed=(1 << 47) + 5,
                       settings={"turn_seconds": 0}, status="playing",
                       seats=[SeatRecord(0, "human", name="Kari", token_hash="h" * 64),
                              SeatRecord(1, "bot", level="easy")])


def test_chat_lines_in_order_per_table(store: Store) -> None:
    store.create_table(record("ABCDEF"))
    store.create_table(record("GHJKMN"))
    ids = [store.append_chat("ABCDEF", {"at": 1.0 + i, "events": i, "seat": i % 2 or None,
                                        "text": f"<b>{i}</b>", "reaction": None})
           for i in range(5)]
    other = store.append_chat("GHJKMN", {"at": 9.0, "events": 0, "seat": 0, "text": None,
                                         "reaction": "wow"})
    assert ids == sorted(ids)
    assert len({*ids, other}) == 6
    lines = store.chat("ABCDEF")
    assert [line["text"] for line in lines] == [f"<b>{i}</b>" for i in range(5)]
    assert lines[0] == {"id": ids[0], "at": 1.0, "events": 0, "seat": None, "text": "<b>0</b>",
                        "reaction": None}
    assert [line["id"] for line in store.chat("ABCDEF", last=2)] == ids[-2:]
    assert (store.chat_count("ABCDEF"), store.chat_count("GHJKMN"), store.chat_count("NONE")) == (
        5, 1, 0)
    with pytest.raises(StoreError):  # (only a table's own lines)
        store.append_chat("NOSUCH", {"at": 1.0, "events": 0, "seat": 0, "text": "x",
                                     "reaction": None})


def test_tables_seats_pads(store: Store) -> None:
    assert revision(store.engine) == HEAD
    store.create_table(record())
    with pytest.raises(ConflictError):
        store.create_table(record())  # the code is taken
    got = store.table("ABCDEF")
    assert got is not None
    assert got.seed == (1 << 47) + 5
    assert got.rules["deal"] == [7]
    assert [s.name for s in got.seats] == ["Kari", None]
    assert got.seats[1].level == "easy"
    assert store.update_seat("ABCDEF", SeatRecord(1, "human", name="Ola", token_hash="t"),  # noqa: S106
                             claim=True)
    assert not store.update_seat("ABCDEF", SeatRecord(1, "human", name="Per", token_hash="u"),  # noqa: S106
                                 claim=True)  # taken already
    store.finish_table("ABCDEF", next_code="GHJKMN")
    got = store.table("ABCDEF")
    assert got is not None
    assert got.status == "finished"
    assert got.next_code == "GHJKMN"
    assert got.finished is not None
    assert got.seats[1].name == "Ola"
    assert [t.code for t in store.tables("finished")] == ["ABCDEF"]
    assert store.tables("playing") == []
    assert store.table("NOSUCH") is None
    store.save_pad(PadRecord("PAD1", 1.0, {"rows": [1]}))
    store.save_pad(PadRecord("PAD1", 1.0, {"rows": [1, 2]}))
    pad = store.pad("PAD1")
    assert pad is not None
    assert pad.data == {"rows": [1, 2]}
    assert store.pad("PAD2") is None


def test_only_the_next_action_goes_in(store: Store) -> None:
    store.create_table(record())
    store.append_action("ABCDEF", 1, 0, {"type": "draw", "n": 1})
    for seq in (1, 3, 0):  # the same version again, a gap, before the start
        with pytest.raises(ConflictError):
            store.append_action("ABCDEF", seq, 1, {"type": "draw"})
    store.append_action("ABCDEF", 2, 1, {"type": "discard", "card": "QS"})
    assert store.actions("ABCDEF") == [(1, 0, {"type": "draw", "n": 1}),
                                       (2, 1, {"type": "discard", "card": "QS"})]
    with pytest.raises(StoreError):  # no such table (the foreign key)
        store.append_action("NOSUCH", 1, 0, {})


def test_two_writers_racing_the_same_version(url: str) -> None:
    """Two stores (two engines, as two processes have) both read the log at
    version n, then both write n+1: the unique key lets exactly one in."""
    a, b = Store(url), Store(url)
    try:
        a.create_table(record())
        for s in (a, b):
            s._raw = None  # the general path (a transaction: read the last, then insert)
        barrier = threading.Barrier(2, timeout=20)

        def hold(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if statement.startswith("INSERT INTO actions"):
                barrier.wait()  # both have read the last version

        for s in (a, b):
            sqlalchemy.event.listen(s.engine, "before_cursor_execute", hold)
        for seq in (1, 2, 3):
            results: dict[str, str] = {}

            def write(name: str, s: Store, seq: int = seq,
                      results: dict[str, str] = results) -> None:
                try:
                    s.append_action("ABCDEF", seq, 0, {"by": name})
                    results[name] = "won"
                except ConflictError:
                    results[name] = "conflict"

            threads = [threading.Thread(target=write, args=(n, s)) for n, s in (("a", a), ("b", b))]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert sorted(results.values()) == ["conflict", "won"], results
        log = a.actions("ABCDEF")
        assert [seq for seq, _, _ in log] == [1, 2, 3]
    finally:
        a.close()
        b.close()


def _racer(url: str, name: str, start: Any, n: int, out: Any) -> None:
    store = Store(url)
    won: list[int] = []
    for seq in range(1, n + 1):
        start.wait()  # both write version seq at once
        try:
            store.append_action("ABCDEF", seq, 0, {"by": name})
            won.append(seq)
        except ConflictError:
            pass  # the other one won this version
    out.put((name, won))
    store.close()


def test_two_processes_racing(url: str) -> None:
    """Two processes write each version 1..n of one table at the same moment
    (a barrier before each): every version is in exactly once, written by
    exactly one of them, the other got a ConflictError."""
    n = 150
    Store(url).create_table(record())
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_racer, args=(url, name, start, n, out)) for name in "ab"]
    for p in procs:
        p.start()
    results = dict(out.get(timeout=120) for _ in procs)
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    assert sorted(results["a"] + results["b"]) == list(range(1, n + 1))
    log = Store(url).actions("ABCDEF")
    assert [seq for seq, _, _ in log] == list(range(1, n + 1))
    assert all(action["by"] in results and seq in results[action["by"]]
               for seq, _, action in log)


def test_db_upgrade_and_a_database_from_before(url: str) -> None:
    """``liverpool db upgrade`` makes the schema; a database made by
    ``create_all`` (the server before migrations) is stamped and keeps its data."""
    engine = sqlalchemy.create_engine(url)
    metadata.create_all(engine)
    with engine.begin() as conn:  # the schema of then: without the later columns and tables
        conn.execute(sqlalchemy.text("DROP TABLE chat"))
        conn.execute(sqlalchemy.text("ALTER TABLE tables DROP COLUMN deal_key"))
        conn.execute(sqlalchemy.text("DROP TABLE reviews"))
        conn.execute(sqlalchemy.text(
            "INSERT INTO tables (code, created, rules, preset, players, seed, settings, status)"
            " VALUES ('OLDONE', 1.0, '{}', 'liverpool', 2, 7, '{}', 'playing')"))
    assert revision(engine) is None
    done = CliRunner().invoke(db_command, ["upgrade", "--database", url])
    assert done.exit_code == 0, done.output
    assert HEAD in done.output
    assert revision(engine) == HEAD
    again = CliRunner().invoke(db_command, ["upgrade", "--database", url])
    assert again.exit_code == 0
    assert HEAD in again.output
    s = Store(url)
    assert s.table("OLDONE") is not None
    s.close()
    engine.dispose()


def test_db_upgrade_of_a_data_folder(tmp_path: Path) -> None:
    done = CliRunner().invoke(db_command, ["upgrade", "--data", str(tmp_path / "d")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "d" / "liverpool.sqlite3").exists()
    bad = CliRunner().invoke(db_command, ["upgrade", "--database", "nosuchdb://x"])
    assert bad.exit_code != 0
    assert "cannot" in bad.output
    if importlib.util.find_spec("psycopg") is not None:  # a password is never shown
        bad = CliRunner().invoke(db_command, [
            "upgrade", "--database", "postgresql+psycopg://u:secret@127.0.0.1:1/x"])
        assert bad.exit_code != 0
        assert "u:***@" in bad.output
        assert "secret" not in bad.output


def test_postgresql_restarted() -> None:
    """PostgreSQL stopped under a store: its calls fail with StoreError (try
    again) and write nothing; after the restart the same store carries on."""
    import psycopg  # noqa: F401
    from conftest import PostgresServer

    server = PostgresServer()
    try:
        store = Store(server.database())
        store.create_table(record())
        store.append_action("ABCDEF", 1, 0, {"n": 1})
        server.pg_ctl_run("stop")
        with pytest.raises(StoreError) as refused:
            store.append_action("ABCDEF", 2, 0, {"n": 2})
        assert not isinstance(refused.value, ConflictError)
        with pytest.raises(StoreError):
            store.table("ABCDEF")
        server.pg_ctl_run("start")
        assert [seq for seq, _, _ in store.actions("ABCDEF")] == [1]
        store.append_action("ABCDEF", 2, 0, {"n": 2})
        assert [seq for seq, _, _ in store.actions("ABCDEF")] == [1, 2]
        store.close()
    finally:
        server.stop()


def test_the_migrations_make_the_schema_of_the_code(url: str) -> None:
    """The migrations to head give exactly store.py's MetaData (nothing for
    Alembic's autogenerate to add): a change of the tables needs a revision."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    Store(url).close()
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}),
                                metadata)
    engine.dispose()
    assert diff == []


def test_finished_games_are_listed_without_keeping_them(tmp_path: Path) -> None:
    """The totals of a finished table that is not in memory are replayed from
    storage (and remembered), and the table is not kept."""
    from liverpool import load_rules
    from liverpool.bots import make_bot
    from liverpool.server import Hub
    from liverpool.server.hub import deal_game
    from liverpool.server.seats import TableSettings

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    rules = load_rules("liverpool", contracts=["SS"], deal=[7])
    hub = Hub(Store(url))
    table, _token = hub.create(rules, "liverpool", [{"kind": "human"}] + [
        {"kind": "bot", "level": "easy"}] * 2, TableSettings(), "Kari")
    game = deal_game(rules, table.record)  # the table's own deal
    bots = [make_bot("basic", rules, seed=s) for s in range(3)]
    while not game.is_over:
        seat = game.answering[0] if game.phase in ("buy", "call") else game.to_move
        assert seat is not None
        view = game.view(seat)
        action = bots[seat].choose(view, list(view.legal_actions))
        game.apply(action, seat=seat)
        hub.store.append_action(table.code, game.version, seat,
                                dict(game.history[-1].to_json()))
    hub.store.finish_table(table.code)
    hub.close()
    fresh = Hub(Store(url))
    (record,) = fresh.store.tables("finished")
    assert asyncio.run(fresh.totals(record)) == list(game.results().totals)
    assert fresh.tables == {}
    assert asyncio.run(fresh.totals(record)) == list(game.results().totals)  # (remembered)
    fresh.store.close()
