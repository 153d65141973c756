"""The ``basic`` bot: a fast heuristic player that plays the round's contract.

It measures a hand by how many cards it still *needs* to make the contract
(a greedy cover of the hand by the contract's sets and runs, with wild cards
filling gaps within the ruleset's wild limits: :mod:`liverpool.bots.planner`).
With that one measure it

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
from .planner import HandPlanner, spare_of

__all__ = ["BasicBot"]


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


class BasicBot:
    """The heuristic player (see the module text).

    Options: ``mistakes`` (0..1, the chance of a mistake at a draw or a discard
    — a random choice — or at a buy window — a pass: the ``easy`` level),
    ``buy_eagerness`` (scales the wish to buy) and ``points_weight`` (how much
    a card's points count against how much the hand keeps it when the
    discards are ordered — the cards outside the planned melds, or any card
    once down: a card's keep value is lowered by ``points_weight`` × its
    points / 50, so that with 10 a pair of aces outside the plan goes before a
    lone 4; default 0, where the points only break ties: the ``basic`` bot
    that the strength figures are measured against).
    """

    def __init__(self, rules: Rules, seed: int = 0, *, mistakes: float = 0.0,
                 buy_eagerness: float = 1.0, points_weight: float = 0.0) -> None:
        self.name = "basic"
        self.rules = rules
        self.rng = random.Random(seed)  # noqa: S311 - a bot's seeded choices, not secrets
        self.mistakes = float(mistakes)
        self.buy_eagerness = float(buy_eagerness)
        self.points_weight = float(points_weight)
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
    def reseed(self, seed: int) -> None:
        """Play on as if built with ``seed`` (the RL environments call it at each reset)."""
        self.rng.seed(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("there is no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if self.mistakes and phase in ("draw", "buy") and self.rng.random() < self.mistakes:
            if phase == "buy":  # a buy missed, never a buy made at random: random
                for a in legal:  # buys make hands grow until nobody can go out
                    if a.__class__ is Pass:
                        return a
            return legal[self.rng.randrange(len(legal))]
        # (the phases by how often they come: buy, play, draw)
        if phase == "buy":
            kind = Buy if self.wants_buy(view) else Pass
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

    def fits_table(self, table: Sequence[Meld], card: Card) -> bool:
        """Could ``card`` be laid off on some meld of ``table``?"""
        return self.fit_index(table, card) >= 0

    def fit_index(self, table: Sequence[Meld], card: Card) -> int:
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
        spare = spare_of(mode)
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

    def gain(self, view: SeatView, card: Card) -> int:
        """How many cards nearer its contract ``card`` would bring the seat's
        hand (the planner's need without it minus with it; 0 for a card with
        no partner in the hand)."""
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
            spare = spare_of(mode)
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
            if may_lay_off and self.fits_table(view.table, top):
                return take
            return stock if stock is not None else legal[0]
        gain = self.gain(view, top)
        if gain > 0:
            return take
        if self._short(view, len(view.hand)) > 0 and gain >= 0:
            return take
        return stock if stock is not None else legal[0]

    def wants_buy(self, view: SeatView) -> bool:
        """Would this bot buy the offered card (the buy window of ``view``)?"""
        seat = view.seat if view.seat is not None else view.to_move
        card = view.offered_card
        if seat is None or card is None or view.laid_down[seat]:
            return False
        hand_size = len(view.hand)
        mode = self._mode(view.round)
        c = view.contract
        # _short(view, hand_size) > 0, inline
        if 3 * c.sets + 4 * c.runs + (mode == "all_but_one") - (hand_size + 1) > 0:
            return self.gain(view, card) >= 0
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
        # the gain (gain: the card is not lonely)
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
                              or not self.fits_table(view.table, hand[0])))
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
        assert plain is not None  # noqa: S101 - narrows the type for mypy
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
            if self.fits_table(table, wild):
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
        for c in self.taken_by_next(view, (seat + 1) % n):
            ranks.add(c.rank)
            cards.add((c.suit, c.rank))
        table_risky = any(view.laid_down[o] for o in range(n) if o != seat)
        return ranks, cards, table_risky

    def taken_by_next(self, view: SeatView, nxt: int) -> list[Card]:
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
            for c in self.taken_by_next(view, (seat + 1) % n):
                taken_ranks |= 1 << c.rank
                taken[c.suit] |= 4 << c.rank
            laid = view.laid_down
            table_risky = False
            if table:
                for o in range(n):
                    if o != seat and laid[o]:
                        table_risky = True
                        break
            # per card index: does it fit the table (fits_table)? remembered for the
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
        pweight = self.points_weight
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
                    fit = fits[idx] = self.fit_index(table, c) >= 0
                if fit:
                    danger += 2.0
            keyed.append(((primary, keep + danger + pweight * points[idx], points[idx]), idx, c))
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
