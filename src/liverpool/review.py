"""The coach: a review of one seat's game, decision by decision.

:func:`review_game` replays a game record and, at every decision of the
chosen seat where it had a choice, asks the search (the candidates of the
``search`` bot, :class:`~liverpool.bots.search.SearchBot`) what each
candidate was worth — from that seat's view only: the cards it could not
see are sampled anew (:func:`~liverpool.bots.whereabouts.card_whereabouts`,
:meth:`Game.from_view <liverpool.Game.from_view>`), and every candidate,
the action played among them, is played to the round's end in the same
samples with every seat played by the ``basic`` bot. A candidate's value is
its **expected points** at the round's end (the seat's own round points, the
mean over the samples) and its **chance to go out first** (the share of the
samples in which the seat went out).

The **loss** of a decision is how many expected points the action played
cost against the best candidate, counted cautiously: the mean difference
sample by sample, less ``noise`` standard errors of it (never below 0), so
that the luck of a few samples is not called a mistake. The **verdict**
follows the loss (:data:`THRESHOLDS`): below 5 points good, from 5 an
inaccuracy, from 10 a mistake, from 20 a blunder. A decision's **accuracy**
is ``100 * exp(-loss / 25)``; a round's accuracy is the mean over its
decisions (100 when every decision lost nothing).

The search stops early once no candidate can be an inaccuracy's worth
better than the action played; the action played is still played in every
sample (its value, the graph's point, rests on them all).

The **expected final total** after each decision is the seat's total of the
finished rounds, plus the expected points of this round after the action
played, plus, for every round still to come, the mean points a player
scores in that round in games of ``basic`` bots under the same rules
(played once per review, seeded): the graph of the game.

A review is reproducible: every decision is searched with its own generator
seeded from ``seed`` and the action's index in the record.

>>> from liverpool import Game, load_rules
>>> from liverpool.bots import make_bot
>>> rules = load_rules("liverpool")
>>> game = Game(rules, players=3, seed=4)
>>> bots = [make_bot("basic", rules, seed=s) for s in range(3)]
>>> while game.round == 1:
...     seat = game.to_move
...     _ = game.apply(bots[seat].choose(game.view(seat), game.legal_actions()), seat)
>>> review = review_game(game.record(), seat=0, samples=2)
>>> review.decisions[0].verdict in VERDICTS, 0 <= review.rounds[0].accuracy <= 100
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import (
    Action,
    Buy,
    CommitLayDown,
    Cut,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    Stage,
    SwapJoker,
    Unstage,
    action_from_json,
)
from .bots.basic import BasicBot
from .bots.search import SearchBot, play_out, sample_game
from .bots.whereabouts import card_whereabouts
from .cards import Card
from .engine import Game
from .errors import RecordError
from .events import LaidDown
from .melds import can_lay_off, cards_left
from .record import replay
from .rules import Rules
from .views import SeatView, SeatViews

__all__ = ["THRESHOLDS", "VERDICTS", "Decision", "Hint", "Option", "Review", "RoundAccuracy",
           "accuracy", "hint", "percent", "review_decision", "review_game", "verdict",
           "whole_points"]

#: The verdicts, from the best.
VERDICTS: tuple[str, ...] = ("good", "inaccuracy", "mistake", "blunder")

#: The smallest loss (expected points) of each verdict but ``good``.
THRESHOLDS: dict[str, float] = {"inaccuracy": 5.0, "mistake": 10.0, "blunder": 20.0}

#: The loss (expected points) at which a decision's accuracy falls to 1/e (37 %).
ACCURACY_SCALE = 25.0

#: The review's format (its JSON's ``format``).
REVIEW_FORMAT = "liverpool-rummy-review/1"


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
    """A decision's accuracy in percent: ``100 * exp(-loss / 25)``.

    >>> accuracy(0), round(accuracy(10), 1), round(accuracy(50), 1)
    (100.0, 67.0, 13.5)
    """
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def whole_points(value: float) -> int:
    """A decision's loss in whole points, the way every report shows it: from
    the two-decimal figure of the JSON (``to_json``), halves up, as the
    browser's ``Math.round`` does (12.5 is 13 in both, where Python's
    ``round`` makes it 12).

    >>> whole_points(12.5), whole_points(12.49), whole_points(0.004)
    (13, 12, 0)
    """
    return math.floor(round(value, 2) + 0.5)


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
    replay step (the index of the first public event it caused, or of the
    event shown when it caused none). ``played`` and ``best`` are values of
    the search (``best`` is ``played`` when nothing was better); ``loss`` the
    cautious loss in expected points; ``reason`` why ``best`` is better, as a
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
            "card": None if self.card is None else str(self.card),
            "reason": None if self.reason is None else {
                "code": self.reason[0],
                "params": {k: str(v) if isinstance(v, Card) else v
                           for k, v in self.reason[1].items()}},
        }


@dataclass(frozen=True, slots=True)
class RoundAccuracy:
    """A round's accuracy: the mean of its decisions' accuracies, and how many
    decisions got each verdict."""

    round: int
    accuracy: float
    decisions: int
    verdicts: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "accuracy": round(self.accuracy, 1),
                "decisions": self.decisions, "verdicts": dict(self.verdicts)}


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
        """The whole game's accuracy: the mean over all its decisions."""
        if not self.decisions:
            return 100.0
        return sum(d.accuracy for d in self.decisions) / len(self.decisions)

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


