"""Words shared by every text: pieces of text with cards in them, cards, names,
contracts and lists, in each language."""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from ..cards import Card, CardError
from ._catalog import LANGUAGES, translations

__all__ = [
    "CardFormat",
    "Segments",
    "bot_name",
    "card_formatter",
    "card_letters",
    "card_name",
    "card_symbol",
    "contract_words",
    "default_name",
    "fill",
    "join",
    "join_words",
    "to_text",
]

#: A piece of text: strings and the cards in it (the caller decides how a card looks).
Segments = list[str | Card]
#: How cards are shown: ``"letters"`` (9H), ``"symbols"`` (9♥), ``"words"``
#: (nine of hearts, hjerter ni) or a function of the card.
CardFormat = Literal["letters", "symbols", "words"] | Callable[[Card], str] | None

_FORMATTER = string.Formatter()


def fill(template: str, values: Mapping[str, object]) -> Segments:
    """``template`` with its ``{name}`` fields replaced by ``values``.

    A value is a card, a list of segments, or anything else (shown with
    ``str``); a field without a value stays as it is, braces included.
    """
    out: Segments = []
    try:
        parsed = list(_FORMATTER.parse(template))
    except ValueError:
        return [template]
    for literal, field, spec, _conversion in parsed:
        if literal:
            out.append(literal)
        if field is None:
            continue
        if field not in values:
            out.append("{" + field + "}")
            continue
        value = values[field]
        if isinstance(value, list):
            out.extend(value)
        elif isinstance(value, Card):
            out.append(value)
        else:
            out.append(format(value, spec) if spec else str(value))
    return out


def join(parts: Iterable[Segments], sep: str) -> Segments:
    """The pieces one after the other, ``sep`` between them."""
    out: Segments = []
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        out.extend(part)
    return out


def cards_segments(cards: Iterable[Card], sep: str = " ") -> Segments:
    return join(([c] for c in cards), sep)


def join_words(items: Sequence[Segments], lang: str) -> Segments:
    """``A``, ``A and B``, ``A, B and C`` (og in Norwegian and Danish)."""
    t = translations(lang)
    if not items:
        return []
    if len(items) == 1:
        return list(items[0])
    head = join(items[:-1], ", ")
    return fill(t.gettext("{first} and {last}"), {"first": head, "last": list(items[-1])})


def default_name(seat: int, lang: str) -> str:
    """``Seat 1``, ``Plass 1``, ``Plads 1`` for seat index 0."""
    return translations(lang).gettext("Seat {n}").format(n=seat + 1)


def bot_first_names(lang: str) -> list[str]:
    """The bots' first names in ``lang``, the one of seat 1 first (seat 0's last).

    >>> bot_first_names("en")[:3]
    ['Ada', 'Ben', 'Cleo']
    """
    t = translations(lang)
    # TRANSLATORS: the bots' first names, one per seat, comma-separated (eight or more: a
    # table of eight then always finds a bot a name none of the people there has)
    return [n.strip() for n in t.gettext("Ada, Ben, Cleo, Dan, Eve, Finn, Gus, Hal").split(",")]


def bot_name(seat: int, level: str, lang: str, *, first: str | None = None) -> str:
    """A bot's name at ``seat`` (index 0 upward) with its level, in ``lang``:
    short, friendly and different at each seat of a table; ``first`` instead
    of the seat's own first name (one of :func:`bot_first_names`).

    >>> bot_name(1, "medium", "en"), bot_name(1, "medium", "nb"), bot_name(2, "hard", "da")
    ('Ada (bot, medium)', 'Ola (robot, middels)', 'Mette (robot, svær)')
    >>> bot_name(1, "easy", "en", first="Gus")
    'Gus (bot, easy)'
    """
    t = translations(lang)
    if first is None:
        names = bot_first_names(lang)
        first = names[(seat - 1) % len(names)] if seat > 0 else names[-1]
    levels = {"easy": t.gettext("easy"), "medium": t.gettext("medium"), "hard": t.gettext("hard")}
    # TRANSLATORS: a bot's name at a table: its first name and its level (easy, medium, hard)
    return t.gettext("{name} (bot, {level})").format(name=first, level=levels.get(level, level))


