"""Deals fitted to what the other players did (``liverpool.bots.inference``):
consistent with the seat's view, and closer to real hands than random deals."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from liverpool import Game, load_rules
from liverpool.actions import Draw
from liverpool.bots import make_bot
from liverpool.bots.inference import fit_deal
from liverpool.bots.planner import HandPlanner
from liverpool.bots.search import deal_sample
from liverpool.bots.whereabouts import card_whereabouts, passed_over, stock_draws
from liverpool.cards import Card
from liverpool.melds import lay_down_mode
from liverpool.views import SeatViews


def positions(preset: str, games: int, every: int = 5) -> Iterator[tuple[Game, int]]:
    """Positions of games of four ``basic`` bots: (game, seat to move), every
    ``every`` actions."""
    rules = load_rules(preset)
    for g in range(games):
        game = Game(rules, players=4, seed=40 + g)
        bots = [make_bot("basic", rules, seed=s) for s in range(4)]
        views = SeatViews(game)
        step = 0
        while not game.is_over:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions()
            if step % every == 0:
                yield game, seat
            game.apply(bots[seat].choose(views.view(seat, legal), legal))
            step += 1


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["liverpool", "london", "dansk", "remi"])
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_a_fitted_deal_is_consistent_with_the_view(preset: str) -> None:
    rng = random.Random(5)
    checked = 0
    for game, seat in positions(preset, 1, every=9):
        rules = game.rules
        view = game.view(seat)
        planner = HandPlanner(rules)
        unseen, known = card_whereabouts(rules, view)
        hands, stock = deal_sample(view, unseen, known, rng)
        before = Counter(c for h in hands for c in h) + Counter(stock)
        fit_deal(rules, view, known, hands, stock, rng, planner)
        assert Counter(c for h in hands for c in h) + Counter(stock) == before
        assert [len(h) for h in hands] == list(view.hand_sizes)
        assert len(stock) == view.stock_size
        assert hands[seat] == list(view.hand)
        for s in range(4):
            if s != seat:  # the cards seen going into a hand stay in it
                assert not Counter(known[s][:view.hand_sizes[s]]) - Counter(hands[s])
        # the fitted deal builds a game of the same view
        other = Game.from_view(rules, view, hands, stock, seed=1)
        assert other.view(seat).hand == view.hand
        checked += 1
    assert checked > 20


@pytest.mark.slow
@pytest.mark.no_cover  # whole games of the bots: their lines are covered by quicker tests; traced 4-5x slower
def test_fitted_hands_want_fewer_passed_over_cards_and_miss_fewer() -> None:
    """On positions of real games, fitted hands of players not yet down would
    have wanted fewer of the cards their players passed over than random hands,
    and miss fewer cards for the contract: as the real hands do."""
    rng = random.Random(2)
    planner = HandPlanner(load_rules("liverpool"))
    totals = {k: [0.0, 0.0] for k in ("real", "random", "fitted")}
    cases = 0
    for game, seat in positions("liverpool", 2, every=7):
        rules = game.rules
        view = game.view(seat)
        if lay_down_mode(rules, view.round) != "normal":
            continue
        c = view.contract
        passed = passed_over(view)
        unseen, known = card_whereabouts(rules, view)

        def measure(name: str, hand: list[Card], cards: list[Card],
                    sets: int = c.sets, runs: int = c.runs) -> None:
            base = planner.need(hand, sets, runs)
            totals[name][0] += base
            totals[name][1] += sum(planner.need_with(hand, x, sets, runs) < base
                                   for x in cards)

        for _ in range(4):
            rand, _stock = deal_sample(view, unseen, known, rng)
            fitted, stock = deal_sample(view, unseen, known, rng)
            fit_deal(rules, view, known, fitted, stock, rng, planner)
            for o in range(4):
                if o == seat or view.laid_down[o] or not passed[o]:
                    continue
                measure("random", rand[o], passed[o])
                measure("fitted", fitted[o], passed[o])
                measure("real", list(game.hand(o)), passed[o])
                cases += 1
    assert cases > 100
    need, wanted = {k: v[0] / cases for k, v in totals.items()}, \
        {k: v[1] / cases for k, v in totals.items()}
    assert wanted["fitted"] < wanted["random"] / 4
    assert need["real"] < need["random"]
    assert need["fitted"] < need["random"] - 0.5


@pytest.mark.parametrize("preset", ["liverpool", "london", "dansk"])
def test_stock_draws_count_the_draws_before_laying_down(preset: str) -> None:
    """A stock draw counts once the card is drawn: after the buy window that
    the choice opens (liverpool, london), at once where the others buy first
    (dansk), and in london's first turn, where no upcard is turned down."""
    rules = load_rules(preset)
    game = Game(rules, players=4, seed=8)
    bots = [make_bot("basic", rules, seed=s) for s in range(4)]
    views = SeatViews(game)
    expected = [0] * 4
    chosen: int | None = None  # the seat that chose the stock and has not drawn yet
    start = game.round
    while game.round == start:
        mover = game.to_move
        assert mover is not None
        legal = game.legal_actions()
        view = views.view(mover, legal)
        action = bots[mover].choose(view, legal)
        if view.phase == "draw" and action == Draw("stock") and not view.laid_down[mover]:
            chosen = mover
        game.apply(action)
        if chosen is not None and game.phase != "buy":
            expected[chosen] += 1
            chosen = None
        if game.round == start:
            assert stock_draws(game.view(0)) == expected
    assert sum(expected) > 5
