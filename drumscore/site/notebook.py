"""What a notebook shows for a Score or a Pattern: the notation in its shapes with 半, the counts,
and a player of the default render (the whole pattern at 60 strokes a minute), embedded.

Called by Score._repr_html_ and Pattern._repr_html_; numpy and soundfile are imported here, when
a notebook first shows a score, never by `import drumscore`.
"""

from __future__ import annotations

import base64
import html
import io
from typing import TYPE_CHECKING

from drumscore.model import Pattern, Score, Section
from drumscore.timeline import arrange

if TYPE_CHECKING:
    from drumscore.apparatus.align import Apparatus

STYLE = """<style>
.drumscore-nb { font-family: system-ui, sans-serif; line-height: 1.4; }
.drumscore-nb .nb-notation { font-family: "Noto Serif CJK TC", "Songti TC", "SimSun", serif;
  font-size: 1.6em; display: flex; flex-wrap: wrap; align-items: flex-end; gap: 0 0.5em; }
.drumscore-nb .nb-part { border-top: 3px solid #ccc; }
.drumscore-nb .nb-part.touhu { border-top-color: #8c2d19; }
.drumscore-nb .nb-label { display: block; font: 0.5em system-ui, sans-serif; color: #666; }
.drumscore-nb .pi { color: #1f5a8c; }
.drumscore-nb .gu { color: #8c2d19; }
.drumscore-nb .nb-half { font-weight: bold; }
.drumscore-nb .nb-meta { color: #555; font-size: 0.9em; margin: 0.2em 0; }
</style>"""


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _strokes(pattern: Pattern, start: int, stop: int) -> str:
    return "".join(
        f'<span class="{s.drum.pinyin}" title="stroke {s.index + 1}: {s.drum.value}">'
        f"{s.drum.symbol}</span>"
        for s in pattern.strokes[start:stop]
    )


def notation_html(pattern: Pattern) -> str:
    """The pattern's strokes as ○ and □, 半 between the part before it and 投壺 after it."""
    half = pattern.half
    if half is None:
        body = f'<span class="nb-part">{_strokes(pattern, 0, len(pattern))}</span>'
    else:
        parts = []
        if half > 0:
            c = pattern.counts(Section.HEAD)
            parts.append(
                f'<span class="nb-part head"><span class="nb-label">before 半 · {c}</span>'
                f"{_strokes(pattern, 0, half)}</span>"
            )
        parts.append('<span class="nb-half">半</span>')
        if half < len(pattern):
            c = pattern.counts(Section.TOUHU)
            parts.append(
                f'<span class="nb-part touhu"><span class="nb-label">投壺 touhu · {c}</span>'
                f"{_strokes(pattern, half, len(pattern))}</span>"
            )
        body = "".join(parts)
    return f'<div class="nb-notation" lang="zh">{body}</div>'


def audio_html(score: Score) -> str:
    """An <audio> player holding the default render (射, 60 a minute) as FLAC, inline."""
    import soundfile as sf

    from drumscore.render.mix import render_audio

    timeline = arrange(score)
    audio = render_audio(timeline)
    buffer = io.BytesIO()
    sf.write(buffer, audio, 44100, format="FLAC", subtype="PCM_16")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    seconds = len(audio) / 44100
    return (
        f'<audio controls preload="metadata" src="data:audio/flac;base64,{data}" '
        f'title="{_esc(timeline.description)}"></audio>'
        f'<p class="nb-meta">{_esc(timeline.description)}: {len(timeline)} strokes at 60 a '
        f"minute, {seconds:.1f} s</p>"
    )


def score_html(score: Score) -> str:
    """The notebook view of a score: title, name, notation, counts, source and a player."""
    pattern = score.pattern
    whole = pattern.counts(Section.SHE)
    rows = [f'<p class="nb-meta">射 she, the whole pattern: {len(pattern)} strokes · {whole}']
    if score.edition_id:
        rows.append(f" · name <code>{_esc(score.key)}</code>")
    rows.append("</p>")
    if score.source and score.source.citation:
        rows.append(f'<p class="nb-meta">source: {_esc(score.source.citation)}</p>')
    return (
        f'{STYLE}<div class="drumscore-nb"><strong lang="zh">{_esc(score.title)}</strong>'
        f"{notation_html(pattern)}{''.join(rows)}{audio_html(score)}</div>"
    )


def pattern_html(pattern: Pattern) -> str:
    """The notebook view of a bare pattern: as for a score, without edition and source."""
    return score_html(Score(pattern, printed=pattern.notation))


def apparatus_html(a: Apparatus) -> str:
    """The notebook view of an apparatus: its summary (the words every view uses), each place,
    and every witness aligned, a text known from a note marked with who reports it."""
    places = []
    for n, p in enumerate(a.places, 1):
        readings = "; ".join(
            f"{_esc(v.shown)} {_esc(' '.join(v.sigla))}"
            + (f" ({_esc(v.description)})" if v.description else "")
            + "".join(f" ({_esc(str(r))})" for r in v.reports)
            for v in p.variants
        )
        places.append(
            f"<li value={n}>{_esc(p.label)} ({_esc(p.section_name)}) {_esc(p.lemma.shown)} "
            f"{_esc(' '.join(p.lemma.printed))} ] {readings}</li>"
        )
    rows = []
    for i, w in enumerate(a.witnesses):
        name = f"{w.siglum} (reported in {w.reported_by})" if w.reported else w.siglum
        cells = "".join(f"<td>{_esc(c or '·')}</td>" for c in a.row(i))
        rows.append(f'<tr><th class="nb-meta">{_esc(name)}</th>{cells}</tr>')
    agreements = "".join(f'<p class="nb-meta">{_esc(t)}</p>' for t in a.agreements)
    return (
        f'{STYLE}<div class="drumscore-nb"><strong lang="zh">{_esc(a.title)}</strong>'
        f'<p class="nb-meta">{_esc(a.summary)}</p><ol>{"".join(places)}</ol>{agreements}'
        f'<table lang="zh">{"".join(rows)}</table></div>'
    )
