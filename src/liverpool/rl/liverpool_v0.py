"""The AEC environment in PettingZoo's module style:
``from liverpool.rl import liverpool_v0; env = liverpool_v0.env(players=4)``."""

from __future__ import annotations

from .aec import LiverpoolAECEnv, env, raw_env

__all__ = ["LiverpoolAECEnv", "env", "raw_env"]
