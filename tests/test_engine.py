"""General tests of the game engine. The positions they build, and the
helpers the other test files share, are in positions.py.
"""

from __future__ import annotations

import json
import random

import pytest
from positions import build, card, illegal, table_meld

from liverpool import (
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
    replay,
)
from liverpool.actions import Action
from liverpool.events import Drew, StockChosen, TookDiscard
from liverpool.i18n import render


def quick_policy(rng: random.Random, game: Game) -> Action:
    """Random legal play that ends rounds: lay down, usually lay off, rarely buy or call."""
    legal = game.legal_actions()
    downs = [a for a in legal if isinstance(a, LayDown)]
    if downs:
        return downs[0]
    if game.phase == "play" and len(game.state.hands[game.turn_player]) == 1:
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


def test_no_discard_is_turned_down_where_there_is_none() -> None:
    """london turns no upcard: its first player draws from the stock without
    turning a discard down (no stock_chosen event, no buy window)."""
    game = Game(load_rules("london"), players=4, seed=3)
    seat = game.to_move
    game.apply(Draw("stock"))
    events = game.events_for(seat)
    assert [type(e) for e in events[1:]] == [Drew]
    assert game.phase == "play"
    assert "discard" not in " ".join(render(e, "en") for e in events)
    # with a discard to turn down, the choice is told before the buy window
    game = Game(load_rules("liverpool"), players=4, seed=3)
    game.apply(Draw("stock"))
    assert isinstance(game.events_for(0)[-1], StockChosen)
    assert game.phase == "buy"
