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
from typing import Any

__all__ = ["MESSAGES", "GameError", "RecordError", "format_message"]

#: The English message of every error code. Parameters: ``card``, ``meld``,
#: ``action``, ``cards`` are rendered as cards, melds and actions; ``seat`` is
#: a seat (counted from 0, shown as a player's name); the rest as given.
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
    # ------------------------------------------------ whose turn, which state
    "game_over": "the game is over",
    "not_your_turn": "it is not your turn: {seat} is to move",
    "not_in_window": "you are not asked to buy or call now",
    "stale_action": "the game has moved on (your action was made at version {version}, "
                    "it is now {current}): look again",
    "not_now_cut": "you cannot {action} now: {seat} must cut the deck",
    "not_now_draw": "you cannot {action} now: {seat} must draw from the stock or take the "
                    "discard",
    "not_now_buy": "you cannot {action} now: {seat} may buy the discard or pass",
    "not_now_play": "you cannot {action} now: {seat} must play: lay down, lay off, swap a joker "
                    "or discard",
    "not_now_call": "you cannot {action} now: {seat} may call the discard or pass",
    "not_legal": "{action} is not legal now",
    # ------------------------------------------------ the action space (liverpool.action_space)
    "not_in_action_space": "{action} has no index in the action space",
    "no_such_action_index": "there is no action number {index}: the action space has {size}",
    "no_suggestion": "there is no lay-down to suggest now",
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
    "announce_pointless": "saying \"Shanghai!\" makes sense only for a card that could be called",
    "must_lay_down_all": "you must lay down all but one card before discarding in this round",
    "call_no_fit": "{card} does not fit there",
    "stage_no_slot": "the contract has no meld {number}",
    "stage_full": "you have already put every {card} of your hand into the lay-down",
    "stage_end": "name the end (\"low\" or \"high\") only for a run",
    "nothing_staged": "there is nothing to take back",
    "stage_after_down": "your contract is down already",
    # ------------------------------------------------ lay-downs and melds
    "meld_problem": "{meld}: {reason}",
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
    "server_bad_request": "{reason}",
    "server_not_finished": "the game is not over yet: its record opens at the end",
    "server_no_pad": "there is no score pad {code}",
    "server_bad_points": "the points must be whole numbers, one per player",
    "server_no_lay_down": "these cards are not a lay-down of the contract",
}


def format_message(template: str, params: dict[str, Any],
                   render: Callable[[str, Any], str] | None = None) -> str:
    """``template`` with its ``{name}`` fields filled from ``params``; each value
    goes through ``render(name, value)`` (default: ``str``, seats as "seat N")."""
    def plain(name: str, value: Any) -> str:
        if name == "seat" and isinstance(value, int):
            return f"seat {value + 1}"
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


class RecordError(ValueError):
    """A game record or a position could not be read, does not replay, or is not
    a possible position of the game; the message says why."""
