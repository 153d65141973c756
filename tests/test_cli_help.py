"""The help of the ``liverpool`` commands in the language of ``--lang`` (or of
the system): click's words, the commands' docstrings, their options' help
texts and the metavars that are words — and English exactly as before."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterator
from typing import Any

import click
import pytest
from click.testing import CliRunner

from liverpool import i18n
from liverpool.cli import main
from liverpool.cli_errors import help_language
from liverpool.server.caps import Limits

OTHER = ("nb", "da")
#: one line each, however long (no help text is wrapped)
WIDE = {"terminal_width": 1000, "max_content_width": 1000}


@pytest.fixture
def runner(monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    return CliRunner()


def commands(group: click.Group = main, path: tuple[str, ...] = ()
             ) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command under ``group`` (the group too), with its words on the line."""
    yield path, group
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name))
        else:
            yield (*path, name), command


def english(text: str) -> str:
    return " ".join(inspect.cleandoc(text).split())


def help_of(runner: CliRunner, words: tuple[str, ...], *lang: str) -> str:
    result = runner.invoke(main, [*words, "--help", *lang], prog_name="liverpool", **WIDE)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize(("words", "command"), list(commands()),
                         ids=lambda v: " ".join(v) if isinstance(v, tuple) else "")
def test_every_help_is_in_the_language_of_lang(runner: CliRunner, lang: str,
                                               words: tuple[str, ...],
                                               command: click.Command) -> None:
    said = help_of(runner, words, "--lang", lang)
    texts = [command.help or ""] + [p.help or "" for p in command.params
                                    if isinstance(p, click.Option) and not p.hidden]
    for text in filter(None, texts):
        assert english(text) not in said, text
    assert english(command.help or "").split(".")[0] not in said
    for english_word in ("Usage:", "Options:", "Show this message", "[OPTIONS]", "default:",
                         "Language of", "COMMAND [ARGS]", "INTEGER", "TEXT", "FILE",
                         "DIRECTORY", "FLOAT"):
        assert english_word not in said, english_word


@pytest.mark.parametrize(("lang", "lines"), [
    ("nb", ["Bruk: liverpool play [VALG]", "Spill et helt parti Liverpool i terminalen",
            "Skriv hjelp under spillet", "--name NAVN Navnet ditt ved bordet.",
            "--rules REGELSETT|FIL Et ferdig regelsett (liverpool, london, dansk, remi)",
            "[standard: liverpool]", "--lang [en|nb|da] Språket for spillets skjermbilder:",
            "--level [easy|medium|hard]", "-h, --help Vis denne hjelpen og avslutt."]),
    ("da", ["Brug: liverpool play [VALGMULIGHEDER]", "Spil et helt parti Liverpool i terminalen",
            "Skriv hjælp under spillet", "--name NAVN Dit navn ved bordet.",
            "--bots SLAGS[,SLAGS...]", "--resume [FIL] Fortsæt det sidste ufærdige spil",
            "--lang [en|nb|da] Sproget for spillets skærmbilleder:",
            "-h, --help Vis denne hjælp og afslut."]),
])
def test_play_help_in_norwegian_and_danish(runner: CliRunner, lang: str,
                                           lines: list[str]) -> None:
    said = help_of(runner, ("play",), "--lang", lang)
    for line in lines:
        assert line in said, line
    for english_line in ("Your name at the table.", "A preset (liverpool", "Bot difficulty",
                         "Language of the game's screens", "Play a whole game"):
        assert english_line not in said


