"""The ``expert``'s model of how a round ends.

From what a view shows (who is down, with how many cards, how far the round
is), :func:`risk_tables` gives the chance that an opponent goes out before
each of the seat's next turns and the share of its points a seat still pays
when it lays down keeping some cards; :func:`out_tables` the chance that the
seat is the first out. The rates were measured on games of four ``basic``
bots (docs/bots.md, "expert").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..melds import lay_down_mode
from ..rules import Rules
from ..ruleset_io import load_rules
from ..views import SeatView

__all__ = ["RoundEndRates", "out_tables", "preset_rates", "risk_tables"]


# The round-end model behind the expected points, measured on games of four
# ``basic`` bots (liverpool and remi; see docs/bots.md). A player is "N" (not
# down) or down with k cards in hand at the start of its turn (k = 1..6, 6 for
# six or more). Per turn, given the round goes on:
#: chance that a player who is down with k cards goes out
_OUT = (0.0, 0.46, 0.11, 0.05, 0.04, 0.03, 0.03)
#: chance that it sheds one, two or three cards net (it draws one, lays off and discards)
_SHED = (0.31, 0.08, 0.05)


@dataclass(frozen=True, slots=True)
class RoundEndRates:
    """The round-end model's rates for one ruleset's normal rounds, per turn:
    ``lay_down[r][t]`` the chance that a player who is not down lays down in
    round ``r + 1`` at its turn ``t`` (turns counted per player from the
    round's start; the last entry stands for every later turn), ``out[k]``
    the chance that a player who is down with ``k`` cards (6: six or more)
    goes out, and ``shed[j - 1]`` the chance that it sheds ``j`` cards net
    otherwise (three: three or more)."""

    lay_down: tuple[tuple[float, ...], ...]
    out: tuple[float, ...]
    shed: tuple[float, ...]


#: the presets' rates, measured on 200 games of four ``basic`` bots each
#: (``python benchmarks/bench_round_end.py --games 200``)
_PRESET_RATES = {
    "liverpool": RoundEndRates(
        lay_down=(
        (0.277, 0.293, 0.34, 0.252, 0.351, 0.364, 0.331),
        (0.092, 0.146, 0.148, 0.155, 0.164, 0.139, 0.117, 0.153, 0.13, 0.103, 0.166),
        (0.01, 0.028, 0.035, 0.057, 0.068, 0.099, 0.09, 0.113, 0.114, 0.132, 0.165, 0.152, 0.157,
         0.165),
        (0.043, 0.082, 0.124, 0.159, 0.15, 0.187, 0.176, 0.238, 0.203),
        (0.035, 0.103, 0.139, 0.179, 0.151, 0.198, 0.167, 0.168, 0.196),
        (0.007, 0.018, 0.044, 0.072, 0.076, 0.082, 0.1, 0.097, 0.117, 0.102, 0.122, 0.104, 0.082)),
        out=(0, 0.394, 0.077, 0.039, 0.032, 0.016, 0.025),
        shed=(0.315, 0.121, 0.104)),
    "london": RoundEndRates(
        lay_down=(
        (0.15, 0.255, 0.309, 0.298, 0.359, 0.204, 0.294, 0.23),
        (0.032, 0.097, 0.122, 0.138, 0.133, 0.126, 0.114, 0.149, 0.061, 0.132, 0.118, 0.116, 0.119),
        (0, 0.015, 0.022, 0.031, 0.038, 0.049, 0.079, 0.087, 0.07, 0.103, 0.098, 0.133, 0.118,
         0.113, 0.087, 0.084, 0.087, 0.09),
        (0.008, 0.056, 0.104, 0.171, 0.144, 0.178, 0.181, 0.175, 0.222),
        (0, 0.009, 0.042, 0.069, 0.096, 0.106, 0.084, 0.104, 0.099, 0.184, 0.105),
        (0, 0, 0.001, 0.024, 0.025, 0.032, 0.041, 0.061, 0.051, 0.068, 0.093, 0.102, 0.069, 0.14,
         0.065)),
        out=(0, 0.344, 0.07, 0.033, 0.02, 0.012, 0.021),
        shed=(0.294, 0.104, 0.089)),
    "dansk": RoundEndRates(
        lay_down=(
        (0.148, 0.215, 0.249, 0.307, 0.324, 0.297, 0.358, 0.274),
        (0.027, 0.05, 0.087, 0.096, 0.099, 0.1, 0.116, 0.12, 0.1, 0.081, 0.124, 0.093, 0.095, 0.064,
         0.081, 0.052),
        (0.012, 0.032, 0.065, 0.105, 0.127, 0.181, 0.205, 0.179, 0.19, 0.239),
        (0.002, 0.009, 0.015, 0.039, 0.056, 0.055, 0.072, 0.068, 0.084, 0.083, 0.086, 0.086, 0.071,
         0.147, 0.095),
        (0, 0, 0.006, 0.013, 0.014, 0.025, 0.024, 0.027, 0.031, 0.051, 0.05, 0.045, 0.04, 0.049,
         0.051, 0.062, 0.031, 0.051, 0.047, 0.035, 0.015, 0.026, 0.041),
        (0, 0.001, 0, 0.003, 0.005, 0.01, 0.012, 0.014, 0.016, 0.043, 0.024, 0.043, 0.052, 0.044,
         0.032, 0.024, 0.038, 0.032, 0.043, 0.03, 0.045, 0.035, 0.033, 0.032, 0.029, 0.055, 0.09,
         0.018)),
        out=(0, 0.222, 0.044, 0.031, 0.018, 0.007, 0.017),
        shed=(0.276, 0.088, 0.085)),
    "remi": RoundEndRates(
        lay_down=(
        (0.352, 0.423, 0.361, 0.316, 0.371, 0.274),
        (0.205, 0.272, 0.239, 0.206, 0.199, 0.179, 0.201),
        (0.037, 0.063, 0.114, 0.115, 0.156, 0.176, 0.172, 0.21, 0.223, 0.199),
        (0.052, 0.137, 0.185, 0.229, 0.22, 0.297, 0.282),
        (0.013, 0.088, 0.122, 0.16, 0.187, 0.191, 0.238, 0.212),
        (0.005, 0.016, 0.046, 0.067, 0.082, 0.112, 0.135, 0.176, 0.187, 0.103)),
        out=(0, 0.429, 0.093, 0.056, 0.04, 0.01, 0.034),
        shed=(0.362, 0.161, 0.141)),
}


def preset_rates(rules: Rules) -> RoundEndRates | None:
    """The measured rates of ``rules`` when it is one of the presets as
    shipped, else None (the model's general rates then stand).

    >>> preset_rates(load_rules("london")).out[1]
    0.344
    >>> preset_rates(load_rules("london", deal=[11] * 7)) is None
    True
    """
    rates = _PRESET_RATES.get(rules.name)
    if rates is None or rules != load_rules(rules.name):
        return None
    return rates


def _lay_down_rate(turns: int) -> float:
    """Chance that a player who is not down lays down in its next turn (normal rounds)."""
    return min(0.12, 0.07 + 0.004 * turns)


#: per contract (sets, runs) of liverpool's rounds 1-6, the chance that a player
#: who is not down lays down in its next turn, having taken 0, 1, 2 or 3 cards
#: from the discard pile this round before it (four ``basic`` bots, 400 games;
#: round 1 with 3 cards was seen 3 times only: 2 cards' chance stands for it)
_LAY_DOWN_TAKEN = {
    (2, 0): (0.202, 0.404, 0.439, 0.439),
    (1, 1): (0.090, 0.182, 0.194, 0.26),
    (0, 2): (0.022, 0.078, 0.107, 0.114),
    (3, 0): (0.041, 0.139, 0.209, 0.226),
    (2, 1): (0.053, 0.144, 0.196, 0.215),
    (1, 2): (0.013, 0.064, 0.098, 0.132),
}


def _lay_down_rate_taken(row: tuple[float, ...], taken: float) -> float:
    """The chance in ``row`` for ``taken`` cards, interpolated between the
    measured counts (3 or more: the last)."""
    if taken >= len(row) - 1:
        return row[-1]
    low = int(taken)
    return row[low] + (row[low + 1] - row[low]) * (taken - low)


def _out_rate_final(turns: int) -> float:
    """Chance that a player goes out in its next turn in an all-at-once round."""
    return min(0.07, max(0.0, 0.006 * (turns - 3)))


def _out_rate_taken(turns: int, taken: float) -> float:
    """Chance that a player who took ``taken`` cards from the discard pile this
    round (upcards and buys) goes out in its next turn in an all-at-once round:
    measured on liverpool's last round played by four ``basic`` bots, each
    card taken beyond the mean of that turn makes it 1.4 times as likely."""
    mean = min(2.2, 0.45 + 0.11 * turns)
    return min(0.2, max(0.0, 0.0045 * (turns - 4)) * float(1.4 ** (taken - mean)))


def _step(dist: list[float], turns: int, final: bool, rate: float | None = None,
          rates: RoundEndRates | None = None) -> list[float]:
    """One turn of the chain; ``dist`` is [not down, down with 1..6, out];
    ``rate``: the chance of laying down (of going out, in an all-at-once
    round) of a player who is not down, when known; ``rates``: the
    ruleset's chances for a player who is down (normal rounds)."""
    new = [0.0] * 8
    new[7] = dist[7]
    n = dist[0]
    if final:
        p = _out_rate_final(turns) if rate is None else rate
        new[0] += n * (1 - p)
        new[7] += n * p
    else:
        p = _lay_down_rate(turns) if rate is None else rate
        new[0] += n * (1 - p)
        new[3] += n * p * 0.5
        new[4] += n * p * 0.5
    outs, sheds = (_OUT, _SHED) if rates is None or final else (rates.out, rates.shed)
    for k in range(1, 7):
        m = dist[k]
        if not m:
            continue
        out = outs[k]
        new[7] += m * out
        rest = m * (1 - out)
        moved = 0.0
        for j, q in enumerate(sheds, start=1):
            if k - j >= 1:
                new[k - j] += rest * q
                moved += q
        new[k] += rest * (1 - moved)
    return new


def risk_tables(rules: Rules, view: SeatView, seat: int, horizon: int,
                taken: Sequence[int] | None = None, rates: RoundEndRates | None = None
                ) -> tuple[list[float], list[list[float]]]:
    """(ends, tail) for the expert's expected points.

    ``ends[t]`` is the chance that the round ends (an opponent goes out) between
    the seat's own turn ``t`` (0: the current one) and its next turn, for
    ``t`` = 0..horizon; ``ends[horizon + 1]`` is the chance that it ends later.
    ``taken`` (per seat, the cards taken from the discard pile this round,
    upcards and buys): an opponent's chance of laying down in liverpool's
    contracts of rounds 1-6 (about 0.12 more cards a turn), and in an
    all-at-once round its chance of going out (a measured 1.4 times per
    card, about 0.1 more a turn), follow how many it took. ``rates``: the
    ruleset's own rates of its normal rounds (:func:`preset_rates`) instead
    of the general ones (``taken`` comes first where both apply).
    ``tail[t][k]`` is the expected share of its hand's points the seat pays when
    it lays down at turn ``t`` keeping ``k`` cards (1..6), then sheds them as a
    typical player who is down does.

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=4, seed=3)
    >>> ends, tail = risk_tables(rules, game.view(0), 0, 10)
    >>> round(sum(ends), 6), len(tail), all(0 < tail[0][k] <= 1 for k in range(1, 7))
    (1.0, 11, True)
    """
    final = lay_down_mode(rules, view.round) != "normal"
    players = view.players
    base = view.turn_number // max(1, players)
    row = _LAY_DOWN_TAKEN.get((view.contract.sets, view.contract.runs))
    lay = None
    if rates is not None and not final and view.round <= len(rates.lay_down):
        lay = rates.lay_down[view.round - 1]
    alive = [1.0] * (horizon + 2)  # chance no opponent is out after own turn t's cycle
    for o in range(players):
        if o == seat:
            continue
        dist = [0.0] * 8
        if view.laid_down[o]:
            dist[max(1, min(6, view.hand_sizes[o]))] = 1.0
        else:
            dist[0] = 1.0
        for t in range(horizon + 1):
            rate = None
            if taken is not None and (final or row is not None):
                if final:
                    rate = _out_rate_taken(base + t, taken[o] + 0.1 * t)
                elif row is not None:
                    rate = _lay_down_rate_taken(row, taken[o] + 0.12 * t)
            elif lay is not None:
                rate = lay[min(base + t, len(lay) - 1)]
            dist = _step(dist, base + t, final, rate, rates)
            alive[t] *= 1.0 - dist[7]
    alive[horizon + 1] = 0.0
    ends = [(1.0 if t == 0 else alive[t - 1]) - alive[t] for t in range(horizon + 2)]
    # own shedding after a lay-down: the expected share of points still held
    share: list[list[float]] = [[0.0] * (horizon + 2) for _ in range(7)]
    for k in range(1, 7):
        dist = [0.0] * 8
        dist[k] = 1.0
        for d in range(horizon + 2):
            share[k][d] = sum(dist[j] * j for j in range(1, 7)) / k
            dist = _step(dist, base, final, None, rates)
    tail = [[0.0] * 7 for _ in range(horizon + 1)]
    for t in range(horizon + 1):
        for k in range(1, 7):
            tail[t][k] = sum(ends[t + d] * share[k][d] for d in range(horizon + 2 - t))
    return ends, tail


def out_tables(ends: list[float], view: SeatView, rules: Rules, horizon: int,
               rates: RoundEndRates | None = None) -> tuple[list[float], list[list[float]]]:
    """(first, outp) for the going-out bonus.

    ``first[t]`` is the chance that the round still goes on at the seat's own
    turn ``t`` (nobody else went out before it), so going out at turn ``t``
    ends the round with the seat first. ``outp[t][k]`` is the chance that the
    seat, laying down at turn ``t`` and keeping ``k`` cards (1..6), then sheds
    them as a typical player who is down does (by ``rates``, when given) and
    goes out before any opponent.

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=4, seed=3)
    >>> v = game.view(0)
    >>> ends, _ = risk_tables(rules, v, 0, 10)
    >>> first, outp = out_tables(ends, v, rules, 10)
    >>> first[0], all(0 < outp[0][k] < first[0] for k in range(1, 7))
    (1.0, True)
    """
    final = lay_down_mode(rules, view.round) != "normal"
    base = view.turn_number // max(1, view.players)
    first = [1.0] * (horizon + 2)
    for t in range(1, horizon + 2):
        first[t] = max(0.0, first[t - 1] - ends[t - 1])
    # out[k][d]: chance a player down with k cards is out within d turns
    out = [[0.0] * (horizon + 2) for _ in range(7)]
    for k in range(1, 7):
        dist = [0.0] * 8
        dist[k] = 1.0
        for d in range(1, horizon + 2):
            dist = _step(dist, base, final, None, rates)
            out[k][d] = dist[7]
    outp = [[0.0] * 7 for _ in range(horizon + 1)]
    for t in range(horizon + 1):
        for k in range(1, 7):
            row = out[k]
            outp[t][k] = sum((row[d] - row[d - 1]) * first[t + d]
                             for d in range(1, horizon + 2 - t))
    return first, outp
