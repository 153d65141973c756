"""The tables of the game server: one game each, its seats, its connections,
its bots and timers.

The server is the only authority. An action comes from a connection whose seat
token says who it is; it is checked against the game (its seat and the version
it was made at), written to storage, and only then applied and told to the
clients. Bots play server-side with a short delay; a human seat whose player is
away is played by the basic bot until they return; a buy or call window passes
by itself for a human who does not answer in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .. import i18n
from ..actions import Action, ActionError, Pass, action_from_json
from ..bots import Bot, make_bot
from ..engine import Game
from ..errors import GameError
from ..events import Event
from ..rules import Rules
from ..ruleset_io import rules_from_dict
from ..views import SeatViews
from .fanout import Fanout, LocalFanout
from .store import ConflictError, SeatRecord, Store, StoreError, TableRecord

__all__ = ["CODE_ALPHABET", "Client", "Hub", "Table", "TableSettings", "new_code"]

log = logging.getLogger("liverpool.server")

#: invite codes: no look-alike characters (no 0/O, 1/I/L)
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
BOT_LEVELS = ("easy", "medium", "hard")
#: an automatic move: (seat, version, reason: bot, away, timer, window, auto_pass)
_Key = tuple[int, int, str]
_T = TypeVar("_T")


def new_code(length: int = 6) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class TableSettings:
    """A table's own settings (besides its ruleset)."""

    #: seconds a human has for a decision, then the basic bot decides (None: no timer)
    turn_seconds: float | None = None
    #: seconds a human has to answer a buy or call window before it passes by itself
    window_seconds: float = 15.0
    #: seconds without a connection before a human seat is played by a bot
    away_seconds: float = 60.0
    #: seconds a bot waits before it acts (so people can follow the table)
    bot_delay: float = 0.8

    def to_json(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "window_seconds": self.window_seconds,
                "away_seconds": self.away_seconds, "bot_delay": self.bot_delay}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(turn_seconds=data.get("turn_seconds"),
                   window_seconds=float(data.get("window_seconds", 15.0)),
                   away_seconds=float(data.get("away_seconds", 60.0)),
                   bot_delay=float(data.get("bot_delay", 0.8)))


_SEPARATORS = (",", ":")


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=_SEPARATORS, ensure_ascii=False)


