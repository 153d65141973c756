"""Hints at a table over the WebSocket (docs/protocol.md, "Hints"), on a real
uvicorn in a thread whose hub the test holds: the table option, who may ask
and when (with the codes of the refusals), the answer (one of the seat's
legal actions, with its sentence, to the asking connection alone), stale
versions (asked at one, or one the game moved past meanwhile), the rates, wrong
types, and a hint worked out from the seat's view
alone: two tables whose seat 0 sees the same but whose hidden cards differ
get the same hint, the one :func:`liverpool.review.hint` gives for that view."""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup

from liverpool import Game, load_rules
from liverpool.actions import action_from_json
from liverpool.review import hint
from liverpool.server import Hub, Store
from liverpool.server.hints import Hints, view_seed
from liverpool.server.limits import Limits
from liverpool.server.messages import ViewTexts
from liverpool.views import SeatViews

#: a real server (in a thread of this process): part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

#: the hints' budget in these tests: few samples, no time cap (reproducible)
SAMPLES = 4
PER_MINUTE = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sup.ThreadServer]:
    db: Path = tmp_path_factory.mktemp("hints") / "db.sqlite3"
    hub = Hub(Store(f"sqlite:///{db}"), bot_delay=0.0,
              limits=Limits(connections_per_address=1000, tables_per_minute=1000,
                            tables_per_hour=1000))
    hints = Hints(samples=SAMPLES, time_ms=math.inf, per_minute=PER_MINUTE)
    s = sup.ThreadServer(hub, hints=hints).start()
    s.hints = hints  # type: ignore[attr-defined]
    yield s
    s.stop()


@contextlib.contextmanager
def worker_held(hints: Hints) -> Iterator[Any]:
    """The hints' one worker process kept busy until the block ends (or the
    event yielded is set): a hint asked meanwhile waits its turn."""
    with multiprocessing.get_context("spawn").Manager() as manager:
        gate = manager.Event()
        held = hints.pool.submit(gate.wait, 30)
        try:
            yield gate
        finally:
            gate.set()
            held.result(timeout=30)  # (the gate is read before its manager ends)


def two_players(server: Any, hints: Any = True) -> tuple[str, str, str]:
    """A table of three seats for people, two of them taken: its code and their tokens."""
    made = sup.create_table(server.base, preset="liverpool", hints=hints,
                            seats=[{"kind": "human"}] * 3, name="Kari")
    joined = sup.join_table(server.base, made["code"], "Ola").json()
    return made["code"], made["token"], joined["token"]


async def connect(server: Any, code: str, token: str | None = None,
                  lang: str = "en") -> sup.Player:
    p = await sup.Player(server.ws, code, token, play=False, lang=lang).connect()
    await p.recv_type("snapshot")
    return p


async def answer(p: sup.Player, message: dict[str, Any]) -> dict[str, Any]:
    """Send ``message`` and wait for its ``hint`` or ``error``."""
    await p.send(message)
    while True:
        frame = await p.recv(30)
        if frame["type"] in ("hint", "error"):
            return frame


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_the_option_is_strict_and_shown_to_everyone(server: Any) -> None:
    code, _, _ = two_players(server)
    info = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()
    assert info["settings"]["hints"] is True
    off, _, _ = two_players(server, hints=False)
    assert httpx.get(f"{server.base}/api/tables/{off}", timeout=10).json()["settings"][
        "hints"] is False
    made = sup.create_table(server.base, preset="liverpool")  # (the default: off)
    assert httpx.get(f"{server.base}/api/tables/{made['code']}", timeout=10).json()[
        "settings"]["hints"] is False
    for wrong in ("yes", 1, "true", None):
        r = httpx.post(f"{server.base}/api/tables", json={"hints": wrong}, timeout=10)
        assert r.status_code == 422, (wrong, r.text)
        assert r.json()["detail"]["code"] == "server_bad_field"

    async def go() -> None:  # the spectator's snapshot says it too
        watcher = await connect(server, code)
        snap = next(f for f in watcher.frames if f["type"] == "snapshot")
        assert snap["table"]["settings"]["hints"] is True
        await watcher.close()
    run(go())


