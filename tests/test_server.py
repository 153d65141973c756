"""The game server against a real ``liverpool serve`` process: the HTTP API,
WebSocket play of whole (short) games with every frame checked for secrets,
every kind of refused message, the snapshot first, a reconnect that catches up,
``kill -9`` mid-game. Timers, heartbeats and storage failures are in
test_server_timers.py (a server in a thread whose hub the test holds)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup
import websockets

from liverpool import i18n
from liverpool.errors import GameError

#: real servers, browsers and databases: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The server on SQLite (its data folder) and on the tests' PostgreSQL."""
    database = None
    if request.param == "postgresql":
        import psycopg  # noqa: F401
        database = request.getfixturevalue("postgres").database()
    proc = sup.ServerProcess(tmp_path_factory.mktemp("server"), database=database)
    with sup.running(proc):
        yield proc
    assert not proc.errors_logged(), proc.log.read_text()


def short_table(server: Any, humans: int = 1, bots: int = 3, **extra: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}] * humans + [{"kind": "bot", "level": "easy"}] * bots
    body: dict[str, Any] = {"preset": "liverpool", "options": sup.SHORT, "seats": seats,
                            "name": "Kari"}
    body.update(extra)
    return sup.create_table(server.base, **body)


# ------------------------------------------------------------------- HTTP
def test_http_api(server: Any) -> None:
    base = server.base
    health = httpx.get(f"{base}/healthz").json()
    assert health["status"] == "ok"
    assert health["fanout"] == "local"
    presets = httpx.get(f"{base}/api/presets?lang=nb").json()
    assert {p["name"] for p in presets} >= {"liverpool", "london", "dansk", "remi"}
    rules = httpx.get(f"{base}/api/rules/liverpool?lang=da").json()
    assert len(rules["rounds"]) == 7
    assert rules["options"]
    assert httpx.get(f"{base}/api/rules/nothing").status_code == 404
    words = httpx.get(f"{base}/api/i18n/nb").json()
    assert words["lang"] == "nb"
    assert words["words"]["app_title"]

    bad = httpx.post(f"{base}/api/tables", json={"options": {"no_such_option": 1}, "lang": "nb"})
    assert bad.status_code == 400
    assert bad.json()["detail"]["code"] == "rules"
    bad = httpx.post(f"{base}/api/tables", json={"seats": [{"kind": "human"}]})
    assert bad.status_code == 400  # one player is too few
    bad = httpx.post(f"{base}/api/tables", json={"seats": [{"kind": "human"},
                                                           {"kind": "bot", "level": "god"}],
                                                "lang": "nb"})
    assert bad.status_code == 400
    assert bad.json()["detail"]["code"] == "server_bad_bot_level"
    assert "god" in bad.json()["detail"]["message"]
    assert "level" not in bad.json()["detail"][
        "message"]
    # a body or query the server cannot read: the same {code, message}, in the caller's language
    bad = httpx.post(f"{base}/api/tables", json={"turn_seconds": "soon", "lang": "nb"})
    assert bad.status_code == 422
    assert bad.json()["detail"] == {
        "code": "server_bad_field",
        "message": i18n.error_text(GameError("server_bad_field", field="turn_seconds"), "nb")}
    bad = httpx.get(f"{base}/api/games?limit=many&lang=da")
    assert bad.status_code == 422
    assert bad.json()["detail"] == {
        "code": "server_bad_field",
        "message": i18n.error_text(GameError("server_bad_field", field="limit"), "da")}

    made = short_table(server, humans=2, bots=1)
    code, token = made["code"], made["token"]
    assert made["seat"] == 0
    assert len(code) == 6
    assert not set(code) & set("0O1IL")
    info = httpx.get(f"{base}/api/tables/{code}", headers={"X-Seat-Token": token}).json()
    assert info["you"] == 0
    assert info["status"] == "playing"
    assert [s["taken"] for s in info["seats"]] == [True, False, True]
    assert httpx.get(f"{base}/api/tables/{code.lower()}").json()["you"] is None

    # a second person joins with the invite; a reload keeps the seat; then it is full
    joined = sup.join_table(base, code, "Ola")
    assert joined.status_code == 200
    assert joined.json()["seat"] == 1
    again = sup.join_table(base, code, "Ola", token=joined.json()["token"])
    assert again.json() == {"seat": 1, "token": joined.json()["token"], "code": code}
    assert sup.join_table(base, code, "Kari", token=token).json()["seat"] == 0
    full = httpx.post(f"{base}/api/tables/{code}/join", json={"name": "Per", "lang": "nb"})
    assert full.status_code == 409
    assert full.json()["detail"]["code"] == "server_table_full"
    assert full.json()["detail"]["message"] == i18n.error_text(GameError("server_table_full"), "nb")
    info = httpx.get(f"{base}/api/tables/{code}").json()
    assert info["seats"][1]["name"] == "Ola"
    assert info["seats"][1]["taken"]

    # the record only after the end; the public replay at any time
    assert httpx.get(f"{base}/api/tables/{code}/record").status_code == 403
    replay = httpx.get(f"{base}/api/tables/{code}/replay?lang=nb").json()
    assert not replay["over"]
    assert "record" not in replay
    assert replay["events"]
    for item in replay["events"]:
        assert item["event"].get("card", None) is None or item["event"]["type"] != "drew"

    # unknown tables
    for path in ("", "/record", "/replay"):
        r = httpx.get(f"{base}/api/tables/ZZZZZZ{path}?lang=da")
        assert r.status_code == 404
        assert r.json()["detail"]["code"] == "server_no_table"
    assert httpx.post(f"{base}/api/tables/ZZZZZZ/join", json={}).status_code == 404
    # play again: only a seated player, and only once the game is over
    assert httpx.post(f"{base}/api/tables/{code}/again").status_code == 403
    early = httpx.post(f"{base}/api/tables/{code}/again?lang=nb", headers={"X-Seat-Token": token})
    assert early.status_code == 403
    assert early.json()["detail"]["code"] == "server_not_finished"
    assert httpx.get(f"{base}/api/tables/{code}").json()["next_code"] is None
    assert isinstance(httpx.get(f"{base}/api/games").json(), list)


