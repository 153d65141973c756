"""Typed lines to actions: the terminal game's commands, read without a terminal.

:func:`read_command` splits a line into its command and words; a
:class:`CommandReader` turns the words into cards, meld numbers, ends and
actions against a seat's view. Nothing here asks the person or draws anything:
a line the game cannot accept raises :class:`Refused` with the reason in the
person's language, and a line that names more than one action gives a
:class:`Choice` for the game loop (:mod:`liverpool.tui.app`) to ask about.

>>> from liverpool import Game, load_rules
>>> rules = load_rules("liverpool")
>>> read_command("x! 9H", "en")
Command(name='discard', args=['9H', '!'], rest='9H')
>>> read_command("kast 9H", "nb").name
'discard'
>>> reader = CommandReader(rules, "en")
>>> reader.simple(read_command("take", "en"))
Draw(source='discard')
>>> view = Game(rules, players=3, seed=1).view(0)
>>> reader.card("1", view.hand) == view.hand[0]
True
>>> try:
...     reader.card("99", view.hand)
... except Refused as refusal:
...     print(refusal)
there is no card 99 in your hand (the cards are numbered 1-10)
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Literal, NamedTuple

from ..actions import Action, Buy, Call, Cut, Discard, Draw, LayOff, Pass, SwapJoker
from ..cards import Card, CardError
from ..errors import GameError
from ..i18n import reason, render
from ..melds import Meld, arrange_meld, can_lay_off, meld_error
from ..rules import Contract, Rules
from ..views import SeatView
from .cardwords import is_card_number, parse_card_word
from .i18n import ENDS, parse_command, tr
from .render import CardStyle

__all__ = ["MAX_LINE", "Choice", "Command", "CommandReader", "QuitGame", "Refused", "clip",
           "read_command"]

#: The longest line read as a command; anything typed is echoed at most this long.
MAX_LINE = 2000
#: How much of a typed word a message repeats.
ECHO_LENGTH = 24
#: The commands that always mean the same action (``draw`` and ``take`` may name their pile).
SIMPLE_ACTIONS: dict[str, Action] = {"draw": Draw("stock"), "take": Draw("discard"),
                                     "buy": Buy(), "pass": Pass()}
#: Words that may follow ``draw`` or ``take`` ("trekk fra bunken", "take from the
#: discard pile"), in every language: the pile each names, or None for a word
#: that names none ("from", "the", "top").
PILE_WORDS: dict[str, Literal["stock", "discard"] | None] = {
    **dict.fromkeys(("from", "the", "top", "of", "pile", "card", "fra", "av", "af", "toppen",
                     "øverst", "øverste", "kortet"), None),
    **dict.fromkeys(("stock", "bunken", "bunke", "bunk"), "stock"),
    **dict.fromkeys(("discard", "discards", "upcard", "kastehaugen", "kastehaug", "haugen",
                     "kastebunken", "kastebunke"), "discard"),
}


class QuitGame(Exception):
    """The person left the game: ``quit`` (status 0) or the end of input (status 1)."""

    def __init__(self, status: int = 0) -> None:
        super().__init__(status)
        self.status = status


class Refused(Exception):
    """An input the game cannot accept; the message says why, in plain words."""


def clip(text: str, limit: int = ECHO_LENGTH) -> str:
    """``text`` cut to ``limit`` characters (with ``…`` when cut): typed text in messages.

    >>> clip("a very long word that goes on and on")
    'a very long word that g…'
    """
    text = " ".join(text.split()) if len(text) < 10 * limit else text[:10 * limit]
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Command(NamedTuple):
    """A typed line: the command's name (``draw``, ``lay``, ... in English), the
    words after it, and the rest of the line after the command word."""

    name: str
    args: list[str]
    rest: str


@dataclasses.dataclass(frozen=True)
class Choice:
    """A line that names more than one action: the person picks one of ``options``.
    With ``ask_end`` they are lay-offs on the one meld typed, at either end: ask
    which end."""

    options: tuple[Action, ...]
    ask_end: bool = False


def read_command(line: str, lang: str) -> Command:
    """The command a typed line gives (its word in ``lang`` or in English; ``x!``
    discards with the announcement). Refuses a line too long, empty or unknown."""
    if len(line) > MAX_LINE:
        raise Refused(tr(lang, "line_too_long", n=len(line), max=MAX_LINE))
    words = line.strip().split()
    if not words:
        raise Refused(tr(lang, "empty_input"))
    head = words[0].lower()
    args = words[1:]
    rest = line.strip()[len(words[0]):].strip()
    name = parse_command(lang, head)
    if name is None and head.endswith("!") and parse_command(lang, head[:-1]) == "discard":
        name, args = "discard", [*args, "!"]
    if name is None:
        raise Refused(tr(lang, "unknown_command", cmd=clip(words[0])))
    return Command(name, args, rest)


class CommandReader:
    """The words of commands read against a position, in the language ``lang``.

    ``shown`` arguments are the hand in the order the screen shows it (a card may
    be typed as its number there); ``view`` is the seat's view at the decision.
    """

    def __init__(self, rules: Rules, lang: str, style: CardStyle | None = None) -> None:
        self.rules = rules
        self.lang = lang
        self.style = style if style is not None else CardStyle(rules, False)

    def _render(self, obj: object) -> str:
        return render(obj, self.lang, symbols=self.style.symbols)

    # ------------------------------------------------------------- words
    def no_args(self, args: Sequence[str]) -> None:
        """Refuse words after a command that takes none."""
        if args:
            raise Refused(tr(self.lang, "extra_words", words=clip(" ".join(args))))

    def card(self, word: str, shown: Sequence[Card]) -> Card:
        """The card a typed word names: the notation, the local letters, or its
        number in the shown hand."""
        card = parse_card_word(word, self.lang, shown)
        if card is not None:
            return card
        if is_card_number(word):
            raise Refused(tr(self.lang, "bad_card_number", n=int(word), count=len(shown)))
        if self.lang != "en":  # the engine's words list only the notation's letters
            raise Refused(tr(self.lang, "not_a_card_local", text=clip(word, 12)))
        if len(word) > 8:
            raise Refused(tr(self.lang, "not_a_card", text=clip(word, 12)))
        try:
            Card.parse(word)
        except CardError as e:
            raise Refused(self._render(e)) from None
        raise Refused(tr(self.lang, "not_a_card", text=word))  # (two local readings)

    def cards(self, text: str, shown: Sequence[Card]) -> list[Card]:
        """The cards of a typed list (spaces or commas between them)."""
        return [self.card(w, shown) for w in text.replace(",", " ").split()]

    def number(self, word: str) -> int:
        try:
            return int(word)
        except ValueError:
            raise Refused(tr(self.lang, "bad_number", word=clip(word))) from None

    def meld_index(self, word: str, melds: int) -> int:
        """The 0-based meld a typed number (from 1) names on a table of ``melds`` melds."""
        n = self.number(word)
        if melds == 0:
            raise Refused(tr(self.lang, "no_melds_yet"))
        if not 1 <= n <= melds:
            raise Refused(tr(self.lang, "bad_meld_number", n=n, count=melds))
        return n - 1

    def end(self, word: str) -> Literal["low", "high"]:
        """The end of a run a typed word names (``low``/``high`` or the local words)."""
        w = word.lower()
        if w in ENDS["low"]:
            return "low"
        if w in ENDS["high"]:
            return "high"
        raise Refused(tr(self.lang, "bad_end", word=clip(word)))

    # ---------------------------------------------------------- commands
    def simple(self, command: Command) -> Action:
        """The action of ``draw``, ``take``, ``buy`` or ``pass``; ``draw`` and
        ``take`` may name their pile (:data:`PILE_WORDS`): "trekk fra bunken",
        "træk fra kastebunken" (that takes the discard), "take the discard"."""
        action = SIMPLE_ACTIONS[command.name]
        if command.name not in ("draw", "take") or not command.args:
            self.no_args(command.args)
            return action
        other = [w for w in command.args if w.lower() not in PILE_WORDS]
        piles = {p for w in command.args if (p := PILE_WORDS.get(w.lower())) is not None}
        if other or len(piles) > 1:  # (a word of no pile, or both piles named)
            self.no_args(other or command.args)
        return Draw(piles.pop()) if piles else action

    def cut(self, command: Command) -> Cut:
        if len(command.args) != 1:
            raise Refused(tr(self.lang, "cut_usage"))
        return Cut(self.number(command.args[0]))

    def lay_groups(self, text: str, hand: Sequence[Card], shown: Sequence[Card]
                   ) -> list[list[Card]]:
        """The typed melds of ``lay`` (``|`` or ``;`` between them) as cards, each
        card held as often as it is typed."""
        parts = text.replace(";", "|").split("|")
        if any(not p.strip() for p in parts):
            raise Refused(tr(self.lang, "lay_empty_meld"))
        groups = [self.cards(p, shown) for p in parts]
        typed = Counter(c for g in groups for c in g)
        held = Counter(hand)
        for card, n in typed.items():
            if n > held[card]:
                if not held[card]:
                    raise Refused(self._render(GameError("not_in_hand", card=card)))
                raise Refused(tr(self.lang, "lay_too_many", card=self.style.word(card), n=n,
                                 have=held[card]))
        return groups

    @staticmethod
    def contract_kinds(contract: Contract) -> set[str]:
        """The kinds of meld (``set``, ``run``) the contract asks for."""
        return {k for k, n in (("set", contract.sets), ("run", contract.runs)) if n}

    def meld_options(self, cards: Sequence[Card], kinds: set[str] | None = None,
                     hint: bool = False) -> list[Meld]:
        """The melds ``cards`` can make (those of ``kinds`` when some are); refuses
        cards that make none, saying why (and with ``hint`` how to type several)."""
        options = arrange_meld(list(cards), self.rules)
        if not options:
            words = " ".join(self.style.word(c) for c in cards)
            why = self.why_not_meld(cards)
            text = (tr(self.lang, "not_a_meld_why", cards=words, why=why) if why
                    else tr(self.lang, "not_a_meld", cards=words))
            if hint:
                text += " " + tr(self.lang, "lay_hint_bar")
            raise Refused(text)
        if kinds and any(m.kind in kinds for m in options):
            options = [m for m in options if m.kind in kinds]
        return options

    def why_not_meld(self, cards: Sequence[Card]) -> str:
        """The rule that keeps ``cards`` from being a meld, when one rule does ("" if none)."""
        rules = self.rules
        lang = self.lang
        symbols = self.style.symbols
        if len(cards) < 3:
            return tr(lang, "why_short")
        naturals = [c for c in cards if not rules.is_wild(c)]
        if naturals and len({c.rank for c in naturals}) == 1:
            rank = naturals[0].rank
            suit = naturals[0].suit if rules.set_same_suit else -1
            problem = meld_error(Meld("set", tuple(cards), rank, suit), rules)
            return reason(problem, lang, symbols=symbols) if problem else ""
        relaxed = dataclasses.replace(rules, min_naturals_run=0, naturals_at_least_wilds=False,
                                      no_adjacent_wilds_in_run=False, min_naturals_set=0)
        for meld in arrange_meld(list(cards), relaxed, "run", lay_down=False):
            problem = meld_error(meld, rules)
            if problem:
                return reason(problem, lang, symbols=symbols)
        # (mixed ranks and suits are neither: said before a run's length, which
        # would be the reason only for cards that could make a run)
        if rules.run_same_suit and len({c.suit for c in naturals}) > 1:
            return tr(lang, "why_suits")
        if len(cards) < 4:
            return tr(lang, "why_run_short")
        return tr(lang, "why_gaps")

    def lay_off(self, args: Sequence[str], view: SeatView, shown: Sequence[Card]
                ) -> Action | Choice:
        """``off CARD [MELD [END]]``: the legal lay-off it names, a :class:`Choice`
        when it names several, or the lay-off typed (the engine says why not)."""
        if not 1 <= len(args) <= 3:
            raise Refused(tr(self.lang, "off_usage"))
        card = self.card(args[0], shown)
        meld = self.meld_index(args[1], len(view.table)) if len(args) >= 2 else None
        end = self.end(args[2]) if len(args) == 3 else None
        if meld is not None and view.table[meld].kind == "set":
            end = None  # a set has no ends: "high" means nothing there
        fits = [a for a in view.legal_actions if isinstance(a, LayOff) and a.card == card
                and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            table = view.table
            if meld is None:  # (it fits nowhere; or somewhere, not now: the engine says why)
                where = [i for i, m in enumerate(table) if can_lay_off(m, card, self.rules)]
                if not where:
                    raise Refused(tr(self.lang, "off_nowhere", card=self._render(card)))
                return LayOff(card, where[0], end)
            if not can_lay_off(table[meld], card, self.rules):  # (never, not only not now)
                raise Refused(self._render(GameError("does_not_fit", card=card,
                                                     meld=table[meld])))
            return LayOff(card, meld, end)
        return Choice(tuple(fits), ask_end=meld is not None and {a.meld for a in fits} == {meld})

    def swap(self, args: Sequence[str], view: SeatView, shown: Sequence[Card]) -> SwapJoker:
        """``swap CARD MELD``: the legal swap it names, else the one typed (with the
        meld's first wild card; the engine says why not)."""
        if len(args) != 2:
            raise Refused(tr(self.lang, "swap_usage"))
        card = self.card(args[0], shown)
        meld = self.meld_index(args[1], len(view.table))
        for a in view.legal_actions:
            if isinstance(a, SwapJoker) and a.card == card and a.meld == meld:
                return a
        cards = view.table[meld].cards
        wilds = [i for i, c in enumerate(cards) if self.rules.is_wild(c)]
        return SwapJoker(card, meld, wilds[0] if wilds else 0)

    def discard(self, args: Sequence[str], shown: Sequence[Card]) -> Discard:
        """``discard CARD`` (``CARD!``, ``CARD !`` or ``CARD shanghai``: announced)."""
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
        return Discard(self.card(word, shown), announce)

    def call(self, args: Sequence[str], view: SeatView) -> Action | Choice:
        """``call [MELD [END]]``: with the shanghai call, the legal call it names (a
        :class:`Choice` when several), else the call typed; otherwise a plain call."""
        if self.rules.discard_call != "shanghai" or view.phase != "call":
            self.no_args(args)
            return Call()
        meld = self.meld_index(args[0], len(view.table)) if args else None
        end = self.end(args[1]) if len(args) >= 2 else None
        if len(args) > 2:
            raise Refused(tr(self.lang, "extra_words", words=clip(" ".join(args[2:]))))
        if meld is not None and view.table[meld].kind == "set":
            end = None
        fits = [a for a in view.legal_actions if isinstance(a, Call)
                and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(fits) == 1:
            return fits[0]
        if not fits:
            return Call(-1 if meld is None else meld, end)
        return Choice(tuple(fits))
