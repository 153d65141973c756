"""The game server's HTTP and WebSocket interface (FastAPI on Starlette).

Routes (docs/protocol.md has every message with examples), by concern:

* :mod:`.pages`: ``GET /healthz``, the front end (``/``, ``/t/{code}``,
  ``/pad/{id}``, ``/games``: it ships in this package, ``static/``), the
  page's words, the presets and their options; the OpenAPI description at
  ``/docs``.
* :mod:`.table_routes`: tables (create, join, play again, replay, record) and
  the finished games; :mod:`.review_routes`: the coach's review of a finished
  game (made in processes of its own: :mod:`.processes`); :mod:`.pads`: score pads.
  Hints (:mod:`.hints`, in a worker process of their own) come over the WebSocket.
* :mod:`.stream`: ``WS /ws/{code}?lang=…``, one table's stream; the seat
  comes from the token the connection offers as a subprotocol, never from a
  message or the URL.

Every HTTP answer carries the security headers (:mod:`.guard`); with
``allowed_hosts`` a request or an upgrade for another ``Host`` is refused.
HTTP answers of 500 bytes or more are gzip-compressed for a client that
accepts it (Starlette's GZipMiddleware: the pages' files, the JSON, a replay);
WebSocket messages are not (see :mod:`.cli`). Static files are cached with a
validator (:mod:`.pages`).

Every HTTP error is ``{"detail": {"code", "message"}}``, the message in the
caller's language (``lang`` of the query or the body).
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import secrets
from collections.abc import AsyncIterator, Sequence
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from .. import __version__, i18n
from ..rules import RulesError
from . import pads, pages, review_routes, stream, table_routes
from .guard import BodyGuard, HttpHosts, SecurityHeaders
from .hints import Hints
from .hub import Hub, HubFull
from .inbound import refusal_of
from .probes import ProbeGuard, client_address, error_detail
from .reviews import Reviews
from .store import StoreError
from .stream import MAX_MESSAGE
from .ui import ui_language

__all__ = ["MAX_MESSAGE", "create_app"]

log = logging.getLogger("liverpool.server")

#: the token that opens ``GET /metrics`` to requests from other machines
ENV_METRICS_TOKEN = "LIVERPOOL_METRICS_TOKEN"  # noqa: S105 - a variable's name

metrics_router = APIRouter()


@metrics_router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The server's figures in Prometheus' text format: for this machine (a
    request from a loopback address) or a request with the metrics token."""
    token: str | None = request.app.state.metrics_token
    given = request.headers.get("authorization", "")
    local = _is_loopback(client_address(request.scope))
    if not local and not (token and secrets.compare_digest(given, f"Bearer {token}")):
        lang = ui_language(request.query_params.get("lang", "en"))
        return JSONResponse({"detail": error_detail("server_forbidden", lang)}, status_code=403)
    hub: Hub = request.app.state.hub
    return Response(hub.metrics.text(), media_type="text/plain; version=0.0.4; charset=utf-8")