def test_score_pad(server: Any) -> None:
    base = server.base
    pad = httpx.post(f"{base}/api/pads", json={"names": ["Kari", "", "Per"],
                                               "lang": "nb"}).json()
    assert pad["names"][0] == "Kari"
    assert pad["names"][1]
    assert len(pad["plan"]) == 7
    url = f"{base}/api/pads/{pad['id']}"
    pad = httpx.put(f"{url}/rounds", json={"round": 1, "points": [0, 25, 40]}).json()
    assert pad["totals"] == [0, 25, 40]
    assert pad["leaders"] == [0]
    pad = httpx.put(f"{url}/rounds", json={"round": 2, "hands": [["KH", "4D"], [], ["*"]]}
                    ).json()
    points = pad["points"]
    assert pad["rounds"][1] == [points["face_cards"] + points["two_to_nine"], 0,
                                points["wild"]]
    assert pad["running"][-1] == pad["totals"]
    # a correction of round 1
    pad = httpx.put(f"{url}/rounds", json={"round": 1, "points": [5, 5, 5]}).json()
    assert pad["rounds"][0] == [5, 5, 5]
    assert len(pad["rounds"]) == 2
    assert httpx.get(url).json()["rounds"] == pad["rounds"]
    for bad in ({"round": 1, "points": [1, 2]}, {"round": 4, "points": [1, 2, 3]},
                {"round": 1, "hands": [["ZZ"], [], []]}, {"round": 1}):
        assert httpx.put(f"{url}/rounds", json=bad).status_code == 400, bad
    assert httpx.get(f"{base}/api/pads/NOPE").status_code == 404


