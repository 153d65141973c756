"""The browser front end against a real server (pytest + Playwright, Debian's Chromium).

A module fixture starts ``liverpool serve`` on a free port with its own data
folder and a short bot delay, and waits for ``/healthz``. Every test keeps a
screenshot of each of its pages when it fails (the folder is printed).
Chromium is launched by path (``/usr/bin/chromium`` or ``$LIVERPOOL_CHROMIUM``):
no browser is downloaded; a missing one fails the tests with a clear message.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

#: real servers, browsers and databases: part of every full run, left out of the quick one
pytestmark = pytest.mark.slow

CHROMIUM = os.environ.get("LIVERPOOL_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
STATE_JS = """() => {
  const s = window.__lv;
  if (!s || !s.view) return null;
  const v = s.view;
  return {seat: s.seat, phase: v.phase, to_move: v.to_move, turn: v.turn_player,
          legal: v.legal_actions, down: s.seat === null ? null : v.laid_down[s.seat],
          round: v.round, n: s.n, hand: v.hand, players: v.players,
          log: s.log.length, open: !!(s.conn && s.conn.open)};
}"""
TOKEN_EXPOSED_JS = """(code) => {
  const token = localStorage.getItem(`lv.seat.${code}`);
  if (!token) return "no token kept";
  const seen = new Set();
  const holds = (v, depth) => {
    if (typeof v === "string") return v.includes(token);
    if (!v || typeof v !== "object" || depth > 5 || seen.has(v) || v instanceof Node) return false;
    seen.add(v);
    return Object.values(v).some((x) => holds(x, depth + 1));
  };
  return holds(window.__lv, 0) || window.__lv.conn.ws.url.includes(token);
}"""  # noqa: S105 - a script that looks for the token, not a secret
HAND_JS = """() => [...document.querySelectorAll('#hand .hand-card')].map(b => (
  {key: b.dataset.key, card: b.dataset.card, selected: b.getAttribute('aria-pressed') === 'true'}))"""


# ------------------------------------------------------------------ fixtures
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    data = tmp_path_factory.mktemp("server-data")
    log = open(data / "server.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [sys.executable, "-c", "from liverpool.cli import main; main()", "serve",
         "--port", str(port), "--data", str(data), "--bot-delay", "0.05"],
        stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=1) as r:  # noqa: S310 - http
                if json.load(r).get("status") == "ok":
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.close()
            pytest.fail(f"the server did not start: {(data / 'server.log').read_text()[-2000:]}")
        time.sleep(0.2)
    yield base
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing: no browser at {CHROMIUM}. Install Debian's "
                    "(apt-get install -y chromium) or set LIVERPOOL_CHROMIUM to its path; "
                    "these tests never download one.")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class Pages:
    """New browser contexts for one test; screenshots of every page on failure."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[BrowserContext] = []
        self.pages: list[Page] = []
        self.errors: list[str] = []

    def new(self, *, width: int = 1280, height: int = 900, locale: str = "en-US") -> Page:
        ctx = self.browser.new_context(viewport={"width": width, "height": height},
                                       locale=locale, base_url=self.base)
        ctx.set_default_timeout(15000)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{e}"))
        self.pages.append(page)
        return page

    def another(self, ctx_page: Page) -> Page:
        page = ctx_page.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{e}"))
        self.pages.append(page)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def pages(browser: Browser, server: str, request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pages]:
    failed_before = request.session.testsfailed
    ps = Pages(browser, server)
    yield ps
    if request.session.testsfailed > failed_before:
        folder = tmp_path_factory.mktemp("screenshots")
        for i, page in enumerate(ps.pages):
            path = folder / f"{request.node.name}-{i}.png"
            try:
                page.screenshot(path=str(path), full_page=True)
                print(f"screenshot of page {i} ({page.url}): {path}")
            except Exception as e:  # noqa: BLE001 - a closed page
                print(f"no screenshot of page {i}: {e}")
    ps.close()
    assert not ps.errors, f"JavaScript errors on the pages: {ps.errors}"


# ------------------------------------------------------------------- helpers
def words(server: str, lang: str) -> dict[str, str]:
    with urllib.request.urlopen(f"{server}/api/i18n/{lang}") as r:  # noqa: S310 - http
        return dict(json.load(r)["words"])


def state(page: Page) -> dict[str, Any] | None:
    return page.evaluate(STATE_JS)


