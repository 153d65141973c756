"""Rulesets: presets (docs/rules.md, §4), variants (§5), options and validation (§6)."""

from __future__ import annotations

import dataclasses
import tempfile
import tomllib
from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liverpool import PRESETS, Card, Points, Rules, RulesError, i18n, load_rules
from liverpool.ruleset_io import (
    OPTION_NAMES,
    POINTS_KEYS,
    rules_from_dict,
    rules_to_toml,
    ruleset_extends,
)

LIVERPOOL_CONTRACTS = ("SS", "SR", "RR", "SSS", "SSR", "SRR", "RRR")
DANSK_CONTRACTS = ("SS", "SR", "SSS", "SSR", "SRR", "RRR", "SSSR")

# Every preset has these (docs/rules.md, §4, "Every preset has ...").
COMMON = {
    "buying": True,
    "buy_penalty_cards": 1,
    "set_same_suit": False,
    "run_same_suit": True,
    "forbid_adjacent_same_suit_runs": False,
    "forbid_same_rank_sets": False,
    "liverpool_cut": False,
    "lay_off_same_turn": False,
}

# The table of docs/rules.md, §4, column by column.
EXPECTED: dict[str, dict[str, object]] = {
    "liverpool": {
        "players": (3, 8),
        "decks": ((4, 2), (6, 3), (8, 4)),
        "jokers_per_deck": 2,
        "jokers_total": None,
        "wild_deuce_of_spades": False,
        "contracts": LIVERPOOL_CONTRACTS,
        "deal": (10, 10, 10, 10, 12, 12, 12),
        "initial_upcard": True,
        "run_wrap": "never",
        "contract_exact": False,
        "buy_priority": "turn_player_first",
        "buy_limit_per_round": 3,
        "rebuy": "none",
        "refill_empty_discard": False,
        "no_consecutive_buys": False,
        "joker_swap": "runs_and_sets",
        "swapped_joker_must_be_played": False,
        "min_naturals_set": 2,
        "min_naturals_run": 3,
        "naturals_at_least_wilds": False,
        "no_adjacent_wilds_in_run": True,
        "discard_call": "liverpool",
        "go_out_requires_discard": False,
        "final_round": "all_at_once",
        "points": Points(5, 10, 10, 20, 50),
    },
    "london": {
        "players": (3, 6),
        "decks": ((4, 2), (6, 3)),
        "jokers_per_deck": 0,
        "jokers_total": None,
        "wild_deuce_of_spades": True,
        "contracts": LIVERPOOL_CONTRACTS,
        "deal": (10,) * 7,
        "initial_upcard": False,
        "run_wrap": "three_beside_ace",
        "contract_exact": False,
        "buy_priority": "turn_player_first",
        "buy_limit_per_round": "unlimited",
        "rebuy": "none",
        "refill_empty_discard": False,
        "no_consecutive_buys": False,
        "joker_swap": "none",
        "swapped_joker_must_be_played": False,
        "min_naturals_set": 0,
        "min_naturals_run": 0,
        "naturals_at_least_wilds": False,
        "no_adjacent_wilds_in_run": False,
        "discard_call": "none",
        "go_out_requires_discard": False,
        "final_round": "all_at_once_discard",
        "points": Points(5, 10, 10, 20, 50),
    },
    "dansk": {
        "players": (3, 6),
        "decks": ((4, 2), (6, 3)),
        "jokers_per_deck": 0,
        "jokers_total": None,
        "wild_deuce_of_spades": False,
        "contracts": DANSK_CONTRACTS,
        "deal": (10, 10, 10, 10, 11, 12, 13),
        "initial_upcard": True,
        "run_wrap": "never",
        "contract_exact": False,
        "buy_priority": "others_first",
        "buy_limit_per_round": "unlimited",
        "rebuy": "next_card",
        "refill_empty_discard": True,
        "no_consecutive_buys": False,
        "joker_swap": "none",
        "swapped_joker_must_be_played": False,
        "min_naturals_set": 0,
        "min_naturals_run": 0,
        "naturals_at_least_wilds": False,
        "no_adjacent_wilds_in_run": False,
        "discard_call": "liverpool_pile",
        "go_out_requires_discard": True,
        "final_round": "all_at_once",
        "points": Points("face", 10, 10, 15, 50),
    },
    "remi": {
        "players": (3, 6),
        "decks": ((5, 2), (6, 3)),
        "jokers_total": 9,
        "wild_deuce_of_spades": False,
        "contracts": LIVERPOOL_CONTRACTS,
        "deal": (10, 10, 10, 10, 10, 10, 11),
        "initial_upcard": True,
        "run_wrap": "never",
        "contract_exact": True,
        "buy_priority": "turn_player_first",
        "buy_limit_per_round": "unlimited",
        "rebuy": "next_card",
        "refill_empty_discard": False,
        "no_consecutive_buys": True,
        "joker_swap": "runs",
        "swapped_joker_must_be_played": True,
        "min_naturals_set": 0,
        "min_naturals_run": 0,
        "naturals_at_least_wilds": True,
        "no_adjacent_wilds_in_run": False,
        "discard_call": "none",
        "go_out_requires_discard": False,
        "final_round": "all_at_once",
        "points": Points("face", 10, 10, 20, 50),
    },
}


