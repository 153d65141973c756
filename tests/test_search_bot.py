"""The ``search`` bot: legal play on every preset and random rulesets, choices
that depend only on what the seat can see, reproducibility under a seed."""

from __future__ import annotations

import dataclasses
import pickle
import random
import time
from collections.abc import Sequence

import pytest

from liverpool import PRESETS, Game, RulesError, load_rules
from liverpool.actions import Action, Discard, Draw, LayDown
from liverpool.bots import Bot, check_bot_options, make_bot
from liverpool.bots.basic import BasicBot
from liverpool.bots.expert import ExpertBot
from liverpool.bots.search import SearchBot
from liverpool.bots.value import PER_SEAT, ValueNet, features
from liverpool.bots.whereabouts import card_whereabouts, passed_over
from liverpool.cards import Card
from liverpool.melds import cards_left
from liverpool.rules import Rules
from liverpool.views import SeatView, SeatViews

INF = float("inf")


def play_rounds(rules: Rules, bots: Sequence[Bot], seed: int, rounds: int) -> tuple[Game, list[Action]]:
    """Play the first ``rounds`` rounds, checking every chosen action is legal."""
    game = Game(rules, players=len(bots), seed=seed)
    views = SeatViews(game)
    actions: list[Action] = []
    while not game.is_over and game.round <= rounds:
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        action = bots[seat].choose(views.view(seat, legal), legal)
        assert game.can_apply(action), (action, legal)
        game.apply(action)
        actions.append(action)
    return game, actions


def search_table(rules: Rules, players: int, seed: int = 1) -> list[Bot]:
    return [SearchBot(rules, seed=seed, iterations=2, time_ms=INF)] + [
        make_bot("basic", rules, seed=s) for s in range(1, players)]


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_search_plays_only_legal_actions(preset: str) -> None:
    rules = load_rules(preset)
    bots = search_table(rules, 3)
    game, actions = play_rounds(rules, bots, seed=7, rounds=1)
    assert game.round >= 2 or game.is_over
    assert {"draw", "discard"} <= {a.type for a in actions}


def random_rules(rng: random.Random) -> Rules:
    """A preset with a few of its options changed at random (a valid ruleset)."""
    choices: dict[str, list[object]] = {
        "discard_call": ["none", "liverpool", "liverpool_pile", "shanghai"],
        "joker_swap": ["none", "runs", "runs_and_sets"],
        "go_out_requires_discard": [False, True],
        "run_wrap": ["never", "three_beside_ace", "always"],
        "buy_priority": ["turn_player_first", "others_first"],
        "liverpool_cut": [False, True],
        "final_round": ["normal", "all_at_once", "all_at_once_discard"],
    }
    while True:
        preset = rng.choice(sorted(PRESETS))
        overrides = {k: rng.choice(v) for k, v in choices.items() if rng.random() < 0.5}
        try:
            return load_rules(preset, **overrides)
        except (RulesError, TypeError, ValueError):
            continue


@pytest.mark.slow
@pytest.mark.parametrize("case", range(3))
def test_search_plays_only_legal_actions_on_random_rulesets(case: int) -> None:
    rules = random_rules(random.Random(case))
    lo, _hi = rules.players
    bots = search_table(rules, max(lo, 3), seed=case)
    game, _actions = play_rounds(rules, bots, seed=case + 20, rounds=1)
    assert game.round >= 2 or game.is_over


def shuffled_hidden(game: Game, seat: int, seed: int) -> Game:
    """The same position as ``game`` for ``seat``, with the cards it cannot know
    (the other hands' unseen cards and the stock order) dealt differently."""
    view = game.view(seat)
    unseen, known = card_whereabouts(game.rules, view)
    rng = random.Random(seed)
    rng.shuffle(unseen)
    hands: list[list[Card]] = []
    for s in range(view.players):
        if s == seat:
            hands.append(list(view.hand))
            continue
        need = view.hand_sizes[s] - len(known[s])
        hands.append(known[s] + unseen[:need])
        del unseen[:need]
    other = Game.from_view(game.rules, view, hands, unseen, seed=game.seed)
    other.events = list(game.events)
    return other


