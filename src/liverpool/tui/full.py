"""The full-screen terminal game: :class:`~liverpool.tui.app.TerminalGame` in a Textual app.

The game loop runs in a worker thread and talks to the screen through the
hooks of :class:`~liverpool.tui.app.TerminalGame` (``say``, ``show_decision``,
``ask`` ...); the screen sends typed lines back through a queue. The layout
fits 80×24 and grows with the terminal:

- top: the round, the contract, the dealer, the piles;
- left: the players, then the table (scrolls when it is long);
- right: the log (what happened, newest last); in a terminal narrower than
  :data:`NARROW` columns (a phone, a split pane; 40 at least) it goes under
  the table, so that the players and the table keep the whole width;
- bottom, always visible: the hand (each card over its number), the messages,
  the prompt and the input line.

Score sheets, the help and the hand-over between people (pass-and-play) come
as an overlay that Enter (or Escape) closes. Ctrl-C saves and leaves with
status 130.
"""

from __future__ import annotations

import contextlib
import html
import queue
import re
from collections.abc import Mapping, Sequence
from io import StringIO
from typing import Any, ClassVar

from rich.console import Console, Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..bots.base import Bot
from ..engine import Results
from ..rules import Rules
from ..views import SeatView
from .app import MAX_LINE, TerminalGame
from .i18n import tr
from .render import event_text, hand_panel, players_panel, round_line, table_panel

__all__ = ["NARROW", "FullScreenGame", "PlayApp", "Sheet", "svg_text"]

_INTERRUPT = "\x03"  # Ctrl-C, sent through the answer queue
_EOF = "\x04"
_LOG_LINES = 300

#: Below this many columns the log goes under the table (the side log's 36
#: columns would leave the players and the table too little room).
NARROW = 80
#: From this many columns on the side log takes a third of the width.
_WIDE = 110


_SVG_TEXT = re.compile(r'<text [^>]*?x="([\d.]+)" y="[\d.]+" textLength="([\d.]+)" '
                       r'clip-path="url\(#[\w-]+-line-(\d+)\)">([^<]*)</text>')


def svg_text(svg: str, width: int = 80, height: int = 24) -> str:
    """The characters of a screenshot (:meth:`App.export_screenshot`) as plain text lines."""
    grid = [[" "] * width for _ in range(height)]
    found = _SVG_TEXT.findall(svg)
    cell = min((float(w) / len(html.unescape(t)) for _, w, _, t in found if t), default=1.0)
    for x, _, line, text in found:
        row, col = int(line), round(float(x) / cell)
        for i, ch in enumerate(html.unescape(text).replace("\xa0", " ")):
            if row < height and 0 <= col + i < width:
                grid[row][col + i] = ch
    return "\n".join("".join(r).rstrip() for r in grid)


