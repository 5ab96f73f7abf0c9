"""What C libraries (FluidSynth, ALSA) write to the process's stderr, kept off the terminal.

Their diagnostics would otherwise stand beside drumscore's own one-line error; the captured text is
returned so a caller can quote it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator


@contextlib.contextmanager
def captured() -> Iterator[list[str]]:
    """Redirect file descriptor 2 for the block; the list holds the captured lines afterwards."""
    lines: list[str] = []
    fd = 2  # C libraries write to the descriptor, whatever Python's sys.stderr is
    try:
        saved = os.dup(fd)
    except OSError:  # no descriptor 2 at all
        yield lines
        return
    sys.stderr.flush()
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), fd)
        try:
            yield lines
        finally:
            os.dup2(saved, fd)
            os.close(saved)
            sink.seek(0)
            text = sink.read().decode("utf-8", errors="replace")
            lines.extend(line for line in text.splitlines() if line.strip())
