"""The gettext catalogs: English msgids, Norwegian (nb) and Danish (da) translations.

The compiled catalogs (``locale/<lang>/LC_MESSAGES/liverpool.mo``) ship inside
the package; they are read with the standard library's :mod:`gettext`.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

__all__ = ["CLICK_DOMAIN", "DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "translations"]

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
