"""Concrete tests of melds, laying off, joker swaps and the contract solver."""

from __future__ import annotations

import dataclasses
import os
import sys

import pytest

from liverpool import load_rules
from liverpool.cards import Card
from liverpool.melds import (
    Meld,
    MeldError,
    arrange_meld,
    can_lay_off,
    check_lay_down,
    classify_meld,
    lay_down_mode,
    lay_off,
    meld_error,
    meld_from_table,
    meld_problem,
    swap_joker,
)
from liverpool.rules import Rules
from liverpool.solver import find_contract, find_lay_down, iter_lay_downs

sys.path.insert(0, os.path.dirname(__file__))
from bruteforce import brute_lay_downs
from positions import card, cards

LIVERPOOL = load_rules("liverpool")
LONDON = load_rules("london")
DANSK = load_rules("dansk")
REMI = load_rules("remi")
PLAIN = dataclasses.replace(DANSK, final_round="normal")  # no wilds, no limits


def run(text: str, rules: Rules) -> Meld:
    meld = meld_from_table(cards(text), rules)
    assert meld is not None, text
    assert meld.kind == "run", text
    return meld


def layable(text: str, rules: Rules) -> bool:
    """Can these cards (in any order) go down as one run?"""
    return bool(arrange_meld(cards(text), rules, "run"))


def contract_rules(base: Rules, code: str, **options: object) -> Rules:
    """``base`` with a one-round game of contract ``code`` in a normal round (round 1)."""
    return dataclasses.replace(base, contracts=(code, "SS"), deal=(10, 10), **options)


def as_text(found: list[list[Card]] | None) -> list[str] | None:
    return None if found is None else [" ".join(str(c) for c in m) for m in found]


# ---------------------------------------------------------------- single melds
def test_classify_meld() -> None:
    assert classify_meld(cards("7H 8H * TH"), LIVERPOOL) == "run"
    assert classify_meld(cards("QD QH *"), LIVERPOOL) == "set"
    assert classify_meld(cards("QD * *"), LIVERPOOL) is None  # two naturals in a set
    assert classify_meld(cards("QD QH"), LIVERPOOL) is None
    assert classify_meld(cards("5H 6H 7H"), LIVERPOOL) is None
    assert classify_meld(cards("5H 6H 7H 8S"), LIVERPOOL) is None
    assert classify_meld(cards("5H 6H 7H 8S"), dataclasses.replace(PLAIN, run_same_suit=False)) == "run"
    assert classify_meld(cards("* * * *"), LIVERPOOL) is None
    assert classify_meld(cards("5H 6H 7H 8H 9H TH"), PLAIN) == "run"
    assert classify_meld(cards("9H 9H 9S 9C 9D"), PLAIN) == "set"


def test_arrange_meld_wild_at_either_end() -> None:
    melds = arrange_meld(cards("7H 5H * 6H"), LIVERPOOL, "run")
    assert sorted(str(m) for m in melds) == ["* 5H 6H 7H", "5H 6H 7H *"]
    assert {m.rank for m in melds} == {4, 5}


def test_liverpool_wild_limits() -> None:
    # a set keeps two natural cards, a run three; no two wilds side by side
    assert classify_meld(cards("9H 9S *"), LIVERPOOL) == "set"
    assert classify_meld(cards("9H * *"), LIVERPOOL) is None
    assert classify_meld(cards("9H 9S * *"), LIVERPOOL) == "set"
    assert classify_meld(cards("5H 6H * 8H"), LIVERPOOL) == "run"
    assert classify_meld(cards("5H * * 8H"), LIVERPOOL) is None  # 2 naturals only
    assert classify_meld(cards("5H * 7H * 9H"), LIVERPOOL) == "run"
    assert meld_error(Meld("run", tuple(cards("5H 6H * * 9H TH")), 5, 1), LIVERPOOL) is not None
    assert meld_error(Meld("run", tuple(cards("5H 6H * 8H * TH")), 5, 1), LIVERPOOL) is None


def test_remi_naturals_at_least_wilds() -> None:
    assert classify_meld(cards("9H 9S *"), REMI) == "set"
    assert classify_meld(cards("9H * *"), REMI) is None
    assert classify_meld(cards("5H * 7H *"), REMI) == "run"  # a run of four tolerates two
    assert classify_meld(cards("5H * * *"), REMI) is None
    assert classify_meld(cards("5H * * 8H"), REMI) == "run"


