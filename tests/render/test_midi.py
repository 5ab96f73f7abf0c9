"""MIDI: parse → Timeline → MIDI bytes → read back with mido: same strokes, same times."""

import io

import mido
import pytest

from drumscore import OptionError, Tempo, parse
from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.model import Drum, Score
from drumscore.render.midi import TICKS_PER_BEAT, midi_bytes
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap

LU1 = "○□○○□□○□○○□○□○□○○○□□○□○"


def read_back(data: bytes) -> mido.MidiFile:
    return mido.MidiFile(file=io.BytesIO(data), charset="utf-8")


def notes_with_seconds(midi: mido.MidiFile):
    """(seconds, note, velocity) of every note_on, timed by mido from the tempo map."""
    now, found = 0.0, []
    for msg in midi:
        now += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            found.append((now, msg.note, msg.velocity, msg.channel))
    return found


def symbols_of(notes, midimap=None):
    midimap = midimap or MidiMap()
    back = {midimap.note(Drum.PI): "○", midimap.note(Drum.GU): "□"}
    return "".join(back[n[1]] for n in notes)


def test_whole_lu_at_120_round_trips_with_exact_times():
    timeline = arrange(resolve("lu"), "she", Tempo.from_bpm(120))
    midi = read_back(midi_bytes(timeline))
    notes = notes_with_seconds(midi)
    assert symbols_of(notes) == LU1
    assert [n[0] for n in notes] == pytest.approx([k * 0.5 for k in range(23)], abs=1e-9)
    assert {n[3] for n in notes} == {PERCUSSION_CHANNEL}


def test_ticks_are_exact_multiples_of_the_beat():
    midi = read_back(midi_bytes(arrange(resolve("xue/2"), "touhu", Tempo.from_bpm(96))))
    assert midi.type == 1 and midi.ticks_per_beat == TICKS_PER_BEAT
    tick, starts = 0, []
    for msg in midi.tracks[1]:
        tick += msg.time
        if msg.type == "note_on":
            starts.append(tick)
    assert starts == [k * TICKS_PER_BEAT for k in range(10)]
    tempo = [m.tempo for m in midi.tracks[0] if m.type == "set_tempo"]
    assert tempo == [625_000]


def test_marker_at_half_and_track_name_cite_the_reading():
    midi = read_back(midi_bytes(arrange(resolve("lu"), "she", Tempo.from_bpm(120))))
    tick, markers = 0, {}
    for msg in midi.tracks[0]:
        tick += msg.time
        if msg.type == "marker":
            markers[msg.text] = tick
    assert markers == {"射 she": 0, "半": 11 * TICKS_PER_BEAT}
    name = next(m.name for m in midi.tracks[0] if m.type == "track_name")
    assert "禮記注疏" in name and "魯" in name and "figure 1" in name and "she" in name
    assert name.endswith("[lu/1@zhushu]")
    text = next(m.text for m in midi.tracks[0] if m.type == "text")
    assert text.startswith("lu/1@zhushu, section she, bpm 120;") and "KR1d0053" in text


def test_repeats_continue_the_even_beat_and_are_marked():
    midi = read_back(midi_bytes(arrange(resolve("lu"), "touhu", Tempo.from_bpm(60), repeats=3)))
    notes = notes_with_seconds(midi)
    assert len(notes) == 36
    assert [n[0] for n in notes] == pytest.approx(list(range(36)), abs=1e-9)
    texts = [m.text for m in midi.tracks[0] if m.type == "marker"]
    assert texts == ["投壺 touhu", "repeat 2", "repeat 3"]


def test_notes_never_overlap():
    midi = read_back(midi_bytes(arrange(resolve("xue"), "she", Tempo.from_bpm(300))))
    sounding, tick = {}, 0
    for msg in midi.tracks[1]:
        tick += msg.time
        if msg.type == "note_on":
            assert not sounding, f"note {msg.note} starts while {sounding} sounds"
            sounding[msg.note] = tick
        elif msg.type == "note_off":
            del sounding[msg.note]


def test_midi_notes_option_changes_the_mapping():
    midimap = MidiMap.from_option("36,38")
    score = Score(parse("○□○"))
    notes = notes_with_seconds(read_back(midi_bytes(arrange(score), midimap)))
    assert [n[1] for n in notes] == [36, 38, 36]
    assert notes[1][2] > notes[0][2]  # 鼓 is louder than 鼙


