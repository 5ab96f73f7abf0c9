"""Audio file output with soundfile: WAV, FLAC or OGG, written atomically, whole or streamed."""

from __future__ import annotations

import errno
import os
import struct
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

import numpy as np

from drumscore import __version__
from drumscore.conductor.track import Track
from drumscore.files.atomic import atomic_path, write_failed
from drumscore.files.format_choice import audio_format
from drumscore.files.signals import held
from drumscore.i18n import N_, _, in_english

#: A RIFF WAV file cannot pass 4 GiB; longer renders are written as RF64 (still .wav).
WAV_LIMIT = 4 * 1024**3 - 1024**2
_BYTES = {"PCM_U8": 1, "PCM_S8": 1, "PCM_16": 2, "PCM_24": 3, "PCM_32": 4, "FLOAT": 4, "DOUBLE": 8}


#: What libsndfile says of a file it cannot read, as the reader's language says it: its own
#: words are English, and a message in Chinese carries a clause of Chinese instead.
_UNREADABLE = {
    "format not recognised": N_("its format is not recognised"),
    "unknown format": N_("it holds data in an unknown format"),
    "file is empty": N_("the file is empty"),
    "unsupported": N_("libsndfile does not support its encoding"),
    "malformed": N_("its header is malformed"),
}


def unreadable(exc: BaseException) -> str:
    """Why a file could not be read as audio, in the reader's language: libsndfile's reason
    (or soundfile's) told by a message of the catalogs, a system error by its own text."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    said = str(exc).casefold()
    for words, message in _UNREADABLE.items():
        if words in said:
            return _(message)
    return _("libsndfile cannot read it")


def write_audio(
    path: str | Path,
    audio: np.ndarray,
    rate: int,
    subtype: str | None = None,
    tags: Mapping[str, str] | None = None,
) -> None:
    """Write a float array to `path`; the format follows the extension."""
    channels = 1 if audio.ndim == 1 else audio.shape[1]
    stream_audio(path, [audio], rate, len(audio), subtype, channels, tags)


@in_english
def tags_for(track: Track) -> dict[str, str]:
    """The metadata that says what a render holds: its title and the citation of each reading,
    in English whatever the reader's language, so that a render is the same file in every one."""
    return {
        "title": track.heading,
        "comment": track.comment,
        "software": f"drumscore {__version__}",
    }


def stream_audio(
    path: str | Path,
    blocks: Iterable[np.ndarray],
    rate: int,
    frames: int,
    subtype: str | None = None,
    channels: int = 2,
    tags: Mapping[str, str] | None = None,
    cues: Sequence[tuple[int, str]] = (),
) -> None:
    """Write `blocks` (about `frames` frames in all) one after another, as they come.

    Memory stays that of one block. The file appears only when every block is written: an
    error or interruption part-way leaves no partial file and keeps any file already there.
    `tags` (title, comment, software…) go into the file's metadata: RIFF INFO or Vorbis comments.
    """
    import soundfile as sf

    fmt, subtype = audio_format(path, subtype, rate)
    if fmt == "WAV" and frames * channels * _BYTES.get(subtype, 4) > WAV_LIMIT:
        fmt = "RF64"
    with atomic_path(path) as tmp:
        # libsndfile writes through a file object of ours: closing a file it opened itself would
        # fsync it (sf_write_sync), which costs more than the render of a short score; the
        # file is renamed into place complete all the same, as every other output is
        with open(tmp, "w+b", buffering=0) as raw:
            sink = _Sink(raw)
            try:
                with held():
                    out = sf.SoundFile(
                        sink, "w", samplerate=rate, channels=channels, format=fmt, subtype=subtype
                    )
            except sf.SoundFileError as exc:
                raise write_failed(path, sink.failure(exc, tmp)) from None
            try:
                with held():
                    for key, value in (tags or {}).items():
                        setattr(out, key, value)
                pcm16 = _Pcm16() if subtype == "PCM_16" else None
                given = 0
                for block in blocks:
                    given += len(block)
                    floats = pcm16 is not None and block.dtype.kind == "f"
                    for piece in pcm16.pieces(block) if pcm16 and floats else (block,):
                        try:
                            with held():
                                out.write(piece)
                        except (sf.SoundFileError, AssertionError) as exc:
                            # soundfile asserts that every frame was written: a short write
                            raise write_failed(path, sink.failure(exc, tmp)) from None
                        if sink.error is not None:
                            raise write_failed(path, sink.error)
            finally:
                try:
                    with held():
                        out.close()
                except sf.SoundFileError as exc:
                    raise write_failed(path, sink.failure(exc, tmp)) from None
            if sink.error is not None:
                raise write_failed(path, sink.error)
        _check_frames(path, tmp, given)
        if cues:
            try:
                add_cues(tmp, fmt, cues, rate)
            except Exception as exc:
                # mutagen wraps the OSError of a full disk in its own error
                cause = exc if isinstance(exc, OSError) else exc.__context__ or exc
                if not isinstance(cause, OSError):
                    raise
                raise write_failed(path, cause) from None


def _check_frames(path: str | Path, tmp: Path, given: int) -> None:
    """Read back the frame count of the written file: a write that came out short in any way
    (even one that soundfile's own check, an assert, let through) is a WriteError."""
    import soundfile as sf

    try:
        found = sf.info(os.fsencode(tmp)).frames  # bytes: a name in any encoding
    except (sf.SoundFileError, OSError) as exc:
        reason = OSError(0, _("the written file cannot be read back ({error})").format(error=exc))
        raise write_failed(path, reason) from None
    if found != given:
        short = _("{found:,} of {given:,} frames were written (a short write)")
        raise write_failed(path, OSError(0, short.format(found=found, given=given)))


