"""The engine as a platform: versions and seats, windows that take answers in
any order, nobody buying their own discard, lay-downs built card by card,
records with chance outcomes, copies, checked positions, views as a stream."""

from __future__ import annotations

import dataclasses
import random

import pytest

from liverpool import (
    ActionError,
    Buy,
    CommitLayDown,
    Discard,
    Draw,
    Game,
    NotYourTurn,
    Pass,
    RecordError,
    SeatView,
    Stage,
    StaleAction,
    Unstage,
    load_rules,
    replay,
)
from liverpool.bots import make_bot
from liverpool.engine.state import State
from liverpool.events import Bought, Discarded, event_from_json
from liverpool.loop import run_bots

PRESETS = ("liverpool", "london", "dansk", "remi")


def random_game(preset: str, seed: int, steps: int | None = None, **options: object) -> Game:
    game = Game(load_rules(preset, **options), players=4, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over and (steps is None or n < steps):
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return game


def to_buy_window(game: Game) -> None:
    """Play the last legal action (the stock, a discard) until a buy window is open."""
    while game.phase != "buy":
        game.apply(game.legal_actions()[-1])


# ------------------------------------------------------------- versions
def test_version_moves_with_every_accepted_action() -> None:
    game = random_game("liverpool", 1, steps=300)
    assert game.version == len(game.history) == 300


def test_stale_version_and_wrong_seat_change_nothing() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=2)
    before = game.state_key()
    with pytest.raises(StaleAction) as stale:
        game.apply(Draw("stock"), seat=0, expected_version=game.version + 1)
    assert stale.value.code == "stale_action"
    with pytest.raises(NotYourTurn) as wrong:
        game.apply(Draw("stock"), seat=1)
    assert wrong.value.code == "not_your_turn"
    assert wrong.value.params["seat"] == 0
    assert isinstance(stale.value, ActionError)
    assert isinstance(wrong.value, ActionError)
    assert game.state_key() == before
    assert game.version == 0
    game.apply(Draw("stock"), seat=0, expected_version=0)
    assert game.version == 1


# ------------------------------------------------------------- windows
def test_a_later_buyer_waits_for_the_seats_before_it() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=3)
    to_buy_window(game)
    first, second, *_ = game.answering
    last = game.answering[-1]
    card = game.offered_card
    game.apply(Buy(), seat=last)
    assert game.phase == "buy"
    assert last not in game.answering
    assert game.buys[last] == 0  # not settled yet
    game.apply(Pass(), seat=second)  # a pass out of order settles nothing
    assert game.phase == "buy"
    assert game.to_move == first
    game.apply(Pass(), seat=first)
    bought = [e for e in game.events if isinstance(e, Bought)]
    assert bought[-1].seat == last
    assert bought[-1].card == card


def test_the_first_seats_buy_wins_over_a_waiting_one() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=3)
    to_buy_window(game)
    first = game.answering[0]
    last = game.answering[-1]
    game.apply(Buy(), seat=last)
    game.apply(Buy(), seat=first)
    bought = [e for e in game.events if isinstance(e, Bought)]
    assert bought[-1].seat == first
    assert game.buys[last] == 0


def test_answers_in_any_order_equal_sequential_play() -> None:
    """The same answers given in reverse order settle the window the same way."""
    for seed in range(20):
        a = Game(load_rules("remi"), players=5, seed=seed)
        to_buy_window(a)
        b = a.copy()
        rng = random.Random(seed)
        answers = {seat: rng.choice([Buy(), Pass()]) for seat in a.answering}
        while a.phase == "buy" and a.to_move in answers:  # one at a time, by priority
            a.apply(answers[a.to_move])
        for seat in reversed(list(b.answering)):  # everyone at once, last first
            if b.phase == "buy" and seat in b.answering:
                b.apply(answers[seat], seat=seat)
        assert a.buys == b.buys
        assert a.hand(0) == b.hand(0)
        assert a.phase == b.phase


