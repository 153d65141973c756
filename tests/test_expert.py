"""The expert's round-end risk model and its expected-points evaluation."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from liverpool import Game, load_rules
from liverpool.actions import Discard
from liverpool.bots.expert import ExpertBot
from liverpool.bots.planner import HandPlanner
from liverpool.bots.round_end import out_tables, risk_tables
from liverpool.bots.whereabouts import unseen_cards
from liverpool.cards import parse_cards
from liverpool.melds import Meld
from liverpool.simulate import play_game
from liverpool.views import SeatView


def _replace(view: SeatView, **changes: Any) -> SeatView:
    return view._replace(**changes)


def _view(preset: str = "liverpool", seed: int = 3) -> tuple[Game, SeatView]:
    game = Game(load_rules(preset), players=4, seed=seed)
    return game, game.view(0)


def test_round_end_chances_form_a_distribution() -> None:
    game, view = _view()
    ends, tail = risk_tables(game.rules, view, 0, 10)
    assert len(ends) == 12
    assert len(tail) == 11
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
    ends, _ = risk_tables(game.rules, view, 0, 10)
    close = _replace(view, laid_down=(False, True, False, False), hand_sizes=(10, 1, 10, 10))
    near, _ = risk_tables(game.rules, close, 0, 10)
    assert near[0] > 0.4 > ends[0]
    # and the seat's own state does not count as an opponent's
    mine = _replace(view, laid_down=(True, False, False, False), hand_sizes=(1, 10, 10, 10))
    assert risk_tables(game.rules, mine, 0, 10)[0] == ends


def test_the_risk_playout_charges_for_points_held() -> None:
    game, view = _view()
    rules = game.rules
    bot = ExpertBot(rules, seed=1, out_bonus=0.0)
    bot._prepare(_replace(view, laid_down=(False, True, False, False),
                          hand_sizes=(10, 1, 10, 10)), 0)
    # round 1 of liverpool: two sets. The same hand with a 3 or an ace as dead card
    low = parse_cards("9H 9S 9D 5C 5D 2H 7S JC 3D")
    high = parse_cards("9H 9S 9D 5C 5D 2H 7S JC AD")
    pool = unseen_cards(rules, view)
    rng = random.Random(5)
    for _ in range(20):
        future = rng.sample(pool, 13)
        lo = bot._playout(view, list(low), future, 0)
        hi = bot._playout(view, list(high), future, 0)
        assert hi < lo <= 0.0


def test_going_out_first_is_worth_a_bonus() -> None:
    game, view = _view()
    rules = game.rules
    ends, _ = risk_tables(rules, view, 0, 10)
    first, outp = out_tables(ends, view, rules, 10)
    # the chance to be first out shrinks with every turn and every card kept
    assert first[0] == 1.0
    assert all(first[t + 1] <= first[t] for t in range(11))
    for t in range(11):
        assert all(0.0 <= outp[t][k + 1] <= outp[t][k] <= first[t] for k in range(1, 6))
    # a hand that can lay down now (two sets, one card left over) scores more
    # with the bonus than without it, and a dead hand does not
    ready = parse_cards("9H 9S 9D 5C 5D 5H 7S")
    dead = parse_cards("9H 4S 2D KC 7D 5H JS")
    plain, eager = ExpertBot(rules, seed=1, out_bonus=0.0), ExpertBot(rules, seed=1)
    for bot in (plain, eager):
        bot._round = view.round
        bot._prepare(view, 0)
    assert eager._bonus > 0.0 == plain._bonus
    pool = unseen_cards(rules, view)
    future = random.Random(3).sample(pool, 13)
    assert (eager._playout(view, list(ready), future, 0)
            > plain._playout(view, list(ready), future, 0))
    assert (eager._playout(view, list(dead), future[:1], 0)
            == plain._playout(view, list(dead), future[:1], 0))


def test_the_bonus_follows_the_score_sheet() -> None:
    game, view = _view()
    rules = game.rules
    bot = ExpertBot(rules, seed=1)
    bonus = {}
    for name, totals in (("even", (100, 100, 120, 130)), ("trailing", (160, 100, 120, 130)),
                         ("leading", (40, 100, 120, 130))):
        bot._prepare(_replace(view, round=4, totals=totals), 0)
        bonus[name] = bot._bonus
    assert bonus["leading"] < bonus["even"] < bonus["trailing"]
    flat = ExpertBot(rules, seed=1, standing=0)
    flat._prepare(_replace(view, round=4, totals=(160, 100, 120, 130)), 0)
    assert flat._bonus == bonus["even"]


def test_all_at_once_rounds_are_played_as_basic_without_the_final_race() -> None:
    from liverpool.actions import Draw
    from liverpool.bots import make_bot

    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=3)
    bots = [make_bot("basic", rules, seed=s) for s in range(4)]
    while not (game.round == 7 and game.to_move == 0 and game.phase == "draw"
               and Draw("discard") in game.legal_actions()):
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    view, legal = game.view(0), game.legal_actions()
    plain = ExpertBot(rules, seed=1, final_race=False)
    assert plain.choose(view, legal) == plain.basic.choose(view, legal)
    assert plain.last_iterations == 0


def test_the_expert_dumps_a_high_card_when_an_opponent_is_about_to_go_out() -> None:
    game, view = _view()
    rules = game.rules
    hand = parse_cards("9H 9S 9D 5C 5D 2H 7S JC 3D AD")
    close = _replace(view, hand=tuple(sorted(hand, key=lambda c: c.index)),
                               laid_down=(False, True, False, False),
                               hand_sizes=(10, 1, 10, 10), phase="play")
    bot = ExpertBot(rules, seed=2, iterations=16, time_ms=10_000)
    bot._deadline = time.perf_counter() + 60.0
    bot._prepare(close, 0)
    legal = [Discard(c) for c in dict.fromkeys(close.hand)]
    choice = bot._search_discard(close, legal, Discard(parse_cards("3D")[0]))
    assert choice == Discard(parse_cards("AD")[0])


@pytest.mark.slow
def test_expert_games_are_reproducible_with_the_iteration_budget() -> None:
    rules = load_rules("remi")
    options = [{"iterations": 3, "time_ms": 1e6}, {}, {}]
    a = play_game(rules, ["expert", "basic", "basic"], seed=11, bot_options=options)
    b = play_game(rules, ["expert", "basic", "basic"], seed=11, bot_options=options)
    assert a.error is None
    assert b.error is None
    assert (a.totals, a.actions, a.buys) == (b.totals, b.actions, b.buys)



def test_loose_cards_are_those_no_planned_meld_holds_or_grows_to() -> None:
    planner = HandPlanner(load_rules("liverpool"))
    # a set and a run (liverpool's round 2): the run's plan is four hearts,
    # 8H and 9H grow it, the fourth 3 is the set's; QD and JC are loose
    hand = parse_cards("4H 5H 6H 7H 8H 9H 3S 3D 3C 3H QD JC")
    need, used, melds = planner.plan(hand, 1, 1)
    assert need == 0
    assert sorted(map(str, planner.loose_cards(hand, used, melds))) == ["JC", "QD"]
    # the all-at-once count is the same cards
    assert planner.assess(hand, 1, 1, 0)[0] == 2


def test_leftover_fits_leaves_no_card_that_fits_the_table() -> None:
    """With ``leftover_fits`` a lay-down whose spare card fits a meld on the
    table (the kings) is worth more than one whose spare card (a queen, as
    many points) fits nothing; without it both are worth the same."""
    game, view = _view()
    rules = game.rules
    kings = Meld("set", tuple(parse_cards("KH KD KC")), 13)
    view = _replace(view, table=(kings,), laid_down=(False, True, False, False),
                    hand_sizes=(9, 5, 10, 10))
    fits = parse_cards("9H 9S 9D 5C 5D 5H KS QD")
    dead = parse_cards("9H 9S 9D 5C 5D 5H QS QD")
    pool = [c for c in unseen_cards(rules, view) if c.rank not in (13, 12)]
    future = random.Random(4).sample(pool, 13)
    for option, differ in ((False, False), (True, True)):
        bot = ExpertBot(rules, seed=1, out_bonus=0.0, leftover_fits=option)
        bot._round = view.round
        bot._prepare(view, 0)
        a = bot._playout(view, list(fits), future, -2)
        b = bot._playout(view, list(dead), future, -2)
        assert (a > b) is differ
        assert a >= b
