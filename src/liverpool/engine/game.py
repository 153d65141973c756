"""The game: one state machine for a whole game of Liverpool.

At every decision point :attr:`Game.to_move` says who decides and
:meth:`Game.legal_actions` lists what they may do; :meth:`Game.apply` accepts
exactly those (and any legal lay-down, see below) and raises
:class:`~liverpool.actions.ActionError` with the reason for anything else,
changing nothing.

Lay-downs are combinatorial: :meth:`Game.legal_actions` lists one suggested
lay-down when one exists; :meth:`Game.lay_downs` iterates the others lazily,
:meth:`Game.check_lay_down` checks a proposed one, and
:meth:`Game.staging_actions` builds one card by card.

>>> from liverpool import Game, load_rules
>>> game = Game(load_rules("liverpool"), players=4, seed=7)
>>> game.round, game.to_move, game.phase, game.version
(1, 0, 'draw', 0)
>>> sorted({a.type for a in game.legal_actions()})
['draw']
>>> while not game.is_over:
...     _ = game.apply(game.legal_actions()[-1])
>>> len(game.results().totals), game.version == len(game.history)
(4, True)
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

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
    NotYourTurn,
    Pass,
    Stage,
    StaleAction,
    SwapJoker,
    Unstage,
    action_from_json,
    action_problem,
)
from ..cards import Card, CardError, format_cards, make_deck
from ..errors import GameError, RecordError, check_seat, is_whole, shown_value
from ..events import EventError, event_from_json
from ..melds import Meld, MeldError, meld_problem
from ..rules import Rules, RulesError
from ..ruleset_io import validate_rules
from .buying import BuyWindow
from .calls import CallWindow
from .legal import ACTION_TYPES, LegalMoves
from .scoring import Scoring
from .state import (
    PHASES,
    Chance,
    ChanceError,
    KeyedRng,
    Outcome,
    Rng,
    State,
    outcome_from_json,
    outcome_to_json,
)
from .turns import TurnFlow

if TYPE_CHECKING:
    from ..views import SeatView, SeatViews

__all__ = ["RECORD_FORMAT", "STATE_FORMAT", "Game"]

#: the format tag of :meth:`Game.record` data
RECORD_FORMAT = "liverpool-rummy-record/2"
#: the format tag of :meth:`Game.to_json` data
STATE_FORMAT = "liverpool-rummy-state/2"


#: the rulesets a game was made with, checked once each (the last 64)
_CHECKED: dict[Rules, None] = {}


def _check_rules(rules: Rules) -> None:
    """Refuse a ruleset made in Python (``Rules(...)``) that loading would have
    refused (:func:`~liverpool.ruleset_io.validate_rules`): a wrong type, a value out of
    range, a combination that can never be played. Loaded rulesets pass."""
    try:
        kept = hash(rules)
    except TypeError:  # a field given as a list: not kept, checked every time
        kept = None
    if kept is not None and rules in _CHECKED:
        return
    validate_rules(rules)
    if kept is not None:
        if len(_CHECKED) >= 64:
            _CHECKED.clear()
        _CHECKED[rules] = None


class Game(TurnFlow, BuyWindow, CallWindow, Scoring, LegalMoves):
    """A whole game of Liverpool for ``players`` players under ``rules``.

    Seats are numbered 0..players-1 clockwise (to the left). The last seat deals
    the first round, so seat 0 plays first; the deal moves one seat each round.
    ``chance`` replays recorded chance outcomes (see :meth:`record`) instead of
    drawing them from the seed.

    ``seed`` makes a reproducible game (tests, bots, a game played again).
    Its generator is small and fast but not secret: from one's own hand, the
    seed — and so every hand and the stock — can be found by trying them all.
    ``secure=True`` deals fairly instead: every chance outcome comes from a
    stream keyed by a fresh 256-bit secret (:class:`~.state.KeyedRng`), kept
    in :attr:`key` and in no record; the record still carries every outcome,
    so it replays exactly. ``key=`` continues such a game from its secret (a
    server that stores the key and the actions); the seed is then unused.
    """

    def __init__(self, rules: Rules, players: int = 4, seed: int = 0, *,
                 chance: list[Outcome] | None = None, secure: bool = False,
                 key: bytes | None = None) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, such as load_rules('liverpool'), "
                            f"not {type(rules).__name__}")
        _check_rules(rules)
        for name, value in (("players", players), ("seed", seed)):
            if not is_whole(value):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        players, seed = int(players), int(seed)
        lo, hi = rules.players
        if not lo <= players <= hi:
            raise RulesError("rules_players_count", lo=lo, hi=hi, players=players)
        self.rules = rules
        self.num_players = players
        self.seed = seed
        rng: Rng | KeyedRng = Rng(seed)
        if key is not None:
            rng = KeyedRng(key)
        elif secure:
            rng = KeyedRng.new()
        self.chance = Chance(rng, chance)
        self.history = []
        self.history_seats = []
        self.events = []
        self.state = State()
        self._legal = None
        self._staging = None
        self.version = 0
        self.board_version = 0
        self.layout_version = 0
        # per seat: (rules, round, card counts by index) of a hand found to have no lay-down
        self._no_lay_down = [None] * players
        # per seat: (rules, round, (card index, count) pairs) of a lay-down a hand held
        self._lay_down_held = [None] * players
        self._fit_memo = {}  # see LegalMoves._fits
        self._meld_memo = {}  # see LegalMoves._meld_facts
        self._table_memo = None  # see LegalMoves._table_facts
        self._views: SeatViews | None = None
        self._start_round(1)

    # ------------------------------------------------------------ properties
    @property
    def round(self) -> int:
        """The current round, counting from 1."""
        return self.state.round

    @property
    def phase(self) -> str:
        """``"cut"``, ``"draw"``, ``"buy"``, ``"play"``, ``"call"`` or ``"game_over"``."""
        return self.state.phase

    @property
    def is_over(self) -> bool:
        return self.state.phase == "game_over"

    @property
    def dealer(self) -> int:
        return self.state.dealer

    @property
    def turn_player(self) -> int:
        return self.state.turn_player

    def hand(self, seat: int) -> list[Card]:
        """A copy of ``seat``'s hand (hidden information: give it only to that seat)."""
        return list(self.state.hands[check_seat(seat, self.num_players)])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds (public), by seat."""
        return tuple([len(h) for h in self.state.hands])

    @property
    def table(self) -> list[Meld]:
        return list(self.state.table)

    @property
    def table_owners(self) -> list[int]:
        return list(self.state.owners)

    @property
    def discards(self) -> list[Card]:
        return list(self.state.discards)

    @property
    def top_discard(self) -> Card | None:
        """The top card of the discard pile (None: the pile is empty), without
        copying the pile as :attr:`discards` does."""
        d = self.state.discards
        return d[-1] if d else None

    @property
    def stock_size(self) -> int:
        return len(self.state.stock)

    @property
    def buys(self) -> list[int]:
        return list(self.state.buys)

    @property
    def laid_down(self) -> list[bool]:
        return list(self.state.down)

    @property
    def staged(self) -> tuple[tuple[Card, ...], ...]:
        """The lay-down the turn player is building (hidden: the turn player's cards)."""
        staged = self.state.staged
        return tuple(tuple(m) for m in staged) if staged else ()

    @property
    def offered_card(self) -> Card | None:
        """The card being bought or called now, if any."""
        state = self.state
        if state.phase == "call":
            return state.call_card
        if state.phase in ("buy", "draw") and state.discards:
            return state.discards[-1]
        return None

    def card_counts(self) -> dict[str, int]:
        """Cards per place (for checking conservation)."""
        state = self.state
        return {"hands": sum(len(h) for h in state.hands), "stock": len(state.stock),
                "discards": len(state.discards), "table": sum(len(m.cards) for m in state.table)}

    def describe_hand(self, seat: int) -> str:
        return format_cards(sorted(self.state.hands[seat], key=Card.sort_key))

    # --------------------------------------------------------------- apply
    def can_apply(self, action: Action, seat: int | None = None) -> bool:
        """Would :meth:`apply` accept ``action`` (of ``seat``) now?"""
        try:
            if seat is not None and seat != self.to_move:
                self._checked_answer(action, seat)
            else:
                self._checked(action)
        except ActionError:
            return False
        return True

    def apply(self, action: Action, seat: int | None = None,
              expected_version: int | None = None) -> list[Event]:
        """Apply ``action``; returns the events it caused.

        ``seat`` (default :attr:`to_move`) is who acts: a seat of an open buy or
        call window may answer it before its turn (see :attr:`answering`); any
        other seat raises :class:`~liverpool.actions.NotYourTurn`.
        ``expected_version``, when given, must be :attr:`version` (else
        :class:`~liverpool.actions.StaleAction`). Raises
        :class:`~liverpool.actions.ActionError` (changing nothing) if the action
        is not legal now. A lay-off (or Shanghai call) on a run without ``end``
        is accepted when the card fits at one end only.
        """
        state = self.state
        if seat is not None and (seat.__class__ is not int or not 0 <= seat < self.num_players):
            if not is_whole(seat) or not 0 <= seat < self.num_players:
                raise NotYourTurn("no_such_seat", value=shown_value(seat),
                                  last=self.num_players - 1)
            seat = int(seat)  # (a numpy integer)
        if expected_version is not None and expected_version != self.version:
            raise StaleAction("stale_action", version=expected_version, current=self.version)
        phase = state.phase
        events = self.events
        start = len(events)
        if phase == "buy" or phase == "call":
            mover = state.queue[0]
            if seat is not None and seat != mover:
                return self._apply_answer(action, seat)
            if action.__class__ is Pass:
                # a pass is legal in every buy or call window (the common case, quickly)
                self.history.append(action)
                self.history_seats.append(mover)
                self._legal = None
                self.version += 1
                self._do_pass(mover)
                if state.phase != phase or len(events) > start:
                    self.board_version += 1
                return events[start:] if len(events) > start else []
        else:
            mover = state.turn_player if phase == "draw" or phase == "play" else (
                self.to_move)  # type: ignore[assignment]
            if seat is not None and seat != mover:
                if phase == "game_over":
                    raise ActionError("game_over")
                raise NotYourTurn("not_your_turn", seat=mover)
        kind: type = action.__class__
        legal = self._legal
        for a in legal or ():
            if a is action:
                break  # the very object legal_actions made: legal, its end filled in
        else:
            action = self._checked(action)
            kind = type(action)
            if kind not in ACTION_TYPES:  # a subclass of an action type
                kind = next(k for k in ACTION_TYPES if isinstance(action, k))
        self.history.append(action)
        self.history_seats.append(mover)
        self._legal = None
        self.version += 1
        self.board_version += 1
        if kind is Discard:  # (the commonest first)
            self._do_discard(action)  # type: ignore[arg-type]
        elif kind is Draw:
            self._do_draw(action)  # type: ignore[arg-type]
        elif kind is Pass:
            self._do_pass(mover)
        elif kind is Buy or kind is Call:
            self._answer(mover, action)
        elif kind is Cut:
            self._do_cut(action.count)  # type: ignore[union-attr]
        elif kind is LayDown:
            self._do_lay_down(action)  # type: ignore[arg-type]
        elif kind is LayOff:
            self._do_lay_off(action)  # type: ignore[arg-type]
        elif kind is SwapJoker:
            self._do_swap(action)  # type: ignore[arg-type]
        elif kind is Stage:
            self._do_stage(action)  # type: ignore[arg-type]
        elif kind is Unstage:
            self._do_unstage()
        elif kind is CommitLayDown:
            self._do_commit(action)  # type: ignore[arg-type]
        self._legal = None
        return events[start:] if len(events) > start else []

    def _checked_answer(self, action: Action, seat: int) -> Action:
        """``action`` of ``seat``, a seat of the open window that is not first."""
        state = self.state
        if not 0 <= seat < self.num_players or seat not in self.answering:
            if state.phase in ("buy", "call") and 0 <= seat < self.num_players:
                raise NotYourTurn("not_in_window")
            if state.phase == "game_over":
                raise ActionError("game_over")
            raise NotYourTurn("not_your_turn", seat=self.to_move)
        if not isinstance(action, ACTION_TYPES):
            raise ActionError("not_an_action", value=repr(action)[:60])
        problem = action_problem(action)
        if problem is not None:
            raise problem
        options = self.legal_actions(seat)
        if action in options:
            return action
        if isinstance(action, Call) and action.end is None:
            fits = [a for a in options if isinstance(a, Call) and a.meld == action.meld]
            if len(fits) == 1:
                return fits[0]
        if isinstance(action, Call):
            raise ActionError("call_no_fit", card=state.call_card)
        raise ActionError(f"not_now_{state.phase}", action=action, seat=seat)

    def _apply_answer(self, action: Action, seat: int) -> list[Event]:
        action = self._checked_answer(action, seat)
        state = self.state
        phase = state.phase
        start = len(self.events)
        self.history.append(action)
        self.history_seats.append(seat)
        self._legal = None
        self.version += 1
        if isinstance(action, Pass):
            self._do_pass(seat)
        else:
            self._answer(seat, action)
        if state.phase != phase or len(self.events) > start:
            self.board_version += 1
        self._legal = None
        return self.events[start:]

    # ------------------------------------------------------ views, records
    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know now (None: a spectator), with the events of
        the current round. See :mod:`liverpool.views`."""
        if self._views is None:
            from ..views import SeatViews

            self._views = SeatViews(self)
        return self._views.view(seat)

    def events_for(self, seat: int | None, since: int = 0) -> list[Event]:
        """The events from sequence number ``since`` on, as ``seat`` (None: a
        spectator) may see them. A seat that is not one of the game's, or a
        ``since`` that is not a whole number from 0, is refused (``GameError``)."""
        if seat is not None:
            seat = check_seat(seat, self.num_players)
        if not is_whole(since) or since < 0:
            raise GameError("no_such_event", value=shown_value(since))
        return [e.visible_to(seat) for e in self.events[since:]]

    @property
    def key(self) -> bytes | None:
        """The secret of a fair deal (``secure=True``), None for a seeded game.
        Never shown to a player: whoever holds it knows every deal to come."""
        rng = self.chance.rng
        return rng.key if isinstance(rng, KeyedRng) else None

    def record(self) -> dict[str, Any]:
        """The game record: format, ruleset, players, seed, every chance outcome
        and every action with the seat that made it, as JSON data. It replays
        exactly (:func:`liverpool.replay`) from the outcomes themselves. A fair
        deal's record has the seed ``None`` and not its key."""
        return {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.num_players,
            "seed": self.seed if self.key is None else None,
            "chance": [outcome_to_json(o) for o in self.chance.log],
            "actions": [dict(a.to_json(), seat=seat)
                        for a, seat in zip(self.history, self.history_seats, strict=True)],
        }

    def copy(self) -> Game:
        """An independent copy of the game (for search: fast, no JSON)."""
        game = Game.__new__(Game)
        game.rules = self.rules
        game.num_players = self.num_players
        game.seed = self.seed
        game.chance = self.chance.copy()
        game.history = list(self.history)
        game.history_seats = list(self.history_seats)
        game.events = list(self.events)
        game.state = self.state.copy()
        game._legal = self._legal  # (never changed in place)
        game._staging = self._staging
        game.version = self.version
        game.board_version = self.board_version
        game.layout_version = self.layout_version
        game._no_lay_down = list(self._no_lay_down)
        game._lay_down_held = list(self._lay_down_held)
        game._fit_memo = self._fit_memo  # facts about melds and cards, shared
        game._meld_memo = self._meld_memo
        game._table_memo = None
        game._views = None
        return game

    # -------------------------------------------------- state as JSON data
    def to_json(self) -> dict[str, Any]:
        """The complete state (hidden information included, a fair deal's
        ``key`` too) as JSON data."""
        state = self.state
        secret = {} if self.key is None else {"key": self.key.hex()}
        return {
            "format": STATE_FORMAT,
            "rules": self.rules.to_dict(),
            "players": self.num_players,
            "seed": self.seed,
            **secret,
            "rng": self.chance.rng.state,
            "chance": [outcome_to_json(o) for o in self.chance.log],
            "version": self.version,
            "history": [dict(a.to_json(), seat=seat)
                        for a, seat in zip(self.history, self.history_seats, strict=True)],
            "events": [e.to_json() for e in self.events],
            "state": {
                "round": state.round, "dealer": state.dealer,
                "hands": [[str(c) for c in h] for h in state.hands],
                "stock": [str(c) for c in state.stock],
                "discards": [str(c) for c in state.discards],
                "discarders": list(state.discarders),
                "table": [m.to_json() for m in state.table],
                "owners": list(state.owners), "down": list(state.down),
                "down_turn": list(state.down_turn), "buys": list(state.buys),
                "round_scores": [list(r) for r in state.round_scores],
                "phase": state.phase, "turn_player": state.turn_player,
                "turn_number": state.turn_number,
                "queue": list(state.queue),
                "pending": [dict(a.to_json(), seat=seat) for seat, a in state.pending.items()],
                "last_buyer": state.last_buyer,
                "stock_chosen": state.stock_chosen,
                "call_card": None if state.call_card is None else str(state.call_card),
                "pending_wilds": state.pending_wilds, "cut_bonus_seat": state.cut_bonus_seat,
                "staged": [[str(c) for c in m] for m in state.staged],
                "stage_log": [list(x) for x in state.stage_log],
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_json` data; the position is checked (every
        card of the decks exactly once, known phase, seats and sizes in range)
        and a bad one refused with :class:`~liverpool.RecordError`."""
        from ..ruleset_io import rules_from_dict

        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise RecordError(f"a game state must be an object with format {STATE_FORMAT!r}")
        try:
            rules = rules_from_dict(data["rules"])
            game = cls._blank(rules, data["players"], data["seed"])
            if "key" in data:
                game.chance.rng = KeyedRng(bytes.fromhex(data["key"]))
            game.chance.rng.state = _int(data["rng"], "rng")
            game.chance.log = [outcome_from_json(o) for o in data["chance"]]
            game.version = _int(data["version"], "version")
            game.history, game.history_seats = _actions_from_json(data["history"])
            game.events = [event_from_json(e) for e in data["events"]]
            st = data["state"]
            state = game.state
            state.round = _int(st["round"], "round")
            state.dealer = _int(st["dealer"], "dealer")
            state.hands = [_cards(h) for h in st["hands"]]
            state.stock = _cards(st["stock"])
            state.discards = _cards(st["discards"])
            state.discarders = [_int(x, "discarders") for x in st["discarders"]]
            state.table = [Meld.from_json(m) for m in st["table"]]
            state.owners = [_int(x, "owners") for x in st["owners"]]
            state.down = [bool(x) for x in st["down"]]
            state.down_turn = [_int(x, "down_turn") for x in st["down_turn"]]
            state.buys = [_int(x, "buys") for x in st["buys"]]
            state.round_scores = [[_int(x, "round_scores") for x in r] for r in st["round_scores"]]
            state.phase = st["phase"]
            state.turn_player = _int(st["turn_player"], "turn_player")
            state.turn_number = _int(st["turn_number"], "turn_number")
            state.queue = [_int(x, "queue") for x in st["queue"]]
            pending, seats = _actions_from_json(st["pending"])
            state.pending = dict(zip(seats, pending, strict=True))
            state.last_buyer = _int(st["last_buyer"], "last_buyer")
            state.stock_chosen = bool(st["stock_chosen"])
            state.call_card = None if st["call_card"] is None else Card.parse(st["call_card"])
            state.pending_wilds = _int(st["pending_wilds"], "pending_wilds")
            state.cut_bonus_seat = _int(st["cut_bonus_seat"], "cut_bonus_seat")
            state.staged = [_cards(m) for m in st["staged"]]
            state.stage_log = [(_int(x[0], "stage_log"), x[1]) for x in st["stage_log"]]
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, CardError,
                MeldError, EventError, ActionError, RulesError, ChanceError) as e:
            raise RecordError(f"the game state is malformed: {_why(e)}") from None
        game.board_version = game.layout_version = game.version
        game.check_position()
        return game

    @classmethod
    def _blank(cls, rules: Rules, players: Any, seed: Any) -> Game:
        _check_rules(rules)
        lo, hi = rules.players
        if not is_whole(players) or not lo <= players <= hi:
            raise RecordError(f"this ruleset is for {lo} to {hi} players, not {players!r}")
        game = cls.__new__(cls)
        game.rules = rules
        game.num_players = players
        game.seed = _int(seed, "seed")
        game.chance = Chance(Rng(game.seed))
        game.history = []
        game.history_seats = []
        game.events = []
        game.state = State()
        game._legal = None
        game._staging = None
        game.version = game.board_version = game.layout_version = 0
        game._no_lay_down = [None] * players
        game._lay_down_held = [None] * players
        game._fit_memo = {}
        game._meld_memo = {}
        game._table_memo = None
        game._views = None
        return game

    @classmethod
    def from_view(cls, rules: Rules, view: SeatView, hands: list[list[Card]],
                  stock: list[Card], seed: int = 0) -> Game:
        """A game consistent with ``view`` in which the hidden cards are filled in:
        ``hands`` (every seat's hand, the viewer's own as in the view) and the
        ``stock`` (top last). For search bots that sample what they cannot see.
        The position is checked as in :meth:`from_json`."""
        if len(hands) != view.players:
            raise RecordError("one hand per seat is needed")
        for seat, (h, size) in enumerate(zip(hands, view.hand_sizes, strict=True)):
            if len(h) != size:
                raise RecordError(f"seat {seat + 1} holds {size} cards, not {len(h)}")
        if len(stock) != view.stock_size:
            raise RecordError(f"the stock holds {view.stock_size} cards, not {len(stock)}")
        game = cls._blank(rules, view.players, seed)
        state = game.state
        state.round = view.round
        state.dealer = view.dealer
        state.hands = [list(h) for h in hands]
        state.stock = list(stock)
        state.discards = list(view.discard_pile)
        state.discarders = list(view.discarders)
        state.table = list(view.table)
        state.owners = list(view.table_owners)
        state.down = list(view.laid_down)
        state.down_turn = list(view.down_turns)
        state.buys = list(view.buys)
        state.round_scores = [list(r) for r in view.round_scores]
        state.phase = view.phase  # type: ignore[assignment]
        state.turn_player = view.turn_player
        state.turn_number = view.turn_number
        state.queue = list(view.queue)
        state.last_buyer = view.last_buyer
        state.stock_chosen = view.stock_chosen
        state.call_card = view.offered_card if view.phase == "call" else None
        state.pending_wilds = view.pending_wilds
        state.cut_bonus_seat = view.cut_bonus_seat
        if view.seat is not None and view.seat == view.turn_player:
            state.staged = [list(m) for m in view.staged]
            state.stage_log = [(i, "high" if view.contract.code[i] == "R" else None)
                           for i, m in enumerate(view.staged) for _ in m]
        game.check_position()
        return game

    def check_position(self) -> None:
        """Raise :class:`~liverpool.RecordError` unless the state is a possible
        position: every card of the decks exactly once across hands, stock,
        discard pile and table; a known phase; seats, sizes and counts in range."""
        state = self.state
        rules = self.rules
        n = self.num_players
        seats = range(n)

        def need(ok: bool, why: str) -> None:
            if not ok:
                raise RecordError(f"not a possible position: {why}")

        need(state.phase in PHASES, f"there is no phase {state.phase!r}")
        need(1 <= state.round <= rules.num_rounds, f"there is no round {state.round}")
        need(state.dealer in seats and state.turn_player in seats,
             "the dealer or turn player is no seat")
        for name, values in (("hands", state.hands), ("down", state.down),
                             ("down_turn", state.down_turn), ("buys", state.buys)):
            need(len(values) == n, f"'{name}' must have one entry per seat")
        need(len(state.owners) == len(state.table), "every meld on the table needs an owner")
        need(all(o in seats and state.down[o] for o in state.owners),
             "a meld's owner must be a seat that is down")
        need(len(state.discarders) == len(state.discards) and all(
            d == -1 or d in seats for d in state.discarders), "who discarded each card is unknown")
        need(all(b >= 0 for b in state.buys) and (rules.buy_limit is None or all(
            b <= rules.buy_limit for b in state.buys)), "a buy count is out of range")
        over = state.phase == "game_over"
        need(len(state.round_scores) == state.round - (0 if over else 1)
             and all(len(r) == n for r in state.round_scores),
             "the score sheet does not fit the round")
        need(len(set(state.queue)) == len(state.queue) and all(q in seats for q in state.queue)
             and set(state.pending) <= set(state.queue), "the window's seats are out of range")
        need((state.phase in ("buy", "call")) == bool(state.queue) or over,
             "a buy or call window needs the seats that may answer")
        need(state.turn_player not in state.queue, "the turn player does not answer its own window")
        need((state.phase == "call") == (state.call_card is not None),
             "a call window needs its card")
        if state.call_card is not None:
            need(bool(state.discards) and state.discards[-1] == state.call_card,
                 "the called card must be the top discard")
        for m in state.table:
            need(meld_problem(m, rules, lay_down=False) is None, f"{m} is not a meld")
        placed = Counter(c.index for h in state.hands for c in h)
        placed.update(c.index for c in state.stock)
        placed.update(c.index for c in state.discards)
        placed.update(c.index for m in state.table for c in m.cards)
        deck = Counter(c.index for c in make_deck(rules.decks_for(n), rules.jokers_for(n)))
        if placed != deck and not over:
            extra = placed - deck
            missing = deck - placed
            if extra:
                card = Card.from_index(next(iter(extra)))
                need(False, f"there are too many {card} (the decks hold {deck[card.index]})")
            card = Card.from_index(next(iter(missing)))
            need(False, f"{card} is missing")
        code = rules.contract(state.round).code
        need(not state.staged or len(state.staged) == len(code),
             "the lay-down being built has no contract")
        staged = Counter(c.index for m in state.staged for c in m)
        held = Counter(c.index for c in state.hands[state.turn_player])
        need(not staged - held, "the lay-down being built uses cards the player does not hold")

    def state_key(self) -> str:
        """A canonical text of the full state, for comparing two games."""
        return json.dumps(self.to_json(), sort_keys=True)


def _actions_from_json(data: Any) -> tuple[list[Action], list[int]]:
    if not isinstance(data, list):
        raise RecordError("the actions must be a list")
    actions: list[Action] = []
    seats: list[int] = []
    for i, item in enumerate(data):
        try:
            actions.append(action_from_json(item))
        except ActionError as e:
            raise RecordError(f"action {i + 1} is malformed: {e}") from None
        seats.append(_int(item.get("seat"), "seat"))
    return actions, seats


def _int(value: Any, name: str) -> int:
    if not is_whole(value):
        raise RecordError(f"'{name}' must be a whole number, not {value!r}"[:120])
    return value


def _cards(value: Any) -> list[Card]:
    if not isinstance(value, list):
        raise RecordError("cards must be a list")
    return [Card.parse(c) for c in value]


def _why(e: Exception) -> str:
    if isinstance(e, KeyError):
        return f"it has no {e.args[0]!r}"
    return str(e)[:200]


if TYPE_CHECKING:
    from ..events import Event
