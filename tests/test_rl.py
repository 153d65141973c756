"""The learning environments: PettingZoo AEC, Gymnasium single agent (OpenSpiel: test_rl_openspiel.py)."""

from __future__ import annotations

import itertools
import random
import time
import warnings
from typing import Any

import gymnasium  # noqa: F401
import numpy as np
import pettingzoo  # noqa: F401
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from liverpool import ActionError, Game, load_rules
from liverpool.rl import (
    LiverpoolSingleAgentEnv,
    ObservationEncoder,
    ObservationTracker,
    env,
    make,
    raw_env,
    single_agent_env,
)
from liverpool.rl.common import placing_rewards

PRESETS = ("liverpool", "london", "dansk", "remi")
#: each preset at its fewest players, at four and at its most: the encoders'
#: sizes follow the number of seats, and these are its ends and the usual table
EDGES = [(p, n) for p in PRESETS
         for n in sorted({load_rules(p).players[0], 4, load_rules(p).players[1]})]


def _random_steps(e, steps: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    for n, agent in enumerate(e.agent_iter()):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, agent
        e.step(int(legal[rng.randrange(len(legal))]))
        if n >= steps:
            break


def test_api_quick() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("liverpool", 4), num_cycles=200)
    seed_test(lambda: env("london", 3), num_cycles=100)


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
@pytest.mark.parametrize(("preset", "players"), EDGES)
def test_api_every_preset(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(preset, players), num_cycles=1000)
    seed_test(lambda: env(preset, players), num_cycles=500)


@pytest.mark.parametrize(("preset", "players"), [("liverpool", 4), ("dansk", 6), ("remi", 3)])
@pytest.mark.slow
def test_observation_matches_the_view(preset: str, players: int) -> None:
    """The incremental observation equals the one built from each SeatView."""
    rules = load_rules(preset)
    enc = ObservationEncoder(rules, players)
    game = Game(rules, players, seed=3)
    tracker = ObservationTracker(enc, game)
    rng = random.Random(2)
    for step in range(1500):
        if game.is_over:
            break
        if step % 2 == 0:
            for seat in range(players):
                assert np.array_equal(tracker.observe(seat), enc.from_view(game.view(seat)))
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def test_masks_and_windows() -> None:
    """The mask is non-zero only for the agent selected, which is game.to_move,
    also in buy windows (the seats answer one at a time in priority order)."""
    e = raw_env("liverpool", 4)
    e.reset(seed=5)
    rng = random.Random(1)
    windows = 0
    for _ in range(800):
        game = e.game
        assert e.agent_selection == f"player_{game.to_move}"
        if game.phase == "buy":
            windows += 1
            assert game.to_move == game.answering[0]
        for a in e.agents:
            mask = e.observe(a)["action_mask"]
            assert mask.dtype == np.int8
            assert mask.shape == (e.space.size,)
            assert (mask.any()) == (a == e.agent_selection)
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        # the selected agent's info lists the same indices; the others' infos are empty
        assert sorted(e.infos[e.agent_selection]["legal_moves"]) == legal.tolist()
        assert all(e.infos[a] == {} for a in e.agents if a != e.agent_selection)
        e.step(int(legal[rng.randrange(len(legal))]))
    assert windows > 0


@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
@pytest.mark.slow
def test_legal_moves_until_the_end() -> None:
    """A whole game picked from ``info["legal_moves"]``: every pick is legal, and
    at the end every agent is done with an empty info."""
    e = raw_env("remi", 3)
    e.reset(seed=2)
    rng = random.Random(3)
    steps = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        if term or trunc:
            assert info == {}
            e.step(None)
            continue
        moves = info["legal_moves"]
        assert moves
        assert all(obs["action_mask"][i] == 1 for i in moves)
        e.step(moves[rng.randrange(len(moves))])
        steps += 1
    assert e.game is not None
    assert e.game.is_over
    assert steps > 100


def test_rewards_round_and_placing() -> None:
    assert placing_rewards([10, 30, 10, 50]) == [2 / 3, -1 / 3, 2 / 3, -1.0]
    rules = load_rules("london", contracts=["SS"], deal=[10])
    for mode in ("round", "placing"):
        e = raw_env(rules, 3, reward=mode)
        e.reset(seed=1)
        total = dict.fromkeys(e.possible_agents, 0.0)
        rng = random.Random(0)
        while e.agents:
            agent = e.agent_selection
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[rng.randrange(len(legal))]))
            for a, r in e.rewards.items():
                total[a] += r
            del agent
        totals = [-v / 0.01 for v in total.values()] if mode == "round" else None
        if mode == "round":
            assert any(t != 0 for t in totals)  # a round was scored
        else:
            assert sum(total.values()) == pytest.approx(0.0)