def test_every_meld_needs_a_natural() -> None:
    free = dataclasses.replace(PLAIN, jokers_per_deck=2)
    assert classify_meld(cards("* * *"), free) is None
    assert classify_meld(cards("9H * *"), free) == "set"
    assert classify_meld(cards("8H * TH *"), free) == "run"


def test_deuce_of_spades_wild_in_london() -> None:
    assert classify_meld(cards("9H 9S 2S"), LONDON) == "set"
    assert classify_meld(cards("5H 2S 7H 8H"), LONDON) == "run"
    assert classify_meld(cards("2S 2S 2S"), LONDON) == "set"  # natural twos
    # 2S in its own place counts as natural
    own = Meld("run", tuple(cards("AS 2S 3S 4S")), 1, 0)
    assert meld_error(own, dataclasses.replace(LONDON, min_naturals_run=4)) is None
    other = Meld("run", tuple(cards("AH 2S 3H 4H")), 1, 1)
    assert meld_error(other, dataclasses.replace(LONDON, min_naturals_run=4)) is not None
    assert meld_error(other, LONDON) is None
    # without the option 2S is an ordinary card
    assert classify_meld(cards("9H 9S 2S"), PLAIN) is None


def test_no_wrap() -> None:
    assert not layable("KH AH 2H 3H", PLAIN)
    assert not layable("QH KH AH 2H", PLAIN)
    assert layable("JH QH KH AH", PLAIN)
    assert layable("AH 2H 3H 4H", PLAIN)
    full = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    assert classify_meld(full, PLAIN) == "run"
    melds = arrange_meld(full, PLAIN, "run")
    assert [m.rank for m in melds] == [1]
    assert melds[0].high_rank == 14


def test_fourteen_card_run_with_the_natural_ace_high() -> None:
    # under no_adjacent_wilds_in_run the natural ace must stand high and a
    # wild take the ace low: * 2H .. QH * AH (the ace low and the king wild)
    rules = load_rules("liverpool")
    full = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH * *")
    assert classify_meld(full, rules) == "run"
    [meld] = arrange_meld(full, rules, "run")
    assert str(meld) == "* 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH * AH"
    one_run = load_rules("liverpool", contracts=["R"], deal=[13])
    found = find_contract(full, one_run, 1)
    assert found is not None
    assert [str(c) for c in found[0]][-1] == "AH"
    # two natural aces of two suits (runs of any suit): either may stand low
    mixed = dataclasses.replace(PLAIN, run_same_suit=False)
    orders = arrange_meld(cards("AH 2C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS"), mixed, "run")
    assert sorted(str(m)[:2] for m in orders) == ["AH", "AS"]


def test_every_start_of_a_run_of_deuces_of_spades() -> None:
    # london: 2S 2S 2S 2S lies as AS-4S or as 2S-5S (one 2S in its own place)
    runs = arrange_meld(cards("2S 2S 2S 2S"), LONDON, "run")
    assert sorted(m.rank for m in runs) == [1, 2]


def test_wrap_always() -> None:
    wrap = dataclasses.replace(PLAIN, run_wrap="always")
    assert layable("KH AH 2H 3H", wrap)
    assert layable("QH KH AH 2H", wrap)
    assert layable("JH QH KH AH 2H 3H", wrap)
    assert not layable("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH", wrap)  # each rank once


def test_three_beside_ace() -> None:
    for good in ("JH QH KH AH", "AH 2H 3H 4H", "JH QH KH AH 2H", "TH JH QH KH AH 2H 3H"):
        assert layable(good, LONDON), good
    for bad in ("KH AH 2H 3H", "QH KH AH 2H 3H", "QH KH AH 2H"):
        assert not layable(bad, LONDON), bad
    # laying off extends it freely
    meld = run("AH 2H 3H 4H", LONDON)
    longer = lay_off(meld, card("KH"), LONDON, "low")
    assert longer is not None
    assert str(longer) == "KH AH 2H 3H 4H"
    longer = lay_off(longer, card("QH"), LONDON, "low")
    assert longer is not None
    assert str(longer) == "QH KH AH 2H 3H 4H"
    assert meld_error(longer, LONDON, lay_down=False) is None
    # the ace rule is checked only when a run is laid down
    assert meld_error(Meld("run", tuple(cards("KH AH 2H 3H")), 13, 1), LONDON, lay_down=False) is None
    assert meld_error(Meld("run", tuple(cards("KH AH 2H 3H")), 13, 1), LONDON) is not None
    assert can_lay_off(cards("AH 2H 3H 4H"), card("KH"), LONDON)
    assert not can_lay_off(cards("AH 2H 3H 4H"), card("KH"), PLAIN)


