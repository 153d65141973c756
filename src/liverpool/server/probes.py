"""The HTTP side of the limits per address (:mod:`.limits`): invite codes
tried over HTTP. Every request for a table (``/api/tables/{code}…``) that finds
none counts for its address; past ``probes_per_minute`` such misses the
address is answered HTTP 429 ``server_too_many_probes`` (in the ``lang`` of
the query) before any table is looked up."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import i18n
from ..errors import GameError
from .hub import Hub
from .ui import ui_language

__all__ = ["ProbeGuard", "client_address", "error_detail", "send_error"]

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
    await send_error(scope, send, 429, "server_too_many_probes", headers=[(b"retry-after", b"60")])


def error_detail(error_code: str, lang: str = "en", **params: Any) -> dict[str, str]:
    """The ``detail`` of an HTTP error of ``error_code`` (liverpool.errors), in ``lang``."""
    return {"code": error_code,
            "message": i18n.error_text(GameError(error_code, **params), lang)}


async def send_error(scope: Scope, send: Send, status: int, error_code: str,
                     headers: Sequence[tuple[bytes, bytes]] = (), **params: Any) -> None:
    """Answer an HTTP request from an ASGI middleware (before any route) with
    the error ``error_code``, in the language of the query's ``lang``."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    lang = ui_language((query.get("lang") or ["en"])[0])
    body = json.dumps({"detail": error_detail(error_code, lang, **params)},
                      ensure_ascii=False).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        *headers]})
    await send({"type": "http.response.body", "body": body})
