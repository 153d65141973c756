"""The simulation library and the ``simulate`` / ``tournament`` commands."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from liverpool import Game, load_rules
from liverpool.bots import check_bot_options, make_bot
from liverpool.cli import main
from liverpool.simulate import check_bots, game_seed, run_games, wilson_interval
from liverpool.views import SeatViews

SEAT_KEYS = {"bot", "wins", "win_rate", "avg_points"}
TOP_KEYS = {"games", "wall_seconds", "ms_per_game_median", "seats", "avg_turns_per_round",
            "buys_per_round", "no_winner_round_share", "errors"}


def test_wilson_interval() -> None:
    assert wilson_interval(0, 10) == (0.0, 0.2775)
    assert wilson_interval(10, 10) == (0.7225, 1.0)
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi
    assert abs((0.5 - lo) - (hi - 0.5)) < 1e-3
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_game_seeds_differ() -> None:
    seeds = {game_seed(s, i) for s in range(5) for i in range(50)}
    assert len(seeds) == 250


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["liverpool", "london", "dansk", "remi"])
@pytest.mark.parametrize("kinds", [("basic", "basic", "basic"), ("random", "basic", "random")])
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_fast_views_equal_the_engine_views(preset: str, kinds: tuple[str, ...]) -> None:
    """SeatViews kept along the game (which rebuilds the table's parts only when
    the engine says the table, who is down or the buys changed) shows every seat
    and a spectator what a SeatViews made afresh from the whole game does, and
    Game.view, at every decision: random play brings the swaps, calls and buys."""
    rules = load_rules(preset)
    game = Game(rules, players=3, seed=6)
    bots = [make_bot(kind, rules, seed=i) for i, kind in enumerate(kinds)]
    views = SeatViews(game)
    steps = 0
    while not game.is_over and steps < 1500:
        fresh = SeatViews(game)
        for seat in (0, 1, 2, None):
            assert views.view(seat) == fresh.view(seat) == game.view(seat)
        seat = game.to_move
        assert seat is not None
        game.apply(bots[seat].choose(views.view(seat), game.legal_actions()))
        steps += 1
    assert steps > 300


def test_run_games_is_reproducible_and_complete() -> None:
    rules = load_rules("remi")
    a = run_games(rules, ["basic", "basic", "random"], games=4, seed=3).to_json()
    b = run_games(rules, ["basic", "basic", "random"], games=4, seed=3, jobs=2).to_json()
    c = run_games(rules, ["basic", "basic", "random"], games=4, seed=4).to_json()
    assert set(a) >= TOP_KEYS
    assert a["games"] == 4
    assert a["errors"] == 0
    assert a["rounds"] == 4 * 7
    for seat in a["seats"]:
        assert set(seat) >= SEAT_KEYS
    timing = {"wall_seconds", "ms_per_game_median"}
    same = {k: v for k, v in a.items() if k not in timing}
    assert same == {k: v for k, v in b.items() if k not in timing}
    assert a["seats"] != c["seats"]


def test_check_bots_messages() -> None:
    rules = load_rules("liverpool")
    assert check_bots(rules, ["basic", "random", "easy"], 3) == ["basic", "random", "easy"]
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        check_bots(rules, ["genius"], 4)
    with pytest.raises(ValueError, match="3 to 8 players, not 2"):
        check_bots(rules, ["basic"], 2)
    with pytest.raises(ValueError, match="one bot for every seat"):
        check_bots(rules, ["basic", "random"], 4)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_simulate_json(runner: CliRunner) -> None:
    args = ["simulate", "--rules", "liverpool", "--players", "4", "--bots", "basic",
            "--games", "3", "--seed", "1", "--jobs", "1", "--json"]
    first = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert set(data) >= TOP_KEYS
    assert data["games"] == 3
    assert len(data["seats"]) == 4
    assert all(s["bot"] == "basic" for s in data["seats"])
    assert sum(s["wins"] for s in data["seats"]) >= 3
    again = json.loads(runner.invoke(main, args).stdout)
    assert again["seats"] == data["seats"]


@pytest.mark.slow
def test_simulate_table(runner: CliRunner) -> None:
    result = runner.invoke(main, ["simulate", "--rules", "remi", "--players", "3", "--bots",
                                  "basic,random,expert", "--games", "1", "--iterations", "2"])
    assert result.exit_code == 0, result.output
    for word in ("win rate", "95% interval", "avg points", "turns per round",
                 "buys per round", "no winner"):
        assert word in result.stdout


def test_tournament(runner: CliRunner) -> None:
    result = runner.invoke(main, ["tournament", "--rules", "london", "--players", "3",
                                  "--bots", "random,basic", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["bot"] for r in data["ladder"]] == ["basic", "random"]
    assert {"ordinal", "mu", "sigma", "games"} <= set(data["ladder"][0])
    text = runner.invoke(main, ["tournament", "--rules", "remi", "--players", "3",
                                "--bots", "random,basic", "--games", "1"])
    assert text.exit_code == 0
    assert "ordinal" in text.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--bots", "genius"], "unknown bot 'genius'"),
    (["simulate", "--players", "9"], "3 to 8 players, not 9"),
    (["simulate", "--rules", "nosuch"], "unknown preset 'nosuch'"),
    (["simulate", "--bots", "basic,random"], "one bot for every seat"),
    (["simulate", "--games", "0"], "--games must be between 1 and 1,000,000, not 0"),
    (["simulate", "--jobs", "0"], "--jobs must be between"),
    (["simulate", "--bots", "basic,expert,basic", "--players", "3", "--seat-options", "[{}]"],
     "one object per seat (3 seats)"),
    (["simulate", "--seat-options", "{"], "--seat-options is not valid JSON"),
    (["simulate", "--seat-options", '[{}, {}, {"depth": 2}, {}]'],
     "player 3: basic has no option 'depth'"),
    (["simulate", "--bots", "expert,basic,basic,basic", "--seat-options",
      '[{"final_race": "no"}, {}, {}, {}]'], "'final_race' must be true, false or null"),
    (["simulate", "--bots", "expert,basic,basic,basic", "--seat-options",
      '[{"iterations": 8.0}, {}, {}, {}]'], "'iterations' must be a whole number, not 8.0"),
    (["simulate", "--bots", "expert,basic,basic,basic", "--seat-options",
      '[{"iterations": 0}, {}, {}, {}]'], "player 1: iterations must be at least 1"),
    (["simulate", "--bots", "search,basic,basic,basic", "--seat-options",
      '[{"base": "genius"}, {}, {}, {}]'], "base must be 'basic' or 'expert'"),
    (["simulate", "--bots", "random,basic,basic,basic", "--seat-options",
      '[{"seed": 3}, {}, {}, {}]'], "random has no options"),
    (["simulate", "--games", "100000000"], "--games must be between 1 and 1,000,000"),
    (["tournament", "--games", "100000000"], "--games must be between 1 and 1,000,000"),
    (["simulate", "--bots", "expert,basic,basic,basic", "--iterations", "0"],
     "--iterations must be at least 1, not 0"),
    (["simulate", "--bots", "expert,basic,basic,basic", "--time-ms", "nan"],
     "--time-ms must be a number of milliseconds of 0 or more, or inf, not nan"),
    (["tournament", "--time-ms", "-5"], "--time-ms must be a number of milliseconds"),
    (["tournament", "--bots", "basic"], "at least two different bots"),
    (["tournament", "--bots", "basic,genius"], "unknown bot 'genius'"),
    (["tournament", "--rules", "remi", "--players", "7"], "3 to 6 players, not 7"),
])
def test_bad_input_gives_a_clear_error(runner: CliRunner, args: list[str], message: str) -> None:
    result = runner.invoke(main, args)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert message in result.stderr


@pytest.mark.slow
def test_seat_options_reach_each_seats_bot(runner: CliRunner) -> None:
    """``--seat-options`` gives one seat's bot its options: ``basic`` with the
    mistakes of ``easy`` plays the games ``easy`` plays in that seat."""
    common = ["simulate", "--rules", "liverpool", "--players", "3", "--games", "4",
              "--seed", "5", "--json"]
    given = runner.invoke(main, [*common, "--bots", "basic", "--seat-options",
                                 '[{}, {"mistakes": 0.35}, {}]'])
    assert given.exit_code == 0, given.output
    easy = runner.invoke(main, [*common, "--bots", "basic,easy,basic"])
    plain = runner.invoke(main, [*common, "--bots", "basic"])
    seats = json.loads(given.stdout)["seats"]
    assert [s["options"] for s in seats] == [{}, {"mistakes": 0.35}, {}]

    def results(out: str) -> list[tuple[float, float]]:
        return [(s["wins"], s["avg_points"]) for s in json.loads(out)["seats"]]

    assert results(given.stdout) == results(easy.stdout)
    assert results(given.stdout) != results(plain.stdout)


def test_check_bot_options_refuses_without_converting() -> None:
    assert check_bot_options("search", {"time_ms": 5, "base": "basic"}) == {
        "time_ms": 5, "base": "basic"}
    assert check_bot_options("expert", {"final_race": None}) == {"final_race": None}
    for options in ({"iterations": True}, {"time_ms": "90"}, {"time_ms": float("nan")},
                    {"draw_search": 0}, {"final_plans": 1}):
        with pytest.raises(ValueError, match="must be"):
            check_bot_options("expert", options)
    with pytest.raises(ValueError, match="unknown bot"):
        check_bot_options("genius", {})


def said(text: str) -> str:
    """The output with every run of spaces one space (the tables' columns)."""
    return " ".join(text.split())


NORWEGIAN = ["2 partier (liverpool), 4 spillere, startverdi 0", "plass", "robot", "seire",
             "seiersandel", "95 %-intervall", "snittpoeng", "gjennomsnittlig antall turer per "
             "runde:", "kjøp per runde:", "runder uten vinner:", "tid:", "ms per parti",
             "En delt seier teller for hver plass som deler den."]
DANISH = ["2 partier (liverpool), 4 spillere, startværdi 0", "plads", "robot", "sejre",
          "sejrsandel", "95 %-interval", "gns. point", "gennemsnitligt antal ture pr. runde:",
          "køb pr. runde:", "runder uden vinder:", "ms pr. parti",
          "En delt sejr tæller for hver plads, der deler den."]
ENGLISH = ["2 games of liverpool, 4 players, seed 0", "seat", "bot", "wins", "win rate",
           "95% interval", "avg points", "average turns per round:", "buys per round:",
           "rounds with no winner:", "ms per game",
           "A shared win counts for every seat that shares it."]


@pytest.mark.parametrize(("args", "env", "lines"), [
    (["simulate", "--games", "2", "--lang", "nb"], {}, NORWEGIAN),
    (["--lang", "nb", "simulate", "--games", "2"], {}, NORWEGIAN),
    (["simulate", "--games", "2"], {"LANG": "da_DK.UTF-8"}, DANISH),
    (["simulate", "--games", "2", "--lang", "da"], {"LANG": "nb_NO.UTF-8"}, DANISH),
    (["simulate", "--games", "2"], {}, ENGLISH),
])
def test_simulate_speaks_the_language_of_lang(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                              args: list[str], env: dict[str, str],
                                              lines: list[str]) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    out = said(result.stdout)
    for line in lines:
        assert line in out, line
    if lines is not ENGLISH:
        for english in ENGLISH:  # (as words: "robot" is Norwegian)
            assert re.search(rf"(?<!\w){re.escape(english)}(?!\w)", out) is None, english
        assert re.search(r" \d+\.\d% ", out)  # (numbers as in English: 25.0%)


@pytest.mark.slow
def test_the_json_of_simulate_and_tournament_is_the_same_in_every_language(
        runner: CliRunner) -> None:
    def run(*args: str) -> dict[str, object]:
        result = runner.invoke(main, [*args, "--games", "2", "--json"])
        assert result.exit_code == 0, result.output
        data: dict[str, object] = json.loads(result.stdout)
        for key in ("wall_seconds", "ms_per_game_median"):
            data.pop(key, None)
        return data

    for command in (["simulate"], ["tournament", "--bots", "random,basic"]):
        english = run(*command)
        assert run(*command, "--lang", "nb") == english
        assert run("--lang", "da", *command) == english


@pytest.mark.parametrize(("lang", "lines", "english"), [
    ("nb", ["2 partier (remi), 3 spillere, startverdi 0 (openskill Plackett-Luce; ordinal = mu "
            "- 3 sigma)", "robot", "ordinal", "mu", "sigma", "partier", "førsteplasser",
            "snittpoeng"], ["first places", "avg points", "games of"]),
    ("da", ["2 partier (remi), 3 spillere, startværdi 0", "førstepladser", "gns. point"],
     ["first places", "avg points", "games of"]),
    ("en", ["2 games of remi, 3 players, seed 0", "first places", "avg points"],
     ["førsteplasser", "partier"]),
])
def test_the_tournament_ladder_in_the_language_of_lang(runner: CliRunner, lang: str,
                                                       lines: list[str],
                                                       english: list[str]) -> None:
    result = runner.invoke(main, ["tournament", "--rules", "remi", "--players", "3", "--bots",
                                  "random,basic", "--games", "2", "--lang", lang],
                           terminal_width=200)
    assert result.exit_code == 0, result.output
    out = said(result.stdout)
    for line in lines:
        assert line in out, line
    for line in english:
        assert line not in out, line


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "--games", "0", "--lang", "nb"],
     "feil: --games må være mellom 1 og 1,000,000, ikke 0"),
    (["--lang", "da", "simulate", "--jobs", "0"], "fejl: --jobs skal være mellem 1 og 64, ikke 0"),
    (["simulate", "--bots", "genius", "--lang", "nb"],
     "feil: ukjent robot 'genius'; robotene er random, basic"),
    (["simulate", "--players", "9", "--lang", "da"],
     "fejl: dette regelsæt er til 3 til 8 spillere, ikke 9"),
    (["simulate", "--bots", "basic,random", "--lang", "nb"],
     "feil: gi én robot for hver plass eller én robot for alle: 4 spillere, 2 roboter"),
    (["simulate", "--seat-options", "{", "--lang", "da"],
     "fejl: --seat-options er ikke gyldig JSON"),
    (["simulate", "--bots", "expert,basic,basic,basic", "--time-ms", "nan", "--lang", "nb"],
     "feil: --time-ms må være et antall millisekunder"),
    (["tournament", "--bots", "basic", "--lang", "da"],
     "fejl: en turnering skal bruge mindst to forskellige robotter"),
    (["tournament", "--rules", "nosuch", "--lang", "nb"], "feil: "),
])
def test_bad_input_is_said_in_the_language_of_lang(runner: CliRunner, args: list[str],
                                                   message: str) -> None:
    result = runner.invoke(main, args)
    assert result.exit_code == 1
    assert said(result.stderr).startswith(message), result.stderr


def test_the_progress_bar_in_the_language_of_lang() -> None:
    from rich.progress import TextColumn

    from liverpool import simcli

    texts = [c.text_format for c in simcli.progress_columns("simulerer", "nb")
             if isinstance(c, TextColumn)]
    assert texts == ["simulerer", "igjen"]
    assert [c.text_format for c in simcli.progress_columns()
            if isinstance(c, TextColumn)] == ["playing", "left"]
