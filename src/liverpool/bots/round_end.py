"""The ``expert``'s model of how a round ends.

From what a view shows (who is down, with how many cards, how far the round
is), :func:`risk_tables` gives the chance that an opponent goes out before
each of the seat's next turns and the share of its points a seat still pays
when it lays down keeping some cards; :func:`out_tables` the chance that the
seat is the first out. The rates were measured on games of four ``basic``
bots (docs/bots.md, "expert").
"""

from __future__ import annotations

from ..melds import lay_down_mode
from ..rules import Rules
from ..views import SeatView

__all__ = ["out_tables", "risk_tables"]


# The round-end model behind the expected points, measured on games of four
# ``basic`` bots (liverpool and remi; see docs/bots.md). A player is "N" (not
# down) or down with k cards in hand at the start of its turn (k = 1..6, 6 for
# six or more). Per turn, given the round goes on:
#: chance that a player who is down with k cards goes out
_OUT = (0.0, 0.46, 0.11, 0.05, 0.04, 0.03, 0.03)
#: chance that it sheds one, two or three cards net (it draws one, lays off and discards)
_SHED = (0.31, 0.08, 0.05)


def _lay_down_rate(turns: int) -> float:
    """Chance that a player who is not down lays down in its next turn (normal rounds)."""
    return min(0.12, 0.07 + 0.004 * turns)


def _out_rate_final(turns: int) -> float:
    """Chance that a player goes out in its next turn in an all-at-once round."""
    return min(0.07, max(0.0, 0.006 * (turns - 3)))


def _step(dist: list[float], turns: int, final: bool) -> list[float]:
    """One turn of the chain; ``dist`` is [not down, down with 1..6, out]."""
    new = [0.0] * 8
    new[7] = dist[7]
    n = dist[0]
    if final:
        p = _out_rate_final(turns)
        new[0] += n * (1 - p)
        new[7] += n * p
    else:
        p = _lay_down_rate(turns)
        new[0] += n * (1 - p)
        new[3] += n * p * 0.5
        new[4] += n * p * 0.5
    for k in range(1, 7):
        m = dist[k]
        if not m:
            continue
        out = _OUT[k]
        new[7] += m * out
        rest = m * (1 - out)
        moved = 0.0
        for j, q in enumerate(_SHED, start=1):
            if k - j >= 1:
                new[k - j] += rest * q
                moved += q
        new[k] += rest * (1 - moved)
    return new


def risk_tables(rules: Rules, view: SeatView, seat: int, horizon: int
                ) -> tuple[list[float], list[list[float]]]:
    """(ends, tail) for the expert's expected points.

    ``ends[t]`` is the chance that the round ends (an opponent goes out) between
    the seat's own turn ``t`` (0: the current one) and its next turn, for
    ``t`` = 0..horizon; ``ends[horizon + 1]`` is the chance that it ends later.
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
            dist = _step(dist, base + t, final)
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
            dist = _step(dist, base, final)
    tail = [[0.0] * 7 for _ in range(horizon + 1)]
    for t in range(horizon + 1):
        for k in range(1, 7):
            tail[t][k] = sum(ends[t + d] * share[k][d] for d in range(horizon + 2 - t))
    return ends, tail


def out_tables(ends: list[float], view: SeatView, rules: Rules, horizon: int
               ) -> tuple[list[float], list[list[float]]]:
    """(first, outp) for the going-out bonus.

    ``first[t]`` is the chance that the round still goes on at the seat's own
    turn ``t`` (nobody else went out before it), so going out at turn ``t``
    ends the round with the seat first. ``outp[t][k]`` is the chance that the
    seat, laying down at turn ``t`` and keeping ``k`` cards (1..6), then sheds
    them as a typical player who is down does and goes out before any opponent.

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
            dist = _step(dist, base, final)
            out[k][d] = dist[7]
    outp = [[0.0] * 7 for _ in range(horizon + 1)]
    for t in range(horizon + 1):
        for k in range(1, 7):
            row = out[k]
            outp[t][k] = sum((row[d] - row[d - 1]) * first[t + d]
                             for d in range(1, horizon + 2 - t))
    return first, outp