def test_run_same_suit_false() -> None:
    mixed = dataclasses.replace(PLAIN, run_same_suit=False)
    melds = arrange_meld(cards("5H 6S 7D 8C"), mixed, "run")
    assert melds
    assert melds[0].suit == -1
    assert can_lay_off(cards("5H 6S 7D 8C"), card("9S"), mixed)
    assert not layable("5H 6S 7D 8C", PLAIN)


def test_set_same_suit() -> None:
    same = dataclasses.replace(PLAIN, set_same_suit=True)
    assert classify_meld(cards("9H 9H 9H"), same) == "set"
    assert classify_meld(cards("9H 9H 9S"), same) is None
    assert classify_meld(cards("9H 9H 9S"), PLAIN) == "set"


# ------------------------------------------------------------ lay off and swap
def test_lay_off_wild_at_either_end() -> None:
    meld = run("5H 6H 7H 8H", LIVERPOOL)
    high = lay_off(meld, card("*"), LIVERPOOL, "high")
    low = lay_off(meld, card("*"), LIVERPOOL, "low")
    assert high is not None
    assert str(high) == "5H 6H 7H 8H *"
    assert high.rank == 5
    assert low is not None
    assert str(low) == "* 5H 6H 7H 8H"
    assert low.rank == 4
    assert can_lay_off(meld, card("9H"), LIVERPOOL)
    assert can_lay_off(meld, card("4H"), LIVERPOOL)
    assert not can_lay_off(meld, card("TH"), LIVERPOOL)
    assert not can_lay_off(meld, card("9S"), LIVERPOOL)


def test_lay_off_rejected_when_it_breaks_limits() -> None:
    meld = run("5H 6H 7H *", LIVERPOOL)  # 5H-8H with the wild as 8H
    assert lay_off(meld, card("*"), LIVERPOOL, "high") is None  # two wilds side by side
    assert lay_off(meld, card("*"), LIVERPOOL, "low") is not None
    remi_set = Meld("set", tuple(cards("9H 9S *")), 9)
    assert lay_off(remi_set, card("*"), REMI) is not None  # 2 naturals, 2 wilds
    assert lay_off(Meld("set", tuple(cards("9H 9S * *")), 9), card("*"), REMI) is None
    assert lay_off(remi_set, card("9D"), REMI) is not None
    assert lay_off(remi_set, card("8D"), REMI) is None
    top = run("JH QH KH AH", PLAIN)
    assert lay_off(top, card("2H"), PLAIN) is None  # no wrap
    assert not can_lay_off(cards("9H 9S 9D"), card("8H"), PLAIN)


def test_swap_joker_runs_only_in_remi() -> None:
    # the remi example: 2S * 4S 5S, the joker is 3S
    meld = run("2S * 4S 5S", REMI)
    swapped = swap_joker(meld, 1, card("3S"), REMI)
    assert swapped is not None
    assert str(swapped) == "2S 3S 4S 5S"
    assert swap_joker(meld, 1, card("3H"), REMI) is None  # wrong card
    assert swap_joker(meld, 0, card("2S"), REMI) is None  # not a wild
    remi_set = Meld("set", tuple(cards("9H 9S *")), 9)
    assert swap_joker(remi_set, 2, card("9D"), REMI) is None  # a wild in a set is locked
    liverpool_set = Meld("set", tuple(cards("9H 9S *")), 9)
    swapped_set = swap_joker(liverpool_set, 2, card("9D"), LIVERPOOL)
    assert swapped_set is not None
    assert str(swapped_set) == "9H 9S 9D"
    assert swap_joker(meld, 1, card("3S"), DANSK) is None  # joker_swap = none



def test_the_deuce_of_spades_replaces_a_wild_standing_for_it() -> None:
    # docs/rules.md, §1: a 2S in its own place counts as a natural card, and a swap puts
    # in "the natural card it stands for".
    deuce = load_rules("liverpool", wild_deuce_of_spades=True)
    meld = run("AS * 3S 4S", deuce)
    swapped = swap_joker(meld, 1, card("2S"), deuce)
    assert swapped is not None
    assert str(swapped) == "AS 2S 3S 4S"
    assert swap_joker(run("5H * 7H 8H", deuce), 1, card("2S"), deuce) is None
    twos = Meld("set", tuple(cards("2H 2D *")), 2)
    swapped_set = swap_joker(twos, 2, card("2S"), deuce)
    assert swapped_set is not None
    assert str(swapped_set) == "2H 2D 2S"
    assert swap_joker(meld, 1, card("*"), deuce) is None  # a joker is never natural


