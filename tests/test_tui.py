"""The terminal game (``liverpool play``), driven by scripted input instead of a person."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from io import StringIO
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from liverpool import (
    Action,
    Buy,
    Call,
    Card,
    Cut,
    Discard,
    Draw,
    Game,
    LayDown,
    LayOff,
    Pass,
    Rules,
    SeatView,
    SwapJoker,
    find_contract,
    format_cards,
    i18n,
    load_rules,
    parse_cards,
)
from liverpool.bots import make_bot
from liverpool.cards import make_deck
from liverpool.cli import main
from liverpool.tui import TerminalGame, run_game
from liverpool.tui.i18n import _TEXTS, command_name, tr
from liverpool.tui.output import HELP_ROWS


# --------------------------------------------------------------------------- helpers
@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved games go to a folder of the test, never to the user's data folder."""
    folder = tmp_path / "saves"
    monkeypatch.setenv("LIVERPOOL_RUMMY_SAVES", str(folder))
    return folder


class GreedyBot:
    """A quick stand-in opponent: lays down and off when it can, keeps the cards
    that work with others, never buys."""

    def __init__(self, rules: Rules, seed: int = 0) -> None:
        self.name = "greedy"
        self.rules = rules
        self.rng = random.Random(seed)

    def choose(self, view: SeatView, legal: Sequence[Action]) -> Action:
        for kind in (LayDown, LayOff):
            for a in legal:
                if isinstance(a, kind):
                    return a
        if Pass() in legal:
            return Pass()
        if isinstance(legal[0], Cut):
            return legal[len(legal) // 2]
        if Draw("stock") in legal:
            top = view.top_discard
            if (top is not None and Draw("discard") in legal
                    and _use(top, list(view.hand), self.rules, view) >= 2):
                return Draw("discard")
            return Draw("stock")
        if Draw("discard") in legal:
            return Draw("discard")
        return _worst_discard(view, legal, self.rules)


def _use(card: Card, hand: list[Card], rules: Rules, view: SeatView) -> int:
    """How well ``card`` works with the rest of ``hand`` for this round's contract."""
    if rules.is_wild(card):
        return 99
    same_rank = sum(1 for c in hand if c is not card and c.rank == card.rank)
    near = len({c.rank for c in hand if c.suit == card.suit and 0 < abs(c.rank - card.rank) <= 3})
    return (2 * same_rank if view.contract.sets else 0) + (near if view.contract.runs else 0)


def _worst_discard(view: SeatView, legal: Sequence[Action], rules: Rules) -> Action:
    hand = list(view.hand)
    discards = [a for a in legal if isinstance(a, Discard) and not a.announce]
    if not discards:
        return legal[-1]
    return min(discards, key=lambda a: (_use(a.card, hand, rules, view), -rules.card_points(a.card)))


def make_console(width: int = 110) -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, width=width, color_system=None, highlight=False), out


_ENDS = {"en": {"low": "low", "high": "high"}, "nb": {"low": "lav", "high": "høy"},
         "da": {"low": "lav", "high": "høj"}}


def command_for(action: Action, rng: random.Random, lang: str = "en") -> list[str]:
    """What a person types for ``action`` (with the command words of ``lang``)."""
    def word(command: str) -> str:
        return command_name(lang, command)

    def end(e: str | None) -> str:
        return f" {_ENDS[lang][e]}" if e else ""

    if isinstance(action, Draw):
        if action.source == "stock":
            return [rng.choice(["d", word("draw")])]
        return [rng.choice(["t", word("take")])]
    if isinstance(action, Buy):
        return ["b"]
    if isinstance(action, Pass):
        return ["p"]
    if isinstance(action, LayDown):
        if rng.random() < 0.5:
            return ["s", word("lay")]
        return [word("lay") + " " + " | ".join(format_cards(m.cards) for m in action.melds)]
    if isinstance(action, LayOff):
        return [f"{word('off')} {action.card} {action.meld + 1}{end(action.end)}"]
    if isinstance(action, SwapJoker):
        return [f"{word('swap')} {action.card} {action.meld + 1}"]
    if isinstance(action, Discard):
        return [f"x {action.card}" + (" !" if action.announce else "")]
    if isinstance(action, Call):
        return ["c" if action.meld < 0 else f"c {action.meld + 1}{end(action.end)}"]
    assert isinstance(action, Cut)
    return [f"{word('cut')} {action.count}"]


class ScriptedPerson:
    """Reads the legal actions of the game it plays in and types a command for one of them."""

    def __init__(self, seed: int, lang: str = "en") -> None:
        self.rng = random.Random(seed)
        self.lang = lang
        self.app: TerminalGame | None = None
        self.pending: list[str] = []
        self.intended: list[tuple[int, Action]] = []
        self.prompts: Counter[str] = Counter()
        self.typed: Counter[str] = Counter()

    def __call__(self, prompt: str) -> str:
        assert self.app is not None
        game = self.app.game
        lang = self.lang
        self.prompts[prompt] += 1
        if prompt == tr(lang, "prompt_continue"):
            self.prompts["continue"] += 1
            return ""
        if prompt.startswith(tr(lang, "prompt_choose", n=0)[:5]):
            return self.choose()
        if prompt.startswith(tr(lang, "prompt_end", meld="")[:8]):
            return _ENDS[lang]["high"]
        if self.pending:
            return self.pending.pop(0)
        assert game.to_move == self.app.seat
        legal = game.legal_actions()
        action = self.pick(legal)
        self.intended.append((len(game.history), action))
        words = command_for(action, self.rng, self.lang)
        self.typed[words[0].split()[0]] += 1
        self.pending = words[1:]
        return words[0]

    def choose(self) -> str:
        """The option of the app's question that the person means (the joker's place)."""
        assert self.app is not None
        meant = self.intended[-1][1] if self.intended else None
        if isinstance(meant, LayDown):
            for meld in meant.melds:
                words = self.app.meld_words(meld)
                if words in self.app.choices:
                    return str(self.app.choices.index(words) + 1)
        return "1"

    def pick(self, legal: list[Action]) -> Action:
        rng = self.rng
        for kind, chance in ((LayDown, 1.0), (LayOff, 0.8), (SwapJoker, 0.8), (Call, 0.5),
                             (Buy, 0.2)):
            options = [a for a in legal if isinstance(a, kind)]
            if options and rng.random() < chance:
                return rng.choice(options)
        if Pass() in legal:
            return Pass()
        if isinstance(legal[0], Cut):
            return rng.choice(legal)
        draws = [a for a in legal if isinstance(a, Draw)]
        if draws:
            return rng.choice(draws)
        announced = [a for a in legal if isinstance(a, Discard) and a.announce]
        if announced and rng.random() < 0.5:
            return rng.choice(announced)
        return _worst_discard(self.app.game.view(self.app.seat), legal, self.app.rules)  # type: ignore[union-attr]


def scripted_app(rules: Rules, players: int = 3, seat: int = 0, seed: int = 1,
                 answers: Sequence[str] | None = None, **options: object
                 ) -> tuple[TerminalGame, StringIO, Callable[[str], str]]:
    """A game whose person types ``answers`` (then ends the input)."""
    console, out = make_console()
    it: Iterator[str] = iter(answers or [])

    def fn(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    bots = {s: GreedyBot(rules, seed + s) for s in range(players) if s != seat}
    options.setdefault("symbols", False)
    app = TerminalGame(rules, players, seat, bots, seed, fn, console, echo=True,
                       **options)  # type: ignore[arg-type]
    return app, out, fn


SHORT = {"contracts": ["SS", "SR"], "deal": [10, 10]}


# ------------------------------------------------------------------ whole games
# The stand-in bots are weak at runs, so a short max_turns_per_round (the
# rules' own safeguard) ends a stuck round without a winner and keeps tests quick.
QUICK = {"max_turns_per_round": 36}
GAMES = [
    ("liverpool", QUICK, 4, 0),
    ("london", QUICK, 3, 1),
    ("dansk", QUICK, 3, 2),
    ("remi", QUICK, 4, 3),
    ("remi", {**QUICK, "discard_call": "shanghai", "liverpool_cut": True}, 3, 0),
]


_PLAYED: dict[int, tuple[TerminalGame, ScriptedPerson, str]] = {}


def play_scripted(index: int) -> tuple[TerminalGame, ScriptedPerson, str]:
    """Game ``index`` of GAMES, played once by the scripted person (cached)."""
    if index not in _PLAYED:
        preset, overrides, players, seat = GAMES[index]
        rules = load_rules(preset, **overrides)
        person = ScriptedPerson(seed=players + seat)
        console, out = make_console()
        bots = {s: GreedyBot(rules, s) for s in range(players) if s != seat}
        app = TerminalGame(rules, players, seat, bots, 11, person, console, echo=True)
        person.app = app
        app.run()
        _PLAYED[index] = (app, person, out.getvalue())
    return _PLAYED[index]


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(GAMES)), ids=[g[0] for g in GAMES])
def test_whole_game_by_keyboard(index: int) -> None:
    app, person, text = play_scripted(index)
    rules = app.rules
    results = app.game.results()
    assert app.game.is_over
    assert len(results.round_scores) == rules.num_rounds
    # every command typed did exactly what the person meant
    assert person.intended
    for i, action in person.intended:
        done = app.game.history[i]
        if isinstance(action, SwapJoker):  # any wild of the meld that the card replaces
            assert isinstance(done, SwapJoker)
            assert (done.card, done.meld) == (action.card,
                                                                              action.meld)
        else:
            assert done == action
    # a score sheet after each round, a pause between rounds, the winner at the end
    assert text.count("Score sheet") == rules.num_rounds
    assert person.prompts["continue"] == rules.num_rounds - 1
    assert "Winner: " in text or "Shared win: " in text
    assert "Traceback" not in text
    assert "Not allowed" not in text
    assert "Your hand (" in text
    assert "Contract: " in text
    assert "Discard pile: " in text
    assert text.count("Final totals") == 1


