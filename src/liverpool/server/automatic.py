"""The moves a table makes by itself: its bots, the stand-in bot of a player
who is away, the turn timer's basic bot, and buy and call windows that pass
when nobody answers in time."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Protocol

from ..actions import Action, ActionError, Pass
from ..bots import Bot
from ..engine import Game
from ..views import SeatViews
from .processes import WorkerDied, WorkerPool, bot_choice
from .seats import SeatState, TableSettings
from .store import StoreError

__all__ = ["AutomaticMoves", "Key"]

log = logging.getLogger("liverpool.server")

#: an automatic move: (seat, version, reason: bot, away, timer, window, auto_pass)
Key = tuple[int, int, str]

try:  # the expert and the search (the hard level) search: think in a worker process
    from ..bots.expert import ExpertBot
    from ..bots.search import SearchBot

    _SLOW_BOTS: tuple[type, ...] = (ExpertBot, SearchBot)
except ImportError:  # pragma: no cover
    _SLOW_BOTS = ()


class TableLike(Protocol):
    """What the automatic moves need of their table (:class:`.table.Table`)."""

    code: str
    game: Game
    settings: TableSettings
    seats: list[SeatState]
    views: SeatViews
    closed: bool
    humans_seen: bool
    bots: WorkerPool | None

    def is_away(self, seat: SeatState) -> bool: ...
    def deadline(self, seat: int | None) -> float | None: ...
    def track_decisions(self) -> None: ...
    def plays_here(self) -> bool: ...
    def bot_for(self, seat: int, level: str) -> Bot: ...
    async def submit(self, seat: int, action: Action, expected_version: int | None = None,
                     *, automatic: bool = False) -> None: ...


class AutomaticMoves:
    """The automatic moves of one table, scheduled on the event loop."""

    def __init__(self, table: TableLike) -> None:
        self.table = table
        #: the automatic moves scheduled, and those under way, by (seat, version, reason)
        self.timers: dict[Key, asyncio.TimerHandle] = {}
        self.running: set[Key] = set()
        self._recheck: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def schedule(self) -> None:
        """(Re)schedule the automatic moves: bots, away players, timers.

        A move already scheduled for the same seat, version and reason keeps its
        time (people coming and going do not hold the bots back), and one under
        way is not started twice."""
        table = self.table
        game = table.game
        if (game.is_over or table.closed or not table.plays_here() or not table.humans_seen
                or table.settings.waiting):
            # (another process plays this table's bots and timers; or no player
            # has come yet, or its creator has not started it: nothing moves
            # by itself before)
            self.cancel()
            return
        loop = asyncio.get_running_loop()
        version = game.version
        table.track_decisions()
        deciding: list[int] = []
        if game.phase in ("buy", "call"):
            deciding = list(game.answering)
        elif game.to_move is not None:
            deciding = [game.to_move]
        settings = table.settings
        wanted: dict[Key, float] = {}
        recheck: float | None = None  # when someone will count as away
        for seat in deciding:
            s = table.seats[seat]
            if s.is_bot:
                delay, why = settings.bot_delay, "bot"
            elif table.is_away(s):
                delay, why = settings.bot_delay, "away"
            elif game.phase in ("buy", "call"):
                if s.record.auto_pass and game.phase == "buy":
                    delay, why = 0.0, "auto_pass"
                else:
                    left = table.deadline(seat)
                    delay, why = (left if left is not None else settings.window_seconds,
                                  "window")
            else:
                left = table.deadline(seat)
                if left is None:
                    if s.left_at is not None:  # check again when they count as away
                        wait = settings.away_seconds - (time.monotonic() - s.left_at)
                        wait = max(0.0, wait) + 0.05
                        recheck = wait if recheck is None else min(recheck, wait)
                    continue
                delay, why = left, "timer"
            wanted[(seat, version, why)] = delay
        for key, handle in list(self.timers.items()):
            if key not in wanted:
                handle.cancel()
                del self.timers[key]
        for key, delay in wanted.items():
            if key not in self.timers and key not in self.running:
                self.timers[key] = loop.call_later(delay, self._spawn, key)
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None
        if recheck is not None:
            self._recheck = loop.call_later(recheck, self.schedule)

    def cancel(self) -> None:
        """Cancel every scheduled move (those under way go on)."""
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        if self._recheck is not None:
            self._recheck.cancel()
            self._recheck = None

    def close(self) -> None:
        """Cancel every scheduled move and those under way."""
        self.cancel()
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, key: Key) -> None:
        self.timers.pop(key, None)
        if self.table.closed:
            return
        self.running.add(key)
        task = asyncio.get_running_loop().create_task(self._move(*key))
        self._tasks.add(task)

        def done(t: asyncio.Task[None]) -> None:
            self._tasks.discard(t)
            self.running.discard(key)

        task.add_done_callback(done)

    async def _move(self, seat: int, version: int, why: str) -> None:
        table = self.table
        game = table.game
        if game.version != version or game.is_over:
            return
        s = table.seats[seat]
        legal: list[Action] = []
        if why in ("window", "auto_pass"):
            action: Action = Pass()
        else:
            bot = s.bot
            if why == "timer" or bot is None:
                bot = table.bot_for(seat, "basic")
                if why == "away":
                    s.bot = bot  # the stand-in keeps its memory while they are away
            view = table.views.view(seat)
            legal = list(view.legal_actions)
            if not legal:
                return
            try:
                if isinstance(bot, _SLOW_BOTS) and table.bots is not None:
                    action, thought = await table.bots.run(bot_choice, bot, view, legal)
                    if s.bot is bot:
                        s.bot = thought  # (its memory goes on from the worker's)
                elif isinstance(bot, _SLOW_BOTS):
                    action = await asyncio.get_running_loop().run_in_executor(
                        None, bot.choose, view, legal)
                else:
                    action = bot.choose(view, legal)
            except WorkerDied:  # (the next moves get a new worker; this one is basic's)
                log.error("table %s: the worker process of seat %d's bot died", table.code,
                          seat)
                action = table.bot_for(seat, "basic").choose(view, legal)
            except Exception:
                log.exception("table %s: the bot of seat %d failed", table.code, seat)
                action = legal[-1]
            if why == "away" and not table.is_away(s):
                return  # they came back while the bot thought
        try:
            await table.submit(seat, action, expected_version=version, automatic=True)
        except ActionError as e:
            if table.game.version != version or table.game.is_over:
                return  # the game moved on meanwhile
            # the automatic move itself was refused: never leave the table waiting
            log.error("table %s: automatic move %r of seat %d refused: %s", table.code,
                      action, seat, e)
            fallback = Pass() if not legal else legal[0]
            if fallback != action:
                with contextlib.suppress(ActionError, StoreError):
                    await table.submit(seat, fallback, expected_version=version,
                                       automatic=True)
        except StoreError:
            log.warning("table %s: storage refused an automatic move; trying again", table.code)
            if not table.closed:
                asyncio.get_running_loop().call_later(1.0, self.schedule)
