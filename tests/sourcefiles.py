"""The source passages the tests read: the editions' passages in tests/sources/."""

from pathlib import Path

SOURCES = Path(__file__).with_name("sources")


def source_text(name: str) -> str:
    return (SOURCES / name).read_text(encoding="utf-8")
