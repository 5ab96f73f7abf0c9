"""Drum kits: which samples sound for 鼙 and 鼓, with gain and pan, read from a kit file.

A kit file (TOML, see docs/kits.md) names one or more samples per drum, played in turn
(round-robin), optionally in velocity layers. Samples may have any rate and channel count.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from drumscore.errors import DrumscoreError, InputMissingError, KitError
from drumscore.files.reading import check_schema, open_input, parse_toml, read_input_text
from drumscore.i18n import _, clause_text
from drumscore.model import Drum

if TYPE_CHECKING:
    import numpy as np

BUILTIN_KIT = Path(__file__).with_name("samples") / "kit.toml"
#: The longest kit sample, in seconds: a stroke and its ring, with room to spare (README, "Limits").
MAX_SAMPLE_SECONDS = 60
#: The most memory a kit's samples may take decoded (float32 stereo at their own rates), every
#: sample the kit file names counted each time it is named (README, "Limits").
MAX_KIT_BYTES = 512 * 1024**2
#: Bytes a decoded frame takes: two channels of float32.
FRAME_BYTES = 2 * 4
#: A sample whose peak is below this (−80 dBFS: 16-bit rounding noise at most) is silence.
SILENCE = 1e-4


@dataclass(frozen=True, eq=False)
class Sample:
    """One recording as float32 stereo at its own rate, with the file it came from."""

    data: np.ndarray
    rate: int
    name: str = ""

    def at_rate(self, rate: int) -> Sample:
        """Resampled with soxr (very high quality); itself when the rate already matches."""
        if rate == self.rate:
            return self
        import numpy as np
        import soxr

        data = soxr.resample(self.data, self.rate, rate, quality="VHQ")
        return Sample(np.ascontiguousarray(data, np.float32), rate, self.name)


@dataclass(frozen=True, eq=False)
class Layer:
    """Samples played in turn for velocities from `velocity` up to the next layer's."""

    velocity: int
    samples: tuple[Sample, ...]


def _single(value: float) -> float:
    """`value` rounded to single precision (float32), as a Python float."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


def stereo_gain(gain: float, pan: float) -> tuple[float, float]:
    """Left and right gain of a voice: its `gain` with equal-power `pan`, unity in the centre,
    each step in single precision (float32) as the mixer's arrays have it; a product of two
    float32 values is exact in a float, so rounding it once gives float32's product."""
    angle = (pan + 1) * math.pi / 4
    root, level = _single(math.sqrt(2)), _single(gain)
    left, right = (_single(_single(_single(f(angle)) * root) * level) for f in (math.cos, math.sin))
    return left, right


@dataclass(frozen=True, eq=False)
class Voice:
    """One drum: its velocity layers (lowest first), gain and equal-power pan."""

    layers: tuple[Layer, ...]
    gain: float = 1.0
    pan: float = 0.0

    @property
    def samples(self) -> tuple[np.ndarray, ...]:
        """The arrays of the loudest layer."""
        return tuple(s.data for s in self.layers[-1].samples)

    def layer_for(self, velocity: int) -> Layer:
        """The layer that serves `velocity`: the loudest whose lower bound it reaches."""
        chosen = self.layers[0]
        for layer in self.layers:
            if layer.velocity <= velocity:
                chosen = layer
        return chosen

    @property
    def stereo_gain(self) -> np.ndarray:
        """Left and right gain (float32): stereo_gain of the voice's gain and pan."""
        import numpy as np

        return np.array(stereo_gain(self.gain, self.pan), dtype=np.float32)

    def sample_for(self, n: int, velocity: int) -> np.ndarray:
        """The n-th stroke's sample (round-robin in its layer), with gain and pan applied."""
        samples = self.layer_for(velocity).samples
        return samples[n % len(samples)].data * self.stereo_gain

    def at_rate(self, rate: int) -> Voice:
        layers = tuple(
            Layer(layer.velocity, tuple(s.at_rate(rate) for s in layer.samples))
            for layer in self.layers
        )
        return Voice(layers, self.gain, self.pan)