class Sheet(ModalScreen[None]):
    """A long text over the game (score sheet, help, hand-over); Enter or Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", show=False), Binding("escape", "close", show=False),
        Binding("space", "close", show=False)]
    DEFAULT_CSS = """
    Sheet { align: center middle; }
    Sheet > VerticalScroll { width: 100%; height: 100%; padding: 0 1; background: $panel;
                             border: round $accent; }
    """

    def __init__(self, content: RenderableType, footer: str, on_close: Any = None) -> None:
        super().__init__()
        self.content = content
        self.footer = footer
        self.on_close = on_close

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.content, id="sheet-body")
            yield Static(Text(self.footer, style="bold reverse"), id="sheet-footer")

    def action_close(self) -> None:
        self.dismiss(None)
        if self.on_close is not None:
            self.on_close()


class PlayApp(App[Results | None]):
    """The full-screen game. ``make_game(app)`` builds the :class:`FullScreenGame` to run."""

    TITLE = "Liverpool rummy"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", "save and leave", priority=True, show=False),
        Binding("ctrl+q", "interrupt", "save and leave", priority=True, show=False),
        # (end of input, as in the line mode: saved, status 1)
        Binding("ctrl+d", "end_of_input", "save and leave", priority=True, show=False),
    ]
    CSS = """
    Screen { layout: vertical; }
    #head { height: auto; max-height: 3; background: $boost; padding: 0 1; }
    #body { height: 1fr; }
    #left { width: 1fr; }
    #players { height: auto; padding: 0 1; }
    #table { height: 1fr; padding: 0 1; }
    #log { width: 36; border-left: solid $primary-darken-2; padding: 0 0 0 1; }
    #head.-narrow { max-height: 6; }
    #body.-narrow { layout: vertical; }
    #body.-narrow #left { height: auto; max-height: 75%; }
    #body.-narrow #log { width: 1fr; height: 1fr; min-height: 3; border-left: none;
                         border-top: solid $primary-darken-2; padding: 0 1; }
    #hand { height: auto; max-height: 9; background: $boost; padding: 0 1; }
    #message { height: auto; max-height: 8; padding: 0 1; }
    #prompt { height: auto; max-height: 3; padding: 0 1; color: $text-accent; }
    #input { height: 1; border: none; padding: 0 1; background: $surface; }
    """

    def __init__(self, make_game: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.answers: queue.Queue[str] = queue.Queue()
        self.make_game = make_game
        self.game_ui: FullScreenGame | None = None
        self.prompt_text = ""
        self.message_text = ""
        self.sheets = 0  # overlays open
        self.closing = False
        self.log_lines: list[Text] = []
        self._messages: list[RenderableType] = []

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield Static(id="players")
                with VerticalScroll(id="table"):
                    yield Static(id="table-body")
            with VerticalScroll(id="log"):
                yield Static(id="log-body")
        yield Static(id="hand")
        yield Static(Group(), id="message")  # (no line while empty)
        yield Static(id="prompt")
        yield Input(id="input", max_length=MAX_LINE, compact=True)

    def on_mount(self) -> None:
        self._fit(self.size.width)
        self.query_one("#input", Input).focus()
        self.game_ui = self.make_game(self)
        self.run_worker(self._play, thread=True, exit_on_error=False, name="game")

    def on_resize(self, event: events.Resize) -> None:
        with contextlib.suppress(NoMatches):  # (not composed yet)
            self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        """The layout for ``width`` columns: the log beside the table (a third
        of the width from :data:`_WIDE` columns on), or under it below :data:`NARROW`."""
        narrow = width < NARROW
        for name in ("#head", "#body"):
            self.query_one(name).set_class(narrow, "-narrow")
        log = self.query_one("#log")
        log.styles.width = max(36, width // 3) if width >= _WIDE else None
        if not narrow:
            self.query_one("#left").styles.height = None
        self.call_after_refresh(self._size_left)

    def _size_left(self) -> None:
        """Under :data:`NARROW` columns: the players and the table get the lines
        they need (at most three quarters of the space; then the table scrolls),
        the log the rest."""
        if not self.query_one("#body").has_class("-narrow"):
            return
        need = (self.query_one("#players").outer_size.height
                + self.query_one("#table-body").outer_size.height)
        left = self.query_one("#left")
        before = left.styles.height
        left.styles.height = need
        if left.styles.height != before:
            self._log_to_end()

    def on_unmount(self) -> None:
        self.closing = True
        self.answers.put(_EOF)  # the game thread must not wait for a screen that is gone

    def _play(self) -> None:
        assert self.game_ui is not None  # noqa: S101 - narrows the type for mypy
        ui = self.game_ui
        result: Results | None = None
        try:
            result = ui.run()
        finally:
            with contextlib.suppress(RuntimeError):  # (the app may be gone already)
                self.call_from_thread(self.exit, result, ui.exit_status)

    # -------------------------------------------------------- from the person
    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value
        event.input.value = ""
        self.set_message("")
        self.answers.put(value)

    def action_interrupt(self) -> None:
        self.answers.put(_INTERRUPT)

    def action_end_of_input(self) -> None:
        self.answers.put(_EOF)

    # ------------------------------------------------------ from the game
    def set_prompt(self, prompt: str) -> None:
        self.prompt_text = prompt
        self.query_one("#prompt", Static).update(Text(prompt + " >", style="bold"))

    def set_message(self, message: RenderableType, append: bool = False) -> None:
        box = self.query_one("#message", Static)
        if append and self.message_text:
            self._messages.append(message)
        else:
            self._messages = [message] if message != "" else []
        self.message_text = "\n".join(
            m.plain if isinstance(m, Text) else str(m) for m in self._messages)
        box.update(Group(*self._messages))
        self._log_to_end()

    def show_view(self, head: RenderableType, players: RenderableType, table: RenderableType,
                  hand: RenderableType, news: Sequence[Text]) -> None:
        self.query_one("#head", Static).update(head)
        self.query_one("#players", Static).update(players)
        self.query_one("#table-body", Static).update(table)
        self.query_one("#hand", Static).update(hand)
        self.write_log(news)
        self.call_after_refresh(self._size_left)

    def write_log(self, lines: Sequence[Text], clear: bool = False) -> None:
        """Add lines to the log (the newest last, in view); ``clear`` empties it first."""
        if clear:
            self.log_lines = []
        self.log_lines = (self.log_lines + list(lines))[-_LOG_LINES:]
        self.query_one("#log-body", Static).update(Text("\n").join(self.log_lines))
        self._log_to_end()

    def _log_to_end(self) -> None:
        """The newest line of the log in view: now, and again once the new text
        (or a grown message box, which shrinks the log's pane) is laid out."""
        log = self.query_one("#log", VerticalScroll)
        log.scroll_end(animate=False)
        self.call_after_refresh(log.scroll_end, animate=False)

    def show_hand(self, hand: RenderableType) -> None:
        self.query_one("#hand", Static).update(hand)

    def hide(self, notice: RenderableType) -> None:
        """Pass-and-play: nothing private stays on the screen."""
        self.query_one("#hand", Static).update(notice)
        self.write_log([], clear=True)
        self.set_message("")

    def open_sheet(self, content: RenderableType, footer: str, reply: bool) -> None:
        """An overlay; with ``reply`` closing it answers the game's question."""
        self.sheets += 1

        def closed() -> None:
            self.sheets -= 1
            self.query_one("#input", Input).focus()
            if reply:
                self.answers.put("")

        self.push_screen(Sheet(content, footer, closed))


class FullScreenGame(TerminalGame):
    """:class:`TerminalGame` drawn by a :class:`PlayApp` (its hooks run in the app's thread)."""

    def __init__(self, app: PlayApp, rules: Rules, players: int, seat: int,
                 bots: Mapping[int, Bot], seed: int, **kwargs: Any) -> None:
        kwargs.setdefault("clear", False)
        super().__init__(rules, players, seat, bots, seed, self._read,
                         Console(file=StringIO()), **kwargs)
        self.app = app

    def _ui(self, fn: Any, *args: Any) -> None:
        if self.app.closing:
            raise EOFError
        try:
            self.app.call_from_thread(fn, *args)
        except RuntimeError:  # the app has stopped
            raise EOFError from None

    def _read(self, prompt: str) -> str:
        self._ui(self.app.set_prompt, prompt)
        answer = self.app.answers.get()
        if answer == _INTERRUPT:
            raise KeyboardInterrupt
        if answer == _EOF:
            raise EOFError
        return answer

    def _wait(self) -> None:
        """Wait for an overlay to close (a Ctrl-C meanwhile still counts)."""
        self._ui(self.app.set_prompt, tr(self.lang, "press_enter"))
        if self.app.answers.get() == _INTERRUPT:
            raise KeyboardInterrupt

    def say(self, message: RenderableType = "") -> None:
        if message == "":
            return
        self._ui(self.app.set_message, message, True)

    def show_sheet(self, content: RenderableType) -> None:
        self._ui(self.app.open_sheet, content, tr(self.lang, "press_enter"), False)

    def show_hand(self) -> None:
        self._ui(self.app.show_hand, hand_panel(self._view(), self.style, self.group_by,
                                                  self.lang))

    def show_decision(self, news: Sequence[object], view: SeatView) -> None:
        lines: list[Text] = []
        if self.intro is not None:
            lines.append(self.intro)
            self.intro = None
        seat = view.seat
        for e in news:
            line = event_text(e, seat, self.style, self.lang, self.names)
            if getattr(e, "seat", None) == seat:
                line.stylize("bold")
            if getattr(e, "type", None) in ("round_started", "round_over", "game_over"):
                line.stylize("yellow")
            lines.append(Text("· ") + line)
        self._ui(self.app.show_view, round_line(view, self.style, self.names, self.lang),
                   players_panel(view, self.names, self.lang),
                   table_panel(view, self.style, self.names, self.lang, compact=True),
                   hand_panel(view, self.style, self.group_by, self.lang), lines)

    def show_round_end(self, log: RenderableType, sheet: RenderableType,
                       final: RenderableType | None) -> None:
        parts = [log, Text(), sheet] + ([Text(), final] if final is not None else [])
        wait = self.pause or final is not None
        self._ui(self.app.open_sheet, Group(*parts), tr(self.lang, "press_enter"), wait)
        if wait:
            self._wait()

    def handoff(self, seat: int) -> None:
        name = self.names[seat]
        self._ui(self.app.hide, Text(tr(self.lang, "hand_hidden", name=name), style="dim"))
        notice = Text(tr(self.lang, "handoff", name=name) + "\n\n"
                      + tr(self.lang, "prompt_handoff", name=name), style="bold")
        self._ui(self.app.open_sheet, notice, tr(self.lang, "press_enter"), True)
        self._wait()
