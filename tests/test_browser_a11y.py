"""Accessibility of the web pages (issue 21 §6): axe-core on every page kind in
nb, da and en; a whole round by keyboard only and a whole round by touch only.

axe-core runs through ``axe-playwright-python`` (it brings its own copy of
axe-core: nothing is loaded from another host). Every impact counts and no
rule is disabled.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from browser_support import (
    HAND_JS,
    Pages,
    axe_violations,
    click_card,
    loneliest,
    play_until,
    press,
    seat_table,
    state,
    step,
)
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.slow

LANGS = ("nb", "da", "en")
#: two short rounds (the last one played like the others) of 9 cards with four jokers
#: a deck: every decision kind comes, and the rounds end soon. A contract of sets
#: only can lock a round: once everyone is down and every set's rank is used up,
#: the cards left are ranks nobody can lay off, and nobody goes out until the
#: turn safeguard (1000 turns by default: hours at a browser's pace; 2-3 % of
#: these rounds, measured with bots). 120 turns is twice the longest round
#: that ended by a player going out in 200 such rounds of bots.
TWO_ROUNDS = {"contracts": ["SS", "SS"], "deal": [9, 9], "jokers_per_deck": 4,
              "final_round": "normal", "max_turns_per_round": 120}
#: three rounds of 12 cards: the player lays down in round 1 or 2 (before a bot goes out)
LONGER_ROUNDS = {**TWO_ROUNDS, "contracts": ["SS"] * 3, "deal": [12] * 3}


def _in_each_language(page: Page, where: str, found: list[str], seen: list[str],
                      only: str | None = None) -> None:
    """axe-core on ``page`` in nb, da and en, or in ``only`` (switched by the
    page's language menu, or the table's; ``where`` empty: no axe run)."""
    for lang in (only,) if only else LANGS:
        if page.evaluate("document.documentElement.lang") != lang:
            if page.locator("#lang-select").is_visible():
                page.select_option("#lang-select", lang)
            else:  # (at the table on a phone: the language is in the table's menu)
                page.click("#menu-btn")
                page.select_option("#table-lang", lang)
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
            page.wait_for_timeout(300)  # the page's words, then the server's texts
        if where:
            found += axe_violations(page, f"{where} [{lang}]")
            seen.append(f"{where} [{lang}]")


def _my_play(st: dict[str, Any] | None) -> bool:
    return bool(st and st["phase"] == "play" and st["turn"] == st["seat"] and st["legal"])


def test_axe_finds_nothing_on_any_page_in_three_languages(pages: Pages, server: str) -> None:
    """The lobby, the table at each decision kind of one game (draw, buy,
    discard, lay-down building, lay off, the round summary, game over), the
    "?" list, the replay, the finished games and the score pad: no violation
    of any impact, in nb, da and en, at a phone's size."""
    found: list[str] = []
    seen: list[str] = []
    page = pages.new(width=375, height=667, locale="nb-NO")
    page.goto("/")
    page.wait_for_selector("#create")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    _in_each_language(page, "lobby", found, seen)

    kinds: list[str] = []
    stats: dict[str, Any] = {"check": True, "drag": True}
    codes: list[str] = []
    over: str | None = None  # a table whose game was seen to its end

    def missing() -> list[str]:
        return [k for k in ("draw", "buy", "discard", "lay-down building", "lay off",
                            "round summary", "game over") if k not in kinds]

    # (deals are secret: a game whose deal never lets Kari lay down, or lay off,
    # before a bot goes out is walked again at a new table, for the kinds it
    # missed: at most four games)
    while len(codes) < 4 and (not codes or missing()):
        codes.append(seat_table(page, server, options=TWO_ROUNDS, window_seconds=120))
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if page.locator("#standings").count():
                over = codes[-1]
            if len(codes) > 1 and (not missing() or ("game over" in kinds
                                                     and page.locator("#standings").count())):
                break  # (a game walked again: until the kinds missed, or its end)
            st = state(page)
            kind = None
            if page.locator("#standings").count():  # (over the last round's summary)
                kind = "game over"
            elif page.locator("#round-summary").count():
                kind = "round summary"
            elif page.locator("#buy-prompt").count():
                kind = "buy"
            elif st and st["phase"] == "draw" and st["to_move"] == st["seat"]:
                kind = "draw"
            elif _my_play(st) and page.locator("#suggest:not([disabled])").count():
                kind = "lay-down building"
            elif _my_play(st) and st and st["down"] and any(a["type"] == "lay_off" for a in st["legal"]):
                kind = "lay off"
            elif _my_play(st):
                kind = "discard"
            if kind and kind not in kinds:
                kinds.append(kind)
                if kind == "lay-down building":  # the suggested melds, staged
                    page.click("#suggest")
                    page.wait_for_selector("#staging .group")
                elif kind in ("lay off", "discard"):  # one card selected: the buttons it enables
                    wanted = {a["card"] for a in st["legal"] if a["type"] == kind.replace(" ", "_")}  # type: ignore[index]
                    key = next((h["key"] for h in page.evaluate(HAND_JS) if h["card"] in wanted), None)
                    if key is None:  # (the page moved on since the look: look again)
                        kinds.remove(kind)
                        continue
                    if not click_card(page, key):  # (it left the hand meanwhile)
                        kinds.remove(kind)
                        continue
                _in_each_language(page, kind, found, seen)
                if kind == "lay-down building":
                    page.click("#lay-down")
                    page.wait_for_function("() => window.__lv.view.laid_down[0] || "
                                           "document.querySelector('#dialog[open] .choice')")
                if kind == "game over":
                    break
                continue
            if kind == "round summary":
                try:
                    page.click("#close-summary", timeout=3000)
                except PlaywrightTimeout:  # the game's standings came over it: the next look
                    assert page.locator("#standings").count()
                continue
            if "lay-down building" not in kinds and page.locator("#suggest:not([disabled])").count() \
                    and not page.locator("#dialog[open]").count():
                continue  # (a lay-down to check first: the next look takes it, not step())
            n = st["n"] if st else -1
            if step(page, stats) is None:
                page.wait_for_timeout(60)
            else:  # the answer, before the next look
                page.wait_for_function(f"() => window.__lv.n > {n} || window.__lv.pickMeld || "
                                       "document.querySelector('#dialog[open], #staging')", timeout=5000)
    # (the first game, unless a slow machine walked it past its deadline first)
    assert over is not None, f"no game was seen to its end: {codes}"
    code = over
    for lang in LANGS:  # (the language is switched with the list closed: a modal dialog)
        _in_each_language(page, "", [], [], only=lang)
        page.keyboard.press("?")
        expect(page.locator("#dialog .keys-table")).to_be_visible()
        _in_each_language(page, "the list of shortcuts", found, seen, only=lang)
        page.keyboard.press("Escape")
    assert not missing(), f"decision kinds never reached in the games: {missing()} (seen: {kinds})"

    page.goto(f"/replay/{code}")
    page.wait_for_selector("#replay-next")
    page.click("#replay-next")
    _in_each_language(page, "replay", found, seen)
    page.goto("/games")
    page.wait_for_selector(f"a[href*='{code}']")
    _in_each_language(page, "finished games", found, seen)
    page.goto("/pad")
    page.wait_for_selector("#pad-form")
    _in_each_language(page, "new score pad", found, seen)
    for i, name in enumerate(["Kari", "Ola", "Per"]):
        page.fill(f"input[name=player{i}]", name)
    page.click("#start-pad")
    page.wait_for_url(re.compile(r"/pad/[A-Z0-9]{8}$"))
    page.wait_for_selector("#points-form")
    _in_each_language(page, "score pad", found, seen)
    page.click("#mode-cards")
    page.click("#picker [data-card='KS']")
    _in_each_language(page, "score pad, counting cards", found, seen)
    assert len(seen) == 14 * len(LANGS), seen
    assert not found, "axe-core found:\n" + "\n".join(found)


