"""Hints on the table page (js/table/hints.js) in Chromium: a table made in
the lobby with hints on shows "hints on"; at the player's draw the Hint button
brings the server's sentence over the table (one of the legal actions, its
card marked), the next version takes it away, and after the draw a hint for
the discard marks a card of the hand; no JavaScript errors. On a phone held
sideways the badge, the button and the sentence take no room from the top
bar, the piles or the decision (the button among the decision's buttons, in
the buy window's at a buy, 44 px high); a long sentence over a long hand
covers neither pile nor its label, upright, sideways or on a desktop (it
scrolls, or reaches down over the hand); too many hints in a minute: the
button waits out the server's seconds."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from browser_support import create_table, play_until, state, words

from liverpool import i18n
from liverpool.errors import GameError

pytestmark = pytest.mark.slow

#: the decision's area of the table page
DECISION = '[data-testid="decision"], #actions'
#: the hint the page holds (window.__lv.hint)
HINT_JS = "() => window.__lv && window.__lv.hint"


def test_a_hint_at_a_draw_and_at_a_discard(pages: Any, server: str) -> None:
    en = words(server, "en")
    page = pages.new(width=375, height=667)
    create_table(page, seats=["bot:easy", "bot:easy"], hints=True)
    badge = page.locator("#hints-badge")
    badge.wait_for()
    assert badge.inner_text() == en["hints_on"]

    # Kari draws first: the Hint button is in the decision's area
    page.wait_for_function("() => window.__lv.view.phase === 'draw' && window.__lv.view.to_move === 0")
    assert page.locator(DECISION).locator("#hint-btn").count() == 1
    page.locator("#hint-btn").click()
    page.wait_for_function(
        "() => { const h = window.__lv.hint; return h && h.action; }", timeout=20000)
    hint = page.evaluate(HINT_JS)
    st = state(page)
    assert st is not None
    assert hint["version"] == st["n"]
    assert hint["action"] in st["legal"]
    text = page.locator("#hint-text")
    assert text.is_visible()
    assert text.inner_text() == hint["text"]
    assert text.inner_text().startswith("Hint: ")
    from_pile = hint["action"]["source"] == "discard"
    assert page.locator("#discard.hinted").count() == (1 if from_pile else 0)

    # take the hint: the next version has no hint yet
    page.click("#take-discard" if from_pile else "#draw-stock")
    page.wait_for_function("() => window.__lv.view.phase === 'play'")
    assert page.locator("#hint-text").is_hidden()
    assert page.locator(".hinted").count() == 0

    # at the discard: the sentence, and the card it names marked in the hand
    page.locator("#hint-btn").click()
    page.wait_for_function(
        "() => { const h = window.__lv.hint; return h && h.action; }", timeout=20000)
    hint = page.evaluate(HINT_JS)
    st = state(page)
    assert st is not None
    assert hint["action"] in st["legal"]
    assert page.locator("#hint-text").inner_text() == hint["text"]
    marked = page.locator("#hand .hand-card.hinted")
    if hint["action"]["type"] in ("discard", "lay_off", "swap_joker"):
        assert marked.count() == 1
        assert marked.first.get_attribute("data-card") == hint["action"]["card"]
    elif hint["action"]["type"] == "lay_down":
        assert marked.count() == sum(len(m["cards"]) for m in hint["action"]["melds"])

    # switched to Norwegian, the same hint is said in Norwegian (not asked again)
    page.click("#menu-btn")  # (on a phone the language is in the table's menu)
    page.select_option("#table-lang", "nb")
    page.wait_for_function("() => document.querySelector('#hint-text') && "
                           "document.querySelector('#hint-text').textContent.startsWith('Tips: ')")
    again = page.evaluate(HINT_JS)
    assert again["action"] == hint["action"]
    assert page.locator("#hint-text").inner_text() == again["text"] != hint["text"]
    # closed, it stays closed through a switch, and opens in the new language
    page.locator("#hint-close").click()
    page.click("#menu-btn")
    page.select_option("#table-lang", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en' && "
                           "window.__lv.hint && window.__lv.hint.text.startsWith('Hint: ')")
    assert page.locator("#hint-text").is_hidden()
    page.locator("#hint-btn").click()
    assert page.locator("#hint-text").inner_text() == hint["text"]


#: the rectangle of an element: [left, top, right, bottom] (null: none on the page)
RECT_JS = """(sel) => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_hints_take_no_room_on_a_phone_held_sideways(pages: Any, server: str) -> None:
    page = pages.new(width=667, height=375)
    create_table(page, seats=["bot:easy", "bot:easy", "bot:easy"], hints=True)
    page.locator("#hints-badge").wait_for()
    # the badge goes under the round: the top bar is no wider for it
    assert page.locator("#status .round-info #hints-badge").count() == 1
    wide = page.evaluate(RECT_JS, "#status")
    page.evaluate("document.querySelector('#hints-badge').hidden = true")
    assert page.evaluate(RECT_JS, "#status")[2] == pytest.approx(wide[2], abs=0.5)

    page.wait_for_function("() => window.__lv.view.phase === 'draw' && window.__lv.view.to_move === 0")
    button = page.evaluate(RECT_JS, "#hint-btn")
    assert page.locator("#actions > .row #hint-btn").count() == 1
    assert button[3] - button[1] >= 44  # (a small button would be 36 px high)
    assert button[1] == pytest.approx(page.evaluate(RECT_JS, "#draw-stock")[1], abs=1)  # one row
    piles = [page.evaluate(RECT_JS, q) for q in ("#stock", "#discard")]
    page.locator("#hint-btn").click()
    page.wait_for_function(
        "() => { const h = window.__lv.hint; return h && h.action; }", timeout=20000)
    shown = page.evaluate(RECT_JS, "#hint-float")
    assert page.locator("#hint-text").is_visible()
    assert shown[1] >= 0
    assert shown[3] <= page.evaluate(RECT_JS, "#dock")[1]  # above the hand and the decision
    for before, pile in zip(piles, ("#stock", "#discard"), strict=True):
        now = page.evaluate(RECT_JS, pile)
        assert now == pytest.approx(before, abs=0.5)  # the piles keep their room
        assert not overlap(shown, now)  # and show whole
    assert page.evaluate(RECT_JS, "#hint-btn") == pytest.approx(button, abs=0.5)
    # closed, and shown again by the button (no second question to the server)
    asked = page.evaluate("() => window.__lv.hint")
    page.locator("#hint-close").click()
    assert page.locator("#hint-text").is_hidden()
    page.locator("#hint-btn").click()
    assert page.locator("#hint-text").is_visible()
    assert page.evaluate("() => window.__lv.hint") == {**asked, "closed": False}

    # a buy: the button is in the buy window, beside Buy and Pass
    page.click("#draw-stock")
    play_until(page, lambda: page.locator("#buy-prompt #buy-btn").count() > 0,
               {"check": True, "drag": True, "wait": True}, timeout=180)  # (down: no buys)
    assert page.locator("#buy-prompt .window-body > .row #hint-btn").count() == 1
    button = page.evaluate(RECT_JS, "#hint-btn")
    assert button[3] - button[1] >= 44