@pytest.mark.slow
def test_scripted_games_use_every_kind_of_command() -> None:
    typed: Counter[str] = Counter()
    for index in range(len(GAMES)):
        typed.update(play_scripted(index)[1].typed)
    for word in ("off", "x", "p", "lay", "s", "cut", "swap", "b"):
        assert typed[word] > 0, typed
    assert typed["d"] + typed["draw"] > 0
    assert typed["t"] + typed["take"] > 0


# ---------------------------------------------------------------- refusals
def test_malformed_card_is_refused_and_changes_nothing() -> None:
    rules = load_rules("liverpool")
    states: list[str] = []
    console, out = make_console()
    answers = iter(["x 9X", "x 11H", "lay 9H 9S | 5Q", "off", "quit", "y"])
    game_ref: list[TerminalGame] = []

    def fn(prompt: str) -> str:
        states.append(game_ref[0].game.state_key())
        return next(answers)

    app = TerminalGame(rules, 3, 0, {1: GreedyBot(rules), 2: GreedyBot(rules)}, 4, fn, console)
    game_ref.append(app)
    assert app.run() is None
    text = out.getvalue()
    assert "'9X' is not a card: the suit must be one of S H D C" in text
    assert "'11H' is not a card: the rank must be one of A 2 3 4 5 6 7 8 9 T J Q K" in text
    assert "'5Q' is not a card" in text
    assert "say the card and the meld number" in text
    assert len(set(states)) == 1
    assert app.game.history == []
    assert "Traceback" not in text


def test_illegal_moves_are_refused_with_the_reason() -> None:
    rules = load_rules("liverpool")
    app, out, _ = scripted_app(rules, answers=[
        "x KS", "b", "lay 9H 9S 9D | 5C 6C 7C", "off 9H 1", "c", "cut 5", "frobnicate", "",
        "d extra"])
    before = app.game.state_key()
    assert app.run() is None
    text = out.getvalue()
    assert app.game.state_key() == before
    assert app.game.history == []
    assert "Not allowed: you cannot discard KS now: Seat 1 (you) must draw from the stock or " \
           "take the discard" in text
    assert "Not allowed: you cannot buy the discard now" in text
    assert "there are no melds on the table yet" in text
    assert "you cannot call the discard now" in text
    assert "you cannot cut 5 cards now" in text
    assert "unknown command 'frobnicate'; type help for the commands" in text
    assert "type a command (help lists them)" in text
    assert "too many words: extra" in text
    assert "Game abandoned." in text


def _lay_down_seed(rules: Rules, players: int) -> tuple[int, list[list[str]]]:
    """A seed where seat 1's hand plus the upcard makes round 1's contract."""
    for seed in range(500):
        game = Game(rules, players, seed)
        hand = game.hand(0) + [game.discards[-1]]
        found = find_contract(hand, rules, 1)
        if found is not None:
            return seed, [[str(c) for c in m] for m in found]
    raise AssertionError("no seed found")


def test_lay_down_with_typed_melds() -> None:
    rules = load_rules("liverpool", **SHORT)
    seed, melds = _lay_down_seed(rules, 3)
    typed = " | ".join(" ".join(m) for m in melds)
    wrong = " ".join(melds[0])  # one set is not the contract
    app, out, _ = scripted_app(rules, seed=seed, answers=["t", f"lay {wrong}", f"lay {typed}"])
    app.run()
    text = out.getvalue()
    assert "the contract of round 1 is 2 sets, not 1 set" in text
    assert app.game.laid_down[0] or app.game.round > 1
    assert any(isinstance(a, LayDown) for a in app.game.history)
    lay = next(a for a in app.game.history if isinstance(a, LayDown))
    assert sorted(sorted(map(str, m.cards)) for m in lay.melds) == sorted(
        sorted(m) for m in melds)


def test_lay_down_of_cards_not_in_hand_is_refused() -> None:
    rules = load_rules("liverpool", **SHORT)
    seed, _ = _lay_down_seed(rules, 3)
    hand = Game(rules, 3, seed).hand(0)
    missing = next(r for r in "A23456789TJQK" if not any(str(c)[0] == r for c in hand))
    app, out, _ = scripted_app(rules, seed=seed, answers=[
        "t", f"lay {missing}H {missing}S {missing}D | {missing}C {missing}C {missing}C"])
    app.run()
    assert re.search(f"you do not have {missing}[SHDC] in your hand", out.getvalue())
    assert not app.game.laid_down[0]


def test_suggest_then_lay() -> None:
    rules = load_rules("liverpool", **SHORT)
    seed, _ = _lay_down_seed(rules, 3)
    app, out, _ = scripted_app(rules, seed=seed, answers=["lay", "t", "s", "lay"])
    app.run()
    text = out.getvalue()
    assert "Suggested lay-down: " in text
    assert "Type lay (or l) to lay it down." in text
    assert "type the melds, e.g. lay 9H 9S 9D | 5C 6C 7C 8C (or suggest)" in text
    suggested = re.search(r"Suggested lay-down: (.*)\. Type lay", text)
    assert suggested is not None
    lay = next(a for a in app.game.history if isinstance(a, LayDown))
    assert suggested.group(1).replace("♠", "S").replace("♥", "H").replace("♦", "D").replace(
        "♣", "C") == " | ".join(format_cards(m.cards) for m in lay.melds)


def test_suggest_without_a_lay_down_says_so() -> None:
    rules = load_rules("liverpool")
    for seed in range(100):
        game = Game(rules, 3, seed)
        if find_contract(game.hand(0) + [game.discards[-1]], rules, 1) is None:
            break
    app, out, _ = scripted_app(rules, seed=seed, answers=["s", "t", "s"])
    app.run()
    text = out.getvalue()
    assert "suggest works in your turn, after drawing" in text
    assert "your hand does not make the contract (2 sets) yet" in text


def test_wild_at_either_end_of_a_run_asks_where() -> None:
    rules = load_rules("liverpool")
    app, out, _ = scripted_app(rules, answers=["2", "1"], symbols=True)
    meld = app._arrange(parse_cards("7H 5H * 6H"))
    assert format_cards(meld.cards) == "5H 6H 7H *"
    text = out.getvalue()
    assert "can lie in more than one way" in text
    assert "(4♥..7♥)" in text
    assert "(5♥..8♥)" in text
    # typed in order, the joker last: still asked (item 13 of issue 12)
    assert format_cards(app._arrange(parse_cards("5H 6H 7H *")).cards) == "* 5H 6H 7H"
    assert text.count("can lie in more than one way") == 1
    assert out.getvalue().count("can lie in more than one way") == 2


@pytest.mark.parametrize(("cards", "reason"), [
    ("QD * *", "a set must hold at least 2 natural cards"),
    ("5H 6H * * 9H", "two wild cards may not lie side by side in a run"),
    ("5H 6S 7H 8H", "a set is cards of one rank, a run consecutive cards of one suit"),
    ("5H 9H", "a set needs at least 3 cards"),
])
def test_why_typed_cards_are_no_meld(cards: str, reason: str) -> None:
    app, _, _ = scripted_app(load_rules("liverpool"))
    with pytest.raises(Exception, match=re.escape(reason)):
        app._arrange(parse_cards(cards))


