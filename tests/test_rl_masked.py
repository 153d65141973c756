"""What a fresh-eyes test of the RL environments found, kept fixed: only an
index the mask marks is played (a card-by-card lay-down step without
``staging`` was taken, in every environment, and could loop without end);
``illegal="fallback"`` says so in the AEC info too; PettingZoo's own render
test passes ("human" prints, returns None); the Gymnasium environment checks
its ``render_mode``; OpenSpiel's ``rounds`` keeps ordinary rounds, its chance
node takes only its declared outcomes, and its observation string names the
contract in words."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import render_test

import liverpool.rl.openspiel  # noqa: F401 - registers python_liverpool
from liverpool import ActionError, Game, load_rules
from liverpool.actions import Draw, Stage
from liverpool.rl import env, raw_env, single_agent_env
from liverpool.rl.common import Masker


def test_the_aec_env_plays_only_what_the_mask_marks() -> None:
    e = raw_env("liverpool", 3)
    e.reset(seed=2)
    game = e.game
    assert game is not None
    rng = random.Random(1)
    for _ in range(6000):
        if game.phase == "play" and game.suggest_lay_down() is not None:
            break
        mask = e.observe(e.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        e.step(int(legal[rng.randrange(len(legal))]))
    else:
        raise AssertionError("no lay-down came")
    stage = next(a for a in game.staging_actions() if isinstance(a, Stage))
    index = e.space.encode(stage, game)
    mask = e.observe(e.agent_selection)["action_mask"]
    assert mask[index] == 0
    before = game.to_json()
    with pytest.raises(ActionError) as refused:
        e.step(index)
    assert refused.value.code == "index_masked"
    assert game.to_json() == before  # nothing changed: no card staged
    assert game.staged == ((), (), ()) or not any(game.staged)
    # an index that is an action the engine refuses: its own reason
    draw = e.space.encode(Draw("stock"), game)
    with pytest.raises(ActionError) as engine:
        e.step(draw)
    assert engine.value.code != "index_masked"
    assert game.to_json() == before
    # with the fallback, the first legal action is played and the agent is told
    f = raw_env("liverpool", 3, illegal="fallback")
    f.reset(seed=2)
    agent = f.agent_selection
    f.step(f.space.size - 5)  # (an index no legal action has at the start)
    assert f.infos[agent].get("illegal") is True
    assert f.game is not None
    assert f.game.version == 1


def test_the_gymnasium_env_falls_back_on_a_masked_index_and_never_loops() -> None:
    g = single_agent_env("liverpool", 3, opponents="basic", seat=0)
    obs, info = g.reset(seed=5)
    game = g.game
    assert game is not None
    rng = random.Random(0)
    index = None
    for _ in range(3000):
        if game.to_move == 0 and game.phase == "play" and game.suggest_lay_down() is not None:
            stage = next(a for a in game.staging_actions() if isinstance(a, Stage))
            index = g.space.encode(stage, game)
            break
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, term, _, info = g.step(int(legal[rng.randrange(len(legal))]))
        assert not term
    assert index is not None
    assert obs["action_mask"][index] == 0
    version = game.version
    obs, _, _, _, info = g.step(index)
    assert info.get("illegal") is True
    assert not any(game.staged)  # the stage step was not played: the fallback was
    assert game.version > version
    with pytest.raises(ValueError, match="render_mode"):
        single_agent_env("london", 3, render_mode="rgb_array")


def test_pettingzoo_render_test_passes() -> None:
    render_test(lambda render_mode=None: env("london", 3, render_mode=render_mode))
    e = raw_env("london", 3, render_mode="human")
    e.reset(seed=0)
    assert e.render() is None


def test_openspiel_plays_only_legal_actions_and_declared_deals() -> None:
    game = pyspiel.load_game("python_liverpool", {"rules": "london", "players": 3, "rounds": 1})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="chance outcome"):
        state.apply_action(10**6)
    with pytest.raises(ValueError, match="chance outcome"):
        state.apply_action(4096)  # (the declared outcomes are 0 to 4095)
    state.apply_action(7)
    assert "Contract(" not in state.observation_string(0)
    assert "2 sets" in state.observation_string(0)
    legal = set(state.legal_actions())
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in legal)
    before = str(state)
    with pytest.raises(ActionError):
        state.apply_action(illegal)
    assert str(state) == before


@pytest.mark.parametrize("preset", ["liverpool", "london", "dansk", "remi"])
def test_openspiel_rounds_keeps_ordinary_rounds(preset: str) -> None:
    """``rounds=N``: the first N rounds as the preset plays them; the last one
    kept is no final round (in the preset only its own last round is)."""
    whole = load_rules(preset)
    for rounds in (1, 2):
        game = pyspiel.load_game("python_liverpool", {"rules": preset, "rounds": rounds})
        rules = game.parts.rules
        assert rules.num_rounds == rounds
        assert [rules.final_mode(r) for r in range(1, rounds + 1)] == \
            [whole.final_mode(r) for r in range(1, rounds + 1)]
    last = pyspiel.load_game("python_liverpool", {"rules": preset, "rounds": whole.num_rounds})
    assert last.parts.rules.final_mode(whole.num_rounds) == whole.final_mode(whole.num_rounds)


def test_the_masker_refuses_an_index_of_another_seat() -> None:
    rules = load_rules("liverpool")
    game = Game(rules, players=3, seed=1)
    from liverpool.action_space import ActionSpace
    masker = Masker(ActionSpace(rules, 3), staging=False)
    legal = masker.indices(game, 0)
    assert masker.action(game, legal[0], 0) in game.legal_actions(0)
    with pytest.raises(ActionError):
        masker.action(game, legal[0], 1)  # seat 1 is not to move
