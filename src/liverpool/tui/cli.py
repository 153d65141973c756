"""``liverpool play``: a whole game against bots (and other people) in the terminal.

The command is added to the ``liverpool`` click group
(:data:`liverpool.cli.main`) by :mod:`liverpool.cli`. In a terminal it runs
full-screen (:mod:`liverpool.tui.full`); with input from a pipe or a file (or
``--ui line``) it reads lines (:mod:`liverpool.tui.app`).
"""

from __future__ import annotations

import secrets
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from ..bots import BOT_KINDS, make_bot
from ..bots.base import Bot
from ..cli_errors import fail, lang_option, rules_errors
from ..errors import RecordFileError
from ..i18n import N_, render
from ..rules import Rules
from ..ruleset_io import load_rules
from .app import AUTO_PASS, TerminalGame, bot_name, default_names
from .i18n import tr
from .saves import (
    SaveError,
    SaveFieldError,
    SaveFolderError,
    last_unfinished,
    new_save_path,
    read_save,
    save_dir,
)

__all__ = ["play_command"]

LEVELS = ("easy", "medium", "hard")


def _bots(lang: str, rules: Rules, kinds: dict[int, str], seed: int) -> dict[int, Bot]:
    bots: dict[int, Bot] = {}
    for s, kind in kinds.items():
        try:
            bots[s] = make_bot(kind, rules, seed=seed * 10 + s)
        except ValueError as e:
            if kind.strip().lower() in BOT_KINDS:
                fail(str(e), lang)
            fail(tr(lang, "cli_unknown_bot", kind=repr(kind), kinds=", ".join(BOT_KINDS)), lang)
    return bots


@click.command("play", help=N_("Play a whole game of Liverpool in the terminal, against bots or "
                                "with people taking turns at one screen.\n\nType help during "
                                "the game for the commands."))
@click.option("--rules", "ruleset", default="liverpool", metavar=N_("PRESET|FILE"),
              show_default=True,
              help=N_("A preset (liverpool, london, dansk, remi) or a ruleset TOML file."))
@click.option("--players", type=int, default=None, metavar="N",
              help=N_("Number of players, people included (default: 4, or the nearest the rules "
                      "allow)."))
@click.option("--bots", "bot_kinds", default=None, metavar=N_("KIND[,KIND...]"),
              help=N_("The bots: one kind for all (random, basic, expert, search, easy, medium, "
                      "hard) or one per bot, comma-separated, in seat order."))
@click.option("--level", type=click.Choice(LEVELS), default="medium", show_default=True,
              help=N_("Bot difficulty when --bots is not given."))
@click.option("--seat", type=int, default=1, show_default=True, metavar="N",
              help=N_("Your seat (1 plays first in round 1); with several people, the first's."))
@click.option("--name", default=None, metavar=N_("NAME"), help=N_("Your name at the table."))
@click.option("--humans", type=int, default=None, metavar="N",
              help=N_("People at this terminal (pass-and-play), in the seats from --seat on."))
@click.option("--names", default=None, metavar=N_("NAME,NAME..."),
              help=N_("The people's names, comma-separated (sets --humans)."))
@click.option("--seed", type=int, default=None, metavar="S",
              help=N_("Seed of the shuffle (default: random; shown at the start, to replay a "
                      "game)."))
@click.option("--symbols/--letters", default=True, show_default=True,
              help=N_("Show suits as ♠ ♥ ♦ ♣ or as S H D C."))
@lang_option(N_("the game's screens"))
@click.option("--auto-pass", type=click.Choice(AUTO_PASS), default="off", show_default=True,
              help=N_("Answer buy offers by itself: never, when the card does not help, always."))
@click.option("--warn-calls/--no-warn-calls", default=None,
              help=N_("Ask before a discard that fits the table (a call may punish it); "
                      "default: on at the easy level."))
@click.option("--resume", default=None, is_flag=False, flag_value="", metavar=N_("[FILE]"),
              help=N_("Continue the last unfinished game (or the saved game FILE)."))
@click.option("--save/--no-save", default=True, show_default=True,
              help=N_("Save the game after every action (in the user data folder)."))
@click.option("--ui", type=click.Choice(("auto", "full", "line")), default="auto",
              show_default=True,
              help=N_("full: the full-screen game; line: typed lines (scripts, tests); auto: full "
                      "in a terminal."))
@click.option("--clear/--no-clear", default=True, show_default=True,
              help=N_("Line mode: clear the terminal before each decision."))
def play_command(ruleset: str, players: int | None, bot_kinds: str | None, level: str,
                 seat: int, name: str | None, humans: int | None, names: str | None,
                 seed: int | None, symbols: bool, lang: str, auto_pass: str,
                 warn_calls: bool | None, resume: str | None, save: bool, ui: str,
                 clear: bool) -> None:
    if resume is not None:
        options = _resumed(resume, lang, symbols)
    else:
        options = _new_game(ruleset, players, bot_kinds, level, seat, name, humans, names,
                            seed, symbols, lang, auto_pass, warn_calls, save)
    full = ui == "full" or (ui == "auto" and sys.stdin.isatty() and sys.stdout.isatty())
    status = _run(options, full, clear)
    if status:
        sys.exit(status)


