"""The terminal game loop: one person against bots, by typed commands.

:func:`run_game` plays a whole game. It reads the person's input through an
``input_fn(prompt) -> str`` and writes to a Rich console, so tests can script
it. It uses only the public engine API: :class:`~liverpool.engine.Game`, its
views, legal actions, ``apply``, ``check_lay_down``, ``suggest_lay_down`` and
:func:`~liverpool.melds.arrange_meld`. Nothing the engine refuses changes the
game; every refusal is shown with its reason.

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
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

from rich.console import Console
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
from ..cards import Card, CardError, format_cards, parse_cards
from ..engine import Game, Results
from ..i18n import reason, render
from ..melds import Meld, arrange_meld, meld_error
from ..rules import Rules
from ..views import SeatView
from .i18n import ENDS, bot_level, contract_words, parse_command, tr
from .render import CardStyle, hand_panel, log_lines, score_table, screen

__all__ = ["InputFn", "TerminalGame", "run_game"]

#: Reads one line from the person; the argument is the prompt (plain text).
InputFn = Callable[[str], str]


class QuitGame(Exception):
    """The person left the game (``quit``, end of input or Ctrl-C)."""


class Refused(Exception):
    """An input the game cannot accept; the message says why, in plain words."""


#: The rows of ``help``: the keys of the command (``help_cmd_...``) and of its text (``help_...``).
_HELP_ROWS: tuple[str, ...] = (
    "draw", "take", "buy", "pass", "lay", "lay_again", "suggest", "off", "swap", "discard",
    "call", "cut", "sort", "hand", "table", "score", "help", "quit",
)


class TerminalGame:
    """One game in the terminal: the person at ``seat`` (0-based), bots elsewhere.

    ``bots`` maps every other seat to its :class:`~liverpool.bots.base.Bot`.
    ``names`` labels the seats (default: ``Seat 1 (you)``, ``Seat 2 (medium)`` ...).
    ``clear`` clears the screen before each of the person's decisions (useful
    in a real terminal); ``pause`` waits for Enter after each score sheet;
    ``echo`` writes every answer after its prompt (for transcripts of scripted games).
    """

    def __init__(self, rules: Rules, players: int, seat: int, bots: Mapping[int, Bot],
                 seed: int, input_fn: InputFn, console: Console, *, symbols: bool = True,
                 lang: str = "en", names: Sequence[str] | None = None, clear: bool = False,
                 pause: bool = True, echo: bool = False) -> None:
        self.game = Game(rules, players, seed)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 1 to {players}")
        missing = [s + 1 for s in range(players) if s != seat and s not in bots]
        if missing:
            raise ValueError(f"no bot for seat {', '.join(map(str, missing))}")
        self.rules = rules
        self.seat = seat
        self.bots = dict(bots)
        self.input_fn = input_fn
        self.console = console
        self.lang = lang
        self.style = CardStyle(rules, symbols)
        self.clear = clear
        self.pause = pause
        self.echo = echo
        if names is None:
            names = [
                tr(lang, "seat", n=s + 1) + (f" ({tr(lang, 'you')})" if s == seat
                                             else f" ({bot_level(lang, self.bots[s].name)})")
                for s in range(players)
            ]
        self.names = list(names)
        self.group_by = "suit"
        self.seen = 0  # events shown so far (their sequence numbers)
        self.rounds_shown = 0
        self.suggestion: LayDown | None = None
        self.intro: Text | None = None  # the game's first line, shown at the first decision

    # ------------------------------------------------------------------ running
    def run(self) -> Results | None:
        """Play until the game is over (the results) or the person quits (None)."""
        game = self.game
        self.intro = Text(tr(
            self.lang, "game_start", rules=self.rules.name, players=game.num_players,
            seed=game.seed, you=self.names[self.seat]), style="bold")
        try:
            while not game.is_over:
                if game.to_move == self.seat:
                    self._human_decision()
                else:
                    self._bot_decision()
                self._after_action()
        except (QuitGame, KeyboardInterrupt):
            self.say()
            self.say(Text(tr(self.lang, "abandoned"), style="bold"))
            return None
        return game.results()

    def say(self, message: object = "") -> None:
        self.console.print(message)

    def ask(self, prompt: str) -> str:
        try:
            answer = self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            raise QuitGame from None
        if self.echo:
            self.console.print(Text(f"{prompt} > {answer}", style="dim"))
        return answer

    def _view(self) -> SeatView:
        return self.game.view(self.seat)

    def _news(self) -> list[object]:
        """The events the person has not been shown yet, as their seat sees them."""
        return list(self.game.events_for(self.seat, self.seen))

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

    def _after_action(self) -> None:
        """After a round ends: what happened, the score sheet, and a pause."""
        game = self.game
        done = len(game.results().round_scores)
        if done <= self.rounds_shown:
            return
        self.rounds_shown = done
        events = self._news()
        cut = max(i for i, e in enumerate(events) if getattr(e, "type", "") == "round_over")
        if game.is_over:
            cut = len(events) - 1
        self.say(log_lines(events[:cut + 1], self.seat, self.style, self.lang, self.names))
        self.seen += cut + 1
        view = self._view()
        self.say()
        self.say(score_table(view, self.rules, self.names, self.lang))
        if game.is_over:
            self._final(view)
        elif self.pause:
            self.ask(tr(self.lang, "prompt_continue"))

    def _final(self, view: SeatView) -> None:
        res = self.game.results()
        who = ", ".join(self.names[w] for w in res.winners)
        key = "winner" if len(res.winners) == 1 else "shared_win"
        self.say()
        self.say(Text(tr(self.lang, "final_totals") + ": " + ", ".join(
            f"{self.names[s]} {t}" for s, t in enumerate(res.totals)), style="bold"))
        self.say(Text(tr(self.lang, key, who=who), style="bold green"))

    # -------------------------------------------------------------- the person
    def _human_decision(self) -> None:
        news = self._news()
        if self.clear:
            self.console.clear()
        if self.intro is not None:  # shown once, after the first clear
            self.say(self.intro)
            self.intro = None
        if news:
            self.say(log_lines(news, self.seat, self.style, self.lang, self.names))
            self.say()
        self.seen = len(self.game.events)
        view = self._view()
        for part in screen(view, self.style, self.names, self.lang, self.group_by):
            self.say(part)
        self.say()
        self.suggestion = None
        while True:
            line = self.ask(self._prompt(view))
            try:
                action = self._command(line, view)
            except Refused as e:
                self.say(Text(f"✗ {e}", style="red"))
                continue
            if action is None:
                continue
            try:
                self.game.apply(action)
            except ActionError as e:
                self._refuse(tr(self.lang, "refused", reason=render(e, self.lang, self.names)))
                continue
            return

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
            call = tr(lang, "call_shanghai" if self.rules.discard_call == "shanghai"
                      else "call_liverpool")
            return tr(lang, "prompt_call", card=top_word, call=call)
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

    def _command(self, line: str, view: SeatView) -> Action | None:
        """The action a typed line asks for (None: a command that only shows something)."""
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
            raise Refused(tr(self.lang, "unknown_command", cmd=words[0]))
        if name in ("draw", "take", "buy", "pass"):
            self._no_args(args)
            simple: dict[str, Action] = {"draw": Draw("stock"), "take": Draw("discard"),
                                         "buy": Buy(), "pass": Pass()}
            return simple[name]
        if name == "lay":
            return self._lay(rest)
        if name == "suggest":
            self._suggest(view)
            return None
        if name == "off":
            return self._off(args, view)
        if name == "swap":
            return self._swap(args, view)
        if name == "discard":
            return self._discard(args)
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
            self.say(hand_panel(self._view(), self.style, self.group_by, self.lang))
            return None
        if name == "hand":
            self.say(hand_panel(self._view(), self.style, self.group_by, self.lang))
            return None
        if name == "table":
            current = self._view()
            for part in screen(current, self.style, self.names, self.lang, self.group_by)[:3]:
                self.say(part)
            return None
        if name == "score":
            self.say(score_table(self._view(), self.rules, self.names, self.lang))
            return None
        if name == "help":
            self._help()
            return None
        # quit
        answer = self.ask(tr(self.lang, "prompt_quit")).strip().lower()
        if answer in ("y", "yes", "j", "ja"):
            raise QuitGame
        return None

    # ------------------------------------------------------------- commands
    def _no_args(self, args: list[str]) -> None:
        if args:
            raise Refused(tr(self.lang, "extra_words", words=" ".join(args)))

    def _card(self, word: str) -> Card:
        try:
            return Card.parse(word)
        except CardError as e:
            raise Refused(reason(str(e), self.lang)) from None

    def _number(self, word: str) -> int:
        try:
            return int(word)
        except ValueError:
            raise Refused(tr(self.lang, "bad_number", word=word)) from None

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
        raise Refused(tr(self.lang, "bad_end", word=word))

    def _choose(self, title: str, options: Sequence[str]) -> int:
        """Ask the person to pick one of ``options``; returns its index."""
        self.say(title)
        for i, text in enumerate(options):
            self.say(f"  {i + 1}. {text}")
        answer = self.ask(tr(self.lang, "prompt_choose", n=len(options))).strip()
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return int(answer) - 1
        raise Refused(tr(self.lang, "cancelled"))

    def _meld_words(self, meld: Meld) -> str:
        what = tr(self.lang, meld.kind)
        cards = " ".join(self.style.word(c) for c in meld.cards)
        if meld.kind == "run":
            first, last = meld.stands_for(0), meld.stands_for(len(meld.cards) - 1)
            if first is not None and last is not None:
                return f"{what} {cards}  ({self.style.word(first)}..{self.style.word(last)})"
        return f"{what} {cards}"

    def _lay(self, text: str) -> Action:
        if not text:
            if self.suggestion is None:
                raise Refused(tr(self.lang, "lay_usage"))
            return self.suggestion
        groups: list[list[Card]] = []
        for group in text.replace(";", "|").split("|"):
            if not group.strip():
                raise Refused(tr(self.lang, "lay_usage"))
            try:
                groups.append(parse_cards(group))
            except CardError as e:
                raise Refused(reason(str(e), self.lang)) from None
        melds = [self._arrange(cards) for cards in groups]
        return LayDown(tuple(melds))  # the engine checks it (game.check_lay_down) and says why

    def _arrange(self, cards: list[Card]) -> Meld:
        """The meld these typed cards make; asks where wilds stand if that is open."""
        options = arrange_meld(cards, self.rules)
        if not options:
            why = self._why_not_meld(cards)
            if why:
                raise Refused(tr(self.lang, "not_a_meld_why", cards=format_cards(cards), why=why))
            raise Refused(tr(self.lang, "not_a_meld", cards=format_cards(cards)))
        if len(options) == 1:
            return options[0]
        typed = [m for m in options if list(m.cards) == cards]
        if len(typed) == 1:  # typed in order, with the wild where it stands
            return typed[0]
        pick = self._choose(tr(self.lang, "which_meld", cards=format_cards(cards)),
                            [self._meld_words(m) for m in options])
        return options[pick]

    def _why_not_meld(self, cards: list[Card]) -> str:
        """The rule that keeps ``cards`` from being a meld, when one rule does ("" if none)."""
        rules = self.rules
        lang = self.lang
        if len(cards) < 3:
            return tr(lang, "why_short")
        naturals = [c for c in cards if not rules.is_wild(c)]
        if naturals and len({c.rank for c in naturals}) == 1:
            rank = naturals[0].rank
            suit = naturals[0].suit if rules.set_same_suit else -1
            problem = meld_error(Meld("set", tuple(cards), rank, suit), rules)
            return reason(problem, lang) if problem else ""
        relaxed = dataclasses.replace(rules, min_naturals_run=0, naturals_at_least_wilds=False,
                                      no_adjacent_wilds_in_run=False, min_naturals_set=0)
        for meld in arrange_meld(cards, relaxed, "run", lay_down=False):
            problem = meld_error(meld, rules)
            if problem:
                return reason(problem, lang)
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
                self.say(tr(lang, "suggest_none"))
                return
            self.say(tr(lang, "suggest_offs", moves="; ".join(self._move_words(a)
                                                              for a in moves)))
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

    def _move_words(self, action: Action) -> str:
        """The command that makes ``action`` (``off 9H 2 low``; nb ``på 9H 2 lav``)."""
        if isinstance(action, LayOff):
            key = {None: "move_off", "low": "move_off_low", "high": "move_off_high"}[action.end]
            return tr(self.lang, key, card=action.card, number=action.meld + 1)
        if isinstance(action, SwapJoker):
            return tr(self.lang, "move_swap", card=action.card, number=action.meld + 1)
        return render(action, self.lang, self.names)

    def _off(self, args: list[str], view: SeatView) -> Action:
        if not 1 <= len(args) <= 3:
            raise Refused(tr(self.lang, "off_usage"))
        card = self._card(args[0])
        meld = self._meld_index(args[1]) if len(args) >= 2 else None
        end = self._end(args[2]) if len(args) == 3 else None
        fits = [a for a in view.legal_actions if isinstance(a, LayOff) and a.card == card
                and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            if meld is None:
                raise Refused(tr(self.lang, "off_usage"))
            return LayOff(card, meld, end)  # the engine says why not
        if meld is not None and {a.meld for a in fits} == {meld}:
            answer = self.ask(tr(self.lang, "prompt_end", meld=" ".join(
                self.style.word(c) for c in self.game.table[meld].cards)))
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

    def _discard(self, args: list[str]) -> Action:
        if not 1 <= len(args) <= 2:
            raise Refused(tr(self.lang, "discard_usage"))
        word = args[0]
        announce = False
        if word.endswith("!") and len(word) > 1:
            word, announce = word[:-1], True
        if len(args) == 2:
            if args[1].lower() not in ("!", "shanghai", "shanghai!"):
                raise Refused(tr(self.lang, "extra_words", words=args[1]))
            announce = True
        if announce and self.rules.discard_call != "shanghai":
            raise Refused(tr(self.lang, "no_shanghai"))
        return Discard(self._card(word), announce)

    def _call(self, args: list[str], view: SeatView) -> Action:
        if self.rules.discard_call != "shanghai" or view.phase != "call":
            self._no_args(args)
            return Call()
        meld = self._meld_index(args[0]) if args else None
        end = self._end(args[1]) if len(args) >= 2 else None
        if len(args) > 2:
            raise Refused(tr(self.lang, "extra_words", words=" ".join(args[2:])))
        fits = [a for a in view.legal_actions if isinstance(a, Call)
                and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            return Call(-1 if meld is None else meld, end)
        pick = self._choose(tr(self.lang, "help_call"),
                            [render(a, self.lang, self.names) for a in fits])
        return fits[pick]

    def _help(self) -> None:
        self.say(Text(tr(self.lang, "help_title"), style="bold"))
        rows = [(tr(self.lang, f"help_cmd_{key}"), tr(self.lang, f"help_{key}"))
                for key in _HELP_ROWS]
        width = max(len(cmd) for cmd, _ in rows)
        for cmd, text in rows:
            line = Text("  ")
            line.append(f"{cmd:<{width}}", style="bold cyan")
            line.append("  " + text)
            self.say(line)


def run_game(rules: Rules, players: int, seat: int, bots: Mapping[int, Bot], seed: int,
             input_fn: InputFn, console: Console, *, symbols: bool = True, lang: str = "en",
             names: Sequence[str] | None = None, clear: bool = False, pause: bool = True,
             echo: bool = False) -> Results | None:
    """Play a whole game in the terminal: the person at ``seat`` (0-based), the
    ``bots`` at the other seats. Returns the results, or None if the person quit.
    The options are those of :class:`TerminalGame`.
    """
    app = TerminalGame(rules, players, seat, bots, seed, input_fn, console, symbols=symbols,
                       lang=lang, names=names, clear=clear, pause=pause, echo=echo)
    return app.run()
