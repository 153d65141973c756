"""Events: what happened in a game, as small typed values (no prose).

Every event carries ``seq``, its place in the game's event list (``game.events[e.seq]
is e``), and has a JSON form with a ``type`` tag. Private parts — the card a
player drew from the stock, the penalty cards of a buy, a card taken from a
caller's hand — belong to the event's ``seat`` and appear only in that seat's
view: :meth:`public` gives the event as everyone else sees it. Words for people
come from :mod:`liverpool.i18n`, in English, Norwegian or Danish.

>>> from liverpool.cards import Card
>>> e = Drew(7, 2, Card.parse("9H"))
>>> e.to_json()
{'type': 'draw', 'seq': 7, 'seat': 2, 'card': '9H'}
>>> e.public().to_json()
{'type': 'draw', 'seq': 7, 'seat': 2, 'card': None}
>>> event_from_json(e.to_json()) == e
True
>>> e.visible_to(2) is e, e.visible_to(0) == e.public()
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Card, CardError
from .melds import Meld, MeldError

__all__ = [
    "EVENT_TYPES",
    "Bought",
    "Called",
    "DeckCut",
    "Discarded",
    "Drew",
    "Event",
    "EventError",
    "GameEnded",
    "HandEmptied",
    "JokerSwapped",
    "LaidDown",
    "LaidOff",
    "PenaltyDrawn",
    "RoundAbandoned",
    "RoundEnded",
    "RoundStarted",
    "StockChosen",
    "StockReshuffled",
    "TookDiscard",
    "UpcardTurned",
    "WentOut",
    "event_from_json",
]


class EventError(ValueError):
    """An event's JSON form is malformed."""


class _EventBase:
    """Shared behaviour of the event types (each a frozen slotted dataclass)."""

    __slots__ = ()
    type: ClassVar[str]
    seat: int | None
    #: names of the fields known only to ``seat``
    private_fields: ClassVar[tuple[str, ...]] = ()

    def public(self) -> Any:
        """The event as seats other than its own see it (private parts blanked)."""
        if not self.private_fields:
            return self
        names, blanks = _PUBLIC[self.__class__]
        return self.__class__(*[blanks[name] if name in blanks else getattr(self, name)
                                for name in names])

    def sees(self, seat: int | None) -> bool:
        """Does ``seat`` (None: a spectator) see this event's private parts?"""
        return seat is not None and self.seat == seat

    def visible_to(self, seat: int | None) -> Any:
        """The event as ``seat`` sees it (None: a spectator)."""
        if not self.private_fields or self.sees(seat):
            return self
        return self.public()

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            d[f.name] = _encode(getattr(self, f.name))
        return d


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Meld):
        return value.to_json()
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class RoundStarted(_EventBase):
    """A round begins: its number, the dealer, the contract and the cards dealt."""

    seq: int
    round: int
    dealer: int
    sets: int
    runs: int
    cards_dealt: int
    type: ClassVar[str] = "round_started"


@dataclass(frozen=True, slots=True)
class DeckCut(_EventBase):
    """``seat`` cut ``count`` cards (the Liverpool cut); ``bonus`` points if exact (else 0)."""

    seq: int
    seat: int
    count: int
    bonus: int
    type: ClassVar[str] = "cut"


@dataclass(frozen=True, slots=True)
class UpcardTurned(_EventBase):
    """The top stock card is turned to start (``refill``: to refill) the discard pile."""

    seq: int
    card: Card
    refill: bool = False
    type: ClassVar[str] = "upcard"


@dataclass(frozen=True, slots=True)
class StockReshuffled(_EventBase):
    """The stock ran out: the discards but the top one became a new stock of ``size`` cards."""

    seq: int
    size: int
    type: ClassVar[str] = "reshuffle"


@dataclass(frozen=True, slots=True)
class StockChosen(_EventBase):
    """The turn player turned down the discard and will draw from the stock
    (the others may now buy the discard)."""

    seq: int
    seat: int
    type: ClassVar[str] = "stock_chosen"


