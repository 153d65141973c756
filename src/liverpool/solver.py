"""The contract solver: the search for a lay-down of a round's contract.

:func:`find_lay_down` finds one legal lay-down (the engine suggests it),
:func:`iter_lay_downs` yields them all, :func:`find_contract` gives one as lists
of cards, and :func:`lay_down_may_use` says cheaply whether a lay-down could hold
some cards. The melds themselves, and the check of a lay-down, are
:mod:`liverpool.melds`'.

>>> from liverpool import load_rules, parse_cards
>>> from liverpool.cards import format_cards
>>> [format_cards(m) for m in find_contract(parse_cards("9H 9S 9D 5C 6C 7C 8C KS 4D 2H 8S"), load_rules("remi"), 2)]
['5C 6C 7C 8C', '9S 9H 9D']
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress, product

from .cards import JOKER, Card
from .melds import (
    LayDownMode,
    Meld,
    lay_down_mode,
    meld_problem,
    natural_at,
    runs_adjacent,
    set_order,
)
from .rules import Contract, Rules

__all__ = [
    "find_contract",
    "find_lay_down",
    "iter_lay_downs",
    "lay_down_may_use",
]

_DEUCE_OF_SPADES = Card(2, 0).index


_CONTRACTS: dict[int, tuple[Rules, dict[int, tuple[Contract, LayDownMode]]]] = {}


def _contract_and_mode(rules: Rules, round: int) -> tuple[Contract, LayDownMode]:
    """``rules.contract(round)`` and :func:`lay_down_mode`, remembered per ruleset
    (by identity: the entry keeps the ruleset alive, so its id is not reused)."""
    entry = _CONTRACTS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_CONTRACTS) > 64:
            _CONTRACTS.clear()
        entry = _CONTRACTS[id(rules)] = (rules, {})
    got = entry[1].get(round)
    if got is None:
        got = entry[1][round] = (rules.contract(round), lay_down_mode(rules, round))
    return got


# ------------------------------------------------------------ quick rejection
# Most hands have no lay-down. Before the search, one pass over the hand counts
# its cards into two integers, and table look-ups per suit (keyed by the suit's
# ranks held) give lower bounds on the wilds the contract needs: when they are
# more than the hand holds, there is no lay-down (a necessary condition only: a
# hand that passes is searched as before, so what is found is unchanged).

#: per card index (52: the joker), the count fields it adds to: one byte per set
#: group (its rank, bytes 1..13), per suit (bytes 16..19) and the jokers (byte 20)
_RANK_COUNT = tuple([(1 << 8 * (i % 13 + 1)) | (1 << 8 * (16 + i // 13)) for i in range(52)]
                    + [1 << 8 * 20])
#: the same under ``set_same_suit``: a set group is a card (bytes 0..51), the
#: suits are bytes 52..55, the jokers byte 56
_CARD_COUNT = tuple([(1 << 8 * i) | (1 << 8 * (52 + i // 13)) for i in range(52)]
                    + [1 << 8 * 56])
#: per card index, its bit in the ranks held per suit (bits 1..13 of 16 per suit)
_RANK_BIT = tuple([1 << (16 * (i // 13) + i % 13 + 1) for i in range(52)] + [0])
_SUIT_RANKS = 0x3FFE  # bits 1..13 of a suit's 16
_EVERY_SUIT = 0x0001000100010001  # times a suit's ranks: the same ranks in every suit
_BYTES = sum(1 << 8 * b for b in range(64))  # 1 in every byte of 64
_QUICK_CARDS = 128  # hands of more cards are not rejected quickly (the counts are bytes)
_HOLE_CAP = 8  # the fewest holes of a run are known up to this (8: 8 or more)

#: per run-rules id (see :func:`_run_rules_id`), per ranks held in a lane (bits
#: 1..13), the fewest holes of a legal run window, up to ``_HOLE_CAP`` (that many
#: or more, or no window at all): :func:`_fewest_holes` of every lane, made at once
#: by :func:`_one_run_table` when the id is first met
_ONE_RUN: dict[int, bytearray] = {}
#: per run-rules id, per wilds, per ranks held in a lane, the ranks (bits 1..13)
#: that a legal run window of no more holes than the wilds holds: :func:`_run_cover`
#: of every lane, made at once by :func:`_cover_table` when first needed
_COVER: dict[int, list[array[int]]] = {}
_NO_TABLE = bytearray()  # (a round without runs needs none)


class _Quick:
    """What the quick rejection of one ruleset's round needs (see :func:`_quick_plan`)."""

    __slots__ = ("contract", "mode", "on", "whole", "min_cards", "sets", "runs", "counts",
                 "card_groups", "groups", "suit_byte", "joker_byte", "kmin", "size", "kadd",
                 "sadd", "cost_table", "one_set", "same_runs", "rid", "run_need", "table",
                 "covers", "all_add", "all_nalw", "hot", "quick_cards")

    def __init__(self, rules: Rules, contract: Contract, mode: LayDownMode) -> None:
        self.contract = contract
        self.mode = mode
        # deuces of spades may be wild and natural: those hands are left to the search
        self.on = not rules.wild_deuce_of_spades
        self.quick_cards = _QUICK_CARDS if self.on else 0  # hands of fewer cards are tried
        self.whole = mode != "normal"
        self.min_cards = contract.min_cards
        self.sets = contract.sets
        self.runs = contract.runs
        same_sets = rules.set_same_suit
        self.card_groups = same_sets
        self.counts = _CARD_COUNT if same_sets else _RANK_COUNT
        first, last = (0, 51) if same_sets else (1, 13)
        self.groups = sum(0x80 << 8 * b for b in range(first, last + 1))  # their high bits
        self.suit_byte = 8 * (52 if same_sets else 16)
        self.joker_byte = 8 * (56 if same_sets else 20)
        # the minimal sets of _Solver (a normal round); the byte adders set a
        # group's high bit when it holds at least kmin (size) natural cards
        exact = rules.contract_exact
        self.size = size = 3 if exact else max(3, rules.min_naturals_set)
        self.kmin = kmin = max(1, rules.min_naturals_set,
                               (size + 1) // 2 if rules.naturals_at_least_wilds else 1)
        self.kadd = (128 - min(kmin, 128)) * _BYTES
        self.sadd = (128 - min(size, 128)) * _BYTES
        self.one_set = rules.forbid_same_rank_sets
        #: per natural count of a set group (below 64), :func:`_set_costs` of its sets
        self.cost_table = tuple(_set_costs(c, 1 if self.one_set else c // kmin, size)
                                if c >= kmin else () for c in range(64))
        self.same_runs = rules.run_same_suit
        self.rid = rid = _run_rules_id(rules, exact and not self.whole)  # whole: may be longer
        self.run_need = max(1, rules.min_naturals_run, 2 if rules.naturals_at_least_wilds else 1)
        table = _ONE_RUN.get(rid, _NO_TABLE)
        if table is _NO_TABLE and contract.runs and not self.whole:
            table = _ONE_RUN[rid] = _one_run_table(rid)
        self.table = table
        self.covers = _COVER.setdefault(rid, [])
        # the sets of _stray_cards (a whole-hand lay-down)
        self.all_add = (128 - min(max(1, rules.min_naturals_set), 128)) * _BYTES
        self.all_nalw = rules.naturals_at_least_wilds
        #: what :func:`_hopeless` reads first, in one piece
        self.hot = (self.counts, _RANK_BIT, self.joker_byte, self.whole, self.sets, self.kadd,
                    self.groups, self.sadd, self.runs)


_QUICK: dict[int, tuple[Rules, dict[int, _Quick]]] = {}


def _quick_plan(rules: Rules, round: int) -> _Quick:
    """The :class:`_Quick` of ``round`` under ``rules``, remembered per ruleset (as
    :func:`_contract_and_mode`)."""
    entry = _QUICK.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_QUICK) > 64:
            _QUICK.clear()
        entry = _QUICK[id(rules)] = (rules, {})
    got = entry[1].get(round)
    if got is None:
        contract, mode = _contract_and_mode(rules, round)
        got = entry[1][round] = _Quick(rules, contract, mode)
    return got


def _fewest_holes(ranks: int, rules_id: int) -> int:
    """The fewest holes of a legal run window in a lane whose ranks held are
    ``ranks`` (bits 1..13), up to ``_HOLE_CAP`` (no window of fewer holes); for
    :data:`_ONE_RUN`."""
    wrap, beside_ace, need, nalw, no_adj, exact = _RUN_RULES[rules_id]
    mask = _lane_bits(ranks, 1, 0, wrap)
    best = _HOLE_CAP
    # a window holds each rank once (the ace twice, low and high, when runs do not wrap)
    if ranks.bit_count() + (0 if wrap else (ranks >> 1) & 1) < max(need, 2 if nalw else 1):
        return best
    for start in range(1, 14 if wrap else 12):
        window = mask >> start
        top = 4 if exact else (13 if wrap else 15 - start)
        for length in range(4, top + 1):
            bits = window & ((1 << length) - 1)
            holes = length - bits.bit_count()
            if holes >= best:
                break  # longer windows of this start have no fewer holes
            if _window_fits(bits, length, start, need, nalw, no_adj, beside_ace):
                best = holes
    return best


def _run_cover(ranks: int, rules_id: int, wilds: int) -> int:
    """The ranks (bits 1..13) that a legal run window of no more holes than
    ``wilds`` in a lane whose ranks held are ``ranks`` holds; for :data:`_COVER`."""
    wrap, beside_ace, need, nalw, no_adj, exact = _RUN_RULES[rules_id]
    if ranks.bit_count() + (0 if wrap else (ranks >> 1) & 1) < max(need, 2 if nalw else 1):
        return 0  # (as in _fewest_holes)
    mask = _lane_bits(ranks, 1, 0, wrap)
    cover = 0
    for start in _live_starts(mask, wilds, wrap):
        window = mask >> start
        top = 4 if exact else (13 if wrap else 15 - start)
        for length in range(4, top + 1):
            bits = window & ((1 << length) - 1)
            if length - bits.bit_count() > wilds:
                break
            if _window_fits(bits, length, start, need, nalw, no_adj, beside_ace):
                cover |= ((1 << length) - 1) << start
    if wrap:
        cover |= cover >> 13
    elif cover & (1 << 14):
        cover |= 2
    return cover & _SUIT_RANKS


# The tables of the quick rejection, computed for every lane at once: a set of
# lanes is a bit set over the 8192 ranks held (bit m >> 1 for the ranks m, bits
# 1..13), and each run window's counts are added up over all of them together.
_LANES = 1 << 13
_EVERY_LANE = (1 << _LANES) - 1
#: per rank bit j (rank j + 1), the lanes that hold the rank
_HOLDING = tuple(((1 << (1 << j)) - 1 << (1 << j)) * (_EVERY_LANE // ((1 << (2 << j)) - 1))
                 for j in range(13))
#: a byte of a bit set (8 lanes) as 16 bytes of 0 or 1, and as 16 little-endian
#: 16-bit words of 0 or 1: each lane twice, so that ranks held (bits 1..13) index them
_BYTE_BITS = tuple(bytes(x for i in range(8) for x in ((b >> i) & 1,) * 2) for b in range(256))
_BYTE_WORDS = tuple(bytes(x for i in range(8) for x in ((b >> i) & 1, 0) * 2)
                    for b in range(256))


def _lane_fields(lanes: int, unit: tuple[bytes, ...]) -> int:
    """A bit set of lanes as an integer of one field of 0 or 1 per ranks held
    (``unit``: per byte of the set, its fields)."""
    return int.from_bytes(b"".join(map(unit.__getitem__, lanes.to_bytes(_LANES // 8, "little"))),
                          "little")


def _window_sets(rules_id: int, wilds: int) -> Iterator[tuple[int, int, int, list[int]]]:
    """Per legal-position run window of :func:`_fewest_holes` (start, length):
    the lanes where it is a legal run (enough natural cards, not more wilds than
    natural cards where that is a rule, no two holes side by side where that is
    one), and, for holes up to ``wilds``, the lanes where it has at most that many
    holes: yields (start, length, legal lanes, lanes per holes)."""
    wrap, beside_ace, need, nalw, no_adj, exact = _RUN_RULES[rules_id]
    for start in range(1, 14 if wrap else 12):
        top = 4 if exact else (13 if wrap else 15 - start)
        at_least = [_EVERY_LANE]  # at_least[c]: the lanes with c natural cards in the window
        two_holes = 0  # the lanes with two holes side by side in it
        prev = 0
        for length in range(1, top + 1):
            p = start + length - 1  # its last place: rank p, 14 the ace high, past 13 again
            held = _HOLDING[(p - 1) % 13]
            at_least.append(0)
            for c in range(length, 0, -1):
                at_least[c] |= at_least[c - 1] & held
            if length > 1:
                two_holes |= ~prev & ~held & _EVERY_LANE
            prev = held
            if length < 4:
                continue
            if beside_ace:
                ace_at = (1 - start) % 13
                if ace_at < length and ace_at < 3 and length - 1 - ace_at < 3:
                    continue
            least = max(need, (length + 1) // 2 if nalw else 0)
            legal = at_least[least] if least <= length else 0
            if no_adj:
                legal &= ~two_holes
            yield start, length, legal, [legal & at_least[max(0, length - h)]
                                         for h in range(wilds + 1)]


def _one_run_table(rules_id: int) -> bytearray:
    """:data:`_ONE_RUN` of a run-rules id, every lane at once."""
    fewer = [0] * _HOLE_CAP  # fewer[h]: the lanes with a legal window of at most h holes
    for _start, _length, _legal, per_holes in _window_sets(rules_id, _HOLE_CAP - 1):
        for h, lanes in enumerate(per_holes):
            fewer[h] |= lanes
    total = sum(_lane_fields(lanes, _BYTE_BITS) for lanes in fewer)
    # _HOLE_CAP less the number of h whose window the lane has
    return bytearray(_HOLE_CAP - b for b in total.to_bytes(2 * _LANES, "little"))


def _cover_table(rules_id: int, wilds: int) -> array[int]:
    """The :data:`_COVER` table of a run-rules id and a number of wilds, every lane
    at once."""
    covered = [0] * 14  # per rank 1..13, the lanes where some window holds it
    for start, length, _legal, per_holes in _window_sets(rules_id, wilds):
        lanes = per_holes[wilds]
        for p in range(start, start + length):
            covered[(p - 1) % 13 + 1] |= lanes
    total = sum(_lane_fields(lanes, _BYTE_WORDS) << r for r, lanes in enumerate(covered) if lanes)
    out = array("H")
    out.frombytes(total.to_bytes(4 * _LANES, "little"))
    if sys.byteorder != "little":
        out.byteswap()
    return out


def _hopeless(hand: Sequence[Card], q: _Quick) -> bool:
    """Is there surely no lay-down of ``q``'s round from ``hand``? (False: there
    may be one.) A normal round: the wilds that the contract's runs need at least
    (per lane, the fewest holes of a legal window, :data:`_ONE_RUN`; a lane holds
    as many runs as it has natural cards for) and those its sets need at least
    (as :meth:`_Solver._set_wilds`) are more than the hand holds. A whole-hand
    round: see :func:`_stray`."""
    counts, rank_bit, joker_byte, whole, s, kadd, groups, sadd, k = q.hot
    v = 0
    held = 0
    for card in hand:
        i = card.index
        v += counts[i]
        held |= rank_bit[i]
    wilds = v >> joker_byte
    if whole:
        return _stray(v, held, wilds, q)
    need = 0
    if s:
        big = (v + kadd) & groups  # the groups of at least kmin natural cards
        if not big:
            return True
        if ((v + sadd) & big).bit_count() < s:  # not s sets without wilds
            costs: list[int] = []
            cost_table = q.cost_table
            while big:
                low = big & -big
                big ^= low
                c = (v >> (low.bit_length() - 8)) & 255
                costs += cost_table[c] if c < 64 else _set_costs(
                    c, 1 if q.one_set else c // q.kmin, q.size)
            if len(costs) < s:
                return True
            if s == 1:
                need = min(costs)
            else:
                costs.sort()
                need = sum(costs[:s])
            if need > wilds:
                return True
    room = wilds - need
    if not k or room >= _HOLE_CAP:
        return False  # (past _HOLE_CAP wilds the table does not tell)
    table = q.table
    hs: tuple[int, ...]
    if q.same_runs:
        m0 = held & _SUIT_RANKS
        m1 = (held >> 16) & _SUIT_RANKS
        m2 = (held >> 32) & _SUIT_RANKS
        m3 = held >> 48
        h0 = table[m0]
        h1 = table[m1]
        h2 = table[m2]
        h3 = table[m3]
        if k == 1:
            return h0 > room and h1 > room and h2 > room and h3 > room
        if k * min(h0, h1, h2, h3) > room:
            return True  # (every run needs as many wilds as the lane best for one)
        hs = (h0, h1, h2, h3)
    else:
        m = (held | held >> 16 | held >> 32 | held >> 48) & _SUIT_RANKS
        h = table[m]
        if k == 1 or h > room:
            return h > room
        hs = (h,)
    # k runs: a lane of n natural cards holds at most n // run_need of them, each
    # needing no fewer wilds than the lane's fewest holes
    slots: list[int] = []
    suits = v >> q.suit_byte
    for li, h in enumerate(hs):
        if h <= room:
            n = (suits >> 8 * li) & 255 if q.same_runs else (
                (suits & 255) + (suits >> 8 & 255) + (suits >> 16 & 255) + (suits >> 24 & 255))
            slots += [h] * min(k, n // q.run_need)
    if len(slots) < k:
        return True
    slots.sort()
    return sum(slots[:k]) > room


def _stray(v: int, held: int, wilds: int, q: _Quick) -> bool:
    """:func:`_hopeless` of a whole-hand round (as :func:`_stray_cards`): does a
    natural card of the hand (counted into ``v`` and ``held``) fit in no set of
    its rank and no run window through it (:data:`_COVER`), when none may be
    discarded; or do two of different ranks or suits, when one may?"""
    stray = held
    if q.sets:
        big = (v + q.all_add) & q.groups  # the groups of enough natural cards for a set
        while big:
            low = big & -big
            big ^= low
            g = (v >> (low.bit_length() - 8)) & 255
            w = 3 - g if g < 3 else 0
            if w <= wilds and (not q.all_nalw or w <= g):
                b = low.bit_length() // 8 - 1  # the group's byte
                if q.card_groups:
                    stray &= ~(1 << (16 * (b // 13) + b % 13 + 1))
                else:
                    stray &= ~((1 << b) * _EVERY_SUIT)
    if stray and q.runs:
        covers = q.covers
        while len(covers) <= wilds:
            covers.append(_cover_table(q.rid, len(covers)))
        table = covers[wilds]
        if q.same_runs:
            m = held & _SUIT_RANKS
            if stray & _SUIT_RANKS:
                cover = table[m]
                stray &= ~cover
            m = (held >> 16) & _SUIT_RANKS
            if (stray >> 16) & _SUIT_RANKS:
                cover = table[m]
                stray &= ~(cover << 16)
            m = (held >> 32) & _SUIT_RANKS
            if (stray >> 32) & _SUIT_RANKS:
                cover = table[m]
                stray &= ~(cover << 32)
            m = held >> 48
            if stray >> 48:
                cover = table[m]
                stray &= ~(cover << 48)
        else:
            m = (held | held >> 16 | held >> 32 | held >> 48) & _SUIT_RANKS
            cover = table[m]
            stray &= ~(cover * _EVERY_SUIT)
    if not stray:
        return False
    if q.mode == "all":
        return True
    return stray & (stray - 1) != 0  # one card may be discarded: two kinds of stray cards


def find_lay_down(hand: Sequence[Card], rules: Rules, round: int) -> list[Meld] | None:
    """One legal lay-down of ``round``'s contract from ``hand`` (minimal melds,
    or the whole hand in an all-at-once final round), or None.
    """
    entry = _QUICK.get(id(rules))
    q = entry[1].get(round) if entry is not None and entry[0] is rules else None
    if q is None:
        q = _quick_plan(rules, round)
    n = len(hand)
    if n < q.min_cards or (n < q.quick_cards and _hopeless(hand, q)):
        return None
    return _search(hand, rules, q, n < q.quick_cards)


def _search(hand: Sequence[Card], rules: Rules, q: _Quick,
            screened: bool = False) -> list[Meld] | None:
    """:func:`find_lay_down` past the quick rejection (``screened``: :func:`_hopeless`
    said the hand may have a lay-down)."""
    contract, mode = q.contract, q.mode
    if not q.on and mode != "normal" and _stray_cards(hand, rules, contract,
                                                      1 if mode == "all_but_one" else 0):
        return None
    solver = _Solver(hand, rules, contract, mode)
    for found in solver.solve(first_only=True, screened=screened):
        return found
    return None


def _stray_cards(hand: Sequence[Card], rules: Rules, contract: Contract, spare: int) -> bool:
    """For a whole-hand lay-down: do more than ``spare`` natural cards of ``hand`` fit
    in no meld the hand could make (no set of their rank, no run window through
    them)? Then there is none. (False, not known, under ``wild_deuce_of_spades``.)"""
    if rules.wild_deuce_of_spades:
        return False
    jokers = 0
    masks = [0, 0, 0, 0]  # per suit, bit per rank held
    groups = [0] * (52 if rules.set_same_suit else 14)  # natural cards per set group
    same = rules.set_same_suit
    for c in hand:
        r = c.rank
        if r:
            masks[c.suit] |= 1 << r
            groups[c.index if same else r] += 1
        else:
            jokers += 1
    sets = contract.sets > 0
    kmin = max(1, rules.min_naturals_set)
    nalw = rules.naturals_at_least_wilds
    runs = contract.runs > 0
    runs_id = _use_rules(rules)[3]  # whole-hand melds may be longer
    any_suit = masks[0] | masks[1] | masks[2] | masks[3]
    stray = 0
    for c in hand:
        r = c.rank
        if not r:
            continue
        if sets:
            g = groups[c.index if same else r]
            w = 3 - g if g < 3 else 0
            if g >= kmin and w <= jokers and (not nalw or w <= g):
                continue  # a set of its rank, with the jokers it needs
        if runs and _run_through(masks[c.suit] if rules.run_same_suit else any_suit, r,
                                 jokers, runs_id):
            continue
        stray += 1
        if stray > spare:
            return True
    return False


def lay_down_may_use(hand: Sequence[Card], rules: Rules, round: int,
                     cards: Iterable[Card], *, counts: Sequence[int] | None = None) -> bool:
    """Could a legal lay-down of ``round``'s contract from ``hand`` hold one of ``cards``?

    A quick test, False only when none can: no natural card of ``cards`` that
    is in the hand fits in any meld the hand could make (a set of its rank with
    enough natural cards and jokers, or a run window through it). With a hand
    known to have no lay-down, and ``cards`` the cards it has gained since (in a
    normal round a lay-down from part of a hand is one from the whole hand),
    False means the hand still has none. True (a lay-down may exist) for a wild
    card in ``cards``, in the final rounds (a lay-down there takes the whole
    hand) and under ``wild_deuce_of_spades``. ``counts``: the hand's card counts
    by :attr:`~liverpool.cards.Card.index`, if the caller has them.

    >>> from liverpool import load_rules, parse_cards
    >>> rules = load_rules("liverpool")
    >>> hand = parse_cards("9H 9S 9C 5C 6C KD KS 2H 3D JC")
    >>> find_lay_down(hand, rules, 1) is None
    True
    >>> lay_down_may_use(hand + parse_cards("4H"), rules, 1, parse_cards("4H"))
    False
    >>> lay_down_may_use(hand + parse_cards("KH"), rules, 1, parse_cards("KH"))
    True
    """
    contract, mode = _contract_and_mode(rules, round)
    if mode != "normal" or rules.wild_deuce_of_spades:
        return True
    if len(hand) < contract.min_cards:
        return False
    if counts is None:
        counts = [0] * 53
        for c in hand:
            counts[c.index] += 1
    jokers = counts[JOKER.index]
    size, kmin, runs_id, _whole = _use_rules(rules)
    sets_ok = contract.sets > 0 and kmin <= size
    for c in cards:
        rank = c.rank
        if rank == 0:
            return True
        if not counts[c.index]:
            continue  # not in the hand
        if sets_ok:
            have = counts[c.index] if rules.set_same_suit else (
                counts[rank - 1] + counts[12 + rank] + counts[25 + rank] + counts[38 + rank])
            if have >= kmin and have + jokers >= size:
                return True
        if contract.runs:
            if rules.run_same_suit:
                b = c.suit * 13
                m = _ranks_held(tuple(counts[b:b + 13]))
            else:
                m = _ranks_held(tuple([w + x + y + z for w, x, y, z in zip(
                    counts[0:13], counts[13:26], counts[26:39], counts[39:52], strict=True)]))
            if _run_through(m, rank, jokers, runs_id):
                return True
    return False


_USE_RULES: dict[int, tuple[Rules, tuple[int, int, int, int]]] = {}
_RUN_RULES: list[tuple[bool, bool, int, bool, bool, bool]] = []  # by id
_RUN_RULE_IDS: dict[tuple[bool, bool, int, bool, bool, bool], int] = {}


def _run_rules_id(rules: Rules, exact: bool) -> int:
    """A small number for the rules of runs that :func:`_run_through` needs: (wrap,
    three beside the ace, natural minimum, naturals at least wilds, no adjacent
    wilds, runs of exactly 4)."""
    key = (rules.run_wrap != "never", rules.run_wrap == "three_beside_ace",
           max(1, rules.min_naturals_run), rules.naturals_at_least_wilds,
           rules.no_adjacent_wilds_in_run, exact)
    got = _RUN_RULE_IDS.get(key)
    if got is None:
        got = _RUN_RULE_IDS[key] = len(_RUN_RULES)
        _RUN_RULES.append(key)
    return got


def _use_rules(rules: Rules) -> tuple[int, int, int, int]:
    """For :func:`lay_down_may_use` (remembered per ruleset, as
    :func:`_contract_and_mode`): the size of a smallest set, the natural cards
    it needs at least, the :func:`_run_rules_id` of a normal round, and that of
    the final rounds (for :func:`_stray_cards`)."""
    entry = _USE_RULES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_USE_RULES) > 64:
            _USE_RULES.clear()
        size = 3 if rules.contract_exact else max(3, rules.min_naturals_set)
        kmin = max(1, rules.min_naturals_set,
                   (size + 1) // 2 if rules.naturals_at_least_wilds else 1)
        entry = _USE_RULES[id(rules)] = (rules, (size, kmin,
                                                 _run_rules_id(rules, rules.contract_exact),
                                                 _run_rules_id(rules, False)))
    return entry[1]


_THROUGH: dict[tuple[int, int, int, int], bool] = {}


def _window_fits(bits: int, length: int, start: int, need: int, nalw: bool, no_adj: bool,
                 beside_ace: bool) -> bool:
    """Do the wild limits allow a run over the window of ``length`` ranks from
    ``start`` in which ``bits`` marks the natural cards held (the gaps are wilds)?"""
    present = bits.bit_count()
    if present < need or (nalw and 2 * present < length):
        return False
    if no_adj:
        gaps = ~bits & ((1 << length) - 1)
        if gaps & (gaps >> 1):
            return False
    if beside_ace:
        ace_at = (1 - start) % 13
        if ace_at < length and ace_at < 3 and length - 1 - ace_at < 3:
            return False
    return True


def _run_through(mask: int, rank: int, jokers: int, rules_id: int) -> bool:
    """Is there a run window through ``rank`` that the ranks held (``mask``, bit
    per rank) and ``jokers`` could fill within the wild limits? (``rules_id``:
    the rules of runs, see :func:`_run_rules_id`.)"""
    memo_key = (mask, rank, jokers, rules_id)
    got = _THROUGH.get(memo_key)
    if got is not None:
        return got
    wrap, beside_ace, need, nalw, no_adj, exact = _RUN_RULES[rules_id]
    m = mask
    if wrap:
        m |= m << 13
    elif m & 2:
        m |= 1 << 14
    got = False
    # the places of the rank: 1..13, the ace high 14 (or, wrapping, 14..26 again)
    places = (rank, rank + 13) if wrap else ((1, 14) if rank == 1 else (rank,))
    for place in places:
        # every window through the place holds the stretch from its start to the
        # place: once that stretch has more holes than jokers, so do those of the
        # starts further down (so the starts go down from the place)
        for start in range(min(place, 13 if wrap else 11), max(1, place - (12 if wrap else 13)) - 1,
                           -1):
            window = m >> start
            stretch = place - start + 1
            if stretch - (window & ((1 << stretch) - 1)).bit_count() > jokers:
                break
            top = 4 if exact else (13 if wrap else 15 - start)
            for length in range(max(4, stretch), top + 1):
                bits = window & ((1 << length) - 1)
                if length - bits.bit_count() > jokers:
                    break  # longer windows of this start miss even more
                if _window_fits(bits, length, start, need, nalw, no_adj, beside_ace):
                    got = True
                    break
            if got:
                break
        if got:
            break
    if len(_THROUGH) > 50_000:
        _THROUGH.clear()
    _THROUGH[memo_key] = got
    return got


def find_contract(hand: Sequence[Card], rules: Rules, round: int) -> list[list[Card]] | None:
    """One legal lay-down of ``round``'s contract from ``hand`` as lists of cards
    (runs low to high with wilds in place), or None if there is none.

    In an ``all_at_once`` final round it uses the whole hand; in
    ``all_at_once_discard`` all cards but one.
    """
    entry = _QUICK.get(id(rules))
    q = entry[1].get(round) if entry is not None and entry[0] is rules else None
    if q is None:
        q = _quick_plan(rules, round)
    n = len(hand)
    if n < q.min_cards or (n < q.quick_cards and _hopeless(hand, q)):
        return None
    found = _search(hand, rules, q, n < q.quick_cards)
    return None if found is None else [list(m.cards) for m in found]


def iter_lay_downs(hand: Sequence[Card], rules: Rules, round: int) -> Iterator[list[Meld]]:
    """Lazily yield the distinct legal lay-downs of ``round``'s contract.

    In a normal round the melds have their minimum sizes (3 and 4, longer only
    where the wild limits need it); extend them by laying off later, or pass a
    longer lay-down to :func:`check_lay_down`. Interchangeable wilds (which of
    two jokers goes where) are not told apart.
    """
    q = _quick_plan(rules, round)
    n = len(hand)
    if n < q.min_cards or (n < q.quick_cards and _hopeless(hand, q)):
        return
    solver = _Solver(hand, rules, q.contract, q.mode)
    seen: set[tuple[tuple[Card, ...], ...]] = set()
    for found in solver.solve(first_only=False):
        key = tuple(sorted((m.cards if m.kind == "run" else tuple(sorted(m.cards, key=set_order))
                            for m in found), key=lambda cs: [c.index for c in cs]))
        if key not in seen:
            seen.add(key)
            yield found


# ------------------------------------------------------------------- the solver
_CARD_OF = tuple(Card.from_index(i) for i in range(52))
_INDICES = range(52)  # the natural cards' indices: compress(_INDICES, nat) gives those held
_DEUCE = Card.from_index(_DEUCE_OF_SPADES)
_UNLIMITED = 1 << 20  # room for extra wilds in a set without a wild limit
_NO_OPTIONS = (0,) * 14


#: the cards of :func:`_run_fills`' codes: a natural card's index, or from the
#: end -1 a joker, -2 and -3 the deuce of spades
_FILL_CARD = (*_CARD_OF, _DEUCE, _DEUCE, JOKER)


def _used_cards(used: list[int]) -> tuple[Card, ...]:
    """The cards of a run fill (see :func:`_run_fills`)."""
    return tuple(map(_FILL_CARD.__getitem__, used))


def _run_window_ok(rules: Rules, start: int, length: int) -> bool:
    """The checks of a run that do not depend on its cards (length, wrapping, ace rule)."""
    if rules.run_wrap == "never":
        return start >= 1 and start + length - 1 <= 14
    if length > 13:
        return False
    if rules.run_wrap == "three_beside_ace":
        ace_at = (1 - start) % 13
        if ace_at < length and ace_at < 3 and length - 1 - ace_at < 3:
            return False
    return True


def _run_fills(nat: list[int], jokers: int, deuces: int, rules: Rules, lane: int, start: int,
               length: int, force_pos: int = -1, force: int = 0,
               must: int = 0) -> Iterator[list[int]]:
    """Every way to fill a run window from the counts, one position at a time.

    Yields ``used`` (one shared list: copy it to keep it): per position a natural
    card index, -1 a joker, -2 a deuce of spades as a wild, -3 a deuce of spades
    in its own place. While a fill is yielded its natural cards are taken out of
    ``nat`` (they are put back when the generator moves on); the wilds are the
    caller's to count. ``force_pos`` >= 0 puts card ``force`` (an index, or -3)
    at that position. Wilds are jokers first, then deuces (a deuce serves
    wherever a joker does). A rank whose bit is set in ``must`` takes a natural
    card where there is one (the caller knows no other meld could want it). The wild limits are cut off early; the caller still
    checks the finished meld with :func:`meld_problem`.
    """
    nalw = rules.naturals_at_least_wilds
    need_nat = max(1, rules.min_naturals_run, (length + 1) // 2 if nalw else 1)
    max_wild = min(length - need_nat, jokers + deuces)
    if max_wild < 0:
        return
    no_adj = rules.no_adjacent_wilds_in_run
    deuce_lane = lane in (0, -1)
    one_suit = lane < 0 and not rules.set_same_suit  # then the suit of a card never matters
    ranks = [(start - 1 + i) % 13 + 1 for i in range(length)]
    missing = [0] * (length + 1)  # positions from i on with nothing natural to fill them
    for i in range(length - 1, -1, -1):
        r = ranks[i]
        if i == force_pos:
            has = True
        elif lane >= 0:
            has = nat[lane * 13 + r - 1] > 0
        else:
            has = (nat[r - 1] + nat[12 + r] + nat[25 + r] + nat[38 + r]) > 0
        if not has and r == 2 and deuce_lane and deuces:
            has = True
        missing[i] = missing[i + 1] + (0 if has else 1)
    if missing[0] > max_wild:
        return
    used = [0] * length
    left = [jokers, deuces]

    def rec(i: int, wilds: int, prev_wild: bool) -> Iterator[list[int]]:
        if i == length:
            yield used
            return
        if i == force_pos:
            used[i] = force
            if force >= 0:
                nat[force] -= 1
                yield from rec(i + 1, wilds, False)
                nat[force] += 1
            else:
                left[1] -= 1
                yield from rec(i + 1, wilds, False)
                left[1] += 1
            return
        r = ranks[i]
        natural = False
        if wilds + missing[i + 1] <= max_wild:
            if lane >= 0:
                idx = lane * 13 + r - 1
                if nat[idx]:
                    natural = True
                    nat[idx] -= 1
                    used[i] = idx
                    yield from rec(i + 1, wilds, False)
                    nat[idx] += 1
            else:
                best = -1
                for s in range(4):
                    idx = s * 13 + r - 1
                    if nat[idx]:
                        natural = True
                        if one_suit:
                            if best < 0 or nat[idx] > nat[best]:
                                best = idx
                            continue
                        nat[idx] -= 1
                        used[i] = idx
                        yield from rec(i + 1, wilds, False)
                        nat[idx] += 1
                if best >= 0:
                    nat[best] -= 1
                    used[i] = best
                    yield from rec(i + 1, wilds, False)
                    nat[best] += 1
            if r == 2 and deuce_lane and left[1]:
                left[1] -= 1
                used[i] = -3
                yield from rec(i + 1, wilds, False)
                left[1] += 1
        if natural and (must >> r) & 1:
            return
        if wilds + 1 + missing[i + 1] <= max_wild and not (no_adj and prev_wild):
            if left[0]:
                left[0] -= 1
                used[i] = -1
                yield from rec(i + 1, wilds + 1, True)
                left[0] += 1
            elif left[1]:
                left[1] -= 1
                used[i] = -2
                yield from rec(i + 1, wilds + 1, True)
                left[1] += 1

    yield from rec(0, 0, False)


def _min_plus(a: tuple[int, ...], b: tuple[int, ...], k: int) -> tuple[int, ...]:
    """The fewest holes of 0..``k`` runs taken from two lanes whose fewest holes
    of 0..k runs are ``a`` and ``b`` (each starts with 0: no run, no hole)."""
    if k == 1:
        return (0, min(a[1], b[1]))
    if k == 2:
        return (0, min(a[1], b[1]), min(a[2], a[1] + b[1], b[2]))
    return tuple([min([a[i] + b[j - i] for i in range(j + 1)]) for j in range(k + 1)])


_SET_COSTS: dict[tuple[int, int, int], tuple[int, ...]] = {}


def _set_costs(c: int, n: int, size: int) -> tuple[int, ...]:
    """The wilds that each of ``n`` minimal sets (of ``size`` cards) made in turn
    from a group of ``c`` natural cards needs: the first take ``size`` natural
    cards each, the next take the rest and wilds. Remembered."""
    key = (c, n, size)
    got = _SET_COSTS.get(key)
    if got is None:
        got = _SET_COSTS[key] = tuple(max(0, size * j - c) - max(0, size * (j - 1) - c)
                                      for j in range(1, n + 1))
    return got


_HOLES: dict[tuple[object, ...], tuple[int, ...]] = {}
_NO_WAY = 1 << 10  # more wilds than any hand holds
#: per ``wrap``, the windows of 4 ranks: their count indices (rank - 1; without
#: wrapping the ace high is index 0 as well) and those as bits
_WINDOWS = {wrap: tuple((idx, sum(1 << i for i in idx))
                        for idx in (tuple((start + i) % 13 for i in range(4))
                                    for start in range(13 if wrap else 11)))
            for wrap in (False, True)}


def _lane_holes(counts: tuple[int, ...], k: int, wrap: bool, two: bool) -> tuple[int, ...]:
    """Lower bounds on the wilds that 0..k runs of one lane need (``_NO_WAY``: no
    such runs), for the natural ``counts`` of its ranks 1..13; ``two``: a deuce of
    spades may stand in the place of a two.

    A relaxation: every run holds a window of 4 ranks with no more holes and at
    least one natural card, so runs are taken as such windows (any start, no
    rule about wilds) sharing the natural cards of each rank; the holes are the
    places no natural card is left for. Remembered between calls.

    >>> _lane_holes((1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1), 2, False, False)
    (0, 0, 3)
    """
    key = (counts, k, wrap, two)
    got = _HOLES.get(key)
    if got is not None:
        return got
    present = 0
    for i, c in enumerate(counts):
        if c:
            present |= 1 << i
    allowed = present | 2 if two else present
    windows = [w for w in _WINDOWS[wrap] if allowed & w[1]]
    best = [0] + [_NO_WAY] * k
    if k and windows:
        best[1] = 4 - max((present & bits).bit_count() for _idx, bits in windows)
    if 1 < k <= 3 and windows:
        best[2:] = _few_runs_holes(counts, present, windows, k)
    elif k > 1 and windows:
        left = list(counts)
        nw = len(windows)

        def rec(first: int, j: int, holes: int) -> None:
            for wi in range(first, nw):
                taken = []
                add = 0
                for i in windows[wi][0]:
                    if left[i]:
                        left[i] -= 1
                        taken.append(i)
                    else:
                        add += 1
                h = holes + add
                if h < best[j + 1]:
                    best[j + 1] = h
                if j + 1 < k:
                    rec(wi, j + 1, h)
                for i in taken:
                    left[i] += 1

        rec(0, 0, 0)
    out = tuple(best)
    if len(_HOLES) > 50_000:
        _HOLES.clear()
    _HOLES[key] = out
    return out


def _few_runs_holes(counts: tuple[int, ...], present: int,
                    windows: list[tuple[tuple[int, ...], int]], k: int) -> list[int]:
    """The fewest holes of 2 (and, for ``k`` = 3, 3) windows of :func:`_lane_holes`.

    The holes of some windows are, rank by rank, the windows over the rank beyond
    its natural cards: with ``n1``, ``n2``, ``n3`` the ranks holding fewer than 1,
    2, 3 cards, the ranks under at least one window in ``n1``, plus those under
    at least two in ``n2``, plus those under three in ``n3``. A window added
    to others adds at least its own holes, so with the windows in order of their
    own holes the search stops as soon as no better choice is left.
    """
    full = (1 << 13) - 1
    p2 = p3 = 0
    for i, c in enumerate(counts):
        if c > 1:
            p2 |= 1 << i
            if c > 2:
                p3 |= 1 << i
    n1 = full & ~present
    n2 = full & ~p2
    n3 = full & ~p3
    ws = sorted(((bits & n1).bit_count(), bits) for _idx, bits in windows)
    hs = [h for h, _b in ws]
    bs = [b for _h, b in ws]
    nw = len(ws)
    b2 = _NO_WAY
    for i in range(nw):
        ha = hs[i]
        if 2 * ha >= b2:
            break
        a = bs[i]
        for j in range(i, nw):
            if ha + hs[j] >= b2:
                break
            b = bs[j]
            v = ((a | b) & n1).bit_count() + (a & b & n2).bit_count()
            if v < b2:
                b2 = v
    if k == 2:
        return [b2]
    b3 = _NO_WAY
    for i in range(nw):
        ha = hs[i]
        if 3 * ha >= b3:
            break
        a = bs[i]
        for j in range(i, nw):
            hb = hs[j]
            if ha + 2 * hb >= b3:
                break
            b = bs[j]
            ab_or = a | b
            ab_and = a & b
            vab = (ab_or & n1).bit_count() + (ab_and & n2).bit_count()
            if vab + hb >= b3:
                continue
            for m in range(j, nw):
                if vab + hs[m] >= b3:
                    break
                c = bs[m]
                v = (((ab_or | c) & n1).bit_count()
                     + ((ab_and | (a & c) | (b & c)) & n2).bit_count()
                     + (ab_and & c & n3).bit_count())
                if v < b3:
                    b3 = v
    return [b2, b3]


_LANE_BITS: dict[tuple[int, ...], int] = {}  # a suit's counts -> its ranks held (bits 1..13)


def _lane_mask(nat: list[int], lane: int, deuces: int, wrap: bool) -> int:
    """A bit mask of the ranks with a natural card in a run lane (bit r for rank r,
    bit 14 for the ace high, doubled up to 26 when runs wrap)."""
    if lane >= 0:
        return _counts_mask(tuple(nat[lane * 13:lane * 13 + 13]), lane, deuces, wrap)
    m = 0
    bit = 2
    for a, b, c, d in zip(nat[0:13], nat[13:26], nat[26:39], nat[39:52], strict=True):
        if a or b or c or d:
            m |= bit
        bit <<= 1
    return _lane_bits(m, lane, deuces, wrap)


def _counts_mask(counts: tuple[int, ...], lane: int, deuces: int, wrap: bool) -> int:
    """:func:`_lane_mask` of a lane whose natural counts of ranks 1..13 are ``counts``."""
    return _lane_bits(_ranks_held(counts), lane, deuces, wrap)


def _ranks_held(counts: tuple[int, ...]) -> int:
    """The ranks (bits 1..13) with a card, of the counts of ranks 1..13; remembered."""
    m = _LANE_BITS.get(counts)
    if m is None:
        m = 0
        bit = 2
        for have in counts:
            if have:
                m |= bit
            bit <<= 1
        if len(_LANE_BITS) > 50_000:
            _LANE_BITS.clear()
        _LANE_BITS[counts] = m
    return m


def _lane_bits(m: int, lane: int, deuces: int, wrap: bool) -> int:
    """The mask of :func:`_lane_mask` from the ranks held (bits 1..13)."""
    if deuces and lane <= 0:
        m |= 4  # a deuce of spades in the place of a two
    if wrap:
        m |= m << 13
    elif m & 2:
        m |= 1 << 14
    return m


def _four_starts(mask: int, wilds: int) -> int:
    """The starts (bits) of the windows of 4 ranks of a lane whose ranks held are
    ``mask`` (as :func:`_lane_mask` makes it) that hold no more holes than
    ``wilds``: bit-parallel, each bit counting the ranks held from it on."""
    a = mask
    b = mask >> 1
    c = mask >> 2
    d = mask >> 3
    if wilds == 0:
        return a & b & c & d
    if wilds == 1:  # at least 3 of the 4
        return (a & b & (c | d)) | (c & d & (a | b))
    if wilds == 2:  # at least 2 of the 4
        return ((a | b) & (c | d)) | (a & b) | (c & d)
    if wilds == 3:
        return a | b | c | d
    return -1


def _live_starts(mask: int, wilds: int, wrap: bool) -> list[int]:
    """The starts of run windows worth trying in a lane whose ranks held are
    ``mask`` (as :func:`_lane_mask` makes it), in order: those whose first 4
    ranks have no more holes than ``wilds`` (:func:`_four_starts`; the windows
    of the other starts, all holding those 4 ranks, have more)."""
    live = _four_starts(mask, wilds) & ((1 << (14 if wrap else 12)) - 2)  # starts 1..13 or 1..11
    out = []
    while live:
        low = live & -live
        live ^= low
        out.append(low.bit_length() - 1)
    return out


_ROOM: dict[tuple[object, ...], bool] = {}


def _lane_room(mask: int, key: tuple[int, bool, bool, int, bool, bool, bool]) -> bool:
    """Could one run lie in a lane whose ranks held are ``mask`` (as
    :func:`_lane_mask` makes it)? Some window (of any length, or 4 under an
    exact contract) with enough natural cards, its holes no more than the wilds
    and not side by side where that is forbidden. ``key``: (wilds, wrap,
    three beside the ace, natural minimum, naturals at least wilds, no adjacent
    wilds, exact contract); remembered."""
    memo_key = (mask, key)
    got = _ROOM.get(memo_key)
    if got is not None:
        return got
    wilds, wrap, beside_ace, need, nalw, no_adj, exact = key
    got = False
    for start in _live_starts(mask, wilds, wrap):
        top = 4 if exact else (13 if wrap else 15 - start)
        window = mask >> start
        for length in range(4, top + 1):
            bits = window & ((1 << length) - 1)
            if length - bits.bit_count() > wilds:
                break  # longer windows of this start miss even more
            if _window_fits(bits, length, start, need, nalw, no_adj, beside_ace):
                got = True
                break
        if got:
            break
    if len(_ROOM) > 50_000:
        _ROOM.clear()
    _ROOM[memo_key] = got
    return got


class _Solver:
    """Exact search for a normal round's lay-down: runs first (by window, filled
    one position at a time), then sets by counting (a greedy choice is exact for
    minimal sets). Failed sub-states are remembered within one call; a node
    whose runs and sets to come need more wilds than are left (lower bounds, see
    :meth:`_wilds_short`) fails at once. The final
    rounds, where the whole hand goes down, are :class:`_Cover`'s."""

    def __init__(self, hand: Sequence[Card], rules: Rules, contract: Contract,
                 mode: LayDownMode) -> None:
        self.hand = list(hand)
        self.rules = rules
        self.contract = contract
        self.mode = mode
        self.wrap = rules.run_wrap != "never"

    # The entry point -------------------------------------------------------
    def solve(self, first_only: bool, screened: bool = False) -> Iterator[list[Meld]]:
        """The lay-downs (the first one only, or all). ``screened``: the hand
        passed :func:`_hopeless`; its bounds are left out where they seldom add
        to it (:meth:`_quick_possible`, the first :meth:`_too_few_runs`): a bound
        only saves time."""
        if self.mode != "normal":
            cover = _Cover(self.hand, self.rules, self.contract,
                           1 if self.mode == "all_but_one" else 0, first_only)
            yield from cover.solve()
            return
        rules = self.rules
        contract = self.contract
        if len(self.hand) < contract.min_cards:
            return
        self._load(self.hand)
        self.exact = rules.contract_exact
        self.set_size = self._set_size()
        self.kmin = self._kmin()
        self.reduce = not rules.forbid_adjacent_same_suit_runs
        self.first_only = first_only
        self.failed: set[tuple[object, ...]] = set()
        masks = self._loaded_masks() if contract.runs else []
        self.screened = screened
        if not screened and not self._quick_possible(masks):
            return
        yield from self._runs(contract.runs, (-2, 0), [], masks)

    def _load(self, cards: list[Card]) -> None:
        nat = [0] * 52
        ranks = [0] * 13  # natural cards per rank (index rank - 1), kept as nat changes
        jokers = 0
        deuces = 0
        wild_deuce = self.rules.wild_deuce_of_spades
        suits = [0, 0, 0, 0]  # ranks held per suit (bit per rank)
        for c in cards:
            r = c.rank
            if r == 0:
                jokers += 1
            elif wild_deuce and c.index == _DEUCE_OF_SPADES:
                deuces += 1
            else:
                nat[c.index] += 1
                ranks[r - 1] += 1
                suits[c.suit] |= 1 << r
        self.nat = nat
        self.ranks = ranks
        self.suits = suits
        self.jokers = jokers
        self.deuces = deuces

    # Quick necessary conditions --------------------------------------------
    def _quick_possible(self, masks: list[int]) -> bool:
        """Cheap necessary conditions on the hand as loaded (``masks``: its
        :meth:`_lane_masks`): room for the sets, and a window of 4 ranks for a
        run (its holes no more than the wilds)."""
        wilds = self.jokers + self.deuces
        contract = self.contract
        if contract.sets and self._max_sets_upper(wilds) < contract.sets:
            return False
        if contract.runs:  # (a window needs a natural card even with 4 wilds)
            return any(_live_starts(m, min(wilds, 3), self.wrap) for m in masks)
        return True

    def _max_sets_upper(self, wilds: int) -> int:
        """How many minimal sets the whole hand (as loaded) could make with
        ``wilds``: the cheapest sets first."""
        rules = self.rules
        kmin = self.kmin
        size = self.set_size
        if kmin > size:
            return 0
        groups = self.nat if rules.set_same_suit else self.ranks
        if self.deuces:
            groups = list(groups)
            groups[1] += self.deuces
        one = rules.forbid_same_rank_sets
        costs: list[int] = []
        for c in groups:
            if c >= kmin:
                costs += _set_costs(c, 1 if one else c // kmin, size)
        costs.sort()
        total = 0
        count = 0
        for cost in costs:
            total += cost
            if total > wilds:
                break
            count += 1
        return count

    def _lane_counts(self) -> list[tuple[int, ...]]:
        """Per run lane, the natural cards left of ranks 1..13."""
        if not self.rules.run_same_suit:
            return [tuple(self.ranks)]
        nat = self.nat
        return [tuple(nat[0:13]), tuple(nat[13:26]), tuple(nat[26:39]), tuple(nat[39:52])]

    def _lane_masks(self, counts: list[tuple[int, ...]]) -> list[int]:
        """Per run lane, :func:`_lane_mask` (from :meth:`_lane_counts`)."""
        if not self.rules.run_same_suit:
            return [_counts_mask(counts[0], -1, self.deuces, self.wrap)]
        return [_counts_mask(cs, lane, self.deuces, self.wrap) for lane, cs in enumerate(counts)]

    def _loaded_masks(self) -> list[int]:
        """:meth:`_lane_masks` of the hand as loaded (from the ranks per suit)."""
        suits = self.suits
        if self.rules.run_same_suit:
            return [_lane_bits(suits[lane], lane, self.deuces, self.wrap) for lane in range(4)]
        return [_lane_bits(suits[0] | suits[1] | suits[2] | suits[3], -1, self.deuces, self.wrap)]

    # Runs ------------------------------------------------------------------
    def _max_run_len(self) -> int:
        if self.exact:
            return 4
        # A longer run can always be cut down to a shorter legal one, unless both
        # ends are natural and the run holds just the naturals it must (its
        # wild-card limits are tight): such runs hold at most max(m, W) + W cards.
        wilds = self.jokers + self.deuces
        tight = max(1, self.rules.min_naturals_run)
        if self.rules.naturals_at_least_wilds:
            tight = max(tight, wilds)
        return min(13 if self.wrap else 14, max(5, tight + wilds))

    def _runs(self, k: int, min_key: tuple[int, int], chosen: list[Meld],
              masks: list[int] | None = None) -> Iterator[list[Meld]]:
        """Lay-downs with ``k`` more runs (``masks``: the :meth:`_lane_masks`, if
        known) and then the sets."""
        rules = self.rules
        adjacent_rule = rules.forbid_adjacent_same_suit_runs
        key: tuple[object, ...] = (tuple(self.nat), self.jokers, self.deuces, k,
                                   min_key if k else None,
                                   tuple(sorted((m.suit, m.rank, len(m.cards)) for m in chosen))
                                   if adjacent_rule and k else None)
        if key in self.failed:
            return
        found = False
        if k == 0:
            for sets in self._sets():
                found = True
                yield chosen + sets
                if self.first_only:
                    return
            if not found:
                self.failed.add(key)
            return
        counts = self._lane_counts()
        if masks is None:
            masks = self._lane_masks(counts)
        if ((chosen or not self.screened) and self._too_few_runs(k, masks, counts)
                or self._wilds_short(k, counts)):
            self.failed.add(key)
            return
        lanes = (0, 1, 2, 3) if rules.run_same_suit else (-1,)
        max_len = self._max_run_len()
        wrap = self.wrap
        wilds = self.jokers + self.deuces
        nat = self.nat
        ranks = self.ranks
        must = self._must_use(k, lanes)
        need = max(1, rules.min_naturals_run)
        nalw = rules.naturals_at_least_wilds
        no_adj = rules.no_adjacent_wilds_in_run
        for li, lane in enumerate(lanes):
            if lane < min_key[0]:
                continue
            mask = masks[li]
            for start in _live_starts(mask, wilds, wrap):
                if lane == min_key[0] and start < min_key[1]:
                    continue
                # one lay-down wanted: runs in any order, so that the same cards
                # left over are one sub-state (remembered when it fails)
                next_key = (-2, 0) if self.first_only else (lane, start)
                top = min(max_len, 13 if wrap else 15 - start)
                window = mask >> start
                for length in range(4, top + 1):
                    bits = window & ((1 << length) - 1)
                    present = bits.bit_count()
                    if length - present > wilds:
                        break  # longer windows of this start miss even more
                    if present < need or (nalw and 2 * present < length):
                        continue
                    if no_adj:
                        gaps = ~bits & ((1 << length) - 1)
                        if gaps & (gaps >> 1):
                            continue
                    if not _run_window_ok(rules, start, length):
                        continue
                    for used in _run_fills(nat, self.jokers, self.deuces, rules, lane, start,
                                           length, must=must[li]):
                        # the fill keeps every wild limit (no need for meld_problem)
                        j = used.count(-1)
                        d = used.count(-2) + used.count(-3)
                        if not adjacent_rule and self.failed and (
                                tuple(nat), self.jokers - j, self.deuces - d, k - 1,
                                next_key if k > 1 else None, None) in self.failed:
                            continue  # the same cards are left as after a failed fill
                        meld = Meld("run", _used_cards(used), start,
                                    lane if rules.run_same_suit else -1)
                        if length > 4 and self.reduce and self._reducible(meld):
                            continue
                        if adjacent_rule and not self._run_ok_with(meld, chosen):
                            continue
                        self.jokers -= j
                        self.deuces -= d
                        chosen.append(meld)
                        taken = [u % 13 for u in used if u >= 0]  # (nat already lacks them)
                        for r in taken:
                            ranks[r] -= 1
                        try:
                            for result in self._runs(k - 1, next_key, chosen):
                                found = True
                                yield result
                                if self.first_only:
                                    break
                        finally:
                            for r in taken:
                                ranks[r] += 1
                            chosen.pop()
                            self.jokers += j
                            self.deuces += d
                        if found and self.first_only:
                            return
        if not found:
            self.failed.add(key)

    def _too_few_runs(self, k: int, masks: list[int], counts: list[tuple[int, ...]]) -> bool:
        """Can fewer than ``k`` runs be made from the cards left? A run takes at
        least ``need`` natural cards of its lane (the natural minimum; two when
        naturals must not be outnumbered), and a lane holds a run only if some
        window of it could be filled with the wilds left (:func:`_lane_room`).
        ``masks`` and ``counts``: per lane, :meth:`_lane_masks` and :meth:`_lane_counts`."""
        rules = self.rules
        need = max(1, rules.min_naturals_run, 2 if rules.naturals_at_least_wilds else 1)
        wilds = self.jokers + self.deuces
        key = (wilds, self.wrap, rules.run_wrap == "three_beside_ace", need,
               rules.naturals_at_least_wilds, rules.no_adjacent_wilds_in_run, self.exact)
        room = 0
        if rules.run_same_suit:
            for lane in range(4):
                n = sum(counts[lane])
                if lane == 0:
                    n += self.deuces  # a deuce of spades in its own place
                if n >= need and _lane_room(masks[lane], key):
                    room += n // need
                    if room >= k:
                        return False
        else:
            n = sum(counts[0]) + self.deuces
            if n >= need and _lane_room(masks[0], key):
                room += n // need
        return room < k

    def _wilds_short(self, k: int, counts: list[tuple[int, ...]]) -> bool:
        """Do ``k`` more runs and then the contract's sets need more wilds than
        are left? Lower bounds for each (see :func:`_lane_holes` and
        :meth:`_set_wilds`), added up: the runs and the sets take different
        natural cards, and fewer natural cards never need fewer wilds.
        ``counts``: :meth:`_lane_counts`."""
        wilds = self.jokers + self.deuces
        need = self._set_wilds(self.contract.sets)
        if need > wilds:
            return True
        two = self.deuces > 0
        wrap = self.wrap
        if not self.rules.run_same_suit:
            return _lane_holes(counts[0], k, wrap, two)[k] + need > wilds
        # the fewest holes of k runs shared among the lanes (min-plus convolution;
        # an empty lane, (0, no way, ...), changes nothing and is left out). More
        # lanes never need more holes: once the wilds suffice, they do.
        best: tuple[int, ...] | None = None
        for lane, cs in enumerate(counts):
            if any(cs) or (two and lane == 0):
                h = _lane_holes(cs, k, wrap, two and lane == 0)
                best = h if best is None else _min_plus(best, h, k)
                if best[k] + need <= wilds:
                    return False
        if best is None:  # no natural card: no run (as _lane_holes says of an empty lane)
            best = _lane_holes((0,) * 13, k, wrap, False)
        return best[k] + need > wilds

    def _set_wilds(self, s: int) -> int:
        """A lower bound on the wilds ``s`` minimal sets need from the natural
        cards left (``_NO_WAY`` if they cannot be made): the ``s`` cheapest sets
        when each group of a rank (and suit) may make several, a deuce of spades
        counted as a wild even where it stands for a two."""
        if not s:
            return 0
        rules = self.rules
        nat = self.nat
        kmin = self.kmin
        size = self.set_size
        if kmin > size:
            return _NO_WAY
        groups = nat if rules.set_same_suit else self.ranks
        costs: list[int] = []
        deuces = self.deuces
        for g, c in enumerate(groups):
            top = c + deuces if g == 1 else c  # 1: the twos (of spades)
            if top >= kmin:
                costs += _set_costs(c, top // kmin, size)
        if len(costs) < s:
            return _NO_WAY
        costs.sort()
        return sum(costs[:s])

    def _must_use(self, k: int, lanes: Sequence[int]) -> list[int]:
        """Per lane, the ranks (bits) whose natural cards the last run must take
        where it can: no set could want them, and no run is left to take them, so
        a wild in their place would only be worse (more wilds, fewer cards left
        for the sets)."""
        if k != 1:
            return [0] * len(lanes)
        rules = self.rules
        if not self.contract.sets:
            return [0x3FFE] * len(lanes)
        if rules.set_same_suit and not rules.run_same_suit:
            return [0] * len(lanes)
        nat = self.nat
        wilds = self.jokers + self.deuces
        kmin = self.kmin
        size = self.set_size
        if not rules.set_same_suit:  # the same ranks for every lane
            mask = 0
            for r in range(1, 14):
                c = self.ranks[r - 1]
                if r == 2:
                    c += self.deuces
                if c < kmin or c + wilds < size:
                    mask |= 1 << r
            return [mask] * len(lanes)
        out = []
        for lane in lanes:
            mask = 0
            for r in range(1, 14):
                c = nat[lane * 13 + r - 1] + (self.deuces if r == 2 and lane == 0 else 0)
                if c < kmin or c + wilds < size:
                    mask |= 1 << r
            out.append(mask)
        return out

    def _run_ok_with(self, meld: Meld, chosen: list[Meld]) -> bool:
        if not self.rules.forbid_adjacent_same_suit_runs:
            return True
        return not any(runs_adjacent(meld, other, self.wrap) for other in chosen)

    def _reducible(self, meld: Meld) -> bool:
        """Can an end card come off this (legal) run leaving a legal run? Then the
        shorter run serves a normal lay-down just as well (the card stays in hand)."""
        rules = self.rules
        n = len(meld.cards)
        low = Meld("run", meld.cards[1:], meld.rank % 13 + 1 if self.wrap else meld.rank + 1,
                   meld.suit)
        if meld_problem(low, rules, lay_down=True) is None:
            return True
        high = Meld("run", meld.cards[:n - 1], meld.rank, meld.suit)
        return meld_problem(high, rules, lay_down=True) is None

    # Sets ------------------------------------------------------------------
    def _set_groups(self) -> list[tuple[int, int, int]]:
        """(rank, suit, natural count) of the remaining naturals, per set key."""
        nat = self.nat
        out = []
        if self.rules.set_same_suit:
            for i in compress(_INDICES, nat):
                out.append((i % 13 + 1, i // 13, nat[i]))
        else:
            for r, c in enumerate(self.ranks):
                if c:
                    out.append((r + 1, -1, c))
        return out

    def _sets(self) -> Iterator[list[Meld]]:
        s = self.contract.sets
        if s == 0:
            yield []
            return
        if self.kmin > self.set_size:
            return  # e.g. four natural cards in a set under an exact contract
        yield from self._sets_some(s)

    def _set_size(self) -> int:
        """The size of a minimal set (at least 3; more when the natural minimum asks it)."""
        if self.exact:
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
        kmin = self.kmin
        forbid_same = self.rules.forbid_same_rank_sets
        for x in self._deuce_splits():
            groups = self._groups_with_deuces(x)
            wilds = self.jokers + self.deuces - x
            if self.first_only:
                plan = self._greedy_sets(groups, s, wilds, kmin, forbid_same, self.set_size)
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
            costs += [(cost, gi) for cost in _set_costs(c, c // kmin, size)]
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
        size = self.set_size

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
        sizes_total = self.set_size
        for gi, parts in enumerate(plan):
            rank, suit, _c = groups[gi]
            for k in parts:
                size = sizes_total
                cards: list[Card] = []
                for _ in range(k):
                    if suit >= 0:
                        idx = suit * 13 + rank - 1
                        if nat[idx]:
                            nat[idx] -= 1
                            cards.append(_CARD_OF[idx])
                            continue
                    else:
                        picked = False
                        for s4 in range(4):
                            idx = s4 * 13 + rank - 1
                            if nat[idx]:
                                nat[idx] -= 1
                                cards.append(_CARD_OF[idx])
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


class _Cover:
    """Exact search for a whole-hand lay-down (the final rounds ``all_at_once``
    and ``all_at_once_discard``), as an exact cover of the hand.

    The natural card with the fewest ways to be placed (windows of runs that could
    hold it, cards of its rank for a set; the lowest on a tie) is placed first: in
    a set of its rank, in a run containing it (short runs first), or (when one
    card is to be discarded) aside. A set is made
    with the fewest wilds it needs and remembers how many more it could take;
    wilds left over when every natural card is placed go there. When only deuces
    of spades and jokers remain but melds are still to be made, a deuce standing
    for itself is placed first. Each node first rejects cheaply: card counts, a
    natural card that fits in no meld, more runs needed than are left. Failed
    sub-states (remaining counts, melds left, room for wilds) are remembered.
    """

    def __init__(self, hand: Sequence[Card], rules: Rules, contract: Contract, skip: int,
                 first_only: bool) -> None:
        self.rules = rules
        self.contract = contract
        self.skip = skip
        self.first_only = first_only
        self.wrap = rules.run_wrap != "never"
        self.max_run = 13 if self.wrap else 14
        self.nalw = rules.naturals_at_least_wilds
        self.kmin = max(1, rules.min_naturals_set, 2 if self.nalw else 1)
        self.size = len(hand)
        nat = [0] * 52
        jokers = deuces = 0
        for c in hand:
            if c.rank == 0:
                jokers += 1
            elif rules.wild_deuce_of_spades and c.index == _DEUCE_OF_SPADES:
                deuces += 1
            else:
                nat[c.index] += 1
        self.nat = nat
        self.jokers = jokers
        self.deuces = deuces
        self.chosen: list[Meld] = []
        self.failed: set[tuple[object, ...]] = set()
        self.covers: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        self.lonely = -1
        self.settable = 0

    def solve(self) -> Iterator[list[Meld]]:
        c = self.contract
        cards = self.size - self.skip
        if cards < c.min_cards or (c.sets == 0 and cards > c.runs * self.max_run):
            return
        yield from self._rec(c.sets, c.runs, self.skip, 0, False)

    # The search ------------------------------------------------------------
    def _rec(self, sl: int, rl: int, skip: int, cap: int, sink: bool) -> Iterator[list[Meld]]:
        """``sl`` sets and ``rl`` runs still to make, ``skip`` cards still to
        discard, ``cap`` wilds the sets made so far could still take, ``sink``: a
        set of twos takes any deuce of spades as a natural card."""
        nat = self.nat
        total = sum(nat) + self.jokers + self.deuces
        cards = total - skip
        if cards < 3 * sl + 4 * rl:
            return
        if sl == 0 and cards > rl * self.max_run + cap + (2 * self.deuces if sink else 0):
            return
        rules = self.rules
        extra: tuple[tuple[int, int, int], ...] = ()
        if rules.forbid_adjacent_same_suit_runs or rules.forbid_same_rank_sets:
            extra = tuple(sorted((m.suit, m.rank, len(m.cards) if m.kind == "run" else 0)
                                 for m in self.chosen))
        key = (tuple(nat), self.jokers, self.deuces, sl, rl, skip, min(cap, total), sink, extra)
        if key in self.failed:
            return
        found = False
        for result in self._branch(sl, rl, skip, cap, sink):
            found = True
            yield result
            if self.first_only:
                return
        if not found:
            self.failed.add(key)

    def _branch(self, sl: int, rl: int, skip: int, cap: int, sink: bool) -> Iterator[list[Meld]]:
        nat = self.nat
        i = next(compress(_INDICES, nat), -1)  # the first natural card left
        if i < 0:
            if sl == 0 and rl == 0:
                done = self._finish(skip, sink)
                if done is not None:
                    yield done
            elif self.deuces:
                yield from self._cover_deuce(sl, rl, skip, cap, sink)
            return
        if self._dead(sl, rl, skip):
            return
        if skip and self.lonely >= 0:
            # a natural card that fits in no meld: it must be the discard
            i = self.lonely
            nat[i] -= 1
            yield from self._rec(sl, rl, skip - 1, cap, sink)
            nat[i] += 1
            return
        pick = self._pick(rl)  # the most constrained card first
        if pick >= 0:
            i = pick
        if rl:
            lane = i // 13 if self.rules.run_same_suit else -1
            yield from self._cover_runs(lane, i % 13 + 1, i, sl, rl, skip, cap, sink)
        if sl:
            yield from self._cover_sets(i, sl, rl, skip, cap, sink)
        if skip:
            nat[i] -= 1
            yield from self._rec(sl, rl, skip - 1, cap, sink)
            nat[i] += 1

    def _dead(self, sl: int, rl: int, skip: int) -> bool:
        """Cheap exact rejections: more natural cards fit in no meld than may be
        discarded (one that fits nowhere is left in ``self.lonely``, else -1); with
        only runs left, more runs are needed than are left (a run holds each rank
        once, the ace at most twice). Leaves in ``self.settable`` the ranks (bits, as
        below) that could still make a set."""
        rules = self.rules
        nat = self.nat
        wilds = self.jokers + self.deuces
        same_suit_runs = rules.run_same_suit
        if sl == 0 and skip == 0 and self._runs_short(rl, wilds):
            return True  # the cheapest test first
        settable = 0  # bit r (or r + 16 * suit under set_same_suit)
        if sl:
            kmin = self.kmin
            for r in range(1, 14):
                if rules.set_same_suit:
                    for s in range(4):
                        c = nat[s * 13 + r - 1] + (self.deuces if r == 2 and s == 0 else 0)
                        if c >= kmin and c + wilds >= 3:
                            settable |= 1 << (r + 16 * s)
                else:
                    c = nat[r - 1] + nat[12 + r] + nat[25 + r] + nat[38 + r]
                    if r == 2:
                        c += self.deuces
                    if c >= kmin and c + wilds >= 3:
                        settable |= 1 << r
        covers = [0, 0, 0, 0]
        if rl:
            for lane in (range(4) if same_suit_runs else (-1,)):
                covers[max(lane, 0)] = self._run_cover(
                    _lane_mask(nat, lane, self.deuces, self.wrap), wilds)[0]
        lonely = 0
        self.lonely = -1
        self.settable = settable
        for i in compress(_INDICES, nat):
            c = nat[i]
            r = i % 13 + 1
            s = i // 13
            if settable >> (r + 16 * s if rules.set_same_suit else r) & 1:
                continue
            if (covers[s if same_suit_runs else 0] >> r) & 1:
                continue
            lonely += c
            if lonely > skip:
                return True
            self.lonely = i
        if sl == 0:
            if skip == 0:
                return self._runs_short(rl, wilds)
            # one card will be discarded: dead only if dead whichever it is
            if wilds and not self._runs_short(rl, wilds - 1):
                return False
            for i in compress(_INDICES, nat):  # (nat[i] is restored before the next)
                nat[i] -= 1
                short = self._runs_short(rl, wilds)
                nat[i] += 1
                if not short:
                    return False
            return True
        # a run holds one card of a rank (two aces): a rank with more cards than
        # the runs left can hold needs a set (under set_same_suit: per suit)
        need_sets = 0
        for r in range(1, 14):
            limit = 2 * rl if r == 1 and not self.wrap else rl
            counts = (nat[r - 1], nat[12 + r], nat[25 + r], nat[38 + r])
            if rules.set_same_suit:
                n = sum(1 for c in counts if c > limit)
                need_sets += n if n or sum(counts) <= limit else 1
            elif sum(counts) > limit:
                need_sets += 1
        return need_sets - skip > sl

    def _pick(self, rl: int) -> int:
        """The natural card with the fewest ways to be placed (the lowest on a
        tie): windows of runs that could hold it, and the cards of its rank when
        it could be in a set (``self.settable`` as :meth:`_dead` left it)."""
        rules = self.rules
        nat = self.nat
        same_suit_runs = rules.run_same_suit
        settable = self.settable
        options: list[tuple[int, ...]] = [_NO_OPTIONS] * 4
        covers = [0, 0, 0, 0]
        if rl:
            wilds = self.jokers + self.deuces
            for lane in (range(4) if same_suit_runs else (-1,)):
                covers[max(lane, 0)], options[max(lane, 0)] = self._run_cover(
                    _lane_mask(nat, lane, self.deuces, self.wrap), wilds)
        pick = -1
        fewest = _UNLIMITED
        for i in compress(_INDICES, nat):
            c = nat[i]
            r = i % 13 + 1
            s = i // 13
            ways = 0
            if settable >> (r + 16 * s if rules.set_same_suit else r) & 1:
                ways = c if rules.set_same_suit else (nat[r - 1] + nat[12 + r] + nat[25 + r]
                                                      + nat[38 + r])
            lane = s if same_suit_runs else 0
            if (covers[lane] >> r) & 1:
                ways += options[lane][r]
            if ways and ways < fewest:
                fewest = ways
                pick = i
        return pick

    def _runs_short(self, rl: int, wilds: int) -> bool:
        """With only runs left: are more runs needed than ``rl`` (a run holds each
        rank once, the ace at most twice), or more wilds than there are (when each
        lane has just the runs its most repeated rank needs, every run there holds
        every rank that has that many cards, and so all ranks between)?"""
        nat = self.nat
        wrap = self.wrap
        if not self.rules.run_same_suit:
            ranks = [nat[r] + nat[13 + r] + nat[26 + r] + nat[39 + r] for r in range(13)]
            return max(max(ranks[1:]), ranks[0] if wrap else (ranks[0] + 1) // 2) > rl
        needed = 0
        mosts = []
        for base in (0, 13, 26, 39):
            lane = nat[base:base + 13]
            most = max(max(lane[1:]), lane[0] if wrap else (lane[0] + 1) // 2)
            needed += most
            if needed > rl:
                return True
            mosts.append(most)
        if needed < rl or wrap:
            return False
        holes = 0
        for base, most in zip((0, 13, 26, 39), mosts, strict=True):
            if most:
                ranks = [r for r in range(1, 13) if nat[base + r] == most]
                if ranks:
                    holes += sum(most - nat[base + r] for r in range(ranks[0], ranks[-1] + 1))
        return holes > wilds

    def _run_cover(self, mask: int, wilds: int) -> tuple[int, tuple[int, ...]]:
        """The ranks (bits) that could be in some run of a lane whose naturals are
        ``mask``: in a window of enough naturals whose holes the wilds can fill;
        and per rank 1..13, in how many such windows."""
        key = (mask, wilds)
        got = self.covers.get(key)
        if got is not None:
            return got
        rules = self.rules
        need = max(1, rules.min_naturals_run)
        no_adj = rules.no_adjacent_wilds_in_run
        cover = 0
        ways = [0] * 28
        for start in _live_starts(mask, wilds, self.wrap):
            for length in range(4, self.max_run + 1):
                if not self.wrap and start + length - 1 > 14:
                    break
                bits = ((1 << length) - 1) << start
                present = (mask & bits).bit_count()
                holes = length - present
                if holes > wilds:
                    break
                if present < need or (self.nalw and holes > present):
                    continue
                if no_adj:
                    gaps = ~mask & bits
                    if gaps & (gaps >> 1):
                        continue
                if _run_window_ok(rules, start, length):
                    cover |= bits
                    ways[start] += 1  # +1 from start on, -1 past the end
                    ways[start + length] -= 1
        if self.wrap:
            cover |= cover >> 13
        elif cover & (1 << 14):
            cover |= 2
        for b in range(1, 28):
            ways[b] += ways[b - 1]
        per_rank = tuple(ways[r] + ways[r + 13] for r in range(14))
        self.covers[key] = cover, per_rank
        return cover, per_rank

    def _cover_runs(self, lane: int, rank: int, force: int, sl: int, rl: int, skip: int,
                    cap: int, sink: bool) -> Iterator[list[Meld]]:
        """Runs in ``lane`` holding card ``force`` (an index, or -3 a deuce) as ``rank``."""
        rules = self.rules
        nat = self.nat
        wrap = self.wrap
        mask = _lane_mask(nat, lane, self.deuces, wrap)
        wilds = self.jokers + self.deuces
        adjacent_rule = rules.forbid_adjacent_same_suit_runs
        suit = lane if rules.run_same_suit else -1
        need = max(1, rules.min_naturals_run)
        nalw = self.nalw
        no_adj = rules.no_adjacent_wilds_in_run
        # the last meld, nothing to discard: every natural card left must be in it
        must = 0x3FFE if sl == 0 and rl == 1 and skip == 0 else 0
        windows: list[tuple[int, int, int]] = []  # (length, place of the card, start)
        for start in _live_starts(mask, wilds, wrap):
            window = mask >> start
            for length in range(4, self.max_run + 1):
                if not wrap and start + length - 1 > 14:
                    break
                bits = window & ((1 << length) - 1)
                present = bits.bit_count()
                if length - present > wilds:
                    break  # longer windows of this start miss even more
                if present < need or (nalw and 2 * present < length):
                    continue
                if no_adj:
                    gaps = ~bits & ((1 << length) - 1)
                    if gaps & (gaps >> 1):
                        continue
                if not _run_window_ok(rules, start, length):
                    continue
                if wrap:
                    p = (rank - start) % 13
                    places = [p] if p < length else []
                else:
                    places = [p for p in ((rank - start), (14 - start) if rank == 1 else -1)
                              if 0 <= p < length]
                windows.extend((length, p, start) for p in places)
        # runs of about the length the cards left ask for first (the shortest while
        # sets are to come), the card low in them
        target = 4
        if sl == 0:
            target = (sum(nat) + self.jokers + self.deuces - skip) // rl
        windows.sort(key=lambda w: (abs(w[0] - target), w[1], w[2]))
        for length, p, start in windows:
            for used in _run_fills(nat, self.jokers, self.deuces, rules, lane, start,
                                   length, p, force, must):
                meld = Meld("run", _used_cards(used), start, suit)
                if adjacent_rule and any(runs_adjacent(meld, m, wrap)
                                         for m in self.chosen if m.kind == "run"):
                    continue
                j = used.count(-1)
                d = used.count(-2) + used.count(-3)
                self.jokers -= j
                self.deuces -= d
                self.chosen.append(meld)
                yield from self._rec(sl, rl - 1, skip, cap, sink)
                self.chosen.pop()
                self.jokers += j
                self.deuces += d

    def _cover_sets(self, i: int, sl: int, rl: int, skip: int, cap: int,
                    sink: bool) -> Iterator[list[Meld]]:
        """Sets of the rank of natural card ``i`` holding it."""
        rules = self.rules
        nat = self.nat
        rank = i % 13 + 1
        if rules.forbid_same_rank_sets and any(m.kind == "set" and m.rank == rank
                                               for m in self.chosen):
            return
        key_suit = i // 13 if rules.set_same_suit else -1
        twos = rank == 2 and key_suit in (-1, 0)
        suits = [key_suit] if key_suit >= 0 else [0, 1, 2, 3]
        avail = [nat[s * 13 + rank - 1] - (1 if s * 13 + rank - 1 == i else 0) for s in suits]
        if rl == 0 and key_suit < 0:
            # no runs to come: which suits go in the set does not matter, only how many
            choices: Iterable[tuple[int, ...]] = (
                _spread(n, avail) for n in range(sum(avail), -1, -1))
        else:
            choices = product(*(range(a, -1, -1) for a in avail))
        nat[i] -= 1
        for counts in choices:
            for dn in range(self.deuces if twos else 0, -1, -1):
                k = 1 + sum(counts) + dn
                if k < self.kmin:
                    continue
                w = max(0, 3 - k)
                if self.nalw and w > k:
                    continue
                wj = min(w, self.jokers)
                wd = w - wj
                if (twos and wd) or wd + dn > self.deuces:
                    continue
                cards = [_CARD_OF[i]]
                for s, n in zip(suits, counts, strict=True):
                    idx = s * 13 + rank - 1
                    nat[idx] -= n
                    cards.extend([_CARD_OF[idx]] * n)
                cards.sort(key=set_order)
                cards.extend([_DEUCE] * dn + [JOKER] * wj + [_DEUCE] * wd)
                self.jokers -= wj
                self.deuces -= wd + dn
                self.chosen.append(Meld("set", tuple(cards), rank, key_suit))
                more = k - w if self.nalw else _UNLIMITED
                yield from self._rec(sl - 1, rl, skip, min(_UNLIMITED, cap + more), sink or twos)
                self.chosen.pop()
                self.jokers += wj
                self.deuces += wd + dn
                for s, n in zip(suits, counts, strict=True):
                    nat[s * 13 + rank - 1] += n
        nat[i] += 1

    def _cover_deuce(self, sl: int, rl: int, skip: int, cap: int,
                     sink: bool) -> Iterator[list[Meld]]:
        """No natural card is left but melds are: a deuce of spades must stand for itself."""
        rules = self.rules
        if sl and not (rules.forbid_same_rank_sets
                       and any(m.kind == "set" and m.rank == 2 for m in self.chosen)):
            key_suit = 0 if rules.set_same_suit else -1
            for dn in range(self.deuces, 0, -1):
                w = max(0, 3 - dn)
                if dn < self.kmin or w > self.jokers or (self.nalw and w > dn):
                    continue
                self.deuces -= dn
                self.jokers -= w
                self.chosen.append(Meld("set", (_DEUCE,) * dn + (JOKER,) * w, 2, key_suit))
                more = dn - w if self.nalw else _UNLIMITED
                yield from self._rec(sl - 1, rl, skip, min(_UNLIMITED, cap + more), True)
                self.chosen.pop()
                self.deuces += dn
                self.jokers += w
        if rl:
            lane = 0 if rules.run_same_suit else -1
            yield from self._cover_runs(lane, 2, -3, sl, rl, skip, cap, sink)

    def _finish(self, skip: int, sink: bool) -> list[Meld] | None:
        """Every natural card is placed and every meld made: the wilds left go into
        the sets (a deuce of spades into a set of twos as a natural card), or one
        is the discard."""
        jokers = self.jokers
        deuces = self.deuces
        if skip:
            if jokers:
                jokers -= 1
            elif deuces:
                deuces -= 1
            else:
                return None
        runs = [m for m in self.chosen if m.kind == "run"]
        sets = [m for m in self.chosen if m.kind == "set"]
        if sink and deuces:
            for si, m in enumerate(sets):
                if m.rank == 2 and m.suit in (-1, 0):
                    sets[si] = Meld("set", m.cards + (_DEUCE,) * deuces, 2, m.suit)
                    deuces = 0
                    break
        for si, m in enumerate(sets):
            if not jokers and not deuces:
                break
            if self.nalw:
                naturals = sum(1 for c in m.cards if natural_at(c, m.rank, m.suit))
                room = 2 * naturals - len(m.cards)
            else:
                room = jokers + deuces
            add_j = min(room, jokers)
            add_d = min(room - add_j, deuces)
            if add_j or add_d:
                sets[si] = Meld("set", m.cards + (JOKER,) * add_j + (_DEUCE,) * add_d,
                                m.rank, m.suit)
                jokers -= add_j
                deuces -= add_d
        if jokers or deuces:
            return None
        return runs + sets


def _spread(n: int, avail: list[int]) -> tuple[int, ...]:
    """``n`` cards taken from the piles ``avail``, the biggest piles first."""
    out = [0] * len(avail)
    for s in sorted(range(len(avail)), key=lambda s: -avail[s]):
        take = min(n, avail[s])
        out[s] = take
        n -= take
    return tuple(out)


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