def create_table(page: Page, *, name: str = "Kari", seats: list[str] | None = None,
                 options: dict[str, str] | None = None) -> str:
    """Create a table through the lobby; returns its code. ``seats``: the values of
    the seat selects after seat 0 (``human`` or ``bot:easy``...)."""
    page.goto("/")
    page.wait_for_selector("#create")
    page.fill("#your-name", name)
    if seats is not None:
        page.select_option("#seat-count", str(len(seats) + 1))
        for i, v in enumerate(seats, start=1):
            page.select_option(f"select[name=seat{i}]", v)
    for key, value in (options or {}).items():
        sel = f"#opt-{key}"
        if page.locator(sel).count() == 0 or not page.locator(sel).is_visible():
            page.click("details.options.more > summary")
        page.fill(sel, value)
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")
    code = page.url.rsplit("/", 1)[1]
    # the seat token is kept by the browser but never on window, nor in the URL
    assert page.evaluate(TOKEN_EXPOSED_JS, code) is False
    return code


def click_card(page: Page, key: str) -> None:
    """Tap a card of the hand (select or deselect it)."""
    card = page.locator(f'#hand .hand-card[data-key="{key}"]')
    was = card.get_attribute("aria-pressed")
    # the hand overlaps: the left strip of a card is always visible
    card.click(position={"x": 6, "y": 16})
    page.wait_for_function(
        f"""() => {{ const b = document.querySelector('#hand .hand-card[data-key="{key}"]');
                     return !b || b.getAttribute('aria-pressed') !== '{was}'; }}""", timeout=5000)


def drag_card_to(page: Page, key: str, target: str) -> None:
    card = page.locator(f'#hand .hand-card[data-key="{key}"]').bounding_box()
    goal = page.locator(target).bounding_box()
    assert card
    assert goal
    page.mouse.move(card["x"] + 6, card["y"] + 16)
    page.mouse.down()
    steps = 10
    for i in range(1, steps + 1):
        page.mouse.move(card["x"] + 6 + (goal["x"] + goal["width"] / 2 - card["x"] - 6) * i / steps,
                        card["y"] + 16 + (goal["y"] + goal["height"] / 2 - card["y"] - 16) * i / steps)
    page.mouse.up()


def first_enabled(page: Page, scope: str) -> bool:
    buttons = page.locator(f"{scope} [data-decision]:not([disabled])")
    if buttons.count() == 0:
        return False
    buttons.first.click()
    return True


def lay_down_by_hand(page: Page) -> None:
    """Build the suggested lay-down card by card: select, Set/Run, then Lay down
    (the server's check answers; choose the first way when there are several)."""
    melds = json.loads(page.locator("#suggest").get_attribute("data-melds") or "[]")
    assert melds
    for meld in melds:
        for card in meld["cards"]:
            hand = page.evaluate(HAND_JS)
            key = next(h["key"] for h in hand if h["card"] == card and not h["selected"])
            click_card(page, key)
        page.click("#new-run" if meld["kind"] == "run" else "#new-set")
    page.wait_for_selector("#staging .group")
    before = state(page)
    assert before
    page.click("#lay-down")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if page.locator("#dialog[open] .choice").count():
            page.locator("#dialog[open] .choice").first.click()
        st = state(page)
        if st and st["down"]:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the lay-down built by hand was not accepted")


def step(page: Page, stats: dict[str, Any]) -> str | None:
    """One decision of a simple policy, through clicks (None: nothing to do now)."""
    if page.locator("#dialog[open] .choice").count():
        page.locator("#dialog[open] .choice").first.click()
        return "choice"
    if page.locator("#round-summary").count():
        return "summary"
    if page.locator("#standings").count():
        return "over"
    st = state(page)
    if not st or not st["legal"]:
        return None
    for prompt in ("#buy-prompt", "#call-prompt"):
        if page.locator(prompt).count():
            return "window" if first_enabled(page, prompt) else None
    if st["phase"] in ("draw", "cut"):
        return st["phase"] if first_enabled(page, "#actions") else None
    if st["phase"] != "play" or st["turn"] != st["seat"]:
        return None
    if page.locator("#suggest:not([disabled])").count():
        if not stats.get("check"):
            lay_down_by_hand(page)
            stats["check"] = True
            return "lay_down_by_hand"
        page.click("#suggest")
        page.click("#lay-down")
        return "suggest"
    if page.locator(".meld-btn.target").count() and page.evaluate("() => !!window.__lv.pickMeld"):
        page.locator(".meld-btn.target").first.click()
        return "meld"
    hand = page.evaluate(HAND_JS)
    for h in hand:
        if h["selected"]:
            click_card(page, h["key"])
    offs = [a for a in st["legal"] if a["type"] == "lay_off"]
    if offs:
        key = next((h["key"] for h in hand if h["card"] == offs[0]["card"]), None)
        if key:
            click_card(page, key)
            page.click("#lay-off:not([disabled])")
            return "lay_off"
    discards = {a["card"] for a in st["legal"] if a["type"] == "discard"}
    choice = [h for h in hand if h["card"] in discards and h["card"] != "*"] or \
        [h for h in hand if h["card"] in discards]
    if not choice:
        return None
    key = choice[-1]["key"]
    if not stats.get("drag"):
        drag_card_to(page, key, "#discard")
        stats["drag"] = True
        return "discard_by_drag"
    click_card(page, key)
    page.click("#discard-btn:not([disabled])")
    return "discard"


