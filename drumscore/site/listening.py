"""`drumscore serve`'s listening: a score page's Listen button records the browser's microphone
and sends it here, where check's own listener (performance.stream, through play.listening and
play.judging, as a play listening hears a microphone) tells each stroke as it is heard,
judged against the score; when the page ends it, `check`'s report of the take, in the page's
language.

The transport is plain HTTP on the standard library's server, the page sending a request at a
time:

    GET  /listen               200 {"listening": true, "sessions": n, "most": MAX_SESSIONS}:
                               the page asks whether it is served with listening
    POST /listen/start         a JSON body {"score", "section", "bpm", "reading", "rate",
                               "lang"}: 200 {"id": …}; 409 while MAX_SESSIONS sessions listen
    POST /listen/<id>          a body of mono float32 little-endian samples at the rate given
                               (at most MAX_CHUNK_SECONDS of them): 200 {"at": k, "lines": […],
                               "heard": s}, the lines from line k on (those told or changed
                               since the last answer)
    POST /listen/<id>/end      200 the same, with "report" (check's report, as text) and
                               "check" (check's report as JSON); the session is closed

Bounded in time and memory: MAX_SESSIONS sessions at once (one: a performer and a microphone),
each closed when it sends nothing for IDLE_SECONDS or has taken MAX_SECONDS of sound (the take
is kept in memory as float32 samples: 5 minutes at 48 kHz are 55 MB).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from drumscore.errors import DrumscoreError
from drumscore.i18n import _, speaking

if TYPE_CHECKING:
    import http.server

    from drumscore.conductor.track import Track
    from drumscore.performance.check import Check
    from drumscore.play.judging import HeardLines, Line
    from drumscore.play.listening import AudioListener, PushedInput

PATH = "/listen"
MAX_SESSIONS = 1
IDLE_SECONDS = 10.0
MAX_SECONDS = 300.0
MAX_CHUNK_SECONDS = 2.0
#: The sample rates a page may send at (an AudioContext's, 8 to 96 kHz).
RATES = range(8000, 96001)
#: The start request's body, at most.
MAX_START_BYTES = 4096
#: The rate the score's strokes are laid out at to be judged against (a frame a microsecond).
HIT_RATE = 1_000_000

#: What a session's end gives back: check's report of the take as text, and as JSON (drumscore
#: serve passes the command line's own report).
Report = Callable[["Check"], tuple[str, dict[str, Any]]]


#: An answer: its HTTP status and its JSON body.
Answer = tuple[int, dict[str, Any]]


def refused(status: int, message: str) -> Answer:
    """A request that cannot be answered: its status, and the reason in the page's language."""
    return status, {"error": message}


@dataclass
class Session:
    """One page listening: its listener, the lines judged, the language it speaks."""

    id: str
    input: PushedInput
    listener: AudioListener
    lines: HeardLines
    pace: float
    lang: str
    track: Track
    last: float
    sent: tuple[str, ...] = ()
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self) -> dict[str, Any]:
        """The lines told or changed since the last answer."""
        with speaking(self.lang):
            self.lines(None)
        entries = self.lines.entries
        texts = self.lines.lines
        at = next(
            (k for k, (a, b) in enumerate(zip(self.sent, texts, strict=False)) if a != b),
            min(len(self.sent), len(texts)),
        )
        self.sent = texts
        return {
            "at": at,
            "lines": [line_data(e) for e in entries[at:]],
            "heard": self.listener.heard_until,
        }


def line_data(entry: Line) -> dict[str, Any]:
    """A line as the page shows it: its text, and the stroke of the score it lights (its
    number from 1 in the section, how it was played, its offset) if it lights one."""
    out: dict[str, Any] = {"text": entry.text}
    verdict = entry.verdict
    if verdict is not None:
        out["kind"] = verdict.kind
        if verdict.number is not None:
            out["number"] = verdict.number
        if verdict.offset_ms is not None:
            out["offset_ms"] = round(verdict.offset_ms, 1)
        if verdict.drum is not None:
            out["drum"] = verdict.drum.pinyin
    return out


