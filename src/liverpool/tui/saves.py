"""Saved games of ``liverpool play``: one JSON file per game, written after every action.

A save holds the game's record (:meth:`liverpool.Game.record`, which replays
exactly) and what the terminal game needs to go on: the names, which seats are
people, the bots' kinds and the settings. Saves live in
``platformdirs.user_data_dir("liverpool-rummy")/saves/`` (or in
``$LIVERPOOL_RUMMY_SAVES`` when that is set).

>>> import tempfile, os
>>> from liverpool import Game, load_rules
>>> folder = tempfile.mkdtemp()
>>> game = Game(load_rules("liverpool"), 3, seed=4)
>>> path = write_save(os.path.join(folder, "a.json"), game, {"names": ["Kari", "Ola", "Per"]})
>>> again, meta = read_save(path)
>>> again.state_key() == game.state_key(), meta["names"], meta["finished"]
(True, ['Kari', 'Ola', 'Per'], False)
>>> last_unfinished(folder) == path
True
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from ..engine import Game
from ..errors import RecordError
from ..record import replay

__all__ = ["SAVE_FORMAT", "SaveError", "last_unfinished", "new_save_path", "read_save",
           "save_dir", "write_save"]

SAVE_FORMAT = "liverpool-rummy-play-save/1"


class SaveError(Exception):
    """A save file that cannot be read or continued; the message says why."""


def save_dir() -> Path:
    """The folder of the saves (made when missing)."""
    env = os.environ.get("LIVERPOOL_RUMMY_SAVES")
    if env:
        folder = Path(env)
    else:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("liverpool-rummy")) / "saves"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_save_path(seed: int) -> Path:
    """A fresh file name for a new game: its start time and seed."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = save_dir() / f"{stamp}-seed{seed}.json"
    n = 2
    while path.exists():
        path = save_dir() / f"{stamp}-seed{seed}-{n}.json"
        n += 1
    return path


def write_save(path: str | Path, game: Game, meta: dict[str, Any]) -> Path:
    """Write ``game`` and ``meta`` to ``path`` (atomically: a crash leaves the last save)."""
    path = Path(path)
    data = {**meta, "format": SAVE_FORMAT, "finished": game.is_over,
            "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S"), "record": game.record()}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)
    return path


def read_save(path: str | Path) -> tuple[Game, dict[str, Any]]:
    """The game of a save file (replayed from its record) and the rest of the save."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise SaveError(f"cannot read {path}: {e.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(f"{path} is not a saved game: {e}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{path} is not a saved game of liverpool play")
    try:
        game = replay(data["record"])
    except (RecordError, KeyError, TypeError, ValueError) as e:
        raise SaveError(f"{path}: the game cannot be replayed: {e}") from None
    meta = {k: v for k, v in data.items() if k != "record"}
    return game, meta


def last_unfinished(folder: str | Path | None = None) -> Path | None:
    """The most recently saved game that is not over (None: there is none)."""
    folder = Path(folder) if folder is not None else save_dir()
    best: tuple[float, Path] | None = None
    for path in folder.glob("*.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get(
                "finished", True):
            continue
        mtime = path.stat().st_mtime
        if best is None or mtime > best[0]:
            best = (mtime, path)
    return best[1] if best else None