@dataclass(frozen=True, eq=False)
class Kit:
    """A named pair of voices. `rate` is the rate every sample has, or None while they differ."""

    name: str
    rate: int | None
    voices: dict[Drum, Voice]
    #: The count-in sound ([count] in the kit file), or None to use the built-in kit's.
    count: Voice | None = None
    #: True for the kit that ships with drumscore (builtin_kit).
    builtin: bool = False

    @property
    def described(self) -> str:
        """The kit as a sentence names it, in the reader's language: the built-in kit, or kit
        'NAME' (the name its file gives)."""
        if self.builtin:
            return _("the built-in kit")
        return _("kit {name!r}").format(name=self.name)

    def voice(self, drum: Drum) -> Voice:
        return self.voices[drum]

    def count_voice(self) -> Voice:
        """The kit's own count sound, or the built-in kit's wood block."""
        voice = self.count if self.count is not None else builtin_kit().count
        assert voice is not None  # the built-in kit has a count sound
        return voice

    def at_rate(self, rate: int) -> Kit:
        """The kit with every sample resampled once, from its own rate, to `rate`."""
        if rate == self.rate:
            return self
        return _at_rate(self, rate)


@functools.lru_cache(maxsize=8)
def _at_rate(kit: Kit, rate: int) -> Kit:
    count = kit.count.at_rate(rate) if kit.count is not None else None
    voices = {d: v.at_rate(rate) for d, v in kit.voices.items()}
    return Kit(kit.name, rate, voices, count, kit.builtin)


def read_sample(path: str | Path, written: str | None = None) -> Sample:
    """A sample file as float32 stereo: mono is doubled, more than two channels fold to mono.

    `written` is the name as the kit file gives it, for messages; the sample must be a regular
    file (files.reading) of at most MAX_SAMPLE_SECONDS.
    """
    import numpy as np
    import soundfile as sf

    from drumscore.files.audio import unreadable

    path = Path(path)
    shown = (
        _("{name!r} (resolved to {path!r})").format(name=written, path=str(path))
        if written
        else repr(str(path))
    )
    try:
        with open_input(path, "kit sample") as file:
            data, rate = _read_audio(file, shown)
    except InputMissingError:
        raise KitError(
            _("kit sample {sample} does not exist; check its name in the kit file").format(
                sample=shown
            )
        ) from None
    except (sf.LibsndfileError, RuntimeError, OSError, ValueError) as exc:
        if isinstance(exc, DrumscoreError):
            raise
        raise KitError(
            _(
                "kit sample {sample} cannot be read as audio ({reason}); use WAV, FLAC or OGG"
            ).format(sample=shown, reason=unreadable(exc))
        ) from None
    if not np.all(np.isfinite(data)):
        raise KitError(
            _("kit sample {path!r} holds invalid (NaN or infinite) values").format(path=str(path))
        )
    channels = data.shape[1]
    if channels == 1:
        data = np.repeat(data, 2, axis=1)
    elif channels > 2:
        data = np.repeat(data.mean(axis=1, keepdims=True), 2, axis=1)
    # checked after folding: channels that cancel out would play as silence
    if data.shape[0] == 0 or float(np.max(np.abs(data))) < SILENCE:
        raise KitError(
            _("kit sample {path!r} is silent; give a recording of the drum").format(path=str(path))
        )
    return Sample(np.ascontiguousarray(data, np.float32), int(rate), path.name)


def _read_audio(file: BinaryIO, shown: str) -> tuple[np.ndarray, int]:
    """The frames of an open sample file, refused before reading when longer than the cap."""
    import soundfile as sf

    with sf.SoundFile(file) as audio:
        seconds = audio.frames / audio.samplerate
        if seconds > MAX_SAMPLE_SECONDS:
            raise KitError(
                _(
                    "kit sample {sample} lasts {seconds:,.1f} s, over the limit of {limit} s for "
                    "a sample; trim it to the drum's stroke and ring"
                ).format(sample=shown, seconds=seconds, limit=MAX_SAMPLE_SECONDS)
            )
        data = audio.read(dtype="float32", always_2d=True)
    return data, audio.samplerate


