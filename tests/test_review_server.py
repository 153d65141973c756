"""The server's reviews (``/api/tables/{code}/review``): made in the
background for a finished game, kept in the store, bounded, in the language
asked for, and the same review as ``liverpool review`` gives."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_review_processes import review_processes

from liverpool import load_rules
from liverpool.bots import make_bot
from liverpool.loop import run_bots
from liverpool.review import REVIEW_FORMAT, review_game
from liverpool.reviewcli import review_json
from liverpool.server import Hub, Store, create_app
from liverpool.server import reviews as reviews_module
from liverpool.server.seats import TableSettings
from liverpool.server.table import Table

#: the server reviewing a whole game in the background: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

RULES = load_rules("liverpool", contracts=["SS"], deal=[10], final_round="normal")


def wait_done(client: TestClient, code: str, seat: int, lang: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"/api/tables/{code}/review", params={"seat": seat, "lang": lang})
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        assert data["status"] in ("queued", "running", "done"), data
        assert 0 <= data["done"] <= max(data["total"], 0)
        if data["status"] == "done":
            return data
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.2)


@contextlib.contextmanager
def people_table() -> Iterator[tuple[Store, TestClient, Table, dict[str, str]]]:
    """A running server (its store and a client) with a table of three people
    in a short game (one contract, ten cards), and the creator's token as the
    header that starts a review (only the table's players start one)."""
    store = Store("sqlite://")
    hub = Hub(store, bot_delay=0)
    with TestClient(create_app(hub)) as client:
        table, token = hub.create(RULES, "liverpool", [{"kind": "human"}] * 3,
                                  TableSettings(), "Kari")
        yield store, client, table, {"X-Seat-Token": token}


def test_the_server_reviews_a_finished_game_in_the_background() -> None:
    with people_table() as (store, client, table, seated):
        code = table.code
        game = table.game
        assert client.post(f"/api/tables/{code}/review", json={"seat": 0},
                           headers=seated).status_code == 403  # not over yet
        run_bots(game, [make_bot("basic", RULES, seed=s) for s in range(3)])
        assert game.is_over
        before = client.get(f"/api/tables/{code}/review", params={"seat": 1}).json()
        assert before == {"status": "none", "done": 0, "total": 0}
        assert client.post(f"/api/tables/{code}/review", json={"seat": 5},
                           headers=seated).status_code == 422
        started = client.post(f"/api/tables/{code}/review", json={"seat": 1, "lang": "nb"},
                              headers=seated)
        assert started.status_code == 200, started.text
        assert started.json()["status"] in ("queued", "running")
        done = wait_done(client, code, 1, "nb")
        review = done["review"]
        assert done["total"] == len(review["decisions"]) > 0
        # the same review as liverpool review's, with the sentences in Norwegian
        fresh = review_game(game.record(), 1)
        assert review == review_json(fresh, "nb")
        again = client.post(f"/api/tables/{code}/review", json={"seat": 1}, headers=seated)
        assert again.json()["status"] == "done"  # made once
        reviews = client.app.state.reviews  # type: ignore[attr-defined]
        assert reviews.made == 1
        reviews.jobs.clear()  # kept with the game: read from the store
        kept = client.get(f"/api/tables/{code}/review", params={"seat": 1, "lang": "da"}).json()
        assert kept["status"] == "done"
        assert kept["review"] == review_json(fresh, "da")
        assert reviews.made == 1
        reviews.queue = 0  # bounded: nothing more is taken
        full = client.post(f"/api/tables/{code}/review", json={"seat": 2}, headers=seated)
        assert full.status_code == 503
        assert full.json()["detail"]["code"] == "server_busy"
        # a review kept by an older version (format 1 measured accuracy otherwise)
        # reads as never made, and is made anew when asked
        reviews.queue = 4
        kept_data = store.review(code, 1)
        assert kept_data is not None
        store.save_review(code, 1, dict(kept_data, format="liverpool-rummy-review/1"))
        reviews.jobs.clear()
        assert client.get(f"/api/tables/{code}/review",
                          params={"seat": 1}).json() == {"status": "none", "done": 0, "total": 0}
        assert client.post(f"/api/tables/{code}/review", json={"seat": 1},
                           headers=seated).json()["status"] in ("queued", "running")
        assert wait_done(client, code, 1, "en")["review"] == review_json(fresh, "en")
        assert store.review(code, 1)["format"] == REVIEW_FORMAT  # type: ignore[index]
        assert reviews.made == 2


def test_a_review_is_made_in_processes_of_its_own_which_end_with_it() -> None:
    """Not in a thread of the server (whose pure Python would hold the
    interpreter's lock against the event loop): processes (two, sharing the
    decisions out, on a machine of two cores or more) that a dead review does
    not hang and the server's stop ends."""
    with people_table() as (store, client, table, seated):
        code = table.code
        run_bots(table.game, [make_bot("basic", RULES, seed=s) for s in range(3)])
        reviews = client.app.state.reviews  # type: ignore[attr-defined]
        assert reviews.processes == min(2, os.cpu_count() or 1)

        def start(seat: int) -> list[multiprocessing.process.BaseProcess]:
            assert client.post(f"/api/tables/{code}/review", json={"seat": seat},
                               headers=seated).status_code == 200
            deadline = time.monotonic() + 60
            while len(review_processes()) < reviews.processes:
                assert time.monotonic() < deadline, "the review's processes were not started"
                time.sleep(0.05)
            return review_processes()

        def ended(processes: list[multiprocessing.process.BaseProcess], what: str) -> None:
            # (the review's thread reaps them: polled until it has, as two threads
            # waiting for one process may see it alive a moment longer)
            deadline = time.monotonic() + 30
            while any(p.is_alive() for p in processes):
                assert time.monotonic() < deadline, what
                time.sleep(0.1)

        # a review's process that dies: the review fails (it is not waited for
        # for ever), its other processes are ended, and the players may ask again
        processes = start(0)
        assert len(processes) == reviews.processes
        assert all(p.pid != os.getpid() for p in processes)
        processes[-1].kill()
        deadline = time.monotonic() + 30
        while (status := client.get(f"/api/tables/{code}/review",
                                    params={"seat": 0}).json())["status"] != "failed":
            assert status["status"] in ("queued", "running"), status
            assert time.monotonic() < deadline, "a dead review was still waited for"
            time.sleep(0.1)
        ended(processes, "a failed review's processes were left running")
        assert store.review(code, 0) is None  # (nothing kept)
        again = client.post(f"/api/tables/{code}/review", json={"seat": 0}, headers=seated)
        assert again.json()["status"] in ("queued", "running")
        assert wait_done(client, code, 0, "en")["review"]["seat"] == 0
        assert store.review(code, 0) is not None
        # a review still running when the server stops: its processes are ended
        processes = start(2)
    ended(processes, "the review's processes outlived the server")
    assert not review_processes()


def test_a_review_that_fails_unexpectedly_leaves_the_queue(monkeypatch: pytest.MonkeyPatch,
                                                           caplog: pytest.LogCaptureFixture
                                                           ) -> None:
    """A bug in the making of a review fails it and logs it; it never stays
    queued for ever, holding a place of the bounded queue."""
    def broken(*args: Any) -> dict[str, Any]:
        raise TypeError("a bug")

    monkeypatch.setattr(reviews_module, "make_review", broken)
    with people_table() as (store, client, table, seated):
        run_bots(table.game, [make_bot("basic", RULES, seed=s) for s in range(3)])
        reviews = client.app.state.reviews  # type: ignore[attr-defined]
        reviews.queue = 1
        for seat in (0, 1):  # (the second taken: the first left the queue)
            assert client.post(f"/api/tables/{table.code}/review", json={"seat": seat},
                               headers=seated).status_code == 200
            deadline = time.monotonic() + 30
            while client.get(f"/api/tables/{table.code}/review",
                             params={"seat": seat}).json()["status"] != "failed":
                assert time.monotonic() < deadline, "a broken review stayed in the queue"
                time.sleep(0.05)
        assert store.review(table.code, 0) is None
    assert "a review of table" in caplog.text
