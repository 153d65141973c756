"""Seats and people, on a real uvicorn in a thread whose hub the test holds:
the waiting room (nothing dealt, nothing moves until the creator starts),
a free seat given to a bot and a bot's seat given back to a person, only the
creator may, hostile seat messages refused, an untaken seat of a started game
given to a bot where it stalls, and all of it kept over a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup

from liverpool import i18n
from liverpool.errors import GameError
from liverpool.server import Hub, Store

#: real servers, browsers and databases: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

EASY = {"kind": "bot", "level": "easy"}
HUMAN = {"kind": "human"}


def serve(folder: Path) -> sup.ThreadServer:
    """A server on the SQLite database of ``folder`` (made, or loaded again)."""
    hub = Hub(Store(f"sqlite:///{folder / 'db.sqlite3'}"), bot_delay=0.0)
    hub.load()
    return sup.ThreadServer(hub, ping_every=5, silence=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with sup.running(serve(tmp_path_factory.mktemp("seats"))) as s:
        yield s


def new_table(base: str, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A short table made as the lobby makes one (no ``wait``: the default)."""
    r = httpx.post(f"{base}/api/tables", json={"preset": "liverpool", "options": sup.SHORT,
                                                "seats": seats, "name": "Kari", **extra})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def info(base: str, code: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{base}/api/tables/{code}").json()
    return data


def kinds(table: dict[str, Any]) -> list[tuple[str, str | None, bool]]:
    return [(s["kind"], s["level"], s["taken"]) for s in table["seats"]]


async def answer(p: sup.Player, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message``; its answer (an error, a table or a snapshot message:
    the news of others coming and going read and left before it)."""
    await p.quiet(0.4)
    await p.send(message)
    while True:
        frame = await p.recv()
        if frame["type"] in ("error", "snapshot") or (frame["type"] == "table"
                                                      and message["type"] == "seat"):
            return frame


def refused(frame: dict[str, Any], code: str, **params: Any) -> None:
    assert frame["type"] == "error", frame
    assert frame["code"] == code, frame
    if params:
        assert frame["message"] == i18n.error_text(GameError(code, **params), "en"), frame


def test_the_waiting_room_seats_and_start(server: Any) -> None:
    base = server.base
    made = new_table(base, [HUMAN, HUMAN, HUMAN, EASY])
    code = made["code"]
    assert info(base, code)["waiting"] is True
    # its replay shows nothing of the deal either (not even the first upcard)
    assert httpx.get(f"{base}/api/tables/{code}/replay").json()["events"] == []
    ola = sup.join_table(base, code, "Ola").json()
    assert ola["seat"] == 1
    # a table whose other seats are all bots starts at once, as before
    assert info(base, new_table(base, [HUMAN, EASY, EASY])["code"])["waiting"] is False

    async def go() -> None:
        kari = await sup.Player(server.ws, code, made["token"], seed=1).connect()
        other = await sup.Player(server.ws, code, ola["token"], seed=2).connect()
        watcher = await sup.Player(server.ws, code, play=False).connect()
        for p in (kari, other, watcher):
            snap = await p.recv_type("snapshot")
            # the waiting room: the seats, nothing dealt to anybody
            assert snap["view"] is None
            assert snap["events"] == []
            assert snap["deadline"] is None
            assert snap["table"]["waiting"] is True
        await asyncio.sleep(0.3)
        assert server.call(lambda: server.hub.tables[code].game.version) == 0
        refused(await answer(kari, {"type": "action", "version": 0,
                                    "action": {"type": "draw", "source": "stock"}}),
                "server_not_started")
        # only the creator changes seats and starts
        for p in (other, watcher):
            refused(await answer(p, {"type": "start"}), "server_not_creator")
            refused(await answer(p, {"type": "seat", "seat": 2, "kind": "bot"}),
                    "server_not_creator")
        refused(await answer(kari, {"type": "seat", "seat": 0, "kind": "bot"}),
                "server_bad_seat", number=1)
        refused(await answer(kari, {"type": "seat", "seat": 4, "kind": "bot"}),
                "server_bad_seat", number=5)
        taken = await answer(kari, {"type": "seat", "seat": 1, "kind": "bot"})
        refused(taken, "server_seat_taken")
        assert "Ola" in taken["message"]
        # a free seat to a bot; a bot's seat back to a person; and the level
        table = (await answer(kari, {"type": "seat", "seat": 2, "kind": "bot",
                                     "level": "hard"}))["table"]
        assert kinds(table)[2] == ("bot", "hard", True)
        table = (await answer(kari, {"type": "seat", "seat": 3, "kind": "human"}))["table"]
        assert kinds(table)[3] == ("human", None, False)
        table = (await answer(kari, {"type": "seat", "seat": 2, "kind": "bot",
                                     "level": "easy"}))["table"]
        assert kinds(table)[2] == ("bot", "easy", True)
        # the same again changes nothing, and is answered all the same
        again = await answer(kari, {"type": "seat", "seat": 2, "kind": "bot", "level": "easy"})
        assert kinds(again["table"]) == kinds(table)
        # the others hear of it (a table message), and it is public
        news = await other.recv_type("table")
        assert news["table"]["seats"][2]["kind"] == "bot"
        # a person who arrives takes the freed seat
        third = sup.join_table(base, code, "Per").json()
        assert third["seat"] == 3
        assert kinds(info(base, code)) == [("human", None, True), ("human", None, True),
                                           ("bot", "easy", True), ("human", None, True)]
        table = (await answer(kari, {"type": "seat", "seat": 3, "kind": "bot"}))
        refused(table, "server_seat_taken")
        per = await sup.Player(server.ws, code, third["token"], seed=3).connect()
        await per.recv_type("snapshot")
        # the start: every connection gets its snapshot, with its own hand
        start = await answer(kari, {"type": "start"})
        assert start["type"] == "snapshot"
        assert start["table"]["waiting"] is False
        assert len(start["view"]["hand"]) == 7
        for p in (other, per, watcher):
            snap = await p.recv_type("snapshot")
            assert snap["view"] is not None
            assert snap["table"]["waiting"] is False
        refused(await answer(kari, {"type": "start"}), "server_started")
        await asyncio.gather(kari.play_to_end(120), other.play_to_end(120),
                             per.play_to_end(120), watcher.play_to_end(120))
        for p in (kari, other, per, watcher):
            await p.close()
        rec = (await asyncio.to_thread(httpx.get, f"{base}/api/tables/{code}/record")).json()
        # the record replays (seat changes are no actions), its seats say who played
        for p in (kari, other, per, watcher):
            sup.check_secrets(rec["record"], p.frames, p.seat)
        assert [s["kind"] for s in rec["table"]["seats"]] == ["human", "human", "bot", "human"]
        final = sup.replay_versions(rec["record"])[-1]
        assert list(final.results().totals) == kari.view["totals"]

    sup.run(go(), timeout=200)


def test_hostile_seat_messages_are_refused_never_coerced(server: Any) -> None:
    made = new_table(server.base, [HUMAN, HUMAN, EASY])
    code = made["code"]
    before = kinds(info(server.base, code))

    async def go() -> None:
        kari = await sup.Player(server.ws, code, made["token"], play=False).connect()
        await kari.recv_type("snapshot")
        for bad, field in (
                ({"seat": "1", "kind": "bot"}, "seat"), ({"seat": True, "kind": "bot"}, "seat"),
                ({"seat": 1.0, "kind": "bot"}, "seat"), ({"seat": -1, "kind": "bot"}, "seat"),
                ({"seat": 64, "kind": "bot"}, "seat"), ({"kind": "bot"}, "seat"),
                ({"seat": 1}, "kind"), ({"seat": 1, "kind": "robot"}, "kind"),
                ({"seat": 1, "kind": ["bot"]}, "kind"),
                ({"seat": 1, "kind": "bot", "level": "expert"}, "level"),
                ({"seat": 1, "kind": "bot", "level": 3}, "level"),
                ({"seat": 1, "kind": "bot", "level": "Easy"}, "level")):
            refused(await answer(kari, {"type": "seat", **bad}), "server_bad_field")
            assert kari.errors[-1]["params"] == {"field": field}, bad
        refused(await answer(kari, {"type": "seat", "seat": 1, "kind": "bot",
                                    "level": "\ud800"}), "server_bad_text")
        refused(await answer(kari, {"type": "start", "now": "\udfff"}), "server_bad_text")
        # a burst of seat messages: the connection's rate limit, like any message
        for _ in range(60):
            await kari.send({"type": "seat", "seat": 9, "kind": "bot"})
        codes = [(await kari.recv_type("error"))["code"] for _ in range(60)]
        assert codes.count("server_bad_seat") >= 30
        assert "server_rate_limited" in codes
        await kari.close()

    sup.run(go())
    assert kinds(info(server.base, code)) == before
    for wait in ("false", 0, [False]):  # (the body's "wait": a boolean, never converted)
        r = httpx.post(f"{server.base}/api/tables", json={"seats": [HUMAN, HUMAN, EASY],
                                                          "wait": wait})
        assert r.status_code == 422
        assert r.json()["detail"]["code"] == "server_bad_field"
    assert info(server.base, new_table(server.base, [HUMAN, HUMAN, EASY], wait=False)[
        "code"])["waiting"] is False
    assert info(server.base, new_table(server.base, [HUMAN, EASY, EASY], wait=True)[
        "code"])["waiting"] is True
    assert info(server.base, code)["waiting"] is True


def test_an_untaken_seat_of_a_started_game_goes_to_a_bot(server: Any) -> None:
    """A seat for a person nobody took: the game waits at its turn (the page
    says so, ``taken`` is false), until the creator gives it to a bot."""
    made = new_table(server.base, [HUMAN, HUMAN, EASY], window_seconds=2)
    code = made["code"]

    async def go() -> None:
        kari = await sup.Player(server.ws, code, made["token"], seed=4).connect()
        await kari.recv_type("snapshot")
        await kari.send({"type": "start"})
        await kari.play_until(lambda: kari.view is not None and kari.view["to_move"] == 1
                              and kari.view["phase"] not in ("buy", "call"), timeout=30)
        stalled = kari.n
        await kari.read_for(0.5)
        assert kari.n == stalled  # nobody plays seat 2 (away_seconds: 60)
        table = info(server.base, code)
        assert table["seats"][1]["taken"] is False
        assert table["waiting"] is False
        await kari.send({"type": "seat", "seat": 1, "kind": "bot", "level": "medium"})
        await kari.play_to_end(120)
        await kari.close()
        rec = (await asyncio.to_thread(httpx.get,
                                       f"{server.base}/api/tables/{code}/record")).json()
        sup.check_secrets(rec["record"], kari.frames, 0)
        assert rec["table"]["seats"][1]["kind"] == "bot"
        assert rec["record"]["actions"][stalled]["seat"] == 1  # the bot's first move

    sup.run(go(), timeout=200)


def test_the_seats_and_the_start_survive_a_restart(tmp_path: Path) -> None:
    with sup.running(serve(tmp_path)) as s:
        made = new_table(s.base, [HUMAN, HUMAN, HUMAN, EASY])
        code = made["code"]

        async def change() -> None:
            kari = await sup.Player(s.ws, code, made["token"], play=False).connect()
            await kari.recv_type("snapshot")
            await answer(kari, {"type": "seat", "seat": 1, "kind": "bot", "level": "hard"})
            await answer(kari, {"type": "seat", "seat": 3, "kind": "human"})
            await kari.close()

        sup.run(change())
        changed = kinds(info(s.base, code))
    assert changed == [("human", None, True), ("bot", "hard", True), ("human", None, False),
                       ("human", None, False)]
    with sup.running(serve(tmp_path)) as s:
        table = info(s.base, code)
        assert kinds(table) == changed
        assert table["waiting"] is True

        async def start() -> None:
            kari = await sup.Player(s.ws, code, made["token"], play=False).connect()
            assert (await kari.recv_type("snapshot"))["view"] is None
            assert (await answer(kari, {"type": "start"}))["type"] == "snapshot"
            await answer(kari, {"type": "seat", "seat": 2, "kind": "bot", "level": "easy"})
            await kari.close()

        sup.run(start())
    with sup.running(serve(tmp_path)) as s:
        table = info(s.base, code)
        assert table["waiting"] is False
        assert kinds(table)[2] == ("bot", "easy", True)

        async def play() -> None:
            kari = await sup.Player(s.ws, code, made["token"], seed=5).connect()
            snap = await kari.recv_type("snapshot")
            assert snap["view"] is not None
            await kari.close()

        sup.run(play())


def test_the_invite_link_as_a_qr_code(server: Any) -> None:
    code = new_table(server.base, [HUMAN, HUMAN, EASY])["code"]
    r = httpx.get(f"{server.base}/api/tables/{code}/qr.svg")
    assert r.status_code == 200
    assert r.headers["content-type"] == "image/svg+xml"
    assert "max-age" in r.headers["cache-control"]
    assert r.text.startswith("<svg")
    assert "<path" in r.text
    assert "<script" not in r.text
    # the code of another table is another picture; no table: 404
    other = new_table(server.base, [HUMAN, HUMAN, EASY])["code"]
    assert httpx.get(f"{server.base}/api/tables/{other}/qr.svg").text != r.text
    assert httpx.get(f"{server.base}/api/tables/ZZZZZZ/qr.svg").status_code == 404
