"""Takes of known truth for `bench/check_real.py`: drums that are not the built-in kit (recorded
acoustic drums of Debian's hydrogen-drumkits, General MIDI drums of a SoundFont through
FluidSynth, struck membranes modelled in numpy), played with jitter and drift, faults, flams and
quick strokes after loud ones, and put through rooms (RT60 0.3–1.5 s), noise, clipping, a
phone's chain and an 8 kHz narrow-band one.

Every take records what was played: each stroke's time (its attack, to the sample), its drum,
and the faults made on purpose, so a check of it can be scored.
"""

from __future__ import annotations

import atexit
import functools
import itertools
import math
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import soundfile as sf

from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.model import Drum

SOUNDFONT = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")
#: Debian's hydrogen-drumkits: kits of recorded acoustic drums (apt-get install hydrogen-drumkits).
HYDROGEN = Path("/usr/share/hydrogen/data/drumkits")
#: Pairs of recorded drums, 鼙 then 鼓: the files (glob patterns under HYDROGEN) of each.
REAL_PAIRS = (
    ("ForzeeStereo/Kick-*.wav", "ForzeeStereo/Snare-*.wav"),  # kick and snare
    ("ForzeeStereo/TomLow-*.wav", "ForzeeStereo/TomHigh-*.wav"),  # toms
    ("BJA_Pacific/BD_0*.aiff", "BJA_Pacific/TM_0*.aiff"),  # kick and tom
    ("circAfrique v4/Dununba1 Head Hit.wav", "circAfrique v4/Djembe[1-5] Tone.wav"),
    ("Millo_MultiLayered2/floortom_0*.flac", "Millo_MultiLayered2/bd_0*.flac"),
    ("ColomboAcousticDrumkit/tom-low-1.flac", "ColomboAcousticDrumkit/tom-hi-1.flac"),
)
OTHER = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}


@dataclass
class Truth:
    """What a take plays: the score and section it plays (and the one it is checked against),
    each stroke played (time in seconds, drum, index in the played score or -1 for an extra),
    and the faults made on purpose (indices from 1, as the check numbers strokes)."""

    played_score: str
    section: str
    checked_score: str
    repeats: int
    strokes: list[tuple[float, Drum, int]]
    missed: set[int] = field(default_factory=set)
    wrong: set[int] = field(default_factory=set)
    extra: list[float] = field(default_factory=list)
    #: Grace notes of flams: (time, drum, level in dB against their main stroke's).
    graces: list[tuple[float, Drum, float]] = field(default_factory=list)
    #: The times of the flammed main strokes.
    flammed: list[float] = field(default_factory=list)
    #: A stroke's level in dB where it is not 0 (by its time).
    gains: dict[float, float] = field(default_factory=dict)
    #: The take is too noisy to judge: the check is to say so.
    noisy: bool = False

    def beat_line(self) -> tuple[float, float]:
        """The least-squares even beat (interval, start) of the score strokes played."""
        ks = [k for _t, _d, k in self.strokes if k >= 0]
        ts = [t for t, _d, k in self.strokes if k >= 0]
        slope, start = np.polyfit(ks, ts, 1)
        return float(slope), float(start)


@dataclass
class Take:
    name: str
    condition: str
    audio: np.ndarray  # frames × channels, float32
    rate: int
    truth: Truth
    #: A kit folder of the player's own samples to check the take with (`--kit`), if any.
    kit: Path | None = None


def drums_of(score: str, section: str, repeats: int = 1) -> list[Drum]:
    timeline = arrange(resolve(score), section, repeats=repeats)
    return [s.drum for s in timeline.strokes] * repeats


