"""Shared fixtures and helpers of the browser tests (pytest + Playwright, Debian's Chromium).

Loaded by ``tests/conftest.py`` as a plugin, so every ``tests/test_browser*.py``
file gets the fixtures ``server`` (one ``liverpool serve`` per module, on a free
port, with its own data folder and a short bot delay), ``browser`` (Chromium
launched by path: ``/usr/bin/chromium`` or ``$LIVERPOOL_CHROMIUM``; no browser is
downloaded, a missing one fails the tests with a clear message) and ``pages``
(new contexts for one test; a screenshot of each page when the test fails, and
no JavaScript error allowed). The helpers drive the table page as a person
would: :func:`create_table` (or :func:`seat_table`, through the API), :func:`click_card`,
:func:`step`, :func:`play_until` (by clicks, or by taps); :func:`axe_violations` runs
axe-core on a page.
Playwright is imported only when a browser test runs.
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
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

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
#: the browser tests' server: every table's deal and seed come from a counter
#: (the n-th table of a test module is dealt the same cards in every run), so
#: that what a test's player is dealt (whether it can lay down, which decisions
#: come) is the same from run to run; the real server draws them at random
FIXED_DEALS = """
import hashlib, itertools
import liverpool.server.hub as hub
tables = itertools.count(1)
def new_deal_key():
    return hashlib.sha256(b"browser-tests/%d" % next(tables)).hexdigest()
