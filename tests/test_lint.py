"""House rule: ruff and mypy are clean on src/ (typed code everywhere)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_is_clean_on_src() -> None:
    r = _run("ruff", "check", "src")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_is_clean_on_src() -> None:
    r = _run("mypy")
    assert r.returncode == 0, r.stdout + r.stderr
