"""A Babel extraction method for message tables: the English texts of
``errors.MESSAGES``, ``errors.REASONS``, ``errors.FILE_PROBLEMS`` and
``errors.RECORD_PROBLEMS`` (dict literals of code -> message) become msgids,
each with its code as a comment for translators. Used by ``babel.cfg``; not
needed at run time.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["extract_messages_table"]

#: The names of the dict literals whose values are msgids.
TABLES = ("MESSAGES", "REASONS", "FILE_PROBLEMS", "RECORD_PROBLEMS")


def extract_messages_table(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                           options: dict[str, Any]
                           ) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Yield ``(lineno, None, message, [comment])`` for each string value of the tables."""
    tree = ast.parse(fileobj.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id in TABLES for t in targets):
            continue
        if not isinstance(node.value, ast.Dict):
            continue
        for key, value in zip(node.value.keys, node.value.values, strict=True):
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                code = (key.value if isinstance(key, ast.Constant) and isinstance(key.value, str)
                        else "?")
                yield value.lineno, None, value.value, [f"error code: {code}"]
