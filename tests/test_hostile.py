"""A hostile client against a real ``liverpool serve`` process (issue 20: strict
input, headers and tokens, fair deals). Every bad input gets its documented
coded error in the player's language, changes nothing, and leaves the
connection alive; the Host header is checked; every page carries the security
headers; the seat token never travels in a URL; deals are drawn from a key of the
operating system's CSPRNG."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import unicodedata
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup
import websockets

from liverpool import i18n
from liverpool.errors import GameError
from liverpool.server.guard import BodyGuard, default_hosts, parse_hosts
from liverpool.server.inbound import NAME_LENGTH, clean_chat, clean_name
from liverpool.server.stream import FRAME_LIMIT, MAX_MESSAGE

#: real servers: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

STATIC = Path(__file__).resolve().parent.parent / "src" / "liverpool" / "server" / "static"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One server on SQLite that logs every request (``--log-level info``), so
    that what it logs can be searched for seat tokens."""
    proc = sup.ServerProcess(tmp_path_factory.mktemp("hostile"),
                             args=("--log-level", "info"))
    with sup.running(proc):
        yield proc
    assert not proc.errors_logged(), proc.log.read_text()


def new_table(server: Any, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"preset": "liverpool", "options": sup.SHORT, "name": "Kari",
                            "seats": [{"kind": "human"}, {"kind": "human"},
                                      {"kind": "bot", "level": "easy"}]}
    body.update(extra)
    return sup.create_table(server.base, **body)


def coded(response: httpx.Response, status: int, code: str, lang: str = "en",
          **params: Any) -> None:
    """``response`` is the documented HTTP error: ``{"detail": {"code", "message"}}``
    with the message in ``lang``."""
    assert response.status_code == status, response.text
    assert response.json()["detail"] == {
        "code": code, "message": i18n.error_text(GameError(code, **params), lang)}, response.text


async def refused(player: sup.Player, message: dict[str, Any] | str, code: str,
                  n: int, **params: Any) -> dict[str, Any]:
    """Send ``message``: the answer is an ``error`` of ``code`` at version ``n``, in
    the player's language (Norwegian here), and the connection answers a ping."""
    await player.send(message)
    reply = await player.recv()
    assert reply["type"] == "error", (message, reply)
    assert reply["code"] == code, (message, reply)
    assert reply["n"] == n
    assert reply["message"] == i18n.error_text(GameError(code, **params), "nb"), reply
    await player.send({"type": "ping"})
    assert (await player.recv_type("pong"))["n"] == n
    await asyncio.sleep(0.1)  # (two messages in 0.1 s: within the rate a client may send)
    return reply


# ------------------------------------------------------------- strict types
def test_wrong_types_over_the_websocket_are_refused_never_coerced(server: Any) -> None:
    made = new_table(server)

    async def go() -> None:
        p = await sup.Player(server.ws, made["code"], made["token"], play=False,
                             lang="nb").connect()
        await p.quiet(0.3)
        n, seen = p.n, len(p.frames)
        for value in ("no", "false", 0, 1, [], {}):
            await refused(p, {"type": "settings", "auto_pass": value}, "server_bad_field", n,
                          field="auto_pass")
        await p.send({"type": "settings"})
        assert (await p.recv_type("settings"))["auto_pass"] is False  # not turned on by "no"
        for value in ("false", 0, "true"):
            await refused(p, {"type": "lang", "lang": "en", "symbols": value},
                          "server_bad_field", n, field="symbols")
        await refused(p, {"type": "lang", "lang": 5}, "server_bad_field", n, field="lang")
        for value in ("3", -1, 2.0, True):
            await refused(p, {"type": "lang", "lang": "en", "events_since": value},
                          "server_bad_field", n, field="events_since")
        # still Norwegian: a refused lang message changed nothing
        for version in (True, "7", 7.0, None):
            await refused(p, {"type": "action", "version": version,
                              "action": {"type": "draw", "source": "stock"}},
                          "action_needs_number", n, key="version")
        await refused(p, {"type": "action", "action": {"type": "draw", "source": "stock"}},
                      "action_needs_number", n, key="version")  # version is required
        for since in ("0", True, -1, 1.5):
            await refused(p, {"type": "sync", "events_since": since}, "server_bad_field", n,
                          field="events_since")
        for melds in ([["7H", 7]], [[]], [], "7H 7D 7S", [["7H"]] * 13, [["x" * 9]]):
            await p.send({"type": "check", "melds": melds})
            answer = await p.recv_type("check")
            assert answer["ok"] is False, melds
            assert answer["code"] == "action_needs_melds", melds
            await asyncio.sleep(0.05)
        assert not [f for f in p.frames[seen:] if f["type"] in ("update", "snapshot")]
        await p.send({"type": "sync", "events_since": 0})
        assert (await p.recv_type("snapshot"))["n"] == n
        await p.close()

    sup.run(go())


