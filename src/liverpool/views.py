"""Per-seat views: exactly what one seat may know, nothing more.

A :class:`SeatView` holds the seat's own hand, the sizes of the other hands,
the table, the discard pile (every card in it was seen face up), the buys,
scores and whose turn it is — never another hand and never the order of the
stock. A spectator view (``seat=None``) holds only public information.
:class:`SeatViews` builds them incrementally as a game goes on (``Game.view``
and the simulator use it); ``SeatView.to_json``/``from_json`` carry them over
the wire.

>>> from liverpool import Game, load_rules
>>> game = Game(load_rules("remi"), players=3, seed=1)
>>> v = game.view(0)
>>> len(v.hand), v.hand_sizes, v.stock_size
(10, (10, 10, 10), 82)
>>> game.view(None).hand
()
>>> SeatView.from_json(v.to_json()) == v
True
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any, NamedTuple

from .actions import Action, ActionError, action_from_json
from .cards import Card, CardError
from .errors import RecordError, check_seat
from .events import Event, EventError, RoundStarted, event_from_json
from .melds import Meld, MeldError
from .rules import Contract

__all__ = ["VIEW_FORMAT", "SeatView", "SeatViews"]

#: the format tag of :meth:`SeatView.to_json` data
VIEW_FORMAT = "liverpool-rummy-view/1"


class SeatView(NamedTuple):
    """What ``seat`` (None: a spectator) knows at one moment of the game.

    An immutable named tuple: :class:`SeatViews` makes one for a seat at every
    decision, and a tuple is the cheapest immutable value Python builds.
    ``view._replace(field=value)`` gives a changed copy.
    """

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
    #: the events of the current round, as this seat may see them
    events: tuple[Event, ...]
    # public bookkeeping of the turn (enough to continue the game from here)
    turn_number: int = 0
    down_turns: tuple[int, ...] = ()
    #: the seats of an open buy or call window still to answer, in priority order
    queue: tuple[int, ...] = ()
    last_buyer: int = -1
    stock_chosen: bool = False
    pending_wilds: int = 0
    cut_bonus_seat: int = -1
    #: who discarded each card of the pile (-1: turned up from the stock)
    discarders: tuple[int, ...] = ()
    #: the lay-down this seat is building (its own cards; empty for the others)
    staged: tuple[tuple[Card, ...], ...] = ()
    #: this seat's answer to the open window, waiting for the seats before it
    answer: Action | None = None
    #: the game's version (:attr:`liverpool.Game.version`) this view was made at
    version: int = 0

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def to_json(self, *, events: bool = True) -> dict[str, Any]:
        """The view as JSON data (see docs/schema.json); without ``events`` its
        event list is left empty (for messages that carry the events beside it)."""
        return {
            "format": VIEW_FORMAT,
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
            "events": [e.to_json() for e in self.events] if events else [],
            "turn_number": self.turn_number,
            "down_turns": list(self.down_turns),
            "queue": list(self.queue),
            "last_buyer": self.last_buyer,
            "stock_chosen": self.stock_chosen,
            "pending_wilds": self.pending_wilds,
            "cut_bonus_seat": self.cut_bonus_seat,
            "discarders": list(self.discarders),
            "staged": [[str(c) for c in m] for m in self.staged],
            "answer": None if self.answer is None else self.answer.to_json(),
            "version": self.version,
        }

    @classmethod
    def from_json(cls, data: Any) -> SeatView:
        """Read a view from :meth:`to_json` data; raises :class:`~liverpool.RecordError`."""
        if not isinstance(data, dict) or data.get("format") != VIEW_FORMAT:
            raise RecordError(f"a view must be an object with format {VIEW_FORMAT!r}")
        try:
            table = [Meld.from_json(m) for m in data["table"]]
            owners = tuple(int(m["owner"]) for m in data["table"])
            answer = data["answer"]
            return cls(
                seat=data["seat"], players=data["players"], round=data["round"],
                num_rounds=data["num_rounds"],
                contract=Contract(data["contract"]["sets"], data["contract"]["runs"]),
                cards_dealt=data["cards_dealt"], dealer=data["dealer"],
                turn_player=data["turn_player"], phase=data["phase"],
                to_move=data["to_move"], hand=_cards(data["hand"]),
                hand_sizes=tuple(data["hand_sizes"]), table=tuple(table),
                table_owners=owners, discard_pile=_cards(data["discard_pile"]),
                stock_size=data["stock_size"],
                offered_card=None if data["offered_card"] is None else Card.parse(
                    data["offered_card"]),
                laid_down=tuple(data["laid_down"]), buys=tuple(data["buys"]),
                buy_limit=data["buy_limit"],
                round_scores=tuple(tuple(r) for r in data["round_scores"]),
                totals=tuple(data["totals"]),
                legal_actions=tuple(action_from_json(a) for a in data["legal_actions"]),
                events=tuple(event_from_json(e) for e in data["events"]),
                turn_number=data["turn_number"], down_turns=tuple(data["down_turns"]),
                queue=tuple(data["queue"]), last_buyer=data["last_buyer"],
                stock_chosen=data["stock_chosen"], pending_wilds=data["pending_wilds"],
                cut_bonus_seat=data["cut_bonus_seat"], discarders=tuple(data["discarders"]),
                staged=tuple(_cards(m) for m in data["staged"]),
                answer=None if answer is None else action_from_json(answer),
                version=data["version"],
            )
        except KeyError as e:
            raise RecordError(f"the view is malformed: it has no {e}") from None
        except (TypeError, ValueError, CardError, MeldError, EventError, ActionError) as e:
            raise RecordError(f"the view is malformed ({type(e).__name__}: {e})") from None


def _cards(items: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in items)


_card_index = attrgetter("index")


class SeatViews:
    """Builds the seat views of one game incrementally.

    Each seat's (and the spectators') events of the current round are kept
    filtered as the game goes on, the scores are recomputed only when a round
    ends, the public parts (table, discard pile, hand sizes, ...) are rebuilt
    only when the board has changed (``game.board_version``: every ``apply``
    but a pass that leaves a window open), and a hand is sorted again only when
    its cards have changed. The game must change only through ``apply``.
    """

    def __init__(self, game: Any) -> None:
        self.game = game
        self.seen = 0
        n = game.num_players
        #: per seat, and last the spectators: the visible events of the round
        self.per_seat: list[list[Event]] = [[] for _ in range(n + 1)]
        self._scores_len = -1
        self._round_scores: tuple[tuple[int, ...], ...] = ()
        self._totals: tuple[int, ...] = ()
        self._round = -1
        self._contract = game.rules.contract(game.state.round)
        self._dealt = 0
        self._num_rounds = game.rules.num_rounds
        self._buy_limit = game.rules.buy_limit
        self._version = -1
        #: the values of the fields every seat's view shares (see _refresh)
        self._shared: tuple[tuple[Any, ...], ...] = ((), (), (), ())
        self._layout_version = -1
        self._layout: tuple[tuple[Any, ...], ...] = ()
        self._held: list[list[Card] | None] = [None] * n
        self._sorted: list[tuple[Card, ...]] = [()] * n
        self._ev_seen: list[int] = [-1] * (n + 1)
        self._ev_tuple: list[tuple[Event, ...]] = [()] * (n + 1)

    def _catch_up(self) -> None:
        events = self.game.events
        n = len(events)
        if self.seen < n:
            per_seat = self.per_seat
            for e in events[self.seen:n]:
                if e.__class__ is RoundStarted:
                    for lst in per_seat:
                        lst.clear()
                if e.private_fields:
                    public = e.public()
                    last = len(per_seat) - 1
                    for s, lst in enumerate(per_seat):
                        lst.append(e if s < last and e.sees(s) else public)
                else:
                    for lst in per_seat:
                        lst.append(e)
            self.seen = n

    def view(self, seat: int | None, legal: Sequence[Action] | None = None) -> SeatView:
        """The view of ``seat`` (None: a spectator) now; ``legal`` may pass the
        legal actions of the seat to move already computed."""
        game = self.game
        if self.seen != len(game.events):
            self._catch_up()
        state = game.state
        n = game.num_players
        if seat is not None and (seat.__class__ is not int or not 0 <= seat < n):
            seat = check_seat(seat, n)
        version = game.board_version
        if version != self._version:
            self._refresh(version)
        phase = state.phase
        # Game.to_move, inline
        if phase == "game_over":
            to_move: int | None = None
        elif phase == "buy" or phase == "call":
            to_move = state.queue[0]
        elif phase == "cut":
            to_move = (state.dealer - 1) % n
        else:
            to_move = state.turn_player
        legal_t: tuple[Action, ...] = ()
        answer = None
        staged: tuple[tuple[Card, ...], ...] = ()
        if seat is None:
            hand: tuple[Card, ...] = ()
            slot = n
        else:
            slot = seat
            if to_move == seat:
                legal_t = tuple(game.legal_actions() if legal is None else legal)
            elif phase == "buy" or phase == "call":
                answer = state.pending.get(seat)
                if answer is None and seat in state.queue:
                    legal_t = tuple(game.legal_actions(seat))
            if state.staged and seat == state.turn_player:
                staged = tuple(tuple(m) for m in state.staged)
            # the sorted hand, re-sorted only when the hand has changed
            cards = state.hands[seat]
            if self._held[seat] != cards:
                hand = self._sorted[seat] = tuple(sorted(cards, key=_card_index))
                self._held[seat] = list(cards)
            else:
                hand = self._sorted[seat]
        if self._ev_seen[slot] != self.seen:
            events = self._ev_tuple[slot] = tuple(self.per_seat[slot])
            self._ev_seen[slot] = self.seen
        else:
            events = self._ev_tuple[slot]
        # the fields in their order: the shared parts (see _refresh) between this seat's own
        first, middle, turn, last = self._shared
        return SeatView._make((seat, *first, to_move, hand, *middle, legal_t, events, *turn,
                               tuple(state.queue), *last, staged, answer, game.version))

    def _refresh(self, version: int) -> None:
        """Rebuild the parts of the views that change only with the board."""
        game = self.game
        state = game.state
        self._version = version
        if len(state.round_scores) != self._scores_len:
            res = game.results()
            self._round_scores, self._totals = res.round_scores, res.totals
            self._scores_len = len(state.round_scores)
        rnd = state.round
        if rnd != self._round:
            self._round = rnd
            rules = game.rules
            self._contract = rules.contract(rnd)
            self._dealt = rules.cards_dealt(rnd)
        discards = state.discards
        phase = state.phase
        # Game.offered_card, inline
        if phase == "call":
            offered = state.call_card
        elif (phase == "buy" or phase == "draw") and discards:
            offered = discards[-1]
        else:
            offered = None
        if game.layout_version != self._layout_version:
            self._layout_version = game.layout_version
            self._layout = (tuple(state.table), tuple(state.owners), tuple(state.down),
                            tuple(state.buys), tuple(state.down_turn))
        table, owners, down, buys, down_turns = self._layout
        # the fields of SeatView shared by every seat's view, in four runs of fields:
        # players .. phase, hand_sizes .. totals, turn_number .. down_turns, and
        # last_buyer .. discarders (test_views_place_every_field checks the order)
        self._shared = (
            (game.num_players, rnd, self._num_rounds, self._contract, self._dealt, state.dealer,
             state.turn_player, phase),
            (tuple(map(len, state.hands)), table, owners, tuple(discards), len(state.stock),
             offered, down, buys, self._buy_limit, self._round_scores, self._totals),
            (state.turn_number, down_turns),
            (state.last_buyer, state.stock_chosen, state.pending_wilds, state.cut_bonus_seat,
             tuple(state.discarders)),
        )

    def round_start(self) -> int:
        """Sequence number of the current round's first event."""
        self._catch_up()
        return self.seen - len(self.per_seat[0])