@pytest.mark.parametrize("opts", [{"infer": False}, {}, {"fit": True}, {"value": "learned"}])
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_search_choice_depends_only_on_what_the_seat_sees(opts: dict[str, object]) -> None:
    rules = load_rules("liverpool")
    basics = [make_bot("basic", rules, seed=s) for s in range(4)]
    compared = 0
    for seed in range(4):
        game = Game(rules, players=4, seed=seed)
        views = SeatViews(game)
        for _ in range(25 + 7 * seed):  # into the round: draws, buys, discards seen
            mover = game.to_move
            assert mover is not None
            legal = game.legal_actions()
            game.apply(basics[mover].choose(views.view(mover, legal), legal))
        seat = game.to_move
        assert seat is not None
        other = shuffled_hidden(game, seat, seed=100 + seed)
        assert [other.hand(s) for s in range(4)] != [game.hand(s) for s in range(4)] or \
            other.state.stock != game.state.stock
        view_a = game.view(seat)
        view_b = other.view(seat)
        assert view_a.hand == view_b.hand
        assert view_a.events == view_b.events
        a = SearchBot(rules, seed=3, iterations=3, time_ms=INF, **opts).choose(
            view_a, game.legal_actions())
        b = SearchBot(rules, seed=3, iterations=3, time_ms=INF, **opts).choose(
            view_b, other.legal_actions())
        assert a == b
        compared += 1
    assert compared == 4


def test_search_is_reproducible_under_a_seed() -> None:
    rules = load_rules("remi")
    runs = [play_rounds(rules, search_table(rules, 3, seed=5), seed=3, rounds=1)[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


@pytest.mark.slow
@pytest.mark.parametrize("opts", [{}, {"infer": False, "fit": True}, {"fit": True}])
def test_inferring_search_plays_legally_and_reproducibly(opts: dict[str, bool]) -> None:
    rules = load_rules("liverpool")
    runs = []
    for _ in range(2):
        bots: list[Bot] = [SearchBot(rules, seed=4, iterations=2, time_ms=INF, **opts)]
        bots += [make_bot("basic", rules, seed=s) for s in range(1, 4)]
        runs.append(play_rounds(rules, bots, seed=11, rounds=1)[1])
    assert runs[0] == runs[1]


def test_passed_over_counts_what_a_player_left_before_laying_down() -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=8)
    basics = [make_bot("basic", rules, seed=s) for s in range(4)]
    views = SeatViews(game)
    expected: list[list[Card]] = [[] for _ in range(4)]
    top: Card | None = game.view(0).top_discard
    down = [False] * 4
    start = game.round
    while game.round == start and not game.is_over:
        mover = game.to_move
        assert mover is not None
        legal = game.legal_actions()
        view = views.view(mover, legal)
        action = basics[mover].choose(view, legal)
        if view.phase == "draw" and action == Draw("stock") and not down[mover]:
            assert top is not None
            expected[mover].append(top)
        if isinstance(action, Discard) and not down[mover]:
            expected[mover].append(action.card)
        game.apply(action)
        if game.round == start:
            down = list(game.view(0).laid_down)
            top = game.view(0).top_discard
            got = passed_over(game.view(0))
            assert got[0] == []  # the viewer's own entry stays empty
            assert got[1:] == expected[1:]
    assert any(down)  # someone laid down in the round
    assert sum(map(len, expected[1:])) > 5


def test_search_answers_a_single_legal_action_at_once() -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=1)
    bot = SearchBot(rules, seed=1, iterations=50, time_ms=INF)
    legal = game.legal_actions()[:1]
    assert bot.choose(game.view(game.to_move or 0), legal) == legal[0]
    assert bot.last_iterations == 0


