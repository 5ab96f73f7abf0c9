"""One built site (without MusicXML, the slow part) and one local server for the site tests."""

from __future__ import annotations

import threading

import pytest

from drumscore.site.build import build_site
from drumscore.site.serve import make_server, url_of


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "out"
    build_site(out, musicxml=False)
    return out


@pytest.fixture(scope="session")
def site_url(site_dir):
    server = make_server(site_dir, port=0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    yield url_of(server)
    server.shutdown()
    server.server_close()
