"""The game: one state machine for a whole game of Liverpool.

At every decision point :attr:`Game.to_move` says who decides and
:meth:`Game.legal_actions` lists what they may do; :meth:`Game.apply` accepts
exactly those (and any legal lay-down, see below) and raises
:class:`~liverpool.actions.ActionError` with the reason for anything else,
changing nothing.

Lay-downs are combinatorial: :meth:`Game.legal_actions` lists one suggested
lay-down when one exists; :meth:`Game.lay_downs` iterates the others lazily and
:meth:`Game.check_lay_down` checks a proposed one.

>>> from liverpool import Game, load_rules
>>> game = Game(load_rules("liverpool"), players=4, seed=7)
>>> game.round, game.to_move, game.phase
(1, 0, 'draw')
>>> sorted({a.type for a in game.legal_actions()})
['draw']
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[-1])
>>> len(game.results().totals)
4
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from .actions import (
    Action,
    ActionError,
    Buy,
    Call,
    Cut,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    SwapJoker,
)
from .cards import Card, format_cards, make_deck
from .melds import (
    End,
    Meld,
    MeldError,
    check_lay_down,
    find_lay_down,
    iter_lay_downs,
    lay_down_may_use,
    lay_down_mode,
    lay_off,
    meld_error,
    swap_joker,
)
from .rules import Rules, RulesError

if TYPE_CHECKING:
    from .views import SeatView

__all__ = ["Event", "Game", "Results", "Rng"]

Phase = Literal["cut", "draw", "buy", "play", "call", "game_over"]
_MASK64 = (1 << 64) - 1
_KEPT_BELOW = (1 << 64) - 256  # see Rng.shuffle


class Rng:
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


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in words a UI can show.

    ``cards`` are public; ``private`` cards are known only to ``seat`` (the card
    a player drew from the stock, say) and appear only in that seat's view.
    """

    kind: str
    seat: int | None
    text: str
    cards: tuple[Card, ...] = ()
    private: tuple[Card, ...] = ()

    def to_json(self, *, for_seat: int | None = None, full: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "text": self.text,
                             "cards": [str(c) for c in self.cards]}
        if self.private and (full or (for_seat is not None and for_seat == self.seat)):
            d["private"] = [str(c) for c in self.private]
        return d


def _fast_constructor(cls: type[Any], fixed: tuple[str, ...] = ()) -> Callable[..., Any]:
    """A constructor of the frozen slotted dataclass ``cls`` taking every field
    positionally, in field order: the same object as ``cls(*fields)`` (there is
    no ``__post_init__``) at a fraction of the cost of the frozen dataclass's
    ``__init__``. For the events the game makes and the views
    :class:`liverpool.simulate.SeatViews` builds for every decision.

    With ``fixed`` (some of the field names), the constructor takes first one
    tuple of the values of those fields (in field order), then the others.

    The object is made as an instance of a plain class with the same slots
    (plain attribute stores, no frozen ``__setattr__``) and then given its real
    class: the two lay out their slots alike, so Python allows the switch. If
    it does not (another Python), the slots are set through their descriptors.
    """
    names = [f.name for f in fields(cls)]
    twin = type(f"_{cls.__name__}Twin", (), {"__slots__": tuple(names)})
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    fixed_names = [name for name in names if name in fixed]
    value = {name: f"_fixed[{i}]" for i, name in enumerate(fixed_names)}
    args = ", ".join((["_fixed"] if fixed else []) + [n for n in names if n not in value])
    source = (f"def build({args}):\n    obj = _new(_twin)\n"
              + "".join(f"    obj.{name} = {value.get(name, name)}\n" for name in names)
              + "    obj.__class__ = _cls\n    return obj\n")
    exec(source, namespace)  # noqa: S102 - fixed source built from the field names
    build: Callable[..., Any] = namespace["build"]
    try:
        values = list(range(len(names)))
        probe = build(*([tuple(values[i] for i, n in enumerate(names) if n in value)]
                        if fixed else []),
                      *[values[i] for i, n in enumerate(names) if n not in value])
        ok = type(probe) is cls and [getattr(probe, n) for n in names] == values
    except TypeError:
        ok = False
    if ok:
        return build
    namespace = {"_new": object.__new__, "_cls": cls}
    body = []
    for i, name in enumerate(names):
        namespace[f"_set{i}"] = cls.__dict__[name].__set__  # the slot's descriptor
        body.append(f"    _set{i}(obj, {value.get(name, name)})\n")
    source = (f"def build({args}):\n    obj = _new(_cls)\n"
              + "".join(body) + "    return obj\n")
    exec(source, namespace)  # noqa: S102 - fixed source built from the field names
    build = namespace["build"]
    return build


_new_event: Callable[[str, int | None, str, tuple[Card, ...], tuple[Card, ...]], Event] = \
    _fast_constructor(Event)


@dataclass(frozen=True, slots=True)
class Results:
    """The score sheet: points per round and totals; ``winners`` share the lowest total."""

    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(slots=True)
class _State:
    round: int = 0
    dealer: int = 0
    hands: list[list[Card]] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    discards: list[Card] = field(default_factory=list)
    table: list[Meld] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)
    down: list[bool] = field(default_factory=list)
    down_turn: list[int] = field(default_factory=list)
    buys: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)
    phase: Phase = "draw"
    turn_player: int = 0
    turn_number: int = 0
    queue: list[int] = field(default_factory=list)
    last_buyer: int = -1
    stock_chosen: bool = False
    call_card: Card | None = None
    pending_wilds: int = 0
    cut_bonus_seat: int = -1


