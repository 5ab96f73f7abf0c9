"""Headless Chromium for the tests that open the site's pages: its flags, and a launch that is a
skip where it cannot start."""

from __future__ import annotations

import json
from typing import Any

import pytest
from system_tools import chromium_path

#: Chromium's flags for the site tests: headless, no network of its own, sound without a click.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--autoplay-policy=no-user-gesture-required",
]


def launch(playwright, args: list[str]):
    """A headless Chromium (system_tools' chromium_path), or a skip saying why it cannot start."""
    try:
        return playwright.chromium.launch(executable_path=chromium_path() or "chromium", args=args)
    except Exception as exc:  # a browser that cannot start here is a skip, not a failure
        pytest.skip(f"Chromium does not start: {str(exc).splitlines()[0]}")


def evaluated(page, function: str, arg: Any = None) -> Any:
    """What the JS `function` (given `arg`, awaited) returns in `page`, carried as one JSON text:
    Playwright's own serialisation takes seconds over a large object (a thousand comparisons)."""
    return json.loads(page.evaluate(f"async (arg) => JSON.stringify(await ({function})(arg))", arg))
