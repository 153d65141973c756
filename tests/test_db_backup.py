"""``liverpool db backup FILE``: SQLite's online backup of the server's
database, taken while a store has it open and writes to it (docs/deploy.md)."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from liverpool.cli import main
from liverpool.server.cli import db_command, serve_command
from liverpool.server.store import SeatRecord, Store, TableRecord


def table(code: str) -> TableRecord:
    return TableRecord(code=code, created=time.time(), rules={"name": "x", "deal": [7]},
                       preset="liverpool", players=2, seed=5, settings={}, status="playing",
                       seats=[SeatRecord(0, "human", name="Kari"),
                              SeatRecord(1, "bot", level="easy")])


def test_a_backup_taken_while_the_server_writes(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    store = Store(f"sqlite:///{data / 'liverpool.sqlite3'}")
    store.create_table(table("ABCDEF"))
    store.append_action("ABCDEF", 1, 0, {"type": "draw", "source": "stock"})
    stop = threading.Event()
    written = [1]

    def write() -> None:  # the server goes on playing during the backup
        while not stop.is_set():
            store.append_action("ABCDEF", written[-1] + 1, 0, {"type": "pass"})
            written.append(written[-1] + 1)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        time.sleep(0.05)
        backup = tmp_path / "backup.sqlite3"
        done = CliRunner().invoke(db_command, ["backup", str(backup), "--data", str(data)])
        time.sleep(0.05)
    finally:
        stop.set()
        writer.join()
    assert done.exit_code == 0, done.output
    assert "backed up to" in done.output
    assert backup.exists()
    assert not (tmp_path / "backup.sqlite3.partial").exists()
    with sqlite3.connect(backup) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows = copy.execute("SELECT code, players FROM tables").fetchall()
        seqs = [s for (s,) in copy.execute("SELECT seq FROM actions ORDER BY seq")]
    assert rows == [("ABCDEF", 2)]
    # one moment of the log: every action up to some point, none missing
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) >= 1
    assert len(written) > len(seqs)  # (the writer went on after the copy)
    # the copy is a database the server opens
    again = Store(f"sqlite:///{backup}")
    try:
        found = again.table("ABCDEF")
        assert found is not None
        assert found.seats[0].name == "Kari"
        assert len(again.actions("ABCDEF")) == len(seqs)
    finally:
        again.close()
        store.close()


def test_a_backup_never_overwrites_by_mistake(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    Store(f"sqlite:///{db}").close()
    url = ["--database", f"sqlite:///{db}"]
    target = tmp_path / "b.sqlite3"
    target.write_text("keep me")
    refused = CliRunner().invoke(db_command, ["backup", str(target), *url])
    assert refused.exit_code != 0
    assert "exists" in refused.output
    assert target.read_text() == "keep me"
    same = CliRunner().invoke(db_command, ["backup", str(db), "--force", *url])
    assert same.exit_code != 0
    assert "another file" in same.output
    forced = CliRunner().invoke(db_command, ["backup", str(target), "--force", *url])
    assert forced.exit_code == 0, forced.output
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT count(*) FROM tables").fetchone() == (0,)
    missing = CliRunner().invoke(db_command, ["backup", str(tmp_path / "c"),
                                              "--data", str(tmp_path / "none")])
    assert missing.exit_code != 0
    assert "no database" in missing.output
    assert not (tmp_path / "none").exists()


def test_postgresql_is_backed_up_with_pg_dump(tmp_path: Path) -> None:
    done = CliRunner().invoke(db_command, [
        "backup", str(tmp_path / "x.dump"),
        "--database", "postgresql+psycopg://u:secret@db.example/liverpool"])
    assert done.exit_code != 0
    assert "pg_dump --format=custom" in done.output
    assert "postgresql://u:***@" in done.output
    assert "secret" not in done.output
    assert not (tmp_path / "x.dump").exists()


def test_a_data_folder_that_cannot_be_made_is_said_in_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    data = blocker / "data"  # (a folder inside a file: no system can make it)
    for command, args in ((db_command, ["upgrade", "--data", str(data)]),
                          (serve_command, ["--data", str(data), "--port", "1"])):
        out = CliRunner().invoke(command, args)
        assert out.exit_code == 1, out.output
        assert isinstance(out.exception, SystemExit), out.exception  # (no traceback)
        assert f"cannot make the data folder {data}: Not a directory" in out.output
    out = CliRunner().invoke(serve_command, ["--data", str(data), "--lang", "nb"])
    assert out.exit_code == 1, out.output
    assert f"kan ikke lage datamappen {data}: Not a directory" in out.output
    assert blocker.read_text() == "not a folder"


@pytest.mark.parametrize(("lang", "made", "again", "backed_up", "exists"), [
    ("nb", "oppdatert fra ingenting til revisjon", "allerede oppdatert (revisjon",
     "sikkerhetskopiert til", "Feil: {file} finnes: gi en ny fil, eller --force"),
    ("da", "opdateret fra ingenting til revision", "allerede opdateret (revision",
     "sikkerhedskopieret til", "Fejl: {file} findes: giv en ny fil, eller --force"),
    ("en", "upgraded from nothing to revision", "up to date (revision", "backed up to",
     "Error: {file} exists: give a new file, or --force"),
])
def test_the_db_commands_speak_the_language_of_lang(tmp_path: Path, lang: str, made: str,
                                                     again: str, backed_up: str,
                                                     exists: str) -> None:
    data = ["--data", str(tmp_path / "data")]

    def run(*args: str) -> Result:
        return CliRunner().invoke(main, ["db", *args, "--lang", lang])

    first = run("upgrade", *data)
    assert first.exit_code == 0, first.output
    assert made in first.output
    second = CliRunner().invoke(main, ["--lang", lang, "db", "upgrade", *data])
    assert again in second.output
    target = tmp_path / "b.sqlite3"
    done = run("backup", str(target), *data)
    assert done.exit_code == 0, done.output
    assert backed_up in done.output
    assert re.search(r"\(\d+ \w+, \d+ \w+\)$", done.output.strip())  # (plain numbers)
    refused = run("backup", str(target), *data)
    assert refused.exit_code == 1
    assert exists.format(file=target) in " ".join(refused.output.split())
    if lang != "en":
        for english in ("upgraded", "up to date", "backed up", "exists: give"):
            assert english not in first.output + second.output + done.output + refused.output
