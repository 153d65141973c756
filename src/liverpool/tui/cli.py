"""``liverpool play``: a whole game against bots in the terminal.

The command is added to the ``liverpool`` click group
(:data:`liverpool.cli.main`) by :mod:`liverpool.cli`.
"""

from __future__ import annotations

import secrets

import click
from rich.console import Console
from rich.text import Text

from ..bots import BOT_KINDS, make_bot
from ..bots.base import Bot
from ..cli_errors import fail, rules_errors
from ..ruleset_io import load_rules
from .app import run_game
from .i18n import LANGUAGES, tr

__all__ = ["play_command"]

LEVELS = ("easy", "medium", "hard")


@click.command("play")
@click.option("--rules", "ruleset", default="liverpool", metavar="PRESET|FILE", show_default=True,
              help="A preset (liverpool, london, dansk, remi) or a ruleset TOML file.")
@click.option("--players", type=int, default=None, metavar="N",
              help="Number of players, you included (default: 4, or the nearest the rules allow).")
@click.option("--bots", "bot_kinds", default=None, metavar="KIND[,KIND...]",
              help="The bots: one kind for all (random, basic, expert, easy, medium, hard) "
                   "or one per opponent, comma-separated, in seat order.")
@click.option("--level", type=click.Choice(LEVELS), default="medium", show_default=True,
              help="Bot difficulty when --bots is not given.")
@click.option("--seat", type=int, default=1, show_default=True, metavar="N",
              help="Your seat (1 plays first in round 1).")
@click.option("--seed", type=int, default=None, metavar="S",
              help="Seed of the shuffle (default: random; shown at the start, to replay a game).")
@click.option("--symbols/--letters", default=True, show_default=True,
              help="Show suits as ♠ ♥ ♦ ♣ or as S H D C.")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="Language of the game's screens: English, Norwegian (nb), Danish (da).")
@click.option("--clear/--no-clear", default=True, show_default=True,
              help="Clear the terminal before each of your decisions.")
def play_command(ruleset: str, players: int | None, bot_kinds: str | None, level: str,
                 seat: int, seed: int | None, symbols: bool, lang: str, clear: bool) -> None:
    """Play a whole game of Liverpool against bots in the terminal.

    Type help during the game for the commands.
    """
    with rules_errors():
        rules = load_rules(ruleset)
    lo, hi = rules.players
    if players is None:
        players = min(max(4, lo), hi)
    if not lo <= players <= hi:
        fail(tr(lang, "cli_players", rules=rules.name, lo=lo, hi=hi, n=players))
    if not 1 <= seat <= players:
        fail(tr(lang, "cli_seat", n=players, seat=seat))
    kinds = [k.strip() for k in (bot_kinds or level).split(",")]
    if len(kinds) == 1:
        kinds = kinds * (players - 1)
    if len(kinds) != players - 1 or not all(kinds):
        fail(tr(lang, "cli_bots", n=players - 1, given=repr(bot_kinds)))
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    others = [s for s in range(players) if s != seat - 1]
    bots: dict[int, Bot] = {}
    for s, kind in zip(others, kinds, strict=True):
        try:
            bots[s] = make_bot(kind, rules, seed=seed * 10 + s)
        except ValueError as e:
            if kind.strip().lower() in BOT_KINDS:
                fail(str(e))
            fail(tr(lang, "cli_unknown_bot", kind=repr(kind), kinds=", ".join(BOT_KINDS)))
    console = Console(highlight=False)

    def ask(prompt: str) -> str:
        return console.input(Text(prompt + " > ", style="bold"))

    run_game(rules, players, seat - 1, bots, seed, ask, console, symbols=symbols, lang=lang,
             clear=clear)
