"""The expert's search of the all-at-once final round (``final_race``)."""

from __future__ import annotations

import random

import pytest

from liverpool import Game, load_rules
from liverpool.actions import Action, Discard, Draw
from liverpool.bots import Bot, make_bot
from liverpool.bots.expert import ExpertBot
from liverpool.bots.final_round import FinalRace, WinChances, held_at_least
from liverpool.bots.race_plans import PlanRace
from liverpool.bots.whereabouts import unseen_cards
from liverpool.cards import Card, make_deck, parse_cards
from liverpool.views import SeatView


def _final_round_view(phase: str = "draw") -> tuple[Game, SeatView, list[Action]]:
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=3)
    bots = [make_bot("basic", rules, seed=s) for s in range(4)]
    while not (game.round == 7 and game.to_move == 0 and game.phase == phase
               and (phase != "draw" or Draw("discard") in game.legal_actions())):
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game, game.view(0), game.legal_actions()


def test_an_opponent_rarely_holds_far_more_or_far_less_than_usual() -> None:
    assert held_at_least(0, 12) > 0.999
    assert held_at_least(300, 12) < 0.001
    assert held_at_least(100, 12) > held_at_least(120, 12) > held_at_least(140, 12)
    assert held_at_least(118, 12) > held_at_least(118, 10)  # fewer cards, fewer points


def test_win_chances_follow_the_score_sheet() -> None:
    leading = WinChances((100, 200, 210, 220), 0, (12, 12, 12, 12))
    trailing = WinChances((260, 200, 210, 220), 0, (12, 12, 12, 12))
    assert leading.out > 0.99
    assert 0.0 < trailing.out < leading.out
    # an opponent goes out: holding fewer points is never worse
    assert leading.held(20) >= leading.held(80) >= leading.held(150)
    assert leading.held(20) > leading.held(150)
    # holding more than the lead over every opponent loses for sure
    assert leading.held(125) == 0.0


def test_the_race_goes_out_when_the_whole_hand_makes_the_contract() -> None:
    game, view, _legal = _final_round_view("play")
    rules = game.rules
    race = FinalRace(rules, make_bot("basic", rules).planner, horizon=5)
    runs = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 4C 5C")
    ends = [0.1] * 7
    first = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    future = parse_cards("KD 7D 8D 9D KC QC 2D")
    view = view._replace(hand=tuple(runs))
    # the draw still to come is the king of diamonds, which fits no run: no out this turn
    later = race.playout(view, list(runs), future, 1, ends, first, 10.0)
    # this turn's draw, the 7 of hearts, extends a run: out at once, the whole bonus
    now = race.playout(view, [*runs, *parse_cards("7H")], future, 0, ends, first, 10.0)
    assert now == 10.0
    assert later < now
    win = WinChances((100, 200, 210, 220), 0, (12, 12, 12, 12))
    assert race.playout(view, [*runs, *parse_cards("7H")], future, 0, ends, first, 10.0,
                        win) == win.out


def test_the_final_race_searches_the_draws_and_throws_by_the_outs() -> None:
    game, view, legal = _final_round_view("draw")
    rules = game.rules
    bot = ExpertBot(rules, seed=1, final_race=True, final_win=True, final_plans=False,
                    time_ms=1e6)
    choice = bot.choose(view, legal)
    assert choice in legal
    assert bot.last_iterations == bot.final_iterations
    game.apply(choice)
    view, legal = game.view(0), game.legal_actions()
    choice = bot.choose(view, legal)
    assert choice in legal
    if isinstance(choice, Discard):  # the outs choose the discard, with no search
        assert bot.last_iterations == 0
        race = FinalRace(rules, bot.planner, horizon=5)
        order = bot.basic.discard_order(view, [a.card for a in legal if isinstance(a, Discard)])
        assert choice.card == race.discard_order(view, order, unseen_cards(rules, view))[0]
    plain = ExpertBot(rules, seed=1, final_race=False)
    assert plain.choose(view, legal) == plain.basic.choose(view, legal)
    assert plain.last_iterations == 0


@pytest.mark.slow
@pytest.mark.no_cover  # whole games of the bots: their lines are covered by quicker tests; traced 4-5x slower
@pytest.mark.parametrize(("preset", "plans"), [("liverpool", False), ("liverpool", True),
                                               ("remi", True)])
