"""Part three: play --listen --input and --record, --json, --calibrate, the user data
folder; check's noisy takes, flams, quick strokes and broken kits; extract's passage shapes;
the site of hostile user edition ids and of long editions; with signals."""

from __future__ import annotations

import os
import random
import signal
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from .inputs import _device, _edition, _still_a_device
from .runner import HERE, PASSAGE, PLANTED, Case

SHORT = "○□○半○□"
_RENDERED: dict[str, bytes] = {}


def _rendered(argv: tuple[str, ...]) -> bytes:
    """The bytes `drumscore render ARGV -o X.wav` writes, made once for the whole campaign."""
    key = " ".join(argv)
    if key not in _RENDERED:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "take.wav"
            subprocess.run(
                [sys.executable, "-m", "drumscore", "render", *argv, "-o", str(out)],
                check=True,
                capture_output=True,
                env={**os.environ, "PYTHONPATH": str(HERE)},
            )
            _RENDERED[key] = out.read_bytes()
    return _RENDERED[key]


def _take(folder: Path) -> None:
    """take.wav: SHORT at 240/min, as render makes it; and the fake MIDI synth's ports."""
    (folder / "take.wav").write_bytes(_rendered((SHORT, "--bpm", "240")))
    (folder / "fm.json").write_text(
        '{"inputs": [], "outputs": ["Fake synth"], "notes": []}', encoding="utf-8"
    )


def _take_then(change: Callable[[Path], None]) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        _take(folder)
        change(folder)

    return make


def _text_take(folder: Path) -> None:
    (folder / "take.wav").write_text("not a recording at all\n" * 50, encoding="utf-8")


def _empty_take(folder: Path) -> None:
    (folder / "take.wav").write_bytes(b"")


def _wav_header(channels: int, rate: int, frames: bytes, bits: int = 16) -> bytes:
    align = max(channels, 1) * bits // 8
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * align % 2**32, align, bits)
    body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
    body += b"data" + struct.pack("<I", len(frames)) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


def _zero_channels(folder: Path) -> None:
    (folder / "take.wav").write_bytes(_wav_header(0, 44100, b"\0" * 4000))


def _huge_rate(folder: Path) -> None:
    (folder / "take.wav").write_bytes(_wav_header(1, 2_000_000_000, b"\0\0" * 4000))


def _mid_stroke(folder: Path) -> None:
    """The take cut off 40 ms into its third stroke (the header still says the whole length)."""
    data = (folder / "take.wav").read_bytes()
    (folder / "take.wav").write_bytes(data[: 44 + int(0.54 * 44100) * 4])


def _gsm_short(folder: Path) -> None:
    import soundfile as sf

    data, rate = sf.read(folder / "take.wav", always_2d=True)
    os.remove(folder / "take.wav")
    sf.write(folder / "take.wav", data.mean(axis=1), rate, format="WAV", subtype="GSM610")


def _fifo_take(folder: Path) -> None:
    os.remove(folder / "take.wav")
    os.mkfifo(folder / "take.wav")


def _zero_device_take(folder: Path) -> None:
    os.remove(folder / "take.wav")
    os.symlink("/dev/zero", folder / "take.wav")


def _folder_take(folder: Path) -> None:
    os.remove(folder / "take.wav")
    (folder / "take.wav").mkdir()


def _silent_hour(folder: Path) -> None:
    frames = b"\0\0" * 8000 * 600  # ten minutes at 8 kHz
    (folder / "take.wav").write_bytes(_wav_header(1, 8000, frames))


def _grow(inputs: Path, out: Path) -> None:
    with open(inputs / "take.wav", "ab") as f:
        f.write(os.urandom(1 << 20))


def _vanish(inputs: Path, out: Path) -> None:
    os.remove(inputs / "take.wav")


def _swap_for_text(inputs: Path, out: Path) -> None:
    (inputs / "take.wav.new").write_text("not audio", encoding="utf-8")
    os.replace(inputs / "take.wav.new", inputs / "take.wav")


