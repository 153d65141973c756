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
  everything the seat has seen: its events and the public actions). The
  information-state tensor is the observation followed by a fixed-size
  summary of the round the seat saw (:data:`HISTORY_SECTIONS`: per seat the
  cards it discarded, took from the pile and passed on, the cards the seat
  itself drew face down, the points of past rounds, the last :data:`RECENT`
  public actions): a summary, not the whole history (different histories
  can give the same tensor).
- States pickle (``pyspiel.serialize_game_and_state``; the game inside as
  :meth:`Game.to_json <liverpool.Game.to_json>`).
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
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found]

from .. import load_rules
from ..action_space import ActionSpace
from ..actions import Buy, Call, Cut, Draw, Pass
from ..cards import Card, make_deck
from ..engine import Game
from ..events import (
    Bought,
    Called,
    Discarded,
    Drew,
    JokerSwapped,
    LaidDown,
    LaidOff,
    PenaltyDrawn,
    RoundStarted,
    TookDiscard,
)
from .common import Masker, placing_rewards
from .observation import SCORE_SCALE, ObservationEncoder, ObservationTracker

__all__ = ["DEALS", "GAME_TYPE", "HISTORY_SECTIONS", "KINDS", "RECENT", "LiverpoolGame",
           "LiverpoolState", "PlacingEvaluator", "resampler"]

F32 = npt.NDArray[np.float32]

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
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)
_PUBLIC_ACTIONS = (Draw, Buy, Pass, Call, Cut)

#: the public actions the information-state tensor's ``recent`` rows tell apart
KINDS: tuple[str, ...] = ("cut", "draw_stock", "take_discard", "buy", "pass", "call", "discard",
                          "lay_down", "lay_off", "swap_joker")
_KIND = {k: i for i, k in enumerate(KINDS)}
#: the public actions the information-state tensor keeps in order (the last ones)
RECENT = 16
#: the sections the information-state tensor adds after the observation's
#: (``n`` players, ``R`` rounds; seats relative as in the observation)
HISTORY_SECTIONS: tuple[tuple[str, str], ...] = (
    ("discarded", "n × 53: the cards each seat discarded this round"),
    ("taken", "n × 53: the cards each seat took from the pile this round (its draws and buys)"),
    ("passed", "n × 53: the pile cards each seat passed on this round (drew from the stock "
               "instead, or passed in a buy or call window)"),
    ("drawn", "53: the cards the seat itself drew face down this round (stock draws, the "
              "penalty cards of its buys and of calls on its discards)"),
    ("round_points", "R × n: each seat's points in each finished round × 0.01"),
    ("recent", f"{RECENT} × (n + {len(KINDS)} + 53): the last public actions of the round, "
               "newest first: the seat, the kind, the card (if any)"),
)


