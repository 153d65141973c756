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
>>> meta = {"names": ["Kari", "Ola", "Per"], "seat": 0, "bots": {"1": "basic", "2": "basic"},
...         "lang": "en", "symbols": True, "auto_pass": "off", "warn_calls": False}
>>> path = write_save(os.path.join(folder, "a.json"), game, meta)
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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..engine import Game
from ..errors import RecordError, RecordFileError, is_whole
from ..record import read_json_file, replay

__all__ = ["SAVE_FORMAT", "SaveError", "SaveFieldError", "SaveFolderError", "check_meta",
           "last_unfinished", "new_save_path", "read_save", "save_dir", "write_save"]

SAVE_FORMAT = "liverpool-rummy-play-save/1"


class SaveError(Exception):
    """A save file that cannot be read or continued; the message says why and
    ``cause``, when there is one, says it in other languages
    (:func:`liverpool.i18n.render`): the file's problem or the record's."""

    def __init__(self, message: str, cause: RecordError | None = None) -> None:
        super().__init__(message)
        self.cause = cause


class SaveFolderError(SaveError):
    """The folder of the saves cannot be made or used (``folder``, ``reason``)."""

    def __init__(self, folder: str, reason: str) -> None:
        super().__init__(f"{folder}: {reason}")
        self.folder = folder
        self.reason = reason


class SaveFieldError(SaveError):
    """A save whose ``field`` does not hold what ``liverpool play`` writes there."""

    def __init__(self, path: str, field: str) -> None:
        super().__init__(f"{path}: {field!r} is damaged")
        self.path = path
        self.field = field


def save_dir() -> Path:
    """The folder of the saves (made when missing)."""
    env = os.environ.get("LIVERPOOL_RUMMY_SAVES")
    if env:
        folder = Path(env)
    else:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("liverpool-rummy")) / "saves"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SaveFolderError(str(folder), e.strerror or type(e).__name__) from None
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
        data = read_json_file(path)
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or not isinstance(
                data.get("record"), dict):
            raise RecordFileError(str(path), "not_save")
    except RecordFileError as e:
        raise SaveError(str(e), e) from None
    try:
        game = replay(data["record"])
    except RecordError as e:
        raise SaveError(f"{path}: the game cannot be replayed: {e}", e) from None
    except (TypeError, ValueError) as e:
        raise SaveError(f"{path}: the game cannot be replayed: {e}") from None
    meta = {k: v for k, v in data.items() if k != "record"}
    check_meta(str(path), meta, game.num_players)
    return game, meta


def check_meta(path: str, meta: dict[str, Any], players: int) -> None:
    """Raise :class:`SaveFieldError` for the first field of a save's ``meta``
    that is not what ``liverpool play`` writes (a save edited by hand, or
    damaged): every type exact, every seat one of the game's ``players``, the
    person's seat no bot's."""
    bots = meta.get("bots")
    if not isinstance(bots, dict) or not all(
            isinstance(k, str) and k.isdigit() and int(k) < players and isinstance(v, str)
            for k, v in bots.items()):
        raise SaveFieldError(path, "bots")
    seat = meta.get("seat")
    if not is_whole(seat) or not 0 <= seat < players or str(seat) in bots:
        raise SaveFieldError(path, "seat")
    names = meta.get("names")
    if not isinstance(names, list) or len(names) != players or not all(
            isinstance(n, str) for n in names):
        raise SaveFieldError(path, "names")
    checks: tuple[tuple[str, Callable[[object], bool]], ...] = (
        ("lang", lambda v: isinstance(v, str) and v in ("en", "nb", "da")),
        ("symbols", lambda v: isinstance(v, bool)),
        ("auto_pass", lambda v: isinstance(v, str) and v in ("off", "useless", "always")),
        ("warn_calls", lambda v: isinstance(v, bool)))
    for field, ok in checks:
        if not ok(meta.get(field)):
            raise SaveFieldError(path, field)
    if "bot_seed" in meta and not is_whole(meta["bot_seed"]):
        raise SaveFieldError(path, "bot_seed")


def last_unfinished(folder: str | Path | None = None) -> Path | None:
    """The most recently saved game that is not over (None: there is none)."""
    folder = Path(folder) if folder is not None else save_dir()
    best: tuple[float, Path] | None = None
    for path in folder.glob("*.json"):
        try:
            data = read_json_file(path)
        except RecordFileError:
            continue
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT or data.get(
                "finished", True):
            continue
        mtime = path.stat().st_mtime
        if best is None or mtime > best[0]:
            best = (mtime, path)
    return best[1] if best else None