# -------------------------------------------------------------- WebSocket
def test_snapshot_comes_first(server: Any) -> None:
    made = short_table(server, humans=2, bots=2)
    other = sup.join_table(server.base, made["code"], "Ola").json()

    async def go() -> None:
        a = await sup.Player(server.ws, made["code"], made["token"], play=False).connect()
        first = await a.recv()
        assert first["type"] == "snapshot"
        assert first["seat"] == 0
        assert first["table"]["seats"][0]["connected"]
        b = await sup.Player(server.ws, made["code"], other["token"], play=False).connect()
        assert (await b.recv())["type"] == "snapshot"
        told = await a.recv_type("table")  # the others hear of it after
        assert told["table"]["seats"][1]["connected"]
        watcher = await sup.Player(server.ws, made["code"], play=False).connect()
        first = await watcher.recv()
        assert first["type"] == "snapshot"
        assert first["seat"] is None
        assert first["view"]["hand"] == []
        for p in (a, b, watcher):
            await p.close()

    sup.run(go())


#: liverpool's first two rounds (2 sets, then a set and a run; 10 cards)
TWO_ROUNDS = {"contracts": ["SS", "SR"], "deal": [10, 10], "final_round": "normal"}


@pytest.mark.parametrize(("options", "bots"), [
    (sup.SHORT, 1),
    pytest.param({**TWO_ROUNDS, "buy_limit_per_round": 3}, 3, id="5-players"),
])
def test_whole_games_keep_the_secrets(server: Any, options: dict[str, Any], bots: int) -> None:
    """Two people, bots and a spectator: a game to its end; every frame of
    every connection checked against the replayed record."""
    whole_game_keeps_the_secrets(server, options, bots)


@pytest.mark.parametrize("server", ["sqlite"], indirect=True)
def test_a_seven_round_game_keeps_the_secrets(server: Any) -> None:
    """The same over liverpool's seven rounds and its final round, on SQLite
    (what the storage does is the same in every round: the short games above
    run on both databases)."""
    whole_game_keeps_the_secrets(server, {}, 2)


def whole_game_keeps_the_secrets(server: Any, options: dict[str, Any], bots: int) -> None:
    made = short_table(server, humans=2, bots=bots, options=options)
    code = made["code"]
    other = sup.join_table(server.base, code, "Ola").json()

    async def go() -> list[sup.Player]:
        a = await sup.Player(server.ws, code, made["token"], seed=1).connect()
        b = await sup.Player(server.ws, code, other["token"], seed=2, lang="nb").connect()
        watcher = await sup.Player(server.ws, code, play=False, lang="da").connect()
        await asyncio.gather(a.play_to_end(300), b.play_to_end(300), watcher.play_to_end(300))
        for p in (a, b, watcher):
            await p.close()
        return [a, b, watcher]

    players = sup.run(go(), timeout=600)
    record = httpx.get(f"{server.base}/api/tables/{code}/record")
    assert record.status_code == 200
    rec = record.json()["record"]
    for player, seat in zip(players, (0, 1, None), strict=True):
        assert player.over
        assert sup.check_secrets(rec, player.frames, seat) > 10
        assert [e for e in player.errors
                if e["code"] not in ("stale_action", "server_rate_limited")] == []
    info = httpx.get(f"{server.base}/api/tables/{code}").json()
    assert info["status"] == "finished"
    games = httpx.get(f"{server.base}/api/games").json()
    assert games[0]["code"] == code
    assert len(games[0]["totals"]) == 2 + bots
    replay = httpx.get(f"{server.base}/api/tables/{code}/replay").json()
    assert replay["over"]
    assert replay["record"] == rec

    # play again: the same people on a new table, asked twice the same one
    again = httpx.post(f"{server.base}/api/tables/{code}/again",
                       headers={"X-Seat-Token": other["token"]})
    assert again.status_code == 200
    twice = httpx.post(f"{server.base}/api/tables/{code}/again",
                       headers={"X-Seat-Token": made["token"]}).json()
    assert twice["code"] == again.json()["code"] != code
    fresh = httpx.get(f"{server.base}/api/tables/{twice['code']}",
                      headers={"X-Seat-Token": other["token"]}).json()
    assert fresh["you"] == 1
    assert fresh["status"] == "playing"
    assert [s["name"] for s in fresh["seats"]] == [s["name"] for s in info["seats"]]
    # the next table for the table's players; to anyone else it is private (its invite code)
    assert httpx.get(f"{server.base}/api/tables/{code}",
                     headers={"X-Seat-Token": made["token"]}).json()["next_code"] == twice["code"]
    assert httpx.get(f"{server.base}/api/tables/{code}").json()["next_code"] is None


