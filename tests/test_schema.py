"""docs/schema.json against real games: every action, event (as every seat sees
it), view and record of whole games of every preset validates, and the schema
says exactly what the to_json methods write and the readers read."""

from __future__ import annotations

import copy
import functools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from liverpool import Game, load_rules, replay
from liverpool.actions import (
    Action,
    ActionError,
    CommitLayDown,
    LayDown,
    Stage,
    Unstage,
    action_from_json,
)
from liverpool.bots import make_bot
from liverpool.events import EVENT_TYPES, event_from_json
from liverpool.schema import ACTION_CLASSES, json_schema, schema_text
from liverpool.views import SeatView

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "docs" / "schema.json"
SCHEMA = json_schema()


def validator(name: str) -> Any:
    """A validator of ``$defs/name`` (its references resolve in the whole schema)."""
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": SCHEMA["$defs"]})


V = {name: validator(name) for name in SCHEMA["$defs"]}


def problems(kind: str, data: Any, *, dispatch: bool = False) -> list[str]:
    """What is wrong with ``data`` as a ``kind``. ``dispatch``: an action or an
    event is checked against the one type its ``type`` names (the same as the
    ``oneOf``, whose branches each require a different ``type``; see
    test_actions_and_events_are_discriminated_by_type), which is much faster."""
    if dispatch and kind in ("action", "event") and isinstance(data, dict):
        name = f"{kind}_{data.get('type')}"
        if name in V:
            kind = name
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300]
            for e in V[kind].iter_errors(data)]


# ------------------------------------------------------------ playing games
#: (preset, overrides, players, seed, bots): random legal play (bots None), or
#: the basic bot in every seat; the rounds are cut short (a random game is long)
GAMES: dict[str, tuple[str, dict[str, Any], int, int, str | None]] = {
    "liverpool": ("liverpool", {}, 4, 1, None),
    "dansk": ("dansk", {}, 3, 2, None),
    "london": ("london", {}, 5, 3, None),
    "remi": ("remi", {}, 4, 4, None),
    "remi-shanghai": ("remi", {"discard_call": "shanghai"}, 4, 5, None),
    "liverpool-cut": ("liverpool", {"liverpool_cut": True}, 3, 6, None),
    "dansk-pile-cut": ("dansk", {"liverpool_cut": True, "buy_limit_per_round": 2}, 4, 7, None),
    "basic-liverpool": ("liverpool", {}, 4, 8, "basic"),
    "basic-remi-shanghai": ("remi", {"discard_call": "shanghai", "liverpool_cut": True},
                            3, 9, "basic"),
    "basic-dansk": ("dansk", {}, 4, 10, "basic"),
}
_SHORT = 60  # max_turns_per_round for random play
_VIEW_EVERY = 37  # check the views of every seat every this many actions (and at phase changes)


@dataclass
class Played:
    """What one game showed: the problems found and the forms seen."""

    errors: list[str] = field(default_factory=list)
    actions: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)
    views: int = 0
    phases: set[str] = field(default_factory=set)  # the phases the views were checked in
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)  # an action per type
    answered_early: int = 0
    calls: Counter[str] = field(default_factory=Counter)  # the kinds of call events


class Checker:
    def __init__(self, played: Played) -> None:
        self.p = played
        self.seen: set[tuple[str, str]] = set()

    def check(self, kind: str, data: Any, where: str) -> None:
        key = json.dumps(data, sort_keys=True)
        if (kind, key) in self.seen:  # a form already checked (most public events are)
            return
        self.seen.add((kind, key))
        for problem in problems(kind, data, dispatch=True):
            if len(self.p.errors) < 20:
                self.p.errors.append(f"{where}: {kind} {key[:200]}: {problem}")

    def action(self, action: Action, where: str) -> None:
        data = action.to_json()
        self.p.actions[data["type"]] += 1
        self.p.samples.setdefault(data["type"], data)
        self.check("action", data, where)

    def events(self, game: Game, events: list[Any], where: str) -> None:
        for e in events:
            self.p.events[e.type] += 1
            if e.type == "call":
                self.p.calls[e.call] += 1
            for seat in (*range(game.num_players), None):
                self.check("event", e.visible_to(seat).to_json(), f"{where} seat {seat}")

    def views(self, game: Game, where: str, whole: bool = False) -> None:
        """The views of every seat and a spectator. A view's events and legal
        actions are checked one by one (each form once: a view holds the whole
        round's events), the rest as a view; ``whole``: all at once."""
        self.p.views += 1
        for seat in (*range(game.num_players), None):
            data = game.view(seat).to_json()
            if whole:
                self.check("view", data, f"{where} view of {seat}")
                continue
            for e in data["events"]:
                self.check("event", e, f"{where} view of {seat}")
            for a in data["legal_actions"]:
                self.check("action", a, f"{where} view of {seat}")
            self.check("view", dict(data, events=[], legal_actions=[]), f"{where} view of {seat}")


