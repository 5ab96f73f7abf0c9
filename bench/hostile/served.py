"""drumscore serve's cases: its listening (POST /listen/…) as a hostile page uses it, and
bodies of 10 and 100 MB, with lengths that lie."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from .runner import HERE


def _request(url: str, method: str = "GET", body: bytes | None = None, bound: float = 15.0):  # type: ignore[no-untyped-def]
    """(status, body) of one request, or (None, reason) past the bound."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=bound) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except (OSError, ValueError) as exc:
        return None, str(exc).encode()


MB = 1_000_000
#: Large bodies sent whole (their path, size, the length said (None: none), whether the client
#: asks first with Expect: 100-continue) and the status each must be answered with, read whole.
BODIES: dict[str, tuple[str, int, int | None, bool, int]] = {
    "a chunk of 10 MB saying 400 bytes": ("/listen/{id}", 10 * MB, 400, False, 200),
    "a chunk of 100 MB asking first": ("/listen/{id}", 0, 100 * MB, True, 413),
    "start of 100 MB": ("/listen/start", 100 * MB, 100 * MB, False, 413),
    "start of 10 MB saying 100 bytes": ("/listen/start", 10 * MB, 100, False, 400),
    "start of 10 MB saying 100 MB": ("/listen/start", 10 * MB, 100 * MB, False, 413),
    "start of 10 MB saying no length": ("/listen/start", 10 * MB, None, False, 411),
    "start of 100 MB asking first": ("/listen/start", 0, 100 * MB, True, 413),
    "a chunk of 10 MB to no session": ("/listen/nosuch", 10 * MB, 10 * MB, False, 404),
    "a POST of 100 MB to index.html": ("/index.html", 100 * MB, 100 * MB, False, 501),
}


def _sent(
    host: str, port: int, path: str, size: int, stated: int | None, expect: bool, bound: float
) -> tuple[int | None, bytes]:
    """POST `size` bytes to `path`, saying `stated` (None: no length), asking first where
    `expect`: the answer's status and body, read whole; (None, reason) on a reset connection or
    past the bound."""
    import socket

    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    head += f"Content-Length: {stated}\r\n" if stated is not None else ""
    head += "Expect: 100-continue\r\n" if expect else ""
    try:
        with socket.create_connection((host, port), timeout=bound) as sock:
            sock.sendall((head + "\r\n").encode())
            chunk = b"\0" * 2**20
            for at in range(0, size, len(chunk)):
                sock.sendall(chunk[: size - at])
            reply = b""
            while got := sock.recv(65536):
                reply += got
    except OSError as exc:
        return None, str(exc).encode()
    line, _, rest = reply.partition(b"\r\n")
    parts = line.split()
    code = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    return code, rest.partition(b"\r\n\r\n")[2]


def _half_sent(host: str, port: int, path: str, length: int, bound: float) -> tuple[bool, float]:
    """A POST that says `length` bytes (within the limits) and sends 10: whether the server
    closed it within the bound, and when."""
    import socket

    start = time.monotonic()
    with socket.create_connection((host, port), timeout=bound) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode()
            + b"0123456789"
        )
        try:
            while sock.recv(4096):
                pass
        except TimeoutError:
            return False, time.monotonic() - start
        except OSError:
            pass
    return True, time.monotonic() - start


