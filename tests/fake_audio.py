"""Stand-ins for a machine's audio: what tests put in place of what is not there."""

from __future__ import annotations


def no_library(name: str):
    """An importer for a machine without the PortAudio library: every import fails as it would."""
    raise OSError("PortAudio library not found")
