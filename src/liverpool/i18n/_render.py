"""Events, actions and errors as text in each language."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from .. import actions as A
from .. import events as E
from ..cards import Card
from ..errors import (
    FILE_PROBLEMS,
    MESSAGES,
    REASONS,
    RECORD_PROBLEMS,
    GameError,
    RecordError,
    RecordFileError,
)
from ..melds import Meld
from ..rules import Contract, RulesError, rules_fields
from ._catalog import N_, translations
from ._reasons import read_reason
from ._words import (
    Segments,
    as_card,
    cards_segments,
    contract_words,
    default_name,
    fill,
    join,
    join_words,
    language,
    rank_plural,
)

__all__ = ["Context", "problem_segments", "reason_segments", "segments"]


@functools.cache
def instructions(lang: str) -> dict[str, str]:
    """The words of each action as an instruction in ``lang`` (Norwegian and
    Danish say "kast 9♥" to a player, "kaste 9♥" of a move), by the msgid of
    its words as a move.

    >>> instructions("nb")["discard {card}"], instructions("en")["discard {card}"]
    ('kast {card}', 'discard {card}')
    """
    t = translations(language(lang))
    return {
        N_("draw from the stock"): t.pgettext("imperative", "draw from the stock"),
        N_("take the top discard"): t.pgettext("imperative", "take the top discard"),
        N_("take {card} from the discard pile"): t.pgettext(
            "imperative", "take {card} from the discard pile"),
        N_("buy the discard"): t.pgettext("imperative", "buy the discard"),
        N_("buy {card}"): t.pgettext("imperative", "buy {card}"),
        N_("pass"): t.pgettext("imperative", "pass"),
        N_("lay down {melds}"): t.pgettext("imperative", "lay down {melds}"),
        N_("lay down the melds you built"): t.pgettext("imperative",
                                                       "lay down the melds you built"),
        N_("lay {card} off on {where}"): t.pgettext("imperative", "lay {card} off on {where}"),
        N_("swap {card} for the wild card in {meld}"): t.pgettext(
            "imperative", "swap {card} for the wild card in {meld}"),
        N_("swap {card} for the wild card in meld {number}"): t.pgettext(
            "imperative", "swap {card} for the wild card in meld {number}"),
        N_("discard {card}"): t.pgettext("imperative", "discard {card}"),
        N_('discard {card} saying "Shanghai!"'): t.pgettext(
            "imperative", 'discard {card} saying "Shanghai!"'),
        N_("call the discard"): t.pgettext("imperative", "call the discard"),
        N_("call and lay the card on {where}"): t.pgettext(
            "imperative", "call and lay the card on {where}"),
        N_("put {card} first in meld {number} of the lay-down"): t.pgettext(
            "imperative", "put {card} first in meld {number} of the lay-down"),
        N_("put {card} into meld {number} of the lay-down"): t.pgettext(
            "imperative", "put {card} into meld {number} of the lay-down"),
        N_("take back the last card of the lay-down"): t.pgettext(
            "imperative", "take back the last card of the lay-down"),
    }


class Context:
    """The language and the players' names of one rendering; with ``table`` (the
    melds on the table), an action names a meld by its cards, not its number;
    ``imperative``: an action is said as an instruction (:meth:`act`)."""

    def __init__(self, lang: str, names: Sequence[str] | None,
                 table: Sequence[Meld] | None = None, *, imperative: bool = False) -> None:
        self.lang = language(lang)
        self.t = translations(self.lang)
        self.names = names
        self.table = table
        self.imperative = imperative

    def act(self, msgid: str) -> str:
        """An action's words: as a move ("kaste 9♥", which "you cannot … now"
        needs), or, ``imperative``, as an instruction ("kast 9♥": a hint, the
        coach's "better: …")."""
        if self.imperative:
            return instructions(self.lang)[msgid]
        return self.t.gettext(msgid)

    def name(self, seat: object) -> str:
        if not isinstance(seat, int) or isinstance(seat, bool):
            return str(seat)
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return default_name(seat, self.lang)

    def fill(self, template: str, **values: object) -> Segments:
        return fill(template, values)


def meld_segments(meld: object) -> Segments:
    if isinstance(meld, Meld):
        return cards_segments(meld.cards)
    if isinstance(meld, tuple | list) and all(isinstance(c, Card) for c in meld):
        return cards_segments(meld)
    return [str(meld)]


def melds_segments(melds: Sequence[Meld]) -> Segments:
    return join((meld_segments(m) for m in melds), " | ")


# ------------------------------------------------------------------ events
def _round_started(e: Any, c: Context) -> Segments:
    return c.fill(c.t.gettext("Round {round} begins: {dealer} deals {n} cards to each player; "
                              "the contract is {contract}."),
                  round=e.round, dealer=c.name(e.dealer), n=e.cards_dealt,
                  contract=contract_words(e.sets, e.runs, c.lang))


def _cut(e: Any, c: Context) -> Segments:
    if e.bonus:
        return c.fill(c.t.gettext("{seat} cuts exactly {count} cards and scores {bonus} points."),
                      seat=c.name(e.seat), count=e.count, bonus=e.bonus)
    return c.fill(c.t.gettext("{seat} cuts {count} cards."), seat=c.name(e.seat), count=e.count)


def _upcard(e: Any, c: Context) -> Segments:
    if e.refill:
        return c.fill(c.t.gettext("The discard pile is empty: {card} is turned up from the "
                                  "stock."), card=e.card)
    return c.fill(c.t.gettext("The first discard is {card}, turned up from the stock."),
                  card=e.card)


def _reshuffle(e: Any, c: Context) -> Segments:
    return c.fill(c.t.ngettext(
        "The stock ran out: the discard pile is shuffled into a new stock of {n} card.",
        "The stock ran out: the discard pile is shuffled into a new stock of {n} cards.",
        e.size), n=e.size)


def _stock_chosen(e: Any, c: Context) -> Segments:
    return c.fill(c.t.gettext("{seat} does not take the discard and will draw from the stock."),
                  seat=c.name(e.seat))


def _drew(e: Any, c: Context) -> Segments:
    if e.card is None:
        return c.fill(c.t.gettext("{seat} draws from the stock."), seat=c.name(e.seat))
    return c.fill(c.t.gettext("{seat} draws {card} from the stock."), seat=c.name(e.seat),
                  card=e.card)


def _took(e: Any, c: Context) -> Segments:
    if e.forced:
        return c.fill(c.t.gettext("The stock is empty: {seat} takes {card} from the discard "
                                  "pile."), seat=c.name(e.seat), card=e.card)
    return c.fill(c.t.gettext("{seat} takes {card} from the discard pile."), seat=c.name(e.seat),
                  card=e.card)


def _bought(e: Any, c: Context) -> Segments:
    seat, n = c.name(e.seat), e.penalty_count
    if n == 0:
        return c.fill(c.t.gettext("{seat} buys {card}."), seat=seat, card=e.card)
    if e.penalty:
        return c.fill(c.t.ngettext("{seat} buys {card} and takes {n} penalty card: {penalty}.",
                                   "{seat} buys {card} and takes {n} penalty cards: {penalty}.",
                                   n), seat=seat, card=e.card, n=n,
                      penalty=cards_segments(e.penalty))
    return c.fill(c.t.ngettext("{seat} buys {card} and takes {n} penalty card.",
                               "{seat} buys {card} and takes {n} penalty cards.", n),
                  seat=seat, card=e.card, n=n)


def _passed(e: Any, c: Context) -> Segments:
    if e.window == "call":
        return c.fill(c.t.gettext("{seat} does not call."), seat=c.name(e.seat))
    return c.fill(c.t.gettext("{seat} does not buy."), seat=c.name(e.seat))


def _laid_down(e: Any, c: Context) -> Segments:
    return c.fill(c.t.gettext("{seat} lays down the contract: {melds}."), seat=c.name(e.seat),
                  melds=melds_segments(e.melds))


def _laid_off(e: Any, c: Context) -> Segments:
    return c.fill(c.t.gettext("{seat} lays {card} off on meld {number}: {result}."),
                  seat=c.name(e.seat), card=e.card, number=e.meld + 1,
                  result=meld_segments(e.result))


def _swapped(e: Any, c: Context) -> Segments:
    return c.fill(c.t.gettext("{seat} puts {card} in place of {wild} in meld {number} and "
                              "takes {wild}: {result}."),
                  seat=c.name(e.seat), card=e.card, wild=e.wild, number=e.meld + 1,
                  result=meld_segments(e.result))


def _discarded(e: Any, c: Context) -> Segments:
    if e.announce:
        return c.fill(c.t.gettext('{seat} discards {card} and says "Shanghai!".'),
                      seat=c.name(e.seat), card=e.card)
    return c.fill(c.t.gettext("{seat} discards {card}."), seat=c.name(e.seat), card=e.card)


def _called(e: Any, c: Context) -> Segments:
    seat, who = c.name(e.seat), c.name(e.discarder)
    if e.call == "shanghai":
        return c.fill(c.t.gettext('{seat} calls "Shanghai!" and lays {card} on meld {number}: '
                                  '{result}.'), seat=seat, card=e.card, number=e.meld + 1,
                      result=meld_segments(e.result) if e.result is not None else [])
    if e.call == "liverpool_pile":
        return c.fill(c.t.gettext('{seat} calls "Liverpool!" on {card}: {discarder} takes the '
                                  'whole discard pile: {cards}.'), seat=seat, card=e.card,
                      discarder=who, cards=cards_segments(e.cards))
    return c.fill(c.t.gettext('{seat} calls "Liverpool!" on {card}: {discarder} takes it back.'),
                  seat=seat, card=e.card, discarder=who)


def _penalty(e: Any, c: Context) -> Segments:
    seat = c.name(e.seat)
    if e.from_seat is not None:
        if e.card is None:
            return c.fill(c.t.gettext("{seat} draws a card at random from the hand of "
                                      "{from_seat}."), seat=seat, from_seat=c.name(e.from_seat))
        return c.fill(c.t.gettext("{seat} draws {card} at random from the hand of {from_seat}."),
                      seat=seat, card=e.card, from_seat=c.name(e.from_seat))
    if e.card is None:
        return c.fill(c.t.gettext("{seat} draws a penalty card from the stock."), seat=seat)
    return c.fill(c.t.gettext("{seat} draws the penalty card {card} from the stock."), seat=seat,
                  card=e.card)


def _hand_empty(e: Any, c: Context) -> Segments:
    return c.fill(c.t.gettext("{seat} has no cards left but must go out with a discard: the "
                              "turn ends."), seat=c.name(e.seat))


def _out(e: Any, c: Context) -> Segments:
    return c.fill(c.t.gettext("{seat} goes out!"), seat=c.name(e.seat))


def _abandoned(e: Any, c: Context) -> Segments:
    if e.reason == "stalled":
        return [c.t.gettext("The round ends without a winner: the turn limit of the rules is "
                            "reached.")]
    return [c.t.gettext("The round ends without a winner: neither pile can supply a card.")]


def _scores(values: Sequence[int], c: Context) -> Segments:
    return join(([f"{c.name(seat)} {points}"] for seat, points in enumerate(values)), ", ")


def _round_over(e: Any, c: Context) -> Segments:
    if e.winner is None:
        return c.fill(c.t.gettext("Round {round} is over without a winner. Penalty points: "
                                  "{scores}."), round=e.round, scores=_scores(e.scores, c))
    return c.fill(c.t.gettext("Round {round} is over: {winner} went out. Penalty points: "
                              "{scores}."), round=e.round, winner=c.name(e.winner),
                  scores=_scores(e.scores, c))


def _game_over(e: Any, c: Context) -> Segments:
    winners = join_words([[c.name(w)] for w in e.winners], c.lang)
    total = e.totals[e.winners[0]] if e.winners else 0
    if len(e.winners) == 1:
        return c.fill(c.t.gettext("The game is over: {winners} wins with {total} points."),
                      winners=winners, total=total)
    return c.fill(c.t.gettext("The game is over: {winners} share the win with {total} points."),
                  winners=winners, total=total)


#: The words of each event, by its ``type`` tag.
EVENT_TEXTS: dict[str, Callable[[Any, Context], Segments]] = {
    "round_started": _round_started, "cut": _cut, "upcard": _upcard, "reshuffle": _reshuffle,
    "stock_chosen": _stock_chosen, "draw": _drew, "take": _took, "buy": _bought,
    "pass": _passed, "lay_down": _laid_down, "lay_off": _laid_off, "swap": _swapped,
    "discard": _discarded, "call": _called, "penalty": _penalty, "hand_empty": _hand_empty,
    "out": _out, "round_abandoned": _abandoned, "round_over": _round_over,
    "game_over": _game_over,
}


# ------------------------------------------------------------------ actions
def _end_words(end: str | None, number: int, c: Context) -> Segments:
    """``meld 2``, ``the low end of meld 2``; with the table known, the meld by
    its cards: ``7♥ 8♥ 9♥ 10♥``, ``the low end of 7♥ 8♥ 9♥ 10♥``."""
    table = c.table
    if table is not None and 0 < number <= len(table):
        meld = meld_segments(table[number - 1])
        if end == "low":
            return c.fill(c.t.gettext("the low end of {meld}"), meld=meld)
        if end == "high":
            return c.fill(c.t.gettext("the high end of {meld}"), meld=meld)
        return meld
    if end == "low":
        return c.fill(c.t.gettext("the low end of meld {number}"), number=number)
    if end == "high":
        return c.fill(c.t.gettext("the high end of meld {number}"), number=number)
    return c.fill(c.t.gettext("meld {number}"), number=number)


def _draw(a: Any, c: Context) -> Segments:
    if a.source == "stock":
        return [c.act("draw from the stock")]
    return [c.act("take the top discard")]


def _lay_off(a: Any, c: Context) -> Segments:
    return c.fill(c.act("lay {card} off on {where}"), card=a.card,
                  where=_end_words(a.end, a.meld + 1, c))


def _swap(a: Any, c: Context) -> Segments:
    table = c.table
    if table is not None and 0 <= a.meld < len(table):
        return c.fill(c.act("swap {card} for the wild card in {meld}"), card=a.card,
                      meld=meld_segments(table[a.meld]))
    return c.fill(c.act("swap {card} for the wild card in meld {number}"), card=a.card,
                  number=a.meld + 1)


def _discard(a: Any, c: Context) -> Segments:
    if a.announce:
        return c.fill(c.act('discard {card} saying "Shanghai!"'), card=a.card)
    return c.fill(c.act("discard {card}"), card=a.card)


def _call(a: Any, c: Context) -> Segments:
    if a.meld < 0:
        return [c.act("call the discard")]
    return c.fill(c.act("call and lay the card on {where}"),
                  where=_end_words(a.end, a.meld + 1, c))


def _stage(a: Any, c: Context) -> Segments:
    if a.end == "low":
        return c.fill(c.act("put {card} first in meld {number} of the lay-down"),
                      card=a.card, number=a.meld + 1)
    return c.fill(c.act("put {card} into meld {number} of the lay-down"), card=a.card,
                  number=a.meld + 1)


#: The words of each action, by the name of its class in :mod:`liverpool.actions`.
ACTION_TEXTS: dict[str, Callable[[Any, Context], Segments]] = {
    "Draw": _draw,
    "Buy": lambda a, c: [c.act("buy the discard")],
    "Pass": lambda a, c: [c.act("pass")],
    "LayDown": lambda a, c: c.fill(c.act("lay down {melds}"),
                                   melds=melds_segments(a.melds)),
    "LayOff": _lay_off,
    "SwapJoker": lambda a, c: _swap(a, c),
    "Discard": _discard,
    "Call": _call,
    "Cut": lambda a, c: c.fill(c.t.ngettext("cut {n} card", "cut {n} cards", a.count),
                               n=a.count),
    "Stage": _stage,
    "Unstage": lambda a, c: [c.act("take back the last card of the lay-down")],
    "CommitLayDown": lambda a, c: [c.act("lay down the melds you built")],
}


def _renderer(obj: object) -> Callable[[Any, Context], Segments] | None:
    """The words of an event or an action (a subclass counts as its base)."""
    for cls in type(obj).__mro__:
        if cls in _EVENT_CLASSES:
            return EVENT_TEXTS.get(getattr(cls, "type", ""))
        if getattr(A, cls.__name__, None) is cls:
            fn = ACTION_TEXTS.get(cls.__name__)
            if fn is not None:
                return fn
    return None


_EVENT_CLASSES = frozenset(E.EVENT_TYPES.values())


# ------------------------------------------------------------------ errors
def _contract_value(value: object, c: Context) -> Segments:
    if isinstance(value, Contract):
        return [contract_words(value.sets, value.runs, c.lang)]
    if isinstance(value, str):
        if value and set(value) <= {"S", "R"}:
            return [contract_words(value.count("S"), value.count("R"), c.lang)]
        sets = runs = 0
        for part in value.split(" + "):
            words = part.split()
            if len(words) != 2 or not words[0].isdigit():
                return [value]
            if words[1] in ("set", "sets"):
                sets += int(words[0])
            elif words[1] in ("run", "runs"):
                runs += int(words[0])
            else:
                return [value]
        return [contract_words(sets, runs, c.lang)]
    return [str(value)]


def _param(name: str, value: object, c: Context) -> object:
    """One parameter of an error, ready for its message."""
    if name == "seat":
        return c.name(value)
    if name == "card":
        card = as_card(value)
        return card if card is not None else str(value)
    if name == "cards":
        if isinstance(value, Meld):
            return meld_segments(value)
        if isinstance(value, tuple | list):
            return cards_segments(x for x in value if isinstance(x, Card))
        return str(value)
    if name in ("meld", "first", "second", "result"):
        return meld_segments(value)
    if name == "action":
        if _renderer(value) is not None:
            return segments(value, c)
        return str(value)
    if name in ("contract", "given"):
        return _contract_value(value, c)
    if name == "kind" and value in ("set", "run"):
        return c.t.pgettext("meld", "set") if value == "set" else c.t.pgettext("meld", "run")
    if name == "reason":
        if isinstance(value, BaseException):
            return error_segments(value, c)
        if isinstance(value, str):
            return reason_segments(value, c.lang)
    if name == "text" and isinstance(value, str):  # what a user typed, quoted
        return repr(value)
    if name == "ranks" and isinstance(value, int) and 1 <= value <= 13:
        return rank_plural(value, c.lang)
    return value


def problem_segments(code: str, params: dict[str, object], c: Context) -> Segments:
    """A reason of the meld checks or of the card notation (a code of
    :data:`~liverpool.errors.REASONS` or a ``card_*`` code) and its parameters."""
    template = REASONS.get(code) or MESSAGES.get(code, code)
    return fill(c.t.gettext(template), {k: _param(k, v, c) for k, v in params.items()})


def reason_segments(text: str, lang: str) -> Segments:
    """An English reason (of :func:`liverpool.melds.meld_error` or a card
    error's message) in ``lang``; any other text as it is."""
    problem = read_reason(text)
    if problem is None:
        return [text]
    return problem_segments(problem[0], problem[1], Context(lang, None))


def _rules_segments(error: RulesError, c: Context) -> Segments:
    fields: dict[str, object] = dict(rules_fields(error.params, c.t.gettext, c.t.ngettext))
    for name, value in error.params.items():
        if name == "contract" and isinstance(value, Contract):
            fields[name] = [contract_words(value.sets, value.runs, c.lang)]
        elif name == "error" and isinstance(value, BaseException):
            fields[name] = error_segments(value, c)
    return fill(c.t.gettext(MESSAGES[error.code]), fields)


def _record_segments(error: RecordError, c: Context) -> Segments | None:
    """A record's error in ``c``'s language: a file that cannot be read, an
    action that does not replay (with the game's reason), a record that does
    not replay for another of :data:`RECORD_PROBLEMS`; None for the rest (a
    position's errors), said as they are."""
    if isinstance(error, RecordFileError):
        return fill(c.t.gettext(FILE_PROBLEMS[error.problem]),
                    {"path": error.path, "detail": error.detail, "line": str(error.line),
                     "column": str(error.column)})
    if error.action is not None and error.reason is not None:
        return fill(c.t.gettext("action {number} of the record does not replay: {reason}"),
                    {"number": str(error.action), "reason": error_segments(error.reason, c)})
    template = RECORD_PROBLEMS.get(error.problem or "")
    if template is not None:
        fields: dict[str, object] = {k: str(v) for k, v in error.params.items()}
        if error.reason is not None:
            fields["reason"] = error_segments(error.reason, c)
        return fill(c.t.gettext(template), fields)
    return None


def error_segments(error: BaseException, c: Context) -> Segments:
    if isinstance(error, RecordError):
        said = _record_segments(error, c)
        if said is not None:
            return said
    if isinstance(error, GameError) and error.code in MESSAGES:
        if isinstance(error, RulesError):
            return _rules_segments(error, c)
        params = error.params
        if error.code in REASONS:  # "{meld}: <the reason>"
            reason = problem_segments(error.code, {k: v for k, v in params.items()
                                                   if k != "meld"}, c)
            return fill(c.t.gettext(MESSAGES["meld_problem"]),
                        {"meld": _param("meld", params.get("meld"), c), "reason": reason})
        template = c.t.gettext(MESSAGES[error.code])
        return fill(template, {k: _param(k, v, c) for k, v in params.items()})
    return reason_segments(str(error), c.lang)


# ------------------------------------------------------------------ any
def segments(obj: object, c: Context) -> Segments:
    """``obj`` (an event, an action, an error) as text with cards in it."""
    render = _renderer(obj)
    if render is not None:
        return render(obj, c)
    if isinstance(obj, BaseException):
        return error_segments(obj, c)
    if isinstance(obj, Contract):
        return [contract_words(obj.sets, obj.runs, c.lang)]
    if isinstance(obj, Meld):
        return meld_segments(obj)
    if isinstance(obj, Card):
        return [obj]
    return [str(obj)]
