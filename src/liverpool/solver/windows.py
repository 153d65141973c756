"""Run windows: the ranks a run could span in one lane, and the ways to fill one.

A *lane* is where a run's natural cards come from: one suit (``run_same_suit``,
lanes 0..3) or every suit at once (lane -1). Its natural cards are a bit mask
of ranks (bit r for rank r; :func:`lane_bits` adds the ace high as bit 14, or,
when runs wrap, the ranks again from bit 14 on). A *window* is a stretch of
ranks from a start; its *holes* are the ranks with no natural card, which
wilds must fill.

:func:`has_run_window` is the one scan for "is there a legal window here?"
(anywhere in a lane, or through one rank), remembered in one bounded memo;
:func:`run_fills` fills a chosen window with actual cards.

>>> from liverpool import load_rules
>>> runs_id = run_rules_id(load_rules("liverpool"), False)  # at least 3 natural cards a run
>>> lane = lane_bits(0b1110, -1, 0, False)  # the ace, the two and the three
>>> has_run_window(lane, 1, runs_id), has_run_window(lane, 0, runs_id)
(True, False)
>>> has_run_window(lane, 1, runs_id, rank=4), has_run_window(lane, 1, runs_id, rank=9)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import JOKER, Card
from ..rules import Rules

__all__ = [
    "CARD_OF",
    "DEUCE",
    "DEUCE_OF_SPADES",
    "INDICES",
    "RUN_RULES",
    "counts_mask",
    "has_run_window",
    "lane_bits",
    "lane_mask",
    "live_starts",
    "ranks_held",
    "run_fills",
    "run_rules_id",
    "run_window_ok",
    "used_cards",
    "window_fits",
]

#: the index of the deuce of spades (wild under ``wild_deuce_of_spades``)
DEUCE_OF_SPADES = Card(2, 0).index
#: the natural cards by index
CARD_OF = tuple(Card.from_index(i) for i in range(52))
INDICES = range(52)  # the natural cards' indices: compress(INDICES, nat) gives those held
DEUCE = Card.from_index(DEUCE_OF_SPADES)

#: per run-rules id, the rules of runs a window scan needs: (wrap, three beside
#: the ace, natural minimum, naturals at least wilds, no adjacent wilds, runs of
#: exactly 4)
RUN_RULES: list[tuple[bool, bool, int, bool, bool, bool]] = []  # by id
_RUN_RULE_IDS: dict[tuple[bool, bool, int, bool, bool, bool], int] = {}


def run_rules_id(rules: Rules, exact: bool) -> int:
    """A small number for the rules of runs that a window scan needs (see
    :data:`RUN_RULES`)."""
    key = (rules.run_wrap != "never", rules.run_wrap == "three_beside_ace",
           max(1, rules.min_naturals_run), rules.naturals_at_least_wilds,
           rules.no_adjacent_wilds_in_run, exact)
    got = _RUN_RULE_IDS.get(key)
    if got is None:
        got = _RUN_RULE_IDS[key] = len(RUN_RULES)
        RUN_RULES.append(key)
    return got



def window_fits(bits: int, length: int, start: int, need: int, naturals_at_least_wilds: bool,
                no_adjacent_wilds: bool, beside_ace: bool) -> bool:
    """Do the wild limits allow a run over the window of ``length`` ranks from
    ``start`` in which ``bits`` marks the natural cards held (the gaps are wilds)?"""
    present = bits.bit_count()
    if present < need or (naturals_at_least_wilds and 2 * present < length):
        return False
    if no_adjacent_wilds:
        gaps = ~bits & ((1 << length) - 1)
        if gaps & (gaps >> 1):
            return False
    if beside_ace:
        ace_at = (1 - start) % 13
        if ace_at < length and ace_at < 3 and length - 1 - ace_at < 3:
            return False
    return True




#: the cards of :func:`run_fills`' codes: a natural card's index, or from the
#: end -1 a joker, -2 and -3 the deuce of spades
_FILL_CARD = (*CARD_OF, DEUCE, DEUCE, JOKER)


def used_cards(used: list[int]) -> tuple[Card, ...]:
    """The cards of a run fill (see :func:`run_fills`)."""
    return tuple(map(_FILL_CARD.__getitem__, used))


def run_window_ok(rules: Rules, start: int, length: int) -> bool:
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


def run_fills(nat: list[int], jokers: int, deuces: int, rules: Rules, lane: int, start: int,
              length: int, force_pos: int = -1, force: int = 0,
              must: int = 0, split: int = -1) -> Iterator[list[int]]:
    """Every way to fill a run window from the counts, one position at a time.

    Yields ``used`` (one shared list: copy it to keep it): per position a natural
    card index, -1 a joker, -2 a deuce of spades as a wild, -3 a deuce of spades
    in its own place. While a fill is yielded its natural cards are taken out of
    ``nat`` (they are put back when the generator moves on); the wilds are the
    caller's to count. ``force_pos`` >= 0 puts card ``force`` (an index, or -3)
    at that position. Wilds are jokers first, then deuces (a deuce serves
    wherever a joker does). A rank whose bit is set in ``must`` takes a natural
    card where there is one (the caller knows no other meld could want it).
    In a run of any suit (``lane`` -1) under ``set_same_suit`` the suit of a
    card matters only where a set of its suit could still want it: the card
    indices whose bit is set in ``split`` are tried one by one, the others of a
    rank stand for each other (the one with the most cards is taken).
    The wild limits are cut off early; the caller still checks the finished
    meld with :func:`~liverpool.melds.meld_problem`.
    """
    naturals_at_least_wilds = rules.naturals_at_least_wilds
    need_nat = max(1, rules.min_naturals_run, (length + 1) // 2 if naturals_at_least_wilds else 1)
    max_wild = min(length - need_nat, jokers + deuces)
    if max_wild < 0:
        return
    no_adjacent_wilds = rules.no_adjacent_wilds_in_run
    deuce_lane = lane in (0, -1)
    one_suit = lane < 0 and (not rules.set_same_suit or not split)  # then a card's suit never matters
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
    if length == 14:  # A-2-...-K-A: the ace low may be a wild, for a natural ace high
        must &= ~(1 << 1)

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
                        if one_suit or not (split >> idx) & 1:
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
        if wilds + 1 + missing[i + 1] <= max_wild and not (no_adjacent_wilds and prev_wild):
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


_LANE_BITS: dict[tuple[int, ...], int] = {}  # a suit's counts -> its ranks held (bits 1..13)


def lane_mask(nat: list[int], lane: int, deuces: int, wrap: bool) -> int:
    """A bit mask of the ranks with a natural card in a run lane (bit r for rank r,
    bit 14 for the ace high, doubled up to 26 when runs wrap)."""
    if lane >= 0:
        return counts_mask(tuple(nat[lane * 13:lane * 13 + 13]), lane, deuces, wrap)
    m = 0
    bit = 2
    for a, b, c, d in zip(nat[0:13], nat[13:26], nat[26:39], nat[39:52], strict=True):
        if a or b or c or d:
            m |= bit
        bit <<= 1
    return lane_bits(m, lane, deuces, wrap)


def counts_mask(counts: tuple[int, ...], lane: int, deuces: int, wrap: bool) -> int:
    """:func:`lane_mask` of a lane whose natural counts of ranks 1..13 are ``counts``."""
    return lane_bits(ranks_held(counts), lane, deuces, wrap)


def ranks_held(counts: tuple[int, ...]) -> int:
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


def lane_bits(m: int, lane: int, deuces: int, wrap: bool) -> int:
    """The mask of :func:`lane_mask` from the ranks held (bits 1..13)."""
    if deuces and lane <= 0:
        m |= 4  # a deuce of spades in the place of a two
    if wrap:
        m |= m << 13
    elif m & 2:
        m |= 1 << 14
    return m


def _four_starts(mask: int, wilds: int) -> int:
    """The starts (bits) of the windows of 4 ranks of a lane whose ranks held are
    ``mask`` (as :func:`lane_mask` makes it) that hold no more holes than
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


