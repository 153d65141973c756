"""The partial search: a normal round's lay-down, the contract's melds taken
from part of the hand.

:class:`PartialSearch` places the runs first (window by window, each filled one
position at a time), then the sets by counting (a greedy choice is exact for
minimal sets). The melds have their minimum sizes (3 and 4, longer only where
the wild limits need it). The whole-hand rounds are
:class:`~liverpool.solver.cover.WholeHandCover`'s.

>>> from liverpool import load_rules, parse_cards
>>> rules = load_rules("liverpool")
>>> hand = parse_cards("9H 9S 9C KD KS * 2H 3D JC 7S")
>>> [str(m) for m in next(PartialSearch(hand, rules, rules.contract(1)).solve(True))]
['9S 9H 9C', 'KS KD *']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress

from ..cards import JOKER, Card
from ..melds import Meld, meld_problem, runs_adjacent
from ..rules import Contract, Rules
from .bounds import NO_WAY, lane_holes, min_plus, set_costs
from .windows import (
    CARD_OF,
    DEUCE_OF_SPADES,
    INDICES,
    counts_mask,
    has_run_window,
    lane_bits,
    live_starts,
    run_fills,
    run_rules_id,
    run_window_ok,
    used_cards,
)

__all__ = ["PartialSearch"]


class PartialSearch:
    """Exact search for a normal round's lay-down: runs first (by window, filled
    one position at a time), then sets by counting (a greedy choice is exact for
    minimal sets). Failed sub-states are remembered within one call; a node
    whose runs and sets to come need more wilds than are left (lower bounds, see
    :meth:`_wilds_short`) fails at once."""

    def __init__(self, hand: Sequence[Card], rules: Rules, contract: Contract) -> None:
        self.hand = list(hand)
        self.rules = rules
        self.contract = contract
        self.wrap = rules.run_wrap != "never"

    # The entry point -------------------------------------------------------
    def solve(self, first_only: bool, screened: bool = False) -> Iterator[list[Meld]]:
        """The lay-downs (the first one only, or all). ``screened``: the hand
        passed :func:`hopeless`; its bounds are left out where they seldom add
        to it (:meth:`_quick_possible`, the first :meth:`_too_few_runs`): a bound
        only saves time."""
        rules = self.rules
        contract = self.contract
        if len(self.hand) < contract.min_cards:
            return
        self._load(self.hand)
        self.exact = rules.contract_exact
        #: the rules of this round's runs, for :func:`has_run_window`
        self.runs_id = run_rules_id(rules, self.exact)
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
            elif wild_deuce and c.index == DEUCE_OF_SPADES:
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
            return any(live_starts(m, min(wilds, 3), self.wrap) for m in masks)
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
                costs += set_costs(c, 1 if one else c // kmin, size)
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
        """Per run lane, :func:`lane_mask` (from :meth:`_lane_counts`)."""
        if not self.rules.run_same_suit:
            return [counts_mask(counts[0], -1, self.deuces, self.wrap)]
        return [counts_mask(cs, lane, self.deuces, self.wrap) for lane, cs in enumerate(counts)]

    def _loaded_masks(self) -> list[int]:
        """:meth:`_lane_masks` of the hand as loaded (from the ranks per suit)."""
        suits = self.suits
        if self.rules.run_same_suit:
            return [lane_bits(suits[lane], lane, self.deuces, self.wrap) for lane in range(4)]
        return [lane_bits(suits[0] | suits[1] | suits[2] | suits[3], -1, self.deuces, self.wrap)]

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
        if (((chosen or not self.screened) and self._too_few_runs(k, masks, counts))
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
        naturals_at_least_wilds = rules.naturals_at_least_wilds
        no_adjacent_wilds = rules.no_adjacent_wilds_in_run
        for li, lane in enumerate(lanes):
            if lane < min_key[0]:
                continue
            mask = masks[li]
            for start in live_starts(mask, wilds, wrap):
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
                    if present < need or (naturals_at_least_wilds and 2 * present < length):
                        continue
                    if no_adjacent_wilds:
                        gaps = ~bits & ((1 << length) - 1)
                        if gaps & (gaps >> 1):
                            continue
                    if not run_window_ok(rules, start, length):
                        continue
                    for used in run_fills(nat, self.jokers, self.deuces, rules, lane, start,
                                          length, must=must[li]):
                        # the fill keeps every wild limit (no need for meld_problem)
                        j = used.count(-1)
                        d = used.count(-2) + used.count(-3)
                        if not adjacent_rule and self.failed and (
                                tuple(nat), self.jokers - j, self.deuces - d, k - 1,
                                next_key if k > 1 else None, None) in self.failed:
                            continue  # the same cards are left as after a failed fill
                        meld = Meld("run", used_cards(used), start,
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
        window of it could be filled with the wilds left (:func:`has_run_window`).
        ``masks`` and ``counts``: per lane, :meth:`_lane_masks` and :meth:`_lane_counts`."""
        rules = self.rules
        need = max(1, rules.min_naturals_run, 2 if rules.naturals_at_least_wilds else 1)
        wilds = self.jokers + self.deuces
        runs_id = self.runs_id
        room = 0
        if rules.run_same_suit:
            for lane in range(4):
                n = sum(counts[lane])
                if lane == 0:
                    n += self.deuces  # a deuce of spades in its own place
                if n >= need and has_run_window(masks[lane], wilds, runs_id):
                    room += n // need
                    if room >= k:
                        return False
        else:
            n = sum(counts[0]) + self.deuces
            if n >= need and has_run_window(masks[0], wilds, runs_id):
                room += n // need
        return room < k

    def _wilds_short(self, k: int, counts: list[tuple[int, ...]]) -> bool:
        """Do ``k`` more runs and then the contract's sets need more wilds than
        are left? Lower bounds for each (see :func:`lane_holes` and
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
            return lane_holes(counts[0], k, wrap, two)[k] + need > wilds
        # the fewest holes of k runs shared among the lanes (min-plus convolution;
        # an empty lane, (0, no way, ...), changes nothing and is left out). More
        # lanes never need more holes: once the wilds suffice, they do.
        best: tuple[int, ...] | None = None
        for lane, cs in enumerate(counts):
            if any(cs) or (two and lane == 0):
                h = lane_holes(cs, k, wrap, two and lane == 0)
                best = h if best is None else min_plus(best, h, k)
                if best[k] + need <= wilds:
                    return False
        if best is None:  # no natural card: no run (as lane_holes says of an empty lane)
            best = lane_holes((0,) * 13, k, wrap, False)
        return best[k] + need > wilds

    def _set_wilds(self, s: int) -> int:
        """A lower bound on the wilds ``s`` minimal sets need from the natural
        cards left (``NO_WAY`` if they cannot be made): the ``s`` cheapest sets
        when each group of a rank (and suit) may make several, a deuce of spades
        counted as a wild even where it stands for a two."""
        if not s:
            return 0
        rules = self.rules
        nat = self.nat
        kmin = self.kmin
        size = self.set_size
        if kmin > size:
            return NO_WAY
        groups = nat if rules.set_same_suit else self.ranks
        costs: list[int] = []
        deuces = self.deuces
        for g, c in enumerate(groups):
            top = c + deuces if g == 1 else c  # 1: the twos (of spades)
            if top >= kmin:
                costs += set_costs(c, top // kmin, size)
        if len(costs) < s:
            return NO_WAY
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
            for i in compress(INDICES, nat):
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
            costs += [(cost, gi) for cost in set_costs(c, c // kmin, size)]
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
        deuce = Card.from_index(DEUCE_OF_SPADES)
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
                            cards.append(CARD_OF[idx])
                            continue
                    else:
                        picked = False
                        for s4 in range(4):
                            idx = s4 * 13 + rank - 1
                            if nat[idx]:
                                nat[idx] -= 1
                                cards.append(CARD_OF[idx])
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
