"""The words of the web pages, in the gettext catalogs of :mod:`liverpool.i18n`.

The page asks for them once (``GET /api/i18n/{lang}``) and shows every label,
button and hint from them; events, errors and options come rendered from the
server (:func:`liverpool.i18n.render`).
"""

from __future__ import annotations

from typing import Any

from .. import i18n
from ..i18n import N_, REVIEW_LABELS, VERDICT_WORDS
from ..ruleset_io import BOUNDS

__all__ = ["UI_WORDS", "ui_language", "ui_words"]

#: key → English text (the msgid); ``{name}`` fields are filled in by the page
UI_WORDS: dict[str, str] = {
    "app_title": N_("Liverpool rummy"),
    "tagline": N_("Play Liverpool with friends and the computer"),
    "new_table": N_("New table"),
    "rules": N_("Rules"),
    "preset": N_("Rules of the table"),
    "seats": N_("Seats"),
    "seat_human": N_("a player"),
    "seat_bot": N_("the computer"),
    "level_easy": N_("easy"),
    "level_medium": N_("medium"),
    "level_hard": N_("hard"),
    "your_name": N_("Your name"),
    "create": N_("Create the table"),
    "join": N_("Join"),
    "watch": N_("Watch"),
    "invite": N_("Invite friends with this link"),
    "copy": N_("Copy"),
    "copied": N_("Copied"),
    "turn_timer": N_("Turn timer (seconds, empty: none)"),
    "away_after": N_("A bot plays for an absent player after (seconds)"),
    "more_options": N_("More rules"),
    "common_options": N_("House rules"),
    "language": N_("Language"),
    "disconnected": N_("Connection lost — reconnecting…"),
    "your_turn": N_("Your turn"),
    "waiting_for": N_("Waiting for {name}"),
    # the line under the round's summary: what the round meant for this player
    "summary_yours": N_("You: {points} points this round, {total} in all, place {place} of {players}"),
    "draw_stock": N_("Draw from the stock"),
    "take_discard": N_("Take the discard"),
    "buy": N_("Buy"),
    "pass": N_("Pass"),
    "buy_prompt": N_("Buy {card}?"),
    "dont_ask": N_("Don't ask me to buy"),
    "lay_down": N_("Lay down"),
    "suggest": N_("Suggest"),
    "new_set": N_("Set"),
    "new_run": N_("Run"),
    "clear": N_("Clear"),
    "discard": N_("Discard"),
    "lay_off": N_("Lay off"),
    "pad_points_missing": N_("Enter {name}'s points (0 if they went out)"),
    "pad_points_range": N_("{name}'s points must be a whole number from -{max} to {max}"),
    # a discard that fits the table may be called: what the call costs, by the rules' call
    "risky_discard_liverpool": N_("{card} fits a meld on the table: if you discard it, another "
                                  "player may call \"{call}\", and you take it back with a penalty "
                                  "card"),
    "risky_discard_liverpool_pile": N_("{card} fits a meld on the table: if you discard it, "
                                       "another player may call \"{call}\", and you take the whole "
                                       "discard pile"),
    "risky_discard_shanghai": N_("{card} fits a meld on the table: if you discard it, another "
                                 "player may call \"{call}\", lay it off and give you a card from "
                                 "their hand (announce \"Shanghai!\" to protect it)"),
    "discard_anyway": N_("Discard it anyway"),
    "timer_moved": N_("Your time ran out: the computer made your move (see the log)"),
    "swap": N_("Swap the joker"),
    "call_liverpool": N_("Liverpool!"),
    "call_shanghai": N_("Shanghai!"),
    "announce": N_("Say \"Shanghai!\""),
    "sort_suit": N_("Sort by suit"),
    "sort_rank": N_("Sort by rank"),
    "stock": N_("Stock"),
    "discard_pile": N_("Discard pile"),
    "table": N_("Table"),
    "hand": N_("Your hand"),
    "cards_left": N_("{n} cards"),
    "buys_used": N_("{n} buys"),
    "down": N_("down"),
    "bot": N_("bot"),
    "away": N_("away (a bot plays)"),
    "round_of": N_("Round {round} of {rounds}"),
    "contract": N_("Contract"),
    "dealt": N_("{n} cards dealt"),
    "score_sheet": N_("Score sheet"),
    "round_summary": N_("Round {round} is over"),
    "total": N_("Total"),
    "standings": N_("Standings"),
    "play_again": N_("Play again"),
    "game_over": N_("The game is over"),
    "winner": N_("Winner: {names}"),
    "replay": N_("Replay"),
    "finished_games": N_("Finished games"),
    "score_pad": N_("Score pad"),
    "score_pad_intro": N_("For games with real cards: enter each round's points"),
    "players": N_("Players"),
    "add_player": N_("Add a player"),
    "start_pad": N_("Start the score pad"),
    "enter_points": N_("Points"),
    "count_cards": N_("Count the cards left"),
    "save": N_("Save"),
    "leader": N_("Leading: {names}"),
    "spectator": N_("You are watching"),
    "four_colours": N_("Four-colour deck"),
    "seconds_left": N_("{n} s"),
    "why_not_lay_off": N_("You lay off from your next turn"),
    "select_cards": N_("Select cards, then choose what to do with them"),
    "joker_owed": N_("Lay the joker you took back on the table before you discard"),
    "step": N_("Step"),
    "previous": N_("Back"),
    "next": N_("Next"),
    "the_end": N_("The end"),
    "settings": N_("Settings"),
    "close": N_("Close"),
    "stands_for": N_("joker as {card}"),
    # added for the browser front end
    "seat_n": N_("Seat {n}"),
    "free_seat": N_("free seat"),
    # (a seat's name in the seat list, changed because another seat had it)
    "seat_renamed": N_("another seat had this name: renamed"),
    "you": N_("you"),
    "dealer": N_("dealer"),
    "joker": N_("Joker"),
    "yes": N_("yes"),
    "no": N_("no"),
    "window_time": N_("Seconds to answer a buy or a call"),
    "personal_link": N_("Your own link to this seat (for another device; keep it to yourself)"),
    "join_prompt": N_("Take a free seat at this table"),
    "log": N_("Log"),
    "round_n": N_("Round {round}"),
    "rounds": N_("Rounds"),
    "cut": N_("Cut the deck"),
    "cut_count": N_("Cards to cut: {n}"),
    "choose_lay_down": N_("Choose how to lay down"),
    "choose_end": N_("Which end?"),
    "lay_off_or_swap": N_("Lay off or swap the joker?"),
    "hand_staged": N_("{n} in hand, {staged} in your melds"),
    "menu": N_("Menu"),
    "low_end": N_("Low end"),
    "high_end": N_("High end"),
    "cancel": N_("Cancel"),
    "your_lay_down": N_("Your melds"),
    "tap_meld": N_("Tap a meld on the table to lay the card off"),
    "auto_pass_in": N_("Passes by itself in {n} s"),
    "points_n": N_("{n} points"),
    "hand_left": N_("Your cards left"),
    "hands_left": N_("Cards left"),
    "no_games": N_("No finished games yet"),
    "home": N_("Home"),
    "open_table": N_("Open a table by its code"),
    "no_melds_yet": N_("No melds on the table yet"),
    "your_tables": N_("Your tables"),
    # TRANSLATORS: a link back to a table the player has a seat at: its code, rules, players
    "continue_table": N_("Go back to table {code} ({rules}, {players} players)"),
    "code": N_("Code"),
    "go": N_("Open"),
    "record": N_("The whole record (every hand)"),
    "share_pad": N_("Share this score pad with its link"),
    "pad_count_hint": N_("Tap the cards left in each hand; the pad counts them"),
    "remove_card": N_("Tap a card to take it out again"),
    "next_game": N_("A new game has started at this table"),
    "to_next_game": N_("Go to the new game"),
    "call_prompt": N_("Call the discard {card}?"),
    "points_of": N_("Points of {name}"),
    "swap_for": N_("Swap {card} for the joker"),
    "preset_liverpool": N_("Liverpool — jokers, three buys, \"Liverpool!\""),
    "preset_london": N_("Londonspillet — the 2 of spades is wild"),
    "preset_dansk": N_("Danish family rules"),
    "preset_remi": N_("Remi — nine jokers, exact contracts"),
    # whose turn (js/table/turn.js): the header's sentence and its settings
    "turn_cut": N_("Your turn: cut the deck"),
    "turn_draw": N_("Your turn: draw"),
    "turn_lay_down": N_("Your turn: lay down or discard"),
    "turn_lay_off": N_("Your turn: lay off or discard"),
    "turn_discard": N_("Your turn: discard"),
    "turn_joker_owed": N_("Your turn: lay the joker back on the table"),
    "wait_cut": N_("Waiting for {name} to cut the deck"),
    "wait_draw": N_("Waiting for {name} to draw"),
    "wait_lay_down": N_("Waiting for {name} to lay down or discard"),
    "wait_lay_off": N_("Waiting for {name} to lay off or discard"),
    "may_buy": N_("{names} may buy {card}"),
    "may_call": N_("{names} may call the discard {card}"),
    # (three or more: how many, the first named after it; the panels' rings say who)
    "many_may_buy": N_("{count} players may buy {card}"),
    "many_may_call": N_("{count} players may call the discard {card}"),
    "you_and_others_may_buy": N_("You and {count} others may buy {card}"),
    "you_and_others_may_call": N_("You and {count} others may call the discard {card}"),
    "you_subject": N_("You"),
    "you_first": N_("you first"),
    "first_of": N_("{name} first"),
    "then_your_turn": N_("then your turn"),
    "sound_on_turn": N_("Sound when it is my turn"),
    "vibrate_on_turn": N_("Vibrate when it is my turn"),
    # the chat at the table
    "chat": N_("Chat"),
    "chat_unread": N_("{n} new"),
    "chat_say": N_("Say something"),
    "chat_send": N_("Send"),
    "chat_none": N_("Nothing said yet"),
    "chat_spectator": N_("spectator"),
    "chat_is_off": N_("The chat is off at this table"),
    "chat_players_only": N_("Only the players chat at this table"),
    "chat_setting": N_("Chat at the table"),
    "chat_all": N_("players and spectators"),
    "chat_players": N_("players only"),
    "chat_off": N_("off"),
    "reaction_thumbs_up": N_("Thumbs up"),
    "reaction_laugh": N_("Laughing"),
    "reaction_wow": N_("Wow"),
    "reaction_good_game": N_("Good game"),
    # hints at the table (js/table/hints.js)
    "hint": N_("Hint"),
    "hints_on": N_("hints on"),
    "hints_setting": N_("Hints: the players may ask the computer for a suggestion"),
    "hint_thinking": N_("Thinking…"),
    "hint_stale": N_("The game moved on: ask again"),
    "hint_wait": N_("Hint in {n} s"),
    # seats and people: the waiting room, a seat nobody took
    "waiting_room": N_("Waiting room"),
    "waiting_intro_creator": N_("Invite your friends with the link or the QR code, give the "
                                "seats nobody takes to the computer, then start the game."),
    "waiting_start": N_("Waiting for {name} to start the game"),
    "start_game": N_("Start the game"),
    "seat_here": N_("here"),
    "seat_not_here": N_("not here"),
    "give_to_bot": N_("Give to the computer"),
    "free_for_player": N_("Free it for a player"),
    "bot_level": N_("the computer's level"),
    "qr_alt": N_("QR code of the invite link"),
    "table_unclaimed": N_("Nobody has come to play at this table yet: the game goes on when "
                          "one of its players opens it"),
    "seat_untaken_wait": N_("Waiting for a player to take seat {n} — the creator can give it "
                            "to the computer"),
    # keyboard and screen readers (the "?" list of shortcuts)
    "shortcuts": N_("Keyboard shortcuts"),
    "key_hand": N_("Go to your hand"),
    "key_move": N_("Move through your hand"),
    "key_select": N_("Select or deselect the card"),
    "key_reorder": N_("Move the card within your hand"),
    "key_discard_card": N_("Discard the selected card"),
    "key_help": N_("Show this list"),
}

