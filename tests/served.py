"""A folder served on 127.0.0.1 (any free port) by `drumscore serve`'s server, for a block."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from drumscore.site.serve import make_server, url_of


@contextlib.contextmanager
def serving(folder: Path, **options: Any) -> Iterator[str]:
    """The address of `folder` served (`options` go to make_server), until the block ends."""
    server = make_server(folder, port=0, **options)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield url_of(server)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
