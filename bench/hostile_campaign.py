"""A hostile user's campaign over the causes of nothing half-done: signals at any moment (and
inside check's read, and twice during a site's clean-up), file names that are not text under the
locale, headers that lie, jobs past the whole-job limits, a broken user edition, --only without
its drum, a site folder behind a symbolic link.

Each case runs drumscore in a fresh process (python -m drumscore) in a sandbox folder of its own,
with a time bound; the table counts, over all cases: tracebacks, hangs (past the bound), inputs
lost (an input changed or gone), writes outside (a file left outside the case's output folder,
or a temporary .part left anywhere), wrong statuses. Every count should be 0.

The second part goes over what landed since: the one overwrite rule (--force on every output, and
what appears in an output's place while a command runs: a file, a link, a folder, planted when the
command's temporary file shows it is writing; a device node under --force), the list grammar, the
reading named, the programme in each language, the site's languages, a GSM 6.10 take, a broken
user edition asked for by its id; with signals at random milliseconds. A planted thing changed or
gone counts as an input lost.

The third part goes over what landed after issue 43 was filed: play --listen --input TAKE
(takes that are not audio, empty, of 0 channels or 2 GHz, GSM 6.10, cut mid-stroke, that grow,
vanish or turn to text while read, a FIFO, /dev/zero, ten minutes of silence), --record (the
overwrite rule, what appears at its place, its own take, SIGINT/SIGTERM/SIGKILL mid-take: no
half-written or leftover file), --json, --calibrate with no device, the user data folder a file
and latency.json garbage; check's noisy takes, flams, quick strokes and broken kits; extract's
passage shapes and near misses; the site of hostile user edition ids and of long editions, with
signals; serve's listening as a hostile page uses it (where the server offers it); and a score
page opened in headless Chromium at hostile addresses (tempo 0, 1e309, nosuch, script): the
page must not throw, hang, or run the value. The table counts cases per group. A process killed
outright (SIGKILL, or past its bound) may leave its temporary file: it counts only if the next
write in that folder does not remove it.

Run: python bench/hostile_campaign.py [--only WORD] [--recent | --since]
(about a quarter of an hour; cases whose name has WORD; --since: the third part only)
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PASSAGE = HERE / "tests" / "sources" / "KR1d0053_058_禮記注疏.txt"
TEMPORARY = re.compile(r"\..*\.drumscore-[1-9][0-9]*-[a-z0-9_]{8}\.part", re.DOTALL)
SIGNALS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}


@dataclass
class Case:
    """One run: `argv` (with {in} and {out} for the folders), the statuses it may end with,
    a signal sent after `delay` seconds (a second one `again` seconds later), its time bound."""

    name: str
    argv: list[str]
    statuses: set[int]
    setup: Callable[[Path], None] = lambda folder: None
    signum: int | None = None
    delay: float = 0.0
    again: int | None = None
    bound: float = 60.0
    env: dict[str, str] = field(default_factory=dict)
    wait_for_part: bool = False
    #: Once the command is writing (its temporary file seen), plant this at out/PATH: "file",
    #: "link", "folder", or "inside" (PATH made a folder holding a file of the user's).
    plant: tuple[str, str] | None = None
    #: What must hold of the folders (in, out) afterwards; false counts as an input lost.
    after: Callable[[Path, Path], bool] | None = None
    #: Words the last line said must hold (or one of several, split by |).
    says: str = ""
    #: The table's group the case is counted in.
    group: str = "before"
    #: Plant (as `plant`) this many seconds after the start instead of when a temporary file shows.
    plant_after: float | None = None
    #: Something done to the folders (in, out) this many seconds after the start.
    during: tuple[float, Callable[[Path, Path], None]] | None = None
    #: What must hold of what the command printed on stdout.
    printed: Callable[[str], bool] | None = None
    #: Extra paths for the module search (a fake MIDI backend, from tests/).
    tests_on_path: bool = False


def _passage(folder: Path) -> None:
    shutil.copy(PASSAGE, folder / "passage.txt")


def _latin1(folder: Path) -> None:
    shutil.copy(PASSAGE, os.path.join(os.fsencode(folder), b"caf\xe9.txt"))


def _utf8_name(folder: Path) -> None:
    shutil.copy(PASSAGE, folder / "鼓.txt")


def _long_take(folder: Path) -> None:
    subprocess.run(
        [
            *(sys.executable, "-m", "drumscore", "render", "lu", "--repeat", "75"),
            *("--rate", "8000", "-o", str(folder / "long.wav")),
        ],
        check=True,
        capture_output=True,
    )


def _wav_at(rate: int) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        frames = b"\0\0" * 800
        fmt = struct.pack("<HHIIHH", 1, 1, rate, rate * 2 % 2**32, 2, 16)
        body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
        body += b"data" + struct.pack("<I", len(frames)) + frames
        (folder / "lies.wav").write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)

    return make


def _smf(events: bytes, division: int = 480) -> bytes:
    track = events + b"\x00\xff\x2f\x00"
    head = b"MThd" + struct.pack(">IHHH", 6, 0, 1, division)
    return head + b"MTrk" + struct.pack(">I", len(track)) + track


_NOTES = b"\x83\x60\x99\x29\x64\x0a\x89\x29\x00" * 20


def _midi(data: bytes) -> Callable[[Path], None]:
    def make(folder: Path) -> None:
        (folder / "lies.mid").write_bytes(data)

    return make


def _edition(ident: str, printed: str, extra: str = "") -> str:
    return (
        f'id = "{ident}"\nname = "{ident}"\n[[score]]\nfigure = 1\nstate = "魯"\n'
        f'printed = "{printed}"\n{extra}'
    )


def _qin(folder: Path) -> None:
    mine = folder / "editions"
    mine.mkdir()
    count = '[[count]]\nby = "某"\nfigure = 1\nstate = "秦"\nsection = "she"\npi = 3\ngu = 2\n'
    (mine / "qin.toml").write_text(_edition("qin", "○□○半○□", count), encoding="utf-8")


def _long_edition(folder: Path) -> None:
    mine = folder / "editions"
    mine.mkdir()
    rng = random.Random(1)
    strokes = "".join(rng.choice("○□") for _ in range(10_000))
    printed = strokes[:5000] + "半" + strokes[5000:]
    (mine / "big.toml").write_text(_edition("big", printed), encoding="utf-8")


def _many_editions(folder: Path) -> None:
    mine = folder / "editions"
    mine.mkdir()
    rng = random.Random(2)
    for n in range(2000):
        strokes = "".join(rng.choice("○□") for _ in range(12))
        (mine / f"e{n}.toml").write_text(_edition(f"e{n}", strokes[:6] + "半" + strokes[6:]))


def _links(folder: Path) -> None:
    (folder / "real").mkdir()
    os.symlink("real", folder / "link")
    os.symlink("gone/deeper", folder / "dangling")


def _gsm_take(folder: Path) -> None:
    import soundfile as sf

    _wav_at(8000)(folder)  # a render of lu, as lies.wav
    subprocess.run(
        [
            *(sys.executable, "-m", "drumscore", "render", "lu", "--rate", "8000"),
            *("-o", str(folder / "pcm.wav")),
        ],
        check=True,
        capture_output=True,
    )
    data, rate = sf.read(folder / "pcm.wav", always_2d=True)
    sf.write(folder / "gsm.wav", data.mean(axis=1), rate, format="WAV", subtype="GSM610")


def _broken_by_id(folder: Path) -> None:
    editions = folder / "editions"
    editions.mkdir()
    (editions / "notes-2024.toml").write_text(_edition("mine", "○X□半○"), encoding="utf-8")


def _device(folder: Path) -> None:
    import stat

    try:
        os.mknod(folder / "null.wav", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        os.mkfifo(folder / "null.wav")


def _still_a_device(inputs: Path, out: Path) -> bool:
    import stat

    return not stat.S_ISREG(os.lstat(inputs / "null.wav").st_mode)


MINE = ("mine.wav", "mine.mid", "mine.png", "mine.toml", "mine-lu.mid")


def _mine_there(inputs: Path, out: Path) -> bool:
    return all((inputs / name).read_text(encoding="utf-8") == "my own file" for name in MINE)


def _there(folder: Path) -> None:
    _passage(folder)
    _midi(_smf(_NOTES))(folder)
    os.replace(folder / "lies.mid", folder / "take.mid")
    for name in MINE:
        (folder / name).write_text("my own file", encoding="utf-8")


PLANTED = "my own file"


def _plant(kind: str, place: Path) -> bool:
    """Plant `kind` at `place`; false if the command's own output was there first (the plant
    came too late: the case then expects the command's success)."""
    try:
        _plant_at(kind, place)
    except FileExistsError:
        return False
    return True


