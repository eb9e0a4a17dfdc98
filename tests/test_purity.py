"""The pure core (cards, engine, games, bots): no I/O, no asyncio, no clock, no global random."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tablee

ROOT = Path(tablee.__file__).parent
PURE = [
    ROOT / "cards.py",
    *sorted((ROOT / "engine").rglob("*.py")),
    *sorted((ROOT / "games").rglob("*.py")),
    *sorted((ROOT / "bots").rglob("*.py")),
]

FORBIDDEN_MODULES = {
    "asyncio",
    "time",
    "socket",
    "os",
    "subprocess",
    "threading",
    "sqlalchemy",
    "fastapi",
    "starlette",
    "httpx",
    "requests",
    "websockets",
    "redis",
    "datetime",
    "secrets",
    "pathlib",
    "tablee.api",
    "tablee.tables",
    "tablee.store",
    "io",
    "shutil",
    "urllib",
}
RANDOM_ALLOWED = {"Random"}


def _problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN_MODULES or alias.name in FORBIDDEN_MODULES:
                    out.append(f"imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            mod = node.module
            if mod.split(".")[0] in FORBIDDEN_MODULES or any(
                mod == m or mod.startswith(m + ".") for m in FORBIDDEN_MODULES
            ):
                out.append(f"imports from {mod}")
            if mod == "random":
                out += [
                    f"imports random.{a.name}" for a in node.names if a.name not in RANDOM_ALLOWED
                ]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random" and node.attr not in RANDOM_ALLOWED:
                out.append(f"uses the global random.{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"open", "print", "input"}
        ):
            out.append(f"calls {node.func.id}()")
    return [f"{path.relative_to(ROOT)}:{p}" for p in out]


@pytest.mark.parametrize("path", PURE, ids=[str(p.relative_to(ROOT)) for p in PURE])
def test_pure_core_does_no_io_and_no_global_random(path: Path) -> None:
    assert _problems(path) == []


def test_the_purity_check_bites(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nimport random\nx = random.choice([1])\nopen('f')\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        problems = _problems(bad)
    finally:
        ROOT = saved
    assert len(problems) == 3
