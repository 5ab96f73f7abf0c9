"""`drumscore serve`: a built site on a local web server, for as long as it runs."""

from __future__ import annotations

import contextlib
import contextvars
import functools
import http.server
import ipaddress
import socket
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from drumscore.i18n import _

if TYPE_CHECKING:
    from drumscore.site.listening import Listening

#: Where the server listens unless told otherwise: this machine only.
LOCAL_HOST = "127.0.0.1"
#: Seconds a client has to send a whole request, its line and its headers (and the longest a
#: kept-alive connection waits for the next): a half-sent request holds a thread no longer.
REQUEST_SECONDS = 10.0
#: Seconds any one send or receive may wait (a client that stops reading a file it asked for).
SOCKET_SECONDS = 30.0
#: The most of what a client still sends after its answer (a body refused unread, or longer
#: than it said) that is read and thrown away before its connection is closed, within
#: request_seconds: a connection closed with bytes unread is reset, and a client still sending
#: would lose its answer. Nothing of it is kept: it is read into one buffer of DISCARD_CHUNK.
DISCARD_BYTES = 256 * 2**20
DISCARD_CHUNK = 64 * 1024

TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".wav": "audio/wav",
    ".mid": "audio/midi",
    ".musicxml": "application/vnd.recordare.musicxml+xml",
    ".svg": "image/svg+xml",
}


def is_local(host: str) -> bool:
    """Whether `host` is a loopback address (or localhost), reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {  # type: ignore[misc]
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **TYPES,
    }
    log: Callable[[str], None] | None = None
    #: The listening a score page's Listen button streams to (site.listening), if served.
    listening: Listening | None = None
    #: A request line that cannot be read is answered with a status line all the same.
    default_request_version = "HTTP/1.0"
    #: Set on the connection by StreamRequestHandler: the bound of one send or receive.
    timeout = SOCKET_SECONDS
    request_seconds = REQUEST_SECONDS

    def handle_one_request(self) -> None:
        """One request, read within request_seconds: a client still sending its line or its
        headers then (one byte at a time, or nothing) is cut off, and the connection closed."""
        self._guard = threading.Lock()
        self._read = self._cut = False
        timer = threading.Timer(self.request_seconds, self._cut_off)
        timer.daemon = True
        timer.start()
        try:
            super().handle_one_request()
        finally:
            timer.cancel()
        if self._cut:
            self.close_connection = True

    def _cut_off(self) -> None:
        with self._guard:
            if self._read:
                return
            self._cut = True
        with contextlib.suppress(OSError):  # the client went meanwhile
            self.connection.shutdown(socket.SHUT_RDWR)

    def parse_request(self) -> bool:
        """The request's line and headers, once read in time (else nothing is answered)."""
        parsed = super().parse_request()
        with self._guard:
            self._read = not self._cut
        return parsed and self._read

    def log_message(self, format: str, *args: object) -> None:
        if self.log is not None:
            self.log(format % args)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        if self.listening is not None and self.listening.handles(self.path):
            self.listening.answer(self)
        else:
            super().do_GET()

    def handle_expect_100(self) -> bool:
        """A client that asks before it sends its body (Expect: 100-continue) is answered at
        once where listening would refuse the body for its length, and sends none of it."""
        if self.listening is not None and self.listening.handles(self.path):
            stated = self.headers.get("Content-Length", "")
            path = urllib.parse.urlsplit(self.path).path
            if not stated.isdigit() or int(stated) > self.listening.limit(path):
                self.listening.answer(self)  # refused: its length is checked before a read
                return False
        return super().handle_expect_100()

    def do_POST(self) -> None:
        if self.listening is not None and self.listening.handles(self.path):
            self.listening.answer(self)
        else:
            self.send_error(501, "Unsupported method ('POST')")

    def send_head(self):  # type: ignore[no-untyped-def]
        """The file's headers; a path that no file can have (a NUL byte, undecodable bytes, a
        name too long) is 400 Bad Request, where http.server would raise and send nothing."""
        try:
            path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path, errors="strict")
            if "\0" in path:
                raise ValueError("a NUL byte in the path")
            return super().send_head()
        except (ValueError, OSError):
            self.send_error(400, "Bad request path")
            return None


class _Server(http.server.ThreadingHTTPServer):
    #: Connections waiting to be accepted (socketserver's 5 resets a page's sixth at once).
    request_queue_size = 64
    warn: Callable[[str], None] | None = None
    #: The context the server was made in: each request's thread runs in a copy of it (so a
    #: warning speaks the language of the command that started the server).
    context: contextvars.Context = contextvars.Context()

    #: A client's time to send a request (make_server's request_seconds): the bound, too, of
    #: reading what it still sends once answered.
    request_seconds = REQUEST_SECONDS

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        self.context.copy().run(super().process_request_thread, request, client_address)

    def shutdown_request(self, request: Any) -> None:
        """Close a connection once answered: the answer's end told (the sending side shut),
        then what the client still sends read and thrown away (at most DISCARD_BYTES, within
        request_seconds) until it closes its side; only then closed."""
        with contextlib.suppress(OSError):
            request.shutdown(socket.SHUT_WR)
            _discard(request, self.request_seconds)
        self.close_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A browser that leaves before a page is sent (a broken pipe) is not an error; any
        other failure of one request is a line on stderr, and the server goes on."""
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError):
            return
        if self.warn is not None:
            self.warn(
                _("a request from {client} failed: {error!r}").format(
                    client=client_address[0], error=exc
                )
            )


def _discard(connection: socket.socket, seconds: float) -> None:
    """Read what arrives on `connection` into one buffer, until the client closes its side,
    DISCARD_BYTES have come, or `seconds` have passed."""
    buffer = bytearray(DISCARD_CHUNK)
    deadline = time.monotonic() + seconds
    left = DISCARD_BYTES
    while left > 0:
        wait = deadline - time.monotonic()
        if wait <= 0:
            return
        connection.settimeout(wait)
        got = connection.recv_into(buffer, min(DISCARD_CHUNK, left))
        if not got:
            return
        left -= got


def make_server(
    folder: str | Path,
    host: str = LOCAL_HOST,
    port: int = 8000,
    log: Callable[[str], None] | None = None,
    warn: Callable[[str], None] | None = None,
    request_seconds: float = REQUEST_SECONDS,
    listening: Listening | None = None,
) -> http.server.ThreadingHTTPServer:
    """A server for the files in `folder` on host:port (port 0: any free port). Not started.

    `log` is told of each request; `warn` of a request that failed (the server goes on). A
    client has `request_seconds` to send each request's line and headers. With `listening`, a
    score page's Listen button is answered (site.listening)."""
    handler = type(
        "Handler",
        (_Handler,),
        {
            "log": staticmethod(log) if log else None,
            "request_seconds": request_seconds,
            "listening": listening,
        },
    )
    bound = functools.partial(handler, directory=str(folder))
    server_class: type[http.server.ThreadingHTTPServer] = _Server
    if ":" in host:
        server_class = type(
            "Server6", (server_class,), {"address_family": __import__("socket").AF_INET6}
        )
    server = server_class((host, port), bound)
    server.daemon_threads = True
    server.warn = warn  # type: ignore[attr-defined]
    server.request_seconds = request_seconds  # type: ignore[attr-defined]
    server.context = contextvars.copy_context()  # type: ignore[attr-defined]
    return server


def url_of(server: http.server.HTTPServer) -> str:
    host, port = server.server_address[:2]
    host = host.decode() if isinstance(host, bytes) else host
    shown = f"[{host}]" if ":" in str(host) else host
    return f"http://{shown}:{port}/"
