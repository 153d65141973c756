"""Reading, writing and validating rulesets (docs/rules.md, §6).

A ruleset is a TOML file with the option names of docs/rules.md, §6 as keys. It may
``extends = "<preset>"`` (or extend another file, relative to it) and override
options; ``points`` merges key by key. The four presets are such files inside
the package (``liverpool/presets/*.toml``). Keyword overrides of
:func:`load_rules` use the same names.

Every problem — an unknown option, a wrong type, an impossible combination, a
TOML syntax error, a missing file — raises :class:`~liverpool.rules.RulesError`
with one message that names the option and says what is allowed.

>>> load_rules("london").run_wrap
'three_beside_ace'
>>> load_rules("remi", contract_exact=False).contract_exact
False

Only the standard library is used here.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib.resources
import json
import os
import tomllib
import typing
import unicodedata
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

from . import i18n
from .errors import is_whole
from .rules import Points, Rules, RulesError, type_code
from .ruleset_files import looks_like_path, path_exists, read_toml, shown_path

__all__ = [
    "BOUNDS",
    "COMMON_OPTIONS",
    "OPTION_NAMES",
    "POINTS_KEYS",
    "PRESETS",
    "describe_rules",
    "load_preset",
    "load_rules",
    "rules_from_dict",
    "rules_to_toml",
    "ruleset_extends",
    "validate_rules",
]

#: The built-in presets, in the order of docs/rules.md, §4.
PRESETS: tuple[str, ...] = ("liverpool", "london", "dansk", "remi")

#: Every option name (the fields of :class:`~liverpool.rules.Rules`, ``name`` included).
OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))

#: The keys of the ``points`` table.
POINTS_KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Points))

#: The range (least, most) of every number in a ruleset (docs/rules.md, §6,
#: "The range of every option"): generous for any real game, bounded so that
#: no ruleset makes a game (or a server) spend without end. ``contracts`` is
#: the number of rounds, ``contracts.melds`` the melds of one contract,
#: ``decks.*`` the two numbers of a pair, ``points`` every key of the table,
#: ``name`` its length in characters. The deck must also hold every deal
#: (a combination, checked by :func:`validate_rules`).
BOUNDS: dict[str, tuple[int, int]] = {
    "name": (1, 80),
    "players": (2, 8),
    "decks.up_to_players": (2, 8),
    "decks.decks": (1, 8),
    "jokers_per_deck": (0, 4),
    "jokers_total": (0, 32),
    "contracts": (1, 20),
    "contracts.melds": (1, 6),
    "deal": (1, 30),
    "min_naturals_set": (0, 3),
    "min_naturals_run": (0, 4),
    "buy_limit_per_round": (0, 20),
    "buy_penalty_cards": (0, 5),
    "points": (0, 1000),
    "cut_bonus": (-1000, 1000),
    "cut_noise": (0, 50),
    "max_turns_per_round": (1, 1000),
}

_MIN_PLAYERS, _MAX_PLAYERS = BOUNDS["players"]

#: What one option's value may hold at most, before its own checks: values
#: (list and table entries, nested ones included), containers nested in
#: containers, characters of a string (docs/rules.md, §6).
MAX_VALUE_ITEMS = 64
MAX_VALUE_DEPTH = 2
MAX_VALUE_CHARS = 200
#: files one ruleset may chain through ``extends``
MAX_EXTENDS = 32

# A state is a dict of canonical option values (tuples, ints, strings, bools);
# ``points`` is a dict of the points keys. States are never mutated in place.
_State = dict[str, object]


# --------------------------------------------------------------- formatting
def _suggest(word: str, choices: tuple[str, ...], prefix: str = "") -> str | None:
    """The choice ``word`` most likely means (with ``prefix``), or None: the
    ``suggestion`` of a :class:`RulesError` (`` (did you mean 'x'?)``).

    A choice scores by its likeness to ``word`` as a whole or by its start, so
    that ``buy_limt`` finds ``buy_limit_per_round``.
    """
    low = word.lower()
    best, best_score = "", 0.0
    for choice in choices:
        score = max(
            difflib.SequenceMatcher(None, low, choice).ratio(),
            difflib.SequenceMatcher(None, low, choice[: len(low) + 1]).ratio(),
        )
        if len(low) >= 3 and low in choice:
            score = max(score, 0.8)
        if score > best_score:
            best, best_score = choice, score
    return prefix + best if best_score >= 0.6 else None


def _one_of(key: str, choices: tuple[str, ...], value: object) -> RulesError:
    return RulesError("rules_one_of", key=key, choices=choices, value=value)


# --------------------------------------------------------------- value checks
def _int(key: str, value: object, minimum: int | None = None,
         maximum: int | None = None) -> int:
    if not is_whole(value):
        if minimum is None:
            raise RulesError("rules_int", key=key, type=type_code(value), value=value)
        raise RulesError("rules_int_min_type", key=key, minimum=minimum, type=type_code(value),
                         value=value)
    n = value
    if minimum is not None and n < minimum:
        raise RulesError("rules_int_min", key=key, minimum=minimum, value=n)
    if maximum is not None and n > maximum:
        raise RulesError("rules_int_max", key=key, minimum=minimum, maximum=maximum, value=n)
    return n


def _bounded(key: str, value: object, bound: str | None = None) -> int:
    """``value`` as an int within ``BOUNDS[bound or key]``."""
    lo, hi = BOUNDS[bound or key]
    return _int(key, value, lo, hi)


def _bool(key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise RulesError("rules_bool", key=key, type=type_code(value), value=value)
    return value


def _enum(choices: tuple[str, ...]) -> Callable[[str, object], object]:
    def check(key: str, value: object) -> object:
        if not isinstance(value, str) or value not in choices:
            raise _one_of(key, choices, value)
        return value

    return check


def _int_or(word: str) -> Callable[[str, object], object]:
    """An int within the option's bounds, or ``word``."""
    def check(key: str, value: object) -> object:
        if value == word and isinstance(value, str):
            return value
        minimum, maximum = BOUNDS[key]
        if is_whole(value) and value >= minimum:
            if value > maximum:
                raise RulesError("rules_int_max_or", key=key, minimum=minimum, maximum=maximum,
                                 word=word, value=value)
            return value
        raise RulesError("rules_int_or", key=key, minimum=minimum, word=word, value=value)

    return check


