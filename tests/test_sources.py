"""An audit of the engine against the four source texts and docs/rules.md.

Every concrete statement of the four sources (docs/rules.md, "The sources": the
Liverpool guide, the Londonspillet article, the Danish family rules and the
Remi rules, behind the presets liverpool, london, dansk and remi) and of
docs/rules.md gets a test here,
through the public API only: ``parse_cards``, ``format_cards``,
``load_rules``, ``classify_meld``, ``can_lay_off``, ``find_contract``,
``hand_points`` and the ``Game`` (positions are built through the public JSON
state, ``Game.to_json`` / ``Game.from_json``).

The quotes in the comments are from the sources (Norwegian / Danish), marked
with the preset of their source (``remi:`` a quote from the Remi rules), with
the section of docs/rules.md they became.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from positions import build as engine_build

from liverpool import (
    ActionError,
    Buy,
    Call,
    Card,
    CardError,
    Cut,
    Discard,
    Draw,
    Game,
    LayDown,
    LayOff,
    Meld,
    MeldError,
    Pass,
    Rules,
    RulesError,
    SwapJoker,
    arrange_meld,
    can_lay_off,
    check_lay_down,
    classify_meld,
    find_contract,
    format_cards,
    hand_points,
    load_rules,
    parse_cards,
    replay,
)
from liverpool.events import DeckCut, RoundAbandoned

PRESETS = ("liverpool", "london", "dansk", "remi")

LIVERPOOL = load_rules("liverpool")
LONDON = load_rules("london")
DANSK = load_rules("dansk")
REMI = load_rules("remi")


# ------------------------------------------------------------------ helpers


def c1(text: str) -> Card:
    (card,) = parse_cards(text)
    return card


def kind(text: str, rules: Rules) -> str | None:
    return classify_meld(parse_cards(text), rules)


def fits(meld: str, card: str, rules: Rules) -> bool:
    return can_lay_off(parse_cards(meld), c1(card), rules)


def contract_text(found: list[list[Card]] | None) -> list[str] | None:
    if found is None:
        return None
    return sorted(format_cards(sorted(m, key=lambda c: (c.rank == 0, c.suit, c.rank)))
                  for m in found)


def used_cards(found: list[list[Card]]) -> list[Card]:
    return sorted(c for m in found for c in m)


def table_meld(text: str, rules: Rules) -> Meld:
    """The meld written as it lies on the table (runs low to high, wilds in place)."""
    cards = tuple(parse_cards(text))
    options = arrange_meld(cards, rules, lay_down=False)
    for m in options:
        if m.kind == "set" or m.cards == cards:
            return m
    raise AssertionError(f"{text} is not a table meld under {rules.name}")


def build(rules: Rules | str, *, hands: Sequence[str], **position: Any) -> Game:
    """A game in a chosen position (through the public JSON state), one seat per hand.

    ``stock`` is written top first, ``discards`` bottom first (last = top).
    """
    if isinstance(rules, str):
        rules = load_rules(rules)
    return engine_build(players=len(hands), hands=hands, rules=rules, seed=3, **position)


def held(game: Game, seat: int) -> list[str]:
    return sorted(str(c) for c in game.hand(seat))


def refused(game: Game, action: Any) -> None:
    before = game.state_key()
    with pytest.raises(ActionError):
        game.apply(action)
    assert game.state_key() == before


def draw(game: Game) -> None:
    """The turn player draws from the stock; nobody buys the discard."""
    game.apply(Draw("stock"))
    while game.phase == "buy":
        game.apply(Pass())


def until_turn(game: Game, seat: int) -> None:
    """Play the other seats' turns (draw from the stock, discard the first card, no
    buys, no calls) until ``seat`` is to draw."""
    while not (game.turn_player == seat and game.phase == "draw"):
        legal = game.legal_actions()
        if Pass() in legal:
            game.apply(Pass())
        elif Draw("stock") in legal:
            game.apply(Draw("stock"))
        else:
            game.apply(next(a for a in legal if isinstance(a, Discard)))


def lay(game: Game, *melds: str) -> LayDown:
    return LayDown(tuple(table_meld(m, game.rules) for m in melds))


# ======================================================== §1 notation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9H", "9H"), ("TD", "TD"), ("AS", "AS"), ("*", "*"),
        ("10D", "TD"), ("10♦", "TD"), ("JK", "*"), ("jk", "*"),
        ("A♠", "AS"), ("K♥", "KH"), ("Q♦", "QD"), ("J♣", "JC"),
        ("♦️Q", "QD"), ("♥️Q", "QH"), ("♠️Q", "QS"), ("♣️10", "TC"),  # remi's notation
        ("2S", "2S"), ("KC", "KC"),
    ],
)
def test_notation_reads_every_accepted_spelling(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text)) == expected


def test_notation_lists_are_space_separated_and_round_trip() -> None:
    cards = parse_cards("9H TD AS * 10C JK")
    assert format_cards(cards) == "9H TD AS * TC *"
    assert parse_cards(format_cards(cards)) == cards
    assert format_cards(parse_cards("AS TH KD 5C"), symbols=True) == "A♠ T♥ K♦ 5♣"
    assert len(parse_cards("")) == 0


@pytest.mark.parametrize("bad", ["9X", "1H", "11H", "ZZ", "H", "10", "AA"])
def test_notation_refuses_what_is_not_a_card(bad: str) -> None:
    with pytest.raises(CardError):
        parse_cards(bad)


def test_every_rank_and_suit_of_the_notation() -> None:
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    for s in "SHDC":
        cards = parse_cards(" ".join(r + s for r in ranks))
        assert [c.rank for c in cards] == list(range(1, 14))
        assert len({c.suit for c in cards}) == 1
    assert [c1(f"A{s}").suit for s in "SHDC"] == [0, 1, 2, 3]
    assert c1("*").rank == 0


# ============================================ §1 several decks, equal cards


def test_equal_cards_from_different_decks_are_equal() -> None:
    a, b = parse_cards("9H 9H")
    assert a == b
    # remi: "to helt like kort godt ligge i samme tress"
    assert kind("9H 9H 9S", REMI) == "set"
    assert kind("QD QD QD", LIVERPOOL) == "set"
    # but they are distinct physical cards in a hand
    game = build("liverpool", hands=["9H 9H 4C", "4D", "5D"], stock="KS KH", discards="2C")
    assert held(game, 0) == ["4C", "9H", "9H"]


@pytest.mark.parametrize(
    ("preset", "players", "size"),
    [
        # liverpool: two decks with jokers for 3-4, "three or more" for 5 and up
        ("liverpool", 3, 108), ("liverpool", 4, 108), ("liverpool", 5, 162),
        ("liverpool", 6, 162), ("liverpool", 7, 216), ("liverpool", 8, 216),
        # london: two decks without jokers for 3-4, one more deck per 2 players
        ("london", 3, 104), ("london", 4, 104), ("london", 5, 156), ("london", 6, 156),
        ("dansk", 3, 104), ("dansk", 4, 104), ("dansk", 6, 156),
        # remi: 104 + 9 jokers = 113; six players add a deck
        ("remi", 3, 113), ("remi", 4, 113), ("remi", 5, 113), ("remi", 6, 165),
    ],
)
def test_several_decks_by_player_count(preset: str, players: int, size: int) -> None:
    game = Game(load_rules(preset), players=players, seed=1)
    assert sum(game.card_counts().values()) == size
    assert load_rules(preset).deck_size(players) == size


def test_game_deck_holds_each_card_once_per_deck_plus_jokers() -> None:
    game = Game(LIVERPOOL, players=4, seed=9)
    data = game.to_json()["state"]
    every = [c for h in data["hands"] for c in h] + data["stock"] + data["discards"]
    assert every.count("*") == 4
    assert every.count("9H") == 2
    assert every.count("AS") == 2
    game = Game(REMI, players=4, seed=9)
    data = game.to_json()["state"]
    every = [c for h in data["hands"] for c in h] + data["stock"] + data["discards"]
    assert every.count("*") == 9
    assert len(every) == 113


# ============================================================ §1 wild cards


def test_wild_is_a_joker_or_where_the_rules_say_so_every_deuce_of_spades() -> None:
    assert LIVERPOOL.is_wild(c1("*"))
    assert not LIVERPOOL.is_wild(c1("2S"))
    assert LONDON.is_wild(c1("2S"))
    assert not LONDON.is_wild(c1("2H"))
    assert not LONDON.is_wild(c1("AS"))
    assert not LONDON.is_wild(c1("3S"))
    assert not DANSK.is_wild(c1("2S"))
    assert not REMI.is_wild(c1("2S"))


def test_london_deuce_of_spades_is_wild_anywhere_regardless_of_suit() -> None:
    # "2♠ brukes som wildcard/joker og kan brukes hvor som helst uavhengig av farge"
    assert kind("9H 9D 2S", LONDON) == "set"
    assert kind("5H 2S 7H 8H", LONDON) == "run"
    assert kind("5D 6D 7D 2S", LONDON) == "run"
    assert kind("KC QC JC 2S", LONDON) == "run"
    assert kind("9H 9D 2S", LIVERPOOL) is None  # not wild in liverpool
    assert fits("9H 9D 9C", "2S", LONDON)
    assert fits("5H 6H 7H 8H", "2S", LONDON)
    assert not fits("9H 9D 9C", "2S", LIVERPOOL)


def test_deuce_of_spades_in_its_own_place_counts_as_natural() -> None:
    wild2 = load_rules("liverpool", wild_deuce_of_spades=True)
    # a set keeps two natural cards: 2S as a two is natural
    assert kind("2S 2H *", wild2) == "set"
    assert kind("5H 5D 2S", wild2) == "set"
    assert kind("5H 2S *", wild2) is None  # 2S wild here: only one natural
    # a run keeps three natural cards; 2S in its own place is one of them
    assert kind("AS 2S * 4S", wild2) == "run"
    assert kind("AH 2S * 4H", wild2) is None  # 2S wild in hearts: two naturals
    # remi: never more wilds than naturals
    remi2 = load_rules("remi", wild_deuce_of_spades=True, jokers_total=0)
    assert kind("2S 3S 4S 5S", remi2) == "run"
    assert kind("2S 2S 2S", remi2) == "set"
    assert kind("2S 2S 4H", remi2) is None
    assert kind("AS 2S 2S 2S", remi2) == "run"  # AS, 2S natural; two wild 2S
    assert kind("AS 2S 2S 2S 2S", remi2) is None  # two naturals, three wilds
    # a deuce of spades in its own place lets the 4 naturals rule pass in london
    assert kind("AS 2S 3S 4S", LONDON) == "run"
    assert kind("2S 2S 2S", LONDON) == "set"


# =================================================================== §1 sets


def test_sets_three_or_more_of_a_rank_suits_do_not_matter() -> None:
    for rules in (LIVERPOOL, LONDON, DANSK, REMI):
        assert kind("8S 8H 8D", rules) == "set"  # "tre åttere"
        assert kind("8S 8H 8D 8C 8C", rules) == "set"
        assert kind("8S 8S 8S", rules) == "set"  # suits may repeat
        assert kind("8S 8H", rules) is None
        assert kind("8S 8H 9D", rules) is None
    assert kind("QD QH QS", REMI) == "set"  # remi's example ♦️Q ♥️Q ♠️Q


def test_set_same_suit_option_dansk_literal_reading() -> None:
    # dansk: "3 kort af samme kulør og samme værdi" -> set_same_suit = true
    same = load_rules("liverpool", set_same_suit=True)
    assert kind("5H 5H 5H", same) == "set"
    assert kind("5H 5H *", same) == "set"
    assert kind("5H 5S 5H", same) is None
    assert fits("5H 5H 5H", "5H", same)
    assert not fits("5H 5H 5H", "5S", same)
    assert not DANSK.set_same_suit
    assert kind("5H 5S 5D", DANSK) == "set"


# =================================================================== §1 runs


def test_runs_four_or_more_in_sequence_in_one_suit() -> None:
    for rules in (LIVERPOOL, LONDON, DANSK, REMI):
        assert kind("5H 6H 7H 8H", rules) == "run"  # "hjerter 5, 6, 7 og 8"
        assert kind("8H 5H 7H 6H", rules) == "run"  # any order
        assert kind("5H 6H 7H", rules) is None  # four cards, not three
        assert kind("5H 6H 7H 8S", rules) is None  # same suit
        assert kind("5H 6H 7H 9H", rules) is None  # consecutive
        assert kind("5H 6H 7H 7H 8H", rules) is None
    assert kind("7S 8S 9S TS", REMI) == "run"  # ♠️7 ♠️8 ♠️9 ♠️10
    assert kind("7S 8S 9S 10S", REMI) == "run"


def test_runs_of_mixed_suits_option() -> None:
    mixed = load_rules("london", run_same_suit=False)
    assert kind("5H 6S 7D 8C", mixed) == "run"
    assert kind("5H 6S 7D 9C", mixed) is None
    assert fits("5H 6S 7D 8C", "9D", mixed)
    assert not fits("5H 6H 7H 8H", "9D", LONDON)


@pytest.mark.parametrize("rules", [LIVERPOOL, DANSK, REMI, LONDON])
def test_ace_low_and_high(rules: Rules) -> None:
    assert kind("AC 2C 3C 4C", rules) == "run"  # ♣️A ♣️2 ♣️3 ♣️4
    assert kind("JH QH KH AH", rules) == "run"  # ♥️J ♥️Q ♥️K ♥️A
    assert kind("AD 2D 3D 4D 5D", rules) == "run"  # "es 2-3-4-5"
    assert kind("TD JD QD KD AD", rules) == "run"  # "10, knægt, dame, konge, es"


@pytest.mark.parametrize("rules", [LIVERPOOL, DANSK, REMI])
def test_never_wrap(rules: Rules) -> None:
    assert rules.run_wrap == "never"
    assert kind("QH KH AH 2H", rules) is None  # "dame-konge-ess-2 er ingen gyldig sekvens"
    assert kind("KD AD 2D 3D", rules) is None  # ♦️K ♦️A ♦️2 ♦️3 "ikke lov"; "IKKE konge, es, 2, 3"
    assert kind("KS AS 2S 3S 4S", rules) is None
    assert not fits("AH 2H 3H 4H", "KH", rules)
    assert not fits("JH QH KH AH", "2H", rules)
    assert fits("2H 3H 4H 5H", "AH", rules)
    assert fits("TH JH QH KH", "AH", rules)


def test_fourteen_card_run_without_wrapping() -> None:
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    for rules in (LIVERPOOL, DANSK, REMI):
        assert kind(full, rules) == "run"
        assert fits(full[3:], "AH", rules)  # 2..K..A takes the low ace
        assert fits(full[:-3], "AH", rules)  # A..K takes the high ace
        assert not fits(full, "2H", rules)  # nothing beyond 14 cards
    assert kind(full + " 2H", LIVERPOOL) is None


def test_wrap_always() -> None:
    always = load_rules("liverpool", run_wrap="always")
    assert kind("KH AH 2H 3H", always) == "run"
    assert kind("QH KH AH 2H", always) == "run"
    assert kind("JH QH KH AH 2H 3H", always) == "run"
    assert kind("KH AH 2H", always) is None  # still four cards
    assert fits("AH 2H 3H 4H", "KH", always)
    assert fits("JH QH KH AH", "2H", always)
    # "a wrapping run holds each rank at most once"
    thirteen = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    assert kind(thirteen, always) == "run"
    assert not fits(thirteen, "AH", always)
    london_always = load_rules("london", run_wrap="always")  # "ikke krav til 3 kort ..."
    assert kind("KH AH 2H 3H", london_always) == "run"
    assert kind("QH KH AH 2H 3H", london_always) == "run"


def test_three_beside_ace_london() -> None:
    # "En straight må ha 3 kort på en side av esset for å kunne legges ned
    # (J♥-D♥-K♥-A♥ eller A♥-2♥-3♥-4♥), men kan bygges videre på både opp og ned
    # (f.eks. K♥-A♥-2♥-3♥-4♥)"
    assert LONDON.run_wrap == "three_beside_ace"
    assert kind("JH QH KH AH", LONDON) == "run"
    assert kind("AH 2H 3H 4H", LONDON) == "run"
    assert kind("JH QH KH AH 2H", LONDON) == "run"
    assert kind("KH AH 2H 3H", LONDON) is None
    assert kind("QH KH AH 2H 3H", LONDON) is None
    assert kind("QH KH AH 2H", LONDON) is None
    assert kind("5H 6H 7H 8H", LONDON) == "run"  # no ace: nothing to check
    assert kind("KH AH 2H 3H 4H", LONDON) == "run"  # three on the high side
    assert kind("QH KH * 2H 3H", LONDON) is None  # a wild standing for the ace is the ace
    assert kind("* 2H 3H 4H", LONDON) == "run"
    # laying off extends freely: A-2-3-4 becomes K-A-2-3-4 (and more)
    assert fits("AH 2H 3H 4H", "KH", LONDON)
    assert fits("KH AH 2H 3H 4H", "QH", LONDON)
    assert fits("JH QH KH AH", "2H", LONDON)
    assert fits("JH QH KH AH 2H", "3H", LONDON)
    assert fits("QH KH AH 2H", "3H", LONDON)  # a table run that grew through the ace


def test_three_beside_ace_in_a_lay_down() -> None:
    # round 3 of london is two runs
    hand = parse_cards("KH AH 2H 3H 5C 6C 7C 8C 9D 9S 4D")
    assert find_contract(hand, LONDON, 3) is None
    hand = parse_cards("AH 2H 3H 4H 5C 6C 7C 8C 9D 9S 4D")
    found = find_contract(hand, LONDON, 3)
    assert contract_text(found) == ["5C 6C 7C 8C", "AH 2H 3H 4H"]
    game = build("london", hands=["KH AH 2H 3H 4H 5C 6C 7C 8C 9D", "4S", "4C"], round=3,
                 turn_player=0, phase="play")
    refused(game, lay(game, "KH AH 2H 3H", "5C 6C 7C 8C"))
    assert game.check_lay_down([table_meld("AH 2H 3H 4H", LONDON),
                                table_meld("5C 6C 7C 8C", LONDON)]) is None


# =========================================================== §1 wilds in melds


def test_wild_at_either_end_is_the_players_choice() -> None:
    # "5H 6H 7H *": is the joker 4H or 8H?
    options = arrange_meld(parse_cards("5H 6H 7H *"), LIVERPOOL, "run")
    assert sorted(str(m) for m in options) == ["* 5H 6H 7H", "5H 6H 7H *"]
    low = table_meld("* 5H 6H 7H", LIVERPOOL)
    high = table_meld("5H 6H 7H *", LIVERPOOL)
    assert low.stands_for(0) == c1("4H")
    assert high.stands_for(3) == c1("8H")
    # the joker stands for one definite card: 4H on the low one, so 8H fits high only
    assert fits("* 5H 6H 7H", "8H", LIVERPOOL)
    assert fits("* 5H 6H 7H", "3H", LIVERPOOL)
    assert not fits("5H 6H 7H *", "8H", LIVERPOOL)
    assert fits("5H 6H 7H *", "9H", LIVERPOOL)
    assert fits("5H 6H 7H *", "4H", LIVERPOOL)


def test_can_lay_off_on_a_run_that_could_also_be_read_as_a_set() -> None:
    # london with three decks (5-6 players) holds three 2S: 4H 2S 2S 2S is the run 4H-7H
    assert fits("4H 2S 2S 2S", "8H", LONDON)
    assert fits("2S 2S 2S 4H", "5H", LONDON)  # A-4 of hearts
    jokers = load_rules("london", jokers_per_deck=2)
    assert fits("4H * * *", "8H", jokers)
    assert fits("* * * 4H", "5H", jokers)


def test_wild_in_a_set_stands_for_that_rank() -> None:
    meld = table_meld("QD QH *", LIVERPOOL)
    assert meld.kind == "set"
    assert meld.rank == 12
    assert fits("QD QH *", "QS", LIVERPOOL)
    assert not fits("QD QH *", "KS", LIVERPOOL)


def test_a_meld_of_wilds_only_is_not_a_meld() -> None:
    # engine interpretation (1)
    assert kind("* * *", LIVERPOOL) is None
    assert kind("* * * *", load_rules("london", jokers_per_deck=2)) is None


def test_classify_meld_set_or_run_is_a_set() -> None:
    # engine interpretation (8): cards that could be either are a set
    assert kind("5H 2S 2S 2S", LONDON) == "set"
    assert kind("5H * * *", load_rules("london", jokers_per_deck=2)) == "set"
    assert kind("7H 8H * *", REMI) == "run"  # cannot be a set
    assert kind("7H 7H * *", REMI) == "set"  # cannot be a run


def test_classify_meld_ignores_contract_exact() -> None:
    assert REMI.contract_exact
    assert kind("5H 6H 7H 8H 9H", REMI) == "run"
    assert kind("QD QH QS QC", REMI) == "set"


# ================================================================ §3.3 wild limits


def test_liverpool_wild_limits() -> None:
    # "Et sett må inneholde minst to ekte kort."
    assert kind("QD QH *", LIVERPOOL) == "set"
    assert kind("QD * *", LIVERPOOL) is None
    assert kind("QD QH * *", LIVERPOOL) == "set"
    assert kind("QD QH * * *", LIVERPOOL) == "set"
    # "En sekvens må inneholde minst tre ekte kort."
    assert kind("7H 8H * TH", LIVERPOOL) == "run"
    assert kind("7H * 9H *", LIVERPOOL) is None
    assert kind("5H 6H * 8H * TH", LIVERPOOL) == "run"
    # "To jokere kan ikke ligge ved siden av hverandre i en sekvens."
    assert kind("7H 8H 9H * * QH", LIVERPOOL) is None
    assert kind("7H 8H * * JH", LIVERPOOL) is None
    assert kind("7H 8H 9H * *", LIVERPOOL) == "run"  # * 7H 8H 9H *: the wilds apart
    assert kind("7H 8H 9H * * *", LIVERPOOL) is None  # three wilds: two always touch
    assert kind("7H * 9H * JH", LIVERPOOL) == "run"
    # checked when a meld grows too
    assert fits("QD QH *", "*", LIVERPOOL)  # two naturals are kept
    assert not fits("QD * *", "QS", LIVERPOOL) if kind("QD * *", LIVERPOOL) else True
    assert fits("5H 6H 7H *", "*", LIVERPOOL)  # the new wild goes on the low end, apart
    assert not fits("* 5H 6H 7H *", "*", LIVERPOOL)
    assert fits("5H 6H 7H 8H", "*", LIVERPOOL)


def test_liverpool_wild_limits_on_lay_off_of_a_wild() -> None:
    # a run of 3 naturals and a joker; another joker would sit beside it at one
    # end but not the other
    assert fits("* 5H 6H 7H", "*", LIVERPOOL)  # high end: * 5H 6H 7H *
    assert not fits("* 5H 6H 7H *", "*", LIVERPOOL)  # both ends touch a wild
    assert fits("* 5H 6H 7H 8H *", "9H", LIVERPOOL) is False  # the high * is 9H
    assert fits("* 5H 6H 7H 8H *", "TH", LIVERPOOL)


def test_remi_naturals_at_least_wilds() -> None:
    # "så en tress på tre kort tåler én joker, og en straight på fire tåler to"
    assert kind("QD QH *", REMI) == "set"
    assert kind("QD * *", REMI) is None
    assert kind("5H * * 8H", REMI) == "run"
    assert kind("5H * 7H *", REMI) == "run"
    assert kind("5H * * *", REMI) is None
    assert kind("* * 7H 8H", REMI) == "run"  # wilds may touch in remi
    assert kind("QD QH * *", REMI) == "set"
    assert kind("QD QH * * *", REMI) is None
    assert fits("QD QH *", "*", REMI)
    assert not fits("QD QH * *", "*", REMI)
    assert fits("QD QH * *", "QS", REMI)
    assert not fits("5H * * 8H", "*", REMI)
    assert fits("5H 6H 7H *", "*", REMI)


@pytest.mark.parametrize("rules", [LONDON, DANSK])
def test_no_wild_limits_in_london_and_dansk(rules: Rules) -> None:
    wild = load_rules(rules.name, jokers_per_deck=2)
    assert kind("QD * *", wild) == "set"
    assert kind("5H * * *", wild) == "set"  # could be a run too: a set
    assert kind("5H 6H * * *", wild) == "run"
    assert kind("5H * * * * * *", wild) == "set"


def test_london_deuces_without_limits() -> None:
    assert kind("9D 2S 2S", LONDON) == "set"
    assert kind("9D 2S 2S 2S 2S", LONDON) == "set"
    assert kind("5H 2S 2S 8H", LONDON) == "run"


# ================================================================ §2 contracts


@pytest.mark.parametrize("preset", ["liverpool", "london", "remi"])
def test_contract_table_liverpool_london_remi(preset: str) -> None:
    rules = load_rules(preset)
    table = [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
    assert rules.num_rounds == 7
    assert [(rules.contract(r).sets, rules.contract(r).runs) for r in range(1, 8)] == table


def test_contract_table_dansk() -> None:
    table = [(2, 0), (1, 1), (3, 0), (2, 1), (1, 2), (0, 3), (3, 1)]
    assert DANSK.num_rounds == 7
    assert [(DANSK.contract(r).sets, DANSK.contract(r).runs) for r in range(1, 8)] == table


def test_contract_of_a_round_outside_the_game_is_refused() -> None:
    with pytest.raises(RulesError):
        LIVERPOOL.contract(0)
    with pytest.raises(RulesError):
        LIVERPOOL.contract(8)
    with pytest.raises(RulesError):
        LIVERPOOL.cards_dealt(8)


def test_contract_cards_grow_by_one_each_round_liverpool() -> None:
    # "Antall kort du må legge ned øker altså med ett for hver runde."
    mins = [3 * LIVERPOOL.contract(r).sets + 4 * LIVERPOOL.contract(r).runs for r in range(1, 8)]
    assert mins == [6, 7, 8, 9, 10, 11, 12]


def test_contracts_are_data_any_number_of_rounds() -> None:
    # "Noen spiller flere omganger enn 7" / "Sammensetning av omgangene varierer"
    rules = load_rules("london", contracts=["SS", "SR", "RR", "SSS", "SSR", "SRR", "RRR", "SSSS"],
                       deal=[10] * 7 + [12])
    assert rules.num_rounds == 8
    assert (rules.contract(8).sets, rules.contract(8).runs) == (4, 0)
    assert rules.cards_dealt(8) == 12
    game = Game(rules, players=3, seed=1)
    assert game.round == 1
    rules = load_rules("london", contracts=["RS", "RR"], deal=[10, 10])
    assert rules.num_rounds == 2
    assert rules.contract(1).sets == 1
    assert rules.contract(1).runs == 1


# ================================================================ deal tables


@pytest.mark.parametrize(
    ("preset", "deal"),
    [
        ("liverpool", [10, 10, 10, 10, 12, 12, 12]),
        ("london", [10] * 7),
        ("dansk", [10, 10, 10, 10, 11, 12, 13]),
        ("remi", [10] * 6 + [11]),
    ],
)
def test_deal_tables(preset: str, deal: list[int]) -> None:
    rules = load_rules(preset)
    assert [rules.cards_dealt(r) for r in range(1, 8)] == deal


def test_cards_are_dealt_one_at_a_time_clockwise_from_the_left_of_the_dealer() -> None:
    rules = load_rules("liverpool", initial_upcard=False)
    game = Game(rules, players=3, seed=5)
    # dealing one at a time from the left of the dealer takes the stock in turn
    fresh = Game(rules, players=3, seed=5).to_json()["state"]
    assert all(len(h) == 10 for h in fresh["hands"])
    assert game.dealer == 2
    assert game.turn_player == 0


# ========================================================== §3.1 a round starts


@pytest.mark.parametrize("preset", PRESETS)
def test_dealer_rotates_and_the_player_left_of_the_dealer_starts(preset: str) -> None:
    rules = load_rules(preset, max_turns_per_round=1)
    game = Game(rules, players=4, seed=2)
    seen = []
    while not game.is_over:
        if game.round not in seen:
            seen.append(game.round)
            assert game.dealer == (game.round - 2) % 4
            assert game.turn_player == (game.dealer + 1) % 4
            assert [len(game.hand(s)) for s in range(4)] == [rules.cards_dealt(game.round)] * 4
            assert len(game.discards) == (1 if rules.initial_upcard else 0)
        legal = game.legal_actions()
        game.apply(Pass() if Pass() in legal else Draw("stock") if Draw("stock") in legal
                   else legal[-1])
    assert seen == list(range(1, 8))


def test_seat_zero_starts_round_one() -> None:
    for preset in PRESETS:
        game = Game(load_rules(preset), players=3, seed=4)
        assert game.round == 1
        assert game.turn_player == 0


def test_initial_upcard() -> None:
    # remi / liverpool / dansk: "Det øverste kortet snus"; london: no upcard
    for preset, up in (("liverpool", 1), ("london", 0), ("dansk", 1), ("remi", 1)):
        game = Game(load_rules(preset), players=3, seed=1)
        assert len(game.discards) == up
    game = Game(load_rules("london"), players=3, seed=1)
    assert game.legal_actions() == [Draw("stock")]
    # london variant: "Noen begynner med ett kort i bordet for første spiller"
    game = Game(load_rules("london", initial_upcard=True), players=3, seed=1)
    assert Draw("discard") in game.legal_actions()


# ================================================================ §3.2 a turn


def test_a_turn_draw_then_discard() -> None:
    # "Først trekker du ett kort ... Til slutt kaster du ett kort på kastehaugen."
    game = build("liverpool", hands=["9H 4C", "4D 5D", "5S 6S"], stock="KS KH", discards="2C")
    assert {a.type for a in game.legal_actions()} == {"draw"}
    refused(game, Discard(c1("9H")))
    draw(game)
    assert held(game, 0) == ["4C", "9H", "KS"]
    refused(game, Draw("stock"))
    game.apply(Discard(c1("9H")))
    assert game.discards[-1] == c1("9H")
    assert game.turn_player == 1
    game.apply(Draw("discard"))  # the top discard
    assert held(game, 1) == ["4D", "5D", "9H"]


# =================================================================== §3.2 buying


def test_liverpool_buying_turn_player_first_then_others_in_order() -> None:
    # "Spilleren som har tur har alltid førsteretten."
    game = build("liverpool", hands=["9H", "4C", "4D", "5D"], stock="AS 2S 3S 4S",
                 discards="KC QD")
    assert game.phase == "draw"
    assert game.to_move == 0
    assert Draw("discard") in game.legal_actions()
    game.apply(Draw("stock"))  # declines the discard
    assert game.phase == "buy"
    assert game.to_move == 1
    assert game.legal_actions() == [Buy(), Pass()]
    game.apply(Pass())
    assert game.to_move == 2
    game.apply(Buy())
    # the buyer takes QD plus one card from the stock, and does nothing else
    assert held(game, 2) == ["4D", "AS", "QD"]
    assert held(game, 0) == ["2S", "9H"]  # then the turn player draws from the stock
    assert game.phase == "play"
    assert game.to_move == 0
    assert game.discards == [c1("KC")]  # rebuy none: KC is not offered
    assert game.buys == [0, 0, 1, 0]


def test_taking_the_discard_is_the_turn_players_draw() -> None:
    game = build("liverpool", hands=["9H", "4C", "4D"], stock="AS", discards="KC QD")
    game.apply(Draw("discard"))
    assert held(game, 0) == ["9H", "QD"]
    assert game.phase == "play"
    assert all(h == 1 for h in (len(game.hand(1)), len(game.hand(2))))


def test_nobody_buys_then_the_turn_player_draws_the_stock() -> None:
    game = build("liverpool", hands=["9H", "4C", "4D"], stock="AS 2S", discards="QD")
    game.apply(Draw("stock"))
    game.apply(Pass())
    game.apply(Pass())
    assert held(game, 0) == ["9H", "AS"]
    assert game.discards == [c1("QD")]


def test_buy_limit_three_per_player_per_round_liverpool() -> None:
    # "Mange spiller med en grense på tre kjøp per runde."
    game = build("liverpool", hands=["9H", "4C", "4D"], stock="AS 2S 3S", discards="QD",
                 buys=[0, 3, 2])
    game.apply(Draw("stock"))
    assert game.to_move == 2  # seat 1 has used its three buys
    game.apply(Buy())
    assert game.buys == [0, 3, 3]
    unlimited = load_rules("liverpool", buy_limit_per_round="unlimited")
    game = build(unlimited, hands=["9H", "4C", "4D"], stock="AS 2S 3S", discards="QD",
                 buys=[0, 9, 9])
    game.apply(Draw("stock"))
    assert game.to_move == 1
    for preset in ("london", "dansk", "remi"):
        assert load_rules(preset).buy_limit_per_round == "unlimited"


def test_buy_penalty_card_comes_from_the_stock() -> None:
    game = build("london", hands=["9H", "4C", "4D"], stock="AS 2H 3H", discards="QD")
    game.apply(Draw("stock"))
    game.apply(Buy())
    assert held(game, 1) == ["4C", "AS", "QD"]
    two = load_rules("london", buy_penalty_cards=2)
    game = build(two, hands=["9H", "4C", "4D"], stock="AS 2H 3H", discards="QD")
    game.apply(Draw("stock"))
    game.apply(Buy())
    assert held(game, 1) == ["2H", "4C", "AS", "QD"]
    assert held(game, 0) == ["3H", "9H"]


def test_dansk_others_buy_first_in_clockwise_order() -> None:
    # "Inden personen trækker nyt kort ... har modspilleren mulighed for at købe ...
    # retten til at købe et kort følger uret. Dvs. den tættest til venstre"
    # start a turn the way the engine does: the others are asked first
    fresh = Game(DANSK, players=4, seed=8)
    assert fresh.phase == "buy"
    assert fresh.to_move == 1
    fresh.apply(Pass())
    assert fresh.to_move == 2
    fresh.apply(Pass())
    assert fresh.to_move == 3
    fresh.apply(Pass())
    # nobody bought: the turn player may take the discard or the stock
    assert fresh.phase == "draw"
    assert fresh.to_move == 0
    assert set(fresh.legal_actions()) == {Draw("discard"), Draw("stock")}


def test_dansk_buyer_takes_a_penalty_card_and_it_is_still_the_turn_players_turn() -> None:
    # "får denne person et straffekort med i købet ... det er stadig den spillers tur"
    game = build("dansk", hands=["9H", "4C", "4D"], stock="AS 2S 3S 4S", discards="KC QD",
                 phase="buy", queue=[1, 2])
    game.apply(Pass())
    game.apply(Buy())
    assert held(game, 2) == ["4D", "AS", "QD"]
    # rebuy next_card: KC is offered to the others again
    assert game.phase == "buy"
    assert game.turn_player == 0
    assert game.to_move in (1, 2)


def test_dansk_refill_empty_discard_after_a_buy() -> None:
    # "hvis et kort købes i første runde, vil pladsen automatisk blive tom ...
    # Derfor lægges et nyt fra bunken ned med kulør opad. Dette kan igen købes"
    fresh = Game(DANSK, players=3, seed=8)
    upcard = fresh.discards[-1]
    assert fresh.phase == "buy"
    assert fresh.to_move == 1
    stock = fresh.stock_size
    fresh.apply(Buy())
    assert upcard in fresh.hand(1)
    assert len(fresh.hand(1)) == 12
    assert len(fresh.discards) == 1  # refilled from the stock
    assert fresh.stock_size == stock - 2
    assert fresh.phase == "buy"  # and offered again
    assert fresh.turn_player == 0


def test_remi_rebuy_next_card_but_nobody_buys_twice_in_a_row() -> None:
    # "Når kjøpet er gjort, ligger neste kort i haugen ledig på samme vilkår,
    # men ingen får kjøpe to kort etter hverandre."
    game = build("remi", hands=["9H", "4C", "4D", "5D"], stock="AS 2S 3S 4S 5S",
                 discards="JC KC QD")
    game.apply(Draw("stock"))
    assert game.to_move == 1
    game.apply(Buy())
    assert held(game, 1) == ["4C", "AS", "QD"]
    # KC is offered again, but not to seat 1
    assert game.phase == "buy"
    assert game.to_move == 2
    game.apply(Pass())
    assert game.to_move == 3
    game.apply(Buy())
    assert held(game, 3) == ["2S", "5D", "KC"]
    # JC is offered again: seat 1 may buy it now (not twice in a row), seat 3 may not
    assert game.phase == "buy"
    assert game.to_move == 1
    game.apply(Pass())
    assert game.to_move == 2
    game.apply(Pass())
    assert game.phase == "play"
    assert held(game, 0) == ["3S", "9H"]


def test_remi_buyer_may_not_lay_down_or_discard() -> None:
    # "Mer får du ikke gjøre. Du kan verken legge ned eller kaste, og turen går
    # tilbake til den som ble avbrutt."
    game = build("remi", hands=["9H", "4C 4S 4H 5C 6C 7C 8C 9S 9C", "4D"],
                 stock="AS 2S 3S", discards="9D")
    game.apply(Draw("stock"))
    game.apply(Buy())
    assert game.turn_player == 0
    assert game.phase == "play"
    assert game.to_move == 0
    refused(game, Discard(c1("4C")))


def test_buying_can_be_switched_off() -> None:
    game = build(load_rules("liverpool", buying=False), hands=["9H", "4C", "4D"],
                 stock="AS 2S", discards="QD")
    game.apply(Draw("stock"))
    assert game.phase == "play"
    assert held(game, 0) == ["9H", "AS"]


def test_a_buy_needs_a_penalty_card_after_reshuffling() -> None:
    # no stock, and after the buy the pile (all but its top) could not make one
    game = build("liverpool", hands=["9H", "4C", "4D"], stock="", discards="KC QD")
    game.apply(Draw("stock"))
    assert game.phase == "play"  # no buy window: the pile is reshuffled for the draw
    assert held(game, 0) == ["9H", "KC"]
    assert game.discards == [c1("QD")]
    # one more card in the pile: the penalty card can come from the reshuffle
    game = build("liverpool", hands=["9H", "4C", "4D"], stock="", discards="JC KC QD")
    game.apply(Draw("stock"))
    assert game.phase == "buy"
    assert game.to_move == 1
    game.apply(Buy())
    assert held(game, 1) == ["4C", "JC", "QD"]


def test_rebuy_none_with_others_first_turn_player_may_take_the_new_top() -> None:
    rules = load_rules("dansk", rebuy="none", refill_empty_discard=False)
    game = build(rules, hands=["9H", "4C", "4D"], stock="AS 2S", discards="KC QD",
                 phase="buy", queue=[1, 2])
    game.apply(Buy())
    assert held(game, 1) == ["4C", "AS", "QD"]
    assert game.phase == "draw"
    assert game.to_move == 0
    assert Draw("discard") in game.legal_actions()
    game.apply(Draw("discard"))
    assert held(game, 0) == ["9H", "KC"]


# ========================================================= §3.2 laying down


REMI_EXAMPLE = "9H 9S 9D 5C 6C 7C KS 4D 2H 8S"


def test_remi_round_two_example() -> None:
    # "Du har ♥️9 ♠️9 ♦️9 ♣️5 ♣️6 ♣️7 ♠️K ♦️4 ♥️2 ♠️8 på hånden og trekker ♣️8 fra
    # bunken. ... Du legger dem ned og kaster ♠️K. Igjen har du ♦️4 ♥️2 ♠️8, og fra
    # neste tur kan de legges ut på bordet."
    hand = parse_cards(REMI_EXAMPLE)
    assert find_contract(hand, REMI, 2) is None
    found = find_contract(hand + parse_cards("8C"), REMI, 2)
    assert contract_text(found) == ["5C 6C 7C 8C", "9S 9H 9D"]
    game = build("remi", hands=[REMI_EXAMPLE, "4S 4C 2D", "3D 3H KH"], stock="8C AS 2S 3S",
                 discards="TC", round=2, turn_player=0)
    draw(game)
    legal = game.legal_actions()
    downs = [a for a in legal if isinstance(a, LayDown)]
    assert len(downs) == 1
    assert sorted(str(m) for m in downs[0].melds) == ["5C 6C 7C 8C", "9S 9H 9D"]
    game.apply(downs[0])
    assert held(game, 0) == ["2H", "4D", "8S", "KS"]
    # not in this turn: only discards, no lay-offs
    assert {a.type for a in game.legal_actions()} == {"discard"}
    game.apply(Discard(c1("KS")))
    assert held(game, 0) == ["2H", "4D", "8S"]
    assert game.laid_down == [True, False, False]


def test_lay_down_only_on_own_turn_after_drawing() -> None:
    # "KUN når det er ens tur og kun efter at man har trukket et kort"
    game = build("dansk", hands=["9H 9S 9D KS KH KC 2C", "4C", "4D"], stock="3S 4S",
                 discards="QD", turn_player=0)
    refused(game, lay(game, "9H 9S 9D", "KS KH KC"))
    game.apply(Draw("stock"))
    game.apply(lay(game, "9H 9S 9D", "KS KH KC"))
    assert game.laid_down[0]


def test_whole_contract_at_once_half_does_not_count() -> None:
    # "hele kontrakten må ned samtidig. Halve teller ikke." / "må man IKKE lægge
    # sit sæt ned, så snart man har det"
    game = build("liverpool", hands=["9H 9S 9D 5C 6C 7C 8C KS", "4C", "4D"], stock="3S",
                 discards="QD", round=2, turn_player=0, phase="play")
    refused(game, lay(game, "9H 9S 9D"))
    refused(game, lay(game, "5C 6C 7C 8C"))
    refused(game, LayDown((table_meld("9H 9S 9D", LIVERPOOL),) * 2))
    game.apply(lay(game, "9H 9S 9D", "5C 6C 7C 8C"))
    assert game.laid_down[0]


def test_exactly_the_contracts_number_and_kinds_of_melds() -> None:
    hand = "9H 9S 9D KS KH KC 5C 5D 5H 6C 7C 8C"
    game = build("liverpool", hands=[hand, "4C", "4D"], stock="3S", discards="QD",
                 turn_player=0, phase="play")
    refused(game, lay(game, "9H 9S 9D", "KS KH KC", "5C 5D 5H"))  # round 1: two sets
    refused(game, lay(game, "9H 9S 9D", "5C 6C 7C 8C"))
    game.apply(lay(game, "9H 9S 9D", "KS KH KC"))


def test_laying_down_the_whole_hand_goes_out_in_a_normal_round() -> None:
    # "The round ends the moment a player has no cards left."
    game = build("liverpool", hands=["9H 9S 9D 9C 9H KS KH KC KD KS", "4C", "4D"],
                 stock="KH", discards="QD", turn_player=0)
    draw(game)
    game.apply(lay(game, "9H 9S 9D 9C 9H", "KS KH KC KD KS KH"))
    assert game.round == 2
    assert game.results().round_scores == ((0, 5, 5),)


def test_contract_once_per_round() -> None:
    # "Du kan bare legge ned kontrakten én gang per runde"
    game = build("liverpool", hands=["9H 9S 9D KS KH KC 5C 5D 5H 4C 4D 4H 7H", "4C", "4D"],
                 stock="3S", discards="QD", turn_player=0, phase="play")
    game.apply(lay(game, "9H 9S 9D", "KS KH KC"))
    refused(game, lay(game, "5C 5D 5H", "4C 4D 4H"))


def test_contract_melds_may_be_longer_except_with_contract_exact() -> None:
    hand = "9H 9S 9D 9C 5C 6C 7C 8C 9C KS"
    for preset in ("liverpool", "london", "dansk"):
        game = build(preset, hands=[hand, "4C", "4D"], stock="3S", discards="QD", round=2,
                     turn_player=0, phase="play")
        assert game.check_lay_down([table_meld("9H 9S 9D 9C", game.rules),
                                    table_meld("5C 6C 7C 8C 9C", game.rules)]) is None
    # remi: "med nøyaktig så mange kort som den krever. Har du fem kort i straighten
    # i runde 2, legger du ned de fire og venter til neste tur med det femte."
    game = build("remi", hands=[hand, "4C", "4D"], stock="3S", discards="QD", round=2,
                 turn_player=0, phase="play")
    refused(game, lay(game, "9H 9S 9D", "5C 6C 7C 8C 9C"))
    refused(game, lay(game, "9H 9S 9D 9C", "5C 6C 7C 8C"))
    with pytest.raises(MeldError):
        check_lay_down(parse_cards(hand), [table_meld("9S 9H 9D", REMI),
                                           table_meld("5C 6C 7C 8C 9C", REMI)], REMI, 2)
    game.apply(lay(game, "9H 9S 9D", "5C 6C 7C 8C"))
    found = find_contract(parse_cards(hand), REMI, 2)
    assert found is not None
    assert sorted(len(m) for m in found) == [3, 4]
    # the fifth card goes on in a later turn
    game.apply(Discard(c1("KS")))
    until_turn(game, 0)
    draw(game)
    assert LayOff(c1("9C"), 1, "high") in game.legal_actions()
    assert LayOff(c1("9C"), 0) in game.legal_actions()
    # remi's "all at once" variant: contract_exact = false lets longer melds go down
    all_at_once = load_rules("remi", contract_exact=False)
    game = build(all_at_once, hands=[hand, "4C", "4D"], stock="3S", discards="QD", round=2,
                 turn_player=0, phase="play")
    game.apply(lay(game, "9H 9S 9D 9C", "5C 6C 7C 8C 9C"))
    assert held(game, 0) == ["KS"]


def test_find_contract_writes_runs_low_to_high_with_wilds_in_place() -> None:
    hand = parse_cards("8C 9H 5C 9S * 6C 9D KS 2D 4H TS")
    found = find_contract(hand, LIVERPOOL, 2)
    assert found is not None
    runs = [m for m in found if classify_meld(m, LIVERPOOL) == "run"]
    assert len(runs) == 1
    assert format_cards(runs[0]) in ("5C 6C * 8C",)
    assert find_contract(parse_cards("8C 9H 5C 9S * 6C KD KS 2D 4H TS"), LIVERPOOL, 2) is None


def test_find_contract_remi_exact_keeps_the_fifth_card() -> None:
    hand = parse_cards("9H 9S 9D 4C 5C 6C 7C 8C KS 2H 3D")
    found = find_contract(hand, REMI, 2)
    assert found is not None
    assert sorted(len(m) for m in found) == [3, 4]
    assert find_contract(hand, load_rules("remi", contract_exact=False), 2) is not None


def test_london_lay_down_example_two_runs() -> None:
    # "(f.eks 3♥-4♥-5♥-6♥ og 10♥-J♥-D♥-K♥ i andre omgang)": two runs are the
    # contract of round 3 (round 2 is a set and a run)
    hand = parse_cards("3H 4H 5H 6H 10H JH QH KH 9S 4D 7C")
    assert contract_text(find_contract(hand, LONDON, 3)) == ["3H 4H 5H 6H", "TH JH QH KH"]
    assert find_contract(hand, LONDON, 2) is None


@pytest.mark.parametrize(
    ("round", "hand"),
    [
        (1, "8S 8H 8D KS KH KD 2C 5D 7H 9C TC"),
        (2, "8S 8H 8D 5C 6C 7C 8C 2D 4D 9H TS"),
        (3, "5C 6C 7C 8C 9H TH JH QH 2D 4D KS"),
        (4, "8S 8H 8D KS KH KD 5S 5H 5D 4D 2C"),
        (5, "8S 8H 8D KS KH KD 5C 6C 7C 8C 2D 4D 9H"),
        (6, "8S 8H 8D 5C 6C 7C 8C 9H TH JH QH 2D 4D"),
        (7, "5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D 5D"),
    ],
)
def test_find_contract_every_liverpool_round(round: int, hand: str) -> None:
    cards = parse_cards(hand)
    found = find_contract(cards, LIVERPOOL, round)
    assert found is not None
    contract = LIVERPOOL.contract(round)
    kinds = sorted(classify_meld(m, LIVERPOOL) or "" for m in found)
    assert kinds == sorted(["set"] * contract.sets + ["run"] * contract.runs)
    pool = list(cards)
    for c in used_cards(found):
        pool.remove(c)  # every card comes from the hand
    if round == 7:
        assert pool == []  # all at once: the whole hand


def test_forbid_adjacent_same_suit_runs() -> None:
    # london: "Noen tillater ikke å dele lange straights i to (2-3-4-5 & 6-7-8-9)"
    # remi: "♣️3 ♣️4 ♣️5 ♣️6 og ♣️7 ♣️8 ♣️9 ♣️10 ikke godtas som to"
    strict = load_rules("remi", forbid_adjacent_same_suit_runs=True)
    hand = parse_cards("3C 4C 5C 6C 7C 8C 9C TC KS 2H 4D")
    assert find_contract(hand, REMI, 3) is not None
    assert find_contract(hand, strict, 3) is None
    with pytest.raises(MeldError):
        check_lay_down(hand, [table_meld("3C 4C 5C 6C", strict),
                              table_meld("7C 8C 9C TC", strict)], strict, 3)
    # overlapping or with a gap is fine
    hand = parse_cards("3C 4C 5C 6C 8C 9C TC JC KS 2H 4D")
    assert find_contract(hand, strict, 3) is not None
    hand = parse_cards("3C 4C 5C 6C 5C 6C 7C 8C KS 2H 4D")
    assert find_contract(hand, strict, 3) is not None
    london = load_rules("london", forbid_adjacent_same_suit_runs=True)
    hand = parse_cards("2H 3H 4H 5H 6H 7H 8H 9H KS 4D")
    assert find_contract(hand, london, 3) is None
    assert find_contract(hand, LONDON, 3) is not None


def test_forbid_same_rank_sets() -> None:
    # london: "eller deling av tress i to (3-3-3 & 3-3-3)"
    strict = load_rules("london", forbid_same_rank_sets=True)
    hand = parse_cards("3H 3S 3D 3C 3H 3D KS 4D 7C 9H")
    assert find_contract(hand, LONDON, 1) is not None
    assert find_contract(hand, strict, 1) is None
    with pytest.raises(MeldError):
        check_lay_down(hand, [table_meld("3H 3S 3D", strict), table_meld("3C 3H 3D", strict)],
                       strict, 1)


# ========================================================== §3.2 laying off


def test_lay_off_only_after_own_contract_and_not_in_the_same_turn() -> None:
    # liverpool: "Har du allerede lagt ned tidligere i runden, kan du i stedet legge
    # enkeltkort på kombinasjonene ... både dine egne og de andres."
    # remi: "Det får du bare gjøre hvis kontrakten din gikk ned i en tidligere tur."
    game = build("liverpool", hands=["9H 4D 5S", "4C KS", "3D KH"], stock="JS 3S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[1],
                 down=[False, True, False], turn_player=0)
    draw(game)
    assert not any(isinstance(a, LayOff) for a in game.legal_actions())
    refused(game, LayOff(c1("9H"), 0, "high"))
    # once down (in an earlier turn), on anybody's meld
    game = build("liverpool", hands=["9H 4D 5S", "4C KS", "3D KH"], stock="JS 3S",
                 discards="QD", table=["5H 6H 7H 8H", "JD JC JH"], owners=[1, 0],
                 down=[True, True, False], turn_player=0)
    draw(game)
    legal = game.legal_actions()
    assert LayOff(c1("9H"), 0, "high") in legal
    assert LayOff(c1("JS"), 1) in legal
    game.apply(LayOff(c1("9H"), 0, "high"))
    game.apply(LayOff(c1("JS"), 1))
    assert str(game.table[0]) == "5H 6H 7H 8H 9H"
    assert len(game.table[1].cards) == 4


def test_lay_off_in_the_turn_of_the_lay_down_only_with_the_option() -> None:
    hand = "9H 9S 9D KS KH KC 9C 2D"
    for same_turn in (False, True):
        rules = load_rules("liverpool", lay_off_same_turn=same_turn)
        game = build(rules, hands=[hand, "4C", "4D"], stock="3S", discards="QD",
                     turn_player=0, phase="play")
        game.apply(lay(game, "9H 9S 9D", "KS KH KC"))
        assert (LayOff(c1("9C"), 0) in game.legal_actions()) is same_turn


# =================================================================== joker swap


def test_liverpool_joker_swap_in_runs_and_sets() -> None:
    # "Har du det ekte kortet jokeren står for, kan du legge det på plassen og ta
    # jokeren til deg – forutsatt at du selv har lagt ned kontrakten din."
    game = build("liverpool", hands=["6H QS 4D", "4C KS", "3D KH"], stock="JS 3S",
                 discards="QD", table=["5H * 7H 8H", "QD QH *"], owners=[1, 1],
                 down=[True, True, False], turn_player=0)
    draw(game)
    legal = game.legal_actions()
    assert SwapJoker(c1("6H"), 0, 1) in legal
    assert SwapJoker(c1("QS"), 1, 2) in legal
    game.apply(SwapJoker(c1("6H"), 0, 1))
    assert str(game.table[0]) == "5H 6H 7H 8H"
    assert c1("*") in game.hand(0)
    # not before one's own contract is down
    game = build("liverpool", hands=["6H QS 4D", "4C KS", "3D KH"], stock="JS 3S",
                 discards="QD", table=["5H * 7H 8H"], owners=[1],
                 down=[False, True, False], turn_player=0)
    draw(game)
    assert not any(isinstance(a, SwapJoker) for a in game.legal_actions())
    refused(game, SwapJoker(c1("6H"), 0, 1))


def test_remi_joker_swap_example_in_a_run() -> None:
    # "Eksempel: ♠️2 joker ♠️4 ♠️5 ligger utlagt, og jokeren står for ♠️3. Sitter du
    # med ♠️3, bytter du kortene og får jokeren til fri bruk."
    # "Jokeren må ut igjen i samme tur"
    game = build("remi", hands=["3S 4D 9D", "4C KS", "3D KH"], stock="JS 3C",
                 discards="QD", table=["2S * 4S 5S", "9H 9C 9S"], owners=[1, 1],
                 down=[True, True, False], turn_player=0)
    draw(game)
    assert SwapJoker(c1("3S"), 0, 1) in game.legal_actions()
    game.apply(SwapJoker(c1("3S"), 0, 1))
    assert str(game.table[0]) == "2S 3S 4S 5S"
    assert c1("*") in game.hand(0)
    # the joker must go out again this turn: no discard before it is down (9D
    # may go onto the nines first)
    legal = game.legal_actions()
    assert not any(isinstance(a, Discard) for a in legal)
    assert LayOff(c1("9D"), 1) in legal
    refused(game, Discard(c1("4D")))
    game.apply(LayOff(c1("9D"), 1))
    refused(game, Discard(c1("4D")))
    game.apply(next(a for a in game.legal_actions()
                    if isinstance(a, LayOff) and a.card == c1("*")))
    assert c1("*") not in game.hand(0)
    assert any(isinstance(a, Discard) for a in game.legal_actions())


def test_remi_joker_in_a_set_is_locked() -> None:
    # "En joker i en tress blir liggende. Der er den låst ut runden"
    game = build("remi", hands=["QS 4D 9D", "4C KS", "3D KH"], stock="JS 3C",
                 discards="QD", table=["QD QH *", "5H 6H 7H 8H"], owners=[1, 1],
                 down=[True, True, False], turn_player=0)
    draw(game)
    assert not any(isinstance(a, SwapJoker) for a in game.legal_actions())
    refused(game, SwapJoker(c1("QS"), 0, 2))


def test_no_joker_swap_in_london_and_dansk() -> None:
    for preset in ("london", "dansk"):
        assert load_rules(preset).joker_swap == "none"
    wild = load_rules("london", jokers_per_deck=2)
    game = build(wild, hands=["6H 4D 9D", "4C KS", "3D KH"], stock="JS 3C",
                 discards="QD", table=["5H * 7H 8H"], owners=[1],
                 down=[True, True, False], turn_player=0)
    draw(game)
    assert not any(isinstance(a, SwapJoker) for a in game.legal_actions())


# ================================================================ §3.4 calls


def _call_game(preset: str | Rules) -> Game:
    """Seat 0 is down (an earlier turn) and holds 9H, which fits 5H-8H."""
    return build(preset, hands=["9H 4D", "4C KS", "3D KH"], stock="AS 2H 3H",
                 discards="TC QD", table=["5H 6H 7H 8H"], owners=[1],
                 down=[True, True, False], phase="play", turn_player=0)


def test_liverpool_call() -> None:
    # "Kaster en spiller som allerede har lagt ned et kort som kunne vært lagt på en
    # kombinasjon på bordet, kan en annen rope «Liverpool!». Da må den som kastet ta
    # kortet tilbake og i tillegg trekke et straffekort."
    game = _call_game("liverpool")
    game.apply(Discard(c1("9H")))
    assert game.phase == "call"
    assert game.to_move == 1
    assert Call() in game.legal_actions()
    assert Pass() in game.legal_actions()
    game.apply(Pass())
    assert game.to_move == 2  # any other player may call
    game.apply(Call())
    assert held(game, 0) == ["4D", "9H", "AS"]
    assert game.discards == parse_cards("TC QD")
    assert game.turn_player == 1
    assert game.phase == "draw"


def test_liverpool_call_needs_the_discarder_down_and_a_fitting_card() -> None:
    # "Man kan kun blive Liverpool, hvis man selv har lagt ned"
    game = build("liverpool", hands=["9H 4D", "4C KS", "3D KH"], stock="AS 2H",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[1],
                 down=[False, True, False], phase="play", turn_player=0)
    game.apply(Discard(c1("9H")))
    assert game.phase == "draw"
    assert game.turn_player == 1
    game = _call_game("liverpool")
    game.apply(Discard(c1("4D")))
    assert game.phase == "draw"
    assert game.turn_player == 1


def test_nobody_calls() -> None:
    game = _call_game("liverpool")
    game.apply(Discard(c1("9H")))
    game.apply(Pass())
    game.apply(Pass())
    assert game.discards[-1] == c1("9H")
    assert game.turn_player == 1
    assert game.phase == "draw"


def test_dansk_liverpool_takes_the_whole_pile() -> None:
    # "skal tage hele bunken med de kort, der ligger kulør opad"
    game = _call_game("dansk")
    game.apply(Discard(c1("9H")))
    assert game.phase == "call"
    game.apply(Call())
    assert held(game, 0) == ["4D", "9H", "QD", "TC"]
    assert game.turn_player == 1


def test_shanghai_call_variant() -> None:
    # "kan hvem som helst rope "Shanghai" og legge kortet ut der. Så holder de fram
    # hånden sin, og du må trekke et kort fra den. Roper du "Shanghai" selv idet du
    # kaster, er kortet fredet."
    rules = load_rules("remi", discard_call="shanghai")
    game = _call_game(rules)
    game.apply(Discard(c1("9H")))
    assert game.phase == "call"
    game.apply(Call(0, "high"))
    assert str(game.table[0]) == "5H 6H 7H 8H 9H"
    assert len(game.hand(0)) == 2
    assert len(game.hand(1)) == 1
    assert sorted(game.hand(0) + game.hand(1)) == sorted(parse_cards("4D 4C KS"))
    game = _call_game(rules)
    game.apply(Discard(c1("9H"), announce=True))
    assert game.phase == "draw"
    assert game.turn_player == 1


def test_shanghai_caller_need_not_be_down() -> None:
    # "kan hvem som helst rope "Shanghai"" (anyone): seat 2 has not laid down
    rules = load_rules("remi", discard_call="shanghai")
    game = _call_game(rules)
    game.apply(Discard(c1("9H")))
    game.apply(Pass())
    assert game.to_move == 2
    assert Call(0, "high") in game.legal_actions()
    game.apply(Call(0, "high"))
    assert len(game.hand(2)) == 1
    assert len(game.hand(0)) == 2


def test_no_calls_in_london_and_remi() -> None:
    for preset in ("london", "remi"):
        game = _call_game(preset)
        game.apply(Discard(c1("9H")))
        assert game.phase == "draw"
        assert game.turn_player == 1


# ============================================================ §3.5 going out


def test_going_out_by_discarding_the_last_card_ends_the_round() -> None:
    # "Runden er over når en spiller har blitt kvitt alle kortene sine, vanligvis
    # ved å kaste det siste kortet."
    game = build("liverpool", hands=["4D", "4C KS", "3D KH *"], stock="AS 2S 3S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                 down=[True, False, False], phase="play", turn_player=0)
    game.apply(Discard(c1("4D")))
    assert game.round == 2
    assert game.results().round_scores == ((0, 15, 65),)


def test_going_out_by_laying_off_the_last_card() -> None:
    game = build("liverpool", hands=["9H", "4C KS", "3D KH"], stock="AS 2S 3S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                 down=[True, False, False], phase="play", turn_player=0)
    game.apply(LayOff(c1("9H"), 0, "high"))
    assert game.round == 2
    assert game.results().round_scores == ((0, 15, 15),)


def _dansk_down_and_drawn(hand: str, stock: str) -> Game:
    """dansk: seat 0 is down (5H-8H on the table) holding ``hand``, and has drawn
    the top card of ``stock``."""
    game = build("dansk", hands=[hand, "4C KS", "3D KH"], stock=stock, discards="QD",
                 table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False], phase="draw",
                 turn_player=0)
    draw(game)
    while game.phase == "buy":
        game.apply(Pass())
    return game


def test_dansk_the_last_card_must_be_a_discard() -> None:
    # "Hver tur skal slutte med, at man lægger et kort i bunken. Så man kan sagtens
    # komme ud for at sidde og ikke have nogen kort på hånden"
    game = _dansk_down_and_drawn("9H", "TH AS 2S 3S 4S 5S 6S")
    assert held(game, 0) == ["9H", "TH"]
    game.apply(LayOff(c1("9H"), 0, "high"))
    game.apply(LayOff(c1("TH"), 0, "high"))
    assert game.hand(0) == []
    assert game.round == 1
    assert game.turn_player == 1
    # on a later turn the player draws and goes out with a discard
    until_turn(game, 0)
    draw(game)
    (card,) = game.hand(0)
    game.apply(Discard(card))
    while game.phase == "call":
        game.apply(Pass())
    assert game.round == 2
    assert game.results().round_scores[0][0] == 0


def test_dansk_a_last_discard_that_fits_the_table_is_called() -> None:
    # "Så man kan sagtens komme ud for at sidde og ikke have nogen kort på hånden,
    # fordi man har lagt alt ned og hele tiden trækker et, der kan lægges til."
    # A player with no cards who draws a card that can be laid off may not go out
    # by throwing it away: that discard "could be laid off", and a call makes the
    # player Liverpool ("skal tage hele bunken"); the round goes on.
    def position() -> Game:
        game = _dansk_down_and_drawn("", "9H AS 2S 3S 4S 5S")
        assert held(game, 0) == ["9H"]
        return game

    game = position()
    game.apply(Discard(c1("9H")))
    assert game.phase == "call"
    game.apply(Call())
    assert held(game, 0) == ["9H", "QD"]
    assert game.round == 1
    assert game.turn_player == 1
    # nobody calls: the discard ends the round
    game = position()
    game.apply(Discard(c1("9H")))
    while game.phase == "call":
        game.apply(Pass())
    assert game.round == 2
    assert game.results().round_scores[0][0] == 0
    # laid off instead, the player sits with no cards and draws again next turn
    game = position()
    game.apply(LayOff(c1("9H"), 0, "high"))
    assert game.hand(0) == []
    assert game.round == 1
    assert game.turn_player == 1


def test_a_last_discard_is_called_only_with_call_last_discard() -> None:
    # the Liverpool guide: the round is over when a player is rid of all cards,
    # "vanligvis ved å kaste det siste kortet" -- there, as in every preset but
    # dansk, the discard that ends the round cannot be called
    def position(**overrides: Any) -> Game:
        return build(load_rules("liverpool", **overrides), hands=["9H", "4C KS", "3D KH *"],
                     stock="AS 2S 3S", discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                     down=[True, False, False], phase="play", turn_player=0)

    game = position()
    game.apply(Discard(c1("9H")))
    assert game.round == 2
    game = position(call_last_discard=True)
    game.apply(Discard(c1("9H")))
    assert game.phase == "call"
    game.apply(Call())
    assert held(game, 0) == ["9H", "AS"]  # the card back and a penalty card
    assert game.round == 1
    assert game.turn_player == 1


# ============================================================ §3.6 final round


def test_liverpool_final_round_whole_hand_no_discard() -> None:
    # "Den sjuende runden er unntaket. Der må du legge ned hele hånden på én gang, og
    # det kastes ikke noe kort til slutt. Regnestykket må gå nøyaktig opp."
    hand = parse_cards("5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D 5D")  # 12 dealt + 1 drawn
    found = find_contract(hand, LIVERPOOL, 7)
    assert found is not None
    assert used_cards(found) == sorted(hand)
    junk = parse_cards("5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D KS")
    assert find_contract(junk, LIVERPOOL, 7) is None
    assert find_contract(junk, LIVERPOOL, 3) is not None  # round 3 is two runs, no whole hand
    game = build("liverpool", hands=["5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D", "4C KS", "3D KH *"],
                 stock="5D 2S 3S", discards="QD", round=7, turn_player=0,
                 round_scores=[[10, 20, 30]] * 6)
    draw(game)
    downs = [a for a in game.legal_actions() if isinstance(a, LayDown)]
    assert len(downs) == 1
    game.apply(downs[0])
    assert game.is_over
    assert game.results().round_scores[-1] == (0, 15, 65)


def test_final_round_no_partial_lay_down() -> None:
    game = build("liverpool", hands=["5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D", "4C KS", "3D KH"],
                 stock="KD 2S 3S", discards="QD", round=7, turn_player=0)
    draw(game)
    assert not any(isinstance(a, LayDown) for a in game.legal_actions())
    refused(game, lay(game, "5C 6C 7C 8C", "9H TH JH QH", "AD 2D 3D 4D"))


def test_london_final_round_all_but_one_then_discard() -> None:
    # "I siste runde må en legge ut alle kortene (ett i bordet) for å legge ned."
    hand = parse_cards("5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D KS")
    found = find_contract(hand, LONDON, 7)
    assert found is not None
    assert len(used_cards(found)) == 12
    assert find_contract(parse_cards("5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D"), LONDON, 7) is None
    game = build("london", hands=["5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D", "4C KS", "3D KH"],
                 stock="KS 2H 3S", discards="", round=7, turn_player=0)
    draw(game)
    downs = [a for a in game.legal_actions() if isinstance(a, LayDown)]
    assert len(downs) == 1
    game.apply(downs[0])
    assert not game.is_over
    assert game.legal_actions() == [Discard(c1("KS"))]
    game.apply(Discard(c1("KS")))
    assert game.is_over
    assert game.results().round_scores[-1][0] == 0


def test_london_round_seven_needs_a_buy() -> None:
    # 10 dealt + 1 drawn - 1 discarded = 10 cards for three runs (12)
    assert LONDON.cards_dealt(7) == 10
    hand = parse_cards("5C 6C 7C 8C 9H TH JH QH AD 2D 3D")
    assert find_contract(hand, LONDON, 7) is None
    with pytest.raises(RulesError):
        load_rules("london", buying=False)


def test_remi_final_round_twelve_cards_three_runs() -> None:
    # "Den siste runden får ett kort ekstra fordi du trekker før du legger ned. Da har
    # du tolv kort på hånden, akkurat nok til tre straighter på fire kort hver."
    assert REMI.cards_dealt(7) == 11
    hand = parse_cards("5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D")
    found = find_contract(hand, REMI, 7)
    assert found is not None
    assert sorted(len(m) for m in found) == [4, 4, 4]
    # melds may be longer in the final round, whatever contract_exact says
    hand13 = hand + parse_cards("5D")
    found = find_contract(hand13, REMI, 7)
    assert found is not None
    assert sorted(len(m) for m in found) == [4, 4, 5]
    game = build("remi", hands=["5C 6C 7C 8C 9H TH JH QH AD 2D 3D", "4C KS", "3D KH"],
                 stock="4D 2S 3S", discards="QS", round=7, turn_player=0)
    draw(game)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, LayDown)))
    assert game.is_over  # "I runde 7 kaster ingen noe kort ... runden stopper i samme øyeblikk"


def test_dansk_final_round_all_cards_at_once() -> None:
    # "I sidste runde (runde 7) skal ALLE kort lægges på samme tid ... man kan ikke
    # lukke med et kort"
    hand = parse_cards("8S 8H 8D KS KH KD 5S 5H 5D 5C 6C 7C 8C 9C")  # 13 + 1
    found = find_contract(hand, DANSK, 7)
    assert found is not None
    assert used_cards(found) == sorted(hand)
    game = build("dansk", hands=["8S 8H 8D KS KH KD 5S 5H 5D 5C 6C 7C 8C", "4C KS", "3D KH"],
                 stock="9C 2S 3S", discards="QS", round=7, turn_player=0, phase="buy",
                 queue=[1, 2])
    game.apply(Pass())
    game.apply(Pass())
    draw(game)
    game.apply(next(a for a in game.legal_actions() if isinstance(a, LayDown)))
    assert game.is_over
    assert game.results().round_scores[-1][0] == 0


def test_final_round_normal_option() -> None:
    rules = load_rules("liverpool", final_round="normal")
    hand = parse_cards("5C 6C 7C 8C 9H TH JH QH AD 2D 3D 4D KS")
    found = find_contract(hand, rules, 7)
    assert found is not None
    assert len(used_cards(found)) == 12


# =========================================================== §3.7 stock runs out


def test_stock_runs_out_the_discard_pile_is_reshuffled_keeping_the_top() -> None:
    # "Legg det øverste kortet i kastehaugen til side, bland resten av haugen, og
    # legg den ut med baksiden opp som ny bunke."
    game = build(load_rules("remi", buying=False), hands=["9H 4C", "4D 5D", "5S 6S"],
                 stock="", discards="2C 3C KD")
    draw(game)
    assert game.discards == [c1("KD")]
    assert held(game, 0) in (["2C", "4C", "9H"], ["3C", "4C", "9H"])
    assert game.stock_size == 1


def test_turn_player_takes_the_discard_when_nothing_else_can_be_drawn() -> None:
    # seat 1 buys QD and the last stock card; the pile (KC alone) cannot be reshuffled
    game = build("liverpool", hands=["9H", "4C", "4D"], stock="AS", discards="KC QD")
    game.apply(Draw("stock"))
    game.apply(Buy())
    assert held(game, 1) == ["4C", "AS", "QD"]
    assert held(game, 0) == ["9H", "KC"]
    assert game.discards == []
    assert game.phase == "play"


def test_neither_pile_can_supply_the_round_ends_without_winner() -> None:
    # "kan begge haugene gå tomme før noen har gått ut. Da stopper runden uten
    # vinner, og alle skriver opp kortene de sitter med."
    game = build("remi", hands=["9H 4C", "4D 5D", "5S KS"], stock="AS", discards="KD")
    game.apply(Draw("stock"))
    game.apply(Buy())  # seat 1 buys KD and takes AS, the last stock card
    # nothing is left to draw: the round ends, everyone scores the hand
    assert game.round == 2
    assert any(e == RoundAbandoned(e.seq, "exhausted") for e in game.events)
    assert game.results().round_scores[0] == (13, 9 + 10 + 20, 15)


# ===================================================================== §3.8 scoring


def test_remi_scoring_examples() -> None:
    # "En motspiller sitter igjen med en joker, ♥️K og ♦️4, altså 64 poeng. En annen
    # har ♠️A ♣️8 ♦️8 og får 36."
    assert hand_points(parse_cards("* ♥️K ♦️4"), REMI) == 64
    assert hand_points(parse_cards("♠️A ♣️8 ♦️8"), REMI) == 36
    game = build("remi", hands=["4D", "* KH 4D", "AS 8C 8D"], stock="AS 2S 3S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                 down=[True, False, False], phase="play", turn_player=0, round=3)
    game.apply(Discard(c1("4D")))
    assert game.results().round_scores[-1] == (0, 64, 36)


@pytest.mark.parametrize("preset", ["liverpool", "london"])
def test_points_liverpool_and_london(preset: str) -> None:
    # london: "2-9 gir 5 poeng per kort, 10-K gir 10, Ess gir 20, 2♠ (Joker) gir 50"
    rules = load_rules(preset)
    for r in "3456789":
        assert hand_points(parse_cards(f"{r}H"), rules) == 5
    assert hand_points(parse_cards("2H"), rules) == 5
    for r in "TJQK":
        assert hand_points(parse_cards(f"{r}D"), rules) == 10
    assert hand_points(parse_cards("AC"), rules) == 20
    assert hand_points(parse_cards("AS 2C 9D TH KS"), rules) == 50


def test_deuce_of_spades_scores_as_the_wild_it_is() -> None:
    assert hand_points(parse_cards("2S"), LONDON) == 50
    assert hand_points(parse_cards("2S"), LIVERPOOL) == 5
    assert hand_points(parse_cards("*"), LIVERPOOL) == 50
    assert hand_points(parse_cards("2S"), REMI) == 2
    assert hand_points(parse_cards("2S"), DANSK) == 2
    assert hand_points(parse_cards("2S"), load_rules("remi", wild_deuce_of_spades=True)) == 50


def test_points_dansk() -> None:
    # "Es – 15; 2-10 / sin egen værdi i tal; Knægt, dame, konge – 10"
    for r in range(2, 10):
        assert hand_points(parse_cards(f"{r}C"), DANSK) == r
    assert hand_points(parse_cards("TC"), DANSK) == 10
    assert hand_points(parse_cards("JC QD KH"), DANSK) == 30
    assert hand_points(parse_cards("AS"), DANSK) == 15


def test_points_remi() -> None:
    # "Joker teller 50 poeng og ess 20"
    for r in range(2, 10):
        assert hand_points(parse_cards(f"{r}H"), REMI) == r
    assert hand_points(parse_cards("TH JH QH KH"), REMI) == 40
    assert hand_points(parse_cards("AH"), REMI) == 20
    assert hand_points(parse_cards("*"), REMI) == 50


def test_points_variants() -> None:
    # liverpool: "noen setter både ess og joker til 15"; remi: "noen gir fem poeng flatt for
    # alt fra to til ni, andre setter joker og ess ned til 15"
    for preset in ("liverpool", "remi"):
        rules = load_rules(preset, points={"ace": 15, "wild": 15})
        assert hand_points(parse_cards("AS * KD"), rules) == 40
    flat = load_rules("remi", points={"two_to_nine": 5})
    assert hand_points(parse_cards("2H 9C 5D"), flat) == 15
    assert hand_points(parse_cards("TH AS *"), flat) == 80  # the rest is unchanged
    assert hand_points([], REMI) == 0


def test_scores_add_up_and_the_lowest_total_wins_shared_wins() -> None:
    # "Poengene legges sammen gjennom alle sju rundene, og den med lavest sum vinner."
    game = build("liverpool", hands=["4D", "4C KS", "3D"], stock="AS 2S 3S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                 down=[True, False, False], phase="play", turn_player=0, round=7,
                 round_scores=[[30, 0, 10]] * 6)
    # round 7 is all at once: nobody is down before; use the normal final round
    game = build(load_rules("liverpool", final_round="normal"), hands=["4D", "4C KS", "3D"],
                 stock="AS 2S 3S", discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                 down=[True, False, False], phase="play", turn_player=0, round=7,
                 round_scores=[[30, 0, 10]] * 6)
    game.apply(Discard(c1("4D")))
    res = game.results()
    assert game.is_over
    assert res.round_scores[-1] == (0, 15, 5)
    assert res.totals == (180, 15, 65)
    assert res.winners == (1,)
    tie = build(load_rules("liverpool", final_round="normal"), hands=["4D", "4C KS", "3D"],
                stock="AS 2S 3S", discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                down=[True, False, False], phase="play", turn_player=0, round=7,
                round_scores=[[15, 0, 10]] * 6)
    tie.apply(Discard(c1("4D")))
    assert tie.results().totals == (90, 15, 65)
    tie2 = build(load_rules("liverpool", final_round="normal"), hands=["4D", "4C KS", "3D"],
                 stock="AS 2S 3S", discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                 down=[True, False, False], phase="play", turn_player=0, round=7,
                 round_scores=[[5, 0, 10]] * 6)
    tie2.apply(Discard(c1("4D")))
    assert tie2.results().totals == (30, 15, 65)
    tie3 = build(load_rules("liverpool", final_round="normal"), hands=["4D", "4C KS", "3D"],
                 stock="AS 2S 3S", discards="QD", table=["5H 6H 7H 8H"], owners=[0],
                 down=[True, False, False], phase="play", turn_player=0, round=7,
                 round_scores=[[5, 0, 10], [10, 0, 0]] + [[0, 0, 0]] * 4)
    tie3.apply(Discard(c1("4D")))
    assert tie3.results().totals == (15, 15, 15)
    assert tie3.results().winners == (0, 1, 2)


# ============================================== Liverpool cut (the Remi rules)


def test_liverpool_cut_variant() -> None:
    # "spilleren til høyre for giver kutter stokken før utdeling. Treffer de nøyaktig
    # på antall kort som skal deles ut pluss det ene som snus, får de 50 poeng i minus."
    rules = load_rules("remi", liverpool_cut=True, cut_noise=0)
    game = Game(rules, players=4, seed=3)
    assert game.phase == "cut"
    assert game.dealer == 3
    assert game.to_move == 2
    game.apply(Cut(4 * 10 + 1))
    assert game.phase != "cut"
    assert game.turn_player == 0
    # play the round out quickly; the cutter scores -50 on top of their hand
    for count, bonus in ((41, -50), (40, 0), (42, 0)):
        rules = load_rules("remi", liverpool_cut=True, cut_noise=0, max_turns_per_round=1)
        game = Game(rules, players=4, seed=3)
        game.apply(Cut(count))
        cutter_hand = hand_points(game.hand(2), rules)
        while game.round == 1:  # one turn, nobody buys: seat 2 keeps its hand
            legal = game.legal_actions()
            game.apply(Pass() if Pass() in legal else Draw("stock") if Draw("stock") in legal
                       else next(a for a in legal if isinstance(a, Discard)))
        assert game.results().round_scores[0][2] == cutter_hand + bonus
    # without an upcard the target is the deal alone
    rules = load_rules("remi", liverpool_cut=True, cut_noise=0, initial_upcard=False,
                       max_turns_per_round=1)
    game = Game(rules, players=4, seed=3)
    game.apply(Cut(40))
    assert [(e.seat, e.count, e.bonus) for e in game.events if isinstance(e, DeckCut)] == [
        (2, 40, -50)]


# ============================================================ §4 the presets


PRESET_TABLE: dict[str, dict[str, object]] = {
    "liverpool": dict(
        players=[3, 8], decks=[[4, 2], [6, 3], [8, 4]], jokers_per_deck=2,
        wild_deuce_of_spades=False,
        contracts=["SS", "SR", "RR", "SSS", "SSR", "SRR", "RRR"],
        deal=[10, 10, 10, 10, 12, 12, 12], initial_upcard=True, run_wrap="never",
        contract_exact=False, lay_off_same_turn=False, buy_priority="turn_player_first",
        buy_limit_per_round=3, rebuy="none", refill_empty_discard=False,
        no_consecutive_buys=False, joker_swap="runs_and_sets",
        swapped_joker_must_be_played=False, min_naturals_set=2, min_naturals_run=3,
        naturals_at_least_wilds=False, no_adjacent_wilds_in_run=True,
        discard_call="liverpool", go_out_requires_discard=False, final_round="all_at_once",
        points=dict(two_to_nine=5, ten=10, face_cards=10, ace=20, wild=50),
    ),
    "london": dict(
        players=[3, 6], decks=[[4, 2], [6, 3]], jokers_per_deck=0, wild_deuce_of_spades=True,
        contracts=["SS", "SR", "RR", "SSS", "SSR", "SRR", "RRR"], deal=[10] * 7,
        initial_upcard=False, run_wrap="three_beside_ace", contract_exact=False,
        lay_off_same_turn=False, buy_priority="turn_player_first",
        buy_limit_per_round="unlimited", rebuy="none", joker_swap="none",
        min_naturals_set=0, min_naturals_run=0, naturals_at_least_wilds=False,
        no_adjacent_wilds_in_run=False, discard_call="none", go_out_requires_discard=False,
        final_round="all_at_once_discard",
        points=dict(two_to_nine=5, ten=10, face_cards=10, ace=20, wild=50),
    ),
    "dansk": dict(
        players=[3, 6], decks=[[4, 2], [6, 3]], jokers_per_deck=0, wild_deuce_of_spades=False,
        contracts=["SS", "SR", "SSS", "SSR", "SRR", "RRR", "SSSR"],
        deal=[10, 10, 10, 10, 11, 12, 13], initial_upcard=True, run_wrap="never",
        contract_exact=False, lay_off_same_turn=False, buy_priority="others_first",
        buy_limit_per_round="unlimited", rebuy="next_card", refill_empty_discard=True,
        joker_swap="none", min_naturals_set=0, min_naturals_run=0,
        naturals_at_least_wilds=False, no_adjacent_wilds_in_run=False,
        discard_call="liverpool_pile", go_out_requires_discard=True, final_round="all_at_once",
        points=dict(two_to_nine="face", ten=10, face_cards=10, ace=15, wild=50),
    ),
    "remi": dict(
        players=[3, 6], decks=[[5, 2], [6, 3]], jokers_total=9, wild_deuce_of_spades=False,
        contracts=["SS", "SR", "RR", "SSS", "SSR", "SRR", "RRR"], deal=[10] * 6 + [11],
        initial_upcard=True, run_wrap="never", contract_exact=True, lay_off_same_turn=False,
        buy_priority="turn_player_first", buy_limit_per_round="unlimited", rebuy="next_card",
        no_consecutive_buys=True, joker_swap="runs", swapped_joker_must_be_played=True,
        min_naturals_set=0, min_naturals_run=0, naturals_at_least_wilds=True,
        no_adjacent_wilds_in_run=False, discard_call="none", go_out_requires_discard=False,
        final_round="all_at_once",
        points=dict(two_to_nine="face", ten=10, face_cards=10, ace=20, wild=50),
    ),
}

COMMON = dict(buying=True, buy_penalty_cards=1, set_same_suit=False, run_same_suit=True,
              forbid_adjacent_same_suit_runs=False, forbid_same_rank_sets=False,
              liverpool_cut=False)


@pytest.mark.parametrize("preset", PRESETS)
def test_preset_values_of_rules_md_section_4(preset: str) -> None:
    data = load_rules(preset).to_dict()
    for key, value in {**PRESET_TABLE[preset], **COMMON}.items():
        assert data[key] == value, key
    assert data["name"] == preset


def test_preset_defaults_cut_and_safeguard() -> None:
    for preset in PRESETS:
        rules = load_rules(preset)
        assert (rules.cut_bonus, rules.cut_noise, rules.max_turns_per_round) == (-50, 5, 1000)


def test_remi_jokers_total_replaces_jokers_per_deck() -> None:
    assert REMI.jokers_for(3) == REMI.jokers_for(6) == 9
    pm1 = load_rules("remi", jokers_total="players_minus_one")
    assert [pm1.jokers_for(n) for n in (3, 4, 5, 6)] == [2, 3, 4, 5]
    game = Game(pm1, players=4, seed=1)
    assert sum(game.card_counts().values()) == 104 + 3


# ============================================== §5 variants named by the sources


def test_variants_of_the_liverpool_guide() -> None:
    no_limit = load_rules("liverpool", buy_limit_per_round="unlimited")
    assert no_limit.buy_limit_per_round == "unlimited"
    six = load_rules("liverpool", deal=[10] * 6, contracts=["SS", "SR", "RR", "SSS", "SSR", "SRR"])
    assert six.num_rounds == 6
    assert all(six.cards_dealt(r) == 10 for r in range(1, 7))
    game = Game(six, players=4, seed=1)
    assert game.round == 1
    fifteen = load_rules("liverpool", points={"ace": 15, "wild": 15})
    assert fifteen.points.ace == fifteen.points.wild == 15
    assert fifteen.points.two_to_nine == 5


def test_variants_of_the_londonspillet_article() -> None:
    jokers = load_rules("london", jokers_per_deck=2, wild_deuce_of_spades=False)
    assert jokers.is_wild(c1("*"))
    assert not jokers.is_wild(c1("2S"))
    assert kind("9H 9D *", jokers) == "set"
    assert kind("9H 9D 2S", jokers) is None
    assert Game(jokers, players=4, seed=1).card_counts()["stock"] == 108 - 40
    more = load_rules("london", deal=[12] * 8, contracts=["SS", "SR", "RR", "SSS", "SSR",
                                                          "SRR", "RRR", "RRR"])
    assert more.num_rounds == 8
    assert more.cards_dealt(1) == 12
    assert load_rules("london", initial_upcard=True).initial_upcard
    assert load_rules("london", run_wrap="always").run_wrap == "always"
    assert load_rules("london", run_same_suit=False).run_same_suit is False
    assert load_rules("london", forbid_adjacent_same_suit_runs=True,
                      forbid_same_rank_sets=True).forbid_same_rank_sets


def test_variants_of_the_remi_rules() -> None:
    assert load_rules("remi", liverpool_cut=True).liverpool_cut
    assert load_rules("remi", discard_call="shanghai").discard_call == "shanghai"
    deuce = load_rules("remi", jokers_total=0, wild_deuce_of_spades=True)
    assert deuce.jokers_for(4) == 0
    assert deuce.is_wild(c1("2S"))
    assert Game(deuce, players=4, seed=2).card_counts() == {
        "hands": 40, "stock": 63, "discards": 1, "table": 0}
    twelve = load_rules("remi", deal=[10, 10, 10, 12, 12, 12, 12])
    assert [twelve.cards_dealt(r) for r in range(1, 8)] == [10, 10, 10, 12, 12, 12, 12]
    Game(twelve, players=6, seed=1)
    flat = load_rules("remi", points={"two_to_nine": 5})
    assert flat.points.two_to_nine == 5
    assert flat.points.ace == 20
    assert not load_rules("remi", contract_exact=False).contract_exact
    assert load_rules("remi", forbid_adjacent_same_suit_runs=True).forbid_adjacent_same_suit_runs
    assert REMI.decks_for(5) == 2
    assert REMI.decks_for(6) == 3
    pm1 = load_rules("remi", jokers_total="players_minus_one")
    assert pm1.jokers_for(5) == 4


# ================================================================ §6 ruleset data


def test_ruleset_file_extends_a_preset(tmp_path: Any) -> None:
    path = tmp_path / "house.toml"
    path.write_text('extends = "remi"\ncontract_exact = false\ndiscard_call = "shanghai"\n'
                    "[points]\nace = 15\nwild = 15\n", encoding="utf-8")
    rules = load_rules(str(path))
    assert rules.contract_exact is False
    assert rules.discard_call == "shanghai"
    assert (rules.points.ace, rules.points.wild, rules.points.two_to_nine) == (15, 15, "face")
    assert rules.jokers_total == 9


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"buy_limt": 2}, "buy_limt"),
        ({"run_wrap": "sometimes"}, "run_wrap"),
        ({"players": [1, 4]}, "players"),
        ({"players": [3, 9]}, "players"),
        ({"deal": [10] * 6}, "deal"),
        ({"contracts": ["SS", "SX"]}, "contracts"),
        ({"contract_exact": "yes"}, "contract_exact"),
        ({"buy_limit_per_round": -1}, "buy_limit_per_round"),
        ({"jokers_total": "lots"}, "jokers_total"),
        ({"points": {"kings": 10}}, "kings"),
        ({"final_round": "sometimes"}, "final_round"),
        ({"discard_call": "bingo"}, "discard_call"),
        ({"joker_swap": "all"}, "joker_swap"),
        ({"rebuy": "always"}, "rebuy"),
        ({"buy_priority": "others"}, "buy_priority"),
    ],
)
def test_bad_options_are_refused_naming_the_key(overrides: dict[str, object], key: str) -> None:
    with pytest.raises(RulesError, match=key):
        load_rules("liverpool", **overrides)


def test_impossible_combinations_are_refused() -> None:
    # a contract that can never be met
    with pytest.raises(RulesError, match="contracts"):
        load_rules("liverpool", deal=[3] * 7)  # 3 + 1 + 3 buys x 2 = 10 < 12
    assert load_rules("liverpool", deal=[5] * 7).deal == (5,) * 7  # 12 with three buys
    with pytest.raises(RulesError, match="contracts"):
        load_rules("london", buying=False)  # round 7: 10 cards for 12
    # same-suit sets without identical cards or wilds
    with pytest.raises(RulesError, match="set_same_suit"):
        load_rules("dansk", set_same_suit=True)
    assert load_rules("dansk", set_same_suit=True, decks=[[6, 3]]).set_same_suit
    # not enough cards to deal
    with pytest.raises(RulesError, match="deal"):
        load_rules("london", deal=[30] * 7)


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(RulesError):
        load_rules("liverpol")


def test_players_two_to_eight_at_the_outside() -> None:
    assert load_rules("liverpool", players=[2, 8]).players == (2, 8)
    Game(load_rules("liverpool", players=[2, 8]), players=2, seed=1)
    with pytest.raises(RulesError):
        Game(LIVERPOOL, players=2, seed=1)
    with pytest.raises(RulesError):
        Game(REMI, players=7, seed=1)
    Game(LIVERPOOL, players=8, seed=1)


def test_views_show_only_what_a_seat_may_know() -> None:
    game = Game(LIVERPOOL, players=3, seed=6)
    view = game.view(0)
    assert sorted(view.hand) == sorted(game.hand(0))
    assert view.hand_sizes == (10, 10, 10)
    assert game.view(None).hand == ()
    other = str(game.view(1).to_json())
    assert view.to_move == 0
    assert game.view(1).legal_actions == ()
    assert "hand" in other
    assert len(game.view(1).hand) == 10


def test_seed_and_actions_reproduce_a_game() -> None:
    game = Game(REMI, players=4, seed=12)
    for _ in range(40):
        if game.is_over:
            break
        legal = game.legal_actions()
        game.apply(legal[len(legal) // 2])
    again = replay(game.record())
    assert again.state_key() == game.state_key()
    assert Game(REMI, players=4, seed=12).state_key() == Game(REMI, players=4, seed=12).state_key()
