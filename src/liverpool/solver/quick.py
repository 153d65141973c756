"""The quick rejection: most hands have no lay-down, and most of those are told
by a few table look-ups, before any search.

One pass over the hand counts its cards into two integers (a byte per set
group, per suit and for the jokers; a bit per rank held in each suit), and
table look-ups per suit, keyed by the suit's ranks held, give lower bounds on
the wilds the contract needs: when they are more than the hand holds, there is
no lay-down (:func:`hopeless`). A necessary condition only: a hand that passes
is searched as before, so what is found is unchanged. The tables are made for
every lane at once with bit sets (:func:`one_run_table`, :func:`cover_table`);
:func:`fewest_holes` and :func:`lane_cover` are their plain per-lane forms.

>>> from liverpool import load_rules, parse_cards
>>> plan = quick_plan(load_rules("liverpool"), 1)  # two sets
>>> hopeless(parse_cards("9H 9S 5C 6C KD 2H 3D JC 7S 4H"), plan)
True
>>> hopeless(parse_cards("9H 9S 9C KD KS * 3D JC 7S 4H"), plan)  # a joker
False
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator, Sequence

from ..cards import Card
from ..melds import LayDownMode, lay_down_mode
from ..rules import Contract, Rules
from .bounds import set_costs
from .windows import RUN_RULES, lane_bits, live_starts, run_rules_id, window_fits

__all__ = [
    "HOLE_CAP",
    "QUICK_PLANS",
    "QuickPlan",
    "contract_and_mode",
    "cover_table",
    "fewest_holes",
    "hopeless",
    "lane_cover",
    "one_run_table",
    "quick_plan",
]

_CONTRACTS: dict[int, tuple[Rules, dict[int, tuple[Contract, LayDownMode]]]] = {}


def contract_and_mode(rules: Rules, round: int) -> tuple[Contract, LayDownMode]:
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
HOLE_CAP = 8  # the fewest holes of a run are known up to this (8: 8 or more)

#: per run-rules id (see :func:`run_rules_id`), per ranks held in a lane (bits
#: 1..13), the fewest holes of a legal run window, up to ``HOLE_CAP`` (that many
#: or more, or no window at all): :func:`fewest_holes` of every lane, made at once
#: by :func:`one_run_table` when the id is first met
_ONE_RUN: dict[int, bytearray] = {}
#: per run-rules id, per wilds, per ranks held in a lane, the ranks (bits 1..13)
#: that a legal run window of no more holes than the wilds holds: :func:`lane_cover`
#: of every lane, made at once by :func:`cover_table` when first needed
_COVER: dict[int, list[array[int]]] = {}
_NO_TABLE = bytearray()  # (a round without runs needs none)


class QuickPlan:
    """What the quick rejection of one ruleset's round needs (see :func:`quick_plan`)."""

    __slots__ = (
        "card_groups",
        "contract",
        "cost_table",
        "counts",
        "covers",
        "groups",
        "hopeless_args",
        "joker_byte",
        "kmin",
        "kmin_adder",
        "min_cards",
        "mode",
        "naturals_at_least_wilds",
        "one_set",
        "quick_cards",
        "run_need",
        "runs",
        "runs_id",
        "same_runs",
        "sets",
        "size",
        "size_adder",
        "suit_byte",
        "table",
        "whole",
        "whole_adder",
    )

    def __init__(self, rules: Rules, contract: Contract, mode: LayDownMode) -> None:
        self.contract = contract
        self.mode = mode
        # deuces of spades may be wild and natural: those hands are left to the search
        self.quick_cards = 0 if rules.wild_deuce_of_spades else _QUICK_CARDS  # (hands of
        # fewer cards are tried)
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
        # the minimal sets of PartialSearch (a normal round); the byte adders set a
        # group's high bit when it holds at least kmin (size) natural cards
        exact = rules.contract_exact
        self.size = size = 3 if exact else max(3, rules.min_naturals_set)
        self.kmin = kmin = max(1, rules.min_naturals_set,
                               (size + 1) // 2 if rules.naturals_at_least_wilds else 1)
        self.kmin_adder = (128 - min(kmin, 128)) * _BYTES
        self.size_adder = (128 - min(size, 128)) * _BYTES
        self.one_set = rules.forbid_same_rank_sets
        #: per natural count of a set group (below 64), :func:`set_costs` of its sets
        self.cost_table = tuple(set_costs(c, 1 if self.one_set else c // kmin, size)
                                if c >= kmin else () for c in range(64))
        self.same_runs = rules.run_same_suit
        # (a whole-hand lay-down's runs may be longer than 4)
        self.runs_id = runs_id = run_rules_id(rules, exact and not self.whole)
        self.run_need = max(1, rules.min_naturals_run, 2 if rules.naturals_at_least_wilds else 1)
        table = _ONE_RUN.get(runs_id, _NO_TABLE)
        if table is _NO_TABLE and contract.runs and not self.whole:
            table = _ONE_RUN[runs_id] = one_run_table(runs_id)
        self.table = table
        self.covers = _COVER.setdefault(runs_id, [])
        # the sets of :func:`_stray` (a whole-hand lay-down)
        self.whole_adder = (128 - min(max(1, rules.min_naturals_set), 128)) * _BYTES
        self.naturals_at_least_wilds = rules.naturals_at_least_wilds
        #: what :func:`hopeless` reads first, in one piece
        self.hopeless_args = (self.counts, _RANK_BIT, self.joker_byte, self.whole, self.sets,
                              self.kmin_adder, self.groups, self.size_adder, self.runs)


#: per ruleset id: the ruleset and its plans by round (see :func:`quick_plan`)
QUICK_PLANS: dict[int, tuple[Rules, dict[int, QuickPlan]]] = {}


def quick_plan(rules: Rules, round: int) -> QuickPlan:
    """The :class:`QuickPlan` of ``round`` under ``rules``, remembered per ruleset (as
    :func:`contract_and_mode`)."""
    entry = QUICK_PLANS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(QUICK_PLANS) > 64:
            QUICK_PLANS.clear()
        entry = QUICK_PLANS[id(rules)] = (rules, {})
    got = entry[1].get(round)
    if got is None:
        contract, mode = contract_and_mode(rules, round)
        got = entry[1][round] = QuickPlan(rules, contract, mode)
    return got


def fewest_holes(ranks: int, rules_id: int) -> int:
    """The fewest holes of a legal run window in a lane whose ranks held are
    ``ranks`` (bits 1..13), up to ``HOLE_CAP`` (no window of fewer holes); for
    :data:`_ONE_RUN`."""
    wrap, beside_ace, need, naturals_at_least_wilds, no_adjacent_wilds, exact = RUN_RULES[rules_id]
    mask = lane_bits(ranks, 1, 0, wrap)
    best = HOLE_CAP
    # a window holds each rank once (the ace twice, low and high, when runs do not wrap)
    if (ranks.bit_count() + (0 if wrap else (ranks >> 1) & 1)
            < max(need, 2 if naturals_at_least_wilds else 1)):
        return best
    for start in range(1, 14 if wrap else 12):
        window = mask >> start
        top = 4 if exact else (13 if wrap else 15 - start)
        for length in range(4, top + 1):
            bits = window & ((1 << length) - 1)
            holes = length - bits.bit_count()
            if holes >= best:
                break  # longer windows of this start have no fewer holes
            if window_fits(bits, length, start, need, naturals_at_least_wilds, no_adjacent_wilds,
                           beside_ace):
                best = holes
    return best


def lane_cover(ranks: int, rules_id: int, wilds: int) -> int:
    """The ranks (bits 1..13) that a legal run window of no more holes than
    ``wilds`` in a lane whose ranks held are ``ranks`` holds; for :data:`_COVER`."""
    wrap, beside_ace, need, naturals_at_least_wilds, no_adjacent_wilds, exact = RUN_RULES[rules_id]
    if (ranks.bit_count() + (0 if wrap else (ranks >> 1) & 1)
            < max(need, 2 if naturals_at_least_wilds else 1)):
        return 0  # (as in fewest_holes)
    mask = lane_bits(ranks, 1, 0, wrap)
    cover = 0
    for start in live_starts(mask, wilds, wrap):
        window = mask >> start
        top = 4 if exact else (13 if wrap else 15 - start)
        for length in range(4, top + 1):
            bits = window & ((1 << length) - 1)
            if length - bits.bit_count() > wilds:
                break
            if window_fits(bits, length, start, need, naturals_at_least_wilds, no_adjacent_wilds,
                           beside_ace):
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
    """Per legal-position run window of :func:`fewest_holes` (start, length):
    the lanes where it is a legal run (enough natural cards, not more wilds than
    natural cards where that is a rule, no two holes side by side where that is
    one), and, for holes up to ``wilds``, the lanes where it has at most that many
    holes: yields (start, length, legal lanes, lanes per holes)."""
    wrap, beside_ace, need, naturals_at_least_wilds, no_adjacent_wilds, exact = RUN_RULES[rules_id]
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
            least = max(need, (length + 1) // 2 if naturals_at_least_wilds else 0)
            legal = at_least[least] if least <= length else 0
            if no_adjacent_wilds:
                legal &= ~two_holes
            yield start, length, legal, [legal & at_least[max(0, length - h)]
                                         for h in range(wilds + 1)]


def one_run_table(rules_id: int) -> bytearray:
    """:data:`_ONE_RUN` of a run-rules id, every lane at once."""
    fewer = [0] * HOLE_CAP  # fewer[h]: the lanes with a legal window of at most h holes
    for _start, _length, _legal, per_holes in _window_sets(rules_id, HOLE_CAP - 1):
        for h, lanes in enumerate(per_holes):
            fewer[h] |= lanes
    total = sum(_lane_fields(lanes, _BYTE_BITS) for lanes in fewer)
    # HOLE_CAP less the number of h whose window the lane has
    return bytearray(HOLE_CAP - b for b in total.to_bytes(2 * _LANES, "little"))


def cover_table(rules_id: int, wilds: int) -> array[int]:
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


def hopeless(hand: Sequence[Card], plan: QuickPlan) -> bool:
    """Is there surely no lay-down of ``plan``'s round from ``hand``? (False: there
    may be one.) A normal round: the wilds that the contract's runs need at least
    (per lane, the fewest holes of a legal window, :data:`_ONE_RUN`; a lane holds
    as many runs as it has natural cards for) and those its sets need at least
    (as :meth:`PartialSearch._set_wilds`) are more than the hand holds. A whole-hand
    round: see :func:`_stray`."""
    (counts, rank_bit, joker_byte, whole, sets, kmin_adder, groups, size_adder,
     runs) = plan.hopeless_args
    v = 0
    held = 0
    for card in hand:
        i = card.index
        v += counts[i]
        held |= rank_bit[i]
    wilds = v >> joker_byte
    if whole:
        return _stray(v, held, wilds, plan)
    need = 0
    if sets:
        big = (v + kmin_adder) & groups  # the groups of at least kmin natural cards
        if not big:
            return True
        if ((v + size_adder) & big).bit_count() < sets:  # not s sets without wilds
            costs: list[int] = []
            cost_table = plan.cost_table
            while big:
                low = big & -big
                big ^= low
                c = (v >> (low.bit_length() - 8)) & 255
                costs += cost_table[c] if c < 64 else set_costs(
                    c, 1 if plan.one_set else c // plan.kmin, plan.size)
            if len(costs) < sets:
                return True
            if sets == 1:
                need = min(costs)
            else:
                costs.sort()
                need = sum(costs[:sets])
            if need > wilds:
                return True
    room = wilds - need
    if not runs or room >= HOLE_CAP:
        return False  # (past HOLE_CAP wilds the table does not tell)
    table = plan.table
    hs: tuple[int, ...]
    if plan.same_runs:
        m0 = held & _SUIT_RANKS
        m1 = (held >> 16) & _SUIT_RANKS
        m2 = (held >> 32) & _SUIT_RANKS
        m3 = held >> 48
        h0 = table[m0]
        h1 = table[m1]
        h2 = table[m2]
        h3 = table[m3]
        if runs == 1:
            return h0 > room and h1 > room and h2 > room and h3 > room
        if runs * min(h0, h1, h2, h3) > room:
            return True  # (every run needs as many wilds as the lane best for one)
        hs = (h0, h1, h2, h3)
    else:
        m = (held | held >> 16 | held >> 32 | held >> 48) & _SUIT_RANKS
        h = table[m]
        if runs == 1 or h > room:
            return h > room
        hs = (h,)
    # k runs: a lane of n natural cards holds at most n // run_need of them, each
    # needing no fewer wilds than the lane's fewest holes
    slots: list[int] = []
    suits = v >> plan.suit_byte
    for li, h in enumerate(hs):
        if h <= room:
            n = (suits >> 8 * li) & 255 if plan.same_runs else (
                (suits & 255) + (suits >> 8 & 255) + (suits >> 16 & 255) + (suits >> 24 & 255))
            slots += [h] * min(runs, n // plan.run_need)
    if len(slots) < runs:
        return True
    slots.sort()
    return sum(slots[:runs]) > room


def _stray(v: int, held: int, wilds: int, plan: QuickPlan) -> bool:
    """:func:`hopeless` of a whole-hand round : does a
    natural card of the hand (counted into ``v`` and ``held``) fit in no set of
    its rank and no run window through it (:data:`_COVER`), when none may be
    discarded; or do two of different ranks or suits, when one may?"""
    stray = held
    if plan.sets:
        big = (v + plan.whole_adder) & plan.groups  # the groups of enough natural cards for a set
        while big:
            low = big & -big
            big ^= low
            g = (v >> (low.bit_length() - 8)) & 255
            w = 3 - g if g < 3 else 0
            if w <= wilds and (not plan.naturals_at_least_wilds or w <= g):
                b = low.bit_length() // 8 - 1  # the group's byte
                if plan.card_groups:
                    stray &= ~(1 << (16 * (b // 13) + b % 13 + 1))
                else:
                    stray &= ~((1 << b) * _EVERY_SUIT)
    if stray and plan.runs:
        covers = plan.covers
        while len(covers) <= wilds:
            covers.append(cover_table(plan.runs_id, len(covers)))
        table = covers[wilds]
        if plan.same_runs:
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
    if plan.mode == "all":
        return True
    return stray & (stray - 1) != 0  # one card may be discarded: two kinds of stray cards