def test_final_race_games_repeat_under_their_seed(preset: str, plans: bool) -> None:
    rules = load_rules(preset)
    from liverpool.simulate import play_game

    options = [{"iterations": 4, "final_iterations": 3, "time_ms": 1e6, "final_race": True,
                "final_win": True, "final_plans": plans}, {}, {}, {}]
    seed = random.Random(5).randrange(1 << 30)
    a = play_game(rules, ["expert", "basic", "basic", "basic"], seed=seed, bot_options=options)
    b = play_game(rules, ["expert", "basic", "basic", "basic"], seed=seed, bot_options=options)
    assert a.error is None
    assert (a.totals, a.actions) == (b.totals, b.actions)


def test_the_race_keeps_the_discard_with_live_outs() -> None:
    """Of discards that leave as many cards missing, the race keeps the cards
    more unseen cards fit; when the cards that fit one plan are dead (every
    copy seen), it keeps the other plan."""
    game, view, _legal = _final_round_view("play")
    rules = game.rules
    race = FinalRace(rules, make_bot("basic", rules).planner, horizon=5)
    # two runs made; the clubs 3-4-5 or the diamonds 6-7-(9) make the third
    hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 3C 4C 5C 6D 7D 9D")
    view = view._replace(hand=tuple(hand))
    clubs, diamonds = set(parse_cards("3C 4C 5C")), set(parse_cards("6D 7D 9D"))
    pool = [c for c in make_deck(2, 2) if c not in set(hand)]
    # throwing a diamond keeps the clubs, which the 2 and the 6 of clubs extend
    # (four cards), throwing a club keeps the diamonds, which only the 8 fills (two)
    order = race.discard_order(view, hand, pool)
    assert order[0] in diamonds
    # every 2 and 6 of clubs has been seen: the diamonds are the live plan
    dead = [c for c in pool if c not in set(parse_cards("2C 6C"))]
    order = race.discard_order(view, hand, dead)
    assert order[0] in clubs
    # out of time: no outs counted, the given order breaks the ties
    assert race.discard_order(view, hand, pool, deadline=0.0)[0] == parse_cards("3C")[0]


def _plans(pool_without: str = "") -> tuple[PlanRace, list[Card]]:
    rules = load_rules("liverpool")
    race = PlanRace(rules)
    gone = parse_cards(pool_without) if pool_without else []
    pool = make_deck(2, 2)
    for c in gone:
        pool.remove(c)
    return race, pool


def test_plans_value_a_gap_by_the_copies_left() -> None:
    """A hand one card short is worth more than one two cards short; a gap
    whose every copy has been seen is filled only by a wild card."""
    first = [1.0] + [0.95 ** t for t in range(1, 22)]
    hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 5C 6C")  # the 4 of clubs makes it
    race, pool = _plans()
    for c in hand:
        pool.remove(c)
    race.setup(pool, first, 13)
    live = race.value(hand)
    assert race.value([*hand, *parse_cards("4C")]) == 1.0  # all of it goes down now
    assert race.value([*hand, *parse_cards("KD")]) == 0.0  # a card must go first
    short = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 9C KD")
    assert 0.0 < race.value(short) < live < 1.0
    race.setup([c for c in pool if c != parse_cards("4C")[0]], first, 13)
    assert race.value(hand) < live  # both copies of the 4 of clubs seen: a joker or nothing
    race.setup([c for c in pool if not c.is_joker], first, 13)
    assert race.value(hand) < live  # and no joker left either: the 4 of clubs alone


def test_plans_measure_three_runs_of_one_suit_only() -> None:
    liverpool, remi = load_rules("liverpool"), load_rules("remi")
    assert PlanRace.applies(liverpool, 0, 3, 13)
    assert PlanRace.applies(remi, 0, 3, 12)
    assert not PlanRace.applies(liverpool, 1, 2, 13)
    london = load_rules("london")
    assert not PlanRace.applies(london, 0, 3, 11, 1)  # before the buy: 10 cards down
    assert PlanRace.applies(london, 0, 3, 13, 1)  # after it: three runs of four
    assert not PlanRace.applies(london, 0, 3, 14, 1)  # runs of five may go round the ace
    assert not PlanRace.applies(load_rules("dansk"), 3, 1, 14)


