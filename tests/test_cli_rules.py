"""The ruleset commands of the ``liverpool`` command line."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import liverpool
from liverpool import PRESETS, Rules, load_rules
from liverpool.cli import OPTION_GROUPS, main


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"liverpool, version {liverpool.__version__}\n"


def test_option_groups_cover_every_option() -> None:
    grouped = [name for _, names in OPTION_GROUPS for name in names]
    assert len(grouped) == len(set(grouped))
    assert set(grouped) | {"name"} == {f.name for f in dataclasses.fields(Rules)}


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_shows_options_and_rounds(runner: CliRunner, preset: str) -> None:
    result = runner.invoke(main, ["rules", preset], terminal_width=160)
    assert result.exit_code == 0, result.output
    out = result.output
    rules = load_rules(preset)
    assert f"Ruleset {preset}" in out
    for title, names in OPTION_GROUPS:
        assert title in out
        for name in names:
            assert name in out
    for rnd in range(1, rules.num_rounds + 1):
        contract = rules.contract(rnd)
        row = re.search(
            rf"\b{rnd}\s*│\s*{re.escape(contract.describe())}\s*│\s*{contract.code}\s*│"
            rf"\s*{contract.min_cards}\s*│\s*{rules.cards_dealt(rnd)}\s*│",
            out,
        )
        assert row, f"round {rnd} missing:\n{out}"
    assert f"Final round (round {rules.num_rounds}): {rules.final_round}" in out


def test_rules_default_is_liverpool(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules"], terminal_width=160)
    assert result.exit_code == 0
    assert "Ruleset liverpool" in result.output
    assert "1 set + 1 run" in result.output


def test_rules_toml(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["rules", "remi", "--toml"])
    assert result.exit_code == 0
    path = tmp_path / "remi_copy.toml"
    path.write_text(result.output, encoding="utf-8")
    assert load_rules(path) == load_rules("remi")


def test_rules_file(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "dansk"\ndeal = [10, 10, 10, 10, 12, 12, 14]\n')
    result = runner.invoke(main, ["rules", str(path)], terminal_width=160)
    assert result.exit_code == 0, result.output
    assert "Ruleset house" in result.output
    assert "3 sets + 1 run" in result.output


def test_check_rules_good_file(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "remi"\ncontract_exact = false\n')
    result = runner.invoke(main, ["check-rules", str(path)])
    assert result.exit_code == 0, result.output
    assert f"{path} is a valid ruleset (extends remi)" in result.output
    assert "7 rounds" in result.output


def test_check_rules_without_extends(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text("buy_penalty_cards = 2\n")
    result = runner.invoke(main, ["check-rules", str(path)])
    assert result.exit_code == 0
    assert "is a valid ruleset (no extends" in result.output


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('extends = "liverpool"\nbuy_limt = 2\n', "did you mean 'buy_limit_per_round'"),
        ('extends = "london"\nbuying = false\n', "can never be met"),
        ('extends = "liverpool"\nrun_wrap = "sometimes"\n', "'run_wrap' must be one of"),
        ('extends = "liverpool"\ndeal = [10, 10]\n', "'deal' has 2 entries"),
        ("players = [1, 9]\n", "'players' must be [min, max]"),
        ('extends = "nowhere"\n', "'extends' must be a preset name"),
        ("buying = \n", "invalid TOML"),
    ],
)
def test_check_rules_bad_file(runner: CliRunner, tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    for command in (["check-rules", str(path)], ["rules", str(path)]):
        result = runner.invoke(main, command)
        assert result.exit_code == 1, result.output
        line = one_line_error(result.stderr)
        assert fragment in line
        assert result.stdout == ""


def test_check_rules_byte_order_mark_and_extends_chains(runner: CliRunner,
                                                         tmp_path: Path) -> None:
    # a byte-order mark (as some editors save UTF-8) is no mistake
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b'\xef\xbb\xbfextends = "liverpool"\nbuy_limit_per_round = 2\n')
    assert runner.invoke(main, ["check-rules", str(bom)]).exit_code == 0
    # extends naming a file that is not there: the file that says so is named
    house = tmp_path / "house.toml"
    house.write_text('extends = "family.toml"\n')
    result = runner.invoke(main, ["check-rules", str(house), "--lang", "da"])
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert line.startswith(f"fejl: {house}: 'extends' henviser til filen"), line
    assert "family.toml" in line
    assert "\n" not in line
    # a chain of extends past 32 files: refused in words, not a RecursionError
    for k in range(40):
        (tmp_path / f"c{k}.toml").write_text(f'extends = "c{k + 1}.toml"\n')
    (tmp_path / "c40.toml").write_text('extends = "liverpool"\n')
    result = runner.invoke(main, ["check-rules", str(tmp_path / "c0.toml")])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "'extends' goes through more than 32 files" in one_line_error(result.stderr)


def test_check_rules_missing_file(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["check-rules", str(tmp_path / "missing.toml")])
    assert result.exit_code == 1
    assert "not found" in one_line_error(result.stderr)


def test_rules_unknown_preset(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "londen"])
    assert result.exit_code == 1
    line = one_line_error(result.stderr)
    assert "unknown preset 'londen'" in line
    assert "did you mean 'london'" in line


# ------------------------------------------------------------- other languages
@pytest.mark.parametrize("lang", ["nb", "da"])
@pytest.mark.parametrize("preset", PRESETS)
def test_rules_in_norwegian_and_danish(runner: CliRunner, preset: str, lang: str) -> None:
    from liverpool import i18n

    result = runner.invoke(main, ["rules", preset, "--lang", lang], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    out = result.output
    rules = load_rules(preset)
    assert i18n.rules_label("title", lang, name=preset,
                            source=i18n.rules_label("preset", lang, name=preset)) in out
    for title, names in OPTION_GROUPS:
        assert i18n.group_title(title, lang) in out
        assert f"\n{title}" not in out  # the English title
        for name in names:
            assert re.search(rf"\b{name}\b", out), name  # the option names stay as in TOML
            description = i18n.option_description(name, lang)
            assert description in out, (name, description)
            assert i18n.option_description(name, "en") not in out
            value = i18n.describe_value(name, getattr(rules, name), lang, rules)
            assert value in out, (name, value)
    for rnd in range(1, rules.num_rounds + 1):
        contract = rules.contract(rnd)
        words = i18n.contract_words(contract.sets, contract.runs, lang)
        assert re.search(rf"\b{rnd}\s*│\s*{re.escape(words)}\s*│\s*{contract.code}\s*│", out)
    assert i18n.final_round_note(rules, lang) in out
    for english in ("Ruleset", "preset", "Final round", "cards dealt", "min cards", "players:",
                    " sets", " runs", " yes", " no "):
        assert english not in out, english


def test_rules_language_choices(runner: CliRunner) -> None:
    result = runner.invoke(main, ["rules", "remi", "--lang", "sv"])
    assert result.exit_code == 2
    assert "Invalid value" in result.output
    wide = {"COLUMNS": "250"}
    english = runner.invoke(main, ["rules", "remi", "--lang", "en"], env=wide).output
    assert english == runner.invoke(main, ["rules", "remi"], env=wide).output
    assert "a run must be of one suit" in english  # the options' meanings in English too
    assert "Final round (round 7): all_at_once — the whole hand goes down at once" in english


# ------------------------------------------------------------- click's words in other languages
@pytest.mark.parametrize(
    ("args", "lines"),
    [
        (["rules", "--lang", "nb", "--bogus"],
         ["Bruk: liverpool rules [VALG] [REGELSETT|FIL]",
          "Prøv 'liverpool rules --help' for hjelp.", "Feil: Valget '--bogus' finnes ikke."]),
        (["review", "--samples", "0", "--lang=da", "game.json"],
         ["Brug: liverpool review [VALGMULIGHEDER] PROTOKOL",
          "Fejl: Ugyldig værdi for '--samples': 0 er uden for intervallet 1<=x<=256."]),
        (["play", "--lang", "nb", "--players", "fire"],
         ["Feil: Ugyldig verdi for '--players': 'fire' er ikke et gyldig tall."]),
        (["check-rules", "--lang", "da"], ["Fejl: Argument mangler 'FIL'."]),
        (["play", "--lang", "nb", "to", "tre"], ["Feil: Fikk uventede ekstra argumenter (to tre)"]),
        (["rules", "--lang", "en", "--bogus"],
         ["Usage: liverpool rules [OPTIONS] [PRESET|FILE]", "Error: No such option '--bogus'."]),
        (["rules", "--lang", "sv", "--bogus"], ["Error: No such option '--bogus'."]),
    ],
)
def test_usage_errors_in_the_language_of_lang(runner: CliRunner, args: list[str],
                                               lines: list[str]) -> None:
    import gettext
    import os

    domain, before = gettext.textdomain(), os.environ.get("LANGUAGE")
    result = runner.invoke(main, args, prog_name="liverpool")
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    out = result.output.splitlines()
    for line in lines:
        assert line in out, result.output
    # the language of click's words was the command's only
    assert (gettext.textdomain(), os.environ.get("LANGUAGE")) == (domain, before)
    assert "No such option" in runner.invoke(main, ["rules", "--bogus"]).output


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "nb_NO.UTF-8"}, "nb"), ({"LANG": "da_DK.UTF-8"}, "da"),
    ({"LANG": "no_NO.UTF-8"}, "nb"), ({"LANGUAGE": "sv:da", "LANG": "sv_SE.UTF-8"}, "da"),
    ({"LC_ALL": "C", "LANG": "nb_NO.UTF-8"}, "en"), ({"LC_MESSAGES": "da_DK", "LANG": "en_GB"}, "da"),
    ({"LANG": "de_DE.UTF-8"}, "en"), ({}, "en"),
])
def test_without_lang_a_command_speaks_the_systems_language(
        runner: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        env: dict[str, str], lang: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "liverpool"\nbuy_limt = 2\n')
    said = {"en": "error: {path}: unknown option 'buy_limt'",
            "nb": "feil: {path}: ukjent valg 'buy_limt'",
            "da": "fejl: {path}: ukendt valg 'buy_limt'"}[lang].format(path=bad)
    result = runner.invoke(main, ["check-rules", str(bad)])
    assert result.exit_code == 1
    assert said in result.output, result.output
    usage = {"en": "Error: No such option '--bogus'.", "nb": "Feil: Valget '--bogus' finnes ikke.",
             "da": "Fejl: Valgmuligheden '--bogus' findes ikke."}[lang]
    assert usage in runner.invoke(main, ["rules", "--bogus"], prog_name="liverpool").output
    # --lang still decides
    assert "error: " in runner.invoke(main, ["check-rules", "--lang", "en", str(bad)]).output


# ------------------------------------------------------------- errors in other languages
@pytest.mark.parametrize(
    ("lang", "text", "message"),
    [
        ("nb", 'extends = "liverpool"\nrun_wrap = "sometimes"\n',
         'feil: {path}: \'run_wrap\' må være en av "never", "three_beside_ace", "always", '
         'ikke "sometimes"'),
        ("nb", 'extends = "liverpool"\nbuy_limt = 2\n',
         "feil: {path}: ukjent valg 'buy_limt' (mente du 'buy_limit_per_round'?)"),
        ("da", 'extends = "liverpool"\ndeal = [10, 10]\n',
         "fejl: {path}: 'deal' har 2 værdier, men 'contracts' har 7: angiv ét antal kort pr. "
         "runde"),
        ("da", 'extends = "nowhere"\n',
         "fejl: {path}: 'extends' skal være navnet på et færdigt regelsæt (liverpool, london, "
         "dansk, remi) eller stien til en regelfil, ikke \"nowhere\""),
    ],
)
def test_check_rules_bad_file_in_another_language(runner: CliRunner, tmp_path: Path, lang: str,
                                                  text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    for command in (["check-rules", str(path), "--lang", lang],
                    ["rules", str(path), "--lang", lang]):
        result = runner.invoke(main, command)
        assert result.exit_code == 1, result.output
        assert result.stderr == message.format(path=path) + "\n"
        assert result.stdout == ""


def test_check_rules_in_another_language(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["check-rules", str(tmp_path / "missing.toml"), "--lang", "nb"])
    assert result.exit_code == 1
    assert result.stderr == f"feil: fant ikke regelfilen '{tmp_path / 'missing.toml'}'\n"
    path = tmp_path / "house.toml"
    path.write_text('extends = "remi"\n')
    result = runner.invoke(main, ["check-rules", str(path), "--lang", "da"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{path} er et gyldigt regelsæt (bygger på remi).\n")
    assert "7 runder" in result.output
    english = runner.invoke(main, ["check-rules", str(path), "--lang", "en"]).output
    assert english == runner.invoke(main, ["check-rules", str(path)]).output


def test_play_says_a_bad_ruleset_in_its_language(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "remi"\nbuy_limt = 2\n', encoding="utf-8")
    for lang, prefix in (("nb", "feil: "), ("da", "fejl: "), ("en", "error: ")):
        result = CliRunner().invoke(main, ["play", "--rules", str(bad), "--lang", lang,
                                           "--ui", "line"])
        assert result.exit_code == 1
        assert result.stderr.startswith(prefix), result.stderr
        assert "'buy_limt'" in result.stderr


def test_rules_errors_follow_the_command_language() -> None:
    import click

    from liverpool.cli_errors import error_line, rules_errors

    assert error_line("x") == "error: x"
    assert error_line("x", "da") == "fejl: x"

    @click.command()
    @click.option("--lang", default="en")
    def command(lang: str) -> None:
        with rules_errors():  # no lang given: the message and its prefix in --lang
            load_rules("liverpool", buying=1)

    result = CliRunner().invoke(command, ["--lang", "nb"])
    assert result.exit_code == 1
    assert result.stderr == "feil: 'buying' må være true eller false, ikke et heltall (1)\n"
