"""Fair deals: Game(..., secure=True) draws every chance outcome from a stream
keyed by a fresh secret; the record carries the outcomes, not the secret, and
replays exactly (docs/server.md, "Fair deals")."""

from __future__ import annotations

import json

import pytest

from liverpool import Game, RecordError, load_rules, replay
from liverpool.bots import make_bot
from liverpool.engine.state import KeyedRng
from liverpool.loop import run_bots


def play(game: Game, actions: int = 10_000, until_round: int | None = None) -> Game:
    """Play the last legal action (a fixed policy) ``actions`` times, or to the
    game's end, or until ``until_round`` has been dealt."""
    for _ in range(actions):
        if game.is_over or (until_round is not None and game.round >= until_round):
            break
        game.apply(game.legal_actions()[-1], seat=game.to_move)
    return game


def hands(game: Game) -> list[list[str]]:
    return [[str(c) for c in game.hand(seat)] for seat in range(game.num_players)]


@pytest.mark.parametrize("preset", ["liverpool", "remi"])
def test_a_fair_game_replays_exactly_from_its_record(preset: str) -> None:
    rules = load_rules(preset)
    game = Game(rules, players=4, secure=True)
    run_bots(game, [make_bot("basic", rules, seed=seat) for seat in range(4)])
    assert game.is_over
    assert game.key is not None
    record = json.loads(json.dumps(game.record()))
    again = replay(record)
    assert again.to_json()["state"] == game.to_json()["state"]
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]
    assert again.results() == game.results()


def test_two_fair_games_with_the_same_arguments_deal_differently() -> None:
    rules = load_rules("liverpool")
    first, second = (Game(rules, players=4, secure=True) for _ in range(2))
    assert hands(first) != hands(second)
    assert first.chance.log[0] != second.chance.log[0]  # the whole deck order
    assert first.key != second.key
    seeded = Game(rules, players=4)
    assert hands(seeded) == hands(Game(rules, players=4)) != hands(first)


def test_the_record_holds_no_seed_that_regenerates_the_deal() -> None:
    game = play(Game(load_rules("dansk"), players=3, secure=True), 40)
    key = game.key
    assert key is not None
    assert len(key) == 32
    record = game.record()
    assert record["seed"] is None
    assert "key" not in record
    text = json.dumps(record)
    assert key.hex() not in text
    assert key.hex().upper() not in text
    # without its outcomes the record is not a game
    del record["chance"]
    with pytest.raises(RecordError, match="fair deal"):
        replay(record)


@pytest.mark.slow
def test_the_key_continues_a_fair_game() -> None:
    """A server keeps the key and the actions, and restarts the game from them."""
    rules = load_rules("remi", liverpool_cut=True)
    game = play(Game(rules, players=3, secure=True), until_round=3)
    key = game.key
    assert key is not None
    again = Game(rules, players=3, key=key)
    for action, seat in zip(game.history, game.history_seats, strict=True):
        again.apply(action, seat=seat)
    assert again.to_json() == game.to_json()
    # the full state keeps the key, a copy too: the same deals to come
    restored = Game.from_json(json.loads(json.dumps(game.to_json())))
    copied = game.copy()
    assert restored.key == copied.key == key
    for g in (game, restored, copied):
        play(g, until_round=5)
    assert restored.to_json() == game.to_json()
    assert copied.to_json() == game.to_json()


def test_a_replayed_fair_game_goes_on_with_a_fresh_secret() -> None:
    rules = load_rules("liverpool")
    game = play(Game(rules, players=4, secure=True), 12)
    record = game.record()
    one, two = replay(record), replay(record)
    assert one.key is not None
    assert one.key not in (two.key, game.key)
    for g in (game, one, two):
        play(g, until_round=2)
    deals = [[o for o in g.chance.log if o[0] == "deal"][1] for g in (game, one, two)]
    assert deals[0] != deals[1] != deals[2] != deals[0]


def test_keyed_stream() -> None:
    with pytest.raises(ValueError, match="16 to 64 bytes"):
        KeyedRng(b"short")
    a, b = KeyedRng(bytes(range(32))), KeyedRng(bytes(range(32)))
    assert [a.next64() for _ in range(20)] == [b.next64() for _ in range(20)]
    assert a.state == 20
    assert KeyedRng(bytes(32)).next64() != KeyedRng(bytes(31) + b"\1").next64()
    draws = [a.below(7) for _ in range(7000)]
    assert set(draws) == set(range(7))
    assert all(800 < draws.count(i) < 1200 for i in range(7))
    deck = list(range(52))
    a.shuffle(deck)
    assert sorted(deck) == list(range(52))
    assert deck != list(range(52))
