"""The buy window: the discard offered out of turn, with its penalty cards.

A window lists every seat that may answer (:attr:`State.queue`, in priority
order). Any of them may answer at any time while it is open; the window is
settled by priority as soon as the outcome is certain: a buy by the first seat
still undecided settles it at once, a buy by a later seat waits until every
seat before it has passed (see :meth:`BuyWindow._settle`). A player never buys
a card they discarded themselves.
"""

from __future__ import annotations

from ..actions import Action, Buy, Call
from ..cards import Card
from ..events import Bought, RoundAbandoned, UpcardTurned
from .core import GameCore

__all__ = ["BuyWindow"]


class BuyWindow(GameCore):
    """Buying the discard (see the module's doc), and the answers of any window."""

    def _refill(self) -> None:
        state = self.state
        # an emptied pile: without an upcard the pile is empty, not emptied, until
        # the round's first discard (which is made in its first turn)
        if (not state.discards and self.rules.refill_empty_discard and state.stock
                and (self.rules.initial_upcard or state.turn_number > 1)):
            card = state.stock.pop()
            self._push_discard(card, -1)
            self._emit(UpcardTurned, card, True)

    def _buyers(self) -> list[int]:
        """The seats that may buy the top discard now, in buying order."""
        state = self.state
        rules = self.rules
        if not rules.buying or not state.discards:
            return []
        if len(state.stock) + max(0, len(state.discards) - 2) < rules.buy_penalty_cards:
            return []
        limit = rules.buy_limit
        n = self.num_players
        discarder = state.discarders[-1]
        out = []
        for k in range(1, n):
            seat = (state.turn_player + k) % n
            if limit is not None and state.buys[seat] >= limit:
                continue
            if rules.no_consecutive_buys and seat == state.last_buyer:
                continue
            if seat == discarder:  # nobody buys their own discard
                continue
            out.append(seat)
        return out

    def _offer_discard(self) -> None:
        """Before the turn player's draw: the buy window, then the draw decision."""
        state = self.state
        if not state.discards:
            self._refill()  # (it does nothing unless the pile is empty)
        self._legal = None
        if state.pending:
            state.pending = {}
        if self.rules.buy_priority == "others_first" or state.stock_chosen:
            queue = self._buyers()
            if queue:
                state.queue = queue
                state.phase = "buy"
                return
            if state.stock_chosen:
                self._draw_stock_for_turn()
                return
        state.phase = "draw"  # (_await_draw, inlined)
        if not state.discards and not state.stock:  # (and so no pile can supply a card)
            self._emit(RoundAbandoned, "exhausted")
            self._end_round(None)

    def _await_draw(self) -> None:
        """The turn player is to draw (or, when no pile can supply a card, the round ends)."""
        state = self.state
        state.phase = "draw"
        if not state.discards and not self._stock_can_supply():
            self._emit(RoundAbandoned, "exhausted")
            self._end_round(None)

    def _close_buy_window(self) -> None:
        """Nobody (more) buys: the turn player's stock draw, or their draw decision."""
        state = self.state
        state.queue = []
        if state.stock_chosen:
            self._draw_stock_for_turn()
        else:
            self._await_draw()

    def _do_buy(self, buyer: int) -> None:
        state = self.state
        rules = self.rules
        card = self._pop_discard()
        state.hands[buyer].append(card)
        penalty: list[Card] = []
        for _ in range(rules.buy_penalty_cards):
            c = self._pop_stock()
            if c is None:
                break
            state.hands[buyer].append(c)
            penalty.append(c)
        state.buys[buyer] += 1
        state.pending = {}
        self.layout_version += 1
        state.last_buyer = buyer
        self._emit(Bought, buyer, card, len(penalty), tuple(penalty))
        if rules.rebuy == "next_card":  # the window is settled; the next card opens its own
            state.queue = []
            self._offer_discard()
            return
        self._refill()
        self._close_buy_window()

    # ------------------------------------------------- answers to a window
    def _do_pass(self, seat: int) -> None:
        """``seat`` declines to buy or call (the window's first seat, or any other)."""
        state = self.state
        queue = state.queue
        if queue[0] == seat:
            queue.pop(0)
        else:
            queue.remove(seat)
            return  # the seats before it are still to answer: nothing is settled
        self._settle()

    def _answer(self, seat: int, action: Action) -> None:
        """``seat`` buys or calls; settled now if no seat before it is still to answer."""
        state = self.state
        if state.queue[0] == seat:
            self._resolve(seat, action)
            return
        state.pending[seat] = action

    def _settle(self) -> None:
        """After a pass by the first seat: the next seat's waiting answer wins, or the
        window waits for it, or — nobody left — closes."""
        state = self.state
        queue = state.queue
        if queue:
            first = queue[0]
            answer = state.pending.get(first)
            if answer is not None:
                self._resolve(first, answer)
            return
        state.pending = {}
        if state.phase == "buy":
            self._close_buy_window()
        else:  # call window closed
            state.call_card = None
            self._after_discard()

    def _resolve(self, seat: int, action: Action) -> None:
        state = self.state
        state.pending = {}
        if isinstance(action, Buy):
            self._do_buy(seat)
        else:
            assert isinstance(action, Call)  # noqa: S101 - narrows the type for mypy
            self._do_call(seat, action)