class _Sink:
    """The output file as libsndfile sees it: its writes, with a failed write (a full disk, the
    file size limit) kept as `error` and reported as written short, since an exception cannot
    travel back through libsndfile."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.error: OSError | None = None

    def write(self, data: bytes) -> int:
        """Write all of `data`, or note why not: the system may take part of a write (the last
        bytes before the disk fills or the size limit) and refuse the rest only when asked again."""
        if self.error is not None:
            return 0
        view = memoryview(data).cast("B")
        done = 0
        try:
            while done < len(view):
                count = self.raw.write(view[done:])
                if not count:
                    raise OSError(errno.EIO, _("the file system took no bytes"))
                done += count
        except OSError as exc:
            self.error = exc
        return done

    def read(self, size: int = -1) -> bytes:
        return self.raw.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.raw.seek(offset, whence)

    def tell(self) -> int:
        return self.raw.tell()

    def failure(self, exc: Exception, tmp: Path) -> OSError:
        """Why a write through libsndfile failed: the system's error if a write of ours met one,
        else libsndfile's message (a write of our own shows whether the system refused the bytes,
        since an encoder's message, such as FLAC's "problem with initialization", hides it)."""
        if self.error is not None:
            return self.error
        import soundfile as sf

        text = exc.error_string if isinstance(exc, sf.LibsndfileError) else ""
        try:
            with open(tmp, "ab", buffering=0) as probe:
                probe.write(bytes(1 << 16))
        except OSError as system:
            return system
        if isinstance(exc, AssertionError):
            text = _("fewer frames were written than given (a short write)")
        return OSError(0, text.removeprefix("System error : ").rstrip(".") or str(exc))


def add_cues(path: str | Path, fmt: str, cues: Sequence[tuple[int, str]], rate: int) -> None:
    """Cue points, each a frame and a label: a WAV file's cue and labl chunks; in FLAC and OGG
    Vorbis comments CHAPTERnnn=HH:MM:SS.mmm and CHAPTERnnnNAME=label (the Vorbis chapter
    convention). RF64 files get none."""
    if fmt == "WAV":
        _wav_cues(Path(path), cues)
    elif fmt in ("FLAC", "OGG"):
        import mutagen

        tagged = mutagen.File(str(path))
        for n, (frame, label) in enumerate(cues, 1):
            ms = round(frame * 1000 / rate)
            hours, minutes, seconds = ms // 3_600_000, ms // 60_000 % 60, ms // 1000 % 60
            stamp = f"{hours:02d}:{minutes:02d}:{seconds:02d}.{ms % 1000:03d}"
            tagged[f"CHAPTER{n:03d}"] = stamp
            tagged[f"CHAPTER{n:03d}NAME"] = label
        tagged.save()


def _chunk(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("<I", len(body)) + body + (b"\0" if len(body) % 2 else b"")


def _wav_cues(path: Path, cues: Sequence[tuple[int, str]]) -> None:
    """Append a 'cue ' chunk and a LIST 'adtl' chunk of 'labl' labels (UTF-8) to a RIFF WAV."""
    points = b"".join(
        struct.pack("<II4sIII", n, frame, b"data", 0, 0, frame)
        for n, (frame, _) in enumerate(cues, 1)
    )
    cue = _chunk(b"cue ", struct.pack("<I", len(cues)) + points)
    labels = b"".join(
        _chunk(b"labl", struct.pack("<I", n) + label.encode("utf-8") + b"\0")
        for n, (_, label) in enumerate(cues, 1)
    )
    extra = cue + _chunk(b"LIST", b"adtl" + labels)
    with path.open("r+b") as f:
        head = f.read(12)
        if head[:4] != b"RIFF" or head[8:12] != b"WAVE":
            return
        f.seek(0, 2)
        if f.tell() % 2:
            f.write(b"\0")
        f.write(extra)
        size = f.tell() - 8
        f.seek(4)
        f.write(struct.pack("<I", size))


#: Frames of a block converted to 16-bit integers and written at a time: the conversion's
#: buffers stay small (a whole block's would take one and a half times its size again).
PCM16_FRAMES = 1 << 16


class _Pcm16:
    """Float blocks (full scale ±1) to 16-bit integers, rounded and clipped (twice libsndfile's
    speed), a piece of PCM16_FRAMES at a time in two buffers kept from piece to piece."""

    def __init__(self) -> None:
        self._scaled = np.empty(0, np.float32)
        self._ints = np.empty(0, np.int16)

    def pieces(self, block: np.ndarray) -> Iterator[np.ndarray]:
        """The 16-bit samples of `block`, piece by piece; each valid until the next."""
        shape = (min(PCM16_FRAMES, len(block)), *block.shape[1:])
        if self._scaled.shape[1:] != shape[1:] or len(self._scaled) < shape[0]:
            self._scaled = np.empty(shape, np.float32)
            self._ints = np.empty(shape, np.int16)
        for start in range(0, len(block), PCM16_FRAMES):
            part = block[start : start + PCM16_FRAMES]
            scaled, ints = self._scaled[: len(part)], self._ints[: len(part)]
            np.multiply(part, np.float32(32767), out=scaled)
            np.rint(scaled, out=scaled)
            np.clip(scaled, -32768, 32767, out=scaled)
            np.copyto(ints, scaled, casting="unsafe")
            yield ints
