"""The diagnostic benchmarks run and print what they say they print.

They run untraced under coverage (:func:`bench`): they play the bots' games,
whose lines quicker tests cover, and traced they took 4-5 times as long."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

#: each runs a benchmark's script in its own process, seconds each: the quick run skips them
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def bench(script: str, *args: str, timeout: float) -> str:
    """The output of ``benchmarks/script`` run with ``args``, outside coverage's
    measure (without the variables that start it in a subprocess)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_")}
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, check=True, timeout=timeout,
                          env=env).stdout


def test_bench_rounds_prints_a_row_per_round() -> None:
    out = bench("bench_rounds.py", "--bots", "basic,basic,basic,basic", "--seed", "4",
                "--last", "3", timeout=120)
    lines = out.splitlines()
    assert lines[0].endswith("of 3 games won by seat 1 (basic)")
    rows = {line.split(" | ")[0]: line.split(" | ")[1:] for line in lines
            if line[:1].isdigit() and line.count(" | ") == 7}
    assert sorted(rows) == [str(r) for r in range(1, 8)]
    for cells in rows.values():
        mine, theirs = (float(x) for x in cells[0].split(" / "))
        # at most one seat goes out first in a round: seat 1's share and the
        # three others' mean share add up to at most one
        assert 0.0 <= mine + 3 * theirs <= 1.0 + 1e-9


def test_bench_race_prints_each_variant_and_the_difference() -> None:
    out = bench("bench_race.py", "--rules", "remi", "--last", "2", "--variants",
                '{"race": {"final_iterations": 2}, "plans": {"final_plans": true}}',
                timeout=120)
    race, plans = out.splitlines()
    assert race.startswith("race: out first ")
    assert "of 2," in race
    assert plans.startswith("plans: out first ")
    assert " pp, points " in plans
    share = float(plans.split("out first ")[1].split("%")[0])
    assert 0.0 <= share <= 100.0


def test_bench_bots_prints_the_expert_against_the_issues_experts() -> None:
    out = bench("bench_bots.py", "--only", "experts", "--experts-games", "1",
                "--expert-ms", "2", "--jobs", "1", timeout=300)
    (line,) = out.splitlines()
    assert line.startswith("[expert vs 3 issue experts] liverpool ")
    wins = float(line.split("liverpool ")[1].split("/")[0])
    assert 0.0 <= wins <= 1.0
    assert "target >= 35%" in line
    assert line.count(", ") >= 2  # the three others' points


def test_bench_bots_prints_decision_times_per_kind() -> None:
    out = bench("bench_bots.py", "--only", "expert", "--expert-games", "1",
                "--expert-games-other", "0", "--expert-ms", "2", "--jobs", "1", timeout=300)
    lines = out.splitlines()
    assert lines[0].startswith("[expert vs 3 basic] liverpool ")
    assert "decision ms: median " in lines[0]
    kinds = {line.split()[0] for line in lines[1:] if line.startswith("    ")}
    # every game has draws and discards; the expert searches them
    assert {"draw", "discard"} <= kinds
    draws = next(line for line in lines if line.startswith("    draw "))
    assert " searched, futures median " in draws
    total = int(lines[0].split(" decisions;")[0].rsplit(" over ", 1)[1])
    counted = sum(int(line.split(" over ")[1].split(";")[0]) for line in lines[1:]
                  if line.startswith("    "))
    assert counted == total


def test_bench_round_end_measures_each_rounds_rates() -> None:
    """The benchmark's rates are chances, one row per normal round: liverpool's
    round 1 (two sets) is laid down sooner than its round 3 (two runs), and a
    player down with one card goes out more often than one holding six."""
    out = bench("bench_round_end.py", "--rules", "liverpool", "--games", "40", timeout=300)
    measured = ast.literal_eval(out.split(": ", 1)[1])
    lay_down, went_out, shed = measured["lay_down"], measured["out"], measured["shed"]
    assert len(lay_down) == 6  # round 7 is all at once: not followed
    assert all(0.0 <= p <= 1.0 for row in lay_down for p in row)
    assert all(0.0 <= p <= 1.0 for p in (*went_out, *shed))
    assert lay_down[0][0] > lay_down[2][0]
    assert went_out[1] > went_out[6]


def test_bench_processes_prints_the_loop_beside_each_way_of_the_work() -> None:
    out = bench("bench_processes.py", "--only", "hints", "--hints", "3", "--json", timeout=300)
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [(r["work"], r["way"]) for r in rows] == [
        ("none", ""), ("hints", "thread"), ("hints", "process")]
    for r in rows:
        assert r["messages_per_s"] > 0
        assert 0 < r["p50_ms"] <= r["p99_ms"]


def test_bench_value_learns_from_games_and_plays_with_what_it_learned(tmp_path: Path) -> None:
    rows, mixed = str(tmp_path / "rows.npz"), str(tmp_path / "expert.npz")
    out = bench("bench_value.py", "data", "--seed", "5", "--last", "3", "--every", "2",
                "--out", rows, timeout=120)
    count = int(out.split(" rows")[0])
    assert count > 0
    assert count % 4 == 0  # a row per seat of every position kept
    bench("bench_value.py", "data", "--seat0", "expert", "--seed", "5", "--last", "1",
          "--every", "4", "--out", mixed, timeout=300)
    with np.load(mixed) as data:
        flags = data["x"][:, -1]
    assert set(flags.tolist()) == {0.0, 1.0}
    assert flags.sum() * 4 == len(flags)  # one seat in four is the expert's
    widths = {}
    for name, files in (("plain", [rows]), ("expert", [rows, mixed])):
        net = str(tmp_path / f"{name}.json")
        out = bench("bench_value.py", "fit", "--epochs", "2", "--hidden", "8", "--out", net,
                    *files, timeout=120)
        assert out.splitlines()[-1] == f"saved to {net}"
        assert [line.split(":")[0] for line in out.splitlines()[1:3]] == ["epoch 1", "epoch 2"]
        fitted = json.loads(Path(net).read_text())
        assert fitted["rules"] == "liverpool"  # (the default --rules: the rows' preset)
        widths[name] = [len(w) for w, _b in fitted["layers"]]
        out = bench("bench_value.py", "play", "--weights", net, "--options",
                    '{"iterations": 2}', "--last", "1", "--json", timeout=300)
        line, games = out.splitlines()
        assert line.startswith("value in seat 0 against three basic, liverpool, games 0-0 of seed 8: ")
        results = json.loads(games)
        assert [g["game"] for g in results] == [0]
        assert all(0.0 <= g["won"] <= 1.0 and g["points"] >= 0 for g in results)
    # 4 seats x 9 features + 7 rounds + stock and turn + 4 movers, and the expert's column
    assert widths == {"plain": [49, 8, 8], "expert": [50, 8, 8]}