def test_pi_is_the_lower_and_softer_drum_as_the_kit_reads_the_shiwen():
    notes = notes_with_seconds(read_back(midi_bytes(arrange(resolve("lu")))))
    drums = [s.drum for s in resolve("lu").pattern.strokes]
    pi = {(n[1], n[2]) for n, d in zip(notes, drums, strict=True) if d is Drum.PI}
    gu = {(n[1], n[2]) for n, d in zip(notes, drums, strict=True) if d is Drum.GU}
    assert len(pi) == len(gu) == 1
    ((pi_note, pi_velocity),), ((gu_note, gu_velocity),) = pi, gu
    assert pi_note < gu_note and pi_velocity < gu_velocity  # 鼙 其聲下, 鼓 其聲高


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["45", "a,b", "45,45", "45,200", "-1,40", "45,41,40"])
def test_bad_midi_notes_are_option_errors(text):
    with pytest.raises(OptionError) as err:
        MidiMap.from_option(text)
    assert repr(text) in str(err.value)


# --- what a DAW reads: metre, markers, names ----------------------------------------------------


def timed(track, kind: str) -> list[tuple[int, object]]:
    tick, found = 0, []
    for msg in track:
        tick += msg.time
        if msg.type == kind:
            found.append((tick, msg))
    return found


