"""``liverpool serve``: the game server on this machine; ``liverpool db upgrade``:
its database's schema brought up to date (the server also does that at start)."""

from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .limits import ENV_PREFIX, Limits

__all__ = ["app_from_environment", "db_command", "default_data_dir", "serve_command"]

#: what ``liverpool serve`` hands its worker processes (``--workers``)
ENV_DATABASE = "LIVERPOOL_DATABASE"
ENV_REDIS = "LIVERPOOL_REDIS"
ENV_BOT_DELAY = "LIVERPOOL_BOT_DELAY"
#: seconds a process's lease on a table lasts without renewal (default 5): how
#: soon another process takes over the bots and timers of one that died
ENV_LEASE_SECONDS = "LIVERPOOL_LEASE_SECONDS"


def default_data_dir() -> Path:
    """Where the server keeps its data by default (the user's data folder)."""
    try:
        from platformdirs import user_data_dir
    except ImportError:  # pragma: no cover - platformdirs comes with the server extra
        return Path(os.path.expanduser("~/.local/share/liverpool-rummy"))
    return Path(user_data_dir("liverpool-rummy", appauthor=False))


def shown_url(url: str) -> str:
    """The URL with its password hidden (for messages)."""
    try:
        from sqlalchemy.engine import make_url

        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy reads: as given
        return url


def database_url(data: Path | None, database: str | None) -> str:
    """``--database`` as given, or the SQLite file in the data folder (made if missing)."""
    if database is not None:
        return database
    folder = data or default_data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'liverpool.sqlite3'}"


def limit_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """An option for every cap of :class:`~.limits.Limits` (``--live-tables``…),
    each also read from its environment variable (``LIVERPOOL_LIVE_TABLES``…)."""
    for f in reversed(dataclasses.fields(Limits)):
        kind: Any = click.IntRange(min=1) if f.type == "int" else click.FloatRange(min=0.01)
        command = click.option(
            "--" + f.name.replace("_", "-"), f"limit_{f.name}", type=kind, default=None,
            envvar=ENV_PREFIX + f.name.upper(), show_envvar=True,
            help=f"Limit (docs/server.md) [default: {f.default}].")(command)
    return command


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="Port to listen on.")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the server's data (default: the user's data folder).")
@click.option("--database", default=None, metavar="URL",
              help="SQLAlchemy database URL (default: an SQLite file in the data folder).")
@click.option("--redis", "redis_url", default=None, metavar="URL",
              help="Redis URL (redis://host:port/0): several server processes share the "
                   "tables of one database through it.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes on this port (more than one needs --redis).")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=None,
              help="Seconds a bot waits before it acts (default: each table's own, 0.8).")
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              help="How much the server logs.")
@click.option("--log-format", default="text", show_default=True,
              type=click.Choice(["text", "json"]),
              help="Log lines as text, or as JSON objects (one a line).")
@click.option("--metrics-token", default=None, envvar="LIVERPOOL_METRICS_TOKEN",
              show_envvar=True,
              help="Opens GET /metrics to other machines that send it as "
                   "'Authorization: Bearer TOKEN' (without it: this machine only).")
