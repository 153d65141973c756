"""Game records: the ruleset, the players, the seed, every chance outcome and
every action.

A fair deal (``Game(..., secure=True)``) has no seed that regenerates it: its
record has the seed ``None`` and replays from the outcomes alone.

A record replays a game exactly — from its recorded chance outcomes (the deck
order of each deal and reshuffle, each random pick), so even an engine that
draws its randomness differently replays it.

>>> from liverpool import Game, load_rules, replay
>>> game = Game(load_rules("dansk"), players=3, seed=5)
>>> for _ in range(30):
...     _ = game.apply(game.legal_actions()[0])
>>> rec = game.record()
>>> rec["format"], sorted(rec["chance"][0])
('liverpool-rummy-record/2', ['deal'])
>>> again = replay(rec)
>>> again.state_key() == game.state_key()
True
"""

from __future__ import annotations

import json
import os
from typing import Any

from .actions import ActionError, action_from_json
from .cards import Card
from .engine import RECORD_FORMAT, Game, outcome_from_json
from .errors import RecordError, RecordFileError, is_whole, shown_value
from .events import RoundEnded
from .rules import RulesError
from .ruleset_io import rules_from_dict

__all__ = ["RECORD_FORMAT", "RecordError", "RecordFileError", "hands_by_event", "load_record",
           "make_record", "read_json_file", "replay"]

#: the record formats :func:`replay` reads (format 1 had no chance outcomes)
_FORMATS = ("liverpool-rummy-record/1", RECORD_FORMAT)


def make_record(game: Game) -> dict[str, Any]:
    """The game's record as JSON data (the same as ``game.record()``)."""
    return game.record()


def replay(record: dict[str, Any] | str) -> Game:
    """Rebuild a game by replaying its record (JSON data or text); a record that
    does not replay raises a :class:`~liverpool.errors.RecordError` that says why.

    >>> from liverpool import load_rules
    >>> record = Game(load_rules("dansk"), players=3, seed=5).record()
    >>> replay(dict(record, players=True))
    Traceback (most recent call last):
    ...
    liverpool.errors.RecordError: the record's 'players' must be a whole number
    """
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except json.JSONDecodeError as e:
            raise RecordError.of("not_json", line=e.lineno, column=e.colno) from None
        except RecursionError:
            raise RecordError.of("too_deep") from None
    if not isinstance(record, dict):
        raise RecordError.of("not_object")
    fmt = record.get("format", _FORMATS[0])
    if fmt not in _FORMATS:
        raise RecordError.of("format", format=shown_value(fmt), formats=", ".join(_FORMATS))
    for key in ("rules", "players", "seed", "actions"):
        if key not in record:
            raise RecordError.of("missing", key=key)
    try:
        rules = rules_from_dict(record["rules"])
    except RulesError as e:
        raise RecordError.of("rules", e) from None
    players = record["players"]
    seed = record["seed"]
    if not is_whole(players):
        raise RecordError.of("whole_number", key="players")
    if seed is not None and not is_whole(seed):
        raise RecordError.of("whole_number", key="seed")
    chance = None
    if "chance" in record:
        if not isinstance(record["chance"], list):
            raise RecordError.of("not_list", key="chance")
        chance = [outcome_from_json(o, i + 1) for i, o in enumerate(record["chance"])]
    if seed is None and chance is None:
        raise RecordError.of("no_chance")
    actions = record["actions"]
    if not isinstance(actions, list):
        raise RecordError.of("not_list", key="actions")
    try:
        # a fair deal replays its outcomes; past them it goes on with a fresh secret
        game = (Game(rules, players=players, secure=True, chance=chance) if seed is None else
                Game(rules, players=players, seed=seed, chance=chance))
    except RulesError as e:  # a number of players the ruleset is not for
        raise RecordError.of("players", e) from None
    for i, data in enumerate(actions):
        try:
            seat = data.get("seat") if isinstance(data, dict) else None
            game.apply(action_from_json(data), seat=seat)
        except ActionError as e:
            shown = json.dumps(data, ensure_ascii=False, default=str)
            shown = shown if len(shown) <= 80 else shown[:79] + "…"
            raise RecordError(f"action {i + 1} ({shown}) does not replay: {e}",
                              action=i + 1, reason=e) from None
    return game


def load_record(path: str) -> Game:
    """Replay the record stored in a JSON file."""
    data = read_json_file(path)
    if not isinstance(data, dict):
        raise RecordFileError(path, "not_record")
    return replay(data)


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """The JSON data of a file (a record, a saved game), or a
    :class:`~liverpool.errors.RecordFileError` saying why it cannot be read.

    >>> read_json_file("no/such/file.json")
    Traceback (most recent call last):
    ...
    liverpool.errors.RecordFileError: cannot read no/such/file.json: there is no such file
    """
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise RecordFileError(name, "missing") from None
    except PermissionError:
        raise RecordFileError(name, "denied") from None
    except IsADirectoryError:
        raise RecordFileError(name, "folder") from None
    except OSError as e:
        raise RecordFileError(name, "unreadable", detail=e.strerror or type(e).__name__) from None
    except UnicodeDecodeError:
        raise RecordFileError(name, "not_utf8") from None
    except json.JSONDecodeError as e:
        raise RecordFileError(name, "not_json", line=e.lineno, column=e.colno) from None
    except RecursionError:
        raise RecordFileError(name, "too_deep") from None


def hands_by_event(game: Game) -> list[list[list[Card]]]:
    """For every event of a finished game, the hands at that point (replayed
    from its record): the hands after the action that caused the event, and for
    the events that end a round, the hands left at its end.

    >>> from liverpool import Game, load_rules
    >>> game = Game(load_rules("liverpool"), players=3, seed=1)
    >>> hands = hands_by_event(game)
    >>> len(hands) == len(game.events), [len(h) for h in hands[-1]]
    (True, [10, 10, 10])
    """
    record = game.record()
    again = Game(game.rules, players=game.num_players, seed=game.seed, chance=[
        outcome_from_json(o) for o in record["chance"]])

    def hands() -> list[list[Card]]:
        return [sorted(again.hand(s), key=lambda c: c.index) for s in range(again.num_players)]

    out: list[list[list[Card]]] = [hands() for _ in again.events]
    for action, seat in zip(game.history, game.history_seats, strict=True):
        new = again.apply(action, seat=seat)
        after = hands()
        ends = [i for i, e in enumerate(new) if isinstance(e, RoundEnded)]
        for i, _e in enumerate(new):
            if ends and i <= ends[0]:
                left = new[ends[0]]
                assert isinstance(left, RoundEnded)  # noqa: S101 - narrows the type for mypy
                out.append([list(h) for h in left.hands_left])
            else:
                out.append(after)
    return out
