"""Cards and the card notation.

A card is a small immutable value: a rank and a suit, or the joker. Cards of
the same rank and suit from different decks are *equal* for the rules; the game
state holds each physical card as its own list entry, so two ``9H`` in a hand
are two cards.

Notation: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` is accepted for ``T``),
suit ``S H D C`` (``♠ ♥ ♦ ♣`` are accepted, before or after the rank), joker
``*`` (``JK`` is accepted).

>>> parse_cards("9H TD AS *")
[Card('9H'), Card('TD'), Card('AS'), Card('*')]
>>> format_cards(parse_cards("10♥ ♣️5 jk"))
'TH 5C *'
>>> Card.parse("QS").rank, Card.parse("QS").suit
(12, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from .errors import GameError, shown_value

__all__ = [
    "JOKER",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Card",
    "CardError",
    "check_cards",
    "format_cards",
    "make_deck",
    "parse_cards",
]

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
_RANK_NAMES = (
    "",
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)

#: Index of the joker in :attr:`Card.index` (natural cards use 0..51).
JOKER_INDEX = 52


class CardError(GameError):
    """A card or a list of cards could not be read: a
    :class:`~liverpool.errors.GameError` with one of the ``card_*`` codes
    (``text`` is what was read)."""


class Card:
    """One card: ``rank`` 1 (ace) .. 13 (king) and ``suit`` 0..3 (S H D C),
    or the joker (rank 0, suit -1).

    Cards are interned: ``Card.parse("9H") is Card.parse("9H")``.

    >>> Card.parse("TD")
    Card('TD')
    >>> str(Card.parse("10d")), Card.parse("10d").symbol()
    ('TD', 'T♦')
    >>> Card.parse("*").is_joker
    True
    """

    __slots__ = ("_text", "index", "rank", "suit")

    rank: int
    suit: int
    index: int
    _text: str

    _table: ClassVar[list[Card]] = []

    def __new__(cls, rank: int, suit: int) -> Card:
        if rank == 0:
            return cls._table[JOKER_INDEX]
        if not (1 <= rank <= 13 and 0 <= suit <= 3):
            raise CardError("card_no_such", rank=rank, suit=suit)
        return cls._table[suit * 13 + rank - 1]

    @classmethod
    def _make(cls, rank: int, suit: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        if rank == 0:
            object.__setattr__(card, "index", JOKER_INDEX)
            object.__setattr__(card, "_text", "*")
        else:
            object.__setattr__(card, "index", suit * 13 + rank - 1)
            object.__setattr__(card, "_text", RANKS[rank - 1] + SUITS[suit])
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this :attr:`index` (0..52); another raises
        :class:`CardError` ``card_no_index``."""
        try:
            if index >= 0:
                return cls._table[index]
        except (TypeError, IndexError):
            pass
        raise CardError("card_no_index", value=shown_value(index))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card in the notation; raises :class:`CardError`."""
        if not isinstance(text, str):
            raise CardError("card_not_text", value=shown_value(text))
        raw = text
        t = text.strip().replace("\ufe0f", "").upper()
        if t in ("*", "JK", "JOKER"):
            return cls._table[JOKER_INDEX]
        if not t:
            raise CardError("card_empty")
        suit_char = None
        rank_part = t
        for symbols in (SUITS, SUIT_SYMBOLS):
            if t[-1] in symbols and len(t) > 1:
                suit_char, rank_part = symbols.index(t[-1]), t[:-1]
                break
            if t[0] in symbols and len(t) > 1:
                suit_char, rank_part = symbols.index(t[0]), t[1:]
                break
        if suit_char is None:
            raise CardError("card_bad_suit", text=raw)
        if rank_part == "10":
            rank_part = "T"
        if len(rank_part) != 1 or rank_part not in RANKS:
            raise CardError("card_bad_rank", text=raw)
        return cls._table[suit_char * 13 + RANKS.index(rank_part)]

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``9♥``; the joker is ``*``."""
        if self.rank == 0:
            return "*"
        return RANKS[self.rank - 1] + SUIT_SYMBOLS[self.suit]

    def name(self) -> str:
        """The card in English words, e.g. ``nine of hearts``."""
        if self.rank == 0:
            return "joker"
        return f"{_RANK_NAMES[self.rank]} of {_SUIT_NAMES[self.suit]}"

    def __eq__(self, other: object) -> bool:
        return self is other

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.sort_key() < other.sort_key()

    def sort_key(self) -> tuple[int, int]:
        """Sort by suit, then rank; jokers last."""
        if self.rank == 0:
            return (4, 0)
        return (self.suit, self.rank)


Card._table = [Card._make(r, s) for s in range(4) for r in range(1, 14)] + [Card._make(0, -1)]

JOKER = Card.from_index(JOKER_INDEX)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a space- or comma-separated list of cards.

    >>> parse_cards("5C 6C 7C 8C")
    [Card('5C'), Card('6C'), Card('7C'), Card('8C')]
    >>> parse_cards("9X")
    Traceback (most recent call last):
    ...
    liverpool.cards.CardError: '9X' is not a card: the suit must be one of S H D C (or ♠ ♥ ♦ ♣), for example 9H, TD, AS, or * for a joker
    """
    if isinstance(text, str):
        parts: list[object] = list(text.replace(",", " ").split())
    elif isinstance(text, Iterable):
        parts = list(text)
    else:
        parts = [text]  # (refused below: no text)
    return [Card.parse(p) for p in parts]  # type: ignore[arg-type]  # (refused if not text)


def check_cards(cards: object, *more: object) -> None:
    """Raise :class:`CardError` unless ``cards`` is a collection of
    :class:`Card` (and each of ``more`` a :class:`Card`): ``cards_text`` for a
    string, ``card_not_card`` for anything else. The rules' functions call it
    when their input failed them, so that a developer learns why.

    >>> check_cards(parse_cards("9H 9S"), Card.parse("9D"))
    >>> check_cards("9H 9S 9D")
    Traceback (most recent call last):
    ...
    liverpool.cards.CardError: '9H 9S 9D' is text, not cards: read it with parse_cards('9H 9S 9D')
    >>> check_cards(["9H"])
    Traceback (most recent call last):
    ...
    liverpool.cards.CardError: '9H' is not a Card: read cards with Card.parse or parse_cards
    """
    if isinstance(cards, str):
        raise CardError("cards_text", value=shown_value(cards))
    if not isinstance(cards, Iterable):
        raise CardError("card_not_card", value=shown_value(cards))
    for card in (*cards, *more):
        if not isinstance(card, Card):
            raise CardError("card_not_card", value=shown_value(card))


def format_cards(cards: Iterable[Card], symbols: bool = False) -> str:
    """Write cards in the notation, space-separated.

    >>> format_cards(parse_cards("AS 10H *"))
    'AS TH *'
    >>> format_cards(parse_cards("AS 10H"), symbols=True)
    'A♠ T♥'
    """
    if symbols:
        return " ".join(c.symbol() for c in cards)
    return " ".join(str(c) for c in cards)


def make_deck(decks: int, jokers: int) -> list[Card]:
    """``decks`` standard 52-card decks plus ``jokers`` jokers, in a fixed order.

    >>> len(make_deck(2, 4))
    108
    """
    naturals = Card._table[:JOKER_INDEX]
    return list(naturals) * decks + [JOKER] * jokers
