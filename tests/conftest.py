"""What the test suite needs from the machine, installed when missing.

The browser tests drive Debian's Chromium (no browser download works in the
places this project is built). When it is missing and the run may install
packages (root, with apt-get), it is installed from Debian's packages before
the tests start; otherwise the browser tests fail with a message saying how to
install it. Nothing is skipped silently.

The tests run in the C locale (``LANG=C.UTF-8``), whatever the machine's is:
the commands speak the system's language unless ``--lang`` says otherwise.

The same goes for Redis (Debian's ``redis-server``: the ``redis`` fixture
starts one on loopback in a temporary folder, with no persistence) and for
PostgreSQL (Debian's ``postgresql``): the tests that run on
it (their ids say ``postgresql``, or they use the ``postgres`` fixture) get a
server of their own, started here with initdb and pg_ctl in a temporary folder
and listening on loopback only (as the ``postgres`` user when the tests run as
root), stopped at the end. If it cannot be installed or started, those tests
fail.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from servers import PostgresServer, RedisServer, pg_bin

# The commands' --lang defaults to the system's language (LANG): the tests that
# do not give one expect English on any machine, and their servers too.
os.environ["LANG"] = "C.UTF-8"
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)

#: the browser tests' fixtures (``server``, ``browser``, ``pages``); Playwright is imported only when one runs
pytest_plugins = ["browser_support"]

#: Debian's packages the tests need, by the command each provides
NEEDED = {"chromium": "chromium", "initdb": "postgresql", "redis-server": "redis-server"}


def _missing(commands: list[str]) -> list[str]:
    out = []
    for command in commands:
        if command == "chromium" and os.environ.get("LIVERPOOL_CHROMIUM"):
            continue
        found = pg_bin(command) if command == "initdb" else shutil.which(command)
        if found is None:
            out.append(NEEDED[command])
    return out


def _wants_browser(session: pytest.Session) -> bool:
    return any("test_browser" in str(item.fspath) for item in session.items)


def _wants_postgres(session: pytest.Session) -> bool:
    return any("postgresql" in item.nodeid or "postgres" in getattr(item, "fixturenames", ())
               for item in session.items)


def _wants_redis(session: pytest.Session) -> bool:
    return any(name.startswith("redis") for item in session.items
               for name in getattr(item, "fixturenames", ()))


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


@pytest.hookimpl(wrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    """A test marked ``no_cover`` runs untraced, in pytest-xdist's workers too.

    (pytest-cov pauses its own measurement for such a test, but in a worker
    the measurement started before it takes over, and these tests ran 3-4 times
    slower under coverage, as in CI. Run after pytest-cov's pause, this takes
    the tracer off the test's thread and puts it back after.)"""
    tracer = sys.gettrace()
    if tracer is None or item.get_closest_marker("no_cover") is None:
        return (yield)
    sys.settrace(None)
    try:
        return (yield)
    finally:
        sys.settrace(tracer)


def pytest_collection_finish(session: pytest.Session) -> None:
    wanted = (["chromium"] if _wants_browser(session) else []) + (
        ["initdb"] if _wants_postgres(session) else []) + (
        ["redis-server"] if _wants_redis(session) else [])
    if not _missing(wanted):
        return
    # pytest-xdist's workers collect at the same time: one installs, the others wait
    # for it (apt-get holds a lock of its own and refuses a second run)
    with open(Path(tempfile.gettempdir()) / "liverpool-tests-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
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


@pytest.fixture(scope="session")
def redis_session() -> Iterator[RedisServer]:
    server = RedisServer()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture
def redis(redis_session: RedisServer) -> RedisServer:
    """The tests' Redis server, empty (it fails the tests when it cannot start)."""
    if redis_session.proc is None or redis_session.proc.poll() is not None:
        redis_session.start()
    redis_session.flush()
    return redis_session
