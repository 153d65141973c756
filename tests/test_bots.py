"""The bots: legal actions only, determinism, strength on small samples, the expert's budget."""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from liverpool import PRESETS, Game, load_rules
from liverpool.actions import Action, Discard, Draw
from liverpool.bots import BOT_KINDS, Bot, make_bot
from liverpool.bots.expert import ExpertBot
from liverpool.bots.planner import HandPlanner
from liverpool.bots.whereabouts import unseen_cards
from liverpool.cards import make_deck, parse_cards
from liverpool.loop import run_bots
from liverpool.rules import Contract, Rules
from liverpool.simulate import play_game
from liverpool.solver import find_melds
from liverpool.views import SeatView, SeatViews


def play(rules: Rules, bots: list[Bot], seed: int, check: bool = True) -> tuple[Game, list[Action]]:
    """Play a whole game, checking that every chosen action is legal."""
    game = Game(rules, players=len(bots), seed=seed)
    actions: list[Action] = []

    def checked(seat: int, action: Action, events: object) -> None:
        actions.append(action)

    class Checking:
        """A bot whose every choice is checked against the game before it is applied."""

        def __init__(self, bot: Bot) -> None:
            self.bot, self.name, self.rules = bot, bot.name, bot.rules

        def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
            action = self.bot.choose(view, legal)
            if check:
                assert game.can_apply(action), (action, legal)
            return action

    run_bots(game, [Checking(b) for b in bots], on_action=checked)
    assert game.is_over
    return game, actions


def test_make_bot_knows_every_kind() -> None:
    rules = load_rules("liverpool")
    for kind in BOT_KINDS:
        bot = make_bot(kind, rules, seed=3)
        assert bot.name == kind
        assert bot.rules is rules
    with pytest.raises(ValueError, match="unknown bot 'robot'; the bots are random, basic"):
        make_bot("robot", rules)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.slow
def test_random_bots_only_play_legal_actions(preset: str) -> None:
    rules = load_rules(preset)
    game, actions = play(rules, [make_bot("random", rules, seed=i) for i in range(3)], seed=5)
    assert game.is_over
    assert len(game.results().round_scores) == rules.num_rounds
    assert len({a.type for a in actions}) >= 4


@pytest.mark.parametrize("preset", PRESETS)
def test_basic_and_easy_bots_only_play_legal_actions(preset: str) -> None:
    rules = load_rules(preset)
    bots = [make_bot(k, rules, seed=i) for i, k in enumerate(["basic", "easy", "basic", "medium"])]
    game, actions = play(rules, bots, seed=11)
    assert game.is_over
    kinds = {a.type for a in actions}
    assert {"draw", "discard", "lay_down"} <= kinds


def test_bots_handle_the_cut_and_shanghai_variants() -> None:
    rules = load_rules("remi", discard_call="shanghai", liverpool_cut=True)
    bots = [make_bot(k, rules, seed=i) for i, k in enumerate(["basic", "random", "basic"])]
    _game, actions = play(rules, bots, seed=2)
    assert any(a.type == "cut" for a in actions)


def test_basic_is_deterministic_under_a_seed() -> None:
    rules = load_rules("dansk")
    a = play(rules, [make_bot("basic", rules, seed=i) for i in range(3)], seed=4, check=False)
    b = play(rules, [make_bot("basic", rules, seed=i) for i in range(3)], seed=4, check=False)
    assert a[1] == b[1]
    assert a[0].results() == b[0].results()


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_basic_beats_random(preset: str) -> None:
    rules = load_rules(preset)
    wins = sum(0 in play_game(rules, ["basic", "random", "random"], seed).winners
               for seed in range(20))
    assert wins >= 18


def test_planner_counts_missing_cards() -> None:
    p = HandPlanner(load_rules("liverpool"))
    assert p.need(parse_cards("5H 6H 7H 8H 9S 9D 9C"), 1, 1) == 0
    assert p.need(parse_cards("5H 6H 7H KD 9S 9D 2C"), 1, 1) == 2
    # a joker fills one gap (liverpool: a run keeps three naturals)
    assert p.need(parse_cards("5H 6H * KD 9S 9D 9C"), 1, 1) == 1
    # all-at-once: the odd card out counts too
    assert p.need(parse_cards("5H 6H 7H 8H 9S 9D 9C KD"), 1, 1, spare=0) == 1
    assert p.need(parse_cards("5H 6H 7H 8H 9S 9D 9C 9H"), 1, 1, spare=0) == 0


