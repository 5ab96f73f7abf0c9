"""The files drumscore writes and reads, chosen by extension: one table for every command."""

from __future__ import annotations

from pathlib import Path

from drumscore.errors import OptionError
from drumscore.i18n import _, list_text

#: Audio sample rates: the default, and the range accepted.
DEFAULT_RATE = 44100
MIN_RATE, MAX_RATE = 8000, 192000
#: Peak level of a normalised render: −1 dBFS leaves headroom for lossy encoders.
PEAK_DBFS = -1.0

#: The score's files, by extension: (kind, format name). kind is 'audio', 'midi', 'notation'
#: (MusicXML, written by music21) or 'engraved' (pages engraved from it by Verovio or
#: MuseScore); render writes them all, check reads the audio and MIDI ones.
FORMATS: dict[str, tuple[str, str]] = {
    ".wav": ("audio", "WAV"),
    ".flac": ("audio", "FLAC"),
    ".ogg": ("audio", "OGG"),
    ".mid": ("midi", "MIDI"),
    ".midi": ("midi", "MIDI"),
    ".musicxml": ("notation", "musicxml"),
    ".xml": ("notation", "musicxml"),
    ".mxl": ("notation", "mxl"),
    ".svg": ("engraved", "svg"),
    ".png": ("engraved", "png"),
    ".pdf": ("engraved", "pdf"),
}


def _of_kind(kind: str) -> dict[str, str]:
    return {suffix: name for suffix, (of, name) in FORMATS.items() if of == kind}


AUDIO = _of_kind("audio")
MIDI = set(_of_kind("midi"))
NOTATION = _of_kind("notation")
ENGRAVED = _of_kind("engraved")

#: The one table of what each output writes, by extension: (kind, format name). Every command
#: asks it (choose) for the file an option names, and every list of formats in help and errors
#: comes from here:
#: - "score": render's -o, every format of FORMATS;
#: - "audio": compare's --audio, the audio formats;
#: - "plot": the pictures --plot draws with matplotlib (compare, check, play, collate);
#: - "apparatus": collate's -o, the apparatus as text, JSON, CSV, TEI (.tei, .xml) or MEI;
#: - "edition": extract's -o and --add, an edition file.
OUTPUTS: dict[str, dict[str, tuple[str, str]]] = {
    "score": FORMATS,
    "audio": {suffix: FORMATS[suffix] for suffix in AUDIO},
    "plot": {".png": ("plot", "png"), ".svg": ("plot", "svg")},
    "apparatus": {
        ".txt": ("apparatus", "text"),
        ".json": ("apparatus", "json"),
        ".csv": ("apparatus", "csv"),
        ".tei": ("apparatus", "tei"),
        ".xml": ("apparatus", "tei"),
        ".mei": ("apparatus", "mei"),
    },
    "edition": {".toml": ("edition", "toml")},
}
PLOT = {suffix: name for suffix, (_kind, name) in OUTPUTS["plot"].items()}


def suffixes(*kinds: str, output: str = "score") -> str:
    """The extensions of `kinds` (every kind if none) that `output` writes, as help and errors
    list them: ".wav .flac .ogg"."""
    table = OUTPUTS[output]
    return " ".join(s for s, (kind, _name) in table.items() if not kinds or kind in kinds)


DEFAULT_SUBTYPE = {"WAV": "PCM_16", "FLAC": "PCM_16", "OGG": "VORBIS"}


def choose(output: str, path: str | Path, parameter: str) -> tuple[str, str]:
    """(kind, format name) of the file `output` writes to `path`, by its extension; an
    OptionError naming `parameter` and every extension `output` writes, for one it cannot."""
    ext = Path(path).suffix.lower()
    found = OUTPUTS[output].get(ext)
    if found is not None:
        return found
    known = suffixes(output=output)
    if ext:
        message = _(
            "{parameter} {path!r}: it does not write {extension} files; use one of: {known}"
        )
    else:
        message = _(
            "{parameter} {path!r} has no extension to tell its format by; use one of: {known}"
        )
    raise OptionError(
        message.format(parameter=parameter, path=str(path), extension=ext, known=known),
        option=parameter,
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
