"""The server's clocks and failures, on a real uvicorn in a thread whose hub
the test holds (so a table's timers can be a fraction of a second and its
storage can fail): heartbeats, the buy window, "don't ask me to buy", the turn
timer, away players, bots under connection churn, many bots, two windows'
timers at once, and storage errors that must change nothing."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup
import websockets

from liverpool import load_rules
from liverpool.server import Hub, Store
from liverpool.server.seats import TableSettings
from liverpool.server.store import StoreError
from liverpool.server.table import Table

#: real servers, browsers and databases: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow


class FlakyStore(Store):
    """A store whose writes fail while :attr:`failing` is set."""

    failing = False

    def _check(self) -> None:
        if self.failing:
            raise StoreError("the disk is on holiday")

    def append_action(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        super().append_action(*args, **kwargs)

    def create_table(self, *args: Any, **kwargs: Any) -> None:
        self._check()
        super().create_table(*args, **kwargs)

    def update_seat(self, *args: Any, **kwargs: Any) -> bool:
        self._check()
        return super().update_seat(*args, **kwargs)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder: Path = tmp_path_factory.mktemp("threaded")
    store = FlakyStore(f"sqlite:///{folder / 'db.sqlite3'}")
    hub = Hub(store, bot_delay=0.0)
    # silence 1.5 s: a loaded machine may be slow to answer a ping or two
    with sup.running(sup.ThreadServer(hub, ping_every=0.2, silence=1.5)) as s:
        yield s


def new_table(server: Any, humans: int = 1, bots: int = 3, players_first: bool = True,
              **settings: Any) -> tuple[str, str]:
    """A short table made in the server's loop with ``settings`` (any values);
    returns (code, the creator's token)."""
    hub: Hub = server.hub

    def make() -> tuple[str, str]:
        rules = load_rules("liverpool", **sup.SHORT)
        seats = [{"kind": "human"}] * humans + [{"kind": "bot", "level": "easy"}] * bots
        table, token = hub.create(rules, "liverpool", seats, TableSettings(**settings), "Kari")
        table.settings.bot_delay = settings.get("bot_delay", 0.0)
        table.schedule_moves()
        return table.code, token

    return server.call(make)


def table_of(server: Any, code: str) -> Table:
    table: Table = server.hub.tables[code]
    return table


class OwnTurnsOnly(sup.Player):
    """A player who plays their own turns and never answers a window."""

    async def _maybe_act(self) -> None:
        if self.view is not None and self.view["phase"] in ("buy", "call"):
            return
        await super()._maybe_act()


def passes_of(server: Any, code: str, seat: int) -> int:
    table = table_of(server, code)
    return server.call(lambda: sum(1 for a, s in zip(table.game.history,
                                                      table.game.history_seats, strict=True)
                                   if s == seat and a.to_json()["type"] == "pass"))


# -------------------------------------------------------------- heartbeats
def test_heartbeats_and_silence(server: Any) -> None:
    code, token = new_table(server)

    async def go() -> None:
        talker = await sup.Player(server.ws, code, token, play=False).connect()
        silent = await websockets.connect(f"{server.ws}/ws/{code}", ping_interval=None)
        start = time.monotonic()
        await talker.play_until(lambda: time.monotonic() - start > 1.6, timeout=5)
        assert talker.pings >= 4  # every 0.2 s, answered: still here
        pings = [f for f in talker.frames if f["type"] == "ping"]
        assert all(isinstance(p["n"], int) for p in pings)
        # the silent one read its pings but never answered: dropped after 1.5 s
        with pytest.raises(websockets.exceptions.ConnectionClosed):  # noqa: PT012
            while True:  # (read until the close)
                frame = json.loads(await asyncio.wait_for(silent.recv(), 3))
                assert frame["type"] in ("snapshot", "ping", "table", "update")
        assert silent.close_code == 1001
        assert time.monotonic() - start < 5
        await talker.send({"type": "ping"})
        assert (await talker.recv_type("pong"))["type"] == "pong"
        await talker.close()

    sup.run(go())


# ----------------------------------------------------------------- windows
def test_the_window_passes_by_itself(server: Any) -> None:
    code, token = new_table(server, window_seconds=0.3)

    async def go() -> OwnTurnsOnly:
        p = await OwnTurnsOnly(server.ws, code, token).connect()
        await p.play_until(lambda: passes_of(server, code, 0) >= 2, timeout=20)
        await p.close()
        return p

    p = sup.run(go())
    windows = [f for f in p.frames if f.get("view") and f["view"]["phase"] == "buy"
               and 0 in f["view"]["queue"] and f["view"]["legal_actions"]]
    assert windows
    assert all(f["deadline"] is not None and 0 <= f["deadline"] <= 0.3
                           for f in windows)


def test_auto_pass_passes_at_once(server: Any) -> None:
    code, token = new_table(server, window_seconds=30)

    async def go() -> float:
        p = await OwnTurnsOnly(server.ws, code, token).connect()
        await p.recv_type("snapshot")
        await p.send({"type": "settings", "auto_pass": True})
        await p.recv_type("settings")
        start = time.monotonic()
        await p.play_until(lambda: passes_of(server, code, 0) >= 3, timeout=20)
        await p.close()
        return time.monotonic() - start

    assert sup.run(go()) < 10  # (a 30 s window would take minutes)
    assert table_of(server, code).seats[0].record.auto_pass


def test_two_windows_timers_at_once(server: Any) -> None:
    """Two people who never answer, their windows closing at the same moment:
    both pass, one after the other, and the game goes on."""
    code, token = new_table(server, humans=2, bots=2, window_seconds=0.2)
    other = sup.join_table(server.base, code, "Ola").json()

    async def go() -> None:
        a = await OwnTurnsOnly(server.ws, code, token, seed=1).connect()
        b = await OwnTurnsOnly(server.ws, code, other["token"], seed=2).connect()

        def done() -> bool:
            return passes_of(server, code, 0) >= 3 and passes_of(server, code, 1) >= 3

        await asyncio.gather(a.play_until(done, 30), b.play_until(done, 30))
        await a.close()
        await b.close()

    sup.run(go())
    rows = server.hub.store.actions(code)
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))


