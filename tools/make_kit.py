"""Synthesise the built-in drum kit: ``pi.wav`` (○ 鼙), ``gu.wav`` (□ 鼓) and ``count.wav``.

The two voices follow 陸德明's 釋文 on the 投壺 drum scores:

* ○ 鼙 「其聲下，其音榻榻然」 — low and soft, a dull damped "ta-ta": a small drum with a
  slack, heavily damped head, struck with a soft stick, so its partials die within a few
  tenths of a second and little above the first few membrane modes is heard.
* □ 鼓 「其聲高，其音鏜鏜然」 — high and loud, a ringing "tang-tang": a big barrel drum with a
  taut head, struck with a hard stick, so bright inharmonic partials ring for over a second.

Each drum is a modal model of a struck circular membrane: exponentially decaying sinusoids
at the ideal-membrane frequencies (Bessel zeros j_mn / j_01), weighted by the mode shape at
the strike point and by the stick's contact spectrum, with a downward pitch glide at the
attack (tension modulation), a filtered-noise stick transient and a gentle shell resonance.
The only randomness is the stick noise, drawn from a fixed seed, so output is bit-for-bit
reproducible.

The count-in sound, ``count.wav``, is neither drum: a wood block's dry "tok", a few modes of a
free bar (ratios 1 : 2.76 : 5.40) around 1.2 kHz dying within 60 ms, and a short click, so
it stands apart from both membranes by pitch and by shortness. It has its own fixed seed, so
adding it changed neither drum.

Usage: ``python tools/make_kit.py [--out DIR]`` (default ``drumscore/render/samples/``).
"""

from __future__ import annotations

import argparse
from functools import cache
from pathlib import Path

import numpy as np
import soundfile as sf
from scipy import signal, special

RATE = 44100
SEED = 19470  # any fixed value; changing it changes only the stick noise
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "drumscore" / "render" / "samples"

# Per-drum parameters.  Frequencies in Hz, times in seconds, levels in dB.
PI = {
    "file": "pi.wav",
    "duration": 0.5,
    "peak_dbfs": -10.0,  # soft: clearly below 鼓
    "f0": 128.0,  # slack head: 「其聲下」
    "n_modes": 24,
    "strike_radius": 0.55,  # fraction of the head radius from the centre
    "tau0": 0.050,  # decay time constant of the fundamental: heavily damped
    "decay_exp": 1.1,  # higher modes die faster: tau_k = tau0 / ratio_k**decay_exp
    "contact_hz": 380.0,  # soft stick: long contact time, low-passed excitation
    "tilt": -0.5,  # extra spectral slope of the mode amplitudes, ratio**tilt
    "glide": 0.015,  # relative pitch drop from attack to rest (tension modulation)
    "glide_tau": 0.025,
    "split": 0.0,  # detuning of degenerate (m > 0) mode pairs; none on a damped head
    "jitter": 0.004,  # random relative detuning per mode: a real head's uneven tension
    "stick_gain": 0.35,
    "stick_band": (120.0, 900.0),  # dull felt-and-wood thud
    "stick_tau": 0.006,
    "body_hz": 210.0,
    "body_q": 3.0,
    "body_gain": 0.4,
    "mic_angle": 0.04,  # half the angle between the two pickups, radians
    "fade": 0.03,
}

GU = {
    "file": "gu.wav",
    "duration": 1.6,
    "peak_dbfs": -1.0,  # loud: near full scale
    "f0": 172.0,  # taut head: 「其聲高」
    "n_modes": 120,
    "strike_radius": 0.42,
    "tau0": 0.34,  # long ringing tail
    "decay_exp": 0.7,
    "contact_hz": 1600.0,  # hard stick: short contact, bright excitation
    "tilt": -0.6,
    "glide": 0.05,  # loud strike stretches the head more, so a larger glide
    "glide_tau": 0.06,
    "split": 0.003,  # slight beating of mode pairs gives the shimmering "tang"
    "jitter": 0.006,
    "stick_gain": 0.5,
    "stick_band": (1500.0, 7000.0),  # hard wooden click
    "stick_tau": 0.0025,
    "body_hz": 95.0,
    "body_q": 4.0,
    "body_gain": 0.25,
    "mic_angle": 0.06,
    "fade": 0.08,
}

KIT = {"pi": PI, "gu": GU}

