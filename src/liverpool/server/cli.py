"""``liverpool serve``: the game server on this machine."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import click

__all__ = ["default_data_dir", "serve_command"]


def default_data_dir() -> Path:
    """Where the server keeps its data by default (the user's data folder)."""
    try:
        from platformdirs import user_data_dir
    except ImportError:  # pragma: no cover - platformdirs comes with the server extra
        return Path(os.path.expanduser("~/.local/share/liverpool-rummy"))
    return Path(user_data_dir("liverpool-rummy", appauthor=False))


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535),
              help="Port to listen on.")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the server's data (default: the user's data folder).")
@click.option("--database", default=None, metavar="URL",
              help="SQLAlchemy database URL (default: an SQLite file in the data folder).")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=None,
              help="Seconds a bot waits before it acts (default: each table's own, 0.8).")
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]),
              help="How much the server logs.")
def serve_command(host: str, port: int, data: Path | None, database: str | None,
                  bot_delay: float | None, log_level: str) -> None:
    """Play Liverpool in the browser: start the game server and open the address it prints."""
    try:
        import uvicorn

        from . import Hub, Store, create_app
    except ImportError as e:
        raise click.ClickException(
            f"the server needs its extra: pip install \"liverpool-rummy[server]\" ({e.name} is "
            "missing)") from None
    folder = data or default_data_dir()
    if database is None:
        folder.mkdir(parents=True, exist_ok=True)
        database = f"sqlite:///{folder / 'liverpool.sqlite3'}"
    try:
        store = Store(database)
    except Exception as e:  # noqa: BLE001 - any database problem: one clear line
        raise click.ClickException(f"cannot open the database {database}: {e}") from None
    app = create_app(Hub(store, bot_delay=bot_delay))
    # the games make many small objects that live long and hold no cycles: a full
    # collection of them every few thousand allocations stalled every table for
    # tens of milliseconds (benchmarks/bench_server.py: p99 110 ms -> 30 ms)
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 1000)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    click.echo(f"Liverpool is served at http://{shown}:{port}/ — open it in a browser "
               "(Ctrl-C stops the server).")
    click.echo(f"Data: {database}")
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=64 * 1024,
                ws_ping_interval=None)
