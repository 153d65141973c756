"""What the test suite needs from the machine, installed when missing.

The browser tests drive Debian's Chromium (no browser download works in the
places this project is built). When it is missing and the run may install
packages (root, with apt-get), it is installed from Debian's packages before
the tests start; otherwise the browser tests fail with a message saying how to
install it. Nothing is skipped silently.

The same goes for PostgreSQL (Debian's ``postgresql``): the tests that run on
it (their ids say ``postgresql``, or they use the ``postgres`` fixture) get a
server of their own, started here with initdb and pg_ctl in a temporary folder
and listening on loopback only (as the ``postgres`` user when the tests run as
root), stopped at the end. If it cannot be installed or started, those tests
fail.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Debian's packages the tests need, by the command each provides
NEEDED = {"chromium": "chromium", "initdb": "postgresql"}


def _pg_bin(command: str) -> str | None:
    """A PostgreSQL program (Debian keeps them out of PATH, in /usr/lib/postgresql/N/bin)."""
    found = shutil.which(command)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{command}"),
                      key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return versions[-1] if versions else None


def _missing(commands: list[str]) -> list[str]:
    out = []
    for command in commands:
        if command == "chromium" and os.environ.get("LIVERPOOL_CHROMIUM"):
            continue
        found = _pg_bin(command) if command == "initdb" else shutil.which(command)
        if found is None:
            out.append(NEEDED[command])
    return out


def _wants_browser(session: pytest.Session) -> bool:
    return any("test_browser" in str(item.fspath) for item in session.items)


def _wants_postgres(session: pytest.Session) -> bool:
    return any("postgresql" in item.nodeid or "postgres" in getattr(item, "fixturenames", ())
               for item in session.items)


def _install(packages: list[str]) -> str | None:
    """Install ``packages`` with apt-get; the reason when that cannot be done."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "not root, or no apt-get"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", *packages]):
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900,
                              check=False)
        if done.returncode != 0:
            return f"{' '.join(cmd)} failed: {done.stderr.strip()[-500:]}"
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    wanted = (["chromium"] if _wants_browser(session) else []) + (
        ["initdb"] if _wants_postgres(session) else [])
    missing = _missing(wanted)
    if not missing:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"installing Debian packages for the tests: {' '.join(missing)}")
    why = _install(missing)
    if why is not None and reporter is not None:
        reporter.write_line(f"could not install {' '.join(missing)} ({why}): the tests "
                            "that need them will fail")


# -------------------------------------------------------------- PostgreSQL
class PostgresServer:
    """A PostgreSQL server of the tests' own: initdb in a temporary folder,
    pg_ctl start on 127.0.0.1 and a free port, trust authentication (loopback
    only), fsync off. :meth:`database` makes a fresh database and gives its URL."""

    def __init__(self) -> None:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql")
        self.pg_ctl = pg_ctl
        self.folder = Path(tempfile.mkdtemp(prefix="liverpool-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port: int = s.getsockname()[1]
        self.user: str | None = None
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            self.user = "postgres"
            try:
                pwd.getpwnam(self.user)
            except KeyError:
                subprocess.run(["useradd", "--system", "--no-create-home", self.user], check=True)
            os.chown(self.folder, pwd.getpwnam(self.user).pw_uid, -1)
        self._run([initdb, "-D", str(self.data), "-U", "postgres", "-A", "trust",
                   "--no-sync", "-E", "UTF8", "--locale=C"])
        self.pg_ctl_run("start")

    def pg_ctl_run(self, what: str) -> None:
        """``pg_ctl start`` or ``stop`` (fast) of this server."""
        if what == "start":
            options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                       "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                       "-c max_connections=200")
            self._run([self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options,
                       "-w", "-t", "60", "start"])
        else:
            self._run([self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop"])

    def _run(self, cmd: list[str]) -> None:
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-1000:]}\n{log}")

    @property
    def admin_url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def database(self) -> str:
        """A new, empty database; its SQLAlchemy URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The tests' PostgreSQL server (it fails the tests when it cannot start)."""
    started = time.monotonic()
    server = PostgresServer()
    server.started_in = time.monotonic() - started  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        server.stop()