@pytest.mark.slow
def test_planner_says_0_exactly_when_the_contract_can_go_down() -> None:
    """The planner's need of a contract of sets and runs is 0 exactly when the
    contract solver finds it in the hand: its greedy cover gives a rank's cards
    to a set or to a run, and missed the contract whose set and run share a
    rank (a bot then passed on the K♠ that completed Q♣ Q♥ Q♦ and 10♠ J♠ Q♠ K♠)."""
    p = HandPlanner(load_rules("liverpool"))
    hand = parse_cards("9D 9H 9S QC QH QD TS JS QS")
    assert p.need(hand, 2, 1) == 1
    assert p.need_with(hand, parse_cards("KS")[0], 2, 1) == 0
    assert p.need([*hand, *parse_cards("KS")], 2, 1) == 0
    assert p.assess([*hand, *parse_cards("KS")], 2, 1)[0] == 0
    rng = random.Random(5)
    deck = make_deck(2, 4)
    seen = 0
    for preset in sorted(PRESETS):
        rules = load_rules(preset)
        planner = HandPlanner(rules)
        for _ in range(400):
            suits = rng.sample(range(4), rng.randint(1, 3))
            low = rng.randint(1, 9)
            pool = [c for c in deck if c.rank == 0 or (c.suit in suits and low <= c.rank < low + 6)]
            cards = [rng.choice(pool) for _ in range(rng.randint(7, 15))]
            sets, runs = rng.randint(1, 2), rng.randint(1, 2)
            exact = find_melds(cards, rules, Contract(sets, runs)) is not None
            seen += exact
            assert (planner.need(cards, sets, runs) == 0) == exact, (preset, cards, sets, runs)
            assert (planner.need_with(cards[:-1], cards[-1], sets, runs) == 0) == exact
    assert seen > 100  # (the hands hold contracts often enough to tell)


def test_planner_shortcuts_equal_the_plain_measures() -> None:
    """HandPlanner.used_mask is plan()'s used keys as bits, need_with(hand, card) is
    need(hand + card), neither changes the remembered counts (counted), and
    natural_ranks gives the natural cards' ranks per suit."""
    rng = random.Random(11)
    deck = make_deck(2, 4)
    for preset in sorted(PRESETS):
        base = load_rules(preset)
        for same_sets, same_runs in ((False, True), (False, False), (True, True), (True, False)):
            rules = dataclasses.replace(base, set_same_suit=same_sets, run_same_suit=same_runs)
            planner = HandPlanner(rules)
            for _ in range(150):
                if rng.random() < 0.5:
                    hand = tuple(rng.sample(deck, rng.randint(0, 15)))
                else:  # few suits and ranks: melds and duplicates
                    suits = rng.sample(range(4), rng.randint(1, 2))
                    low = rng.randint(1, 10)
                    pool = [c for c in deck if c.rank == 0 or (
                        c.suit in suits and low <= c.rank < low + 6)]
                    hand = tuple(rng.choice(pool) for _ in range(rng.randint(1, 14)))
                sets, runs = rng.randint(0, 3), rng.randint(0, 3)
                used = planner.plan(hand, sets, runs)[1]
                assert planner.used_mask(hand, sets, runs) == sum(1 << k for k in used)
                before = planner.counted(hand)
                snapshot = (list(before[0]), list(before[1]), before[2])
                card = rng.choice(deck)
                assert planner.need_with(hand, card, sets, runs) == planner.need(
                    (*hand, card), sets, runs)
                assert planner.need_with(hand, None, sets, runs) == planner.need(
                    hand, sets, runs)
                after = planner.counted(hand)
                assert (after[0], after[1], after[2]) == snapshot
                ranks = [0, 0, 0, 0]
                for c in hand:
                    if not planner.is_wild(c):
                        ranks[c.suit] |= 1 << c.rank
                assert planner.natural_ranks(hand) == ranks
                if runs:
                    planner.runs_needs(hand, [None], runs, 0)
                    assert planner.natural_ranks(hand) == ranks


def test_basic_takes_a_discard_that_helps() -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=3, seed=1)
    bot = make_bot("basic", rules)
    view = game.view(0)
    top = view.top_discard
    assert top is not None
    helps = HandPlanner(rules).need(view.hand, 2, 0) > HandPlanner(rules).need(
        (*view.hand, top), 2, 0)
    assert bot.choose(view, game.legal_actions()) == Draw("discard" if helps else "stock")


