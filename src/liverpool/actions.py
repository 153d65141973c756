"""Actions: the decisions a player makes, as small frozen values with a JSON form.

Every action is one of a fixed, finite set of types, each with a finite set of
parameters (cards, meld positions on the table, counts), so the action space of
a game is finite and can be encoded for learning agents.

>>> from liverpool.cards import Card
>>> Discard(Card.parse("KS")).to_json()
{'type': 'discard', 'card': 'KS', 'announce': False}
>>> action_from_json({'type': 'draw', 'source': 'stock'})
Draw(source='stock')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from .cards import Card, CardError
from .errors import GameError, is_whole, shown_value
from .melds import Meld, MeldError

__all__ = [
    "Action",
    "ActionError",
    "Buy",
    "Call",
    "CommitLayDown",
    "Cut",
    "Discard",
    "Draw",
    "LayDown",
    "LayOff",
    "NotYourTurn",
    "Pass",
    "Stage",
    "StaleAction",
    "SwapJoker",
    "Unstage",
    "action_from_json",
    "action_problem",
]


class ActionError(GameError):
    """An action is malformed or not legal now: ``code`` and ``params`` say why
    (:mod:`liverpool.i18n` renders them); ``str()`` is the English reason."""


class NotYourTurn(ActionError):
    """An action for a seat that may not act now."""


class StaleAction(ActionError):
    """An action made against an older version of the game."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the top card of the ``"stock"`` or take the top ``"discard"``."""

    source: Literal["stock", "discard"]
    type: ClassVar[str] = "draw"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "source": self.source}

    def describe(self) -> str:
        return "draw from the stock" if self.source == "stock" else "take the discard"


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy the offered discard (out of turn), with the penalty card(s)."""

    type: ClassVar[str] = "buy"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}

    def describe(self) -> str:
        return "buy the discard"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline a buy or a call."""

    type: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}

    def describe(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class LayDown:
    """Lay down the round's contract: all its melds at once.

    The lay-down that :meth:`~liverpool.Game.legal_actions` suggests may work
    its melds out only when they are first read (see :meth:`suggested`): it is
    the same value, equal, hashed, shown and saved alike, as one made with them.

    >>> from liverpool import parse_cards
    >>> melds = (Meld("set", tuple(parse_cards("7H 7S 7D")), 7),)
    >>> later = LayDown.suggested(lambda: melds)
    >>> later == LayDown(melds), later.melds == melds
    (True, True)
    """

    melds: tuple[Meld, ...]
    #: for a suggestion whose melds are not worked out yet: what gives them
    _make: Callable[[], tuple[Meld, ...]] | None = field(
        default=None, init=False, repr=False, compare=False)
    type: ClassVar[str] = "lay_down"

    @classmethod
    def suggested(cls, make: Callable[[], tuple[Meld, ...]]) -> LayDown:
        """A lay-down whose melds are ``make()``, called once when they are first
        read (``make`` must give the same melds whenever it is called)."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "_make", make)
        return obj

    if not TYPE_CHECKING:
        def __getattr__(self, name):
            # reached only for a field not set: the melds of a suggestion, not
            # worked out yet
            make = self._make if name == "melds" else None
            if make is None:
                raise AttributeError(name)
            melds = make()
            object.__setattr__(self, "melds", melds)
            object.__setattr__(self, "_make", None)
            return melds

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "melds": [m.to_json() for m in self.melds]}

    def describe(self) -> str:
        return "lay down " + " | ".join(str(m) for m in self.melds)


@dataclass(frozen=True, slots=True)
class LayOff:
    """Lay ``card`` off on table meld number ``meld``; for runs, at the ``end``."""

    card: Card
    meld: int
    end: Literal["low", "high"] | None = None
    type: ClassVar[str] = "lay_off"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card": str(self.card), "meld": self.meld, "end": self.end}

    def describe(self) -> str:
        where = f" at the {self.end} end" if self.end else ""
        return f"lay off {self.card} on meld {self.meld + 1}{where}"


@dataclass(frozen=True, slots=True)
class SwapJoker:
    """Put ``card`` in the place of the wild at ``position`` of meld ``meld`` and take the wild."""

    card: Card
    meld: int
    position: int
    type: ClassVar[str] = "swap_joker"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card": str(self.card), "meld": self.meld,
                "position": self.position}

    def describe(self) -> str:
        return f"swap {self.card} for the wild card in meld {self.meld + 1}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card``, ending the turn; ``announce`` says "Shanghai!" (protects it)."""

    card: Card
    announce: bool = False
    type: ClassVar[str] = "discard"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card": str(self.card), "announce": self.announce}

    def describe(self) -> str:
        return f"discard {self.card}" + (' saying "Shanghai!"' if self.announce else "")


@dataclass(frozen=True, slots=True)
class Call:
    """Call "Liverpool!" (or "Shanghai!") on the last discard. For Shanghai,
    ``meld``/``end`` say where the caller lays the card."""

    meld: int = -1
    end: Literal["low", "high"] | None = None
    type: ClassVar[str] = "call"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "meld": self.meld, "end": self.end}

    def describe(self) -> str:
        return "call" if self.meld < 0 else f"call and lay the card on meld {self.meld + 1}"


