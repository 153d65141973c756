"""A value of positions learned from games: what ``search`` asks with ``value="learned"``.

``search`` values a candidate by playing its future to the round's end. With
``value="learned"`` it plays the future only until the next turn begins and
asks a small network what every seat will score then. The network
(:meth:`ValueNet.shipped`, its weights in ``value_net.json`` beside this
module) was fitted to 311,747 positions of 5,000 games of four ``basic`` bots
on liverpool (``benchmarks/bench_value.py`` makes and fits such rows). It
reads the :func:`features` of a whole game, hidden cards and stock order
included, so the search asks it only of the games it samples, never of the
real one. It runs in pure Python: the engine needs no numpy.

>>> from liverpool import Game, load_rules
>>> from liverpool.bots.basic import BasicBot
>>> rules = load_rules("liverpool")
>>> game = Game(rules, players=4, seed=3)
>>> net = ValueNet.shipped()
>>> net.applies(rules, 4), net.applies(load_rules("dansk"), 4), net.applies(rules, 3)
(True, False, False)
>>> rows = features(BasicBot(rules), game)
>>> len(rows), len(rows[0]) == net.inputs
(4, True)
>>> points, going_out = net(rows[0])
>>> 0 < points * 100 < 200 and going_out < 0  # one seat in four goes out
True
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from operator import mul
from typing import Any, SupportsIndex

from ..cards import Card
from ..engine import Game
from ..engine.state import State
from ..melds import lay_down_mode
from ..rules import Rules
from ..ruleset_io import load_rules
from .basic import BasicBot

__all__ = ["LOOK", "PER_SEAT", "ValueNet", "features", "row_width", "same_rules", "seat_features"]

_CARDS = [Card.from_index(i) for i in range(53)]
#: the features of one seat (:func:`seat_features`)
PER_SEAT = 9
#: the stock cards counted as a seat's outs: about six turns of draws at a table of four
LOOK = 24


def seat_features(bot: BasicBot, state: State, seat: int, sets: int, runs: int,
                  stock: dict[int, int]) -> list[float]:
    """One seat's features: laid down; cards held / 12; their points / 100;
    wild cards / 2; cards missing to the contract / 6 (the planner's need; 0
    once down); its outs (the cards among the stock's next :data:`LOOK` that
    bring it nearer; ``stock`` counts them by card index) / 20; the cards that
    fit the table once down / 6; the cards that do not / 12; does the top
    discard bring it nearer (or fit the table)."""
    planner = bot.planner
    hand = state.hands[seat]
    top = state.discards[-1] if state.discards else None
    points = sum(bot.rules.card_points(c) for c in hand)
    wild = sum(1 for c in hand if planner.is_wild(c))
    need = outs = fits = 0
    if state.down[seat]:
        fits = sum(1 for c in hand if bot.fit_index(state.table, c) >= 0)
        useful = top is not None and bot.fit_index(state.table, top) >= 0
    else:
        need = planner.need(hand, sets, runs)
        if need > 0:
            outs = sum(k for i, k in stock.items()
                       if planner.need_with(hand, _CARDS[i], sets, runs) < need)
        useful = top is not None and need > 0 and \
            planner.need_with(hand, top, sets, runs) < need
    n = len(hand)
    return [float(state.down[seat]), n / 12, points / 100, wild / 2, need / 6, outs / 20,
            fits / 6, (n - fits) / 12, float(useful)]


def row_width(players: int) -> int:
    """The width of a row of :func:`features` at a table of ``players``
    (without the expert's column): the seats, the round, the stock and turn,
    who moves.

    >>> row_width(4)
    49
    """
    return PER_SEAT * players + 7 + 2 + players


def features(bot: BasicBot, game: Game, expert: int | None = None) -> list[list[float]]:
    """Every seat's row: its own :func:`seat_features`, then the other seats'
    in turn order, the round (one-hot of 7), the stock / 60, the turn number
    / 60 and who is to move (one-hot, counted from the seat); with
    ``expert``, one more: is the row's seat the one ``expert`` plays. Full
    information: ask it only of a sampled game."""
    state = game.state
    contract = bot.rules.contract(state.round)
    stock: dict[int, int] = {}
    for c in state.stock[:LOOK]:
        stock[c.index] = stock.get(c.index, 0) + 1
    n = len(state.hands)
    per = [seat_features(bot, state, s, contract.sets, contract.runs, stock) for s in range(n)]
    rnd = [0.0] * 7
    rnd[min(state.round, 7) - 1] = 1.0
    common = rnd + [len(state.stock) / 60, state.turn_number / 60]
    mover = game.to_move
    rows = []
    for seat in range(n):
        row: list[float] = []
        for k in range(n):
            row += per[(seat + k) % n]
        moves = [0.0] * n
        if mover is not None:
            moves[(mover - seat) % n] = 1.0
        flag = [] if expert is None else [float(seat == expert)]
        rows.append(row + common + moves + flag)
    return rows


def same_rules(rules: Rules, preset: str) -> bool:
    """Are ``rules`` those of the preset named ``preset``, their name aside?

    >>> from liverpool import load_rules
    >>> same_rules(load_rules("liverpool"), "liverpool"), same_rules(load_rules("london"), "liverpool")
    (True, False)
    """
    fitted = _preset_rules(preset)
    return all(getattr(rules, f.name) == getattr(fitted, f.name)
               for f in dataclasses.fields(fitted) if f.name != "name")


@cache
def _preset_rules(name: str) -> Rules:
    return load_rules(name)


class ValueNet:
    """A fitted network of ReLU layers: ``net(row)`` is (the seat's points at
    the round's end / 100, the log-odds that it goes out). ``layers`` holds
    (weights, biases) per layer, the weights as one list per input (the
    layout ``bench_value.py fit`` saves); ``rules`` (a preset's name),
    ``contracts`` and ``players`` say which games it was fitted to
    (:meth:`applies`)."""

    def __init__(self, layers: Sequence[tuple[Sequence[Sequence[float]], Sequence[float]]],
                 contracts: Sequence[str] = (), players: int = 4,
                 rules: str | None = None) -> None:
        if not layers:
            raise ValueError("a network needs at least one layer")
        # one list of weights per output unit, for the dot products
        self.layers = [([list(col) for col in zip(*w, strict=True)], list(b)) for w, b in layers]
        self.inputs = len(layers[0][0])
        self.contracts = tuple(contracts)
        self.players = int(players)
        #: the preset whose games it was fitted to (None: any rules with its ``contracts``)
        self.rules = rules
        if rules is not None:
            _preset_rules(rules)  # (an unknown preset is refused here, not at play)
        #: fitted with the expert's column (``bench_value.py data --seat0 expert``)
        self.as_expert = self.inputs == row_width(self.players) + 1

    @classmethod
    def load(cls, path: str) -> ValueNet:
        """The network saved at ``path``: a list of layers, or an object with
        ``layers``, ``contracts``, ``players`` and ``rules``."""
        with open(path, encoding="utf-8") as f:
            return cls.from_json(json.load(f))

    @classmethod
    def from_json(cls, data: object) -> ValueNet:
        """The network of a decoded JSON document (what :meth:`load` reads)."""
        if isinstance(data, list):
            return cls([(w, b) for w, b in data])
        if not isinstance(data, dict) or not isinstance(data.get("layers"), list):
            raise ValueError("a network is a list of layers or an object with 'layers'")
        rules = data.get("rules")
        if rules is not None and not isinstance(rules, str):
            raise ValueError("a network's 'rules' is the name of a preset")
        return cls([(w, b) for w, b in data["layers"]], data.get("contracts", ()),
                   int(data.get("players", 4)), rules)

    @staticmethod
    @cache
    def shipped() -> ValueNet:
        """The network that comes with the package (fitted on liverpool, 4 players)."""
        text = resources.files(__package__).joinpath("value_net.json").read_text("utf-8")
        return ValueNet.from_json(json.loads(text))

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """Pickled by name when it is :meth:`shipped`: a bot that goes to a
        worker process at each move does not carry the weights along."""
        if self is ValueNet.shipped():
            return (ValueNet.shipped, ())
        return super().__reduce_ex__(protocol)

    def applies(self, rules: Rules, players: int) -> bool:
        """Was it fitted to games like these: as many players, and the rules
        of its preset (under any name: one house rule more and it does not
        apply) or, for a network that names no preset, the same contracts?"""
        if players != self.players:
            return False
        if self.rules is not None:
            return same_rules(rules, self.rules)
        return not self.contracts or tuple(rules.contracts) == self.contracts

    def applies_to_round(self, rules: Rules, players: int, round: int) -> bool:
        """:meth:`applies`, and the round is one it saw: a normal round (its
        rows were taken only there)."""
        return self.applies(rules, players) and lay_down_mode(rules, round) == "normal"

    def __call__(self, row: Sequence[float]) -> tuple[float, float]:
        h = list(row)
        last = len(self.layers) - 1
        for k, (units, biases) in enumerate(self.layers):
            h = [sum(map(mul, h, w), b) for w, b in zip(units, biases, strict=True)]
            if k < last:
                h = [x if x > 0.0 else 0.0 for x in h]
        return h[0], h[1]
