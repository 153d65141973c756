"""Melds: sets and runs, laying off, joker swaps, and checking a lay-down.

A :class:`Meld` is a meld as it lies on the table: its kind, its cards (a run
written low to high with every wild in its place), and what it stands for (the
rank of a set; the rank of the first card of a run, and the run's suit).

>>> from liverpool import load_rules, parse_cards
>>> rules = load_rules("liverpool")
>>> classify_meld(parse_cards("7H 8H * TH"), rules)
'run'
>>> classify_meld(parse_cards("QD QH *"), rules)
'set'
>>> classify_meld(parse_cards("QD * *"), rules) is None   # a set keeps two natural cards
True
>>> can_lay_off(parse_cards("5H 6H 7H 8H"), parse_cards("9H")[0], rules)
True

The search for a lay-down of a round's contract is :mod:`liverpool.solver`'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import RANKS, SUITS, Card, check_cards, format_cards
from .errors import REASONS, GameError
from .rules import Contract, Rules, RulesError

__all__ = [
    "LayDownMode",
    "Meld",
    "MeldError",
    "arrange_meld",
    "can_lay_off",
    "cards_left",
    "check_lay_down",
    "classify_meld",
    "grow_lay_down",
    "lay_down_mode",
    "lay_off",
    "meld_error",
    "meld_from_table",
    "meld_problem",
    "natural_at",
    "runs_adjacent",
    "set_order",
    "swap_joker",
    "table_readings",
]

MeldKind = Literal["set", "run"]
End = Literal["low", "high"]
#: How much of the hand a lay-down must use: ``normal`` (any part), ``all`` (the
#: whole hand, final round ``all_at_once``), ``all_but_one`` (final round
#: ``all_at_once_discard``).
LayDownMode = Literal["normal", "all", "all_but_one"]

_RANK_WORDS = ("", "aces", "twos", "threes", "fours", "fives", "sixes", "sevens",
               "eights", "nines", "tens", "jacks", "queens", "kings")
_DEUCE_OF_SPADES = 1  # Card.index of 2S


class MeldError(GameError):
    """A meld, lay-off, swap or lay-down breaks the rules; the message says why."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld as it lies on the table.

    ``rank`` is the rank of a set, or the rank of the first (lowest) card of a
    run (1 = ace low; a run may run up to the ace high). ``suit`` is the run's
    suit, or the set's suit when sets must be one suit; -1 when any suit goes.

    >>> from liverpool import parse_cards
    >>> m = Meld("run", tuple(parse_cards("5H 6H * 8H")), 5, 1)
    >>> str(m), m.stands_for(2)
    ('5H 6H * 8H', Card('7H'))
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    rank: int
    suit: int = -1

    def identity(self, position: int) -> tuple[int, int]:
        """(rank, suit) that the card at ``position`` stands for (suit -1: any)."""
        if self.kind == "set":
            return self.rank, self.suit
        return (self.rank - 1 + position) % 13 + 1, self.suit

    def stands_for(self, position: int) -> Card | None:
        """The natural card the card at ``position`` stands for (None if any suit fits)."""
        rank, suit = self.identity(position)
        return Card(rank, suit) if suit >= 0 else None

    @property
    def high_rank(self) -> int:
        """A run's last position as a rank number (14 for an ace high)."""
        return self.rank + len(self.cards) - 1

    def __str__(self) -> str:
        return format_cards(self.cards)

    def describe(self) -> str:
        """The meld in words, e.g. ``set of nines`` or ``run 5H-8H``."""
        if self.kind == "set":
            return f"set of {_RANK_WORDS[self.rank]}"
        return f"run {self.cards[0] if not self.cards[0].is_joker else '*'}..{self.cards[-1]}"

    def to_json(self) -> dict[str, object]:
        """The meld as JSON data, in the card notation: ``rank`` is the set's
        rank or the run's first rank (``"A"`` … ``"K"``), ``suit`` the run's suit
        (``"S"``, ``"H"``, ``"D"``, ``"C"``; null when any suit goes).

        >>> from liverpool import parse_cards
        >>> Meld("run", tuple(parse_cards("5H 6H * 8H")), 5, 1).to_json()
        {'kind': 'run', 'cards': ['5H', '6H', '*', '8H'], 'rank': '5', 'suit': 'H'}
        """
        return {"kind": self.kind, "cards": [str(c) for c in self.cards],
                "rank": RANKS[self.rank - 1] if 1 <= self.rank <= 13 else self.rank,
                "suit": SUITS[self.suit] if 0 <= self.suit < 4 else None}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Meld:
        """Read a meld from :meth:`to_json` data (ranks and suits as numbers are
        read too); raises :class:`MeldError` when malformed."""
        if not isinstance(data, dict):
            raise MeldError("meld_malformed")
        kind = data.get("kind")
        cards = data.get("cards")
        rank = data.get("rank")
        suit = data.get("suit", -1)
        if isinstance(rank, str) and len(rank) == 1 and rank in RANKS:
            rank = RANKS.index(rank) + 1
        elif rank == "10":
            rank = 10
        if suit is None:
            suit = -1
        elif isinstance(suit, str) and len(suit) == 1 and suit in SUITS:
            suit = SUITS.index(suit)
        if kind not in ("set", "run") or not isinstance(cards, list) or not isinstance(rank, int) \
                or isinstance(rank, bool) or not isinstance(suit, int) or isinstance(suit, bool) \
                or not -1 <= suit < 4:
            raise MeldError("meld_malformed")
        return cls(kind, tuple(Card.parse(str(c)) for c in cards), rank, suit)


