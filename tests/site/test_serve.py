"""The site's web server: every malformed request is answered with a 4xx, and the server goes
on serving. Only 127.0.0.1, a bounded number of requests, each with a timeout."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from drumscore.site.serve import make_server

#: Requests that no file can answer: NUL bytes, undecodable escapes, names too long, bad lines.
MALFORMED = [
    b"GET /index.html%00.js HTTP/1.1\r\n",
    b"GET /%00 HTTP/1.1\r\n",
    b"GET /%ff%fe.html HTTP/1.1\r\n",
    b"GET /%ed%a0%80.html HTTP/1.1\r\n",
    b"GET /" + b"a" * 5000 + b".html HTTP/1.1\r\n",
    b"GET /" + b"a/" * 3000 + b" HTTP/1.1\r\n",
    b"HEAD /index.html%00 HTTP/1.1\r\n",
    b"GET /../../../../etc/passwd HTTP/1.1\r\n",
    b"\xff\xfe\r\n",
    b"GET /" + b"x" * 70000 + b" HTTP/1.1\r\n",
]


#: How often a test's server looks whether it is asked to stop: each test waits for it once.
POLL = 0.005


def _serving(folder: Path, **limits: object) -> Iterator[tuple[int, list[str]]]:
    """A server on 127.0.0.1 (any free port) for `folder` holding index.html, with `limits`
    (and listening) given to make_server, running until the test ends: its port and the
    warnings it gave."""
    (folder / "index.html").write_text("<p>drums</p>", encoding="utf-8")
    warnings: list[str] = []
    server = make_server(folder, "127.0.0.1", 0, warn=warnings.append, **limits)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL})
    thread.start()
    try:
        yield server.server_address[1], warnings
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def served(tmp_path):
    """A server on 127.0.0.1 (any free port) for a folder holding index.html; the warnings it
    gave."""
    yield from _serving(tmp_path)


def _ask(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(request + b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n")
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    return reply


#: Well-formed requests that HTTP answers with its own 5xx: a method no server of files has
#: (501 Not Implemented) and a version of HTTP that does not exist (505).
UNSUPPORTED = {b"BREW /pot HTTP/1.1\r\n": b"501", b"GET / HTTP/9.9\r\n": b"505"}


@pytest.mark.parametrize("request_line", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_request_gets_a_4xx_and_the_server_goes_on(served, request_line):
    port, warnings = served
    reply = _ask(port, request_line)
    status = reply.split(b"\r\n", 1)[0]
    # a status line even for a request line that cannot be read (not a bare HTTP/0.9 body)
    assert status.startswith(b"HTTP/1.0 4"), reply[:200]
    assert _ask(port, b"GET /index.html HTTP/1.1\r\n").startswith(b"HTTP/1.0 200")
    assert warnings == []


@pytest.mark.parametrize("request_line", list(UNSUPPORTED))
def test_an_unsupported_method_or_version_is_answered_and_the_server_goes_on(served, request_line):
    port, warnings = served
    status = _ask(port, request_line).split(b"\r\n", 1)[0]
    assert status.startswith(b"HTTP/1.0 " + UNSUPPORTED[request_line]), status
    assert _ask(port, b"GET /index.html HTTP/1.1\r\n").startswith(b"HTTP/1.0 200")
    assert warnings == []


def test_files_are_still_served(served):
    port, _ = served
    reply = _ask(port, b"GET /index.html HTTP/1.1\r\n")
    assert reply.startswith(b"HTTP/1.0 200") and reply.endswith(b"<p>drums</p>")


@pytest.fixture
def impatient(tmp_path):
    """A server that gives each request a quarter of a second to arrive."""
    yield from _serving(tmp_path, request_seconds=0.25)


def _held_for(port: int, sending) -> tuple[float, bytes]:
    """Seconds until the server closes a connection on which `sending(conn)` sends, and what it
    answered meanwhile."""
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        sending(conn)
        reply = b""
        while chunk := conn.recv(65536):
            reply += chunk
    return time.monotonic() - started, reply


def _half_a_request(conn):
    conn.sendall(b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: not done


def _a_byte_at_a_time(conn):
    for byte in b"GET /index.html HTTP/1.1\r\n":
        try:
            conn.sendall(bytes([byte]))
        except OSError:  # cut off
            return
        time.sleep(0.05)


@pytest.mark.parametrize("sending", [_half_a_request, _a_byte_at_a_time, lambda conn: None])
def test_a_half_sent_request_is_cut_off_in_its_time_and_the_server_goes_on(impatient, sending):
    port, warnings = impatient
    seconds, reply = _held_for(port, sending)
    assert 0.2 < seconds < 5
    assert reply == b""  # nothing served of a request that did not arrive whole
    assert _ask(port, b"GET /index.html HTTP/1.1\r\n").startswith(b"HTTP/1.0 200")
    assert warnings == []


def test_a_request_sent_in_time_is_answered_whole(impatient):
    port, _ = impatient
    reply = _ask(port, b"GET /index.html HTTP/1.1\r\n")
    assert reply.startswith(b"HTTP/1.0 200") and reply.endswith(b"<p>drums</p>")


def test_forty_connections_made_at_once_are_each_answered(tmp_path):
    """A page that opens many connections at once (or a hostile one), all made before the
    server accepts the first: each is answered, none reset because the server's queue of
    connections was full."""
    (tmp_path / "index.html").write_text("<p>drums</p>", encoding="utf-8")
    server = make_server(tmp_path, "127.0.0.1", 0)
    port = server.server_address[1]
    made: list[socket.socket | str] = []
    for _ in range(40):
        try:
            made.append(socket.create_connection(("127.0.0.1", port), timeout=0.5))
        except OSError as exc:
            made.append(repr(exc))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": POLL})
    thread.start()
    answers: list[bytes | str] = []
    try:
        for conn in made:
            if isinstance(conn, str):
                answers.append(conn)
                continue
            with conn:
                try:
                    conn.settimeout(10)
                    conn.sendall(
                        b"GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    )
                    answers.append(conn.recv(15))
                except OSError as exc:
                    answers.append(repr(exc))
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert answers == [b"HTTP/1.0 200 OK"] * 40, [a for a in answers if a != b"HTTP/1.0 200 OK"]


# --- bad input: bodies longer than listening takes ---------------------------------------------


@pytest.fixture
def listening_served(tmp_path):
    """A server with listening (its sessions' report left empty), its port and warnings."""
    from drumscore.site.listening import Listening

    yield from _serving(tmp_path, listening=Listening(lambda check: ("", {})))


def _post(port: int, path: str, body_bytes: int, stated: int | None, expect: bool = False):
    """POST `body_bytes` zero bytes to `path`, saying `stated` bytes (None: no length): the
    status line and body of the answer, read whole (an error if the connection is reset)."""
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if stated is not None:
        head += f"Content-Length: {stated}\r\n"
    if expect:
        head += "Expect: 100-continue\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall((head + "\r\n").encode())
        if not expect:
            chunk = b"\0" * 2**20
            for start in range(0, body_bytes, len(chunk)):
                conn.sendall(chunk[: body_bytes - start])
        reply = b""
        while got := conn.recv(65536):
            reply += got
    status, _, rest = reply.partition(b"\r\n")
    return status.decode(), rest.partition(b"\r\n\r\n")[2]


def _start(port: int) -> str:
    import json

    body = json.dumps({"score": "lu/1", "bpm": 60, "rate": 8000, "lang": "zh-Hant"}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(
            b"POST /listen/start HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body)
            + body
        )
        reply = b""
        while got := conn.recv(65536):
            reply += got
    assert reply.startswith(b"HTTP/1.0 200"), reply
    return json.loads(reply.partition(b"\r\n\r\n")[2])["id"]


MB = 1_000_000


@pytest.mark.parametrize("size", [10 * MB, 100 * MB], ids=["10MB", "100MB"])
@pytest.mark.parametrize(
    ("stated", "status"),
    [("true", "413"), ("larger", "413"), ("none", "411"), ("smaller", "400")],
)
def test_a_start_with_a_large_body_is_answered_and_the_server_goes_on(
    listening_served, size, stated, status
):
    """10 and 100 MB sent to /listen/start: answered with a status and a reason (JSON), the
    connection closed cleanly (no reset: the whole answer read), whatever length the request
    says (its own, more, none, or 100 bytes: then that is read, and is no start)."""
    import json

    port, warnings = listening_served
    said = {"true": size, "larger": size * 10, "none": None, "smaller": 100}[stated]
    line, body = _post(port, "/listen/start", size, said)
    assert line.split()[1] == status, line
    assert json.loads(body)["error"]
    assert _ask(port, b"GET /index.html HTTP/1.1\r\n").startswith(b"HTTP/1.0 200")
    assert warnings == []


@pytest.mark.parametrize("size", [10 * MB, 100 * MB], ids=["10MB", "100MB"])
def test_a_chunk_of_a_large_body_is_refused_413_in_the_page_s_language(listening_served, size):
    """A session's chunk of 10 or 100 MB (more than MAX_CHUNK_SECONDS of samples) is 413 with
    the reason in the language the page started the session in; the session goes on."""
    import json

    port, warnings = listening_served
    session = _start(port)
    line, body = _post(port, f"/listen/{session}", size, size)
    assert line.split()[1] == "413", line
    error = json.loads(body)["error"]
    assert "64000" in error and "聽" in error, error  # 2 s at 8 kHz, in 繁體
    # a chunk that says less than it sends: what it says is heard, the rest thrown away
    line, body = _post(port, f"/listen/{session}", size, 400)
    assert line.split()[1] == "200" and json.loads(body)["heard"] == pytest.approx(0.0125)
    assert _ask(port, b"GET /index.html HTTP/1.1\r\n").startswith(b"HTTP/1.0 200")
    assert warnings == []


def test_a_client_that_asks_first_is_refused_before_it_sends_its_body(listening_served):
    """Expect: 100-continue with 100 MB said: 413 at once, no 100 Continue, no byte read."""
    port, warnings = listening_served
    line, body = _post(port, "/listen/start", 0, 100 * MB, expect=True)
    assert line.split()[1] == "413", line
    assert b"4096" in body
    line, _ = _post(port, "/listen/start", 0, None, expect=True)
    assert line.split()[1] == "411", line
    assert warnings == []


def test_a_body_shorter_than_its_length_is_refused_400_in_its_time(listening_served):
    """A start that says 2,000 bytes and sends 10, then closes its side: 400, not a wait."""
    port, warnings = listening_served
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(b"POST /listen/start HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n")
        conn.sendall(b"0123456789")
        conn.shutdown(socket.SHUT_WR)
        reply = b""
        while got := conn.recv(65536):
            reply += got
    assert reply.startswith(b"HTTP/1.0 400"), reply[:80]
    assert b"less than the length" in reply
    assert warnings == []
