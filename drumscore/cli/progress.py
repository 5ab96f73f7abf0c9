"""A progress bar on stderr (tqdm) for long renders: only on a terminal, never with --quiet."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator

from drumscore.i18n import _

#: Seconds a render runs before its bar appears.
DELAY = 1.0


@contextlib.contextmanager
def progress_bar(frames: int, rate: int, quiet: bool = False) -> Iterator[Callable[[int], None]]:
    """A callback taking frames done; it draws a bar in seconds of audio when stderr is a tty."""
    isatty = getattr(sys.stderr, "isatty", None)
    if quiet or isatty is None or not isatty():
        yield lambda n: None
        return
    from tqdm import tqdm

    with tqdm(
        total=round(frames / rate, 1),
        unit="s",
        unit_scale=False,
        delay=DELAY,
        file=sys.stderr,
        desc=_("rendering"),
        leave=False,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} "
        + _("s of audio")
        + " [{elapsed}<{remaining}]",
    ) as bar:
        yield lambda n: bar.update(n / rate)


class CountedBlocks:
    """Audio blocks on their way to a writer, each counted and ticked on the progress bar."""

    def __init__(self, blocks: Iterable, tick: Callable[[int], None]) -> None:
        self.blocks, self.tick, self.frames = blocks, tick, 0

    def __iter__(self) -> Iterator:
        for block in self.blocks:
            self.frames += len(block)
            yield block
            self.tick(len(block))
