"""Errors a player or a client can cause, each with a code and parameters.

An error's ``str()`` is English, built from :data:`MESSAGES` (the English
message of each code; its ``{name}`` fields are the error's parameters).
:mod:`liverpool.i18n` renders the same code in Norwegian or Danish, with cards
and player names the way the caller shows them.

>>> e = GameError("not_in_hand", card="9H")
>>> str(e), e.code, e.params
('you do not have 9H in your hand', 'not_in_hand', {'card': '9H'})
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral
from typing import Any, TypeGuard

__all__ = ["FILE_PROBLEMS", "MESSAGES", "REASONS", "RECORD_PROBLEMS", "GameError", "RecordError",
           "RecordFileError", "check_seat", "format_message", "is_whole", "shown_value"]

#: Why a meld may not lie on the table (:func:`liverpool.melds.meld_problem`):
#: the English reason of each code, as :func:`liverpool.melds.meld_error`
#: returns it. A lay-down refused for one of them is a :class:`GameError` of
#: the same code whose message is ``{meld}: <reason>``. Parameters: ``card``
#: a card, ``ranks`` the rank of a set (1..13, shown as "nines"), ``n`` a number.
REASONS: dict[str, str] = {
    "set_too_short": "a set needs at least 3 cards",
    "set_bad_rank": "a set must be of one rank, ace to king",
    "set_needs_suit": "a set must be of one suit under these rules",
    "set_mixes_suits": "a set may mix suits under these rules: give it no suit",
    "set_wrong_card": "{card} does not belong in a set of {ranks}",
    "meld_no_natural": "a meld needs at least one natural card",
    "set_few_naturals": "a set must hold at least {n} natural cards",
    "meld_too_wild": "a meld may not hold more wild cards than natural cards",
    "run_too_short": "a run needs at least 4 cards",
    "run_needs_suit": "a run must be of one suit",
    "run_mixes_suits": "a run may mix suits under these rules: give it no suit",
    "run_no_corner": "a run may not turn the corner (K-A-2)",
    "run_corner_repeats": "a run that turns the corner may hold each rank only once",
    "run_wilds_adjacent": "two wild cards may not lie side by side in a run",
    "run_wrong_card": "{card} does not fit at that place in the run",
    "run_few_naturals": "a run must hold at least {n} natural cards",
    "run_ace_beside": "a run with an ace in it needs three cards on one side of the ace to be "
                      "laid down",
}

#: The English message of every error code. Parameters: ``card``, ``meld``,
#: ``action``, ``cards`` are rendered as cards, melds and actions; ``seat`` is
#: a seat (counted from 0, shown as a player's name); ``text`` (what a user
#: typed) is shown quoted; the rest as given. The parameters of the ruleset
#: codes (``rules_*``, :class:`liverpool.rules.RulesError`) are shown by
#: :func:`liverpool.rules.rules_fields`: option names as the TOML key, values as
#: written in TOML.
MESSAGES: dict[str, str] = {
    # ------------------------------------------------ reading an action
    "action_not_object": "an action must be a JSON object with a 'type'",
    "action_needs_card": "the action needs a card in '{key}', e.g. \"9H\"",
    "action_needs_number": "the action needs a whole number in '{key}'",
    "action_bad_end": "'end' must be \"low\", \"high\" or null",
    "action_bad_source": "a draw needs 'source': \"stock\" or \"discard\"",
    "action_needs_melds": "a lay-down needs a list of 'melds'",
    "action_bad_meld": "a meld of the lay-down is malformed",
    "action_bad_announce": "'announce' must be true or false",
    "action_unknown": "unknown action type {kind}; the types are draw, buy, pass, lay_down, "
                      "lay_off, swap_joker, discard, call, cut, stage, unstage, commit",
    "action_bad_card": "{reason}",
    "not_an_action": "{value} is not an action",
    "action_card_type": "{kind}: the card must be a Card, such as Card.parse('9H'), not {value}",
    "action_number_type": "{kind}: '{key}' must be a whole number, not {value}",
    # ------------------------------------------------ the card notation (liverpool.cards)
    "card_empty": "an empty string is not a card",
    "card_no_index": "there is no card number {value}: cards are numbered 0 to 52",
    "card_not_text": "{value} is not a card: a card is written as text, for example 9H, TD, AS, or "
                     "* for a joker",
    "card_bad_suit": "{text} is not a card: the suit must be one of S H D C (or ♠ ♥ ♦ ♣), for "
                     "example 9H, TD, AS, or * for a joker",
    "card_bad_rank": "{text} is not a card: the rank must be one of A 2 3 4 5 6 7 8 9 T J Q K "
                     "(10 is accepted for T)",
    "card_not_card": "{value} is not a Card: read cards with Card.parse or parse_cards",
    "cards_text": "{value} is text, not cards: read it with parse_cards({value})",
    "card_no_such": "there is no card with rank {rank} and suit {suit}",
    # ------------------------------------------------ rulesets (liverpool.rules.RulesError)
    "rules_one_of": "{key} must be one of {choices}, not {value}",
    "rules_int": "{key} must be an int, not {type} ({value})",
    "rules_int_min_type": "{key} must be an int >= {minimum}, not {type} ({value})",
    "rules_int_min": "{key} must be an int >= {minimum}, not {value}",
    "rules_int_or": "{key} must be an int >= {minimum} or {word}, not {value}",
    "rules_int_max": "{key} must be an int from {minimum} to {maximum}, not {value}",
    "rules_int_max_or": "{key} must be an int from {minimum} to {maximum} or {word}, not {value}",
    "rules_too_large": "{key} is too large: an option's value holds at most {items} values, "
                       "lists or tables nested at most {depth} deep and strings of at most "
                       "{chars} characters",
    "rules_name_long": "{key} must be at most {maximum} characters long, not {n}",
    "rules_bool": "{key} must be true or false, not {type} ({value})",
    "rules_name": "{key} must be a non-empty string, not {value}",
    "rules_name_control": "{key} must not hold control characters (a terminal would act on "
                          "them)",
    "rules_not_list": "{key} must be {what}, not {type} ({value})",
    "rules_empty": "{key} must not be empty: give {what}",
    "rules_players": "{key} must be [min, max] with {lo} <= min <= max <= {hi}, not {value}",
    "rules_decks_pair": "{key} must be {what}; {item} is not such a pair",
    "rules_decks_count": "{key}: the number of decks must be >= 1, not {n} in {item}",
    "rules_decks_max": "{key}: the number of decks must be at most {maximum}, not {n} in {item}",
    "rules_decks_players": "{key}: up_to_players must be from {lo} to {hi}, not {n} in {item}",
    "rules_rounds_max": "{key} has {n} entries: a game has at most {maximum} rounds",
    "rules_contract_melds": "{key}: round {round} has {n} melds ({value}): a contract has at "
                            "most {maximum} melds",
    "rules_deal_max": "{key}: round {round} deals {value} cards: at most {maximum} cards are "
                      "dealt in a round",
    "rules_decks_order": "{key}: up_to_players must increase from pair to pair, but {item} "
                         "follows {previous}",
    "rules_contract_code": "{key} must be {what}; round {round} has {value}, which is not a "
                           "non-empty string of S and R",
    "rules_deal_size": "{key} must be {what}; round {round} has {value}",
    "rules_two_to_nine": "{key} must be an int or \"face\" (the card's own number), not {value}",
    "rules_points_table": "'points' must be a table with the keys {names}, not {type} ({value})",
    "rules_points_key": "unknown key {key}{suggestion}; 'points' has the keys {names}",
    "rules_unknown_option": "unknown option {key}{suggestion}",
    "rules_extends_here": "'extends' is only allowed in a ruleset file",
    "rules_decks_cover": "'decks' must cover up to {players} players ('players' max), but its "
                         "last pair is {item}",
    "rules_deal_length": "'deal' has {deal} entries but 'contracts' has {contracts}: give one "
                         "deal size per round",
    "rules_naturals_set": "'min_naturals_set' must be at most 3 (a set has 3 cards), not {n}",
    "rules_naturals_run": "'min_naturals_run' must be at most 4 (a run has 4 cards), not {n}",
    "rules_few_cards": "'deal' round {round} needs {needed} cards for {players} players "
                       "({players} x {dealt} dealt + 1 upcard + 1 to draw), but {decks} and "
                       "{jokers} jokers hold only {size}: deal fewer cards or add decks in "
                       "'decks'",
    "rules_few_cards_no_upcard": "'deal' round {round} needs {needed} cards for {players} "
                                 "players ({players} x {dealt} dealt + 1 to draw), but {decks} "
                                 "and {jokers} jokers hold only {size}: deal fewer cards or add "
                                 "decks in 'decks'",
    "rules_never_met": "'contracts' round {round} ({code}: {contract}, at least {need} cards) "
                       "can never be met: a player holds at most {best} cards when laying down "
                       "({how}); raise 'deal' for round {round}, change the contract or allow "
                       "(more) buying",
    "rules_same_suit_sets": "'set_same_suit' makes sets impossible with {players} players: a "
                            "set needs 3 cards of one rank and suit, but there are only "
                            "{naturals} identical natural cards (one per deck) and {wilds} wild "
                            "cards; add decks or wilds, or set 'set_same_suit' to false",
    "rules_same_suit_sets_round": "'set_same_suit' makes 'contracts' round {round} ({code}: "
                                  "{contract}) impossible with {players} players: with {naturals} "
                                  "identical natural cards of a rank and suit (one per deck) its "
                                  "{sets} sets need at least {needed} wild cards, but there are "
                                  "{wilds}; add decks or wilds, or set 'set_same_suit' to false",
    "rules_final_too_big": "'deal' round {round} is the final round, where the whole hand goes "
                           "down at once, but the {cards} cards a player lays down there at the "
                           "fewest can never fit in its contract ({code}: {contract}): with "
                           "{players} players its melds hold at most {most} cards; deal fewer "
                           "cards in round {round} or change the contract",
    "rules_same_suit_sets_limits": "'set_same_suit' makes sets impossible with {players} "
                                   "players: a set needs 3 cards of one rank and suit, but "
                                   "there are only {naturals} identical natural cards (one per "
                                   "deck) and {wilds} wild cards under the wild limits "
                                   "(min_naturals_set = {min_naturals_set}, "
                                   "naturals_at_least_wilds = {naturals_at_least_wilds}); add "
                                   "decks or wilds, or set 'set_same_suit' to false",
    "rules_round": "round must be between 1 and {rounds}, not {round}",
    "rules_players_count": "this ruleset is for {lo} to {hi} players, not {players}",
    "rules_unknown_preset": "unknown preset {preset}{suggestion}; the presets are {names} (or "
                            "give the path of a .toml ruleset file)",
    "rules_not_a_preset": "unknown preset {preset}{suggestion}; the presets are {names}",
    "rules_preset_toml": "preset {preset}: invalid TOML: {detail}",
    "rules_preset_extends": "'extends' of a preset must name another preset",
    "rules_in_preset": "preset {preset}: {error}",
    "rules_no_file": "ruleset file {file} not found",
    "rules_directory": "{file} is a directory, not a ruleset file",
    "rules_unreadable": "cannot read ruleset file {file}: {detail}",
    "rules_file_too_big": "{path}: a ruleset file must be at most {limit} bytes",
    "rules_not_utf8": "{path}: a ruleset file must be UTF-8 text",
    "rules_bad_toml": "{path}: invalid TOML: {detail}",
    "rules_bad_toml_at": "{path}: invalid TOML at line {line}, column {column} ({detail})",
    "rules_toml_too_deep": "{path}: invalid TOML: arrays or tables nested too deeply",
    "rules_in_file": "{path}: {error}",
    "rules_extends_cycle": "'extends' makes a cycle: {cycle}",
    "rules_extends_deep": "{path}: 'extends' goes through more than {limit} files",
    "rules_extends_no_file": "{path}: 'extends' names the file {file}, which is not there",
    "rules_extends_value": "{path}: 'extends' must be a preset name ({names}) or the path of a "
                           "ruleset file, not {value}{suggestion}",
    "rules_no_source": "give a preset name ({names}) or a ruleset file",
    "rules_source_type": "a ruleset is a preset name or a file path, not {type} ({value})",
    "rules_not_table": "a ruleset must be a table of options, not {type}",
    # ------------------------------------------------ whose turn, which state
    "game_over": "the game is over",
    "no_such_seat": "there is no seat {value}: the seats are numbered 0 to {last}",
    "no_such_event": "there is no event number {value}: events are numbered from 0",
    "not_your_turn": "it is not your turn: {seat} is to move",
    "not_in_window": "you are not asked to buy or call now",
    "stale_action": "the game has moved on (your action was made at version {version}, "
                    "it is now {current}): look again",
    "not_now_cut": "you cannot {action} now: {seat} must cut the deck",
    "not_now_draw": "you cannot {action} now: {seat} must draw from the stock or take the "
                    "discard",
    "no_discard_to_take": "the discard pile is empty: draw from the stock",
    "not_now_buy": "you cannot {action} now: {seat} may buy the discard or pass",
    "not_now_play": "you cannot {action} now: {seat} must play: lay down, lay off, swap a joker "
                    "or discard",
    "not_now_call": "you cannot {action} now: {seat} may call the discard or pass",
    "not_legal": "{action} is not legal now",
    # ------------------------------------------------ the action space (liverpool.action_space)
    "not_in_action_space": "{action} has no index in the action space",
    "no_such_action_index": "there is no action number {index}: the action space has {size}",
    "no_suggestion": "there is no lay-down to suggest now",
    # ------------------------------------------------ the bots of a simulation (liverpool.simulate)
    "bots_none": "name at least one bot",
    "bots_count": "give one bot for every seat or one bot for all: {players} players, {bots} bots",
    "bots_unknown": "unknown bot {kind}; the bots are {kinds}",
    "index_masked": "action number {index} is not legal now: the legal actions mask leaves it "
                    "out (laying down card by card needs staging)",
    # ------------------------------------------------ the turn player's moves
    "not_in_hand": "you do not have {card} in your hand",
    "lay_down_not_now": "you can lay down only in your own turn, after drawing",
    "already_down": "you have already laid down your contract this round",
    "not_down": "you must lay down your contract before you can lay off or swap",
    "lay_off_next_turn": "you can lay off from your next turn: not in the turn you laid down "
                         "your contract",
    "swap_next_turn": "you can swap a joker from your next turn: not in the turn you laid down "
                      "your contract",
    "no_lay_off_final": "in this round the whole hand goes down at once: there is no laying off",
    "no_such_meld": "there is no meld {number} on the table",
    "does_not_fit": "{card} does not fit on {meld}",
    "does_not_fit_low": "{card} does not fit on {meld} at the low end",
    "does_not_fit_high": "{card} does not fit on {meld} at the high end",
    "both_ends": "{card} fits at both ends of that run: say which end (\"low\" or \"high\")",
    "no_swaps": "joker swaps are not allowed under these rules",
    "swap_runs_only": "under these rules a wild card in a set stays where it is",
    "cannot_replace": "{card} cannot replace the card at that place of {meld}",
    "swapped_wild_first": "the wild card you took in the swap must go onto the table this turn",
    "wild_stranded": "not now: then the wild card taken in the swap could not go onto the table "
                     "again this turn",
    "announce_pointless": "saying \"Shanghai!\" makes sense only for a card that could be called",
    "must_lay_down_all": "you must lay down all but one card before discarding in this round",
    "call_no_fit": "{card} does not fit there",
    "stage_no_slot": "the contract has no meld {number}",
    "stage_full": "you have already put every {card} of your hand into the lay-down",
    "stage_end": "name the end (\"low\" or \"high\") only for a run",
    "nothing_staged": "there is nothing to take back",
    "nothing_to_commit": "you have not put any cards into a lay-down yet",
    "stage_after_down": "your contract is down already",
    # ------------------------------------------------ lay-downs and melds
    "meld_problem": "{meld}: {reason}",
    # the codes of REASONS: "{meld}: a set needs at least 3 cards" ...
    **{code: "{meld}: " + reason for code, reason in REASONS.items()},
    "meld_malformed": "a meld must be an object with its kind, cards, rank and suit",
    "meld_invalid": "{cards} is not a meld under these rules",
    "contract_shape": "the contract of round {round} is {contract}, not {given}",
    "contract_exact": "{meld}: the contract must be laid down with exactly {size} cards in a "
                      "{kind}",
    "runs_join": "{first} and {second} join end to end: they would be one run, not two",
    "sets_same_rank": "two sets of the same rank may not be laid down as two melds",
    "lay_down_not_held": "you do not have {card} in your hand",
    "lay_down_not_held_more": "you do not have another {card} in your hand",
    "lay_down_all": "in this round the whole hand must go down at once",
    "lay_down_all_but_one": "in this round all cards but the one you discard must go down at "
                            "once",
    # ------------------------------------------------ the game server
    "server_bad_json": "the message is not valid JSON",
    "server_bad_message": "the message must be a JSON object with a 'type'",
    "server_unknown_message": "unknown message type {kind}",
    "server_too_big": "the message is too long (at most {limit} bytes)",
    "server_rate_limited": "too many messages: wait a moment",
    "server_spectator": "you are watching this table: only its players can play",
    "server_try_again": "the game could not be saved just now: nothing changed, try again",
    "server_no_table": "there is no table {code}",
    "server_table_full": "the table is full: you can watch it",
    "server_bad_field": "'{field}' is missing or has a value that is not allowed",
    "server_bad_text": "the message holds text that is not valid Unicode",
    "server_bad_name": "nothing visible is left of that name once invisible and control "
                       "characters are taken out: choose another",
    "server_bad_bot_level": "there is no bot level {level}: choose easy, medium or hard",
    "server_creator_seat": "the first seat is the creator's own: it must be for a person "
                           "(\"kind\": \"human\"), not a bot",
    "server_bad_options": "the table's options cannot be read: give each option as the "
                          "lobby shows it",
    "server_not_finished": "the game is not over yet: ask again when it has ended",
    "server_review_players": "only the table's players can ask for a review of its game: "
                             "anyone can read a review once it is made",
    "server_review_too_long": "this game is too long to be reviewed here: that seat made "
                              "{moves} moves, and a review takes at most {limit}",
    "server_no_pad": "there is no score pad {code}",
    "server_bad_points": "the points must be whole numbers, one per player",
    "server_no_lay_down": "these cards are not a lay-down of the contract",
    "server_too_many_tables": "too many new tables from your address (at most {minute} a "
                              "minute and {hour} an hour): wait a little",
    "server_too_many_pad_writes": "too many rounds entered from your address (at most {minute} "
                                  "a minute): wait a little",
    "server_too_many_pads": "too many new score pads from your address (at most {minute} a "
                            "minute and {hour} an hour): wait a little",
    "server_busy": "the server is busy just now: try again in a moment",
    "server_too_slow": "the request's body did not arrive within {seconds} seconds",
    "server_no_such_path": "there is nothing at this address",
    "server_bad_host": "this server does not answer for that host name",
    "server_bad_method": "this address does not take {method} requests",
    "server_refused": "the request was refused (HTTP {status})",
    "server_forbidden": "only the server's own machine, or a request with its metrics token, "
                        "may read this",
    "server_too_many_connections": "too many connections from your address (at most "
                                   "{limit}): close a tab first",
    "server_too_many_probes": "too many tables asked for that do not exist: wait a minute",
    "server_too_many_spectators": "this table has as many spectators as it takes "
                                  "({limit}): try again later",
    "server_chat_off": "the chat is off at this table",
    "server_chat_players_only": "only the players chat at this table: spectators can read it",
    "server_chat_empty": "a chat line needs visible text, or one reaction",
    "server_chat_too_long": "the chat line is too long (at most {limit} characters)",
    "server_chat_too_fast": "you are chatting too fast: wait {seconds} s",
    "server_chat_full": "this table's chat is full (at most {limit} lines)",
    "server_hints_off": "hints are off at this table",
    "server_hint_not_your_decision": "a hint is for your own decision: it is not yours now",
    "server_hint_pending": "your hint is being worked out: wait for it",
    "server_hints_too_fast": "too many hints: wait {seconds} s",
    "server_not_started": "the game has not started yet: the table's creator starts it",
    "server_started": "the game has started already",
    "server_not_creator": "only the table's creator can do that",
    "server_bad_seat": "seat {number} cannot be changed: the table has no such seat, or it "
                       "is the creator's own",
    "server_seat_taken": "{seat} has taken that seat: only a free seat can go to a bot",
}


def is_whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number: an int (``True`` and ``False`` are
    not, though Python counts them as ints), as JSON data and actions need.

    >>> is_whole(3), is_whole(True), is_whole(3.0), is_whole("3")
    (True, False, False, False)
    """
    return isinstance(value, Integral) and not isinstance(value, bool)


