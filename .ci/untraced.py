"""Which tests could run untraced (``@pytest.mark.no_cover``) without a line
of liverpool going uncovered, from a run that records each test's lines:

    COVERAGE_FILE=/tmp/ctx.coverage python -m pytest --cov=liverpool \\
        --cov-context=test --durations=0 -vv > /tmp/ctx.txt
    python .ci/untraced.py /tmp/ctx.coverage /tmp/ctx.txt

Tests are taken by function (all their parameters together), the slowest
first (the durations of the pytest output given). A test is listed when
every line it runs is also run by a test still traced, or outside any test
(imports, the processes the tests start); the lines it alone runs are shown
for the others. Coverage under tracing is what CI's time goes to: the
search's and the review's tests run 3-4 times slower traced.

A listed test runs faster untraced only where its own thread does the work:
one whose server or workers are processes of their own (the browser tests,
the server processes') gains nothing, and only the test's own thread is
untraced. Time the test with and without ``--cov`` before marking it.
"""

from __future__ import annotations

import re
import sys
from collections import Counter, defaultdict

from coverage import CoverageData


def function_of(context: str) -> str:
    """``tests/test_x.py::test_y[param]|run`` -> ``tests/test_x.py::test_y``"""
    return context.rsplit("|", 1)[0].split("[", 1)[0]


def durations(pytest_output: str) -> dict[str, float]:
    seconds: dict[str, float] = defaultdict(float)
    with open(pytest_output, encoding="utf-8") as lines:
        for line in lines:
            m = re.search(r"^([\d.]+)s call\s+(\S+)\s*$", line)
            if m:
                seconds[function_of(m.group(2))] += float(m.group(1))
    return seconds


def main(data_file: str, pytest_output: str) -> None:
    data = CoverageData(data_file)
    data.read()
    lines_of: dict[str, set[tuple[str, int]]] = defaultdict(set)
    runs: Counter[tuple[str, int]] = Counter()  # how many traced tests run a line
    outside: set[tuple[str, int]] = set()
    for path in data.measured_files():
        for line, contexts in data.contexts_by_lineno(path).items():
            key = (path, line)
            tests = {function_of(c) for c in contexts if c}
            if "" in contexts:
                outside.add(key)
            for test in tests:
                lines_of[test].add(key)
            runs[key] = len(tests)
    seconds = durations(pytest_output)
    for test in sorted(seconds, key=lambda t: -seconds[t]):
        if not test.startswith("tests/") or test not in lines_of:
            continue  # (doctests cannot be marked; an untraced test records no line)
        alone = [k for k in lines_of[test] if k not in outside and runs[k] < 2]
        if alone:
            print(f"traced    {seconds[test]:6.1f} s  {test}: {len(alone)} lines only it runs")
            continue
        for key in lines_of[test]:
            runs[key] -= 1
        print(f"untraced  {seconds[test]:6.1f} s  {test}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
