"""No import cycle among the modules of ``tablee``: a module never needs, directly or through
others, a module that needs it. Read from the source (every import statement, those inside
functions included), so that a cycle hidden behind a late import is found too."""

from __future__ import annotations

import ast
from pathlib import Path

import tablee

ROOT = Path(tablee.__file__).parent


def module_name(path: Path) -> str:
    parts = ["tablee", *path.relative_to(ROOT).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The ``tablee`` modules ``name`` imports: ``from package import module`` counts as an import
    of the module, not of the package (a package's submodules import one another that way)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            subs = {f"{base}.{a.name}" for a in node.names} & known
            out.update(subs or {base})
    return {m for m in out if m in known and m != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that ends where it starts, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_relative_and_package_imports_resolve_to_modules(tmp_path: Path) -> None:
    known = {"tablee.games", "tablee.games._tricks", "tablee.games.tarot", "tablee.engine"}
    source = tmp_path / "tarot.py"
    source.write_text("from . import _tricks\nfrom tablee.engine import Game\n")
    assert imports("tablee.games.tarot", source, known) == {
        "tablee.games._tricks",
        "tablee.engine",
    }


def test_no_import_cycle_in_tablee() -> None:
    found = modules()
    known = set(found)
    graph = {name: imports(name, path, known) for name, path in found.items()}
    assert "tablee.games.registry" in graph["tablee.games"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
