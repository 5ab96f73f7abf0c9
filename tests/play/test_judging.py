"""play --listen shows the listener's revisions: when check's reading further past a stroke
settles its line otherwise (a swell withdrawn, a flam moved to its main stroke, a drum told
again), the line changes where it stands, marked, while it is on screen; a line gone from the
screen has its revision said on a line of its own (and a pipe, which never shows a line again,
has each revision so)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import numpy as np
import pytest
import real_drums

from drumscore import i18n
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.model import Drum
from drumscore.performance.stream import applied
from drumscore.play import liveview
from drumscore.play.judging import HeardLines
from drumscore.play.listening import AudioListener, Verdict
from drumscore.timing import Tempo

TOUHU = [s.drum for s in resolve("lu").pattern.section("touhu")]
ONCE = "".join(d.symbol for d in TOUHU)
#: Twice: enough flams that the big display is given a revision marked in place and others said
#: on lines of their own.
NOTATION = ONCE * 2
P, G = Drum.PI, Drum.GU


@dataclass
class Shown:
    """What a HeardLines showed while the take was heard: the lines judged (`live`), the lines
    shown at each time the display asked, and the revisions the big display shows apart then."""

    live: HeardLines
    shown: list[tuple[str, ...]] = field(default_factory=list)
    revisions: list[tuple[tuple[str, bool], ...]] = field(default_factory=list)


def heard_live(path, bpm, strokes, windows=(liveview.HEARD_LINES,)):
    """The take at `path` delivered at its pace while the score's `strokes` (notation) play at
    `bpm`, its first stroke answering the score's first; the listener, and for each of
    `windows` the lines a HeardLines of that window showed, as the display asked for them
    every 20 ms. The HeardLines share the listener, each taking its lines as it alone would."""
    timeline = arrange(resolve(strokes), None, Tempo.from_bpm(bpm), 1)
    hits = [h for h in Track.single(timeline).hits(44100) if h.drum is not None]
    now = [0.0]
    with AudioListener(str(path), clock=lambda: now[0], sleep=lambda s: None) as listener:
        listener.begin()
        views = {
            window: Shown(HeardLines(listener, Track.single(timeline), 44100, window=window))
            for window in windows
        }
        end = max(hits[-1].frame / 44100 + 60 / bpm, listener.input.audio.frames / 22050)
        while now[0] < end:
            now[0] += 0.02
            due = [h for h in hits if h.frame / 44100 <= now[0] - 0.4]  # the take from 0.4 s
            for hit in due:
                hits.remove(hit)
            for view in views.values():
                for hit in due:
                    view.live(hit)
                view.shown.append(view.live(None))
                view.revisions.append(view.live.revisions)
        for view in views.values():
            view.shown.append(view.live(None, final=True))
    return listener, views


def revised(lines):
    return [line for line in lines if line.endswith(("(revised)", "(withdrawn)"))]


def said_apart(lines):
    return [line for line in lines if line.startswith(("revised: ", "withdrawn: "))]


def assert_lines_are_the_strokes_heard(live, listener):
    """Revisions applied, the strokes the lines judge are the listener's (check's) strokes."""
    judged = sorted(
        e.time for e in live.entries if e.verdict is not None and e.verdict.kind != "missed"
    )
    assert judged == sorted(s.time for s in applied(listener.told) if not s.count)


@pytest.fixture(scope="module")
def flams(tmp_path_factory):
    """A take of flams heard once, as the normal display (the last three lines), a pipe (no
    line shown again) and the big display (one line) show it."""
    times = real_drums.even(TOUHU * 2, 80)
    sound = real_drums.membranes()
    flammed = list(range(2, len(times), 3))
    y = real_drums.with_graces(
        real_drums.placed(times, TOUHU * 2, sound),
        [times[k] for k in flammed],
        sound,
        [(TOUHU * 2)[k] for k in flammed],
    )
    path = real_drums.write(tmp_path_factory.mktemp("flams") / "take.wav", y)
    return heard_live(path, 80, NOTATION, windows=(liveview.HEARD_LINES, 0, 1))


def test_a_flam_moved_to_its_main_stroke_changes_its_line_in_place(flams):
    listener, views = flams
    live, shown = views[liveview.HEARD_LINES].live, views[liveview.HEARD_LINES].shown
    moved = [h for h in listener.revised if not h.withdrawn and h.stroke.time != h.revises]
    assert moved  # grace notes first heard as the stroke
    assert_lines_are_the_strokes_heard(live, listener)
    lines = live.lines
    marked = revised(lines)
    assert marked and all(re.match(r"stroke \d+: [鼙鼓]", line) for line in marked)
    # each marked line was shown before with another offset, at the same place
    for line in marked:
        k = lines.index(line)
        before = [s[k] for s in shown if len(s) > k and s[k] != line]
        number = line.split(":")[0]
        assert before and before[-1].startswith(number + ":")
        assert before[-1] != line.removesuffix(" (revised)")
    # a move is shown in place only while the line is among the last three
    for s, after in itertools.pairwise(shown):
        changed = [k for k in range(len(s)) if after[k] != s[k]]
        assert all(k >= len(after) - liveview.HEARD_LINES - 1 for k in changed)


def test_a_flams_first_line_is_judged_once_and_its_move_kept_beside_it(flams):
    """A take of flams delivered at its pace: each stroke's first line is among the strokes
    judged, once; the revisions that move a grace note's line to its main stroke are kept
    beside them (AudioListener.revised), each revising a line heard."""
    listener, _views = flams
    assert len(listener.heard) == len(TOUHU) * 2
    assert all(h.revises is None for h in listener.heard)
    moved = [h for h in listener.revised if h.stroke.time != h.revises]
    assert moved
    told = {h.stroke.time for h in listener.heard}
    assert all(h.revises in told and 0.015 < h.stroke.time - h.revises < 0.045 for h in moved)


def test_in_a_pipe_each_revision_is_a_line_of_its_own_and_no_line_changes(flams):
    listener, views = flams
    live, shown = views[0].live, views[0].shown
    assert_lines_are_the_strokes_heard(live, listener)
    apart = said_apart(live.lines)
    assert apart and not revised(live.lines)
    # what a pipe printed stays true: each line, once shown, is shown the same ever after
    for s, after in itertools.pairwise(shown):
        assert after[: len(s)] == s
    # the revision names the stroke of the score its line named, with the new offset
    for line in apart:
        was, now = line.removeprefix("revised: ").split(" → ")
        assert was in live.lines[: live.lines.index(line)] and now != was


def test_a_swell_withdrawn_is_marked_withdrawn(tmp_path):
    """Drums ringing between strokes: a swell taken for a stroke (an extra) is withdrawn."""
    times = real_drums.even(TOUHU, 100)
    sound = real_drums.membranes(low=100, high=170)
    y = real_drums.ringing(real_drums.placed(times, TOUHU, sound), times, real_drums.RATE)
    path = real_drums.write(tmp_path / "take.wav", y)
    listener, views = heard_live(path, 100, ONCE)
    live = views[liveview.HEARD_LINES].live
    assert any(h.withdrawn for h in listener.revised)
    assert_lines_are_the_strokes_heard(live, listener)
    gone = [x for x in live.lines if x.endswith("(withdrawn)") or x.startswith("withdrawn: ")]
    assert gone
    # every stroke of the score is judged once in the end: no line extra is left standing
    standing = [e for e in live.entries if e.verdict is not None]
    assert not [e for e in standing if e.verdict.kind == "extra"]
    numbers = sorted(e.verdict.number for e in standing)
    assert numbers == list(range(1, len(TOUHU) + 1))


def test_a_drum_told_again_changes_wrong_to_played_where_it_stands(tmp_path):
    """Drums told apart by their own sound (not the kit's): the first strokes' drums are told
    from few strokes and told again as more are heard; a line that said the wrong drum says the
    right one once the listener tells it, and every line ends on check's drum."""
    times = real_drums.even(TOUHU, 80)
    gu = real_drums.membranes(high=190)

    def sound(drum, rng):
        return real_drums.swelling(rng) if drum is Drum.PI else gu(drum, rng)

    y = real_drums.room(real_drums.placed(times, TOUHU, sound), real_drums.RATE)
    path = real_drums.write(tmp_path / "take.wav", y)
    listener, views = heard_live(path, 80, ONCE)
    live, shown = views[liveview.HEARD_LINES].live, views[liveview.HEARD_LINES].shown
    retold = [
        h
        for h in listener.revised
        if h.stroke.time == h.revises
        and h.stroke.drum
        != next(x.stroke.drum for x in listener.told if x.stroke.time == h.revises)
    ]
    assert retold  # a drum told again
    assert_lines_are_the_strokes_heard(live, listener)
    drums = {s.time: s.drum for s in applied(listener.told)}
    for e in live.entries:
        if e.verdict is not None and e.verdict.kind in ("played", "wrong"):
            assert e.verdict.drum is drums[e.time]
    changed = [
        (s[k], after[k])
        for s, after in itertools.pairwise(shown)
        for k in range(len(s))
        if after[k] != s[k]
    ]
    assert any("where the score has" in a and "(revised)" in b for a, b in changed) or any(
        "where the score has" in b for _a, b in changed
    )


def test_the_marks_read_as_chinese():
    line = liveview.verdict_line(Verdict("played", P, P, 5, 3.0))
    with i18n.speaking("zh-Hant"):
        zh = liveview.verdict_line(Verdict("played", P, P, 5, 3.0))
        assert liveview.revised_line(zh) == f"{zh}（已修正）"
        assert liveview.revision_line(zh, zh, withdrawn=True) == f"已撤銷：{zh}"
    with i18n.speaking("zh-Hans"):
        zh = liveview.verdict_line(Verdict("played", P, P, 5, 3.0))
        assert liveview.revised_line(zh, withdrawn=True) == f"{zh}（已撤销）"
    assert liveview.revised_line(line) == "stroke 5: 鼙 +3 ms (revised)"
    extra = liveview.verdict_line(Verdict("extra", P))
    assert liveview.revision_line(line, extra) == "revised: extra stroke on 鼙 → stroke 5: 鼙 +3 ms"


def test_the_big_display_is_given_each_revision_while_it_is_recent(flams):
    """The big display shows one line heard: the revisions among the last three lines (a
    revision of an earlier line is said on a line of its own) are given apart
    (HeardLines.revisions), so that the big display shows them under the last line for a few
    beats, each of them, however close together they come."""
    listener, views = flams
    live, shown, revisions = views[1].live, views[1].shown, views[1].revisions
    assert_lines_are_the_strokes_heard(live, listener)
    told = revised(live.lines) + said_apart(live.lines)
    given = {r for rs in revisions for r in rs}
    assert told and {text for text, _own in given} == set(told)  # every one, nothing else
    assert all(own == (text in said_apart(live.lines)) for text, own in given)
    assert {own for _text, own in given} == {True, False}  # marked in place, and said apart
    for lines, rs in zip(shown, revisions, strict=False):
        recent = lines[-liveview.HEARD_LINES :]
        assert [text for text, _own in rs] == [x for x in recent if x in told]
    # each is given for a while (the display asks every 20 ms), then leaves
    for r in told:
        spell = [r in (text for text, _own in rs) for rs in revisions]
        first = spell.index(True)
        assert all(spell[first : first + 5])
    last = {text for text, _own in revisions[-1]}
    assert last <= set(shown[-2][-liveview.HEARD_LINES :])


def test_the_big_display_shows_a_revision_apart_in_reverse_video():
    t = arrange(resolve("○□○"), None, Tempo.from_interval("0.5"), 1)
    hit = Track.single(t).hits(44100)[1]
    was = "stroke 1: 鼓 where the score has 鼙, +94 ms"
    revision = liveview.revision_line("stroke 1: 鼙 +11 ms", was)
    heard = ("stroke 1: 鼙 +0 ms", revision, "stroke 3: 鼓 +2 ms")
    state = liveview.LiveState(bpm=120, heard=heard, revisions=((revision, True),))
    screen = liveview.big_frame(hit, state, 100, 34)
    assert screen is not None and len(screen) == 34
    rows = [liveview._CONTROL.sub("", row).strip() for row in screen]
    last, apart = rows.index(heard[-1]), rows.index(revision)
    assert apart == last + 1  # under the last line heard
    assert screen[apart].strip() == liveview.HIGHLIGHT + revision + liveview.HIGHLIGHT_END
    assert liveview.HIGHLIGHT not in screen[last]
    assert all(liveview.shown_width(row) < 100 for row in screen)
    # a revision said after the last stroke's line: that line still shows, the revision under
    later = liveview.LiveState(
        bpm=120, heard=(*heard[:1], heard[2], revision), revisions=state.revisions
    )
    assert liveview.big_frame(hit, later, 100, 34) == screen
    # the last line itself revised: it is marked where it stands, not said twice
    marked = liveview.revised_line(heard[-1])
    revisions = ((revision, True), (marked, False))
    state = liveview.LiveState(bpm=120, heard=(*heard[:-1], marked), revisions=revisions)
    screen = liveview.big_frame(hit, state, 100, 34)
    assert screen is not None
    rows = [liveview._CONTROL.sub("", row).strip() for row in screen]
    assert rows.count(marked) == 1 and rows.index(revision) == rows.index(marked) + 1
    assert [row.strip() for row in screen if liveview.HIGHLIGHT in row] == [
        liveview.HIGHLIGHT + text + liveview.HIGHLIGHT_END for text in (marked, revision)
    ]
    # no revision: nothing in reverse video, nothing under the last line
    plain = liveview.big_frame(hit, liveview.LiveState(bpm=120, heard=heard), 100, 34)
    assert plain is not None and not any(liveview.HIGHLIGHT in row for row in plain)
    assert revision not in "\n".join(plain)


def test_a_long_revision_is_wrapped_and_each_piece_shown_apart():
    t = arrange(resolve("○□○"), None, Tempo.from_interval("0.5"), 1)
    hit = Track.single(t).hits(44100)[1]
    revision = liveview.revision_line(
        "stroke 1: 鼙 +11 ms", "stroke 1: 鼓 where the score has 鼙, +94 ms"
    )
    heard = ("stroke 2: 鼓 +0 ms", revision)
    state = liveview.LiveState(bpm=120, heard=heard, revisions=((revision, True),))
    screen = liveview.big_frame(hit, state, 40, 20)
    assert screen is not None
    marked = [row for row in screen if liveview.HIGHLIGHT in row]
    assert len(marked) >= 2 and all(liveview.shown_width(row) < 40 for row in screen)
    text = " ".join(liveview._CONTROL.sub("", row).strip() for row in marked)
    assert text.replace(" ", "") == revision.replace(" ", "")


def test_the_big_display_shows_the_last_line_revised():
    heard = ("stroke 1: 鼙 +0 ms", liveview.revised_line("stroke 2: 鼓 +8 ms"))
    t = arrange(resolve("○□○"), None, Tempo.from_interval("0.5"), 1)
    hit = Track.single(t).hits(44100)[1]
    screen = liveview.big_frame(hit, liveview.LiveState(bpm=120, heard=heard), 100, 34)
    assert screen is not None and any("stroke 2: 鼓 +8 ms (revised)" in row for row in screen)
    assert np.all([liveview.shown_width(row) < 100 for row in screen])
