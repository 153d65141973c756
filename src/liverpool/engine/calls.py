"""The call window: "Liverpool!" (or "Shanghai!") on a discard that could
have been laid off.

After a player whose contract is down discards a card that fits a meld on the
table, every other player may call before the next turn begins (the window's
answers work as in :mod:`.buying`). ``liverpool``: the discarder takes the card
back and draws a penalty card; ``liverpool_pile``: the discarder takes the whole
pile; ``shanghai``: the caller lays the card on the meld and the discarder
draws a card at random from the caller's hand.
"""

from __future__ import annotations

from ..actions import Action, Call
from ..cards import Card
from ..events import Called, PenaltyDrawn, WentOut
from ..melds import lay_off
from .core import GameCore

__all__ = ["CallWindow"]


class CallWindow(GameCore):
    """Discard calls (see the module's doc)."""

    def _open_call(self, card: Card) -> None:
        state = self.state
        n = self.num_players
        queue = [(state.turn_player + k) % n for k in range(1, n)]
        if self.rules.discard_call == "shanghai":
            # the call hands the discarder a card of the caller's: a player with
            # no cards (go_out_requires_discard) has none to hand, and may not call
            queue = [s for s in queue if state.hands[s]]
            if not queue:
                self._after_discard()
                return
        state.call_card = card
        state.queue = queue
        state.pending = {}
        state.phase = "call"

    def _call_actions(self) -> list[Action]:
        state = self.state
        card = state.call_card
        assert card is not None  # noqa: S101 - narrows the type for mypy
        if self.rules.discard_call != "shanghai":
            return [Call()]
        out: list[Action] = []
        for i, m in enumerate(state.table):
            if m.kind == "set":
                if lay_off(m, card, self.rules) is not None:
                    out.append(Call(i))
            else:
                for end in ("low", "high"):
                    if lay_off(m, card, self.rules, end) is not None:
                        out.append(Call(i, end))
        return out

    def _do_call(self, caller: int, action: Call) -> None:
        state = self.state
        rules = self.rules
        seat = state.turn_player
        card = self._pop_discard()
        state.queue = []
        state.pending = {}
        state.call_card = None
        if rules.discard_call == "liverpool":
            state.hands[seat].append(card)
            penalty = self._pop_stock()
            self._emit(Called, caller, seat, card, "liverpool", (), -1, None)
            if penalty is not None:  # known only to the discarder, who drew it
                state.hands[seat].append(penalty)
                self._emit(PenaltyDrawn, seat, penalty, None)
        elif rules.discard_call == "liverpool_pile":
            pile = state.discards + [card]
            state.discards = []
            state.discarders = []
            state.hands[seat].extend(pile)
            self._emit(Called, caller, seat, card, "liverpool_pile", tuple(pile), -1, None)
        else:  # shanghai
            grown = lay_off(state.table[action.meld], card, rules, action.end)
            assert grown is not None  # noqa: S101 - narrows the type for mypy
            state.table[action.meld] = grown
            self.layout_version += 1
            self._emit(Called, caller, seat, card, "shanghai", (), action.meld, grown)
            caller_hand = state.hands[caller]
            if caller_hand:
                taken = caller_hand.pop(self.chance.below("pick", len(caller_hand)))
                state.hands[seat].append(taken)
                self._emit(PenaltyDrawn, seat, taken, caller)
                if not caller_hand and not rules.go_out_requires_discard:
                    # the caller has no cards left: the round ends (docs/rules.md §3.5)
                    self._emit(WentOut, caller)
                    self._end_round(caller)
                    return
        self._after_discard()
