"""What the environments share: rules, the masks, rewards from events."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from numbers import Real
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .. import load_rules
from ..action_space import ActionSpace
from ..actions import Action, ActionError, Discard, LayDown, Pass, Stage
from ..bots import BOT_KINDS, check_bot_options
from ..engine import Game
from ..errors import is_whole, shown_value
from ..events import Event, GameEnded, RoundEnded
from ..rules import Rules
from .observation import ObservationEncoder

__all__ = ["REWARDS", "Masker", "placing_rewards", "resolve_rules"]

#: the reward schemes: minus each round's points (scaled) when it ends, or the
#: placing at the end of the game
REWARDS = ("round", "placing")

I8 = npt.NDArray[np.int8]


def check_modes(reward: str, illegal: str) -> None:
    """The environments' ``reward`` and ``illegal`` options (ValueError if unknown)."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, not {reward!r}")
    if illegal not in ("raise", "fallback"):
        raise ValueError(f"illegal must be 'raise' or 'fallback', not {illegal!r}")


def seat_spaces(rules: Rules, players: int, staging: bool
                ) -> tuple[ActionSpace, Masker, ObservationEncoder, spaces.Dict]:
    """What each seat of an environment sees and does: the action space, its
    masker, the observation encoder and the observation space (a Gymnasium
    ``Dict`` of ``observation`` and ``action_mask``)."""
    space = ActionSpace(rules, players)
    encoder = ObservationEncoder(rules, players)
    observation = spaces.Dict({
        "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(space.size,), dtype=np.int8),
    })
    return space, Masker(space, staging), encoder, observation


def resolve_rules(rules: str | Rules, options: dict[str, Any]) -> Rules:
    if isinstance(rules, Rules):
        if options:
            raise TypeError("options go with a preset name, not a Rules value")
        return rules
    return load_rules(rules, **options)


def whole(name: str, value: object) -> int:
    """``value`` as an int: an int or a numpy integer, not a bool (TypeError
    saying what ``name`` was given otherwise)."""
    if not is_whole(value):
        raise TypeError(f"{name} must be an int, not {type(value).__name__} "
                        f"{shown_value(value)}")
    return int(value)


def check_options(players: object, reward_scale: object, staging: object
                  ) -> tuple[int, float, bool]:
    """The environments' ``players``, ``reward_scale`` and ``staging`` options,
    checked (TypeError or ValueError saying which is wrong)."""
    n = whole("players", players)
    if isinstance(reward_scale, bool) or not isinstance(reward_scale, Real):
        raise TypeError(f"reward_scale must be a number, not {type(reward_scale).__name__} "
                        f"{shown_value(reward_scale)}")
    scale = float(reward_scale)
    if not math.isfinite(scale):
        raise ValueError(f"reward_scale must be a finite number, not {scale}")
    if not isinstance(staging, bool):
        raise TypeError(f"staging must be True or False, not {shown_value(staging)}")
    return n, scale, staging


def check_max_steps(max_steps: object) -> int | None:
    """The ``max_steps`` option: None (no truncation) or an int of at least 1."""
    if max_steps is None:
        return None
    steps = whole("max_steps", max_steps)
    if steps < 1:
        raise ValueError(f"max_steps must be at least 1 (None: no limit), not {steps}")
    return steps


def check_seed(seed: object) -> int | None:
    """A ``reset`` seed: None or an int (a numpy integer too; not a bool, a
    float or a string, which would pick some other game without a word)."""
    if seed is None:
        return None
    if not is_whole(seed):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__} "
                        f"{shown_value(seed)}")
    return int(seed)


def action_index(action: object) -> int:
    """An action given to ``step`` as an index: an int, a numpy integer or a
    0-d integer array (TypeError for anything else: None, a float, a bool)."""
    if is_whole(action):
        return int(action)
    if (isinstance(action, np.ndarray) and action.shape == ()
            and np.issubdtype(action.dtype, np.integer)):
        return int(action)
    raise TypeError(f"an action is an index (an int), not {type(action).__name__} "
                    f"{shown_value(action)}")


def bot_options(kind: str) -> dict[str, Any]:
    """The options an environment builds a bot of ``kind`` with: no time cap
    (``time_ms=inf``) for the kinds that have one, so that each search ends on
    its iteration budget and a seed gives the same game on any machine under
    any load. ValueError for an unknown kind."""
    if kind.strip().lower() not in BOT_KINDS:
        raise ValueError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")
    try:
        return check_bot_options(kind, {"time_ms": math.inf})
    except ValueError:  # a kind without a time cap
        return {}


def reset_seed(rng: random.Random, seed: int | None) -> tuple[random.Random, int]:
    """The stream of deals and the game's seed of an environment's ``reset``: a
    ``seed`` (checked by :func:`check_seed`) starts both again (it replays the
    deals); without one the game's seed is the next of ``rng``."""
    seed = check_seed(seed)
    if seed is not None:
        return random.Random(seed), seed  # noqa: S311 - reset(seed=) replays the deals
    return rng, rng.getrandbits(63)


