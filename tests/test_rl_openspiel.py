"""The OpenSpiel game ``python_liverpool``: registration, observations and the
information state (which must never show another seat's hand or the stock
order), serialization, OpenSpiel's random simulation test on whole games, and
ISMCTS with the ``Game.from_view`` resampler."""

from __future__ import annotations

import contextlib
import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python import observation
from open_spiel.python.algorithms import ismcts
from open_spiel.python.bots import uniform_random

from liverpool import Game, load_rules
from liverpool.cards import Card, CardError
from liverpool.rl import openspiel as lo


def _load(**params: Any) -> Any:
    return pyspiel.load_game("python_liverpool", params)


def _play(state: Any, steps: int, rng: random.Random, *, round_one: bool = False) -> list[int]:
    """Random legal actions (at most ``steps``; with ``round_one``, stop before
    the first round ends); returns them."""
    played = []
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        if round_one:
            after = state.clone()
            after.apply_action(action)
            if after.game.round != 1 or after.game.results().round_scores:
                break
        state.apply_action(action)
        played.append(action)
    return played


def _cards_in(value: Any, out: set[int]) -> None:
    """The card kinds named anywhere in JSON data (cards are strings)."""
    if isinstance(value, str):
        with contextlib.suppress(CardError):  # not a card
            out.add(Card.parse(value).index)
    elif isinstance(value, list):
        for v in value:
            _cards_in(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _cards_in(v, out)


def _info(state: Any, seat: int) -> tuple[str, list[float], str, list[float]]:
    return (state.information_state_string(seat), state.information_state_tensor(seat),
            state.observation_string(seat), state.observation_tensor(seat))


# ------------------------------------------------------------ the game type
def test_game_type_and_shapes() -> None:
    game = _load(rules="liverpool", players=4)
    gt = game.get_type()
    assert gt.short_name == "python_liverpool"
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.provides_information_state_string
    assert gt.provides_information_state_tensor
    assert gt.provides_observation_string
    assert gt.provides_observation_tensor
    enc = game.parts.encoder
    n, r = 4, enc.num_rounds
    extra = 3 * n * 53 + 53 + r * n + lo.RECENT * (n + len(lo.KINDS) + 53)
    assert game.observation_tensor_shape() == [enc.size]
    assert game.information_state_tensor_shape() == [enc.size + extra]
    assert [name for name, _ in lo.HISTORY_SECTIONS] == [
        "discarded", "taken", "passed", "drawn", "round_points", "recent"]
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.information_state_tensor(0)) == enc.size + extra
    state.apply_action(11)
    for p in range(n):
        assert len(state.information_state_tensor(p)) == enc.size + extra
        assert len(state.observation_tensor(p)) == enc.size
        assert state.information_state_string(p).startswith(state.observation_string(p))
    # the observers of OpenSpiel's observation module: the same vectors, by section
    info = observation.make_observation(game, observation.INFO_STATE_OBS_TYPE)
    obs = observation.make_observation(game)
    info.set_from(state, 2)
    obs.set_from(state, 2)
    assert np.array_equal(info.tensor, state.information_state_tensor(2))
    assert np.array_equal(obs.tensor, state.observation_tensor(2))
    assert np.array_equal(info.tensor[:enc.size], obs.tensor)
    assert info.dict["recent"].shape == (lo.RECENT, n + len(lo.KINDS) + 53)
    assert info.dict["round_points"].shape == (r, n)
    with pytest.raises(ValueError, match="observes one seat"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))