@pytest.mark.slow
@pytest.mark.parametrize("opts", [{"infer": False}, {}, {"fit": True}])
def test_search_respects_its_time_cap(opts: dict[str, bool]) -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=2)
    bot = SearchBot(rules, seed=1, iterations=10_000, time_ms=50, batch=0, **opts)
    views = SeatViews(game)
    for _ in range(12):
        seat = game.to_move
        assert seat is not None
        legal = game.legal_actions()
        view: SeatView = views.view(seat, legal)
        start = time.perf_counter()
        game.apply(bot.choose(view, legal))
        # it stops before a sample that would overrun the cap (a sample here: a few ms)
        assert time.perf_counter() - start < 0.5
        assert bot.last_iterations < 10_000
        assert bot.last_capped == (bot.last_iterations > 0)  # only the cap ends a search


def test_make_bot_builds_the_search_bot() -> None:
    rules = load_rules("liverpool")
    bot = make_bot("search", rules, seed=2, iterations=4)
    assert isinstance(bot, SearchBot)
    assert bot.name == "search"
    assert bot.iterations == 4


def buy_windows(rules: Rules, seed: int, count: int) -> list[tuple[SeatView, list[Action]]]:
    """The first ``count`` buy windows of a game of ``basic`` bots, as the
    answering seat sees them."""
    game = Game(rules, players=4, seed=seed)
    basics = [make_bot("basic", rules, seed=s) for s in range(4)]
    views = SeatViews(game)
    found: list[tuple[SeatView, list[Action]]] = []
    while len(found) < count and not game.is_over:
        mover = game.to_move
        assert mover is not None
        legal = game.legal_actions()
        view = views.view(mover, legal)
        if view.phase == "buy":
            found.append((view, legal))
        game.apply(basics[mover].choose(view, legal))
    return found


def test_quick_answers_a_buy_of_no_use_at_once() -> None:
    rules = load_rules("liverpool")
    quick = SearchBot(rules, seed=1, iterations=4, time_ms=INF)
    thorough = SearchBot(rules, seed=1, iterations=4, time_ms=INF, quick=False, batch=0)
    answered = searched = 0
    for view, legal in buy_windows(rules, seed=4, count=12):
        choice = quick.choose(view, legal)
        if quick.last_iterations == 0:
            assert choice.type == "pass"
            answered += 1
        thorough.choose(view, legal)
        searched += thorough.last_iterations == 4
    assert answered > 0  # most offered cards help no hand
    assert searched == 12  # without quick every window is searched in full


@pytest.mark.slow
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_pruning_stops_when_no_alternative_gains() -> None:
    rules = load_rules("liverpool")
    pruned = SearchBot(rules, seed=2, iterations=8, time_ms=INF, batch=2, quick=False)
    full = SearchBot(rules, seed=2, iterations=8, time_ms=INF, batch=0, quick=False)
    runs: list[int] = []
    for view, legal in buy_windows(rules, seed=5, count=6):
        pruned.choose(view, legal)
        full.choose(view, legal)
        assert full.last_iterations == 8
        runs.append(pruned.last_iterations)
    assert all(2 <= n <= 8 for n in runs)
    assert min(runs) < 8  # a pass or buy that never gained was dropped early


def test_search_base_is_basic_or_expert() -> None:
    rules = load_rules("liverpool")
    assert SearchBot(rules, base="expert").base.name == "expert"
    assert SearchBot(rules, base="basic").base.name == "basic"
    with pytest.raises(ValueError, match="base"):
        SearchBot(rules, base="random")


def test_draws_and_buys_left_to_the_base_bot_when_asked() -> None:
    rules = load_rules("liverpool")
    bot = SearchBot(rules, seed=3, iterations=2, time_ms=INF, draw_search=False,
                    buy_search=False)
    expert = make_bot("expert", rules, seed=3, time_ms=INF)  # the bot's base, called alike
    game = Game(rules, players=4, seed=6)
    basics = [make_bot("basic", rules, seed=s) for s in range(4)]
    views = SeatViews(game)
    phases: set[str] = set()
    for _ in range(80):
        mover = game.to_move
        assert mover is not None
        legal = game.legal_actions()
        view = views.view(mover, legal)
        if view.phase in ("draw", "buy") and len(legal) > 1:
            choice = bot.choose(view, legal)
            assert bot.last_iterations == 0
            assert choice == expert.choose(view, legal)
            phases.add(view.phase)
        game.apply(basics[mover].choose(view, legal))
    assert phases == {"draw", "buy"}


