"""Positions for the engine's tests, and the small helpers the test files share.

Positions are built through the public JSON state format: a real game is
created, its ``to_json()`` state is edited (hands, stock, discard pile, table,
phase ...) and read back (:class:`Position`, a partial deal). ``illegal``
applies an action that must be refused and checks that nothing changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from liverpool import ActionError, Game, load_rules, parse_cards
from liverpool.actions import Action
from liverpool.cards import Card, make_deck
from liverpool.melds import Meld, meld_from_table
from liverpool.rules import Rules

__all__ = ["Position", "build", "card", "cards", "hand", "illegal", "same", "table_meld"]


def card(text: str) -> Card:
    return parse_cards(text)[0]


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def table_meld(text: str, rules: Rules) -> Meld:
    meld = meld_from_table(cards(text), rules)
    assert meld is not None, text
    return meld


class Position(Game):
    """A game in a position made up for a test: a partial deal.

    ``Game.from_json`` checks that a position is possible, every card of the
    decks exactly once; the positions of these tests deal only the few cards
    that matter and leave the rest of the decks out. This class checks them
    as the engine does (phase, seats, window, table melds, no card too many)
    with the cards left out counted as if they were at the bottom of the stock.
    """

    def check_position(self) -> None:
        full = self.copy()
        placed = Counter(c.index for c in self.state.stock)
        placed.update(c.index for h in self.state.hands for c in h)
        placed.update(c.index for c in self.state.discards)
        placed.update(c.index for m in self.state.table for c in m.cards)
        deck = Counter(c.index for c in make_deck(self.rules.decks_for(self.num_players),
                                                  self.rules.jokers_for(self.num_players)))
        left_out = [Card.from_index(i) for i, n in (deck - placed).items() for _ in range(n)]
        full.state.stock = left_out + full.state.stock  # the stock's top is its last card
        Game.check_position(full)


def build(
    preset: str = "liverpool",
    players: int = 3,
    *,
    hands: Sequence[str],
    stock: str = "",
    discards: str = "",
    discarders: Sequence[int] | None = None,
    table: Sequence[str] = (),
    owners: Sequence[int] | None = None,
    round: int = 1,
    turn_player: int | None = None,
    phase: str = "draw",
    down: Sequence[bool] | None = None,
    down_turn: Sequence[int] | None = None,
    turn_number: int = 5,
    buys: Sequence[int] | None = None,
    round_scores: Sequence[Sequence[int]] | None = None,
    queue: Sequence[int] = (),
    stock_chosen: bool = False,
    rules: Rules | None = None,
    seed: int = 11,
    **overrides: Any,
) -> Game:
    """A game in a chosen position, made through ``Position.from_json`` (see
    :class:`Position`: the cards not named are left out of the game).

    ``stock`` is written top first (its first card is drawn first);
    ``discards`` bottom first (its last card is the top discard), and
    ``discarders`` says who discarded each (default -1 for all: turned up from
    the stock, so that any other seat may buy them). Table melds are written as
    they lie (runs low to high, wilds in place). The score sheet of the rounds
    before ``round`` is all zeros unless ``round_scores`` is given.
    """
    if rules is None:
        rules = load_rules(preset, **overrides)
    data = Game(rules, players=players, seed=seed).to_json()
    data["history"] = []
    data["events"] = []
    st = data["state"]
    melds = [table_meld(t, rules) for t in table]
    pile = discards.split()
    st.update(
        round=round,
        dealer=(round - 2) % players,
        hands=[h.split() for h in hands],
        stock=list(reversed(stock.split())),
        discards=pile,
        discarders=list(discarders) if discarders is not None else [-1] * len(pile),
        table=[m.to_json() for m in melds],
        owners=list(owners) if owners is not None else [0] * len(melds),
        down=list(down) if down is not None else [False] * players,
        down_turn=list(down_turn) if down_turn is not None else [
            1 if (down and down[i]) else -1 for i in range(players)],
        buys=list(buys) if buys is not None else [0] * players,
        round_scores=([list(r) for r in round_scores] if round_scores
                      else [[0] * players for _ in range(round - 1)]),
        phase=phase,
        turn_player=(round - 1) % players if turn_player is None else turn_player,
        turn_number=turn_number,
        queue=list(queue),
        pending=[],
        last_buyer=-1,
        stock_chosen=stock_chosen,
        call_card=None,
        pending_wilds=0,
        cut_bonus_seat=-1,
        staged=[],
        stage_log=[],
    )
    assert len(hands) == players
    return Position.from_json(data)


def hand(game: Game, seat: int) -> list[str]:
    return sorted(str(c) for c in game.hand(seat))


def same(cards_a: Sequence[Card], text: str) -> bool:
    return sorted(cards_a) == sorted(cards(text))


def illegal(game: Game, action: Action, code: str, /, **params: Any) -> ActionError:
    """Apply an illegal action: it raises ActionError with ``code`` (and the given
    ``params``, where named) and changes nothing."""
    before = game.state_key()
    legal_before = game.legal_actions()
    with pytest.raises(ActionError) as info:
        game.apply(action)
    error = info.value
    assert error.code == code, (error.code, str(error))
    for name, value in params.items():
        assert error.params.get(name) == value, (name, error.params, str(error))
    assert str(error)  # an English message from liverpool.errors.MESSAGES
    assert game.state_key() == before
    assert game.legal_actions() == legal_before
    return error