def _names(value: object, where: str) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise KitError(
            _("{where}: samples must be a file name or a list of them, not {value!r}").format(
                where=where, value=value
            )
        )
    return value


def _number(table: dict, key: str, default: float, where: str) -> float:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise KitError(
            _("{where}: {key} must be a number, not {value!r}").format(
                where=where, key=key, value=value
            )
        )
    return float(value)


def _voice(table: object, key: str, what: str, folder: Path, where: str) -> Voice:
    """The voice of table [key] (`what` names its sound in messages), its samples decoded."""
    specs, gain, pan = _voice_table(table, key, what, where)
    layers = tuple(
        Layer(v, tuple(read_sample(folder / name, name) for name in names)) for v, names in specs
    )
    return Voice(layers, gain, pan)


def _voice_table(
    table: object, key: str, what: str, where: str
) -> tuple[list[tuple[int, list[str]]], float, float]:
    """What table [key] gives of its voice, checked: the sample names of each layer (by its
    lowest velocity), the gain and the pan."""
    where = f"{where} [{key}]"
    if table is None:
        raise KitError(
            _("{where} is missing; add a [{key}] table with samples = [...] for {what}").format(
                where=where, key=key, what=what
            )
        )
    if not isinstance(table, dict):
        raise KitError(
            _("{where} must be a table ([{key}] with samples = [...]), not {value!r}").format(
                where=where, key=key, value=table
            )
        )
    unknown = set(table) - {"samples", "gain_db", "pan", "layers"}
    if unknown:
        raise KitError(
            _("{where}: unknown key {key!r}; use samples, layers, gain_db, pan").format(
                where=where, key=sorted(unknown)[0]
            )
        )
    specs: list[tuple[int, list[str]]] = []
    if "samples" in table:
        specs.append((0, _names(table["samples"], where)))
    layers_value = table.get("layers", [])
    if not isinstance(layers_value, list):
        raise KitError(
            _("{where}: layers must be written as [[{key}.layers]] tables, not {value!r}").format(
                where=where, key=key, value=layers_value
            )
        )
    for layer in layers_value:
        if not isinstance(layer, dict) or "samples" not in layer:
            raise KitError(
                _("{where}: each [[{key}.layers]] needs velocity and samples").format(
                    where=where, key=key
                )
            )
        velocity = layer.get("velocity")
        if isinstance(velocity, bool) or not isinstance(velocity, int) or not 1 <= velocity <= 127:
            raise KitError(
                _("{where}: layer velocity must be a whole number 1-127, not {value!r}").format(
                    where=where, value=velocity
                )
            )
        specs.append((velocity, _names(layer["samples"], where)))
    if not specs:
        raise KitError(
            _("{where} needs samples = [...] or [[{key}.layers]]").format(where=where, key=key)
        )
    specs.sort(key=lambda spec: spec[0])
    velocities = [v for v, _ in specs]
    if len(set(velocities)) < len(velocities):
        raise KitError(
            _("{where}: two layers start at the same velocity; give each its own").format(
                where=where
            )
        )
    gain_db = _number(table, "gain_db", 0.0, where)
    if not -60 <= gain_db <= 24:
        raise KitError(
            _("{where}: gain_db must be from -60 to 24, not {value!r}").format(
                where=where, value=gain_db
            )
        )
    pan = _number(table, "pan", 0.0, where)
    if not -1 <= pan <= 1:
        raise KitError(
            _("{where}: pan must be from -1 (left) to 1 (right), not {value!r}").format(
                where=where, value=pan
            )
        )
    return specs, 10 ** (gain_db / 20), pan


_SAMPLES = (str, [str])
_VOICE = {
    "samples": _SAMPLES,
    "gain_db": float,
    "pan": float,
    "layers": [{"velocity": int, "samples": _SAMPLES}],
}
#: What a kit file holds (see files.reading.check_schema).
KIT_SCHEMA = {"name": str, "pi": _VOICE, "gu": _VOICE}