def test_a_seat_outside_the_window_may_not_answer() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=3)
    to_buy_window(game)
    outside = game.turn_player
    with pytest.raises(NotYourTurn):
        game.apply(Buy(), seat=outside)
    with pytest.raises(ActionError):
        game.apply(Draw("stock"), seat=game.answering[-1])
    assert game.legal_actions(outside) == []


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_nobody_is_offered_their_own_discard(preset: str) -> None:
    for seed in range(4):
        game = Game(load_rules(preset), players=4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.phase == "buy":
                owner = game.view(None).discarders[-1]  # who discarded the offered card
                assert owner not in game.answering
            game.apply(rng.choice(game.legal_actions()))


def test_the_discarder_of_the_top_card_is_never_in_the_window() -> None:
    """Directly after a discard (liverpool: the discarder is the seat before the
    turn player), the discarder is not among the buyers."""
    game = Game(load_rules("liverpool"), players=4, seed=9)
    seen = 0
    while not game.is_over and seen < 30:
        if game.phase == "buy" and any(isinstance(e, Discarded) for e in game.events[-3:]):
            discarder = next(e.seat for e in reversed(game.events) if isinstance(e, Discarded))
            assert discarder not in game.answering
            seen += 1
        game.apply(game.legal_actions()[-1])
    assert seen >= 10


# --------------------------------------------------- building a lay-down
def to_a_lay_down(preset: str, seed: int) -> Game:
    game = Game(load_rules(preset), players=4, seed=seed)
    while not (game.phase == "play" and game.suggest_lay_down()):
        game.apply(game.legal_actions()[-1])
        assert not game.is_over
    return game


@pytest.mark.parametrize("preset", PRESETS)
def test_every_suggested_lay_down_can_be_built_card_by_card(preset: str) -> None:
    for seed in range(3):
        game = to_a_lay_down(preset, seed)
        plan = game.suggest_lay_down()
        assert plan is not None
        built = game.copy()
        code = built.rules.contract(built.round).code
        slots = {"S": [i for i, k in enumerate(code) if k == "S"],
                 "R": [i for i, k in enumerate(code) if k == "R"]}
        for meld in plan.melds:
            slot = slots["S" if meld.kind == "set" else "R"].pop(0)
            for card in meld.cards:
                step = Stage(card, slot, None if meld.kind == "set" else "high")
                assert step in built.staging_actions()
                built.apply(step)
        assert CommitLayDown() in built.staging_actions()
        built.apply(CommitLayDown())
        assert sorted(built.table, key=str) == sorted(plan.melds, key=str)
        assert built.laid_down[game.turn_player]


def test_unstage_takes_back_and_a_bad_commit_is_refused() -> None:
    game = to_a_lay_down("liverpool", 1)
    before = game.staged
    card = game.hand(game.turn_player)[0]
    game.apply(Stage(card, 0))
    assert game.staged[0] == (card,)
    with pytest.raises(ActionError):
        game.apply(CommitLayDown())
    game.apply(Unstage())
    assert game.staged == before == ()
    with pytest.raises(ActionError) as e:
        game.apply(Unstage())
    assert e.value.code == "nothing_staged"


def test_staged_cards_are_hidden_from_the_others() -> None:
    game = to_a_lay_down("liverpool", 1)
    seat = game.turn_player
    game.apply(Stage(game.hand(seat)[0], 0))
    assert game.view(seat).staged
    assert not game.view((seat + 1) % 4).staged
    assert not game.view(None).staged


# ----------------------------------------------------------- records
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
@pytest.mark.slow
def test_a_record_replays_from_its_chance_outcomes(preset: str) -> None:
    game = random_game(preset, 4)
    record = game.record()
    assert record["format"] == "liverpool-rummy-record/2"
    assert {next(iter(o)) for o in record["chance"]} >= {"deal"}
    record["seed"] = 123456  # a different generator: the outcomes still decide
    again = replay(record)
    assert again.to_json()["state"] == game.to_json()["state"]
    assert [e.to_json() for e in again.events] == [e.to_json() for e in game.events]


def test_a_shanghai_pick_is_a_recorded_outcome() -> None:
    for seed in range(40):
        game = random_game("remi", seed, discard_call="shanghai")
        if any("pick" in o for o in game.record()["chance"]):
            record = game.record()
            record["seed"] += 1
            assert replay(record).to_json()["state"] == game.to_json()["state"]
            return
    pytest.fail("no Shanghai call in 40 random games")


def test_a_record_with_wrong_outcomes_is_refused() -> None:
    record = random_game("liverpool", 5, steps=50).record()
    record["chance"][0] = {"deal": "AS KS"}
    with pytest.raises(RecordError):
        replay(record)
    record["chance"][0] = {"pick": 3}
    with pytest.raises(RecordError):
        replay(record)


def test_record_text_that_is_not_a_record_is_said_in_every_language() -> None:
    from liverpool import i18n

    for text, problem, nb in (("[" * 100_000 + "]" * 100_000, "too_deep",
                               "protokollens JSON er nøstet for dypt"),
                              ('{"format": ', "not_json",
                               "protokollen er ikke JSON (linje 1, kolonne 12)"),
                              ("[1, 2]", "not_object", "en protokoll må være et JSON-objekt")):
        with pytest.raises(RecordError) as e:
            replay(text)
        assert e.value.problem == problem
        assert i18n.render(e.value, "nb") == nb


def test_the_actions_of_a_record_carry_their_seats() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=3)
    to_buy_window(game)
    last = game.answering[-1]
    game.apply(Buy(), seat=last)
    for seat in list(game.answering):
        game.apply(Pass(), seat=seat)
    record = game.record()
    assert record["actions"][-len(game.history):][-3]["seat"] == last or any(
        a["seat"] == last and a["type"] == "buy" for a in record["actions"])
    assert replay(record).state_key() == game.state_key()


