"""The hand planner: how far a hand is from the round's contract.

Its one measure is the *need*: how many cards a hand still lacks to make the
contract. It covers the hand greedily with the contract's runs (per run, the
best four-rank window of any suit: :mod:`liverpool.bots.run_windows`) and sets
(the most plentiful ranks), tries runs first and sets first when the contract
has both, and lets the wild cards fill the gaps the ruleset's wild limits allow.

There is one greedy cover, written twice:

- :meth:`HandPlanner.plan` is the reference: it builds the plan (the melds and
  the cards they use) from plain counts;
- :meth:`HandPlanner.need`, :meth:`~HandPlanner.need_with` and
  :meth:`~HandPlanner.used_mask` take the fast path (counts in lists, card keys
  as bit masks, the run windows unrolled per suit), and
  :meth:`~HandPlanner.runs_needs` measures a hand without each of several cards
  in one pass for runs-only contracts.

The tests (``test_planner_*`` in ``tests/test_bots.py`` and
``tests/test_speed_paths.py``) hold the fast path to the reference on random
hands under random rulesets.

>>> from liverpool import load_rules, parse_cards
>>> planner = HandPlanner(load_rules("liverpool"))
>>> hand = parse_cards("5H 6H 7H KD 9S 9D 2C")
>>> planner.need(hand, 1, 1)
2
>>> need, used, melds = planner.plan(hand, 1, 1)
>>> need, [m[0] for m in melds]
(2, ['run', 'set'])
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..rules import Contract, Rules
from ..solver import find_melds
from .run_windows import RANKS_OF, best_window, best_windows, grow_span, run_windows

__all__ = ["HandPlanner", "RunsCover", "spare_of"]


def spare_of(mode: str) -> int:
    """The planner's ``spare`` for a round of lay-down ``mode``
    (:func:`~liverpool.melds.lay_down_mode`): -1 in a normal round, else the
    cards that may stay out of the melds (1 with ``"all_but_one"``, 0 with all at once).

    >>> [spare_of(m) for m in ("normal", "all_but_one", "all_at_once")]
    [-1, 1, 0]
    """
    return -1 if mode == "normal" else 1 if mode == "all_but_one" else 0

#: A runs-only cover: (cards missing, of those the ones wild cards may fill, per
#: suit slot the ranks the planned runs span, per suit slot the ranks they hold).
RunsCover = tuple[int, int, tuple[int, ...], tuple[int, ...]]

#: bit 0 of each suit's 13 card keys (key = suit * 13 + rank - 1)
_EACH_SUIT = 1 | 1 << 13 | 1 << 26 | 1 << 39


class HandPlanner:
    """How far a hand is from a contract: the fast measure behind the ``basic`` bot.

    A card key is the card's index, ``suit * 13 + rank - 1``. The methods take
    the contract as its number of ``sets`` and ``runs``.

    >>> from liverpool import load_rules, parse_cards
    >>> p = HandPlanner(load_rules("london"))
    >>> p.need(parse_cards("9H 9S 9D 5C 5D KS"), 2, 0)
    1
    >>> p.need(parse_cards("9H 9S 9D 5C 5D 5S"), 2, 0)
    0
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.best_window = best_windows(run_windows(rules.run_wrap))
        naturals_set = rules.min_naturals_set
        naturals_run = rules.min_naturals_run
        if rules.naturals_at_least_wilds:
            naturals_set = max(naturals_set, 2)
            naturals_run = max(naturals_run, 2)
        #: the most wild cards one set, and one run, of the contract may hold
        self.cap_set = max(0, 3 - naturals_set)
        self.cap_run = max(0, 4 - naturals_run)
        if rules.no_adjacent_wilds_in_run:
            self.cap_run = min(self.cap_run, 2)
        #: per cards held in a run window, the missing cards wild cards may fill
        self.run_fill = tuple(min(4 - held, self.cap_run) for held in range(5))
        self.same_suit_runs = rules.run_same_suit
        self.same_suit_sets = rules.set_same_suit
        self.wild_deuce = rules.wild_deuce_of_spades
        #: the set keys (the card key with sets of one suit, else the rank), descending
        self._set_keys_down = tuple(range(51 if self.same_suit_sets else 13, -1, -1))
        self._run_keys_cache: dict[int, tuple[int, ...]] = {}
        self._runs_memo: dict[tuple[int, ...], RunsCover] = {}
        self._loose_memo: dict[tuple[int, ...], int] = {}
        self._count_memo: tuple[object, tuple[list[int], list[int], int]] = (None, ([], [], 0))
        self._contracts: dict[tuple[int, int], Contract] = {}
        self._layers_memo: tuple[object, list[list[int]]] = (None, [])
        # per card index: (wild?, set key, run mask slot, rank bit)
        self._card_info = tuple(
            (c.rank == 0 or (self.wild_deuce and c.index == 1),
             c.index if self.same_suit_sets else c.rank,
             c.suit if self.same_suit_runs else 0, 1 << c.rank)
            for c in (Card.from_index(i) for i in range(53)))

    def is_wild(self, c: Card) -> bool:
        return c.rank == 0 or (self.wild_deuce and c.index == 1)

    # ------------------------------------------------------- the reference
    def plan(self, hand: Sequence[Card], sets: int, runs: int
             ) -> tuple[int, set[int], list[tuple[str, int, int]]]:
        """(need, keys of the natural cards the plan uses, the planned melds).

        The planned melds are ``("set", rank, suit)`` or ``("run", window_mask,
        suit)`` (suit -1: any suit).
        """
        wild = 0
        counts: dict[int, int] = {}
        masks = [0, 0, 0, 0]
        info = self._card_info
        for c in hand:
            is_wild, key, slot, bit = info[c.index]
            if is_wild:
                wild += 1
                continue
            counts[key] = counts.get(key, 0) + 1
            masks[slot] |= bit
        if sets and runs:
            a = self._cover_plan(dict(counts), list(masks), wild, sets, runs, True)
            b = self._cover_plan(counts, masks, wild, sets, runs, False)
            return a if a[0] <= b[0] else b
        return self._cover_plan(counts, masks, wild, sets, runs, True)

    def _checked(self, need: int, hand: Sequence[Card], extra: Card | None, sets: int,
                 runs: int) -> int:
        """``need``, the greedy cover's estimate of a normal round, or 0 when the
        contract is of sets and runs and the contract solver finds it in ``hand``
        (with ``extra``): the cover gives a rank's cards to a set or to a run,
        and misses a contract whose set and run share a rank (9♠ 10♠ J♠ Q♠ K♠
        and Q♣ Q♥ Q♦: the run needs only 10♠–K♠), in about 0.3% of the hands of
        a normal round. So 0 means exactly that the contract can go down;
        :meth:`plan` (the cover alone) does not look.

        >>> from liverpool import load_rules, parse_cards
        >>> p = HandPlanner(load_rules("liverpool"))
        >>> p.need(parse_cards("9D 9H 9S QC QH QD TS JS QS KS"), 2, 1)
        0
        >>> p.need_with(parse_cards("9D 9H 9S QC QH QD TS JS QS"), parse_cards("KS")[0], 2, 1)
        0
        """
        if need <= 0 or not sets or not runs:
            return need
        contract = self._contracts.get((sets, runs))
        if contract is None:
            contract = self._contracts[sets, runs] = Contract(sets, runs)
        cards = hand if extra is None else [*hand, extra]
        return 0 if find_melds(cards, self.rules, contract) is not None else need

    def _cover_plan(self, counts: dict[int, int], masks: list[int], wild: int, sets: int,
                    runs: int, runs_first: bool
                    ) -> tuple[int, set[int], list[tuple[str, int, int]]]:
        """One greedy cover (runs first or sets first) as :meth:`plan` gives it;
        changes ``counts`` and ``masks``."""
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
                run_keys = self._run_keys_cache
                sets_follow = runs_first and sets > 0
                cap = self.cap_run
                suits = 4 if same_runs else 1
                for _ in range(runs):
                    held, window, suit = best_window(masks, table, suits)
                    got = masks[suit] & window
                    masks[suit] &= ~window
                    missing = 4 - held
                    total += missing
                    fillable += missing if missing < cap else cap
                    melds.append(("run", window, suit if same_runs else -1))
                    if not got:
                        continue
                    cache_key = suit << 14 | got
                    keys = run_keys.get(cache_key)
                    if keys is None:
                        keys = run_keys[cache_key] = self._run_keys(suit, got)
                    used.update(keys)
                    if sets_follow:  # the sets still to be chosen lose these cards
                        for r in RANKS_OF[got]:
                            key = suit * 13 + r - 1 if same_sets and same_runs else r
                            if counts.get(key, 0) > 0:
                                counts[key] -= 1
            else:
                if not sets:
                    continue
                ranked = sorted(zip(counts.values(), counts.keys(), strict=True), reverse=True)
                cap = self.cap_set
                for i in range(sets):
                    if i < len(ranked):
                        held, key = ranked[i]
                        counts[key] = 0
                    else:
                        key, held = -1, 0
                    missing = 3 - held if held < 3 else 0
                    total += missing
                    fillable += missing if missing < cap else cap
                    if key >= 0:
                        if same_sets:
                            used.add(key)
                            melds.append(("set", key % 13 + 1, key // 13))
                        else:
                            used.update((key - 1, key + 12, key + 25, key + 38))
                            melds.append(("set", key, -1))
                            # the run masks lose this rank's cards
                            clear = ~(1 << key)
                            for slot in range(4 if same_runs else 1):
                                masks[slot] &= clear
        return total - (wild if wild < fillable else fillable), used, melds

    def _run_keys(self, suit: int, got: int) -> tuple[int, ...]:
        """The card keys a run plan in ``suit`` uses for the ranks of ``got``
        (with runs of mixed suits: every suit's card of those ranks)."""
        suits = (suit,) if self.same_suit_runs else (0, 1, 2, 3)
        return tuple(s * 13 + r - 1 for r in RANKS_OF[got] for s in suits)

    def assess(self, hand: Sequence[Card], sets: int, runs: int, spare: int = -1
               ) -> tuple[int, set[int]]:
        """(need as in :meth:`need`, keys of the natural cards :meth:`plan`'s plan uses)."""
        need, used, melds = self.plan(hand, sets, runs)
        if spare < 0:
            return self._checked(need, hand, None, sets, runs), used
        return need + max(0, len(self.loose_cards(hand, used, melds)) - spare), used

    def loose_cards(self, hand: Sequence[Card], used: set[int],
                    melds: list[tuple[str, int, int]]) -> list[Card]:
        """The natural cards of the hand that no planned meld holds or could grow
        to hold (``used`` and ``melds`` as :meth:`plan` gives them): a card of a
        planned set's rank, or one that a chain of cards in hand joins to a
        planned run, is not loose."""
        set_ranks = 0  # bit per rank
        span: dict[int, int] = {}  # suit (-1: any) -> ranks a planned run covers
        for kind, ranks, suit in melds:
            if kind == "set":
                set_ranks |= 1 << ranks
            else:
                span[suit] = span.get(suit, 0) | ranks
        taken: set[int] = set()
        # the ranks of the cards left, per suit (-1: any), beside a planned run
        have: dict[int, int] = {}
        same_runs = self.same_suit_runs
        deuce = self.wild_deuce
        loose: list[Card] = []
        for c in hand:
            rank = c.rank
            if rank == 0 or (deuce and c.index == 1) or set_ranks >> rank & 1:
                continue
            key = c.index
            if key in used and key not in taken:
                taken.add(key)
                continue
            loose.append(c)
            suit = c.suit if same_runs else -1
            if suit in span:
                have[suit] = have.get(suit, 0) | 1 << rank
        if not have:
            return loose
        # a left card goes into a run when a chain of left cards joins it to a planned run
        grown = {suit: grow_span(span[suit], ranks) for suit, ranks in have.items()}
        return [c for c in loose
                if not grown.get(c.suit if same_runs else -1, 0) >> c.rank & 1]

    # ------------------------------------------------------- the fast path
    def need(self, hand: Sequence[Card], sets: int, runs: int, spare: int = -1) -> int:
        """Cards still missing for the contract (0: it could go down).

        ``spare`` >= 0 is for the all-at-once final round: every card must go
        into the melds but ``spare`` of them, so each further card that neither
        fills nor extends a planned meld counts as missing too.
        """
        if spare >= 0:
            return self.assess(hand, sets, runs, spare)[0]
        counts, masks, wild = self._count_hand(hand)
        return self._checked(self._need_counted(counts, masks, wild, sets, runs), hand, None,
                             sets, runs)

    def need_with(self, hand: Sequence[Card], card: Card | None, sets: int, runs: int) -> int:
        """:meth:`need` of ``hand`` with ``card`` added (None: nothing), in a normal
        round (``spare`` -1). The counts of ``hand`` are remembered for the last hand
        tuple: a player's hand is one tuple while it does not change, and is measured
        with several offered cards."""
        counts, masks, wild = self.counted(hand)
        counts = counts.copy()
        masks = masks.copy()
        if card is not None:
            is_wild, key, slot, bit = self._card_info[card.index]
            if is_wild:
                wild += 1
            else:
                counts[key] += 1
                masks[slot] |= bit
        return self._checked(self._need_counted(counts, masks, wild, sets, runs), hand, card,
                             sets, runs)

    def used_mask(self, hand: Sequence[Card], sets: int, runs: int) -> int:
        """The keys of the natural cards :meth:`plan`'s plan uses (its second value) as
        a bit mask (bit ``k`` for key ``k``), without building the plan."""
        counts, masks, wild = self.counted(hand)
        if sets and runs:
            need_a, used_a = self._cover_counts(counts.copy(), masks.copy(), wild, sets, runs,
                                                True, True)
            # (sets first does not change the counts)
            need_b, used_b = self._cover_counts(counts, masks.copy(), wild, sets, runs,
                                                False, True)
            return used_a if need_a <= need_b else used_b
        return self._cover_counts(counts.copy(), masks.copy(), wild, sets, runs, True, True)[1]

    def counted(self, hand: Sequence[Card]) -> tuple[list[int], list[int], int]:
        """:meth:`_count_hand` of ``hand``, remembered for the last hand tuple (do not
        change the lists): a player's hand is one tuple while it does not change."""
        memo = self._count_memo
        if memo[0] is hand:
            return memo[1]
        got = self._count_hand(hand)
        if type(hand) is tuple:  # (a list could change under the memo)
            self._count_memo = (hand, got)
        return got

    def _count_hand(self, hand: Sequence[Card]) -> tuple[list[int], list[int], int]:
        """(the counts per set key as a list (a key never held counts 0), the run masks
        per suit slot, the number of wild cards) of ``hand``."""
        wild = 0
        counts = [0] * (52 if self.same_suit_sets else 14)
        masks = [0, 0, 0, 0]
        info = self._card_info
        for c in hand:
            is_wild, key, slot, bit = info[c.index]
            if is_wild:
                wild += 1
                continue
            counts[key] += 1
            masks[slot] |= bit
        return counts, masks, wild

    def _need_counted(self, counts: list[int], masks: list[int], wild: int, sets: int,
                      runs: int) -> int:
        """:meth:`need` of a counted hand (see :meth:`_count_hand`); changes ``counts``
        and ``masks``."""
        if sets and runs:
            a = self._cover_counts(list(counts), list(masks), wild, sets, runs, True, False)[0]
            b = self._cover_counts(counts, masks, wild, sets, runs, False, False)[0]
            return a if a <= b else b
        return self._cover_counts(counts, masks, wild, sets, runs, True, False)[0]

    def _cover_counts(self, counts: list[int], masks: list[int], wild: int, sets: int,
                      runs: int, runs_first: bool, with_used: bool) -> tuple[int, int]:
        """The cover of :meth:`_cover_plan` on a counted hand: (need, the keys of the
        natural cards it uses as a bit mask: complete only ``with_used``); changes
        ``masks``, and ``counts`` when ``runs_first``."""
        total = 0
        fillable = 0
        used = 0
        keys: Sequence[int] = self._set_keys_down
        if sets and with_used:
            # the keys held, descending (before the runs take cards: as the reference
            # ranks them, a key the runs took every card of stays a candidate)
            keys = [key for key in keys if counts[key]]
        if runs_first and runs:
            total, fillable, _span, run_ranks = self._cover_runs(masks, runs)
            if with_used:
                used = self._run_keys_mask(run_ranks)
            if sets:  # the sets still to be chosen lose the cards the runs take
                self._take_run_cards(counts, run_ranks)
        if sets:
            cap = self.cap_set
            if not with_used and (runs_first or self.same_suit_sets):
                # the sets' keys do not matter, only their counts
                ordered = sorted(counts, reverse=True)  # (the zeros of absent keys come last)
                for i in range(sets):
                    held = ordered[i] if i < len(ordered) else 0
                    missing = 3 - held if held < 3 else 0
                    total += missing
                    fillable += missing if missing < cap else cap
            else:
                # the keys by count, then key, both descending (the sort keeps the
                # order of equal counts; without the used keys, every key: those not
                # held come last and make no set)
                ranked = sorted(keys, key=counts.__getitem__, reverse=True)
                same_sets = self.same_suit_sets
                slots = 4 if self.same_suit_runs else 1
                for i in range(sets):
                    held = 0
                    if i < len(ranked):
                        key = ranked[i]
                        held = counts[key]
                        if held or with_used:
                            if same_sets:
                                used |= 1 << key
                            else:
                                used |= _EACH_SUIT << (key - 1)
                                clear = ~(1 << key)  # the run masks lose this rank's cards
                                for slot in range(slots):
                                    masks[slot] &= clear
                    missing = 3 - held if held < 3 else 0
                    total += missing
                    fillable += missing if missing < cap else cap
        if not runs_first and runs:
            runs_total, runs_fillable, _span, run_ranks = self._cover_runs(masks, runs)
            total += runs_total
            fillable += runs_fillable
            if with_used:
                used |= self._run_keys_mask(run_ranks)
        return total - (wild if wild < fillable else fillable), used

    def _run_keys_mask(self, run_ranks: tuple[int, ...]) -> int:
        """The card keys (bit per key) :meth:`_cover_plan` lets runs use, from the ranks
        the runs use per suit slot (:meth:`_cover_runs`): with runs of any suit, each
        suit's card of those ranks."""
        used = 0
        for slot in range(len(run_ranks)):
            ranks = run_ranks[slot]
            if ranks:
                used |= ((ranks >> 1) << (13 * slot) if self.same_suit_runs
                         else (ranks >> 1) * _EACH_SUIT)
        return used

    def _take_run_cards(self, counts: list[int], run_ranks: tuple[int, ...]) -> None:
        """Take the natural cards the runs use (ranks per suit slot, :meth:`_cover_runs`)
        from the counts per set key, as :meth:`_cover_plan` does for the sets chosen after."""
        if self.same_suit_sets and self.same_suit_runs:
            for suit in range(4):
                ranks = run_ranks[suit]
                if ranks:
                    base = suit * 13 - 1
                    for r in RANKS_OF[ranks]:
                        if counts[base + r] > 0:
                            counts[base + r] -= 1
        else:
            for ranks in run_ranks:
                if ranks:
                    for r in RANKS_OF[ranks]:
                        if counts[r] > 0:
                            counts[r] -= 1

    def _cover_runs(self, masks: list[int], runs: int) -> RunsCover:
        """The runs of :meth:`_cover_plan`'s cover, from the rank masks of the four suit
        slots (with runs of any suit: the first slot holds every rank, the others 0).

        Each run takes the best window of the suit holding the most cards in one (the
        first suit wins ties); a suit's best window is looked up again only when the
        suit loses cards, and a suit without cards counts 0 held, below any suit with
        cards (the reference's order).
        """
        best_of = self.best_window
        fill = self.run_fill
        ranks0, ranks1, ranks2, ranks3 = masks
        held0, window0 = best_of[ranks0]
        held1, window1 = best_of[ranks1]
        held2, window2 = best_of[ranks2]
        held3, window3 = best_of[ranks3]
        span0 = span1 = span2 = span3 = 0
        held = 0  # the cards held in the chosen windows
        fillable = 0
        for _ in range(runs):
            best = held0
            window = window0
            suit = 0
            if held1 > best:
                best, window, suit = held1, window1, 1
            if held2 > best:
                best, window, suit = held2, window2, 2
            if held3 > best:
                best, window, suit = held3, window3, 3
            if suit == 0:
                span0 |= window
                if ranks0:
                    ranks0 &= ~window
                    held0, window0 = best_of[ranks0]
            elif suit == 1:
                span1 |= window
                ranks1 &= ~window
                held1, window1 = best_of[ranks1]
            elif suit == 2:
                span2 |= window
                ranks2 &= ~window
                held2, window2 = best_of[ranks2]
            else:
                span3 |= window
                ranks3 &= ~window
                held3, window3 = best_of[ranks3]
            held += best
            fillable += fill[best]
        ranks0, ranks1, ranks2, ranks3 = masks
        return (4 * runs - held, fillable, (span0, span1, span2, span3),
                (ranks0 & span0, ranks1 & span1, ranks2 & span2, ranks3 & span3))

    def needs_without(self, hand: Sequence[Card], removes: Sequence[Card | None], sets: int,
                      runs: int, spare: int = -1) -> list[int]:
        """The :meth:`need` of ``hand`` without each card of ``removes`` (a
        card of ``hand``, or None for the whole hand): in one pass by
        :meth:`runs_needs` for a runs-only contract, one :meth:`need` each otherwise.

        >>> from liverpool import load_rules, parse_cards
        >>> p = HandPlanner(load_rules("liverpool"))
        >>> hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 4C 4C KD")
        >>> p.needs_without(hand, [None, hand[-1]], 0, 3, 0) == p.runs_needs(hand, [None, hand[-1]], 3, 0)
        True
        """
        if runs > 0 and not sets:
            return self.runs_needs(hand, removes, runs, spare)
        out = []
        for x in removes:
            rest = list(hand)
            if x is not None:
                rest.remove(x)
            out.append(self.need(rest, sets, runs, spare))
        return out

    # ------------------------------------------- runs-only contracts, in one pass
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
            layer = layers[c.suit]
            if not layer[0] & bit:
                layer[0] |= bit
            elif not layer[1] & bit:
                layer[1] |= bit
            else:
                for k in range(2, len(layer)):
                    if not layer[k] & bit:
                        layer[k] |= bit
                        break
                else:
                    layer.append(bit)
        same_runs = self.same_suit_runs
        if type(hand) is tuple:  # (for natural_ranks; a list could change under the memo)
            self._layers_memo = (hand, layers)
        full = self._remembered_runs_cover(layers, runs)
        if same_runs and spare >= 0:
            return self._runs_needs_final(layers, wild, removes, runs, spare, full)
        run_ranks = full[3]
        out: list[int] = []
        for card in removes:
            if card is None:
                out.append(self._runs_need(layers, wild, runs, spare, full))
                continue
            bit = 1 << card.rank
            suit = card.suit
            layer = layers[suit]
            k = len(layer) - 1
            while not layer[k] & bit:
                k -= 1
            layer[k] &= ~bit
            # the greedy cover stays the same when the card's rank stays in the
            # run masks or the cover does not use it
            if same_runs:
                same = k > 0 or not run_ranks[suit] & bit
            else:
                same = not run_ranks[0] & bit or bool(
                    (layers[0][0] | layers[1][0] | layers[2][0] | layers[3][0]) & bit)
            out.append(self._runs_need(layers, wild, runs, spare, full if same else None))
            layer[k] |= bit
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
                          full: RunsCover) -> list[int]:
        """:meth:`runs_needs` for runs of one suit in an all-at-once round (``spare`` >= 0):
        the loose cards are counted per suit (:meth:`_suit_loose_cards`), so taking a
        card away changes the count of its suit only while the cover stays the same."""
        total, fillable, span, run_ranks = full
        base = total - (wild if wild < fillable else fillable)
        suit_loose = self._suit_loose_cards
        parts = [suit_loose(layers[0], run_ranks[0], span[0]),  # (no comprehension's frame)
                 suit_loose(layers[1], run_ranks[1], span[1]),
                 suit_loose(layers[2], run_ranks[2], span[2]),
                 suit_loose(layers[3], run_ranks[3], span[3])]
        loose_all = parts[0] + parts[1] + parts[2] + parts[3]
        out: list[int] = []
        for card in removes:
            if card is None:
                out.append(base + (loose_all - spare if loose_all > spare else 0))
                continue
            bit = 1 << card.rank
            suit = card.suit
            layer = layers[suit]
            k = len(layer) - 1
            while not layer[k] & bit:
                k -= 1
            layer[k] &= ~bit
            held = run_ranks[suit]
            if k > 0 or not held & bit:  # the same cover (see runs_needs)
                loose = loose_all - parts[suit] + suit_loose(layer, held, span[suit])
                out.append(base + (loose - spare if loose > spare else 0))
            else:
                # a new cover (rarely one seen before: not remembered)
                new_total, new_fillable, new_span, new_ranks = self._cover_runs(
                    [layers[0][0], layers[1][0], layers[2][0], layers[3][0]], runs)
                loose = loose_all - parts[suit] + suit_loose(layer, new_ranks[suit],
                                                             new_span[suit])
                if new_span != span:
                    # the count of another suit changes when its planned runs change
                    # (the ranks they take follow: the suit's cards have not changed)
                    for other in range(4):
                        if other != suit and new_span[other] != span[other]:
                            loose += suit_loose(layers[other], new_ranks[other],
                                                new_span[other]) - parts[other]
                need = new_total - (wild if wild < new_fillable else new_fillable)
                out.append(need + (loose - spare if loose > spare else 0))
            layer[k] |= bit
        return out

    def _suit_loose_cards(self, layer: list[int], run_ranks: int, span: int) -> int:
        """The natural cards of one suit (rank layers ``layer``) that no planned run holds
        (``run_ranks``: the ranks the runs take) or could grow to hold (``span``: the
        ranks the runs span), as :meth:`loose_cards` finds them; remembered."""
        once = layer[0]
        if not once:
            return 0
        memo_key = (*layer, run_ranks, span)
        memo = self._loose_memo
        got = memo.get(memo_key)
        if got is not None:
            return got
        loose = 0
        for ranks in layer:
            loose += ranks.bit_count()
        loose -= (once & run_ranks).bit_count()
        absorbed = 0
        if span and loose:
            span = grow_span(span, layer[1] | (once & ~run_ranks))
            for ranks in layer:
                absorbed += (span & ranks).bit_count()
            absorbed -= (span & once & run_ranks).bit_count()
        if len(memo) > 8192:
            memo.clear()
        got = memo[memo_key] = loose - absorbed
        return got

    def _remembered_runs_cover(self, layers: list[list[int]], runs: int) -> RunsCover:
        """The (memoised) :meth:`_cover_runs` of a hand given as rank layers."""
        if self.same_suit_runs:
            memo_key: tuple[int, ...] = (runs, layers[0][0], layers[1][0], layers[2][0],
                                         layers[3][0])
        else:
            memo_key = (runs, layers[0][0] | layers[1][0] | layers[2][0] | layers[3][0], 0, 0, 0)
        memo = self._runs_memo
        got = memo.get(memo_key)
        if got is None:
            if len(memo) > 4096:
                memo.clear()
            got = memo[memo_key] = self._cover_runs(list(memo_key[1:]), runs)
        return got

    def _runs_need(self, layers: list[list[int]], wild: int, runs: int, spare: int,
                   cover: RunsCover | None) -> int:
        """:meth:`need` of a hand given as rank layers per suit (see :meth:`runs_needs`),
        with its runs cover if known."""
        if cover is None:
            cover = self._remembered_runs_cover(layers, runs)
        total, fillable, span, run_ranks = cover
        need = total - (wild if wild < fillable else fillable)
        if spare < 0:
            return need
        # the natural cards no planned run holds or could grow to hold (as
        # loose_cards finds them)
        if self.same_suit_runs:
            loose = 0
            for suit in range(4):
                loose += self._suit_loose_cards(layers[suit], run_ranks[suit], span[suit])
            return need + (loose - spare if loose > spare else 0)
        loose = 0
        absorbed = 0
        taken = run_ranks[0]
        have = 0
        for layer in layers:
            once = layer[0]
            for ranks in layer:
                loose += ranks.bit_count()
            loose -= (once & taken).bit_count()
            have |= layer[1] | (once & ~taken)
        grown = span[0]
        if grown and loose:
            grown = grow_span(grown, have)
            for layer in layers:
                for ranks in layer:
                    absorbed += (grown & ranks).bit_count()
                absorbed -= (grown & layer[0] & taken).bit_count()
        loose -= absorbed
        return need + (loose - spare if loose > spare else 0)
