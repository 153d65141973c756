"""``/api/tables``: make a table, see it, join it, its invite link as a QR code, play
again, its replay and record; ``/api/games``: the finished games."""

from __future__ import annotations

import asyncio
import typing
from typing import Any

from fastapi import APIRouter, Header, Request, Response
from pydantic import Field

from .. import i18n
from ..rules import RulesError
from ..ruleset_io import describe_rules, load_preset
from .hub import Hub, HubFull
from .inbound import Body, Name
from .replays import Made
from .seats import BOT_LEVELS, TableSettings, invite_svg, names_language, people_names, seat_names
from .store import StoreError
from .table import Table
from .ui import ui_language
from .web import HubDep, count_made, http_error, reason_error

__all__ = ["JoinRequest", "SeatRequest", "TableRequest", "router"]

router = APIRouter()


class SeatRequest(Body):
    kind: typing.Literal["human", "bot"] = "human"
    level: str | None = Field(default=None, max_length=20)


class TableRequest(Body):
    preset: str = Field(default="liverpool", max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(default_factory=lambda: [
        SeatRequest(), SeatRequest(kind="bot"), SeatRequest(kind="bot"), SeatRequest(kind="bot")],
        max_length=16)
    turn_seconds: float | None = Field(default=None, ge=5, le=3600)
    away_seconds: float = Field(default=60, ge=5, le=86400)
    window_seconds: float = Field(default=15, ge=2, le=600)
    #: who may chat (seats.TableSettings.chat)
    chat: typing.Literal["all", "players", "off"] = "players"
    #: whether the players may ask for hints (seats.TableSettings.hints)
    hints: bool = False
    name: Name = ""
    lang: str = Field(default="en", max_length=16)
    #: wait in a waiting room until the creator starts the table (absent: if a
    #: seat besides the creator's is for a person); false: start at once
    wait: bool | None = None


class JoinRequest(Body):
    name: Name = ""
    lang: str = Field(default="en", max_length=16)


async def get_table(hub: Hub, code: str, lang: str = "en") -> Table:
    """The table of ``code`` (an HTTP 404 if there is none; 503 if it cannot be
    loaded now)."""
    try:
        table = await hub.get(code.upper())
    except StoreError:
        raise http_error(503, "server_try_again", lang) from None
    except HubFull:
        raise http_error(503, "server_busy", lang) from None
    if table is None:
        raise http_error(404, "server_no_table", lang, code=code[:16])
    return table


@router.post("/api/tables", status_code=201)
async def create_table(req: TableRequest, hub: HubDep, request: Request) -> dict[str, Any]:
    lang = ui_language(req.lang)
    try:
        rules = load_preset(req.preset, **req.options)
    except RulesError as e:
        raise reason_error(400, "rules", e, lang) from None
    except TypeError:
        raise http_error(400, "server_bad_options", lang) from None
    seats = [s.model_dump() for s in req.seats]
    if seats and seats[0]["kind"] != "human":
        # (the creator's seat: a table plays only once a person has come to it,
        # so a table of bots alone would never start; refused, not changed)
        raise http_error(400, "server_creator_seat", lang)
    if not seats:
        seats = [{"kind": "human"}]
    for s in seats:
        if s["kind"] == "bot" and (s.get("level") or "medium") not in BOT_LEVELS:
            raise http_error(400, "server_bad_bot_level", lang,
                             level=repr(str(s.get("level"))[:20]))
    lo, hi = rules.players
    if not lo <= len(seats) <= hi:  # (as the game would say, before the table is counted)
        raise reason_error(400, "rules", RulesError("rules_players_count", lo=lo, hi=hi,
                                                    players=len(seats)), lang)
    # (only a table that can be made counts: a refused one uses none of the quota)
    await count_made(hub, request, "tables", lang)
    waiting = (req.wait if req.wait is not None
               else any(s["kind"] == "human" for s in seats[1:]))
    settings = TableSettings(turn_seconds=req.turn_seconds, away_seconds=req.away_seconds,
                             window_seconds=req.window_seconds, chat=req.chat,
                             hints=req.hints, waiting=waiting, names_lang=lang)
    try:
        table, token = await hub.create_table(rules, req.preset, seats, settings,
                                              req.name or None)
    except RulesError as e:
        raise reason_error(400, "rules", e, lang) from None
    except StoreError:
        raise http_error(503, "server_try_again", lang) from None
    except HubFull:
        raise http_error(503, "server_busy", lang) from None
    return {"code": table.code, "seat": 0, "token": token, "url": f"/t/{table.code}"}


@router.get("/api/tables/{code}")
async def table_info(code: str, hub: HubDep, x_seat_token: str | None = Header(default=None),
                     lang: str = "en") -> dict[str, Any]:
    table = await get_table(hub, code, lang)
    you = await hub.find_seat(table, x_seat_token)
    info = table.info(seated=you is not None)  # (next_code: for its players only)
    info["you"] = you
    return info


@router.get("/api/tables/{code}/rules")
async def table_rules(code: str, hub: HubDep, lang: str = "en") -> dict[str, Any]:
    """The table's own ruleset (its preset with its house rules), as
    ``/api/rules/{preset}`` describes a preset."""
    table = await get_table(hub, code, lang)
    return describe_rules(table.rules, ui_language(lang))


@router.get("/api/tables/{code}/qr.svg")
async def invite_qr(code: str, hub: HubDep, request: Request, lang: str = "en") -> Response:
    """The QR code of the table's invite link (this server's ``/t/{code}``), as
    SVG: for friends in the same room to open it with a phone's camera."""
    table = await get_table(hub, code, lang)
    link = f"{str(request.base_url).rstrip('/')}/t/{table.code}"
    # (made in the work threads: a new code takes some tens of milliseconds)
    svg = await asyncio.get_running_loop().run_in_executor(hub.work, invite_svg, link)
    return Response(svg, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


@router.post("/api/tables/{code}/join")
async def join(code: str, req: JoinRequest, hub: HubDep,
               x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
    lang = ui_language(req.lang)
    table = await get_table(hub, code, lang)
    seat = await hub.find_seat(table, x_seat_token)
    if seat is not None:  # already seated: the same seat (a reload, another device)
        return {"seat": seat, "token": x_seat_token, "code": table.code}
    try:
        seat, token = await hub.join(table, req.name)
    except LookupError:
        raise http_error(409, "server_table_full", lang) from None
    except StoreError:
        raise http_error(503, "server_try_again", lang) from None
    return {"seat": seat, "token": token, "code": table.code}


@router.post("/api/tables/{code}/again")
async def again(code: str, hub: HubDep, request: Request,
                x_seat_token: str | None = Header(default=None),
                lang: str = "en") -> dict[str, Any]:
    table = await get_table(hub, code, lang)
    if await hub.find_seat(table, x_seat_token) is None:
        raise http_error(403, "server_spectator", lang)
    if not table.game.is_over:
        raise http_error(403, "server_not_finished", lang)
    if not table.record.next_code:  # (a new table counts; the one made is only looked up)
        await count_made(hub, request, "tables", lang)
    try:
        fresh = await hub.again(table)
    except StoreError:
        raise http_error(503, "server_try_again", lang) from None
    return {"code": fresh.code, "url": f"/t/{fresh.code}"}


@router.get("/api/tables/{code}/record")
async def record(code: str, hub: HubDep, request: Request, lang: str = "en") -> Response:
    """The whole record (every hand) once the game is over."""
    table = await get_table(hub, code, lang)
    if not table.game.is_over:
        raise http_error(403, "server_not_finished", lang)
    return _json(request, await hub.replays.record(table))


@router.get("/api/tables/{code}/replay")
async def replay_public(code: str, hub: HubDep, request: Request,
                        lang: str = "en") -> Response:
    """The public events so far (what a spectator saw), in ``lang``; after the
    end, the record too (made once per version and language, off the loop)."""
    table = await get_table(hub, code, lang)
    return _json(request, await hub.replays.replay(table, ui_language(lang)))


def _json(request: Request, made: Made) -> Response:
    """Made JSON: gzipped if the client takes it."""
    text, zipped = made
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(zipped, media_type="application/json",
                        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    return Response(text, media_type="application/json", headers={"Vary": "Accept-Encoding"})


@router.get("/api/games")
async def games(hub: HubDep, limit: int = 50) -> list[dict[str, Any]]:
    """Finished games, newest first."""
    try:
        records = await hub.storage.in_thread(hub.store.tables, "finished",
                                              max(1, min(limit, 200)))
    except StoreError:
        raise http_error(503, "server_try_again") from None
    out = []
    for r in records:
        totals = await hub.totals(r)
        out.append({"code": r.code, "preset": r.preset, "finished": r.finished,
                    "names": people_names(r.seats),
                    # (each language's names as the table, replay and review show them)
                    "seat_names": {lang: seat_names(r.seats, lang, names_language(r.settings))
                                   for lang in i18n.LANGUAGES},
                    "kinds": [s.kind for s in r.seats], "totals": totals})
    return out