@pytest.mark.parametrize(("key", "section", "repeats"), [("lu", "she", 1), ("xue/2", "she", 2)])
def test_time_signatures_follow_the_hidden_metre_of_the_musicxml(key, section, repeats):
    import xml.etree.ElementTree as ET

    from drumscore.render.musicxml import musicxml_bytes

    timeline = arrange(resolve(key), section, repeats=repeats)
    midi = read_back(midi_bytes(timeline))
    signatures = [
        (tick // TICKS_PER_BEAT, m.numerator, m.denominator)
        for tick, m in timed(midi.tracks[0], "time_signature")
    ]
    # the metre MusicXML writes: one <time> wherever the bar length changes, in the first part
    part = ET.fromstring(musicxml_bytes(timeline)).find("part")
    beat, from_xml = 0, []
    for measure in part.findall("measure"):
        time = measure.find("attributes/time")
        if time is not None:
            assert time.get("print-object") == "no"
            from_xml.append((beat, int(time.findtext("beats")), int(time.findtext("beat-type"))))
        beat += sum(1 for n in measure.findall("note"))
    assert signatures == from_xml
    half = timeline.score.pattern.half
    assert signatures[:2] == [(0, half, 4), (half, len(timeline.strokes) - half, 4)]


def test_a_section_alone_is_one_bar_with_its_marker_at_the_start():
    timeline = arrange(resolve("xue"), "head")
    midi = read_back(midi_bytes(timeline))
    assert [(t, m.numerator) for t, m in timed(midi.tracks[0], "time_signature")] == [
        (0, len(timeline))
    ]
    assert [(t, m.text) for t, m in timed(midi.tracks[0], "marker")] == [(0, "head")]


def test_track_names_are_also_in_ascii_for_tools_that_read_latin1():
    data = midi_bytes(arrange(resolve("lu/2@benyi"), "touhu", Tempo.from_bpm(90)))
    latin1 = mido.MidiFile(file=io.BytesIO(data))  # mido's default, as many tools read it
    drums_track = next(m.name for m in latin1.tracks[1] if m.type == "track_name")
    assert drums_track.isascii() and "lu/2@benyi touhu 90 bpm" in drums_track
    texts = [m.text for m in latin1.tracks[0] if m.type == "text"]
    assert "lu/2@benyi touhu 90 bpm" in texts
    utf8 = read_back(data)
    assert [m.text for m in utf8.tracks[1] if m.type == "text"] == ["鼙 ○ / 鼓 □"]


def test_raw_notation_has_an_ascii_name_too():
    data = midi_bytes(arrange(Score(parse("○□半○"), printed="○□半○")))
    texts = [m.text for m in mido.MidiFile(file=io.BytesIO(data)).tracks[0] if m.type == "text"]
    assert "notation o#|o she 60 bpm" in texts


def test_same_timeline_same_bytes():
    timeline = arrange(resolve("xue/2"), "she", repeats=3)
    assert midi_bytes(timeline) == midi_bytes(arrange(resolve("xue/2"), "she", repeats=3))


def practice_track(options: str):
    """The track render makes of lu's 投壺 five times with these practice options."""
    from drumscore.conductor.track import Practice, Ramp, Track

    ramp = Ramp.parse("40:60:5") if "ramp" in options else None
    practice = Practice(
        click=2 if "click" in options else 0,
        count_each="each" in options,
        silent_every=2 if "silent" in options else 0,
        only=Drum.PI if "only" in options else None,
        ramp=ramp,
    )
    tempo = ramp.tempo(1) if ramp else Tempo.from_bpm(60)
    timeline = arrange(resolve("lu"), "touhu", tempo, repeats=5)
    return Track.single(timeline, 3 if "count" in options else 0, "loop" in options, practice)


@pytest.mark.parametrize(
    "options", ["", "ramp", "click", "count", "count each ramp", "silent only", "loop click"]
)
def test_every_file_names_its_section_and_metre_whatever_the_options(options):
    """The 投壺 marker, the ASCII name text and a time signature per bar, with or without a
    ramp, a click, a count-in (once or each pass), silent passes, one drum or a loop."""
    track = practice_track(options)
    latin1 = mido.MidiFile(file=io.BytesIO(midi_bytes(track)))
    conductor = latin1.tracks[0]
    name = f"lu/1@zhushu touhu {40 if 'ramp' in options else 60} bpm x5"
    assert name in [m.text for m in conductor if m.type == "text"]
    utf8 = read_back(midi_bytes(track))
    markers = [m.text for _t, m in timed(utf8.tracks[0], "marker")]
    assert "投壺 touhu" in markers
    assert [f"repeat {r}" for r in range(2, 6)] == [m for m in markers if m.startswith("repeat")]
    count = 3 if "count" in options else 0
    passes_counted = 5 if "each" in options else 1 if count else 0
    strokes = len(track.first.strokes)
    bars = [(t // TICKS_PER_BEAT, m.numerator) for t, m in timed(utf8.tracks[0], "time_signature")]
    # a count-in bar before each counted pass, then one bar a pass
    want, beat, previous = [], 0, None
    for p in range(5):
        for length in ([count] if p < passes_counted else []) + [strokes]:
            if length != previous:
                want.append((beat, length))
            beat, previous = beat + length, length
    assert bars == want


@pytest.mark.parametrize("each", [False, True])
def test_markers_stand_at_the_strokes_they_name_after_a_count_in(each):
    """lu, 4 count strokes (before every pass with `each`), 2 passes: each count-in marked at
    its first count stroke, the section at its first stroke (tick 1920, not 0), 半 at the
    stroke after it and the repeat at its first stroke; each marker on the tick of a note."""
    from drumscore.conductor.track import Practice, Track

    timeline = arrange(resolve("lu"), "she", Tempo.from_bpm(60), repeats=2)
    track = Track.single(timeline, 4, practice=Practice(count_each=each))
    midi = read_back(midi_bytes(track))
    n, half, beat = 23, resolve("lu").pattern.half, TICKS_PER_BEAT
    second = n + 4 + (4 if each else 0)  # the beat of pass 2's first stroke
    want = [(0, "count-in 4"), (4 * beat, "射 she"), ((4 + half) * beat, "半")]
    if each:
        want.append(((4 + n) * beat, "count-in 4"))
    want += [(second * beat, "repeat 2"), ((second + half) * beat, "半")]
    markers = [(t, m.text) for t, m in timed(midi.tracks[0], "marker")]
    assert markers == want
    onsets = {t for t, m in timed(midi.tracks[1], "note_on") if m.velocity}
    assert {t for t, _text in markers} <= onsets


def test_the_text_names_the_reading_the_ramp_and_the_click():
    from drumscore.conductor.track import Practice, Ramp, Track
    from drumscore.model import Reading

    plain = read_back(midi_bytes(arrange(resolve("lu"))))
    assert "reading: zheng (鄭玄 禮記注)" in [m.text for m in plain.tracks[0] if m.type == "text"]
    timeline = arrange(resolve("lu"), "touhu", repeats=3, reading=Reading.parse("mao"))
    practice = Practice(click=2, click_velocity=70, ramp=Ramp.parse("40:60:10"))
    midi = read_back(midi_bytes(Track.single(timeline, practice=practice)))
    texts = [m.text for m in midi.tracks[0] if m.type == "text"]
    assert "reading: mao (毛奇齡 經問 卷十六)" in texts
    assert "practice: click 2 a stroke at velocity 70, ramp 40:60:10" in texts
    assert any(", reading mao;" in t for t in texts)  # the citation plays it again
    name = next(m.name for m in midi.tracks[0] if m.type == "track_name")
    assert "reading: 毛奇齡 (mao)" in name
    assert "lu/1@zhushu touhu 60 bpm x3 reading mao" in texts  # the name in ASCII
    # and not the same text under 鄭玄's reading
    zheng = arrange(resolve("lu"), "touhu", repeats=3)
    other = read_back(midi_bytes(Track.single(zheng, practice=practice)))
    assert texts != [m.text for m in other.tracks[0] if m.type == "text"]


@pytest.mark.parametrize(
    "options", ["", "ramp", "click", "count", "count each ramp", "silent only", "loop click"]
)
def test_the_bytes_are_what_mido_writes_of_the_same_file(options):
    """What midi_bytes writes, mido reads back and writes again to the same bytes (running
    status, meta events, lengths, the end of each track): nothing is lost in the round trip, for
    a practice track of each kind and a programme of several items."""
    from drumscore.files.programme import load_programme

    for played in (practice_track(options), load_programme("rite", state="xue")):
        ours = midi_bytes(played)
        again = io.BytesIO()
        read_back(ours).save(file=again)
        assert again.getvalue() == ours


def test_two_editions_of_one_reading_share_the_notes_not_the_names():
    """The notes and markers of one reading are made once for every edition that prints it;
    each file still names its own score, and a humanized take (not shared) has its own notes."""
    from drumscore.conductor.expression import Expression

    one, other = (arrange(resolve(key), "touhu") for key in ("lu/1@benyi", "lu/1@zhushu"))
    assert one.strokes == other.strokes
    files = [read_back(midi_bytes(t)) for t in (one, other, one)]
    notes = [[(m.type, m.note, m.time) for m in f.tracks[1] if not m.is_meta] for f in files]
    assert notes[0] == notes[1] == notes[2] != []
    names = [[m.text for m in f.tracks[0] if m.type == "text"] for f in files]
    assert any("benyi" in t for t in names[0]) and any("zhushu" in t for t in names[1])
    assert names[0] == names[2]
    humanized = arrange(resolve("lu/1@zhushu"), "touhu", expression=Expression(humanize_ms=30))
    moved = read_back(midi_bytes(humanized)).tracks[1]
    assert [(m.type, m.note, m.time) for m in moved if not m.is_meta] != notes[1]


def test_each_score_of_a_shared_music_gets_the_file_made_for_it_alone():
    """midi_bytes lays a music out once for every score that prints it, in each reading: each
    file is the one to_midi makes of that score afresh (its own names and citation, the reading's
    notes), whichever score's file came first."""
    from drumscore.model import READINGS
    from drumscore.render.midi import to_midi

    made = {}
    for reading in READINGS:
        for key in ("lu/1@benyi", "lu/1@zhushu", "lu/1@benyi"):
            timeline = arrange(resolve(key), "she", reading=reading)
            fresh = io.BytesIO()
            to_midi(timeline).save(file=fresh)
            ours = midi_bytes(timeline)
            assert ours == fresh.getvalue()
            made[key, reading.id] = read_back(ours)
    zheng, mao = (made["lu/1@zhushu", r.id].tracks[1] for r in READINGS[:2])
    notes = [[m.note for m in t if m.type == "note_on"] for t in (zheng, mao)]
    assert notes[0] != notes[1] and sorted(notes[0]) != []  # the readings strike other drums
    names = {k: made[k].tracks[0][0].name for k in made}
    assert names["lu/1@benyi", "zheng"] != names["lu/1@zhushu", "zheng"]