# ------------------------------------------------------ copies, positions
def test_a_copy_is_independent() -> None:
    game = random_game("dansk", 6, steps=200)
    copy = game.copy()
    assert copy.state_key() == game.state_key()
    rng = random.Random(1)
    while not copy.is_over:
        copy.apply(rng.choice(copy.legal_actions()))
    assert game.version == 200
    assert len(game.history) == 200
    assert Game.from_json(game.to_json()).state_key() == game.state_key()



def test_a_state_copy_keeps_every_field_in_its_place() -> None:
    # every field gets a value of its own, so two fields swapped would show
    values: dict[str, object] = {}
    for f in dataclasses.fields(State):
        name = f.name
        if name in ("hands", "round_scores", "staged"):
            values[name] = [[name, 1], [name, 2]]
        elif name == "pending":
            values[name] = {0: name}
        elif str(f.type).startswith("list"):
            values[name] = [name]
        else:
            values[name] = name
    state = State(**values)  # type: ignore[arg-type]
    copy = state.copy()
    for f in dataclasses.fields(State):
        value = getattr(state, f.name)
        assert getattr(copy, f.name) == value, f.name
        if isinstance(value, list | dict):
            assert getattr(copy, f.name) is not value, f.name
    for name in ("hands", "round_scores", "staged"):
        assert getattr(copy, name)[0] is not getattr(state, name)[0], name


@pytest.mark.parametrize(("edit", "words"), [
    (lambda st: st.update(phase="banana"), "no phase 'banana'"),
    (lambda st: st["stock"].extend(["AS"] * 40), "too many AS"),
    (lambda st: st["hands"][0].pop(), "missing"),
    (lambda st: st.update(dealer=9), "no seat"),
    (lambda st: st.update(round=0), "no round 0"),
    (lambda st: st.update(queue=[7]), "out of range"),
    (lambda st: st.update(buys=[99, 0, 0, 0]), "buy count"),
    (lambda st: st["hands"].pop(), "one entry per seat"),
])
def test_a_bad_position_is_refused(edit: object, words: str) -> None:
    data = random_game("liverpool", 7, steps=120).to_json()
    edit(data["state"])  # type: ignore[operator]
    with pytest.raises(RecordError) as e:
        Game.from_json(data)
    assert words in str(e.value)


def test_malformed_state_data_is_refused_with_a_record_error() -> None:
    data = random_game("liverpool", 7, steps=10).to_json()
    del data["state"]["hands"]
    with pytest.raises(RecordError):
        Game.from_json(data)
    with pytest.raises(RecordError):
        Game.from_json({"format": "something else"})


def test_from_view_checks_the_cards() -> None:
    game = random_game("liverpool", 8, steps=60)
    view = game.view(0)
    hands = [game.hand(s) for s in range(4)]
    stock_size = view.stock_size
    with pytest.raises(RecordError):
        Game.from_view(game.rules, view, hands, [hands[0][0]] * stock_size)


# -------------------------------------------------------------- views
@pytest.mark.parametrize("preset", PRESETS)
def test_views_and_events_round_trip_through_json(preset: str) -> None:
    game = Game(load_rules(preset), players=4, seed=9)
    rules = game.rules
    bots = [make_bot("basic", rules, seed=s) for s in range(4)]
    while not game.is_over:
        run_bots(game, bots, limit=37)
        for seat in (0, 1, 2, 3, None):
            view = game.view(seat)
            assert SeatView.from_json(view.to_json()) == view
        for e in game.events[-20:]:
            assert event_from_json(e.to_json()) == e


def test_events_for_a_seat_hide_the_others_cards() -> None:
    game = random_game("liverpool", 10, steps=400)
    for seat in (0, 1, None):
        for e in game.events_for(seat):
            if e.private_fields and not e.sees(seat):
                for name in e.private_fields:
                    assert getattr(e, name) in (None, ())
    since = len(game.events) - 5
    assert [e.seq for e in game.events_for(2, since)] == list(range(since, len(game.events)))


def test_a_spectator_view_holds_no_hand() -> None:
    game = random_game("remi", 11, steps=150)
    spectator = game.view(None)
    assert spectator.hand == ()
    assert spectator.legal_actions == ()
    assert spectator.seat is None
    assert any(e.private_fields for e in spectator.events)
    assert all(getattr(e, name) in (None, ()) for e in spectator.events
               for name in e.private_fields)


def test_a_discard_of_a_card_not_held_is_refused_with_a_code() -> None:
    game = to_a_lay_down("liverpool", 2)
    held = {c.index for c in game.hand(game.turn_player)}
    other = next(c for s in range(4) for c in game.hand(s) if c.index not in held)
    with pytest.raises(ActionError) as e:
        game.apply(Discard(other))
    assert e.value.code == "not_in_hand"
    assert e.value.params["card"] == other
