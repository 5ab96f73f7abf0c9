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

Run: python bench/hostile_campaign.py [--only WORD]   (several minutes; cases whose name has WORD)
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
    #: Words the last line said must hold.
    says: str = ""


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


def _plant(kind: str, place: Path) -> None:
    if kind == "file":
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
    # caches (matplotlib's fonts, numba's) are the libraries' own: kept apart from HOME
    env["XDG_CACHE_HOME"] = str(root.parent / "cache")
    env["MPLCONFIGDIR"] = str(root.parent / "cache" / "matplotlib")
    env.update({k: v.format(**{"in": inputs, "out": out}) for k, v in case.env.items()})
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=out,
        env=env,
    )
    hung = False
    try:
        if case.plant is not None:
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                if any(TEMPORARY.fullmatch(p.name) for p in out.iterdir()):
                    break
                time.sleep(0.01)
            _plant(case.plant[0], out / case.plant[1])
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
        _, err = proc.communicate(timeout=max(1.0, case.bound - (time.monotonic() - start)))
    except subprocess.TimeoutExpired:
        hung = True
        proc.kill()
        _, err = proc.communicate()
    seconds = time.monotonic() - start
    said = err.decode("utf-8", "replace")
    after = _snapshot(inputs)
    lost = sorted(p for p, digest in before.items() if after.get(p) != digest)
    parts = [str(p) for p in sandbox.rglob("*") if TEMPORARY.fullmatch(p.name)]
    outside = sorted(set(_snapshot(root.parent / "home")) - outside_before) + parts
    if case.name.startswith("site into a symbolic link"):
        outside = [p for p in outside if not p.startswith(str(inputs / "real"))]
    code = proc.returncode
    if case.plant is not None and not _planted_intact(case.plant[0], out / case.plant[1]):
        lost.append(f"{case.plant[1]} (planted)")
    if case.after is not None and not case.after(inputs, out):
        lost.append("what the case keeps")
    early = case.signum is not None and _before_drumscore(code, said, case.signum)
    unsaid = bool(case.says) and case.says not in said
    result = {
        "case": case.name,
        "status": code,
        "seconds": seconds,
        "early": int(early),
        "traceback": int(not early and ("Traceback" in said or "Exception ignored" in said)),
        "hang": int(hung),
        "lost": len(lost),
        "outside": len(outside),
        "wrong": int(not hung and not early and (code not in case.statuses or unsaid)),
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
    args = parser.parse_args()
    every = recent_cases() if args.recent else [*cases(), *recent_cases()]
    chosen = [c for c in every if not args.only or args.only in c.name]
    top = Path(tempfile.mkdtemp(prefix="drumscore-campaign-"))
    (top / "home").mkdir()
    root = top / "cases"
    root.mkdir()
    results = []
    try:
        for case in chosen:
            result = run_case(case, root)
            results.append(result)
            flags = [
                k for k in ("early", "traceback", "hang", "lost", "outside", "wrong") if result[k]
            ]
            mark = ", ".join(flags) if flags else "ok"
            if result["outside"]:
                mark += f" {result['where']}"
            if result["traceback"]:
                mark += "\n" + str(result["full"])[-4000:]
            print(
                f"{result['case'][:58]:<58} {result['status']!s:>4} "
                f"{result['seconds']:6.1f} s  {mark}  {' '.join(result['said'])[:70]}",
                flush=True,
            )
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print()
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
