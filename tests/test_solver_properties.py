"""Property tests: the contract solver agrees with the brute-force reference.

Hands are small and drawn from a narrow window of ranks and one or two suits
(plus a few wilds and some noise) so that melds actually occur; the rules are
the four presets with random option overrides and random contracts, in normal
and final rounds.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool import load_rules
from liverpool.cards import JOKER, Card, format_cards, parse_cards
from liverpool.melds import MeldError, check_lay_down
from liverpool.rules import Rules
from liverpool.solver import find_contract, find_lay_down, iter_lay_downs

sys.path.insert(0, os.path.dirname(__file__))
from bruteforce import brute_lay_downs
from positions import build

settings.register_profile(
    "solver",
    max_examples=int(os.environ.get("SOLVER_EXAMPLES", "500")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

PRESET_RULES = {name: load_rules(name) for name in ("liverpool", "london", "dansk", "remi")}
CONTRACT_CODES = ("S", "R", "SS", "SR", "RR", "SSS", "SSR", "SRR", "RRR", "SSSR")
DEUCE_OF_SPADES = Card(2, 0)

OPTION_VALUES: dict[str, list[object]] = {
    "wild_deuce_of_spades": [False, True],
    "set_same_suit": [False, True],
    "run_same_suit": [True, False],
    "run_wrap": ["never", "three_beside_ace", "always"],
    "min_naturals_set": [0, 1, 2, 3, 4],
    "min_naturals_run": [0, 2, 3, 4, 5],
    "naturals_at_least_wilds": [False, True],
    "no_adjacent_wilds_in_run": [False, True],
    "contract_exact": [False, True],
    "forbid_adjacent_same_suit_runs": [False, True],
    "forbid_same_rank_sets": [False, True],
    "final_round": ["normal", "all_at_once", "all_at_once_discard"],
}


@st.composite
def rules_and_round(draw: st.DrawFn) -> tuple[Rules, int]:
    rules = PRESET_RULES[draw(st.sampled_from(sorted(PRESET_RULES)))]
    overrides = {}
    for key, values in OPTION_VALUES.items():
        if draw(st.integers(0, 2)) == 0:  # a third of the options move away from the preset
            overrides[key] = draw(st.sampled_from(values))
    if draw(st.booleans()):
        # a preset contract: any round of the preset
        rnd = draw(st.integers(1, rules.num_rounds))
        rules = dataclasses.replace(rules, **overrides)
        contract = rules.contract(rnd)
        if contract.min_cards > 12:
            rnd = 1
        return rules, rnd
    code = draw(st.sampled_from(CONTRACT_CODES))
    final = draw(st.booleans())
    overrides["contracts"] = ("SS", code) if final else (code, "SS")
    overrides["deal"] = (10, 10)
    rules = dataclasses.replace(rules, **overrides)
    return rules, 2 if final else 1


@st.composite
def planted_hands(draw: st.DrawFn, rules: Rules, rnd: int) -> list[Card]:
    """The contract's melds built on purpose (often legal), some wilds, a few extras."""
    contract = rules.contract(rnd)
    final = rules.final_mode(rnd) != "normal"
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    hand: list[Card] = []
    for _ in range(contract.sets):
        rank = draw(st.integers(1, 13))
        size = draw(st.integers(3, 4 if final else 3))
        for _ in range(size):
            hand.append(Card(rank, draw(st.sampled_from(suits))))
    for _ in range(contract.runs):
        start = draw(st.integers(1, 13))
        size = draw(st.integers(4, 6 if final else 5))
        suit = draw(st.sampled_from(suits))
        for i in range(size):
            rank = (start - 1 + i) % 13 + 1 if draw(st.integers(0, 7)) else draw(st.integers(1, 13))
            hand.append(Card(rank, suit))
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(hand) - 1))
        hand[i] = DEUCE_OF_SPADES if draw(st.integers(0, 3)) == 0 else JOKER
    limit = 13 if final else 12
    for _ in range(draw(st.integers(0, 2))):
        if len(hand) < limit:
            hand.append(Card(draw(st.integers(1, 13)), draw(st.sampled_from(suits))))
    hand = hand[:limit]
    return draw(st.permutations(hand))