# --------------------------------------------------------------------------- checks
def natural_at(card: Card, rank: int, suit: int) -> bool:
    """Is ``card`` the natural card of ``rank`` (and ``suit``, unless it is -1)?"""
    return card.rank == rank and (suit < 0 or card.suit == suit)


def meld_error(meld: Meld, rules: Rules, *, lay_down: bool = True) -> str | None:
    """Why ``meld`` may not lie on the table under ``rules`` (None if it may):
    the English reason of :func:`meld_problem`.

    ``lay_down`` applies the checks made only when a meld is first laid down
    (the three-beside-the-ace rule of ``run_wrap = "three_beside_ace"``).
    """
    problem = meld_problem(meld, rules, lay_down=lay_down)
    if problem is None:
        return None
    code, params = problem
    if not params:
        return REASONS[code]
    if code == "set_wrong_card":  # the set's rank as a word: "nines"
        ranks = params["ranks"]
        return REASONS[code].format(card=params["card"],
                                    ranks=_RANK_WORDS[ranks] if isinstance(ranks, int) else ranks)
    return REASONS[code].format_map(params)


#: The problems without parameters (shared: never change their dicts).
_PROBLEM: dict[str, tuple[str, dict[str, object]]] = {code: (code, {}) for code in REASONS}


def meld_problem(meld: Meld, rules: Rules, *, lay_down: bool = True
                 ) -> tuple[str, dict[str, object]] | None:
    """Why ``meld`` may not lie on the table under ``rules``, as the code of
    :data:`liverpool.errors.REASONS` and its parameters (None if it may).

    >>> from liverpool import load_rules, parse_cards
    >>> meld_problem(Meld("set", tuple(parse_cards("9H 9S QS")), 9), load_rules("liverpool"))
    ('set_wrong_card', {'card': Card('QS'), 'ranks': 9})
    """
    cards = meld.cards
    n = len(cards)
    deuce = rules.wild_deuce_of_spades  # (is_wild and natural_at inline below: hot loops)
    suit = meld.suit
    if meld.kind == "set":
        if n < 3:
            return _PROBLEM["set_too_short"]
        if not 1 <= meld.rank <= 13:
            return _PROBLEM["set_bad_rank"]
        if rules.set_same_suit and not 0 <= meld.suit <= 3:
            return _PROBLEM["set_needs_suit"]
        if not rules.set_same_suit and meld.suit != -1:
            return _PROBLEM["set_mixes_suits"]
        naturals = 0
        rank = meld.rank
        for c in cards:
            if c.rank == rank and (suit < 0 or c.suit == suit):
                naturals += 1
            elif not (c.rank == 0 or (deuce and c.index == _DEUCE_OF_SPADES)):
                return "set_wrong_card", {"card": c, "ranks": meld.rank}
        wilds = n - naturals
        if naturals == 0:
            return _PROBLEM["meld_no_natural"]
        if naturals < rules.min_naturals_set:
            return "set_few_naturals", {"n": rules.min_naturals_set}
        if rules.naturals_at_least_wilds and wilds > naturals:
            return _PROBLEM["meld_too_wild"]
        return None
    # run
    if n < 4:
        return _PROBLEM["run_too_short"]
    if rules.run_same_suit and not 0 <= meld.suit <= 3:
        return _PROBLEM["run_needs_suit"]
    if not rules.run_same_suit and meld.suit != -1:
        return _PROBLEM["run_mixes_suits"]
    if rules.run_wrap == "never":
        if meld.rank < 1 or meld.rank + n - 1 > 14:
            return _PROBLEM["run_no_corner"]
    elif n > 13 or not 1 <= meld.rank <= 13:
        return _PROBLEM["run_corner_repeats"]
    naturals = 0
    prev_wild = False
    ace_at = -1
    for i, c in enumerate(cards):
        rank = (meld.rank - 1 + i) % 13 + 1
        if rank == 1:
            ace_at = i
        if c.rank == rank and (suit < 0 or c.suit == suit):
            naturals += 1
            prev_wild = False
        elif c.rank == 0 or (deuce and c.index == _DEUCE_OF_SPADES):
            if prev_wild and rules.no_adjacent_wilds_in_run:
                return _PROBLEM["run_wilds_adjacent"]
            prev_wild = True
        else:
            return "run_wrong_card", {"card": c}
    wilds = n - naturals
    if naturals == 0:
        return _PROBLEM["meld_no_natural"]
    if naturals < rules.min_naturals_run:
        return "run_few_naturals", {"n": rules.min_naturals_run}
    if rules.naturals_at_least_wilds and wilds > naturals:
        return _PROBLEM["meld_too_wild"]
    if (lay_down and rules.run_wrap == "three_beside_ace" and ace_at >= 0
            and ace_at < 3 and n - 1 - ace_at < 3):
        return _PROBLEM["run_ace_beside"]
    return None