def _new_game(ruleset: str, players: int | None, bot_kinds: str | None, level: str, seat: int,
              name: str | None, humans: int | None, names: str | None, seed: int | None,
              symbols: bool, lang: str, auto_pass: str, warn_calls: bool | None,
              save: bool) -> dict[str, Any]:
    with rules_errors():
        rules = load_rules(ruleset)
    lo, hi = rules.players
    if players is None:
        players = min(max(4, lo), hi)
    if not lo <= players <= hi:
        fail(tr(lang, "cli_players", rules=rules.name, lo=lo, hi=hi, n=players), lang)
    if not 1 <= seat <= players:
        fail(tr(lang, "cli_seat", n=players, seat=seat), lang)
    people = [n.strip() for n in names.split(",")] if names else []
    if humans is None:
        humans = len(people) or 1
    if not 1 <= humans <= players:
        fail(tr(lang, "cli_humans", n=players, humans=humans), lang)
    if people and not all(people):
        fail(tr(lang, "cli_names_empty"), lang)
    if people and len(people) != humans:
        fail(tr(lang, "cli_names", given=len(people), humans=humans), lang)
    if name and not people:
        people = [name.strip()]
    human_seats = [(seat - 1 + i) % players for i in range(humans)]
    bot_seats = [s for s in range(players) if s not in human_seats]
    kinds = [k.strip() for k in (bot_kinds or level).split(",")]
    if len(kinds) == 1:
        kinds = kinds * len(bot_seats)
    if len(kinds) != len(bot_seats) or (bot_seats and not all(kinds)):
        fail(tr(lang, "cli_bots", n=len(bot_seats), given=repr(bot_kinds)), lang)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    kind_of = dict(zip(bot_seats, kinds, strict=True))
    bots = _bots(lang, rules, kind_of, seed)
    seat_names = default_names(lang, players, human_seats, bots)
    for s, kind in kind_of.items():
        seat_names[s] = bot_name(lang, kind.strip().lower(), s)
    for s, person in zip(human_seats, people, strict=False):
        seat_names[s] = person
    if warn_calls is None:
        warn_calls = bot_kinds is None and level == "easy"
    meta = {"seat": human_seats[0], "names": seat_names, "bots": {str(s): k for s, k in
                                                                   kind_of.items()},
            "lang": lang, "symbols": symbols, "auto_pass": auto_pass, "warn_calls": warn_calls,
            "bot_seed": seed}
    try:
        save_path = new_save_path(seed) if save else None
    except SaveFolderError as e:
        fail(tr(lang, "cli_save_folder", folder=e.folder, reason=e.reason), lang)
    return {"rules": rules, "players": players, "seat": human_seats[0], "bots": bots,
            "seed": seed, "game": None, "meta": meta, "save_path": save_path}


def _save_problem(error: SaveError, path: str, lang: str, symbols: bool) -> str:
    """Why a save cannot be continued, in ``lang`` (its cards as symbols or letters)."""
    cause = error.cause
    if cause is None:
        return str(error)
    if isinstance(cause, RecordFileError):
        return render(cause, lang)
    return tr(lang, "cli_save_replay", path=path,
              reason=render(cause, lang, symbols=symbols))


def _resumed(resume: str, lang: str, symbols: bool) -> dict[str, Any]:
    try:
        path: Path | None = Path(resume) if resume else last_unfinished()
        if path is None:
            fail(tr(lang, "cli_no_save", folder=str(save_dir())), lang)
        game, meta = read_save(path)
    except SaveFolderError as e:
        fail(tr(lang, "cli_save_folder", folder=e.folder, reason=e.reason), lang)
    except SaveFieldError as e:
        fail(tr(lang, "cli_bad_save", reason=tr(lang, "cli_save_field", path=e.path,
                                                 field=e.field)), lang)
    except SaveError as e:
        fail(tr(lang, "cli_bad_save", reason=_save_problem(e, str(path), lang, symbols)), lang)
    lang = meta["lang"]
    kinds = {int(s): k for s, k in meta["bots"].items()}
    seat = meta["seat"]
    if game.is_over:
        fail(tr(lang, "cli_bad_save", reason=tr(lang, "cli_save_over", path=str(path))), lang)
    rules = game.rules
    bots = _bots(lang, rules, kinds, int(meta.get("bot_seed", game.seed)))
    keep = {k: v for k, v in meta.items() if k not in ("format", "finished", "saved_at")}
    return {"rules": rules, "players": game.num_players, "seat": seat, "bots": bots,
            "seed": game.seed, "game": game, "meta": keep, "save_path": path}


def _run(o: dict[str, Any], full: bool, clear: bool) -> int:
    meta = o["meta"]
    settings = {"symbols": bool(meta["symbols"]), "lang": str(meta["lang"]),
                "names": meta["names"], "game": o["game"],
                "auto_pass": str(meta["auto_pass"]), "warn_calls": bool(meta["warn_calls"]),
                "save_path": o["save_path"], "save_meta": meta}
    args = (o["rules"], o["players"], o["seat"], o["bots"], o["seed"])
    if full:
        from .full import FullScreenGame, PlayApp

        def make(app: PlayApp) -> FullScreenGame:
            return FullScreenGame(app, *args, **settings)

        app = PlayApp(make)
        app.run()
        ui = app.game_ui
        # (left before the end, by quit too: the save and how to go on, as in the line mode)
        if ui is not None and ui.save_path is not None and not ui.game.is_over:
            click.echo(tr(ui.lang, "saved_resume"))
            click.echo(tr(ui.lang, "saved_in", path=str(ui.save_path)))
        if ui is not None and app.return_code == 0 and ui.game.is_over:
            click.echo(ui.final_text().plain)
        return app.return_code or 0
    console = Console(highlight=False)

    def ask(prompt: str) -> str:
        return console.input(Text(prompt + " > ", style="bold"))

    game = TerminalGame(*args, ask, console, clear=clear, **settings)
    game.run()
    return game.exit_status