hub.new_deal_key = new_deal_key
hub.new_deal_seed = lambda: int(new_deal_key()[:15], 16)
from liverpool.cli import main
main()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    data = tmp_path_factory.mktemp("server-data")
    log = open(data / "server.log", "w")  # noqa: SIM115 - closed below
    # (one address makes every table of a test module: the limits on new tables
    # per address are tested by tests/test_limits.py, not met here by chance)
    proc = subprocess.Popen(
        [sys.executable, "-c", FIXED_DEALS, "serve",
         "--port", str(port), "--data", str(data), "--bot-delay", "0.05",
         "--tables-per-minute", "600", "--tables-per-hour", "6000"],
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
    from playwright.sync_api import sync_playwright

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

    def new(self, *, width: int = 1280, height: int = 900, locale: str = "en-US",
            still: bool = False) -> Page:
        """A page in a new context; ``still``: the system asks for reduced motion
        (the cards do not fly: a page that follows a game keeps up sooner)."""
        ctx = self.browser.new_context(viewport={"width": width, "height": height},
                                       locale=locale, base_url=self.base,
                                       reduced_motion="reduce" if still else "no-preference")
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
    with urllib.request.urlopen(f"{server}/api/i18n/{lang}", timeout=30) as r:  # noqa: S310 - http
        return dict(json.load(r)["words"])


def state(page: Page) -> dict[str, Any] | None:
    return page.evaluate(STATE_JS)


def create_table(page: Page, *, name: str = "Kari", seats: list[str] | None = None,
                 options: dict[str, str] | None = None, start: bool = True,
                 hints: bool = False) -> str:
    """Create a table through the lobby; returns its code. ``seats``: the values of
    the seat selects after seat 0 (``human`` or ``bot:easy``...). A table with
    a seat for a person waits in its waiting room: ``start`` starts it at once.
    ``hints``: tick the lobby's hints."""
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
    if hints:
        page.check("#hints-setting")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    page.wait_for_function("() => window.__lv && (window.__lv.view || document.querySelector("
                           "'#start-game'))")
    if not start:
        return page.url.rsplit("/", 1)[1]
    if page.locator("#start-game").count():
        page.click("#start-game")
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")
    code = page.url.rsplit("/", 1)[1]
    # the seat token is kept by the browser but never on window, nor in the URL
    assert page.evaluate(TOKEN_EXPOSED_JS, code) is False
    return code


def seat_table(page: Page, server: str, *, options: dict[str, Any] | None = None,
               seats: list[dict[str, str]] | None = None, window_seconds: float = 15) -> str:
    """Create a table through the API and open it on ``page`` in its first seat
    (the seat token comes in the address, as the personal link gives it;
    ``page.goto`` only: no mouse, touch or key). Returns the table's code."""
    import httpx

    made = httpx.post(f"{server}/api/tables", json={
        "options": options or {}, "window_seconds": window_seconds, "name": "Kari",
        "seats": seats or [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * 3}).json()
    page.goto(f"/t/{made['code']}#seat={made['token']}")
    page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")
    return str(made["code"])


def press(page: Page, target: str | Any, *, tap: bool = False, **how: Any) -> None:
    """Click ``target`` (a selector or a locator), or tap it on a touch screen."""
    loc = page.locator(target) if isinstance(target, str) else target
    if tap:
        loc.tap(**how)
    else:
        loc.click(**how)


def click_card(page: Page, key: str, *, tap: bool = False) -> bool:
    """Tap a card of the hand (select or deselect it). False: the card left the
    hand before it could be pressed (the page moved on since it was looked at:
    a new deal, or the round's end); the caller looks again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    card = page.locator(f'#hand .hand-card[data-key="{key}"]')
    was = card.get_attribute("aria-pressed", timeout=3000) if card.count() else None
    if was is None:
        return False
    try:
        # the hand overlaps: the left strip of a card is always visible
        press(page, card, tap=tap, position={"x": 6, "y": 16})
    except PlaywrightTimeout:
        if card.count():
            raise
        return False
    page.wait_for_function(
        f"""() => {{ const b = document.querySelector('#hand .hand-card[data-key="{key}"]');
                     return !b || b.getAttribute('aria-pressed') !== '{was}'; }}""", timeout=5000)
    return True


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


def first_enabled(page: Page, scope: str, *, tap: bool = False) -> bool:
    """Press the first enabled decision button in ``scope`` (False: there is none,
    or it went before it could be pressed — a buy window another seat closed —
    or the round's summary came over it)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    buttons = page.locator(f"{scope} [data-decision]:not([disabled])")
    if buttons.count() == 0:
        return False
    try:
        press(page, buttons.first, tap=tap, timeout=3000)
    except PlaywrightTimeout:
        if buttons.count() and not page.locator("#round-summary, #standings").count():
            raise
        return False
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


RANKS = "A23456789TJQK"


def loneliest(discards: list[str], hand: list[str]) -> str | None:
    """The discard a simple player makes: the legal discard that fits the
    fewest other cards of the hand (the same rank for a set; the same suit
    within two ranks for a run), never a joker while there is another card,
    the highest rank on a tie. It keeps pairs and run pieces, so the walks
    that play a seat by this policy reach their lay-down within a few turns
    whatever the deal (a seat that throws its highest card may never)."""
    def fit(card: str) -> tuple[int, int]:
        if card == "*":
            return (99, 0)
        rank, suit = RANKS.index(card[0]), card[1]
        mates = sum(1 for c in hand if c != "*" and c[0] == card[0]) - 1
        near = sum(1 for c in hand if c != "*" and c[1] == suit and c != card
                   and 0 < abs(RANKS.index(c[0]) - rank) <= 2)
        return (2 * mates + near, -rank)
    return min(discards, key=fit) if discards else None


#: what step() looks at, read in one call (under load each call to the page costs)
LOOK_JS = """() => {
  const q = (sel) => !!document.querySelector(sel);
  return {choice: q('#dialog[open] .choice'), summary: q('#round-summary'),
          standings: q('#standings'), prompt: q('#buy-prompt') ? '#buy-prompt'
            : q('#call-prompt') ? '#call-prompt' : null,
          suggest: q('#suggest:not([disabled])'),
          meld: q('.meld-btn.target') && !!(window.__lv && window.__lv.pickMeld),
          state: (""" + STATE_JS + """)(), hand: (""" + HAND_JS + """)()};
}"""


def step(page: Page, stats: dict[str, Any], *, tap: bool = False) -> str | None:
    """One decision of a simple policy, through clicks, or taps if ``tap`` (None:
    nothing to do now, or the page moved on while it was being done; ``tap``
    leaves out the drag and the lay-down built by hand; ``stats["wait"]``: never
    lay down, a player not down may buy)."""
    look = page.evaluate(LOOK_JS)
    if look["choice"]:
        press(page, page.locator("#dialog[open] .choice").first, tap=tap)
        return "choice"
    if look["summary"]:
        return "summary"
    if look["standings"]:
        return "over"
    st = look["state"]
    if not st or not st["legal"]:
        return None
    if look["prompt"]:
        return "window" if first_enabled(page, look["prompt"], tap=tap) else None
    if st["phase"] in ("draw", "cut"):
        return st["phase"] if first_enabled(page, "#actions", tap=tap) else None
    if st["phase"] != "play" or st["turn"] != st["seat"]:
        return None
    if look["suggest"] and not stats.get("wait"):  # ("wait": never lay down, so as to keep buying)
        if not stats.get("check") and not tap:
            lay_down_by_hand(page)
            stats["check"] = True
            return "lay_down_by_hand"
        press(page, "#suggest", tap=tap)
        press(page, "#lay-down", tap=tap)
        return "suggest"
    if look["meld"]:
        press(page, page.locator(".meld-btn.target").first, tap=tap)
        return "meld"
    hand = look["hand"]
    for h in hand:
        if h["selected"] and not click_card(page, h["key"], tap=tap):
            return None
    offs = [a for a in st["legal"] if a["type"] == "lay_off"]
    if offs:
        key = next((h["key"] for h in hand if h["card"] == offs[0]["card"]), None)
        if key:
            if not click_card(page, key, tap=tap):
                return None
            press(page, "#lay-off:not([disabled])", tap=tap)
            return "lay_off"
    discards = [a["card"] for a in st["legal"] if a["type"] == "discard"]
    card = loneliest(discards, [h["card"] for h in hand])
    key = next((h["key"] for h in hand if h["card"] == card), None)
    if key is None:
        return None
    if not stats.get("drag") and not tap:
        drag_card_to(page, key, "#discard")
        stats["drag"] = True
        return "discard_by_drag"
    if not click_card(page, key, tap=tap):
        return None
    press(page, "#discard-btn:not([disabled])", tap=tap)
    return "discard"


def play_until(page: Page, done: Any, stats: dict[str, Any], timeout: float = 240, *,
               tap: bool = False) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        did = step(page, stats, tap=tap)
        stats.setdefault("log", []).append(did)
        if did == "summary":
            if done():  # (the summary came after the look above: it may be what is waited for)
                return
            # a round ended before ``done``: the player closes its summary and plays on
            # (the summary waits for that, and so would this loop)
            close = page.locator("#close-summary")
            if close.count():
                close.click(timeout=2000)
        if did is None or did == "summary":
            page.wait_for_timeout(60)
        else:
            page.wait_for_timeout(30)
    look = page.evaluate(LOOK_JS)  # (what the page showed last: to tell why nothing was done)
    st = look.pop("state") or {}
    look["hand"] = [(h["card"], h["selected"]) for h in look["hand"]]
    look["state"] = {k: st.get(k) for k in ("phase", "turn", "to_move", "seat", "down", "round", "n",
                                          "open")}
    look["legal"] = sorted({a["type"] for a in st.get("legal") or []})
    raise AssertionError(f"not done in {timeout} s; the last steps: {stats.get('log', [])[-20:]}; "
                         f"the page: {look}")


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


#: long hands with many jokers: the player lays down soon. Round 1's contract is
#: two sets, and a round of sets only can lock (everyone down, every set's rank
#: used up, nobody able to go out) until the turn safeguard: 120 turns, not 1000
EASY = {"jokers_per_deck": "4", "deal": "15, 15, 15, 15, 15, 15, 15",
        "max_turns_per_round": "120"}


def axe_violations(page: Page, where: str) -> list[str]:
    """axe-core's violations on ``page`` (every impact counts), one line each:
    ``where: rule (impact) on the first few elements``. axe-core comes inside
    the ``axe-playwright-python`` package: nothing is loaded from another host."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']} on "
            f"{[n['target'] for n in v['nodes']][:3]}" for v in found]