# ------------------------------------------------------------------ review
def review_game(record: dict[str, Any] | str, seat: int, *, samples: int = 12,
                batch: int = 4, seed: int = 0, candidates: int = 3, noise: float = 1.0,
                max_actions: int = 600, baseline_games: int = 8,
                progress: Callable[[int, int], None] | None = None) -> Review:
    """Review ``seat``'s decisions in the game of ``record`` (see the module text).

    ``samples``: sampled deals per decision; ``candidates``: discards compared
    (besides the one played); ``noise``: standard errors taken off a loss;
    ``baseline_games``: games of ``basic`` bots that measure the rounds to
    come; ``progress(done, total)`` is called after each decision.
    Raises :class:`~liverpool.RecordError` for a record that does not replay
    or a seat that is not in it.
    """
    game = replay(record)  # (checks the whole record first)
    data = game.record()
    if not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise RecordError(f"there is no seat {seat} in this game of {game.num_players}")
    if samples < 1:
        raise ValueError("samples must be at least 1")
    rules = game.rules
    actions = [action_from_json(a) for a in data["actions"]]
    seats = [a["seat"] for a in data["actions"]]
    searcher = _Searcher(rules, game.num_players, samples, candidates, max_actions, batch)
    baseline = _round_baseline(rules, game.num_players, baseline_games, seed)

    # the decisions to search: (index in the record, replay step, position, action)
    now = replay(dict(data, actions=[]))
    todo: list[tuple[int, int, Game, Action]] = []
    staged_from: tuple[int, Game] | None = None  # a lay-down built card by card
    for i, (action, who) in enumerate(zip(actions, seats, strict=True)):
        before = len(now.events)
        step = max(0, before - 1)  # the step shown when the action causes no event
        position = now.copy() if who == seat else None
        new = now.apply(action, seat=who)
        if new:
            step = before
        if position is None or isinstance(action, Cut):
            continue
        if isinstance(action, Stage | Unstage):
            if staged_from is None:
                staged_from = (step, position)
            continue
        if isinstance(action, CommitLayDown):
            laid = [e for e in new if isinstance(e, LaidDown)]
            if staged_from is not None and laid:
                whole = LayDown(tuple(laid[0].melds))
                if staged_from[1].can_apply(whole, seat):
                    todo.append((i, step, staged_from[1], whole))
            staged_from = None
            continue
        staged_from = None
        if len(position.legal_actions(seat)) > 1:
            todo.append((i, step, position, action))

    decisions: list[Decision] = []
    for k, (index, step, position, action) in enumerate(todo):
        rng = random.Random(seed * 1_000_003 + index)  # noqa: S311 - seeded samples, not secrets
        decisions.append(searcher.decision(position, seat, action, index, step, rng, noise,
                                           baseline))
        if progress is not None:
            progress(k + 1, len(todo))
    rounds = _round_accuracies(decisions)
    totals = tuple(sum(r[s] for r in game.state.round_scores)
                   for s in range(game.num_players))
    return Review(seat=seat, players=game.num_players, rules=rules.name, samples=samples,
                  seed=seed, decisions=tuple(decisions), rounds=rounds,
                  final_total=totals[seat] if game.is_over else None, totals=totals)


