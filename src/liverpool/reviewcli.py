"""``liverpool review RECORD``: the coach's review of one seat's game, as a
report or as JSON (:mod:`liverpool.review`).

RECORD is a JSON file holding a game record (``Game.record()``), a save of
``liverpool play`` or what the server's ``/record`` gives (both hold the
record under ``"record"``). The command is added to the ``liverpool`` click
group by :mod:`liverpool.cli`.
"""

from __future__ import annotations

import itertools
import json
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import i18n
from .cli_errors import fail, lang_option
from .errors import RecordError, RecordFileError
from .i18n import N_
from .record import read_json_file
from .review import Decision, Review, percent, review_game, whole_points
from .review_processes import ReviewFailed, review_in_processes

__all__ = ["read_record_file", "review_command", "review_json"]

_STYLE = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "red"}
_BARS = "▁▂▃▄▅▆▇█"


def read_record_file(path: str) -> tuple[dict[str, Any], list[str] | None, int | None]:
    """(the record, the players' names if the file has them, the seat of the
    person who played if it says): from a record, a save of ``liverpool
    play`` or the server's ``/record``."""
    data = read_json_file(path)
    if not isinstance(data, dict):
        raise RecordFileError(path, "not_record")
    if "actions" in data or not isinstance(data.get("record"), dict):
        return data, None, None
    names: list[str] | None = None
    seat: int | None = None
    if isinstance(data.get("names"), list):  # a save of liverpool play
        names = [str(n) for n in data["names"]]
        seat = data.get("seat") if isinstance(data.get("seat"), int) else None
    table = data.get("table")
    if isinstance(table, dict) and isinstance(table.get("seats"), list):  # the server's
        seats = [s for s in table["seats"] if isinstance(s, dict)]
        names = [str(s.get("name") or "") or i18n.default_name(i, "en")
                 for i, s in enumerate(seats)]
        people = [i for i, s in enumerate(seats) if s.get("kind") not in ("bot", None)]
        seat = people[0] if people else None
    return data["record"], names, seat


def review_json(review: Review, lang: str) -> dict[str, Any]:
    """The review's JSON with its words (the moves played, "better") in ``lang``."""
    return review.to_json(lambda d: i18n.review_better(d, lang),
                          lambda d: i18n.review_move(d.played.action, d.card, lang,
                                                     table=d.table))


def _action_text(d: Decision, lang: str) -> str:
    return i18n.review_move(d.played.action, d.card, lang, table=d.table)


