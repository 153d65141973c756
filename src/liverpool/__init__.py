"""liverpool-rummy: the card game Liverpool rummy (Contract Rummy, Remi,
Londonspillet) as a fast, deterministic, pure-Python rules engine.

>>> from liverpool import load_rules, parse_cards, find_contract, format_cards
>>> rules = load_rules("remi")
>>> hand = parse_cards("9H 9S 9D 5C 6C 7C KS 4D 2H 8S 8C")
>>> [format_cards(m) for m in find_contract(hand, rules, 2)]
['5C 6C 7C 8C', '9S 9H 9D']
"""

#: The package version: the one place it is written (pyproject.toml reads it from here).
__version__ = "0.1.0"

from .action_space import ActionSpace
from .actions import (
    Action,
    ActionError,
    Buy,
    Call,
    CommitLayDown,
    Cut,
    Discard,
    Draw,
    LayDown,
    LayOff,
    NotYourTurn,
    Pass,
    Stage,
    StaleAction,
    SwapJoker,
    Unstage,
    action_from_json,
)
from .cards import Card, CardError, check_cards, format_cards, parse_cards
from .engine import Game, Results
from .errors import GameError
from .events import Event, event_from_json
from .melds import (
    Meld,
    MeldError,
    arrange_meld,
    can_lay_off,
    check_lay_down,
    classify_meld,
)
from .record import RecordError, load_record, make_record, replay
from .rules import Contract, Points, Rules, RulesError
from .ruleset_io import PRESETS, load_rules, rules_from_dict
from .solver import find_contract, find_lay_down, iter_lay_downs
from .views import SeatView, SeatViews


def hand_points(cards: list[Card] | tuple[Card, ...], rules: Rules) -> int:
    """Penalty points of ``cards`` left in hand under ``rules``.

    >>> hand_points(parse_cards("* KH 4D"), load_rules("remi"))
    64
    >>> hand_points(parse_cards("AS 8C 8D"), load_rules("remi"))
    36
    """
    if isinstance(cards, str):
        check_cards(cards)
    try:
        return rules.hand_points(cards)
    except (AttributeError, TypeError):
        check_cards(cards)
        raise


def new_game(rules: Rules | str = "liverpool", players: int = 4, seed: int = 0) -> Game:
    """Start a game: a ruleset (or preset name/file), the player count and the seed."""
    if isinstance(rules, str):
        rules = load_rules(rules)
    return Game(rules, players=players, seed=seed)


__all__ = [
    "PRESETS",
    "Action",
    "ActionError",
    "ActionSpace",
    "Buy",
    "Call",
    "Card",
    "CardError",
    "CommitLayDown",
    "Contract",
    "Cut",
    "Discard",
    "Draw",
    "Event",
    "Game",
    "GameError",
    "LayDown",
    "LayOff",
    "Meld",
    "MeldError",
    "NotYourTurn",
    "Pass",
    "Points",
    "RecordError",
    "Results",
    "Rules",
    "RulesError",
    "SeatView",
    "SeatViews",
    "Stage",
    "StaleAction",
    "SwapJoker",
    "Unstage",
    "action_from_json",
    "arrange_meld",
    "can_lay_off",
    "check_lay_down",
    "classify_meld",
    "event_from_json",
    "find_contract",
    "find_lay_down",
    "format_cards",
    "hand_points",
    "iter_lay_downs",
    "load_record",
    "load_rules",
    "make_record",
    "new_game",
    "parse_cards",
    "replay",
    "rules_from_dict",
]