def set_state(app: TerminalGame, **state: object) -> None:
    """Put the app's game into a hand-made position (a test of the UI, not of the engine):
    the cards not in the hands, the discard pile or on the table make the stock."""
    data = app.game.to_json()
    s = data["state"]
    s.update(state)
    if "discarders" not in state:
        s["discarders"] = [-1] * len(s["discards"])
    n = app.game.num_players
    deck = Counter(str(c) for c in make_deck(app.rules.decks_for(n), app.rules.jokers_for(n)))
    used = Counter(c for hand in s["hands"] for c in hand) + Counter(s["discards"]) + Counter(
        c for m in s["table"] for c in m["cards"])
    s["stock"] = sorted((deck - used).elements())
    app.game = Game.from_json(data)


RUN = {"kind": "run", "cards": ["5H", "6H", "*", "8H"], "rank": 5, "suit": 1}
OTHER_HANDS = (["2C", "3C", "4C", "5C", "6C", "7C", "8C", "2D"],
               ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "3D"])
SET = {"kind": "set", "cards": ["9S", "9D", "9C"], "rank": 9, "suit": -1}


def typed_with_symbols(rules: Rules, answers: Sequence[str], hand: list[str],
                       **state: object) -> tuple[TerminalGame, str]:
    """Seat 0 holds ``hand`` (the others :data:`OTHER_HANDS` and two cards more) and
    types ``answers`` with suit symbols on: the app and what the screen showed."""
    app, out, _ = scripted_app(rules, answers=answers, symbols=True)
    set_state(app, hands=[hand, OTHER_HANDS[0] + ["2H", "3H"], OTHER_HANDS[1] + ["4S", "5S"]],
              **state)
    app.run()
    return app, out.getvalue()


def test_lay_off_and_swap_commands() -> None:
    rules = load_rules("liverpool", **SHORT)
    app, out, _ = scripted_app(rules, answers=[
        "off 4H", "off 9H 3", "off KS 2", "swap 7H 1", "off 9D 2", "off * 1", "low",
        "hand", "x KS"], symbols=False)
    set_state(app, hands=[["4H", "7H", "9D", "KS", "KS"], OTHER_HANDS[0], OTHER_HANDS[1]],
              table=[RUN, SET], owners=[1, 1], down=[True, True, False],
              down_turn=[1, 1, -1], phase="play", turn_player=0, turn_number=4)
    app.run()
    text = out.getvalue()
    history = app.game.history
    assert history[:5] == [LayOff(parse_cards("4H")[0], 0, "low"),
                           SwapJoker(parse_cards("7H")[0], 0, 3),
                           LayOff(parse_cards("9D")[0], 1),
                           LayOff(parse_cards("*")[0], 0, "low"),
                           Discard(parse_cards("KS")[0])]
    assert "there is no meld 3 on the table (the melds are numbered 1-2)" in text
    assert "KS does not fit on 9S 9D 9C" in text  # (said by the reader: it never fits there)
    assert "At which end of 4H 5H 6H 7H 8H: low or high?" in text
    assert "Seat 1 (you) puts 7H in place of * in meld 1 and takes *: 4H 5H 6H 7H 8H." in text
    assert "Seat 1 (you) lays * off on meld 1: * 4H 5H 6H 7H 8H." in text


def test_call_command() -> None:
    rules = load_rules("liverpool", **SHORT)
    app, out, _ = scripted_app(rules, seat=2, answers=["x 9C", "c"], symbols=False)
    set_state(app, hands=[OTHER_HANDS[0], OTHER_HANDS[1], ["4H", "5D", "6S", "7C", "8H", "9C",
                                                          "TD", "JS"]],
              table=[SET], owners=[1], down=[False, True, False], down_turn=[-1, 1, -1],
              phase="call", turn_player=1, turn_number=4, queue=[2, 0], call_card="9H",
              discards=[*map(str, app.game.discards), "9H"],
              discarders=[-1] * len(app.game.discards) + [1])
    app.run()
    text = out.getvalue()
    assert 'could have been laid off: c = call "Liverpool!", p = pass' in text
    assert "Not allowed: you cannot discard 9C now: Seat 3 (you) may call the discard or pass" \
        in text
    assert app.game.history[0] == Call()
    assert 'Seat 3 (you) calls "Liverpool!" on 9H: Greedy 2 takes it back.' in text
    assert "Greedy 2 draws a penalty card from the stock." in text


def test_meld_numbers_and_swap_usage_are_checked() -> None:
    rules = load_rules("liverpool", **SHORT)
    app, out, _ = scripted_app(rules, answers=["off 9H 7", "swap 9H x", "swap 9H"])
    app.run()
    text = out.getvalue()
    assert "there are no melds on the table yet" in text
    assert "'x' is not a number" in text
    assert "say your card and the meld number, e.g. swap 7H 3" in text


def test_shanghai_announcement_needs_the_shanghai_rules() -> None:
    app, out, _ = scripted_app(load_rules("liverpool"), answers=["d", "x KS !"])
    app.run()
    assert "belongs to the Shanghai call, which these rules do not use" in out.getvalue()


# ---------------------------------------------------------- screens, sheets
@pytest.mark.slow
def test_screen_shows_everything_the_player_may_know() -> None:
    rules = load_rules("liverpool")
    app, out, _ = scripted_app(rules, players=4, answers=["d", "sort", "hand", "table", "score"],
                               symbols=False)
    app.run()
    text = out.getvalue()
    assert "Round 1 of 7" in text
    assert "Contract: 2 sets" in text
    assert "Dealer: Greedy 4" in text
    for seat in (1, 2, 3, 4):
        assert f"Seat {seat} (" in text or f"Greedy {seat}" in text
    assert "Buys" in text
    assert "0/3" in text
    assert "Laid down" in text
    assert "Discard pile: " in text
    assert "Stock: " in text
    assert "Your hand (10, by suit)" in text
    assert "Your hand (11, by rank)" in text
    assert "Your hand is now grouped by rank." in text
    drawn = app.game.history[0]
    assert drawn == Draw("stock")
    assert re.search(r"Seat 1 \(you\) draws (?:(?:10|[A2-9JQK])[SHDC]|\*) from the stock\.", text)
    assert "Score sheet" in text
    # other seats' private cards never show: the bots' stock draws carry no card
    whole = play_scripted(0)[2]
    assert re.search(r"Greedy [234] draws from the stock\.", whole)
    assert not re.search(r"Greedy [234] draws \S+ from the stock", whole)
    assert not re.search(r"Greedy [234] buys \S+ and takes 1 penalty card:", whole)


@pytest.mark.slow
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_score_sheet_after_each_round_and_final_totals() -> None:
    rules = load_rules("liverpool", **SHORT)
    person = ScriptedPerson(seed=5)
    console, out = make_console()
    app = TerminalGame(rules, 3, 1, {0: GreedyBot(rules, 0), 2: GreedyBot(rules, 2)}, 8,
                       person, console)
    person.app = app
    results = app.run()
    assert results is not None
    text = out.getvalue()
    assert text.count("Score sheet") == 2
    sheet = text[text.rindex("Score sheet"):]
    for rnd, scores in enumerate(results.round_scores, 1):
        assert re.search(rf"│\s+{rnd} │ \S.*" + r".*".join(rf"│\s+{p} " for p in scores), sheet)
    assert re.search(r"Total.*" + r".*".join(str(t) for t in results.totals), sheet)
    names = ", ".join(app.names[w] for w in results.winners)
    assert f"Winner: {names}" in text or f"Shared win: {names}" in text


def test_quit_asks_first() -> None:
    rules = load_rules("liverpool")
    app, out, _ = scripted_app(rules, answers=["quit", "n", "d", "q", "yes"])
    assert app.run() is None
    text = out.getvalue()
    assert text.count("Really quit the game? (y/n)") == 2
    assert len(app.game.history) >= 1  # the "d" after "n" was played
    assert "Game abandoned." in text


def test_end_of_input_abandons_the_game() -> None:
    app, out, _ = scripted_app(load_rules("dansk"), answers=[])
    assert app.run() is None
    assert "Game abandoned." in out.getvalue()


@pytest.mark.parametrize("lang", ["nb", "da"])
def test_other_languages(lang: str) -> None:
    rules = load_rules("liverpool")
    app, out, _ = scripted_app(rules, answers=["help", "d"], lang=lang)
    app.run()
    text = out.getvalue()
    assert "Kontrakt: 2 " + ("tress" if lang == "nb" else "sæt") in text
    assert ("Kastehaugen" if lang == "nb" else "Kastebunken") in text
    assert "Bunken" in text
    assert ("Din hånd" in text)
    assert ("kjøp" if lang == "nb" else "køb") in text


