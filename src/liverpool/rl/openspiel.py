"""Liverpool as an OpenSpiel game: importing this module registers
``python_liverpool`` (needs the ``openspiel`` extra).

>>> import pyspiel
>>> import liverpool.rl.openspiel
>>> game = pyspiel.load_game("python_liverpool", {"rules": "london", "players": 3})
>>> game.num_players(), game.num_distinct_actions()
(3, 1968)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
>>> state.apply_action(7)                  # the deal
>>> state.current_player(), state.legal_actions()
(0, [0])

- Chance is **sampled**: one explicit chance node at the start picks one of
  :data:`DEALS` seeds (uniformly; seed ``seed × DEALS + outcome``), and the
  engine's generator seeded with it decides the deal of every round and every
  reshuffle. So the game is a uniform sample of ``DEALS`` deal sequences of the
  real game, not all of them.
- Returns are the placing at the end of the game, in [-1, 1] and zero-sum:
  (seats beaten - seats that beat you) / (players - 1).
- A buy or call window is a run of decisions, one seat at a time in priority
  order (``current_player()`` is ``game.to_move``).
- Actions are indices of :class:`~liverpool.ActionSpace`; a lay-down is the
  ``suggest`` index (``staging`` parameter: the card-by-card steps instead).
- The observation tensor is the environments' vector (docs/rl.md); the
  observation string is the seat's view in words. The information-state
  string is perfect recall (the observation string and a digest of
  everything the seat has seen: its events and the public actions); there
  is no information-state tensor (a perfect-recall history of thousands of
  decisions has no fixed size).
- :func:`resampler` fills a state's hidden cards in with
  :meth:`Game.from_view <liverpool.Game.from_view>` (for ISMCTS), and
  :class:`PlacingEvaluator` scores a position without a rollout.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from .. import load_rules
from ..action_space import ActionSpace
from ..actions import Buy, Call, Cut, Draw, Pass
from ..cards import Card, make_deck
from ..engine import Game
from .common import Masker, placing_rewards
from .observation import ObservationEncoder, ObservationTracker

__all__ = ["DEALS", "GAME_TYPE", "LiverpoolGame", "LiverpoolState", "PlacingEvaluator", "resampler"]

#: the chance outcomes of the first node: the seeds of the game's generator
DEALS = 4096
_DEFAULTS: dict[str, Any] = {"rules": "liverpool", "players": 4, "seed": 0, "staging": False,
                             "rounds": 0}

GAME_TYPE = pyspiel.GameType(
    short_name="python_liverpool",
    long_name="Python Liverpool rummy",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)
_PUBLIC_ACTIONS = (Draw, Buy, Pass, Call, Cut)


class _Parts:
    """What a game of given parameters needs (built once per parameters)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Parts:
        return self  # shared, never changed

    def __init__(self, params: dict[str, Any]) -> None:
        p = {**_DEFAULTS, **params}
        rules = load_rules(str(p["rules"]))
        rounds = int(p["rounds"])
        if 0 < rounds < rules.num_rounds:  # a short game: the first rounds only
            rules = load_rules(str(p["rules"]), contracts=list(rules.contracts[:rounds]),
                               deal=list(rules.deal[:rounds]))
        self.rules = rules
        self.players = int(p["players"])
        self.seed = int(p["seed"])
        self.space = ActionSpace(self.rules, self.players)
        self.masker = Masker(self.space, bool(p["staging"]))
        self.encoder = ObservationEncoder(self.rules, self.players)


_PARTS: dict[str, _Parts] = {}


def _parts(params: dict[str, Any]) -> _Parts:
    key = json.dumps({**_DEFAULTS, **params}, sort_keys=True, default=str)
    got = _PARTS.get(key)
    if got is None:
        got = _PARTS[key] = _Parts(params)
    return got


