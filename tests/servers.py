"""Real PostgreSQL and Redis servers of the tests' (and benchmarks') own, from
Debian's packages: started on loopback in temporary folders, stopped at the end.
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
from pathlib import Path

__all__ = ["PostgresServer", "RedisServer", "pg_bin"]


def pg_bin(command: str) -> str | None:
    """A PostgreSQL program (Debian keeps them out of PATH, in /usr/lib/postgresql/N/bin)."""
    found = shutil.which(command)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{command}"),
                      key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return versions[-1] if versions else None



# -------------------------------------------------------------- PostgreSQL
class PostgresServer:
    """A PostgreSQL server of the tests' own: initdb in a temporary folder,
    pg_ctl start on 127.0.0.1 and a free port, trust authentication (loopback
    only), fsync off. :meth:`database` makes a fresh database and gives its URL."""

    def __init__(self) -> None:
        initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
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
                subprocess.run(["useradd", "--system", "--no-create-home", self.user],  # noqa: S607
                               check=True)  # Debian's useradd, found on PATH as root's
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


# ------------------------------------------------------------------- Redis
class RedisServer:
    """A Redis server of the tests' own: ``redis-server`` on 127.0.0.1 and a
    free port, its folder temporary, nothing saved to disk. :meth:`restart`
    stops it and starts it again on the same port (every key is lost, as in a
    restart without persistence)."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("Redis is not installed: apt-get install redis-server")
        self.binary = binary
        self.folder = Path(tempfile.mkdtemp(prefix="liverpool-redis-"))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port: int = s.getsockname()[1]
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - kept by the process
        self.proc = subprocess.Popen(
            [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--dir",
             str(self.folder), "--save", "", "--appendonly", "no", "--protected-mode", "no"],
            stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server ended with {self.proc.returncode}: "
                                   + (self.folder / "redis.log").read_text()[-1000:])
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=0.5) as conn:
                conn.sendall(b"PING\r\n")
                if conn.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer in 20 s")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None

    def restart(self, down_for: float = 0.0) -> None:
        self.stop()
        time.sleep(down_for)
        self.start()

    def flush(self) -> None:
        import redis

        client = redis.Redis.from_url(self.url)
        try:
            client.flushall()
        finally:
            client.close()
