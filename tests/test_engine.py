"""General tests of the game engine, and the helpers the other engine tests share.

Positions are built through the public JSON state format: a real game is
created, its ``to_json()`` state is edited (hands, stock, discard pile, table,
phase ...) and read back with ``Game.from_json``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from liverpool import (
    ActionError,
    Buy,
    Call,
    Discard,
    Draw,
    Game,
    LayDown,
    LayOff,
    Pass,
    SwapJoker,
    load_rules,
    parse_cards,
    replay,
)
from liverpool.actions import Action
from liverpool.cards import Card, make_deck
from liverpool.events import TookDiscard
from liverpool.melds import Meld, meld_from_table
from liverpool.rules import Rules

# ----------------------------------------------------------------- helpers


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
        placed = Counter(c.index for c in self.s.stock)
        placed.update(c.index for h in self.s.hands for c in h)
        placed.update(c.index for c in self.s.discards)
        placed.update(c.index for m in self.s.table for c in m.cards)
        deck = Counter(c.index for c in make_deck(self.rules.decks_for(self.num_players),
                                                  self.rules.jokers_for(self.num_players)))
        left_out = [Card.from_index(i) for i, n in (deck - placed).items() for _ in range(n)]
        full.s.stock = left_out + full.s.stock  # the stock's top is its last card
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


def quick_policy(rng: random.Random, game: Game) -> Action:
    """Random legal play that ends rounds: lay down, usually lay off, rarely buy or call."""
    legal = game.legal_actions()
    downs = [a for a in legal if isinstance(a, LayDown)]
    if downs:
        return downs[0]
    if game.phase == "play" and len(game.s.hands[game.turn_player]) == 1:
        outs = [a for a in legal if isinstance(a, Discard)]
        if outs:
            return outs[0]
    offs = [a for a in legal if isinstance(a, LayOff | SwapJoker)]
    if offs and rng.random() < 0.8:
        return rng.choice(offs)
    if game.phase in ("buy", "call"):
        return legal[0] if rng.random() < 0.05 else Pass()
    return rng.choice(legal)


def total_cards(game: Game) -> int:
    return sum(game.card_counts().values())


# ------------------------------------------------------------------- tests


@pytest.mark.parametrize("preset", ["liverpool", "london", "dansk", "remi"])
def test_new_game_starts_with_seat_0_to_move(preset: str) -> None:
    game = Game(load_rules(preset), players=4, seed=3)
    assert game.round == 1
    assert game.dealer == 3
    assert game.to_move == 0 or game.phase == "buy"
    assert not game.is_over
    assert game.results().winners == ()
    assert total_cards(game) == game.rules.deck_size(4)


def test_wrong_player_count_is_refused() -> None:
    with pytest.raises(ValueError, match="3 to 6 players"):
        Game(load_rules("remi"), players=7)
    with pytest.raises(ValueError, match="not 2"):
        Game(load_rules("liverpool"), players=2)


def test_same_seed_same_game_other_seed_other_game() -> None:
    rules = load_rules("liverpool")
    a, b, c = Game(rules, 4, seed=5), Game(rules, 4, seed=5), Game(rules, 4, seed=6)
    assert a.state_key() == b.state_key()
    assert a.hand(0) != c.hand(0)


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["liverpool", "london", "dansk", "remi"])
def test_a_random_game_ends_and_replays(preset: str) -> None:
    rules = load_rules(preset)
    game = Game(rules, players=3, seed=2)
    rng = random.Random(2)
    steps = 0
    while not game.is_over:
        game.apply(quick_policy(rng, game))
        steps += 1
        assert steps < 20000
    res = game.results()
    assert len(res.round_scores) == rules.num_rounds
    assert res.totals == tuple(sum(r[i] for r in res.round_scores) for i in range(3))
    assert res.winners
    assert all(res.totals[w] == min(res.totals) for w in res.winners)
    assert game.legal_actions() == []
    assert game.to_move is None
    assert replay(game.record()).state_key() == game.state_key()
    assert replay(json.dumps(game.record())).state_key() == game.state_key()
    assert Game.from_json(json.loads(json.dumps(game.to_json()))).state_key() == game.state_key()
    illegal(game, Draw("stock"), "game_over")


def test_apply_returns_the_events_it_caused() -> None:
    game = Game(load_rules("liverpool"), players=3, seed=1)
    n = len(game.events)
    events = game.apply(Draw("discard"))
    assert [type(e) for e in events] == [TookDiscard]
    assert events[0].seat == 0
    assert events[0].card == game.hand(0)[-1]
    assert not events[0].forced
    assert game.events[n:] == events


def test_legal_actions_returns_a_fresh_list() -> None:
    game = Game(load_rules("liverpool"), players=3, seed=1)
    legal = game.legal_actions()
    legal.clear()
    assert game.legal_actions()


def test_can_apply_agrees_with_apply() -> None:
    game = Game(load_rules("liverpool"), players=3, seed=1)
    assert game.can_apply(Draw("stock"))
    assert not game.can_apply(Buy())
    assert not game.can_apply("draw")  # type: ignore[arg-type]


def test_a_non_action_is_refused_with_a_message() -> None:
    game = Game(load_rules("liverpool"), players=3, seed=1)
    illegal(game, {"type": "draw"}, "not_an_action")  # type: ignore[arg-type]


def test_lay_downs_are_all_accepted_and_check_lay_down_agrees() -> None:
    game = build("liverpool", hands=["9H 9S 9D KS KH KC 2C 5D 7H 8C", "4C", "4D"],
                 stock="3S", discards="QD", turn_player=0)
    assert list(game.lay_downs()) == []  # not before drawing
    game.apply(Draw("discard"))
    downs = list(game.lay_downs())
    assert downs
    suggestion = game.suggest_lay_down()
    assert suggestion is not None
    assert suggestion in game.legal_actions()
    for d in downs:
        assert game.check_lay_down(d.melds) is None
    assert game.check_lay_down([table_meld("9H 9S 9D", game.rules)]) is not None


def test_card_counts_and_describe_hand() -> None:
    game = build("liverpool", hands=["9H 2C", "4C", "4D"], stock="3S 5S", discards="QD")
    assert game.card_counts() == {"hands": 4, "stock": 2, "discards": 1, "table": 0}
    assert game.describe_hand(0) == "9H 2C"  # sorted by suit, then rank


def test_offered_card() -> None:
    game = build("liverpool", hands=["9H 2C", "4C", "4D"], stock="3S 5S", discards="QD",
                 turn_player=0)
    assert game.offered_card == card("QD")
    game.apply(Draw("stock"))  # the others may buy QD now
    assert game.phase == "buy"
    assert game.offered_card == card("QD")
    game.apply(Pass())
    game.apply(Pass())
    assert game.phase == "play"
    assert game.offered_card is None


def test_call_action_without_end_on_a_run_is_resolved() -> None:
    rules = load_rules("remi", discard_call="shanghai")
    game = build(rules=rules, hands=["9H 2C 3D", "4C KS", "4D KH"], stock="3S 5S 6S",
                 discards="QD", table=["5H 6H 7H 8H"], down=[True, False, False],
                 down_turn=[1, -1, -1], phase="play", turn_player=0)
    game.apply(Discard(card("9H")))
    assert game.phase == "call"
    assert Call(0, "high") in game.legal_actions()
    game.apply(Call(0))
    assert game.history[-1] == Call(0, "high")
    assert str(game.table[0]) == "5H 6H 7H 8H 9H"
