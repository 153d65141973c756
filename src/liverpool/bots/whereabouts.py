"""What a seat knows of the cards it cannot see.

:func:`card_whereabouts` splits the cards of the decks a seat cannot see
into those it saw go into another hand this round (taken or bought
discards, cards handed back by a call, a joker taken in a swap, and not
come out again) and the rest, the *unseen* cards: the stock and the unknown
parts of the other hands. The bots sample their determinizations from it
(``expert``'s futures, ``search``'s deals, the coach's positions), so none
of them ever reads a hidden card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import Card, make_deck
from ..events import (
    Bought,
    Called,
    Discarded,
    Drew,
    Event,
    JokerSwapped,
    LaidDown,
    LaidOff,
    RoundStarted,
    StockChosen,
    TookDiscard,
    UpcardTurned,
)
from ..rules import Rules
from ..views import SeatView

__all__ = ["card_whereabouts", "passed_over", "stock_draws", "unseen_cards"]


def unseen_cards(rules: Rules, view: SeatView) -> list[Card]:
    """The cards ``view.seat`` has not seen (the stock and the unknown parts of
    the other hands), as a list sorted by card index.

    Uses the events of the current round in ``view.events`` to remove cards
    seen going into other hands (see :func:`card_whereabouts`).

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=4, seed=3)
    >>> v = game.view(0)
    >>> len(unseen_cards(rules, v)) == v.stock_size + sum(v.hand_sizes[1:])
    True
    """
    return card_whereabouts(rules, view)[0]


def card_whereabouts(rules: Rules, view: SeatView) -> tuple[list[Card], list[list[Card]]]:
    """(unseen, known): the cards ``view.seat`` has not seen, sorted by card
    index, and per seat the cards it saw go into that seat's hand this round
    and not come out again (taken and bought discards, cards handed back by a
    call, jokers taken in a swap; the viewer's own entry is empty).

    Every card of the decks is in the viewer's hand, on the table, in the
    discard pile, in ``known`` or in ``unseen``, exactly once: a sampler deals
    each seat its known cards and the unseen ones at random.

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=4, seed=3)
    >>> unseen, known = card_whereabouts(rules, game.view(0))
    >>> known
    [[], [], [], []]
    """
    seat = view.seat
    counts = Counter(make_deck(rules.decks_for(view.players), rules.jokers_for(view.players)))
    counts.subtract(view.hand)
    for m in view.table:
        counts.subtract(m.cards)
    counts.subtract(view.discard_pile)
    known: list[Counter[Card]] = [Counter() for _ in range(view.players)]
    events = _this_round(view)
    last_discarder = -1
    for e in events:
        if isinstance(e, TookDiscard | Bought):
            known[e.seat][e.card] += 1
        elif isinstance(e, Discarded):
            last_discarder = e.seat
            _drop(known[e.seat], (e.card,))
        elif isinstance(e, LaidDown):
            _drop(known[e.seat], [c for m in e.melds for c in m.cards])
        elif isinstance(e, LaidOff):
            _drop(known[e.seat], (e.card,))
        elif isinstance(e, JokerSwapped):
            _drop(known[e.seat], (e.card,))
            known[e.seat][e.wild] += 1
        elif isinstance(e, Called) and last_discarder >= 0 and e.call != "shanghai":
            for c in (e.cards if e.call == "liverpool_pile" else (e.card,)):
                known[last_discarder][c] += 1
    placed: list[list[Card]] = [[] for _ in range(view.players)]
    for other in range(view.players):
        if other == seat:
            continue
        for c, n in known[other].items():
            have = counts.get(c, 0)
            take = min(have, n)
            counts[c] = have - take
            placed[other].extend([c] * take)
        placed[other].sort(key=lambda c: c.index)
    out: list[Card] = []
    for c, n in counts.items():
        if n > 0:
            out.extend([c] * n)
    out.sort(key=lambda c: c.index)
    return out, placed


def passed_over(view: SeatView) -> list[list[Card]]:
    """Per seat, the cards it was seen to pass over this round before laying
    down: the upcards it left for the stock and the cards it discarded (the
    viewer's own entry is empty). A player who wants a card does neither, so
    these tell what the other hands are unlikely to hold cards for.

    >>> from liverpool import Game, load_rules
    >>> from liverpool.actions import Draw, Pass
    >>> game = Game(load_rules("liverpool"), players=4, seed=3)
    >>> seat = game.to_move
    >>> top = game.view(seat).top_discard
    >>> _ = game.apply(Draw("stock"))
    >>> passed_over(game.view((seat + 1) % 4))[seat] == [top]
    True
    """
    seat = view.seat
    out: list[list[Card]] = [[] for _ in range(view.players)]
    events = _this_round(view)
    down = [False] * view.players
    top: Card | None = None
    for e in events:
        if isinstance(e, UpcardTurned):
            top = e.card
        elif isinstance(e, Discarded):
            if not down[e.seat] and e.seat != seat:
                out[e.seat].append(e.card)
            top = e.card
        elif isinstance(e, StockChosen):
            if top is not None and not down[e.seat] and e.seat != seat:
                out[e.seat].append(top)
        elif isinstance(e, TookDiscard | Bought | Called):
            top = None  # the card under it is not followed
        elif isinstance(e, LaidDown):
            down[e.seat] = True
    return out


def stock_draws(view: SeatView) -> list[int]:
    """Per seat, how many cards it drew from the stock this round before laying
    down (unseen cards that came into its hand besides the deal).

    >>> from liverpool import Game, load_rules
    >>> from liverpool.actions import Draw, Pass
    >>> game = Game(load_rules("liverpool"), players=4, seed=3)
    >>> seat = game.to_move
    >>> _ = game.apply(Draw("stock"))
    >>> stock_draws(game.view(seat))[seat]  # (the others may buy the upcard first)
    0
    >>> while game.phase == "buy":
    ...     _ = game.apply(Pass(), seat=game.to_move)
    >>> stock_draws(game.view(seat))[seat]
    1
    """
    out = [0] * view.players
    down = [False] * view.players
    for e in _this_round(view):
        if isinstance(e, Drew):
            if not down[e.seat]:
                out[e.seat] += 1
        elif isinstance(e, LaidDown):
            down[e.seat] = True
    return out


def _this_round(view: SeatView) -> tuple[Event, ...]:
    """The events of ``view`` from the current round's start on."""
    events = view.events
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], RoundStarted):
            return events[i:]
    return events


def _drop(counter: Counter[Card], cards: Sequence[Card]) -> None:
    for c in cards:
        if counter.get(c, 0) > 0:
            counter[c] -= 1