# ------------------------------------------------------------- the clocks
def test_turn_timer_lets_the_basic_bot_decide(server: Any) -> None:
    code, token = new_table(server, turn_seconds=0.25, window_seconds=0.25)

    async def go() -> sup.Player:
        p = await sup.Player(server.ws, code, token, play=False).connect()
        table = table_of(server, code)
        await p.play_until(lambda: server.call(lambda: table.game.history_seats.count(0)) >= 4,
                           timeout=20)
        await p.close()
        return p

    p = sup.run(go())
    mine = [f for f in p.frames if f.get("view") and f["view"]["to_move"] == 0
            and f["view"]["phase"] not in ("buy", "call")]
    assert mine
    assert all(f["deadline"] is not None and f["deadline"] <= 0.25 for f in mine)
    # the public clock: the same countdown, of the seat to move, for everyone
    assert all(f["clock"]["seat"] == 0 and f["clock"]["seconds"] <= 0.25 for f in mine)
    # a bot to move has no clock
    bots = [f for f in p.frames if f.get("view") and f["view"]["to_move"] not in (0, None)]
    assert bots
    assert all(f["clock"] is None for f in bots)


def test_away_player_is_played_by_the_bot_and_comes_back(server: Any) -> None:
    code, token = new_table(server, away_seconds=0.3, window_seconds=0.3, bot_delay=0.03)
    table = table_of(server, code)

    def version() -> int:
        return server.call(lambda: table.game.version)

    async def come_and_go() -> None:
        p = await sup.Player(server.ws, code, token, play=False).connect()
        await p.recv_type("snapshot")
        await p.close()

    # they came and went: after 0.3 s the seat is away and the bot plays it
    # (a table nobody ever came to plays no bots: tests/test_hub_bounds.py)
    sup.run(come_and_go())
    deadline = time.monotonic() + 10
    while server.call(lambda: table.game.history_seats.count(0)) < 3:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    info = httpx.get(f"{server.base}/api/tables/{code}").json()
    assert info["seats"][0]["away"]
    assert not info["seats"][0]["connected"]

    async def back() -> None:
        p = await sup.Player(server.ws, code, token, play=False).connect()
        snap = await p.recv_type("snapshot")
        assert not snap["table"]["seats"][0]["away"]
        assert snap["table"]["seats"][0]["connected"]
        # back: the game waits for them (no bot plays their turn)
        deadline = time.monotonic() + 10
        while True:
            await p.quiet(0.4)
            v = p.view
            assert v is not None
            assert not p.over
            assert time.monotonic() < deadline
            if v["to_move"] == 0 and v["phase"] not in ("buy", "call") and v["legal_actions"]:
                break
        n = version()
        assert n == p.n
        await p.quiet(0.8)  # (answering pings)
        assert version() == n
        p.play = True
        await p._maybe_act()
        await p.recv_type("update")
        assert version() > n
        await p.close()

    sup.run(back())


def test_the_others_hear_when_a_player_who_left_counts_as_away(server: Any) -> None:
    """Away comes with time alone (no connection changes then): the others get
    a ``table`` message that says so, while the game stands still."""
    code, token = new_table(server, humans=2, bots=2, away_seconds=0.5)
    ola = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Ola"}).json()
    assert ola["seat"] == 1

    async def go() -> list[tuple[bool, bool]]:
        kari = await sup.Player(server.ws, code, token, play=False).connect()
        await kari.recv_type("snapshot")
        p = await sup.Player(server.ws, code, ola["token"], play=False).connect()
        await p.recv_type("snapshot")
        await p.close()
        await kari.read_for(1.5)
        seen = [(f["table"]["seats"][1]["connected"], f["table"]["seats"][1]["away"])
                for f in kari.frames if f["type"] == "table"]
        await kari.close()
        return seen

    seen = sup.run(go())
    # Ola came and left (not yet away), and 0.5 s later counts as away
    assert seen[-1] == (False, True), seen
    assert seen.index((False, False)) < seen.index((False, True))