def review_decision(position: Game, seat: int, action: Action, *, index: int = 0,
                    step: int = 0, samples: int = 12, batch: int = 4, seed: int = 0,
                    candidates: int = 3, noise: float = 1.0, max_actions: int = 600,
                    baseline: Sequence[float] = ()) -> Decision:
    """Review one decision: ``seat`` did ``action`` in ``position`` (a game at
    that moment). Only ``position.view(seat)`` and the seat's legal actions
    are read. ``index`` and ``step`` (the action's place in its record) seed
    the search and label the result; ``baseline`` is the mean points of each
    round for the expected final total (none: 0 for every round to come).
    The other options are those of :func:`review_game`."""
    searcher = _Searcher(position.rules, position.num_players, samples, candidates,
                         max_actions, batch)
    rng = random.Random(seed * 1_000_003 + index)  # noqa: S311 - seeded samples, not secrets
    return searcher.decision(position, seat, action, index, step, rng, noise,
                             list(baseline) or [0.0] * position.rules.num_rounds)


@dataclass(frozen=True, slots=True)
class Hint:
    """The search's suggestion at a decision (:func:`hint`): the ``action``,
    the values of the candidates searched (``options``, the suggestion
    first, then the others from the best), why it beats the next best one
    (``reason``, a code and its parameters as a :class:`Decision`'s; None
    when the planner cannot tell), ``card`` as a Decision's, and the
    ``samples`` taken (0: there was nothing to search)."""

    action: Action
    phase: str
    options: tuple[Option, ...]
    samples: int
    reason: tuple[str, dict[str, Any]] | None = None
    card: Card | None = None

    def to_json(self) -> dict[str, Any]:
        best = self.options[0] if self.options else None
        return {"action": self.action.to_json(), "phase": self.phase,
                "points": None if best is None else round(best.points, 2),
                "out": None if best is None else round(best.out, 3),
                "samples": self.samples, "card": None if self.card is None else str(self.card),
                "reason": None if self.reason is None else {
                    "code": self.reason[0],
                    "params": {k: str(v) if isinstance(v, Card) else v
                               for k, v in self.reason[1].items()}}}


