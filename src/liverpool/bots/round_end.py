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

from ..melds import lay_down_mode
from ..rules import Rules
from ..views import SeatView

__all__ = ["out_tables", "risk_tables"]


# The round-end model behind the ``risk`` evaluation, measured on games of four
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


def _step(dist: list[float], turns: int, final: bool, rate: float | None = None
          ) -> list[float]:
    """One turn of the chain; ``dist`` is [not down, down with 1..6, out];
    ``rate``: the chance of laying down (of going out, in an all-at-once
    round) of a player who is not down, when known."""
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


def risk_tables(rules: Rules, view: SeatView, seat: int, horizon: int,
                taken: Sequence[int] | None = None) -> tuple[list[float], list[list[float]]]:
    """(ends, tail) for the ``risk`` evaluation.

    ``ends[t]`` is the chance that the round ends (an opponent goes out) between
    the seat's own turn ``t`` (0: the current one) and its next turn, for
    ``t`` = 0..horizon; ``ends[horizon + 1]`` is the chance that it ends later.
    ``taken`` (per seat, the cards taken from the discard pile this round,
    upcards and buys): an opponent's chance of laying down in liverpool's
    contracts of rounds 1-6 (about 0.12 more cards a turn), and in an
    all-at-once round its chance of going out (a measured 1.4 times per
    card, about 0.1 more a turn), follow how many it took.
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
            if taken is not None:
                if final:
                    rate = _out_rate_taken(base + t, taken[o] + 0.1 * t)
                elif row is not None:
                    rate = _lay_down_rate_taken(row, taken[o] + 0.12 * t)
            dist = _step(dist, base + t, final, rate)
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