def test_english_help_is_as_it_was(runner: CliRunner) -> None:
    result = runner.invoke(main, ["play", "--help"], prog_name="liverpool", terminal_width=80)
    out = result.output
    assert out.startswith("Usage: liverpool play [OPTIONS]\n\n  Play a whole game of Liverpool "
                          "in the terminal, against bots or with people\n  taking turns at one "
                          "screen.\n\n  Type help during the game for the commands.\n\nOptions:\n")
    assert ("  --rules PRESET|FILE             A preset (liverpool, london, dansk, remi) or a\n"
            "                                  ruleset TOML file.  [default: liverpool]\n") in out
    assert "  --name NAME                     Your name at the table.\n" in out
    assert ("  --lang [en|nb|da]               Language of the game's screens: English,\n"
            "                                  Norwegian (nb), Danish (da). Default: the\n"
            "                                  system's language (LANG), else English.\n") in out
    assert out.endswith("  -h, --help                      Show this message and exit.\n")
    assert runner.invoke(main, ["play", "--help", "--lang", "en"], prog_name="liverpool",
                         terminal_width=80).output == out
    group = runner.invoke(main, ["--help"], prog_name="liverpool", terminal_width=80).output
    assert group.startswith("Usage: liverpool [OPTIONS] COMMAND [ARGS]...\n\n  Liverpool rummy "
                            "(Contract Rummy, Remi, Londonspillet).\n\nOptions:\n  -V, --version"
                            "  Show the version and exit.\n  -h, --help     Show this message "
                            "and exit.\n\nCommands:\n  check-rules  Validate a ruleset FILE; ")
    assert "--lang" not in group  # (the group's --lang is hidden)
    serve = help_of(runner, ("serve",))
    assert "--bot-delay FINITE FLOAT RANGE Seconds a bot waits" in serve
    assert ("--live-tables INTEGER RANGE Tables held in memory; past it the one idle longest is "
            "evicted, and with none idle a new or loaded table is refused. [default: 2000] "
            "[env var: LIVERPOOL_LIVE_TABLES; x>=1]") in serve


def test_english_again_after_another_language(runner: CliRunner) -> None:
    """The help of one call is that call's only: the command objects are put back."""
    before = {words: help_of(runner, words) for words, _ in commands()}
    for lang in OTHER:
        for words, _ in commands():
            assert help_of(runner, words, "--lang", lang) != before[words]
    assert {words: help_of(runner, words) for words, _ in commands()} == before
    assert "Show this message and exit." in before[("play",)]


def test_help_language_puts_everything_back() -> None:
    def state() -> list[object]:
        return [(c.help, c.options_metavar, getattr(c, "subcommand_metavar", None),
                 [(p.metavar, getattr(p, "help", None)) for p in c.params])
                for _, c in commands()]

    before = state()
    with help_language(main, "nb"):
        assert main.commands["play"].help != before[0]
        assert state() != before
    assert state() == before
    with pytest.raises(KeyError), help_language(main, "da"):
        raise KeyError("a command that fails")
    assert state() == before


