"""Every rule and option of docs/rules.md, section 3, on constructed positions.

Positions are made with :func:`test_engine.build` (through ``Game.from_json``):
``stock`` is written top first, ``discards`` bottom first (last = top).
"""

from __future__ import annotations

import pytest
from positions import build, card, cards, hand, illegal, table_meld

from liverpool import (
    ActionError,
    Buy,
    Call,
    Cut,
    Discard,
    Draw,
    Game,
    LayDown,
    LayOff,
    Pass,
    SwapJoker,
    action_from_json,
    load_rules,
)
from liverpool.events import (
    Bought,
    Called,
    DeckCut,
    Drew,
    GameEnded,
    HandEmptied,
    PenaltyDrawn,
    RoundAbandoned,
    RoundStarted,
    StockReshuffled,
    UpcardTurned,
    WentOut,
)

DEALS = {
    "liverpool": [10, 10, 10, 10, 12, 12, 12],
    "london": [10] * 7,
    "dansk": [10, 10, 10, 10, 11, 12, 13],
    "remi": [10] * 6 + [11],
}


def lay_down(game: Game, *melds: str) -> LayDown:
    return LayDown(tuple(table_meld(m, game.rules) for m in melds))


# ------------------------------------------------------------------ 3.1 deal


@pytest.mark.parametrize("preset", ["liverpool", "london", "dansk", "remi"])
@pytest.mark.parametrize("players", [3, 4])
def test_deal_dealer_rotation_and_first_player(preset: str, players: int) -> None:
    # a round stops after two turns, so every round's deal can be seen quickly
    rules = load_rules(preset, max_turns_per_round=2)
    game = Game(rules, players=players, seed=4)
    seen = []
    while not game.is_over:
        r = game.round
        if r not in seen:
            seen.append(r)
            n = DEALS[preset][r - 1]
            assert game.dealer == (r - 2) % players
            assert game.turn_player == (game.dealer + 1) % players == (r - 1) % players
            assert [len(game.hand(s)) for s in range(players)] == [n] * players
            upcard = 1 if rules.initial_upcard else 0
            assert len(game.discards) == upcard
            assert game.stock_size == rules.deck_size(players) - players * n - upcard
            if preset == "dansk":  # others_first: the upcard is offered to the others first
                assert game.phase == "buy"
                assert game.to_move == (game.turn_player + 1) % players
            else:
                assert game.phase == "draw"
                assert game.to_move == game.turn_player
        legal = game.legal_actions()
        game.apply(Pass() if Pass() in legal else Draw("stock") if Draw("stock") in legal
                   else legal[-1])
    assert seen == list(range(1, 8))
    assert not any(isinstance(e, WentOut) for e in game.events)
    assert sum(isinstance(e, RoundAbandoned) and e.reason == "stalled"
               for e in game.events) == 7


def test_no_upcard_london_first_player_must_draw_from_stock() -> None:
    game = Game(load_rules("london"), players=3, seed=1)
    assert game.discards == []
    assert game.legal_actions() == [Draw("stock")]
    illegal(game, Draw("discard"), "no_discard_to_take")
    game = Game(load_rules("liverpool", initial_upcard=False), players=3, seed=1)
    assert game.discards == []
    assert game.legal_actions() == [Draw("stock")]


# -------------------------------------------------------------- 3.2 drawing


def test_draw_from_stock_takes_the_top_card_privately() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="3S 5S", discards="QD", buying=False)
    events = game.apply(Draw("stock"))
    assert hand(game, 0) == ["3S", "9H"]
    assert game.phase == "play"
    assert game.to_move == 0
    assert events[-1] == Drew(events[-1].seq, 0, card("3S"))
    assert game.view(1).events[-1] == Drew(events[-1].seq, 0, None)
    assert "3S" not in str(game.view(1).to_json())
    assert "3S" in str(game.view(0).to_json()["events"])


def test_draw_the_top_discard() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="3S 5S", discards="KC QD")
    game.apply(Draw("discard"))
    assert hand(game, 0) == ["9H", "QD"]
    assert game.discards == [card("KC")]
    assert game.phase == "play"


# -------------------------------------------------------------- 3.2 buying


def test_buy_turn_player_first() -> None:
    # 4 players; the turn player (seat 0) has the first right: taking QD would be the draw
    game = build(players=4, hands=["9H", "4C", "4D", "5D"], stock="AS 2S 3S 4S",
                 discards="KC QD")
    assert game.legal_actions() == [Draw("discard"), Draw("stock")]
    game.apply(Draw("stock"))  # declines: the others may buy, in order after seat 0
    assert game.phase == "buy"
    assert game.to_move == 1
    assert game.legal_actions() == [Buy(), Pass()]
    assert game.hand(0) == [card("9H")]  # has not drawn yet
    game.apply(Pass())
    assert game.to_move == 2
    events = game.apply(Buy())
    assert hand(game, 2) == ["4D", "AS", "QD"]  # the card plus one penalty card
    assert game.buys == [0, 0, 1, 0]
    assert isinstance(events[0], Bought)
    assert (events[0].seat, events[0].card) == (2, card("QD"))
    assert events[0].penalty == (card("AS"),)
    assert events[0].penalty_count == 1
    assert game.view(1).events[events[0].seq].penalty == ()
    # then (rebuy = none) the turn player draws from the stock; seat 3 is not asked
    assert hand(game, 0) == ["2S", "9H"]
    assert game.phase == "play"
    assert game.to_move == 0
    assert game.discards == [card("KC")]


def test_nobody_buys_their_own_discard() -> None:
    # seat 3 discarded QD: when seat 0 turns it down, only seats 1 and 2 are asked
    game = build(players=4, hands=["9H", "4C", "4D", "5D"], stock="AS 2S 3S 4S",
                 discards="KC QD", discarders=[1, 3])
    game.apply(Draw("stock"))
    assert game.phase == "buy"
    assert game.view(None).queue == (1, 2)
    assert game.legal_actions(3) == []
    with pytest.raises(ActionError) as info:
        game.apply(Buy(), seat=3)
    assert info.value.code == "not_in_window"
    # remi (rebuy next_card): KC, discarded by seat 1, is offered to seats 2 and 3 only
    remi = build("remi", players=4, hands=["9H", "4C", "4D", "5D"], stock="AS 2S 3S 4S",
                 discards="KC QD", discarders=[1, 3])
    remi.apply(Draw("stock"))
    assert remi.view(None).queue == (1, 2)
    remi.apply(Buy())  # seat 1 buys QD
    assert remi.offered_card == card("KC")
    assert remi.view(None).queue == (2, 3)


def test_buy_all_pass_then_turn_player_draws_stock() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="AS 2S", discards="QD")
    game.apply(Draw("stock"))
    game.apply(Pass())
    game.apply(Pass())
    assert hand(game, 0) == ["9H", "AS"]
    assert game.discards == [card("QD")]
    assert game.phase == "play"


def test_buyer_does_nothing_else() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="AS 2S", discards="QD")
    game.apply(Draw("stock"))
    game.apply(Buy())
    # the buyer's part is over: it is the turn player's play now
    assert game.to_move == 0
    assert game.phase == "play"
    assert all(not isinstance(a, Buy) for a in game.legal_actions())


