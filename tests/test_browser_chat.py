"""The chat of the table page (js/table/chat.js) in Chromium: two players at
one table chat at 375×667, a line of markup shows as text, the open panel
covers neither the hand nor the decision, a spectator reads but may not write
at a table of players, a reload gets the chat back, and the lobby's chat
setting reaches the table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import create_table, words
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow

MARKUP = '<img src=x onerror="document.title=\'owned\'"><b>bold?</b>'

#: the rectangles of the open chat panel and of what it must not cover
RECTS_JS = """() => {
  const r = (e) => { if (!e) return null; const b = e.getBoundingClientRect(); return b.height ? {top: b.top, bottom: b.bottom, left: b.left, right: b.right} : null; };
  const q = (s) => document.querySelector(s);
  return {panel: r(q('#chat-panel')), hand: r(q('[data-testid="hand"]') || q('#hand')),
          decision: r(q('[data-testid="decision"]') || q('#actions')), vh: innerHeight};
}"""
#: the hand's cards (and the decision's buttons) whose centre is in the viewport
#: but under the chat panel
COVERED_JS = """() => [...document.querySelectorAll('#hand .hand-card, #actions button')].filter((e) => {
  const b = e.getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  if (y < 0 || y >= innerHeight || x < 0 || x >= innerWidth) return false;
  const at = document.elementFromPoint(x, y);
  return at !== null && at.closest('#chat-panel') !== null;
}).map((e) => e.id || e.dataset.key)"""


def chat_lines(page: Page) -> list[str]:
    """The chat's lines as the panel shows them, without their times."""
    return [t.strip() for t in page.evaluate("""() => [...document.querySelectorAll(
        '#chat-lines li')].map((li) => [...li.childNodes].filter((n) => n.nodeName !== 'TIME')
        .map((n) => n.textContent).join(''))""")]


def test_two_players_chat_and_the_panel_keeps_the_hand_clear(pages: Any, server: str) -> None:
    en, nb = words(server, "en"), words(server, "nb")
    kari = pages.new(width=375, height=667)
    code = create_table(kari, seats=["human", "bot:easy"])
    ola = pages.new(width=375, height=667)
    ola.goto(f"/t/{code}")
    ola.fill("#join-name", "Ola")
    ola.click("#join-btn")
    ola.wait_for_function("() => window.__lv && window.__lv.seat === 1 && window.__lv.view")

    # Ola says a line of markup: Kari's button counts it, her panel shows it as text
    ola.click("#chat-btn")
    ola.fill("#chat-input", MARKUP)
    ola.press("#chat-input", "Enter")
    kari.wait_for_function("() => document.querySelector('#chat-btn .chat-count').textContent === '1'")
    assert kari.get_attribute("#chat-btn", "aria-label") == f"{en['chat']}: " + en[
        "chat_unread"].replace("{n}", "1")
    kari.click("#chat-btn")
    # (Ola's name comes with the table's news, a moment after his line at most)
    expect(kari.locator("#chat-lines li")).to_have_text([re.compile(rf"Ola {re.escape(MARKUP)}$")])
    assert chat_lines(kari) == [f"Ola {MARKUP}"]
    # each line says when it was said, in the reader's clock
    said = kari.evaluate("() => window.__lv.chat[0].at")
    when = kari.locator("#chat-lines li time").first
    assert when.get_attribute("datetime") == kari.evaluate(
        f"() => new Date({said} * 1000).toISOString()")
    assert re.fullmatch(r"\d{2}[:.]\d{2}( [AP]M)?", when.text_content() or ""), when.text_content()
    assert kari.locator("#chat-panel img, #chat-panel b b").count() == 0  # no element made of it
    assert kari.locator("#chat-lines .chat-text").first.text_content() == MARKUP
    assert kari.title() != "owned"
    kari.wait_for_function("() => !document.querySelector('#chat-btn .chat-count').textContent")

    # at 375×667 the open panel covers neither the hand nor the decision, as
    # the page is (with the hand in view, or scrolled to it)
    for scroll in ("", "document.querySelector('#hand').scrollIntoView({block: 'end'})"):
        if scroll:
            kari.evaluate(f"() => {scroll}")
            kari.wait_for_timeout(100)
        rects = kari.evaluate(RECTS_JS)
        assert rects["panel"] is not None
        for part in ("hand", "decision"):
            if rects[part] is not None and rects[part]["top"] < rects["vh"]:
                assert rects["panel"]["bottom"] <= rects[part]["top"], (part, rects)
        assert kari.evaluate(COVERED_JS) == []
    assert rects["hand"]["top"] < rects["vh"]  # (the hand was in view at least once)

    # a reaction comes back in words and as an emoji; Kari's own line counts as read
    kari.click("[data-reaction=good_game]")
    kari.click("[data-reaction=thumbs_up]")
    ola.wait_for_function("() => document.querySelectorAll('#chat-lines li').length === 3")
    kari_name = ola.evaluate("() => window.__lv.table.seats[0].name") or en["seat_n"].replace(
        "{n}", "1")  # (as the page names her everywhere)
    assert chat_lines(ola)[1] == f"{kari_name} {en['reaction_good_game']}"
    assert ola.get_attribute("#chat-lines li:nth-child(3) [role=img]", "aria-label") == en[
        "reaction_thumbs_up"]
    assert kari.locator("#chat-btn .chat-count").text_content() == ""
    kari.keyboard.press("Escape")
    assert kari.locator("#chat-panel").is_hidden()
    assert kari.evaluate("() => document.activeElement.id") == "chat-btn"

    # a spectator (in Norwegian) reads the players' chat and may not write in it
    watcher = pages.new(width=1280, height=800, locale="nb-NO")
    watcher.goto(f"/t/{code}")
    watcher.wait_for_function("() => window.__lv && window.__lv.view")
    watcher.click("#chat-btn")
    assert len(chat_lines(watcher)) == 3
    assert watcher.locator("#chat-form").is_hidden()
    assert watcher.locator("#chat-note").text_content() == nb["chat_players_only"]

    # a reload gets the chat back with its snapshot, none of it new
    ola.reload()
    ola.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.chat.length === 3")
    assert ola.locator("#chat-btn .chat-count").text_content() == ""

    # the replay shows the chat at its place: by the last step, every line (as text)
    watcher.goto(f"/replay/{code}")
    watcher.wait_for_selector("#replay-range")
    said_at = [c["events"] for c in watcher.evaluate(
        f"async () => (await (await fetch('/api/tables/{code}/replay')).json()).chat")]
    last = int(watcher.get_attribute("#replay-range", "max") or 0)
    watcher.locator("#replay-range").fill(str(last))
    watcher.wait_for_selector("#replay-chat")
    assert watcher.locator("#replay-chat li").count() == 3
    assert watcher.locator("#replay-chat .chat-text").first.text_content() == MARKUP
    assert watcher.locator("#replay-chat img").count() == 0
    first = min(said_at)  # (said after event number first - 1: shown from that step on)
    assert first >= 2
    watcher.locator("#replay-range").fill(str(first - 2))
    assert watcher.locator("#replay-chat li").count() == 0
    watcher.locator("#replay-range").fill(str(first - 1))
    assert watcher.locator("#replay-chat li").count() == said_at.count(first)


def test_the_lobby_s_chat_setting_reaches_the_table(pages: Any) -> None:
    page = pages.new(width=375, height=667)
    page.goto("/")
    page.wait_for_selector("#create")
    page.select_option("#chat-setting", "off")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.table")
    assert page.evaluate("() => window.__lv.table.settings.chat") == "off"
    assert page.locator("#chat-btn").is_hidden()
