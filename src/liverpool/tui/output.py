"""What the terminal game shows and asks in the line mode, and the texts it shows.

:class:`LineScreen` is the screen of :class:`~liverpool.tui.app.TerminalGame`:
it writes to a Rich console and reads answers through an ``input_fn(prompt)``;
the full-screen app (:mod:`liverpool.tui.full`) overrides its hooks (``say``,
``show_sheet``, ``show_decision``, ``show_round_end``, ``handoff``). The
functions build the texts both screens show: the prompt of a decision, the
help, the final totals, and the words of melds and moves.

>>> from liverpool import Game, load_rules
>>> rules = load_rules("liverpool")
>>> view = Game(rules, players=3, seed=1).view(0)
>>> prompt_text(view, rules, "en", CardStyle(rules, False))
'Your turn: d = draw from the stock, t = take 6C (help = all commands)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console, ConsoleOptions, RenderableType
from rich.text import Text

from ..actions import Action, Discard, Draw, LayOff, SwapJoker
from ..cards import Card
from ..engine import Results
from ..i18n import render
from ..melds import Meld
from ..rules import Rules
from ..views import SeatView
from .commands import QuitGame, clip
from .i18n import tr
from .render import CardStyle, Fitted, hanging, log_lines, screen

__all__ = ["HELP_ROWS", "InputFn", "LineScreen", "call_word", "final_text", "help_text",
           "meld_words", "move_words", "prompt_text"]

#: Reads one line from the person; the argument is the prompt (plain text).
InputFn = Callable[[str], str]

#: The rows of ``help``: the keys of the command (``help_cmd_...``) and of its text (``help_...``).
HELP_ROWS: tuple[str, ...] = (
    "draw", "take", "buy", "pass", "lay", "lay_again", "suggest", "off", "swap", "discard",
    "call", "cut", "sort", "hand", "table", "score", "help", "quit",
)


def call_word(rules: Rules, lang: str) -> str:
    """The name of the ruleset's call: "Shanghai!" or "Liverpool!" (in ``lang``)."""
    return tr(lang, "call_shanghai" if rules.discard_call == "shanghai" else "call_liverpool")


def prompt_text(view: SeatView, rules: Rules, lang: str, style: CardStyle) -> str:
    """The prompt of the seat's decision: what it may do now (and ``help``)."""
    legal = view.legal_actions
    hint = tr(lang, "help_hint")
    top = view.offered_card
    top_word = style.word(top) if top is not None else ""
    if view.phase == "draw":
        parts = [tr(lang, "prompt_draw")]
        if Draw("discard") in legal and top is not None:
            parts.append(tr(lang, "prompt_take", card=top_word))
        return ", ".join(parts) + f" ({hint})"
    if view.phase == "buy":
        text = tr(lang, "prompt_buy", card=top_word, n=rules.buy_penalty_cards)
        if view.buy_limit is not None and view.seat is not None:
            text += " (" + tr(lang, "prompt_buys_left", used=view.buys[view.seat],
                              limit=view.buy_limit) + ")"
        return text
    if view.phase == "call":
        return tr(lang, "prompt_call", card=top_word, call=call_word(rules, lang))
    if view.phase == "cut":
        return tr(lang, "prompt_cut", max=view.stock_size - 1)
    parts = []
    if view.seat is not None and not view.laid_down[view.seat]:
        parts.append(tr(lang, "prompt_lay"))
    if any(isinstance(a, LayOff) for a in legal):
        parts.append(tr(lang, "prompt_off"))
    if any(isinstance(a, SwapJoker) for a in legal):
        parts.append(tr(lang, "prompt_swap"))
    if any(isinstance(a, Discard) for a in legal) or not view.hand:
        parts.append(tr(lang, "prompt_discard"))
    return tr(lang, "prompt_play") + " " + ", ".join(parts) + f" ({hint})"


def help_text(lang: str) -> Fitted:
    """The ``help`` sheet: every command and what it does, then how to type cards.
    The commands stand in a column; where that leaves the texts too little room
    (a narrow terminal), each text follows its command, indented under it."""
    rows = [(tr(lang, f"help_cmd_{key}"), tr(lang, f"help_{key}")) for key in HELP_ROWS]
    width = max(len(cmd) for cmd, _ in rows)

    def layout(console: Console, options: ConsoleOptions) -> Text:
        out = Text(tr(lang, "help_title"), style="bold")
        narrow = options.max_width - width - 4 < _HELP_TEXT_ROOM
        for cmd, text in rows:
            out.append("\n")
            if narrow:
                head = Text("  ") + Text(cmd, style="bold cyan") + Text("  ")
                out.append_text(hanging(head, [Text(w) for w in text.split()],
                                        options.max_width, indent=6))
                continue
            out.append("  ")
            out.append(f"{cmd:<{width}}", style="bold cyan")
            out.append("  " + text)
        out.append("\n" + tr(lang, "help_cards"))
        return out

    return Fitted(layout)