def arrange_meld(cards: Iterable[Card], rules: Rules, kind: MeldKind | None = None,
                 *, lay_down: bool = True) -> list[Meld]:
    """Every way these cards (in any order) can lie as one meld.

    Runs differ by where their wilds stand: ``5H 6H 7H *`` is 4H-7H or 5H-8H.

    >>> from liverpool import load_rules, parse_cards
    >>> [str(m) for m in arrange_meld(parse_cards("7H 5H * 6H"), load_rules("liverpool"), "run")]
    ['* 5H 6H 7H', '5H 6H 7H *']
    """
    if isinstance(cards, str | int):
        check_cards(cards)
    cards = list(cards)
    out: list[Meld] = []
    try:
        if kind in (None, "set"):
            out.extend(_arrange_set(cards, rules, lay_down))
        if kind in (None, "run"):
            out.extend(_arrange_runs(cards, rules, lay_down))
    except (AttributeError, TypeError):
        check_cards(cards)
        raise
    return out


def _arrange_set(cards: list[Card], rules: Rules, lay_down: bool) -> list[Meld]:
    if len(cards) < 3:
        return []
    fixed = [c for c in cards if not rules.is_wild(c)]
    if fixed:
        rank = fixed[0].rank
        suit = fixed[0].suit if rules.set_same_suit else -1
    elif any(c.index == _DEUCE_OF_SPADES for c in cards):
        rank, suit = 2, (0 if rules.set_same_suit else -1)
    else:
        return []
    meld = Meld("set", tuple(sorted(cards, key=set_order)), rank, suit)
    return [meld] if meld_problem(meld, rules, lay_down=lay_down) is None else []


def set_order(c: Card) -> tuple[int, int]:
    """The sort key of a set's cards: the natural cards by suit, then the jokers."""
    return (1, 0) if c.rank == 0 else (0, c.suit)