class Listening:
    """The sessions of `drumscore serve`'s listening, and the requests for them."""

    def __init__(self, report: Report, clock: Callable[[], float] = time.monotonic) -> None:
        self.report = report
        self.clock = clock
        self.sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._watching = False

    def handles(self, path: str) -> bool:
        return path == PATH or path.startswith(PATH + "/")

    def answer(self, handler: http.server.BaseHTTPRequestHandler) -> None:
        """Answer a request for PATH (the handler's method and path), in JSON."""
        import urllib.parse

        path = urllib.parse.urlsplit(handler.path).path
        self._close_idle()
        try:
            status, body = self._route(handler, path)
        except DrumscoreError as exc:  # the score, section or reading asked for
            status, body = refused(400, str(exc))
        _send(handler, status, body)

    def _route(self, handler: http.server.BaseHTTPRequestHandler, path: str) -> Answer:
        if handler.command == "GET" and path == PATH:
            return 200, {"listening": True, "sessions": len(self.sessions), "most": MAX_SESSIONS}
        if handler.command != "POST":
            return refused(405, _("listening takes POST requests"))
        parts = path[len(PATH) + 1 :].split("/")
        if parts == ["start"]:
            body = _body(handler, self.limit(path))
            return body if isinstance(body, tuple) else self.start(body)
        with self._lock:
            session = self.sessions.get(parts[0])
        if session is None:
            return refused(
                404, _("no such listening session: it ended, or sent nothing for a while")
            )
        if parts[1:] == ["end"]:
            return self.end(session)
        if len(parts) > 1:
            return refused(404, _("no such listening request"))
        with speaking(session.lang):  # a refusal in the page's language
            body = _body(handler, self.limit(path))
        return body if isinstance(body, tuple) else self.feed(session, body)

    def limit(self, path: str) -> int:
        """The longest body a request for `path` (under PATH) takes, in bytes: a start's, or
        MAX_CHUNK_SECONDS of a session's samples; none for any other."""
        parts = path[len(PATH) + 1 :].split("/")
        if parts == ["start"]:
            return MAX_START_BYTES
        with self._lock:
            session = self.sessions.get(parts[0])
        if session is None or len(parts) > 1:
            return 0
        return int(MAX_CHUNK_SECONDS * session.input.rate) * 4

    def start(self, body: bytes) -> Answer:
        """A session for the score, section, tempo and reading the page asks for."""
        from drumscore.conductor.timeline import arrange
        from drumscore.conductor.track import Track
        from drumscore.corpus import resolve
        from drumscore.model import Reading
        from drumscore.play.judging import HeardLines
        from drumscore.play.listening import AudioListener, PushedInput
        from drumscore.timing import Tempo

        try:
            asked = json.loads(body)
            key, section = str(asked["score"]), str(asked.get("section") or "she")
            bpm, rate = float(asked["bpm"]), int(asked["rate"])
            lang = str(asked.get("lang") or "en")
            reading = asked.get("reading")
        except (ValueError, KeyError, TypeError, OverflowError):  # 1e309 Hz: an infinite rate
            return refused(400, _("a listening session starts from a score, a tempo and a rate"))
        if rate not in RATES:
            return refused(400, _("{rate} Hz is not a rate a page records at").format(rate=rate))
        with speaking(lang):
            timeline = arrange(
                resolve(key), section, Tempo.from_bpm(bpm), 1, reading=Reading.parse(reading)
            )
        with self._lock:
            if len(self.sessions) >= MAX_SESSIONS:
                return refused(409, _("another page is listening; end it first"))
            pushed = PushedInput(_("the browser's microphone"), rate)
            listener = AudioListener(pushed)
            track = Track.single(timeline)
            lines = HeardLines(listener, track, HIT_RATE, window=1_000_000)
            for hit in track.hits(HIT_RATE):  # the whole score laid out: the performer leads
                lines.check.expect(hit)
            session = Session(
                secrets.token_urlsafe(12),
                pushed,
                listener,
                lines,
                float(timeline.tempo.interval),
                lang,
                track,
                self.clock(),
            )
            self.sessions[session.id] = session
            self._watch()
        return 200, {"id": session.id}

    def feed(self, session: Session, body: bytes) -> Answer:
        """The samples sent heard; the lines since the last answer."""
        import numpy as np

        samples = np.frombuffer(body[: len(body) // 4 * 4], dtype="<f4").astype(np.float32)
        with session.lock:
            session.last = self.clock()
            heard = session.listener.listener.samples.frames + len(samples)
            if heard > MAX_SECONDS * session.input.rate:
                self.close(session)
                return refused(
                    413, _("a take heard here is at most {n:g} s long").format(n=MAX_SECONDS)
                )
            session.input.push(samples)
            try:
                return 200, session.answer()
            except DrumscoreError:
                self.close(session)
                raise

    def end(self, session: Session) -> Answer:
        """The last lines, and check's report of the whole take; the session closed."""
        from drumscore.performance.check import check

        with session.lock:
            try:
                out = session.answer()
                with speaking(session.lang):
                    performance = session.listener.finish()
                    result = check(performance, session.track, pace=session.pace)
                    out["report"], out["check"] = self.report(result)
            finally:
                self.close(session)
        return 200, out

    def close(self, session: Session) -> None:
        with self._lock:
            if self.sessions.pop(session.id, None) is not None:
                session.listener.close()

    def _close_idle(self) -> None:
        """Close the sessions that have sent nothing for IDLE_SECONDS."""
        now = self.clock()
        with self._lock:
            idle = [s for s in self.sessions.values() if now - s.last > IDLE_SECONDS]
        for session in idle:
            self.close(session)

    def _watch(self) -> None:
        """While a session is open, close the idle ones every second (a page that stops
        sending, or went away, sends nothing to close it by)."""
        if self._watching:
            return
        self._watching = True

        def watch() -> None:
            while True:
                time.sleep(1.0)
                self._close_idle()
                with self._lock:
                    if not self.sessions:
                        self._watching = False
                        return

        threading.Thread(target=watch, daemon=True).start()


def _body(handler: http.server.BaseHTTPRequestHandler, limit: int) -> bytes | Answer:
    """The request's body, of a length it states and at most `limit` bytes."""
    try:
        length = int(handler.headers.get("Content-Length", ""))
    except ValueError:
        return refused(411, _("a listening request states its length"))
    if not 0 <= length <= limit:
        return refused(413, _("a listening request is at most {n} bytes").format(n=limit))
    try:
        body = handler.rfile.read(length)
    except OSError:  # not sent in time (the connection's timeout), or the client went
        body = b""
    if len(body) < length:
        return refused(400, _("a listening request sent less than the length it states"))
    return body


def _send(handler: http.server.BaseHTTPRequestHandler, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    if status != 200:  # a body left unread is not taken for the next request
        handler.close_connection = True
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json; charset=utf-8")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
