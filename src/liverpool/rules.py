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

from dataclasses import asdict, dataclass, field
from typing import Literal

from .cards import Card

__all__ = ["Contract", "Points", "Rules", "RulesError"]


class RulesError(ValueError):
    """A ruleset (file, preset name or override) is not acceptable.

    The message names the option and says what is allowed.
    """


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
            raise RulesError(f"round must be between 1 and {len(self.contracts)}, not {round}")
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
