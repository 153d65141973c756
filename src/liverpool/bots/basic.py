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
from collections.abc import Sequence
from operator import attrgetter

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
        nat_set = rules.min_naturals_set
        nat_run = rules.min_naturals_run
        if rules.naturals_at_least_wilds:
            nat_set = max(nat_set, 2)
            nat_run = max(nat_run, 2)
        self.cap_set = max(0, 3 - nat_set)
        self.cap_run = max(0, 4 - nat_run)
        if rules.no_adjacent_wilds_in_run:
            self.cap_run = min(self.cap_run, 2)
        self.same_suit_runs = rules.run_same_suit
        self.same_suit_sets = rules.set_same_suit
        self.wild_deuce = rules.wild_deuce_of_spades
        self._run_keys_cache: dict[int, tuple[int, ...]] = {}
        self._runs_memo: dict[tuple[int, ...],
                              tuple[int, int, tuple[int, ...], tuple[int, ...]]] = {}

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
        same_runs = self.same_suit_runs
        same_sets = self.same_suit_sets
        deuce = self.wild_deuce
        for c in hand:
            r = c.rank
            if r == 0 or (deuce and c.index == 1):
                wild += 1
                continue
            k = c.index if same_sets else r
            cnt[k] = cnt.get(k, 0) + 1
            masks[c.suit if same_runs else 0] |= 1 << r
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
        return self.assess(hand, sets, runs, spare)[0]

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
        deuce = self.wild_deuce
        # layers[s][k]: the ranks (bit per rank) of which suit s holds more than k cards
        layers: list[list[int]] = [[0, 0], [0, 0], [0, 0], [0, 0]]
        wild = 0
        for c in hand:
            r = c.rank
            if r == 0 or (deuce and c.index == 1):
                wild += 1
                continue
            bit = 1 << r
            lay = layers[c.suit]
            for k in range(len(lay)):
                if not lay[k] & bit:
                    lay[k] |= bit
                    break
            else:
                lay.append(bit)
        same_runs = self.same_suit_runs
        full = self._runs_plan(layers, runs)
        usedm = full[3]
        out: list[int] = []
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
        n_left = 0
        absorbed = 0
        if self.same_suit_runs:
            for s in range(4):
                lay = layers[s]
                one = lay[0]
                if not one:
                    continue
                um = usedm[s]
                n = 0
                for layer in lay:
                    n += layer.bit_count()
                n -= (one & um).bit_count()
                n_left += n
                m = spread[s]
                if not m or not n:
                    continue
                have = lay[1] | (one & ~um)
                while True:
                    near = (m << 1) | (m >> 1)
                    if m >> 13 & 1:
                        near |= 2
                    if m >> 1 & 1:
                        near |= 1 << 13
                    grow = near & have & ~m
                    if not grow:
                        break
                    m |= grow
                for layer in lay:
                    absorbed += (m & layer).bit_count()
                absorbed -= (m & one & um).bit_count()
        else:
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
                while True:
                    near = (m << 1) | (m >> 1)
                    if m >> 13 & 1:
                        near |= 2
                    if m >> 1 & 1:
                        near |= 1 << 13
                    grow = near & have & ~m
                    if not grow:
                        break
                    m |= grow
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
        table = self.best_window
        windows = self.windows
        cap = self.cap_run
        nsuits = len(masks)
        spread = [0] * nsuits
        usedm = [0] * nsuits
        total = 0
        fillable = 0
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
_card_index = attrgetter("index")
_BEST_CACHE: dict[tuple[tuple[int, ...], ...], _BestWindows] = {}


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

    # -------------------------------------------------------------- choose
    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("there is no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if self.mistakes and phase in ("draw", "buy") and self.rng.random() < self.mistakes:
            return legal[self.rng.randrange(len(legal))]
        if phase == "cut":
            return self._cut(view, legal)
        if phase == "call":
            for a in legal:
                if isinstance(a, Call):
                    return a
            return legal[0]
        if phase == "buy":
            return Buy() if self._wants_buy(view) else Pass()
        if phase == "draw":
            return self._draw(view, legal)
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
        rules = self.rules
        wild = self.planner.is_wild(card)
        rank = card.rank
        for m in table:
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
                return True
        return False

    def _short(self, view: SeatView, hand_size: int) -> int:
        """How many cards the hand lacks to hold the contract at all (after a draw)."""
        c = view.contract
        required = 3 * c.sets + 4 * c.runs
        if self._mode(view.round) == "all_but_one":
            required += 1
        return max(0, required - (hand_size + 1))

    def _need(self, view: SeatView, hand: Sequence[Card]) -> int:
        """The planner's need for ``hand`` in this round (cached)."""
        s, r = self._contract(view)
        spare = -1
        mode = self._mode(view.round)
        if mode != "normal":
            spare = 1 if mode == "all_but_one" else 0
        key = (view.round, spare, tuple(sorted(map(_card_index, hand))))
        cache = self._cache
        got = cache.get(key)
        if got is None:
            if len(cache) > 20000:
                cache.clear()
            if s or not r:
                got = self.planner.need(hand, s, r, spare)
            else:
                got = self.planner.runs_needs(hand, (None,), r, spare)[0]
            cache[key] = got
        return got

    def _needs_without(self, view: SeatView, cards: Sequence[Card]) -> dict[Card, int]:
        """The planner's need for the hand without each (natural) card of ``cards``."""
        s, r = self._contract(view)
        hand = view.hand
        if s or not r:
            out: dict[Card, int] = {}
            for c in cards:
                rest = list(hand)
                rest.remove(c)
                out[c] = self._need(view, rest)
            return out
        spare = -1
        mode = self._mode(view.round)
        if mode != "normal":
            spare = 1 if mode == "all_but_one" else 0
        return dict(zip(cards, self.planner.runs_needs(hand, cards, r, spare), strict=True))

    def _lonely(self, view: SeatView, card: Card) -> bool:
        """Is ``card`` a natural card with no partner in the hand in a normal round?
        Then it cannot lower the need (its gain is 0)."""
        if self.planner.is_wild(card) or self._mode(view.round) != "normal":
            return False
        c = view.contract
        sets, runs = c.sets, c.runs
        any_suit = not self.rules.run_same_suit
        rank, suit = card.rank, card.suit
        for h in view.hand:
            hr = h.rank
            if sets and hr == rank:
                return False
            if runs and hr and (h.suit == suit or any_suit) and (
                    abs(hr - rank) <= 3 or abs(hr - rank) >= 10):
                return False
        return True

    def _gain(self, view: SeatView, card: Card) -> int:
        if self._lonely(view, card):
            return 0  # skip the planner
        hand = view.hand
        return self._need(view, hand) - self._need(view, (*hand, card))

    def _draw(self, view: SeatView, legal: Sequence[Action]) -> Action:
        top = view.top_discard
        if top is None or Draw("discard") not in legal:
            return Draw("stock")
        seat = view.seat if view.seat is not None else view.turn_player
        if view.laid_down[seat]:
            may_lay_off = self._mode(view.round) == "normal" and (
                self.rules.lay_off_same_turn or view.down_turns[seat] < view.turn_number)
            if may_lay_off and self._fits_table(view.table, top):
                return Draw("discard")
            return Draw("stock") if Draw("stock") in legal else legal[0]
        if self._gain(view, top) > 0:
            return Draw("discard")
        if self._short(view, len(view.hand)) > 0 and self._gain(view, top) >= 0:
            return Draw("discard")
        return Draw("stock") if Draw("stock") in legal else legal[0]

    def _wants_buy(self, view: SeatView) -> bool:
        seat = view.seat if view.seat is not None else view.to_move
        card = view.offered_card
        if seat is None or card is None or view.laid_down[seat]:
            return False
        hand_size = len(view.hand)
        if self._short(view, hand_size) > 0:
            return self._gain(view, card) >= 0
        if self._mode(view.round) != "normal":
            return False  # in an all-at-once round the penalty card must fit too
        for o in range(view.players):
            if o != seat and view.laid_down[o] and view.hand_sizes[o] <= 3:
                return False  # the round is about to end: extra cards are penalty points
        extra = hand_size - view.cards_dealt
        late = view.turn_number / max(1, view.players)
        eager = self.buy_eagerness
        if self._lonely(view, card):
            return False  # its gain is 0
        if eager >= 0:
            # the gain is at most the need of the hand now (the need is never
            # negative): often that settles it without planning the bigger hand
            most = self._need(view, view.hand)
            if most <= 0:
                return False
            bound = most * eager - 0.25 * max(0, extra) - 0.08 * late
            if view.stock_size < 6:
                bound -= 0.5
            if bound < 0.5:
                return False
        gain = self._gain(view, card)
        if gain <= 0:
            return False
        score = gain * eager - 0.25 * max(0, extra) - 0.08 * late
        if view.stock_size < 6:
            score -= 0.5
        return score >= 0.5

    def _play(self, view: SeatView, legal: Sequence[Action]) -> Action:
        hand = view.hand
        discards: list[Discard] = []
        lay_offs: list[LayOff] = []
        swaps: list[SwapJoker] = []
        for a in legal:
            if isinstance(a, Discard):
                discards.append(a)
            elif isinstance(a, LayOff):
                lay_offs.append(a)
            elif isinstance(a, SwapJoker):
                swaps.append(a)
            elif isinstance(a, LayDown):
                return a
        if swaps:
            swap = self._good_swap(view, swaps)
            if swap is not None:
                return swap
        if lay_offs:
            keep_last = (self.rules.go_out_requires_discard and len(hand) == 1 and discards
                         and (self.rules.discard_call == "none"
                              or not self._fits_table(view.table, hand[0])))
            if not keep_last:
                naturals = [a for a in lay_offs if not self.planner.is_wild(a.card)]
                return naturals[0] if naturals else lay_offs[0]
        if not discards:
            return legal[0]
        if self.mistakes and self.rng.random() < self.mistakes:
            return discards[self.rng.randrange(len(discards))]
        card = self._pick_discard(view, [d.card for d in discards])
        plain = None
        for d in discards:
            if d.card == card:
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
        nxt = (seat + 1) % n
        ranks: set[int] = set()
        cards: set[tuple[int, int]] = set()
        events = view.events
        i = len(events) - 1
        stop = max(-1, i - 80)
        while i > stop:
            e = events[i]
            if e.kind == "round":
                break
            if e.seat == nxt and e.kind in ("take", "buy") and e.cards:
                c = e.cards[0]
                if c.rank:
                    ranks.add(c.rank)
                    cards.add((c.suit, c.rank))
            i -= 1
        table_risky = any(view.laid_down[o] for o in range(n) if o != seat)
        return ranks, cards, table_risky

    def _pick_discard(self, view: SeatView, options: list[Card]) -> Card:
        return self.discard_order(view, options)[0]

    def discard_order(self, view: SeatView, options: list[Card]) -> list[Card]:
        """The distinct cards of ``options``, the best discard first."""
        rules = self.rules
        seat = view.seat if view.seat is not None else view.turn_player
        hand = view.hand
        planner = self.planner
        s, r = self._contract(view)
        ranks, taken, table_risky = self._danger(view)
        down = view.laid_down[seat]
        table = view.table
        final = self._mode(view.round) != "normal"
        used: set[int] = set()
        if not down and not final:
            _need, used, _melds = planner.plan(hand, s, r)
        # counts for the keep value
        rank_cnt = [0] * 14
        suit_ranks: list[set[int]] = [set(), set(), set(), set()]
        for c in hand:
            if c.rank and not planner.is_wild(c):
                rank_cnt[c.rank] += 1
                suit_ranks[c.suit].add(c.rank)
        ends: set[tuple[int, int]] = set()
        if down:
            for m in table:
                if m.kind == "run" and m.suit >= 0:
                    lo = m.rank
                    hi = m.rank + len(m.cards) - 1
                    for x in (lo - 2, hi + 2):
                        ends.add((m.suit, (x - 1) % 13 + 1))
        keyed: list[tuple[tuple[float, ...], int, Card]] = []
        distinct = list(dict.fromkeys(options))
        if final and not down:
            rest_need = self._needs_without(
                view, [c for c in distinct if not planner.is_wild(c)])
        for c in distinct:
            if planner.is_wild(c):
                key: tuple[float, ...] = (99.0, 0.0, 0.0)
            else:
                if down:
                    primary = 0.0
                elif final:
                    primary = float(rest_need[c])
                else:
                    primary = 1.0 if c.index in used else 0.0
                keep = 0.0
                if down:
                    if (c.suit, c.rank) in ends:
                        keep += 1.0
                else:
                    if s:
                        keep += (rank_cnt[c.rank] - 1) * 1.2
                    if r:
                        sr = suit_ranks[c.suit]
                        for d in (1, 2):
                            for nr in (c.rank - d, c.rank + d):
                                rr = nr if 1 <= nr <= 13 else (1 if nr == 14 else 0)
                                if rr and rr in sr:
                                    keep += _WEIGHT_NEAR[d]
                danger = 0.0
                if c.rank in ranks:
                    danger += 1.0
                for d in (1, 2):
                    if (c.suit, c.rank - d) in taken or (c.suit, c.rank + d) in taken:
                        danger += 0.7 / d
                if table_risky and table and self._fits_table(table, c):
                    danger += 2.0
                key = (primary, keep + danger, -rules.card_points(c) / 50.0)
            keyed.append((key, c.index, c))
        keyed.sort(key=lambda t: (t[0], t[1]))
        order = [c for _k, _i, c in keyed]
        if not down and not final and keyed[0][0][0] >= 1.0 and not planner.is_wild(order[0]):
            # every card is planned: drop the one whose loss hurts the plan least
            scored: list[tuple[int, float, Card]] = []
            naturals = [c for c in options if not planner.is_wild(c)]
            needs = self._needs_without(view, list(dict.fromkeys(naturals)))
            for c in naturals:
                scored.append((needs[c], -rules.card_points(c) / 50.0, c))
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
