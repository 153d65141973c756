"""What the HTTP routers share: the hub of the app, and the errors they answer
(``{"detail": {"code", "message"}}``, the message in the caller's language,
a sentence of its own: :func:`liverpool.i18n.error_text`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request

from .. import i18n
from ..errors import GameError
from .hub import Hub

__all__ = ["HubDep", "http_error", "hub_of", "reason_error"]


def hub_of(request: Request) -> Hub:
    """The hub of the app that answers ``request``."""
    hub: Hub = request.app.state.hub
    return hub


#: a route's parameter for the hub: ``hub: HubDep``
HubDep = Annotated[Hub, Depends(hub_of)]


def http_error(status: int, error_code: str, lang: str = "en", **params: Any) -> HTTPException:
    """An HTTP error of ``error_code`` (liverpool.errors), in ``lang``."""
    e = GameError(error_code, **params)
    return HTTPException(status, {"code": error_code, "message": i18n.error_text(e, lang)})


def reason_error(status: int, code: str, e: Exception, lang: str) -> HTTPException:
    """An HTTP error with ``code`` whose message is the reason ``e`` in ``lang``."""
    return HTTPException(status, {"code": code, "message": i18n.error_text(e, lang)})
