"""The coach's work, done in processes of its own: reviews and hints.

A review is tens of seconds of pure Python. Made in a thread of the server
process, it would hold the interpreter's lock against the event loop: every
``await`` of every table on that process would then wait up to the lock's
switch interval (5 ms), and the loop would get about a fifth of its turns
(``benchmarks/bench_review.py --server`` measures it). So the server's review
thread only waits: it starts a process for the review (``spawn``: a fresh
interpreter, none of the server's threads, sockets or tables in it), hands it
the game's record and reads the review's progress and the review itself from
a pipe. The process ends with its review; it is killed when the server stops
(or when the thread is told to stop), and it ends by itself if the server
process is gone.

Hints (:func:`hint_in_process`) are short (under a second) and asked for
during play, so they are worked out in a pool of long-lived processes
(:func:`hint_pool`) rather than one process each.

This module imports only the engine, the review and the translations, so
these processes do not load the server.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from .. import i18n
from ..actions import Action
from ..review import Hint, Review, hint, review_game
from ..rules import Rules
from ..views import SeatView

__all__ = ["ReviewFailed", "hint_in_process", "hint_pool", "kept_review", "review_in_process"]

#: seconds between the waiting thread's looks at the pipe and at its stop flag
POLL_SECONDS = 0.25
#: seconds between a hint worker's looks whether the server process is still there
PARENT_SECONDS = 1.0


class ReviewFailed(RuntimeError):
    """The review's process gave no review: the record did not replay, the
    process died, or the server is stopping."""


def kept_review(review: Review) -> dict[str, Any]:
    """The JSON kept with the game: the review with its sentences (the move
    and the "better" text) in every language."""
    return review.to_json(
        lambda d: {lang: i18n.review_better(d, lang) for lang in i18n.LANGUAGES},
        lambda d: {lang: i18n.review_move(d.played.action, d.card, lang, table=d.table)
                   for lang in i18n.LANGUAGES})


def review_in_process(record: dict[str, Any], seat: int, samples: int,
                      progress: Callable[[int, int], None],
                      stopping: threading.Event) -> dict[str, Any]:
    """The kept review (:func:`kept_review`) of ``seat`` in the game of
    ``record``, made in a process of its own while this thread waits;
    ``progress(done, total)`` is called in this thread as the process reports.
    Raises :class:`ReviewFailed` when no review comes (the process is then
    ended), and soon after ``stopping`` is set."""
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe(duplex=False)
    process = context.Process(target=_review_main, name="liverpool-review", daemon=True,
                              args=(theirs, record, seat, samples, os.getpid()))
    process.start()
    theirs.close()  # (the process holds the only writing end: its death reads as EOF)
    try:
        while not stopping.is_set():
            if not ours.poll(POLL_SECONDS):
                continue
            try:
                message = ours.recv()
            except EOFError:
                raise ReviewFailed("the review's process ended without a review") from None
            kind = message[0]
            if kind == "progress":
                progress(message[1], message[2])
            elif kind == "done":
                data: dict[str, Any] = message[1]
                return data
            else:
                raise ReviewFailed(message[1])
        raise ReviewFailed("the server is stopping")
    finally:
        ours.close()
        if process.is_alive():
            process.kill()
        process.join(timeout=5)


def _review_main(conn: Connection, record: dict[str, Any], seat: int, samples: int,
                 parent: int) -> None:
    """The review's process: the review and its progress, sent on ``conn``."""
    # (Ctrl-C at the server's terminal reaches this process too: the server ends it)
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def progress(done: int, total: int) -> None:
        if os.getppid() != parent:  # the server process is gone: nobody waits
            raise SystemExit(0)
        conn.send(("progress", done, total))

    try:
        review = review_game(record, seat, samples=samples, progress=progress)
        conn.send(("done", kept_review(review)))
    except Exception as exc:  # noqa: BLE001 - any failure is told to the server, not lost
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def hint_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes for :func:`hint_in_process` (spawned:
    fresh interpreters, started as the first hints come). A worker ends
    itself once the server process is gone (even killed, when no shutdown
    told it to)."""
    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=_hint_worker, initargs=(os.getpid(),))


def _hint_worker(parent: int) -> None:
    """A hint worker's start: Ctrl-C at the server's terminal is left to the
    server, and a thread watches for the server process's end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_SECONDS)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="liverpool-hint-parent", daemon=True).start()


def hint_in_process(rules: Rules, view: SeatView, legal: Sequence[Action], samples: int,
                    seed: int, time_ms: float, lang: str, symbols: bool
                    ) -> tuple[Hint, str, float]:
    """The hint at ``view`` (:func:`liverpool.review.hint`), its sentence in
    ``lang`` and the seconds it took: run in a process of :func:`hint_pool`."""
    start = time.perf_counter()
    found = hint(rules, view, legal, samples=samples, seed=seed, time_ms=time_ms)
    text = i18n.hint_text(found, lang, symbols=symbols, table=view.table)
    return found, text, time.perf_counter() - start