def placing_rewards(totals: Sequence[int]) -> list[float]:
    """Each seat's placing as a reward in [-1, 1]: (seats it beat - seats that
    beat it) / (players - 1) (lower totals win; ties count as neither)."""
    n = len(totals)
    return [sum((t < u) - (t > u) for u in totals) / (n - 1) for t in totals]


class Masker:
    """Legal masks over an :class:`~liverpool.ActionSpace`; ``staging`` adds
    the card-by-card lay-down steps (else a lay-down is the ``suggest`` index).

    The legal indices of the last (game, version, seat) asked about are kept
    with their actions: the mask, the indices and :meth:`action` of that
    position share one computation, and :meth:`action` of a legal index gives
    the very object ``legal_actions`` made (which ``Game.apply`` accepts
    without checking it again)."""

    def __init__(self, space: ActionSpace, staging: bool) -> None:
        self.space = space
        self.staging = staging
        self.size = space.size
        self._suggest = space.sections["suggest"].start
        self._discard = space.sections["discard"].start
        self._announce = len(space.sections["discard"]) // 53
        self._pass = space.sections["pass"].start
        self._zeros = bytes(self.size)
        # (game, version, seat, indices, actions) of the last position asked about
        self._memo: tuple[Game, int, int, list[int], list[Action]] | None = None
        self._by_id: dict[int, int] = {}  # id of an action object -> its index
        self._known: list[Action] = []  # those objects

    def _legal(self, game: Game, seat: int) -> tuple[list[int], list[Action]]:
        memo = self._memo
        version = game.version
        if memo is not None and memo[0] is game and memo[1] == version and memo[2] == seat:
            return memo[3], memo[4]
        actions = game.legal_actions(seat)
        if self.staging:
            out = self.space.legal_indices(game, seat)
            if seat == game.to_move:
                actions += game.staging_actions()  # (legal_indices' order)
        else:
            # most action objects recur (the engine shares its common ones and
            # keeps a meld's lay-offs and swaps): their indices are looked up by
            # identity (_known keeps each object alive, so no other has its id)
            try:
                out = list(map(self._by_id.__getitem__, map(id, actions)))
            except KeyError:
                out = self._encode(actions)
        self._memo = (game, version, seat, out, actions)
        return out, actions

    def _encode(self, actions: list[Action]) -> list[int]:
        """The indices of ``actions``, remembering those of the objects not known yet."""
        by_id = self._by_id
        if len(by_id) > 4096:
            by_id.clear()
            self._known.clear()
        encode = self.space.encode
        out: list[int] = []
        for a in actions:
            i = by_id.get(id(a))
            if i is None:
                cls = a.__class__
                if cls is Discard:  # (docs/action_space.md)
                    d: Any = a
                    i = self._discard + d.card.index * self._announce + (1 if d.announce else 0)
                elif cls is Pass:
                    i = self._pass
                elif isinstance(a, LayDown):
                    out.append(self._suggest)  # (made anew each time: not kept)
                    continue
                else:
                    i = encode(a)
                by_id[id(a)] = i
                self._known.append(a)
            out.append(i)
        return out

    def indices(self, game: Game, seat: int) -> list[int]:
        """The legal indices of ``seat`` now (in the order of its legal actions)."""
        return list(self._legal(game, seat)[0])

    def mask(self, game: Game, seat: int | None) -> I8:
        """``size`` int8 values, 1 at the legal indices of ``seat`` (None: all 0)."""
        if seat is None:  # (a finished game has no legal actions either)
            return np.zeros(self.size, dtype=np.int8)
        m = bytearray(self._zeros)
        for i in self._legal(game, seat)[0]:
            m[i] = 1
        return np.frombuffer(m, np.int8)

    def action(self, game: Game, index: int, seat: int) -> Action:
        """The action of ``index`` for ``seat`` in ``game`` now: only an index
        the mask marks is played. Any other raises :class:`ActionError`
        and changes nothing: the engine's reason for an action it refuses
        (or the action space's, for an index that is no action), and
        ``index_masked`` for one the engine would take but the mask leaves
        out (a card-by-card lay-down step without ``staging``)."""
        indices, actions = self._legal(game, seat)
        try:
            return actions[indices.index(index)]
        except ValueError:
            pass
        act = self.space.decode(index, game)
        if not game.can_apply(act, seat):
            game.apply(act, seat=seat)  # (raises the engine's reason; nothing changes)
        raise ActionError("index_masked", index=index)

    def fallback(self, game: Game, seat: int) -> Action:
        """The action played for an illegal index with ``illegal="fallback"``:
        the first legal one."""
        legal = game.legal_actions(seat)
        if legal:
            return legal[0]
        staging = [a for a in game.staging_actions() if not isinstance(a, Stage)]
        if staging:
            return staging[0]
        raise ActionError("game_over")


def round_rewards(events: Sequence[Event], players: int, mode: str,
                  scale: float) -> list[float] | None:
    """The rewards ``events`` give (None: none)."""
    out: list[float] | None = None
    for ev in events:
        e: Any = ev
        if mode == "round" and e.__class__ is RoundEnded:
            scores = e.scores
            got = [-s * scale for s in scores]
            out = got if out is None else [a + b for a, b in zip(out, got, strict=True)]
        elif mode == "placing" and e.__class__ is GameEnded:
            out = placing_rewards(e.totals)
    return out