def answer_hints(page: Any, answer: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """A stand-in for the server's hints on ``page``: its WebSocket messages go
    to the server, but a ``hint`` question is answered with ``answer(question)``."""

    def between(ws: Any) -> None:
        server_side = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") != "hint":
                server_side.send(message)
                return
            ws.send(json.dumps(answer(data)))

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/"), between)


def test_too_many_hints_the_button_waits(pages: Any, server: str) -> None:
    """The server's ``server_hints_too_fast`` (here sent by a stand-in for the
    server, so that no ten hints are worked out): the button is disabled and
    counts the seconds down, then asks again."""
    page = pages.new(width=390, height=844)
    asked: list[dict[str, Any]] = []
    refusal = i18n.error_text(GameError("server_hints_too_fast", seconds=2), "en")

    def refuse(data: dict[str, Any]) -> dict[str, Any]:
        asked.append(data)
        return {"type": "error", "n": data["version"], "code": "server_hints_too_fast",
                "message": refusal, "params": {"seconds": 2}}

    answer_hints(page, refuse)
    en = words(server, "en")
    # (through the API: the stand-in holds the token that create_table looks for on the page)
    made = httpx.post(f"{server}/api/tables", json={
        "name": "Kari", "hints": True,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]}).json()
    page.goto(f"/t/{made['code']}#seat={made['token']}")
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.view.phase === 'draw' "
                           "&& window.__lv.view.to_move === 0")
    page.locator("#hint-btn").click()
    page.wait_for_function("() => document.querySelector('#hint-btn').disabled")
    assert page.locator("#hint-btn").inner_text() in (en["hint_wait"].format(n=2), en["hint_wait"].format(n=1))
    assert len(asked) == 1
    page.locator("#hint-btn").click(force=True)  # (disabled: nothing is sent)
    page.wait_for_function("() => !document.querySelector('#hint-btn').disabled", timeout=5000)
    assert page.locator("#hint-btn").inner_text() == en["hint"]
    assert len(asked) == 1
    page.locator("#hint-btn").click()
    page.wait_for_function("() => document.querySelector('#hint-btn').disabled")
    assert len(asked) == 2