@dataclass(frozen=True, slots=True)
class Drew(_EventBase):
    """``seat`` drew ``card`` from the stock (private: None for the others)."""

    seq: int
    seat: int
    card: Card | None
    type: ClassVar[str] = "draw"
    private_fields: ClassVar[tuple[str, ...]] = ("card",)


@dataclass(frozen=True, slots=True)
class TookDiscard(_EventBase):
    """``seat`` took the top discard ``card`` (``forced``: the stock was empty)."""

    seq: int
    seat: int
    card: Card
    forced: bool = False
    type: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Bought(_EventBase):
    """``seat`` bought ``card`` and took ``penalty_count`` penalty cards (``penalty``: private)."""

    seq: int
    seat: int
    card: Card
    penalty_count: int
    penalty: tuple[Card, ...]
    type: ClassVar[str] = "buy"
    private_fields: ClassVar[tuple[str, ...]] = ("penalty",)


@dataclass(frozen=True, slots=True)
class LaidDown(_EventBase):
    """``seat`` laid down its contract: ``melds``, now on the table from meld ``first`` on."""

    seq: int
    seat: int
    melds: tuple[Meld, ...]
    first: int
    type: ClassVar[str] = "lay_down"


@dataclass(frozen=True, slots=True)
class LaidOff(_EventBase):
    """``seat`` laid ``card`` off on table meld ``meld`` (counting from 0), which became ``result``."""

    seq: int
    seat: int
    card: Card
    meld: int
    result: Meld
    type: ClassVar[str] = "lay_off"


@dataclass(frozen=True, slots=True)
class JokerSwapped(_EventBase):
    """``seat`` put ``card`` in the place of ``wild`` in table meld ``meld`` and took the wild."""

    seq: int
    seat: int
    card: Card
    wild: Card
    meld: int
    position: int
    result: Meld
    type: ClassVar[str] = "swap"


@dataclass(frozen=True, slots=True)
class Discarded(_EventBase):
    """``seat`` discarded ``card`` (``announce``: saying "Shanghai!")."""

    seq: int
    seat: int
    card: Card
    announce: bool = False
    type: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Called(_EventBase):
    """``seat`` called ``call`` (``"liverpool"``, ``"liverpool_pile"``, ``"shanghai"``)
    on ``discarder``'s discard ``card``.

    ``liverpool``: the discarder took the card back (a penalty card follows);
    ``liverpool_pile``: the discarder took the whole pile, ``cards``; ``shanghai``:
    the caller laid the card on table meld ``meld``, which became ``result``.
    """

    seq: int
    seat: int
    discarder: int
    card: Card
    call: str
    cards: tuple[Card, ...] = ()
    meld: int = -1
    result: Meld | None = None
    type: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class PenaltyDrawn(_EventBase):
    """``seat`` took a penalty card (private): from the stock after a Liverpool
    call (``from_seat`` None), or at random from ``from_seat``'s hand after a
    Shanghai call (then ``from_seat`` knows the card too)."""

    seq: int
    seat: int
    card: Card | None
    from_seat: int | None = None
    type: ClassVar[str] = "penalty"
    private_fields: ClassVar[tuple[str, ...]] = ("card",)

    def sees(self, seat: int | None) -> bool:
        return seat is not None and (seat == self.seat or seat == self.from_seat)


@dataclass(frozen=True, slots=True)
class HandEmptied(_EventBase):
    """``seat`` has no cards left but must go out with a discard: its turn ends."""

    seq: int
    seat: int
    type: ClassVar[str] = "hand_empty"


@dataclass(frozen=True, slots=True)
class WentOut(_EventBase):
    """``seat`` went out."""

    seq: int
    seat: int
    type: ClassVar[str] = "out"


@dataclass(frozen=True, slots=True)
class RoundAbandoned(_EventBase):
    """The round ends without a winner: ``"exhausted"`` (no pile can supply a
    card) or ``"stalled"`` (the turn limit of the ruleset)."""

    seq: int
    reason: str
    type: ClassVar[str] = "round_abandoned"


@dataclass(frozen=True, slots=True)
class RoundEnded(_EventBase):
    """Round ``round`` is over: ``winner`` went out (None: nobody); ``scores`` per
    seat, and the cards each seat had left (``hands_left``: shown on the table
    to count them, as at a real table)."""

    seq: int
    round: int
    winner: int | None
    scores: tuple[int, ...]
    hands_left: tuple[tuple[Card, ...], ...] = ()
    type: ClassVar[str] = "round_over"


