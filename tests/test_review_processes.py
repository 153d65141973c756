"""A review shared out among processes (liverpool.review_processes): the
same review as one process makes, its progress, its errors, and processes
that never outlive it."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from liverpool import Game, RecordError, load_rules
from liverpool.bots import make_bot
from liverpool.review import merge_reviews, review_game
from liverpool.review_processes import ReviewFailed, review_in_processes

RULES = load_rules("liverpool")


def rounds_of_basic_bots(rounds: int, seed: int = 4, players: int = 3) -> dict[str, Any]:
    game = Game(RULES, players=players, seed=seed)
    bots = [make_bot("basic", RULES, seed=seed + s) for s in range(players)]
    while game.round <= rounds and not game.is_over:
        seat = game.to_move
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat)
    return game.record()


def review_processes() -> list[multiprocessing.process.BaseProcess]:
    """The processes of a review now running in this process (by their name)."""
    return [p for p in multiprocessing.active_children() if p.name == "liverpool-review"]


def taking(places: list[int]) -> Callable[[int], int | None]:
    """A review's ``take`` that gives these places, then None."""
    given = iter(places)
    return lambda total: next(given, None)


def told_to(calls: list[tuple[int, int]]) -> Callable[[int, int], None]:
    return lambda done, total: calls.append((done, total))


@pytest.mark.slow
def test_the_parts_of_a_review_put_together_are_the_whole_review() -> None:
    record = rounds_of_basic_bots(1, seed=7)
    calls: list[tuple[int, int]] = []
    fast = {"samples": 2, "baseline_games": 1}
    whole = review_game(record, 1, progress=told_to(calls), **fast)
    total = len(whole.decisions)
    assert total > 5
    assert calls == [(k, total) for k in range(total + 1)]  # (0 first: the count)
    rng = random.Random(3)
    for _ in range(2):  # the decisions dealt out at random among three parts
        owner = [rng.randrange(3) for _ in range(total)]
        mine = [[p for p in range(total) if owner[p] == part] for part in range(3)]
        told: list[tuple[int, int]] = []
        parts = [review_game(record, 1, take=taking(places), progress=told_to(told), **fast)
                 for places in mine]
        assert [len(p.decisions) for p in parts] == [len(m) for m in mine]
        assert {t for _, t in told} == {total}  # (each part counts its own against all)
        assert merge_reviews(parts) == whole
        assert merge_reviews(parts[::-1]).to_json() == whole.to_json()
    for places in ([2, 1], [0, 0], [total], [-1]):  # not each larger than the last, in range
        with pytest.raises(ValueError, match="take gave decision"):
            review_game(record, 1, take=taking(places), **fast)
    with pytest.raises(ValueError, match="at least one part"):
        merge_reviews([])
    other = review_game(record, 1, seed=1, take=taking([1]), **fast)
    with pytest.raises(ValueError, match="not of one review"):
        merge_reviews([review_game(record, 1, take=taking([0]), **fast), other])


@pytest.mark.slow
def test_a_review_in_processes_is_the_review_of_one_process_with_its_progress() -> None:
    record = rounds_of_basic_bots(1)
    calls: list[tuple[int, int]] = []
    review = review_in_processes(record, 0, 2, samples=2, baseline_games=1,
                                 progress=lambda d, t: calls.append((d, t)))
    assert review == review_game(record, 0, samples=2, baseline_games=1)
    total = len(review.decisions)
    assert calls, "no progress was told"
    assert {t for _, t in calls} == {total}
    done = [d for d, _ in calls]  # (the decisions of both processes together)
    assert done == sorted(done)
    assert done[-1] == total
    assert not review_processes()


def test_a_bad_record_seat_or_count_is_refused_as_by_one_process() -> None:
    record = rounds_of_basic_bots(1)
    with pytest.raises(RecordError, match="no seat 7"):
        review_in_processes(record, 7, 2)
    broken = dict(record, actions=[{"type": "discard", "card": "ZZ"}])
    with pytest.raises(RecordError) as in_one:
        review_game(broken, 0)
    with pytest.raises(RecordError) as in_two:
        review_in_processes(broken, 0, 2)
    assert str(in_two.value) == str(in_one.value)
    assert in_two.value.action == in_one.value.action
    for count in (0, -1, True, 1.5):
        with pytest.raises(ValueError, match="processes"):
            review_in_processes(record, 0, count)  # type: ignore[arg-type]
    assert not review_processes()


@pytest.mark.slow
def test_a_stopped_review_ends_its_processes() -> None:
    record = rounds_of_basic_bots(7)
    told: list[int] = []
    with pytest.raises(ReviewFailed, match="stopped"):
        review_in_processes(record, 0, 2, samples=4, baseline_games=1,
                            progress=lambda d, t: told.append(d),
                            stop=lambda: bool(told))
    assert told
    assert not review_processes()


def test_a_review_whose_process_dies_fails_and_ends_the_others() -> None:
    record = rounds_of_basic_bots(7)
    seen: list[multiprocessing.process.BaseProcess] = []

    def progress(done: int, total: int) -> None:
        if not seen:
            seen.extend(review_processes())
            seen[0].kill()

    with pytest.raises(ReviewFailed, match="ended without"):
        review_in_processes(record, 0, 2, samples=4, baseline_games=1, progress=progress)
    assert len(seen) == 2
    assert not any(p.is_alive() for p in seen)
    assert not review_processes()


def gone(pid: int) -> bool:
    """The process ended (a zombie its new parent has not reaped counts as ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return True
    return "\nState:\tZ" in status


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
def test_the_processes_end_when_their_callers_process_is_killed(tmp_path: Path) -> None:
    record = rounds_of_basic_bots(7)
    script = tmp_path / "caller.py"
    script.write_text(textwrap.dedent("""
        import json, multiprocessing, sys
        from liverpool.review_processes import review_in_processes

        def progress(done, total):
            pids = [p.pid for p in multiprocessing.active_children()]
            print(" ".join(map(str, pids)), flush=True)

        if __name__ == "__main__":
            review_in_processes(json.loads(sys.stdin.readline()), 0, 2, samples=4,
                                baseline_games=1, progress=progress)
    """))
    caller = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert caller.stdin is not None
    assert caller.stdout is not None
    caller.stdin.write(json.dumps(record) + "\n")
    caller.stdin.flush()
    pids = [int(p) for p in caller.stdout.readline().split()]
    assert len(pids) == 2
    assert os.getpid() not in pids
    os.kill(caller.pid, signal.SIGKILL)
    caller.wait()
    deadline = time.monotonic() + 30
    while not all(gone(pid) for pid in pids):
        assert time.monotonic() < deadline, "a review's process outlived its caller"
        time.sleep(0.1)