def _plant_at(kind: str, place: Path) -> None:
    if kind == "file":
        if place.exists():
            raise FileExistsError(place)
        place.write_text(PLANTED, encoding="utf-8")
    elif kind == "link":
        os.symlink("elsewhere", place)
    elif kind == "folder":
        place.mkdir()
        (place / "mine.txt").write_text(PLANTED, encoding="utf-8")
    else:
        place.mkdir(exist_ok=True)
        (place / "mine.txt").write_text(PLANTED, encoding="utf-8")


def _planted_intact(kind: str, place: Path) -> bool:
    try:
        if kind == "file":
            return place.read_text(encoding="utf-8") == PLANTED
        if kind == "link":
            return os.readlink(place) == "elsewhere"
        return (place / "mine.txt").read_text(encoding="utf-8") == PLANTED
    except OSError:
        return False


def recent_cases() -> list[Case]:
    """What landed since the campaign above: the overwrite rule, races, lists, readings,
    programmes and the site in each language, GSM takes, broken editions by id; and signals."""
    found = []
    rng = random.Random(43)
    outputs = [
        ["render", "lu", "-o", "{in}/mine.wav", "--rate", "8000"],
        ["render", "lu", "-o", "{in}/mine.mid"],
        ["compare", "lu/1", "lu/2", "--audio", "{in}/mine.wav"],
        ["compare", "lu/1", "lu/2", "--plot", "{in}/mine.png"],
        ["collate", "lu/1", "--plot", "{in}/mine.png"],
        ["check", "{in}/take.mid", "lu", "--plot", "{in}/mine.png"],
        ["extract", "{in}/passage.txt", "-o", "{in}/mine.toml"],
        ["render", "lu", "xue", "-o", "{in}/mine-{{state}}.mid"],
    ]
    for argv in outputs:
        found.append(
            Case(
                f"no --force over a file: {' '.join(argv[:2])} {argv[-2]}",
                argv,
                {2},
                _there,
                after=_mine_there,
                says="--force",
                bound=60,
            )
        )
    for kind in ("file", "link", "folder"):
        for argv, place in (
            (
                ["render", "lu", "--duration", "20m", "--rate", "8000", "-o", "{out}/x.flac"],
                "x.flac",
            ),
            (["render", "lu", "--duration", "20m", "--rate", "8000", "-o", "{out}/x.wav"], "x.wav"),
        ):
            found.append(
                Case(
                    f"a {kind} appears at -o {place} while render writes it",
                    argv,
                    {2},
                    plant=(kind, place),
                    says="appeared",
                    bound=120,
                )
            )
    for kind in ("inside", "file", "link"):
        found.append(
            Case(
                f"a {kind if kind != 'inside' else 'folder with a file'} appears at a site "
                "while it is built",
                ["site", "{out}/s", "--lang", "all"],
                {2},
                plant=(kind, "s"),
                bound=300,
            )
        )
    found.append(
        Case(
            "--force over a device node",
            ["render", "lu", "-o", "{in}/null.wav", "--force"],
            {2},
            _device,
            after=_still_a_device,
            says="not a regular file",
            bound=30,
        )
    )
    found.append(Case("check of a GSM 6.10 take", ["check", "{in}/gsm.wav", "lu"], {0}, _gsm_take))
    for name in ("mine", "notes-2024"):
        found.append(
            Case(
                f"a broken user edition asked for as {name}",
                ["show", f"lu@{name}"],
                {2},
                _broken_by_id,
                env={"DRUMSCORE_EDITIONS": "{in}/editions"},
                says="notes-2024.toml",
                bound=30,
            )
        )
    lists = [
        ["render", "lu", "--section", "touhu,,she", "-o", "{out}/x.mid"],
        ["render", "lu", "--section", "touhu,touhu", "-o", "{out}/x.mid"],
        ["render", "lu", "--midi-notes", "38,36,40", "-o", "{out}/x.mid"],
        ["render", "lu", "--velocity", "72,", "-o", "{out}/x.mid"],
        ["render", "lu", "--velocity", ",", "-o", "{out}/x.mid"],
        ["compare", "lu/1", "lu/2", "--reading", "zheng,,mao", "--audio", "{out}/a.wav"],
        ["compare", "lu/1", "lu/2", "--reading", "nobody", "--audio", "{out}/a.wav"],
        ["render", "lu", "--ramp", "40:60", "-o", "{out}/x.mid"],
        ["render", "lu", "--ramp", "40:60:0", "-o", "{out}/x.mid"],
        ["render", "lu", "--section", "\u534a", "-o", "{out}/x.mid"],
        ["render", "lu", "--section", "touhu," * 500, "-o", "{out}/x.mid"],
        ["site", "{out}/s", "--lang", "xx"],
        ["render", "--programme", "rite", "--state", "xue", "--lang", "all", "-o", "{out}/x.mid"],
        ["render", "--programme", "nothing", "-o", "{out}/x.mid"],
    ]
    for argv in lists:
        found.append(Case(f"bad list: {' '.join(argv)[:50]}", argv, {2}, bound=30))
    good = [
        ["compare", "lu/1", "lu/2", "--reading", "zheng,mao", "--audio", "{out}/a.wav"],
        ["render", "lu", "--section", " touhu , she ", "-o", "{out}/x-{{section}}.mid"],
        *(
            ["render", "--programme", "rite", "--state", "xue", "--lang", lang, "-o", "{out}/x.mid"]
            for lang in ("en", "zh-Hant", "zh-Hans")
        ),
        ["site", "{out}/s", "--lang", "zh-Hans"],
    ]
    for argv in good:
        found.append(Case(f"good: {' '.join(argv)[:50]}", argv, {0}, bound=300))
    for argv in (
        ["site", "{out}/s", "--lang", "all"],
        [
            "render",
            "--programme",
            "rite",
            "--state",
            "xue",
            "--lang",
            "zh-Hant",
            "-o",
            "{out}/x.flac",
        ],
        ["compare", "lu/1", "lu/2", "--reading", "zheng,mao", "--audio", "{out}/a.wav"],
        ["render", "lu", "-o", "{out}/x.wav", "--force"],
        ["list", "--lang", "zh-Hans"],
    ):
        for signum in SIGNALS:
            delay = rng.uniform(0.02, 2.0)
            found.append(
                Case(
                    f"{signal.Signals(signum).name} at {delay:.3f} s: {' '.join(argv[:2])}",
                    argv,
                    {0, SIGNALS[signum]},
                    signum=signum,
                    delay=delay,
                    bound=120,
                )
            )
    return found


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


