"""Hints at a table (docs/protocol.md, "Hints"): the search's suggestion at a
player's own decision (:func:`liverpool.review.hint`), for tables made with
``hints`` on.

A hint is worked out from the seat's view and legal actions only, taken on
the event loop at the version asked about and handed to a pool of worker
processes of its own (:class:`.processes.WorkerPool`: ``workers`` processes, by
default one; not threads, whose pure Python would hold the interpreter's lock
against the event loop; at most ``queue`` hints waiting or running per server
process, one more gets ``server_busy``), never on the loop, within
``time_ms``. Its answer goes to the connection that asked, and to no
other; when the game has moved on meanwhile it is sent marked ``stale``,
without the action. Each seat of a table has one hint under way at a time,
over all its connections (``server_hint_pending``: many connections of one
seat cannot fill the pool), and each connection ``per_minute`` in any minute
(``server_hints_too_fast``). The samples are seeded from the view itself: the
same view gets the same hint (under an unbounded time), whatever the hidden
cards, and asking again is no second draw. Hints change nothing in the game
or its record.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from .. import i18n
from ..actions import Action
from ..errors import GameError
from ..review import Hint
from ..views import SeatView
from .messages import Client
from .processes import WorkerDied, WorkerPool, hint_in_process
from .table import Table

__all__ = ["HintRate", "Hints", "view_seed"]

log = logging.getLogger("liverpool.server")


def view_seed(view: SeatView) -> int:
    """The seed of a hint's samples: a hash of the seat's view (so it tells
    nothing the seat could not see, and the same view gets the same hint)."""
    text = json.dumps(view.to_json(events=False), sort_keys=True, separators=(",", ":"))
    digest = hashlib.blake2b(text.encode(), digest_size=8, person=b"liverpool-hint").digest()
    return int.from_bytes(digest, "big") & 0x7FFFFFFFFFFF


class HintRate:
    """One connection's hints: the one under way, when the last ones were asked,
    and the last one given (its version and its hint, said again in another
    language when the connection switches: :meth:`Hints.again`)."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self.pending = False
        self.asked: deque[float] = deque()
        self.last: tuple[int, Hint] | None = None

    def wait(self) -> int:
        """Seconds until this connection may ask again (0: now)."""
        now = time.monotonic()
        while self.asked and now - self.asked[0] >= 60.0:
            self.asked.popleft()
        if len(self.asked) < self.per_minute:
            return 0
        return max(1, math.ceil(60.0 - (now - self.asked[0])))


class Hints:
    """The hints of a server process (asked on its event loop, worked out in
    its own worker processes)."""

    def __init__(self, *, workers: int = 1, queue: int = 4, samples: int = 12,
                 time_ms: float = 700.0, per_minute: int = 10) -> None:
        #: the worker processes (made with the first hint)
        self.pool = WorkerPool(workers)
        self.queue = queue
        self.samples = samples
        self.time_ms = time_ms
        self.per_minute = per_minute
        self.busy = 0  # hints waiting or running
        #: the (table, seat) pairs with a hint waiting or running: one each
        self.asking: set[tuple[str, int]] = set()
        self.given = 0  # hints answered by this process
        self.seconds: deque[float] = deque(maxlen=1000)  # the last ones' times
        self._tasks: set[asyncio.Task[None]] = set()

    def rate(self) -> HintRate:
        """A new connection's hint rate."""
        return HintRate(self.per_minute)

    def ask(self, table: Table, client: Client, rate: HintRate, version: int | None,
            refuse: Callable[..., None]) -> None:
        """A ``hint`` message of ``client`` (``version``: the one it was asked at,
        or None: the current one): refused with ``refuse(code, **params)``, or
        worked out in the pool and answered to ``client`` alone."""
        game = table.game
        if not table.settings.hints:
            refuse("server_hints_off")
            return
        seat = client.seat
        if seat is None:
            refuse("server_spectator")
            return
        if table.settings.waiting:  # (nothing is dealt before the start)
            refuse("server_not_started")
            return
        if game.is_over or not game.legal_actions(seat):
            refuse("server_hint_not_your_decision")
            return
        if version is not None and version != game.version:
            client.send(self._answer(game.version, version, None, None))
            return
        if rate.pending or (table.code, seat) in self.asking:
            refuse("server_hint_pending")
            return
        wait = rate.wait()
        if wait:
            refuse("server_hints_too_fast", seconds=wait)
            return
        if self.busy >= self.queue:
            refuse("server_busy")
            return
        rate.asked.append(time.monotonic())
        rate.pending = True
        self.busy += 1
        self.asking.add((table.code, seat))
        view = game.view(seat)
        legal = list(game.legal_actions(seat))
        task = asyncio.get_running_loop().create_task(
            self._work(table, client, rate, game.version, view, legal, seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _work(self, table: Table, client: Client, rate: HintRate, version: int,
                    view: SeatView, legal: list[Action], seat: int) -> None:
        asked_in = (client.lang, client.symbols)
        try:
            found, text, seconds = await self.pool.run(
                hint_in_process, table.rules, view, legal, self.samples, view_seed(view),
                self.time_ms, *asked_in)
        except WorkerDied:  # (the next hints get a new worker)
            log.error("table %s: a hint's worker process died", table.code)
            client.send(table.error_message(client, GameError("server_try_again")))
            return
        except RuntimeError:  # (the pool shut down)
            return
        except Exception:
            log.exception("table %s: a hint failed", table.code)
            client.send(table.error_message(client, GameError("server_try_again")))
            return
        finally:
            rate.pending = False
            self.busy -= 1
            self.asking.discard((table.code, seat))
        self.given += 1
        self.seconds.append(seconds)
        now = table.game.version
        if now != version:
            client.send(self._answer(now, version, None, None))
        else:
            rate.last = (version, found)
            if (client.lang, client.symbols) != asked_in:  # (switched meanwhile: said in the new)
                text = i18n.hint_text(found, client.lang, symbols=client.symbols,
                                      table=table.game.table)
            client.send(self._answer(now, version, found.action.to_json(), text))

    def again(self, table: Table, client: Client, rate: HintRate) -> None:
        """The connection's last hint said again in its language now (after a
        ``lang`` message), if it is still for the game's current version."""
        if rate.last is not None and rate.last[0] == table.game.version:
            found = rate.last[1]
            client.send(self._answer(rate.last[0], rate.last[0], found.action.to_json(),
                                     i18n.hint_text(found, client.lang, symbols=client.symbols,
                                                    table=table.game.table)))

    @staticmethod
    def _answer(n: int, version: int, action: dict[str, Any] | None,
                text: str | None) -> dict[str, Any]:
        return {"type": "hint", "n": n, "version": version, "stale": action is None,
                "action": action, "text": text}

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        self.pool.close()
