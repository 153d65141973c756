"""Seats and people in the browser: the waiting room (the seats, the invite
link and its QR code, the creator's buttons waiting for the connection), a
second person joining and chatting before the start, the creator giving a seat to
a bot (and back, and again) and starting; then a seat nobody took, which the
page names when its turn comes, given to a bot right there; the game plays."""

from __future__ import annotations

import time

import pytest
from browser_support import Pages, create_table, play_and_compare, state, step, words
from playwright.sync_api import expect

pytestmark = pytest.mark.slow

QR_LOADED_JS = """() => { const i = document.querySelector('#invite-qr');
                          return !!i && i.complete && i.naturalWidth > 0; }"""


def test_the_waiting_room_a_seat_to_a_bot_and_the_start(pages: Pages, server: str) -> None:
    kari = pages.new(width=375, height=667, locale="nb-NO")
    code = create_table(kari, seats=["human", "human", "human"], start=False)
    # the waiting room: nothing dealt; the seats, the link and its QR code
    kari.wait_for_selector("#waiting-room")
    assert state(kari) is None
    assert kari.locator("#hand").count() == 0
    assert kari.locator("#invite-qr").get_attribute("src") == f"/api/tables/{code}/qr.svg"
    kari.wait_for_function(QR_LOADED_JS)
    # the creator's buttons wait for the table's connection (a press would be lost)
    kari.wait_for_selector("#start-game:not([disabled])")
    kari.context.set_offline(True)
    kari.evaluate("window.__lv.conn.drop()")
    expect(kari.locator("#start-game")).to_be_disabled()
    expect(kari.locator('button[data-give="1"]')).to_be_disabled()
    kari.wait_for_timeout(1500)  # (reconnection tried meanwhile: still offline)
    expect(kari.locator("#start-game")).to_be_disabled()
    kari.context.set_offline(False)
    expect(kari.locator("#start-game")).to_be_enabled(timeout=15000)
    link = kari.locator("#invite-link").input_value()
    assert link.endswith(f"/t/{code}")
    assert kari.locator(".waiting-seat.free").count() == 3
    # a second person opens the link and joins
    ola = pages.new(width=390, height=844, locale="nb-NO")
    ola.goto(link)
    ola.wait_for_selector("#join-form")
    ola.fill("#join-name", "Ola")
    ola.click("#join-btn")
    ola.wait_for_function("() => window.__lv && window.__lv.seat === 1")
    ola.wait_for_selector("#waiting-room")
    assert ola.locator("#start-game").count() == 0  # the creator's alone
    assert ola.locator("button[data-give]").count() == 0
    nb = words(server, "nb")
    assert nb["waiting_room"] in ola.locator("#waiting-title").inner_text()
    kari.wait_for_selector('.waiting-seat[data-seat="1"] .badge.here')
    # those who came chat before the start: the button is beside the room's title
    expect(ola.locator("#waiting-room .waiting-head #chat-btn")).to_be_visible()
    ola.click("#chat-btn")
    ola.fill("#chat-input", "Hei, jeg er klar!")
    ola.press("#chat-input", "Enter")
    ola.click("#chat-close")
    kari.wait_for_function("() => document.querySelector('#chat-btn .chat-count').textContent === '1'")
    kari.click("#chat-btn")
    expect(kari.locator("#chat-lines li .chat-text")).to_have_text(["Hei, jeg er klar!"])
    expect(kari.locator("#chat-lines li .chat-who")).to_have_text(["Ola"])
    kari.click("#chat-close")
    # the third seat to an easy bot, back to a person, and to the bot again
    kari.select_option("#bot-level-2", "easy")
    kari.click('button[data-give="2"]')
    kari.wait_for_selector('.waiting-seat[data-seat="2"][data-kind="bot"]')
    kari.click('button[data-free="2"]')
    kari.wait_for_selector('.waiting-seat[data-seat="2"][data-kind="human"]')
    kari.select_option("#bot-level-2", "easy")
    kari.click('button[data-give="2"]')
    kari.wait_for_selector('.waiting-seat[data-seat="2"][data-kind="bot"]')
    expect(ola.locator('.waiting-seat[data-seat="2"]')).to_contain_text("robot")  # (nb)
    # the fourth seat stays free; the creator starts
    kari.click("#start-game")
    for page in (kari, ola):
        page.wait_for_function("() => window.__lv && window.__lv.view")
        page.wait_for_selector("#hand .hand-card")
        # the chat goes on at the table: the button in the top line, the line said kept
        expect(page.locator(".table-top .status #chat-btn")).to_be_visible()
        assert [c["text"] for c in page.evaluate("window.__lv.chat")] == ["Hei, jeg er klar!"]
    # when the free seat's turn comes, the page says so; the creator gives it away there
    stats = [{"check": True, "drag": True}, {"check": True, "drag": True}]
    deadline = time.monotonic() + 90
    while not kari.locator("#seat-wait").count():
        assert time.monotonic() < deadline, "the free seat's turn never came"
        step(kari, stats[0])
        step(ola, stats[1])
        kari.wait_for_timeout(40)
    assert state(kari)["to_move"] == 3  # type: ignore[index]
    assert kari.locator("#seat-wait").inner_text().startswith(
        nb["seat_untaken_wait"].replace("{n}", "4"))
    ola.wait_for_selector("#seat-wait")
    assert ola.locator("#seat-wait button").count() == 0
    kari.click('#seat-wait button[data-give="3"]')
    kari.wait_for_selector("#seat-wait", state="detached")
    play_and_compare([kari, ola])
    assert [s["kind"] for s in kari.evaluate("window.__lv.table.seats")] == [
        "human", "human", "bot", "bot"]
    # after the start the creator keeps the seats at hand (a bot's seat back to a person)
    assert ola.locator("#seat-manager").count() == 0
    kari.evaluate("document.querySelector('#seat-manager summary').click()")  # (re-rendered often)
    expect(kari.locator('#seat-manager button[data-free="2"]')).to_be_visible()
    expect(kari.locator('#seat-manager button[data-free="3"]')).to_be_visible()


def test_a_table_nobody_came_to_says_it_waits(pages: Pages, server: str) -> None:
    # a table made through the API whose creator has not come: nothing moves,
    # and the page says the table waits for its players (no "a bot plays")
    import httpx

    made = httpx.post(f"{server}/api/tables", json={
        "name": "Kari", "away_seconds": 5,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3}).json()
    watcher = pages.new(width=390, height=844, locale="nb-NO")
    watcher.goto(f"/t/{made['code']}")
    watcher.wait_for_selector("#table-unclaimed")
    expect(watcher.locator("#table-unclaimed")).to_have_text(words(server, "nb")["table_unclaimed"])
    watcher.wait_for_timeout(5500)  # past the away time: still nobody is "away"
    assert watcher.locator(".badge.away").count() == 0
    assert watcher.locator("#table-unclaimed").is_visible()
    assert state(watcher)["n"] == 0  # type: ignore[index]
    # the creator comes: the note goes, the game moves
    kari = pages.new()
    kari.goto(f"/t/{made['code']}#seat={made['token']}")
    kari.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")
    expect(watcher.locator("#table-unclaimed")).to_have_count(0)
    assert kari.locator("#table-unclaimed").count() == 0
