"""The rules of a table as the page shows them: its preset with its house rules."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from liverpool.server import Hub, Store, create_app


def test_a_tables_rules_hold_its_house_rules() -> None:
    app = create_app(Hub(Store("sqlite://"), bot_delay=0))
    with TestClient(app) as client:
        made = client.post("/api/tables", json={
            "preset": "liverpool", "options": {"buy_limit_per_round": 1, "deal": [11] * 7},
            "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}).json()
        rules = client.get(f"/api/tables/{made['code']}/rules", params={"lang": "nb"}).json()
        preset = client.get("/api/rules/liverpool", params={"lang": "nb"}).json()
    options = {o["key"]: o for o in rules["options"]}
    assert options["buy_limit_per_round"]["value"] == 1
    assert {o["key"]: o for o in preset["options"]}["buy_limit_per_round"]["value"] == 3
    assert [r["deal"] for r in rules["rounds"]] == [11] * 7
    assert rules["rounds"][0]["contract_text"] == "2 tress"
    assert options["buy_limit_per_round"]["name"] != "buy_limit_per_round"  # in words


@pytest.mark.slow
def test_a_finished_games_replay_shows_every_hand_at_every_step() -> None:
    app = create_app(Hub(Store("sqlite://"), bot_delay=0))
    with TestClient(app) as client:
        made = client.post("/api/tables", json={
            "preset": "liverpool", "options": {"contracts": ["SS"], "deal": [10]},
            "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}]}).json()
        code = made["code"]
        during = client.get(f"/api/tables/{code}/replay").json()
        assert "hands" not in during["events"][0]
        assert not during["over"]
        with client.websocket_connect(f"/ws/{code}",
                                      subprotocols=["liverpool", f"token.{made['token']}"]) as ws:
            for _ in range(5000):
                message = ws.receive_json()
                if message["type"] == "ping":
                    ws.send_json({"type": "pong"})
                    continue
                if message["type"] == "error" and message["code"] == "server_rate_limited":
                    time.sleep(0.3)  # too quick for the server: send the last move again
                    ws.send_json({"type": "sync"})
                    continue
                view = message.get("view")
                if view is None:
                    continue
                if view["phase"] == "game_over":
                    break
                legal = view["legal_actions"]
                if legal:
                    action = next((a for a in legal if a["type"] == "lay_down"), legal[-1])
                    if action["type"] == "buy":
                        action = {"type": "pass"}
                    ws.send_json({"type": "action", "version": message["n"], "action": action})
        after = client.get(f"/api/tables/{code}/replay").json()
    assert after["over"]
    events = after["events"]
    assert all(len(e["hands"]) == 3 for e in events)
    dealt = next(e for e in events if e["event"]["type"] == "upcard")
    assert [len(h) for h in dealt["hands"]] == [10, 10, 10]
    end = next(e for e in events if e["event"]["type"] == "round_over")
    assert end["hands"] == end["event"]["hands_left"]
