"""Words for people: events, actions, errors and ruleset options in English,
Norwegian (``nb``) and Danish (``da``).

The engine writes no prose: its events are typed values (:mod:`liverpool.events`)
and its errors carry a code and parameters (:mod:`liverpool.errors`). This
module turns them into text. The English texts are the gettext msgids; the
Norwegian and Danish catalogs are ``locale/<lang>/LC_MESSAGES/liverpool.po``,
compiled to ``.mo`` files that ship with the package (only :mod:`gettext` is
used at run time). ``docs`` aside, the catalogs are kept with Babel — see
``babel.cfg`` beside this file.

Players are named by the caller (``names``, indexed by seat); by default
``Seat 1``, ``Plass 1``, ``Plads 1``. Cards are shown in letters (``9H``),
symbols (``9♥``), words, or by a function of the caller's.

>>> from liverpool.cards import Card
>>> from liverpool.events import Discarded
>>> e = Discarded(12, 1, Card.parse("9H"))
>>> render(e)
'Seat 2 discards 9H.'
>>> render(e, "nb", names=["Kari", "Ola", "Per"], symbols=True)
'Ola kaster 9♥.'
>>> render(e, "da", cards="words")
'Plads 2 smider hjerter ni.'
>>> from liverpool.errors import GameError
>>> render(GameError("not_in_hand", card="9H"), "nb")
'du har ikke 9H på hånden'
>>> contract_words(2, 1, "da")
'2 sæt + 1 sekvens'
>>> option_name("buy_limit_per_round", "nb")
'Kjøp per runde'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import Card
from ._catalog import CLICK_DOMAIN, LANGUAGES, LOCALE_DIR, N_, system_language, translations
from ._options import (
    GROUP_TITLES,
    OPTIONS,
    RULES_LABELS,
    deck_summary,
    describe_value,
    final_round_note,
    group_title,
    option_description,
    option_name,
    points_table,
    rules_label,
)
from ._render import Context, problem_segments, reason_segments, segments
from ._review import (
    REVIEW_LABELS,
    VERDICT_WORDS,
    hint_text,
    review_better,
    review_label,
    review_move,
    review_verdict,
)
from ._words import (
    CardFormat,
    Segments,
    bot_first_names,
    bot_name,
    card_formatter,
    card_name,
    contract_words,
    default_name,
    language,
    to_text,
)

__all__ = [
    "CLICK_DOMAIN",
    "GROUP_TITLES",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "OPTIONS",
    "REVIEW_LABELS",
    "RULES_LABELS",
    "VERDICT_WORDS",
    "CardFormat",
    "Segments",
    "bot_first_names",
    "bot_name",
    "card_name",
    "card_text",
    "contract_words",
    "deck_summary",
    "default_name",
    "describe_value",
    "error_text",
    "final_round_note",
    "gettext",
    "group_title",
    "hint_text",
    "ngettext",
    "option_description",
    "option_name",
    "points_table",
    "reason",
    "render",
    "render_segments",
    "review_better",
    "review_label",
    "review_move",
    "review_verdict",
    "rules_label",
    "say",
    "sentence",
    "system_language",
    "translations",
]


def render_segments(obj: object, lang: str = "en", names: Sequence[str] | None = None
                    ) -> Segments:
    """``obj`` as text in ``lang``: a list of strings and the :class:`Card` s in it,
    for callers that show cards their own way (colours, say)."""
    return segments(obj, Context(lang, names))


def render(obj: object, lang: str = "en", names: Sequence[str] | None = None,
           cards: CardFormat = None, *, symbols: bool = False, joker_word: bool = False) -> str:
    """``obj`` as text in ``lang``: an event (:data:`liverpool.events.EVENT_TYPES`),
    an action, an error (a :class:`~liverpool.errors.GameError` by its code and
    parameters; any other exception by its English message), a contract, a
    meld or a card.

    ``names`` names the seats (default ``Seat 1`` ...); ``cards`` is
    ``"letters"``, ``"symbols"``, ``"words"`` or a function of a card (default:
    symbols if ``symbols``, else letters); ``joker_word``: letters and symbols
    show a joker by its name in ``lang`` instead of ``*`` (the server's texts).
    """
    lang = language(lang)
    return to_text(render_segments(obj, lang, names),
                   card_formatter(cards, symbols, lang, joker_word=joker_word))


def sentence(text: str) -> str:
    """``text`` as a sentence on its own: its first letter a capital (the
    messages are written to go inside others, "Not allowed: you cannot …";
    shown alone, as the server's errors are, they start with a capital).
    Anything but a small letter first (a name, a card, a quote) stays.

    >>> sentence("det finnes ikke noe bord ABCDEF"), sentence("'seats' is missing")
    ('Det finnes ikke noe bord ABCDEF', "'seats' is missing")
    """
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def error_text(error: BaseException, lang: str = "en", names: Sequence[str] | None = None,
               cards: CardFormat = None, *, symbols: bool = False,
               joker_word: bool = False) -> str:
    """An error as a message shown alone: :func:`render` as a :func:`sentence`."""
    return sentence(render(error, lang, names, cards, symbols=symbols, joker_word=joker_word))


def card_text(card: Card, lang: str = "en", cards: CardFormat = None, *,
              symbols: bool = False) -> str:
    """One card the way :func:`render` shows it."""
    return card_formatter(cards, symbols, language(lang))(card)


def reason(problem: str | tuple[str, Mapping[str, object]] | BaseException, lang: str = "en",
           cards: CardFormat = None, *, symbols: bool = False) -> str:
    """Why a meld may not lie on the table, or a card cannot be read, in ``lang``:
    a ``(code, params)`` of :func:`liverpool.melds.meld_problem`, an error (as
    :func:`render` shows it), or the English text of :func:`liverpool.melds.meld_error`
    or of a :class:`~liverpool.cards.CardError` (read back into its code; any
    other text is shown as it is).

    >>> from liverpool import load_rules, parse_cards
    >>> from liverpool.melds import Meld, meld_problem
    >>> problem = meld_problem(Meld("set", tuple(parse_cards("9H 9S QS")), 9),
    ...                        load_rules("liverpool"))
    >>> reason(problem, "nb")
    'QS hører ikke hjemme i et tress av niere'
    >>> reason("a run needs at least 4 cards", "da")
    'en sekvens skal have mindst 4 kort'
    """
    lang = language(lang)
    if isinstance(problem, tuple):
        parts = problem_segments(problem[0], dict(problem[1]), Context(lang, None))
    elif isinstance(problem, BaseException):
        parts = render_segments(problem, lang)
    else:
        parts = reason_segments(problem, lang)
    return to_text(parts, card_formatter(cards, symbols, lang))


def gettext(message: str, lang: str = "en") -> str:
    """The catalog translation of ``message`` (an English msgid) in ``lang``."""
    return translations(language(lang)).gettext(message)


def say(message: str, lang: str = "en", /, **fields: object) -> str:
    """The catalog translation of ``message`` (an English msgid, marked with
    :data:`N_` where it is written) in ``lang``, its ``{fields}`` filled in
    (numbers formatted by the caller).

    >>> say(N_("{file} is a valid ruleset ({origin})."), "nb", file="x.toml", origin="dansk")
    'x.toml er et gyldig regelsett (dansk).'
    """
    return gettext(message, lang).format(**fields)


def ngettext(singular: str, plural: str, n: int, lang: str = "en") -> str:
    """The translation of ``singular``/``plural`` for ``n`` in ``lang``."""
    return translations(language(lang)).ngettext(singular, plural, n)