@limit_options
def serve_command(host: str, port: int, data: Path | None, database: str | None,
                  redis_url: str | None, workers: int, bot_delay: float | None,
                  log_level: str, log_format: str, metrics_token: str | None,
                  **limits: Any) -> None:
    """Play Liverpool in the browser: start the game server and open the address it prints."""
    try:
        import uvicorn

        from . import Store
    except ImportError as e:
        raise _needs_extra(e) from None
    if workers > 1 and not redis_url:
        raise click.UsageError("several server processes (--workers) share their tables "
                               "through Redis: give --redis redis://…")
    database = database_url(data, database)
    caps = Limits(**{name[len("limit_"):]: value for name, value in limits.items()
                     if value is not None})
    try:  # open it here once: a bad URL or an old schema is told before anything starts
        Store(database).close()
    except Exception as e:  # noqa: BLE001 - any database problem: one clear line
        raise click.ClickException(
            f"cannot open the database {shown_url(database)}: {e}") from None
    if redis_url:
        _check_redis(redis_url)
    os.environ[ENV_DATABASE] = database
    os.environ.pop(ENV_REDIS, None)
    os.environ.pop(ENV_BOT_DELAY, None)
    if redis_url:
        os.environ[ENV_REDIS] = redis_url
    if bot_delay is not None:
        os.environ[ENV_BOT_DELAY] = str(bot_delay)
    os.environ.update(caps.to_environment())  # (what every worker process reads)
    if metrics_token:
        os.environ["LIVERPOOL_METRICS_TOKEN"] = metrics_token
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    click.echo(f"Liverpool is served at http://{shown}:{port}/ — open it in a browser "
               "(Ctrl-C stops the server).")
    click.echo(f"Data: {shown_url(database)}"
               + (f"; processes: {workers}, sharing through {shown_url(redis_url)}"
                  if redis_url else ""))
    from .logs import log_config

    options: dict[str, Any] = {"host": host, "port": port, "log_level": log_level,
                               "log_config": log_config(log_format, log_level),
                               "ws_max_size": 64 * 1024, "ws_ping_interval": None,
                               # (compressing every update cost more of the server's
                               # time than any other part of sending it)
                               "ws_per_message_deflate": False}
    if workers > 1:
        uvicorn.run("liverpool.server.cli:app_from_environment", factory=True,
                    workers=workers, **options)
    else:
        uvicorn.run(app_from_environment(), **options)


def app_from_environment() -> Any:
    """The server's app as ``liverpool serve`` configured it in the environment
    (``LIVERPOOL_DATABASE``, ``LIVERPOOL_REDIS``, ``LIVERPOOL_BOT_DELAY``, the
    caps of :class:`~.limits.Limits`, and ``LIVERPOOL_LEASE_SECONDS`` if set):
    what each worker process runs."""
    from . import Hub, Store, create_app
    from .fanout import make_fanout

    database = os.environ.get(ENV_DATABASE) or database_url(None, None)
    delay = os.environ.get(ENV_BOT_DELAY)
    lease = os.environ.get(ENV_LEASE_SECONDS)
    fanout = make_fanout(os.environ.get(ENV_REDIS) or None,
                         **({"lease_seconds": float(lease)} if lease else {}))
    limits = Limits.from_environment()
    hub = Hub(Store(database, timeout=limits.storage_seconds),
              bot_delay=float(delay) if delay else None, fanout=fanout, limits=limits)
    app = create_app(hub)
    # the games make many small objects that live long and hold no cycles: a full
    # collection of them every few thousand allocations stalled every table for
    # tens of milliseconds (benchmarks/bench_server.py: p99 110 ms -> 30 ms)
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    return app


def _check_redis(url: str) -> None:
    """Refuse to start on a Redis that cannot be reached (one clear line)."""
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except ImportError as e:
        raise _needs_extra(e) from None
    except Exception as e:  # noqa: BLE001 - any Redis problem: one clear line
        raise click.ClickException(f"cannot reach Redis at {shown_url(url)}: {e}") from None


@click.group("db")
def db_command() -> None:
    """The game server's database."""


@db_command.command("upgrade")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder of the server's data (default: the user's data folder).")
@click.option("--database", default=None, metavar="URL",
              help="SQLAlchemy database URL (default: the SQLite file in the data folder).")
def upgrade_command(data: Path | None, database: str | None) -> None:
    """Bring the database's schema up to date (the server does it at start too)."""
    try:
        from sqlalchemy import create_engine

        from .store import revision, upgrade
    except ImportError as e:
        raise _needs_extra(e) from None
    url = database_url(data, database)
    shown = shown_url(url)
    try:
        engine = create_engine(url)
        try:
            before = revision(engine)
            upgrade(engine)
            after = revision(engine)
        finally:
            engine.dispose()
    except Exception as e:  # noqa: BLE001 - any database problem: one clear line
        raise click.ClickException(f"cannot upgrade the database {shown}: {e}") from None
    if before == after:
        click.echo(f"{shown}: up to date (revision {after})")
    else:
        click.echo(f"{shown}: upgraded from {before or 'nothing'} to revision {after}")


def _needs_extra(e: ImportError) -> click.ClickException:
    return click.ClickException(
        f"the server needs its extra: pip install \"liverpool-rummy[server]\" ({e.name} is "
        "missing)")
