"""The terminal game loop: people against bots, by typed commands.

:func:`run_game` plays a whole game. It reads the people's input through an
``input_fn(prompt) -> str`` and writes to a Rich console, so tests can script
it (the *line mode*); :mod:`liverpool.tui.full` runs the same loop in a
full-screen Textual app. It uses only the public engine API:
:class:`~liverpool.engine.Game`, its views, legal actions, ``apply``,
``copy``, ``suggest_lay_down``, ``record`` and the meld functions of
:mod:`liverpool.melds`. Nothing the engine refuses changes the game; every
refusal is shown with its reason.

Seats without a bot are people (pass-and-play when there are several: the
hand is hidden between them and the next one is asked to take the screen).

>>> from io import StringIO
>>> from rich.console import Console
>>> from liverpool import load_rules
>>> from liverpool.bots import make_bot
>>> rules = load_rules("liverpool", contracts=["SS"], deal=[10])
>>> bots = {s: make_bot("random", rules, seed=s) for s in (1, 2)}
>>> answers = iter(["help", "x 9X", "quit", "y"])
>>> out = StringIO()
>>> run_game(rules, 3, 0, bots, 5, lambda prompt: next(answers),
...          Console(file=out, width=100)) is None
True
>>> "is not a card" in out.getvalue(), "Game abandoned." in out.getvalue()
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from rich.console import Console, Group, RenderableType
from rich.text import Text

from ..actions import (
    Action,
    ActionError,
    Buy,
    Call,
    Cut,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    SwapJoker,
)
from ..bots.base import Bot
from ..cards import Card, CardError
from ..engine import Game, Results
from ..errors import GameError
from ..i18n import reason, render
from ..melds import Meld, arrange_meld, can_lay_off, meld_error
from ..rules import Rules
from ..views import SeatView
from .cardwords import is_card_number, parse_card_word
from .i18n import ENDS, bot_level, contract_words, parse_command, tr
from .render import CardStyle, hand_panel, log_lines, score_table, screen, shown_hand
from .saves import write_save

__all__ = ["AUTO_PASS", "MAX_LINE", "InputFn", "QuitGame", "Refused", "TerminalGame", "bot_name",
           "clip", "default_names", "run_game"]

#: Reads one line from the person; the argument is the prompt (plain text).
InputFn = Callable[[str], str]

#: The auto-pass settings of buys: never, when the card does not help, always.
AUTO_PASS = ("off", "useless", "always")

#: The longest line read as a command; anything typed is echoed at most this long.
MAX_LINE = 2000
_ECHO = 24
_YES = ("y", "yes", "j", "ja")


class QuitGame(Exception):
    """The person left the game: ``quit`` (status 0) or the end of input (status 1)."""

    def __init__(self, status: int = 0) -> None:
        super().__init__(status)
        self.status = status


class Refused(Exception):
    """An input the game cannot accept; the message says why, in plain words."""


#: The rows of ``help``: the keys of the command (``help_cmd_...``) and of its text (``help_...``).
_HELP_ROWS: tuple[str, ...] = (
    "draw", "take", "buy", "pass", "lay", "lay_again", "suggest", "off", "swap", "discard",
    "call", "cut", "sort", "hand", "table", "score", "help", "quit",
)


def clip(text: str, limit: int = _ECHO) -> str:
    """``text`` cut to ``limit`` characters (with ``…`` when cut): typed text in messages."""
    text = " ".join(text.split()) if len(text) < 10 * limit else text[:10 * limit]
    return text if len(text) <= limit else text[:limit - 1] + "…"


def bot_name(lang: str, kind: str, seat: int) -> str:
    """A bot's name for people: its level and its seat (``Medium 3``, ``Middels 3``)."""
    level = bot_level(lang, kind)
    return f"{level[:1].upper()}{level[1:]} {seat + 1}"