def test_buy_others_first_dansk() -> None:
    # seat 2 discards; seat 0's turn starts: the others are asked before seat 0 draws,
    # but not seat 2, who discarded 7S (nobody buys their own discard)
    game = build("dansk", hands=["9H", "4C", "4D 7S"], stock="AS 2S 3S", discards="KC",
                 phase="play", turn_player=2)
    game.apply(Discard(card("7S")))
    assert game.turn_player == 0
    assert game.phase == "buy"
    assert game.to_move == 1
    assert game.view(None).queue == (1,)
    game.apply(Pass())
    # nobody bought: seat 0 draws the discard or the stock
    assert game.phase == "draw"
    assert game.to_move == 0
    assert game.legal_actions() == [Draw("discard"), Draw("stock")]
    game.apply(Draw("discard"))
    assert hand(game, 0) == ["7S", "9H"]


def test_buy_others_first_rebuy_next_card_and_refill_empty_discard() -> None:
    game = build("dansk", hands=["9H", "4C", "4D 7S"], stock="AS 2S 3S 4S 5S", discards="",
                 phase="play", turn_player=2)
    game.apply(Discard(card("7S")))
    assert game.to_move == 1
    game.apply(Buy())  # seat 1 takes 7S + AS; the emptied pile is refilled with 2S
    assert hand(game, 1) == ["4C", "7S", "AS"]
    assert game.discards == [card("2S")]
    bought, refill = game.events[-2:]
    assert isinstance(bought, Bought)
    assert bought.seat == 1
    assert refill == UpcardTurned(refill.seq, card("2S"), refill=True)
    # rebuy = next_card: 2S is offered again, to the others first, seat 1 again too
    assert game.phase == "buy"
    assert game.to_move == 1
    assert game.offered_card == card("2S")
    game.apply(Pass())
    game.apply(Buy())  # seat 2 buys 2S + 3S; 4S is turned up
    assert hand(game, 2) == ["2S", "3S", "4D"]
    assert game.discards == [card("4S")]
    game.apply(Pass())
    game.apply(Pass())
    assert game.phase == "draw"
    assert game.to_move == 0
    game.apply(Draw("discard"))
    assert hand(game, 0) == ["4S", "9H"]


def test_a_buy_that_empties_the_pile_closes_its_window() -> None:
    # others_first, rebuy next_card, no refill: nothing left to offer, so the
    # turn player draws and no seat is still listed as answering
    game = build("dansk", hands=["9H", "4C", "4D 7S"], stock="AS 2S 3S", discards="",
                 phase="play", turn_player=2, refill_empty_discard=False)
    game.apply(Discard(card("7S")))
    game.apply(Buy())
    assert game.phase == "draw"
    assert game.to_move == 0
    assert game.view(0).queue == ()
    # the same in a whole game: its position saves and loads again
    rules = load_rules("liverpool", buy_priority="others_first", rebuy="next_card")
    game = Game(rules, players=3, seed=0)
    game.apply(Buy(), seat=1)  # the upcard: the pile is empty
    assert (game.phase, game.view(0).queue) == ("draw", ())
    assert Game.from_json(game.to_json()).view(0) == game.view(0)


def test_rebuy_none_with_others_first_lets_the_turn_player_take_the_new_top() -> None:
    game = build("dansk", hands=["9H", "4C", "4D 7S"], stock="AS 2S 3S", discards="KC",
                 phase="play", turn_player=2, rebuy="none")
    game.apply(Discard(card("7S")))
    game.apply(Buy())
    assert game.phase == "draw"
    assert game.to_move == 0
    assert game.legal_actions() == [Draw("discard"), Draw("stock")]
    game.apply(Draw("discard"))
    assert hand(game, 0) == ["9H", "KC"]


def test_rebuy_next_card_turn_player_first_and_no_consecutive_buys() -> None:
    # remi: the new top discard is offered again to the other players, never twice in a row
    game = build("remi", players=4, hands=["9H", "4C", "4D", "5D"],
                 stock="AS 2S 3S 4S 5S 6S", discards="TC JC QC KC")
    game.apply(Draw("stock"))
    assert game.to_move == 1
    game.apply(Buy())  # seat 1 buys KC
    assert game.phase == "buy"
    assert game.offered_card == card("QC")
    assert game.view(None).queue == (2, 3)  # seat 1 may not buy again at once
    game.apply(Buy())  # seat 2 buys QC
    assert game.offered_card == card("JC")
    assert game.view(None).queue == (1, 3)
    game.apply(Pass())
    game.apply(Pass())
    assert game.phase == "play"
    assert game.to_move == 0
    assert hand(game, 0) == ["3S", "9H"]
    assert game.buys == [0, 1, 1, 0]


def test_rebuy_next_card_without_no_consecutive_buys() -> None:
    game = build("remi", players=3, hands=["9H", "4C", "4D"], stock="AS 2S 3S 4S",
                 discards="JC QC KC", no_consecutive_buys=False)
    game.apply(Draw("stock"))
    game.apply(Buy())
    assert game.to_move == 1
    assert game.offered_card == card("QC")


def test_buy_limit_per_round_liverpool() -> None:
    game = build(players=4, hands=["9H", "4C", "4D", "5D"], stock="AS 2S 3S",
                 discards="QD", buys=[0, 3, 2, 0])
    game.apply(Draw("stock"))
    assert game.to_move == 2  # seat 1 has bought 3 times this round
    game.apply(Buy())
    assert game.buys == [0, 3, 3, 0]
    unlimited = build(players=4, hands=["9H", "4C", "4D", "5D"], stock="AS 2S 3S",
                      discards="QD", buys=[0, 3, 2, 0], buy_limit_per_round="unlimited")
    unlimited.apply(Draw("stock"))
    assert unlimited.to_move == 1


def test_no_buying_when_buying_is_off() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="AS 2S", discards="QD", buying=False)
    game.apply(Draw("stock"))
    assert game.phase == "play"


def test_a_buy_needs_a_penalty_card() -> None:
    # empty stock, two discards: after the buy only the top card would be left
    game = build(hands=["9H", "4C", "4D"], stock="", discards="KC QD")
    game.apply(Draw("stock"))  # reshuffles KC into the stock and draws it; nothing to buy
    assert game.phase == "play"
    assert hand(game, 0) == ["9H", "KC"]
    assert game.discards == [card("QD")]
    # three discards: the penalty card comes from the reshuffled pile
    game = build(hands=["9H", "4C", "4D"], stock="", discards="JH KC QD")
    game.apply(Draw("stock"))
    assert game.phase == "buy"
    game.apply(Buy())
    # seat 1 took QD, the pile (JH KC, top KC set aside) was reshuffled: JH is the penalty
    assert hand(game, 1) == ["4C", "JH", "QD"]
    # the turn player must then take KC, the only card left
    assert hand(game, 0) == ["9H", "KC"]
    assert game.card_counts() == {"hands": 6, "stock": 0, "discards": 0, "table": 0}


def test_reshuffle_during_a_buy_window() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="", discards="2C 3C 4C 5C 6C 7C")
    game.apply(Draw("stock"))
    game.apply(Pass())
    game.apply(Buy())  # seat 2 takes 7C; penalty from the reshuffled 2C..5C, 6C stays on top
    assert card("7C") in game.hand(2)
    assert len(game.hand(2)) == 3
    assert any(e == StockReshuffled(e.seq, 4) for e in game.events)
    assert game.discards == [card("6C")]
    assert len(game.hand(0)) == 2
    assert game.phase == "play"
    assert sum(game.card_counts().values()) == 3 + 6


