"""The CI's own tools: which tests may run untraced under coverage."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from coverage import CoverageData

UNTRACED = Path(__file__).resolve().parent.parent / ".ci" / "untraced.py"


def test_untraced_lists_the_tests_whose_lines_others_run_too(tmp_path: Path) -> None:
    data = CoverageData(str(tmp_path / "ctx.coverage"))
    runs = {  # context -> the lines of a.py it runs
        "": [1, 2],  # imports
        "tests/test_x.py::test_slow[1]|run": [3, 4],
        "tests/test_x.py::test_slow[2]|run": [5],
        "tests/test_x.py::test_quick|run": [3, 4, 5, 6],
        "tests/test_x.py::test_alone|run": [1, 7],
    }
    for context, lines in runs.items():
        data.set_context(context)
        data.add_lines({str(tmp_path / "a.py"): lines})
    data.write()
    log = tmp_path / "pytest.txt"
    log.write_text("\n".join([
        "9.00s call     tests/test_x.py::test_slow[1]",
        "3.00s call     tests/test_x.py::test_slow[2]",
        "0.50s setup    tests/test_x.py::test_quick",
        "2.00s call     tests/test_x.py::test_quick",
        "1.00s call     tests/test_x.py::test_alone",
        "0.10s call     src/liverpool/cards.py::liverpool.cards",
    ]) + "\n")
    out = subprocess.run([sys.executable, str(UNTRACED), str(tmp_path / "ctx.coverage"), str(log)],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    # the slowest first; once test_slow is untraced, test_quick alone runs 3-6
    assert out == [
        "untraced    12.0 s  tests/test_x.py::test_slow",
        "traced       2.0 s  tests/test_x.py::test_quick: 4 lines only it runs",
        "traced       1.0 s  tests/test_x.py::test_alone: 1 lines only it runs",
    ]