def play_until(page: Page, done: Any, stats: dict[str, Any], timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        did = step(page, stats)
        stats.setdefault("log", []).append(did)
        if did is None or did == "summary":
            page.wait_for_timeout(60)
        else:
            page.wait_for_timeout(30)
    raise AssertionError(f"not done in {timeout} s; the last steps: {stats.get('log', [])[-20:]}")


def play_and_compare(players: list[Page], watchers: tuple[Page, ...] = ()) -> None:
    """The people on ``players`` make at least eight decisions between them;
    once the bots stop at a person's decision, every page (``watchers`` too)
    has caught up with the same version and shows the same discard."""
    stats: list[dict[str, Any]] = [{"check": True, "drag": True} for _ in players]
    made = 0
    deadline = time.monotonic() + 90
    while made < 8 and time.monotonic() < deadline:
        for page, st in zip(players, stats, strict=True):
            if step(page, st) not in (None, "summary"):
                made += 1
            page.wait_for_timeout(40)
    assert made >= 8
    pages = [*players, *watchers]
    settle = time.monotonic() + 20
    while True:
        n = [state(p)["n"] for p in pages]  # type: ignore[index]
        if len(set(n)) == 1 or time.monotonic() > settle:
            break
        pages[0].wait_for_timeout(200)
    assert len(set(n)) == 1, n
    top = [p.locator("#discard").get_attribute("aria-label") for p in pages]
    assert len(set(top)) == 1, top


EASY = {"jokers_per_deck": "4", "deal": "15, 15, 15, 15, 15, 15, 15"}


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


#: JSON or Python text: a bracket or brace opening a list or a dict, or a quoted key
DATA_TEXT = re.compile(r"""[\[{]\s*["'\d\[{-]|'\w+'\s*:""")
PAGE_TEXT_JS = """() => [document.body.innerText,
  ...[...document.querySelectorAll('input:not([type=hidden]), textarea')].map(e => e.value)]
  .join('\\n')"""


def test_rules_read_as_words(pages: Pages, server: str) -> None:
    """No list, dict or JSON text in the lobby's rule options nor in the Rules
    dialog of any preset, in en, nb and da."""
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
            page.click("#rules-btn")
            dialog = page.locator("#dialog")
            expect(dialog.locator(".points-table")).to_be_visible()
            text = dialog.inner_text()
            found = DATA_TEXT.findall(text)
            assert not found, f"data text in the {lang} Rules dialog ({preset}): {found}"


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
    create_table(page, name="Kari")
    page.wait_for_selector("#draw-stock")
    assert page.locator("#draw-stock").inner_text() == nb["draw_stock"]
    found = [t for t in _control_texts(page) if t in english]
    assert not found, f"English words on the nb table page: {found}"
    first = page.locator("#log li").first.inner_text()
    # switch to Danish: the page's words and the server's texts
    page.select_option("#lang-select", "da")
    page.wait_for_function(f"() => document.querySelector('#draw-stock') && "
                           f"document.querySelector('#draw-stock').textContent === {json.dumps(da['draw_stock'])}")
    page.wait_for_function(f"() => document.querySelector('#log li') && "
                           f"document.querySelector('#log li').textContent !== {json.dumps(first)}")
    assert page.evaluate("document.documentElement.lang") == "da"
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
    for s in servers:
        s.start()
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
