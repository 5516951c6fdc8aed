"""Scrapy's own interface tests for robots.txt backends (``BaseRobotParserTest`` in
Scrapy's ``tests/test_robotstxt_interface.py``), run against ``robotscope.scrapy``.

The tests ship in Scrapy's source distribution, not in its wheel: ``.ci/run`` downloads
the sdist of the Scrapy installed from PyPI, takes its ``tests`` package out, and names the
file in ``SCRAPY_INTERFACE_TESTS``. Without that variable this module is skipped; with it, a file
that cannot be read fails the run.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("scrapy")

_PATH = os.environ.get("SCRAPY_INTERFACE_TESTS")
if not _PATH:
    pytest.skip("SCRAPY_INTERFACE_TESTS names no copy of Scrapy's interface tests", allow_module_level=True)

# The module imports its helpers from Scrapy's `tests` package, which sits beside it.
sys.path.insert(0, str(Path(_PATH).resolve().parent.parent))
_spec = importlib.util.spec_from_file_location("scrapy_robotstxt_interface", _PATH)
assert _spec is not None and _spec.loader is not None, f"cannot load {_PATH}"
_interface = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_interface)


class TestRobotscopeRobotParser(_interface.BaseRobotParserTest):
    def setup_method(self) -> None:
        from robotscope.scrapy import RobotParser

        super()._setUp(RobotParser)

    def test_order_based_precedence(self) -> None:
        pytest.skip("RFC 9309 §2.2.2: the longest match decides, not the order (as Protego, Scrapy's default)")