def error_of(*args: object, **kwargs: object) -> str:
    """The message of the RulesError that load_rules raises."""
    with pytest.raises(RulesError) as info:
        load_rules(*args, **kwargs)  # type: ignore[arg-type]
    return str(info.value)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ presets
def test_preset_names() -> None:
    assert PRESETS == ("liverpool", "london", "dansk", "remi")


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_has_the_values_of_rules_md(preset: str) -> None:
    rules = load_rules(preset)
    assert rules.name == preset
    for key, value in {**COMMON, **EXPECTED[preset]}.items():
        assert getattr(rules, key) == value, key
    # defaults not named in the table
    assert (rules.cut_bonus, rules.cut_noise, rules.max_turns_per_round) == (-50, 5, 1000)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_file_sets_every_option_explicitly(preset: str) -> None:
    import importlib.resources

    text = importlib.resources.files("liverpool").joinpath("presets", f"{preset}.toml").read_text()
    assert text.startswith("# Preset")
    data = tomllib.loads(text)
    assert "extends" not in data
    assert set(data["points"]) == set(POINTS_KEYS)
    expected = set(OPTION_NAMES) - {"cut_bonus", "cut_noise", "max_turns_per_round"}
    if preset != "remi":
        expected.discard("jokers_total")
    assert set(data) == expected


def test_default_argument_is_liverpool() -> None:
    assert load_rules() == load_rules("liverpool")
    assert load_rules() is load_rules("liverpool")  # cached


def test_preset_names_ignore_case() -> None:
    assert load_rules("London") == load_rules("london")


def test_deck_sizes() -> None:
    liverpool, london, remi = load_rules("liverpool"), load_rules("london"), load_rules("remi")
    assert [liverpool.decks_for(n) for n in range(3, 9)] == [2, 2, 3, 3, 4, 4]
    assert [liverpool.jokers_for(n) for n in range(3, 9)] == [4, 4, 6, 6, 8, 8]
    assert liverpool.deck_size(8) == 216
    assert [london.decks_for(n) for n in range(3, 7)] == [2, 2, 3, 3]
    assert london.jokers_for(6) == 0
    assert [remi.decks_for(n) for n in range(3, 7)] == [2, 2, 2, 3]
    assert [remi.jokers_for(n) for n in range(3, 7)] == [9, 9, 9, 9]
    pm1 = load_rules("remi", jokers_total="players_minus_one")
    assert [pm1.jokers_for(n) for n in range(3, 7)] == [2, 3, 4, 5]


def test_card_points() -> None:
    liverpool, dansk, london = load_rules("liverpool"), load_rules("dansk"), load_rules("london")
    pts = {
        c: liverpool.card_points(Card.parse(c)) for c in ("2H", "9C", "TD", "JS", "KH", "AS", "*")
    }
    assert pts == {"2H": 5, "9C": 5, "TD": 10, "JS": 10, "KH": 10, "AS": 20, "*": 50}
    assert dansk.card_points(Card.parse("7H")) == 7
    assert dansk.card_points(Card.parse("AH")) == 15
    assert london.card_points(Card.parse("2S")) == 50  # wild
    assert london.card_points(Card.parse("2H")) == 5
    assert liverpool.card_points(Card.parse("2S")) == 5
    assert liverpool.hand_points([Card.parse("AS"), Card.parse("*")]) == 70


# ------------------------------------------------------------------ rounds
def test_rounds_count_from_one() -> None:
    rules = load_rules("liverpool")
    assert rules.num_rounds == 7
    assert (rules.contract(1).sets, rules.contract(1).runs) == (2, 0)
    assert rules.contract(2).describe() == "1 set + 1 run"
    assert rules.contract(7).code == "RRR"
    assert rules.contract(7).min_cards == 12
    assert rules.cards_dealt(1) == 10
    assert rules.cards_dealt(7) == 12
    assert rules.is_final_round(7)
    assert not rules.is_final_round(6)
    assert rules.final_mode(6) == "normal"
    assert rules.final_mode(7) == "all_at_once"
    dansk = load_rules("dansk")
    assert dansk.contract(7).describe() == "3 sets + 1 run"
    assert dansk.cards_dealt(7) == 13


@pytest.mark.parametrize("bad_round", [0, 8, -1])
def test_round_out_of_range(bad_round: int) -> None:
    rules = load_rules("liverpool")
    with pytest.raises(RulesError, match="round must be between 1 and 7"):
        rules.contract(bad_round)
    with pytest.raises(RulesError):
        rules.cards_dealt(bad_round)


# ------------------------------------------------------------------ overrides, files
def test_overrides() -> None:
    rules = load_rules("remi", contract_exact=False)
    assert rules.contract_exact is False
    assert rules.name == "remi"
    assert rules.jokers_total == 9
    assert load_rules("remi").contract_exact is True  # the cache is untouched
    assert load_rules("liverpool", players=(4, 6)).players == (4, 6)
    assert load_rules("liverpool", name="house").name == "house"