class _Parts:
    """What a game of given parameters needs (built once per parameters)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Parts:
        return self  # shared, never changed

    def __reduce__(self) -> tuple[Any, ...]:
        return (_parts, (self.params,))  # rebuilt from the parameters when unpickled

    def __init__(self, params: dict[str, Any]) -> None:
        p = {**_DEFAULTS, **params}
        self.params = p
        rules = load_rules(str(p["rules"]))
        rounds = int(p["rounds"])
        if not 0 <= rounds <= rules.num_rounds:
            raise ValueError(f"rounds must be 0 (the whole game) or 1 to {rules.num_rounds} "
                             f"(the first rounds of {rules.name}), not {rounds}")
        if 0 < rounds < rules.num_rounds:  # a short game: the first rounds only, played
            # as in the preset (its last round is no final round: the preset's final-round
            # rule, e.g. the whole hand down at once, is for its own last round)
            rules = load_rules(str(p["rules"]), contracts=list(rules.contracts[:rounds]),
                               deal=list(rules.deal[:rounds]), final_round="normal")
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
        self.cached_parts = parts

    @property
    def parts(self) -> _Parts:
        # (kept from __init__: a state is made at every step of a simulation, and
        # the parameters' key costs more than the rest of a state's making)
        cached: _Parts | None = getattr(self, "cached_parts", None)
        return cached if cached is not None else _parts(self.get_parameters())

    def new_initial_state(self) -> LiverpoolState:
        return LiverpoolState(self, None)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> _Observer:
        if isinstance(iig_obs_type, dict):  # called with the parameters only
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"python_liverpool observers take no parameters, not {params}")
        if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("python_liverpool observes one seat: public information and the "
                             "seat's own private information (the default IIGObservationType)")
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.parts, perfect)


class _History:
    """What the seats saw of the current round beyond the observation, kept up
    to date as actions are applied (absolute seats; see :data:`HISTORY_SECTIONS`).
    ``cards[0..2]`` are public (discarded, taken, passed); ``cards[3]`` holds
    the cards each seat drew face down, shown to that seat only."""

    __slots__ = ("cards", "recent")

    def __init__(self, players: int) -> None:
        self.cards: F32 = np.zeros((4, players, 53), np.float32)
        #: (seat, kind, card index or -1), oldest first, at most RECENT
        self.recent: list[tuple[int, int, int]] = []

    def copy(self) -> _History:
        h = _History.__new__(_History)
        h.cards = self.cards.copy()
        h.recent = list(self.recent)
        return h

    def note(self, seat: int, kind: str, card: Card | None) -> None:
        recent = self.recent
        recent.append((seat, _KIND[kind], -1 if card is None else card.index))
        if len(recent) > RECENT:
            del recent[0]

    def before(self, game: Game, seat: int, action: Any) -> None:
        """The action's public part that its events do not tell (a pass, a
        stock draw and the pile card passed on, a cut)."""
        cls = action.__class__
        if cls is Pass:
            card = game.offered_card
            if card is not None:
                self.cards[2, seat, card.index] += 1
            self.note(seat, "pass", card)
        elif cls is Draw and action.source == "stock":
            pile = game.discards
            top = pile[-1] if pile else None
            if top is not None:
                self.cards[2, seat, top.index] += 1
            self.note(seat, "draw_stock", top)
        elif cls is Cut:
            self.note(seat, "cut", None)

    def after(self, events: list[Any]) -> None:
        """Take the events of an action in."""
        cards = self.cards
        for e in events:
            cls = e.__class__
            if cls is RoundStarted:
                cards.fill(0.0)
                self.recent.clear()
            elif cls is Discarded:
                cards[0, e.seat, e.card.index] += 1
                self.note(e.seat, "discard", e.card)
            elif cls is TookDiscard:
                cards[1, e.seat, e.card.index] += 1
                self.note(e.seat, "take_discard", e.card)
            elif cls is Bought:
                cards[1, e.seat, e.card.index] += 1
                for c in e.penalty:
                    cards[3, e.seat, c.index] += 1
                self.note(e.seat, "buy", e.card)
            elif cls is Drew or cls is PenaltyDrawn:
                if e.card is not None:
                    cards[3, e.seat, e.card.index] += 1
            elif cls is LaidDown:
                self.note(e.seat, "lay_down", None)
            elif cls is LaidOff:
                self.note(e.seat, "lay_off", e.card)
            elif cls is JokerSwapped:
                self.note(e.seat, "swap_joker", e.card)
            elif cls is Called:
                self.note(e.seat, "call", e.card)


class _Box:
    """The Python side of a state (OpenSpiel clones a Python state by deep-copying
    its attributes: this copies the game with :meth:`Game.copy`; it pickles the
    game as :meth:`Game.to_json`)."""

    def __init__(self, inner: Game | None, players: int) -> None:
        self.inner = inner
        self.tracker: ObservationTracker | None = None
        self.digests: dict[int, _Digest] = {}
        self.history = _History(players)
        self.seen: dict[int, list[Any]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        box = _Box.__new__(_Box)
        box.inner = None if self.inner is None else self.inner.copy()
        box.tracker = None
        box.digests = {k: d.copy() for k, d in self.digests.items()}
        box.history = self.history.copy()
        box.seen = {}
        return box

    def __getstate__(self) -> dict[str, Any]:
        return {"game": None if self.inner is None else self.inner.to_json(),
                "digests": {k: (d.chain, d.events, d.actions) for k, d in self.digests.items()},
                "cards": self.history.cards, "recent": self.history.recent}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.inner = None if data["game"] is None else Game.from_json(data["game"])
        self.tracker = None
        self.digests = {}
        for k, (chain, events, actions) in data["digests"].items():
            d = self.digests[k] = _Digest(k)
            d.chain, d.events, d.actions = chain, events, actions
        self.history = _History.__new__(_History)
        self.history.cards = data["cards"]
        self.history.recent = list(data["recent"])
        self.seen = {}


class LiverpoolState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_liverpool``: a :class:`~liverpool.Game` inside."""

    def __init__(self, game: LiverpoolGame, inner: Game | None) -> None:
        super().__init__(game)
        self.parts = game.parts if isinstance(game, LiverpoolGame) else _parts(
            game.get_parameters())
        self.box = _Box(inner, self.parts.players)

    def digest(self, seat: int) -> str:
        """The digest of everything ``seat`` has seen (see the information state)."""
        d = self.box.digests.get(seat)
        if d is None:
            d = self.box.digests[seat] = _Digest(seat)
        return d.update(self.game)

    def seen_events(self, seat: int) -> list[Any]:
        """The game's events as ``seat`` saw them (kept up to date, not copied
        with the state)."""
        box = self.box
        got = box.seen.get(seat)
        if got is None:
            got = box.seen[seat] = []
        events = self.game.events
        if len(got) < len(events):
            got.extend(e.visible_to(seat) for e in events[len(got):])
        return got

    @property
    def inner(self) -> Game | None:
        return self.box.inner

    @inner.setter
    def inner(self, value: Game | None) -> None:
        self.box = _Box(value, self.parts.players)

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
            outcome = int(action)
            if not 0 <= outcome < DEALS:  # (outside the declared chance outcomes)
                raise ValueError(f"the deal is chance outcome 0 to {DEALS - 1}, not {outcome}")
            lg = self.parts
            self.inner = Game(lg.rules, lg.players, seed=lg.seed * DEALS + outcome)
            return
        game = self.game
        seat = game.to_move
        assert seat is not None  # noqa: S101 - narrows the type for mypy
        move = self.parts.masker.action(game, int(action), seat)
        history = self.box.history
        history.before(game, seat, move)
        history.after(game.apply(move, seat=seat))

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
    """What ``seat`` sees now, in words: the fields of its
    :class:`~liverpool.views.SeatView` (read from the game's properties: a
    cloned game has no views built yet)."""
    n = game.num_players
    hand = sorted(game.hand(seat), key=_index)
    parts = [f"seat {seat} round {game.round} ({game.rules.contract(game.round).describe()}) "
             f"{game.phase}, to move {game.to_move}",
             "hand " + " ".join(str(c) for c in hand),
             "table " + (" | ".join(f"{o}:{m}" for m, o in zip(game.table, game.table_owners,
                                                                strict=True)) or "-"),
             "pile " + " ".join(str(c) for c in game.discards),
             f"sizes {[len(game.hand(s)) for s in range(n)]} "
             f"down {[int(d) for d in game.laid_down]} "
             f"buys {list(game.buys)} totals {list(game.results().totals)} "
             f"stock {game.stock_size}"]
    offered = game.offered_card
    if offered is not None:
        parts.append(f"offered {offered}")
    staged = game.staged if seat == game.turn_player else ()
    if any(staged):
        parts.append("staged " + " | ".join(" ".join(str(c) for c in m) for m in staged))
    return "\n".join(parts)


