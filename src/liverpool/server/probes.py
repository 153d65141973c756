"""The HTTP side of the limits per address (:mod:`.limits`): invite codes
tried over HTTP. Every request for a table (``/api/tables/{code}…``) that finds
none counts for its address; past ``probes_per_minute`` such misses the
address is answered HTTP 429 ``server_too_many_probes`` (in the ``lang`` of
the query) before any table is looked up."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import i18n
from ..errors import GameError
from .hub import Hub
from .ui import ui_language

__all__ = ["ProbeGuard", "client_address"]

_TABLE_PATHS = "/api/tables/"


def client_address(scope: Scope) -> str:
    """The address a request came from (with ``--proxy-headers``: the one the
    proxy names)."""
    client = scope.get("client")
    return str(client[0]) if client else ""


class ProbeGuard:
    """ASGI middleware: the invite-code probes per address over HTTP."""

    def __init__(self, app: ASGIApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(_TABLE_PATHS):
            await self.app(scope, receive, send)
            return
        hub = self.hub
        address = client_address(scope)
        if not await hub.limiter.may_probe(address):
            hub.metrics.refused("probes")
            await _too_many(scope, send)
            return

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 404:
                await hub.limiter.missed(address)
            await send(message)

        await self.app(scope, receive, watch)


async def _too_many(scope: Scope, send: Send) -> None:
    lang = "en"
    for part in scope.get("query_string", b"").decode("latin-1").split("&"):
        if part.startswith("lang="):
            lang = part[5:]
    lang = ui_language(lang)
    body = json.dumps({"detail": {"code": "server_too_many_probes", "message": i18n.error_text(
        GameError("server_too_many_probes"), lang)}}, ensure_ascii=False).encode()
    headers: list[Any] = [(b"content-type", b"application/json"),
                          (b"content-length", str(len(body)).encode()),
                          (b"retry-after", b"60")]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
