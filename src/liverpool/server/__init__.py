"""The game server: Liverpool in the browser, for friends and bots.

``liverpool serve`` starts it (FastAPI on uvicorn, WebSockets); it keeps its
tables in an embedded SQLite file unless given another SQLAlchemy URL. The
protocol is in docs/protocol.md. Needs the ``server`` extra
(``pip install "liverpool-rummy[server]"``); the names below are imported on
first use, so that ``liverpool`` works without the extra (its ``serve``
command then says what to install).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .hub import Hub
    from .store import Store

__all__ = ["Hub", "Store", "create_app"]

_WHERE = {"create_app": ".app", "Store": ".store", "Hub": ".hub"}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
