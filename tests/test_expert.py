"""The expert's round-end risk model and its expected-points evaluation."""

from __future__ import annotations

import dataclasses
import random
import time
from typing import Any

from liverpool import Game, load_rules
from liverpool.actions import Discard
from liverpool.bots.expert import ExpertBot, _risk_tables, unseen_cards
from liverpool.cards import parse_cards
from liverpool.simulate import play_game
from liverpool.views import SeatView


def _replace(view: SeatView, **changes: Any) -> SeatView:
    return dataclasses.replace(view, **changes)


def _view(preset: str = "liverpool", seed: int = 3) -> tuple[Game, SeatView]:
    game = Game(load_rules(preset), players=4, seed=seed)
    return game, game.view(0)


def test_round_end_chances_form_a_distribution() -> None:
    game, view = _view()
    ends, tail = _risk_tables(game.rules, view, 0, 10)
    assert len(ends) == 12 and len(tail) == 11
    assert all(p >= 0 for p in ends)
    assert abs(sum(ends) - 1.0) < 1e-9
    # nobody is down at the deal: the round hardly ends before the next turn
    assert ends[0] < 0.01
    for t in range(11):
        for k in range(1, 7):
            assert 0.0 < tail[t][k] <= sum(ends[t:]) + 1e-9
        # more cards left after laying down: a bigger share is still held at the end
        assert all(tail[t][k] <= tail[t][k + 1] + 1e-12 for k in range(1, 6))


def test_an_opponent_down_with_one_card_makes_the_end_near() -> None:
    game, view = _view()
    ends, _ = _risk_tables(game.rules, view, 0, 10)
    close = _replace(view, laid_down=(False, True, False, False), hand_sizes=(10, 1, 10, 10))
    near, _ = _risk_tables(game.rules, close, 0, 10)
    assert near[0] > 0.4 > ends[0]
    # and the seat's own state does not count as an opponent's
    mine = _replace(view, laid_down=(True, False, False, False), hand_sizes=(1, 10, 10, 10))
    assert _risk_tables(game.rules, mine, 0, 10)[0] == ends


def test_the_risk_playout_charges_for_points_held() -> None:
    game, view = _view()
    rules = game.rules
    bot = ExpertBot(rules, seed=1)
    bot._ends, bot._tail = _risk_tables(rules, _replace(
        view, laid_down=(False, True, False, False), hand_sizes=(10, 1, 10, 10)), 0, 10)
    # round 1 of liverpool: two sets. The same hand with a 3 or an ace as dead card
    low = parse_cards("9H 9S 9D 5C 5D 2H 7S JC 3D")
    high = parse_cards("9H 9S 9D 5C 5D 2H 7S JC AD")
    pool = unseen_cards(rules, view)
    rng = random.Random(5)
    for _ in range(20):
        future = rng.sample(pool, 13)
        lo = bot._risk_playout(view, list(low), future, 0)
        hi = bot._risk_playout(view, list(high), future, 0)
        assert hi < lo <= 0.0


def test_the_expert_dumps_a_high_card_when_an_opponent_is_about_to_go_out() -> None:
    game, view = _view()
    rules = game.rules
    hand = parse_cards("9H 9S 9D 5C 5D 2H 7S JC 3D AD")
    close = _replace(view, hand=tuple(sorted(hand, key=lambda c: c.index)),
                               laid_down=(False, True, False, False),
                               hand_sizes=(10, 1, 10, 10), phase="play")
    bot = ExpertBot(rules, seed=2, iterations=16, time_ms=10_000)
    bot._round = view.round
    bot._deadline = time.perf_counter() + 60.0
    bot._ends, bot._tail = _risk_tables(rules, close, 0, bot.horizon)
    legal = [Discard(c) for c in dict.fromkeys(close.hand)]
    choice = bot._search_discard(close, legal, Discard(parse_cards("3D")[0]))
    assert choice == Discard(parse_cards("AD")[0])


def test_expert_games_are_reproducible_with_the_iteration_budget() -> None:
    rules = load_rules("remi")
    options = [{"iterations": 3, "time_ms": 1e6}, {}, {}]
    a = play_game(rules, ["expert", "basic", "basic"], seed=11, bot_options=options)
    b = play_game(rules, ["expert", "basic", "basic"], seed=11, bot_options=options)
    assert a.error is None and b.error is None
    assert (a.totals, a.actions, a.buys) == (b.totals, b.actions, b.buys)
    old = play_game(rules, ["expert", "basic", "basic"], seed=11,
                    bot_options=[{"iterations": 3, "time_ms": 1e6, "risk": False}, {}, {}])
    assert old.error is None