def serve_results(top: Path, only: str | None) -> list[dict[str, object]]:
    """drumscore serve's listening (POST /listen/…) under a hostile page: garbage, huge and
    half-sent bodies, many sessions at once, a session never closed; after each, the server
    must still serve its files. Counted as a traceback when the server prints one, a hang when
    a request is not answered within its bound, a wrong status for a 5xx or a 2xx to garbage."""
    import json
    import threading

    names = [
        "GET /listen",
        "start with a garbage body",
        "start with a body of 10 MB",
        "start with a half-sent body",
        "start with a rate of 1e309 Hz",
        "start with a score of <script>",
        "start a session",
        "a chunk of an odd number of bytes",
        "a chunk of NaN samples",
        "a chunk of 100 MB",
        "a chunk to no session",
        *BODIES,
        "a half-sent chunk",
        "20 sessions started at once",
        "a session never closed, then another",
        "the server's memory after all",
    ]
    chosen = [n for n in names if not only or only in f"serve: {n}"]
    if not chosen:
        return []
    env = {**os.environ, "PYTHONPATH": str(HERE), "HOME": str(top / "home")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", "serve", "--port", "0", "--lang", "en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=top,
    )
    found: list[str] = []

    def read(stream, into: list[str]) -> None:  # type: ignore[no-untyped-def]
        for raw in stream:
            into.append(raw.decode("utf-8", "replace"))

    errors: list[str] = []
    threading.Thread(target=read, args=(proc.stdout, found), daemon=True).start()
    threading.Thread(target=read, args=(proc.stderr, errors), daemon=True).start()
    deadline = time.monotonic() + 180
    base = ""
    while time.monotonic() < deadline and not base and proc.poll() is None:
        for line in found:
            match = re.search(r"http://[0-9.]+:[0-9]+/", line)
            if match:
                base = match.group()
        time.sleep(0.2)
    results: list[dict[str, object]] = []
    if not base:
        proc.kill()
        return [_served("serve starts", 0, True, False, "no address printed", errors)]
    host, port = base[7:-1].split(":")
    listen = base + "listen"
    status, _ = _request(listen)
    landed = status == 200
    session = {"id": ""}
    good = json.dumps(
        {"score": "lu/1", "section": "she", "bpm": 60, "reading": "zheng", "rate": 48000}
    ).encode()

    def start(body: bytes) -> tuple[int | None, bytes]:
        return _request(listen + "/start", "POST", body)

    def fresh() -> None:
        """A session of its own for the case, where the last one ended (a refused chunk ends
        it); the one still listening is kept (one listens at a time)."""
        code, answer = start(good)
        if code == 200:
            with contextlib.suppress(ValueError):
                session["id"] = json.loads(answer).get("id", "")

    def refused_all(statuses: list[int | None]) -> bool:
        return all(s is not None and 400 <= s < 500 for s in statuses)

    for name in chosen:
        begun = time.monotonic()
        hung, wrong, said = False, False, ""
        if not landed and name != "GET /listen":
            continue
        if name == "GET /listen":
            said = f"GET /listen: {status} (listening {'served' if landed else 'not landed'})"
            wrong = status is None or status >= 500
        elif name == "start with a garbage body":
            codes = [start(b) for b in (b"\xff\xfe garbage", b"[]", b'{"rate": "x"}', b"null")]
            wrong = not refused_all([c for c, _ in codes])
            said = " ".join(str(c) for c, _ in codes)
        elif name == "start with a body of 10 MB":
            code, _ = start(b"{" * 10_000_000)
            # refused unread with a 413 the client reads whole (not a reset connection)
            wrong, said = code != 413, str(code)
        elif name in BODIES:
            path, size, stated, expect, wanted = BODIES[name]
            if "{id}" in path:
                fresh()
            path = path.format(id=session["id"])
            code, answer = _sent(host, int(port), path, size, stated, expect, 60)
            # its status read whole (a reset is None), with a reason (JSON on listening's paths)
            reason = answer.startswith(b"{") if path.startswith("/listen") else bool(answer)
            wrong, said = code != wanted or not reason, f"{code} {answer[:50]!r}"
        elif name == "start with a half-sent body":
            closed, seconds = _half_sent(host, int(port), "/listen/start", 2000, 40)
            hung, said = not closed, f"closed after {seconds:.1f} s"
        elif name == "start with a rate of 1e309 Hz":
            body = good.replace(b"48000", b"1e309")
            code, _ = start(body)
            wrong, said = not refused_all([code]), str(code)
        elif name == "start with a score of <script>":
            body = good.replace(b'"lu/1"', b'"<script>alert(1)</script>"')
            code, answer = start(body)
            wrong = not refused_all([code]) or not answer.startswith(b"{")  # JSON, not markup
            said = f"{code} {answer[:60]!r}"
        elif name == "start a session":
            code, answer = start(good)
            with contextlib.suppress(ValueError):
                session["id"] = json.loads(answer).get("id", "")
            wrong, said = code != 200, f"{code}"
        elif name == "a chunk of an odd number of bytes":
            code, _ = _request(f"{listen}/{session['id']}", "POST", b"\0" * 1001)
            wrong, said = code is None or code >= 500, str(code)
        elif name == "a chunk of NaN samples":
            code, _ = _request(f"{listen}/{session['id']}", "POST", b"\x00\x00\xc0\x7f" * 4800)
            wrong, said = code is None or code >= 500, str(code)
        elif name == "a chunk of 100 MB":
            fresh()
            code, _ = _request(f"{listen}/{session['id']}", "POST", b"\0" * 100_000_000, 60)
            wrong, said = code != 413, str(code)
        elif name == "a chunk to no session":
            code, _ = _request(f"{listen}/nosuch", "POST", b"\0" * 400)
            wrong, said = not refused_all([code]), str(code)
        elif name == "a half-sent chunk":
            closed, seconds = _half_sent(host, int(port), f"/listen/{session['id']}", 40_000, 40)
            hung, said = not closed, f"closed after {seconds:.1f} s"
        elif name == "20 sessions started at once":
            codes: list[int | None] = []

            def one(into: list[int | None] = codes) -> None:
                into.append(start(good)[0])

            threads = [threading.Thread(target=one) for _ in range(20)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            hung = len(codes) < 20
            wrong = any(c is None or c >= 500 for c in codes)
            said = " ".join(f"{codes.count(c)}×{c}" for c in sorted(set(codes), key=str))
        elif name == "a session never closed, then another":
            # sessions left open above: after the idle time, a new one starts
            time.sleep(12)
            code, answer = start(good)
            wrong, said = code != 200, f"{code} {answer[:60]!r}"
        elif name == "the server's memory after all":
            status_lines = Path(f"/proc/{proc.pid}/status").read_text(encoding="ascii")
            rss = [ln.split()[1] for ln in status_lines.splitlines() if ln.startswith("VmRSS")]
            kb = int(rss[0]) if rss else 0
            wrong, said = kb > 1_000_000, f"{kb // 1024} MB resident"
        files, _ = _request(base + "index.html")
        if files != 200:
            hung = True
            said += f"; then index.html: {files}"
        results.append(_served(name, time.monotonic() - begun, hung, wrong, said, errors))
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        results.append(_served("serve stops on Ctrl-C", 30, True, False, "still running", []))
    return results


def _served(
    name: str, seconds: float, hung: bool, wrong: bool, said: str, errors: list[str]
) -> dict[str, object]:
    told = "".join(errors)
    return {
        "case": f"serve: {name}",
        "group": "serve's listening",
        "status": "http",
        "seconds": seconds,
        "early": 0,
        "traceback": int("Traceback" in told),
        "hang": int(hung),
        "lost": 0,
        "outside": 0,
        "wrong": int(wrong),
        "late": 0,
        "said": [said[:70]],
        "where": [],
        "full": told[-4000:],
    }