def test_the_urls_symbols_is_true_or_false_and_nothing_else(server: Any) -> None:
    """The query's ``symbols`` is read exactly: "yes", "1" or "on" are not
    turned into a boolean but refused with the coded error, in the language
    asked for, and the connection is closed (1008)."""
    made = new_table(server)

    async def go() -> None:
        url = f"{server.ws}/ws/{made['code']}?lang=da&symbols="
        for value in ("yes", "1", "on", "True", ""):
            async with websockets.connect(url + value,
                                          subprotocols=sup.subprotocols(made["token"])) as ws:
                error = json.loads(await ws.recv())
                assert error == {"type": "error", "n": 0, "code": "server_bad_field",
                                 "message": i18n.error_text(GameError(
                                     "server_bad_field", field="symbols"), "da"),
                                 "params": {"field": "symbols"}}, value
                with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                    await ws.recv()
                assert closed.value.rcvd is not None
                assert closed.value.rcvd.code == 1008
        for value in ("true", "false"):
            async with websockets.connect(url + value,
                                          subprotocols=sup.subprotocols(made["token"])) as ws:
                assert json.loads(await ws.recv())["type"] == "snapshot", value

    sup.run(go())


def test_wrong_types_in_http_bodies_are_refused_with_the_coded_error(server: Any) -> None:
    base = server.base
    for body, field in (({"turn_seconds": True}, "turn_seconds"),
                        ({"away_seconds": "60"}, "away_seconds"),
                        ({"seats": [{"kind": "robot"}]}, "seats.0.kind"),
                        ({"seats": [{"kind": "human", "level": 3}]}, "seats.0.level"),
                        ({"name": 7}, "name"), ({"lang": ["nb"]}, "lang")):
        coded(httpx.post(f"{base}/api/tables?lang=da", json=body), 422, "server_bad_field",
              "da", field=field)
    coded(httpx.post(f"{base}/api/tables", content=b"{not json",
                     headers={"Content-Type": "application/json"}), 422, "server_bad_json")
    made = new_table(server)
    coded(httpx.post(f"{base}/api/tables/{made['code']}/join", json={"name": False,
                                                                     "lang": "nb"}),
          422, "server_bad_field", "nb", field="name")
    pad = httpx.post(f"{base}/api/pads", json={"names": ["A", "B"]}).json()
    coded(httpx.put(f"{base}/api/pads/{pad['id']}/rounds", json={"round": 1,
                                                                 "points": ["5", 3]}),
          422, "server_bad_field", field="points.0")
    coded(httpx.put(f"{base}/api/pads/{pad['id']}/rounds", json={"round": True,
                                                                 "points": [5, 3]}),
          422, "server_bad_field", field="round")
    assert httpx.get(f"{base}/api/pads/{pad['id']}").json()["rounds"] == []  # nothing changed


def test_a_preset_is_a_name_never_a_path_on_the_server(server: Any) -> None:
    """A ``preset`` from a client names a built-in preset and nothing else: a
    path is never read (it could tell which files exist, show a file's first
    line, or wait forever on a pipe)."""
    base = server.base
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.31"),
                      timeout=10) as http:
        for preset in ("/etc/passwd", "pyproject.toml", "a\u0000.toml", "/proc/self/fd/0"):
            for url, body in ((f"{base}/api/tables", {"preset": preset, "lang": "nb"}),
                              (f"{base}/api/pads", {"preset": preset, "lang": "nb",
                                                    "names": ["A", "B"]})):
                answer = http.post(url, json=body)
                assert answer.status_code == 400, answer.text
                detail = answer.json()["detail"]
                assert detail["code"] == "rules"
                assert detail["message"].startswith("Ukjent ferdig regelsett"), detail
                assert "TOML" not in detail["message"]  # (no file was read)
                assert "build-system" not in detail["message"]
        for name in ("x" * 300, "a%00.toml", "pyproject.toml", "..x.toml"):
            answer = http.get(f"{base}/api/rules/{name}?lang=da")
            assert answer.status_code == 404, (name, answer.text)
            assert answer.json()["detail"]["message"].startswith("Ukendt færdigt regelsæt")
        for name in ("%2Fetc%2Fpasswd", "..%2F..%2Fpyproject.toml"):  # (no such route)
            assert http.get(f"{base}/api/rules/{name}").status_code == 404
        assert http.get(f"{base}/api/rules/Remi").status_code == 200


