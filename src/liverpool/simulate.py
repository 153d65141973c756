"""Run many games between bots and collect statistics.

Every game is seeded from the run's seed and its number, and every bot from
the game's seed and its seat, so a run is reproducible whatever ``jobs`` is.

>>> from liverpool import load_rules
>>> s = run_games(load_rules("remi"), ["basic", "random", "random"], games=2, seed=1)
>>> s.games, len(s.seats), s.errors
(2, 3, 0)
>>> wilson_interval(9, 10)
(0.5958, 0.9821)
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .bots import BOT_KINDS, Bot, make_bot
from .engine import Game
from .errors import GameError
from .events import Bought, Drew, RoundEnded, TookDiscard
from .loop import run_bots
from .rules import Rules

__all__ = [
    "GameResult",
    "SeatStats",
    "Summary",
    "check_bots",
    "game_seed",
    "play_game",
    "run_games",
    "run_matches",
    "summarize",
    "wilson_interval",
]

_MASK = (1 << 63) - 1


def game_seed(seed: int, index: int) -> int:
    """The seed of game number ``index`` of a run seeded with ``seed``.

    >>> game_seed(1, 0) != game_seed(1, 1) != game_seed(2, 0)
    True
    """
    x = (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & _MASK
    x ^= x >> 29
    x = (x * 0xBF58476D1CE4E5B9) & _MASK
    return x ^ (x >> 32)


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion, rounded to 4 places."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    den = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / den
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / den
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


@dataclass(slots=True)
class GameResult:
    """One game's outcome and counters."""

    seed: int
    totals: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    rounds: int = 0
    no_winner_rounds: int = 0
    turns: int = 0
    buys: int = 0
    actions: int = 0
    seconds: float = 0.0
    error: str | None = None


def play_game(rules: Rules, bots: Sequence[str], seed: int,
              bot_options: Sequence[dict[str, Any]] | None = None) -> GameResult:
    """Play one game with one bot kind per seat; engine errors are caught and reported."""
    start = time.perf_counter()
    result = GameResult(seed=seed)
    try:
        game = Game(rules, players=len(bots), seed=seed)
        players: list[Bot] = [
            make_bot(kind, rules, seed=game_seed(seed, 1000 + i),
                     **(bot_options[i] if bot_options else {}))
            for i, kind in enumerate(bots)]
        result.actions = run_bots(game, players)
        for e in game.events:
            kind = e.__class__
            if kind is Drew or kind is TookDiscard:
                result.turns += 1
            elif kind is Bought:
                result.buys += 1
            elif kind is RoundEnded:
                result.rounds += 1
                if e.winner is None:  # type: ignore[union-attr]
                    result.no_winner_rounds += 1
        res = game.results()
        result.totals = res.totals
        result.winners = res.winners
    except Exception as e:  # noqa: BLE001 - a simulation reports engine errors, it does not stop
        result.error = f"{type(e).__name__}: {e}"
    result.seconds = time.perf_counter() - start
    return result


@dataclass(slots=True)
class SeatStats:
    seat: int
    bot: str
    wins: float
    win_rate: float
    win_ci95: tuple[float, float]
    avg_points: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "bot": self.bot, "wins": self.wins,
                "win_rate": round(self.win_rate, 4), "win_ci95": list(self.win_ci95),
                "avg_points": round(self.avg_points, 2)}


@dataclass(slots=True)
class Summary:
    """The statistics of a run (see :meth:`to_json` for the JSON form)."""

    rules: str
    players: int
    seed: int
    games: int
    wall_seconds: float
    ms_per_game_median: float
    seats: list[SeatStats]
    rounds: int
    avg_turns_per_round: float
    buys_per_round: float
    no_winner_round_share: float
    errors: int
    error_samples: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "games": self.games,
            "wall_seconds": round(self.wall_seconds, 3),
            "ms_per_game_median": round(self.ms_per_game_median, 2),
            "seats": [s.to_json() for s in self.seats],
            "rounds": self.rounds,
            "avg_turns_per_round": round(self.avg_turns_per_round, 2),
            "buys_per_round": round(self.buys_per_round, 3),
            "no_winner_round_share": round(self.no_winner_round_share, 4),
            "errors": self.errors,
            "error_samples": self.error_samples,
        }