def default_names(lang: str, players: int, humans: Sequence[int],
                  bots: Mapping[int, Bot]) -> list[str]:
    """``Seat 1 (you)`` for one person, ``Player 1``, ``Player 2`` ... for several; bots
    by level (:func:`bot_name`)."""
    names = []
    for s in range(players):
        if s in bots:
            names.append(bot_name(lang, bots[s].name, s))
        elif len(humans) == 1:
            names.append(tr(lang, "seat", n=s + 1) + f" ({tr(lang, 'you')})")
        else:
            names.append(tr(lang, "player_n", n=list(humans).index(s) + 1))
    return names


class TerminalGame:
    """One game in the terminal: people at the seats without a bot, ``bots`` elsewhere.

    ``seat`` (0-based) is a person's seat (the first to be shown). ``names``
    labels the seats (default :func:`default_names`). ``clear`` clears the
    screen before each decision (useful in a real terminal); ``pause`` waits for
    Enter after each score sheet; ``echo`` writes every answer after its prompt
    (for transcripts of scripted games). ``game`` continues a game (a resumed
    save) instead of dealing a new one. ``auto_pass`` (:data:`AUTO_PASS`)
    answers buy offers by itself; ``warn_calls`` asks before a discard that
    fits the table (a "Liverpool!"/"Shanghai!" call may punish it).
    ``save_path`` is written after every action, with ``save_meta``.
    """

    def __init__(self, rules: Rules, players: int, seat: int, bots: Mapping[int, Bot],
                 seed: int, input_fn: InputFn, console: Console, *, symbols: bool = True,
                 lang: str = "en", names: Sequence[str] | None = None, clear: bool = False,
                 pause: bool = True, echo: bool = False, game: Game | None = None,
                 auto_pass: str = "off", warn_calls: bool = False,
                 save_path: str | Path | None = None,
                 save_meta: dict[str, Any] | None = None) -> None:
        self.game = game if game is not None else Game(rules, players, seed)
        humans = [s for s in range(players) if s not in bots]
        if seat not in humans:
            raise ValueError(f"seat {seat + 1} must be a person's seat (1 to {players}, no bot)")
        if auto_pass not in AUTO_PASS:
            raise ValueError(f"auto_pass must be one of {', '.join(AUTO_PASS)}")
        self.rules = rules
        self.seat = seat
        self.humans = humans
        self.bots = dict(bots)
        self.input_fn = input_fn
        self.console = console
        self.lang = lang
        self.style = CardStyle(rules, symbols)
        self.clear = clear
        self.pause = pause
        self.echo = echo
        self.auto_pass = auto_pass
        self.warn_calls = warn_calls
        self.save_path = Path(save_path) if save_path is not None else None
        self.save_meta = dict(save_meta or {})
        self.names = list(names) if names is not None else default_names(
            lang, players, humans, self.bots)
        self.group_by = "suit"
        # the events each person has been shown (sequence numbers): from this round on
        start = max((e.seq for e in self.game.events if getattr(e, "type", "") ==
                     "round_started"), default=0)
        self.seen: dict[int, int] = dict.fromkeys(humans, start)
        self.shown: int | None = None  # the person whose hand is on the screen
        self.rounds_shown = len(self.game.results().round_scores)
        self.suggestion: LayDown | None = None
        self.choices: list[str] = []  # the options of the last question (for scripts)
        self.exit_status = 0
        self.intro: Text | None = None  # the game's first line, shown at the first decision

    # ------------------------------------------------------------------ running
    def run(self) -> Results | None:
        """Play until the game is over (the results) or a person stops (None;
        :attr:`exit_status` is 0 after ``quit``, 1 at the end of input, 130 after Ctrl-C)."""
        game = self.game
        lang = self.lang
        if len(self.humans) == 1:
            self.intro = Text(tr(lang, "game_start", rules=self.rules.name,
                                 players=game.num_players, seed=game.seed,
                                 you=self.names[self.seat]), style="bold")
        else:
            self.intro = Text(tr(lang, "game_start_many", rules=self.rules.name,
                                 seed=game.seed, names=", ".join(self.names)), style="bold")
        try:
            while not game.is_over:
                mover = game.to_move
                assert mover is not None
                if mover in self.bots:
                    self._bot_decision()
                elif not self._auto_answer(mover):
                    self._human_decision(mover)
                self._save()
                self._after_action()
        except KeyboardInterrupt:
            self._stopped(130)
            return None
        except QuitGame as q:
            self._stopped(q.status)
            return None
        self._save()
        return game.results()

    def _stopped(self, status: int) -> None:
        self.exit_status = status
        self._save()
        self.say()
        self.say(Text(tr(self.lang, "abandoned"), style="bold"))
        if self.save_path is not None:
            self.say(tr(self.lang, "saved_resume"))
            self.console.print(Text(tr(self.lang, "saved_in", path=str(self.save_path)),
                                    style="dim"), soft_wrap=True)

    def _save(self) -> None:
        if self.save_path is None:
            return
        try:
            write_save(self.save_path, self.game, self.save_meta)
        except OSError as e:
            self.say(Text(tr(self.lang, "save_failed", path=str(self.save_path),
                             reason=e.strerror or str(e)), style="red"))
            self.save_path = None

    # ------------------------------------------------ what the screen does
    # (the full-screen app overrides these)
    def say(self, message: RenderableType = "") -> None:
        """A message under the screen (a refusal, an answer to a command)."""
        self.console.print(message)

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
            self.say(log_lines(news, view.seat if view.seat is not None else self.seat,
                               self.style, self.lang, self.names))
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
        try:
            answer = self.input_fn(prompt)
        except EOFError:
            raise QuitGame(1) from None
        if self.echo:
            self.console.print(Text(f"{prompt} > {clip(answer, 60)}", style="dim"))
        return answer

    # ------------------------------------------------------------- the turn
    def _view(self) -> SeatView:
        return self.game.view(self.seat)

    def _bot_decision(self) -> None:
        game = self.game
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        legal = list(view.legal_actions)
        action = self.bots[seat].choose(view, legal)
        try:
            game.apply(action)
        except ActionError as e:  # a faulty bot must not end the person's game
            fallback = legal[-1]
            self.say(Text(tr(self.lang, "bot_fallback", who=self.names[seat],
                             reason=render(e, self.lang, self.names),
                             action=render(fallback, self.lang, self.names)), style="red"))
            game.apply(fallback)

    def _auto_answer(self, seat: int) -> bool:
        """Pass a buy offer without asking: when no buy is possible, or as the
        auto-pass setting says. True if it answered."""
        game = self.game
        if game.phase != "buy":
            return False
        view = game.view(seat)
        legal = view.legal_actions
        if Pass() not in legal:
            return False
        if Buy() in legal:
            if self.auto_pass == "off":
                return False
            card = view.offered_card
            if self.auto_pass == "useless" and (card is None or self.card_helps(view, card)):
                return False
        game.apply(Pass(), seat=seat)
        return True

    def card_helps(self, view: SeatView, card: Card) -> bool:
        """Could ``card`` help this hand toward the contract (for auto-pass)? A wild
        card always may; a natural one if the hand holds its rank (sets) or a
        card of its suit within two ranks (runs)."""
        rules = self.rules
        if rules.is_wild(card):
            return True
        if view.seat is not None and view.laid_down[view.seat]:
            return False
        naturals = [c for c in view.hand if not rules.is_wild(c)]
        c = view.contract
        if c.sets and any(h.rank == card.rank for h in naturals):
            return True
        return bool(c.runs) and any(h.suit == card.suit and 0 < abs(h.rank - card.rank) <= 2
                                    for h in naturals)

    def _after_action(self) -> None:
        """After a round ends: what happened, the score sheet, and a pause."""
        game = self.game
        done = len(game.results().round_scores)
        if done <= self.rounds_shown:
            return
        self.rounds_shown = done
        who: int | None = self.seat if len(self.humans) == 1 else None
        since = min(self.seen.values())
        events = list(game.events_for(who, since))
        cut = max(i for i, e in enumerate(events) if getattr(e, "type", "") == "round_over")
        if game.is_over:
            cut = len(events) - 1
        log = log_lines(events[:cut + 1], who, self.style, self.lang, self.names)
        upto = since + cut + 1
        for s in self.seen:
            self.seen[s] = max(self.seen[s], upto)
        view = self.game.view(self.seat)
        sheet = score_table(view, self.rules, self.names, self.lang)
        self.show_round_end(log, sheet, self.final_text() if game.is_over else None)

    def final_text(self) -> Text:
        """The final totals and the winner."""
        res = self.game.results()
        who = ", ".join(self.names[w] for w in res.winners)
        key = "winner" if len(res.winners) == 1 else "shared_win"
        out = Text()
        out.append(tr(self.lang, "final_totals") + ": " + ", ".join(
            f"{self.names[s]} {t}" for s, t in enumerate(res.totals)), style="bold")
        out.append("\n")
        out.append(tr(self.lang, key, who=who), style="bold green")
        return out

    # -------------------------------------------------------------- the person
    def _human_decision(self, seat: int) -> None:
        if len(self.humans) > 1 and self.shown != seat:
            self.handoff(seat)
        self.seat = seat
        self.shown = seat
        news = list(self.game.events_for(seat, self.seen[seat]))
        self.seen[seat] = len(self.game.events)
        view = self._view()
        self.show_decision(news, view)
        self.suggestion = None
        while True:
            line = self.ask(self._prompt(view))
            try:
                action = self._command(line, view)
            except Refused as e:
                self._refuse(str(e))
                continue
            if action is None:
                continue
            try:
                self.game.apply(action)
            except ActionError as e:
                self._refuse(tr(self.lang, "refused", reason=self._render(e)))
                continue
            return

    def _render(self, obj: object) -> str:
        return render(obj, self.lang, self.names, symbols=self.style.symbols)

    def _refuse(self, message: str) -> None:
        line = Text("✗ ", style="red")
        line.append_text(self.style.in_words(message))
        line.stylize("red", 0, 2)
        self.say(line)

    def _prompt(self, view: SeatView) -> str:
        lang = self.lang
        legal = view.legal_actions
        hint = tr(lang, "help_hint")
        top = view.offered_card
        top_word = self.style.word(top) if top is not None else ""
        if view.phase == "draw":
            parts = [tr(lang, "prompt_draw")]
            if Draw("discard") in legal and top is not None:
                parts.append(tr(lang, "prompt_take", card=top_word))
            return ", ".join(parts) + f" ({hint})"
        if view.phase == "buy":
            text = tr(lang, "prompt_buy", card=top_word, n=self.rules.buy_penalty_cards)
            if view.buy_limit is not None:
                text += " (" + tr(lang, "prompt_buys_left", used=view.buys[self.seat],
                                  limit=view.buy_limit) + ")"
            return text
        if view.phase == "call":
            return tr(lang, "prompt_call", card=top_word, call=self._call_word())
        if view.phase == "cut":
            return tr(lang, "prompt_cut", max=view.stock_size - 1)
        parts = []
        if not view.laid_down[self.seat]:
            parts.append(tr(lang, "prompt_lay"))
        if any(isinstance(a, LayOff) for a in legal):
            parts.append(tr(lang, "prompt_off"))
        if any(isinstance(a, SwapJoker) for a in legal):
            parts.append(tr(lang, "prompt_swap"))
        if any(isinstance(a, Discard) for a in legal) or not view.hand:
            parts.append(tr(lang, "prompt_discard"))
        return tr(lang, "prompt_play") + " " + ", ".join(parts) + f" ({hint})"

    def _call_word(self) -> str:
        return tr(self.lang, "call_shanghai" if self.rules.discard_call == "shanghai"
                  else "call_liverpool")

    def _command(self, line: str, view: SeatView) -> Action | None:
        """The action a typed line asks for (None: a command that only shows something)."""
        if len(line) > MAX_LINE:
            raise Refused(tr(self.lang, "line_too_long", n=len(line), max=MAX_LINE))
        words = line.strip().split()
        if not words:
            raise Refused(tr(self.lang, "empty_input"))
        head = words[0].lower()
        args = words[1:]
        rest = line.strip()[len(words[0]):].strip()
        name = parse_command(self.lang, head)
        if name is None and head.endswith("!") and parse_command(self.lang, head[:-1]) == "discard":
            name, args = "discard", args + ["!"]
        if name is None:
            raise Refused(tr(self.lang, "unknown_command", cmd=clip(words[0])))
        if name in ("draw", "take", "buy", "pass"):
            self._no_args(args)
            simple: dict[str, Action] = {"draw": Draw("stock"), "take": Draw("discard"),
                                         "buy": Buy(), "pass": Pass()}
            return simple[name]
        if name == "lay":
            return self._lay(rest, view)
        if name == "suggest":
            self._suggest(view)
            return None
        if name == "off":
            return self._off(args, view)
        if name == "swap":
            return self._swap(args, view)
        if name == "discard":
            return self._discard(args, view)
        if name == "call":
            return self._call(args, view)
        if name == "cut":
            if len(args) != 1:
                raise Refused(tr(self.lang, "cut_usage"))
            return Cut(self._number(args[0]))
        if name == "sort":
            self.group_by = "rank" if self.group_by == "suit" else "suit"
            how = tr(self.lang, "by_rank" if self.group_by == "rank" else "by_suit")
            self.say(tr(self.lang, "sorted", how=how))
            self.show_hand()
            return None
        if name == "hand":
            self.show_hand()
            return None
        if name == "table":
            current = self._view()
            self.show_sheet(Group(*screen(current, self.style, self.names, self.lang,
                                          self.group_by)[:3]))
            return None
        if name == "score":
            self.show_sheet(score_table(self._view(), self.rules, self.names, self.lang))
            return None
        if name == "help":
            self._help()
            return None
        # quit
        if self.confirm(tr(self.lang, "prompt_quit")):
            raise QuitGame(0)
        return None

    def show_hand(self) -> None:
        self.say(hand_panel(self._view(), self.style, self.group_by, self.lang))

    def confirm(self, question: str) -> bool:
        return self.ask(question).strip().lower() in _YES

    # ------------------------------------------------------------- commands
    def _no_args(self, args: list[str]) -> None:
        if args:
            raise Refused(tr(self.lang, "extra_words", words=clip(" ".join(args))))

    def _shown(self) -> list[Card]:
        return shown_hand(self._view(), self.rules, self.group_by)

    def _card(self, word: str) -> Card:
        """The card a typed word names: the notation, the local letters, or its
        number in the shown hand."""
        shown = self._shown()
        card = parse_card_word(word, self.lang, shown)
        if card is not None:
            return card
        if is_card_number(word):
            raise Refused(tr(self.lang, "bad_card_number", n=int(word), count=len(shown)))
        if len(word) > 8:
            raise Refused(tr(self.lang, "not_a_card", text=clip(word, 12)))
        try:
            Card.parse(word)
        except CardError as e:
            raise Refused(self._render(e)) from None
        raise Refused(tr(self.lang, "not_a_card", text=word))  # (two local readings)

    def _cards(self, text: str) -> list[Card]:
        return [self._card(w) for w in text.replace(",", " ").split()]

    def _words(self, cards: Sequence[Card]) -> str:
        return " ".join(self.style.word(c) for c in cards)

    def _number(self, word: str) -> int:
        try:
            return int(word)
        except ValueError:
            raise Refused(tr(self.lang, "bad_number", word=clip(word))) from None

    def _meld_index(self, word: str) -> int:
        count = len(self.game.table)
        n = self._number(word)
        if count == 0:
            raise Refused(tr(self.lang, "no_melds_yet"))
        if not 1 <= n <= count:
            raise Refused(tr(self.lang, "bad_meld_number", n=n, count=count))
        return n - 1

    def _end(self, word: str) -> Literal["low", "high"]:
        w = word.lower()
        if w in ENDS["low"]:
            return "low"
        if w in ENDS["high"]:
            return "high"
        raise Refused(tr(self.lang, "bad_end", word=clip(word)))

    def _choose(self, title: str, options: Sequence[str]) -> int:
        """Ask the person to pick one of ``options``; returns its index."""
        self.choices = list(options)
        lines = Text(title)
        for i, text in enumerate(options):
            lines.append(f"\n  {i + 1}. ")
            lines.append_text(self.style.in_words(text))
        self.say(lines)
        answer = self.ask(tr(self.lang, "prompt_choose", n=len(options))).strip()
        self.choices = []
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return int(answer) - 1
        raise Refused(tr(self.lang, "cancelled"))

    def meld_words(self, meld: Meld) -> str:
        """A meld as the question "where does the joker go" lists it."""
        what = tr(self.lang, meld.kind)
        cards = self._words(meld.cards)
        if meld.kind == "run":
            first, last = meld.stands_for(0), meld.stands_for(len(meld.cards) - 1)
            if first is not None and last is not None:
                return f"{what} {cards}  ({self.style.word(first)}..{self.style.word(last)})"
        return f"{what} {cards}"

    def _lay(self, text: str, view: SeatView) -> Action:
        lang = self.lang
        if not text:
            if self.suggestion is None:
                raise Refused(tr(lang, "lay_usage"))
            return self.suggestion
        parts = text.replace(";", "|").split("|")
        if any(not p.strip() for p in parts):
            raise Refused(tr(lang, "lay_empty_meld"))
        groups = [self._cards(p) for p in parts]
        typed = Counter(c for g in groups for c in g)
        held = Counter(view.hand)
        for card, n in typed.items():
            if n > held[card]:
                if not held[card]:
                    raise Refused(self._render(GameError("not_in_hand", card=card)))
                raise Refused(tr(lang, "lay_too_many", card=self.style.word(card), n=n,
                                 have=held[card]))
        c = view.contract
        kinds = {k for k, n in (("set", c.sets), ("run", c.runs)) if n}
        hint = len(groups) == 1 and c.sets + c.runs > 1
        melds = [self._arrange(cards, kinds, hint) for cards in groups]
        return LayDown(tuple(melds))  # the engine checks it (game.check_lay_down) and says why

    def _arrange(self, cards: list[Card], kinds: set[str] | None = None,
                 hint: bool = False) -> Meld:
        """The meld these typed cards make; asks where wilds stand if that is open."""
        options = arrange_meld(cards, self.rules)
        if not options:
            words = self._words(cards)
            why = self._why_not_meld(cards)
            text = (tr(self.lang, "not_a_meld_why", cards=words, why=why) if why
                    else tr(self.lang, "not_a_meld", cards=words))
            if hint:
                text += " " + tr(self.lang, "lay_hint_bar")
            raise Refused(text)
        if kinds and any(m.kind in kinds for m in options):
            options = [m for m in options if m.kind in kinds]
        if len(options) == 1:
            return options[0]
        pick = self._choose(tr(self.lang, "which_meld", cards=self._words(cards)),
                            [self.meld_words(m) for m in options])
        return options[pick]

    def _why_not_meld(self, cards: list[Card]) -> str:
        """The rule that keeps ``cards`` from being a meld, when one rule does ("" if none)."""
        rules = self.rules
        lang = self.lang
        sym = self.style.symbols
        if len(cards) < 3:
            return tr(lang, "why_short")
        naturals = [c for c in cards if not rules.is_wild(c)]
        if naturals and len({c.rank for c in naturals}) == 1:
            rank = naturals[0].rank
            suit = naturals[0].suit if rules.set_same_suit else -1
            problem = meld_error(Meld("set", tuple(cards), rank, suit), rules)
            return reason(problem, lang, symbols=sym) if problem else ""
        relaxed = dataclasses.replace(rules, min_naturals_run=0, naturals_at_least_wilds=False,
                                      no_adjacent_wilds_in_run=False, min_naturals_set=0)
        for meld in arrange_meld(cards, relaxed, "run", lay_down=False):
            problem = meld_error(meld, rules)
            if problem:
                return reason(problem, lang, symbols=sym)
        if len(cards) < 4:
            return tr(lang, "why_run_short")
        if rules.run_same_suit and len({c.suit for c in naturals}) > 1:
            return tr(lang, "why_suits")
        return tr(lang, "why_gaps")

    def _suggest(self, view: SeatView) -> None:
        lang = self.lang
        if view.phase != "play":
            raise Refused(tr(lang, "suggest_when"))
        if view.laid_down[self.seat]:
            moves = [a for a in view.legal_actions if isinstance(a, LayOff | SwapJoker)]
            if not moves:
                self.say(self._why_no_moves(view))
                return
            self.say(self.style.in_words(tr(lang, "suggest_offs", moves="; ".join(
                self._move_words(a) for a in moves))))
            return
        found = self.game.suggest_lay_down()
        if found is None:
            c = view.contract
            self.say(tr(lang, "no_lay_down", contract=contract_words(lang, c.sets, c.runs)))
            return
        self.suggestion = found
        text = Text(tr(lang, "suggested", melds="{melds}"))
        melds = Text(" | ").join(self.style.text(m.cards) for m in found.melds)
        head, _, tail = text.plain.partition("{melds}")
        self.say(Text(head) + melds + Text(tail))

    def _why_no_moves(self, view: SeatView) -> Text:
        """Why nothing can be laid off: nothing fits, or a card fits but not now (say why)."""
        for card in view.hand:
            for i, meld in enumerate(view.table):
                if can_lay_off(meld, card, self.rules):
                    trial = self.game.copy()
                    try:
                        trial.apply(LayOff(card, i))
                    except ActionError as e:
                        return self.style.in_words(tr(
                            self.lang, "fits_not_now", card=self.style.word(card),
                            number=i + 1, reason=self._render(e)))
        return Text(tr(self.lang, "suggest_none"))

    def _move_words(self, action: Action) -> str:
        """The command that makes ``action`` (``off 9H 2 low``; nb ``på 9H 2 lav``)."""
        card = getattr(action, "card", None)
        word = self.style.word(card) if isinstance(card, Card) else ""
        if isinstance(action, LayOff):
            key = {None: "move_off", "low": "move_off_low", "high": "move_off_high"}[action.end]
            return tr(self.lang, key, card=word, number=action.meld + 1)
        if isinstance(action, SwapJoker):
            return tr(self.lang, "move_swap", card=word, number=action.meld + 1)
        return self._render(action)

    def _off(self, args: list[str], view: SeatView) -> Action:
        if not 1 <= len(args) <= 3:
            raise Refused(tr(self.lang, "off_usage"))
        card = self._card(args[0])
        meld = self._meld_index(args[1]) if len(args) >= 2 else None
        end = self._end(args[2]) if len(args) == 3 else None
        if meld is not None and self.game.table[meld].kind == "set":
            end = None  # a set has no ends: "high" means nothing there
        fits = [a for a in view.legal_actions if isinstance(a, LayOff) and a.card == card
                and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            if meld is None:
                raise Refused(tr(self.lang, "off_usage"))
            return LayOff(card, meld, end)  # the engine says why not
        if meld is not None and {a.meld for a in fits} == {meld}:
            answer = self.ask(tr(self.lang, "prompt_end", meld=self._words(
                self.game.table[meld].cards)))
            return LayOff(card, meld, self._end(answer.strip() or "?"))
        pick = self._choose(tr(self.lang, "suggest_offs", moves=""),
                            [self._move_words(a) for a in fits])
        return fits[pick]

    def _swap(self, args: list[str], view: SeatView) -> Action:
        if len(args) != 2:
            raise Refused(tr(self.lang, "swap_usage"))
        card = self._card(args[0])
        meld = self._meld_index(args[1])
        fits = [a for a in view.legal_actions if isinstance(a, SwapJoker) and a.card == card
                and a.meld == meld]
        if fits:
            return fits[0]
        cards = self.game.table[meld].cards
        wilds = [i for i, c in enumerate(cards) if self.rules.is_wild(c)]
        return SwapJoker(card, meld, wilds[0] if wilds else 0)  # the engine says why not

    def _discard(self, args: list[str], view: SeatView) -> Action | None:
        if not 1 <= len(args) <= 2:
            raise Refused(tr(self.lang, "discard_usage"))
        word = args[0]
        announce = False
        if word.endswith("!") and len(word) > 1:
            word, announce = word[:-1], True
        if len(args) == 2:
            if args[1].lower() not in ("!", "shanghai", "shanghai!"):
                raise Refused(tr(self.lang, "extra_words", words=clip(args[1])))
            announce = True
        if announce and self.rules.discard_call != "shanghai":
            raise Refused(tr(self.lang, "no_shanghai"))
        action = Discard(self._card(word), announce)
        if (self.warn_calls and not announce and action in view.legal_actions
                and self.rules.discard_call != "none"):
            fits = [i for i, m in enumerate(view.table) if can_lay_off(m, action.card, self.rules)]
            if fits:
                question = tr(self.lang, "prompt_risky", card=self.style.word(action.card),
                              number=fits[0] + 1, call=self._call_word())
                if self.rules.discard_call == "shanghai":
                    question += " " + tr(self.lang, "risky_shanghai",
                                         card=self.style.word(action.card))
                if not self.confirm(question):
                    self.say(tr(self.lang, "cancelled"))
                    return None
        return action

    def _call(self, args: list[str], view: SeatView) -> Action:
        if self.rules.discard_call != "shanghai" or view.phase != "call":
            self._no_args(args)
            return Call()
        meld = self._meld_index(args[0]) if args else None
        end = self._end(args[1]) if len(args) >= 2 else None
        if len(args) > 2:
            raise Refused(tr(self.lang, "extra_words", words=clip(" ".join(args[2:]))))
        if meld is not None and self.game.table[meld].kind == "set":
            end = None
        fits = [a for a in view.legal_actions if isinstance(a, Call)
                and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            return Call(-1 if meld is None else meld, end)
        pick = self._choose(tr(self.lang, "help_call"), [self._render(a) for a in fits])
        return fits[pick]

    def _help(self) -> None:
        out = Text(tr(self.lang, "help_title"), style="bold")
        rows = [(tr(self.lang, f"help_cmd_{key}"), tr(self.lang, f"help_{key}"))
                for key in _HELP_ROWS]
        width = max(len(cmd) for cmd, _ in rows)
        for cmd, text in rows:
            out.append("\n  ")
            out.append(f"{cmd:<{width}}", style="bold cyan")
            out.append("  " + text)
        out.append("\n" + tr(self.lang, "help_cards"))
        self.show_sheet(out)


def run_game(rules: Rules, players: int, seat: int, bots: Mapping[int, Bot], seed: int,
             input_fn: InputFn, console: Console, **options: Any) -> Results | None:
    """Play a whole game in the terminal: a person at ``seat`` (0-based), the
    ``bots`` at other seats (seats without a bot are people too). Returns the
    results, or None if a person stopped. The options are those of
    :class:`TerminalGame`.
    """
    app = TerminalGame(rules, players, seat, bots, seed, input_fn, console, **options)
    return app.run()