def live_starts(mask: int, wilds: int, wrap: bool) -> list[int]:
    """The starts of run windows worth trying in a lane whose ranks held are
    ``mask`` (as :func:`lane_mask` makes it), in order: those whose first 4
    ranks have no more holes than ``wilds`` (:func:`_four_starts`; the windows
    of the other starts, all holding those 4 ranks, have more)."""
    live = _four_starts(mask, wilds) & ((1 << (14 if wrap else 12)) - 2)  # starts 1..13 or 1..11
    out = []
    while live:
        low = live & -live
        live ^= low
        out.append(low.bit_length() - 1)
    return out


#: the one memo of :func:`has_run_window`, cleared when it grows past _SCAN_MEMO_SIZE
_SCAN_MEMO: dict[tuple[int, int, int, int], bool] = {}
_SCAN_MEMO_SIZE = 50_000


def has_run_window(mask: int, wilds: int, rules_id: int, rank: int = 0) -> bool:
    """Is there a legal run window in a lane whose ranks held are ``mask`` (as
    :func:`lane_bits` makes it) through ``rank`` (0: anywhere)? A window of 4
    ranks or more (exactly 4 under an exact contract; no longer than the ranks
    allow) whose holes are no more than ``wilds``, within the wild limits of
    the run rules ``rules_id`` (:func:`run_rules_id`, :func:`window_fits`).
    Remembered (one memo for every caller, bounded)."""
    memo_key = (mask, wilds, rules_id, rank)
    got = _SCAN_MEMO.get(memo_key)
    if got is not None:
        return got
    wrap, beside_ace, need, naturals_at_least_wilds, no_adjacent_wilds, exact = RUN_RULES[rules_id]
    got = False
    for start in live_starts(mask, wilds, wrap):
        # the shortest window from this start that holds the rank
        if not rank:
            shortest = 4
        elif wrap:
            shortest = max(4, (rank - start) % 13 + 1)
        elif rank == 1:  # the ace, low (start 1) or high (place 14)
            shortest = 4 if start == 1 else max(4, 15 - start)
        elif start <= rank:
            shortest = max(4, rank - start + 1)
        else:
            continue
        top = 4 if exact else (13 if wrap else 15 - start)
        window = mask >> start
        for length in range(shortest, top + 1):
            bits = window & ((1 << length) - 1)
            if length - bits.bit_count() > wilds:
                break  # longer windows of this start miss even more
            if window_fits(bits, length, start, need, naturals_at_least_wilds, no_adjacent_wilds,
                           beside_ace):
                got = True
                break
        if got:
            break
    if len(_SCAN_MEMO) > _SCAN_MEMO_SIZE:
        _SCAN_MEMO.clear()
    _SCAN_MEMO[memo_key] = got
    return got