def _rec_there(folder: Path) -> None:
    _take(folder)
    (folder / "rec.wav").write_text(PLANTED, encoding="utf-8")


def _rec_device(folder: Path) -> None:
    _take(folder)
    _device(folder)


def _rec_whole_or_none(inputs: Path, out: Path) -> bool:
    """rec.wav is either not there or a whole recording (every frame its header counts)."""
    import soundfile as sf

    place = out / "rec.wav"
    if not place.exists():
        return True
    try:
        data, _ = sf.read(place)
        return len(data) == sf.info(place).frames > 0
    except (RuntimeError, ValueError):
        return False


def _rec_made(inputs: Path, out: Path) -> bool:
    return (out / "rec.wav").is_file() and _rec_whole_or_none(inputs, out)


def _is_json(text: str) -> bool:
    import json

    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _noisy(gain: float, noise: float) -> Callable[[Path], None]:
    """noisy.wav: take.wav at `gain` in white noise of standard deviation `noise`."""

    def make(folder: Path) -> None:
        import numpy as np
        import soundfile as sf

        _take(folder)
        data, rate = sf.read(folder / "take.wav", always_2d=True)
        rng = np.random.default_rng(7)
        data = data * gain + rng.normal(0, noise, data.shape)
        sf.write(folder / "noisy.wav", np.clip(data, -1, 1), rate)

    return make


_noisy_take = _noisy(0.3, 0.05)


def _flam_take(folder: Path) -> None:
    """SHORT with each stroke played twice, the second 25 ms after the first (a flam)."""
    import numpy as np
    import soundfile as sf

    _take(folder)
    data, rate = sf.read(folder / "take.wav", always_2d=True)
    shift = int(0.025 * rate)
    flam = data.copy()
    flam[shift:] += 0.6 * data[:-shift]
    sf.write(folder / "flam.wav", flam / np.abs(flam).max(), rate)


def _quick_take(folder: Path) -> None:
    (folder / "quick.wav").write_bytes(_rendered(("○□" * 20, "--bpm", "900", "--rate", "16000")))


def _kit(files: dict[str, bytes | str]) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        _take(folder)
        kit = folder / "kit"
        kit.mkdir()
        for name, data in files.items():
            path = kit / name
            if isinstance(data, str):
                path.write_text(data, encoding="utf-8")
            else:
                path.write_bytes(data)

    return make


KIT_TOML = '[pi]\nsamples = "{pi}"\n[gu]\nsamples = "gu.wav"\n'


def _editions(ids: list[str], strokes: int = 6) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        mine = folder / "editions"
        mine.mkdir()
        rng = random.Random(len(ids))
        for n, ident in enumerate(ids):
            signs = "".join(rng.choice("○□") for _ in range(strokes))
            text = _edition(
                ident.replace("\\", "\\\\").replace('"', '\\"'), signs[:3] + "半" + signs[3:]
            )
            (mine / f"e{n}.toml").write_text(text, encoding="utf-8")

    return make


def _passage_with(change: Callable[[str], str]) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        text = PASSAGE.read_text(encoding="utf-8")
        (folder / "passage.txt").write_text(change(text), encoding="utf-8")

    return make


def _data_is_a_file(folder: Path) -> None:
    _take(folder)
    (folder / "data").write_text(PLANTED, encoding="utf-8")


def _latency_garbage(kind: str) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        _take(folder)
        store = folder / "data" / "drumscore"
        store.mkdir(parents=True)
        if kind == "folder":
            (store / "latency.json").mkdir()
        elif kind == "link":
            os.symlink("/dev/zero", store / "latency.json")
        else:
            (store / "latency.json").write_text('{"a -> b": [1, 2', encoding="utf-8")

    return make