def hint(rules: Rules, view: SeatView, legal: Sequence[Action], *, samples: int = 8,
         seed: int = 0, time_ms: float = 800.0, candidates: int = 3, noise: float = 1.0,
         max_actions: int = 600) -> Hint:
    """The search's suggestion for the seat of ``view`` among ``legal`` (its
    legal actions now), from that view alone.

    The candidates are the ``search`` bot's (the ``basic`` choice first);
    each is valued as the coach values a decision (expected points at the
    round's end, chance to go out first) in up to ``samples`` sampled deals,
    stopping early as a review does and before a sample that would overrun
    ``time_ms``. The suggestion is the ``basic`` choice unless a candidate
    beats it by the coach's cautious measure (its mean gain, less ``noise``
    standard errors, is above 0): then the best one. Under
    ``time_ms=float("inf")`` the hint is reproducible from ``seed``.

    >>> from liverpool import Game, load_rules
    >>> rules = load_rules("liverpool")
    >>> game = Game(rules, players=3, seed=4)
    >>> h = hint(rules, game.view(0), game.legal_actions(0), samples=2, time_ms=float("inf"))
    >>> h.action in game.legal_actions(0), h.phase
    (True, 'draw')
    """
    seat = view.seat
    if seat is None or not legal:
        raise ValueError("a hint needs a seat's view at its decision")
    searcher = _Searcher(rules, view.players, max(1, samples), candidates, max_actions, 4)
    bot = searcher.bot
    basic = bot.basic.choose(view, legal)
    card = view.offered_card if view.phase in ("buy", "call") else (
        view.top_discard if view.phase == "draw" else None)
    options = [basic] if view.phase == "cut" else bot.candidate_actions(view, legal, basic)
    if len(options) == 1:
        return Hint(basic, view.phase, (), 0, card=card)
    rng = random.Random(seed)  # noqa: S311 - seeded samples, not secrets
    points, outs = searcher._search(view, seat, options, rng, time_ms / 1000.0)
    n = len(points[0])
    means = [sum(p) / n for p in points]
    best = min(range(len(options)), key=lambda i: (means[i], i))
    gains = [a - b for a, b in zip(points[0], points[best], strict=True)]
    mean = sum(gains) / n
    se = (sum((g - mean) ** 2 for g in gains) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
    chosen = best if mean - noise * se > 0 else 0
    order = [chosen] + sorted((i for i in range(len(options)) if i != chosen),
                              key=lambda i: (means[i], i))
    values = tuple(Option(options[i], means[i], sum(outs[i]) / n) for i in order)
    # why: against the plain move (the first option: what the page's suggestion and
    # the player's eye see first) when the hint is another; else against the next best
    reason = searcher._reason(view, options[0] if chosen else options[order[1]],
                              options[chosen])
    return Hint(options[chosen], view.phase, values, n, reason=reason, card=card)


def _round_accuracies(decisions: Sequence[Decision]) -> tuple[RoundAccuracy, ...]:
    by_round: dict[int, list[Decision]] = {}
    for d in decisions:
        by_round.setdefault(d.round, []).append(d)
    out = []
    for rnd in sorted(by_round):
        ds = by_round[rnd]
        counts = {v: sum(1 for d in ds if d.verdict == v) for v in VERDICTS}
        out.append(RoundAccuracy(rnd, sum(d.accuracy for d in ds) / len(ds), len(ds), counts))
    return tuple(out)


def _round_baseline(rules: Rules, players: int, games: int, seed: int) -> list[float]:
    """Per round (index 0: round 1), the mean points a seat scores in it in
    ``games`` games of ``basic`` bots (0 for every round when ``games`` is 0)."""
    sums = [0.0] * rules.num_rounds
    count = 0
    for g in range(games):
        game = Game(rules, players=players, seed=seed * 7919 + g + 1)
        bots = [BasicBot(rules, s) for s in range(players)]
        views = SeatViews(game)
        steps = 0
        while not game.is_over and steps < 20_000:
            mover = game.to_move
            assert mover is not None  # noqa: S101 - not over: someone moves
            legal = game.legal_actions()
            game.apply(bots[mover].choose(views.view(mover, legal), legal))
            steps += 1
        for r, scores in enumerate(game.state.round_scores[:rules.num_rounds]):
            sums[r] += sum(scores) / players
        count += 1
    return [s / count for s in sums] if count else sums


class _Searcher:
    """The search of one review: candidates, samples and futures."""

    def __init__(self, rules: Rules, players: int, samples: int, candidates: int,
                 max_actions: int, batch: int) -> None:
        self.rules = rules
        self.samples = samples
        self.max_actions = max_actions
        #: samples between the checks whether the search may stop early
        self.batch = max(2, min(batch, samples))
        #: the gain below which the action played is settled as good
        self.settled = THRESHOLDS["inaccuracy"]
        self.bot = SearchBot(rules, seed=0, iterations=samples, time_ms=float("inf"),
                             candidates=candidates, max_actions=max_actions, base="basic")
        self.policy = [BasicBot(rules, s) for s in range(players)]
        self.planner = self.bot.basic.planner

    def decision(self, position: Game, seat: int, played: Action, index: int, step: int,
                 rng: random.Random, noise: float, baseline: Sequence[float]) -> Decision:
        view = position.view(seat)
        legal = position.legal_actions(seat)
        options = self.bot.candidate_actions(view, legal, self.bot.basic.choose(view, legal))
        if played in options:
            options.remove(played)
        options.insert(0, played)
        points, outs = self._search(view, seat, options, rng, played_alone=True)
        n = min(len(p) for p in points)  # (the samples every candidate was played in)
        means = [sum(p[:n]) / n for p in points]
        best = min(range(len(options)), key=lambda i: (means[i], i))
        gains = [a - b for a, b in zip(points[0][:n], points[best][:n], strict=True)]
        mean = sum(gains) / n
        se = (sum((g - mean) ** 2 for g in gains) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
        loss = max(0.0, mean - noise * se)
        call = verdict(loss)
        # the action played, valued over all its samples (those it was played
        # alone in too: the graph's line steadier)
        means[0] = sum(points[0]) / len(points[0])
        values = tuple(Option(a, means[i], sum(outs[i]) / len(outs[i]))
                       for i, a in enumerate(options))
        rnd = position.round
        done = sum(r[seat] for r in position.state.round_scores[:rnd - 1])
        expected = done + means[0] + sum(baseline[rnd:])
        reason = None if call == "good" else self._reason(view, played, options[best])
        card = view.offered_card if view.phase in ("buy", "call") else (
            view.top_discard if view.phase == "draw" else None)
        return Decision(index=index, step=step, round=rnd, phase=view.phase,
                        played=values[0], best=values[best] if call != "good" else values[0],
                        loss=loss, verdict=call, expected_total=expected, options=values,
                        samples=len(points[0]), reason=reason, card=card)

    # -------------------------------------------------------------- search
    def _search(self, view: SeatView, seat: int, options: list[Action], rng: random.Random,
                budget: float = math.inf, *, played_alone: bool = False
                ) -> tuple[list[list[float]], list[list[float]]]:
        """Every option's round points and went-out (0/1) per sample. Samples
        come in batches of ``batch``; the search stops early once no option
        can be an inaccuracy's points better than the one played (option 0):
        its mean gain plus two standard errors is below that, for every option
        (so the decision's verdict is ``good`` anyway); and, with a ``budget``
        (seconds), before a sample that would overrun it (one sample at least).
        With ``played_alone``, once it stops early the rest of the samples
        play option 0 alone (its lists are then the longer ones)."""
        unseen, known = card_whereabouts(self.rules, view)
        points: list[list[float]] = [[] for _ in options]
        outs: list[list[float]] = [[] for _ in options]
        clock = time.perf_counter
        start = clock()
        slowest = 0.0
        for k in range(self.samples):
            if k and clock() - start + slowest > budget:
                break
            began = clock()
            game = self._sample(view, unseen, known, rng)
            for i, action in enumerate(options):
                p, out = self._future(game, seat, action)
                points[i].append(p)
                outs[i].append(out)
            slowest = max(slowest, clock() - began)
            if (k + 1) % self.batch == 0 and k + 1 < self.samples and self._settled(points):
                if played_alone:
                    for _ in range(k + 1, self.samples):
                        p, out = self._future(self._sample(view, unseen, known, rng), seat,
                                              options[0])
                        points[0].append(p)
                        outs[0].append(out)
                break
        return points, outs

    def _settled(self, points: list[list[float]]) -> bool:
        played = points[0]
        n = len(played)
        for other in points[1:]:
            gains = [a - b for a, b in zip(played, other, strict=True)]
            mean = sum(gains) / n
            se = (sum((g - mean) ** 2 for g in gains) / (n - 1) / n) ** 0.5
            if mean + 2.0 * se >= self.settled:
                return False
        return True

    def _sample(self, view: SeatView, unseen: list[Card], known: list[list[Card]],
                rng: random.Random) -> Game:
        return sample_game(self.rules, view, unseen, known, rng)

    def _future(self, sample: Game, seat: int, action: Action) -> tuple[float, float]:
        """(the seat's round points, 1 if it went out else 0) after ``action``
        and the ``basic`` policy to the round's end, in a copy of ``sample``."""
        scores, winner = play_out(sample, seat, action, self.policy, self.max_actions)
        return float(scores[seat]), float(winner == seat)

    # -------------------------------------------------------------- reason
    def _reason(self, view: SeatView, played: Action, best: Action
                ) -> tuple[str, dict[str, Any]] | None:
        """Why ``best`` beats ``played``, in the planner's words: a code and
        its parameters (see :func:`liverpool.i18n.review_better`)."""
        hand = list(view.hand)
        contract = view.contract
        sets, runs = contract.sets, contract.runs
        down = view.seat is not None and view.laid_down[view.seat]
        planner = self.planner
        if isinstance(best, Discard) and len(hand) == 1:
            return ("goes_out", {})
        if isinstance(best, LayDown) and isinstance(played, LayDown):  # other melds
            kept, other = cards_left(hand, best.melds), cards_left(hand, played.melds)
            fewer = self.rules.hand_points(other) - self.rules.hand_points(kept)
            if fewer > 0:
                return ("lay_down_fewer", {"points": fewer})
            for c in other:
                if c in kept:
                    kept.remove(c)
            return ("lay_down_keeps", {"card": kept[0]}) if kept else None
        if isinstance(best, LayDown):
            return ("lay_down", {})
        if isinstance(best, LayOff | SwapJoker):
            return ("lay_off", {"card": best.card})
        card = view.offered_card if view.phase in ("buy", "call") else view.top_discard
        if isinstance(best, Draw | Buy) and not (isinstance(best, Draw) and best.source == "stock"):
            if card is not None and not down:
                before = planner.need(hand, sets, runs)
                after = planner.need_with(hand, card, sets, runs)
                if after == 0 < before:
                    return ("completes", {"card": card})
                if after < before:
                    return ("closer", {"card": card})
            if card is not None and down:
                return ("fits_table", {"card": card})
            return None
        if isinstance(best, Pass) or (isinstance(best, Draw) and best.source == "stock"):
            if isinstance(played, Buy | Draw) and card is not None:
                # (a draw from the stock adds a card too: only a pass keeps the hand as it is)
                return ("not_needed" if isinstance(best, Pass) else "no_help", {"card": card})
            return None
        if isinstance(best, Discard) and isinstance(played, Discard):
            others_down = any(d for s, d in enumerate(view.laid_down) if s != view.seat)
            if others_down and self._fits(view, played.card) and not self._fits(view, best.card):
                return ("feeds", {"card": played.card})
            if not down:
                keep = _without(hand, played.card)
                throw = _without(hand, best.card)
                if planner.need(throw, sets, runs) < planner.need(keep, sets, runs):
                    return ("keep", {"card": played.card, "other": best.card})
            diff = self.rules.card_points(best.card) - self.rules.card_points(played.card)
            if diff > 0:
                return ("shed", {"card": best.card, "points": diff})
            return None
        if isinstance(best, Discard) and isinstance(played, LayDown):
            return ("wait", {})
        return None


    def _fits(self, view: SeatView, card: Card) -> bool:
        """Does ``card`` fit a meld on the table (could it be laid off)?"""
        return any(can_lay_off(m.cards, card, self.rules) for m in view.table)


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    out = list(hand)
    out.remove(card)
    return out
