"""Output formats, chosen by the file extension of -o."""

from __future__ import annotations

from pathlib import Path

from drumscore.errors import OptionError
from drumscore.i18n import _, list_text

#: Audio sample rates: the default, and the range accepted.
DEFAULT_RATE = 44100
MIN_RATE, MAX_RATE = 8000, 192000

AUDIO = {".wav": "WAV", ".flac": "FLAC", ".ogg": "OGG"}
MIDI = {".mid", ".midi"}
#: Staff notation: MusicXML written by music21, and pages engraved from it (Verovio or MuseScore).
NOTATION = {".musicxml": "musicxml", ".xml": "musicxml", ".mxl": "mxl"}
ENGRAVED = {".pdf": "pdf", ".png": "png", ".svg": "svg"}
DEFAULT_SUBTYPE = {"WAV": "PCM_16", "FLAC": "PCM_16", "OGG": "VORBIS"}


def kind_of(path: str | Path) -> str:
    """'audio', 'midi', 'notation' or 'engraved' for an output path; else an OptionError."""
    ext = Path(path).suffix.lower()
    if ext in AUDIO:
        return "audio"
    if ext in MIDI:
        return "midi"
    if ext in NOTATION:
        return "notation"
    if ext in ENGRAVED:
        return "engraved"
    known = " ".join(sorted([*AUDIO, *MIDI, *NOTATION, *ENGRAVED]))
    shown = ext or _("no extension")
    raise OptionError(
        _("cannot tell the format of {path!r} ({extension}); use one of: {known}").format(
            path=str(path), extension=shown, known=known
        )
    )


def check_rate(rate: int | None) -> int:
    """The sample rate to use: DEFAULT_RATE when none is given, else one within range."""
    if rate is None:
        return DEFAULT_RATE
    if isinstance(rate, bool) or not isinstance(rate, int) or not MIN_RATE <= rate <= MAX_RATE:
        raise OptionError(
            _("rate {value} is out of range; use {low} to {high} Hz").format(
                value=rate, low=MIN_RATE, high=MAX_RATE
            ),
            option="rate",
        )
    return rate


#: The only sample rates some encodings take (Opus: 8, 12, 16, 24 and 48 kHz).
SUBTYPE_RATES = {"OPUS": (8000, 12000, 16000, 24000, 48000)}
#: The longest subtype name libsndfile has is 14 characters; anything far longer is not one.
_MAX_SUBTYPE = 40


def audio_format(
    path: str | Path, subtype: str | None = None, rate: int | None = None
) -> tuple[str, str]:
    """The soundfile (format, subtype) for an audio path, checked against libsndfile and, when
    given, against the sample rate the subtype can take."""
    import soundfile as sf

    fmt = AUDIO[Path(path).suffix.lower()]
    given = subtype or DEFAULT_SUBTYPE[fmt]
    subtype = (subtype or DEFAULT_SUBTYPE[fmt]).upper()
    if len(subtype) > _MAX_SUBTYPE or not sf.check_format(fmt, subtype):
        usable = list_text(sf.available_subtypes(fmt))
        shown = given if len(subtype) <= _MAX_SUBTYPE else given[:_MAX_SUBTYPE] + "…"
        raise OptionError(
            _("subtype {value!r} cannot be written as {format}; use one of: {usable}").format(
                value=shown, format=fmt, usable=usable
            ),
            option="subtype",
        )
    rates = SUBTYPE_RATES.get(subtype)
    if rate is not None and rates is not None and rate not in rates:
        khz = list_text(f"{r // 1000}" for r in rates)
        raise OptionError(
            _(
                "subtype {value} takes a sample rate of {khz} kHz, not {rate} Hz; give a rate of "
                "{usable}"
            ).format(value=subtype, khz=khz, rate=rate, usable=rates[-1]),
            option="subtype",
        )
    return fmt, subtype
