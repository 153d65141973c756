"""The library's layout rules of the README, checked on its source: a module
uses another module's public names only, and no two modules import each
other, directly or round a longer cycle."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
#: namedtuple methods: public API despite their underscore
NAMEDTUPLE = {"_replace", "_asdict", "_make", "_fields", "_field_defaults"}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> dict[str, Path]:
    mods = {}
    for path in sorted((SRC / "liverpool").rglob("*.py")):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


@functools.cache
def _tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the checks below."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(name: str, path: Path, tree: ast.Module, mods: dict[str, Path]
             ) -> list[tuple[str, str]]:
    """(module, imported name or "") for every import of a library module."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in mods:
                    found.append((f"{target}.{alias.name}", ""))
                elif target in mods:
                    found.append((target, alias.name))
        elif isinstance(node, ast.Import):
            found += [(a.name, "") for a in node.names if a.name in mods]
    return found


def _names_defined(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


@pytest.mark.slow
def test_no_module_uses_another_modules_private_names() -> None:
    mods = _modules()
    found = []
    for name, path in mods.items():
        tree = _tree(path)
        found += [f"{name} imports {target}.{imported}"
                  for target, imported in _imports(name, path, tree, mods)
                  if _private(imported) and target != name]
        found += [f"{name}:{line} uses {text}" for line, text in _reaches(tree)]
    assert found == []


def _reaches(tree: ast.Module) -> list[tuple[int, str]]:
    """``obj._name`` where ``_name`` is nothing the module defines: a reach into
    another module's object (``self._name`` in a mixin is its class's own)."""
    own = _names_defined(tree) | NAMEDTUPLE
    return [(node.lineno, ast.unparse(node)) for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and _private(node.attr)
            and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


def test_the_check_finds_a_reach_into_another_module() -> None:
    tree = ast.parse("def f(bot):\n    return bot.basic._gain(1), bot._own, bot._replace()\n"
                     "def g(bot):\n    bot._own = 1\n")
    assert _reaches(tree) == [(2, "bot.basic._gain")]


@pytest.mark.slow
def test_no_import_cycles() -> None:
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        tree = _tree(path)
        # a package importing its own submodules (its __init__) is not a cycle
        graph[name] = {t for t, _ in _imports(name, path, tree, mods)
                       if t != name and not t.startswith(name + ".")}
    assert _cycles(graph) == []


def _cycles(graph: dict[str, set[str]]) -> list[str]:
    cycles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append(" -> ".join([*path[path.index(n):], n]))
            elif n not in state:
                visit(n, [*path, n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return cycles


def test_the_check_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a -> b -> c -> a"]
    assert _cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


#: the interfaces, which bring their own libraries; everything else is the core
INTERFACES = ("liverpool.cli", "liverpool.simcli", "liverpool.reviewcli", "liverpool.cli_errors",
              "liverpool.tui", "liverpool.server", "liverpool.rl")


@pytest.mark.slow
def test_the_core_imports_only_the_standard_library() -> None:
    import sys

    found = []
    for name, path in _modules().items():
        if name.startswith(INTERFACES):
            continue
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                roots = [node.module.split(".")[0]]
            else:
                continue
            found += [f"{name}:{node.lineno} imports {r}" for r in roots
                      if r != "liverpool" and r not in sys.stdlib_module_names]
    assert found == []