def _arrange_runs(cards: list[Card], rules: Rules, lay_down: bool) -> list[Meld]:
    n = len(cards)
    if n < 4:
        return []
    wrap = rules.run_wrap != "never"
    if wrap and n > 13:
        return []
    jokers = [c for c in cards if c.rank == 0]
    deuces = [c for c in cards if c.rank != 0 and rules.is_wild(c)]
    fixed = [c for c in cards if not rules.is_wild(c)]
    if rules.run_same_suit:
        suits = {c.suit for c in fixed}
        if len(suits) > 1:
            return []
        suit = suits.pop() if suits else 0
    else:
        suit = -1
    starts = range(1, 14) if wrap else range(1, 16 - n)
    # A-2-...-K-A holds the ace twice: a natural ace may stand low or high
    ace_ends = (False, True) if n == 14 and any(c.rank == 1 for c in fixed) else (False,)
    out: list[Meld] = []
    seen: set[tuple[int, tuple[Card, ...]]] = set()
    for start, ace_high in itertools.product(starts, ace_ends):
        slots: list[Card | None] = [None] * n
        ok = True
        for c in fixed:
            order = range(n - 1, -1, -1) if ace_high and c.rank == 1 else range(n)
            for i in order:
                if slots[i] is None and (start - 1 + i) % 13 + 1 == c.rank:
                    slots[i] = c
                    break
            else:
                ok = False
                break
        if not ok:
            continue
        free_deuces = list(deuces)
        if free_deuces and suit in (0, -1):
            for i in range(n):
                if slots[i] is None and (start - 1 + i) % 13 + 1 == 2:
                    slots[i] = free_deuces.pop()
        wild_pool = jokers + free_deuces
        filled = [s if s is not None else wild_pool.pop() for s in slots]
        meld = Meld("run", tuple(filled), start, suit)
        if (start, meld.cards) not in seen and meld_problem(meld, rules, lay_down=lay_down) is None:
            seen.add((start, meld.cards))
            out.append(meld)
    return out


def classify_meld(cards: Iterable[Card], rules: Rules) -> Literal["set", "run"] | None:
    """Could these cards (any order) be laid down as one meld: ``"set"``, ``"run"`` or None.

    Wilds go wherever they are legal; the minimum sizes 3 and 4 apply,
    ``contract_exact`` does not. Cards that could be either are a ``"set"``.
    """
    if isinstance(cards, str | int):
        check_cards(cards)
    cards = list(cards)
    try:
        if _arrange_set(cards, rules, True):
            return "set"
        if _arrange_runs(cards, rules, True):
            return "run"
    except (AttributeError, TypeError):
        check_cards(cards)
        raise
    return None


def meld_from_table(cards: Sequence[Card], rules: Rules) -> Meld | None:
    """Read a meld written as it lies on the table (runs low to high, wilds in
    place); a set when the cards could be either. See :func:`table_readings`."""
    readings = table_readings(cards, rules)
    return readings[0] if readings else None


def table_readings(cards: Sequence[Card], rules: Rules) -> list[Meld]:
    """Every meld these cards could be as they lie on the table: a set, and runs
    read low to high with the wilds in their places (``4H * * *`` is 4H-7H; with
    few naturals the same cards may also read as a set)."""
    cards = list(cards)
    out = list(_arrange_set(cards, rules, False))
    n = len(cards)
    if n < 4:
        return out
    wrap = rules.run_wrap != "never"
    fixed = [c for c in cards if not rules.is_wild(c)]
    suit = -1
    if rules.run_same_suit:
        suits = {c.suit for c in fixed}
        if len(suits) > 1:
            return out
        suit = suits.pop() if suits else 0
    starts = range(1, 14) if wrap else range(1, 16 - n)
    for start in starts:
        meld = Meld("run", tuple(cards), start, suit)
        if meld_problem(meld, rules, lay_down=False) is None:
            out.append(meld)
    return out


