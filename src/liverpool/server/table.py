"""One table of the game server: its game, seats and connections.

The server is the only authority. An action comes from a connection whose seat
token says who it is; it is checked against the game (its seat and the version
it was made at), written to storage, and only then applied and told to the
clients. A table is given its storage (:class:`~.store.AsyncStore`) and its
fan-out to the other processes (:class:`~.fanout.Fanout`); its automatic moves
are :class:`~.automatic.AutomaticMoves`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures import Executor
from typing import Any, cast

from .. import i18n
from ..actions import Action, ActionError, action_from_json
from ..bots import Bot
from ..engine import Game
from ..errors import GameError
from ..events import Event
from ..views import SeatViews
from .automatic import AutomaticMoves
from .chat import MEMORY, TableChat
from .fanout import Fanout
from .messages import Client, ViewTexts, dumps
from .metrics import Metrics
from .processes import WorkerPool
from .seats import SeatState, TableSettings, seat_bot, seat_names, short_seat_names
from .store import AsyncStore, ChatLine, ConflictError, StoreError, TableRecord

__all__ = ["EVENTS_ON_LOOP", "EVENT_TEXT_BYTES", "Table"]

log = logging.getLogger("liverpool.server")

#: events whose texts a snapshot makes on the event loop; more are made in a
#: worker first (:meth:`Table.prepare_events`)
EVENTS_ON_LOOP = 500
#: bytes of event texts a table keeps (of every seat, language and symbols)
EVENT_TEXT_BYTES = 32 * 1024 * 1024


class _EventTexts:
    """The JSON texts of a table's events for one seat, language and symbols
    (None: not made yet), and their names."""

    __slots__ = ("names", "size", "texts")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.texts: list[str | None] = []
        self.size = 0  # the characters of the texts


def _event_texts(events: list[Event], seat: int | None, lang: str, names: tuple[str, ...],
                 symbols: bool) -> list[str]:
    """The texts of ``events`` as ``seat`` sees them (in a worker)."""
    return [Table._event_text(e.visible_to(seat), lang, names, symbols) for e in events]


class Table:
    """One table: its game, seats, clients and the automatic moves."""

    def __init__(self, record: TableRecord, game: Game, *, storage: AsyncStore,
                 fanout: Fanout, metrics: Metrics | None = None, bots: WorkerPool | None = None,
                 presence_delay: float = 0.0, chat: TableChat | None = None) -> None:
        self.storage = storage
        self.fanout = fanout
        self.metrics = metrics
        #: the worker processes where the bots that search think (None: a thread
        #: of the default pool)
        self.bots = bots
        #: seconds the news of who is connected is gathered before it is sent
        self.presence_delay = presence_delay
        self._table_news: asyncio.TimerHandle | None = None
        #: the next ``table`` message that says a seat now counts as away (that
        #: comes with time alone, no connection changes): one timer per table
        self._away_news: asyncio.TimerHandle | None = None
        self.record = record
        self.code = record.code
        self.game = game
        self.rules = game.rules
        self.settings = TableSettings.from_json(record.settings)
        #: the chat: its last lines (read from storage when the table was loaded)
        self.chat = chat or TableChat()
        self.views = SeatViews(game)
        self.view_texts = ViewTexts(self.views)
        self.seats = [SeatState(s) for s in record.seats]
        now = time.monotonic()
        for seat in self.seats:
            if seat.is_bot:
                seat.bot = self.bot_for(seat.record.seat, seat.record.level or "medium")
            else:
                seat.left_at = now  # nobody is connected yet (after a restart: since now)
        self.clients: set[Client] = set()
        self.lock = asyncio.Lock()
        self.moves = AutomaticMoves(self)
        self.closed = False
        #: actions other processes wrote, heard while the table was busy, and
        #: whether storage must be read (a gap; the chat: lines not heard);
        #: the task that applies them
        self._remote_actions: list[tuple[int, int, dict[str, Any]]] = []
        self._remote_gap = False
        self._chat_gap = False
        self._chat_tries = 0  # chat reads that failed in a row
        self._remote_task: asyncio.Task[None] | None = None
        self.started = time.monotonic()
        self.changed_at = self.started  # when its game last changed here
        self.last_used = self.started  # when it was last asked for, played or left
        #: whether a player ever came: until then it plays no bots (a table
        #: made by a script nobody joins does not become a bot game)
        self.humans_seen = game.version > 0
        #: snapshots made at this version and presence: (seat, lang, symbols,
        #: events since) → the message's text without its deadline
        self._snapshots: dict[tuple[Any, ...], str] = {}
        self._snapshots_at: tuple[int, int, int] = (-1, -1, -1)
        self.presence_rev = 0  # counts the changes of what info() says
        #: (seat, language, symbols) → the JSON text of each event made so
        #: far, and the names they have (the one used last, last)
        self._event_texts: dict[tuple[int | None, str, bool], _EventTexts] = {}
        #: when the current decision of each seat began (for countdowns)
        self._since: dict[int, float] = {}

    # ------------------------------------------------------------ names
    def names(self, lang: str) -> list[str]:
        """The seats' names in ``lang``, no two alike ("Ola (robot, middels)", "Kari 2")."""
        return seat_names([seat.record for seat in self.seats], lang, self.settings.names_lang)

    def info(self, seated: bool = False) -> dict[str, Any]:
        """Public information about the table (no cards); ``next_code`` (the
        table of "play again", private as any table's invite code) only for
        one of its players (``seated``), else null."""
        return {
            "code": self.code,
            "preset": self.record.preset,
            "rules": self.record.rules,
            "players": self.record.players,
            "status": self.record.status,
            "settings": self.settings.to_json(),
            "next_code": self.record.next_code if seated else None,
            "waiting": self.settings.waiting,
            "seats": [{
                "seat": s.record.seat, "kind": s.record.kind, "level": s.record.level,
                "name": s.record.name, "taken": s.is_bot or s.record.token_hash is not None,
                "connected": self.present(s.record.seat) > 0, "away": self.is_away(s),
            } for s in self.seats],
            # (no player has come yet: nothing moves by itself, no bot stands in)
            "unclaimed": not self.humans_seen,
            # (the names as the pages show them: no two alike at a table)
            "names": {lang: self.names(lang) for lang in i18n.LANGUAGES},
            # (a bot's first name alone: a narrow panel shows it beside the bot's mark and level)
            "short_names": {lang: short_seat_names([seat.record for seat in self.seats], lang,
                                                   self.settings.names_lang)
                            for lang in i18n.LANGUAGES},
        }

    def present(self, seat: int) -> int:
        """Connections to ``seat``: this process's and the other processes'."""
        return self.seats[seat].connections + self.fanout.remote(self.code, seat)

    def local_counts(self) -> list[int]:
        """This process's connections per seat."""
        return [s.connections for s in self.seats]

    def used(self) -> None:
        """Somebody asked for the table now (it is not idle)."""
        self.last_used = time.monotonic()

    def spectators(self) -> int:
        """This process's connections without a seat."""
        return sum(1 for c in self.clients if c.seat is None)

    def presence_changed(self) -> None:
        """Connections came or went (here or in another process): who is away."""
        now = time.monotonic()
        for s in self.seats:
            if self.present(s.record.seat) > 0:
                if not s.is_bot:
                    self.humans_seen = True
                s.left_at = None
                if not s.is_bot:
                    s.bot = None  # back: the player takes the seat back
            elif s.left_at is None:
                s.left_at = now
        if not self.closed:
            self.broadcast_table()
            self.schedule_moves()

    def is_away(self, seat: SeatState) -> bool:
        """Whether the seat's player has been gone for the table's away time
        (and a bot plays for them: never before a player has come to the table)."""
        if seat.is_bot or not self.humans_seen or self.present(seat.record.seat) > 0:
            return False
        if seat.left_at is None:
            return False
        return time.monotonic() - seat.left_at >= self.settings.away_seconds

    def bot_for(self, seat: int, level: str) -> Bot:
        """A bot of ``level`` for ``seat`` (seeded from the table)."""
        return seat_bot(self.rules, self.record.seed, seat, level)

    def plays_here(self) -> bool:
        """Whether this process plays the table's bots and timers."""
        return self.fanout.owns(self.code)

    # --------------------------------------------------------- messages
    def _texts(self, seat: int | None, lang: str, symbols: bool) -> _EventTexts:
        """The event texts kept for (``seat``, ``lang``, ``symbols``), used now
        (the one used longest ago let go while they hold more than
        :data:`EVENT_TEXT_BYTES`)."""
        names = tuple(self.names(lang))
        key = (seat, lang, symbols)
        hit = self._event_texts.pop(key, None)
        if hit is None or hit.names != names:
            hit = _EventTexts(names)
        self._event_texts[key] = hit  # (last: used last)
        return hit

    def _trim_texts(self) -> None:
        """At most :data:`EVENT_TEXT_BYTES` of event texts kept (those of the
        key used last always)."""
        total = sum(t.size for t in self._event_texts.values())
        while total > EVENT_TEXT_BYTES and len(self._event_texts) > 1:
            oldest = next(iter(self._event_texts))
            total -= self._event_texts.pop(oldest).size

    def _events_text(self, client: Client, since: int) -> str:
        """The JSON list of the game's events from number ``since`` on, as the
        client's seat sees them and in its language: each event made once per
        seat, language and names (kept while the table is in memory, up to
        :data:`EVENT_TEXT_BYTES`), and only those asked for, so a snapshot
        since the first event costs a join, not a rendering; a snapshot of
        many events not made yet has them made in a worker first
        (:meth:`prepare_events`)."""
        hit = self._texts(client.seat, client.lang, client.symbols)
        texts = hit.texts
        events = self.game.events
        if len(texts) < len(events):
            texts.extend([None] * (len(events) - len(texts)))
        for i in range(max(0, since), len(events)):
            if texts[i] is None:
                text = texts[i] = self._event_text(events[i].visible_to(client.seat),
                                                   client.lang, hit.names, client.symbols)
                hit.size += len(text)
        self._trim_texts()
        return "[" + ",".join(cast("list[str]", texts[since:])) + "]"

    async def prepare_events(self, seat: int | None, lang: str, symbols: bool,
                             since: int | None, executor: Executor | None) -> None:
        """Make in ``executor`` the texts of the events a snapshot since
        ``since`` (None: the round's start) of (``seat``, ``lang``,
        ``symbols``) would otherwise make on the event loop, when they are
        more than :data:`EVENTS_ON_LOOP` (a long game's: a second's work)."""
        if self.settings.waiting:
            return
        events = self.game.events
        if since is None:
            since = len(events) - len(self.views.view(seat).events)
        hit = self._texts(seat, lang, symbols)
        texts = hit.texts
        missing = [i for i in range(max(0, since), len(events))
                   if i >= len(texts) or texts[i] is None]
        if len(missing) <= EVENTS_ON_LOOP:
            return
        chosen = [events[i] for i in missing]
        try:
            made = await asyncio.get_running_loop().run_in_executor(
                executor, _event_texts, chosen, seat, lang, hit.names, symbols)
        except RuntimeError:  # (the pool is shut down: the server stops)
            return
        if self._event_texts.get((seat, lang, symbols)) is not hit:
            return  # (let go, or the names changed, meanwhile)
        if len(texts) < len(events):
            texts.extend([None] * (len(events) - len(texts)))
        for i, text in zip(missing, made, strict=True):
            if texts[i] is None:
                texts[i] = text
                hit.size += len(text)
        self._trim_texts()

    @staticmethod
    def _event_text(event: Event, lang: str, names: tuple[str, ...], symbols: bool) -> str:
        return dumps({"event": event.to_json(),
                      "text": i18n.render(event, lang, list(names), symbols=symbols,
                                          joker_word=True)})

    def deadline(self, seat: int | None) -> float | None:
        """Seconds left for ``seat``'s current decision (None: no countdown;
        none runs before a player has come to the table)."""
        if seat is None or self.settings.waiting or not self.humans_seen:
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

    def clock(self) -> str:
        """The JSON text of the public countdown: ``{"seat", "seconds"}`` of the
        seat to move when a timer runs for it (its turn, or the buy or call
        window it answers first), else ``null``. The seat to move never holds
        an early answer, so the clock tells nothing hidden."""
        game = self.game
        seat = None if game.is_over else game.to_move
        left = self.deadline(seat)
        if seat is None or left is None:
            return "null"
        return f'{{"seat":{seat},"seconds":{round(left, 1)}}}'

    def snapshot(self, client: Client, events_since: int | None = None) -> dict[str, Any]:
        """A full message: the view, the table, the events (those of the round, or
        every one since ``events_since``)."""
        data: dict[str, Any] = json.loads(self.snapshot_text(client, events_since))
        return data

    def snapshot_text(self, client: Client, events_since: int | None = None) -> str:
        """:meth:`snapshot` as JSON text, made once per version, presence, seat,
        language and ``events_since`` (many asking for the same get the same)."""
        since = None if events_since is None else max(0, events_since)
        # (a seat's "away" comes with time alone: at most 2 s old)
        now = (self.game.version, self.presence_rev, int(time.monotonic() // 2))
        if self._snapshots_at != now:
            self._snapshots.clear()
            self._snapshots_at = now
        key = (client.seat, client.lang, client.symbols, since)
        body = self._snapshots.get(key)
        seated = client.seat is not None
        if body is None and self.settings.waiting:  # (nothing is dealt before the start)
            body = (f'{{"type":"snapshot","n":{self.game.version},'
                    f'"seat":{dumps(client.seat)},"table":{dumps(self.info(seated))},'
                    f'"view":null,"events":[]')
        elif body is None:
            if since is None:  # (the events of the round: those since its start)
                since = len(self.game.events) - len(self.views.view(client.seat).events)
            body = (f'{{"type":"snapshot","n":{self.game.version},'
                    f'"seat":{dumps(client.seat)},"table":{dumps(self.info(seated))},'
                    f'"view":{self.view_texts.view_text(client.seat)},'
                    f'"events":{self._events_text(client, since)}')
            if len(self._snapshots) < 64:
                self._snapshots[key] = body
        client.last_event = len(self.game.events)
        client.sent_version = self.game.version
        client.table_rev = self.presence_rev
        return (f'{body},"chat":{self.chat.text()},'
                f'"deadline":{dumps(self.deadline(client.seat))},'
                f'"clock":{self.clock()}}}')

    def _update(self, client: Client) -> str:
        """The ``update`` message of ``client`` as JSON text."""
        events = self._events_text(client, client.last_event)
        client.last_event = len(self.game.events)
        return (f'{{"type":"update","n":{self.game.version},'
                f'"view":{self.view_texts.view_text(client.seat)},'
                f'"events":{events},'
                f'"deadline":{dumps(self.deadline(client.seat))},"clock":{self.clock()}}}')

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

    def broadcast_table(self) -> None:
        """A ``table`` message to every client, soon: the news of
        ``presence_delay`` seconds goes as one message (made once)."""
        self.presence_rev += 1
        if self._table_news is not None or self.closed:
            return
        self._table_news = asyncio.get_running_loop().call_later(self.presence_delay,
                                                                 self._send_table)

    def _send_table(self) -> None:
        self._table_news = None
        if self.closed or not self.clients:
            return
        texts = {seated: dumps({"type": "table", "n": self.game.version,
                                "table": self.info(seated)}) for seated in (False, True)}
        for client in list(self.clients):
            if client.table_rev < self.presence_rev:  # (not if its snapshot has it)
                client.table_rev = self.presence_rev
                client.send(texts[client.seat is not None])
        self._plan_away_news()

    def _plan_away_news(self) -> None:
        """Tell the clients when the next player who left counts as away (a bot
        plays for them): the ``table`` message then, and so on for the next."""
        if self._away_news is not None:
            self._away_news.cancel()
            self._away_news = None
        now = time.monotonic()
        # (those away already were in the message just sent)
        due = [d for s in self.seats if not s.is_bot and s.left_at is not None
               if (d := s.left_at + self.settings.away_seconds - now) > 0]
        if due and not self.closed:
            self._away_news = asyncio.get_running_loop().call_later(min(due) + 0.05,
                                                                    self._away_due)

    def _away_due(self) -> None:
        self._away_news = None
        self.broadcast_table()

    async def say(self, seat: int | None, text: str | None, reaction: str | None) -> ChatLine:
        """A chat line of ``seat`` (None: a spectator): written to storage, then
        sent to every connection here and told to the other processes. Raises
        StoreError: the line was not said, or (a write the storage finished
        after the timeout) comes to everyone late, from the chat read again
        once a write can no longer land."""
        line: ChatLine = {"at": round(time.time(), 3), "events": len(self.game.events),
                          "seat": seat, "text": text, "reaction": reaction}
        try:
            line["id"] = await self.storage.append_chat(self.code, line)
        except StoreError:
            # a write cut by the timeout may still land: the database cuts the
            # statement itself after as long again, so after that it is in or not
            asyncio.get_running_loop().call_later(2 * self.storage.timeout,
                                                  self.catch_up_chat_soon)
            raise
        line = {"id": line.pop("id"), **line}
        self.hear(line)
        self.fanout.chat(self.code, line)
        return line

    def hear(self, line: ChatLine) -> None:
        """A chat line said here or in another process: kept, and sent to
        every connection of the table here (once)."""
        if self.closed or not self.chat.add(line):
            return
        text = dumps({"type": "chat", "n": self.game.version, "line": line})
        for client in list(self.clients):
            client.send(text)

    def start_game(self) -> None:
        """The table's creator started it (its settings are stored): every
        client gets its snapshot (the deal), and the table plays."""
        self.settings.waiting = False
        self.record.settings = dict(self.record.settings, waiting=False)
        now = time.monotonic()
        for seat in self.seats:  # a seat nobody took: its away time runs from the start
            if not seat.is_bot and seat.record.token_hash is None and seat.left_at is not None:
                seat.left_at = now
        self.presence_rev += 1
        self._since.clear()
        for client in list(self.clients):
            client.send(self.snapshot_text(client))
        self.schedule_moves()

    def seat_changed(self, seat: SeatState) -> None:
        """A seat went to a bot or back to a person (its record is stored):
        its bot, and the news to every client."""
        self._new_bot(seat)
        self.broadcast_table()
        self.schedule_moves()

    def _new_bot(self, seat: SeatState) -> None:
        """The bot of a seat that went to a bot, or none for a seat given back."""
        if seat.is_bot:
            seat.bot = self.bot_for(seat.record.seat, seat.record.level or "medium")
            seat.left_at = None
        else:
            seat.bot = None
            seat.left_at = time.monotonic()  # (nobody has come to it yet)

    def error_message(self, client: Client, e: Exception,
                      code: str | None = None) -> dict[str, Any]:
        """The ``error`` message that refuses something ``client`` sent, with
        the reason ``e`` in its language."""
        message = i18n.error_text(e, client.lang, self.names(client.lang),
                                  symbols=client.symbols, joker_word=True)
        data: dict[str, Any] = {"type": "error", "n": self.game.version,
                                "code": code or getattr(e, "code", "error"), "message": message}
        if isinstance(e, GameError):
            data["params"] = e.to_json()["params"]
        return data

    # -------------------------------------------------------- connections
    def connect(self, client: Client) -> int:
        """A new connection: its snapshot comes first, then the others hear of
        it. Returns the snapshot's size (bytes of text)."""
        self.clients.add(client)
        self.used()
        if client.seat is None:  # a spectator: nothing the others see changes
            text = self.snapshot_text(client)
            client.send(text)
            return len(text)
        seat = self.seats[client.seat]
        seat.connections += 1
        seat.left_at = None
        if not seat.is_bot:
            seat.bot = None  # back: the player takes the seat back
            self.humans_seen = True
        self.fanout.presence(self.code, self.local_counts())
        self.broadcast_table()
        text = self.snapshot_text(client)
        client.send(text)
        self.schedule_moves()
        return len(text)

    def disconnect(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.discard(client)
        self.used()
        if client.seat is None:
            return
        seat = self.seats[client.seat]
        seat.connections = max(0, seat.connections - 1)
        if self.present(client.seat) == 0:
            seat.left_at = time.monotonic()
        self.fanout.presence(self.code, self.local_counts())
        self.broadcast_table()
        self.schedule_moves()

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
            if self.metrics is not None:
                self.metrics.actions.labels(source="automatic" if automatic else "player"
                                            ).inc()
        finally:
            if self.game.version != start:  # (caught up from storage, even if refused)
                self.broadcast()
                self.schedule_moves()
        self.fanout.action(self.code, seq, seat, data)

    async def _write_next(self, seat: int, action: Action,
                          expected_version: int | None) -> tuple[int, dict[str, Any]]:
        for attempt in range(3):
            game = self.game
            if game.is_over:
                raise ActionError("game_over")
            if self.settings.waiting:
                raise ActionError("server_not_started")
            probe = game.copy()
            probe.apply(action, seat=seat, expected_version=expected_version)  # raises
            seq = game.version + 1
            data = dict(probe.history[-1].to_json())
            try:
                await self.storage.append_action(self.code, seq, seat, data)
            except ConflictError:
                if attempt == 2:
                    raise
                await self._catch_up()  # another process wrote first: look again
                continue
            self._apply(seq, seat, probe.history[-1])
            if game.is_over:
                try:
                    await self.storage.finish_table(self.code)
                except StoreError:
                    log.exception("table %s: could not mark finished", self.code)
            return seq, data
        raise AssertionError("unreachable")  # pragma: no cover

    def _apply(self, seq: int, seat: int, action: Action) -> None:
        """Apply action number ``seq`` (already in storage) to this table's game."""
        game = self.game
        if seq != game.version + 1:  # storage and the game out of step: never applied
            raise RuntimeError(f"action {seq} does not follow version {game.version}")
        before = (game.phase, game.to_move, game.answering)
        game.apply(action, seat=seat)
        self.changed_at = self.last_used = time.monotonic()
        if not self.humans_seen:  # (a move was made: somebody came, here or elsewhere)
            self.humans_seen = True
            self.broadcast_table()
        if game.is_over:
            self.record.status = "finished"
        self._track(before)

    def remote_action(self, seq: int, seat: int, data: dict[str, Any]) -> None:
        """Another process wrote action ``seq``: apply it and tell the clients,
        at once when the table is free; otherwise (or after a gap, when what is
        missing comes from storage) in a task of the table's own, so that news
        of the other tables never waits for this one."""
        if seq <= self.game.version or self.closed:
            return
        if (seq == self.game.version + 1 and not self.lock.locked()
                and not self._remote_actions):
            self._apply(seq, seat, action_from_json(data))
            self.broadcast()
            self.schedule_moves()
            return
        self._remote_actions.append((seq, seat, data))
        self._start_remote_task()

    def catch_up_soon(self) -> None:
        """Bring the table up to date from storage in a task of its own."""
        self._remote_gap = True
        self._start_remote_task()

    def catch_up_chat_soon(self) -> None:
        """Read the table's chat again from storage in a task of its own: the
        lines said in another process that never came here (Redis was away,
        the table was being loaded) go to the clients then."""
        self._chat_gap = True
        self._start_remote_task()

    def _start_remote_task(self) -> None:
        if self.closed:
            return
        if self._remote_task is None or self._remote_task.done():
            self._remote_task = asyncio.get_running_loop().create_task(
                self._apply_remote_actions())

    async def _apply_remote_actions(self) -> None:
        """Apply the actions heard from other processes (reading storage after
        a gap), under the table's lock, and tell the clients; read the chat
        again when lines may have been missed."""
        while self._remote_actions or self._remote_gap or self._chat_gap:
            if self._chat_gap:
                self._chat_gap = False
                await self._catch_up_chat()
                if not (self._remote_actions or self._remote_gap):
                    continue
            async with self.lock:
                version = self.game.version
                pending, self._remote_actions = sorted(self._remote_actions), []
                gap, self._remote_gap = self._remote_gap, False
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
                self.schedule_moves()

    async def _catch_up_chat(self) -> None:
        """Every stored line of the last :data:`~.chat.MEMORY` not heard here
        goes to the clients; the count becomes the storage's."""
        try:
            lines, count = await self.storage.chat_tail(self.code, MEMORY)
        except StoreError as e:
            log.warning("table %s: chat not read again: %s", self.code, e)
            self._chat_tries += 1
            if self._chat_tries <= 3:  # (then the next tick that counts more asks again)
                asyncio.get_running_loop().call_later(self.storage.timeout,
                                                      self.catch_up_chat_soon)
            return
        self._chat_tries = 0
        for line in lines:
            self.hear(line)
        self.chat.count = max(count, len(self.chat.lines))

    async def catch_up(self) -> None:
        """Apply whatever storage has beyond this table's game, and tell the clients."""
        async with self.lock:
            version = self.game.version
            await self._catch_up()
            if self.game.version == version:
                return
        self.broadcast()
        self.schedule_moves()

    async def _catch_up(self) -> None:
        rows = await self.storage.actions(self.code, self.game.version)
        for seq, seat, data in rows:
            if seq == self.game.version + 1:
                self._apply(seq, seat, action_from_json(data))

    async def reload(self) -> None:
        """The table's record changed in storage (a seat taken, auto-pass, play
        again): read it again and tell the clients."""
        record = await self.storage.table(self.code)
        if record is None:
            return
        for s, r in zip(self.seats, record.seats, strict=False):
            given = (s.record.kind, s.record.level) != (r.kind, r.level)
            s.record = r
            if given:  # (the creator changed it in another process)
                self._new_bot(s)
        self.record.next_code = record.next_code
        if self.settings.waiting and not record.settings.get("waiting", False):
            self.start_game()  # (its creator started it in another process)
        if record.status == "finished":
            self.record.status = "finished"
        self.broadcast_table()
        self.schedule_moves()

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

    def track_decisions(self) -> None:
        """Start the countdowns of the decisions now if none is known yet."""
        if not self._since:
            self._track((self.game.phase, None, ()))

    # -------------------------------------------------- automatic moves
    def schedule_moves(self) -> None:
        """(Re)schedule the automatic moves (:meth:`AutomaticMoves.schedule`)."""
        self.moves.schedule()

    def close(self) -> None:
        self.closed = True
        for news in (self._table_news, self._away_news):
            if news is not None:
                news.cancel()
        self._table_news = self._away_news = None
        self.moves.close()
        if self._remote_task is not None:
            self._remote_task.cancel()
        for client in list(self.clients):
            client.close()