# ------------------------------------------------------------ 3.2 lay down


ROUND1 = "9H 9S 9D KS KH KC 2C 5D 7H 8C"


def test_lay_down_only_after_drawing_and_once_per_round() -> None:
    game = build(hands=[ROUND1 + " QS", "4C", "4D"], stock="3S 4S", discards="QD")
    ld = lay_down(game, "9H 9S 9D", "KS KH KC")
    illegal(game, ld, "lay_down_not_now")
    game.apply(Draw("discard"))
    assert game.legal_actions()[0].type == "lay_down"
    game.apply(ld)
    assert game.laid_down == [True, False, False]
    assert all(not isinstance(a, LayDown) for a in game.legal_actions())
    illegal(game, ld, "already_down")


def test_lay_down_exact_contract_kinds_and_count() -> None:
    game = build(hands=[ROUND1 + " QS QH 3H 4H 5H 6H", "4C", "4D"], stock="3S", discards="QD",
                 phase="play")
    illegal(game, lay_down(game, "9H 9S 9D", "3H 4H 5H 6H"), "contract_shape", round=1)
    illegal(game, lay_down(game, "9H 9S 9D"), "contract_shape")
    game2 = build(hands=[ROUND1 + " QS QH QD", "4C", "4D"], stock="3S", discards="QC",
                  phase="play")
    illegal(game2, lay_down(game2, "9H 9S 9D", "KS KH KC", "QS QH QD"), "contract_shape")
    illegal(game2, lay_down(game2, "9H 9S 9D", "AS AH AD"), "lay_down_not_held",
            card=card("AS"))
    game2.apply(lay_down(game2, "9H 9S 9D", "KS KH KC"))
    assert len(game2.table) == 2


def test_contract_exact_remi_no_five_card_run() -> None:
    hand0 = "9H 9S 9D 3C 4C 5C 6C 7C KD 2H 8S"
    remi = build("remi", hands=[hand0, "4C", "4D"], stock="3S", discards="QD", phase="play",
                 round=2, turn_player=0)
    illegal(remi, lay_down(remi, "9H 9S 9D", "3C 4C 5C 6C 7C"), "contract_exact",
            size=4, kind="run")
    remi.apply(lay_down(remi, "9H 9S 9D", "3C 4C 5C 6C"))
    loose = build("remi", hands=[hand0, "4C", "4D"], stock="3S", discards="QD", phase="play",
                  round=2, turn_player=0, contract_exact=False)
    loose.apply(lay_down(loose, "9H 9S 9D", "3C 4C 5C 6C 7C"))
    assert str(loose.table[1]) == "3C 4C 5C 6C 7C"


def test_suggested_lay_down_is_extended_where_allowed() -> None:
    game = build(hands=["9H 9S 9D 9C KS KH KC 2C 5D 7H", "4C", "4D"], stock="3S",
                 discards="QD", phase="play")
    suggestion = game.suggest_lay_down()
    assert suggestion is not None
    assert sorted(len(m.cards) for m in suggestion.melds) == [3, 4]
    game.apply(suggestion)
    # remi lays down exactly
    remi = build("remi", hands=["9H 9S 9D 9C KS KH KC 2C 5D 7H", "4C", "4D"], stock="3S",
                 discards="QD", phase="play")
    suggestion = remi.suggest_lay_down()
    assert suggestion is not None
    assert [len(m.cards) for m in suggestion.melds] == [3, 3]


def test_suggestion_keeps_a_card_to_discard_under_go_out_requires_discard() -> None:
    game = build("dansk", hands=["9H 9S 9D KS KH KC 9C", "4C", "4D"], stock="3S",
                 discards="QD", phase="play")
    suggestion = game.suggest_lay_down()
    assert suggestion is not None
    assert sum(len(m.cards) for m in suggestion.melds) == 6
    game.apply(suggestion)
    assert hand(game, 0) == ["9C"]
    assert game.phase == "play"


# -------------------------------------------------------------- 3.2 lay off


def test_lay_off_needs_own_contract_down_and_not_the_same_turn() -> None:
    game = build(hands=[ROUND1 + " QS", "4C", "4D"], stock="3S 4S", discards="QD",
                 table=["5H 6H 7H 8H", "4S 4D 4H"], owners=[1, 1], down=[False, True, False])
    game.apply(Draw("discard"))
    illegal(game, LayOff(card("9H"), 0, "high"), "not_down")
    game.apply(lay_down(game, "9S 9D 9H", "KS KH KC"))
    illegal(game, LayOff(card("7H"), 0, "high"), "lay_off_next_turn")
    illegal(game, LayOff(card("2C"), 1), "lay_off_next_turn")
    assert all(not isinstance(a, LayOff) for a in game.legal_actions())
    same_turn = build(hands=[ROUND1 + " 9C", "4C", "4D"], stock="3S 4S", discards="9H",
                      table=["5H 6H 7H 8H"], owners=[1], down=[False, True, False],
                      lay_off_same_turn=True)
    same_turn.apply(Draw("discard"))
    same_turn.apply(lay_down(same_turn, "9S 9D 9H", "KS KH KC"))
    assert LayOff(card("9C"), 1) in same_turn.legal_actions()
    assert LayOff(card("9H"), 0, "high") in same_turn.legal_actions()
    same_turn.apply(LayOff(card("9C"), 1))
    assert len(same_turn.table[1].cards) == 4


def test_lay_off_on_any_meld_in_a_later_turn() -> None:
    game = build(hands=["9H 4C QS 2C", "4C", "4D"], stock="3S", discards="QD",
                 table=["5H 6H 7H 8H", "4S 4D 4H", "QH QC QD"], owners=[1, 1, 0],
                 down=[True, True, False], down_turn=[2, 1, -1], phase="play")
    legal = game.legal_actions()
    assert LayOff(card("9H"), 0, "high") in legal
    assert LayOff(card("4C"), 1) in legal
    assert LayOff(card("QS"), 2) in legal
    assert LayOff(card("2C"), 0, "low") not in legal
    game.apply(LayOff(card("9H"), 0))  # end filled in: 9H fits only at the high end
    assert str(game.table[0]) == "5H 6H 7H 8H 9H"
    game.apply(LayOff(card("4C"), 1))
    assert len(game.table[1].cards) == 4
    assert game.phase == "play"


def test_lay_off_with_a_wild_at_either_end_needs_the_end() -> None:
    game = build(hands=["* 4C QS 2C", "4C", "4D"], stock="3S", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[1], down=[True, True, False], phase="play")
    illegal(game, LayOff(card("*"), 0), "both_ends", card=card("*"))
    game.apply(LayOff(card("*"), 0, "low"))
    assert str(game.table[0]) == "* 5H 6H 7H 8H"


def test_lay_off_last_card_goes_out_in_a_normal_round() -> None:
    game = build(hands=["9H", "4C 5C", "4D KS"], stock="3S", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[1], down=[True, True, False], phase="play",
                 round_scores=[])
    game.apply(LayOff(card("9H"), 0, "high"))
    assert game.round == 2
    assert game.results().round_scores == ((0, 10, 15),)


