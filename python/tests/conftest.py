"""Shared fixtures: the repository's test data, and the robotscope binary when built."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"


@pytest.fixture(scope="session")
def data() -> Path:
    return DATA


@pytest.fixture(scope="session")
def robotscope_bin() -> Path:
    """The command-line binary, to compare verdicts with: $ROBOTSCOPE_BIN (CI sets it),
    else the newest one under target/."""
    given = os.environ.get("ROBOTSCOPE_BIN")
    if given:
        path = Path(given)
        assert path.is_file(), f"ROBOTSCOPE_BIN={given} does not exist"
        return path
    built = sorted(REPO.glob("target/*/robotscope"), key=lambda p: p.stat().st_mtime)
    if not built:
        pytest.skip("no robotscope binary under target/ (cargo build, or set ROBOTSCOPE_BIN)")
    return built[-1]
