"""The coach's reviews of finished games (:mod:`liverpool.review`), made in
the background and kept with the game.

A review costs tens of seconds of a core, so it is made in processes of its
own (:mod:`.processes`: not in a thread, whose pure Python would hold the
interpreter's lock against the event loop), ``processes`` of them sharing
its decisions out (the server's ``--review-processes``, by default two, no
more than the machine's cores), waited for by a worker pool of its own
(``workers`` threads, by default one: one review at a time), with at most
``queue`` reviews waiting or running per server process; one more is
refused (``server_busy``). A review is made once per table and seat:
whoever asks again while it runs sees its progress, and once made it is
read from the store. The kept review holds the "better" sentences in every
language; the JSON sent holds those of the language asked for
(docs/protocol.md, "Review").
"""

from __future__ import annotations

import asyncio
import copy
import logging
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ..actions import Cut, Stage, Unstage
from ..engine import Game
from ..review import REVIEW_FORMAT
from .processes import review_in_process
from .store import AsyncStore, Store, StoreError

__all__ = ["Job", "Reviews", "ReviewsFull", "localized", "seat_moves"]

log = logging.getLogger("liverpool.server")


class ReviewsFull(RuntimeError):
    """Too many reviews are waiting or running: try again later."""


@dataclass
class Job:
    """One review being made: ``status`` is ``queued``, ``running``, ``done``
    or ``failed``; ``done`` of ``total`` decisions reviewed so far (written
    by the worker thread, read on the loop)."""

    status: str = "queued"
    done: int = 0
    total: int = 0
    data: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


def localized(data: dict[str, Any], lang: str) -> dict[str, Any]:
    """A kept review with the words (``move``, ``better``) of ``lang`` only."""
    def words(d: dict[str, Any]) -> dict[str, Any]:
        return dict(d, **{k: d[k].get(lang) for k in ("move", "better")
                          if isinstance(d.get(k), dict)})
    out = copy.copy(data)
    out["decisions"] = [words(d) for d in data.get("decisions", [])]
    return out


def seat_moves(game: Game, seat: int) -> int:
    """The moves of ``seat`` in ``game`` that a review may search: its actions
    but cuts and the cards staged one by one (a lay-down so built counts once,
    as its commit). Counted from the history alone (no replay): at least as
    many as the review's decisions (a forced move is not one)."""
    return sum(1 for action, who in zip(game.history, game.history_seats, strict=True)
               if who == seat and not isinstance(action, Cut | Stage | Unstage))


def make_review(game: Game, seat: int, job: Job, samples: int,
                stopping: threading.Event, processes: int = 1) -> dict[str, Any]:
    """Review ``seat`` of the finished ``game`` (in a worker thread, which
    waits for the review's own ``processes``). Raises
    :class:`~liverpool.review_processes.ReviewFailed` when no review comes."""
    job.status = "running"

    def progress(done: int, total: int) -> None:
        job.done, job.total = done, total

    return review_in_process(game.record(), seat, samples, progress, stopping, processes)


class Reviews:
    """The reviews of a server process (touched on its event loop; each made
    in ``processes`` processes of its own, waited for by its own worker pool;
    kept in ``store``)."""

    def __init__(self, storage: AsyncStore, store: Store, *, workers: int = 1,
                 queue: int = 4, samples: int = 12, keep: int = 64,
                 processes: int = 1) -> None:
        self.storage = storage
        self.store = store
        #: the processes of one review
        self.processes = processes
        self.executor = ThreadPoolExecutor(max_workers=workers,
                                           thread_name_prefix="liverpool-review")
        self.queue = queue
        self.samples = samples
        self.keep = keep
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self.made = 0  # reviews made by this process
        #: set when the server stops: the review waiting ends its process
        self.stopping = threading.Event()

    def _busy(self) -> int:
        return sum(1 for j in self.jobs.values() if j.status in ("queued", "running"))

    async def status(self, code: str, seat: int, lang: str) -> dict[str, Any]:
        """The review of ``seat`` at table ``code``: ``{"status", "done", "total"}``
        and, once made, ``review`` (in ``lang``). ``status`` ``none``: never asked for."""
        job = self.jobs.get((code, seat))
        if job is None:
            data = await self.storage.in_thread(self.store.review, code, seat)
            if data is None or data.get("format") != REVIEW_FORMAT:
                # (one kept by an older version reads as never made: it is made anew)
                return {"status": "none", "done": 0, "total": 0}
            job = self._remember((code, seat), Job("done", data=data))
        out: dict[str, Any] = {"status": job.status, "done": job.done, "total": job.total}
        if job.status == "done" and job.data is not None:
            out["review"] = localized(job.data, lang)
        return out

    async def start(self, code: str, game: Game, seat: int, lang: str) -> dict[str, Any]:
        """Start the review of ``seat`` of the finished ``game`` at table ``code``
        unless it is made or being made; its :meth:`status`. Raises
        :class:`ReviewsFull` when ``queue`` reviews are waiting or running."""
        now = await self.status(code, seat, lang)
        if now["status"] not in ("none", "failed"):
            return now
        if self._busy() >= self.queue:
            raise ReviewsFull("too many reviews at once")
        job = self._remember((code, seat), Job())
        job.task = asyncio.get_running_loop().create_task(self._make(code, game, seat, job))
        return {"status": job.status, "done": 0, "total": 0}

    async def _make(self, code: str, game: Game, seat: int, job: Job) -> None:
        loop = asyncio.get_running_loop()
        try:
            data = await loop.run_in_executor(self.executor, make_review, game, seat, job,
                                              self.samples, self.stopping, self.processes)
            await self.storage.in_thread(self.store.save_review, code, seat, data)
        except (StoreError, RuntimeError, ValueError):
            job.status = "failed"
            return
        except Exception:  # (a bug: the review fails and leaves the queue, and the log says)
            log.exception("a review of table %s, seat %d failed", code, seat)
            job.status = "failed"
            return
        job.data = data
        job.status = "done"
        self.made += 1

    def _remember(self, key: tuple[str, int], job: Job) -> Job:
        self.jobs[key] = job
        self.jobs.move_to_end(key)
        while len(self.jobs) > self.keep:  # (forget the oldest made ones: they are kept)
            old = next((k for k, j in self.jobs.items() if j.status in ("done", "failed")),
                       None)
            if old is None:
                break
            del self.jobs[old]
        return job

    def close(self) -> None:
        """The server stops: reviews waiting are dropped, and the one under way
        is ended. This waits for its thread to have ended its processes (it
        looks at ``stopping`` every 0.25 s), so that nothing is left behind
        (their shared counter's semaphore included) when uvicorn, stopped by a
        signal, ends the process with that signal right after, running no
        exit handler."""
        self.stopping.set()
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        self.executor.shutdown(wait=True, cancel_futures=True)
