"""How the ``liverpool`` commands report a user's mistake.

A user mistake never ends in a traceback: :func:`fail` prints
``error: <message>`` on stderr and exits with status 1, and
:func:`rules_errors` does the same for a :class:`~liverpool.rules.RulesError`.
Every command module (:mod:`liverpool.cli`, :mod:`liverpool.simcli`,
:mod:`liverpool.tui.cli`) uses these, so none of them imports another.

Both take the command's ``lang`` (``en``, ``nb``, ``da``): the ``error:``
prefix is then ``feil:`` or ``fejl:``, and a ruleset error is said in that
language (:func:`liverpool.i18n.render`). Without ``lang`` the prefix is
English; :func:`rules_errors` still says the ruleset error in the language of
the running command's ``--lang`` option, if it has one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import click

from . import i18n
from .rules import RulesError

__all__ = ["error_line", "fail", "rules_errors"]


def error_line(message: str, lang: str = "en") -> str:
    """``error: message`` in ``lang`` (``feil: ...``, ``fejl: ...``)."""
    return i18n.gettext("error: {message}", lang).format(message=message)


def fail(message: str, lang: str = "en") -> NoReturn:
    """Print ``error: message`` (in ``lang``) on stderr and exit with status 1."""
    click.echo(error_line(message, lang), err=True)
    sys.exit(1)


def _command_lang() -> str:
    """The ``--lang`` of the running click command ("en" if it has none)."""
    context = click.get_current_context(silent=True)
    lang = context.params.get("lang") if context is not None else None
    return lang if isinstance(lang, str) else "en"


@contextmanager
def rules_errors(lang: str | None = None) -> Iterator[None]:
    """Turn a :class:`RulesError` into ``error: ...`` and exit status 1: the
    message in ``lang`` (default: the command's ``--lang``), the prefix in
    ``lang`` when it is given."""
    try:
        yield
    except RulesError as e:
        fail(i18n.render(e, lang or _command_lang()), lang or "en")
