"""What a build makes once for all its pages and languages: the staff engravings (in worker
processes beside the build, or taken from an earlier site), the MIDI files and the partners of
the scores."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from drumscore import __version__
from drumscore.conductor.timeline import Timeline
from drumscore.site.staff import Staff, first_head, staff_spaces, staff_svgs

#: A file in every built site with staff notation: the file of each engraving, by the hash of
#: what it was engraved from, so that a rebuild engraves only what is new.
STAVES = ".drumscore-staves.json"


class Artefacts:
    """What a build makes once for all its pages and languages. The staff engravings, each keyed
    by what it is engraved from (the MusicXML document of a music, its head's words stood in for
    by STAFF_HEAD, drumscore's and Verovio's versions; each page sets its own words in the head):
    made once for every score and language of that music, in worker processes beside the build
    (one a core beside the build's own), or taken from an earlier site where the same key was
    engraved (the head's words set again). The MIDI files (in English: the same in every
    language, copied from the first language's) and the partners of the scores (the same in
    every language)."""

    def __init__(self, earlier: Path | None, engraving: bool = True) -> None:
        """`earlier`: the folder of an earlier site, whose engravings are taken; `engraving`
        false for a build that engraves nothing (no MusicXML, no staff), which starts no worker."""
        self.earlier: dict[str, tuple[Path, str]] = {}  # key -> file, the hash of its bytes
        if earlier is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError, TypeError, KeyError):
                found = json.loads((earlier / STAVES).read_text("utf-8"))
                self.earlier = {k: (earlier / v["file"], v["sha256"]) for k, v in found.items()}
        # key -> the key of its phone's engraving, and the two engravings (None once released:
        # then read back from the files this build wrote of them)
        self.engravings: dict[
            str, tuple[str, Future[tuple[bytes | None, bytes | None]] | None]
        ] = {}
        self.staves: dict[str, Staff | None] = {}
        # key -> the file of this build that holds it, and the hash of its bytes
        self.files: dict[str, tuple[Path, str]] = {}
        # the site of the first language, once built: a later language's MIDI files are its
        self.midi_from: Path | None = None
        self.partners: dict[str, str] | None = None
        self.engraved = 0
        self._pool: ProcessPoolExecutor | None = None
        version = _verovio()
        self._engraver = f"drumscore {__version__}; verovio {version}\n".encode()
        if engraving and version and not self.earlier:  # every staff to engrave: start now
            self._start()

    def write_midi(self, timeline: Timeline, site: Path, name: str) -> None:
        """Write the MIDI file of `timeline` (as `drumscore render` writes it) to site/NAME,
        made once for every language: a later language's is a copy of the first language's
        file of that name (the same score, section, tempo and reading: all a site's timeline
        varies, and all its name says)."""
        from drumscore.render.midi import midi_bytes

        if self.midi_from is not None:
            shutil.copyfile(self.midi_from / name, site / name)
        else:
            (site / name).write_bytes(midi_bytes(timeline))

    def request(self, musicxml: bytes, strokes: int) -> str:
        """The key of the staff of `musicxml`, a phone's (`strokes` a line, as staff_svgs
        has it) engraved with it, the engraving started if not asked for yet."""
        key = self._key(musicxml)
        if key not in self.engravings:
            phone_key = self._key(musicxml, strokes)
            engraving = self._engrave((key, phone_key), musicxml, strokes)
            self.engravings[key] = phone_key, engraving
        return key

    def _key(self, musicxml: bytes, strokes: int | None = None) -> str:
        narrow = b"" if strokes is None else f"narrow {strokes}\n".encode()
        return hashlib.sha256(self._engraver + narrow + musicxml).hexdigest()

    def _engrave(
        self, keys: tuple[str, str], musicxml: bytes, strokes: int
    ) -> Future[tuple[bytes | None, bytes | None]]:
        done: Future[tuple[bytes | None, bytes | None]] = Future()
        kept = [self._kept(key) for key in keys]
        if kept[0] is not None and kept[1] is not None:
            done.set_result((kept[0], kept[1]))
            return done
        self.engraved += sum(k is None for k in kept)  # the page's and the phone's
        self._start()
        if self._pool is None:  # one core: no worker process is worth it
            done.set_result(staff_svgs(musicxml, strokes))
            return done
        return self._pool.submit(staff_svgs, musicxml, strokes)

    def _start(self) -> None:
        """The engraving workers, forked now (once): one a core beside the build's own, none on
        one core. A worker costs its start, and each page of the build's memory that it or the
        build writes to after the fork is copied: forked before the build has read the corpus
        and loaded music21, the copies are fewer (a few tenths of a second of CPU less)."""
        if self._pool is not None or cores() < 2:
            return
        # what engraves, which the build sets the staves' words with too: loaded once, for both
        import drumscore.render.verovio  # noqa: F401

        self._pool = ProcessPoolExecutor(
            max_workers=cores() - 1, initializer=worker_signals, initargs=(os.getpid(),)
        )
        self._pool.submit(os.getpid)  # the executor forks its workers at the first task

    def _kept(self, key: str) -> bytes | None:
        """The engraving of `key` in the earlier site, as that build wrote it; or None."""
        if key in self.earlier:
            path, digest = self.earlier[key]
            with contextlib.suppress(OSError):
                kept = path.read_bytes()
                if hashlib.sha256(kept).hexdigest() == digest:
                    return kept
        return None

    def staff(self, key: str) -> Staff | None:
        """The engravings of `key` (as request gave it) and what they measure; None without
        Verovio."""
        if key not in self.staves:
            phone_key, engraving = self.engravings[key]
            svg: bytes | None
            phone: bytes | None
            if engraving is None:  # released once its pages were written: as they have it
                svg = self.files[key][0].read_bytes()
                phone = self.files[phone_key][0].read_bytes() if phone_key in self.files else None
            else:
                svg, phone = engraving.result()
            found = None
            if svg is not None:
                found = Staff(
                    key,
                    phone_key,
                    svg,
                    phone,
                    staff_spaces(svg),
                    staff_spaces(phone) if phone else None,
                    first_head(phone) if phone else None,
                )
            self.staves[key] = found
        return self.staves[key]

    def release(self, key: str) -> None:
        """Let go of the engravings of `key` (as request gave it) once its pages are written: a
        build of thousands of editions holds one music's at a time. Asked for again (by a page
        of another language), they are read back from the files written of them, as an
        earlier site's are: each page sets its own words in the head."""
        staff = self.staves.get(key)
        if staff is None or key not in self.files:
            return  # none engraved, or not written
        if staff.phone is not None and staff.phone_key not in self.files:
            return
        del self.staves[key]
        self.engravings[key] = (staff.phone_key, None)

    def write(self, key: str, path: Path, engraving: bytes) -> None:
        """Write the engraving of `key` to `path`; the first file of each key is kept (keep)."""
        path.write_bytes(engraving)
        self.files.setdefault(key, (path, hashlib.sha256(engraving).hexdigest()))

    def keep(self, work: Path) -> None:
        """Where this build's engravings are, in work/STAVES, for the next build."""
        if self.files:
            kept = {
                key: {"file": path.relative_to(work).as_posix(), "sha256": digest}
                for key, (path, digest) in self.files.items()
            }
            text = json.dumps(kept, indent=0, sort_keys=True) + "\n"
            (work / STAVES).write_text(text, encoding="utf-8")

    def settle(self) -> None:
        """Every engraving asked for made (not held: see staff), and the worker processes
        ended."""
        for _phone_key, engraving in self.engravings.values():
            if engraving is not None:
                engraving.result()
        self.close()
        self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def worker_signals(parent: int) -> None:
    """An engraving worker leaves Ctrl-C to the build, which stops it (no traceback of its own),
    and ends at once on SIGTERM or SIGHUP; it ends with its `parent` (the build killed outright,
    SIGKILL: the system sends it SIGKILL too, where it can) and holds none of the caller's
    streams (its stdin, stdout and stderr are the null device), so nothing waiting on the
    build's output waits on a worker."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _die_with(parent)
    null = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(null, stream)
    os.close(null)


#: prctl's option that has the system send a signal to a process when its parent ends (Linux).
_PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """Have the system kill this process when `parent` ends; if it has ended already, end now."""
    import ctypes
    import signal

    with contextlib.suppress(AttributeError, OSError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent ended before the call
        os._exit(1)


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _verovio() -> str:
    """The version of Verovio that engraves, which the engraving depends on ("" without it)."""
    from importlib import metadata

    try:
        return metadata.version("verovio")
    except metadata.PackageNotFoundError:
        return ""