# ------------------------------------------------------------ 3.2 joker swap


def test_joker_swap_liverpool_runs_and_sets() -> None:
    game = build(hands=["7H QS 2C 4D", "4C", "4D"], stock="3S", discards="QD",
                 table=["5H 6H * 8H", "QH QD *"], owners=[1, 1], down=[True, True, False],
                 phase="play")
    legal = game.legal_actions()
    assert SwapJoker(card("7H"), 0, 2) in legal
    assert SwapJoker(card("QS"), 1, 2) in legal
    game.apply(SwapJoker(card("7H"), 0, 2))
    assert str(game.table[0]) == "5H 6H 7H 8H"
    assert card("*") in game.hand(0)
    assert card("7H") not in game.hand(0)
    # liverpool has no must-play rule: the joker may be kept and a card discarded
    assert Discard(card("*")) in game.legal_actions()
    game.apply(Discard(card("4D")))
    assert card("*") in game.hand(0)


def test_the_deuce_of_spades_is_offered_as_a_swap_where_the_wild_stands_for_it() -> None:
    rules = load_rules("liverpool", wild_deuce_of_spades=True)
    game = build(rules=rules, hands=["2S 7H", "4C KS", "3D KH"], stock="AS 2S 3S",
                 discards="QD", table=["AS * 3S 4S"], owners=[1], down=[True, True, False],
                 phase="play", turn_player=0)
    assert SwapJoker(card("2S"), 0, 1) in game.legal_actions()
    game.apply(SwapJoker(card("2S"), 0, 1))
    assert [str(m) for m in game.table] == ["AS 2S 3S 4S"]
    assert sorted(hand(game, 0)) == ["*", "7H"]


def test_refill_turns_no_upcard_at_the_start_of_a_round_without_one() -> None:
    # refill_empty_discard refills an *emptied* pile; initial_upcard = false
    # starts the round with an empty pile that nobody emptied
    game = Game(load_rules("dansk", initial_upcard=False), players=3, seed=1)
    assert game.discards == []
    assert [type(e) for e in game.events] == [RoundStarted]
    assert game.legal_actions() == [Draw("stock")]


def test_joker_swap_needs_contract_down_in_an_earlier_turn() -> None:
    game = build(hands=["9S 9D 9C KS KH KC 7H 2D", "4C", "4D"], stock="3S", discards="QD",
                 table=["5H 6H * 8H"], owners=[1], down=[False, True, False], phase="play")
    illegal(game, SwapJoker(card("7H"), 0, 2), "not_down")
    game.apply(lay_down(game, "9S 9D 9C", "KS KH KC"))
    illegal(game, SwapJoker(card("7H"), 0, 2), "swap_next_turn")


def test_joker_swap_remi_runs_only_and_the_joker_must_be_played() -> None:
    game = build("remi", hands=["7H QS 2C 4D", "4C", "4D"], stock="3S", discards="QD",
                 table=["5H 6H * 8H", "QH QD *", "3S 4S 5S 6S"], owners=[1, 1, 1],
                 down=[True, True, False], phase="play")
    legal = game.legal_actions()
    assert SwapJoker(card("7H"), 0, 2) in legal
    assert SwapJoker(card("QS"), 1, 2) not in legal  # a wild in a set is locked
    illegal(game, SwapJoker(card("QS"), 1, 2), "swap_runs_only")
    game.apply(SwapJoker(card("7H"), 0, 2))
    # the taken joker must go onto the table again this turn: no discard now
    legal = game.legal_actions()
    assert legal
    assert not any(isinstance(a, Discard) for a in legal)
    assert LayOff(card("*"), 2, "high") in legal
    illegal(game, Discard(card("4D")), "swapped_wild_first")
    illegal(game, Discard(card("*")), "swapped_wild_first")
    game.apply(LayOff(card("*"), 2, "high"))
    assert str(game.table[2]) == "3S 4S 5S 6S *"
    assert Discard(card("4D")) in game.legal_actions()
    game.apply(Discard(card("4D")))
    assert game.view(None).pending_wilds == 0


def test_the_swapped_joker_may_wait_for_other_lay_offs_in_the_same_turn() -> None:
    # the Remi rules: the joker "må ut igjen i samme tur" (in the same turn), in
    # no set order: 9H may go onto the heart run first, then the joker as TH
    game = build("remi", hands=["3S 9H KD", "4C QS", "3D QH"], stock="AD", discards="QD",
                 table=["2S * 4S 5S", "5H 6H 7H 8H"], owners=[1, 0],
                 down=[True, True, False], phase="play")
    game.apply(SwapJoker(card("3S"), 0, 1))
    assert LayOff(card("9H"), 1, "high") in game.legal_actions()
    game.apply(LayOff(card("9H"), 1, "high"))
    illegal(game, Discard(card("KD")), "swapped_wild_first")
    game.apply(LayOff(card("*"), 1, "high"))
    assert str(game.table[1]) == "5H 6H 7H 8H 9H *"
    game.apply(Discard(card("KD")))
    assert game.phase != "play" or game.state.turn_player != 0


def test_a_second_swap_may_come_before_the_first_joker_goes_back() -> None:
    game = build("remi", hands=["7H 7C KD", "4C QS", "3D QH"], stock="AD", discards="QD",
                 table=["5H 6H * 8H", "5C 6C * 8C", "3S 4S 5S 6S"], owners=[1, 1, 0],
                 down=[True, True, False], phase="play")
    game.apply(SwapJoker(card("7H"), 0, 2))
    assert SwapJoker(card("7C"), 1, 2) in game.legal_actions()
    game.apply(SwapJoker(card("7C"), 1, 2))
    assert game.view(None).pending_wilds == 2
    game.apply(LayOff(card("*"), 2, "high"))
    illegal(game, Discard(card("KD")), "swapped_wild_first")
    game.apply(LayOff(card("*"), 2, "low"))
    assert str(game.table[2]) == "* 3S 4S 5S 6S *"
    assert Discard(card("KD")) in game.legal_actions()


def test_no_move_may_strand_the_swapped_joker() -> None:
    # the spade run is full (A..K..A); the joker taken from it fits only at the
    # heart run's high end, as AH: laying the real AH there first would leave
    # the joker nowhere to go, so AH waits until the joker is down
    game = build("remi", hands=["7S AH QD", "4C QS", "3D QH"], stock="AD", discards="QD",
                 table=["AS 2S 3S 4S 5S 6S * 8S 9S TS JS QS KS AS",
                        "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"], owners=[1, 0],
                 down=[True, True, False], phase="play")
    game.apply(SwapJoker(card("7S"), 0, 6))
    legal = game.legal_actions()
    assert legal == [LayOff(card("*"), 1, "high")]
    illegal(game, LayOff(card("AH"), 1, "high"), "wild_stranded")
    illegal(game, Discard(card("QD")), "swapped_wild_first")


def test_pending_wild_does_not_carry_over_to_the_next_turn() -> None:
    game = build("remi", hands=["7H QS 2C 4D", "* 4C 5C", "4D"], stock="3S 9S", discards="QD",
                 table=["5H 6H * 8H", "3S 4S 5S 6S"], owners=[1, 1],
                 down=[True, True, False], phase="play")
    game.apply(SwapJoker(card("7H"), 0, 2))
    game.apply(LayOff(card("*"), 1, "high"))
    game.apply(Discard(card("4D")))
    game.apply(Draw("stock"))
    # seat 2 declines 4D (seat 0 discarded it and may not buy it back); seat 1 draws
    assert game.view(None).queue == (2,)
    game.apply(Pass())
    assert game.to_move == 1
    assert game.phase == "play"
    assert any(isinstance(a, Discard) for a in game.legal_actions())