#: The least room for the texts beside the column of commands in ``help``.
_HELP_TEXT_ROOM = 30


def final_text(results: Results, names: Sequence[str], lang: str) -> Text:
    """The final totals and the winner."""
    who = ", ".join(names[w] for w in results.winners)
    key = "winner" if len(results.winners) == 1 else "shared_win"
    out = Text()
    out.append(tr(lang, "final_totals") + ": " + ", ".join(
        f"{names[s]} {t}" for s, t in enumerate(results.totals)), style="bold")
    out.append("\n")
    out.append(tr(lang, key, who=who), style="bold green")
    return out


def meld_words(meld: Meld, lang: str, style: CardStyle) -> str:
    """A meld as the question "where does the joker go" lists it (a run with the
    cards its ends stand for)."""
    what = tr(lang, meld.kind)
    cards = " ".join(style.word(c) for c in meld.cards)
    if meld.kind == "run":
        first, last = meld.stands_for(0), meld.stands_for(len(meld.cards) - 1)
        if first is not None and last is not None:
            return f"{what} {cards}  ({style.word(first)}..{style.word(last)})"
    return f"{what} {cards}"


def move_words(action: Action, lang: str, style: CardStyle, names: Sequence[str]) -> str:
    """The command that makes ``action`` (``off 9H 2 low``; nb ``på 9H 2 lav``)."""
    card = getattr(action, "card", None)
    word = style.word(card) if isinstance(card, Card) else ""
    if isinstance(action, LayOff):
        key = {None: "move_off", "low": "move_off_low", "high": "move_off_high"}[action.end]
        return tr(lang, key, card=word, number=action.meld + 1)
    if isinstance(action, SwapJoker):
        return tr(lang, "move_swap", card=word, number=action.meld + 1)
    return render(action, lang, names, symbols=style.symbols)


class LineScreen:
    """The line mode's screen: messages and sheets printed on ``console``, answers
    read through ``input_fn``. ``clear`` clears the screen before each decision;
    ``pause`` waits for Enter after each score sheet; ``echo`` writes every answer
    after its prompt (for transcripts of scripted games)."""

    def __init__(self, console: Console, input_fn: InputFn, lang: str, style: CardStyle,
                 names: Sequence[str], *, clear: bool = False, pause: bool = True,
                 echo: bool = False) -> None:
        self.console = console
        self.input_fn = input_fn
        self.lang = lang
        self.style = style
        self.names = list(names)
        self.clear = clear
        self.pause = pause
        self.echo = echo
        self.group_by = "suit"
        self.intro: Text | None = None  # the game's first line, shown at the first decision

    def say(self, message: RenderableType = "") -> None:
        """A message under the screen (a refusal, an answer to a command)."""
        self.console.print(message)

    def refuse(self, message: str) -> None:
        """A refusal: the message in red, its cards as the screen shows them."""
        line = Text("✗ ", style="red")
        line.append_text(self.style.in_words(message))
        line.stylize("red", 0, 2)
        self.say(line)

    def show_sheet(self, content: RenderableType) -> None:
        """A long text: the help, the score sheet."""
        self.console.print(content)

    def show_decision(self, news: Sequence[object], view: SeatView) -> None:
        """The screen at a person's decision: what happened, then the table and the hand."""
        if self.clear:
            self.console.clear()
        if self.intro is not None:  # shown once, after the first clear
            self.say(self.intro)
            self.intro = None
        if news:
            self.say(log_lines(news, view.seat, self.style, self.lang, self.names))
            self.say()
        for part in screen(view, self.style, self.names, self.lang, self.group_by):
            self.say(part)
        self.say()

    def show_round_end(self, log: RenderableType, sheet: RenderableType,
                       final: RenderableType | None) -> None:
        """After a round: what happened, the score sheet (and at the end the winner);
        waits for Enter between rounds."""
        self.say(log)
        self.say()
        self.say(sheet)
        if final is not None:
            self.say(final)
        elif self.pause:
            self.ask(tr(self.lang, "prompt_continue"))

    def handoff(self, seat: int) -> None:
        """Pass-and-play: hide the screen and wait for the next person."""
        if self.clear:
            self.console.clear()
        self.say(Text(tr(self.lang, "handoff", name=self.names[seat]), style="bold yellow"))
        self.ask(tr(self.lang, "prompt_handoff", name=self.names[seat]))
        if self.clear:
            self.console.clear()

    def ask(self, prompt: str) -> str:
        """The person's answer to ``prompt`` (the end of input quits the game)."""
        try:
            answer = self.input_fn(prompt)
        except EOFError:
            raise QuitGame(1) from None
        if self.echo:
            self.console.print(Text(f"{prompt} > {clip(answer, 60)}", style="dim"))
        return answer
