"""The fast paths of the speed work give the same answers as the plain ones.

* :func:`liverpool.solver.lay_down_may_use` (the engine's shortcut past the
  lay-down search) never rules out a hand that has a lay-down;
* the engine's legal actions with its memory of hands without a lay-down are
  those of a fresh game restored from JSON (which has none);
* the planner's need-only and per-suit paths equal the full plan;
* the ``basic`` bot's best discard is the first of its discard order, and its
  memory of the next player's pickups equals a plain scan of the events;
* the views, built from the parts every seat shares, place every field.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from collections.abc import Iterator

import pytest

from liverpool import Game, load_rules, parse_cards
from liverpool.actions import LayDown
from liverpool.bots import make_bot
from liverpool.bots.basic import BasicBot
from liverpool.bots.planner import HandPlanner
from liverpool.cards import JOKER, Card, make_deck
from liverpool.events import (
    EVENT_TYPES,
    Bought,
    RoundStarted,
    StockChosen,
    TookDiscard,
)
from liverpool.melds import Meld, lay_down_mode
from liverpool.rules import Rules, RulesError
from liverpool.ruleset_io import validate_rules
from liverpool.simulate import game_seed
from liverpool.solver import find_lay_down, lay_down_may_use
from liverpool.views import SeatView, SeatViews

PRESETS = ("liverpool", "london", "dansk", "remi")


def _variants(rng: random.Random, n: int, playable: bool = False) -> Iterator[Rules]:
    """The presets, then ``n`` rulesets with random options moved away from them
    (``playable``: only those a game accepts, :func:`validate_rules`)."""
    for name in PRESETS:
        yield load_rules(name)
    made = 0
    while made < n:
        rules = _variant(rng)
        if playable:
            try:
                validate_rules(rules)
            except RulesError:
                continue
        made += 1
        yield rules


def _variant(rng: random.Random) -> Rules:
    base = load_rules(rng.choice(PRESETS))
    return dataclasses.replace(
        base,
        run_wrap=rng.choice(["never", "always", "three_beside_ace"]),
        min_naturals_set=rng.choice([0, 1, 2, 3, 4]),
        min_naturals_run=rng.choice([0, 2, 3, 4, 5]),
        naturals_at_least_wilds=rng.random() < 0.4,
        no_adjacent_wilds_in_run=rng.random() < 0.5,
        contract_exact=rng.random() < 0.3,
        set_same_suit=rng.random() < 0.25,
        run_same_suit=rng.random() < 0.75,
        wild_deuce_of_spades=rng.random() < 0.2,
        forbid_adjacent_same_suit_runs=rng.random() < 0.2,
        forbid_same_rank_sets=rng.random() < 0.2,
    )


def _meldy_pool(rng: random.Random) -> list[Card]:
    """Cards from a narrow window of ranks and a few suits (so melds occur), jokers."""
    low = rng.randint(1, 13)
    suits = rng.sample(range(4), rng.randint(1, 3))
    ranks = [(low - 1 + i) % 13 + 1 for i in range(rng.randint(5, 9))]
    return [Card(r, s) for r in ranks for s in suits] * 2 + [JOKER] * 2 + [Card(2, 0)]


def test_lay_down_may_use_never_misses_a_lay_down() -> None:
    """A hand without a lay-down that gains cards none of which may be used still
    has none (find_lay_down is the reference); and the test often says so."""
    rng = random.Random(20240601)
    checked = ruled_out = 0
    for rules in _variants(rng, 40):
        rounds = [r for r in range(1, rules.num_rounds + 1)
                  if lay_down_mode(rules, r) == "normal"]
        for _ in range(120):
            rnd = rng.choice(rounds)
            pool = _meldy_pool(rng)
            old = [rng.choice(pool) for _ in range(rng.randint(6, 12))]
            if find_lay_down(old, rules, rnd) is not None:
                continue
            kept = rng.sample(old, rng.randint(max(0, len(old) - 2), len(old)))
            gained = [rng.choice(pool) for _ in range(rng.randint(0, 3))]
            hand = kept + gained
            rng.shuffle(hand)
            checked += 1
            if not lay_down_may_use(hand, rules, rnd, gained):
                ruled_out += 1
                assert find_lay_down(hand, rules, rnd) is None, (
                    f"{rules.name} round {rnd}: {[str(c) for c in hand]} "
                    f"gained {[str(c) for c in gained]}")
    assert checked > 1000
    assert ruled_out > checked // 5


def test_lay_down_may_use_gives_way_where_it_cannot_tell() -> None:
    rules = load_rules("liverpool")
    hand = [Card(9, 1), Card(9, 0), Card(9, 3), Card(5, 3), Card(6, 3), Card(13, 2),
            Card(13, 0), Card(2, 1), Card(3, 2), Card(11, 3)]
    assert lay_down_may_use(hand + [JOKER], rules, 1, [JOKER])  # a wild card
    assert lay_down_may_use(hand, rules, rules.num_rounds, hand)  # the whole-hand round
    assert not lay_down_may_use(hand, rules, 1, [])
    assert not lay_down_may_use(hand[:5], rules, 5, hand[:5])  # too few cards


def _play(preset: str, kinds: list[str], seed: int) -> Iterator[tuple[Game, SeatViews]]:
    """Each decision point of a game (before the decision is applied)."""
    rules = load_rules(preset)
    game = Game(rules, players=len(kinds), seed=seed)
    bots = [make_bot(k, rules, seed=game_seed(seed, 1000 + j)) for j, k in enumerate(kinds)]
    views = SeatViews(game)
    while not game.is_over:
        yield game, views
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        game.apply(bots[seat].choose(views.view(seat, legal), legal))


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_remembered_hands_without_a_lay_down_change_no_legal_actions(preset: str) -> None:
    for game, _views in _play(preset, ["basic", "easy", "basic", "basic"], game_seed(3, 1)):
        if game.phase != "play":
            continue
        state = game.state
        fresh = Game.from_json(game.to_json())
        assert fresh._no_lay_down == [None] * game.num_players
        assert game.legal_actions() == fresh.legal_actions()
        seat = state.turn_player
        suggested = [a for a in game.legal_actions() if type(a).__name__ == "LayDown"]
        if not state.down[seat]:
            found = find_lay_down(state.hands[seat], game.rules, state.round)
            assert (found is None) == (not suggested)


@pytest.mark.slow
def test_remembered_lay_downs_change_no_legal_actions() -> None:
    """Random play on the presets and on rulesets with random options: at every
    decision of a seat that is not down, the legal actions (a suggestion worked
    out only when read included) are those of a copy of the game that
    remembers nothing; and the suggestions left to their reader occur."""
    rng = random.Random(7)
    later = checked = 0
    for rules in _variants(rng, 8, playable=True):
        players = rules.players[0]
        game = Game(rules, players=players, seed=rng.randrange(1 << 30))
        for _ in range(2500):
            if game.is_over:
                break
            legal = game.legal_actions()
            state = game.state
            if game.phase == "play" and not state.down[state.turn_player]:
                suggested = [a for a in legal if isinstance(a, LayDown)]
                later += sum(1 for a in suggested if a._make is not None)
                fresh = game.copy()  # the same position, remembering nothing
                fresh._no_lay_down = [None] * players
                fresh._lay_down_held = [None] * players
                fresh._legal = None
                assert legal == fresh.legal_actions()
                checked += 1
            game.apply(legal[rng.randrange(len(legal))])
    assert checked > 2000, (checked, later)
    assert later > 50, (checked, later)


def test_suggested_lay_down_is_the_same_value() -> None:
    melds = (Meld("run", tuple(parse_cards("5H 6H 7H 8H")), 5, 1),
             Meld("set", tuple(parse_cards("KS KD *")), 13))
    made: list[int] = []

    def make() -> tuple[Meld, ...]:
        made.append(1)
        return melds

    plain = LayDown(melds)
    for value in (lambda a: a, pickle.loads, copy.copy, copy.deepcopy):
        later = LayDown.suggested(make)
        got = value(pickle.dumps(later)) if value is pickle.loads else value(later)
        assert got == plain
        assert hash(got) == hash(plain)
        assert repr(got) == repr(plain)
        assert got.to_json() == plain.to_json()
        assert type(got) is LayDown
    assert len(made) == 4  # once each
    assert LayDown.suggested(make) != LayDown(())


def _random_hands(rng: random.Random, n: int) -> Iterator[list[Card]]:
    deck = make_deck(2, 4)
    for _ in range(n):
        if rng.random() < 0.5:
            yield rng.sample(deck, rng.randint(1, 16))
        else:
            pool = _meldy_pool(rng)
            yield [rng.choice(pool) for _ in range(rng.randint(4, 15))]


@pytest.mark.slow
def test_planner_fast_paths_equal_the_plan() -> None:
    """The planner's fast path (need, need_with, used_mask, runs_needs) gives the
    numbers of its reference (plan, assess) on random hands under random rulesets."""
    rng = random.Random(7)
    for rules in _variants(rng, 12, playable=True):
        planner = HandPlanner(rules)
        for hand in _random_hands(rng, 400):
            sets, runs = rng.randint(0, 3), rng.randint(0, 3)
            if not sets and not runs:
                continue
            need, used = planner.assess(hand, sets, runs)
            assert planner.need(hand, sets, runs) == need
            assert planner.need_with(hand[:-1], hand[-1], sets, runs) == need
            assert planner.used_mask(hand, sets, runs) == sum(1 << k for k in used)
            if sets:
                continue
            spare = rng.choice([-1, 0, 1])
            naturals = [c for c in hand if not planner.is_wild(c)]
            removes: list[Card | None] = [None, *rng.sample(naturals, min(5, len(naturals)))]
            expected = []
            for x in removes:
                rest = list(hand)
                if x is not None:
                    rest.remove(x)
                expected.append(planner.assess(rest, 0, runs, spare)[0])
            assert planner.runs_needs(hand, removes, runs, spare) == expected


def _danger_reference(view: SeatView) -> tuple[set[int], set[tuple[int, int]], bool]:
    """The next player's pickups by a plain scan (the bot's code before the speed
    work) over the last 80 events of the round, StockChosen not counted."""
    n = view.players
    seat = view.seat if view.seat is not None else view.turn_player
    nxt = (seat + 1) % n
    ranks: set[int] = set()
    cards: set[tuple[int, int]] = set()
    events = [e for e in view.events if not isinstance(e, StockChosen)]
    i = len(events) - 1
    stop = max(-1, i - 80)
    while i > stop:
        e = events[i]
        if isinstance(e, RoundStarted):
            break
        if isinstance(e, TookDiscard | Bought) and e.seat == nxt:
            c = e.card
            if c.rank:
                ranks.add(c.rank)
                cards.add((c.suit, c.rank))
        i -= 1
    return ranks, cards, any(view.laid_down[o] for o in range(n) if o != seat)


@pytest.mark.parametrize("preset", ["liverpool", "dansk"])
def test_best_discard_and_pickups_equal_the_plain_ones(preset: str) -> None:
    probe = BasicBot(load_rules(preset), seed=1)
    discards = 0
    for game, views in _play(preset, ["basic"] * 4, game_seed(5, 2)):
        if game.phase != "play":
            continue
        seat = game.to_move
        assert seat is not None
        for view in (views.view(seat), game.view(seat)):  # the loop's views, the game's
            assert probe._danger(view) == _danger_reference(view)
            options = [c for c in view.hand]
            order = probe.discard_order(view, options)
            assert order == list(dict.fromkeys(order))
            assert set(order) == set(options)
            assert probe._pick_discard(view, options) == order[0]
            discards += 1
    assert discards > 100


def _expected_view_fields(game: Game, seat: int) -> dict[str, object]:
    """What every field of ``seat``'s view holds, by name, from the game's own state."""
    state = game.state
    results = game.results()
    return {
        "seat": seat, "players": game.num_players, "round": state.round,
        "num_rounds": game.rules.num_rounds, "contract": game.rules.contract(state.round),
        "cards_dealt": game.rules.cards_dealt(state.round), "dealer": state.dealer,
        "turn_player": state.turn_player, "phase": state.phase, "to_move": game.to_move,
        "hand": tuple(sorted(state.hands[seat], key=lambda c: c.index)),
        "hand_sizes": tuple(len(h) for h in state.hands), "table": tuple(state.table),
        "table_owners": tuple(state.owners), "discard_pile": tuple(state.discards),
        "stock_size": len(state.stock), "offered_card": game.offered_card,
        "laid_down": tuple(state.down), "buys": tuple(state.buys),
        "buy_limit": game.rules.buy_limit, "round_scores": results.round_scores,
        "totals": results.totals, "turn_number": state.turn_number,
        "down_turns": tuple(state.down_turn), "queue": tuple(state.queue),
        "last_buyer": state.last_buyer, "stock_chosen": state.stock_chosen,
        "pending_wilds": state.pending_wilds, "cut_bonus_seat": state.cut_bonus_seat,
        "discarders": tuple(state.discarders), "version": game.version,
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_views_place_every_field(preset: str) -> None:
    # SeatViews builds a view from the parts every seat shares and the seat's own:
    # each field must hold what the game's state says of it
    game = Game(load_rules(preset), players=4, seed=3)
    rng = random.Random(3)
    checked = set()
    while not game.is_over and game.version < 400:
        for seat in range(game.num_players):
            view = game.view(seat)
            assert type(view) is SeatView
            for name, value in _expected_view_fields(game, seat).items():
                assert getattr(view, name) == value, (name, game.version)
            checked.add(view.phase)
        legal = game.legal_actions()
        downs = [a for a in legal if isinstance(a, LayDown)]
        game.apply(downs[0] if downs else rng.choice(legal))
    assert {"draw", "play", "buy"} <= checked
    with pytest.raises(AttributeError):
        view.seat = 1  # type: ignore[misc]
    # the engine's events are the event types themselves, frozen
    assert len({type(e) for e in game.events}) > 5
    for e in game.events:
        assert type(e) in EVENT_TYPES.values()
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.events[-1].seq = 0  # type: ignore[misc]
