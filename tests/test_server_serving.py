"""How the server sends its files and answers: compressed, with cache headers."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import test_server_support as sup
from fastapi.testclient import TestClient

from liverpool.server import Hub, Store, create_app

#: the most a finished game's replay may cost over the wire
REPLAY_BYTES = 80_000


def test_static_files_are_compressed_and_revalidated() -> None:
    app = create_app(Hub(Store("sqlite://"), bot_delay=0))
    with TestClient(app) as client:
        first = client.get("/static/js/lobby.js", headers={"Accept-Encoding": "gzip"})
        assert first.status_code == 200
        assert first.headers["content-encoding"] == "gzip"
        assert first.num_bytes_downloaded < len(first.content)
        assert first.headers["cache-control"] == "no-cache"
        etag = first.headers["etag"]
        again = client.get("/static/js/lobby.js", headers={"If-None-Match": etag})
        assert again.status_code == 304
        assert not again.content
        page = client.get("/t/ABCDEF", headers={"Accept-Encoding": "gzip"})
        assert page.headers["cache-control"] == "no-cache"
        assert page.headers["etag"]
        plain = client.get("/api/rules/liverpool", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        packed = client.get("/api/rules/liverpool", headers={"Accept-Encoding": "gzip"})
        assert packed.headers["content-encoding"] == "gzip"
        assert packed.json() == plain.json()


@pytest.mark.slow
def test_a_seven_round_replay_is_sent_in_under_80_kb() -> None:
    app = create_app(Hub(Store("sqlite://"), bot_delay=0))
    with TestClient(app) as client:  # seat 0 comes and goes: a bot plays for it after 5 s
        made = client.post("/api/tables", json={
            "preset": "liverpool", "away_seconds": 5,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "medium"}] * 3}).json()
        with client.websocket_connect(f"/ws/{made['code']}", subprotocols=[
                "liverpool", f"token.{made['token']}"]) as ws:
            assert ws.receive_json()["type"] == "snapshot"
        deadline = time.monotonic() + 300
        while True:
            answer = client.get(f"/api/tables/{made['code']}/replay",
                                params={"lang": "nb"}, headers={"Accept-Encoding": "gzip"})
            if answer.json()["over"]:
                break
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.5)
    replay = answer.json()
    assert sum(e["event"]["type"] == "round_over" for e in replay["events"]) == 7
    assert all("hands" in e for e in replay["events"])
    assert answer.headers["content-encoding"] == "gzip"
    assert len(json.dumps(replay)) > REPLAY_BYTES  # (so the compression is what keeps it small)
    assert answer.num_bytes_downloaded <= REPLAY_BYTES, answer.num_bytes_downloaded


def test_bots_have_names_in_the_players_language() -> None:
    """A bot seat is named in the page's words and in the log's texts alike:
    "Ola (robot, middels)", never "Seat 2"; and never a person's name at the
    table (Kari is seat 2's bot name in Norwegian: that bot is Per here)."""
    from liverpool import i18n
    from liverpool.ruleset_io import load_rules
    from liverpool.server.seats import TableSettings

    hub = Hub(Store("sqlite://"), bot_delay=0)
    table, _token = hub.create(load_rules("liverpool"), "liverpool", [
        {"kind": "human"}, {"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "hard"}],
        TableSettings(), "Kari")
    names = table.names("nb")
    assert i18n.bot_first_names("nb")[1] == "Kari"
    assert names == ["Kari", i18n.bot_name(1, "medium", "nb"),
                     i18n.bot_name(2, "hard", "nb", first="Per")]
    assert names[1] != names[2]
    assert "robot" in names[1]
    assert table.names("en") == ["Kari", i18n.bot_name(1, "medium", "en"),
                                 i18n.bot_name(2, "hard", "en")]
    with TestClient(create_app(hub)) as client:
        words = client.get("/api/i18n/nb").json()["words"]
        info = client.get(f"/api/tables/{table.code}").json()
    assert words["bot_medium_1"] == names[1]  # (the page's own words for a bot with its own name)
    assert words["bot_hard_2"] != names[2]
    assert info["names"]["nb"] == names  # (what the page shows)
    hub.close()


@pytest.mark.slow
def test_serve_says_where_it_serves_in_the_systems_language(tmp_path: Path) -> None:
    """``liverpool serve`` in a Danish terminal (``LANG=da_DK.UTF-8``, no
    ``--lang``) says where to open the game in Danish."""
    proc = sup.ServerProcess(tmp_path, env={"LANG": "da_DK.UTF-8"}).start()
    try:
        first = proc.log.read_text(encoding="utf-8").splitlines()[0]
    finally:
        proc.stop()
    assert first == (f"Liverpool kører på http://localhost:{proc.port}/ — åbn adressen i en "
                     "browser (Ctrl-C stopper serveren).")