def test_every_text_is_translated() -> None:
    for key, english in _TEXTS.items():
        values = {name: "X" for name in re.findall(r"\{(\w+)", english)}
        assert tr("en", key, **values) == english.format(**values)
        for lang in ("nb", "da"):
            text = tr(lang, key, **values)
            assert text, (lang, key)
            assert "{" not in text, (lang, key)
            if key not in ("help_cmd_cut",) and any(c.isalpha() for c in english):
                assert text != english.format(**values) or english in ("Kontrakt",), (lang, key)
    assert tr("xx", "stock") == "Stock"
    assert tr("nb", "n_cards", n=1) == "1 kort"
    assert tr("en", "n_cards", n=2) == "2 cards"
    assert tr("da", "earlier", n=3) == "... 3 tidligere hændelser"


@pytest.mark.slow
def test_run_game_returns_the_results() -> None:
    rules = load_rules("liverpool", **SHORT)
    person = ScriptedPerson(seed=2)
    console, _ = make_console()
    holder: list[TerminalGame] = []

    def fn(prompt: str) -> str:
        if person.app is None:
            person.app = holder[0]
        return person(prompt)

    # run_game builds its own TerminalGame; reach it through the prompt's closure
    import liverpool.tui.app as app_module

    original = app_module.TerminalGame.__init__

    def spy(self: TerminalGame, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        holder.append(self)

    app_module.TerminalGame.__init__ = spy  # type: ignore[method-assign]
    try:
        results = run_game(rules, 3, 0, {1: GreedyBot(rules), 2: GreedyBot(rules)}, 3, fn,
                           console, pause=False)
    finally:
        app_module.TerminalGame.__init__ = original  # type: ignore[method-assign]
    assert results is not None
    assert len(results.totals) == 3
    assert person.prompts["continue"] == 0


# ------------------------------------------------------------------------ CLI
@pytest.fixture
def short_rules(tmp_path: Path) -> Path:
    path = tmp_path / "short.toml"
    path.write_text('extends = "liverpool"\nname = "short"\ncontracts = ["SS", "SR"]\n'
                    "deal = [10, 10]\nmax_turns_per_round = 60\n", encoding="utf-8")
    return path


def _blind_person_input() -> str:
    """Commands that need no look at the screen: every refusal is harmless, so
    pass, draw, try to lay down, then try to discard each card until one goes."""
    cards = [f"x {r}{s}" for s in "SHDC" for r in "A23456789TJQK"] + ["x *"]
    cycle = ["", "p", "d", "s", "lay", *cards]
    return "\n".join(cycle * 120) + "\n"


@pytest.mark.slow
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_cli_plays_a_whole_game(short_rules: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--rules", str(short_rules), "--players", "3",
                                       "--bots", "random", "--seed", "4", "--letters",
                                       "--no-clear"], input=_blind_person_input())
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "Liverpool rummy: short, 3 players, seed 4. You are Seat 1 (you)." in result.output
    assert result.output.count("Score sheet") == 2
    assert "Winner: " in result.output or "Shared win: " in result.output


def test_cli_quit(short_rules: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--rules", str(short_rules), "--seat", "2",
                                       "--bots", "random,basic", "--players", "3",
                                       "--lang", "da"], input="quit\nj\n")
    assert result.exit_code == 0, result.output
    assert "Vil du virkelig afslutte spillet?" in result.output
    assert "Spillet blev afbrudt." in result.output
    assert "Du er Plads 2 (dig)" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "nope"], "error: unknown preset 'nope'"),
    (["--players", "2"], "error: the liverpool rules are for 3 to 8 players, not 2"),
    (["--rules", "london", "--players", "7"], "error: the london rules are for 3 to 6 players"),
    (["--seat", "5"], "error: --seat must be a seat from 1 to 4, not 5"),
    (["--bots", "robot"], "error: unknown bot 'robot'"),
    (["--bots", "random,random"], "error: --bots needs one kind for all bots or 3 kinds"),
])
def test_cli_bad_options(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["play", *args], input="quit\ny\n")
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_bad_ruleset_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('extends = "liverpool"\nbuy_limit_per_round = "lots"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "--rules", str(path)])
    assert result.exit_code == 1
    assert "error: " in result.output
    assert "buy_limit_per_round" in result.output
    assert "Traceback" not in result.output


def test_cli_bad_level_and_language() -> None:
    for args in (["--level", "insane"], ["--lang", "sv"]):
        result = CliRunner().invoke(main, ["play", *args])
        assert result.exit_code == 2
        assert "Invalid value" in result.output
        assert "Traceback" not in result.output


# ------------------------------------------------- no English in nb and da
#: English words that are no Norwegian or Danish words (the card notation aside).
ENGLISH = frozenset(re.findall(r"\S+", """
the and or of is are you your draws draw discards discard takes take lays lay buys buy
bought round rounds seat seats cards card stock pile meld melds contract dealer points score
sheet wild turn player players help call calls cut cuts goes out winner wins win shared hand
table set sets run runs not allowed random easy medium basic hard greedy off swap suggest
suggested low high seed quit with from on no yes penalty continue choose which end again
nothing there this that game abandoned first since last move begins without shuffled new
into does must may can cannot now yet type command commands unknown many words too number
deals each went share puts place laid down already your rummy joker's say says lying
"""))
_NOTATION = re.compile(r"[A2-9TJQK][SHDC]|10[SHDC]")


def english_words(text: str) -> list[str]:
    """The English words of ``text`` (the card notation is no word)."""
    return sorted({w for w in re.findall(r"[A-Za-zÆØÅæøå']+", text)
                   if w.lower() in ENGLISH and not _NOTATION.fullmatch(w)})


def test_english_words_are_found() -> None:
    assert english_words("Seat 2 draws 9H from the stock.") == ["Seat", "draws", "from", "stock",
                                                                 "the"]
    assert english_words("Plass 2 kaster AS. Kastehaugen: KS") == []


_TRIES = {
    "nb": ["hjelp", "x 9X", "frob", "legg 9H", "legg", "på 9H 7", "bytt 9H", "kast", "kutt",
           "forslag", "sorter", "hånd", "bord", "poeng", "", "x KS shanghai", "x 11H"],
    "da": ["hjælp", "x 9X", "frob", "læg 9H", "læg", "til 9H 7", "byt 9H", "smid", "afløft",
           "forslag", "sortér", "hånd", "bord", "point", "", "x KS shanghai", "x 11H"],
}


@pytest.mark.parametrize("lang", ["nb", "da"])
@pytest.mark.parametrize(("preset", "overrides", "level"), [
    ("liverpool", {"contracts": ["SS", "SR", "SSS"], "deal": [10, 10, 12]}, "easy"),
    ("remi", {"contracts": ["SS", "SR"], "deal": [10, 10], "discard_call": "shanghai",
              "liverpool_cut": True, "max_turns_per_round": 40}, "medium"),
])
@pytest.mark.slow
@pytest.mark.no_cover  # every line it runs is run by other traced tests too (measured per test); traced 3-4x slower
def test_no_english_word_remains(lang: str, preset: str, overrides: dict[str, object],
                                 level: str) -> None:
    rules = load_rules(preset, **overrides)
    person = ScriptedPerson(seed=3, lang=lang)
    person.pending = list(_TRIES[lang])
    console, out = make_console()
    bots = {s: make_bot(level, rules, seed=s) for s in (1, 2, 3)}
    app = TerminalGame(rules, 4, 0, bots, 21, person, console, echo=True, lang=lang)
    person.app = app
    assert app.run() is not None
    text = out.getvalue()
    assert english_words(text) == [], text
    assert english_words("\n".join(p for p in person.prompts if p != "continue")) == []
    # the game was played, and the tries were refused in the language
    assert person.intended
    assert "Traceback" not in text
    assert text.count(tr(lang, "score_sheet")) == rules.num_rounds + 1  # + the "poeng" try
    assert f"({tr(lang, 'you')})" in text
    assert tr(lang, "seat", n=1) in text
    assert ("Lett 2" if lang == "nb" else "Let 2") in text or level != "easy"
    assert ("Middels 2" if lang == "nb" else "Mellem 2") in text or level != "medium"
    assert ("ukjent kommando 'frob'" if lang == "nb" else "ukendt kommando 'frob'") in text


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["nb", "da"])
def test_cli_game_in_another_language(lang: str, short_rules: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--rules", str(short_rules), "--players", "3",
                                       "--level", "easy", "--seed", "4", "--letters",
                                       "--no-clear", "--lang", lang],
                                input=_blind_person_input())
    assert result.exit_code == 0, result.output
    body = result.output.split("\n", 1)[1]  # after the first line, which names the file
    assert english_words(body) == []
    assert result.output.count(tr(lang, "score_sheet")) == 2