def test_swap_is_offered_only_if_the_wild_can_go_back() -> None:
    # the only meld is a full run A..A: the joker taken from it could go nowhere
    full = "AH 2H 3H 4H 5H 6H * 8H 9H TH JH QH KH AH"
    game = build("remi", hands=["7H QS 2C", "4C", "4D"], stock="3S", discards="QD",
                 table=[full], owners=[1], down=[True, True, False], phase="play")
    assert SwapJoker(card("7H"), 0, 6) not in game.legal_actions()
    illegal(game, SwapJoker(card("7H"), 0, 6), "wild_stranded")
    free = build("remi", hands=["7H QS 2C", "4C", "4D"], stock="3S", discards="QD",
                 table=[full], owners=[1], down=[True, True, False], phase="play",
                 swapped_joker_must_be_played=False)
    assert SwapJoker(card("7H"), 0, 6) in free.legal_actions()


# ------------------------------------------------------------ 3.4 discard calls


def call_position(preset: str = "liverpool", **overrides: object) -> Game:
    """Seat 0 is down (from an earlier turn) and holds 9H, which fits 5H-8H."""
    return build(preset, hands=["9H 4D", "4C KS", "3D KH"], stock="AS 2S 3S",
                 discards="TC QD", table=["5H 6H 7H 8H", "JS JD JC"], owners=[0, 0],
                 down=[True, False, False], phase="play", **overrides)


def test_liverpool_call() -> None:
    game = call_position()
    game.apply(Discard(card("9H")))
    assert game.phase == "call"
    assert game.to_move == 1
    assert game.legal_actions() == [Call(), Pass()]
    assert game.offered_card == card("9H")
    game.apply(Pass())
    assert game.to_move == 2
    events = game.apply(Call())
    # the discarder takes 9H back and a penalty card; play passes on to seat 1
    assert hand(game, 0) == ["4D", "9H", "AS"]
    assert game.discards == cards("TC QD")
    assert game.turn_player == 1
    assert game.phase == "draw"
    assert [type(e) for e in events][:2] == [Called, PenaltyDrawn]
    called, penalty = events[:2]
    assert (called.seat, called.discarder, called.card, called.call) == (2, 0, card("9H"),
                                                                         "liverpool")
    assert penalty == PenaltyDrawn(penalty.seq, 0, card("AS"), None)
    for seat in (1, 2, None):
        text = str(game.view(seat).to_json()["events"])
        assert "'AS'" not in text
    assert "'AS'" in str(game.view(0).to_json()["events"])


def test_all_pass_on_a_call() -> None:
    game = call_position()
    game.apply(Discard(card("9H")))
    game.apply(Pass())
    game.apply(Pass())
    assert game.discards[-1] == card("9H")
    assert game.turn_player == 1


def test_no_call_when_the_card_does_not_fit_or_the_discarder_is_not_down() -> None:
    game = call_position()
    game.apply(Discard(card("4D")))
    assert game.phase == "draw"
    assert game.turn_player == 1
    game = build(hands=["9H 4D", "4C KS", "3D KH"], stock="AS 2S 3S", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[1], down=[False, True, False], phase="play")
    game.apply(Discard(card("9H")))
    assert game.phase == "draw"


def test_no_call_in_the_turn_the_contract_went_down() -> None:
    game = build(hands=[ROUND1 + " 9C", "4C KS", "3D KH"], stock="AS 2S 3S", discards="QD",
                 phase="play")
    game.apply(lay_down(game, "9H 9S 9D", "KS KH KC"))
    game.apply(Discard(card("9C")))  # fits the nines, but seat 0 could not lay off this turn
    assert game.phase == "draw"
    assert game.turn_player == 1


def test_liverpool_pile_call_dansk() -> None:
    game = call_position("dansk")
    game.apply(Discard(card("9H")))
    game.apply(Call())
    assert hand(game, 0) == ["4D", "9H", "QD", "TC"]
    # the emptied pile is refilled from the stock (refill_empty_discard)
    assert game.discards == [card("AS")]
    assert game.turn_player == 1


def test_shanghai_call_and_announce() -> None:
    game = call_position("remi", discard_call="shanghai")
    legal = game.legal_actions()
    assert Discard(card("9H"), announce=True) in legal
    assert Discard(card("4D"), announce=True) not in legal
    game.apply(Discard(card("9H")))
    assert game.phase == "call"
    assert game.legal_actions() == [Call(0, "high"), Pass()]
    illegal(game, Call(1), "call_no_fit", card=card("9H"))
    game.apply(Call(0, "high"))
    assert str(game.table[0]) == "5H 6H 7H 8H 9H"
    # the discarder drew one of the caller's two cards at random
    assert len(game.hand(1)) == 1
    assert len(game.hand(0)) == 2
    assert sorted(game.hand(0) + game.hand(1)) == sorted(cards("4D 4C KS"))
    taken = next(e for e in game.events if isinstance(e, PenaltyDrawn))
    assert taken.seat == 0
    assert taken.from_seat == 1
    assert taken.card in cards("4C KS")
    # the card is known to the discarder and the caller only
    assert game.events_for(1)[taken.seq] == taken == game.events_for(0)[taken.seq]
    assert game.events_for(2)[taken.seq].card is None
    assert game.events_for(None)[taken.seq].card is None

    protected = call_position("remi", discard_call="shanghai")
    protected.apply(Discard(card("9H"), announce=True))
    assert protected.phase == "draw"
    assert protected.turn_player == 1
    illegal(call_position("remi", discard_call="shanghai"), Discard(card("4D"), announce=True),
            "announce_pointless")


def test_discard_call_none() -> None:
    game = call_position("remi")
    assert Discard(card("9H"), announce=True) not in game.legal_actions()
    game.apply(Discard(card("9H")))
    assert game.phase == "draw"


def test_a_callable_last_discard_ends_the_round_at_once() -> None:
    # docs/rules.md, §3.5 "The round ends the moment a player has no cards left"; the
    # Liverpool guide: the round is over when a player is rid of all cards, usually by
    # the last discard. A last discard that fits the table therefore opens no call window.
    game = build(hands=["9H", "4C KS", "3D KH"], stock="AS 2S 3S", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False], phase="play")
    game.apply(Discard(card("9H")))
    assert game.round == 2
    assert game.results().round_scores == ((0, 15, 15),)
    assert [type(e) for e in game.events if isinstance(e, WentOut | Called)] == [WentOut]


def _shanghai_called(caller_hand: str) -> Game:
    """Remi with Shanghai calls: seat 0 (down) discards 9H, which fits 5H-8H, and
    seat 1, holding ``caller_hand``, calls it."""
    rules = load_rules("remi", discard_call="shanghai")
    game = build(rules=rules, hands=["9H 4D", caller_hand, "3D KH QC"], stock="AS 2S 3S 4S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False],
                 phase="play", turn_player=0)
    game.apply(Discard(card("9H")))
    assert game.phase == "call"
    game.apply(Call(0, "high"))
    return game


