"""Liverpool for learning agents: PettingZoo, Gymnasium and OpenSpiel.

Needs the ``rl`` extra (``pip install "liverpool-rummy[rl]"``: numpy,
gymnasium, pettingzoo); OpenSpiel support (:mod:`liverpool.rl.openspiel`)
needs the ``openspiel`` extra. The core package never imports this one.

- :func:`env` — the PettingZoo AEC environment (every seat an agent), also
  ``liverpool.rl.liverpool_v0.env`` in PettingZoo's style;
- :func:`single_agent_env` — a Gymnasium environment: one seat against bots,
  registered as ``gymnasium.make("liverpool/Liverpool-v0", ...)``;
- :class:`ObservationEncoder` — the observation layout (docs/rl.md).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ..rules import Rules
from . import liverpool_v0
from .aec import LiverpoolAECEnv, env, raw_env
from .observation import ObservationEncoder, ObservationTracker
from .single import LiverpoolSingleAgentEnv

__all__ = [
    "ENV_IDS",
    "LiverpoolAECEnv",
    "LiverpoolSingleAgentEnv",
    "ObservationEncoder",
    "ObservationTracker",
    "env",
    "liverpool_v0",
    "make",
    "raw_env",
    "single_agent_env",
]

#: the registered ids: the PettingZoo environment's name, the Gymnasium id
ENV_IDS = ("liverpool_v0", "liverpool/Liverpool-v0")


def single_agent_env(rules: str | Rules = "liverpool", players: int = 4,
                     opponents: Any = "basic", seat: int = 0,
                     **options: Any) -> LiverpoolSingleAgentEnv:
    """A Gymnasium environment: the agent plays ``seat``, bots the others."""
    return LiverpoolSingleAgentEnv(rules, players, opponents, seat, **options)


def make(env_id: str, **kwargs: Any) -> Any:
    """An environment by id: ``"liverpool_v0"`` (the AEC environment) or
    ``"liverpool/Liverpool-v0"`` (the single-agent one, as ``gymnasium.make``)."""
    if env_id == "liverpool_v0":
        return env(**kwargs)
    if env_id == "liverpool/Liverpool-v0":
        return gymnasium.make(env_id, **kwargs)
    raise ValueError(f"unknown environment {env_id!r}; the ids are {', '.join(ENV_IDS)}")


if "liverpool/Liverpool-v0" not in gymnasium.registry:
    gymnasium.register(id="liverpool/Liverpool-v0",
                       entry_point="liverpool.rl.single:LiverpoolSingleAgentEnv",
                       disable_env_checker=False)