def refusals(version: int) -> list[tuple[Any, str]]:
    """(message, error code) of every kind of message the server refuses."""
    return [
        ("this is not JSON", "server_bad_json"),
        ("[1, 2, 3]", "server_bad_message"),
        ('"text"', "server_bad_message"),
        ({"no": "type"}, "server_bad_message"),
        ({"type": 7}, "server_bad_message"),
        ({"type": "shuffle_the_stock"}, "server_unknown_message"),
        ({"type": "action", "version": version, "padding": "x" * 17_000}, "server_too_big"),
        (b"\xff\xfe binary, not UTF-8", "server_bad_json"),
        ({"type": "action", "version": "seven", "action": {"type": "pass"}},
         "action_needs_number"),
        ({"type": "action", "version": version - 1, "action": {"type": "draw",
                                                               "source": "stock"}},
         "stale_action"),
        ({"type": "action", "version": version, "action": {"type": "discard", "card": "ZZ"}},
         ("action_bad_card", "card_bad_suit")),
        ({"type": "action", "version": version, "action": {"type": "lay_down",
                                                           "melds": "nonsense"}},
         "action_needs_melds"),
        ({"type": "action", "version": version, "action": "draw"}, "action_not_object"),
        ({"type": "action", "version": version, "action": {"type": "teleport"}},
         "action_unknown"),
    ]


def test_every_refusal_changes_nothing(server: Any) -> None:
    made = short_table(server, humans=2, bots=2)
    code = made["code"]
    other = sup.join_table(server.base, code, "Ola").json()

    async def go() -> None:
        a = await sup.Player(server.ws, code, made["token"], play=False, lang="nb").connect()
        b = await sup.Player(server.ws, code, other["token"], play=False, lang="da").connect()
        watcher = await sup.Player(server.ws, code, play=False, lang="nb").connect()
        await a.quiet(0.3)
        await b.quiet(0.1)
        await watcher.quiet(0.1)
        # the bots have played up to a person's decision: the game waits now
        view = a.view
        assert view is not None
        n = a.n
        mover = a if view["to_move"] == 0 or view["legal_actions"] else b
        waiter = b if mover is a else a
        assert mover.view is not None
        assert mover.view["legal_actions"]
        cases = refusals(n)
        # an action of the other seat (not its decision), an illegal one, a spectator's
        cases_waiter = [({"type": "action", "version": n, "action": {"type": "draw",
                                                                     "source": "stock"}},
                         "not_your_turn")]
        illegal = _illegal_action(mover.view)
        for player, batch in ((mover, cases), (mover, [(illegal, None)]),
                              (waiter, cases_waiter), (watcher, [(
                                  {"type": "action", "version": n,
                                   "action": mover.view["legal_actions"][0]},
                                  "server_spectator"), ({"type": "settings",
                                                         "auto_pass": True},
                                                        "server_spectator")])):
            for message, code_ in batch:
                await player.send(message)
                reply = await player.recv()
                assert reply["type"] == "error", (message, reply)
                assert reply["n"] == n
                if code_ is not None:
                    assert reply["code"] in ((code_,) if isinstance(code_, str) else code_), (
                        message, reply)
                assert reply["message"]
                lang = "da" if player is b else "nb"
                english = i18n.error_text(GameError(reply["code"], **reply.get("params", {})), "en")
                if reply["code"] not in ("action_bad_card", "card_bad_suit"):  # (names a card)
                    assert reply["message"] != english, (lang, reply)
        # nothing changed: nobody got an update, the version stands, the connections live
        for player in (a, b, watcher):
            await player.send({"type": "ping"})
            pong = await player.recv_type("pong")
            assert pong["n"] == n
            assert not [f for f in player.frames if f["type"] == "update"]
            await player.send({"type": "sync", "events_since": 0})
            snap = await player.recv_type("snapshot")
            assert snap["n"] == n
        # and the right move is still taken
        action = mover.choose()
        await mover.send({"type": "action", "version": n, "action": action})
        update = await mover.recv_type("update")
        assert update["n"] == n + 1
        for p in (a, b, watcher):
            await p.close()

    sup.run(go())


