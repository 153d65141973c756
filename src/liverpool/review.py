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
cost against the best other candidate, counted so that the luck of a few
samples is not called a mistake. The samples above only *screen*: when no
other candidate is, on them, an inaccuracy's worth better on average, the
loss is 0. Else (the best of several noisy candidates looks better than it
is: a winner's curse) the decision is *checked* on fresh samples, the action
played and the other candidates played in the same deals (common random
numbers), until the verdict is settled or ``check`` samples: the loss is the
largest mean gap on them, less ``noise`` (1.5) standard errors of it (never
below 0). Two rules judge what samples cannot be trusted to: a wild card
thrown away (not the last card) loses at least a mistake's 10 points, and a
blunder's 20 when the contract could have been laid down instead. The
**verdict** follows the loss (:data:`THRESHOLDS`): below 5 points good, from
5 an inaccuracy, from 10 a mistake, from 20 a blunder. A round's
**accuracy** is ``100 * exp(-lost / 50)``, where ``lost`` is the sum of the
losses of the seat's decisions in the round (the points its decisions gave
away): 100 when nothing was lost, 90 for 5 points, 67 for 20, 37 for 50. A
decision's accuracy is the same formula of its own loss alone, and the
game's is the mean of its rounds'.

The screen stops early once no candidate can be an inaccuracy's worth
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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import (
    Action,
    Buy,
    Call,
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
from .events import Bought, Called, LaidDown
from .loop import run_bots
from .melds import can_lay_off, cards_left
from .record import replay
from .review_results import (
    REVIEW_FORMAT,
    THRESHOLDS,
    VERDICTS,
    Decision,
    Option,
    Review,
    RoundAccuracy,
    accuracy,
    merge_reviews,
    percent,
    round_accuracies,
    verdict,
    whole_points,
)
from .rules import Rules
from .views import SeatView

__all__ = ["REVIEW_FORMAT", "THRESHOLDS", "VERDICTS", "Decision", "Hint", "Option", "Review",
           "RoundAccuracy", "accuracy", "hint", "merge_reviews", "percent", "review_decision",
           "review_game", "verdict", "whole_points"]

# ------------------------------------------------------------------ review
def review_game(record: dict[str, Any] | str, seat: int, *, samples: int = 12,
                batch: int = 4, seed: int = 0, candidates: int = 3, noise: float = 1.5,
                max_actions: int = 600, baseline_games: int = 8, check: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                take: Callable[[int], int | None] | None = None) -> Review:
    """Review ``seat``'s decisions in the game of ``record`` (see the module text).

    ``samples``: sampled deals per decision (the screen); ``candidates``:
    discards compared (besides the one played); ``noise``: standard errors
    taken off a loss; ``check``: fresh samples at most that check a decision
    the screen would flag (default ``4 * samples``, 48 for 12);
    ``baseline_games``: games of ``basic`` bots that measure the rounds to
    come; ``progress(done, total)`` is called once before the first decision
    (``done`` 0) and after each decision.

    ``take(total)``, when given, says which decisions this call reviews, one
    at a time: the place of the next (counting from 0, in the game's order,
    each place larger than the last), or None for no more (``total`` is the
    number of decisions). Such a review is a part of the whole one, its
    decisions the same as there; :func:`merge_reviews` puts the parts
    together (:func:`liverpool.review_processes.review_in_processes` makes
    them in processes that take the decisions from one counter).
    ``progress`` then counts this call's decisions against ``total``.
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
    searcher = _Searcher(rules, game.num_players, samples, candidates, max_actions, batch, check)
    baseline = _round_baseline(rules, game.num_players, baseline_games, seed)

    # the decisions to search: (the action before which its position is, index in
    # the record, replay step, action). No position is kept (a game copy per
    # decision would take memory in the square of the game's length): the
    # search below replays the game again and searches each as it comes.
    now = replay(dict(data, actions=[]))
    todo: list[tuple[int, int, int, Action]] = []
    staged_from: tuple[int, Game] | None = None  # a lay-down built card by card
    waiting: int | None = None  # the decision of a buy or call whose event is still to come
    for i, (action, who) in enumerate(zip(actions, seats, strict=True)):
        before = len(now.events)
        step = max(0, before - 1)  # the step shown when the action causes no event
        mine = who == seat and not isinstance(action, Cut)
        staging = mine and isinstance(action, Stage | Unstage)
        if staging and staged_from is None:
            staged_from = (i, now.copy())
        choice = (mine and not staging and not isinstance(action, CommitLayDown)
                  and len(now.legal_actions(seat)) > 1)
        new = now.apply(action, seat=who)
        if new and not isinstance(action, Pass):
            # the first event of the seat itself: a buy that closes the window comes
            # after the turn player's own event; a pass shows the card it let go
            step = before + next((k for k, e in enumerate(new) if e.seat == who), 0)
        if waiting is not None:  # a buy (call) of the seat shows when its window closes
            hit = next((k for k, e in enumerate(new)
                        if e.seat == seat and isinstance(e, Bought | Called)), None)
            if hit is not None:
                at, index, _, act = todo[waiting]
                todo[waiting] = (at, index, before + hit, act)
                waiting = None
        if not mine or staging:
            continue
        if isinstance(action, CommitLayDown):
            laid = [e for e in new if isinstance(e, LaidDown)]
            if staged_from is not None and laid:
                whole = LayDown(tuple(laid[0].melds))
                if staged_from[1].can_apply(whole, seat):
                    todo.append((staged_from[0], i, step, whole))
            staged_from = None
            continue
        staged_from = None
        if choice:
            todo.append((i, i, step, action))
            waiting = len(todo) - 1 if isinstance(action, Buy | Call) and not new else None

    found: dict[int, Decision] = {}
    order = sorted(range(len(todo)), key=lambda k: todo[k][0])
    if progress is not None:
        progress(0, len(order))
    now = replay(dict(data, actions=[]))
    i = 0
    for place in _places(take, len(order)):
        k = order[place]
        at, index, step, action = todo[k]
        while i < at:
            now.apply(actions[i], seat=seats[i])
            i += 1
        rng = random.Random(seed * 1_000_003 + index)  # noqa: S311 - seeded samples, not secrets
        found[k] = searcher.decision(now.copy(), seat, action, index, step, rng, noise,
                                     baseline)
        if progress is not None:
            progress(len(found), len(order))
    decisions = [found[k] for k in sorted(found)]
    rounds = round_accuracies(decisions)
    totals = tuple(sum(r[s] for r in game.state.round_scores)
                   for s in range(game.num_players))
    return Review(seat=seat, players=game.num_players, rules=rules.name, samples=samples,
                  seed=seed, decisions=tuple(decisions), rounds=rounds,
                  final_total=totals[seat] if game.is_over else None, totals=totals)


def _places(take: Callable[[int], int | None] | None, total: int) -> Iterator[int]:
    """The places of the decisions a review takes (all without ``take``)."""
    if take is None:
        yield from range(total)
        return
    last = -1
    while (place := take(total)) is not None:
        if isinstance(place, bool) or not isinstance(place, int) or not last < place < total:
            raise ValueError(f"take gave decision {place} after {last}, of {total}")
        last = place
        yield place


def review_decision(position: Game, seat: int, action: Action, *, index: int = 0,
                    step: int = 0, samples: int = 12, batch: int = 4, seed: int = 0,
                    candidates: int = 3, noise: float = 1.5, max_actions: int = 600,
                    baseline: Sequence[float] = (), check: int | None = None) -> Decision:
    """Review one decision: ``seat`` did ``action`` in ``position`` (a game at
    that moment). Only ``position.view(seat)`` and the seat's legal actions
    are read. ``index`` and ``step`` (the action's place in its record) seed
    the search and label the result; ``baseline`` is the mean points of each
    round for the expected final total (none: 0 for every round to come).
    The other options are those of :func:`review_game`."""
    searcher = _Searcher(position.rules, position.num_players, samples, candidates,
                         max_actions, batch, check)
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


def _round_baseline(rules: Rules, players: int, games: int, seed: int) -> list[float]:
    """Per round (index 0: round 1), the mean points a seat scores in it in
    ``games`` games of ``basic`` bots (0 for every round when ``games`` is 0)."""
    sums = [0.0] * rules.num_rounds
    count = 0
    for g in range(games):
        game = Game(rules, players=players, seed=seed * 7919 + g + 1)
        run_bots(game, [BasicBot(rules, s) for s in range(players)], limit=20_000)
        for r, scores in enumerate(game.state.round_scores[:rules.num_rounds]):
            sums[r] += sum(scores) / players
        count += 1
    return [s / count for s in sums] if count else sums


class _Searcher:
    """The search of one review: candidates, samples and futures."""

    def __init__(self, rules: Rules, players: int, samples: int, candidates: int,
                 max_actions: int, batch: int, check: int | None = None) -> None:
        self.rules = rules
        self.samples = samples
        #: the fresh samples at most that measure a decision that may be flagged
        self.check = check if check is not None else max(16, samples * 4 // 8 * 8)
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
        # a lay-down the hand could make is always a candidate (the ``basic``
        # choice may be to wait, and then only discards are searched)
        options += [a for a in legal if isinstance(a, LayDown) and a not in options][:1]
        # and so is shedding the card of the most points (not a wild one)
        if any(isinstance(a, Discard) for a in options):
            shed = max((a for a in legal if isinstance(a, Discard) and not a.announce
                        and not self.rules.is_wild(a.card)),
                       key=lambda a: self.rules.card_points(a.card), default=None)
            if shed is not None and shed not in options:
                options.append(shed)
        if played in options:
            options.remove(played)
        options.insert(0, played)
        floor, forced = self._rule(view, legal, played, options)
        points, outs = self._search(view, seat, options, rng, played_alone=True)
        n = min(len(p) for p in points)  # (the samples every candidate was played in)
        means = [sum(p[:n]) / n for p in points]
        # the action played, valued over all its samples (those it was played
        # alone in too: the graph's line steadier)
        means[0] = sum(points[0]) / len(points[0])
        values = tuple(Option(a, means[i], sum(outs[i]) / len(outs[i]))
                       for i, a in enumerate(options))
        # 1. these samples screen the decision and rank the other candidates ...
        ranked = sorted(range(1, len(options)), key=lambda i: (means[i], i))[:3]
        if forced is not None:
            ranked = [options.index(forced)]
        best = ranked[0] if ranked else 0
        loss, checked, measured = 0.0, 0, None
        gain = _mean_se([a - b for a, b in zip(points[0][:n], points[best][:n],
                                               strict=True)])[0] if best else 0.0
        # (the screen: only a decision these samples would call an inaccuracy or
        # worse, or one a rule judges, is measured again)
        if best and (gain >= self.settled or floor):
            # 2. ... and fresh samples, the same deals for every move, measure the gaps:
            # the loss is the larger cautious one
            found, checked = self._measure(view, seat, played, [options[i] for i in ranked],
                                           rng, noise)
            j, mean, se, played_at, best_at = max(found, key=lambda f: (f[1] - noise * f[2], -f[0]))
            best = ranked[j]
            measured = (played_at, best_at)
            loss = max(0.0, mean - noise * se)
        if floor:
            loss = max(loss, THRESHOLDS[floor])
        loss = round(loss, 2)  # (the JSON's figure: its verdict and its words agree)
        call = verdict(loss)
        rnd = position.round
        done = sum(r[seat] for r in position.state.round_scores[:rnd - 1])
        expected = done + means[0] + sum(baseline[rnd:])
        played_value, best_value = values[0], values[best]
        if measured is not None and call != "good":  # (the texts': the fresh samples')
            played_value = Option(played, *measured[0])
            best_value = Option(options[best], *measured[1])
        reason = None
        if call != "good":
            reason = (("wild", {"card": played.card}) if floor == "mistake"
                      and isinstance(played, Discard) else None) or self._reason(
                view, played, options[best])
        card = view.offered_card if view.phase in ("buy", "call") else (
            view.top_discard if view.phase == "draw" else None)
        table = tuple(view.table) if any(isinstance(a, LayOff | SwapJoker)
                                         for a in (played, options[best])) else ()
        return Decision(index=index, step=step, round=rnd, phase=view.phase,
                        played=played_value,
                        best=best_value if call != "good" else played_value,
                        loss=loss, verdict=call, expected_total=expected, options=values,
                        samples=len(points[0]), reason=reason, card=card, checked=checked,
                        table=table)

    def _rule(self, view: SeatView, legal: Sequence[Action], played: Action,
              options: list[Action]) -> tuple[str | None, Action | None]:
        """The verdict a decision gets at least whatever the samples say, and
        the move to measure it against: a wild card thrown away (not the last
        card) is a ``mistake``, and a ``blunder`` when the contract could have
        been laid down instead (None, None: no rule applies)."""
        if not (isinstance(played, Discard) and self.rules.is_wild(played.card)
                and len(view.hand) > 1):
            return None, None
        lay_down = next((a for a in options if isinstance(a, LayDown)), None)
        if lay_down is not None:
            return "blunder", lay_down
        other = next((a for a in options if isinstance(a, Discard)
                      and not self.rules.is_wild(a.card)), None)
        if other is None:
            other = next((a for a in legal if isinstance(a, Discard)
                          and not self.rules.is_wild(a.card)), None)
            if other is None:
                return None, None
            options.append(other)
        return "mistake", other

    def _measure(self, view: SeatView, seat: int, played: Action, others: list[Action],
                 rng: random.Random, noise: float
                 ) -> tuple[list[tuple[int, float, float, tuple[float, float],
                                       tuple[float, float]]], int]:
        """The gap between ``played`` and each of ``others`` (chosen as the best
        on other samples) in up to ``check`` fresh samples, every move played in
        the same deals: per other move still in the race at the end (its
        place in ``others``, mean gain, its standard error, (played's mean
        points, chance to go out), (the other's ...)), and the samples taken.
        Samples come in batches of 8; from 16 on, a move whose gap plus
        ``noise`` standard errors is below another's gap less as many leaves
        the race, and the check stops once the largest gap is under an
        inaccuracy's (good: the screen's pick was luck), or from 32 samples on
        once the verdict is settled (the largest gap less ``noise`` + 0.5
        standard errors and the largest plus them get the same verdict) or the
        largest gap is under a mistake's (an inaccuracy at most)."""
        unseen, known = card_whereabouts(self.rules, view)
        moves = [played, *others]
        pts: list[list[float]] = [[] for _ in moves]
        outs = [0.0] * len(moves)
        active = list(range(len(others)))  # (the others still in the race)

        def stats(j: int) -> tuple[float, float]:
            return _mean_se([a - b for a, b in zip(pts[0], pts[j + 1], strict=True)])
        wide = noise + 0.5  # (stopping looks again and again: a wider band)
        while len(pts[0]) < self.check:
            game = self._sample(view, unseen, known, rng)
            for j in (0, *(j + 1 for j in active)):
                p, out = self._future(game, seat, moves[j])
                pts[j].append(p)
                outs[j] += out
            m = len(pts[0])
            if m >= 16 and m % 8 == 0:
                found = {j: stats(j) for j in active}
                low = max(mean - wide * se for mean, se in found.values())
                high = max(mean + wide * se for mean, se in found.values())
                # a move plainly worse than another leaves the race
                best_low = max(mean - noise * se for mean, se in found.values())
                active = [j for j in active if found[j][0] + noise * found[j][1] >= best_low]
                mean = max(found[j][0] for j in active)
                settled = verdict(low) == verdict(high) or mean < THRESHOLDS["mistake"]
                if mean < THRESHOLDS["inaccuracy"] or (m >= 32 and settled):
                    # (good: the gap is under an inaccuracy's; or, from 32 samples
                    # on, the verdict is settled: more samples would not change it;
                    # or the gap is under a mistake's: an inaccuracy at most, not
                    # worth more samples)
                    break
        m = len(pts[0])
        result = []
        for j in active:
            mean, se = stats(j)
            result.append((j, mean, se, (sum(pts[0]) / m, outs[0] / m),
                           (sum(pts[j + 1]) / m, outs[j + 1] / m)))
        return result, m

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
        its parameters (see :func:`liverpool.i18n.review_better`). Each reason
        is checked against the hand (and the table): None when no true one is
        known, never a false one."""
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
            if card is not None and down and self._fits(view, card):
                return ("fits_table", {"card": card})
            return None
        if isinstance(best, Pass) or (isinstance(best, Draw) and best.source == "stock"):
            if isinstance(played, Buy | Draw) and card is not None and not self._helps(view, card):
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
                if sets:
                    mate = self._pair(keep, played.card)
                    if mate is not None and self._pair(throw, best.card) is None:
                        return ("pair", {"card": played.card, "other": mate})
                if runs:
                    mate = self._neighbour(keep, played.card)
                    if mate is not None and self._neighbour(throw, best.card) is None:
                        return ("run_part", {"card": played.card, "other": mate})
            diff = self.rules.card_points(best.card) - self.rules.card_points(played.card)
            if diff > 0:
                return ("shed", {"card": best.card, "points": diff})
            return None
        if isinstance(best, Discard) and isinstance(played, LayDown):
            return ("wait", {})
        return None

    def _helps(self, view: SeatView, card: Card) -> bool:
        """Would ``card`` help the seat: bring its contract closer (not down
        yet), or fit a meld on the table (down)?"""
        if view.seat is not None and view.laid_down[view.seat]:
            return self._fits(view, card)
        contract = view.contract
        hand = list(view.hand)
        return (self.planner.need_with(hand, card, contract.sets, contract.runs)
                < self.planner.need(hand, contract.sets, contract.runs))

    def _pair(self, hand: Sequence[Card], card: Card) -> Card | None:
        """A card of ``hand`` of the rank of ``card`` (not wild), if any."""
        if self.rules.is_wild(card):
            return None
        return next((c for c in hand if c.rank == card.rank and not self.rules.is_wild(c)), None)

    def _neighbour(self, hand: Sequence[Card], card: Card) -> Card | None:
        """A card of ``hand`` of the suit of ``card`` one or two ranks from it
        (the ace next to the two and to the king), if any: the two could be in
        one run."""
        if self.rules.is_wild(card):
            return None

        def gap(a: int, b: int) -> int:
            d = abs(a - b)
            return min(d, 13 - d) if 1 in (a, b) else d
        near = [c for c in hand if c.suit == card.suit and not self.rules.is_wild(c)
                and 1 <= gap(c.rank, card.rank) <= 2]
        return min(near, key=lambda c: (gap(c.rank, card.rank), c.rank), default=None)

    def _fits(self, view: SeatView, card: Card) -> bool:
        """Does ``card`` fit a meld on the table (could it be laid off)?"""
        return any(can_lay_off(m.cards, card, self.rules) for m in view.table)


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (0 for one value)."""
    m = len(values)
    mean = sum(values) / m
    se = (sum((v - mean) ** 2 for v in values) / (m - 1) / m) ** 0.5 if m > 1 else 0.0
    return mean, se


def _without(hand: Sequence[Card], card: Card) -> list[Card]:
    out = list(hand)
    out.remove(card)
    return out