def test_http_bodies_are_bounded_and_must_be_json_text(server: Any) -> None:
    base = server.base
    json_type = {"Content-Type": "application/json"}
    limit = 64 * 1024
    big = b'{"name": "' + b"x" * limit + b'"}'
    made = new_table(server)
    for url in (f"{base}/api/tables?lang=nb", f"{base}/api/tables/{made['code']}/join?lang=nb",
                f"{base}/api/pads?lang=nb"):
        coded(httpx.post(url, content=big, headers=json_type), 413, "server_too_big", "nb",
              limit=limit)

        def chunks() -> Any:  # (no Content-Length: counted as it comes)
            yield b'{"name": "'
            for _ in range(80):
                yield b"x" * 1024
            yield b'"}'

        coded(httpx.post(url, content=chunks(), headers=json_type), 413, "server_too_big", "nb",
              limit=limit)
        coded(httpx.post(url, content=b'{"name": "\xff"}', headers=json_type), 422,
              "server_bad_text", "nb")
        coded(httpx.post(url, content=b"[" * 5000 + b"]" * 5000, headers=json_type), 422,
              "server_bad_json", "nb")
    info = httpx.get(f"{base}/api/tables/{made['code']}").json()
    assert [s["taken"] for s in info["seats"]] == [True, False, True]  # nobody joined