COUNT_POINTER_JS = """() => {
  window.__pointer = [];
  const note = (e) => {
    if (e.type.startsWith("pointer") ? e.pointerType === "mouse" : true) window.__pointer.push(e.type);
  };
  for (const type of ["pointerdown", "pointerup", "pointermove", "mousedown", "mouseup", "mousemove",
                      "touchstart", "touchend"]) document.addEventListener(type, note, true);
}"""
FOCUSED_JS = """() => { const a = document.activeElement;
  return {id: a.id, card: a.dataset ? a.dataset.card || null : null, hand: a.classList.contains('hand-card'),
          tag: a.tagName, meld: a.classList.contains('meld-btn')}; }"""


def _focused(page: Page) -> dict[str, Any]:
    return dict(page.evaluate(FOCUSED_JS))


def _key_to_card(page: Page, card: str) -> bool:
    """From the hand, move the focus by the arrow keys to ``card`` and select it
    with Space (False: the card is no longer in the hand, the state read was a
    step behind the page: look again)."""
    if card not in [h["card"] for h in page.evaluate(HAND_JS)]:
        page.wait_for_timeout(60)
        return False
    page.keyboard.press("h")
    page.keyboard.press("Home")
    for _ in range(40):
        f = _focused(page)
        assert f["hand"], f"the focus left the hand: {f}"
        if f["card"] == card:
            page.keyboard.press("Space")
            page.wait_for_function(
                "() => document.activeElement.getAttribute('aria-pressed') === 'true'", timeout=5000)
            return True
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"{card} not reached by the arrow keys")


