"""The gettext catalogs: English msgids, Norwegian (nb) and Danish (da) translations.

The compiled catalogs (``locale/<lang>/LC_MESSAGES/liverpool.mo``) ship inside
the package; they are read with the standard library's :mod:`gettext`.
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Mapping
from pathlib import Path

__all__ = ["CLICK_DOMAIN", "DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "system_language",
           "translations"]

#: The languages: English (the msgids), Norwegian bokmål, Danish.
LANGUAGES: tuple[str, ...] = ("en", "nb", "da")

#: The gettext domain of the catalogs.
DOMAIN = "liverpool"

#: The gettext domain of click's own words (its usage errors, ``Usage:``, the
#: ``--help`` texts it writes), translated for the ``liverpool`` commands:
#: ``locale/<lang>/LC_MESSAGES/click.po``, from ``locale/click.pot``.
CLICK_DOMAIN = "click"

#: Where the catalogs live (``<lang>/LC_MESSAGES/liverpool.po`` and ``.mo``).
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


#: The language codes of the system's locale that name one of :data:`LANGUAGES`
#: (Norwegian as ``no`` or nynorsk reads bokmål).
_LOCALE_LANGUAGES = {"en": "en", "nb": "nb", "no": "nb", "nn": "nb", "da": "da"}


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the system's locale, as gettext finds it: the first
    language of ``LANGUAGE`` (a list, ``nb:en``) or of the first of
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set, that is one of
    :data:`LANGUAGES` (``nb_NO.UTF-8`` is ``nb``); English when none is (or
    the locale is ``C``). The commands' ``--lang`` default to it.

    >>> system_language({"LANG": "nb_NO.UTF-8"}), system_language({"LANGUAGE": "de:da"})
    ('nb', 'da')
    >>> system_language({"LC_ALL": "C.UTF-8", "LANG": "da_DK.UTF-8"}), system_language({})
    ('en', 'en')
    """
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    names = [] if locale.split(".")[0] in ("C", "POSIX") else env.get("LANGUAGE", "").split(":")
    for name in [*names, locale]:
        code = name.split("_")[0].split(".")[0].split("@")[0].lower()
        if code in _LOCALE_LANGUAGES:
            return _LOCALE_LANGUAGES[code]
    return "en"


def N_(message: str) -> str:  # the gettext convention for "mark only"
    """Mark ``message`` for extraction into the catalogs; returns it unchanged."""
    return message


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The translations of ``lang`` (English, or an unknown language: the msgids)."""
    if lang not in LANGUAGES or lang == "en":
        return gettext.NullTranslations()
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with path.open("rb") as f:
        return gettext.GNUTranslations(f)
