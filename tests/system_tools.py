"""The system tools some tests use, each found the way drumscore (or the test) finds it.

A test asks for one with the marker `@pytest.mark.requires("musescore")` (tests/conftest.py
turns a missing tool into a skip that names the Debian package). `.ci/without-tools` runs the
suite with all of them out of reach, to prove each such test asks.
"""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Callable
from pathlib import Path

#: The General MIDI SoundFont the tests render with (Debian's fluid-soundfont-gm).
SOUNDFONT = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")


def chromium_path() -> str | None:
    """Chromium for the browser tests: DRUMSCORE_CHROMIUM, else `chromium` on PATH."""
    named = os.environ.get("DRUMSCORE_CHROMIUM")
    if named:
        return named if Path(named).is_file() or shutil.which(named) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _musescore() -> str:
    from drumscore.errors import DrumscoreError
    from drumscore.render.musescore import find_musescore

    try:
        find_musescore()
    except (DrumscoreError, ImportError) as exc:
        return str(exc)
    return ""


def _program(name: str) -> Callable[[], str]:
    return lambda: "" if shutil.which(name) else f"no {name} on PATH"


def _chromium() -> str:
    return "" if chromium_path() else "no chromium on PATH (or DRUMSCORE_CHROMIUM)"


def _library(module: str) -> Callable[[], str]:
    def missing() -> str:
        try:
            __import__(module)
        except (ImportError, OSError) as exc:  # a wrapper without its C library is an OSError
            return f"{module} cannot load its library: {exc}"
        return ""

    return missing


def _soundfont() -> str:
    return "" if SOUNDFONT.is_file() else f"{SOUNDFONT} is missing"


#: name -> (what says why it is missing, or "" when present; the Debian package)
TOOLS: dict[str, tuple[Callable[[], str], str]] = {
    "musescore": (_musescore, "musescore3"),
    "chromium": (_chromium, "chromium"),
    "xmllint": (_program("xmllint"), "libxml2-utils"),
    "fluidsynth": (_library("fluidsynth"), "libfluidsynth3"),
    "soundfont": (_soundfont, "fluid-soundfont-gm"),
    "portaudio": (_library("sounddevice"), "libportaudio2"),
    "node": (_program("node"), "nodejs"),
    # a JACK server on its dummy driver (paced by a timer, no sound card), and a JACK client
    # that plays a recording from its ports: a capture device PortAudio lists as any other
    "jackd": (_program("jackd"), "jackd2"),
    "sndfile-jackplay": (_program("sndfile-jackplay"), "sndfile-tools"),
}


@functools.cache
def missing(name: str) -> str:
    """Why tool `name` cannot be used here, with the package that brings it; "" if it can."""
    check, package = TOOLS[name]
    why = check()
    return f"{why} (Debian package {package})" if why else ""
