"""Melds: sets and runs, laying off, joker swaps, and the contract solver.

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
>>> [format_cards(m) for m in find_contract(parse_cards("9H 9S 9D 5C 6C 7C 8C KS 4D 2H 8S"), load_rules("remi"), 2)]
['5C 6C 7C 8C', '9S 9H 9D']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Literal

from .cards import JOKER, Card, format_cards
from .rules import Contract, Rules, RulesError

__all__ = [
    "LayDownMode",
    "Meld",
    "MeldError",
    "arrange_meld",
    "can_lay_off",
    "check_lay_down",
    "classify_meld",
    "find_contract",
    "find_lay_down",
    "iter_lay_downs",
    "lay_off",
    "lay_down_mode",
    "meld_error",
    "meld_from_table",
    "swap_joker",
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


class MeldError(ValueError):
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
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "rank": self.rank,
                "suit": self.suit}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Meld:
        kind = data["kind"]
        cards = data["cards"]
        rank = data["rank"]
        suit = data.get("suit", -1)
        if kind not in ("set", "run") or not isinstance(cards, list) or not isinstance(rank, int) \
                or not isinstance(suit, int):
            raise MeldError(f"not a meld: {data!r}")
        return cls(kind, tuple(Card.parse(str(c)) for c in cards), rank, suit)


# --------------------------------------------------------------------------- checks
def _natural_at(card: Card, rank: int, suit: int) -> bool:
    return card.rank == rank and (suit < 0 or card.suit == suit)


def meld_error(meld: Meld, rules: Rules, *, lay_down: bool = True) -> str | None:
    """Why ``meld`` may not lie on the table under ``rules`` (None if it may).

    ``lay_down`` applies the checks made only when a meld is first laid down
    (the three-beside-the-ace rule of ``run_wrap = "three_beside_ace"``).
    """
    cards = meld.cards
    n = len(cards)
    is_wild = rules.is_wild
    if meld.kind == "set":
        if n < 3:
            return "a set needs at least 3 cards"
        if rules.set_same_suit and meld.suit < 0:
            return "a set must be of one suit under these rules"
        naturals = 0
        for c in cards:
            if _natural_at(c, meld.rank, meld.suit):
                naturals += 1
            elif not is_wild(c):
                what = _RANK_WORDS[meld.rank] if 1 <= meld.rank <= 13 else "?"
                return f"{c} does not belong in a set of {what}"
        wilds = n - naturals
        if naturals == 0:
            return "a meld needs at least one natural card"
        if naturals < rules.min_naturals_set:
            return f"a set must hold at least {rules.min_naturals_set} natural cards"
        if rules.naturals_at_least_wilds and wilds > naturals:
            return "a meld may not hold more wild cards than natural cards"
        return None
    # run
    if n < 4:
        return "a run needs at least 4 cards"
    if rules.run_same_suit and meld.suit < 0:
        return "a run must be of one suit"
    if rules.run_wrap == "never":
        if meld.rank < 1 or meld.rank + n - 1 > 14:
            return "a run may not turn the corner (K-A-2)"
    elif n > 13 or not 1 <= meld.rank <= 13:
        return "a run that turns the corner may hold each rank only once"
    naturals = 0
    prev_wild = False
    ace_at = -1
    for i, c in enumerate(cards):
        rank = (meld.rank - 1 + i) % 13 + 1
        if rank == 1:
            ace_at = i
        if _natural_at(c, rank, meld.suit):
            naturals += 1
            prev_wild = False
        elif is_wild(c):
            if prev_wild and rules.no_adjacent_wilds_in_run:
                return "two wild cards may not lie side by side in a run"
            prev_wild = True
        else:
            return f"{c} does not fit at that place in the run"
    wilds = n - naturals
    if naturals == 0:
        return "a meld needs at least one natural card"
    if naturals < rules.min_naturals_run:
        return f"a run must hold at least {rules.min_naturals_run} natural cards"
    if rules.naturals_at_least_wilds and wilds > naturals:
        return "a meld may not hold more wild cards than natural cards"
    if (lay_down and rules.run_wrap == "three_beside_ace" and ace_at >= 0
            and ace_at < 3 and n - 1 - ace_at < 3):
        return "a run with an ace in it needs three cards on one side of the ace to be laid down"
    return None


def arrange_meld(cards: Iterable[Card], rules: Rules, kind: MeldKind | None = None,
                 *, lay_down: bool = True) -> list[Meld]:
    """Every way these cards (in any order) can lie as one meld.

    Runs differ by where their wilds stand: ``5H 6H 7H *`` is 4H-7H or 5H-8H.

    >>> from liverpool import load_rules, parse_cards
    >>> [str(m) for m in arrange_meld(parse_cards("7H 5H * 6H"), load_rules("liverpool"), "run")]
    ['* 5H 6H 7H', '5H 6H 7H *']
    """
    cards = list(cards)
    out: list[Meld] = []
    if kind in (None, "set"):
        out.extend(_arrange_set(cards, rules, lay_down))
    if kind in (None, "run"):
        out.extend(_arrange_runs(cards, rules, lay_down))
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
    meld = Meld("set", tuple(sorted(cards, key=_set_order)), rank, suit)
    return [meld] if meld_error(meld, rules, lay_down=lay_down) is None else []


def _set_order(c: Card) -> tuple[int, int]:
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
    out: list[Meld] = []
    seen: set[tuple[Card, ...]] = set()
    for start in starts:
        slots: list[Card | None] = [None] * n
        ok = True
        for c in fixed:
            for i in range(n):
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
        if meld.cards not in seen and meld_error(meld, rules, lay_down=lay_down) is None:
            seen.add(meld.cards)
            out.append(meld)
    return out


def classify_meld(cards: Iterable[Card], rules: Rules) -> Literal["set", "run"] | None:
    """Could these cards (any order) be laid down as one meld: ``"set"``, ``"run"`` or None.

    Wilds go wherever they are legal; the minimum sizes 3 and 4 apply,
    ``contract_exact`` does not. Cards that could be either are a ``"set"``.
    """
    cards = list(cards)
    if _arrange_set(cards, rules, True):
        return "set"
    if _arrange_runs(cards, rules, True):
        return "run"
    return None


def meld_from_table(cards: Sequence[Card], rules: Rules) -> Meld | None:
    """Read a meld written as it lies on the table (runs low to high, wilds in place)."""
    cards = list(cards)
    sets = _arrange_set(cards, rules, False)
    if sets:
        return sets[0]
    n = len(cards)
    if n < 4:
        return None
    wrap = rules.run_wrap != "never"
    fixed = [c for c in cards if not rules.is_wild(c)]
    suit = -1
    if rules.run_same_suit:
        suits = {c.suit for c in fixed}
        if len(suits) > 1:
            return None
        suit = suits.pop() if suits else 0
    starts = range(1, 14) if wrap else range(1, 16 - n)
    for start in starts:
        meld = Meld("run", tuple(cards), start, suit)
        if meld_error(meld, rules, lay_down=False) is None:
            return meld
    return None


def lay_off(meld: Meld, card: Card, rules: Rules, end: End | None = None) -> Meld | None:
    """The meld after laying ``card`` off on it, or None if it does not fit.

    For a run, ``end`` says which end (``"low"`` or ``"high"``); None tries the
    high end, then the low end.
    """
    if meld.kind == "set":
        new = Meld("set", meld.cards + (card,), meld.rank, meld.suit)
        return new if meld_error(new, rules, lay_down=False) is None else None
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
        if meld_error(new, rules, lay_down=False) is None:
            return new
    return None


def can_lay_off(meld: Meld | Sequence[Card], card: Card, rules: Rules) -> bool:
    """Can ``card`` be laid off on ``meld`` (a :class:`Meld`, or its cards as they
    lie on the table: runs low to high with wilds in their places)?
    """
    if not isinstance(meld, Meld):
        read = meld_from_table(meld, rules)
        if read is None:
            raise MeldError(f"{format_cards(meld)} is not a meld under these rules")
        meld = read
    return lay_off(meld, card, rules) is not None


def swap_joker(meld: Meld, position: int, card: Card, rules: Rules) -> Meld | None:
    """The meld after ``card`` replaces the wild at ``position`` (None if not allowed)."""
    if rules.joker_swap == "none" or (rules.joker_swap == "runs" and meld.kind == "set"):
        return None
    if not 0 <= position < len(meld.cards) or rules.is_wild(card):
        return None
    old = meld.cards[position]
    rank, suit = meld.identity(position)
    if not rules.is_wild(old) or _natural_at(old, rank, suit):
        return None
    if not _natural_at(card, rank, suit):
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


def _runs_adjacent(a: Meld, b: Meld, wrap: bool) -> bool:
    if a.suit != b.suit:
        return False
    if wrap:
        a_next = (a.rank - 1 + len(a.cards)) % 13 + 1
        b_next = (b.rank - 1 + len(b.cards)) % 13 + 1
        return a_next == b.rank or b_next == a.rank
    return a.rank + len(a.cards) == b.rank or b.rank + len(b.cards) == a.rank


def check_lay_down(hand: Sequence[Card], melds: Sequence[Meld], rules: Rules, round: int) -> None:
    """Raise :class:`MeldError` saying why ``melds`` is not a legal lay-down of
    ``round``'s contract from ``hand``; return None if it is.
    """
    contract = rules.contract(round)
    mode = lay_down_mode(rules, round)
    sets = [m for m in melds if m.kind == "set"]
    runs = [m for m in melds if m.kind == "run"]
    if len(sets) != contract.sets or len(runs) != contract.runs:
        raise MeldError(f"the contract of round {round} is {contract.describe()}, "
                        f"not {Contract(len(sets), len(runs)).describe() or 'nothing'}")
    for m in melds:
        problem = meld_error(m, rules, lay_down=True)
        if problem:
            raise MeldError(f"{m}: {problem}")
        if mode == "normal" and rules.contract_exact and len(m.cards) != (3 if m.kind == "set" else 4):
            raise MeldError(f"{m}: the contract must be laid down with exactly "
                            f"{3 if m.kind == 'set' else 4} cards in a {m.kind}")
    wrap = rules.run_wrap != "never"
    if rules.forbid_adjacent_same_suit_runs:
        for i, a in enumerate(runs):
            for b in runs[i + 1:]:
                if _runs_adjacent(a, b, wrap):
                    raise MeldError(f"{a} and {b} join end to end: they would be one run, not two")
    if rules.forbid_same_rank_sets:
        ranks = [m.rank for m in sets]
        if len(set(ranks)) != len(ranks):
            raise MeldError("two sets of the same rank may not be laid down as two melds")
    counts: dict[Card, int] = {}
    for c in hand:
        counts[c] = counts.get(c, 0) + 1
    used = 0
    for m in melds:
        for c in m.cards:
            left = counts.get(c, 0)
            if left <= 0:
                raise MeldError(f"you do not have {'another ' if c in hand else ''}{c} in your hand")
            counts[c] = left - 1
            used += 1
    left_over = len(hand) - used
    if mode == "all" and left_over:
        raise MeldError("in this round the whole hand must go down at once")
    if mode == "all_but_one" and left_over != 1:
        raise MeldError("in this round all cards but the one you discard must go down at once")


def find_lay_down(hand: Sequence[Card], rules: Rules, round: int) -> list[Meld] | None:
    """One legal lay-down of ``round``'s contract from ``hand`` (minimal melds,
    or the whole hand in an all-at-once final round), or None.
    """
    solver = _Solver(hand, rules, rules.contract(round), lay_down_mode(rules, round))
    for found in solver.solve(first_only=True):
        return found
    return None


def find_contract(hand: Sequence[Card], rules: Rules, round: int) -> list[list[Card]] | None:
    """One legal lay-down of ``round``'s contract from ``hand`` as lists of cards
    (runs low to high with wilds in place), or None if there is none.

    In an ``all_at_once`` final round it uses the whole hand; in
    ``all_at_once_discard`` all cards but one.
    """
    found = find_lay_down(hand, rules, round)
    return None if found is None else [list(m.cards) for m in found]


def iter_lay_downs(hand: Sequence[Card], rules: Rules, round: int) -> Iterator[list[Meld]]:
    """Lazily yield the distinct legal lay-downs of ``round``'s contract.

    In a normal round the melds have their minimum sizes (3 and 4, longer only
    where the wild limits need it); extend them by laying off later, or pass a
    longer lay-down to :func:`check_lay_down`. Interchangeable wilds (which of
    two jokers goes where) are not told apart.
    """
    solver = _Solver(hand, rules, rules.contract(round), lay_down_mode(rules, round))
    seen: set[tuple[tuple[Card, ...], ...]] = set()
    for found in solver.solve(first_only=False):
        key = tuple(sorted((m.cards if m.kind == "run" else tuple(sorted(m.cards, key=_set_order))
                            for m in found), key=lambda cs: [c.index for c in cs]))
        if key not in seen:
            seen.add(key)
            yield found


# ------------------------------------------------------------------- the solver
class _Solver:
    """Exact search for lay-downs: runs first (by window and fill), then sets by
    counting (a greedy choice is exact for minimal sets; a small partition search
    when the whole hand must go down)."""

    def __init__(self, hand: Sequence[Card], rules: Rules, contract: Contract,
                 mode: LayDownMode) -> None:
        self.hand = list(hand)
        self.rules = rules
        self.contract = contract
        self.mode = mode
        self.wrap = rules.run_wrap != "never"

    # The entry point -------------------------------------------------------
    def solve(self, first_only: bool) -> Iterator[list[Meld]]:
        hand = self.hand
        if self.mode == "all_but_one":
            # a card that fits in no meld at all must be the discard
            self._load(hand)
            self.whole = True
            self.exact = False
            lonely = self._uncoverable()
            if len(lonely) > 1:
                return
            tried: set[Card] = set()
            for i, c in enumerate(hand):
                if c in tried or (lonely and c.index != lonely[0]):
                    continue
                tried.add(c)
                yield from self._solve_cards(hand[:i] + hand[i + 1:], "all", first_only)
            return
        yield from self._solve_cards(hand, self.mode, first_only)

    def _solve_cards(self, cards: list[Card], mode: LayDownMode,
                     first_only: bool) -> Iterator[list[Meld]]:
        rules = self.rules
        contract = self.contract
        need = contract.min_cards
        if len(cards) < need:
            return
        self._load(cards)
        self.whole = mode == "all"
        self.exact = mode == "normal" and rules.contract_exact
        self.reduce = not self.whole and not rules.forbid_adjacent_same_suit_runs
        if not self._quick_possible():
            return
        if self.whole and self._uncoverable():
            return
        self.first_only = first_only
        yield from self._runs(contract.runs, (-2, 0), [])

    def _load(self, cards: list[Card]) -> None:
        nat = [0] * 52
        jokers = 0
        deuces = 0
        wild_deuce = self.rules.wild_deuce_of_spades
        for c in cards:
            if c.rank == 0:
                jokers += 1
            elif wild_deuce and c.index == _DEUCE_OF_SPADES:
                deuces += 1
            else:
                nat[c.index] += 1
        self.nat = nat
        self.jokers = jokers
        self.deuces = deuces

    # Quick necessary conditions (normal mode) ------------------------------
    def _quick_possible(self) -> bool:
        wilds = self.jokers + self.deuces
        contract = self.contract
        if contract.sets and self._max_sets_upper(wilds) < contract.sets:
            return False
        if contract.runs:
            need_nat = max(1, 4 - wilds)
            windows = 0
            for lane_mask in self._lane_masks():
                m = lane_mask
                for start in range(1, 14 if self.wrap else 12):
                    if ((m >> start) & 15).bit_count() >= need_nat:
                        windows += 1
            # each run needs its own window (two runs may share a window only with duplicates)
            if windows == 0:
                return False
        return True

    def _uncoverable(self, runs_left: int = -1, min_key: tuple[int, int] = (-2, 0)) -> list[int]:
        """The natural cards that can be in no meld at all (whole-hand rounds):
        not in a set of their rank, and in no run window of their lane (with
        ``runs_left`` runs still to choose, at or after ``min_key``)."""
        rules = self.rules
        nat = self.nat
        contract = self.contract
        if runs_left < 0:
            runs_left = contract.runs
        wilds = self.jokers + self.deuces
        lonely: list[int] = []
        settable = [False] * 14
        if contract.sets:
            kmin = self._kmin()
            for r in range(1, 14):
                c = nat[r - 1] + nat[12 + r] + nat[25 + r] + nat[38 + r]
                if r == 2:
                    c += self.deuces
                settable[r] = c >= kmin and c + wilds >= 3
        covers: list[int] = []
        if runs_left:
            need = max(1, 4 - wilds)
            top = 14 if self.wrap else 12
            lanes = (0, 1, 2, 3) if rules.run_same_suit else (-1,)
            for lane, m in zip(lanes, self._lane_masks(), strict=True):
                cover = 0
                if lane < min_key[0]:
                    covers.append(0)
                    continue
                first = min_key[1] if lane == min_key[0] else 1
                for start in range(max(1, first), top):
                    w = 15 << start
                    if (m & w).bit_count() >= need:
                        cover |= w
                if self.wrap:
                    cover |= cover >> 13
                elif cover & (1 << 14):
                    cover |= 2
                covers.append(cover)
        any_suit = not rules.run_same_suit
        for i in range(52):
            c = nat[i]
            if not c:
                continue
            r = i % 13 + 1
            if settable[r]:
                continue
            if covers and (covers[0 if any_suit else i // 13] >> r) & 1:
                continue
            lonely.extend([i] * c)
        return lonely

    def _max_sets_upper(self, wilds: int) -> int:
        rules = self.rules
        nat = self.nat
        kmin = self._kmin()
        size = self._set_size()
        if kmin > size and not self.whole:
            return 0
        costs: list[int] = []
        if rules.set_same_suit:
            groups = [nat[i] for i in range(52)]
        else:
            groups = [nat[r] + nat[13 + r] + nat[26 + r] + nat[39 + r] for r in range(13)]
        if self.deuces:
            groups = list(groups)
            groups[1] += self.deuces
        for c in groups:
            if c < kmin:
                continue
            jmax = 1 if rules.forbid_same_rank_sets else c // kmin
            for j in range(1, jmax + 1):
                costs.append(max(0, size * j - c) - max(0, size * (j - 1) - c))
        costs.sort()
        total = 0
        count = 0
        for cost in costs:
            total += cost
            if total > wilds:
                break
            count += 1
        return count

    def _lane_masks(self) -> list[int]:
        """Per run lane, a bit mask of the ranks with a natural card (bit r for
        rank r, bit 14 for the ace high, doubled up to 26 when runs wrap)."""
        nat = self.nat
        masks = []
        lanes = range(4) if self.rules.run_same_suit else (-1,)
        for lane in lanes:
            m = 0
            for r in range(1, 14):
                if lane >= 0:
                    have = nat[lane * 13 + r - 1]
                else:
                    have = nat[r - 1] + nat[12 + r] + nat[25 + r] + nat[38 + r]
                if have or (r == 2 and self.deuces and lane in (0, -1)):
                    m |= 1 << r
            if self.wrap:
                m |= m << 13
            elif m & 2:
                m |= 1 << 14
            masks.append(m)
        return masks

    # Runs ------------------------------------------------------------------
    def _max_run_len(self) -> int:
        if self.exact:
            return 4
        if self.whole:
            return 13 if self.wrap else 14
        # A longer run can always be cut down to a shorter legal one, unless both
        # ends are natural and the run holds just the naturals it must (its
        # wild-card limits are tight): such runs hold at most max(m, W) + W cards.
        wilds = self.jokers + self.deuces
        tight = max(1, self.rules.min_naturals_run)
        if self.rules.naturals_at_least_wilds:
            tight = max(tight, wilds)
        return min(13 if self.wrap else 14, max(5, tight + wilds))

    def _runs(self, k: int, min_key: tuple[int, int], chosen: list[Meld]) -> Iterator[list[Meld]]:
        if k == 0:
            for sets in self._sets():
                yield chosen + sets
                if self.first_only:
                    return
            return
        rules = self.rules
        if self.whole and k == 1 and self.contract.sets == 0:
            rest = self._remaining_cards()
            for meld in _arrange_runs(rest, rules, True):
                if self._run_ok_with(meld, chosen):
                    yield chosen + [meld]
                    if self.first_only:
                        return
            return
        lanes = (0, 1, 2, 3) if rules.run_same_suit else (-1,)
        max_len = self._max_run_len()
        wrap = self.wrap
        wilds = self.jokers + self.deuces
        masks = self._lane_masks()
        for li, lane in enumerate(lanes):
            if lane < min_key[0]:
                continue
            mask = masks[li]
            if not mask:
                continue
            for start in range(1, 14 if wrap else 12):
                if lane == min_key[0] and start < min_key[1]:
                    continue
                top = min(max_len, 13 if wrap else 15 - start)
                window = mask >> start
                for length in range(4, top + 1):
                    present = (window & ((1 << length) - 1)).bit_count()
                    if length - present > wilds:
                        break  # longer windows of this start miss even more
                    if not present:
                        continue
                    for meld, used in self._fills(lane, start, length):
                        if not self._run_ok_with(meld, chosen):
                            continue
                        self._take(used)
                        if self.whole and self._uncoverable(k - 1, (lane, start)):
                            self._give(used)
                            continue
                        found = False
                        for result in self._runs(k - 1, (lane, start), chosen + [meld]):
                            found = True
                            yield result
                            if self.first_only:
                                break
                        self._give(used)
                        if found and self.first_only:
                            return

    def _run_ok_with(self, meld: Meld, chosen: list[Meld]) -> bool:
        if not self.rules.forbid_adjacent_same_suit_runs:
            return True
        return not any(_runs_adjacent(meld, other, self.wrap) for other in chosen)

    def _fills(self, lane: int, start: int, length: int) -> Iterator[tuple[Meld, list[int]]]:
        """Every way to fill a run window from the remaining cards.

        ``used`` lists what it takes: natural card indices, -1 a joker, -2 a deuce
        of spades used as a wild, -3 a deuce of spades in its own place.
        """
        rules = self.rules
        nat = self.nat
        jokers = self.jokers
        deuces = self.deuces
        wilds = jokers + deuces
        options: list[list[int]] = []
        need_nat = max(1, rules.min_naturals_run,
                       (length + 1) // 2 if rules.naturals_at_least_wilds else 1)
        missing = 0
        present = 0
        any_suit = lane < 0
        for i in range(length):
            rank = (start - 1 + i) % 13 + 1
            opts: list[int] = []
            if any_suit:
                best = -1
                for s in range(4):
                    idx = s * 13 + rank - 1
                    if nat[idx] and (best < 0 or nat[idx] > nat[best]):
                        best = idx
                    if rules.set_same_suit and nat[idx]:
                        opts.append(idx)
                if best >= 0 and not rules.set_same_suit:
                    opts.append(best)
            else:
                idx = lane * 13 + rank - 1
                if nat[idx]:
                    opts.append(idx)
            if rank == 2 and deuces and lane in (0, -1):
                opts.append(-3)
            if opts:
                present += 1
            else:
                missing += 1
                if missing > wilds:
                    return
            if wilds:
                opts.append(-1)
            options.append(opts)
        if present < need_nat:
            return
        for combo in product(*options):
            used = list(combo)
            j = used.count(-1)
            d3 = used.count(-3)
            if j + d3 > jokers + deuces:
                continue
            if d3 > deuces:
                continue
            # wilds: jokers first, then deuces as wilds
            use_j = min(j, jokers)
            use_d = j - use_j
            if use_d + d3 > deuces:
                continue
            naturals = length - j
            if naturals < need_nat:
                continue
            if self.whole is False and j and not self.exact and length > 4:
                # a longer window only helps when its wilds are needed for the limits
                pass
            # check multiplicities of naturals (any-suit lanes may reuse a suit)
            ok = True
            if any_suit:
                tally: dict[int, int] = {}
                for u in used:
                    if u >= 0:
                        tally[u] = tally.get(u, 0) + 1
                        if tally[u] > nat[u]:
                            ok = False
                            break
            else:
                # the ace may stand at both ends of a 14-card run
                seen_ace = 0
                for u in used:
                    if u >= 0 and u % 13 == 0:
                        seen_ace += 1
                if seen_ace > 1 and nat[lane * 13] < seen_ace:
                    ok = False
            if not ok:
                continue
            cards: list[Card] = []
            jl = use_j
            taken: list[int] = []
            for u in used:
                if u >= 0:
                    cards.append(Card.from_index(u))
                    taken.append(u)
                elif u == -3:
                    cards.append(Card.from_index(_DEUCE_OF_SPADES))
                    taken.append(-2)
                elif jl:
                    cards.append(JOKER)
                    jl -= 1
                    taken.append(-1)
                else:
                    cards.append(Card.from_index(_DEUCE_OF_SPADES))
                    taken.append(-2)
            meld = Meld("run", tuple(cards), start, lane if rules.run_same_suit else -1)
            if meld_error(meld, rules, lay_down=True) is None:
                if length > 4 and self.reduce and self._reducible(meld):
                    continue
                yield meld, taken

    def _reducible(self, meld: Meld) -> bool:
        """Can an end card come off this (legal) run leaving a legal run? Then the
        shorter run serves a normal lay-down just as well (the card stays in hand)."""
        rules = self.rules
        n = len(meld.cards)
        low = Meld("run", meld.cards[1:], meld.rank % 13 + 1 if self.wrap else meld.rank + 1,
                   meld.suit)
        if meld_error(low, rules, lay_down=True) is None:
            return True
        high = Meld("run", meld.cards[:n - 1], meld.rank, meld.suit)
        return meld_error(high, rules, lay_down=True) is None

    def _take(self, used: list[int]) -> None:
        for u in used:
            if u >= 0:
                self.nat[u] -= 1
            elif u == -1:
                self.jokers -= 1
            else:
                self.deuces -= 1

    def _give(self, used: list[int]) -> None:
        for u in used:
            if u >= 0:
                self.nat[u] += 1
            elif u == -1:
                self.jokers += 1
            else:
                self.deuces += 1

    def _remaining_cards(self) -> list[Card]:
        out: list[Card] = []
        for i, n in enumerate(self.nat):
            if n:
                out.extend([Card.from_index(i)] * n)
        out.extend([Card.from_index(_DEUCE_OF_SPADES)] * self.deuces)
        out.extend([JOKER] * self.jokers)
        return out

    # Sets ------------------------------------------------------------------
    def _set_groups(self) -> list[tuple[int, int, int]]:
        """(rank, suit, natural count) of the remaining naturals, per set key."""
        nat = self.nat
        out = []
        if self.rules.set_same_suit:
            for i in range(52):
                if nat[i]:
                    out.append((i % 13 + 1, i // 13, nat[i]))
        else:
            for r in range(13):
                c = nat[r] + nat[13 + r] + nat[26 + r] + nat[39 + r]
                if c:
                    out.append((r + 1, -1, c))
        return out

    def _sets(self) -> Iterator[list[Meld]]:
        s = self.contract.sets
        if self.whole:
            yield from self._sets_whole(s)
            return
        if s == 0:
            yield []
            return
        if self._kmin() > self._set_size():
            return  # e.g. four natural cards in a set under an exact contract
        yield from self._sets_some(s)

    def _set_size(self) -> int:
        """The size of a minimal set (at least 3; more when the natural minimum asks it)."""
        if self.exact or self.whole:
            return 3
        return max(3, self.rules.min_naturals_set)

    def _kmin(self) -> int:
        """The fewest natural cards a minimal set may hold."""
        r = self.rules
        size = self._set_size()
        return max(1, r.min_naturals_set, (size + 1) // 2 if r.naturals_at_least_wilds else 1)

    def _deuce_splits(self) -> range:
        """How many deuces of spades may serve as natural twos in sets."""
        return range(self.deuces, -1, -1) if self.deuces else range(0, 1)

    def _groups_with_deuces(self, x: int) -> list[tuple[int, int, int]]:
        groups = self._set_groups()
        if x:
            key_suit = 0 if self.rules.set_same_suit else -1
            for gi, (rank, suit, c) in enumerate(groups):
                if rank == 2 and suit == key_suit:
                    groups[gi] = (rank, suit, c + x)
                    break
            else:
                groups.append((2, key_suit, x))
        return groups

    def _sets_some(self, s: int) -> Iterator[list[Meld]]:
        """Minimal sets (3 cards) chosen from the remaining cards."""
        kmin = self._kmin()
        forbid_same = self.rules.forbid_same_rank_sets
        for x in self._deuce_splits():
            groups = self._groups_with_deuces(x)
            wilds = self.jokers + self.deuces - x
            if self.first_only:
                plan = self._greedy_sets(groups, s, wilds, kmin, forbid_same, self._set_size())
                if plan is not None:
                    yield self._build_sets(groups, plan, x)
                    return
                continue
            for plan in self._all_set_plans(groups, s, wilds, kmin, forbid_same):
                yield self._build_sets(groups, plan, x)

    @staticmethod
    def _greedy_sets(groups: list[tuple[int, int, int]], s: int, wilds: int, kmin: int,
                     forbid_same: bool, size: int) -> list[list[int]] | None:
        """Per group, the natural counts of the sets to make (fewest wilds)."""
        costs: list[tuple[int, int]] = []
        by_rank: dict[int, list[int]] = {}
        for gi, (rank, _suit, c) in enumerate(groups):
            if c < kmin:
                continue
            if forbid_same:
                by_rank.setdefault(rank, []).append(gi)
                continue
            for j in range(1, c // kmin + 1):
                costs.append((max(0, size * j - c) - max(0, size * (j - 1) - c), gi))
        for gis in by_rank.values():
            best = min(gis, key=lambda g: max(0, size - groups[g][2]))
            costs.append((max(0, size - groups[best][2]), best))
        if len(costs) < s:
            return None
        costs.sort()
        chosen = costs[:s]
        if sum(c for c, _ in chosen) > wilds:
            return None
        per_group: dict[int, int] = {}
        for _, gi in chosen:
            per_group[gi] = per_group.get(gi, 0) + 1
        plan: list[list[int]] = [[] for _ in groups]
        for gi, j in per_group.items():
            plan[gi] = _split_naturals(groups[gi][2], j, kmin, size)
        return plan

    def _all_set_plans(self, groups: list[tuple[int, int, int]], s: int, wilds: int, kmin: int,
                       forbid_same: bool) -> Iterator[list[list[int]]]:
        """Every choice of minimal sets: per group, the natural counts of its sets."""
        n = len(groups)
        plan: list[list[int]] = [[] for _ in groups]
        size = self._set_size()

        def rec(gi: int, left: int, wl: int, ranks_used: set[int]) -> Iterator[list[list[int]]]:
            if left == 0:
                yield [list(p) for p in plan]
                return
            if gi == n:
                return
            yield from rec(gi + 1, left, wl, ranks_used)
            rank, _suit, c = groups[gi]
            if forbid_same and rank in ranks_used:
                return
            # choose a non-increasing list of natural counts for this group's sets
            max_sets = 1 if forbid_same else min(left, c // kmin)

            def parts(remaining: int, count: int, cap: int) -> Iterator[list[int]]:
                if count == 0:
                    yield []
                    return
                for k in range(min(cap, remaining, size), kmin - 1, -1):
                    for tail in parts(remaining - k, count - 1, k):
                        yield [k, *tail]

            for j in range(1, max_sets + 1):
                for p in parts(c, j, size):
                    w = sum(size - k for k in p)
                    if w > wl:
                        continue
                    plan[gi] = p
                    yield from rec(gi + 1, left - j, wl - w, ranks_used | {rank})
                    plan[gi] = []

        yield from rec(0, s, wilds, set())

    def _build_sets(self, groups: list[tuple[int, int, int]], plan: list[list[int]],
                    deuces_natural: int) -> list[Meld]:
        """Turn per-group natural counts into concrete sets; wild fill: jokers, then deuces."""
        nat = list(self.nat)
        jokers = self.jokers
        deuces_wild = self.deuces - deuces_natural
        deuces_nat = deuces_natural
        melds: list[Meld] = []
        deuce = Card.from_index(_DEUCE_OF_SPADES)
        sizes_total = self._set_size()
        for gi, parts in enumerate(plan):
            rank, suit, _c = groups[gi]
            for k in parts:
                size = sizes_total if not self.whole else k
                cards: list[Card] = []
                for _ in range(k):
                    if suit >= 0:
                        idx = suit * 13 + rank - 1
                        if nat[idx]:
                            nat[idx] -= 1
                            cards.append(Card.from_index(idx))
                            continue
                    else:
                        picked = False
                        for s4 in range(4):
                            idx = s4 * 13 + rank - 1
                            if nat[idx]:
                                nat[idx] -= 1
                                cards.append(Card.from_index(idx))
                                picked = True
                                break
                        if picked:
                            continue
                    # a deuce of spades standing as a natural two
                    deuces_nat -= 1
                    cards.append(deuce)
                for _ in range(size - k):
                    if jokers:
                        jokers -= 1
                        cards.append(JOKER)
                    else:
                        deuces_wild -= 1
                        cards.append(deuce)
                melds.append(Meld("set", tuple(cards), rank, suit))
        return melds

    def _sets_whole(self, s: int) -> Iterator[list[Meld]]:
        """Sets that use every remaining card (final round)."""
        rules = self.rules
        kmin = self._kmin()
        nalw = rules.naturals_at_least_wilds
        forbid_same = rules.forbid_same_rank_sets
        for x in self._deuce_splits():
            groups = self._groups_with_deuces(x)
            wilds = self.jokers + self.deuces - x
            if s == 0:
                if not groups and wilds == 0:
                    yield []
                    if self.first_only:
                        return
                continue
            if not groups or len(groups) > s:
                continue
            if forbid_same and len({g[0] for g in groups}) != len(groups):
                continue
            # choose j >= 1 sets per group, total s, then spread the wilds
            n = len(groups)
            js = [1] * n
            extra = s - n

            def spread(gi: int, left: int, n: int = n, js: list[int] = js,
                       groups: list[tuple[int, int, int]] = groups) -> Iterator[list[int]]:
                if gi == n:
                    if left == 0:
                        yield list(js)
                    return
                c = groups[gi][2]
                cap = 1 if forbid_same else c // kmin
                for add in range(0, min(left, cap - 1) + 1):
                    js[gi] = 1 + add
                    yield from spread(gi + 1, left - add)
                js[gi] = 1

            if extra < 0:
                continue
            for jv in spread(0, extra):
                if any(groups[i][2] < jv[i] * kmin for i in range(n)):
                    continue
                # naturals per set: as even as possible; wilds fill up to size 3 at least
                sizes: list[list[int]] = []
                min_w = 0
                max_w = 0
                for i in range(n):
                    c = groups[i][2]
                    j = jv[i]
                    base, rem = divmod(c, j)
                    ks = [base + 1] * rem + [base] * (j - rem)
                    sizes.append(ks)
                    min_w += sum(max(0, 3 - k) for k in ks)
                    max_w += sum(ks) if nalw else 10**6
                if not (min_w <= wilds <= max_w):
                    continue
                yield self._build_whole_sets(groups, sizes, wilds, x)
                if self.first_only:
                    return

    def _build_whole_sets(self, groups: list[tuple[int, int, int]], sizes: list[list[int]],
                          wilds: int, deuces_natural: int) -> list[Meld]:
        rules = self.rules
        nalw = rules.naturals_at_least_wilds
        # wilds per set: first what each set needs to reach 3, then the rest anywhere allowed
        wild_counts = [[max(0, 3 - k) for k in ks] for ks in sizes]
        left = wilds - sum(sum(w) for w in wild_counts)
        for i, ks in enumerate(sizes):
            for t, k in enumerate(ks):
                while left and (not nalw or wild_counts[i][t] < k):
                    wild_counts[i][t] += 1
                    left -= 1
        melds = self._build_sets(groups, sizes, deuces_natural)
        # _build_sets made sets of exactly k naturals (+0 wilds in whole mode); add wilds
        jokers = self.jokers
        deuce = Card.from_index(_DEUCE_OF_SPADES)
        out: list[Meld] = []
        mi = 0
        for i, ks in enumerate(sizes):
            for t in range(len(ks)):
                m = melds[mi]
                mi += 1
                add: list[Card] = []
                for _ in range(wild_counts[i][t]):
                    if jokers:
                        jokers -= 1
                        add.append(JOKER)
                    else:
                        add.append(deuce)
                out.append(Meld("set", m.cards + tuple(add), m.rank, m.suit))
        return out


def _split_naturals(c: int, j: int, kmin: int, cap: int) -> list[int]:
    """Split up to ``c`` naturals into ``j`` sets of at most ``cap``, each >= kmin,
    using as many naturals as possible."""
    ks = [kmin] * j
    left = c - kmin * j
    for i in range(j):
        add = min(cap - ks[i], left)
        ks[i] += add
        left -= add
    return ks


def _check_round(rules: Rules, round: int) -> None:
    if not 1 <= round <= rules.num_rounds:
        raise RulesError(f"round must be between 1 and {rules.num_rounds}, not {round}")