#: the coach's words on the replay page: its labels and verdicts (liverpool.i18n)
UI_WORDS.update({f"review_{key}": text for key, text in REVIEW_LABELS.items()})
UI_WORDS.update({f"review_verdict_{key}": text for key, text in VERDICT_WORDS.items()})

#: the card notation's ranks and suits → the catalog's words for them (msgctxt rank, suit)
_RANK_WORDS = dict(zip("A23456789TJQK", ("ace", "two", "three", "four", "five", "six", "seven",
                                        "eight", "nine", "ten", "jack", "queen", "king"),
                       strict=True))
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


#: the most seats a table has (the rules' bound on players)
MAX_SEATS = BOUNDS["players"][1]


def ui_language(lang: str) -> str:
    """``lang`` if the pages speak it (en, nb, da), else English."""
    return lang if lang in i18n.LANGUAGES else "en"


def ui_words(lang: str) -> dict[str, Any]:
    """Every page word in ``lang`` (English for an unknown language)."""
    lang = ui_language(lang)
    t = i18n.translations(lang)
    words = {key: t.gettext(text) for key, text in UI_WORDS.items()}
    for level in ("easy", "medium", "hard"):  # the bots' names, as Table.names gives them
        for seat in range(MAX_SEATS):
            words[f"bot_{level}_{seat}"] = i18n.bot_name(seat, level, lang)
    # a card's spoken name (screen readers): card_of filled with rank_7 and suit_H
    for rank, word in _RANK_WORDS.items():
        words[f"rank_{rank}"] = t.pgettext("rank", word)
    for suit, word in _SUIT_WORDS.items():
        words[f"suit_{suit}"] = t.pgettext("suit", word)
    words["card_of"] = t.pgettext("card", "{rank} of {suit}")
    return {"lang": lang, "languages": list(i18n.LANGUAGES), "words": words}
