"""Deals that fit what the other players did: the ``search`` bot's ``fit`` option.

A random deal of the unseen cards gives the other players hands that are
worse than real ones and full of cards for the upcards they left: a player
keeps the best of the cards it drew and takes a card it wants. Measured on
games of four ``basic`` bots, a real hand of a player not yet down still
missed 1.6 cards for the contract and would have wanted 0.10 of the cards
it passed over; a random hand missed 2.7 and wanted 2.0.

:func:`fit_deal` takes a deal of :func:`~liverpool.bots.search.deal_sample`
and, for each other player not yet down,

1. *keeps the best*: it deals the hand one more card for each card the
   player drew from the stock this round
   (:func:`~liverpool.bots.whereabouts.stock_draws`) and puts back into the
   stock, one by one, the card whose loss raises the hand's need least (the
   planner's need: cards missing for the contract; wild cards and the cards
   the player was seen to take stay);
2. *fits the passed-over cards*: while the hand would have wanted a card the
   player passed over (:func:`~liverpool.bots.whereabouts.passed_over`: it
   would have brought the hand nearer the contract), it swaps a random unknown
   card of the hand for a random card of the stock and keeps the swap when
   the hand wants no more of those cards than before (``swaps`` tries).

Those hands miss 1.7 cards and want 0.03 passed-over cards (the same
measure). Each deal is drawn afresh, so no deal is played twice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import Card
from ..melds import lay_down_mode
from ..rules import Rules
from ..views import SeatView
from .planner import HandPlanner, spare_of
from .whereabouts import passed_over, stock_draws

__all__ = ["fit_deal", "wanted_count"]


def wanted_count(planner: HandPlanner, hand: Sequence[Card], cards: Sequence[Card],
                 sets: int, runs: int, spare: int = -1) -> int:
    """How many of ``cards`` would each bring ``hand`` a card nearer the
    contract (the planner's need with ``spare``, as :meth:`HandPlanner.need`).

    >>> from liverpool import load_rules, parse_cards
    >>> planner = HandPlanner(load_rules("liverpool"))
    >>> wanted_count(planner, parse_cards("7H 7S 9C KD"), parse_cards("7C 4D"), 2, 0)
    1
    """
    if spare < 0:
        base = planner.need(hand, sets, runs)
        return sum(planner.need_with(hand, x, sets, runs) < base for x in cards)
    base = planner.need(hand, sets, runs, spare)
    return sum(planner.need([*hand, x], sets, runs, spare) < base for x in cards)


def fit_deal(rules: Rules, view: SeatView, known: Sequence[Sequence[Card]],
             hands: list[list[Card]], stock: list[Card], rng: random.Random,
             planner: HandPlanner, swaps: int = 40) -> None:
    """Change in place a deal consistent with ``view`` (``hands`` and ``stock``
    as :func:`~liverpool.bots.search.deal_sample` gives them, each hand's
    ``known`` cards first) so that the hands of the players not yet down fit
    what they did (see the module text). The deal stays consistent with
    ``view``: the same hand sizes and the same cards in all.

    >>> from collections import Counter
    >>> from liverpool import Game, load_rules
    >>> from liverpool.bots.search import deal_sample
    >>> from liverpool.bots.whereabouts import card_whereabouts
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=4, seed=3)
    >>> view = game.view(0)
    >>> unseen, known = card_whereabouts(rules, view)
    >>> rng = random.Random(1)
    >>> hands, stock = deal_sample(view, unseen, known, rng)
    >>> before = Counter(c for h in hands for c in h) + Counter(stock)
    >>> fit_deal(rules, view, known, hands, stock, rng, HandPlanner(rules))
    >>> [len(h) for h in hands] == list(view.hand_sizes), len(stock) == view.stock_size
    (True, True)
    >>> Counter(c for h in hands for c in h) + Counter(stock) == before
    True
    """
    c = view.contract
    spare = spare_of(lay_down_mode(rules, view.round))
    sets, runs = c.sets, c.runs
    passed = passed_over(view)
    draws = stock_draws(view)
    for o in range(view.players):
        if o == view.seat or view.laid_down[o]:
            continue
        hand = hands[o]
        fixed = min(len(known[o]), len(hand))  # the known cards come first
        more = min(draws[o], len(stock))
        if more and len(hand) > fixed:
            _keep_best(hand, fixed, stock, more, planner, sets, runs, spare, rng)
        if passed[o] and stock and len(hand) > fixed:
            _fit_passed(hand, fixed, stock, passed[o], planner, sets, runs, spare, swaps, rng)


def _keep_best(hand: list[Card], fixed: int, stock: list[Card], more: int,
               planner: HandPlanner, sets: int, runs: int, spare: int,
               rng: random.Random) -> None:
    """Deal ``hand`` ``more`` cards from the stock's top and put back, one by one,
    the unknown natural card whose loss raises its need least (ties at random);
    the stock is shuffled after."""
    hand += stock[:more]
    del stock[:more]
    for _ in range(more):
        free = [i for i in range(fixed, len(hand)) if not planner.is_wild(hand[i])]
        if free:
            needs = planner.needs_without(hand, [hand[i] for i in free], sets, runs, spare)
            low = min(needs)
            out = rng.choice([i for i, n in zip(free, needs, strict=True) if n == low])
        else:  # only wild cards unknown: one of them goes back
            out = rng.randrange(fixed, len(hand))
        stock.append(hand.pop(out))
    rng.shuffle(stock)


def _fit_passed(hand: list[Card], fixed: int, stock: list[Card], passed: Sequence[Card],
                planner: HandPlanner, sets: int, runs: int, spare: int, swaps: int,
                rng: random.Random) -> None:
    """Swap unknown cards of ``hand`` with the stock's while the hand would have
    wanted cards of ``passed`` (a swap is kept when it wants no more of them)."""

    def wanted() -> int:
        return wanted_count(planner, hand, passed, sets, runs, spare)

    now = wanted()
    for _ in range(swaps):
        if not now:
            return
        i = rng.randrange(fixed, len(hand))
        j = rng.randrange(len(stock))
        hand[i], stock[j] = stock[j], hand[i]
        after = wanted()
        if after <= now:
            now = after
        else:
            hand[i], stock[j] = stock[j], hand[i]
