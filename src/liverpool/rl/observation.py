"""The observation of one seat as a fixed-shape ``float32`` vector.

:class:`ObservationEncoder` lays out what a seat may know — its own hand, the
discard pile as exposed, the cards the others were seen to take, the table's
melds, hand sizes, buys, who is down, the round, the contract and the scores —
in a vector whose shape depends only on the ruleset and the player count
(the table of slices: :meth:`ObservationEncoder.layout`, docs/rl.md).

Seats in the vector are *relative*: position 0 is the observing seat, 1 the
seat to its left (the next to play), and so on.

Two ways build the same vector:

- :class:`ObservationTracker` follows one game's public events incrementally
  (and each seat's hand card by card through its draws, takes and discards)
  and builds any seat's vector with a single gather (``numpy.take``): what the
  environments use;
- :meth:`ObservationEncoder.from_view` builds it from a
  :class:`~liverpool.views.SeatView` alone (the reference, and for views
  received over the wire). The tests check that both agree at every step.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..engine import Game
from ..events import (
    Bought,
    Called,
    Discarded,
    Drew,
    GameEnded,
    HandEmptied,
    JokerSwapped,
    LaidDown,
    LaidOff,
    RoundAbandoned,
    RoundEnded,
    RoundStarted,
    StockChosen,
    StockReshuffled,
    TookDiscard,
    UpcardTurned,
    WentOut,
)
from ..melds import Meld
from ..rules import Rules
from ..views import SeatView

__all__ = ["PHASES", "ObservationEncoder", "ObservationTracker"]

#: the phases, in the order of the ``phase`` one-hot
PHASES: tuple[str, ...] = ("cut", "draw", "buy", "play", "call", "game_over")
_PHASE_AT = {p: i for i, p in enumerate(PHASES)}
#: the per-seat features, in the order of the ``seats`` block's rows
SEAT_FEATURES: tuple[str, ...] = (
    "hand_size", "buys", "buys_left", "laid_down", "total", "turn_player", "dealer", "answering",
)
#: scores in the vector are points × this
SCORE_SCALE = 0.01

F32 = npt.NDArray[np.float32]


class ObservationEncoder:
    """The layout of the observation vector for ``rules`` and ``players``.

    ``M`` = the most melds on the table, ``K`` = the slots of a lay-down,
    ``R`` = the rounds, ``n`` = the players (see :meth:`layout`).
    """

    def __init__(self, rules: Rules, players: int) -> None:
        from ..action_space import ActionSpace

        space = ActionSpace(rules, players)
        self.rules = rules
        self.players = n = players
        self.max_table_melds = m = space.max_table_melds
        self.max_contract_melds = k = space.max_contract_melds
        self.num_rounds = r = rules.num_rounds
        decks = rules.decks_for(players)
        copies = float(max(decks, rules.jokers_for(players)) + (decks if rules.wild_deuce_of_spades
                                                                else 0))
        self.deck_size = rules.deck_size(players)
        nf = len(SEAT_FEATURES)
        big = float(self.deck_size)
        #: (name, shape, low, high) of each slice, in order
        self.sections: list[tuple[str, tuple[int, ...], float, float]] = [
            ("hand", (53,), 0.0, copies),
            ("staged", (k, 53), 0.0, copies),
            ("discard_pile", (53,), 0.0, copies),
            ("top_discard", (53,), 0.0, 1.0),
            ("offered", (53,), 0.0, 1.0),
            ("seen_taken", (n - 1, 53), 0.0, copies),
            ("table", (m, 55 + n), 0.0, big),
            ("seats", (nf, n), -1e6, 1e6),
            ("phase", (len(PHASES),), 0.0, 1.0),
            ("round", (r,), 0.0, 1.0),
            ("contract", (2,), 0.0, 8.0),
            ("stock", (1,), 0.0, 1.0),
        ]
        self.slices: dict[str, slice] = {}
        low: list[float] = []
        high: list[float] = []
        at = 0
        for name, shape, lo, hi in self.sections:
            size = int(np.prod(shape))
            self.slices[name] = slice(at, at + size)
            low += [lo] * size
            high += [hi] * size
            at += size
        self.size = at
        self.low = np.array(low, dtype=np.float32)
        self.high = np.array(high, dtype=np.float32)
        # the private part (hand, staged) comes first; the rest is gathered
        self.private = self.slices["staged"].stop
        self._build_state_layout()

    # ------------------------------------------------------------ layout
    def layout(self) -> list[tuple[str, slice, tuple[int, ...]]]:
        """``(name, slice, shape)`` of each section of the vector."""
        return [(name, self.slices[name], shape) for name, shape, _, _ in self.sections]

    def split(self, obs: F32) -> dict[str, F32]:
        """The sections of an observation vector, each in its shape."""
        return {name: obs[sl].reshape(shape) for name, sl, shape in self.layout()}

    def _build_state_layout(self) -> None:
        """The *state* vector: the public sections in absolute seat order, from
        which a seat's vector is gathered (positions in ``self.gather[seat]``)."""
        n, m, r = self.players, self.max_table_melds, self.num_rounds
        nf = len(SEAT_FEATURES)
        at = 0

        def block(size: int) -> int:
            nonlocal at
            start = at
            at += size
            return start

        self.s_discard = block(53)
        self.s_top = block(53)
        self.s_offered = block(53)
        self.s_known = block(n * 53)          # [seat, card]
        self.s_table = block(m * 55)          # [meld, 53 counts + set + run]
        self.s_owner = block(m * n)           # [meld, absolute owner] one-hot
        self.s_dyn = block(nf * n + len(PHASES) + r + 2 + 1)  # rewritten every step
        self.s_seats = self.s_dyn
        self.s_phase = self.s_seats + nf * n
        self.s_round = self.s_phase + len(PHASES)
        self.s_contract = self.s_round + r
        self.s_stock = self.s_contract + 2
        self.state_size = at
        self.gather: list[npt.NDArray[np.intp]] = []
        for seat in range(n):
            idx: list[int] = []
            idx += range(self.s_discard, self.s_discard + 53)
            idx += range(self.s_top, self.s_top + 53)
            idx += range(self.s_offered, self.s_offered + 53)
            for rel in range(1, n):
                a = (seat + rel) % n
                idx += range(self.s_known + a * 53, self.s_known + a * 53 + 53)
            for meld in range(m):
                idx += range(self.s_table + meld * 55, self.s_table + meld * 55 + 55)
                idx += [self.s_owner + meld * n + (seat + rel) % n for rel in range(n)]
            for f in range(nf):
                idx += [self.s_seats + f * n + (seat + rel) % n for rel in range(n)]
            idx += range(self.s_phase, self.s_stock + 1)
            arr = np.array(idx, dtype=np.intp)
            assert len(arr) == self.size - self.private  # noqa: S101 - the layout is built to match
            self.gather.append(arr)
        # the tracker's buffer: the state vector, then each seat's private part;
        # a seat's whole vector is one gather from it
        self._private_at = [self.state_size + seat * self.private for seat in range(n)]
        self._buffer_size = self.state_size + n * self.private
        self._full_gather = [
            np.concatenate([np.arange(at, at + self.private, dtype=np.intp), g])
            for at, g in zip(self._private_at, self.gather, strict=True)]

    # ------------------------------------------------------- from a view
    def from_view(self, view: SeatView) -> F32:
        """The vector of ``view.seat`` from the view alone (the reference
        implementation; :class:`ObservationTracker` is the fast one)."""
        if view.seat is None:
            raise ValueError("a spectator view has no seat to observe from")
        seat = view.seat
        n = self.players
        state = np.zeros(self.state_size, dtype=np.float32)
        known = _Known(n)
        for e in view.events:
            known.feed(e)
        for a in range(n):
            for idx, count in known.counts[a].items():
                state[self.s_known + a * 53 + idx] = count
        for c in view.discard_pile:
            state[self.s_discard + c.index] += 1
        for i, (meld, owner) in enumerate(zip(view.table, view.table_owners, strict=True)):
            self._write_meld(state, i, meld, owner)
        top = view.top_discard
        offered = view.offered_card
        self._write_dynamic(
            state, top.index if top is not None else -1,
            offered.index if offered is not None else -1,
            hand_sizes=view.hand_sizes, buys=view.buys, laid_down=view.laid_down,
            totals=view.totals, turn_player=view.turn_player, dealer=view.dealer,
            answering=_answering(view), phase=view.phase, round=view.round,
            sets=view.contract.sets, runs=view.contract.runs, stock=view.stock_size)
        obs = np.empty(self.size, dtype=np.float32)
        self._write_private(obs, view.hand, view.staged)
        np.take(state, self.gather[seat], out=obs[self.private:])
        return obs

    # ---------------------------------------------------------- writers
    def _write_meld(self, state: F32, i: int, meld: Meld, owner: int) -> None:
        base = self.s_table + i * 55
        state[base:base + 55] = 0.0
        for c in meld.cards:
            state[base + c.index] += 1
        state[base + (53 if meld.kind == "set" else 54)] = 1.0
        ob = self.s_owner + i * self.players
        state[ob:ob + self.players] = 0.0
        state[ob + owner] = 1.0

    def _write_dynamic(self, state: F32, top: int, offered: int, *, hand_sizes: Sequence[int],
                       buys: Sequence[int], laid_down: Sequence[bool], totals: Sequence[int],
                       turn_player: int, dealer: int, answering: Iterable[int], phase: str,
                       round: int, sets: int, runs: int, stock: int) -> None:
        """Write every per-step section into a zeroed ``state``."""
        n = self.players
        if top >= 0:
            state[self.s_top + top] = 1.0
        if offered >= 0:
            state[self.s_offered + offered] = 1.0
        self._write_slow(state, buys, laid_down, totals, dealer, round, sets, runs)
        seats = self.s_seats
        state[seats:seats + n] = hand_sizes
        state[seats + 5 * n + turn_player] = 1.0
        for a in answering:
            state[seats + 7 * n + a] = 1.0
        state[self.s_phase + _PHASE_AT[phase]] = 1.0
        state[self.s_stock] = stock / self.deck_size

    def _write_slow(self, state: F32, buys: Sequence[int], laid_down: Sequence[bool],
                    totals: Sequence[int], dealer: int, round: int, sets: int,
                    runs: int) -> None:
        """The sections that change only with a buy, a lay-down or a round."""
        n = self.players
        limit = self.rules.buy_limit
        deal = [0.0] * n
        deal[dealer] = 1.0
        seats = self.s_seats
        state[seats + n:seats + 5 * n] = [
            *buys,
            *([float(limit - b) for b in buys] if limit is not None else [-1.0] * n),
            *[1.0 if d else 0.0 for d in laid_down],
            *[t * SCORE_SCALE for t in totals]]
        state[seats + 6 * n:seats + 7 * n] = deal
        rd = [0.0] * self.num_rounds
        rd[round - 1] = 1.0
        state[self.s_round:self.s_round + self.num_rounds] = rd
        state[self.s_contract] = sets
        state[self.s_contract + 1] = runs

    def _write_private(self, obs: F32, hand: Sequence[Card],
                       staged: Sequence[Sequence[Card]]) -> None:
        obs[:53] = np.bincount([c.index for c in hand], minlength=53)
        obs[53:self.private] = 0.0
        for slot, meld in enumerate(staged):
            base = 53 + slot * 53
            obs[base:base + 53] = np.bincount([c.index for c in meld], minlength=53)


