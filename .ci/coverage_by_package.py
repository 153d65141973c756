"""Line coverage per package of liverpool, from coverage.py's JSON report.

    python .ci/coverage_by_package.py coverage.json

The core is the modules directly in src/liverpool/; every subpackage
(engine/, bots/, server/, rl/, tui/, i18n/, ...) has a line of its own.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path, PurePosixPath


def package_of(path: str) -> str:
    parts = PurePosixPath(path.replace("\\", "/")).parts
    inside = parts[parts.index("liverpool") + 1:]
    return f"{inside[0]}/" if len(inside) > 1 else "core (src/liverpool/*.py)"


def main(report: str) -> None:
    files = json.loads(Path(report).read_text(encoding="utf-8"))["files"]
    lines: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for path, data in files.items():
        summary = data["summary"]
        row = lines[package_of(path)]
        row[0] += summary["covered_lines"]
        row[1] += summary["num_statements"]
    print(f"{'package':<28} {'lines':>7} {'covered':>8}")
    for name in sorted(lines):
        covered, total = lines[name]
        print(f"{name:<28} {total:>7} {100 * covered / max(total, 1):>7.1f}%")
    covered = sum(row[0] for row in lines.values())
    total = sum(row[1] for row in lines.values())
    print(f"{'all':<28} {total:>7} {100 * covered / max(total, 1):>7.1f}%")


if __name__ == "__main__":
    main(sys.argv[1])