def test_refusals(server: Any) -> None:
    async def go() -> None:
        code, kari_token, ola_token = two_players(server)
        kari = await connect(server, code, kari_token, lang="nb")
        ola = await connect(server, code, ola_token)
        watcher = await connect(server, code)
        assert kari.view is not None
        assert kari.view["to_move"] == 0
        got = await answer(watcher, {"type": "hint"})
        assert (got["type"], got["code"]) == ("error", "server_spectator")
        got = await answer(ola, {"type": "hint"})  # (Kari draws first)
        assert (got["type"], got["code"]) == ("error", "server_hint_not_your_decision")
        for wrong in ({"type": "hint", "version": "0"}, {"type": "hint", "version": -1},
                      {"type": "hint", "version": True}, {"type": "hint", "version": 1.5}):
            got = await answer(kari, wrong)
            assert (got["type"], got["code"]) == ("error", "server_bad_field"), wrong
            assert got["params"]["field"] == "version"
        # a version that is not the current one: answered at once, stale, without a move
        got = await answer(kari, {"type": "hint", "version": kari.n + 3})
        assert got == {"type": "hint", "n": kari.n, "version": kari.n + 3, "stale": True,
                       "action": None, "text": None}
        waits = sup.create_table(server.base, preset="liverpool", hints=True, wait=True,
                                 seats=[{"kind": "human"}] * 3, name="Kari")
        early = await sup.Player(server.ws, waits["code"], waits["token"], play=False).connect()
        await early.recv_type("snapshot")
        got = await answer(early, {"type": "hint"})  # (nothing is dealt before the start)
        assert (got["type"], got["code"]) == ("error", "server_not_started")
        await early.close()
        off, off_token, _ = two_players(server, hints=False)
        other = await connect(server, off, off_token)
        got = await answer(other, {"type": "hint"})
        assert (got["type"], got["code"]) == ("error", "server_hints_off")
        assert got["message"] == "Hints are off at this table"
        for p in (kari, ola, watcher, other):
            await p.close()
    run(go())


def test_a_hint_is_a_legal_action_for_the_asker_alone(server: Any) -> None:
    async def go() -> None:
        code, kari_token, ola_token = two_players(server)
        kari = await connect(server, code, kari_token, lang="nb")
        ola = await connect(server, code, ola_token)
        assert kari.view is not None
        legal = kari.view["legal_actions"]
        got = await answer(kari, {"type": "hint"})
        assert got["type"] == "hint", got
        assert got["stale"] is False
        assert got["version"] == got["n"] == kari.n
        assert got["action"] in legal
        assert got["text"].startswith("Tips: ")  # (in Kari's language)
        assert "Forventede poeng" in got["text"]
        # asked at the current version, the same answer: it changes nothing
        again = await answer(kari, {"type": "hint", "version": kari.n})
        assert (again["action"], again["text"]) == (got["action"], got["text"])
        assert [f for f in await ola.quiet(0.5) if f["type"] in ("hint", "update")] == []
        # Kari switches to Danish: her hint comes again, said in Danish (not asked again)
        said = await answer(kari, {"type": "lang", "lang": "da"})
        assert said["action"] == got["action"]
        assert said["text"].startswith("Tip: "), said
        assert "Forventede point" in said["text"], said
        assert said["version"] == said["n"] == kari.n
        # Kari plays it; then it is Ola's decision, not hers
        await kari.send({"type": "action", "version": kari.n, "action": got["action"]})
        await kari.recv_type("update")
        if kari.view is not None and not kari.view["legal_actions"]:
            refused = await answer(kari, {"type": "hint"})
            assert refused["code"] == "server_hint_not_your_decision"
        for p in (kari, ola):
            await p.close()
    run(go())


def test_a_hint_the_game_moved_past_is_stale(server: Any) -> None:
    async def go() -> None:
        code, kari_token, _ = two_players(server)
        kari = await connect(server, code, kari_token)
        with worker_held(server.hints):  # (the hint waits its turn behind it)
            version = kari.n
            await kari.send({"type": "hint"})
            await kari.send({"type": "action", "version": version,
                             "action": {"type": "draw", "source": "stock"}})
            await kari.recv_type("update")
        got = await kari.recv_type("hint", timeout=30)
        assert got == {"type": "hint", "n": version + 1, "version": version, "stale": True,
                       "action": None, "text": None}
        await kari.close()
    run(go())


