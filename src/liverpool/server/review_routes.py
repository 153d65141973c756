"""``/api/tables/{code}/review``: the coach's review of one seat of a
finished game (docs/protocol.md, "Review"), made in the background
(:mod:`.reviews`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from .inbound import Body
from .reviews import Reviews, ReviewsFull
from .table_routes import get_table
from .ui import ui_language
from .web import HubDep, http_error

__all__ = ["ReviewRequest", "router"]

router = APIRouter()


class ReviewRequest(Body):
    seat: int = Field(ge=0, le=63)
    lang: str = Field(default="en", max_length=16)


def reviews_of(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


@router.post("/api/tables/{code}/review")
async def start_review(code: str, body: ReviewRequest, hub: HubDep,
                       request: Request) -> dict[str, Any]:
    """Start the review of ``seat`` (once made, it is kept): its status."""
    lang = ui_language(body.lang)
    table = await get_table(hub, code, lang)
    game = table.game
    if not game.is_over:
        raise http_error(403, "server_not_finished", lang)
    if body.seat >= game.num_players:
        raise http_error(422, "server_bad_field", lang, field="seat")
    try:
        return await reviews_of(request).start(table.code, game, body.seat, lang)
    except ReviewsFull:
        raise http_error(503, "server_busy", lang) from None


@router.get("/api/tables/{code}/review")
async def review_status(code: str, hub: HubDep, request: Request, seat: int = 0,
                        lang: str = "en") -> dict[str, Any]:
    """The review of ``seat``: ``{"status", "done", "total"}``, and ``review`` once made."""
    lang = ui_language(lang)
    table = await get_table(hub, code, lang)
    if not 0 <= seat < table.game.num_players:
        raise http_error(422, "server_bad_field", lang, field="seat")
    return await reviews_of(request).status(table.code, seat, lang)
