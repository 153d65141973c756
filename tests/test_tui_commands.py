"""The terminal game's commands read without a terminal: typed lines to actions
(:mod:`liverpool.tui.commands`). The whole game by keyboard is tests/test_tui.py."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from liverpool import Game, load_rules
from liverpool.actions import Buy, Call, Cut, Discard, Draw, LayOff, Pass, SwapJoker
from liverpool.cards import Card, parse_cards
from liverpool.melds import Meld
from liverpool.tui.commands import (
    MAX_LINE,
    Choice,
    Command,
    CommandReader,
    Refused,
    clip,
    read_command,
)

LIVERPOOL = load_rules("liverpool")
SHANGHAI = load_rules("liverpool", discard_call="shanghai")
HAND = parse_cards("4H 7H 9D KS KS * 2C")
RUN = Meld("run", tuple(parse_cards("5H 6H * 8H")), 5, 1)
SET = Meld("set", tuple(parse_cards("9S 9D 9C")), 9, -1)


def card(text: str) -> Card:
    return parse_cards(text)[0]


def view(**fields: Any) -> Any:
    """A seat's view with only what the reader looks at (a stand-in, not the engine's)."""
    base: dict[str, Any] = {"table": (RUN, SET), "legal_actions": (), "phase": "play"}
    base.update(fields)
    return SimpleNamespace(**base)


def refusal(call: Any, *args: Any) -> str:
    with pytest.raises(Refused) as caught:
        call(*args)
    return str(caught.value)


# ------------------------------------------------------------------- the line
@pytest.mark.parametrize(("line", "lang", "expected"), [
    ("d", "en", Command("draw", [], "")),
    ("  Take  ", "en", Command("take", [], "")),
    ("lay 5H 6H 7H | 9S 9D 9C", "en", Command(
        "lay", ["5H", "6H", "7H", "|", "9S", "9D", "9C"], "5H 6H 7H | 9S 9D 9C")),
    ("x! KS", "en", Command("discard", ["KS", "!"], "KS")),
    ("kast 9H", "nb", Command("discard", ["9H"], "9H")),
    ("discard 9H", "da", Command("discard", ["9H"], "9H")),  # English works in every language
])
def test_a_line_is_split_into_its_command_and_words(line: str, lang: str,
                                                     expected: Command) -> None:
    assert read_command(line, lang) == expected


def test_lines_without_a_command_are_refused() -> None:
    assert refusal(read_command, "   ", "en") == "type a command (help lists them)"
    assert "unknown command" in refusal(read_command, "fly away", "en")
    assert "'fly'" in refusal(read_command, "fly away", "en")
    long = "x " + "9H " * MAX_LINE
    assert str(len(long)) in refusal(read_command, long, "en")


def test_typed_text_is_clipped_in_messages() -> None:
    assert clip("short") == "short"
    assert clip("  many   spaces  ") == "many spaces"
    cut = clip("x" * 100)
    assert len(cut) == 24
    assert cut.endswith("…")


# ------------------------------------------------------------------- the words
def test_cards_by_notation_local_letters_and_number_in_the_shown_hand() -> None:
    reader = CommandReader(LIVERPOOL, "en")
    assert reader.card("9d", HAND) == card("9D")
    assert reader.card("1", HAND) == HAND[0]
    assert reader.card("7", HAND) == HAND[6]
    assert reader.cards("4H, 7H  KS", HAND) == parse_cards("4H 7H KS")
    assert CommandReader(LIVERPOOL, "nb").card("K♠", HAND) == card("KS")
    assert refusal(reader.card, "8", HAND) == (
        "there is no card 8 in your hand (the cards are numbered 1-7)")
    assert "is not a card" in refusal(reader.card, "QQ", HAND)
    assert "is not a card" in refusal(reader.card, "a-very-long-word", HAND)
    # whole Norwegian and Danish card words, in one word, either order
    nb, da = CommandReader(LIVERPOOL, "nb"), CommandReader(LIVERPOOL, "da")
    assert nb.card("sparkonge", HAND) == card("KS")
    assert nb.card("Kløverknekt", HAND) == card("JC")
    assert nb.card("hjertersju", HAND) == card("7H")
    assert da.card("klørknægt", HAND) == card("JC")
    assert da.card("damehjerter", HAND) == card("QH")
    # a word that is no card is told the local ways, not only S H D C
    said = refusal(nb.card, "sparkong", HAND)
    assert said.startswith("'sparkong' er ikke et kort")
    assert "sparkonge" in said
    assert "S H D C" not in said
    assert "klør" in refusal(da.card, "9X", HAND)


def test_meld_numbers_and_ends() -> None:
    reader = CommandReader(LIVERPOOL, "en")
    assert reader.meld_index("2", 2) == 1
    assert refusal(reader.meld_index, "3", 2) == (
        "there is no meld 3 on the table (the melds are numbered 1-2)")
    assert refusal(reader.meld_index, "1", 0) == "there are no melds on the table yet"
    assert refusal(reader.meld_index, "x", 2) == "'x' is not a number"
    assert reader.end("LOW") == "low"
    assert reader.end("h") == "high"
    assert CommandReader(LIVERPOOL, "nb").end("lav") == "low"
    assert "middle" in refusal(reader.end, "middle")


# ---------------------------------------------------------------- the commands
def test_commands_of_one_word() -> None:
    reader = CommandReader(LIVERPOOL, "en")
    for line, action in (("d", Draw("stock")), ("t", Draw("discard")), ("buy", Buy()),
                         ("pass", Pass())):
        assert reader.simple(read_command(line, "en")) == action
    assert "KS" in refusal(reader.simple, read_command("d KS", "en"))
    # draw and take may name their pile, in words of any language
    for line, lang, source in (("trekk fra bunken", "nb", "stock"), ("ta kastehaugen", "nb", "discard"),
                               ("trekk fra kastehaugen", "nb", "discard"),
                               ("træk fra kastebunken", "da", "discard"), ("træk bunken", "da", "stock"),
                               ("draw from the stock", "en", "stock"), ("take the discard", "en", "discard"),
                               ("TREKK Fra Bunken", "nb", "stock")):
        assert CommandReader(LIVERPOOL, lang).simple(read_command(line, lang)) == Draw(source), line
    assert "kastehaugen bunken" in refusal(reader.simple, read_command("d kastehaugen bunken", "en"))
    assert refusal(reader.simple, read_command("d from the KS", "en")) == "too many words: KS"
    assert refusal(reader.simple, read_command("buy the stock", "en")) == "too many words: the stock"
    assert reader.cut(read_command("cut 40", "en")) == Cut(40)
    assert refusal(reader.cut, read_command("cut", "en")).startswith("say how many")


def test_lay_down_cards_must_be_held_as_often_as_typed() -> None:
    reader = CommandReader(LIVERPOOL, "en")
    assert reader.lay_groups("KS KS * ; 4H", HAND, HAND) == [
        parse_cards("KS KS *"), parse_cards("4H")]
    assert "empty" in refusal(reader.lay_groups, "KS KS * |", HAND, HAND)
    assert refusal(reader.lay_groups, "QS", HAND, HAND) == "you do not have QS in your hand"
    assert "3" in refusal(reader.lay_groups, "KS KS KS", HAND, HAND)


def test_melds_of_typed_cards_and_why_not() -> None:
    reader = CommandReader(LIVERPOOL, "en")
    both_ends = reader.meld_options(parse_cards("5H 6H 7H *"))
    assert len(both_ends) == 2
    assert {m.kind for m in both_ends} == {"run"}
    assert [m.kind for m in reader.meld_options(parse_cards("9S 9D *"), {"set"})] == ["set"]
    assert "a set must hold at least 2 natural cards" in refusal(
        reader.meld_options, parse_cards("QD * *"))
    hinted = refusal(reader.meld_options, parse_cards("5H 9H"), {"set"}, True)
    assert "a set needs at least 3 cards" in hinted
    assert "|" in hinted
    assert reader.why_not_meld(parse_cards("5H 6S 7H 8H")) == (
        "a set is cards of one rank, a run consecutive cards of one suit")
    # three cards of mixed ranks and suits: not "a run needs at least 4 cards"
    assert reader.why_not_meld(parse_cards("4S 4H QD")) == reader.why_not_meld(
        parse_cards("5H 6S 7H 8H"))
    assert reader.why_not_meld(parse_cards("4S 5S 6S")) == "a run needs at least 4 cards"


def test_discards_and_the_shanghai_announcement() -> None:
    liverpool = CommandReader(LIVERPOOL, "en")
    shanghai = CommandReader(SHANGHAI, "en")
    assert liverpool.discard(["KS"], HAND) == Discard(card("KS"))
    assert liverpool.discard(["7"], HAND) == Discard(card("2C"))
    no_call = refusal(liverpool.discard, ["KS!"], HAND)
    assert no_call == refusal(liverpool.discard, ["KS", "!"], HAND)
    assert "Shanghai" in no_call
    assert shanghai.discard(["KS!"], HAND) == Discard(card("KS"), True)
    assert shanghai.discard(["KS", "shanghai"], HAND) == Discard(card("KS"), True)
    assert "now" in refusal(shanghai.discard, ["KS", "now"], HAND)
    usage = refusal(liverpool.discard, [], HAND)
    assert usage == refusal(liverpool.discard, ["a", "b", "c"], HAND)
    assert usage.startswith("say which card to discard")


def test_lay_off_names_one_legal_lay_off_or_a_choice() -> None:
    reader = CommandReader(LIVERPOOL, "en")
    low, high = LayOff(card("*"), 0, "low"), LayOff(card("*"), 0, "high")
    legal = (LayOff(card("4H"), 0, "low"), LayOff(card("9D"), 1), low, high)
    seat = view(legal_actions=legal)
    assert reader.lay_off(["4H"], seat, HAND) == legal[0]
    assert reader.lay_off(["9D", "2", "high"], seat, HAND) == legal[1]  # a set has no ends
    assert reader.lay_off(["*", "1"], seat, HAND) == Choice((low, high), ask_end=True)
    assert reader.lay_off(["*"], seat, HAND) == Choice((low, high))
    assert reader.lay_off(["*", "1", "h"], seat, HAND) == high
    # a card that would fit, but not now (the turn of the lay-down): the typed
    # lay-off, or the first meld it fits, for the engine to say why not now
    now = view(legal_actions=())
    assert reader.lay_off(["4H", "1"], now, HAND) == LayOff(card("4H"), 0)
    assert reader.lay_off(["4H"], now, HAND) == LayOff(card("4H"), 0)
    # a card that never fits: said so, not "from your next turn" nor how to type it
    assert refusal(reader.lay_off, ["KS", "2"], seat, HAND) == "KS does not fit on 9S 9D 9C"
    assert refusal(reader.lay_off, ["KS"], seat, HAND) == "KS fits on no meld on the table"
    assert refusal(CommandReader(LIVERPOOL, "nb").lay_off, ["KS"], seat, HAND) == (
        "KS passer ikke på noen kombinasjon på bordet")
    assert refusal(reader.lay_off, [], seat, HAND).startswith("say")


def test_swap_names_the_legal_swap_or_the_first_wild_card() -> None:
    reader = CommandReader(LIVERPOOL, "en")
    legal = (SwapJoker(card("7H"), 0, 2),)
    assert reader.swap(["7H", "1"], view(legal_actions=legal), HAND) == legal[0]
    assert reader.swap(["KS", "1"], view(), HAND) == SwapJoker(card("KS"), 0, 2)
    assert reader.swap(["KS", "2"], view(), HAND) == SwapJoker(card("KS"), 1, 0)
    assert "swap 7H 3" in refusal(reader.swap, ["7H"], view(), HAND)


def test_calls() -> None:
    liverpool = CommandReader(LIVERPOOL, "en")
    assert liverpool.call([], view(phase="call")) == Call()
    assert "1" in refusal(liverpool.call, ["1"], view(phase="call"))
    shanghai = CommandReader(SHANGHAI, "en")
    assert shanghai.call([], view(phase="play")) == Call()  # (out of the call window)
    on_run = (Call(0, "low"), Call(0, "high"))
    seat = view(phase="call", legal_actions=(*on_run, Call(1)))
    assert shanghai.call(["2"], seat) == Call(1)
    assert shanghai.call(["2", "low"], seat) == Call(1)  # a set has no ends
    assert shanghai.call(["1"], seat) == Choice(on_run)
    assert shanghai.call(["1", "high"], seat) == on_run[1]
    assert shanghai.call([], seat) == Choice((*on_run, Call(1)))
    assert shanghai.call(["1", "low"], view(phase="call")) == Call(0, "low")  # the engine says
    assert "x" in refusal(shanghai.call, ["1", "low", "x"], seat)


def test_the_reader_reads_a_real_view() -> None:
    game = Game(LIVERPOOL, players=3, seed=1)
    seat_view = game.view(0)
    reader = CommandReader(LIVERPOOL, "en")
    top = seat_view.top_discard
    assert top is not None
    assert reader.simple(read_command("t", "en")) in seat_view.legal_actions
    assert reader.card(str(top), seat_view.hand) == top