@pytest.mark.slow
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_history_sections_follow_the_round() -> None:
    """The summary after the observation: the discards, takes and passes of
    each seat, the seat's own stock draws and the recent actions of the round,
    relative to the observing seat (counted here from the events and moves)."""
    game = _load(rules="liverpool", players=4)
    state = game.new_initial_state()
    state.apply_action(3)
    info = observation.make_observation(game, observation.INFO_STATE_OBS_TYPE)
    rng = random.Random(5)
    kinds = {k: i for i, k in enumerate(lo.KINDS)}
    n = 4
    rows = {k: np.zeros((n, 53)) for k in ("discarded", "taken", "passed")}
    checked = rounds = 0
    for _ in range(1500):
        if state.is_terminal():
            break
        g = state.game
        seat = state.current_player()
        top = g.discards[-1] if g.discards else None
        offered = g.offered_card
        before = len(g.events)
        action = rng.choice(state.legal_actions())
        move = state.parts.masker.action(g, action, seat)
        state.apply_action(action)
        new = g.events[before:]
        if move.type == "pass" and offered is not None:
            rows["passed"][seat, offered.index] += 1
        if move.type == "draw" and move.source == "stock" and top is not None:
            rows["passed"][seat, top.index] += 1
        for e in new:
            if e.type == "round_started":
                for r in rows.values():
                    r.fill(0)
                rounds += 1
            elif e.type == "discard":
                rows["discarded"][e.seat, e.card.index] += 1
            elif e.type in ("take", "buy"):
                rows["taken"][e.seat, e.card.index] += 1
        start = max([i for i, e in enumerate(g.events) if e.type == "round_started"])
        for p in range(n):
            info.set_from(state, p)
            d = info.dict
            order = [(p + k) % n for k in range(n)]
            for name, r in rows.items():
                assert np.array_equal(d[name], r[order]), name
            drawn = np.zeros(53)
            for e in g.events_for(p, start):
                if e.type in ("draw", "penalty") and e.seat == p and e.card is not None:
                    drawn[e.card.index] += 1
                elif e.type == "buy" and e.seat == p:
                    for c in e.penalty:
                        drawn[c.index] += 1
            assert np.array_equal(d["drawn"], drawn)
            points = [[t * 0.01 for t in (sc[s] for s in order)]
                      for sc in g.results().round_scores]
            if points:
                assert np.allclose(d["round_points"][:len(points)], points)
            assert not d["round_points"][len(points):].any()
            if any(e.type == "round_started" for e in new):
                continue
            rel = (seat - p) % n
            recent = d["recent"][0]
            if move.type == "discard":
                assert recent[rel] == 1
                assert recent[n + kinds["discard"]] == 1
                assert recent[n + len(lo.KINDS) + move.card.index] == 1
                checked += 1
            elif move.type == "pass":
                assert recent[rel] == 1
                assert recent[n + kinds["pass"]] == 1
                checked += 1
            elif move.type == "draw" and not any(e.type == "take" for e in new):
                kind = "draw_stock" if move.source == "stock" else "take_discard"
                assert recent[rel] == 1
                assert recent[n + kinds[kind]] == 1
                checked += 1
    assert checked > 300
    assert rounds >= 1


def test_make_py_observer_arguments() -> None:
    game = _load(rules="london", players=3)
    plain = game.make_py_observer({})                      # parameters only
    assert not plain.perfect_recall
    with pytest.raises(ValueError, match="take no parameters"):
        game.make_py_observer(None, {"x": 1})


def test_rounds_parameter() -> None:
    """``rounds``: 0 (the default) and the preset's count play the whole game, 1..R
    the first rounds; a negative count or more rounds than the preset has is
    refused, not taken as the whole game."""
    whole = load_rules("london").num_rounds
    assert whole == 7
    assert _load(rules="london", players=3).parts.rules.num_rounds == whole
    for rounds, played in ((0, whole), (1, 1), (3, 3), (whole, whole)):
        assert _load(rules="london", players=3, rounds=rounds).parts.rules.num_rounds == played
    for rounds in (-1, whole + 1, 99):
        with pytest.raises(ValueError, match=f"rounds must be 0 .* or 1 to 7 .*not {rounds}"):
            _load(rules="london", players=3, rounds=rounds)