def _random_move(game: Game, rng: random.Random) -> tuple[list[Action], int | None]:
    """A random legal move: the actions (a lay-down may be built card by card)
    and the seat making them (an early answer to a window, sometimes)."""
    answering = game.answering
    if len(answering) > 1 and rng.random() < 0.3:
        seat = rng.choice(answering[1:])
        return [rng.choice(game.legal_actions(seat))], seat
    legal = game.legal_actions()
    lay_downs = [a for a in legal if isinstance(a, LayDown)]
    if lay_downs and rng.random() < 0.8:
        if rng.random() < 0.5 or game.staged != ((),) * len(game.staged):
            return [lay_downs[0]], None
        melds = sorted(lay_downs[0].melds, key=lambda m: m.kind == "run")  # the contract's order
        steps: list[Action] = [Stage(c, i, "high" if m.kind == "run" else None)
                               for i, m in enumerate(melds) for c in m.cards]
        if rng.random() < 0.3:  # take the first card back and put it in again
            steps[1:1] = [Unstage(), steps[0]]
        return [*steps, CommitLayDown()], None
    fitting = [a for a in legal if a.type in ("lay_off", "swap_joker", "call")]
    if fitting and rng.random() < 0.7:
        return [rng.choice(fitting)], None
    if game.phase == "play" and rng.random() < 0.05:
        legal = legal + game.staging_actions()
    return [rng.choice(legal)], None


@functools.cache
def play(name: str) -> Played:
    preset, overrides, players, seed, bot = GAMES[name]
    if bot is None:
        overrides = {"max_turns_per_round": _SHORT, **overrides}
    rules = load_rules(preset, **overrides)
    game = Game(rules, players=players, seed=seed)
    played = Played()
    check = Checker(played)
    check.events(game, game.events, "start")
    check.views(game, "start")
    bots = [make_bot(bot, rules, seed=seed + i) for i in range(players)] if bot else None
    rng = random.Random(seed)
    count = 0
    round_now = game.round
    while not game.is_over:
        if bots is not None:
            seat = game.to_move
            assert seat is not None
            legal = game.legal_actions()
            moves: list[Action] = [bots[seat].choose(game.view(seat), legal)]
            by = None
        else:
            moves, by = _random_move(game, rng)
        for action in moves:
            if by is not None:
                played.answered_early += 1
            check.action(action, f"action {count}")
            events = game.apply(action, seat=by)
            check.events(game, events, f"action {count}")
            count += 1
            if game.round != round_now:  # a new round: its first views, whole
                check.views(game, f"round {round_now} over", whole=round_now == 1)
                round_now = game.round
            elif (count % _VIEW_EVERY == 0 or (by is not None and played.answered_early < 10)
                  or game.phase not in played.phases):
                played.phases.add(game.phase)
                check.views(game, f"after action {count}")
    check.views(game, "end", whole=True)
    record = game.record()
    check.check("record", json.loads(json.dumps(record)), "record")
    assert replay(record).state_key() == game.state_key()
    return played


@pytest.mark.no_cover  # long random games or hands: covered by quicker tests; traced 3-7x slower
@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_whole_games_validate(name: str) -> None:
    played = play(name)
    assert not played.errors, "\n".join(played.errors)
    assert played.views > 10


@pytest.mark.slow
def test_the_games_show_every_form() -> None:
    actions: Counter[str] = Counter()
    events: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    for name in GAMES:
        actions += play(name).actions
        events += play(name).events
        calls += play(name).calls
    assert set(actions) == {cls.type for cls in ACTION_CLASSES}, actions
    assert set(events) == set(EVENT_TYPES), events
    assert set(calls) == {"liverpool", "liverpool_pile", "shanghai"}, calls
    assert sum(play(name).answered_early for name in GAMES) > 0


# ------------------------------------------------------- the schema itself
def test_actions_and_events_are_discriminated_by_type() -> None:
    defs = SCHEMA["$defs"]
    for kind in ("action", "event"):
        tags = []
        for branch in defs[kind]["oneOf"]:
            name = branch["$ref"].removeprefix("#/$defs/")
            assert name == f"{kind}_{defs[name]['properties']['type']['const']}"
            assert "type" in defs[name]["required"]
            tags.append(name)
        assert len(set(tags)) == len(tags)


