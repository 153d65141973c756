"""The ``liverpool`` command line.

``main`` is a click group (the console script ``liverpool``). This module
holds the group and the ruleset commands:

- ``liverpool rules [PRESET|FILE] [--toml] [--lang en|nb|da]`` shows a ruleset;
- ``liverpool check-rules FILE [--lang en|nb|da]`` validates a ruleset file;

and adds the commands of the other command modules, which do not import this
one: ``simulate`` and ``tournament`` (:mod:`liverpool.simcli`), ``review``
(:mod:`liverpool.reviewcli`) and ``play`` (:mod:`liverpool.tui.cli`).

A user mistake never ends in a traceback: a :class:`~liverpool.rules.RulesError`
is printed as ``error: <message>`` on stderr with exit status 1
(:mod:`liverpool.cli_errors`), in the language of ``--lang``.
"""

from __future__ import annotations

import dataclasses
import os

import click
from rich.console import Console
from rich.table import Table

from . import __version__, i18n
from .cli_errors import LangGroup, fail, lang_option, rules_errors
from .i18n import N_
from .reviewcli import review_command
from .rules import Rules
from .ruleset_io import PRESETS, load_rules, rules_to_toml, ruleset_extends
from .server.cli import db_command, serve_command
from .simcli import simulate_command, tournament_command
from .tui.cli import play_command

__all__ = ["OPTION_GROUPS", "fail", "main", "rules_errors"]

#: How ``liverpool rules`` groups the options (every option of docs/rules.md, §6).
OPTION_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Players & deck",
        (
            "players",
            "decks",
            "jokers_per_deck",
            "jokers_total",
            "wild_deuce_of_spades",
            "initial_upcard",
        ),
    ),
    ("Rounds", ("contracts", "deal")),
    (
        "Melds & wilds",
        (
            "set_same_suit",
            "run_same_suit",
            "run_wrap",
            "min_naturals_set",
            "min_naturals_run",
            "naturals_at_least_wilds",
            "no_adjacent_wilds_in_run",
            "contract_exact",
            "forbid_adjacent_same_suit_runs",
            "forbid_same_rank_sets",
            "joker_swap",
            "swapped_joker_must_be_played",
        ),
    ),
    (
        "Buying",
        (
            "buying",
            "buy_priority",
            "buy_limit_per_round",
            "buy_penalty_cards",
            "rebuy",
            "refill_empty_discard",
            "no_consecutive_buys",
        ),
    ),
    ("Table play", ("lay_off_same_turn", "discard_call", "call_last_discard",
                    "max_turns_per_round")),
    (
        "Going out & scoring",
        (
            "go_out_requires_discard",
            "final_round",
            "points",
            "liverpool_cut",
            "cut_bonus",
            "cut_noise",
        ),
    ),
)


# ------------------------------------------------------------------ helpers
def _console() -> Console:
    # Created per command so that it writes to the current sys.stdout (CliRunner).
    return Console(highlight=False, soft_wrap=False)


# ------------------------------------------------------------------ group
@click.group(cls=LangGroup, context_settings={"help_option_names": ["-h", "--help"]},
             help=N_("Liverpool rummy (Contract Rummy, Remi, Londonspillet)."))
@click.version_option(__version__, "--version", "-V", prog_name="liverpool")
def main() -> None:
    """The ``liverpool`` command group (its help, like every command's, is the
    ``help=`` msgid of its decorator: said in the language of ``--lang``)."""


# ------------------------------------------------------------------ rules
def _print_rules(rules: Rules, source: str, lang: str = "en") -> None:
    """The ruleset's options with what they mean, and its rounds, in ``lang``."""
    console = _console()
    label = i18n.rules_label
    console.print(f"[bold]{label('title', lang, name=rules.name, source=source)}[/bold]",
                  markup=True)
    console.print()
    grouped = {name for _, names in OPTION_GROUPS for name in names} | {"name"}
    others = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in grouped)
    groups = OPTION_GROUPS + ((("Other", others),) if others else ())
    for title, names in groups:  # options added to Rules later still show up, under Other
        table = Table(title=i18n.group_title(title, lang), title_justify="left",
                      show_header=False, box=None)
        table.add_column(label("option", lang), style="cyan", no_wrap=True)
        table.add_column(label("value", lang))
        table.add_column(label("meaning", lang), style="dim")
        for name in names:
            table.add_row(name, i18n.describe_value(name, getattr(rules, name), lang, rules),
                          i18n.option_description(name, lang))
        if title == "Players & deck":
            table.add_row(label("deck", lang), i18n.deck_summary(rules, lang), "")
        console.print(table)
        console.print()

    rounds = Table(title=i18n.group_title("Rounds", lang), title_justify="left")
    rounds.add_column(label("round", lang), justify="right")
    rounds.add_column(label("contract", lang))
    rounds.add_column(label("code", lang))
    rounds.add_column(label("min_cards", lang), justify="right")
    rounds.add_column(label("cards_dealt", lang), justify="right")
    for rnd in range(1, rules.num_rounds + 1):
        contract = rules.contract(rnd)
        rounds.add_row(
            str(rnd),
            i18n.contract_words(contract.sets, contract.runs, lang),
            contract.code,
            str(contract.min_cards),
            str(rules.cards_dealt(rnd)),
        )
    console.print(rounds)
    console.print(i18n.final_round_note(rules, lang))


@main.command("rules", help=N_("Show a ruleset: a preset (liverpool, london, dansk, remi) or a "
                               "TOML file."))
@click.argument("ruleset", default="liverpool", metavar=N_("[PRESET|FILE]"))
@click.option("--toml", "as_toml", is_flag=True, help=N_("Print the ruleset as a TOML file."))
@lang_option(N_("the option names' meanings and of the errors"))
def rules_command(ruleset: str, as_toml: bool, lang: str) -> None:
    with rules_errors(lang):
        rules = load_rules(ruleset)
    if as_toml:
        click.echo(rules_to_toml(rules), nl=False)
        return
    source = (i18n.rules_label("preset", lang, name=rules.name) if ruleset.lower() in PRESETS
              else ruleset)
    _print_rules(rules, source, lang)


@main.command("check-rules", help=N_("Validate a ruleset FILE; print a short summary, or the "
                                     "error (exit 1)."))
@click.argument("file", metavar=N_("FILE"))
@lang_option(N_("the summary and of the errors"))
def check_rules_command(file: str, lang: str) -> None:
    with rules_errors(lang):
        rules = load_rules(file)
        extends = ruleset_extends(file)
    if file.lower() in PRESETS:
        origin = i18n.gettext("a built-in preset", lang)
    elif extends is None:
        origin = i18n.gettext("no extends: starts from the built-in defaults", lang)
    else:
        origin = i18n.gettext("extends {extends}", lang).format(extends=extends)
    lo, hi = rules.players
    click.echo(i18n.gettext("{file} is a valid ruleset ({origin}).", lang).format(
        file=os.fspath(file), origin=origin))
    click.echo("  " + i18n.gettext("name {name}; {lo}–{hi} players; {rounds} rounds: contracts "
                                   "{contracts}; deal {deal}; final round {final}", lang).format(
        name=rules.name, lo=lo, hi=hi, rounds=rules.num_rounds,
        contracts=" ".join(rules.contracts), deal=" ".join(str(n) for n in rules.deal),
        final=rules.final_round))

main.add_command(simulate_command)
main.add_command(tournament_command)
main.add_command(play_command)
main.add_command(review_command)
main.add_command(serve_command)
main.add_command(db_command)

if __name__ == "__main__":  # pragma: no cover
    main()