def test_rates(server: Any) -> None:
    async def go() -> None:
        code, kari_token, _ = two_players(server)
        kari = await connect(server, code, kari_token)
        # two at once: the second waits for the first (which waits, for sure,
        # behind a job that holds the hints' one worker until both are read)
        with worker_held(server.hints) as hold:
            await kari.send({"type": "hint"})
            await kari.send({"type": "hint"})
            frames = []
            while len(frames) < 2:
                frame = await kari.recv(30)
                if frame["type"] in ("hint", "error"):
                    frames.append(frame)
                    hold.set()
        kinds = sorted((f["type"], f.get("code")) for f in frames)
        assert kinds == [("error", "server_hint_pending"), ("hint", None)], frames
        for _ in range(PER_MINUTE - 1):
            assert (await answer(kari, {"type": "hint"}))["type"] == "hint"
        got = await answer(kari, {"type": "hint"})
        assert (got["type"], got["code"]) == ("error", "server_hints_too_fast")
        assert 1 <= got["params"]["seconds"] <= 60
        # another connection of the same seat has its own rate
        second = await connect(server, code, kari_token)
        assert (await answer(second, {"type": "hint"}))["type"] == "hint"
        for p in (kari, second):
            await p.close()
    run(go())


def _same_view_other_cards(seed: int) -> tuple[Game, Game]:
    """Two games in which seat 0 sees the same but the other hands and the stock differ."""
    rules = load_rules("liverpool")
    base = Game(rules, players=3, seed=seed)
    view = base.view(0)
    hidden = list(base.state.hands[1]) + list(base.state.hands[2]) + list(base.state.stock)
    games = []
    for k in range(2):
        pool = list(hidden)
        random.Random(k).shuffle(pool)
        a, b = view.hand_sizes[1], view.hand_sizes[2]
        games.append(Game.from_view(rules, view, [list(view.hand), pool[:a], pool[a:a + b]],
                                    pool[a + b:], seed=k))
    return games[0], games[1]


def test_a_hint_comes_from_the_seats_view_alone(server: Any) -> None:
    one, two = _same_view_other_cards(seed=11)
    assert one.view(0).to_json() == two.view(0).to_json()
    assert sorted(map(str, one.state.hands[1])) != sorted(map(str, two.state.hands[1]))

    def put(code: str, game: Game) -> None:  # (before anybody has connected)
        table = server.hub.tables[code]
        table.game = game
        table.views = SeatViews(game)
        table.view_texts = ViewTexts(table.views)

    async def go() -> list[dict[str, Any]]:
        out = []
        for game in (one, two):
            code, token, _ = two_players(server)
            server.call(lambda code=code, game=game: put(code, game))
            p = await connect(server, code, token)
            assert p.view == game.view(0).to_json(events=False)
            out.append(await answer(p, {"type": "hint"}))
            await p.close()
        return out

    first, second = run(go())
    assert first["type"] == second["type"] == "hint", (first, second)
    assert (first["action"], first["text"]) == (second["action"], second["text"])
    view = one.view(0)
    expected = hint(one.rules, view, one.legal_actions(0), samples=SAMPLES,
                    seed=view_seed(view), time_ms=math.inf)
    assert action_from_json(first["action"]) == expected.action


