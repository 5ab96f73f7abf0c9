"""The notebook view of a Score and a Pattern: notation in its shapes with 半, and a player
holding the default render."""

from __future__ import annotations

import base64
import io
import re

import numpy as np
import soundfile as sf

import drumscore
from drumscore import corpus
from drumscore.render.mix import render_audio
from drumscore.timeline import arrange


def glyphs(markup: str) -> str:
    return "".join(re.findall(r'<span class="(?:pi|gu|nb-half)"[^>]*>([○□半])</span>', markup))


def embedded_audio(markup: str):
    data = re.search(r'src="data:audio/flac;base64,([A-Za-z0-9+/=]+)"', markup).group(1)
    return sf.read(io.BytesIO(base64.b64decode(data)), dtype="float32", always_2d=True)


def test_a_score_shows_its_notation_name_source_and_player():
    score = corpus.resolve("lu")
    markup = score._repr_html_()
    assert glyphs(markup) == score.pattern.notation
    assert "lu/1@zhushu" in markup and score.source.citation in markup
    audio, rate = embedded_audio(markup)
    expected = render_audio(arrange(score))
    assert rate == 44100 and audio.shape == expected.shape
    assert np.max(np.abs(audio - expected)) < 1.5 / 32767  # the same render, in 16 bits


def test_a_pattern_without_half_shows_one_part():
    pattern = drumscore.parse("○□□○")
    markup = pattern._repr_html_()
    assert glyphs(markup) == "○□□○" and "半" not in glyphs(markup)
    audio, rate = embedded_audio(markup)
    assert len(audio) > 3 * rate


def test_an_apparatus_shows_its_summary_and_a_row_for_every_witness():
    from drumscore.apparatus.align import collate

    (a,) = collate(scores=[(2, "魯")])
    markup = a._repr_html_()
    assert a.summary in markup
    rows = re.findall(r"<tr><th[^>]*>(.*?)</th>(.*?)</tr>", markup)
    assert len(rows) == len(a.witnesses)
    for (name, cells), w in zip(rows, a.witnesses, strict=True):
        assert name.startswith(w.siglum)
        assert ("reported in yishu" in name) == w.reported
        assert "".join(re.findall(r"<td>([○□半])</td>", cells)) == w.notation
