"""Part two: the one overwrite rule and what appears in an output's place while a command
runs, the list grammar, the reading named, the programme in each language, the site's
languages, a GSM 6.10 take, a broken user edition asked for by its id; with signals."""

from __future__ import annotations

import random
import signal

from .inputs import _broken_by_id, _device, _gsm_take, _mine_there, _still_a_device, _there
from .runner import SIGNALS, Case


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