def _list(key: str, value: object) -> list[object] | tuple[object, ...]:
    """``value`` if it is a list; ``what`` (the words of what the list holds) is ``key``."""
    if not isinstance(value, list | tuple):
        raise RulesError("rules_not_list", key=key, what=key, type=type_code(value), value=value)
    if not value:
        raise RulesError("rules_empty", key=key, what=key)
    return value


def _rounds(key: str, value: object) -> list[object] | tuple[object, ...]:
    """``value`` if it is a list of one entry per round, as many as a game may have."""
    items = _list(key, value)
    maximum = BOUNDS["contracts"][1]
    if len(items) > maximum:
        raise RulesError("rules_rounds_max", key=key, n=len(items), maximum=maximum)
    return items


def _check_size(key: str, value: object) -> None:
    """Refuse a value bigger than any option takes (MAX_VALUE_ITEMS values,
    MAX_VALUE_DEPTH nested containers, MAX_VALUE_CHARS characters a string),
    before anything else looks at it. Iterative: a deep value costs no recursion."""
    stack: list[tuple[object, int]] = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        big = seen > MAX_VALUE_ITEMS or (isinstance(item, str) and len(item) > MAX_VALUE_CHARS)
        if isinstance(item, list | tuple | Mapping):
            big = big or depth >= MAX_VALUE_DEPTH or len(item) > MAX_VALUE_ITEMS
            if not big:
                if isinstance(item, Mapping):
                    stack.extend((k, depth + 1) for k in item)
                    stack.extend((v, depth + 1) for v in item.values())
                else:
                    stack.extend((v, depth + 1) for v in item)
        if big:
            raise RulesError("rules_too_large", key=key, items=MAX_VALUE_ITEMS,
                             depth=MAX_VALUE_DEPTH, chars=MAX_VALUE_CHARS)