def test_jokers_total_none_unsets_it() -> None:
    rules = load_rules("remi", jokers_total=None)
    assert rules.jokers_total is None
    assert rules.jokers_for(4) == 4  # jokers_per_deck 2 x 2 decks


def test_jokers_per_deck_alone_unsets_an_inherited_total(tmp_path: Path) -> None:
    # a layer naming jokers per deck means per deck, not remi's 9 in all
    assert load_rules("remi", jokers_per_deck=1).jokers_for(4) == 2
    path = write(tmp_path, "house.toml", 'extends = "remi"\njokers_per_deck = 1\n')
    assert load_rules(path).jokers_total is None
    assert load_rules(path).jokers_for(6) == 3
    # named together, the total still replaces the count per deck
    both = load_rules("remi", jokers_per_deck=1, jokers_total="players_minus_one")
    assert both.jokers_for(5) == 4
    # a file extending one that sets jokers per deck keeps its own total
    path2 = write(tmp_path, "more.toml", 'extends = "house.toml"\njokers_total = 5\n')
    assert load_rules(path2).jokers_for(4) == 5


def test_points_merge_key_by_key() -> None:
    rules = load_rules("dansk", points={"ace": 20})
    assert rules.points == Points("face", 10, 10, 20, 50)
    rules = load_rules("liverpool", points=Points(1, 2, 3, 4, 5))
    assert rules.points == Points(1, 2, 3, 4, 5)


def test_extends_preset_from_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "house.toml",
        'extends = "remi"\ncontract_exact = false\n[points]\nace = 15\nwild = 15\n',
    )
    rules = load_rules(path)
    assert rules.name == "house"  # the file stem
    assert rules.contract_exact is False
    assert rules.jokers_total == 9
    assert rules.points == Points("face", 10, 10, 15, 15)
    assert ruleset_extends(path) == "remi"
    assert load_rules(str(path)) == rules
    # overrides after the file
    assert load_rules(path, points={"ten": 11}).points.ten == 11
    assert load_rules(path, points={"ten": 11}).points.ace == 15


def test_file_name_key(tmp_path: Path) -> None:
    path = write(tmp_path, "x.toml", 'extends = "london"\nname = "Londonspillet"\n')
    assert load_rules(path).name == "Londonspillet"


def test_a_name_holds_no_control_characters(tmp_path: Path) -> None:
    # (a terminal would act on them: `liverpool rules` prints the name)
    for name in ("red\x1b[31m", "bell\x07", "back\u202eward", "nul\x00"):
        with pytest.raises(RulesError) as info:
            load_rules("liverpool", name=name)
        assert info.value.code == "rules_name_control"
    path = write(tmp_path, "esc.toml", 'extends = "london"\nname = "a\\u001b[2J"\n')
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert "control characters" in str(info.value)
    assert load_rules("liverpool", name="👨\u200d👩\u200d👧 husregler").name.endswith("husregler")


def test_extends_another_file(tmp_path: Path) -> None:
    write(tmp_path, "base.toml", 'extends = "dansk"\n[points]\nace = 25\n')
    sub = tmp_path / "sub"
    sub.mkdir()
    path = write(sub, "mine.toml", 'extends = "../base.toml"\n[points]\nwild = 30\n')
    rules = load_rules(path)
    assert rules.name == "mine"
    assert rules.contracts == DANSK_CONTRACTS
    assert rules.points == Points("face", 10, 10, 25, 30)


def test_file_without_extends_starts_from_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, "plain.toml", "buy_penalty_cards = 2\n")
    rules = load_rules(path)
    assert rules == dataclasses.replace(Rules(), name="plain", buy_penalty_cards=2)
    assert ruleset_extends(path) is None


