"""A brute-force reference for the contract solver (tests only).

Written from docs/rules.md alone, independently of ``liverpool.melds``: it tries
every sub-multiset of the hand as every meld of the contract, and every way a
group of cards can lie as a set or a run (every rank and suit, every start of a
run, every placement of the wilds). It is slow, and meant for hands of up to
about a dozen cards.

Interpretations it shares with the engine (docs/rules.md):

* a wild card is a joker, or every 2S when ``wild_deuce_of_spades``; a wild
  standing for its own identity (2S as a two of spades, or as a two in a set of
  twos) counts as natural;
* every meld holds at least one card that is natural in its place;
* without wrapping a run goes from the ace low up to the ace high (at most 14
  cards); where runs may wrap (``always``, ``three_beside_ace``) a run holds at
  most 13 cards, each rank once;
* ``three_beside_ace`` (at lay-down): a run with an ace position (natural or
  wild) needs three cards on one side of it;
* ``forbid_adjacent_same_suit_runs`` with ``run_same_suit = false`` applies to
  any two runs (they have no suit);
* final rounds: ``all_at_once`` the whole hand goes down, ``all_at_once_discard``
  all cards but one; melds may then be longer whatever ``contract_exact`` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from liverpool.cards import Card
from liverpool.rules import Rules

__all__ = ["Placement", "brute_lay_downs", "run_placements", "set_placements"]

#: How a group of cards lies as a meld: ("set", rank, suit) or ("run", start, suit, length);
#: suit -1 when any suit goes.
Placement = tuple[str, int, int, int]


def _is_wild(card: Card, rules: Rules) -> bool:
    if card.rank == 0:
        return True
    return rules.wild_deuce_of_spades and card.rank == 2 and card.suit == 0


def _fits(card: Card, rank: int, suit: int) -> bool:
    """Is ``card`` natural in a place standing for (rank, suit)? (suit -1: any suit)."""
    return card.rank == rank and (suit == -1 or card.suit == suit)


def set_placements(cards: Sequence[Card], rules: Rules) -> list[Placement]:
    """Every (rank, suit) for which ``cards`` are a legal set."""
    out: list[Placement] = []
    if len(cards) < 3:
        return out
    suits = [0, 1, 2, 3] if rules.set_same_suit else [-1]
    fixed = [c for c in cards if not _is_wild(c, rules)]
    for rank in range(1, 14):
        if any(c.rank != rank for c in fixed):  # a non-wild card must be natural
            continue
        for suit in suits:
            naturals = 0
            wilds = 0
            ok = True
            for c in cards:
                if _fits(c, rank, suit):
                    naturals += 1
                elif _is_wild(c, rules):
                    wilds += 1
                else:
                    ok = False
            if not ok or naturals == 0:
                continue
            if naturals < rules.min_naturals_set:
                continue
            if rules.naturals_at_least_wilds and wilds > naturals:
                continue
            out.append(("set", rank, suit, len(cards)))
    return out


def _run_ok(row: list[Card], ranks: list[int], suit: int, rules: Rules, lay_down: bool) -> bool:
    """Is this row of cards (in place) a legal run standing for ``ranks`` in ``suit``?"""
    natural = [_fits(c, r, suit) for c, r in zip(row, ranks, strict=True)]
    for c, nat in zip(row, natural, strict=True):
        if not nat and not _is_wild(c, rules):
            return False
    n_nat = sum(natural)
    n_wild = len(row) - n_nat
    if n_nat == 0 or n_nat < rules.min_naturals_run:
        return False
    if rules.naturals_at_least_wilds and n_wild > n_nat:
        return False
    if rules.no_adjacent_wilds_in_run:
        for i in range(len(row) - 1):
            if not natural[i] and not natural[i + 1]:
                return False
    if lay_down and rules.run_wrap == "three_beside_ace":
        for i, r in enumerate(ranks):
            if r == 1 and i < 3 and len(ranks) - 1 - i < 3:
                return False
    return True


def _rows(cards: list[Card], ranks: list[int], suit: int, rules: Rules) -> list[list[Card]]:
    """Every way to put ``cards`` in a row so that each non-wild card stands where
    its rank (and suit) is; wilds may stand anywhere."""
    out: list[list[Card]] = []
    row: list[Card] = []

    def place(left: list[Card]) -> None:
        i = len(row)
        if i == len(ranks):
            out.append(list(row))
            return
        tried: set[Card] = set()
        for j, c in enumerate(left):
            if c in tried:
                continue
            tried.add(c)
            if _fits(c, ranks[i], suit) or _is_wild(c, rules):
                row.append(c)
                place(left[:j] + left[j + 1:])
                row.pop()

    place(list(cards))
    return out


def run_placements(cards: Sequence[Card], rules: Rules, lay_down: bool = True) -> list[Placement]:
    """Every (start, suit) for which ``cards`` (in some order) are a legal run."""
    out: list[Placement] = []
    n = len(cards)
    if n < 4:
        return out
    if rules.run_wrap == "never":
        if n > 14:
            return out
        starts = range(1, 16 - n)  # the last position may be 14, the ace high
    else:
        if n > 13:
            return out
        starts = range(1, 14)
    suits = [0, 1, 2, 3] if rules.run_same_suit else [-1]
    cards = list(cards)
    fixed = [c for c in cards if not _is_wild(c, rules)]
    for start in starts:
        ranks = [(start - 1 + i) % 13 + 1 for i in range(n)]
        if any(c.rank not in ranks for c in fixed):  # a non-wild card must be natural
            continue
        for suit in suits:
            if suit >= 0 and any(c.suit != suit for c in fixed):
                continue
            for row in _rows(cards, ranks, suit, rules):
                if _run_ok(row, ranks, suit, rules, lay_down):
                    out.append(("run", start, suit, n))
                    break
    return out


def _runs_join(a: Placement, b: Placement, rules: Rules) -> bool:
    """Do two runs of one suit join end to end (a and b would be one run)?"""
    if a[2] != b[2]:
        return False
    a_ranks = [(a[1] - 1 + i) % 13 + 1 for i in range(a[3])]
    b_ranks = [(b[1] - 1 + i) % 13 + 1 for i in range(b[3])]
    if rules.run_wrap == "never":
        # positions as numbers 1..14; the ace high is 14
        a_lo, a_hi = a[1], a[1] + a[3] - 1
        b_lo, b_hi = b[1], b[1] + b[3] - 1
        return a_hi + 1 == b_lo or b_hi + 1 == a_lo
    return a_ranks[-1] % 13 + 1 == b_ranks[0] or b_ranks[-1] % 13 + 1 == a_ranks[0]


def brute_lay_downs(hand: Sequence[Card], rules: Rules,
                    round: int) -> list[tuple[Placement, list[Card]]] | None:
    """One legal lay-down of ``round``'s contract from ``hand`` as (placement,
    cards) pairs, or None if there is none. Exhaustive."""
    code = rules.contracts[round - 1]
    kinds = sorted(code)  # "R" before "S"
    final = round == len(rules.contracts)
    mode = rules.final_round if final else "normal"
    exact = mode == "normal" and rules.contract_exact

    distinct = sorted(set(hand), key=lambda c: c.index)
    counts = [sum(1 for h in hand if h is c) for c in distinct]
    total = len(hand)

    # every sub-multiset, with its placements as a set and as a run
    options: dict[str, list[tuple[tuple[int, ...], list[Placement]]]] = {"S": [], "R": []}
    for vec in product(*(range(k + 1) for k in counts)):
        size = sum(vec)
        if size < 3:
            continue
        cards = [c for c, k in zip(distinct, vec, strict=True) for _ in range(k)]
        if not (exact and size != 3):
            sp = set_placements(cards, rules)
            if sp:
                options["S"].append((vec, sp))
        if size >= 4 and not (exact and size != 4):
            rp = run_placements(cards, rules, lay_down=True)
            if rp:
                options["R"].append((vec, rp))

    def compatible(placements: list[Placement]) -> bool:
        sets = [p for p in placements if p[0] == "set"]
        runs = [p for p in placements if p[0] == "run"]
        if rules.forbid_same_rank_sets:
            ranks = [p[1] for p in sets]
            if len(set(ranks)) != len(ranks):
                return False
        if rules.forbid_adjacent_same_suit_runs:
            for i, a in enumerate(runs):
                for b in runs[i + 1:]:
                    if _runs_join(a, b, rules):
                        return False
        return True

    chosen: list[tuple[tuple[int, ...], list[Placement]]] = []

    def search(j: int, left: list[int], min_index: int) -> list[tuple[Placement, list[Card]]] | None:
        if j == len(kinds):
            rest = sum(left)
            if mode == "all_at_once" and rest != 0:
                return None
            if mode == "all_at_once_discard" and rest != 1:
                return None
            for combo in product(*(p for _, p in chosen)):
                if compatible(list(combo)):
                    return [(pl, [c for c, k in zip(distinct, vec, strict=True) for _ in range(k)])
                            for pl, (vec, _) in zip(combo, chosen, strict=True)]
            return None
        kind = kinds[j]
        start = min_index if j > 0 and kinds[j - 1] == kind else 0
        opts = options[kind]
        for i in range(start, len(opts)):
            vec, pls = opts[i]
            if any(v > have for v, have in zip(vec, left, strict=True)):
                continue
            chosen.append((vec, pls))
            found = search(j + 1, [have - v for v, have in zip(vec, left, strict=True)], i)
            chosen.pop()
            if found is not None:
                return found
        return None

    if total < 3 * code.count("S") + 4 * code.count("R"):
        return None
    return search(0, counts, 0)