def test_a_key_press_on_a_card_survives_an_update_while_the_key_is_down(
        pages: Pages, server: str) -> None:
    """Space and Enter select the focused card as the key goes down: an update
    that re-renders the hand before the key comes up (here the hand's sort)
    loses no press, as the button's own click at Space's release would."""
    page = pages.new(width=1280, height=800, locale="en-GB")
    seat_table(page, server)
    page.keyboard.press("h")
    page.keyboard.press("Home")
    key = page.evaluate("() => document.activeElement.dataset.key")
    assert key, _focused(page)
    pressed = f"document.querySelector('[data-key=\"{key}\"]').getAttribute('aria-pressed')"
    for name, want in (("Space", "true"), ("Enter", "false")):
        order = page.evaluate("() => [...document.querySelectorAll('.hand-card')]"
                              ".map((b) => b.dataset.key).join()")
        page.keyboard.down(name)
        page.evaluate("() => document.getElementById('sort-btn').click()")  # (a re-render)
        assert page.evaluate("() => [...document.querySelectorAll('.hand-card')]"
                             ".map((b) => b.dataset.key).join()") != order, "no re-render"
        page.keyboard.up(name)
        assert page.evaluate(f"() => {pressed}") == want, f"{name} was lost"
        assert page.evaluate("() => document.activeElement.dataset.key") == key


def test_space_on_a_button_survives_an_update_while_the_key_is_down(
        pages: Pages, server: str) -> None:
    """A button of the table (here "draw from the stock") acts as Space goes
    down: a re-render that replaces the button before the key comes up (the
    hand's sort here, another seat's move in play) loses no press."""
    page = pages.new(width=1280, height=800, locale="en-GB")
    seat_table(page, server, window_seconds=60)
    page.wait_for_function("() => document.activeElement.id === 'draw-stock'", timeout=60_000)
    n = page.evaluate("window.__lv.n")
    page.evaluate("() => { window.__pressed = document.activeElement; }")
    page.keyboard.down("Space")
    page.evaluate("() => document.getElementById('sort-btn').click()")  # (a re-render)
    assert page.evaluate("() => !window.__pressed.isConnected"), "the button was not replaced"
    page.keyboard.up("Space")
    page.wait_for_function(f"() => window.__lv.n > {n} && window.__lv.view.phase === 'play' "
                           "&& window.__lv.view.turn_player === window.__lv.seat", timeout=60_000)


