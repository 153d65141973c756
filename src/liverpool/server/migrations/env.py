"""Alembic's environment: migrations run on the connection the store hands over
(``config.attributes["connection"]``), inside its transaction."""

from __future__ import annotations

from alembic import context

from liverpool.server.store import metadata


def _run() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # (imported by Alembic, not by a doctest collector)
    _run()
