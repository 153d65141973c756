"""Per-seat views: exactly what one seat may know, nothing more.

A :class:`SeatView` holds the seat's own hand, the sizes of the other hands,
the table, the discard pile (every card in it was seen face up), the buys,
scores and whose turn it is — never another hand and never the order of the
stock. A spectator view (``seat=None``) holds only public information.

>>> from liverpool import Game, load_rules
>>> game = Game(load_rules("remi"), players=3, seed=1)
>>> v = game.view(0)
>>> len(v.hand), v.hand_sizes, v.stock_size
(10, (10, 10, 10), 82)
>>> game.view(None).hand
()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import Card
from .engine import Event, _fast_constructor, _new_event
from .melds import Meld
from .rules import Contract

if TYPE_CHECKING:
    from .engine import Game

__all__ = ["SeatView", "make_view"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """What ``seat`` (None: a spectator) knows at one moment of the game."""

    seat: int | None
    players: int
    round: int
    num_rounds: int
    contract: Contract
    cards_dealt: int
    dealer: int
    turn_player: int
    phase: str
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Meld, ...]
    table_owners: tuple[int, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    offered_card: Card | None
    laid_down: tuple[bool, ...]
    buys: tuple[int, ...]
    buy_limit: int | None
    round_scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    events: tuple[Event, ...]
    # public bookkeeping of the turn (enough to continue the game from here)
    turn_number: int = 0
    down_turns: tuple[int, ...] = ()
    queue: tuple[int, ...] = ()
    last_buyer: int = -1
    stock_chosen: bool = False
    pending_wilds: int = 0
    cut_bonus_seat: int = -1

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "players": self.players,
            "round": self.round,
            "num_rounds": self.num_rounds,
            "contract": {"sets": self.contract.sets, "runs": self.contract.runs},
            "cards_dealt": self.cards_dealt,
            "dealer": self.dealer,
            "turn_player": self.turn_player,
            "phase": self.phase,
            "to_move": self.to_move,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "table": [dict(m.to_json(), owner=o) for m, o in zip(self.table, self.table_owners,
                                                                   strict=True)],
            "discard_pile": [str(c) for c in self.discard_pile],
            "stock_size": self.stock_size,
            "offered_card": None if self.offered_card is None else str(self.offered_card),
            "laid_down": list(self.laid_down),
            "buys": list(self.buys),
            "buy_limit": self.buy_limit,
            "round_scores": [list(r) for r in self.round_scores],
            "totals": list(self.totals),
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "events": [e.to_json(for_seat=self.seat) for e in self.events],
            "turn_number": self.turn_number,
            "down_turns": list(self.down_turns),
            "queue": list(self.queue),
            "last_buyer": self.last_buyer,
            "stock_chosen": self.stock_chosen,
            "pending_wilds": self.pending_wilds,
            "cut_bonus_seat": self.cut_bonus_seat,
        }


def make_view(game: Game, seat: int | None, *, events_since: int = 0) -> SeatView:
    """The view of ``seat`` (None for a spectator); events from index ``events_since``."""
    s = game.s
    rules = game.rules
    if seat is not None and not 0 <= seat < game.num_players:
        raise ValueError(f"there is no seat {seat}")
    res = game.results()
    to_move = game.to_move
    legal: tuple[Action, ...] = ()
    if seat is not None and to_move == seat:
        legal = tuple(game.legal_actions())
    events = tuple(
        e if (not e.private or (seat is not None and e.seat == seat)) else _public(e) for e in game.events[events_since:]
    )
    return SeatView(
        seat=seat,
        players=game.num_players,
        round=s.round,
        num_rounds=rules.num_rounds,
        contract=rules.contract(s.round),
        cards_dealt=rules.cards_dealt(s.round),
        dealer=s.dealer,
        turn_player=s.turn_player,
        phase=s.phase,
        to_move=to_move,
        # by index: the order of Card.sort_key (suit, rank; jokers last), without __lt__
        hand=tuple(sorted(s.hands[seat], key=_card_index)) if seat is not None else (),
        hand_sizes=tuple(len(h) for h in s.hands),
        table=tuple(s.table),
        table_owners=tuple(s.owners),
        discard_pile=tuple(s.discards),
        stock_size=len(s.stock),
        offered_card=game.offered_card,
        laid_down=tuple(s.down),
        buys=tuple(s.buys),
        buy_limit=rules.buy_limit,
        round_scores=res.round_scores,
        totals=res.totals,
        legal_actions=legal,
        events=events,
        turn_number=s.turn_number,
        down_turns=tuple(s.down_turn),
        queue=tuple(s.queue),
        last_buyer=s.last_buyer,
        stock_chosen=s.stock_chosen,
        pending_wilds=s.pending_wilds,
        cut_bonus_seat=s.cut_bonus_seat,
    )


_card_index = attrgetter("index")


build_view: Callable[..., SeatView] = _fast_constructor(SeatView)

#: the fields of a view that are the same for every seat until the game changes
#: (see liverpool.simulate.SeatViews): all but these
_PER_VIEW = ("seat", "to_move", "hand", "legal_actions", "events", "queue")
VIEW_FIXED = tuple(f.name for f in fields(SeatView) if f.name not in _PER_VIEW)
#: ``build_view_fixed(fixed, seat, to_move, hand, legal_actions, events, queue)``:
#: a view from the values of the fields :data:`VIEW_FIXED` (a tuple, in field
#: order) and the others
build_view_fixed: Callable[..., SeatView] = _fast_constructor(SeatView, VIEW_FIXED)


def _public(e: Event) -> Event:
    return _new_event(e.kind, e.seat, e.text, e.cards, ())