def test_a_shanghai_caller_left_without_cards_goes_out() -> None:
    # The discarder draws one card from the caller's hand (§3.4); a caller whose
    # only card is drawn has no cards left, and the round ends (§3.5).
    game = _shanghai_called("KS")
    rules = game.rules
    assert game.round == 2
    assert game.results().round_scores == ((rules.hand_points(cards("4D KS")), 0,
                                             rules.hand_points(cards("3D KH QC"))),)
    assert [e.seat for e in game.events if isinstance(e, WentOut)] == [1]


def test_a_shanghai_caller_with_cards_left_plays_on() -> None:
    game = _shanghai_called("KS QS")
    assert game.round == 1
    assert game.to_move == 1
    assert len(hand(game, 0)) == 2
    assert len(hand(game, 1)) == 1


def test_shanghai_announced_on_a_last_discard_that_may_be_called() -> None:
    # call_last_discard: a last discard that fits may be called, so "Shanghai!"
    # protects it as any other (§3.4); the round ends when nobody may call
    rules = load_rules("remi", discard_call="shanghai", call_last_discard=True)
    position = {"rules": rules, "hands": ["9H", "KS QS", "3D KH QC"], "stock": "AS 2S 3S 4S",
                "discards": "QD", "table": ["5H 6H 7H 8H"], "owners": [0],
                "down": [True, False, False], "phase": "play", "turn_player": 0}
    game = build(**position)
    assert Discard(card("9H"), announce=True) in game.legal_actions()
    game.apply(Discard(card("9H"), announce=True))
    assert game.round == 2
    assert [e.seat for e in game.events if isinstance(e, WentOut)] == [0]
    game = build(**position)
    game.apply(Discard(card("9H")))
    assert game.phase == "call"


def test_a_player_with_no_cards_may_not_call_shanghai() -> None:
    # go_out_requires_discard: seat 1 has laid off its last card and holds none;
    # a Shanghai call hands the discarder a card of the caller's, so only seat 2 is asked
    rules = load_rules("remi", discard_call="shanghai", go_out_requires_discard=True)
    game = build(rules=rules, hands=["9H 4D", "", "3D KH QC"], stock="AS 2S 3S 4S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0], down=[True, True, False],
                 phase="play", turn_player=0)
    game.apply(Discard(card("9H")))
    assert game.phase == "call"
    assert game.view(None).queue == (2,)
    # with nobody able to call, no window opens
    game = build(rules=rules, players=3, hands=["9H 4D", "", ""], stock="AS 2S 3S 4S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0], down=[True, True, True],
                 phase="play", turn_player=0)
    game.apply(Discard(card("9H")))
    assert (game.phase, game.to_move) == ("draw", 1)


# ------------------------------------------------------------ 3.5 going out


def test_going_out_by_discarding_the_last_card() -> None:
    game = build(hands=["4D", "4C KS", "3D KH *"], stock="AS 2S 3S", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False], phase="play")
    game.apply(Discard(card("4D")))
    assert game.round == 2
    assert game.results().round_scores == ((0, 15, 65),)
    assert any(e == WentOut(e.seq, 0) for e in game.events)


def test_go_out_requires_discard_dansk() -> None:
    game = build("dansk", hands=["9H", "4C KS", "3D KH"], stock="AS 2S 3S 4S 5S",
                 discards="QD", table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False],
                 phase="play")
    game.apply(LayOff(card("9H"), 0, "high"))
    # no cards left, but the round goes on: the turn ends without a discard
    assert game.round == 1
    assert game.hand(0) == []
    assert game.turn_player == 1
    assert any(e == HandEmptied(e.seq, 0) for e in game.events)
    assert not any(isinstance(e, WentOut) for e in game.events)
    # seats 1 and 2 play their turns
    for _ in range(2):
        while game.phase == "buy":
            game.apply(Pass())
        game.apply(Draw("stock"))
        while game.phase == "buy":
            game.apply(Pass())
        game.apply(Discard(game.hand(game.turn_player)[0]))
        while game.phase == "call":
            game.apply(Pass())
    while game.phase == "buy":
        game.apply(Pass())
    assert game.turn_player == 0
    assert game.phase == "draw"
    game.apply(Draw("stock"))
    assert len(game.hand(0)) == 1
    last = game.hand(0)[0]
    game.apply(Discard(last))
    while game.phase == "call":
        game.apply(Pass())
    assert game.round == 2
    assert game.results().round_scores[0][0] == 0


# ------------------------------------------------------------ 3.6 final round

R7_HAND = "3H 4H 5H 6H 7C 8C 9C TC JD QD KD AD"  # three runs, 12 cards


def test_final_round_all_at_once_liverpool() -> None:
    game = build(hands=[R7_HAND, "4C KS", "3D KH"], stock="2S 3S", discards="QC",
                 round=7, turn_player=0, round_scores=[[0, 0, 0]] * 6)
    game.apply(Draw("stock"))
    game.apply(Pass())
    game.apply(Pass())
    assert card("2S") in game.hand(0)
    illegal(game, lay_down(game, "3H 4H 5H 6H", "7C 8C 9C TC", "JD QD KD AD"), "lay_down_all")
    assert game.legal_actions()[0].type != "lay_down"
    game2 = build(hands=[R7_HAND, "4C KS", "3D KH"], stock="2S 3S", discards="QC 7H",
                  round=7, turn_player=0, round_scores=[[0, 0, 0]] * 6)
    game2.apply(Draw("discard"))
    suggestion = game2.suggest_lay_down()
    assert suggestion is not None
    assert sum(len(m.cards) for m in suggestion.melds) == 13
    game2.apply(lay_down(game2, "3H 4H 5H 6H 7H", "7C 8C 9C TC", "JD QD KD AD"))
    assert game2.is_over  # out without a discard
    assert game2.results().round_scores[-1] == (0, 15, 15)
    assert game2.results().winners == (0,)


def test_final_round_all_at_once_remi_ignores_contract_exact() -> None:
    hand0 = "2H 3H 4H 5H 6H 7C 8C 9C TC JD QD KD"
    short = build("remi", hands=[hand0[3:], "4C KS", "3D KH"], stock="2S",
                  discards="QC AD", round=7, turn_player=0)
    short.apply(Draw("discard"))
    assert short.check_lay_down(lay_down(short, "3H 4H 5H 6H", "7C 8C 9C TC",
                                         "JD QD KD AD").melds) is None
    five = build("remi", hands=[hand0, "4C KS", "3D KH"], stock="2S", discards="QC AD",
                 round=7, turn_player=0)
    five.apply(Draw("discard"))
    five.apply(lay_down(five, "2H 3H 4H 5H 6H", "7C 8C 9C TC", "JD QD KD AD"))
    assert five.is_over


def test_final_round_all_at_once_discard_london() -> None:
    game = build("london", hands=[R7_HAND, "4C KS", "3D KH"], stock="2D 3S", discards="QC",
                 round=7, turn_player=0)
    game.apply(Draw("stock"))
    game.apply(Pass())
    game.apply(Pass())
    # 13 cards: all but one go down, then the last is discarded
    illegal(game, lay_down(game, "3H 4H 5H 6H", "7C 8C 9C TC"), "contract_shape", round=7)
    game.apply(lay_down(game, "3H 4H 5H 6H", "7C 8C 9C TC", "JD QD KD AD"))
    assert game.legal_actions() == [Discard(card("2D"))]
    game.apply(Discard(card("2D")))
    assert game.is_over
    assert game.results().round_scores[-1][0] == 0


