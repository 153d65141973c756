"""The replay page's Review: the button starts the server's review, a
progress bar runs, then the graph (its dots' colours in a legend, each dot a
finger's target), the accuracy per round and the costliest decisions show —
the same verdicts as ``liverpool review`` gives for the same record, each
with its cautious loss in words — and each costly decision leads to its step
of the replay. Before that, the finished table shows nobody's turn, nobody
away and no dealer, and the finished games name the ruleset in words. The
table's log and the replay name a joker in words, never by the notation's
``*``."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from typing import Any

import pytest
from browser_support import words

from liverpool import i18n
from liverpool.cards import Card
from liverpool.review import percent, review_game, whole_points

pytestmark = pytest.mark.slow

#: a folder to save a screenshot of the review panel in (to look at it), or ""
SHOTS = os.environ.get("LAYOUT_SHOTS", "")


def _http(server: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server}{path}", data=data, method=method,  # noqa: S310 - http
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:  # noqa: S310 - the test's own server
        return json.load(r)


def test_the_replay_page_reviews_a_finished_game(server: str, pages: Any) -> None:
    page = pages.new(width=390, height=844, locale="nb-NO")  # (a phone: its targets are measured)
    code = _finished(server, page, {"contracts": ["SS"], "deal": [10], "final_round": "normal"},
                     level="medium", hints=True)
    nb = words(server, "nb")
    # the finished table (Kari went away, a bot played for her): nobody's turn,
    # nobody away, nobody deals, no "hints on" (there is nothing to hint at any more)
    page.goto(f"/t/{code}")
    page.wait_for_selector("#seats .seat-chip")
    assert page.locator("#seats .badge.away, #seats .badge.dealer, #seats .seat-chip.turn, "
                        "#seats .seat-chip.deciding, #hints-badge").count() == 0
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
        assert nb["review_lost"].format(points=whole_points(d.loss)) in text
        box = items.nth(i).locator("button.review-step").bounding_box()
        assert box is not None
        assert box["height"] >= 44
        assert box["width"] >= 44
        better = i18n.review_better(d, "nb")
        if better is not None:
            assert better in text
    # every other flagged decision too, each with its verdict and why (as the CLI lists them)
    others = [d for d in review.decisions if d.verdict != "good" and d not in costly]
    rest = page.locator("#review-others li")
    assert rest.count() == len(others)
    for i, d in enumerate(others):
        text = rest.nth(i).inner_text()
        assert nb["review_goto"].format(step=d.step + 1) in text
        assert i18n.review_verdict(d.verdict, "nb") in text
        better = i18n.review_better(d, "nb")
        if better is not None:
            assert better in text
    # each round's accuracy, points lost and verdicts, as the CLI shows them
    flags = ("inaccuracy", "mistake", "blunder")
    head = page.locator(".review-rounds thead th").all_inner_texts()
    assert head[2].strip() == nb["review_loss"]
    assert [h.strip() for h in head[4:]] == [i18n.review_verdict(v, "nb") for v in flags]
    for k, r in enumerate(review.rounds):
        cells = page.locator(".review-rounds tbody tr").nth(k).locator("td").all_inner_texts()
        assert cells[1:3] == [f"{percent(r.accuracy)} %", str(whole_points(r.lost))]
        assert cells[4:] == [str(r.verdicts[v]) for v in flags]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # (no sideways scroll)
    if SHOTS:  # (to look at the panel, on the phone and on a laptop: the review is kept)
        page.locator("#review-result").screenshot(path=f"{SHOTS}/review-phone-nb.png")
        laptop = pages.new(width=1280, height=800, locale="en-US")
        laptop.goto(f"/replay/{code}")  # (a kept review shows to anyone, no button needed)
        laptop.wait_for_selector("#review-result")
        laptop.locator("#review-result").screenshot(path=f"{SHOTS}/review-laptop-en.png")
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


def _finished(server: str, page: Any, options: dict[str, Any], *, level: str = "easy",
              hints: bool = False) -> str:
    """A table of Kari and two bots of ``level``, finished: Kari comes and goes,
    a bot plays for her after 5 s. Its code."""
    made = _http(server, "POST", "/api/tables", {
        "preset": "liverpool", "away_seconds": 5, "name": "Kari", "hints": hints,
        "options": options,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": level},
                  {"kind": "bot", "level": level}]})
    code = str(made["code"])
    page.goto("/")
    page.evaluate(f"localStorage.setItem('lv.seat.{code}', '{made['token']}')")
    page.goto(f"/t/{code}")
    page.wait_for_selector("#hand")
    page.goto("/")
    deadline = time.monotonic() + 240
    while not _http(server, "GET", f"/api/tables/{code}/replay")["over"]:
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    return code


def _joker_texts(items: list[dict[str, Any]]) -> list[str]:
    """The texts of the events that show a joker (``"*"`` in their JSON)."""
    return [item["text"] for item in items if '"*"' in json.dumps(item["event"])]


def test_the_log_and_the_replay_name_a_joker_in_words(server: str, pages: Any) -> None:
    """A game of many jokers: the table's log (Kari's, her draws included) and
    the replay write each joker as the word, in the page's language, as the
    hints and the review do; no text has the notation's ``*``. (No dealer at
    the finished table either.)"""
    page = pages.new(width=375, height=667, locale="nb-NO")
    code = _finished(server, page, {"contracts": ["SS"], "deal": [10], "final_round": "normal",
                                    "jokers_total": 32})
    joker = i18n.card_name(Card.parse("*"), "nb")
    assert joker != "*"
    page.goto(f"/t/{code}")
    page.wait_for_selector("#seats .seat-chip")
    assert page.locator("#seats .badge.dealer").count() == 0
    for close in ("#close-summary", "#close-standings"):  # (the last round's summary, the standings)
        if page.locator(close).count():
            page.click(close)
    page.wait_for_selector("#log li")
    log = page.evaluate("() => window.__lv.log.map((item) => ({event: item.event, text: item.text}))")
    said = _joker_texts(log)
    assert [text for text in said if joker in text], "no event with a joker names it"
    assert not [text for text in said if "*" in text]
    shown = page.locator("#log li").all_inner_texts()
    assert shown
    assert not [text for text in shown if "*" in text]
    # the replay, in Norwegian and in English
    for lang in ("nb", "en"):
        replay = _http(server, "GET", f"/api/tables/{code}/replay?lang={lang}")
        said = _joker_texts(replay["events"])
        word = i18n.card_name(Card.parse("*"), lang)
        assert [text for text in said if word in text], "no public event with a joker names it"
        assert not [text for text in said if "*" in text]
    page.goto(f"/replay/{code}")
    page.wait_for_selector("#replay-text")
    first = next(i for i, item in enumerate(replay["events"])
                 if '"*"' in json.dumps(item["event"]) and word in item["text"])
    page.evaluate("""(k) => { const r = document.querySelector('#replay-range');
      r.value = String(k); r.dispatchEvent(new Event('input')); }""", first)
    page.wait_for_function("(k) => document.querySelector('#replay-step').textContent.includes(` ${k} /`)",
                           arg=first + 1)
    text = page.locator("#replay-text").inner_text()
    assert joker in text
    assert "*" not in text
    steps = page.locator(".replay .log-list li").all_text_contents()
    assert len(steps) == first + 1
    assert not [t for t in steps if "*" in t]