def _illegal_action(view: dict[str, Any]) -> dict[str, Any]:
    """An action of the right shape that is not legal now."""
    legal = view["legal_actions"]
    for candidate in ({"type": "discard", "card": view["hand"][0]},
                      {"type": "draw", "source": "stock"}, {"type": "buy"},
                      {"type": "lay_off", "card": view["hand"][0], "meld": 5}):
        if candidate not in legal:
            return {"type": "action", "version": view["version"], "action": candidate}
    raise AssertionError("every candidate is legal")


def test_refusals_in_the_players_language(server: Any) -> None:
    made = short_table(server)

    async def go() -> dict[str, str]:
        out = {}
        for lang in ("nb", "da", "en"):
            p = await sup.Player(server.ws, made["code"], made["token"], play=False,
                                 lang=lang).connect()
            await p.recv_type("snapshot")
            await p.send({"type": "action", "version": -5, "action": {"type": "pass"}})
            reply = await p.recv_type("error")
            assert reply["code"] == "stale_action"
            out[lang] = reply["message"]
            await p.send({"type": "lang", "lang": "en"})  # and changed on the way
            await p.recv_type("snapshot")
            await p.send({"type": "action", "version": -5, "action": {"type": "pass"}})
            out[lang + "→en"] = (await p.recv_type("error"))["message"]
            await p.close()
        return out

    out = sup.run(go())
    assert len({out["nb"], out["da"], out["en"]}) == 3
    assert out["nb→en"] == out["da→en"] == out["en"]


def test_server_messages_are_translated() -> None:
    for code in ("server_bad_json", "server_rate_limited", "server_try_again",
                 "server_spectator", "server_table_full", "server_too_big"):
        english = i18n.error_text(GameError(code, limit=1), "en")
        assert i18n.error_text(GameError(code, limit=1), "nb") != english, code
        assert i18n.error_text(GameError(code, limit=1), "da") != english, code


def test_flood_is_rate_limited(server: Any) -> None:
    made = short_table(server)

    async def go() -> None:
        p = await sup.Player(server.ws, made["code"], made["token"], play=False,
                             lang="nb").connect()
        await p.recv_type("snapshot")
        n = p.n
        for _ in range(100):
            await p.send({"type": "ping"})
        replies = [await p.recv() for _ in range(100)]
        pongs = [r for r in replies if r["type"] == "pong"]
        limited = [r for r in replies if r["type"] == "error"]
        assert 40 <= len(pongs) < 60
        assert len(limited) == 100 - len(pongs)
        assert {r["code"] for r in limited} == {"server_rate_limited"}
        assert all(r["n"] == n for r in replies)
        await asyncio.sleep(0.5)  # the bucket fills again; the connection lives
        await p.send({"type": "ping"})
        assert (await p.recv())["type"] == "pong"
        await p.close()

    sup.run(go())


