"""The cover: a whole-hand lay-down of the final rounds (``all_at_once``, and
``all_at_once_discard`` with one card left for the discard), found as an exact
cover of the hand by the contract's melds.

:class:`WholeHandCover` places the most constrained natural card first, in a
set of its rank or a run through it, and rejects a node cheaply when a card
fits nowhere or the runs left cannot hold the cards left. Normal rounds are
:class:`~liverpool.solver.partial.PartialSearch`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import compress, product

from ..cards import JOKER, Card
from ..melds import Meld, natural_at, runs_adjacent, set_order
from ..rules import Contract, Rules
from .windows import (
    CARD_OF,
    DEUCE,
    DEUCE_OF_SPADES,
    INDICES,
    lane_mask,
    live_starts,
    run_fills,
    run_window_ok,
    used_cards,
)

__all__ = ["WholeHandCover"]

_UNLIMITED = 1 << 20  # room for extra wilds in a set without a wild limit
_NO_OPTIONS = (0,) * 14


class WholeHandCover:
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

    The search is bounded: after :attr:`max_nodes` nodes it stops (``exhausted``
    is then True) as if no lay-down were left. The hands of play need a few
    hundred at most; a huge tangled hand of a house ruleset (dozens of cards,
    many wilds, sets of one suit beside runs of any suit) cannot hold up a game.
    The player can still lay such a hand down by naming the melds, which are
    checked in full.
    """

    #: the most nodes a search visits (about half a second)
    max_nodes = 60_000

    def __init__(self, hand: Sequence[Card], rules: Rules, contract: Contract, skip: int,
                 first_only: bool) -> None:
        self.rules = rules
        self.contract = contract
        self.skip = skip
        self.first_only = first_only
        self.wrap = rules.run_wrap != "never"
        self.max_run = 13 if self.wrap else 14
        self.naturals_at_least_wilds = rules.naturals_at_least_wilds
        self.kmin = max(1, rules.min_naturals_set, 2 if self.naturals_at_least_wilds else 1)
        self.size = len(hand)
        nat = [0] * 52
        jokers = deuces = 0
        for c in hand:
            if c.rank == 0:
                jokers += 1
            elif rules.wild_deuce_of_spades and c.index == DEUCE_OF_SPADES:
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
        #: nodes visited, and did the search stop at :attr:`max_nodes`?
        self.nodes = 0
        self.exhausted = False

    def solve(self) -> Iterator[list[Meld]]:
        c = self.contract
        cards = self.size - self.skip
        if cards < c.min_cards or (c.sets == 0 and cards > c.runs * self.max_run):
            return
        try:
            yield from self._rec(c.sets, c.runs, self.skip, 0, False)
        except _OutOfNodes:
            self.exhausted = True

    # The search ------------------------------------------------------------
    def _rec(self, sets_left: int, runs_left: int, skip: int, cap: int,
             sink: bool) -> Iterator[list[Meld]]:
        """``sets_left`` sets and ``runs_left`` runs still to make, ``skip`` cards still to
        discard, ``cap`` wilds the sets made so far could still take, ``sink``: a
        set of twos takes any deuce of spades as a natural card."""
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfNodes
        nat = self.nat
        total = sum(nat) + self.jokers + self.deuces
        cards = total - skip
        if cards < 3 * sets_left + 4 * runs_left:
            return
        if sets_left == 0 and cards > (runs_left * self.max_run + cap
                                       + (2 * self.deuces if sink else 0)):
            return
        rules = self.rules
        extra: tuple[tuple[int, int, int], ...] = ()
        if rules.forbid_adjacent_same_suit_runs or rules.forbid_same_rank_sets:
            extra = tuple(sorted((m.suit, m.rank, len(m.cards) if m.kind == "run" else 0)
                                 for m in self.chosen))
        key = (tuple(nat), self.jokers, self.deuces, sets_left, runs_left, skip, min(cap, total),
               sink, extra)
        if key in self.failed:
            return
        found = False
        for result in self._branch(sets_left, runs_left, skip, cap, sink):
            found = True
            yield result
            if self.first_only:
                return
        if not found:
            self.failed.add(key)

    def _branch(self, sets_left: int, runs_left: int, skip: int, cap: int,
                sink: bool) -> Iterator[list[Meld]]:
        nat = self.nat
        i = next(compress(INDICES, nat), -1)  # the first natural card left
        if i < 0:
            if sets_left == 0 and runs_left == 0:
                done = self._finish(skip, sink)
                if done is not None:
                    yield done
            elif self.deuces:
                yield from self._cover_deuce(sets_left, runs_left, skip, cap, sink)
            return
        if self._dead(sets_left, runs_left, skip):
            return
        if skip and self.lonely >= 0:
            # a natural card that fits in no meld: it must be the discard
            i = self.lonely
            nat[i] -= 1
            yield from self._rec(sets_left, runs_left, skip - 1, cap, sink)
            nat[i] += 1
            return
        pick = self._pick(runs_left)  # the most constrained card first
        if pick >= 0:
            i = pick
        if runs_left:
            lane = i // 13 if self.rules.run_same_suit else -1
            yield from self._cover_runs(lane, i % 13 + 1, i, sets_left, runs_left, skip, cap, sink)
        if sets_left:
            yield from self._cover_sets(i, sets_left, runs_left, skip, cap, sink)
        if skip:
            nat[i] -= 1
            yield from self._rec(sets_left, runs_left, skip - 1, cap, sink)
            nat[i] += 1

    def _dead(self, sets_left: int, runs_left: int, skip: int) -> bool:
        """Cheap exact rejections: more natural cards fit in no meld than may be
        discarded (one that fits nowhere is left in ``self.lonely``, else -1); with
        only runs left, more runs are needed than are left (a run holds each rank
        once, the ace at most twice). Leaves in ``self.settable`` the ranks (bits, as
        below) that could still make a set."""
        rules = self.rules
        nat = self.nat
        wilds = self.jokers + self.deuces
        same_suit_runs = rules.run_same_suit
        if sets_left == 0 and skip == 0 and self._runs_short(runs_left, wilds):
            return True  # the cheapest test first
        settable = 0  # bit r (or r + 16 * suit under set_same_suit)
        if sets_left:
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
        if runs_left:
            for lane in (range(4) if same_suit_runs else (-1,)):
                covers[max(lane, 0)] = self._run_cover(
                    lane_mask(nat, lane, self.deuces, self.wrap), wilds)[0]
        lonely = 0
        self.lonely = -1
        self.settable = settable
        for i in compress(INDICES, nat):
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
        if sets_left == 0:
            if skip == 0:
                return self._runs_short(runs_left, wilds)
            # one card will be discarded: dead only if dead whichever it is
            if wilds and not self._runs_short(runs_left, wilds - 1):
                return False
            for i in compress(INDICES, nat):  # (nat[i] is restored before the next)
                nat[i] -= 1
                short = self._runs_short(runs_left, wilds)
                nat[i] += 1
                if not short:
                    return False
            return True
        # a run holds one card of a rank (two aces): a rank with more cards than
        # the runs left can hold needs a set (under set_same_suit: per suit)
        need_sets = 0
        for r in range(1, 14):
            limit = 2 * runs_left if r == 1 and not self.wrap else runs_left
            counts = (nat[r - 1], nat[12 + r], nat[25 + r], nat[38 + r])
            if rules.set_same_suit:
                n = sum(1 for c in counts if c > limit)
                need_sets += n if n or sum(counts) <= limit else 1
            elif sum(counts) > limit:
                need_sets += 1
        return need_sets - skip > sets_left

    def _pick(self, runs_left: int) -> int:
        """The natural card with the fewest ways to be placed (the lowest on a
        tie): windows of runs that could hold it, and the cards of its rank when
        it could be in a set (``self.settable`` as :meth:`_dead` left it)."""
        rules = self.rules
        nat = self.nat
        same_suit_runs = rules.run_same_suit
        settable = self.settable
        options: list[tuple[int, ...]] = [_NO_OPTIONS] * 4
        covers = [0, 0, 0, 0]
        if runs_left:
            wilds = self.jokers + self.deuces
            for lane in (range(4) if same_suit_runs else (-1,)):
                covers[max(lane, 0)], options[max(lane, 0)] = self._run_cover(
                    lane_mask(nat, lane, self.deuces, self.wrap), wilds)
        pick = -1
        fewest = _UNLIMITED
        for i in compress(INDICES, nat):
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

    def _runs_short(self, runs_left: int, wilds: int) -> bool:
        """With only runs left: are more runs needed than ``runs_left`` (a run holds each
        rank once, the ace at most twice), or more wilds than there are (when each
        lane has just the runs its most repeated rank needs, every run there holds
        every rank that has that many cards, and so all ranks between)?"""
        nat = self.nat
        wrap = self.wrap
        if not self.rules.run_same_suit:
            ranks = [nat[r] + nat[13 + r] + nat[26 + r] + nat[39 + r] for r in range(13)]
            return max(max(ranks[1:]), ranks[0] if wrap else (ranks[0] + 1) // 2) > runs_left
        needed = 0
        mosts = []
        for base in (0, 13, 26, 39):
            lane = nat[base:base + 13]
            most = max(max(lane[1:]), lane[0] if wrap else (lane[0] + 1) // 2)
            needed += most
            if needed > runs_left:
                return True
            mosts.append(most)
        if needed < runs_left or wrap:
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
        no_adjacent_wilds = rules.no_adjacent_wilds_in_run
        cover = 0
        ways = [0] * 28
        for start in live_starts(mask, wilds, self.wrap):
            for length in range(4, self.max_run + 1):
                if not self.wrap and start + length - 1 > 14:
                    break
                bits = ((1 << length) - 1) << start
                present = (mask & bits).bit_count()
                holes = length - present
                if holes > wilds:
                    break
                if present < need or (self.naturals_at_least_wilds and holes > present):
                    continue
                if no_adjacent_wilds:
                    gaps = ~mask & bits
                    if gaps & (gaps >> 1):
                        continue
                if run_window_ok(rules, start, length):
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

    def _cover_runs(self, lane: int, rank: int, force: int, sets_left: int, runs_left: int,
                    skip: int, cap: int, sink: bool) -> Iterator[list[Meld]]:
        """Runs in ``lane`` holding card ``force`` (an index, or -3 a deuce) as ``rank``."""
        rules = self.rules
        nat = self.nat
        wrap = self.wrap
        mask = lane_mask(nat, lane, self.deuces, wrap)
        wilds = self.jokers + self.deuces
        adjacent_rule = rules.forbid_adjacent_same_suit_runs
        suit = lane if rules.run_same_suit else -1
        need = max(1, rules.min_naturals_run)
        naturals_at_least_wilds = self.naturals_at_least_wilds
        no_adjacent_wilds = rules.no_adjacent_wilds_in_run
        # the last meld, nothing to discard: every natural card left must be in it
        must = 0x3FFE if sets_left == 0 and runs_left == 1 and skip == 0 else 0
        # a run of any suit under set_same_suit: a card's suit matters only where
        # a set of that suit could still be made of it (counts and wilds only fall)
        split = -1
        if suit < 0 and rules.set_same_suit:
            split = 0
            if sets_left:
                for idx in compress(INDICES, nat):
                    c = nat[idx] + (self.deuces if idx == DEUCE_OF_SPADES else 0)
                    if c >= self.kmin and c + wilds >= 3:
                        split |= 1 << idx
        windows: list[tuple[int, int, int]] = []  # (length, place of the card, start)
        for start in live_starts(mask, wilds, wrap):
            window = mask >> start
            for length in range(4, self.max_run + 1):
                if not wrap and start + length - 1 > 14:
                    break
                bits = window & ((1 << length) - 1)
                present = bits.bit_count()
                if length - present > wilds:
                    break  # longer windows of this start miss even more
                if present < need or (naturals_at_least_wilds and 2 * present < length):
                    continue
                if no_adjacent_wilds:
                    gaps = ~bits & ((1 << length) - 1)
                    if gaps & (gaps >> 1):
                        continue
                if not run_window_ok(rules, start, length):
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
        if sets_left == 0:
            target = (sum(nat) + self.jokers + self.deuces - skip) // runs_left
        windows.sort(key=lambda w: (abs(w[0] - target), w[1], w[2]))
        for length, p, start in windows:
            for used in run_fills(nat, self.jokers, self.deuces, rules, lane, start,
                                  length, p, force, must, split):
                meld = Meld("run", used_cards(used), start, suit)
                if adjacent_rule and any(runs_adjacent(meld, m, wrap)
                                         for m in self.chosen if m.kind == "run"):
                    continue
                j = used.count(-1)
                d = used.count(-2) + used.count(-3)
                self.jokers -= j
                self.deuces -= d
                self.chosen.append(meld)
                yield from self._rec(sets_left, runs_left - 1, skip, cap, sink)
                self.chosen.pop()
                self.jokers += j
                self.deuces += d

    def _cover_sets(self, i: int, sets_left: int, runs_left: int, skip: int, cap: int,
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
        if runs_left == 0 and key_suit < 0:
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
                if self.naturals_at_least_wilds and w > k:
                    continue
                wj = min(w, self.jokers)
                wd = w - wj
                if (twos and wd) or wd + dn > self.deuces:
                    continue
                cards = [CARD_OF[i]]
                for s, n in zip(suits, counts, strict=True):
                    idx = s * 13 + rank - 1
                    nat[idx] -= n
                    cards.extend([CARD_OF[idx]] * n)
                cards.sort(key=set_order)
                cards.extend([DEUCE] * dn + [JOKER] * wj + [DEUCE] * wd)
                self.jokers -= wj
                self.deuces -= wd + dn
                self.chosen.append(Meld("set", tuple(cards), rank, key_suit))
                more = k - w if self.naturals_at_least_wilds else _UNLIMITED
                yield from self._rec(sets_left - 1, runs_left, skip, min(_UNLIMITED, cap + more),
                                     sink or twos)
                self.chosen.pop()
                self.jokers += wj
                self.deuces += wd + dn
                for s, n in zip(suits, counts, strict=True):
                    nat[s * 13 + rank - 1] += n
        nat[i] += 1

    def _cover_deuce(self, sets_left: int, runs_left: int, skip: int, cap: int,
                     sink: bool) -> Iterator[list[Meld]]:
        """No natural card is left but melds are: a deuce of spades must stand for itself."""
        rules = self.rules
        if sets_left and not (rules.forbid_same_rank_sets
                       and any(m.kind == "set" and m.rank == 2 for m in self.chosen)):
            key_suit = 0 if rules.set_same_suit else -1
            for dn in range(self.deuces, 0, -1):
                w = max(0, 3 - dn)
                if dn < self.kmin or w > self.jokers or (self.naturals_at_least_wilds and w > dn):
                    continue
                self.deuces -= dn
                self.jokers -= w
                self.chosen.append(Meld("set", (DEUCE,) * dn + (JOKER,) * w, 2, key_suit))
                more = dn - w if self.naturals_at_least_wilds else _UNLIMITED
                yield from self._rec(sets_left - 1, runs_left, skip,
                                     min(_UNLIMITED, cap + more), True)
                self.chosen.pop()
                self.deuces += dn
                self.jokers += w
        if runs_left:
            lane = 0 if rules.run_same_suit else -1
            yield from self._cover_runs(lane, 2, -3, sets_left, runs_left, skip, cap, sink)

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
                    sets[si] = Meld("set", m.cards + (DEUCE,) * deuces, 2, m.suit)
                    deuces = 0
                    break
        for si, m in enumerate(sets):
            if not jokers and not deuces:
                break
            if self.naturals_at_least_wilds:
                naturals = sum(1 for c in m.cards if natural_at(c, m.rank, m.suit))
                room = 2 * naturals - len(m.cards)
            else:
                room = jokers + deuces
            add_j = min(room, jokers)
            add_d = min(room - add_j, deuces)
            if add_j or add_d:
                sets[si] = Meld("set", m.cards + (JOKER,) * add_j + (DEUCE,) * add_d,
                                m.rank, m.suit)
                jokers -= add_j
                deuces -= add_d
        if jokers or deuces:
            return None
        return runs + sets


class _OutOfNodes(Exception):
    """The search reached :attr:`WholeHandCover.max_nodes`."""


def _spread(n: int, avail: list[int]) -> tuple[int, ...]:
    """``n`` cards taken from the piles ``avail``, the biggest piles first."""
    out = [0] * len(avail)
    for s in sorted(range(len(avail)), key=lambda s: -avail[s]):
        take = min(n, avail[s])
        out[s] = take
        n -= take
    return tuple(out)