@st.composite
def any_hands(draw: st.DrawFn, rules: Rules, rnd: int) -> list[Card]:
    if draw(st.booleans()):
        return draw(planted_hands(rules, rnd))
    return draw(hands(rules, rnd))


@st.composite
def hands(draw: st.DrawFn, rules: Rules, rnd: int) -> list[Card]:
    need = rules.contract(rnd).min_cards
    if rules.final_mode(rnd) == "normal":
        size = draw(st.integers(max(3, need - 1), min(13, need + 3)))
    else:
        size = draw(st.integers(need, min(13, need + 2)))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(4, 6))
    ranks = [(low - 1 + i) % 13 + 1 for i in range(width)]
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    wilds = draw(st.integers(0, min(5, size)))
    hand: list[Card] = []
    for _ in range(wilds):
        hand.append(DEUCE_OF_SPADES if draw(st.integers(0, 3)) == 0 else JOKER)
    if draw(st.integers(0, 4)) == 0:  # a stray card from anywhere
        hand.append(Card(draw(st.integers(1, 13)), draw(st.integers(0, 3))))
    pool = [Card(r, s) for r in ranks for s in suits] * 2
    k = min(len(pool), max(0, size - len(hand)))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=k, max_size=k, unique=True))
    hand.extend(pool[i] for i in picks)
    return draw(st.permutations(hand))


def _explain(hand: list[Card], rules: Rules, rnd: int) -> str:
    changed = {f.name: getattr(rules, f.name) for f in dataclasses.fields(Rules)
               if f.name not in ("points", "players", "decks", "deal")}
    return f"hand={format_cards(hand)} round={rnd} rules={changed}"


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
@settings(settings.get_profile("solver"))
@given(data=st.data())
def test_solver_matches_brute_force(data: st.DataObject) -> None:
    rules, rnd = data.draw(rules_and_round())
    hand = data.draw(any_hands(rules, rnd))
    expected = brute_lay_downs(hand, rules, rnd)
    got = find_contract(hand, rules, rnd)
    why = _explain(hand, rules, rnd)
    assert (got is None) == (expected is None), f"{why}\nsolver={got}\nbrute={expected}"
    if got is not None:
        melds = find_lay_down(hand, rules, rnd)
        assert melds is not None
        assert [list(m.cards) for m in melds] == got
        check_lay_down(hand, melds, rules, rnd)
        used = Counter(c for cards in got for c in cards)
        have = Counter(hand)
        assert all(used[c] <= have[c] for c in used), why


