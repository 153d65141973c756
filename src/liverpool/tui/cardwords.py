"""Cards as people type them: the notation, the local rank and suit letters of
Norwegian and Danish, and numbers that pick a card of the shown hand.

>>> from liverpool.cards import Card
>>> str(parse_card_word("DK", "nb")), str(parse_card_word("EsH", "da"))
('QC', 'AH')
>>> str(parse_card_word("knr", "nb")), str(parse_card_word("9hjerter", "nb"))
('JD', '9H')
>>> str(parse_card_word("sparkonge", "nb")), str(parse_card_word("KløverKnægt", "da"))
('KS', 'JC')
>>> str(parse_card_word("hjertersju", "nb")), str(parse_card_word("damekløver", "nb"))
('7H', 'QC')
>>> str(parse_card_word("10♥", "en")), str(parse_card_word("2", "en", [Card.parse("5S"),
...                                                                  Card.parse("9H")]))
('TH', '9H')
>>> str(parse_card_word("DK", "en")), parse_card_word("DK", "en", []) == parse_card_word("KD", "en")
('KD', True)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import RANKS, Card, CardError

__all__ = ["LOCAL_RANKS", "LOCAL_SUITS", "is_card_number", "parse_card_word"]

#: The rank words of each language beside the notation (``A 2..9 T J Q K``, ``10``).
LOCAL_RANKS: dict[str, dict[str, str]] = {
    "nb": {"e": "A", "es": "A", "ess": "A", "d": "Q", "kn": "J", "b": "J", "k": "K",
           "konge": "K", "dame": "Q", "knekt": "J", "bonde": "J",
           "to": "2", "tre": "3", "fire": "4", "fem": "5", "seks": "6", "sju": "7",
           "syv": "7", "åtte": "8", "atte": "8", "ni": "9", "ti": "T"},
    "da": {"e": "A", "es": "A", "d": "Q", "kn": "J", "b": "J", "k": "K",
           "konge": "K", "dame": "Q", "knægt": "J", "knaegt": "J", "bonde": "J",
           "to": "2", "tre": "3", "fire": "4", "fem": "5", "seks": "6", "syv": "7",
           "otte": "8", "ni": "9", "ti": "T"},
}

#: The suit letters and words of each language beside ``S H D C`` and ``♠ ♥ ♦ ♣``.
LOCAL_SUITS: dict[str, dict[str, str]] = {
    "nb": {"s": "S", "spar": "S", "h": "H", "hjerter": "H", "r": "D", "ruter": "D",
           "k": "C", "kløver": "C", "klover": "C", "kl": "C"},
    "da": {"s": "S", "spar": "S", "h": "H", "hjerter": "H", "r": "D", "ruder": "D",
           "k": "C", "klør": "C", "klor": "C", "kløver": "C", "klover": "C", "kl": "C"},
}

_NOTATION_RANKS = {r.lower(): r for r in RANKS} | {"10": "T"}


def is_card_number(word: str) -> bool:
    """Is ``word`` a number (a card's place in the shown hand)?"""
    return word.isdigit() and len(word) <= 3


def parse_card_word(word: str, lang: str, shown: Sequence[Card] = ()) -> Card | None:
    """The card ``word`` names in ``lang``, or None if it names none.

    A number picks the card at that place (from 1) of ``shown``, the hand as
    the screen shows it. Otherwise the notation (``9H``, ``10♥``, ``*``) works
    in every language; in ``nb`` and ``da`` also the local ranks (E/Es/Ess ace,
    D queen, Kn/B jack, K king, and the whole words: konge, dame, knekt/knægt,
    bonde, to .. ti) and suits (S spar, H hjerter, R ruter/ruder, K
    kløver/klør), rank first or suit first, in one word (``sparkonge``,
    ``kløver9``). A word two readings fit is None.
    """
    if is_card_number(word):
        n = int(word)
        return shown[n - 1] if 1 <= n <= len(shown) else None
    ranks = _NOTATION_RANKS | LOCAL_RANKS.get(lang, {})
    suits = LOCAL_SUITS.get(lang, {})
    low = word.lower()
    english = {"s": "S", "h": "H", "d": "D", "c": "C"}

    def readings(suit_first: bool) -> set[str]:
        found: set[str] = set()
        for i in range(1, len(low)):
            rank_part, suit_part = (low[i:], low[:i]) if suit_first else (low[:i], low[i:])
            rank = ranks.get(rank_part)
            suit = suits.get(suit_part) or english.get(suit_part)
            if rank and suit:
                found.add(rank + suit)
        return found

    # rank first in the language (DK: dame kløver), then the notation (which also
    # takes a suit first: DK is KD in English), then a suit word first (hjerter9)
    found = readings(False) if suits else set()
    if not found:
        try:
            return Card.parse(word)
        except CardError:
            if not suits:
                return None
        found = readings(True)
    if len(found) != 1:
        return None
    return Card.parse(found.pop())
