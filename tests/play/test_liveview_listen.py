"""What play --listen shows of the drums heard: a line for each stroke as it is judged, under the
stroke sounding in the normal display and in the big one; and how LiveCheck judges them."""

from __future__ import annotations

import re

from drumscore import i18n
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.display import width
from drumscore.model import Drum
from drumscore.play import liveview
from drumscore.play.listening import LiveCheck, Verdict
from drumscore.timing import Tempo

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
P, G = Drum.PI, Drum.GU


def hits(notation="○□○○□○", interval="0.5"):
    t = arrange(resolve(notation), None, Tempo.from_interval(interval), 1)
    return Track.single(t).hits(44100)


HEARD = (
    liveview.verdict_line(Verdict("played", P, P, 1, 0.0)),
    liveview.verdict_line(Verdict("wrong", P, G, 2, -12.4)),
    liveview.verdict_line(Verdict("missed", None, P, 3)),
    liveview.verdict_line(Verdict("extra", G)),
)


def test_each_verdict_says_the_stroke_the_drum_and_the_offset():
    assert HEARD == (
        "stroke 1: 鼙 +0 ms",
        "stroke 2: 鼙 where the score has 鼓, -12 ms",
        "stroke 3 (鼙) missed",
        "extra stroke on 鼓",
    )


def test_the_verdicts_read_as_chinese():
    with i18n.speaking("zh-Hant"):
        wrong = liveview.verdict_line(Verdict("wrong", P, G, 2, 8.0))
        missed = liveview.verdict_line(Verdict("missed", None, G, 3))
    assert wrong == "第 2 擊：譜作鼓，打了鼙，+8 毫秒"
    assert missed == "第 3 擊（鼓）漏擊"
    with i18n.speaking("zh-Hans"):
        assert liveview.verdict_line(Verdict("extra", G)) == "多击：鼓"


def test_the_normal_display_shows_the_last_three_heard_under_the_status():
    state = liveview.LiveState(bpm=120, heard=HEARD)
    lines = [ANSI.sub("", line) for line in liveview.hit_frame(hits()[1], state, 80)]
    assert [line.strip() for line in lines[2:5]] == list(HEARD[1:])
    assert all(width(line) < 80 for line in lines)
    assert len(liveview.hit_frame(hits()[1], liveview.LiveState(bpm=120), 80)) == 2


def test_the_big_display_shows_the_last_heard_under_the_stroke():
    screen = liveview.big_frame(hits()[1], liveview.LiveState(bpm=120, heard=HEARD), 100, 34)
    assert screen is not None and len(screen) == 34
    text = "\n".join(screen)
    assert HEARD[-1] in text and HEARD[-2] not in text


def test_the_first_stroke_heard_sets_the_performers_beat():
    played = [h for h in hits() if h.drum is not None]
    live = LiveCheck(44100, 0.5)
    assert live.hear(0.2, P) is None  # nothing laid out yet: asked again later
    for hit in played:
        live.expect(hit)
    lag = 0.13  # the take's strokes stand 130 ms after the score's
    first = live.hear(played[0].frame / 44100 + lag, P)
    assert first == Verdict("played", P, P, 1, 0.0)
    late = live.hear(played[1].frame / 44100 + lag + 0.02, P)  # 20 ms late, on the wrong drum
    assert late is not None and late.kind == "wrong" and late.number == 2
    assert abs(late.offset_ms - 10.0) < 1e-6  # against the mean of the two: half of it
    assert live.hear(played[1].frame / 44100 + lag + 0.25, G).kind == "extra"
    # stroke 3 unheard half a beat and the lookahead after its time: missed; not before
    due = played[2].frame / 44100 + live.lag + 0.25 + 0.06
    assert live.passed(due - 0.01) == []
    assert [v.number for v in live.passed(due + 0.01)] == [3]


def test_a_stroke_heard_before_its_stroke_is_laid_out_waits_for_it():
    played = [h for h in hits() if h.drum is not None]
    live = LiveCheck(44100, 0.5)
    live.expect(played[0])
    assert live.hear(played[0].frame / 44100 + 0.1, P) is not None  # sets the beat
    # the display is behind: stroke 2 sounded and was heard before the player said it was laid
    second = played[1].frame / 44100 + 0.1
    assert live.hear(second, G) is None
    live.expect(played[1])
    heard = live.hear(second, G)
    assert heard is not None and (heard.kind, heard.number) == ("played", 2)
    assert abs(heard.offset_ms) < 1e-6
    # after the score's last stroke, only the end says it is extra
    assert live.hear(second + 2.0, G) is None
    assert live.hear(second + 2.0, G, final=True) == Verdict("extra", G)