def performance(
    rng: np.random.Generator,
    score: str,
    section: str = "she",
    *,
    repeats: int = 1,
    bpm: float | None = None,
    jitter_ms: float | None = None,
    drift: float = 0.0,
    start: float | None = None,
    missed: int = 0,
    wrong: int = 0,
    extra: int = 0,
    checked_as: str | None = None,
    flams: int = 0,
    quick: int = 0,
    quick_at: tuple[float, float] = (0.35, 0.45),
    quick_under: tuple[float, float] = (5.0, 10.0),
) -> Truth:
    """The strokes of a performance: an even beat at `bpm` whose pace moves by `drift` (a
    fraction, +0.1 ten per cent faster by the end), each stroke off it by normal jitter of
    `jitter_ms` (at most 2.5 times that), with faults drawn at random; `flams` strokes played
    as flams (a grace note 17–43 ms before, 11–15 dB softer), and `quick` extra strokes played
    `quick_at` (a share of the gap) after a loud stroke, `quick_under` dB under it."""
    drums = drums_of(score, section, repeats)
    n = len(drums)
    bpm = bpm if bpm is not None else float(rng.uniform(60, 110))
    jitter_ms = jitter_ms if jitter_ms is not None else float(rng.uniform(5, 30))
    start = start if start is not None else float(rng.uniform(0.3, 1.0))
    interval = 60 / bpm
    # pace moves linearly over the strokes: interval_k = interval / (1 + drift * k / n)
    beats = np.concatenate([[0.0], np.cumsum(interval / (1 + drift * np.arange(n - 1) / n))])
    jitter = np.clip(
        rng.normal(0, jitter_ms / 1000, n), -2.5 * jitter_ms / 1000, 2.5 * jitter_ms / 1000
    )
    times = start + beats + jitter
    inner = list(range(2, n - 2))
    gone = set(rng.choice(inner, size=missed, replace=False).tolist()) if missed else set()
    left = [k for k in inner if k not in gone and k - 1 not in gone and k + 1 not in gone]
    flipped = set(rng.choice(left, size=wrong, replace=False).tolist()) if wrong else set()
    strokes = [
        (float(times[k]), OTHER[d] if k in flipped else d, k)
        for k, d in enumerate(drums)
        if k not in gone
    ]
    extras = []
    if extra:
        after = rng.choice(
            [k for k in inner if k not in gone and k + 1 not in gone], size=extra, replace=False
        )
        for k in after:
            t = float(times[k] + (times[k + 1] - times[k]) * rng.uniform(0.35, 0.65))
            extras.append(t)
            strokes.append((t, Drum(rng.choice(list(Drum))), -1))
    gains: dict[float, float] = {}
    if quick:
        after = rng.choice(
            [k for k in inner if k not in gone and k + 1 not in gone and k - 1 not in gone],
            size=quick,
            replace=False,
        )
        for k in after:
            t = float(times[k] + (times[k + 1] - times[k]) * rng.uniform(*quick_at))
            extras.append(t)
            gains[float(times[k])] = 2.0  # the loud one
            gains[t] = 2.0 - float(rng.uniform(*quick_under))
            strokes.append((t, OTHER[drums[k]] if rng.uniform() < 0.5 else drums[k], -1))
    strokes.sort()
    graces, flammed = [], []
    if flams:
        main = [s for s in strokes if s[2] >= 2]
        for n in rng.choice(len(main), size=min(flams, len(main)), replace=False):
            t, d, _k = main[int(n)]
            graces.append((t - float(rng.uniform(0.017, 0.043)), d, -float(rng.uniform(11, 15))))
            flammed.append(t)
    return Truth(
        score,
        section,
        checked_as or score,
        repeats,
        strokes,
        {k + 1 for k in gone},
        {k + 1 for k in flipped},
        sorted(extras),
        sorted(graces),
        sorted(flammed),
        gains,
    )


# --- the drums ------------------------------------------------------------------------------


