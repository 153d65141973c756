"""The game server's HTTP and WebSocket interface (FastAPI on Starlette).

Routes (docs/protocol.md has every message with examples):

* ``GET /healthz``; the OpenAPI description at ``/docs``.
* ``GET /`` and the page routes ``/t/{code}``, ``/pad/{id}``, ``/games``: the
  front end (it ships in this package: ``static/``).
* ``/api/...``: presets and their options, tables (create, join, play again,
  record), finished games, score pads, the page's words.
* ``WS /ws/{code}?token=…&lang=…``: one table's stream; the seat comes from
  the token of the connection, never from a message.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import json
import logging
import os
import time
import typing
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from .. import __version__, i18n
from ..actions import ActionError, LayDown, action_from_json
from ..cards import Card, CardError
from ..engine import Game, outcome_from_json
from ..errors import GameError
from ..events import RoundEnded
from ..melds import MeldError, arrange_meld
from ..rules import Rules, RulesError
from ..ruleset_io import OPTION_NAMES, PRESETS, load_rules, rules_from_dict
from .store import PadRecord, StoreError
from .tables import BOT_LEVELS, Client, Hub, Table, TableSettings, new_code
from .ui import ui_language, ui_words

__all__ = ["MAX_MESSAGE", "create_app"]

log = logging.getLogger("liverpool.server")

STATIC = Path(__file__).resolve().parent / "static"
#: the largest message a client may send, in bytes
MAX_MESSAGE = 16 * 1024
#: a client's message budget: a burst of this many, refilled at RATE per second
BURST = 40
RATE = 20.0
#: seconds between the server's pings, and of silence before it drops a connection
PING_EVERY = 15.0
SILENCE = 45.0
#: the options the lobby shows first (the common house rules)
COMMON_OPTIONS = ("buy_limit_per_round", "jokers_per_deck", "jokers_total", "deal",
                  "discard_call", "final_round", "buying", "contract_exact")


def _error(status: int, error_code: str, lang: str = "en", **params: Any) -> HTTPException:
    e = GameError(error_code, **params)
    return HTTPException(status, {"code": error_code, "message": i18n.render(e, lang)})


class SeatRequest(BaseModel):
    kind: typing.Literal["human", "bot"] = "human"
    level: str | None = None


class TableRequest(BaseModel):
    preset: str = "liverpool"
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(default_factory=lambda: [
        SeatRequest(), SeatRequest(kind="bot"), SeatRequest(kind="bot"), SeatRequest(kind="bot")])
    turn_seconds: float | None = Field(default=None, ge=5, le=3600)
    away_seconds: float = Field(default=60, ge=5, le=86400)
    window_seconds: float = Field(default=15, ge=2, le=600)
    name: str = Field(default="", max_length=40)
    lang: str = "en"


class JoinRequest(BaseModel):
    name: str = Field(default="", max_length=40)
    lang: str = "en"


class PadRequest(BaseModel):
    preset: str = "liverpool"
    names: list[str] = Field(min_length=2, max_length=8)
    lang: str = "en"


class PadRound(BaseModel):
    round: int = Field(ge=1, le=50)
    points: list[int] | None = None
    hands: list[list[str]] | None = None


def _clean_name(name: str) -> str:
    return " ".join(name.split())[:40]


def _env_seconds(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def create_app(hub: Hub, *, ping_every: float | None = None, silence: float | None = None,
               echo: bool | None = None) -> FastAPI:
    """The app over ``hub`` (its tables and storage).

    ``ping_every`` and ``silence`` (default PING_EVERY and SILENCE, or the
    environment's LIVERPOOL_PING_EVERY and LIVERPOOL_SILENCE) are the seconds
    between the server's pings and of silence before it drops a connection.
    ``echo`` (default: LIVERPOOL_ECHO=1 in the environment) adds ``WS /ws-echo``,
    a bare WebSocket echo for benchmarks; never in production."""
    ping_every = ping_every or _env_seconds("LIVERPOOL_PING_EVERY", PING_EVERY)
    silence = silence or _env_seconds("LIVERPOOL_SILENCE", SILENCE)
    if echo is None:
        echo = os.environ.get("LIVERPOOL_ECHO") == "1"

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        count = hub.load()
        if count:
            log.info("resumed %d unfinished tables", count)
        await hub.fanout.start()
        for table in hub.tables.values():
            table.plan()
        yield
        await hub.fanout.stop()
        hub.close()

    app = FastAPI(title="liverpool-rummy", version=__version__, lifespan=lifespan,
                  description="Play Liverpool rummy with friends and bots. The WebSocket "
                              "protocol is described in docs/protocol.md.")
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # --------------------------------------------------------------- pages
    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", **hub.fanout.status()}

    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return page()

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return page()

    @app.get("/pad/{pad_id}", include_in_schema=False)
    async def pad_page(pad_id: str) -> FileResponse:
        return page()

    @app.get("/pad", include_in_schema=False)
    async def new_pad_page() -> FileResponse:
        return page()

    @app.get("/games", include_in_schema=False)
    async def games_page() -> FileResponse:
        return page()

    @app.get("/replay/{code}", include_in_schema=False)
    async def replay_page(code: str) -> FileResponse:
        return page()

    # ------------------------------------------------------------ the words
    @app.get("/api/i18n/{lang}")
    async def words(lang: str) -> dict[str, Any]:
        """The page's words in ``lang`` (en, nb, da)."""
        return ui_words(lang)

    # -------------------------------------------------------------- presets
    @app.get("/api/presets")
    async def presets(lang: str = "en") -> list[dict[str, Any]]:
        out = []
        for name in PRESETS:
            rules = load_rules(name)
            out.append({"name": name, "label": ui_words(lang)["words"].get(f"preset_{name}", name),
                        "players": list(rules.players)})
        return out

    @app.get("/api/rules/{preset}")
    async def rules_of(preset: str, lang: str = "en") -> dict[str, Any]:
        """The options of ``preset`` for the lobby: every one with its value,
        its kind and choices, its name and meaning in ``lang``; and the rounds."""
        try:
            rules = load_rules(preset)
        except RulesError as e:
            raise HTTPException(404, {"code": "rules", "message": i18n.render(e, lang)}) from None
        return describe_rules(rules, lang)

    # --------------------------------------------------------------- tables
    @app.post("/api/tables", status_code=201)
    async def create_table(req: TableRequest) -> dict[str, Any]:
        lang = ui_language(req.lang)
        try:
            rules = load_rules(req.preset, **req.options)
        except RulesError as e:
            raise HTTPException(400, {"code": "rules", "message": i18n.render(e, lang)}) from None
        except TypeError:
            raise _error(400, "server_bad_options", lang) from None
        seats = [s.model_dump() for s in req.seats]
        if not seats or seats[0]["kind"] != "human":
            seats = [{"kind": "human"}, *seats[1:]] if seats else [{"kind": "human"}]
        for s in seats:
            if s["kind"] == "bot" and (s.get("level") or "medium") not in BOT_LEVELS:
                raise _error(400, "server_bad_bot_level", lang,
                             level=repr(str(s.get("level"))[:20]))
        settings = TableSettings(turn_seconds=req.turn_seconds, away_seconds=req.away_seconds,
                                 window_seconds=req.window_seconds)
        try:
            table, token = await asyncio.to_thread(
                hub.create, rules, req.preset, seats, settings, _clean_name(req.name) or None)
        except RulesError as e:
            raise HTTPException(400, {"code": "rules", "message": i18n.render(e, lang)}) from None
        except StoreError:
            raise _error(503, "server_try_again", lang) from None
        table.plan()
        return {"code": table.code, "seat": 0, "token": token, "url": f"/t/{table.code}"}

    def get_table(code: str, lang: str = "en") -> Table:
        table = hub.get(code.upper())
        if table is None:
            raise _error(404, "server_no_table", lang, code=code[:16])
        return table

    @app.get("/api/tables/{code}")
    async def table_info(code: str, x_seat_token: str | None = Header(default=None),
                         lang: str = "en") -> dict[str, Any]:
        table = get_table(code, lang)
        info = table.info()
        info["you"] = await hub.find_seat(table, x_seat_token)
        return info

    @app.get("/api/tables/{code}/rules")
    async def table_rules(code: str, lang: str = "en") -> dict[str, Any]:
        """The table's own ruleset (its preset with its house rules), as
        ``/api/rules/{preset}`` describes a preset."""
        table = get_table(code, lang)
        return describe_rules(table.rules, ui_language(lang))

    @app.post("/api/tables/{code}/join")
    async def join(code: str, req: JoinRequest,
                   x_seat_token: str | None = Header(default=None)) -> dict[str, Any]:
        lang = ui_language(req.lang)
        table = get_table(code, lang)
        seat = await hub.find_seat(table, x_seat_token)
        if seat is not None:  # already seated: the same seat (a reload, another device)
            return {"seat": seat, "token": x_seat_token, "code": table.code}
        try:
            seat, token = await hub.join(table, _clean_name(req.name))
        except LookupError:
            raise _error(409, "server_table_full", lang) from None
        except StoreError:
            raise _error(503, "server_try_again", lang) from None
        return {"seat": seat, "token": token, "code": table.code}

    @app.post("/api/tables/{code}/again")
    async def again(code: str, x_seat_token: str | None = Header(default=None),
                    lang: str = "en") -> dict[str, Any]:
        table = get_table(code, lang)
        if await hub.find_seat(table, x_seat_token) is None:
            raise _error(403, "server_spectator", lang)
        try:
            fresh = await hub.again(table)
        except StoreError:
            raise _error(503, "server_try_again", lang) from None
        return {"code": fresh.code, "url": f"/t/{fresh.code}"}

    @app.get("/api/tables/{code}/record")
    async def record(code: str, lang: str = "en") -> dict[str, Any]:
        """The whole record (every hand) once the game is over."""
        table = get_table(code, lang)
        if not table.game.is_over:
            raise _error(403, "server_not_finished", lang)
        return {"table": table.info(), "record": table.game.record()}

    @app.get("/api/tables/{code}/replay")
    async def replay_public(code: str, lang: str = "en") -> dict[str, Any]:
        """The public events so far (what a spectator saw), in ``lang``; after the
        end, the record too."""
        table = get_table(code, lang)
        names = table.names(ui_language(lang))
        events: list[dict[str, Any]] = [
            {"event": e.to_json(), "text": i18n.render(e, lang, names, symbols=True)}
            for e in table.game.events_for(None)]
        out: dict[str, Any] = {"table": table.info(), "events": events,
                               "over": table.game.is_over}
        if table.game.is_over:  # every hand may be shown now: with each step, the hands
            out["record"] = table.game.record()
            for item, hands in zip(events, hands_by_event(table.game), strict=True):
                item["hands"] = [[str(c) for c in h] for h in hands]
        return out

    @app.get("/api/games")
    async def games(limit: int = 50) -> list[dict[str, Any]]:
        """Finished games, newest first."""
        records = await asyncio.to_thread(hub.store.tables, "finished", max(1, min(limit, 200)))
        out = []
        for r in records:
            totals = await asyncio.to_thread(hub.totals, r)
            out.append({"code": r.code, "preset": r.preset, "finished": r.finished,
                        "names": [s.name for s in r.seats],
                        "kinds": [s.kind for s in r.seats], "totals": totals})
        return out

    # ----------------------------------------------------------------- pads
    @app.post("/api/pads", status_code=201)
    async def new_pad(req: PadRequest) -> dict[str, Any]:
        lang = ui_language(req.lang)
        try:
            rules = load_rules(req.preset)
        except RulesError as e:
            raise HTTPException(400, {"code": "rules", "message": i18n.render(e, lang)}) from None
        names = [_clean_name(n) or i18n.default_name(i, lang) for i, n in enumerate(req.names)]
        pad = PadRecord(new_code(8), time.time(), {
            "preset": req.preset, "rules": rules.to_dict(), "names": names, "rounds": []})
        await asyncio.to_thread(hub.store.save_pad, pad)
        return pad_json(pad, lang)

    @app.get("/api/pads/{pad_id}")
    async def get_pad(pad_id: str, lang: str = "en") -> dict[str, Any]:
        pad = await asyncio.to_thread(hub.store.pad, pad_id.upper())
        if pad is None:
            raise _error(404, "server_no_pad", lang, code=pad_id[:16])
        return pad_json(pad, lang)

    @app.put("/api/pads/{pad_id}/rounds")
    async def pad_round(pad_id: str, req: PadRound, lang: str = "en") -> dict[str, Any]:
        """Enter a round's points: ``points`` per player, or ``hands`` (the cards
        left in each hand, the pad counts them)."""
        pad = await asyncio.to_thread(hub.store.pad, pad_id.upper())
        if pad is None:
            raise _error(404, "server_no_pad", lang, code=pad_id[:16])
        rules = rules_from_dict(pad.data["rules"])
        n = len(pad.data["names"])
        if req.hands is not None:
            if len(req.hands) != n:
                raise _error(400, "server_bad_points", lang)
            try:
                points = [rules.hand_points([Card.parse(c) for c in hand]) for hand in req.hands]
            except CardError as e:
                raise HTTPException(400, {"code": "card", "message": i18n.render(e, lang)}) \
                    from None
        elif req.points is not None and len(req.points) == n:
            points = list(req.points)
        else:
            raise _error(400, "server_bad_points", lang)
        rounds = list(pad.data["rounds"])
        if req.round > rules.num_rounds or req.round > len(rounds) + 1:
            raise _error(400, "server_bad_points", lang)
        if req.round == len(rounds) + 1:
            rounds.append(points)
        else:
            rounds[req.round - 1] = points
        pad.data = dict(pad.data, rounds=rounds)
        await asyncio.to_thread(hub.store.save_pad, pad)
        return pad_json(pad, lang)

    # ------------------------------------------------------------ WebSocket
    @app.websocket("/ws/{code}")
    async def stream(ws: WebSocket, code: str, token: str | None = None,
                     lang: str = "en", symbols: bool = False) -> None:
        origin = ws.headers.get("origin")
        host = ws.headers.get("host", "")
        if origin and urlsplit(origin).netloc != host:
            await ws.close(code=1008)  # a foreign page may not play for you (HTTP 403)
            return
        lang = ui_language(lang)
        try:
            table = hub.get(code.upper())
        except StoreError:
            table = None
            failed: str | None = "server_try_again"
        else:
            failed = None if table is not None else "server_no_table"
        await ws.accept()
        if table is None:
            failed = failed or "server_no_table"
            await ws.send_text(json.dumps({"type": "error", "n": 0, "code": failed,
                                           "message": i18n.render(
                                               GameError(failed, code=code[:16]), lang)}))
            await ws.close(code=4404 if failed == "server_no_table" else 1013)
            return
        try:
            seat = await hub.find_seat(table, token)
        except StoreError:
            await ws.send_text(json.dumps({"type": "error", "n": 0, "code": "server_try_again",
                                           "message": i18n.render(
                                               GameError("server_try_again"), lang)}))
            await ws.close(code=1013)
            return
        client = Client(seat, lang, symbols)
        table.connect(client)  # the snapshot first, then the others hear of it
        writer = asyncio.create_task(_write(ws, client))
        pinger = asyncio.create_task(_ping(table, client, ping_every))
        bucket = _Bucket()
        try:
            while True:
                try:
                    message = await asyncio.wait_for(ws.receive(), timeout=silence)
                except TimeoutError:  # a dead connection: the client reconnects
                    with contextlib.suppress(Exception):
                        await ws.close(code=1001)
                    break
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is not None:
                    size = len(text) if text.isascii() else len(text.encode())
                else:  # a binary frame: UTF-8 text, or not JSON
                    data = message.get("bytes") or b""
                    size = len(data)
                    try:
                        text = data.decode()
                    except UnicodeDecodeError:
                        text = None
                try:
                    await _handle(hub, table, client, text, size, bucket)
                except Exception:  # noqa: BLE001 - one message's fault must not end the connection
                    log.exception("table %s: a message failed", table.code)
                    client.send(table.error(client, GameError("server_try_again")))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            table.disconnect(client)
            client.close()
            pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(writer, timeout=1.0)
            writer.cancel()

    if echo:
        @app.websocket("/ws-echo")
        async def echo_stream(ws: WebSocket) -> None:
            """Every text message back as it came (benchmarks only)."""
            await ws.accept()
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                while True:
                    await ws.send_text(await ws.receive_text())

    @app.exception_handler(StoreError)
    async def store_error(request: Request, e: StoreError) -> JSONResponse:
        lang = ui_language(request.query_params.get("lang", "en"))
        log.warning("storage: %s", e)
        return JSONResponse({"detail": {"code": "server_try_again", "message": i18n.render(
            GameError("server_try_again"), lang)}}, status_code=503)

    @app.exception_handler(RulesError)
    async def rules_error(request: Request, e: RulesError) -> JSONResponse:
        return JSONResponse({"detail": {"code": "rules", "message": str(e)}}, status_code=400)

    return app


class _Bucket:
    """A token bucket: a burst of BURST messages, refilled at RATE per second."""

    def __init__(self) -> None:
        self.tokens = float(BURST)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _write(ws: WebSocket, client: Client) -> None:
    while True:
        message = await client.queue.get()
        if message is None:
            return
        if not isinstance(message, str):
            message = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        await ws.send_text(message)


async def _ping(table: Table, client: Client, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        client.send({"type": "ping", "n": table.game.version})


async def _handle(hub: Hub, table: Table, client: Client, text: str | None, size: int,
                  bucket: _Bucket) -> None:
    """One message of a client (``text``: None if it was not UTF-8; ``size`` in
    bytes): an answer to it, or an error."""
    def refuse(code: str, **params: Any) -> None:
        client.send(table.error(client, GameError(code, **params)))

    if not bucket.take():
        refuse("server_rate_limited")
        return
    if size > MAX_MESSAGE:
        refuse("server_too_big", limit=MAX_MESSAGE)
        return
    if text is None:
        refuse("server_bad_json")
        return
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        refuse("server_bad_json")
        return
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        refuse("server_bad_message")
        return
    kind = message["type"]
    if kind == "ping":
        client.send({"type": "pong", "n": table.game.version})
    elif kind == "pong":
        pass
    elif kind == "action":
        if client.seat is None:
            refuse("server_spectator")
            return
        version = message.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            refuse("action_needs_number", key="version")  # (in the player's language)
            return
        try:
            action = action_from_json(message.get("action"))
            await table.submit(client.seat, action, version)
        except ActionError as e:
            client.send(table.error(client, e))
        except StoreError:
            refuse("server_try_again")
    elif kind == "sync":
        since = message.get("events_since")
        if since is not None and (not isinstance(since, int) or isinstance(since, bool)):
            since = None
        client.send(table.snapshot(client, since))
    elif kind == "lang":
        client.lang = ui_language(str(message.get("lang", "en")))
        client.symbols = bool(message.get("symbols", client.symbols))
        client.send(table.snapshot(client))
    elif kind == "settings":
        if client.seat is None:
            refuse("server_spectator")
            return
        if "auto_pass" in message:
            try:
                await hub.set_auto_pass(table, client.seat, bool(message["auto_pass"]))
            except StoreError:
                refuse("server_try_again")
                return
        client.send({"type": "settings", "n": table.game.version,
                     "auto_pass": table.seats[client.seat].record.auto_pass})
    elif kind == "check":
        client.send(check_lay_down(table, client, message.get("melds")))
    else:
        refuse("server_unknown_message", kind=repr(kind[:30]))


def check_lay_down(table: Table, client: Client, groups: Any) -> dict[str, Any]:
    """Cards grouped into melds by a player → the lay-down action(s) they can
    be, or the reason they are none (in the player's language)."""
    game = table.game

    def answer(ok: bool, **extra: Any) -> dict[str, Any]:
        return {"type": "check", "n": game.version, "ok": ok, **extra}

    def reason(e: Exception) -> dict[str, Any]:
        return answer(False, code=getattr(e, "code", "error"), message=i18n.render(
            e, client.lang, table.names(client.lang), symbols=client.symbols))

    # Only the seat that may lay down now, and only against its own hand: the
    # answers (which cards are not held, ...) must never describe another hand.
    if client.seat is None:
        return reason(GameError("server_spectator"))
    if (not isinstance(groups, list) or not groups or len(groups) > 12
            or not all(isinstance(g, list) and 0 < len(g) <= 30 for g in groups)
            or not all(isinstance(c, str) for g in groups for c in g)):
        return reason(GameError("action_needs_melds"))
    if (game.phase != "play" or game.to_move != client.seat
            or game.turn_player != client.seat):
        return reason(GameError("lay_down_not_now"))
    try:
        cards = [[Card.parse(c) for c in g] for g in groups]
    except CardError as e:
        return reason(e)
    options = [arrange_meld(g, game.rules) for g in cards]
    for g, opts in zip(cards, options, strict=True):
        if not opts:
            return reason(GameError("meld_invalid", cards=tuple(g)))
    found: list[LayDown] = []
    first_error: Exception | None = None
    for combo in itertools.islice(itertools.product(*options), 512):
        lay_down = LayDown(tuple(combo))
        why = game.check_lay_down(lay_down.melds)
        if why is None:
            if lay_down not in found:
                found.append(lay_down)
        elif first_error is None:
            try:
                game.copy().apply(lay_down, seat=client.seat)
            except (ActionError, MeldError) as e:
                first_error = e
    if not found:
        return reason(first_error or GameError("server_no_lay_down"))
    return answer(True, actions=[a.to_json() for a in found[:24]],
                  texts=[i18n.render(a, client.lang, symbols=client.symbols) for a in found[:24]])


def hands_by_event(game: Game) -> list[list[list[Card]]]:
    """For every event of a finished game, the hands at that point (replayed
    from its record): the hands after the action that caused the event, and for
    the events that end a round, the hands left at its end."""
    record = game.record()
    again = Game(game.rules, players=game.num_players, seed=game.seed, chance=[
        outcome_from_json(o) for o in record["chance"]])

    def hands() -> list[list[Card]]:
        return [sorted(again.hand(s), key=lambda c: c.index) for s in range(again.num_players)]

    out: list[list[list[Card]]] = [hands() for _ in again.events]
    for action, seat in zip(game.history, game.history_seats, strict=True):
        new = again.apply(action, seat=seat)
        after = hands()
        ends = [i for i, e in enumerate(new) if isinstance(e, RoundEnded)]
        for i, _e in enumerate(new):
            if ends and i <= ends[0]:
                left = new[ends[0]]
                assert isinstance(left, RoundEnded)
                out.append([list(h) for h in left.hands_left])
            else:
                out.append(after)
    return out


# ------------------------------------------------------------ descriptions
def describe_rules(rules: Rules, lang: str) -> dict[str, Any]:
    """A ruleset for the lobby and the rules page: every option with its value,
    kind, choices, name and meaning in ``lang``, and the rounds."""
    hints = typing.get_type_hints(Rules)
    data = rules.to_dict()
    options = []
    for key in OPTION_NAMES:
        if key == "name":
            continue
        value = data.get(key)
        kind, choices = _option_kind(hints.get(key))
        options.append({
            "key": key, "value": value, "kind": kind,
            "choices": [{"value": c, "label": i18n.describe_value(key, c, lang)} for c in choices],
            "name": i18n.option_name(key, lang),
            "description": i18n.option_description(key, lang),
            "text": i18n.describe_value(key, value, lang, rules),
            "common": key in COMMON_OPTIONS,
        })
    rounds = [{"round": r, "contract": {"sets": rules.contract(r).sets,
                                        "runs": rules.contract(r).runs},
               "contract_text": i18n.contract_words(rules.contract(r).sets,
                                                    rules.contract(r).runs, lang),
               "deal": rules.cards_dealt(r)} for r in range(1, rules.num_rounds + 1)]
    return {"name": rules.name, "players": list(rules.players), "options": options,
            "rounds": rounds}


def _option_kind(hint: Any) -> tuple[str, list[Any]]:
    """The lobby's kind of an option (bool, int, choice, int_or, json) and its choices."""
    if hint is bool:
        return "bool", []
    if hint is int:
        return "int", []
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Literal:
        return "choice", list(args)
    words = [w for a in args if typing.get_origin(a) is typing.Literal for w in typing.get_args(a)]
    if int in args and words:
        return "int_or", words
    return "json", []


def pad_json(pad: PadRecord, lang: str) -> dict[str, Any]:
    rules = rules_from_dict(pad.data["rules"])
    names = pad.data["names"]
    rounds = pad.data["rounds"]
    totals = [sum(r[i] for r in rounds) for i in range(len(names))]
    running = []
    acc = [0] * len(names)
    for r in rounds:
        acc = [a + p for a, p in zip(acc, r, strict=True)]
        running.append(list(acc))
    best = min(totals) if rounds else None
    return {
        "id": pad.id, "preset": pad.data["preset"], "names": names, "rounds": rounds,
        "totals": totals, "running": running,
        "leaders": [i for i, t in enumerate(totals) if rounds and t == best],
        "plan": describe_rules(rules, lang)["rounds"],
        "points": dataclasses.asdict(rules.points),
        "url": f"/pad/{pad.id}",
    }