@dataclass(frozen=True, slots=True)
class Cut:
    """Cut the deck before the deal, naming how many cards to lift (Liverpool cut)."""

    count: int
    type: ClassVar[str] = "cut"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "count": self.count}

    def describe(self) -> str:
        return f"cut {self.count} cards"


@dataclass(frozen=True, slots=True)
class Stage:
    """Put ``card`` from the hand into meld ``meld`` (counting from 0, in the
    contract's order: sets, then runs) of a lay-down being built; for a run, at
    its ``end`` (``"high"`` appends, ``"low"`` puts it first). The cards stay in
    the hand until :class:`CommitLayDown` lays the contract down at once."""

    card: Card
    meld: int
    end: Literal["low", "high"] | None = None
    type: ClassVar[str] = "stage"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "card": str(self.card), "meld": self.meld, "end": self.end}

    def describe(self) -> str:
        where = f" at the {self.end} end" if self.end else ""
        return f"put {self.card} into meld {self.meld + 1} of the lay-down{where}"


@dataclass(frozen=True, slots=True)
class Unstage:
    """Take back the card put into the lay-down last."""

    type: ClassVar[str] = "unstage"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}

    def describe(self) -> str:
        return "take back the last card of the lay-down"


@dataclass(frozen=True, slots=True)
class CommitLayDown:
    """Lay down the melds built with :class:`Stage`: the whole contract at once."""

    type: ClassVar[str] = "commit"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}

    def describe(self) -> str:
        return "lay down the melds you built"


Action = (Draw | Buy | Pass | LayDown | LayOff | SwapJoker | Discard | Call | Cut | Stage
          | Unstage | CommitLayDown)


def _card(data: dict[str, Any], key: str = "card") -> Card:
    value = data.get(key)
    if not isinstance(value, str):
        raise ActionError("action_needs_card", key=key)
    try:
        return Card.parse(value)
    except CardError as e:
        raise ActionError(e.code, **e.params) from None


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not is_whole(value):
        raise ActionError("action_needs_number", key=key)
    return value


def _end(data: dict[str, Any]) -> Literal["low", "high"] | None:
    value = data.get("end")
    if value is None:
        return None
    if value == "low":
        return "low"
    if value == "high":
        return "high"
    raise ActionError("action_bad_end")