@functools.cache
def gm_note(note: int, velocity: int, rate: int) -> tuple[np.ndarray, int]:
    """One General MIDI drum note of FluidR3_GM rendered alone by FluidSynth (stereo float32),
    and the sample of its attack: the first that reaches a quarter of its peak."""
    import fluidsynth

    synth = fluidsynth.Synth(samplerate=float(rate), gain=0.5)
    try:
        font = synth.sfload(str(SOUNDFONT))
        synth.program_select(9, font, 128, 0)
        synth.noteon(9, note, velocity)
        head = np.asarray(synth.get_samples(int(rate * 0.2)), dtype=np.float32)
        synth.noteoff(9, note)
        tail = np.asarray(synth.get_samples(int(rate * 2.0)), dtype=np.float32)
    finally:
        synth.delete()
    sound = np.concatenate([head, tail]).reshape(-1, 2) / 32768.0
    mono = np.abs(sound).max(axis=1)
    attack = int(np.argmax(mono >= 0.25 * mono.max()))
    # the attack at sample 0 of the one-shot, a little silence kept before it
    lead = min(attack, rate // 1000)
    return sound[attack - lead :].copy(), lead


def gm_drums(notes: tuple[int, int], rate: int):
    """A player of two GM notes (鼙 on the first, 鼓 on the second), velocities varied a little."""

    def sound(drum: Drum, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        note = notes[0] if drum is Drum.PI else notes[1]
        base = 72 if drum is Drum.PI else 112
        velocity = int(np.clip(base + rng.integers(-6, 7) // 3 * 3, 1, 127))
        return gm_note(note, velocity, rate)

    return sound


#: Bessel-zero ratios of a circular membrane's first modes.
MODES = np.asarray([1.0, 1.594, 2.136, 2.296, 2.653, 2.918, 3.156, 3.501])


def membrane_drums(
    rate: int,
    *,
    low: float = 95.0,
    high: float = 165.0,
    decay_low: float = 0.25,
    decay_high: float = 1.1,
):
    """A player of two modelled membranes: 鼙 lower, softer, shorter; 鼓 higher, louder,
    longer; every stroke a little different in pitch, level and colour."""

    def sound(drum: Drum, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        f0 = (low if drum is Drum.PI else high) * rng.uniform(0.985, 1.015)
        t60 = (decay_low if drum is Drum.PI else decay_high) * rng.uniform(0.9, 1.1)
        level = (0.3 if drum is Drum.PI else 0.8) * 10 ** (rng.uniform(-2, 2) / 20)
        length = int(rate * min(3.0, t60 * 1.6))
        t = np.arange(length) / rate
        y = np.zeros(length)
        for m, ratio in enumerate(MODES):
            f = f0 * ratio
            if f > rate / 2.2:
                break
            amp = rng.uniform(0.6, 1.2) / (1 + m) ** 0.8
            decay = t60 / (1 + 0.6 * m)
            y += amp * np.cos(2 * np.pi * f * t + rng.uniform(-0.3, 0.3)) * np.exp(-6.9 * t / decay)
        stick = rng.normal(0, 1, int(rate * 0.004)) * np.exp(
            -np.arange(int(rate * 0.004)) / (rate * 0.0008)
        )
        y[: len(stick)] += 0.6 * stick
        y *= level / np.max(np.abs(y))
        return np.stack([y, y], axis=1).astype(np.float32), 0

    return sound


def _attack(mono: np.ndarray) -> int:
    """A recorded one-shot's attack: its first sample within 26 dB of its peak."""
    return int(np.argmax(np.abs(mono) >= 0.05 * np.abs(mono).max()))


@functools.cache
def real_sounds(pattern: str, rate: int) -> tuple[np.ndarray, ...]:
    """Every recorded one-shot a pattern of REAL_PAIRS names: stereo float32 at `rate`, peak 1,
    starting a millisecond before its attack."""
    import soxr

    out = []
    for path in sorted(HYDROGEN.glob(pattern)):
        data, own = sf.read(path, dtype="float32", always_2d=True)
        if data.shape[1] == 1:
            data = np.repeat(data, 2, axis=1)
        data = data[:, :2]
        if own != rate:
            data = soxr.resample(data, own, rate).astype(np.float32)
        attack = _attack(data.mean(axis=1))
        lead = min(attack, rate // 1000)
        data = data[attack - lead :]
        out.append(data / np.max(np.abs(data)))
    return tuple(out)


def have_real() -> bool:
    return all(real_sounds(p, 44100) for pair in REAL_PAIRS for p in pair)


def real_drums(pair: int, rate: int):
    """A player of a pair of recorded drums: 鼙 at −6 dB, 鼓 at −2 dB, each stroke one of the
    drum's recordings and ±2 dB."""
    patterns = REAL_PAIRS[pair % len(REAL_PAIRS)]

    def sound(drum: Drum, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        options = real_sounds(patterns[0] if drum is Drum.PI else patterns[1], rate)
        data = options[int(rng.integers(len(options)))]
        level = (0.5 if drum is Drum.PI else 0.8) * 10 ** (rng.uniform(-2, 2) / 20)
        return data * np.float32(level), min(rate // 1000, len(data))

    return sound


def swelling_drums(rate: int, *, low: float = 70.0, high: float = 180.0):
    """A player of two modelled drums whose low one swells: a soft stick's tap at the attack,
    its body rising to a peak 50–80 ms later, 10–14 dB above the tap (a big, loosely tuned drum
    heard in a room); the high one as membrane_drums plays it."""
    others = membrane_drums(rate, low=high / 1.6, high=high)

    def sound(drum: Drum, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        if drum is Drum.GU:
            return others(drum, rng)
        f0 = low * rng.uniform(0.985, 1.015)
        rise = rng.uniform(0.05, 0.08) / 2.5  # the body peaks at 2.5 time constants
        length = int(rate * 1.2)
        t = np.arange(length) / rate
        body = (1 - np.exp(-t / rise)) ** 2 * np.exp(-t / 0.35)
        y = np.zeros(length)
        for m, ratio in enumerate(MODES[:4]):
            y += np.cos(2 * np.pi * f0 * ratio * t) * body / (1 + 2 * m)
        y /= np.max(np.abs(y))
        tap = int(rate * 0.006)
        click = rng.normal(0, 1, tap) * np.exp(-np.arange(tap) / (rate * 0.0012))
        y[:tap] += click / np.max(np.abs(click)) * 10 ** (-rng.uniform(10, 14) / 20)
        y *= 0.7 * 10 ** (rng.uniform(-2, 2) / 20)
        return np.stack([y, y], axis=1).astype(np.float32), 0

    return sound


def own_kit(pair: int) -> Path:
    """A kit folder (kit.toml) of the recorded samples of a pair of REAL_PAIRS: the player's
    own samples, as `--kit` takes them."""
    folder = Path(tempfile.mkdtemp(prefix="drumscore-own-kit-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    names = {}
    for drum, pattern in zip(("pi", "gu"), REAL_PAIRS[pair % len(REAL_PAIRS)], strict=True):
        paths = sorted(HYDROGEN.glob(pattern))
        names[drum] = ", ".join(f'"{p}"' for p in paths)
    folder.joinpath("kit.toml").write_text(
        f'name = "own"\n[pi]\nsamples = [{names["pi"]}]\n[gu]\nsamples = [{names["gu"]}]\n'
    )
    return folder


def kit_drums(rate: int):
    """The built-in kit's own samples (for the phone chain on the project's kit)."""
    from drumscore.render.kit import builtin_kit

    kit = builtin_kit().at_rate(rate)

    def sound(drum: Drum, rng: np.random.Generator) -> tuple[np.ndarray, int]:
        samples = kit.voice(drum).samples
        data = samples[int(rng.integers(len(samples)))]
        mono = np.abs(data).max(axis=1)
        attack = int(np.argmax(mono >= 0.25 * mono.max()))
        return data[attack:].astype(np.float32), 0

    return sound


def mix(truth: Truth, sound, rate: int, rng: np.random.Generator, tail: float = 2.0) -> np.ndarray:
    """The strokes (and flams' grace notes) placed at their attacks, summed."""
    end = max(t for t, _d, _k in truth.strokes) + tail
    out = np.zeros((int(end * rate), 2), dtype=np.float32)
    played = [(t, d, truth.gains.get(t, 0.0)) for t, d, _k in truth.strokes] + truth.graces
    for t, drum, db in played:
        data, lead = sound(drum, rng)
        at = round(t * rate) - lead
        piece = data[: len(out) - at] * np.float32(10 ** (db / 20))
        out[at : at + len(piece)] += piece
    return out


# --- rooms and chains -----------------------------------------------------------------------


def add_noise(audio: np.ndarray, snr_db: float, rng: np.random.Generator) -> np.ndarray:
    """Pink-ish noise at `snr_db` below the take's RMS."""
    rms = float(np.sqrt(np.mean(audio**2)))
    white = rng.normal(0, 1, audio.shape)
    spectrum = np.fft.rfft(white, axis=0)
    spectrum /= np.sqrt(np.maximum(np.fft.rfftfreq(len(audio)), 1 / len(audio)))[:, None]
    noise = np.fft.irfft(spectrum, n=len(audio), axis=0)
    noise *= rms * 10 ** (-snr_db / 20) / np.sqrt(np.mean(noise**2))
    return (audio + noise).astype(np.float32)


def white(audio: np.ndarray, under_peak_db: float, rng: np.random.Generator) -> np.ndarray:
    """White noise `under_peak_db` below the take's peak (its RMS so far under it)."""
    peak = float(np.max(np.abs(audio)))
    noise = rng.normal(0, peak * 10 ** (-under_peak_db / 20), audio.shape)
    return (audio + noise).astype(np.float32)


def reverb(
    audio: np.ndarray,
    rate: int,
    rng: np.random.Generator,
    rt60: float = 0.7,
    wet: float = 0.5,
) -> np.ndarray:
    """A room: the direct sound, early reflections, and a decaying noise tail (`wet` its
    energy against the direct sound's, 0.5 is −6 dB)."""
    from scipy.signal import fftconvolve

    n = int(rate * rt60 * 1.2)
    t = np.arange(n) / rate
    ir = rng.normal(0, 1, n) * np.exp(-6.9 * t / rt60)
    ir[: int(rate * 0.008)] = 0
    ir *= wet / np.sqrt(np.sum(ir**2))
    ir[0] = 1.0
    for delay, gain in ((0.011, 0.4), (0.017, 0.3), (0.023, 0.25)):
        ir[int(rate * delay)] += gain
    wet = np.stack(
        [fftconvolve(audio[:, c], ir)[: len(audio)] for c in range(audio.shape[1])], axis=1
    )
    return (wet / np.max(np.abs(wet)) * 0.8).astype(np.float32)


def clip(audio: np.ndarray, gain_db: float = 12.0) -> np.ndarray:
    return np.clip(audio / np.max(np.abs(audio)) * 10 ** (gain_db / 20), -1, 1).astype(np.float32)


def one_silent(audio: np.ndarray) -> np.ndarray:
    out = audio.copy()
    out[:, 1] = 0
    return out


def ringing(audio: np.ndarray, truth: Truth, rate: int, rng: np.random.Generator) -> np.ndarray:
    """Sympathetic bumps between the strokes: the other drum's ring swelling 25–30 dB below
    the loudest stroke, one in most gaps."""
    peak = float(np.max(np.abs(audio)))
    out = audio.copy()
    times = [t for t, _d, _k in truth.strokes]
    for a, b in itertools.pairwise(times):
        if rng.uniform() < 0.3:
            continue
        at = a + (b - a) * rng.uniform(0.3, 0.7)
        length = int(rate * 0.35)
        t = np.arange(length) / rate
        swell = np.sin(np.pi * np.minimum(t / 0.03, 0.5)) * np.exp(-t / 0.12)
        f = rng.uniform(100, 260)
        bump = swell * np.cos(2 * np.pi * f * t) * peak * 10 ** (-rng.uniform(25, 30) / 20)
        i = int(at * rate)
        piece = bump[: len(out) - i]
        out[i : i + len(piece)] += piece[:, None]
    return out.astype(np.float32)


def lame() -> str | None:
    return shutil.which("lame")


def coded(mono: np.ndarray, rate: int, kbps: int) -> tuple[np.ndarray, int]:
    """`mono` through MP3 at `kbps` (lame) and back, the decoded take at the rate lame chose,
    shifted back by the coder's delay (found by cross-correlation: at 8 kHz lame leaves about
    70 ms of it), so the truth's times still hold."""
    import soxr
    from scipy.signal import correlate

    with tempfile.TemporaryDirectory() as folder:
        wav, mp3_path, back = Path(folder, "a.wav"), Path(folder, "a.mp3"), Path(folder, "b.wav")
        sf.write(wav, mono, rate, subtype="PCM_16")
        subprocess.run(["lame", "--quiet", "-b", str(kbps), str(wav), str(mp3_path)], check=True)
        subprocess.run(["lame", "--quiet", "--decode", str(mp3_path), str(back)], check=True)
        decoded, new_rate = sf.read(back, dtype="float32", always_2d=True)
    source = mono if new_rate == rate else soxr.resample(mono, rate, new_rate)
    n = min(len(source), len(decoded))
    most = int(new_rate * 0.2)
    lags = correlate(decoded[:n, 0], source[:n], mode="full", method="fft")[n - 1 : n - 1 + most]
    delay = int(np.argmax(lags))
    return decoded[delay:], int(new_rate)


def phone(audio: np.ndarray, rate: int, *, mp3: bool = True) -> tuple[np.ndarray, int]:
    """A phone's chain: band-pass 300–3400 Hz, then MP3 at 16 kb/s (lame) and back; the decoded
    take at the rate lame chose. Without lame, the band-pass only."""
    from scipy.signal import butter, sosfilt

    sos = butter(4, [300, 3400], btype="bandpass", fs=rate, output="sos")
    mono = sosfilt(sos, audio.mean(axis=1))
    mono = (mono / np.max(np.abs(mono)) * 0.7).astype(np.float32)
    if not mp3 or lame() is None:
        return mono[:, None], rate
    return coded(mono, rate, 16)


def gsm(audio: np.ndarray, rate: int) -> tuple[np.ndarray, int]:
    """A narrow-band phone call: band-pass 300–3400 Hz, 8 kHz, then MP3 at 8 kb/s (lame's
    nearest to a GSM coder's rate and smear) and back; without lame, the band only."""
    import soxr
    from scipy.signal import butter, sosfilt

    sos = butter(6, [300, 3400], btype="bandpass", fs=rate, output="sos")
    mono = sosfilt(sos, audio.mean(axis=1))
    narrow = soxr.resample(mono, rate, 8000)
    narrow = (narrow / np.max(np.abs(narrow)) * 0.7).astype(np.float32)
    if lame() is None:
        return narrow[:, None], 8000
    return coded(narrow, 8000, 8)


def finish(audio: np.ndarray) -> np.ndarray:
    """Peak at −1 dBFS unless clipped on purpose."""
    top = float(np.max(np.abs(audio)))
    return audio if top >= 1.0 else (audio / top * 0.89).astype(np.float32)


# --- the set --------------------------------------------------------------------------------

GM_PAIRS = ((41, 45), (47, 50), (35, 38), (64, 62), (43, 48))
SCORES = ("lu", "xue", "lu/2", "xue/2")


def takes(have_soundfont: bool = True, seed: int = 29) -> list[Take]:
    """The bench's set of takes: at least 40, each with its truth (another `seed`, another set
    of the same conditions)."""
    rng = np.random.default_rng(seed)
    out: list[Take] = []

    def gm(pair: int, rate: int = 44100):
        return (
            gm_drums(GM_PAIRS[pair % len(GM_PAIRS)], rate)
            if have_soundfont
            else membrane_drums(rate)
        )

    def add(
        name: str, condition: str, truth: Truth, audio: np.ndarray, rate: int, kit=None
    ) -> None:
        out.append(Take(name, condition, finish(audio), rate, truth, kit))

    def score() -> str:
        return SCORES[int(rng.integers(len(SCORES)))]

    for n in range(5):  # GM drums, five pairs
        t = performance(rng, score())
        add(f"gm-{n}", "GM drums", t, mix(t, gm(n), 44100, rng), 44100)
    for n in range(5):  # modelled membranes, pitches varied
        t = performance(rng, score())
        low = float(rng.uniform(80, 130))
        drums = membrane_drums(44100, low=low, high=low * rng.uniform(1.5, 2.2))
        add(f"model-{n}", "modelled drums", t, mix(t, drums, 44100, rng), 44100)
    for n in range(2):
        t = performance(rng, score())
        add(f"kit-{n}", "built-in kit", t, mix(t, kit_drums(44100), 44100, rng), 44100)
    for n, drift in enumerate((0.1, -0.1, 0.1)):
        t = performance(rng, score(), repeats=2, drift=drift)
        drums = gm(n) if n % 2 == 0 else membrane_drums(44100)
        add(f"drift-{n}", "drift ±10 %", t, mix(t, drums, 44100, rng), 44100)
    for n in range(2):
        t = performance(rng, score(), start=float(rng.uniform(4, 8)))
        drums = gm(n + 1) if n == 0 else membrane_drums(44100)
        add(f"late-{n}", "late start", t, mix(t, drums, 44100, rng), 44100)
    for snr in (30, 20, 10):
        for n in range(2):
            t = performance(rng, score())
            drums = gm(n) if n == 0 else membrane_drums(44100)
            audio = add_noise(mix(t, drums, 44100, rng), snr, rng)
            add(f"noise{snr}-{n}", f"noise {snr} dB", t, audio, 44100)
    for n in range(3):
        t = performance(rng, score())
        drums = gm(n) if n != 1 else membrane_drums(44100)
        add(f"reverb-{n}", "reverb", t, reverb(mix(t, drums, 44100, rng), 44100, rng), 44100)
    for n in range(4):
        t = performance(rng, score())
        drums = (kit_drums(44100), gm(0), membrane_drums(44100), kit_drums(44100))[n]
        audio = mix(t, drums, 44100, rng)
        if n == 3:
            audio = add_noise(audio, 20, rng)
        phoned, rate = phone(audio, 44100)
        add(f"phone-{n}", "phone chain", t, phoned, rate)
    for n in range(2):
        t = performance(rng, score())
        drums = gm(n) if n == 0 else membrane_drums(44100)
        add(f"clip-{n}", "clipping", t, clip(mix(t, drums, 44100, rng)), 44100)
    for n in range(2):
        t = performance(rng, score())
        drums = gm(n + 2) if n == 0 else membrane_drums(44100)
        add(f"onech-{n}", "one channel silent", t, one_silent(mix(t, drums, 44100, rng)), 44100)
    for rate in (22050, 48000):
        for n in range(2):
            t = performance(rng, score())
            drums = gm(n, rate) if n == 0 else membrane_drums(rate)
            add(f"rate{rate}-{n}", f"{rate / 1000:g} kHz", t, mix(t, drums, rate, rng), rate)
    faults = ((2, 0, 0), (0, 2, 0), (0, 0, 2), (1, 1, 1))
    for n, (missed, wrong, extra) in enumerate(faults):
        t = performance(rng, score(), missed=missed, wrong=wrong, extra=extra)
        drums = gm(n) if n % 2 == 0 else membrane_drums(44100)
        add(f"faults-{n}", "missed/wrong/extra", t, mix(t, drums, 44100, rng), 44100)
    for n, (played, checked, section) in enumerate(
        (("xue/2", "xue", "touhu"), ("lu/2", "lu", "she"), ("xue", "lu", "she"))
    ):
        t = performance(rng, played, section, checked_as=checked)
        drums = gm(n) if n != 1 else membrane_drums(44100)
        add(f"other-{n}", "another score", t, mix(t, drums, 44100, rng), 44100)
    for n in range(3):
        t = performance(rng, score())
        low = float(rng.uniform(80, 120))
        drums = membrane_drums(44100, low=low, high=low * 1.7, decay_low=0.6, decay_high=1.6)
        audio = mix(t, drums, 44100, rng)
        add(f"ring-{n}", "ringing", t, ringing(audio, t, 44100, rng), 44100)
    # recorded drums (else GM ones), dry, in rooms, with flams, quick strokes, narrow band
    real = have_real()

    def recorded(pair: int, rate: int = 44100):
        return real_drums(pair, rate) if real else gm(pair, rate)

    for n in range(6):
        t = performance(rng, score(), flams=2)
        add(f"real-{n}", "recorded drums", t, mix(t, recorded(n), 44100, rng), 44100)
    for n in range(9):
        t = performance(rng, score(), flams=1 + n % 2)
        drums = swelling_drums(44100) if n % 3 == 2 else recorded(n)
        rt60, wet = float(rng.uniform(0.3, 1.5)), float(rng.uniform(0.5, 1.0))
        audio = reverb(mix(t, drums, 44100, rng), 44100, rng, rt60, wet)
        add(f"room-{n}", "room", t, audio, 44100)
    for n in range(4):
        t = performance(rng, score(), flams=4)
        drums = recorded(n + 2)
        audio = mix(t, drums, 44100, rng)
        if n >= 2:
            audio = reverb(audio, 44100, rng, float(rng.uniform(0.3, 1.5)), 0.7)
        add(f"flam-{n}", "flams", t, audio, 44100)
    for n in range(4):
        t = performance(rng, score(), quick=2)
        drums = (kit_drums(44100), recorded(n), kit_drums(44100), membrane_drums(44100))[n]
        add(f"quick-{n}", "quick after loud", t, mix(t, drums, 44100, rng), 44100)
    for n in range(4):
        t = performance(rng, score())
        drums = (recorded(n), kit_drums(44100), recorded(n + 3), membrane_drums(44100))[n]
        narrow, rate = gsm(mix(t, drums, 44100, rng), 44100)
        add(f"gsm-{n}", "8 kHz GSM", t, narrow, rate)
    for n in range(2):  # a louder extra on the kit, the next stroke 0.4 of a gap after it
        t = performance(rng, score(), quick=2, quick_at=(0.55, 0.65), quick_under=(-4.0, -3.0))
        add(f"quick-kit-{n}", "quick after loud", t, mix(t, kit_drums(44100), 44100, rng), 44100)
    if real:  # checked with the player's own samples (--kit), dry and in a room
        for n, pair in enumerate((0, 1, 3)):
            t = performance(rng, score())
            audio = mix(t, recorded(pair), 44100, rng)
            add(f"ownkit-{n}", "own kit, dry", t, audio, 44100, own_kit(pair))
            rt60 = float(rng.uniform(0.6, 1.2))
            audio = reverb(audio, 44100, rng, rt60, 0.7)
            add(f"ownkit-room-{n}", "own kit, room", t, audio, 44100, own_kit(pair))
    for n in range(2):
        t = performance(rng, score())
        t.noisy = True
        audio = white(finish(mix(t, kit_drums(44100), 44100, rng)), 25 - 5 * n, rng)
        add(f"noisy-{n}", "noisy", t, audio, 44100)
    return out


def section_of(truth: Truth) -> str:
    return truth.section


def seconds(take: Take) -> float:
    return len(take.audio) / take.rate


def long_take(minutes: float, path: Path, rate: int = 44100, seed: int = 7) -> int:
    """A long take of lu played over and over at 60 strokes a minute (modelled drums, jitter
    15 ms) written to `path` (16-bit stereo WAV) block by block; the passes it plays."""
    rng = np.random.default_rng(seed)
    passes = max(1, math.floor(minutes * 60 / len(drums_of("lu", "she"))))
    truth = performance(rng, "lu", "she", repeats=passes, bpm=60, jitter_ms=15, start=0.5)
    player = membrane_drums(rate)
    bank = {d: [player(d, rng)[0] for _ in range(8)] for d in Drum}
    end = max(t for t, _d, _k in truth.strokes) + 2.0
    total = int(end * rate)
    block = rate * 10
    strokes = [(round(t * rate), d, int(rng.integers(8))) for t, d, _k in truth.strokes]
    with sf.SoundFile(path, "w", rate, 2, subtype="PCM_16") as out:
        first = 0
        for at in range(0, total, block):
            n = min(block, total - at)
            part = np.zeros((n, 2), dtype=np.float32)
            while first < len(strokes) and strokes[first][0] + rate * 3 < at:
                first += 1
            for s, d, v in strokes[first:]:
                if s >= at + n:
                    break
                sound = bank[d][v]
                lo, hi = max(at, s), min(at + n, s + len(sound))
                if hi > lo:
                    part[lo - at : hi - at] += sound[lo - s : hi - s]
            out.write(part * 0.9)
    return passes
