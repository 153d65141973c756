"""The browser front end against a real server (pytest + Playwright, Debian's Chromium).

The fixtures (``server``, ``browser``, ``pages``) and the helpers that play the
table page by clicks live in ``tests/browser_support.py``.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import (
    EASY,
    Pages,
    create_table,
    play_and_compare,
    play_until,
    state,
    step,
    words,
)
from playwright.sync_api import Browser, Page, expect

#: real servers, browsers and databases: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow


# --------------------------------------------------------------------- tests
@pytest.mark.slow
def test_a_whole_round_against_three_bots(pages: Pages) -> None:
    page = pages.new()
    create_table(page, options=EASY)
    assert page.locator("#invite-link").input_value().endswith(page.url.rsplit("/", 1)[1])
    expect(page.locator("#hand .hand-card")).to_have_count(15)  # (once the hand is drawn)
    stats: dict[str, Any] = {}
    play_until(page, lambda: page.locator("#round-summary").count() > 0, stats)
    assert stats.get("check"), "the lay-down by select + check was never played"
    assert stats.get("drag"), "no discard by drag"
    summary = page.locator("#round-summary")
    assert summary.locator("tbody tr").count() == 4
    page.click("#close-summary")
    st = state(page)
    assert st
    assert st["round"] == 2
    assert page.locator("#scores tbody tr").count() == 1
    assert page.locator("#log li").count() > 10


def test_round_summary_follows_a_language_switch(pages: Pages) -> None:
    # the summary's sentence ("Runde 1 er over: Per (robot, lett) gikk ut ...")
    # comes from the server in the page's language; switched while it is open,
    # it is said again in the new one (the bots keep the table's first names)
    page = pages.new(locale="nb-NO")
    create_table(page, options=EASY)
    stats: dict[str, Any] = {}
    play_until(page, lambda: page.locator("#round-summary").count() > 0, stats)
    # (a round can end with no one out, by the turn limit of EASY's rules: its sentence says so)
    said = page.locator("#round-summary .summary-said")
    before = said.inner_text()
    assert before.startswith("Runde 1 er over"), before
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => document.querySelector('#round-summary-title')"
                           ".textContent.startsWith('Round')")
    expect(said).not_to_have_text(before)
    after = said.inner_text()
    assert after.startswith("Round 1 is over"), after
    assert "Straffepoeng" not in after, after
    # the bots keep the first names of the table's language (Norwegian, its
    # creator's), their level said in English: "Per (robot, lett)" is "Per (bot, easy)"
    out = page.evaluate("() => window.__lv.summary.winner")
    bots = re.findall(r"(\w+) \(robot, (\w+)\)", before)
    assert len(set(bots)) == 3, before  # (the penalty points name every seat)
    for first, _level in bots:
        assert re.search(rf"{first} \(bot, (easy|medium|hard)\)", after), (first, after)
    if out is None:
        assert "without a winner" in after, after
    # the same words as the round's end in the (English) log
    ended = page.evaluate("() => window.__lv.log.filter((i) => i.event.type === 'round_over')"
                          ".map((i) => i.text)")
    assert ended == [after]


def test_a_round_without_a_winner_says_so_in_its_summary(pages: Pages) -> None:
    # the rules' safeguard (max_turns_per_round) ends the round before anyone can
    # go out: the summary says that no one did (it once showed no sentence at all)
    page = pages.new(locale="nb-NO")
    create_table(page, options={**EASY, "max_turns_per_round": "6"})
    play_until(page, lambda: page.locator("#round-summary").count() > 0, {}, timeout=60)
    said = page.locator("#round-summary .summary-said")
    expect(said).to_contain_text("Runde 1 er over uten vinner. Straffepoeng: Kari ")
    assert page.evaluate("() => window.__lv.summary.winner") is None
    assert page.locator("#round-summary tr.winner").count() == 0


def test_a_toast_goes_when_the_language_changes(pages: Pages) -> None:
    # a toast is said in the language it came in: switched, the page shows no
    # words of the old language (it stayed for its six seconds)
    page = pages.new(locale="nb-NO")
    page.goto("/")
    page.wait_for_selector("#create")
    page.fill("#your-name", "Kari")
    page.fill("#opt-deal", "ti")
    page.click("#create")
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    said = toast.inner_text()
    assert said
    assert page.evaluate("() => document.documentElement.lang") == "nb"
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    expect(toast).to_be_hidden(timeout=1000)  # (at once, not after its six seconds)
    assert page.url.endswith("/")  # (nothing was created)


def test_the_seat_count_leaves_the_rules_typed_in_the_lobby(pages: Pages) -> None:
    """Changing the number of players changes the seats only: the deal, a
    timer and an option under "more rules" stay as typed, the section open."""
    page = pages.new(locale="nb-NO")
    page.goto("/")
    page.wait_for_selector("#create")
    page.fill("#opt-deal", "10, 10, 10, 10, 10, 10, 10")
    page.fill("#window-seconds", "7")
    page.click("details.options.more > summary")
    page.fill("#opt-max_turns_per_round", "9")
    for count in ("5", "3", "4"):
        page.select_option("#seat-count", count)
        assert page.locator(".seat-list > li").count() == int(count)
        assert page.input_value("#opt-deal") == "10, 10, 10, 10, 10, 10, 10"
        assert page.input_value("#window-seconds") == "7"
        assert page.input_value("#opt-max_turns_per_round") == "9"
        assert page.locator("details.options.more").get_attribute("open") is not None


def test_the_lobby_leads_back_to_a_table_being_played(pages: Pages) -> None:
    """A player who left a table finds it in the lobby ("your tables") and is
    back at their seat with one tap; a finished or unknown table is not listed."""
    page = pages.new(locale="nb-NO")
    code = create_table(page, name="Kari")
    page.evaluate("() => localStorage.setItem('lv.seat.QQQQQQ', 'no-such-table')")
    page.goto("/")
    link = page.locator(".your-tables a")
    expect(link).to_have_count(1)
    expect(link).to_contain_text(code)
    expect(page.locator(".your-tables h2")).to_have_text("Dine bord")
    assert page.evaluate("() => localStorage.getItem('lv.seat.QQQQQQ')") is None
    link.click()
    page.wait_for_url(re.compile(f"/t/{code}$"))
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")


def test_the_side_panels_stay_as_the_player_left_them(pages: Pages) -> None:
    # every event re-renders the table: the score sheet a phone player opened
    # closed again at the next move, and the log would not stay closed
    page = pages.new(width=375, height=667, locale="nb-NO")
    create_table(page, options=EASY)
    assert page.locator("#scores[open]").count() == 0  # (closed on a phone)
    page.locator("#scores > summary").click()
    page.locator("#log-panel > summary").click()
    expect(page.locator("#scores")).to_have_attribute("open", "")
    expect(page.locator("#log-panel")).not_to_have_attribute("open", "")
    stats: dict[str, Any] = {"check": True, "drag": True}

    def moves(k: int) -> None:  # (k moves of the game: k renders at least)
        n = page.evaluate("() => window.__lv.n")
        play_until(page, lambda: page.evaluate("() => window.__lv.n") >= n + k, stats, 60)

    moves(6)
    assert page.locator("#scores[open]").count() == 1
    assert page.locator("#log-panel[open]").count() == 0
    # closed again by the player, it stays closed
    page.locator("#scores > summary").click()
    moves(3)
    assert page.locator("#scores[open]").count() == 0


def test_two_people_at_one_table_through_the_invite_link(pages: Pages) -> None:
    kari = pages.new()
    code = create_table(kari, seats=["human", "bot:easy"])
    link = kari.locator("#invite-link").input_value()
    ola = pages.new()
    ola.goto(link)
    ola.wait_for_selector("#join-form")
    ola.fill("#join-name", "Ola")
    ola.click("#join-btn")
    ola.wait_for_function("() => window.__lv && window.__lv.seat === 1 && window.__lv.view")
    kari.wait_for_function("() => document.querySelector('#seats').textContent.includes('Ola')")
    expect(ola.locator("#hand .hand-card")).to_have_count(10)  # (once the hand is drawn)
    # a spectator: the table is full, so no seat to take; public information only
    watcher = pages.new()
    watcher.goto(f"/t/{code}")
    watcher.wait_for_function("() => window.__lv && window.__lv.view")
    assert watcher.locator("#join-form").count() == 0
    assert watcher.locator("#hand .hand-card").count() == 0
    assert state(watcher)["seat"] is None  # type: ignore[index]
    # both play a few decisions each; every page sees the same table
    play_and_compare([kari, ola], (watcher,))


def test_reload_returns_to_the_seat(pages: Pages) -> None:
    page = pages.new()
    code = create_table(page, options=EASY)
    stats: dict[str, Any] = {"check": True, "drag": True}
    made = 0
    deadline = time.monotonic() + 60
    while made < 3 and time.monotonic() < deadline:
        if step(page, stats) not in (None, "summary"):
            made += 1
        page.wait_for_timeout(50)
    page.wait_for_timeout(300)
    before = state(page)
    assert before
    page.reload()
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")
    after = state(page)
    assert after
    assert after["seat"] == 0
    assert sorted(after["hand"]) == sorted(before["hand"]) or after["n"] > before["n"]
    assert page.locator("#log li").count() > 0
    # carry on
    made = 0
    deadline = time.monotonic() + 60
    while made < 3 and time.monotonic() < deadline:
        if step(page, stats) not in (None, "summary"):
            made += 1
        page.wait_for_timeout(50)
    assert made == 3
    # the connection drops: a banner, then it reconnects by itself and syncs
    page.evaluate("() => window.__lv.conn.drop()")
    page.wait_for_function("() => window.__lv.conn.open", timeout=15000)
    assert page.locator("#banner").is_hidden()
    # the personal link opens the seat on another device
    token = page.evaluate(f"() => localStorage.getItem('lv.seat.{code}')")
    other = pages.new()
    other.goto(f"/t/{code}#seat={token}")
    other.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")
    assert "#seat" not in other.url


def test_score_pad(pages: Pages, server: str) -> None:
    page = pages.new()
    page.goto("/pad")
    page.wait_for_selector("#pad-form")
    page.click("#add-player")
    for i, name in enumerate(["Kari", "Ola", "Per", "Siri"]):
        page.fill(f"input[name=player{i}]", name)
    page.click("#start-pad")
    page.wait_for_url(re.compile(r"/pad/[A-Z0-9]{8}$"))
    page.wait_for_selector("#points-form")
    for i, p in enumerate([0, 35, 20, 60]):
        page.fill(f"input[name=p{i}]", str(p))
    page.click("#save-points")
    page.wait_for_function("() => document.querySelector('#pad-table tbody tr td:nth-child(4)')"
                           ".textContent === '35'")
    # round 2: tap the cards left in each hand
    page.click("#mode-cards")
    page.click(".count-player[data-player='1']")
    page.click("#picker [data-card='KS']")
    page.click("#picker [data-card='*']")
    page.click(".count-player[data-player='2']")
    page.click("#picker [data-card='AS']")
    page.click("#picker [data-card='5S']")
    page.click(".count-player[data-player='3']")
    page.click("#picker [data-card='TS']")
    page.click("#save-hands")
    page.wait_for_function("() => document.querySelectorAll('#pad-table tfoot th').length > 0 && "
                           "[...document.querySelectorAll('#pad-table tfoot th')].slice(1)"
                           ".map(x => x.textContent).join(',') === '0,95,45,70'")
    assert "Kari" in page.locator("#pad-leader").inner_text()
    assert page.locator("svg.chart").count() == 1
    # shareable by its link
    link = page.locator("#pad-link").input_value()
    other = pages.new(width=375, height=740)
    other.goto(link)
    other.wait_for_selector("#pad-table")
    assert [x.inner_text() for x in other.locator("#pad-table tfoot th").all()][1:] == \
        ["0", "95", "45", "70"]
    assert other.evaluate("document.documentElement.scrollWidth") <= 375


def test_phone_viewport_has_no_horizontal_scrolling(pages: Pages) -> None:
    page = pages.new(width=375, height=740)
    page.goto("/")
    page.wait_for_selector("#create")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.click("details.options.more > summary")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # every field of the lobby shows its whole value (the deal's numbers too)
    cut = page.evaluate("""() => [...document.querySelectorAll('input[type=text], input:not([type])')]
        .filter(i => i.offsetParent && i.scrollWidth > i.clientWidth).map(i => i.id)""")
    assert cut == []
    # a checkbox sits before its words, on their first line (not centred above them)
    box, words_at = page.evaluate("""() => {
        const box = document.querySelector('#hints-setting').getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(document.querySelector('label[for=hints-setting]'));
        range.setStartAfter(document.querySelector('#hints-setting'));
        const first = range.getClientRects()[0];
        return [{top: box.top, bottom: box.bottom, right: box.right},
                {top: first.top, bottom: first.bottom, left: first.left}]; }""")
    assert box["right"] <= words_at["left"]
    assert box["top"] < words_at["bottom"]
    assert words_at["top"] < box["bottom"]
    create_table(page, options={"deal": "17, 17, 17, 17, 17, 17, 17"})
    expect(page.locator("#hand .hand-card")).to_have_count(17)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    for box in (c.bounding_box() for c in page.locator("#hand .hand-card").all()):
        assert box
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 375
    # a few decisions, then still no scrolling
    stats: dict[str, Any] = {"check": True, "drag": True}
    for _ in range(40):
        step(page, stats)
        page.wait_for_timeout(40)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    for path in ("/pad", "/games"):
        page.goto(path)
        page.wait_for_timeout(400)
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path


#: JSON or Python text: a bracket or brace opening a list or a dict (or a template's
#: unfilled {field}), or a quoted key
DATA_TEXT = re.compile(r"""[\[{]\s*["'\w\[{-]|'\w+'\s*:""")
#: what a person reads or hears: the text, the fields' values, the options of the
#: menus and the names and titles a screen reader speaks
PAGE_TEXT_JS = """() => [document.body.innerText,
  ...[...document.querySelectorAll('input:not([type=hidden]), textarea')].map(e => e.value),
  ...[...document.querySelectorAll('option')].map(e => e.textContent),
  ...[...document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')].flatMap(e =>
     ['aria-label', 'title', 'placeholder', 'alt'].map(a => e.getAttribute(a)).filter(Boolean))]
  .join('\\n')"""


def test_rules_read_as_words(pages: Pages, server: str) -> None:
    """No list, dict or JSON text in the lobby's rule options nor in the Rules
    dialog of any preset (nor on the table page behind it), in en, nb and da:
    neither in the text, nor in the fields, the menus' options or the names a
    screen reader speaks."""
    presets = [p["name"] for p in httpx.get(f"{server}/api/presets").json()]
    labels = {lang: {p["name"]: p["label"] for p in httpx.get(
        f"{server}/api/presets?lang={lang}").json()} for lang in ("en", "nb", "da")}
    codes = {}
    for preset in presets:  # (a table of each preset, made through the API: cheap)
        made = httpx.post(f"{server}/api/tables", json={"preset": preset, "seats": [
            {"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 2})
        codes[preset] = made.json()["code"]
    for lang, locale in (("en", "en-GB"), ("nb", "nb-NO"), ("da", "da-DK")):
        page = pages.new(locale=locale)
        page.goto("/")
        page.wait_for_selector("#create")
        assert page.evaluate("document.documentElement.lang") == lang
        for preset in presets:
            page.select_option("#preset", preset)
            page.wait_for_function("(label) => document.querySelector('.rules-box summary')"
                                   ".textContent.endsWith(label)", arg=labels[lang][preset])
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            text = page.evaluate(PAGE_TEXT_JS)
            assert "10, 10" in text, f"no deal in words in the {lang} lobby ({preset})"
            found = DATA_TEXT.findall(text)
            assert not found, f"data text in the {lang} lobby ({preset}): {found}"
        for preset, code in codes.items():
            page.goto(f"/t/{code}")
            page.click("#menu-btn")  # (the Rules button is in the table's menu)
            page.click("#rules-btn")
            dialog = page.locator("#dialog")
            expect(dialog.locator(".points-table")).to_be_visible()
            text = dialog.inner_text()
            found = DATA_TEXT.findall(text)
            assert not found, f"data text in the {lang} Rules dialog ({preset}): {found}"
            found = DATA_TEXT.findall(page.evaluate(PAGE_TEXT_JS))
            assert not found, f"data text on the {lang} table page ({preset}): {found}"


def _control_texts(page: Page) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, label, summary, legend, h1, h2, h3, .top-nav a, option, th, .hint')]
        .map(e => e.textContent.trim()).filter(Boolean)""")


def test_language_switch(pages: Pages, server: str) -> None:
    en, nb, da = words(server, "en"), words(server, "nb"), words(server, "da")
    translated = [k for k in en if nb[k] != en[k]]
    english = {en[k] for k in translated if len(en[k]) > 3}
    page = pages.new(locale="nb-NO")
    page.goto("/")
    page.wait_for_selector("#create")
    assert page.evaluate("document.documentElement.lang") == "nb"
    assert page.locator("#lang-select").input_value() == "nb"
    assert page.locator("#create").inner_text() == nb["create"]
    found = [t for t in _control_texts(page) if t in english]
    assert not found, f"English words in the nb lobby: {found}"
    # the tab's title and the language menu's name follow a switch too
    assert page.title() == f"{nb['new_table']} — {nb['app_title']}"
    assert page.locator("#lang-select").get_attribute("aria-label") == nb["language"]
    page.select_option("#lang-select", "da")
    page.wait_for_function(f"() => document.title === {json.dumps(da['new_table'] + ' — ' + da['app_title'])}")
    assert page.locator("#lang-select").get_attribute("aria-label") == da["language"]
    page.select_option("#lang-select", "nb")
    page.wait_for_function(f"() => document.title === {json.dumps(nb['new_table'] + ' — ' + nb['app_title'])}")
    create_table(page, name="Kari")
    page.wait_for_selector("#draw-stock")
    assert page.locator("#draw-stock").inner_text() == nb["draw_stock"]
    found = [t for t in _control_texts(page) if t in english]
    assert not found, f"English words on the nb table page: {found}"
    first = page.locator("#log li").first.inner_text()
    code = page.url.rsplit("/", 1)[1]
    assert page.title().endswith(f"{nb['table']} {code} — {nb['app_title']}")
    page.evaluate("document.querySelector('#moves-live').textContent = 'sagt på norsk'")
    # switch to Danish: the page's words and the server's texts, the tab's title
    # (after whose turn it is), the menu's name; the moves said in Norwegian go
    page.select_option("#lang-select", "da")
    page.wait_for_function(f"() => document.querySelector('#draw-stock') && "
                           f"document.querySelector('#draw-stock').textContent === {json.dumps(da['draw_stock'])}")
    page.wait_for_function(f"() => document.querySelector('#log li') && "
                           f"document.querySelector('#log li').textContent !== {json.dumps(first)}")
    assert page.evaluate("document.documentElement.lang") == "da"
    assert page.title().endswith(f"{da['table']} {code} — {da['app_title']}")
    assert page.locator("#lang-select").get_attribute("aria-label") == da["language"]
    assert page.locator("#moves-live").text_content() != "sagt på norsk"
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => document.querySelector('#draw-stock').textContent === "
                           f"{json.dumps(en['draw_stock'])}")
    page.reload()
    page.wait_for_selector("#draw-stock")
    assert page.locator("#lang-select").input_value() == "en"
    missing = [k for k in ("create", "new_table", "your_name", "seats", "draw_stock",
                           "take_discard", "discard", "lay_down", "buy", "pass")
               if nb[k] == en[k] or da[k] == en[k]]
    assert not missing, f"the nb/da catalogs do not translate these page words yet: {missing}"


def test_two_people_on_two_server_processes(browser: Browser, postgres: Any,
                                            redis_session: Any, tmp_path: Path) -> None:
    """Two ``liverpool serve`` processes on one PostgreSQL and one Redis: Kari's
    page is served by the first, Ola follows the invite link on the second,
    and both play one table (screenshots of both pages in ``tmp_path``)."""
    import test_server_support as sup

    redis_session.flush()
    database = postgres.database()
    servers = [sup.ServerProcess(tmp_path / name, database=database, bot_delay=0.05,
                                 args=("--redis", redis_session.url)) for name in "ab"]
    sup.ServerProcess.start_together(*servers)
    a, b = servers
    pages_a, pages_b = Pages(browser, a.base), Pages(browser, b.base)
    try:
        kari = pages_a.new()
        create_table(kari, seats=["human", "bot:easy"])
        link = kari.locator("#invite-link").input_value()
        ola = pages_b.new(width=420, height=860)
        ola.goto(link.replace(a.base, b.base))
        ola.wait_for_selector("#join-form")
        ola.fill("#join-name", "Ola")
        ola.click("#join-btn")
        ola.wait_for_function("() => window.__lv && window.__lv.seat === 1 && window.__lv.view")
        kari.wait_for_function(
            "() => document.querySelector('#seats').textContent.includes('Ola')")
        play_and_compare([kari, ola])
        kari.screenshot(path=str(tmp_path / "kari-process-a.png"))
        ola.screenshot(path=str(tmp_path / "ola-process-b.png"))
        assert not pages_a.errors, pages_a.errors
        assert not pages_b.errors, pages_b.errors
    finally:
        pages_a.close()
        pages_b.close()
        for s in servers:
            s.stop()
    assert not a.errors_logged()
    assert not b.errors_logged()