@pytest.mark.parametrize("lang", ["nb", "da"])
def test_cli_refusals_in_another_language(lang: str) -> None:
    result = CliRunner().invoke(main, ["play", "--players", "2", "--lang", lang])
    assert result.exit_code == 1
    # (the prefix in the command's language too: "feil: ", "fejl: ")
    assert result.output.startswith(i18n.gettext("error: {message}", lang).format(
        message=tr(lang, "cli_players", rules="liverpool", lo=3, hi=8, n=2)))
    result = CliRunner().invoke(main, ["play", "--bots", "robot", "--lang", lang])
    assert result.exit_code == 1
    assert tr(lang, "cli_unknown_bot", kind="'robot'", kinds="random, basic, expert, search, easy, "
              "medium, hard") in result.output


# ------------------------------------------------- issue 12: found in play
def _buy_prompt_output(rules: Rules) -> tuple[str, str]:
    """Play (drawing, discarding the first card) until a buy offer: the output then."""
    console, out = make_console()
    seen: list[str] = []

    def fn(prompt: str) -> str:
        if " is offered: b = buy" in prompt:
            seen.append(out.getvalue())
            raise EOFError
        if "Your turn" in prompt:
            return "d"
        return "x 1"

    app = TerminalGame(rules, 3, 0, {1: GreedyBot(rules, 1), 2: GreedyBot(rules, 2)}, 3, fn,
                       console)
    app.run()
    assert seen
    return seen[0], out.getvalue()


def test_1_the_log_says_who_went_to_the_stock_before_the_buy_prompt() -> None:
    before, _ = _buy_prompt_output(load_rules("liverpool"))
    last_log = before[before.rindex("Since your last move"):]
    assert re.search(r"Greedy [23] does not take the discard and will draw from the stock\.",
                     last_log)


DOWN_NOW = dict(table=[SET], owners=[0], down=[True, False, False], down_turn=[4, -1, -1],
                phase="play", turn_player=0, turn_number=4)


def test_2_and_3_lay_off_and_swap_in_the_lay_down_turn_say_the_real_reason() -> None:
    rules = load_rules("liverpool", **SHORT)
    joker_set = {"kind": "set", "cards": ["TH", "TD", "*"], "rank": 10, "suit": -1}
    app, out, _ = scripted_app(rules, answers=["s", "w T♠ 1", "off T♠ 1"], symbols=True)
    set_state(app, hands=[["TS", "4H", "KS"], OTHER_HANDS[0], OTHER_HANDS[1]],
              **{**DOWN_NOW, "table": [joker_set]})
    app.run()
    text = out.getvalue()
    # (a ten is 10♠ on the screen, as everywhere a player reads; T♠ is read too)
    assert "10♠ fits on meld 1, but not now: you can lay off from your next turn" in text
    assert "T♠ fits" not in text
    assert "10♠" in text.split("> w T♠ 1")[0]  # the hand
    assert "nothing of yours fits" not in text
    assert "Not allowed: you can swap a joker from your next turn" in text
    assert "Not allowed: you can lay off from your next turn" in text


def test_4_an_end_on_a_set_lay_off_is_accepted() -> None:
    rules = load_rules("liverpool", **SHORT)
    aces = {"kind": "set", "cards": ["AS", "AC", "*"], "rank": 1, "suit": -1}
    app, out, _ = scripted_app(rules, answers=["off * 1 high"], symbols=True)
    set_state(app, hands=[["*", "4H", "KS"], OTHER_HANDS[0], OTHER_HANDS[1]],
              **{**DOWN_NOW, "table": [aces], "down_turn": [1, -1, -1]})
    app.run()
    assert app.game.history[0] == LayOff(parse_cards("*")[0], 0)
    assert "does not fit" not in out.getvalue()


def test_5_refusals_show_cards_as_the_screen_does() -> None:
    rules = load_rules("liverpool")
    _, text = typed_with_symbols(rules, ["d", "lay 7H 3D *", "x 9X"],
                                 ["7H", "3D", "*", "KS", "2C", "5D", "6D", "7D", "8D", "9D"])
    assert "✗ 7♥ 3♦ * is neither a set nor a run" in text
    assert "✗ 7H" not in text


def test_6_long_input_is_cut_short() -> None:
    rules = load_rules("liverpool")
    app, out, _ = scripted_app(rules, answers=["x" * 3000, "frob" + "z" * 150, "x " + "Q" * 90])
    app.run()
    text = out.getvalue()
    assert "that line is 3000 characters long; a command is at most 2000" in text
    assert "unknown command 'frobzzzzzzzzzzzzzzzzzzz…'" in text
    assert "is not a card" in text
    assert "z" * 60 not in text
    assert "Q" * 60 not in text
    assert "x" * 100 not in text


def test_7_more_copies_than_held_is_said_first() -> None:
    rules = load_rules("liverpool")
    _, text = typed_with_symbols(rules, ["d", "lay " + " ".join(["7H"] * 400)],
                                 ["7H", "7D", "*", "KS", "2C", "5D", "6D", "7D", "8D", "9D"])
    assert "you do not hold that many 7♥: the melds use 400, you have 1" in text
    assert "the contract of round 1" not in text


def test_8_meld_separators() -> None:
    rules = load_rules("liverpool")
    hand = ["KS", "KS", "KC", "7H", "7D", "*", "2C", "5D", "6C", "9D"]
    _, text = typed_with_symbols(rules, [
        "d", "lay K♠ K♠ K♣, 7♥ 7♦ *", "lay KS KS KC || 7H 7D *", "lay KS KS KC | 7H 7D * |"],
        hand, discards=["QH"])
    assert "is neither a set nor a run" in text
    assert "(separate the melds with |, e.g. lay 9♥ 9♠ 9♦ | 5♣ 6♣ 7♣ 8♣)" in text
    assert text.count("a meld is empty: put one | between two melds and none at the ends") == 2


