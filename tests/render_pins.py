"""What a render says, reduced to fingerprints: the decoded samples, the MIDI messages and the
MusicXML notes of a handful of renders (tests/render/test_pinned_output.py compares them).

Each case is the command line of one render (or batch); `fingerprint` reads every file it wrote
back with soundfile, mido or music21, never from the code under test.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from system_tools import SOUNDFONT, missing

#: name → (arguments after 'drumscore render', the output file or template). OUT stands for the
#: output folder.
CASES: dict[str, list[str]] = {
    "lu.wav": ["lu", "-o", "OUT/lu.wav"],
    "lu.mid": ["lu", "-o", "OUT/lu.mid"],
    "lu.musicxml": ["lu", "-o", "OUT/lu.musicxml"],
    "xue2-benyi.flac": ["xue/2@benyi", "-o", "OUT/x.flac"],
    "xue2-benyi.mid": ["xue/2@benyi", "-o", "OUT/x.mid"],
    "xue2-benyi-touhu.musicxml": ["xue/2@benyi", "--section", "touhu", "-o", "OUT/x.musicxml"],
    "rite.flac": ["--programme", "rite", "-o", "OUT/rite.flac"],
    "rite.mid": ["--programme", "rite", "-o", "OUT/rite.mid"],
    "rite-xue-96.wav": ["--programme", "rite", "--state", "xue", "--bpm", "96", "-o", "OUT/r.wav"],
    "rite-xue.mid": ["--programme", "rite", "--state", "xue", "-o", "OUT/r.mid"],
    "countin-loopable.wav": [
        *("lu", "--section", "touhu", "--count-in", "4", "--loopable"),
        *("-o", "OUT/loop.wav"),
    ],
    "countin-loopable.mid": [
        *("lu", "--section", "touhu", "--count-in", "4", "--loopable", "-o", "OUT/loop.mid"),
    ],
    "countin.flac": ["xue/2", "--count-in", "3", "--bpm", "90", "-o", "OUT/c.flac"],
    "loopable.wav": ["xue", "--section", "touhu", "--loopable", "--bpm", "150", "-o", "OUT/l.wav"],
    "xue-touhu-96x2.wav": [
        "xue",
        "--section",
        "touhu",
        "--bpm",
        "96",
        "--repeat",
        "2",
        "-o",
        "OUT/t.wav",
    ],
    "xue-touhu-96x2.mid": [
        "xue",
        "--section",
        "touhu",
        "--bpm",
        "96",
        "--repeat",
        "2",
        "-o",
        "OUT/t.mid",
    ],
    "lu-head.mid": ["lu", "--section", "head", "-o", "OUT/h.mid"],
    "humanize.wav": [
        *("lu", "--humanize", "8", "--seed", "3", "--velocity", "60,100", "-o", "OUT/hu.wav"),
    ],
    "humanize.mid": [
        *("lu", "--humanize", "8", "--seed", "3", "--velocity", "60,100", "-o", "OUT/hu.mid"),
    ],
    "humanize-countin.mid": [
        *("lu", "--humanize", "12", "--seed", "5", "--count-in", "2", "-o", "OUT/hc.mid"),
    ],
    "midi-notes.mid": ["lu/2", "--midi-notes", "38,36", "--repeat", "3", "-o", "OUT/n.mid"],
    "notation-interval.flac": ["○□○○半○□○", "--interval", "0.75", "-o", "OUT/m.flac"],
    "duration.mid": ["lu", "--section", "touhu", "--duration", "1m", "-o", "OUT/d.mid"],
    "rate-24.wav": ["lu/2", "--rate", "22050", "--subtype", "PCM_24", "-o", "OUT/r24.wav"],
    "no-normalize.wav": ["xue/2", "--no-normalize", "-o", "OUT/nn.wav"],
    "batch": [
        *("lu", "xue/2@benyi", "--section", "touhu,she"),
        *("-o", "OUT/b/{key}-{section}.mid"),
    ],
    "soundfont.wav": [
        *("lu", "--section", "touhu", "--soundfont", str(SOUNDFONT)),
        *("-o", "OUT/sf.wav"),
    ],
    "soundfont-countin.wav": [
        *("lu/2", "--section", "touhu", "--count-in", "2"),
        *("--soundfont", str(SOUNDFONT), "-o", "OUT/sfc.wav"),
    ],
}


def needs_soundfont(name: str) -> bool:
    return "soundfont" in name


def can_run(name: str) -> bool:
    """A SoundFont case needs FluidSynth and the SoundFont (as the requires marker finds them);
    the others only the package."""
    return not needs_soundfont(name) or not (missing("fluidsynth") or missing("soundfont"))


def argv(name: str, out: Path) -> list[str]:
    return ["render", "--quiet", *(a.replace("OUT", str(out)) for a in CASES[name])]


def _digest(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def audio_print(path: Path) -> dict:
    """The decoded samples as integers (PCM and FLAC decode exactly), their shape and rate."""
    import soundfile

    data, rate = soundfile.read(path, dtype="int32", always_2d=True)
    return {
        "frames": int(data.shape[0]),
        "channels": int(data.shape[1]),
        "rate": int(rate),
        "samples": hashlib.sha256(data.astype("<i4").tobytes()).hexdigest(),
    }


def midi_print(path: Path) -> dict:
    """Every message of every track, read back with mido (UTF-8 text), in order."""
    import mido

    midi = mido.MidiFile(path, charset="utf-8")
    tracks = [[msg.dict() for msg in track] for track in midi.tracks]
    notes = [m for t in tracks for m in t if m["type"] == "note_on"]
    return {
        "type": midi.type,
        "ticks_per_beat": midi.ticks_per_beat,
        "messages": [len(t) for t in tracks],
        "notes": len(notes),
        "digest": _digest(tracks),
    }


def musicxml_print(path: Path) -> dict:
    """Every note and rest of every part, parsed back with music21: where, how long, what."""
    import music21

    score = music21.converter.parse(path)
    parts = []
    for part in score.parts:
        notes = []
        for n in part.recurse().notesAndRests:
            notes.append(
                [
                    type(n).__name__,
                    str(n.getOffsetInHierarchy(score)),
                    str(n.quarterLength),
                    getattr(n, "notehead", None),
                    str(getattr(n, "displayStep", "")),
                    getattr(n, "displayOctave", None),
                    [lyric.text for lyric in n.lyrics],
                    [type(a).__name__ for a in n.articulations],
                    [type(e).__name__ for e in n.expressions],
                ]
            )
        parts.append({"name": part.partName, "notes": notes})
    return {
        "parts": [p["name"] for p in parts],
        "notes": [len(p["notes"]) for p in parts],
        "digest": _digest(parts),
    }


def file_print(path: Path) -> dict:
    suffix = path.suffix.lower()
    if suffix in (".wav", ".flac"):
        return audio_print(path)
    if suffix == ".mid":
        return midi_print(path)
    if suffix == ".musicxml":
        return musicxml_print(path)
    raise ValueError(f"no fingerprint for {path}")


def fingerprint(name: str, out: Path, run) -> dict[str, dict]:
    """Render case `name` into the empty folder `out` with run(argv) → exit status, and
    fingerprint every file written (by its path relative to `out`)."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    code = run(argv(name, out))
    assert code == 0, f"{name}: exit {code}"
    return {str(p.relative_to(out)): file_print(p) for p in sorted(out.rglob("*")) if p.is_file()}
