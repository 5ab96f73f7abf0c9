"""Readings of the signs: 鄭玄's (○ 鼙, □ 鼓) and 毛奇齡's (○ 大鼓, □ 鞞), in every output."""

import xml.etree.ElementTree as ET

import mido
import numpy as np
import pytest
from scipy.io import wavfile

from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.model import READINGS, Drum, Reading
from drumscore.render.midimap import MidiMap

MAO = Reading.parse("mao")
LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"


def test_the_readings_and_their_sources():
    zheng = Reading.parse(None)
    assert zheng is READINGS[0] and zheng.passage == "圜者擊鼙，方者擊鼓"
    assert dict(MAO.mapping) == {"○": Drum.GU, "□": Drum.PI}
    assert "方者鞞皷，圓者大皷" in MAO.passage and "KR1g0022" in MAO.citation
    assert Reading.parse("毛奇齡") is MAO and Reading.parse(" MAO ") is MAO
    with pytest.raises(OptionError) as info:
        Reading.parse("zhu")
    assert info.value.option == "reading" and "mao" in str(info.value)


def test_a_timeline_strikes_the_drums_of_its_reading():
    score = resolve("lu")
    plain = [s.drum for s in arrange(score).strokes]
    read = arrange(score, reading=MAO)
    swapped = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}
    assert [s.drum for s in read.strokes] == [swapped[d] for d in plain]
    assert [s.drum.symbol for s in score.pattern.strokes] == [c for c in LU1 if c != "半"]
    assert "read as 毛奇齡 經問 卷十六 reads it" in read.citation
    assert "read as" not in arrange(score).citation


def test_a_long_pattern_is_laid_out_under_a_reading_once():
    """The conductor asks for a timeline's strokes at every stroke: under 毛奇齡's reading they
    are made once (not once a stroke, which made 2,000 strokes take seconds), and each strikes
    the other drum of 鄭玄's."""
    from drumscore.conductor.track import Track
    from drumscore.model import Score
    from drumscore.notation import parse

    score = Score(parse("○□○" * 700))
    read = arrange(score, reading=MAO)
    assert read.strokes is read.strokes
    swapped = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}
    plain = Track.single(arrange(score)).hits(1000)
    hits = Track.single(read).hits(1000)
    assert [(h.frame, h.drum) for h in hits] == [(h.frame, swapped[h.drum]) for h in plain]
    assert len(hits) == 2100


def _midi_notes(path):
    midi = mido.MidiFile(path)
    notes = [m.note for t in midi.tracks for m in t if m.type == "note_on" and m.velocity]
    # text events are UTF-8 bytes, which mido hands over as Latin-1
    texts = [
        m.text.encode("latin-1").decode("utf-8") for t in midi.tracks for m in t if m.type == "text"
    ]
    return notes, texts


def test_midi_puts_circles_on_the_big_drums_note(tmp_path, cli):
    path = tmp_path / "x.mid"
    code, _out, err = cli("render", "lu", "--reading", "mao", "-o", path)
    assert code == 0, err
    notes, texts = _midi_notes(path)
    big, small = MidiMap().note(Drum.GU), MidiMap().note(Drum.PI)
    strokes = [c for c in LU1 if c != "半"]
    assert notes == [big if c == "○" else small for c in strokes]
    assert any("read as 毛奇齡 經問 卷十六 reads it" in t for t in texts)


