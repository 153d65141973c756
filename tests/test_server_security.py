"""Findings of a security test of the server kept fixed: a review's
memory does not grow with the square of the game and a seat of too many moves
is refused before it is queued (D2); only a table's players start a review,
anyone reads one (D3); the table of "play again" is told to the table's
players alone (D7); one hint at a time per seat, over all its connections
(D8); a refused table or score pad uses none of the creator's quota (D12)."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import time
import weakref
from typing import Any

import pytest
from fastapi.testclient import TestClient

from liverpool import Game, load_rules
from liverpool.bots import make_bot
from liverpool.loop import run_bots
from liverpool.review import review_game
from liverpool.server import Hub, Store, create_app
from liverpool.server import reviews as reviews_module
from liverpool.server.caps import Limits
from liverpool.server.hints import Hints
from liverpool.server.messages import Client
from liverpool.server.reviews import Job, seat_moves
from liverpool.server.seats import TableSettings
from liverpool.server.table import Table

SHORT = {"contracts": ["SS"], "deal": [10], "final_round": "normal"}


def _play_out(game: Game) -> None:
    run_bots(game, [make_bot("basic", game.rules, seed=s) for s in range(game.num_players)])
    assert game.is_over


def _finished_table(hub: Hub, players: int = 3) -> tuple[Table, str]:
    """A table of ``players`` people (the creator's token), its game played out."""
    table, token = hub.create(load_rules("liverpool", **SHORT), "liverpool",
                              [{"kind": "human"}] * players, TableSettings(), "Kari")
    _play_out(table.game)
    return table, token


def _quick_reviews(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Reviews made at once, without the search (the seats reviewed)."""
    made: list[int] = []

    def review(game: Game, seat: int, job: Job, samples: int, stopping: Any,
               processes: int) -> dict[str, Any]:
        made.append(seat)
        return {"format": "test", "seat": seat, "decisions": []}

    monkeypatch.setattr(reviews_module, "make_review", review)
    return made


# ------------------------------------------------------------------ D2
@pytest.mark.slow
def test_a_review_keeps_no_copy_of_the_game_per_decision(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    game = Game(load_rules("liverpool", **SHORT), players=3, seed=5)
    _play_out(game)
    alive: weakref.WeakSet[Game] = weakref.WeakSet()
    most = 0
    copy = Game.copy

    def counted(self: Game) -> Game:
        made = copy(self)
        alive.add(made)
        return made

    def progress(done: int, total: int) -> None:
        nonlocal most
        gc.collect()
        most = max(most, len(alive))

    monkeypatch.setattr(Game, "copy", counted)
    review = review_game(game.record(), 0, samples=1, baseline_games=0, progress=progress)
    assert len(review.decisions) > 20
    assert most <= 3  # (were there one per decision, there would be as many as decisions)
    # the server's count, taken before a review is queued, is never below its decisions
    assert seat_moves(game, 0) >= len(review.decisions)


def test_a_seat_of_too_many_moves_is_refused_before_it_is_queued(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = _quick_reviews(monkeypatch)
    hub = Hub(Store("sqlite://"), bot_delay=0)
    app = create_app(hub)
    with TestClient(app) as client:
        table, token = _finished_table(hub)
        moves = seat_moves(table.game, 1)
        # (the deal is the table's own, at random: the limit is set one below
        # the moves this game's seat made, 10 when it made more than 10)
        most = min(10, moves - 1)
        assert most >= 1
        hub.limits = dataclasses.replace(hub.limits, review_decisions=most)
        refused = client.post(f"/api/tables/{table.code}/review",
                              json={"seat": 1, "lang": "nb"}, headers={"X-Seat-Token": token})
        assert refused.status_code == 422
        detail = refused.json()["detail"]
        assert detail["code"] == "server_review_too_long"
        assert str(moves) in detail["message"]
        assert str(most) in detail["message"]
        assert not app.state.reviews.jobs  # nothing queued
        assert made == []
        status = client.get(f"/api/tables/{table.code}/review", params={"seat": 1}).json()
        assert status["status"] == "none"


def test_the_limit_has_an_environment_variable() -> None:
    assert Limits().review_decisions == 2500
    limits = Limits.from_environment({"LIVERPOOL_REVIEW_DECISIONS": "300"})
    assert limits.review_decisions == 300


# ------------------------------------------------------------------ D3
def test_only_the_tables_players_start_a_review_and_anyone_reads_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = _quick_reviews(monkeypatch)
    hub = Hub(Store("sqlite://"), bot_delay=0)
    app = create_app(hub)
    with TestClient(app) as client:
        table, token = _finished_table(hub)
        _other, other_token = _finished_table(hub)
        url = f"/api/tables/{table.code}/review"
        for headers in ({}, {"X-Seat-Token": "nosuch"}, {"X-Seat-Token": other_token}):
            refused = client.post(url, json={"seat": 2, "lang": "da"}, headers=headers)
            assert refused.status_code == 403, refused.text
            assert refused.json()["detail"]["code"] == "server_review_players"
        assert made == []
        assert not app.state.reviews.jobs
        # the player starts it, for any seat of the table
        started = client.post(url, json={"seat": 2}, headers={"X-Seat-Token": token})
        assert started.status_code == 200, started.text
        deadline = time.monotonic() + 30  # (the review's worker thread, on a loaded machine)
        while True:
            status = client.get(url, params={"seat": 2}).json()  # (no token: anyone reads)
            if status["status"] == "done" or time.monotonic() > deadline:
                break
            time.sleep(0.01)
        assert status["status"] == "done"
        assert status["review"]["seat"] == 2
        assert made == [2]


# ------------------------------------------------------------------ D7
def test_the_next_table_is_told_to_the_tables_players_alone() -> None:
    hub = Hub(Store("sqlite://"), bot_delay=0)
    app = create_app(hub)
    with TestClient(app) as client:
        table, token = _finished_table(hub)
        code = table.code
        seated = {"X-Seat-Token": token}
        again = client.post(f"/api/tables/{code}/again", headers=seated)
        assert again.status_code == 200, again.text
        fresh = again.json()["code"]
        assert fresh != code
        # the player: from the table's call and its WebSocket snapshot
        mine = client.get(f"/api/tables/{code}", headers=seated).json()
        assert (mine["you"], mine["next_code"]) == (0, fresh)
        with client.websocket_connect(f"/ws/{code}",
                                      subprotocols=["liverpool", f"token.{token}"]) as ws:
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot"
            assert snapshot["table"]["next_code"] == fresh
        # a stranger (the code from the public list of finished games): never
        assert client.get(f"/api/tables/{code}").json()["next_code"] is None
        assert client.get(f"/api/tables/{code}",
                          headers={"X-Seat-Token": "nosuch"}).json()["next_code"] is None
        assert client.get(f"/api/tables/{code}/replay").json()["table"]["next_code"] is None
        assert fresh not in client.get(f"/api/tables/{code}/replay").text
        assert fresh not in client.get(f"/api/tables/{code}/record").text
        with client.websocket_connect(f"/ws/{code}", subprotocols=["liverpool"]) as ws:
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot"
            assert snapshot["seat"] is None
            assert snapshot["table"]["next_code"] is None
            assert fresh not in str(snapshot)
        # the table messages to a table's clients: the players' only have it
        info = {seated: table.info(seated) for seated in (False, True)}
        assert (info[False]["next_code"], info[True]["next_code"]) == (None, fresh)


# ------------------------------------------------------------------ D8
def test_one_hint_at_a_time_per_seat_over_all_its_connections() -> None:
    async def go() -> None:
        hub = Hub(Store("sqlite://"), bot_delay=0)
        hints = Hints(samples=2, queue=8)
        table, _token = hub.create(load_rules("liverpool"), "liverpool", [
            {"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
            TableSettings(hints=True), "Kari")
        assert table.game.legal_actions(0)  # (seat 0 begins)
        clients = [Client(0, "en") for _ in range(4)]
        rates = [hints.rate() for _ in clients]
        refused: list[list[str]] = [[] for _ in clients]
        for client, rate, said in zip(clients, rates, refused, strict=True):
            hints.ask(table, client, rate, None, lambda code, said=said, **_: said.append(code))
        assert refused[0] == []
        assert refused[1:] == [["server_hint_pending"]] * 3  # (another connection's is under way)
        assert hints.busy == 1
        got = await asyncio.wait_for(clients[0].queue.get(), 30)
        assert isinstance(got, dict)
        assert got["type"] == "hint"
        assert hints.busy == 0
        # answered: the seat may ask again, from any of its connections
        hints.ask(table, clients[1], rates[1], None, lambda code, **_: refused[1].append(code))
        assert refused[1] == ["server_hint_pending"]
        assert hints.busy == 1
        got = await asyncio.wait_for(clients[1].queue.get(), 30)
        assert isinstance(got, dict)
        assert got["type"] == "hint"
        hints.close()
        hub.close()

    asyncio.run(go())


# ------------------------------------------------------------------ D12
def test_a_refused_table_or_pad_uses_none_of_the_quota() -> None:
    hub = Hub(Store("sqlite://"), bot_delay=0,
              limits=Limits(tables_per_minute=2, tables_per_hour=50))
    app = create_app(hub)
    seats = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]
    with TestClient(app) as client:
        bad = [
            {"preset": "nosuch", "seats": seats},
            {"preset": "liverpool", "options": {"nosuch": 1}, "seats": seats},
            {"preset": "liverpool", "seats": seats[:2]},  # too few players
            {"preset": "liverpool", "seats": [{"kind": "bot"}, *seats]},
            {"preset": "liverpool", "seats": [*seats, {"kind": "bot", "level": "expert"}]},
        ]
        for body in bad * 2:
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 400, answer.text
        for _ in range(2):
            assert client.post("/api/tables", json={"preset": "liverpool",
                                                    "seats": seats}).status_code == 201
        over = client.post("/api/tables", json={"preset": "liverpool", "seats": seats})
        assert over.status_code == 429
        assert over.json()["detail"]["code"] == "server_too_many_tables"
        for _ in range(5):
            answer = client.post("/api/pads", json={"preset": "nosuch", "names": ["A", "B"]})
            assert answer.status_code == 400
        for _ in range(2):
            assert client.post("/api/pads", json={"preset": "liverpool",
                                                  "names": ["A", "B"]}).status_code == 201
        assert client.post("/api/pads", json={"preset": "liverpool",
                                              "names": ["A", "B"]}).status_code == 429