def test_extends_cycle(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    message = error_of(tmp_path / "a.toml")
    assert "'extends'" in message
    assert "cycle" in message
    write(tmp_path, "self.toml", 'extends = "self.toml"\n')
    assert "cycle" in error_of(tmp_path / "self.toml")


def test_extends_unknown(tmp_path: Path) -> None:
    path = write(tmp_path, "x.toml", 'extends = "londen"\n')
    message = error_of(path)
    assert "'extends'" in message
    assert "'london'" in message
    path = write(tmp_path, "y.toml", 'extends = "missing.toml"\n')
    assert f"{path}: 'extends' names the file " in error_of(path)
    assert "missing.toml', which is not there" in error_of(path)
    path = write(tmp_path, "z.toml", "extends = 3\n")
    assert "'extends' must be a preset name" in error_of(path)


def test_extends_only_in_files() -> None:
    assert "'extends' is only allowed in a ruleset file" in error_of("liverpool", extends="remi")


# ------------------------------------------------------------------ variants of §5
def test_variants_of_the_liverpool_guide() -> None:
    assert load_rules("liverpool", buy_limit_per_round="unlimited").buy_limit is None
    assert load_rules("liverpool").buy_limit == 3
    six = load_rules("liverpool", deal=[10] * 6, contracts=list(LIVERPOOL_CONTRACTS[:6]))
    assert six.num_rounds == 6
    assert six.cards_dealt(6) == 10
    with pytest.raises(RulesError):
        six.contract(7)
    fifteen = load_rules("liverpool", points={"ace": 15, "wild": 15})
    assert fifteen.card_points(Card.parse("AH")) == 15
    assert fifteen.card_points(Card.parse("*")) == 15


def test_variants_of_the_londonspillet_article() -> None:
    jokers = load_rules("london", jokers_per_deck=2, wild_deuce_of_spades=False)
    assert jokers.jokers_for(4) == 4
    assert not jokers.is_wild(Card.parse("2S"))
    assert jokers.is_wild(Card.parse("*"))
    nine = load_rules(
        "london", contracts=[*LIVERPOOL_CONTRACTS, "RRRR", "SSSS"], deal=[10] * 7 + [13, 12]
    )
    assert nine.num_rounds == 9
    assert nine.contract(8).runs == 4
    assert load_rules("london", deal=[12] * 7).cards_dealt(3) == 12
    assert load_rules("london", initial_upcard=True).initial_upcard
    assert load_rules("london", run_wrap="always").run_wrap == "always"
    assert load_rules("london", run_same_suit=False).run_same_suit is False
    both = load_rules("london", forbid_adjacent_same_suit_runs=True, forbid_same_rank_sets=True)
    assert both.forbid_adjacent_same_suit_runs
    assert both.forbid_same_rank_sets


def test_variants_of_the_remi_rules() -> None:
    cut = load_rules("remi", liverpool_cut=True, cut_noise=0)
    assert cut.liverpool_cut
    assert cut.cut_bonus == -50
    assert cut.cut_noise == 0
    assert load_rules("remi", discard_call="shanghai").discard_call == "shanghai"
    deuce = load_rules("remi", jokers_total=0, wild_deuce_of_spades=True)
    assert deuce.jokers_for(4) == 0
    assert deuce.is_wild(Card.parse("2S"))
    twelve = load_rules("remi", deal=[10, 10, 10, 12, 12, 12, 12])
    assert twelve.cards_dealt(4) == 12
    assert load_rules("remi", points={"two_to_nine": 5}).card_points(Card.parse("7D")) == 5
    assert load_rules("remi", contract_exact=False).contract_exact is False
    assert load_rules("remi", forbid_adjacent_same_suit_runs=True).forbid_adjacent_same_suit_runs
    six = load_rules("remi")
    assert six.decks_for(6) == 3
    assert six.decks_for(5) == 2
    assert load_rules("remi", jokers_total="players_minus_one").jokers_for(6) == 5


def test_dansk_literal_same_suit_sets_with_wilds() -> None:
    # the literal dansk rule works once there are wilds
    rules = load_rules("dansk", set_same_suit=True, jokers_per_deck=2)
    assert rules.set_same_suit
    # ... or enough decks
    rules = load_rules("dansk", set_same_suit=True, decks=[[4, 3], [6, 3]])
    assert rules.set_same_suit


# ------------------------------------------------------------------ bad rulesets
def test_unknown_option_suggests() -> None:
    assert error_of("liverpool", buy_limt=2) == (
        "unknown option 'buy_limt' (did you mean 'buy_limit_per_round'?)"
    )
    assert "did you mean 'run_wrap'" in error_of("liverpool", runwrap="never")
    assert error_of("liverpool", zzz=1) == "unknown option 'zzz'"


def test_enum_message() -> None:
    assert error_of("liverpool", run_wrap="sometimes") == (
        '\'run_wrap\' must be one of "never", "three_beside_ace", "always", not "sometimes"'
    )
    assert "'final_round' must be one of" in error_of("dansk", final_round="last")
    assert "'discard_call' must be one of" in error_of("dansk", discard_call=None)


@pytest.mark.parametrize("players", [[1, 5], [3, 9], [6, 4], [3], "3-8", [3.0, 8], [True, 8]])
def test_bad_players(players: object) -> None:
    message = error_of("liverpool", players=players)
    assert message.startswith("'players' must be [min, max] with 2 <= min <= max <= 8")


def test_deal_and_contracts_lengths() -> None:
    assert error_of("liverpool", deal=[10] * 6) == (
        "'deal' has 6 entries but 'contracts' has 7: give one deal size per round"
    )


@pytest.mark.parametrize(
    ("contracts", "fragment"),
    [
        (["SS", "SX"], 'round 2 has "SX"'),
        (["SS", ""], 'round 2 has ""'),
        (["ss"], 'round 1 has "ss"'),
        ([], "'contracts' must not be empty"),
        ("SS SR", "'contracts' must be a list"),
        ([1], "round 1 has 1"),
    ],
)
def test_bad_contracts(contracts: object, fragment: str) -> None:
    message = error_of("liverpool", contracts=contracts)
    assert "'contracts'" in message
    assert fragment in message


@pytest.mark.parametrize("deal", [[10, 0, 10, 10, 12, 12, 12], [10.0] * 7, [True] * 7, 10, []])
def test_bad_deal(deal: object) -> None:
    assert "'deal' must" in error_of("liverpool", deal=deal)


@pytest.mark.parametrize(
    ("decks", "fragment"),
    [
        ([[4, 2], [3, 3]], "up_to_players must increase"),
        ([[4, 2], [6, 3]], "'decks' must cover up to 8 players"),
        ([[8, 0]], "number of decks must be >= 1"),
        ([[8]], "[up_to_players, decks]"),
        ([], "'decks' must not be empty"),
        (4, "'decks' must be a list"),
    ],
)
def test_bad_decks(decks: object, fragment: str) -> None:
    message = error_of("liverpool", decks=decks)
    assert "'decks'" in message
    assert fragment in message


@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("jokers_total", -1, "'jokers_total' must be an int >= 0 or \"players_minus_one\""),
        ("jokers_total", "players", "'jokers_total' must be an int >= 0"),
        ("jokers_per_deck", -1, "'jokers_per_deck' must be an int >= 0"),
        ("jokers_per_deck", True, "'jokers_per_deck' must be an int >= 0, not a bool"),
        ("buy_limit_per_round", -1, "'buy_limit_per_round' must be an int >= 0 or \"unlimited\""),
        ("buy_limit_per_round", True, "'buy_limit_per_round' must be an int >= 0"),
        ("buy_penalty_cards", -1, "'buy_penalty_cards' must be an int >= 0"),
        ("min_naturals_set", -1, "'min_naturals_set' must be an int >= 0"),
        ("min_naturals_run", 1.5, "'min_naturals_run' must be an int >= 0, not a float"),
        ("max_turns_per_round", 0, "'max_turns_per_round' must be an int >= 1"),
        ("cut_noise", -2, "'cut_noise' must be an int >= 0"),
        ("cut_bonus", "50", "'cut_bonus' must be an int"),
        ("buying", 1, "'buying' must be true or false, not an int"),
        ("initial_upcard", "yes", "'initial_upcard' must be true or false"),
        ("name", "", "'name' must be a non-empty string"),
        ("points", 5, "'points' must be a table"),
    ],
)
def test_bad_values(key: str, value: object, fragment: str) -> None:
    assert fragment in error_of("liverpool", **{key: value})