def test_a_body_that_comes_too_slowly_is_refused() -> None:
    """A body sent a byte at a time does not hold its connection: past the
    guard's seconds it is refused (408) before any route reads it."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the route was reached")

    sent: list[dict[str, Any]] = []
    parts = [{"type": "http.request", "body": b'{"na', "more_body": True}]

    async def receive() -> dict[str, Any]:
        if parts:
            return parts.pop()
        await asyncio.sleep(60)  # (the rest never comes)
        raise AssertionError("not cancelled")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/tables", "headers": [],
             "query_string": b"lang=da"}
    asyncio.run(BodyGuard(app, limit=1024, seconds=0.05)(scope, receive, send))
    assert sent[0]["status"] == 408
    detail = json.loads(sent[1]["body"])["detail"]
    assert detail == {"code": "server_too_slow", "message": i18n.error_text(
        GameError("server_too_slow", seconds=0.05), "da")}


# ------------------------------------------------------------------ size
def test_a_message_over_the_limit_gets_server_too_big_on_a_live_connection(
        server: Any) -> None:
    made = new_table(server)

    async def go() -> None:
        p = await sup.Player(server.ws, made["code"], made["token"], play=False,
                             lang="nb").connect()
        await p.quiet(0.3)
        n = p.n
        for size in (MAX_MESSAGE + 1, 64 * 1024 + 10, FRAME_LIMIT - 1024):
            message = {"type": "action", "version": n, "padding": "x" * size}
            await refused(p, message, "server_too_big", n, limit=MAX_MESSAGE)
        # only a frame over the WebSocket layer's own limit closes the connection (1009)
        await p.send({"type": "ping", "padding": "x" * (FRAME_LIMIT + 10)})
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:  # noqa: PT012
            while True:  # (read until the close)
                await p.recv()
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1009

    sup.run(go())


# --------------------------------------------------------- text and names
def test_text_that_cannot_be_encoded_is_refused_and_never_echoed(server: Any) -> None:
    made = new_table(server)

    async def go() -> None:
        p = await sup.Player(server.ws, made["code"], made["token"], play=False,
                             lang="nb").connect()
        await p.quiet(0.3)
        n = p.n
        assert p.view is not None
        card = json.dumps("\ud800H")  # JSON may carry a lone surrogate as an escape
        for text in (
                f'{{"type": "action", "version": {n}, "action": {{"type": "discard", '
                f'"card": {card}}}}}',
                f'{{"type": "check", "melds": [[{card}, "7H", "7D"]]}}',
                f'{{"type": "lang", "lang": {card}}}',
                f'{{"type": "sync", "events_since": 0, {card}: 1}}',
                f'{{"type": {card}}}'):
            reply = await refused(p, text, "server_bad_text", n)
            assert "\\ud800" not in json.dumps(reply)
        # the writer lives: a whole snapshot still comes
        await p.send({"type": "sync", "events_since": 0})
        assert (await p.recv_type("snapshot"))["n"] == n
        await p.close()

    sup.run(go())
    base = server.base
    for path, body in (("/api/tables", {"name": "\ud800Kari"}),
                       ("/api/tables", {"options": {"\udfffdeal": [7]}}),
                       (f"/api/tables/{made['code']}/join", {"name": "Ola\udc00"}),
                       ("/api/pads", {"names": ["A\ud800", "B"]})):
        raw = json.dumps(body).encode()  # (an ASCII escape on the wire)
        r = httpx.post(f"{base}{path}?lang=nb", content=raw,
                       headers={"Content-Type": "application/json"})
        coded(r, 422, "server_bad_text", "nb")
    assert not server.errors_logged()  # no traceback: nothing reached storage


def test_names_are_cleaned_and_a_name_of_nothing_visible_is_refused(server: Any) -> None:
    base = server.base
    made = new_table(server, name="\u202eKari\x00 \x1b[31mNordmann\x1b[0m\u200b\n")
    info = httpx.get(f"{base}/api/tables/{made['code']}").json()
    assert info["seats"][0]["name"] == "Kari Nordmann"
    joined = httpx.post(f"{base}/api/tables/{made['code']}/join",
                        json={"name": "O" * 150}).json()
    info = httpx.get(f"{base}/api/tables/{made['code']}").json()
    assert joined["seat"] == 1
    assert info["seats"][1]["name"] == "O" * NAME_LENGTH
    for name in ("\u200b\u200d", "\u202e\u202d", "\x1b[31m\x1b[0m", "\x00\x07", "\u0301",
                 "\u3164", "\u115f", "\u2800 \uffa0"):  # (letters that draw nothing)
        coded(httpx.post(f"{base}/api/tables", json={"name": name, "lang": "da"}), 422,
              "server_bad_name", "da")
        other = new_table(server)
        coded(httpx.post(f"{base}/api/tables/{other['code']}/join",
                         json={"name": name, "lang": "nb"}), 422, "server_bad_name", "nb")
        coded(httpx.post(f"{base}/api/pads", json={"names": ["A", name]}), 422,
              "server_bad_name")
    coded(httpx.post(f"{base}/api/tables", json={"name": "x" * 201}), 422, "server_bad_field",
          field="name")
    # no name at all is still allowed: the player gets the default one
    blank = new_table(server, name="   ")
    assert httpx.get(f"{base}/api/tables/{blank['code']}").json()["seats"][0]["name"] is None
    pad = httpx.post(f"{base}/api/pads", json={"names": ["Å\u0301se\u202e", ""],
                                              "lang": "nb"}).json()
    assert pad["names"] == [unicodedata.normalize("NFC", "Å\u0301se"),
                            i18n.default_name(1, "nb")]
    assert clean_name("A\u0301") == "\u00c1"  # NFC
    # accents do not stack into a smear: at most three on a letter
    assert clean_name("Ada" + "\u0301" * 33) == "Ad\u00e1" + "\u0301" * 3
    assert clean_chat("e" + "\u0300\u0301\u0302\u0303\u0304") == "\u00e8\u0301\u0302\u0303"


# ------------------------------------------------------------------ hosts
def test_a_foreign_host_is_refused_on_http_and_websocket(server: Any) -> None:
    made = new_table(server)
    for host in (f"localhost:{server.port}", f"127.0.0.1:{server.port}", "[::1]"):
        assert httpx.get(f"{server.base}/healthz", headers={"Host": host}).status_code == 200
    for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example"):
        coded(httpx.get(f"{server.base}/api/presets?lang=nb", headers={"Host": host}), 400,
              "server_bad_host", "nb")
        coded(httpx.post(f"{server.base}/api/tables", json={}, headers={"Host": host}), 400,
              "server_bad_host")

    async def go() -> None:
        # (the URL gives the Host header; the connection goes to the server's address)
        to_server = {"host": "127.0.0.1", "port": server.port}
        with pytest.raises(websockets.exceptions.InvalidStatus) as no:
            await websockets.connect(f"ws://evil.example:{server.port}/ws/{made['code']}",
                                     origin=f"http://evil.example:{server.port}",
                                     subprotocols=sup.subprotocols(made["token"]), **to_server)
        assert no.value.response.status_code == 403
        ok = await websockets.connect(f"ws://localhost:{server.port}/ws/{made['code']}",
                                      origin=f"http://localhost:{server.port}", **to_server)
        assert json.loads(await ok.recv())["type"] == "snapshot"
        await ok.close()

    sup.run(go())


def test_allowed_hosts_are_the_option_given(tmp_path: Path) -> None:
    proc = sup.ServerProcess(tmp_path, args=("--allowed-hosts", "game.example:8000,127.0.0.1",
                                             "--allowed-hosts", "*.lan"))
    with sup.running(proc):
        for host, status in (("game.example", 200), ("table.lan", 200), ("127.0.0.1", 200),
                             ("localhost", 400), ("lan", 400), ("game.example.evil", 400)):
            assert httpx.get(f"{proc.base}/healthz", headers={"Host": host}
                             ).status_code == status, host
    assert parse_hosts(["A.example:1, [::1]:80", "::1"]) == ["a.example", "[::1]"]
    assert {"localhost", "127.0.0.1", "[::1]"} <= set(default_hosts("0.0.0.0"))  # noqa: S104
    assert "0.0.0.0" not in default_hosts("0.0.0.0")  # noqa: S104
    assert default_hosts("192.168.1.5")[0] == "192.168.1.5"


# ---------------------------------------------------------------- headers
def test_every_page_carries_the_security_headers(server: Any) -> None:
    made = new_table(server)
    for path in ("/", f"/t/{made['code']}", "/pad", "/games", "/static/js/table.js",
                 "/static/style.css", "/api/presets", "/api/tables/ZZZZZZ", "/healthz"):
        r = httpx.get(f"{server.base}{path}")
        policy = r.headers["content-security-policy"]
        assert "default-src 'self'" in policy, path
        assert "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy
        assert "unsafe-eval" not in policy
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"
    refused_host = httpx.get(f"{server.base}/", headers={"Host": "evil.example"})
    assert refused_host.headers["x-content-type-options"] == "nosniff"


def test_the_pages_hold_nothing_inline() -> None:
    """What the policy would block: inline scripts, styles and handlers."""
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert "<style" not in html
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)
    assert not re.search(r"javascript:", html)
    for js in STATIC.glob("js/**/*.js"):
        text = js.read_text()
        assert "innerHTML" not in text.replace('k === "html") el.innerHTML', ""), js.name
        assert not re.search(r"""setAttribute\(\s*["'](style|on\w+)["']""", text), js.name
        assert not re.search(r"""\beval\(|new Function\(""", text), js.name


# ------------------------------------------------------------------ tokens
def test_the_seat_token_comes_only_as_a_subprotocol(server: Any) -> None:
    made = new_table(server)
    code, token = made["code"], made["token"]
    elsewhere = new_table(server)
    third = new_table(server)  # (its token goes in a URL below, and so into the log)

    async def seat_of(url: str, **kwargs: Any) -> Any:
        ws = await websockets.connect(url, **kwargs)
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if frame["type"] == "snapshot":
                    return frame["seat"], ws.response.headers.get("sec-websocket-protocol")
        finally:
            await ws.close()

    async def go() -> None:
        url = f"{server.ws}/ws/{code}"
        assert await seat_of(url, subprotocols=sup.subprotocols(token)) == (0, "liverpool")
        # the token in the URL is not read: a spectator
        assert (await seat_of(f"{url}?token={third['token']}"))[0] is None
        third_url = f"{server.ws}/ws/{third['code']}"
        assert (await seat_of(f"{third_url}?token={third['token']}"))[0] is None
        # an unknown token, another table's token: a spectator
        assert (await seat_of(url, subprotocols=sup.subprotocols("x" * 32)))[0] is None
        assert (await seat_of(url, subprotocols=sup.subprotocols(elsewhere["token"])))[0] \
            is None
        watcher = await sup.Player(server.ws, code, "nope", play=False, lang="nb").connect()
        await watcher.quiet(0.2)
        assert watcher.seat is None
        await refused(watcher, {"type": "action", "version": watcher.n,
                                "action": {"type": "draw", "source": "stock"}},
                      "server_spectator", watcher.n)
        await watcher.close()

    sup.run(go())
    log = server.log.read_text()
    assert f"/ws/{code}" in log  # (every request is logged)
    assert token not in log
    page_js = "".join(js.read_text() for js in [
        STATIC / "js" / "table.js", STATIC / "js" / "conn.js", *STATIC.glob("js/table/*.js")])
    assert "s.token" not in page_js
    assert "token=" not in page_js.replace("#seat=", "")


# ------------------------------------------------------------------- deals
def test_online_tables_are_dealt_from_a_secret_key(server: Any) -> None:
    """Every table's shuffles come from a 256-bit key of the OS's CSPRNG, kept
    in storage and never sent: no answer about the table holds it."""
    made = [new_table(server) for _ in range(4)]
    codes = [m["code"] for m in made]
    db = sqlite3.connect(server.data / "liverpool.sqlite3")
    try:
        rows = {code: (seed, key) for code, seed, key in db.execute(
            "SELECT code, seed, deal_key FROM tables", ()).fetchall() if code in codes}
    finally:
        db.close()
    keys = [rows[c][1] for c in codes]
    assert all(re.fullmatch(r"[0-9a-f]{64}", k) for k in keys), keys
    assert len(set(keys)) == len(keys)
    seeds = [rows[c][0] for c in codes]
    assert len(set(seeds)) == len(seeds)
    assert all(0 <= s < 2 ** 63 for s in seeds)
    code, token, key = codes[0], made[0]["token"], keys[0]
    answers = [httpx.get(f"{server.base}/api/tables/{code}",
                         headers={"X-Seat-Token": token}).text,
               httpx.get(f"{server.base}/api/tables/{code}/replay").text,
               httpx.get(f"{server.base}/api/tables/{code}/rules").text]

    async def go() -> None:
        p = await sup.Player(server.ws, code, token, play=False).connect()
        await p.quiet(0.3)
        await p.send({"type": "sync", "events_since": 0})
        await p.recv_type("snapshot")
        answers.extend(json.dumps(f) for f in p.frames)
        await p.close()

    sup.run(go())
    for text in answers:
        assert key not in text
        assert str(rows[code][0]) not in text


def test_no_such_path_and_a_wrong_method_are_coded_errors(server: Any) -> None:
    coded(httpx.get(f"{server.base}/api/nothing-here?lang=da"), 404, "server_no_such_path", "da")
    coded(httpx.get(f"{server.base}/api/nothing-here"), 404, "server_no_such_path")
    refused = httpx.delete(f"{server.base}/api/presets?lang=nb")
    coded(refused, 405, "server_bad_method", "nb", method="DELETE")
    assert "DELETE" in refused.json()["detail"]["message"]
    assert refused.headers.get("allow")  # (the methods the path takes, as before)
    # the routes' own errors keep their codes
    assert httpx.get(f"{server.base}/api/tables/ZZZZZZ").json()["detail"]["code"] == "server_no_table"


def test_headers_sent_a_byte_at_a_time_do_not_hold_a_connection(tmp_path: Path) -> None:
    """A connection whose request's headers are not in within --header-seconds
    is closed; one that sends a whole request in time is answered, and its
    WebSocket, once upgraded, outlives the deadline."""
    import socket

    proc = sup.ServerProcess(tmp_path / "slow", args=("--header-seconds", "1"))
    with sup.running(proc):
        slow = socket.create_connection(("127.0.0.1", proc.port))
        slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        slow.settimeout(0.3)
        closed = False
        for _ in range(40):  # (a header line now and then, never the end of them)
            try:
                slow.sendall(b"X-a: b\r\n")
                closed = slow.recv(100) == b""
            except TimeoutError:
                continue
            except OSError:
                closed = True
            if closed:
                break
        assert closed
        slow.close()
        assert httpx.get(f"{proc.base}/healthz").status_code == 200
        made = new_table(proc)

        async def go() -> None:
            async with websockets.connect(f"{proc.ws}/ws/{made['code']}",
                                          origin=f"http://127.0.0.1:{proc.port}",
                                          subprotocols=sup.subprotocols(made["token"])) as ws:
                assert json.loads(await ws.recv())["type"] == "snapshot"
                await asyncio.sleep(1.5)  # (past the headers' deadline)
                await ws.send(json.dumps({"type": "sync"}))
                assert json.loads(await ws.recv())["type"] == "snapshot"

        asyncio.run(go())