def _is_loopback(address: str) -> bool:
    """Whether ``address`` is this machine's (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


#: seconds between the server's pings, and of silence before it drops a connection
PING_EVERY = 15.0
SILENCE = 45.0


def _env_seconds(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def create_app(hub: Hub, *, ping_every: float | None = None, silence: float | None = None,
               echo: bool | None = None, allowed_hosts: Sequence[str] | None = None,
               metrics_token: str | None = None, hints: Hints | None = None) -> FastAPI:
    """The app over ``hub`` (its tables and storage).

    ``allowed_hosts``: the ``Host`` names served (HTTP and WebSocket; ``*.lan``
    patterns and ``*`` as Starlette's TrustedHostMiddleware reads them); None
    serves any (``liverpool serve`` always gives them).

    ``ping_every`` and ``silence`` (default PING_EVERY and SILENCE, or the
    environment's LIVERPOOL_PING_EVERY and LIVERPOOL_SILENCE) are the seconds
    between the server's pings and of silence before it drops a connection.
    ``echo`` (default: LIVERPOOL_ECHO=1 in the environment) adds ``WS /ws-echo``,
    a bare WebSocket echo for benchmarks; never in production. ``GET /metrics``
    answers requests from this machine, or those that bring ``metrics_token``
    (default: LIVERPOOL_METRICS_TOKEN) as ``Authorization: Bearer …``.
    ``hints``: the hints' pool and budget (default: :class:`.hints.Hints` ())."""
    if echo is None:
        echo = os.environ.get("LIVERPOOL_ECHO") == "1"

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        count = hub.load()
        if count:
            log.info("resumed %d unfinished tables", count)
        hub.start()
        await hub.fanout.start()
        for table in hub.tables.values():
            table.schedule_moves()
        yield
        await hub.fanout.stop()
        app.state.reviews.close()
        app.state.hints.close()
        hub.close()

    app = FastAPI(title="liverpool-rummy", version=__version__, lifespan=lifespan,
                  description="Play Liverpool rummy with friends and bots. The WebSocket "
                              "protocol is described in docs/protocol.md.")
    app.state.hub = hub
    #: the coach's reviews, each in processes of its own (server/reviews.py)
    app.state.reviews = Reviews(hub.storage, hub.store,
                                processes=min(hub.limits.review_processes, os.cpu_count() or 1))
    #: hints at tables that allow them, in a worker process of their own (server/hints.py)
    app.state.hints = hints if hints is not None else Hints()
    app.state.allowed_hosts = None if allowed_hosts is None else list(allowed_hosts)
    if allowed_hosts is not None:  # (a refused Host: 400, before any route)
        app.add_middleware(HttpHosts, allowed_hosts=list(allowed_hosts), www_redirect=False)
    app.add_middleware(BodyGuard, limit=hub.limits.body_bytes, seconds=hub.limits.body_seconds)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.state.ping_every = ping_every or _env_seconds("LIVERPOOL_PING_EVERY", PING_EVERY)
    app.state.silence = silence or _env_seconds("LIVERPOOL_SILENCE", SILENCE)
    app.state.metrics_token = (metrics_token if metrics_token is not None
                               else os.environ.get(ENV_METRICS_TOKEN) or None)
    app.add_middleware(ProbeGuard, hub=hub)
    app.mount("/static", pages.StaticPages(directory=pages.STATIC), name="static")
    for router in (pages.router, table_routes.router, review_routes.router, pads.router,
                   stream.router, metrics_router):
        app.include_router(router)
    if echo:
        app.include_router(stream.echo_router)

    @app.exception_handler(StoreError)
    async def store_error(request: Request, e: StoreError) -> JSONResponse:
        lang = ui_language(request.query_params.get("lang", "en"))
        log.warning("storage: %s", e)
        return JSONResponse({"detail": error_detail("server_try_again", lang)}, status_code=503)

    @app.exception_handler(HubFull)
    async def hub_full(request: Request, e: HubFull) -> JSONResponse:
        lang = ui_language(request.query_params.get("lang", "en"))
        return JSONResponse({"detail": error_detail("server_busy", lang)}, status_code=503)

    @app.exception_handler(RulesError)
    async def rules_error(request: Request, e: RulesError) -> JSONResponse:
        lang = ui_language(request.query_params.get("lang", "en"))
        return JSONResponse({"detail": {"code": "rules", "message": i18n.error_text(e, lang)}},
                            status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_detail(request, e)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> Response:
        """The routes' own errors as they are; Starlette's (no such path, a
        method the path does not take) in the documented coded form too."""
        detail: Any = e.detail
        if not (isinstance(detail, dict) and "code" in detail):
            lang = ui_language(request.query_params.get("lang", "en"))
            if e.status_code == 404:
                detail = error_detail("server_no_such_path", lang)
            elif e.status_code == 405:
                detail = error_detail("server_bad_method", lang, method=request.method)
            else:
                detail = error_detail("server_refused", lang, status=e.status_code)
        return JSONResponse({"detail": detail}, status_code=e.status_code,
                            headers=dict(e.headers or {}))

    return app


def _validation_detail(request: Request, e: RequestValidationError) -> dict[str, Any]:
    """A refused request's ``detail``: the documented ``{"code", "message"}``
    (liverpool.server.inbound: ``server_bad_field`` naming the first field that
    is missing or wrong, ``server_bad_text``, ``server_bad_name``), in the
    language of the query's ``lang``, or else of the body's."""
    lang = request.query_params.get("lang")
    if lang is None and isinstance(e.body, dict) and isinstance(e.body.get("lang"), str):
        lang = e.body["lang"]
    refusal = refusal_of(e.errors())
    return error_detail(refusal.code, ui_language(lang or "en"), **refusal.params)