# --------------------------------------------------- what the state reveals
def _hidden_swap_case(preset: str, players: int, seed: int, where: str) -> int:
    """Play a game A; rename two card kinds that seat 0 never saw in the deal
    and replay the same actions as game B. ``where``: one kind is in seat 1's
    hand and the other in seat 2's (``hands``) or in the stock (``stock``), or
    both are in the stock and alike in every hand (``stock_order``: B's hands
    are A's, its stock A's in another order). While the public states agree, seat 0's information state and
    observation must be equal in A and B; seat 1 must see a difference when
    its hand changed. Returns the steps compared."""
    game = _load(rules=preset, players=players)
    a = game.new_initial_state()
    a.apply_action(seed)
    rng = random.Random(seed)
    played = _play(a, 120, rng, round_one=True)
    ga = a.game
    rules = ga.rules
    seen: set[int] = set()
    replay = game.new_initial_state()
    replay.apply_action(seed)
    for action in [None, *played]:
        if action is not None:
            replay.apply_action(action)
        seen.update(c.index for c in replay.game.hand(0))
        _cards_in([e.to_json() for e in replay.game.events_for(0)], seen)

    def hidden_in(seat: int) -> list[Card]:
        return [c for c in ga.hand(seat) if c.index not in seen and not rules.is_wild(c)
                and not c.is_joker]

    def held(seat: int, card: Card) -> int:
        return sum(1 for c in ga.hand(seat) if c.index == card.index)

    in_stock = [c for c in ga.state.stock if c.index not in seen and not rules.is_wild(c)
                and not c.is_joker]
    if where == "stock_order":  # every hand holds as many of one kind as of the other
        x, y = next((c, d) for c in in_stock for d in in_stock if c.index != d.index
                    and all(held(s, c) == held(s, d) for s in range(players)))
    else:
        x = hidden_in(1)[0]
        others = in_stock if where == "stock" else hidden_in(2)
        # (seat 1 must hold a different number of the two kinds: renaming changes its hand)
        y = next(c for c in others if held(1, c) != held(1, x))
    kind, deck = ga.chance.log[0]
    assert kind == "deal"
    swap = {x.index: y, y.index: x}
    renamed = tuple(swap.get(c.index, c) for c in deck)
    gb = Game(rules, players, seed=ga.seed, chance=[("deal", renamed)])
    b = lo.LiverpoolState(game, None)
    b.inner = gb
    a = game.new_initial_state()
    a.apply_action(seed)
    compared = 0
    holder_differs = False
    for action in [None, *played]:
        if action is not None:
            if action not in b.legal_actions():
                break
            a.apply_action(action)
            b.apply_action(action)
        if a.game.view(None).to_json() != b.game.view(None).to_json():
            break  # the public states parted (a hidden card changed a move)
        ia, ib = _info(a, 0), _info(b, 0)
        assert ia[0] == ib[0]
        assert ia[2] == ib[2]
        assert np.array_equal(ia[1], ib[1])
        assert np.array_equal(ia[3], ib[3])
        if _info(a, 1)[2] != _info(b, 1)[2]:
            holder_differs = True
        compared += 1
    # the games do differ where seat 0 cannot see
    if where == "stock_order":
        assert sorted(map(str, a.game.state.stock)) == sorted(map(str, b.game.state.stock))
        assert list(map(str, a.game.state.stock)) != list(map(str, b.game.state.stock))
    else:
        assert sorted(map(str, a.game.hand(1))) != sorted(map(str, b.game.hand(1)))
        assert holder_differs
    return compared


@pytest.mark.parametrize(("preset", "players", "seed"), [
    ("liverpool", 4, 1),
    pytest.param("london", 3, 2, marks=pytest.mark.slow),
    pytest.param("dansk", 3, 4, marks=pytest.mark.slow),
    pytest.param("remi", 6, 3, marks=pytest.mark.slow),
    pytest.param("liverpool", 8, 3, marks=pytest.mark.slow)])
@pytest.mark.parametrize("where", ["hands", "stock", "stock_order"])
@pytest.mark.slow
def test_information_state_hides_other_hands_and_the_stock(preset: str, players: int,
                                                           seed: int, where: str) -> None:
    assert _hidden_swap_case(preset, players, seed, where) >= 20


def test_resampler_keeps_the_information_state() -> None:
    """A resampled state (other hands and the stock dealt at random) gives the
    player the same information state and observation as the real one."""
    game = _load(rules="liverpool", players=4)
    state = game.new_initial_state()
    state.apply_action(8)
    rng = random.Random(3)
    differs = known = 0
    for _ in range(12):
        _play(state, 37, rng)
        if state.is_terminal():
            break
        p = state.current_player()
        sample = lo.resampler(state, p, random.Random(rng.random()))
        for a, b in zip(_info(state, p), _info(sample, p), strict=True):
            assert np.array_equal(a, b) if isinstance(a, list) else a == b
        assert sample.legal_actions() == state.legal_actions()
        # each other hand holds the cards it was seen to take (and still has)
        enc = game.parts.encoder
        seen_taken = enc.split(np.array(state.observation_tensor(p), np.float32))["seen_taken"]
        for rel in range(1, 4):
            held = np.zeros(53)
            for c in sample.game.hand((p + rel) % 4):
                held[c.index] += 1
            assert (held >= seen_taken[rel - 1]).all()
            known += int(seen_taken[rel - 1].sum())
        others = [s for s in range(4) if s != p]
        if any(sorted(map(str, state.game.hand(s))) != sorted(map(str, sample.game.hand(s)))
               for s in others):
            differs += 1
        # the sample plays on
        _play(sample, 20, random.Random(1))
    assert differs >= 10
    assert known > 0