def test_foreign_origin_and_unknown_table(server: Any) -> None:
    made = short_table(server)

    async def go() -> None:
        url = f"{server.ws}/ws/{made['code']}"
        offer = sup.subprotocols(made["token"])
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            await websockets.connect(url, origin="http://evil.example", subprotocols=offer)
        assert refused.value.response.status_code == 403
        ok = await websockets.connect(url, origin=f"http://127.0.0.1:{server.port}",
                                      subprotocols=offer)
        assert json.loads(await ok.recv())["type"] == "snapshot"
        await ok.close()
        ws = await websockets.connect(f"{server.ws}/ws/QQQQQQ?lang=nb")
        error = json.loads(await ws.recv())
        assert error["type"] == "error"
        assert error["code"] == "server_no_table"
        assert error["message"] == i18n.error_text(GameError("server_no_table", code="QQQQQQ"),
                                               "nb")
        assert error["params"] == {"code": "QQQQQQ"}
        with pytest.raises(websockets.exceptions.ConnectionClosed):
            await ws.recv()
        assert ws.close_code == 4404

    sup.run(go())
    assert httpx.get(f"{server.base}/healthz").status_code == 200


def test_check_and_settings(server: Any) -> None:
    made = short_table(server)

    async def go() -> None:
        p = await sup.Player(server.ws, made["code"], made["token"], play=False).connect()
        await p.quiet(0.3)
        n = p.n
        await p.send({"type": "check", "melds": [["7H", "7D", "7S"], ["9C", "9D", "*"]]})
        reply = await p.recv_type("check")
        assert reply["n"] == n
        assert "ok" in reply
        if not reply["ok"]:
            assert reply["code"]
            assert reply["message"]
        await p.send({"type": "check", "melds": "no"})
        bad = await p.recv_type("check")
        assert bad["ok"] is False
        assert bad["code"] == "action_needs_melds"
        await p.send({"type": "settings", "auto_pass": True})
        assert (await p.recv_type("settings"))["auto_pass"] is True
        await p.send({"type": "settings", "auto_pass": False})
        assert (await p.recv_type("settings"))["auto_pass"] is False
        await p.close()

    sup.run(go())


def test_check_is_no_oracle(server: Any) -> None:
    """``check`` looks only at the asking seat's own hand, when it may lay
    down: a spectator, and a seat that is not to act, learn nothing of seat
    0's hand from it (the answer is the same whatever the cards asked about)."""
    made = short_table(server, humans=2, bots=1)
    second = sup.join_table(server.base, made["code"], "Ola").json()

    async def go() -> None:
        owner = await sup.Player(server.ws, made["code"], made["token"], play=False).connect()
        other = await sup.Player(server.ws, made["code"], second["token"], play=False).connect()
        watcher = await sup.Player(server.ws, made["code"], None, play=False).connect()
        await owner.quiet(0.3)
        assert owner.view is not None
        hand = owner.view["hand"]
        probes = [[hand[:3]], [["2C", "2D", "2H"]], [[hand[0], "KS", "KD"]]]
        for who, code in ((watcher, "server_spectator"), (other, "lay_down_not_now")):
            answers = set()
            for melds in probes:
                await who.send({"type": "check", "melds": melds})
                reply = await who.recv_type("check")
                assert reply["ok"] is False, reply
                assert reply["code"] == code, reply
                answers.add(reply["message"])
            assert len(answers) == 1  # the same words whatever the cards
        for p in (owner, other, watcher):
            await p.close()

    sup.run(go())


