"""Make docs/images/table-*.png: the table page at each decision kind, on a phone
(375×667, in Norwegian) and on a desktop (1280×800, in English).

    python docs/images/make_table_screenshots.py

It starts ``liverpool serve`` on a free port with a fresh data folder, opens
Debian's Chromium through Playwright (``$LIVERPOOL_CHROMIUM`` or
``/usr/bin/chromium``) and walks one table as tests/test_browser_layout.py
does (Kari against a bot, and Ola on another page who discards into her call
window): at the first draw, buy, lay-down being built, lay off, joker swap,
discard, call, round summary and game over, one screenshot at each size.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent / "tests"))

from browser_support import CHROMIUM, state  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_browser_layout import (  # noqa: E402
    KINDS,
    RULES,
    SETTLED_JS,
    current_kind,
    helper_step,
    set_auto_pass,
    set_lang,
    settled_step,
)

#: (size, language) of the two screenshots of each decision kind
SHOTS = [((375, 667), "nb", "phone"), ((1280, 800), "en", "desktop")]


def shoot(page: Any, kind: str) -> None:
    # (a toast of the walk's own, as "too many messages", gone first)
    page.wait_for_function("() => document.getElementById('toast').hidden", timeout=10000)
    for (width, height), lang, name in SHOTS:
        if page.evaluate("document.documentElement.lang") != lang:
            set_lang(page, lang)
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        page.wait_for_function(SETTLED_JS)
        page.mouse.move(width / 2, 1)  # (no hover left on a link or a button)
        page.screenshot(path=str(HERE / f"table-{kind.replace('_', '-')}-{name}.png"))
    set_lang(page, SHOTS[0][1])
    page.set_viewport_size({"width": SHOTS[0][0][0], "height": SHOTS[0][0][1]})


def walk(base: str) -> list[str]:
    made = httpx.post(f"{base}/api/tables", json={
        "options": RULES, "name": "Kari", "lang": "nb", "wait": False,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "human"}]}).json()
    code = made["code"]
    ola = httpx.post(f"{base}/api/tables/{code}/join", json={"name": "Ola", "lang": "en"}).json()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_context(viewport={"width": 375, "height": 667}, locale="nb-NO",
                                   base_url=base).new_page()
        page.goto(f"/t/{code}#seat={made['token']}")
        page.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 0")
        other = browser.new_context(locale="en-GB", base_url=base).new_page()
        other.goto(f"/t/{code}#seat={ola['token']}")
        other.wait_for_function("() => window.__lv && window.__lv.view && window.__lv.seat === 2")
        set_auto_pass(other)
        seen: set[str] = set()
        stats: dict[str, Any] = {"check": True, "drag": True}
        other_stats: dict[str, Any] = {"check": True, "drag": True}
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and len(seen) < len(KINDS):
            kind = current_kind(page, state(page), seen)
            if kind is not None and kind not in seen:
                shoot(page, kind)
                seen.add(kind)
                if kind == "buy":
                    set_auto_pass(page)
            if kind == "lay_down":
                page.click("#clear")
            if kind == "game_over":
                break
            if kind == "summary":
                page.click("#close-summary")
            elif settled_step(page, stats) is None \
                    and settled_step(other, other_stats, helper_step) is None:
                page.wait_for_timeout(30)
            other_stats["called"] = "call" in seen
        browser.close()
    return [k for k in KINDS if k not in seen]


def main() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(  # noqa: S603 - our own server, from this Python
            [sys.executable, "-c", "from liverpool.cli import main; main()", "serve",
             "--port", str(port), "--data", data, "--bot-delay", "0.05"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(100):
                try:
                    httpx.get(f"{base}/healthz")
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            missing = walk(base)
        finally:
            server.terminate()
            server.wait(10)
    if missing:
        sys.exit(f"not reached this time (run again): {', '.join(missing)}")


if __name__ == "__main__":
    main()