def _check_name(key: str, value: object) -> object:
    if not isinstance(value, str) or not value.strip():
        raise RulesError("rules_name", key=key, value=value)
    maximum = BOUNDS["name"][1]
    if len(value) > maximum:
        raise RulesError("rules_name_long", key=key, maximum=maximum, n=len(value))
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs") and c not in "\u200c\u200d"
           for c in value):  # (joiners, as in emoji sequences, are no controls)
        raise RulesError("rules_name_control", key=key)
    return value


def _check_players(key: str, value: object) -> object:
    msg = RulesError("rules_players", key=key, lo=_MIN_PLAYERS, hi=_MAX_PLAYERS, value=value)
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(map(is_whole, value)):
        raise msg
    lo, hi = cast(int, value[0]), cast(int, value[1])
    if not _MIN_PLAYERS <= lo <= hi <= _MAX_PLAYERS:
        raise msg
    return (lo, hi)


def _check_decks(key: str, value: object) -> object:
    items = _list(key, value)
    out: list[tuple[int, int]] = []
    for item in items:
        if not isinstance(item, list | tuple) or len(item) != 2 or not all(map(is_whole, item)):
            raise RulesError("rules_decks_pair", key=key, what=key, item=item)
        up_to, n = cast(int, item[0]), cast(int, item[1])
        if n < 1:
            raise RulesError("rules_decks_count", key=key, n=n, item=item)
        most = BOUNDS["decks.decks"][1]
        if n > most:
            raise RulesError("rules_decks_max", key=key, maximum=most, n=n, item=item)
        lo, hi = BOUNDS["decks.up_to_players"]
        if not lo <= up_to <= hi:
            raise RulesError("rules_decks_players", key=key, lo=lo, hi=hi, n=up_to, item=item)
        if out and up_to <= out[-1][0]:
            raise RulesError("rules_decks_order", key=key, item=item, previous=out[-1])
        out.append((up_to, n))
    return tuple(out)


def _check_contracts(key: str, value: object) -> object:
    items = _rounds(key, value)
    most = BOUNDS["contracts.melds"][1]
    for i, code in enumerate(items, 1):
        if not isinstance(code, str) or not code or set(code) - {"S", "R"}:
            raise RulesError("rules_contract_code", key=key, what=key, round=i, value=code)
        if len(code) > most:
            raise RulesError("rules_contract_melds", key=key, round=i, n=len(code),
                             maximum=most, value=code)
    return tuple(cast(str, c) for c in items)


def _check_deal(key: str, value: object) -> object:
    items = _rounds(key, value)
    most = BOUNDS["deal"][1]
    for i, n in enumerate(items, 1):
        if not is_whole(n) or n < 1:
            raise RulesError("rules_deal_size", key=key, what=key, round=i, value=n)
        if n > most:
            raise RulesError("rules_deal_max", key=key, round=i, maximum=most, value=n)
    return tuple(cast(int, n) for n in items)


def _check_jokers_total(key: str, value: object) -> object:
    if value is None:  # only reachable from Python: unset, jokers_per_deck counts again
        return None
    return _int_or("players_minus_one")(key, value)


def _check_naturals(key: str, value: object) -> object:
    n = _int(key, value, 0)
    if n > BOUNDS[key][1]:  # (the messages of docs/rules.md, §6, "refused")
        raise RulesError("rules_naturals_set" if key == "min_naturals_set" else
                         "rules_naturals_run", n=n)
    return n


def _check_points_value(key: str, value: object) -> object:
    # card values are penalty points: never below 0
    if key == "points.two_to_nine":
        if value == "face":
            return value
        if is_whole(value):
            return _bounded(key, value, "points")
        raise RulesError("rules_two_to_nine", key=key, value=value)
    return _bounded(key, value, "points")


_Check = Callable[[str, object], object]


def _c_bounded(key: str, value: object) -> object:
    return _bounded(key, value)