def cases() -> list[Case]:
    found = []
    rng = random.Random(34)
    commands = [
        ["render", "lu", "-o", "{out}/a.wav", "--rate", "8000"],
        ["render", "lu", "--repeat", "4", "-o", "{out}/a.flac"],
        ["render", "lu", "-o", "{out}/a.musicxml"],
        ["collate", "--format", "mei", "-o", "{out}/c.mei"],
        ["extract", "{in}/passage.txt", "-o", "{out}/e.toml"],
        ["compare", "lu/2", "lu/2@xunzuan"],
        ["list"],
        ["site", "{out}/site"],
    ]
    for argv in commands:
        for signum in SIGNALS:
            delay = rng.uniform(0.1, 1.5)
            found.append(
                Case(
                    f"{signal.Signals(signum).name} at {delay:.2f} s: {argv[0]}",
                    argv,
                    {0, SIGNALS[signum]},
                    _passage,
                    signum,
                    delay,
                )
            )
    for delay in (0.8, 1.5, 2.5):
        found.append(
            Case(
                f"SIGTERM at {delay} s while check reads",
                ["check", "{in}/long.wav", "lu", "--repeat", "75", "--plot", "{out}/p.png"],
                {143},
                _long_take,
                signal.SIGTERM,
                delay,
            )
        )
    found.append(
        Case(
            "TERM then INT 2 ms later during a site's build",
            ["site", "{out}/site"],
            {130, 143},  # both pending when Python next runs its handlers: SIGINT's first
            signum=signal.SIGTERM,
            again=signal.SIGINT,
            wait_for_part=True,
        )
    )
    found.append(
        Case(
            "SIGTERM 3 s into a site of 2,000 user editions",
            ["site", "{out}/site"],
            {143, 2},
            _many_editions,
            signal.SIGTERM,
            3.0,
            env={"DRUMSCORE_EDITIONS": "{in}/editions"},
        )
    )
    names = [
        ("extract of a Latin-1 name", ["extract", "{in}/caf\udce9.txt", "-o", "{out}/e.toml"], {}),
        ("extract --add of a Latin-1 name", ["extract", "{in}/caf\udce9.txt", "--add"], {}),
        (
            "extract of a UTF-8 name under LC_ALL=C",
            ["extract", "{in}/鼓.txt", "-o", "{out}/e.toml"],
            {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"},
        ),
    ]
    for name, argv, env in names:
        setup = _utf8_name if "UTF-8" in name else _latin1
        found.append(Case(name, argv, {0}, setup, env={"XDG_DATA_HOME": "{out}/data", **env}))
    lies = [
        ("WAV of 2,000,000,000 Hz", "check", _wav_at(2_000_000_000), "lies.wav"),
        ("WAV of 10 Hz", "check", _wav_at(10), "lies.wav"),
        ("MIDI division 0", "check", _midi(_smf(_NOTES, 0)), "lies.mid"),
        ("MIDI SMPTE division", "check", _midi(_smf(_NOTES, 0xE728)), "lies.mid"),
        ("MIDI tempo 0", "check", _midi(_smf(b"\x00\xff\x51\x03\0\0\0" + _NOTES)), "lies.mid"),
        (
            "MIDI delta of 0x0FFFFFFF ticks",
            "check",
            _midi(_smf(_NOTES + b"\xff\xff\xff\x7f\x99\x29\x64")),
            "lies.mid",
        ),
        (
            "MIDI of a million notes (3 MB)",
            "check",
            _midi(_smf(b"\x00\x99\x29\x64" + b"\x00\x29\x64" * 1_000_000)),
            "lies.mid",
        ),
    ]
    for name, command, setup, file in lies:
        found.append(Case(name, [command, "{in}/" + file, "lu"], {2}, setup, bound=15))
    limits = [
        (
            "12 h of clicks at 1200/min to MIDI",
            ["render", "lu", "--click", "16", "--bpm", "1200", "--duration", "12h"],
            "{out}/x.mid",
        ),
        (
            "1,601 strokes ×86 to MusicXML",
            ["render", "○□" * 800 + "○", "--repeat", "86", "--bpm", "1200"],
            "{out}/x.musicxml",
        ),
        ("--only pi of □□□ to WAV", ["render", "□□□", "--only", "pi"], "{out}/x.wav"),
        ("--only gu of ○○○ to FLAC", ["render", "○○○", "--only", "gu"], "{out}/x.flac"),
    ]
    for name, argv, out in limits:
        found.append(Case(name, [*argv, "-o", out], {2}, bound=15))
    found.append(
        Case(
            "collate --plot of a 10,000-stroke user edition",
            ["collate", "lu/1", "--plot", "{out}/p.png"],
            {0},
            _long_edition,
            bound=120,
            env={"DRUMSCORE_EDITIONS": "{in}/editions"},
        )
    )
    for argv in (["list"], ["show", "lu"], ["collate", "lu/1"]):
        found.append(
            Case(
                f"a [[count]] of state 秦 in a user edition: {' '.join(argv)}",
                argv,
                {0},
                _qin,
                bound=30,
                env={"DRUMSCORE_EDITIONS": "{in}/editions"},
            )
        )
    found.append(Case("site into a symbolic link", ["site", "{in}/link"], {0}, _links, bound=120))
    found.append(
        Case("site into a dangling link", ["site", "{in}/dangling"], {2}, _links, bound=15)
    )
    return found


#: A value that would run if a page put it in its markup or evaluated it.
SCRIPT = '"\'><img src=x onerror="window.__ran=1"><script>window.__ran=1</script>'

#: Hostile settings in a score page's address (its query, as drumscore play's flags name them).
QUERIES = [
    "bpm=0",
    "bpm=1e309",
    "bpm=-60",
    "bpm=NaN",
    "bpm=Infinity",
    "bpm=0x3c",
    "repeat=1e309",
    "repeat=999999999",
    "count-in=1000000000",
    "click=99999999",
    "click-level=1e309",
    "silent-every=0",
    "strokes=0-0",
    "strokes=1-1e309",
    "ramp=0:0:0",
    "ramp=1e309:1:1",
    "ramp=40:60:0.0000001",
    "section=nosuch",
    "section=__proto__",
    "reading=constructor",
    "only=toString",
    "__proto__=1&constructor=2&hasOwnProperty=3",
    "bpm=60&bpm=0&bpm=1e309",
    "section=%E0%A4%A",
    "strokes=" + "9" * 10_000,  # (an address past 64 KiB the server refuses: 414)
    "loop=1&count-in-each=1&repeat=1e309",
    *(f"{name}={SCRIPT}" for name in ("bpm", "section", "strokes", "ramp", "from")),
    f"{SCRIPT}=1",
]


def browser_results(root: Path, only: str | None) -> list[dict[str, object]]:
    """A score page of the served site opened in headless Chromium at each hostile address:
    counted as a traceback when the page throws, a hang when it is not ready (or its play does
    not answer) within the bound, a wrong status when a value ran as script; then played."""
    import threading
    from urllib.parse import quote

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return []
    sys.path[:0] = [str(HERE), str(HERE / "tests")]
    from system_tools import chromium_path

    from drumscore.site.build import build_site
    from drumscore.site.serve import make_server, url_of

    chosen = [q for q in QUERIES if not only or only in f"score page ?{q}"]
    if not chosen:
        return []
    site = root / "site"
    build_site(site, musicxml=False)
    server = make_server(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page_path = next((site / "score").glob("lu-1*.html")).relative_to(site)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path() or "chromium", args=args)
        try:
            for query in chosen:
                encoded = "&".join(
                    "=".join(quote(part, safe=":%") for part in pair.split("=", 1))
                    for pair in query.split("&")
                )
                results.append(_open_page(browser, f"{url_of(server)}{page_path}?{encoded}", query))
        finally:
            browser.close()
            server.shutdown()
            server.server_close()
    return results


def _open_page(browser, url: str, query: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    start = time.monotonic()
    hung = False
    said = ""
    try:
        page.goto(url, timeout=20_000)
        page.wait_for_function("document.documentElement.dataset.ready === 'true'", timeout=20_000)
        page.click("#play", timeout=10_000)
        page.wait_for_timeout(500)
        said = page.text_content("#status", timeout=10_000) or ""
        page.keyboard.press("Escape")
        page.wait_for_function("true", timeout=10_000)  # the page still answers after playing
    except Exception as exc:  # playwright's TimeoutError, or the page crashed
        hung = True
        said = str(exc).splitlines()[0]
    ran = bool(dialogs)
    if not hung:
        try:
            ran = ran or page.evaluate("() => window.__ran === 1")
        except Exception:  # the page gone meanwhile
            hung = True
    context.close()
    shown = query if len(query) < 60 else query[:40] + "…"
    return {
        "case": f"score page ?{shown}",
        "group": "score page address",
        "status": "page",
        "seconds": time.monotonic() - start,
        "early": 0,
        "traceback": int(bool(errors)),
        "hang": int(hung),
        "lost": 0,
        "outside": 0,
        "wrong": int(ran),
        "late": 0,
        "said": [said.strip()[:70], *errors[:1]],
        "where": [],
        "full": "\n".join(errors),
    }


def _request(url: str, method: str = "GET", body: bytes | None = None, bound: float = 15.0):  # type: ignore[no-untyped-def]
    """(status, body) of one request, or (None, reason) past the bound."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, data=body, method=method)
    try:
        with urllib.request.urlopen(request, timeout=bound) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except (OSError, ValueError) as exc:
        return None, str(exc).encode()


def _half_sent(host: str, port: int, path: str, length: int, bound: float) -> tuple[bool, float]:
    """A POST that says `length` bytes (within the limits) and sends 10: whether the server
    closed it within the bound, and when."""
    import socket

    start = time.monotonic()
    with socket.create_connection((host, port), timeout=bound) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n".encode()
            + b"0123456789"
        )
        try:
            while sock.recv(4096):
                pass
        except TimeoutError:
            return False, time.monotonic() - start
        except OSError:
            pass
    return True, time.monotonic() - start


def serve_results(top: Path, only: str | None) -> list[dict[str, object]]:
    """drumscore serve's listening (POST /listen/…) under a hostile page: garbage, huge and
    half-sent bodies, many sessions at once, a session never closed; after each, the server
    must still serve its files. Counted as a traceback when the server prints one, a hang when
    a request is not answered within its bound, a wrong status for a 5xx or a 2xx to garbage."""
    import json
    import threading

    names = [
        "GET /listen",
        "start with a garbage body",
        "start with a body of 10 MB",
        "start with a half-sent body",
        "start with a rate of 1e309 Hz",
        "start with a score of <script>",
        "start a session",
        "a chunk of an odd number of bytes",
        "a chunk of NaN samples",
        "a chunk of 100 MB",
        "a chunk to no session",
        "a half-sent chunk",
        "20 sessions started at once",
        "a session never closed, then another",
        "the server's memory after all",
    ]
    chosen = [n for n in names if not only or only in f"serve: {n}"]
    if not chosen:
        return []
    env = {**os.environ, "PYTHONPATH": str(HERE), "HOME": str(top / "home")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", "serve", "--port", "0", "--lang", "en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=top,
    )
    found: list[str] = []

    def read(stream, into: list[str]) -> None:  # type: ignore[no-untyped-def]
        for raw in stream:
            into.append(raw.decode("utf-8", "replace"))

    errors: list[str] = []
    threading.Thread(target=read, args=(proc.stdout, found), daemon=True).start()
    threading.Thread(target=read, args=(proc.stderr, errors), daemon=True).start()
    deadline = time.monotonic() + 180
    base = ""
    while time.monotonic() < deadline and not base and proc.poll() is None:
        for line in found:
            match = re.search(r"http://[0-9.]+:[0-9]+/", line)
            if match:
                base = match.group()
        time.sleep(0.2)
    results: list[dict[str, object]] = []
    if not base:
        proc.kill()
        return [_served("serve starts", 0, True, False, "no address printed", errors)]
    host, port = base[7:-1].split(":")
    listen = base + "listen"
    status, _ = _request(listen)
    landed = status == 200
    session = {"id": ""}
    good = json.dumps(
        {"score": "lu/1", "section": "she", "bpm": 60, "reading": "zheng", "rate": 48000}
    ).encode()

    def start(body: bytes) -> tuple[int | None, bytes]:
        return _request(listen + "/start", "POST", body)

    def refused_all(statuses: list[int | None]) -> bool:
        return all(s is not None and 400 <= s < 500 for s in statuses)

    for name in chosen:
        begun = time.monotonic()
        hung, wrong, said = False, False, ""
        if not landed and name != "GET /listen":
            continue
        if name == "GET /listen":
            said = f"GET /listen: {status} (listening {'served' if landed else 'not landed'})"
            wrong = status is None or status >= 500
        elif name == "start with a garbage body":
            codes = [start(b) for b in (b"\xff\xfe garbage", b"[]", b'{"rate": "x"}', b"null")]
            wrong = not refused_all([c for c, _ in codes])
            said = " ".join(str(c) for c, _ in codes)
        elif name == "start with a body of 10 MB":
            code, _ = start(b"{" * 10_000_000)
            # refused unread: a 413, or the connection closed on the body (then still serving)
            wrong, said = code is not None and not refused_all([code]), str(code)
        elif name == "start with a half-sent body":
            closed, seconds = _half_sent(host, int(port), "/listen/start", 2000, 40)
            hung, said = not closed, f"closed after {seconds:.1f} s"
        elif name == "start with a rate of 1e309 Hz":
            body = good.replace(b"48000", b"1e309")
            code, _ = start(body)
            wrong, said = not refused_all([code]), str(code)
        elif name == "start with a score of <script>":
            body = good.replace(b'"lu/1"', b'"<script>alert(1)</script>"')
            code, answer = start(body)
            wrong = not refused_all([code]) or not answer.startswith(b"{")  # JSON, not markup
            said = f"{code} {answer[:60]!r}"
        elif name == "start a session":
            code, answer = start(good)
            with contextlib.suppress(ValueError):
                session["id"] = json.loads(answer).get("id", "")
            wrong, said = code != 200, f"{code}"
        elif name == "a chunk of an odd number of bytes":
            code, _ = _request(f"{listen}/{session['id']}", "POST", b"\0" * 1001)
            wrong, said = code is None or code >= 500, str(code)
        elif name == "a chunk of NaN samples":
            code, _ = _request(f"{listen}/{session['id']}", "POST", b"\x00\x00\xc0\x7f" * 4800)
            wrong, said = code is None or code >= 500, str(code)
        elif name == "a chunk of 100 MB":
            code, _ = _request(f"{listen}/{session['id']}", "POST", b"\0" * 100_000_000, 60)
            wrong, said = code is not None and not refused_all([code]), str(code)
        elif name == "a chunk to no session":
            code, _ = _request(f"{listen}/nosuch", "POST", b"\0" * 400)
            wrong, said = not refused_all([code]), str(code)
        elif name == "a half-sent chunk":
            closed, seconds = _half_sent(host, int(port), f"/listen/{session['id']}", 40_000, 40)
            hung, said = not closed, f"closed after {seconds:.1f} s"
        elif name == "20 sessions started at once":
            codes: list[int | None] = []

            def one(into: list[int | None] = codes) -> None:
                into.append(start(good)[0])

            threads = [threading.Thread(target=one) for _ in range(20)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            hung = len(codes) < 20
            wrong = any(c is None or c >= 500 for c in codes)
            said = " ".join(f"{codes.count(c)}×{c}" for c in sorted(set(codes), key=str))
        elif name == "a session never closed, then another":
            # sessions left open above: after the idle time, a new one starts
            time.sleep(12)
            code, answer = start(good)
            wrong, said = code != 200, f"{code} {answer[:60]!r}"
        elif name == "the server's memory after all":
            status_lines = Path(f"/proc/{proc.pid}/status").read_text(encoding="ascii")
            rss = [ln.split()[1] for ln in status_lines.splitlines() if ln.startswith("VmRSS")]
            kb = int(rss[0]) if rss else 0
            wrong, said = kb > 1_000_000, f"{kb // 1024} MB resident"
        files, _ = _request(base + "index.html")
        if files != 200:
            hung = True
            said += f"; then index.html: {files}"
        results.append(_served(name, time.monotonic() - begun, hung, wrong, said, errors))
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        results.append(_served("serve stops on Ctrl-C", 30, True, False, "still running", []))
    return results


def _served(
    name: str, seconds: float, hung: bool, wrong: bool, said: str, errors: list[str]
) -> dict[str, object]:
    told = "".join(errors)
    return {
        "case": f"serve: {name}",
        "group": "serve's listening",
        "status": "http",
        "seconds": seconds,
        "early": 0,
        "traceback": int("Traceback" in told),
        "hang": int(hung),
        "lost": 0,
        "outside": 0,
        "wrong": int(wrong),
        "late": 0,
        "said": [said[:70]],
        "where": [],
        "full": told[-4000:],
    }


def _before_drumscore(code: int, said: str, signum: int) -> bool:
    """Whether the signal came while Python itself started, before drumscore's first line (a
    loaded machine's slow start-up): a death by the signal with no word, or Python's own
    KeyboardInterrupt in frames none of which is drumscore's."""
    if code == -signum and not said.strip():
        return True
    lines = said.strip().splitlines()
    return (
        "Traceback (most recent call last):" in lines
        and lines[-1] == "KeyboardInterrupt"
        and not any("/drumscore/" in ln for ln in lines if ln.lstrip().startswith("File"))
    )


def _snapshot(folder: Path) -> dict[str, str]:
    found = {}
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def run_case(case: Case, root: Path) -> dict[str, object]:
    """Run one case in root/CASE: what went wrong, counted by kind."""
    sandbox = Path(tempfile.mkdtemp(dir=root))
    inputs, out = sandbox / "in", sandbox / "out"
    inputs.mkdir()
    out.mkdir()
    case.setup(inputs)
    before = _snapshot(inputs)
    outside_before = set(_snapshot(root.parent / "home"))
    argv = [a.format(**{"in": inputs, "out": out}) for a in case.argv]
    env = {**os.environ, "HOME": str(root.parent / "home"), "PYTHONPATH": str(HERE)}
    if case.tests_on_path:
        env["PYTHONPATH"] += os.pathsep + str(HERE / "tests")
    # caches (matplotlib's fonts, numba's) are the libraries' own: kept apart from HOME
    env["XDG_CACHE_HOME"] = str(root.parent / "cache")
    env["MPLCONFIGDIR"] = str(root.parent / "cache" / "matplotlib")
    env.update({k: v.format(**{"in": inputs, "out": out}) for k, v in case.env.items()})
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", *argv],
        stdout=subprocess.PIPE if case.printed is not None else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=out,
        env=env,
    )
    hung = False
    printed = b""
    planted = True
    try:
        if case.during is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=case.during[0])
            case.during[1](inputs, out)
            before = _snapshot(inputs)  # the case's own change is not an input lost
        if case.plant is not None and case.plant_after is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=case.plant_after)
            planted = _plant(case.plant[0], out / case.plant[1])
        elif case.plant is not None:
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                if any(TEMPORARY.fullmatch(p.name) for p in out.iterdir()):
                    break
                time.sleep(0.01)
            planted = _plant(case.plant[0], out / case.plant[1])
        if case.wait_for_part:
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                if any(TEMPORARY.fullmatch(p.name) for p in out.iterdir()):
                    break
                time.sleep(0.01)
            time.sleep(0.3)
        elif case.signum is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=case.delay)
        if case.signum is not None and proc.poll() is None:
            proc.send_signal(case.signum)
            if case.again is not None:
                time.sleep(0.002)
                proc.send_signal(case.again)
        printed, err = proc.communicate(timeout=max(1.0, case.bound - (time.monotonic() - start)))
    except subprocess.TimeoutExpired:
        hung = True
        proc.kill()
        printed, err = proc.communicate()
    seconds = time.monotonic() - start
    said = err.decode("utf-8", "replace")
    after = _snapshot(inputs)
    lost = sorted(p for p, digest in before.items() if after.get(p) != digest)
    parts = [str(p) for p in sandbox.rglob("*") if TEMPORARY.fullmatch(p.name)]
    if parts and (hung or case.signum == signal.SIGKILL):
        # a process killed outright cannot remove its temporary file: the next write in that
        # folder removes it (files.atomic.remove_stale), as it must
        for folder in {Path(p).parent for p in parts}:
            subprocess.run(
                [sys.executable, "-m", "drumscore", "render", "○□", "-q", "-o", "after.mid"],
                cwd=folder,
                env=env,
                capture_output=True,
                timeout=120,
            )
        parts = [str(p) for p in sandbox.rglob("*") if TEMPORARY.fullmatch(p.name)]
    outside = sorted(set(_snapshot(root.parent / "home")) - outside_before) + parts
    if case.name.startswith("site into a symbolic link"):
        outside = [p for p in outside if not p.startswith(str(inputs / "real"))]
    code = proc.returncode
    statuses = case.statuses if planted else {0}
    if (
        planted
        and case.plant is not None
        and not _planted_intact(case.plant[0], out / case.plant[1])
    ):
        lost.append(f"{case.plant[1]} (planted)")
    if case.after is not None and not case.after(inputs, out):
        lost.append("what the case keeps")
    early = (
        case.signum not in (None, signal.SIGKILL)  # SIGKILL's death is silent at any moment
        and _before_drumscore(code, said, case.signum)
    )
    unsaid = planted and bool(case.says) and not any(w in said for w in case.says.split("|"))
    if (
        case.printed is not None
        and code == 0
        and not case.printed(printed.decode("utf-8", "replace"))
    ):
        unsaid = True
    result = {
        "case": case.name,
        "group": case.group,
        "status": code,
        "seconds": seconds,
        "early": int(early),
        "traceback": int(not early and ("Traceback" in said or "Exception ignored" in said)),
        "hang": int(hung),
        "lost": len(lost),
        "outside": len(outside),
        "wrong": int(not hung and not early and (code not in statuses or unsaid)),
        "late": int(not planted),
        "said": said.strip().splitlines()[-1:] if said.strip() else [],
        "where": outside[:3],
        "full": said,
    }
    shutil.rmtree(sandbox, ignore_errors=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", metavar="WORD", help="only the cases whose name has WORD")
    parser.add_argument("--recent", action="store_true", help="only what landed since (part two)")
    parser.add_argument("--since", action="store_true", help="only what landed since issue 43")
    args = parser.parse_args()
    recent = recent_cases()
    for case in recent:
        case.group = "issue 43's"
    if args.since:
        every = since_cases()
    elif args.recent:
        every = recent
    else:
        every = [*cases(), *recent, *since_cases()]
    chosen = [c for c in every if not args.only or args.only in c.name]
    pages = not args.recent
    top = Path(tempfile.mkdtemp(prefix="drumscore-campaign-"))
    (top / "home").mkdir()
    root = top / "cases"
    root.mkdir()
    results: list[dict[str, object]] = []

    def report(result: dict[str, object]) -> None:
        results.append(result)
        flags = [k for k in ("early", "traceback", "hang", "lost", "outside", "wrong") if result[k]]
        mark = ", ".join(flags) if flags else "ok"
        if result["late"]:
            mark += " (planted too late: the output was in place first)"
        if result["outside"]:
            mark += f" {result['where']}"
        if result["traceback"]:
            mark += "\n" + str(result["full"])[-4000:]
        print(
            f"{result['case'][:58]:<58} {result['status']!s:>4} "
            f"{result['seconds']:6.1f} s  {mark}  {' '.join(result['said'])[:70]}",
            flush=True,
        )

    try:
        for case in chosen:
            report(run_case(case, root))
        if pages:
            for result in serve_results(top, args.only):
                report(result)
            for result in browser_results(top, args.only):
                report(result)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print()
    groups: dict[str, int] = {}
    for r in results:
        groups[str(r["group"])] = groups.get(str(r["group"]), 0) + 1
    for group, count in groups.items():
        print(f"{'  ' + group:<24} {count}")
    print(f"{'cases':<16} {len(results)}")
    early = sum(int(r["early"]) for r in results)
    print(f"{'before start-up':<16} {early} (the signal came before drumscore's first line ran)")
    for key, title in (
        ("traceback", "tracebacks"),
        ("hang", "hangs"),
        ("lost", "inputs lost"),
        ("outside", "writes outside"),
        ("wrong", "wrong statuses"),
    ):
        print(f"{title:<16} {sum(int(r[key]) for r in results)}")
    bad = sum(int(r[k]) for r in results for k in ("traceback", "hang", "lost", "outside", "wrong"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
