"""The inputs the cases of every part make: passages, takes, MIDI files, editions, links,
a device node, the user's own files beside an output."""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from .runner import PASSAGE


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
