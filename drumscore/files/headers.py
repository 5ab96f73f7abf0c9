"""Headers that lie: every field of a recording's or a MIDI file's header that sizes the work
(rate, channels, frames; division, tempo, event count, length) is checked before it is used,
and a MIDI file is walked event by event, without keeping them, so a limit refuses it before it
is parsed whole. Each refusal is one line naming the field and the file."""

from __future__ import annotations

import struct

from drumscore.errors import PerformanceError
from drumscore.i18n import _

#: The sample rates a recording may have, in Hz (README, "Limits").
MIN_RATE = 1_000
MAX_RATE = 384_000
#: The most channels a recording may have.
MAX_CHANNELS = 64
#: The longest performance checked, a recording or a MIDI file (README, "Limits").
MAX_SECONDS = 3 * 60 * 60
#: The most events (notes, controllers, meta events…) a MIDI performance may hold.
MAX_MIDI_EVENTS = 250_000
#: Bytes of slack a PCM file may lack against the frames its header gives (a cut-off last block).
_SLACK = 1 << 16
_UNCOMPRESSED = frozenset({"WAV", "WAVEX", "RF64", "W64", "AIFF"})
_PCM_BYTES = {"PCM_U8": 1, "PCM_S8": 1, "PCM_16": 2, "PCM_24": 3, "PCM_32": 4, "FLOAT": 4}


def _refuse(path: str, field: str, reason: str) -> PerformanceError:
    return PerformanceError(
        _("performance {path!r}: its header's {field} {reason}").format(
            path=path, field=field, reason=reason
        )
    )


def check_audio_header(
    path: str, rate: int, channels: int, frames: int, kind: tuple[str, str], size: int
) -> None:
    """Refuse a recording whose header gives a rate, a channel count or a frame count that
    cannot be, or that would size the check past its limits. `kind` is libsndfile's format and
    subtype; `size` the file's size in bytes (an uncompressed file cannot hold more frames than
    its bytes make)."""
    if not MIN_RATE <= rate <= MAX_RATE:
        raise _refuse(
            path,
            _("sample rate"),
            _("is {rate:,} Hz; a recording has {low:,} to {high:,} Hz").format(
                rate=rate, low=MIN_RATE, high=MAX_RATE
            ),
        )
    if not 1 <= channels <= MAX_CHANNELS:
        raise _refuse(
            path,
            _("channel count"),
            _("is {channels:,}; a recording has 1 to {limit}").format(
                channels=channels, limit=MAX_CHANNELS
            ),
        )
    if frames < 0:
        raise _refuse(path, _("frame count"), _("is negative ({frames:,})").format(frames=frames))
    width = _PCM_BYTES.get(kind[1]) if kind[0] in _UNCOMPRESSED else None
    if width is not None and frames * channels * width > size + _SLACK:
        raise _refuse(
            path,
            _("frame count"),
            _("is {frames:,}, more than its {size:,} bytes can hold").format(
                frames=frames, size=size
            ),
        )
    seconds = frames / rate
    if seconds > MAX_SECONDS:
        raise PerformanceError(
            _(
                "performance {path!r} lasts {minutes:,.1f} minutes, over the limit of {limit} "
                "minutes; check it in parts"
            ).format(path=path, minutes=seconds / 60, limit=MAX_SECONDS // 60)
        )


def _varlen(data: bytes, at: int, end: int) -> tuple[int, int]:
    """A MIDI variable-length number at `at` (at most four bytes) and where it ends."""
    value = 0
    for _n in range(4):
        if at >= end:
            raise IndexError(at)
        byte = data[at]
        at += 1
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at
    raise ValueError(at)


def check_midi_header(data: bytes, path: str) -> None:
    """Refuse a Standard MIDI File whose header division is 0 or SMPTE time code, a tempo of 0,
    more than MAX_MIDI_EVENTS events, or a length past MAX_SECONDS, walking its events once
    without keeping them. Malformed data is left for the MIDI parser to report."""
    if len(data) < 14 or data[:4] != b"MThd":
        return
    length, _format, _tracks, division = struct.unpack(">IHHH", data[4:14])
    if division & 0x8000:
        raise _refuse(
            path,
            _("division"),
            _(
                "is SMPTE time code ({fps} frames a second), which drumscore does not read; "
                "save the file with ticks per quarter note"
            ).format(fps=256 - (division >> 8)),
        )
    if division == 0:
        raise _refuse(path, _("division"), _("is 0 ticks per quarter note; it must be at least 1"))
    at = 8 + length
    events = 0
    tempos: list[tuple[int, int]] = []  # (tick, microseconds per quarter note)
    longest = 0
    while at + 8 <= len(data):
        kind, size = data[at : at + 4], struct.unpack(">I", data[at + 4 : at + 8])[0]
        start, end = at + 8, min(len(data), at + 8 + size)
        at = at + 8 + size
        if kind != b"MTrk":
            continue
        try:
            ticks, count = _walk(data, start, end, tempos, MAX_MIDI_EVENTS - events, path)
        except PerformanceError:
            raise
        except (IndexError, ValueError):  # malformed: the parser says how
            return
        events += count
        longest = max(longest, ticks)
        if events > MAX_MIDI_EVENTS:
            raise PerformanceError(
                _(
                    "performance {path!r} holds more than {limit:,} MIDI events, the limit for a "
                    "performance; check it in parts"
                ).format(path=path, limit=MAX_MIDI_EVENTS)
            )
    seconds = _seconds(longest, sorted(tempos), division)
    if seconds > MAX_SECONDS:
        raise PerformanceError(
            _(
                "performance {path!r} lasts {minutes:,.1f} minutes by its event times (division "
                "{division}), over the limit of {limit} minutes; check it in parts"
            ).format(path=path, minutes=seconds / 60, division=division, limit=MAX_SECONDS // 60)
        )


def _walk(
    data: bytes, at: int, end: int, tempos: list[tuple[int, int]], room: int, path: str
) -> tuple[int, int]:
    """The last tick of the track between `at` and `end` and its number of events (counting
    stops past `room`); its tempo changes are added to `tempos`."""
    tick = count = 0
    running = 0
    while at < end and count <= room:
        delta, at = _varlen(data, at, end)
        tick += delta
        count += 1
        status = data[at]
        if status == 0xFF:
            meta = data[at + 1]
            size, at = _varlen(data, at + 2, end)
            if meta == 0x51 and size == 3:
                tempo = int.from_bytes(data[at : at + 3], "big")
                if tempo == 0:
                    raise _refuse(
                        path,
                        _("tempo"),
                        _("is 0 microseconds a beat at tick {tick:,}").format(tick=tick),
                    )
                tempos.append((tick, tempo))
            at += size
            if meta == 0x2F:
                break
        elif status in (0xF0, 0xF7):
            size, at = _varlen(data, at + 1, end)
            at += size
        else:
            if status & 0x80:
                running = status
                at += 1
            elif not running:
                raise ValueError(at)
            at += 1 if running & 0xF0 in (0xC0, 0xD0) else 2
    return tick, count


def _seconds(ticks: int, tempos: list[tuple[int, int]], division: int) -> float:
    """The time of tick `ticks` through the tempo changes (120 a minute until the first)."""
    seconds = 0.0
    last, tempo = 0, 500_000
    for tick, new in tempos:
        if tick >= ticks:
            break
        seconds += (tick - last) * tempo / division / 1e6
        last, tempo = tick, new
    return seconds + (ticks - last) * tempo / division / 1e6
