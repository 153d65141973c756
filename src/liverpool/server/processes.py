"""The server's heavy work, done in processes of its own: the coach's
reviews and hints, and the bots that search.

This work is pure Python: a review takes tens of seconds, a hint up to 0.7 s,
a ``hard`` bot's move up to 0.3 s. Done in a thread of the server process, it
would hold the interpreter's lock against the event loop: every ``await`` of
every table on that process would then wait up to the lock's switch interval
(5 ms), and the loop would get about a fifth of its turns
(``benchmarks/bench_processes.py`` measures it).

- A review (:func:`review_in_process`) gets processes of its own
  (:mod:`liverpool.review_processes`: ``spawn``, fresh interpreters with none
  of the server's threads, sockets or tables, which share its decisions
  out), started and waited for by one of the server's threads, which hands
  them the game's record and reads the review's progress and its parts from
  pipes. The processes end with the review; they are killed when the server
  stops (or when the thread is told to stop), and they end by themselves if
  the server process is gone. They run at a lower priority (``nice`` 5), so
  the event loop and the hints and bots' workers come first.
- Hints and the bots' moves are short and come during play, so they go to
  pools of long-lived worker processes (:class:`WorkerPool`): made on first
  use, made anew when a worker dies, their workers ending themselves once the
  server process is gone (even killed, when no shutdown tells them).

This module imports only the engine, the bots, the review and the
translations, so these processes do not load the server.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from .. import i18n
from ..actions import Action
from ..bots import Bot
from ..review import Hint, Review, hint
from ..review_processes import ReviewFailed, review_in_processes
from ..rules import Rules
from ..views import SeatView

__all__ = ["ReviewFailed", "WorkerDied", "WorkerPool", "bot_choice", "hint_in_process",
           "kept_review", "review_in_process"]

T = TypeVar("T")

#: how much lower the reviews' processes run than the server's own
REVIEW_NICE = 5
#: seconds between a worker's looks whether the server process is still there
PARENT_SECONDS = 1.0


def kept_review(review: Review) -> dict[str, Any]:
    """The JSON kept with the game: the review with its sentences (the move
    and the "better" text) in every language."""
    return review.to_json(
        lambda d: {lang: i18n.review_better(d, lang) for lang in i18n.LANGUAGES},
        lambda d: {lang: i18n.review_move(d.played.action, d.card, lang, table=d.table)
                   for lang in i18n.LANGUAGES})


def review_in_process(record: dict[str, Any], seat: int, samples: int,
                      progress: Callable[[int, int], None],
                      stopping: threading.Event, processes: int = 1) -> dict[str, Any]:
    """The kept review (:func:`kept_review`) of ``seat`` in the game of
    ``record``, made in ``processes`` processes of its own while this thread
    waits; ``progress(done, total)`` is called in this thread as they
    report. Raises :class:`ReviewFailed` when no review comes (the processes
    are then ended), and soon after ``stopping`` is set."""
    try:
        review = review_in_processes(record, seat, processes, samples=samples,
                                     progress=progress, stop=stopping.is_set, nice=REVIEW_NICE)
    except ValueError as exc:  # (a record that does not replay: not one of the server's)
        raise ReviewFailed(f"{type(exc).__name__}: {exc}") from None
    return kept_review(review)


class WorkerDied(Exception):
    """A worker process of a :class:`WorkerPool` died with the work given to it."""


class WorkerPool:
    """``workers`` long-lived worker processes (spawned), made on first use.
    :meth:`run` runs a function of an importable module in one of them.
    A worker that dies fails the work it had (:class:`WorkerDied`) and the
    next work gets a new pool; each worker ends itself once the server
    process is gone."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.closed = False
        self._executor: ProcessPoolExecutor | None = None

    def submit(self, fn: Callable[..., T], /, *args: Any) -> Future[T]:
        """Start ``fn(*args)`` in a worker. Raises RuntimeError once closed."""
        if self.closed:
            raise RuntimeError("the worker processes are closed")
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start, initargs=(os.getpid(),))
        try:
            return self._executor.submit(fn, *args)
        except BrokenProcessPool:  # (found broken before this work: a new pool takes it)
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            return self.submit(fn, *args)

    async def run(self, fn: Callable[..., T], /, *args: Any) -> T:
        """``fn(*args)`` worked out in a worker while the event loop goes on.
        Raises :class:`WorkerDied` when its worker died (the next work gets a
        new pool), RuntimeError once closed."""
        future = self.submit(fn, *args)  # (makes the pool first: the one to drop if broken)
        executor = self._executor
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            if executor is not None and self._executor is executor:
                self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
            raise WorkerDied("a worker process died") from None

    def close(self) -> None:
        """No more work: work waiting is dropped, and this waits for the work
        under way (a hint's or a bot's move: bounded by their time caps) and
        for the workers to end. (Their queues are let go here, not at the
        interpreter's exit: uvicorn ends a server stopped by a signal with
        that signal again, and no exit handler runs then.)"""
        self.closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def _worker_start(parent: int) -> None:
    """A worker's start: Ctrl-C at the server's terminal is left to the
    server, and a thread watches for the server process's end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_SECONDS)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="liverpool-worker-parent", daemon=True).start()


def bot_choice(bot: Bot, view: SeatView, legal: Sequence[Action]) -> tuple[Action, Bot]:
    """``bot``'s choice at ``view``, and the bot as it is after choosing (its
    memory and its random state go on from there): run in a worker."""
    return bot.choose(view, legal), bot


def hint_in_process(rules: Rules, view: SeatView, legal: Sequence[Action], samples: int,
                    seed: int, time_ms: float, lang: str, symbols: bool
                    ) -> tuple[Hint, str, float]:
    """The hint at ``view`` (:func:`liverpool.review.hint`), its sentence in
    ``lang`` and the seconds it took: run in a worker."""
    start = time.perf_counter()
    found = hint(rules, view, legal, samples=samples, seed=seed, time_ms=time_ms)
    text = i18n.hint_text(found, lang, symbols=symbols, table=view.table)
    return found, text, time.perf_counter() - start
