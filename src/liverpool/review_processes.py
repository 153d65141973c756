"""A review made in processes of its own, its decisions shared out among them.

A review (:func:`liverpool.review.review_game`) is tens of seconds of pure
Python, and its decisions do not depend on each other: each is searched with
its own generator, seeded from the review's seed and the action's place in
the record. So :func:`review_in_processes` shares them out among
``processes`` processes (``spawn``: fresh interpreters), each taking the next
decision not yet taken, in the game's order, from one counter
(``review_game``'s ``take``; a decision that needs more samples holds up only
its own process), and puts the parts together
(:func:`liverpool.review.merge_reviews`): the very review one process makes,
in about ``1/processes`` of the wall time when as many cores are free.

The caller's thread only waits: it starts the processes, reads their
progress and their parts from pipes, and so holds the interpreter's lock for
almost nothing (a server's event loop goes on meanwhile). It stops the review
when ``stop()`` says so; the processes are killed then, and whenever the
review fails or is interrupted (Ctrl-C, which they leave to the caller). A
process whose caller's process is gone (killed) ends at its next decision.

>>> from liverpool import Game, load_rules
>>> from liverpool.bots import make_bot
>>> from liverpool.loop import run_bots
>>> from liverpool.review import review_game
>>> one_round = load_rules("liverpool", contracts=["SS"], deal=[10], final_round="normal")
>>> game = Game(one_round, players=3, seed=4)
>>> _ = run_bots(game, [make_bot("basic", one_round, seed=s) for s in range(3)])
>>> review = review_in_processes(game.record(), 0, 2, samples=2)
>>> review == review_game(game.record(), 0, samples=2)
True
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from .review import Review, merge_reviews, review_game

__all__ = ["ReviewFailed", "review_in_processes"]

#: seconds between the waiting thread's looks at ``stop``
POLL_SECONDS = 0.25


class ReviewFailed(RuntimeError):
    """The review's processes gave no review: one of them died or failed, or
    the review was stopped."""


def review_in_processes(record: dict[str, Any] | str, seat: int, processes: int = 2, *,
                        progress: Callable[[int, int], None] | None = None,
                        stop: Callable[[], bool] | None = None, nice: int = 0,
                        **options: Any) -> Review:
    """The review of ``seat`` in the game of ``record`` (``options``: those
    of :func:`~liverpool.review.review_game`), made in ``processes``
    processes while this thread waits. ``progress(done, total)`` is called
    here as they report (``done``: the decisions of them all); ``stop()`` is
    asked every 0.25 s; ``nice`` lowers the processes' priority (a
    server's, so that its own work comes first).

    Raises what ``review_game`` raises for a bad record, seat or option
    (:class:`~liverpool.RecordError`, ValueError), and :class:`ReviewFailed`
    when a process dies or fails or ``stop()`` is true; the processes are
    ended then.
    """
    if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
        raise ValueError("processes must be a whole number of at least 1")
    context = multiprocessing.get_context("spawn")
    counter = context.Value("i", 0)  # (the place of the next decision to take)
    pipes: dict[Connection, int] = {}
    started: list[BaseProcess] = []
    try:
        for part in range(processes):
            ours, theirs = context.Pipe(duplex=False)
            process = context.Process(
                target=_part_main, name="liverpool-review", daemon=True,
                args=(theirs, record, seat, counter, options, nice, os.getpid()))
            process.start()
            theirs.close()  # (the process holds the only writing end: its death reads as EOF)
            pipes[ours] = part
            started.append(process)
        counts: dict[int, tuple[int, int]] = {}
        parts: dict[int, Review] = {}
        while len(parts) < processes:
            if stop is not None and stop():
                raise ReviewFailed("the review was stopped")
            ready = wait(list(pipes), timeout=POLL_SECONDS)
            for conn in [c for c in pipes if c in ready]:
                part = pipes[conn]
                try:
                    message = conn.recv()
                except EOFError:
                    raise ReviewFailed("a review's process ended without its part") from None
                kind = message[0]
                if kind == "progress":  # (this part's decisions, of them all)
                    counts[part] = (message[1], message[2])
                    if progress is not None:
                        progress(sum(c[0] for c in counts.values()), message[2])
                elif kind == "done":
                    parts[part] = message[1]
                    del pipes[conn]
                    conn.close()
                elif kind == "refused":
                    raise message[1]
                else:
                    raise ReviewFailed(message[1])
        return merge_reviews([parts[p] for p in range(processes)])
    finally:
        for conn in pipes:
            conn.close()
        for child in started:
            if child.is_alive():
                child.kill()
            child.join(timeout=5)


def _part_main(conn: Connection, record: dict[str, Any] | str, seat: int, counter: Any,
               options: dict[str, Any], nice: int, parent: int) -> None:
    """One process's part of the review (the decisions it takes from
    ``counter``), its progress and the part sent on ``conn``."""
    # (Ctrl-C at the terminal reaches this process too: the caller ends it)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        os.nice(nice)

    def progress(done: int, total: int) -> None:
        if os.getppid() != parent:  # the caller's process is gone: nobody waits
            raise SystemExit(0)
        conn.send(("progress", done, total))

    def take(total: int) -> int | None:
        with counter.get_lock():
            place = int(counter.value)
            counter.value = place + 1
        return place if place < total else None

    try:
        part = review_game(record, seat, take=take, progress=progress, **options)
        conn.send(("done", part))
    except (ValueError, TypeError) as exc:  # a bad record, seat or option: the caller's to say
        try:
            conn.send(("refused", exc))
        except Exception:  # noqa: BLE001 - (an error that does not pickle: its words)
            conn.send(("failed", f"{type(exc).__name__}: {exc}"))
    except Exception as exc:  # noqa: BLE001 - any failure is told to the caller, not lost
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
