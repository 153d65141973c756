"""Hints on the table page (js/table/hints.js) in Chromium: a table made in
the lobby with hints on shows "hints on"; at the player's draw the Hint button
brings the server's sentence beside the decision (one of the legal actions,
its card marked), the next version takes it away, and after the draw a hint
for the discard marks a card of the hand; no JavaScript errors."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import create_table, state, words

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