class Game:
    """A whole game of Liverpool for ``players`` players under ``rules``.

    Seats are numbered 0..players-1 clockwise (to the left). The last seat deals
    the first round, so seat 0 plays first; the deal moves one seat each round.
    """

    def __init__(self, rules: Rules, players: int = 4, seed: int = 0) -> None:
        lo, hi = rules.players
        if not isinstance(players, int) or not lo <= players <= hi:
            raise RulesError(f"this ruleset is for {lo} to {hi} players, not {players}")
        self.rules = rules
        self.num_players = players
        self.seed = seed
        self.rng = Rng(seed)
        self.history: list[Action] = []
        self.events: list[Event] = []
        self.s = _State()
        self.s.round_scores = []
        self._legal: list[Action] | None = None
        self._version = 0
        # bumped whenever the table, its owners, who is down (and when) or the
        # buys change (for liverpool.simulate.SeatViews)
        self._layout_version = 0
        # per seat: (rules, round, card counts by index) of a hand found to have no lay-down
        self._no_lay_down: list[tuple[Rules, int, list[int]] | None] = [None] * players
        self._fit_memo: dict[tuple[int, int, str | None], tuple[Meld, bool]] = {}  # see _fits
        self._start_round(1)

    # ------------------------------------------------------------ properties
    @property
    def round(self) -> int:
        """The current round, counting from 1."""
        return self.s.round

    @property
    def phase(self) -> Phase:
        return self.s.phase

    @property
    def is_over(self) -> bool:
        return self.s.phase == "game_over"

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now (None when the game is over)."""
        s = self.s
        if s.phase == "game_over":
            return None
        if s.phase in ("buy", "call"):
            return s.queue[0]
        if s.phase == "cut":
            return (s.dealer - 1) % self.num_players
        return s.turn_player

    @property
    def dealer(self) -> int:
        return self.s.dealer

    @property
    def turn_player(self) -> int:
        return self.s.turn_player

    def hand(self, seat: int) -> list[Card]:
        """A copy of ``seat``'s hand (hidden information: give it only to that seat)."""
        return list(self.s.hands[seat])

    @property
    def table(self) -> list[Meld]:
        return list(self.s.table)

    @property
    def table_owners(self) -> list[int]:
        return list(self.s.owners)

    @property
    def discards(self) -> list[Card]:
        return list(self.s.discards)

    @property
    def stock_size(self) -> int:
        return len(self.s.stock)

    # --------------------------------------------------------------- rounds
    def _start_round(self, round: int) -> None:
        s = self.s
        n = self.num_players
        s.round = round
        s.dealer = (round - 2) % n  # round 1: the last seat deals, seat 0 starts
        s.hands = [[] for _ in range(n)]
        self._layout_version += 1
        s.table = []
        s.owners = []
        s.down = [False] * n
        s.down_turn = [-1] * n
        s.buys = [0] * n
        s.turn_number = 0
        s.queue = []
        s.last_buyer = -1
        s.stock_chosen = False
        s.call_card = None
        s.pending_wilds = 0
        s.cut_bonus_seat = -1
        deck = make_deck(self.rules.decks_for(n), self.rules.jokers_for(n))
        self.rng.shuffle(deck)
        s.stock = deck
        s.discards = []
        self._event("round", None, f"Round {round}: the contract is "
                    f"{self.rules.contract(round).describe()}; seat {s.dealer + 1} deals "
                    f"{self.rules.cards_dealt(round)} cards.")
        if self.rules.liverpool_cut:
            s.phase = "cut"
            self._legal = None
            return
        self._deal()

    def _deal(self) -> None:
        s = self.s
        n = self.num_players
        for _ in range(self.rules.cards_dealt(s.round)):
            for k in range(1, n + 1):
                s.hands[(s.dealer + k) % n].append(s.stock.pop())
        if self.rules.initial_upcard:
            card = s.stock.pop()
            s.discards.append(card)
            self._event("upcard", None, f"The upcard is {card}.", (card,))
        self._start_turn((s.dealer + 1) % n)

    def _start_turn(self, seat: int) -> None:
        s = self.s
        s.turn_number += 1
        s.turn_player = seat
        s.stock_chosen = False
        s.last_buyer = -1
        s.pending_wilds = 0
        if s.turn_number > self.rules.max_turns_per_round:
            self._event("stalled", None, "The round has gone on too long and ends without a winner.")
            self._end_round(None)
            return
        self._offer_discard()

    def _refill(self) -> None:
        s = self.s
        # an emptied pile: without an upcard the pile is empty, not emptied, until
        # the round's first discard (which is made in its first turn)
        if (not s.discards and self.rules.refill_empty_discard and s.stock
                and (self.rules.initial_upcard or s.turn_number > 1)):
            card = s.stock.pop()
            s.discards.append(card)
            self._event("refill", None, f"{card} is turned up from the stock.", (card,))

    def _buyers(self) -> list[int]:
        """The seats that may buy the top discard now, in buying order."""
        s = self.s
        rules = self.rules
        if not rules.buying or not s.discards:
            return []
        if len(s.stock) + max(0, len(s.discards) - 2) < rules.buy_penalty_cards:
            return []
        limit = rules.buy_limit
        n = self.num_players
        out = []
        for k in range(1, n):
            seat = (s.turn_player + k) % n
            if limit is not None and s.buys[seat] >= limit:
                continue
            if rules.no_consecutive_buys and seat == s.last_buyer:
                continue
            out.append(seat)
        return out

    def _offer_discard(self) -> None:
        """Before the turn player's draw: the buy window, then the draw decision."""
        s = self.s
        self._refill()
        self._legal = None
        if self.rules.buy_priority == "others_first" or s.stock_chosen:
            queue = self._buyers()
            if queue:
                s.queue = queue
                s.phase = "buy"
                return
            if s.stock_chosen:
                self._draw_stock_for_turn()
                return
        s.phase = "draw"
        if not s.discards and not self._stock_can_supply():
            self._event("exhausted", None, "Neither the stock nor the discard pile can supply a "
                        "card: the round ends without a winner.")
            self._end_round(None)

    def _stock_can_supply(self) -> bool:
        return bool(self.s.stock) or len(self.s.discards) >= 2

    def _pop_stock(self) -> Card | None:
        """Top card of the stock, reshuffling the discards (all but the top) if it is empty."""
        s = self.s
        if not s.stock:
            if len(s.discards) < 2:
                return None
            top = s.discards.pop()
            s.stock = s.discards
            self.rng.shuffle(s.stock)
            s.discards = [top]
            self._event("reshuffle", None, "The stock ran out: the discard pile (all but its top "
                        "card) is shuffled into a new stock.")
        return s.stock.pop()

    def _draw_stock_for_turn(self) -> None:
        s = self.s
        seat = s.turn_player
        card = self._pop_stock()
        if card is None:
            if s.discards:
                card = s.discards.pop()
                s.hands[seat].append(card)
                self._event("take", seat, f"Seat {seat + 1} must take {card}: the stock is empty.",
                            (card,))
            else:
                self._event("exhausted", None, "Neither the stock nor the discard pile can supply "
                            "a card: the round ends without a winner.")
                self._end_round(None)
                return
        else:
            s.hands[seat].append(card)
            self._event("draw", seat, f"Seat {seat + 1} draws from the stock.", private=(card,))
        self._begin_play()

    def _begin_play(self) -> None:
        self.s.phase = "play"
        self.s.queue = []
        self._legal = None

    # ---------------------------------------------------------- legal moves
    def legal_actions(self) -> list[Action]:
        """Every legal action of :attr:`to_move` now; lay-downs are represented by
        one suggestion (see :meth:`lay_downs`)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        s = self.s
        phase = s.phase
        if phase == "game_over":
            return []
        if phase == "cut":
            size = len(s.stock)
            return [Cut(k) for k in range(1, size)]
        # (the lists kept in _legal are never changed: shared ones will do)
        if phase == "buy":
            return _BUY_OR_PASS
        if phase == "draw":
            if self._stock_can_supply():
                return _DRAW_EITHER if s.discards else _DRAW_FROM_STOCK
            return _DRAW_FROM_DISCARDS if s.discards else []
        if phase == "call":
            return self._call_actions() + [_PASS]
        return self._play_actions()

    def _may_lay_off_now(self, seat: int, mode: str | None = None) -> bool:
        """May ``seat`` lay off (and swap) now? (``mode``: the round's
        :func:`~liverpool.melds.lay_down_mode`, if known.)"""
        s = self.s
        if not s.down[seat]:
            return False
        if (mode or lay_down_mode(self.rules, s.round)) != "normal":
            return False
        return self.rules.lay_off_same_turn or s.down_turn[seat] < s.turn_number

    def _play_actions(self) -> list[Action]:
        s = self.s
        rules = self.rules
        seat = s.turn_player
        hand = s.hands[seat]
        out: list[Action] = []
        mode = lay_down_mode(rules, s.round)
        if not s.down[seat]:
            found = self._find_lay_down(seat, hand, mode)
            if found is not None:
                out.append(LayDown(tuple(self._extend_suggestion(found, hand, mode))))
        distinct = _distinct(hand)
        if mode == "all_but_one" and s.down[seat]:
            return [_DISCARDS[c.index] for c in distinct]
        may_lay_off = self._may_lay_off_now(seat, mode)
        if may_lay_off:
            lay_offs = self._lay_off_actions(distinct)
            if s.pending_wilds:
                wild_offs: list[Action] = [a for a in lay_offs
                                           if isinstance(a, LayOff) and rules.is_wild(a.card)]
                if wild_offs:  # the wild taken in a swap goes back before anything else
                    return wild_offs
            out.extend(lay_offs)
            out.extend(self._swap_actions(distinct))
        # (a last discard is never called: it ends the round)
        if rules.discard_call == "shanghai" and len(hand) > 1 and may_lay_off:
            for c in distinct:
                out.append(_DISCARDS[c.index])
                if self._fits_table(c):
                    out.append(Discard(c, announce=True))
        else:
            out += [_DISCARDS[c.index] for c in distinct]
        return out

    def _find_lay_down(self, seat: int, hand: list[Card], mode: str) -> list[Meld] | None:
        """:func:`~liverpool.melds.find_lay_down` for ``seat``'s hand now, skipping
        the search when the hand provably has no lay-down.

        In a normal round a lay-down from part of a hand is one from the whole
        hand. So once a hand of ``seat`` had none (remembered per seat: the
        ruleset, the round and the hand's card counts), a hand of the same round
        has one only if it uses a card gained since (a card beyond the counts of
        that hand); :func:`~liverpool.melds.lay_down_may_use` says cheaply when
        none can. The memory is only ever a fact about a hand, so it is kept out
        of the game state (it is not saved, and a restored game just searches).
        """
        rules = self.rules
        rnd = self.s.round
        if mode != "normal":
            return find_lay_down(hand, rules, rnd)
        failed = self._no_lay_down[seat]
        counts = [0] * 53  # the hand's card counts by index
        if failed is not None and failed[0] is rules and failed[1] == rnd:
            old = failed[2]
            new: list[Card] = []  # the copies of a card beyond its count in that hand
            for c in hand:
                k = c.index
                counts[k] += 1
                if counts[k] > old[k]:
                    new.append(c)
            if not new or not lay_down_may_use(hand, rules, rnd, new, counts=counts):
                found = None
            else:
                found = find_lay_down(hand, rules, rnd)
        else:
            for c in hand:
                counts[c.index] += 1
            found = find_lay_down(hand, rules, rnd)
        if found is None:
            self._no_lay_down[seat] = (rules, rnd, counts)
        return found

    def _extend_suggestion(self, melds: list[Meld], hand: list[Card], mode: str) -> list[Meld]:
        """Grow a minimal lay-down with more of the hand where the rules allow."""
        if mode != "normal" or self.rules.contract_exact:
            return melds
        minimal = melds
        left = list(hand)
        for m in melds:
            for c in m.cards:
                left.remove(c)
        melds = list(melds)
        changed = True
        grew = False
        while changed and left:
            changed = False
            for c in list(left):
                if self.rules.is_wild(c):
                    continue
                for i, m in enumerate(melds):
                    if not _natural_may_fit(m, c):
                        continue
                    grown = lay_off(m, c, self.rules)
                    if grown is not None and meld_error(grown, self.rules) is None:
                        melds[i] = grown
                        left.remove(c)
                        changed = grew = True
                        break
        if not grew:
            return minimal  # the solver's lay-down, legal as it is
        if not left and self.rules.go_out_requires_discard:
            return minimal  # keep cards to discard: going out needs a discard
        try:
            check_lay_down(hand, melds, self.rules, self.s.round)
        except MeldError:
            return minimal
        return melds

    def _lay_off_actions(self, distinct: list[Card]) -> list[Action]:
        """The lay-offs of the cards ``distinct`` (a hand's, each once)."""
        rules = self.rules
        deuce = rules.wild_deuce_of_spades
        out: list[Action] = []
        for i, m in enumerate(self.s.table):
            msuit = m.suit
            if m.kind == "set":
                mrank = m.rank
                for c in distinct:
                    if not (c.rank == 0 or (deuce and c.index == 1)) and (
                            c.rank != mrank or (msuit >= 0 and c.suit != msuit)):
                        continue  # a natural card fits only at its own rank (and suit)
                    if self._fits(m, c, None):
                        out.append(LayOff(c, i))
                continue
            low = (m.rank - 2) % 13 + 1
            high = (m.rank - 1 + len(m.cards)) % 13 + 1
            for c in distinct:
                if c.rank == 0 or (deuce and c.index == 1):  # a wild card: either end
                    if self._fits(m, c, "low"):
                        out.append(LayOff(c, i, "low"))
                    if self._fits(m, c, "high"):
                        out.append(LayOff(c, i, "high"))
                    continue
                if msuit >= 0 and c.suit != msuit:
                    continue  # a natural card fits only at its own suit (see _natural_may_fit)
                if c.rank == low and self._fits(m, c, "low"):
                    out.append(LayOff(c, i, "low"))
                if c.rank == high and self._fits(m, c, "high"):
                    out.append(LayOff(c, i, "high"))
        return out

    def _fits(self, meld: Meld, card: Card, end: End | None) -> bool:
        """``lay_off(meld, card, rules, end) is not None``, remembered per meld
        object: the melds on the table stay the same objects from turn to turn
        (a meld that grows is a new one), and so do most of a hand's cards; a
        game's rules never change. (An entry keeps its meld alive, so its ``id``
        is not reused meanwhile.)"""
        key = (id(meld), card.index, end)
        got = self._fit_memo.get(key)
        if got is not None and got[0] is meld:
            return got[1]
        fits = lay_off(meld, card, self.rules, end) is not None
        if len(self._fit_memo) > 4096:
            self._fit_memo.clear()
        self._fit_memo[key] = (meld, fits)
        return fits

    def _swap_actions(self, distinct: list[Card]) -> list[Action]:
        """The joker swaps of the cards ``distinct`` (a hand's, each once)."""
        rules = self.rules
        if rules.joker_swap == "none":
            return []
        deuce = rules.wild_deuce_of_spades
        out: list[Action] = []
        # swap_joker takes only a card that is natural where the wild stands (the
        # 2S under wild_deuce_of_spades is natural where the wild stands for 2S)
        naturals = [c for c in distinct if c.rank != 0]
        runs_only = rules.joker_swap == "runs"
        for i, m in enumerate(self.s.table):
            if runs_only and m.kind == "set":
                continue
            for pos, w in enumerate(m.cards):
                if not (w.rank == 0 or (deuce and w.index == 1)):
                    continue
                rank, suit = m.identity(pos)
                for c in naturals:
                    if c.rank != rank or (suit >= 0 and c.suit != suit):
                        continue
                    if swap_joker(m, pos, c, rules) is None:
                        continue
                    if rules.swapped_joker_must_be_played and not self._wild_placeable_after(
                            i, pos, c, w):
                        continue
                    out.append(SwapJoker(c, i, pos))
        return out

    def _wild_placeable_after(self, meld_i: int, pos: int, card: Card, wild: Card) -> bool:
        table = list(self.s.table)
        swapped = swap_joker(table[meld_i], pos, card, self.rules)
        if swapped is None:
            return False
        table[meld_i] = swapped
        return any(lay_off(m, wild, self.rules) is not None for m in table)

    def _fits_table(self, card: Card) -> bool:
        if self.rules.is_wild(card):
            return any(self._fits(m, card, None) for m in self.s.table)
        return any(_natural_may_fit(m, card) and self._fits(m, card, None)
                   for m in self.s.table)

    def _call_actions(self) -> list[Action]:
        s = self.s
        card = s.call_card
        assert card is not None
        if self.rules.discard_call != "shanghai":
            return [Call()]
        out: list[Action] = []
        for i, m in enumerate(s.table):
            if m.kind == "set":
                if lay_off(m, card, self.rules) is not None:
                    out.append(Call(i))
            else:
                for end in ("low", "high"):
                    if lay_off(m, card, self.rules, end) is not None:
                        out.append(Call(i, end))
        return out

    # ----------------------------------------------------------- lay-downs
    def lay_downs(self) -> Iterator[LayDown]:
        """Lazily iterate the legal lay-downs of the turn player now (minimal melds)."""
        s = self.s
        if s.phase != "play" or s.down[s.turn_player]:
            return
        for melds in iter_lay_downs(s.hands[s.turn_player], self.rules, s.round):
            yield LayDown(tuple(melds))

    def suggest_lay_down(self) -> LayDown | None:
        """One legal lay-down for the turn player now, or None."""
        for a in self.legal_actions():
            if isinstance(a, LayDown):
                return a
        return None

    def check_lay_down(self, melds: tuple[Meld, ...] | list[Meld]) -> str | None:
        """Why this lay-down is not legal now (None if it is)."""
        try:
            self._verify(LayDown(tuple(melds)))
        except ActionError as e:
            return str(e)
        return None

    # --------------------------------------------------------------- apply
    def can_apply(self, action: Action) -> bool:
        """Would :meth:`apply` accept ``action`` now?"""
        try:
            self._checked(action)
        except ActionError:
            return False
        return True

    def _checked(self, action: Action) -> Action:
        """``action`` as it will be applied (run end filled in); raises ActionError."""
        if not isinstance(action, _ACTION_TYPES):
            raise ActionError(f"{action!r} is not an action")
        action = self._resolve_end(action)
        self._verify(action)
        return action

    def _verify(self, action: Action) -> None:
        s = self.s
        if s.phase == "game_over":
            raise ActionError("the game is over")
        if isinstance(action, LayDown):
            if s.phase != "play":
                raise ActionError("you can lay down only in your own turn, after drawing")
            seat = s.turn_player
            if s.down[seat]:
                raise ActionError("you have already laid down your contract this round")
            legal = self._legal
            if legal is not None:
                for a in legal:
                    if a is action:
                        return  # the suggestion legal_actions made: legal by construction
            try:
                check_lay_down(s.hands[seat], action.melds, self.rules, s.round)
            except MeldError as e:
                raise ActionError(str(e)) from None
            return
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        for a in legal:  # most actions are the very objects legal_actions gave
            if a is action:
                return
        if action in legal:
            return
        raise ActionError(self._why_illegal(action))

    def _resolve_end(self, action: Action) -> Action:
        """Fill in the run end of a lay-off or call that names none, if only one fits."""
        if not isinstance(action, _END_TYPES) or action.end is not None:
            return action
        table = self.s.table
        if not 0 <= action.meld < len(table) or table[action.meld].kind != "run":
            return action
        if isinstance(action, LayOff):
            fits: list[Action] = [a for a in self.legal_actions() if isinstance(a, LayOff)
                                  and a.card == action.card and a.meld == action.meld]
        else:
            fits = [a for a in self.legal_actions()
                    if isinstance(a, Call) and a.meld == action.meld]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            raise ActionError("the card fits at both ends of that run: say which end "
                              "(\"low\" or \"high\")")
        return action

    def _why_illegal(self, action: Action) -> str:
        s = self.s
        seat = self.to_move
        who = f"seat {seat + 1}" if seat is not None else "nobody"
        phase_words = {
            "cut": f"{who} must cut the deck",
            "draw": f"{who} must draw from the stock or take the discard",
            "buy": f"{who} must buy the discard or pass",
            "play": f"{who} must play: lay down, lay off, swap a joker or discard",
            "call": f"{who} may call the discard or pass",
        }
        expected = phase_words.get(s.phase, "")
        if isinstance(action, Draw | Buy | Cut) or (
                isinstance(action, Pass) and s.phase not in ("buy", "call")) or (
                isinstance(action, Call) and s.phase != "call"):
            return f"you cannot {action.describe()} now: {expected}"
        if s.phase != "play" and isinstance(action, LayOff | SwapJoker | Discard):
            return f"you cannot {action.describe()} now: {expected}"
        hand = s.hands[s.turn_player] if s.phase == "play" else []
        if isinstance(action, Discard | LayOff | SwapJoker) and action.card not in hand:
            return f"you do not have {action.card} in your hand"
        if isinstance(action, LayOff | SwapJoker):
            if not s.down[s.turn_player]:
                return "you must lay down your contract before you can lay off or swap"
            if not self._may_lay_off_now(s.turn_player):
                return "you cannot lay off in the turn you laid down your contract"
            if not 0 <= action.meld < len(s.table):
                return f"there is no meld {action.meld + 1} on the table"
            if isinstance(action, LayOff):
                return f"{action.card} does not fit on {s.table[action.meld]}" + (
                    f" at the {action.end} end" if action.end else "")
            if self.rules.joker_swap == "none":
                return "joker swaps are not allowed under these rules"
            return f"{action.card} cannot replace the card at that place of {s.table[action.meld]}"
        if isinstance(action, Discard):
            if s.pending_wilds:
                return "the wild card you took in the swap must go onto the table this turn"
            if action.announce:
                return "saying Shanghai makes sense only for a card that could be called"
            return "you must lay down all but one card before discarding in this round"
        if isinstance(action, Call):
            return "the card does not fit there"
        return f"{action.describe()} is not legal now: {expected}"

    def apply(self, action: Action) -> list[Event]:
        """Apply ``action`` for :attr:`to_move`; returns the events it caused.

        Raises :class:`ActionError` (changing nothing) if it is not legal now.
        A lay-off (or Shanghai call) on a run without ``end`` is accepted when
        the card fits at one end only.
        """
        s = self.s
        events = self.events
        start = len(events)
        if action.__class__ is Pass and (s.phase == "buy" or s.phase == "call"):
            # a pass is legal in every buy or call window (the common case, quickly)
            self.history.append(action)
            self._legal = None
            self._do_pass()
            if not s.queue:  # a pass that leaves the window open changes only the queue
                self._version += 1
            return events[start:] if len(events) > start else []
        kind: type = action.__class__
        legal = self._legal
        for a in legal or ():
            if a is action:
                break  # the very object legal_actions made: legal, its end filled in
        else:
            action = self._checked(action)
            kind = type(action)
            if kind not in _ACTION_TYPES:  # a subclass of an action type
                kind = next(k for k in _ACTION_TYPES if isinstance(action, k))
        self.history.append(action)
        self._legal = None
        if kind is Pass:
            self._do_pass()
            if not s.queue:  # a pass that leaves the window open changes only the queue
                self._version += 1
        else:
            self._version += 1
            if kind is Discard:
                self._do_discard(action)  # type: ignore[arg-type]
            elif kind is Draw:
                self._do_draw(action)  # type: ignore[arg-type]
            elif kind is Buy:
                self._do_buy(s.queue[0])
            elif kind is Cut:
                self._do_cut(action.count)  # type: ignore[union-attr]
            elif kind is LayDown:
                self._do_lay_down(action)  # type: ignore[arg-type]
            elif kind is LayOff:
                self._do_lay_off(action)  # type: ignore[arg-type]
            elif kind is SwapJoker:
                self._do_swap(action)  # type: ignore[arg-type]
            elif kind is Call:
                self._do_call(action)  # type: ignore[arg-type]
        self._legal = None
        return events[start:] if len(events) > start else []

    # ------------------------------------------------------------ handlers
    def _do_cut(self, count: int) -> None:
        s = self.s
        rules = self.rules
        n = self.num_players
        size = len(s.stock)
        noise = rules.cut_noise
        actual = count + (self.rng.below(2 * noise + 1) - noise if noise else 0)
        actual = max(1, min(size - 1, actual))
        s.stock = s.stock[-actual:] + s.stock[:-actual]
        cutter = (s.dealer - 1) % n
        target = n * rules.cards_dealt(s.round) + (1 if rules.initial_upcard else 0)
        if actual == target:
            s.cut_bonus_seat = cutter
            self._event("cut", cutter, f"Seat {cutter + 1} cuts exactly {actual} cards: "
                        f"{rules.cut_bonus} points!")
        else:
            self._event("cut", cutter, f"Seat {cutter + 1} cuts {actual} cards.")
        self._deal()

    def _do_draw(self, action: Draw) -> None:
        s = self.s
        seat = s.turn_player
        if action.source == "discard":
            card = s.discards.pop()
            s.hands[seat].append(card)
            self._event("take", seat, f"Seat {seat + 1} takes {card} from the discard pile.", (card,))
            self._begin_play()
            return
        s.stock_chosen = True
        if self.rules.buy_priority == "turn_player_first":
            self._offer_discard()
        else:
            self._draw_stock_for_turn()

    def _do_buy(self, buyer: int) -> None:
        s = self.s
        rules = self.rules
        card = s.discards.pop()
        s.hands[buyer].append(card)
        penalty: list[Card] = []
        for _ in range(rules.buy_penalty_cards):
            c = self._pop_stock()
            if c is None:
                break
            s.hands[buyer].append(c)
            penalty.append(c)
        s.buys[buyer] += 1
        self._layout_version += 1
        s.last_buyer = buyer
        self._event("buy", buyer, f"Seat {buyer + 1} buys {card} and takes {len(penalty)} "
                    f"penalty card{'s' if len(penalty) != 1 else ''}.", (card,), tuple(penalty))
        if rules.rebuy == "next_card":
            self._offer_discard()
            return
        self._refill()
        if s.stock_chosen:
            self._draw_stock_for_turn()
        else:
            s.phase = "draw"
            s.queue = []
            if not s.discards and not self._stock_can_supply():
                self._end_round(None)

    def _do_pass(self) -> None:
        s = self.s
        s.queue.pop(0)
        if s.queue:
            return
        if s.phase == "buy":
            if s.stock_chosen:
                self._draw_stock_for_turn()
            else:
                s.phase = "draw"
                if not s.discards and not self._stock_can_supply():
                    self._end_round(None)
        else:  # call window closed
            s.call_card = None
            self._after_discard()

    def _do_lay_down(self, action: LayDown) -> None:
        s = self.s
        seat = s.turn_player
        hand = s.hands[seat]
        for m in action.melds:
            for c in m.cards:
                hand.remove(c)
            s.table.append(m)
            s.owners.append(seat)
        s.down[seat] = True
        s.down_turn[seat] = s.turn_number
        self._layout_version += 1
        self._event("lay_down", seat, f"Seat {seat + 1} lays down "
                    + " | ".join(str(m) for m in action.melds) + ".",
                    tuple(c for m in action.melds for c in m.cards))
        if not hand:
            self._hand_emptied(seat)

    def _do_lay_off(self, action: LayOff) -> None:
        s = self.s
        seat = s.turn_player
        grown = lay_off(s.table[action.meld], action.card, self.rules, action.end)
        assert grown is not None
        s.table[action.meld] = grown
        self._layout_version += 1
        s.hands[seat].remove(action.card)
        if s.pending_wilds and self.rules.is_wild(action.card):
            s.pending_wilds -= 1
        self._event("lay_off", seat, f"Seat {seat + 1} lays {action.card} off on {grown}.",
                    (action.card,))
        if not s.hands[seat]:
            self._hand_emptied(seat)

    def _do_swap(self, action: SwapJoker) -> None:
        s = self.s
        seat = s.turn_player
        meld = s.table[action.meld]
        wild = meld.cards[action.position]
        swapped = swap_joker(meld, action.position, action.card, self.rules)
        assert swapped is not None
        s.table[action.meld] = swapped
        self._layout_version += 1
        hand = s.hands[seat]
        hand.remove(action.card)
        hand.append(wild)
        if self.rules.swapped_joker_must_be_played:
            s.pending_wilds += 1
        self._event("swap", seat, f"Seat {seat + 1} puts {action.card} in place of {wild} and "
                    f"takes {wild}.", (action.card, wild))

    def _hand_emptied(self, seat: int) -> None:
        """The turn player has no cards left after a lay-down or lay-off."""
        s = self.s
        if self.rules.go_out_requires_discard and lay_down_mode(self.rules, s.round) == "normal":
            self._event("empty", seat, f"Seat {seat + 1} has no cards left and ends the turn; "
                        "going out needs a discard.")
            self._start_turn((seat + 1) % self.num_players)
            return
        self._event("out", seat, f"Seat {seat + 1} goes out!")
        self._end_round(seat)

    def _do_discard(self, action: Discard) -> None:
        s = self.s
        rules = self.rules
        seat = s.turn_player
        card = action.card
        s.hands[seat].remove(card)
        s.discards.append(card)
        self._event("discard", seat, f"Seat {seat + 1} discards {card}"
                    + (' and says "Shanghai!"' if action.announce else "") + ".", (card,))
        if (rules.discard_call != "none" and not action.announce and s.hands[seat]
                and self._may_lay_off_now(seat) and self._fits_table(card)):
            # (a last discard ends the round at once: there is nothing to call)
            s.call_card = card
            s.queue = [(seat + k) % self.num_players for k in range(1, self.num_players)]
            s.phase = "call"
            return
        self._after_discard()

    def _after_discard(self) -> None:
        s = self.s
        seat = s.turn_player
        if not s.hands[seat]:
            self._event("out", seat, f"Seat {seat + 1} goes out!")
            self._end_round(seat)
            return
        self._start_turn((seat + 1) % self.num_players)

    def _do_call(self, action: Call) -> None:
        s = self.s
        rules = self.rules
        caller = s.queue[0]
        seat = s.turn_player
        card = s.discards.pop()
        s.queue = []
        s.call_card = None
        if rules.discard_call == "liverpool":
            s.hands[seat].append(card)
            penalty = self._pop_stock()
            if penalty is not None:
                s.hands[seat].append(penalty)
            self._event("call", caller, f'Seat {caller + 1} calls "Liverpool!": seat {seat + 1} '
                        f"takes {card} back and draws a penalty card.", (card,))
            if penalty is not None:  # known only to the discarder, who drew it
                self._event("penalty", seat, f"Seat {seat + 1} draws a penalty card.",
                            private=(penalty,))
        elif rules.discard_call == "liverpool_pile":
            pile = s.discards + [card]
            s.discards = []
            s.hands[seat].extend(pile)
            self._event("call", caller, f'Seat {caller + 1} calls "Liverpool!": seat {seat + 1} '
                        f"takes the whole discard pile ({len(pile)} cards).", tuple(pile))
        else:  # shanghai
            grown = lay_off(s.table[action.meld], card, rules, action.end)
            assert grown is not None
            s.table[action.meld] = grown
            self._layout_version += 1
            text = f'Seat {caller + 1} calls "Shanghai!" and lays {card} on {grown}'
            caller_hand = s.hands[caller]
            if caller_hand:
                taken = caller_hand.pop(self.rng.below(len(caller_hand)))
                s.hands[seat].append(taken)
                self._event("call", caller, text + f"; seat {seat + 1} draws a card from "
                            f"seat {caller + 1}'s hand.", (card,))
                self._event("penalty", seat, f"Seat {seat + 1} takes a card from seat "
                            f"{caller + 1}'s hand.", private=(taken,))
                if not caller_hand and not rules.go_out_requires_discard:
                    # the caller has no cards left: the round ends (RULES.md §3.5)
                    self._event("out", caller, f"Seat {caller + 1} goes out!")
                    self._end_round(caller)
                    return
            else:
                self._event("call", caller, text + ".", (card,))
        self._after_discard()

    # -------------------------------------------------------------- scoring
    def _end_round(self, winner: int | None) -> None:
        s = self.s
        rules = self.rules
        scores = []
        for seat, hand in enumerate(s.hands):
            pts = 0 if seat == winner else rules.hand_points(hand)
            if seat == s.cut_bonus_seat:
                pts += rules.cut_bonus
            scores.append(pts)
        s.round_scores.append(scores)
        s.queue = []
        who = "no winner" if winner is None else f"seat {winner + 1} went out"
        self._event("round_over", winner, f"Round {s.round} is over ({who}). Points: "
                    + ", ".join(f"seat {i + 1}: {p}" for i, p in enumerate(scores)) + ".")
        if s.round >= rules.num_rounds:
            s.phase = "game_over"
            res = self.results()
            self._event("game_over", None, "The game is over. "
                        + ("Winner" if len(res.winners) == 1 else "Shared win")
                        + ": " + ", ".join(f"seat {w + 1}" for w in res.winners) + ".")
            self._legal = None
            return
        self._start_round(s.round + 1)

    def results(self) -> Results:
        """The score sheet so far (final once :attr:`is_over`)."""
        rs = tuple(tuple(r) for r in self.s.round_scores)
        totals = tuple(sum(r[i] for r in rs) for i in range(self.num_players))
        best = min(totals) if rs else 0
        winners = tuple(i for i, t in enumerate(totals) if t == best) if self.is_over else ()
        return Results(rs, totals, winners)

    # ----------------------------------------------------------- utilities
    def _event(self, kind: str, seat: int | None, text: str, cards: tuple[Card, ...] = (),
               private: tuple[Card, ...] = ()) -> None:
        self.events.append(_new_event(kind, seat, text, cards, private))

    @property
    def buys(self) -> list[int]:
        return list(self.s.buys)

    @property
    def laid_down(self) -> list[bool]:
        return list(self.s.down)

    @property
    def offered_card(self) -> Card | None:
        """The card being bought or called now, if any."""
        s = self.s
        if s.phase == "call":
            return s.call_card
        if s.phase in ("buy", "draw") and s.discards:
            return s.discards[-1]
        return None

    def card_counts(self) -> dict[str, int]:
        """Cards per place (for checking conservation)."""
        s = self.s
        return {"hands": sum(len(h) for h in s.hands), "stock": len(s.stock),
                "discards": len(s.discards), "table": sum(len(m.cards) for m in s.table)}

    def describe_hand(self, seat: int) -> str:
        return format_cards(sorted(self.s.hands[seat]))

    # ------------------------------------------------------ views, records
    def view(self, seat: int | None, *, events_since: int = 0) -> SeatView:
        """What ``seat`` may know now (None: a spectator). See :mod:`liverpool.views`."""
        from .views import make_view

        return make_view(self, seat, events_since=events_since)

    def record(self) -> dict[str, Any]:
        """The game record (ruleset, players, seed, actions) as JSON data."""
        from .record import make_record

        return make_record(self)

    # -------------------------------------------------- state as JSON data
    def to_json(self) -> dict[str, Any]:
        """The complete state (hidden information included) as JSON data."""
        s = self.s
        return {
            "format": "liverpool-rummy-state/1",
            "rules": self.rules.to_dict(),
            "players": self.num_players,
            "seed": self.seed,
            "rng": self.rng.state,
            "history": [a.to_json() for a in self.history],
            "events": [e.to_json(full=True) for e in self.events],
            "state": {
                "round": s.round, "dealer": s.dealer,
                "hands": [[str(c) for c in h] for h in s.hands],
                "stock": [str(c) for c in s.stock],
                "discards": [str(c) for c in s.discards],
                "table": [m.to_json() for m in s.table],
                "owners": list(s.owners), "down": list(s.down), "down_turn": list(s.down_turn),
                "buys": list(s.buys), "round_scores": [list(r) for r in s.round_scores],
                "phase": s.phase, "turn_player": s.turn_player, "turn_number": s.turn_number,
                "queue": list(s.queue), "last_buyer": s.last_buyer,
                "stock_chosen": s.stock_chosen,
                "call_card": None if s.call_card is None else str(s.call_card),
                "pending_wilds": s.pending_wilds, "cut_bonus_seat": s.cut_bonus_seat,
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_json` data."""
        from .actions import action_from_json
        from .ruleset_io import rules_from_dict

        rules = rules_from_dict(data["rules"])
        game = cls.__new__(cls)
        game.rules = rules
        game.num_players = int(data["players"])
        game.seed = int(data["seed"])
        game.rng = Rng(0)
        game.rng.state = int(data["rng"])
        game.history = [action_from_json(a) for a in data["history"]]
        game.events = [Event(e["kind"], e["seat"], e["text"],
                             tuple(Card.parse(c) for c in e["cards"]),
                             tuple(Card.parse(c) for c in e.get("private", [])))
                       for e in data["events"]]
        st = data["state"]
        s = _State()
        s.round = st["round"]
        s.dealer = st["dealer"]
        s.hands = [[Card.parse(c) for c in h] for h in st["hands"]]
        s.stock = [Card.parse(c) for c in st["stock"]]
        s.discards = [Card.parse(c) for c in st["discards"]]
        s.table = [Meld.from_json(m) for m in st["table"]]
        s.owners = list(st["owners"])
        s.down = list(st["down"])
        s.down_turn = list(st["down_turn"])
        s.buys = list(st["buys"])
        s.round_scores = [list(r) for r in st["round_scores"]]
        s.phase = st["phase"]
        s.turn_player = st["turn_player"]
        s.turn_number = st["turn_number"]
        s.queue = list(st["queue"])
        s.last_buyer = st["last_buyer"]
        s.stock_chosen = st["stock_chosen"]
        s.call_card = None if st["call_card"] is None else Card.parse(st["call_card"])
        s.pending_wilds = st["pending_wilds"]
        s.cut_bonus_seat = st["cut_bonus_seat"]
        game.s = s
        game._legal = None
        game._version = 0
        game._layout_version = 0
        game._no_lay_down = [None] * game.num_players
        game._fit_memo = {}
        return game

    @classmethod
    def from_view(cls, rules: Rules, view: SeatView, hands: list[list[Card]],
                  stock: list[Card], seed: int = 0) -> Game:
        """A game consistent with ``view`` in which the hidden cards are filled in:
        ``hands`` (every seat's hand, the viewer's own as in the view) and the
        ``stock`` (top last). For search bots that sample what they cannot see.
        """
        if len(hands) != view.players:
            raise ValueError("one hand per seat is needed")
        for seat, (h, size) in enumerate(zip(hands, view.hand_sizes, strict=True)):
            if len(h) != size:
                raise ValueError(f"seat {seat + 1} holds {size} cards, not {len(h)}")
        if len(stock) != view.stock_size:
            raise ValueError(f"the stock holds {view.stock_size} cards, not {len(stock)}")
        game = cls.__new__(cls)
        game.rules = rules
        game.num_players = view.players
        game.seed = seed
        game.rng = Rng(seed)
        game.history = []
        game.events = []
        s = _State()
        s.round = view.round
        s.dealer = view.dealer
        s.hands = [list(h) for h in hands]
        s.stock = list(stock)
        s.discards = list(view.discard_pile)
        s.table = list(view.table)
        s.owners = list(view.table_owners)
        s.down = list(view.laid_down)
        s.down_turn = list(view.down_turns)
        s.buys = list(view.buys)
        s.round_scores = [list(r) for r in view.round_scores]
        s.phase = view.phase  # type: ignore[assignment]
        s.turn_player = view.turn_player
        s.turn_number = view.turn_number
        s.queue = list(view.queue)
        s.last_buyer = view.last_buyer
        s.stock_chosen = view.stock_chosen
        s.call_card = view.offered_card if view.phase == "call" else None
        s.pending_wilds = view.pending_wilds
        s.cut_bonus_seat = view.cut_bonus_seat
        game.s = s
        game._legal = None
        game._version = 0
        game._layout_version = 0
        game._no_lay_down = [None] * game.num_players
        game._fit_memo = {}
        return game

    def state_key(self) -> str:
        """A canonical text of the full state, for comparing two games."""
        import json

        d = self.to_json()
        return json.dumps(d, sort_keys=True)


_ACTION_TYPES = (Draw, Buy, Pass, LayDown, LayOff, SwapJoker, Discard, Call, Cut)
_END_TYPES = (LayOff, Call)

# Actions are immutable values: the common ones are made once and shared.
_BUY = Buy()
_PASS = Pass()
_DRAW_DISCARD = Draw("discard")
_DRAW_STOCK = Draw("stock")
_DISCARDS: list[Discard] = [Discard(Card.from_index(i)) for i in range(53)]  # by Card.index
# legal action lists that are always the same (Game._legal, never changed)
_BUY_OR_PASS: list[Action] = [_BUY, _PASS]
_DRAW_EITHER: list[Action] = [_DRAW_DISCARD, _DRAW_STOCK]
_DRAW_FROM_STOCK: list[Action] = [_DRAW_STOCK]
_DRAW_FROM_DISCARDS: list[Action] = [_DRAW_DISCARD]


def _natural_may_fit(meld: Meld, card: Card) -> bool:
    """Could the natural (not wild) ``card`` be laid off on ``meld`` at all?

    A necessary condition of :func:`~liverpool.melds.lay_off`, cheap to test: a
    natural card must be natural at its place (its rank, and the meld's suit if
    it has one): a set's rank, or the place just below or above a run's ends.
    """
    if meld.suit >= 0 and card.suit != meld.suit:
        return False
    rank = card.rank
    if meld.kind == "set":
        return rank == meld.rank
    return rank == (meld.rank - 2) % 13 + 1 or rank == (meld.rank - 1 + len(meld.cards)) % 13 + 1


def _distinct(hand: list[Card]) -> list[Card]:
    # Cards are interned: one object per index, so keying by index keeps the
    # first occurrence order (and avoids Card.__hash__ calls).
    return list({c.index: c for c in hand}.values())