@pytest.mark.slow
def test_final_round_left_to_the_base_bot_when_asked() -> None:
    # a one-round game whose only round is liverpool's last: all at once
    rules = dataclasses.replace(load_rules("liverpool"), contracts=("RRR",), deal=(12,))
    assert rules.final_mode(1) == "all_at_once"
    kept = SearchBot(rules, seed=3, iterations=2, time_ms=INF)  # (the default: left to the base)
    searching = SearchBot(rules, seed=3, iterations=2, time_ms=INF, final_search=True)
    expert = make_bot("expert", rules, seed=3, time_ms=INF)  # the bot's base, called alike
    game = Game(rules, players=4, seed=6)
    basics = [make_bot("basic", rules, seed=s) for s in range(4)]
    views = SeatViews(game)
    asked = searched = 0
    for _ in range(60):
        mover = game.to_move
        if mover is None:
            break
        legal = game.legal_actions()
        view = views.view(mover, legal)
        if mover == 0 and len(legal) > 1:
            assert kept.choose(view, legal) == expert.choose(view, legal)
            assert kept.last_iterations == 0
            searching.choose(view, legal)
            searched += searching.last_iterations > 0
            asked += 1
        game.apply(basics[mover].choose(view, legal))
    assert asked >= 5
    assert searched > 0  # with final_search the search plays that round too


def test_other_lay_downs_are_searched_beside_the_suggestion() -> None:
    # two sets: the hand can lay down its sevens with or without the joker, and
    # the nines; each other way leaves other cards in hand, and every one is legal
    from positions import build

    game = build(hands=["7H 7S 7D * 9S 9D 9C 9H KH QC", "4C KS", "3D KH"], stock="AS",
                 discards="QD", phase="play")
    legal = game.legal_actions()
    suggested = next(a for a in legal if isinstance(a, LayDown))
    bot = SearchBot(game.rules, seed=1, iterations=2, time_ms=INF)
    view = game.view(0)
    others = bot.other_lay_downs(view, suggested)
    assert 1 <= len(others) <= 2
    lefts = {tuple(sorted(map(str, cards_left(view.hand, a.melds))))
             for a in [suggested, *others] if isinstance(a, LayDown)}
    assert len(lefts) == 1 + len(others)  # each leaves other cards in hand
    for a in others:
        assert game.can_apply(a), a
    candidates = bot.candidate_actions(view, legal, suggested)
    assert all(a in candidates for a in others)
    assert SearchBot(game.rules, lay_downs=0).other_lay_downs(view, suggested) == []
    choice = bot.choose(view, legal)
    assert game.can_apply(choice)


# ------------------------------------------------------------ value="learned"
def test_value_net_runs_its_layers_in_pure_python() -> None:
    # two inputs, two hidden ReLU units, two outputs; weights one list per input
    net = ValueNet([([[1.0, -1.0], [2.0, 0.0]], [0.0, 0.5]), ([[1.0, 0.0], [1.0, 1.0]], [0.0, -1.0])])
    # hidden: (1 + 2, -1 + 0 + 0.5) -> ReLU (3, 0); out: (3 * 1 + 0 * 1, 3 * 0 + 0 * 1 - 1)
    assert net([1.0, 1.0]) == (3.0, -1.0)
    assert net([0.0, 0.0]) == (0.5, -0.5)  # hidden (0, 0.5): out (0.5 * 1, 0.5 * 1 - 1)
    with pytest.raises(ValueError, match="list of layers"):
        ValueNet.from_json({"weights": []})


def net_layers(net: ValueNet) -> list[tuple[list[list[float]], list[float]]]:
    """``net``'s layers in the layout ``ValueNet`` is built from (one list of
    weights per input)."""
    return [([list(col) for col in zip(*units, strict=True)], biases)
            for units, biases in net.layers]