class LiverpoolGame(pyspiel.Game):  # type: ignore[misc]
    """``python_liverpool`` with parameters ``rules`` (a preset), ``players``,
    ``seed``, ``staging`` and ``rounds`` (play only the first ``rounds`` rounds
    of the preset; 0: all)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        parts = _parts(p)
        rules = parts.rules
        info = pyspiel.GameInfo(
            num_distinct_actions=parts.space.size, max_chance_outcomes=DEALS,
            num_players=parts.players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=rules.num_rounds * rules.max_turns_per_round
            * (4 * parts.players + 40))
        super().__init__(GAME_TYPE, info, p)

    @property
    def parts(self) -> _Parts:
        return _parts(self.get_parameters())

    def new_initial_state(self) -> LiverpoolState:
        return LiverpoolState(self, None)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> _Observer:
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.parts, perfect)


class _Box:
    """The Python side of a state (OpenSpiel clones a Python state by deep-copying
    its attributes: this copies the game with :meth:`Game.copy`)."""

    def __init__(self, inner: Game | None) -> None:
        self.inner = inner
        self.tracker: ObservationTracker | None = None
        self.digests: dict[int, _Digest] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        box = _Box(None if self.inner is None else self.inner.copy())
        box.digests = {k: d.copy() for k, d in self.digests.items()}
        return box


class LiverpoolState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_liverpool``: a :class:`~liverpool.Game` inside."""

    def __init__(self, game: LiverpoolGame, inner: Game | None) -> None:
        super().__init__(game)
        self.parts = game.parts if isinstance(game, LiverpoolGame) else _parts(
            game.get_parameters())
        self.box = _Box(inner)

    def digest(self, seat: int) -> str:
        """The digest of everything ``seat`` has seen (see the information state)."""
        d = self.box.digests.get(seat)
        if d is None:
            d = self.box.digests[seat] = _Digest(seat)
        return d.update(self.game)

    @property
    def inner(self) -> Game | None:
        return self.box.inner

    @inner.setter
    def inner(self, value: Game | None) -> None:
        self.box = _Box(value)

    @property
    def game(self) -> Game:
        """The game inside (after the chance node)."""
        if self.inner is None:
            raise pyspiel.SpielError("the deal is still to be chosen (a chance node)")
        return self.inner

    def tracker(self) -> ObservationTracker:
        box = self.box
        if box.tracker is None:
            box.tracker = ObservationTracker(self.parts.encoder, self.game)
        return box.tracker

    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.inner.to_move
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 1.0 / DEALS) for i in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.inner is None or player != self.inner.to_move:
            return []
        return sorted(self.parts.masker.indices(self.game, player))

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            lg = self.parts
            self.inner = Game(lg.rules, lg.players, seed=lg.seed * DEALS + int(action))
            return
        seat = self.game.to_move
        self.game.apply(self.parts.masker.action(self.game, int(action)), seat=seat)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return f"seat {player}: {self.parts.space.describe(int(action))}"

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_over

    def returns(self) -> list[float]:
        if self.inner is None or not self.inner.is_over:
            return [0.0] * self.parts.players
        return placing_rewards(self.game.results().totals)

    def __str__(self) -> str:
        if self.inner is None:
            return "the deal is still to be chosen"
        g = self.inner
        hands = " / ".join(g.describe_hand(s) for s in range(g.num_players))
        return (f"round {g.round} {g.phase} to move {g.to_move} · hands {hands} · table "
                f"{' | '.join(str(m) for m in g.table) or '-'} · pile "
                f"{' '.join(str(c) for c in g.discards[-3:])}")


def _view_string(game: Game, seat: int) -> str:
    v = game.view(seat)
    parts = [f"seat {seat} round {v.round} ({v.contract}) {v.phase}, to move {v.to_move}",
             "hand " + " ".join(str(c) for c in v.hand),
             "table " + (" | ".join(f"{o}:{m}" for m, o in zip(v.table, v.table_owners,
                                                                strict=True)) or "-"),
             "pile " + " ".join(str(c) for c in v.discard_pile),
             f"sizes {list(v.hand_sizes)} down {[int(d) for d in v.laid_down]} "
             f"buys {list(v.buys)} totals {list(v.totals)} stock {v.stock_size}"]
    if v.offered_card is not None:
        parts.append(f"offered {v.offered_card}")
    if v.staged:
        parts.append("staged " + " | ".join(" ".join(str(c) for c in m) for m in v.staged))
    return "\n".join(parts)


