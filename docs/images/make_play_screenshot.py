"""Make docs/images/play-80x24.svg and its text capture (docs/play.md) with Textual's pilot.

    LIVERPOOL_RUMMY_SAVES=$(mktemp -d) python docs/images/make_play_screenshot.py

It plays a liverpool game (4 players, seed 12, medium bots) at 80×24: draw,
pass every buy, discard the first card, until the table holds melds; then it
saves the screen as SVG and prints it as text.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from liverpool import load_rules
from liverpool.bots import make_bot
from liverpool.tui.full import FullScreenGame, PlayApp, svg_text

HERE = Path(__file__).parent


def main() -> None:
    rules = load_rules("liverpool")
    bots = {s: make_bot("medium", rules, seed=120 + s) for s in (1, 2, 3)}

    def make(app: PlayApp) -> FullScreenGame:
        return FullScreenGame(app, rules, 4, 0, bots, 12, symbols=True,
                              names=["Kari", "Medium 2", "Medium 3", "Medium 4"])

    app = PlayApp(make)

    async def play() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                await pilot.pause(0.02)
                ui = app.game_ui
                prompt = app.prompt_text
                if not prompt or ui is None:
                    continue
                if "Your turn" in prompt and len(ui.game.table) >= 4:
                    break
                app.prompt_text = ""
                if "Your turn" in prompt:
                    await pilot.press("d", "enter")
                elif "Play:" in prompt:
                    await pilot.press(*"x 1", "enter")
                elif "Enter" in prompt:
                    await pilot.press("enter")
                else:
                    await pilot.press("p", "enter")
            svg = app.export_screenshot(title="liverpool play (80×24)")
            await pilot.press("ctrl+c")
        return svg

    svg = asyncio.run(play())
    (HERE / "play-80x24.svg").write_text(svg, encoding="utf-8")
    sys.stdout.write(svg_text(svg) + "\n")


if __name__ == "__main__":
    main()
