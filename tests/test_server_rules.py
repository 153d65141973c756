"""The rules of a table as the page shows them: its preset with its house rules."""

from __future__ import annotations

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
