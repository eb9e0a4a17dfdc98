"""The REST and WebSocket layer reaches the stored data through the tables layer only: no module
of ``tablee.api`` imports ``tablee.store`` (the arrows go api -> tables -> store)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tablee.api

API = Path(tablee.api.__file__).parent
MODULES = sorted(API.rglob("*.py"))


def store_imports(source: str, package: str) -> list[str]:
    """Every import of ``tablee.store`` (or a module under it) in ``source``, a module of
    ``package``: absolute ones, relative ones that climb to it, and ``from tablee import store``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if _is_store(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, module] if module else base)
            if _is_store(module):
                out.append(module)
            else:
                out += [f"{module}.{a.name}" for a in node.names if _is_store(f"{module}.{a.name}")]
    return out


def _is_store(name: str) -> bool:
    return name == "tablee.store" or name.startswith("tablee.store.")


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_no_module_of_the_api_imports_the_store(path: Path) -> None:
    package = ".".join(["tablee", "api", *path.relative_to(API).parent.parts])
    assert store_imports(path.read_text(), package) == []


def test_the_check_sees_every_form_of_import() -> None:
    found = store_imports(
        "import tablee.store\n"
        "from tablee.store.admin import AdminStore\n"
        "from tablee import store\n"
        "from ..store import Store\n"
        "from .. import store as s\n"
        "from tablee.tables import Queries\n"
        "import tablee.storefront\n",
        "tablee.api",
    )
    assert found == [
        "tablee.store",
        "tablee.store.admin",
        "tablee.store",
        "tablee.store",
        "tablee.store",
    ]