def _answering(view: SeatView) -> tuple[int, ...]:
    if view.phase not in ("buy", "call"):
        return ()
    # the seats still to answer: the queue less the ones whose answer waits
    # (a view shows only its own waiting answer; an environment never lets one wait)
    return tuple(q for q in view.queue if not (q == view.seat and view.answer is not None))


class _Known:
    """Per seat, the cards it was seen to take and not seen to play since
    (public events of the current round only)."""

    def __init__(self, players: int) -> None:
        self.counts: list[dict[int, int]] = [{} for _ in range(players)]

    def _add(self, seat: int, card: Card) -> tuple[int, int]:
        d = self.counts[seat]
        i = card.index
        d[i] = d.get(i, 0) + 1
        return seat, i

    def _drop(self, seat: int, card: Card) -> tuple[int, int] | None:
        d = self.counts[seat]
        i = card.index
        c = d.get(i, 0)
        if c <= 0:
            return None
        if c == 1:
            del d[i]
        else:
            d[i] = c - 1
        return seat, i

    def feed(self, e: Any) -> list[tuple[int, int]] | None:
        """Take one event in; returns the (seat, card index) entries it changed
        (None: everything was reset)."""
        cls = e.__class__
        if cls is RoundStarted:
            for d in self.counts:
                d.clear()
            return None
        if cls is TookDiscard or cls is Bought:
            return [self._add(e.seat, e.card)]
        if cls is Discarded or cls is LaidOff:
            got = self._drop(e.seat, e.card)
            return [got] if got else []
        if cls is LaidDown:
            out = []
            for meld in e.melds:
                for c in meld.cards:
                    got = self._drop(e.seat, c)
                    if got:
                        out.append(got)
            return out
        if cls is JokerSwapped:
            out = []
            got = self._drop(e.seat, e.card)
            if got:
                out.append(got)
            out.append(self._add(e.seat, e.wild))
            return out
        if cls is Called:
            c = e
            if c.call == "liverpool":
                return [self._add(c.discarder, c.card)]
            if c.call == "liverpool_pile":
                return [self._add(c.discarder, x) for x in c.cards]
        return []