def test_a_meld_must_name_a_real_rank_and_its_suit_rightly() -> None:
    # a hand-made meld (from JSON, say) cannot dodge the wild limits with rank 0
    jokers = Meld("set", tuple(cards("* * *")), 0)
    assert meld_error(jokers, LIVERPOOL) is not None
    assert meld_error(jokers, REMI) is not None
    nines = tuple(cards("9H 9S 9D"))
    assert meld_error(Meld("set", nines, 9), LIVERPOOL) is None
    assert meld_error(Meld("set", nines, 9, 1), LIVERPOOL) is not None  # sets mix suits
    assert meld_error(Meld("set", nines, 14), LIVERPOOL) is not None
    hearts = tuple(cards("5H 6H 7H 8H"))
    assert meld_error(Meld("run", hearts, 5, 1), LIVERPOOL) is None
    assert meld_error(Meld("run", hearts, 5, -1), LIVERPOOL) is not None
    mixed = load_rules("liverpool", run_same_suit=False)
    assert meld_error(Meld("run", hearts, 5, -1), mixed) is None
    assert meld_error(Meld("run", hearts, 5, 1), mixed) is not None


@pytest.mark.parametrize(("meld", "rules", "code", "reason"), [
    (Meld("set", tuple(cards("9H 9S")), 9), LIVERPOOL, "set_too_short",
     "a set needs at least 3 cards"),
    (Meld("set", tuple(cards("9H 9S QS")), 9), LIVERPOOL, "set_wrong_card",
     "QS does not belong in a set of nines"),
    (Meld("set", tuple(cards("9H * *")), 9), dataclasses.replace(LIVERPOOL, min_naturals_set=2),
     "set_few_naturals", "a set must hold at least 2 natural cards"),
    (Meld("run", tuple(cards("5H 6H QS 8H")), 5, 1), LIVERPOOL, "run_wrong_card",
     "QS does not fit at that place in the run"),
    (Meld("run", tuple(cards("QH KH AH 2H")), 12, 1), LIVERPOOL, "run_no_corner",
     "a run may not turn the corner (K-A-2)"),
    (Meld("run", tuple(cards("KH AH 2H 3H")), 13, 1), LONDON, "run_ace_beside",
     "a run with an ace in it needs three cards on one side of the ace to be laid down"),
])
def test_meld_problems_have_codes(meld: Meld, rules: Rules, code: str, reason: str) -> None:
    from liverpool.errors import MESSAGES, REASONS, GameError

    problem = meld_problem(meld, rules)
    assert problem is not None
    assert problem[0] == code
    assert meld_error(meld, rules) == reason
    assert REASONS[code].format(**{k: str(v) for k, v in problem[1].items()
                                   if k != "ranks"}, ranks="nines") == reason
    assert str(GameError(code, meld=meld, **problem[1])) == f"{meld}: {reason}"
    assert code in MESSAGES
    contract = "S" if meld.kind == "set" else "R"
    one_meld = dataclasses.replace(rules, contracts=(contract,), deal=(10,))
    with pytest.raises(MeldError) as info:  # a lay-down refused for it carries the code
        check_lay_down(list(meld.cards), [meld], one_meld, 1)
    assert (info.value.code, info.value.params) == (code, {"meld": meld, **problem[1]})
    assert str(info.value) == f"{meld}: {reason}"

# ------------------------------------------------------------------ contracts
def test_remi_round_two_example() -> None:
    hand = cards("9H 9S 9D 5C 6C 7C KS 4D 2H 8S 8C")
    found = find_contract(hand, REMI, 2)
    assert found is not None
    assert sorted(as_text(found) or []) == ["5C 6C 7C 8C", "9S 9H 9D"]
    assert find_contract(cards("9H 9S 9D 5C 6C 7C KS 4D 2H 8S"), REMI, 2) is None


def test_remi_exact_contract() -> None:
    hand = cards("9H 9S 9D 5C 6C 7C 8C 9C KS 4D 2H")
    melds = [Meld("set", tuple(cards("9H 9S 9D")), 9), run("5C 6C 7C 8C 9C", REMI)]
    with pytest.raises(MeldError, match="exactly 4 cards"):
        check_lay_down(hand, melds, REMI, 2)
    check_lay_down(hand, melds, dataclasses.replace(REMI, contract_exact=False), 2)
    check_lay_down(hand, [melds[0], run("5C 6C 7C 8C", REMI)], REMI, 2)
    found = find_lay_down(hand, REMI, 2)
    assert found is not None
    assert all(len(m.cards) == (3 if m.kind == "set" else 4) for m in found)