def test_the_shipped_network_fits_the_features_of_liverpool_at_four() -> None:
    net = ValueNet.shipped()
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=9)
    rows = features(BasicBot(rules), game)
    assert [len(r) for r in rows] == [net.inputs] * 4
    assert net.applies(rules, 4)
    assert net.rules == "liverpool"
    assert not net.applies(load_rules("dansk"), 4)  # other contracts
    assert not net.applies(rules, 5)
    # fitted to liverpool's games: not to other rules with its contracts, nor
    # to liverpool with a house rule more; the same rules under another name fit
    assert load_rules("london").contracts == load_rules("remi").contracts == rules.contracts
    assert not net.applies(load_rules("london"), 4)
    assert not net.applies(load_rules("remi"), 4)
    assert not net.applies(load_rules("liverpool", buy_limit_per_round=1), 4)
    assert net.applies(dataclasses.replace(rules, name="kitchen table"), 4)
    # a network that names no preset applies wherever its contracts are
    unnamed = ValueNet(net_layers(net), contracts=rules.contracts)
    assert unnamed.rules is None
    assert unnamed.applies(load_rules("london"), 4)
    assert not unnamed.applies(load_rules("dansk"), 4)
    # a network file's preset is a preset's name: another type or name is refused
    with pytest.raises(ValueError, match="name of a preset"):
        ValueNet.from_json({"layers": net_layers(net), "rules": 4})
    with pytest.raises(RulesError):
        ValueNet.from_json({"layers": net_layers(net), "rules": "liverpol"})
    # the final round of liverpool is all at once: its rows were never taken
    assert not net.applies_to_round(rules, 4, rules.num_rounds)
    # each seat's row starts with its own features: the same numbers, turned
    per = [r[:PER_SEAT] for r in rows]
    assert rows[1][PER_SEAT:2 * PER_SEAT] == per[2]
    assert rows[3][PER_SEAT:2 * PER_SEAT] == per[0]


def test_learned_value_is_an_option_of_search() -> None:
    rules = load_rules("liverpool")
    learned, playout = make_bot("search", rules, value="learned"), make_bot("search", rules)
    assert isinstance(learned, SearchBot)
    assert isinstance(playout, SearchBot)
    assert learned.net is ValueNet.shipped()
    assert playout.net is None
    with pytest.raises(ValueError, match="'playout' or 'learned'"):
        make_bot("search", rules, value="network")
    assert check_bot_options("search", {"value": "learned"}) == {"value": "learned"}


def test_the_hard_level_is_the_learned_search() -> None:
    """``hard`` is ``search`` with the learned value: a bot that goes to the
    server's worker process at each move (pickled) takes the shipped network
    by name, not its weights; another network still travels whole."""
    rules = load_rules("liverpool")
    hard = make_bot("hard", rules, seed=1)
    assert isinstance(hard, SearchBot)
    assert (hard.name, hard.iterations, hard.time_ms, hard.fallback) == ("hard", 16, 300.0, "base")
    assert hard.net is ValueNet.shipped()
    again = pickle.loads(pickle.dumps(hard))  # noqa: S301 - our own bytes
    assert again.net is ValueNet.shipped()
    assert again.base is again.expert  # (one expert, whose cap fallback="base" changes)
    assert len(pickle.dumps(ValueNet.shipped())) < 200
    other = ValueNet([([[1.0, -1.0], [2.0, 0.0]], [0.0, 0.5]), ([[1.0, 0.0], [1.0, 1.0]], [0.0, -1.0])])
    copied = pickle.loads(pickle.dumps(other))  # noqa: S301 - our own bytes
    assert copied is not other
    assert copied.layers == other.layers
    assert copied([1.0, 2.0]) == other([1.0, 2.0])