def since_cases() -> list[Case]:
    """What landed after issue 43 was filed: play --listen (its takes, --record, --json,
    --calibrate, the user data folder), check's noisy takes, flams, quick strokes and kits,
    extract's passage shapes, the site of hostile user editions; with signals."""
    found: list[Case] = []
    midi = {"MIDO_BACKEND": "fake_midi_backend", "FAKE_MIDI": "{in}/fm.json"}
    play = ["play", SHORT, "--bpm", "240", "--midi-port", "synth", "--listen"]
    listen = [*play, "--input", "{in}/take.wav"]

    def live(name: str, argv: list[str], statuses: set[int], setup=_take, **kw) -> None:
        kw.setdefault("bound", 40)
        kw.setdefault("group", "play --listen")
        env = {**midi, **kw.pop("env", {})}
        found.append(Case(name, argv, statuses, setup, env=env, tests_on_path=True, **kw))

    live("a good take", listen, {0})
    live("a good take, --json", [*listen, "--json"], {0}, printed=_is_json)
    live("a take that is text", listen, {2}, _take_then(lambda f: _text_take(f)))
    live("an empty take", listen, {2}, _take_then(lambda f: _empty_take(f)))
    live("a take of 0 channels", listen, {2}, _take_then(lambda f: _zero_channels(f)))
    live("a take at 2,000,000,000 Hz", listen, {2}, _take_then(lambda f: _huge_rate(f)))
    live("a GSM 6.10 take", listen, {0}, _take_then(_gsm_short))
    live("a take that ends mid-stroke", listen, {0}, _take_then(_mid_stroke))
    live("a FIFO with no writer as the take", listen, {2}, _take_then(_fifo_take), bound=20)
    live("/dev/zero as the take", listen, {2}, _take_then(_zero_device_take), bound=20)
    live("a folder as the take", listen, {2}, _take_then(_folder_take))
    live("a take that is not there", [*play, "--input", "{in}/gone.wav"], {2})
    live("ten minutes of silence as the take", listen, {0, 2}, _take_then(_silent_hour))
    for at in (0.3, 1.0):
        live(f"the take grows at {at} s", listen, {0, 2}, during=(at, _grow))
        live(f"the take vanishes at {at} s", listen, {0, 2}, during=(at, _vanish))
        live(f"the take becomes text at {at} s", listen, {0, 2}, during=(at, _swap_for_text))
    live("--listen with no --input and no device", play, {1, 2})
    live("a bad take, --json", [*listen, "--json"], {2}, _take_then(lambda f: _text_take(f)))

    record = [*listen, "--record", "{out}/rec.wav"]
    rec = {"group": "play --record"}
    live("--record a take", record, {0}, after=_rec_made, **rec)
    live(
        "--record a take, --json",
        [*record, "--json"],
        {0},
        after=_rec_made,
        printed=_is_json,
        **rec,
    )
    live(
        "--record over a file, no --force",
        [*listen, "--record", "{in}/rec.wav"],
        {2},
        _rec_there,
        says="--force",
        **rec,
    )
    live(
        "--record --force over a device node",
        [*listen, "--record", "{in}/null.wav", "--force"],
        {2},
        _rec_device,
        after=_still_a_device,
        **rec,
    )
    live(
        "--record onto its own --input, --force",
        [*listen, "--record", "{in}/take.wav", "--force"],
        {2},
        **rec,
    )
    live("--record as .mp3", [*listen, "--record", "{out}/rec.mp3"], {2}, **rec)
    live("--record into no folder", [*listen, "--record", "{out}/no/rec.wav"], {2}, **rec)
    live("--record without --listen", ["play", SHORT, "--record", "{out}/rec.wav"], {2}, **rec)
    for kind in ("file", "link", "folder"):
        for at in (0.4, 1.2):
            live(
                f"a {kind} appears at --record's place {at} s in",
                record,
                {2},
                plant=(kind, "rec.wav"),
                plant_after=at,
                says="appeared|exists already|is a folder",
                **rec,
            )
        live(
            f"a {kind} appears at --record's place as it is written",
            record,
            {2},
            plant=(kind, "rec.wav"),
            says="appeared",
            **rec,
        )
    rng = random.Random(51)
    for signum, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)):
        for _ in range(3):
            delay = rng.uniform(0.2, 2.4)
            live(
                f"{signal.Signals(signum).name} at {delay:.2f} s into --record",
                record,
                # Ctrl-C ends the play, not the command: the report of what was heard follows
                # (exit 2 when too little was heard to judge); 130 before the play began
                {0, status} if signum != signal.SIGINT else {0, 2, 130},
                signum=signum,
                delay=delay,
                after=_rec_whole_or_none,
                **rec,
            )

    data = {"group": "--calibrate, data folder"}
    live("--calibrate with no device", ["play", "--calibrate"], {1, 2}, **data)
    live(
        "--calibrate --device nosuch --input nosuch",
        ["play", "--calibrate", "--device", "nosuch", "--input", "nosuch"],
        {1, 2},
        **data,
    )
    live(
        "--calibrate --input a take",
        ["play", "--calibrate", "--input", "{in}/take.wav"],
        {1, 2},
        **data,
    )
    live("--calibrate with a score", ["play", SHORT, "--calibrate"], {1, 2}, **data)
    for name, argv, statuses in (
        ("listen", listen, {0}),
        ("extract --add", ["extract", str(PASSAGE), "--add"], {1, 2}),
        ("list", ["list"], {0}),
    ):
        live(
            f"a file where the data folder goes: {name}",
            argv,
            statuses,
            _data_is_a_file,
            env={"XDG_DATA_HOME": "{in}/data"},
            **data,
        )
    for kind in ("garbage", "folder", "link"):
        live(
            f"latency.json is {'/dev/zero' if kind == 'link' else kind}: listen",
            listen,
            {0},
            _latency_garbage(kind),
            env={"XDG_DATA_HOME": "{in}/data"},
            **data,
        )

    chk = {"group": "check"}
    live(
        "check of a noisy take",
        ["check", "{in}/noisy.wav", SHORT, "--bpm", "240"],
        {2},
        _noisy_take,
        says="dB",
        **chk,
    )
    live(
        "play --listen to a noisy take",
        [*play, "--input", "{in}/noisy.wav"],
        {2},
        _noisy_take,
        says="dB",
        **chk,
    )
    live(
        "check of a take drowned in noise",
        ["check", "{in}/noisy.wav", SHORT, "--bpm", "240"],
        {2},
        _noisy(0.1, 0.1),
        **chk,
    )
    live(
        "check of a take of flams",
        ["check", "{in}/flam.wav", SHORT, "--bpm", "240"],
        {0},
        _flam_take,
        **chk,
    )
    live(
        "check of 40 strokes at 900/min",
        ["check", "{in}/quick.wav", "○□" * 20, "--bpm", "900"],
        {0, 2},
        _quick_take,
        **chk,
    )
    live(
        "check of a quick take at 60/min",
        ["check", "{in}/quick.wav", "○□" * 20],
        {0, 2},
        _quick_take,
        **chk,
    )
    good_wav = _wav_header(1, 44100, (b"\x00\x40" + b"\0\0" * 50) * 200)
    for name, files in (
        ("--kit with no kit.toml", {"readme.txt": "hello"}),
        ("--kit of TOML garbage", {"kit.toml": "[pi\nsamples = "}),
        (
            "--kit naming a missing sample",
            {"kit.toml": KIT_TOML.format(pi="no.wav"), "gu.wav": good_wav},
        ),
        (
            "--kit with a text sample",
            {"kit.toml": KIT_TOML.format(pi="pi.wav"), "pi.wav": "text", "gu.wav": good_wav},
        ),
        (
            "--kit with a sample of 0 channels",
            {
                "kit.toml": KIT_TOML.format(pi="pi.wav"),
                "pi.wav": _wav_header(0, 44100, b"\0" * 400),
                "gu.wav": good_wav,
            },
        ),
        (
            "--kit naming a sample outside",
            {"kit.toml": KIT_TOML.format(pi="../../../../dev/zero"), "gu.wav": good_wav},
        ),
        (
            "--kit naming a folder as a sample",
            {"kit.toml": KIT_TOML.format(pi="."), "gu.wav": good_wav},
        ),
    ):
        live(
            f"check {name}",
            ["check", "{in}/take.wav", SHORT, "--bpm", "240", "--kit", "{in}/kit"],
            {2},
            _kit(files),
            bound=20,
            **chk,
        )
    live(
        "check --kit /dev/zero",
        ["check", "{in}/take.wav", SHORT, "--bpm", "240", "--kit", "/dev/zero"],
        {2},
        bound=20,
        **chk,
    )

    for name, change in (
        ("an unclosed 《", lambda t: t.replace("薛鼓注", "《薛鼓注", 1)),
        ("an unopened 》", lambda t: t.replace("薛鼓注", "薛》鼓注", 1)),
        (
            "《薛》鼓 labels",
            lambda t: t.replace("魯鼓○", "《魯》鼓○").replace("薛鼓○", "《薛》鼓○"),
        ),
        ("labels that disagree", lambda t: t.replace("魯鼓○", "薛鼓○", 1)),
        ("a heading line of labels only", lambda t: "魯鼓 薛鼓\n" + t),
        ("a million labels", lambda t: "魯鼓" * 1_000_000 + "\n" + t),
        ("a million 《", lambda t: "《" * 1_000_000 + "\n" + t),
        ("simplified 鲁鼓", lambda t: t.replace("魯鼓", "鲁鼓")),
        ("mixed scripts", lambda t: t.replace("○", "〇", 3).replace("□", "口", 3)),
        ("a 10 MB line", lambda t: t + "○" * 3_000_000 + "\n"),
        ("nothing but 《》", lambda t: "《》\n" * 1000),
    ):
        found.append(
            Case(
                f"extract of {name}",
                ["extract", "{in}/passage.txt", "-o", "{out}/e.toml"],
                {0, 2},
                _passage_with(change),
                bound=60,
                group="extract",
            )
        )

    ed = {"group": "site of user editions", "env": {"DRUMSCORE_EDITIONS": "{in}/editions"}}
    site = ["site", "{out}/s"]
    for name, ids in (
        ("CJK ids", ["禮記甲", "礼记甲", "禮記乙"]),
        ("ids equal but for case", ["Mine", "mine", "MINE"]),
        ("ids equal after NFKC", ["ｍｉｎｅ", "mine"]),
        ("ids equal after NFC", ["caf\u00e9", "cafe\u0301"]),
        ("ids of slashes and dots", ["../up", "a/b", "..", "."]),
        ("ids of spaces and marks", ["a b", "a_b", "a-b", "a?b", "a#b"]),
        ("a 300-character id", ["鼓" * 300]),
        ("a 300-character ASCII id", ["x" * 300]),
        ("an id with a NUL-like control", ["a\u0007b", "a\u202eb"]),
    ):
        found.append(Case(f"site of {name}", site, {0, 2}, _editions(ids), bound=300, **ed))
    found.append(
        Case(
            "site of two 8,000-stroke editions",
            site,
            {0},
            _editions(["long1", "long2"], 8000),
            bound=300,
            **ed,
        )
    )
    for signum, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGKILL, -9)):
        delay = rng.uniform(1.0, 6.0)
        found.append(
            Case(
                f"{signal.Signals(signum).name} at {delay:.2f} s: site of CJK ids",
                site,
                {0, status},
                _editions(["禮記甲", "礼记甲"]),
                signum=signum,
                delay=delay,
                bound=300,
                **ed,
            )
        )
    return found
