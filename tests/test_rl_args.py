"""The learning environments' arguments: checked when given, with a message
saying which is wrong (not a TypeError from deep inside, nor a silent
conversion)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from liverpool import Game, load_rules
from liverpool.bots import make_bot
from liverpool.rl import env, raw_env, single_agent_env


def _first_legal(e: Any) -> int:
    return int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])


def _game(e: Any) -> Game:
    game: Game | None = e.game
    assert game is not None
    return game


def _np(value: Any) -> Any:
    """A numpy value where the signatures say ``int`` (they take numpy integers too)."""
    return value


# ------------------------------------------------------------ constructors
@pytest.mark.parametrize(("options", "error", "match"), [
    ({"players": "3"}, TypeError, "players must be an int, not str '3'"),
    ({"players": True}, TypeError, "players must be an int, not bool"),
    ({"players": 3.0}, TypeError, "players must be an int, not float"),
    ({"reward_scale": "x"}, TypeError, "reward_scale must be a number, not str 'x'"),
    ({"reward_scale": True}, TypeError, "reward_scale must be a number"),
    ({"reward_scale": math.nan}, ValueError, "reward_scale must be a finite number, not nan"),
    ({"reward_scale": -math.inf}, ValueError, "reward_scale must be a finite number"),
    ({"staging": "yes"}, TypeError, "staging must be True or False"),
    ({"max_steps": 0}, ValueError, "max_steps must be at least 1"),
    ({"max_steps": -3}, ValueError, "max_steps must be at least 1"),
    ({"max_steps": 2.5}, TypeError, "max_steps must be an int"),
])
def test_aec_constructor_arguments(options: dict[str, Any], error: type[Exception],
                                   match: str) -> None:
    with pytest.raises(error, match=match):
        env("london", **{"players": 3, **options})


@pytest.mark.parametrize(("options", "error", "match"), [
    ({"players": "3"}, TypeError, "players must be an int"),
    ({"seat": "0"}, TypeError, "seat must be an int, not str '0'"),
    ({"seat": True}, TypeError, "seat must be an int, not bool"),
    ({"seat": 3}, ValueError, "there is no seat 3 among 3 players"),
    ({"reward_scale": "x"}, TypeError, "reward_scale must be a number"),
    ({"staging": 1}, TypeError, "staging must be True or False"),
    ({"opponents": "nope"}, ValueError, "unknown bot 'nope'; the bots are random, basic"),
    ({"opponents": ["basic", "nope"]}, ValueError, "unknown bot 'nope'"),
    ({"opponents": [1, 2]}, TypeError, "each opponent must be a bot kind or a Bot value"),
    ({"opponents": ["basic", None]}, TypeError, "each opponent must be"),
    ({"opponents": 5}, TypeError, "opponents must be a bot kind or a list"),
    ({"opponents": ["basic"]}, ValueError, "2 opponents are needed, not 1"),
])
def test_single_agent_constructor_arguments(options: dict[str, Any], error: type[Exception],
                                            match: str) -> None:
    with pytest.raises(error, match=match):
        single_agent_env("london", **{"players": 3, **options})


def test_good_arguments_of_other_int_types() -> None:
    """numpy integers are ints; a whole reward scale is a number; kind names
    are read as make_bot reads them."""
    e = raw_env("london", _np(np.int64(3)), reward_scale=1, max_steps=_np(np.int32(5)))
    assert (e.players, e.reward_scale, e.max_steps) == (3, 1.0, 5)
    assert type(e.players) is int
    s = single_agent_env("london", _np(np.int64(3)), opponents=[" Expert", "RANDOM"],
                         seat=_np(np.int8(1)))
    assert s.seat == 1
    s.reset(seed=0)
    assert [b.name for b in s.bots if b is not None] == ["expert", "random"]


def test_max_steps_truncates_after_that_many_steps() -> None:
    for limit in (1, 3):
        e = raw_env("london", 3, max_steps=limit)
        e.reset(seed=0)
        for _ in range(limit - 1):
            e.step(_first_legal(e))
            assert not any(e.truncations.values())
        e.step(_first_legal(e))
        assert all(e.truncations.values())


# ------------------------------------------------------------------ seeds
def test_reset_seeds() -> None:
    """A numpy integer seed is its int; a float, a string or a bool is refused
    (not truncated or hashed into some other game)."""
    a, b = raw_env("london", 3), raw_env("london", 3)
    a.reset(seed=5)
    b.reset(seed=_np(np.int64(5)))
    assert _game(a).seed == _game(b).seed == 5
    assert _game(a).to_json() == _game(b).to_json()
    s = single_agent_env("london", 3, opponents="random")
    t = single_agent_env("london", 3, opponents="random")
    obs_s, _ = s.reset(seed=5)
    obs_t, _ = t.reset(seed=_np(np.uint16(5)))
    assert _game(s).seed == _game(t).seed == 5
    assert np.array_equal(obs_s["observation"], obs_t["observation"])
    bad: Any
    for bad in (1.5, 7.0, "7", True, b"7"):
        with pytest.raises(TypeError, match="seed must be an int or None"):
            a.reset(seed=bad)
        with pytest.raises(TypeError, match="seed must be an int or None"):
            s.reset(seed=bad)


# ------------------------------------------------------------------ steps
@pytest.mark.parametrize("illegal", ["raise", "fallback"])
def test_aec_step_refuses_what_is_not_an_index(illegal: str) -> None:
    """None is for a terminated or truncated agent only; a float, a bool, an
    array of one index are not indices. A refused step changes nothing, also
    with ``illegal="fallback"``."""
    e = raw_env("london", 3, illegal=illegal)
    e.reset(seed=1)
    agent, version = e.agent_selection, _game(e).version
    with pytest.raises(TypeError, match="None is the action of a terminated or truncated agent"):
        e.step(None)
    bad: Any
    for bad in (1.5, 1.0, True, np.bool_(True), np.array([0]), np.array(0.0), "0"):
        with pytest.raises(TypeError, match="an action is an index"):
            e.step(bad)
    assert (e.agent_selection, _game(e).version) == (agent, version)
    e.step(np.int64(_first_legal(e)))  # numpy integers are indices
    assert _game(e).version == version + 1
    e.step(np.array(_first_legal(e)))  # and so is a 0-d integer array
    assert _game(e).version == version + 2


def test_aec_dead_agents_still_step_none() -> None:
    """After truncation every agent steps with None (the ``agent_iter`` loop)."""
    e = env("london", 3, max_steps=2)
    e.reset(seed=0)
    stepped = 0
    for _ in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            stepped += 1
        else:
            e.step(_first_legal(e.unwrapped))
    assert stepped == 3


def test_single_agent_step_refuses_what_is_not_an_index() -> None:
    s = single_agent_env("london", 3, opponents="random")
    obs, _ = s.reset(seed=2)
    version = _game(s).version
    bad: Any
    for bad in (None, 1.5, True, np.array([0])):
        with pytest.raises(TypeError, match="an action is an index"):
            s.step(bad)
    assert _game(s).version == version
    s.step(_np(np.flatnonzero(obs["action_mask"])[0]))
    assert _game(s).version > version


def test_bot_values_are_kept() -> None:
    """A ``Bot`` value is the seat's bot at every reset (its own state kept)."""
    rules = load_rules("london")
    bots = [make_bot("random", rules, seed=1), make_bot("basic", rules, seed=2)]
    s = single_agent_env(rules, 3, opponents=bots, seat=1)
    for seed in (4, 4):
        s.reset(seed=seed)
        assert s.bots[0] is bots[0]
        assert s.bots[2] is bots[1]
