"""Play again, and what a stranger sees of it: the player of a finished table plays again and finds the next table
from the finished one; a spectator of the finished table (its code is on
the public list of finished games) is never shown the next table's code,
and the replay page's Review button tells them, in words, that only the
table's players start a review."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import pytest
from browser_support import Pages

from liverpool.server.probes import error_detail

pytestmark = pytest.mark.slow


def http(server: str, method: str, path: str, body: Any = None,
         token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    request = urllib.request.Request(f"{server}{path}", data=data, method=method,  # noqa: S310 - http
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=30) as r:  # noqa: S310 - the test's own server
        return json.load(r)


def test_play_again_for_the_player_and_nothing_of_it_for_a_stranger(server: str,
                                                                    pages: Pages) -> None:
    made = http(server, "POST", "/api/tables", {
        "preset": "liverpool", "away_seconds": 5, "name": "Kari",
        "options": {"contracts": ["SS"], "deal": [10], "final_round": "normal"},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                  {"kind": "bot", "level": "easy"}]})
    code, token = str(made["code"]), str(made["token"])
    player = pages.new(still=True)
    player.goto("/")
    player.evaluate(f"localStorage.setItem('lv.seat.{code}', '{token}')")
    player.goto(f"/t/{code}")
    player.wait_for_selector("#hand")
    player.goto("/")  # (Kari goes away: a bot plays for her after 5 s)
    deadline = time.monotonic() + 240
    while not http(server, "GET", f"/api/tables/{code}/replay")["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    # the player plays again: on to the next table
    player.goto(f"/t/{code}")
    player.click("#play-again")
    player.wait_for_url(re.compile(rf"/t/(?!{code}$)[A-Z0-9]{{6}}$"))
    fresh = player.url.rsplit("/", 1)[1]
    assert fresh != code
    assert http(server, "GET", f"/api/tables/{code}", token=token)["next_code"] == fresh
    # back at the finished table, the player is shown the way to the next one
    player.goto(f"/t/{code}")
    player.click("#go-next")
    player.wait_for_url(re.compile(rf"/t/{fresh}$"))
    # a stranger at the finished table: neither the next table nor "play again"
    stranger = pages.new()
    stranger.goto(f"/t/{code}")
    stranger.wait_for_selector("#seats .seat-chip")
    stranger.wait_for_function("() => window.__lv && window.__lv.table && window.__lv.view")
    assert stranger.evaluate("() => window.__lv.table.next_code") is None
    assert stranger.locator("#go-next, #play-again").count() == 0
    assert fresh not in stranger.content()
    # the stranger's Review: refused, in words. The page's first look at the review is
    # held back until after the refusal: its late answer ("none") must not wipe the words.
    held: list[Any] = []
    stranger.route(re.compile(r"/review\?seat="), lambda route: held.append(route))
    stranger.goto(f"/replay/{code}")
    stranger.wait_for_selector("#review-start")
    assert held, "the page did not look for a review"
    stranger.click("#review-start")
    refused = stranger.locator("#review .review-refused")
    refused.wait_for()
    with stranger.expect_response(re.compile(r"/review\?seat=")):
        for route in held:
            route.continue_()
    stranger.wait_for_timeout(300)  # (the answer's handler runs after the response)
    assert refused.is_visible()
    assert refused.inner_text() == error_detail("server_review_players", "en")["message"]
    assert http(server, "GET", f"/api/tables/{code}/review?seat=0")["status"] == "none"