_CHECKS: dict[str, _Check] = {
    "name": _check_name,
    "players": _check_players,
    "decks": _check_decks,
    "jokers_per_deck": _c_bounded,
    "jokers_total": _check_jokers_total,
    "wild_deuce_of_spades": _bool,
    "contracts": _check_contracts,
    "deal": _check_deal,
    "initial_upcard": _bool,
    "set_same_suit": _bool,
    "run_same_suit": _bool,
    "run_wrap": _enum(("never", "three_beside_ace", "always")),
    "min_naturals_set": _check_naturals,
    "min_naturals_run": _check_naturals,
    "naturals_at_least_wilds": _bool,
    "no_adjacent_wilds_in_run": _bool,
    "contract_exact": _bool,
    "forbid_adjacent_same_suit_runs": _bool,
    "forbid_same_rank_sets": _bool,
    "lay_off_same_turn": _bool,
    "buying": _bool,
    "buy_priority": _enum(("turn_player_first", "others_first")),
    "buy_limit_per_round": _int_or("unlimited"),
    "buy_penalty_cards": _c_bounded,
    "rebuy": _enum(("none", "next_card")),
    "refill_empty_discard": _bool,
    "no_consecutive_buys": _bool,
    "joker_swap": _enum(("none", "runs", "runs_and_sets")),
    "swapped_joker_must_be_played": _bool,
    "discard_call": _enum(("none", "liverpool", "liverpool_pile", "shanghai")),
    "call_last_discard": _bool,
    "go_out_requires_discard": _bool,
    "final_round": _enum(("normal", "all_at_once", "all_at_once_discard")),
    "liverpool_cut": _bool,
    "cut_bonus": _c_bounded,
    "cut_noise": _c_bounded,
    "max_turns_per_round": _c_bounded,
}
if set(_CHECKS) | {"points"} != set(OPTION_NAMES):  # a new Rules field fails at import
    raise RuntimeError("every Rules field needs a check")
_LONGEST_NAME = max(map(len, OPTION_NAMES))


def _check_points(value: object) -> dict[str, object]:
    if isinstance(value, Points):
        return dataclasses.asdict(value)
    if not isinstance(value, Mapping):
        raise RulesError("rules_points_table", names=POINTS_KEYS, type=type_code(value),
                         value=value)
    out: dict[str, object] = {}
    for k, v in value.items():
        if k not in POINTS_KEYS:
            raise RulesError("rules_points_key", key=f"points.{k}",
                             suggestion=_suggest(str(k), POINTS_KEYS, "points."),
                             names=POINTS_KEYS)
        out[k] = _check_points_value(f"points.{k}", v)
    return out


def _check_layer(data: Mapping[str, object], *, allow_extends: bool = False) -> _State:
    """Check the keys and value types of one layer (a file, a dict or overrides).

    Returns canonical values; ``points`` holds only the keys the layer gives.
    """
    out: _State = {}
    for key, value in data.items():
        if key == "extends" and allow_extends:
            continue
        if key == "points":
            if not isinstance(value, Points):
                _check_size(key, value)
            out["points"] = _check_points(value)
            continue
        check = _CHECKS.get(key)
        if check is None:
            word = str(key)
            hint = (_suggest(word, OPTION_NAMES + (("extends",) if allow_extends else ()))
                    if len(word) <= 2 * _LONGEST_NAME else None)
            if key == "extends":
                raise RulesError("rules_extends_here")
            raise RulesError("rules_unknown_option", key=key, suggestion=hint)
        _check_size(key, value)
        out[key] = check(key, value)
    return out


def _merge(base: Mapping[str, object], layer: Mapping[str, object]) -> _State:
    """``layer`` over ``base``; ``points`` merges key by key.

    A layer that names ``jokers_per_deck`` without ``jokers_total`` means
    jokers per deck: it unsets a ``jokers_total`` it inherits (so
    ``extends = "remi"`` with ``jokers_per_deck = 1`` has one joker a deck,
    not remi's 9).
    """
    out = dict(base)
    if "jokers_per_deck" in layer and "jokers_total" not in layer:
        out["jokers_total"] = None
    for key, value in layer.items():
        if key == "points":
            points = dict(cast(Mapping[str, object], out.get("points", {})))
            points.update(cast(Mapping[str, object], value))
            out["points"] = points
        else:
            out[key] = value
    return out


@functools.lru_cache(maxsize=1)
def _defaults() -> Mapping[str, object]:
    """The built-in defaults of the :class:`Rules` dataclass, as a state."""
    r = Rules()
    state: _State = {f.name: getattr(r, f.name) for f in dataclasses.fields(Rules)}
    state["points"] = dataclasses.asdict(r.points)
    return state


