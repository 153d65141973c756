"""The finite action space (liverpool.action_space): property tests on random
games of every preset (and variants that open the Shanghai call, the cut and
joker swaps in sets).

Checked at every step of random play: the legal mask is exactly the set of the
encoded legal actions (``legal_actions()`` and ``staging_actions()``, and the
answers of every seat of an open window); encodings are distinct and
``decode(encode(a)) == a``. At lay-down positions: every lay-down that
``lay_downs()`` yields (a few per position) is reached by staging steps each
marked legal in the mask, a step is taken back with ``Unstage``, and the commit
puts exactly those melds on the table.
"""

from __future__ import annotations

import doctest
import itertools
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from liverpool import (
    ActionError,
    ActionSpace,
    Buy,
    Call,
    Card,
    CommitLayDown,
    Cut,
    Discard,
    Draw,
    Game,
    LayDown,
    LayOff,
    Meld,
    Pass,
    Stage,
    SwapJoker,
    Unstage,
    load_rules,
)
from liverpool.actions import Action
from liverpool.events import LaidDown
from liverpool.rules import Rules, RulesError

VARIANTS: dict[str, Rules] = {
    "liverpool": load_rules("liverpool"),
    "london": load_rules("london"),
    "dansk": load_rules("dansk"),
    "remi": load_rules("remi"),
    # variants that open the sections no preset uses
    "remi+shanghai+cut": load_rules("remi", discard_call="shanghai", liverpool_cut=True,
                                    contract_exact=False),
    "liverpool+wrap": load_rules("liverpool", run_wrap="always", lay_off_same_turn=True),
}
SPACES: dict[tuple[str, int], ActionSpace] = {}


def space_for(name: str, players: int) -> ActionSpace:
    key = (name, players)
    if key not in SPACES:
        SPACES[key] = ActionSpace(VARIANTS[name], players)
    return SPACES[key]


def players_of(name: str, k: int) -> int:
    lo, hi = VARIANTS[name].players
    return lo + k % (hi - lo + 1)


# ------------------------------------------------------------------ checks
def all_legal(game: Game, seat: int | None = None) -> list[Action]:
    legal = game.legal_actions(seat)
    if seat is None or seat == game.to_move:
        legal += game.staging_actions()
    return legal


def check_mask(space: ActionSpace, game: Game) -> None:
    """The mask of every seat that may act equals its encoded legal actions."""
    seats: list[int | None] = [None, *game.answering]
    for seat in seats:
        legal = all_legal(game, seat)
        codes = [space.encode(a, game) for a in legal]
        assert len(set(codes)) == len(codes), "two legal actions share an index"
        mask = space.legal_mask(game, seat)
        assert len(mask) == space.size
        assert {i for i, v in enumerate(mask) if v} == set(codes)
        assert sorted(space.legal_indices(game, seat)) == sorted(codes)
        for a, i in zip(legal, codes, strict=True):
            assert 0 <= i < space.size
            assert space.decode(i, game) == a
            assert space.describe(i)


def melds_into_slots(code: str, melds: tuple[Meld, ...]) -> list[Meld]:
    """The lay-down's melds in the contract's slot order (sets, then runs)."""
    sets = [m for m in melds if m.kind == "set"]
    runs = [m for m in melds if m.kind == "run"]
    assert len(sets) == code.count("S")
    assert len(runs) == code.count("R")
    return sets + runs


def stage_steps(code: str, lay_down: LayDown) -> list[Action]:
    steps: list[Action] = []
    for slot, meld in enumerate(melds_into_slots(code, lay_down.melds)):
        end = None if code[slot] == "S" else "high"
        steps += [Stage(c, slot, end) for c in meld.cards]
    return steps


def same_meld(a: Meld, b: Meld) -> bool:
    if a.kind == "set":
        return a.kind == b.kind and sorted(a.cards) == sorted(b.cards) and a.rank == b.rank
    return a == b