def test_space_that_opens_a_dialog_leaves_it_open(pages: Pages, server: str) -> None:
    """Space opens the menu, and in it the shortcuts' list, as the key goes
    down; its release, on the close button that then has the focus, closes
    neither."""
    page = pages.new(width=375, height=667, locale="en-GB")
    seat_table(page, server, window_seconds=60)
    page.wait_for_function("() => document.activeElement.id === 'draw-stock'", timeout=60_000)
    page.focus("#menu-btn")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.activeElement.id === 'close-menu'")
    page.wait_for_timeout(200)  # (a click at the release would come now)
    assert page.locator("#keys-btn").is_visible(), "the menu closed at Space's release"
    page.focus("#keys-btn")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.activeElement.id === 'keys-close'")
    page.wait_for_timeout(200)
    assert page.evaluate("() => document.getElementById('dialog').open"), \
        "the shortcuts' list closed at Space's release"


def test_a_whole_round_by_keyboard_only(pages: Pages, server: str) -> None:
    """Draw, lay down, lay off, buy, discard and the round summary with keys
    alone (a second round when the player was not down in the first); the
    focus is on the new decision when one comes and on the hand after each
    action; no mouse event at all."""
    page = pages.new(width=1280, height=800, locale="en-GB")
    page.add_init_script(f"({COUNT_POINTER_JS})()")
    seat_table(page, server, options=LONGER_ROUNDS, window_seconds=60)
    did: list[str] = []
    focus_checks = {"draw": 0, "hand after draw": 0, "hand after discard": 0, "summary": 0}
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if page.locator("#round-summary").count():  # the end of a round
            if "lay down" in did or state(page)["round"] >= 3:  # type: ignore[index]
                break
            page.wait_for_function("() => document.activeElement.id === 'close-summary'")
            page.keyboard.press("Enter")  # not down yet in round 1: round 2 too
            page.wait_for_function("() => !document.querySelector('#round-summary')")
            continue
        st = state(page)
        if page.locator("#dialog[open] .choice").count():
            page.keyboard.press("Enter")  # the first way (the dialog's focus is on it)
            did.append("choice")
        elif page.locator("#buy-prompt #pass-btn").count():
            # (the prompt seen may be a window that has just closed, or the first
            # window of the next round, which comes with the last round's summary:
            # the summary has the focus first; then look again)
            try:
                page.wait_for_function("() => !document.querySelector('#buy-prompt #pass-btn') || "
                                       "document.querySelector('#round-summary') || "
                                       "['buy-btn', 'pass-btn'].includes(document.activeElement.id)")
            except PlaywrightTimeout:
                where = page.evaluate("() => [document.activeElement.outerHTML.slice(0, 120), "
                                      "window.__lv.view.phase, document.querySelector('#dialog').open]")
                raise AssertionError(f"a buy window without the focus: {where}; the last moves: "
                                     f"{did[-10:]}") from None
            if not page.locator("#buy-prompt #pass-btn").count() or page.locator("#round-summary").count():
                continue
            buy = page.locator("#buy-btn").count() > 0 and "buy" not in did
            n = page.evaluate("window.__lv.n")
            page.keyboard.press("b" if buy else "p")
            did.append("buy" if buy else "pass")
            page.wait_for_function(f"() => !document.querySelector('#buy-prompt') || window.__lv.n > {n}")
        elif st and st["phase"] == "draw" and st["to_move"] == st["seat"] and st["legal"]:
            page.wait_for_function("() => document.activeElement.id === 'draw-stock' || "
                                   "document.querySelector('#round-summary')")
            if page.locator("#round-summary").count():
                continue  # (the new round's first turn came with the summary: it has the focus first)
            focus_checks["draw"] += 1
            n = st["n"]
            page.keyboard.press("s")
            # (the others may buy the upcard first): then the card drawn, and the focus on the hand
            page.wait_for_function(f"() => window.__lv.n > {n} && window.__lv.view.phase === 'play' "
                                   "&& window.__lv.view.turn_player === window.__lv.seat")
            page.wait_for_function("() => document.activeElement.classList.contains('hand-card')")
            focus_checks["hand after draw"] += 1
            did.append("draw")
        elif _my_play(st) and st:
            legal = st["legal"]
            if page.locator("#suggest:not([disabled])").count():
                page.keyboard.press("g")
                page.wait_for_selector("#staging .group")
                page.keyboard.press("l")
                page.wait_for_function("() => window.__lv.view.laid_down[0] || "
                                       "document.querySelector('#dialog[open] .choice')")
                did.append("lay down")
                continue
            offs = [a for a in legal if a["type"] == "lay_off"]
            if offs:
                if not _key_to_card(page, offs[0]["card"]):
                    continue
                n = st["n"]
                page.keyboard.press("o")
                page.wait_for_function(f"() => window.__lv.pickMeld || window.__lv.n > {n} || "
                                       "document.querySelector('#dialog[open] .choice')")
                if page.evaluate("() => !!window.__lv.pickMeld"):
                    assert _focused(page)["meld"], "the focus is not on a meld to lay off on"
                    page.keyboard.press("Enter")
                did.append("lay off")
                page.wait_for_function(f"() => window.__lv.n > {n} || "
                                       "document.querySelector('#dialog[open] .choice')")
                continue
            discards = [a["card"] for a in legal if a["type"] == "discard"]
            card = loneliest(discards, [h["card"] for h in page.evaluate(HAND_JS)]) or discards[-1]
            if not _key_to_card(page, card):
                continue
            n = st["n"]
            page.keyboard.press("d")
            page.wait_for_function(f"() => window.__lv.n > {n}")
            # on the hand, unless a new decision (a buy, the summary) has come already
            page.wait_for_function("() => document.activeElement.classList.contains('hand-card') || "
                                   "['buy-btn', 'pass-btn', 'draw-stock', 'close-summary']"
                                   ".includes(document.activeElement.id)")
            if _focused(page)["hand"]:
                focus_checks["hand after discard"] += 1
            did.append("discard")
        else:
            page.wait_for_timeout(60)
    assert page.locator("#round-summary").count(), f"the round did not end; the last moves: {did[-20:]}"
    page.wait_for_function("() => document.activeElement.id === 'close-summary'")
    focus_checks["summary"] += 1
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#round-summary')")
    assert state(page)["round"] >= 2  # type: ignore[index]
    assert {"draw", "discard", "lay down"} <= set(did), did
    assert all(focus_checks.values()), focus_checks
    pointer = page.evaluate("window.__pointer")
    assert pointer == [], f"mouse or touch events in a keyboard-only round: {sorted(set(pointer))}"


