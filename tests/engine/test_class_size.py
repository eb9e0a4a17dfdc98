"""No class of the engine or of a game grows past what a reader holds in mind: a game's rules,
scoring, views and timeout move live in modules of their own, beside its game class."""

from __future__ import annotations

import ast
from pathlib import Path

import tablee

ROOT = Path(tablee.__file__).parent
#: a little slack over the ~400 lines the house aims at
MAX_LINES = 420


def long_classes(paths: list[Path], limit: int) -> list[str]:
    out = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                    out.append(f"{where}: {node.name} ({lines} lines)")
    return out


def test_the_check_finds_a_long_class(tmp_path: Path) -> None:
    source = tmp_path / "big.py"
    source.write_text("class Big:\n" + "    x = 1\n" * 30)
    assert long_classes([source], 20) and not long_classes([source], 40)


def test_no_class_of_the_engine_or_the_games_is_too_long() -> None:
    paths = sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "games").rglob("*.py"))
    assert long_classes(paths, MAX_LINES) == []
