"""Whose turn and motion on the table page (js/table/turn.js, js/table/motion.js),
against a real server in Debian's Chromium: the header's sentence at a draw, at
another seat's buy window and at your own buy offer, in en and nb (the words
from /api/i18n); the tab's title and icon while a decision is yours; the
countdown of the seat to act; the sound and vibration switches kept across a
reload; cards that move after a bot's discard, and none under
``prefers-reduced-motion``.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from browser_support import HAND_JS, Pages, click_card, play_until, seat_table, state, step, words
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow

HEADER = "() => document.querySelector('#whose-turn').firstChild.textContent"
CLOCK = "() => document.querySelector('#turn-clock').textContent"
HEADER_AND_QUEUE = ("() => [document.querySelector('#whose-turn').firstChild.textContent, "
                    "window.__lv.view.queue]")
ICON = "() => document.querySelector('link[rel=icon]').href"
#: the page's motion, sampled every frame: "<last event's type>:<its seat>:<animation id>"
SAMPLER = """(() => {
  window.__moves = [];
  const look = () => {
    const s = window.__lv;
    const last = s && s.log.length ? s.log[s.log.length - 1].event : null;
    for (const a of document.getAnimations()) {
      if (a.id && a.id.startsWith('lv-')) window.__moves.push(`${last && last.type}:${last && last.seat}:${a.id}`);
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()"""
AND = {"en": " and ", "nb": " og "}  # (Intl.ListFormat's word for two names)
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def label(card: str, w: dict[str, str]) -> str:
    """The card as the header names it (``w``: the page's words; a joker is a word)."""
    if card == "*":
        return w["joker"]
    return f"{'10' if card[0] == 'T' else card[0]}{SUITS[card[1]]}"


def new_table(server: str, lang: str, seats: list[dict[str, Any]], **settings: Any) -> tuple[str, str]:
    body = {"preset": "liverpool", "seats": seats, "name": "Kari", "lang": lang,
            "wait": False, **settings}
    r = httpx.post(f"{server}/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()["code"], r.json()["token"]


def open_seat(page: Page, code: str, token: str | None) -> None:
    page.goto(f"/t/{code}" + (f"#seat={token}" if token else ""))
    page.wait_for_function("() => window.__lv && window.__lv.view")


def until(page: Page, what: str, timeout: float = 15000) -> None:
    page.wait_for_function(what, timeout=timeout)


def progress(page: Page, stats: dict[str, Any]) -> None:
    """One decision of the page's seat: windows passed (no buys used up), else step()."""
    if page.locator("#pass-btn").count():
        page.click("#pass-btn")
    else:
        step(page, stats)


def both(names: list[str], lang: str) -> str:
    return AND[lang].join(names)


# --------------------------------------------------------------------- tests
@pytest.mark.parametrize("lang", ["en", "nb"])
def test_the_header_says_who_acts_and_the_tab_tells_you(pages: Pages, server: str,
                                                        lang: str) -> None:
    w = words(server, lang)
    code, token = new_table(server, lang, [{"kind": "human"}, {"kind": "human"},
                                           {"kind": "bot", "level": "easy"}],
                            turn_seconds=60, window_seconds=40)
    ola_token = httpx.post(f"{server}/api/tables/{code}/join",
                           json={"name": "Ola", "lang": lang}).json()["token"]
    locale = {"en": "en-US", "nb": "nb-NO"}[lang]
    kari, ola = pages.new(locale=locale), pages.new(locale=locale)
    open_seat(kari, code, token)
    open_seat(ola, code, ola_token)
    # (the bot's name at this table: in Norwegian seat 3's bot is Kari, so here another)
    shown = httpx.get(f"{server}/api/tables/{code}").json()["names"][lang]
    bot = re.sub(r"\s*\(.*\)$", "", shown[2])
    assert bot not in ("Kari", "Ola")
    stats: list[dict[str, Any]] = [{"check": True, "drag": True}, {"check": True, "drag": True}]
    deadline = time.monotonic() + 40
    # play on until Kari (seat 0) is to draw with Ola next: Ola answers the buy window first
    while True:
        assert time.monotonic() < deadline, "Kari never came to draw"
        st = state(kari)
        assert st
        if st["phase"] == "draw" and st["to_move"] == 0 and st["legal"]:
            break
        for page, s in zip((kari, ola), stats, strict=True):
            progress(page, s)
        kari.wait_for_timeout(50)
    icon = ola.evaluate(ICON)
    # a draw: your turn, in words; the other is told who draws
    until(ola, f"() => window.__lv.view.version === {st['n']}")
    assert kari.evaluate(HEADER) == w["turn_draw"]
    assert ola.evaluate(HEADER) == w["wait_draw"].format(name="Kari")
    assert kari.title().startswith(f"▶ {w['turn_draw']}")
    assert not ola.title().startswith("▶")
    # the countdown of the seat to act, on both pages (Ola's from the public clock), going down
    before = [int(re.sub(r"\D", "", p.evaluate(CLOCK))) for p in (kari, ola)]
    assert all(40 < n <= 60 for n in before), before
    kari.wait_for_timeout(2200)
    later = [int(re.sub(r"\D", "", p.evaluate(CLOCK))) for p in (kari, ola)]
    assert all(b < a for a, b in zip(before, later, strict=True)), (before, later)
    alerts = ola.evaluate("() => window.__lv.alerts")
    kari.click("#draw-stock")
    # the buy window: Ola may buy, before the bot (whose answer is never told)
    until(ola, "() => window.__lv.view.phase === 'buy' && window.__lv.view.legal_actions.length > 0")
    until(kari, "() => window.__lv.view.phase === 'buy'")
    card = label(ola.evaluate("() => window.__lv.view.offered_card"), w)
    assert ola.evaluate("() => window.__lv.view.queue")[0] == 1

    def ola_header(queue: list[int]) -> str:
        with_bot = [bot] if 2 in queue else []  # (not when the bot discarded the card itself)
        first = f" ({w['you_first']})" if with_bot else ""
        return w["may_buy"].format(names=both([w["you_subject"], *with_bot], lang), card=card) + first

    def kari_header(queue: list[int]) -> str:
        with_bot = [bot] if 2 in queue else []
        first = f" ({w['first_of'].format(name='Ola')})" if with_bot else ""
        return (w["may_buy"].format(names=both(["Ola", *with_bot], lang), card=card)
                + f"{first} · {w['then_your_turn']}")

    # (the header against the queue it is drawn from: the bot may pass at any
    # moment, and a pass leaves the queue for everyone to see)
    for page, expected in ((ola, ola_header), (kari, kari_header)):
        for _ in range(40):  # (a render may come a frame after the view)
            header, queue = page.evaluate(HEADER_AND_QUEUE)
            if header == expected(queue):
                break
            page.wait_for_timeout(50)
        assert header == expected(queue)
    # the tab of the one offered the buy: its title, its icon, one alert
    until(ola, "() => document.title.startsWith('▶')")
    title = ola.title()  # (with the bot, or without it once it has passed)
    assert any(w["may_buy"].format(names=both([w["you_subject"], *b], lang), card=card) in title
               for b in ([bot], [])), title
    assert ola.evaluate(ICON) != icon
    assert ola.evaluate("() => window.__lv.alerts") == alerts + 1
    assert not kari.title().startswith("▶")
    assert int(re.sub(r"\D", "", kari.evaluate(CLOCK))) > 30  # Ola's window, 40 s
    ola.click("#pass-btn")
    until(kari, "() => window.__lv.view.phase === 'play'")
    assert kari.evaluate(HEADER) in (w["turn_lay_down"], w["turn_lay_off"], w["turn_discard"])
    until(ola, "() => !document.title.startsWith('▶')")
    assert ola.evaluate(ICON) == icon
    assert ola.evaluate(HEADER) in (w["wait_lay_down"].format(name="Kari"),
                                    w["wait_lay_off"].format(name="Kari"))
    # the switches (in the table's menu): sound off and vibration on at first,
    # both kept across a reload
    ola.click("#menu-btn")
    assert not ola.is_checked("#sound-on-turn")
    assert ola.is_checked("#vibrate-on-turn")
    ola.click("#sound-on-turn")
    ola.click("#vibrate-on-turn")
    ola.reload()
    ola.wait_for_function("() => window.__lv && window.__lv.view")
    ola.click("#menu-btn")
    assert ola.is_checked("#sound-on-turn")
    assert not ola.is_checked("#vibrate-on-turn")


def test_cards_move_and_reduced_motion_keeps_them_still(pages: Pages, server: str) -> None:
    code, token = new_table(server, "en", [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                           {"kind": "bot", "level": "easy"}])
    kari = pages.new()
    kari.add_init_script(SAMPLER)
    open_seat(kari, code, token)
    # a spectator who asked for less motion
    ctx = pages.browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US",
                                    base_url=pages.base, reduced_motion="reduce")
    pages.contexts.append(ctx)
    still = ctx.new_page()
    still.on("pageerror", lambda e: pages.errors.append(f"{e}"))
    pages.pages.append(still)
    still.add_init_script(SAMPLER)
    open_seat(still, code, None)
    stats: dict[str, Any] = {"check": True, "drag": True}
    deadline = time.monotonic() + 40
    bot_discards = 0
    while bot_discards < 3:
        assert time.monotonic() < deadline, "the bots did not discard three times"
        progress(kari, stats)
        kari.wait_for_timeout(40)
        bot_discards = kari.evaluate(
            "() => window.__lv.log.filter(i => i.event.type === 'discard' && i.event.seat > 0).length")
    moves = kari.evaluate("() => window.__moves")
    # after a bot's discard the card slid onto the pile (the animation of the page's
    # discard pile, seen while that discard was the last event)
    assert any(re.fullmatch(r"discard:[12]:lv-move", m) for m in moves), sorted(set(moves))
    assert any(m.endswith(":lv-fly") for m in moves), sorted(set(moves))  # a bot's draw to its seat
    # the last move stays marked: on the pile after a discard, on the seat that moved
    until(kari, "() => document.querySelector('#seats .last-move') !== null")
    # the spectator saw the same moves without any motion, and the same marks
    until(still, f"() => window.__lv.log.length >= {bot_discards}")
    assert still.evaluate("() => window.__lv.log.filter(i => i.event.type === 'discard').length") >= 3
    assert still.evaluate("() => window.__moves") == []
    assert still.evaluate("() => document.querySelector('#seats .last-move') !== null")


RISKY_JS = """() => {
  const s = window.__lv;
  const v = s && s.view;
  if (!v || v.phase !== 'play' || v.turn_player !== s.seat || !v.laid_down[s.seat]) return null;
  if (document.querySelector('#dialog[open]') || v.hand.length < 2) return null;
  const off = v.legal_actions.find((a) => a.type === 'lay_off');
  return off ? off.card : null;
}"""


def test_a_discard_that_may_be_called_is_asked_about_first(pages: Pages, server: str) -> None:
    """Down, with a card that fits a meld on the table (liverpool: another player
    may call it, and the discarder takes it back with a penalty card): discarding
    it asks first; cancelled, nothing is sent; 'discard it anyway' discards it."""
    page = pages.new(locale="nb-NO")
    seat_table(page, server, seats=[{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 2)
    nb = words(server, "nb")
    stats: dict[str, Any] = {"check": True, "drag": True}
    play_until(page, lambda: page.evaluate(RISKY_JS) is not None, stats, timeout=300)
    card = page.evaluate(RISKY_JS)
    key = page.evaluate(f"() => window.__lv.order.find((k) => window.__lv.keyCard.get(k) === '{card}')")
    n = page.evaluate("() => window.__lv.n")
    for held in page.evaluate(HAND_JS):  # (none selected but the card)
        if held["selected"]:
            assert click_card(page, held["key"])
    assert click_card(page, key)
    # (laying it off is the move the page offers first)
    expect(page.locator("#lay-off")).to_have_class(re.compile(r"\bprimary\b"))
    expect(page.locator("#discard-btn")).not_to_have_class(re.compile(r"\bprimary\b"))
    page.click("#discard-btn:not([disabled])")
    dialog = page.locator("#dialog[open]")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".dialog-title")).to_contain_text(nb["call_liverpool"])
    expect(dialog.locator(".choice")).to_have_text([nb["lay_off"], nb["discard_anyway"]])
    dialog.locator("button.ghost").click()  # cancel: nothing sent
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.__lv.n") == n
    assert card in page.evaluate("() => window.__lv.view.hand")
    # (the card stays selected: the player may lay it off, or discard it after all)
    assert page.evaluate("() => [...window.__lv.selected]") == [key]
    page.click("#discard-btn:not([disabled])")
    dialog.locator(".choice").nth(1).click()  # discard it anyway
    page.wait_for_function(f"""() => window.__lv.log.some((i) => i.event.type === 'discard'
        && i.event.seat === 0 && i.event.card === '{card}' && i.event.seq >= {n})""")


def test_a_turn_the_timer_played_is_said(pages: Pages, server: str) -> None:
    """A player who lets the turn's clock run out is told that the computer moved
    for them (the log alone reads as if they had), and the last seconds of the
    clock stand out."""
    code, token = new_table(server, "nb", [{"kind": "human"}, {"kind": "bot", "level": "easy"},
                                           {"kind": "bot", "level": "easy"}], turn_seconds=5)
    page = pages.new(locale="nb-NO")
    open_seat(page, code, token)
    nb = words(server, "nb")
    until(page, "() => window.__lv.view.to_move === 0 && window.__lv.view.phase === 'draw'")
    until(page, "() => document.querySelector('#turn-clock.urgent') !== null", timeout=3000)
    moves = "() => window.__lv.log.filter((i) => i.event.seat === 0).length"
    before = page.evaluate(moves)
    toast = page.locator("#toast")
    expect(toast).to_have_text(nb["timer_moved"], timeout=12000)  # (nothing pressed)
    assert page.evaluate(moves) > before
