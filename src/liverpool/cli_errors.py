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
gives click that language's catalog (:func:`click_language`). So is the
commands' own help (:func:`help_language`): the ``help=`` of every command
and option (msgids marked with :func:`~liverpool.i18n.N_`, or a template of
:func:`help_text`; a command's help is not its docstring, which Babel would
not extract) and the metavars that are words (``FILE``, ``INTEGER``).
"""

from __future__ import annotations

import functools
import gettext
import inspect
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NoReturn, TypeVar

import click

from . import i18n
from .i18n import N_
from .rules import RulesError

__all__ = ["METAVAR_WORDS", "LangGroup", "click_language", "command_line_language", "error_line",
           "fail", "help_lang_option", "help_language", "help_text", "lang_in_args", "lang_option",
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
    report", a msgid marked with :func:`~liverpool.i18n.N_`); by default the
    language the command line names before the command (``liverpool --lang nb
    play``), else the system's (:func:`command_line_language`)."""
    return click.option(
        "--lang", type=click.Choice(i18n.LANGUAGES), default=command_line_language,
        show_default=False,
        # TRANSLATORS: {what} is what --lang sets the language of ("the game's screens")
        help=help_text(N_("Language of {what}: English, Norwegian (nb), Danish (da). Default: "
                          "the system's language (LANG), else English."), what=what))


def help_lang_option() -> Callable[[_F], _F]:
    """A hidden ``--lang`` for a group that prints nothing of its own (the
    ``liverpool`` group, ``liverpool db``): the language of its help and of
    click's words only (:class:`LangGroup` reads it); the group does not get
    its value. Hidden, its help in English is as it was."""
    return click.option("--lang", type=click.Choice(i18n.LANGUAGES), hidden=True,
                        expose_value=False)


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


#: The language the running ``liverpool`` command line names (:class:`LangGroup`).
_line_language: ContextVar[str | None] = ContextVar("liverpool_line_language", default=None)


def command_line_language() -> str:
    """The language of the running ``liverpool`` command line
    (:func:`lang_in_args`, read by :class:`LangGroup`), else the system's
    (:func:`liverpool.i18n.system_language`): the default of every ``--lang``."""
    return _line_language.get() or i18n.system_language()


#: The English help texts made by :func:`help_text`: text -> (template, fields).
_templates: dict[str, tuple[str, dict[str, str]]] = {}

#: click's metavars of its types (the type's name in capitals: ``--seed INTEGER``)
#: and those of its commands' options, in other languages. Each language's
#: ``[OPTIONS]`` and ``COMMAND [ARGS]...`` of the usage line too.
METAVAR_WORDS: tuple[str, ...] = (
    N_("INTEGER"), N_("INTEGER RANGE"), N_("FLOAT"), N_("FINITE FLOAT RANGE"), N_("TEXT"),
    N_("DIRECTORY"), N_("FILE"),
    # TRANSLATORS: in the usage line of a command's help: "Usage: liverpool play [OPTIONS]"
    N_("[OPTIONS]"),
    # TRANSLATORS: in the usage line of liverpool --help: "liverpool [OPTIONS] COMMAND [ARGS]..."
    N_("COMMAND [ARGS]..."),
)


def help_text(template: str, **fields: str) -> str:
    """A command's help text made from ``template`` (a msgid marked with
    :func:`~liverpool.i18n.N_`) and its ``{fields}`` (msgids, or words said
    the same in every language): the English text, which click shows as it
    is and :func:`help_language` says in another language.

    >>> help_text("Language of {what}.", what="the report")
    'Language of the report.'
    """
    text = template.format(**fields)
    _templates[inspect.cleandoc(text)] = (template, fields)
    return text


@functools.cache
def _click_words(lang: str) -> gettext.NullTranslations:
    return gettext.translation(i18n.CLICK_DOMAIN, str(i18n.LOCALE_DIR), [lang], fallback=True)


def _said(text: str, lang: str) -> str:
    """A help text or a metavar in ``lang``: from its :func:`help_text`
    template, the liverpool catalog or click's (``Show the version and
    exit.``); as it is when none has it."""
    key = inspect.cleandoc(text)
    if key in _templates:
        template, fields = _templates[key]
        return i18n.gettext(template, lang).format(
            **{name: i18n.gettext(value, lang) if value else value
               for name, value in fields.items()})
    said = i18n.gettext(key, lang)
    if said == key:
        said = _click_words(lang).gettext(key)
    return text if said == key else said


def _metavar(param: click.Parameter, lang: str) -> str | None:
    """``param``'s metavar in ``lang``, when it is a word the catalogs know
    (``FILE``, ``INTEGER``); None when click's own stays (``[en|nb|da]``, ``N``)."""
    if isinstance(param, click.Option) and (param.is_flag or param.count):
        return None
    if isinstance(param.type, click.Choice | click.DateTime):
        return None
    if param.metavar is not None:
        said = _said(param.metavar, lang)
        return said if said != param.metavar else None
    # click's own: the type's name (an option) or the parameter's (an argument), in capitals
    word = (param.name or "") if isinstance(param, click.Argument) else param.type.name
    said = _said(word.upper(), lang)
    if said == word.upper():
        return None
    if isinstance(param, click.Argument) and not param.required:
        said = f"[{said}]"
    return said + ("..." if param.nargs != 1 else "")


@contextmanager
def help_language(command: click.Command, lang: str) -> Iterator[None]:
    """The help of ``command`` and of its subcommands in ``lang`` while the
    block runs: their help texts, their options' (``--help`` and ``--version``
    too) and the metavars that are words; every one put back after. English (or an unknown language) changes nothing.

    Enter it before :func:`click_language`: click makes a command's ``--help``
    option once, with its help text in the language of that moment. The
    command objects are shared: not for threads that run command lines at
    the same time."""
    if lang == "en" or lang not in i18n.LANGUAGES:
        yield
        return
    changed: list[tuple[object, str, object]] = []

    def put(obj: object, name: str, value: object) -> None:
        before = getattr(obj, name)
        if value is not None and value != before:
            changed.append((obj, name, before))
            setattr(obj, name, value)

    def translate(cmd: click.Command, ctx: click.Context) -> None:
        for name in ("help", "short_help", "options_metavar", "subcommand_metavar"):
            text = getattr(cmd, name, None)
            if isinstance(text, str) and text:
                put(cmd, name, _said(text, lang))
        help_option = cmd.get_help_option(ctx)
        for param in [*cmd.params, *([help_option] if help_option is not None else [])]:
            if isinstance(param, click.Option) and param.help:
                put(param, "help", _said(param.help, lang))
            put(param, "metavar", _metavar(param, lang))
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                translate(sub, click.Context(sub, parent=ctx, info_name=name,
                                             **sub.context_settings))

    try:
        translate(command, click.Context(command, info_name=command.name,
                                         **command.context_settings))
        yield
    finally:
        for obj, name, before in reversed(changed):
            setattr(obj, name, before)


class LangGroup(click.Group):
    """A click group whose command lines are parsed, their usage errors said
    and their help written in the language of their ``--lang``
    (:func:`lang_in_args`): the group's own (``liverpool --help --lang nb``;
    ``liverpool --lang nb play``: the default of the command's), or the
    command's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        help_lang_option()(self)

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        words = sys.argv[1:] if args is None else list(args)
        lang = lang_in_args(words)
        token = _line_language.set(lang)
        try:
            with help_language(self, lang), click_language(lang):
                return super().main(args, *rest, **extra)
        finally:
            _line_language.reset(token)
