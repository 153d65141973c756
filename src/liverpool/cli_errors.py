"""How the ``liverpool`` commands report a user's mistake.

A user mistake never ends in a traceback: :func:`fail` prints
``error: <message>`` on stderr and exits with status 1, and
:func:`rules_errors` does the same for a :class:`~liverpool.rules.RulesError`.
Every command module (:mod:`liverpool.cli`, :mod:`liverpool.simcli`,
:mod:`liverpool.tui.cli`) uses these, so none of them imports another.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

from .rules import RulesError

__all__ = ["fail", "rules_errors"]


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with status 1."""
    click.echo(f"error: {message}", err=True)
    sys.exit(1)


@contextmanager
def rules_errors() -> Iterator[None]:
    """Turn a :class:`RulesError` into ``error: ...`` and exit status 1."""
    try:
        yield
    except RulesError as e:
        fail(str(e))