class _Digest:
    """A running digest of what one seat has seen: its events and the public
    actions (and all of its own), kept up to date incrementally."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.hash = hashlib.sha256()
        self.events = 0
        self.actions = 0

    def copy(self) -> _Digest:
        d = _Digest.__new__(_Digest)
        d.seat, d.hash, d.events, d.actions = self.seat, self.hash.copy(), self.events, self.actions
        return d

    def update(self, game: Game) -> str:
        h = self.hash
        seat = self.seat
        for e in game.events_for(seat, self.events):
            h.update(json.dumps(e.to_json(), sort_keys=True).encode())
        self.events = len(game.events)
        history = game.history
        who = game.history_seats
        for i in range(self.actions, len(history)):
            a = history[i]
            if who[i] == seat or isinstance(a, _PUBLIC_ACTIONS):
                h.update(f"{who[i]}:{json.dumps(a.to_json(), sort_keys=True)}".encode())
        self.actions = len(history)
        return h.hexdigest()


class _Observer:
    """OpenSpiel's PyObserver: the observation vector, or the strings."""

    def __init__(self, game: _Parts, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = game.encoder.split(self.tensor)

    def set_from(self, state: LiverpoolState, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0.0)
            return
        state.tracker().observe(player, out=self.tensor)

    def string_from(self, state: LiverpoolState, player: int) -> str:
        if state.inner is None:
            return f"seat {player}: the deal is still to be chosen"
        text = _view_string(state.game, player)
        if self.perfect_recall:
            text += "\nhistory " + state.digest(player)
        return text


# ------------------------------------------------------------------ search
def resampler(state: LiverpoolState, player: int, rng: random.Random | None = None
              ) -> LiverpoolState:
    """A state consistent with what ``player`` sees in ``state``: the other
    hands and the stock are dealt at random from the cards ``player`` cannot
    see (:meth:`Game.from_view <liverpool.Game.from_view>`). For
    ``ISMCTSBot.set_resampler``."""
    rand: Any = rng or random
    game = state.game
    view = game.view(player)
    rules = game.rules
    unseen = Counter(make_deck(rules.decks_for(game.num_players),
                               rules.jokers_for(game.num_players)))
    unseen.subtract(view.hand)
    unseen.subtract(view.discard_pile)
    for meld in view.table:
        unseen.subtract(meld.cards)
    pool: list[Card] = list(unseen.elements())
    rand.shuffle(pool)
    hands: list[list[Card]] = []
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == player:
            hands.append(list(game.hand(player)))
        else:
            hands.append(pool[at:at + size])
            at += size
    stock = pool[at:]
    inner = Game.from_view(game.rules, view, hands, stock, seed=rand.getrandbits(32))
    out = LiverpoolState(state.get_game(), None)
    out.inner = inner
    # what the player has seen carries over (the new game has no history)
    state.digest(player)
    d = state.box.digests[player].copy()
    d.events = d.actions = 0
    out.box.digests[player] = d
    return out


try:  # the evaluator needs OpenSpiel's Python algorithms
    from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

    class PlacingEvaluator(mcts.Evaluator):  # type: ignore[misc]
        """Values a position without a rollout: the placing each seat would have
        if the round ended now (totals plus the points in hand)."""

        def evaluate(self, state: LiverpoolState) -> np.ndarray[Any, Any]:
            g = state.game
            if g.is_over:
                return np.array(state.returns())
            rules = g.rules
            totals = g.results().totals
            now = [t + sum(rules.card_points(c) for c in g.hand(s))
                   for s, t in enumerate(totals)]
            return np.array(placing_rewards(now)) * 0.5

        def prior(self, state: LiverpoolState) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]
except ImportError:  # pragma: no cover
    pass


pyspiel.register_game(GAME_TYPE, LiverpoolGame)
