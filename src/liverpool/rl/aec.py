"""The PettingZoo AEC environment: every seat an agent (see docs/rl.md)."""

from __future__ import annotations

import random
from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..actions import ActionError
from ..engine import Game
from ..rules import Rules
from .common import (
    action_index,
    check_max_steps,
    check_modes,
    check_options,
    reset_seed,
    resolve_rules,
    round_rewards,
    seat_spaces,
)
from .observation import ObservationTracker

__all__ = ["LiverpoolAECEnv", "env", "raw_env"]


class LiverpoolAECEnv(AECEnv):  # type: ignore[misc]
    """A game of Liverpool as a PettingZoo AEC environment.

    Agents ``player_0`` … ``player_{n-1}`` are the seats. The agent selected is
    always ``game.to_move``: in a buy or call window the seats answer one at a
    time in priority order. Observations are ``{"observation": float32 vector,
    "action_mask": int8 mask}``; actions are indices of
    :class:`~liverpool.ActionSpace`. The selected agent's info also lists its
    legal indices, ``info["legal_moves"]`` (the mask's nonzero positions, in
    the order of the engine's legal actions; the other agents' infos are empty).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - as AECEnv declares it
        "name": "liverpool_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, rules: str | Rules = "liverpool", players: int = 4, *,
                 reward: str = "round", reward_scale: float = 0.01, staging: bool = False,
                 illegal: str = "raise", max_steps: int | None = None,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        check_modes(reward, illegal)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        players, reward_scale, staging = check_options(players, reward_scale, staging)
        self.rules = resolve_rules(rules, options)
        self.players = players
        self.reward_mode = reward
        self.reward_scale = reward_scale
        self.staging = staging
        self.illegal = illegal
        self.max_steps = check_max_steps(max_steps)
        self.render_mode = render_mode
        self.space, self.masker, self.encoder, obs_space = seat_spaces(
            self.rules, players, staging)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        act_space = spaces.Discrete(self.space.size)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._rng = random.Random()  # noqa: S311 - the environment's deals, not secrets
        self.game: Game | None = None
        self._cache: dict[str, tuple[int, dict[str, Any]]] = {}

    def __str__(self) -> str:
        return f"liverpool_v0({self.rules.name}, {self.players} players)"

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng, game_seed = reset_seed(self._rng, seed)
        self.game = Game(self.rules, self.players, seed=game_seed)
        self.tracker = ObservationTracker(self.encoder, self.game)
        self._cache = {}
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._rewarded = False  # is some reward of the last step not 0?
        self._round = self.game.round
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        to_move = self.game.to_move
        assert to_move is not None  # noqa: S101 - narrows the type for mypy
        self.agent_selection = self.agents[to_move]
        self.infos[self.agent_selection] = {"legal_moves": self._legal_moves(to_move)}

    def _legal_moves(self, seat: int) -> list[int]:
        """The legal indices of ``seat`` (to move), in the order of its legal actions."""
        return self.masker.indices(self.game, seat)  # type: ignore[arg-type]

    # ---------------------------------------------------------- observe
    def observe(self, agent: str) -> dict[str, Any]:
        game = self.game
        if game is None:
            raise RuntimeError("reset() the environment first")
        v = game.version
        hit = self._cache.get(agent)
        if hit is not None and hit[0] == v:
            return hit[1]
        seat = self.agent_name_mapping[agent]
        active = agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent))
        obs = {"observation": self.tracker.observe(seat),
               "action_mask": self.masker.mask(game, seat if active else None)}
        self._cache[agent] = (v, obs)
        return obs

    # ------------------------------------------------------------- step
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None  # noqa: S101 - narrows the type for mypy
        if action is None:
            raise TypeError(f"None is the action of a terminated or truncated agent only: "
                            f"{agent} is to move, give it an action index (an int)")
        index = action_index(action)  # (not an index: TypeError, even with illegal="fallback")
        seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        illegal = False
        try:
            act = self.masker.action(game, index, seat)
            events = game.apply(act, seat=seat)
        except ActionError:
            if self.illegal == "raise":
                raise
            illegal = True
            events = game.apply(self.masker.fallback(game, seat), seat=seat)
        self.steps += 1
        rewards = self.rewards
        got = None
        if game.round != self._round or game.is_over:  # a RoundEnded (and GameEnded) now
            self._round = game.round
            got = round_rewards(events, self.players, self.reward_mode, self.reward_scale)
        if got is not None:
            for a in rewards:
                rewards[a] = 0.0
            for a in self.agents:
                rewards[a] = got[self.agent_name_mapping[a]]
            self._rewarded = True
        elif self._rewarded:  # (else every reward is 0 already)
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        to_move = game.to_move
        infos = self.infos
        if to_move is None:
            for a in self.agents:
                self.terminations[a] = True
                infos[a] = {}
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
                infos[a] = {}
            self.agent_selection = self.agents[to_move]
        else:
            new = self.agent_selection = self.possible_agents[to_move]
            if new != agent:
                infos[agent] = {}
            infos[new] = {"legal_moves": self._legal_moves(to_move)}
        if self._rewarded:  # (adding zeros changes nothing)
            self._accumulate_rewards()
        if illegal:  # (the fallback played: said to the agent whose index it replaced)
            infos[agent] = {**infos[agent], "illegal": True}
        if self.render_mode == "human":
            self.render()

    # ----------------------------------------------------------- render
    def render(self) -> str | None:
        """The whole board in words, every hand shown (for a person watching or
        debugging, never an agent's input): returned with ``render_mode="ansi"``,
        printed with ``"human"`` (and None returned, as PettingZoo asks)."""
        if self.render_mode is None:
            return None
        text = self._board()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _board(self) -> str:
        game = self.game
        if game is None:
            return ""
        lines = [f"round {game.round} · {game.phase} · seat {game.to_move} to move"]
        for seat in range(self.players):
            lines.append(f"  seat {seat}: {game.describe_hand(seat)}"
                         f"{' (down)' if game.laid_down[seat] else ''}")
        lines.append(f"  table: {' | '.join(str(m) for m in game.table) or '-'}")
        top = game.discards[-1] if game.discards else None
        lines.append(f"  discard: {top if top is not None else '-'} · stock {game.stock_size}")
        return "\n".join(lines)

    def close(self) -> None:
        self.game = None


def raw_env(rules: str | Rules = "liverpool", players: int = 4,
            **options: Any) -> LiverpoolAECEnv:
    """The environment without PettingZoo's wrappers."""
    return LiverpoolAECEnv(rules, players, **options)


def env(rules: str | Rules = "liverpool", players: int = 4, **options: Any) -> Any:
    """The AEC environment, wrapped in PettingZoo's order enforcing wrapper
    (``raw_env`` without it: faster)."""
    return wrappers.OrderEnforcingWrapper(raw_env(rules, players, **options))