def test_the_plans_choose_the_last_round_draws_and_discards() -> None:
    game, view, legal = _final_round_view("draw")
    rules = game.rules
    bot = ExpertBot(rules, seed=1, final_plans=True, time_ms=1e6)
    choice = bot.choose(view, legal)
    assert choice in legal
    assert bot.last_iterations == 0  # no playouts
    # an upcard that completes the hand is taken
    hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 5C 6C")
    full = view._replace(hand=tuple(hand), discard_pile=(*view.discard_pile, *parse_cards("4C")))
    assert bot.choose(full, legal) == Draw("discard")
    game, view, legal = _final_round_view("play")
    assert bot.choose(view, legal) in legal
    # of thirteen cards one short of three runs and a king, the king goes
    hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 2C 3C 5C 6C KD")
    view = view._replace(hand=tuple(hand))
    legal = [Discard(c) for c in dict.fromkeys(hand)]
    assert bot.choose(view, legal) == Discard(parse_cards("KD")[0])


def test_london_plans_go_down_with_all_but_one_card() -> None:
    """In london's last round one card is discarded as the rest goes down:
    thirteen cards after the draw are out when twelve make three runs of
    four, and after the discard twelve cards are a chance, not an out."""
    rules = load_rules("london")
    race = PlanRace(rules)
    hand = parse_cards("3H 4H 5H 6H 9S TS JS QS 3C 4C 5C 8D")  # the 6 or 2 of clubs makes it
    pool = make_deck(2, 0)
    for c in hand:
        pool.remove(c)
    first = [1.0] + [0.95 ** t for t in range(1, 22)]
    race.setup(pool, first, 13, 1)
    assert race.value([*hand, *parse_cards("6C")]) == 1.0  # twelve down, the 8 of diamonds thrown
    assert race.value([*hand, *parse_cards("KD")]) == 0.0
    assert 0.0 < race.value(hand) < 1.0
    assert race.value(parse_cards("3H 4H 5H 6H 9S TS JS QS 3C 9C KD 8D")) < race.value(hand)
    # the 2 of spades is wild there: a run of three and a deuce is a run of four
    assert race.value([*hand, *parse_cards("2S")]) == 1.0
    # twelve cards that make it before the draw: out at the next draw, if nobody is out before
    done = parse_cards("3H 4H 5H 6H 9S TS JS QS 3C 4C 5C 6C")
    assert race.value(done) == pytest.approx(first[1])


def _london_last_round(seed: int) -> tuple[Game, list[Bot]]:
    rules = load_rules("london")
    game = Game(rules, players=4, seed=seed)
    bots = [make_bot("basic", rules, seed=s) for s in range(4)]
    while game.round < rules.num_rounds:
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(game.view(seat), game.legal_actions()))
    return game, bots


@pytest.mark.slow
@pytest.mark.no_cover  # whole games of the bots: their lines are covered by quicker tests; traced 4-5x slower
def test_the_expert_plays_london_last_round_by_plans_after_its_buy() -> None:
    """With ``final_plans=True`` the expert plays london's last round as
    ``basic`` before its buy, and after it (13 cards after the draw) its
    draws and discards go by the plans, which search no futures; by default
    it is ``basic``'s play throughout (the plans measured no better there),
    with the expert's ``points_weight``.
    Every choice is legal."""
    by_plans = differs = 0
    for seed in (1, 2):
        game, bots = _london_last_round(seed)
        rules = game.rules
        expert = ExpertBot(rules, seed=seed, final_plans=True, time_ms=1e6)
        plain = ExpertBot(rules, seed=seed, time_ms=1e6)
        # (the expert's basic play: its discard order weighs the points)
        basic = make_bot("basic", rules, seed=seed, points_weight=plain.basic.points_weight)
        while game.round == rules.num_rounds and not game.is_over:
            seat = game.to_move
            assert seat is not None
            view, legal = game.view(seat), game.legal_actions()
            if seat == 0:
                choice = expert.choose(view, legal)
                assert choice in legal
                assert expert.last_iterations == 0  # the plans, no playouts
                assert plain.choose(view, legal) == basic.choose(view, legal)
                size = len(view.hand) + (1 if view.phase == "draw" else 0)
                if view.phase in ("draw", "play") and size == 13:
                    by_plans += 1
                    differs += choice != basic.choose(view, legal)
                elif view.phase in ("draw", "play") and size < 13:
                    assert choice == basic.choose(view, legal)
            else:
                choice = bots[seat].choose(view, legal)
            game.apply(choice)
    assert by_plans > 20
    assert differs > 0  # the plans choose otherwise than basic at times
