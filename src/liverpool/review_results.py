"""The coach's results as data: the verdicts and their thresholds, the
accuracy, and a review's decisions, rounds and JSON (docs/protocol.md,
"Review"). :mod:`liverpool.review` makes them; these names are also
importable from there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import Card
from .melds import Meld

__all__ = ["ACCURACY_SCALE", "REVIEW_FORMAT", "THRESHOLDS", "VERDICTS", "Decision", "Option",
           "Review", "RoundAccuracy", "accuracy", "merge_reviews", "percent",
           "round_accuracies", "verdict", "whole_points"]

#: The verdicts, from the best.
VERDICTS: tuple[str, ...] = ("good", "inaccuracy", "mistake", "blunder")

#: The smallest loss (expected points) of each verdict but ``good``.
THRESHOLDS: dict[str, float] = {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 20.0}

#: The points lost (a decision's, or the sum of a round's decisions') at which
#: the accuracy falls to 1/e (37 %).
ACCURACY_SCALE = 50.0

#: The review's format (its JSON's ``format``): 2 since a round's accuracy
#: counts the points lost in it (1: the mean of its decisions' accuracies).
REVIEW_FORMAT = "liverpool-rummy-review/2"


def verdict(loss: float) -> str:
    """The verdict of a decision that lost ``loss`` expected points.

    >>> [verdict(x) for x in (0, 4.9, 5, 12, 20)]
    ['good', 'good', 'inaccuracy', 'mistake', 'blunder']
    """
    out = "good"
    for name in VERDICTS[1:]:
        if loss >= THRESHOLDS[name]:
            out = name
    return out


def accuracy(loss: float) -> float:
    """The accuracy in percent of a decision that lost ``loss`` expected
    points, or of a round whose decisions lost ``loss`` in all:
    ``100 * exp(-loss / 50)``.

    >>> accuracy(0), round(accuracy(5), 1), round(accuracy(20), 1), round(accuracy(50), 1)
    (100.0, 90.5, 67.0, 36.8)
    """
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def whole_points(value: float) -> int:
    """A decision's loss (or a round's) in whole points, the way every report
    shows it ("at least 19 points lost"): the two-decimal figure of the JSON (``to_json``)
    rounded down, as the browser's ``Math.floor`` does — the loss is a
    cautious lower figure, and its verdict follows the same two decimals, so
    a mistake (under 20) never reads "at least 20".

    >>> whole_points(19.996), whole_points(12.5), whole_points(0.004), whole_points(20)
    (20, 12, 0, 20)
    """
    return math.floor(round(value, 2) + 1e-9)


def percent(value: float) -> int:
    """An accuracy as a whole percent, the way every report shows it: from
    the one-decimal figure of the JSON (``to_json``), halves up, so that the
    terminal and the browser (JavaScript's ``Math.round``) show the same.

    >>> percent(99.46), percent(99.44), percent(98.5)
    (100, 99, 99)
    """
    return math.floor(round(value, 1) + 0.5)


@dataclass(frozen=True, slots=True)
class Option:
    """What the search found for one candidate action: its expected points
    at the round's end and its chance to go out first."""

    action: Action
    points: float
    out: float

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "points": round(self.points, 2),
                "out": round(self.out, 3)}


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision of the seat.

    ``index`` is the action's place in the record's ``actions``; ``step`` the
    replay step (the index of the first public event of the seat it caused
    — a buy's own, not the turn player's before it, even when the window
    closes only at a later seat's answer —, or of the event shown
    before it when it caused none or was a pass: the card let go is then in
    view). ``played`` and ``best`` are values of the search (``best`` is
    ``played`` when nothing was better; both measured in the fresh samples
    of the check when there was one, ``checked``); ``loss`` the cautious
    loss in expected points; ``reason`` why ``best`` is better, as a
    code and its parameters (worded by :func:`liverpool.i18n.review_better`),
    None for a good decision.
    """

    index: int
    step: int
    round: int
    phase: str
    played: Option
    best: Option
    loss: float
    verdict: str
    expected_total: float
    options: tuple[Option, ...]
    samples: int
    reason: tuple[str, dict[str, Any]] | None = None
    #: the card offered (a buy or call) or on top of the discard pile (a draw)
    card: Card | None = None
    #: the fresh samples that measured the gap to ``best`` (0: not measured)
    checked: int = 0
    #: the melds on the table (kept only when a move lays off: its words name the meld)
    table: tuple[Meld, ...] = field(default=(), compare=False, repr=False)

    @property
    def accuracy(self) -> float:
        return accuracy(self.loss)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "step": self.step, "round": self.round, "phase": self.phase,
            "verdict": self.verdict, "loss": round(self.loss, 2),
            "accuracy": round(self.accuracy, 1),
            "played": self.played.to_json(), "best": self.best.to_json(),
            "expected_total": round(self.expected_total, 1),
            "options": [o.to_json() for o in self.options], "samples": self.samples,
            "checked": self.checked,
            "card": None if self.card is None else str(self.card),
            "reason": None if self.reason is None else {
                "code": self.reason[0],
                "params": {k: str(v) if isinstance(v, Card) else v
                           for k, v in self.reason[1].items()}},
        }


@dataclass(frozen=True, slots=True)
class RoundAccuracy:
    """A round of the review: ``lost``, the points the seat's decisions lost
    in it in all, how many decisions it made and how many got each verdict;
    its :attr:`accuracy` follows from ``lost``."""

    round: int
    lost: float
    decisions: int
    verdicts: dict[str, int]

    @property
    def accuracy(self) -> float:
        return accuracy(self.lost)

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "accuracy": round(self.accuracy, 1),
                "lost": round(self.lost, 2), "decisions": self.decisions,
                "verdicts": dict(self.verdicts)}


@dataclass(frozen=True, slots=True)
class Review:
    """The review of ``seat``'s game: its decisions, the accuracy of each
    round, the three costliest decisions and the expected final total
    along the game (one value per decision)."""

    seat: int
    players: int
    rules: str
    samples: int
    seed: int
    decisions: tuple[Decision, ...]
    rounds: tuple[RoundAccuracy, ...]
    final_total: int | None
    totals: tuple[int, ...] = field(default=())

    @property
    def costliest(self) -> tuple[Decision, ...]:
        """The three decisions that lost the most, of those that cost something
        worth naming (an inaccuracy or worse: a ``good`` one is never listed)."""
        ranked = sorted((d for d in self.decisions if d.verdict != "good" and d.loss > 0),
                        key=lambda d: (-d.loss, d.index))
        return tuple(ranked[:3])

    @property
    def graph(self) -> tuple[float, ...]:
        """The expected final total after each decision."""
        return tuple(d.expected_total for d in self.decisions)

    @property
    def accuracy(self) -> float:
        """The whole game's accuracy: the mean of its rounds' (100 before any
        decision)."""
        rounds = round_accuracies(self.decisions)
        if not rounds:
            return 100.0
        return sum(r.accuracy for r in rounds) / len(rounds)

    def to_json(self, better: Callable[[Decision], Any] | None = None,
                move: Callable[[Decision], Any] | None = None) -> dict[str, Any]:
        """The review as JSON data (see docs/protocol.md, "Review"); ``better``
        words a decision's better move (e.g. :func:`liverpool.i18n.review_better`
        in a language, or anything JSON) and ``move`` the move played (e.g.
        :func:`liverpool.i18n.review_move`); without them there is no text."""
        def one(d: Decision) -> dict[str, Any]:
            out = d.to_json()
            out["move"] = move(d) if move is not None else None
            out["better"] = better(d) if better is not None and d.verdict != "good" else None
            return out
        return {
            "format": REVIEW_FORMAT, "seat": self.seat, "players": self.players,
            "rules": self.rules, "samples": self.samples, "seed": self.seed,
            "thresholds": dict(THRESHOLDS), "accuracy": round(self.accuracy, 1),
            "final_total": self.final_total, "totals": list(self.totals),
            "rounds": [r.to_json() for r in self.rounds],
            "graph": [round(v, 1) for v in self.graph],
            "costliest": [d.index for d in self.costliest],
            "decisions": [one(d) for d in self.decisions],
        }




def round_accuracies(decisions: Sequence[Decision]) -> tuple[RoundAccuracy, ...]:
    """Per round of ``decisions`` (in order), its points lost and verdicts."""
    by_round: dict[int, list[Decision]] = {}
    for d in decisions:
        by_round.setdefault(d.round, []).append(d)
    out = []
    for rnd in sorted(by_round):
        ds = by_round[rnd]
        counts = {v: sum(1 for d in ds if d.verdict == v) for v in VERDICTS}
        out.append(RoundAccuracy(rnd, sum(d.loss for d in ds), len(ds), counts))
    return tuple(out)


def merge_reviews(parts: Sequence[Review]) -> Review:
    """The whole review from its parts (:func:`liverpool.review.review_game`'s ``take``): their
    decisions in the game's order, the rounds' accuracies counted again.
    Raises ValueError for no parts or parts of different reviews.

    >>> part = Review(seat=0, players=3, rules="liverpool", samples=2, seed=0,
    ...               decisions=(), rounds=(), final_total=None)
    >>> merge_reviews([part, part]) == part
    True
    >>> merge_reviews([part, Review(seat=1, players=3, rules="liverpool", samples=2, seed=0,
    ...                             decisions=(), rounds=(), final_total=None)])
    Traceback (most recent call last):
    ValueError: these parts are not of one review

    ``tests/test_review_processes.py`` puts real parts together; so does
    :func:`liverpool.review_processes.review_in_processes`.
    """
    if not parts:
        raise ValueError("a review needs at least one part")
    first = parts[0]
    same = (first.seat, first.players, first.rules, first.samples, first.seed,
            first.final_total, first.totals)
    if any((p.seat, p.players, p.rules, p.samples, p.seed, p.final_total, p.totals) != same
           for p in parts):
        raise ValueError("these parts are not of one review")
    decisions = tuple(sorted((d for p in parts for d in p.decisions), key=lambda d: d.index))
    return Review(seat=first.seat, players=first.players, rules=first.rules,
                  samples=first.samples, seed=first.seed, decisions=decisions,
                  rounds=round_accuracies(decisions), final_total=first.final_total,
                  totals=first.totals)