def lay_off(meld: Meld, card: Card, rules: Rules, end: End | None = None) -> Meld | None:
    """The meld after laying ``card`` off on it, or None if it does not fit.

    For a run, ``end`` says which end (``"low"`` or ``"high"``); None tries the
    high end, then the low end.
    """
    if meld.kind == "set":
        new = Meld("set", meld.cards + (card,), meld.rank, meld.suit)
        return new if meld_problem(new, rules, lay_down=False) is None else None
    for e in ((end,) if end is not None else ("high", "low")):
        n = len(meld.cards)
        if e == "high":
            new = Meld("run", meld.cards + (card,), meld.rank, meld.suit)
        else:
            if rules.run_wrap == "never":
                start = meld.rank - 1
                if start < 1:
                    continue
            else:
                start = (meld.rank - 2) % 13 + 1
            new = Meld("run", (card,) + meld.cards, start, meld.suit)
        if n + 1 > (14 if rules.run_wrap == "never" else 13):
            continue
        if meld_problem(new, rules, lay_down=False) is None:
            return new
    return None


def can_lay_off(meld: Meld | Sequence[Card], card: Card, rules: Rules) -> bool:
    """Can ``card`` be laid off on ``meld`` (a :class:`Meld`, or its cards as they
    lie on the table: runs low to high with wilds in their places)?
    """
    try:
        if isinstance(meld, Meld):
            return lay_off(meld, card, rules) is not None
        readings = table_readings(meld, rules)
        if not readings:
            raise MeldError("meld_invalid", cards=tuple(meld))
        return any(lay_off(m, card, rules) is not None for m in readings)
    except (AttributeError, TypeError):
        check_cards(meld.cards if isinstance(meld, Meld) else meld, card)
        raise


def swap_joker(meld: Meld, position: int, card: Card, rules: Rules) -> Meld | None:
    """The meld after ``card`` replaces the wild at ``position`` (None if not allowed)."""
    if rules.joker_swap == "none" or (rules.joker_swap == "runs" and meld.kind == "set"):
        return None
    if not 0 <= position < len(meld.cards):
        return None
    old = meld.cards[position]
    rank, suit = meld.identity(position)
    if not rules.is_wild(old) or natural_at(old, rank, suit):
        return None
    if not natural_at(card, rank, suit):
        return None
    cards = meld.cards[:position] + (card,) + meld.cards[position + 1:]
    return Meld(meld.kind, cards, meld.rank, meld.suit)


# --------------------------------------------------------------------- lay-downs
def lay_down_mode(rules: Rules, round: int) -> LayDownMode:
    """How much of the hand a lay-down in ``round`` must use."""
    mode = rules.final_mode(round)
    if mode == "all_at_once":
        return "all"
    if mode == "all_at_once_discard":
        return "all_but_one"
    return "normal"


def runs_adjacent(a: Meld, b: Meld, wrap: bool) -> bool:
    """Do runs ``a`` and ``b`` of one suit join end to end (``wrap``: runs go
    round the corner)?"""
    if a.suit != b.suit:
        return False
    if wrap:
        a_next = (a.rank - 1 + len(a.cards)) % 13 + 1
        b_next = (b.rank - 1 + len(b.cards)) % 13 + 1
        return a_next == b.rank or b_next == a.rank
    return a.rank + len(a.cards) == b.rank or b.rank + len(b.cards) == a.rank


def cards_left(hand: Sequence[Card], melds: Sequence[Meld]) -> list[Card]:
    """The cards of ``hand`` left once the cards of ``melds`` (all held) are
    taken out, in the hand's order.

    >>> from liverpool import parse_cards
    >>> hand = parse_cards("7H 7S 7D KS 2C")
    >>> cards_left(hand, [Meld("set", tuple(hand[:3]), 7)])
    [Card('KS'), Card('2C')]
    """
    left = list(hand)
    for m in melds:
        for c in m.cards:
            left.remove(c)
    return left