class _Wire:
    """The JSON text of a table's views, made once per seat and version. A view
    in a message carries no events (``"events": []``): the message has them
    beside it, each once."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.views: dict[int | None, tuple[int, str]] = {}  # seat → (version, view text)

    def view_text(self, seat: int | None) -> str:
        """The view of ``seat`` now as JSON text (``SeatView.to_json(events=False)``)."""
        version = self.table.game.version
        hit = self.views.get(seat)
        if hit is not None and hit[0] == version:
            return hit[1]
        text = _dumps(self.table.views.view(seat).to_json(events=False))
        self.views[seat] = (version, text)
        return text


class Client:
    """One connection to a table: its seat (None: a spectator), its language,
    and the queue of messages to send it (JSON data or text)."""

    def __init__(self, seat: int | None, lang: str, symbols: bool = False) -> None:
        self.seat = seat
        self.lang = lang
        self.symbols = symbols
        self.queue: asyncio.Queue[dict[str, Any] | str | None] = asyncio.Queue(maxsize=1000)
        self.last_event = 0  # the next event sequence number this client has not been sent
        self.sent_version = -1  # the version of the last view it was sent

    def send(self, message: dict[str, Any] | str) -> None:
        # a client that reads nothing for 1000 messages loses the newest: it sees
        # the gap in ``n`` when it reads again and asks for a snapshot
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(message)

    def close(self) -> None:
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait(None)


@dataclass
class _Seat:
    record: SeatRecord
    bot: Bot | None = None  # the seat's bot (a bot seat), or the stand-in for an away player
    connections: int = 0
    left_at: float | None = None  # when the last connection closed (None: never came)

    @property
    def is_bot(self) -> bool:
        return self.record.kind == "bot"


class Table:
    """One table: its game, seats, clients and the automatic moves."""

    def __init__(self, hub: Hub, record: TableRecord, game: Game) -> None:
        self.hub = hub
        self.record = record
        self.code = record.code
        self.game = game
        self.rules = game.rules
        self.settings = TableSettings.from_json(record.settings)
        self.views = SeatViews(game)
        self.wire = _Wire(self)
        self.seats = [_Seat(s) for s in record.seats]
        now = time.monotonic()
        for seat in self.seats:
            if seat.is_bot:
                seat.bot = self._make_bot(seat.record.seat, seat.record.level or "medium")
            else:
                seat.left_at = now  # nobody is connected yet (after a restart: since now)
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        #: the automatic moves scheduled, and those under way, by (seat, version, reason)
        self._timers: dict[_Key, asyncio.TimerHandle] = {}
        self._running: set[_Key] = set()
        self._recheck: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed = False
        #: actions heard from other processes while the table was busy, and whether
        #: storage must be read (a gap); the task that applies them
        self._heard: list[tuple[int, int, dict[str, Any]]] = []
        self._heard_gap = False
        self._hearing: asyncio.Task[None] | None = None
        self.started = time.monotonic()
        self.changed_at = self.started  # when its game last changed here
        #: when the current decision of each seat began (for countdowns)
        self._since: dict[int, float] = {}

    # ------------------------------------------------------------ names
    def names(self, lang: str) -> list[str]:
        out = []
        for seat in self.seats:
            name = seat.record.name
            if not name:
                name = i18n.default_name(seat.record.seat, lang)
            out.append(name)
        return out

    def info(self) -> dict[str, Any]:
        """Public information about the table (no cards)."""
        return {
            "code": self.code,
            "preset": self.record.preset,
            "rules": self.record.rules,
            "players": self.record.players,
            "status": self.record.status,
            "settings": self.settings.to_json(),
            "next_code": self.record.next_code,
            "seats": [{
                "seat": s.record.seat, "kind": s.record.kind, "level": s.record.level,
                "name": s.record.name, "taken": s.is_bot or s.record.token_hash is not None,
                "connected": self.present(s.record.seat) > 0, "away": self._away(s),
            } for s in self.seats],
        }

    def present(self, seat: int) -> int:
        """Connections to ``seat``: this process's and the other processes'."""
        return self.seats[seat].connections + self.hub.fanout.remote(self.code, seat)

    def local_counts(self) -> list[int]:
        """This process's connections per seat."""
        return [s.connections for s in self.seats]

    def presence_changed(self) -> None:
        """Connections came or went (here or in another process): who is away."""
        now = time.monotonic()
        for s in self.seats:
            if self.present(s.record.seat) > 0:
                s.left_at = None
                if not s.is_bot:
                    s.bot = None  # back: the player takes the seat back
            elif s.left_at is None:
                s.left_at = now
        if not self.closed:
            self.broadcast_table()
            self.plan()

    def _away(self, seat: _Seat) -> bool:
        if seat.is_bot or self.present(seat.record.seat) > 0:
            return False
        if seat.left_at is None:
            return False
        return time.monotonic() - seat.left_at >= self.settings.away_seconds

    def _make_bot(self, seat: int, level: str) -> Bot:
        return make_bot(level, self.rules, seed=(self.record.seed * 31 + seat) & 0x7FFFFFFF)

    # --------------------------------------------------------- messages
    def _event_items(self, client: Client, events: list[Event]) -> list[dict[str, Any]]:
        names = self.names(client.lang)
        out = []
        for e in events:
            seen = e.visible_to(client.seat)
            out.append({"event": seen.to_json(),
                        "text": i18n.render(seen, client.lang, names, symbols=client.symbols)})
        return out

    def _deadline(self, seat: int | None) -> float | None:
        """Seconds left for ``seat``'s current decision (None: no countdown)."""
        if seat is None:
            return None
        game = self.game
        if game.phase in ("buy", "call") and seat in game.answering:
            limit: float | None = self.settings.window_seconds
        elif game.to_move == seat:
            limit = self.settings.turn_seconds
        else:
            return None
        if limit is None or self.seats[seat].is_bot:
            return None
        since = self._since.get(seat, time.monotonic())
        return max(0.0, limit - (time.monotonic() - since))

    def snapshot(self, client: Client, events_since: int | None = None) -> dict[str, Any]:
        """A full message: the view, the table, the events (those of the round, or
        every one since ``events_since``)."""
        view = self.views.view(client.seat)
        if events_since is None:
            events = list(view.events)
        else:
            events = self.game.events_for(client.seat, max(0, events_since))
        client.last_event = len(self.game.events)
        client.sent_version = self.game.version
        return {"type": "snapshot", "n": self.game.version, "seat": client.seat,
                "table": self.info(), "view": view.to_json(events=False),
                "events": self._event_items(client, events),
                "deadline": self._deadline(client.seat)}

    def _update(self, client: Client) -> str:
        """The ``update`` message of ``client`` as JSON text."""
        events = self.game.events[client.last_event:]
        client.last_event = len(self.game.events)
        return (f'{{"type":"update","n":{self.game.version},'
                f'"view":{self.wire.view_text(client.seat)},'
                f'"events":{_dumps(self._event_items(client, events))},'
                f'"deadline":{_dumps(self._deadline(client.seat))}}}')

    def broadcast(self) -> None:
        """An ``update`` to every client: made once per seat, language and the
        events it has not had (the clients of one seat share it)."""
        made: dict[tuple[int | None, str, bool, int], str] = {}
        version = self.game.version
        for client in list(self.clients):
            if client.sent_version >= version:
                continue  # it has this version already (never an update twice)
            client.sent_version = version
            key = (client.seat, client.lang, client.symbols, client.last_event)
            text = made.get(key)
            if text is None:
                text = made[key] = self._update(client)
            else:
                client.last_event = len(self.game.events)
            client.send(text)

    def broadcast_table(self, exclude: Client | None = None) -> None:
        info = self.info()
        for client in list(self.clients):
            if client is not exclude:
                client.send({"type": "table", "n": self.game.version, "table": info})

    def error(self, client: Client, e: Exception, code: str | None = None) -> dict[str, Any]:
        message = i18n.render(e, client.lang, self.names(client.lang), symbols=client.symbols)
        data: dict[str, Any] = {"type": "error", "n": self.game.version,
                                "code": code or getattr(e, "code", "error"), "message": message}
        if isinstance(e, GameError):
            data["params"] = e.to_json()["params"]
        return data

    # -------------------------------------------------------- connections
    def connect(self, client: Client) -> None:
        """A new connection: its snapshot comes first, then the others hear of it."""
        self.clients.add(client)
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections += 1
            seat.left_at = None
            if not seat.is_bot:
                seat.bot = None  # back: the player takes the seat back
            self.hub.fanout.presence(self.code, self.local_counts())
        client.send(self.snapshot(client))
        self.broadcast_table(exclude=client)
        self.plan()

    def disconnect(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        if client.seat is not None:
            seat = self.seats[client.seat]
            seat.connections = max(0, seat.connections - 1)
            if self.present(client.seat) == 0:
                seat.left_at = time.monotonic()
            self.hub.fanout.presence(self.code, self.local_counts())
        self.broadcast_table()
        self.plan()

    # ------------------------------------------------------------ actions
    async def submit(self, seat: int, action: Action, expected_version: int | None = None,
                     *, automatic: bool = False) -> None:
        """Check, store, apply and tell: the one way a table's game changes.
        Raises ActionError (nothing changed) or StoreError (nothing changed: try again).

        Another process may have written the next action first: then this
        table is brought up to date from storage and the action checked again
        (made at an older version, it is refused as a StaleAction)."""
        start = self.game.version
        try:
            async with self.lock:
                start = self.game.version  # (what others changed while it waited is told)
                seq, data = await self._write_next(seat, action, expected_version)
        finally:
            if self.game.version != start:  # (caught up from storage, even if refused)
                self.broadcast()
                self.plan()
        self.hub.fanout.action(self.code, seq, seat, data)

    async def _write_next(self, seat: int, action: Action,
                          expected_version: int | None) -> tuple[int, dict[str, Any]]:
        for attempt in range(3):
            game = self.game
            if game.is_over:
                raise ActionError("game_over")
            probe = game.copy()
            probe.apply(action, seat=seat, expected_version=expected_version)  # raises
            seq = game.version + 1
            data = dict(probe.history[-1].to_json())
            try:
                await self.hub.write(self.hub.store.append_action, self.code, seq, seat, data)
            except ConflictError:
                if attempt == 2:
                    raise
                await self._catch_up()  # another process wrote first: look again
                continue
            self._apply(seq, seat, probe.history[-1])
            if game.is_over:
                try:
                    await self.hub.write(self.hub.store.finish_table, self.code)
                except StoreError:
                    log.exception("table %s: could not mark finished", self.code)
            return seq, data
        raise AssertionError("unreachable")  # pragma: no cover

    def _apply(self, seq: int, seat: int, action: Action) -> None:
        """Apply action number ``seq`` (already in storage) to this table's game."""
        game = self.game
        assert seq == game.version + 1, (seq, game.version)
        before = (game.phase, game.to_move, game.answering)
        game.apply(action, seat=seat)
        self.changed_at = time.monotonic()
        if game.is_over:
            self.record.status = "finished"
        self._track(before)

    def hear(self, seq: int, seat: int, data: dict[str, Any]) -> None:
        """Another process wrote action ``seq``: apply it and tell the clients,
        at once when the table is free; otherwise (or after a gap, when what is
        missing comes from storage) in a task of the table's own, so that news
        of the other tables never waits for this one."""
        if seq <= self.game.version or self.closed:
            return
        if seq == self.game.version + 1 and not self.lock.locked() and not self._heard:
            self._apply(seq, seat, action_from_json(data))
            self.broadcast()
            self.plan()
            return
        self._heard.append((seq, seat, data))
        self._later()

    def catch_up_soon(self) -> None:
        """Bring the table up to date from storage in a task of its own."""
        self._heard_gap = True
        self._later()

    def _later(self) -> None:
        if self._hearing is None or self._hearing.done():
            self._hearing = asyncio.get_running_loop().create_task(self._hear_later())

    async def _hear_later(self) -> None:
        while self._heard or self._heard_gap:
            async with self.lock:
                version = self.game.version
                pending, self._heard = sorted(self._heard), []
                gap, self._heard_gap = self._heard_gap, False
                for seq, seat, data in pending:
                    if seq == self.game.version + 1:
                        self._apply(seq, seat, action_from_json(data))
                    elif seq > self.game.version + 1:
                        gap = True
                if gap:
                    try:
                        await self._catch_up()
                    except StoreError as e:
                        log.warning("table %s: not brought up to date: %s", self.code, e)
                changed = self.game.version != version
            if changed:
                self.broadcast()
                self.plan()

    async def catch_up(self) -> None:
        """Apply whatever storage has beyond this table's game, and tell the clients."""
        async with self.lock:
            version = self.game.version
            await self._catch_up()
            if self.game.version == version:
                return
        self.broadcast()
        self.plan()

    async def _catch_up(self) -> None:
        rows = await self.hub.write(self.hub.store.actions, self.code, self.game.version)
        for seq, seat, data in rows:
            if seq == self.game.version + 1:
                self._apply(seq, seat, action_from_json(data))

    async def reload(self) -> None:
        """The table's record changed in storage (a seat taken, auto-pass, play
        again): read it again and tell the clients."""
        record = await self.hub.write(self.hub.store.table, self.code)
        if record is None:
            return
        for s, r in zip(self.seats, record.seats, strict=False):
            s.record = r
        self.record.next_code = record.next_code
        if record.status == "finished":
            self.record.status = "finished"
        self.broadcast_table()
        self.plan()

    def _track(self, before: tuple[str, int | None, tuple[int, ...]]) -> None:
        """Remember when each seat's current decision began."""
        game = self.game
        now = time.monotonic()
        phase, mover, answering = before
        deciding = set(game.answering) if game.phase in ("buy", "call") else set()
        if game.to_move is not None:
            deciding.add(game.to_move)
        old = set(answering) | ({mover} if mover is not None else set())
        for seat in deciding:
            if seat not in old or game.phase != phase or seat not in self._since:
                self._since[seat] = now
        for seat in list(self._since):
            if seat not in deciding:
                del self._since[seat]

    # -------------------------------------------------- automatic moves
    def plan(self) -> None:
        """(Re)schedule the automatic moves: bots, away players, timers.

        A move already scheduled for the same seat, version and reason keeps its
        time (people coming and going do not hold the bots back), and one under
        way is not started twice."""
        game = self.game
        if game.is_over or self.closed or not self.hub.fanout.owns(self.code):
            self._cancel_timers()  # (another process plays this table's bots and timers)
            return
        loop = asyncio.get_running_loop()
        version = game.version
        if not self._since:
            self._track((game.phase, None, ()))
        deciding: list[int] = []
        if game.phase in ("buy", "call"):
            deciding = list(game.answering)
        elif game.to_move is not None:
            deciding = [game.to_move]
        wanted: dict[_Key, float] = {}
        recheck: float | None = None  # when someone will count as away
        for seat in deciding:
            s = self.seats[seat]
            if s.is_bot:
                delay, why = self.settings.bot_delay, "bot"
            elif self._away(s):
                delay, why = self.settings.bot_delay, "away"
            elif game.phase in ("buy", "call"):
                if s.record.auto_pass and game.phase == "buy":
                    delay, why = 0.0, "auto_pass"
                else:
                    left = self._deadline(seat)
                    delay, why = (left if left is not None else self.settings.window_seconds,
                                  "window")
            else:
                left = self._deadline(seat)
                if left is None:
                    if s.left_at is not None:  # check again when they count as away
                        wait = self.settings.away_seconds - (time.monotonic() - s.left_at)
                        wait = max(0.0, wait) + 0.05
                        recheck = wait if recheck is None else min(recheck, wait)
                    continue
                delay, why = left, "timer"
            wanted[(seat, version, why)] = delay
        for key, handle in list(self._timers.items()):
            if key not in wanted:
                handle.cancel()
                del self._timers[key]
        for key, delay in wanted.items():
            if key not in self._timers and key not in self._running:
                self._timers[key] = loop.call_later(delay, self._spawn, key)
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None
        if recheck is not None:
            self._recheck = loop.call_later(recheck, self.plan)

    def _cancel_timers(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None

    def _spawn(self, key: _Key) -> None:
        self._timers.pop(key, None)
        if self.closed:
            return
        self._running.add(key)
        task = asyncio.get_running_loop().create_task(self._automatic(*key))
        self._tasks.add(task)

        def done(t: asyncio.Task[None]) -> None:
            self._tasks.discard(t)
            self._running.discard(key)

        task.add_done_callback(done)

    async def _automatic(self, seat: int, version: int, why: str) -> None:
        game = self.game
        if game.version != version or game.is_over:
            return
        s = self.seats[seat]
        legal: list[Action] = []
        if why in ("window", "auto_pass"):
            action: Action = Pass()
        else:
            bot = s.bot
            if why == "timer" or bot is None:
                bot = self._make_bot(seat, "basic")
                if why == "away":
                    s.bot = bot  # the stand-in keeps its memory while they are away
            view = self.views.view(seat)
            legal = list(view.legal_actions)
            if not legal:
                return
            try:
                if isinstance(bot, _SLOW_BOTS):
                    action = await asyncio.to_thread(bot.choose, view, legal)
                else:
                    action = bot.choose(view, legal)
            except Exception:  # noqa: BLE001 - a bot's fault must not stop the table
                log.exception("table %s: the bot of seat %d failed", self.code, seat)
                action = legal[-1]
            if why == "away" and not self._away(s):
                return  # they came back while the bot thought
        try:
            await self.submit(seat, action, expected_version=version, automatic=True)
        except ActionError as e:
            if self.game.version != version or self.game.is_over:
                return  # the game moved on meanwhile
            # the automatic move itself was refused: never leave the table waiting
            log.error("table %s: automatic move %r of seat %d refused: %s", self.code,
                      action, seat, e)
            fallback = Pass() if not legal else legal[0]
            if fallback != action:
                with contextlib.suppress(ActionError, StoreError):
                    await self.submit(seat, fallback, expected_version=version, automatic=True)
        except StoreError:
            log.warning("table %s: storage refused an automatic move; trying again", self.code)
            if not self.closed:
                asyncio.get_running_loop().call_later(1.0, self.plan)

    def close(self) -> None:
        self.closed = True
        self._cancel_timers()
        if self._hearing is not None:
            self._hearing.cancel()
        for task in list(self._tasks):
            task.cancel()
        for client in list(self.clients):
            client.close()


try:  # the expert searches: think in a worker thread
    from ..bots.expert import ExpertBot

    _SLOW_BOTS: tuple[type, ...] = (ExpertBot,)
except ImportError:  # pragma: no cover
    _SLOW_BOTS = ()


class Hub:
    """Every table of the server, and the storage behind them."""

    def __init__(self, store: Store, *, bot_delay: float | None = None,
                 threaded_writes: bool | None = None, fanout: Fanout | None = None) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        self._totals: dict[str, list[int]] = {}  # finished tables not in memory → totals
        self._totals_lock = threading.Lock()
        #: the other processes at the same tables (Redis), or none
        self.fanout = fanout or LocalFanout()
        self.fanout.attach(self)
        self.bot_delay = bot_delay  # overrides every table's (benchmarks: 0)
        self.clock: Callable[[], float] = time.time
        #: write actions in a worker thread (default: unless the database is a local
        #: SQLite file, whose small writes cost less than the hop to a thread and back)
        self.threaded_writes = (not store.url.startswith("sqlite") if threaded_writes is None
                                else threaded_writes)

    async def write(self, fn: Callable[..., _T], *args: Any) -> _T:
        """A write to storage: in a worker thread, or here (see threaded_writes)."""
        if self.threaded_writes:
            return await asyncio.to_thread(fn, *args)
        return fn(*args)

    def load(self) -> int:
        """Replay every unfinished table from storage; returns how many."""
        count = 0
        for record in self.store.tables(status="playing"):
            try:
                table = self._replay(record)
            except (ActionError, ValueError) as e:
                log.error("table %s does not replay: %s", record.code, e)
                continue
            self.tables[record.code] = table
            count += 1
            if table.game.is_over:  # its end was written but not its status
                record.status = "finished"
                with contextlib.suppress(StoreError):
                    self.store.finish_table(record.code)
        return count

    def _replay(self, record: TableRecord) -> Table:
        return self._table(record, self._replay_game(record))

    def _replay_game(self, record: TableRecord) -> Game:
        rules = rules_from_dict(record.rules)
        game = Game(rules, players=record.players, seed=record.seed)
        for _seq, seat, data in self.store.actions(record.code):
            game.apply(action_from_json(data), seat=seat)
        return game

    def _table(self, record: TableRecord, game: Game) -> Table:
        if self.bot_delay is not None:
            record.settings = dict(record.settings, bot_delay=self.bot_delay)
        return Table(self, record, game)

    async def load_table(self, code: str) -> Table | None:
        """A table another process made: read it from storage and start it here."""
        if code in self.tables:
            return self.tables[code]
        record = await self.write(self.store.table, code)
        if record is None or record.status != "playing" or code in self.tables:
            return self.tables.get(code)
        table = await asyncio.to_thread(self._replay, record)
        if code not in self.tables:
            self.tables[code] = table
            table.catch_up_soon()  # (actions written while it was read)
        table = self.tables[code]
        table.plan()
        return table

    def totals(self, record: TableRecord) -> list[int]:
        """The final totals of a finished table (for the list of finished games):
        from the table in memory, or replayed from storage once and remembered
        (the last 2,000), without keeping the table."""
        table = self.tables.get(record.code)
        if table is not None:
            return list(table.game.results().totals)
        with self._totals_lock:
            hit = self._totals.get(record.code)
        if hit is None:
            try:
                hit = list(self._replay_game(record).results().totals)
            except (ActionError, ValueError) as e:
                log.error("table %s does not replay: %s", record.code, e)
                hit = []
            with self._totals_lock:
                self._totals[record.code] = hit
                while len(self._totals) > 2000:
                    self._totals.pop(next(iter(self._totals)))
        return hit

    def get(self, code: str) -> Table | None:
        table = self.tables.get(code)
        if table is None:
            record = self.store.table(code)
            if record is None:
                return None
            table = self._replay(record)
            self.tables[code] = table
        return table

    def create(self, rules: Rules, preset: str, seats: list[dict[str, Any]],
               settings: TableSettings, creator: str | None) -> tuple[Table, str]:
        """A new table; the creator takes seat 0. Returns the table and the
        creator's token (call :meth:`Table.plan` in the event loop to start it)."""
        players = len(seats)
        Game(rules, players=players, seed=0)  # raises RulesError for a bad player count
        token = secrets.token_urlsafe(24)
        records = []
        for i, s in enumerate(seats):
            if s.get("kind") == "bot":
                level = s.get("level") or "medium"
                records.append(SeatRecord(i, "bot", level, None))
            else:
                records.append(SeatRecord(i, "human", None, None))
        records[0] = SeatRecord(0, "human", None, creator, token_hash(token))
        record = self._create_record(rules.to_dict(), preset, players, settings.to_json(),
                                     records)
        game = Game(rules, players=players, seed=record.seed)
        table = self._table(record, game)
        self.tables[record.code] = table
        self.fanout.changed(record.code, new=True)
        return table, token

    def _create_record(self, rules: dict[str, Any], preset: str, players: int,
                       settings: dict[str, Any], seats: list[SeatRecord]) -> TableRecord:
        """Write a new table under a fresh code (StoreError if the storage fails)."""
        for _ in range(20):
            record = TableRecord(code=new_code(), created=self.clock(), rules=rules,
                                 preset=preset, players=players, seed=secrets.randbits(48),
                                 settings=dict(settings), status="playing", seats=seats)
            try:
                self.store.create_table(record)
            except ConflictError:
                continue  # the code is taken: another one
            return record
        raise StoreError("no free table code")  # pragma: no cover - 20 codes taken in a row

    async def join(self, table: Table, name: str) -> tuple[int, str]:
        """Give the first free human seat to ``name``; returns (seat, token).
        Raises LookupError (the table is full) or StoreError."""
        for seat in table.seats:
            if seat.is_bot or seat.record.token_hash is not None:
                continue
            token = secrets.token_urlsafe(24)
            record = SeatRecord(seat.record.seat, "human", None, name or None,
                                token_hash(token), seat.record.auto_pass)
            # the storage decides who gets a seat two people ask for at once
            if await asyncio.to_thread(self.store.update_seat, table.code, record, claim=True):
                seat.record = record
                self.fanout.changed(table.code)
                table.broadcast_table()
                table.plan()
                return seat.record.seat, token
        raise LookupError("the table is full")

    async def find_seat(self, table: Table, token: str | None) -> int | None:
        """The seat of ``token`` (None: none). A token this process does not know
        yet may be one another process just gave out: the table's record is read
        again from storage before the answer is no."""
        seat = self.seat_of(table, token)
        if (seat is None and token and not isinstance(self.fanout, LocalFanout)
                and any(s.record.token_hash is None and not s.is_bot for s in table.seats)):
            await table.reload()  # (only while a seat may have been taken elsewhere)
            seat = self.seat_of(table, token)
        return seat

    def seat_of(self, table: Table, token: str | None) -> int | None:
        if not token:
            return None
        digest = token_hash(token)
        for seat in table.seats:
            theirs = seat.record.token_hash
            if theirs is not None and secrets.compare_digest(theirs, digest):
                return seat.record.seat
        return None

    async def again(self, table: Table) -> Table:
        """A new table with the same people (the same seat tokens), rules and
        settings; asked twice, the same one."""
        async with table.lock:
            if table.record.next_code:
                existing = self.get(table.record.next_code)
                if existing is not None:
                    return existing
            record = table.record
            seats = [SeatRecord(s.record.seat, s.record.kind, s.record.level, s.record.name,
                                s.record.token_hash, s.record.auto_pass) for s in table.seats]
            new = await asyncio.to_thread(self._create_record, record.rules, record.preset,
                                          record.players, record.settings, seats)
            if not await asyncio.to_thread(self.store.set_next, table.code, new.code):
                # another process made the next table first: that one it is
                await asyncio.to_thread(self.store.finish_table, new.code)
                await table.reload()
                existing = (await self.load_table(table.record.next_code)
                            if table.record.next_code else None)
                if existing is None:
                    raise StoreError("the next table is not there")
                return existing
            record.next_code = new.code
            game = Game(table.rules, players=record.players, seed=new.seed)
            fresh = self._table(new, game)
            self.tables[new.code] = fresh
        self.fanout.changed(new.code, new=True)
        self.fanout.changed(table.code)
        table.broadcast_table()
        fresh.plan()
        return fresh

    async def set_auto_pass(self, table: Table, seat: int, value: bool) -> None:
        s = table.seats[seat]
        record = SeatRecord(s.record.seat, s.record.kind, s.record.level, s.record.name,
                            s.record.token_hash, value)
        await asyncio.to_thread(self.store.update_seat, table.code, record)
        s.record = record
        self.fanout.changed(table.code)
        table.plan()

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
