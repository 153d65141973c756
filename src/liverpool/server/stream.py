"""``WS /ws/{code}``: one connection to one table. The seat comes from the
connection's token, never from a message; every message a client sends gets
an answer or a coded error, and the connection lives on."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .. import i18n
from ..actions import ActionError, LayDown, action_from_json
from ..cards import Card
from ..errors import GameError
from ..rules import Rules
from .guard import host_allowed
from .hints import HintRate, Hints
from .hub import Hub, HubFull
from .inbound import (
    ActionMessage,
    ChatMessage,
    CheckMessage,
    HintMessage,
    LangMessage,
    PingMessage,
    Refusal,
    SeatMessage,
    SettingsMessage,
    StartMessage,
    SyncMessage,
    read_message,
)
from .messages import Client, dumps
from .store import StoreError
from .table import Table
from .ui import ui_language

__all__ = ["BURST", "FRAME_LIMIT", "MAX_MESSAGE", "RATE", "SUBPROTOCOL", "TOKEN_PREFIX",
           "echo_router", "offered_token", "router"]

log = logging.getLogger("liverpool.server")

#: the largest message a client may send, in bytes (a longer one gets server_too_big)
MAX_MESSAGE = 16 * 1024
#: the WebSocket layer's own limit on a frame (uvicorn's ws_max_size), well above
#: MAX_MESSAGE: only a frame over it closes the connection (1009)
FRAME_LIMIT = 256 * 1024
#: a client's message budget: a burst of this many, refilled at RATE per second
BURST = 40
RATE = 20.0
#: a client's snapshots asked for (``sync``, ``lang``): a burst of this many,
#: refilled at SNAPSHOT_RATE per second (a client needs one after a gap)
SNAPSHOT_BURST = 4
SNAPSHOT_RATE = 0.5

#: the subprotocol of the game's WebSocket, and the prefix of the one that
#: carries the seat token: a client offers ``["liverpool", "token.<TOKEN>"]``
SUBPROTOCOL = "liverpool"
TOKEN_PREFIX = "token."  # noqa: S105 - the subprotocol's prefix, not a secret

router = APIRouter()
echo_router = APIRouter()
#: the name of each connection of the process (its own chat rate)
_connection_names = itertools.count(1)


def offered_token(ws: WebSocket) -> tuple[str | None, str | None]:
    """The seat token the connection offers as a subprotocol (None: a
    spectator), and the subprotocol to accept (None: none offered)."""
    offered = [str(p) for p in ws.scope.get("subprotocols") or ()]
    token = next((p[len(TOKEN_PREFIX):] for p in offered if p.startswith(TOKEN_PREFIX)), None)
    return token or None, SUBPROTOCOL if SUBPROTOCOL in offered else None


#: the values of the URL's ``symbols`` (a query's text, read exactly)
QUERY_BOOLEANS = {"true": True, "false": False}


@router.websocket("/ws/{code}")
async def stream(ws: WebSocket, code: str, lang: str = "en", symbols: str = "false") -> None:
    hub: Hub = ws.app.state.hub
    origin = ws.headers.get("origin")
    host = ws.headers.get("host", "")
    if not host_allowed(host, ws.app.state.allowed_hosts):
        await ws.close(code=1008)  # another host's name (DNS rebinding): HTTP 403
        return
    if origin and urlsplit(origin).netloc != host:
        await ws.close(code=1008)  # a foreign page may not play for you (HTTP 403)
        return
    lang = ui_language(lang)
    address = ws.client.host if ws.client else ""
    token, subprotocol = offered_token(ws)  # (never a ?token= in the URL: URLs get logged)
    if symbols not in QUERY_BOOLEANS:  # exactly true or false, never "yes" or "1"
        await _refuse(ws, subprotocol, "server_bad_field", lang, 1008, field="symbols")
        return
    if not hub.limiter.connect(address):
        hub.metrics.refused("connections")
        await _refuse(ws, subprotocol, "server_too_many_connections", lang, 1008,
                      limit=hub.limits.connections_per_address)
        return
    try:
        wait = hub.limiter.pace_connection()
        if wait > 0:  # many arriving at once: each waits its turn
            await asyncio.sleep(wait)
        await _connected(ws, hub, code, token, subprotocol, lang, QUERY_BOOLEANS[symbols],
                         address)
    finally:
        hub.limiter.disconnect(address)


async def _refuse(ws: WebSocket, subprotocol: str | None, failed: str, lang: str, close: int,
                  **params: Any) -> None:
    """Accept, send the ``error`` ``failed`` and close with ``close``."""
    await ws.accept(subprotocol=subprotocol)
    error = GameError(failed, **params)
    await ws.send_text(json.dumps({"type": "error", "n": 0, "code": failed,
                                   "message": i18n.error_text(error, lang),
                                   "params": error.to_json()["params"]}))
    await ws.close(code=close)


async def _connected(ws: WebSocket, hub: Hub, code: str, token: str | None,
                     subprotocol: str | None, lang: str, symbols: bool, address: str) -> None:
    ping_every: float = ws.app.state.ping_every
    silence: float = ws.app.state.silence
    if not await hub.limiter.may_probe(address):
        hub.metrics.refused("probes")
        await _refuse(ws, subprotocol, "server_too_many_probes", lang, 1008)
        return
    try:
        table = await hub.get(code.upper())
    except StoreError:
        await _refuse(ws, subprotocol, "server_try_again", lang, 1013)
        return
    except HubFull:
        await _refuse(ws, subprotocol, "server_busy", lang, 1013)
        return
    if table is None:
        await hub.limiter.missed(address)
        await _refuse(ws, subprotocol, "server_no_table", lang, 4404, code=code[:16])
        return
    try:
        seat = await hub.find_seat(table, token)
    except StoreError:
        await _refuse(ws, subprotocol, "server_try_again", lang, 1013)
        return
    if seat is None and table.spectators() >= hub.limits.spectators_per_table:
        hub.metrics.refused("spectators")
        await _refuse(ws, subprotocol, "server_too_many_spectators", lang, 1008,
                      limit=hub.limits.spectators_per_table)
        return
    # (a long game's events for a new seat, language and symbols: made in a
    # worker, not on the event loop that every table shares)
    await table.prepare_events(seat, lang, symbols, None, hub.work)
    # open once the seat is known, and joined to the table at once after: what
    # is said at the table from the moment the client sees the connection
    # open comes to it as a message of its own (what came before: its snapshot)
    await ws.accept(subprotocol=subprotocol)

    def overflow() -> None:  # it reads too slowly: closed, it catches up when back
        hub.metrics.closed_slow.inc()
        writer.cancel()
        asyncio.get_running_loop().create_task(_close(ws, 1013))

    client = Client(seat, lang, symbols, queue_size=hub.limits.send_queue,
                    queue_bytes=hub.limits.send_queue_bytes, overflow=overflow)
    writer = asyncio.create_task(_write(ws, client))
    # the snapshot first, then the others hear of it (its bytes count in the budget)
    hub.limiter.budget.spend(table.connect(client))
    pinger = asyncio.create_task(_ping(table, client, ping_every))
    bucket = _Bucket()
    snapshots = _Bucket(SNAPSHOT_BURST, SNAPSHOT_RATE)
    who = (address, f"c{next(_connection_names)}")  # (for the chat's rates)
    hints: Hints = ws.app.state.hints
    asking = (hints, hints.rate())  # (this connection's hints)
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
            wait = hub.limiter.pace(address)
            if wait > 0:  # the address sends more than its share: read it more slowly
                hub.metrics.refused("paced")
                await asyncio.sleep(wait)
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
                await _handle(hub, table, client, text, size, bucket, snapshots, who,
                              asking)
            except Exception:
                log.exception("table %s: a message failed", table.code)
                client.send(table.error_message(client, GameError("server_try_again")))
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        table.disconnect(client)
        client.close()
        pinger.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, timeout=1.0)
        writer.cancel()


@echo_router.websocket("/ws-echo")
async def echo_stream(ws: WebSocket) -> None:
    """Every text message back as it came (benchmarks only)."""
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await ws.send_text(await ws.receive_text())


class _Bucket:
    """A token bucket: a burst of ``burst`` messages, refilled at ``rate`` per second."""

    def __init__(self, burst: float = BURST, rate: float = RATE) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _write(ws: WebSocket, client: Client) -> None:
    """Send the client's queue in order. A message that cannot be sent is
    logged and skipped; a connection that cannot be written to is closed (the
    client reconnects): the writer never ends while the reader waits."""
    while True:
        message = await client.queue.get()
        if message is None:
            return
        try:
            await ws.send_text(message if isinstance(message, str) else dumps(message))
        except (TypeError, UnicodeEncodeError) as e:  # (nothing of it was sent)
            log.error("a message to a client cannot be sent (%s): skipped", type(e).__name__)
        except (WebSocketDisconnect, RuntimeError):
            return  # the connection is gone: the reader ends too
        except Exception:
            log.exception("a client's connection failed")
            with contextlib.suppress(Exception):
                await ws.close(code=1011)
            return
        finally:
            client.written(message)


async def _ping(table: Table, client: Client, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        client.send({"type": "ping", "n": table.game.version})


async def _handle(hub: Hub, table: Table, client: Client, text: str | None, size: int,
                  bucket: _Bucket, snapshots: _Bucket,
                  who: tuple[str, str] = ("", ""),
                  asking: tuple[Hints, HintRate] | None = None) -> None:
    """One message of a client (``text``: None if it was not UTF-8; ``size`` in
    bytes; ``who``: its address and the connection's name; ``asking``: the
    process's hints and the connection's rate of them): an answer to it, or
    an error."""
    def refuse(code: str, **params: Any) -> None:
        client.send(table.error_message(client, GameError(code, **params)))

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
        data = json.loads(text)
    except (ValueError, RecursionError):
        refuse("server_bad_json")
        return
    try:
        message = read_message(data)
    except Refusal as e:
        if e.code == "action_needs_melds":  # (check answers as check does)
            client.send(check_answer(table, client, None))
        else:
            refuse(e.code, **e.params)
        return
    if isinstance(message, PingMessage):
        client.send({"type": "pong", "n": table.game.version})
    elif isinstance(message, ActionMessage):
        if client.seat is None:
            refuse("server_spectator")
            return
        try:
            action = action_from_json(message.action)
            start = time.perf_counter()
            await table.submit(client.seat, action, message.version)
            hub.metrics.latency.observe(time.perf_counter() - start)
        except ActionError as e:
            client.send(table.error_message(client, e))
        except StoreError:
            refuse("server_try_again")
    elif isinstance(message, SyncMessage):
        await _send_snapshot(hub, table, client, message.events_since, snapshots)
    elif isinstance(message, LangMessage):
        client.lang = ui_language(message.lang)
        if message.symbols is not None:
            client.symbols = message.symbols
        await _send_snapshot(hub, table, client, message.events_since, snapshots)
        if asking is not None:  # (a hint given at this decision: said again in it)
            asking[0].again(table, client, asking[1])
    elif isinstance(message, SettingsMessage):
        if client.seat is None:
            refuse("server_spectator")
            return
        if message.auto_pass is not None:
            try:
                await hub.set_auto_pass(table, client.seat, message.auto_pass)
            except StoreError:
                refuse("server_try_again")
                return
        client.send({"type": "settings", "n": table.game.version,
                     "auto_pass": table.seats[client.seat].record.auto_pass})
    elif isinstance(message, CheckMessage):
        if not hub.limiter.budget.available():
            hub.metrics.refused("work")
            refuse("server_busy")
            return
        client.send(check_answer(table, client, message.melds,
                                 limit=hub.limits.check_arrangements))
    elif isinstance(message, ChatMessage):
        await _say(hub, table, client, message, who, refuse)
    elif isinstance(message, HintMessage):
        if asking is None:
            refuse("server_hints_off")
            return
        asking[0].ask(table, client, asking[1], message.version, refuse)
    elif isinstance(message, SeatMessage | StartMessage):
        await _seat_command(hub, table, client, message)
    # (a pong: nothing to answer)


async def _say(hub: Hub, table: Table, client: Client, message: ChatMessage,
               who: tuple[str, str], refuse: Callable[..., None]) -> None:
    """A chat line: said at the table (every connection gets it, the sender
    too), or refused: the table's chat setting, its stored lines, the rates of
    the connection and of its address."""
    mode = table.settings.chat
    if mode == "off":
        refuse("server_chat_off")
        return
    if client.seat is None and mode != "all":
        refuse("server_chat_players_only")
        return
    if table.chat.count >= hub.limits.chat_lines_per_table:
        refuse("server_chat_full", limit=hub.limits.chat_lines_per_table)
        return
    wait = await hub.limiter.may_chat(*who)
    if wait:
        hub.metrics.refused("chat")
        refuse("server_chat_too_fast", seconds=wait)
        return
    try:
        await table.say(client.seat, message.text, message.reaction)
    except StoreError:
        refuse("server_try_again")



async def _seat_command(hub: Hub, table: Table, client: Client,
                        message: SeatMessage | StartMessage) -> None:
    """A seat to a bot or back to a person, or the start: the creator's alone
    (seat 0). The sender hears at once (its snapshot after the start, else a
    ``table`` message); the others soon after."""
    if client.seat != 0:
        client.send(table.error_message(client, GameError("server_not_creator")))
        return
    try:
        if isinstance(message, StartMessage):
            await hub.start_table(table)
        else:
            await hub.change_seat(table, message.seat, message.kind, message.level)
    except GameError as e:
        client.send(table.error_message(client, e))
        return
    except StoreError:
        client.send(table.error_message(client, GameError("server_try_again")))
        return
    if isinstance(message, SeatMessage):  # (after the start, its snapshot has come)
        client.table_rev = table.presence_rev
        client.send(dumps({"type": "table", "n": table.game.version,
                           "table": table.info(client.seat is not None)}))


async def _send_snapshot(hub: Hub, table: Table, client: Client, since: int | None,
                         snapshots: _Bucket) -> None:
    """A snapshot asked for (``sync``, ``lang``): within the connection's own
    rate (beyond it: ``server_rate_limited``) and the process's budget of
    snapshot bytes per second (beyond it: ``server_busy``, try again soon)."""
    if not snapshots.take():
        hub.metrics.refused("snapshots")
        client.send(table.error_message(client, GameError("server_rate_limited")))
        return
    if not hub.limiter.budget.available():
        hub.metrics.refused("work")
        client.send(table.error_message(client, GameError("server_busy")))
        return
    await table.prepare_events(client.seat, client.lang, client.symbols,
                               None if since is None else max(0, since), hub.work)
    text = table.snapshot_text(client, since)
    hub.limiter.budget.spend(len(text))
    client.send(text)


async def _close(ws: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.close(code=code)


def check_answer(table: Table, client: Client, groups: list[list[str]] | None, *,
                 limit: int = 64) -> dict[str, Any]:
    """The answer to ``check``: the cards a player grouped into melds (None: a
    ``melds`` that is not a list of groups of cards) → the lay-down action(s)
    they can be (:meth:`liverpool.Game.arrange_lay_down`), or the reason they
    are none, in the player's language. Only the seat that may lay down now
    asks, and only about its own hand: no answer describes another hand."""
    game = table.game

    def answer(ok: bool, **extra: Any) -> dict[str, Any]:
        return {"type": "check", "n": game.version, "ok": ok, **extra}

    def reason(e: Exception) -> dict[str, Any]:
        return answer(False, code=getattr(e, "code", "error"), message=i18n.error_text(
            e, client.lang, table.names(client.lang), symbols=client.symbols, joker_word=True))

    if client.seat is None:
        return reason(GameError("server_spectator"))
    if groups is None:
        return reason(GameError("action_needs_melds"))
    if (game.phase != "play" or game.to_move != client.seat
            or game.turn_player != client.seat):
        return reason(GameError("lay_down_not_now"))  # (before the cards are read)
    try:
        cards = [[Card.parse(c) for c in g] for g in groups]
        found = game.arrange_lay_down(client.seat, cards, limit=limit)
    except GameError as e:  # (a card, a meld, the lay-down: why not)
        return reason(e)
    if not found:
        return reason(GameError("server_no_lay_down"))
    found = found[:24]
    return answer(True, actions=[a.to_json() for a in found],
                  texts=lay_down_texts(found, game.rules, client.lang, client.symbols))


def lay_down_texts(lay_downs: list[LayDown], rules: Rules, lang: str,
                   symbols: bool) -> list[str]:
    """The lay-downs a ``check`` found, in words; where there are several ways,
    each says what the wilds of its runs stand for, which is what tells them
    apart (``… (joker = 10♦)``)."""
    def shown(item: Any) -> str:
        return i18n.render(item, lang, symbols=symbols, joker_word=True)

    texts = []
    for lay_down in lay_downs:
        words = shown(lay_down)
        stands = [f"{shown(card)} = {shown(meld.stands_for(i))}"
                  for meld in lay_down.melds for i, card in enumerate(meld.cards)
                  if rules.is_wild(card) and meld.stands_for(i) is not None]
        texts.append(f"{words} ({', '.join(stands)})" if stands and len(lay_downs) > 1
                     else words)
    return texts