def shown_value(value: object, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut short after ``limit`` characters.

    >>> shown_value("9H"), shown_value("x" * 50, 10)
    ("'9H'", "'xxxxxxxx…")
    """
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def format_message(template: str, params: dict[str, Any],
                   render: Callable[[str, Any], str] | None = None) -> str:
    """``template`` with its ``{name}`` fields filled from ``params``; each value
    goes through ``render(name, value)`` (default: ``str``, seats as "seat N")."""
    def plain(name: str, value: Any) -> str:
        if name == "seat" and isinstance(value, int):
            return f"seat {value + 1}"
        if name == "text" and isinstance(value, str):  # what a user typed
            return repr(value)
        if name == "ranks" and isinstance(value, int) and 1 <= value <= 13:
            return _RANK_PLURALS[value - 1]
        if isinstance(value, tuple):  # cards
            return " ".join(str(v) for v in value)
        if hasattr(value, "cards"):  # a meld: its cards
            return str(value)
        if hasattr(value, "describe"):  # an action, a contract
            return str(value.describe()) or "nothing"
        return str(value)

    show = render or plain
    try:
        return template.format(**{k: show(k, v) for k, v in params.items()})
    except (KeyError, IndexError, ValueError):
        return template


_RANK_PLURALS = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
                 "nines", "tens", "jacks", "queens", "kings")


class GameError(ValueError):
    """An error with a ``code`` (a key of :data:`MESSAGES`) and ``params``."""

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(format_message(MESSAGES.get(code, code), params))

    def to_json(self) -> dict[str, Any]:
        """``{"code", "params", "message"}`` as JSON data: cards in the card
        notation, melds and actions in their JSON forms, ``message`` English.

        >>> from liverpool.cards import Card
        >>> GameError("not_in_hand", card=Card.parse("9H")).to_json()
        {'code': 'not_in_hand', 'params': {'card': '9H'}, 'message': 'you do not have 9H in your hand'}
        """
        return {"code": self.code, "params": {k: _json_value(v) for k, v in self.params.items()},
                "message": str(self)}

    def __reduce__(self) -> Any:
        return (_rebuild, (type(self), self.code, self.params))


def check_seat(seat: object, players: int) -> int:
    """``seat`` as an ``int`` if it is a seat of a ``players``-seat game (a
    whole number from 0 to ``players - 1``, a numpy integer too; a bool or a
    float is no seat); else a :class:`GameError` ``no_such_seat``.

    >>> check_seat(2, 4)
    2
    >>> check_seat(-1, 4)
    Traceback (most recent call last):
    ...
    liverpool.errors.GameError: there is no seat -1: the seats are numbered 0 to 3
    """
    if not is_whole(seat) or not 0 <= seat < players:
        raise GameError("no_such_seat", value=shown_value(seat), last=players - 1)
    return int(seat)


def _json_value(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_json_value(v) for v in value]
    if hasattr(value, "to_json"):  # a meld, an action
        return value.to_json()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if hasattr(value, "describe") and hasattr(value, "sets"):  # a contract
        return {"sets": value.sets, "runs": value.runs}
    return str(value)  # a card


def _rebuild(cls: type[GameError], code: str, params: dict[str, Any]) -> GameError:
    return cls(code, **params)


#: Why a game record does not replay (:func:`liverpool.record.replay`): the
#: English message of each :attr:`RecordError.problem`. ``{reason}`` is the
#: error's :attr:`~RecordError.reason` (a ruleset's or a card's error), the
#: other fields are its :attr:`~RecordError.params`.
RECORD_PROBLEMS: dict[str, str] = {
    "not_json": "the record is not JSON (line {line}, column {column})",
    "too_deep": "the record's JSON is nested too deep",
    "not_object": "a record must be a JSON object",
    "format": "the record's format is {format}; this version reads {formats}",
    "missing": "the record has no '{key}'",
    "whole_number": "the record's '{key}' must be a whole number",
    "not_list": "the record's '{key}' must be a list",
    "no_chance": "a record without a seed (a fair deal) needs its 'chance' outcomes",
    "rules": "the record's ruleset is not valid: {reason}",
    "players": "the record's game cannot be set up: {reason}",
    "outcome_shape": "chance outcome {number} must be an object with one key",
    "outcome_kind": "chance outcome {number} is of an unknown kind, {kind}",
    "outcome_cards": "chance outcome {number} ({kind}) must be the cards, top last",
    "outcome_card": "chance outcome {number} ({kind}) holds a bad card: {reason}",
    "outcome_number": "chance outcome {number} ({kind}) must be a whole number",
    "outcome_wrong_kind": "chance outcome {number} is a {got}, but the game needs a {kind}",
    "outcome_wrong_cards": "chance outcome {number} ({kind}) does not hold the cards the game has",
    "outcome_range": "chance outcome {number} ({kind}) must be a whole number from 0 to {top}",
}


class RecordError(ValueError):
    """A game record or a position could not be read, does not replay, or is not
    a possible position of the game; the message says why. For an action of a
    record that does not replay, ``action`` is its number (from 1) and
    ``reason`` the game's refusal; a record that cannot be replayed for
    another reason has a ``problem``, one of :data:`RECORD_PROBLEMS`, with its
    ``params`` (and its ``reason`` when the problem has one).
    :mod:`liverpool.i18n` says both in another language.

    >>> e = RecordError.of("missing", key="actions")
    >>> str(e), e.problem, e.params
    ("the record has no 'actions'", 'missing', {'key': 'actions'})
    """

    def __init__(self, message: str, *, action: int | None = None,
                 reason: GameError | None = None, problem: str | None = None,
                 params: dict[str, str | int] | None = None) -> None:
        super().__init__(message)
        self.action = action
        self.reason = reason
        self.problem = problem
        self.params: dict[str, str | int] = dict(params or {})

    @classmethod
    def of(cls, problem: str, reason: GameError | None = None,
           **params: str | int) -> RecordError:
        """The error of ``problem`` (a key of :data:`RECORD_PROBLEMS`), its English
        message filled in from ``params`` and ``reason``."""
        message = RECORD_PROBLEMS[problem].format(reason=reason, **params)
        return cls(message, reason=reason, problem=problem, params=params)


#: Why a JSON file (a record, a saved game) cannot be read: the English message
#: of each :attr:`RecordFileError.problem`, with the fields ``path``, ``detail``
#: (the system's reason), ``line`` and ``column``.
FILE_PROBLEMS: dict[str, str] = {
    "missing": "cannot read {path}: there is no such file",
    "denied": "cannot read {path}: permission denied",
    "folder": "cannot read {path}: it is a folder",
    "unreadable": "cannot read {path}: {detail}",
    "not_utf8": "cannot read {path}: it is not UTF-8 text",
    "not_json": "cannot read {path}: it is not JSON (line {line}, column {column})",
    "too_deep": "cannot read {path}: its JSON is nested too deep",
    "not_record": "cannot read {path}: it is not a game record",
    "not_save": "cannot read {path}: it is not a game saved by liverpool play",
}


class RecordFileError(RecordError):
    """A JSON file (a record, a saved game) that cannot be read: ``path`` the
    file and ``problem`` why, one of :data:`FILE_PROBLEMS` — ``"missing"``,
    ``"denied"``, ``"folder"``, ``"unreadable"`` (another reason of the
    system's, ``detail``), ``"not_utf8"``, ``"not_json"`` (``line`` and
    ``column`` where it stops being JSON), ``"too_deep"``, ``"not_record"``
    (JSON, but not a game record) or ``"not_save"`` (JSON, but not a game
    saved by ``liverpool play``); :mod:`liverpool.i18n` says it in another
    language."""

    problem: str

    def __init__(self, path: str, problem: str, *, detail: str = "", line: int = 0,
                 column: int = 0) -> None:
        super().__init__(FILE_PROBLEMS[problem].format(path=path, detail=detail, line=line,
                                                       column=column), problem=problem)
        self.path = path
        self.detail = detail
        self.line = line
        self.column = column
