"""The ``basic`` bot: a fast heuristic player that plays the round's contract.

It measures a hand by how many cards it still *needs* to make the contract
(a greedy cover of the hand by the contract's sets and runs, with wild cards
filling gaps within the ruleset's wild limits). With that one measure it

- takes the discard when it lowers the need (once down: when it fits the table),
- buys when the gain is clear, less so late in a round or with a big hand, and
  whenever the hand is too small for the contract (the london seventh round),
- lays down as soon as it can, lays off everything, swaps jokers,
- discards cards outside its planned melds first, the deadest and highest ones
  first, avoiding cards the next player has been collecting and cards that fit
  the table (the "Liverpool!"/"Shanghai!" calls),
- calls whenever it may, and cuts for the cut bonus.

>>> from liverpool import Game, load_rules
>>> rules = load_rules("liverpool")
>>> game = Game(rules, players=3, seed=4)
>>> bots = [BasicBot(rules, seed=i) for i in range(3)]
>>> while not game.is_over:
...     seat = game.to_move
...     _ = game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
>>> len(game.results().round_scores)
7
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence

from ..actions import (
    Action,
    Buy,
    Call,
    Cut,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    SwapJoker,
)
from ..cards import Card
from ..events import Bought, RoundStarted, StockChosen, TookDiscard
from ..melds import Meld, lay_down_mode, lay_off, swap_joker
from ..rules import Rules
from ..views import SeatView

__all__ = ["BasicBot", "HandPlanner"]


class HandPlanner:
    """How far a hand is from a contract: the fast measure behind :class:`BasicBot`.

    >>> from liverpool import load_rules, parse_cards
    >>> p = HandPlanner(load_rules("london"))
    >>> p.need(parse_cards("9H 9S 9D 5C 5D KS"), 2, 0)
    1
    >>> p.need(parse_cards("9H 9S 9D 5C 5D 5S"), 2, 0)
    0
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        wins: list[tuple[int, ...]] = [tuple(range(s, s + 4)) for s in range(1, 11)]
        wins.append((11, 12, 13, 1))
        if rules.run_wrap == "always":
            wins += [(12, 13, 1, 2), (13, 1, 2, 3)]
        self.windows = [(sum(1 << r for r in w), w) for w in wins]
        self.best_window = _best_windows(tuple(wins))
        self.best_window_mask = _best_window_masks(tuple(wins))
        nat_set = rules.min_naturals_set
        nat_run = rules.min_naturals_run
        if rules.naturals_at_least_wilds:
            nat_set = max(nat_set, 2)
            nat_run = max(nat_run, 2)
        self.cap_set = max(0, 3 - nat_set)
        self.cap_run = max(0, 4 - nat_run)
        if rules.no_adjacent_wilds_in_run:
            self.cap_run = min(self.cap_run, 2)
        #: per cards held in a run window, the missing cards wild cards may fill
        self.run_fill = tuple(min(4 - h, self.cap_run) for h in range(5))
        self.same_suit_runs = rules.run_same_suit
        self.same_suit_sets = rules.set_same_suit
        self.wild_deuce = rules.wild_deuce_of_spades
        self._run_keys_cache: dict[int, tuple[int, ...]] = {}
        self._runs_memo: dict[tuple[int, ...],
                              tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}
        self._junk_memo: dict[tuple[int, ...], int] = {}
        self._count_memo: tuple[object, tuple[list[int], list[int], int]] = (None, ([], [], 0))
        self._layers_memo: tuple[object, list[list[int]]] = (None, [])
        # per card index: (wild?, set count key, run mask slot, rank bit)
        self._card_info = tuple(
            (c.rank == 0 or (self.wild_deuce and c.index == 1),
             c.index if self.same_suit_sets else c.rank,
             c.suit if self.same_suit_runs else 0, 1 << c.rank)
            for c in (Card.from_index(i) for i in range(53)))

    def _run_keys(self, suit: int, got: int) -> tuple[int, ...]:
        """The card keys a run plan in ``suit`` uses for the ranks of ``got``
        (with runs of mixed suits: every suit's card of those ranks)."""
        suits = (suit,) if self.same_suit_runs else (0, 1, 2, 3)
        return tuple(s * 13 + r - 1 for r in range(1, 14) if got >> r & 1 for s in suits)

    def is_wild(self, c: Card) -> bool:
        return c.rank == 0 or (self.wild_deuce and c.index == 1)

    def plan(self, hand: Sequence[Card], sets: int, runs: int
             ) -> tuple[int, set[int], list[tuple[str, int, int]]]:
        """(need, keys of the natural cards the plan uses, the planned melds).

        A card key is ``suit * 13 + rank - 1`` (the card's index); the planned
        melds are ``("set", rank, suit)`` or ``("run", window_mask, suit)``.
        """
        wild = 0
        cnt: dict[int, int] = {}
        masks = [0, 0, 0, 0]
        info = self._card_info
        for c in hand:
            is_wild, k, slot, bit = info[c.index]
            if is_wild:
                wild += 1
                continue
            cnt[k] = cnt.get(k, 0) + 1
            masks[slot] |= bit
        if sets and runs:
            a = self._greedy(dict(cnt), list(masks), wild, sets, runs, True)
            b = self._greedy(cnt, masks, wild, sets, runs, False)
            return a if a[0] <= b[0] else b
        return self._greedy(cnt, masks, wild, sets, runs, True)

    def need(self, hand: Sequence[Card], sets: int, runs: int, spare: int = -1) -> int:
        """Cards still missing for the contract (0: it could go down).

        ``spare`` >= 0 is for the all-at-once final round: every card must go
        into the melds but ``spare`` of them, so each further card that neither
        fills nor extends a planned meld counts as missing too.
        """
        if spare >= 0:
            return self.assess(hand, sets, runs, spare)[0]
        cnt, masks, wild = self._count(hand)
        return self._need_counted(cnt, masks, wild, sets, runs)

    def need_with(self, hand: Sequence[Card], card: Card | None, sets: int, runs: int) -> int:
        """:meth:`need` of ``hand`` with ``card`` added (None: nothing), in a normal
        round (``spare`` -1). The counts of ``hand`` are remembered for the last hand
        tuple: a player's hand is one tuple while it does not change, and is measured
        with several offered cards."""
        cnt, masks, wild = self.counted(hand)
        cnt = cnt.copy()
        masks = masks.copy()
        if card is not None:
            is_wild, k, slot, bit = self._card_info[card.index]
            if is_wild:
                wild += 1
            else:
                cnt[k] += 1
                masks[slot] |= bit
        return self._need_counted(cnt, masks, wild, sets, runs)

    def counted(self, hand: Sequence[Card]) -> tuple[list[int], list[int], int]:
        """:meth:`_count` of ``hand``, remembered for the last hand tuple (do not change
        the lists): a player's hand is one tuple while it does not change."""
        memo = self._count_memo
        if memo[0] is hand:
            return memo[1]
        got = self._count(hand)
        if type(hand) is tuple:  # (a list could change under the memo)
            self._count_memo = (hand, got)
        return got

    def _count(self, hand: Sequence[Card]) -> tuple[list[int], list[int], int]:
        """(the counts per set key as a list (a key never held counts 0), the run masks
        per suit slot, the number of wild cards) of ``hand``."""
        wild = 0
        cnt = [0] * (52 if self.same_suit_sets else 14)
        masks = [0, 0, 0, 0]
        info = self._card_info
        for c in hand:
            is_wild, k, slot, bit = info[c.index]
            if is_wild:
                wild += 1
                continue
            cnt[k] += 1
            masks[slot] |= bit
        return cnt, masks, wild

    def _need_counted(self, cnt: list[int], masks: list[int], wild: int, sets: int,
                      runs: int) -> int:
        """:meth:`need` of a counted hand (see :meth:`_count`); changes ``cnt`` and ``masks``."""
        if sets and runs:
            a = self._greedy_need(list(cnt), list(masks), wild, sets, runs, True)
            b = self._greedy_need(cnt, masks, wild, sets, runs, False)
            return a if a <= b else b
        return self._greedy_need(cnt, masks, wild, sets, runs, True)

    def used_mask(self, hand: Sequence[Card], sets: int, runs: int) -> int:
        """The keys of the natural cards :meth:`plan`'s plan uses (its second value) as
        a bit mask (bit ``k`` for key ``k``), without building the plan."""
        cnt, masks, wild = self.counted(hand)
        # the keys _greedy ranks, descending (a loop: no comprehension's frame)
        present: list[int] = []
        if sets:
            for k in range(len(cnt) - 1, -1, -1):
                if cnt[k]:
                    present.append(k)
        if sets and runs:
            na, ua = self._greedy_used(cnt.copy(), masks.copy(), wild, sets, runs, True, present)
            # (sets first: cnt is not changed)
            nb, ub = self._greedy_used(cnt, masks.copy(), wild, sets, runs, False, present)
            return ua if na <= nb else ub
        return self._greedy_used(cnt.copy(), masks.copy(), wild, sets, runs, True, present)[1]

    def _greedy_used(self, cnt: list[int], masks: list[int], wild: int, sets: int, runs: int,
                     runs_first: bool, present: list[int]) -> tuple[int, int]:
        """(need, used key mask) of :meth:`_greedy`: the cover of :meth:`_greedy_need`
        with the keys of the cards it uses (``present``: the keys held, descending);
        changes ``masks``, and ``cnt`` when ``runs_first``."""
        total = 0
        fillable = 0
        used = 0
        if runs_first and runs:
            total, fillable, _spread, usedm = self._runs_greedy(masks, runs)
            used = self._run_keys_mask(usedm)
            if sets:  # the sets still to be chosen lose the cards the runs take
                self._take_run_cards(cnt, usedm)
        if sets:
            # by count, then key, both descending (the sort keeps the order of equal counts)
            ranked = sorted(present, key=cnt.__getitem__, reverse=True)
            cap = self.cap_set
            nsuits = 4 if self.same_suit_runs else 1
            for i in range(sets):
                c = 0
                if i < len(ranked):
                    k = ranked[i]
                    c = cnt[k]
                    if self.same_suit_sets:
                        used |= 1 << k
                    else:
                        used |= _EACH_SUIT << (k - 1)
                        clear = ~(1 << k)  # the run masks lose this rank's cards
                        for s in range(nsuits):
                            masks[s] &= clear
                missing = 3 - c if c < 3 else 0
                total += missing
                fillable += missing if missing < cap else cap
        if not runs_first and runs:
            t, f, _spread, usedm = self._runs_greedy(masks, runs)
            total += t
            fillable += f
            used |= self._run_keys_mask(usedm)
        return total - (wild if wild < fillable else fillable), used

    def _run_keys_mask(self, usedm: tuple[int, ...]) -> int:
        """The card keys (bit per key) :meth:`_greedy` lets runs use, from the ranks the
        runs use per suit slot (:meth:`_runs_greedy`): with runs of any suit, each
        suit's card of those ranks."""
        used = 0
        for s in range(len(usedm)):
            u = usedm[s]
            if u:
                used |= (u >> 1) << (13 * s) if self.same_suit_runs else (u >> 1) * _EACH_SUIT
        return used

    def _take_run_cards(self, cnt: list[int], usedm: tuple[int, ...]) -> None:
        """Take the natural cards the runs use (ranks per suit slot, :meth:`_runs_greedy`)
        from the counts per set key, as :meth:`_greedy` does for the sets chosen after."""
        ranks_of = _RANKS
        if self.same_suit_sets and self.same_suit_runs:
            for s in range(4):
                u = usedm[s]
                if u:
                    base = s * 13 - 1
                    for r in ranks_of[u]:
                        if cnt[base + r] > 0:
                            cnt[base + r] -= 1
        else:
            for u in usedm:
                if u:
                    for r in ranks_of[u]:
                        if cnt[r] > 0:
                            cnt[r] -= 1

    def _greedy_need(self, cnt: list[int], masks: list[int], wild: int, sets: int,
                     runs: int, runs_first: bool) -> int:
        """The need of :meth:`_greedy` alone (no plan); changes ``cnt`` and ``masks``
        (``cnt``: the counts per set key, as a list)."""
        total = 0
        fillable = 0
        if runs_first and runs:
            # (the runs part of _greedy is _runs_greedy: masks list 4 suits, or one)
            total, fillable, _spread, usedm = self._runs_greedy(masks, runs)
            if sets:  # the sets still to be chosen lose the cards the runs take
                self._take_run_cards(cnt, usedm)
        if sets:
            cap = self.cap_set
            if runs_first or self.same_suit_sets:
                counts = sorted(cnt, reverse=True)  # (the zeros of absent keys come last)
                for i in range(sets):
                    c = counts[i] if i < len(counts) else 0
                    missing = 3 - c if c < 3 else 0
                    total += missing
                    fillable += missing if missing < cap else cap
            else:
                # the keys by count, then key, both descending (the sort keeps the
                # order of equal counts)
                ranked = sorted(_KEYS_DOWN, key=cnt.__getitem__, reverse=True)
                nsuits = 4 if self.same_suit_runs else 1
                for i in range(sets):
                    k = ranked[i]
                    c = cnt[k]
                    if c:
                        # the run masks lose this rank's cards
                        clear = ~(1 << k)
                        for s in range(nsuits):
                            masks[s] &= clear
                    missing = 3 - c if c < 3 else 0
                    total += missing
                    fillable += missing if missing < cap else cap
        if not runs_first and runs:
            t, f, _spread, _usedm = self._runs_greedy(masks, runs)
            total += t
            fillable += f
        return total - (wild if wild < fillable else fillable)

    def assess(self, hand: Sequence[Card], sets: int, runs: int, spare: int = -1
               ) -> tuple[int, set[int]]:
        """(need as in :meth:`need`, keys of the natural cards the plan uses)."""
        need, used, melds = self.plan(hand, sets, runs)
        if spare < 0:
            return need, used
        return need + max(0, self._junk(hand, used, melds) - spare), used

    def runs_needs(self, hand: Sequence[Card], removes: Sequence[Card | None], runs: int,
                   spare: int = -1) -> list[int]:
        """For a runs-only contract (no sets, ``runs`` > 0): the :meth:`need` of
        ``hand`` without each card of ``removes`` (a natural card of ``hand``, or
        None for the whole hand), the same numbers as :meth:`need` gives, faster.

        >>> from liverpool import load_rules, parse_cards
        >>> p = HandPlanner(load_rules("liverpool"))
        >>> hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 4C 4C KD")
        >>> p.runs_needs(hand, [None, hand[-1], hand[-2]], 3, 0)
        [2, 1, 2]
        >>> p.need(hand[:-1], 0, 3, 0), p.need(hand[:-2] + hand[-1:], 0, 3, 0)
        (1, 2)
        """
        # layers[s][k]: the ranks (bit per rank) of which suit s holds more than k cards
        layers: list[list[int]] = [[0, 0], [0, 0], [0, 0], [0, 0]]
        wild = 0
        info = self._card_info
        for c in hand:
            is_wild, _key, _slot, bit = info[c.index]
            if is_wild:
                wild += 1
                continue
            lay = layers[c.suit]
            if not lay[0] & bit:
                lay[0] |= bit
            elif not lay[1] & bit:
                lay[1] |= bit
            else:
                for k in range(2, len(lay)):
                    if not lay[k] & bit:
                        lay[k] |= bit
                        break
                else:
                    lay.append(bit)
        same_runs = self.same_suit_runs
        if type(hand) is tuple:  # (for natural_ranks; a list could change under the memo)
            self._layers_memo = (hand, layers)
        full = self._runs_plan(layers, runs)
        usedm = full[3]
        out: list[int] = []
        if same_runs and spare >= 0:
            return self._runs_needs_final(layers, wild, removes, runs, spare, full)
        for x in removes:
            if x is None:
                out.append(self._runs_need(layers, wild, runs, spare, full))
                continue
            r = x.rank
            bit = 1 << r
            suit = x.suit
            lay = layers[suit]
            k = len(lay) - 1
            while not lay[k] & bit:
                k -= 1
            lay[k] &= ~bit
            # the greedy cover stays the same when the card's rank stays in the
            # run masks or the cover does not use it
            if same_runs:
                same = k > 0 or not usedm[suit] & bit
            else:
                same = not usedm[0] & bit or bool(
                    (layers[0][0] | layers[1][0] | layers[2][0] | layers[3][0]) & bit)
            out.append(self._runs_need(layers, wild, runs, spare, full if same else None))
            lay[k] |= bit
        return out

    def natural_ranks(self, hand: Sequence[Card]) -> list[int]:
        """Per suit, the ranks (bit per rank) of the natural cards of ``hand``; taken
        from :meth:`runs_needs` when it measured this hand tuple last."""
        memo = self._layers_memo
        if memo[0] is hand:
            layers = memo[1]
            return [layers[0][0], layers[1][0], layers[2][0], layers[3][0]]
        out = [0, 0, 0, 0]
        info = self._card_info
        for c in hand:
            if not info[c.index][0]:
                out[c.suit] |= 1 << c.rank
        return out

    def _runs_needs_final(self, layers: list[list[int]], wild: int,
                          removes: Sequence[Card | None], runs: int, spare: int,
                          full: tuple[int, int, tuple[int, ...], tuple[int, ...]]) -> list[int]:
        """:meth:`runs_needs` for runs of one suit in an all-at-once round (``spare`` >= 0):
        the cards no run takes are counted per suit (:meth:`_suit_junk`), so taking a
        card away changes the count of its suit only while the cover stays the same."""
        total, fillable, spread, usedm = full
        base = total - (wild if wild < fillable else fillable)
        suit_junk = self._suit_junk
        parts = [suit_junk(layers[0], usedm[0], spread[0]),  # (no comprehension's frame)
                 suit_junk(layers[1], usedm[1], spread[1]),
                 suit_junk(layers[2], usedm[2], spread[2]),
                 suit_junk(layers[3], usedm[3], spread[3])]
        junk_all = parts[0] + parts[1] + parts[2] + parts[3]
        out: list[int] = []
        for x in removes:
            if x is None:
                out.append(base + (junk_all - spare if junk_all > spare else 0))
                continue
            bit = 1 << x.rank
            suit = x.suit
            lay = layers[suit]
            k = len(lay) - 1
            while not lay[k] & bit:
                k -= 1
            lay[k] &= ~bit
            held = usedm[suit]
            if k > 0 or not held & bit:  # the same cover (see runs_needs)
                junk = junk_all - parts[suit] + suit_junk(lay, held, spread[suit])
                out.append(base + (junk - spare if junk > spare else 0))
            else:
                # a new cover (rarely one seen before: not remembered)
                t, f, sp, um = self._runs_greedy(
                    [layers[0][0], layers[1][0], layers[2][0], layers[3][0]], runs)
                junk = junk_all - parts[suit] + suit_junk(lay, um[suit], sp[suit])
                if sp != spread:
                    # the count of another suit changes when its planned runs change
                    # (the ranks they take follow: the suit's cards have not changed)
                    for si in range(4):
                        if si != suit and sp[si] != spread[si]:
                            junk += suit_junk(layers[si], um[si], sp[si]) - parts[si]
                need = t - (wild if wild < f else f)
                out.append(need + (junk - spare if junk > spare else 0))
            lay[k] |= bit
        return out

    def _suit_junk(self, lay: list[int], um: int, m: int) -> int:
        """The natural cards of one suit (rank layers ``lay``) that no planned run holds
        (``um``: the ranks the runs take) or could grow to hold (``m``: the ranks the
        runs span), as :meth:`_junk` counts them; remembered."""
        one = lay[0]
        if not one:
            return 0
        key = (*lay, um, m)
        memo = self._junk_memo
        got = memo.get(key)
        if got is not None:
            return got
        n = 0
        for layer in lay:
            n += layer.bit_count()
        n -= (one & um).bit_count()
        absorbed = 0
        if m and n:
            m = _grow_span(m, lay[1] | (one & ~um))
            for layer in lay:
                absorbed += (m & layer).bit_count()
            absorbed -= (m & one & um).bit_count()
        if len(memo) > 8192:
            memo.clear()
        got = memo[key] = n - absorbed
        return got

    def _runs_plan(self, layers: list[list[int]], runs: int
                   ) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        """The (memoised) runs-only greedy cover of a hand given as rank layers."""
        if self.same_suit_runs:
            key: tuple[int, ...] = (runs, layers[0][0], layers[1][0], layers[2][0],
                                    layers[3][0])
        else:
            key = (runs, layers[0][0] | layers[1][0] | layers[2][0] | layers[3][0])
        memo = self._runs_memo
        got = memo.get(key)
        if got is None:
            if len(memo) > 4096:
                memo.clear()
            got = memo[key] = self._runs_greedy(list(key[1:]), runs)
        return got

    def _runs_need(self, layers: list[list[int]], wild: int, runs: int, spare: int,
                   plan: tuple[int, int, tuple[int, ...], tuple[int, ...]] | None) -> int:
        """:meth:`need` of a hand given as rank layers per suit (see :meth:`runs_needs`),
        with its greedy cover if known."""
        if plan is None:
            plan = self._runs_plan(layers, runs)
        total, fillable, spread, usedm = plan
        need = total - (wild if wild < fillable else fillable)
        if spare < 0:
            return need
        # the natural cards no planned run holds or could grow to hold (as _junk counts them)
        if self.same_suit_runs:
            junk = 0
            for s in range(4):
                junk += self._suit_junk(layers[s], usedm[s], spread[s])
            return need + (junk - spare if junk > spare else 0)
        n_left = 0
        absorbed = 0
        um = usedm[0]
        have = 0
        for lay in layers:
            one = lay[0]
            for layer in lay:
                n_left += layer.bit_count()
            n_left -= (one & um).bit_count()
            have |= lay[1] | (one & ~um)
        m = spread[0]
        if m and n_left:
            m = _grow_span(m, have)
            for lay in layers:
                for layer in lay:
                    absorbed += (m & layer).bit_count()
                absorbed -= (m & lay[0] & um).bit_count()
        junk = n_left - absorbed
        return need + (junk - spare if junk > spare else 0)

    def _runs_greedy(self, masks: list[int], runs: int
                     ) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
        """The runs-only greedy cover of :meth:`_greedy`: (total missing, fillable,
        planned run ranks per suit key, ranks the plan uses per suit key)."""
        fillable = 0
        if len(masks) == 4:
            # the loop below with the suits unrolled, and each suit's best window
            # (h, b: cards held, window mask; 0 held for a suit without cards, below
            # any suit with cards) looked up again only when the suit loses cards;
            # the ranks used are the ranks spanned of the masks
            best_of = self.best_window_mask
            fill = self.run_fill
            m0, m1, m2, m3 = masks
            h0, b0 = best_of[m0]
            h1, b1 = best_of[m1]
            h2, b2 = best_of[m2]
            h3, b3 = best_of[m3]
            s0 = s1 = s2 = s3 = 0
            held = 0  # the cards held in the chosen windows
            for _ in range(runs):
                best = h0
                bm = b0
                bs = 0
                if h1 > best:
                    best, bm, bs = h1, b1, 1
                if h2 > best:
                    best, bm, bs = h2, b2, 2
                if h3 > best:
                    best, bm, bs = h3, b3, 3
                if bs == 0:
                    s0 |= bm
                    if m0:
                        m0 &= ~bm
                        h0, b0 = best_of[m0]
                elif bs == 1:
                    s1 |= bm
                    m1 &= ~bm
                    h1, b1 = best_of[m1]
                elif bs == 2:
                    s2 |= bm
                    m2 &= ~bm
                    h2, b2 = best_of[m2]
                else:
                    s3 |= bm
                    m3 &= ~bm
                    h3, b3 = best_of[m3]
                held += best
                fillable += fill[best]
            total = 4 * runs - held
            m0, m1, m2, m3 = masks
            return total, fillable, (s0, s1, s2, s3), (m0 & s0, m1 & s1, m2 & s2, m3 & s3)
        table = self.best_window
        windows = self.windows
        cap = self.cap_run
        nsuits = len(masks)
        total = 0
        spread = [0] * nsuits
        usedm = [0] * nsuits
        for _ in range(runs):
            best, bw, bs = _best_window(masks, table, nsuits)
            bm = windows[bw][0]
            usedm[bs] |= masks[bs] & bm
            masks[bs] &= ~bm
            spread[bs] |= bm
            missing = 4 - best
            total += missing
            fillable += missing if missing < cap else cap
        return total, fillable, tuple(spread), tuple(usedm)

    def _junk(self, hand: Sequence[Card], used: set[int], melds: list[tuple[str, int, int]]
              ) -> int:
        """Natural cards of the hand that no planned meld holds or could grow to hold."""
        set_ranks = 0  # bit per rank
        spread: dict[int, int] = {}  # suit (-1: any) -> ranks a planned run covers
        for kind, x, suit in melds:
            if kind == "set":
                set_ranks |= 1 << x
            else:
                spread[suit] = spread.get(suit, 0) | x
        taken: set[int] = set()
        # the ranks (bit per rank) and the counts per rank of the cards left, per suit key
        left: dict[int, list[int]] = {}
        deuce = self.wild_deuce
        same_runs = self.same_suit_runs
        n_left = 0
        for c in hand:
            r = c.rank
            if r == 0 or (deuce and c.index == 1):
                continue
            if set_ranks >> r & 1:
                continue
            k = c.index
            if k in used and k not in taken:
                taken.add(k)
                continue
            n_left += 1
            suit = c.suit if same_runs else -1
            if suit in spread:
                counts = left.get(suit)
                if counts is None:
                    counts = left[suit] = [0] * 15
                counts[r] += 1
        if not left:
            return n_left
        # a left card goes into a run when a chain of left cards joins it to a planned run
        for suit, counts in left.items():
            have = 0
            for r in range(1, 14):
                if counts[r]:
                    have |= 1 << r
            m = spread[suit]
            while True:
                # ranks next to the spread (an ace also sits next to the king)
                near = (m << 1) | (m >> 1)
                if m >> 13 & 1:
                    near |= 2
                if m >> 1 & 1:
                    near |= 1 << 13
                grow = near & have & ~m
                if not grow:
                    break
                m |= grow
            for r in range(1, 14):
                if counts[r] and m >> r & 1:
                    n_left -= counts[r]
        return n_left

    def _greedy(self, cnt: dict[int, int], masks: list[int], wild: int, sets: int, runs: int,
                runs_first: bool) -> tuple[int, set[int], list[tuple[str, int, int]]]:
        """One greedy cover (runs first or sets first); changes ``cnt`` and ``masks``."""
        used: set[int] = set()
        melds: list[tuple[str, int, int]] = []
        total = 0
        fillable = 0
        same_runs = self.same_suit_runs
        same_sets = self.same_suit_sets
        for step in (0, 1):
            if (step == 0) == runs_first:
                if not runs:
                    continue
                table = self.best_window
                windows = self.windows
                run_keys = self._run_keys_cache
                count_runs = runs_first and sets > 0
                cap = self.cap_run
                nsuits = 4 if same_runs else 1
                for _ in range(runs):
                    best, bw, bs = _best_window(masks, table, nsuits)
                    bm, ranks = windows[bw]
                    got = masks[bs] & bm
                    masks[bs] &= ~bm
                    missing = 4 - best
                    total += missing
                    fillable += missing if missing < cap else cap
                    melds.append(("run", bm, bs if same_runs else -1))
                    if not got:
                        continue
                    key = bs << 14 | got
                    keys = run_keys.get(key)
                    if keys is None:
                        keys = run_keys[key] = self._run_keys(bs, got)
                    used.update(keys)
                    if count_runs:  # the sets still to be chosen lose these cards
                        for r in ranks:
                            if got >> r & 1:
                                k = bs * 13 + r - 1 if same_sets and same_runs else r
                                if cnt.get(k, 0) > 0:
                                    cnt[k] -= 1
            else:
                if not sets:
                    continue
                ranked = sorted(zip(cnt.values(), cnt.keys(), strict=True), reverse=True)
                cap = self.cap_set
                n_ranked = len(ranked)
                for i in range(sets):
                    if i < n_ranked:
                        c, k = ranked[i]
                        cnt[k] = 0
                    else:
                        k, c = -1, 0
                    missing = 3 - c if c < 3 else 0
                    total += missing
                    fillable += missing if missing < cap else cap
                    if k >= 0:
                        if same_sets:
                            used.add(k)
                            melds.append(("set", k % 13 + 1, k // 13))
                        else:
                            used.update((k - 1, k + 12, k + 25, k + 38))
                            melds.append(("set", k, -1))
                            # the run masks lose this rank's cards
                            clear = ~(1 << k)
                            for s in range(4 if same_runs else 1):
                                masks[s] &= clear
        return total - (wild if wild < fillable else fillable), used, melds


_WEIGHT_NEAR = (0.0, 1.0, 0.5)


def _near(rank: int) -> tuple[tuple[int, float], ...]:
    """The ranks near ``rank`` in the order the keep value adds them, with their
    weights: one apart, then two apart (below, then above; above the king is the ace)."""
    out = []
    for d in (1, 2):
        for nr in (rank - d, rank + d):
            rr = nr if 1 <= nr <= 13 else (1 if nr == 14 else 0)
            if rr:
                out.append((rr, _WEIGHT_NEAR[d]))
    return tuple(out)


_NEAR = tuple(_near(r) for r in range(14))
_KEYS_DOWN = tuple(range(13, -1, -1))  # the set keys by rank (0..13), descending
#: per rank, the ranks (bits) of _NEAR; and the keep value of the near cards held
#: (added from 0.0), by those ranks of the suit's ranks
_NEAR_MASK = tuple(sum(1 << rr for rr, _w in near) for near in _NEAR)


def _near_keep(rank: int) -> dict[int, float]:
    out: dict[int, float] = {}
    mask = m = _NEAR_MASK[rank]
    while True:  # every m within mask
        keep = 0.0
        for rr, w in _NEAR[rank]:
            if m >> rr & 1:
                keep += w
        out[m] = keep
        if not m:
            return out
        m = (m - 1) & mask


_NEAR_KEEP = tuple(_near_keep(r) for r in range(14))
#: per rank, the ranks (bits) at most 3 apart, or 10 or more apart (round the ace)
_NEAR_RUN = tuple(sum(1 << h for h in range(1, 14) if abs(h - r) <= 3 or abs(h - r) >= 10)
                  for r in range(14))
_DRAW_STOCK = Draw("stock")
_ALL_CARDS = tuple(Card.from_index(i) for i in range(53))
_BEST_CACHE: dict[tuple[tuple[int, ...], ...], _BestWindows] = {}
_BEST_MASK_CACHE: dict[tuple[tuple[int, ...], ...], _BestWindowMasks] = {}


def _grow_span(m: int, have: int) -> int:
    """The rank mask ``m`` (bits 1..13) grown by the neighbouring ranks of ``have``,
    again and again (the ace beside both the two and the king)."""
    while True:
        near = (m << 1) | (m >> 1)
        if m >> 13 & 1:
            near |= 2
        if m >> 1 & 1:
            near |= 1 << 13
        grow = near & have & ~m
        if not grow:
            return m
        m |= grow


class _Ranks(dict[int, tuple[int, ...]]):
    """For a rank mask (bits 1..13), its ranks in ascending order; filled on demand."""

    def __missing__(self, m: int) -> tuple[int, ...]:
        got = self[m] = tuple(r for r in range(1, 14) if m >> r & 1)
        return got


_RANKS = _Ranks()
#: bit 0 of each suit's 13 card keys (key = suit * 13 + rank - 1)
_EACH_SUIT = 1 | 1 << 13 | 1 << 26 | 1 << 39


class _BestWindows(dict[int, tuple[int, int]]):
    """For a rank mask (bits 1..13), the best run window: (cards held, window number);
    filled on demand."""

    def __init__(self, wins: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.masks = [sum(1 << r for r in w) for w in wins]

    def __missing__(self, m: int) -> tuple[int, int]:
        best, bw = 0, 0
        for i, wm in enumerate(self.masks):
            have = (m & wm).bit_count()
            if have > best:
                best, bw = have, i
        self[m] = (best, bw)
        return best, bw


class _BestWindowMasks(dict[int, tuple[int, int]]):
    """For a rank mask (bits 1..13), the best run window: (cards held, window mask),
    the first window of the most cards held (for no card: the first window);
    filled on demand."""

    def __init__(self, wins: tuple[tuple[int, ...], ...]) -> None:
        super().__init__()
        self.masks = [sum(1 << r for r in w) for w in wins]

    def __missing__(self, m: int) -> tuple[int, int]:
        best, bm = 0, self.masks[0]
        for wm in self.masks:
            have = (m & wm).bit_count()
            if have > best:
                best, bm = have, wm
        self[m] = (best, bm)
        return best, bm


def _best_window_masks(wins: tuple[tuple[int, ...], ...]) -> _BestWindowMasks:
    table = _BEST_MASK_CACHE.get(wins)
    if table is None:
        table = _BEST_MASK_CACHE[wins] = _BestWindowMasks(wins)
    return table


def _best_windows(wins: tuple[tuple[int, ...], ...]) -> _BestWindows:
    table = _BEST_CACHE.get(wins)
    if table is None:
        table = _BEST_CACHE[wins] = _BestWindows(wins)
    return table


class BasicBot:
    """The heuristic player (see the module text).

    Options: ``mistakes`` (0..1, the chance of a random choice at a draw, buy
    or discard: the ``easy`` level) and ``buy_eagerness`` (scales the wish to buy).
    """

    def __init__(self, rules: Rules, seed: int = 0, *, mistakes: float = 0.0,
                 buy_eagerness: float = 1.0) -> None:
        self.name = "basic"
        self.rules = rules
        self.rng = random.Random(seed)
        self.mistakes = float(mistakes)
        self.buy_eagerness = float(buy_eagerness)
        self.planner = HandPlanner(rules)
        self._cache: dict[tuple[int, int, tuple[int, ...]], int] = {}
        self._modes: dict[int, str] = {}
        # per card index: wild?, and the discard order's points term
        self._wild = tuple(self.planner.is_wild(c) for c in _ALL_CARDS)
        # are the planner's counts (HandPlanner.counted) the natural cards per rank
        # and the ranks per suit?
        self._counts_by_rank = not rules.set_same_suit and rules.run_same_suit
        self._points = tuple(-rules.card_points(c) / 50.0 for c in _ALL_CARDS)
        self._fits_memo: tuple[tuple[Meld, ...], dict[int, bool]] = ((), {})
        self._taken_memo: tuple[int, int, object, object, list[tuple[int, Card]], int, int] | None = (
            None)
        self._hand_memo: tuple[object, tuple[tuple[int, ...], list[int]],
                               object, tuple[tuple[int, ...], list[int]]] = \
            (None, ((), []), None, ((), []))

    # -------------------------------------------------------------- choose
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("there is no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if self.mistakes and phase in ("draw", "buy") and self.rng.random() < self.mistakes:
            return legal[self.rng.randrange(len(legal))]
        # (the phases by how often they come: buy, play, draw)
        if phase == "buy":
            kind = Buy if self._wants_buy(view) else Pass
            for a in legal:
                if a.__class__ is kind:
                    return a
            return kind()
        if phase == "play":
            return self._play(view, legal)
        if phase == "draw":
            return self._draw(view, legal)
        if phase == "cut":
            return self._cut(view, legal)
        if phase == "call":
            for a in legal:
                if isinstance(a, Call):
                    return a
            return legal[0]
        return self._play(view, legal)

    # ----------------------------------------------------------- decisions
    def _cut(self, view: SeatView, legal: Sequence[Action]) -> Action:
        target = view.players * view.cards_dealt + (1 if self.rules.initial_upcard else 0)
        return min(legal, key=lambda a: abs(a.count - target) if isinstance(a, Cut) else 10**9)

    def _mode(self, round: int) -> str:
        """The lay-down mode of ``round`` (cached)."""
        mode = self._modes.get(round)
        if mode is None:
            mode = self._modes[round] = lay_down_mode(self.rules, round)
        return mode

    def _contract(self, view: SeatView) -> tuple[int, int]:
        return view.contract.sets, view.contract.runs

    def _fits_table(self, table: Sequence[Meld], card: Card) -> bool:
        """Could ``card`` be laid off on some meld of ``table``?"""
        return self._fit_index(table, card) >= 0

    def _fit_index(self, table: Sequence[Meld], card: Card) -> int:
        """The first meld of ``table`` that ``card`` could be laid off on, or -1."""
        rules = self.rules
        wild = self.planner.is_wild(card)
        rank = card.rank
        for i, m in enumerate(table):
            if not wild:
                if m.kind == "set":
                    if m.rank != rank:
                        continue
                else:
                    if m.suit >= 0 and m.suit != card.suit:
                        continue
                    lo = (m.rank - 2) % 13 + 1
                    hi = (m.rank - 1 + len(m.cards)) % 13 + 1
                    if rank != lo and rank != hi:
                        continue
            if lay_off(m, card, rules) is not None:
                return i
        return -1

    def _short(self, view: SeatView, hand_size: int) -> int:
        """How many cards the hand lacks to hold the contract at all (after a draw)."""
        c = view.contract
        required = 3 * c.sets + 4 * c.runs
        if self._mode(view.round) == "all_but_one":
            required += 1
        return max(0, required - (hand_size + 1))

    def _need(self, view: SeatView, hand: Sequence[Card]) -> int:
        """The planner's need for ``hand`` in this round (cached)."""
        return self._need_of(view, self._hand_info(hand)[0], hand)

    def _need_of(self, view: SeatView, indices: tuple[int, ...], hand: Sequence[Card],
                 extra: Card | None = None) -> int:
        """:meth:`_need` of ``hand`` with the card ``extra`` added (None: nothing), whose
        sorted card indices are ``indices``."""
        rnd = view.round
        mode = self._mode(rnd)
        spare = -1 if mode == "normal" else 1 if mode == "all_but_one" else 0
        key = (rnd, spare, indices)
        cache = self._cache
        got = cache.get(key)
        if got is None:
            if len(cache) > 20000:
                cache.clear()
            c = view.contract
            s, r = c.sets, c.runs
            if s or not r:
                if spare < 0:
                    got = self.planner.need_with(hand, extra, s, r)
                else:
                    got = self.planner.need(
                        hand if extra is None else (*hand, extra), s, r, spare)
            else:
                got = self.planner.runs_needs(
                    hand if extra is None else (*hand, extra), (None,), r, spare)[0]
            cache[key] = got
        return got

    def _hand_info(self, hand: Sequence[Card]) -> tuple[tuple[int, ...], list[int]]:
        """(the sorted card indices of ``hand``, per suit the ranks (bits) of its cards),
        remembered for the last two hand tuples (views of one seat share the hand's
        tuple while it does not change)."""
        memo = self._hand_memo
        if memo[0] is hand:
            return memo[1]
        if memo[2] is hand:
            return memo[3]
        masks = [0, 0, 0, 0]
        ids = []
        for c in hand:
            ids.append(c.index)
            if c.rank:
                masks[c.suit] |= 1 << c.rank
        ids.sort()
        info = (tuple(ids), masks)
        if type(hand) is tuple:  # (a list could change under the memo)
            self._hand_memo = (hand, info, memo[0], memo[1])
        return info

    def _needs_without(self, view: SeatView, cards: Sequence[Card]) -> dict[Card, int]:
        """The planner's need for the hand without each (natural) card of ``cards``."""
        return dict(zip(cards, self._needs_list(view, cards), strict=True))

    def _needs_list(self, view: SeatView, cards: Sequence[Card]) -> list[int]:
        """:meth:`_needs_without` as a list in the order of ``cards``."""
        s, r = self._contract(view)
        hand = view.hand
        if s or not r:
            out: list[int] = []
            for c in cards:
                rest = list(hand)
                rest.remove(c)
                out.append(self._need(view, rest))
            return out
        spare = -1
        mode = self._mode(view.round)
        if mode != "normal":
            spare = 1 if mode == "all_but_one" else 0
        return self.planner.runs_needs(hand, cards, r, spare)

    def _lonely(self, view: SeatView, card: Card) -> bool:
        """Is ``card`` a natural card with no partner in the hand in a normal round?
        Then it cannot lower the need (its gain is 0)."""
        if self._wild[card.index] or self._mode(view.round) != "normal":
            return False
        c = view.contract
        masks = self._hand_info(view.hand)[1]
        rank = card.rank
        if c.sets and (masks[0] | masks[1] | masks[2] | masks[3]) >> rank & 1:
            return False  # a card of its rank
        if c.runs:
            if self.rules.run_same_suit:
                m = masks[card.suit]
            else:
                m = masks[0] | masks[1] | masks[2] | masks[3]
            if m & _NEAR_RUN[rank]:
                return False  # a card of its suit at most 3 ranks away (or 10, round the ace)
        return True

    def _gain(self, view: SeatView, card: Card) -> int:
        if self._lonely(view, card):
            return 0  # skip the planner
        hand = view.hand
        indices = self._hand_info(hand)[0]
        more = list(indices)
        insort(more, card.index)
        bigger = tuple(more)
        c = view.contract
        if not c.sets and c.runs and not self._wild[card.index]:
            # a runs-only contract: when neither need is known, both from one pass
            # (the need of the bigger hand, and of it without the card)
            rnd = view.round
            mode = self._mode(rnd)
            spare = -1 if mode == "normal" else 1 if mode == "all_but_one" else 0
            cache = self._cache
            key = (rnd, spare, indices)
            key_more = (rnd, spare, bigger)
            if key not in cache and key_more not in cache:
                if len(cache) > 20000:
                    cache.clear()
                cache[key_more], cache[key] = self.planner.runs_needs(
                    (*hand, card), (None, card), c.runs, spare)
        return self._need_of(view, indices, hand) - self._need_of(view, bigger, hand, card)

    def _draw(self, view: SeatView, legal: Sequence[Action]) -> Action:
        take = stock = None  # the legal draws (Draw("discard") in legal, ...)
        for a in legal:
            if a.__class__ is Draw:
                if a.source == "discard":
                    take = a
                elif a.source == "stock":
                    stock = a
        top = view.top_discard
        if top is None or take is None:
            return stock if stock is not None else _DRAW_STOCK
        seat = view.seat if view.seat is not None else view.turn_player
        if view.laid_down[seat]:
            may_lay_off = self._mode(view.round) == "normal" and (
                self.rules.lay_off_same_turn or view.down_turns[seat] < view.turn_number)
            if may_lay_off and self._fits_table(view.table, top):
                return take
            return stock if stock is not None else legal[0]
        gain = self._gain(view, top)
        if gain > 0:
            return take
        if self._short(view, len(view.hand)) > 0 and gain >= 0:
            return take
        return stock if stock is not None else legal[0]

    def _wants_buy(self, view: SeatView) -> bool:
        seat = view.seat if view.seat is not None else view.to_move
        card = view.offered_card
        if seat is None or card is None or view.laid_down[seat]:
            return False
        hand_size = len(view.hand)
        mode = self._mode(view.round)
        c = view.contract
        # _short(view, hand_size) > 0, inline
        if 3 * c.sets + 4 * c.runs + (mode == "all_but_one") - (hand_size + 1) > 0:
            return self._gain(view, card) >= 0
        if mode != "normal":
            return False  # in an all-at-once round the penalty card must fit too
        for o in range(view.players):
            if o != seat and view.laid_down[o] and view.hand_sizes[o] <= 3:
                return False  # the round is about to end: extra cards are penalty points
        extra = hand_size - view.cards_dealt
        late = view.turn_number / max(1, view.players)
        eager = self.buy_eagerness
        if self._lonely(view, card):
            return False  # its gain is 0
        hand = view.hand
        indices = self._hand_info(hand)[0]
        most = self._need_of(view, indices, hand)
        if eager >= 0:
            # the gain is at most the need of the hand now (the need is never
            # negative): often that settles it without planning the bigger hand
            if most <= 0:
                return False
            bound = most * eager - 0.25 * max(0, extra) - 0.08 * late
            if view.stock_size < 6:
                bound -= 0.5
            if bound < 0.5:
                return False
        # the gain (_gain: the card is not lonely)
        more = list(indices)
        insort(more, card.index)
        gain = most - self._need_of(view, tuple(more), hand, card)
        if gain <= 0:
            return False
        score = gain * eager - 0.25 * max(0, extra) - 0.08 * late
        if view.stock_size < 6:
            score -= 0.5
        return score >= 0.5

    def _play(self, view: SeatView, legal: Sequence[Action]) -> Action:
        hand = view.hand
        discards: list[Discard] = []
        cards: list[Card] = []  # their cards
        lay_offs: list[LayOff] = []
        swaps: list[SwapJoker] = []
        for a in legal:
            # (type(a) is: the action classes have no subclasses)
            if type(a) is Discard:
                discards.append(a)
                cards.append(a.card)
            elif type(a) is LayOff:
                lay_offs.append(a)
            elif type(a) is SwapJoker:
                swaps.append(a)
            elif type(a) is LayDown:
                return a
        if swaps:
            # a card that can be laid off needs no swap: swapping it in for a wild
            # and laying the wild back on the same meld would be a pointless move
            direct = {a.card for a in lay_offs}
            swap = self._good_swap(view, [a for a in swaps if a.card not in direct])
            if swap is not None:
                return swap
        if lay_offs:
            keep_last = (self.rules.go_out_requires_discard and len(hand) == 1 and discards
                         and (self.rules.discard_call == "none"
                              or not self._fits_table(view.table, hand[0])))
            if not keep_last:
                wild = self._wild
                for a in lay_offs:  # the first natural card's, else the first
                    if not wild[a.card.index]:
                        return a
                return lay_offs[0]
        if not discards:
            return legal[0]
        if self.mistakes and self.rng.random() < self.mistakes:
            return discards[self.rng.randrange(len(discards))]
        card = self._pick_discard(view, cards)
        plain = None
        for d in discards:
            if d.card is card:  # (cards are interned: equal cards are one object)
                if d.announce:
                    return d
                plain = d
        assert plain is not None
        return plain

    def _good_swap(self, view: SeatView, swaps: list[SwapJoker]) -> SwapJoker | None:
        rules = self.rules
        for a in swaps:
            table = list(view.table)
            meld = table[a.meld]
            wild = meld.cards[a.position]
            swapped = swap_joker(meld, a.position, a.card, rules)
            if swapped is None:
                continue
            table[a.meld] = swapped
            if self._fits_table(table, wild):
                return a
        return None

    # ------------------------------------------------------------- discards
    def _danger(self, view: SeatView) -> tuple[set[int], set[tuple[int, int]], bool]:
        """Ranks and (suit, rank)s the next player has taken this round, and
        whether a card fitting the table is risky to throw."""
        n = view.players
        seat = view.seat if view.seat is not None else view.turn_player
        ranks: set[int] = set()
        cards: set[tuple[int, int]] = set()
        for c in self._taken_by_next(view, (seat + 1) % n):
            ranks.add(c.rank)
            cards.add((c.suit, c.rank))
        table_risky = any(view.laid_down[o] for o in range(n) if o != seat)
        return ranks, cards, table_risky

    def _taken_by_next(self, view: SeatView, nxt: int) -> list[Card]:
        """The natural cards seat ``nxt`` took or bought among the last 80 events
        of the round (the events since the last ``RoundStarted``; a
        ``StockChosen`` is not counted: the window reaches as many turns back as
        it did before the engine told of the choice).

        Remembered between calls: when the events are the ones seen last time
        with more at the end, only the new ones are read.
        """
        events = view.events
        n = len(events)
        memo = self._taken_memo
        if (memo is not None and memo[0] == nxt and memo[1] <= n and memo[1] > 0
                and events[memo[1] - 1] is memo[2] and events[0] is memo[3]):
            start = memo[1]
            hits = memo[4]
            after = memo[5]  # the place just after the last "round" event seen
            count = memo[6]  # the events counted so far
        else:
            start = 0
            hits = []
            after = 0
            count = 0
        for i in range(start, n):
            e = events[i]
            kind = e.__class__
            if kind is StockChosen:
                continue
            count += 1
            if kind is RoundStarted:
                hits = []
                after = count
            elif (kind is TookDiscard or kind is Bought) and e.seat == nxt:
                c = e.card  # type: ignore[union-attr]
                if c is not None and c.rank:
                    hits.append((count - 1, c))
        low = count - 80 if count > 80 else 0  # the window: the counted events from low on
        if n:
            if hits and hits[0][0] < low:
                hits = [h for h in hits if h[0] >= low]
            self._taken_memo = (nxt, n, events[n - 1], events[0], hits, after, count)
        first = low if low > after else after
        out = []  # (a loop: no comprehension's frame)
        for i, c in hits:
            if i >= first:
                out.append(c)
        return out

    def _pick_discard(self, view: SeatView, options: list[Card]) -> Card:
        return self._discard_ranking(view, options, True)[0]

    def _plan_used(self, hand: Sequence[Card], sets: int, runs: int) -> int:
        """The card keys the planner's plan for ``hand`` uses, as a bit mask (not
        remembered: a hand is planned for its discard once)."""
        return self.planner.used_mask(hand, sets, runs)

    def discard_order(self, view: SeatView, options: list[Card]) -> list[Card]:
        """The distinct cards of ``options``, the best discard first."""
        return self._discard_ranking(view, options, False)

    def _discard_ranking(self, view: SeatView, options: list[Card], best_only: bool
                         ) -> list[Card]:
        """:meth:`discard_order`, or with ``best_only`` just its first card (the
        others' keys beyond the first part are not worked out)."""
        seat = view.seat if view.seat is not None else view.turn_player
        hand = view.hand
        planner = self.planner
        contract = view.contract
        s = contract.sets
        r = contract.runs
        down = view.laid_down[seat]
        table = view.table
        rnd = view.round
        final = self._mode(rnd) != "normal"
        wild = self._wild
        used = 0  # bit per card key
        if not down and not final:
            used = self._plan_used(hand, s, r)
        by_index: dict[int, Card] = {}
        for c in options:
            by_index[c.index] = c
        distinct = list(by_index.values())
        if final and not down:
            naturals = []
            for c in distinct:
                if not wild[c.index]:
                    naturals.append(c)
            rest_needs = iter(self._needs_list(view, naturals))  # (in the loop's order)
        # the first part of each key (99 for a wild card); with best_only, only the
        # cards with the lowest first part are keyed further
        cands: list[tuple[Card, float]] = []
        lowest = 100.0
        for c in distinct:
            idx = c.index
            if wild[idx]:
                primary = 99.0
            elif down:
                primary = 0.0
            elif final:
                primary = float(next(rest_needs))
            else:
                primary = 1.0 if used >> idx & 1 else 0.0
            if not best_only or primary == lowest:
                cands.append((c, primary))
            elif primary < lowest:
                lowest = primary
                cands = [(c, primary)]
        if best_only and len(cands) == 1:
            c, primary = cands[0]
            if down or final or primary < 1.0 or wild[c.index]:
                return [c]  # the only card with the lowest first part (see below)
        keyed: list[tuple[tuple[float, float, float], int, Card]] = []
        if lowest < 99.0 or not best_only:
            n = view.players
            # the danger: ranks and (suit, rank)s the next player has taken this round
            taken_ranks = 0  # bit per rank
            taken = [0, 0, 0, 0]  # per suit, bit rank + 2
            for c in self._taken_by_next(view, (seat + 1) % n):
                taken_ranks |= 1 << c.rank
                taken[c.suit] |= 4 << c.rank
            laid = view.laid_down
            table_risky = False
            if table:
                for o in range(n):
                    if o != seat and laid[o]:
                        table_risky = True
                        break
            # per card index: does it fit the table (_fits_table)? remembered for the
            # last table seen
            fits: dict[int, bool] = {}
            if table_risky:
                memo = self._fits_memo
                if memo[0] is not table and memo[0] != table:
                    memo = self._fits_memo = (table, {})
                fits = memo[1]
            # counts for the keep value
            rank_cnt = [0] * 14
            suit_ranks = [0, 0, 0, 0]  # bit per rank
            ends = [0, 0, 0, 0]  # bit per rank
            if down:
                for m in table:
                    if m.kind == "run" and m.suit >= 0:
                        lo = m.rank
                        hi = m.rank + len(m.cards) - 1
                        ends[m.suit] |= 1 << ((lo - 3) % 13 + 1) | 1 << ((hi + 1) % 13 + 1)
            elif self._counts_by_rank and not final:
                # the planner's counts are these (per rank, per suit), remembered
                # from _plan_used
                rank_cnt, suit_ranks, _wild = planner.counted(hand)
            elif final and not s:
                # (the keep value needs no counts per rank; the planner has just
                # measured this hand's ranks per suit for rest_needs)
                suit_ranks = planner.natural_ranks(hand)
            else:
                for c in hand:
                    if c.rank and not wild[c.index]:
                        rank_cnt[c.rank] += 1
                        suit_ranks[c.suit] |= 1 << c.rank
        points = self._points
        for c, primary in cands:
            idx = c.index
            if wild[idx]:
                keyed.append(((99.0, 0.0, 0.0), idx, c))
                continue
            rank = c.rank
            suit = c.suit
            keep = 0.0
            if down:
                if ends[suit] >> rank & 1:
                    keep += 1.0
            else:
                if s:
                    keep += (rank_cnt[rank] - 1) * 1.2
                if r:
                    sr = suit_ranks[suit]
                    if sr:
                        if keep:
                            for rr, w in _NEAR[rank]:
                                if sr >> rr & 1:
                                    keep += w
                        else:  # (from 0.0 the sum is the same in any order: exact)
                            keep = _NEAR_KEEP[rank][sr & _NEAR_MASK[rank]]
            danger = 0.0
            if taken_ranks >> rank & 1:
                danger += 1.0
            tk = taken[suit]
            if tk:
                if tk >> (rank + 1) & 1 or tk >> (rank + 3) & 1:
                    danger += 0.7
                if tk >> rank & 1 or tk >> (rank + 4) & 1:
                    danger += 0.7 / 2
            if table_risky:
                fit = fits.get(idx)
                if fit is None:
                    fit = fits[idx] = self._fit_index(table, c) >= 0
                if fit:
                    danger += 2.0
            keyed.append(((primary, keep + danger, points[idx]), idx, c))
        if best_only:
            keyed = [min(keyed)]
            order = [keyed[0][2]]
        else:
            keyed.sort()
            order = [c for _k, _i, c in keyed]
        if not down and not final and keyed[0][0][0] >= 1.0 and not wild[order[0].index]:
            # every card is planned: drop the one whose loss hurts the plan least
            scored: list[tuple[int, float, Card]] = []
            naturals = [c for c in options if not planner.is_wild(c)]
            needs = self._needs_without(view, list(dict.fromkeys(naturals)))
            for c in naturals:
                scored.append((needs[c], points[c.index], c))
            if scored:
                scored.sort(key=lambda t: (t[0], t[1], t[2].index))
                first = [c for _n, _p, c in scored]
                order = first + [c for c in order if c not in first]
        return order


def _best_window(masks: list[int], table: _BestWindows, nsuits: int) -> tuple[int, int, int]:
    """The suit whose best run window holds the most natural ranks:
    (naturals in it, window index, suit); (0, 0, 0) when no suit has a card.
    The first suit wins ties."""
    best = -1
    bw = 0
    bs = 0
    for s in range(nsuits):
        m = masks[s]
        if m:
            have, w = table[m]
            if have > best:
                best, bw, bs = have, w, s
    if best < 0:
        best = 0
    return best, bw, bs