def test_points_weight_throws_costly_cards_sooner() -> None:
    """``points_weight`` weighs a card's points against how much the hand
    keeps it: with it the pair of aces outside the plan goes before the lone
    low cards; without it (and at 0) the lone cards go first."""
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=1)
    seat = game.to_move
    assert seat is not None
    game.apply(Draw("stock"))
    hand = parse_cards("7S 7H 7D 9S 9H 9C AS AH 4D 3C 8S")  # two sets made (round 1: two sets)
    view = game.view(seat)._replace(hand=tuple(hand))
    plain = make_bot("basic", rules).discard_order(view, hand)
    assert plain == make_bot("basic", rules, points_weight=0).discard_order(view, hand)
    assert {c.rank for c in plain[:3]} == {4, 3, 8}  # the lone cards first
    weighed = make_bot("basic", rules, points_weight=10).discard_order(view, hand)
    assert weighed[0].rank == 1  # an ace: 20 points outweigh the pair
    assert {c.rank for c in weighed[2:5]} == {4, 3, 8}


def test_unseen_cards_are_consistent_with_the_hidden_state() -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=9)
    bots = [make_bot("basic", rules, seed=i) for i in range(4)]
    views = SeatViews(game)
    for _ in range(120):
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(views.view(seat), game.legal_actions()))
        if game.is_over:
            break
        view = views.view(0)
        unseen = Counter(unseen_cards(rules, view))
        hidden = Counter(game.state.stock)
        for other in range(1, 4):
            hidden.update(game.hand(other))
        assert Counter(game.state.stock) <= unseen <= hidden


def test_expert_is_deterministic_and_keeps_its_budget() -> None:
    rules = load_rules("remi")
    game = Game(rules, players=3, seed=3)
    bots = [make_bot("basic", rules, seed=i) for i in range(3)]
    views = SeatViews(game)
    searched = 0
    while not game.is_over and searched < 4:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        view = views.view(seat, legal)
        if seat == 0 and game.phase == "play" and sum(isinstance(a, Discard) for a in legal) > 2 \
                and not view.laid_down[0]:
            a = ExpertBot(rules, seed=7, iterations=6, time_ms=math.inf)
            b = ExpertBot(rules, seed=7, iterations=6, time_ms=math.inf)
            choice = a.choose(view, legal)
            assert choice == b.choose(view, legal)
            assert game.can_apply(choice)
            if a.last_iterations:  # the expert searched this discard
                assert a.last_iterations == 6
                capped = ExpertBot(rules, seed=7, iterations=50, time_ms=0.0)
                capped.choose(view, legal)
                assert capped.last_iterations == 1
                searched += 1
        game.apply(bots[seat].choose(view, legal))
    assert searched == 4


@pytest.mark.no_cover  # whole games of the bots: their lines are covered by quicker tests; traced 4-5x slower
@pytest.mark.slow
def test_expert_plays_legal_actions_in_a_whole_game() -> None:
    rules = load_rules("dansk")
    bots = [make_bot("expert", rules, seed=1, iterations=2), make_bot("basic", rules, seed=2),
            make_bot("hard", rules, seed=3, iterations=2)]
    game, _ = play(rules, bots, seed=8)
    assert game.is_over


@pytest.mark.parametrize(("kind", "options"), [
    ("random", {}), ("basic", {"mistakes": 0.3}), ("expert", {"iterations": 4, "time_ms": math.inf}),
    ("search", {"iterations": 2, "time_ms": math.inf}),
])
@pytest.mark.slow
def test_a_reseeded_bot_plays_as_one_built_with_that_seed(kind: str, options: dict[str, object]) -> None:
    rules = load_rules("liverpool")

    def moves(bots: list[Bot], seed: int, count: int) -> list[Action]:
        game = Game(rules, players=len(bots), seed=seed)
        chosen: list[Action] = []
        while len(chosen) < count and not game.is_over:
            seat = game.to_move
            action = bots[seat].choose(game.view(seat), game.legal_actions())
            game.apply(action, seat=seat)
            chosen.append(action)
        return chosen

    used = [make_bot(kind, rules, seed=s, **options) for s in range(3)]
    moves(used, 11, 40)  # the bots' generators and caches move on
    for s, bot in enumerate(used):
        bot.reseed(100 + s)  # type: ignore[attr-defined]
    fresh = [make_bot(kind, rules, seed=100 + s, **options) for s in range(3)]
    assert moves(used, 12, 60) == moves(fresh, 12, 60)
