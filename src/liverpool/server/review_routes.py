"""``/api/tables/{code}/review``: the coach's review of one seat of a
finished game (docs/protocol.md, "Review"), made in the background
(:mod:`.reviews`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Request
from pydantic import Field

from .inbound import Body
from .reviews import Reviews, ReviewsFull, seat_moves
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
async def start_review(code: str, body: ReviewRequest, hub: HubDep, request: Request,
                       x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    """Start the review of ``seat`` (once made, it is kept): its status. Only
    the table's players (their seat token) start one; anyone reads it."""
    lang = ui_language(body.lang)
    table = await get_table(hub, code, lang)
    game = table.game
    if not game.is_over:
        raise http_error(403, "server_not_finished", lang)
    if body.seat >= game.num_players:
        raise http_error(422, "server_bad_field", lang, field="seat")
    if await hub.find_seat(table, x_seat_token) is None:
        raise http_error(403, "server_review_players", lang)
    reviews = reviews_of(request)
    most = hub.limits.review_decisions
    moves = seat_moves(game, body.seat)
    if moves > most:
        now = await reviews.status(table.code, body.seat, lang)
        if now["status"] not in ("none", "failed"):  # (made before: it is kept)
            return now
        raise http_error(422, "server_review_too_long", lang, moves=moves, limit=most)
    try:
        return await reviews.start(table.code, game, body.seat, lang)
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
