"""``liverpool simulate`` and ``liverpool tournament``: bots against bots.

The commands are added to the ``liverpool`` click group by :mod:`liverpool.cli`.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from . import i18n
from .bots import BOT_KINDS, check_bot_options, make_bot
from .cli_errors import fail, help_text, lang_option, rules_errors
from .errors import GameError
from .i18n import N_
from .rules import Rules
from .ruleset_io import load_rules
from .simulate import GameResult, check_bots, game_seed, run_games, run_matches

__all__ = ["simulate_command", "tournament_command"]

#: games of one run at most (the seeds are made up front)
_MAX_GAMES = 1_000_000
_MAX_JOBS = 64


def _load(ruleset: str, lang: str) -> Rules:
    with rules_errors(lang):
        return load_rules(ruleset)


def _expert_options(time_ms: float | None, iterations: int | None,
                    lang: str = "en") -> dict[str, Any]:
    opts: dict[str, Any] = {}
    if time_ms is not None and not time_ms >= 0:  # (NaN too)
        fail(i18n.say(N_("--time-ms must be a number of milliseconds of 0 or more, or inf, not "
                     "{value}"), lang, value=time_ms), lang)
    if iterations is not None and iterations < 1:
        fail(i18n.say(N_("--iterations must be at least 1, not {value}"), lang, value=iterations),
             lang)
    if time_ms is not None:
        opts["time_ms"] = time_ms
    if iterations is not None:
        opts["iterations"] = iterations
    return opts


def _seat_options(kinds: list[str], expert: dict[str, Any]) -> list[dict[str, Any]] | None:
    if not expert:
        return None
    return [dict(expert) if k in ("expert", "hard", "search") else {} for k in kinds]


def _plain(value: Any) -> Any:
    """An option's value for ``--json``: infinities as the text "inf" or "-inf"
    (JSON has no number for them)."""
    if isinstance(value, float) and math.isinf(value):
        return str(value)
    return value


def _parse_seat_options(text: str | None, kinds: list[str], rules: Rules,
                        common: dict[str, Any], lang: str = "en"
                        ) -> list[dict[str, Any]] | None:
    """``--seat-options``: a JSON list with one object per seat, each checked
    against that seat's bot (:func:`liverpool.bots.check_bot_options`) and laid
    over the ``--time-ms``/``--iterations`` options; ``None`` when there are
    no options at all."""
    seats = _seat_options(kinds, common)
    if text is None:
        return seats
    example = '[{}, {"final_race": false}, {}, {}]'
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        # TRANSLATORS: {example} is a JSON list, said as it is
        fail(i18n.say(N_("--seat-options is not valid JSON; give a list with one object per seat, "
                     "e.g. '{example}'"), lang, example=example), lang)
    if (not isinstance(data, list) or len(data) != len(kinds)
            or not all(isinstance(d, dict) for d in data)):
        fail(i18n.say(N_("--seat-options must be a JSON list with one object per seat ({seats} "
                     "seats), e.g. '{example}'"), lang, seats=len(kinds), example=example),
             lang)
    out = seats or [{} for _ in kinds]
    for seat, (kind, given) in enumerate(zip(kinds, data, strict=True)):
        try:
            opts = out[seat] | check_bot_options(kind, given)
            make_bot(kind, rules, 0, **opts)  # a value the bot refuses (e.g. iterations 0)
        except ValueError as e:
            # TRANSLATORS: {error} is the bot's own message (in English)
            fail(i18n.say(N_("--seat-options, player {player}: {error}"), lang, player=seat + 1,
                      error=e), lang)
        out[seat] = opts
    return out if any(out) else None


def progress_columns(label: str = "playing", lang: str = "en") -> list[ProgressColumn]:
    """The progress bar: games done, time so far and the estimated time left
    (``label`` and "left" in ``lang``)."""
    # TRANSLATORS: in the progress bar: "simulating ━━━━ 12/100 0:00:03 left 0:00:21"
    left = i18n.gettext("left", lang)
    return [TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            TextColumn(left), TimeRemainingColumn()]


@contextmanager
def _progress(total: int, show: bool | None, label: str,
              lang: str = "en") -> Iterator[Callable[[int], None] | None]:
    if show is None:
        show = sys.stderr.isatty()
    if not show or total <= 1:
        yield None
        return
    bar = Progress(*progress_columns(label, lang), console=Console(stderr=True),
                   transient=True)
    with bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


def _check_counts(games: int, jobs: int, lang: str = "en") -> None:
    if not 1 <= games <= _MAX_GAMES:
        fail(i18n.say(N_("--games must be between 1 and {most}, not {value}"), lang,
                  most=f"{_MAX_GAMES:,}", value=games), lang)
    if not 1 <= jobs <= _MAX_JOBS:
        fail(i18n.say(N_("--jobs must be between 1 and {most}, not {value}"), lang,
                  most=_MAX_JOBS, value=jobs), lang)


def _check_bots(rules: Rules, kinds: list[str], players: int, lang: str) -> list[str]:
    """:func:`liverpool.simulate.check_bots`, its refusal said in ``lang``."""
    try:
        return check_bots(rules, kinds, players)
    except GameError as e:
        fail(i18n.render(e, lang), lang)


def _bot_list(text: str) -> list[str]:
    return [b.strip() for b in text.split(",")]


_common = [
    click.option("--rules", "ruleset", default="liverpool", show_default=True,
                 metavar=N_("PRESET|FILE"), help=N_("A preset name or a ruleset TOML file.")),
    click.option("--players", type=int, default=4, show_default=True, help=N_("Players per game.")),
    click.option("--games", type=int, default=100, show_default=True, help=N_("Games to play.")),
    click.option("--seed", type=int, default=0, show_default=True,
                 help=N_("Seed of the run: the same seed gives the same games.")),
    click.option("--jobs", type=int, default=1, show_default=True,
                 help=N_("Processes to spread the games over (the results do not depend on it).")),
    None,  # --json, whose help each command gives (_with_common)
    click.option("--progress/--no-progress", default=None,
                 help=N_("Show a progress bar on stderr (default: when it is a terminal).")),
    click.option("--time-ms", type=float, default=None,
                 help=N_("expert and search: time cap per decision in milliseconds.")),
    click.option("--iterations", type=int, default=None,
                 help=N_("expert and search: sampled futures (search: sampled deals) per "
                         "decision.")),
]


def _with_common(json_help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options ``simulate`` and ``tournament`` share; ``json_help`` says what
    the command's ``--json`` prints."""
    def add(f: Callable[..., Any]) -> Callable[..., Any]:
        for opt in reversed(_common):
            f = (opt or click.option("--json", "as_json", is_flag=True, help=json_help))(f)
        return f
    return add