# ------------------------------------------------------ combinations of options
def validate_rules(rules: Rules) -> Rules:
    """Check the combinations of options of a :class:`Rules`; return it unchanged.

    Raises :class:`RulesError` naming the option when a value is not of its
    type or outside its range (:data:`BOUNDS`), or when the combination can
    never be played (see docs/rules.md, §6). Loading checks the values of each
    layer as it is read; this checks them once more, for a :class:`Rules` made
    in Python.
    """
    _check_layer(rules.to_dict())
    return _check_combinations(rules)


def _check_combinations(rules: Rules) -> Rules:
    """The combinations of options of :func:`validate_rules` (the values are checked)."""
    lo, hi = rules.players
    counts = range(lo, hi + 1)

    if rules.decks[-1][0] < hi:
        raise RulesError("rules_decks_cover", players=hi, item=rules.decks[-1])
    if len(rules.deal) != len(rules.contracts):
        raise RulesError("rules_deal_length", deal=len(rules.deal),
                         contracts=len(rules.contracts))

    # a. enough cards to deal every round, start the discard pile and keep a stock
    upcard = 1 if rules.initial_upcard else 0
    for n in counts:
        size = rules.deck_size(n)
        for rnd, dealt in enumerate(rules.deal, 1):
            needed = n * dealt + upcard + 1
            if size < needed:
                raise RulesError("rules_few_cards" if upcard else "rules_few_cards_no_upcard",
                                 round=rnd, needed=needed, players=n, dealt=dealt,
                                 decks=rules.decks_for(n), jokers=rules.jokers_for(n), size=size)

    # b. every contract can be met with the cards a player can hold
    buy_limit = rules.buy_limit if rules.buying else 0
    for rnd in range(1, rules.num_rounds + 1):
        contract = rules.contract(rnd)
        need = contract.min_cards
        dealt = rules.cards_dealt(rnd)
        discard = 1 if rules.final_mode(rnd) == "all_at_once_discard" else 0
        if buy_limit is None:  # buying without a cap: buys can always supply the cards
            continue
        best = dealt + 1 - discard + (rules.buy_penalty_cards + 1) * buy_limit
        if best < need:
            # the fields "how" of the message: dealt, discarded, buys, buy_cards
            raise RulesError("rules_never_met", round=rnd, code=contract.code, contract=contract,
                             need=need, best=best, dealt=dealt, discarded=bool(discard),
                             buys=buy_limit, buy_cards=rules.buy_penalty_cards + 1)

    # c. same-suit sets need identical cards (or wilds): at least one set, and
    # every round's sets together (each needs 3 - decks wilds at the least)
    if rules.set_same_suit and any("S" in c for c in rules.contracts):
        for n in counts:
            decks = rules.decks_for(n)
            wilds = rules.wilds_for(n)
            if not _same_suit_set_possible(rules, decks, wilds):
                if rules.min_naturals_set or rules.naturals_at_least_wilds:
                    raise RulesError("rules_same_suit_sets_limits", players=n, naturals=decks,
                                     wilds=wilds, min_naturals_set=rules.min_naturals_set,
                                     naturals_at_least_wilds=rules.naturals_at_least_wilds)
                raise RulesError("rules_same_suit_sets", players=n, naturals=decks, wilds=wilds)
            for rnd in range(1, rules.num_rounds + 1):
                contract = rules.contract(rnd)
                needed = contract.sets * max(0, 3 - decks)
                if needed > wilds:
                    raise RulesError("rules_same_suit_sets_round", players=n, round=rnd,
                                     code=contract.code, contract=contract, sets=contract.sets,
                                     naturals=decks, needed=needed, wilds=wilds)

    # d. a final round where the whole hand goes down: the fewest cards a player
    # goes out with (the deal and the draw, less the discard) must fit in the
    # contract's melds at their largest (a run: 14 cards, 13 when runs turn the
    # corner; a set: every natural card of its rank, and the sets every wild)
    last = rules.num_rounds
    mode = rules.final_mode(last)
    if mode != "normal":
        contract = rules.contract(last)
        cards = rules.cards_dealt(last) + 1 - (1 if mode == "all_at_once_discard" else 0)
        longest = 14 if rules.run_wrap == "never" else 13
        for n in counts:
            decks = rules.decks_for(n)
            wilds = rules.wilds_for(n)
            per_rank = decks if rules.set_same_suit else 4 * decks
            most = contract.runs * longest  # (a run's wilds are within its 14 cards)
            if contract.sets:
                most += contract.sets * per_rank + wilds
            if cards > most:
                raise RulesError("rules_final_too_big", round=last, code=contract.code,
                                 contract=contract, cards=cards, players=n, most=most)
    return rules