def test_bad_points() -> None:
    assert error_of("liverpool", points={"aces": 15}).startswith(
        "unknown key 'points.aces' (did you mean 'points.ace'?)"
    )
    assert "'points.two_to_nine' must be an int or \"face\"" in error_of(
        "liverpool", points={"two_to_nine": "flat"}
    )
    assert "'points.ace' must be an int" in error_of("liverpool", points={"ace": "face"})
    assert "'points.wild' must be an int" in error_of("liverpool", points={"wild": False})


def test_not_enough_cards() -> None:
    message = error_of("liverpool", deal=[10, 10, 10, 10, 12, 12, 30])
    assert message.startswith("'deal' round 7 needs")
    assert "'decks'" in message
    # 8 players x 13 cards + upcard + 1 = 106 > 104 cards of 2 decks
    message = error_of("dansk", players=[3, 8], decks=[[8, 2]], deal=[13] * 7)
    assert "'deal' round 1 needs 106 cards for 8 players" in message
    # without the upcard one card fewer is needed
    load_rules("london", players=[3, 8], decks=[[8, 2]], deal=[12] * 7, initial_upcard=False)


def test_contract_that_can_never_be_met() -> None:
    # london round 7 is feasible only through buys: accepted ...
    assert load_rules("london").contract(7).code == "RRR"
    # ... and refused without buying
    message = error_of("london", buying=False)
    assert message.startswith("'contracts' round 7")
    assert "can never be met" in message
    # a buy limit counts: one buy gives 2 cards
    load_rules("london", buy_limit_per_round=1)
    assert "can never be met" in error_of("london", buy_limit_per_round=0)
    assert "can never be met" in error_of("liverpool", deal=[4] * 7, buy_limit_per_round=1)
    assert "round 1" in error_of(
        "liverpool", contracts=["SSSS"] + list(LIVERPOOL_CONTRACTS[1:]), deal=[5] * 7, buying=False
    )


def test_same_suit_sets() -> None:
    message = error_of("dansk", set_same_suit=True)
    assert message.startswith("'set_same_suit' makes sets impossible with 3 players")
    # without sets in any contract it does not matter
    load_rules("dansk", set_same_suit=True, contracts=["RR"] * 7)
    # liverpool: 2 identical naturals + a joker
    load_rules("liverpool", set_same_suit=True)
    # with min_naturals_set = 3 two decks are not enough
    assert "'set_same_suit'" in error_of("liverpool", set_same_suit=True, min_naturals_set=3)
    # naturals_at_least_wilds: 1 natural + 2 wilds is not allowed, 2 + 1 is
    load_rules("remi", set_same_suit=True)
    assert "'set_same_suit'" in error_of(
        "london", set_same_suit=True, decks=[[4, 1], [6, 3]], naturals_at_least_wilds=True
    )


