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

click's own words — a usage error such as an unknown option or a value out
of range, ``Usage:``, ``Try ... for help`` — are in the language of the
command line's ``--lang`` too: the ``liverpool`` group is a
:class:`LangGroup`, which reads ``--lang`` before click parses the line and
gives click that language's catalog (:func:`click_language`).
"""

from __future__ import annotations

import gettext
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import click

from . import i18n
from .rules import RulesError

__all__ = ["LangGroup", "click_language", "error_line", "fail", "lang_in_args", "lang_option",
           "rules_errors"]

_F = TypeVar("_F", bound=Callable[..., Any])


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
    """Turn a :class:`RulesError` into ``error: ...`` and exit status 1, the
    message and its prefix in ``lang`` (default: the command's ``--lang``)."""
    try:
        yield
    except RulesError as e:
        use = lang or _command_lang()
        fail(i18n.render(e, use), use)


def lang_option(what: str) -> Callable[[_F], _F]:
    """A command's ``--lang`` option: ``what`` it sets the language of ("the
    report"); by default the system's language
    (:func:`liverpool.i18n.system_language`: ``LANG=nb_NO.UTF-8`` is ``nb``)."""
    return click.option(
        "--lang", type=click.Choice(i18n.LANGUAGES), default=i18n.system_language,
        show_default=False,
        help=f"Language of {what}: English, Norwegian (nb), Danish (da). Default: the "
             "system's language (LANG), else English.")


def lang_in_args(args: Sequence[str]) -> str:
    """The language a command line asks for: its last ``--lang X`` or
    ``--lang=X`` naming a language of :data:`liverpool.i18n.LANGUAGES`
    before any ``--``; without one, the system's
    (:func:`liverpool.i18n.system_language`).

    >>> lang_in_args(["rules", "--lang", "nb", "--bogus"])
    'nb'
    >>> lang_in_args(["check-rules", "--lang=da", "x.toml"])
    'da'
    """
    lang = i18n.system_language()
    for i, word in enumerate(args):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif word.startswith("--lang="):
            value = word[len("--lang="):]
        else:
            continue
        if value in i18n.LANGUAGES:
            lang = value
    return lang


@contextmanager
def click_language(lang: str) -> Iterator[None]:
    """click's own words in ``lang`` while the block runs. click looks them
    up through :func:`gettext.gettext`, that is in the standard library's
    global domain in the language of ``LANGUAGE``: the block points both at
    the click catalog of :mod:`liverpool.i18n` (:data:`~liverpool.i18n.CLICK_DOMAIN`)
    and puts them back after. English (or an unknown language) changes nothing."""
    if lang == "en" or lang not in i18n.LANGUAGES:
        yield
        return
    domain = gettext.textdomain()
    before = os.environ.get("LANGUAGE")
    gettext.bindtextdomain(i18n.CLICK_DOMAIN, str(i18n.LOCALE_DIR))
    gettext.textdomain(i18n.CLICK_DOMAIN)
    os.environ["LANGUAGE"] = lang
    try:
        yield
    finally:
        gettext.textdomain(domain)
        if before is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = before


class LangGroup(click.Group):
    """A click group whose command lines are parsed, and their usage errors
    said, in the language of their ``--lang`` (:func:`lang_in_args`)."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        words = sys.argv[1:] if args is None else list(args)
        with click_language(lang_in_args(words)):
            return super().main(args, *rest, **extra)