def load_kit(path: str | Path = BUILTIN_KIT) -> Kit:
    """Read a kit file (TOML), or a folder holding kit.toml: a [pi] and a [gu] table."""
    path, data, where = _kit_file(path)
    check_memory(data, path.parent, where)
    voices = {
        drum: _voice(
            data.get(drum.pinyin), drum.pinyin, f"{drum.value} {drum.symbol}", path.parent, where
        )
        for drum in Drum
    }
    count = None
    if "count" in data:
        count = _voice(data["count"], "count", _("the count-in"), path.parent, where)
    every = [*voices.values(), *([count] if count else [])]
    rates = {s.rate for v in every for layer in v.layers for s in layer.samples}
    name = data.get("name") or path.resolve().parent.name
    return Kit(str(name), rates.pop() if len(rates) == 1 else None, voices, count)


def kit_gains(path: str | Path = BUILTIN_KIT) -> dict[str, tuple[float, float]]:
    """The left and right gain (stereo_gain) of each voice of a kit file, by its table's name
    (pi, gu, and count where the kit has one), as load_kit reads them, its samples not read."""
    path, data, where = _kit_file(path)
    tables = {drum.pinyin: f"{drum.value} {drum.symbol}" for drum in Drum}
    if "count" in data:
        tables["count"] = _("the count-in")
    gains = {}
    for key, what in tables.items():
        _specs, gain, pan = _voice_table(data.get(key), key, what, where)
        gains[key] = stereo_gain(gain, pan)
    return gains


def _kit_file(path: str | Path) -> tuple[Path, dict, str]:
    """A kit file (or the kit.toml of a folder), its tables checked against KIT_SCHEMA, and how
    messages name it."""
    path = Path(path)
    if path.is_dir():
        path = path / "kit.toml"
    where = _("kit file {path!r}").format(path=str(path))
    try:
        text = read_input_text(path, "kit file")
    except InputMissingError as exc:
        raise KitError(
            clause_text([str(exc), _("give a kit.toml or the folder holding it")])
        ) from None
    data = parse_toml(text, where, KitError)
    check_schema(data, KIT_SCHEMA, where, KitError)
    unknown = sorted(set(data) - {"name", "pi", "gu", "count"})
    if unknown:
        raise KitError(
            _("{where}: unknown key {key!r}; a kit file has name, [pi], [gu] and [count]").format(
                where=where, key=unknown[0]
            )
        )
    return path, data, where


def _named(table: object) -> list[str]:
    """Every sample name a voice's table gives, layers included, each as often as it is named."""
    if not isinstance(table, dict):
        return []
    found: list[str] = []
    for spec in [table, *(table.get("layers") or [])]:
        names = spec.get("samples") if isinstance(spec, dict) else None
        found += (
            [names] if isinstance(names, str) else [n for n in names or [] if isinstance(n, str)]
        )
    return found


def _frames(path: Path) -> int:
    """Frames in a sample file, from its header; 0 if it cannot be read (the read says why)."""
    import soundfile as sf

    try:
        with open_input(path, "kit sample") as file, sf.SoundFile(file) as audio:
            return int(audio.frames)
    except (sf.LibsndfileError, RuntimeError, OSError, ValueError):
        return 0


def check_memory(data: dict, folder: Path, where: str) -> None:
    """Refuse at once, before any sample is decoded, a kit whose samples would take more than
    MAX_KIT_BYTES decoded: each file's header is read once, each naming counted."""
    names = [n for key in ("pi", "gu", "count") for n in _named(data.get(key))]
    frames: dict[str, int] = {}
    total = 0
    for name in names:
        if name not in frames:
            frames[name] = _frames(folder / name)
        total += frames[name] * FRAME_BYTES
    if total > MAX_KIT_BYTES:
        raise KitError(
            _(
                "{where} names {count:,} samples that take {mib:,.0f} MiB decoded, over the "
                "limit of {limit} MiB for a kit's samples; name fewer samples, or shorter ones "
                "(a stroke and its ring)"
            ).format(
                where=where, count=len(names), mib=total / 1024**2, limit=MAX_KIT_BYTES // 1024**2
            )
        )


@functools.cache
def builtin_kit() -> Kit:
    """The built-in kit, made by tools/make_kit.py after the 釋文's description of the two drums."""
    return dataclasses.replace(load_kit(BUILTIN_KIT), builtin=True)
