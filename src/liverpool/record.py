"""Game records: the ruleset, the player count, the seed and the actions.

A record replays a game exactly.

>>> from liverpool import Game, load_rules, replay
>>> game = Game(load_rules("dansk"), players=3, seed=5)
>>> for _ in range(30):
...     _ = game.apply(game.legal_actions()[0])
>>> again = replay(game.record())
>>> again.state_key() == game.state_key()
True
"""

from __future__ import annotations

import json
from typing import Any

from .actions import ActionError, action_from_json
from .engine import Game
from .rules import RulesError

__all__ = ["RECORD_FORMAT", "RecordError", "load_record", "make_record", "replay"]

RECORD_FORMAT = "liverpool-rummy-record/1"


class RecordError(ValueError):
    """A game record could not be read or does not replay."""


def make_record(game: Game) -> dict[str, Any]:
    """The game's record as JSON data."""
    return {
        "format": RECORD_FORMAT,
        "rules": game.rules.to_dict(),
        "players": game.num_players,
        "seed": game.seed,
        "actions": [a.to_json() for a in game.history],
    }


def replay(record: dict[str, Any] | str) -> Game:
    """Rebuild a game by replaying its record (JSON data or text)."""
    from .ruleset_io import rules_from_dict

    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise RecordError(f"the record is not valid JSON: {e}") from None
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    for key in ("rules", "players", "seed", "actions"):
        if key not in record:
            raise RecordError(f"the record has no '{key}'")
    try:
        rules = rules_from_dict(record["rules"])
    except RulesError as e:
        raise RecordError(f"the record's ruleset is not valid: {e}") from None
    players = record["players"]
    seed = record["seed"]
    if not isinstance(players, int) or not isinstance(seed, int):
        raise RecordError("'players' and 'seed' must be whole numbers")
    try:
        game = Game(rules, players=players, seed=seed)
    except RulesError as e:
        raise RecordError(str(e)) from None
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list")
    for i, data in enumerate(actions):
        try:
            game.apply(action_from_json(data))
        except ActionError as e:
            raise RecordError(f"action {i + 1} ({data}) does not replay: {e}") from None
    return game


def load_record(path: str) -> Game:
    """Replay the record stored in a JSON file."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    return replay(text)
