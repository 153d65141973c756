"""A finite action space: every action of a game as an index ``0 <= i < size``.

``ActionSpace(rules, players)`` numbers every action that can ever be legal
under ``rules`` with ``players`` seats, in a layout fixed by those two alone
(the same indices mean the same actions in every game of that ruleset and
player count). It is what a learning agent (a policy over a fixed number of
outputs, masked by the legal ones) or a drag-and-drop UI (one card into one
place at a time) needs:

- :meth:`ActionSpace.encode` gives an action's index, :meth:`ActionSpace.decode`
  the action of an index, :meth:`ActionSpace.describe` says what an index means;
- :meth:`ActionSpace.legal_mask` gives ``size`` 0/1 values, 1 for the legal
  actions now (:meth:`ActionSpace.legal_indices`: just their indices).

**Lay-downs** are the one combinatorial decision. They are built in finite
steps, the engine's :class:`~liverpool.actions.Stage` (put one hand card into
one meld of the contract, at a run's low or high end),
:class:`~liverpool.actions.Unstage` (take the last one back) and
:class:`~liverpool.actions.CommitLayDown` (lay the staged melds down, all at
once). Every legal lay-down is reached that way; one more index lays down the
engine's suggestion (:meth:`Game.suggest_lay_down
<liverpool.engine.game.Game.suggest_lay_down>`) in one step.

**The layout**, section after section (a section is left out when the ruleset
can never make its actions legal; ``M``, ``K``, ``P``, ``D`` below):

============ ================================================ ======================
section      actions                                          indices
============ ================================================ ======================
``draw``     ``Draw("stock")``, ``Draw("discard")``           2
``buy``      ``Buy()`` (when ``buying``)                      1
``pass``     ``Pass()``                                       1
``call``     ``Call()`` (``liverpool``, ``liverpool_pile``)   1
``shanghai`` ``Call(meld, end)``, end None, "low", "high"     M × 3
``cut``      ``Cut(count)``, count 1 .. D − 1 (Liverpool cut) D − 1
``discard``  ``Discard(card, announce)``                      53 (× 2 with Shanghai)
``lay_off``  ``LayOff(card, meld, end)``                      53 × M × E
``swap``     ``SwapJoker(card, meld, position)``              52 × M × P
``stage``    ``Stage(card, slot, end)``                       53 × K × E
``unstage``  ``Unstage()``                                    1
``commit``   ``CommitLayDown()``                              1
``suggest``  the engine's suggested ``LayDown``               1
============ ================================================ ======================

- A *card kind* is :attr:`Card.index <liverpool.cards.Card.index>`: 0..51 the
  natural cards (suit × 13 + rank − 1: ``AS`` 0, ``KS`` 12, ``AH`` 13, …,
  ``KC`` 51) and 52 the joker. Swaps put a natural card in, so they have 52.
- ``M`` = players × the most melds of any round's contract: the most melds the
  table can hold (melds only come from lay-downs; lay-offs and calls grow them).
- ``K`` = the most melds of any round's contract (the slots of a lay-down
  being built: its sets, then its runs, in the contract's order).
- ``E`` = the ends: ``None`` (a set) when some contract has a set, and
  ``"low"``, ``"high"`` (a run) when some contract has a run, in that order.
  Shanghai calls always have the three ends.
- ``P`` = the longest meld a wild can be swapped out of: a run holds 14 cards
  (A-2-…-K-A; 13 when runs wrap), a set all the natural cards of one rank and
  every wild of the decks (with ``joker_swap = "runs"`` only runs count).
- ``D`` = the cards of the decks for ``players``: the whole deck is the stock
  when it is cut, and ``Cut(count)`` lifts 1 .. D − 1 of them.

Within a section the parameters count in the order the table names them, the
last fastest: ``lay_off`` index = start + (card × M + meld) × E + end.

Encoding is exact: ``decode(encode(a)) == a`` for every action with an index,
including forms the engine never lists (a lay-off on a run without an end
encodes to the ``None`` end; ``apply`` resolves it, ``legal_mask`` never marks
it). :meth:`ActionSpace.encode` raises :class:`~liverpool.actions.ActionError`
(code ``not_in_action_space``) for an action without an index: a meld number
or position beyond ``M`` or ``P``, a section the ruleset leaves out, and any
:class:`~liverpool.actions.LayDown` but the engine's suggestion now (build other
lay-downs with ``stage``). :meth:`ActionSpace.decode` of any index in range
returns its action whether or not it is legal now (``apply`` refuses an illegal
one); only the ``suggest`` index needs the game, and raises ``ActionError``
(``no_suggestion``) when there is no lay-down to suggest.

>>> from liverpool import Game, load_rules, Stage, Card
>>> rules = load_rules("liverpool")
>>> space = ActionSpace(rules, 4)
>>> space.size
11182
>>> space.describe(space.encode(Stage(Card.parse("7S"), 2, "low")))
'put 7S into meld 3 of the lay-down at the low end'
>>> game = Game(rules, players=4, seed=7)
>>> mask = space.legal_mask(game)
>>> [space.describe(i) for i in range(space.size) if mask[i]]
['draw from the stock', 'take the discard']
>>> all(space.decode(space.encode(a, game), game) == a for a in game.legal_actions())
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from .actions import (
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
from .cards import Card
from .errors import is_whole, shown_value
from .rules import Rules, RulesError

if TYPE_CHECKING:
    from .engine import Game

__all__ = ["ActionSpace"]

End = Literal["low", "high"] | None
_ALL_ENDS: tuple[End, ...] = (None, "low", "high")
_CARDS = [Card.from_index(i) for i in range(53)]
_DRAWS = (Draw("stock"), Draw("discard"))
_BUY = Buy()
_PASS = Pass()
_UNSTAGE = Unstage()
_COMMIT = CommitLayDown()


def _most_in_a_set(rules: Rules, players: int) -> int:
    """The most cards one set can hold under ``rules`` with ``players``."""
    decks = rules.decks_for(players)
    naturals = decks if rules.set_same_suit else 4 * decks  # of one rank
    wilds = rules.wilds_for(players)
    most = naturals + wilds
    if rules.naturals_at_least_wilds:
        most = min(most, 2 * naturals)
    return most


class ActionSpace:
    """The actions of games of ``rules`` with ``players`` seats as indices
    ``0 .. size - 1`` (the layout: see the module's doc)."""

    rules: Rules
    players: int
    #: the number of indices
    size: int
    #: the most melds on the table (``M``), slots of a lay-down (``K``), positions
    #: in a meld (``P``) and cards of the decks (``D``)
    max_table_melds: int
    max_contract_melds: int
    max_meld_length: int
    deck_size: int
    #: the ends of the ``lay_off`` and ``stage`` sections (``E``)
    ends: tuple[End, ...]
    #: each section's indices, in the layout's order
    sections: dict[str, range]

    def __init__(self, rules: Rules, players: int) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"an ActionSpace needs a Rules (load_rules(...)), not "
                            f"{shown_value(rules)}")
        lo, hi = rules.players
        if not is_whole(players) or not lo <= players <= hi:
            raise RulesError("rules_players_count", lo=lo, hi=hi,
                             players=players if is_whole(players) else shown_value(players))
        self.rules = rules
        self.players = players
        codes = rules.contracts
        k = max(len(c) for c in codes)
        m = players * k
        run_most = 14 if rules.run_wrap == "never" else 13
        has_wilds = rules.jokers_for(players) > 0 or rules.wild_deuce_of_spades
        swaps = rules.joker_swap != "none" and has_wilds
        p = run_most if swaps else 0
        if swaps and rules.joker_swap == "runs_and_sets":
            p = max(p, _most_in_a_set(rules, players))
        self.max_contract_melds = k
        self.max_table_melds = m
        self.max_meld_length = p
        self.deck_size = rules.deck_size(players)
        self.ends = tuple(e for e in _ALL_ENDS
                          if (e is None and any("S" in c for c in codes))
                          or (e is not None and any("R" in c for c in codes)))
        self._end_at: dict[End, int] = {e: i for i, e in enumerate(self.ends)}
        lay_offs = any(rules.final_mode(r) == "normal" for r in range(1, rules.num_rounds + 1))
        shanghai = rules.discard_call == "shanghai"
        self._announce = 2 if shanghai else 1
        sizes: list[tuple[str, int]] = [
            ("draw", 2),
            ("buy", 1 if rules.buying else 0),
            ("pass", 1),
            ("call", 1 if rules.discard_call in ("liverpool", "liverpool_pile") else 0),
            ("shanghai", 3 * m if shanghai else 0),
            ("cut", self.deck_size - 1 if rules.liverpool_cut else 0),
            ("discard", 53 * self._announce),
            ("lay_off", 53 * m * len(self.ends) if lay_offs else 0),
            ("swap", 52 * m * p if swaps and lay_offs else 0),
            ("stage", 53 * k * len(self.ends)),
            ("unstage", 1),
            ("commit", 1),
            ("suggest", 1),
        ]
        self.sections = {}
        start = 0
        for name, n in sizes:
            self.sections[name] = range(start, start + n)
            start += n
        self.size = start
        sec = self.sections
        self._draw = sec["draw"].start
        self._buy = sec["buy"].start
        self._pass = sec["pass"].start
        self._call = sec["call"].start
        self._shanghai = sec["shanghai"].start
        self._cut = sec["cut"].start
        self._discard = sec["discard"].start
        self._lay_off = sec["lay_off"].start
        self._swap = sec["swap"].start
        self._stage = sec["stage"].start
        self._unstage = sec["unstage"].start
        self._commit = sec["commit"].start
        self._suggest = sec["suggest"].start
        self._zeros = bytes(self.size)
        self._encoders: dict[type, Callable[[Action, Game | None], int]] = {
            Draw: self._enc_draw, Buy: self._enc_buy, Pass: self._enc_pass,
            Call: self._enc_call, Cut: self._enc_cut, Discard: self._enc_discard,
            LayOff: self._enc_lay_off, SwapJoker: self._enc_swap, Stage: self._enc_stage,
            Unstage: self._enc_unstage, CommitLayDown: self._enc_commit,
            LayDown: self._enc_lay_down,
        }

    def __repr__(self) -> str:
        return f"ActionSpace({self.rules.name!r}, players={self.players}, size={self.size})"

    # ------------------------------------------------------------ encoding
    @staticmethod
    def _outside(action: Action) -> ActionError:
        return ActionError("not_in_action_space", action=action)

    def _enc_draw(self, a: Action, game: Game | None) -> int:
        assert isinstance(a, Draw)  # noqa: S101 - narrows the type for mypy (the table dispatches by type)
        if a.source == "stock":
            return self._draw
        if a.source == "discard":
            return self._draw + 1
        raise self._outside(a)

    def _enc_buy(self, a: Action, game: Game | None) -> int:
        if not self.sections["buy"]:
            raise self._outside(a)
        return self._buy

    def _enc_pass(self, a: Action, game: Game | None) -> int:
        return self._pass

    def _enc_call(self, a: Action, game: Game | None) -> int:
        assert isinstance(a, Call)  # noqa: S101 - narrows the type for mypy (the table dispatches by type)
        if a.meld < 0:
            if a.end is None and self.sections["call"]:
                return self._call
            raise self._outside(a)
        if not self.sections["shanghai"] or a.meld >= self.max_table_melds or (
                a.end not in _ALL_ENDS):
            raise self._outside(a)
        return self._shanghai + a.meld * 3 + _ALL_ENDS.index(a.end)

    def _enc_cut(self, a: Action, game: Game | None) -> int:
        assert isinstance(a, Cut)  # noqa: S101 - narrows the type for mypy (the table dispatches by type)
        if not self.sections["cut"] or not 1 <= a.count < self.deck_size:
            raise self._outside(a)
        return self._cut + a.count - 1

    def _enc_discard(self, a: Action, game: Game | None) -> int:
        assert isinstance(a, Discard)  # noqa: S101 - narrows the type for mypy (the table dispatches by type)
        if a.announce and self._announce == 1:
            raise self._outside(a)
        return self._discard + a.card.index * self._announce + (1 if a.announce else 0)

    def _enc_lay_off(self, a: Action, game: Game | None) -> int:
        assert isinstance(a, LayOff)  # noqa: S101 - narrows the type for mypy (the table dispatches by type)
        end = self._end_at.get(a.end)
        if not self.sections["lay_off"] or end is None or not 0 <= a.meld < self.max_table_melds:
            raise self._outside(a)
        return self._lay_off + (a.card.index * self.max_table_melds + a.meld) * len(
            self.ends) + end

    def _enc_swap(self, a: Action, game: Game | None) -> int:
        assert isinstance(a, SwapJoker)  # noqa: S101 - narrows the type for mypy (the table dispatches by type)
        p = self.max_meld_length
        if (not self.sections["swap"] or a.card.index >= 52
                or not 0 <= a.meld < self.max_table_melds or not 0 <= a.position < p):
            raise self._outside(a)
        return self._swap + (a.card.index * self.max_table_melds + a.meld) * p + a.position

    def _enc_stage(self, a: Action, game: Game | None) -> int:
        assert isinstance(a, Stage)  # noqa: S101 - narrows the type for mypy (the table dispatches by type)
        end = self._end_at.get(a.end)
        if end is None or not 0 <= a.meld < self.max_contract_melds:
            raise self._outside(a)
        return self._stage + (a.card.index * self.max_contract_melds + a.meld) * len(
            self.ends) + end

    def _enc_unstage(self, a: Action, game: Game | None) -> int:
        return self._unstage

    def _enc_commit(self, a: Action, game: Game | None) -> int:
        return self._commit

    def _enc_lay_down(self, a: Action, game: Game | None) -> int:
        if game is not None and a == game.suggest_lay_down():
            return self._suggest
        raise self._outside(a)

    def encode(self, action: Action, game: Game | None = None) -> int:
        """The index of ``action``. ``game`` is needed only for a
        :class:`~liverpool.actions.LayDown`, which has an index (``suggest``)
        only when it is the engine's suggestion in ``game`` now. Raises
        :class:`~liverpool.actions.ActionError` (``not_in_action_space``) for an
        action without an index."""
        enc = self._encoders.get(action.__class__)
        if enc is None:
            enc = next((f for t, f in self._encoders.items() if isinstance(action, t)), None)
            if enc is None:
                raise ActionError("not_an_action", value=repr(action)[:60])
        try:
            return enc(action, game)
        except (TypeError, AttributeError, KeyError, IndexError, ValueError) as e:
            if isinstance(e, ActionError):
                raise
            problem = action_problem(action)  # a malformed action (a card not a Card...)
            raise problem if problem is not None else ActionError(
                "not_in_action_space", action=action) from None

    # ------------------------------------------------------------ decoding
    def decode(self, index: int, game: Game | None = None) -> Action:
        """The action of ``index``, legal now or not (``apply`` refuses an
        illegal one). The ``suggest`` index needs ``game`` and raises
        :class:`~liverpool.actions.ActionError` (``no_suggestion``) when there
        is no lay-down to suggest; an index out of range raises
        ``ActionError`` (``no_such_action_index``)."""
        if not is_whole(index) or not 0 <= index < self.size:
            raise ActionError("no_such_action_index", index=shown_value(index), size=self.size)
        index = int(index)  # (a numpy integer)
        m = self.max_table_melds
        e = len(self.ends)
        if index >= self._suggest:
            if game is None:
                raise ActionError("no_suggestion")
            found = game.suggest_lay_down()
            if found is None:
                raise ActionError("no_suggestion")
            return found
        if index >= self._commit:
            return _COMMIT
        if index >= self._unstage:
            return _UNSTAGE
        if index >= self._stage:
            rest, end = divmod(index - self._stage, e)
            card, slot = divmod(rest, self.max_contract_melds)
            return Stage(_CARDS[card], slot, self.ends[end])
        if index >= self._swap:
            rest, pos = divmod(index - self._swap, self.max_meld_length)
            card, meld = divmod(rest, m)
            return SwapJoker(_CARDS[card], meld, pos)
        if index >= self._lay_off:
            rest, end = divmod(index - self._lay_off, e)
            card, meld = divmod(rest, m)
            return LayOff(_CARDS[card], meld, self.ends[end])
        if index >= self._discard:
            card, announce = divmod(index - self._discard, self._announce)
            return Discard(_CARDS[card], bool(announce))
        if index >= self._cut:
            return Cut(index - self._cut + 1)
        if index >= self._shanghai:
            meld, end = divmod(index - self._shanghai, 3)
            return Call(meld, _ALL_ENDS[end])
        if index >= self._call:
            return Call()
        if index >= self._pass:
            return _PASS
        if index >= self._buy:
            return _BUY
        return _DRAWS[index - self._draw]

    def describe(self, index: int) -> str:
        """What ``index`` means, in English (``"discard 9H"``, ``"lay off 7S on
        meld 3 at the high end"``; meld numbers and positions count from 1)."""
        if not is_whole(index) or not 0 <= index < self.size:
            raise ActionError("no_such_action_index", index=shown_value(index), size=self.size)
        index = int(index)  # (a numpy integer)
        if index == self._suggest:
            return "lay down the engine's suggestion"
        action = self.decode(index)
        if isinstance(action, SwapJoker):
            return (f"swap {action.card} for the wild card at position {action.position + 1}"
                    f" of meld {action.meld + 1}")
        if isinstance(action, Call) and action.meld >= 0:
            where = f" at the {action.end} end" if action.end else ""
            return f"call and lay the card on meld {action.meld + 1}{where}"
        return action.describe()

    def section(self, index: int) -> str:
        """The name of the section ``index`` lies in (``"draw"``, ``"stage"``, …)."""
        for name, r in self.sections.items():
            if index in r:
                return name
        raise ActionError("no_such_action_index", index=shown_value(index), size=self.size)

    # ------------------------------------------------------------ legality
    def _check_game(self, game: Game) -> None:
        if game.num_players != self.players or (
                game.rules is not self.rules and game.rules != self.rules):
            raise ValueError(f"{self!r} is not the action space of this game "
                             f"({game.rules.name!r}, {game.num_players} players)")

    def legal_indices(self, game: Game, seat: int | None = None) -> list[int]:
        """The indices of the legal actions of ``seat`` (default: the seat to
        move) now, in the order of ``legal_actions(seat)`` and then
        ``staging_actions()`` (the staging steps belong to the seat to move)."""
        self._check_game(game)
        to_move = game.to_move
        actions: Sequence[Action] = game.legal_actions(seat)
        if seat is None or seat == to_move:
            staging = game.staging_actions()
            if staging:
                actions = [*actions, *staging]
        encoders = self._encoders
        stage, k, e, end_at = self._stage, self.max_contract_melds, len(self.ends), self._end_at
        out: list[int] = []
        for a in actions:
            if isinstance(a, Stage):  # the commonest, inlined: see _enc_stage
                out.append(stage + (a.card.index * k + a.meld) * e + end_at[a.end])
            elif isinstance(a, LayDown):  # legal_actions lists one: the suggestion
                out.append(self._suggest)
            else:
                out.append(encoders[a.__class__](a, game))
        return out

    def legal_mask(self, game: Game, seat: int | None = None) -> bytearray:
        """``size`` values, 1 at the index of each legal action of ``seat``
        (default: the seat to move) now and 0 elsewhere (see
        :meth:`legal_indices`). A fresh :class:`bytearray` (a copy of a zero
        template: ``numpy.frombuffer(mask, dtype=numpy.uint8)`` reads it
        without copying)."""
        mask = bytearray(self._zeros)
        for i in self.legal_indices(game, seat):
            mask[i] = 1
        return mask
