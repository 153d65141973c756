"""The game's state and its chance: plain data, no rules.

:class:`State` is everything that changes during a game; :class:`Chance` is the
game's only source of randomness (a seeded :class:`Rng`, or for a fair deal a
:class:`KeyedRng` with a secret key) together with the log of every chance
outcome — the deck order of each deal and reshuffle, each random pick — so a
record replays exactly from the outcomes themselves.
"""

from __future__ import annotations

import hashlib
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

from ..actions import Action
from ..cards import Card, CardError, format_cards
from ..errors import RecordError, is_whole, shown_value

__all__ = ["PHASES", "Chance", "ChanceError", "KeyedRng", "Outcome", "Phase", "Results", "Rng",
           "State", "outcome_from_json", "outcome_to_json"]

Phase = Literal["cut", "draw", "buy", "play", "call", "game_over"]
#: every phase name
PHASES: tuple[str, ...] = ("cut", "draw", "buy", "play", "call", "game_over")
_MASK64 = (1 << 64) - 1
_new_object = object.__new__
_KEPT_BELOW = (1 << 64) - 256  # see Rng.shuffle


class _Stream(ABC):
    """What the two generators share: uniform draws from their 64-bit words."""

    __slots__ = ()

    @abstractmethod
    def next64(self) -> int:
        """The next 64-bit word: each generator (Rng, KeyedRng) makes its own."""

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Rng(_Stream):
    """A small seeded generator (SplitMix64): the game's only source of chance.

    Its whole state is one integer, so a game state stays small and serializes
    exactly; the same seed gives the same shuffles on every Python version.

    >>> r = Rng(1); [r.below(10) for _ in range(5)]
    [5, 9, 0, 5, 1]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def shuffle(self, items: list[Any]) -> None:
        # below() and next64() inline: the same numbers, without the calls
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            # below()'s limit, 2**64 - 2**64 % n, is above 2**64 - n: a number
            # below 2**64 - 256 is kept for any n <= 256 (its exact test, a bignum
            # remainder, is left for the rest)
            quick = _KEPT_BELOW if n <= 256 else 0
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK64
                z = state
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                x = z ^ (z >> 31)
                if x < quick or x < (1 << 64) - ((1 << 64) % n):
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def copy(self) -> Rng:
        return Rng(self.state)


class KeyedRng(_Stream):
    """The chance of a fair deal: a stream keyed by a secret ``key`` (16 to 64
    bytes; :meth:`new` draws 32 from the OS's CSPRNG).

    Word *i* of the stream is keyed BLAKE2b of *i* (a pseudorandom function of
    the key), so without the key no outcome can be predicted from the others
    — not the deal from one's own hand, as a short seed allows — and with it
    the stream is the same on every Python version. Its state is the key and
    the count of words used.

    >>> a, b = KeyedRng(bytes(32)), KeyedRng(bytes(32))
    >>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
    True
    >>> KeyedRng.new().key != KeyedRng.new().key
    True
    """

    __slots__ = ("key", "state")

    def __init__(self, key: bytes, state: int = 0) -> None:
        if not isinstance(key, bytes) or not 16 <= len(key) <= 64:
            raise ValueError("a deal key is 16 to 64 bytes")
        self.key = key
        self.state = state

    @classmethod
    def new(cls) -> KeyedRng:
        """A stream with a fresh 256-bit key from :mod:`secrets`."""
        return cls(secrets.token_bytes(32))

    def next64(self) -> int:
        word = hashlib.blake2b(self.state.to_bytes(16, "little"), key=self.key,
                               digest_size=8).digest()
        self.state += 1
        return int.from_bytes(word, "little")

    def copy(self) -> KeyedRng:
        return KeyedRng(self.key, self.state)


class ChanceError(RecordError):
    """A recorded chance outcome does not fit the game being replayed: a
    :class:`~liverpool.errors.RecordError` with one of the ``outcome_*``
    problems."""


#: a chance outcome: ("deal", deck order, top last) | ("reshuffle", new stock) |
#: ("pick", index) (a random card of a hand) | ("cut", cards actually cut)
Outcome = tuple[str, Any]


class Chance:
    """The game's randomness and the log of its outcomes.

    Live, it draws from :attr:`rng` and logs each outcome. Given recorded
    ``outcomes``, it replays them in order instead (still advancing the
    generator, so a game continued past its record goes on as it would have),
    checking each against what the game asks for.

    >>> from liverpool.cards import parse_cards
    >>> live = Chance(Rng(3))
    >>> deck = live.shuffle("deal", parse_cards("AS 2S 3S 4S"))
    >>> again = Chance(Rng(99), live.log)   # another seed: the outcomes decide
    >>> again.shuffle("deal", parse_cards("AS 2S 3S 4S")) == deck
    True
    """

    __slots__ = ("log", "outcomes", "rng")

    def __init__(self, rng: Rng | KeyedRng, outcomes: list[Outcome] | None = None) -> None:
        self.rng = rng
        self.log: list[Outcome] = []
        self.outcomes = outcomes

    def _recorded(self, kind: str) -> Any:
        outcomes = self.outcomes
        i = len(self.log)
        if outcomes is None or i >= len(outcomes):
            return None
        got_kind, value = outcomes[i]
        if got_kind != kind:
            raise ChanceError.of("outcome_wrong_kind", number=i + 1, got=got_kind, kind=kind)
        return value

    def shuffle(self, kind: str, cards: list[Card]) -> list[Card]:
        """``cards`` shuffled (in place; returned): a ``"deal"`` or ``"reshuffle"``."""
        recorded = self._recorded(kind)
        self.rng.shuffle(cards)
        if recorded is not None:
            if sorted(c.index for c in recorded) != sorted(c.index for c in cards):
                raise ChanceError.of("outcome_wrong_cards", number=len(self.log) + 1, kind=kind)
            cards[:] = recorded
        self.log.append((kind, tuple(cards)))
        return cards

    def below(self, kind: str, n: int) -> int:
        """A uniform integer in ``[0, n)``: a ``"pick"`` or a ``"cut"``."""
        recorded = self._recorded(kind)
        value = self.rng.below(n)
        if recorded is not None:
            if not isinstance(recorded, int) or not 0 <= recorded < n:
                raise ChanceError.of("outcome_range", number=len(self.log) + 1, kind=kind,
                                     top=n - 1)
            value = recorded
        self.log.append((kind, value))
        return value

    def copy(self) -> Chance:
        other = Chance(self.rng.copy(), self.outcomes)
        other.log = list(self.log)
        return other


@dataclass(frozen=True, slots=True)
class Results:
    """The score sheet: points per round and totals; ``winners`` share the lowest total."""

    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(slots=True)
class State:
    """Everything that changes during a game (hidden cards included)."""

    round: int = 0
    dealer: int = 0
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    #: who discarded each card of the pile (-1: turned up from the stock)
    discarders: list[int] = field(default_factory=list)
    table: list[Any] = field(default_factory=list)  # Meld
    owners: list[int] = field(default_factory=list)
    down: list[bool] = field(default_factory=list)
    down_turn: list[int] = field(default_factory=list)
    buys: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)
    phase: Phase = "draw"
    turn_player: int = 0
    turn_number: int = 0
    #: the seats of an open buy or call window that have not answered, in priority order
    queue: list[int] = field(default_factory=list)
    #: answers (a buy or a call) given out of order, waiting for the seats before them
    pending: dict[int, Action] = field(default_factory=dict)
    last_buyer: int = -1
    stock_chosen: bool = False
    call_card: Card | None = None
    pending_wilds: int = 0
    cut_bonus_seat: int = -1
    #: the lay-down being built by the turn player (per contract meld) and the
    #: order it was built in: (meld, end) per card
    staged: list[list[Card]] = field(default_factory=list)
    stage_log: list[tuple[int, str | None]] = field(default_factory=list)

    def copy(self) -> State:
        """An independent copy: every list and dict is new, the cards and melds
        (immutable) are shared. Each field is set by its name (a field left out
        would raise AttributeError when read, never take another's value)."""
        new = _new_object(State)
        new.round = self.round
        new.dealer = self.dealer
        new.hands = [list(h) for h in self.hands]
        new.stock = list(self.stock)
        new.discards = list(self.discards)
        new.discarders = list(self.discarders)
        new.table = list(self.table)
        new.owners = list(self.owners)
        new.down = list(self.down)
        new.down_turn = list(self.down_turn)
        new.buys = list(self.buys)
        new.round_scores = [list(r) for r in self.round_scores]
        new.phase = self.phase
        new.turn_player = self.turn_player
        new.turn_number = self.turn_number
        new.queue = list(self.queue)
        new.pending = dict(self.pending)
        new.last_buyer = self.last_buyer
        new.stock_chosen = self.stock_chosen
        new.call_card = self.call_card
        new.pending_wilds = self.pending_wilds
        new.cut_bonus_seat = self.cut_bonus_seat
        new.staged = [list(m) for m in self.staged]
        new.stage_log = list(self.stage_log)
        return new



def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """A chance outcome as JSON data: ``{"deal": "cards, top last"}``, ``{"pick": 3}``."""
    kind, value = outcome
    if kind in ("deal", "reshuffle"):
        return {kind: format_cards(value)}
    return {kind: value}


def outcome_from_json(data: Any, number: int = 1) -> Outcome:
    """Read a chance outcome from :func:`outcome_to_json` data; a bad one raises a
    :class:`~liverpool.errors.RecordError` that names it as outcome ``number``
    (its place in the record's ``chance``, from 1).

    >>> outcome_from_json({"cut": 3})
    ('cut', 3)
    >>> outcome_from_json({"cut": "3"}, 2)
    Traceback (most recent call last):
    ...
    liverpool.errors.RecordError: chance outcome 2 (cut) must be a whole number
    """
    if not isinstance(data, dict) or len(data) != 1:
        raise RecordError.of("outcome_shape", number=number)
    ((kind, value),) = data.items()
    if kind in ("deal", "reshuffle"):
        if not isinstance(value, str):
            raise RecordError.of("outcome_cards", number=number, kind=kind)
        try:
            return kind, tuple(Card.parse(t) for t in value.split())
        except CardError as e:
            raise RecordError.of("outcome_card", e, number=number, kind=kind) from None
    if kind in ("pick", "cut"):
        if not is_whole(value):
            raise RecordError.of("outcome_number", number=number, kind=kind)
        return kind, value
    raise RecordError.of("outcome_kind", number=number, kind=shown_value(kind))