def test_forbid_adjacent_same_suit_runs() -> None:
    rules = contract_rules(PLAIN, "RR", forbid_adjacent_same_suit_runs=True)
    joined = cards("3C 4C 5C 6C 7C 8C 9C TC")
    assert find_contract(joined, rules, 1) is None
    assert find_contract(joined, contract_rules(PLAIN, "RR"), 1) is not None
    with pytest.raises(MeldError, match="join end to end"):
        check_lay_down(joined, [run("3C 4C 5C 6C", rules), run("7C 8C 9C TC", rules)], rules, 1)
    gapped = cards("3C 4C 5C 6C 8C 9C TC JC")
    assert find_contract(gapped, rules, 1) is not None
    overlapping = cards("3C 4C 5C 6C 6C 7C 8C 9C")
    assert find_contract(overlapping, rules, 1) is not None
    other_suit = cards("3C 4C 5C 6C 7H 8H 9H TH")
    assert find_contract(other_suit, rules, 1) is not None


def test_forbid_same_rank_sets() -> None:
    rules = contract_rules(PLAIN, "SS", forbid_same_rank_sets=True)
    hand = cards("9H 9S 9D 9C 9H 9S")
    assert find_contract(hand, rules, 1) is None
    assert find_contract(hand, contract_rules(PLAIN, "SS"), 1) is not None
    with pytest.raises(MeldError, match="same rank"):
        check_lay_down(hand, [Meld("set", tuple(cards("9H 9S 9D")), 9),
                              Meld("set", tuple(cards("9C 9H 9S")), 9)], rules, 1)
    assert find_contract(cards("9H 9S 9D 8C 8H 8S"), rules, 1) is not None


def test_set_same_suit_contract() -> None:
    rules = contract_rules(PLAIN, "S", set_same_suit=True)
    assert find_contract(cards("9H 9H 9S 9S 9D"), rules, 1) is None
    assert as_text(find_contract(cards("9H 9H 9S 9H"), rules, 1)) == ["9H 9H 9H"]


def test_min_naturals_above_three() -> None:
    rules = contract_rules(dataclasses.replace(LIVERPOOL, min_naturals_set=4), "S")
    assert find_contract(cards("9H 9S 9D *"), rules, 1) is None
    found = find_contract(cards("9H 9S 9D 9C"), rules, 1)
    assert found is not None
    assert len(found[0]) == 4
    runs = contract_rules(dataclasses.replace(LIVERPOOL, min_naturals_run=4), "R")
    hand = cards("2H 3H 5H 6H *")
    assert find_contract(hand, runs, 1) is not None
    mixed = contract_rules(dataclasses.replace(LIVERPOOL, min_naturals_run=4, run_same_suit=False), "R")
    assert find_contract(cards("* 3H 6H 2H 6H 5H"), mixed, 1) is not None


def test_long_run_needed_for_many_wilds() -> None:
    # three naturals spread out need a run of 7 with four wilds
    rules = contract_rules(dataclasses.replace(PLAIN, min_naturals_run=3), "R")
    hand = cards("5H 8H JH * * * *")
    found = find_contract(hand, rules, 1)
    assert found is not None
    assert brute_lay_downs(hand, rules, 1) is not None


def test_check_lay_down_messages() -> None:
    hand = cards("9H 9S 9D 5C 6C 7C 8C KS")
    set9 = Meld("set", tuple(cards("9H 9S 9D")), 9)
    run5 = run("5C 6C 7C 8C", LIVERPOOL)
    check_lay_down(hand, [set9, run5], LIVERPOOL, 2)
    with pytest.raises(MeldError, match="contract of round 2 is 1 set \\+ 1 run"):
        check_lay_down(hand, [set9], LIVERPOOL, 2)
    with pytest.raises(MeldError, match="do not have"):
        check_lay_down(hand, [Meld("set", tuple(cards("9H 9S 9C")), 9), run5], LIVERPOOL, 2)
    with pytest.raises(MeldError, match="do not have another"):
        check_lay_down(hand, [Meld("set", tuple(cards("9H 9S 9S")), 9), run5], LIVERPOOL, 2)
    with pytest.raises(MeldError, match="does not belong"):
        check_lay_down(hand, [Meld("set", tuple(cards("9H 9S KS")), 9), run5], LIVERPOOL, 2)
    with pytest.raises(MeldError, match="natural"):
        check_lay_down(cards("9H * * 5C 6C 7C 8C"), [Meld("set", tuple(cards("9H * *")), 9), run5],
                       LIVERPOOL, 2)