def test_9_ctrl_c_and_end_of_input_exit_non_zero(short_rules: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["play", "--rules", str(short_rules), "--players", "3", "--bots", "random",
            "--seed", "4", "--no-clear"]
    result = CliRunner().invoke(main, args, input="d\n")
    assert result.exit_code == 1, result.output
    assert "liverpool play --resume continues it" in result.output

    def interrupt(self: Console, *a: object, **k: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupt)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130, result.output
    assert "Game abandoned." in result.output
    assert "--resume" in result.output


def test_10_warning_before_a_discard_that_can_be_called() -> None:
    rules = load_rules("liverpool", **SHORT)
    app, out, _ = scripted_app(rules, answers=["x 9D", "n", "x 9D", "y"], symbols=True,
                               warn_calls=True)
    set_state(app, hands=[["9D", "4H", "KS"], OTHER_HANDS[0], OTHER_HANDS[1]],
              **{**DOWN_NOW, "owners": [1], "down": [True, True, False],
                 "down_turn": [1, 1, -1]})
    app.run()
    text = out.getvalue()
    assert text.count('9♦ fits on meld 1: another player may call "Liverpool!" on it. '
                      "Discard it anyway? (y/n)") == 2
    assert app.game.history[0] == Discard(parse_cards("9D")[0])
    # off by default (the CLI turns it on at the easy level)
    quiet, out2, _ = scripted_app(rules, answers=["x 9D"])
    set_state(quiet, hands=[["9D", "4H", "KS"], OTHER_HANDS[0], OTHER_HANDS[1]],
              **{**DOWN_NOW, "owners": [1], "down": [True, True, False],
                 "down_turn": [1, 1, -1]})
    quiet.run()
    assert "Discard it anyway" not in out2.getvalue()
    # no warning where the discard cannot be called: the last card (it ends the
    # round), or a discard in the turn the contract went down
    for hand, down_turn in ((["9D"], [1, 1, -1]), (["9D", "4H", "KS"], [4, 1, -1])):
        app, out, _ = scripted_app(rules, answers=["x 9D"], symbols=True, warn_calls=True)
        set_state(app, hands=[hand, OTHER_HANDS[0], OTHER_HANDS[1]],
                  **{**DOWN_NOW, "owners": [1], "down": [True, True, False],
                     "down_turn": down_turn})
        app.run()
        assert "Discard it anyway" not in out.getvalue()
        assert app.game.history[0] == Discard(parse_cards("9D")[0])


def test_11_the_hard_bot_makes_no_pointless_joker_swap() -> None:
    rules = load_rules("liverpool", **SHORT)
    sevens = {"kind": "set", "cards": ["7S", "7H", "7C", "*", "7S", "*", "7C"], "rank": 7,
              "suit": -1}
    app, _, _ = scripted_app(rules)
    others = (["2C", "3C", "4C", "5C", "6C", "8C", "9C", "2D"],
              ["2S", "3S", "4S", "5S", "6S", "8S", "9S", "3D"])
    set_state(app, hands=[["7D", "7D", "KS", "4H"], *others],
              **{**DOWN_NOW, "table": [sevens], "down_turn": [1, -1, -1]})
    game = app.game
    bot = make_bot("hard", rules, seed=1)
    moves = []
    while game.to_move == 0 and game.phase == "play":
        action = bot.choose(game.view(0), game.legal_actions())
        moves.append(action)
        game.apply(action)
    assert not any(isinstance(a, SwapJoker) for a in moves), moves
    assert moves[:2] == [LayOff(parse_cards("7D")[0], 0)] * 2
    assert game.table[0].cards.count(parse_cards("*")[0]) == 2


def test_13_the_game_asks_where_the_joker_goes() -> None:
    rules = load_rules("liverpool", contracts=["SR", "SS"], deal=[10, 10])
    hand = ["2S", "2D", "2C", "4H", "5H", "6H", "*", "KS", "9D", "JC"]
    app, text = typed_with_symbols(rules, ["d", "lay 2♠ 2♦ 2♣ | 4♥ 5♥ 6♥ *", "2"], hand,
                                   discards=["QH"])
    assert "4♥ 5♥ 6♥ * can lie in more than one way:" in text
    assert "1. run * 4♥ 5♥ 6♥  (3♥..6♥)" in text
    assert "2. run 4♥ 5♥ 6♥ *  (4♥..7♥)" in text
    lay = next(a for a in app.game.history if isinstance(a, LayDown))
    assert isinstance(lay, LayDown)
    assert format_cards(lay.melds[1].cards) == "4H 5H 6H *"


def test_13_runs_show_what_each_joker_stands_for() -> None:
    rules = load_rules("liverpool", **SHORT)
    app, out, _ = scripted_app(rules, answers=["table"], symbols=True)
    set_state(app, hands=[["9D", "4H", "KS"], OTHER_HANDS[0], OTHER_HANDS[1]],
              **{**DOWN_NOW, "table": [RUN], "down_turn": [1, -1, -1]})
    app.run()
    assert "5♥ 6♥ *(7♥) 8♥" in out.getvalue()


def test_12_simulate_json_says_how_seats_are_numbered() -> None:
    import json

    result = CliRunner().invoke(main, ["simulate", "--players", "3", "--bots", "random",
                                       "--games", "1", "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [(s["seat"], s["player"]) for s in data["seats"]] == [(0, 1), (1, 2), (2, 3)]
    help_text = CliRunner().invoke(main, ["simulate", "--help"]).output
    assert "0-based" in help_text


def test_14_tournament_progress_shows_the_time_left() -> None:
    from liverpool import simcli

    columns = simcli.progress_columns()
    names = {type(c).__name__ for c in columns}
    assert {"BarColumn", "TimeRemainingColumn", "TimeElapsedColumn"} <= names


# -------------------------------------------- issue 12: what a family misses
@pytest.mark.parametrize(("lang", "typed", "card"), [
    ("nb", "x DK", "QC"), ("nb", "x EsR", "AD"), ("nb", "x KnH", "JH"), ("nb", "x 9spar", "9S"),
    ("da", "x BK", "JC"), ("da", "x Eh", "AH"), ("da", "x 9klør", "9C"), ("en", "x QC", "QC"),
])
def test_cards_typed_the_local_way(lang: str, typed: str, card: str) -> None:
    rules = load_rules("liverpool", **SHORT)
    app, out, _ = scripted_app(rules, answers=[typed], lang=lang)
    set_state(app, hands=[["QC", "AD", "JH", "9S", "AH", "9C", "JC"], OTHER_HANDS[0],
                          OTHER_HANDS[1]], **DOWN_NOW)
    app.run()
    assert app.game.history[0] == Discard(parse_cards(card)[0]), out.getvalue()


def test_cards_picked_by_their_number_in_the_shown_hand() -> None:
    rules = load_rules("liverpool", **SHORT)
    app, out, _ = scripted_app(rules, answers=["x 9", "sort", "x 2"], symbols=True)
    set_state(app, hands=[["KS", "4H", "9D", "2S"], OTHER_HANDS[0], OTHER_HANDS[1]], **DOWN_NOW)
    app.run()
    text = out.getvalue()
    assert "there is no card 9 in your hand (the cards are numbered 1-4)" in text
    # by suit: 2♠ K♠ 4♥ 9♦; by rank: 2♠ 4♥ 9♦ K♠
    assert app.game.history[0] == Discard(parse_cards("4H")[0])


def test_names_and_bots_named_by_level(short_rules: Path) -> None:
    result = CliRunner().invoke(main, ["play", "--rules", str(short_rules), "--players", "3",
                                       "--level", "easy", "--name", "Kari", "--seed", "4",
                                       "--no-clear", "--letters"], input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "You are Kari." in result.output
    assert "Easy 2" in result.output
    assert "Easy 3" in result.output
    result = CliRunner().invoke(main, ["play", "--rules", str(short_rules), "--players", "3",
                                       "--lang", "nb", "--level", "hard", "--no-clear"],
                                input="avslutt\nj\n")
    assert "Vanskelig 2" in result.output, result.output
    # every kind of bot is named in the player's language
    result = CliRunner().invoke(main, ["play", "--rules", str(short_rules), "--players", "3",
                                       "--lang", "da", "--bots", "search,expert", "--no-clear"],
                                input="afslut\nj\n")
    assert "Søger 2" in result.output, result.output
    assert "Ekspert 3" in result.output, result.output


@pytest.mark.slow
def test_auto_pass_and_buy_prompts_only_when_a_buy_is_possible() -> None:
    rules = load_rules("liverpool")
    counts = {}
    for setting in ("off", "useless", "always"):
        person = ScriptedPerson(seed=4)
        console, _ = make_console()
        app = TerminalGame(rules, 3, 0, {1: GreedyBot(rules, 1), 2: GreedyBot(rules, 2)}, 5,
                           person, console, auto_pass=setting, pause=False)
        person.app = app
        app.run()
        counts[setting] = sum(n for p, n in person.prompts.items() if " is offered" in p)
        # no buy prompt once the buys are used up
        assert app.game.is_over
    assert counts["off"] > counts["useless"] > counts["always"] == 0, counts


@pytest.mark.slow
def test_pass_and_play_hides_the_hand_between_people() -> None:
    rules = load_rules("liverpool", **SHORT)
    console, out = make_console()
    people = {0: ScriptedPerson(seed=1), 1: ScriptedPerson(seed=2)}
    handoffs: list[tuple[str, str]] = []
    app: TerminalGame

    def fn(prompt: str) -> str:
        if prompt.endswith("press Enter to see your hand"):
            handoffs.append((prompt, out.getvalue()))
            return ""
        return people[app.seat](prompt)

    app = TerminalGame(rules, 3, 0, {2: GreedyBot(rules, 2)}, 6, fn, console,
                       names=["Kari", "Ola", "Medium 3"], clear=True, pause=False)
    for person in people.values():
        person.app = app
    assert app.run() is not None
    assert len(handoffs) > 4
    assert {p for p, _ in handoffs} == {"Kari, press Enter to see your hand",
                                        "Ola, press Enter to see your hand"}
    assert "Next: Ola. The others look away now." in out.getvalue()
    # each person's decisions were theirs: the history holds both people's moves
    seats = {s for s, _ in people[0].intended} | {s for s, _ in people[1].intended}
    assert seats
    assert people[0].intended
    assert people[1].intended


@pytest.mark.slow
def test_save_after_every_action_and_resume(short_rules: Path, saves_in_tmp: Path) -> None:
    from liverpool.tui.saves import last_unfinished, read_save

    args = ["play", "--rules", str(short_rules), "--players", "3", "--bots", "random",
            "--seed", "9", "--no-clear", "--letters", "--name", "Kari"]
    first = CliRunner().invoke(main, args, input="d\nx 1\n")
    assert first.exit_code == 1, first.output
    path = last_unfinished(saves_in_tmp)
    assert path is not None
    game, meta = read_save(path)
    moves = len(game.record()["actions"])
    assert moves >= 2
    assert meta["names"][0] == "Kari"
    assert not meta["finished"]
    again = CliRunner().invoke(main, ["play", "--resume", "--no-clear"],
                               input=_blind_person_input())
    assert again.exit_code == 0, again.output
    assert "You are Kari." in again.output
    assert "Score sheet" in again.output
    game, meta = read_save(path)
    assert game.is_over
    assert meta["finished"]
    assert last_unfinished(saves_in_tmp) is None
    nothing = CliRunner().invoke(main, ["play", "--resume"])
    assert nothing.exit_code == 1
    assert "there is no unfinished saved game" in nothing.output
    named = CliRunner().invoke(main, ["play", "--resume", str(path)])
    assert named.exit_code == 1
    assert "the game is over" in named.output


def test_a_damaged_save_or_saves_folder_gets_a_clear_error(short_rules: Path,
                                                             saves_in_tmp: Path) -> None:
    """A save edited by hand (or damaged) is refused naming the field, in the
    command's language, and left as it was; a saves folder that is a file is
    named, with the way out."""
    from liverpool.tui.saves import write_save

    saves_in_tmp.mkdir(parents=True)
    game = Game(load_rules(str(short_rules)), 3, seed=2)
    good = {"seat": 0, "names": ["Kari", "Ola", "Per"], "bots": {"1": "basic", "2": "basic"},
            "lang": "en", "symbols": True, "auto_pass": "off", "warn_calls": False,
            "bot_seed": 2}
    damaged = [("seat", 9), ("seat", 1), ("seat", True), ("bots", ["basic"]),
               ("names", ["Kari"]), ("auto_pass", "maybe"), ("bot_seed", "abc"),
               ("symbols", 1), ("lang", None)]
    for field, value in damaged:
        path = write_save(saves_in_tmp / f"{field}.json", game, {**good, field: value})
        before = path.read_bytes()
        result = CliRunner().invoke(main, ["play", "--resume", str(path), "--lang", "nb"])
        assert result.exit_code == 1, (field, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), field
        assert f"'{field}' er ikke det liverpool play lagrer" in result.output, result.output
        assert path.read_bytes() == before
    deep = saves_in_tmp / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    result = CliRunner().invoke(main, ["play", "--resume", str(deep)])
    assert result.exit_code == 1
    assert "nested too deep" in result.output
    latin = saves_in_tmp / "latin.json"
    latin.write_bytes('{"names": ["Bjørn"]}'.encode("latin-1"))
    result = CliRunner().invoke(main, ["play", "--resume", str(latin)])
    assert result.exit_code == 1
    assert "not UTF-8 text" in result.output
    a_file = saves_in_tmp / "a-file"
    a_file.write_text("")
    for args in (["play", "--rules", str(short_rules), "--seed", "1"], ["play", "--resume"]):
        result = CliRunner(env={"LIVERPOOL_RUMMY_SAVES": str(a_file)}).invoke(
            main, [*args, "--lang", "da"], input="")
        assert result.exit_code == 1, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert "fejl: mappen med gemte spil" in result.output, result.output
        assert "--no-save" in result.output
    result = CliRunner().invoke(main, ["play", "--names", "A,,B", "--humans", "3"])
    assert result.exit_code == 1
    assert "--names has an empty name" in result.output


def test_resume_says_why_a_save_cannot_go_on_in_the_players_language(
        saves_in_tmp: Path, short_rules: Path) -> None:
    from liverpool.tui.saves import write_save

    saves_in_tmp.mkdir(parents=True)
    game = Game(load_rules(str(short_rules)), 3, seed=2)
    meta = {"seat": 0, "names": ["Kari", "Ola", "Per"], "bots": {"1": "basic", "2": "basic"},
            "lang": "en", "symbols": True, "auto_pass": "off", "warn_calls": False}
    bots = [make_bot("basic", game.rules, seed=s) for s in range(3)]
    for _ in range(12):
        legal = game.legal_actions()
        game.apply(bots[game.to_move].choose(game.view(game.to_move), legal))
    path = write_save(saves_in_tmp / "game.json", game, meta)
    data = json.loads(path.read_text())
    actions = data["record"]["actions"]
    k = next(i for i, a in enumerate(actions) if a["type"] == "discard")
    actions[k] = {**actions[k], "card": "XX"}
    path.write_text(json.dumps(data))
    not_save = saves_in_tmp / "other.json"
    not_save.write_text(json.dumps(game.record()))  # a record, not a save
    expected = {
        path: f"feil: kan ikke fortsette det lagrede spillet: {path}: spillet kan ikke spilles "
              f"av på nytt: trekk {k + 1} i protokollen kan ikke spilles av",
        not_save: f"feil: kan ikke fortsette det lagrede spillet: kan ikke lese {not_save}: det "
                  "er ikke et spill lagret av liverpool play",
    }
    for save, line in expected.items():
        result = CliRunner().invoke(main, ["play", "--resume", str(save), "--lang", "nb"],
                                    input="")
        assert result.exit_code == 1, result.output
        assert result.output.startswith(line), result.output


# ------------------------------------------------------------- full screen
def _full_app(rules: Rules, humans: Sequence[int] = (0,), players: int = 3, seed: int = 3,
              **options: object) -> object:
    from liverpool.tui.full import FullScreenGame, PlayApp

    bots = {s: make_bot("random", rules, seed=s) for s in range(players) if s not in humans}

    def make(app: PlayApp) -> FullScreenGame:
        return FullScreenGame(app, rules, players, humans[0], bots, seed, symbols=True,
                              **options)  # type: ignore[arg-type]

    return PlayApp(make)


async def _until(pilot: object, test: Callable[[], bool], tries: int = 200) -> None:
    for _ in range(tries):
        if test():
            return
        await pilot.pause(0.02)  # type: ignore[attr-defined]
    raise AssertionError("the screen did not get there")


async def _type(pilot: object, text: str) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    before = app.prompt_text
    app.prompt_text = ""
    await pilot.press(*text, "enter")  # type: ignore[attr-defined]
    del before


@pytest.mark.slow
def test_full_screen_game_at_80x24() -> None:
    import asyncio

    from textual.widgets import Static

    rules = load_rules("liverpool", **SHORT)
    app = _full_app(rules)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
            await _until(pilot, lambda: "Your turn" in app.prompt_text)  # type: ignore[attr-defined]
            hand = app.query_one("#hand", Static)  # type: ignore[attr-defined]
            assert hand.region.bottom <= 24
            assert hand.region.height >= 3
            await _type(pilot, "d")
            await _until(pilot, lambda: "Play:" in app.prompt_text)  # type: ignore[attr-defined]
            await _type(pilot, "x 99")
            await _until(pilot, lambda: "no card 99" in app.message_text)  # type: ignore[attr-defined]
            await _type(pilot, "x 1")
            await _until(pilot, lambda: "Your turn" in app.prompt_text)  # type: ignore[attr-defined]
            from liverpool.tui.full import svg_text

            text = svg_text(app.export_screenshot())  # type: ignore[attr-defined]
            lines = text.splitlines()
            assert len(lines) <= 24
            assert all(len(line) <= 80 for line in lines)
            assert "Contract: 2 sets" in lines[0]
            assert "Your turn" in text
            assert any(line.startswith(" Your hand (10, by suit):") for line in lines[-6:])
            await pilot.press("ctrl+c")
        assert app.return_code == 130  # type: ignore[attr-defined]

    asyncio.run(go())


@pytest.mark.slow
def test_full_screen_pass_and_play() -> None:
    import asyncio

    rules = load_rules("liverpool", **SHORT)
    app = _full_app(rules, humans=(0, 1), names=["Kari", "Ola", "Bot"])

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
            ui = app.game_ui  # type: ignore[attr-defined]
            await _until(pilot, lambda: app.sheets == 1)  # type: ignore[attr-defined]
            await pilot.press("enter")  # Kari takes the screen
            await _until(pilot, lambda: "Your turn" in app.prompt_text)  # type: ignore[attr-defined]
            await _type(pilot, "d")  # Kari turns the discard down: Ola may buy it
            await _until(pilot, lambda: app.sheets == 1)  # type: ignore[attr-defined]
            hand = app.query_one("#hand").render()  # type: ignore[attr-defined]
            assert "hidden until Ola presses Enter" in str(hand)
            assert not app.log_lines  # type: ignore[attr-defined]
            await pilot.press("enter")
            await _until(pilot, lambda: ui.seat == 1 and " is offered" in app.prompt_text)  # type: ignore[attr-defined]
            await _type(pilot, "p")
            await _until(pilot, lambda: app.sheets == 1)  # type: ignore[attr-defined]
            await pilot.press("enter")  # back to Kari, who drew
            await _until(pilot, lambda: ui.seat == 0 and "Play:" in app.prompt_text)  # type: ignore[attr-defined]
            await pilot.press("ctrl+c")
        assert app.return_code == 130  # type: ignore[attr-defined]

    asyncio.run(go())


@pytest.mark.slow
def test_full_screen_log_shows_its_newest_line_and_ctrl_d_ends_the_game() -> None:
    """The log stays at its newest line, also when a refusal grows the message
    box under it; Ctrl-D ends the game as the end of input does in the line
    mode (status 1)."""
    import asyncio

    from textual.containers import VerticalScroll

    rules = load_rules("liverpool", **SHORT)
    app = _full_app(rules)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:  # type: ignore[attr-defined]
            await _until(pilot, lambda: "Your turn" in app.prompt_text)  # type: ignore[attr-defined]
            log = app.query_one("#log", VerticalScroll)  # type: ignore[attr-defined]
            for _ in range(8):  # turns until the log is longer than its pane
                await _type(pilot, "d")
                await _until(pilot, lambda: "Play:" in app.prompt_text)  # type: ignore[attr-defined]
                if log.max_scroll_y > 2:
                    break
                await _type(pilot, "x 1")
                await _until(pilot, lambda: "Your turn" in app.prompt_text)  # type: ignore[attr-defined]
            await _type(pilot, "legg KS KH KD | 4S 4H QD")  # a refusal of two lines
            await _until(pilot, lambda: bool(app.message_text))  # type: ignore[attr-defined]
            await pilot.pause(0.1)
            assert log.max_scroll_y > 0
            assert log.scroll_y == log.max_scroll_y
            await pilot.press("ctrl+d")
        assert app.return_code == 1  # type: ignore[attr-defined]

    asyncio.run(go())


# ------------------------------------------------------------ narrow terminals
def _player_line(name: str) -> str:
    """A players' table line: the name, then its cards, buys, laid down and points."""
    return rf"^(?:▶ |  ){re.escape(name)} +\d+ +\d+/\d+ +[✓·] +\d+$"


def test_players_table_closes_up_in_narrow_widths() -> None:
    """The players' table as before where it fits; narrower, one space between
    the columns, then "Laid down" on two lines, then the names cut: every
    player's numbers stay on the player's line."""
    from rich.cells import cell_len

    from liverpool.tui.render import players_panel

    view = Game(load_rules("liverpool"), 4, 3).view(0)
    names = ["Seat 1 (you)", "Medium 2", "Bartholomew Longname", "Medium 4"]

    def shown(width: int, lang: str = "en", gap: int = 2) -> list[str]:
        console, out = make_console(width)
        console.print(players_panel(view, names, lang, gap=gap))
        return out.getvalue().splitlines()

    assert shown(80) == [
        "  Player                Cards  Buys  Laid down  Points",
        "▶ Seat 1 (you)             10   0/3      ·           0",
        "  Medium 2                 10   0/3      ·           0",
        "  Bartholomew Longname     10   0/3      ·           0",
        "  Medium 4                 10   0/3      ·           0"]
    assert shown(50)[0] == "  Player               Cards Buys Laid down Points"
    assert shown(46)[:2] == ["                                  Laid",
                             "  Player               Cards Buys down Points"]
    for width, lang in [(40, "en"), (40, "nb"), (40, "da"), (32, "en")]:
        lines = shown(width, lang)
        assert all(cell_len(line.rstrip()) <= width for line in lines), lines
        players = [line.rstrip() for line in lines if re.match(r"^(▶ |  )\S", line)][1:]
        assert len(players) == 4, lines
        assert all(re.match(r"^(▶ |  )\S.* +\d+ +\d/3 +· +0$", p) for p in players), lines
    assert "Bartholomew Longname" not in "\n".join(shown(40))
    assert any(line.startswith("  Barth… Longname    10") for line in shown(40))


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "nb", "da"])
def test_line_mode_fits_40_columns(lang: str) -> None:
    """At 40 columns no line is wider; each player's points stay on the player's
    line; the score sheet, the help and the table are whole."""
    from rich.cells import cell_len

    rules = load_rules("liverpool", **SHORT, **QUICK)
    person = ScriptedPerson(seed=4, lang=lang)
    person.pending = [command_name(lang, "help"), command_name(lang, "score"),
                      command_name(lang, "table")]
    console, out = make_console(40)
    bots = {s: GreedyBot(rules, s) for s in (1, 2, 3)}
    app = TerminalGame(rules, 4, 0, bots, 11, person, console, lang=lang)
    person.app = app
    results = app.run()
    assert results is not None
    text = out.getvalue()
    lines = text.splitlines()
    assert max(cell_len(line) for line in lines) <= 40
    for name in app.names:
        starts = [line for line in lines if re.match(rf"^(?:▶ |  ){re.escape(name)}( |$)", line)]
        assert starts, name
        assert all(re.match(_player_line(name), line.rstrip()) for line in starts), starts
    for key in HELP_ROWS:
        assert re.search(rf"^  {re.escape(tr(lang, f'help_cmd_{key}'))}  \S", text, re.M), key
    assert f"{tr(lang, 'discard_pile')}: " in text
    sheet = text[text.rindex(tr(lang, "score_sheet")):]
    assert "…" not in sheet
    for rnd, scores in enumerate(results.round_scores, 1):
        assert re.search(rf"^ +{rnd}" + "".join(rf" +{p}" for p in scores) + "$", sheet, re.M)
    total = tr(lang, "total")
    assert re.search(rf"^ *{total}" + "".join(rf" +{t}" for t in results.totals), sheet, re.M)


async def _settle(pilot: object) -> None:
    """Let the screen lay out what it was sent (twice: the narrow layout sizes the
    players and the table once they are laid out)."""
    for _ in range(3):
        await pilot.pause(0.05)  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.parametrize("size", [(40, 24), (60, 24)])
def test_full_screen_in_a_narrow_terminal(size: tuple[int, int]) -> None:
    """Below 80 columns the log goes under the table: the names and numbers of
    the players, the melds' table, the hand, the prompt and the input keep the
    whole width. A wider terminal (resized) gets the side log back."""
    import asyncio

    from liverpool.tui.full import svg_text
    from liverpool.tui.render import shown_hand

    width, height = size
    rules = load_rules("liverpool", **SHORT)
    names = ["Kari", "Ola Nordmann", "Bot 3", "Bot 4"]
    app = _full_app(rules, players=4, names=names)

    async def go() -> None:
        async with app.run_test(size=size) as pilot:  # type: ignore[attr-defined]
            await _until(pilot, lambda: "Your turn" in app.prompt_text)  # type: ignore[attr-defined]
            await _settle(pilot)
            text = svg_text(app.export_screenshot(), width, height)  # type: ignore[attr-defined]
            lines = text.splitlines()
            assert len(lines) <= height
            assert all(len(line) <= width for line in lines)
            for name in names:
                assert any(re.search(_player_line(name)[1:], line) for line in lines), name
            assert any(line.startswith(" Table:") for line in lines)
            ui = app.game_ui  # type: ignore[attr-defined]
            view = ui.game.view(0)
            words = [ui.style.word(c) for c in shown_hand(view, rules, ui.group_by)]
            at = next(i for i, line in enumerate(lines) if "Your hand (10, by suit):" in line)
            cards = [w for line in lines[at + 1::2] for w in line.split()]
            assert cards[:len(words)] == words
            assert "Your turn: d = draw from the stock" in text
            query = app.query_one  # type: ignore[attr-defined]
            log, table, box = query("#log"), query("#table"), query("#input")
            assert log.region.width == width
            assert log.region.y >= table.region.bottom
            assert log.region.height >= 3
            assert query("#left").region.width == width
            assert box.region.width == width
            assert box.region.bottom == height
            await pilot.resize_terminal(120, 40)  # type: ignore[attr-defined]
            await _settle(pilot)
            assert (log.region.x, log.region.width) == (80, 40)
            assert log.region.y == query("#left").region.y
            await pilot.resize_terminal(width, height)  # type: ignore[attr-defined]
            await _settle(pilot)
            assert log.region.width == width
            assert log.region.y >= table.region.bottom
            await pilot.press("ctrl+c")
        assert app.return_code == 130  # type: ignore[attr-defined]

    asyncio.run(go())


@pytest.mark.slow
def test_full_screen_at_120x40_keeps_the_side_log() -> None:
    import asyncio

    from liverpool.tui.full import svg_text

    rules = load_rules("liverpool", **SHORT)
    app = _full_app(rules, players=4, names=["Kari", "Ola Nordmann", "Bot 3", "Bot 4"])

    async def go() -> None:
        async with app.run_test(size=(120, 40)) as pilot:  # type: ignore[attr-defined]
            await _until(pilot, lambda: "Your turn" in app.prompt_text)  # type: ignore[attr-defined]
            await _settle(pilot)
            query = app.query_one  # type: ignore[attr-defined]
            log, table, left = query("#log"), query("#table"), query("#left")
            assert (left.region.x, left.region.width) == (0, 80)
            assert (log.region.x, log.region.width, log.region.y) == (80, 40, left.region.y)
            assert table.region.right <= 80
            lines = svg_text(app.export_screenshot(), 120, 40).splitlines()  # type: ignore[attr-defined]
            assert lines[0].startswith(" Round 1 of 2  ·  Contract: 2 sets  ·  Dealer: ")
            assert lines[1].startswith(" Discard pile: ")
            assert "    Stock: " in lines[1]
            assert lines[2].startswith("   Player       Cards Buys Laid down Points")
            assert all("│" in line for line in lines[2:9])  # the log's border, beside
            await pilot.press("ctrl+c")
        assert app.return_code == 130  # type: ignore[attr-defined]

    asyncio.run(go())