_SLOW = (RoundStarted, Bought, LaidDown, RoundEnded, GameEnded)
#: the events after which no hand has changed (after any other event but
#: Drew, TookDiscard and Discarded, which the tracker follows card by card,
#: the hands are read again)
_HANDS_KEPT = frozenset({StockChosen, UpcardTurned, StockReshuffled, HandEmptied, WentOut,
                         RoundAbandoned, RoundEnded, GameEnded})


class ObservationTracker:
    """Follows one game (through its public events and properties only) and
    builds the observation vector of any seat quickly.

    It keeps one buffer: the state vector (the public sections, in absolute
    seat order) followed by each seat's private part (hand, staged). Every
    decision it takes the new events in and rewrites only what they changed
    (single values, through a ``memoryview`` of the buffer: cheaper than
    numpy's item assignment), and a seat's vector is one ``take`` of the buffer
    (:meth:`observe`)."""

    def __init__(self, encoder: ObservationEncoder, game: Game) -> None:
        self.enc = encoder
        self.game = game
        n = encoder.players
        self._buf: F32 = np.zeros(encoder._buffer_size, dtype=np.float32)
        #: the state vector (a view of the buffer)
        self.state: F32 = self._buf[:encoder.state_size]
        # (float items: numpy's float32 buffer has format 'f')
        self._mv: memoryview[float] = cast("memoryview[float]", self._buf.data)
        self.known = _Known(n)
        self.seen = 0
        self.version = -1
        self.totals = [0] * n
        if not game.events:  # a position built without its history (from_view, from_json)
            self.totals = list(game.results().totals)
            for c in game.discards:
                self.state[encoder.s_discard + c.index] += 1
            for i, (meld, owner) in enumerate(zip(game.table, game.table_owners, strict=True)):
                encoder._write_meld(self.state, i, meld, owner)
        # the positions of the one-hot values set now (-1: none)
        self._top = self._offered = -1
        self._turn = self._phase = -1
        self._answering: tuple[int, ...] = ()
        #: the owner of each table meld
        self.owners: dict[int, int] = dict(enumerate(game.table_owners)) if not game.events else {}
        # hand sizes and each seat's hand counts follow Drew, TookDiscard and
        # Discarded; after any other event that may change a hand they are read
        # again from the game (the sizes at the next refresh, a seat's counts
        # when it is observed next)
        self._sizes = [0] * n
        self._sizes_stale = True
        self._hand_stale = [True] * n
        self._staged = [False] * n
        self._stock = -1
        # positions in the buffer, looked up once
        self._events_at = (encoder.s_known, encoder.s_discard, encoder.s_seats,
                           encoder._private_at)
        self._turn_at = encoder.s_seats + 5 * n
        self._answer_at = encoder.s_seats + 7 * n
        self._phase_at = {p: encoder.s_phase + i for i, p in enumerate(PHASES)}
        self._gathers = encoder._full_gather

    def _catch_up(self, events: list[Any]) -> bool:
        """Take the new ``events`` (the game's) in; True when a slowly changing
        section changed."""
        enc = self.enc
        state = self.state
        mv = self._mv
        known = self.known
        counts = known.counts
        s_known, s_discard, s_sizes, private = self._events_at
        sizes = self._sizes
        pile_dirty = False
        slow = False
        for e in events[self.seen:]:
            cls = e.__class__
            # the commonest events first, inlined (as _Known.feed and below)
            if cls is Drew:
                seat = e.seat
                card = e.card
                if card is None:  # (never in a game's own events)
                    self._hands_changed()
                    continue
                mv[private[seat] + card.index] += 1.0
                sizes[seat] += 1
                mv[s_sizes + seat] = sizes[seat]
                continue
            if cls is StockChosen:
                continue  # nothing public changes
            if cls is Discarded:
                seat = e.seat
                i = e.card.index
                d = counts[seat]
                c = d.get(i, 0)
                if c > 0:
                    if c == 1:
                        del d[i]
                    else:
                        d[i] = c - 1
                    mv[s_known + seat * 53 + i] = c - 1
                mv[s_discard + i] += 1.0
                mv[private[seat] + i] -= 1.0
                sizes[seat] -= 1
                mv[s_sizes + seat] = sizes[seat]
                continue
            if cls is TookDiscard:
                seat = e.seat
                i = e.card.index
                d = counts[seat]
                c = d.get(i, 0) + 1
                d[i] = c
                mv[s_known + seat * 53 + i] = c
                mv[s_discard + i] -= 1.0
                mv[private[seat] + i] += 1.0
                sizes[seat] += 1
                mv[s_sizes + seat] = sizes[seat]
                continue
            if cls is UpcardTurned:
                mv[s_discard + e.card.index] += 1.0
                continue
            if cls not in _HANDS_KEPT:
                self._hands_changed()
            if cls in _SLOW:
                slow = True
            changed = known.feed(e)
            if changed is None:  # a new round
                state[s_known:enc.s_owner + enc.max_table_melds * enc.players] = 0.0
                pile_dirty = True
                self.owners.clear()
                continue
            for seat, idx in changed:
                mv[s_known + seat * 53 + idx] = counts[seat].get(idx, 0)
            if cls is Bought:
                mv[s_discard + e.card.index] -= 1.0
            elif cls is StockReshuffled:
                pile_dirty = True
            elif cls is LaidDown:
                ev = e
                for j, meld in enumerate(ev.melds):
                    enc._write_meld(state, ev.first + j, meld, ev.seat)
                    self.owners[ev.first + j] = ev.seat
            elif cls is LaidOff or cls is JokerSwapped:
                ev = e
                enc._write_meld(state, ev.meld, ev.result, self.owners[ev.meld])
            elif cls is Called:
                ev = e
                if ev.call == "liverpool_pile":
                    pile_dirty = True
                else:
                    mv[s_discard + ev.card.index] -= 1.0
                if ev.result is not None and ev.meld >= 0:
                    enc._write_meld(state, ev.meld, ev.result, self.owners[ev.meld])
            elif cls is RoundEnded:
                ev = e
                self.totals = [t + s for t, s in zip(self.totals, ev.scores, strict=True)]
            elif cls is GameEnded:
                self.totals = list(e.totals)
        self.seen = len(events)
        if pile_dirty:
            state[s_discard:s_discard + 53] = 0.0
            for c in self.game.discards:
                mv[s_discard + c.index] += 1.0
        return slow

    def _hands_changed(self) -> None:
        """Some hands may have changed otherwise than card by card: read them again."""
        self._sizes_stale = True
        self._hand_stale = [True] * self.enc.players

    def refresh(self) -> None:
        """Bring the state vector up to the game's version."""
        game = self.game
        version = game.version
        events: list[Any] = game.events
        if version == self.version and self.seen == len(events):
            return
        if version < self.version or len(events) < self.seen:
            raise ValueError("the game went back: build a new tracker for it")
        enc = self.enc
        mv = self._mv
        slow = self._catch_up(events) if self.seen < len(events) else False
        if slow or self.version < 0:
            contract = enc.rules.contract(game.round)
            enc._write_slow(self.state, game.buys, game.laid_down, self.totals, game.dealer,
                            game.round, contract.sets, contract.runs)
        self.version = version
        card = game.top_discard
        top = enc.s_top + card.index if card is not None else -1
        if top != self._top:
            if self._top >= 0:
                mv[self._top] = 0.0
            if top >= 0:
                mv[top] = 1.0
            self._top = top
        name = game.phase
        # (Game.offered_card: the top discard in a buy window or at the draw)
        if name == "call":
            card = game.offered_card
        elif name != "buy" and name != "draw":
            card = None
        offered = enc.s_offered + card.index if card is not None else -1
        if offered != self._offered:
            if self._offered >= 0:
                mv[self._offered] = 0.0
            if offered >= 0:
                mv[offered] = 1.0
            self._offered = offered
        if self._sizes_stale:
            self._sizes = list(game.hand_sizes)
            for i, size in enumerate(self._sizes):
                mv[enc.s_seats + i] = size
            self._sizes_stale = False
        turn = self._turn_at + game.turn_player
        if turn != self._turn:
            if self._turn >= 0:
                mv[self._turn] = 0.0
            mv[turn] = 1.0
            self._turn = turn
        if name == "buy" or name == "call" or self._answering:
            answering = game.answering
            if answering != self._answering:
                base = self._answer_at
                for i in self._answering:
                    mv[base + i] = 0.0
                for i in answering:
                    mv[base + i] = 1.0
                self._answering = answering
        phase = self._phase_at[name]
        if phase != self._phase:
            if self._phase >= 0:
                mv[self._phase] = 0.0
            mv[phase] = 1.0
            self._phase = phase
        stock = game.stock_size
        if stock != self._stock:
            mv[enc.s_stock] = stock / enc.deck_size
            self._stock = stock

    def observe(self, seat: int, out: F32 | None = None) -> F32:
        """The vector of ``seat`` now: a new array, or written into ``out`` (a
        ``float32`` array of the encoder's ``size``) and returned."""
        self.refresh()
        game = self.game
        buf = self._buf
        if self._hand_stale[seat]:
            at = self.enc._private_at[seat]
            buf[at:at + 53] = np.bincount([c.index for c in game.hand(seat)], minlength=53)
            self._hand_stale[seat] = False
        if seat == game.turn_player:
            staged = game.staged
            if staged or self._staged[seat]:
                self._write_staged(seat, staged)
        elif self._staged[seat]:
            self._write_staged(seat, ())
        if out is None:
            return buf.take(self._gathers[seat])
        np.take(buf, self._gathers[seat], out=out)
        return out

    def _write_staged(self, seat: int, staged: Sequence[Sequence[Card]]) -> None:
        enc = self.enc
        buf = self._buf
        at = enc._private_at[seat] + 53
        buf[at:at + enc.private - 53] = 0.0
        for slot, meld in enumerate(staged):
            base = at + slot * 53
            buf[base:base + 53] = np.bincount([c.index for c in meld], minlength=53)
        self._staged[seat] = bool(staged)
