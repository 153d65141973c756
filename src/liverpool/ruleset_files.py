"""Ruleset files as :mod:`liverpool.ruleset_io` reads them: the TOML text of a
file, read with bounds (its size) and every failure a :class:`RulesError` in
the reader's words (a missing file, a folder, bytes that are not UTF-8, a
TOML mistake with its place, a name no file can have); and how a source
that names no preset is told from a path."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from .rules import RulesError

__all__ = ["MAX_FILE_BYTES", "looks_like_path", "path_exists", "read_toml", "shown_path"]

#: The largest ruleset file read, in bytes.
MAX_FILE_BYTES = 64 * 1024


def path_exists(path: Path) -> bool:
    """Whether ``path`` is there; a name no file can have (too long, a NUL, a
    lone surrogate) is not."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def shown_path(path: Path) -> str:
    """``path`` for a message: what cannot be printed (a lone surrogate) escaped."""
    return str(path).encode("utf-8", "backslashreplace").decode("utf-8")


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML table of the file ``path`` (RulesError for anything else)."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise RulesError("rules_no_file", file=str(path)) from None
    except IsADirectoryError:
        raise RulesError("rules_directory", file=str(path)) from None
    except OSError as e:
        raise RulesError("rules_unreadable", file=str(path), detail=str(e.strerror or e)) from None
    except ValueError:  # a NUL in the name, or a name the file system cannot encode
        raise RulesError("rules_no_file", file=shown_path(path)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulesError("rules_file_too_big", path=str(path), limit=MAX_FILE_BYTES)
    try:
        text = raw.decode("utf-8-sig")  # (a byte-order mark, as some editors save, is dropped)
    except UnicodeDecodeError:
        raise RulesError("rules_not_utf8", path=str(path)) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # the place in the reader's language; the parser's own words (English) after it
        place = _TOML_PLACE.match(str(e))
        if place is not None:
            raise RulesError("rules_bad_toml_at", path=str(path), line=int(place["line"]),
                             column=int(place["column"]), detail=place["what"]) from None
        raise RulesError("rules_bad_toml", path=str(path), detail=str(e)) from None
    except RecursionError:  # arrays or tables nested thousands deep
        raise RulesError("rules_toml_too_deep", path=str(path)) from None


#: where :mod:`tomllib` says a file went wrong: "Invalid value (at line 2, column 9)"
_TOML_PLACE = re.compile(r"(?P<what>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)$",
                         re.DOTALL)


def looks_like_path(text: str) -> bool:
    """Whether ``text`` names a file rather than a preset (a ``.toml`` name, a folder in it)."""
    return (
        text.endswith(".toml")
        or os.sep in text
        or (os.altsep is not None and os.altsep in text)
        or "/" in text
    )
