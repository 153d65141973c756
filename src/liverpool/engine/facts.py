"""What the table's melds allow, worked out once per meld object and kept by
the game between positions (the lay-off and joker-swap search of
:mod:`liverpool.engine.legal`)."""

from __future__ import annotations

from ..actions import Action
from ..cards import JOKER_INDEX, Card
from ..melds import Meld
from ..rules import Rules

__all__ = ["MeldFacts", "TableFacts"]


class MeldFacts:
    """What one table meld at one place allows, worked out once per meld object
    (melds are immutable; one that grows is a new object): the card kinds
    (:attr:`Card.index`) that may be laid off on it, each kind's lay-offs as
    found, and its wild cards' positions with the kinds that may replace them
    and each kind's swap as found (False: none)."""

    __slots__ = ("lay_off_kinds", "lay_offs", "meld", "swap_slots")

    def __init__(self, meld: Meld, rules: Rules) -> None:
        self.meld = meld
        deuce = rules.wild_deuce_of_spades
        suits = (meld.suit,) if meld.suit >= 0 else (0, 1, 2, 3)
        if meld.kind == "set":
            ranks: tuple[int, ...] = (meld.rank,)
        else:  # the places just below and above the run's ends
            ranks = ((meld.rank - 2) % 13 + 1, (meld.rank - 1 + len(meld.cards)) % 13 + 1)
        kinds = {s * 13 + r - 1 for s in suits for r in ranks if 1 <= r <= 13}
        kinds.add(JOKER_INDEX)
        if deuce:
            kinds.add(1)  # the 2S, wild
        self.lay_off_kinds = frozenset(kinds)
        self.lay_offs: dict[int, tuple[Action, ...]] = {}
        slots: list[tuple[int, Card, frozenset[int], dict[int, Action | bool]]] = []
        if rules.joker_swap != "none" and not (rules.joker_swap == "runs"
                                               and meld.kind == "set"):
            for pos, w in enumerate(meld.cards):
                if w.rank == 0 or (deuce and w.index == 1):
                    rank, suit = meld.identity(pos)
                    swap_suits = (suit,) if suit >= 0 else (0, 1, 2, 3)
                    slots.append((pos, w, frozenset(x * 13 + rank - 1 for x in swap_suits), {}))
        self.swap_slots = tuple(slots)



TableFacts = tuple[list[MeldFacts], frozenset[int],
                    list[tuple[int, Meld, tuple[int, Card, frozenset[int], dict[int, Action | bool]]]]]