def test_views_hold_events_and_actions_as_defined() -> None:
    """(So checking a view's events and legal actions one by one is checking the view.)"""
    props = SCHEMA["$defs"]["view"]["properties"]
    assert props["events"] == {"type": "array", "items": {"$ref": "#/$defs/event"}}
    assert props["legal_actions"] == {"type": "array", "items": {"$ref": "#/$defs/action"}}


def test_committed_schema_is_current() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "docs/schema.json is out of date: run `python -m liverpool.schema > docs/schema.json`")


def test_schema_is_a_valid_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.slow
def test_action_keys_are_what_to_json_writes_and_action_from_json_reads() -> None:
    samples: dict[str, dict[str, Any]] = {}
    for name in GAMES:
        for kind, data in play(name).samples.items():
            samples.setdefault(kind, data)
    assert set(samples) == {cls.type for cls in ACTION_CLASSES}
    defs = SCHEMA["$defs"]
    for kind, data in samples.items():
        schema = defs[f"action_{kind}"]
        assert set(schema["properties"]) == set(data), kind
        action = action_from_json(data)
        assert action.to_json() == data
        for key in data:
            if key == "type":
                continue
            shorter = {k: v for k, v in data.items() if k != key}
            if key in schema["required"]:
                with pytest.raises(ActionError):
                    action_from_json(shorter)
                assert problems("action", shorter)
            else:  # optional: read with its default
                assert type(action_from_json(shorter)) is type(action)
                assert not problems("action", shorter)


def test_event_and_view_keys_are_what_to_json_writes() -> None:
    game = Game(load_rules("liverpool"), players=3, seed=3)
    for _ in range(40):
        game.apply(game.legal_actions()[-1])
    defs = SCHEMA["$defs"]
    for e in game.events:
        data = e.to_json()
        assert list(defs[f"event_{e.type}"]["properties"]) == list(data)
        assert event_from_json(data) == e
    view = game.view(1).to_json()
    assert set(defs["view"]["properties"]) == set(view)
    assert SeatView.from_json(view) == game.view(1)
    assert set(defs["record"]["properties"]) == set(game.record())


# ---------------------------------------------------------- wrong things
def test_the_schema_rejects_wrong_things() -> None:
    game = Game(load_rules("liverpool"), players=3, seed=3)
    view = game.view(0).to_json()
    assert not problems("view", view)
    assert problems("card", "1H")
    assert problems("card", "10H")
    assert problems("card", "9h")
    assert problems("card", "JK")
    assert not problems("card", "*")
    assert problems("action", {"type": "discard", "card": "1H"})
    assert problems("view", dict(view, extra=1))
    assert problems("view", {k: v for k, v in view.items() if k != "stock_size"})
    assert problems("view", dict(view, format="liverpool-rummy-view/0"))
    event = game.events[0].to_json()
    assert not problems("event", event)
    assert problems("event", dict(event, type="no_such_event"))
    assert problems("event", dict(event, seq=-1))
    assert problems("action", {"type": "draw", "source": "stock", "seat": 0})  # only in records
    assert problems("action", {"type": "fly"})
    assert problems("action", {"type": "draw", "source": "hand"})
    assert problems("action", {"type": "lay_down", "melds": []})
    meld = {"kind": "run", "cards": ["5H", "6H", "*", "8H"], "rank": "5", "suit": "H"}
    assert not problems("meld", meld)
    assert problems("meld", dict(meld, rank=5))  # numbers are read, never written
    assert problems("meld", dict(meld, suit=1))
    assert problems("meld", dict(meld, owner=0))  # only on a view's table
    record = game.record()
    assert not problems("record", record)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    record = game.record()
    assert not problems("record", record)
    broken = copy.deepcopy(record)
    del broken["actions"][0]["seat"]
    assert problems("record", broken)
    broken = copy.deepcopy(record)
    broken["chance"][0] = {"deal": "AS 1H"}
    assert problems("record", broken)
    broken = copy.deepcopy(record)
    broken["rules"]["run_wrap"] = "sometimes"
    assert problems("record", broken)
    assert not problems("error", {"code": "not_in_hand", "params": {"card": "9H"},
                                  "message": "you do not have 9H in your hand"})
    assert problems("error", {"code": "no_such_code", "params": {}, "message": ""})


def test_the_examples_of_protocol_data_md_validate() -> None:
    text = (SCHEMA_FILE.parent / "protocol-data.md").read_text(encoding="utf-8")
    examples = re.findall(r"<!-- schema: (\w+) -->\n```json\n(.*?)```", text, re.S)
    assert len(examples) >= 6
    for name, block in examples:
        assert not problems(name, json.loads(block)), block