def test_a_hint_worked_out_while_its_player_switched_language_is_said_in_the_new_one() -> None:
    """The language switch comes while the hint is being worked out (in the
    process, no server: the switch is made before the worker can answer)."""
    from liverpool.ruleset_io import load_rules
    from liverpool.server import Hub, Store
    from liverpool.server.hints import Hints
    from liverpool.server.messages import Client
    from liverpool.server.seats import TableSettings

    async def go() -> None:
        hub = Hub(Store("sqlite://"), bot_delay=0)
        hints = Hints(samples=2)
        table, _token = hub.create(load_rules("liverpool"), "liverpool", [
            {"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
            TableSettings(hints=True), "Kari")
        assert table.game.legal_actions(0)  # (Kari's first decision: seat 0 begins)
        client = Client(0, "nb")
        rate = hints.rate()
        refused: list[str] = []
        hints.ask(table, client, rate, None, lambda code, **_: refused.append(code))
        await asyncio.sleep(0)  # (the hint's task starts: its worker is on it)
        client.lang = "da"  # (before the worker has answered)
        got = await asyncio.wait_for(client.queue.get(), 30)
        assert not refused
        assert isinstance(got, dict)
        assert got["type"] == "hint"
        assert got["text"].startswith("Tip: "), got["text"]
        hints.close()
        hub.close()

    run(go())


def test_a_hint_whose_worker_process_died_is_refused_and_the_next_one_works() -> None:
    """Hints are worked out in worker processes, not in the server's threads:
    a worker that dies (killed, out of memory) costs the hint asked of it a
    ``server_try_again``, and the next hint gets a new worker."""
    from liverpool.server.messages import Client
    from liverpool.server.seats import TableSettings

    async def go() -> None:
        hub = Hub(Store("sqlite://"), bot_delay=0)
        hints = Hints(samples=2, time_ms=math.inf)
        table, _token = hub.create(load_rules("liverpool"), "liverpool", [
            {"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
            TableSettings(hints=True), "Kari")
        worker = await hints.pool.run(os.getpid)
        assert worker != os.getpid()
        os.kill(worker, signal.SIGKILL)
        client = Client(0, "en")
        refused: list[str] = []
        answers = []
        for _ in range(2):
            hints.ask(table, client, hints.rate(), None, lambda code, **_: refused.append(code))
            answers.append(await asyncio.wait_for(client.queue.get(), 60))
        assert not refused
        first, second = answers
        assert isinstance(first, dict)
        assert (first["type"], first["code"]) == ("error", "server_try_again"), first
        assert isinstance(second, dict)
        assert second["type"] == "hint", second
        assert second["action"] is not None
        assert hints.busy == 0
        assert not hints.asking
        hints.close()
        hub.close()

    run(go())


def test_a_hint_worker_ends_itself_when_its_server_process_is_killed() -> None:
    """A server killed (``kill -9``: no shutdown tells its workers) leaves no
    hint worker behind."""
    script = ("import os, signal\n"
              "from liverpool.server.processes import WorkerPool\n"
              "pool = WorkerPool(1)\n"
              "print(pool.submit(os.getpid).result(), flush=True)\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == -signal.SIGKILL, done.stderr
    worker = int(done.stdout.split()[0])

    def alive(pid: int) -> bool:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"  # (a zombie has ended)
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 30
    while alive(worker):
        assert time.monotonic() < deadline, "the hint worker outlived its server process"
        time.sleep(0.1)


def test_a_hint_names_the_meld_it_goes_on_by_its_cards() -> None:
    """The page numbers no meld: a lay-off or a swap hint with the table names
    the meld by its cards (and its end), in every language; without the table
    it says the meld's number; and a per cent sign never starts a line."""
    from liverpool import Card, arrange_meld, i18n, parse_cards
    from liverpool.actions import LayOff, SwapJoker
    from liverpool.review import Hint, Option

    rules = load_rules("liverpool")
    table = [arrange_meld(parse_cards(cards), rules)[0]
             for cards in ("3S 3S 3D", "7H 8H 9H TH", "5C * 7C 8C")]
    off = Hint(LayOff(Card.parse("6H"), 1, "low"), "play", (), 0)
    assert i18n.hint_text(off, "nb", table=table) == "Tips: legg 6♥ på den lave enden av 7♥ 8♥ 9♥ 10♥."
    assert i18n.hint_text(off, "da", table=table) == "Tip: læg 6♥ til den lave ende af 7♥ 8♥ 9♥ 10♥."
    assert "kombinasjon 2" in i18n.hint_text(off, "nb")
    swap = Hint(SwapJoker(Card.parse("6C"), 2, 1), "play", (Option(LayOff(Card.parse("6C"), 2), 12.0, 0.25),), 8)
    said = i18n.hint_text(swap, "en", table=table)
    assert said.startswith("Hint: swap 6♣ for the wild card in 5♣ joker 7♣ 8♣.")
    assert said.endswith("25\u00a0%.")
