"""Count-in, loopable files and programmes, rendered: checked by listening to the samples, reading
the MIDI back with mido and the cue points back out of the files."""

from __future__ import annotations

import struct
from fractions import Fraction

import mido
import numpy as np
import pytest
import soundfile as sf
from audio_checks import count_strokes, strokes
from cli_run import expect_error, run_cli

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.files.programme import load_programme
from drumscore.render.mix import render_audio
from drumscore.timing import Tempo

RATE = 44100


def attacks(audio, found):
    """The detections where the level rises, as at a stroke's attack: the matched filter can
    also answer within a ringing stroke, where the level only falls."""
    x = np.abs(audio.mean(axis=1))

    def level(a, b):
        return float(np.sqrt(np.mean(x[max(a, 0) : max(b, 1)] ** 2))) + 1e-9

    frame = (lambda f: f[0]) if found and isinstance(found[0], tuple) else (lambda f: f)
    return [
        f for f in found if level(frame(f), frame(f) + 220) > 2 * level(frame(f) - 220, frame(f))
    ]


def on_grid(frames, step, first=0):
    """Each frame's beat number, after checking it lies within a sample of the grid."""
    beats = []
    for f in frames:
        k = round((f - first) / step)
        assert abs(first + k * step - f) <= 1, (f, k)
        beats.append(k)
    return beats


def test_count_in_then_the_pattern_and_a_loop_that_keeps_the_beat(tmp_path):
    out = tmp_path / "t.flac"
    argv = ["render", "lu", "--section", "touhu", "--count-in", "4", "--loopable", "--bpm", "96"]
    from drumscore.cli import main

    assert main([*argv, "-q", "-o", str(out)]) == 0
    audio, rate = sf.read(out, dtype="float32", always_2d=True)
    pattern = arrange(resolve("lu"), "touhu", Tempo.from_bpm(96), 1)
    step = Fraction(60, 96) * rate
    beats = 4 + len(pattern)
    assert len(audio) == beats * step  # a whole number of beats (27562.5 frames each)

    looped = np.concatenate([audio, audio])  # a media player's loop: the file twice
    counts = count_strokes(looped, rate)
    drums = attacks(looped, strokes(looped, rate))
    count_beats = on_grid(counts, float(step))
    drum_beats = on_grid([f for f, _ in drums], float(step))
    expected_count = [p * beats + j for p in range(2) for j in range(4)]
    expected_drum = [p * beats + 4 + k for p in range(2) for k in range(len(pattern))]
    assert count_beats == expected_count
    assert drum_beats == expected_drum
    assert [d for _, d in drums] == [e.drum for e in Track.single(pattern).hits(44100)] * 2


def test_the_ring_past_the_end_is_folded_onto_the_start():
    t = arrange(resolve("○□"), None, Tempo.from_bpm(120), 1)  # □ rings 1.6 s: past the end
    folded = render_audio(Track.single(t, 0, loopable=True))
    plain = render_audio(Track.single(t, 0))
    length = len(folded)
    assert length == RATE  # two beats of half a second
    expected = plain[:length].copy()
    wrap = length
    while wrap < len(plain):
        piece = plain[wrap : wrap + length]
        expected[: len(piece)] += piece
        wrap += length
    gain = float(np.sum(folded * expected) / np.sum(expected * expected))
    assert np.allclose(folded, gain * expected, atol=1e-5)
    assert np.abs(folded[:100]).max() > 0.05  # the tail is there before the next ○


def test_a_notation_file_leaves_the_count_in_out(tmp_path, capsys):
    out = tmp_path / "x.musicxml"
    code, _, err = run_cli(["render", "○□", "--count-in", "2", "-q", "-o", str(out)], capsys)
    assert code == 0 and "count-in is left out" in err
    import xml.etree.ElementTree as ET

    notes = ET.parse(out).getroot().findall(".//note")
    assert len([n for n in notes if n.find("rest") is None]) == 2  # rests: the other drum's beats


def read_wav_cues(path):
    """(frame, label) of a WAV file's cue points, from its 'cue ' and 'labl' chunks."""
    data = path.read_bytes()
    pos, frames, labels = 12, {}, {}
    while pos + 8 <= len(data):
        kind, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        body = data[pos + 8 : pos + 8 + size]
        if kind == b"cue ":
            for i in range(struct.unpack("<I", body[:4])[0]):
                ident, position = struct.unpack("<II", body[4 + 24 * i : 12 + 24 * i])
                frames[ident] = position
        elif kind == b"LIST" and body[:4] == b"adtl":
            at = 4
            while at < len(body):
                sub, n = body[at : at + 4], struct.unpack("<I", body[at + 4 : at + 8])[0]
                if sub == b"labl":
                    ident = struct.unpack("<I", body[at + 8 : at + 12])[0]
                    labels[ident] = body[at + 12 : at + 8 + n].rstrip(b"\0").decode("utf-8")
                at += 8 + n + n % 2
        pos += 8 + size + size % 2
    return [(frames[i], labels.get(i)) for i in sorted(frames)]