# ------------------------------------------------------------ final rounds
def test_lay_down_modes() -> None:
    assert lay_down_mode(LIVERPOOL, 1) == "normal"
    assert lay_down_mode(LIVERPOOL, 7) == "all"
    assert lay_down_mode(LONDON, 7) == "all_but_one"
    assert lay_down_mode(dataclasses.replace(LIVERPOOL, final_round="normal"), 7) == "normal"


def test_liverpool_round_seven_uses_all_twelve() -> None:
    hand = cards("3H 4H 5H 6H 7H 8S 9S TS JS QS 5D 6D")
    assert find_contract(hand, LIVERPOOL, 7) is None  # 5D 6D would be left over
    hand = cards("3H 4H 5H 6H 8S 9S TS JS 5D 6D 7D 8D")
    found = find_contract(hand, LIVERPOOL, 7)
    assert found is not None
    assert sum(len(m) for m in found) == 12
    melds = find_lay_down(hand, LIVERPOOL, 7)
    assert melds is not None
    check_lay_down(hand, melds, LIVERPOOL, 7)
    three = [run("3H 4H 5H 6H", LIVERPOOL), run("8S 9S TS JS", LIVERPOOL),
             run("5D 6D 7D 8D", LIVERPOOL)]
    check_lay_down(hand, three, LIVERPOOL, 7)
    with pytest.raises(MeldError, match="whole hand"):
        check_lay_down(hand + cards("KC"), three, LIVERPOOL, 7)


def test_london_round_seven_leaves_one() -> None:
    hand = cards("3H 4H 5H 6H 8S 9S TS JS 5D 6D 7D 8D KC")
    found = find_contract(hand, LONDON, 7)
    assert found is not None
    assert sum(len(m) for m in found) == 12
    assert find_contract(hand[:-1], LONDON, 7) is None  # nothing to discard
    two_left = hand + cards("KD")
    assert find_contract(two_left, LONDON, 7) is None


def test_dansk_round_seven_one_meld_longer() -> None:
    hand = cards("9H 9S 9D 4C 4D 4H KH KS KC 5S 6S 7S 8S 9C")
    assert len(hand) == 14
    found = find_contract(hand, DANSK, 7)
    assert found is not None
    assert sum(len(m) for m in found) == 14
    assert sorted(len(m) for m in found) == [3, 3, 4, 4]
    hand2 = cards("9H 9S 9D 4C 4D 4H KH KS KC 5S 6S 7S 8S 9S")
    melds = find_lay_down(hand2, DANSK, 7)
    assert melds is not None
    assert sum(len(m.cards) for m in melds) == 14
    check_lay_down(hand2, melds, DANSK, 7)
    assert find_contract(hand2[:-1] + cards("TD"), DANSK, 7) is None


def test_final_round_melds_may_be_longer_than_exact() -> None:
    hand = cards("2H 3H 4H 5H 7C 8C 9C TC 9D TD JD QD")
    found = find_contract(hand, REMI, 7)
    assert found is not None
    assert sorted(len(m) for m in found) == [4, 4, 4]
    hand = cards("2H 3H 4H 5H 6H 7C 8C 9C TC 9D TD JD QD")
    found = find_contract(hand, dataclasses.replace(REMI, final_round="all_at_once"), 7)
    assert found is not None
    assert sorted(len(m) for m in found) == [4, 4, 5]


def test_iter_lay_downs_distinct_and_legal() -> None:
    hand = cards("9H 9S 9D 9C 5C 6C 7C 8C * KS")
    seen = set()
    for melds in iter_lay_downs(hand, LIVERPOOL, 2):
        check_lay_down(hand, melds, LIVERPOOL, 2)
        key = tuple(str(m) for m in melds)
        assert key not in seen
        seen.add(key)
    assert len(seen) > 3


def test_exact_contract_with_four_natural_sets_is_impossible() -> None:
    rules = contract_rules(dataclasses.replace(LIVERPOOL, min_naturals_set=4, contract_exact=True), "S")
    assert find_contract(cards("AD AD AD AD AD"), rules, 1) is None
    assert brute_lay_downs(cards("AD AD AD AD AD"), rules, 1) is None