def test_final_round_normal() -> None:
    game = build(hands=["3H 4H 5H 6H 7C 8C 9C TC JD QD KD AD 4S", "4C KS", "3D KH"],
                 stock="2S", discards="QC 5C", round=7, turn_player=0, final_round="normal")
    game.apply(Draw("discard"))
    game.apply(lay_down(game, "3H 4H 5H 6H", "7C 8C 9C TC", "JD QD KD AD"))
    assert not game.is_over
    assert game.phase == "play"
    game.apply(Discard(card("4S")))
    assert not game.is_over
    assert game.turn_player == 1


def test_final_round_replaces_go_out_requires_discard_dansk() -> None:
    # dansk round 7 is 3 sets + 1 run; the whole hand goes down and the player is out
    game = build("dansk", hands=["2S 2H 2D 5S 5D 5C 9S 9H 9D 3H 4H 5H", "4C KS", "3D KH"],
                 stock="2C", discards="QC 6H", round=7, turn_player=0)
    game.apply(Draw("discard"))
    game.apply(lay_down(game, "2S 2H 2D", "5S 5D 5C", "9S 9H 9D", "3H 4H 5H 6H"))
    assert game.is_over
    assert game.results().round_scores[-1][0] == 0


# ------------------------------------------------------------ 3.7 stock out


def test_stock_reshuffle_keeps_the_top_discard() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="", discards="2C 3C 4C 5C", buying=False)
    game.apply(Draw("stock"))
    assert game.discards == [card("5C")]
    assert game.stock_size == 2
    drawn = [c for c in game.hand(0) if c != card("9H")]
    assert len(drawn) == 1
    assert drawn[0] in cards("2C 3C 4C")
    assert any(e == StockReshuffled(e.seq, 3) for e in game.events)


def test_only_the_discard_when_the_stock_cannot_supply() -> None:
    game = build(hands=["9H", "4C", "4D"], stock="", discards="5C")
    assert game.legal_actions() == [Draw("discard")]
    illegal(game, Draw("stock"), "not_now_draw", seat=0, action=Draw("stock"))


def test_no_winner_when_neither_pile_can_supply() -> None:
    # dansk: the pile call empties the discard pile and the stock is empty
    game = build("dansk", hands=["9H 4D", "4C KS", "3D KH"], stock="", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False], phase="play")
    game.apply(Discard(card("9H")))
    game.apply(Call())
    assert game.round == 2
    assert any(e == RoundAbandoned(e.seq, "exhausted") for e in game.events)
    assert game.results().round_scores == ((23, 14, 13),)  # everyone scores the hand


def test_max_turns_per_round() -> None:
    game = Game(load_rules("liverpool", max_turns_per_round=3), players=3, seed=1)
    hands_before = None
    turns = 0
    while game.round == 1:
        if game.phase == "draw":
            turns += 1
            hands_before = [game.hand(s) for s in range(3)]
        legal = game.legal_actions()
        game.apply(Pass() if Pass() in legal else Draw("stock") if Draw("stock") in legal
                   else next(a for a in legal if isinstance(a, Discard)))
    assert turns == 3
    assert any(e == RoundAbandoned(e.seq, "stalled") for e in game.events)
    assert hands_before is not None
    # everyone scores the hand (no winner)
    assert all(p > 0 for p in game.results().round_scores[0])


# ------------------------------------------------------------ the Liverpool cut


def test_liverpool_cut_bonus() -> None:
    rules = load_rules("liverpool", liverpool_cut=True, cut_noise=0, max_turns_per_round=1)
    game = Game(rules, players=4, seed=3)
    assert game.phase == "cut"
    assert game.to_move == 2
    legal = game.legal_actions()
    assert legal[0] == Cut(1)
    assert legal[-1] == Cut(rules.deck_size(4) - 1)
    target = 4 * 10 + 1
    game.apply(Cut(target))
    assert game.view(None).cut_bonus_seat == 2
    assert game.phase == "draw"
    assert game.to_move == 0
    points = []
    while game.round == 1:
        points = [rules.hand_points(game.hand(s)) for s in range(4)]
        legal = game.legal_actions()
        action = (Pass() if Pass() in legal else Draw("stock") if Draw("stock") in legal
                  else next(a for a in legal if isinstance(a, Discard)))
        game.apply(action)
    assert isinstance(action, Discard)  # the round stalled when seat 0's turn ended
    points[0] -= rules.card_points(action.card)
    # max_turns 1: seat 0 drew and discarded; everyone scores the hand; seat 2 gets -50
    assert game.phase == "cut"
    assert game.to_move == 3
    assert game.results().round_scores[0] == tuple(
        p + (rules.cut_bonus if s == 2 else 0) for s, p in enumerate(points))
    miss = Game(rules, players=4, seed=3)
    miss.apply(Cut(target + 1))
    assert miss.view(None).cut_bonus_seat == -1


def test_cut_with_noise_lands_near_the_named_count() -> None:
    rules = load_rules("liverpool", liverpool_cut=True, cut_noise=5)
    counts = set()
    for seed in range(20):
        game = Game(rules, players=3, seed=seed)
        game.apply(Cut(40))
        cut = next(e for e in game.events if isinstance(e, DeckCut))
        assert cut.seat == 1  # right of the dealer (seat 2)
        counts.add(cut.count)
        assert (cut.bonus != 0) == (cut.count == 3 * 10 + 1)
        assert cut.bonus in (0, rules.cut_bonus)
    assert counts <= set(range(35, 46))
    assert len(counts) > 3


# ------------------------------------------------------------ 3.8 scoring


def test_remi_scoring_examples() -> None:
    rules = load_rules("remi")
    assert rules.hand_points(cards("* KH 4D")) == 64
    assert rules.hand_points(cards("AS 8C 8D")) == 36


def test_scoring_and_shared_wins() -> None:
    game = build(hands=["4D", "4C KS", "AH"], stock="AS 2S 3S", discards="QD",
                 round=7, turn_player=0, phase="play", final_round="normal",
                 table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False],
                 round_scores=[[20, 0, 0]] * 6)
    game.apply(Discard(card("4D")))
    assert game.is_over
    res = game.results()
    assert res.round_scores[-1] == (0, 15, 20)
    assert res.totals == (120, 15, 20)
    assert res.winners == (1,)
    tie = build(hands=["4D", "4C KS", "5C TD"], stock="AS 2S 3S", discards="QD",
                round=7, turn_player=0, phase="play", final_round="normal",
                table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False],
                round_scores=[[0, 0, 0]] * 6)
    tie.apply(Discard(card("4D")))
    assert tie.results().winners == (0,)
    tie2 = build(hands=["4D", "4C KS", "5C TD"], stock="AS 2S 3S", discards="QD",
                 round=7, turn_player=0, phase="play", final_round="normal",
                 table=["5H 6H 7H 8H"], owners=[0], down=[True, False, False],
                 round_scores=[[15, 0, 0]] * 6)
    tie2.apply(Discard(card("4D")))
    assert tie2.results().totals == (90, 15, 15)
    assert tie2.results().winners == (1, 2)
    assert tie2.events[-1] == GameEnded(tie2.events[-1].seq, (90, 15, 15), (1, 2))


