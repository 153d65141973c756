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

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .cards import Card, CardError
from .melds import Meld, MeldError

__all__ = [
    "Action",
    "ActionError",
    "Buy",
    "Call",
    "Cut",
    "Discard",
    "Draw",
    "LayDown",
    "LayOff",
    "Pass",
    "SwapJoker",
    "action_from_json",
]


class ActionError(ValueError):
    """An action is malformed or not legal now; the message says why."""


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
    """Lay down the round's contract: all its melds at once."""

    melds: tuple[Meld, ...]
    type: ClassVar[str] = "lay_down"

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


Action = Draw | Buy | Pass | LayDown | LayOff | SwapJoker | Discard | Call | Cut


def _card(data: dict[str, Any], key: str = "card") -> Card:
    value = data.get(key)
    if not isinstance(value, str):
        raise ActionError(f"the action needs a card in '{key}', e.g. \"9H\"")
    try:
        return Card.parse(value)
    except CardError as e:
        raise ActionError(str(e)) from None


def _int(data: dict[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionError(f"the action needs a whole number in '{key}'")
    return value


def _end(data: dict[str, Any]) -> Literal["low", "high"] | None:
    value = data.get("end")
    if value is None:
        return None
    if value == "low":
        return "low"
    if value == "high":
        return "high"
    raise ActionError("'end' must be \"low\", \"high\" or null")


def action_from_json(data: object) -> Action:
    """Read an action from its JSON form; raises :class:`ActionError` when malformed."""
    if not isinstance(data, dict):
        raise ActionError("an action must be a JSON object with a 'type'")
    kind = data.get("type")
    if kind == "draw":
        source = data.get("source")
        if source == "stock":
            return Draw("stock")
        if source == "discard":
            return Draw("discard")
        raise ActionError("a draw needs 'source': \"stock\" or \"discard\"")
    if kind == "buy":
        return Buy()
    if kind == "pass":
        return Pass()
    if kind == "lay_down":
        melds = data.get("melds")
        if not isinstance(melds, list) or not melds:
            raise ActionError("a lay-down needs a list of 'melds'")
        try:
            return LayDown(tuple(Meld.from_json(m) if isinstance(m, dict) else _bad_meld(m)
                                 for m in melds))
        except (MeldError, CardError, KeyError) as e:
            raise ActionError(f"a meld of the lay-down is malformed: {e}") from None
    if kind == "lay_off":
        return LayOff(_card(data), _int(data, "meld"), _end(data))
    if kind == "swap_joker":
        return SwapJoker(_card(data), _int(data, "meld"), _int(data, "position"))
    if kind == "discard":
        announce = data.get("announce", False)
        if not isinstance(announce, bool):
            raise ActionError("'announce' must be true or false")
        return Discard(_card(data), announce)
    if kind == "call":
        return Call(_int(data, "meld", -1), _end(data))
    if kind == "cut":
        return Cut(_int(data, "count"))
    raise ActionError(f"unknown action type {kind!r}; the types are draw, buy, pass, lay_down, "
                      "lay_off, swap_joker, discard, call, cut")


def _bad_meld(m: object) -> Meld:
    raise ActionError(f"a meld must be an object with kind, cards and rank, not {m!r}")
