"""What may be done now, and why not: the legal actions of the seat to move,
the lay-downs (suggested, iterated, built card by card), and the reasons an
action is refused (:class:`~liverpool.actions.ActionError` codes)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import partial
from operator import attrgetter
from typing import Literal

from ..actions import (
    Action,
    ActionError,
    Buy,
    Call,
    CommitLayDown,
    Cut,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    Stage,
    SwapJoker,
    Unstage,
    action_problem,
)
from ..cards import Card
from ..errors import GameError, check_seat
from ..melds import (
    End,
    Meld,
    MeldError,
    arrange_meld,
    check_lay_down,
    grow_lay_down,
    lay_down_mode,
    lay_off,
    swap_joker,
)
from ..rules import Rules
from ..solver import find_lay_down, iter_lay_downs, lay_down_may_use
from .core import GameCore
from .facts import MeldFacts, TableFacts

__all__ = ["LegalMoves"]

ACTION_TYPES = (Draw, Buy, Pass, LayDown, LayOff, SwapJoker, Discard, Call, Cut, Stage, Unstage,
                CommitLayDown)
_END_TYPES = (LayOff, Call, Stage)

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


#: per (rules id, round): (rules, lay_down_mode), see _round_mode
_MODES: dict[tuple[int, int], tuple[Rules, str]] = {}


def _round_mode(rules: Rules, rnd: int) -> str:
    """``lay_down_mode(rules, rnd)``, remembered (rules are immutable; an entry
    keeps its rules alive, so their ``id`` is not reused meanwhile)."""
    got = _MODES.get((id(rules), rnd))
    if got is not None and got[0] is rules:
        return got[1]
    mode = lay_down_mode(rules, rnd)
    if len(_MODES) > 1024:
        _MODES.clear()
    _MODES[(id(rules), rnd)] = (rules, mode)
    return mode


_INDEX = attrgetter("index")
_DISCARD_OF = _DISCARDS.__getitem__
_CARD_OF = Card.from_index


#: the table's meld facts, the union of their lay-off kinds, and every wild's
#: swap slot as (meld place, meld, slot) (see LegalMoves._table_facts)

def _distinct(hand: list[Card]) -> list[Card]:
    # Cards are interned: one object per index, so keying by index keeps the
    # first occurrence order (and avoids Card.__hash__ calls).
    return list({c.index: c for c in hand}.values())


def _extended(melds: list[Meld], hand: Sequence[Card], rules: Rules, rnd: int,
              mode: str) -> tuple[Meld, ...]:
    """The suggested lay-down: the minimal lay-down ``melds`` grown with more of
    ``hand`` where the rules allow (:func:`~liverpool.melds.grow_lay_down`)."""
    if mode != "normal":
        return tuple(melds)
    return grow_lay_down(melds, hand, rules, rnd)


def _suggestion(hand: tuple[Card, ...], rules: Rules, rnd: int) -> tuple[Meld, ...]:
    """The suggested lay-down of ``hand`` in ``rnd``, a normal round, which has one."""
    found = find_lay_down(hand, rules, rnd)
    if found is None:  # pragma: no cover - the engine asks only for a hand with one
        raise AssertionError("no lay-down")
    return _extended(found, hand, rules, rnd, "normal")


class LegalMoves(GameCore):
    """Legal actions and the reasons for refusals (see the module's doc)."""

    @property
    def to_move(self) -> int | None:
        """The seat that must decide now (None when the game is over). In a buy or
        call window, the first seat still to answer (see :attr:`answering`)."""
        state = self.state
        if state.phase == "game_over":
            return None
        if state.phase in ("buy", "call"):
            return state.queue[0]
        if state.phase == "cut":
            return (state.dealer - 1) % self.num_players
        return state.turn_player

    @property
    def answering(self) -> tuple[int, ...]:
        """The seats that may answer the open buy or call window now, in priority
        order (empty when no window is open); any of them may answer at any time."""
        state = self.state
        if state.phase not in ("buy", "call"):
            return ()
        return tuple(q for q in state.queue if q not in state.pending)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every legal action of ``seat`` (default :attr:`to_move`) now; lay-downs
        are represented by one suggestion (see :meth:`lay_downs` and
        :meth:`staging_actions`). A seat of an open window that is not first may
        answer it too; any other seat has none. A seat that is no seat of the
        game raises ``GameError`` (``no_such_seat``)."""
        if seat is not None and (seat != self.to_move or seat.__class__ is not int):
            seat = check_seat(seat, self.num_players)  # (a numpy integer: as an int)
            if seat != self.to_move:
                if seat in self.answering:
                    return list(_BUY_OR_PASS) if self.state.phase == "buy" else (
                        self._call_actions() + [_PASS])
                return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[Action]:
        state = self.state
        phase = state.phase
        if phase == "game_over":
            return []
        if phase == "cut":
            size = len(state.stock)
            return [Cut(k) for k in range(1, size)]
        # (the lists kept in _legal are never changed: shared ones will do)
        if phase == "buy":
            return _BUY_OR_PASS
        if phase == "draw":
            if state.stock or len(state.discards) >= 2:  # (_stock_can_supply)
                return _DRAW_EITHER if state.discards else _DRAW_FROM_STOCK
            return _DRAW_FROM_DISCARDS if state.discards else []
        if phase == "call":
            return self._call_actions() + [_PASS]
        return self._play_actions()

    def _may_lay_off_now(self, seat: int, mode: str | None = None) -> bool:
        """May ``seat`` lay off (and swap) now? (``mode``: the round's
        :func:`~liverpool.melds.lay_down_mode`, if known.)"""
        state = self.state
        if not state.down[seat]:
            return False
        if (mode or _round_mode(self.rules, state.round)) != "normal":
            return False
        return self.rules.lay_off_same_turn or state.down_turn[seat] < state.turn_number

    def _play_actions(self) -> list[Action]:
        state = self.state
        rules = self.rules
        seat = state.turn_player
        hand = state.hands[seat]
        out: list[Action] = []
        mode = _round_mode(rules, state.round)
        down = state.down[seat]
        if not down:
            found = self._find_lay_down(seat, hand, mode)
            if found is True:  # there is one: the suggestion is worked out when read
                out.append(LayDown.suggested(partial(_suggestion, tuple(hand), rules, state.round)))
            elif found is not None:
                out.append(LayDown(_extended(found, hand, rules, state.round, mode)))
        # the hand's card kinds, each once, in the order of their first copies
        # (Card.index; cards are interned: one object per index)
        kinds = dict.fromkeys(map(_INDEX, hand))
        if mode == "all_but_one" and down:
            return list(map(_DISCARD_OF, kinds))
        may_lay_off = down and self._may_lay_off_now(seat, mode)
        distinct = list(map(_CARD_OF, kinds)) if may_lay_off else []
        if may_lay_off:
            lay_offs = self._lay_off_actions(distinct, kinds)
            swaps = self._swap_actions(distinct, kinds)
            if state.pending_wilds:
                # the wilds taken in swaps go back onto the table before the
                # discard, in any order with the other lay-offs and swaps, as
                # long as they still can (the swaps are checked so already)
                kept = [a for a in lay_offs if self._keeps_wilds_placeable(a)] + swaps
                if kept:
                    return kept
            out.extend(lay_offs)
            out.extend(swaps)
        # (a last discard is called only under call_last_discard; else it ends the round)
        if (rules.discard_call == "shanghai" and (len(hand) > 1 or rules.call_last_discard)
                and may_lay_off):
            for c in distinct:
                out.append(_DISCARDS[c.index])
                if self._fits_table(c):
                    out.append(Discard(c, announce=True))
        else:
            out += map(_DISCARD_OF, kinds)
        return out

    def _find_lay_down(self, seat: int, hand: list[Card], mode: str
                       ) -> list[Meld] | Literal[True] | None:
        """:func:`~liverpool.melds.find_lay_down` for ``seat``'s hand now, or True
        when the hand surely has a lay-down (the search is then left to the
        suggestion's first reader), skipping the search where the answer is known.

        In a normal round whether a hand has a lay-down depends only on the
        cards it holds, and a lay-down from part of a hand is one from the whole
        hand. So, per seat (for the ruleset and the round):

        * once a hand had none (its card counts are remembered), a later hand has
          one only if it uses a card gained since (a card beyond those counts);
          :func:`~liverpool.melds.lay_down_may_use` says cheaply when none can;
        * once a hand had one (its cards are remembered), a later hand that still
          holds those cards has one.

        The memory is only ever a fact about a hand, so it is kept out of the
        game state (it is not saved, and a restored game just searches).
        """
        rules = self.rules
        rnd = self.state.round
        if mode != "normal":
            return find_lay_down(hand, rules, rnd)
        failed = self._no_lay_down[seat]
        counts = [0] * 53  # the hand's card counts by index
        if failed is not None and failed[0] is rules and failed[1] == rnd:
            old = failed[2]
            new: list[Card] = []  # the copies of a card beyond its count in that hand
            for c in hand:
                k = c.index
                n = counts[k] = counts[k] + 1
                if n > old[k]:
                    new.append(c)
            if not new or not lay_down_may_use(hand, rules, rnd, new, counts=counts):
                self._no_lay_down[seat] = (rules, rnd, counts)
                return None
        else:
            for k in map(_INDEX, hand):
                counts[k] += 1
        had = self._lay_down_held[seat]
        if had is not None and had[0] is rules and had[1] == rnd:
            for k, n in had[2]:
                if counts[k] < n:
                    break
            else:
                return True
        found = find_lay_down(hand, rules, rnd)
        if found is None:
            self._no_lay_down[seat] = (rules, rnd, counts)
        else:
            used: dict[int, int] = {}
            for m in found:
                for c in m.cards:
                    used[c.index] = used.get(c.index, 0) + 1
            self._lay_down_held[seat] = (rules, rnd, tuple(used.items()))
        return found

    def _meld_facts(self, i: int, meld: Meld) -> MeldFacts:
        """The :class:`MeldFacts` of ``meld`` at place ``i``, remembered (as
        :meth:`_fits`: an entry keeps its meld alive, so its ``id`` is not reused)."""
        key = (id(meld), i)
        memo = self._meld_memo
        got = memo.get(key)
        if got is not None and got.meld is meld:
            return got
        facts = MeldFacts(meld, self.rules)
        if len(memo) > 2048:
            memo.clear()
        memo[key] = facts
        return facts

    def _table_facts(self) -> TableFacts:
        """The :class:`MeldFacts` of the table's melds now, remembered while the
        table is the same (the same list, length and layout version)."""
        state = self.state
        table = state.table
        got = self._table_memo
        if (got is not None and got[0] == self.layout_version and got[1] is table
                and got[2] == len(table)):
            return got[3]
        memo = self._meld_memo
        facts: list[MeldFacts] = []
        for i, m in enumerate(table):
            f = memo.get((id(m), i))
            facts.append(f if f is not None and f.meld is m else self._meld_facts(i, m))
        union = frozenset().union(*(f.lay_off_kinds for f in facts))
        slots = [(i, f.meld, slot) for i, f in enumerate(facts) for slot in f.swap_slots]
        out = (facts, union, slots)
        self._table_memo = (self.layout_version, table, len(table), out)
        return out

    def _lay_off_actions(self, distinct: list[Card], kinds: dict[int, None]) -> list[Action]:
        """The lay-offs of the cards ``distinct`` (a hand's, each once; ``kinds``
        their indices), meld by meld, each meld's in the order of ``distinct``."""
        out: list[Action] = []
        table, union, _ = self._table_facts()
        if union.isdisjoint(kinds):
            return out
        for i, facts in enumerate(table):
            m = facts.meld
            may = facts.lay_off_kinds
            if may.isdisjoint(kinds):
                continue  # (the commonest case)
            found = facts.lay_offs
            for c in distinct:
                k = c.index
                if k in may:
                    acts = found.get(k)
                    if acts is None:
                        acts = found[k] = self._card_lay_offs(i, m, c)
                    out.extend(acts)
        return out

    def _card_lay_offs(self, i: int, m: Meld, c: Card) -> tuple[Action, ...]:
        """The lay-offs of ``c`` on ``m`` at place ``i`` (a wild card: at either end of a run)."""
        rules = self.rules
        if m.kind == "set":
            if not (c.rank == 0 or (rules.wild_deuce_of_spades and c.index == 1)) and (
                    c.rank != m.rank or (m.suit >= 0 and c.suit != m.suit)):
                return ()  # a natural card fits only at its own rank (and suit)
            return (LayOff(c, i),) if lay_off(m, c, rules, None) is not None else ()
        out: list[Action] = []
        if c.rank == 0 or (rules.wild_deuce_of_spades and c.index == 1):
            ends: tuple[End, ...] = ("low", "high")
        elif m.suit >= 0 and c.suit != m.suit:
            return ()  # a natural card fits only at its own suit
        else:
            low = (m.rank - 2) % 13 + 1
            high = (m.rank - 1 + len(m.cards)) % 13 + 1
            ends = (*(("low",) if c.rank == low else ()), *(("high",) if c.rank == high else ()))
        for end in ends:
            if lay_off(m, c, rules, end) is not None:
                out.append(LayOff(c, i, end))
        return tuple(out)

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

    def _swap_actions(self, distinct: list[Card], kinds: dict[int, None]) -> list[Action]:
        """The joker swaps of the cards ``distinct`` (a hand's, each once;
        ``kinds`` their indices): meld by meld, wild by wild, in the order of
        ``distinct``."""
        rules = self.rules
        if rules.joker_swap == "none":
            return []
        out: list[Action] = []
        must_play = rules.swapped_joker_must_be_played
        for i, m, (pos, _w, may, found) in self._table_facts()[2]:
            if may.isdisjoint(kinds):
                continue
            # swap_joker takes only a card that is natural where the wild stands
            # (the 2S under wild_deuce_of_spades is natural where it stands for 2S)
            for c in distinct:
                k = c.index
                if k not in may:
                    continue
                a = found.get(k)
                if a is None:
                    a = found[k] = (SwapJoker(c, i, pos)
                                    if swap_joker(m, pos, c, rules) is not None else False)
                if a is False:
                    continue
                if must_play and not self._keeps_wilds_placeable(a):  # type: ignore[arg-type]
                    continue
                out.append(a)  # type: ignore[arg-type]
        return out

    def _keeps_wilds_placeable(self, action: Action) -> bool:
        """After ``action`` (a legal lay-off or swap of the turn player), can the
        wilds still owed to the table (``pending_wilds``, from swaps under
        ``swapped_joker_must_be_played``) all be laid off this turn?"""
        state = self.state
        rules = self.rules
        table = list(state.table)
        hand = list(state.hands[state.turn_player])
        owed = state.pending_wilds
        if not isinstance(action, LayOff | SwapJoker):
            return False
        hand.remove(action.card)
        if isinstance(action, LayOff):
            grown = lay_off(table[action.meld], action.card, rules, action.end)
            if grown is None:
                return False
            table[action.meld] = grown
            if rules.is_wild(action.card):
                owed -= 1
        else:
            meld = table[action.meld]
            swapped = swap_joker(meld, action.position, action.card, rules)
            if swapped is None:
                return False
            table[action.meld] = swapped
            hand.append(meld.cards[action.position])
            owed += 1
        return self._wilds_placeable(table, [c for c in hand if rules.is_wild(c)], owed)

    def _wilds_placeable(self, table: list[Meld], wilds: list[Card], owed: int) -> bool:
        """Can ``owed`` of the cards ``wilds`` be laid off on ``table``, one
        after another? (A search over the melds and their ends; ``owed`` is
        the number of swaps made this turn, a few at most.)"""
        if owed <= 0:
            return True
        if len(wilds) < owed:
            return False
        rules = self.rules
        for w in dict.fromkeys(wilds):
            rest = list(wilds)
            rest.remove(w)
            for i, m in enumerate(table):
                for end in ((None,) if m.kind == "set" else ("low", "high")):
                    grown = lay_off(m, w, rules, end)
                    if grown is None:
                        continue
                    if owed == 1:
                        return True
                    after = list(table)
                    after[i] = grown
                    if self._wilds_placeable(after, rest, owed - 1):
                        return True
        return False

    def _fits_table(self, card: Card) -> bool:
        """Could ``card`` be laid off on some table meld (at either end of a run)?"""
        # (a natural card's kind is among a meld's lay-off kinds exactly when
        # it is natural at a set's rank or just beyond a run's ends; a wild card's always is)
        k = card.index
        table, union, _ = self._table_facts()
        if k not in union:
            return False
        for facts in table:
            if k in facts.lay_off_kinds and self._fits(facts.meld, card, None):
                return True
        return False

    # ----------------------------------------------------------- lay-downs
    def lay_downs(self) -> Iterator[LayDown]:
        """Lazily iterate the legal lay-downs of the turn player now (minimal melds)."""
        state = self.state
        if state.phase != "play" or state.down[state.turn_player]:
            return
        for melds in iter_lay_downs(state.hands[state.turn_player], self.rules, state.round):
            yield LayDown(tuple(melds))

    def suggest_lay_down(self) -> LayDown | None:
        """One legal lay-down for the turn player now, or None."""
        for a in self.legal_actions():
            if isinstance(a, LayDown):
                return a
        return None

    def check_lay_down(self, melds: tuple[Meld, ...] | list[Meld]) -> str | None:
        """Why this lay-down is not legal now (None if it is); melds that are not
        :class:`~liverpool.melds.Meld` objects of cards are malformed, as in
        :meth:`apply`."""
        action = LayDown(tuple(melds) if isinstance(melds, tuple | list) else melds)
        try:
            problem = action_problem(action)
            if problem is not None:
                raise problem
            self._verify(action)
        except ActionError as e:
            return str(e)
        return None

    def arrange_lay_down(self, seat: int, groups: Sequence[Sequence[Card]], *,
                         limit: int = 512) -> list[LayDown]:
        """The lay-downs ``seat`` can make now of these groups of cards, each group
        one meld (a group whose jokers can stand two ways gives each way).

        Only the seat to act, after drawing, may ask, and only its own hand is
        looked at: any other seat gets ``lay_down_not_now`` (an ActionError),
        whatever the groups hold. A group that is no meld raises GameError
        ``meld_invalid``; when no arrangement is legal, the first one's reason
        is raised (an ActionError or MeldError); ``[]`` when there was none.
        At most ``limit`` arrangements are tried.

        >>> from liverpool import Game, load_rules, parse_cards
        >>> from liverpool.actions import Draw
        >>> game = Game(load_rules("liverpool"), players=3, seed=6)
        >>> _ = game.apply(Draw("discard"), seat=0)
        >>> [str(m) for a in game.arrange_lay_down(0, [parse_cards("3H 3D 3C"),
        ...                                             parse_cards("5S * 5D")])
        ...  for m in a.melds]
        ['3H 3D 3C', '5S 5D *']
        >>> game.arrange_lay_down(1, [parse_cards("3H 3D 3C")])
        Traceback (most recent call last):
        ...
        liverpool.actions.ActionError: you can lay down only in your own turn, after drawing
        """
        state = self.state
        if state.phase != "play" or self.to_move != seat or state.turn_player != seat:
            raise ActionError("lay_down_not_now")
        options = [arrange_meld(g, self.rules) for g in groups]
        for g, opts in zip(groups, options, strict=True):
            if not opts:
                raise GameError("meld_invalid", cards=tuple(g))
        found: list[LayDown] = []
        first_error: GameError | None = None
        for combo in itertools.islice(itertools.product(*options), limit):
            lay_down = LayDown(tuple(combo))
            try:
                self._verify(lay_down)
            except (ActionError, MeldError) as e:
                first_error = first_error or e
                continue
            if lay_down not in found:
                found.append(lay_down)
        if not found and first_error is not None:
            raise first_error
        return found

    # ------------------------------------------------ building a lay-down
    def _may_stage(self) -> bool:
        state = self.state
        return state.phase == "play" and not state.down[state.turn_player]

    def _stage_fits(self, cards: list[Card], kind: str, card: Card, end: str | None) -> bool:
        """Could ``cards`` with ``card`` added (at ``end``) still become a meld of
        ``kind``? (Ranks and suits only: the wild limits are checked at the commit.)"""
        rules = self.rules
        seq = [card, *cards] if end == "low" else [*cards, card]
        naturals = [c for c in seq if not rules.is_wild(c)]
        if kind == "set":
            if len({c.rank for c in naturals}) > 1:
                return False
            return not (rules.set_same_suit and len({c.suit for c in naturals}) > 1)
        if rules.run_same_suit and len({c.suit for c in naturals}) > 1:
            return False
        wrap = rules.run_wrap != "never"
        n = len(seq)
        if n > (13 if wrap else 14):
            return False
        placed = [(p, c.rank) for p, c in enumerate(seq) if not rules.is_wild(c)]
        for start in range(1, 14 if wrap else 16 - n):
            ok = True
            for p, rank in placed:
                at = start + p
                ok = ((at - 1) % 13 + 1 == rank) if wrap else (at == rank or (rank == 1 and at == 14))
                if not ok:
                    break
            if ok:
                return True
        # (the 2S may be wild where it does not stand for itself)
        return False

    def staging_actions(self) -> list[Action]:
        """The steps of building a lay-down card by card now: each
        :class:`~liverpool.actions.Stage` that keeps every meld possible,
        :class:`~liverpool.actions.Unstage` when something is staged, and
        :class:`~liverpool.actions.CommitLayDown` when the staged melds are a
        legal lay-down. (Not part of :meth:`legal_actions`: the suggestion
        there lays down in one step.)"""
        if not self._may_stage():
            return []
        cached = self._staging
        if cached is not None and cached[0] == self.version:
            return list(cached[1])
        out = self._compute_staging()
        self._staging = (self.version, out)
        return list(out)

    def _compute_staging(self) -> list[Action]:
        state = self.state
        code = self.rules.contract(state.round).code
        hand = state.hands[state.turn_player]
        staged = state.staged or [[] for _ in code]
        used: dict[int, int] = {}
        for cards in staged:
            for c in cards:
                used[c.index] = used.get(c.index, 0) + 1
        held: dict[int, int] = {}
        for c in hand:
            held[c.index] = held.get(c.index, 0) + 1
        out: list[Action] = []
        for c in _distinct(sorted(hand, key=lambda c: c.index)):
            if used.get(c.index, 0) >= held[c.index]:
                continue
            for slot, kind in enumerate(code):
                cards = staged[slot]
                if kind == "S":
                    if self._stage_fits(cards, "set", c, None):
                        out.append(Stage(c, slot))
                    continue
                ends: tuple[Literal["high", "low"], ...] = ("high", "low") if cards else ("high",)
                for end in ends:
                    if self._stage_fits(cards, "run", c, end):
                        out.append(Stage(c, slot, end))
        if state.stage_log:
            out.append(Unstage())
            try:
                self._check_commit()
                out.append(CommitLayDown())
            except ActionError:
                pass
        return out

    def _check_stage(self, action: Stage) -> None:
        state = self.state
        if not self._may_stage():
            if state.phase == "play":
                raise ActionError("stage_after_down")
            raise ActionError("lay_down_not_now")
        code = self.rules.contract(state.round).code
        if not 0 <= action.meld < len(code):
            raise ActionError("stage_no_slot", number=action.meld + 1)
        hand = state.hands[state.turn_player]
        if action.card not in hand:
            raise ActionError("not_in_hand", card=action.card)
        staged = sum(c == action.card for cards in state.staged for c in cards)
        if staged >= hand.count(action.card):
            raise ActionError("stage_full", card=action.card)
        if code[action.meld] == "S" and action.end is not None:
            raise ActionError("stage_end")
        kind = "set" if code[action.meld] == "S" else "run"
        cards = state.staged[action.meld] if state.staged else []
        if not self._stage_fits(cards, kind, action.card, action.end):
            raise ActionError("meld_invalid", cards=(*cards, action.card))

    # -------------------------------------------------------- verification
    def _checked(self, action: Action) -> Action:
        """``action`` as it will be applied (run end filled in); raises ActionError."""
        if not isinstance(action, ACTION_TYPES):
            raise ActionError("not_an_action", value=repr(action)[:60])
        problem = action_problem(action)
        if problem is not None:
            raise problem
        action = self._resolve_end(action)
        self._verify(action)
        return action

    def _verify(self, action: Action) -> None:
        state = self.state
        if state.phase == "game_over":
            raise ActionError("game_over")
        if isinstance(action, LayDown):
            if state.phase != "play":
                raise ActionError("lay_down_not_now")
            seat = state.turn_player
            if state.down[seat]:
                raise ActionError("already_down")
            legal = self._legal
            if legal is not None:
                for a in legal:
                    if a is action:
                        return  # the suggestion legal_actions made: legal by construction
            try:
                check_lay_down(state.hands[seat], action.melds, self.rules, state.round)
            except MeldError as e:
                raise ActionError(e.code, **e.params) from None
            return
        if isinstance(action, Stage):
            self._check_stage(action)
            return
        if isinstance(action, Unstage):
            if not self._may_stage():
                raise ActionError("lay_down_not_now")
            if not state.stage_log:
                raise ActionError("nothing_staged")
            return
        if isinstance(action, CommitLayDown):
            if not self._may_stage():
                raise ActionError("lay_down_not_now")
            self._check_commit()
            return
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        for a in legal:  # most actions are the very objects legal_actions gave
            if a is action:
                return
        if action in legal:
            return
        raise self._why_illegal(action)

    def _resolve_end(self, action: Action) -> Action:
        """Fill in the run end of a lay-off or call that names none, if only one
        fits; a staged card without an end goes at a run's high end."""
        if not isinstance(action, _END_TYPES):
            return action
        if action.end is not None:
            table = self.state.table
            if (isinstance(action, LayOff) and 0 <= action.meld < len(table)
                    and table[action.meld].kind == "set"):
                return LayOff(action.card, action.meld)  # a set has no ends: any will do
            return action
        if isinstance(action, Stage):
            code = self.rules.contract(self.state.round).code
            if 0 <= action.meld < len(code) and code[action.meld] == "R":
                return Stage(action.card, action.meld, "high")
            return action
        table = self.state.table
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
            card = action.card if isinstance(action, LayOff) else self.state.call_card
            raise ActionError("both_ends", card=card)
        return action

    def _why_illegal(self, action: Action) -> ActionError:
        state = self.state
        seat = self.to_move
        if (isinstance(action, Draw) and action.source == "discard" and state.phase == "draw"
                and not state.discards):
            return ActionError("no_discard_to_take")
        if isinstance(action, Draw | Buy | Cut) or (
                isinstance(action, Pass) and state.phase not in ("buy", "call")) or (
                isinstance(action, Call) and state.phase != "call") or (
                state.phase != "play" and isinstance(action, LayOff | SwapJoker | Discard)):
            return ActionError(f"not_now_{state.phase}", action=action, seat=seat)
        hand = state.hands[state.turn_player] if state.phase == "play" else []
        if isinstance(action, Discard | LayOff | SwapJoker) and action.card not in hand:
            return ActionError("not_in_hand", card=action.card)
        if isinstance(action, LayOff | SwapJoker):
            swap = isinstance(action, SwapJoker)
            if not state.down[state.turn_player]:
                return ActionError("not_down")
            if _round_mode(self.rules, state.round) != "normal":
                return ActionError("no_lay_off_final")
            if not self._may_lay_off_now(state.turn_player):
                return ActionError("swap_next_turn" if swap else "lay_off_next_turn")
            if not 0 <= action.meld < len(state.table):
                return ActionError("no_such_meld", number=action.meld + 1)
            meld = state.table[action.meld]
            if state.pending_wilds or (swap and self.rules.swapped_joker_must_be_played):
                # a lay-off or swap that fits, refused for the wild it would strand
                grown = (swap_joker(meld, action.position, action.card, self.rules)
                         if isinstance(action, SwapJoker)
                         else lay_off(meld, action.card, self.rules, action.end))
                if grown is not None:
                    return ActionError("wild_stranded")
            if isinstance(action, LayOff):
                code = "does_not_fit" if action.end is None else f"does_not_fit_{action.end}"
                return ActionError(code, card=action.card, meld=meld)
            if self.rules.joker_swap == "none":
                return ActionError("no_swaps")
            if self.rules.joker_swap == "runs" and meld.kind == "set":
                return ActionError("swap_runs_only")
            return ActionError("cannot_replace", card=action.card, meld=meld)
        if isinstance(action, Discard):
            if state.pending_wilds:
                return ActionError("swapped_wild_first")
            if action.announce:
                return ActionError("announce_pointless")
            return ActionError("must_lay_down_all")
        if isinstance(action, Call):
            return ActionError("call_no_fit", card=state.call_card)
        return ActionError("not_legal", action=action)