def test_same_suit_sets_of_a_round_need_their_wilds() -> None:
    # two decks: each set of one suit needs a wild; dansk's round 3 (SSS) with
    # two jokers in the game can never be met
    message = error_of("dansk", set_same_suit=True, jokers_total=2)
    assert message.startswith("'set_same_suit' makes 'contracts' round 3 (SSS: 3 sets) "
                              "impossible with 3 players")
    assert "need at least 3 wild cards, but there are 2" in message
    load_rules("dansk", set_same_suit=True, jokers_total=4)  # round 7, SSSR: 3 sets, 4 wilds
    assert "round 7" in error_of("dansk", set_same_suit=True, jokers_total=3,
                                 contracts=["SS", "SR", "SR", "SR", "SRR", "RRR", "SSSS"])
    # 2 of spades as the only wild: one per deck, so two in all
    assert "'set_same_suit' makes 'contracts' round" in error_of(
        "remi", set_same_suit=True, jokers_total=0, wild_deuce_of_spades=True)
    # three decks hold three identical cards: no wild needed
    load_rules("dansk", set_same_suit=True, decks=[[6, 3]])


def test_a_game_refuses_a_ruleset_made_in_python_that_loading_refuses() -> None:
    from liverpool import Game

    for options, words in ((dict(buying=1), "'buying' must be true or false"),
                           (dict(run_wrap="sometimes"), "'run_wrap' must be one of"),
                           (dict(deal=(10,)), "'deal' has 1 entries"),
                           (dict(deal=(40,) * 7), "at most 30 cards")):
        with pytest.raises(RulesError) as caught:
            Game(Rules(**options), players=4, seed=1)  # type: ignore[arg-type]
        assert words in str(caught.value)
    Game(Rules(deal=[10] * 7), players=4, seed=1)  # type: ignore[arg-type]  # (a list: fine)


def test_a_final_hand_too_big_for_its_contract() -> None:
    # all at once: 21 cards (20 dealt and the draw) cannot go down as one run (14 at most)
    message = error_of("liverpool", contracts=["R"], deal=[20])
    assert message.startswith("'deal' round 1 is the final round")
    assert "the 21 cards a player lays down there at the fewest" in message
    assert "at most 14 cards" in message
    load_rules("liverpool", contracts=["R"], deal=[13])  # 14: A-2-...-K-A
    # a run that turns the corner holds 13
    assert "at most 13 cards" in error_of("liverpool", contracts=["R"], deal=[13],
                                          run_wrap="always")
    # london, an eighth round of two sets from 20 cards (the discard left out):
    # 8 + 8 natural cards of two ranks and the two 2 of spades make 18
    message = error_of("london", contracts=list(load_rules("london").contracts) + ["SS"],
                       deal=[10] * 7 + [20])
    assert "'deal' round 8" in message
    assert "the 20 cards" in message
    assert "at most 18 cards" in message
    load_rules("london", contracts=list(load_rules("london").contracts) + ["SS"],
               deal=[10] * 7 + [18])
    # a normal last round has no such bound
    load_rules("liverpool", contracts=["R"], deal=[20], final_round="normal")


def test_meld_feasibility() -> None:
    assert "'min_naturals_run' must be at most 4" in error_of("liverpool", min_naturals_run=5)
    assert "'min_naturals_set' must be at most 3" in error_of("liverpool", min_naturals_set=4)
    load_rules("liverpool", min_naturals_run=4, min_naturals_set=3)


def test_unknown_preset_and_missing_file(tmp_path: Path) -> None:
    message = error_of("liverpol")
    assert "unknown preset 'liverpol'" in message
    assert "did you mean 'liverpool'" in message
    assert "liverpool, london, dansk, remi" in message
    assert "not found" in error_of(str(tmp_path / "nope.toml"))
    assert "not found" in error_of(tmp_path / "nope.toml")
    assert "directory" in error_of(tmp_path)
    assert "preset name or a file path" in error_of(3)


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "broken.toml", 'extends = "liverpool"\nbuying = \n')
    message = error_of(path)
    assert "broken.toml" in message
    assert "invalid TOML" in message
    assert "line 2" in message
    # the place in the reader's language, the parser's words after it
    with pytest.raises(RulesError) as caught:
        load_rules(path)
    assert i18n.render(caught.value, "nb").endswith("ugyldig TOML på linje 2, kolonne 10 "
                                                    "(Invalid value)")
    deep = write(tmp_path, "deep.toml", "a = " + "[" * 3000)
    with pytest.raises(RulesError) as caught:
        load_rules(deep)
    assert i18n.render(caught.value, "da").endswith("ugyldig TOML: lister eller tabeller er "
                                                    "indlejret for dybt")


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.toml", 'extends = "liverpool"\nbuy_limt = 2\n')
    message = error_of(path)
    assert "bad.toml" in message
    assert "unknown option 'buy_limt'" in message
    path = write(tmp_path, "bad2.toml", 'extends = "london"\nbuying = false\n')
    message = error_of(path)
    assert "bad2.toml" in message
    assert "can never be met" in message
    path = write(tmp_path, "bad3.toml", 'extends = "london"\npoints = 5\n')
    assert "'points' must be a table" in error_of(path)
    path = write(tmp_path, "bad4.toml", b"\xff\xfe".decode("latin-1"))
    path.write_bytes(b"\xff\xfe\x00")
    assert "UTF-8" in error_of(path)


# ------------------------------------------------------------------ round trips
@pytest.mark.parametrize("preset", PRESETS)
def test_dict_round_trip(preset: str) -> None:
    rules = load_rules(preset)
    assert rules_from_dict(rules.to_dict()) == rules


