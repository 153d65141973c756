"""The schema migrations of the server's database (Alembic): see ``Store.upgrade``
and ``liverpool db upgrade``. ``versions/`` holds one module per revision."""