def summarize(rules: Rules, bots: Sequence[str], seed: int, results: Sequence[GameResult],
              wall_seconds: float) -> Summary:
    """Statistics of finished games. A shared win counts as a win for every seat sharing it."""
    ok = [r for r in results if r.error is None]
    n = len(ok)
    seats = []
    for i, kind in enumerate(bots):
        wins = sum(1 for r in ok if i in r.winners)
        points = sum(r.totals[i] for r in ok)
        seats.append(SeatStats(i, kind, wins, wins / n if n else 0.0, wilson_interval(wins, n),
                               points / n if n else 0.0))
    rounds = sum(r.rounds for r in ok)
    return Summary(
        rules=rules.name,
        players=len(bots),
        seed=seed,
        games=len(results),
        wall_seconds=wall_seconds,
        ms_per_game_median=statistics.median(r.seconds for r in results) * 1000 if results
        else 0.0,
        seats=seats,
        rounds=rounds,
        avg_turns_per_round=sum(r.turns for r in ok) / rounds if rounds else 0.0,
        buys_per_round=sum(r.buys for r in ok) / rounds if rounds else 0.0,
        no_winner_round_share=sum(r.no_winner_rounds for r in ok) / rounds if rounds else 0.0,
        errors=len(results) - n,
        error_samples=[f"game seed {r.seed}: {r.error}" for r in results if r.error][:5],
    )


def _play_chunk(args: tuple[Rules, list[tuple[tuple[str, ...], int]],
                            list[dict[str, Any]] | None]) -> list[GameResult]:
    rules, games, options = args
    return [play_game(rules, bots, s, options) for bots, s in games]


def run_matches(rules: Rules, lineups: Sequence[Sequence[str]], seeds: Sequence[int],
                jobs: int = 1, progress: Callable[[int], None] | None = None,
                bot_options: Sequence[dict[str, Any]] | None = None) -> list[GameResult]:
    """Play one game per (lineup, seed) pair, in order; ``jobs`` processes at most."""
    games = [(tuple(b), s) for b, s in zip(lineups, seeds, strict=True)]
    options = [dict(o) for o in bot_options] if bot_options else None
    results: list[GameResult] = []
    if jobs <= 1 or len(games) <= 1:
        for bots, s in games:
            results.append(play_game(rules, bots, s, options))
            if progress:
                progress(1)
        return results
    from concurrent.futures import ProcessPoolExecutor

    chunk = max(1, min(25, len(games) // (jobs * 4)))
    batches = [games[i:i + chunk] for i in range(0, len(games), chunk)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for batch in pool.map(_play_chunk, [(rules, b, options) for b in batches]):
            results.extend(batch)
            if progress:
                progress(len(batch))
    return results


def check_bots(rules: Rules, bots: Sequence[str], players: int) -> list[str]:
    """One bot kind per seat from ``bots`` (a single kind fills every seat);
    raises :class:`~liverpool.errors.GameError` (a :class:`ValueError`) with a
    code and a clear message for a bad list or kind (``rules_players_count``,
    ``bots_none``, ``bots_count``, ``bots_unknown``: said in any language by
    :func:`liverpool.i18n.render`).

    >>> from liverpool import load_rules
    >>> check_bots(load_rules("remi"), ["basic"], 3)
    ['basic', 'basic', 'basic']
    """
    lo, hi = rules.players
    if not lo <= players <= hi:
        raise GameError("rules_players_count", lo=lo, hi=hi, players=players)
    kinds = [b.strip().lower() for b in bots if b.strip()]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise GameError("bots_unknown", kind=repr(kind), kinds=", ".join(BOT_KINDS))
    if not kinds:
        raise GameError("bots_none")
    if len(kinds) == 1:
        kinds = kinds * players
    if len(kinds) != players:
        raise GameError("bots_count", players=players, bots=len(kinds))
    for kind in kinds:
        make_bot(kind, rules)
    return kinds


def run_games(rules: Rules, bots: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
              progress: Callable[[int], None] | None = None,
              bot_options: Sequence[dict[str, Any]] | None = None) -> Summary:
    """Play ``games`` games of ``rules`` with ``bots`` (one kind per seat) and summarize.

    ``jobs`` > 1 spreads the games over that many processes; the results do not
    depend on it. ``progress`` is called with the number of games just finished.
    """
    kinds = check_bots(rules, bots, len(bots))
    start = time.perf_counter()
    seeds = [game_seed(seed, i) for i in range(games)]
    results = run_matches(rules, [kinds] * games, seeds, jobs, progress, bot_options)
    return summarize(rules, kinds, seed, results, time.perf_counter() - start)