@pytest.mark.parametrize("preset", PRESETS)
def test_toml_round_trip(preset: str, tmp_path: Path) -> None:
    rules = load_rules(preset, points={"ace": 15}, name=f'my "{preset}"')
    text = rules_to_toml(rules)
    path = write(tmp_path, "out.toml", text)
    assert load_rules(path) == rules
    assert "extends" not in tomllib.loads(text)


def test_rules_from_dict_checks() -> None:
    with pytest.raises(RulesError, match="unknown option 'foo'"):
        rules_from_dict({"foo": 1})
    with pytest.raises(RulesError, match="'deal' has 6 entries"):
        rules_from_dict({"deal": [10] * 6})
    with pytest.raises(RulesError, match="table of options"):
        rules_from_dict([1, 2])  # type: ignore[arg-type]
    assert rules_from_dict({}) == Rules()


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    run_wrap=st.sampled_from(["never", "three_beside_ace", "always"]),
    buy_limit=st.one_of(st.just("unlimited"), st.integers(1, 5)),
    jokers_total=st.one_of(st.none(), st.just("players_minus_one"), st.integers(0, 12)),
    two_to_nine=st.one_of(st.just("face"), st.integers(0, 20)),
    flags=st.fixed_dictionaries(
        {
            name: st.booleans()
            for name in ("run_same_suit", "contract_exact", "lay_off_same_turn", "liverpool_cut")
        }
    ),
)
def test_round_trips_property(
    preset: str,
    run_wrap: str,
    buy_limit: object,
    jokers_total: object,
    two_to_nine: object,
    flags: dict[str, bool],
) -> None:
    rules = load_rules(
        preset,
        run_wrap=run_wrap,
        buy_limit_per_round=buy_limit,
        jokers_total=jokers_total,
        points={"two_to_nine": two_to_nine},
        **flags,
    )
    assert rules_from_dict(rules.to_dict()) == rules
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "r.toml"
        path.write_text(rules_to_toml(rules), encoding="utf-8")
        assert load_rules(path) == rules


@pytest.mark.parametrize("points", [{"ace": -5}, {"wild": -1}, {"two_to_nine": -2}])
def test_negative_card_values_are_refused(points: dict[str, int]) -> None:
    with pytest.raises(RulesError) as e:
        load_rules("remi", points=points)
    assert e.value.code == "rules_int_min"
    assert ">= 0" in str(e.value)


# ------------------------------------------------- the range of every option
BOUNDED: list[tuple[dict[str, object], str]] = [
    # one value just past each end of each range of BOUNDS (docs/rules.md, §6)
    ({"decks": [[8, 20000]]}, "the number of decks must be at most 8, not 20000"),
    ({"decks": [[8, 9]]}, "the number of decks must be at most 8, not 9"),
    ({"decks": [[4, 2], [9, 3]]}, "up_to_players must be from 2 to 8, not 9"),
    ({"decks": [[1, 1], [8, 4]]}, "up_to_players must be from 2 to 8, not 1"),
    ({"jokers_per_deck": 5}, "'jokers_per_deck' must be an int from 0 to 4, not 5"),
    ({"jokers_total": 33}, "'jokers_total' must be an int from 0 to 32 or \"players_minus_one\""),
    ({"contracts": ["SS"] * 21, "deal": [10] * 21},
     "'contracts' has 21 entries: a game has at most 20 rounds"),
    ({"deal": [10] * 21}, "'deal' has 21 entries: a game has at most 20 rounds"),
    ({"contracts": ["SS", "SR", "RR", "SSS", "SSR", "SRR", "SSSSSSS"]},
     "round 7 has 7 melds (\"SSSSSSS\"): a contract has at most 6 melds"),
    ({"deal": [10, 10, 10, 10, 12, 12, 31]}, "round 7 deals 31 cards: at most 30 cards"),
    ({"min_naturals_set": 4}, "'min_naturals_set' must be at most 3"),
    ({"min_naturals_run": 5}, "'min_naturals_run' must be at most 4"),
    ({"buy_limit_per_round": 21}, "'buy_limit_per_round' must be an int from 0 to 20 or"),
    ({"buy_penalty_cards": 6}, "'buy_penalty_cards' must be an int from 0 to 5, not 6"),
    ({"points": {"wild": 1001}}, "'points.wild' must be an int from 0 to 1000, not 1001"),
    ({"points": {"two_to_nine": 1001}}, "'points.two_to_nine' must be an int from 0 to 1000"),
    ({"cut_bonus": 1001}, "'cut_bonus' must be an int from -1000 to 1000, not 1001"),
    ({"cut_bonus": -1001}, "'cut_bonus' must be an int >= -1000, not -1001"),
    ({"cut_noise": 51}, "'cut_noise' must be an int from 0 to 50, not 51"),
    ({"max_turns_per_round": 1001}, "'max_turns_per_round' must be an int from 1 to 1000"),
    ({"name": "x" * 81}, "'name' must be at most 80 characters long, not 81"),
    ({"players": [3, 9]}, "'players' must be [min, max] with 2 <= min <= max <= 8"),
]