# ---------------------------------------------------------- serialization
def test_serialize_and_pickle() -> None:
    game = _load(rules="dansk", players=4)
    state = game.new_initial_state()
    state.apply_action(21)
    rng = random.Random(2)
    _play(state, 150, rng)
    data = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(data)
    state3 = pickle.loads(pickle.dumps(state))  # noqa: S301 - our own bytes, just made
    assert str(game2) == str(game)
    for other in (state2, state3):
        assert str(other) == str(state)
        assert other.history() == state.history()
        for p in range(4):
            for x, y in zip(_info(state, p), _info(other, p), strict=True):
                assert np.array_equal(x, y) if isinstance(x, list) else x == y
    # all three play on alike
    for _ in range(100):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        for s in (state, state2, state3):
            s.apply_action(action)
        assert str(state2) == str(state) == str(state3)
        p = state.current_player() if not state.is_terminal() else 0
        assert state2.information_state_string(p) == state.information_state_string(p)


def test_state_json_is_the_game() -> None:
    """The pickled form carries the game as Game.to_json data."""
    game = _load(rules="london", players=3)
    state = game.new_initial_state()
    state.apply_action(1)
    _play(state, 30, random.Random(0))
    box = state.box.__getstate__()
    assert json.loads(json.dumps(box["game"])) == state.game.to_json()


# ------------------------------------------------- OpenSpiel's random test
@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
def test_openspiel_random_sim_one_round() -> None:
    game = _load(rules="london", players=3, rounds=1)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players", "rounds"), [
    ("liverpool", 4, None), ("dansk", 5, None),
    # the most seats, and the biggest deck: the first two rounds (a round ends,
    # the next is dealt, the game ends) are what random play needs minutes for
    ("remi", 6, 2), ("liverpool", 8, 2)])
def test_openspiel_random_sim_whole_game(preset: str, players: int, rounds: int | None) -> None:
    game = _load(rules=preset, players=players, **({"rounds": rounds} if rounds else {}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
def test_openspiel_random_sim_staging() -> None:
    """The card-by-card lay-down steps (staging=True) pass as well (one round:
    the round's end and the next deal are the other tests' part)."""
    game = _load(rules="liverpool", players=4, rounds=1, staging=True)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


# ------------------------------------------------------------ ISMCTS, bots
def _ismcts_bots(game: Any, simulations: int) -> list[Any]:
    rng = random.Random(0)
    bot = ismcts.ISMCTSBot(game, lo.PlacingEvaluator(), uct_c=2.0,
                           max_simulations=simulations,
                           random_state=np.random.RandomState(0),
                           allow_inconsistent_action_sets=True)
    bot.set_resampler(lambda state, player: lo.resampler(state, player, rng))
    return [bot] + [uniform_random.UniformRandomBot(i, np.random.RandomState(i))
                    for i in range(1, game.num_players())]


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
def test_openspiel_ismcts_one_round() -> None:
    game = _load(rules="london", players=3, rounds=1)
    returns = pyspiel.evaluate_bots(game.new_initial_state(), _ismcts_bots(game, 4), 1)
    assert sum(returns) == pytest.approx(0.0)
    assert len(returns) == 3
    assert all(-1.0 <= r <= 1.0 for r in returns)


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
def test_openspiel_ismcts_whole_game() -> None:
    game = _load(rules="liverpool", players=4)
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, _ismcts_bots(game, 4), 2)
    assert sum(returns) == pytest.approx(0.0)
    assert len(returns) == 4
    assert all(-1.0 <= r <= 1.0 for r in returns)
