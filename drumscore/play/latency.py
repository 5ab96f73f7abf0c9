"""The round trip of a sound card, measured: clicks played through an output and heard back
through an input by check's own listener, the delay of each and their spread, stored per pair of
devices in the user's data folder (e.g. ~/.local/share/drumscore/latency.json), so that the
strokes heard through that input are put on the clock of the score played through that output.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drumscore.errors import PerformanceError, PlaybackError
from drumscore.i18n import _

if TYPE_CHECKING:
    from drumscore.play.audio import OutputDevice

#: The clicks played: how many, how far apart (s), and the silence before the first (s).
CLICKS = 8
GAP = 0.4
LEAD = 0.3
#: A click is heard back within this of its sending (s), or not at all.
LONGEST = 0.35


@dataclass(frozen=True, slots=True)
class Latency:
    """The round trip from `output` to `input`: its median (s), the spread of the clicks about it
    (their largest difference from it, s), and how many clicks were heard back."""

    output: str
    input: str
    seconds: float
    spread: float
    clicks: int


def store_path() -> Path:
    """Where the measured round trips are kept: the user's data folder (as the editions folder
    is found, corpus.user_folders)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("drumscore", appauthor=False)) / "latency.json"


def _key(output: str, input: str) -> str:
    return f"{output} -> {input}"


def _stored() -> dict[str, Any]:
    path = store_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def stored(output: str, input: str) -> Latency | None:
    """The round trip measured from `output` to `input`, if it has been."""
    found = _stored().get(_key(output, input))
    try:
        return Latency(**found) if isinstance(found, dict) else None
    except TypeError:
        return None


def store(latency: Latency) -> Path:
    """Keep a measured round trip (written atomically, beside the others)."""
    from drumscore.files.atomic import write_bytes

    path = store_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = _stored()
    data[_key(latency.output, latency.input)] = asdict(latency)
    text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
    write_bytes(path, text.encode("utf-8"))
    return path


def clicks(rate: int) -> tuple[Any, list[float]]:
    """The sound played to measure by (CLICKS strokes of the built-in kit's 鼙, GAP apart, mono
    float32 at `rate`) and when each starts (s)."""
    import numpy as np

    from drumscore.model import Drum
    from drumscore.render.kit import builtin_kit

    voice = builtin_kit().at_rate(rate).voice(Drum.PI)
    sound = voice.layers[-1].samples[0].data.mean(axis=1).astype(np.float32)
    starts = [LEAD + k * GAP for k in range(CLICKS)]
    signal = np.zeros(round((LEAD + CLICKS * GAP + 0.5) * rate), dtype=np.float32)
    for start in starts:
        at = round(start * rate)
        piece = sound[: len(signal) - at]
        signal[at : at + len(piece)] += piece
    signal *= 0.8 / float(np.max(np.abs(signal)))
    return signal, starts


def measure(output: OutputDevice, input: OutputDevice) -> Latency:
    """Play the clicks through `output` while recording `input` (PortAudio's duplex playrec),
    find them in the recording with check's listener, and measure each one's delay."""
    import numpy as np

    from drumscore.performance.stream import Listener
    from drumscore.play.audio import load_sounddevice

    sd = load_sounddevice()
    rate = int(input.default_rate)
    signal, starts = clicks(rate)
    try:
        recorded = sd.playrec(
            signal[:, None],
            samplerate=rate,
            channels=1,
            dtype="float32",
            device=(input.index, output.index),
        )
        sd.wait()
    except (ValueError, sd.PortAudioError) as exc:
        raise PlaybackError(
            _("cannot play through {output!r} and record {input!r} at once: {error}").format(
                output=output.name, input=input.name, error=exc
            )
        ) from None
    mono = np.asarray(recorded, dtype=np.float32).reshape(len(recorded), -1).mean(axis=1)
    listener = Listener(rate, source=input.name)
    for at in range(0, len(mono), 512):
        listener.feed(mono[at : at + 512])
    try:
        heard = [s.time for s in listener.finish().strokes]
    except PerformanceError:
        heard = []
    delays = []
    for start in starts:
        back = [t - start for t in heard if 0 <= t - start < LONGEST]
        if back:
            delays.append(back[0])
    if len(delays) < CLICKS // 2:
        raise PlaybackError(
            _(
                "heard {n} of the {count} clicks played through {output!r} back through "
                "{input!r}: turn the sound up, or put the microphone near the speaker"
            ).format(n=len(delays), count=CLICKS, output=output.name, input=input.name)
        )
    median = float(np.median(delays))
    spread = max(abs(d - median) for d in delays)
    return Latency(output.name, input.name, median, float(spread), len(delays))