def action_from_json(data: object) -> Action:
    """Read an action from its JSON form; raises :class:`ActionError` when malformed."""
    if not isinstance(data, dict):
        raise ActionError("action_not_object")
    kind = data.get("type")
    if kind == "draw":
        source = data.get("source")
        if source == "stock":
            return Draw("stock")
        if source == "discard":
            return Draw("discard")
        raise ActionError("action_bad_source")
    if kind == "buy":
        return Buy()
    if kind == "pass":
        return Pass()
    if kind == "lay_down":
        melds = data.get("melds")
        if not isinstance(melds, list) or not melds:
            raise ActionError("action_needs_melds")
        try:
            return LayDown(tuple(Meld.from_json(m) if isinstance(m, dict) else _bad_meld()
                                 for m in melds))
        except (MeldError, CardError, KeyError, TypeError, ValueError):
            raise ActionError("action_bad_meld") from None
    if kind == "lay_off":
        return LayOff(_card(data), _int(data, "meld"), _end(data))
    if kind == "swap_joker":
        return SwapJoker(_card(data), _int(data, "meld"), _int(data, "position"))
    if kind == "discard":
        announce = data.get("announce", False)
        if not isinstance(announce, bool):
            raise ActionError("action_bad_announce")
        return Discard(_card(data), announce)
    if kind == "call":
        return Call(_int(data, "meld", -1), _end(data))
    if kind == "cut":
        return Cut(_int(data, "count"))
    if kind == "stage":
        return Stage(_card(data), _int(data, "meld"), _end(data))
    if kind == "unstage":
        return Unstage()
    if kind == "commit":
        return CommitLayDown()
    shown = kind if isinstance(kind, str) and len(kind) <= 40 else str(kind)[:40]
    raise ActionError("action_unknown", kind=repr(shown))


def _bad_meld() -> Meld:
    raise ActionError("action_bad_meld")


def action_problem(action: Action) -> ActionError | None:
    """What is wrong with the fields of ``action``, an action made in Python
    (a card that is no :class:`~liverpool.cards.Card`, a meld number that is
    no whole number, an end other than ``"low"``, ``"high"`` or None, …), or
    None when every field has a right type. Whether the action is legal is
    another question (:meth:`Game.apply <liverpool.Game.apply>` asks both).

    >>> str(action_problem(Discard("9H")))
    "discard: the card must be a Card, such as Card.parse('9H'), not '9H'"
    >>> print(action_problem(LayOff(Card.parse("9H"), 0, "top")))
    'end' must be "low", "high" or null
    >>> action_problem(LayOff(Card.parse("9H"), 0, "high")) is None
    True
    """
    cls = action.__class__  # (the common actions, quickly)
    if cls is Pass or cls is Buy or (
            cls is Discard and action.card.__class__ is Card  # type: ignore[union-attr]
            and action.announce.__class__ is bool):  # type: ignore[union-attr]
        return None
    kind = action.type
    if isinstance(action, Draw):
        return None if action.source in ("stock", "discard") else ActionError("action_bad_source")
    if isinstance(action, LayOff | SwapJoker | Discard | Stage) and not isinstance(
            action.card, Card):
        return ActionError("action_card_type", kind=kind, value=shown_value(action.card))
    numbers: tuple[tuple[str, object], ...] = ()
    if isinstance(action, LayOff | Stage | Call):
        numbers = (("meld", action.meld),)
        if action.end not in (None, "low", "high"):
            return ActionError("action_bad_end")
    elif isinstance(action, SwapJoker):
        numbers = (("meld", action.meld), ("position", action.position))
    elif isinstance(action, Cut):
        numbers = (("count", action.count),)
    elif isinstance(action, Discard) and not isinstance(action.announce, bool):
        return ActionError("action_bad_announce")
    elif isinstance(action, LayDown):
        if action._make is not None:  # a suggestion of the engine, not worked out yet
            return None
        melds = action.melds
        if not isinstance(melds, tuple | list) or not melds or not all(
                isinstance(m, Meld) and m.kind in ("set", "run") and is_whole(m.rank)
                and is_whole(m.suit) and isinstance(m.cards, tuple | list)
                and all(isinstance(c, Card) for c in m.cards) for m in melds):
            return ActionError("action_bad_meld")
    for key, value in numbers:
        if not is_whole(value):
            return ActionError("action_number_type", kind=kind, key=key, value=shown_value(value))
    return None
