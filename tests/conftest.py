"""What the test suite needs from the machine, installed when missing.

The browser tests drive Debian's Chromium (no browser download works in the
places this project is built). When it is missing and the run may install
packages (root, with apt-get), it is installed from Debian's packages before
the tests start; otherwise the browser tests fail with a message saying how to
install it. Nothing is skipped silently.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

#: Debian's packages the tests need, by the command each provides
NEEDED = {"chromium": "chromium"}


def _missing() -> list[str]:
    out = []
    for command, package in NEEDED.items():
        if command == "chromium" and os.environ.get("LIVERPOOL_CHROMIUM"):
            continue
        if shutil.which(command) is None:
            out.append(package)
    return out


def _wants_browser(session: pytest.Session) -> bool:
    return any("test_browser" in str(item.fspath) for item in session.items)


def _install(packages: list[str]) -> str | None:
    """Install ``packages`` with apt-get; the reason when that cannot be done."""
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        return "not root, or no apt-get"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", *packages]):
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900,
                              check=False)
        if done.returncode != 0:
            return f"{' '.join(cmd)} failed: {done.stderr.strip()[-500:]}"
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    missing = _missing()
    if not missing or not _wants_browser(session):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"installing Debian packages for the browser tests: "
                            f"{' '.join(missing)}")
    why = _install(missing)
    if why is not None and reporter is not None:
        reporter.write_line(f"could not install {' '.join(missing)} ({why}): the browser "
                            "tests will fail")