@click.command("simulate", help=N_("Play many games between bots and print wins, points and "
                                    "round statistics."))
@click.option("--bots", default="basic", show_default=True,
              # TRANSLATORS: {kinds} are the bots' names (random, basic, ...)
              help=help_text(N_("One bot for every seat, or a comma list with one per seat "
                                "({kinds})."), kinds=", ".join(BOT_KINDS)))
@click.option("--seat-options", default=None, metavar="JSON",
              help=N_("Options for each seat's bot: a JSON list with one object per seat, e.g. "
                      "'[{}, {\"final_race\": false}, {}, {}]' (see docs/bots.md for each "
                      "bot's options; they override --time-ms and --iterations)."))
@_with_common(N_("Print the results as one JSON object (a seat's 'seat' is its 0-based index, "
                 "'player' the number from 1 that the table shows)."))
@lang_option(N_("the results and of the errors"))
def simulate_command(bots: str, seat_options: str | None, ruleset: str, players: int,
                     games: int, seed: int, jobs: int, as_json: bool, progress: bool | None,
                     time_ms: float | None, iterations: int | None, lang: str) -> None:
    rules = _load(ruleset, lang)
    _check_counts(games, jobs, lang)
    kinds = _check_bots(rules, _bot_list(bots), players, lang)
    options = _parse_seat_options(seat_options, kinds, rules,
                                  _expert_options(time_ms, iterations, lang), lang)
    # TRANSLATORS: the progress bar's label while liverpool simulate plays its games
    with _progress(games, progress, i18n.gettext("simulating", lang), lang) as tick:
        summary = run_games(rules, kinds, games, seed=seed, jobs=jobs, progress=tick,
                            bot_options=options)
    data = summary.to_json()
    for row in data["seats"]:  # 'seat' is 0-based; 'player' is the table's number from 1
        row["player"] = row["seat"] + 1
        row["options"] = {k: _plain(v) for k, v in (options[row["seat"]] if options else {}).items()}
    if as_json:
        click.echo(json.dumps(data))
        return
    console = Console(highlight=False)
    table = Table(title=_title(games, rules, players, seed, lang))
    t = i18n.translations(lang)
    table.add_column(t.pgettext("simulate column", "seat"), justify="right")
    table.add_column(t.pgettext("simulate column", "bot"), justify="left")
    table.add_column(t.pgettext("simulate column", "wins"), justify="right")
    table.add_column(t.pgettext("simulate column", "win rate"), justify="right")
    table.add_column(t.pgettext("simulate column", "95% interval"), justify="right")
    table.add_column(t.pgettext("simulate column", "avg points"), justify="right")
    for s in summary.seats:
        lo, hi = s.win_ci95
        bot = s.bot
        if options and options[s.seat]:
            bot += " " + ", ".join(f"{k}={json.dumps(v)}" for k, v in options[s.seat].items())
        table.add_row(str(s.seat + 1), bot, f"{s.wins:g}", f"{s.win_rate:.1%}",
                      f"{lo:.1%}–{hi:.1%}", f"{s.avg_points:.1f}")
    console.print(table)
    console.print(i18n.say(N_("average turns per round: {turns}"), lang,
                       turns=f"{summary.avg_turns_per_round:.1f}"))
    console.print(i18n.say(N_("buys per round: {buys}"), lang, buys=f"{summary.buys_per_round:.2f}"))
    # TRANSLATORS: {share} is a percentage ("3.25%"), {rounds} the rounds played
    console.print(i18n.say(N_("rounds with no winner: {share} of {rounds}"), lang,
                       share=f"{summary.no_winner_round_share:.2%}", rounds=summary.rounds))
    # TRANSLATORS: {seconds} is the run's time in seconds, {ms} the median milliseconds of a game
    console.print(i18n.say(N_("time: {seconds} s, median {ms} ms per game"), lang,
                       seconds=f"{summary.wall_seconds:.1f}",
                       ms=f"{summary.ms_per_game_median:.1f}"))
    if summary.errors:
        console.print(i18n.ngettext("engine errors: {n} game", "engine errors: {n} games",
                                    summary.errors, lang).format(n=summary.errors))
    for line in summary.error_samples:
        console.print(f"  {line}")
    console.print(i18n.gettext("A shared win counts for every seat that shares it.", lang))


