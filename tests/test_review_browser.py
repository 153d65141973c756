"""The replay page's Review: the button starts the server's review, a
progress bar runs, then the graph (its dots' colours in a legend, each dot a
finger's target), the accuracy per round and the costliest decisions show —
the same verdicts as ``liverpool review`` gives for the same record, each
with its cautious loss in words — and each costly decision leads to its step
of the replay. Before that, the finished table shows nobody's turn and
nobody away, and the finished games name the ruleset in words."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest
from browser_support import words

from liverpool import i18n
from liverpool.review import percent, review_game

pytestmark = pytest.mark.slow


def _http(server: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server}{path}", data=data, method=method,  # noqa: S310 - http
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:  # noqa: S310 - the test's own server
        return json.load(r)


def test_the_replay_page_reviews_a_finished_game(server: str, pages: Any) -> None:
    made = _http(server, "POST", "/api/tables", {
        "preset": "liverpool", "away_seconds": 5, "name": "Kari", "hints": True,
        "options": {"contracts": ["SS"], "deal": [10], "final_round": "normal"},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "medium"},
                  {"kind": "bot", "level": "medium"}]})
    code = made["code"]
    page = pages.new(width=390, height=844, locale="nb-NO")  # (a phone: its targets are measured)
    page.goto("/")
    page.evaluate(f"localStorage.setItem('lv.seat.{code}', '{made['token']}')")
    page.goto(f"/t/{code}")  # Kari comes and goes: a bot plays for her after 5 s
    page.wait_for_selector("#hand")
    page.goto("/")
    deadline = time.monotonic() + 240
    while not _http(server, "GET", f"/api/tables/{code}/replay")["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    nb = words(server, "nb")
    # the finished table (Kari went away, a bot played for her): nobody's turn,
    # nobody away, no "hints on" (there is nothing to hint at any more)
    page.goto(f"/t/{code}")
    page.wait_for_selector("#seats .seat-chip")
    assert page.locator("#seats .badge.away, #seats .seat-chip.turn, #seats .seat-chip.deciding, "
                        "#hints-badge").count() == 0
    assert "▶" not in page.locator("#seats").inner_text()
    # the finished games name every seat as the table and the replay do
    shown = _http(server, "GET", f"/api/tables/{code}")["names"]["nb"]
    assert shown[1].endswith("(robot, middels)")
    page.goto("/games")
    page.wait_for_selector(".game-item .game-players li")
    game = page.locator(".game-item", has=page.locator("b", has_text=code))
    assert nb["preset_liverpool"] in game.locator(".game-head").inner_text()  # not "liverpool"
    players = game.locator(".game-players li").all_inner_texts()
    assert [p.lstrip("★ ").rsplit(":", 1)[0] for p in players] == shown
    page.goto(f"/replay/{code}")
    page.wait_for_selector("#review-start")
    assert page.locator("#review-seat").input_value() == "0"  # Kari's game first
    page.click("#review-start")
    page.wait_for_selector("#review-result", timeout=180_000)
    record = _http(server, "GET", f"/api/tables/{code}/record")["record"]
    review = review_game(record, 0)
    made = _http(server, "GET", f"/api/tables/{code}/review?seat=0&lang=nb")["review"]
    # the server's review is the one made here from the record, decision by decision
    assert [(d["step"], d["verdict"]) for d in made["decisions"]] == \
        [(d.step, d.verdict) for d in review.decisions]
    assert made["accuracy"] == round(review.accuracy, 1)
    summary = page.locator("#review-accuracy").inner_text()
    assert f"{percent(review.accuracy)} %" in summary
    costly = review.costliest
    # only what cost something worth naming (an inaccuracy or worse), as
    # liverpool review lists them; else the page says there is none
    assert all(d.verdict != "good" for d in costly)
    assert made["costliest"] == [d.index for d in costly]
    items = page.locator("#review-costliest li")
    assert items.count() == len(costly)
    if not costly:
        assert nb["review_none"] in page.locator("#review-result").inner_text()
    for i, d in enumerate(costly):
        text = items.nth(i).inner_text()
        assert nb["review_goto"].format(step=d.step + 1) in text
        assert i18n.review_verdict(d.verdict, "nb") in text
        # the cautious loss, in words: "minst 25 poeng tapt" (the values below differ by more)
        assert nb["review_lost"].format(points=round(d.loss)) in text
        box = items.nth(i).locator("button.review-step").bounding_box()
        assert box is not None
        assert box["height"] >= 44
        assert box["width"] >= 44
        better = i18n.review_better(d, "nb")
        if better is not None:
            assert better in text
    if costly:  # a costly decision leads to its step
        items.nth(0).locator("button.review-step").click()
        assert page.locator("#replay-step").inner_text().startswith(
            f"{nb['step']} {costly[0].step + 1} /")
    assert page.locator("svg.review-graph polyline").count() == 1
    # what the dots' colours mean, in words; each dot a finger's target
    legend = page.locator("#review-legend li")
    assert [text.strip() for text in legend.all_inner_texts()] == \
        [i18n.review_verdict(v, "nb") for v in ("inaccuracy", "mistake", "blunder")]
    dots = page.locator("svg.review-graph .review-mark")
    assert dots.count() == sum(1 for d in review.decisions if d.verdict != "good")
    for k in range(min(dots.count(), 3)):
        box = dots.nth(k).locator(".review-hit").bounding_box()
        assert box is not None
        assert min(box["width"], box["height"]) >= 44
