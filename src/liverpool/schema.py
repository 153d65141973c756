"""A JSON Schema (draft 2020-12) of the JSON forms: actions, events, views, records.

:func:`json_schema` builds it from the code itself — the fields and annotations
of the action and event dataclasses, of :class:`~liverpool.views.SeatView` and
of :class:`~liverpool.rules.Rules` — so a new field cannot be forgotten (an
annotation the builder does not know is an error, as in the event decoder of
:mod:`liverpool.events`). ``docs/schema.json`` is its committed copy, written by
``python -m liverpool.schema > docs/schema.json``; ``docs/protocol-data.md``
explains the forms.

Every part has a name under ``$defs``: ``card``, ``meld``, ``table_meld``,
``contract``, ``action`` (one of ``action_draw``, ``action_buy``, ...),
``event`` (one of ``event_draw``, ``event_buy``, ...), ``view``, ``record``,
``rules``, ``chance_outcome``, ``error``.

>>> import re
>>> schema = json_schema()
>>> card = re.compile(schema["$defs"]["card"]["pattern"])
>>> [bool(card.match(c)) for c in ("9H", "TD", "*", "10H", "1H", "9h")]
[True, True, True, False, False, False]
>>> schema["$defs"]["action_discard"]["required"]
['type', 'card']
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
import sys
import types
import typing
from typing import Any, Literal, get_args, get_origin

from .actions import (
    Buy,
    Call,
    CommitLayDown,
    Cut,
    Discard,
    Draw,
    LayDown,
    LayOff,
    Pass,
    Stage,
    SwapJoker,
    Unstage,
)
from .cards import RANKS, SUITS, Card
from .engine.game import RECORD_FORMAT
from .engine.state import PHASES
from .errors import MESSAGES
from .events import EVENT_TYPES
from .melds import Meld
from .rules import Contract, DiscardCall, Rules
from .views import VIEW_FORMAT, SeatView

__all__ = ["ACTION_CLASSES", "SCHEMA_DRAFT", "json_schema", "main", "schema_text"]

#: the JSON Schema dialect of :func:`json_schema`
SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: every action type, in the order of :data:`liverpool.actions.Action`
ACTION_CLASSES: tuple[type[Any], ...] = (Draw, Buy, Pass, LayDown, LayOff, SwapJoker, Discard,
                                         Call, Cut, Stage, Unstage, CommitLayDown)

_CARD = r"(?:[A2-9TJQK][SHDC]|\*)"
#: integer fields (of any of the forms) that hold a seat, counted from 0
_SEATS = frozenset({"seat", "dealer", "turn_player", "to_move", "discarder", "from_seat",
                    "winner", "winners", "queue"})
#: integer fields that count something (never negative)
_COUNTS = frozenset({"seq", "size", "penalty_count", "cards_dealt", "stock_size", "version",
                     "turn_number", "sets", "runs", "position", "first", "pending_wilds",
                     "hand_sizes", "buys"})
#: string fields with a closed set of values: (form, field) -> the values
_ENUMS: dict[tuple[str, str], list[str]] = {
    ("event_call", "call"): [c for c in get_args(DiscardCall) if c != "none"],
    ("event_round_abandoned", "reason"): ["exhausted", "stalled"],
    ("view", "phase"): list(PHASES),
}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    if schema.get("type") == "null" or {"type": "null"} in schema.get("anyOf", []):
        return schema
    if "anyOf" in schema and len(schema) == 1:
        return {"anyOf": [*schema["anyOf"], {"type": "null"}]}
    if set(schema) == {"enum"}:
        return {"enum": [*schema["enum"], None]}
    if isinstance(schema.get("type"), str) and len(schema) == 1:
        return {"type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def _describe(cls: type[Any]) -> str:
    """The first paragraph of the docstring, its reST markup as Markdown code."""
    text = inspect.cleandoc(cls.__doc__ or "").split("\n\n")[0]
    text = re.sub(r":\w+:`~?(?:[\w.]*\.)?([^`]+)`", r"`\1`", text)
    return " ".join(text.replace("``", "`").split())


def _of(tp: Any, name: str, form: str) -> dict[str, Any]:
    """The schema of a value annotated ``tp`` (field ``name`` of ``form``)."""
    if (form, name) in _ENUMS:
        return {"enum": _ENUMS[form, name]}
    if tp is Card:
        return _ref("card")
    if tp is Meld:
        return _ref("meld")
    if tp is Contract:
        return _ref("contract")
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        if name in _SEATS:
            return _ref("seat")
        return {"type": "integer", "minimum": 0} if name in _COUNTS else {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if tp is type(None):
        return {"type": "null"}
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _object(tp, form=f"{form}.{name}")
    origin = get_origin(tp)
    args = get_args(tp)
    if origin is Literal:
        return {"enum": list(args)}
    if origin is typing.Union or origin is types.UnionType:
        real = [a for a in args if a is not type(None)]
        literals = [v for a in real if get_origin(a) is Literal for v in get_args(a)]
        others = [a for a in real if get_origin(a) is not Literal]
        if set(others) == set(ACTION_CLASSES):
            parts = [_ref("action")]
        elif set(others) == set(EVENT_TYPES.values()):
            parts = [_ref("event")]
        else:
            parts = [_of(a, name, form) for a in others]
        if literals:
            parts.append({"enum": literals})
        base = parts[0] if len(parts) == 1 else {"anyOf": parts}
        return _nullable(base) if len(real) < len(args) else base
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _of(args[0], name, form)}
        return {"type": "array", "prefixItems": [_of(a, name, form) for a in args],
                "items": False, "minItems": len(args)}
    raise TypeError(f"{form}.{name}: no JSON Schema for the annotation {tp!r}; "
                    "teach liverpool.schema._of the type")


def _fields(cls: type[Any]) -> list[tuple[dataclasses.Field[Any], Any]]:
    hints = typing.get_type_hints(cls)
    return [(f, hints[f.name]) for f in dataclasses.fields(cls) if f.init]


def _has_default(f: dataclasses.Field[Any]) -> bool:
    return (f.default is not dataclasses.MISSING
            or f.default_factory is not dataclasses.MISSING)


def _object(cls: type[Any], form: str) -> dict[str, Any]:
    """A plain dataclass (the ruleset's points) as an object of all its fields."""
    props = {f.name: _of(tp, f.name, form) for f, tp in _fields(cls)}
    return {"type": "object", "properties": props, "required": list(props),
            "additionalProperties": False}


# ------------------------------------------------------------------ the parts
def _action(cls: type[Any], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """An action type: every field :meth:`to_json` writes; the fields with a
    default may be left out (``action_from_json`` fills them in)."""
    form = f"action_{cls.type}"
    props: dict[str, Any] = {"type": {"const": cls.type}}
    required = ["type"]
    for f, tp in _fields(cls):
        props[f.name] = _of(tp, f.name, form)
        if not _has_default(f):
            required.append(f.name)
    if cls is LayDown:
        props["melds"]["minItems"] = 1
    if cls is Call:
        props["meld"] = {"type": "integer", "minimum": -1}
    elif "meld" in props:
        props["meld"] = {"type": "integer", "minimum": 0}
    if cls is Cut:
        props["count"] = {"type": "integer", "minimum": 1}
    for key, schema in (extra or {}).items():
        props[key] = schema
        required.append(key)
    return {"description": _describe(cls), "type": "object", "properties": props,
            "required": required, "additionalProperties": False}


def _event(tag: str, cls: type[Any]) -> dict[str, Any]:
    """An event type: every field, as :meth:`to_json` writes it; a private field
    is blanked (null, or an empty list) for the seats that may not see it."""
    form = f"event_{tag}"
    props: dict[str, Any] = {"type": {"const": tag}}
    for f, tp in _fields(cls):
        schema = _of(tp, f.name, form)
        if f.name in cls.private_fields and get_origin(tp) is not tuple:
            schema = _nullable(schema)
        props[f.name] = schema
    if "meld" in props:
        props["meld"] = {"type": "integer", "minimum": -1 if cls.type == "call" else 0}
    private = ", ".join(cls.private_fields)
    note = f" Private (blanked for the other seats): {private}." if private else ""
    return {"description": _describe(cls) + note, "type": "object", "properties": props,
            "required": list(props), "additionalProperties": False}


def _view() -> dict[str, Any]:
    """The seat view, as :meth:`SeatView.to_json` writes it: the fields, with
    ``table_owners`` folded into the ``table`` (an ``owner`` per meld)."""
    props: dict[str, Any] = {"format": {"const": VIEW_FORMAT}}
    hints = typing.get_type_hints(SeatView)  # (a named tuple)
    for name in SeatView._fields:
        if name == "table_owners":
            continue
        if name == "table":
            props["table"] = {"type": "array", "items": _ref("table_meld")}
            continue
        props[name] = _of(hints[name], name, "view")
    props["players"] = {"type": "integer", "minimum": 1}
    props["round"] = props["num_rounds"] = {"type": "integer", "minimum": 1}
    return {"description": _describe(SeatView) + " (None: a spectator.) Every field is "
            "written; see liverpool.views.", "type": "object", "properties": props,
            "required": list(props), "additionalProperties": False}


def _rules() -> dict[str, Any]:
    schema = _object(Rules, "rules")
    props = schema["properties"]
    props["contracts"]["items"] = {"type": "string", "pattern": "^[SR]+$"}
    props["contracts"]["minItems"] = props["deal"]["minItems"] = 1
    # Rules.to_dict leaves jokers_total out when it is unset
    schema["required"] = [k for k in schema["required"] if k != "jokers_total"]
    schema["description"] = ("A ruleset, as Rules.to_dict writes it: every option of "
                             "docs/rules.md, section 6 (jokers_total only when set).")
    return schema


def _chance_outcome() -> dict[str, Any]:
    cards = {"type": "string", "pattern": f"^(?:{_CARD}(?: {_CARD})*)?$",
             "description": "cards in the card notation, space-separated, top last"}
    kinds = {"deal": cards, "reshuffle": cards,
             "pick": {"type": "integer", "minimum": 0,
                      "description": "the index of a random card of a hand"},
             "cut": {"type": "integer", "minimum": 0,
                     "description": "how many cards were actually cut"}}
    return {"description": "One chance outcome of a game, an object with one key: the deck "
            "order of a deal or a reshuffle, a random pick, a cut.",
            "oneOf": [{"type": "object", "properties": {k: v}, "required": [k],
                       "additionalProperties": False} for k, v in kinds.items()]}


def _record() -> dict[str, Any]:
    seat = {"seat": _ref("seat")}
    return {
        "description": "A game record (Game.record): the ruleset, the players, the seed, "
                       "every chance outcome and every action with the seat that made it "
                       "(an extra 'seat' key). liverpool.replay reads it.",
        "type": "object",
        "properties": {
            "format": {"const": RECORD_FORMAT},
            "rules": _ref("rules"),
            "players": {"type": "integer", "minimum": 1},
            "seed": {"type": ["integer", "null"],
                     "description": "null for a fair deal (Game(..., secure=True)): its "
                                    "outcomes are in 'chance' and no seed makes them"},
            "chance": {"type": "array", "items": _ref("chance_outcome")},
            "actions": {"type": "array", "items": {
                "description": "an action with the seat that made it",
                "oneOf": [_action(cls, seat) for cls in ACTION_CLASSES]}},
        },
        "required": ["format", "rules", "players", "seed", "actions"],
        "additionalProperties": False,
    }


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the JSON forms (a new dict each call)."""
    defs: dict[str, Any] = {
        "card": {"description": "A card: rank A 2-9 T J Q K and suit S H D C, or * for a "
                                "joker (output is always in this canonical form).",
                 "type": "string", "pattern": f"^{_CARD}$"},
        "rank": {"description": "A rank in the card notation.", "enum": list(RANKS)},
        "suit": {"description": "A suit in the card notation.", "enum": list(SUITS)},
        "seat": {"description": "A seat, counting from 0 clockwise.", "type": "integer",
                 "minimum": 0},
        "meld": {
            "description": "A meld on the table: its kind, its cards (a run low to high with "
                           "every wild in its place), the set's rank or the run's first rank, "
                           "and the run's (or one-suit set's) suit, null when any suit goes.",
            "type": "object",
            "properties": {"kind": {"enum": ["set", "run"]},
                           "cards": {"type": "array", "items": _ref("card"), "minItems": 1},
                           "rank": _ref("rank"),
                           "suit": {"anyOf": [_ref("suit"), {"type": "null"}]}},
            "required": ["kind", "cards", "rank", "suit"],
            "additionalProperties": False,
        },
        "contract": {"description": "A round's contract: how many sets and runs.",
                     "type": "object",
                     "properties": {"sets": {"type": "integer", "minimum": 0},
                                    "runs": {"type": "integer", "minimum": 0}},
                     "required": ["sets", "runs"], "additionalProperties": False},
    }
    meld = defs["meld"]
    defs["table_meld"] = {
        "description": "A meld of a view's table, with the seat that laid it down.",
        "type": "object",
        "properties": {**meld["properties"], "owner": _ref("seat")},
        "required": [*meld["required"], "owner"],
        "additionalProperties": False,
    }
    for cls in ACTION_CLASSES:
        defs[f"action_{cls.type}"] = _action(cls)
    defs["action"] = {"description": "An action, by its 'type'. A field with a default may "
                                     "be left out when sending one; to_json writes them all.",
                      "oneOf": [_ref(f"action_{cls.type}") for cls in ACTION_CLASSES]}
    for tag, cls in EVENT_TYPES.items():
        defs[f"event_{tag}"] = _event(tag, cls)
    defs["event"] = {"description": "An event, by its 'type'; 'seq' is its place in the "
                                    "game's event list.",
                     "oneOf": [_ref(f"event_{tag}") for tag in EVENT_TYPES]}
    defs["view"] = _view()
    defs["rules"] = _rules()
    defs["chance_outcome"] = _chance_outcome()
    defs["record"] = _record()
    defs["error"] = {
        "description": "An error a server sends for a refused action: the code (a key of "
                       "liverpool.errors.MESSAGES), its parameters and the English message.",
        "type": "object",
        "properties": {"code": {"enum": sorted(MESSAGES)}, "params": {"type": "object"},
                       "message": {"type": "string"}},
        "required": ["code", "params", "message"],
        "additionalProperties": False,
    }
    return {
        "$schema": SCHEMA_DRAFT,
        "title": "liverpool-rummy JSON forms",
        "description": "Actions, events, seat views and game records of the liverpool-rummy "
                       "engine (see docs/protocol-data.md). Generated by "
                       "`python -m liverpool.schema > docs/schema.json`.",
        "anyOf": [_ref(name) for name in ("view", "record", "event", "action", "error")],
        "$defs": defs,
    }


def schema_text() -> str:
    """:func:`json_schema` as the text of ``docs/schema.json`` (pretty, sorted keys)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    """Write the schema to standard output."""
    sys.stdout.buffer.write(schema_text().encode("utf-8"))


if __name__ == "__main__":
    main()
