"""Rulesets: every option of docs/rules.md, §6 as one frozen value.

The four presets live as TOML files in ``liverpool/presets``; user files may
``extends = "<preset>"``; keyword overrides use the same option names. Loading
and validation live in :mod:`liverpool.ruleset_io`; this module holds the value
and what the engine derives from it.

>>> from liverpool import load_rules
>>> rules = load_rules("liverpool")
>>> rules.num_rounds, rules.contract(2).sets, rules.contract(2).runs, rules.cards_dealt(5)
(7, 1, 1, 12)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from .cards import Card
from .errors import MESSAGES, GameError

__all__ = ["Contract", "Points", "Rules", "RulesError", "rules_fields", "show_value",
           "type_code"]


class RulesError(GameError):
    """A ruleset (file, preset name or override) is not acceptable.

    A :class:`~liverpool.errors.GameError`: its ``code`` is one of the
    ``rules_*`` codes of :data:`liverpool.errors.MESSAGES` and its ``params``
    name the option and the values; the English message (``str()``) names the
    option and says what is allowed, and :func:`liverpool.i18n.render` says the
    same in Norwegian or Danish.

    >>> e = RulesError("rules_one_of", key="rebuy", choices=("none", "next_card"), value=1)
    >>> print(e)
    'rebuy' must be one of "none", "next_card", not 1
    >>> e.code, e.params["key"]
    ('rules_one_of', 'rebuy')
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params
        template = MESSAGES.get(code, code)
        try:
            message = template.format(**rules_fields(params))
        except (KeyError, IndexError, ValueError):
            message = template
        ValueError.__init__(self, message)


#: The longest value or option key a message shows; a longer one is cut with "…".
SHOWN_CHARS = 60


