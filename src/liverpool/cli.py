"""The ``liverpool`` command line.

``main`` is a click group (the console script ``liverpool``). This module
holds the group and the ruleset commands:

- ``liverpool rules [PRESET|FILE] [--toml]`` shows a ruleset;
- ``liverpool check-rules FILE`` validates a ruleset file;

and adds the commands of the other command modules, which do not import this
one: ``simulate`` and ``tournament`` (:mod:`liverpool.simcli`) and ``play``
(:mod:`liverpool.tui.cli`).

A user mistake never ends in a traceback: a :class:`~liverpool.rules.RulesError`
is printed as ``error: <message>`` on stderr with exit status 1
(:mod:`liverpool.cli_errors`).
"""

from __future__ import annotations

import dataclasses
import os

import click
from rich.console import Console
from rich.table import Table

from . import __version__
from .cli_errors import fail, rules_errors
from .rules import Rules
from .ruleset_io import PRESETS, load_rules, rules_to_toml, ruleset_extends
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
    ("Table play", ("lay_off_same_turn", "discard_call", "max_turns_per_round")),
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

_FINAL_NOTES = {
    "normal": "played like the other rounds",
    "all_at_once": "the whole hand goes down at once as the contract, without a discard",
    "all_at_once_discard": "the whole hand but one card goes down at once; one card is discarded",
}


# ------------------------------------------------------------------ helpers
def _console() -> Console:
    # Created per command so that it writes to the current sys.stdout (CliRunner).
    return Console(highlight=False, soft_wrap=False)


def _fmt(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    return str(value)


def _option_value(rules: Rules, name: str) -> str:
    value = getattr(rules, name)
    if name == "jokers_total" and value is None:
        return "— (jokers_per_deck counts)"
    if name == "jokers_per_deck" and rules.jokers_total is not None:
        return f"{value} (unused: jokers_total is set)"
    if name == "points":
        p = rules.points
        return (
            f"2–9: {p.two_to_nine}, 10: {p.ten}, J Q K: {p.face_cards}, A: {p.ace}, wild: {p.wild}"
        )
    return _fmt(value)


def _deck_summary(rules: Rules) -> str:
    """``3–4 players: 2 decks + 4 jokers = 108 cards; ...``"""
    lo, hi = rules.players
    groups: list[tuple[int, int, tuple[int, int]]] = []
    for n in range(lo, hi + 1):
        key = (rules.decks_for(n), rules.jokers_for(n))
        if groups and groups[-1][2] == key:
            groups[-1] = (groups[-1][0], n, key)
        else:
            groups.append((n, n, key))
    parts = []
    for first, last, (decks, jokers) in groups:
        who = f"{first}" if first == last else f"{first}–{last}"
        parts.append(
            f"{who} players: {decks} decks + {jokers} jokers = {52 * decks + jokers} cards"
        )
    return "; ".join(parts)


def _contract_text(rules: Rules, rnd: int) -> str:
    return rules.contract(rnd).describe()


# ------------------------------------------------------------------ group
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="liverpool")
def main() -> None:
    """Liverpool rummy (Contract Rummy, Remi, Londonspillet)."""


# ------------------------------------------------------------------ rules
def _print_rules(rules: Rules, source: str) -> None:
    console = _console()
    console.print(f"[bold]Ruleset {rules.name}[/bold]  (from {source})")
    console.print()
    listed: set[str] = {"name"}
    for title, names in OPTION_GROUPS:
        table = Table(title=title, title_justify="left", show_header=False, box=None)
        table.add_column("option", style="cyan", no_wrap=True)
        table.add_column("value")
        for name in names:
            table.add_row(name, _option_value(rules, name))
            listed.add(name)
        if title == "Players & deck":
            table.add_row("(deck)", _deck_summary(rules))
        console.print(table)
        console.print()
    others = [f.name for f in dataclasses.fields(Rules) if f.name not in listed]
    if others:  # options added to Rules later still show up
        table = Table(title="Other", title_justify="left", show_header=False, box=None)
        table.add_column("option", style="cyan", no_wrap=True)
        table.add_column("value")
        for name in others:
            table.add_row(name, _option_value(rules, name))
        console.print(table)
        console.print()

    rounds = Table(title="Rounds", title_justify="left")
    rounds.add_column("round", justify="right")
    rounds.add_column("contract")
    rounds.add_column("code")
    rounds.add_column("min cards", justify="right")
    rounds.add_column("cards dealt", justify="right")
    for rnd in range(1, rules.num_rounds + 1):
        contract = rules.contract(rnd)
        rounds.add_row(
            str(rnd),
            _contract_text(rules, rnd),
            contract.code,
            str(contract.min_cards),
            str(rules.cards_dealt(rnd)),
        )
    console.print(rounds)
    console.print(
        f"Final round (round {rules.num_rounds}): {rules.final_round} — "
        f"{_FINAL_NOTES.get(rules.final_round, rules.final_round)}."
    )


@main.command("rules")
@click.argument("ruleset", default="liverpool", metavar="[PRESET|FILE]")
@click.option("--toml", "as_toml", is_flag=True, help="Print the ruleset as a TOML file.")
def rules_command(ruleset: str, as_toml: bool) -> None:
    """Show a ruleset: a preset (liverpool, london, dansk, remi) or a TOML file."""
    with rules_errors():
        rules = load_rules(ruleset)
    if as_toml:
        click.echo(rules_to_toml(rules), nl=False)
        return
    source = f"preset {rules.name}" if ruleset.lower() in PRESETS else ruleset
    _print_rules(rules, source)


@main.command("check-rules")
@click.argument("file", metavar="FILE")
def check_rules_command(file: str) -> None:
    """Validate a ruleset FILE; print a short summary, or the error (exit 1)."""
    with rules_errors():
        rules = load_rules(file)
        extends = ruleset_extends(file)
    if file.lower() in PRESETS:
        origin = "a built-in preset"
    elif extends is None:
        origin = "no extends: starts from the built-in defaults"
    else:
        origin = f"extends {extends}"
    lo, hi = rules.players
    contracts = " ".join(rules.contracts)
    deal = " ".join(str(n) for n in rules.deal)
    click.echo(f"{os.fspath(file)} is a valid ruleset ({origin}).")
    click.echo(
        f"  name {rules.name}; {lo}–{hi} players; {rules.num_rounds} rounds: "
        f"contracts {contracts}; deal {deal}; final round {rules.final_round}"
    )

main.add_command(simulate_command)
main.add_command(tournament_command)
main.add_command(play_command)

if __name__ == "__main__":  # pragma: no cover
    main()