def test_check_follows_the_reading(tmp_path, cli):
    path = tmp_path / "x.mid"
    cli("render", "lu", "--reading", "mao", "-o", path)
    import json

    code, out, err = cli("check", path, "lu", "--reading", "mao", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["wrong"] == [] and data["extra"] == [] and data["missing"] == []
    code, out, err = cli("check", path, "lu", "--json")
    assert len(json.loads(out)["wrong"]) > 0


def _musicxml_drums(path):
    """The drum struck at each beat: the part whose note at that beat is not a rest."""
    root = ET.parse(path).getroot()
    beats: dict[int, str] = {}
    for part in root.iter("part"):
        for k, note in enumerate(part.iter("note")):
            if note.find("rest") is None:
                beats[k] = part.get("id")
    return [beats[k] for k in sorted(beats)]


def test_musicxml_follows_the_reading(tmp_path, cli):
    a, b = tmp_path / "a.musicxml", tmp_path / "b.musicxml"
    assert cli("render", "○□○○", "--reading", "mao", "-o", a)[0] == 0
    assert cli("render", "□○□□", "-o", b)[0] == 0
    assert _musicxml_drums(a) == _musicxml_drums(b)
    assert len(set(_musicxml_drums(a))) == 2
    credits = [c.text for c in ET.parse(a).getroot().iter("credit-words")]
    assert any("毛奇齡 經問 卷十六" in (c or "") and "KR1g0022" in (c or "") for c in credits)
    assert not any("毛奇齡" in (c.text or "") for c in ET.parse(b).getroot().iter("credit-words"))


def test_audio_strikes_the_drum_of_the_reading(tmp_path, cli):
    a, b, c = tmp_path / "a.wav", tmp_path / "b.wav", tmp_path / "c.wav"
    assert cli("render", "○□○", "--reading", "mao", "--rate", "8000", "-o", a)[0] == 0
    assert cli("render", "□○□", "--rate", "8000", "-o", b)[0] == 0
    assert cli("render", "○□○", "--rate", "8000", "-o", c)[0] == 0
    rate, mao = wavfile.read(a)
    _rate, swapped = wavfile.read(b)
    _rate, plain = wavfile.read(c)
    assert np.array_equal(mao, swapped)
    # the first second is the first stroke: its spectrum is the big drum's, not the small one's
    first = slice(0, rate)
    spectrum = [np.abs(np.fft.rfft(x[first].astype(float).mean(axis=-1))) for x in (mao, plain)]
    assert not np.allclose(spectrum[0], spectrum[1])


def test_compare_audio_hears_one_score_under_two_readings(tmp_path, cli):
    path = tmp_path / "ab.wav"
    code, _out, err = cli(
        "compare", "○□○", "○□○", "--audio", path, "--reading", "zheng,mao", "--rate", "8000"
    )
    assert code == 0, err
    rate, both = wavfile.read(path)
    mono = both.astype(float).mean(axis=-1)
    a, b = mono[:rate], mono[len(mono) // 2 :][:rate]
    assert np.abs(a).max() > 0 and np.abs(b).max() > 0
    assert "error" in cli("compare", "lu", "lu", "--audio", path, "--reading", "a,b,c")[2]


def test_sign_is_the_inverse_of_drum_in_every_reading():
    for reading in READINGS:
        for sign, drum in reading.mapping:
            assert reading.sign(drum) == sign
    assert [MAO.label(d) for d in (Drum.PI, Drum.GU)] == ["鼙 □", "鼓 ○"]
    assert [READINGS[0].label(d) for d in (Drum.PI, Drum.GU)] == ["鼙 ○", "鼓 □"]


def _parts_by_drum(path):
    """Each drum's part, as its place in the part list, told by the MIDI note its instrument
    plays (not by its name)."""
    root = ET.parse(path).getroot()
    notes = {MidiMap().note(d): d for d in Drum}
    return {
        notes[int(p.findtext("midi-instrument/midi-unpitched")) - 1]: k
        for k, p in enumerate(root.iter("score-part"))
    }


def test_musicxml_heads_are_the_printed_signs_on_the_staves_of_the_drums_struck(tmp_path, cli):
    music21 = pytest.importorskip("music21")
    path = tmp_path / "lu.musicxml"
    code, _out, err = cli("render", "lu", "--reading", "mao", "--lyrics", "glyph", "-o", path)
    assert code == 0, err
    ids = _parts_by_drum(path)
    parsed = music21.converter.parse(path.read_bytes(), format="musicxml", forceSource=True)
    parts = list(parsed.parts)
    strokes = [c for c in LU1 if c != "半"]
    # under 毛奇齡 ○ strikes 鼓 and □ 鼙: each staff holds the other sign than under 鄭玄
    for drum, sign, head, name in ((Drum.GU, "○", "so", "鼓 ○"), (Drum.PI, "□", "la", "鼙 □")):
        part = parts[ids[drum]]
        assert part.partName == name
        notes = list(part.flatten().notes)
        assert notes and {n.notehead for n in notes} == {head}
        assert not any(n.noteheadFill for n in notes)
        assert [n.offset for n in notes] == [float(k) for k, c in enumerate(strokes) if c == sign]
        assert [n.lyric for n in notes] == [sign] * len(notes)


def test_midi_text_and_summary_name_each_drum_with_the_sign_that_strikes_it(tmp_path, cli):
    for reading, names in (("zheng", "鼙 ○ / 鼓 □"), ("mao", "鼙 □ / 鼓 ○")):
        path = tmp_path / f"{reading}.mid"
        code, out, err = cli("render", "lu", "--reading", reading, "-o", path)
        assert code == 0, err
        midi = mido.MidiFile(path, charset="utf-8")
        assert [m.text for m in midi.tracks[1] if m.type == "text"] == [names]
        pi, gu = names.split(" / ")
        assert f"{pi} → {MidiMap().note(Drum.PI)} " in out
        assert f"{gu} → {MidiMap().note(Drum.GU)} " in out


def test_an_engraving_under_mao_draws_the_printed_signs_on_the_staves_of_the_drums(tmp_path, cli):
    pytest.importorskip("verovio")
    from svg_heads import heads_in_order

    from drumscore.render.musicxml import musicxml_bytes
    from drumscore.render.verovio import MEI, ROUND_TYPE, engrave, staff_drums, to_mei

    document = musicxml_bytes(arrange(resolve("lu"), reading=MAO))
    (page,) = engrave(document, "svg").pages
    assert heads_in_order(page) == LU1.replace("半", "")
    root = ET.fromstring(to_mei(document))
    labels = {d.get("n"): d.findtext(f"{{{MEI}}}label") for d in root.iter(f"{{{MEI}}}staffDef")}
    drums = staff_drums(root)
    assert {drums[n]: labels[n] for n in drums} == {Drum.PI: "鼙 □", Drum.GU: "鼓 ○"}
    for staff in root.iter(f"{{{MEI}}}staff"):
        notes = list(staff.iter(f"{{{MEI}}}note"))
        assert notes
        if drums[staff.get("n")] is Drum.GU:  # the ○ of the notation
            assert all(n.get("type") == ROUND_TYPE and not n.get("head.shape") for n in notes)
        else:
            assert all(n.get("head.shape") == "rectangle" for n in notes)
    pytest.importorskip("cairosvg")
    mao, zheng = tmp_path / "mao.png", tmp_path / "zheng.png"
    assert cli("render", "lu", "--reading", "mao", "-o", mao)[0] == 0
    assert cli("render", "lu", "-o", zheng)[0] == 0
    assert mao.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert mao.read_bytes() != zheng.read_bytes()