COUNT = {
    "file": "count.wav",
    "duration": 0.12,
    "peak_dbfs": -6.0,
    "f0": 1180.0,  # a hollow wooden block's main resonance
    "ratios": (1.0, 2.756, 5.404),  # free-free bar modes
    "amps": (1.0, 0.35, 0.12),
    "tau": (0.028, 0.012, 0.006),
    "click_gain": 0.25,
    "click_band": (2000.0, 8000.0),
    "click_tau": 0.0015,
    "fade": 0.02,
}
COUNT_SEED = SEED + 1


@cache
def membrane_modes(count: int) -> list[tuple[float, int, float]]:
    """Return the ``count`` lowest ideal-membrane modes as (ratio to j_01, m, j_mn)."""
    j01 = special.jn_zeros(0, 1)[0]
    modes = []
    for m in range(count):
        for zero in special.jn_zeros(m, count):
            modes.append((zero / j01, m, zero))
    modes.sort()
    return modes[:count]


def mode_amplitudes(p: dict, angle: float) -> list[tuple[float, int, float]]:
    """Weight each mode by its shape at the strike point, the stick contact and the tilt.

    ``angle`` is the pickup's azimuth relative to the strike; it only affects m > 0 modes,
    which is what decorrelates the two channels slightly.
    """
    out = []
    for ratio, m, zero in membrane_modes(p["n_modes"]):
        shape = special.jv(m, zero * p["strike_radius"]) / abs(special.jv(m + 1, zero))
        contact = 1.0 / np.sqrt(1.0 + (ratio * p["f0"] / p["contact_hz"]) ** 4)
        amp = shape * contact * ratio ** p["tilt"] * np.cos(m * angle)
        out.append((ratio, m, amp))
    return out


def modal_tone(p: dict, t: np.ndarray, angle: float, jitter: np.ndarray) -> np.ndarray:
    """Sum of decaying membrane partials with a pitch glide at the attack.

    ``jitter`` detunes each mode slightly; without it the ideal modes refocus into sharp
    rim echoes that sound like a click train rather than a skin.
    """
    # Phase of f(t) = f * (1 + glide * exp(-t / glide_tau)), integrated in closed form.
    warped = t + p["glide"] * p["glide_tau"] * (1.0 - np.exp(-t / p["glide_tau"]))
    tone = np.zeros_like(t)
    for (ratio, m, amp), jit in zip(mode_amplitudes(p, angle), jitter, strict=True):
        tau = p["tau0"] / ratio ** p["decay_exp"]
        decay = np.exp(-t / tau)
        detunes = (1.0,) if m == 0 or not p["split"] else (1.0 - p["split"], 1.0 + p["split"])
        for d in detunes:
            freq = p["f0"] * ratio * d * (1.0 + jit)
            tone += amp / len(detunes) * decay * np.sin(2 * np.pi * freq * warped)
    return tone


def stick_transient(p: dict, n: int, rng: np.random.Generator) -> np.ndarray:
    """Band-passed noise burst for the stick's contact with the head."""
    t = np.arange(n) / RATE
    sos = signal.butter(2, p["stick_band"], btype="bandpass", fs=RATE, output="sos")
    burst = signal.sosfilt(sos, rng.standard_normal(n)) * np.exp(-t / p["stick_tau"])
    return burst / np.max(np.abs(burst))


def body_resonance(p: dict, x: np.ndarray) -> np.ndarray:
    """Add a gentle shell/cavity resonance on top of the head's sound."""
    b, a = signal.iirpeak(p["body_hz"], p["body_q"], fs=RATE)
    return x + p["body_gain"] * signal.lfilter(b, a, x)


def fade_out(x: np.ndarray, seconds: float) -> np.ndarray:
    """Raised-cosine fade over the last ``seconds`` so the tail ends exactly at zero."""
    n = int(seconds * RATE)
    x = x.copy()
    x[-n:] *= 0.5 * (1.0 + np.cos(np.linspace(0.0, np.pi, n)))[:, None]
    return x


def synthesize(p: dict, rng: np.random.Generator) -> np.ndarray:
    """Render one drum as a (frames, 2) float array at its designed peak level."""
    n = int(p["duration"] * RATE)
    t = np.arange(n) / RATE
    jitter = p["jitter"] * rng.uniform(-1.0, 1.0, p["n_modes"])
    jitter[0] = 0.0  # keep the fundamental at the designed pitch
    stick = stick_transient(p, n, rng)
    channels = []
    for angle in (-p["mic_angle"], p["mic_angle"]):
        tone = modal_tone(p, t, angle, jitter)
        tone = tone / np.max(np.abs(tone)) + p["stick_gain"] * stick
        channels.append(body_resonance(p, tone))
    stereo = np.stack(channels, axis=1)
    stereo *= 10 ** (p["peak_dbfs"] / 20) / np.max(np.abs(stereo))
    return fade_out(stereo, p["fade"])


