"""What every part of the game shares: the ruleset, the state, the chance, the
event log, and the few helpers each rule needs (the stock, the event stream).

The rules themselves live beside this module, each in the one named for it:
``turns`` (the turn flow: deal, draw, lay down, lay off, swap, discard, going
out), ``buying`` (the buy window), ``calls`` (the Liverpool/Shanghai call
window), ``scoring`` (the end of a round, the score sheet), ``legal`` (what may
be done now, and why not). :class:`~liverpool.engine.game.Game` puts them together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..actions import Action, Call, LayDown
from ..cards import Card
from ..events import Event, StockReshuffled
from ..melds import Meld
from ..rules import Rules
from .state import Chance, Results, State

if TYPE_CHECKING:
    from .facts import MeldFacts, TableFacts

__all__ = ["GameCore"]

class GameCore:
    """The shared parts of a game (see the module's doc)."""

    rules: Rules
    num_players: int
    seed: int
    chance: Chance
    history: list[Action]
    #: the seat that made each action of :attr:`history`
    history_seats: list[int]
    events: list[Event]
    #: everything that changes during the game (hidden cards included)
    state: State
    #: moves with every accepted action
    version: int
    #: moves with every change of the state but a pass that leaves a window open
    board_version: int
    #: moves whenever the table, its owners, who is down (and when) or the buys change
    layout_version: int
    _legal: list[Action] | None
    #: the staging steps computed at a version (see LegalMoves.staging_actions)
    _staging: tuple[int, list[Action]] | None
    _no_lay_down: list[tuple[Rules, int, list[int]] | None]
    #: per seat: (rules, round, (card index, count) pairs) of a lay-down a hand held
    _lay_down_held: list[tuple[Rules, int, tuple[tuple[int, int], ...]] | None]
    _fit_memo: dict[tuple[int, int, str | None], tuple[Meld, bool]]
    #: per (meld id, place): what the meld allows (see LegalMoves._meld_facts)
    _meld_memo: dict[tuple[int, int], MeldFacts]
    #: (layout version, table list, its length, its facts), see LegalMoves._table_facts
    _table_memo: tuple[int, list[Meld], int, TableFacts] | None

    def _emit(self, cls: type[Any], *values: Any) -> None:
        """Append an event of type ``cls`` (its fields after ``seq``)."""
        events = self.events
        events.append(cls(len(events), *values))

    def _stock_can_supply(self) -> bool:
        return bool(self.state.stock) or len(self.state.discards) >= 2

    def _pop_stock(self) -> Card | None:
        """Top card of the stock, reshuffling the discards (all but the top) if it is empty."""
        state = self.state
        if not state.stock:
            if len(state.discards) < 2:
                return None
            top = state.discards.pop()
            state.stock = self.chance.shuffle("reshuffle", state.discards)
            state.discards = [top]
            state.discarders = state.discarders[-1:]
            self._emit(StockReshuffled, len(state.stock))
        return state.stock.pop()

    def _push_discard(self, card: Card, seat: int) -> None:
        state = self.state
        state.discards.append(card)
        state.discarders.append(seat)

    def _pop_discard(self) -> Card:
        state = self.state
        state.discarders.pop()
        return state.discards.pop()

    if TYPE_CHECKING:  # the parts of the game that call each other across modules
        def _start_round(self, round: int) -> None: ...
        def _start_turn(self, seat: int) -> None: ...
        def _deal(self) -> None: ...
        def _draw_stock_for_turn(self) -> None: ...
        def _begin_play(self) -> None: ...
        def _after_discard(self) -> None: ...
        def _offer_discard(self) -> None: ...
        def _refill(self) -> None: ...
        def _end_round(self, winner: int | None) -> None: ...
        def _may_lay_off_now(self, seat: int, mode: str | None = None) -> bool: ...
        def _fits_table(self, card: Card) -> bool: ...
        def _open_call(self, card: Card) -> None: ...
        def _do_buy(self, buyer: int) -> None: ...
        def _do_call(self, caller: int, action: Call) -> None: ...
        def _call_actions(self) -> list[Action]: ...
        def _check_commit(self) -> LayDown: ...
        def results(self) -> Results: ...
        def legal_actions(self, seat: int | None = None) -> list[Action]: ...