def test_a_whole_round_by_touch_only_on_a_phone(pages: Pages, server: str) -> None:
    """A whole round at 375×667 on a touch screen: taps only, no mouse click;
    the page never scrolls sideways."""
    ctx = pages.browser.new_context(viewport={"width": 375, "height": 667}, has_touch=True,
                                    is_mobile=True, locale="nb-NO", base_url=pages.base)
    ctx.set_default_timeout(15000)
    pages.contexts.append(ctx)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"{e}"))
    pages.pages.append(page)
    page.add_init_script(f"({COUNT_POINTER_JS})()")
    stats: dict[str, Any] = {}
    # (a round in which a bot goes out before Kari could lay down is played
    # again at a new table: at most three)
    for _ in range(3):
        stats["log"] = []
        seat_table(page, server, options=TWO_ROUNDS)
        play_until(page, lambda: page.locator("#round-summary").count() > 0, stats, tap=True)
        press(page, "#close-summary", tap=True)
        page.wait_for_function("() => !document.querySelector('#round-summary')")
        assert state(page)["round"] == 2  # type: ignore[index]
        if "suggest" in stats["log"]:
            break
    done = [d for d in stats["log"] if d]
    assert {"draw", "discard", "suggest"} <= set(done), done
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # the list of shortcut keys is no use without a keyboard: no "?" button
    assert page.locator("#keys-btn").count() == 1
    assert not page.locator("#keys-btn").is_visible()
    events = set(page.evaluate("window.__pointer"))
    assert "touchstart" in events, events
    assert not {"pointerdown", "pointerup"} & events, f"mouse pointer events: {events}"
