"""The ``liverpool`` command with only the core installed (``pip install -e .``):
every command but the server's works, and ``serve`` says in one line, in the
player's language, which extra to install."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

#: what the ``server`` extra brings (pyproject.toml), hidden from the child
SERVER_ONLY = ("fastapi", "starlette", "uvicorn", "websockets", "sqlalchemy", "platformdirs",
               "alembic", "psycopg", "redis", "limits", "prometheus_client", "segno")

CHILD = textwrap.dedent("""
    import importlib.abc, sys

    class NoServerExtra(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in HIDDEN:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, NoServerExtra())
    from liverpool.cli import main
    main(sys.argv[1:], prog_name="liverpool")
""")


def run(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    code = f"HIDDEN = {SERVER_ONLY!r}\n" + CHILD
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=120, env={"LANG": lang, "PATH": "/usr/bin:/bin"}, check=False)


@pytest.mark.slow
@pytest.mark.parametrize("args", [("--help",), ("play", "--help"), ("rules", "london"),
                                  ("serve", "--help")])
def test_commands_work_without_the_server_extra(args: tuple[str, ...]) -> None:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.strip()


@pytest.mark.parametrize(("lang", "start", "words"), [
    ("C.UTF-8", "Error: ", "the server needs its extra"),
    ("nb_NO.UTF-8", "Feil: ", "serveren trenger"),
    ("da_DK.UTF-8", "Fejl: ", "serveren skal bruge"),
])
@pytest.mark.slow
def test_serve_without_the_server_extra_says_what_to_install(lang: str, start: str,
                                                             words: str) -> None:
    done = run("serve", "--port", "8799", lang=lang)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(start + words), lines[0]
    assert 'pip install "liverpool-rummy[server]"' in lines[0]
