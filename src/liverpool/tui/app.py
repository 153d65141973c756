"""The terminal game loop: people against bots, by typed commands.

:func:`run_game` plays a whole game. It reads the people's input through an
``input_fn(prompt) -> str`` and writes to a Rich console, so tests can script
it (the *line mode*); :mod:`liverpool.tui.full` runs the same loop in a
full-screen Textual app. The typed lines become actions in
:mod:`liverpool.tui.commands`; what the line mode shows is
:mod:`liverpool.tui.output`; this module is the session between them: whose
turn, the questions a command leaves open, the saves. It uses only the public
engine API:
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

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from ..actions import Action, ActionError, Buy, LayDown, LayOff, Pass, SwapJoker
from ..bots.base import Bot
from ..cards import Card
from ..engine import Game, Results
from ..i18n import render
from ..melds import Meld, can_lay_off
from ..rules import Rules
from ..views import SeatView
from .commands import (
    MAX_LINE,
    Choice,
    Command,
    CommandReader,
    QuitGame,
    Refused,
    clip,
    read_command,
)
from .i18n import bot_level, contract_words, tr
from .output import (
    InputFn,
    LineScreen,
    call_word,
    final_text,
    help_text,
    meld_words,
    move_words,
    prompt_text,
)
from .render import CardStyle, hand_panel, log_lines, score_table, screen, shown_hand
from .saves import write_save

__all__ = ["AUTO_PASS", "MAX_LINE", "InputFn", "QuitGame", "Refused", "TerminalGame", "bot_name",
           "clip", "default_names", "run_game"]

#: The auto-pass settings of buys: never, when the card does not help, always.
AUTO_PASS = ("off", "useless", "always")

_YES = ("y", "yes", "j", "ja")


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


class TerminalGame(LineScreen):
    """One game in the terminal: people at the seats without a bot, ``bots`` elsewhere.

    ``seat`` (0-based) is a person's seat (the first to be shown). ``names``
    labels the seats (default :func:`default_names`). ``clear``, ``pause`` and
    ``echo`` are those of the screen (:class:`~liverpool.tui.output.LineScreen`).
    ``game`` continues a game (a resumed save) instead of dealing a new one.
    ``auto_pass`` (:data:`AUTO_PASS`) answers buy offers by itself;
    ``warn_calls`` asks before a discard that fits the table (a
    "Liverpool!"/"Shanghai!" call may punish it). ``save_path`` is written after
    every action, with ``save_meta``.
    """

    def __init__(self, rules: Rules, players: int, seat: int, bots: Mapping[int, Bot],
                 seed: int, input_fn: InputFn, console: Console, *, symbols: bool = True,
                 lang: str = "en", names: Sequence[str] | None = None, clear: bool = False,
                 pause: bool = True, echo: bool = False, game: Game | None = None,
                 auto_pass: str = "off", warn_calls: bool = False,  # noqa: S107 - an auto-pass mode, not a password
                 save_path: str | Path | None = None,
                 save_meta: dict[str, Any] | None = None) -> None:
        self.game = game if game is not None else Game(rules, players, seed)
        humans = [s for s in range(players) if s not in bots]
        if seat not in humans:
            raise ValueError(f"seat {seat + 1} must be a person's seat (1 to {players}, no bot)")
        if auto_pass not in AUTO_PASS:
            raise ValueError(f"auto_pass must be one of {', '.join(AUTO_PASS)}")
        style = CardStyle(rules, symbols)
        super().__init__(console, input_fn, lang, style,
                         names if names is not None else default_names(
                             lang, players, humans, bots),
                         clear=clear, pause=pause, echo=echo)
        self.rules = rules
        self.seat = seat
        self.humans = humans
        self.bots = dict(bots)
        self.reader = CommandReader(rules, lang, style)
        self.auto_pass = auto_pass
        self.warn_calls = warn_calls
        self.save_path = Path(save_path) if save_path is not None else None
        self.save_meta = dict(save_meta or {})
        # the events each person has been shown (sequence numbers): from this round on
        start = max((e.seq for e in self.game.events if getattr(e, "type", "") ==
                     "round_started"), default=0)
        self.seen: dict[int, int] = dict.fromkeys(humans, start)
        self.shown: int | None = None  # the person whose hand is on the screen
        self.rounds_shown = len(self.game.results().round_scores)
        self.suggestion: LayDown | None = None
        self.choices: list[str] = []  # the options of the last question (for scripts)
        self.exit_status = 0

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
                assert mover is not None  # noqa: S101 - narrows the type for mypy
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

    # ------------------------------------------------------------- the turn
    def _view(self) -> SeatView:
        return self.game.view(self.seat)

    def _bot_decision(self) -> None:
        game = self.game
        seat = game.to_move
        assert seat is not None  # noqa: S101 - narrows the type for mypy
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
            if self.auto_pass == "off":  # noqa: S105 - an auto-pass mode
                return False
            card = view.offered_card
            if self.auto_pass == "useless" and (card is None or self.card_helps(view, card)):  # noqa: S105 - an auto-pass mode
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
        return final_text(self.game.results(), self.names, self.lang)

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
            line = self.ask(prompt_text(view, self.rules, self.lang, self.style))
            try:
                action = self._command(line, view)
            except Refused as e:
                self.refuse(str(e))
                continue
            if action is None:
                continue
            try:
                self.game.apply(action)
            except ActionError as e:
                self.refuse(tr(self.lang, "refused", reason=self._render(e)))
                continue
            return

    def _render(self, obj: object) -> str:
        return render(obj, self.lang, self.names, symbols=self.style.symbols)

    def _command(self, line: str, view: SeatView) -> Action | None:
        """The action a typed line asks for (None: a command that only shows something)."""
        command = read_command(line, self.lang)
        name = command.name
        reader = self.reader
        if name in ("draw", "take", "buy", "pass"):
            return reader.simple(command)
        if name == "lay":
            return self._lay(command, view)
        if name == "suggest":
            self._suggest(view)
            return None
        if name == "off":
            return self._decided(reader.lay_off(command.args, view, self._shown()), view)
        if name == "swap":
            return reader.swap(command.args, view, self._shown())
        if name == "discard":
            return self._discard(command, view)
        if name == "call":
            return self._decided(reader.call(command.args, view), view)
        if name == "cut":
            return reader.cut(command)
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
            self.show_sheet(help_text(self.lang))
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
    def _shown(self) -> list[Card]:
        return shown_hand(self._view(), self.rules, self.group_by)

    def _words(self, cards: Sequence[Card]) -> str:
        return " ".join(self.style.word(c) for c in cards)

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

    def _decided(self, answer: Action | Choice, view: SeatView) -> Action:
        """The action of a command's answer: asks the person when it is a :class:`Choice`
        (the end of a run to lay off on; else which of the lay-offs or calls)."""
        if not isinstance(answer, Choice):
            return answer
        options = answer.options
        first = options[0]
        if answer.ask_end and isinstance(first, LayOff):
            reply = self.ask(tr(self.lang, "prompt_end", meld=self._words(
                view.table[first.meld].cards)))
            return LayOff(first.card, first.meld, self.reader.end(reply.strip() or "?"))
        if isinstance(first, LayOff):
            pick = self._choose(tr(self.lang, "suggest_offs", moves=""),
                                [self._move_words(a) for a in options])
        else:
            pick = self._choose(tr(self.lang, "help_call"), [self._render(a) for a in options])
        return options[pick]

    def meld_words(self, meld: Meld) -> str:
        """A meld as the question "where does the joker go" lists it."""
        return meld_words(meld, self.lang, self.style)

    def _lay(self, command: Command, view: SeatView) -> Action:
        if not command.rest:
            if self.suggestion is None:
                raise Refused(tr(self.lang, "lay_usage"))
            return self.suggestion
        groups = self.reader.lay_groups(command.rest, view.hand, self._shown())
        c = view.contract
        kinds = self.reader.contract_kinds(c)
        hint = len(groups) == 1 and c.sets + c.runs > 1
        melds = [self._arrange(cards, kinds, hint) for cards in groups]
        return LayDown(tuple(melds))  # the engine checks it (game.check_lay_down) and says why

    def _arrange(self, cards: list[Card], kinds: set[str] | None = None,
                 hint: bool = False) -> Meld:
        """The meld these typed cards make; asks where wilds stand if that is open."""
        options = self.reader.meld_options(cards, kinds, hint)
        if len(options) == 1:
            return options[0]
        pick = self._choose(tr(self.lang, "which_meld", cards=self._words(cards)),
                            [self.meld_words(m) for m in options])
        return options[pick]

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
        return move_words(action, self.lang, self.style, self.names)

    def _discard(self, command: Command, view: SeatView) -> Action | None:
        """``discard``; with ``warn_calls``, asks first when the card fits the table."""
        action = self.reader.discard(command.args, self._shown())
        rules = self.rules
        if (self.warn_calls and not action.announce and action in view.legal_actions
                and rules.discard_call != "none" and _may_be_called(view, rules)):
            fits = [i for i, m in enumerate(view.table) if can_lay_off(m, action.card, rules)]
            if fits:
                call = call_word(rules, self.lang)
                word = self.style.word(action.card)
                question = tr(self.lang, "prompt_risky", card=word, number=fits[0] + 1,
                              call=call)
                if rules.discard_call == "shanghai":
                    question += " " + tr(self.lang, "risky_shanghai", card=word)
                if not self.confirm(question):
                    self.say(tr(self.lang, "cancelled"))
                    return None
        return action


def _may_be_called(view: SeatView, rules: Rules) -> bool:
    """May the turn player's discard now be called, if it fits the table? Only
    once their contract is down in an earlier turn (or the same, under
    ``lay_off_same_turn``), and not their last card unless ``call_last_discard``."""
    seat = view.turn_player
    return (view.laid_down[seat]
            and (rules.lay_off_same_turn or view.down_turns[seat] < view.turn_number)
            and (len(view.hand) > 1 or rules.call_last_discard))


def run_game(rules: Rules, players: int, seat: int, bots: Mapping[int, Bot], seed: int,
             input_fn: InputFn, console: Console, **options: Any) -> Results | None:
    """Play a whole game in the terminal: a person at ``seat`` (0-based), the
    ``bots`` at other seats (seats without a bot are people too). Returns the
    results, or None if a person stopped. The options are those of
    :class:`TerminalGame`.
    """
    app = TerminalGame(rules, players, seat, bots, seed, input_fn, console, **options)
    return app.run()