def _same_suit_set_possible(rules: Rules, decks: int, wilds: int) -> bool:
    for k in range(max(1, rules.min_naturals_set), decks + 1):
        for w in range(0, wilds + 1):
            if k + w >= 3 and (not rules.naturals_at_least_wilds or k >= w):
                return True
    return False


def _build(state: Mapping[str, object]) -> Rules:
    kwargs: dict[str, Any] = dict(state)
    kwargs["points"] = Points(**cast(Mapping[str, Any], state.get("points", {})))
    return _check_combinations(Rules(**kwargs))  # (each layer's values were checked)


# --------------------------------------------------------------- sources
def _preset_key(name: str) -> str | None:
    low = name.strip().lower()
    return low if low in PRESETS else None


def _unknown_preset(name: str) -> RulesError:
    return RulesError("rules_unknown_preset", preset=name,
                      suggestion=_suggest(name.lower(), PRESETS), names=PRESETS)


@functools.cache
def _preset_data(name: str) -> Mapping[str, object]:
    """The parsed TOML of a built-in preset (cached; never mutate it)."""
    res = importlib.resources.files("liverpool").joinpath("presets", f"{name}.toml")
    try:
        text = res.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _unknown_preset(name) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:  # pragma: no cover - the presets are tested
        raise RulesError("rules_preset_toml", preset=name, detail=str(e)) from None


@functools.cache
def _preset_state(name: str) -> Mapping[str, object]:
    """The checked options of a preset (cached; never mutate it)."""
    data = _preset_data(name)
    try:
        layer = _check_layer(data, allow_extends=True)
        ext = data.get("extends")
        base: Mapping[str, object]
        if ext is None:
            base = _defaults()
        else:
            key = _preset_key(ext) if isinstance(ext, str) else None
            if key is None or key == name:
                raise RulesError("rules_preset_extends")
            base = _preset_state(key)
        state = _merge(base, layer)
        state["name"] = name
        return state
    except RulesError as e:  # pragma: no cover - the presets are tested
        raise RulesError("rules_in_preset", preset=name, error=e) from None


@functools.cache
def _preset_rules(name: str) -> Rules:
    return _build(_preset_state(name))


def _file_state(path: Path, chain: tuple[Path, ...]) -> _State:
    """The options of a ruleset file with everything it extends."""
    try:
        resolved = path.resolve()
    except (OSError, ValueError):  # a name no file can have
        raise RulesError("rules_no_file", file=shown_path(path)) from None
    if resolved in chain:
        cycle = " -> ".join(p.name for p in (*chain[chain.index(resolved) :], resolved))
        raise RulesError("rules_extends_cycle", cycle=cycle)
    if len(chain) >= MAX_EXTENDS:
        raise RulesError("rules_extends_deep", path=str(chain[0]), limit=MAX_EXTENDS)
    data = read_toml(path)
    try:
        layer = _check_layer(data, allow_extends=True)
    except RulesError as e:
        raise RulesError("rules_in_file", path=str(path), error=e) from None
    base: Mapping[str, object]
    if "extends" not in data:
        base = _defaults()
    else:
        ext = data["extends"]
        if not isinstance(ext, str) or not ext.strip():
            raise RulesError("rules_extends_value", path=str(path), names=PRESETS, value=ext,
                             suggestion=None)
        key = _preset_key(ext)
        if key is not None:
            base = _preset_state(key)
        else:
            target = Path(ext).expanduser()
            if not target.is_absolute():
                target = path.parent / target
            if not path_exists(target) and not looks_like_path(ext):
                raise RulesError("rules_extends_value", path=str(path), names=PRESETS,
                                 value=ext, suggestion=_suggest(ext.lower(), PRESETS))
            if not path_exists(target):
                raise RulesError("rules_extends_no_file", path=str(path),
                                 file=shown_path(target))
            base = _file_state(target, (*chain, resolved))
    state = _merge(base, layer)
    state["name"] = layer.get("name", path.stem[: BOUNDS["name"][1]])
    return state