def _sparkline(values: Sequence[float], width: int = 60) -> str:
    """``values`` as a line of bars, at most ``width`` (each the mean of its share)."""
    if not values:
        return ""
    if len(values) > width:
        cuts = [len(values) * k // width for k in range(width + 1)]
        values = [sum(values[a:b]) / (b - a) for a, b in itertools.pairwise(cuts)]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    return "".join(_BARS[min(7, int((v - lo) / span * 8))] for v in values)


def _report(review: Review, names: list[str] | None, lang: str) -> None:
    console = Console(highlight=False, soft_wrap=False)
    label = i18n.review_label
    name = (names[review.seat] if names and review.seat < len(names)
            else i18n.default_name(review.seat, lang))
    console.print(f"[bold]{label('title', lang, name=name, rules=review.rules, players=review.players)}[/bold]")
    total = "–" if review.final_total is None else str(review.final_total)
    console.print(label("summary" if review.samples != 1 else "summary_one", lang,
                        accuracy=percent(review.accuracy), total=total, samples=review.samples))
    console.print()

    rounds = Table(title=label("rounds", lang), title_justify="left")
    rounds.add_column(label("round", lang), justify="right")
    rounds.add_column(label("accuracy", lang), justify="right")
    rounds.add_column(label("loss", lang), justify="right")
    rounds.add_column(label("decisions", lang), justify="right")
    for v in ("inaccuracy", "mistake", "blunder"):
        rounds.add_column(i18n.review_verdict(v, lang), justify="right", style=_STYLE[v])
    for r in review.rounds:
        rounds.add_row(str(r.round), f"{percent(r.accuracy)} %", str(whole_points(r.lost)),
                       str(r.decisions),
                       *(str(r.verdicts[v]) for v in ("inaccuracy", "mistake", "blunder")))
    console.print(rounds)
    console.print()

    console.print(f"[bold]{label('graph', lang)}[/bold]")
    graph = review.graph
    if graph:
        console.print(f"{graph[0]:.0f} {_sparkline(graph)} {graph[-1]:.0f}")
    console.print()

    console.print(f"[bold]{label('costliest', lang)}[/bold]")
    if not review.costliest:
        console.print(label("none", lang))
    for d in review.costliest:
        _print_decision(console, d, lang)
    bad = [d for d in review.decisions if d.verdict != "good" and d not in review.costliest]
    if bad:
        console.print()
        console.print(f"[bold]{label('all', lang)}[/bold]")
        for d in bad:
            _print_decision(console, d, lang)


def _print_decision(console: Console, d: Decision, lang: str) -> None:
    label = i18n.review_label
    style = _STYLE[d.verdict]
    head = (f"{label('step', lang)} {d.step + 1} ({label('round', lang)} {d.round}): "
            f"{_action_text(d, lang)} — [{style}]{i18n.review_verdict(d.verdict, lang)}[/{style}]"
            f" ({label('lost', lang, points=whole_points(d.loss))})")
    console.print(head)
    better = i18n.review_better(d, lang)
    if better:
        # wrapped here, not by Rich: Rich breaks a line at a no-break space too
        # (leaving "%" alone on a line); textwrap breaks at plain spaces only
        width = max(20, (console.width or 80) - 1)
        console.print(textwrap.fill(better, width, initial_indent="  ", subsequent_indent="  ",
                                    break_long_words=False, break_on_hyphens=False),
                      markup=False, soft_wrap=True)


@click.command("review", help=N_("Review one seat's decisions in a finished (or unfinished) "
                                  "game: what each was worth by the search, the verdicts, the "
                                  "better moves and the accuracy."))
@click.argument("record", metavar=N_("RECORD"))
@click.option("--seat", type=int, default=None,
              help=N_("The seat to review, counting from 1 (default: the person's seat of a "
                      "save or a server record, else 1)."))
@lang_option(N_("the report"))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the review as JSON."))
@click.option("--samples", type=click.IntRange(1, 256), default=12, show_default=True,
              help=N_("Sampled deals per decision at most (the search stops earlier when the "
                      "decision is clearly good)."))
@click.option("--seed", type=int, default=0, show_default=True,
              help=N_("Seed of the samples: the same record, seed and samples give the same "
                      "review."))
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help=N_("Processes to share the decisions out among (the review does not "
                      "depend on it)."))
@click.option("--progress/--no-progress", default=None,
              help=N_("Show a progress bar on stderr (default: when it is a terminal)."))
def review_command(record: str, seat: int | None, lang: str, as_json: bool, samples: int,
                   seed: int, jobs: int, progress: bool | None) -> None:
    try:
        data, names, person = read_record_file(record)
        players = data.get("players")
        if seat is not None and isinstance(players, int) and not 1 <= seat <= players:
            fail(i18n.gettext("there is no seat {seat}: the seats are 1 to {players}",
                              lang).format(seat=seat, players=players), lang)
        index = seat - 1 if seat is not None else (person if person is not None else 0)
        show = sys.stderr.isatty() if progress is None else progress

        def review(told: Callable[[int, int], None] | None) -> Review:
            if jobs == 1:
                return review_game(data, index, samples=samples, seed=seed, progress=told)
            return review_in_processes(data, index, jobs, samples=samples, seed=seed,
                                       progress=told)

        if show:
            bar = Progress(TextColumn(i18n.review_label("decisions", lang)), BarColumn(),
                           MofNCompleteColumn(), TimeElapsedColumn(),
                           console=Console(stderr=True), transient=True)
            with bar:
                task = bar.add_task("review", total=None)
                result = review(lambda k, n: bar.update(task, completed=k, total=n))
        else:
            result = review(None)
    except RecordError as e:
        fail(i18n.render(e, lang, symbols=True), lang)
    except ReviewFailed:
        fail(i18n.gettext("the review could not be finished: one of its processes ended "
                          "early; try again, or with --jobs 1", lang), lang)
    if as_json:
        click.echo(json.dumps(review_json(result, lang), ensure_ascii=False))
        return
    _report(result, names, lang)