def check_builds(space: ActionSpace, game: Game, lay_down: LayDown) -> None:
    """Build ``lay_down`` with staging steps found through the mask, taking one
    back on the way; the commit lays exactly its melds down."""
    g = game.copy()
    code = g.rules.contract(g.round).code
    seat = g.turn_player
    hand_before = sorted(g.hand(seat))
    table_before = len(g.table)
    steps = stage_steps(code, lay_down)
    for k, step in enumerate(steps):
        index = space.encode(step, g)
        mask = space.legal_mask(g)
        assert mask[index], f"step {step} of {lay_down.describe()} is not in the mask"
        assert space.decode(index, g) == step
        if k == len(steps) // 2:  # take one back, and check nothing else changed
            staged = g.staged
            g.apply(space.decode(index, g))
            undo = space.encode(Unstage())
            assert space.legal_mask(g)[undo]
            g.apply(space.decode(undo, g))
            assert g.staged == staged
            assert space.legal_mask(g) == mask
        g.apply(space.decode(index, g))
    commit = space.encode(CommitLayDown())
    assert space.legal_mask(g)[commit], f"{lay_down.describe()} staged cannot be committed"
    check_mask(space, g)
    events = g.apply(space.decode(commit, g))
    # (the table as the lay-down left it: going out may have ended the round)
    down = [e for e in events if isinstance(e, LaidDown)]
    assert len(down) == 1
    assert down[0].seat == seat
    assert down[0].first == table_before
    laid = list(down[0].melds)
    if g.round == game.round and not g.is_over:
        assert g.table[table_before:table_before + len(laid)] == laid
    want = melds_into_slots(code, lay_down.melds)
    shown = ([str(m) for m in laid], [str(m) for m in want])
    assert len(laid) == len(want), shown
    assert all(same_meld(a, b) for a, b in zip(laid, want, strict=True)), shown
    left = list(hand_before)
    for m in want:
        for c in m.cards:
            left.remove(c)
    if left:  # (an emptied hand may end the round, or pass the turn on)
        assert g.laid_down[seat]
        assert sorted(g.hand(seat)) == sorted(left)


# ------------------------------------------------------------------ play
def choose(rng: random.Random, space: ActionSpace, game: Game) -> tuple[Action, int | None]:
    """Random play through the action space, biased so that rounds end; now and
    then a seat of an open window that is not first answers."""
    answering = game.answering
    if len(answering) > 1 and rng.random() < 0.3:
        seat = rng.choice(answering[1:])
        options = space.legal_indices(game, seat)
        pick = rng.choice(options)
        action = space.decode(pick, game)
        if isinstance(action, Buy) and rng.random() < 0.8:
            action = Pass()
        return action, seat
    legal = game.legal_actions()
    downs = [a for a in legal if isinstance(a, LayDown)]
    if downs and rng.random() < 0.8:
        return downs[0], None
    if game.phase == "play" and not game.laid_down[game.turn_player] and rng.random() < 0.3:
        staging = game.staging_actions()
        if staging:
            return rng.choice(staging), None
    offs = [a for a in legal if isinstance(a, LayOff | SwapJoker)]
    if offs and rng.random() < 0.7:
        return rng.choice(offs), None
    if game.phase == "buy":
        return (Buy() if rng.random() < 0.1 else Pass()), None
    if game.phase == "call":
        return (rng.choice(legal) if rng.random() < 0.5 else Pass()), None
    return space.decode(rng.choice(space.legal_indices(game)), game), None


def play(name: str, players: int, seed: int, steps: int, lay_downs_per_position: int) -> int:
    space = space_for(name, players)
    game = Game(VARIANTS[name], players=players, seed=seed)
    rng = random.Random(seed)
    built = 0
    for _ in range(steps):
        if game.is_over:
            break
        check_mask(space, game)
        if (game.phase == "play" and not game.laid_down[game.turn_player]
                and not game.staged):
            for lay_down in itertools.islice(game.lay_downs(), lay_downs_per_position):
                check_builds(space, game, lay_down)
                built += 1
        action, seat = choose(rng, space, game)
        game.apply(action, seat)
    return built


