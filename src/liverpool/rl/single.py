"""The Gymnasium single-agent environment: one learning seat against bots."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..actions import ActionError
from ..bots import make_bot
from ..bots.base import Bot
from ..engine import Game
from ..errors import shown_value
from ..loop import run_bots
from ..rules import Rules
from ..views import SeatViews
from .common import (
    action_index,
    bot_options,
    check_modes,
    check_options,
    check_seed,
    reset_seed,
    resolve_rules,
    round_rewards,
    seat_spaces,
    whole,
)
from .observation import ObservationTracker

__all__ = ["LiverpoolSingleAgentEnv"]


class LiverpoolSingleAgentEnv(gymnasium.Env[dict[str, Any], int]):
    """The learning agent plays ``seat``; ``opponents`` (a bot kind, or one per
    other seat: kinds or :class:`~liverpool.bots.base.Bot` values) play the
    others. Observations are those of the AEC environment
    (``{"observation", "action_mask"}``); ``info["action_mask"]`` holds the mask
    too. An illegal index is replaced by the first legal action (reward as
    usual, ``info["illegal"] = True``) with ``illegal="fallback"`` (the default,
    so that unmasked samplers work) or raises with ``illegal="raise"``.

    Bots given by kind are built anew at each reset, seeded from the reset
    seed and with no time cap (``time_ms=inf``: each search ends on its
    iteration budget), so a seed gives the same episode under any load. A
    ``Bot`` value is used as it is, its state kept across resets; one with a
    ``reseed(seed)`` method has it called at each reset with the seed a kind
    in its seat would get.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - as Env declares it

    def __init__(self, rules: str | Rules = "liverpool", players: int = 4,
                 opponents: str | Sequence[str | Bot] = "basic", seat: int = 0, *,
                 reward: str = "round", reward_scale: float = 0.01, staging: bool = False,
                 illegal: str = "fallback", render_mode: str | None = None,
                 **options: Any) -> None:
        check_modes(reward, illegal)
        players, reward_scale, staging = check_options(players, reward_scale, staging)
        seat = whole("seat", seat)
        self.rules = resolve_rules(rules, options)
        if not 0 <= seat < players:
            raise ValueError(f"there is no seat {seat} among {players} players")
        self.players = players
        self.seat = seat
        others = players - 1
        if isinstance(opponents, str):
            kinds: list[str | Bot] = [opponents] * others
        elif isinstance(opponents, Sequence):
            kinds = list(opponents)
            if len(kinds) != others:
                raise ValueError(f"{others} opponents are needed, not {len(kinds)}")
        else:
            raise TypeError("opponents must be a bot kind or a list of one per other seat "
                            f"(kinds or Bot values), not {type(opponents).__name__}")
        #: per other seat: make_bot's options for a kind (no time cap), None for a Bot value
        self._options: list[dict[str, Any] | None] = []
        for kind in kinds:
            if isinstance(kind, str):
                self._options.append(bot_options(kind))
            elif callable(getattr(kind, "choose", None)):
                self._options.append(None)
            else:
                raise TypeError("each opponent must be a bot kind or a Bot value (an object "
                                f"with a choose method), not {type(kind).__name__} "
                                f"{shown_value(kind)}")
        self.opponents = kinds
        self.reward_mode = reward
        self.reward_scale = reward_scale
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} "
                             f"or None, not {shown_value(render_mode)}")
        self.render_mode = render_mode
        self.space, self.masker, self.encoder, self.observation_space = seat_spaces(
            self.rules, players, staging)
        self.action_space: spaces.Space[Any] = spaces.Discrete(self.space.size)
        self._rng = random.Random()  # noqa: S311 - the environment's deals, not secrets
        self.game: Game | None = None

    def _bots(self, seed: int) -> list[Bot | None]:
        bots: list[Bot | None] = []
        others = iter(zip(self.opponents, self._options, strict=True))
        for s in range(self.players):
            if s == self.seat:
                bots.append(None)
                continue
            kind, options = next(others)
            if isinstance(kind, str):
                assert options is not None  # noqa: S101 - narrows the type for mypy
                bots.append(make_bot(kind, self.rules, seed=seed * 31 + s, **options))
                continue
            reseed = getattr(kind, "reseed", None)
            if callable(reseed):
                reseed(seed * 31 + s)
            bots.append(kind)
        return bots

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        game = self.game
        assert game is not None  # noqa: S101 - narrows the type for mypy
        mask = self.masker.mask(game, self.seat if game.to_move == self.seat else None)
        obs = {"observation": self.tracker.observe(self.seat), "action_mask": mask}
        return obs, {"action_mask": mask}

    def _play_others(self) -> float:
        game = self.game
        assert game is not None  # noqa: S101 - narrows the type for mypy
        reward = 0.0
        start = len(game.events)
        run_bots(game, self.bots, self.views)
        got = round_rewards(game.events[start:], self.players, self.reward_mode,
                            self.reward_scale)
        if got is not None:
            reward += got[self.seat]
        return reward

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        seed = check_seed(seed)
        super().reset(seed=seed)
        self._rng, game_seed = reset_seed(self._rng, seed)
        self.game = Game(self.rules, self.players, seed=game_seed)
        self.views = SeatViews(self.game)
        self.tracker = ObservationTracker(self.encoder, self.game)
        self.bots = self._bots(game_seed % (1 << 32))
        self._play_others()  # (no round ends before the first decision)
        return self._observe()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or game.is_over:
            raise RuntimeError("reset() the environment first")
        index = action_index(action)  # (not an index: TypeError, even with illegal="fallback")
        illegal = False
        start = len(game.events)
        try:
            game.apply(self.masker.action(game, index, self.seat), seat=self.seat)
        except ActionError:
            if self.illegal == "raise":
                raise
            illegal = True
            game.apply(self.masker.fallback(game, self.seat), seat=self.seat)
        got = round_rewards(game.events[start:], self.players, self.reward_mode,
                            self.reward_scale)
        reward = got[self.seat] if got is not None else 0.0
        reward += self._play_others()
        obs, info = self._observe()
        if illegal:
            info["illegal"] = True
        return obs, reward, game.is_over, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The mask now (the method sb3-contrib's MaskablePPO asks for)."""
        game = self.game
        assert game is not None  # noqa: S101 - narrows the type for mypy
        return self.masker.mask(game, self.seat if game.to_move == self.seat else None)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        game = self.game
        return (f"round {game.round} · {game.phase} · your hand "
                f"{game.describe_hand(self.seat)} · table "
                f"{' | '.join(str(m) for m in game.table) or '-'}")