@pytest.mark.slow
def test_learned_search_plays_legally_and_reproducibly() -> None:
    rules = load_rules("liverpool")
    runs = []
    for _ in range(2):
        bots: list[Bot] = [SearchBot(rules, seed=4, iterations=3, time_ms=INF, value="learned")]
        bots += [make_bot("basic", rules, seed=s) for s in range(1, 4)]
        runs.append(play_rounds(rules, bots, seed=12, rounds=1)[1])
    assert runs[0] == runs[1]
    assert {"draw", "discard"} <= {a.type for a in runs[0]}


def test_learned_future_stops_at_the_next_turn_and_differs_from_the_playout() -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=6)
    seat = game.to_move
    assert seat is not None
    assert game.state.phase == "draw"
    learned = SearchBot(rules, seed=1, value="learned")
    playout = SearchBot(rules, seed=1)
    values = {}
    turn, events = game.state.turn_number, len(game.events)
    for action in game.legal_actions():
        assert isinstance(action, Draw)
        a = learned.future(game, seat, action)
        values[action.source] = a
        assert a == learned.future(game, seat, action)  # no chance left in it
        assert a != playout.future(game, seat, action)
    assert (game.state.turn_number, len(game.events)) == (turn, events)  # played in copies
    assert len(values) == 2
    assert all(-200 < v < 200 for v in values.values())


@pytest.mark.parametrize("where", ["dansk", "three players"])
def test_learned_search_plays_futures_out_where_the_network_does_not_apply(where: str) -> None:
    rules = load_rules("dansk" if where == "dansk" else "liverpool")
    game = Game(rules, players=4 if where == "dansk" else 3, seed=2)
    seat = game.to_move
    assert seat is not None
    learned = SearchBot(rules, seed=1, value="learned")
    playout = SearchBot(rules, seed=1)
    for action in game.legal_actions():
        assert learned.future(game, seat, action) == playout.future(game, seat, action)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["dansk", "three players"])
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_fallback_base_leaves_the_decision_to_expert_where_the_network_does_not_apply(
        where: str) -> None:
    """``fallback="base"`` (the ``hard`` level): where the network does not
    apply, every decision is the base ``expert``'s own, given the whole time
    cap for it and then its quarter again."""
    rules = load_rules("dansk" if where == "dansk" else "liverpool")
    players = 4 if where == "dansk" else 3
    game = Game(rules, players=players, seed=5)
    inf = float("inf")
    hard = make_bot("hard", rules, seed=1, time_ms=inf, iterations=2)
    assert isinstance(hard, SearchBot)
    alone = ExpertBot(rules, seed=1, time_ms=inf)
    others = [make_bot("basic", rules, seed=s) for s in range(players)]
    views = SeatViews(game)
    decisions = 0
    while decisions < 40 and not game.is_over:
        mover = game.to_move
        assert mover is not None
        legal = game.legal_actions()
        view = views.view(mover, legal)
        if mover == 0:
            assert hard.base_alone(view)
            action = hard.choose(view, legal)
            assert action == alone.choose(view, legal)
            assert hard.last_iterations == 0
            decisions += 1
        else:
            action = others[mover].choose(view, legal)
        game.apply(action)
    assert decisions == 40
    capped = make_bot("hard", rules, seed=1)
    assert isinstance(capped, SearchBot)
    expert = capped.expert
    assert expert is not None
    assert expert.time_ms == 75.0
    caps: list[float] = []
    choose = expert.choose

    def timed(view: SeatView, legal: Sequence[Action]) -> Action:
        caps.append(expert.time_ms)
        return choose(view, legal)

    expert.choose = timed  # type: ignore[method-assign]
    mover = game.to_move
    assert mover is not None
    legal = game.legal_actions()
    capped.choose(views.view(mover, legal), legal)
    assert caps == [300.0]  # the whole cap for that decision
    assert expert.time_ms == 75.0  # then its quarter again


def test_fallback_base_searches_where_the_network_applies() -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=4, seed=5)
    hard = make_bot("hard", rules, seed=1)
    assert isinstance(hard, SearchBot)
    mover = game.to_move
    assert mover is not None
    assert not hard.base_alone(game.view(mover))
    with pytest.raises(ValueError, match="'playout' or 'base'"):
        make_bot("search", rules, value="learned", fallback="expert")