SETTINGS = settings(max_examples=4, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=3, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", list(VARIANTS))
@SETTINGS
@given(k=st.integers(0, 5), seed=st.integers(0, 10_000))
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
@pytest.mark.slow
def test_random_games_quick(name: str, k: int, seed: int) -> None:
    play(name, players_of(name, k), seed, steps=120, lay_downs_per_position=1)


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
@pytest.mark.parametrize("name", list(VARIANTS))
@SLOW
@given(k=st.integers(0, 5), seed=st.integers(0, 10**9))
def test_random_games(name: str, k: int, seed: int) -> None:
    play(name, players_of(name, k), seed, steps=2000, lay_downs_per_position=3)


@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
@pytest.mark.slow
def test_every_preset_builds_lay_downs() -> None:
    """The quick runs really reach lay-down positions and build lay-downs."""
    for name in VARIANTS:
        assert play(name, players_of(name, 1), 1, 250, 1) > 0, name


# ------------------------------------------------------------------ layout
def test_sizes_are_fixed_and_sections_tile() -> None:
    sizes = {}
    for name, rules in VARIANTS.items():
        lo, hi = rules.players
        for n in range(lo, hi + 1):
            space = ActionSpace(rules, n)
            assert ActionSpace(rules, n).size == space.size
            start = 0
            for r in space.sections.values():
                assert r.start == start
                start = r.stop
            assert start == space.size
            sizes[name, n] = space.size
    assert sizes["liverpool", 4] == 11182
    assert sizes["london", 4] == 2445
    assert sizes["dansk", 4] == 3241
    assert sizes["remi", 4] == 11181


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_index_decodes_and_encodes_back(name: str) -> None:
    space = space_for(name, players_of(name, 1))
    for i in range(space.size):
        if space.section(i) == "suggest":
            continue
        action = space.decode(i)
        assert space.encode(action) == i, (i, action)
        assert space.describe(i)


def test_describe() -> None:
    space = ActionSpace(VARIANTS["remi+shanghai+cut"], 4)
    nine = Card.parse("9H")
    seven = Card.parse("7S")
    assert space.describe(space.encode(Discard(nine))) == "discard 9H"
    assert space.describe(space.encode(Discard(nine, True))) == 'discard 9H saying "Shanghai!"'
    assert space.describe(space.encode(LayOff(seven, 2, "high"))) == (
        "lay off 7S on meld 3 at the high end")
    assert space.describe(space.encode(LayOff(seven, 2))) == "lay off 7S on meld 3"
    assert space.describe(space.encode(SwapJoker(seven, 0, 3))) == (
        "swap 7S for the wild card at position 4 of meld 1")
    assert space.describe(space.encode(Call(4, "low"))) == (
        "call and lay the card on meld 5 at the low end")
    assert space.describe(space.encode(Cut(17))) == "cut 17 cards"
    assert space.describe(space.encode(Draw("discard"))) == "take the discard"
    assert space.describe(space.sections["suggest"].start) == "lay down the engine's suggestion"
    assert space.section(space.encode(Stage(seven, 1, "low"))) == "stage"


def test_outside_the_space() -> None:
    rules = VARIANTS["liverpool"]
    space = ActionSpace(rules, 4)
    seven = Card.parse("7S")
    m = space.max_table_melds
    for action in (LayOff(seven, m), LayOff(seven, -1), SwapJoker(seven, 0, space.max_meld_length),
                   SwapJoker(Card.parse("*"), 0, 0), Stage(seven, space.max_contract_melds),
                   Discard(seven, announce=True), Call(0, "low"), Cut(5)):
        with pytest.raises(ActionError) as e:
            space.encode(action)
        assert e.value.code == "not_in_action_space"
    london = ActionSpace(VARIANTS["london"], 4)
    with pytest.raises(ActionError):
        london.encode(SwapJoker(seven, 0, 0))  # no swaps in london
    cut = ActionSpace(VARIANTS["remi+shanghai+cut"], 4)
    assert cut.decode(cut.encode(Cut(cut.deck_size - 1))) == Cut(cut.deck_size - 1)
    with pytest.raises(ActionError):
        cut.encode(Cut(cut.deck_size))
    with pytest.raises(ActionError) as e:
        space.decode(space.size)
    assert e.value.code == "no_such_action_index"
    game = Game(rules, players=4, seed=7)
    with pytest.raises(ActionError) as e:
        space.decode(space.sections["suggest"].start, game)
    assert e.value.code == "no_suggestion"
    with pytest.raises(ValueError, match="is not the action space of this game"):
        space.legal_mask(Game(rules, players=3, seed=7))
    with pytest.raises(RulesError):
        ActionSpace(rules, 9)


def test_lay_downs_other_than_the_suggestion_have_no_index() -> None:
    rules = VARIANTS["liverpool"]
    space = ActionSpace(rules, 4)
    for seed in range(40):
        game = Game(rules, players=4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.round == 1:
            suggestion = game.suggest_lay_down()
            if suggestion is not None:
                assert space.decode(space.encode(suggestion, game), game) == suggestion
                for other in itertools.islice(game.lay_downs(), 5):
                    if other != suggestion:
                        with pytest.raises(ActionError):
                            space.encode(other, game)
                return
            action, seat = choose(rng, space, game)
            game.apply(action, seat)
    pytest.fail("no lay-down found")


def test_legal_mask_is_fast() -> None:
    """legal_mask costs little beside the engine's own legal actions."""
    rules = VARIANTS["liverpool"]
    space = ActionSpace(rules, 4)
    game = Game(rules, players=4, seed=3)
    rng = random.Random(3)
    games = []
    while not game.is_over and len(games) < 300:
        games.append(game.copy())
        action, seat = choose(rng, space, game)
        game.apply(action, seat)
    for g in games:  # warm the engine's caches of legal actions
        g.legal_actions()
    start = time.perf_counter()
    for g in games:
        space.legal_mask(g)
    per_call = (time.perf_counter() - start) / len(games)
    assert per_call < 0.005, per_call


def test_the_worked_example_of_the_doc() -> None:
    """docs/action_space.md: its examples run as written."""
    path = Path(__file__).resolve().parent.parent / "docs" / "action_space.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10
    assert result.failed == 0
