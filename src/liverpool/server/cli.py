"""``liverpool serve``: the game server on this machine; ``liverpool db upgrade``:
its database's schema brought up to date (the server also does that at start);
``liverpool db backup``: a copy of its SQLite database, taken while it runs."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import math
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .. import i18n
from ..cli_errors import command_line_language, help_lang_option, help_text, lang_option
from ..i18n import N_
from .caps import ENV_PREFIX, Limits

__all__ = ["app_from_environment", "db_command", "default_data_dir", "open_files", "serve_command"]

#: what ``liverpool serve`` hands its worker processes (``--workers``)
ENV_DATABASE = "LIVERPOOL_DATABASE"
ENV_REDIS = "LIVERPOOL_REDIS"
ENV_BOT_DELAY = "LIVERPOOL_BOT_DELAY"
ENV_ALLOWED_HOSTS = "LIVERPOOL_ALLOWED_HOSTS"
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


def database_url(data: Path | None, database: str | None, lang: str = "en") -> str:
    """``--database`` as given, or the SQLite file in the data folder (made if
    missing; a folder that cannot be made is said in ``lang``)."""
    if database is not None:
        return database
    folder = data or default_data_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # (a folder the server may not make: one clear line, no traceback)
        raise click.ClickException(i18n.gettext(
            "cannot make the data folder {folder}: {reason}", lang).format(
                folder=folder, reason=e.strerror or type(e).__name__)) from None
    return f"sqlite:///{folder / 'liverpool.sqlite3'}"


class FiniteRange(click.FloatRange):
    """A number in a range, and a real one: ``nan`` and ``inf`` are refused
    (NaN passes every comparison of a plain range)."""

    name = "finite float range"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(i18n.gettext("{value} is not a finite number",
                                   command_line_language()).format(value=repr(value)), param, ctx)
        return number


def limit_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """An option for every cap of :class:`~.caps.Limits` (``--live-tables``…),
    each also read from its environment variable (``LIVERPOOL_LIVE_TABLES``…);
    its help is the field's ``help`` (a msgid) and its default."""
    for f in reversed(dataclasses.fields(Limits)):
        kind: Any = click.IntRange(min=1) if f.type == "int" else FiniteRange(min=0.01)
        command = click.option(
            "--" + f.name.replace("_", "-"), f"limit_{f.name}", type=kind, default=None,
            envvar=ENV_PREFIX + f.name.upper(), show_envvar=True,
            # TRANSLATORS: {line} is the option's own sentence (what it bounds, what happens
            # past it); {default} is a number
            help=help_text(N_("{line} [default: {default}]"), line=f.metadata["help"],
                           default=str(f.default)))(command)
    return command