@pytest.mark.parametrize(("env", "line"), [
    ({"LANG": "da_DK.UTF-8"}, "--name NAVN Dit navn ved bordet."),
    ({"LANG": "nb_NO.UTF-8"}, "--name NAVN Navnet ditt ved bordet."),
    ({"LANGUAGE": "da", "LANG": "en_US.UTF-8"}, "--name NAVN Dit navn ved bordet."),
    ({"LANG": "C.UTF-8"}, "--name NAME Your name at the table."),
])
def test_without_lang_the_help_speaks_the_systems_language(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
        line: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert line in help_of(runner, ("play",))
    # --lang still decides
    assert "--name NAME Your name at the table." in help_of(runner, ("play",), "--lang", "en")


@pytest.mark.parametrize(("args", "lines"), [
    (["--help", "--lang", "da"],
     ["Brug: liverpool [VALGMULIGHEDER] KOMMANDO [ARGUMENTER]...",
      "Liverpool rummy (også kaldet Contract Rummy, Remi, Londonspillet).",
      "-V, --version Vis versionen og afslut.", "Kommandoer:",
      "play Spil et helt parti Liverpool i terminalen,", "db Spilserverens database."]),
    (["--lang", "nb", "--help"],
     ["Bruk: liverpool [VALG] KOMMANDO [ARGUMENTER]...", "serve Spill Liverpool i nettleseren:"]),
    (["--lang", "nb", "db", "backup", "--help"],
     ["Bruk: liverpool db backup [VALG] FIL", "Kopier SQLite-databasen til FIL,",
      "--data MAPPE", "--force Erstatt FIL hvis den finnes."]),
    (["serve", "--help", "--lang", "nb"],
     ["--port HELTALL", "Porten serveren lytter på. [standard: 8000; 1<=x<=65535]",
      "--bot-delay DESIMALTALL", "--live-tables HELTALL Bord som holdes i minnet; over grensen "
      "fjernes det som har stått lengst ubrukt", "[standard: 2000] [miljøvariabel: "
      "LIVERPOOL_LIVE_TABLES; x>=1]", "--metrics-token TEKST"]),
    (["simulate", "--help", "--lang", "da"],
     ["--bots TEKST Én robot til alle pladser, eller en kommaliste med én pr. plads (random, "
      "basic, expert, search, easy, medium, hard). [standard: basic]"]),
])
def test_the_group_and_its_commands_in_another_language(runner: CliRunner, args: list[str],
                                                         lines: list[str]) -> None:
    result = runner.invoke(main, args, prog_name="liverpool", **WIDE)
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    for line in lines:
        assert line in said, line


def limit_helps(said: str) -> dict[str, str]:
    """Each limit option of ``liverpool serve --help``: its metavar and help,
    up to the next option."""
    names = [f.name for f in dataclasses.fields(Limits)]
    starts = {n: said.index("--" + n.replace("_", "-") + " ") for n in names}
    order = sorted(names, key=starts.__getitem__)
    ends = [starts[n] for n in order[1:]] + [len(said)]
    return {n: said[starts[n]:end].split(" ", 1)[1] for n, end in zip(order, ends, strict=True)}


@pytest.mark.parametrize("lang", ["en", *OTHER])
def test_every_limit_of_serve_has_its_own_help(runner: CliRunner, lang: str) -> None:
    """Each cap's --help line says what it bounds, in the language of --lang;
    its default and its environment variable follow."""
    said = help_of(runner, ("serve",), "--lang", lang)
    helps = limit_helps(said)
    assert len(helps) == len(dataclasses.fields(Limits))
    default, env = {"en": ("[default: ", "[env var: "), "nb": ("[standard: ", "[miljøvariabel: "),
                    "da": ("[standard: ", "[miljøvariabel: ")}[lang]
    lines = set()
    for f in dataclasses.fields(Limits):
        line = helps[f.name]
        english = f.metadata["help"]
        assert english.endswith(".")
        assert "{" not in english
        said_line = english if lang == "en" else i18n.gettext(english, lang)
        assert f"{said_line} {default}" in line, line
        lines.add(said_line)
        if lang != "en":
            assert i18n.gettext(english, lang) != english
            assert english not in line
        assert f"{default}{f.default}]" in line, line
        assert f"{env}LIVERPOOL_{f.name.upper()};" in line, line
        assert "Limit (docs/server.md)" not in line
        assert "Grense (docs/server.md)" not in line
    assert len(lines) == len(helps)  # (no two alike)


def test_the_groups_lang_is_the_default_of_the_commands(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--lang", "nb", "check-rules", "liverpool"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("liverpool er et gyldig regelsett"), result.output
    # the command's own --lang decides
    result = runner.invoke(main, ["--lang", "nb", "check-rules", "--lang", "da", "liverpool"])
    assert result.output.startswith("liverpool er et gyldigt regelsæt"), result.output
    result = runner.invoke(main, ["check-rules", "liverpool"])
    assert result.output.startswith("liverpool is a valid ruleset"), result.output


def test_the_metavars_and_help_texts_are_in_the_catalogs() -> None:
    """Every help text of a command and every metavar that is a word has a
    translation (an untranslated one would stay English)."""
    for _, command in commands():
        assert command.help
        assert i18n.gettext(inspect.cleandoc(command.help), "nb") != inspect.cleandoc(
            command.help)


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ("is not a finite number", "share their tables through Redis",
            "cannot open the database", "cannot reach Redis at")),
    ("nb", ("er ikke et endelig tall", "deler bordene sine gjennom Redis",
            "kan ikke åpne databasen", "får ikke kontakt med Redis")),
    ("da", ("er ikke et endeligt tal", "deler deres borde gennem Redis",
            "kan ikke åbne databasen", "kan ikke få forbindelse til Redis")),
])
def test_a_start_of_serve_refused_is_said_in_one_line_of_the_language(
        runner: CliRunner, tmp_path: Any, lang: str, words: tuple[str, ...]) -> None:
    """``serve`` refused before it starts: a limit that is no number, several
    processes without Redis, a database or a Redis it cannot reach. One line,
    in the language of ``--lang``, and nothing served."""
    lines = [["--idle-seconds", "nan"], ["--workers", "2"],
             ["--database", f"sqlite:///{tmp_path}/no/such/folder/x.sqlite3"],
             ["--data", str(tmp_path), "--redis", "redis://127.0.0.1:1/0"]]
    for args, said in zip(lines, words, strict=True):
        result = runner.invoke(main, ["serve", *args, "--lang", lang], prog_name="liverpool")
        assert result.exit_code != 0, result.output
        errors = [line for line in result.output.splitlines()
                  if line.startswith(("Error:", "Feil:", "Fejl:"))]
        assert len(errors) == 1, result.output
        assert said in errors[0], result.output
        assert "Traceback" not in result.output
        assert "sqlalche.me" not in result.output