def check_lay_down(hand: Sequence[Card], melds: Sequence[Meld], rules: Rules, round: int) -> None:
    """Raise :class:`MeldError` saying why ``melds`` is not a legal lay-down of
    ``round``'s contract from ``hand``; return None if it is.
    """
    contract = rules.contract(round)
    mode = lay_down_mode(rules, round)
    sets = [m for m in melds if m.kind == "set"]
    runs = [m for m in melds if m.kind == "run"]
    if len(sets) != contract.sets or len(runs) != contract.runs:
        raise MeldError("contract_shape", round=round, contract=contract,
                        given=Contract(len(sets), len(runs)))
    for m in melds:
        problem = meld_problem(m, rules, lay_down=True)
        if problem is not None:
            raise MeldError(problem[0], meld=m, **problem[1])
        if mode == "normal" and rules.contract_exact and len(m.cards) != (3 if m.kind == "set" else 4):
            raise MeldError("contract_exact", meld=m, size=3 if m.kind == "set" else 4,
                            kind=m.kind)
    wrap = rules.run_wrap != "never"
    if rules.forbid_adjacent_same_suit_runs:
        for i, a in enumerate(runs):
            for b in runs[i + 1:]:
                if runs_adjacent(a, b, wrap):
                    raise MeldError("runs_join", first=a, second=b)
    if rules.forbid_same_rank_sets:
        ranks = [m.rank for m in sets]
        if len(set(ranks)) != len(ranks):
            raise MeldError("sets_same_rank")
    counts: dict[Card, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    used = 0
    for m in melds:
        for c in m.cards:
            left = counts.get(c, 0)
            if left <= 0:
                raise MeldError("lay_down_not_held_more" if c in hand else "lay_down_not_held",
                                card=c)
            counts[c] = left - 1
            used += 1
    left_over = len(hand) - used
    if mode == "all" and left_over:
        raise MeldError("lay_down_all")
    if mode == "all_but_one" and left_over != 1:
        raise MeldError("lay_down_all_but_one")



def _check_round(rules: Rules, round: int) -> None:
    if not 1 <= round <= rules.num_rounds:
        raise RulesError("rules_round", rounds=rules.num_rounds, round=round)


def grow_lay_down(melds: Sequence[Meld], hand: Sequence[Card], rules: Rules,
                  round: int) -> tuple[Meld, ...]:
    """The lay-down ``melds`` (of ``hand``, legal in ``round``) grown with the
    hand's other natural cards wherever they fit, as the engine suggests a
    lay-down: a longer set or run now instead of a lay-off at the next turn.
    The melds stay as they are in an all-at-once final round, under
    ``contract_exact``, when nothing fits, and when the hand would be left
    with no card to discard under ``go_out_requires_discard``.

    >>> from liverpool import load_rules, parse_cards
    >>> rules = load_rules("liverpool")
    >>> hand = parse_cards("7H 7S 7D 7C 9S 9D 9C KH")
    >>> melds = [Meld("set", tuple(parse_cards("7H 7S 7D")), 7),
    ...          Meld("set", tuple(parse_cards("9S 9D 9C")), 9)]
    >>> [str(m) for m in grow_lay_down(melds, hand, rules, 1)]
    ['7H 7S 7D 7C', '9S 9D 9C']
    """
    minimal = tuple(melds)
    if lay_down_mode(rules, round) != "normal" or rules.contract_exact:
        return minimal
    left = cards_left(hand, melds)
    grown = list(melds)
    changed = True
    grew = False
    while changed and left:
        changed = False
        for c in list(left):
            if rules.is_wild(c):
                continue
            for i, m in enumerate(grown):
                if not _may_grow(m, c):
                    continue
                longer = lay_off(m, c, rules)
                if longer is not None and meld_problem(longer, rules) is None:
                    grown[i] = longer
                    left.remove(c)
                    changed = grew = True
                    break
    if not grew or (not left and rules.go_out_requires_discard):
        return minimal
    try:
        check_lay_down(hand, grown, rules, round)
    except MeldError:
        return minimal
    return tuple(grown)


def _may_grow(meld: Meld, card: Card) -> bool:
    """Could the natural ``card`` be laid off on ``meld`` at all? (A cheap
    necessary condition of :func:`lay_off`: its rank, and the meld's suit if
    it has one, at a set's rank or just below or above a run's ends.)"""
    if meld.suit >= 0 and card.suit != meld.suit:
        return False
    rank = card.rank
    if meld.kind == "set":
        return rank == meld.rank
    return rank == (meld.rank - 2) % 13 + 1 or rank == (meld.rank - 1 + len(meld.cards)) % 13 + 1