def _index(card: Card) -> int:
    return card.index


class _Digest:
    """A running digest of what one seat has seen: its events and the public
    actions (and all of its own), kept up to date incrementally. A hash chain
    (each item hashed with the digest so far), so it is plain bytes to copy
    and pickle."""

    __slots__ = ("actions", "chain", "events", "seat")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.chain = b""
        self.events = 0
        self.actions = 0

    def copy(self) -> _Digest:
        d = _Digest.__new__(_Digest)
        d.seat, d.chain, d.events, d.actions = self.seat, self.chain, self.events, self.actions
        return d

    def update(self, game: Game) -> str:
        chain = self.chain
        seat = self.seat
        sha = hashlib.sha256
        for e in game.events_for(seat, self.events):
            chain = sha(chain + json.dumps(e.to_json(), sort_keys=True).encode()).digest()
        self.events = len(game.events)
        history = game.history
        who = game.history_seats
        for i in range(self.actions, len(history)):
            a = history[i]
            if who[i] == seat or isinstance(a, _PUBLIC_ACTIONS):
                chain = sha(chain + f"{who[i]}:{json.dumps(a.to_json(), sort_keys=True)}"
                            .encode()).digest()
        self.actions = len(history)
        self.chain = chain
        return chain.hex()


class _Observer:
    """OpenSpiel's PyObserver: the observation vector (and, for perfect recall,
    the summary of the round after it), or the strings."""

    def __init__(self, game: _Parts, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        enc = game.encoder
        n, r = game.players, enc.num_rounds
        self.players = n
        self.obs_size = enc.size
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("discarded", (n, 53)), ("taken", (n, 53)), ("passed", (n, 53)), ("drawn", (53,)),
            ("round_points", (r, n)), ("recent", (RECENT, n + len(KINDS) + 53))]
        extra = sum(int(np.prod(shape)) for _, shape in shapes) if perfect_recall else 0
        self.tensor: F32 = np.zeros(enc.size + extra, np.float32)
        self.dict: dict[str, F32] = enc.split(self.tensor[:enc.size])
        if perfect_recall:
            at = enc.size
            for name, shape in shapes:
                size = int(np.prod(shape))
                self.dict[name] = self.tensor[at:at + size].reshape(shape)
                at += size
            #: absolute seat → relative position, per observing seat
            self.order = [np.array([(p + k) % n for k in range(n)]) for p in range(n)]
            #: the discarded, taken and passed sections as one (3, n, 53) block
            self.public = self.tensor[enc.size:enc.size + 3 * n * 53].reshape(3, n, 53)

    def set_from(self, state: LiverpoolState, player: int) -> None:
        if state.inner is None:
            self.tensor.fill(0.0)
            return
        state.tracker().observe(player, out=self.tensor[:self.obs_size])
        if self.perfect_recall:
            self._history(state, player)

    def _history(self, state: LiverpoolState, player: int) -> None:
        d = self.dict
        n = self.players
        order = self.order[player]
        cards = state.box.history.cards
        # discarded, taken, passed: one block, the seats in relative order
        np.take(cards[:3], order, axis=1, out=self.public)
        d["drawn"][:] = cards[3, player]
        points = d["round_points"]
        points.fill(0.0)
        for i, scores in enumerate(state.game.results().round_scores):
            points[i] = [scores[s] * SCORE_SCALE for s in order]
        recent = d["recent"]
        recent.fill(0.0)
        at_card = n + len(KINDS)
        for row, (seat, kind, card) in enumerate(reversed(state.box.history.recent)):
            recent[row, (seat - player) % n] = 1.0
            recent[row, n + kind] = 1.0
            if card >= 0:
                recent[row, at_card + card] = 1.0

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
    see (:meth:`Game.from_view <liverpool.Game.from_view>`), each other hand
    holding first the cards it was seen to take and not seen to play since.
    For ``ISMCTSBot.set_resampler``.

    ``player``'s information state and observation in the sample are the ones
    in ``state`` (the sample carries the events as ``player`` saw them, the
    public summary of the round and ``player``'s own draws); the other seats'
    digests in the sample cover only what happens after it (their past draws
    are what ``player`` cannot know)."""
    rand: Any = rng or random
    game = state.game
    view = game.view(player)
    rules = game.rules
    n = game.num_players
    unseen = Counter(make_deck(rules.decks_for(n), rules.jokers_for(n)))
    unseen.subtract(view.hand)
    unseen.subtract(view.discard_pile)
    for meld in view.table:
        unseen.subtract(meld.cards)
    # the cards each other seat was seen to take and still holds (the observation's seen_taken)
    enc = state.parts.encoder
    seen_taken = enc.split(state.tracker().observe(player))["seen_taken"]
    known: list[list[Card]] = [[] for _ in range(n)]
    for rel in range(1, n):
        seat = (player + rel) % n
        for idx in np.flatnonzero(seen_taken[rel - 1]):
            card = Card.from_index(int(idx))
            for _ in range(int(seen_taken[rel - 1, idx])):
                if unseen[card] > 0 and len(known[seat]) < view.hand_sizes[seat]:
                    unseen[card] -= 1
                    known[seat].append(card)
    pool: list[Card] = list(unseen.elements())
    rand.shuffle(pool)
    hands: list[list[Card]] = []
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == player:
            hands.append(list(game.hand(player)))
        else:
            rest = size - len(known[seat])
            hands.append(known[seat] + pool[at:at + rest])
            at += rest
    stock = pool[at:]
    inner = Game.from_view(game.rules, view, hands, stock, seed=rand.getrandbits(32))
    # what the player has seen carries over: the events as it saw them (so its
    # observation is built from the same events), the public summary of the
    # round and its own draws (not the others'), its digest
    inner.events = list(state.seen_events(player))
    out = LiverpoolState(state.get_game(), None)
    out.inner = inner
    history = state.box.history.copy()
    own = history.cards[3, player].copy()
    history.cards[3] = 0.0
    history.cards[3, player] = own
    out.box.history = history
    state.digest(player)
    for seat in range(n):
        if seat == player:
            d = state.box.digests[player].copy()
            d.actions = 0  # the sample has no actions (its events are the ones digested)
        else:
            d = _Digest(seat)
            d.events = len(inner.events)
        out.box.digests[seat] = d
    return out


try:  # the evaluator needs OpenSpiel's Python algorithms
    from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

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