def _title(games: int, rules: Rules, players: int, seed: int, lang: str) -> str:
    """The title of the results' table: "4 games of liverpool, 4 players, seed 0"."""
    # TRANSLATORS: {rules} is the ruleset's name (liverpool, london, ...); {seed} a number
    return i18n.ngettext("{games} game of {rules}, {players} players, seed {seed}",
                         "{games} games of {rules}, {players} players, seed {seed}",
                         games, lang).format(games=games, rules=rules.name, players=players,
                                             seed=seed)


def _lineups(kinds: list[str], players: int, games: int) -> list[list[str]]:
    """Seat the kinds in turn: every kind gets every seat equally often over the games."""
    k = len(kinds)
    out = []
    for i in range(games):
        out.append([kinds[(i + j) % k] for j in range(players)])
    return out


def _rank_kinds(lineup: list[str], result: GameResult) -> dict[str, float]:
    """Mean final total of each kind's seats in one game."""
    sums: dict[str, list[int]] = {}
    for seat, kind in enumerate(lineup):
        sums.setdefault(kind, []).append(result.totals[seat])
    return {kind: sum(v) / len(v) for kind, v in sums.items()}


@click.command("tournament", help=N_("Rate bot kinds against each other (openskill, "
                                      "Plackett-Luce) and print the ladder."))
@click.option("--bots", default="random,basic,expert", show_default=True,
              help=help_text(N_("The bot kinds to rate, comma separated ({kinds})."),
                             kinds=", ".join(BOT_KINDS)))
@_with_common(N_("Print the ladder as one JSON object (the run's rules, players, games, seed "
                 "and errors, and 'ladder': each kind's ordinal, mu, sigma, games, first "
                 "places and average points)."))