@settings(settings.get_profile("solver"), max_examples=max(
    1, settings.get_profile("solver").max_examples // 2))
@pytest.mark.slow
@given(data=st.data())
def test_iter_lay_downs_are_legal_and_distinct(data: st.DataObject) -> None:
    rules, rnd = data.draw(rules_and_round())
    hand = data.draw(any_hands(rules, rnd))
    seen = set()
    count = 0
    for melds in iter_lay_downs(hand, rules, rnd):
        try:
            check_lay_down(hand, melds, rules, rnd)
        except MeldError as exc:  # pragma: no cover - the message helps when it fails
            raise AssertionError(f"{_explain(hand, rules, rnd)}\n{melds}: {exc}") from exc
        key = tuple(sorted(tuple(sorted(c.index for c in m.cards)) if m.kind == "set"
                           else (m.rank, m.suit) + tuple(c.index for c in m.cards) for m in melds))
        assert key not in seen, f"{_explain(hand, rules, rnd)}\nrepeated {melds}"
        seen.add(key)
        count += 1
        if count >= 200:
            break
    assert (count > 0) == (find_contract(hand, rules, rnd) is not None), _explain(hand, rules, rnd)


@st.composite
def whole_hand_case(draw: st.DrawFn) -> tuple[Rules, int, list[Card]]:
    """A final round (the whole hand, or all but one card, goes down) with a
    bigger hand: 13 to 16 cards from a few ranks of one or two suits (so that the
    brute force, which counts sub-multisets, stays tractable), with wilds."""
    rules = PRESET_RULES[draw(st.sampled_from(sorted(PRESET_RULES)))]
    overrides: dict[str, object] = {}
    for key, values in OPTION_VALUES.items():
        if key != "final_round" and draw(st.integers(0, 2)) == 0:
            overrides[key] = draw(st.sampled_from(values))
    overrides["final_round"] = draw(st.sampled_from(["all_at_once", "all_at_once_discard"]))
    overrides["contracts"] = ("SS", draw(st.sampled_from(("RR", "SR", "SSR", "SRR", "RRR", "SSSR"))))
    overrides["deal"] = (10, 10)
    rules = dataclasses.replace(rules, **overrides)
    size = draw(st.integers(13, 16))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(4, 5))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    pool = [Card((low - 1 + i) % 13 + 1, s) for i in range(width) for s in suits] * 2
    wilds = draw(st.integers(0, 4))
    hand = [DEUCE_OF_SPADES if draw(st.integers(0, 3)) == 0 else JOKER for _ in range(wilds)]
    k = min(len(pool), size - len(hand))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=k, max_size=k, unique=True))
    hand.extend(pool[i] for i in picks)
    return rules, 2, draw(st.permutations(hand))


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
@settings(settings.get_profile("solver"), max_examples=max(
    1, settings.get_profile("solver").max_examples // 20))
@given(case=whole_hand_case())
def test_whole_hand_solver_matches_brute_force_on_bigger_hands(
        case: tuple[Rules, int, list[Card]]) -> None:
    rules, rnd, hand = case
    expected = brute_lay_downs(hand, rules, rnd)
    melds = find_lay_down(hand, rules, rnd)
    why = _explain(hand, rules, rnd)
    assert (melds is None) == (expected is None), f"{why}\nsolver={melds}\nbrute={expected}"
    if melds is not None:
        check_lay_down(hand, melds, rules, rnd)
    first = next(iter_lay_downs(hand, rules, rnd), None)
    assert (first is None) == (melds is None), why


# ------------------------------------------------- the whole-hand search is bounded
BIG_HAND = ("7H QS 4H 3S 4S AS QH 4S 8H 7H TH 9C TH 3H TH * 7H KD AH * 7C JC 8S 8H 6D AD 5C "
            "AC 9D 9C QD 6H KD 5S 6S")  # a final round's hand of a house ruleset, after buys


def test_runs_of_any_suit_beside_sets_of_one_suit_search_no_more() -> None:
    # with no set to make, a card's suit cannot matter: set_same_suit must not
    # make the search try every suit of every card of its runs (it ran for hours)
    from liverpool.solver.cover import WholeHandCover

    hand = parse_cards(BIG_HAND)
    nodes = []
    for same_suit_sets in (False, True):
        rules = load_rules("dansk", contracts=["SS", "RRRR"], deal=[10, 16], jokers_total=10,
                           set_same_suit=same_suit_sets, run_same_suit=False)
        cover = WholeHandCover(hand, rules, rules.contract(2), 0, True)
        assert list(cover.solve()) == []
        assert not cover.exhausted
        nodes.append(cover.nodes)
    assert nodes[1] == nodes[0]


def test_a_search_past_its_bound_gives_no_suggestion_but_the_player_may_lay_down(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from liverpool import LayDown
    from liverpool.solver.cover import WholeHandCover

    rules = load_rules("liverpool")
    hand = parse_cards("3H 4H 5H 6H 9C TC JC QC KC 5S 6S 7S 8S")
    found = find_lay_down(hand, rules, 7)
    assert found is not None
    monkeypatch.setattr(WholeHandCover, "max_nodes", 2)
    cover = WholeHandCover(hand, rules, rules.contract(7), 0, True)
    assert list(cover.solve()) == []
    assert cover.exhausted
    assert find_lay_down(hand, rules, 7) is None
    game = build("liverpool", 3, hands=[format_cards(hand), "4C KS 9D", "3D KH 2C"],
                 stock="AS 2S 3S", discards="QD", round=7, phase="play", turn_player=0)
    assert not any(isinstance(a, LayDown) for a in game.legal_actions())
    game.apply(LayDown(tuple(found)))  # named in full, the lay-down is checked and taken
    assert game.is_over
    assert game.results().round_scores[-1][0] == 0