def wood_block(p: dict, rng: np.random.Generator) -> np.ndarray:
    """The count sound: decaying bar modes and a stick click, the same in both channels."""
    n = int(p["duration"] * RATE)
    t = np.arange(n) / RATE
    tone = sum(
        a * np.exp(-t / tau) * np.sin(2 * np.pi * p["f0"] * r * t)
        for r, a, tau in zip(p["ratios"], p["amps"], p["tau"], strict=True)
    )
    sos = signal.butter(2, p["click_band"], btype="bandpass", fs=RATE, output="sos")
    click = signal.sosfilt(sos, rng.standard_normal(n)) * np.exp(-t / p["click_tau"])
    mono = tone / np.max(np.abs(tone)) + p["click_gain"] * click / np.max(np.abs(click))
    stereo = np.stack([mono, mono], axis=1)
    stereo *= 10 ** (p["peak_dbfs"] / 20) / np.max(np.abs(stereo))
    return fade_out(stereo, p["fade"])


def write_kit(out_dir: Path) -> dict[str, Path]:
    """Write every drum of the kit, and the count sound, into ``out_dir`` as 24-bit stereo WAV."""
    out_dir.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(SEED)
    paths = {}
    for name, p in KIT.items():
        paths[name] = out_dir / p["file"]
        sf.write(paths[name], synthesize(p, rng), RATE, subtype="PCM_24")
    paths["count"] = out_dir / COUNT["file"]
    count = wood_block(COUNT, np.random.default_rng(COUNT_SEED))
    sf.write(paths["count"], count, RATE, subtype="PCM_24")
    return paths


def envelope_db(mono: np.ndarray, frame: int = 220) -> np.ndarray:
    """Level of consecutive ~5 ms frames in dB relative to full scale."""
    frames = mono[: len(mono) // frame * frame].reshape(-1, frame)
    return 20 * np.log10(np.sqrt(np.mean(frames**2, axis=1)) + 1e-12)


def decay_time(mono: np.ndarray, drop_db: float = 40.0, frame: int = 220) -> float:
    """Seconds from the loudest frame until the level stays ``drop_db`` below it."""
    env = envelope_db(mono, frame)
    top = int(np.argmax(env))
    above = np.nonzero(env >= env[top] - drop_db)[0]
    return (above[-1] + 1 - top) * frame / RATE


def spectrum(mono: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Magnitude spectrum (Hann window, zero-padded) and its frequencies."""
    n = 1 << 17
    mag = np.abs(np.fft.rfft(mono * np.hanning(len(mono)), n))
    return np.fft.rfftfreq(n, 1 / RATE), mag


def centroid(mono: np.ndarray) -> float:
    """Spectral centroid in Hz: a single figure for how bright the sound is."""
    freqs, mag = spectrum(mono)
    return float(np.sum(freqs * mag) / np.sum(mag))


def fundamental(mono: np.ndarray) -> float:
    """Lowest clear spectral peak (within 20 dB of the strongest) above 40 Hz."""
    freqs, mag = spectrum(mono)
    db = 20 * np.log10(mag / mag.max() + 1e-12)
    peaks, _ = signal.find_peaks(db, height=-20, prominence=6)
    peaks = peaks[freqs[peaks] > 40]
    return float(freqs[peaks[0]])


def measure(path: Path) -> dict[str, float]:
    """The figures printed for each sample; centroid is over the first 200 ms."""
    audio, rate = sf.read(path)
    mono = audio.mean(axis=1)
    return {
        "peak_dbfs": 20 * np.log10(np.max(np.abs(audio))),
        "rms_100ms_dbfs": 20 * np.log10(np.sqrt(np.mean(mono[: rate // 10] ** 2))),
        "centroid_hz": centroid(mono[: rate // 5]),
        "decay_40db_s": decay_time(mono),
        "fundamental_hz": fundamental(mono),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args(argv)
    for name, path in write_kit(args.out).items():
        figures = "  ".join(f"{k}={v:.2f}" for k, v in measure(path).items())
        print(f"{name}: {path}\n    {figures}")


if __name__ == "__main__":
    main()