def open_files() -> int:
    """The process's limit of open files, raised first to its hard limit (at
    most 1,048,576): every connection holds one. Where the limit cannot be
    read (not on a Unix), 65,536."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on a Unix
        return 65536
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard if hard != resource.RLIM_INFINITY else 1 << 20, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= want:
        return 1 << 20 if soft == resource.RLIM_INFINITY else soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    except (ValueError, OSError):
        return soft
    return want


@click.command("serve", help=N_("Play Liverpool in the browser: start the game server and open "
                                 "the address it prints."))
@click.option("--host", default="127.0.0.1", show_default=True,
              help=N_("Address to listen on (0.0.0.0: every network of this machine)."))
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help=N_("Port to listen on."))
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=N_("Folder for the server's data (default: the user's data folder)."))
@click.option("--database", default=None, metavar="URL",
              help=N_("SQLAlchemy database URL (default: an SQLite file in the data folder)."))
@click.option("--redis", "redis_url", default=None, metavar="URL",
              help=N_("Redis URL (redis://host:port/0): several server processes share the "
                      "tables of one database through it."))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help=N_("Server processes on this port (more than one needs --redis)."))
@click.option("--bot-delay", type=FiniteRange(0, 10), default=None,
              help=N_("Seconds a bot waits before it acts (default: each table's own, 1)."))
@click.option("--allowed-hosts", "allowed_hosts", multiple=True, metavar=N_("HOSTS"),
              help=N_("Host names the server answers to (comma-separated, may be repeated; "
                      "*.example.org patterns; * for any). Default: the --host address, "
                      "localhost, 127.0.0.1 and [::1] (with 0.0.0.0: also this machine's name "
                      "and addresses). Other Host headers are refused (DNS rebinding)."))
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              help=N_("How much the server logs."))
@click.option("--proxy-headers/--no-proxy-headers", default=True, show_default=True,
              help=N_("Behind a reverse proxy: take the client's address and scheme from "
                      "X-Forwarded-For and X-Forwarded-Proto (only from --forwarded-allow-ips)."))
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True, metavar="IPS",
              help=N_("Comma-separated addresses or networks of the proxies whose X-Forwarded-* "
                      "headers are believed; * for any (only when no one else reaches the port)."))
@click.option("--log-format", default="text", show_default=True,
              type=click.Choice(["text", "json"]),
              help=N_("Log lines as text, or as JSON objects (one a line)."))
@click.option("--metrics-token", default=None, envvar="LIVERPOOL_METRICS_TOKEN",
              show_envvar=True,
              help=N_("Opens GET /metrics to other machines that send it as "
                      "'Authorization: Bearer TOKEN' (without it: this machine only)."))
@lang_option(N_("the lines it prints"))
@limit_options
def serve_command(host: str, port: int, data: Path | None, database: str | None,
                  redis_url: str | None, workers: int, bot_delay: float | None,
                  allowed_hosts: tuple[str, ...], log_level: str, proxy_headers: bool,
                  forwarded_allow_ips: str, log_format: str, metrics_token: str | None,
                  lang: str, **limits: Any) -> None:
    try:
        import uvicorn

        from . import Store
        from .guard import default_hosts, parse_hosts
        from .stream import FRAME_LIMIT
    except ImportError as e:
        raise _needs_extra(e, lang) from None
    if workers > 1 and not redis_url:
        raise click.UsageError(i18n.gettext(
            "several server processes (--workers) share their tables through Redis: give "
            "--redis redis://…", lang))
    database = database_url(data, database, lang)
    caps = Limits(**{name[len("limit_"):]: value for name, value in limits.items()
                     if value is not None})
    try:  # open it here once: a bad URL or an old schema is told before anything starts
        Store(database).close()
    except Exception as e:  # noqa: BLE001 - any database problem: one clear line
        raise click.ClickException(i18n.gettext(
            "cannot open the database {database}: {reason}", lang).format(
                database=shown_url(database), reason=first_line(e))) from None
    if redis_url:
        _check_redis(redis_url, lang)
    os.environ[ENV_DATABASE] = database
    os.environ.pop(ENV_REDIS, None)
    os.environ.pop(ENV_BOT_DELAY, None)
    if redis_url:
        os.environ[ENV_REDIS] = redis_url
    if bot_delay is not None:
        os.environ[ENV_BOT_DELAY] = str(bot_delay)
    hosts = parse_hosts(allowed_hosts) if allowed_hosts else default_hosts(host)
    os.environ[ENV_ALLOWED_HOSTS] = ",".join(hosts)
    os.environ.update(caps.to_environment())  # (what every worker process reads)
    if metrics_token:
        os.environ["LIVERPOOL_METRICS_TOKEN"] = metrics_token
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    click.echo(i18n.gettext("Liverpool is served at {address} — open it in a browser (Ctrl-C "
                            "stops the server).", lang).format(address=f"http://{shown}:{port}/"))
    if redis_url:
        click.echo(i18n.gettext("Data: {database}; processes: {workers}, sharing through {redis}",
                                lang).format(database=shown_url(database), workers=workers,
                                             redis=shown_url(redis_url)))
    else:
        click.echo(i18n.gettext("Data: {database}", lang).format(database=shown_url(database)))
    from .logs import log_config

    options: dict[str, Any] = {"host": host, "port": port, "log_level": log_level,
                               "proxy_headers": proxy_headers,
                               "forwarded_allow_ips": forwarded_allow_ips,
                               "log_config": log_config(log_format, log_level),
                               "ws_max_size": FRAME_LIMIT, "ws_ping_interval": None,
                               # (compressing every update cost more of the server's
                               # time than any other part of sending it)
                               "ws_per_message_deflate": False,
                               # (past it a connection gets 503, before the process
                               # runs out of open files and its accept loop fails)
                               "limit_concurrency": max(64, min(caps.connections,
                                                                open_files() - 64)),
                               # (uvicorn's h11 with a deadline for a request's headers)
                               "http": "liverpool.server.deadline:HeaderDeadline"}
    if workers > 1:
        uvicorn.run("liverpool.server.cli:app_from_environment", factory=True,
                    workers=workers, **options)
    else:
        uvicorn.run(app_from_environment(), **options)


def app_from_environment() -> Any:
    """The server's app as ``liverpool serve`` configured it in the environment
    (``LIVERPOOL_DATABASE``, ``LIVERPOOL_REDIS``, ``LIVERPOOL_BOT_DELAY``,
    ``LIVERPOOL_ALLOWED_HOSTS`` (comma-separated; default: this machine as
    localhost), the caps of :class:`~.caps.Limits`, and
    ``LIVERPOOL_LEASE_SECONDS`` if set): what each worker process runs."""
    from . import Hub, Store, create_app
    from .fanout import make_fanout
    from .guard import default_hosts, parse_hosts

    database = os.environ.get(ENV_DATABASE) or database_url(None, None)
    delay = os.environ.get(ENV_BOT_DELAY)
    lease = os.environ.get(ENV_LEASE_SECONDS)
    fanout = make_fanout(os.environ.get(ENV_REDIS) or None,
                         **({"lease_seconds": float(lease)} if lease else {}))
    limits = Limits.from_environment()
    hub = Hub(Store(database, timeout=limits.storage_seconds),
              bot_delay=float(delay) if delay else None, fanout=fanout, limits=limits)
    hosts = os.environ.get(ENV_ALLOWED_HOSTS)
    app = create_app(hub, allowed_hosts=parse_hosts([hosts]) if hosts else
                     default_hosts("127.0.0.1"))
    # the games make many small objects that live long and hold no cycles: a full
    # collection of them every few thousand allocations stalled every table for
    # tens of milliseconds (benchmarks/bench_server.py: p99 110 ms -> 30 ms); the
    # tables the hub evicts are collected by it once a minute (Hub.collect_evicted)
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    return app


def first_line(e: BaseException) -> str:
    """What went wrong, in one line: a database driver's own message (without
    SQLAlchemy's statement and its "Background on this error" link).

    >>> first_line(ValueError("no such host\\n\\nmore"))
    'no such host'
    """
    cause = getattr(e, "orig", None) or e
    text = str(cause).strip().splitlines()
    return text[0] if text else type(cause).__name__


def _check_redis(url: str, lang: str = "en") -> None:
    """Refuse to start on a Redis that cannot be reached (one clear line, in ``lang``)."""
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except ImportError as e:
        raise _needs_extra(e, lang) from None
    except Exception as e:  # noqa: BLE001 - any Redis problem: one clear line
        raise click.ClickException(i18n.gettext("cannot reach Redis at {url}: {reason}", lang)
                                   .format(url=shown_url(url), reason=first_line(e))) from None


@click.group("db", help=N_("The game server's database."))
@help_lang_option()
def db_command() -> None:
    """``liverpool db``: its commands are ``upgrade`` and ``backup``."""


@db_command.command("upgrade", help=N_("Bring the database's schema up to date (the server "
                                        "does it at start too)."))
@lang_option(N_("the messages"))
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=N_("Folder of the server's data (default: the user's data folder)."))
@click.option("--database", default=None, metavar="URL",
              help=N_("SQLAlchemy database URL (default: the SQLite file in the data folder)."))
def upgrade_command(lang: str, data: Path | None, database: str | None) -> None:
    try:
        from sqlalchemy import create_engine

        from .store import revision, upgrade
    except ImportError as e:
        raise _needs_extra(e, lang) from None
    url = database_url(data, database, lang)
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
        raise click.ClickException(i18n.say(N_("cannot upgrade the database {database}: {reason}"), lang,
                                       database=shown, reason=e)) from None
    if before == after:
        # TRANSLATORS: {database} is the database's URL; {revision} a code such as 0007
        click.echo(i18n.say(N_("{database}: up to date (revision {revision})"), lang, database=shown,
                       revision=after))
    elif before is None:
        click.echo(i18n.say(N_("{database}: upgraded from nothing to revision {revision}"), lang,
                       database=shown, revision=after))
    else:
        click.echo(i18n.say(N_("{database}: upgraded from {before} to revision {revision}"), lang,
                       database=shown, before=before, revision=after))


@db_command.command("backup", help=N_("Copy the SQLite database to FILE, safely while the server "
                                       "runs (SQLite's online backup). For PostgreSQL, use pg_dump "
                                       "(see docs/deploy.md)."))
@lang_option(N_("the messages"))
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=N_("Folder of the server's data (default: the user's data folder)."))
@click.option("--database", default=None, metavar="URL",
              help=N_("SQLAlchemy database URL (default: the SQLite file in the data folder)."))
@click.option("--force", is_flag=True, help=N_("Replace FILE if it exists."))
def backup_command(file: Path, lang: str, data: Path | None, database: str | None,
                   force: bool) -> None:
    if database is None:
        source = (data or default_data_dir()) / "liverpool.sqlite3"
    else:
        try:
            from sqlalchemy.engine import make_url

            url = make_url(database)
        except ImportError as e:
            raise _needs_extra(e, lang) from None
        except Exception as e:  # noqa: BLE001 - not a URL: one clear line
            raise click.ClickException(i18n.say(N_("cannot read the database URL {url}: {reason}"), lang,
                                           url=shown_url(database), reason=e)) from None
        if url.get_backend_name() == "postgresql":
            dump_url = url.set(drivername="postgresql").render_as_string(hide_password=True)
            raise click.ClickException(i18n.say(
                # TRANSLATORS: {command} is a pg_dump command line, said as it is
                N_("a PostgreSQL database is backed up with PostgreSQL's own tool, e.g. "
                   "{command} (see docs/deploy.md)"), lang,
                command=f"pg_dump --format=custom --file {file} '{dump_url}'"))
        if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
            raise click.ClickException(i18n.say(N_("cannot back up {url}: give the URL of an "
                                              "SQLite file (sqlite:///path)"), lang,
                                           url=shown_url(database)))
        source = Path(url.database)
    if not source.is_file():
        raise click.ClickException(i18n.say(N_("there is no database at {path}"), lang, path=source))
    if file.exists() and not force:
        raise click.ClickException(i18n.say(N_("{file} exists: give a new file, or --force to "
                                          "replace it"), lang, file=file))
    if file.resolve() == source.resolve():
        raise click.ClickException(i18n.say(N_("the backup must be another file than the database"), lang))
    partial = file.with_name(file.name + ".partial")
    try:
        # read-only: the backup never writes to the server's database; all pages
        # in one step, under one read transaction, so the copy is one moment of it
        # (with WAL the server goes on writing meanwhile)
        with contextlib.closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro",
                                                uri=True, timeout=30)) as src, \
                contextlib.closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            check = dst.execute("PRAGMA integrity_check").fetchone()
            tables = dst.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                                 ).fetchone()[0]
        if check != ("ok",):
            raise sqlite3.DatabaseError(i18n.say(N_("the copy is damaged: {reason}"), lang, reason=check[0]))
        os.replace(partial, file)
    except (sqlite3.Error, OSError) as e:
        with contextlib.suppress(OSError):
            partial.unlink()
        raise click.ClickException(i18n.say(N_("cannot back up {database} to {file}: {reason}"), lang,
                                       database=source, file=file, reason=e)) from None
    # TRANSLATORS: {tables} and {size} are numbers (tables of the database, bytes of the file)
    click.echo(i18n.say(N_("{database} backed up to {file} ({tables} tables, {size} bytes)"), lang,
                   database=source, file=file, tables=tables, size=file.stat().st_size))


def _needs_extra(e: ImportError, lang: str = "en") -> click.ClickException:
    """The one line said when the ``server`` extra is not installed."""
    return click.ClickException(i18n.gettext(
        "the server needs its extra: {command} ({module} is missing)", lang).format(
            command='pip install "liverpool-rummy[server]"', module=e.name))