def _source_state(source: str | os.PathLike[str]) -> tuple[_State | None, str | None, Path | None]:
    """(state of a file, preset key, path): exactly one of preset key / state is set."""
    if isinstance(source, str):
        key = _preset_key(source)
        if key is not None:
            return None, key, None
        if not source.strip():
            raise RulesError("rules_no_source", names=PRESETS)
        path = Path(source).expanduser()
        if not path_exists(path) and not looks_like_path(source):
            raise _unknown_preset(source)
    elif isinstance(source, os.PathLike):
        path = Path(source)
    else:
        raise RulesError("rules_source_type", type=type_code(source), value=source)
    return _file_state(path, ()), None, path


# --------------------------------------------------------------- public API
def load_rules(preset_or_path: str | os.PathLike[str] = "liverpool", **overrides: object) -> Rules:
    """Load a ruleset: a preset name or a TOML file, then keyword overrides.

    A file may ``extends = "<preset>"`` (or the path of another file, relative
    to it); without ``extends`` its options start from the defaults of
    :class:`~liverpool.rules.Rules`. Overrides use the option names of
    docs/rules.md, §6; ``points`` merges key by key. Raises
    :class:`~liverpool.rules.RulesError` with a message naming the option.

    >>> rules = load_rules("remi", contract_exact=False, points={"ace": 15})
    >>> rules.name, rules.contract_exact, rules.points.ace, rules.points.wild
    ('remi', False, 15, 50)
    >>> load_rules("liverpool", buy_limt=2)
    Traceback (most recent call last):
    ...
    liverpool.rules.RulesError: unknown option 'buy_limt' (did you mean 'buy_limit_per_round'?)
    >>> load_rules("liverpool", run_wrap="sometimes")
    Traceback (most recent call last):
    ...
    liverpool.rules.RulesError: 'run_wrap' must be one of "never", "three_beside_ace", "always", not "sometimes"
    """
    state, preset, path = _source_state(preset_or_path)
    if preset is not None and not overrides:
        return _preset_rules(preset)
    base: Mapping[str, object] = (
        _preset_state(preset) if preset is not None else cast(_State, state)
    )
    layer = _check_layer(overrides)
    merged = _merge(base, layer)
    try:
        return _build(merged)
    except RulesError as e:
        if path is not None:
            raise RulesError("rules_in_file", path=str(path), error=e) from None
        raise


def load_preset(preset: str, **overrides: object) -> Rules:
    """:func:`load_rules` of a built-in preset named ``preset``, never of a
    file: for names that come from people over a network, where a path would
    read the server's files. Raises :class:`~liverpool.rules.RulesError`
    (``rules_not_a_preset``) for any other name.

    >>> load_preset("Remi", contract_exact=False).contract_exact
    False
    >>> load_preset("/etc/passwd")
    Traceback (most recent call last):
    ...
    liverpool.rules.RulesError: unknown preset '/etc/passwd'; the presets are liverpool, london, dansk, remi
    """
    key = _preset_key(preset) if isinstance(preset, str) else None
    if key is None:
        shown = preset if isinstance(preset, str) and len(preset) <= 40 else (
            str(preset)[:39] + "…")
        raise RulesError("rules_not_a_preset", preset=shown,
                         suggestion=_suggest(shown.lower(), PRESETS), names=PRESETS)
    return load_rules(key, **overrides)


def rules_from_dict(data: Mapping[str, object]) -> Rules:
    """Rebuild a ruleset from plain data, e.g. the output of :meth:`Rules.to_dict`.

    Missing options take the defaults of :class:`~liverpool.rules.Rules`; the
    same checks as :func:`load_rules` apply.

    >>> r = load_rules("dansk")
    >>> rules_from_dict(r.to_dict()) == r
    True
    """
    if not isinstance(data, Mapping):
        raise RulesError("rules_not_table", type=type_code(data))
    return _build(_merge(_defaults(), _check_layer(data)))


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")  # pragma: no cover


