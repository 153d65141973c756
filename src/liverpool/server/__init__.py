"""The game server: Liverpool in the browser, for friends and bots.

``liverpool serve`` starts it (FastAPI on uvicorn, WebSockets); it keeps its
tables in an embedded SQLite file unless given another SQLAlchemy URL. The
protocol is in docs/protocol.md. Needs the ``server`` extra
(``pip install "liverpool-rummy[server]"``).
"""

from __future__ import annotations

from .app import create_app
from .store import Store
from .tables import Hub

__all__ = ["Hub", "Store", "create_app"]