@pytest.mark.parametrize(("options", "fragment"), BOUNDED)
def test_each_bound_is_refused(options: dict[str, object], fragment: str) -> None:
    assert fragment in error_of("liverpool", **options)
    with pytest.raises(RulesError) as info:
        rules_from_dict(options)
    assert fragment in str(info.value)


@pytest.mark.parametrize(("options", "fragment"), BOUNDED)
def test_each_bound_is_refused_in_a_file(tmp_path: Path, options: dict[str, object],
                                         fragment: str) -> None:
    lines = ['extends = "liverpool"']
    lines += [f"{k} = {_toml(v)}" for k, v in options.items() if k != "points"]
    points = cast(dict[str, object], options.get("points", {}))
    lines += ["[points]", *(f"{k} = {_toml(v)}" for k, v in points.items())]
    path = write(tmp_path, "big.toml", "\n".join(lines) + "\n")
    message = error_of(path)
    assert message.startswith(str(path))
    assert fragment in message


def _toml(value: object) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return f'"{value}"' if isinstance(value, str) else str(value)


def test_the_ends_of_each_range_load() -> None:
    assert load_rules("liverpool", decks=[[2, 1], [8, 8]]).decks == ((2, 1), (8, 8))
    most = load_rules("liverpool", jokers_per_deck=4, buy_limit_per_round=20,
                      buy_penalty_cards=5, cut_bonus=-1000, cut_noise=50,
                      max_turns_per_round=1000, name="x" * 80,
                      points={"two_to_nine": 1000, "ten": 0, "wild": 1000})
    assert (most.jokers_per_deck, most.buy_penalty_cards, most.points.wild) == (4, 5, 1000)
    long = load_rules("liverpool", contracts=["SSSRRR"] * 20, deal=[30] * 20,
                      players=[2, 6], decks=[[6, 8]], jokers_total=32)
    assert long.num_rounds == 20
    assert long.deck_size(6) == 52 * 8 + 32
    assert load_rules("liverpool", max_turns_per_round=1, cut_bonus=1000).cut_bonus == 1000


def test_a_rules_value_made_in_python_is_checked_too() -> None:
    from liverpool.ruleset_io import validate_rules

    with pytest.raises(RulesError, match="at most 8, not 20000"):
        validate_rules(Rules(decks=((8, 20000),)))
    with pytest.raises(RulesError, match="'cut_noise' must be an int from 0 to 50"):
        validate_rules(dataclasses.replace(load_rules("remi"), cut_noise=10**9))
    assert validate_rules(load_rules("dansk")) == load_rules("dansk")


@pytest.mark.parametrize(
    "value",
    [
        [[[[1]]]],  # lists in lists in lists
        [10] * 65,  # more values than any option holds
        "x" * 201,  # a string longer than any option
        [[8, 2]] * 40,  # 120 values
        {"ace": {"deep": [1]}},
    ],
)
def test_values_too_large_for_any_option_are_refused_before_they_are_read(value: object) -> None:
    for key in ("deal", "name", "points", "decks"):
        message = error_of("liverpool", **{key: value})
        assert message.startswith(f"'{key}' is too large"), message
        assert len(message) < 200


def test_messages_show_long_values_and_keys_cut_short(tmp_path: Path) -> None:
    message = error_of("liverpool", run_wrap="s" * 150)
    assert len(message) < 160
    assert "…" in message
    message = error_of("liverpool", **{"k" * 100_000: 1})
    assert message.startswith("unknown option 'kkk")
    assert len(message) < 100
    deep: list[object] = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(RulesError, match="a ruleset is a preset name or a file path"):
        load_rules(deep)  # type: ignore[arg-type]


def test_ruleset_files_are_bounded(tmp_path: Path) -> None:
    path = write(tmp_path, "huge.toml", "# " + "x" * (64 * 1024) + "\n")
    assert "a ruleset file must be at most 65536 bytes" in error_of(path)
    path = write(tmp_path, "deep.toml", "deal = " + "[" * 20_000 + "]" * 20_000 + "\n")
    message = error_of(path)
    assert "invalid TOML" in message or "too large" in message


def test_the_presets_and_every_toml_example_load_within_the_bounds(tmp_path: Path) -> None:
    import re

    from liverpool.ruleset_io import validate_rules

    for preset in PRESETS:
        assert validate_rules(load_rules(preset)) == load_rules(preset)
    root = Path(__file__).resolve().parent.parent
    blocks = [block for doc in (*sorted((root / "docs").glob("*.md")), root / "README.md")
              for block in re.findall(r"```toml\n(.*?)```", doc.read_text(encoding="utf-8"),
                                      re.S)]
    assert len(blocks) >= 2
    for i, block in enumerate(blocks):
        load_rules(write(tmp_path, f"example{i}.toml", block))


def test_the_table_of_ranges_in_the_docs_is_bounds() -> None:
    import re

    from liverpool.ruleset_io import BOUNDS

    doc = (Path(__file__).resolve().parent.parent / "docs" / "rules.md").read_text(
        encoding="utf-8")
    section = doc.split("### The range of every option", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([a-z_.]+)` \| (-?\d+) to (-?\d+) \|", section, re.M)
    assert {key: (int(lo), int(hi)) for key, lo, hi in rows} == BOUNDS
    assert len(rows) == len(BOUNDS)
