"""The public API at its edges: seats that are no seats, malformed lay-downs,
file names no file can have, indexes out of range. Each is refused with the
library's own coded error (in every language), never a bare TypeError or
another seat's cards, and changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from liverpool import (
    ActionError,
    ActionSpace,
    Card,
    CardError,
    CommitLayDown,
    Discard,
    Game,
    GameError,
    LayDown,
    NotYourTurn,
    Pass,
    RecordError,
    RulesError,
    SeatView,
    find_contract,
    hand_points,
    load_rules,
    parse_cards,
    replay,
)
from liverpool.i18n import render
from liverpool.melds import arrange_meld, can_lay_off, classify_meld

NOT_SEATS = ("2", True, 1.0, 9, -1)


def game_in_a_buy_window() -> Game:
    game = Game(load_rules("liverpool"), players=4, seed=42)
    while game.phase != "buy":
        game.apply(game.legal_actions()[-1])
    return game


@pytest.mark.parametrize("seat", NOT_SEATS)
def test_apply_refuses_a_seat_that_is_no_seat_and_changes_nothing(seat: object) -> None:
    for game in (game_in_a_buy_window(), Game(load_rules("liverpool"), players=4, seed=3)):
        before = json.dumps(game.to_json(), sort_keys=True)
        action = Pass() if game.phase == "buy" else game.legal_actions()[0]
        with pytest.raises(NotYourTurn) as refused:
            game.apply(action, seat=seat)  # type: ignore[arg-type]
        assert refused.value.code == "no_such_seat"
        assert json.dumps(game.to_json(), sort_keys=True) == before
        for lang in ("nb", "da"):
            assert "no seat" not in render(refused.value, lang)


def test_a_record_whose_seat_is_no_seat_does_not_replay() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=42)
    for _ in range(3):
        game.apply(game.legal_actions()[-1])
    record = game.record()
    assert replay(record).to_json() == game.to_json()
    record["actions"][2]["seat"] = "x"
    with pytest.raises(RecordError, match="action 3"):
        replay(record)


def test_seat_arguments_are_checked_everywhere() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=1)
    for _ in range(20):
        game.apply(game.legal_actions()[-1])
    for seat in (-1, 4, "0", True, 1.5):
        for ask in (game.hand, game.view, game.legal_actions, game.events_for):
            with pytest.raises(GameError) as refused:
                ask(seat)  # type: ignore[operator]
            assert refused.value.code == "no_such_seat", (ask, seat)
    assert game.legal_actions(game.to_move) == game.legal_actions()
    with pytest.raises(GameError) as refused:
        game.events_for(0, since=-2)
    assert refused.value.code == "no_such_event"
    assert game.events_for(0, since=len(game.events)) == []


def test_check_lay_down_says_malformed_as_apply_does() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=11)
    game.apply(game.legal_actions()[0])
    with pytest.raises(ActionError) as refused:
        game.apply(LayDown([["9H", "9S", "9D"]]))  # type: ignore[list-item]
    for melds in ([["9H", "9S", "9D"]], None, [], [None]):
        assert game.check_lay_down(melds) == str(refused.value)  # type: ignore[arg-type]


def test_committing_nothing_is_said_as_such() -> None:
    game = Game(load_rules("liverpool"), players=4, seed=11)
    game.apply(game.legal_actions()[0])
    with pytest.raises(ActionError) as refused:
        game.apply(CommitLayDown())
    assert refused.value.code == "nothing_to_commit"
    assert render(refused.value, "nb") == "du har ikke lagt noen kort i kontrakten ennå"


@pytest.mark.parametrize("name", ["x" * 300, "a\x00b.toml", "\ud800.toml",
                                  "folder/" + "x" * 300 + ".toml"])
def test_a_name_no_file_can_have_is_a_rules_error(name: str) -> None:
    with pytest.raises(RulesError) as refused:
        load_rules(name)
    render(refused.value, "da").encode("utf-8")  # printable


@pytest.mark.parametrize("extends", ["y" * 300, "y" * 300 + ".toml", "a\\u0000b.toml"])
def test_extends_naming_no_possible_file_is_a_rules_error(tmp_path: Path, extends: str) -> None:
    house = tmp_path / "house.toml"
    house.write_text(f'extends = "{extends}"\n', encoding="utf-8")
    with pytest.raises(RulesError) as refused:
        load_rules(house)
    assert refused.value.code in ("rules_extends_value", "rules_extends_no_file")


def test_a_missing_value_is_said_in_the_players_language() -> None:
    with pytest.raises(RulesError) as refused:
        load_rules("london", name=None)
    assert render(refused.value, "nb").endswith("ikke ingenting")
    assert render(refused.value, "da").endswith("ikke intet")
    assert str(refused.value).endswith("not nothing")


def test_card_indexes_outside_the_deck_are_refused() -> None:
    assert [Card.from_index(i).index for i in (0, 51, 52)] == [0, 51, 52]
    for index in (-1, 53, "x", None, 1.5):
        with pytest.raises(CardError) as refused:
            Card.from_index(index)  # type: ignore[arg-type]
        assert refused.value.code == "card_no_index"


def test_the_action_space_refuses_what_has_no_index() -> None:
    rules = load_rules("london")
    game = Game(rules, 3, seed=1)
    space = ActionSpace(rules, 3)
    for index in (1.0, None, "x", -1, space.size, True):
        with pytest.raises(ActionError) as refused:
            space.decode(index, game)  # type: ignore[arg-type]
        assert refused.value.code == "no_such_action_index"
        with pytest.raises(ActionError):
            space.describe(index)  # type: ignore[arg-type]
    with pytest.raises(ActionError) as refused:
        space.encode(Discard("9H"), game)  # type: ignore[arg-type]
    assert refused.value.code == "action_card_type"
    with pytest.raises(TypeError, match="needs a Rules"):
        ActionSpace("london", 3)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        ActionSpace(rules, "3")  # type: ignore[arg-type]
    legal = game.legal_actions()
    assert [space.decode(space.encode(a, game), game) for a in legal] == legal


def test_a_malformed_view_says_what_is_missing() -> None:
    data = Game(load_rules("liverpool"), 4, seed=1).view(0).to_json()
    del data["table"]
    with pytest.raises(RecordError, match="it has no 'table'"):
        SeatView.from_json(data)


def test_a_numpy_integer_is_a_seat() -> None:
    np = pytest.importorskip("numpy")
    game = Game(load_rules("liverpool"), players=4, seed=1)
    assert game.legal_actions(np.int64(0)) == game.legal_actions(0) != []
    assert game.hand(np.int64(1)) == game.hand(1)
    assert game.view(np.int64(2)) == game.view(2)
    game.apply(game.legal_actions()[0], seat=np.int64(0))
    assert game.history_seats[-1] == 0
    assert type(game.history_seats[-1]) is int


@pytest.mark.parametrize("call", [
    lambda r: classify_meld("9H 9S 9D", r),
    lambda r: classify_meld(["9H", "9S", "9D"], r),
    lambda r: arrange_meld(["7H", "8H", "9H", "TH"], r, "run"),
    lambda r: can_lay_off(parse_cards("9H 9S 9D"), "9C", r),
    lambda r: can_lay_off(["9H", "9S", "9D"], Card.parse("9C"), r),
    lambda r: hand_points("9H KS", r),
    lambda r: hand_points(["9H"], r),
    lambda r: find_contract("9H", r, 1),
    lambda r: find_contract(["9H"] * 10, r, 1),
])
def test_the_rules_functions_refuse_card_strings_with_a_coded_error(call: Any) -> None:
    with pytest.raises(CardError) as caught:
        call(load_rules("liverpool"))
    assert caught.value.code in ("cards_text", "card_not_card")
    assert re.search(r"'[79]", str(caught.value))
    assert "Card" in render(caught.value, "nb") or "parse_cards" in render(caught.value, "nb")
    assert render(caught.value, "nb") != render(caught.value, "en")
