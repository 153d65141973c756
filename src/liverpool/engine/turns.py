"""The turn flow: a round's deal, then turn after turn — draw, lay down, lay
off and swap, discard — until a player goes out."""

from __future__ import annotations

from ..actions import ActionError, CommitLayDown, Discard, Draw, LayDown, LayOff, Stage, SwapJoker
from ..cards import make_deck
from ..events import (
    DeckCut,
    Discarded,
    Drew,
    HandEmptied,
    JokerSwapped,
    LaidDown,
    LaidOff,
    RoundAbandoned,
    RoundStarted,
    StockChosen,
    TookDiscard,
    UpcardTurned,
    WentOut,
)
from ..melds import (
    Meld,
    MeldError,
    check_lay_down,
    lay_down_mode,
    lay_off,
    swap_joker,
    table_readings,
)
from .core import GameCore

__all__ = ["TurnFlow"]


class TurnFlow(GameCore):
    """Rounds and turns (see the module's doc)."""

    # --------------------------------------------------------------- rounds
    def _start_round(self, round: int) -> None:
        state = self.state
        n = self.num_players
        rules = self.rules
        state.round = round
        state.dealer = (round - 2) % n  # round 1: the last seat deals, seat 0 starts
        state.hands = [[] for _ in range(n)]
        self.layout_version += 1
        state.table = []
        state.owners = []
        state.down = [False] * n
        state.down_turn = [-1] * n
        state.buys = [0] * n
        state.turn_number = 0
        state.queue = []
        state.pending = {}
        state.last_buyer = -1
        state.stock_chosen = False
        state.call_card = None
        state.pending_wilds = 0
        state.cut_bonus_seat = -1
        state.staged = []
        state.stage_log = []
        deck = make_deck(rules.decks_for(n), rules.jokers_for(n))
        state.stock = self.chance.shuffle("deal", deck)
        state.discards = []
        state.discarders = []
        contract = rules.contract(round)
        self._emit(RoundStarted, round, state.dealer, contract.sets, contract.runs,
                   rules.cards_dealt(round))
        if rules.liverpool_cut:
            state.phase = "cut"
            self._legal = None
            return
        self._deal()

    def _do_cut(self, count: int) -> None:
        state = self.state
        rules = self.rules
        n = self.num_players
        size = len(state.stock)
        noise = rules.cut_noise
        actual = count + (self.chance.below("cut", 2 * noise + 1) - noise if noise else 0)
        actual = max(1, min(size - 1, actual))
        state.stock = state.stock[-actual:] + state.stock[:-actual]
        cutter = (state.dealer - 1) % n
        target = n * rules.cards_dealt(state.round) + (1 if rules.initial_upcard else 0)
        bonus = 0
        if actual == target:
            state.cut_bonus_seat = cutter
            bonus = rules.cut_bonus
        self._emit(DeckCut, cutter, actual, bonus)
        self._deal()

    def _deal(self) -> None:
        state = self.state
        n = self.num_players
        for _ in range(self.rules.cards_dealt(state.round)):
            for k in range(1, n + 1):
                state.hands[(state.dealer + k) % n].append(state.stock.pop())
        if self.rules.initial_upcard:
            card = state.stock.pop()
            self._push_discard(card, -1)
            self._emit(UpcardTurned, card, False)
        self._start_turn((state.dealer + 1) % n)

    def _start_turn(self, seat: int) -> None:
        state = self.state
        state.turn_number += 1
        state.turn_player = seat
        state.stock_chosen = False
        state.last_buyer = -1
        state.pending_wilds = 0
        if state.staged:
            state.staged = []
            state.stage_log = []
        if state.turn_number > self.rules.max_turns_per_round:
            self._emit(RoundAbandoned, "stalled")
            self._end_round(None)
            return
        self._offer_discard()

    # ---------------------------------------------------------------- draws
    def _do_draw(self, action: Draw) -> None:
        state = self.state
        seat = state.turn_player
        if action.source == "discard":
            state.discarders.pop()  # (_pop_discard, _begin_play: the commonest draw, inlined)
            card = state.discards.pop()
            state.hands[seat].append(card)
            events = self.events  # (_emit, inlined)
            events.append(TookDiscard(len(events), seat, card, False))
            state.phase = "play"
            state.queue = []
            self._legal = None
            return
        state.stock_chosen = True
        if self.rules.buy_priority == "turn_player_first":
            if state.discards:  # (with no discard pile there is no discard to turn down)
                events = self.events  # (_emit, inlined)
                events.append(StockChosen(len(events), seat))
            self._offer_discard()
        else:
            self._draw_stock_for_turn()

    def _draw_stock_for_turn(self) -> None:
        state = self.state
        seat = state.turn_player
        card = state.stock.pop() if state.stock else self._pop_stock()  # (the commonest case first)
        if card is None:
            if state.discards:
                card = self._pop_discard()
                state.hands[seat].append(card)
                self._emit(TookDiscard, seat, card, True)
            else:
                self._emit(RoundAbandoned, "exhausted")
                self._end_round(None)
                return
        else:
            state.hands[seat].append(card)
            events = self.events  # (_emit, inlined)
            events.append(Drew(len(events), seat, card))
        state.phase = "play"  # (_begin_play, inlined)
        state.queue = []
        self._legal = None

    def _begin_play(self) -> None:
        self.state.phase = "play"
        self.state.queue = []
        self._legal = None

    # ------------------------------------------------------------ lay downs
    def _do_lay_down(self, action: LayDown) -> None:
        state = self.state
        seat = state.turn_player
        hand = state.hands[seat]
        first = len(state.table)
        for m in action.melds:
            for c in m.cards:
                hand.remove(c)
            state.table.append(m)
            state.owners.append(seat)
        state.down[seat] = True
        state.down_turn[seat] = state.turn_number
        if state.staged:
            state.staged = []
            state.stage_log = []
        self.layout_version += 1
        self._emit(LaidDown, seat, tuple(action.melds), first)
        if not hand:
            self._hand_emptied(seat)

    def staged_melds(self) -> list[Meld]:
        """The lay-down being built (:class:`~liverpool.actions.Stage`) as melds;
        raises :class:`ActionError` if a meld of it is not one yet."""
        state = self.state
        rules = self.rules
        code = rules.contract(state.round).code
        melds = []
        for slot, cards in enumerate(state.staged):
            staged = tuple(cards)
            meld: Meld | None = None
            if code[slot] == "S":  # a set: the cards in the order they were put in
                naturals = [c for c in staged if not rules.is_wild(c)] or [
                    c for c in staged if c.rank]
                if naturals:
                    meld = Meld("set", staged, naturals[0].rank,
                                naturals[0].suit if rules.set_same_suit else -1)
            else:  # a run: the cards low to high as they were put in
                meld = next((m for m in table_readings(staged, rules)
                             if m.kind == "run" and m.cards == staged), None)
            if meld is None:
                raise ActionError("meld_invalid", cards=staged)
            melds.append(meld)
        return melds

    def _do_stage(self, action: Stage) -> None:
        state = self.state
        if not state.staged:
            state.staged = [[] for _ in self.rules.contract(state.round).code]
        cards = state.staged[action.meld]
        if action.end == "low":
            cards.insert(0, action.card)
        else:
            cards.append(action.card)
        state.stage_log.append((action.meld, action.end))

    def _do_unstage(self) -> None:
        state = self.state
        slot, end = state.stage_log.pop()
        cards = state.staged[slot]
        if end == "low":
            cards.pop(0)
        else:
            cards.pop()
        if not state.stage_log:
            state.staged = []

    def _do_commit(self, action: CommitLayDown) -> None:
        self._do_lay_down(LayDown(tuple(self.staged_melds())))

    def _check_commit(self) -> LayDown:
        """The staged lay-down as a :class:`LayDown`, if it is legal; else ActionError."""
        state = self.state
        if not state.stage_log:
            raise ActionError("nothing_to_commit")
        melds = self.staged_melds()
        try:
            check_lay_down(state.hands[state.turn_player], melds, self.rules, state.round)
        except MeldError as e:
            raise ActionError(e.code, **e.params) from None
        return LayDown(tuple(melds))

    # ------------------------------------------------------ lay off, swap
    def _do_lay_off(self, action: LayOff) -> None:
        state = self.state
        seat = state.turn_player
        grown = lay_off(state.table[action.meld], action.card, self.rules, action.end)
        assert grown is not None  # noqa: S101 - narrows the type for mypy
        state.table[action.meld] = grown
        self.layout_version += 1
        state.hands[seat].remove(action.card)
        if state.pending_wilds and self.rules.is_wild(action.card):
            state.pending_wilds -= 1
        self._emit(LaidOff, seat, action.card, action.meld, grown)
        if not state.hands[seat]:
            self._hand_emptied(seat)

    def _do_swap(self, action: SwapJoker) -> None:
        state = self.state
        seat = state.turn_player
        meld = state.table[action.meld]
        wild = meld.cards[action.position]
        swapped = swap_joker(meld, action.position, action.card, self.rules)
        assert swapped is not None  # noqa: S101 - narrows the type for mypy
        state.table[action.meld] = swapped
        self.layout_version += 1
        hand = state.hands[seat]
        hand.remove(action.card)
        hand.append(wild)
        if self.rules.swapped_joker_must_be_played:
            state.pending_wilds += 1
        self._emit(JokerSwapped, seat, action.card, wild, action.meld, action.position, swapped)

    # ------------------------------------------------------ discard, going out
    def _hand_emptied(self, seat: int) -> None:
        """The turn player has no cards left after a lay-down or lay-off."""
        if (self.rules.go_out_requires_discard
                and lay_down_mode(self.rules, self.state.round) == "normal"):
            self._emit(HandEmptied, seat)
            self._start_turn((seat + 1) % self.num_players)
            return
        self._emit(WentOut, seat)
        self._end_round(seat)

    def _do_discard(self, action: Discard) -> None:
        state = self.state
        rules = self.rules
        seat = state.turn_player
        card = action.card
        hand = state.hands[seat]
        # hand.remove(card) without a Card.__eq__ call per card before it (cards
        # are interned: the equal card is the same object)
        for i, c in enumerate(hand):
            if c is card:
                del hand[i]
                break
        else:
            raise ValueError(f"{card} is not in the hand")
        state.discards.append(card)  # (_push_discard, inlined)
        state.discarders.append(seat)
        events = self.events  # (_emit, inlined)
        events.append(Discarded(len(events), seat, card, action.announce))
        if (rules.discard_call != "none" and not action.announce
                and (hand or rules.call_last_discard) and state.down[seat]
                and self._may_lay_off_now(seat) and self._fits_table(card)):
            # (without call_last_discard a last discard ends the round at once)
            self._open_call(card)
            return
        self._after_discard()

    def _after_discard(self) -> None:
        state = self.state
        seat = state.turn_player
        if not state.hands[seat]:
            self._emit(WentOut, seat)
            self._end_round(seat)
            return
        self._start_turn((seat + 1) % self.num_players)