@lang_option(N_("the ladder and of the errors"))
def tournament_command(bots: str, ruleset: str, players: int, games: int, seed: int, jobs: int,
                       as_json: bool, progress: bool | None, time_ms: float | None,
                       iterations: int | None, lang: str) -> None:
    from openskill.models import PlackettLuce

    rules = _load(ruleset, lang)
    _check_counts(games, jobs, lang)
    kinds = list(dict.fromkeys(b.strip().lower() for b in _bot_list(bots) if b.strip()))
    if len(kinds) < 2:
        fail(i18n.gettext("a tournament needs at least two different bots, e.g. --bots "
                          "random,basic", lang), lang)
    for kind in kinds:
        _check_bots(rules, [kind], players, lang)
    lineups = _lineups(kinds, players, games)
    seeds = [game_seed(seed, i) for i in range(games)]
    expert = _expert_options(time_ms, iterations, lang)
    # TRANSLATORS: the progress bar's label while liverpool tournament plays its games
    with _progress(games, progress, i18n.gettext("playing", lang), lang) as tick:
        results = _run_lineups(rules, lineups, seeds, jobs, tick, expert)
    model = PlackettLuce()
    ratings = {k: model.rating(name=k) for k in kinds}
    played = dict.fromkeys(kinds, 0)
    wins = dict.fromkeys(kinds, 0.0)
    points = dict.fromkeys(kinds, 0.0)
    errors = 0
    for lineup, res in zip(lineups, results, strict=True):
        if res.error is not None:
            errors += 1
            continue
        means = _rank_kinds(lineup, res)
        order = sorted(means, key=lambda k: means[k])
        teams = [[ratings[k]] for k in order]
        new = model.rate(teams, scores=[-means[k] for k in order])
        for k, team in zip(order, new, strict=True):
            ratings[k] = team[0]
            played[k] += 1
            points[k] += means[k]
        best = min(means.values())
        winners = [k for k in order if means[k] == best]
        for k in winners:
            wins[k] += 1 / len(winners)
    ladder = sorted(kinds, key=lambda k: -ratings[k].ordinal())
    rows = [{"bot": k, "ordinal": round(ratings[k].ordinal(), 3), "mu": round(ratings[k].mu, 3),
             "sigma": round(ratings[k].sigma, 3), "games": played[k],
             "first_places": round(wins[k], 2),
             "avg_points": round(points[k] / played[k], 1) if played[k] else 0.0}
            for k in ladder]
    if as_json:
        click.echo(json.dumps({"rules": rules.name, "players": players, "games": games,
                               "seed": seed, "errors": errors, "ladder": rows}))
        return
    console = Console(highlight=False)
    table = Table(title=_title(games, rules, players, seed, lang) + " " + i18n.gettext(
        "(openskill Plackett-Luce; ordinal = mu - 3 sigma)", lang))
    t = i18n.translations(lang)
    table.add_column("#", justify="right")
    table.add_column(t.pgettext("simulate column", "bot"), justify="left")
    table.add_column(t.pgettext("simulate column", "ordinal"), justify="right")
    table.add_column("mu", justify="right")
    table.add_column("sigma", justify="right")
    table.add_column(t.pgettext("simulate column", "games"), justify="right")
    table.add_column(t.pgettext("simulate column", "first places"), justify="right")
    table.add_column(t.pgettext("simulate column", "avg points"), justify="right")
    for i, r in enumerate(rows, 1):
        table.add_row(str(i), str(r["bot"]), f"{r['ordinal']:.2f}", f"{r['mu']:.2f}",
                      f"{r['sigma']:.2f}", str(r["games"]), f"{r['first_places']:g}",
                      f"{r['avg_points']:.1f}")
    console.print(table)
    if errors:
        console.print(i18n.ngettext("engine errors: {n} game (left out of the ratings)",
                                    "engine errors: {n} games (left out of the ratings)",
                                    errors, lang).format(n=errors))


def _run_lineups(rules: Rules, lineups: list[list[str]], seeds: list[int], jobs: int,
                 tick: Callable[[int], None] | None, expert: dict[str, Any]
                 ) -> list[GameResult]:
    if not expert:
        return run_matches(rules, lineups, seeds, jobs, tick)
    # expert options differ per seat from game to game: group the games by lineup
    out: dict[int, GameResult] = {}
    groups: dict[tuple[str, ...], list[int]] = {}
    for i, lineup in enumerate(lineups):
        groups.setdefault(tuple(lineup), []).append(i)
    for group, idx in groups.items():
        opts = _seat_options(list(group), expert)
        res = run_matches(rules, [list(group)] * len(idx), [seeds[i] for i in idx], jobs, tick,
                          opts)
        for i, r in zip(idx, res, strict=True):
            out[i] = r
    return [out[i] for i in range(len(lineups))]
