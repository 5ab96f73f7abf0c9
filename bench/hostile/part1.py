"""Part one: signals at any moment (and inside check's read, and twice during a site's
clean-up), file names that are not text under the locale, headers that lie, jobs past the
whole-job limits, a broken user edition, --only without its drum, a site folder behind a
symbolic link."""

from __future__ import annotations

import random
import signal

from .inputs import (
    _NOTES,
    _latin1,
    _links,
    _long_edition,
    _long_take,
    _many_editions,
    _midi,
    _passage,
    _qin,
    _smf,
    _utf8_name,
    _wav_at,
)
from .runner import SIGNALS, Case


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