def test_bots_are_not_held_back_by_people_coming_and_going(server: Any) -> None:
    code, token = new_table(server, humans=1, bots=3, bot_delay=0.15)
    table = table_of(server, code)

    async def churn() -> None:
        # the creator plays; spectators come and go every 50 ms (each one plans again)
        p = await sup.Player(server.ws, code, token).connect()
        start_n = -1
        # (a second of churn at least; on a loaded machine up to ten, until the
        # bots have made the moves asserted below)
        end, longest = time.monotonic() + 1.0, time.monotonic() + 10.0
        now = time.monotonic()
        while now < end or (p.n - start_n < 4 and now < longest):
            w = await websockets.connect(f"{server.ws}/ws/{code}", ping_interval=None)
            await asyncio.sleep(0.05)
            await w.close()
            await p.read_for(0.001)
            if start_n < 0:
                start_n = p.n
            now = time.monotonic()
        await p.read_for(0.05)
        assert p.n - start_n >= 4  # the bots moved (0.15 s each) despite the churn
        await p.close()

    sup.run(churn())
    # no move is left hanging: those under way now (the bots play on after the
    # person left) are done soon after
    under_way = set(server.call(lambda: set(table.moves.running)))
    end = time.monotonic() + 5.0
    while under_way & server.call(lambda: set(table.moves.running)) and time.monotonic() < end:
        time.sleep(0.02)
    assert not under_way & server.call(lambda: set(table.moves.running))


def test_many_bots(server: Any) -> None:
    """One person and seven bots: every window with seven bots in it closes."""
    code, token = new_table(server, humans=1, bots=7)

    async def go() -> sup.Player:
        p = await sup.Player(server.ws, code, token).connect()
        await p.play_until(lambda: p.n >= 100, 30)
        await p.close()
        return p

    p = sup.run(go())
    rows = server.hub.store.actions(code)
    assert len(rows) >= 100
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    assert not [e for e in p.errors if e["code"] not in ("stale_action", "server_rate_limited")]


# ----------------------------------------------------------------- storage
def test_storage_failures_change_nothing(server: Any) -> None:
    store: FlakyStore = server.hub.store
    code, token = new_table(server, humans=2, bots=2)
    table = table_of(server, code)

    async def go() -> None:
        p = await sup.Player(server.ws, code, token, play=False, lang="nb").connect()
        await p.play_until(lambda: p.view is not None and bool(p.view["legal_actions"]), 10)
        await p.quiet(0.2)
        n = p.n
        stored = len(store.actions(code))
        action = p.choose()
        store.failing = True
        try:
            await p.send({"type": "action", "version": n, "action": action})
            error = await p.recv_type("error")
            assert error["code"] == "server_try_again"
            assert error["n"] == n
            assert error["message"]
            assert error["message"] != "server_try_again"
            await p.send({"type": "settings", "auto_pass": True})
            assert (await p.recv_type("error"))["code"] == "server_try_again"
            r = await asyncio.to_thread(httpx.post, f"{server.base}/api/tables",
                                        json={"lang": "da"})
            assert r.status_code == 503
            assert r.json()["detail"]["code"] == "server_try_again"
            r = await asyncio.to_thread(httpx.post, f"{server.base}/api/tables/{code}/join",
                                        json={"name": "Ola"})
            assert r.status_code == 503
        finally:
            store.failing = False
        assert server.call(lambda: table.game.version) == n
        assert len(store.actions(code)) == stored
        assert not table.seats[0].record.auto_pass
        assert not table.seats[1].record.token_hash
        assert not [f for f in p.frames if f["type"] == "update" and f["n"] > n]
        # the same action again: taken
        await p.send({"type": "action", "version": n, "action": action})
        assert (await p.recv_type("update"))["n"] == n + 1
        await p.close()

    sup.run(go())


def test_storage_failure_of_an_automatic_move_is_tried_again(server: Any) -> None:
    store: FlakyStore = server.hub.store
    code, token = new_table(server, humans=1, bots=3)
    table = table_of(server, code)
    # the creator is not there: make it a bot's decision and let storage fail

    def bots_turn() -> bool:
        return table.game.to_move is not None and table.seats[table.game.to_move].is_bot

    async def go() -> None:
        p = await sup.Player(server.ws, code, token).connect()
        await p.play_until(lambda: server.call(bots_turn) and p.n > 3, 10)
        store.failing = True
        n = server.call(lambda: table.game.version)
        await asyncio.sleep(0.3)
        store.failing = False
        assert server.call(lambda: table.game.version) in (n, n + 1)
        # one second later the bot tries again, and the game goes on
        await p.play_until(lambda: p.n >= n + 2, 10)
        await p.close()

    sup.run(go())