def contract_words(sets: int, runs: int, lang: str = "en") -> str:
    """A contract in words: ``2 sets + 1 run``, ``2 tress + 1 straight``, ``2 sæt + 1 sekvens``."""
    t = translations(lang)
    parts = []
    if sets:
        parts.append(t.ngettext("{n} set", "{n} sets", sets).format(n=sets))
    if runs:
        parts.append(t.ngettext("{n} run", "{n} runs", runs).format(n=runs))
    if not parts:
        return t.gettext("nothing")
    return " + ".join(parts)


def _rank_word(rank: int, lang: str) -> str:
    t = translations(lang)
    words = (
        t.pgettext("rank", "ace"), t.pgettext("rank", "two"), t.pgettext("rank", "three"),
        t.pgettext("rank", "four"), t.pgettext("rank", "five"), t.pgettext("rank", "six"),
        t.pgettext("rank", "seven"), t.pgettext("rank", "eight"), t.pgettext("rank", "nine"),
        t.pgettext("rank", "ten"), t.pgettext("rank", "jack"), t.pgettext("rank", "queen"),
        t.pgettext("rank", "king"),
    )
    return words[rank - 1]


def rank_plural(rank: int, lang: str) -> str:
    """``nines``, ``niere``: the cards of a set of ``rank``."""
    t = translations(lang)
    words = (
        t.pgettext("ranks", "aces"), t.pgettext("ranks", "twos"), t.pgettext("ranks", "threes"),
        t.pgettext("ranks", "fours"), t.pgettext("ranks", "fives"), t.pgettext("ranks", "sixes"),
        t.pgettext("ranks", "sevens"), t.pgettext("ranks", "eights"),
        t.pgettext("ranks", "nines"), t.pgettext("ranks", "tens"), t.pgettext("ranks", "jacks"),
        t.pgettext("ranks", "queens"), t.pgettext("ranks", "kings"),
    )
    return words[rank - 1]


def suit_word(suit: int, lang: str) -> str:
    t = translations(lang)
    words = (t.pgettext("suit", "spades"), t.pgettext("suit", "hearts"),
             t.pgettext("suit", "diamonds"), t.pgettext("suit", "clubs"))
    return words[suit]


def card_name(card: Card, lang: str = "en") -> str:
    """The card in words: ``nine of hearts``, ``hjerter ni``; ``joker``."""
    t = translations(lang)
    if card.is_joker:
        return t.gettext("joker")
    return t.pgettext("card", "{rank} of {suit}").format(
        rank=_rank_word(card.rank, lang), suit=suit_word(card.suit, lang))


def card_letters(card: Card) -> str:
    """The card in letters for people to read: the notation (``9H``), but a ten
    is ``10S``, not ``TS`` (both are read back: :meth:`Card.parse`)."""
    text = str(card)
    return "10" + text[1:] if text[0] == "T" else text


def card_symbol(card: Card) -> str:
    """The card with its suit's symbol for people to read: ``9♥``, ``10♠``
    (:meth:`Card.symbol` keeps the notation's ``T♠``); the joker is ``*``."""
    text = card.symbol()
    return "10" + text[1:] if text[0] == "T" else text


def card_formatter(cards: CardFormat = None, symbols: bool = False,
                   lang: str = "en", *, joker_word: bool = False) -> Callable[[Card], str]:
    """The function that shows one card: ``cards`` if it is one, else by its name
    (``None``: symbols if ``symbols``, else letters). Letters and symbols show a
    ten as ``10`` (``10♠``, ``10S``): the words people read, not the notation.
    With ``joker_word`` they show a joker by its name in ``lang`` (``joker``, as
    the page's cards name it), not by the notation's ``*``.

    >>> show = card_formatter(symbols=True)
    >>> show(Card.parse("TS")), card_formatter("letters")(Card.parse("10H"))
    ('10♠', '10H')
    >>> show(Card.parse("*")), card_formatter(symbols=True, joker_word=True)(Card.parse("*"))
    ('*', 'joker')
    """
    if callable(cards):
        return cards
    if cards == "words":
        return lambda c: card_name(c, lang)
    show = card_symbol if cards == "symbols" or (cards is None and symbols) else card_letters
    if joker_word:
        return lambda c: card_name(c, lang) if c.is_joker else show(c)
    return show


def to_text(parts: Segments, show: Callable[[Card], str]) -> str:
    return "".join(show(p) if isinstance(p, Card) else p for p in parts)


def as_card(value: object) -> Card | None:
    """A card given as a card or in the notation (None if it is neither)."""
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        try:
            return Card.parse(value)
        except CardError:
            return None
    return None


def language(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else English."""
    return lang if lang in LANGUAGES else "en"
