"""The caps per address and per table of a real ``liverpool serve`` process
(docs/server.md, "Limits"; each set small here through its environment
variable): tables made per minute, WebSocket connections, invite-code probes
over HTTP and WebSocket, spectators per table; each refusal its documented
code in the player's language, and another address unaffected. Then
``GET /metrics`` and the JSON log lines, which never hold a seat token."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_server_support as sup
import websockets

from liverpool.server import Hub, Store, create_app
from liverpool.server.limits import Limits

pytestmark = pytest.mark.slow

SEATS = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3
CAPS = {"LIVERPOOL_TABLES_PER_MINUTE": "3", "LIVERPOOL_TABLES_PER_HOUR": "50",
        "LIVERPOOL_CONNECTIONS_PER_ADDRESS": "4", "LIVERPOOL_PROBES_PER_MINUTE": "5",
        "LIVERPOOL_SPECTATORS_PER_TABLE": "2", "LIVERPOOL_PAD_WRITES_PER_MINUTE": "4"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder: Path = tmp_path_factory.mktemp("limits")
    proc = sup.ServerProcess(folder, env=CAPS,
                             args=("--log-format", "json", "--log-level", "info"))
    with sup.running(proc) as s:
        yield s


def client(address: str) -> httpx.Client:
    """HTTP from ``address`` (any of 127.0.0.0/8 is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def make(http: httpx.Client, base: str, lang: str = "en") -> httpx.Response:
    return http.post(f"{base}/api/tables", json={
        "preset": "liverpool", "options": sup.SHORT, "seats": SEATS, "lang": lang})


async def first_frame(url: str, address: str, token: str | None = None
                      ) -> tuple[dict[str, Any], Any]:
    ws = await websockets.connect(url, ping_interval=None, max_size=2 ** 24,
                                  local_addr=(address, 0),
                                  subprotocols=sup.subprotocols(token))
    return json.loads(await asyncio.wait_for(ws.recv(), 10)), ws


def test_tables_per_address_per_minute(server: Any) -> None:
    with client("127.0.0.10") as http:
        made = [make(http, server.base) for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = make(http, server.base, lang="da")
        assert refused.status_code == 429
        detail = refused.json()["detail"]
        assert detail["code"] == "server_too_many_tables"
        assert "3" in detail["message"]
        assert "borde" in detail["message"]
    with client("127.0.0.11") as other:  # another address: its own count
        assert make(other, server.base).status_code == 201


def test_score_pads_per_address_per_minute(server: Any) -> None:
    with client("127.0.0.12") as http:
        made = [http.post(f"{server.base}/api/pads", json={"names": ["A", "B"]})
                for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = http.post(f"{server.base}/api/pads", json={"names": ["A", "B"], "lang": "da"})
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "server_too_many_pads"
        assert "pointblokke" in refused.json()["detail"]["message"]
        assert make(http, server.base).status_code == 201  # (tables count apart)


def test_score_pad_rounds_per_address_per_minute(server: Any) -> None:
    with client("127.0.0.14") as http:
        pad = http.post(f"{server.base}/api/pads", json={"names": ["A", "B"]}).json()
        url = f"{server.base}/api/pads/{pad['id']}/rounds"
        written = [http.put(url, json={"round": 1, "points": [n, 0]}) for n in range(4)]
        assert [r.status_code for r in written] == [200] * 4
        refused = http.put(url + "?lang=nb", json={"round": 1, "points": [9, 9]})
        assert refused.status_code == 429
        assert refused.json()["detail"]["code"] == "server_too_many_pad_writes"
        assert http.get(f"{server.base}/api/pads/{pad['id']}").json()["rounds"] == [[3, 0]]
    with client("127.0.0.15") as other:  # (another address: its own count)
        assert other.put(url, json={"round": 1, "points": [5, 0]}).status_code == 200


def test_connections_per_address(server: Any) -> None:
    with client("127.0.0.20") as http:
        made = make(http, server.base).json()
    url = f"{server.ws}/ws/{made['code']}?lang=nb"
    token = made["token"]  # (seated)

    async def go() -> None:
        held = [(await first_frame(url, "127.0.0.20", token))[1] for _ in range(4)]
        frame, fifth = await first_frame(url, "127.0.0.20", token)
        assert frame["type"] == "error"
        assert frame["code"] == "server_too_many_connections"
        assert "4" in frame["message"]
        assert "tilkoblinger" in frame["message"]
        with pytest.raises(websockets.exceptions.ConnectionClosed):
            await asyncio.wait_for(fifth.recv(), 5)
        assert fifth.close_code == 1008
        frame, other = await first_frame(url, "127.0.0.21", token)  # another address
        assert frame["type"] == "snapshot"
        await held.pop().close()
        await asyncio.sleep(0.3)
        frame, again = await first_frame(url, "127.0.0.20", token)  # room again
        assert frame["type"] == "snapshot"
        for ws in [*held, other, again]:
            await ws.close()

    sup.run(go())


def test_invite_code_probes_per_address(server: Any) -> None:
    with client("127.0.0.30") as http:
        real = make(http, server.base).json()["code"]
        for i in range(5):  # five unknown codes a minute are allowed
            r = http.get(f"{server.base}/api/tables/ZZZZZ{i}")
            assert r.status_code == 404
            assert r.json()["detail"]["code"] == "server_no_table"
        r = http.get(f"{server.base}/api/tables/ZZZZZ9", params={"lang": "nb"})
        assert r.status_code == 429
        assert r.json()["detail"]["code"] == "server_too_many_probes"
        assert "minutt" in r.json()["detail"]["message"]
        # even a real code waits now (a prober cannot tell one from the other)
        assert http.get(f"{server.base}/api/tables/{real}").status_code == 429

    async def over_ws() -> None:
        frame, ws = await first_frame(f"{server.ws}/ws/{real}", "127.0.0.30")
        assert frame["type"] == "error"
        assert frame["code"] == "server_too_many_probes"
        await ws.close()
        # over WebSocket too, from an address of its own
        for i in range(5):
            frame, ws = await first_frame(f"{server.ws}/ws/YYYYY{i}", "127.0.0.31")
            assert frame["code"] == "server_no_table"
            await ws.close()
        frame, ws = await first_frame(f"{server.ws}/ws/YYYYY9", "127.0.0.31")
        assert frame["code"] == "server_too_many_probes"
        await ws.close()

    sup.run(over_ws())
    with client("127.0.0.32") as other:  # another address is not held up
        assert other.get(f"{server.base}/api/tables/{real}").status_code == 200


def test_spectators_per_table(server: Any) -> None:
    with client("127.0.0.40") as http:
        made = make(http, server.base).json()
    url = f"{server.ws}/ws/{made['code']}"

    async def go() -> None:
        watching = [(await first_frame(url, f"127.0.0.{41 + i}"))[1] for i in range(2)]
        frame, third = await first_frame(url, "127.0.0.43")
        assert frame["code"] == "server_too_many_spectators"
        await third.close()
        # a player of the table always gets in
        frame, player = await first_frame(url, "127.0.0.44", made["token"])
        assert frame["type"] == "snapshot"
        assert frame["seat"] == 0
        for ws in [*watching, player]:
            await ws.close()

    sup.run(go())


def test_metrics_for_this_machine(server: Any) -> None:
    # a refusal of each kind counted, from addresses no other test uses, so
    # that the figures do not hang on which tests ran before
    with client("127.0.0.60") as http:
        made = [make(http, server.base).status_code for _ in range(4)]
        probes = [http.get(f"{server.base}/api/tables/QQQQQ{i}").status_code
                  for i in range(6)]
    assert made[-1] == 429
    assert probes[-1] == 429
    r = httpx.get(f"{server.base}/metrics", timeout=10)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    text = r.text
    for name in ("liverpool_tables_live", "liverpool_connections",
                 "liverpool_actions_total", "liverpool_action_update_seconds_bucket",
                 "liverpool_storage_errors_total", "liverpool_evictions_total",
                 "liverpool_limit_refusals_total"):
        assert name in text
    refusals = {line.split()[0]: float(line.split()[1]) for line in text.splitlines()
                if line.startswith("liverpool_limit_refusals_total{")}
    assert refusals.get('liverpool_limit_refusals_total{kind="tables"}', 0) >= 1
    assert refusals.get('liverpool_limit_refusals_total{kind="probes"}', 0) >= 1


def test_metrics_are_closed_to_other_machines(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient  # (its requests come from "testclient")

    hub = Hub(Store(f"sqlite:///{tmp_path / 'db.sqlite3'}"), limits=Limits())
    app = create_app(hub, metrics_token="s3cret")  # noqa: S106 - a test's token
    with TestClient(app) as c:
        refused = c.get("/metrics?lang=nb")
        assert refused.status_code == 403
        assert refused.json()["detail"] == {
            "code": "server_forbidden",
            "message": "Bare serverens egen maskin, eller en forespørsel med dens metrikk-nøkkel, "
                       "kan lese dette"}
        assert c.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 403
        ok = c.get("/metrics", headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 200
        assert "liverpool_tables_live" in ok.text
    hub = Hub(Store(f"sqlite:///{tmp_path / 'db2.sqlite3'}"), limits=Limits())
    with TestClient(create_app(hub)) as c:  # no token: this machine only
        assert c.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 403


def test_json_logs_hold_no_seat_token(server: Any) -> None:
    with client("127.0.0.50") as http:
        made = make(http, server.base).json()

    async def go() -> None:
        p = await sup.Player(server.ws, made["code"], made["token"]).connect()
        await p.play_until(lambda: p.n >= 3, timeout=30)
        await p.close()

    sup.run(go())
    with client("127.0.0.50") as http:
        http.get(f"{server.base}/api/tables/{made['code']}",
                 headers={"X-Seat-Token": made["token"]}, params={"token": made["token"]})
    text = server.log.read_text()
    # (the lines `liverpool serve` prints at start are for people; the log is JSON)
    lines = [line for line in text.splitlines() if line.startswith("{")]
    assert len(lines) >= 5
    records = [json.loads(line) for line in lines]  # every log line one JSON object
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    assert any(made["code"] in r["message"] for r in records)  # (the URLs were logged)
    assert made["token"] not in text


def test_limits_from_the_environment_and_back() -> None:
    env = {"LIVERPOOL_LIVE_TABLES": "12", "LIVERPOOL_STORAGE_SECONDS": "0.5",
           "LIVERPOOL_SPECTATORS_PER_TABLE": "zero", "LIVERPOOL_SEND_QUEUE": "-3"}
    limits = Limits.from_environment(env)
    assert limits.live_tables == 12
    assert limits.storage_seconds == 0.5
    assert limits.spectators_per_table == Limits().spectators_per_table  # (bad: the default)
    assert limits.send_queue == Limits().send_queue
    assert Limits.from_environment(limits.to_environment()) == limits


def test_serve_takes_every_limit_as_an_option() -> None:
    from click.testing import CliRunner

    from liverpool.server.cli import serve_command

    text = CliRunner().invoke(serve_command, ["--help"], terminal_width=200).output
    for name in Limits.__dataclass_fields__:
        assert "--" + name.replace("_", "-") in text
    assert "--log-format" in text
    assert "--metrics-token" in text


def test_the_redis_outbox_is_bounded() -> None:
    from liverpool.server import fanout

    async def go() -> None:
        out = fanout.RedisFanout("redis://127.0.0.1:1/0")  # (never reached: not started)
        for i in range(fanout.OUTBOX + 50):
            out.action("ABCDEF", i + 1, 0, {"type": "pass"})
        assert out.waiting() == fanout.OUTBOX
        assert out.dropped == 50
        await out.redis.aclose()

    asyncio.run(go())


def test_tokens_are_hidden_in_log_records() -> None:
    import logging

    from liverpool.server.logs import JsonFormatter, RedactTokens

    token = "Qm9vbGVhbiBzZWF0IHRva2VuIGhlcmU"  # noqa: S105 - a test's made-up token
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0,
                               '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", f"/ws/ABCDEF?token={token}&lang=nb",
                                "1.1", 101), None)
    assert RedactTokens().filter(record)
    line = JsonFormatter().format(record)
    assert token not in line
    assert "token=[hidden]" in json.loads(line)["message"]


def test_the_rates_per_address_are_shared_through_redis(redis: Any) -> None:
    """Two processes' limiters on one Redis count one address's tables, probes
    and chat lines together; a limiter whose Redis does not answer is held by
    its own counters (and says so)."""
    from liverpool.server.limits import Limiter

    caps = Limits(tables_per_minute=3, probes_per_minute=2, chat_per_address=2)

    async def go() -> None:
        a, b = Limiter(caps, shared=redis.url), Limiter(caps, shared=redis.url)
        assert [await a.may_create("10.0.0.1"), await b.may_create("10.0.0.1"),
                await a.may_create("10.0.0.1")] == [True, True, True]
        assert not await b.may_create("10.0.0.1")  # the fourth, wherever it is asked
        assert not await a.may_create("10.0.0.1")
        assert await b.may_create("10.0.0.2")  # another address: its own count
        await a.missed("10.0.0.1")
        assert await b.may_probe("10.0.0.1")
        await b.missed("10.0.0.1")
        assert not await a.may_probe("10.0.0.1")
        assert await a.may_chat("10.0.0.1", "c1") == 0
        assert await b.may_chat("10.0.0.1", "c2") == 0
        assert await a.may_chat("10.0.0.1", "c3") >= 1
        assert a.shared_failures == b.shared_failures == 0

        told: list[int] = []
        away = Limiter(caps, shared="redis://127.0.0.1:9/0",  # (nothing listens there)
                       failed=lambda: told.append(1))
        made = [await away.may_create("10.0.0.1") for _ in range(4)]
        assert made == [True, True, True, False]
        assert away.shared_failures == len(told) > 0

    sup.run(go())


def test_an_ipv6_client_counts_by_its_network() -> None:
    """The addresses of one /64 share their counters: a client cannot take a new
    address for every connection or table."""
    from liverpool.server.limits import Limiter

    caps = Limits(connections_per_address=2, tables_per_minute=1)
    limiter = Limiter(caps)
    assert limiter.connect("2001:db8:0:7::1")
    assert limiter.connect("2001:db8:0:7:ffff::2")
    assert not limiter.connect("2001:db8:0:7:1234:5678:9abc:def0")  # the same /64
    assert limiter.connect("2001:db8:0:8::1")  # another network
    limiter.disconnect("2001:db8:0:7::1")
    assert limiter.connect("2001:db8:0:7::3")

    async def go() -> None:
        assert await limiter.may_create("2001:db8:0:9::1")
        assert not await limiter.may_create("2001:db8:0:9::2")
        assert await limiter.may_create("198.51.100.7")

    asyncio.run(go())