# ------------------------------------------------------------ illegal actions


def test_illegal_actions_change_nothing() -> None:
    game = build(hands=["9H 4D", "4C KS", "3D KH"], stock="AS 2S 3S", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[1], down=[False, True, False])
    illegal(game, Buy(), "not_now_draw")
    illegal(game, Pass(), "not_now_draw")
    illegal(game, Discard(card("9H")), "not_now_draw")
    illegal(game, Call(), "not_now_draw")
    illegal(game, Cut(5), "not_now_draw")
    illegal(game, LayOff(card("9H"), 0, "high"), "not_now_draw")
    game.apply(Draw("discard"))
    illegal(game, Draw("stock"), "not_now_play")
    illegal(game, Discard(card("KS")), "not_in_hand", card=card("KS"))
    illegal(game, LayOff(card("9H"), 7, "high"), "not_down")
    illegal(game, SwapJoker(card("9H"), 0, 1), "not_down")
    illegal(game, lay_down(game, "9H 9S 9D"), "contract_shape")
    illegal(game, lay_down(game, "9H 9S 9D", "KS KH KC"), "lay_down_not_held")


def test_illegal_lay_off_and_swap_messages_when_down() -> None:
    game = build(hands=["9H 4D 7H", "4C KS", "3D KH"], stock="AS", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[1], down=[True, True, False], phase="play")
    illegal(game, LayOff(card("9H"), 3, "high"), "no_such_meld", number=4)
    illegal(game, LayOff(card("4D"), 0, "high"), "does_not_fit_high", card=card("4D"))
    illegal(game, LayOff(card("9H"), 0, "low"), "does_not_fit_low")
    illegal(game, SwapJoker(card("7H"), 0, 2), "cannot_replace")
    dansk = build("dansk", hands=["9H 4D 7H", "4C KS", "3D KH"], stock="AS", discards="QD",
                  table=["5H 6H 7H 8H"], owners=[1], down=[True, True, False], phase="play")
    illegal(dansk, SwapJoker(card("7H"), 0, 2), "no_swaps")


@pytest.mark.parametrize(("action", "code"), [
    (Discard("9H"), "action_card_type"),  # type: ignore[arg-type]
    (LayOff(card("9H"), "0", "high"), "action_number_type"),  # type: ignore[arg-type]
    (LayOff(card("9H"), 0.0, "high"), "action_number_type"),  # type: ignore[arg-type]
    (LayOff(card("9H"), 0, "top"), "action_bad_end"),  # type: ignore[arg-type]
    (SwapJoker(card("9H"), 0, None), "action_number_type"),  # type: ignore[arg-type]
    (Discard(card("4D"), 1), "action_bad_announce"),  # type: ignore[arg-type]
    (Draw("pile"), "action_bad_source"),  # type: ignore[arg-type]
    (Cut(True), "action_number_type"),
    (LayDown(("9H 9S 9D", "KS KH KC")), "action_bad_meld"),  # type: ignore[arg-type]
    (LayDown((None,)), "action_bad_meld"),  # type: ignore[arg-type]
])
def test_actions_with_fields_of_the_wrong_type_are_refused_in_words(action: object,
                                                                     code: str) -> None:
    # actions made in Python with a string for a card, a float for a meld, …:
    # refused with a message that says which field, never a TypeError
    game = build(hands=["9H 4D", "4C KS", "3D KH"], stock="AS", discards="QD",
                 table=["5H 6H 7H 8H"], owners=[0], down=[True, True, False], phase="play")
    error = illegal(game, action, code)  # type: ignore[arg-type]
    assert str(error) != code
    assert not game.can_apply(action)  # type: ignore[arg-type]


def test_game_arguments_of_the_wrong_type_are_named() -> None:
    rules = load_rules("liverpool")
    for args, word in [(("liverpool",), "rules"), ((rules, "4"), "players"),
                       ((rules, True), "players"), ((rules, 4, "x"), "seed")]:
        with pytest.raises(TypeError, match=f"^{word} must be"):
            Game(*args)  # type: ignore[arg-type]


def test_illegal_in_buy_and_call_windows() -> None:
    game = build(hands=["9H 4D", "4C KS", "3D KH"], stock="AS 2S 3S", discards="QD")
    game.apply(Draw("stock"))
    illegal(game, Draw("discard"), "not_now_buy", seat=1, action=Draw("discard"))
    illegal(game, Discard(card("4C")), "not_now_buy")
    illegal(game, Call(), "not_now_buy")
    call = call_position()
    call.apply(Discard(card("9H")))
    illegal(call, Buy(), "not_now_call", seat=1, action=Buy())
    illegal(call, Call(0, "high"), "call_no_fit", card=card("9H"))


@pytest.mark.parametrize(("data", "code"), [
    ("draw", "action_not_object"),
    ({}, "action_unknown"),
    ({"type": "fly"}, "action_unknown"),
    ({"type": "draw"}, "action_bad_source"),
    ({"type": "draw", "source": "pile"}, "action_bad_source"),
    ({"type": "discard"}, "action_needs_card"),
    ({"type": "discard", "card": "ZZ"}, "card_bad_suit"),
    ({"type": "discard", "card": "9H", "announce": "yes"}, "action_bad_announce"),
    ({"type": "lay_off", "card": "9H"}, "action_needs_number"),
    ({"type": "lay_off", "card": "9H", "meld": True}, "action_needs_number"),
    ({"type": "lay_off", "card": "9H", "meld": 0, "end": "middle"}, "action_bad_end"),
    ({"type": "swap_joker", "card": "9H", "meld": 0}, "action_needs_number"),
    ({"type": "lay_down"}, "action_needs_melds"),
    ({"type": "lay_down", "melds": []}, "action_needs_melds"),
    ({"type": "lay_down", "melds": [3]}, "action_bad_meld"),
    ({"type": "lay_down", "melds": [{"kind": "set"}]}, "action_bad_meld"),
    ({"type": "lay_down", "melds": [{"kind": "pair", "cards": [], "rank": 1}]}, "action_bad_meld"),
    ({"type": "cut", "count": "ten"}, "action_needs_number"),
])
def test_malformed_json_actions(data: object, code: str) -> None:
    with pytest.raises(ActionError) as info:
        action_from_json(data)
    assert info.value.code == code
    assert str(info.value)
    if code == "action_unknown" and data:
        assert "'fly'" in str(info.value)
    if code == "action_needs_number":
        assert info.value.params["key"] == ("position" if data["type"] == "swap_joker"
                                            else "meld" if data["type"] == "lay_off" else "count")


@pytest.mark.parametrize("action", [
    Draw("stock"), Draw("discard"), Buy(), Pass(), Discard(card("9H")),
    Discard(card("9H"), announce=True), LayOff(card("9H"), 2, "low"), LayOff(card("QS"), 0),
    SwapJoker(card("7H"), 1, 3), Call(), Call(2, "high"), Cut(40),
])
def test_actions_round_trip_through_json(action: object) -> None:
    assert action_from_json(action.to_json()) == action  # type: ignore[attr-defined]
    assert isinstance(action.describe(), str)  # type: ignore[attr-defined]