#: a long hint sentence (the stand-in server's), in Norwegian: seven lines on a phone
LONG_HINT = ("Tips: legg ned 7♥ 7♦ joker | 9♠ 9♣ joker, da legger du ned kontrakten nå, og du har "
             "bare fire kort igjen å bli kvitt; de andre har ikke lagt ned ennå, og kastehaugen gir "
             "deg ingenting du trenger. Forventede poeng ved rundens slutt 15; sjanse for å gå ut "
             "først 25 %.")
#: the piles and their labels: what the sentence must never cover
PILES = ("#stock", "#discard", "#stock .pile-label", "#discard .pile-label")


def test_a_long_hint_covers_no_pile_on_a_phone(pages: Any, server: str) -> None:
    """Upright on a small phone with a long hand (16 cards after the draw: the
    dock is tall), the sentence sits between the piles and the hand: it
    covers neither pile nor its label, and the piles keep their place; the
    same sideways and on a desktop, and while a lay-down is being built (the
    dock taller still: the sentence then reaches down over the hand, not up)."""
    page = pages.new(width=375, height=667, locale="nb-NO")
    legal: list[Any] = []

    answer_hints(page, lambda data: {"type": "hint", "version": data["version"], "stale": False,
                                     "action": legal[-1], "text": LONG_HINT})
    made = httpx.post(f"{server}/api/tables", json={
        "name": "Kari", "hints": True,
        "options": {"jokers_per_deck": 4, "contracts": ["SS", "SS"], "deal": [15, 15]},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]}).json()
    page.goto(f"/t/{made['code']}#seat={made['token']}")
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.view.phase === 'draw' "
                           "&& window.__lv.view.to_move === 0")
    page.click("#draw-stock")
    page.wait_for_function("() => window.__lv.view.phase === 'play' && window.__lv.view.to_move === 0")
    st = state(page)
    assert st is not None
    legal[:] = st["legal"]

    def check(where: str) -> None:
        piles = {q: page.evaluate(RECT_JS, q) for q in PILES}
        page.locator("#hint-btn").click()
        page.wait_for_function("() => { const h = window.__lv.hint; return h && h.text; }")
        assert page.locator("#hint-text").is_visible()
        shown = page.evaluate(RECT_JS, "#hint-float")
        for q, before in piles.items():
            now = page.evaluate(RECT_JS, q)
            assert now == pytest.approx(before, abs=0.5), (where, q)  # the piles keep their room
            assert not overlap(shown, now), (where, q, shown, now)  # and show whole
        assert shown[3] - shown[1] >= 60, where  # (three lines at least: the rest scrolls)
        page.locator("#hint-close").click()

    check("375x667")
    for width, height in ((667, 375), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        check(f"{width}x{height}")
    page.set_viewport_size({"width": 375, "height": 667})
    page.wait_for_timeout(100)
    if page.locator("#suggest:not([disabled])").count():  # (a lay-down being built: the dock taller)
        page.click("#suggest")
        page.wait_for_selector("#dock .staging", timeout=5000)
        check("375x667 building")
        # (turned sideways while the sentence shows: fitted again)
        page.locator("#hint-btn").click()
        page.set_viewport_size({"width": 667, "height": 375})
        page.wait_for_timeout(100)
        shown = page.evaluate(RECT_JS, "#hint-float")
        for q in PILES:
            assert not overlap(shown, page.evaluate(RECT_JS, q)), ("667x375 building", q)