def test_reconnect_catches_up(server: Any) -> None:
    """A player who was gone while others played reconnects: the snapshot is
    the present, and ``sync`` brings every event missed."""
    made = short_table(server, humans=2, bots=1)
    code = made["code"]
    other = sup.join_table(server.base, code, "Ola").json()

    async def go() -> None:
        a = await sup.Player(server.ws, code, made["token"], seed=1).connect()
        b = await sup.Player(server.ws, code, other["token"], seed=2).connect()
        # both play a while
        await asyncio.gather(a.play_until(lambda: min(a.n, b.n) >= 20),
                             b.play_until(lambda: min(a.n, b.n) >= 20))
        await a.close()
        seen = a.next_event
        # b plays on alone until it is a's decision (the game waits for a)
        await b.quiet(0.5)
        missed_from = b.n
        back = sup.Player(server.ws, code, made["token"], seed=1, play=False)
        back.next_event = seen
        await back.connect()
        snap = await back.recv_type("snapshot")
        assert snap["n"] == b.n >= missed_from
        await back.send({"type": "sync", "events_since": seen})
        caught = await back.recv_type("snapshot")
        assert [e["event"]["seq"] for e in caught["events"]] == list(
            range(seen, seen + len(caught["events"])))
        assert back.next_event == b.next_event
        back.play = True
        await back._maybe_act()
        await asyncio.gather(back.play_to_end(), b.play_to_end())
        a.frames += back.frames
        await back.close()
        await b.close()
        got = await asyncio.to_thread(httpx.get, f"{server.base}/api/tables/{code}/record")
        rec = got.json()["record"]
        sup.check_secrets(rec, a.frames, 0)
        sup.check_secrets(rec, b.frames, 1)

    sup.run(go())


@pytest.mark.parametrize(("options", "bots", "kill_at"), [
    (sup.SHORT, 1, 40),
    # killed later in a two-round game: the resumed game replays a long record first
    pytest.param(TWO_ROUNDS, 2, 150, id="liverpool-2-rounds"),
])
def test_kill_9_mid_game_loses_nothing(tmp_path: Path, options: dict[str, Any], bots: int,
                                       kill_at: int) -> None:
    """Every action acknowledged before a ``kill -9`` is in the resumed game;
    the clients reconnect and play to the end."""
    proc = sup.ServerProcess(tmp_path / "data")
    with sup.running(proc):
        made = short_table(proc, humans=2, bots=bots, options=options)
        code = made["code"]
        other = sup.join_table(proc.base, code, "Ola").json()

        async def before() -> tuple[sup.Player, sup.Player]:
            a = await sup.Player(proc.ws, code, made["token"], seed=1).connect()
            b = await sup.Player(proc.ws, code, other["token"], seed=2).connect()
            await asyncio.gather(a.play_until(lambda: max(a.n, b.n) >= kill_at),
                                 b.play_until(lambda: max(a.n, b.n) >= kill_at))
            return a, b

        # the players stop reading mid-stream: the kill comes while things move
        a, b = sup.run(before())
        acked = max(a.acks | b.acks)
        proc.kill9()
        proc.start()

        async def after() -> None:
            for p in (a, b):
                await p.reconnect(proc.ws)
            snap = await a.recv_type("snapshot")
            assert snap["n"] >= acked
            await asyncio.gather(a.play_to_end(300), b.play_to_end(300))
            await a.close()
            await b.close()

        sup.run(after(), timeout=600)
        rec = httpx.get(f"{proc.base}/api/tables/{code}/record").json()["record"]
        # every view acknowledged before the kill is the view of the resumed game
        sup.check_secrets(rec, a.frames, 0)
        sup.check_secrets(rec, b.frames, 1)
        assert len(rec["actions"]) >= acked


def test_a_check_with_several_ways_says_what_the_wilds_stand_for() -> None:
    """The lay-down dialog's choices differ only in where a run's joker stands:
    each says it (``joker = 10♦`` or ``joker = A♦``); a lone way says nothing
    more, and a set's wild (any suit) is not named."""
    from liverpool import LayDown, arrange_meld, load_rules, parse_cards
    from liverpool.server.stream import lay_down_texts

    rules = load_rules("liverpool")
    runs = arrange_meld(parse_cards("JD QD KD *"), rules)
    sets = arrange_meld(parse_cards("6S 6C *"), rules)
    ways = [LayDown((run, sets[0])) for run in runs]
    texts = lay_down_texts(ways, rules, "nb", True)
    assert [t.endswith(end) for t, end in zip(texts, ("(joker = 10♦)", "(joker = A♦)"),
                                               strict=True)] == [True, True]
    assert len(set(texts)) == 2
    assert lay_down_texts(ways[:1], rules, "en", False) == ["lay down joker JD QD KD | 6S 6C joker"]
