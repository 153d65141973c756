"""The ``expert``'s playouts of an all-at-once final round.

In such a round the whole hand goes down at once, so a hand is only worth
how soon all of it makes the contract. A playout (:meth:`FinalRace.playout`)
draws the sampled cards turn after turn, goes out as soon as the whole hand
makes the contract, and otherwise throws the card whose loss leaves the
fewest cards missing. Each own turn is weighted by the chance that an
opponent goes out before it (the ``expert``'s round-end model), and the
outcome is scored either in points (the points held when the round ends,
minus a bonus for going out first) or, in the game's last round, as the
chance of winning the game (:class:`WinChances`): the score sheet decides
whether holding a few points less or going out a turn sooner matters more.

>>> chances = WinChances(totals=(100, 180, 200, 220), seat=0, hand_sizes=(12, 12, 12, 12))
>>> chances.out > 0.99 and chances.held(60) > chances.held(120)
True
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Sequence

from ..cards import Card
from ..melds import lay_down_mode
from ..rules import Rules
from ..views import SeatView
from .planner import HandPlanner

__all__ = ["FinalRace", "WinChances", "held_at_least"]

#: points a card that an opponent still holds when the last round ends, and
#: the spread of a 12-card hand, measured on games of four ``basic`` bots (liverpool)
_POINTS_PER_CARD = 9.85
_SPREAD_12 = 36.0

#: per rank, the ranks (bits) one or two away in its suit
_NEAR2 = tuple(sum(1 << q for q in (r - 2, r - 1, r + 1, r + 2) if 1 <= q <= 13)
               for r in range(14))


def held_at_least(points: int, cards: int) -> float:
    """The chance that an opponent who does not go out of the last round,
    holding ``cards`` cards, holds at least ``points`` points (a normal law
    fitted to games of ``basic`` bots, with a half step for the card points'
    steps of 5).

    >>> round(held_at_least(118, 12), 2), held_at_least(0, 12) > 0.99
    (0.53, True)
    """
    mean = _POINTS_PER_CARD * cards
    spread = _SPREAD_12 * math.sqrt(cards / 12.0)
    return 0.5 * math.erfc((points - 2.5 - mean) / (spread * math.sqrt(2.0)))


class WinChances:
    """A seat's chance of winning the game from the score sheet before the
    last round: :attr:`out` when it goes out first, :meth:`held` when an
    opponent (each as likely) goes out while the seat holds some points.
    A shared lowest total counts as a win, as in ``liverpool simulate``."""

    def __init__(self, totals: Sequence[int], seat: int, hand_sizes: Sequence[int]) -> None:
        self.mine = totals[seat]
        self.others = [(totals[o], max(1, hand_sizes[o])) for o in range(len(totals))
                       if o != seat]
        out = 1.0
        for total, size in self.others:
            out *= held_at_least(self.mine - total, size)
        self.out = out
        self._memo: dict[int, float] = {}

    def held(self, points: int) -> float:
        """The chance of winning when an opponent goes out and the seat holds ``points``."""
        got = self._memo.get(points)
        if got is not None:
            return got
        mine = self.mine + points
        others = self.others
        total = 0.0
        for j, (tj, _size) in enumerate(others):
            if mine > tj:
                continue
            p = 1.0
            for k, (tk, size) in enumerate(others):
                if k != j:
                    p *= held_at_least(mine - tk, size)
            total += p
        got = self._memo[points] = total / max(1, len(others))
        return got


class FinalRace:
    """Playouts of an all-at-once round for one seat (see the module text)."""

    def __init__(self, rules: Rules, planner: HandPlanner, horizon: int,
                 cost_weight: float = 1.0) -> None:
        self.rules = rules
        self.planner = planner
        self.horizon = horizon
        self.cost_weight = cost_weight
        cards = [Card.from_index(i) for i in range(53)]
        self._points = [rules.card_points(c) for c in cards]
        self._wild = [rules.is_wild(c) for c in cards]

    def playout(self, view: SeatView, hand: list[Card], future: list[Card], draw: int,
                ends: Sequence[float], first: Sequence[float], bonus: float,
                win: WinChances | None = None) -> float:
        """The value of one sampled future (higher is better).

        ``draw`` 1: this turn's draw is still to come (the first card of
        ``future``); 0: ``hand`` holds this turn's draw; -1: this turn is over.
        ``ends[t]`` is the chance that an opponent goes out between own turns
        ``t`` and ``t + 1``, ``first[t]`` the chance that nobody did before own
        turn ``t``. Without ``win`` the value is minus the expected points held
        when the round ends (times ``cost_weight``), plus ``bonus`` times the
        chance of going out first; with ``win`` it is the chance of winning the game.
        """
        c = view.contract
        s, r = c.sets, c.runs
        spare = 1 if lay_down_mode(self.rules, view.round) == "all_but_one" else 0
        planner = self.planner
        points = self._points
        wild = self._wild
        h = list(hand)
        pos = 0
        t = 0
        if draw == 1:
            h.append(future[0])
            pos = 1
        post_draw = draw >= 0
        horizon = self.horizon
        n = len(future)
        value = 0.0  # the chance of winning so far, or the expected points held
        while True:
            if post_draw:
                naturals = list(dict.fromkeys(x for x in h if not wild[x.index]))
                got = planner.needs_without(h, [None, *naturals], s, r, spare)
                whole, needs = got[0], got[1:]
                if whole == 0:  # the whole hand goes down: out
                    if win is not None:
                        return value + first[t] * win.out
                    return bonus * first[t] - self.cost_weight * value
                if naturals:
                    h.remove(self._throw(h, naturals, needs))
            held = sum(points[x.index] for x in h)
            last = t >= horizon or pos >= n
            if win is not None:
                chance = win.held(held)
                value += ends[t] * chance
                if last:
                    return value + sum(ends[t + 1:]) * chance
            else:
                value += ends[t] * held
                if last:
                    return -self.cost_weight * (value + sum(ends[t + 1:]) * held)
            h.append(future[pos])
            pos += 1
            t += 1
            post_draw = True

    def discard_order(self, view: SeatView, order: Sequence[Card], pool: Sequence[Card],
                      deadline: float = math.inf) -> list[Card]:
        """The natural cards of ``order`` (the hand's discards, best first by
        the ``basic`` order) ranked for the race: first by the cards the hand
        then misses, then by its *outs*, counted on ``pool`` (the cards the
        seat has not seen, as many of each as are left): the cards whose draw
        lets it go out at once (each worth three) or brings it a card nearer
        (worth one); then by the ``basic`` order. A discard that keeps
        cards nobody can draw any more (their copies are in the discard pile
        or on the table) loses to one that keeps live cards. Past
        ``deadline`` (a :func:`time.perf_counter` time) the outs are not
        counted further and the ``basic`` order breaks the ties alone.
        """
        c = view.contract
        s, r = c.sets, c.runs
        spare = 1 if lay_down_mode(self.rules, view.round) == "all_but_one" else 0
        planner = self.planner
        hand = list(view.hand)
        cands = [x for x in dict.fromkeys(order) if not self._wild[x.index]]
        if len(cands) < 2:
            return cands
        needs = planner.needs_without(hand, cands, s, r, spare)
        low = min(needs)
        keep = [i for i, nd in enumerate(needs) if nd == low]
        score = [0] * len(cands)
        if len(keep) > 1:
            for y, n in Counter(pool).items():
                if time.perf_counter() > deadline:
                    score = [0] * len(cands)
                    break
                after = planner.needs_without([*hand, y], [cands[i] for i in keep], s, r, spare)
                for i, nd in zip(keep, after, strict=True):
                    if nd == 0:
                        score[i] += 3 * n
                    elif nd < low:
                        score[i] += n
        ranked = sorted(range(len(cands)), key=lambda i: (needs[i], -score[i], i))
        return [cands[i] for i in ranked]

    def _throw(self, hand: list[Card], naturals: list[Card], needs: Sequence[int]) -> Card:
        """The playout's discard: the natural card whose loss leaves the fewest
        cards missing; among those the one with the fewest cards of its suit
        one or two ranks away, then the one with the most points."""
        low = min(needs)
        ties = [x for x, nd in zip(naturals, needs, strict=True) if nd == low]
        best = ties[0]
        if len(ties) > 1:
            wild = self._wild
            masks = [0, 0, 0, 0]
            for y in hand:
                if not wild[y.index]:
                    masks[y.suit] |= 1 << y.rank
            points = self._points
            best_key = (99, 0)
            for x in ties:
                key = ((masks[x.suit] & _NEAR2[x.rank]).bit_count(), -points[x.index])
                if key < best_key:
                    best, best_key = x, key
        return best