def rules_to_toml(rules: Rules) -> str:
    """A complete TOML ruleset file (no ``extends``) that loads back to ``rules``.

    >>> import tomllib
    >>> tomllib.loads(rules_to_toml(load_rules("london")))["run_wrap"]
    'three_beside_ace'
    """
    lines = [
        f"# Liverpool rummy ruleset {rules.name!r}: every option of docs/rules.md, §6.",
        "# Load it with `liverpool rules FILE` or liverpool.load_rules(path).",
        "",
    ]
    for f in dataclasses.fields(Rules):
        if f.name == "points":
            continue
        value = getattr(rules, f.name)
        if value is None:  # jokers_total unset: jokers_per_deck counts
            continue
        lines.append(f"{f.name} = {_toml_value(value)}")
    lines += ["", "[points]"]
    for key in POINTS_KEYS:
        lines.append(f"{key} = {_toml_value(getattr(rules.points, key))}")
    return "\n".join(lines) + "\n"


def ruleset_extends(preset_or_path: str | os.PathLike[str]) -> str | None:
    """What a ruleset file says it ``extends`` (``None`` for none, or for a preset).

    Raises :class:`RulesError` when the file cannot be read as TOML.
    """
    if isinstance(preset_or_path, str) and _preset_key(preset_or_path) is not None:
        return None
    data = read_toml(Path(preset_or_path).expanduser())
    ext = data.get("extends")
    return ext if isinstance(ext, str) else None


# ------------------------------------------------------------ descriptions
#: the options a lobby shows first (the common house rules)
COMMON_OPTIONS = ("buy_limit_per_round", "jokers_per_deck", "jokers_total", "deal",
                  "discard_call", "final_round", "buying", "contract_exact")


def describe_rules(rules: Rules, lang: str) -> dict[str, Any]:
    """A ruleset for a lobby and a rules page: every option with its value,
    kind, choices, name and meaning in ``lang``, and the rounds.

    >>> described = describe_rules(load_rules("liverpool"), "en")
    >>> [o for o in described["options"] if o["key"] == "run_wrap"][0]["kind"]
    'choice'
    >>> described["rounds"][0]["contract"], described["rounds"][0]["deal"]
    ({'sets': 2, 'runs': 0}, 10)
    """
    hints = typing.get_type_hints(Rules)
    data = rules.to_dict()
    options = []
    for key in OPTION_NAMES:
        if key == "name":
            continue
        value = data.get(key)
        kind, choices = _option_kind(hints.get(key))
        if key == "deal":
            kind = "numbers"  # (the lobby edits it as "10, 10, 12")
        extra: dict[str, Any] = {}
        if key == "points":  # (a small table: cards, points)
            extra["table"] = [list(row) for row in i18n.points_table(rules.points, lang)]
        options.append({
            "key": key, "value": value, "kind": kind,
            "choices": [{"value": c, "label": i18n.describe_value(key, c, lang)} for c in choices],
            "name": i18n.option_name(key, lang),
            "description": i18n.option_description(key, lang),
            "text": i18n.describe_value(key, value, lang, rules),
            "common": key in COMMON_OPTIONS,
            **extra,
        })
    rounds = [{"round": r, "contract": {"sets": rules.contract(r).sets,
                                        "runs": rules.contract(r).runs},
               "contract_text": i18n.contract_words(rules.contract(r).sets,
                                                    rules.contract(r).runs, lang),
               "deal": rules.cards_dealt(r)} for r in range(1, rules.num_rounds + 1)]
    return {"name": rules.name, "players": list(rules.players), "options": options,
            "rounds": rounds}


def _option_kind(hint: Any) -> tuple[str, list[Any]]:
    """The lobby's kind of an option (bool, int, choice, int_or, json) and its choices
    (describe_rules makes ``deal`` a ``numbers``: whole numbers in a row)."""
    if hint is bool:
        return "bool", []
    if hint is int:
        return "int", []
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Literal:
        return "choice", list(args)
    words = [w for a in args if typing.get_origin(a) is typing.Literal for w in typing.get_args(a)]
    if int in args and words:
        return "int_or", words
    return "json", []