@dataclass(frozen=True, slots=True)
class GameEnded(_EventBase):
    """The game is over: the ``totals`` and the ``winners`` (the lowest total)."""

    seq: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    type: ClassVar[str] = "game_over"


Event = (RoundStarted | DeckCut | UpcardTurned | StockReshuffled | StockChosen | Drew
         | TookDiscard | Bought | LaidDown | LaidOff | JokerSwapped | Discarded
         | Called | PenaltyDrawn | HandEmptied | WentOut | RoundAbandoned | RoundEnded
         | GameEnded)

#: every event type by its JSON ``type`` tag
EVENT_TYPES: dict[str, type[Any]] = {cls.type: cls for cls in (
    RoundStarted, DeckCut, UpcardTurned, StockReshuffled, StockChosen, Drew, TookDiscard,
    Bought, LaidDown, LaidOff, JokerSwapped, Discarded, Called, PenaltyDrawn,
    HandEmptied, WentOut, RoundAbandoned, RoundEnded, GameEnded)}


def _public_parts(cls: type[Any]) -> tuple[list[str], dict[str, Any]]:
    names = [f.name for f in fields(cls)]
    blanks = {name: (() if str(f.type).startswith("tuple") else None)
              for f in fields(cls) for name in [f.name] if name in cls.private_fields}
    return names, blanks


def _decoder(annotation: str) -> Callable[[Any], Any]:
    def card(v: Any) -> Card:
        if not isinstance(v, str):
            raise EventError(f"a card must be text, not {v!r}")
        return Card.parse(v)

    def meld(v: Any) -> Meld:
        if not isinstance(v, dict):
            raise EventError(f"a meld must be an object, not {v!r}")
        return Meld.from_json(v)

    def many(item: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def decode(v: Any) -> tuple[Any, ...]:
            if not isinstance(v, list):
                raise EventError(f"a list is needed, not {v!r}")
            return tuple(item(x) for x in v)
        return decode

    def optional(item: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda v: None if v is None else item(v)

    def plain(kind: type) -> Callable[[Any], Any]:
        def decode(v: Any) -> Any:
            if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
                raise EventError(f"{v!r} is not a {kind.__name__}")
            return v
        return decode

    table: dict[str, Callable[[Any], Any]] = {
        "int": plain(int), "str": plain(str), "bool": plain(bool),
        "int | None": optional(plain(int)),
        "Card": card, "Card | None": optional(card),
        "Meld": meld, "Meld | None": optional(meld),
        "tuple[Card, ...]": many(card), "tuple[Meld, ...]": many(meld),
        "tuple[int, ...]": many(plain(int)),
        "tuple[tuple[Card, ...], ...]": many(many(card)),
    }
    return table[annotation]


_DECODERS: dict[str, list[tuple[str, Callable[[Any], Any]]]] = {
    tag: [(f.name, _decoder(str(f.type))) for f in fields(cls)]
    for tag, cls in EVENT_TYPES.items()
}


#: per event type with private parts: its field names, and the blanks of the private ones
_PUBLIC: dict[type[Any], tuple[list[str], dict[str, Any]]] = {}


def event_from_json(data: object) -> Event:
    """Read an event from its JSON form; raises :class:`EventError` when malformed."""
    if not isinstance(data, dict):
        raise EventError("an event must be a JSON object with a 'type'")
    tag = data.get("type")
    cls = EVENT_TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise EventError(f"unknown event type {tag!r}")
    kwargs: dict[str, Any] = {}
    try:
        for name, decode in _DECODERS[tag]:  # type: ignore[index]
            if name in data:
                kwargs[name] = decode(data[name])
        event: Event = cls(**kwargs)
    except (CardError, MeldError, KeyError, TypeError) as e:
        raise EventError(f"a {tag} event is malformed: {e}") from None
    return event


_PUBLIC.update({cls: _public_parts(cls) for cls in EVENT_TYPES.values() if cls.private_fields})
