"""The race of an all-at-once final round of three runs, measured by *plans*.

In such a round (liverpool's and remi's last: three runs of one suit, the
whole hand down at once; london's: all of it but one card discarded) a hand
is worth the chance that the seat puts it all down before any opponent goes
out. :class:`PlanRace` estimates it from the hand's *plans*: the contract's
runs as run windows of its suits, of the lengths that make up the cards
that go down (13 cards: two runs of four and one of five; 12 cards: three
of four, as in london after its buy: 13 cards after the draw, one
discarded). For each plan:

- the hand holds some of the window cards (a second copy fills a second
  window over the same ranks), wild cards fill gaps up to the ruleset's
  limit per run, and the rest are *missing*;
- a missing card is *live* when the seat has not seen all its copies (they
  may still be drawn), otherwise only a wild card drawn later can fill it;
- each own turn the seat draws one card (and sees one upcard, counted as
  ``look`` of a second draw), which fills a gap with the chance that it is
  one of the live missing cards or a live wild card.

That makes the chance the plan is complete by each own turn ``t``; times
the chance that nobody went out before (the ``expert``'s round-end model),
summed over ``t``, it is the plan's chance of going out first. The hand is
worth its best plan's (among those missing at most ``slack`` cards more
than the fewest). Unlike the count of cards missing (:mod:`.planner`) this
sees which gaps can still be filled and how many copies are left of each,
and it compares hands by their whole future, not the next draw alone.

>>> from liverpool import load_rules, parse_cards
>>> from liverpool.cards import make_deck
>>> race = PlanRace(load_rules("liverpool"))
>>> hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 4C 5C")
>>> pool = make_deck(2, 2)
>>> for c in hand:
...     pool.remove(c)
>>> race.setup(pool, [1.0] + [0.95 ** t for t in range(1, 22)], 13)
>>> one_short = race.value(hand)
>>> two_short = race.value(parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 4C KD"))
>>> 0 < two_short < one_short < 1, race.value([*hand, *parse_cards("7H")])
(True, 1.0)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..rules import Rules

__all__ = ["PlanRace"]


def _windows(length: int) -> tuple[int, ...]:
    """The run windows of ``length`` ranks as rank masks (the ace low or high)."""
    out = [sum(1 << r for r in range(low, low + length)) for low in range(1, 15 - length)]
    out.append(sum(1 << r for r in range(15 - length, 14)) | 1 << 1)
    return tuple(out)


class PlanRace:
    """Hands of an all-at-once round of three runs of one suit, valued by
    their plans (see the module text)."""

    def __init__(self, rules: Rules, horizon: int = 20, look: float = 0.5, top: int = 8,
                 slack: int = 1) -> None:
        self.rules = rules
        self.horizon = horizon
        self.look = look
        self.top = top
        self.slack = slack
        self._wild = [rules.is_wild(Card.from_index(i)) for i in range(53)]
        self._live: list[list[int]] = []
        self._jokers = 0
        self._n = 1
        self._first: list[float] = []
        self._total = 0
        self._shape: tuple[tuple[int, tuple[int, ...], int], ...] = ()
        self._memo: dict[tuple[int, ...], float] = {}
        self._miss_memo: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self._chance_memo: dict[tuple[int, int, int, int], float] = {}
        #: the cards (suit, rank) the best plans of the last ``value(..., near=True)`` miss
        self.near: set[tuple[int, int]] = set()
        self.setup([], [1.0], 13)  # (nothing unseen yet: set up for each decision)

    @staticmethod
    def applies(rules: Rules, sets: int, runs: int, total: int, spare: int = 0) -> bool:
        """Whether a contract of ``sets`` and ``runs`` with ``total`` cards after
        the draw, ``spare`` of them discarded as the rest goes down, is one this
        race measures: three runs of one suit, no sets, 12 to 16 cards down, no
        runs round the corner (london's ace rule allows none in runs of four,
        so there it measures 12 cards down: three runs of four)."""
        down = total - spare
        wrap = rules.run_wrap == "never" or (rules.run_wrap == "three_beside_ace" and down == 12)
        return sets == 0 and runs == 3 and rules.run_same_suit and wrap and 12 <= down <= 16

    def _cap(self, length: int) -> int:
        """The wild cards a run of ``length`` may hold."""
        rules = self.rules
        naturals = max(1, rules.min_naturals_run)
        if rules.no_adjacent_wilds_in_run or rules.naturals_at_least_wilds:
            naturals = max(naturals, (length + 1) // 2)
        return max(0, length - naturals)

    def setup(self, pool: Sequence[Card], first: Sequence[float], total: int,
              spare: int = 0) -> None:
        """Set the cards the seat has not seen (``pool``, one entry per copy),
        the chance ``first[t]`` that nobody went out before own turn ``t``, the
        cards the hand holds after a draw (``total``) and how many of them are
        discarded as the rest goes down (``spare``: 1 in london's last round)
        for the next :meth:`value` calls."""
        live = [[0] * 14 for _ in range(4)]
        jokers = 0
        for c in pool:
            if self._wild[c.index]:
                jokers += 1
            else:
                live[c.suit][c.rank] += 1
        self._live = live
        self._jokers = jokers
        self._n = max(1, len(pool))
        self._first = list(first)
        self._total = total
        last = total - spare - 8
        self._shape = ((last, _windows(last), self._cap(last)), (4, _windows(4), self._cap(4)))
        self._memo = {}
        self._miss_memo = {}
        self._chance_memo = {}
        self.near = set()

    def value(self, hand: Sequence[Card], near: bool = False) -> float:
        """The chance of going out first with ``hand``: after this turn's draw
        (``total`` cards) 1.0 when it all goes down now (all but ``spare``
        cards) and 0.0 otherwise (a card must be discarded first); after the
        discard (one card fewer) the chance of going out first from the next
        draw on. ``near``: remember in :attr:`near` the cards the best plans miss."""
        key = tuple(sorted(c.index for c in hand))
        got = self._memo.get(key)
        if got is not None and not near:
            return got
        got = self._memo[key] = self._value(hand, near)
        return got

    def _missing(self, suit: int, bits: int, second: int) -> tuple[int, int, int]:
        """(count, live copies summed, dead count) of the missing ranks ``bits``
        of ``suit``; ``second``: the ranks among them missing a second time."""
        key = (suit, bits, second)
        got = self._miss_memo.get(key)
        if got is None:
            live = self._live[suit]
            lsum = dead = n = 0
            b = bits
            while b:
                low = b & -b
                r = low.bit_length() - 1
                b ^= low
                n += 1
                have = live[r] - (1 if second & low else 0)
                if have > 0:
                    lsum += have
                else:
                    dead += 1
            got = self._miss_memo[key] = (n, lsum, dead)
        return got

    def _value(self, hand: Sequence[Card], near: bool) -> float:
        wild_of = self._wild
        have1 = [0, 0, 0, 0]  # per suit, the ranks held
        have2 = [0, 0, 0, 0]  # and those held twice
        wild = 0
        for c in hand:
            if wild_of[c.index]:
                wild += 1
                continue
            bit = 1 << c.rank
            s = c.suit
            if have1[s] & bit:
                have2[s] |= bit
            else:
                have1[s] |= bit
        (_last, last_windows, last_cap), (_four, four_windows, four_cap) = self._shape
        top = self.top
        wl = sorted(((wm & have1[s]).bit_count(), s, wm) for s in range(4)
                    for wm in last_windows)[-top:]
        w4 = sorted(((wm & have1[s]).bit_count(), s, wm) for s in range(4)
                    for wm in four_windows)[-top:]
        missing = self._missing
        plans: list[tuple[int, int, int, int, int]] = []
        slots_of: list[list[tuple[int, int]]] = []
        n4 = len(w4)
        for _hf, sf, mf in wl:
            for a in range(n4):
                _ha, sa, ma = w4[a]
                for b in range(a, n4):
                    _hb, sb, mb = w4[b]
                    rem = lsum = dead = fillable = 0
                    t1 = [0, 0, 0, 0]  # the ranks whose first copy a window took
                    t2 = [0, 0, 0, 0]  # and the second
                    m1 = [0, 0, 0, 0]  # the ranks missing once already
                    slots: list[tuple[int, int]] = []
                    for s, wm, cap in ((sf, mf, last_cap), (sa, ma, four_cap),
                                       (sb, mb, four_cap)):
                        got1 = wm & have1[s] & ~t1[s]
                        t1[s] |= got1
                        rest = wm & ~got1
                        got2 = rest & have2[s] & ~t2[s]
                        t2[s] |= got2
                        rest &= ~got2
                        if not rest:
                            continue
                        second = rest & m1[s]
                        m1[s] |= rest
                        n, ls, dd = missing(s, rest, second)
                        rem += n
                        lsum += ls
                        dead += dd
                        fillable += cap if cap < n else n
                        if near:
                            slots.append((s, rest))
                    fill = wild if wild < fillable else fillable
                    room = fillable - fill
                    if dead > fill:  # the wild cards fill the dead gaps first
                        dead -= fill
                        if dead > room:
                            continue  # more dead gaps than wild cards may fill
                    else:
                        if fill > dead and rem > dead:  # then live ones
                            lsum -= lsum * (fill - dead) // (rem - dead)
                        dead = 0
                    plans.append((rem - fill, lsum, dead, room, len(plans)))
                    if near:
                        slots_of.append(slots)
        if not plans:
            return 0.0
        low = min(p[0] for p in plans)
        size = len(hand)
        if size >= self._total:
            return 1.0 if low == 0 else 0.0
        best = 0.0
        seen: set[tuple[int, int, int, int]] = set()
        for k, lsum, dead, room, i in plans:
            if k > low + self.slack:
                continue
            if near:
                for s, bits in slots_of[i]:
                    for r in range(1, 14):
                        if bits >> r & 1:
                            self.near.add((s, r))
            sig = (k, lsum, dead, room)
            if sig in seen:
                continue
            seen.add(sig)
            v = self._chance(*sig)
            if v > best:
                best = v
        return best

    def _chance(self, k: int, lsum: int, dead: int, room: int) -> float:
        key = (k, lsum, dead, room)
        got = self._chance_memo.get(key)
        if got is None:
            got = self._chance_memo[key] = self._chance_of(k, lsum, dead, room)
        return got

    def _chance_of(self, k: int, lsum: int, dead: int, room: int) -> float:
        """The chance of going out first with ``k`` cards missing, ``lsum`` live
        copies of the live ones, ``dead`` gaps only a wild card can fill and
        ``room`` for wild cards."""
        first = self._first
        if k == 0:  # all of it goes down after the next draw (london, after its buy)
            return first[1] if len(first) > 1 and self.horizon >= 1 else 0.0
        n = self._n
        jokers = self._jokers if room > 0 else 0
        look = self.look
        per = lsum / max(1, k - dead)
        dist = [0.0] * (k + 1)  # dist[m]: the chance that m cards are still missing
        dist[k] = 1.0
        value = 0.0
        for t in range(1, min(self.horizon, len(first) - 1) + 1):
            new = [0.0] * (k + 1)
            for m in range(1, k + 1):
                pm = dist[m]
                if not pm:
                    continue
                q = min(1.0, (max(0, m - dead) * per + jokers) / n)
                q = 1.0 - (1.0 - q) * (1.0 - look * q)
                new[m] += pm * (1.0 - q)
                new[m - 1] += pm * q
            value += new[0] * first[t]
            new[0] = 0.0
            dist = new
        return value