def show_value(value: object, depth: int = 3) -> str:
    """A value the way a user writes it in TOML (``true``, ``"never"``, ``[3, 8]``);
    containers nested deeper than ``depth`` are shown as ``…``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value[: SHOWN_CHARS + 1], ensure_ascii=False)
    if isinstance(value, list | tuple | Mapping) and depth <= 0:
        return "…"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show_value(v, depth - 1) for v in value[:SHOWN_CHARS]) + "]"
    if isinstance(value, Mapping):
        items = list(value.items())[:SHOWN_CHARS]
        return "{" + ", ".join(f"{k} = {show_value(v, depth - 1)}" for k, v in items) + "}"
    if value is None:
        return "nothing"
    return str(value)


def _clip(text: str) -> str:
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


def type_code(value: object) -> str:
    """The kind of a TOML value, for the ``type`` of a :class:`RulesError`:
    ``bool``, ``int``, ``float``, ``string``, ``list``, ``table`` (else the
    Python type's name)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, Mapping):
        return "table"
    return type(value).__name__


#: Parameters shown quoted, as Python writes a string: option keys, presets, files.
_QUOTED = frozenset({"key", "preset", "file"})
#: Parameters shown the way TOML writes them.
_TOML = frozenset({"value", "item", "previous", "word", "naturals_at_least_wilds"})


def _same(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def rules_fields(params: Mapping[str, object], gettext: Callable[[str], str] = _same,
                 ngettext: Callable[[str, str, int], str] = _english_plural) -> dict[str, str]:
    """The fields of a :class:`RulesError` message as text: option keys, files
    and presets quoted (``'run_wrap'``), values as in TOML (``"sometimes"``),
    the words in between in the language of ``gettext``/``ngettext`` (English
    by default). A nested ``error`` is shown by its English message.

    >>> rules_fields({"key": "buying", "type": "int", "value": 1, "suggestion": None})
    {'key': "'buying'", 'type': 'an int', 'value': '1', 'suggestion': ''}
    """
    out: dict[str, str] = {}
    for name, value in params.items():
        if name in _QUOTED:
            out[name] = repr(_clip(value) if name == "key" and isinstance(value, str)
                             else value)
        elif name in _TOML:
            # (None is no TOML value: it is said in words, in the message's language)
            out[name] = gettext("nothing") if value is None else _clip(show_value(value))
        elif name == "choices" and isinstance(value, list | tuple):
            out[name] = ", ".join(show_value(v) for v in value)
        elif name == "names" and isinstance(value, list | tuple):
            out[name] = ", ".join(str(v) for v in value)
        elif name == "type":
            out[name] = _type_words(str(value), gettext)
        elif name == "what":
            out[name] = _what_words(str(value), gettext)
        elif name == "suggestion":
            out[name] = ("" if value is None else
                         " (" + gettext("did you mean {name}?").format(name=repr(value)) + ")")
        elif name == "decks" and isinstance(value, int):
            out[name] = ngettext("{n} deck", "{n} decks", value).format(n=value)
        elif name == "contract" and isinstance(value, Contract):
            out[name] = value.describe()
        else:
            out[name] = str(value)
    if "how" not in params and "dealt" in params and "best" in params:
        how = gettext("{dealt} dealt + 1 drawn").format(dealt=params["dealt"])
        if params.get("discarded"):
            how += " " + gettext("− 1 discarded")
        buys = params.get("buys")
        if buys:
            how += " " + gettext("+ {buys} buys x {cards} cards").format(
                buys=buys, cards=params.get("buy_cards"))
        out["how"] = how
    return out


def _type_words(code: str, gettext: Callable[[str], str]) -> str:
    words = {"bool": gettext("a bool"), "int": gettext("an int"), "float": gettext("a float"),
             "string": gettext("a string"), "list": gettext("a list"),
             "table": gettext("a table")}
    return words.get(code, code)


def _what_words(code: str, gettext: Callable[[str], str]) -> str:
    if code == "decks":
        return gettext("a list of [up_to_players, decks] pairs, e.g. [[4, 2], [6, 3], [8, 4]]")
    if code == "contracts":
        return gettext('a list of strings of S (set) and R (run), one per round, e.g. '
                       '["SS", "SR", "RR"]')
    if code == "deal":
        return gettext("a list of ints >= 1 (cards dealt in each round)")
    return code


RunWrap = Literal["never", "three_beside_ace", "always"]
BuyPriority = Literal["turn_player_first", "others_first"]
Rebuy = Literal["none", "next_card"]
JokerSwap = Literal["none", "runs", "runs_and_sets"]
DiscardCall = Literal["none", "liverpool", "liverpool_pile", "shanghai"]
FinalRound = Literal["normal", "all_at_once", "all_at_once_discard"]


@dataclass(frozen=True, slots=True)
class Contract:
    """A round's contract: how many sets and runs go down together."""

    sets: int
    runs: int

    @property
    def code(self) -> str:
        """``"SSR"``-style text: sets first, then runs."""
        return "S" * self.sets + "R" * self.runs

    @property
    def min_cards(self) -> int:
        return 3 * self.sets + 4 * self.runs

    def describe(self) -> str:
        parts = []
        if self.sets:
            parts.append(f"{self.sets} set{'s' if self.sets != 1 else ''}")
        if self.runs:
            parts.append(f"{self.runs} run{'s' if self.runs != 1 else ''}")
        return " + ".join(parts)


@dataclass(frozen=True, slots=True)
class Points:
    """Penalty points of cards left in hand."""

    two_to_nine: int | Literal["face"] = 5
    ten: int = 10
    face_cards: int = 10
    ace: int = 20
    wild: int = 50


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete ruleset. Build it with :func:`liverpool.load_rules`."""

    name: str = "custom"
    players: tuple[int, int] = (3, 8)
    decks: tuple[tuple[int, int], ...] = ((4, 2), (6, 3), (8, 4))
    jokers_per_deck: int = 2
    jokers_total: int | Literal["players_minus_one"] | None = None
    wild_deuce_of_spades: bool = False
    contracts: tuple[str, ...] = ("SS", "SR", "RR", "SSS", "SSR", "SRR", "RRR")
    deal: tuple[int, ...] = (10, 10, 10, 10, 12, 12, 12)
    initial_upcard: bool = True
    set_same_suit: bool = False
    run_same_suit: bool = True
    run_wrap: RunWrap = "never"
    min_naturals_set: int = 0
    min_naturals_run: int = 0
    naturals_at_least_wilds: bool = False
    no_adjacent_wilds_in_run: bool = False
    contract_exact: bool = False
    forbid_adjacent_same_suit_runs: bool = False
    forbid_same_rank_sets: bool = False
    lay_off_same_turn: bool = False
    buying: bool = True
    buy_priority: BuyPriority = "turn_player_first"
    buy_limit_per_round: int | Literal["unlimited"] = "unlimited"
    buy_penalty_cards: int = 1
    rebuy: Rebuy = "none"
    refill_empty_discard: bool = False
    no_consecutive_buys: bool = False
    joker_swap: JokerSwap = "none"
    swapped_joker_must_be_played: bool = False
    discard_call: DiscardCall = "none"
    call_last_discard: bool = False
    go_out_requires_discard: bool = False
    final_round: FinalRound = "normal"
    points: Points = field(default_factory=Points)
    liverpool_cut: bool = False
    cut_bonus: int = -50
    cut_noise: int = 5
    max_turns_per_round: int = 1000

    # ----------------------------------------------------------------- rounds
    @property
    def num_rounds(self) -> int:
        """How many rounds a game has."""
        return len(self.contracts)

    def _check_round(self, round: int) -> int:
        if not 1 <= round <= len(self.contracts):
            raise RulesError("rules_round", rounds=len(self.contracts), round=round)
        return round - 1

    def contract(self, round: int) -> Contract:
        """The contract of ``round`` (rounds count from 1)."""
        code = self.contracts[self._check_round(round)]
        return Contract(code.count("S"), code.count("R"))

    def cards_dealt(self, round: int) -> int:
        """Cards dealt to each player in ``round`` (rounds count from 1)."""
        return self.deal[self._check_round(round)]

    def is_final_round(self, round: int) -> bool:
        return round == len(self.contracts)

    def final_mode(self, round: int) -> FinalRound:
        """The final-round mode in force in ``round`` (``"normal"`` before the last round)."""
        return self.final_round if self.is_final_round(round) else "normal"

    # ------------------------------------------------------------- the deck
    def decks_for(self, players: int) -> int:
        for up_to, n in self.decks:
            if players <= up_to:
                return n
        return self.decks[-1][1]

    def jokers_for(self, players: int) -> int:
        if self.jokers_total == "players_minus_one":
            return players - 1
        if self.jokers_total is not None:
            return self.jokers_total
        return self.jokers_per_deck * self.decks_for(players)

    def wilds_for(self, players: int) -> int:
        """The wild cards in the game: the jokers, and every 2♠ where it is wild."""
        return self.jokers_for(players) + (self.decks_for(players)
                                           if self.wild_deuce_of_spades else 0)

    def deck_size(self, players: int) -> int:
        return 52 * self.decks_for(players) + self.jokers_for(players)

    def is_wild(self, card: Card) -> bool:
        """Is this card wild under these rules (a joker, or 2♠ where it is wild)?"""
        return card.rank == 0 or (self.wild_deuce_of_spades and card.index == 1)

    @property
    def buy_limit(self) -> int | None:
        """Buys allowed per player per round, ``None`` for no cap."""
        return None if self.buy_limit_per_round == "unlimited" else self.buy_limit_per_round

    def card_points(self, card: Card) -> int:
        """Penalty points of one card left in hand."""
        p = self.points
        if self.is_wild(card):
            return p.wild
        r = card.rank
        if r == 1:
            return p.ace
        if r >= 11:
            return p.face_cards
        if r == 10:
            return p.ten
        return r if p.two_to_nine == "face" else p.two_to_nine

    def hand_points(self, cards: list[Card] | tuple[Card, ...]) -> int:
        return sum(self.card_points(c) for c in cards)

    # ------------------------------------------------------------ data form
    def to_dict(self) -> dict[str, object]:
        """The ruleset as plain data, with the option names of docs/rules.md, §6."""
        d = asdict(self)
        d["players"] = list(self.players)
        d["decks"] = [list(x) for x in self.decks]
        d["contracts"] = list(self.contracts)
        d["deal"] = list(self.deal)
        if self.jokers_total is None:
            del d["jokers_total"]
        return d
