"""The contract solver: the search for a lay-down of a round's contract.

:func:`find_lay_down` finds one legal lay-down (the engine suggests it),
:func:`iter_lay_downs` yields them all, :func:`find_contract` gives one as lists
of cards, and :func:`lay_down_may_use` says cheaply whether a lay-down could hold
some cards. The melds themselves, and the check of a lay-down, are
:mod:`liverpool.melds`'.

>>> from liverpool import load_rules, parse_cards
>>> from liverpool.cards import format_cards
>>> [format_cards(m) for m in find_contract(parse_cards("9H 9S 9D 5C 6C 7C 8C KS 4D 2H 8S"), load_rules("remi"), 2)]
['5C 6C 7C 8C', '9S 9H 9D']

Inside, by what each module holds:

* :mod:`~liverpool.solver.quick` — the quick rejection: table look-ups per suit
  that tell most hands without a lay-down before any search;
* :mod:`~liverpool.solver.partial` — the search of a normal round (the
  contract's melds from part of the hand);
* :mod:`~liverpool.solver.cover` — the search of a whole-hand final round (an
  exact cover of the hand);
* :mod:`~liverpool.solver.windows` — run windows: the one scan for a legal
  window in a lane, and the ways to fill one with cards;
* :mod:`~liverpool.solver.bounds` — lower bounds on the wilds that sets and
  runs need.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from ..cards import JOKER, Card, check_cards
from ..melds import LayDownMode, Meld, set_order
from ..rules import Contract, Rules
from .cover import WholeHandCover
from .partial import PartialSearch
from .quick import QUICK_PLANS, QuickPlan, contract_and_mode, hopeless, quick_plan
from .windows import has_run_window, lane_bits, ranks_held, run_rules_id

__all__ = [
    "find_contract",
    "find_lay_down",
    "find_melds",
    "iter_lay_downs",
    "lay_down_may_use",
]


def find_lay_down(hand: Sequence[Card], rules: Rules, round: int) -> list[Meld] | None:
    """One legal lay-down of ``round``'s contract from ``hand`` (minimal melds,
    or the whole hand in an all-at-once final round), or None.
    """
    entry = QUICK_PLANS.get(id(rules))
    plan = entry[1].get(round) if entry is not None and entry[0] is rules else None
    if plan is None:
        plan = quick_plan(rules, round)
    n = len(hand)
    if n < plan.min_cards or (n < plan.quick_cards and hopeless(hand, plan)):
        return None
    return _search(hand, rules, plan, n < plan.quick_cards)


#: per ruleset id: the ruleset and its normal-round plans by contract (see :func:`find_melds`)
_CONTRACT_PLANS: dict[int, tuple[Rules, dict[tuple[int, int], QuickPlan]]] = {}


def find_melds(hand: Sequence[Card], rules: Rules, contract: Contract) -> list[Meld] | None:
    """One lay-down of ``contract`` from ``hand`` in a normal round (minimal
    melds), or None: :func:`find_lay_down` for a contract of any round (the
    bots' planner checks its estimate with it).

    >>> from liverpool import load_rules, parse_cards
    >>> [str(m) for m in find_melds(parse_cards("9D 9H 9S QC QH QD TS JS QS KS"),
    ...                             load_rules("liverpool"), Contract(2, 1))]
    ['TS JS QS KS', '9S 9H 9D', 'QH QD QC']
    """
    entry = _CONTRACT_PLANS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_CONTRACT_PLANS) > 64:
            _CONTRACT_PLANS.clear()
        entry = _CONTRACT_PLANS[id(rules)] = (rules, {})
    key = (contract.sets, contract.runs)
    plan = entry[1].get(key)
    if plan is None:
        plan = entry[1][key] = QuickPlan(rules, contract, "normal")
    n = len(hand)
    if n < plan.min_cards or (n < plan.quick_cards and hopeless(hand, plan)):
        return None
    return _search(hand, rules, plan, n < plan.quick_cards)


def _search(hand: Sequence[Card], rules: Rules, plan: QuickPlan,
            screened: bool = False) -> list[Meld] | None:
    """:func:`find_lay_down` past the quick rejection (``screened``: :func:`hopeless`
    said the hand may have a lay-down)."""
    for found in _lay_downs(hand, rules, plan.contract, plan.mode, True, screened):
        return found
    return None


def _lay_downs(hand: Sequence[Card], rules: Rules, contract: Contract, mode: LayDownMode,
               first_only: bool, screened: bool = False) -> Iterator[list[Meld]]:
    """The lay-downs of a round (the first one only, or all): the partial search
    in a normal round, the cover in the whole-hand rounds."""
    if mode != "normal":
        return WholeHandCover(hand, rules, contract, 1 if mode == "all_but_one" else 0,
                              first_only).solve()
    return PartialSearch(hand, rules, contract).solve(first_only, screened)


def lay_down_may_use(hand: Sequence[Card], rules: Rules, round: int,
                     cards: Iterable[Card], *, counts: Sequence[int] | None = None) -> bool:
    """Could a legal lay-down of ``round``'s contract from ``hand`` hold one of ``cards``?

    A quick test, False only when none can: no natural card of ``cards`` that
    is in the hand fits in any meld the hand could make (a set of its rank with
    enough natural cards and jokers, or a run window through it). With a hand
    known to have no lay-down, and ``cards`` the cards it has gained since (in a
    normal round a lay-down from part of a hand is one from the whole hand),
    False means the hand still has none. True (a lay-down may exist) for a wild
    card in ``cards``, in the final rounds (a lay-down there takes the whole
    hand) and under ``wild_deuce_of_spades``. ``counts``: the hand's card counts
    by :attr:`~liverpool.cards.Card.index`, if the caller has them.

    >>> from liverpool import load_rules, parse_cards
    >>> rules = load_rules("liverpool")
    >>> hand = parse_cards("9H 9S 9C 5C 6C KD KS 2H 3D JC")
    >>> find_lay_down(hand, rules, 1) is None
    True
    >>> lay_down_may_use(hand + parse_cards("4H"), rules, 1, parse_cards("4H"))
    False
    >>> lay_down_may_use(hand + parse_cards("KH"), rules, 1, parse_cards("KH"))
    True
    """
    contract, mode = contract_and_mode(rules, round)
    if mode != "normal" or rules.wild_deuce_of_spades:
        return True
    if len(hand) < contract.min_cards:
        return False
    if counts is None:
        counts = [0] * 53
        for c in hand:
            counts[c.index] += 1
    jokers = counts[JOKER.index]
    size, kmin, runs_id, wrap = _use_rules(rules)
    sets_ok = contract.sets > 0 and kmin <= size
    for c in cards:
        rank = c.rank
        if rank == 0:
            return True
        if not counts[c.index]:
            continue  # not in the hand
        if sets_ok:
            have = counts[c.index] if rules.set_same_suit else (
                counts[rank - 1] + counts[12 + rank] + counts[25 + rank] + counts[38 + rank])
            if have >= kmin and have + jokers >= size:
                return True
        if contract.runs:
            if rules.run_same_suit:
                b = c.suit * 13
                m = ranks_held(tuple(counts[b:b + 13]))
            else:
                m = ranks_held(tuple([w + x + y + z for w, x, y, z in zip(
                    counts[0:13], counts[13:26], counts[26:39], counts[39:52], strict=True)]))
            if has_run_window(lane_bits(m, -1, 0, wrap), jokers, runs_id, rank):
                return True
    return False


_USE_RULES: dict[int, tuple[Rules, tuple[int, int, int, bool]]] = {}


def _use_rules(rules: Rules) -> tuple[int, int, int, bool]:
    """For :func:`lay_down_may_use` (remembered per ruleset, as
    :func:`contract_and_mode`): the size of a smallest set, the natural cards
    it needs at least, the :func:`run_rules_id` of a normal round, and whether
    runs wrap."""
    entry = _USE_RULES.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_USE_RULES) > 64:
            _USE_RULES.clear()
        size = 3 if rules.contract_exact else max(3, rules.min_naturals_set)
        kmin = max(1, rules.min_naturals_set,
                   (size + 1) // 2 if rules.naturals_at_least_wilds else 1)
        entry = _USE_RULES[id(rules)] = (rules, (size, kmin,
                                                 run_rules_id(rules, rules.contract_exact),
                                                 rules.run_wrap != "never"))
    return entry[1]


def find_contract(hand: Sequence[Card], rules: Rules, round: int) -> list[list[Card]] | None:
    """One legal lay-down of ``round``'s contract from ``hand`` as lists of cards
    (runs low to high with wilds in place), or None if there is none.

    In an ``all_at_once`` final round it uses the whole hand; in
    ``all_at_once_discard`` all cards but one.
    """
    if isinstance(hand, str):
        check_cards(hand)
    try:
        found = find_lay_down(hand, rules, round)
    except (AttributeError, TypeError):
        check_cards(hand)
        raise
    return None if found is None else [list(m.cards) for m in found]


def iter_lay_downs(hand: Sequence[Card], rules: Rules, round: int) -> Iterator[list[Meld]]:
    """Lazily yield the distinct legal lay-downs of ``round``'s contract.

    In a normal round the melds have their minimum sizes (3 and 4, longer only
    where the wild limits need it); extend them by laying off later, or pass a
    longer lay-down to :func:`~liverpool.melds.check_lay_down`. Interchangeable wilds (which of
    two jokers goes where) are not told apart.
    """
    plan = quick_plan(rules, round)
    n = len(hand)
    if n < plan.min_cards or (n < plan.quick_cards and hopeless(hand, plan)):
        return
    seen: set[tuple[tuple[Card, ...], ...]] = set()
    for found in _lay_downs(hand, rules, plan.contract, plan.mode, False):
        key = tuple(sorted((m.cards if m.kind == "run" else tuple(sorted(m.cards, key=set_order))
                            for m in found), key=lambda cs: [c.index for c in cs]))
        if key not in seen:
            seen.add(key)
            yield found