@pytest.fixture(scope="module")
def rite(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rite")
    from drumscore.cli import main

    for suffix in ("wav", "mid"):
        assert (
            main(
                [
                    "render",
                    "--programme",
                    "rite",
                    "--state",
                    "xue",
                    "--bpm",
                    "300",
                    "-q",
                    "-o",
                    str(folder / f"rite.{suffix}"),
                ]
            )
            == 0
        )
    return folder


def test_the_rite_holds_its_rounds_in_order_with_the_pauses(rite):
    audio, rate = sf.read(rite / "rite.wav", dtype="float32", always_2d=True)
    track = load_programme("rite", state="xue", tempo=Tempo.from_bpm(300))
    starts = track.starts(rate)
    cues = read_wav_cues(rite / "rite.wav")
    assert [f for f, _ in cues] == starts
    assert [label for _, label in cues] == [str(i.label) for i in track.items]
    assert cues[0][1] == "round 1 (初投): figure 1"  # in English, whatever the reader speaks
    assert "初投" in cues[0][1] and "三投" in cues[2][1]
    step = rate / 5
    for number, item in enumerate(track.items):
        start = starts[number]
        end = starts[number + 1] if number + 1 < len(starts) else len(audio)
        sounding = audio[start : start + int((item.beats + 1) * step)]  # the item, not its pause
        mine = [start + f for f in count_strokes(sounding, rate)]
        assert on_grid(mine, step, start) == list(range(item.count_in))
        played = [(start + f, d) for f, d in attacks(sounding, strokes(sounding, rate))]
        assert [d for _, d in played] == [e.drum for e in Track.single(item.timeline).hits(44100)]
        beats = on_grid([f for f, _ in played], step, start)
        assert beats == list(range(item.count_in, item.beats))
        if item.pause:  # silence from the last ring to the next item
            last = start + int(item.beats * step)
            assert end - last == item.pause * rate
            assert np.abs(audio[last + int(1.7 * rate) : end]).max() < 1e-4
    # the second and third rounds play the second figure; the first, the first
    assert track.items[0].timeline.score.figure == 1
    assert [i.timeline.score.figure for i in track.items[1:]] == [2, 2]


def test_the_rites_midi_twin_has_a_marker_at_each_round(rite):
    midi = mido.MidiFile(rite / "rite.mid", charset="utf-8")
    tick, markers, tempos = 0, [], []
    for msg in midi.tracks[0]:
        tick += msg.time
        if msg.type == "marker":
            markers.append((tick, msg.text))
        if msg.type == "set_tempo":
            tempos.append(tick)
    rounds = [(t, text) for t, text in markers if text.startswith("round")]
    assert [text.split()[1] for _, text in rounds] == ["1", "2", "3"]
    track = load_programme("rite", state="xue", tempo=Tempo.from_bpm(300))
    expected, at = [], 0
    for item in track.items:
        expected.append(at)
        at += item.beats * 480 + round(item.pause * 5 * 480)  # 5 beats a second
    assert [t for t, _ in rounds] == expected == tempos
    tick, notes = 0, []
    for msg in midi.tracks[1]:
        tick += msg.time
        if msg.type == "note_on" and msg.velocity:
            notes.append((tick, msg.note))
    assert [n for _, n in notes[:4]] == [76] * 4  # the count on Hi Wood Block
    assert notes[4][1] in (45, 41)
    assert sum(1 for _, n in notes if n == 76) == 12


def test_flac_carries_a_chapter_per_item(tmp_path):
    mutagen = pytest.importorskip("mutagen")
    out = tmp_path / "r.flac"
    from drumscore.cli import main

    assert main(["render", "--programme", "rite", "--bpm", "600", "-q", "-o", str(out)]) == 0
    tags = mutagen.File(str(out)).tags
    second = load_programme("rite", tempo=Tempo.from_bpm(600)).items[0].seconds  # 10 a second
    assert tags["CHAPTER001"] == ["00:00:00.000"]
    assert tags["CHAPTER002"] == [f"00:00:{float(second):06.3f}"]
    names = [tags[f"CHAPTER{n:03d}NAME"][0] for n in (1, 2, 3)]
    assert names[0].startswith("round 1") and names[2].startswith("round 3")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["render", "-o", "x.wav"], "give a SCORE"),
        (["render", "lu", "--programme", "rite", "-o", "x.wav"], "not both"),
        (["render", "--programme", "rite", "--section", "she", "-o", "x.wav"], "--section"),
        (["render", "--programme", "rite", "-o", "x.musicxml"], "--programme is for audio"),
        (["render", "--programme", "nothing-here", "-o", "x.wav"], "built-in programme: rite"),
        (["render", "lu", "--state", "xue", "-o", "x.wav"], "--state"),
        (["render", "lu", "--count-in", "x", "-o", "x.wav"], "--count-in"),
        (["render", "--programme", "rite", "--state", "qi", "-o", "x.wav"], "--state 'qi'"),
    ],
)
def test_bad_track_options_are_one_line_errors(argv, needle, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert needle in expect_error(argv, capsys)