def test_illegal_and_staging() -> None:
    e = raw_env("liverpool", 4)
    e.reset(seed=0)
    with pytest.raises(ActionError):
        e.step(e.space.size - 5)
    e = raw_env("liverpool", 4, illegal="fallback", staging=True)
    e.reset(seed=0)
    e.step(e.space.size - 5)
    _random_steps(e, 300)


def test_single_agent_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(single_agent_env("london", 3, opponents="random"), skip_render_check=True)
    s = make("liverpool/Liverpool-v0", rules="london", players=3, opponents="basic").unwrapped
    obs, info = s.reset(seed=4)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    assert np.array_equal(s.action_masks(), info["action_mask"])
    rng = random.Random(0)
    for _ in range(200):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, term, _, info = s.step(int(legal[rng.randrange(len(legal))]))
        if term:
            break


# ------------------------------------------------ reproducible opponents
def _episode(e: LiverpoolSingleAgentEnv, seed: int, steps: int) -> list[bytes]:
    """The agent's observations over ``steps`` steps of a fixed policy (the
    k-th step plays the (k mod n)-th of the n legal indices)."""
    obs, _ = e.reset(seed=seed)
    out = []
    for k in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, term, _, _ = e.step(int(legal[k % len(legal)]))
        out.append(obs["observation"].tobytes())
        if term:
            break
    return out


def test_opponent_kinds_have_no_time_cap() -> None:
    """Bots built from kind names have no wall-clock cap (their iteration
    budget ends each search); the kinds without a cap are built as usual."""
    def bots(opponents: Any, seat: int = 0) -> list[Any]:
        s = single_agent_env("london", 3, opponents=opponents, seat=seat)
        s.reset(seed=3)
        return [b for b in s.bots if b is not None]

    expert, hard = bots(["expert", "hard"])
    assert (expert.name, hard.name) == ("expert", "hard")
    assert expert.time_ms == hard.time_ms == float("inf")
    assert hard.iterations == 16  # (the rest of the level's options stay)
    searches = bots("search", seat=2)
    assert [b.name for b in searches] == ["search", "search"]
    assert all(b.time_ms == b.base.time_ms == float("inf") for b in searches)
    assert [b.name for b in bots(["random", "basic"])] == ["random", "basic"]


@pytest.mark.slow
@pytest.mark.no_cover  # whole games of the bots: their lines are covered by quicker tests; traced 4-5x slower
@pytest.mark.parametrize("kind", ["expert", "search"])
def test_time_capped_kinds_replay_on_a_slow_clock(kind: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed gives the same episode when every reading of the clock is
    1000 s after the last (a loaded machine at its worst): with their default
    caps these bots would stop each search after one sample."""
    calm = _episode(single_agent_env("london", 3, opponents=kind), 5, 30)
    assert len(calm) == 30
    clock = itertools.count(0.0, 1000.0)
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    assert _episode(single_agent_env("london", 3, opponents=kind), 5, 30) == calm


class _ReseededBot:
    """A random bot with a ``reseed`` method, which the environment calls at
    each reset."""

    name = "reseeded"

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.rng = random.Random()
        self.seeds: list[int] = []

    def choose(self, view: Any, legal: Any) -> Any:
        return legal[self.rng.randrange(len(legal))]

    def reseed(self, seed: int) -> None:
        self.seeds.append(seed)
        self.rng.seed(seed)


def test_bot_values_with_reseed_replay() -> None:
    rules = load_rules("london")
    bots = [_ReseededBot(rules), _ReseededBot(rules)]
    s = single_agent_env(rules, 3, opponents=bots)
    first = _episode(s, 7, 60)
    assert _episode(s, 7, 60) == first
    assert _episode(s, 8, 60) != first
    for bot in bots:
        assert len(bot.seeds) == 3
        assert bot.seeds[0] == bot.seeds[1] != bot.seeds[2]
    assert bots[0].seeds[0] != bots[1].seeds[0]  # each seat its own stream
