"""What the HTTP routers share: the hub of the app, and the errors they answer
(``{"detail": {"code", "message"}}``, the message in the caller's language,
a sentence of its own: :func:`liverpool.i18n.error_text`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from .. import i18n
from .hub import Hub
from .probes import client_address, error_detail

__all__ = ["HubDep", "count_made", "http_error", "hub_of", "reason_error"]


def hub_of(request: Request) -> Hub:
    """The hub of the app that answers ``request``."""
    hub: Hub = request.app.state.hub
    return hub


#: a route's parameter for the hub: ``hub: HubDep``
HubDep = Annotated[Hub, Depends(hub_of)]


def http_error(status: int, error_code: str, lang: str = "en", **params: Any) -> HTTPException:
    """An HTTP error of ``error_code`` (liverpool.errors), in ``lang``."""
    return HTTPException(status, error_detail(error_code, lang, **params))


async def count_made(hub: Hub, request: Request, kind: str, lang: str) -> None:
    """Count one of ``kind`` ("tables", "pads") made by the request's address;
    past the caps per address, ``429 server_too_many_<kind>``."""
    if not await hub.limiter.may_create(client_address(request.scope), kind):
        hub.metrics.refused(kind)
        raise http_error(429, f"server_too_many_{kind}", lang,
                         minute=hub.limits.tables_per_minute, hour=hub.limits.tables_per_hour)


def reason_error(status: int, code: str, e: Exception, lang: str) -> HTTPException:
    """An HTTP error with ``code`` whose message is the reason ``e`` in ``lang``."""
    return HTTPException(status, {"code": code, "message": i18n.error_text(e, lang)})
